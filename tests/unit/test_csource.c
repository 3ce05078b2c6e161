/* test_csource.c — the OpenCL C and CUDA C back ends (compiler/csource.c, opencl_c.c,
 * cuda_c.c): renaming of identifiers the targets reserve, precedence and casts, literals,
 * shared memory in OpenCL C, and the diagnostics for what OpenCL C cannot express. Each test
 * compiles a snippet with the kcc binary and looks for lines of the output. (Whether whole
 * outputs build is opencl.build.* and cuda.build.*; byte-exact outputs are golden.*.) */
#define _GNU_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `kcc t.k --emit=FORM -o -` on src (FORM may carry options after it); returns the exit
 * status, *out the output. */
static int emit(const char *src, const char *form, char **out, char **err) {
  static int serial;
  char name[32], *cmd;
  snprintf(name, sizeof name, "t%d.k", serial++);
  char *path = tu_write(name, src);
  if (asprintf(&cmd, "%s %s --emit=%s -o -", tu_kcc(), path, form) < 0) abort();
  char *o = NULL, *e = NULL;
  int st = tu_sh(cmd, &o, &e);
  free(cmd);
  /* Kept in the arena, which lives as long as the test. */
  *out = kir_strdup(o ? o : "");
  *err = kir_strdup(e ? e : "");
  free(o);
  free(e);
  return st;
}

static char *ok(const char *src, const char *form) {
  char *out, *err;
  int st = emit(src, form, &out, &err);
  ck_assert_msg(st == 0, "kcc --emit=%s failed (%d):\n%s", form, st, err);
  return out;
}

#define HAS(text, want)                                                                            \
  ck_assert_msg(strstr((text), (want)), "missing `%s` in:\n%s", (want), (text))
#define HASNT(text, bad)                                                                           \
  ck_assert_msg(!strstr((text), (bad)), "unexpected `%s` in:\n%s", (bad), (text))

/* ---------------------------------------------------------------- names */

static const char *clash_src = "struct S { int global; float half; };\n"
                               "static float dot(float a, float b) { return a * b; }\n"
                               "static int norm(int class) { int new = class + 1; return new; }\n"
                               "kernel void names(int *out, float *f) {\n"
                               "  int global = 1;\n"
                               "  int global_ = 2;\n"
                               "  float half = 0.5f;\n"
                               "  struct S s;\n"
                               "  s.global = global + global_;\n"
                               "  s.half = half;\n"
                               "  out[0] = s.global + norm(global);\n"
                               "  f[0] = dot(half, s.half);\n"
                               "  { int local = 3; out[1] = local; }\n"
                               "  { int local = 4; out[2] = local; }\n"
                               "}\n";

START_TEST(rename_opencl) {
  char *cl = ok(clash_src, "cl");
  /* `global` is an OpenCL keyword; `global_` is taken by the user, so global_1. */
  HAS(cl, "  int global_1 = 1;\n");
  HAS(cl, "  int global_ = 2;\n");
  HAS(cl, "  float half_ = 0.5f;\n");
  HAS(cl, "  s.global_ = global_1 + global_;\n");
  HAS(cl, "  s.half_ = half_;\n");
  HAS(cl, "struct S {\n  int global_;\n  float half_;\n};\n");
  /* dot is an OpenCL builtin: definition and call renamed alike. */
  HAS(cl, "static float dot_(float a, float b) {");
  HAS(cl, "  f[0] = dot_(half_, s.half_);\n");
  /* C++ words are fine in OpenCL C. */
  HAS(cl, "static int norm(int class) {");
  HAS(cl, "  int new = class + 1;");
  /* Both `local` variables of sibling blocks get the same new name. */
  HAS(cl, "    int local_ = 3;\n    out[1] = local_;\n");
  HAS(cl, "    int local_ = 4;\n    out[2] = local_;\n");
  /* The kernel keeps its name. */
  HAS(cl, "__kernel void names(");
}
END_TEST

