/* test_runtime_bundle.c — the bundle format: the reader (runtime/bundle.c) on valid,
 * truncated, corrupted and forged images, and the writer (compiler/package/bundle.c) on real
 * kernels compiled by kcc. No device needed. */
#define _GNU_SOURCE
#include "testutil.h"

#include "internal.h"
#include "kcb_format.h"
#include "kcrt.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- a sample bundle */

static const KcbWParam vecadd_params[] = {
    {"a", "const float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, KCB_Q_CONST, 8, 8, 0},
    {"b", "const float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, KCB_Q_CONST, 8, 8, 0},
    {"c", "float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 0},
    {"n", "int", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 4, 4, 0},
};
static const KcbWParam other_params[] = {
    {"p", "struct P", KCB_PARAM_STRUCT, 0, 0, 0, 24, 8, 0},
    {"x", "double", KCB_PARAM_SCALAR, 0, KCB_T_F64, 0, 8, 8, 0},
};

/* A valid bundle image (malloc'd): two kernels, PTX, a fake cubin, OpenCL C. */
static unsigned char *sample(size_t *len) {
  KcbWKernel ks[] = {{"vecadd", vecadd_params, 4, 0, 0, 0, {0, 0, 0}, 0},
                     {"other", other_params, 2, 1024, KCB_KERNEL_DYNAMIC_SHARED, 0, {0, 0, 0}, 0}};
  size_t tl;
  unsigned char *tab = kcb_write_kernel_table(ks, 2, &tl);
  ck_assert_ptr_nonnull(tab);
  static const char info[] = "producer=test\nsource=sample.k\n";
  static const char ptx[] = ".version 7.8\n.target sm_75\n";
  static const char cl[] = "__kernel void vecadd() {}\n";
  static const unsigned char cubin[] = {0x7f, 'E', 'L', 'F', 1, 2, 3};
  KcbWSection secs[] = {{KCB_SEC_INFO, 0, info, sizeof info - 1},
                        {KCB_SEC_KERNELS, 0, tab, tl},
                        {KCB_SEC_PTX, 75, ptx, sizeof ptx - 1},
                        {KCB_SEC_CUBIN, 75, cubin, sizeof cubin},
                        {KCB_SEC_OPENCL_C, 0, cl, sizeof cl - 1}};
  unsigned char *img = kcb_write_bundle(secs, 5, len);
  free(tab);
  ck_assert_ptr_nonnull(img);
  return img;
}

static void reseal(unsigned char *img, size_t len) {
  kcb_put64(img + KCB_H_CHECKSUM, kcb_checksum(img, len));
}

/* Parses and expects INVALID_MODULE with `needle` in the message. */
static void expect_invalid(const unsigned char *img, size_t len, const char *needle) {
  KcbBundle *b = NULL;
  kcrt_status st = kcb_parse(img, len, &b);
  ck_assert_msg(st == KCRT_ERROR_INVALID_MODULE, "status %s (%s), expected INVALID_MODULE",
                kcrt_status_name(st), kcrt_last_error());
  ck_assert_ptr_null(b);
  if (needle)
    ck_assert_msg(strstr(kcrt_last_error(), needle), "message '%s' lacks '%s'", kcrt_last_error(),
                  needle);
}

static unsigned char *section_entry(unsigned char *img, int i) {
  return img + KCB_HEADER_SIZE + i * KCB_SECTION_ENTRY_SIZE;
}

/* The kernel table's bytes inside an image (section 1 of sample()). */
static unsigned char *ktab(unsigned char *img) {
  return img + kcb_get64(section_entry(img, 1) + 8);
}

/* ---------------------------------------------------------------- reader */

START_TEST(roundtrip) {
  size_t len;
  unsigned char *img = sample(&len);
  KcbBundle *b;
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  ck_assert_str_eq(b->source, "sample.k");
  ck_assert_uint_eq(b->nsecs, 5);
  ck_assert_uint_eq(b->nkernels, 2);
  const KcbKernel *k = kcb_kernel(b, "vecadd");
  ck_assert_ptr_nonnull(k);
  ck_assert_uint_eq(k->nparams, 4);
  ck_assert_str_eq(k->params[0].name, "a");
  ck_assert_str_eq(k->params[0].type, "const float *");
  ck_assert_uint_eq(k->params[0].kind, KCB_PARAM_POINTER);
  ck_assert_uint_eq(k->params[0].qual, KCB_Q_CONST);
  ck_assert_uint_eq(k->params[3].kind, KCB_PARAM_SCALAR);
  ck_assert_uint_eq(k->params[3].size, 4);
  ck_assert_uint_eq(k->static_shared_bytes, 0);
  k = kcb_kernel(b, "other");
  ck_assert_ptr_nonnull(k);
  ck_assert_uint_eq(k->static_shared_bytes, 1024);
  ck_assert_uint_eq(k->flags, KCB_KERNEL_DYNAMIC_SHARED);
  ck_assert_uint_eq(k->params[0].kind, KCB_PARAM_STRUCT);
  ck_assert_uint_eq(k->params[0].size, 24);
  ck_assert_ptr_null(kcb_kernel(b, "missing"));
  const KcbSection *s = kcb_section(b, KCB_SEC_CUBIN, 75);
  ck_assert_ptr_nonnull(s);
  ck_assert_uint_eq(s->size, 7);
  ck_assert_int_eq(memcmp(s->data,
                          "\x7f"
                          "ELF",
                          4),
                   0);
  ck_assert_ptr_null(kcb_section(b, KCB_SEC_CUBIN, 90));
  ck_assert_ptr_null(kcb_section(b, KCB_SEC_SPIRV, 0));
  char *t = kcb_text(kcb_section(b, KCB_SEC_PTX, 0));
  ck_assert_str_eq(t, ".version 7.8\n.target sm_75\n");
  free(t);
  /* Sections are aligned, and the reader keeps its own copy of the image. */
  for (uint32_t i = 0; i < b->nsecs; i++)
    ck_assert_uint_eq((size_t)(b->secs[i].data - b->image) % KCB_ALIGN, 0);
  memset(img, 0, len);
  ck_assert_str_eq(kcb_kernel(b, "vecadd")->name, "vecadd");
  kcb_free(b);
  free(img);
}
END_TEST

START_TEST(every_truncation) {
  size_t len;
  unsigned char *img = sample(&len);
  for (size_t n = 0; n < len; n++) {
    unsigned char *copy = malloc(n ? n : 1); /* exact size: ASan sees any over-read */
    memcpy(copy, img, n);
    expect_invalid(copy, n, NULL);
    free(copy);
  }
  expect_invalid(img, len - 1, "truncated");
  expect_invalid(img, 20, "truncated");
  free(img);
}
END_TEST

START_TEST(bad_magic_and_version) {
  size_t len;
  unsigned char *img = sample(&len);
  img[1] = 'X';
  expect_invalid(img, len, "bad magic");
  img[1] = 'K';
  kcb_put16(img + KCB_H_MAJOR, 2);
  reseal(img, len);
  char want[64];
  snprintf(want, sizeof want, "version 2.%d is not supported", KCB_VERSION_MINOR);
  expect_invalid(img, len, want);
  /* A newer minor version is still read. */
  kcb_put16(img + KCB_H_MAJOR, 1);
  kcb_put16(img + KCB_H_MINOR, 7);
  reseal(img, len);
  KcbBundle *b;
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  kcb_free(b);
  expect_invalid((const unsigned char *)"hello, world: not a bundle at all, just text here..", 50,
                 "not a kcc bundle");
  free(img);
}
END_TEST

START_TEST(checksum_catches_corruption) {
  size_t len;
  unsigned char *img = sample(&len);
  for (size_t i = KCB_HEADER_SIZE; i < len; i += 7) {
    img[i] ^= 0x40;
    expect_invalid(img, len, NULL);
    img[i] ^= 0x40;
  }
  img[len - 3] ^= 1;
  expect_invalid(img, len, "checksum");
  free(img);
}
END_TEST

START_TEST(trailing_bytes) {
  size_t len;
  unsigned char *img = sample(&len);
  unsigned char *big = calloc(1, len + 16);
  memcpy(big, img, len);
  expect_invalid(big, len + 16, "trailing");
  free(big);
  free(img);
}
END_TEST

START_TEST(section_out_of_bounds) {
  size_t len;
  unsigned char *img = sample(&len);
  unsigned char *e = section_entry(img, 2);
  uint64_t off = kcb_get64(e + 8), size = kcb_get64(e + 16);
  kcb_put64(e + 8, len - 2); /* starts inside, runs past the end */
  reseal(img, len);
  expect_invalid(img, len, "lies outside");
  kcb_put64(e + 8, off);
  kcb_put64(e + 16, UINT64_MAX - 4); /* offset + size overflows 64 bits */
  reseal(img, len);
  expect_invalid(img, len, "lies outside");
  kcb_put64(e + 16, size);
  kcb_put64(e + 8, 0); /* overlapping the header */
  reseal(img, len);
  expect_invalid(img, len, "lies outside");
  kcb_put64(e + 8, off);
  kcb_put32(img + KCB_H_SECTION_COUNT, 0x10000000); /* the table itself past the end */
  reseal(img, len);
  expect_invalid(img, len, "section table");
  kcb_put32(img + KCB_H_SECTION_COUNT, 5);
  kcb_put32(img + KCB_H_HEADER_SIZE, (uint32_t)len + 1);
  reseal(img, len);
  expect_invalid(img, len, "header size");
  free(img);
}
END_TEST

START_TEST(kernel_table_forgeries) {
  size_t len;
  unsigned char *img = sample(&len);
  unsigned char *t = ktab(img);
  unsigned char *save = malloc(len);
  memcpy(save, img, len);
#define RESET() (memcpy(img, save, len), t = ktab(img))
  kcb_put32(t + 0, UINT32_MAX); /* kernel count */
  reseal(img, len);
  expect_invalid(img, len, "overlap the string pool");
  RESET();
  kcb_put32(t + 4, UINT32_MAX); /* parameter count */
  reseal(img, len);
  expect_invalid(img, len, "overlap");
  RESET();
  kcb_put32(t + 12, UINT32_MAX); /* string pool size */
  reseal(img, len);
  expect_invalid(img, len, "string pool");
  RESET();
  unsigned char *k0 = t + KCB_KTAB_HEADER_SIZE;
  kcb_put32(k0 + 0, 1u << 30); /* kernel name offset */
  reseal(img, len);
  expect_invalid(img, len, "outside the string pool");
  RESET();
  kcb_put32(k0 + 4, 0); /* empty name */
  reseal(img, len);
  expect_invalid(img, len, "empty name");
  RESET();
  kcb_put32(k0 + 12, 99); /* more params than the table has */
  reseal(img, len);
  expect_invalid(img, len, "lists parameters");
  RESET();
  unsigned char *p0 = t + KCB_KTAB_HEADER_SIZE + 2 * KCB_KERNEL_ENTRY_SIZE;
  p0[16] = 12; /* unknown kind */
  reseal(img, len);
  expect_invalid(img, len, "unknown kind");
  RESET();
  kcb_put32(p0 + 20, 4); /* a 4-byte pointer */
  reseal(img, len);
  expect_invalid(img, len, "kcc pointers are 8");
  RESET();
  kcb_put32(p0 + 24, 3); /* alignment not a power of two */
  reseal(img, len);
  expect_invalid(img, len, "alignment");
  RESET();
  /* Every string pointing at the whole pool: lengths exceed the pool, refused before any
   * copy (the reader's copies are bounded by the input size). */
  uint32_t poolsz = kcb_get32(t + 12);
  for (int i = 0; i < 6; i++) {
    unsigned char *p =
        t + KCB_KTAB_HEADER_SIZE + 2 * KCB_KERNEL_ENTRY_SIZE + i * KCB_PARAM_ENTRY_SIZE;
    kcb_put32(p + 0, 0), kcb_put32(p + 4, poolsz);
  }
  reseal(img, len);
  expect_invalid(img, len, "outside the string pool");
  RESET();
  free(save);
  free(img);
#undef RESET
}
END_TEST

/* 1.2: local-memory parameters, vector parameters and the KATTRS section, read back and
 * forged field by field. */
static const KcbWParam v12_params[] = {
    {"v", "float4 *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 4},
    {"tmp", "shared float *", KCB_PARAM_LOCAL, KCB_AS_SHARED, KCB_T_F32, 0, 4, 4, 0},
    {"a", "int3", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 16, 16, 3},
};

static unsigned char *sample12(size_t *len, const unsigned char *attrs, size_t alen) {
  KcbWKernel ks[] = {{"v12", v12_params, 3, 0, 0, 0, {16, 4, 1}, 0},
                     {"plain", vecadd_params, 4, 0, 0, 0, {0, 0, 0}, 0}};
  size_t tl, al;
  unsigned char *tab = kcb_write_kernel_table(ks, 2, &tl);
  unsigned char *at = kcb_write_kernel_attrs(ks, 2, &al);
  ck_assert(tab && at);
  KcbWSection secs[] = {{KCB_SEC_KERNELS, 0, tab, tl},
                        {KCB_SEC_KATTRS, 0, attrs ? attrs : at, attrs ? alen : al}};
  unsigned char *img = kcb_write_bundle(secs, 2, len);
  free(tab);
  free(at);
  ck_assert_ptr_nonnull(img);
  return img;
}

START_TEST(version_1_2_fields) {
  size_t len;
  unsigned char *img = sample12(&len, NULL, 0);
  KcbBundle *b = NULL;
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  const KcbKernel *k = kcb_kernel(b, "v12");
  ck_assert_uint_eq(k->reqd_block[0], 16);
  ck_assert_uint_eq(k->reqd_block[1], 4);
  ck_assert_uint_eq(k->reqd_block[2], 1);
  ck_assert_uint_eq(k->nlocal, 1);
  ck_assert_uint_eq(k->params[0].vec_len, 4);
  ck_assert_uint_eq(k->params[1].kind, KCB_PARAM_LOCAL);
  ck_assert_uint_eq(k->params[2].vec_len, 3);
  ck_assert_uint_eq(kcb_kernel(b, "plain")->reqd_block[0], 0);
  ck_assert_uint_eq(kcb_kernel(b, "plain")->nlocal, 0);
  kcb_free(b);

  /* Parameter forgeries (the kernel table is section 0). */
  unsigned char *save = malloc(len);
  memcpy(save, img, len);
  unsigned char *t = img + kcb_get64(section_entry(img, 0) + 8);
  unsigned char *p0 = t + KCB_KTAB_HEADER_SIZE + 2 * KCB_KERNEL_ENTRY_SIZE;
  unsigned char *p1 = p0 + KCB_PARAM_ENTRY_SIZE, *p2 = p1 + KCB_PARAM_ENTRY_SIZE;
#define RESET() memcpy(img, save, len)
#define FORGE(stmt, needle)                                                                        \
  do {                                                                                             \
    stmt;                                                                                          \
    reseal(img, len);                                                                              \
    expect_invalid(img, len, needle);                                                              \
    RESET();                                                                                       \
  } while (0)
  FORGE(kcb_put32(p1 + 20, 8), "local parameter 'tmp' has size 8");
  FORGE(kcb_put32(p1 + 24, 8), "local parameter 'tmp' has size 4, alignment 8");
  FORGE(p1[17] = KCB_AS_GLOBAL, "and address space 1 (must be 4, 4 and 3)");
  FORGE(p1[16] = 12, "unknown kind 12");
  FORGE(p0[28] = 5, "pointer parameter 'v' has vector length 5");
  FORGE(p0[28] = 1, "vector length 1");
  FORGE(p0[18] = KCB_T_BOOL, "vector parameter 'v' has element type code 1");
  FORGE(p0[18] = 0, "element type code 0");
  FORGE(p2[28] = 2, "vector parameter 'a' has size 16 and alignment 16 (its layout is 8 and 8)");
  FORGE(p2[28] = 8, "(its layout is 32 and 32)");
  FORGE(kcb_put32(p2 + 24, 4), "vector parameter 'a' has size 16 and alignment 4");
  free(img);

  /* KATTRS forgeries: hand-made sections. */
  unsigned char a[64];
  memset(a, 0, sizeof a);
  kcb_put32(a, 1);
  kcb_put32(a + 4, 16);
  kcb_put32(a + 8, 0);
  kcb_put32(a + 12, 8), kcb_put32(a + 16, 8), kcb_put32(a + 20, 1);
  img = sample12(&len, a, 24); /* valid: replaces the writer's section */
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert_uint_eq(kcb_kernel(b, "v12")->reqd_block[0], 8);
  kcb_free(b);
  free(img);
  /* A later minor's longer entries are read for the fields this reader knows. */
  kcb_put32(a + 4, 20);
  img = sample12(&len, a, 28);
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  kcb_free(b);
  free(img);
  kcb_put32(a + 4, 16);
#define FORGE_ATTRS(stmt, alen, needle)                                                            \
  do {                                                                                             \
    unsigned char c[64];                                                                           \
    memcpy(c, a, sizeof c);                                                                        \
    unsigned char *a = c;                                                                          \
    stmt;                                                                                          \
    img = sample12(&len, a, alen);                                                                 \
    expect_invalid(img, len, needle);                                                              \
    free(img);                                                                                     \
  } while (0)
  FORGE_ATTRS((void)a, 4, "kernel attributes: 4 bytes");
  FORGE_ATTRS(kcb_put32(a + 4, 12), 24, "entry size 12");
  FORGE_ATTRS(kcb_put32(a + 4, 18), 24, "entry size 18");
  FORGE_ATTRS(kcb_put32(a, 2), 24, "2 entries of 16 bytes run past the 24-byte section");
  FORGE_ATTRS(kcb_put32(a, 0x10000000), 24, "run past");
  FORGE_ATTRS(kcb_put32(a + 8, 2), 24, "entry 0 names kernel 2 of 2");
  FORGE_ATTRS(kcb_put32(a + 16, 0), 24, "kernel 'v12' requires a block of 8 x 0 x 1 threads");
  FORGE_ATTRS((kcb_put32(a, 2), memcpy(a + 24, a + 8, 16)), 40, "kernel 'v12' is listed twice");
  /* All zeros: the kernel has no requirement (what a 1.1 bundle means). */
  memset(a + 12, 0, 12);
  img = sample12(&len, a, 24);
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  ck_assert_uint_eq(kcb_kernel(b, "v12")->reqd_block[0], 0);
  kcb_free(b);
  free(img);
  free(save);
#undef FORGE
#undef FORGE_ATTRS
#undef RESET
}
END_TEST

/* A bundle of sample()'s kernel table and sections plus a SYMBOLS section of `syms` and
 * `uses` (each a (kernel, symbol) pair). */
static unsigned char *with_symbols(const KcbWSymbol *syms, uint32_t ns, const uint32_t (*uses)[2],
                                   uint32_t nu, size_t *len) {
  KcbWKernel ks[] = {{"vecadd", vecadd_params, 4, 0, 0, 0, {0, 0, 0}, 0},
                     {"other", other_params, 2, 1024, KCB_KERNEL_DYNAMIC_SHARED, 0, {0, 0, 0}, 0}};
  size_t tl, sl;
  unsigned char *tab = kcb_write_kernel_table(ks, 2, &tl);
  unsigned char *sym = kcb_write_symbols(syms, ns, uses, nu, &sl);
  ck_assert(tab && sym);
  KcbWSection secs[] = {{KCB_SEC_KERNELS, 0, tab, tl}, {KCB_SEC_SYMBOLS, 0, sym, sl}};
  unsigned char *img = kcb_write_bundle(secs, 2, len);
  free(tab);
  free(sym);
  ck_assert_ptr_nonnull(img);
  return img;
}

/* 1.3: -fbounds-check's hidden parameters and BOUNDS section. */
static const KcbWParam v13_params[] = {
    {"p", "global float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 0},
    {"n", "int", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 4, 4, 0},
    {"kcc_bc_bytes_p", "unsigned long", KCB_PARAM_BOUNDS_SIZE, 0, KCB_T_U64, 0, 8, 8, 0},
    {"kcc_bc_dynshared", "unsigned long", KCB_PARAM_BOUNDS_SIZE, 0, KCB_T_U64, 0, 8, 8, 0},
    {"kcc_bc_record", "global unsigned int *", KCB_PARAM_BOUNDS_RECORD, KCB_AS_GLOBAL, KCB_T_U32, 0,
     8, 8, 0},
};
static const char v13_bounds[] = "kcc-bounds 1\n"
                                 "region 1 0 0 4 p float\n"
                                 "region 3 0 -1 4 acc float\n"
                                 "site 2 3 16 b.k\n"
                                 "site 1 4 9 my file.k\n";

static unsigned char *sample13(size_t *len, const KcbWParam *ps, uint32_t np, const char *bounds) {
  KcbWKernel ks[] = {{"k", ps, np, 0, KCB_KERNEL_FP64, 0, {0, 0, 0}, 0}};
  size_t tl;
  unsigned char *tab = kcb_write_kernel_table(ks, 1, &tl);
  ck_assert_ptr_nonnull(tab);
  KcbWSection secs[] = {{KCB_SEC_KERNELS, 0, tab, tl},
                        {KCB_SEC_BOUNDS, 0, bounds, bounds ? strlen(bounds) : 0}};
  unsigned char *img = kcb_write_bundle(secs, bounds ? 2 : 1, len);
  free(tab);
  ck_assert_ptr_nonnull(img);
  return img;
}

START_TEST(version_1_3_bounds) {
  size_t len;
  unsigned char *img = sample13(&len, v13_params, 5, v13_bounds);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert(b->checked);
  ck_assert_uint_eq(b->kernels[0].nparams, 2); /* what the host passes */
  ck_assert_uint_eq(b->kernels[0].nhidden, 3);
  ck_assert_uint_eq(b->kernels[0].flags, KCB_KERNEL_FP64);
  ck_assert_uint_eq(b->nregions, 2);
  ck_assert_str_eq(b->regions[0].name, "p");
  ck_assert_str_eq(b->regions[0].elem, "float");
  ck_assert_int_eq(b->regions[1].kind, 3);
  ck_assert_int_eq(b->regions[1].param, -1);
  ck_assert_uint_eq(b->nsites, 2);
  ck_assert_str_eq(b->sites[1].file, "my file.k");
  ck_assert_int_eq(b->sites[0].line, 3);
  ck_assert_int_eq(b->sites[0].col, 16);
  ck_assert_int_eq(b->sites[0].access, 2);
  kcb_free(b);
  free(img);

  /* Hidden parameters without the table, or the table without them: refused. */
  img = sample13(&len, v13_params, 5, NULL);
  expect_invalid(img, len, "kernel 'k' has bounds-check parameters but the bundle has no BOUNDS");
  free(img);
  img = sample13(&len, v13_params, 2, v13_bounds);
  expect_invalid(img, len, "kernel 'k' has no bounds-check parameters but the bundle has a BOUNDS");
  free(img);
  /* The wrong number of sizes, a record missing, a hidden parameter first. */
  KcbWParam ps[5];
  memcpy(ps, v13_params, sizeof ps);
  ps[3] = ps[4];
  img = sample13(&len, ps, 4, v13_bounds);
  expect_invalid(img, len,
                 "kernel 'k' has 2 bounds-check parameters where its 2 own parameters "
                 "need 2 sizes and a record");
  free(img);
  memcpy(ps, v13_params, sizeof ps);
  ps[4] = ps[3];
  img = sample13(&len, ps, 5, v13_bounds);
  expect_invalid(img, len, "need 2 sizes and a record");
  free(img);
  memcpy(ps, v13_params, sizeof ps);
  ps[0] = v13_params[2];
  ps[2] = v13_params[0];
  img = sample13(&len, ps, 5, v13_bounds);
  expect_invalid(img, len, "has a bounds-check parameter ('kcc_bc_bytes_p') before its own");
  free(img);
  memcpy(ps, v13_params, sizeof ps);
  ps[2].size = 4;
  img = sample13(&len, ps, 5, v13_bounds);
  expect_invalid(img, len, "bounds-check parameter 'kcc_bc_bytes_p' has size 4 and alignment 8");
  free(img);
  /* Malformed tables. */
  static const struct {
    const char *text, *needle;
  } bad[] = {
      {"kcc-bounds 2\n", "does not start with 'kcc-bounds 1'"},
      {"kcc-bounds 1\nregion 1 0 0 4 p float", "the last line has no newline"},
      {"kcc-bounds 1\nregion 1 0 5 4 p float\n", "region 'p' names parameter 5 of kernel 0"},
      {"kcc-bounds 1\nregion 1 3 0 4 p float\n", "malformed line 'region 1 3 0 4 p float'"},
      {"kcc-bounds 1\nregion 9 0 0 4 p float\n", "malformed line"},
      {"kcc-bounds 1\nregion 1 0 0 0 p float\n", "malformed line"},
      {"kcc-bounds 1\nregion 1 0 0 4 p\n", "region line without an element type"},
      {"kcc-bounds 1\nsite 4 1 1 a.k\n", "malformed line 'site 4 1 1 a.k'"},
      {"kcc-bounds 1\nsite 1 1\n", "malformed line"},
      {"kcc-bounds 1\nhello\n", "malformed line 'hello'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    img = sample13(&len, v13_params, 5, bad[i].text);
    expect_invalid(img, len, bad[i].needle);
    free(img);
  }
}
END_TEST

START_TEST(symbol_table) {
  static const KcbWSymbol syms[] = {{"coef", 64}, {"scale", 4}};
  static const uint32_t uses[][2] = {{0, 1}, {0, 0}, {1, 0}};
  size_t len;
  unsigned char *img = with_symbols(syms, 2, uses, 3, &len);
  KcbBundle *b = NULL;
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  ck_assert_uint_eq(b->nsymbols, 2);
  ck_assert_str_eq(b->symbols[1].name, "scale");
  ck_assert_uint_eq(b->symbols[0].size, 64);
  ck_assert_int_eq(kcb_symbol(b, "scale"), 1);
  ck_assert_int_eq(kcb_symbol(b, "nope"), -1);
  const KcbKernel *k = kcb_kernel(b, "vecadd");
  ck_assert_uint_eq(k->nsymbols, 2);
  ck_assert_uint_eq(k->symbols[0], 1);
  ck_assert_uint_eq(k->symbols[1], 0);
  ck_assert_uint_eq(kcb_kernel(b, "other")->nsymbols, 1);
  kcb_free(b);
  free(img);

  /* Forgeries: each fails with its own message. */
  static const KcbWSymbol dup[] = {{"coef", 64}, {"coef", 4}};
  img = with_symbols(dup, 2, uses, 0, &len);
  expect_invalid(img, len, "symbol 'coef' is listed twice");
  free(img);
  static const KcbWSymbol zero[] = {{"coef", 0}};
  img = with_symbols(zero, 1, uses, 0, &len);
  expect_invalid(img, len, "symbol 'coef' has size 0");
  free(img);
  static const KcbWSymbol empty[] = {{"", 4}};
  img = with_symbols(empty, 1, uses, 0, &len);
  expect_invalid(img, len, "symbol 0 has an empty name");
  free(img);
  static const uint32_t far[][2] = {{2, 0}};
  img = with_symbols(syms, 2, far, 1, &len);
  expect_invalid(img, len, "use 0 names kernel 2 and symbol 0 (of 2 and 2)");
  free(img);
  static const uint32_t far2[][2] = {{0, 2}};
  img = with_symbols(syms, 2, far2, 1, &len);
  expect_invalid(img, len, "use 0 names kernel 0 and symbol 2");
  free(img);
  static const uint32_t split[][2] = {{0, 0}, {1, 0}, {0, 1}};
  img = with_symbols(syms, 2, split, 3, &len);
  expect_invalid(img, len, "the uses of kernel 'vecadd' are not consecutive");
  free(img);
  /* Counts that claim more entries than the section holds. */
  img = with_symbols(syms, 2, uses, 3, &len);
  const unsigned char *sec = NULL;
  for (uint32_t i = 0; i < kcb_get32(img + KCB_H_SECTION_COUNT); i++) {
    const unsigned char *e = img + KCB_HEADER_SIZE + i * KCB_SECTION_ENTRY_SIZE;
    if (kcb_get32(e) == KCB_SEC_SYMBOLS) sec = img + kcb_get64(e + 8);
  }
  ck_assert_ptr_nonnull(sec);
  kcb_put32((unsigned char *)sec + 4, 1000000);
  reseal(img, len);
  expect_invalid(img, len, "run past the");
  free(img);
}
END_TEST

START_TEST(duplicate_and_missing_tables) {
  KcbWKernel ks[] = {{"same", NULL, 0, 0, 0, 0, {0, 0, 0}, 0},
                     {"same", NULL, 0, 0, 0, 0, {0, 0, 0}, 0}};
  size_t tl, len;
  unsigned char *tab = kcb_write_kernel_table(ks, 2, &tl);
  KcbWSection secs[] = {{KCB_SEC_KERNELS, 0, tab, tl}};
  unsigned char *img = kcb_write_bundle(secs, 1, &len);
  expect_invalid(img, len, "listed twice");
  free(img);
  KcbWSection two[] = {{KCB_SEC_KERNELS, 0, tab, tl}, {KCB_SEC_KERNELS, 0, tab, tl}};
  img = kcb_write_bundle(two, 2, &len);
  expect_invalid(img, len, "more than one kernel table");
  free(img);
  KcbWSection none[] = {{KCB_SEC_PTX, 75, "x", 1}};
  img = kcb_write_bundle(none, 1, &len);
  expect_invalid(img, len, "no kernel table");
  free(img);
  /* Unknown section kinds are skipped (forward compatibility). */
  KcbWKernel one[] = {{"k", NULL, 0, 0, 0, 0, {0, 0, 0}, 0}};
  free(tab);
  tab = kcb_write_kernel_table(one, 1, &tl);
  KcbWSection fut[] = {{99, 0, "future", 6}, {KCB_SEC_KERNELS, 0, tab, tl}};
  img = kcb_write_bundle(fut, 2, &len);
  KcbBundle *b;
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  ck_assert_uint_eq(b->nkernels, 1);
  kcb_free(b);
  free(img);
  free(tab);
}
END_TEST

/* Random mutations of a valid image, resealed so the checksum does not hide them: the reader
 * must accept or refuse each, never crash or read out of bounds (the ASan build checks). */
START_TEST(fuzz_mutations) {
  size_t len;
  unsigned char *img = sample(&len);
  unsigned char *m = malloc(len);
  uint64_t s = 0x1234567;
  int accepted = 0;
  for (int iter = 0; iter < 20000; iter++) {
    memcpy(m, img, len);
    int flips = 1 + iter % 4;
    for (int f = 0; f < flips; f++) {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      size_t at = KCB_HEADER_SIZE + (s >> 33) % (len - KCB_HEADER_SIZE);
      if (iter % 3 == 0) at = (s >> 33) % (KCB_HEADER_SIZE + 5 * KCB_SECTION_ENTRY_SIZE);
      m[at] = (unsigned char)(s >> 17);
    }
    if (len > KCB_H_CHECKSUM + 8) reseal(m, len);
    KcbBundle *b = NULL;
    kcrt_status st = kcb_parse(m, len, &b);
    ck_assert(st == KCRT_SUCCESS || st == KCRT_ERROR_INVALID_MODULE);
    if (st == KCRT_SUCCESS) {
      accepted++;
      for (uint32_t i = 0; i < b->nkernels; i++)
        for (uint32_t j = 0; j < b->kernels[i].nparams; j++)
          ck_assert(strlen(b->kernels[i].params[j].name) < len);
      kcb_free(b);
    }
  }
  ck_assert_int_gt(accepted, 0); /* some mutations only touch payload bytes */
  free(m);
  free(img);
}
END_TEST

/* ---------------------------------------------------------------- the writer in kcc */

static unsigned char *compile_bundle(const char *name, const char *src, const char *env,
                                     const char *flags, size_t *len) {
  char *k = tu_write(name, src);
  char out[512], cmd[2048];
  snprintf(out, sizeof out, "%s.kcb", k);
  snprintf(cmd, sizeof cmd, "env %s '%s' '%s' -o '%s' %s", env, tu_kcc(), k, out, flags);
  char *err = NULL;
  int rc = tu_sh(cmd, NULL, &err);
  ck_assert_msg(rc == 0, "kcc failed (%d): %s", rc, err);
  free(err);
  unsigned char *img = (unsigned char *)tu_read(out, len);
  ck_assert_ptr_nonnull(img);
  return img;
}

/* 1.6: the Vulkan form is a VKSPIRV section of SPIR-V words (a GLCompute module) when the
 * module fits it, and is left out without a diagnostic when it does not (goto). */
START_TEST(kcc_vulkan_section) {
  size_t len;
  unsigned char *img = compile_bundle(
      "vkadd.k",
      "kernel void add(float *a, const float *b, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] += b[i];\n}\n",
      "KCC_PTXAS=none", "", &len);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  const KcbSection *vk = kcb_section(b, KCB_SEC_VKSPIRV, 0);
  ck_assert_ptr_nonnull(vk);
  ck_assert_uint_eq(vk->size % 4, 0);
  ck_assert_uint_eq(kcb_get32(vk->data), 0x07230203u); /* SPIR-V's magic */
  uint32_t cap_shader[2] = {(2u << 16) | 17u /* OpCapability */, 1u /* Shader */};
  ck_assert_mem_eq(vk->data + 20, cap_shader, 8); /* the first instruction */
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_SPIRV, 0));
  kcb_free(b);
  free(img);
  /* goto needs unstructured control flow, which the Vulkan form refuses */
  char *k = tu_write("vkgoto.k", "kernel void p(int *o) {\n  if (o[0]) goto e;\n  o[1] = 1;\ne:\n"
                                 "  return;\n}\n");
  char out[512], cmd[2048];
  snprintf(out, sizeof out, "%s.kcb", k);
  snprintf(cmd, sizeof cmd, "env KCC_PTXAS=none '%s' '%s' -o '%s'", tu_kcc(), k, out);
  char *err = NULL;
  ck_assert_int_eq(tu_sh(cmd, NULL, &err), 0);
  ck_assert_str_eq(err ? err : "", ""); /* no warning for the form left out */
  free(err);
  img = (unsigned char *)tu_read(out, &len);
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert_ptr_null(kcb_section(b, KCB_SEC_VKSPIRV, 0));
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_SPIRV, 0));
  kcb_free(b);
  free(img);
}
END_TEST

/* 1.4: CUDA __device__ variables are SYMBOLS entries with a SYMINIT entry: the mutable flag
 * and, with an initializer, the first value as the target lays it out; damaged entries are
 * refused with a message naming them. */
/* 1.7: CUDA texture and surface object parameters (the image type and access the kernel reads
 * them as), each texture's hidden sampler naming it, the read_write flag of a surface read and
 * written; an object used otherwise stays an unsigned long long. */
START_TEST(kcc_texture_objects) {
  size_t len;
  unsigned char *img =
      compile_bundle("tex.cu",
                     "__global__ void k(float *o, cudaTextureObject_t a, cudaSurfaceObject_t s,\n"
                     "                  cudaTextureObject_t b) {\n"
                     "  o[0] = tex2D<float>(a, 0.5f, 0.5f) + tex1Dfetch<float>(b, 0);\n"
                     "  surf3Dwrite(surf3Dread<int>(s, 0, 0, 0) + 1, s, 4, 0, 0);\n"
                     "}\n"
                     "__device__ float f(cudaTextureObject_t t) { return tex1D<float>(t, 0.5f); }\n"
                     "__global__ void g(float *o, cudaTextureObject_t t) { o[0] = f(t); }\n",
                     "KCC_PTXAS=none", "", &len);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  const KcbKernel *k = kcb_kernel(b, "k"), *g = kcb_kernel(b, "g");
  ck_assert_uint_eq(k->nparams, 4);
  ck_assert_uint_eq(k->nhidden, 2);
  ck_assert_uint_eq(k->params[1].kind, KCB_PARAM_TEXTURE);
  ck_assert_uint_eq(k->params[1].scalar, KCB_IMAGE_2D);
  ck_assert_uint_eq(k->params[1].qual, KCB_IMAGE_READ);
  ck_assert_uint_eq(k->params[1].size, 8);
  ck_assert_str_eq(k->params[1].type, "cudaTextureObject_t");
  ck_assert_uint_eq(k->params[2].kind, KCB_PARAM_SURFACE);
  ck_assert_uint_eq(k->params[2].scalar, KCB_IMAGE_3D);
  ck_assert_uint_eq(k->params[2].qual, KCB_IMAGE_READ | KCB_IMAGE_WRITE);
  ck_assert_str_eq(k->params[2].type, "cudaSurfaceObject_t");
  ck_assert_uint_eq(k->params[3].kind, KCB_PARAM_TEXTURE);
  ck_assert_uint_eq(k->params[3].scalar, KCB_IMAGE_1D_BUFFER);
  ck_assert_uint_eq(k->params[4].kind, KCB_PARAM_TEX_SAMPLER);
  ck_assert_uint_eq(k->params[4].scalar, 1);
  ck_assert_uint_eq(k->params[5].kind, KCB_PARAM_TEX_SAMPLER);
  ck_assert_uint_eq(k->params[5].scalar, 3);
  ck_assert_uint_eq(k->flags, KCB_KERNEL_RW_IMAGES);
  ck_assert_uint_eq(g->nparams, 2);
  ck_assert_uint_eq(g->nhidden, 0);
  ck_assert_uint_eq(g->params[1].kind, KCB_PARAM_SCALAR);
  ck_assert_uint_eq(g->params[1].scalar, KCB_T_U64);
  /* g's texture object (passed to f) leaves the module without the forms that have none. */
  ck_assert_ptr_null(kcb_section(b, KCB_SEC_OPENCL_C, 0));
  kcb_free(b);

  /* A sampler that names no texture, and a texture without its sampler. */
  unsigned char *save = malloc(len);
  memcpy(save, img, len);
  unsigned char *t = img + kcb_get64(section_entry(img, 1) + 8);
  uint32_t nk = kcb_get32(t);
  unsigned char *p0 = t + KCB_KTAB_HEADER_SIZE + nk * KCB_KERNEL_ENTRY_SIZE;
  ck_assert_uint_eq(p0[4 * KCB_PARAM_ENTRY_SIZE + 16], KCB_PARAM_TEX_SAMPLER);
  p0[4 * KCB_PARAM_ENTRY_SIZE + 18] = 2;
  reseal(img, len);
  expect_invalid(img, len,
                 "kernel 'k' has a texture sampler parameter ('__kcc_smp_a') that follows no "
                 "texture parameter of its own");
  memcpy(img, save, len);
  p0[3 * KCB_PARAM_ENTRY_SIZE + 16] = KCB_PARAM_SCALAR;
  p0[3 * KCB_PARAM_ENTRY_SIZE + 18] = KCB_T_U64;
  p0[3 * KCB_PARAM_ENTRY_SIZE + 19] = 0;
  reseal(img, len);
  expect_invalid(img, len, "follows no texture parameter of its own");
  free(save);
  free(img);
}
END_TEST

START_TEST(kcc_device_variables) {
  size_t len;
  unsigned char *img = compile_bundle(
      "devvar.cu",
      "struct P { char c; int i; };\n"
      "__device__ P p = {'x', -3};\n"
      "__device__ unsigned zeros[3];\n"
      "__constant__ float host[2];\n"
      "__global__ void k(int *o) { o[0] = p.i + (int)zeros[0] + (int)host[1]; p.i++; }\n",
      "KCC_PTXAS=none", "", &len);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert_uint_eq(b->nsymbols, 3);
  int ip = kcb_symbol(b, "p"), iz = kcb_symbol(b, "zeros"), ih = kcb_symbol(b, "host");
  ck_assert(ip >= 0 && iz >= 0 && ih >= 0);
  ck_assert_uint_eq(b->symbols[ip].flags, KCB_SYMBOL_MUTABLE);
  ck_assert_uint_eq(b->symbols[iz].flags, KCB_SYMBOL_MUTABLE);
  ck_assert_uint_eq(b->symbols[ih].flags, 0);
  ck_assert_ptr_nonnull(b->symbols[ip].init);
  static const unsigned char want[8] = {'x', 0, 0, 0, 0xfd, 0xff, 0xff, 0xff};
  ck_assert_uint_eq(b->symbols[ip].size, 8);
  ck_assert_mem_eq(b->symbols[ip].init, want, 8);
  ck_assert_ptr_null(b->symbols[iz].init); /* no initializer: zero */
  ck_assert_ptr_null(b->symbols[ih].init);
  kcb_free(b);
  /* The entry naming p points past its section, then names a symbol that is not there. */
  const KcbSection *si = NULL;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  si = kcb_section(b, KCB_SEC_SYMINIT, 0);
  ck_assert_ptr_nonnull(si);
  size_t at = (size_t)(si->data - b->image);
  uint32_t n = kcb_get32(img + at);
  kcb_free(b);
  ck_assert_uint_eq(n, 2);
  for (uint32_t i = 0; i < n; i++) {
    unsigned char *e = img + at + KCB_SYMINIT_HEADER_SIZE + i * KCB_SYMINIT_ENTRY_SIZE;
    if (kcb_get64(e + 16) == 0) continue;
    kcb_put64(e + 8, 1u << 30);
    reseal(img, len);
    expect_invalid(img, len, "SYMINIT: the first value of 'p' (8 bytes at 1073741824)");
  }
  kcb_put32(img + at + KCB_SYMINIT_HEADER_SIZE, 9);
  reseal(img, len);
  expect_invalid(img, len, "SYMINIT: entry 0 names symbol 9 of 3");
  free(img);
}
END_TEST

/* 1.3: a kernel that uses warp-level operations, itself or through a device function, has
 * KCB_KERNEL_WARP (the runtimes run it only on 32-wide subgroups); every form is there. */
START_TEST(kcc_warp_flag) {
  size_t len;
  unsigned char *img = compile_bundle(
      "warpflag.k",
      "static int sum(int v) {\n"
      "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);\n"
      "  return v;\n"
      "}\n"
      "kernel void direct(unsigned *o) { o[threadIdx.x] = __ballot_sync(0xffffffffu, 1); }\n"
      "kernel void indirect(int *o) { o[threadIdx.x] = sum(o[threadIdx.x]); }\n"
      "kernel void plain(int *o) { o[threadIdx.x] = __popc(threadIdx.x) + warpSize; }\n",
      "KCC_PTXAS=none", "", &len);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert_uint_eq(kcb_get16(img + KCB_H_MINOR), KCB_VERSION_MINOR);
  ck_assert_uint_eq(kcb_kernel(b, "direct")->flags, KCB_KERNEL_WARP);
  ck_assert_uint_eq(kcb_kernel(b, "indirect")->flags, KCB_KERNEL_WARP);
  ck_assert_uint_eq(kcb_kernel(b, "plain")->flags, 0);
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_SPIRV, 0));
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_VKSPIRV, 0));
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_OPENCL_C, 0));
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_PTX, 75));
  kcb_free(b);
  free(img);
}
END_TEST

