/* test_spirv.c — the SPIR-V back end: the module builder's building blocks (header words, id
 * allocation, type/constant de-duplication, strings, sections, validation) and the lowering
 * of kernels compiled from source (what each construct becomes, checked on spirv-dis text,
 * and that every module passes SPIRV-Tools). */
#define _GNU_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spirv_module.h"

/* ---------------------------------------------------------------- module builder */

START_TEST(header_words) {
  SpvModule m;
  spv_module_init(&m);
  uint32_t a = spv_id(&m), b = spv_id(&m);
  ck_assert_uint_eq(a, 1);
  ck_assert_uint_eq(b, 2);
  size_t n = 0;
  uint32_t *w = spv_finish(&m, &n);
  ck_assert_uint_eq(n, 5);
  ck_assert_uint_eq(w[0], 0x07230203u); /* magic */
  ck_assert_uint_eq(w[1], 0x00010000u); /* SPIR-V 1.0 */
  ck_assert_uint_eq(w[2], SPV_GENERATOR_KCC);
  ck_assert_uint_eq(w[3], 3); /* bound: one past the largest id */
  ck_assert_uint_eq(w[4], 0); /* schema */
  free(w);
  spv_module_free(&m);
}
END_TEST

START_TEST(instruction_encoding) {
  SpvWords b = {0};
  uint32_t ops[2] = {7, 9};
  spw_inst(&b, SpvOpIAdd, ops, 2);
  ck_assert_uint_eq(b.n, 3);
  ck_assert_uint_eq(b.w[0], (3u << 16) | SpvOpIAdd); /* word count in the high half */
  ck_assert_uint_eq(b.w[1], 7);
  spw_free(&b);

  /* Strings: NUL-terminated, little-endian within each word, padded to a whole word. */
  spw_string(&b, "abc");
  ck_assert_uint_eq(b.n, 1);
  ck_assert_uint_eq(b.w[0], 0x00636261u);
  spw_free(&b);
  spw_string(&b, "abcd");
  ck_assert_uint_eq(b.n, 2);
  ck_assert_uint_eq(b.w[0], 0x64636261u);
  ck_assert_uint_eq(b.w[1], 0);
  ck_assert_int_eq(spw_string_words(""), 1);
  spw_free(&b);
}
END_TEST

START_TEST(types_are_unique) {
  SpvModule m;
  spv_module_init(&m);
  uint32_t i32 = spv_type_int(&m, 32);
  ck_assert_uint_eq(spv_type_int(&m, 32), i32);
  uint32_t i64 = spv_type_int(&m, 64);
  ck_assert_uint_ne(i64, i32);
  uint32_t f32 = spv_type_float(&m, 32);
  ck_assert_uint_ne(f32, i32);
  uint32_t p1 = spv_type_ptr(&m, SpvStorageClassCrossWorkgroup, f32);
  ck_assert_uint_eq(spv_type_ptr(&m, SpvStorageClassCrossWorkgroup, f32), p1);
  ck_assert_uint_ne(spv_type_ptr(&m, SpvStorageClassWorkgroup, f32), p1);
  uint32_t params[2] = {p1, i32};
  uint32_t fn = spv_type_func(&m, spv_type_void(&m), params, 2);
  ck_assert_uint_eq(spv_type_func(&m, spv_type_void(&m), params, 2), fn);
  ck_assert_uint_ne(spv_type_func(&m, spv_type_void(&m), params, 1), fn);
  uint32_t arr = spv_type_array(&m, f32, 16);
  ck_assert_uint_eq(spv_type_array(&m, f32, 16), arr);
  ck_assert_uint_ne(spv_type_array(&m, f32, 17), arr);
  /* Structs are aggregates: equal members still make two types (two C structs). */
  uint32_t mem[2] = {f32, i32};
  ck_assert_uint_ne(spv_type_struct(&m, mem, 2), spv_type_struct(&m, mem, 2));
  spv_module_free(&m);
}
END_TEST

