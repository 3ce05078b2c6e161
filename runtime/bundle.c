/* bundle.c — the bundle reader: validates a .kcb image (docs/bundle.md) and turns it into a
 * KcbBundle. Every offset, size and count is checked in 64-bit arithmetic against the bytes
 * actually present before it is used, so no input, however forged, makes the reader touch
 * memory outside the image or allocate beyond what the image could describe. */
#define _GNU_SOURCE
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static kcrt_status bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static kcrt_status bad(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return kcrt_fail(KCRT_ERROR_INVALID_MODULE, "invalid bundle: %s", msg);
}

/* A string of the kernel table: [off, off+len) inside the pool, no NUL inside, and within
 * the budget: strings may not share pool bytes (their lengths add up to at most the pool
 * size), which bounds the copies by the input size whatever offsets a forged table holds. */
static bool str_ok(uint64_t off, uint64_t len, uint64_t poolsz, const unsigned char *pool,
                   uint64_t *used) {
  if (off > poolsz || len > poolsz - off || len > poolsz - *used) return false;
  *used += len;
  return memchr(pool + off, 0, (size_t)len) == NULL;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp((*(const KcbKernel *const *)a)->name, (*(const KcbKernel *const *)b)->name);
}

static char *copy_str(char **pool, const unsigned char *src, size_t n) {
  char *s = *pool;
  memcpy(s, src, n);
  s[n] = 0;
  *pool += n + 1;
  return s;
}

/* -fbounds-check (1.3): a checked kernel's list ends with hidden parameters the runtime fills:
 * one BOUNDS_SIZE per pointer and local parameter, in order, one for the dynamic shared
 * bytes, then the BOUNDS_RECORD. They leave nparams (what the host passes) and go to
 * nhidden. Any other arrangement is refused: the runtime could not fill it. */
static bool is_hidden(uint8_t kind) {
  return kind == KCB_PARAM_BOUNDS_SIZE || kind == KCB_PARAM_BOUNDS_RECORD ||
         kind == KCB_PARAM_TEX_SAMPLER;
}

/* 1.7: a kernel with texture objects ends with one TEX_SAMPLER per TEXTURE parameter, in
 * order, each naming its texture (scalar); such kernels have no bounds-check parameters. */
static kcrt_status split_tex_samplers(KcbKernel *k, uint32_t first) {
  uint32_t n = k->nparams, t = 0;
  for (uint32_t j = first; j < n; j++) {
    const KcbParam *p = &k->params[j];
    while (t < first && k->params[t].kind != KCB_PARAM_TEXTURE) t++;
    if (p->kind != KCB_PARAM_TEX_SAMPLER || t >= first || p->scalar != t)
      return bad("kernel table: kernel '%s' has a texture sampler parameter ('%s') that follows "
                 "no texture parameter of its own",
                 k->name, p->name);
    t++;
  }
  while (t < first && k->params[t].kind != KCB_PARAM_TEXTURE) t++;
  if (t < first)
    return bad("kernel table: texture parameter '%s' of kernel '%s' has no sampler parameter",
               k->params[t].name, k->name);
  k->nparams = first;
  k->nhidden = n - first;
  return KCRT_SUCCESS;
}

static kcrt_status split_hidden(KcbKernel *k) {
  uint32_t n = k->nparams, first = n;
  bool tex = false;
  for (uint32_t j = 0; j < n; j++) tex |= k->params[j].kind == KCB_PARAM_TEX_SAMPLER;
  while (first > 0 && is_hidden(k->params[first - 1].kind)) first--;
  for (uint32_t j = 0; j < first; j++)
    if (is_hidden(k->params[j].kind))
      return bad("kernel table: kernel '%s' has a bounds-check parameter ('%s') before its own "
                 "parameters",
                 k->name, k->params[j].name);
  if (tex) return split_tex_samplers(k, first);
  if (first == n) return KCRT_SUCCESS;
  uint32_t want = 2;
  for (uint32_t j = 0; j < first; j++)
    want += k->params[j].kind == KCB_PARAM_POINTER || k->params[j].kind == KCB_PARAM_LOCAL;
  bool ok = n - first == want && k->params[n - 1].kind == KCB_PARAM_BOUNDS_RECORD;
  for (uint32_t j = first; ok && j < n - 1; j++) ok = k->params[j].kind == KCB_PARAM_BOUNDS_SIZE;
  if (!ok)
    return bad("kernel table: kernel '%s' has %u bounds-check parameters where its %u own "
               "parameters need %u sizes and a record",
               k->name, n - first, first, want - 1);
  k->nparams = first;
  k->nhidden = n - first;
  return KCRT_SUCCESS;
}

