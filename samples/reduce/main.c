/* reduce — sums n random floats on the device with a shared-memory tree reduction (one
 * partial sum per block, added up on the host) and compares with a double-precision CPU sum.
 *
 *   usage: reduce [N]        (default 10000000) */
#include "reduce.h" /* kcc reduce.k -o reduce.h */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    kcrt_status st_ = (call);                                                                      \
    if (st_ != KCRT_SUCCESS) {                                                                     \
      fprintf(stderr, "%s failed: %s: %s\n", #call, kcrt_status_name(st_), kcrt_last_error());     \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

enum { BLOCK = 256 };

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10000000;
  if (n <= 0) {
    fprintf(stderr, "usage: reduce [N]\n");
    return 2;
  }
  kcrt_device *dev;
  kcrt_device_info info;
  CHECK(kcrt_device_open_default(&dev));
  CHECK(kcrt_device_get_info(dev, &info));
  printf("device: %s\n", info.name);

  unsigned seed = (unsigned)time(NULL);
  srand(seed);
  float *in = malloc(n * sizeof *in);
  if (!in) return 1;
  double want = 0;
  for (int i = 0; i < n; i++) {
    in[i] = (float)rand() / RAND_MAX - 0.25f;
    want += in[i];
  }

  /* Each block reduces 2 * BLOCK elements into one partial sum. */
  int blocks = (int)kcc_div_up(n, 2 * BLOCK);
  kcc_buf_float din, dpartial;
  CHECK(kcc_buf_float_alloc(dev, n, &din));
  CHECK(kcc_buf_float_alloc(dev, blocks, &dpartial));
  CHECK(kcc_buf_float_write(din, 0, in, n));
  /* The kernel's `extern shared float sdata[]` gets BLOCK floats: the dynamic shared size. */
  CHECK(reduce_k_launch_reduce(dev, kcc_dim1(blocks), kcc_dim1(BLOCK), BLOCK * sizeof(float), NULL,
                               din, dpartial, n));
  float *partial = malloc(blocks * sizeof *partial);
  if (!partial) return 1;
  CHECK(kcc_buf_float_read(dpartial, 0, partial, blocks));
  double got = 0;
  for (int b = 0; b < blocks; b++) got += partial[b];

  /* The device adds in float in a different order: allow for rounding, not for mistakes. */
  double rel = fabs(got - want) / fmax(fabs(want), 1.0);
  printf("%d floats in %d blocks of %d threads\n", n, blocks, BLOCK);
  printf("sum on the device: %.6f\nsum on the CPU:    %.6f (double)\n", got, want);
  printf("relative difference %.2e: %s\n", rel, rel < 1e-5 ? "OK" : "FAILED");
  if (rel >= 1e-5) printf("seed %u\n", seed);
  free(in), free(partial);
  CHECK(kcrt_device_close(dev));
  return rel >= 1e-5;
}
