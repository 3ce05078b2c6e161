/* cuda_devvar.c — runs tests/runtime/cuda_devvar.cu (CUDA __device__ variables) through
 * libkcrt on fresh random inputs: the variables' first values as the host reads them, their
 * values after two launches that count into them, a kernel that updates a table another
 * launch then reads, and a value the host writes between launches. */
#include "rt_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int32_t n;
  float sum;
} Acc;

static kcrt_buffer *sym(Rt *rt, const char *name, size_t size) {
  kcrt_buffer *b = NULL;
  RT_CHECK(rt, kcrt_module_symbol(rt->mod, name, &b));
  if (kcrt_buffer_size(b) != size)
    rt_fail(rt, "symbol %s: %zu bytes, want %zu", name, kcrt_buffer_size(b), size);
  return b;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_devvar");
  kcrt_buffer *counter = sym(&rt, "counter", 4), *table = sym(&rt, "table", 16),
              *acc = sym(&rt, "acc", 8), *last = sym(&rt, "last_block", 4);
  uint32_t c;
  float t[4];
  Acc a;
  int32_t lb;
  rt_download(&rt, counter, &c, 4);
  rt_download(&rt, table, t, 16);
  rt_download(&rt, acc, &a, 8);
  rt_download(&rt, last, &lb, 4);
  if (c != 5 || t[0] != 1.5f || t[1] != 2.5f || t[2] != 3.5f || t[3] != 4.5f || a.n != 0 ||
      a.sum != 0 || lb != -1)
    rt_fail(&rt, "first values: counter %u, table %g %g %g %g, acc {%d, %g}, last_block %d", c,
            t[0], t[1], t[2], t[3], a.n, a.sum, lb);

  int n = rt_int(&rt, 100, 4000), block = 64, blocks = (int)rt_ceil_div((uint64_t)n, 64);
  float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
        *want = malloc(n * sizeof *want);
  double sum = 0, mag = 0;
  for (int i = 0; i < n; i++) {
    in[i] = rt_float(&rt, -1.0f, 1.0f);
    sum += 2.0 * in[i] * (1.5 + i % 4);
    mag += 2.0 * fabs(in[i] * (1.5 + i % 4));
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg ca[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_VALUE(n)};
  for (int r = 0; r < 2; r++) /* the variables keep counting across launches */
    rt_launch(&rt, rt_kernel(&rt, "count"), KCRT_DIM1(blocks), KCRT_DIM1(block), 0, ca, 2);
  rt_download(&rt, counter, &c, 4);
  rt_download(&rt, acc, &a, 8);
  rt_download(&rt, last, &lb, 4);
  if (c != 5u + 2u * (uint32_t)n || a.n != 2 * n || fabs(a.sum - sum) > 1e-5 * mag + 1e-3 ||
      lb != blocks - 1)
    rt_fail(&rt,
            "after two launches of %d: counter %u (want %u), acc {%d, %.6g} (want {%d, %.6g}), "
            "last_block %d (want %d)",
            n, c, 5u + 2u * (uint32_t)n, a.n, a.sum, 2 * n, sum, lb, blocks - 1);

  float by = rt_float(&rt, -2.0f, 2.0f);
  kcrt_arg ba[] = {KCRT_ARG_VALUE(by)};
  rt_launch(&rt, rt_kernel(&rt, "bump_table"), KCRT_DIM1(1), KCRT_DIM1(32), 0, ba, 1);
  uint32_t host_c = (uint32_t)rt_int(&rt, 1, 1000); /* cudaMemcpyToSymbol */
  RT_CHECK(&rt, kcrt_buffer_write(counter, 0, &host_c, 4));
  kcrt_arg sa[] = {KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "scale"), KCRT_DIM1(blocks), KCRT_DIM1(block), 0, sa, 2);
  rt_download(&rt, dout, out, n * sizeof *out);
  for (int i = 0; i < n; i++)
    want[i] = ((1.5f + (float)(i % 4)) + by) * (float)host_c + (float)(blocks - 1);
  rt_cmp_f32(&rt, "scale", out, want, n, 1e-6, 0);
  kcrt_buffer_free(din), kcrt_buffer_free(dout);
  free(in), free(out), free(want);
  return rt_finish(&rt, "%d threads, 3 launches, host write between", n);
}
