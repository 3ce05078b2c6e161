/* cl_switch.c — runs tests/runtime/cl_switch.cl (switches with nested case labels, Duff's
 * device, defaults fallen into and out of) through libkcrt on fresh random inputs and compares
 * every result with the same functions (cl_switch.h) compiled here. */
#include "rt_common.h"

#include <stdlib.h>

/* Falling from case to case is what the functions test. */
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include "cl_switch.h"

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_switch");
  int n = rt_int(&rt, 500, 4000);
  int32_t *a = malloc(n * sizeof *a), *o = malloc(6 * n * sizeof *o),
          *w = malloc(6 * n * sizeof *w);
  for (int i = 0; i < n; i++) {
    a[i] = rt_int(&rt, -5000, 5000);
    int x = a[i];
    w[6 * i + 0] = duff(x, x & 31);
    w[6 * i + 1] = mid_default(x);
    w[6 * i + 2] = into_if(x % 300);
    w[6 * i + 3] = into_while(x);
    w[6 * i + 4] = in_loop(x);
    w[6 * i + 5] = deep(x);
  }
  kcrt_buffer *da = rt_upload(&rt, a, n * sizeof *a), *dout = rt_alloc(&rt, 6 * n * sizeof *o);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "switches"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, args,
            3);
  rt_download(&rt, dout, o, 6 * n * sizeof *o);
  rt_cmp_i32(&rt, "switches", o, w, 6 * (size_t)n);
  free(a), free(o), free(w);
  return rt_finish(&rt, "%d work-items", n);
}
