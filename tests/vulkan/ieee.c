/* ieee.c — runs tests/vulkan/ieee.k on random operands, many chosen so that a*b + c cancels,
 * and special values (zeros of both signs, infinities, NaN, denormals), and compares every
 * result with the host's IEEE arithmetic bit for bit (NaNs of any payload equal). */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "ieee");
  int n = rt_int(&rt, 50000, 100000);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -3e-39f, 1.0f};
  for (int i = 0; i < n; i++) {
    a[i] = rt_float(&rt, -4, 4);
    b[i] = rt_float(&rt, 0.001f, 8) * (rt_int(&rt, 0, 1) ? 1 : -1);
    c[i] = -a[i] * b[i] + rt_float(&rt, -1e-3f, 1e-3f); /* the product, nearly cancelled */
    if (i % 97 == 0) a[i] = special[rt_int(&rt, 0, 7)];
    if (i % 89 == 0) b[i] = special[rt_int(&rt, 0, 7)];
  }
  kcrt_buffer *da = rt_upload(&rt, a, n * sizeof *a), *db = rt_upload(&rt, b, n * sizeof *b),
              *dc = rt_upload(&rt, c, n * sizeof *c), *dq = rt_alloc(&rt, n * sizeof(float)),
              *dr = rt_alloc(&rt, n * sizeof(float)), *df = rt_alloc(&rt, n * sizeof(float)),
              *ddq = rt_alloc(&rt, n * sizeof(double));
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_BUFFER(dq),  KCRT_ARG_BUFFER(dr), KCRT_ARG_BUFFER(df),
                     KCRT_ARG_BUFFER(ddq), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "ieee"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, args,
            8);
  float *q = malloc(n * sizeof *q), *r = malloc(n * sizeof *r), *f = malloc(n * sizeof *f);
  double *dd = malloc(n * sizeof *dd);
  rt_download(&rt, dq, q, n * sizeof *q);
  rt_download(&rt, dr, r, n * sizeof *r);
  rt_download(&rt, df, f, n * sizeof *f);
  rt_download(&rt, ddq, dd, n * sizeof *dd);
  int bad[4] = {0};
  for (int i = 0; i < n; i++) {
    float p = fabsf(a[i]) * b[i]; /* sqrtf's argument, rounded as the kernel's */
    bad[0] += !rt_same_f32(q[i], a[i] / b[i]) && !rt_skip_sub32(&rt, a[i], b[i], 0, a[i] / b[i]);
    bad[1] += !rt_same_f32(r[i], sqrtf(p)) && !rt_skip_sub32(&rt, a[i], b[i], p, sqrtf(p));
    bad[2] += !rt_same_f32(f[i], fmaf(a[i], b[i], c[i])) &&
              !rt_skip_sub32(&rt, a[i], b[i], c[i], fmaf(a[i], b[i], c[i]));
    double x = (double)a[i] * 1.1, y = (double)b[i] * 1.3;
    double xy = x * y; /* rounded on its own, as the kernel's */
    double w = (double)a[i] / ((double)b[i] * 3.0) + sqrt((double)fabsf(c[i])) + fma(x, y, -xy);
    bad[3] += !rt_same_f64(dd[i], w) && !rt_skip_sub32(&rt, a[i], b[i], c[i], 1) &&
              !rt_skip_sub64(&rt, x, y, xy, w);
  }
  static const char *what[4] = {"a / b", "sqrtf", "fmaf", "double a / b + sqrt + fma"};
  for (int k = 0; k < 4; k++)
    if (bad[k]) {
      printf("FAIL ieee: %s differs from the host in %d of %d results (seed %llu)\n", what[k],
             bad[k], n, (unsigned long long)rt.seed);
      rt.failures++;
    }
  free(a), free(b), free(c), free(q), free(r), free(f), free(dd);
  return rt_finish(&rt, "%d x 4 results", n);
}
