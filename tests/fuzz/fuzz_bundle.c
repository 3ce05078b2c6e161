/* fuzz_bundle.c — libFuzzer harness for libkcrt's bundle reader (runtime/bundle.c): any bytes
 * through kcb_parse, and for a bundle it accepts, every lookup a module load makes (each
 * kernel and its parameters, each symbol, each section and its text). The reader must reject
 * what it cannot vouch for without reading out of bounds (ASan) or undefined behaviour (UBSan).
 *
 * A mutated bundle would almost always stop at the checksum, so the harness first writes the
 * input's own size and checksum into a copy's header (as a producer would), unless the input's
 * last byte is 0xff: then the bytes go in as they are. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kcb_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  KcbBundle *b = NULL;
  unsigned char *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  memcpy(copy, data, size);
  if (size >= KCB_HEADER_SIZE && data[size - 1] != 0xff) {
    kcb_put64(copy + KCB_H_FILE_SIZE, size);
    kcb_put64(copy + KCB_H_CHECKSUM, kcb_checksum(copy, size));
  }
  kcrt_status st = kcb_parse(copy, size, &b);
  free(copy); /* kcb_parse keeps a private copy */
  if (st != KCRT_SUCCESS) return 0;
  size_t sum = strlen(b->source);
  for (uint32_t i = 0; i < b->nkernels; i++) {
    const KcbKernel *k = &b->kernels[i];
    if (kcb_kernel(b, k->name) == NULL) abort(); /* every kernel is found by its name */
    for (uint32_t p = 0; p < k->nparams; p++) {
      sum += strlen(k->params[p].name) + strlen(k->params[p].type);
      sum += kcb_elem_size(k->params[p].scalar, k->params[p].vec_len);
    }
    for (uint32_t s = 0; s < k->nsymbols; s++)
      if (k->symbols[s] >= b->nsymbols) abort(); /* a kernel's symbols exist */
  }
  for (uint32_t i = 0; i < b->nsymbols; i++)
    if (kcb_symbol(b, b->symbols[i].name) < 0) abort();
  for (uint32_t i = 0; i < b->nsecs; i++) {
    const KcbSection *s = &b->secs[i];
    /* An empty section counts as absent (bundle.c); any other is found by its kind and arch. */
    if (s->size && kcb_section(b, s->kind, s->arch) == NULL) abort();
    char *t = kcb_text(s);
    if (t) sum += strlen(t);
    free(t);
  }
  (void)kcb_kernel(b, "");
  (void)kcb_symbol(b, "");
  kcb_free(b);
  return sum == (size_t)-1;
}
