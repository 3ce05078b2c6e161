/* fp64.c — runs tests/kernels/fp64.k: double-precision math against the host's libm. Device
 * libraries are within an ulp or two of it; sums such as sin + cos can lose relative accuracy
 * near zero, hence the small absolute tolerance too. */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "fp64");
  int n = rt_int(&rt, 5000, 20000);
  double *x = malloc(n * sizeof *x), *out = malloc(8 * n * sizeof *out),
         *want = malloc(8 * n * sizeof *want);
  for (int i = 0; i < n; i++) {
    double v = x[i] = rt_double(&rt, 0.5, 4.0);
    double *o = want + 8 * i;
    o[0] = sqrt(v);
    o[1] = exp(v);
    o[2] = log(v);
    o[3] = sin(v) + cos(v);
    o[4] = pow(v, 1.5);
    o[5] = fma(v, v, -1.0);
    o[6] = atan2(v, 2.0) + tanh(v) + cbrt(v);
    o[7] = floor(v * 10.0) / 10.0 + fabs(-v) + fmin(v, 2.0) + fmax(v, 2.0);
  }
  kcrt_buffer *dx = rt_upload(&rt, x, n * sizeof *x), *dout = rt_alloc(&rt, 8 * n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dx), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "fp64_math"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0,
            args, 3);
  rt_download(&rt, dout, out, 8 * n * sizeof *out);
  rt_cmp_f64(&rt, "out", out, want, 8 * (size_t)n, 1e-14, 1e-14);
  free(x), free(out), free(want);
  return rt_finish(&rt, "%d elements x 8 functions", n);
}
