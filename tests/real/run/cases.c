/* cases.c — one runner per registry-corpus kernel (tests/corpus: named by package and file in
 * EXPECT next to this file): random inputs, a host reference in C written from the kernel's
 * meaning (not by calling it), the kernel on both paths (real_run.h), every element
 * compared. Float bounds are stated at each comparison; "exact" means bit for bit.
 *
 * The host references are compiled with -ffp-contract=off: each float operation is rounded
 * as C writes it. A kernel compiler may contract a*b+c into one fused multiply-add, which
 * rounds once; that and the OpenCL accuracy of sqrt / division (up to 3 and 2.5 ulp) is what
 * the float bounds allow for. */
#include "real_run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define G1(x)    ((size_t[3]){(x), 1, 1})
#define G2(x, y) ((size_t[3]){(x), (y), 1})
#define NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* The paths that have a device here. */
#define FOR_PATHS(c, p)                                                                            \
  for (int p = 0; p < NPATHS; p++)                                                                 \
    if ((c)->dev[p])

static size_t round_up(size_t n, size_t m) {
  return (n + m - 1) / m * m;
}

static void *out_pair(void *out[NPATHS], size_t bytes) {
  for (int p = 0; p < NPATHS; p++) out[p] = rt_xalloc(bytes);
  return out[0];
}

/* ---------------------------------------------------------------- PyOpenCL demo.py: sum */

static void run_pyopencl_demo_sum(Ctx *c) {
  size_t n = 256 * (size_t)rt_int(&c->rt, 64, 256);
  float *a = rt_xalloc(n * 4), *b = rt_xalloc(n * 4), *ref = rt_xalloc(n * 4);
  fill_f32(c, a, n, -1000, 1000);
  fill_f32(c, b, n, -1000, 1000);
  for (size_t i = 0; i < n; i++) ref[i] = a[i] + b[i];
  void *out[NPATHS];
  out_pair(out, n * 4);
  FOR_PATHS(c, p) {
    DBuf *da = dev_upload(c, p, a, n * 4), *db = dev_upload(c, p, b, n * 4);
    DBuf *dc = dev_alloc(c, p, n * 4);
    Arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dc)};
    dev_launch(c, p, "sum", 1, G1(n), G1(256), args, NARGS(args));
    dev_download(c, p, dc, out[p], n * 4);
    cmp_f32(c, p, "c", out[p], ref, n, 0, 0); /* one correctly rounded add: exact */
  }
  same_on_both_paths(c, "c", out, n * 4);
}

/* ---------------------------------------------------------------- PyOpenCL transpose */

static void transpose_case(Ctx *c, int with_local) {
  size_t w = 16 * (size_t)rt_int(&c->rt, 2, 40), h = 16 * (size_t)rt_int(&c->rt, 2, 40);
  float *a = rt_xalloc(w * h * 4), *ref = rt_xalloc(w * h * 4);
  fill_f32(c, a, w * h, -1, 1);
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w; x++) ref[y + x * h] = a[x + y * w];
  unsigned uw = (unsigned)w, uh = (unsigned)h;
  void *out[NPATHS];
  out_pair(out, w * h * 4);
  FOR_PATHS(c, p) {
    DBuf *da = dev_upload(c, p, a, w * h * 4), *dt = dev_alloc(c, p, w * h * 4);
    /* pyopencl passes cl.LocalMemory(4*block_size*(block_size+1)). */
    Arg args[] = {A_BUF(dt), A_BUF(da), A_VAL(uw), A_VAL(uh), A_LOCAL(4 * 16 * 17)};
    dev_launch(c, p, "transpose", 2, G2(w, h), G2(16, 16), args, with_local ? 5 : 4);
    dev_download(c, p, dt, out[p], w * h * 4);
    cmp_bytes(c, p, "a_t", out[p], ref, w * h * 4);
  }
  same_on_both_paths(c, "a_t", out, w * h * 4);
}

static void run_pyopencl_transpose_naive(Ctx *c) {
  transpose_case(c, 0);
}
static void run_pyopencl_transpose_local(Ctx *c) {
  transpose_case(c, 1);
}

/* ---------------------------------------------------------------- PyOpenCL mandelbrot */

