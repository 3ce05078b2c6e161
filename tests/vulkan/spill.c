/* spill.c — runs tests/vulkan/spill.k (180 bytes of parameters: more than the push constants
 * every device has, so they go to a buffer per launch) with random values, twice with
 * different ones (each launch's buffer is its own), and compares every result with the host. */
#include "rt_common.h"

#include <stdlib.h>

struct Mix {
  int a;
  double b;
  float c[2];
};

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "spill");
  int n = rt_int(&rt, 1000, 4000);
  int *a[10];
  kcrt_buffer *da[10];
  for (int k = 0; k < 10; k++) {
    a[k] = malloc(n * sizeof *a[k]);
    for (int i = 0; i < n; i++) a[k][i] = rt_int(&rt, -100000, 100000);
    da[k] = rt_upload(&rt, a[k], n * sizeof *a[k]);
  }
  int bias[2] = {rt_int(&rt, -1000, 1000), rt_int(&rt, -1000, 1000)};
  kcrt_buffer *sym;
  RT_CHECK(&rt, kcrt_module_symbol(rt.mod, "bias", &sym));
  RT_CHECK(&rt, kcrt_buffer_write(sym, 0, bias, sizeof bias));
  kcrt_buffer *dout[2] = {rt_alloc(&rt, 2 * n * sizeof(long)), rt_alloc(&rt, 2 * n * sizeof(long))};
  long *got = malloc(2 * n * sizeof *got);
  struct {
    signed char c;
    double d;
    struct Mix m;
    short s;
    float v[4];
    long l;
  } p[2];
  for (int r = 0; r < 2; r++) {
    p[r].c = (signed char)rt_int(&rt, -128, 127);
    p[r].d = rt_int(&rt, -1000000, 1000000) * 0.25;
    p[r].m.a = rt_int(&rt, -99999, 99999);
    p[r].m.b = rt_int(&rt, -99999, 99999) * 0.5;
    p[r].m.c[0] = (float)rt_int(&rt, -999, 999) * 0.125f;
    p[r].m.c[1] = (float)rt_int(&rt, -999, 999) * 0.0625f;
    p[r].s = (short)rt_int(&rt, -32768, 32767);
    for (int k = 0; k < 4; k++) p[r].v[k] = (float)rt_int(&rt, -999, 999) * 0.5f;
    p[r].l = (long)rt_int(&rt, -1000000, 1000000) * 1000003;
    kcrt_arg args[] = {
        KCRT_ARG_BUFFER(da[0]), KCRT_ARG_BUFFER(da[1]),        KCRT_ARG_BUFFER(da[2]),
        KCRT_ARG_BUFFER(da[3]), KCRT_ARG_BUFFER(da[4]),        KCRT_ARG_BUFFER(da[5]),
        KCRT_ARG_BUFFER(da[6]), KCRT_ARG_BUFFER(da[7]),        KCRT_ARG_BUFFER(da[8]),
        KCRT_ARG_BUFFER(da[9]), KCRT_ARG_BUFFER(dout[r]),      KCRT_ARG_VALUE(n),
        KCRT_ARG_VALUE(p[r].c), KCRT_ARG_VALUE(p[r].d),        KCRT_ARG_VALUE(p[r].m),
        KCRT_ARG_VALUE(p[r].s), {p[r].v, sizeof p[r].v, NULL}, KCRT_ARG_VALUE(p[r].l)};
    rt_launch(&rt, rt_kernel(&rt, "spill"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, args,
              18);
  }
  int bad = 0;
  for (int r = 0; r < 2; r++) {
    rt_download(&rt, dout[r], got, 2 * n * sizeof *got);
    for (int i = 0; i < n; i++) {
      long t = 0;
      for (int k = 0; k < 10; k++) t += (long)(k + 1) * a[k][i];
      long w0 = 2 * t + p[r].c + p[r].s + p[r].l + bias[i & 1];
      long w1 = (long)(p[r].d * 4.0) + p[r].m.a + (long)(p[r].m.b * 2.0) +
                (long)(p[r].m.c[0] * 8.0f) + (long)(p[r].m.c[1] * 16.0f) +
                (long)(p[r].v[0] * 2.0f) + (long)(p[r].v[3] * 4.0f);
      if (got[2 * i] != w0 && bad++ < 8)
        printf("FAIL spill: launch %d out[%d] = %ld, want %ld\n", r, 2 * i, got[2 * i], w0);
      if (got[2 * i + 1] != w1 && bad++ < 8)
        printf("FAIL spill: launch %d out[%d] = %ld, want %ld\n", r, 2 * i + 1, got[2 * i + 1], w1);
    }
  }
  if (bad) {
    printf("FAIL spill: %d results differ (seed %llu)\n", bad, (unsigned long long)rt.seed);
    rt.failures++;
  }
  for (int k = 0; k < 10; k++) free(a[k]);
  free(got);
  return rt_finish(&rt, "2 launches of %d threads, 18 parameters", n);
}
