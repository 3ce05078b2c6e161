/* kernel_time.c — times kcc's kernels against other builds of the same kernels, all loaded and
 * launched through libkcrt, so that the only difference between two columns is the code in
 * the bundle (kcc's cubin, kcc's PTX through the driver's JIT, nvcc's cubin wrapped by
 * bench/wrap_cubin, kcc's OpenCL C or SPIR-V...).
 *
 *   usage: kernel_time [options] -f LABEL=DIR [-e VAR=VALUE]... [-f LABEL=DIR ...]
 *     -f LABEL=DIR   a form: the bundles DIR/NAME.kcb (NAME = the tests/kernels file name)
 *     -e VAR=VALUE   set while this form's bundles load (KCC_CUDA_FORM=ptx, ...); repeatable
 *     -r LABEL       the reference form for the ratio column (default: no ratio)
 *     -k LIST        comma-separated rows to run (default: all; see `rows` below)
 *     -n N           timed launches per form (default 20, rounded up to a multiple of 4: the
 *                    rounds below), -w W warm-up launches (default 3)
 *     --small        small problem sizes, for CPU devices (PoCL) and smoke tests
 *     --require-gpu  exit 77 (skip) unless the device is a GPU: the full sizes would take
 *                    many minutes on a CPU device that KCC_DEVICE=opencl falls back to
 *     --max-s S      cap on the timed seconds per form and row (default 10): fewer launches
 *                    when a kernel is slow, so a slow device cannot blow the caller's timeout
 *
 * The device is kcrt_device_open_default's ($KCC_DEVICE). Output: a markdown table on stdout,
 * one row as soon as it is measured (a run killed by a timeout keeps what it printed);
 * progress and mismatch details on stderr. Exit status 1 when any form computed a wrong
 * result, 0 otherwise (a form the device cannot load is reported as n/a, not as a failure).
 *
 * Method. Each form runs `w` warm-up launches (and more until 100 ms have passed: clocks that
 * rise only under load), then `n` launches timed one by one with a pair
 * of kcrt events around each (device time, no host overhead); the median is reported. The
 * timed launches of the forms are interleaved in rounds, each round in another order, so that
 * clock ramps or thermal drift do not always favour the same form. Afterwards each form's
 * output buffer is overwritten with garbage, inputs that a kernel updates in place are
 * restored, the form runs once more and its whole output (matmul: a random sample of
 * elements, each recomputed in double) is compared with a host reference: a fast wrong kernel
 * shows as WRONG, never as a win. */
#define _GNU_SOURCE
#include "kcrt.h"

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_FORMS = 6, MAX_ENV = 4, ROUNDS = 4, WARM_MS = 100 };

typedef struct Form {
  const char *label, *dir;
  const char *env[MAX_ENV];
  int nenv;
  kcrt_module *mod;
  kcrt_kernel *k;
  char why[200];                    /* non-empty: this form does not run this row */
  char last_why[200], na_rows[200]; /* rows not run for the reason last_why (for the notes) */
  double *ms;                       /* timed launches */
  int nms;
  int ok;       /* verification: 1 right, 0 wrong */
  bool texture; /* image rows: the kernel takes a CUDA texture object, not a kcrt_image */
} Form;

/* One row: a kernel on its inputs. The buffers are shared by every form. */
typedef struct Case {
  const char *row, *file, *kernel;
  char size[48];
  kcrt_dim3 grid, block;
  kcrt_arg args[8];
  int nargs;
  double bytes, flops; /* moved/computed per launch, for the throughput columns */
  kcrt_buffer *out;    /* overwritten with garbage before each verification launch */
  size_t out_size;
  void (*reset)(struct Case *); /* restores inputs updated in place, or NULL */
  bool (*verify)(struct Case *);
  /* What the callbacks need. */
  float *hf[3];
  double *hd[3];
  int *hi;
  unsigned char *hb;
  kcrt_buffer *d[6];
  int n, w, h, m, kk;
  float a;
  double r, v;
  float rf, vf; /* the float kernels' copies (arguments point at them until the row ends) */
  uint32_t *hist;
  /* Image rows (args[0] is the source): kcc's kernels take img, the nvcc twins a CUDA texture
   * object over a CUDA array of the same texels (made when a form first needs it). */
  kcrt_image *img;
  bool linear; /* the texture object's filter: linear (resize) or point (blur) */
  unsigned long long tex;
  void *tex_array;
  char tex_why[160]; /* why no texture object could be made */
} Case;

static struct {
  kcrt_device *dev;
  kcrt_device_info info;
  Form forms[MAX_FORMS];
  int nforms, ref;
  int n, warm;
  double max_s;
  bool small;
  int wrong;
  double copy_gbs; /* kcrt_buffer_copy device-to-device, bytes read + written per second */
  char notes[2048];
  /* Per form fi > 0, over the rows where both forms ran and were right: the sum of log ratios
   * and the largest ratio, fi's time over the first form's (the first form's over the
   * reference's for the reference): issue 14's geometric means and worst rows. */
  double lsum[MAX_FORMS], rmax[MAX_FORMS];
  int rcount[MAX_FORMS];
  const char *rmax_row[MAX_FORMS];
} G = {.ref = -1, .n = 20, .warm = 3, .max_s = 10};

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("kernel_time: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(2);
}

/* A setup failure (allocation, transfer) ends the program: the rows need their inputs. */
static void must(kcrt_status s, const char *what) {
  if (s) fatal("%s: %s: %s", what, kcrt_status_name(s), kcrt_last_error());
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) fatal("out of host memory (%zu bytes)", n);
  return p;
}

/* xorshift64: inputs only need to be varied and reproducible, and generating a few hundred
 * million of them must take well under a second. */
static uint64_t rng = 0x2545f4914f6cdd1dull;
static inline uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static inline float rndf(float lo, float hi) {
  return lo + (hi - lo) * (float)((rnd() >> 40) * 0x1p-24);
}

static kcrt_buffer *upload(const void *p, size_t n) {
  kcrt_buffer *b;
  must(kcrt_buffer_alloc(G.dev, n, &b), "kcrt_buffer_alloc");
  if (p) must(kcrt_buffer_write(b, 0, p, n), "kcrt_buffer_write");
  return b;
}

static void download(kcrt_buffer *b, void *p, size_t n) {
  must(kcrt_buffer_read(b, 0, p, n), "kcrt_buffer_read");
}

/* |got - want| <= tol, reporting the first few misses; NaN never matches. */
static int misses;
static bool near(const char *what, size_t i, double got, double want, double tol) {
  if (fabs(got - want) <= tol) return true;
  if (misses++ < 5)
    fprintf(stderr, "  %s[%zu] = %.9g, expected %.9g (tolerance %.3g)\n", what, i, got, want, tol);
  return false;
}

/* ---------------------------------------------------------------- the rows */

static bool verify_vecadd(Case *c) {
  float *got = xmalloc((size_t)c->n * 4);
  download(c->out, got, (size_t)c->n * 4);
  misses = 0;
  for (int i = 0; i < c->n; i++) near("c", i, got[i], c->hf[0][i] + c->hf[1][i], 0);
  free(got);
  return misses == 0;
}

static void reset_saxpy(Case *c) {
  must(kcrt_buffer_write(c->d[1], 0, c->hf[1], (size_t)c->n * 4), "kcrt_buffer_write");
}
static bool verify_saxpy(Case *c) {
  float *got = xmalloc((size_t)c->n * 4);
  download(c->out, got, (size_t)c->n * 4);
  misses = 0;
  for (int i = 0; i < c->n; i++) {
    float want = c->a * c->hf[0][i] + c->hf[1][i];
    near("y", i, got[i], want, 3e-7 * fabsf(want)); /* fused or not: an ulp or so */
  }
  free(got);
  return misses == 0;
}

static bool verify_reduce(Case *c) {
  int blocks = (c->n + 511) / 512;
  float *got = xmalloc((size_t)blocks * 4);
  download(c->out, got, (size_t)blocks * 4);
  misses = 0;
  for (int b = 0; b < blocks; b++) {
    double s = 0;
    for (int i = b * 512; i < c->n && i < b * 512 + 512; i++) s += c->hf[0][i];
    near("partial", b, got[b], s, 1e-5 * fabs(s)); /* another summation order */
  }
  free(got);
  return misses == 0;
}

static bool verify_transpose(Case *c) {
  size_t n = (size_t)c->w * c->h;
  float *got = xmalloc(n * 4);
  download(c->out, got, n * 4);
  misses = 0;
  for (int y = 0; y < c->h && misses < 5; y++)
    for (int x = 0; x < c->w; x++)
      near("out", (size_t)x * c->h + y, got[(size_t)x * c->h + y], c->hf[0][(size_t)y * c->w + x],
           0);
  free(got);
  return misses == 0;
}

/* A full host GEMM at 4096^3 would take minutes: check a random sample of elements plus the
 * four corners (edge tiles), each recomputed in double. The tolerance scales with the sum of
 * |products|, the bound on float accumulation error; a wrong tile or index is off by O(1). */
