/* cl_intrel.c — runs tests/runtime/cl_intrel.cl (OpenCL C input) through libkcrt on fresh
 * random inputs with the edge values of each type and checks every result against a C
 * reference of OpenCL C 1.2 §6.12.3 (saturating arithmetic, abs_diff, mad_sat, upsample, and
 * 2.0's ctz), §6.12.6 (relational functions: 1/0 for scalars, -1/0 for vectors) and §6.12.10
 * (async copies, plain and strided, in both directions). */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int64_t clamp64(__int128 v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : (int64_t)v;
}

/* A component of `bits` bits at `at` of x, signed or not. */
static int64_t field(uint64_t x, int at, int bits, bool sgn) {
  uint64_t v = (x >> at) & (bits == 64 ? ~0ull : (1ull << bits) - 1);
  if (sgn && bits < 64 && (v >> (bits - 1))) v |= ~0ull << bits;
  return (int64_t)v;
}

static int64_t lo_of(int bits, bool sgn) {
  return !sgn ? 0 : bits == 64 ? INT64_MIN : -(1ll << (bits - 1));
}

static int64_t hi_of(int bits, bool sgn) {
  return bits == 64 ? INT64_MAX : sgn ? (1ll << (bits - 1)) - 1 : (1ll << bits) - 1;
}

typedef enum { ADD, SUB, ABSD, MAD } Op;

/* op applied to each `bits`-wide component of the 32-bit words x, y (and c = x for MAD),
 * packed back; saturating in the component type. */
static uint32_t lanes(Op op, uint32_t x, uint32_t y, int bits, bool sgn) {
  uint32_t r = 0;
  for (int at = 0; at < 32; at += bits) {
    int64_t a = field(x, at, bits, sgn), b = field(y, at, bits, sgn), v;
    if (op == ADD)
      v = clamp64((__int128)a + b, lo_of(bits, sgn), hi_of(bits, sgn));
    else if (op == SUB)
      v = clamp64((__int128)a - b, lo_of(bits, sgn), hi_of(bits, sgn));
    else if (op == ABSD)
      v = a > b ? a - b : b - a;
    else
      v = clamp64((__int128)a * b + a, lo_of(bits, sgn), hi_of(bits, sgn));
    r |= (uint32_t)(((uint64_t)v & ((1ull << bits) - 1)) << at);
  }
  return r;
}

static int ctz_w(uint64_t x, int bits) {
  int n = 0;
  while (n < bits && !((x >> n) & 1)) n++;
  return n;
}

static int32_t ref_int(int r, int32_t x, int32_t y) {
  uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
  switch (r) {
  case 0: return (int32_t)lanes(ADD, ux, uy, 8, true);
  case 1: return (int32_t)lanes(SUB, ux, uy, 8, false);
  case 2: return (int32_t)lanes(ADD, ux, uy, 16, true);
  case 3: return (int32_t)lanes(SUB, ux, uy, 16, false);
  case 4: return (int32_t)clamp64((__int128)x + y, INT32_MIN, INT32_MAX);
  case 5: return (int32_t)clamp64((__int128)x - y, INT32_MIN, INT32_MAX);
  case 6: return (int32_t)(uint32_t)clamp64((__int128)ux + uy, 0, UINT32_MAX);
  case 7: return (int32_t)(uint32_t)(x > y ? (int64_t)x - y : (int64_t)y - x);
  case 8: return (int32_t)lanes(ABSD, ux, uy, 8, true);
  case 9: return (int32_t)lanes(MAD, ux, uy, 8, true);
  case 10: return (int32_t)lanes(MAD, ux, uy, 16, false);
  case 11: return (int32_t)clamp64((__int128)(x >> 8) * (y >> 8) + x, INT32_MIN, INT32_MAX);
  case 12: return (int32_t)(uint32_t)clamp64((__int128)(ux >> 4) * (uy >> 4) + uy, 0, UINT32_MAX);
  case 13: { /* upsample(char2 of x's bytes 0-1, uchar2 of its bytes 2-3) -> short2 */
    uint32_t s0 = ((uint32_t)(uint8_t)(ux & 0xff) << 8) | ((ux >> 16) & 0xff);
    uint32_t s1 = ((uint32_t)(uint8_t)((ux >> 8) & 0xff) << 8) | (ux >> 24);
    return (int32_t)((s0 & 0xffff) | (s1 << 16));
  }
  case 14: return (int32_t)(((ux & 0xffff) << 16) | (uy >> 16));
  default: {
    uint32_t c = 0;
    for (int at = 0; at < 32; at += 8) c |= (uint32_t)ctz_w(ux >> at & 0xff, 8) << at;
    return (int32_t)(c ^ (uint32_t)ctz_w(ux, 32) ^ (uint32_t)ctz_w(ux & uy, 32));
  }
  }
}