/* 1.5: image and sampler parameters (their dimension and access in the scalar and qualifier
 * fields), the read_write-image flag, and a module with images carrying PTX (kcc samples in
 * software there: docs/design.md). */
START_TEST(kcc_images) {
  size_t len;
  unsigned char *img = compile_bundle(
      "img.cl",
      "__constant sampler_t s0 = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | "
      "CLK_FILTER_NEAREST;\n"
      "kernel void rd(read_only image3d_t a, sampler_t s, global float4 *o) {\n"
      "  o[0] = read_imagef(a, s, (float4)(0.5f)) + read_imagef(a, s0, (int4)(0));\n"
      "}\n"
      "static void put(read_write image2d_array_t b) { write_imagei(b, (int4)(0), (int4)(1)); }\n"
      "kernel void rw(read_write image2d_array_t b) { put(b); }\n",
      "KCC_PTXAS=none", "-cl-std=CL2.0", &len);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert_uint_eq(kcb_get16(img + KCB_H_MINOR), 8);
  const KcbKernel *rd = kcb_kernel(b, "rd"), *rw = kcb_kernel(b, "rw");
  ck_assert_uint_eq(rd->params[0].kind, KCB_PARAM_IMAGE);
  ck_assert_uint_eq(rd->params[0].scalar, KCB_IMAGE_3D);
  ck_assert_uint_eq(rd->params[0].qual, KCB_IMAGE_READ);
  ck_assert_uint_eq(rd->params[0].size, 8);
  ck_assert_str_eq(rd->params[0].type, "read_only image3d_t");
  ck_assert_uint_eq(rd->params[1].kind, KCB_PARAM_SAMPLER);
  ck_assert_uint_eq(rd->params[2].kind, KCB_PARAM_POINTER);
  ck_assert_uint_eq(rd->flags, 0);
  ck_assert_uint_eq(rw->params[0].scalar, KCB_IMAGE_2D_ARRAY);
  ck_assert_uint_eq(rw->params[0].qual, KCB_IMAGE_READ | KCB_IMAGE_WRITE);
  ck_assert_uint_eq(rw->flags, KCB_KERNEL_RW_IMAGES);
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_PTX, 75));
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_OPENCL_C, 0));
  kcb_free(b);

  /* Forgeries of the image parameter (kernel 0's parameter 0). */
  unsigned char *save = malloc(len);
  memcpy(save, img, len);
  unsigned char *t = img + kcb_get64(section_entry(img, 1) + 8);
  uint32_t nk = kcb_get32(t);
  unsigned char *p0 = t + KCB_KTAB_HEADER_SIZE + nk * KCB_KERNEL_ENTRY_SIZE;
  ck_assert_uint_eq(p0[16], KCB_PARAM_IMAGE);
