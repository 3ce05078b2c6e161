/* saxpy.c — runs tests/kernels/saxpy.k (grid-stride loop): the grid is random and usually
 * smaller than n/256, so most threads handle several elements. Operands are positive, so a
 * fused multiply-add differs from the reference by an ulp or so, never by cancellation. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "saxpy");
  int n = rt_int(&rt, 100000, 300000);
  float a = rt_float(&rt, 0.5f, 4.0f);
  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) {
    x[i] = rt_float(&rt, 0.1f, 10);
    y[i] = rt_float(&rt, 0.1f, 10);
    want[i] = a * x[i] + y[i];
  }
  kcrt_buffer *dx = rt_upload(&rt, x, n * sizeof *x), *dy = rt_upload(&rt, y, n * sizeof *y);
  int grid = rt_int(&rt, 1, (int)rt_ceil_div(n, 256));
  kcrt_arg args[] = {KCRT_ARG_VALUE(n), KCRT_ARG_VALUE(a), KCRT_ARG_BUFFER(dx),
                     KCRT_ARG_BUFFER(dy)};
  rt_launch(&rt, rt_kernel(&rt, "saxpy"), KCRT_DIM1(grid), KCRT_DIM1(256), 0, args, 4);
  rt_download(&rt, dy, y, n * sizeof *y);
  rt_cmp_f32(&rt, "y", y, want, n, 3e-7, 0);
  free(x), free(y), free(want);
  return rt_finish(&rt, "%d elements, a = %g, %d blocks", n, a, grid);
}
