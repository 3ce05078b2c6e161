/* divguard.c — runs tests/vulkan/divguard.k, whose guarded divisions by zero and of the most
 * negative int by -1 killed lavapipe's compiler (docs/driver-bugs.md 18) and whose 64-bit
 * comparisons with constants it got wrong (20), and checks every result against the host. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "divguard");
  int n = rt_int(&rt, 1000, 5000);
  int32_t *o = malloc(n * sizeof *o), *wo = malloc(n * sizeof *wo);
  int64_t *l = malloc(n * sizeof *l), *wl = malloc(n * sizeof *wl);
  uint32_t *u = malloc(n * sizeof *u), *wu = malloc(n * sizeof *wu);
  int32_t *c = malloc(n * sizeof *c), *wc = malloc(n * sizeof *wc);
  for (int i = 0; i < n; i++) {
    o[i] = rt_int(&rt, -2000000000, 2000000000);
    l[i] = (int64_t)rt_int(&rt, -2000000000, 2000000000) * 977;
    u[i] = (uint32_t)rt_int(&rt, 0, 2000000000) * 2u;
    wo[i] = 0; /* set below, once o[i] is final */
    wl[i] = l[i] % 5;
    wu[i] = 7u + u[i] / 2u;
    if (i % 3 == 0) o[i] = rt_int(&rt, -1000, 1000); /* near the comparisons' constants */
  }
  for (int i = 0; i < n; i++) {
    wo[i] = o[i] / 3;
    int64_t b = o[i];
    wc[i] = (b > 1000) + 2 * (b < -5) + 4 * (b >= 0) + 8 * (b <= 7) + 16 * (-3 < b);
  }
  kcrt_buffer *dout = rt_upload(&rt, o, n * sizeof *o), *dl = rt_upload(&rt, l, n * sizeof *l),
              *du = rt_upload(&rt, u, n * sizeof *u), *dc = rt_alloc(&rt, n * sizeof *c);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(dl), KCRT_ARG_BUFFER(du),
                     KCRT_ARG_BUFFER(dc), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "divguard"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, args,
            5);
  rt_download(&rt, dout, o, n * sizeof *o);
  rt_download(&rt, dl, l, n * sizeof *l);
  rt_download(&rt, du, u, n * sizeof *u);
  rt_download(&rt, dc, c, n * sizeof *c);
  rt_cmp_i32(&rt, "c", c, wc, n);
  rt_cmp_i32(&rt, "o", o, wo, n);
  rt_cmp_u32(&rt, "u", u, wu, n);
  for (int i = 0; i < n; i++)
    if (l[i] != wl[i]) {
      printf("FAIL divguard: l[%d] = %lld, expected %lld\n", i, (long long)l[i], (long long)wl[i]);
      rt.failures++;
      break;
    }
  free(o), free(wo), free(l), free(wl), free(u), free(wu), free(c), free(wc);
  return rt_finish(&rt, "%d elements", n);
}
