/* cuda_cxx.c — runs tests/runtime/cuda_cxx.cu (a .cu file: references, default arguments,
 * C++ casts, methods, user operators on float2, function and kernel templates, cooperative
 * groups, CUDA vector types) through libkcrt on fresh random inputs, every element against
 * a host reference computed in the same order. */
#include "rt_common.h"

#include <stdlib.h>
#include <string.h>

static float clampf(float v, float lo, float hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_cxx");
  int n = rt_int(&rt, 100, 5000);

  /* refs */
  float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
        *wout = malloc(n * sizeof *wout);
  int32_t *cnt = malloc(n * sizeof *cnt), *wcnt = malloc(n * sizeof *wcnt);
  for (int i = 0; i < n; i++) {
    in[i] = rt_float(&rt, -100.0f, 100.0f);
    cnt[i] = (int32_t)(rt_u32(&rt) % 1000);
    wout[i] = (in[i] + in[i]) * 3.0f;
    int32_t bits;
    memcpy(&bits, &in[i], sizeof bits);
    wcnt[i] = cnt[i] + (i & 1) + 2 + (bits & 1);
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_buffer *dcnt = rt_upload(&rt, cnt, n * sizeof *cnt);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(dcnt),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "refs"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, a1, 4);
  rt_download(&rt, dout, out, n * sizeof *out);
  rt_download(&rt, dcnt, cnt, n * sizeof *cnt);
  rt_cmp_f32(&rt, "refs out", out, wout, n, 0, 0);
  rt_cmp_i32(&rt, "refs counts", cnt, wcnt, n);

  /* methods: float2 is {x, y}, 8 bytes */
  float *v = malloc(2 * n * sizeof *v), *mean = malloc(n * sizeof *mean);
  float *wmean = malloc(n * sizeof *wmean), *sum = malloc(2 * n * sizeof *sum);
  float *wsum = malloc(2 * n * sizeof *wsum);
  for (int i = 0; i < 2 * n; i++) v[i] = rt_float(&rt, -2.0f, 2.0f);
  for (int i = 0; i < n; i++) {
    float acc = 0.0f, sx = 0.0f, sy = 0.0f;
    for (int k = 0; k < 4; k++) {
      const float *x = &v[2 * ((i + k) % n)];
      acc += clampf(x[0], -1.0f, 1.0f);
      sx += x[0];
      sy += x[1];
    }
    wmean[i] = acc / 4;
    wsum[2 * i] = sx + 1.0f;
    wsum[2 * i + 1] = sy + 2.0f;
  }
  kcrt_buffer *dv = rt_upload(&rt, v, 2 * n * sizeof *v), *dmean = rt_alloc(&rt, n * sizeof *mean);
  kcrt_buffer *dsum = rt_alloc(&rt, 2 * n * sizeof *sum);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(dv), KCRT_ARG_BUFFER(dmean), KCRT_ARG_BUFFER(dsum),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "methods"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a2, 4);
  rt_download(&rt, dmean, mean, n * sizeof *mean);
  rt_download(&rt, dsum, sum, 2 * n * sizeof *sum);
  rt_cmp_f32(&rt, "methods mean", mean, wmean, n, 0, 0);
  rt_cmp_f32(&rt, "methods sum", sum, wsum, 2 * n, 0, 0);

  /* block_sum<64, int> and block_sum<128, float>: the same tree as the kernel */
  int blocks = rt_int(&rt, 1, 64);
  int32_t *ii = malloc(blocks * 128 * sizeof *ii), *io = malloc(blocks * sizeof *io);
  int32_t *wio = malloc(blocks * sizeof *wio);
  float *fi = malloc(blocks * 128 * sizeof *fi), *fo = malloc(blocks * sizeof *fo);
  float *wfo = malloc(blocks * sizeof *wfo), tile[128];
  for (int i = 0; i < blocks * 128; i++) ii[i] = (int32_t)rt_u32(&rt), fi[i] = rt_float(&rt, -1, 1);
  for (int b = 0; b < blocks; b++) {
    uint32_t s = 0;
    for (int t = 0; t < 64; t++) s += (uint32_t)ii[b * 64 + t];
    wio[b] = (int32_t)s;
    memcpy(tile, &fi[b * 128], sizeof tile);
    for (int st = 64; st > 0; st >>= 1)
      for (int t = 0; t < st; t++) tile[t] += tile[t + st];
    wfo[b] = tile[0];
  }
  kcrt_buffer *dii = rt_upload(&rt, ii, blocks * 64 * sizeof *ii);
  kcrt_buffer *dio = rt_alloc(&rt, blocks * sizeof *io);
  kcrt_arg a3[] = {KCRT_ARG_BUFFER(dii), KCRT_ARG_BUFFER(dio)};
  rt_launch(&rt, rt_kernel(&rt, "block_sum_64_int"), KCRT_DIM1(blocks), KCRT_DIM1(64), 0, a3, 2);
  rt_download(&rt, dio, io, blocks * sizeof *io);
  rt_cmp_i32(&rt, "block_sum<64, int>", io, wio, blocks);
  kcrt_buffer *dfi = rt_upload(&rt, fi, blocks * 128 * sizeof *fi);
  kcrt_buffer *dfo = rt_alloc(&rt, blocks * sizeof *fo);
  kcrt_arg a4[] = {KCRT_ARG_BUFFER(dfi), KCRT_ARG_BUFFER(dfo)};
  rt_launch(&rt, rt_kernel(&rt, "block_sum_128_float"), KCRT_DIM1(blocks), KCRT_DIM1(128), 0, a4,
            2);
  rt_download(&rt, dfo, fo, blocks * sizeof *fo);
  rt_cmp_f32(&rt, "block_sum<128, float>", fo, wfo, blocks, 0, 0);

  /* vectors: uchar4 in, float4 out */
  uint8_t *px = malloc(4 * n);
  float *f4 = malloc(4 * n * sizeof *f4), *wf4 = malloc(4 * n * sizeof *wf4);
  for (int i = 0; i < 4 * n; i++) px[i] = (uint8_t)rt_u32(&rt);
  for (int i = 0; i < n; i++) {
    for (int c = 0; c < 3; c++) wf4[4 * i + c] = px[4 * i + c] / 255.0f;
    wf4[4 * i + 3] = (float)(px[4 * i + 3] + px[4 * i]);
  }
  kcrt_buffer *dpx = rt_upload(&rt, px, 4 * n), *df4 = rt_alloc(&rt, 4 * n * sizeof *f4);
  kcrt_arg a5[] = {KCRT_ARG_BUFFER(dpx), KCRT_ARG_BUFFER(df4), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "vectors"), KCRT_DIM1(rt_ceil_div(n, 32)), KCRT_DIM1(32), 0, a5, 3);
  rt_download(&rt, df4, f4, 4 * n * sizeof *f4);
  rt_cmp_f32(&rt, "vectors", f4, wf4, 4 * n, 0, 0);

  /* cond_refs: writes through references reach the element the conditional picked. */
  int32_t *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb),
          *sel = malloc(n * sizeof *sel);
  int32_t *wa = malloc(n * sizeof *wa), *wb = malloc(n * sizeof *wb);
  for (int i = 0; i < n; i++) {
    wa[i] = ra[i] = (int32_t)(rt_u32(&rt) % 100000);
    wb[i] = rb[i] = (int32_t)(rt_u32(&rt) % 100000);
    sel[i] = (int32_t)(rt_u32(&rt) % 4);
    int32_t *r = sel[i] & 1 ? &wa[i] : &wb[i];
    *r += 10;
    *(sel[i] & 2 ? &wa[i] : &wb[i]) += 100;
    *r += 1;
    wb[i] -= 1000;
  }
  kcrt_buffer *dra = rt_upload(&rt, ra, n * sizeof *ra), *drb = rt_upload(&rt, rb, n * sizeof *rb),
              *dsel = rt_upload(&rt, sel, n * sizeof *sel);
  kcrt_arg a6[] = {KCRT_ARG_BUFFER(dra), KCRT_ARG_BUFFER(drb), KCRT_ARG_BUFFER(dsel),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "cond_refs"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a6,
            4);
  rt_download(&rt, dra, ra, n * sizeof *ra);
  rt_download(&rt, drb, rb, n * sizeof *rb);
  rt_cmp_i32(&rt, "cond_refs a", ra, wa, n);
  rt_cmp_i32(&rt, "cond_refs b", rb, wb, n);
  free(ra), free(rb), free(sel), free(wa), free(wb);

  /* ctors: a = Tally() then add(x): sum 2x, count 1; b = Tally(x): scale 3, count 1, then add(1):
     sum x + 3, count 2; Tally(x, 3): sum 3x, count 3; Pair{x, 0.5}: lo = Tally(x), hi sum 1,
     count 2. */
  float *ci = malloc(n * sizeof *ci), *co = malloc(4 * n * sizeof *co),
        *cw = malloc(4 * n * sizeof *cw);
  for (int i = 0; i < n; i++) {
    float x = rt_float(&rt, -100.0f, 100.0f);
    ci[i] = x;
    cw[4 * i + 0] = (x * 2.0f) / 1;
    cw[4 * i + 1] = (x + 1.0f * 3.0f) / 2 + 3.0f;
    cw[4 * i + 2] = (x * 3) / 3 + 2.0f;
    cw[4 * i + 3] = x / 1 + 1.0f + 2.0f;
  }
  kcrt_buffer *dci = rt_upload(&rt, ci, n * sizeof *ci), *dco = rt_alloc(&rt, 4 * n * sizeof *co);
  kcrt_arg ac[] = {KCRT_ARG_BUFFER(dci), KCRT_ARG_BUFFER(dco), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "ctors"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, ac, 3);
  rt_download(&rt, dco, co, 4 * n * sizeof *co);
  rt_cmp_f32(&rt, "ctors", co, cw, 4 * (size_t)n, 0, 0);
  free(ci), free(co), free(cw);

  /* defaults: the values C++ gives each (see cuda_cxx.cu's Dflt and Outer). */
  int *di = malloc(n * sizeof *di), *dres = malloc(8 * n * sizeof *dres),
      *dw = malloc(8 * n * sizeof *dw);
  for (int i = 0; i < n; i++) {
    int x = rt_int(&rt, -1000, 1000);
    di[i] = x;
    int *w = dw + 8 * i;
    w[0] = 5 + 5;
    w[1] = 5 + 7 + 0 + 2;
    w[2] = 5 + 50 + (5 + x) * 100;
    w[3] = x + 10;
    w[4] = 5 + 0 + 0;
    w[5] = 5 + 0 + 0 + 5;
    w[6] = 0;
    w[7] = 20 + 500 + 3000;
  }
  kcrt_buffer *ddi = rt_upload(&rt, di, n * sizeof *di), *ddo = rt_alloc(&rt, 8 * n * sizeof *dres);
  kcrt_arg ad[] = {KCRT_ARG_BUFFER(ddi), KCRT_ARG_BUFFER(ddo), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "defaults"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, ad,
            3);
  rt_download(&rt, ddo, dres, 8 * n * sizeof *dres);
  rt_cmp_i32(&rt, "defaults", dres, dw, 8 * (size_t)n);
  free(di), free(dres), free(dw);

  /* strings: slen("odd"/"even!") * 100 + slen("strings") * 10; the word's last character plus
     's' of __FUNCTION__. */
  int *si = malloc(n * sizeof *si), *so = malloc(2 * n * sizeof *so),
      *sw = malloc(2 * n * sizeof *sw);
  for (int i = 0; i < n; i++) {
    si[i] = rt_int(&rt, 0, 1000);
    sw[2 * i] = (si[i] & 1 ? 3 : 5) * 100 + 7 * 10;
    sw[2 * i + 1] = (si[i] & 1 ? 'd' : '!') + 's' + 10 * (si[i] % 3 + 1);
  }
  kcrt_buffer *dsi = rt_upload(&rt, si, n * sizeof *si), *dso = rt_alloc(&rt, 2 * n * sizeof *so);
  kcrt_arg as[] = {KCRT_ARG_BUFFER(dsi), KCRT_ARG_BUFFER(dso), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "strings"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, as,
            3);
  rt_download(&rt, dso, so, 2 * n * sizeof *so);
  rt_cmp_i32(&rt, "strings", so, sw, 2 * (size_t)n);
  free(si), free(so), free(sw);

  /* braced: k = 0 and 2 give pair_sum({k, 0}) + nest_sum({{k, x % 5}, {0, 0}}), k = 1 gives
     pair_sum({x % 7, 1}); p = {x % 3} leaves b zero; int2{x % 11, 4}, int{5} and BInit's
     {4, 5, 0}. */
  int *bi = malloc(n * sizeof *bi), *bo = malloc(3 * n * sizeof *bo),
      *bw = malloc(3 * n * sizeof *bw);
  for (int i = 0; i < n; i++) {
    int x = bi[i] = rt_int(&rt, 0, 100000);
    int acc = 0;
    for (int k = 0; k < 3; k++)
      acc += k == 1 ? (x % 7) * 10 + k : k * 10 + k * 1000 + (x % 5) * 100;
    bw[3 * i] = acc;
    bw[3 * i + 1] = (x % 3) * 10;
    bw[3 * i + 2] = (x % 11) * 100 + 4 + 5 + 4 + 50;
  }
  kcrt_buffer *dbi = rt_upload(&rt, bi, n * sizeof *bi), *dbo = rt_alloc(&rt, 3 * n * sizeof *bo);
  kcrt_arg ab[] = {KCRT_ARG_BUFFER(dbi), KCRT_ARG_BUFFER(dbo), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "braced"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, ab,
            3);
  rt_download(&rt, dbo, bo, 3 * n * sizeof *bo);
  rt_cmp_i32(&rt, "braced", bo, bw, 3 * (size_t)n);
  free(bi), free(bo), free(bw);

  /* refcast: per 4 floats, x = their sum and w = -sum, written through references the casts
     make; per 2 ints, the second = the first + 1. */
  float *rf = malloc(4 * n * sizeof *rf), *rfo = malloc(4 * n * sizeof *rfo),
        *rfw = malloc(4 * n * sizeof *rfw);
  int *rbits = malloc(2 * n * sizeof *rbits), *rbitso = malloc(2 * n * sizeof *rbitso),
      *rbitsw = malloc(2 * n * sizeof *rbitsw);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 4; j++) rfw[4 * i + j] = rf[4 * i + j] = rt_float(&rt, -10.0f, 10.0f);
    float sum = rf[4 * i] + rf[4 * i + 1] + rf[4 * i + 2] + rf[4 * i + 3];
    rfw[4 * i] = sum, rfw[4 * i + 3] = -sum;
    rbitsw[2 * i] = rbits[2 * i] = rt_int(&rt, -1000000, 1000000);
    rbits[2 * i + 1] = 0, rbitsw[2 * i + 1] = rbits[2 * i] + 1;
  }
  kcrt_buffer *drf = rt_upload(&rt, rf, 4 * n * sizeof *rf),
              *drbits = rt_upload(&rt, rbits, 2 * n * sizeof *rbits);
  kcrt_arg ar[] = {KCRT_ARG_BUFFER(drf), KCRT_ARG_BUFFER(drbits), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "refcast"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, ar,
            3);
  rt_download(&rt, drf, rfo, 4 * n * sizeof *rfo);
  rt_download(&rt, drbits, rbitso, 2 * n * sizeof *rbitso);
  rt_cmp_f32(&rt, "refcast floats", rfo, rfw, 4 * (size_t)n, 0, 0);
  rt_cmp_i32(&rt, "refcast ints", rbitso, rbitsw, 2 * (size_t)n);
  free(rf), free(rfo), free(rfw), free(rbits), free(rbitso), free(rbitsw);

  /* fptmpl<fp_sub, Twice> and fptmpl<&fp_max, Twice>: 2 op(a, 1.5) + op(1.5, a) */
  float *fpa = malloc(n * sizeof *fpa), *fpo = malloc(n * sizeof *fpo),
        *fpw = malloc(n * sizeof *fpw);
  for (int i = 0; i < n; i++) fpa[i] = rt_float(&rt, -5.0f, 5.0f);
  kcrt_buffer *dfpa = rt_upload(&rt, fpa, n * sizeof *fpa), *dfpo = rt_alloc(&rt, n * sizeof *fpo);
  kcrt_arg afp[] = {KCRT_ARG_BUFFER(dfpa), KCRT_ARG_BUFFER(dfpo), KCRT_ARG_VALUE(n)};
  for (int which = 0; which < 2; which++) {
    const char *name = which ? "fptmpl_fp_max_Twice" : "fptmpl_fp_sub_Twice";
    rt_launch(&rt, rt_kernel(&rt, name), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, afp, 3);
    rt_download(&rt, dfpo, fpo, n * sizeof *fpo);
    for (int i = 0; i < n; i++) {
      float x = fpa[i];
      fpw[i] = which ? 2.0f * (x > 1.5f ? x : 1.5f) + (1.5f > x ? 1.5f : x)
                     : 2.0f * (x - 1.5f) + (1.5f - x);
    }
    rt_cmp_f32(&rt, name, fpo, fpw, n, 0, 0);
  }
  free(fpa), free(fpo), free(fpw);

  /* statics: (4 x + 6) * 100 + 4 * 10 + 2 + 7, and 999 thousands from three constructed 9s */
  int *sti = malloc(n * sizeof *sti), *sto = malloc(n * sizeof *sto),
      *stw = malloc(n * sizeof *stw);
  for (int i = 0; i < n; i++) {
    sti[i] = rt_int(&rt, -1000000, 1000000);
    stw[i] = (4 * sti[i] + 6) * 100 + 40 + 2 + 7 + 999000;
  }
  kcrt_buffer *dsti = rt_upload(&rt, sti, n * sizeof *sti), *dsto = rt_alloc(&rt, n * sizeof *sto);
  kcrt_arg ast[] = {KCRT_ARG_BUFFER(dsti), KCRT_ARG_BUFFER(dsto), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "statics"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, ast,
            3);
  rt_download(&rt, dsto, sto, n * sizeof *sto);
  rt_cmp_i32(&rt, "statics", sto, stw, n);
  free(sti), free(sto), free(stw);

  /* fold_sum<int, int, int> (a pack: named fold_sum_0): ((a * 2 + b) * 2 + c), from 0 */
  int *fs[3], *fso = malloc(n * sizeof *fso), *fsw = malloc(n * sizeof *fsw);
  kcrt_buffer *dfs[3];
  for (int k = 0; k < 3; k++) {
    fs[k] = malloc(n * sizeof *fs[k]);
    for (int i = 0; i < n; i++) fs[k][i] = rt_int(&rt, -100000, 100000);
    dfs[k] = rt_upload(&rt, fs[k], n * sizeof *fs[k]);
  }
  for (int i = 0; i < n; i++) fsw[i] = (fs[0][i] * 2 + fs[1][i]) * 2 + fs[2][i];
  kcrt_buffer *dfso = rt_alloc(&rt, n * sizeof *fso);
  kcrt_arg afs[] = {KCRT_ARG_BUFFER(dfso), KCRT_ARG_VALUE(n), KCRT_ARG_BUFFER(dfs[0]),
                    KCRT_ARG_BUFFER(dfs[1]), KCRT_ARG_BUFFER(dfs[2])};
  rt_launch(&rt, rt_kernel(&rt, "fold_sum_0"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0,
            afs, 5);
  rt_download(&rt, dfso, fso, n * sizeof *fso);
  rt_cmp_i32(&rt, "fold_sum", fso, fsw, n);
  for (int k = 0; k < 3; k++) free(fs[k]);
  free(fso), free(fsw);

  /* nonconst: the top bit's index of v | 1, plus 100 for 1 / ln 10 in (0.43, 0.44). */
  uint32_t *nci = malloc(n * sizeof *nci);
  int32_t *nco = malloc(n * sizeof *nco), *ncw = malloc(n * sizeof *ncw);
  for (int i = 0; i < n; i++) {
    nci[i] = i < 32 ? 1u << i : (uint32_t)rt_u64(&rt) >> rt_int(&rt, 0, 31);
    int b = 31;
    while (!((nci[i] | 1u) >> b)) b--;
    ncw[i] = b + 100;
  }
  kcrt_buffer *dnci = rt_upload(&rt, nci, n * sizeof *nci), *dnco = rt_alloc(&rt, n * sizeof *nco);
  kcrt_arg anc[] = {KCRT_ARG_BUFFER(dnci), KCRT_ARG_BUFFER(dnco), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "nonconst"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, anc,
            3);
  rt_download(&rt, dnco, nco, n * sizeof *nco);
  rt_cmp_i32(&rt, "nonconst", nco, ncw, n);
  free(nci), free(nco), free(ncw);

  free(in), free(out), free(wout), free(cnt), free(wcnt), free(v), free(mean), free(wmean);
  free(sum), free(wsum), free(ii), free(io), free(wio), free(fi), free(fo), free(wfo), free(px);
  free(f4), free(wf4);
  return rt_finish(&rt, "%d elements, %d blocks", n, blocks);
}