static bool verify_matmul(Case *c) {
  size_t n = (size_t)c->m * c->n;
  float *got = xmalloc(n * 4);
  download(c->out, got, n * 4);
  misses = 0;
  const float *A = c->hf[0], *B = c->hf[1];
  for (int s = 0; s < 4096; s++) {
    int r, col;
    if (s < 4)
      r = s & 1 ? c->m - 1 : 0, col = s & 2 ? c->n - 1 : 0;
    else
      r = (int)(rnd() % (uint64_t)c->m), col = (int)(rnd() % (uint64_t)c->n);
    double sum = 0, mag = 0;
    for (int i = 0; i < c->kk; i++) {
      double p = (double)A[(size_t)r * c->kk + i] * B[(size_t)i * c->n + col];
      sum += p;
      mag += fabs(p);
    }
    near("C", (size_t)r * c->n + col, got[(size_t)r * c->n + col], sum, 1e-4 * mag + 1e-5);
  }
  free(got);
  return misses == 0;
}

static void reset_histogram(Case *c) {
  must(kcrt_buffer_fill(c->out, 0, 0, 256 * 4), "kcrt_buffer_fill");
}
static bool verify_histogram(Case *c) {
  uint32_t got[256];
  download(c->out, got, sizeof got);
  misses = 0;
  for (int b = 0; b < 256; b++) near("bins", b, got[b], c->hist[b], 0);
  return misses == 0;
}

/* atomic_wrap: words[0] counts T = threads * reps increments modulo m + 1 from 0, words[1] as
 * many decrements (atomicDec from 0 wraps to m): (m + 1 - T mod (m + 1)) mod (m + 1). */
static void reset_atomic_wrap(Case *c) {
  must(kcrt_buffer_fill(c->out, 0, 0, 8), "kcrt_buffer_fill");
}
static bool verify_atomic_wrap(Case *c) {
  uint32_t got[2];
  download(c->out, got, sizeof got);
  uint64_t mod = (uint64_t)c->m + 1, t = (uint64_t)c->n * (uint64_t)c->kk;
  misses = 0;
  near("inc", 0, got[0], (double)(t % mod), 0);
  near("dec", 1, got[1], (double)((mod - t % mod) % mod), 0);
  return misses == 0;
}

/* bitcount: the set bits of each random 64-bit word (hb holds the words). */
static bool verify_bitcount(Case *c) {
  int32_t *got = xmalloc((size_t)c->n * 4);
  const uint64_t *in = (const uint64_t *)(void *)c->hb;
  download(c->out, got, (size_t)c->n * 4);
  misses = 0;
  for (int i = 0; i < c->n; i++) near("out", i, got[i], __builtin_popcountll(in[i]), 0);
  free(got);
  return misses == 0;
}

/* The fp64 set (issue 29): libdevice's functions are within 2 ulp of the host's libm, IEEE
 * division and sqrt exact, rsqrt within 1 ulp: a few ulp of the terms' magnitudes. */
static bool verify_dmath(Case *c) {
  double *got = xmalloc((size_t)c->n * 8);
  download(c->out, got, (size_t)c->n * 8);
  misses = 0;
  for (int i = 0; i < c->n; i++) {
    double v = c->hd[0][i], t1 = exp(-v) * log(v + 1.0), t2 = sin(v) * cos(2.0 * v),
           t3 = pow(v, 1.5);
    near("y", i, got[i], t1 + t2 + t3, 1e-13 * (fabs(t1) + fabs(t2) + fabs(t3)));
  }
  free(got);
  return misses == 0;
}

static bool verify_ddiv(Case *c) {
  double *got = xmalloc((size_t)c->n * 8);
  download(c->out, got, (size_t)c->n * 8);
  misses = 0;
  for (int i = 0; i < c->n; i++) {
    double p = c->hd[0][i], q = c->hd[1][i], t1 = p / q, t2 = sqrt(p) / (q + 1.0),
           t3 = 1.0 / (p * q), t4 = 1.0 / sqrt(p + q);
    near("y", i, got[i], t1 + t2 + t3 - t4, 1e-13 * (fabs(t1) + fabs(t2) + fabs(t3) + fabs(t4)));
  }
  free(got);
  return misses == 0;
}

/* Each block's partial sum, added in the kernel's own order (the grid-stride loop, then the
 * tree): no reassociation is allowed, so only the final rounding of each add can differ. */
static bool verify_dreduce(Case *c) {
  int g = (int)c->grid.x;
  double *got = xmalloc((size_t)g * 8), s[256];
  download(c->out, got, (size_t)g * 8);
  misses = 0;
  for (int b = 0; b < g; b++) {
    double mag = 0;
    for (int t = 0; t < 256; t++) {
      s[t] = 0;
      for (long i = (long)b * 256 + t; i < c->n; i += (long)g * 256) s[t] += c->hd[0][i];
      mag += fabs(s[t]);
    }
    for (int w = 128; w > 0; w >>= 1)
      for (int t = 0; t < w; t++) s[t] += s[t + w];
    near("partial", b, got[b], s[0], 1e-15 * mag);
  }
  free(got);
  return misses == 0;
}

/* sprod: each dot product recomputed in double; the kernel's float sum of len products has
 * rounding error growing like sqrt(len) ulps of the sum of |products|. */
static bool verify_sprod(Case *c) {
  float *got = xmalloc((size_t)c->m * 4);
  download(c->out, got, (size_t)c->m * 4);
  misses = 0;
  for (int v = 0; v < c->m; v++) {
    double sum = 0, mag = 0;
    for (long j = (long)v * c->kk; j < (long)(v + 1) * c->kk; j++) {
      double p = (double)c->hf[0][j] * c->hf[1][j];
      sum += p, mag += fabs(p);
    }
    near("dots", v, got[v], sum, 1e-5 * mag);
  }
  free(got);
  return misses == 0;
}

static double *random_doubles(size_t n, double lo, double hi) {
  double *p = xmalloc(n * sizeof *p);
  for (size_t i = 0; i < n; i++) p[i] = lo + (hi - lo) * (double)(rnd() >> 11) * 0x1p-53;
  return p;
}

static inline int clampi(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
static bool verify_stencil1d(Case *c) {
  float *got = xmalloc((size_t)c->n * 4), *in = c->hf[0];
  download(c->out, got, (size_t)c->n * 4);
  misses = 0;
  for (int i = 0; i < c->n; i++) {
    float want = 0.25f * in[clampi(i - 1, 0, c->n - 1)] + 0.5f * in[i] +
                 0.25f * in[clampi(i + 1, 0, c->n - 1)];
    near("out", i, got[i], want, 1e-6 * fabsf(want));
  }
  free(got);
  return misses == 0;
}

static bool verify_stencil2d(Case *c) {
  size_t n = (size_t)c->w * c->h;
  float *got = xmalloc(n * 4), *in = c->hf[0];
  download(c->out, got, n * 4);
  misses = 0;
  for (int y = 0; y < c->h && misses < 5; y++)
    for (int x = 0; x < c->w; x++) {
      size_t i = (size_t)y * c->w + x;
      float want = in[i];
      if (x > 0 && y > 0 && x < c->w - 1 && y < c->h - 1)
        want = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - c->w] + in[i + c->w]);
      near("out", i, got[i], want, 1e-6 * fabsf(want));
    }
  free(got);
  return misses == 0;
}

/* The CDF and the pricing of bench/kernels/blackscholes.k, in the host's double. */
static double cnd(double d) {
  const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937;
  const double a4 = -1.821255978, a5 = 1.330274429;
  const double rsqrt2pi = 0.39894228040143267794;
  double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double c = rsqrt2pi * exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0.0 ? 1.0 - c : c;
}
static void reset_blackscholes(Case *c) { /* both outputs garbage, not only call */
  must(kcrt_buffer_fill(c->d[3], 0, 0xA5, (size_t)c->n * 8), "kcrt_buffer_fill");
  must(kcrt_buffer_fill(c->d[4], 0, 0xA5, (size_t)c->n * 8), "kcrt_buffer_fill");
}
static bool verify_blackscholes(Case *c) {
  double *call = xmalloc((size_t)c->n * 8), *put = xmalloc((size_t)c->n * 8);
  download(c->d[3], call, (size_t)c->n * 8);
  download(c->d[4], put, (size_t)c->n * 8);
  misses = 0;
  for (int i = 0; i < c->n; i++) {
    double S = c->hd[0][i], X = c->hd[1][i], T = c->hd[2][i], sq = sqrt(T);
    double d1 = (log(S / X) + (c->r + 0.5 * c->v * c->v) * T) / (c->v * sq), d2 = d1 - c->v * sq;
    double n1 = cnd(d1), n2 = cnd(d2), ert = exp(-c->r * T);
    /* libdevice's exp/log are within 2 ulp of the host's; the tolerance is relative to the
     * terms of the final difference (S and X scale), not to a price that may cancel to 0. */
    near("call", i, call[i], S * n1 - X * ert * n2, 1e-12 * (S + X));
    near("put", i, put[i], X * ert * (1.0 - n2) - S * (1.0 - n1), 1e-12 * (S + X));
  }
  free(call);
  free(put);
  return misses == 0;
}

/* 512 sampled bodies plus the first and last, each summed over all bodies in double. The
 * kernel sums n float terms, each with rsqrtf's error (2^-22.9 relative on NVIDIA GPUs): the
 * first GPU run (2026-11-23, H200) showed errors up to 1.7e-6 of the sum of |terms| for kcc
 * and nvcc alike, so the bound is 3e-5 of it (about the square root of n terms' rounding). */