static const char *kind_name(uint8_t kind) {
  return kind == KCB_PARAM_POINTER       ? "pointer"
         : kind == KCB_PARAM_SCALAR      ? "scalar"
         : kind == KCB_PARAM_LOCAL       ? "local"
         : kind == KCB_PARAM_STRUCT      ? "struct"
         : kind == KCB_PARAM_IMAGE       ? "image"
         : kind == KCB_PARAM_SAMPLER     ? "sampler"
         : kind == KCB_PARAM_TEXTURE     ? "texture"
         : kind == KCB_PARAM_SURFACE     ? "surface"
         : kind == KCB_PARAM_TEX_SAMPLER ? "texture sampler"
                                         : "bounds-check";
}

size_t kcb_elem_size(int t, int vec_len) {
  static const unsigned char sizes[] = {
      [KCB_T_BOOL] = 1, [KCB_T_I8] = 1,  [KCB_T_I16] = 2, [KCB_T_I32] = 4,
      [KCB_T_I64] = 8,  [KCB_T_U8] = 1,  [KCB_T_U16] = 2, [KCB_T_U32] = 4,
      [KCB_T_U64] = 8,  [KCB_T_F32] = 4, [KCB_T_F64] = 8};
  size_t s = t > 0 && (size_t)t < sizeof sizes ? sizes[t] : 0;
  return vec_len ? s * (size_t)(vec_len == 3 ? 4 : vec_len) : s;
}

static bool vec_len_ok(unsigned n) {
  return n == 0 || n == 2 || n == 3 || n == 4 || n == 8 || n == 16;
}

