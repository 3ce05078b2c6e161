/* vec_ops.c — host program for tests/kernels/vec_ops.k (libkcrt, tests/runtime/rt_common.h):
 * runs vec_int_ops, vec_swizzles, vec_convert and vec_math on random inputs and compares them
 * with C references. */
#include "rt_common.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int clampi(long v, long lo, long hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "vec_ops");
  int n = 1000;
  /* vec_int_ops */
  int *in = malloc(8 * n * sizeof *in), *out = malloc(64 * n * sizeof *out),
      *want = calloc(64 * n, sizeof *want);
  for (int i = 0; i < 8 * n; i++)
    in[i] = (i % 13 == 0) ? (i % 3 == 0 ? 5 : 0) : rt_int(&rt, -1000000, 1000000);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++) {
      int a = in[8 * i + k], b = in[8 * i + 4 + k] | 1;
      int *w = want + 64 * i + k;
      w[0] = (int)((unsigned)a + (unsigned)b);
      w[4] = (int)((unsigned)a - (unsigned)b * 3u);
      w[8] = a / b + a % b;
      w[12] = (a & b) | (a ^ ~b);
      w[16] = (int)((unsigned)a << (b & 7));
      w[20] = a >> 1;
      w[24] = (int)(0u - (unsigned)a);
      w[28] = a < b ? -1 : 0;
      w[32] = (a >= b ? -1 : 0) + (a == b ? -1 : 0) + (a != 5 ? -1 : 0);
      w[36] = a == 0 ? -1 : 0;
      w[40] = (a != 0 && b != 0) ? -1 : 0;
      w[44] = a != 0 ? -1 : 0;
      int c = (int)((unsigned)(a + 7) * (unsigned)b);
      c >>= 2;
      c ^= 0x55;
      w[48] = c;
      w[52] = a < b ? a : b;
      w[56] = (int)((unsigned)a >> 28);
      w[60] = 15 - k;
    }
  }
  kcrt_buffer *din = rt_upload(&rt, in, 8 * n * sizeof *in),
              *dout = rt_alloc(&rt, 64 * n * sizeof *out);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "vec_int_ops"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a1,
            3);
  rt_download(&rt, dout, out, 64 * n * sizeof *out);
  rt_cmp_i32(&rt, "vec_int_ops", out, want, 64 * n);

  /* vec_swizzles */
  float *fin = malloc(4 * n * sizeof *fin), *fout = malloc(24 * n * sizeof *fout),
        *fw = malloc(24 * n * sizeof *fw);
  for (int i = 0; i < 4 * n; i++) fin[i] = rt_float(&rt, -3, 3);
  for (int i = 0; i < n; i++) {
    float x = fin[4 * i], y = fin[4 * i + 1], z = fin[4 * i + 2], w = fin[4 * i + 3];
    float *o = fw + 24 * i;
    o[0] = x + 10 * y;
    o[1] = z - w;
    o[2] = x + y + z * w;
    o[3] = x - z + y - w;
    o[4] = z + x + y;
    o[5] = x * w;
    o[6] = y;
    o[7] = 100;
    o[8] = z + 1;
    o[9] = 200;
    o[10] = x + w * 2;
    o[11] = z;
    o[12] = 6;
    o[13] = 3;
    o[14] = w;
    o[15] = y;
    o[16] = x * 2 + 1;
    o[17] = y * 2 + 1;
    o[18] = z * 2 + 1;
    o[19] = w * 2 + 1;
    o[20] = 1 - x / 4;
    o[21] = 1 - y / 4;
    o[22] = 1 - z / 4;
    o[23] = 1 - w / 4;
  }
  kcrt_buffer *dfin = rt_upload(&rt, fin, 4 * n * sizeof *fin),
              *dfout = rt_alloc(&rt, 24 * n * sizeof *fout);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(dfin), KCRT_ARG_BUFFER(dfout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "vec_swizzles"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0,
            a2, 3);
  rt_download(&rt, dfout, fout, 24 * n * sizeof *fout);
  rt_cmp_f32(&rt, "vec_swizzles", fout, fw, 24 * n, 1e-6, 1e-6);

  /* vec_convert */
  int *cout = malloc(48 * n * sizeof *cout), *cw = malloc(48 * n * sizeof *cw);
  float *f3 = malloc(3 * n * sizeof *f3), *f3w = malloc(3 * n * sizeof *f3w);
  for (int i = 0; i < 4 * n; i++)
    if (i % 17 == 0) fin[i] = (i % 2 ? 0.025f : -0.015f); /* x.5 cases */
  dfin = rt_upload(&rt, fin, 4 * n * sizeof *fin);
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++) {
      float v = fin[4 * i + k] * 100;
      int *o = cw + 48 * i + k;
      int t = (int)v;
      o[0] = t;
      o[4] = (int)rintf(v);
      o[8] = (int)ceilf(v);
      o[12] = (int)floorf(v);
      o[16] = clampi(t, -128, 127);
      o[20] = clampi(t, 0, 255);
      memcpy(&o[24], &v, 4);
      o[28] = v > 0 ? 2 : 1;
      o[32] = __builtin_popcount((unsigned)t) + (t ? __builtin_clz((unsigned)t) : 32);
      o[36] = (int)(((long long)t * 0x40000000) >> 32) + (t < 7 ? t : 7) + (t > -7 ? t : -7);
      o[40] = t < 0 ? -t : t;
      o[44] = (int)((double)v * 2.5);
      if (k < 3) f3w[3 * i + k] = v / 100;
    }
  }
  kcrt_buffer *dc = rt_alloc(&rt, 48 * n * sizeof *cout), *df3 = rt_alloc(&rt, 3 * n * sizeof *f3);
  kcrt_arg a3[] = {KCRT_ARG_BUFFER(dfin), KCRT_ARG_BUFFER(dc), KCRT_ARG_BUFFER(df3),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "vec_convert"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a3,
            4);
  rt_download(&rt, dc, cout, 48 * n * sizeof *cout);
  rt_download(&rt, df3, f3, 3 * n * sizeof *f3);
  rt_cmp_i32(&rt, "vec_convert", cout, cw, 48 * n);
  rt_cmp_f32(&rt, "vec_convert vstore3", f3, f3w, 3 * n, 1e-6, 1e-6);
  /* vec_math */
  int *iin = malloc(4 * n * sizeof *iin), *iout = malloc(8 * n * sizeof *iout),
      *iw = malloc(8 * n * sizeof *iw);
  float *mout = malloc(16 * n * sizeof *mout), *mw = malloc(16 * n * sizeof *mw);
  for (int i = 0; i < 4 * n; i++) iin[i] = rt_int(&rt, -1000000, 1000000);
  for (int i = 0; i < 4 * n; i++) fin[i] = rt_float(&rt, -3, 3);
  dfin = rt_upload(&rt, fin, 4 * n * sizeof *fin);
  for (int i = 0; i < n; i++) {
    const float *v = fin + 4 * i;
    float a[4], *o = mw + 16 * i;
    for (int k = 0; k < 4; k++) a[k] = fabsf(v[k]) + 0.5f;
    for (int k = 0; k < 4; k++)
      o[k] = sqrtf(a[k]) + expf(-a[k]) + logf(a[k]) + sinf(v[k]) * cosf(v[k]) + powf(a[k], 0.5f) +
             floorf(v[k]) + fminf(v[k], 0.25f);
    float dot = 0, l3 = 0, dd = 0, la = 0, k9 = 0, s10 = 0;
    int anyneg = 0;
    for (int k = 0; k < 4; k++) {
      dot += v[k] * a[k];
      if (k < 3) l3 += v[k] * v[k];
      dd += (v[k] - a[k]) * (v[k] - a[k]);
      la += a[k] * a[k];
      float t = (v[k] + 1) / 2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      k9 += fminf(fmaxf(v[k], -0.5f), 0.5f) + (v[k] + (a[k] - v[k]) * 0.25f) + (v[k] < 0 ? 0 : 1) +
            t * t * (3 - 2 * t);
      s10 += (v[k] > 0 ? 1 : v[k] < 0 ? -1 : v[k]) + v[k] * a[k] + v[k];
      anyneg |= v[k] < 0;
    }
    o[4] = dot;
    o[5] = sqrtf(l3);
    o[6] = sqrtf(dd);
    float cx = v[1] * a[2] - v[2] * a[1], cy = v[2] * a[0] - v[0] * a[2],
          cz = v[0] * a[1] - v[1] * a[0];
    o[7] = cx + 2 * cy + 3 * cz;
    o[8] = a[0] / sqrtf(la) + a[3] / sqrtf(la);
    o[9] = k9;
    o[10] = s10;
    o[11] = copysignf(a[0], v[0]) + copysignf(a[1], v[1]);
    o[12] = 0;
    o[13] = anyneg + 2;
    o[14] = fmaxf(v[0], v[2]) + fmaxf(v[1], v[3]);
    o[15] = fabsf(v[0]) + v[1] * v[2];
    for (int k = 0; k < 4; k++) {
      int x = iin[4 * i + k], y = x * 3 + 1;
      unsigned ux = (unsigned)x;
      int rot = (int)((ux << 5) | (ux >> 27));
      int hadd = (int)(((long)x + y) >> 1), rhadd = (int)(((long)x + y + 1) >> 1);
      iw[8 * i + k] = (int)((unsigned)rot + (unsigned)hadd + (unsigned)rhadd + (unsigned)(x * 3) +
                            (unsigned)(x * 2 + y) + (unsigned)((x & ~0xff00) | (y & 0xff00)));
      iw[8 * i + 4 + k] = clampi(x, -100, 100);
    }
  }
  kcrt_buffer *diin = rt_upload(&rt, iin, 4 * n * sizeof *iin),
              *dmout = rt_alloc(&rt, 16 * n * sizeof *mout),
              *diout = rt_alloc(&rt, 8 * n * sizeof *iout);
  kcrt_arg a4[] = {KCRT_ARG_BUFFER(dfin), KCRT_ARG_BUFFER(diin), KCRT_ARG_BUFFER(dmout),
                   KCRT_ARG_BUFFER(diout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "vec_math"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a4,
            5);
  rt_download(&rt, dmout, mout, 16 * n * sizeof *mout);
  rt_download(&rt, diout, iout, 8 * n * sizeof *iout);
  rt_cmp_f32(&rt, "vec_math", mout, mw, 16 * n, 1e-4, 1e-4);
  rt_cmp_i32(&rt, "vec_math ints", iout, iw, 8 * n);
  free(in), free(out), free(want), free(fin), free(fout), free(fw), free(cout), free(cw);
  free(f3), free(f3w), free(iin), free(iout), free(iw), free(mout), free(mw);
  return rt_finish(&rt, "%d elements", n);
}