static bool verify_nbody(Case *c) {
  size_t n = (size_t)c->n;
  float *got = xmalloc(n * 16), *p = c->hf[0];
  download(c->out, got, n * 16);
  misses = 0;
  for (int s = 0; s < 514; s++) {
    size_t i = s == 0 ? 0 : s == 1 ? n - 1 : rnd() % n;
    double a[3] = {0, 0, 0}, mag = 0;
    for (size_t j = 0; j < n; j++) {
      double d[3] = {p[4 * j] - p[4 * i], p[4 * j + 1] - p[4 * i + 1], p[4 * j + 2] - p[4 * i + 2]};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.01f;
      double f = p[4 * j + 3] / (r2 * sqrt(r2));
      for (int k = 0; k < 3; k++) a[k] += d[k] * f, mag += fabs(d[k] * f);
    }
    for (int k = 0; k < 3; k++) near("acc", 4 * i + k, got[4 * i + k], a[k], 3e-5 * mag + 1e-6);
    near("acc", 4 * i + 3, got[4 * i + 3], 0, 0);
  }
  free(got);
  return misses == 0;
}

static bool verify_scan(Case *c) {
  int *got = xmalloc((size_t)c->n * 4);
  download(c->out, got, (size_t)c->n * 4);
  misses = 0;
  uint32_t run = 0; /* unsigned: the kernel's int sums wrap, the host's must too */
  for (int i = 0; i < c->n; i++) {
    run = (i % 256 ? run : 0) + (uint32_t)c->hi[i];
    near("out", i, got[i], (int32_t)run, 0);
  }
  free(got);
  return misses == 0;
}

static const float conv_taps[9] = {0.02f, 0.05f, 0.1f, 0.15f, 0.36f, 0.15f, 0.1f, 0.05f, 0.02f};
static bool verify_conv(Case *c) {
  float *got = xmalloc((size_t)c->n * 4), *in = c->hf[0];
  download(c->out, got, (size_t)c->n * 4);
  misses = 0;
  for (int i = 0; i < c->n; i++) {
    double want = 0, mag = 0;
    for (int k = 0; k < 9; k++) {
      double t = (double)conv_taps[k] * in[clampi(i + k - 4, 0, c->n - 1)];
      want += t;
      mag += fabs(t);
    }
    near("out", i, got[i], want, 1e-6 * mag); /* 9 float adds, fused or not */
  }
  free(got);
  return misses == 0;
}

/* Float Black-Scholes, two options per thread (bench/cuda/bs_float2.cu): __expf,
 * __logf and __fdividef are approximations, so the tolerance is ~1e-4 of the price's scale
 * (a wrong option or a swapped call/put is off by O(S + X)). */
static bool verify_bs_float2(Case *c) {
  float *call = xmalloc((size_t)c->n * 4), *put = xmalloc((size_t)c->n * 4);
  download(c->d[3], call, (size_t)c->n * 4);
  download(c->d[4], put, (size_t)c->n * 4);
  misses = 0;
  double r = (float)c->r, v = (float)c->v;
  for (int i = 0; i < c->n; i++) {
    double S = c->hf[0][i], X = c->hf[1][i], T = c->hf[2][i], sq = sqrt(T);
    double d1 = (log(S / X) + (r + 0.5 * v * v) * T) / (v * sq), d2 = d1 - v * sq;
    double n1 = cnd(d1), n2 = cnd(d2), ert = exp(-r * T);
    near("call", i, call[i], S * n1 - X * ert * n2, 1e-4 * (S + X));
    near("put", i, put[i], X * ert * (1.0 - n2) - S * (1.0 - n1), 1e-4 * (S + X));
  }
  free(call);
  free(put);
  return misses == 0;
}
static void reset_bs_float2(Case *c) {
  must(kcrt_buffer_fill(c->d[3], 0, 0xA5, (size_t)c->n * 4), "kcrt_buffer_fill");
  must(kcrt_buffer_fill(c->d[4], 0, 0xA5, (size_t)c->n * 4), "kcrt_buffer_fill");
}

static bool verify_copy(Case *c) {
  float *got = xmalloc((size_t)c->n * 4);
  download(c->out, got, (size_t)c->n * 4);
  misses = 0;
  for (int i = 0; i < c->n; i++) near("out", i, got[i], c->hf[0][i], 0);
  free(got);
  return misses == 0;
}

/* The image rows' texels: hf[0], w x h floats in [0, 1). */
static float texel(const Case *c, int i, int j) {
  return c->hf[0][(size_t)clampi(j, 0, c->h - 1) * (size_t)c->w + (size_t)clampi(i, 0, c->w - 1)];
}

/* Bilinear resize (resize_img through the sampler or tex2D, resize_buf written out), each
 * output recomputed in double from the four texels and the weights OpenCL 1.2 §8.2 defines
 * (clamp-to-edge), at the coordinate the kernel computes in float. Tolerance, per output:
 * (2^-8 + 2^-9) x (largest - smallest of its four texels) + 1e-6. 2^-8: a texture unit computes
 * each dimension's weight in 9-bit fixed point with 8 fractional bits (CUDA Programming Guide,
 * "Texture Fetching"; NVIDIA's OpenCL images use the same units), so each of the two weights is
 * off by up to 2^-9, each moving the result by at most the texels' range. 2^-9: the kernel's
 * coordinate u - 0.5 may be rounded once more or less than the reference's (a fused multiply-add
 * or not), by up to an ulp of the coordinate (2^-10 below 8192) in each dimension. 1e-6: the
 * float sum of four products of values below 1. A wrong texel or a half-texel shift is off by a
 * good part of the range on random data. */
static bool verify_resize(Case *c) {
  size_t n = (size_t)c->n * c->m;
  float *got = xmalloc(n * 4);
  download(c->out, got, n * 4);
  misses = 0;
  for (int y = 0; y < c->m; y++)
    for (int x = 0; x < c->n; x++) {
      double u = (double)(((float)x + 0.5f) * c->rf) - 0.5,
             v = (double)(((float)y + 0.5f) * c->vf) - 0.5;
      double fu = floor(u), fv = floor(v), a = u - fu, b = v - fv;
      int i = (int)fu, j = (int)fv;
      double t00 = texel(c, i, j), t10 = texel(c, i + 1, j), t01 = texel(c, i, j + 1),
             t11 = texel(c, i + 1, j + 1);
      double want = (1 - a) * (1 - b) * t00 + a * (1 - b) * t10 + (1 - a) * b * t01 + a * b * t11;
      double hi = fmax(fmax(t00, t10), fmax(t01, t11)), lo = fmin(fmin(t00, t10), fmin(t01, t11));
      near("dst", (size_t)y * c->n + x, got[(size_t)y * c->n + x], want,
           (0x1p-8 + 0x1p-9) * (hi - lo) + 1e-6);
    }
  free(got);
  return misses == 0;
}

/* 5x5 Gaussian blur, recomputed in double: the weights g[j] g[i] are exact in float, so only the
 * kernel's 25 float additions (fused or not) round: 25 x 2^-24 of the sum of the terms. */
static const double blur_g[5] = {0.0625, 0.25, 0.375, 0.25, 0.0625};
static bool verify_blur(Case *c) {
  size_t n = (size_t)c->w * c->h;
  float *got = xmalloc(n * 4);
  download(c->out, got, n * 4);
  misses = 0;
  for (int y = 0; y < c->h; y++)
    for (int x = 0; x < c->w; x++) {
      double want = 0, mag = 0;
      for (int j = -2; j <= 2; j++)
        for (int i = -2; i <= 2; i++) {
          double t = blur_g[j + 2] * blur_g[i + 2] * texel(c, x + i, y + j);
          want += t;
          mag += fabs(t);
        }
      near("dst", (size_t)y * c->w + x, got[(size_t)y * c->w + x], want, 25 * 0x1p-24 * mag);
    }
  free(got);
  return misses == 0;
}

/* ---------------------------------------------------------------- measuring */

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  if (n <= 0) return NAN;
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...) {
  size_t len = strlen(G.notes);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(G.notes + len, sizeof G.notes - len, fmt, ap);
  va_end(ap);
}

static void flush_na(Form *f) {
  if (f->na_rows[0]) note("- %s: n/a for %s: %s\n", f->label, f->na_rows, f->last_why);
  f->na_rows[0] = 0;
}

/* CUDA texture objects for the nvcc twins of the image rows (bench/cuda/resize_img.cu,
 * blur_img.cu), made as a CUDA program's host code makes them (cudaMallocArray,
 * cudaMemcpy2DToArray, cudaCreateTextureObject) through the driver API on the device's primary
 * context, which libkcrt launches on. The driver's types are declared with cuda.h's layouts
 * (as tests/runtime/cuda_tex.c does), so building kernel_time needs no CUDA header. */
typedef struct CUctx_st *CUcontext;
typedef struct CUarray_st *CUarray;
typedef struct {
  int resType; /* 0: a CUDA array */
  union {
    CUarray hArray;
    int reserved[32];
  } res;
  unsigned flags;
} CuResDesc;
typedef struct {
  int addressMode[3], filterMode; /* 1: clamp; 0 point, 1 linear */
  unsigned flags, maxAnisotropy;  /* flags 0: unnormalized coordinates */
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp, borderColor[4];
  int reserved[12];
} CuTexDesc;
typedef struct {
  size_t Width, Height, Depth;
  int Format; /* 0x20: float */
  unsigned NumChannels, Flags;
} CuArrayDesc;
typedef struct {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType; /* 1 host, 3 array */
  const void *srcHost;
  unsigned long long srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight, dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  unsigned long long dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight, WidthInBytes, Height, Depth;
} CuCopy3D;
static struct {
  bool tried, ok;
  int (*DeviceGet)(int *, int);
  int (*PrimaryCtxRetain)(CUcontext *, int);
  int (*PrimaryCtxRelease)(int);
  int (*CtxPush)(CUcontext);
  int (*CtxPop)(CUcontext *);
  int (*TexObjectCreate)(unsigned long long *, const CuResDesc *, const CuTexDesc *, const void *);
  int (*TexObjectDestroy)(unsigned long long);
  int (*Array3DCreate)(CUarray *, const CuArrayDesc *);
  int (*ArrayDestroy)(CUarray);
  int (*Memcpy3D)(const CuCopy3D *);
} cu;

