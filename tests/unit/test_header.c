/* test_header.c — the C header back end (compiler/package/header.c) and its driver options: the
 * header's text (names, signatures, struct layouts, the embedded bundle byte for byte),
 * --prefix, and that what it writes compiles as C99, C11 and C++ with warnings as errors.
 * Running the generated code is tests/header (ctest header.*). */
#define _GNU_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Compiles `src` (written as `name`) for the header form and returns the header's text, or
 * NULL; *bundle receives emit_bundle's bytes for the same module when not NULL. */
static char *header_of(const char *name, const char *src, const char *prefix, KBuf *bundle) {
  setenv("KCC_PTXAS", "none", 1); /* no cubins: the same bytes every time, on every machine */
  diag_reset();
  KOptions o;
  kcc_options_default(&o);
  o.prefix = prefix;
  char *path = strdup(tu_write(name, src));
  KModule *m = kcc_compile_module(path, &o, NULL, false); /* m->file is `path` */
  KBuf out = {0};
  bool ok = m && emit_header(m, &o, &out);
  if (ok && bundle) ok = emit_bundle(m, &o, bundle);
  kir_free_all();
  free(path);
  if (!ok) {
    kbuf_free(&out);
    return NULL;
  }
  char *text = strdup(out.data);
  kbuf_free(&out);
  return text;
}

#define ASSERT_HAS(text, s)   ck_assert_msg(strstr((text), (s)), "the header lacks:\n%s", (s))
#define ASSERT_LACKS(text, s) ck_assert_msg(!strstr((text), (s)), "the header has:\n%s", (s))

static const char *vecadd =
    "kernel void vecadd(const float *a, const float *b, float *c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

