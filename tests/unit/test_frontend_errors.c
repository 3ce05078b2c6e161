/* test_frontend_errors.c — every construct the kcc dialect rejects, with the exact
 * diagnostic (file:line:col, message, quoted line, caret) that the user sees. The first error
 * is compared; clang's own warnings may come before it. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Case {
  const char *name, *src, *want;
} Case;

static const Case cases[] = {
    {"aligned",
     "struct S { char c; int a __attribute__((aligned(16))); };\n"
     "kernel void k(struct S *s) { s->a = 1; }\n",
     "t.k:1:8: error: struct layout attributes (packed, aligned fields) are not supported in kcc "
     "kernels\n"
     "struct S { char c; int a __attribute__((aligned(16))); };\n"
     "       ^\n"},
    {"atomic_type", "kernel void k(int *p) { _Atomic int x = 0; p[0] = x; }\n",
     "t.k:1:37: error: '_Atomic' is not supported in kcc kernels; use the atomic builtins\n"
     "kernel void k(int *p) { _Atomic int x = 0; p[0] = x; }\n"
     "                                    ^\n"},
    {"bitfield",
     "struct Flags { unsigned a : 1; unsigned b : 3; };\n"
     "kernel void k(struct Flags *f) { }\n",
     "t.k:1:25: error: bit-fields are not supported in kcc kernels\n"
     "struct Flags { unsigned a : 1; unsigned b : 3; };\n"
     "                        ^\n"},
    {"builtin_call", "kernel void k(int *p) { p[0] = __builtin_popcount(p[1]); }\n",
     "t.k:1:32: error: call to '__builtin_popcount', which is neither a device function defined in "
     "this file nor a kcc builtin\n"
     "kernel void k(int *p) { p[0] = __builtin_popcount(p[1]); }\n"
     "                               ^\n"},
    {"call_fn_value",
     "static int f(void) { return 1; }\n"
     "kernel void k(long *p) { p[0] = (long)f; }\n",
     "t.k:2:39: error: function pointers are not supported in kcc kernels\n"
     "kernel void k(long *p) { p[0] = (long)f; }\n"
     "                                      ^\n"},
    {"case_range",
     "kernel void k(int *p, int n) {\n"
     "  switch (n) {\n"
     "  case 1 ... 3: p[0] = 1;\n"
     "  }\n"
     "}\n",
     "t.k:3:3: error: case ranges are not supported in kcc kernels\n"
     "  case 1 ... 3: p[0] = 1;\n"
     "  ^\n"},
    {"complex",
     "kernel void k(float *p) {\n"
     "  _Complex float z = p[0];\n"
     "  p[0] = 0;\n"
     "}\n",
     "t.k:2:18: error: complex types are not supported in kcc kernels\n"
     "  _Complex float z = p[0];\n"
     "                 ^\n"},
    {"compound_literal",
     "struct P { int a, b; };\n"
     "kernel void k(int *p) { p[0] = ((struct P){1, 2}).a; }\n",
     "t.k:2:33: error: compound literals are not supported in kcc kernels\n"
     "kernel void k(int *p) { p[0] = ((struct P){1, 2}).a; }\n"
     "                                ^\n"},
    {"constant_local",
     "kernel void k(int *p) {\n"
     "  constant int x = 1;\n"
     "  p[0] = x;\n"
     "}\n",
     "t.k:2:16: error: 'constant' variable 'x' must be declared at file scope\n"
     "  constant int x = 1;\n"
     "               ^\n"},
    {"constant_pointer",
     "constant int a = 1;\n"
     "constant const int *pa = &a;\n"
     "kernel void k(int *p) { p[0] = *pa; }\n",
     "t.k:2:26: error: 'constant' variables can only hold arithmetic values in kcc kernels\n"
     "constant const int *pa = &a;\n"
     "                         ^\n"},
    {"designated_nested",
     "struct P { int a; float c[3]; };\n"
     "kernel void k(int *p) {\n"
     "  struct P q = {.c[1] = 2};\n"
     "  p[0] = q.a;\n"
     "}\n",
     "t.k:3:17: error: nested designators are not supported in kcc kernels\n"
     "  struct P q = {.c[1] = 2};\n"
     "                ^\n"},
    {"extern_local",
     "kernel void k(int *p) {\n"
     "  extern int other;\n"
     "  p[0] = other;\n"
     "}\n",
     "t.k:2:14: error: global variable 'other' must be 'constant' or 'shared'\n"
     "  extern int other;\n"
     "             ^\n"},
    {"flexible_array",
     "struct S { int n; float data[]; };\n"
     "kernel void k(struct S *s) { s->n = 1; }\n",
     "t.k:1:25: error: flexible array members are not supported in kcc kernels\n"
     "struct S { int n; float data[]; };\n"
     "                        ^\n"},
    {"for_macro",
     "#define WHILE(c) for (; c;)\n"
     "kernel void k(int *p) {\n"
     "  WHILE(p[0]) p[0]--;\n"
     "}\n",
     "t.k:3:3: error: a 'for' loop with omitted clauses written inside a macro is not "
     "supported in kcc kernels\n"
     "  WHILE(p[0]) p[0]--;\n"
     "  ^\n"},
    {"fptr_field",
     "struct S { void (*f)(void); };\n"
     "kernel void k(struct S *s) { }\n",
     "t.k:1:19: error: function pointers are not supported in kcc kernels\n"
     "struct S { void (*f)(void); };\n"
     "                  ^\n"},
    {"fptr_param", "kernel void k(int *p, void (*cb)(int)) { p[0] = 1; }\n",
     "t.k:1:30: error: function pointers are not supported in kcc kernels\n"
     "kernel void k(int *p, void (*cb)(int)) { p[0] = 1; }\n"
     "                             ^\n"},
    {"fptr_typedef",
     "typedef int (*op)(int);\n"
     "static int apply(op f, int x) { return f(x); }\n"
     "kernel void k(int *p) { p[0] = 1; }\n",
     "t.k:2:21: error: function pointers are not supported in kcc kernels\n"
     "static int apply(op f, int x) { return f(x); }\n"
     "                    ^\n"},
    {"fptr_var",
     "static int f(int x) { return x; }\n"
     "kernel void k(int *p) {\n"
     "  int (*fp)(int) = f;\n"
     "  p[0] = fp(1);\n"
     "}\n",
     "t.k:3:9: error: function pointers are not supported in kcc kernels\n"
     "  int (*fp)(int) = f;\n"
     "        ^\n"},
    {"generic", "kernel void k(int *p) { p[0] = _Generic(p[0], int: 1, default: 2); }\n",
     "t.k:1:32: error: '_Generic' is not supported in kcc kernels\n"
     "kernel void k(int *p) { p[0] = _Generic(p[0], int: 1, default: 2); }\n"
     "                               ^\n"},
    {"global_init",
     "float scale = 2.0f;\n"
     "kernel void k(float *p) { p[0] = scale; }\n",
     "t.k:1:7: error: global variable 'scale' must be 'constant' or 'shared'\n"
     "float scale = 2.0f;\n"
     "      ^\n"},
    {"global_mutable",
     "int counter;\n"
     "kernel void k(int *p) { p[0] = counter; }\n",
     "t.k:1:5: error: global variable 'counter' must be 'constant' or 'shared'\n"
     "int counter;\n"
     "    ^\n"},
    {"global_ptr",
     "const float *lut = 0;\n"
     "kernel void k(float *p) { p[0] = 1; }\n",
     "t.k:1:14: error: global variable 'lut' must be 'constant' or 'shared'\n"
     "const float *lut = 0;\n"
     "             ^\n"},
    {"inline_asm",
     "kernel void k(int *p) {\n"
     "  __asm__ volatile(\"trap;\");\n"
     "}\n",
     "t.k:2:3: error: inline assembly is not supported in kcc kernels\n"
     "  __asm__ volatile(\"trap;\");\n"
     "  ^\n"},
    {"int128", "kernel void k(long *p) { __int128 x = p[0]; p[0] = x; }\n",
     "t.k:1:35: error: '__int128' is not supported in kcc kernels\n"
     "kernel void k(long *p) { __int128 x = p[0]; p[0] = x; }\n"
     "                                  ^\n"},
    {"kernel_call",
     "kernel void a(int *p) { p[0] = 1; }\n"
     "kernel void b(int *p) {\n"
     "  a(p);\n"
     "}\n",
     "t.k:3:3: error: kernel function 'a' cannot be called from device code\n"
     "  a(p);\n"
     "  ^\n"},
    {"kernel_call_device",
     "kernel void a(int *p) { p[0] = 1; }\n"
     "static void helper(int *p) { a(p); }\n"
     "kernel void b(int *p) { helper(p); }\n",
     "t.k:2:30: error: kernel function 'a' cannot be called from device code\n"
     "static void helper(int *p) { a(p); }\n"
     "                             ^\n"},
    {"label_address",
     "kernel void k(int *p) {\n"
     "l:\n"
     "  p[0] = 1;\n"
     "  void *a = &&l;\n"
     "}\n",
     "t.k:4:13: error: label addresses are not supported in kcc kernels\n"
     "  void *a = &&l;\n"
     "            ^\n"},
    {"long_double",
     "kernel void k(double *p) {\n"
     "  long double x = p[0];\n"
     "  p[0] = x;\n"
     "}\n",
     "t.k:2:15: error: 'long double' is not supported in kcc kernels\n"
     "  long double x = p[0];\n"
     "              ^\n"},
    {"nonvoid_global", "__global__ float k(int *p) { return 0; }\n",
     "t.k:1:18: error: kernel function 'k' must return void\n"
     "__global__ float k(int *p) { return 0; }\n"
     "                 ^\n"},
    {"nonvoid_kernel", "kernel int k(int *p) { return 0; }\n",
     "t.k:1:12: error: kernel function 'k' must return void\n"
     "kernel int k(int *p) { return 0; }\n"
     "           ^\n"},
    {"packed",
     "struct __attribute__((packed)) S { char c; int i; };\n"
     "kernel void k(struct S *s) { s->i = 1; }\n",
     "t.k:1:32: error: struct layout attributes (packed, aligned fields) are not supported in "
     "kcc kernels\n"
     "struct __attribute__((packed)) S { char c; int i; };\n"
     "                               ^\n"},
    {"printf_conv_Lf", "kernel void k(double *p) { printf(\"%5.2Lf\", p[0]); }\n",
     "t.k:1:35: error: printf conversion '%5.2Lf' is not supported in kcc kernels\n"
     "kernel void k(double *p) { printf(\"%5.2Lf\", p[0]); }\n"
     "                                  ^\n"},
    {"printf_conv_h",
     "kernel void k(int *p) {\n"
     "  printf(\"%hd\\n\", (short)p[0]);\n"
     "}\n",
     "t.k:2:10: error: printf conversion '%hd' is not supported in kcc kernels\n"
     "  printf(\"%hd\\n\", (short)p[0]);\n"
     "         ^\n"},
    {"printf_conv_n", "kernel void k(int *p) { printf(\"%n\", p); }\n",
     "t.k:1:32: error: printf conversion '%n' is not supported in kcc kernels\n"
     "kernel void k(int *p) { printf(\"%n\", p); }\n"
     "                               ^\n"},
    {"printf_conv_star", "kernel void k(int *p) { printf(\"%*d\\n\", 4, p[0]); }\n",
     "t.k:1:32: error: printf conversion '%*d' is not supported in kcc kernels\n"
     "kernel void k(int *p) { printf(\"%*d\\n\", 4, p[0]); }\n"
     "                               ^\n"},
    {"printf_nonliteral",
     "constant int fmt = 0;\n"
     "kernel void k(int *p) {\n"
     "  const char *f = 0;\n"
     "  printf(f);\n"
     "}\n",
     "t.k:4:10: error: printf format must be a string literal\n"
     "  printf(f);\n"
     "         ^\n"},
    {"shared_and_constant",
     "shared constant int x;\n"
     "kernel void k(int *p) { p[0] = x; }\n",
     "t.k:1:21: error: variable 'x' cannot be both 'shared' and 'constant'\n"
     "shared constant int x;\n"
     "                    ^\n"},
    {"shared_extern_sized",
     "kernel void k(int *p) {\n"
     "  extern shared int x[4];\n"
     "  p[0] = x[0];\n"
     "}\n",
     "t.k:2:21: error: 'extern shared' variable 'x' must be an array of unknown size, as in "
     "'extern shared float x[]'\n"
     "  extern shared int x[4];\n"
     "                    ^\n"},
    {"shared_init",
     "kernel void k(int *p) {\n"
     "  shared int x = 1;\n"
     "  p[0] = x;\n"
     "}\n",
     "t.k:2:14: error: 'shared' variable 'x' cannot have an initializer\n"
     "  shared int x = 1;\n"
     "             ^\n"},
    {"statement_expr", "kernel void k(int *p) { p[0] = ({ int t = 1; t; }); }\n",
     "t.k:1:32: error: statement expressions whose value is used are not supported in kcc kernels\n"
     "kernel void k(int *p) { p[0] = ({ int t = 1; t; }); }\n"
     "                               ^\n"},
    {"static_local",
     "kernel void k(int *p) {\n"
     "  static int calls;\n"
     "  p[0] = calls++;\n"
     "}\n",
     "t.k:2:14: error: static local variable 'calls' is not supported in kcc kernels (a "
     "'static const' one with an initializer is)\n"
     "  static int calls;\n"
     "             ^\n"},
    {"string_array",
     "kernel void k(char *p) {\n"
     "  char s[] = \"hi\";\n"
     "  p[0] = s[0];\n"
     "}\n",
     "t.k:2:14: error: char arrays initialized from a string literal are not supported in kcc "
     "kernels; point to the literal instead (const char *s = \"...\")\n"
     "  char s[] = \"hi\";\n"
     "             ^\n"},
    {"string_constant",
     "constant char msg[] = \"hello\";\n"
     "kernel void k(char *p) { p[0] = msg[0]; }\n",
     "t.k:1:23: error: char arrays initialized from a string literal are not supported in kcc "
     "kernels; point to the literal instead (const char *s = \"...\")\n"
     "constant char msg[] = \"hello\";\n"
     "                      ^\n"},
    {"thread_idx_bare",
     "kernel void k(int *p) {\n"
     "  struct __kcc_dim3 t = threadIdx;\n"
     "  p[0] = t.x;\n"
     "}\n",
     "t.k:2:25: error: 'threadIdx' can only be used as threadIdx.x, threadIdx.y or threadIdx.z\n"
     "  struct __kcc_dim3 t = threadIdx;\n"
     "                        ^\n"},
    {"thread_local",
     "_Thread_local constant int x = 1;\n"
     "kernel void k(int *p) { p[0] = x; }\n",
     "t.k:1:28: error: thread-local variables are not supported in kcc kernels\n"
     "_Thread_local constant int x = 1;\n"
     "                           ^\n"},
    {"undefined_call",
     "void *malloc(unsigned long);\n"
     "kernel void k(int *p) {\n"
     "  int *q = malloc(4);\n"
     "  p[0] = q[0];\n"
     "}\n",
     "t.k:3:12: error: call to 'malloc', which is neither a device function defined in this file "
     "nor a kcc builtin\n"
     "  int *q = malloc(4);\n"
     "           ^\n"},
    {"undefined_proto",
     "int helper(int x);\n"
     "kernel void k(int *p) { p[0] = helper(1); }\n",
     "t.k:2:32: error: call to 'helper', which is neither a device function defined in this file "
     "nor a kcc builtin\n"
     "kernel void k(int *p) { p[0] = helper(1); }\n"
     "                               ^\n"},
    {"variadic",
     "static int sum(int n, ...) { return n; }\n"
     "kernel void k(int *p) { p[0] = sum(1, 2); }\n",
     "t.k:1:12: error: variadic functions are not supported in kcc kernels\n"
     "static int sum(int n, ...) { return n; }\n"
     "           ^\n"},
    {"vector_bool",
     "typedef bool bool4 __attribute__((ext_vector_type(4)));\n"
     "kernel void k(bool4 *p) { }\n",
     "t.k:2:22: error: vectors of bool are not supported in kcc kernels; use a vector of an "
     "integer type\n"
     "kernel void k(bool4 *p) { }\n"
     "                     ^\n"},
    {"vector_length",
     "typedef float float5 __attribute__((ext_vector_type(5)));\n"
     "kernel void k(float5 *p) { }\n",
     "t.k:2:23: error: vector types must have 2, 3, 4, 8 or 16 components in kcc kernels\n"
     "kernel void k(float5 *p) { }\n"
     "                      ^\n"},
    {"vector_gcc",
     "typedef float v4 __attribute__((vector_size(16)));\n"
     "kernel void k(v4 *p) { }\n",
     "t.k:2:19: error: GCC vector types (vector_size) are not supported in kcc kernels; use "
     "OpenCL's vector types (ext_vector_type)\n"
     "kernel void k(v4 *p) { }\n"
     "                  ^\n"},
    {"vector_index",
     "#include <kcc_vector.h>\n"
     "kernel void k(float4 *p, int i) { p[1].x = p[0][i]; }\n",
     "t.k:2:44: error: vector components can only be indexed by constants in kcc kernels\n"
     "kernel void k(float4 *p, int i) { p[1].x = p[0][i]; }\n"
     "                                           ^\n"},
    {"vector_macro_swizzle",
     "#include <kcc_vector.h>\n"
     "#define REV(v) (v).wzyx\n"
     "kernel void k(float4 *f) {\n"
     "  f[0] = REV(f[1]);\n"
     "}\n",
     "t.k:3:13: error: function 'k' has a vector component access that keeps the vector's length "
     "(such as .wzyx) written inside a macro body, where kcc cannot locate it; write that access "
     "outside the macro\n"
     "kernel void k(float4 *f) {\n"
     "            ^\n"},
    {"vector_comma_literal",
     "#include <kcc_vector.h>\n"
     "kernel void k(float4 *f) { f[0] = (float4)(1, 2, 3, 4); }\n",
     "t.k:2:35: error: (float4)(a, b, ...) is OpenCL C's vector literal; in kcc's dialect it is a "
     "comma expression widened to every component: write (float4){a, b, ...}\n"
     "kernel void k(float4 *f) { f[0] = (float4)(1, 2, 3, 4); }\n"
     "                                  ^\n"},
    {"vector_hi3_assign",
     "#include <kcc_vector.h>\n"
     "kernel void k(float3 *f, float2 *o) { f[0].hi = o[0]; }\n",
     "t.k:2:39: error: assigning to .hi or .odd of a 3-component vector is not supported in kcc "
     "kernels; assign its components (.z, or .y and .z)\n"
     "kernel void k(float3 *f, float2 *o) { f[0].hi = o[0]; }\n"
     "                                      ^\n"},
    {"vector_index_range",
     "#include <kcc_vector.h>\n"
     "kernel void k(float4 *f) { f[0].x = f[1][4]; }\n",
     "t.k:2:37: error: vector component index 4 is out of range for 'float4'\n"
     "kernel void k(float4 *f) { f[0].x = f[1][4]; }\n"
     "                                    ^\n"},
    {"convert_rounding",
     "#include <kcc_vector.h>\n"
     "kernel void k(float4 *f, int4 *p) { f[0] = convert_float4_rtz(p[0]); }\n",
     "t.k:2:44: error: 'convert_float4_rtz': rounding mode 'rtz' for conversions to floating point "
     "is not supported in kcc kernels (only the default, _rte)\n"
     "kernel void k(float4 *f, int4 *p) { f[0] = convert_float4_rtz(p[0]); }\n"
     "                                           ^\n"},
    {"convert_length",
     "#include <kcc_vector.h>\n"
     "kernel void k(float4 *f, int2 *p) { f[0] = convert_float4(p[0]); }\n",
     "t.k:2:44: error: 'convert_float4' needs an argument with as many components as its result, "
     "not 'int2'\n"
     "kernel void k(float4 *f, int2 *p) { f[0] = convert_float4(p[0]); }\n"
     "                                           ^\n"},
    {"as_size",
     "#include <kcc_vector.h>\n"
     "kernel void k(float4 *f, int2 *p) { f[0] = as_float4(p[0]); }\n",
     "t.k:2:44: error: 'as_float4' needs an argument of 16 bytes, not 'int2' (8 bytes)\n"
     "kernel void k(float4 *f, int2 *p) { f[0] = as_float4(p[0]); }\n"
     "                                           ^\n"},
    {"shared_param_device",
     "__device__ float f(shared float *p) { return p[0]; }\n"
     "kernel void k(float *o) { shared float t[4]; t[0] = 1; o[0] = f(t); }\n",
     "t.k:1:34: error: parameter 'p' of device function 'f' cannot be 'shared': only kernel "
     "parameters can (a device function's pointer parameters take the memory space of what the "
     "caller passes)\n"
     "__device__ float f(shared float *p) { return p[0]; }\n"
     "                                 ^\n"},
    {"shared_param_scalar", "kernel void k(shared int n, float *o) { o[0] = n; }\n",
     "t.k:1:26: error: kernel parameter 'n' cannot be 'shared': only a pointer parameter can be "
     "(`shared T *p`: local memory sized at launch)\n"
     "kernel void k(shared int n, float *o) { o[0] = n; }\n"
     "                         ^\n"},
    {"vla",
     "kernel void k(int *p, int n) {\n"
     "  float a[n];\n"
     "  a[0] = 1; p[0] = a[0];\n"
     "}\n",
     "t.k:2:9: error: variable length arrays are not supported in kcc kernels\n"
     "  float a[n];\n"
     "        ^\n"},
    {"wide_string", "kernel void k(int *p) { printf(L\"x\"); }\n",
     "t.k:1:32: error: incompatible pointer types passing 'int[2]' to parameter of type "
     "'const char *' [-Wincompatible-pointer-types]\n"
     "kernel void k(int *p) { printf(L\"x\"); }\n"
     "                               ^\n"},
};

/* The first error with its two quoted lines, the temporary directory removed. */
static char *first_error(const char *diags) {
  const char *p = strstr(diags, ": error: ");
  if (!p) return strdup(diags);
  while (p > diags && p[-1] != '\n') p--;
  const char *e = p;
  for (int lines = 0; *e && lines < 3; e++)
    if (*e == '\n') lines++;
  char *r = strndup(p, (size_t)(e - p));
  char dir[256];
  snprintf(dir, sizeof dir, "%s/", tu_tmpdir());
  if (strncmp(r, dir, strlen(dir)) == 0) memmove(r, r + strlen(dir), strlen(r) - strlen(dir) + 1);
  return r;
}

