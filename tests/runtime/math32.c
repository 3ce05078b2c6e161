/* math32.c — runs tests/kernels/math32.k: single-precision math against the host's libm
 * (relative tolerance 1e-5; the rounding functions of out[12i+10] exactly). */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "math32");
  int n = rt_int(&rt, 5000, 20000);
  float *x = malloc(n * sizeof *x), *out = malloc(12 * n * sizeof *out),
        *want = malloc(12 * n * sizeof *want);
  for (int i = 0; i < n; i++) {
    float v = x[i] = rt_float(&rt, 0.1f, 0.9f);
    float *o = want + 12 * i;
    o[0] = sqrtf(v);
    o[1] = 1.0f / sqrtf(v);
    o[2] = expf(v) + exp2f(v);
    o[3] = logf(v) + log2f(v) + log10f(v);
    o[4] = sinf(v) * cosf(v);
    o[5] = tanf(v) + atanf(v);
    o[6] = asinf(v) + acosf(v);
    o[7] = powf(v, 2.5f);
    o[8] = tanhf(v) + sinhf(v) + coshf(v);
    o[9] = fmaf(v, 3.0f, 1.0f) + fabsf(v - 0.5f);
    o[10] = floorf(v * 8) + ceilf(v * 8) + roundf(v * 8) + truncf(v * 8) + rintf(v * 8);
    o[11] = fminf(v, 0.5f) + fmaxf(v, 0.5f) + hypotf(v, 1.0f) + fmodf(v * 10, 3.0f) + erff(v) +
            copysignf(1.0f, v - 0.5f) + (isnan(v) ? 100 : 0) + (isfinite(v) ? 1 : 0);
  }
  kcrt_buffer *dx = rt_upload(&rt, x, n * sizeof *x), *dout = rt_alloc(&rt, 12 * n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "math32"), KCRT_DIM1(rt_ceil_div(n, 256)), KCRT_DIM1(256), 0, args,
            3);
  rt_download(&rt, dout, out, 12 * n * sizeof *out);
  /* Split the rounding column (exact) from the others (tolerance). */
  float *g10 = malloc(n * sizeof *g10), *w10 = malloc(n * sizeof *w10);
  for (int i = 0; i < n; i++) {
    g10[i] = out[12 * i + 10], w10[i] = want[12 * i + 10];
    out[12 * i + 10] = want[12 * i + 10] = 0;
  }
  rt_cmp_f32(&rt, "rounding (out[12i+10])", g10, w10, n, 0, 0);
  rt_cmp_f32(&rt, "out", out, want, 12 * (size_t)n, 1e-5, 1e-6);
  free(x), free(out), free(want), free(g10), free(w10);
  return rt_finish(&rt, "%d elements x 12 results", n);
}
