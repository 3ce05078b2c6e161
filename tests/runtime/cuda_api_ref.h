/* cuda_api_ref.h — host references for the CUDA device functions of tests/runtime/cuda_api.cu
 * (SIMD intrinsics, __dp4a/__dp2a), as the CUDA Math API describes them. Shared by
 * rt_cuda_api (kcc's kernels through libkcrt) and tests/gpu/cuda_api_nvcc.cu (the same
 * kernels compiled by nvcc), so the GPU run shows these references are what NVIDIA's own
 * implementation computes. C99 and C++. */
#ifndef CUDA_API_REF_H
#define CUDA_API_REF_H
#include <stdint.h>

enum {
  R_ABS,
  R_ABSSS,
  R_ABSDIFF,
  R_ADD,
  R_ADDSS,
  R_ADDUS,
  R_AVGS,
  R_AVGU,
  R_HADD,
  R_CMPEQ,
  R_CMPNE,
  R_CMPGE,
  R_CMPGT,
  R_CMPLE,
  R_CMPLT,
  R_MAX,
  R_MIN,
  R_NEG,
  R_NEGSS,
  R_SAD,
  R_SETEQ,
  R_SETNE,
  R_SETGE,
  R_SETGT,
  R_SETLE,
  R_SETLT,
  R_SUB,
  R_SUBSS,
  R_SUBUS
};

/* The SIMD intrinsics in the order the kernel writes them: X(name, operands, operation, lanes
 * signed, 2 halfwords or 4 bytes). */
