/* two_headers.c — the generated C header, end to end. Includes the headers of ops_a.k
 * (default prefix ops_a_k) and ops_b.k (--prefix=opsb) together, launches every kernel through
 * its typed launch function on the default device (PoCL here) with random inputs, and compares
 * every element with a host reference. Also: the struct type both files define, used across
 * the two headers; first launches from several threads at once (one module per device);
 * closing a device and opening one again (which may reuse its address) without any _release;
 * errors coming back through a launch function, element types checked at launch where a
 * kcc_buf_T_of view hides them from the compiler; and a second translation unit including
 * ops_a.h again (module_get_tu.c).
 *
 * Built as C11, C99 and C++ (tests/header.cmake), with -Wall -Wextra -Werror -pedantic.
 * Exit: 0 pass, 1 fail, 77 no device. KCC_TEST_SEED=N repeats a run. */
/* Both files have a kernel `scale`: their short names (scale_launch) would clash, and
 * KCC_NO_SHORT_NAMES leaves them out (the prefixed names stay). */
#define KCC_NO_SHORT_NAMES
#include "ops_a.h"
#include "ops_b.h"
#include "ops_a.h" /* a second inclusion changes nothing (include guard) */

#include "module_get_tu.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;
static unsigned long long seed, state;

#define CHECK(call) check_status((call), #call, __LINE__)
static void check_status(kcrt_status st, const char *what, int line) {
  if (st == KCRT_SUCCESS) return;
  fprintf(stderr, "two_headers.c:%d: %s: %s: %s (seed %llu)\n", line, what, kcrt_status_name(st),
          kcrt_last_error(), seed);
  exit(1);
}

static void fail(const char *what, long i, double got, double want) {
  if (failures++ < 10)
    fprintf(stderr, "FAIL %s: element %ld: got %.9g, want %.9g (seed %llu)\n", what, i, got, want,
            seed);
}

