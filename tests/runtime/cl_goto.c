/* cl_goto.c — runs tests/runtime/cl_goto.cl (goto and labels) through libkcrt on fresh random
 * inputs and compares every result with the same functions (cl_goto.h) compiled here. */
#include "rt_common.h"

#include <stdlib.h>

#include "cl_goto.h"

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_goto");
  int n = rt_int(&rt, 100, 3000);
  int32_t *a = malloc(n * sizeof *a), *o = malloc(4 * n * sizeof *o),
          *w = malloc(4 * n * sizeof *w);
  for (int i = 0; i < n; i++) {
    a[i] = rt_int(&rt, -2000, 2000);
    w[4 * i + 0] = steps_to_one((unsigned)a[i] % 10000u + 1u);
    w[4 * i + 1] = find_pair(a[i] % 300);
    w[4 * i + 2] = skip_and_enter(a[i]);
    w[4 * i + 3] = from_switch(a[i]);
  }
  kcrt_buffer *da = rt_upload(&rt, a, n * sizeof *a), *dout = rt_alloc(&rt, 4 * n * sizeof *o);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "gotos"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, args, 3);
  rt_download(&rt, dout, o, 4 * n * sizeof *o);
  rt_cmp_i32(&rt, "gotos", o, w, 4 * (size_t)n);
  free(a), free(o), free(w);
  return rt_finish(&rt, "%d work-items", n);
}
