/* test_frontend.c — the front end: KIR produced for C snippets (conversions, pointer
 * arithmetic, structs, control flow, shared memory, builtins), forwarding of clang's
 * diagnostics, and the inputs it must survive. The dialect's rejections are in
 * test_frontend_errors.c. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The KIR dump of src (after the passes), failing the test with the diagnostics if any. */
static char *kir(const char *src) {
  char *diags = NULL;
  char *text = tu_kir(src, &diags);
  ck_assert_msg(text != NULL, "compile failed:\n%s\nsource:\n%s", diags ? diags : "", src);
  ck_assert_msg(diags && !*diags, "unexpected diagnostics:\n%s", diags);
  free(diags);
  return text;
}

#define HAS(text, needle)                                                                          \
  ck_assert_msg(strstr((text), (needle)), "missing '%s' in:\n%s", (needle), (text))
#define HASNT(text, needle)                                                                        \
  ck_assert_msg(!strstr((text), (needle)), "unexpected '%s' in:\n%s", (needle), (text))

START_TEST(vecadd) {
  char *k = kir("kernel void vecadd(const float *a, const float *b, float *c, int n) {\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i < n) c[i] = a[i] + b[i];\n"
                "}\n");
  HAS(k, "void vecadd(global const float * a, global const float * b, global float * c, int n)\n");
  HAS(k, "  decl int i = (nop int (add unsigned int (mul unsigned int (blockIdx.x) (blockDim.x)) "
         "(threadIdx.x)))\n");
  HAS(k, "  if (lt int (var i) (var n))\n"
         "    (assign float (index float (var c) (var i)) (add float (index float (var a) (var i)) "
         "(index float (var b) (var i))))\n");
}
END_TEST

START_TEST(saxpy) {
  char *k = kir("__global__ void saxpy(int n, float a, const float *__restrict__ x, float *y) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  if (i < n) y[i] = a * x[i] + y[i];\n"
                "}\n");
  HAS(k, "void saxpy(int n, float a, global const float *restrict x, global float * y)\n");
  HAS(k, "(assign float (index float (var y) (var i)) (add float (mul float (var a) (index float "
         "(var x) (var i))) (index float (var y) (var i))))");
}
END_TEST

START_TEST(conversions) {
  char *k = kir("kernel void k(float *f, int *p, unsigned u, char c, short s, double d) {\n"
                "  f[0] = p[0];\n"
                "  p[1] = f[1];\n"
                "  p[2] = c + s;\n"
                "  f[2] = d;\n"
                "  p[3] = u < p[0];\n"
                "  p[4] = 1 << c;\n"
                "  s += 1;\n"
                "  c *= 2.5;\n"
                "  u >>= c;\n"
                "  long l = u;\n"
                "  l = p[0];\n"
                "  _Bool b = f[0];\n"
                "  p[5] = b;\n"
                "  f[3] = 1;\n"
                "  p[6] = 'A';\n"
                "  p[7] = !f[0] + -c + ~u;\n"
                "  (void)l;\n"
                "}\n");
  HAS(k, "(assign float (index float (var f) (const int 0)) (itof float (index int (var p) (const "
         "int 0))))");
  HAS(k, "(assign int (index int (var p) (const int 1)) (ftoi int (index float (var f) (const int "
         "1))))");
  HAS(k, "(add int (sext int (var c)) (sext int (var s)))");
  HAS(k, "(fptrunc float (var d))");
  HAS(k, "(lt int (var u) (nop unsigned int (index int (var p) (const int 0))))");
  HAS(k, "(shl int (const int 1) (sext int (var c)))");
  HAS(k, "(assign-add short [int] (var s) (const int 1))");
  HAS(k, "(assign-mul char [double] (var c) (fconst double 2.5))");
  HAS(k, "(assign-shr unsigned int [unsigned int] (var u) (sext int (var c)))");
  HAS(k, "decl long l = (zext long (var u))");
  HAS(k, "(assign long (var l) (sext long (index int (var p) (const int 0))))");
  HAS(k, "decl bool b = (tobool bool (index float (var f) (const int 0)))");
  HAS(k, "(assign int (index int (var p) (const int 5)) (zext int (var b)))");
  HAS(k, "(assign float (index float (var f) (const int 3)) (fconst float 1))");
  HAS(k, "(assign int (index int (var p) (const int 6)) (const int 65))");
  HAS(k, "(lnot int (index float (var f) (const int 0)))");
  HAS(k, "(neg int (sext int (var c)))");
  HAS(k, "(not unsigned int (var u))");
  HAS(k, "(tovoid void (var l))");
}
END_TEST

START_TEST(pointer_arithmetic) {
  char *k = kir("kernel void k(float *p, const float *q, long *out, int n) {\n"
                "  float *a = p + n;\n"
                "  float *b = n + p;\n"
                "  const float *c = q - 2;\n"
                "  out[0] = a - p;\n"
                "  p += 4;\n"
                "  p -= n;\n"
                "  a++;\n"
                "  --b;\n"
                "  out[1] = n[p] + *q + *(p + 1);\n"
                "  out[2] = a == b && c != 0;\n"
                "  out[3] = (long)p;\n"
                "  p = (float *)out;\n"
                "  p = a ? a : b;\n"
                "}\n");
  HAS(k, "decl global float * a = (ptradd global float * (var p) (var n))");
  HAS(k, "decl global float * b = (ptradd global float * (var p) (var n))");
  HAS(k, "decl global const float * c = (ptrsub global const float * (var q) (const int 2))");
  HAS(k, "(ptrdiff long (var a) (var p))");
  HAS(k, "(assign-ptradd global float * [global float *] (var p) (const int 4))");
  HAS(k, "(assign-ptrsub global float * [global float *] (var p) (var n))");
  HAS(k, "(postinc global float * (var a))");
  HAS(k, "(predec global float * (var b))");
  HAS(k, "(index float (var p) (var n))");
  HAS(k, "(deref float (var q))");
  HAS(k, "(deref float (ptradd global float * (var p) (const int 1)))");
  HAS(k, "(ptrtoint long (var p))");
  HAS(k, "(ptrcast global float * (var out))");
  HAS(k, "(cond global float * (var a) (var a) (var b))");
}
END_TEST

START_TEST(structs) {
  char *k = kir("typedef struct { float x, y; } V2;\n"
                "struct Node { int v; struct Node *next; };\n"
                "struct Box { char tag; V2 lo, hi; double w; };\n"
                "static float len2(V2 a) { return a.x * a.x + a.y * a.y; }\n"
                "kernel void k(struct Node *n, struct Box *b, float *out) {\n"
                "  V2 v = {1, 2};\n"
                "  struct Box bx = *b;\n"
                "  out[0] = len2(v) + b->lo.y + bx.hi.x;\n"
                "  out[1] = n->next->v + (*n).v;\n"
                "  bx.lo = v;\n"
                "  V2 *pv = &bx.hi;\n"
                "  pv->x = 3;\n"
                "}\n");
  HAS(k, "struct V2 size 8 align 4 { float x @0; float y @4; }\n"
         "struct Node size 16 align 8 { int v @0; struct Node * next @8; }\n"
         "struct Box size 32 align 8 { char tag @0; struct V2 lo @4; struct V2 hi @12; double w "
         "@24; }\n");
  HAS(k, "decl struct V2 v = (init struct V2 (fconst float 1) (fconst float 2))");
  HAS(k, "decl struct Box bx = (deref struct Box (var b))");
  HAS(k, "(member .y float (member .lo struct V2 (deref struct Box (var b))))");
  HAS(k, "(member .v int (deref struct Node (member .next struct Node * (deref struct Node (var "
         "n)))))");
  HAS(k, "(assign struct V2 (member .lo struct V2 (var bx)) (var v))");
  HAS(k, "decl private struct V2 * pv = (addr private struct V2 * (member .hi struct V2 (var "
         "bx)))");
  HAS(k, "(call len2 float (var v))");
}
END_TEST

