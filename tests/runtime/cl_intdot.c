/* cl_intdot.c — runs tests/runtime/cl_intdot.cl (OpenCL C input) through libkcrt on fresh random
 * inputs and edge values and checks every result against a C reference of cl_khr_integer_dot_
 * product: the sum of the four products of the components, each zero- or sign-extended to 32
 * bits as its type says (component 0 in the least significant byte of a packed uint), and for
 * dot_acc_sat that sum plus the accumulator, saturated to the range of the result's type
 * (uint for two unsigned operands, int otherwise). */
#include "rt_common.h"

#include <stdio.h>

/* Byte k of x, zero- or sign-extended. */
static int64_t byte_of(uint32_t x, int k, bool sgn) {
  uint32_t v = (x >> (8 * k)) & 0xff;
  return sgn ? (int64_t)(int8_t)v : (int64_t)v;
}

static int64_t dot_ref(uint32_t a, uint32_t b, bool sa, bool sb) {
  int64_t s = 0;
  for (int k = 0; k < 4; k++) s += byte_of(a, k, sa) * byte_of(b, k, sb);
  return s;
}

static int32_t sat_ref(int64_t dot, int32_t acc, bool unsigned_result) {
  if (unsigned_result) {
    uint64_t s = (uint64_t)dot + (uint32_t)acc;
    return (int32_t)(uint32_t)(s > UINT32_MAX ? UINT32_MAX : s);
  }
  int64_t s = dot + acc;
  return (int32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_intdot");
  int n = rt_int(&rt, 256, 2048) & ~63;
  uint32_t *a = rt_xalloc((size_t)n * 4), *b = rt_xalloc((size_t)n * 4);
  int32_t *acc = rt_xalloc((size_t)n * 4), *got = rt_xalloc(16 * (size_t)n * 4);
  static const uint32_t edge[] = {0,           0xffffffffu, 0x80808080u,
                                  0x7f7f7f7fu, 0x80ff7f01u, 0x01020304u};
  /* Accumulators at the limits, and within a dot product's reach of them (|dot| <= 260100), so
     that the sum saturates at each end, or just does not. */
  static const int32_t aedge[] = {INT32_MAX,
                                  INT32_MAX - 65000,
                                  INT32_MAX - 300000,
                                  INT32_MIN,
                                  INT32_MIN + 65000,
                                  INT32_MIN + 300000,
                                  0,
                                  -1,
                                  -260100,
                                  (int32_t)0xfffc0000u};
  for (int i = 0; i < n; i++) {
    a[i] = i < 36 ? edge[i % 6] : rt_u32(&rt);
    b[i] = i < 36 ? edge[i / 6] : rt_u32(&rt);
    acc[i] = rt_u32(&rt) & 1 ? aedge[rt_u32(&rt) % 10] : (int32_t)rt_u32(&rt);
  }
  kcrt_buffer *da = rt_upload(&rt, a, (size_t)n * 4), *db = rt_upload(&rt, b, (size_t)n * 4),
              *dc = rt_upload(&rt, acc, (size_t)n * 4), *dout = rt_alloc(&rt, 16 * (size_t)n * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_BUFFER(dout)};
  rt_launch(&rt, rt_kernel(&rt, "intdot"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 4);
  rt_download(&rt, dout, got, 16 * (size_t)n * 4);
  /* r[0..3] dot, r[4..7] dot_acc_sat, r[8..15] the same packed: uu, ss, us, su. */
  static const char *const names[16] = {"dot(uchar4, uchar4)",
                                        "dot(char4, char4)",
                                        "dot(uchar4, char4)",
                                        "dot(char4, uchar4)",
                                        "dot_acc_sat(uchar4, uchar4)",
                                        "dot_acc_sat(char4, char4)",
                                        "dot_acc_sat(uchar4, char4)",
                                        "dot_acc_sat(char4, uchar4)",
                                        "dot_4x8packed_uu_uint",
                                        "dot_4x8packed_ss_int",
                                        "dot_4x8packed_us_int",
                                        "dot_4x8packed_su_int",
                                        "dot_acc_sat_4x8packed_uu_uint",
                                        "dot_acc_sat_4x8packed_ss_int",
                                        "dot_acc_sat_4x8packed_us_int",
                                        "dot_acc_sat_4x8packed_su_int"};
  int shown = 0;
  for (int i = 0; i < n; i++)
    for (int r = 0; r < 16; r++) {
      int f = r % 4;
      bool sa = f == 1 || f == 3, sb = f == 1 || f == 2;
      int64_t d = dot_ref(a[i], b[i], sa, sb);
      int32_t w = r % 8 < 4 ? (int32_t)d : sat_ref(d, acc[i], f == 0);
      if (got[16 * i + r] == w) continue;
      if (shown++ < 10)
        rt_fail(&rt, "%s of 0x%08x, 0x%08x, acc %d: %d (0x%x), want %d (0x%x)", names[r], a[i],
                b[i], acc[i], got[16 * i + r], (uint32_t)got[16 * i + r], w, (uint32_t)w);
      else
        rt.failures++;
    }
  rt_xfree_all();
  return rt_finish(&rt, "%d work-items, 16 functions each", n);
}
