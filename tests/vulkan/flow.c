/* flow.c — runs tests/vulkan/flow.k (every branching construct, for the Vulkan form's
 * structured control flow) and compares every output with the same C on the host. Any device:
 * the Vulkan tests run it with KCC_DEVICE=vulkan. */
#include "rt_common.h"

#include <stdlib.h>

static int collatz(unsigned x) {
  int steps = 0;
  while (x != 1) {
    if (steps > 200) return -1;
    x = (x & 1) ? 3 * x + 1 : x / 2;
    steps++;
  }
  return steps;
}

static int classify(int v) {
  switch (v & 7) {
  default: return 100;
  case 0:
  case 1: return 10;
  case 2: v += 5; /* falls through */
  case 3: return v;
  case 4: break;
  case 5: {
    int t = v * 2;
    if (t > 40) return t;
    break;
  }
  }
  return -v;
}

static int accumulate(int v) {
  int acc = 0;
  for (int j = 0; j < 16; j++) {
    if (j == v % 5) continue;
    if (j > 12 && v > 50) break;
    int k = 0;
    do {
      acc += (k & 1) && (j & 2) ? k : -1;
      if (acc > 1000 || acc < -1000) break;
      k++;
    } while (k < j);
    acc += j < 3 || v > 90 ? 2 : 1;
  }
  return acc;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "flow");
  int n = rt_int(&rt, 5000, 20000);
  int *in = malloc(n * sizeof *in), *out = malloc(3 * n * sizeof *out),
      *want = malloc(3 * n * sizeof *want);
  for (int i = 0; i < n; i++) {
    in[i] = rt_int(&rt, 0, 100000) % 100; /* 0..99: every case, both loop exits */
    want[3 * i] = accumulate(in[i]);
    want[3 * i + 1] = collatz((unsigned)in[i] + 1);
    want[3 * i + 2] = classify(in[i]);
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, 3 * n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "flow"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, args, 3);
  rt_download(&rt, dout, out, 3 * n * sizeof *out);
  rt_cmp_i32(&rt, "out", out, want, 3 * n);
  free(in), free(out), free(want);
  return rt_finish(&rt, "%d elements", n);
}