START_TEST(names_and_signature) {
  char *h = header_of("vec-add2.k", vecadd, NULL, NULL);
  ck_assert_ptr_nonnull(h);
  /* The prefix comes from the file name, made an identifier. */
  ASSERT_HAS(h, "#ifndef KCC_GENERATED_vec_add2_k_H\n#define KCC_GENERATED_vec_add2_k_H\n");
  ASSERT_HAS(h, "#include <kcrt.h>\n");
  ASSERT_HAS(h, "static inline kcrt_status vec_add2_k_launch_vecadd(kcrt_device *dev, "
                "kcrt_dim3 grid, kcrt_dim3 block,\n");
  ASSERT_HAS(h, "size_t dynamic_shared, kcrt_queue *queue,\n");
  ASSERT_HAS(h, "kcc_buf_float a, kcc_buf_float b, kcc_buf_float c,\n");
  ASSERT_HAS(h, "int32_t n) {\n");
  ASSERT_HAS(h, "return kcrt_launch(kcc_k, queue, grid, block, dynamic_shared, kcc_args, 4);");
  ASSERT_HAS(h, " *   vec_add2_k_launch_vecadd  <-  kernel void vecadd(global const float *a, "
                "global const float *b, global float *c, int n)\n");
  ASSERT_HAS(h, "static inline kcrt_status vec_add2_k_module(kcrt_device *dev, kcrt_module **out)");
  ASSERT_HAS(h, "static inline kcrt_status vec_add2_k_release(kcrt_device *dev)");
  ASSERT_HAS(h, "static inline kcrt_status vec_add2_k_kernel_vecadd(kcrt_device *dev, "
                "kcrt_kernel **out)");
  ASSERT_HAS(h, "#define vec_add2_k_KERNEL_COUNT 1\n");
  /* The shared part is guarded as a whole, and needs a runtime with both interfaces. */
  ASSERT_HAS(h, "#ifndef KCC_HOST_COMMON_3\n#define KCC_HOST_COMMON_3\n");
  ASSERT_HAS(h, "#if !defined(KCRT_HAS_MODULE_GET) || !defined(KCRT_HAS_BUFFER_TYPE) || "
                "!defined(KCRT_HAS_CONVENIENCE)\n#error ");
  /* Issue 13: the short launch name (the kernel's own, settings in one kcrt_config), left out
   * under KCC_NO_SHORT_NAMES, and a typed buffer made from host data in one call. */
  ASSERT_HAS(h, "#ifndef KCC_NO_SHORT_NAMES\n");
  ASSERT_HAS(
      h,
      "static inline kcrt_status vecadd_launch(kcrt_config cfg, kcc_buf_float a, "
      "kcc_buf_float b, kcc_buf_float c, int32_t n) {\n  return vec_add2_k_launch_vecadd(cfg.dev, "
      "cfg.grid, cfg.block, cfg.shared, cfg.queue, a, b, c, n);\n}\n#endif\n");
  ASSERT_HAS(h, "static inline kcrt_status kcc_buf_float_from(kcrt_device *dev, const float *src, "
                "size_t count,\n    kcc_buf_float *out) {\n");
  ASSERT_HAS(h, "typedef struct kcc_buf_float {\n  kcrt_buffer *raw;\n} kcc_buf_float;\n");
  /* The runtime keeps the module per device: no list of the header's own, and _release
   * stays only as a no-op for older programs. */
  ASSERT_HAS(h, "kcrt_module_get(dev, bundle, size, &m);");
  ASSERT_HAS(h, "kcc_impl_lookup(dev, vec_add2_k_bundle, sizeof vec_add2_k_bundle, \"vecadd\", "
                "NULL, &kcc_k);");
  ASSERT_HAS(h, "static inline kcrt_status vec_add2_k_release(kcrt_device *dev) {\n"
                "  (void)dev;\n  return KCRT_SUCCESS;\n}\n");
  ASSERT_LACKS(h, "pthread");
  ASSERT_LACKS(h, "impl_cache");
  ASSERT_LACKS(h, "kcrt_module_load(");
  ASSERT_LACKS(h, "kcrt_module_unload(");
  /* _alloc tags the buffer with its element type; _of only wraps. */
  ASSERT_HAS(h,
             "static inline kcrt_status kcc_buf_float_alloc(kcrt_device *dev, size_t count, "
             "kcc_buf_float *out) {\n"
             "  return kcc_impl_alloc(dev, count, KCRT_TYPE_FLOAT, sizeof(float), &out->raw);\n");
  ASSERT_HAS(h, "kcc_impl_alloc(dev, count, KCRT_TYPE_UINT64, sizeof(uint64_t), &out->raw);");
  ASSERT_HAS(h, "kcc_impl_alloc(dev, count, KCRT_TYPE_BOOL, sizeof(kcc_bool), &out->raw);");
  ASSERT_HAS(h, "  st = kcrt_buffer_set_type(raw, type, size);\n");
  ASSERT_HAS(h, "static inline kcc_buf_float kcc_buf_float_of(kcrt_buffer *raw) {\n"
                "  kcc_buf_float b;\n  b.raw = raw;\n  return b;\n}\n");
  free(h);
  /* A leading digit gets a letter in front. */
  h = header_of("3d.k", vecadd, NULL, NULL);
  ck_assert_ptr_nonnull(h);
  ASSERT_HAS(h, "k3d_k_launch_vecadd(");
  free(h);
  /* --prefix */
  h = header_of("v.k", vecadd, "mylib", NULL);
  ck_assert_ptr_nonnull(h);
  ASSERT_HAS(h, "#ifndef KCC_GENERATED_mylib_H\n");
  ASSERT_HAS(h, "static inline kcrt_status mylib_launch_vecadd(");
  ASSERT_HAS(h, "static const unsigned char mylib_bundle[");
  ASSERT_LACKS(h, "v_k_");
  free(h);
}
END_TEST