START_TEST(struct_names) {
  char *k = kir("typedef struct { int a; } P;\n"
                "struct P { float b; };\n"
                "static int f(void) { struct Q { int x; } q = {1}; return q.x; }\n"
                "static int g(void) { struct Q { float y; } q = {2}; return (int)q.y; }\n"
                "kernel void k(int *p, struct P sp, P tp) {\n"
                "  struct { short s; } anon = {3};\n"
                "  p[0] = f() + g() + tp.a + (int)sp.b + anon.s;\n"
                "}\n");
  /* Real tags keep their names; the typedef-named struct and the second Q yield. */
  HAS(k, "struct P_1 size 4 align 4 { int a @0; }\n"
         "struct P size 4 align 4 { float b @0; }\n"
         "struct Q size 4 align 4 { int x @0; }\n"
         "struct Q_1 size 4 align 4 { float y @0; }\n"
         "struct __anon1 size 2 align 2 { short s @0; }\n");
  HAS(k, "void k(global int * p, struct P sp, struct P_1 tp)");
}
END_TEST

START_TEST(control_flow) {
  char *k = kir("kernel void k(int *p, int n, char c) {\n"
                "  for (int i = 0; i < n; i++) p[i] = i;\n"
                "  for (;;) break;\n"
                "  int j;\n"
                "  for (j = 0;;) { if (j) break; j++; }\n"
                "  for (; j < n;) j++;\n"
                "  for (;; j--) if (j < 0) break;\n"
                "  for (int a = 0, b = 1; a < b; a++) continue;\n"
                "  while (n--) p[n] = 0;\n"
                "  do { n++; } while (n < 10);\n"
                "  switch (c) {\n"
                "  case 'a': p[0] = 1;\n"
                "  case 2: case 3: p[1] = 2; break;\n"
                "  default: p[2] = 3;\n"
                "  }\n"
                "  if (n) p[0] = 1; else if (n > 1) p[0] = 2; else p[0] = 3;\n"
                "  #pragma unroll\n"
                "  for (int u = 0; u < 4; u++) p[u] = u;\n"
                "  #define N 8\n"
                "  #define FOREVER for (;;)\n"
                "  #define UPTO(v, n) for (int v = 0; v < n; v++)\n"
                "  for (; j < N;) j += 2;\n"
                "  FOREVER { break; }\n"
                "  UPTO(w, N) p[w] = 0;\n"
                "}\n");
  HAS(k, "  for\n    cond: (lt int (var j) (const int 8))\n    (assign-add int [int] (var j) "
         "(const int 2))\n");
  HAS(k, "  for\n  {\n    break\n  }\n");
  HAS(k, "  for\n    init:\n      decl int w = (const int 0)\n    cond: (lt int (var w) (const "
         "int 8))\n");
  HAS(k, "  for\n    init:\n      decl int i = (const int 0)\n    cond: (lt int (var i) (var "
         "n))\n    step: (postinc int (var i))\n    (assign int (index int (var p) (var i)) (var "
         "i))\n");
  HAS(k, "  for\n    break\n");
  HAS(k, "  for\n    init:\n      (assign int (var j) (const int 0))\n  {\n");
  HAS(k, "  for\n    cond: (lt int (var j) (var n))\n    (postinc int (var j))\n");
  HAS(k, "  for\n    step: (postdec int (var j))\n    if (lt int (var j) (const int 0))\n");
  HAS(k, "  {\n    decl int a = (const int 0)\n    decl int b = (const int 1)\n    for\n      "
         "cond: (lt int (var a) (var b))\n      step: (postinc int (var a))\n      continue\n  "
         "}\n");
  HAS(k, "  while (postdec int (var n))\n");
  HAS(k, "  do\n  {\n    (postinc int (var n))\n  }\n  while (lt int (var n) (const int 10))\n");
  HAS(k, "  switch (sext int (var c))\n  {\n  case 97:\n    (assign int (index int (var p) (const "
         "int 0)) (const int 1))\n  case 2:\n  case 3:\n    (assign int (index int (var p) "
         "(const int 1)) (const int 2))\n    break\n  default:\n");
  HAS(k, "  else\n    if (gt int (var n) (const int 1))\n");
  HAS(k, "cond: (lt int (var u) (const int 4))");
}
END_TEST

START_TEST(switch_cases_collected) {
  char *diags;
  KModule *m = tu_compile(NULL,
                          "kernel void k(int *p, unsigned char n) {\n"
                          "  switch (n) { case 1: p[0] = 1; break; default: break; case 255: "
                          "{ switch (p[1]) { case -1: break; } } }\n"
                          "}\n",
                          &diags);
  ck_assert_msg(m, "%s", diags);
  KFunc *f = m->funcs.v[0];
  KStmt *sw = f->body->list.v[0];
  ck_assert_int_eq(sw->kind, KS_SWITCH);
  ck_assert_int_eq(sw->cases.n, 3);
  ck_assert_int_eq(((KStmt *)sw->cases.v[0])->value, 1);
  ck_assert(((KStmt *)sw->cases.v[1])->is_default);
  ck_assert_int_eq(((KStmt *)sw->cases.v[2])->value, 255);
  ck_assert_str_eq(kir_type_str(sw->cond->type), "int");
  /* The inner switch has its own case list. */
  KStmt *blk = sw->body->list.v[sw->body->list.n - 1];
  KStmt *inner = blk->list.v[0];
  ck_assert_int_eq(inner->kind, KS_SWITCH);
  ck_assert_int_eq(inner->cases.n, 1);
  ck_assert_int_eq(((KStmt *)inner->cases.v[0])->value, -1);
}
END_TEST

START_TEST(shared_memory) {
  char *k = kir("shared float tile[64];\n"
                "static float get(int i) { __shared__ int cache[8]; cache[i] = i; return "
                "tile[i] + cache[i]; }\n"
                "kernel void k(float *out) {\n"
                "  __shared__ float buf[256];\n"
                "  extern shared float dyn[];\n"
                "  buf[threadIdx.x] = dyn[threadIdx.y];\n"
                "  __syncthreads();\n"
                "  float *p = &buf[1];\n"
                "  float *q = dyn;\n"
                "  out[threadIdx.x] = buf[threadIdx.x] + get(1) + *p + *q;\n"
                "}\n");
  HAS(k, "shared float[64] tile\n");
  HAS(k, "shared int[8] cache in get\n");
  HAS(k, "shared float[256] buf in k\n");
  HAS(k, "shared float[] dyn dynamic in k\n");
  HASNT(k, "decl float[256] buf");
  HAS(k, "(assign float (index float (decay shared float * (gvar buf)) (threadIdx.x)) (index "
         "float (decay shared float * (gvar dyn)) (threadIdx.y)))");
  HAS(k, "(builtin __syncthreads void)");
  HAS(k, "decl shared float * p = (addr shared float * (index float (decay shared float * (gvar "
         "buf)) (const int 1)))");
  HAS(k, "decl shared float * q = (decay shared float * (gvar dyn))");
}
END_TEST

