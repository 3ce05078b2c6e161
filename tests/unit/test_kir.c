/* test_kir.c — KIR itself (interned types, layout, casts, the printer) and the passes over it
 * (call graph and recursion, address-space inference and specialisation). */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

START_TEST(types_are_interned) {
  KType *f = kir_type_scalar(KT_F32);
  ck_assert_ptr_eq(f, kir_type_scalar(KT_F32));
  ck_assert_ptr_eq(kir_type_ptr(f, KAS_GLOBAL, KQ_CONST), kir_type_ptr(f, KAS_GLOBAL, KQ_CONST));
  ck_assert_ptr_ne(kir_type_ptr(f, KAS_GLOBAL, 0), kir_type_ptr(f, KAS_SHARED, 0));
  ck_assert_ptr_ne(kir_type_ptr(f, KAS_GLOBAL, 0), kir_type_ptr(f, KAS_GLOBAL, KQ_CONST));
  ck_assert_ptr_eq(kir_type_array(f, 16), kir_type_array(f, 16));
  ck_assert_int_eq(kir_type_array(f, 16)->size, 64);
  ck_assert_int_eq(kir_type_array(kir_type_array(f, 17), 16)->size, 16 * 17 * 4);
  ck_assert_str_eq(kir_type_str(kir_type_ptr(f, KAS_GLOBAL, KQ_CONST | KQ_RESTRICT)),
                   "global const float *restrict");
  ck_assert_str_eq(kir_type_str(kir_type_array(kir_type_scalar(KT_U32), -1)), "unsigned int[]");
  ck_assert_str_eq(kir_type_str(kir_type_array(kir_type_array(f, 17), 16)), "float[16][17]");
}
END_TEST

START_TEST(struct_layout) {
  KStruct st = {.name = "S"};
  KField fields[] = {{"c", kir_type_scalar(KT_I8), 0, false},
                     {"d", kir_type_scalar(KT_F64), 0, false},
                     {"s", kir_type_scalar(KT_I16), 0, false},
                     {"a", kir_type_array(kir_type_scalar(KT_I8), 3), 0, false}};
  st.fields = fields;
  st.nfields = 4;
  kir_struct_layout(&st);
  ck_assert_int_eq(fields[0].offset, 0);
  ck_assert_int_eq(fields[1].offset, 8);
  ck_assert_int_eq(fields[2].offset, 16);
  ck_assert_int_eq(fields[3].offset, 18);
  ck_assert_int_eq(st.size, 24);
  ck_assert_int_eq(st.align, 8);
}
END_TEST

/* A union: every member at 0; the largest size (10) rounded up to the largest alignment (8);
 * kir_type_str and kir_struct_is_natural know it. */
START_TEST(union_layout) {
  KStruct st = {.name = "U", .is_union = true};
  KField fields[] = {{"c", kir_type_scalar(KT_I8), 0, false},
                     {"d", kir_type_scalar(KT_F64), 0, false},
                     {"s", kir_type_array(kir_type_scalar(KT_I16), 5), 0, false}};
  st.fields = fields;
  st.nfields = 3;
  kir_struct_layout(&st);
  for (int i = 0; i < 3; i++) ck_assert_int_eq(fields[i].offset, 0);
  ck_assert_int_eq(st.size, 16);
  ck_assert_int_eq(st.align, 8);
  ck_assert(kir_struct_is_natural(&st));
  ck_assert_str_eq(kir_type_str(kir_type_struct(&st)), "union U");
}
END_TEST