/* The array holds exactly emit_bundle's bytes. */
START_TEST(bundle_bytes) {
  KBuf bundle = {0};
  char *h = header_of("b.k", vecadd, NULL, &bundle);
  ck_assert_ptr_nonnull(h);
  char decl[128];
  snprintf(decl, sizeof decl, "static const unsigned char b_k_bundle[%zu] = {\n", bundle.len);
  const char *p = strstr(h, decl);
  ck_assert_msg(p, "no '%s'", decl);
  p += strlen(decl);
  size_t n = 0;
  for (;;) {
    while (*p == ',' || *p == '\n') p++;
    if (*p == '}') break;
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    ck_assert_msg(end != p && v < 256, "bad byte at %zu", n);
    ck_assert_msg(n < bundle.len, "more bytes than the bundle's %zu", bundle.len);
    ck_assert_msg((unsigned char)bundle.data[n] == v, "byte %zu: %lu, bundle has %u", n, v,
                  (unsigned char)bundle.data[n]);
    n++;
    p = end;
  }
  ck_assert_uint_eq(n, bundle.len);
  ck_assert(!memcmp(bundle.data, "\x89KCB\r\n\x1a\n", 8));
  kbuf_free(&bundle);
  free(h);
}
END_TEST

static const char *many =
    "struct Inner { char c; double d; };\n"
    "struct Outer { struct Inner in; float v[3]; short m[2][2]; };\n"
    "struct Unused { int x; };\n"
    "kernel void k(bool b, char c, unsigned char uc, short s, unsigned short us, int i,\n"
    "              unsigned int ui, long l, unsigned long ul, float f, double d,\n"
    "              struct Outer o, const struct Inner *pin, bool *pb, long *pl,\n"
    "              int grid, int block, int class, int kcc_k, int dev, int queue) {\n"
    "  if (b) pl[0] = c + uc + s + us + i + ui + l + ul + (long)f + (long)d + o.in.c + grid\n"
    "          + block + class + kcc_k + dev + queue + pin->c + pb[0];\n"
    "}\n"
    "kernel void none(void) {}\n";

START_TEST(parameter_types) {
  char *h = header_of("many.k", many, NULL, NULL);
  ck_assert_ptr_nonnull(h);
  const char *params[] = {"kcc_bool b", "int8_t c", "uint8_t uc", "int16_t s", "uint16_t us",
                          "int32_t i", "uint32_t ui", "int64_t l", "uint64_t ul", "float f",
                          "double d", "struct Outer o", "kcc_buf_struct_Inner pin",
                          "kcc_buf_bool pb", "kcc_buf_int64 pl",
                          /* renamed: the launch function's own names, C++ keywords, kcc_/kcrt_ */
                          "int32_t grid_", "int32_t block_", "int32_t class_", "int32_t p_kcc_k",
                          "int32_t dev_", "int32_t queue_"};
  for (size_t j = 0; j < sizeof params / sizeof params[0]; j++) {
    char want[64];
    snprintf(want, sizeof want, "%s%s", params[j],
             j + 1 == sizeof params / sizeof params[0] ? ")" : "");
    ASSERT_HAS(h, want);
  }
  ASSERT_HAS(h, "kcc_args[11].value = &o;\n  kcc_args[11].size = sizeof o;\n");
  ASSERT_HAS(h, "kcc_args[12].value = NULL;\n  kcc_args[12].size = 0;\n"
                "  kcc_args[12].buffer = pin.raw;\n");
  /* No parameters: no argument array. */
  ASSERT_HAS(h, "static inline kcrt_status many_k_launch_none(kcrt_device *dev, kcrt_dim3 grid, "
                "kcrt_dim3 block,\n");
  ASSERT_HAS(h, "return kcrt_launch(kcc_k, queue, grid, block, dynamic_shared, NULL, 0);");
  ASSERT_HAS(h, "#define many_k_KERNEL_COUNT 2\n");
  free(h);
}
END_TEST