START_TEST(rejected) {
  const Case *c = &cases[_i];
  char *diags;
  KModule *m = tu_compile("t.k", c->src, &diags);
  ck_assert_msg(m == NULL, "%s: accepted", c->name);
  char *got = first_error(diags);
  ck_assert_msg(strcmp(got, c->want) == 0, "%s: expected\n%s\ngot\n%s\n(all diagnostics:\n%s)",
                c->name, c->want, got, diags);
  free(got);
  free(diags);
}
END_TEST

/* Several problems in one file are all reported, each once. */
START_TEST(reports_every_problem) {
  char *diags;
  ck_assert_ptr_null(tu_compile("t.k",
                                "int g;\n"
                                "kernel int k(int *p) {\n"
                                "  long double x = 1;\n"
                                "  void *t = &&end;\n"
                                "  goto *t;\n"
                                "end:\n"
                                "  return x;\n"
                                "}\n",
                                &diags));
  const char *want[] = {
      "t.k:1:5: error: global variable 'g' must be 'constant' or 'shared'",
      "t.k:2:12: error: kernel function 'k' must return void",
      "t.k:3:15: error: 'long double' is not supported in kcc kernels",
      "t.k:4:13: error: label addresses are not supported in kcc kernels",
      "t.k:5:3: error: a computed 'goto *' is not supported in kcc kernels",
      "t.k:7:10: error: 'long double' is not supported in kcc kernels",
  };
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    const char *at = strstr(diags, want[i]);
    ck_assert_msg(at, "missing '%s' in:\n%s", want[i], diags);
    ck_assert_msg(!strstr(at + 1, want[i]), "'%s' reported twice:\n%s", want[i], diags);
  }
  ck_assert_int_eq(diag_error_count(), 6);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("frontend_errors");
  TCase *t = tcase_create("errors");
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, rejected, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_test(t, reports_every_problem);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  return tu_main(suite());
}