static kcrt_status parse_kernels(KcbBundle *b, const KcbSection *s) {
  const unsigned char *t = s->data;
  uint64_t size = s->size;
  if (size < KCB_KTAB_HEADER_SIZE)
    return bad("kernel table of %llu bytes is shorter than its %d-byte header",
               (unsigned long long)size, KCB_KTAB_HEADER_SIZE);
  uint64_t nk = kcb_get32(t), np = kcb_get32(t + 4), stroff = kcb_get32(t + 8),
           strsz = kcb_get32(t + 12);
  uint64_t ents = KCB_KTAB_HEADER_SIZE + nk * KCB_KERNEL_ENTRY_SIZE + np * KCB_PARAM_ENTRY_SIZE;
  if (ents > stroff)
    return bad("kernel table: %llu kernels and %llu parameters overlap the string pool at %llu",
               (unsigned long long)nk, (unsigned long long)np, (unsigned long long)stroff);
  if (stroff > size || strsz > size - stroff)
    return bad("kernel table: string pool [%llu, +%llu) lies outside the %llu-byte section",
               (unsigned long long)stroff, (unsigned long long)strsz, (unsigned long long)size);
  const unsigned char *pool = t + stroff;
  const unsigned char *kent = t + KCB_KTAB_HEADER_SIZE;
  const unsigned char *pent = kent + nk * KCB_KERNEL_ENTRY_SIZE;

  /* Counts are bounded by the section size now (each entry takes 32 bytes of it), so these
   * allocations are bounded by the input. One NUL per string at most: 3 strings a param. */
  b->kernels = calloc(nk ? nk : 1, sizeof *b->kernels);
  b->params = calloc(np ? np : 1, sizeof *b->params);
  b->strings = malloc(strsz + nk + 2 * np + 1);
  if (!b->kernels || !b->params || !b->strings)
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading a bundle");
  char *sp = b->strings;
  uint64_t used = 0;
  b->nkernels = (uint32_t)nk;

  for (uint64_t i = 0; i < np; i++) {
    const unsigned char *e = pent + i * KCB_PARAM_ENTRY_SIZE;
    uint64_t noff = kcb_get32(e), nlen = kcb_get32(e + 4), toff = kcb_get32(e + 8),
             tlen = kcb_get32(e + 12);
    if (!str_ok(noff, nlen, strsz, pool, &used) || !str_ok(toff, tlen, strsz, pool, &used))
      return bad("kernel table: parameter %llu has a name or type outside the string pool",
                 (unsigned long long)i);
    KcbParam *p = &b->params[i];
    p->name = copy_str(&sp, pool + noff, (size_t)nlen);
    p->type = copy_str(&sp, pool + toff, (size_t)tlen);
    p->kind = e[16];
    p->addr_space = e[17];
    p->scalar = e[18];
    p->qual = e[19];
    p->size = kcb_get32(e + 20);
    p->align = kcb_get32(e + 24);
    p->vec_len = e[28];
    if (p->kind < KCB_PARAM_POINTER || p->kind > KCB_PARAM_TEX_SAMPLER)
      return bad("kernel table: parameter %llu ('%s') has unknown kind %u", (unsigned long long)i,
                 p->name, p->kind);
    if (p->size == 0 || p->align == 0 || (p->align & (p->align - 1)) || p->align > 4096)
      return bad("kernel table: %s parameter '%s' has size %u and alignment %u", kind_name(p->kind),
                 p->name, p->size, p->align);
    if ((p->kind == KCB_PARAM_BOUNDS_SIZE || p->kind == KCB_PARAM_BOUNDS_RECORD) &&
        (p->size != 8 || p->align != 8 || p->vec_len))
      return bad("kernel table: bounds-check parameter '%s' has size %u and alignment %u (must "
                 "be 8 and 8)",
                 p->name, p->size, p->align);
    /* 1.5: the host passes a handle; an image's scalar field is its dimension, qual its access. */
    if ((p->kind == KCB_PARAM_IMAGE || p->kind == KCB_PARAM_SAMPLER) &&
        (p->size != 8 || p->align != 8 || p->vec_len || p->addr_space ||
         (p->kind == KCB_PARAM_IMAGE
              ? p->scalar < KCB_IMAGE_1D || p->scalar > KCB_IMAGE_3D || p->qual < 1 || p->qual > 3
              : p->scalar || p->qual)))
      return bad("kernel table: %s parameter '%s' is malformed (size %u, alignment %u, type "
                 "code %u, access %u)",
                 kind_name(p->kind), p->name, p->size, p->align, p->scalar, p->qual);
    /* 1.7: a texture or surface object (8 bytes: a handle) and the image type the kernel reads
     * it as; a texture's sampler names its texture's index. */
    if ((p->kind == KCB_PARAM_TEXTURE || p->kind == KCB_PARAM_SURFACE ||
         p->kind == KCB_PARAM_TEX_SAMPLER) &&
        (p->size != 8 || p->align != 8 || p->vec_len || p->addr_space ||
         (p->kind != KCB_PARAM_TEX_SAMPLER &&
          (p->scalar < KCB_IMAGE_1D || p->scalar > KCB_IMAGE_3D || p->qual < 1 || p->qual > 3))))
      return bad("kernel table: %s parameter '%s' is malformed (size %u, alignment %u, type "
                 "code %u, access %u)",
                 kind_name(p->kind), p->name, p->size, p->align, p->scalar, p->qual);
    if (p->kind == KCB_PARAM_POINTER && p->size != 8)
      return bad("kernel table: pointer parameter '%s' is %u bytes (kcc pointers are 8)", p->name,
                 p->size);
    /* A local parameter is a 32-bit offset on CUDA and a __local pointer on OpenCL. */
    if (p->kind == KCB_PARAM_LOCAL && (p->size != 4 || p->align != 4 || p->addr_space != 3))
      return bad("kernel table: local parameter '%s' has size %u, alignment %u and address "
                 "space %u (must be 4, 4 and 3)",
                 p->name, p->size, p->align, p->addr_space);
    if (!vec_len_ok(p->vec_len) || (p->vec_len && p->kind == KCB_PARAM_STRUCT))
      return bad("kernel table: %s parameter '%s' has vector length %u", kind_name(p->kind),
                 p->name, p->vec_len);
    if (p->vec_len && (p->scalar == KCB_T_BOOL || !kcb_elem_size(p->scalar, 0)))
      return bad("kernel table: vector parameter '%s' has element type code %u", p->name,
                 p->scalar);
    if (p->vec_len && p->kind == KCB_PARAM_SCALAR &&
        (p->size != kcb_elem_size(p->scalar, p->vec_len) || p->align != p->size))
      return bad("kernel table: vector parameter '%s' has size %u and alignment %u (its layout "
                 "is %zu and %zu)",
                 p->name, p->size, p->align, kcb_elem_size(p->scalar, p->vec_len),
                 kcb_elem_size(p->scalar, p->vec_len));
  }
  for (uint64_t i = 0; i < nk; i++) {
    const unsigned char *e = kent + i * KCB_KERNEL_ENTRY_SIZE;
    uint64_t noff = kcb_get32(e), nlen = kcb_get32(e + 4), first = kcb_get32(e + 8),
             cnt = kcb_get32(e + 12);
    if (nlen == 0 || !str_ok(noff, nlen, strsz, pool, &used))
      return bad("kernel table: kernel %llu has an empty name or one outside the string pool",
                 (unsigned long long)i);
    KcbKernel *k = &b->kernels[i];
    k->name = copy_str(&sp, pool + noff, (size_t)nlen);
    if (first > np || cnt > np - first)
      return bad("kernel table: kernel '%s' lists parameters [%llu, +%llu) of %llu", k->name,
                 (unsigned long long)first, (unsigned long long)cnt, (unsigned long long)np);
    k->params = b->params + first;
    k->nparams = (uint32_t)cnt;
    k->static_shared_bytes = kcb_get64(e + 16);
    k->flags = kcb_get32(e + 24);
    k->max_threads = kcb_get32(e + 28);
    for (uint32_t j = 0; j < k->nparams; j++) k->nlocal += k->params[j].kind == KCB_PARAM_LOCAL;
    kcrt_status st = split_hidden(k);
    if (st) return st;
  }
  /* Duplicate names would make lookups ambiguous: sort pointers, compare neighbours. */
  if (nk > 1) {
    const KcbKernel **sorted = malloc(nk * sizeof *sorted);
    if (!sorted) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading a bundle");
    for (uint64_t i = 0; i < nk; i++) sorted[i] = &b->kernels[i];
    qsort(sorted, nk, sizeof *sorted, cmp_names);
    for (uint64_t i = 1; i < nk; i++)
      if (!strcmp(sorted[i]->name, sorted[i - 1]->name)) {
        kcrt_status st = bad("kernel table: kernel '%s' is listed twice", sorted[i]->name);
        free(sorted);
        return st;
      }
    free(sorted);
  }
  return KCRT_SUCCESS;
}