START_TEST(structs) {
  char *h = header_of("st.k", many, NULL, NULL);
  ck_assert_ptr_nonnull(h);
  ASSERT_HAS(h, "#ifndef KCC_STRUCT_Inner\n#define KCC_STRUCT_Inner\nstruct Inner {\n"
                "  int8_t c;\n  double d;\n};\n#endif\n");
  ASSERT_HAS(h, "struct Outer {\n  struct Inner in;\n  float v[3];\n  int16_t m[2][2];\n};\n");
  /* Inner comes first (Outer contains it); Unused is not needed by any kernel. */
  ck_assert(strstr(h, "struct Inner {") < strstr(h, "struct Outer {"));
  ASSERT_LACKS(h, "Unused");
  /* Layout checks run whoever defined the struct. */
  ASSERT_HAS(h, "KCC_LAYOUT_CHECK(sizeof(struct Outer) == 40, \"struct Outer must be 40 bytes, "
                "as kcc laid it out for the kernels\", st_k_layout_Outer);\n");
  ASSERT_HAS(h, "KCC_LAYOUT_CHECK(offsetof(struct Inner, d) == 8, \"struct Inner: field 'd' must "
                "be at offset 8, as kcc laid it out for the kernels\", st_k_layout_Inner_1);\n");
  ASSERT_HAS(h, "KCC_LAYOUT_CHECK(offsetof(struct Outer, m) == 28,");
  /* Buffers of a struct get their own handle, guarded separately from the struct. */
  ASSERT_HAS(h, "#ifndef KCC_BUF_STRUCT_Inner\n#define KCC_BUF_STRUCT_Inner\n");
  ASSERT_HAS(h, "static inline kcrt_status kcc_buf_struct_Inner_write(kcc_buf_struct_Inner dst, "
                "size_t first,\n");
  ASSERT_HAS(h, "const struct Inner *src, size_t count) {\n");
  /* Struct buffers are tagged as structs of their size. */
  ASSERT_HAS(h, "kcc_impl_alloc(dev, count, KCRT_TYPE_STRUCT, sizeof(struct Inner), &out->raw);");
  free(h);
}
END_TEST

/* The generated text compiles cleanly as C99, C11 and C++ (two headers and a second copy of
 * one in the same file), with the host's compilers. */
START_TEST(compiles) {
  char *h1 = header_of("many.k", many, NULL, NULL), *h2 = header_of("v.k", vecadd, "other", NULL);
  ck_assert_ptr_nonnull(h1);
  ck_assert_ptr_nonnull(h2);
  tu_write("many.h", h1);
  tu_write("other.h", h2);
  free(h1), free(h2);
  tu_write("use.c",
           "#include \"many.h\"\n#include \"other.h\"\n#include \"many.h\"\n"
           "int use(kcrt_device *dev, kcc_buf_int64 pl, struct Outer o);\n"
           "int use(kcrt_device *dev, kcc_buf_int64 pl, struct Outer o) {\n"
           "  kcc_buf_float f = kcc_buf_float_of(pl.raw);\n"
           "  kcc_buf_struct_Inner in = kcc_buf_struct_Inner_of(NULL);\n"
           "  kcc_buf_bool b = kcc_buf_bool_of(NULL);\n"
           "  return many_k_launch_k(dev, kcc_dim1(1), kcc_dim1(1), 0, NULL, 1, 2, 3, 4, 5,\n"
           "                         6, 7, 8, 9, 1.0f, 2.0, o, in, b, pl, 1, 2, 3, 4, 5, 6)\n"
           "         + many_k_launch_none(dev, kcc_dim2(1, 1), kcc_dim3(1, 1, 1), 0, NULL)\n"
           "         + other_launch_vecadd(dev, kcc_dim1(1), kcc_dim1(1), 0, NULL, f, f, f, 1);\n"
           "}\n");
  const char *compilers[][2] = {{"cc", "-std=c99"},
                                {"cc", "-std=c11"},
                                {"c++", "-x c++ -std=c++11"},
                                {"c++", "-x c++ -std=c++17"}};
  for (size_t i = 0; i < sizeof compilers / sizeof compilers[0]; i++) {
    char *cmd, *err;
    if (asprintf(&cmd,
                 "command -v %s >/dev/null || exit 77; cd %s && %s %s -pedantic-errors "
                 "-Wall -Wextra -Werror -fsyntax-only -I%s/../runtime/include use.c",
                 compilers[i][0], tu_tmpdir(), compilers[i][0], compilers[i][1], tu_srcdir()) < 0)
      abort();
    int st = tu_sh(cmd, NULL, &err);
    ck_assert_msg(st == 0 || st == 77, "%s failed:\n%s", cmd, err);
    free(cmd);
    free(err);
  }
}
END_TEST

