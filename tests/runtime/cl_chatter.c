/* cl_chatter.c — runs tests/runtime/cl_chatter.cl on random data (a third of it zeros, so both
 * branches run) and checks every element; tests/runtime/chatter.sh runs it for its stderr. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_chatter");
  kcrt_kernel *k = rt_kernel(&rt, "chatter");
  int n = rt_int(&rt, 1000, 5000);
  int32_t *in = malloc(n * sizeof *in), *got = malloc(n * sizeof *got),
          *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) {
    in[i] = rt_int(&rt, 0, 2) ? rt_int(&rt, -1000, 1000) : 0;
    int v = in[i];
    want[i] = v ? v * 2 : -1;
    if (v - 1) want[i] += 1;
  }
  kcrt_buffer *bin = rt_upload(&rt, in, n * sizeof *in), *bout = rt_alloc(&rt, n * sizeof *got);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bout), KCRT_ARG_BUFFER(bin), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, k, (kcrt_dim3){(unsigned)(n + 127) / 128, 1, 1}, (kcrt_dim3){128, 1, 1}, 0, args,
            3);
  rt_download(&rt, bout, got, n * sizeof *got);
  rt_cmp_i32(&rt, "chatter", got, want, n);
  kcrt_buffer_free(bin), kcrt_buffer_free(bout);
  free(in), free(got), free(want);
  return rt_finish(&rt, "%d elements", n);
}