/* SYMBOLS (1.1): host-filled module variables, then (kernel, symbol) pairs in each kernel's
 * hidden-argument order, then the names. */
static kcrt_status parse_symbols(KcbBundle *b, const KcbSection *s) {
  const unsigned char *t = s->data;
  uint64_t size = s->size;
  if (size < KCB_SYMTAB_HEADER_SIZE)
    return bad("symbol table of %llu bytes", (unsigned long long)size);
  uint64_t ns = kcb_get32(t), nu = kcb_get32(t + 4);
  uint64_t pool = KCB_SYMTAB_HEADER_SIZE + ns * KCB_SYMBOL_ENTRY_SIZE + nu * KCB_SYMUSE_ENTRY_SIZE;
  if (pool > size)
    return bad("symbol table: %llu symbols and %llu uses run past the %llu-byte section",
               (unsigned long long)ns, (unsigned long long)nu, (unsigned long long)size);
  uint64_t poolsz = size - pool, used = 0;
  b->symbols = calloc(ns ? ns : 1, sizeof *b->symbols);
  b->symuses = calloc(nu ? nu : 1, sizeof *b->symuses);
  char *sp = b->symbols && b->symuses ? malloc(poolsz + ns + 1) : NULL;
  if (!sp) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading a bundle");
  b->symnames = sp;
  b->nsymbols = (uint32_t)ns;
  for (uint64_t i = 0; i < ns; i++) {
    const unsigned char *e = t + KCB_SYMTAB_HEADER_SIZE + i * KCB_SYMBOL_ENTRY_SIZE;
    uint64_t off = kcb_get32(e), len = kcb_get32(e + 4);
    if (len == 0 || !str_ok(off, len, poolsz, t + pool, &used))
      return bad("symbol table: symbol %llu has an empty name or one outside the string pool",
                 (unsigned long long)i);
    b->symbols[i].name = copy_str(&sp, t + pool + off, (size_t)len);
    b->symbols[i].size = kcb_get64(e + 8);
    if (b->symbols[i].size == 0)
      return bad("symbol table: symbol '%s' has size 0", b->symbols[i].name);
    for (uint64_t j = 0; j < i; j++)
      if (!strcmp(b->symbols[j].name, b->symbols[i].name))
        return bad("symbol table: symbol '%s' is listed twice", b->symbols[i].name);
  }
  /* A kernel's uses are consecutive: each kernel's hidden arguments are one run. */
  for (uint64_t i = 0; i < nu; i++) {
    const unsigned char *e =
        t + KCB_SYMTAB_HEADER_SIZE + ns * KCB_SYMBOL_ENTRY_SIZE + i * KCB_SYMUSE_ENTRY_SIZE;
    uint64_t k = kcb_get32(e), sym = kcb_get32(e + 4);
    if (k >= b->nkernels || sym >= ns)
      return bad("symbol table: use %llu names kernel %llu and symbol %llu (of %u and %llu)",
                 (unsigned long long)i, (unsigned long long)k, (unsigned long long)sym, b->nkernels,
                 (unsigned long long)ns);
    KcbKernel *kk = &b->kernels[k];
    if (kk->nsymbols && kk->symbols + kk->nsymbols != b->symuses + i)
      return bad("symbol table: the uses of kernel '%s' are not consecutive", kk->name);
    if (!kk->nsymbols) kk->symbols = b->symuses + i;
    b->symuses[i] = (uint32_t)sym;
    kk->nsymbols++;
  }
  return KCRT_SUCCESS;
}

