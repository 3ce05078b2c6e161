/* wrap_cubin.c — puts an nvcc-built cubin behind the kernel table of a kcc bundle, so that
 * bench/kernel_time loads kcc's code and nvcc's code through the same libkcrt calls and the
 * same launch checks (the table carries the signatures libkcrt checks arguments against;
 * a cubin has no C-level signature of its own).
 *
 *   usage: wrap_cubin KCC_BUNDLE.kcb NVCC.cubin SM OUT.kcb
 *     e.g. wrap_cubin vecadd.kcb vecadd.cubin 90 vecadd-nvcc.kcb
 *
 * The output holds INFO (saying where the code came from), kcc's KERNELS section copied byte
 * for byte, and one CUBIN section for sm_SM; no PTX, SPIR-V or OpenCL C, so on a device that
 * cannot take that cubin libkcrt answers KCRT_ERROR_NO_BINARY instead of silently running
 * kcc's code under nvcc's name.
 *
 * The input bundle is checked before use (magic, major version, size, checksum, section
 * bounds, exactly one kernel table, kernel names inside the pool): it is read with the same
 * layout constants as libkcrt (runtime/kcb_format.h) but not with libkcrt's internal reader,
 * whose interface is private to the runtime. Each kernel name must also appear as a whole
 * NUL-terminated symbol name in the cubin: an nvcc source that forgot extern "C" (a mangled
 * _Z6vecadd...) is refused here rather than failing at kcrt_kernel_get on the GPU machine. */
#include "kcb_format.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("wrap_cubin: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) die("cannot open %s: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  unsigned char *d = malloc(cap);
  for (;;) {
    if (!d) die("out of memory reading %s", path);
    n += fread(d + n, 1, cap - n, f);
    if (n < cap) break;
    cap *= 2;
    d = realloc(d, cap);
  }
  if (ferror(f)) die("cannot read %s: %s", path, strerror(errno));
  fclose(f);
  *len = n;
  return d;
}

/* Finds `name` as a complete NUL-terminated string (a symbol-table entry) inside `img`. */
static int has_symbol(const unsigned char *img, size_t len, const unsigned char *name, size_t n) {
  for (size_t i = 1; i + n < len; i++)
    if (img[i - 1] == 0 && img[i + n] == 0 && !memcmp(img + i, name, n)) return 1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s KCC_BUNDLE.kcb NVCC.cubin SM OUT.kcb\n", argv[0]);
    return 2;
  }
  char *end;
  unsigned long sm = strtoul(argv[3], &end, 10);
  if (*end || sm < 10 || sm > 1000) die("bad architecture '%s' (want e.g. 90)", argv[3]);

  size_t blen, clen;
  unsigned char *b = slurp(argv[1], &blen);
  unsigned char *cub = slurp(argv[2], &clen);
  const char *bp = argv[1];

  if (blen < KCB_HEADER_SIZE || memcmp(b, KCB_MAGIC, KCB_MAGIC_SIZE))
    die("%s is not a kcc bundle", bp);
  if (kcb_get16(b + KCB_H_MAJOR) != KCB_VERSION_MAJOR)
    die("%s has a bundle major version this tool does not know", bp);
  if (kcb_get64(b + KCB_H_FILE_SIZE) != blen) die("%s is truncated or has trailing data", bp);
  if (kcb_get64(b + KCB_H_CHECKSUM) != kcb_checksum(b, blen)) die("%s: bad checksum", bp);
  uint64_t hs = kcb_get32(b + KCB_H_HEADER_SIZE), ns = kcb_get32(b + KCB_H_SECTION_COUNT);
  if (hs < KCB_HEADER_SIZE || hs + ns * KCB_SECTION_ENTRY_SIZE > blen)
    die("%s: the section table lies outside the file", bp);

  const unsigned char *ktab = NULL;
  uint64_t ktab_size = 0;
  for (uint64_t i = 0; i < ns; i++) {
    const unsigned char *e = b + hs + i * KCB_SECTION_ENTRY_SIZE;
    uint64_t off = kcb_get64(e + 8), size = kcb_get64(e + 16);
    if (off > blen || size > blen - off) die("%s: a section lies outside the file", bp);
    if (kcb_get32(e) != KCB_SEC_KERNELS) continue;
    if (ktab) die("%s has two kernel tables", bp);
    ktab = b + off;
    ktab_size = size;
  }
  if (!ktab || ktab_size < KCB_KTAB_HEADER_SIZE) die("%s has no kernel table", bp);

  /* Every kernel of the table must be in the cubin under its exact name. */
  uint64_t nk = kcb_get32(ktab), stroff = kcb_get32(ktab + 8), strsz = kcb_get32(ktab + 12);
  if (KCB_KTAB_HEADER_SIZE + nk * KCB_KERNEL_ENTRY_SIZE > ktab_size || stroff + strsz > ktab_size)
    die("%s: malformed kernel table", bp);
  if (clen < 4 || memcmp(cub, "\177ELF", 4)) die("%s is not an ELF cubin", argv[2]);
  for (uint64_t i = 0; i < nk; i++) {
    const unsigned char *k = ktab + KCB_KTAB_HEADER_SIZE + i * KCB_KERNEL_ENTRY_SIZE;
    uint64_t no = kcb_get32(k), nl = kcb_get32(k + 4);
    if (nl == 0 || no + nl > strsz) die("%s: malformed kernel name", bp);
    const unsigned char *name = ktab + stroff + no;
    if (!has_symbol(cub, clen, name, nl)) {
      char nm[256];
      snprintf(nm, sizeof nm, "%.*s", (int)(nl < 200 ? nl : 200), (const char *)name);
      die("%s has no symbol '%s' (extern \"C\" missing, or another kernel?)", argv[2], nm);
    }
  }

  char info[512];
  const char *base = strrchr(argv[2], '/');
  int il =
      snprintf(info, sizeof info, "producer=nvcc (cubin wrapped by bench/wrap_cubin)\nsource=%s\n",
               base ? base + 1 : argv[2]);
  if (il < 0 || (size_t)il >= sizeof info) il = (int)strlen(info);
  KcbWSection secs[] = {
      {KCB_SEC_INFO, 0, info, (uint64_t)il},
      {KCB_SEC_KERNELS, 0, ktab, ktab_size},
      {KCB_SEC_CUBIN, (uint32_t)sm, cub, clen},
  };
  size_t olen;
  unsigned char *out = kcb_write_bundle(secs, 3, &olen);
  if (!out) die("out of memory");
  FILE *f = fopen(argv[4], "wb");
  if (!f) die("cannot create %s: %s", argv[4], strerror(errno));
  size_t wrote = fwrite(out, 1, olen, f);
  if (fclose(f) != 0 || wrote != olen) die("cannot write %s: %s", argv[4], strerror(errno));
  free(out);
  free(b);
  free(cub);
  return 0;
}
