/* cl_workitem.c — runs tests/runtime/cl_workitem.cl (OpenCL C input) through libkcrt on
 * random 1-, 2- and 3-dimensional launches, with the run-time dimension argument 0..4, and
 * compares every value with OpenCL's definitions. get_work_dim() is the last dimension whose
 * global size is not 1 (docs/dialect.md: a kcc launch has no dimension count of its own). */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_workitem");
  kcrt_kernel *k = rt_kernel(&rt, "workitem");
  /* Blocks up to 8x8x8 = 512 threads, within what the kernel allows on this device (NVIDIA's
   * OpenCL gives this one 256). */
  kcrt_kernel_info ki;
  RT_CHECK(&rt, kcrt_kernel_get_info(k, &ki));
  int runs = 0;
  for (int dims = 1; dims <= 3; dims++)
    for (unsigned d = 0; d <= 4; d++) {
      unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
      for (int i = 0; i < dims; i++) {
        grid[i] = (unsigned)rt_int(&rt, i == dims - 1 ? 2 : 1, 5);
        block[i] = (unsigned)rt_int(&rt, 1, dims == 1 ? 64 : 8);
      }
      while ((uint64_t)block[0] * block[1] * block[2] > ki.max_threads_per_block)
        for (int i = 0; i < 3; i++) block[i] = block[i] > 1 ? block[i] / 2 : 1;
      unsigned gsz[3], n = 1;
      for (int i = 0; i < 3; i++) n *= gsz[i] = grid[i] * block[i];
      size_t bytes = (size_t)n * 12 * sizeof(uint32_t);
      kcrt_buffer *out = rt_alloc(&rt, bytes);
      kcrt_arg args[] = {KCRT_ARG_BUFFER(out), KCRT_ARG_VALUE(d)};
      rt_launch(&rt, k, (kcrt_dim3){grid[0], grid[1], grid[2]},
                (kcrt_dim3){block[0], block[1], block[2]}, 0, args, 2);
      uint32_t *got = malloc(bytes), *want = malloc(bytes);
      rt_download(&rt, out, got, bytes);
      unsigned wdim = gsz[2] != 1 ? 3 : gsz[1] != 1 ? 2 : 1;
      for (unsigned z = 0; z < gsz[2]; z++)
        for (unsigned y = 0; y < gsz[1]; y++)
          for (unsigned x = 0; x < gsz[0]; x++) {
            unsigned id[3] = {x, y, z}, lid[3], gid[3];
            for (int i = 0; i < 3; i++) lid[i] = id[i] % block[i], gid[i] = id[i] / block[i];
            uint32_t *w = want + ((size_t)(z * gsz[1] + y) * gsz[0] + x) * 12;
            bool in = d < 3; /* past dimension 2: OpenCL's 0 for ids, 1 for sizes */
            w[0] = wdim;
            w[1] = in ? id[d] : 0;
            w[2] = in ? lid[d] : 0;
            w[3] = in ? gid[d] : 0;
            w[4] = in ? gsz[d] : 1;
            w[5] = in ? block[d] : 1;
            w[6] = in ? grid[d] : 1;
            w[7] = 0;
            w[8] = lid[0] + 10 * lid[1] + 100 * lid[2];
            w[9] = gid[0] + 10 * gid[1] + 100 * gid[2];
            w[10] = block[0] * block[1] * block[2];
            w[11] = grid[0] * grid[1] * grid[2];
          }
      char what[64];
      snprintf(what, sizeof what, "%d-D launch, dimension %u", dims, d);
      rt_cmp_u32(&rt, what, got, want, (size_t)n * 12);
      kcrt_buffer_free(out);
      free(got), free(want);
      runs++;
    }
  return rt_finish(&rt, "%d launches of 1, 2 and 3 dimensions", runs);
}
