/* matmul.c — runs tests/kernels/matmul.k on random m x k by k x n matrices whose sides are
 * not multiples of the 16x16 tile. The reference accumulates in double. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "matmul");
  int m = rt_int(&rt, 30, 300), n = rt_int(&rt, 30, 300), k = rt_int(&rt, 30, 300);
  float *A = malloc((size_t)m * k * sizeof *A), *B = malloc((size_t)k * n * sizeof *B),
        *C = malloc((size_t)m * n * sizeof *C), *want = malloc((size_t)m * n * sizeof *want);
  for (int i = 0; i < m * k; i++) A[i] = rt_float(&rt, -1, 1);
  for (int i = 0; i < k * n; i++) B[i] = rt_float(&rt, -1, 1);
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      double s = 0;
      for (int i = 0; i < k; i++) s += (double)A[r * k + i] * B[i * n + c];
      want[r * n + c] = (float)s;
    }
  kcrt_buffer *dA = rt_upload(&rt, A, (size_t)m * k * sizeof *A),
              *dB = rt_upload(&rt, B, (size_t)k * n * sizeof *B),
              *dC = rt_alloc(&rt, (size_t)m * n * sizeof *C);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dA), KCRT_ARG_BUFFER(dB), KCRT_ARG_BUFFER(dC),
                     KCRT_ARG_VALUE(m),   KCRT_ARG_VALUE(n),   KCRT_ARG_VALUE(k)};
  rt_launch(&rt, rt_kernel(&rt, "matmul"), KCRT_DIM3(rt_ceil_div(n, 16), rt_ceil_div(m, 16), 1),
            KCRT_DIM3(16, 16, 1), 0, args, 6);
  rt_download(&rt, dC, C, (size_t)m * n * sizeof *C);
  rt_cmp_f32(&rt, "C", C, want, (size_t)m * n, 1e-4, 1e-4);
  free(A), free(B), free(C), free(want);
  return rt_finish(&rt, "%d x %d x %d", m, n, k);
}
