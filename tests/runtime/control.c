/* control.c — runs tests/kernels/control.k: out[i] = classify(in[i]). The reference is the
 * kernel file's own classify(), compiled here by the host compiler (kernel_shim.h): any
 * difference is a difference between kcc and C on switch fall-through, loops, small integer
 * types and compound assignments. */
#include "rt_common.h"
#include "kernel_shim.h"
#include "../kernels/control.k"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "control");
  int n = rt_int(&rt, 20000, 40000);
  int *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
      *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) {
    in[i] = i < 1001 ? i : rt_int(&rt, 0, 1000); /* every value once, then random ones */
    want[i] = classify(in[i]);
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "control"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, args,
            3);
  rt_download(&rt, dout, out, n * sizeof *out);
  rt_cmp_i32(&rt, "out", out, want, n);
  free(in), free(out), free(want);
  return rt_finish(&rt, "%d elements", n);
}
