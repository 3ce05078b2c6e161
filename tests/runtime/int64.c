/* int64.c — runs tests/kernels/int64.k on signed 64-bit inputs of both signs (|x| < 2^60).
 * The reference repeats the kernel's expressions in host C, with the kernel file's own mix()
 * (kernel_shim.h). */
#include "rt_common.h"
#include "kernel_shim.h"
#include "../kernels/int64.k"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "int64");
  int n = rt_int(&rt, 20000, 60000);
  long *in = malloc(n * sizeof *in);
  unsigned long *out = malloc(4 * n * sizeof *out), *want = malloc(4 * n * sizeof *want);
  for (int i = 0; i < n; i++) {
    long x = (long)(rt_u64(&rt) >> 4); /* < 2^60 */
    if (x == 0) x = 1;
    if (rt_u32(&rt) & 1) x = -x;
    if (i < 4) x = (long[]){1, -1, 7, -7}[i]; /* small values: remainders and shifts at edges */
    in[i] = x;
    want[4 * i + 0] = (unsigned long)(x * 3 + i) >> 7;
    want[4 * i + 1] = (unsigned long)(x >> 3) ^ ((unsigned long)x << 5);
    unsigned int lo = (unsigned int)x;
    int narrow = (int)x;
    want[4 * i + 2] = (unsigned long)(x / 7 + x % 7 + (long)(lo / 3u) + narrow);
    want[4 * i + 3] = mix((unsigned long)x);
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, 4 * n * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "int64_ops"), KCRT_DIM1(rt_ceil_div(n, 256)), KCRT_DIM1(256), 0,
            args, 3);
  rt_download(&rt, dout, out, 4 * n * sizeof *out);
  rt_cmp_u64(&rt, "out", (const uint64_t *)out, (const uint64_t *)want, 4 * (size_t)n);
  free(in), free(out), free(want);
  return rt_finish(&rt, "%d elements x 4 results", n);
}
