/* multidevice — one vector add split across several devices, by their measured speed.
 *
 *   usage: multidevice [N] [--all]   (N elements, default 8000000)
 *
 * The devices: every GPU of the machine (CUDA's, else OpenCL's: kcrt_device_open_gpus), or
 * with --all (or no GPU) every device, CPUs too. Each device first adds a short calibration
 * slice; the slices of the real run are then proportional to the throughput each one showed,
 * so that they finish together. All slices run at once (launches are asynchronous, one
 * default queue per device, one host thread). Printed: each device's slice and kernel time,
 * the whole run's kernel time (the slowest slice, host transfers excluded), the same vector
 * add on the fastest device alone, and the speed-up over it. The result is checked against
 * a CPU loop, every element. The kernel is vecadd.kcb beside the executable (kcc vecadd.k). */
#define _POSIX_C_SOURCE 200809L /* readlink */
#include "kcrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    kcrt_status st_ = (call);                                                                      \
    if (st_ != KCRT_SUCCESS) {                                                                     \
      fprintf(stderr, "%s failed: %s: %s\n", #call, kcrt_status_name(st_), kcrt_last_error());     \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

enum { MAX_DEVICES = 16, BLOCK = 256 };

typedef struct Part {
  kcrt_device *dev;
  kcrt_device_info info;
  kcrt_kernel *k;
  size_t first, count; /* the slice [first, first + count) */
  kcrt_buffer *a, *b, *c;
  kcrt_event *e0, *e1;
  double rate; /* elements per ms, from the calibration */
  double ms;   /* kernel time of its slice */
} Part;

static kcrt_kernel *load(kcrt_device *dev) {
  char path[4096];
  ssize_t n = readlink("/proc/self/exe", path, sizeof path - 16);
  path[n > 0 ? n : 0] = 0;
  char *slash = strrchr(path, '/');
  strcpy(slash ? slash + 1 : path, "vecadd.kcb");
  kcrt_module *m;
  kcrt_kernel *k;
  CHECK(kcrt_module_load_file(dev, path, &m));
  CHECK(kcrt_kernel_get(m, "vecadd", &k));
  return k;
}

/* Puts `count` elements from `first` on the part's device and launches them, timed by its
 * events; returns at once (the launch is asynchronous). */
static void start(Part *q, const float *a, const float *b, size_t first, size_t count) {
  q->first = first, q->count = count;
  if (!count) return;
  size_t bytes = count * sizeof(float);
  CHECK(kcrt_buffer_alloc(q->dev, bytes, &q->a));
  CHECK(kcrt_buffer_alloc(q->dev, bytes, &q->b));
  CHECK(kcrt_buffer_write(q->a, 0, a + first, bytes));
  CHECK(kcrt_buffer_write(q->b, 0, b + first, bytes));
  CHECK(kcrt_buffer_alloc(q->dev, bytes, &q->c));
  int n = (int)count;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(q->a), KCRT_ARG_BUFFER(q->b), KCRT_ARG_BUFFER(q->c),
                     KCRT_ARG_VALUE(n)};
  kcrt_dim3 grid = {(unsigned)((count + BLOCK - 1) / BLOCK), 1, 1}, block = {BLOCK, 1, 1};
  CHECK(kcrt_event_record(q->e0, NULL));
  CHECK(kcrt_launch(q->k, NULL, grid, block, 0, args, 4));
  CHECK(kcrt_event_record(q->e1, NULL));
}

/* Waits for the part's slice, reads its result into c (when c is not NULL), frees it. */
static void finish(Part *q, float *c) {
  q->ms = 0;
  if (!q->count) return;
  CHECK(kcrt_event_elapsed_ms(q->e0, q->e1, &q->ms));
  if (c) CHECK(kcrt_buffer_read(q->c, 0, c + q->first, q->count * sizeof(float)));
  kcrt_buffer_free(q->a), kcrt_buffer_free(q->b), kcrt_buffer_free(q->c);
}

int main(int argc, char **argv) {
  size_t n = 8000000;
  int all = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--all"))
      all = 1;
    else if ((n = strtoull(argv[i], NULL, 10)) == 0 || n > 0x7fffffffu) {
      fprintf(stderr, "usage: multidevice [N] [--all]   (0 < N < 2^31)\n");
      return 2;
    }
  }
  kcrt_device *devs[MAX_DEVICES];
  int ndev = 0;
  if (!all) CHECK(kcrt_device_open_gpus(devs, MAX_DEVICES, &ndev));
  if (!ndev) CHECK(kcrt_device_open_all(devs, MAX_DEVICES, &ndev));
  if (!ndev) {
    printf("no device: %s\n", kcrt_backend_status(KCRT_BACKEND_OPENCL));
    return 1;
  }
  Part parts[MAX_DEVICES];
  memset(parts, 0, sizeof parts);
  for (int p = 0; p < ndev; p++) {
    parts[p].dev = devs[p];
    CHECK(kcrt_device_get_info(devs[p], &parts[p].info));
    parts[p].k = load(devs[p]);
    CHECK(kcrt_event_create(devs[p], &parts[p].e0));
    CHECK(kcrt_event_create(devs[p], &parts[p].e1));
  }

  unsigned seed = (unsigned)time(NULL);
  srand(seed);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  if (!a || !b || !c) return 1;
  for (size_t i = 0; i < n; i++) a[i] = (float)rand() / RAND_MAX, b[i] = (float)rand() / RAND_MAX;

  /* Calibration: the same slice (n/16, at most 2^24 elements) on every device, each run twice
   * (the first run loads the module), the second timed. */
  size_t cal = n / 16 > (1u << 24) ? 1u << 24 : n / 16 > 0 ? n / 16 : n;
  double total_rate = 0;
  for (int rep = 0; rep < 2; rep++) {
    for (int p = 0; p < ndev; p++) start(&parts[p], a, b, 0, cal);
    for (int p = 0; p < ndev; p++) finish(&parts[p], NULL);
  }
  int fastest = 0;
  for (int p = 0; p < ndev; p++) {
    parts[p].rate = cal / (parts[p].ms > 1e-6 ? parts[p].ms : 1e-6);
    total_rate += parts[p].rate;
    if (parts[p].rate > parts[fastest].rate) fastest = p;
  }

  /* The run: slices by rate, the last one takes what rounding left; all launched before any
   * is waited for. */
  size_t first = 0;
  for (int p = 0; p < ndev; p++) {
    size_t count = p == ndev - 1 ? n - first : (size_t)((double)n * parts[p].rate / total_rate);
    if (first + count > n) count = n - first;
    start(&parts[p], a, b, first, count);
    first += count;
  }
  double slowest = 0;
  for (int p = 0; p < ndev; p++) {
    finish(&parts[p], c);
    if (parts[p].ms > slowest) slowest = parts[p].ms;
  }
  size_t wrong = 0;
  for (size_t i = 0; i < n; i++) wrong += c[i] != a[i] + b[i];
  for (int p = 0; p < ndev; p++)
    printf("device %d: %s: elements [%zu, %zu), %.3f ms\n", p, parts[p].info.name, parts[p].first,
           parts[p].first + parts[p].count, parts[p].ms);

  /* The fastest device alone, for the speed-up. */
  double alone = slowest;
  if (ndev > 1) {
    start(&parts[fastest], a, b, 0, n);
    finish(&parts[fastest], NULL);
    alone = parts[fastest].ms;
  }
  printf("%zu elements on %d device%s: %s\n", n, ndev, ndev == 1 ? "" : "s",
         wrong ? "FAILED" : "OK, equal to the CPU loop");
  printf("kernel time: %.3f ms on %d device%s, %.3f ms on device %d alone: speed-up %.2fx\n",
         slowest, ndev, ndev == 1 ? "" : "s", alone, fastest, slowest > 0 ? alone / slowest : 1.0);
  if (wrong) printf("%zu wrong (seed %u)\n", wrong, seed);
  for (int p = 0; p < ndev; p++) CHECK(kcrt_device_close(parts[p].dev));
  free(a), free(b), free(c);
  return wrong != 0;
}