/* SYMINIT (1.4): flags and first values of SYMBOLS entries. */
static kcrt_status parse_syminit(KcbBundle *b, const KcbSection *s) {
  const unsigned char *t = s->data;
  uint64_t size = s->size;
  if (size < KCB_SYMINIT_HEADER_SIZE)
    return bad("SYMINIT section of %llu bytes", (unsigned long long)size);
  uint64_t n = kcb_get32(t);
  if (KCB_SYMINIT_HEADER_SIZE + n * KCB_SYMINIT_ENTRY_SIZE > size)
    return bad("SYMINIT: %llu entries run past the %llu-byte section", (unsigned long long)n,
               (unsigned long long)size);
  for (uint64_t i = 0; i < n; i++) {
    const unsigned char *e = t + KCB_SYMINIT_HEADER_SIZE + i * KCB_SYMINIT_ENTRY_SIZE;
    uint64_t sym = kcb_get32(e), flags = kcb_get32(e + 4), off = kcb_get64(e + 8),
             len = kcb_get64(e + 16);
    if (sym >= b->nsymbols)
      return bad("SYMINIT: entry %llu names symbol %llu of %u", (unsigned long long)i,
                 (unsigned long long)sym, b->nsymbols);
    KcbSymbol *y = &b->symbols[sym];
    if (flags & ~(uint64_t)KCB_SYMBOL_MUTABLE)
      return bad("SYMINIT: symbol '%s' has unknown flags 0x%llx", y->name,
                 (unsigned long long)flags);
    if (len && (len != y->size || off > size || len > size - off))
      return bad("SYMINIT: the first value of '%s' (%llu bytes at %llu) is not its %llu bytes "
                 "inside the section",
                 y->name, (unsigned long long)len, (unsigned long long)off,
                 (unsigned long long)y->size);
    y->flags = (uint32_t)flags;
    y->init = len ? t + off : NULL;
  }
  return KCRT_SUCCESS;
}

/* KATTRS (1.2): per-kernel attributes. Entries are entry_size bytes (>= 16, a multiple of 4:
 * later minors may append fields), each naming one kernel once. */
