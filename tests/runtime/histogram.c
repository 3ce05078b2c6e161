/* histogram.c — runs tests/kernels/histogram.k on random bytes with a grid of at most 64
 * blocks (grid-stride loop), bins zeroed by the host before the launch. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "histogram");
  int n = rt_int(&rt, 200000, 1000000);
  unsigned char *data = malloc(n);
  unsigned int bins[256], want[256] = {0};
  /* A skewed distribution: some bins get many hits (contention on one shared counter). */
  for (int i = 0; i < n; i++) {
    uint32_t r = rt_u32(&rt);
    data[i] = (unsigned char)((r & 3) == 0 ? (r >> 8) % 4 : r >> 24);
    want[data[i]]++;
  }
  kcrt_buffer *dd = rt_upload(&rt, data, n), *db = rt_alloc(&rt, sizeof bins);
  RT_CHECK(&rt, kcrt_buffer_fill(db, 0, 0, sizeof bins));
  int grid = (int)rt_ceil_div(n, 256);
  if (grid > 64) grid = 64;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(dd), KCRT_ARG_VALUE(n), KCRT_ARG_BUFFER(db)};
  rt_launch(&rt, rt_kernel(&rt, "histogram"), KCRT_DIM1(grid), KCRT_DIM1(256), 0, args, 3);
  rt_download(&rt, db, bins, sizeof bins);
  rt_cmp_u32(&rt, "bins", bins, want, 256);
  free(data);
  return rt_finish(&rt, "%d bytes, %d blocks", n, grid);
}
