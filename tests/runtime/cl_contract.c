/* cl_contract.c — runs tests/runtime/cl_contract.cl through libkcrt: under FP_CONTRACT OFF,
 * x * y - fl(x * y) is exactly zero for fresh random x, y (a fused multiply-add would give the
 * product's rounding error, non-zero for most of them), at file scope, in a block inside a
 * kernel compiled with contraction on, and in double. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_contract");
  int n = rt_int(&rt, 1, 4096);
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *p = malloc(n * sizeof *p),
        *d = malloc(n * sizeof *d), *zero = calloc(n, sizeof *zero);
  volatile float prod; /* rounded to float here: the host compiler must not fuse either */
  for (int i = 0; i < n; i++) {
    x[i] = rt_float(&rt, -4.0f, 4.0f);
    y[i] = rt_float(&rt, -4.0f, 4.0f);
    prod = x[i] * y[i];
    p[i] = prod;
  }
  kcrt_buffer *dx = rt_upload(&rt, x, n * 4), *dy = rt_upload(&rt, y, n * 4),
              *dp = rt_upload(&rt, p, n * 4), *dd = rt_alloc(&rt, n * 4),
              *de = rt_alloc(&rt, n * 4);
  unsigned blocks = (unsigned)rt_ceil_div((uint64_t)n, 64);
  kcrt_arg a[] = {KCRT_ARG_BUFFER(dx), KCRT_ARG_BUFFER(dy), KCRT_ARG_BUFFER(dp),
                  KCRT_ARG_BUFFER(dd), KCRT_ARG_VALUE(n),   KCRT_ARG_BUFFER(de)};
  static const char *const kernels[] = {"off_file", "off_block"};
  for (int k = 0; k < 2; k++) {
    rt_launch(&rt, rt_kernel(&rt, kernels[k]), KCRT_DIM1(blocks), KCRT_DIM1(64), 0, a, 5 + k);
    rt_download(&rt, dd, d, n * 4);
    rt_cmp_f32(&rt, kernels[k], d, zero, (size_t)n, 0.0, 0.0);
  }
  {
    double *xd = malloc(n * sizeof *xd), *yd = malloc(n * sizeof *yd), *pd = malloc(n * sizeof *pd),
           *dd64 = malloc(n * sizeof *dd64), *zd = calloc(n, sizeof *zd);
    volatile double pr;
    for (int i = 0; i < n; i++) {
      xd[i] = rt_double(&rt, -4.0, 4.0);
      yd[i] = rt_double(&rt, -4.0, 4.0);
      pr = xd[i] * yd[i];
      pd[i] = pr;
    }
    kcrt_buffer *bx = rt_upload(&rt, xd, n * 8), *by = rt_upload(&rt, yd, n * 8),
                *bp = rt_upload(&rt, pd, n * 8), *bd = rt_alloc(&rt, n * 8);
    kcrt_arg b[] = {KCRT_ARG_BUFFER(bx), KCRT_ARG_BUFFER(by), KCRT_ARG_BUFFER(bp),
                    KCRT_ARG_BUFFER(bd), KCRT_ARG_VALUE(n)};
    rt_launch(&rt, rt_kernel(&rt, "off_double"), KCRT_DIM1(blocks), KCRT_DIM1(64), 0, b, 5);
    rt_download(&rt, bd, dd64, n * 8);
    rt_cmp_f64(&rt, "off_double", dd64, zd, (size_t)n, 0.0, 0.0);
    free(xd), free(yd), free(pd), free(dd64), free(zd);
  }
  free(x), free(y), free(p), free(d), free(zero);
  return rt_finish(&rt, "%d elements", n);
}