#define FORGE(stmt, needle)                                                                        \
  do {                                                                                             \
    stmt;                                                                                          \
    reseal(img, len);                                                                              \
    expect_invalid(img, len, needle);                                                              \
    memcpy(img, save, len);                                                                        \
  } while (0)
  FORGE(p0[18] = 7, "image parameter 'a' is malformed (size 8, alignment 8, type code 7");
  FORGE(p0[18] = 0, "type code 0, access 1)");
  FORGE(p0[19] = 4, "type code 6, access 4)");
  FORGE(kcb_put32(p0 + 20, 4), "image parameter 'a' is malformed (size 4");
  FORGE(p0[KCB_PARAM_ENTRY_SIZE + 18] = 1, "sampler parameter 's' is malformed");
#undef FORGE
  free(save);
  free(img);
}
END_TEST

START_TEST(kcc_kernel_table) {
  size_t len;
  unsigned char *img = compile_bundle(
      "kt.k",
      "struct P { float x; double y; int z; };\n"
      "kernel void first(const float *a, float *restrict b, int n, struct P p, unsigned char c,\n"
      "                  double d, long e) {\n"
      "  shared float tile[64];\n"
      "  tile[threadIdx.x] = a[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  if (threadIdx.x < n) b[threadIdx.x] = tile[63 - threadIdx.x] + p.x + c + d + e;\n"
      "}\n"
      "kernel void second(int *out) {\n"
      "  extern shared int dyn[];\n"
      "  dyn[threadIdx.x] = threadIdx.x;\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = dyn[0];\n"
      "}\n"
      "static int helper(int x) { return x * 2; }\n"
      "kernel void third(void) { }\n",
      "KCC_PTXAS=none", "", &len);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert_uint_eq(b->nkernels, 3); /* kernels only, not device functions */
  ck_assert_str_eq(b->source, "kt.k");
  const KcbKernel *k = kcb_kernel(b, "first");
  ck_assert_ptr_nonnull(k);
  ck_assert_uint_eq(k->nparams, 7);
  ck_assert_uint_eq(k->static_shared_bytes, 64 * 4);
  ck_assert_uint_eq(k->flags & KCB_KERNEL_DYNAMIC_SHARED, 0);
  ck_assert_uint_eq(k->flags & KCB_KERNEL_FP64, KCB_KERNEL_FP64); /* 1.3: double d */
  static const struct {
    const char *name;
    uint8_t kind, scalar;
    uint32_t size, align;
  } want[] = {{"a", KCB_PARAM_POINTER, KCB_T_F32, 8, 8}, {"b", KCB_PARAM_POINTER, KCB_T_F32, 8, 8},
              {"n", KCB_PARAM_SCALAR, KCB_T_I32, 4, 4},  {"p", KCB_PARAM_STRUCT, 0, 24, 8},
              {"c", KCB_PARAM_SCALAR, KCB_T_U8, 1, 1},   {"d", KCB_PARAM_SCALAR, KCB_T_F64, 8, 8},
              {"e", KCB_PARAM_SCALAR, KCB_T_I64, 8, 8}};
  for (int i = 0; i < 7; i++) {
    const KcbParam *p = &k->params[i];
    ck_assert_str_eq(p->name, want[i].name);
    ck_assert_uint_eq(p->kind, want[i].kind);
    ck_assert_uint_eq(p->scalar, want[i].scalar);
    ck_assert_uint_eq(p->size, want[i].size);
    ck_assert_uint_eq(p->align, want[i].align);
  }
  ck_assert_uint_eq(k->params[0].addr_space, KCB_AS_GLOBAL);
  ck_assert(k->params[0].qual & KCB_Q_CONST);
  ck_assert(k->params[1].qual & KCB_Q_RESTRICT);
  k = kcb_kernel(b, "second");
  ck_assert_uint_eq(k->flags & KCB_KERNEL_DYNAMIC_SHARED, KCB_KERNEL_DYNAMIC_SHARED);
  ck_assert_uint_eq(k->flags & KCB_KERNEL_FP64, 0);
  ck_assert_uint_eq(k->static_shared_bytes, 0);
  ck_assert_uint_eq(kcb_kernel(b, "third")->nparams, 0);
  /* Forms: PTX for the default arch, OpenCL C; no cubin with ptxas disabled. */
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_PTX, 75));
  ck_assert_ptr_nonnull(kcb_section(b, KCB_SEC_OPENCL_C, 0));
  ck_assert_ptr_null(kcb_section(b, KCB_SEC_CUBIN, 0));
  char *cl = kcb_text(kcb_section(b, KCB_SEC_OPENCL_C, 0));
  ck_assert_ptr_nonnull(strstr(cl, "first"));
  free(cl);
  kcb_free(b);
  free(img);
}
END_TEST

