/* local_args.c — runs tests/runtime/local_args.k: kernel parameters in local memory
 * (`shared int *tmp`), sized at each launch with kcrt_local(bytes), alone and next to the
 * kernel's own dynamic shared array. Random block sizes and sizes; every element compared
 * with a host reference. The misuse statuses are covered by tests/unit/test_runtime_api.c. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "local_args");

  /* block_sums: n not a multiple of bs. */
  int bs = 16 << rt_int(&rt, 0, 4); /* 16..256 */
  int n = rt_int(&rt, 1000, 60000), nb = (int)rt_ceil_div(n, bs);
  int *in = malloc(n * sizeof *in), *out = malloc(nb * sizeof *out),
      *want = calloc(nb, sizeof *want);
  for (int i = 0; i < n; i++) {
    in[i] = rt_int(&rt, -1000, 1000);
    want[i / bs] += in[i];
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, nb * sizeof *out);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n),
                   kcrt_local(bs * sizeof(int))};
  rt_launch(&rt, rt_kernel(&rt, "block_sums"), KCRT_DIM1(nb), KCRT_DIM1(bs), 0, a1, 4);
  rt_download(&rt, dout, out, nb * sizeof *out);
  rt_cmp_i32(&rt, "block_sums", out, want, nb);

  /* mixed: dynamic shared + two local buffers, one of them oversized (odd byte count). */
  int bs2 = 8 << rt_int(&rt, 0, 5); /* 8..256 */
  int nb2 = rt_int(&rt, 20, 300), n2 = bs2 * nb2;
  float k = rt_float(&rt, -10, 10);
  float *d = malloc(n2 * sizeof *d), *w2 = malloc(n2 * sizeof *w2);
  for (int i = 0; i < n2; i++) d[i] = rt_float(&rt, -100, 100);
  for (int b = 0; b < nb2; b++)
    for (int t = 0; t < bs2; t++) w2[b * bs2 + t] = d[b * bs2 + (bs2 - 1 - t)] * 2.0f + k;
  kcrt_buffer *dd = rt_upload(&rt, d, n2 * sizeof *d);
  size_t extra = (size_t)rt_int(&rt, 0, 37);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(dd), kcrt_local(bs2 * sizeof(float) + extra), KCRT_ARG_VALUE(k),
                   KCRT_ARG_LOCAL(bs2 * sizeof(int))};
  rt_launch(&rt, rt_kernel(&rt, "mixed"), KCRT_DIM1(nb2), KCRT_DIM1(bs2), bs2 * sizeof(float), a2,
            4);
  rt_download(&rt, dd, d, n2 * sizeof *d);
  rt_cmp_f32(&rt, "mixed", d, w2, n2, 0, 0);

  /* A local size for a non-local parameter, and 0 bytes: refused before the driver. */
  kcrt_arg bad[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), kcrt_local(4), kcrt_local(64)};
  RT_EXPECT(
      &rt, KCRT_ERROR_INVALID_ARGUMENT,
      kcrt_launch(rt_kernel(&rt, "block_sums"), NULL, KCRT_DIM1(1), KCRT_DIM1(bs), 0, bad, 4));
  kcrt_arg zero[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n), kcrt_local(0)};
  RT_EXPECT(
      &rt, KCRT_ERROR_INVALID_ARGUMENT,
      kcrt_launch(rt_kernel(&rt, "block_sums"), NULL, KCRT_DIM1(1), KCRT_DIM1(bs), 0, zero, 4));
  free(in), free(out), free(want), free(d), free(w2);
  return rt_finish(&rt, "block sums %d in blocks of %d, mixed %d x %d (+%zu bytes)", n, bs, nb2,
                   bs2, extra);
}
