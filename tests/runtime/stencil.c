/* stencil.c — runs both kernels of tests/kernels/stencil.k; the reference uses the kernel
 * file's own weighted() and clampi() (kernel_shim.h). */
#include "rt_common.h"
#include "kernel_shim.h"
#include "../kernels/stencil.k"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "stencil");
  int n = rt_int(&rt, 50000, 200000);
  float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
        *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) in[i] = rt_float(&rt, 1, 10);
  for (int i = 0; i < n; i++)
    want[i] = weighted(in[clampi(i - 1, 0, n - 1)], in[i], in[clampi(i + 1, 0, n - 1)]);
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "stencil1d"), KCRT_DIM1(rt_ceil_div(n, 256)), KCRT_DIM1(256), 0, a1,
            3);
  rt_download(&rt, dout, out, n * sizeof *out);
  rt_cmp_f32(&rt, "stencil1d", out, want, n, 1e-6, 0);
  free(in), free(out), free(want);

  int w = rt_int(&rt, 20, 400), h = rt_int(&rt, 20, 400);
  size_t m = (size_t)w * h;
  float *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b), *wb = malloc(m * sizeof *wb);
  for (size_t i = 0; i < m; i++) a[i] = rt_float(&rt, 1, 10);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int c = y * w + x;
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        wb[c] = a[c];
        continue;
      }
      float side = a[c - 1] + a[c + 1] + a[c - w] + a[c + w];
      wb[c] = 0.5f * a[c] + 0.125f * side;
    }
  kcrt_buffer *da = rt_upload(&rt, a, m * sizeof *a), *db = rt_alloc(&rt, m * sizeof *b);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_VALUE(w), KCRT_ARG_VALUE(h)};
  rt_launch(&rt, rt_kernel(&rt, "stencil2d"), KCRT_DIM3(rt_ceil_div(w, 16), rt_ceil_div(h, 16), 1),
            KCRT_DIM3(16, 16, 1), 0, a2, 4);
  rt_download(&rt, db, b, m * sizeof *b);
  rt_cmp_f32(&rt, "stencil2d", b, wb, m, 1e-6, 0);
  free(a), free(b), free(wb);
  return rt_finish(&rt, "1-D %d points, 2-D %d x %d", n, w, h);
}