START_TEST(builtins) {
  char *k = kir("kernel void k(float *f, double *d, int *i, unsigned *u, long *l,\n"
                "              unsigned long long *ull) {\n"
                "  f[0] = sqrtf(f[1]) + expf(f[2]) + fabsf(f[3]) + rsqrtf(f[4]) + powf(f[5], "
                "2.0f) + fmaf(f[0], f[1], f[2]);\n"
                "  d[0] = sqrt(d[1]) + floor(d[2]) + atan2(d[3], d[4]);\n"
                "  i[0] = isnan(f[0]) + isinf(d[0]) + isfinite(f[1]);\n"
                "  i[1] = min(i[2], i[3]) + max(i[4], 5) + abs(i[5]);\n"
                "  l[0] = min(l[1], 256) + labs(l[2]);\n"
                "  f[6] = max(f[7], 1.0f) + fminf(f[8], 0.0f);\n"
                "  l[3] = max(u[2], l[4]) + min(ull[1], l[5]);\n"
                "  atomicAdd(&i[0], 1);\n"
                "  atomicAdd(&f[0], 1.0f);\n"
                "  atomicCAS(&u[0], 0u, 1u);\n"
                "  atomicExch(&ull[0], 2ull);\n"
                "  atomicSub(&l[0], 3L);\n"
                "  atomicMin(&i[1], 4); atomicMax(&u[1], 5u); atomicAnd(&i[2], 6);\n"
                "  atomicOr(&i[3], 7); atomicXor(&i[4], 8);\n"
                "  __syncthreads(); barrier(); __threadfence(); __threadfence_block();\n"
                "  u[2] = threadIdx.z + blockIdx.y + blockDim.z + gridDim.x;\n"
                "}\n");
  HAS(k, "(builtin sqrt float (index float (var f) (const int 1)))");
  HAS(k, "(builtin exp float ");
  HAS(k, "(builtin fabs float ");
  HAS(k, "(builtin rsqrt float ");
  HAS(k, "(builtin pow float (index float (var f) (const int 5)) (fconst float 2))");
  HAS(k, "(builtin fma float ");
  HAS(k, "(builtin sqrt double (index double (var d) (const int 1)))");
  HAS(k, "(builtin floor double ");
  HAS(k, "(builtin atan2 double ");
  HAS(k, "(builtin isnan int (index float (var f) (const int 0)))");
  HAS(k, "(builtin isinf int (index double (var d) (const int 0)))");
  HAS(k, "(builtin isfinite int ");
  HAS(k, "(builtin min int (index int (var i) (const int 2)) (index int (var i) (const int 3)))");
  HAS(k, "(builtin max int (index int (var i) (const int 4)) (const int 5))");
  HAS(k, "(builtin abs int (index int (var i) (const int 5)))");
  HAS(k, "(builtin min long (index long (var l) (const int 1)) (const long 256))");
  HAS(k, "(builtin abs long ");
  HAS(k, "(builtin max float (index float (var f) (const int 7)) (fconst float 1))");
  HAS(k, "(builtin fmin float ");
  /* Mixed operands: the usual arithmetic conversions, as for a + b. */
  HAS(k, "(builtin max long (zext long (index unsigned int (var u) (const int 2))) (index long "
         "(var l) (const int 4)))");
  HAS(k, "(builtin min unsigned long (index unsigned long (var ull) (const int 1)) (nop unsigned "
         "long (index long (var l) (const int 5))))");
  HAS(k, "(builtin atomicAdd int (addr global int * (index int (var i) (const int 0))) (const int "
         "1))");
  HAS(k, "(builtin atomicAdd float (addr global float * (index float (var f) (const int 0))) "
         "(fconst float 1))");
  HAS(k, "(builtin atomicCAS unsigned int (addr global unsigned int * (index unsigned int (var u) "
         "(const int 0))) (const unsigned int 0) (const unsigned int 1))");
  HAS(k, "(builtin atomicExch unsigned long ");
  HAS(k, "(builtin atomicSub long ");
  HAS(k, "(builtin atomicMin int ");
  HAS(k, "(builtin atomicMax unsigned int ");
  HAS(k, "(builtin atomicAnd int ");
  HAS(k, "(builtin atomicOr int ");
  HAS(k, "(builtin atomicXor int ");
  HAS(k, "  (builtin __syncthreads void)\n  (builtin __syncthreads void)\n  (builtin "
         "__threadfence void)\n  (builtin __threadfence_block void)\n");
  HAS(k, "(add unsigned int (add unsigned int (add unsigned int (threadIdx.z) (blockIdx.y)) "
         "(blockDim.z)) (gridDim.x))");
}
END_TEST

/* CUDA's intrinsics and warp operations lower to existing KIR where one composition evaluates
 * each argument once, else to their own builtins; left-out widths and masks are filled in. */
START_TEST(cuda_intrinsics) {
  char *k = kir("kernel void k(int *o, unsigned *u, float *f, double *d) {\n"
                "  o[0] = __popc(u[0]) + __clzll((long long)o[1]) + __float2int_rd(f[0]);\n"
                "  f[1] = __int_as_float(o[2]) + __fmul_rn(f[2], f[3]);\n"
                "  o[3] = __shfl_sync(0xffffffffu, o[4], 3) + warpSize;\n"
                "  d[0] = __shfl_up_sync(0xffffffffu, d[1], 2u, 8);\n"
                "  __syncwarp();\n"
                "  u[1] = __umul24(u[2], u[3]);\n"
                "}\n");
  HAS(k, "(nop int (builtin popcount unsigned int (index unsigned int (var u) (const int 0))))");
  HAS(k, "(trunc int (builtin clz long");
  HAS(k, "(builtin convert_sat int (builtin floor float (index float (var f) (const int 0))))");
  HAS(k, "(bitcast float (index int (var o) (const int 2)))");
  HAS(k, "(builtin __fmul_rn float (index float (var f) (const int 2)) (index float (var f) "
         "(const int 3)))");
  HAS(k, "(builtin __shfl_sync int (const unsigned int 4294967295) (index int (var o) (const int "
         "4)) (const int 3) (const int 32))");
  HAS(k, "(const int 32)))");
  HAS(k, "(builtin __shfl_up_sync double (const unsigned int 4294967295) (index double (var d) "
         "(const int 1)) (const unsigned int 2) (const int 8))");
  HAS(k, "(builtin __syncwarp void (const unsigned int 4294967295))");
  HAS(k, "(mul unsigned int (and unsigned int (index unsigned int (var u) (const int 2)) (const "
         "unsigned int 16777215))");
}
END_TEST

START_TEST(prelude_types_and_helpers) {
  /* No #include: bool, size_t and <stdint.h> names come with the prelude, as in CUDA. */
  char *k = kir("kernel void k(float *p, const float *q) {\n"
                "  size_t i = threadIdx.x; bool b = true; int32_t j = 1; uint8_t u = 2;\n"
                "  p[i] = __saturatef(__ldg(&q[i])) + b + j + u + __fdividef(p[0], 2.0f);\n"
                "}\n");
  HAS(k, "decl unsigned long i = (zext unsigned long (threadIdx.x))");
  HAS(k, "decl bool b = (const bool 1)");
  HAS(k, "decl unsigned char u = (const unsigned char 2)");
  HAS(k, "(builtin fmin float (builtin fmax float (deref float (addr global const float * (index "
         "float (var q) (var i)))) (fconst float 0)) (fconst float 1))");
  HAS(k, "(builtin __fdividef float (index float (var p) (const int 0)) (fconst float 2))");
  /* The user's own min/max macros take over quietly. */
  k = kir("#define min(a, b) ((a) < (b) ? (a) : (b))\n"
          "kernel void k(int *p) { p[0] = min(p[1], p[2]); }\n");
  HAS(k, "(cond int (lt int ");
}
END_TEST

START_TEST(builtin_ids) {
  char *diags;
  KModule *m = tu_compile(NULL,
                          "kernel void k(float *f) { f[0] = cosf(f[1]); f[1] = __expf(f[2]); "
                          "f[2] = (float)tgamma(f[3]); }\n",
                          &diags);
  ck_assert_msg(m, "%s", diags);
  KStmt *s0 = ((KFunc *)m->funcs.v[0])->body->list.v[0];
  KExpr *cosf_call = s0->expr->b;
  ck_assert_int_eq(cosf_call->kind, KE_BUILTIN);
  ck_assert_int_eq(cosf_call->builtin, BI_COS);
  ck_assert_int_eq(cosf_call->type->kind, KT_F32);
  KStmt *s1 = ((KFunc *)m->funcs.v[0])->body->list.v[1];
  ck_assert_int_eq(s1->expr->b->builtin, BI_EXP);
  KStmt *s2 = ((KFunc *)m->funcs.v[0])->body->list.v[2];
  ck_assert_int_eq(s2->expr->b->kind, KE_CAST);
  ck_assert_int_eq(s2->expr->b->a->builtin, BI_TGAMMA);
  ck_assert_int_eq(s2->expr->b->a->type->kind, KT_F64);
}
END_TEST