static bool load_cuda(Case *c) {
  if (!cu.tried) {
    cu.tried = true;
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    static const char *const names[] = {
        "cuDeviceGet",         "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease_v2",
        "cuCtxPushCurrent_v2", "cuCtxPopCurrent_v2",       "cuTexObjectCreate",
        "cuTexObjectDestroy",  "cuArray3DCreate_v2",       "cuArrayDestroy",
        "cuMemcpy3D_v2"};
    void **slots[] = {(void **)&cu.DeviceGet,
                      (void **)&cu.PrimaryCtxRetain,
                      (void **)&cu.PrimaryCtxRelease,
                      (void **)&cu.CtxPush,
                      (void **)&cu.CtxPop,
                      (void **)&cu.TexObjectCreate,
                      (void **)&cu.TexObjectDestroy,
                      (void **)&cu.Array3DCreate,
                      (void **)&cu.ArrayDestroy,
                      (void **)&cu.Memcpy3D};
    cu.ok = h != NULL;
    for (size_t i = 0; cu.ok && i < sizeof names / sizeof *names; i++)
      cu.ok = (*slots[i] = dlsym(h, names[i])) != NULL;
  }
  if (!cu.ok) snprintf(c->tex_why, sizeof c->tex_why, "no CUDA driver API (libcuda.so.1)");
  return cu.ok;
}

/* The row's texture object over a CUDA array holding hf[0] (w x h floats); false with
 * c->tex_why set when none can be made (not a CUDA device, a driver error). */
static bool texture_object(Case *c) {
  if (c->tex) return true;
  if (c->tex_why[0]) return false;
  if (G.info.backend != KCRT_BACKEND_CUDA) {
    snprintf(c->tex_why, sizeof c->tex_why, "a CUDA texture object needs a CUDA device");
    return false;
  }
  if (!load_cuda(c)) return false;
  int d = 0, r;
  CUcontext ctx = NULL, old = NULL;
  if ((r = cu.DeviceGet(&d, G.info.backend_index)) || (r = cu.PrimaryCtxRetain(&ctx, d))) {
    snprintf(c->tex_why, sizeof c->tex_why, "cuDeviceGet/cuDevicePrimaryCtxRetain: CUresult %d", r);
    return false;
  }
  cu.CtxPush(ctx);
  CuArrayDesc ad = {(size_t)c->w, (size_t)c->h, 0, 0x20, 1, 0};
  CUarray a = NULL;
  CuCopy3D cp;
  memset(&cp, 0, sizeof cp);
  cp.srcMemoryType = 1, cp.srcHost = c->hf[0], cp.srcPitch = 4 * (size_t)c->w;
  cp.srcHeight = (size_t)c->h, cp.dstMemoryType = 3;
  cp.WidthInBytes = 4 * (size_t)c->w, cp.Height = (size_t)c->h, cp.Depth = 1;
  CuResDesc rd;
  CuTexDesc td;
  memset(&rd, 0, sizeof rd);
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = 1;
  td.filterMode = c->linear ? 1 : 0;
  const char *what = "cuArray3DCreate";
  if (!(r = cu.Array3DCreate(&a, &ad))) {
    cp.dstArray = rd.res.hArray = a;
    what = "cuMemcpy3D";
    if (!(r = cu.Memcpy3D(&cp)))
      what = "cuTexObjectCreate", r = cu.TexObjectCreate(&c->tex, &rd, &td, NULL);
  }
  cu.CtxPop(&old);
  if (r) {
    snprintf(c->tex_why, sizeof c->tex_why, "%s: CUresult %d", what, r);
    if (a) cu.ArrayDestroy(a);
    cu.PrimaryCtxRelease(d);
    c->tex = 0;
    return false;
  }
  c->tex_array = a;
  return true;
}

static void free_texture(Case *c) {
  if (!c->tex) return;
  int d = 0;
  CUcontext ctx = NULL, old = NULL;
  cu.DeviceGet(&d, G.info.backend_index);
  cu.PrimaryCtxRetain(&ctx, d);
  cu.CtxPush(ctx);
  cu.TexObjectDestroy(c->tex);
  cu.ArrayDestroy((CUarray)c->tex_array);
  cu.CtxPop(&old);
  cu.PrimaryCtxRelease(d); /* this call's retain */
  cu.PrimaryCtxRelease(d); /* texture_object's */
}

/* Loads the form's bundle for this row with the form's environment; on failure leaves the
 * reason in f->why. */
static void load_form(Form *f, Case *c) {
  f->why[0] = 0;
  f->mod = NULL;
  f->k = NULL;
  char path[4096], *saved[MAX_ENV] = {0};
  snprintf(path, sizeof path, "%s/%s.kcb", f->dir, c->file);
  for (int i = 0; i < f->nenv; i++) {
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(strchr(f->env[i], '=') - f->env[i]), f->env[i]);
    const char *old = getenv(name);
    saved[i] = old ? strdup(old) : NULL;
    setenv(name, strchr(f->env[i], '=') + 1, 1);
  }
  double t0 = now_ms();
  kcrt_status s = kcrt_module_load_file(G.dev, path, &f->mod);
  if (s == KCRT_SUCCESS) s = kcrt_kernel_get(f->mod, c->kernel, &f->k);
  if (s) {
    snprintf(f->why, sizeof f->why, "%s: %.150s", kcrt_status_name(s), kcrt_last_error());
    kcrt_module_unload(f->mod);
    f->mod = NULL;
  } else {
    fprintf(stderr, "  %s: loaded %s in %.1f ms\n", f->label, path, now_ms() - t0);
    f->texture = false;
    kcrt_param_info p;
    if (c->img && kcrt_kernel_param_info(f->k, 0, &p) == KCRT_SUCCESS &&
        p.kind != KCRT_PARAM_IMAGE) {
      /* The nvcc twin: a cudaTextureObject_t (a 64-bit handle) where kcc's kernel has the image. */
      f->texture = true;
      if (!texture_object(c)) {
        snprintf(f->why, sizeof f->why, "%s", c->tex_why);
        kcrt_module_unload(f->mod);
        f->mod = NULL;
      }
    }
  }
  for (int i = 0; i < f->nenv; i++) {
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(strchr(f->env[i], '=') - f->env[i]), f->env[i]);
    if (saved[i])
      setenv(name, saved[i], 1);
    else
      unsetenv(name);
    free(saved[i]);
  }
}

static bool launch(Form *f, Case *c) {
  kcrt_arg args[8];
  memcpy(args, c->args, sizeof args);
  if (c->img) args[0] = f->texture ? KCRT_ARG_VALUE(c->tex) : KCRT_ARG_VALUE(c->img);
  kcrt_status s = kcrt_launch(f->k, NULL, c->grid, c->block, 0, args, c->nargs);
  if (s)
    snprintf(f->why, sizeof f->why, "launch: %s: %.150s", kcrt_status_name(s), kcrt_last_error());
  return s == KCRT_SUCCESS;
}

static bool sync_form(Form *f) {
  kcrt_status s = kcrt_device_synchronize(G.dev);
  if (s) snprintf(f->why, sizeof f->why, "%s: %.150s", kcrt_status_name(s), kcrt_last_error());
  return s == KCRT_SUCCESS;
}

static void fmt_ms(char *buf, size_t n, const Form *f, double med) {
  if (f->why[0])
    snprintf(buf, n, "n/a");
  else if (!f->ok)
    snprintf(buf, n, "WRONG (%.3f)", med);
  else
    snprintf(buf, n, "%.3f", med);
}

static void fmt_rate(char *buf, size_t n, const Case *c, const Form *f, double med) {
  if (f->why[0] || !f->ok || !(med > 0))
    snprintf(buf, n, "-");
  else {
    double v = (c->flops > 0 ? c->flops : c->bytes) / (med * 1e6);
    snprintf(buf, n,
             v >= 100  ? "%.0f %s"
             : v >= 10 ? "%.1f %s"
                       : "%.2f %s",
             v, c->flops > 0 ? "GFLOP/s" : "GB/s");
  }
}