START_TEST(cast_kinds) {
  KType *i8 = kir_type_scalar(KT_I8), *i32 = kir_type_scalar(KT_I32),
        *u32 = kir_type_scalar(KT_U32), *u64 = kir_type_scalar(KT_U64),
        *i64 = kir_type_scalar(KT_I64), *f32 = kir_type_scalar(KT_F32),
        *f64 = kir_type_scalar(KT_F64), *b = kir_type_scalar(KT_BOOL);
  KType *p = kir_type_ptr(f32, KAS_GLOBAL, 0);
  ck_assert_int_eq(kir_cast_kind(i32, u32), KC_NOP);
  ck_assert_int_eq(kir_cast_kind(i64, i8), KC_INT_TRUNC);
  ck_assert_int_eq(kir_cast_kind(i32, u64), KC_INT_SEXT); /* C: the source's signedness rules */
  ck_assert_int_eq(kir_cast_kind(u32, i64), KC_INT_ZEXT);
  ck_assert_int_eq(kir_cast_kind(b, i32), KC_INT_ZEXT);
  ck_assert_int_eq(kir_cast_kind(f32, b), KC_TO_BOOL);
  ck_assert_int_eq(kir_cast_kind(p, b), KC_TO_BOOL);
  ck_assert_int_eq(kir_cast_kind(i32, f64), KC_INT_TO_FP);
  ck_assert_int_eq(kir_cast_kind(f64, u32), KC_FP_TO_INT);
  ck_assert_int_eq(kir_cast_kind(f32, f64), KC_FP_EXT);
  ck_assert_int_eq(kir_cast_kind(f64, f32), KC_FP_TRUNC);
  ck_assert_int_eq(kir_cast_kind(kir_type_array(f32, 4), p), KC_ARRAY_DECAY);
  ck_assert_int_eq(kir_cast_kind(p, kir_type_ptr(i32, KAS_GLOBAL, 0)), KC_PTR_TO_PTR);
  ck_assert_int_eq(kir_cast_kind(p, u64), KC_PTR_TO_INT);
  ck_assert_int_eq(kir_cast_kind(i64, p), KC_INT_TO_PTR);
  ck_assert_int_eq(kir_cast_kind(i32, kir_type_void()), KC_TO_VOID);
}
END_TEST

START_TEST(builtin_table) {
  for (int id = 0; id < BI_COUNT_; id++) ck_assert_int_eq(kir_builtin_info(id)->id, id);
  ck_assert_str_eq(kir_builtin_info(BI_ATOMIC_CAS)->name, "atomicCAS");
  ck_assert_int_eq(kir_builtin_info(BI_ATOMIC_CAS)->nargs, 3);
  ck_assert(kir_builtin_is_math(BI_SQRT) && !kir_builtin_is_math(BI_ATOMIC_ADD));
  ck_assert(kir_builtin_is_atomic(BI_ATOMIC_XOR) && !kir_builtin_is_atomic(BI_PRINTF));
}
END_TEST

static void assert_error(const char *src, const char *want) {
  char *diags;
  KModule *m = tu_compile(NULL, src, &diags);
  ck_assert_ptr_null(m);
  ck_assert_msg(strstr(diags, want), "expected '%s' in:\n%s", want, diags);
  free(diags);
}

START_TEST(recursion_rejected) {
  assert_error("static int f(int n) { return n ? f(n - 1) : 0; }\n"
               "kernel void k(int *x) { x[0] = f(3); }\n",
               "t.k:1:34: error: recursion is not supported in kcc kernels: 'f' calls itself\n"
               "static int f(int n) { return n ? f(n - 1) : 0; }\n"
               "                                 ^\n");
  assert_error("int b(int n);\n"
               "int a(int n) { return b(n) + 1; }\n"
               "int c(int n) { return a(n); }\n"
               "int b(int n) { return c(n); }\n"
               "kernel void k(int *x) { x[0] = a(3); }\n",
               "t.k:3:23: error: recursion is not supported in kcc kernels: 'a' -> 'b' -> 'c' -> "
               "'a'\n");
}
END_TEST

START_TEST(shared_memory_totals) {
  char *diags;
  char *kir = tu_kir("shared float g[64];\n"
                     "static float get(int i) { return g[i]; }\n"
                     "kernel void k(float *out) {\n"
                     "  shared double t[8];\n"
                     "  extern shared int dyn[];\n"
                     "  g[threadIdx.x] = out[0]; t[0] = dyn[0];\n"
                     "  out[1] = get(1);\n"
                     "}\n",
                     &diags);
  ck_assert_msg(kir != NULL, "%s", diags);
  ck_assert_msg(strstr(kir, "  ; shared 320 bytes + dynamic\n"), "%s", kir);
  ck_assert_msg(strstr(kir, "  ; calls get\n"), "%s", kir);
}
END_TEST

/* One device function called with global and with shared pointers becomes two functions, each
 * with concrete pointer types (what OpenCL C and SPIR-V need). */