START_TEST(printf_args) {
  char *k = kir("#include <stdio.h>\n"
                "#define FMT \"v=%d\\n\"\n"
                "kernel void k(float *f, long n) {\n"
                "  printf(\"%d %u %x %ld %lu %lld %5.2f %e %g %c %s %p %% \\t\\\"q\\\"\\n\", 1, "
                "2u, 3, n, 4ul, 5ll, f[0], 1.0, f[1], 'c', \"str\", f);\n"
                "  printf(FMT, 7);\n"
                "  printf(\"a\" \"b\");\n"
                "}\n");
  HAS(k, "(builtin printf int (str \"%d %u %x %ld %lu %lld %5.2f %e %g %c %s %p %% \\x09\\\"q\\\""
         "\\n\") (const int 1) (const unsigned int 2) (const int 3) (var n) (const unsigned long "
         "4) (const long 5) (fpext double (index float (var f) (const int 0))) (fconst double 1) "
         "(fpext double (index float (var f) (const int 1))) (const int 99) (str \"str\") "
         "(var f))");
  HAS(k, "(builtin printf int (str \"v=%d\\n\") (const int 7))");
  HAS(k, "(builtin printf int (str \"ab\"))");
}
END_TEST

START_TEST(constants) {
  char *k = kir("#include <math.h>\n#include <limits.h>\n#include <stdint.h>\n#include <float.h>\n"
                "#include <stddef.h>\n#include <stdbool.h>\n"
                "enum E { A, B = 5, C };\n"
                "struct S { char c; double d; };\n"
                "kernel void k(double *d, long *l, unsigned long *u, bool *b) {\n"
                "  d[0] = 0x1.8p3;\n"
                "  d[1] = 1e-3f;\n"
                "  d[2] = INFINITY;\n"
                "  d[3] = M_PI;\n"
                "  d[4] = FLT_MAX;\n"
                "  l[0] = C + '\\n' + '\\xff' + 07 + 0x10;\n"
                "  l[1] = INT_MIN;\n"
                "  l[2] = INT64_MIN;\n"
                "  u[0] = 0xffffffffffffffffUL;\n"
                "  u[1] = sizeof(struct S) + _Alignof(double) + offsetof(struct S, d) + sizeof "
                "l[0];\n"
                "  u[2] = UINT32_MAX;\n"
                "  b[0] = true;\n"
                "  d[5] = -0.0;\n"
                "}\n");
  HAS(k, "(fconst double 12)");
  HAS(k, "(fconst double 0.0010000000474974513)");
  HAS(k, "(fconst double inf)");
  HAS(k, "(fconst double 3.1415926535897931)");
  HAS(k, "(fconst double 3.4028234663852886e+38)");
  HAS(k, "(add int (add int (add int (add int (const int 6) (const int 10)) (const int -1)) (const "
         "int 7)) (const int 16))");
  HAS(k, "(sub int (neg int (const int 2147483647)) (const int 1))");
  HAS(k, "(sub long (neg long (const long 9223372036854775807)) (const long 1))");
  HAS(k, "(const unsigned long 18446744073709551615)");
  HAS(k, "(add unsigned long (add unsigned long (add unsigned long (const unsigned long 16) "
         "(const unsigned long 8)) (const unsigned long 8)) (const unsigned long 8))");
  HAS(k, "(const unsigned long 4294967295)");
  HAS(k, "(assign bool (index bool (var b) (const int 0)) (const bool 1))");
  HAS(k, "(neg double (fconst double 0))");
}
END_TEST

START_TEST(initializers) {
  char *k = kir("struct P { int a; float b[2]; struct { short s; } in; };\n"
                "kernel void k(int *out) {\n"
                "  int a[4] = {1, 2};\n"
                "  float f[3] = {1};\n"
                "  int m[2][2] = {1, 2, 3};\n"
                "  int n[2][2] = {{1}, {3, 4}};\n"
                "  struct P p = {1, {2.5f}, {3}};\n"
                "  struct P q = {4, 5, 6, 7};\n"
                "  struct P z = {0};\n"
                "  int s = {9};\n"
                "  int u[] = {1, 2, 3};\n"
                "  out[0] = a[0] + f[0] + m[0][0] + n[0][0] + p.a + q.a + z.a + s + u[2];\n"
                "}\n");
  HAS(k, "decl int[4] a = (init int[4] (const int 1) (const int 2) zero zero)");
  HAS(k, "decl float[3] f = (init float[3] (fconst float 1) zero zero)");
  HAS(k, "decl int[2][2] m = (init int[2][2] (init int[2] (const int 1) (const int 2)) (init "
         "int[2] (const int 3) zero))");
  HAS(k, "decl int[2][2] n = (init int[2][2] (init int[2] (const int 1) zero) (init int[2] "
         "(const int 3) (const int 4)))");
  HAS(k, "decl struct P p = (init struct P (const int 1) (init float[2] (fconst float 2.5) zero) "
         "(init struct __anon1 (const short 3)))");
  HAS(k, "decl struct P q = (init struct P (const int 4) (init float[2] (fconst float 5) "
         "(fconst float 6)) (init struct __anon1 (const short 7)))");
  HAS(k, "decl struct P z = (init struct P (const int 0) zero zero)");
  HAS(k, "decl int s = (const int 9)");
  HAS(k, "decl int[3] u = (init int[3] (const int 1) (const int 2) (const int 3))");
}
END_TEST

START_TEST(designated_initializers) {
  char *k = kir("struct P { int a, b; float c[3]; };\n"
                "constant struct P tbl[3] = {[1] = {.b = 2, 3.5f}, {.c = {1, 2}, .a = 7}};\n"
                "constant int arr[6] = {[4] = 4, 5, [1] = 1};\n"
                "kernel void k(int *p) {\n"
                "  struct P q = {.c = {[1] = 2}};\n"
                "  int z[4] = {1, [2] = 2, 3};\n"
                "  struct { int a[2]; int b; } s = {1, .b = 3};\n"
                "  p[0] = q.a + z[0] + s.b + tbl[0].a + arr[0];\n"
                "}\n");
  HAS(k, "constant struct P[3] tbl = (init struct P[3] zero (init struct P zero (const int 2) "
         "(init float[3] (fconst float 3.5) zero zero)) (init struct P (const int 7) zero (init "
         "float[3] (fconst float 1) (fconst float 2) zero)))\n");
  HAS(k, "constant int[6] arr = (init int[6] zero (const int 1) zero zero (const int 4) (const "
         "int 5))\n");
  HAS(k, "decl struct P q = (init struct P zero zero (init float[3] zero (fconst float 2) zero))");
  HAS(k, "decl int[4] z = (init int[4] (const int 1) zero (const int 2) (const int 3))");
  HAS(k, "decl struct __anon1 s = (init struct __anon1 (init int[2] (const int 1) zero) (const "
         "int 3))");
}
END_TEST