START_TEST(rename_cuda) {
  char *cu = ok(clash_src, "cuda");
  HAS(cu, "static __device__ int norm_(int class_) {");
  HAS(cu, "  int new_ = class_ + 1;");
  HAS(cu, "  out[0] = s.global + norm_(global);\n");
  HAS(cu, "  float half_ = 0.5f;\n"); /* half is CUDA's fp16 type */
  HAS(cu, "static __device__ float dot(float a, float b) {");
  HAS(cu, "extern \"C\" __global__ void names(int *out, float *f) {");
}
END_TEST

START_TEST(kernel_name_reserved) {
  char *out, *err;
  const char *src = "kernel void half(float *x) { x[0] = 1.0f; }\n";
  ck_assert_int_eq(emit(src, "cl", &out, &err), 1);
  HAS(err, "error: kernel name 'half' is reserved in OpenCL C");
  HAS(err, ":1:");
  /* A builtin function name is fine for an OpenCL kernel, not for an extern "C" CUDA one. */
  src = "kernel void normalize(float *x) { x[0] = 1.0f; }\nkernel void norm3d(float *x) { x[0] = "
        "2.0f; }\n";
  HAS(ok(src, "cl"), "__kernel void normalize(__global float *x)");
  ck_assert_int_eq(emit(src, "cuda", &out, &err), 1);
  HAS(err, "error: kernel name 'norm3d' is reserved in CUDA C++");
}
END_TEST

/* ---------------------------------------------------------------- expressions */

static const char *expr_src =
    "kernel void ex(int *o, long *l, unsigned long *ul, float *f, double *d, int a, int b,\n"
    "               unsigned int u, char c) {\n"
    "  o[0] = (a + b) * (a - b);\n"
    "  o[1] = a - (b - 1);\n"
    "  o[2] = a << (b + 1);\n"
    "  o[3] = (a & b) == 0;\n"
    "  o[4] = -(-a);\n"
    "  o[5] = a - -b;\n"
    "  o[6] = (a < b && b < 3) || a == 7;\n"
    "  o[7] = a > 0 ? a : b > 0 ? b : 0;\n"
    "  o[8] = c + 1;\n"
    "  o[9] = (a = b, a + 1);\n"
    "  l[0] = a;\n"
    "  ul[0] = a;\n"
    "  f[0] = a;\n"
    "  d[0] = f[1];\n"
    "  o[10] = (int)f[2];\n"
    "  o[11] = u > a;\n"
    "  o[12] = 0x80000000;\n"
    "  l[1] = -9223372036854775807L - 1;\n"
    "  f[3] = 0.1f;\n"
    "  d[1] = 0.1;\n"
    "  f[4] = 1e30f;\n"
    "  c += 3;\n"
    "  o[13] = c;\n"
    "}\n";

