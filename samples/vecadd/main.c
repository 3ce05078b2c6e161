/* vecadd — the first kcc program: c = a + b on whatever device the machine has, checked
 * against a plain C loop on random data and timed against it.
 *
 *   usage: vecadd [N]        (N elements, default 4194304; KCC_DEVICE picks the device)
 *
 * docs/getting-started.md walks through this file. */
#include "vecadd.h" /* made by kcc from vecadd.k: vecadd_launch() and the module */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BLOCK = 256, REPS = 20 };

/* The CPU version, called through a volatile pointer so that the compiler cannot fold the
 * timing loop's repetitions into one. */
static void cpu_vecadd(const float *a, const float *b, float *c, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}
static void (*volatile cpu_add)(const float *, const float *, float *, int) = cpu_vecadd;

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 22;
  if (n <= 0) return fprintf(stderr, "usage: vecadd [N]\n"), 2;

  /* 1. Every kcrt call below is checked: a failing one prints its status and message and
   *    ends the program. Then open the best device present (a CUDA GPU, else an OpenCL GPU,
   *    else an OpenCL CPU), or the one $KCC_DEVICE names. */
  kcrt_set_error_handler(kcrt_error_exit, NULL);
  kcrt_device *dev;
  kcrt_device_open_default(&dev);
  printf("device: %s\n", kcrt_device_describe(dev)); /* name (CUDA or OpenCL, platform) */

  /* 2. Random inputs on the host. */
  unsigned seed = (unsigned)time(NULL);
  srand(seed);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  float *c = malloc(n * sizeof *c), *want = malloc(n * sizeof *want);
  if (!a || !b || !c || !want) return fprintf(stderr, "out of memory\n"), 1;
  for (int i = 0; i < n; i++) a[i] = (float)rand() / RAND_MAX, b[i] = (float)rand() / RAND_MAX;

  /* 3. Device buffers, typed: vecadd_launch takes kcc_buf_float for `float *`. */
  kcc_buf_float da, db, dc;
  kcc_buf_float_from(dev, a, n, &da); /* allocated and filled from a */
  kcc_buf_float_from(dev, b, n, &db);
  kcc_buf_float_alloc(dev, n, &dc);

  /* 4. Launch enough blocks of 256 threads to cover n (default queue, no dynamic shared
   *    memory). The first launch loads the module, which builds it for this device (the
   *    runtime caches the result on disk, so later runs skip the build). */
  kcrt_config cfg = kcrt_config_1d(dev, n, BLOCK);
  double t0 = kcrt_now_ms();
  vecadd_launch(cfg, da, db, dc, n);
  kcrt_device_synchronize(dev);
  double first_ms = kcrt_now_ms() - t0;

  /* 5. Time REPS more launches with events on the default queue: the kernel alone. */
  kcrt_event *start = kcrt_event_mark(dev, NULL);
  for (int r = 0; r < REPS; r++) vecadd_launch(cfg, da, db, dc, n);
  kcrt_event *stop = kcrt_event_mark(dev, NULL);
  double gpu_ms = kcrt_event_ms(start, stop) / REPS;

  /* 6. Read the result back and compare it with the CPU loop, timed the same way. */
  kcc_buf_float_read(dc, 0, c, n);
  t0 = kcrt_now_ms();
  for (int r = 0; r < REPS; r++) cpu_add(a, b, want, n);
  double cpu_ms = (kcrt_now_ms() - t0) / REPS;
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

  /* 7. Closing the device frees what is still on it: buffers, events, the module. */
  kcrt_device_close(dev);
  free(a), free(b), free(c), free(want);
  return wrong != 0;
}