START_TEST(constant_globals) {
  char *k = kir("constant float coef[4] = {1, 2.5f, -3};\n"
                "__constant__ int table[2][2] = {{1, 2}, {3}};\n"
                "const int N = 4 * 8;\n"
                "static const double half = 1 / 2.0;\n"
                "constant unsigned char bytes[3] = {255, 0x100 - 1, -1};\n"
                "constant struct { int a; float b; } pair = {1, 2};\n"
                "constant int zeroed[2];\n"
                "kernel void k(float *out) {\n"
                "  out[0] = coef[1] + table[1][0] + N + half + bytes[0] + pair.b + zeroed[1];\n"
                "}\n");
  HAS(k, "constant float[4] coef = (init float[4] (fconst float 1) (fconst float 2.5) (fconst "
         "float -3) zero)\n");
  HAS(k, "constant int[2][2] table = (init int[2][2] (init int[2] (const int 1) (const int 2)) "
         "(init int[2] (const int 3) zero))\n");
  HAS(k, "constant int N = (const int 32)\n");
  HAS(k, "constant double half = (fconst double 0.5)\n");
  HAS(k, "constant unsigned char[3] bytes = (init unsigned char[3] (const unsigned char 255) "
         "(const unsigned char 255) (const unsigned char 255))\n");
  HAS(k, "constant struct __anon1 pair = (init struct __anon1 (const int 1) (fconst float 2))\n");
  HAS(k, "constant int[2] zeroed host-filled\n");
  HAS(k, "(index float (decay constant float * (gvar coef)) (const int 1))");
  HAS(k, "(index int (decay constant int * (index int[2] (decay constant int[2] * (gvar table)) "
         "(const int 1))) (const int 0))");
  HAS(k, "(gvar N)");
}
END_TEST

START_TEST(address_spaces) {
  char *k = kir("static void set(int *p, int v) { *p = v; }\n"
                "kernel void k(int *g, int **pp) {\n"
                "  int x = 0;\n"
                "  int arr[4];\n"
                "  __shared__ int s[4];\n"
                "  set(&x, 1);\n"
                "  int *pa = arr;\n"
                "  set(pa, 2);\n"
                "  set(&s[1], 3);\n"
                "  set(g, x + arr[0] + s[0]);\n"
                "  *pp[0] = 1;\n"
                "}\n");
  HAS(k, "void k(global int * g, ");
  HAS(k, "(addr private int * (var x))");
  HAS(k, "decl private int * pa = (decay private int * (var arr))");
  HAS(k, "(addr shared int * (index int (decay shared int * (gvar s)) (const int 1)))");
}
END_TEST

START_TEST(folded_array_bounds) {
  /* C calls these variable length arrays; CUDA code writes them everywhere. */
  char *k = kir("const int TILE = 16;\n"
                "kernel void k(float *p) {\n"
                "  const int n = 4;\n"
                "  float a[n][2];\n"
                "  shared float s[TILE][TILE + 1];\n"
                "  a[1][0] = 1;\n"
                "  s[0][1] = a[1][0];\n"
                "  float *row = s[2];\n"
                "  p[0] = s[0][1] + row[0] + *s[1];\n"
                "}\n");
  /* C's float[16][17]: an array of 16 rows of 17 (checked on the types, not the spelling). */
  KModule *m = tu_compile(NULL,
                          "const int TILE = 16;\n"
                          "kernel void k(float *p) { const int n = 4; float a[n][2];\n"
                          "  shared float s[TILE][TILE + 1]; a[0][0] = 1; s[0][0] = a[0][0];\n"
                          "  p[0] = s[0][0]; }\n",
                          NULL);
  ck_assert_ptr_nonnull(m);
  KVar *sv = NULL;
  for (int i = 0; i < m->globals.n; i++)
    if (!strcmp(((KVar *)m->globals.v[i])->name, "s")) sv = m->globals.v[i];
  ck_assert_ptr_nonnull(sv);
  ck_assert_int_eq(sv->type->len, 16);
  ck_assert_int_eq(sv->type->base->len, 17);
  KStmt *decl = ((KFunc *)m->funcs.v[0])->body->list.v[1];
  ck_assert_int_eq(decl->var->type->len, 4);
  ck_assert_int_eq(decl->var->type->base->len, 2);
  HAS(k, "(assign float (index float (decay private float * (index float[2] (decay private "
         "float[2] * (var a)) (const int 1))) (const int 0)) (fconst float 1))");
  HAS(k, "(decay shared float * (index float[17] (decay shared float[17] * (gvar s)) (const int "
         "2)))");
}
END_TEST

START_TEST(array_parameters) {
  char *k = kir("static float first(const float v[4]) { return v[0]; }\n"
                "kernel void k(float a[16], float out[]) {\n"
                "  a[1] = 2;\n"
                "  out[0] = first(a) + *(a + 1);\n"
                "}\n");
  HAS(k, "void k(global float * a, global float * out)");
  HAS(k, "(assign float (index float (var a) (const int 1)) (fconst float 2))");
  HAS(k, "(call first float (ptrcast global const float * (var a)))");
  HAS(k, "(deref float (ptradd global float * (var a) (const int 1)))");
  HAS(k, "float first(global const float * v)");
}
END_TEST

START_TEST(device_functions) {
  char *k = kir("int twice(int x);\n"
                "static inline float sq(float x) { return x * x; }\n"
                "__device__ void store(float *p, float v) { *p = v; }\n"
                "kernel void k(float *out) { store(out, sq(2) + twice(3)); }\n"
                "int twice(int x) { return 2 * x; }\n");
  HAS(k, "float sq(float x)\n");
  HAS(k, "(call store void (var out) (add float (call sq float (fconst float 2)) (itof float "
         "(call twice int (const int 3)))))");
  HAS(k, "int twice(int x)\n{\n  return (mul int (const int 2) (var x))");
  KModule *m = tu_compile(NULL,
                          "static inline float sq(float x) { return x * x; }\n"
                          "inline int one(void) { return 1; }\n"
                          "__device__ static int two(void) { return 2; }\n"
                          "kernel void k(float *out) { out[0] = sq(2) + one() + two(); }\n",
                          NULL);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(m->funcs.n, 4);
  KFunc *sq = m->funcs.v[0], *one = m->funcs.v[1], *two = m->funcs.v[2], *kf = m->funcs.v[3];
  ck_assert(sq->is_static && sq->is_inline && !sq->is_kernel);
  ck_assert(!one->is_static && one->is_inline);
  ck_assert(two->is_static && !two->is_inline);
  ck_assert(kf->is_kernel && !kf->is_static);
  ck_assert_str_eq(kir_type_str(sq->ret), "float");
}
END_TEST

START_TEST(locations) {
  char *diags;
  KModule *m = tu_compile("loc.k",
                          "kernel void k(int *p) {\n"
                          "  int x =\n"
                          "      p[0] + 1;\n"
                          "}\n",
                          &diags);
  ck_assert_msg(m, "%s", diags);
  KFunc *f = m->funcs.v[0];
  ck_assert_int_eq(f->loc.line, 1);
  ck_assert_int_eq(f->loc.col, 13);
  ck_assert_ptr_nonnull(strstr(f->loc.file, "loc.k"));
  ck_assert_int_eq(f->params[0]->loc.line, 1);
  ck_assert_int_eq(f->params[0]->loc.col, 20);
  KStmt *d = f->body->list.v[0];
  ck_assert_int_eq(d->kind, KS_DECL);
  ck_assert_int_eq(d->var->loc.line, 2);
  ck_assert_int_eq(d->var->loc.col, 7);
  ck_assert_int_eq(d->init->loc.line, 3);
  ck_assert_int_eq(d->init->a->loc.line, 3);
  ck_assert_int_eq(d->init->a->loc.col, 7);
}
END_TEST

/* ---------------------------------------------------------------- clang's diagnostics */

/* Diagnostics with the temporary directory removed from file names. The result is valid until
 * the next call, which frees it (a test uses each one in a single assertion). */
static char *strip_dir(char *s) {
  static char *last; /* reachable, so LeakSanitizer does not count the final one */
  char dir[256];
  snprintf(dir, sizeof dir, "%s/", tu_tmpdir());
  size_t n = strlen(dir);
  free(last);
  char *out = last = malloc(strlen(s) + 1), *o = out;
  for (const char *p = s; *p;) {
    if (strncmp(p, dir, n) == 0)
      p += n;
    else
      *o++ = *p++;
  }
  *o = 0;
  return out;
}