// clang-format off (version 14 never settles on this macro)
#define SIMD_OPS(X)                                                                                \
  X(vabs2, 1, R_ABS, 1, 2)                                                                         \
  X(vabs4, 1, R_ABS, 1, 4)                                                                         \
  X(vabsss2, 1, R_ABSSS, 1, 2)                                                                     \
  X(vabsss4, 1, R_ABSSS, 1, 4)                                                                     \
  X(vabsdiffs2, 2, R_ABSDIFF, 1, 2)                                                                \
  X(vabsdiffs4, 2, R_ABSDIFF, 1, 4)                                                                \
  X(vabsdiffu2, 2, R_ABSDIFF, 0, 2)                                                                \
  X(vabsdiffu4, 2, R_ABSDIFF, 0, 4)                                                                \
  X(vadd2, 2, R_ADD, 0, 2)                                                                         \
  X(vadd4, 2, R_ADD, 0, 4)                                                                         \
  X(vaddss2, 2, R_ADDSS, 1, 2)                                                                     \
  X(vaddss4, 2, R_ADDSS, 1, 4)                                                                     \
  X(vaddus2, 2, R_ADDUS, 0, 2)                                                                     \
  X(vaddus4, 2, R_ADDUS, 0, 4)                                                                     \
  X(vavgs2, 2, R_AVGS, 1, 2)                                                                       \
  X(vavgs4, 2, R_AVGS, 1, 4)                                                                       \
  X(vavgu2, 2, R_AVGU, 0, 2)                                                                       \
  X(vavgu4, 2, R_AVGU, 0, 4)                                                                       \
  X(vhaddu2, 2, R_HADD, 0, 2)                                                                      \
  X(vhaddu4, 2, R_HADD, 0, 4)                                                                      \
  X(vcmpeq2, 2, R_CMPEQ, 0, 2)                                                                     \
  X(vcmpeq4, 2, R_CMPEQ, 0, 4)                                                                     \
  X(vcmpne2, 2, R_CMPNE, 0, 2)                                                                     \
  X(vcmpne4, 2, R_CMPNE, 0, 4)                                                                     \
  X(vcmpges2, 2, R_CMPGE, 1, 2)                                                                    \
  X(vcmpges4, 2, R_CMPGE, 1, 4)                                                                    \
  X(vcmpgeu2, 2, R_CMPGE, 0, 2)                                                                    \
  X(vcmpgeu4, 2, R_CMPGE, 0, 4)                                                                    \
  X(vcmpgts2, 2, R_CMPGT, 1, 2)                                                                    \
  X(vcmpgts4, 2, R_CMPGT, 1, 4)                                                                    \
  X(vcmpgtu2, 2, R_CMPGT, 0, 2)                                                                    \
  X(vcmpgtu4, 2, R_CMPGT, 0, 4)                                                                    \
  X(vcmples2, 2, R_CMPLE, 1, 2)                                                                    \
  X(vcmples4, 2, R_CMPLE, 1, 4)                                                                    \
  X(vcmpleu2, 2, R_CMPLE, 0, 2)                                                                    \
  X(vcmpleu4, 2, R_CMPLE, 0, 4)                                                                    \
  X(vcmplts2, 2, R_CMPLT, 1, 2)                                                                    \
  X(vcmplts4, 2, R_CMPLT, 1, 4)                                                                    \
  X(vcmpltu2, 2, R_CMPLT, 0, 2)                                                                    \
  X(vcmpltu4, 2, R_CMPLT, 0, 4)                                                                    \
  X(vmaxs2, 2, R_MAX, 1, 2)                                                                        \
  X(vmaxs4, 2, R_MAX, 1, 4)                                                                        \
  X(vmaxu2, 2, R_MAX, 0, 2)                                                                        \
  X(vmaxu4, 2, R_MAX, 0, 4)                                                                        \
  X(vmins2, 2, R_MIN, 1, 2)                                                                        \
  X(vmins4, 2, R_MIN, 1, 4)                                                                        \
  X(vminu2, 2, R_MIN, 0, 2)                                                                        \
  X(vminu4, 2, R_MIN, 0, 4)                                                                        \
  X(vneg2, 1, R_NEG, 1, 2)                                                                         \
  X(vneg4, 1, R_NEG, 1, 4)                                                                         \
  X(vnegss2, 1, R_NEGSS, 1, 2)                                                                     \
  X(vnegss4, 1, R_NEGSS, 1, 4)                                                                     \
  X(vsads2, 2, R_SAD, 1, 2)                                                                        \
  X(vsads4, 2, R_SAD, 1, 4)                                                                        \
  X(vsadu2, 2, R_SAD, 0, 2)                                                                        \
  X(vsadu4, 2, R_SAD, 0, 4)                                                                        \
  X(vseteq2, 2, R_SETEQ, 0, 2)                                                                     \
  X(vseteq4, 2, R_SETEQ, 0, 4)                                                                     \
  X(vsetne2, 2, R_SETNE, 0, 2)                                                                     \
  X(vsetne4, 2, R_SETNE, 0, 4)                                                                     \
  X(vsetges2, 2, R_SETGE, 1, 2)                                                                    \
  X(vsetges4, 2, R_SETGE, 1, 4)                                                                    \
  X(vsetgeu2, 2, R_SETGE, 0, 2)                                                                    \
  X(vsetgeu4, 2, R_SETGE, 0, 4)                                                                    \
  X(vsetgts2, 2, R_SETGT, 1, 2)                                                                    \
  X(vsetgts4, 2, R_SETGT, 1, 4)                                                                    \
  X(vsetgtu2, 2, R_SETGT, 0, 2)                                                                    \
  X(vsetgtu4, 2, R_SETGT, 0, 4)                                                                    \
  X(vsetles2, 2, R_SETLE, 1, 2)                                                                    \
  X(vsetles4, 2, R_SETLE, 1, 4)                                                                    \
  X(vsetleu2, 2, R_SETLE, 0, 2)                                                                    \
  X(vsetleu4, 2, R_SETLE, 0, 4)                                                                    \
  X(vsetlts2, 2, R_SETLT, 1, 2)                                                                    \
  X(vsetlts4, 2, R_SETLT, 1, 4)                                                                    \
  X(vsetltu2, 2, R_SETLT, 0, 2)                                                                    \
  X(vsetltu4, 2, R_SETLT, 0, 4)                                                                    \
  X(vsub2, 2, R_SUB, 0, 2)                                                                         \
  X(vsub4, 2, R_SUB, 0, 4)                                                                         \
  X(vsubss2, 2, R_SUBSS, 1, 2)                                                                     \
  X(vsubss4, 2, R_SUBSS, 1, 4)                                                                     \
  X(vsubus2, 2, R_SUBUS, 0, 2)                                                                     \
  X(vsubus4, 2, R_SUBUS, 0, 4)
