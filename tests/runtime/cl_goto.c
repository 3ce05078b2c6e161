/* cl_goto.c — runs tests/runtime/cl_goto.cl (goto and labels) through libkcrt on fresh random
 * inputs and compares every result with the same functions compiled here. */
#include "rt_common.h"

#include <stdlib.h>

static int steps_to_one(unsigned n) {
  int steps = 0;
again:
  if (n <= 1) goto done;
  n = (n & 1) ? 3 * n + 1 : n / 2;
  steps++;
  if (steps < 500) goto again;
done:
  return steps;
}

static int find_pair(int x) {
  int r, c;
  for (r = 0; r < 16; r++)
    for (c = 0; c < 16; c++)
      if (r * c == x) goto found;
  return -1;
found:
  return r * 16 + c;
}

static int skip_and_enter(int x) {
  int s = 0, j = 0;
  if (x & 1) goto inside;
  if (x & 2) goto tail;
  int y = x * 3;
  s += y;
  for (j = 0; j < 4; j++) {
    s += j;
  inside:
    s += 10 + x % 7;
  }
tail:
  return s + j;
}

static int from_switch(int x) {
  int v = x % 5;
  switch (v) {
  case 0: goto zero;
  case 1:
  case 2: v *= 7; goto out;
  default: break;
  }
  v += 100;
  {
    if (x > 1000) goto end_of_block;
    v -= 1;
  end_of_block:;
  }
  goto out;
zero:
  v = -x;
out:
  return v;
}

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
