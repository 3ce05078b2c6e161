/* header.c — a program built on the C header kcc generates (kcc_add_kernels ... OPTIONS
 * -fbounds-check) for tests/bounds/oob.k: the typed launch functions take the kernel's own
 * parameters, libkcrt adds the checker's, and a bad access comes back from the next
 * synchronising call as KCRT_ERROR_OUT_OF_BOUNDS. */
#include "oob.h"

#include <stdio.h>
#include <string.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    kcrt_status st_ = (call);                                                                      \
    if (st_) {                                                                                     \
      printf("FAIL %s: %s: %s\n", #call, kcrt_status_name(st_), kcrt_last_error());                \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(void) {
  kcrt_device *dev;
  kcrt_status st = kcrt_device_open_default(&dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    printf("SKIP: no device\n");
    return 77;
  }
  CHECK(st);
  enum { N = 1000 };
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 2.0f * (float)i;
  kcc_buf_float ba, bb, bc;
  CHECK(kcc_buf_float_alloc(dev, N, &ba));
  CHECK(kcc_buf_float_alloc(dev, N, &bb));
  CHECK(kcc_buf_float_alloc(dev, N, &bc));
  CHECK(kcc_buf_float_write(ba, 0, a, N));
  CHECK(kcc_buf_float_write(bb, 0, b, N));
  CHECK(oob_k_launch_vecadd(dev, KCRT_DIM1(4), KCRT_DIM1(256), 0, NULL, ba, bb, bc, N));
  CHECK(kcrt_device_synchronize(dev));
  CHECK(oob_k_launch_vecadd(dev, KCRT_DIM1(4), KCRT_DIM1(256), 0, NULL, ba, bb, bc, N + 1));
  st = kcrt_device_synchronize(dev);
  const char *want = "kernel 'vecadd' at oob.k:5:16: thread (232,0,0) of block (3,0,0) writes "
                     "c[1000]; c holds 1000 float (4000 bytes)";
  if (st != KCRT_ERROR_OUT_OF_BOUNDS || strcmp(kcrt_last_error(), want)) {
    printf("FAIL: got %s: %s\n want KCRT_ERROR_OUT_OF_BOUNDS: %s\n", kcrt_status_name(st),
           kcrt_last_error(), want);
    return 1;
  }
  CHECK(kcc_buf_float_read(bc, 0, c, N));
  for (int i = 0; i < N; i++)
    if (c[i] != 3.0f * (float)i) {
      printf("FAIL: c[%d] = %g, want %g\n", i, c[i], 3.0 * i);
      return 1;
    }
  CHECK(kcrt_device_close(dev));
  printf("PASS bounds.header: a checked bundle through the generated header\n");
  return 0;
}