START_TEST(kcc_bounds_check) {
  size_t len;
  unsigned char *img = compile_bundle("bc.k",
                                      "float get(const float *p, int i) { return p[i]; }\n"
                                      "kernel void k(const float *a, float *b, int n) {\n"
                                      "  extern shared float s[];\n"
                                      "  float t[4];\n"
                                      "  t[n & 3] = get(a, n);\n"
                                      "  s[threadIdx.x] = t[0];\n"
                                      "  b[n] = s[0];\n"
                                      "}\n",
                                      "KCC_PTXAS=none", "-fbounds-check", &len);
  KcbBundle *b;
  ck_assert_msg(kcb_parse(img, len, &b) == KCRT_SUCCESS, "%s", kcrt_last_error());
  ck_assert(b->checked);
  const KcbKernel *k = kcb_kernel(b, "k");
  ck_assert_uint_eq(k->nparams, 3);
  ck_assert_uint_eq(k->nhidden, 4); /* a's and b's sizes, the dynamic shared bytes, the record */
  ck_assert_str_eq(k->params[3].name, "kcc_bc_bytes_a");
  ck_assert_uint_eq(k->params[5].kind, KCB_PARAM_BOUNDS_SIZE);
  ck_assert_uint_eq(k->params[6].kind, KCB_PARAM_BOUNDS_RECORD);
  ck_assert_uint_eq(k->flags & KCB_KERNEL_FP64, 0);
  /* Regions: a, b, then the local array t and the shared array s as the kernel meets them. */
  ck_assert_uint_eq(b->nregions, 4);
  ck_assert_str_eq(b->regions[0].name, "a");
  ck_assert_str_eq(b->regions[1].name, "b");
  ck_assert_str_eq(b->regions[2].name, "t");
  ck_assert_str_eq(b->regions[3].name, "s");
  ck_assert_int_eq(b->regions[3].kind, 2);
  /* Sites: p[i] in get, then the kernel's five accesses. */
  ck_assert_uint_eq(b->nsites, 6);
  ck_assert_int_eq(b->sites[0].line, 1);
  ck_assert_int_eq(b->sites[0].access, 1);
  ck_assert_str_eq(b->sites[0].file, "bc.k");
  kcb_free(b);
  free(img);
}
END_TEST

