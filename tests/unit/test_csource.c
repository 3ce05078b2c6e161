/* test_csource.c — the OpenCL C and CUDA C back ends (compiler/csource/csource.c, opencl_c.c,
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
  /* A built-in function's name, written or of a built-in family, cannot name an OpenCL C
     kernel either (PoCL then finds no such kernel); nor an extern "C" CUDA one. */
  src = "kernel void normalize(float *x) { x[0] = 1.0f; }\nkernel void norm3d(float *x) { x[0] = "
        "2.0f; }\n";
  ck_assert_int_eq(emit(src, "cl", &out, &err), 1);
  HAS(err, "error: kernel name 'normalize' is reserved in OpenCL C");
  static const char *const builtins[] = {"convert_int4_sat_rte", "atomic_inc", "vload_half4",
                                         "native_exp",           "as_uint2",   NULL};
  for (const char *const *b = builtins; *b; b++) {
    char s2[128], want[128];
    snprintf(s2, sizeof s2, "kernel void %s(float *x) { x[0] = 1.0f; }\n", *b);
    ck_assert_int_eq(emit(s2, "cl", &out, &err), 1);
    snprintf(want, sizeof want, "error: kernel name '%s' is reserved in OpenCL C", *b);
    HAS(err, want);
  }
  /* Names that only start like a family are the user's. */
  HAS(ok("kernel void convert_image(float *x) { x[0] = 1.0f; }\nkernel void atomic_counter(float "
         "*x) { x[0] = 1.0f; }\nkernel void half_sum(float *x) { x[0] = 1.0f; }\n",
         "cl"),
      "__kernel void half_sum(__global float *x)");
  ck_assert_int_eq(emit(src, "cuda", &out, &err), 1);
  HAS(err, "error: kernel name 'norm3d' is reserved in CUDA C++");
}
END_TEST

/* Names clang's OpenCL C takes as operators (vec_step, as_T, printf, to_global...) cannot
 * name an OpenCL C kernel; the C library's names (exit, time, select...) which nvcc's
 * implicit headers declare cannot name an extern "C" kernel, nor the runtime API's (cudaX).
 * Each is refused in that one form and kept in the other. */
