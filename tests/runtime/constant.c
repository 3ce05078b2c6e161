/* constant.c — runs tests/kernels/constant.k (constant-memory tables and struct). The
 * reference reads the kernel file's own constant data (kernel_shim.h) and evaluates the
 * kernel's expression in the same order, in float. */
#include "rt_common.h"
#include "kernel_shim.h"
#include "../kernels/constant.k"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "constant");
  int n = rt_int(&rt, 30000, 60000);
  unsigned int *in = malloc(n * sizeof *in);
  float *out = malloc(n * sizeof *out), *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) {
    unsigned int v = rt_u32(&rt) | 1;
    in[i] = v;
    float x = (v % 100) / 100.0f;
    float p = coeffs[3];
    for (int k = 2; k >= 0; k--) p = coeffs[k] + x * p;
    want[i] = popcount8[v & 0xff] + popcount8[(v >> 8) & 0xff] + p +
              scale.gain * ((int)(v % 7) - scale.bias);
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "lookup"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, args,
            3);
  rt_download(&rt, dout, out, n * sizeof *out);
  rt_cmp_f32(&rt, "out", out, want, n, 1e-5, 1e-5); /* Horner may be fused into fma */
  free(in), free(out), free(want);
  return rt_finish(&rt, "%d elements", n);
}
