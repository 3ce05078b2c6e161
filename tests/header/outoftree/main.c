/* main.c — the out-of-tree project's program: saxpy through the generated header, checked
 * on the host. Prints the bias it observed, so the test sees a regenerated header take
 * effect. */
#include "saxpy.h"

#include <math.h>
#include <stdio.h>

#ifdef SAXPY_PREFIX_OTHER
#define LAUNCH other_launch_saxpy
#else
#define LAUNCH saxpy_k_launch_saxpy
#endif

int main(void) {
  enum { N = 10000 };
  static float x[N], y[N], got[N];
  for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = (float)(N - i);
  kcrt_device *dev;
  kcrt_status st = kcrt_device_open_default(&dev);
  if (st == KCRT_ERROR_NO_DEVICE) return 77;
  kcc_buf_float dx, dy;
  if (st || (st = kcc_buf_float_alloc(dev, N, &dx)) || (st = kcc_buf_float_alloc(dev, N, &dy)) ||
      (st = kcc_buf_float_write(dx, 0, x, N)) || (st = kcc_buf_float_write(dy, 0, y, N)) ||
      (st = LAUNCH(dev, kcc_dim1(kcc_div_up(N, 128)), kcc_dim1(128), 0, NULL, 2.0f, dx, dy, N)) ||
      (st = kcc_buf_float_read(dy, 0, got, N))) {
    printf("FAIL: %s: %s\n", kcrt_status_name(st), kcrt_last_error());
    return 1;
  }
  float bias = got[0] - (2.0f * x[0] + y[0]);
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += fabsf(got[i] - (2.0f * x[i] + y[i] + bias)) > 1e-3f;
  printf("saxpy on %s: %s, bias %g\n", "the default device", wrong ? "FAILED" : "OK", bias);
  kcrt_device_close(dev);
  return wrong != 0;
}