START_TEST(kernel_name_reserved_forms) {
  static const char *const cl_only[] = {"vec_step",  "as_float",   "as_int4",
                                        "to_global", "to_private", NULL};
  static const char *const cu_only[] = {"exit",  "time",       "rand",    "getenv", "strlen",
                                        "qsort", "cudaMalloc", "isalpha", "sinf64", NULL};
  char src[160], want[160], *out, *err;
  for (const char *const *n = cl_only; *n; n++) {
    snprintf(src, sizeof src, "kernel void %s(float *x) { x[0] = 1.0f; }\n", *n);
    ck_assert_int_eq(emit(src, "cl", &out, &err), 1);
    snprintf(want, sizeof want, ":1:13: error: kernel name '%s' is reserved in OpenCL C", *n);
    HAS(err, want);
    snprintf(want, sizeof want, "extern \"C\" __global__ void %s(float *x)", *n);
    HAS(ok(src, "cuda"), want);
  }
  for (const char *const *n = cu_only; *n; n++) {
    snprintf(src, sizeof src, "kernel void %s(float *x) { x[0] = 1.0f; }\n", *n);
    ck_assert_int_eq(emit(src, "cuda", &out, &err), 1);
    snprintf(want, sizeof want, ":1:13: error: kernel name '%s' is reserved in CUDA C++", *n);
    HAS(err, want);
    snprintf(want, sizeof want, "__kernel void %s(__global float *x)", *n);
    HAS(ok(src, "cl"), want);
  }
  /* A device function of such a name is renamed in CUDA C, not refused. */
  HAS(ok("static float exit(float a) { return a; }\nkernel void k(float *x) { x[0] = "
         "exit(1.0f); }\n",
         "cuda"),
      "static __device__ float exit_(float a) {");
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
  HAS(cl, "  o[4] = - -a;\n");
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
  /* A union holding a pointer is refused alike; one without takes its bytes. */
  const char *ptr_union = "union U { float *data; long n; };\n"
                          "kernel void k(union U u, long *o) { o[0] = u.n; }\n";
  ck_assert_int_eq(emit(ptr_union, "cl", &out, &err), 1);
  HAS(err, ":2:");
  HAS(err, "error: kernel parameter 'u' is a union holding a pointer, which OpenCL C does not "
           "allow; pass the pointer as a parameter of its own\n");
  HAS(ok(ptr_union, "cuda"), "extern \"C\" __global__ void k(union U u, long long *o) {");
  const char *plain_union = "union F { float f; unsigned int u; };\n"
                            "kernel void k(union F x, unsigned int *o) { o[0] = x.u; }\n";
  HAS(ok(plain_union, "cl"), "__kernel void k(union F x, __global uint *o) {");
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

/* 300 negations in a row, which clang parses without a bracket: the output spells them with
 * gaps (- -x), not nested brackets past the consumers' depth limit (clang's is 256). */
START_TEST(deep_negation) {
  char src[1200] = "kernel void k(int *p, float *f) {\n  p[0] = ";
  for (int i = 0; i < 300; i++) strcat(src, "- ");
  strcat(src, "p[1];\n  f[0] = -(-1.5f) * -f[1];\n  p[2] = -(--p[3]);\n}\n");
  char *cl = ok(src, "cl"), *cu = ok(src, "cuda");
  HAS(cl, "p[0] = - - - - ");
  HAS(cl, "f[0] = - -1.5f * -f[1];");
  HAS(cl, "p[2] = - --p[3];");
  HASNT(cl, "-(");
  consume("deep_negation.cl", cl);
  consume("deep_negation.cu", cu);
}
END_TEST

/* #pragma STDC FP_CONTRACT OFF at the start of a block: that block's a * b + c is never fused
 * (CUDA C: __fmul_rn; OpenCL C: the pragma in the function; PTX: no fma), the rest may be. */
START_TEST(fp_contract_pragma) {
  const char *src = "kernel void k(float *o) {\n"
                    "  o[0] = o[1] * o[2] + o[3];\n"
                    "  {\n"
                    "#pragma STDC FP_CONTRACT OFF\n"
                    "    o[4] = o[5] * o[6] + o[7];\n"
                    "  }\n"
                    "  o[8] = o[9] * o[10] + o[11];\n"
                    "}\n";
  char *cl = ok(src, "cl"), *cu = ok(src, "cuda"), *ptx = ok(src, "ptx");
  HAS(cl, "__kernel void k(__global float *o) {\n#pragma OPENCL FP_CONTRACT OFF\n");
  HAS(cu, "  o[0] = o[1] * o[2] + o[3];\n");
  HAS(cu, "    o[4] = __fmul_rn(o[5], o[6]) + o[7];\n");
  HAS(cu, "  o[8] = o[9] * o[10] + o[11];\n");
  int fma = 0;
  for (const char *p = ptx; (p = strstr(p, "fma.rn.f32")); p++) fma++;
  ck_assert_int_eq(fma, 2);
  consume("fp_contract.cl", cl);
  consume("fp_contract.cu", cu);
  /* At file scope it holds for the rest of the file; DEFAULT gives -ffp-contract's back. */
  src = "#pragma STDC FP_CONTRACT OFF\n"
        "kernel void a(float *o) { o[0] = o[1] * o[2] + o[3]; }\n"
        "#pragma STDC FP_CONTRACT DEFAULT\n"
        "kernel void b(float *o) { o[0] = o[1] * o[2] + o[3]; }\n";
  cu = ok(src, "cuda");
  HAS(cu, "void a(float *o) {\n  o[0] = __fmul_rn(o[1], o[2]) + o[3];");
  HAS(cu, "void b(float *o) {\n  o[0] = o[1] * o[2] + o[3];");
}
END_TEST

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

/* ---------------------------------------------------------------- vectors (KIR built here) */

/* Vector KIR is built by hand, so that the back ends are tested whatever the front ends
 * lower vectors to. */
static KLoc at = {"v.k", 1, 1};

static KType *sc(KTypeKind k) {
  return kir_type_scalar(k);
}
static KType *vt(KTypeKind k, int n) {
  return kir_type_vec(sc(k), n);
}
static KExpr *ev(KVar *v) {
  KExpr *e = kir_expr(KE_VAR, v->type, at);
  e->var = v;
  return e;
}
static KExpr *ef(float f) {
  KExpr *e = kir_expr(KE_FCONST, sc(KT_F32), at);
  e->fval = f;
  return e;
}
static KExpr *ei(KType *t, int64_t v) {
  return kir_int(t, (uint64_t)v, at);
}
static KExpr *ebin(KOp op, KType *t, KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_BINARY, t, at);
  e->op = op;
  e->a = a;
  e->b = b;
  return e;
}
static KExpr *eun(KOp op, KExpr *a) {
  KExpr *e = kir_expr(KE_UNARY, a->type, at);
  e->op = op;
  e->a = a;
  return e;
}
static KExpr *eassign(KOp op, KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_ASSIGN, a->type, at);
  e->op = op;
  e->a = a;
  e->b = b;
  if (op != KB_NONE) e->optype = a->type;
  return e;
}
static KExpr *eincdec(KOp op, KExpr *a) {
  KExpr *e = kir_expr(KE_INCDEC, a->type, at);
  e->op = op;
  e->a = a;
  return e;
}
/* a.SEL with SEL in OpenCL's .s digits: "01" is .xy */
static KExpr *eswz(KExpr *a, const char *sel) {
  int n = (int)strlen(sel);
  KExpr *e = kir_expr(KE_SWIZZLE, n == 1 ? a->type->base : kir_type_vec(a->type->base, n), at);
  e->a = a;
  e->nswz = n;
  for (int i = 0; i < n; i++) e->swz[i] = (uint8_t)strtol((char[]){sel[i], 0}, NULL, 16);
  return e;
}
static KExpr *eargs(KExprKind k, KType *t, int n, KExpr **args) {
  KExpr *e = kir_expr(k, t, at);
  e->nargs = n;
  e->args = kir_alloc(sizeof(KExpr *) * n);
  memcpy(e->args, args, sizeof(KExpr *) * n);
  return e;
}
#define VECLIT(t, ...)                                                                             \
  eargs(KE_VECLIT, t, sizeof((KExpr *[]){__VA_ARGS__}) / sizeof(KExpr *), (KExpr *[]){__VA_ARGS__})