static int64_t ref_long(int s, int64_t p, int64_t q, int32_t x, int32_t y) {
  switch (s) {
  case 0: return clamp64((__int128)p + q, INT64_MIN, INT64_MAX);
  case 1: return clamp64((__int128)p - q, INT64_MIN, INT64_MAX);
  case 2: return (int64_t)(p > q ? (uint64_t)p - (uint64_t)q : (uint64_t)q - (uint64_t)p);
  case 3: return clamp64((__int128)(p >> 32) * (q >> 31) + p, INT64_MIN, INT64_MAX);
  case 4: {
    unsigned __int128 v =
        (unsigned __int128)((uint64_t)p >> 31) * ((uint64_t)q >> 32) + (uint64_t)q;
    return (int64_t)(v > UINT64_MAX ? UINT64_MAX : (uint64_t)v);
  }
  case 5: return (int64_t)(((uint64_t)(uint32_t)x << 32) | (uint32_t)y);
  case 6: return ctz_w((uint64_t)p, 64) + ctz_w((uint64_t)q, 64);
  default:
    return clamp64((__int128)p + q, INT64_MIN, INT64_MAX) ^
           clamp64((__int128)q + q, INT64_MIN, INT64_MAX);
  }
}

static uint32_t shl(int32_t v, int by) {
  return (uint32_t)v << by;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_intrel");
  int n = rt_int(&rt, 64, 1024) & ~63;

  /* ints: random words, and the edges of every component type among them. */
  static const int32_t edge[] = {0,
                                 -1,
                                 1,
                                 INT32_MIN,
                                 INT32_MAX,
                                 0x7f7f7f7f,
                                 (int32_t)0x80808080,
                                 0x7fff7fff,
                                 (int32_t)0x80008000,
                                 (int32_t)0xffff0000};
  static const int64_t ledge[] = {0, -1, 1, INT64_MIN, INT64_MAX, INT64_MAX - 5, INT64_MIN + 3};
  int32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  int64_t *la = malloc(n * sizeof *la), *lb = malloc(n * sizeof *lb);
  for (int i = 0; i < n; i++) {
    a[i] = i < 100 ? edge[i % 10] : (int32_t)rt_u32(&rt) >> (rt_u32(&rt) % 31);
    b[i] = i < 100 ? edge[i / 10] : (int32_t)rt_u32(&rt) >> (rt_u32(&rt) % 31);
    la[i] = i < 49 ? ledge[i % 7] : (int64_t)rt_u64(&rt) >> (rt_u32(&rt) % 63);
    lb[i] = i < 49 ? ledge[i / 7] : (int64_t)rt_u64(&rt) >> (rt_u32(&rt) % 63);
  }
  int32_t *o = malloc(16 * n * sizeof *o), *wo = malloc(16 * n * sizeof *wo);
  int64_t *lo = malloc(8 * n * sizeof *lo), *wlo = malloc(8 * n * sizeof *wlo);
  for (int i = 0; i < n; i++) {
    for (int r = 0; r < 16; r++) wo[16 * i + r] = ref_int(r, a[i], b[i]);
    for (int s = 0; s < 8; s++) wlo[8 * i + s] = ref_long(s, la[i], lb[i], a[i], b[i]);
  }
  kcrt_buffer *da = rt_upload(&rt, a, n * 4), *db = rt_upload(&rt, b, n * 4),
              *dla = rt_upload(&rt, la, n * 8), *dlb = rt_upload(&rt, lb, n * 8),
              *dout = rt_alloc(&rt, 16 * n * 4), *dlo = rt_alloc(&rt, 8 * n * 8);
  kcrt_arg ia[] = {KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(db),  KCRT_ARG_BUFFER(dout),
                   KCRT_ARG_BUFFER(dla), KCRT_ARG_BUFFER(dlb), KCRT_ARG_BUFFER(dlo)};
  rt_launch(&rt, rt_kernel(&rt, "ints"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, ia, 6);
  rt_download(&rt, dout, o, 16 * n * 4);
  rt_download(&rt, dlo, lo, 8 * n * 8);
  for (int i = 0; i < 16 * n; i++)
    if (o[i] != wo[i])
      rt_fail(&rt, "ints r[%d] of x=%d y=%d: %d (0x%x), want %d (0x%x)", i % 16, a[i / 16],
              b[i / 16], o[i], (unsigned)o[i], wo[i], (unsigned)wo[i]);
  for (int i = 0; i < 8 * n; i++)
    if (lo[i] != wlo[i])
      rt_fail(&rt, "longs s[%d] of p=%lld q=%lld: %lld, want %lld", i % 8, (long long)la[i / 8],
              (long long)lb[i / 8], (long long)lo[i], (long long)wlo[i]);

  /* relational: values drawn from a small pool of specials and randoms, so that equal,
     unordered and subnormal operands all occur. */
  float fpool[16] = {0.0f, -0.0f,  1.0f,    -1.0f,     INFINITY,       -INFINITY,
                     NAN,  1e-40f, -1e-40f, 0x1p-126f, 0x1.fffffep127f};
  double dpool[16] = {0.0,
                      -0.0,
                      1.0,
                      -1.0,
                      INFINITY,
                      -INFINITY,
                      NAN,
                      1e-310,
                      -1e-310,
                      0x1p-1022,
                      0x1.fffffffffffffp1023};
  for (int k = 11; k < 16; k++) {
    fpool[k] = rt_float(&rt, -100.0f, 100.0f);
    dpool[k] = rt_double(&rt, -100.0, 100.0);
  }
  float *f = malloc(8 * n * sizeof *f);
  double *d = malloc(4 * n * sizeof *d);
  for (int i = 0; i < 8 * n; i++) f[i] = fpool[rt_u32(&rt) % 16];
  for (int i = 0; i < 4 * n; i++) d[i] = dpool[rt_u32(&rt) % 16];
  int32_t *ro = malloc(32 * n * 4), *wro = malloc(32 * n * 4), *rs = malloc(n * 4),
          *wrs = malloc(n * 4);
  int64_t *rd = malloc(6 * n * 8), *wrd = malloc(6 * n * 8);
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < 4; c++) {
      float x = f[8 * i + c], y = f[8 * i + 4 + c];
      int32_t *w = wro + 32 * i + c;
      int eq = x == y ? -1 : 0, ne = x != y ? -1 : 0, gt = x > y ? -1 : 0, ge = x >= y ? -1 : 0;
      int lt = x < y ? -1 : 0, le = x <= y ? -1 : 0, lg = (x < y || x > y) ? -1 : 0;
      int ord = !isnan(x) && !isnan(y) ? -1 : 0;
      w[0] = (int32_t)((uint32_t)eq ^ shl(ne, 1));
      w[4] = (int32_t)((uint32_t)gt ^ shl(ge, 2));
      w[8] = (int32_t)((uint32_t)lt ^ shl(le, 3));
      w[12] = (int32_t)((uint32_t)lg ^ shl(ord, 4));
      w[16] = ord ? 0 : -1;
      w[20] = fpclassify(x) == FP_NORMAL ? -1 : 0;
      w[24] = signbit(y) ? -1 : 0;
    }
    float *x = f + 8 * i, *y = x + 4;
    wro[32 * i + 28] = fpclassify(x[0]) == FP_NORMAL;
    wro[32 * i + 29] = signbit(x[1]) != 0;
    wro[32 * i + 30] = isnan(x[2]) || isnan(y[2]);
    wro[32 * i + 31] = x[3] < y[3] || x[3] > y[3];
    for (int c = 0; c < 2; c++) {
      double p = d[4 * i + c], q = d[4 * i + 2 + c];
      int64_t lt = p < q ? -1 : 0, ord = !isnan(p) && !isnan(q) ? -1 : 0;
      int64_t nm = fpclassify(p) == FP_NORMAL ? -1 : 0, sb = signbit(q) ? -1 : 0;
      wrd[6 * i + c] = (int64_t)((uint64_t)lt ^ ((uint64_t)ord << 1));
      wrd[6 * i + 2 + c] = (int64_t)((uint64_t)nm ^ ((uint64_t)sb << 2));
      wrd[6 * i + 4 + c] = p >= q ? -1 : 0;
    }
    double *p = d + 4 * i, *q = p + 2;
    wrs[i] = (p[0] == q[0]) | ((fpclassify(q[1]) == FP_NORMAL) << 1) | ((signbit(p[1]) != 0) << 2);
  }
  kcrt_buffer *df = rt_upload(&rt, f, 8 * n * 4), *dd = rt_upload(&rt, d, 4 * n * 8),
              *dro = rt_alloc(&rt, 32 * n * 4), *drd = rt_alloc(&rt, 6 * n * 8),
              *drs = rt_alloc(&rt, n * 4);
  kcrt_arg ra[] = {KCRT_ARG_BUFFER(df), KCRT_ARG_BUFFER(dd), KCRT_ARG_BUFFER(dro),
                   KCRT_ARG_BUFFER(drd), KCRT_ARG_BUFFER(drs)};
  rt_launch(&rt, rt_kernel(&rt, "relational"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, ra,
            5);
  rt_download(&rt, dro, ro, 32 * n * 4);
  rt_download(&rt, drd, rd, 6 * n * 8);
  rt_download(&rt, drs, rs, n * 4);
  /* a subnormal operand may be flushed to zero where the device does not keep them (rt_flushes):
     its comparisons are then those of zero */
  for (int i = 0; i < 32 * n; i++)
    if (ro[i] != wro[i] &&
        !rt_skip_sub32(&rt, f[8 * (i / 32) + i % 4], f[8 * (i / 32) + 4 + i % 4], 0, 0))
      rt_fail(&rt, "relational float r[%d].s%d (x %.9g, y %.9g): %d, want %d", i % 32 / 4, i % 4,
              f[8 * (i / 32) + i % 4], f[8 * (i / 32) + 4 + i % 4], ro[i], wro[i]);
  for (int i = 0; i < n; i++) {
    const double *p = d + 4 * i;
    bool differs = rs[i] != wrs[i];
    for (int k = 0; k < 6; k++) differs = differs || rd[6 * i + k] != wrd[6 * i + k];
    if (differs && rt_skip_sub64(&rt, p[0], p[1], p[2], p[3])) {
      for (int k = 0; k < 6; k++) rd[6 * i + k] = wrd[6 * i + k];
      rs[i] = wrs[i];
    }
  }
  rt_cmp_i64(&rt, "relational double2", rd, wrd, 6 * (size_t)n);
  rt_cmp_i32(&rt, "relational double scalars", rs, wrs, (size_t)n);

  /* async copies: groups of 64 work-items. */
  int groups = n / 64;
  float *in = malloc(192 * groups * sizeof *in), *out = malloc(128 * groups * sizeof *out),
        *wout = malloc(128 * groups * sizeof *wout);
  for (int i = 0; i < 192 * groups; i++) in[i] = rt_float(&rt, -10.0f, 10.0f);
  for (int g = 0; g < groups; g++)
    for (int l = 0; l < 64; l++) {
      const float *t = in + 192 * g;
      wout[128 * g + 2 * l] = (t[3 * l] + t[3 * l + 2]) + t[3 * l + 1] * 2.0f;
      wout[128 * g + 2 * l + 1] = -1234.5f; /* the stride's gaps stay as they were */
    }
  for (int i = 0; i < 128 * groups; i++) out[i] = -1234.5f;
  kcrt_buffer *din = rt_upload(&rt, in, 192 * groups * 4),
              *dout2 = rt_upload(&rt, out, 128 * groups * 4);
  kcrt_arg aa[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout2)};
  rt_launch(&rt, rt_kernel(&rt, "async"), KCRT_DIM1((unsigned)groups), KCRT_DIM1(64), 0, aa, 2);
  rt_download(&rt, dout2, out, 128 * groups * 4);
  rt_cmp_f32(&rt, "async copies", out, wout, 128 * (size_t)groups, 0, 0);

  free(a), free(b), free(la), free(lb), free(o), free(wo), free(lo), free(wlo);
  free(f), free(d), free(ro), free(wro), free(rs), free(wrs), free(rd), free(wrd);
  free(in), free(out), free(wout);
  return rt_finish(&rt, "%d work-items", n);
}