START_TEST(constants_are_unique) {
  SpvModule m;
  spv_module_init(&m);
  uint32_t c5 = spv_const_int(&m, 32, 5);
  ck_assert_uint_eq(spv_const_int(&m, 32, 5), c5);
  ck_assert_uint_ne(spv_const_int(&m, 64, 5), c5);
  ck_assert_uint_ne(spv_const_int(&m, 32, 6), c5);
  /* Only the type's bits count: 0x1ff as a char is 0xff. */
  ck_assert_uint_eq(spv_const_int(&m, 8, 0x1ff), spv_const_int(&m, 8, 0xff));
  ck_assert_uint_eq(spv_const_int(&m, 32, (uint64_t)-1), spv_const_int(&m, 32, 0xffffffffu));
  uint32_t h = spv_const_float(&m, 32, 0.5);
  ck_assert_uint_eq(spv_const_float(&m, 32, 0.5), h);
  ck_assert_uint_ne(spv_const_float(&m, 64, 0.5), h);
  /* +0.0 and -0.0 are different bits, so different constants. */
  ck_assert_uint_ne(spv_const_float(&m, 32, 0.0), spv_const_float(&m, 32, -0.0));
  ck_assert_uint_eq(spv_const_bool(&m, true), spv_const_bool(&m, true));
  ck_assert_uint_ne(spv_const_bool(&m, true), spv_const_bool(&m, false));
  uint32_t v = spv_type_int(&m, 32);
  ck_assert_uint_eq(spv_const_null(&m, v), spv_const_null(&m, v));
  /* Many distinct constants: the table grows and every one keeps its id. */
  uint32_t ids[5000];
  for (int i = 0; i < 5000; i++) ids[i] = spv_const_int(&m, 64, (uint64_t)i * 977);
  for (int i = 0; i < 5000; i++)
    ck_assert_uint_eq(spv_const_int(&m, 64, (uint64_t)i * 977), ids[i]);
  /* The 64-bit literal takes two words, low word first. */
  uint32_t big = spv_const_int(&m, 64, 0x1122334455667788ull);
  SpvWords *g = &m.sec[SPV_SEC_GLOBAL];
  bool found = false;
  for (size_t i = 0; i + 4 < g->n; i++)
    if (g->w[i] == ((5u << 16) | SpvOpConstant) && g->w[i + 2] == big) {
      ck_assert_uint_eq(g->w[i + 3], 0x55667788u);
      ck_assert_uint_eq(g->w[i + 4], 0x11223344u);
      found = true;
    }
  ck_assert(found);
  spv_module_free(&m);
}
END_TEST

START_TEST(capabilities_once) {
  SpvModule m;
  spv_module_init(&m);
  spv_type_int(&m, 8);
  spv_type_int(&m, 8);
  spv_type_int(&m, 16);
  spv_type_float(&m, 64);
  spv_capability(&m, SpvCapabilityKernel);
  spv_capability(&m, SpvCapabilityKernel);
  ck_assert(spv_has_capability(&m, SpvCapabilityInt8));
  ck_assert(spv_has_capability(&m, SpvCapabilityInt16));
  ck_assert(spv_has_capability(&m, SpvCapabilityFloat64));
  ck_assert(!spv_has_capability(&m, SpvCapabilityInt64Atomics));
  ck_assert_uint_eq(m.sec[SPV_SEC_CAPABILITY].n, 4 * 2); /* four OpCapability, two words each */
  spv_module_free(&m);
}
END_TEST

