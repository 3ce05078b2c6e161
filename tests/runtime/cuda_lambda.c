/* cuda_lambda.c — runs tests/runtime/cuda_lambda.cu (lambdas in CUDA input) through libkcrt on
 * fresh random inputs and compares every element with the host's reading of the same C++. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_lambda");
  int n = rt_int(&rt, 100, 5000), k = rt_int(&rt, -50, 50);
  const int block = 64;
  int32_t *in = malloc(n * sizeof *in), *out = malloc(6 * n * sizeof *out);
  int32_t *want = malloc(6 * n * sizeof *want);
  for (int i = 0; i < n; i++) in[i] = rt_int(&rt, -10000, 10000);
  for (int i = 0; i < n; i++) {
    int x = in[i], b0 = i - i % block, t = i % block;
    int last = (n - b0 < block ? n - b0 : block); /* threads of this block that loaded in[] */
    int nt = (t + 1) % block, neighbour = nt < last ? in[b0 + nt] : 0;
    int32_t *w = want + 6 * i;
    w[0] = x * k + (x + k + 1);
    w[1] = (x - x + k) + (1 + k + 1);
    w[2] = x + x * k + 3;
    w[3] = 2;
    w[4] = neighbour + ((x * 2 + k) * 2 + k);
    w[5] = x < 0 ? 0 : x / 2 + x * 2;
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, 6 * n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n),
                     KCRT_ARG_VALUE(k)};
  rt_launch(&rt, rt_kernel(&rt, "lambdas"), KCRT_DIM1(rt_ceil_div(n, block)), KCRT_DIM1(block), 0,
            args, 4);
  rt_download(&rt, dout, out, 6 * n * sizeof *out);
  rt_cmp_i32(&rt, "lambdas", out, want, 6 * (size_t)n);
  kcrt_buffer_free(din), kcrt_buffer_free(dout);
  free(in), free(out), free(want);
  return rt_finish(&rt, "%d threads, k = %d", n, k);
}
