/* sharedptr.c — runs tests/vulkan/sharedptr.k (shared arrays whose address escapes) on blocks
 * of 16 x 4 threads, a grid whose last block is partly empty, and compares every output with
 * the same computation on the host. */
#include "rt_common.h"

#include <stdlib.h>

static void reference(const int *in, int n, int nb, int *want) {
  for (int b = 0; b < nb; b++) {
    int a[64], hits = 0;
    float pb[64];
    for (int t = 0; t < 64; t++) {
      int i = b * 64 + t;
      a[t] = i < n ? in[i] : 0;
      pb[t] = (float)a[t] * 0.5f;
      hits += a[t] & 1;
    }
    for (int t = 0; t < 64; t++) {
      int i = b * 64 + t;
      if (i >= n) continue;
      int s = 0;
      for (int k = 0; k < 8; k++) s += a[(t & ~7) + k];
      int p = t & ~7, q = 63 - t, lo = p < q ? p : q;
      want[4 * i] = s + 2 * a[63 - t];
      want[4 * i + 1] = a[lo] + (q - p);
      want[4 * i + 2] = hits + 16 * 1000;
      want[4 * i + 3] = a[(t + 1) & 63] + (int)pb[t];
    }
  }
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "sharedptr");
  int n = rt_int(&rt, 1000, 5000), nb = (int)rt_ceil_div(n, 64);
  int *in = malloc(n * sizeof *in), *got = malloc(4 * n * sizeof *got),
      *want = malloc(4 * n * sizeof *want);
  for (int i = 0; i < n; i++) in[i] = rt_int(&rt, -100000, 100000);
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, 4 * n * sizeof *got);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "sharedptr"), KCRT_DIM1(nb), KCRT_DIM3(16, 4, 1), 0, args, 3);
  rt_download(&rt, dout, got, 4 * n * sizeof *got);
  reference(in, n, nb, want);
  int bad = 0;
  for (int i = 0; i < 4 * n; i++)
    if (got[i] != want[i] && bad++ < 8)
      printf("FAIL sharedptr: out[%d] = %d, want %d\n", i, got[i], want[i]);
  if (bad) {
    printf("FAIL sharedptr: %d of %d results differ (seed %llu)\n", bad, 4 * n,
           (unsigned long long)rt.seed);
    rt.failures++;
  }
  free(in), free(got), free(want);
  return rt_finish(&rt, "%d x 4 results in %d blocks", n, nb);
}
