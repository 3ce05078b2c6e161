/* multidevice — one vector add split across every device present: each device gets a slice
 * proportional to its compute units, all slices run at once, and the result is checked
 * against a CPU loop. An NVIDIA GPU is listed twice (CUDA and OpenCL): only its CUDA entry is
 * used. With a single device this is an ordinary vector add.
 *
 *   usage: multidevice [N]   (default 8000000) */
#include "vecadd.h" /* kcc vecadd.k -o vecadd.h */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
  int first, count; /* the slice [first, first + count) */
  kcc_buf_float a, b, c;
} Part;

/* An OpenCL device that is also a CUDA device of the list (same name) adds nothing. */
static int is_duplicate(const kcrt_device_info *info, const Part *parts, int nparts) {
  for (int i = 0; i < nparts; i++)
    if (parts[i].info.backend == KCRT_BACKEND_CUDA && info->backend == KCRT_BACKEND_OPENCL &&
        strstr(info->name, parts[i].info.name))
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8000000;
  if (n <= 0) {
    fprintf(stderr, "usage: multidevice [N]\n");
    return 2;
  }
  int count;
  CHECK(kcrt_device_count(&count));
  Part parts[MAX_DEVICES];
  int nparts = 0;
  unsigned total_units = 0;
  for (int i = 0; i < count && nparts < MAX_DEVICES; i++) {
    kcrt_device_info info;
    CHECK(kcrt_device_info_get(i, &info));
    if (is_duplicate(&info, parts, nparts)) continue; /* CUDA devices are listed first */
    parts[nparts].info = info;
    CHECK(kcrt_device_open(i, &parts[nparts].dev));
    total_units += info.compute_units ? info.compute_units : 1;
    nparts++;
  }
  if (nparts == 0) {
    printf("no device: %s\n", kcrt_backend_status(KCRT_BACKEND_OPENCL));
    return 1;
  }

  unsigned seed = (unsigned)time(NULL);
  srand(seed);
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  if (!a || !b || !c) return 1;
  for (int i = 0; i < n; i++) a[i] = (float)rand() / RAND_MAX, b[i] = (float)rand() / RAND_MAX;

  /* Slices by compute units; the last one takes what rounding left. Launches are
   * asynchronous, so every device is busy before the first result is read. */
  int first = 0;
  for (int p = 0; p < nparts; p++) {
    Part *q = &parts[p];
    unsigned units = q->info.compute_units ? q->info.compute_units : 1;
    q->first = first;
    q->count = p == nparts - 1 ? n - first : (int)((double)n * units / total_units);
    first += q->count;
    printf("device %d: %s: elements [%d, %d)\n", p, q->info.name, q->first, q->first + q->count);
    if (q->count == 0) continue;
    CHECK(kcc_buf_float_alloc(q->dev, q->count, &q->a));
    CHECK(kcc_buf_float_alloc(q->dev, q->count, &q->b));
    CHECK(kcc_buf_float_alloc(q->dev, q->count, &q->c));
    CHECK(kcc_buf_float_write(q->a, 0, a + q->first, q->count));
    CHECK(kcc_buf_float_write(q->b, 0, b + q->first, q->count));
    CHECK(vecadd_k_launch_vecadd(q->dev, kcc_dim1(kcc_div_up(q->count, BLOCK)), kcc_dim1(BLOCK), 0,
                                 NULL, q->a, q->b, q->c, q->count));
  }
  for (int p = 0; p < nparts; p++)
    if (parts[p].count)
      CHECK(kcc_buf_float_read(parts[p].c, 0, c + parts[p].first, parts[p].count));

  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += c[i] != a[i] + b[i];
  printf("%d elements on %d device%s: %s\n", n, nparts, nparts == 1 ? "" : "s",
         wrong ? "FAILED" : "OK, equal to the CPU loop");
  if (wrong) printf("%d wrong (seed %u)\n", wrong, seed);
  for (int p = 0; p < nparts; p++) CHECK(kcrt_device_close(parts[p].dev));
  free(a), free(b), free(c);
  return wrong != 0;
}