/* Vector, local-memory and reqd_work_group_size kernels, which the front end does not write
 * yet: KIR from a plain kernel, retyped by hand, and a stand-in bundle (no back end runs). */
START_TEST(vectors_and_locals) {
  diag_reset();
  KOptions o;
  kcc_options_default(&o);
  o.prefix = "vl";
  char *path =
      strdup(tu_write("vl.k", "kernel void vk(float *v, float a, int *w, int n, float *tmp,\n"
                              "                 char c, float *sum) {}\n"));
  KModule *m = kcc_compile_module(path, &o, NULL, false);
  ck_assert_ptr_nonnull(m);
  KFunc *f = NULL;
  for (int i = 0; i < m->funcs.n; i++)
    if (KLIST_AT(m->funcs, i, KFunc *)->is_kernel) f = KLIST_AT(m->funcs, i, KFunc *);
  ck_assert_ptr_nonnull(f);
  KType *f4 = kir_type_vec(kir_type_scalar(KT_F32), 4),
        *i3 = kir_type_vec(kir_type_scalar(KT_I32), 3);
  f->params[0]->type = kir_type_ptr(f4, KAS_GLOBAL, 0);
  f->params[1]->type = f4;
  f->params[2]->type = kir_type_ptr(i3, KAS_GLOBAL, KQ_CONST);
  f->params[3]->type = kir_type_vec(kir_type_scalar(KT_U8), 16);
  f->params[4]->type = kir_type_ptr(kir_type_scalar(KT_F32), KAS_SHARED, 0);
  f->params[5]->type = kir_type_vec(kir_type_scalar(KT_F64), 2);
  f->params[6]->name = "tmp_bytes"; /* clashes with the size parameter of tmp */
  f->reqd_block[0] = 8, f->reqd_block[1] = 2, f->reqd_block[2] = 1;
  KBuf bundle = {0}, out = {0};
  kbuf_puts(&bundle, "stand-in");
  ck_assert(emit_header_with_bundle(m, &o, &bundle, &out));
  char *h = strdup(out.data);
  kbuf_free(&out);
  kbuf_free(&bundle);
  kir_free_all();
  free(path);
  tu_write("vl.h", h);
  ASSERT_HAS(h, "typedef struct kcc_float4 {\n  KCC_ALIGNAS(16) float s[4];\n} kcc_float4;\n");
  ASSERT_HAS(h, "typedef struct kcc_int3 {\n  KCC_ALIGNAS(16) int32_t s[4];\n} kcc_int3;\n");
  ASSERT_HAS(h, "typedef struct kcc_uchar16 {\n  KCC_ALIGNAS(16) uint8_t s[16];\n}");
  ASSERT_HAS(h, "typedef struct kcc_double2 {\n  KCC_ALIGNAS(16) double s[2];\n}");
  ASSERT_HAS(h, "KCC_LAYOUT_CHECK(sizeof(kcc_int3) == 16,");
  ASSERT_HAS(h, "kcc_impl_alloc(dev, count, KCRT_TYPE_VECTOR(KCRT_TYPE_FLOAT, 4), "
                "sizeof(kcc_float4), &out->raw)");
  ASSERT_HAS(h, "kcc_float4 a, kcc_buf_int3 w, kcc_uchar16 n, size_t tmp_bytes,\n");
  ASSERT_HAS(h, "kcc_double2 c, kcc_buf_float tmp_bytes_) {\n");
  ASSERT_HAS(h, "  kcc_args[4] = kcrt_local(tmp_bytes);\n");
  ASSERT_HAS(h, "`block` must be 8 x 2 x 1 (the kernel's reqd_work_group_size)");
  ASSERT_HAS(h, "NAME_bytes: the size in bytes (> 0) of local-memory parameter NAME");
  free(h);
  tu_write("use_vl.c",
           "#include \"vl.h\"\n#include \"vl.h\"\n"
           "KCC_LAYOUT_CHECK(sizeof(kcc_float4[3]) == 48, \"stride\", t1);\n"
           "int use(kcrt_device *dev);\n"
           "int use(kcrt_device *dev) {\n"
           "  kcc_buf_float4 v = kcc_buf_float4_of(NULL);\n"
           "  kcc_buf_int3 w = kcc_buf_int3_of(NULL);\n"
           "  kcc_buf_float s = kcc_buf_float_of(NULL);\n"
           "  kcc_float4 a = {{1, 2, 3, 4}};\n"
           "  kcc_uchar16 n = {{1}};\n"
           "  kcc_double2 c = {{1, 2}};\n"
           "  return vl_launch_vk(dev, kcc_dim1(1), kcc_dim3(8, 2, 1), 0, NULL, v, a, w, n,\n"
           "                      256 * sizeof(float), c, s);\n"
           "}\n");
  const char *compilers[][2] = {{"cc", "-std=c99"},
                                {"cc", "-std=c11"},
                                {"c++", "-x c++ -std=c++11"},
                                {"c++", "-x c++ -std=c++17"}};
  for (size_t i = 0; i < sizeof compilers / sizeof compilers[0]; i++) {
    char *cmd, *err;
    if (asprintf(&cmd,
                 "command -v %s >/dev/null || exit 77; cd %s && %s %s -pedantic-errors "
                 "-Wall -Wextra -Werror -fsyntax-only -I%s/../runtime/include use_vl.c",
                 compilers[i][0], tu_tmpdir(), compilers[i][0], compilers[i][1], tu_srcdir()) < 0)
      abort();
    int st = tu_sh(cmd, NULL, &err);
    ck_assert_msg(st == 0 || st == 77, "%s failed:\n%s", cmd, err);
    free(cmd);
    free(err);
  }
}
END_TEST

