/* intrinsics.c — runs tests/warp/intrinsics.k (every CUDA intrinsic kcc knows, atomicInc/Dec,
 * atomicAdd on double and unsigned long long, __syncthreads_count/_and/_or) on random inputs
 * and compares every result with a host reference written from CUDA's definitions. Integer
 * and correctly rounded results must be bit-exact; only __fdividef (approximate in CUDA) has
 * a tolerance. */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NU = 28, NQ = 20, NF = 16, ND = 11 };

/* PTX's cvt.r*i: round by mode (0 rn, 1 rz, 2 ru, 3 rd), then saturate; NaN gives 0. */
static double rnd(double x, int mode) {
  return mode == 0 ? rint(x) : mode == 1 ? trunc(x) : mode == 2 ? ceil(x) : floor(x);
}
static int64_t sat_s(double x, int mode, int bits) {
  if (isnan(x)) return 0;
  double r = rnd(x, mode), hi = ldexp(1.0, bits - 1);
  if (r >= hi) return (int64_t)(bits == 64 ? INT64_MAX : (int64_t)hi - 1);
  if (r < -hi) return bits == 64 ? INT64_MIN : -(int64_t)hi;
  return (int64_t)r;
}
static uint64_t sat_u(double x, int mode, int bits) {
  if (isnan(x)) return 0;
  double r = rnd(x, mode), hi = ldexp(1.0, bits);
  if (r >= hi) return bits == 64 ? UINT64_MAX : (uint64_t)hi - 1;
  if (r <= 0) return 0;
  return (uint64_t)r;
}

static int clz32(uint32_t x) {
  return x ? __builtin_clz(x) : 32;
}
static int clz64(uint64_t x) {
  return x ? __builtin_clzll(x) : 64;
}
static int ffs32(uint32_t x) {
  return x ? __builtin_ctz(x) + 1 : 0;
}
static int ffs64(uint64_t x) {
  return x ? __builtin_ctzll(x) + 1 : 0;
}
static uint64_t brev(uint64_t x, int bits) {
  uint64_t r = 0;
  for (int i = 0; i < bits; i++) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
}
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t v = (uint64_t)y << 32 | x;
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
static int32_t sext24(uint32_t x) {
  return (int32_t)(x << 8) >> 8;
}

/* A float for the conversions: ordinary values, ties (k + 0.5), values past every integer
 * range, infinities and NaN. */
static float conv_input(Rt *rt) {
  switch (rt_int(rt, 0, 9)) {
  case 0: return (float)rt_int(rt, -1000, 1000) + 0.5f;
  case 1: return rt_float(rt, -3e9f, 5e9f);
  case 2: return rt_float(rt, -3e19f, 3e19f);
  case 3:
    return (float[]){
        INFINITY,      -INFINITY,      NAN,           -0.0f,       0.0f,
        2147483648.0f, -2147483904.0f, 4294967296.0f, 0.49999997f, -0.5f}[rt_int(rt, 0, 9)];
  default: return rt_float(rt, -1e5f, 1e5f);
  }
}

