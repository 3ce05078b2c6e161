/* divzero.c — runs tests/vulkan/divzero.k on random operands and special values (zeros of both
 * signs, infinities, NaN, denormals) and compares every quotient with the host's bit for bit
 * (NaNs of any payload equal): division by a zero the driver can see (lavapipe lost those
 * results: docs/driver-bugs.md 22) and by one it cannot, and products, fma and sums with zeros
 * (driver-bugs 21). */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "divzero");
  int n = rt_int(&rt, 5000, 20000), zero = 0;
  float *a = malloc(n * sizeof *a), *qf = malloc(4 * n * sizeof *qf),
        *qv = malloc(2 * n * sizeof *qv);
  double *d = malloc(n * sizeof *d), *qd = malloc(4 * n * sizeof *qd),
         *pm = malloc(6 * n * sizeof *pm);
  static const float special[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -3e-39f, 1.0f};
  for (int i = 0; i < n; i++) {
    a[i] = rt_float(&rt, -4, 4);
    d[i] = (double)rt_float(&rt, -1e6f, 1e6f) * 1.1;
    if (i % 7 == 0) a[i] = special[rt_int(&rt, 0, 7)];
    if (i % 5 == 0) d[i] = (double)special[rt_int(&rt, 0, 7)];
  }
  kcrt_buffer *da = rt_upload(&rt, a, n * sizeof *a), *dd = rt_upload(&rt, d, n * sizeof *d),
              *dqf = rt_alloc(&rt, 4 * n * sizeof *qf), *dqd = rt_alloc(&rt, 4 * n * sizeof *qd),
              *dqv = rt_alloc(&rt, 2 * n * sizeof *qv), *dpm = rt_alloc(&rt, 6 * n * sizeof *pm);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da),  KCRT_ARG_BUFFER(dd),  KCRT_ARG_BUFFER(dqf),
                     KCRT_ARG_BUFFER(dqd), KCRT_ARG_BUFFER(dqv), KCRT_ARG_VALUE(n),
                     KCRT_ARG_VALUE(zero), KCRT_ARG_BUFFER(dpm)};
  rt_launch(&rt, rt_kernel(&rt, "divzero"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, args,
            8);
  rt_download(&rt, dqf, qf, 4 * n * sizeof *qf);
  rt_download(&rt, dqd, qd, 4 * n * sizeof *qd);
  rt_download(&rt, dqv, qv, 2 * n * sizeof *qv);
  rt_download(&rt, dpm, pm, 6 * n * sizeof *pm);
  int bad = 0;
  volatile float fz = 0.0f; /* the host divides at run time too */
  volatile double dz = 0.0;
  for (int i = 0; i < n; i++) {
    float wf[4] = {a[i] / fz, a[i] / -fz, a[i] / fz, fz / a[i]};
    double wd[4] = {d[i] / dz, d[i] / -dz, d[i] / dz, d[i] / dz};
    float wv[2] = {a[i] / fz, -a[i] / -fz};
    for (int k = 0; k < 4; k++) {
      if (!rt_same_f32(qf[4 * i + k], wf[k]) && !rt_skip_sub32(&rt, a[i], 0, 0, wf[k]) && bad++ < 8)
        printf("FAIL divzero: float quotient %d of %d: %a, want %a (a = %a)\n", k, i, qf[4 * i + k],
               wf[k], a[i]);
      if (!rt_same_f64(qd[4 * i + k], wd[k]) && !rt_skip_sub64(&rt, d[i], 0, 0, wd[k]) && bad++ < 8)
        printf("FAIL divzero: double quotient %d of %d: %a, want %a (d = %a)\n", k, i,
               qd[4 * i + k], wd[k], d[i]);
    }
    double wp[6] = {(double)(a[i] * fz),       d[i] * -dz,
                    fma(d[i], dz, -0.0),       fma(0.0, d[i], dz),
                    -d[i] * dz + -(0.5 * -dz), (double)(-fz) + dz - (double)(-a[i] * fz)};
    for (int k = 0; k < 6; k++)
      if (!rt_same_f64(pm[6 * i + k], wp[k]) && !rt_skip_sub32(&rt, a[i], 0, 0, 1) &&
          !rt_skip_sub64(&rt, d[i], 0, 0, wp[k]) && bad++ < 8)
        printf("FAIL divzero: product or sum %d of %d: %a, want %a (a = %a, d = %a)\n", k, i,
               pm[6 * i + k], wp[k], a[i], d[i]);
    for (int k = 0; k < 2; k++)
      if (!rt_same_f32(qv[2 * i + k], wv[k]) && !rt_skip_sub32(&rt, a[i], 0, 0, wv[k]) && bad++ < 8)
        printf("FAIL divzero: float2 quotient %d of %d: %a, want %a (a = %a)\n", k, i,
               qv[2 * i + k], wv[k], a[i]);
  }
  if (bad) {
    printf("FAIL divzero: %d quotients differ from the host (seed %llu)\n", bad,
           (unsigned long long)rt.seed);
    rt.failures++;
  }
  free(a), free(d), free(qf), free(qd), free(qv), free(pm);
  return rt_finish(&rt, "%d x 10 quotients and 6 products and sums", n);
}
