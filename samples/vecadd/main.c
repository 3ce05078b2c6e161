/* vecadd — the first kcc program: c = a + b on whatever device the machine has, checked
 * against a plain C loop on random data and timed against it.
 *
 *   usage: vecadd [N]        (N elements, default 4194304; KCC_DEVICE picks the device)
 *
 * docs/getting-started.md walks through this file. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "vecadd.h" /* made by kcc from vecadd.k: vecadd_k_launch_vecadd() and the module */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Every kcrt call returns a status; on failure kcrt_last_error() says what went wrong. */
#define CHECK(call)                                                                                \
  do {                                                                                             \
    kcrt_status st_ = (call);                                                                      \
    if (st_ != KCRT_SUCCESS) {                                                                     \
      fprintf(stderr, "%s failed: %s: %s\n", #call, kcrt_status_name(st_), kcrt_last_error());     \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

enum { BLOCK = 256, REPS = 20 };

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The CPU version, called through a volatile pointer so that the compiler cannot fold the
 * timing loop's repetitions into one. */
static void cpu_vecadd(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}
static void (*volatile cpu_add)(const float *, const float *, float *, int) = cpu_vecadd;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 22;
  if (n <= 0) {
    fprintf(stderr, "usage: vecadd [N]\n");
    return 2;
  }

  /* 1. Open the best device present (a CUDA GPU, else an OpenCL GPU, else an OpenCL CPU),
   *    or the one $KCC_DEVICE names. */
  kcrt_device *dev;
  kcrt_device_info info;
  CHECK(kcrt_device_open_default(&dev));
  CHECK(kcrt_device_get_info(dev, &info));
  printf("device: %s (%s, %s)\n", info.name, info.backend == KCRT_BACKEND_CUDA ? "CUDA" : "OpenCL",
         info.platform);

  /* 2. Random inputs on the host. */
  unsigned seed = (unsigned)time(NULL);
  srand(seed);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  float *c = malloc(n * sizeof *c), *want = malloc(n * sizeof *want);
  if (!a || !b || !c || !want) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (int i = 0; i < n; i++) {
    a[i] = (float)rand() / RAND_MAX;
    b[i] = (float)rand() / RAND_MAX;
  }

  /* 3. Device buffers, typed: the launch function takes kcc_buf_float for `float *`. */
  kcc_buf_float da, db, dc;
  CHECK(kcc_buf_float_alloc(dev, n, &da));
  CHECK(kcc_buf_float_alloc(dev, n, &db));
  CHECK(kcc_buf_float_alloc(dev, n, &dc));
  CHECK(kcc_buf_float_write(da, 0, a, n));
  CHECK(kcc_buf_float_write(db, 0, b, n));

  /* 4. Launch: ceil(n / 256) blocks of 256 threads, no dynamic shared memory, the default
   *    queue. The first launch loads the module, which builds it for this device (the
   *    runtime caches the result on disk, so later runs skip the build). */
  kcrt_dim3 grid = kcc_dim1(kcc_div_up(n, BLOCK)), block = kcc_dim1(BLOCK);
  double t0 = now_ms();
  CHECK(vecadd_k_launch_vecadd(dev, grid, block, 0, NULL, da, db, dc, n));
  CHECK(kcrt_device_synchronize(dev));
  double first_ms = now_ms() - t0;

  /* 5. Time REPS more launches with events on the default queue: the kernel alone, the
   *    module already built. */
  kcrt_event *start, *stop;
  double gpu_ms;
  CHECK(kcrt_event_create(dev, &start));
  CHECK(kcrt_event_create(dev, &stop));
  CHECK(kcrt_event_record(start, NULL));
  for (int r = 0; r < REPS; r++)
    CHECK(vecadd_k_launch_vecadd(dev, grid, block, 0, NULL, da, db, dc, n));
  CHECK(kcrt_event_record(stop, NULL));
  CHECK(kcrt_event_elapsed_ms(start, stop, &gpu_ms));
  gpu_ms /= REPS;

  /* 6. Read the result back and compare it with the CPU loop, timed the same way. */
  CHECK(kcc_buf_float_read(dc, 0, c, n));
  t0 = now_ms();
  for (int r = 0; r < REPS; r++) cpu_add(a, b, want, n);
  double cpu_ms = (now_ms() - t0) / REPS;
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += c[i] != want[i]; /* one IEEE addition: exact */
  if (wrong)
    printf("check: FAILED: %d of %d elements differ from the CPU loop (seed %u)\n", wrong, n, seed);
  else
    printf("check: OK, %d elements equal to the CPU loop (random data, seed %u)\n", n, seed);

  double gb = 3.0 * n * sizeof(float) / 1e9; /* bytes moved per vector add */
  printf("first launch (loads the module):  %9.3f ms\n", first_ms);
  printf("kernel on the device:             %9.3f ms  (%.1f GB/s)\n", gpu_ms, gb / (gpu_ms / 1e3));
  printf("same loop on the CPU:             %9.3f ms  (%.1f GB/s)\n", cpu_ms, gb / (cpu_ms / 1e3));
  printf("device vs CPU: %.1fx\n", cpu_ms / gpu_ms);

  /* 7. Clean up. Closing the device would also free what is still on it. */
  kcrt_event_destroy(start);
  kcrt_event_destroy(stop);
  kcc_buf_float_free(da);
  kcc_buf_float_free(db);
  kcc_buf_float_free(dc);
  CHECK(kcrt_device_close(dev));
  free(a), free(b), free(c), free(want);
  return wrong != 0;
}
