/* dynshared.c — runs tests/kernels/dynshared.k: both kernels take their shared array from the
 * launch's dynamic shared size (the trailing __local argument on OpenCL). Block sizes are
 * random powers of two, so the dynamic size really varies between runs. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "dynshared");

  /* reverse_blocks: n a multiple of bs. */
  int bs = 32 << rt_int(&rt, 0, 3); /* 32..256 */
  int nb = rt_int(&rt, 50, 400), n = bs * nb;
  float *d = malloc(n * sizeof *d), *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) d[i] = rt_float(&rt, 1, 100);
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < bs; t++) want[b * bs + t] = d[b * bs + (bs - 1 - t)];
  kcrt_buffer *dd = rt_upload(&rt, d, n * sizeof *d);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(dd), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "reverse_blocks"), KCRT_DIM1(nb), KCRT_DIM1(bs), bs * sizeof(float),
            a1, 2);
  rt_download(&rt, dd, d, n * sizeof *d);
  rt_cmp_f32(&rt, "reverse_blocks", d, want, n, 0, 0);

  /* scan_blocks: n not a multiple of bs2; 2*bs2 ints of dynamic shared memory. */
  int bs2 = 32 << rt_int(&rt, 0, 3);
  int n2 = rt_int(&rt, 10000, 50000);
  int *in = malloc(n2 * sizeof *in), *out = malloc(n2 * sizeof *out), *w2 = malloc(n2 * sizeof *w2);
  for (int i = 0; i < n2; i++) {
    in[i] = rt_int(&rt, -1000, 1000);
    w2[i] = (i % bs2 == 0 ? 0 : w2[i - 1]) + in[i];
  }
  kcrt_buffer *din = rt_upload(&rt, in, n2 * sizeof *in), *dout = rt_alloc(&rt, n2 * sizeof *out);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n2)};
  rt_launch(&rt, rt_kernel(&rt, "scan_blocks"), KCRT_DIM1(rt_ceil_div(n2, bs2)), KCRT_DIM1(bs2),
            2 * bs2 * sizeof(int), a2, 3);
  rt_download(&rt, dout, out, n2 * sizeof *out);
  rt_cmp_i32(&rt, "scan_blocks", out, w2, n2);
  free(d), free(want), free(in), free(out), free(w2);
  return rt_finish(&rt, "reverse %d x %d, scan %d in blocks of %d", nb, bs, n2, bs2);
}