START_TEST(addrspace_specialisation) {
  const char *src = "static float sum2(const float *p) { return p[0] + p[1]; }\n"
                    "kernel void k(const float *in, float *out) {\n"
                    "  shared float tile[2];\n"
                    "  tile[threadIdx.x] = in[threadIdx.x];\n"
                    "  __syncthreads();\n"
                    "  float *q = out + 1;\n"
                    "  q[0] = sum2(in) + sum2(tile);\n"
                    "}\n";
  char *diags;
  KModule *m = tu_compile(NULL, src, &diags);
  ck_assert_msg(m != NULL, "%s", diags);
  ck_assert(pass_addrspace(m, false));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  kir_print(f, m);
  fclose(f);
  ck_assert_msg(strstr(text, "static float sum2(global const float * p)"), "%s", text);
  ck_assert_msg(strstr(text, "static float sum2_1(shared const float * p)"), "%s", text);
  ck_assert_msg(strstr(text, "decl global float * q = (ptradd global float * (var out)"), "%s",
                text);
  ck_assert_msg(strstr(text, "(call sum2 float (var in))"), "%s", text);
  ck_assert_msg(
      strstr(
          text,
          "(call sum2_1 float (ptrcast shared const float * (decay shared float * (gvar tile))))"),
      "%s", text);
  free(text);
}
END_TEST

START_TEST(addrspace_conflict) {
  const char *src = "kernel void k(float *g, int c) {\n"
                    "  shared float s[4];\n"
                    "  float *p = c ? g : s;\n"
                    "  p[0] = 1.0f;\n"
                    "}\n";
  char *diags;
  KModule *m = tu_compile(NULL, src, &diags);
  ck_assert_msg(m != NULL, "PTX has a generic space, so this compiles: %s", diags);
  diag_reset();
  ck_assert(!pass_addrspace(m, false) || diag_error_count() > 0);
}
END_TEST

START_TEST(unreachable_device_functions_dropped) {
  char *diags;
  char *kir = tu_kir("static int unused(int x) { return x * 2; }\n"
                     "kernel void k(int *x) { x[0] = 1; }\n",
                     &diags);
  ck_assert_msg(kir != NULL, "%s", diags);
  ck_assert_ptr_null(strstr(kir, "unused"));
}
END_TEST

/* kir_f16_bits / kir_f16_value (constant folding of half): every half's value round-trips,
 * and doubles rounded to half agree with GCC's _Float16 conversion (to nearest even) on
 * halfway cases, their neighbours, subnormals, overflow and random bits. */
START_TEST(half_constants) {
  for (uint32_t h = 0; h < 0x10000; h++) {
    double v = kir_f16_value((uint16_t)h);
    if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) {
      ck_assert(isnan(v));
      ck_assert_uint_eq(kir_f16_bits(v), (h & 0x8000) | 0x7e00);
      continue;
    }
    ck_assert_uint_eq(kir_f16_bits(v), h);
    if ((h & 0x7fff) >= 0x7bff) continue;
    double next = kir_f16_value((uint16_t)(h + 1)), mid = (v + next) / 2;
    const double probes[] = {mid, nextafter(mid, 0), nextafter(mid, INFINITY), mid * (1 + 0x1p-40)};
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
      volatile double d = probes[i];
      volatile _Float16 want = (_Float16)d;
      uint16_t w;
      memcpy(&w, (const void *)&want, 2);
      ck_assert_msg(kir_f16_bits(d) == w, "%a: %#x, want %#x", d, kir_f16_bits(d), w);
    }
  }
  uint64_t x = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < 1000000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double d;
    uint64_t bits = (x & 0x800fffffffffffffu) | ((uint64_t)(990 + x % 50) << 52);
    memcpy(&d, &bits, 8);
    volatile double vd = d;
    volatile _Float16 want = (_Float16)vd;
    uint16_t w;
    memcpy(&w, (const void *)&want, 2);
    ck_assert_msg(kir_f16_bits(d) == w, "%a: %#x, want %#x", d, kir_f16_bits(d), w);
  }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("kir");
  TCase *t = tcase_create("kir");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, types_are_interned);
  tcase_add_test(t, struct_layout);
  tcase_add_test(t, union_layout);
  tcase_add_test(t, cast_kinds);
  tcase_add_test(t, builtin_table);
  tcase_add_test(t, recursion_rejected);
  tcase_add_test(t, shared_memory_totals);
  tcase_add_test(t, addrspace_specialisation);
  tcase_add_test(t, addrspace_conflict);
  tcase_add_test(t, unreachable_device_functions_dropped);
  tcase_add_test(t, half_constants);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  return tu_main(suite());
}