/* The smallest valid OpenCL kernel module, built through the API. */
static uint32_t *tiny_module(size_t *n, bool with_memory_model) {
  SpvModule m;
  spv_module_init(&m);
  spv_capability(&m, SpvCapabilityAddresses);
  spv_capability(&m, SpvCapabilityKernel);
  if (with_memory_model) {
    uint32_t mm[2] = {SpvAddressingModelPhysical64, SpvMemoryModelOpenCL};
    spv_emit(&m, SPV_SEC_MEMORY_MODEL, SpvOpMemoryModel, mm, 2);
  }
  uint32_t v = spv_type_void(&m), fty = spv_type_func(&m, v, NULL, 0);
  uint32_t f = spv_id(&m), l = spv_id(&m);
  SpvWords *e = &m.sec[SPV_SEC_ENTRY];
  spw_push(e, ((uint32_t)(3 + spw_string_words("k")) << 16) | SpvOpEntryPoint);
  spw_push(e, SpvExecutionModelKernel);
  spw_push(e, f);
  spw_string(e, "k");
  spv_name(&m, f, "k");
  uint32_t head[4] = {v, f, 0, fty};
  spv_emit(&m, SPV_SEC_FUNCTION, SpvOpFunction, head, 4);
  spv_emit(&m, SPV_SEC_FUNCTION, SpvOpLabel, &l, 1);
  spv_emit(&m, SPV_SEC_FUNCTION, SpvOpReturn, NULL, 0);
  spv_emit(&m, SPV_SEC_FUNCTION, SpvOpFunctionEnd, NULL, 0);
  uint32_t *w = spv_finish(&m, n);
  spv_module_free(&m);
  return w;
}

START_TEST(validation) {
  size_t n;
  char *msg = NULL;
  uint32_t *w = tiny_module(&n, true);
  ck_assert_msg(spv_validate(w, n, false, &msg), "valid module rejected: %s", msg);
  char *text = spv_disassemble(w, n);
  ck_assert_ptr_nonnull(text);
  ck_assert_ptr_nonnull(strstr(text, "OpEntryPoint Kernel %k \"k\""));
  free(text);
  free(w);
  w = tiny_module(&n, false);
  ck_assert(!spv_validate(w, n, false, &msg));
  ck_assert_ptr_nonnull(msg);
  ck_assert_msg(strstr(msg, "memory model") != NULL, "%s", msg);
  free(msg);
  free(w);
}
END_TEST

/* ---------------------------------------------------------------- kernels from source */

/* Compiles `src` as SPIR-V through the kcc binary; returns spirv-dis-style text (from
 * SPIRV-Tools in process) or NULL, with kcc's stderr in *err. */
static char *spirv_of(const char *src, const char *flags, char **err) {
  static int serial;
  char name[64], out[512], cmd[2048];
  snprintf(name, sizeof name, "s%d.k", serial++);
  char *path = tu_write(name, src);
  snprintf(out, sizeof out, "%s.spv", path);
  unlink(out);
  snprintf(cmd, sizeof cmd, "'%s' %s '%s' -o '%s'", tu_kcc(), flags ? flags : "", path, out);
  int rc = tu_sh(cmd, NULL, err);
  size_t len = 0;
  char *bin = tu_read(out, &len);
  if (rc != 0) {
    ck_assert_msg(bin == NULL, "kcc failed but wrote %s", out);
    return NULL;
  }
  ck_assert_ptr_nonnull(bin);
  ck_assert_uint_eq(len % 4, 0);
  char *msg = NULL;
  ck_assert_msg(spv_validate((uint32_t *)bin, len / 4, true, &msg), "invalid: %s", msg);
  char *text = spv_disassemble((uint32_t *)bin, len / 4);
  free(bin);
  return text;
}

static char *must_compile(const char *src, const char *flags) {
  char *err = NULL;
  char *text = spirv_of(src, flags, &err);
  ck_assert_msg(text != NULL, "kcc failed:\n%s", err ? err : "");
  ck_assert_msg(!err || !*err, "kcc printed:\n%s", err);
  free(err);
  return text;
}

/* Check's messages are limited to a few kilobytes: show the start of the module. */
#define HAS(text, s)                                                                               \
  ck_assert_msg(strstr((text), (s)) != NULL, "missing '%s' in:\n%.3000s", (s), (text))
#define LACKS(text, s)                                                                             \
  ck_assert_msg(strstr((text), (s)) == NULL, "unexpected '%s' in:\n%.3000s", (s), (text))