static kcrt_status parse_kattrs(KcbBundle *b, const KcbSection *s) {
  const unsigned char *t = s->data;
  uint64_t size = s->size;
  if (size < KCB_KATTR_HEADER_SIZE)
    return bad("kernel attributes: %llu bytes", (unsigned long long)size);
  uint64_t n = kcb_get32(t), esz = kcb_get32(t + 4);
  if (esz < 16 || esz % 4) /* 1.2 entries are 16 bytes, 1.8 ones 20 */
    return bad("kernel attributes: entry size %llu", (unsigned long long)esz);
  if (n * esz > size - KCB_KATTR_HEADER_SIZE)
    return bad("kernel attributes: %llu entries of %llu bytes run past the %llu-byte section",
               (unsigned long long)n, (unsigned long long)esz, (unsigned long long)size);
  bool *seen = calloc(b->nkernels ? b->nkernels : 1, 1);
  if (!seen) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading a bundle");
  kcrt_status st = KCRT_SUCCESS;
  for (uint64_t i = 0; i < n && !st; i++) {
    const unsigned char *e = t + KCB_KATTR_HEADER_SIZE + i * esz;
    uint64_t k = kcb_get32(e);
    uint32_t r[3] = {kcb_get32(e + 4), kcb_get32(e + 8), kcb_get32(e + 12)};
    if (k >= b->nkernels)
      st = bad("kernel attributes: entry %llu names kernel %llu of %u", (unsigned long long)i,
               (unsigned long long)k, b->nkernels);
    else if (seen[k])
      st = bad("kernel attributes: kernel '%s' is listed twice", b->kernels[k].name);
    else if ((r[0] || r[1] || r[2]) && !(r[0] && r[1] && r[2]))
      st = bad("kernel attributes: kernel '%s' requires a block of %u x %u x %u threads",
               b->kernels[k].name, r[0], r[1], r[2]);
    else {
      seen[k] = true;
      memcpy(b->kernels[k].reqd_block, r, sizeof r);
      /* 1.8: the required subgroup size; older entries stop before it. */
      if (esz >= 20) b->kernels[k].reqd_subgroup = kcb_get32(e + 16);
    }
  }
  free(seen);
  return st;
}

static void parse_info(KcbBundle *b, const KcbSection *s) {
  /* Informational only: a malformed INFO section is ignored, not an error. */
  static const char key[] = "source=";
  const unsigned char *p = s->data, *end = s->data + s->size;
  while (p < end) {
    const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
    const unsigned char *le = nl ? nl : end;
    size_t n = (size_t)(le - p);
    if (n > sizeof key - 1 && !memcmp(p, key, sizeof key - 1)) {
      char *v = strndup((const char *)p + sizeof key - 1, n - (sizeof key - 1));
      if (v) b->source = v;
      return;
    }
    p = le + 1;
  }
}

/* BOUNDS (1.3): text. "kcc-bounds 1", then `region KIND KERNEL PARAM ELEM_SIZE NAME ELEM...`
 * lines (region ids from 1, in order), then `site ACCESS LINE COL FILE...` lines (site ids
 * from 0). Names and files point into b->bounds_text. */
