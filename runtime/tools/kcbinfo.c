/* kcbinfo — prints what a kcc bundle holds: its sections and its kernel table, validated by
 * the same reader the runtime uses. `kcbinfo FILE.kcb [--section
 * ptx|cl|spirv|vkspirv|cubin[:ARCH]]` writes the raw bytes of one section to stdout instead (to
 * inspect or feed other tools). Exit status: 0 valid, 1 invalid or unreadable, 2 bad usage. */
#define _GNU_SOURCE
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *sec_name(uint32_t k) {
  switch (k) {
  case KCB_SEC_INFO: return "info";
  case KCB_SEC_KERNELS: return "kernels";
  case KCB_SEC_PTX: return "ptx";
  case KCB_SEC_CUBIN: return "cubin";
  case KCB_SEC_SPIRV: return "spirv";
  case KCB_SEC_OPENCL_C: return "cl";
  case KCB_SEC_SYMBOLS: return "symbols";
  case KCB_SEC_KATTRS: return "kattrs";
  case KCB_SEC_BOUNDS: return "bounds";
  case KCB_SEC_SYMINIT: return "syminit";
  case KCB_SEC_VKSPIRV: return "vkspirv";
  default: return "unknown";
  }
}

static const char *kind_name(uint8_t k) {
  return k == KCB_PARAM_POINTER       ? "pointer"
         : k == KCB_PARAM_SCALAR      ? "scalar"
         : k == KCB_PARAM_LOCAL       ? "local"
         : k == KCB_PARAM_STRUCT      ? "struct"
         : k == KCB_PARAM_BOUNDS_SIZE ? "size"
         : k == KCB_PARAM_IMAGE       ? "image"
         : k == KCB_PARAM_SAMPLER     ? "sampler"
                                      : "record";
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  unsigned char *d = NULL;
  size_t n = 0, cap = 0, r;
  do {
    if (n == cap) {
      cap = cap ? cap * 2 : 65536;
      unsigned char *t = realloc(d, cap);
      if (!t) {
        free(d);
        fclose(f);
        return NULL;
      }
      d = t;
    }
    r = fread(d + n, 1, cap - n, f);
    n += r;
  } while (r);
  fclose(f);
  *len = n;
  return d;
}

int main(int argc, char **argv) {
  if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "--section"))) {
    fprintf(stderr, "usage: kcbinfo FILE.kcb [--section ptx|cl|spirv|vkspirv|cubin[:ARCH]|info]\n");
    return 2;
  }
  size_t len;
  unsigned char *data = slurp(argv[1], &len);
  if (!data) {
    perror(argv[1]);
    return 1;
  }
  KcbBundle *b;
  kcrt_status st = kcb_parse(data, len, &b);
  free(data);
  if (st) {
    fprintf(stderr, "kcbinfo: %s: %s\n", argv[1], kcrt_last_error());
    return 1;
  }
  int rc = 0;
  if (argc == 4) {
    char want[32];
    unsigned arch = 0;
    snprintf(want, sizeof want, "%s", argv[3]);
    char *colon = strchr(want, ':');
    if (colon) {
      *colon = 0;
      arch = (unsigned)strtoul(colon + 1 + (strncmp(colon + 1, "sm_", 3) ? 0 : 3), NULL, 10);
    }
    const KcbSection *s = NULL;
    for (uint32_t i = 0; i < b->nsecs && !s; i++)
      if (!strcmp(sec_name(b->secs[i].kind), want) && (!arch || b->secs[i].arch == arch))
        s = &b->secs[i];
    if (!s) {
      fprintf(stderr, "kcbinfo: %s has no %s section\n", argv[1], argv[3]);
      rc = 1;
    } else if (fwrite(s->data, 1, s->size, stdout) != s->size) {
      rc = 1;
    }
    kcb_free(b);
    return rc;
  }
  printf("%s: kcc bundle %u.%u, %zu bytes, checksum %016llx, source %s\n", argv[1],
         kcb_get16(b->image + KCB_H_MAJOR), kcb_get16(b->image + KCB_H_MINOR), b->size,
         (unsigned long long)b->hash, *b->source ? b->source : "?");
  printf("sections:\n");
  for (uint32_t i = 0; i < b->nsecs; i++) {
    const KcbSection *s = &b->secs[i];
    printf("  %-8s", sec_name(s->kind));
    if (s->arch)
      printf(" sm_%-3u", s->arch);
    else
      printf("       ");
    printf(" %8zu bytes at %zu\n", s->size, (size_t)(s->data - b->image));
  }
  if (b->nsites || b->nregions || kcb_section(b, KCB_SEC_BOUNDS, 0))
    printf("checked: -fbounds-check (%u regions, %u access sites)\n", b->nregions, b->nsites);
  printf("kernels:\n");
  for (uint32_t i = 0; i < b->nkernels; i++) {
    const KcbKernel *k = &b->kernels[i];
    printf("  %s: %u params, %llu bytes static shared%s", k->name, k->nparams,
           (unsigned long long)k->static_shared_bytes,
           k->flags & KCB_KERNEL_DYNAMIC_SHARED ? ", dynamic shared" : "");
    if (k->max_threads) printf(", launch bounds %u threads", k->max_threads);
    if (k->flags & KCB_KERNEL_WARP) printf(", warp operations");
    if (k->flags & KCB_KERNEL_SUBGROUPS) printf(", subgroup operations");
    if (k->flags & KCB_KERNEL_RW_IMAGES) printf(", read_write images (OpenCL C 2.0)");
    printf("\n");
    for (uint32_t j = 0; j < k->nparams; j++) {
      const KcbParam *p = &k->params[j];
      printf("    %u: %-24s %-8s size %u align %u", j, p->name, kind_name(p->kind), p->size,
             p->align);
      if (p->kind == KCB_PARAM_POINTER) printf(" addrspace %u", p->addr_space);
      printf("  (%s)\n", p->type);
    }
    for (uint32_t j = k->nparams; j < k->nparams + k->nhidden; j++)
      printf("    hidden argument %u: %s (bounds check %s)\n", j, k->params[j].name,
             k->params[j].kind == KCB_PARAM_BOUNDS_SIZE ? "size" : "error record");
    for (uint32_t j = 0; j < k->nsymbols; j++) {
      const KcbSymbol *y = &b->symbols[k->symbols[j]];
      printf("    hidden OpenCL argument %u: %s '%s'\n", k->nparams + k->nhidden + j,
             y->flags & KCB_SYMBOL_MUTABLE ? "__device__ variable" : "host-filled", y->name);
    }
  }
  if (b->nsymbols) printf("host-filled variables:\n");
  for (uint32_t i = 0; i < b->nsymbols; i++) {
    const KcbSymbol *y = &b->symbols[i];
    printf("  %s: %llu bytes%s%s\n", y->name, (unsigned long long)y->size,
           y->flags & KCB_SYMBOL_MUTABLE ? ", a __device__ variable (kernels write it)" : "",
           y->init ? ", with a first value" : "");
  }
  kcb_free(b);
  return rc;
}
