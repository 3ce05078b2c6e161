/* frames.c — runs tests/vulkan/frames.k (locals whose address escapes) on a 2-D grid whose
 * size is not a multiple of the block, and compares every output with the same C on the host. */
#include "rt_common.h"

#include <stdlib.h>

static void fill(int *p, int n, int v) {
  for (int i = 0; i < n; i++) *p++ = v + i * i;
}

static long total(const int *p, int n) {
  long s = 0;
  const int *end = p + n;
  while (p < end) s += *p++;
  return s;
}

static void bump(int *x, long *y) {
  *x += 3;
  *y -= 7;
}

struct Acc {
  int n;
  long sum[2];
};

static void reference(int v, long out[2], unsigned *bits) {
  int a[8];
  fill(a, 8, v);
  fill(a + 4, 2, -v);
  int k = v & 7;
  struct Acc acc = {0, {0, 0}};
  bump(&acc.n, &acc.sum[1]);
  bump(&k, &acc.sum[0]);
  int *p = a;
  p += k & 3;
  acc.sum[0] += total(p, 4) + total(a, 8);
  float f = (float)v * 0.5f;
  memcpy(bits, &f, sizeof f);
  out[0] = acc.sum[0] + acc.sum[1] * 1000 + acc.n;
  out[1] = a[k & 7] + p[1];
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "frames");
  int w = rt_int(&rt, 100, 300), h = rt_int(&rt, 50, 120), n = w * h;
  int *in = malloc(n * sizeof *in);
  long *out = malloc(2 * n * sizeof *out), *want = malloc(2 * n * sizeof *want);
  unsigned *bits = malloc(n * sizeof *bits), *wbits = malloc(n * sizeof *wbits);
  for (int i = 0; i < n; i++) {
    in[i] = rt_int(&rt, -1000000, 1000000);
    reference(in[i], want + 2 * i, wbits + i);
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, 2 * n * sizeof *out),
              *dbits = rt_alloc(&rt, n * sizeof *bits);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(dbits),
                     KCRT_ARG_VALUE(w), KCRT_ARG_VALUE(h)};
  rt_launch(&rt, rt_kernel(&rt, "frames"), KCRT_DIM3(rt_ceil_div(w, 16), rt_ceil_div(h, 8), 1),
            KCRT_DIM3(16, 8, 1), 0, args, 5);
  rt_download(&rt, dout, out, 2 * n * sizeof *out);
  rt_download(&rt, dbits, bits, n * sizeof *bits);
  for (int i = 0; i < 2 * n; i++)
    if (out[i] != want[i]) {
      printf("FAIL frames: out[%d] = %ld, expected %ld (seed %llu)\n", i, out[i], want[i],
             (unsigned long long)rt.seed);
      rt.failures++;
      break;
    }
  rt_cmp_u32(&rt, "bits", bits, wbits, n);
  free(in), free(out), free(want), free(bits), free(wbits);
  return rt_finish(&rt, "%d x %d invocations", w, h);
}