static void run_intrinsics(Rt *rt) {
  int n = rt_int(rt, 3000, 9000);
  int32_t *a = malloc(n * 4), *b = malloc(n * 4);
  uint32_t *c = malloc(n * 4);
  float *f = malloc(n * 4), *g = malloc(n * 4), *h = malloc(n * 4);
  double *d = malloc(n * 8), *k = malloc(n * 8);
  int64_t *l = malloc(n * 8);
  uint64_t *q = malloc(n * 8);
  for (int i = 0; i < n; i++) {
    a[i] = (int32_t)rt_u32(rt);
    b[i] = (int32_t)rt_u32(rt);
    c[i] = rt_u32(rt);
    l[i] = (int64_t)rt_u64(rt);
    q[i] = rt_u64(rt);
    if (i % 17 == 0) a[i] = 0, c[i] = 0, l[i] = 0, q[i] = 0; /* clz, ffs, popc of 0 */
    if (i % 19 == 1) a[i] = INT32_MIN, l[i] = INT64_MIN;
    f[i] = rt_float(rt, -1000, 1000);
    g[i] = rt_float(rt, 0.001f, 100) * (rt_u32(rt) & 1 ? 1 : -1);
    h[i] = conv_input(rt);
    d[i] = rt_double(rt, -1e6, 1e6);
    k[i] = i % 5 == 0 ? (double)h[i] : rt_double(rt, -1e19, 2e19);
  }
  kcrt_buffer *ba = rt_upload(rt, a, n * 4), *bb = rt_upload(rt, b, n * 4),
              *bc = rt_upload(rt, c, n * 4), *bf = rt_upload(rt, f, n * 4),
              *bg = rt_upload(rt, g, n * 4), *bh = rt_upload(rt, h, n * 4),
              *bd = rt_upload(rt, d, n * 8), *bk = rt_upload(rt, k, n * 8),
              *bl = rt_upload(rt, l, n * 8), *bq = rt_upload(rt, q, n * 8);
  kcrt_buffer *bu = rt_alloc(rt, (size_t)n * NU * 4), *buq = rt_alloc(rt, (size_t)n * NQ * 8),
              *bfo = rt_alloc(rt, (size_t)n * NF * 4), *bdo = rt_alloc(rt, (size_t)n * ND * 8);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(ba),  KCRT_ARG_BUFFER(bb),  KCRT_ARG_BUFFER(bc),
                     KCRT_ARG_BUFFER(bf),  KCRT_ARG_BUFFER(bg),  KCRT_ARG_BUFFER(bh),
                     KCRT_ARG_BUFFER(bd),  KCRT_ARG_BUFFER(bk),  KCRT_ARG_BUFFER(bl),
                     KCRT_ARG_BUFFER(bq),  KCRT_ARG_BUFFER(bu),  KCRT_ARG_BUFFER(buq),
                     KCRT_ARG_BUFFER(bfo), KCRT_ARG_BUFFER(bdo), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "intrinsics"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0,
            args, 15);
  uint32_t *U = malloc((size_t)n * NU * 4), *WU = malloc((size_t)n * NU * 4);
  uint64_t *Q = malloc((size_t)n * NQ * 8), *WQ = malloc((size_t)n * NQ * 8);
  float *F = malloc((size_t)n * NF * 4), *WF = malloc((size_t)n * NF * 4);
  double *D = malloc((size_t)n * ND * 8), *WD = malloc((size_t)n * ND * 8);
  rt_download(rt, bu, U, (size_t)n * NU * 4);
  rt_download(rt, buq, Q, (size_t)n * NQ * 8);
  rt_download(rt, bfo, F, (size_t)n * NF * 4);
  rt_download(rt, bdo, D, (size_t)n * ND * 8);
  for (int i = 0; i < n; i++) {
    int32_t x = a[i], y = b[i];
    uint32_t z = c[i];
    float p = f[i], r = g[i], s = h[i];
    double e = d[i], t = k[i];
    int64_t w = l[i];
    uint64_t v = q[i];
    uint32_t *u = WU + (size_t)i * NU;
    u[0] = (uint32_t)((int64_t)sext24((uint32_t)x) * sext24((uint32_t)y));
    u[1] = (z & 0xffffff) * ((uint32_t)y & 0xffffff);
    u[2] = (uint32_t)(((int64_t)x * y) >> 32);
    u[3] = (uint32_t)(((uint64_t)z * (uint32_t)x) >> 32);
    u[4] = (uint32_t)(__builtin_popcount(z) | __builtin_popcountll(v) << 8);
    u[5] = (uint32_t)(clz32((uint32_t)x) | clz64((uint64_t)w) << 8);
    u[6] = (uint32_t)(ffs32((uint32_t)x) | ffs64((uint64_t)w) << 8);
    u[7] = (uint32_t)brev(z, 32);
    u[8] = byte_perm((uint32_t)x, z, (uint32_t)y);
    u[9] = (x < y ? (uint32_t)y - (uint32_t)x : (uint32_t)x - (uint32_t)y) + z;
    u[10] = (z < (uint32_t)x ? (uint32_t)x - z : z - (uint32_t)x) + (uint32_t)y;
    u[11] = rt_f32_bits(p) ^ rt_f32_bits(r);
    for (int m = 0; m < 4; m++) {
      u[12 + m] = (uint32_t)sat_s(s, m, 32);
      u[16 + m] = (uint32_t)sat_u(s, m, 32);
      u[20 + m] = (uint32_t)sat_s(t, m, 32);
      u[24 + m] = (uint32_t)sat_u(t, m, 32);
    }
    uint64_t *qq = WQ + (size_t)i * NQ;
    qq[0] = (uint64_t)(int64_t)(((__int128)w * (int64_t)v) >> 64);
    qq[1] = (uint64_t)(((unsigned __int128)v * (uint64_t)w) >> 64);
    qq[2] = brev(v, 64);
    qq[3] = rt_f64_bits(e);
    for (int m = 0; m < 4; m++) {
      qq[4 + m] = (uint64_t)sat_s(s, m, 64);
      qq[8 + m] = sat_u(s, m, 64);
      qq[12 + m] = (uint64_t)sat_s(t, m, 64);
      qq[16 + m] = sat_u(t, m, 64);
    }
    float *ff = WF + (size_t)i * NF;
    volatile float pr = p * r; /* not fused with + s below */
    ff[0] = p / r;
    ff[1] = rt_f32_of_bits((uint32_t)x);
    ff[2] = rt_f32_of_bits(z);
    ff[3] = isnan(s) ? 0.0f : fminf(fmaxf(s, 0.0f), 1.0f);
    ff[4] = 1.0f / r;
    ff[5] = sqrtf(fabsf(p));
    ff[6] = p + r;
    ff[7] = p - r;
    ff[8] = pr;
    ff[9] = p / r;
    ff[10] = (float)x;
    ff[11] = (float)z;
    ff[12] = (float)w;
    ff[13] = (float)v;
    ff[14] = (float)e;
    ff[15] = pr + s;
    double *dd = WD + (size_t)i * ND;
    dd[0] = rt_f64_of_bits((uint64_t)w);
    dd[1] = e + (double)p;
    dd[2] = e - (double)p;
    dd[3] = e * (double)r;
    dd[4] = e / (double)r;
    dd[5] = sqrt(fabs(e));
    dd[6] = 1.0 / e;
    dd[7] = (double)x;
    dd[8] = (double)z;
    dd[9] = (double)w;
    dd[10] = (double)v;
  }
  rt_cmp_u32(rt, "32-bit results", U, WU, (size_t)n * NU);
  rt_cmp_u64(rt, "64-bit results", Q, WQ, (size_t)n * NQ);
  /* __fdividef: CUDA's is approximate (2 ulp here); the rest are exact, compared as bits. */
  float *gd = malloc(n * 4), *wd = malloc(n * 4);
  uint32_t *gb = malloc((size_t)n * NF * 4), *wb = malloc((size_t)n * NF * 4);
  for (int i = 0; i < n; i++) {
    gd[i] = F[(size_t)i * NF], wd[i] = WF[(size_t)i * NF];
    for (int j = 0; j < NF; j++) {
      float g = F[(size_t)i * NF + j], w = WF[(size_t)i * NF + j];
      /* A NaN's payload is the device's (NVIDIA GPUs give 0x7fffffff, x86 0x7fc00000): CUDA
         defines no payload for these operations, so any NaN matches a NaN. */
      if (isnan(g) && isnan(w)) g = w;
      gb[(size_t)i * NF + j] = j ? rt_f32_bits(g) : 0,
                          wb[(size_t)i * NF + j] = j ? rt_f32_bits(w) : 0;
    }
  }
  rt_cmp_f32(rt, "__fdividef", gd, wd, n, 3e-7, 0);
  rt_cmp_u32(rt, "float results (bits)", gb, wb, (size_t)n * NF);
  uint64_t *gdb = malloc((size_t)n * ND * 8), *wdb = malloc((size_t)n * ND * 8);
  for (size_t j = 0; j < (size_t)n * ND; j++)
    gdb[j] = rt_f64_bits(D[j]), wdb[j] = rt_f64_bits(WD[j]);
  rt_cmp_u64(rt, "double results (bits)", gdb, wdb, (size_t)n * ND);
  kcrt_buffer *bufs[] = {ba, bb, bc, bf, bg, bh, bd, bk, bl, bq, bu, buq, bfo, bdo};
  for (size_t j = 0; j < sizeof bufs / sizeof *bufs; j++) RT_CHECK(rt, kcrt_buffer_free(bufs[j]));
  free(a), free(b), free(c), free(f), free(g), free(h), free(d), free(k), free(l), free(q);
  free(U), free(WU), free(Q), free(WQ), free(F), free(WF), free(D), free(WD);
  free(gd), free(wd), free(gb), free(wb), free(gdb), free(wdb);
}