#define INITLIST(t, ...)                                                                           \
  eargs(KE_INITLIST, t, sizeof((KExpr *[]){__VA_ARGS__}) / sizeof(KExpr *),                        \
        (KExpr *[]){__VA_ARGS__})
#define BI(b, t, ...)                                                                              \
  bi_(b, eargs(KE_BUILTIN, t, sizeof((KExpr *[]){__VA_ARGS__}) / sizeof(KExpr *),                  \
               (KExpr *[]){__VA_ARGS__}))
static KExpr *bi_(KBuiltin b, KExpr *e) {
  e->builtin = b;
  return e;
}
static KExpr *ebitcast(KType *t, KExpr *a) {
  KExpr *e = kir_expr(KE_BITCAST, t, at);
  e->a = a;
  return e;
}
static KExpr *eindex(KExpr *p, int i) {
  KExpr *e = kir_expr(KE_INDEX, p->type->base, at);
  e->a = p;
  e->b = ei(sc(KT_I32), i);
  return e;
}
static KStmt *sexpr(KExpr *e) {
  KStmt *s = kir_stmt(KS_EXPR, at);
  s->expr = e;
  return s;
}
static KStmt *sdecl(KVar *v, KExpr *init) {
  KStmt *s = kir_stmt(KS_DECL, at);
  s->var = v;
  s->init = init;
  return s;
}