START_TEST(clang_errors_forwarded) {
  char *diags;
  ck_assert_ptr_null(tu_compile(NULL, "kernel void k(int *p) { p[0] = 1 }\n", &diags));
  ck_assert_str_eq(strip_dir(diags), "t.k:1:33: error: expected ';' after expression\n"
                                     "kernel void k(int *p) { p[0] = 1 }\n"
                                     "                                ^\n");
  ck_assert_ptr_null(tu_compile(NULL, "kernel void k(int *p) {\n  p[0] = foo;\n}\n", &diags));
  ck_assert_str_eq(strip_dir(diags), "t.k:2:10: error: use of undeclared identifier 'foo'\n"
                                     "  p[0] = foo;\n"
                                     "         ^\n");
  /* Macro-expanded code is reported where the macro is used. */
  ck_assert_ptr_null(
      tu_compile(NULL, "#define BAD(x) x = \"s\"\nkernel void k(int *p) { BAD(p[0]); }\n", &diags));
  ck_assert_msg(strstr(strip_dir(diags), "t.k:2:25: error: incompatible pointer to integer "
                                         "conversion assigning to 'int' from 'char[2]'"),
                "%s", diags);
}
END_TEST

START_TEST(clang_warnings_stay_warnings) {
  char *diags;
  KModule *m = tu_compile(NULL, "kernel void k(int *p) { int x; p[0] = 1.5; }\n", &diags);
  ck_assert_ptr_nonnull(m);
  ck_assert_msg(strstr(strip_dir(diags),
                       "t.k:1:39: warning: implicit conversion from 'double' to 'int' changes "
                       "value from 1.5 to 1 [-Wliteral-conversion]\n"),
                "%s", diags);
  diag_set_werror(true);
  m = tu_compile(NULL, "kernel void k(int *p) { p[0] = 1.5; }\n", &diags);
  diag_set_werror(false);
  ck_assert_ptr_null(m);
  ck_assert_msg(strstr(diags, "t.k:1:32: error: implicit conversion"), "%s", diags);
}
END_TEST

START_TEST(options_and_deps) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "mkdir -p %s/finc", tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  tu_write("finc/k.h", "#include \"k2.h\"\n#define SCALE 3\n");
  tu_write("finc/k2.h", "#define OFFSET 1\n");
  char *path = tu_write("opt.k", "#include <k.h>\n#include <math.h>\n"
                                 "kernel void k(int *p) { p[0] = SCALE * OFFSET * FACTOR;\n"
                                 "#ifdef GONE\n#error gone\n#endif\n}\n");
  char inc[512];
  snprintf(inc, sizeof inc, "-I%s/finc", tu_tmpdir());
  const char *args[] = {inc, "-DFACTOR=5", "-D", "GONE", "-UGONE"};
  KOptions o;
  kcc_options_default(&o);
  o.cargs = args;
  o.ncargs = 5;
  KList deps = {0};
  diag_reset();
  KModule *m = frontend_parse(path, &o, &deps);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(deps.n, 2);
  ck_assert_ptr_nonnull(strstr(deps.v[0], "finc/k.h"));
  ck_assert_ptr_nonnull(strstr(deps.v[1], "finc/k2.h"));
  for (int i = 0; i < deps.n; i++) ck_assert_ptr_null(strstr(deps.v[i], "__kcc__"));
  KStmt *s = ((KFunc *)m->funcs.v[0])->body->list.v[0];
  ck_assert_int_eq(s->expr->b->kind, KE_BINARY);
}
END_TEST

/* ---------------------------------------------------------------- robustness */

START_TEST(empty_and_declarations_only) {
  char *diags;
  KModule *m = tu_compile(NULL, "", &diags);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(m->funcs.n, 0);
  ck_assert_str_eq(diags, "");
  m = tu_compile(NULL, "// nothing\nstruct S { int a; };\ntypedef int T;\nvoid f(void);\n", &diags);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(m->funcs.n, 0);
}
END_TEST

START_TEST(missing_file) {
  char *path = malloc(strlen(tu_tmpdir()) + 32);
  sprintf(path, "%s/no-such.k", tu_tmpdir());
  KOptions o;
  kcc_options_default(&o);
  diag_reset();
  ck_assert_ptr_null(frontend_parse(path, &o, NULL));
  ck_assert_int_eq(diag_error_count(), 1);
  diag_reset();
  ck_assert_ptr_null(frontend_parse(tu_tmpdir(), &o, NULL)); /* a directory */
  ck_assert_int_eq(diag_error_count(), 1);
  /* What the user sees, through the driver. */
  char cmd[512], *err;
  snprintf(cmd, sizeof cmd, "cd %s && %s no-such.k -o x.ptx", tu_tmpdir(), tu_kcc());
  ck_assert_int_eq(tu_sh(cmd, NULL, &err), 1);
  ck_assert_str_eq(err, "kcc: error: cannot open 'no-such.k': No such file or directory\n");
  free(path);
}
END_TEST

START_TEST(binary_junk) {
  char junk[4096];
  unsigned x = 12345;
  for (size_t i = 0; i < sizeof junk - 1; i++) {
    x = x * 1103515245u + 12345u;
    junk[i] = (char)((x >> 16) & 0xff);
    if (!junk[i]) junk[i] = 1;
  }
  junk[sizeof junk - 1] = 0;
  char *diags;
  ck_assert_ptr_null(tu_compile("junk.k", junk, &diags));
  ck_assert_ptr_nonnull(strstr(diags, "error:"));
  /* clang's error limit keeps the output bounded. */
  ck_assert_int_lt((int)strlen(diags), 20000);
}
END_TEST

#ifdef __SANITIZE_ADDRESS__
/* LeakSanitizer, for this program only. deep_nesting overflows the parse thread's stack on
 * purpose: frontend/parse.c then siglongjmps out of clang_parseTranslationUnit2 and abandons the
 * half-built translation unit, which only clang's dead stack frames pointed to. That memory can
 * never be freed by design, and it is the only leak suppressed here.
 *
 * libclang and libLLVM have no frame pointers, so the default unwinder stops at their first
 * frame and those leaks could only be matched by library name, which would hide any libclang
 * object kcc forgot to dispose of. Full unwinding lets the suppression name the entry point
 * instead: what clang_parseTranslationUnit2 allocated is owned by the translation unit, which
 * parse.c always disposes of otherwise (a translation unit it forgot would still fail every
 * test that runs the kcc binary, where this suppression does not apply). Full unwinding costs
 * a few seconds here; ASAN_OPTIONS from the environment still take precedence. */
const char *__asan_default_options(void) {
  return "fast_unwind_on_malloc=0";
}
const char *__lsan_default_suppressions(void) {
  return "leak:clang_parseTranslationUnit2\n";
}
#endif

