/* cuda_fp16.c — runs tests/runtime/cuda_fp16.cu (kcc's <cuda_fp16.h>) through libkcrt on
 * random halves and compares every element with a host reference rounding as CUDA's half
 * does: each operation computed exactly (in float; long double for fma) and rounded to half
 * by GCC's _Float16 conversions in the intrinsic's rounding mode (rt_f16_*). Bit for bit,
 * NaNs equal to any NaN, except hexp (within one half ulp) and __hmax/__hmin of two zeros. */
#include "rt_common.h"

#include <fenv.h>
#include <math.h>

#define NO 24
#define NI 6

static uint16_t H(float x) {
  return rt_f16_of_float(x, FE_TONEAREST);
}
static float F(uint16_t h) {
  return rt_f16_value(h);
}
/* CUDA's __half2int_r*: rounded, then saturated (NaN 0). */
static int32_t to_int(float x, float r) {
  return isnan(x) ? 0 : r >= 2147483648.0f ? INT32_MAX : r < -2147483648.0f ? INT32_MIN : (int)r;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_fp16");
  enum { N = 1 << 14, B = 64 };
  uint16_t *a = rt_xalloc(N * 2), *b = rt_xalloc(N * 2), *c = rt_xalloc(N * 2);
  float *f = rt_xalloc(N * 4);
  for (size_t i = 0; i < N; i++) {
    a[i] = rt_f16_rand(&rt), b[i] = rt_f16_rand(&rt), c[i] = rt_f16_rand(&rt);
    /* floats near halves' rounding boundaries, and any float */
    uint16_t m = (uint16_t)(rt_u32(&rt) & 0x7bff);
    float mid = (F(m) + F((uint16_t)(m + 1))) / 2 * (i & 1 ? -1 : 1);
    f[i] = i % 3 == 0 ? rt_f32_of_bits(rt_u32(&rt)) : mid * (1 + rt_int(&rt, -2, 2) * 0x1p-23f);
  }
  int n = N;
  kcrt_buffer *da = rt_upload(&rt, a, N * 2), *db = rt_upload(&rt, b, N * 2),
              *dc = rt_upload(&rt, c, N * 2), *df = rt_upload(&rt, f, N * 4),
              *dout = rt_alloc(&rt, N * NO * 2), *doi = rt_alloc(&rt, N * NI * 4),
              *dof = rt_alloc(&rt, N * 2 * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(db),   KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_BUFFER(df),  KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(doi),
                     KCRT_ARG_BUFFER(dof), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "ops"), KCRT_DIM1(N / B), KCRT_DIM1(B), 0, args, 8);
  uint16_t *o = rt_xalloc(N * NO * 2), *w = rt_xalloc(N * NO * 2);
  int32_t *oi = rt_xalloc(N * NI * 4), *wi = rt_xalloc(N * NI * 4);
  float *of = rt_xalloc(N * 2 * 4), *wf = rt_xalloc(N * 2 * 4);
  rt_download(&rt, dout, o, N * NO * 2);
  rt_download(&rt, doi, oi, N * NI * 4);
  rt_download(&rt, dof, of, N * 2 * 4);
  for (size_t i = 0; i < N; i++) {
    float x = F(a[i]), y = F(b[i]), z = F(c[i]);
    uint16_t *r = w + i * NO;
    r[0] = H(x + y);
    r[1] = H(x - y);
    r[2] = H(x * y);
    r[3] = H(x / y);
    r[4] = rt_f16_of_long_double(fmal(x, y, z));
    r[5] = H(F(H(x * y)) + z);
    r[6] = a[i] ^ 0x8000;
    r[7] = a[i] & 0x7fff;
    r[8] = H(fmaxf(x, y));
    r[9] = H(fminf(x, y));
    r[10] = H(f[i]);
    r[11] = rt_f16_of_float(f[i], FE_TOWARDZERO);
    r[12] = rt_f16_of_float(f[i], FE_UPWARD);
    r[13] = rt_f16_of_float(f[i], FE_DOWNWARD);
    r[14] = H((float)((int)i - N / 2));
    r[15] = H(sqrtf(x));
    r[16] = H(floorf(x));
    r[17] = H(expf(x));
    /* v = (x, y), w = (z, 2): s = fma(v, w, v.yx); p = v * w + v */
    float w1 = F(H(z));
    r[18] = rt_f16_of_long_double(fmal(x, w1, y));
    r[19] = rt_f16_of_long_double(fmal(y, 2.0f, x));
    r[20] = H(F(H(x * w1)) + x);
    r[21] = H(F(H(y * 2.0f)) + y);
    r[22] = H(F(H(x + y)) * z);
    r[23] = a[i] ^ 0x8000;
    int32_t *q = wi + i * NI;
    q[0] = x < y;
    q[1] = !(x == y);
    q[2] = isnan(x) != 0;
    q[3] = isinf(y) ? (y > 0 ? 1 : -1) : 0;
    q[4] = to_int(x, rintf(x));
    q[5] = to_int(y, truncf(y));
    wf[i * 2] = x + y;
    wf[i * 2 + 1] = x * 0.5f;
  }
  static const struct {
    const char *name;
    int tol;
  } cols[NO] = {{"__hadd", 0},          {"__hsub", 0},          {"__hmul", 0},
                {"__hdiv", 0},          {"__hfma", 0},          {"x * y + z", 0},
                {"__hneg", 0},          {"__habs", 0},          {"__hmax", 2},
                {"__hmin", 2},          {"__float2half", 0},    {"__float2half_rz", 0},
                {"__float2half_ru", 0}, {"__float2half_rd", 0}, {"__int2half_rn", 0},
                {"hsqrt", 0},           {"hfloor", 0},          {"hexp", 1},
                {"__hfma2 .x", 0},      {"__hfma2 .y", 0},      {"__hmul2 + .x", 0},
                {"__hmul2 + .y", 0},    {"+= *=", 0},           {"__half_as_ushort ^", 0}};
  for (int j = 0; j < NO; j++) rt_cmp_f16(&rt, cols[j].name, o + j, w + j, N, NO, cols[j].tol);
  static const char *const icols[NI] = {"__hlt",    "__hneu",        "__hisnan",
                                        "__hisinf", "__half2int_rn", "__half2int_rz"};
  for (int j = 0; j < NI; j++) {
    int32_t *g = rt_xalloc(N * 4), *e = rt_xalloc(N * 4);
    for (size_t i = 0; i < N; i++) g[i] = oi[i * NI + j], e[i] = wi[i * NI + j];
    rt_cmp_i32(&rt, icols[j], g, e, N);
  }
  uint32_t *g = rt_xalloc(N * 8), *e = rt_xalloc(N * 8);
  for (size_t i = 0; i < N * 2; i++) {
    g[i] = isnan(of[i]) ? 0x7fc00000u : rt_f32_bits(of[i]);
    e[i] = isnan(wf[i]) ? 0x7fc00000u : rt_f32_bits(wf[i]);
  }
  rt_cmp_u32(&rt, "__half22float2, __high2float, __half2float", g, e, N * 2);
  rt_xfree_all();
  return rt_finish(&rt, "%d halves through %d intrinsics", N, NO + NI + 2);
}