static void measure(Case *c) {
  fprintf(stderr, "%s (%s):\n", c->row, c->size);
  int per_round = (G.n + ROUNDS - 1) / ROUNDS, nev = 2 * per_round;
  kcrt_event **ev = xmalloc(sizeof *ev * (size_t)nev);
  for (int i = 0; i < nev; i++) must(kcrt_event_create(G.dev, &ev[i]), "kcrt_event_create");

  for (int fi = 0; fi < G.nforms; fi++) {
    Form *f = &G.forms[fi];
    f->nms = 0;
    f->ok = 1;
    f->ms = xmalloc(sizeof *f->ms * (size_t)per_round * ROUNDS);
    load_form(f, c);
    if (f->why[0]) continue;
    /* Warm-up, and the launch count that fits the time cap. */
    double t0 = now_ms();
    bool good = true;
    for (int i = 0; i < G.warm && good; i++) good = launch(f, c);
    if (good) good = sync_form(f);
    if (!good) continue;
    double each = G.warm ? (now_ms() - t0) / G.warm : 0;
    /* Then more, until WARM_MS have passed since the first: NVIDIA's Vulkan driver runs short
     * bursts at a low clock (345 MHz against 1980 on an H200, bench/RESULTS.md session 29),
     * which a few launches do not lift. */
    for (int i = 0; good && i < 10000 && now_ms() - t0 < WARM_MS; i++) good = launch(f, c);
    if (good) good = sync_form(f);
    if (!good) continue;
    if (each * G.n > G.max_s * 1e3) {
      int fit = (int)(G.max_s * 1e3 / each / ROUNDS);
      if (fit < 1) fit = 1;
      if (fit < per_round) {
        note("- %s %s: %.0f ms per launch, so %d timed launches instead of %d\n", c->row, f->label,
             each, fit * ROUNDS, G.n);
        per_round = fit;
      }
    }
  }

  for (int r = 0; r < ROUNDS; r++)
    for (int j = 0; j < G.nforms; j++) {
      Form *f = &G.forms[(j + r) % G.nforms]; /* each round starts with another form */
      if (f->why[0]) continue;
      bool good = true;
      int done = 0;
      for (; done < per_round && good; done++) {
        good = kcrt_event_record(ev[2 * done], NULL) == KCRT_SUCCESS && launch(f, c) &&
               kcrt_event_record(ev[2 * done + 1], NULL) == KCRT_SUCCESS;
      }
      if (!good || !sync_form(f)) {
        if (!f->why[0]) snprintf(f->why, sizeof f->why, "event: %.150s", kcrt_last_error());
        continue;
      }
      for (int i = 0; i < done; i++) {
        double ms;
        kcrt_status s = kcrt_event_elapsed_ms(ev[2 * i], ev[2 * i + 1], &ms);
        if (s) {
          snprintf(f->why, sizeof f->why, "timing: %s: %.150s", kcrt_status_name(s),
                   kcrt_last_error());
          break;
        }
        f->ms[f->nms++] = ms;
      }
    }

  /* Each form's result, computed from scratch into a garbage-filled output. */
  for (int fi = 0; fi < G.nforms; fi++) {
    Form *f = &G.forms[fi];
    if (f->why[0]) continue;
    if (c->reset)
      c->reset(c);
    else
      must(kcrt_buffer_fill(c->out, 0, 0xA5, c->out_size), "kcrt_buffer_fill");
    if (!launch(f, c) || !sync_form(f)) continue;
    f->ok = c->verify(c);
    if (!f->ok) {
      fprintf(stderr, "  %s: WRONG results (%d mismatches, first ones above)\n", f->label, misses);
      G.wrong++;
    }
  }

  char cell[64];
  int launches = 0;
  double med[MAX_FORMS];
  for (int fi = 0; fi < G.nforms; fi++) {
    Form *f = &G.forms[fi];
    med[fi] = f->why[0] ? NAN : median(f->ms, f->nms);
    if (!f->why[0] && (launches == 0 || f->nms < launches)) launches = f->nms;
  }
  printf("| %s | %s |", c->row, c->size);
  for (int fi = 0; fi < G.nforms; fi++) {
    fmt_ms(cell, sizeof cell, &G.forms[fi], med[fi]);
    printf(" %s |", cell);
  }
  if (G.ref >= 0) {
    const Form *a = &G.forms[0], *b = &G.forms[G.ref];
    if (a->why[0] || b->why[0] || !a->ok || !b->ok)
      printf(" - |");
    else
      printf(" %.2f |", med[0] / med[G.ref]);
  }
  fmt_rate(cell, sizeof cell, c, &G.forms[0], med[0]);
  printf(" %s |", cell);
  if (G.ref > 0) {
    fmt_rate(cell, sizeof cell, c, &G.forms[G.ref], med[G.ref]);
    printf(" %s |", cell);
  }
  /* The share of the device's own copy rate (kcrt_buffer_copy, bytes read + written): what
   * "memory-bound at N% of the bandwidth" is measured against. */
  if (c->flops > 0 || !(G.copy_gbs > 0) || G.forms[0].why[0] || !G.forms[0].ok || !(med[0] > 0))
    printf(" - |");
  else
    printf(" %.0f%% |", 100 * c->bytes / (med[0] * 1e6) / G.copy_gbs);
  printf(" %d |\n", launches);
  fflush(stdout);
  for (int fi = 1; fi < G.nforms; fi++) {
    const Form *a = &G.forms[0], *b = &G.forms[fi];
    if (a->why[0] || b->why[0] || !a->ok || !b->ok || !(med[0] > 0) || !(med[fi] > 0)) continue;
    double q = fi == G.ref ? med[0] / med[fi] : med[fi] / med[0];
    G.lsum[fi] += log(q);
    G.rcount[fi]++;
    if (q > G.rmax[fi]) G.rmax[fi] = q, G.rmax_row[fi] = c->row;
  }

  for (int fi = 0; fi < G.nforms; fi++) {
    Form *f = &G.forms[fi];
    if (f->why[0]) {
      fprintf(stderr, "  %s: n/a: %s\n", f->label, f->why);
      /* One note per form and reason, listing the rows: an nvcc cubin on an OpenCL device
       * is n/a on every row for the same reason. */
      if (strcmp(f->why, f->last_why)) {
        flush_na(f);
        snprintf(f->last_why, sizeof f->last_why, "%s", f->why);
      }
      size_t len = strlen(f->na_rows);
      snprintf(f->na_rows + len, sizeof f->na_rows - len, "%s%s", len ? ", " : "", c->row);
    }
    kcrt_module_unload(f->mod);
    f->mod = NULL;
    free(f->ms);
    f->ms = NULL;
  }
  for (int i = 0; i < nev; i++) kcrt_event_destroy(ev[i]);
  free(ev);
}

static void free_case(Case *c) {
  free_texture(c);
  if (c->img) kcrt_image_free(c->img);
  for (int i = 0; i < 6; i++) kcrt_buffer_free(c->d[i]);
  for (int i = 0; i < 3; i++) free(c->hf[i]), free(c->hd[i]);
  free(c->hi);
  free(c->hb);
  free(c->hist);
}

static float *random_floats(size_t n, float lo, float hi) {
  float *p = xmalloc(n * sizeof *p);
  for (size_t i = 0; i < n; i++) p[i] = rndf(lo, hi);
  return p;
}

static uint64_t grid_of(uint64_t n, uint64_t per) {
  return (n + per - 1) / per;
}

/* Device-to-device copy rate through kcrt_buffer_copy (the driver's memcpy kernel), median of
 * 10 timed copies of 2^28 bytes (--small: 2^22), in GB/s counting the bytes read and written.
 * 0 when events cannot time it. */
static double copy_rate(void) {
  size_t n = G.small ? (size_t)1 << 22 : (size_t)1 << 28;
  kcrt_buffer *a = upload(NULL, n), *b = upload(NULL, n);
  kcrt_event *e0, *e1;
  must(kcrt_event_create(G.dev, &e0), "kcrt_event_create");
  must(kcrt_event_create(G.dev, &e1), "kcrt_event_create");
  must(kcrt_buffer_fill(a, 0, 1, n), "kcrt_buffer_fill");
  double ms[10];
  int got = 0;
  for (int i = 0; i < 13; i++) {
    double t;
    if (kcrt_event_record(e0, NULL) || kcrt_buffer_copy(b, 0, a, 0, n) ||
        kcrt_event_record(e1, NULL) || kcrt_event_elapsed_ms(e0, e1, &t))
      break;
    if (i >= 3) ms[got++] = t; /* 3 warm-up copies */
  }
  kcrt_event_destroy(e0);
  kcrt_event_destroy(e1);
  kcrt_buffer_free(a);
  kcrt_buffer_free(b);
  double med = got == 10 ? median(ms, got) : 0;
  return med > 0 ? 2.0 * (double)n / (med * 1e6) : 0;
}

/* Sizes big enough to be bandwidth- or compute-bound on an H100/H200 (hundreds of MiB per
 * array, 4096^3 GEMM); --small shrinks them for CPU devices. */