START_TEST(expressions_opencl) {
  char *cl = ok(expr_src, "cl");
  HAS(cl, "  o[0] = (a + b) * (a - b);\n");
  HAS(cl, "  o[1] = a - (b - 1);\n");
  HAS(cl, "  o[2] = a << (b + 1);\n");
  HAS(cl, "  o[3] = (a & b) == 0;\n");
  HAS(cl, "  o[4] = -(-a);\n");
  HAS(cl, "  o[5] = a - -b;\n");
  HAS(cl, "  o[6] = (a < b && b < 3) || a == 7;\n");
  HAS(cl, "  o[7] = a > 0 ? a : b > 0 ? b : 0;\n");
  HAS(cl, "  o[8] = c + 1;\n"); /* the promotion of c is C's own */
  HAS(cl, "  o[9] = (a = b, a + 1);\n");
  HAS(cl, "  l[0] = a;\n");         /* int -> long keeps every value: implicit */
  HAS(cl, "  ul[0] = (ulong)a;\n"); /* int -> unsigned long does not: spelled out */
  HAS(cl, "  f[0] = (float)a;\n");
  HAS(cl, "  d[0] = f[1];\n");
  HAS(cl, "  o[10] = (int)f[2];\n");
  HAS(cl, "  o[11] = u > (uint)a;\n");
  HAS(cl, "  o[12] = (-2147483647 - 1);\n"); /* INT_MIN: no long literal negated */
  HAS(cl, "  l[1] = -9223372036854775807L - 1L;\n");
  HAS(cl, "  f[3] = 0.1f;\n");
  HAS(cl, "  d[1] = 0.1;\n");
  HAS(cl, "  f[4] = 1e+30f;\n");
  HAS(cl, "  c += 3;\n");
  HAS(cl, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
  HAS(cl, "__global long *l, __global ulong *ul");
}
END_TEST

START_TEST(expressions_cuda) {
  char *cu = ok(expr_src, "cuda");
  HAS(cu, "  ul[0] = (unsigned long long)a;\n");
  HAS(cu, "  l[1] = -9223372036854775807LL - 1LL;\n");
  HAS(cu, "  o[11] = u > (unsigned int)a;\n");
  HAS(cu, "signed char c)");
  HAS(cu, "long long *l, unsigned long long *ul");
}
END_TEST

/* Same input, same bytes (the header names the file, and every snippet has its own). */
START_TEST(deterministic) {
  char *a = ok(clash_src, "cl"), *b = ok(clash_src, "cl");
  ck_assert_str_eq(strchr(a, '\n'), strchr(b, '\n'));
  a = ok(expr_src, "cuda");
  b = ok(expr_src, "cuda");
  ck_assert_str_eq(strchr(a, '\n'), strchr(b, '\n'));
}
END_TEST

/* ---------------------------------------------------------------- statements */

static const char *switch_src = "kernel void sw(int *o, int a) {\n"
                                "  switch (a) {\n"
                                "  case 0:\n"
                                "    int x = 5;\n"
                                "    o[0] = x;\n"
                                "    break;\n"
                                "  case 1: {\n"
                                "    int y = 2;\n"
                                "    o[0] = y;\n"
                                "    break;\n"
                                "  }\n"
                                "  default:\n"
                                "    o[0] = -1;\n"
                                "  }\n"
                                "  int i = 0;\n"
                                "  do i++; while (i < a);\n"
                                "  if (a) if (i) o[1] = 1; else o[1] = 2;\n"
                                "  if (a) { if (i) o[2] = 1; } else o[2] = 2;\n"
                                "}\n";

START_TEST(statements) {
  char *cl = ok(switch_src, "cl"), *cu = ok(switch_src, "cuda");
  HAS(cl, "  case 0:;\n    int x = 5;\n");
  /* C++ forbids jumping past an initialization: the declaration loses its initializer. */
  HAS(cu, "    int x;\n    x = 5;\n");
  HAS(cl, "  case 1: {\n    int y = 2;\n    o[0] = y;\n    break;\n  }\n");
  HAS(cl, "  do {\n    i++;\n  } while (i < a);\n");
  /* An else belongs to the if it belonged to in the source. */
  HAS(cl, "  if (a)\n    if (i)\n      o[1] = 1;\n    else\n      o[1] = 2;\n");
  HAS(cl, "  if (a) {\n    if (i)\n      o[2] = 1;\n  } else\n    o[2] = 2;\n");
}
END_TEST

/* ---------------------------------------------------------------- memory, builtins */

static const char *shared_src = "shared float tile[64];\n"
                                "static float sum2(int i) { return tile[i] + tile[i + 1]; }\n"
                                "static void bump(void) {\n"
                                "  shared int count;\n"
                                "  atomicAdd(&count, 1);\n"
                                "}\n"
                                "kernel void sh(float *out, float *dyn_out) {\n"
                                "  extern shared float dyn[];\n"
                                "  int t = threadIdx.x;\n"
                                "  tile[t] = (float)t;\n"
                                "  dyn[t] = 1.0f;\n"
                                "  __syncthreads();\n"
                                "  bump();\n"
                                "  out[t] = sum2(t);\n"
                                "  dyn_out[t] = dyn[t];\n"
                                "}\n";

START_TEST(shared_opencl) {
  char *cl = ok(shared_src, "cl");
  HAS(cl, "static float sum2(int i, __local float *tile) {");
  HAS(cl, "static void bump(__local int *count) {");
  HAS(cl, "  atomic_add(count, 1);\n"); /* &(*count) */
  HAS(cl, "__kernel void sh(__global float *out, __global float *dyn_out, __local float *dyn) {");
  HAS(cl, "  __local float tile[64];\n");
  HAS(cl, "  __local int count;\n");
  HAS(cl, "  bump(&count);\n");
  HAS(cl, "  out[t] = sum2(t, tile);\n");
  HAS(cl, "dynamic shared memory takes it as one extra __local");
}
END_TEST

START_TEST(shared_cuda) {
  char *cu = ok(shared_src, "cuda");
  HAS(cu, "__shared__ float tile[64];\n");
  HAS(cu, "__shared__ int count;\n");
  HAS(cu, "\nextern __shared__ float dyn[];\n"); /* file scope: one entity for all kernels */
  HAS(cu, "static __device__ void bump(void) {");
  HAS(cu, "  atomicAdd(&count, 1);\n");
}
END_TEST

static const char *builtin_src =
    "kernel void bi(float *f, double *d, long *l, unsigned long *ul, int *i, int n) {\n"
    "  atomicAdd(&f[0], 1.5f);\n"
    "  atomicMax(&l[0], (long)n);\n"
    "  atomicAdd(&ul[0], 2UL);\n"
    "  i[0] = abs(n);\n"
    "  i[1] = min(n, 3);\n"
    "  f[1] = sqrtf(f[2]) + fminf(f[3], 1.0f);\n"
    "  d[0] = sqrt(d[1]);\n"
    "  printf(\"%d %f\\n\", n, f[0]);\n"
    "}\n";

START_TEST(builtins) {
  char *cl = ok(builtin_src, "cl"), *cu = ok(builtin_src, "cuda");
  HAS(cl, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
  HAS(cl, "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n");
  HAS(cl, "static float kcc_atomic_add_f32_global(volatile __global float *p, float v) {");
  HAS(cl, "  kcc_atomic_add_f32_global(&f[0], 1.5f);\n");
  HAS(cl, "  atom_max(&l[0], (long)n);\n");
  HAS(cl, "  atom_add(&ul[0], 2UL);\n");
  HAS(cl, "  i[0] = (int)abs(n);\n"); /* OpenCL's abs returns unsigned */
  HAS(cl, "  i[1] = min(n, 3);\n");
  HAS(cl, "  f[1] = sqrt(f[2]) + fmin(f[3], 1.0f);\n");
  /* OpenCL printf takes the float itself: no double just for printing. */
  HAS(cl, "  printf(\"%d %f\\n\", n, f[0]);\n");
  HAS(cu, "  atomicAdd(&f[0], 1.5f);\n");
  HAS(cu, "  atomicMax(&l[0], (long long)n);\n");
  HAS(cu, "  i[0] = abs(n);\n");
  HAS(cu, "  f[1] = sqrtf(f[2]) + fminf(f[3], 1.0f);\n");
  HAS(cu, "  printf(\"%d %f\\n\", n, (double)f[0]);\n");
  const char *nof64 = "kernel void p(float *f) { printf(\"%f\\n\", f[0]); }\n";
  HASNT(ok(nof64, "cl"), "cl_khr_fp64");
}
END_TEST

START_TEST(float_options) {
  const char *src = "kernel void f(float *o, float a, float b) {\n"
                    "  o[0] = a * b + o[1];\n"
                    "  o[2] = expf(a) + sqrtf(b);\n"
                    "}\n";
  char *cl = ok(src, "cl"), *cu = ok(src, "cuda");
  HAS(cl, "  o[0] = a * b + o[1];\n");
  HAS(cl, "  o[2] = exp(a) + sqrt(b);\n");
  HASNT(cl, "FP_CONTRACT");
  HAS(cu, "  o[2] = expf(a) + sqrtf(b);\n");
  /* -ffp-contract=off: no FMA may appear where the source has none. */
  HAS(ok(src, "cl -ffp-contract=off"), "#pragma OPENCL FP_CONTRACT OFF\n");
  HAS(ok(src, "cuda -ffp-contract=off"), "  o[0] = __fmul_rn(a, b) + o[1];\n");
  /* -ffast-math: the device's fast versions. */
  HAS(ok(src, "cl -ffast-math"), "  o[2] = native_exp(a) + native_sqrt(b);\n");
  HAS(ok(src, "cuda -ffast-math"), "  o[2] = __expf(a) + sqrtf(b);\n");
}
END_TEST

START_TEST(opencl_param_rules) {
  char *out, *err;
  const char *ptr_struct = "struct B { float *data; int n; };\n"
                           "kernel void k(struct B b) { b.data[0] = (float)b.n; }\n";
  ck_assert_int_eq(emit(ptr_struct, "cl", &out, &err), 1);
  HAS(err, ":2:");
  HAS(err, "error: kernel parameter 'b' is a struct holding a pointer, which OpenCL C does not "
           "allow");
  /* CUDA takes it. */
  HAS(ok(ptr_struct, "cuda"), "extern \"C\" __global__ void k(struct B b) {");
  /* bool is no OpenCL kernel parameter type: it travels as one byte. */
  const char *flag = "kernel void k(_Bool on, int *o) { if (on) o[0] = 1; }\n";
  HAS(ok(flag, "cl"), "__kernel void k(uchar on, __global int *o) {");
  HAS(ok(flag, "cuda"), "extern \"C\" __global__ void k(bool on, int *o) {");
}
END_TEST

START_TEST(header) {
  char *cl = ok(clash_src, "cl"), *cu = ok(clash_src, "cuda");
  HAS(cl, "/* t");
  HAS(cl, ".k: OpenCL C 1.2 from kcc " KCC_VERSION ".\n * generated by kcc; do not edit.");
  HAS(cu, ".k: CUDA C++ from kcc " KCC_VERSION ".\n * generated by kcc; do not edit.");
  HASNT(cl, tu_tmpdir()); /* the base name only: outputs do not depend on where files are */
}
END_TEST

/* OpenCL C rejects a float as the condition of ?: (C accepts it); if/!/&& take floats. */
START_TEST(float_condition) {
  const char *src = "kernel void k(float *f, int *o) { o[0] = f[0] ? 1 : 0; o[1] = !f[1]; }\n";
  char *cl = ok(src, "cl"), *cu = ok(src, "cuda");
  HAS(cl, "o[0] = (f[0] != 0) ? 1 : 0;");
  HAS(cl, "o[1] = !f[1];");
  HAS(cu, "o[0] = (f[0] != 0) ? 1 : 0;");
}
END_TEST

/* Writes `text` as tmpdir/name and puts it through its consumer (tests/consume.sh). */
static void consume(const char *name, const char *text) {
  char *path = tu_write(name, text), *cmd, *err = NULL;
  if (asprintf(&cmd, "sh %s/consume.sh %s", tu_srcdir(), path) < 0) abort();
  int st = tu_sh(cmd, NULL, &err);
  ck_assert_msg(st == 0, "%s rejected:\n%.3000s", name, err);
  free(cmd);
  free(err);
}

/* NaN and infinity literals are constant expressions (they may initialize `constant`
 * tables): as_float()/__int_as_float() used to make clang and nvcc reject the output. The
 * payload, the quiet bit and the sign survive. */
START_TEST(nan_inf_constants) {
  const char *src =
      "#include <math.h>\n"
      "constant float t[6] = {NAN, -NAN, INFINITY, -INFINITY, __builtin_nanf(\"0x123\"),\n"
      "                       -__builtin_nanf(\"0x5\")};\n"
      "constant double d[4] = {NAN, -HUGE_VAL, __builtin_nan(\"0x123456789\"),\n"
      "                        -__builtin_nans(\"0x7\")};\n"
      "kernel void k(float *x, double *y, int i) {\n"
      "  x[0] = t[i] + (x[1] > 0 ? -NAN : INFINITY);\n"
      "  y[0] = d[i];\n"
      "}\n";
  char *cl = ok(src, "cl"), *cu = ok(src, "cuda");
  HAS(cl, "__constant float t[6] = {__builtin_nanf(\"0x0\"), -__builtin_nanf(\"0x0\"), INFINITY, "
          "-INFINITY,\n    __builtin_nanf(\"0x123\"), -__builtin_nanf(\"0x5\")};");
  HAS(cl, "__constant double d[4] = {__builtin_nan(\"0x0\"), -(double)INFINITY, "
          "__builtin_nan(\"0x123456789\"),\n    -__builtin_nans(\"0x7\")};");
  HAS(cl, "x[0] = t[i] + (x[1] > 0.0f ? -__builtin_nanf(\"0x0\") : INFINITY);");
  HAS(cu, "__constant__ float t[6] = {__builtin_nanf(\"0x0\"), -__builtin_nanf(\"0x0\"), "
          "__builtin_inff(),");
  HAS(cu, "-__builtin_inf(), __builtin_nan(\"0x123456789\"),");
  HAS(cu, "-__builtin_nans(\"0x7\")};");
  HASNT(cl, "as_float");
  HASNT(cu, "_as_");
  consume("nan_inf.cl", cl);
  consume("nan_inf.cu", cu);
}
END_TEST

/* 300 ?: nested in the middle operand: no parentheses around each (clang stops at 256). */
START_TEST(nested_cond_middle) {
  char *src = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&src, &len);
  fputs("kernel void k(int *x) {\n  int c = x[0];\n  x[1] = ", f);
  for (int i = 0; i < 300; i++) fputs("c ? ", f);
  fputs("1", f);
  for (int i = 0; i < 300; i++) fputs(" : 2", f);
  fputs(";\n}\n", f);
  fclose(f);
  char *cl = ok(src, "cl"), *cu = ok(src, "cuda");
  HAS(cl, "x[1] = c ? c ? c ? c ?");
  HASNT(cl, "(c ?");
  consume("cond.cl", cl);
  consume("cond.cu", cu);
  free(src);
}
END_TEST

/* Names outside [A-Za-z0-9_] (C11 UTF-8 letters, clang's `$`) of device functions, locals,
 * shared variables and fields are spelled in ASCII; nvcc refuses `fé` as a device function
 * name. (Kernels and constant tables keep their names and must be plain: tests/bad/name_*.) */
START_TEST(non_ascii_names) {
  const char *src =
      "struct P { int v\xc3\xa9; };\n"
      "static int f\xc3\xa9(struct P p, int a$) { int x\xc3\xa9 = a$; return x\xc3\xa9 "
      "+ p.v\xc3\xa9; }\n"
      "kernel void k(int *x, struct P p) {\n"
      "  shared int sh\xc3\xa9[4];\n"
      "  sh\xc3\xa9[threadIdx.x & 3] = x[0];\n"
      "  __syncthreads();\n"
      "  x[1] = f\xc3\xa9(p, sh\xc3\xa9[0]);\n"
      "}\n";
  char *cl = ok(src, "cl"), *cu = ok(src, "cuda");
  HAS(cl, "static int f_C3_A9(struct P p, int a_24) {");
  HAS(cl, "int x_C3_A9 = a_24;");
  HAS(cl, "return x_C3_A9 + p.v_C3_A9;");
  HAS(cl, "__local int sh_C3_A9[4];");
  HAS(cu, "static __device__ int f_C3_A9(struct P p, int a_24) {");
  consume("names.cl", cl);
  consume("names.cu", cu);
}
END_TEST

int main(void) {
  Suite *s = suite_create("csource");
  TCase *tc = tcase_create("csource");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, rename_opencl);
  tcase_add_test(tc, rename_cuda);
  tcase_add_test(tc, kernel_name_reserved);
  tcase_add_test(tc, expressions_opencl);
  tcase_add_test(tc, expressions_cuda);
  tcase_add_test(tc, deterministic);
  tcase_add_test(tc, statements);
  tcase_add_test(tc, shared_opencl);
  tcase_add_test(tc, shared_cuda);
  tcase_add_test(tc, builtins);
  tcase_add_test(tc, float_options);
  tcase_add_test(tc, opencl_param_rules);
  tcase_add_test(tc, header);
  tcase_add_test(tc, float_condition);
  tcase_add_test(tc, nan_inf_constants);
  tcase_add_test(tc, nested_cond_middle);
  tcase_add_test(tc, non_ascii_names);
  suite_add_tcase(s, tc);
  return tu_main(s);
}
