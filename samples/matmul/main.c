/* matmul — tiled matrix multiply on the device, checked against a CPU triple loop.
 *
 *   usage: matmul [M N K]    (C is M x N, the inner dimension K; default 500 400 300:
 *                             sizes that are not multiples of the tile, on purpose) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "matmul.h" /* kcc matmul.k -o matmul.h */

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

enum { TILE = 16 }; /* as in matmul.k */

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int m = 500, n = 400, k = 300;
  if (argc == 4) m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
  if (m <= 0 || n <= 0 || k <= 0) {
    fprintf(stderr, "usage: matmul [M N K]\n");
    return 2;
  }
  kcrt_device *dev;
  kcrt_device_info info;
  CHECK(kcrt_device_open_default(&dev));
  CHECK(kcrt_device_get_info(dev, &info));
  printf("device: %s\n", info.name);

  unsigned seed = (unsigned)time(NULL);
  srand(seed);
  float *A = malloc((size_t)m * k * sizeof *A), *B = malloc((size_t)k * n * sizeof *B);
  float *C = malloc((size_t)m * n * sizeof *C), *want = malloc((size_t)m * n * sizeof *want);
  if (!A || !B || !C || !want) return 1;
  for (size_t i = 0; i < (size_t)m * k; i++) A[i] = (float)rand() / RAND_MAX * 2 - 1;
  for (size_t i = 0; i < (size_t)k * n; i++) B[i] = (float)rand() / RAND_MAX * 2 - 1;

  kcc_buf_float dA, dB, dC;
  CHECK(kcc_buf_float_alloc(dev, (size_t)m * k, &dA));
  CHECK(kcc_buf_float_alloc(dev, (size_t)k * n, &dB));
  CHECK(kcc_buf_float_alloc(dev, (size_t)m * n, &dC));
  CHECK(kcc_buf_float_write(dA, 0, A, (size_t)m * k));
  CHECK(kcc_buf_float_write(dB, 0, B, (size_t)k * n));

  /* One thread per element of C, in TILE x TILE blocks; x runs along the columns. */
  kcrt_dim3 grid = kcc_dim2(kcc_div_up(n, TILE), kcc_div_up(m, TILE));
  kcrt_dim3 block = kcc_dim2(TILE, TILE);
  CHECK(matmul_k_launch_matmul(dev, grid, block, 0, NULL, dA, dB, dC, m, n, k)); /* warm-up */
  CHECK(kcrt_device_synchronize(dev));
  double t0 = now_ms();
  CHECK(matmul_k_launch_matmul(dev, grid, block, 0, NULL, dA, dB, dC, m, n, k));
  CHECK(kcrt_device_synchronize(dev));
  double gpu_ms = now_ms() - t0;
  CHECK(kcc_buf_float_read(dC, 0, C, (size_t)m * n));

  t0 = now_ms();
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      float acc = 0;
      for (int i = 0; i < k; i++) acc += A[(size_t)r * k + i] * B[(size_t)i * n + c];
      want[(size_t)r * n + c] = acc;
    }
  double cpu_ms = now_ms() - t0;

  /* Sums of k products in another order (and maybe fused multiply-adds): compare with a
   * tolerance that scales with k. */
  double worst = 0;
  for (size_t i = 0; i < (size_t)m * n; i++) {
    double err = fabs((double)C[i] - want[i]) / (1.0 + fabs(want[i]));
    if (err > worst) worst = err;
  }
  double tol = 1e-6 * k;
  double gflop = 2.0 * m * n * k / 1e9;
  printf("C(%dx%d) = A(%dx%d) * B(%dx%d), %dx%d tiles\n", m, n, m, k, k, n, TILE, TILE);
  printf("check: largest relative difference from the CPU %.2e: %s\n", worst,
         worst <= tol ? "OK" : "FAILED");
  printf("device: %8.3f ms (%6.2f GFLOP/s)\n", gpu_ms, gflop / (gpu_ms / 1e3));
  printf("CPU:    %8.3f ms (%6.2f GFLOP/s)\n", cpu_ms, gflop / (cpu_ms / 1e3));
  if (worst > tol) printf("seed %u\n", seed);
  free(A), free(B), free(C), free(want);
  CHECK(kcrt_device_close(dev));
  return worst > tol;
}