static void run_row(const char *row) {
  Case c = {.row = row};
  bool s = G.small;
  int one_d = s ? 1 << 20 : 1 << 26, two_d = s ? 1024 : 8192;
  /* Devices that do not say how many units they have (Vulkan without a vendor extension) get
   * the whole grid where a row would size it by the units. */
  int cu = G.info.compute_units ? (int)G.info.compute_units : 1 << 20;
  if (!strcmp(row, "vecadd")) {
    c.file = c.kernel = "vecadd";
    c.n = one_d;
    snprintf(c.size, sizeof c.size, "2^%d floats", s ? 20 : 26);
    c.hf[0] = random_floats(c.n, -100, 100);
    c.hf[1] = random_floats(c.n, 1, 1000);
    c.d[0] = upload(c.hf[0], (size_t)c.n * 4);
    c.d[1] = upload(c.hf[1], (size_t)c.n * 4);
    c.d[2] = c.out = upload(NULL, c.out_size = (size_t)c.n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_BUFFER(c.d[2]), c.args[3] = KCRT_ARG_VALUE(c.n), c.nargs = 4;
    c.grid = KCRT_DIM1(grid_of(c.n, 256)), c.block = KCRT_DIM1(256);
    c.bytes = 12.0 * c.n;
    c.verify = verify_vecadd;
  } else if (!strcmp(row, "saxpy")) {
    /* A grid-stride grid (16 blocks per compute unit) as saxpy.k intends: each thread runs
     * the loop many times, which is what the loop's code quality is measured on. y grows by
     * a*x per launch; after a few dozen launches it is still far from any float limit. */
    c.file = c.kernel = "saxpy";
    c.n = one_d;
    c.a = 2.5f;
    snprintf(c.size, sizeof c.size, "2^%d floats", s ? 20 : 26);
    c.hf[0] = random_floats(c.n, 0.1f, 10);
    c.hf[1] = random_floats(c.n, 0.1f, 10);
    c.d[0] = upload(c.hf[0], (size_t)c.n * 4);
    c.d[1] = c.out = upload(c.hf[1], c.out_size = (size_t)c.n * 4);
    c.args[0] = KCRT_ARG_VALUE(c.n), c.args[1] = KCRT_ARG_VALUE(c.a);
    c.args[2] = KCRT_ARG_BUFFER(c.d[0]), c.args[3] = KCRT_ARG_BUFFER(c.d[1]), c.nargs = 4;
    uint64_t g = grid_of(c.n, 256);
    c.grid = KCRT_DIM1(g < (uint64_t)cu * 16 ? g : (uint64_t)cu * 16), c.block = KCRT_DIM1(256);
    c.bytes = 12.0 * c.n;
    c.reset = reset_saxpy;
    c.verify = verify_saxpy;
  } else if (!strcmp(row, "reduce")) {
    c.file = c.kernel = "reduce";
    c.n = one_d;
    snprintf(c.size, sizeof c.size, "2^%d floats", s ? 20 : 26);
    c.hf[0] = random_floats(c.n, 0.5f, 1.5f);
    c.d[0] = upload(c.hf[0], (size_t)c.n * 4);
    int blocks = (int)grid_of(c.n, 512);
    c.d[1] = c.out = upload(NULL, c.out_size = (size_t)blocks * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.n), c.nargs = 3;
    c.grid = KCRT_DIM1(blocks), c.block = KCRT_DIM1(256);
    c.bytes = 4.0 * c.n + 4.0 * blocks;
    c.verify = verify_reduce;
  } else if (!strcmp(row, "transpose")) {
    c.file = c.kernel = "transpose";
    c.w = c.h = two_d;
    snprintf(c.size, sizeof c.size, "%dx%d floats", c.w, c.h);
    size_t n = (size_t)c.w * c.h;
    c.hf[0] = random_floats(n, -1000, 1000);
    c.d[0] = upload(c.hf[0], n * 4);
    c.d[1] = c.out = upload(NULL, c.out_size = n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[1]), c.args[1] = KCRT_ARG_BUFFER(c.d[0]);
    c.args[2] = KCRT_ARG_VALUE(c.w), c.args[3] = KCRT_ARG_VALUE(c.h), c.nargs = 4;
    c.grid = KCRT_DIM3(grid_of(c.w, 32), grid_of(c.h, 32), 1), c.block = KCRT_DIM3(32, 8, 1);
    c.bytes = 8.0 * n;
    c.verify = verify_transpose;
  } else if (!strcmp(row, "matmul")) {
    c.file = c.kernel = "matmul";
    c.m = c.n = c.kk = s ? 256 : 4096;
    snprintf(c.size, sizeof c.size, "%d^3", c.m);
    c.hf[0] = random_floats((size_t)c.m * c.kk, -1, 1);
    c.hf[1] = random_floats((size_t)c.kk * c.n, -1, 1);
    c.d[0] = upload(c.hf[0], (size_t)c.m * c.kk * 4);
    c.d[1] = upload(c.hf[1], (size_t)c.kk * c.n * 4);
    c.d[2] = c.out = upload(NULL, c.out_size = (size_t)c.m * c.n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_BUFFER(c.d[2]), c.args[3] = KCRT_ARG_VALUE(c.m);
    c.args[4] = KCRT_ARG_VALUE(c.n), c.args[5] = KCRT_ARG_VALUE(c.kk), c.nargs = 6;
    c.grid = KCRT_DIM3(grid_of(c.n, 16), grid_of(c.m, 16), 1), c.block = KCRT_DIM3(16, 16, 1);
    c.flops = 2.0 * c.m * c.n * c.kk;
    c.verify = verify_matmul;
  } else if (!strcmp(row, "histogram")) {
    /* Uniform bytes; 8 blocks per compute unit over a grid-stride loop. The bins are not
     * cleared between timed launches (the counts just accumulate, far below 2^32): clearing
     * them would put a blocking host transfer between launches. */
    c.file = c.kernel = "histogram";
    c.n = s ? 1 << 22 : 1 << 28;
    snprintf(c.size, sizeof c.size, "2^%d bytes", s ? 22 : 28);
    c.hb = xmalloc((size_t)c.n);
    c.hist = calloc(256, sizeof *c.hist);
    if (!c.hist) fatal("out of host memory");
    for (int i = 0; i < c.n; i += 8) {
      uint64_t r = rnd();
      for (int j = 0; j < 8 && i + j < c.n; j++, r >>= 8) {
        c.hb[i + j] = (unsigned char)r;
        c.hist[(unsigned char)r]++;
      }
    }
    c.d[0] = upload(c.hb, (size_t)c.n);
    c.d[1] = c.out = upload(NULL, c.out_size = 256 * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_VALUE(c.n);
    c.args[2] = KCRT_ARG_BUFFER(c.d[1]), c.nargs = 3;
    uint64_t g = grid_of(c.n, 256);
    c.grid = KCRT_DIM1(g < (uint64_t)cu * 8 ? g : (uint64_t)cu * 8), c.block = KCRT_DIM1(256);
    c.bytes = c.n;
    c.reset = reset_histogram;
    c.verify = verify_histogram;
  } else if (!strcmp(row, "atomic_wrap")) {
    /* 16,384 threads on two words (cuda-samples simpleAtomicIntrinsics' contention), reps
     * increments and decrements each; the words are reset before the checked launch. */
    c.file = c.kernel = "atomic_wrap";
    c.n = 64 * 256, c.kk = s ? 4 : 64, c.m = 1000003;
    snprintf(c.size, sizeof c.size, "%d threads x %d", c.n, c.kk);
    c.d[0] = c.out = upload(NULL, c.out_size = 8);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_VALUE(c.m);
    c.args[2] = KCRT_ARG_VALUE(c.kk), c.nargs = 3;
    c.grid = KCRT_DIM1(64), c.block = KCRT_DIM1(256);
    c.reset = reset_atomic_wrap;
    c.verify = verify_atomic_wrap;
  } else if (!strcmp(row, "bitcount")) {
    /* Words of every density (the loop runs once per set bit): each the AND of 1 to 3
     * random words. */
    c.file = c.kernel = "bitcount";
    c.n = one_d / 4;
    snprintf(c.size, sizeof c.size, "2^%d words", s ? 18 : 24);
    uint64_t *w = xmalloc((size_t)c.n * 8);
    for (int i = 0; i < c.n; i++) {
      w[i] = rnd();
      for (int k = i % 3; k > 0; k--) w[i] &= rnd();
    }
    c.hb = (unsigned char *)w;
    c.d[0] = upload(w, (size_t)c.n * 8);
    c.d[1] = c.out = upload(NULL, c.out_size = (size_t)c.n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.n), c.nargs = 3;
    c.grid = KCRT_DIM1(grid_of(c.n, 256)), c.block = KCRT_DIM1(256);
    c.bytes = 12.0 * c.n;
    c.verify = verify_bitcount;
  } else if (!strcmp(row, "dmath") || !strcmp(row, "ddiv")) {
    bool dv = row[1] == 'd';
    c.file = c.kernel = dv ? "ddiv" : "dmath";
    c.n = one_d / 4;
    snprintf(c.size, sizeof c.size, "2^%d doubles", s ? 18 : 24);
    int nin = dv ? 2 : 1;
    for (int k = 0; k < nin; k++) {
      c.hd[k] = random_doubles((size_t)c.n, dv ? 0.5 : 0.1, dv ? 100 : 10);
      c.d[k] = upload(c.hd[k], (size_t)c.n * 8);
      c.args[k] = KCRT_ARG_BUFFER(c.d[k]);
    }
    c.d[nin] = c.out = upload(NULL, c.out_size = (size_t)c.n * 8);
    c.args[nin] = KCRT_ARG_BUFFER(c.out), c.args[nin + 1] = KCRT_ARG_VALUE(c.n);
    c.nargs = nin + 2;
    c.grid = KCRT_DIM1(grid_of(c.n, 128)), c.block = KCRT_DIM1(128);
    c.bytes = 8.0 * (nin + 1) * c.n;
    c.verify = dv ? verify_ddiv : verify_dmath;
  } else if (!strcmp(row, "dreduce")) {
    c.file = c.kernel = "dreduce";
    c.n = one_d / 2;
    snprintf(c.size, sizeof c.size, "2^%d doubles", s ? 19 : 25);
    c.hd[0] = random_doubles((size_t)c.n, -1, 1);
    c.d[0] = upload(c.hd[0], (size_t)c.n * 8);
    uint64_t g = grid_of(c.n, 256);
    g = g < (uint64_t)cu * 8 ? g : (uint64_t)cu * 8;
    c.d[1] = c.out = upload(NULL, c.out_size = (size_t)g * 8);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.n), c.nargs = 3;
    c.grid = KCRT_DIM1(g), c.block = KCRT_DIM1(256);
    c.bytes = 8.0 * c.n;
    c.verify = verify_dreduce;
  } else if (!strcmp(row, "sprod")) {
    /* 256 vectors of 2^16 floats (2^24 products), 128 blocks: cuda-samples' scalarProd
     * launch at 16 times its vector length. */
    c.file = c.kernel = "sprod";
    c.m = 256, c.kk = one_d / 4 / 256;
    snprintf(c.size, sizeof c.size, "256 x 2^%d floats", s ? 10 : 16);
    size_t n = (size_t)c.m * c.kk;
    c.hf[0] = random_floats(n, -1, 1), c.hf[1] = random_floats(n, -1, 1);
    c.d[0] = upload(c.hf[0], n * 4), c.d[1] = upload(c.hf[1], n * 4);
    c.d[2] = c.out = upload(NULL, c.out_size = (size_t)c.m * 4);
    for (int k = 0; k < 3; k++) c.args[k] = KCRT_ARG_BUFFER(c.d[k]);
    c.args[3] = KCRT_ARG_VALUE(c.m), c.args[4] = KCRT_ARG_VALUE(c.kk), c.nargs = 5;
    c.grid = KCRT_DIM1(128), c.block = KCRT_DIM1(256);
    c.bytes = 8.0 * n;
    c.verify = verify_sprod;
  } else if (!strcmp(row, "stencil1d")) {
    c.file = "stencil", c.kernel = "stencil1d";
    c.n = one_d;
    snprintf(c.size, sizeof c.size, "2^%d floats", s ? 20 : 26);
    c.hf[0] = random_floats(c.n, 1, 10);
    c.d[0] = upload(c.hf[0], (size_t)c.n * 4);
    c.d[1] = c.out = upload(NULL, c.out_size = (size_t)c.n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.n), c.nargs = 3;
    c.grid = KCRT_DIM1(grid_of(c.n, 256)), c.block = KCRT_DIM1(256);
    c.bytes = 8.0 * c.n;
    c.verify = verify_stencil1d;
  } else if (!strcmp(row, "stencil2d")) {
    c.file = "stencil", c.kernel = "stencil2d";
    c.w = c.h = two_d;
    snprintf(c.size, sizeof c.size, "%dx%d floats", c.w, c.h);
    size_t n = (size_t)c.w * c.h;
    c.hf[0] = random_floats(n, 1, 10);
    c.d[0] = upload(c.hf[0], n * 4);
    c.d[1] = c.out = upload(NULL, c.out_size = n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.w), c.args[3] = KCRT_ARG_VALUE(c.h), c.nargs = 4;
    c.grid = KCRT_DIM3(grid_of(c.w, 16), grid_of(c.h, 16), 1), c.block = KCRT_DIM3(16, 16, 1);
    c.bytes = 8.0 * n;
    c.verify = verify_stencil2d;
  } else if (!strcmp(row, "blackscholes")) {
    c.file = c.kernel = "blackscholes";
    c.n = one_d / 4;
    c.r = 0.02, c.v = 0.30;
    snprintf(c.size, sizeof c.size, "2^%d options", s ? 18 : 24);
    static const double lo[3] = {5, 1, 0.25}, hi[3] = {30, 100, 10}; /* S, X, T */
    for (int k = 0; k < 3; k++) {
      c.hd[k] = xmalloc((size_t)c.n * 8);
      for (int i = 0; i < c.n; i++) c.hd[k][i] = lo[k] + (hi[k] - lo[k]) * (rnd() >> 11) * 0x1p-53;
      c.d[k] = upload(c.hd[k], (size_t)c.n * 8);
    }
    c.d[3] = c.out = upload(NULL, c.out_size = (size_t)c.n * 8);
    c.d[4] = upload(NULL, (size_t)c.n * 8);
    for (int k = 0; k < 5; k++) c.args[k] = KCRT_ARG_BUFFER(c.d[k]);
    c.args[5] = KCRT_ARG_VALUE(c.r), c.args[6] = KCRT_ARG_VALUE(c.v);
    c.args[7] = KCRT_ARG_VALUE(c.n), c.nargs = 8;
    c.grid = KCRT_DIM1(grid_of(c.n, 128)), c.block = KCRT_DIM1(128);
    c.bytes = 40.0 * c.n;
    c.reset = reset_blackscholes;
    c.verify = verify_blackscholes;
  } else if (!strcmp(row, "nbody")) {
    c.file = c.kernel = "nbody";
    c.n = s ? 2048 : 32768;
    snprintf(c.size, sizeof c.size, "%d bodies", c.n);
    c.hf[0] = xmalloc((size_t)c.n * 16);
    for (int i = 0; i < c.n; i++) {
      for (int k = 0; k < 3; k++) c.hf[0][4 * i + k] = rndf(-10, 10);
      c.hf[0][4 * i + 3] = rndf(0.5f, 2);
    }
    c.d[0] = upload(c.hf[0], (size_t)c.n * 16);
    c.d[1] = c.out = upload(NULL, c.out_size = (size_t)c.n * 16);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.n), c.nargs = 3;
    c.grid = KCRT_DIM1(c.n / 256), c.block = KCRT_DIM1(256);
    c.flops = 20.0 * c.n * c.n; /* the customary count per interaction (rsqrt as 4) */
    c.verify = verify_nbody;
  } else if (!strcmp(row, "scan")) {
    c.file = c.kernel = "scan";
    c.n = one_d;
    snprintf(c.size, sizeof c.size, "2^%d ints", s ? 20 : 26);
    c.hi = xmalloc((size_t)c.n * 4);
    for (int i = 0; i < c.n; i++) c.hi[i] = (int)(rnd() % 2001) - 1000;
    c.d[0] = upload(c.hi, (size_t)c.n * 4);
    c.d[1] = c.out = upload(NULL, c.out_size = (size_t)c.n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.n), c.nargs = 3;
    c.grid = KCRT_DIM1(grid_of(c.n, 256)), c.block = KCRT_DIM1(256);
    c.bytes = 8.0 * c.n;
    c.verify = verify_scan;
  } else if (!strcmp(row, "conv") || !strcmp(row, "copy")) {
    bool conv = row[1] == 'o' && row[2] == 'n';
    c.file = c.kernel = row;
    c.n = one_d;
    snprintf(c.size, sizeof c.size, "2^%d floats", s ? 20 : 26);
    c.hf[0] = random_floats(c.n, 1, 10);
    c.d[0] = upload(c.hf[0], (size_t)c.n * 4);
    c.d[1] = c.out = upload(NULL, c.out_size = (size_t)c.n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]), c.args[1] = KCRT_ARG_BUFFER(c.d[1]);
    c.args[2] = KCRT_ARG_VALUE(c.n), c.nargs = 3;
    c.grid = KCRT_DIM1(grid_of(c.n, conv ? 256 : 1024)), c.block = KCRT_DIM1(256);
    c.bytes = 8.0 * c.n;
    c.verify = conv ? verify_conv : verify_copy;
  } else if (!strcmp(row, "bs_float2")) {
    /* Two options per thread (float2), blocks of 128. */
    c.file = row, c.kernel = "bs_float2";
    c.n = one_d / 4;
    c.r = 0.02, c.v = 0.30;
    snprintf(c.size, sizeof c.size, "2^%d options", s ? 18 : 24);
    static const float lo[3] = {5, 1, 0.25f}, hi[3] = {30, 100, 10}; /* S, X, T */
    for (int k = 0; k < 3; k++) {
      c.hf[k] = random_floats(c.n, lo[k], hi[k]);
      c.d[k] = upload(c.hf[k], (size_t)c.n * 4);
    }
    c.d[3] = c.out = upload(NULL, c.out_size = (size_t)c.n * 4);
    c.d[4] = upload(NULL, (size_t)c.n * 4);
    c.rf = (float)c.r, c.vf = (float)c.v;
    c.args[0] = KCRT_ARG_BUFFER(c.d[3]), c.args[1] = KCRT_ARG_BUFFER(c.d[4]);
    for (int k = 0; k < 3; k++) c.args[2 + k] = KCRT_ARG_BUFFER(c.d[k]);
    c.args[5] = KCRT_ARG_VALUE(c.rf), c.args[6] = KCRT_ARG_VALUE(c.vf);
    c.args[7] = KCRT_ARG_VALUE(c.n), c.nargs = 8;
    c.grid = KCRT_DIM1(grid_of((uint64_t)c.n / 2, 128)), c.block = KCRT_DIM1(128);
    c.bytes = 20.0 * c.n;
    c.reset = reset_bs_float2;
    c.verify = verify_bs_float2;
  } else if (!strcmp(row, "transpose_tiled")) {
    /* A square matrix (its width is the grid's), 32x8 blocks. */
    c.file = row, c.kernel = "transpose_tiled";
    c.w = c.h = two_d;
    snprintf(c.size, sizeof c.size, "%dx%d floats", c.w, c.h);
    size_t n = (size_t)c.w * c.h;
    c.hf[0] = random_floats(n, -1000, 1000);
    c.d[0] = upload(c.hf[0], n * 4);
    c.d[1] = c.out = upload(NULL, c.out_size = n * 4);
    c.args[0] = KCRT_ARG_BUFFER(c.d[1]), c.args[1] = KCRT_ARG_BUFFER(c.d[0]), c.nargs = 2;
    c.grid = KCRT_DIM3(grid_of(c.w, 32), grid_of(c.h, 32), 1), c.block = KCRT_DIM3(32, 8, 1);
    c.bytes = 8.0 * n;
    c.verify = verify_transpose;
  } else if (!strcmp(row, "resize_img") || !strcmp(row, "resize_buf") || !strcmp(row, "blur_img") ||
             !strcmp(row, "blur_buf")) {
    /* A one-channel float image of two_d^2 random texels in [0, 1), as a CL_R/CL_FLOAT image
     * (the _img rows; the nvcc twins a texture object over a CUDA array) or a buffer (the _buf
     * rows). resize: bilinear to 7/8 of each side (a ratio whose weights vary from pixel to
     * pixel); blur: 5x5 Gaussian, same size. 16x16 blocks. */
    bool img = strstr(row, "_img") != NULL, resize = row[0] == 'r';
    c.file = c.kernel = row;
    c.w = c.h = two_d;
    size_t n = (size_t)c.w * c.h;
    c.hf[0] = random_floats(n, 0, 1);
    if (img) {
      kcrt_image_desc d = {KCRT_IMAGE_2D, KCRT_R, KCRT_FLOAT, (size_t)c.w, (size_t)c.h, 0, 0};
      must(kcrt_image_create(G.dev, &d, &c.img), "kcrt_image_create");
      must(kcrt_image_write(c.img, c.hf[0]), "kcrt_image_write");
      c.linear = resize;
    } else {
      c.d[0] = upload(c.hf[0], n * 4);
    }
    c.args[0] = KCRT_ARG_BUFFER(c.d[0]); /* replaced by the image or texture at launch */
    if (resize) {
      c.n = c.w / 8 * 7, c.m = c.h / 8 * 7; /* output width, height */
      c.rf = (float)c.w / (float)c.n, c.vf = (float)c.h / (float)c.m;
      snprintf(c.size, sizeof c.size, "%d^2 -> %d^2 floats", c.w, c.n);
      c.d[1] = c.out = upload(NULL, c.out_size = (size_t)c.n * c.m * 4);
      int k = 1;
      c.args[k++] = KCRT_ARG_BUFFER(c.d[1]);
      if (!img) c.args[k++] = KCRT_ARG_VALUE(c.w), c.args[k++] = KCRT_ARG_VALUE(c.h);
      c.args[k++] = KCRT_ARG_VALUE(c.n), c.args[k++] = KCRT_ARG_VALUE(c.m);
      c.args[k++] = KCRT_ARG_VALUE(c.rf), c.args[k++] = KCRT_ARG_VALUE(c.vf), c.nargs = k;
      c.grid = KCRT_DIM3(grid_of(c.n, 16), grid_of(c.m, 16), 1);
      c.bytes = 4.0 * n + 4.0 * c.n * c.m;
      c.verify = verify_resize;
    } else {
      snprintf(c.size, sizeof c.size, "%dx%d floats", c.w, c.h);
      c.d[1] = c.out = upload(NULL, c.out_size = n * 4);
      c.args[1] = KCRT_ARG_BUFFER(c.d[1]), c.args[2] = KCRT_ARG_VALUE(c.w);
      c.args[3] = KCRT_ARG_VALUE(c.h), c.nargs = 4;
      c.grid = KCRT_DIM3(grid_of(c.w, 16), grid_of(c.h, 16), 1);
      c.bytes = 8.0 * n;
      c.verify = verify_blur;
    }
    c.block = KCRT_DIM3(16, 16, 1);
  } else {
    fatal("unknown row '%s'", row);
  }
  measure(&c);
  free_case(&c);
}