START_TEST(kcc_ptx_per_arch_and_cubins) {
  size_t len;
  const char *src = "kernel void k(float *x) { x[threadIdx.x] *= 2.0f; }\n";
  unsigned char *img = compile_bundle("arch.k", src, "KCC_LOG=0", "-arch=sm_90,sm_80,sm_90", &len);
  KcbBundle *b;
  ck_assert_int_eq(kcb_parse(img, len, &b), KCRT_SUCCESS);
  int nptx = 0;
  for (uint32_t i = 0; i < b->nsecs; i++) {
    if (b->secs[i].kind != KCB_SEC_PTX) continue;
    nptx++;
    char *t = kcb_text(&b->secs[i]);
    char target[32];
    snprintf(target, sizeof target, ".target sm_%u", b->secs[i].arch);
    ck_assert_msg(strstr(t, target), "PTX for sm_%u lacks '%s'", b->secs[i].arch, target);
    free(t);
  }
  ck_assert_int_eq(nptx, 2); /* duplicates dropped */
  char *out = NULL;
  bool have_ptxas = tu_sh("command -v ptxas || test -x /usr/local/cuda/bin/ptxas", &out, NULL) == 0;
  free(out);
  if (have_ptxas) {
    for (int arch = 80; arch <= 90; arch += 10) {
      const KcbSection *s = kcb_section(b, KCB_SEC_CUBIN, (uint32_t)arch);
      ck_assert_msg(s != NULL, "no cubin for sm_%d although ptxas exists", arch);
      ck_assert_int_eq(memcmp(s->data,
                              "\x7f"
                              "ELF",
                              4),
                       0);
    }
  }
  kcb_free(b);
  free(img);
}
END_TEST