START_TEST(kernel_interface) {
  char *t = must_compile(
      "kernel void k(const float *restrict a, float *restrict b, const int *c, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) b[i] = a[i] + c[i] + gridDim.y;\n"
      "}\n",
      NULL);
  HAS(t, "OpCapability Addresses");
  HAS(t, "OpCapability Kernel");
  HAS(t, "OpMemoryModel Physical64 OpenCL");
  HAS(t, "OpEntryPoint Kernel %k \"k\"");
  HAS(t, "OpSource OpenCL_C 102000");
  HAS(t, "OpDecorate %a FuncParamAttr NoAlias");
  HAS(t, "OpDecorate %a FuncParamAttr NoWrite");
  HAS(t, "OpDecorate %b FuncParamAttr NoAlias");
  LACKS(t, "OpDecorate %b FuncParamAttr NoWrite");
  LACKS(t, "OpDecorate %c FuncParamAttr"); /* const alone promises nothing */
  HAS(t, "BuiltIn LocalInvocationId");
  HAS(t, "BuiltIn WorkgroupId");
  HAS(t, "BuiltIn WorkgroupSize");
  HAS(t, "BuiltIn NumWorkgroups");
  HAS(t, "OpDecorate %__spirv_BuiltInNumWorkgroups Constant");
  HAS(t, "OpVariable %_ptr_Input_v3ulong Input");
  HAS(t, "OpCompositeExtract %ulong"); /* gridDim.y: component 1 */
  HAS(t, "OpLine");
  HAS(t, "Aligned 4");
  HAS(t, "%_ptr_CrossWorkgroup_float");
  free(t);
}
END_TEST

START_TEST(c_semantics) {
  char *t = must_compile("kernel void k(int *o, unsigned *u, float *f, long *l) {\n"
                         "  o[0] = o[1] / o[2];\n"
                         "  o[3] = o[4] % o[5];\n"
                         "  u[0] = u[1] / u[2] + u[3] % u[4];\n"
                         "  o[6] = o[7] >> 3;\n"
                         "  u[5] = u[6] >> 3;\n"
                         "  o[8] = (int)f[0];\n"
                         "  u[7] = (unsigned)f[1];\n"
                         "  f[2] = (float)u[8] + (float)o[9];\n"
                         "  l[0] = o[10];\n"
                         "  l[1] = u[9];\n"
                         "  o[11] = f[3] != f[4];\n"
                         "  o[12] = f[5] < f[6];\n"
                         "  o[13] = u[10] < u[11];\n"
                         "}\n",
                         NULL);
  HAS(t, "OpSDiv %uint");
  HAS(t, "OpSRem %uint");
  HAS(t, "OpUDiv %uint");
  HAS(t, "OpUMod %uint");
  HAS(t, "OpShiftRightArithmetic");
  HAS(t, "OpShiftRightLogical");
  HAS(t, "OpConvertFToS %uint");
  HAS(t, "OpConvertFToU %uint");
  HAS(t, "OpConvertUToF %float");
  HAS(t, "OpConvertSToF %float");
  HAS(t, "OpSConvert %ulong");
  HAS(t, "OpUConvert %ulong");
  HAS(t, "OpFUnordNotEqual"); /* NaN != NaN is true */
  HAS(t, "OpFOrdLessThan");
  HAS(t, "OpULessThan");
  free(t);
}
END_TEST

START_TEST(control_flow) {
  char *t = must_compile(
      "kernel void k(int *o, int n) {\n"
      "  int s = 0;\n"
      "  for (int i = 0; i < n; i++) {\n"
      "    if (i == 3) continue;\n"
      "    if (i > 100) break;\n"
      "    switch (i & 3) { case 0: s += 1; break; case 1: s += 2; default: s += 3; }\n"
      "  }\n"
      "  while (s > 1000) s /= 2;\n"
      "  do { s++; } while (s < 10);\n"
      "  o[0] = (n > 0 && o[1] > 0) || n == -1;\n"
      "  o[2] = n ? s : -s;\n"
      "  return;\n"
      "  o[3] = 1;\n"
      "}\n",
      NULL);
  HAS(t, "OpSwitch");
  HAS(t, "OpPhi %bool");
  HAS(t, "OpPhi %uint");
  HAS(t, "OpBranchConditional");
  free(t);
}
END_TEST