static void run_pyopencl_mandelbrot(Ctx *c) {
  size_t w = 64 * (size_t)rt_int(&c->rt, 2, 6), h = (size_t)rt_int(&c->rt, 64, 256), n = w * h;
  uint16_t maxiter = (uint16_t)rt_int(&c->rt, 20, 200);
  float *q = rt_xalloc(n * 8);
  uint16_t *ref = rt_xalloc(n * 2);
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w; x++) {
      q[2 * (y * w + x)] = -2.13f + 2.9f * (float)x / (float)w;
      q[2 * (y * w + x) + 1] = 1.3f - 2.6f * (float)y / (float)h;
    }
  for (size_t i = 0; i < n; i++) {
    float nreal, real = 0, imag = 0;
    ref[i] = 0;
    for (int it = 0; it < maxiter; it++) {
      nreal = real * real - imag * imag + q[2 * i];
      imag = 2 * real * imag + q[2 * i + 1];
      real = nreal;
      if (real * real + imag * imag > 4.0f) {
        ref[i] = (uint16_t)it;
        break;
      }
    }
  }
  void *out[NPATHS];
  out_pair(out, n * 2);
  FOR_PATHS(c, p) {
    DBuf *dq = dev_upload(c, p, q, n * 8), *dout = dev_alloc(c, p, n * 2);
    Arg args[] = {A_BUF(dq), A_BUF(dout), A_VAL(maxiter)};
    dev_launch(c, p, "mandelbrot", 1, G1(n), G1(64), args, NARGS(args));
    dev_download(c, p, dout, out[p], n * 2);
    /* The kernel records the first iteration at which |z|^2 > 4. A fused multiply-add in the
     * iteration rounds differently from the host, which can move the escape of a point near
     * the set's boundary. So the bound: every pixel within 2 iterations of the host, except at
     * most 1% of them. */
    const uint16_t *got = out[p];
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
      int d = (int)got[i] - (int)ref[i];
      if (d >= -2 && d <= 2) continue;
      if (bad < 8)
        fprintf(stderr, "%s: %s: output[%zu] = %u, host %u\n", c->name, path_name(p), i, got[i],
                ref[i]);
      bad++;
    }
    if (bad * 100 > n)
      rt_fail(&c->rt,
              "%s: output: %zu of %zu pixels are more than 2 iterations from the host "
              "(bound: 1%%)",
              path_name(p), bad, n);
  }
}

/* ---------------------------------------------------------------- ggml (llama.cpp) OpenCL */

/* ggml's OpenCL kernels take each tensor as a buffer and a byte offset into it (ulong), which
 * the kernel adds to the pointer itself; the runners give non-zero offsets, different for the
 * source and the destination, so a wrong offset width or scale shows. */
typedef struct Ggml {
  size_t n, off0, offd; /* elements; byte offsets (multiples of 16) */
  float *src;           /* n floats, to be placed at off0 */
} Ggml;

static Ggml ggml_setup(Ctx *c, size_t multiple, float lo, float hi) {
  Ggml g;
  g.n = multiple * (size_t)rt_int(&c->rt, 64, 4096);
  g.off0 = 16 * (size_t)rt_int(&c->rt, 0, 8);
  g.offd = 16 * (size_t)rt_int(&c->rt, 1, 8);
  g.src = rt_xalloc(g.off0 + g.n * 4);
  fill_f32(c, g.src, g.off0 / 4 + g.n, lo, hi);
  return g;
}

/* Runs KERNEL over g->n / per_item work-items with (src, off0, dst, offd, extra values...) and
 * leaves the n floats at offd of each path's destination in out[path]. */
static void ggml_run(Ctx *c, const Ggml *g, const char *kernel, size_t per_item, const Arg *extra,
                     int nextra, void *out[NPATHS]) {
  uint64_t off0 = g->off0, offd = g->offd;
  size_t dbytes = g->offd + g->n * 4;
  char *whole = rt_xalloc(dbytes);
  out_pair(out, g->n * 4); /* rt_xalloc: freed when the run ends */
  FOR_PATHS(c, p) {
    DBuf *ds = dev_upload(c, p, g->src, g->off0 + g->n * 4), *dd = dev_alloc(c, p, dbytes);
    Arg args[8] = {A_BUF(ds), A_VAL(off0), A_BUF(dd), A_VAL(offd)};
    for (int i = 0; i < nextra; i++) args[4 + i] = extra[i];
    dev_launch(c, p, kernel, 1, G1(g->n / per_item), G1(64), args, 4 + nextra);
    dev_download(c, p, dd, whole, dbytes);
    memcpy(out[p], whole + g->offd, g->n * 4);
  }
}

