/* cl_printf.c — runs tests/runtime/cl_printf.cl (OpenCL C input) on 8 work-items with random
 * inputs (floats multiples of 1/8, so each conversion has one right answer), captures the
 * device's standard output around the launch, and compares the sorted lines with what the
 * host's printf makes of the same values, each vector conversion written out per component
 * with commas between, as OpenCL C specifies. */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_printf");
  float f[N][4], k = rt_int(&rt, 1, 16) / 8.0f;
  int32_t iv[N][2];
  uint8_t c[N][4];
  int16_t s[N][4]; /* short3 takes the room of short4 */
  int64_t l[N][2];
  double d[N][2];
  for (int g = 0; g < N; g++) {
    for (int j = 0; j < 4; j++) {
      f[g][j] = rt_int(&rt, -800, 800) / 8.0f;
      c[g][j] = (uint8_t)rt_int(&rt, 0, 255);
      s[g][j] = (int16_t)rt_int(&rt, -30000, 30000);
    }
    for (int j = 0; j < 2; j++) {
      iv[g][j] = rt_int(&rt, -1000000, 1000000);
      l[g][j] = (int64_t)rt_u64(&rt);
      d[g][j] = rt_int(&rt, -8000, 8000) / 8.0;
    }
  }
  char want[8192] = "";
  for (int g = 0; g < N; g++) {
    double v[4];
    for (int j = 0; j < 4; j++) v[j] = (double)(f[g][j] * k);
    char line[1024];
    snprintf(line, sizeof line,
             "%u: f=%f,%f,%f,%f e=%.1e,%.1e i=%+d,%+d c=%x,%x,%x,%x s=%5d,%5d,%5d "
             "l=%ld,%ld d=%.3f,%.3f n=%d,%d %s\n",
             g, v[0], v[1], v[2], v[3], v[0], v[1], iv[g][0], iv[g][1], c[g][0], c[g][1], c[g][2],
             c[g][3], s[g][0], s[g][1], s[g][2], (long)l[g][0], (long)l[g][1], d[g][0] * k,
             d[g][1] * k, iv[g][0] - 1, iv[g][1] - 1, "end");
    strcat(want, line);
  }
  kcrt_buffer *b[6] = {rt_upload(&rt, f, sizeof f), rt_upload(&rt, iv, sizeof iv),
                       rt_upload(&rt, c, sizeof c), rt_upload(&rt, s, sizeof s),
                       rt_upload(&rt, l, sizeof l), rt_upload(&rt, d, sizeof d)};
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b[0]), KCRT_ARG_BUFFER(b[1]), KCRT_ARG_BUFFER(b[2]),
                     KCRT_ARG_BUFFER(b[3]), KCRT_ARG_BUFFER(b[4]), KCRT_ARG_BUFFER(b[5]),
                     KCRT_ARG_VALUE(k)};
  char got[16384];
  rt_launch_printed(&rt, rt_kernel(&rt, "vprint"), KCRT_DIM1(2), KCRT_DIM1(N / 2), 0, args, 7, got,
                    sizeof got);
  int nw = rt_cmp_lines(&rt, got, want);
  return rt_finish(&rt, "%d lines with vector conversions, scale %g", nw, k);
}