static const char *const rows[] = {
    "atomic_wrap",     "copy",       "vecadd",     "saxpy",     "reduce",
    "transpose",       "matmul",     "histogram",  "stencil1d", "stencil2d",
    "blackscholes",    "nbody",      "scan",       "conv",      "bs_float2",
    "transpose_tiled", "bitcount",   "dmath",      "ddiv",      "dreduce",
    "sprod",           "resize_img", "resize_buf", "blur_img",  "blur_buf"};

int main(int argc, char **argv) {
  const char *only = NULL;
  bool require_gpu = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--small") || !strcmp(a, "--require-gpu")) {
      if (a[2] == 's')
        G.small = true;
      else
        require_gpu = true;
      continue;
    }
    if (!v) fatal("%s needs a value (see the comment at the top of kernel_time.c)", a);
    i++;
    if (!strcmp(a, "-f")) {
      const char *eq = strchr(v, '=');
      if (!eq || eq == v || G.nforms == MAX_FORMS) fatal("bad form '%s' (want LABEL=DIR)", v);
      Form *f = &G.forms[G.nforms++];
      f->label = strndup(v, (size_t)(eq - v));
      f->dir = eq + 1;
    } else if (!strcmp(a, "-e")) {
      if (!G.nforms || !strchr(v, '=') || G.forms[G.nforms - 1].nenv == MAX_ENV)
        fatal("-e VAR=VALUE must follow a -f (at most %d per form)", MAX_ENV);
      Form *f = &G.forms[G.nforms - 1];
      f->env[f->nenv++] = v;
    } else if (!strcmp(a, "-r")) {
      G.ref = -2;
      for (int j = 0; j < G.nforms; j++)
        if (!strcmp(G.forms[j].label, v)) G.ref = j;
      if (G.ref < 0) fatal("-r %s: no such form (give -r after the -f options)", v);
    } else if (!strcmp(a, "-k")) {
      only = v;
    } else if (!strcmp(a, "-n")) {
      G.n = atoi(v);
    } else if (!strcmp(a, "-w")) {
      G.warm = atoi(v);
    } else if (!strcmp(a, "--max-s")) {
      G.max_s = atof(v);
    } else {
      fatal("unknown option %s", a);
    }
  }
  if (!G.nforms) fatal("no forms: give -f LABEL=DIR (see the comment at the top of kernel_time.c)");
  if (G.n < 1) G.n = 1;
  G.n = (G.n + ROUNDS - 1) / ROUNDS * ROUNDS; /* whole rounds */
  if (G.warm < 0) G.warm = 0;
  if (G.ref == 0) G.ref = -1; /* a form against itself says nothing */

  kcrt_status st = kcrt_device_open_default(&G.dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    printf("kernel_time: no device (%s)\n", kcrt_last_error());
    return 77;
  }
  must(st, "kcrt_device_open_default");
  must(kcrt_device_get_info(G.dev, &G.info), "kcrt_device_get_info");
  if (require_gpu && G.info.type != KCRT_DEVICE_GPU) {
    printf("kernel_time: skipped: the device (%s, %s) is not a GPU\n", G.info.name,
           G.info.platform);
    kcrt_device_close(G.dev);
    return 77;
  }

  time_t t = time(NULL);
  char day[32];
  strftime(day, sizeof day, "%Y-%m-%d", gmtime(&t));
  printf("Kernel time on %s (%s %s, driver %s), %s. Median of %d timed launches per form after "
         "%d warm-up ones (kcrt events, device time); every form's output checked against a "
         "host reference.\n\n",
         G.info.name, G.info.backend == KCRT_BACKEND_CUDA ? "CUDA" : "OpenCL", G.info.platform,
         G.info.driver_version, day, G.n, G.warm);
  G.copy_gbs = copy_rate();
  if (G.copy_gbs > 0)
    printf("Device-to-device copy (kcrt_buffer_copy, %s, read + written): %.0f GB/s.\n\n",
           G.small ? "4 MiB" : "256 MiB", G.copy_gbs);
  printf("| kernel | size |");
  for (int fi = 0; fi < G.nforms; fi++) printf(" %s ms |", G.forms[fi].label);
  if (G.ref >= 0) printf(" %s / %s |", G.forms[0].label, G.forms[G.ref].label);
  printf(" %s |", G.forms[0].label);
  if (G.ref > 0) printf(" %s |", G.forms[G.ref].label);
  printf(" %s %% of D2D copy | launches |\n|---|---|", G.forms[0].label);
  for (int fi = 0; fi < G.nforms + (G.ref >= 0) + 1 + (G.ref > 0) + 2; fi++) printf("---:|");
  printf("\n");
  fflush(stdout);

  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
    if (only) {
      /* Match whole comma-separated names: "stencil" selects both stencil rows. */
      bool want = false;
      const char *p = only;
      while (*p && !want) {
        size_t len = strcspn(p, ",");
        want = (len == strlen(rows[r]) || (len == 7 && !strncmp(p, "stencil", 7))) &&
               !strncmp(p, rows[r], len);
        p += len + (p[len] == ',');
      }
      if (!want) continue;
    }
    run_row(rows[r]);
  }
  for (int fi = 0; fi < G.nforms; fi++) flush_na(&G.forms[fi]);
  bool gap = true;
  for (int fi = 1; fi < G.nforms; fi++) {
    if (!G.rcount[fi]) continue;
    const char *x = fi == G.ref ? G.forms[0].label : G.forms[fi].label;
    const char *y = fi == G.ref ? G.forms[fi].label : G.forms[0].label;
    printf("%s%s / %s: geometric mean %.3f over %d rows, largest %.3f (%s)\n", gap ? "\n" : "", x,
           y, exp(G.lsum[fi] / G.rcount[fi]), G.rcount[fi], G.rmax[fi], G.rmax_row[fi]);
    gap = false;
  }
  if (G.notes[0]) printf("\n%s", G.notes);
  kcrt_device_close(G.dev);
  for (int fi = 0; fi < G.nforms; fi++) free((char *)G.forms[fi].label);
  return G.wrong ? 1 : 0;
}