static const float *ggml_src(const Ggml *g) {
  return (const float *)((const char *)g->src + g->off0);
}

/* scale.cl: dst = src * scale + bias, scalar (kernel_scale_f32) and float4 (kernel_scale_f32_4)
 * forms on the same data. */
static void run_ggml_scale(Ctx *c) {
  Ggml g = ggml_setup(c, 256, -100, 100);
  float scale = rt_float(&c->rt, -4, 4), bias = rt_float(&c->rt, -10, 10);
  float *ref = rt_xalloc(g.n * 4);
  const float *s = ggml_src(&g);
  for (size_t i = 0; i < g.n; i++) ref[i] = s[i] * scale + bias;
  Arg extra[] = {A_VAL(scale), A_VAL(bias)};
  static const char *const kernels[2] = {"kernel_scale_f32", "kernel_scale_f32_4"};
  for (int k = 0; k < 2; k++) {
    void *out[NPATHS];
    ggml_run(c, &g, kernels[k], k ? 4 : 1, extra, NARGS(extra), out);
    FOR_PATHS(c, p) {
      /* One multiply and one add, or one fused multiply-add: |dst| <= 410, where an ulp is
       * 3e-5; the bound (4e-3 absolute) is far above a rounding's and far below a wrong
       * element's. */
      cmp_f32(c, p, kernels[k], out[p], ref, g.n, 1e-6, 4e-3);
    }
  }
}

/* relu.cl: dst = fmax(0, src), exact. */
static void run_ggml_relu(Ctx *c) {
  Ggml g = ggml_setup(c, 64, -100, 100);
  float *ref = rt_xalloc(g.n * 4);
  const float *s = ggml_src(&g);
  for (size_t i = 0; i < g.n; i++) ref[i] = fmaxf(0.0f, s[i]);
  void *out[NPATHS];
  ggml_run(c, &g, "kernel_relu", 1, NULL, 0, out);
  FOR_PATHS(c, p) cmp_f32(c, p, "dst", out[p], ref, g.n, 0, 0);
  same_on_both_paths(c, "dst", out, g.n * 4);
}

/* clamp.cl: dst = src clamped to [min, max] by comparisons, exact. */
static void run_ggml_clamp(Ctx *c) {
  Ggml g = ggml_setup(c, 64, -100, 100);
  float lo = rt_float(&c->rt, -80, 0), hi = rt_float(&c->rt, 0, 80);
  float *ref = rt_xalloc(g.n * 4);
  const float *s = ggml_src(&g);
  for (size_t i = 0; i < g.n; i++) ref[i] = s[i] < lo ? lo : (s[i] > hi ? hi : s[i]);
  Arg extra[] = {A_VAL(lo), A_VAL(hi)};
  void *out[NPATHS];
  ggml_run(c, &g, "kernel_clamp", 1, extra, NARGS(extra), out);
  FOR_PATHS(c, p) cmp_f32(c, p, "dst", out[p], ref, g.n, 0, 0);
  same_on_both_paths(c, "dst", out, g.n * 4);
}

/* ---------------------------------------------------------------- silx addition */

/* addition.cl: res[i] = a[i] + b[i] for i < N, on a global size rounded up past N (the
 * elements past N must stay untouched). */
static void run_silx_addition(Ctx *c) {
  int n = rt_int(&c->rt, 1000, 100000);
  size_t global = round_up((size_t)n, 64);
  float *a = rt_xalloc(global * 4), *b = rt_xalloc(global * 4), *ref = rt_xalloc(global * 4);
  fill_f32(c, a, global, -1000, 1000);
  fill_f32(c, b, global, -1000, 1000);
  for (size_t i = 0; i < global; i++) ref[i] = (int)i < n ? a[i] + b[i] : -7.0f;
  void *out[NPATHS];
  out_pair(out, global * 4);
  FOR_PATHS(c, p) {
    float *init = rt_xalloc(global * 4);
    for (size_t i = 0; i < global; i++) init[i] = -7.0f;
    DBuf *da = dev_upload(c, p, a, global * 4), *db = dev_upload(c, p, b, global * 4);
    DBuf *dr = dev_upload(c, p, init, global * 4);
    Arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dr), A_VAL(n)};
    dev_launch(c, p, "addition", 1, G1(global), G1(64), args, NARGS(args));
    dev_download(c, p, dr, out[p], global * 4);
    cmp_f32(c, p, "res", out[p], ref, global, 0, 0); /* one correctly rounded add: exact */
  }
  same_on_both_paths(c, "res", out, global * 4);
}