// clang-format on

/* The same as a table, for the host programs. */
static const struct SimdOp {
  const char *name;
  int op, is_signed, w;
} simd_ops[] = {
#define SIMD_ROW(name, n, op, s, w) {#name, op, s, w},
    SIMD_OPS(SIMD_ROW)
#undef SIMD_ROW
};

#define SIMD_COUNT_ONE(name, n, op, s, w) +1
enum { SIMD_NOPS = 0 SIMD_OPS(SIMD_COUNT_ONE) };

static int64_t ref_lane(uint32_t v, int bits, int lane, int is_signed) {
  uint32_t m = bits == 8 ? 0xffu : 0xffffu, u = (v >> (lane * bits)) & m;
  if (is_signed && (u >> (bits - 1))) return (int64_t)u - (int64_t)m - 1;
  return (int64_t)u;
}

static int64_t ref_sat(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Operation op on the lanes of a and b (w: 2 halfwords or 4 bytes). */
static uint32_t ref_simd(int op, int is_signed, int w, uint32_t a, uint32_t b) {
  int bits = 32 / w;
  int64_t lo = bits == 8 ? -128 : -32768, hi = -lo - 1, umax = 2 * hi + 1;
  uint32_t r = 0, sad = 0;
  for (int l = 0; l < w; l++) {
    int64_t x = ref_lane(a, bits, l, is_signed), y = ref_lane(b, bits, l, is_signed), v = 0;
    switch (op) {
    case R_ABS: v = x < 0 ? -x : x; break;
    case R_ABSSS: v = ref_sat(x < 0 ? -x : x, lo, hi); break;
    case R_ABSDIFF: v = x > y ? x - y : y - x; break;
    case R_ADD: v = x + y; break;
    case R_ADDSS: v = ref_sat(x + y, lo, hi); break;
    case R_ADDUS: v = ref_sat(x + y, 0, umax); break;
    case R_AVGS: v = (x + y + (x + y >= 0 ? 1 : 0)) >> 1; break;
    case R_AVGU: v = (x + y + 1) >> 1; break;
    case R_HADD: v = (x + y) >> 1; break;
    case R_CMPEQ: v = x == y ? umax : 0; break;
    case R_CMPNE: v = x != y ? umax : 0; break;
    case R_CMPGE: v = x >= y ? umax : 0; break;
    case R_CMPGT: v = x > y ? umax : 0; break;
    case R_CMPLE: v = x <= y ? umax : 0; break;
    case R_CMPLT: v = x < y ? umax : 0; break;
    case R_MAX: v = x > y ? x : y; break;
    case R_MIN: v = x < y ? x : y; break;
    case R_NEG: v = -x; break;
    case R_NEGSS: v = ref_sat(-x, lo, hi); break;
    case R_SAD: sad += (uint32_t)(x > y ? x - y : y - x); break;
    case R_SETEQ: v = x == y; break;
    case R_SETNE: v = x != y; break;
    case R_SETGE: v = x >= y; break;
    case R_SETGT: v = x > y; break;
    case R_SETLE: v = x <= y; break;
    case R_SETLT: v = x < y; break;
    case R_SUB: v = x - y; break;
    case R_SUBSS: v = ref_sat(x - y, lo, hi); break;
    case R_SUBUS: v = ref_sat(x - y, 0, umax); break;
    }
    r |= ((uint32_t)v & (uint32_t)umax) << (l * bits);
  }
  return op == R_SAD ? sad : r;
}

/* __dp4a (which 0), __dp2a_lo (1), __dp2a_hi (2), signed or unsigned. */
static uint32_t ref_dp(int which, int is_signed, uint32_t a, uint32_t b, uint32_t c) {
  int64_t s = is_signed ? (int64_t)(int32_t)c : (int64_t)c;
  if (which == 0)
    for (int l = 0; l < 4; l++) s += ref_lane(a, 8, l, is_signed) * ref_lane(b, 8, l, is_signed);
  else
    for (int l = 0; l < 2; l++)
      s += ref_lane(a, 16, l, is_signed) * ref_lane(b, 8, l + (which == 2 ? 2 : 0), is_signed);
  return (uint32_t)s;
}
#endif
