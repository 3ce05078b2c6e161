/* launch_cost.c — the host cost of one kernel launch through libkcrt from C: the floor under
 * the Python package's launches (bench/python_launch.py runs this beside its own loop).
 *
 *   launch_cost [-n LAUNCHES] [-r ROUNDS]
 *
 * Compiles the vector add with libkcc, opens the default device ($KCC_DEVICE), allocates three
 * buffers of 1024 floats, then per round times LAUNCHES back-to-back kcrt_launch calls with 4
 * arguments (3 buffers and an int; 4 blocks of 256 threads) and one synchronisation at the end.
 * Prints the median over rounds of (loop time / LAUNCHES) in µs: host time per launch while
 * the queue absorbs them (on a GPU the kernels overlap the loop), and the same with a
 * synchronisation after every launch (launch + kernel + wait). */
#include <kcrt.h>
#include <libkcc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    kcrt_status s_ = (x);                                                                          \
    if (s_) {                                                                                      \
      fprintf(stderr, "%s: %s\n", #x, kcrt_last_error());                                          \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int n = 2000, rounds = 7;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "-r")) rounds = atoi(argv[i + 1]);
  }
  if (n < 1 || rounds < 1 || rounds > 100) return 2;
  const char *src = "kernel void vecadd(const float *a, const float *b, float *c, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) c[i] = a[i] + b[i];\n"
                    "}\n";
  kcc_result *r;
  if (kcc_compile(src, strlen(src), "vecadd.k", NULL, 0, &r) != KCC_SUCCESS) {
    fprintf(stderr, "%s", r ? kcc_result_log(r) : "compile failed\n");
    return 1;
  }
  size_t size;
  const void *kcb = kcc_result_output(r, &size);
  kcrt_device *dev;
  kcrt_module *mod;
  kcrt_kernel *k;
  CHECK(kcrt_device_open_default(&dev));
  CHECK(kcrt_module_load(dev, kcb, size, &mod));
  kcc_result_free(r);
  CHECK(kcrt_kernel_get(mod, "vecadd", &k));
  int elems = 1024;
  kcrt_buffer *a, *b, *c;
  CHECK(kcrt_buffer_alloc(dev, elems * 4, &a));
  CHECK(kcrt_buffer_alloc(dev, elems * 4, &b));
  CHECK(kcrt_buffer_alloc(dev, elems * 4, &c));
  kcrt_arg args[4] = {KCRT_ARG_BUFFER(a), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(c),
                      KCRT_ARG_VALUE(elems)};
  kcrt_device_info info;
  CHECK(kcrt_device_get_info(dev, &info));
  double async[100], sync[100];
  for (int w = 0; w < 50; w++)
    CHECK(kcrt_launch(k, NULL, KCRT_DIM1(4), KCRT_DIM1(256), 0, args, 4));
  CHECK(kcrt_device_synchronize(dev));
  for (int rd = 0; rd < rounds; rd++) {
    double t0 = now_us();
    for (int i = 0; i < n; i++)
      CHECK(kcrt_launch(k, NULL, KCRT_DIM1(4), KCRT_DIM1(256), 0, args, 4));
    double t1 = now_us();
    CHECK(kcrt_device_synchronize(dev));
    async[rd] = (t1 - t0) / n;
    int ns = n / 10 > 0 ? n / 10 : 1;
    t0 = now_us();
    for (int i = 0; i < ns; i++) {
      CHECK(kcrt_launch(k, NULL, KCRT_DIM1(4), KCRT_DIM1(256), 0, args, 4));
      CHECK(kcrt_device_synchronize(dev));
    }
    sync[rd] = (now_us() - t0) / ns;
  }
  qsort(async, rounds, sizeof *async, cmp);
  qsort(sync, rounds, sizeof *sync, cmp);
  printf("device: %s\n", info.name);
  printf("C kcrt_launch, 4 args, queued:      %.2f us/launch (median of %d rounds of %d)\n",
         async[rounds / 2], rounds, n);
  printf("C kcrt_launch + synchronize:        %.2f us/launch\n", sync[rounds / 2]);
  kcrt_device_close(dev);
  return 0;
}
