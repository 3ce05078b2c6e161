/* transpose.c — runs tests/kernels/transpose.k on a random width x height matrix whose sides
 * are not multiples of the 32x32 tile, so the edge tiles' bounds checks matter. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "transpose");
  int w = rt_int(&rt, 40, 700), h = rt_int(&rt, 40, 700);
  size_t n = (size_t)w * h;
  float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
        *want = malloc(n * sizeof *want);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      in[(size_t)y * w + x] = rt_float(&rt, 1, 2) + x * 1000.0f + y;
      want[(size_t)x * h + y] = in[(size_t)y * w + x];
    }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(din), KCRT_ARG_VALUE(w),
                     KCRT_ARG_VALUE(h)};
  rt_launch(&rt, rt_kernel(&rt, "transpose"), KCRT_DIM3(rt_ceil_div(w, 32), rt_ceil_div(h, 32), 1),
            KCRT_DIM3(32, 8, 1), 0, args, 4);
  rt_download(&rt, dout, out, n * sizeof *out);
  rt_cmp_f32(&rt, "out", out, want, n, 0, 0);
  free(in), free(out), free(want);
  return rt_finish(&rt, "%d x %d matrix", w, h);
}
