/* rt_common.c — see rt_common.h. */
#define _GNU_SOURCE
#include "rt_common.h"

#include <fenv.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_REPORTED = 8 };

static void seed_hint(const Rt *rt) {
  fprintf(stderr, "%s: seed %" PRIu64 " (rerun with KCRT_TEST_SEED=%" PRIu64 ")\n", rt->name,
          rt->seed, rt->seed);
}

void rt_check_status(Rt *rt, kcrt_status st, const char *what, const char *file, int line) {
  if (st == KCRT_SUCCESS) return;
  fprintf(stderr, "%s:%d: %s: %s: %s\n", file, line, what, kcrt_status_name(st), kcrt_last_error());
  seed_hint(rt);
  printf("FAIL %s on %s\n", rt->name, rt->info.name[0] ? rt->info.name : "(no device)");
  exit(1);
}

void rt_expect_status(Rt *rt, kcrt_status want, kcrt_status got, const char *what, const char *file,
                      int line) {
  if (want == got) return;
  fprintf(stderr, "%s:%d: %s returned %s, expected %s (%s)\n", file, line, what,
          kcrt_status_name(got), kcrt_status_name(want), kcrt_last_error());
  rt->failures++;
}

void rt_init(Rt *rt, int argc, char **argv, const char *name) {
  rt_open(rt, argc, argv, name);
  RT_CHECK(rt, kcrt_module_load_file(rt->dev, argv[1], &rt->mod));
}

void rt_open(Rt *rt, int argc, char **argv, const char *name) {
  memset(rt, 0, sizeof *rt);
  rt->name = name;
  const char *s = getenv("KCRT_TEST_SEED");
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  rt->seed = s && *s ? strtoull(s, NULL, 0)
                     : ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^
                           ((uint64_t)getpid() << 32);
  rt->state = rt->seed;
  if (argc < 2) {
    fprintf(stderr, "usage: %s BUNDLE.kcb\n", argv[0]);
    exit(2);
  }
  kcrt_status st = kcrt_device_open_default(&rt->dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    printf("SKIP %s: no device (%s)\n", name, kcrt_last_error());
    exit(77);
  }
  RT_CHECK(rt, st);
  RT_CHECK(rt, kcrt_device_get_info(rt->dev, &rt->info));
}

