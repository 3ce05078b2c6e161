/* main.c — saxpy with a plain Makefile: see Makefile. */
#include "saxpy.h" /* generated: kcc saxpy.k -o saxpy.h */
#include "saxpy_config.h"

#include <stdio.h>

int main(void) {
  enum { N = 100000 };
  static float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;

  kcrt_device *dev;
  kcc_buf_float dx, dy;
  kcrt_status st;
  if ((st = kcrt_device_open_default(&dev)) || (st = kcc_buf_float_alloc(dev, N, &dx)) ||
      (st = kcc_buf_float_alloc(dev, N, &dy)) || (st = kcc_buf_float_write(dx, 0, x, N)) ||
      (st = kcc_buf_float_write(dy, 0, y, N)) ||
      (st = saxpy_k_launch_saxpy(dev, kcc_dim1(kcc_div_up(N, SAXPY_BLOCK)), kcc_dim1(SAXPY_BLOCK),
                                 0, NULL, 2.0f, dx, dy, N)) ||
      (st = kcc_buf_float_read(dy, 0, y, N))) {
    fprintf(stderr, "%s: %s\n", kcrt_status_name(st), kcrt_last_error());
    return 1;
  }
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += y[i] != 2.0f * i + 1.0f;
  printf("saxpy, blocks of %d: %s\n", SAXPY_BLOCK, wrong ? "FAILED" : "OK");
  kcrt_device_close(dev);
  return wrong != 0;
}