/* One kernel with every vector construct the C back ends print. */
static KModule *vector_module(void) {
  KModule *m = kir_module("v.k");
  KType *f4 = vt(KT_F32, 4), *f2 = vt(KT_F32, 2), *f3 = vt(KT_F32, 3), *i4 = vt(KT_I32, 4);
  KType *c4 = vt(KT_I8, 4), *u16 = vt(KT_U8, 16), *d2 = vt(KT_F64, 2), *l2 = vt(KT_I64, 2);
  KFunc *f = kir_alloc(sizeof *f);
  f->name = "vk";
  f->loc = at;
  f->is_kernel = true;
  f->ret = kir_type_void();
  f->reqd_block[0] = 64, f->reqd_block[1] = 2, f->reqd_block[2] = 1;
  KVar *out = kir_var(m, "out", kir_type_ptr(f4, KAS_GLOBAL, 0), KV_PARAM, at);
  KVar *io = kir_var(m, "io", kir_type_ptr(i4, KAS_GLOBAL, 0), KV_PARAM, at);
  KVar *fp = kir_var(m, "fp", kir_type_ptr(sc(KT_F32), KAS_GLOBAL, 0), KV_PARAM, at);
  KVar *pv = kir_var(m, "pv", f3, KV_PARAM, at);
  KVar *tmp = kir_var(m, "tmp", kir_type_ptr(f4, KAS_SHARED, 0), KV_PARAM, at);
  KVar *cp = kir_var(m, "cp", kir_type_ptr(c4, KAS_GLOBAL, 0), KV_PARAM, at);
  KVar *bytes = kir_var(m, "bytes", kir_type_ptr(u16, KAS_GLOBAL, 0), KV_PARAM, at);
  KVar *dp = kir_var(m, "dp", kir_type_ptr(d2, KAS_GLOBAL, 0), KV_PARAM, at);
  KVar *params[] = {out, io, fp, pv, tmp, cp, bytes, dp};
  f->nparams = 8;
  f->params = kir_alloc(sizeof params);
  memcpy(f->params, params, sizeof params);

  KVar *tab = kir_var(m, "tab", kir_type_array(f4, 2), KV_CONSTANT, at);
  tab->init = INITLIST(tab->type, INITLIST(f4, ef(1), ef(2), ef(3), ef(4)), NULL);
  klist_push(&m->globals, tab);

  KVar *a = kir_var(m, "a", f4, KV_LOCAL, at), *c2 = kir_var(m, "c2", f2, KV_LOCAL, at);
  KVar *mk = kir_var(m, "mk", i4, KV_LOCAL, at), *ch = kir_var(m, "ch", c4, KV_LOCAL, at);
  KVar *b16 = kir_var(m, "b16", u16, KV_LOCAL, at);
  KExpr *tabv = kir_expr(KE_GVAR, tab->type, at);
  tabv->var = tab;
  KStmt *body = kir_stmt(KS_BLOCK, at);
  KStmt *ss[] = {
      sdecl(a, eindex(ev(out), 0)),
      sdecl(c2, eswz(ev(a), "01")),
      sexpr(eassign(KB_NONE, eindex(ev(out), 1), VECLIT(f4, ev(c2), eswz(ev(a), "2"), ef(1)))),
      sexpr(eassign(KB_NONE, eswz(ev(a), "10"), ev(c2))),
      sexpr(eassign(KB_ADD, eswz(eindex(ev(out), 2), "23"), ev(c2))),
      sexpr(eassign(KB_NONE, eswz(ev(a), "0"), ef(5))),
      sexpr(eassign(KB_NONE, ev(a),
                    ebin(KB_ADD, f4, ebin(KB_MUL, f4, ev(a), kir_cast(ef(2), f4)),
                         eindex(kir_cast(tabv, kir_type_ptr(f4, KAS_CONSTANT, 0)), 0)))),
      sexpr(eassign(KB_MUL, ev(a), kir_cast(ef(0.5f), f4))),
      sdecl(mk, ebin(KB_LT, i4, ev(a), VECLIT(f4, ev(pv), ef(0)))),
      sexpr(eassign(KB_NONE, eindex(ev(io), 0), kir_cast(ev(a), i4))),
      sexpr(eassign(KB_NONE, eindex(ev(io), 1), ebitcast(i4, ev(a)))),
      sexpr(eassign(KB_NONE, eindex(ev(out), 3), BI(BI_SQRT, f4, ev(a)))),
      sexpr(eassign(KB_NONE, eindex(ev(io), 2), BI(BI_ISNAN, i4, ev(a)))),
      sexpr(eassign(KB_NONE, eindex(ev(out), 4),
                    BI(BI_SELECT, f4, ev(a), eindex(ev(out), 5), ev(mk)))),
      sexpr(eassign(KB_NONE, eindex(ev(io), 3), BI(BI_CONVERT_SAT, i4, ev(a)))),
      sexpr(eassign(KB_NONE, eindex(ev(out), 6), BI(BI_VLOAD, f4, ei(sc(KT_U64), 1), ev(fp)))),
      sexpr(BI(BI_VSTORE, kir_type_void(), ev(a), ei(sc(KT_U64), 2), ev(fp))),
      sexpr(eassign(KB_NONE, eindex(ev(io), 4),
                    ebin(KB_ADD, i4, BI(BI_POPCOUNT, i4, ev(mk)),
                         BI(BI_MUL_HI, i4, BI(BI_CLZ, i4, ev(mk)), eun(KU_NEG, ev(mk)))))),
      sexpr(eassign(KB_NONE, eindex(ev(io), 5),
                    ebin(KB_SHL, i4, eun(KU_NOT, ev(mk)), kir_cast(ei(sc(KT_I32), 2), i4)))),
      sexpr(eassign(KB_NONE, eindex(ev(tmp), 0), ev(a))),
      sexpr(eincdec(KU_POSTINC, ev(a))),
      sexpr(eincdec(KU_PREDEC, eswz(ev(a), "13"))),
      sdecl(ch, BI(BI_CONVERT_SAT, c4, ev(mk))),
      sexpr(eassign(KB_NONE, eindex(ev(cp), 0), BI(BI_ABS, c4, ev(ch)))),
      sdecl(b16, ebitcast(u16, ev(a))),
      sexpr(eassign(KB_NONE, eswz(eindex(ev(bytes), 0), "fedcba9876543210"), ev(b16))),
      sexpr(eassign(KB_NONE, eswz(ev(b16), "8"), BI(BI_POPCOUNT, sc(KT_U8), eswz(ev(b16), "f")))),
      sexpr(eassign(KB_NONE, eindex(ev(dp), 0), kir_cast(BI(BI_ISINF, l2, eindex(ev(dp), 1)), d2))),
      sexpr(eassign(KB_NONE, eindex(ev(dp), 2), BI(BI_RINT, d2, eindex(ev(dp), 3)))),
      sexpr(
          eassign(KB_NONE, eindex(ev(io), 6),
                  ebitcast(i4, eswz(eswz(VECLIT(f4, ef(1), ef(2), ef(3), ef(4)), "321"), "0120")))),
  };
  for (size_t i = 0; i < sizeof ss / sizeof ss[0]; i++) klist_push(&body->list, ss[i]);
  f->body = body;
  klist_push(&m->funcs, f);
  return m;
}