START_TEST(memory_spaces_and_sync) {
  char *t = must_compile("constant float coef[4] = {1.0f, -2.0f, 0.5f};\n"
                         "kernel void k(float *o, int *c, unsigned long *u) {\n"
                         "  shared float tile[64];\n"
                         "  shared int cnt;\n"
                         "  tile[threadIdx.x] = o[threadIdx.x] * coef[threadIdx.x & 3];\n"
                         "  __syncthreads();\n"
                         "  atomicAdd(&cnt, 1);\n"
                         "  atomicMax(&c[0], 5);\n"
                         "  atomicMin((unsigned *)&c[1], 5u);\n"
                         "  atomicCAS(&c[2], 0, 1);\n"
                         "  atomicAdd(&o[1], 1.5f);\n"
                         "  atomicAdd(&u[0], 1UL);\n"
                         "  __threadfence();\n"
                         "  __threadfence_block();\n"
                         "  o[0] = tile[63 - threadIdx.x];\n"
                         "}\n",
                         NULL);
  HAS(t, "OpVariable %_ptr_Workgroup__arr_float_uint_64 Workgroup");
  HAS(t, "OpVariable %_ptr_UniformConstant__arr_float_uint_4 UniformConstant");
  HAS(t, "OpConstantComposite %_arr_float_uint_4");
  HAS(t, "OpControlBarrier %uint_2 %uint_2 %uint_776"); /* AcqRel|Workgroup|CrossWorkgroup */
  HAS(t, "OpMemoryBarrier %uint_1 %uint_776");
  HAS(t, "OpMemoryBarrier %uint_2 %uint_776");
  HAS(t, "OpAtomicIAdd %uint %k_cnt %uint_2 %uint_256"); /* shared: Workgroup scope */
  HAS(t, "OpAtomicSMax %uint");
  HAS(t, "OpAtomicUMin %uint");
  HAS(t, "OpAtomicCompareExchange %uint");
  HAS(t, "%uint_1 %uint_512"); /* global: Device scope, CrossWorkgroupMemory */
  HAS(t, "OpAtomicLoad");      /* the float add loop */
  HAS(t, "OpCapability Int64Atomics");
  free(t);
}
END_TEST

START_TEST(dynamic_shared) {
  char *t = must_compile("static void put(int i, float v) { extern shared float s[]; s[i] = v; }\n"
                         "static int geti(int i) { extern shared int si[]; return si[i]; }\n"
                         "kernel void k(float *o) {\n"
                         "  extern shared float s[];\n"
                         "  extern shared int si[];\n"
                         "  put(threadIdx.x, o[threadIdx.x]);\n"
                         "  __syncthreads();\n"
                         "  o[threadIdx.x] = s[0] + si[1] + geti(2);\n"
                         "}\n",
                         NULL);
  /* Kernel and device functions take the Workgroup pointer as their last parameter, typed
   * by the first dynamic array each one reaches; other views are bitcasts. */
  HAS(t, "OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_Workgroup_float");
  HAS(t, "OpTypeFunction %void %uint %float %_ptr_Workgroup_float");
  HAS(t, "OpTypeFunction %uint %uint %_ptr_Workgroup_uint");
  HAS(t, "OpBitcast %_ptr_Workgroup_uint %s");
  free(t);
}
END_TEST

START_TEST(printf_and_math) {
  char *t = must_compile("kernel void k(float *o, double *d) {\n"
                         "  printf(\"%d %f %s\\n\", (int)threadIdx.x, o[0], \"hi\");\n"
                         "  o[1] = sqrtf(o[2]) + expf(o[3]) + fminf(o[4], o[5]) + fabsf(o[6]);\n"
                         "  d[0] = pow(d[1], d[2]);\n"
                         "  o[7] = isnan(o[8]);\n"
                         "  o[9] = min(o[10], 2.0f);\n"
                         "}\n",
                         NULL);
  HAS(t, "OpExtInstImport \"OpenCL.std\"");
  HAS(t, "printf");
  HAS(t, "OpVariable %_ptr_UniformConstant__arr_uchar");
  HAS(t, "sqrt");
  HAS(t, "exp");
  HAS(t, "fmin");
  HAS(t, "fabs");
  HAS(t, "pow");
  HAS(t, "OpIsNan");
  HAS(t, "OpCapability Float64");
  free(t);
}
END_TEST