static kcrt_status parse_bounds(KcbBundle *b, const KcbSection *s) {
  char *t = kcb_text(s);
  if (!t) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading a bundle");
  b->bounds_text = t;
  if (strlen(t) != s->size) return bad("BOUNDS section: a NUL byte in the text");
  uint32_t nr = 0, ns = 0;
  for (char *p = t; *p; p++)
    if (*p == '\n') {
      nr += !strncmp(p + 1, "region ", 7);
      ns += !strncmp(p + 1, "site ", 5);
    }
  b->regions = calloc(nr + 1, sizeof *b->regions);
  b->sites = calloc(ns + 1, sizeof *b->sites);
  if (!b->regions || !b->sites)
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading a bundle");
  char *line = t, *next;
  if (strncmp(line, "kcc-bounds 1\n", 13))
    return bad("BOUNDS section: it does not start with 'kcc-bounds 1'");
  for (line += 13; *line; line = next) {
    char *nl = strchr(line, '\n');
    if (!nl) return bad("BOUNDS section: the last line has no newline");
    *nl = 0;
    next = nl + 1;
    int n = 0, kind, kernel, param;
    unsigned esz;
    if (!strncmp(line, "region ", 7) && b->nregions < nr &&
        sscanf(line + 7, "%d %d %d %u %n", &kind, &kernel, &param, &esz, &n) == 4 && n > 0 &&
        kind >= 1 && kind <= 4 && kernel >= -1 && kernel < (int)b->nkernels && esz > 0) {
      KcbRegion *r = &b->regions[b->nregions++];
      r->kind = kind;
      r->kernel = kernel;
      r->param = param;
      r->elem_size = esz;
      r->name = line + 7 + n;
      char *sp = strchr(r->name, ' ');
      if (!sp) return bad("BOUNDS section: region line without an element type");
      *sp = 0;
      r->elem = sp + 1;
      if (kind == 1 && (kernel < 0 || param < 0 || (uint32_t)param >= b->kernels[kernel].nparams))
        return bad("BOUNDS section: region '%s' names parameter %d of kernel %d", r->name, param,
                   kernel);
    } else if (!strncmp(line, "site ", 5) && b->nsites < ns &&
               sscanf(line + 5, "%d %d %d %n", &kind, &kernel, &param, &n) == 3 && n > 0 &&
               kind >= 1 && kind <= 3) {
      KcbSite *x = &b->sites[b->nsites++];
      x->access = kind;
      x->line = kernel;
      x->col = param;
      x->file = line + 5 + n;
    } else {
      return bad("BOUNDS section: malformed line '%.60s'", line);
    }
  }
  return KCRT_SUCCESS;
}

