/* vecadd.c — runs tests/kernels/vecadd.k: c[i] = a[i] + b[i], grid = ceil(n/256) x 256. n is
 * random and not a multiple of the block, so the bounds check of the last block matters. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "vecadd");
  int n = rt_int(&rt, 100000, 200000);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c),
        *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) {
    a[i] = rt_float(&rt, -100, 100);
    b[i] = rt_float(&rt, 1, 1000);
    want[i] = a[i] + b[i];
  }
  kcrt_buffer *da = rt_upload(&rt, a, n * sizeof *a), *db = rt_upload(&rt, b, n * sizeof *b);
  kcrt_buffer *dc = rt_alloc(&rt, n * sizeof *c);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "vecadd"), KCRT_DIM1(rt_ceil_div(n, 256)), KCRT_DIM1(256), 0, args,
            4);
  rt_download(&rt, dc, c, n * sizeof *c);
  rt_cmp_f32(&rt, "c", c, want, n, 0, 0); /* one IEEE addition: exact */
  free(a), free(b), free(c), free(want);
  return rt_finish(&rt, "%d elements", n);
}