static char *emit_module(KModule *m, bool cuda, bool contract) {
  KOptions o;
  kcc_options_default(&o);
  o.fp_contract = contract;
  KBuf b = {0};
  bool okk = cuda ? emit_cuda_c(m, &o, &b) : emit_opencl_c(m, &o, &b);
  ck_assert_msg(okk, "emit failed:\n%s", b.data ? b.data : "");
  char *s = kir_strdup(b.data);
  kbuf_free(&b);
  return s;
}

START_TEST(vectors_opencl) {
  char *cl = emit_module(vector_module(), false, true);
  consume("vectors.cl", cl);
  HAS(cl, "__constant float4 tab[2] = {(float4)(1.0f, 2.0f, 3.0f, 4.0f)};\n");
  HAS(cl, "__kernel __attribute__((reqd_work_group_size(64, 2, 1))) void vk(");
  HAS(cl, "float3 pv, __local float4 *tmp,");
  HAS(cl, "  float2 c2 = a.xy;\n");
  HAS(cl, "  out[1] = (float4)(c2, a.z, 1.0f);\n");
  HAS(cl, "  a.yx = c2;\n");
  HAS(cl, "  out[2].zw += c2;\n");
  HAS(cl, "  a.x = 5.0f;\n");
  HAS(cl, "  a = a * 2.0f + tab[0];\n");
  HAS(cl, "  a *= 0.5f;\n");
  HAS(cl, "  io[0] = convert_int4(a);\n");
  HAS(cl, "  io[1] = as_int4(a);\n");
  HAS(cl, "  out[3] = sqrt(a);\n");
  HAS(cl, "  io[2] = isnan(a);\n");
  HAS(cl, "  out[4] = select(a, out[5], mk);\n");
  HAS(cl, "  io[3] = convert_int4_sat(a);\n");
  HAS(cl, "  out[6] = vload4(1UL, fp);\n");
  HAS(cl, "  vstore4(a, 2UL, fp);\n");
  HAS(cl, "  io[4] = popcount(mk) + mul_hi(clz(mk), -mk);\n");
  HAS(cl, "  io[5] = ~mk << 2;\n");
  HAS(cl, "  a += 1.0f;\n"); /* no ++ on float vectors in OpenCL C */
  HAS(cl, "  a.yw -= 1.0f;\n");
  HAS(cl, "  cp[0] = as_char4(abs(ch));\n");
  HAS(cl, "  bytes[0].sfedcba9876543210 = b16;\n");
  /* 8- and 16-bit operands zero-extended (PoCL 3.1, docs/driver-bugs.md 30) */
  HAS(cl, "  b16.s8 = ((uchar)(popcount((uint)(uchar)(b16.sf))));\n");
  HAS(cl, "  dp[0] = convert_double2(isinf(dp[1]));\n");
  HAS(cl, "  dp[2] = kcc_rint_double2(dp[3]);\n");
  HAS(cl, "  io[6] = as_int4(((float4)(1.0f, 2.0f, 3.0f, 4.0f)).wzyw);\n");
}
END_TEST