START_TEST(deep_nesting) {
  static const char *ops[] = {"x + ", "- ", "x = ", "!", "(int)", "x ? 1 : "};
  for (size_t o = 0; o < sizeof ops / sizeof *ops; o++) {
    size_t n = 5000, ol = strlen(ops[o]);
    char *src = malloc(n * ol + 256);
    char *p = src + sprintf(src, "kernel void k(int *q) { int x = 1; q[0] = ");
    for (size_t i = 0; i < n; i++, p += ol) memcpy(p, ops[o], ol);
    strcpy(p, "x; }\n");
    char *diags;
    ck_assert_ptr_null(tu_compile("deep.k", src, &diags));
    ck_assert_msg(strstr(diags, "error: expression nesting too deep"), "%s: %.2000s", ops[o],
                  diags);
    free(src);
  }
  /* Parentheses: clang's own bracket limit. */
  char *src = malloc(20000);
  char *p = src + sprintf(src, "kernel void k(int *q) { q[0] = ");
  for (int i = 0; i < 5000; i++) *p++ = '(';
  *p++ = '1';
  for (int i = 0; i < 5000; i++) *p++ = ')';
  strcpy(p, "; }\n");
  char *diags;
  ck_assert_ptr_null(tu_compile("paren.k", src, &diags));
  ck_assert_ptr_nonnull(strstr(diags, "bracket nesting level exceeded"));
  free(src);
  /* A nesting well past the parser's stack is reported, not a crash. */
  size_t n = 2000000;
  char *big = malloc(2 * n + 256);
  p = big + sprintf(big, "kernel void k(int *q) { int x = 1; q[0] = ");
  for (size_t i = 0; i < n; i++) *p++ = '-', *p++ = ' ';
  strcpy(p, "x; }\n");
  ck_assert_ptr_null(tu_compile("deeper.k", big, &diags));
  ck_assert_msg(strstr(diags, "deeper.k: error: expression nesting too deep"), "%.2000s", diags);
  free(big);
  /* Moderate nesting is fine. */
  src = malloc(20000);
  p = src + sprintf(src, "kernel void k(int *q) { int x = 1; q[0] = ");
  for (int i = 0; i < 300; i++) p += sprintf(p, "x + ");
  strcpy(p, "x; }\n");
  ck_assert_ptr_nonnull(tu_compile("fine.k", src, &diags));
  free(src);
}
END_TEST

START_TEST(big_file) {
  size_t target = 10u << 20;
  char *src = malloc(target + 4096);
  size_t n = 0;
  int i = 0;
  while (n < target - 200) {
    if (i % 50 == 0)
      n += (size_t)sprintf(src + n, "static int f%d(int x) { return x * %d + 1; }\n", i, i);
    else
      n += (size_t)sprintf(src + n, "// padding line %d ..................................\n", i);
    i++;
  }
  n += (size_t)sprintf(src + n, "kernel void k(int *p) { p[0] = f0(p[1]) + f50(2); }\n");
  char *diags;
  KModule *m = tu_compile("big.k", src, &diags);
  ck_assert_msg(m, "%.2000s", diags);
  ck_assert_int_gt(m->funcs.n, 1);
  free(src);
}
END_TEST

START_TEST(many_parses) {
  /* The front end holds no state between compilations (tests call it many times). */
  for (int i = 0; i < 20; i++) {
    char *diags;
    ck_assert_ptr_nonnull(tu_compile(NULL, "kernel void k(int *p) { p[0] = 1; }\n", &diags));
    ck_assert_ptr_null(tu_compile(NULL, "kernel int k(int *p) { return 1; }\n", &diags));
  }
}
END_TEST

/* ---------------------------------------------------------------- vectors (<kcc_vector.h>) */

START_TEST(vector_swizzles_and_literals) {
  char *k = kir("#include <kcc_vector.h>\n"
                "kernel void k(float4 *o, float3 *t) {\n"
                "  float4 v = (float4){1, 2, 3, 4};\n"
                "  float3 w = t[0];\n"
                "  float2 a = v.lo + v.hi + v.even + v.odd + w.hi + w.odd + o->zx + v.s31;\n"
                "  float b = v.w + v[2] + v.S3;\n"
                "  v.xy = a.yx;\n"
                "  v.z += b;\n"
                "  o[1].s03 = a;\n"
                "  float4 c = {b, b};\n"
                "  o[0] = v + c;\n"
                "}\n");
  HAS(k, "  decl float4 v = (veclit float4 (fconst float 1) (fconst float 2) (fconst float 3) "
         "(fconst float 4))\n");
  HAS(k,
      "  decl float2 a = (add float2 (add float2 (add float2 (add float2 (add float2 (add float2 "
      "(add float2 (swizzle .s01 float2 (var v)) (swizzle .s23 float2 (var v))) (swizzle .s02 "
      "float2 (var v))) (swizzle .s13 float2 (var v))) (swizzle .s22 float2 (var w))) (swizzle "
      ".s12 float2 (var w))) (swizzle .s20 float2 (deref float4 (var o)))) (swizzle .s31 float2 "
      "(var v)))\n");
  HAS(k,
      "  decl float b = (add float (add float (swizzle .s3 float (var v)) (swizzle .s2 float (var "
      "v))) (swizzle .s3 float (var v)))\n");
  HAS(k, "  (assign float2 (swizzle .s01 float2 (var v)) (swizzle .s10 float2 (var a)))\n");
  HAS(k, "  (assign-add float [float] (swizzle .s2 float (var v)) (var b))\n");
  HAS(k, "  (assign float2 (swizzle .s03 float2 (index float4 (var o) (const int 1))) (var a))\n");
  HAS(k, "  decl float4 c = (veclit float4 (var b) (var b) (fconst float 0) (fconst float 0))\n");
  free(k);
}
END_TEST

START_TEST(vector_operators) {
  char *k = kir("#include <kcc_vector.h>\n"
                "kernel void k(int4 *p, float4 *f, int n, float s) {\n"
                "  int4 a = p[0], b = p[1];\n"
                "  p[2] = a * 2 + b / a - b % a;\n"
                "  p[3] = (a & b) | (a ^ ~b);\n"
                "  p[4] = a << 3;\n"
                "  p[5] = a >> n;\n"
                "  a <<= b;\n"
                "  p[6] = a < b;\n"
                "  p[7] = !a;\n"
                "  p[8] = a && b;\n"
                "  p[9] = a || n;\n"
                "  p[10] = -a;\n"
                "  f[0] = a < b ? f[1] : s;\n"
                "  double4 d = 0;\n"
                "  long4 m = d == 1.0;\n"
                "  f[2] *= s;\n"
                "  p[11] = (int4)f[3];\n"
                "  (void)m;\n"
                "}\n");
  HAS(k, "(assign int4 (index int4 (var p) (const int 2)) (sub int4 (add int4 (mul int4 (var a) "
         "(splat int4 (const int 2))) (div int4 (var b) (var a))) (rem int4 (var b) (var a))))\n");
  HAS(k, "(or int4 (and int4 (var a) (var b)) (xor int4 (var a) (not int4 (var b))))");
  HAS(k, "(shl int4 (var a) (splat int4 (const int 3)))");
  HAS(k, "(shr int4 (var a) (and int4 (splat int4 (var n)) (splat int4 (const int 31))))");
  HAS(k, "(assign-shl int4 [int4] (var a) (and int4 (var b) (splat int4 (const int 31))))");
  HAS(k, "(assign int4 (index int4 (var p) (const int 6)) (lt int4 (var a) (var b)))");
  HAS(k, "(assign int4 (index int4 (var p) (const int 7)) (eq int4 (var a) (splat int4 (const int "
         "0))))");
  HAS(k, "(assign int4 (index int4 (var p) (const int 8)) (and int4 (ne int4 (var a) (splat int4 "
         "(const int 0))) (ne int4 (var b) (splat int4 (const int 0)))))");
  HAS(k, "(assign int4 (index int4 (var p) (const int 9)) (or int4 (ne int4 (var a) (splat int4 "
         "(const int 0))) (ne int4 (splat int4 (var n)) (splat int4 (const int 0)))))");
  HAS(k, "(neg int4 (var a))");
  HAS(k, "(assign float4 (index float4 (var f) (const int 0)) (builtin select float4 (splat float4 "
         "(var s)) (index float4 (var f) (const int 1)) (ne int4 (lt int4 (var a) (var b)) (splat "
         "int4 (const int 0)))))");
  HAS(k, "  decl double4 d = (splat double4 (fconst double 0))\n");
  HAS(k, "  decl long4 m = (eq long4 (var d) (splat double4 (fconst double 1)))\n");
  HAS(k, "(assign-mul float4 [float4] (index float4 (var f) (const int 2)) (splat float4 (var "
         "s)))");
  HAS(k, "(bitcast int4 (index float4 (var f) (const int 3)))");
  free(k);
}
END_TEST