/* image/histogram.cl: one work-group per "engine" counts its slice of the data into a __local
 * histogram with local atomic_inc, writes it to tmp_hist, and the last group to finish
 * (global atomic_inc on `processed`) sums all of them into hist and writes the bin edges.
 * Local memory as a kernel argument, local and global atomics, the last-block pattern. */
static void run_silx_histogram(Ctx *c) {
  int n = rt_int(&c->rt, 1000, 200000), bins = rt_int(&c->rt, 16, 512);
  int groups = rt_int(&c->rt, 1, 8), zero = 0, map_operation = 0;
  size_t ws = 64;
  float mini = rt_float(&c->rt, -100, 0), maxi = rt_float(&c->rt, 1, 100);
  float *data = rt_xalloc((size_t)n * 4);
  /* Values a little outside [mini, maxi] (not counted) and a few NaNs (skipped). */
  fill_f32(c, data, (size_t)n, mini - 10, maxi + 10);
  for (int i = 0; i < n; i += rt_int(&c->rt, 50, 500)) data[i] = NAN;
  int32_t *ref = rt_xalloc((size_t)bins * 4);
  float *ref_edges = rt_xalloc((size_t)(bins + 1) * 4);
  float vscale = (float)bins / (maxi - mini);
  for (int i = 0; i < n; i++) {
    float v = data[i];
    if (isnan(v) || v < mini || v > maxi) continue;
    int idx = (int)((v - mini) * vscale);
    ref[idx < 0 ? 0 : idx > bins - 1 ? bins - 1 : idx]++;
  }
  for (int j = 0; j <= bins; j++) ref_edges[j] = mini + (float)j / vscale;
  void *out[NPATHS];
  out_pair(out, (size_t)bins * 4);
  float *edges = rt_xalloc((size_t)(bins + 2) * 4);
  FOR_PATHS(c, p) {
    DBuf *dd = dev_upload(c, p, data, (size_t)n * 4), *dh = dev_alloc(c, p, (size_t)bins * 4);
    DBuf *de = dev_alloc(c, p, (size_t)(bins + 2) * 4);
    DBuf *dt = dev_alloc(c, p, (size_t)bins * (size_t)groups * 4);
    DBuf *dp = dev_upload(c, p, &zero, 4);
    Arg args[] = {
        A_BUF(dd), A_VAL(n),    A_VAL(mini), A_VAL(maxi), A_VAL(map_operation),     A_BUF(dh),
        A_BUF(de), A_VAL(bins), A_BUF(dt),   A_BUF(dp),   A_LOCAL((size_t)bins * 4)};
    dev_launch(c, p, "histogram", 1, G1(ws * (size_t)groups), G1(ws), args, NARGS(args));
    dev_download(c, p, dh, out[p], (size_t)bins * 4);
    cmp_i32(c, p, "hist", out[p], ref, (size_t)bins);
    dev_download(c, p, de, edges, (size_t)(bins + 2) * 4);
    /* mini + j / vscale: one division (OpenCL allows 2.5 ulp) and one add; |edge| <= 110. */
    cmp_f32(c, p, "edges", edges, ref_edges, (size_t)bins + 1, 1e-6, 1e-4);
    int32_t processed = -1;
    dev_download(c, p, dp, &processed, 4);
    cmp_i32(c, p, "processed (reset by the last group)", &processed, &zero, 1);
  }
  same_on_both_paths(c, "hist", out, (size_t)bins * 4);
}

const Case real_cases[] = {
    {"ggml_clamp", run_ggml_clamp},
    {"ggml_relu", run_ggml_relu},
    {"ggml_scale", run_ggml_scale},
    {"pyopencl_demo_sum", run_pyopencl_demo_sum},
    {"pyopencl_mandelbrot", run_pyopencl_mandelbrot},
    {"pyopencl_transpose_local", run_pyopencl_transpose_local},
    {"pyopencl_transpose_naive", run_pyopencl_transpose_naive},
    {"silx_addition", run_silx_addition},
    {"silx_histogram", run_silx_histogram},
};
const int real_ncases = (int)(sizeof real_cases / sizeof real_cases[0]);