static void run_atomics(Rt *rt) {
  int n = rt_int(rt, 2000, 6000), m = rt_int(rt, 3, 40), bs = 128;
  int nb = (int)rt_ceil_div(n, bs);
  uint32_t *ctr = malloc(2 * m * 4), *lim = malloc(m * 4), *want = malloc(2 * m * 4);
  double *dsum = calloc(m, 8), *dv = malloc(n * 8), *wd = calloc(m, 8);
  uint64_t *qsum = calloc(m, 8), *qv = malloc(n * 8), *wq = calloc(m, 8);
  int32_t *pred = malloc(n * 4), *votes = malloc(n * 4), *wv = malloc(n * 4);
  for (int j = 0; j < m; j++) {
    lim[j] = (uint32_t)rt_int(rt, 0, 200);
    if (j == 0) lim[j] = 0xffffffffu; /* atomicInc without wrap, atomicDec through 0 */
    ctr[j] = (uint32_t)rt_int(rt, 0, 300) % (lim[j] == 0xffffffffu ? 1000 : lim[j] + 1);
    ctr[m + j] = (uint32_t)rt_int(rt, 0, 300); /* may start above the limit */
    want[j] = ctr[j], want[m + j] = ctr[m + j];
  }
  for (int i = 0; i < n; i++) {
    dv[i] = rt_int(rt, -4000, 4000) * 0.5; /* sums stay exact in any order */
    qv[i] = rt_u64(rt);
    int blk = i / bs;
    pred[i] = blk % 4 == 0 ? 1 : blk % 4 == 1 ? 0 : (int)(rt_u32(rt) % 3 == 0) * rt_int(rt, 1, 9);
  }
  for (int i = 0; i < n; i++) {
    int j = i % m;
    want[j] = want[j] >= lim[j] ? 0 : want[j] + 1;
    want[m + j] = want[m + j] == 0 || want[m + j] > lim[j] ? lim[j] : want[m + j] - 1;
    wd[j] += dv[i];
    wq[j] += qv[i];
  }
  for (int blk = 0; blk < nb; blk++) {
    int cnt = 0, all = 1, any = 0;
    for (int i = blk * bs; i < (blk + 1) * bs; i++) {
      int p = i < n ? pred[i] : 0; /* the threads past n vote 0 */
      cnt += p != 0, all &= p != 0, any |= p != 0;
    }
    for (int i = blk * bs; i < (blk + 1) * bs && i < n; i++) wv[i] = cnt | all << 16 | any << 17;
  }
  kcrt_buffer *bctr = rt_upload(rt, ctr, 2 * m * 4), *blim = rt_upload(rt, lim, m * 4),
              *bds = rt_upload(rt, dsum, m * 8), *bqs = rt_upload(rt, qsum, m * 8),
              *bdv = rt_upload(rt, dv, n * 8), *bqv = rt_upload(rt, qv, n * 8),
              *bp = rt_upload(rt, pred, n * 4), *bvo = rt_alloc(rt, n * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bctr), KCRT_ARG_BUFFER(blim), KCRT_ARG_BUFFER(bds),
                     KCRT_ARG_BUFFER(bqs),  KCRT_ARG_BUFFER(bdv),  KCRT_ARG_BUFFER(bqv),
                     KCRT_ARG_BUFFER(bp),   KCRT_ARG_BUFFER(bvo),  KCRT_ARG_VALUE(n),
                     KCRT_ARG_VALUE(m)};
  rt_launch(rt, rt_kernel(rt, "atomics"), KCRT_DIM1(nb), KCRT_DIM1(bs), 0, args, 10);
  rt_download(rt, bctr, ctr, 2 * m * 4);
  rt_download(rt, bds, dsum, m * 8);
  rt_download(rt, bqs, qsum, m * 8);
  rt_download(rt, bvo, votes, n * 4);
  rt_cmp_u32(rt, "atomicInc/atomicDec counters", ctr, want, 2 * (size_t)m);
  rt_cmp_f64(rt, "atomicAdd(double)", dsum, wd, m, 0, 0);
  rt_cmp_u64(rt, "atomicAdd(unsigned long long)", qsum, wq, m);
  rt_cmp_i32(rt, "__syncthreads_count/_and/_or", votes, wv, n);
  kcrt_buffer *bufs[] = {bctr, blim, bds, bqs, bdv, bqv, bp, bvo};
  for (size_t j = 0; j < sizeof bufs / sizeof *bufs; j++) RT_CHECK(rt, kcrt_buffer_free(bufs[j]));
  free(ctr), free(lim), free(want), free(dsum), free(dv), free(wd), free(qsum), free(qv), free(wq);
  free(pred), free(votes), free(wv);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "intrinsics");
  run_intrinsics(&rt);
  run_atomics(&rt);
  return rt_finish(&rt, "every intrinsic, atomicInc/Dec, 64-bit atomicAdd, block votes");
}