int rt_finish(Rt *rt, const char *fmt, ...) {
  char detail[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  const char *be = rt->info.backend == KCRT_BACKEND_CUDA     ? "cuda"
                   : rt->info.backend == KCRT_BACKEND_OPENCL ? "opencl"
                                                             : "vulkan";
  if (rt->failures) {
    seed_hint(rt);
    printf("FAIL %s: %d check(s) failed; %s on %s (%s)\n", rt->name, rt->failures, detail,
           rt->info.name, be);
  } else {
    char fl[96] = "";
    if (rt->flushed)
      snprintf(fl, sizeof fl, " (%ld cases with denormals left out: the device may flush them)",
               rt->flushed);
    printf("PASS %s: %s on %s (%s)%s, kernel time %.3f ms, seed %" PRIu64 "\n", rt->name, detail,
           rt->info.name, be, fl, rt->kernel_ms, rt->seed);
  }
  kcrt_status st = kcrt_device_close(rt->dev);
  if (st) {
    fprintf(stderr, "%s: kcrt_device_close: %s: %s\n", rt->name, kcrt_status_name(st),
            kcrt_last_error());
    return 1;
  }
  return rt->failures ? 1 : 0;
}

kcrt_kernel *rt_kernel(Rt *rt, const char *name) {
  kcrt_kernel *k = NULL;
  RT_CHECK(rt, kcrt_kernel_get(rt->mod, name, &k));
  return k;
}

kcrt_buffer *rt_alloc(Rt *rt, size_t size) {
  kcrt_buffer *b = NULL;
  RT_CHECK(rt, kcrt_buffer_alloc(rt->dev, size, &b));
  RT_CHECK(rt, kcrt_buffer_fill(b, 0, 0xA5, size));
  return b;
}

kcrt_buffer *rt_upload(Rt *rt, const void *data, size_t size) {
  kcrt_buffer *b = NULL;
  RT_CHECK(rt, kcrt_buffer_alloc(rt->dev, size, &b));
  RT_CHECK(rt, kcrt_buffer_write(b, 0, data, size));
  return b;
}

void rt_download(Rt *rt, kcrt_buffer *b, void *dst, size_t size) {
  RT_CHECK(rt, kcrt_buffer_read(b, 0, dst, size));
}

void rt_launch(Rt *rt, kcrt_kernel *k, kcrt_dim3 grid, kcrt_dim3 block, size_t dyn,
               const kcrt_arg *args, int nargs) {
  kcrt_event *e0, *e1;
  RT_CHECK(rt, kcrt_event_create(rt->dev, &e0));
  RT_CHECK(rt, kcrt_event_create(rt->dev, &e1));
  RT_CHECK(rt, kcrt_event_record(e0, NULL));
  RT_CHECK(rt, kcrt_launch(k, NULL, grid, block, dyn, args, nargs));
  RT_CHECK(rt, kcrt_event_record(e1, NULL));
  RT_CHECK(rt, kcrt_device_synchronize(rt->dev));
  double ms = 0;
  if (kcrt_event_elapsed_ms(e0, e1, &ms) == KCRT_SUCCESS) rt->kernel_ms += ms;
  kcrt_event_destroy(e0);
  kcrt_event_destroy(e1);
}

uint64_t rt_u64(Rt *rt) {
  uint64_t z = (rt->state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint32_t rt_u32(Rt *rt) {
  return (uint32_t)(rt_u64(rt) >> 32);
}

int rt_int(Rt *rt, int lo, int hi) {
  /* In 64 bits: the range of [INT_MIN, INT_MAX] does not fit an int. */
  return (int)((int64_t)lo + (int64_t)(rt_u64(rt) % ((uint64_t)((int64_t)hi - lo) + 1)));
}

float rt_float(Rt *rt, float lo, float hi) {
  return lo + (hi - lo) * (float)((rt_u64(rt) >> 40) * 0x1p-24);
}

double rt_double(Rt *rt, double lo, double hi) {
  return lo + (hi - lo) * (double)((rt_u64(rt) >> 11) * 0x1p-53);
}

void rt_fail(Rt *rt, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", rt->name);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  rt->failures++;
}

static bool close_enough(double got, double want, double rtol, double atol) {
  if (isnan(want) || isnan(got)) return isnan(want) && isnan(got);
  if (isinf(want) || isinf(got)) return got == want;
  return fabs(got - want) <= atol + rtol * fabs(want);
}

#define CMP_FLOAT(fn, T)                                                                           \
  bool fn(Rt *rt, const char *what, const T *got, const T *want, size_t n, double rtol,            \
          double atol) {                                                                           \
    size_t bad = 0;                                                                                \
    for (size_t i = 0; i < n; i++) {                                                               \
      if (close_enough(got[i], want[i], rtol, atol)) continue;                                     \
      if (bad++ < MAX_REPORTED)                                                                    \
        fprintf(stderr, "%s: %s[%zu] = %.9g, expected %.9g (diff %.3g)\n", rt->name, what, i,      \
                (double)got[i], (double)want[i], fabs((double)got[i] - (double)want[i]));          \
    }                                                                                              \
    if (bad)                                                                                       \
      rt_fail(rt, "%s: %zu of %zu elements differ (rtol %g, atol %g)", what, bad, n, rtol, atol);  \
    return bad == 0;                                                                               \
  }
CMP_FLOAT(rt_cmp_f32, float)
CMP_FLOAT(rt_cmp_f64, double)

#define CMP_INT(fn, T, FMT)                                                                        \
  bool fn(Rt *rt, const char *what, const T *got, const T *want, size_t n) {                       \
    size_t bad = 0;                                                                                \
    for (size_t i = 0; i < n; i++) {                                                               \
      if (got[i] == want[i]) continue;                                                             \
      if (bad++ < MAX_REPORTED)                                                                    \
        fprintf(stderr, "%s: %s[%zu] = %" FMT ", expected %" FMT "\n", rt->name, what, i, got[i],  \
                want[i]);                                                                          \
    }                                                                                              \
    if (bad) rt_fail(rt, "%s: %zu of %zu elements differ", what, bad, n);                          \
    return bad == 0;                                                                               \
  }
CMP_INT(rt_cmp_i32, int32_t, PRId32)
CMP_INT(rt_cmp_u32, uint32_t, PRIu32)
CMP_INT(rt_cmp_i64, int64_t, PRId64)
CMP_INT(rt_cmp_u64, uint64_t, PRIu64)

/* ---------------------------------------------------------------- allocations kept for a run */

static void **allocs;
static size_t nallocs, capallocs;

void *rt_xalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (p && nallocs == capallocs) {
    capallocs = capallocs ? 2 * capallocs : 256;
    void **grown = realloc(allocs, capallocs * sizeof *allocs);
    if (!grown) {
      free(p);
      p = NULL;
    } else {
      allocs = grown;
    }
  }
  if (!p) {
    fprintf(stderr, "out of memory (%zu bytes)\n", n);
    exit(1);
  }
  allocs[nallocs++] = p;
  return p;
}

void rt_xfree_all(void) {
  for (size_t i = 0; i < nallocs; i++) free(allocs[i]);
  free(allocs);
  allocs = NULL;
  nallocs = capallocs = 0;
}

void rt_launch_printed(Rt *rt, kcrt_kernel *k, kcrt_dim3 grid, kcrt_dim3 block, size_t dyn,
                       const kcrt_arg *args, int nargs, char *out, size_t cap) {
  char path[] = "/tmp/kcrt-printed-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    perror("mkstemp");
    exit(1);
  }
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  rt_launch(rt, k, grid, block, dyn, args, nargs);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  ssize_t len = pread(fd, out, cap - 1, 0);
  close(fd);
  unlink(path);
  out[len > 0 ? len : 0] = 0;
}

static int cmp_line(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Splits text into lines (in place) and sorts them; returns the count (at most max). */
static int sorted_lines(char *text, char **lines, int max) {
  int n = 0;
  char *save = NULL;
  for (char *s = strtok_r(text, "\n", &save); s && n < max; s = strtok_r(NULL, "\n", &save))
    lines[n++] = s;
  qsort(lines, n, sizeof *lines, cmp_line);
  return n;
}

int rt_cmp_lines(Rt *rt, char *got, char *want) {
  char *gl[256], *wl[256];
  int ng = sorted_lines(got, gl, 256), nw = sorted_lines(want, wl, 256);
  if (ng != nw) rt_fail(rt, "%d lines printed, expected %d", ng, nw);
  for (int i = 0; i < ng && i < nw; i++)
    if (strcmp(gl[i], wl[i]))
      rt_fail(rt, "line differs:\n  got:      '%s'\n  expected: '%s'", gl[i], wl[i]);
  return nw;
}

static uint16_t f16_bits(volatile _Float16 *h) {
  uint16_t r;
  memcpy(&r, (const void *)h, 2);
  return r;
}

uint16_t rt_f16_of_float(float x, int mode) {
  fesetround(mode);
  volatile float in = x;
  volatile _Float16 h = (_Float16)in; /* volatile: converted between the two fesetround */
  fesetround(FE_TONEAREST);
  return f16_bits(&h);
}

uint16_t rt_f16_of_double(double x) {
  volatile double in = x;
  volatile _Float16 h = (_Float16)in;
  return f16_bits(&h);
}

uint16_t rt_f16_of_long_double(long double x) {
  volatile long double in = x;
  volatile _Float16 h = (_Float16)in;
  return f16_bits(&h);
}

float rt_f16_value(uint16_t h) {
  _Float16 x;
  memcpy(&x, &h, 2);
  return (float)x;
}

uint16_t rt_f16_rand(Rt *rt) {
  if (rt_u32(rt) & 1) return (uint16_t)rt_u32(rt);
  return rt_f16_of_float(rt_float(rt, -8.0f, 8.0f), FE_TONEAREST);
}

/* Halves in an order where neighbours differ by one. */
static int32_t f16_ordered(uint16_t h) {
  return h & 0x8000 ? -(int32_t)(h & 0x7fff) : (int32_t)h;
}

bool rt_cmp_f16(Rt *rt, const char *what, const uint16_t *got, const uint16_t *want, size_t n,
                size_t stride, int tol) {
  uint32_t *g = rt_xalloc(n * 4), *w = rt_xalloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    uint16_t a = got[i * stride], b = want[i * stride];
    bool nan = rt_f16_is_nan(a) || rt_f16_is_nan(b);
    if (rt_f16_is_nan(a) && rt_f16_is_nan(b)) a = b;
    if (tol == 1 && !nan && abs(f16_ordered(a) - f16_ordered(b)) <= 1) a = b;
    if (tol == 2 && !((a | b) & 0x7fff)) a = b;
    g[i] = a, w[i] = b;
  }
  return rt_cmp_u32(rt, what, g, w, n);
}