START_TEST(structs_and_locals) {
  char *t =
      must_compile("struct P { float x; int n; struct P *next; };\n"
                   "struct Q { float a[3]; char c; };\n"
                   "static struct Q mk(float v) { struct Q q = {{v, v + 1, 0}, 'x'}; return q; }\n"
                   "kernel void k(struct P *ps, struct Q q, float *o) {\n"
                   "  int loc[4] = {1, 2};\n"
                   "  struct Q r = mk(o[0]);\n"
                   "  o[0] = ps[0].x + ps->next->x + q.a[1] + r.a[2] + loc[threadIdx.x & 3];\n"
                   "}\n",
                   NULL);
  HAS(t, "OpTypeForwardPointer"); /* struct P points to itself */
  HAS(t, "FuncParamAttr ByVal");  /* struct kernel argument */
  HAS(t, "OpMemberName %struct_Q 1 \"c\"");
  HAS(t, "OpVariable %_ptr_Function__arr_uint_uint_4 Function");
  LACKS(t, "OpCompositeConstruct %struct"); /* llvm-spirv 15 cannot read it */
  free(t);
}
END_TEST

START_TEST(fp_flags) {
  const char *src = "kernel void k(float *o) { o[0] = o[1] * o[2] + o[3]; }\n";
  char *t = must_compile(src, "-ffp-contract=off");
  HAS(t, "OpExecutionMode %k ContractionOff");
  free(t);
  t = must_compile(src, NULL);
  LACKS(t, "ContractionOff");
  LACKS(t, "FPFastMathMode");
  free(t);
  t = must_compile(src, "-ffast-math");
  HAS(t, "FPFastMathMode");
  free(t);
}
END_TEST

START_TEST(deterministic) {
  const char *src = "static float sq(float x) { return x * x; }\n"
                    "kernel void k(float *o, int n) {\n"
                    "  shared float t[32];\n"
                    "  t[threadIdx.x] = sq(o[threadIdx.x]);\n"
                    "  __syncthreads();\n"
                    "  if (n > 2) printf(\"%f\\n\", t[0]);\n"
                    "}\n";
  char *a = must_compile(src, NULL), *b = must_compile(src, NULL);
  /* The file names differ (s%d.k); compare everything else. */
  char *la = strstr(a, "OpSource"), *lb = strstr(b, "OpSource");
  ck_assert_ptr_nonnull(la);
  ck_assert_ptr_nonnull(lb);
  ck_assert_str_eq(la, lb);
  free(a);
  free(b);
}
END_TEST

START_TEST(errors_leave_no_output) {
  char *err = NULL;
  char *t = spirv_of("kernel void k(float *o) {\n"
                     "  extern shared float s[];\n"
                     "  float (*p)[] = &s;\n"
                     "  o[0] = (*p)[0];\n"
                     "}\n",
                     NULL, &err);
  ck_assert_ptr_null(t);
  ck_assert_ptr_nonnull(err);
  ck_assert_msg(strstr(err, "error:") != NULL, "no error in:\n%s", err);
  free(err);
}
END_TEST

int main(void) {
  Suite *s = suite_create("spirv");
  TCase *b = tcase_create("builder");
  tcase_add_test(b, header_words);
  tcase_add_test(b, instruction_encoding);
  tcase_add_test(b, types_are_unique);
  tcase_add_test(b, constants_are_unique);
  tcase_add_test(b, capabilities_once);
  tcase_add_test(b, validation);
  suite_add_tcase(s, b);
  TCase *k = tcase_create("kernels");
  tcase_set_timeout(k, 120);
  tcase_add_test(k, kernel_interface);
  tcase_add_test(k, c_semantics);
  tcase_add_test(k, control_flow);
  tcase_add_test(k, memory_spaces_and_sync);
  tcase_add_test(k, dynamic_shared);
  tcase_add_test(k, printf_and_math);
  tcase_add_test(k, structs_and_locals);
  tcase_add_test(k, fp_flags);
  tcase_add_test(k, deterministic);
  tcase_add_test(k, errors_leave_no_output);
  suite_add_tcase(s, k);
  return tu_main(s);
}
