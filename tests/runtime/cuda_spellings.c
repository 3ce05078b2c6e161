/* cuda_spellings.c — runs tests/kernels/cuda_spellings.k: a user float2 filled through a
 * helper named make_float2, two kernels with the same `extern __shared__` array name (each
 * rotating a block by one in its own direction), and a kernel declared with `()`. */
#include "rt_common.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_spellings");

  int n = rt_int(&rt, 1000, 20000);
  float *pairs = malloc(2 * n * sizeof *pairs), *want = malloc(2 * n * sizeof *want);
  for (int i = 0; i < n; i++) want[2 * i] = (float)i, want[2 * i + 1] = 2.0f * (float)i;
  kcrt_buffer *dp = rt_alloc(&rt, 2 * n * sizeof *pairs);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(dp), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "fill_pairs"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0,
            a1, 2);
  rt_download(&rt, dp, pairs, 2 * n * sizeof *pairs);
  rt_cmp_f32(&rt, "fill_pairs", pairs, want, 2 * n, 0, 0);

  /* One block: each kernel rotates it by one, in opposite directions. */
  int bs = rt_int(&rt, 2, 256);
  int32_t *d = malloc(bs * sizeof *d), *got = malloc(bs * sizeof *got), *w = malloc(bs * sizeof *w);
  for (int i = 0; i < bs; i++) d[i] = (int32_t)rt_u32(&rt);
  for (int dir = 0; dir < 2; dir++) {
    const char *name = dir ? "rotate_right" : "rotate_left";
    for (int i = 0; i < bs; i++) w[i] = d[dir ? (i + bs - 1) % bs : (i + 1) % bs];
    kcrt_buffer *dd = rt_upload(&rt, d, bs * sizeof *d);
    kcrt_arg a2[] = {KCRT_ARG_BUFFER(dd)};
    rt_launch(&rt, rt_kernel(&rt, name), KCRT_DIM1(1), KCRT_DIM1(bs), bs * sizeof(int32_t), a2, 1);
    rt_download(&rt, dd, got, bs * sizeof *got);
    rt_cmp_i32(&rt, name, got, w, bs);
  }
  rt_launch(&rt, rt_kernel(&rt, "nothing"), KCRT_DIM1(1), KCRT_DIM1(1), 0, NULL, 0);

  /* __launch_bounds__(256): a bigger block is refused before any driver sees it, on every
   * back end, even where the device would take it. */
  kcrt_buffer *big = rt_alloc(&rt, 512 * sizeof(int32_t));
  kcrt_arg a3[] = {KCRT_ARG_BUFFER(big)};
  RT_EXPECT(&rt, KCRT_ERROR_INVALID_LAUNCH,
            kcrt_launch(rt_kernel(&rt, "rotate_left"), NULL, KCRT_DIM1(1), KCRT_DIM1(257),
                        257 * sizeof(int32_t), a3, 1));
  const char *want_msg = "a block of 257 threads exceeds the 256 threads per block that kernel "
                         "'rotate_left' accepts (its __launch_bounds__, or 1024 with OpenCL's "
                         "work-group functions)";
  if (strcmp(kcrt_last_error(), want_msg))
    rt_fail(&rt, "launch-bounds message: %s", kcrt_last_error());
  free(pairs), free(want), free(d), free(got), free(w);
  return rt_finish(&rt, "%d pairs, rotations of %d", n, bs);
}