static unsigned rnd(void) { /* xorshift64* */
  state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
  return (unsigned)((state * 2685821657736338717ULL) >> 32);
}
static float rndf(float lo, float hi) {
  return lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f;
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

/* ---------------------------------------------------------------- ops_a.h */

static void test_scale_a(kcrt_device *dev, int n) {
  float *in = (float *)xmalloc(n * sizeof *in), *out = (float *)xmalloc(n * sizeof *out);
  struct Params p;
  for (int i = 0; i < n; i++) in[i] = rndf(-100, 100);
  p.scale = rndf(-3, 3);
  p.offset = (int)(rnd() % 1000) - 500;
  p.bias = rndf(-1, 1) * 1e-3;
  kcc_buf_float din, dout;
  CHECK(kcc_buf_float_alloc(dev, n, &din));
  CHECK(kcc_buf_float_alloc(dev, n, &dout));
  CHECK(kcc_buf_float_write(din, 0, in, n));
  CHECK(ops_a_k_launch_scale(dev, kcc_dim1(kcc_div_up(n, 128)), kcc_dim1(128), 0, NULL, dout, din,
                             p, n));
  CHECK(kcc_buf_float_read(dout, 0, out, n));
  for (int i = 0; i < n; i++) {
    /* in * scale may be fused with the next addition on the device (-ffp-contract=fast):
       the product's rounding, half an ulp of |in * scale|, is then not made, and where
       `+ offset` cancels most of it that is far more than an ulp of the result (seed
       4766893383330785876: 1.3e-5 on 0.069). Bound: an ulp of each float operand of the sum. */
    double want = (float)(in[i] * p.scale + p.offset + p.bias);
    double tol =
        1e-5 * (1 + fabs(want)) + (fabs(in[i] * p.scale) + fabs((double)p.offset)) / 8388608;
    if (fabs(out[i] - want) > tol) fail("ops_a scale", i, out[i], want);
  }
  CHECK(kcc_buf_float_free(din));
  CHECK(kcc_buf_float_free(dout));
  free(in), free(out);
}

static void test_named(kcrt_device *dev, int n) {
  float *in = (float *)xmalloc(n * sizeof *in), *out = (float *)xmalloc(n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = (float)((int)(rnd() % 2001) - 1000);
  int k[5];
  for (int j = 0; j < 5; j++) k[j] = (int)(rnd() % 201) - 100;
  kcc_buf_float din, dout;
  CHECK(kcc_buf_float_alloc(dev, n, &din));
  CHECK(kcc_buf_float_alloc(dev, n, &dout));
  CHECK(kcc_buf_float_write(din, 0, in, n));
  CHECK(ops_a_k_launch_named(dev, kcc_dim1(kcc_div_up(n, 64)), kcc_dim1(64), 0, NULL, dout, din,
                             k[0], k[1], k[2], k[3], k[4], n));
  CHECK(kcc_buf_float_read(dout, 0, out, n));
  for (int i = 0; i < n; i++) { /* small integers: exact in float */
    float want = in[i] * k[0] + k[1] + k[2] + k[3] + k[4];
    if (out[i] != want) fail("ops_a named", i, out[i], want);
  }
  CHECK(kcc_buf_float_free(din));
  CHECK(kcc_buf_float_free(dout));
  free(in), free(out);
}

/* The buffer of struct Pair is returned so that ops_b.h's pair_sums can use it. */
static kcc_buf_struct_Pair test_pairs(kcrt_device *dev, int n, struct Pair *result) {
  struct Pair *ps = (struct Pair *)xmalloc(n * sizeof *ps);
  double *w = (double *)xmalloc(n * sizeof *w);
  for (int i = 0; i < n; i++) {
    ps[i].x = rndf(-10, 10);
    ps[i].y = rndf(-10, 10);
    w[i] = rndf(-2, 2);
  }
  kcc_buf_struct_Pair dps;
  kcc_buf_double dw;
  CHECK(kcc_buf_struct_Pair_alloc(dev, n, &dps));
  CHECK(kcc_buf_double_alloc(dev, n, &dw));
  if (kcc_buf_struct_Pair_count(dps) != (size_t)n) fail("kcc_buf_struct_Pair_count", 0, 0, n);
  CHECK(kcc_buf_struct_Pair_write(dps, 0, ps, n));
  CHECK(kcc_buf_double_write(dw, 0, w, n));
  CHECK(ops_a_k_launch_pairs(dev, kcc_dim1(kcc_div_up(n, 64)), kcc_dim1(64), 0, NULL, dps, dw, n));
  CHECK(kcc_buf_struct_Pair_read(dps, 0, result, n));
  for (int i = 0; i < n; i++) {
    float wx = (float)(ps[i].x * w[i]), wy = (float)(ps[i].y + w[i]);
    if (result[i].x != wx) fail("ops_a pairs .x", i, result[i].x, wx);
    if (result[i].y != wy) fail("ops_a pairs .y", i, result[i].y, wy);
  }
  CHECK(kcc_buf_double_free(dw));
  free(ps), free(w);
  return dps;
}

static void test_small(kcrt_device *dev, int n) {
  kcc_bool *in = (kcc_bool *)xmalloc(n * sizeof *in);
  short *out = (short *)xmalloc(n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = rnd() & 1;
  short k = (short)(rnd() % 2000);
  signed char c = (signed char)(rnd() % 200 - 100);
  unsigned char u = (unsigned char)rnd();
  unsigned short us = (unsigned short)(rnd() % 20000);
  kcc_buf_bool din;
  kcc_buf_int16 dout;
  CHECK(kcc_buf_bool_alloc(dev, n, &din));
  CHECK(kcc_buf_int16_alloc(dev, n, &dout));
  CHECK(kcc_buf_bool_write(din, 0, in, n));
  CHECK(ops_a_k_launch_small(dev, kcc_dim1(kcc_div_up(n, 32)), kcc_dim1(32), 0, NULL, din, dout, k,
                             c, u, us, n));
  CHECK(kcc_buf_int16_read(dout, 0, out, n));
  for (int i = 0; i < n; i++) {
    short want = in[i] ? (short)(k + c + u + us) : (short)-k;
    if (out[i] != want) fail("ops_a small", i, out[i], want);
  }
  CHECK(kcc_buf_bool_free(din));
  CHECK(kcc_buf_int16_free(dout));
  free(in), free(out);
}

static void test_reverse(kcrt_device *dev, int blocks) {
  enum { BS = 64 };
  int n = blocks * BS;
  float *d = (float *)xmalloc(n * sizeof *d), *got = (float *)xmalloc(n * sizeof *got);
  for (int i = 0; i < n; i++) d[i] = rndf(0, 1);
  kcc_buf_float dd;
  CHECK(kcc_buf_float_alloc(dev, n, &dd));
  CHECK(kcc_buf_float_write(dd, 0, d, n));
  CHECK(
      ops_a_k_launch_reverse(dev, kcc_dim1(blocks), kcc_dim1(BS), BS * sizeof(float), NULL, dd, n));
  CHECK(kcc_buf_float_read(dd, 0, got, n));
  for (int i = 0; i < n; i++) {
    int b = i / BS, t = i % BS;
    float want = d[b * BS + BS - 1 - t];
    if (got[i] != want) fail("ops_a reverse", i, got[i], want);
  }
  CHECK(kcc_buf_float_free(dd));
  free(d), free(got);
}

/* ---------------------------------------------------------------- ops_b.h */

static void test_scale_b(kcrt_device *dev, kcrt_queue *q, int n) {
  int32_t *data = (int32_t *)xmalloc(n * sizeof *data), *got = (int32_t *)xmalloc(n * sizeof *got);
  for (int i = 0; i < n; i++) data[i] = (int32_t)(rnd() % 20001) - 10000;
  int32_t factor = (int32_t)(rnd() % 11) - 5;
  kcc_buf_int32 dd;
  CHECK(kcc_buf_int32_alloc(dev, n, &dd));
  CHECK(kcc_buf_int32_write(dd, 0, data, n));
  /* On a queue of its own: the launch functions take one. */
  CHECK(opsb_launch_scale(dev, kcc_dim1(kcc_div_up(n, 128)), kcc_dim1(128), 0, q, dd, factor, n));
  CHECK(kcrt_queue_synchronize(q));
  CHECK(kcc_buf_int32_read(dd, 0, got, n));
  for (int i = 0; i < n; i++)
    if (got[i] != data[i] * factor) fail("opsb scale", i, got[i], data[i] * factor);
  CHECK(kcc_buf_int32_free(dd));
  free(data), free(got);
}

static void test_hist(kcrt_device *dev, int n) {
  enum { NBINS = 37 };
  uint32_t *in = (uint32_t *)xmalloc(n * sizeof *in), bins[NBINS], want[NBINS] = {0};
  for (int i = 0; i < n; i++) in[i] = rnd(), want[in[i] % NBINS]++;
  kcc_buf_uint32 din, dbins;
  CHECK(kcc_buf_uint32_alloc(dev, n, &din));
  CHECK(kcc_buf_uint32_alloc(dev, NBINS, &dbins));
  CHECK(kcc_buf_uint32_write(din, 0, in, n));
  CHECK(kcrt_buffer_fill(dbins.raw, 0, 0, NBINS * sizeof(uint32_t)));
  CHECK(opsb_launch_hist(dev, kcc_dim1(kcc_div_up(n, 256)), kcc_dim1(256), 0, NULL, din, dbins, n,
                         NBINS));
  CHECK(kcc_buf_uint32_read(dbins, 0, bins, NBINS));
  for (int b = 0; b < NBINS; b++)
    if (bins[b] != want[b]) fail("opsb hist", b, bins[b], want[b]);
  CHECK(kcc_buf_uint32_free(din));
  CHECK(kcc_buf_uint32_free(dbins));
  free(in);
}

static void test_names(kcrt_device *dev, int n) {
  int64_t *in = (int64_t *)xmalloc(n * sizeof *in), *out = (int64_t *)xmalloc(n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = (int64_t)rnd() * 1000 - 2000000000000LL;
  int32_t cls = (int32_t)(rnd() % 100) - 50, nw = (int32_t)rnd() % 1000;
  int64_t grid = (int64_t)rnd() << 20;
  uint64_t block = rnd();
  kcc_buf_int64 din, dout;
  CHECK(kcc_buf_int64_alloc(dev, n, &din));
  CHECK(kcc_buf_int64_alloc(dev, n, &dout));
  CHECK(kcc_buf_int64_write(din, 0, in, n));
  CHECK(opsb_launch_names(dev, kcc_dim1(kcc_div_up(n, 100)), kcc_dim1(100), 0, NULL, din, dout, cls,
                          grid, block, nw, n));
  CHECK(kcc_buf_int64_read(dout, 0, out, n));
  for (int i = 0; i < n; i++) {
    int64_t want = (int64_t)cls * in[i] + grid - (int64_t)block + nw;
    if (out[i] != want) fail("opsb names", i, (double)out[i], (double)want);
  }
  CHECK(kcc_buf_int64_free(din));
  CHECK(kcc_buf_int64_free(dout));
  free(in), free(out);
}

/* Host-filled constants through the typed setters: a struct array and a scalar, set twice
 * (the second values must be the ones the next launch sees). */
static void test_affine(kcrt_device *dev, int n) {
  float *in = (float *)xmalloc(n * sizeof *in), *out = (float *)xmalloc(n * sizeof *out);
  for (int i = 0; i < n; i++) in[i] = rndf(-4, 4);
  kcc_buf_float din, dout;
  CHECK(kcc_buf_float_alloc(dev, n, &din));
  CHECK(kcc_buf_float_alloc(dev, n, &dout));
  CHECK(kcc_buf_float_write(din, 0, in, n));
  for (int round = 0; round < 2; round++) {
    struct Pair w[4];
    for (int j = 0; j < 4; j++) w[j].x = rndf(-2, 2), w[j].y = rndf(-2, 2);
    float bias = rndf(-1, 1);
    CHECK(opsb_set_weights(dev, w));
    CHECK(opsb_set_bias(dev, bias));
    CHECK(
        opsb_launch_affine(dev, kcc_dim1(kcc_div_up(n, 64)), kcc_dim1(64), 0, NULL, din, dout, n));
    CHECK(kcc_buf_float_read(dout, 0, out, n));
    for (int i = 0; i < n; i++) {
      volatile float p = in[i] * w[i % 4].x, s = p + w[i % 4].y; /* no contraction: exact */
      float want = s + bias;
      if (fabsf(out[i] - want) > 1e-6f * (1 + fabsf(want))) fail("opsb affine", i, out[i], want);
    }
  }
  CHECK(kcc_buf_float_free(din));
  CHECK(kcc_buf_float_free(dout));
  free(in), free(out);
}

/* The struct Pair buffer made for ops_a.h's kernel, passed to ops_b.h's: one type. */
static void test_pair_sums(kcrt_device *dev, kcc_buf_struct_Pair dps, const struct Pair *ps,
                           int n) {
  float *sums = (float *)xmalloc(n * sizeof *sums);
  kcc_buf_float dsums;
  CHECK(kcc_buf_float_alloc(dev, n, &dsums));
  CHECK(opsb_launch_pair_sums(dev, kcc_dim1(kcc_div_up(n, 64)), kcc_dim1(64), 0, NULL, dps, dsums,
                              n));
  CHECK(kcc_buf_float_read(dsums, 0, sums, n));
  for (int i = 0; i < n; i++)
    if (sums[i] != ps[i].x + ps[i].y) fail("opsb pair_sums", i, sums[i], ps[i].x + ps[i].y);
  CHECK(kcc_buf_float_free(dsums));
  free(sums);
}

/* ---------------------------------------------------------------- threads, errors */

enum { NTHREADS = 8, TN = 5000 };

typedef struct Job {
  kcrt_device *dev;
  kcrt_module *mod;
  kcrt_status st;
  int32_t factor;
  int32_t got[TN];
} Job;

/* Each thread launches opsb's scale on its own buffer: the first launches on the device race
 * for the module load. */
static void *job_main(void *p) {
  Job *j = (Job *)p;
  kcc_buf_int32 d;
  int32_t init[TN];
  for (int i = 0; i < TN; i++) init[i] = i;
  j->st = kcc_buf_int32_alloc(j->dev, TN, &d);
  if (!j->st) j->st = kcc_buf_int32_write(d, 0, init, TN);
  if (!j->st)
    j->st = opsb_launch_scale(j->dev, kcc_dim1(kcc_div_up(TN, 64)), kcc_dim1(64), 0, NULL, d,
                              j->factor, TN);
  if (!j->st) j->st = opsb_module(j->dev, &j->mod);
  if (!j->st) j->st = kcc_buf_int32_read(d, 0, j->got, TN);
  if (!j->st) j->st = kcc_buf_int32_free(d);
  if (j->st) fprintf(stderr, "thread: %s: %s\n", kcrt_status_name(j->st), kcrt_last_error());
  return NULL;
}

static void test_threads(void) {
  kcrt_device *dev2; /* a device handle of its own: nothing loaded on it yet */
  CHECK(kcrt_device_open_default(&dev2));
  static Job jobs[NTHREADS];
  pthread_t th[NTHREADS];
  for (int t = 0; t < NTHREADS; t++) {
    jobs[t].dev = dev2;
    jobs[t].factor = t + 2;
    if (pthread_create(&th[t], NULL, job_main, &jobs[t])) {
      fprintf(stderr, "pthread_create failed\n");
      exit(1);
    }
  }
  for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
  for (int t = 0; t < NTHREADS; t++) {
    CHECK(jobs[t].st);
    if (jobs[t].mod != jobs[0].mod) fail("one module per device across threads", t, 0, 0);
    for (int i = 0; i < TN; i++)
      if (jobs[t].got[i] != i * jobs[t].factor) {
        fail("threaded opsb scale", i, jobs[t].got[i], i * jobs[t].factor);
        break;
      }
  }
  /* _release is a no-op kept for older programs: the device keeps its module. */
  kcrt_module *before = jobs[0].mod;
  CHECK(opsb_release(dev2));
  jobs[0].factor = 3;
  job_main(&jobs[0]);
  CHECK(jobs[0].st);
  if (jobs[0].mod != before) fail("opsb_release changed the module", 0, 0, 0);
  for (int i = 0; i < TN; i++)
    if (jobs[0].got[i] != 3 * i) {
      fail("opsb scale after opsb_release", i, jobs[0].got[i], 3 * i);
      break;
    }
  CHECK(kcrt_device_close(dev2));
}

/* Devices closed and opened again with nothing released by hand: a new device may get a
 * closed one's address (the allocator reuses the block), and the launches must still find a
 * module of their own device, not the closed device's freed one. Rounds go on until an
 * address came back (it does not always: the drivers allocate too; under ASan, never). */
static void test_reopen(void) {
  enum { MIN_ROUNDS = 4, MAX_ROUNDS = 32, RN = 1000 };
  void *seen[MAX_ROUNDS];
  int reused = 0, r;
  for (r = 0; r < MAX_ROUNDS && (r < MIN_ROUNDS || !reused); r++) {
    kcrt_device *d;
    CHECK(kcrt_device_open_default(&d));
    seen[r] = (void *)d;
    for (int k = 0; k < r; k++) reused += seen[k] == seen[r];
    Job *j = (Job *)xmalloc(sizeof *j);
    j->dev = d;
    j->factor = r % 5 - 2;
    job_main(j);
    CHECK(j->st);
    for (int i = 0; i < TN; i++)
      if (j->got[i] != i * j->factor) {
        fail("opsb scale on a device opened again", i, j->got[i], i * j->factor);
        break;
      }
    kcc_buf_float f;
    float x[RN], y[RN];
    struct Params p;
    p.scale = 2, p.offset = r, p.bias = 0;
    for (int i = 0; i < RN; i++) x[i] = (float)i;
    CHECK(kcc_buf_float_alloc(d, RN, &f));
    CHECK(kcc_buf_float_write(f, 0, x, RN));
    CHECK(ops_a_k_launch_scale(d, kcc_dim1(kcc_div_up(RN, 128)), kcc_dim1(128), 0, NULL, f, f, p,
                               RN));
    CHECK(kcc_buf_float_read(f, 0, y, RN));
    for (int i = 0; i < RN; i++)
      if (y[i] != 2 * x[i] + r) {
        fail("ops_a scale on a device opened again", i, y[i], 2 * x[i] + r);
        break;
      }
    free(j);
    CHECK(kcrt_device_close(d)); /* no _release: closing drops the device's modules */
  }
  printf("devices closed and opened again: %d rounds, %d reused a closed device's address\n", r,
         reused);
}

static void expect(const char *what, kcrt_status want, kcrt_status got) {
  if (got == want) {
    printf("  %s: %s: %s\n", what, kcrt_status_name(got), kcrt_last_error());
    return;
  }
  failures++;
  fprintf(stderr, "FAIL %s: got %s (%s), want %s\n", what, kcrt_status_name(got), kcrt_last_error(),
          kcrt_status_name(want));
}

/* Like expect, and the message must contain `needle`. */
static void expect_msg(const char *what, kcrt_status want, kcrt_status got, const char *needle) {
  expect(what, want, got);
  if (got == want && !strstr(kcrt_last_error(), needle)) {
    failures++;
    fprintf(stderr, "FAIL %s: message '%s' lacks '%s'\n", what, kcrt_last_error(), needle);
  }
}

/* What the compiler cannot see through kcc_buf_T_of, libkcrt checks at launch: the tag the
 * _alloc helpers give a buffer against the kernel's pointee type. */
static void test_element_types(kcrt_device *dev, kcc_buf_struct_Pair dps) {
  enum { N = 16 };
  kcc_buf_float f;
  kcc_buf_double w;
  kcrt_buffer *raw;
  CHECK(kcc_buf_float_alloc(dev, N, &f));
  CHECK(kcc_buf_double_alloc(dev, N / 2, &w));
  CHECK(kcrt_buffer_alloc(dev, N * sizeof(int32_t), &raw));
  CHECK(kcrt_buffer_fill(raw, 0, 0, N * sizeof(int32_t)));
  CHECK(kcrt_buffer_fill(w.raw, 0, 0, N / 2 * sizeof(double)));
  expect_msg(
      "a float buffer viewed as int", KCRT_ERROR_INVALID_ARGUMENT,
      opsb_launch_scale(dev, kcc_dim1(1), kcc_dim1(N), 0, NULL, kcc_buf_int32_of(f.raw), 2, N),
      "kernel 'scale' argument 1 'data': buffer holds float, kernel expects int");
  expect_msg("a struct buffer viewed as float", KCRT_ERROR_INVALID_ARGUMENT,
             ops_a_k_launch_reverse(dev, kcc_dim1(1), kcc_dim1(N), N * sizeof(float), NULL,
                                    kcc_buf_float_of(dps.raw), N),
             "argument 1 'd': buffer holds 8-byte structs, kernel expects float");
  /* Untagged (kcrt_buffer_alloc): unchecked, as before. */
  CHECK(opsb_launch_scale(dev, kcc_dim1(1), kcc_dim1(N), 0, NULL, kcc_buf_int32_of(raw), 2, N));
  /* The tag removed: unchecked too. */
  CHECK(kcrt_buffer_set_type(f.raw, KCRT_TYPE_NONE, 0));
  CHECK(opsb_launch_scale(dev, kcc_dim1(1), kcc_dim1(N), 0, NULL, kcc_buf_int32_of(f.raw), 2, N));
  CHECK(kcrt_buffer_set_type(f.raw, KCRT_TYPE_FLOAT, sizeof(float)));
  /* A struct pointee has no element type in the kernel table: any buffer is taken (16 floats
   * are 8 Pairs). */
  CHECK(ops_a_k_launch_pairs(dev, kcc_dim1(1), kcc_dim1(N / 2), 0, NULL,
                             kcc_buf_struct_Pair_of(f.raw), w, N / 2));
  CHECK(kcrt_device_synchronize(dev));
  CHECK(kcc_buf_float_free(f));
  CHECK(kcc_buf_double_free(w));
  CHECK(kcrt_buffer_free(raw));
}

static void test_errors(kcrt_device *dev) {
  kcc_buf_int32 d;
  CHECK(kcc_buf_int32_alloc(dev, 16, &d));
  expect("no device", KCRT_ERROR_INVALID_VALUE,
         opsb_launch_scale(NULL, kcc_dim1(1), kcc_dim1(1), 0, NULL, d, 1, 16));
  expect("grid too large", KCRT_ERROR_INVALID_LAUNCH,
         opsb_launch_scale(dev, kcc_dim1((uint64_t)1 << 40), kcc_dim1(1), 0, NULL, d, 1, 16));
  expect("zero block", KCRT_ERROR_INVALID_LAUNCH,
         opsb_launch_scale(dev, kcc_dim1(1), kcc_dim3(1, 0, 1), 0, NULL, d, 1, 16));
  kcc_buf_int32 huge;
  expect("count * size overflows", KCRT_ERROR_OUT_OF_MEMORY,
         kcc_buf_int32_alloc(dev, (size_t)-1 / 2, &huge));
  int32_t x[4];
  expect("read past the end", KCRT_ERROR_INVALID_VALUE, kcc_buf_int32_read(d, 14, x, 4));
  /* A kernel the module does not have cannot be asked for through a header; the module and
   * kernel accessors work. */
  kcrt_kernel *k;
  kcrt_kernel_info info;
  CHECK(ops_a_k_kernel_reverse(dev, &k));
  CHECK(kcrt_kernel_get_info(k, &info));
  if (strcmp(info.name, "reverse") || !info.uses_dynamic_shared || info.num_params != 2)
    fail("ops_a_k_kernel_reverse info", 0, info.num_params, 2);
  kcrt_module *m;
  int nk = 0;
  CHECK(ops_a_k_module(dev, &m));
  CHECK(kcrt_module_kernel_count(m, &nk));
  if (nk != ops_a_k_KERNEL_COUNT) fail("ops_a_k kernel count", 0, nk, ops_a_k_KERNEL_COUNT);
  CHECK(kcc_buf_int32_free(d));
}

int main(void) {
  const char *s = getenv("KCC_TEST_SEED");
  seed = s && *s ? strtoull(s, NULL, 0) : (unsigned long long)time(NULL) * 2654435761ULL;
  state = seed | 1;
  kcrt_device *dev;
  kcrt_status st = kcrt_device_open_default(&dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    printf("SKIP: no device (%s)\n", kcrt_last_error());
    return 77;
  }
  CHECK(st);
  kcrt_device_info info;
  CHECK(kcrt_device_get_info(dev, &info));
  printf("device: %s, seed %llu\n", info.name, seed);
  kcrt_queue *q;
  CHECK(kcrt_queue_create(dev, &q));

  int n = 1000 + (int)(rnd() % 50000);
  test_scale_a(dev, n);
  test_named(dev, n);
  struct Pair *ps = (struct Pair *)xmalloc(n * sizeof *ps);
  kcc_buf_struct_Pair dps = test_pairs(dev, n, ps);
  test_small(dev, n);
  test_reverse(dev, 1 + (int)(rnd() % 200));
  CHECK(ops_a_k_launch_nothing(dev, kcc_dim1(3), kcc_dim1(5), 0, NULL));
  test_scale_b(dev, q, n);
  test_hist(dev, n);
  test_names(dev, n);
  test_affine(dev, n);
  test_pair_sums(dev, dps, ps, n);
  printf("errors through the launch functions:\n");
  test_errors(dev);
  test_element_types(dev, dps);
  CHECK(kcc_buf_struct_Pair_free(dps));
  free(ps);
  failures += module_get_tu_run(dev, (unsigned)rnd());
  CHECK(kcrt_device_synchronize(dev));
  CHECK(kcrt_queue_destroy(q));
  /* Nothing to release first: the device's modules go with it. */
  CHECK(kcrt_device_close(dev));
  test_threads();
  test_reopen();

  if (failures) {
    printf("FAIL: %d check(s) failed (seed %llu)\n", failures, seed);
    return 1;
  }
  printf("PASS: %d elements per kernel, %d threads, seed %llu\n", n, NTHREADS, seed);
  return 0;
}