Suite *suite(void) {
  Suite *s = suite_create("runtime_bundle");
  TCase *tc = tcase_create("reader");
  tcase_add_test(tc, roundtrip);
  tcase_add_test(tc, every_truncation);
  tcase_add_test(tc, bad_magic_and_version);
  tcase_add_test(tc, checksum_catches_corruption);
  tcase_add_test(tc, trailing_bytes);
  tcase_add_test(tc, section_out_of_bounds);
  tcase_add_test(tc, kernel_table_forgeries);
  tcase_add_test(tc, version_1_2_fields);
  tcase_add_test(tc, version_1_3_bounds);
  tcase_add_test(tc, duplicate_and_missing_tables);
  tcase_add_test(tc, symbol_table);
  tcase_add_test(tc, fuzz_mutations);
  suite_add_tcase(s, tc);
  TCase *w = tcase_create("writer");
  tcase_set_timeout(w, 120);
  tcase_add_test(w, kcc_kernel_table);
  tcase_add_test(w, kcc_warp_flag);
  tcase_add_test(w, kcc_images);
  tcase_add_test(w, kcc_texture_objects);
  tcase_add_test(w, kcc_device_variables);
  tcase_add_test(w, kcc_vulkan_section);
  tcase_add_test(w, kcc_bounds_check);
  tcase_add_test(w, kcc_ptx_per_arch_and_cubins);
  suite_add_tcase(s, w);
  return s;
}

int main(void) {
  return tu_main(suite());
}