START_TEST(vector_builtins) {
  char *k = kir("#include <kcc_vector.h>\n"
                "kernel void k(const float *in, float *out, int4 *p, uint *u, float4 *f) {\n"
                "  float4 v = vload4(1, in);\n"
                "  vstore3(v.xyz, 2, out);\n"
                "  p[0] = convert_int4(v);\n"
                "  p[1] = convert_int4_sat_rtn(v);\n"
                "  p[2] = convert_int4_rte(v) + convert_int4_sat(convert_uint4(v));\n"
                "  f[0] = convert_float4(p[3]) + as_float4(p[4]) + as_float(u[0]);\n"
                "  p[5] = isnan(v) + popcount(p[6]) + clz(p[6]) + mul_hi(p[6], 3) + min(p[6], 1);\n"
                "  u[1] = as_uint(v.x);\n"
                "  f[1] = sqrt(v) + fma(v, v, 1.0f) + select(v, f[2], p[7]);\n"
                "  uint4 a = abs(p[8]);\n"
                "  p[9] = as_int4(a);\n"
                "}\n");
  HAS(k, "  decl float4 v = (builtin vload float4 (const unsigned long 1) (var in))\n");
  HAS(k, "  (builtin vstore void (swizzle .s012 float3 (var v)) (const unsigned long 2) (var "
         "out))\n");
  HAS(k, "(assign int4 (index int4 (var p) (const int 0)) (ftoi int4 (var v)))");
  HAS(k, "(assign int4 (index int4 (var p) (const int 1)) (builtin convert_sat int4 (builtin "
         "floor float4 (var v))))");
  HAS(k, "(add int4 (ftoi int4 (builtin rint float4 (var v))) (builtin convert_sat int4 (ftoi "
         "uint4 (var v))))");
  HAS(k, "(add float4 (add float4 (itof float4 (index int4 (var p) (const int 3))) (bitcast float4 "
         "(index int4 (var p) (const int 4)))) (splat float4 (bitcast float (index unsigned int "
         "(var u) (const int 0)))))");
  HAS(k, "(builtin isnan int4 (var v))");
  HAS(k, "(builtin popcount int4 (index int4 (var p) (const int 6)))");
  HAS(k, "(builtin clz int4 (index int4 (var p) (const int 6)))");
  HAS(k, "(builtin mul_hi int4 (index int4 (var p) (const int 6)) (splat int4 (const int 3)))");
  HAS(k, "(builtin min int4 (index int4 (var p) (const int 6)) (splat int4 (const int 1)))");
  HAS(k, "(bitcast unsigned int (swizzle .s0 float (var v)))");
  HAS(k, "(builtin sqrt float4 (var v))");
  HAS(k, "(builtin fma float4 (var v) (var v) (splat float4 (fconst float 1)))");
  HAS(k, "(builtin select float4 (var v) (index float4 (var f) (const int 2)) (index int4 (var p) "
         "(const int 7)))");
  HAS(k, "  decl uint4 a = (nop uint4 (builtin abs int4 (index int4 (var p) (const int 8))))\n");
  free(k);
}
END_TEST

START_TEST(vector_derived_functions) {
  char *k = kir("#include <kcc_vector.h>\n"
                "kernel void k(float4 *f, int4 *p) {\n"
                "  f[0] = clamp(f[1], 0.0f, 1.0f) * dot(f[2], f[3]);\n"
                "  p[0] = any(p[1]) + rotate(p[2], p[3]);\n"
                "}\n");
  HAS(k, "(call __kcc_clamp_float4_float_float float4 (index float4 (var f) (const int 1)) (fconst "
         "float 0) (fconst float 1))");
  HAS(k, "(call __kcc_dot_float4_float4 float (index float4 (var f) (const int 2)) (index float4 "
         "(var f) (const int 3)))");
  HAS(k, "static inline float4 __kcc_clamp_float4_float_float(float4 x, float lo, float hi)\n"
         "{\n"
         "  return (builtin fmin float4 (builtin fmax float4 (var x) (splat float4 (var lo))) "
         "(splat float4 (var hi)))\n"
         "}\n");
  HAS(k, "static inline float __kcc_dot_float4_float4(float4 a, float4 b)\n");
  HAS(k, "static inline int __kcc_any_int4(int4 x)\n");
  HAS(k, "static inline int4 __kcc_rotate_int4_int4(int4 v, int4 i)\n");
  /* Only what is called is lowered. */
  HASNT(k, "__kcc_cross");
  HASNT(k, "__kcc_clamp_float4_float4_float4");
  free(k);
}
END_TEST

START_TEST(vector_constants_and_macros) {
  char *k = kir("#include <kcc_vector.h>\n"
                "#define SW(v) v.zy\n"
                "#define DOT2(a, b) ((a).x * (b).x + (a).y * (b).y)\n"
                "constant float4 c = (float4){1, 2, 3, 4};\n"
                "constant int2 t[2] = {{1, 2}, {3, 4}};\n"
                "kernel void k(float2 *o, shared float *loc) {\n"
                "  o[0] = SW(c) + DOT2(o[1], c) + (float)t[1].y + loc[0];\n"
                "}\n");
  HAS(k, "constant float4 c = (init float4 (fconst float 1) (fconst float 2) (fconst float 3) "
         "(fconst float 4))\n");
  HAS(k, "constant int2[2] t = (init int2[2] (init int2 (const int 1) (const int 2)) (init int2 "
         "(const int 3) (const int 4)))\n");
  HAS(k, "kernel void k(global float2 * o, shared float * loc)\n");
  HAS(k, "(swizzle .s21 float2 (gvar c))");
  HAS(k, "(mul float (swizzle .s0 float (index float2 (var o) (const int 1))) (swizzle .s0 float "
         "(gvar c)))");
  HAS(k, "(swizzle .s1 int (index int2 (decay constant int2 * (gvar t)) (const int 1)))");
  free(k);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("frontend");
  TCase *t = tcase_create("lowering");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, vecadd);
  tcase_add_test(t, saxpy);
  tcase_add_test(t, conversions);
  tcase_add_test(t, pointer_arithmetic);
  tcase_add_test(t, structs);
  tcase_add_test(t, struct_names);
  tcase_add_test(t, control_flow);
  tcase_add_test(t, switch_cases_collected);
  tcase_add_test(t, shared_memory);
  tcase_add_test(t, builtins);
  tcase_add_test(t, prelude_types_and_helpers);
  tcase_add_test(t, cuda_intrinsics);
  tcase_add_test(t, builtin_ids);
  tcase_add_test(t, printf_args);
  tcase_add_test(t, constants);
  tcase_add_test(t, initializers);
  tcase_add_test(t, designated_initializers);
  tcase_add_test(t, constant_globals);
  tcase_add_test(t, address_spaces);
  tcase_add_test(t, folded_array_bounds);
  tcase_add_test(t, array_parameters);
  tcase_add_test(t, device_functions);
  tcase_add_test(t, locations);
  tcase_add_test(t, vector_swizzles_and_literals);
  tcase_add_test(t, vector_operators);
  tcase_add_test(t, vector_builtins);
  tcase_add_test(t, vector_derived_functions);
  tcase_add_test(t, vector_constants_and_macros);
  suite_add_tcase(s, t);
  TCase *d = tcase_create("diagnostics");
  tcase_set_timeout(d, 60);
  tcase_add_test(d, clang_errors_forwarded);
  tcase_add_test(d, clang_warnings_stay_warnings);
  tcase_add_test(d, options_and_deps);
  suite_add_tcase(s, d);
  TCase *r = tcase_create("robustness");
  tcase_set_timeout(r, 120);
  tcase_add_test(r, empty_and_declarations_only);
  tcase_add_test(r, missing_file);
  tcase_add_test(r, binary_junk);
  tcase_add_test(r, deep_nesting);
  tcase_add_test(r, big_file);
  tcase_add_test(r, many_parses);
  suite_add_tcase(s, r);
  return s;
}

int main(void) {
  return tu_main(suite());
}