START_TEST(vectors_cuda) {
  char *cu = emit_module(vector_module(), true, true);
  consume("vectors.cu", cu);
  HAS(cu, "typedef kcc_vec<float, 4> kcc_float4;\n");
  HAS(cu, "typedef kcc_vec<float, 3> kcc_float3;\n");
  HAS(cu, "__constant__ kcc_float4 tab[2] = {{{1.0f, 2.0f, 3.0f, 4.0f}}};\n");
  HAS(cu, "extern \"C\" __global__ __launch_bounds__(128) void vk(");
  HAS(cu, "kcc_float3 pv, unsigned int tmp_arg,");
  HAS(cu, "  kcc_float4 *tmp = (kcc_float4 *)(kcc_dyn + tmp_arg);\n");
  HAS(cu, "extern __shared__ __align__(16) unsigned char kcc_dyn[];\n");
  HAS(cu, "  kcc_float2 c2 = kcc_swz<0, 1>(a);\n");
  HAS(cu, "  out[1] = kcc_make<kcc_float4>(c2, a.s[2], 1.0f);\n");
  HAS(cu, "  kcc_lswz<1, 0>(a) = c2;\n");
  HAS(cu, "  kcc_lswz<2, 3>(out[2]) += c2;\n");
  HAS(cu, "  a.s[0] = 5.0f;\n");
  HAS(cu, "  a = a * 2.0f + tab[0];\n");
  HAS(cu, "  io[0] = kcc_convert<kcc_int4>(a);\n");
  HAS(cu, "  io[1] = kcc_as<kcc_int4>(a);\n");
  HAS(cu, "  out[3] = kcc_sqrt_float4(a);\n");
  HAS(cu, "    r.s[i] = sqrtf(a.s[i]);\n");
  HAS(cu, "    r.s[i] = isnan(a.s[i]) ? -1 : 0;\n");
  HAS(cu, "    r.s[i] = c.s[i] < 0 ? b.s[i] : a.s[i];\n");
  HAS(cu, "  out[6] = kcc_vload<kcc_float4>(1ULL, fp);\n");
  HAS(cu, "  kcc_vstore(a, 2ULL, fp);\n");
  HAS(cu, "  --kcc_lswz<1, 3>(a);\n");
  HAS(cu, "  kcc_lswz<15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0>(bytes[0]) = b16;\n");
  HAS(cu, "  b16.s[8] = (unsigned char)__popc(b16.s[15]);\n");
  HAS(cu, "  return __float2int_rz(a);\n");
  HAS(cu, "  return a < -128 ? -128 : a > 127 ? 127 : (signed char)a;\n");
  HAS(cu,
      "  io[6] = kcc_as<kcc_int4>(kcc_swz<3, 2, 1, 3>(kcc_float4{{1.0f, 2.0f, 3.0f, 4.0f}}));\n");
  /* -ffp-contract=off: vector products go through __fmul_rn as scalar ones do. */
  cu = emit_module(vector_module(), true, false);
  HAS(cu, "__device__ inline float kcc_mul(float x, float y) { return __fmul_rn(x, y); }\n");
  consume("vectors_rn.cu", cu);
  char *cl = emit_module(vector_module(), false, false);
  HAS(cl, "#pragma OPENCL FP_CONTRACT OFF\n");
}
END_TEST

int main(void) {
  Suite *s = suite_create("csource");
  TCase *tc = tcase_create("csource");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, rename_opencl);
  tcase_add_test(tc, rename_cuda);
  tcase_add_test(tc, kernel_name_reserved);
  tcase_add_test(tc, kernel_name_reserved_forms);
  tcase_add_test(tc, deep_negation);
  tcase_add_test(tc, fp_contract_pragma);
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
  tcase_add_test(tc, vectors_opencl);
  tcase_add_test(tc, vectors_cuda);
  suite_add_tcase(s, tc);
  return tu_main(s);
}