kcrt_status kcb_parse(const void *data, size_t size, KcbBundle **out) {
  if (!data || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_module_load: NULL data");
  const unsigned char *in = data;
  if (size < KCB_HEADER_SIZE) {
    if (size >= 4 && !memcmp(in, KCB_MAGIC, 4))
      return bad("truncated: %zu bytes, less than the %d-byte header", size, KCB_HEADER_SIZE);
    return bad("not a kcc bundle (%zu bytes, no bundle header)", size);
  }
  if (memcmp(in, KCB_MAGIC, KCB_MAGIC_SIZE))
    return bad("not a kcc bundle (bad magic; expected \\x89KCB\\r\\n\\x1a\\n)");
  unsigned major = kcb_get16(in + KCB_H_MAJOR), minor = kcb_get16(in + KCB_H_MINOR);
  if (major != KCB_VERSION_MAJOR)
    return bad("format version %u.%u is not supported (this runtime reads %d.x)", major, minor,
               KCB_VERSION_MAJOR);
  uint64_t hsize = kcb_get32(in + KCB_H_HEADER_SIZE), fsize = kcb_get64(in + KCB_H_FILE_SIZE);
  uint64_t nsecs = kcb_get32(in + KCB_H_SECTION_COUNT);
  if (fsize != size) {
    if (fsize > size)
      return bad("truncated: the header says %llu bytes, only %zu are present",
                 (unsigned long long)fsize, size);
    return bad("%zu bytes where the header says %llu (trailing data)", size,
               (unsigned long long)fsize);
  }
  if (hsize < KCB_HEADER_SIZE || hsize > size)
    return bad("header size %llu is outside [%d, %zu]", (unsigned long long)hsize, KCB_HEADER_SIZE,
               size);
  uint64_t table_end = hsize + nsecs * KCB_SECTION_ENTRY_SIZE;
  if (table_end > size)
    return bad("section table (%llu entries) runs past the end of the %zu-byte bundle",
               (unsigned long long)nsecs, size);
  uint64_t sum = kcb_get64(in + KCB_H_CHECKSUM);
  if (kcb_checksum(in, size) != sum) return bad("checksum mismatch: the bundle is corrupted");

  KcbBundle *b = calloc(1, sizeof *b);
  if (!b || !(b->image = malloc(size)) || !(b->secs = calloc(nsecs ? nsecs : 1, sizeof *b->secs))) {
    kcb_free(b);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading a bundle");
  }
  memcpy(b->image, in, size);
  b->size = size;
  b->hash = sum;
  b->nsecs = (uint32_t)nsecs;
  b->source = "";
  kcrt_status st = KCRT_SUCCESS;
  const KcbSection *ktab = NULL;
  for (uint64_t i = 0; i < nsecs && st == KCRT_SUCCESS; i++) {
    const unsigned char *e = b->image + hsize + i * KCB_SECTION_ENTRY_SIZE;
    uint64_t off = kcb_get64(e + 8), len = kcb_get64(e + 16);
    if (off < table_end || off > size || len > size - off) {
      st = bad("section %llu (kind %u) at [%llu, +%llu) lies outside the %zu-byte bundle",
               (unsigned long long)i, kcb_get32(e), (unsigned long long)off,
               (unsigned long long)len, size);
      break;
    }
    KcbSection *s = &b->secs[i];
    s->kind = kcb_get32(e);
    s->arch = kcb_get32(e + 4);
    s->data = b->image + off;
    s->size = (size_t)len;
    if (s->kind == KCB_SEC_KERNELS) {
      if (ktab) st = bad("more than one kernel table");
      ktab = s;
    }
    /* Unknown kinds are skipped: a newer minor version may add sections. */
  }
  if (st == KCRT_SUCCESS && !ktab) st = bad("no kernel table section");
  if (st == KCRT_SUCCESS) st = parse_kernels(b, ktab);
  const KcbSection *symtab = st == KCRT_SUCCESS ? kcb_section(b, KCB_SEC_SYMBOLS, 0) : NULL;
  if (symtab) st = parse_symbols(b, symtab);
  const KcbSection *syminit = st == KCRT_SUCCESS ? kcb_section(b, KCB_SEC_SYMINIT, 0) : NULL;
  if (syminit && !symtab)
    st = bad("a SYMINIT section without a symbol table");
  else if (syminit)
    st = parse_syminit(b, syminit);
  const KcbSection *kattrs = st == KCRT_SUCCESS ? kcb_section(b, KCB_SEC_KATTRS, 0) : NULL;
  if (kattrs) st = parse_kattrs(b, kattrs);
  const KcbSection *bounds = st == KCRT_SUCCESS ? kcb_section(b, KCB_SEC_BOUNDS, 0) : NULL;
  if (bounds) st = parse_bounds(b, bounds);
  b->checked = bounds != NULL;
  for (uint32_t i = 0; st == KCRT_SUCCESS && i < b->nkernels; i++)
    if (!(b->kernels[i].nhidden &&
          b->kernels[i].params[b->kernels[i].nparams].kind != KCB_PARAM_TEX_SAMPLER) != !bounds)
      st = bad("kernel '%s' %s bounds-check parameters but the bundle %s BOUNDS section",
               b->kernels[i].name, bounds ? "has no" : "has", bounds ? "has a" : "has no");
  if (st == KCRT_SUCCESS) {
    const KcbSection *info = kcb_section(b, KCB_SEC_INFO, 0);
    if (info) parse_info(b, info);
  }
  if (st != KCRT_SUCCESS) {
    kcb_free(b);
    return st;
  }
  *out = b;
  return KCRT_SUCCESS;
}

void kcb_free(KcbBundle *b) {
  if (!b) return;
  if (b->source && *b->source) free((char *)b->source);
  free(b->image);
  free(b->secs);
  free(b->kernels);
  free(b->params);
  free(b->symbols);
  free(b->symuses);
  free(b->symnames);
  free(b->strings);
  free(b->regions);
  free(b->sites);
  free(b->bounds_text);
  free(b);
}

const KcbKernel *kcb_kernel(const KcbBundle *b, const char *name) {
  for (uint32_t i = 0; i < b->nkernels; i++)
    if (!strcmp(b->kernels[i].name, name)) return &b->kernels[i];
  return NULL;
}

int kcb_symbol(const KcbBundle *b, const char *name) {
  for (uint32_t i = 0; i < b->nsymbols; i++)
    if (!strcmp(b->symbols[i].name, name)) return (int)i;
  return -1;
}

const KcbSection *kcb_section(const KcbBundle *b, uint32_t kind, uint32_t arch) {
  /* An empty section holds no code: it counts as absent. */
  for (uint32_t i = 0; i < b->nsecs; i++)
    if (b->secs[i].kind == kind && (!arch || b->secs[i].arch == arch) && b->secs[i].size)
      return &b->secs[i];
  return NULL;
}

char *kcb_text(const KcbSection *s) {
  char *t = malloc(s->size + 1);
  if (!t) return NULL;
  memcpy(t, s->data, s->size);
  t[s->size] = 0;
  return t;
}
