/* reduce.c — runs tests/kernels/reduce.k: one partial sum per 512 elements; compares every
 * partial with a double-precision host sum (float summation order differs), then the total. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "reduce");
  int n = rt_int(&rt, 100000, 400000);
  int blocks = (int)rt_ceil_div(n, 512);
  float *in = malloc(n * sizeof *in), *part = malloc(blocks * sizeof *part),
        *want = malloc(blocks * sizeof *want);
  double total = 0, got_total = 0;
  for (int b = 0; b < blocks; b++) {
    double s = 0;
    for (int i = b * 512; i < n && i < b * 512 + 512; i++) {
      in[i] = rt_float(&rt, 0.5f, 1.5f);
      s += in[i];
    }
    want[b] = (float)s;
    total += s;
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dp = rt_alloc(&rt, blocks * sizeof *part);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dp), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "reduce"), KCRT_DIM1(blocks), KCRT_DIM1(256), 0, args, 3);
  rt_download(&rt, dp, part, blocks * sizeof *part);
  rt_cmp_f32(&rt, "partial", part, want, blocks, 1e-5, 0);
  for (int b = 0; b < blocks; b++) got_total += part[b];
  float gt = (float)got_total, wt = (float)total;
  rt_cmp_f32(&rt, "total", &gt, &wt, 1, 1e-5, 0);
  free(in), free(part), free(want);
  return rt_finish(&rt, "%d elements in %d blocks, sum %.6g", n, blocks, total);
}
