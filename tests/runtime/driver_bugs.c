/* driver_bugs.c — runs tests/kernels/driver_bugs.k: each kernel once met a driver bug that
 * kcc now works around (docs/driver-bugs.md), so a wrong result here means a workaround
 * stopped working. On PoCL 3.1 without them: byval_written gets one struct shared by all
 * work-items, rint_big loses all its stores. */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct Acc {
  int32_t base, scale, hist[4];
};

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "driver_bugs");

  /* byval_written: every work-item writes its own copy of p. */
  int n = 64 * rt_int(&rt, 16, 64);
  int32_t *got = calloc(n, sizeof *got), *want = malloc(n * sizeof *want);
  struct Acc p = {rt_int(&rt, -1000, 1000), rt_int(&rt, 0, 50), {0, 0, 0, 0}};
  for (int i = 0; i < n; i++) want[i] = (p.base + i) * 1000 + (p.scale + 1) * 10 + 1;
  kcrt_buffer *dout = rt_upload(&rt, got, n * sizeof *got);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(p)};
  rt_launch(&rt, rt_kernel(&rt, "byval_written"), KCRT_DIM1(n / 64), KCRT_DIM1(64), 0, a1, 2);
  rt_download(&rt, dout, got, n * sizeof *got);
  rt_cmp_i32(&rt, "byval_written", got, want, n);

  /* rint_big: constants and run-time values of 2^31 and more, and small fractions. */
  int m = rt_int(&rt, 100, 1000);
  float *in = malloc(m * sizeof *in), *out = malloc(2 * m * sizeof *out),
        *wout = malloc(2 * m * sizeof *wout);
  double *dres = malloc(m * sizeof *dres), *wd = malloc(m * sizeof *wd);
  for (int i = 0; i < m; i++) {
    in[i] = i % 3 == 0 ? rt_float(&rt, -1e10f, 1e10f) : rt_float(&rt, -100, 100);
    if (i % 7 == 0) in[i] = (float)(int)in[i] + 0.5f; /* ties: to even */
    wout[2 * i] = rintf(3e9f) + (float)i;
    wout[2 * i + 1] = rintf(in[i]);
    wd[i] = rint(4294967296.5) + rint((double)in[i]);
  }
  kcrt_buffer *din = rt_upload(&rt, in, m * sizeof *in), *dfo = rt_alloc(&rt, 2 * m * sizeof *out),
              *ddo = rt_alloc(&rt, m * sizeof *dres);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dfo), KCRT_ARG_BUFFER(ddo),
                   KCRT_ARG_VALUE(m)};
  rt_launch(&rt, rt_kernel(&rt, "rint_big"), KCRT_DIM1(rt_ceil_div(m, 64)), KCRT_DIM1(64), 0, a2,
            4);
  rt_download(&rt, dfo, out, 2 * m * sizeof *out);
  rt_download(&rt, ddo, dres, m * sizeof *dres);
  rt_cmp_f32(&rt, "rint_big float", out, wout, 2 * (size_t)m, 0, 0);
  rt_cmp_f64(&rt, "rint_big double", dres, wd, m, 0, 0);

  free(got), free(want), free(in), free(out), free(wout), free(dres), free(wd);
  return rt_finish(&rt, "%d work-items with a struct, %d rint values", n, m);
}
