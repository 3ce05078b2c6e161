/* buf.c — growable output buffers: back ends write here, the driver writes files once. */
#include "kcc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void kbuf_append(KBuf *b, const void *data, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
      fputs("kcc: fatal error: out of memory\n", stderr);
      exit(1);
    }
    b->data = d;
    b->cap = cap;
  }
  if (n) memcpy(b->data + b->len, data, n);
  b->len += n;
  b->data[b->len] = 0; /* text outputs can be used as C strings */
}

void kbuf_puts(KBuf *b, const char *s) { kbuf_append(b, s, strlen(s)); }

void kbuf_printf(KBuf *b, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    kbuf_append(b, small, n);
    return;
  }
  char *big = malloc(n + 1);
  if (!big) return;
  va_start(ap, fmt);
  vsnprintf(big, n + 1, fmt, ap);
  va_end(ap);
  kbuf_append(b, big, n);
  free(big);
}

void kbuf_free(KBuf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

void kcc_options_default(KOptions *o) {
  memset(o, 0, sizeof *o);
  o->opt_level = 3;
  o->narchs = 1;
  o->archs[0] = 75;
  o->fp_contract = true;
}