/* Runs kcc with `args` in the test's temporary directory. */
static int kcc(const char *args, char **out, char **err) {
  char *cmd;
  if (asprintf(&cmd, "cd %s && %s %s", tu_tmpdir(), tu_kcc(), args) < 0) abort();
  int st = tu_sh(cmd, out, err);
  free(cmd);
  return st;
}

START_TEST(driver) {
  char *out, *err, path[512];
  tu_write("drv.k", vecadd);
  /* The extension selects the form; the default output name is the input's with .h. */
  ck_assert_int_eq(kcc("drv.k -o drv-out.h", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/drv-out.h", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), "drv_k_launch_vecadd("));
  ck_assert_int_eq(kcc("drv.k --emit=header", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/drv.h", tu_tmpdir());
  ck_assert(access(path, F_OK) == 0);
  ck_assert_int_eq(kcc("drv.k --emit=header --prefix=Lib_2 -o -", &out, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out, "Lib_2_launch_vecadd("));
  /* The dependency file names the header. */
  ck_assert_int_eq(kcc("drv.k -o dep.h -MD", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/dep.h.d", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), "dep.h: drv.k"));
  /* --prefix must be a C identifier. */
  const char *bad[] = {"9lives", "", "a-b", "a b"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char args[128], want[256];
    snprintf(args, sizeof args, "drv.k -o x.h '--prefix=%s'", bad[i]);
    ck_assert_int_eq(kcc(args, NULL, &err), 2);
    snprintf(want, sizeof want,
             "kcc: error: invalid --prefix '%s' (expected a C identifier)\n"
             "kcc: run 'kcc --help' for usage\n",
             bad[i]);
    ck_assert_str_eq(err, want);
  }
  ck_assert_int_eq(kcc("--help", &out, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out, "  .h      header C header: typed launch functions"));
  ck_assert_ptr_nonnull(strstr(out, "  .vk.spv vkspv  SPIR-V for Vulkan compute, validated"));
  ck_assert_ptr_nonnull(strstr(out, "  --prefix=NAME "));
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("header");
  TCase *t = tcase_create("header");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, names_and_signature);
  tcase_add_test(t, bundle_bytes);
  tcase_add_test(t, parameter_types);
  tcase_add_test(t, structs);
  tcase_add_test(t, compiles);
  tcase_add_test(t, vectors_and_locals);
  tcase_add_test(t, driver);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  return tu_main(suite());
}
