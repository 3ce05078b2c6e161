/* cases.c — one runner per corpus kernel: random inputs, a host reference in C written from
 * the kernel's meaning (not by calling it), the kernel on both paths (real_run.h), every
 * element compared. Float bounds are stated at each comparison; "exact" means bit for bit.
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

/* ---------------------------------------------------------------- HandsOnOpenCL vadd_abc */

static void run_handson_vadd_abc(Ctx *c) {
  unsigned count = (unsigned)rt_int(&c->rt, 1000, 100000);
  size_t global = round_up(count, 64);
  float *a = rt_xalloc(global * 4), *b = rt_xalloc(global * 4), *cc = rt_xalloc(global * 4);
  float *ref = rt_xalloc(count * 4);
  fill_f32(c, a, count, -10, 10);
  fill_f32(c, b, count, -10, 10);
  fill_f32(c, cc, count, -10, 10);
  for (size_t i = 0; i < count; i++) ref[i] = a[i] + b[i] + cc[i];
  void *out[NPATHS];
  out_pair(out, global * 4);
  FOR_PATHS(c, p) {
    DBuf *da = dev_upload(c, p, a, global * 4), *db = dev_upload(c, p, b, global * 4);
    DBuf *dc = dev_upload(c, p, cc, global * 4), *dd = dev_alloc(c, p, global * 4);
    Arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dc), A_BUF(dd), A_VAL(count)};
    dev_launch(c, p, "vadd", 1, G1(global), G1(64), args, NARGS(args));
    dev_download(c, p, dd, out[p], global * 4);
    cmp_f32(c, p, "d", out[p], ref, count, 0, 0); /* two adds in source order: exact */
  }
  same_on_both_paths(c, "d", out, count * 4);
}

/* ---------------------------------------------------------------- Khronos saxpy */

static void run_khronos_saxpy(Ctx *c) {
  size_t n = 128 * (size_t)rt_int(&c->rt, 64, 512);
  float a = rt_float(&c->rt, -4, 4);
  float *x = rt_xalloc(n * 4), *y = rt_xalloc(n * 4), *ref = rt_xalloc(n * 4);
  fill_f32(c, x, n, -1, 1);
  fill_f32(c, y, n, -1, 1);
  for (size_t i = 0; i < n; i++) ref[i] = a * x[i] + y[i];
  void *out[NPATHS];
  out_pair(out, n * 4);
  FOR_PATHS(c, p) {
    DBuf *dx = dev_upload(c, p, x, n * 4), *dy = dev_upload(c, p, y, n * 4);
    Arg args[] = {A_VAL(a), A_BUF(dx), A_BUF(dy)};
    dev_launch(c, p, "saxpy", 1, G1(n), G1(128), args, NARGS(args));
    dev_download(c, p, dy, out[p], n * 4);
    /* a*x+y may be fused (one rounding instead of two): |a*x| <= 4, so 2^-22 absolute. */
    cmp_f32(c, p, "y", out[p], ref, n, 1e-6, 1e-6);
  }
}

/* ---------------------------------------------------------------- Khronos Collatz */

static void run_khronos_collatz(Ctx *c) {
  size_t n = 256 * (size_t)rt_int(&c->rt, 16, 128);
  int32_t *ref = rt_xalloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    uint64_t v = i + 1;
    int steps = 0;
    while (v != 1) {
      if (v & 1) {
        uint64_t m = 3 * v + 1;
        if (m < v) {
          steps = -steps - 1;
          break;
        }
        v = m >> 1;
        steps += 2;
      } else {
        v >>= 1;
        ++steps;
      }
    }
    ref[i] = steps;
  }
  void *out[NPATHS];
  out_pair(out, n * 4);
  FOR_PATHS(c, p) {
    DBuf *dr = dev_alloc(c, p, n * 4);
    Arg args[] = {A_BUF(dr)};
    dev_launch(c, p, "Collatz", 1, G1(n), G1(64), args, NARGS(args));
    dev_download(c, p, dr, out[p], n * 4);
    cmp_i32(c, p, "result", out[p], ref, n);
  }
  same_on_both_paths(c, "result", out, n * 4);
}

/* ---------------------------------------------------------------- Khronos histogram */

/* The sample's own binary search, in C (its int/unsigned mixing included): the index of the
 * last level below `value`, 0 when there is none. */
static unsigned histo_bin(float value, const float *levels, unsigned bins) {
  int left = 0;
  unsigned right = bins;
  while ((unsigned)left < right) {
    unsigned mid = ((unsigned)left + right) / 2;
    int smaller = levels[mid] < value;
    left = smaller ? (int)(mid + 1) : left;
    right = smaller ? right : mid;
  }
  return (unsigned)(left - 1 > 0 ? left - 1 : 0);
}

static void run_khronos_histogram(Ctx *c) {
  unsigned bins = (unsigned)rt_int(&c->rt, 16, 300);
  unsigned n = 64 * (unsigned)rt_int(&c->rt, 64, 1024);
  float *levels = rt_xalloc(bins * 4), *in = rt_xalloc(n * 4);
  for (unsigned i = 0; i < bins; i++) levels[i] = (float)i / (float)bins;
  fill_f32(c, in, n, 0, 1);
  uint32_t *ref = rt_xalloc(bins * 4), *zero = rt_xalloc(bins * 4);
  for (unsigned i = 0; i < n; i++) ref[histo_bin(in[i], levels, bins)]++;
  void *out[NPATHS];
  out_pair(out, bins * 4);
  FOR_PATHS(c, p) {
    DBuf *di = dev_upload(c, p, in, n * 4), *dl = dev_upload(c, p, levels, bins * 4);
    DBuf *dh = dev_upload(c, p, zero, bins * 4);
    Arg args[] = {A_VAL(n), A_VAL(bins), A_BUF(di), A_BUF(dl), A_BUF(dh)};
    dev_launch(c, p, "histogram_global", 1, G1(n), G1(64), args, NARGS(args));
    dev_download(c, p, dh, out[p], bins * 4);
    cmp_u32(c, p, "histogram", out[p], ref, bins);
  }
  same_on_both_paths(c, "histogram", out, bins * 4);
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
      if (real * real + imag * imag > 4.) ref[i] = (uint16_t)it;
    }
  }
  void *out[NPATHS];
  out_pair(out, n * 2);
  FOR_PATHS(c, p) {
    DBuf *dq = dev_upload(c, p, q, n * 8), *dout = dev_alloc(c, p, n * 2);
    Arg args[] = {A_BUF(dq), A_BUF(dout), A_VAL(maxiter)};
    dev_launch(c, p, "mandelbrot", 1, G1(n), G1(64), args, NARGS(args));
    dev_download(c, p, dout, out[p], n * 2);
    /* The kernel records the last iteration at which |z|^2 > 4, and an escaped z grows until
     * it overflows to inf and then NaN: a fused multiply-add there (fma(r, r, -inf) = -inf
     * where r*r - inf*inf is NaN) moves that last iteration by one or two. So the bound: every
     * pixel within 2 iterations of the host, except at most 1% (points near the set's
     * boundary, where one rounding changes the escape itself). */
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

/* ---------------------------------------------------------------- Rodinia nn */

static void run_rodinia_nn(Ctx *c) {
  int n = rt_int(&c->rt, 1000, 60000);
  size_t global = round_up((size_t)n, 64);
  float *loc = rt_xalloc(global * 8), *ref = rt_xalloc((size_t)n * 4);
  for (int i = 0; i < n; i++) {
    loc[2 * i] = rt_float(&c->rt, -90, 90);
    loc[2 * i + 1] = rt_float(&c->rt, -180, 180);
  }
  float lat = rt_float(&c->rt, -90, 90), lng = rt_float(&c->rt, -180, 180);
  for (int i = 0; i < n; i++) {
    float dy = lat - loc[2 * i], dx = lng - loc[2 * i + 1];
    ref[i] = sqrtf(dy * dy + dx * dx);
  }
  void *out[NPATHS];
  out_pair(out, global * 4);
  FOR_PATHS(c, p) {
    DBuf *dl = dev_upload(c, p, loc, global * 8), *dd = dev_alloc(c, p, global * 4);
    Arg args[] = {A_BUF(dl), A_BUF(dd), A_VAL(n), A_VAL(lat), A_VAL(lng)};
    dev_launch(c, p, "NearestNeighbor", 1, G1(global), G1(64), args, NARGS(args));
    dev_download(c, p, dd, out[p], global * 4);
    /* sqrt within 3 ulp (OpenCL 1.2) after a possibly fused sum: 1e-6 relative. */
    cmp_f32(c, p, "distances", out[p], ref, (size_t)n, 1e-6, 1e-5);
  }
}

/* ---------------------------------------------------------------- Rodinia kmeans */

static void run_rodinia_kmeans(Ctx *c) {
  int npoints = 64 * rt_int(&c->rt, 16, 256), nfeatures = rt_int(&c->rt, 2, 34);
  int nclusters = rt_int(&c->rt, 2, 12);
  size_t nf = (size_t)npoints * (size_t)nfeatures;
  /* Small integer-valued features: every distance is an exact float, so the membership is
   * the same whatever the order of the sums (ties go to the first cluster, as in the kernel). */
  float *feature = rt_xalloc(nf * 4), *clusters = rt_xalloc((size_t)nclusters * nfeatures * 4);
  for (size_t i = 0; i < nf; i++) feature[i] = (float)rt_int(&c->rt, 0, 15);
  for (int i = 0; i < nclusters * nfeatures; i++) clusters[i] = (float)rt_int(&c->rt, 0, 15);
  float *swap_ref = rt_xalloc(nf * 4);
  for (int t = 0; t < npoints; t++)
    for (int i = 0; i < nfeatures; i++)
      swap_ref[(size_t)i * npoints + t] = feature[(size_t)t * nfeatures + i];
  int32_t *member_ref = rt_xalloc((size_t)npoints * 4);
  for (int pt = 0; pt < npoints; pt++) {
    float min_dist = 3.40282347e+38f;
    int index = 0;
    for (int i = 0; i < nclusters; i++) {
      float dist = 0;
      for (int l = 0; l < nfeatures; l++) {
        float d = swap_ref[(size_t)l * npoints + pt] - clusters[i * nfeatures + l];
        dist += d * d;
      }
      if (dist < min_dist) {
        min_dist = dist;
        index = i;
      }
    }
    member_ref[pt] = index;
  }
  void *swapped[NPATHS], *member[NPATHS];
  out_pair(swapped, nf * 4);
  out_pair(member, (size_t)npoints * 4);
  int offset = 0, size = npoints;
  FOR_PATHS(c, p) {
    DBuf *df = dev_upload(c, p, feature, nf * 4), *ds = dev_alloc(c, p, nf * 4);
    DBuf *dc = dev_upload(c, p, clusters, (size_t)nclusters * nfeatures * 4);
    DBuf *dm = dev_alloc(c, p, (size_t)npoints * 4);
    Arg sargs[] = {A_BUF(df), A_BUF(ds), A_VAL(npoints), A_VAL(nfeatures)};
    dev_launch(c, p, "kmeans_swap", 1, G1((size_t)npoints), G1(64), sargs, NARGS(sargs));
    Arg kargs[] = {A_BUF(ds),        A_BUF(dc),        A_BUF(dm),     A_VAL(npoints),
                   A_VAL(nclusters), A_VAL(nfeatures), A_VAL(offset), A_VAL(size)};
    dev_launch(c, p, "kmeans_kernel_c", 1, G1((size_t)npoints), G1(64), kargs, NARGS(kargs));
    dev_download(c, p, ds, swapped[p], nf * 4);
    dev_download(c, p, dm, member[p], (size_t)npoints * 4);
    cmp_bytes(c, p, "feature_swap", swapped[p], swap_ref, nf * 4);
    cmp_i32(c, p, "membership", member[p], member_ref, (size_t)npoints);
  }
  same_on_both_paths(c, "membership", member, (size_t)npoints * 4);
}

/* ---------------------------------------------------------------- Rodinia pathfinder */

static void run_rodinia_pathfinder(Ctx *c) {
  enum { BLOCK = 256, HALO = 1 };
  int cols = rt_int(&c->rt, 300, 5000), rows = rt_int(&c->rt, 2, 800);
  int pyramid = rt_int(&c->rt, 1, 20);
  int *data = rt_xalloc((size_t)rows * cols * 4);
  for (int i = 0; i < rows * cols; i++) data[i] = rt_int(&c->rt, 0, 9);
  /* The dynamic programme: each row adds its wall to the cheapest of the three cells above
   * (two at the edges). */
  int32_t *ref = rt_xalloc((size_t)cols * 4), *next = rt_xalloc((size_t)cols * 4);
  memcpy(ref, data, (size_t)cols * 4);
  for (int r = 1; r < rows; r++) {
    for (int x = 0; x < cols; x++) {
      int m = ref[x];
      if (x > 0 && ref[x - 1] < m) m = ref[x - 1];
      if (x < cols - 1 && ref[x + 1] < m) m = ref[x + 1];
      next[x] = m + data[r * cols + x];
    }
    memcpy(ref, next, (size_t)cols * 4);
  }
  /* The benchmark's host loop (Rodinia pathfinder/main.cpp). */
  int border = pyramid * HALO, small = BLOCK - pyramid * HALO * 2;
  int blockCols = cols / small + (cols % small == 0 ? 0 : 1);
  size_t global = (size_t)blockCols * BLOCK;
  void *out[NPATHS];
  out_pair(out, (size_t)cols * 4);
  int *debug = rt_xalloc(16384 * 4);
  FOR_PATHS(c, p) {
    DBuf *wall = dev_upload(c, p, data + cols, (size_t)(rows - 1) * cols * 4);
    DBuf *res[2] = {dev_upload(c, p, data, (size_t)cols * 4), dev_alloc(c, p, (size_t)cols * 4)};
    DBuf *dbg = dev_upload(c, p, debug, 16384 * 4);
    int src = 1, dst = 0, halo = HALO;
    for (int t = 0; t < rows - 1; t += pyramid) {
      int tmp = src;
      src = dst;
      dst = tmp;
      int iteration = pyramid < rows - t - 1 ? pyramid : rows - t - 1;
      Arg args[] = {A_VAL(iteration), A_BUF(wall),        A_BUF(res[src]),    A_BUF(res[dst]),
                    A_VAL(cols),      A_VAL(rows),        A_VAL(t),           A_VAL(border),
                    A_VAL(halo),      A_LOCAL(BLOCK * 4), A_LOCAL(BLOCK * 4), A_BUF(dbg)};
      dev_launch(c, p, "dynproc_kernel", 1, G1(global), G1(BLOCK), args, NARGS(args));
    }
    dev_download(c, p, res[rows > 1 ? dst : 0], out[p], (size_t)cols * 4);
    cmp_i32(c, p, "result", out[p], ref, (size_t)cols);
  }
  same_on_both_paths(c, "result", out, (size_t)cols * 4);
}

/* ---------------------------------------------------------------- HandsOnOpenCL pi */

static void pi_case(Ctx *c, const char *kernel, int width) {
  int wg = 1 << rt_int(&c->rt, 3, 7), groups = rt_int(&c->rt, 4, 64);
  int niters = 8 * rt_int(&c->rt, 4, 64);
  size_t nitems = (size_t)wg * groups;
  float step = 1.0f / (float)(nitems * niters);
  float *ref = rt_xalloc((size_t)groups * 4), *accum = rt_xalloc((size_t)wg * 4);
  for (int g = 0; g < groups; g++) {
    for (int l = 0; l < wg; l++) {
      int istart = (g * wg + l) * niters;
      float acc = 0.0f;
      for (int i = istart; i < istart + niters; i += width) {
        float s = 0;
        for (int k = 0; k < width; k++) {
          float x = width == 1 ? ((float)i + 0.5f) * step : ((float)i + (0.5f + k)) * step;
          float v = 4.0f / (1.0f + x * x);
          s = k == 0 ? v : s + v;
        }
        acc += s;
      }
      accum[l] = acc;
    }
    float sum = 0.0f;
    for (int l = 0; l < wg; l++) sum += accum[l];
    ref[g] = sum;
  }
  FOR_PATHS(c, p) {
    float *got = rt_xalloc((size_t)groups * 4);
    DBuf *dp = dev_alloc(c, p, (size_t)groups * 4);
    Arg args[] = {A_VAL(niters), A_VAL(step), A_LOCAL((size_t)wg * 4), A_BUF(dp)};
    dev_launch(c, p, kernel, 1, G1(nitems), G1((size_t)wg), args, NARGS(args));
    dev_download(c, p, dp, got, (size_t)groups * 4);
    /* Sums of at most 2^13 positive terms in the kernel's order; a fused 1+x*x and the
     * 2.5-ulp division move each term by a few ulp: 1e-5 relative. */
    cmp_f32(c, p, "partial_sums", got, ref, (size_t)groups, 1e-5, 0);
  }
}

static void run_handson_pi(Ctx *c) {
  pi_case(c, "pi", 1);
}
static void run_handson_pi_vec(Ctx *c) {
  pi_case(c, "pi", 1);
  pi_case(c, "pi_vec4", 4);
  pi_case(c, "pi_vec8", 8);
}

/* ---------------------------------------------------------------- HandsOnOpenCL matmul */

static void run_handson_matmul_block(Ctx *c) {
  enum { BS = 16 };
  unsigned N = BS * (unsigned)rt_int(&c->rt, 2, 12);
  size_t nn = (size_t)N * N;
  float *A = rt_xalloc(nn * 4), *B = rt_xalloc(nn * 4), *ref = rt_xalloc(nn * 4);
  fill_f32(c, A, nn, -1, 1);
  fill_f32(c, B, nn, -1, 1);
  /* What the kernel's index arithmetic computes: C[j*N+i], with i = Iblk*16+iloc (dimension
   * 0) and j = Jblk*16+jloc (dimension 1), is row Iblk*16+jloc of A times column
   * Jblk*16+iloc of B. */
  for (unsigned j = 0; j < N; j++)
    for (unsigned i = 0; i < N; i++) {
      unsigned Iblk = i / BS, iloc = i % BS, Jblk = j / BS, jloc = j % BS;
      float s = 0.0f;
      for (unsigned k = 0; k < N; k++)
        s += A[(Iblk * BS + jloc) * N + k] * B[k * N + Jblk * BS + iloc];
      ref[j * N + i] = s;
    }
  FOR_PATHS(c, p) {
    float *got = rt_xalloc(nn * 4);
    DBuf *da = dev_upload(c, p, A, nn * 4), *db = dev_upload(c, p, B, nn * 4);
    DBuf *dc = dev_alloc(c, p, nn * 4);
    Arg args[] = {
        A_VAL(N), A_BUF(da), A_BUF(db), A_BUF(dc), A_LOCAL(BS * BS * 4), A_LOCAL(BS * BS * 4)};
    dev_launch(c, p, "mmul", 2, G2(N, N), G2(BS, BS), args, NARGS(args));
    dev_download(c, p, dc, got, nn * 4);
    /* N <= 192 products of terms in [-1, 1], summed in order; fusing each step: 1e-5. */
    cmp_f32(c, p, "C", got, ref, nn, 1e-5, 1e-5);
  }
}

/* ---------------------------------------------------------------- HandsOnOpenCL life */

static void run_handson_gameoflife(Ctx *c) {
  enum { LX = 16, LY = 16 };
  unsigned nx = LX * (unsigned)rt_int(&c->rt, 2, 20), ny = LY * (unsigned)rt_int(&c->rt, 2, 20);
  size_t n = (size_t)nx * ny;
  char *tick = rt_xalloc(n), *ref = rt_xalloc(n);
  for (size_t i = 0; i < n; i++) tick[i] = (char)(rt_int(&c->rt, 0, 2) == 0);
  /* Conway's rules on a torus (the kernel wraps its halo around the grid). */
  for (unsigned y = 0; y < ny; y++)
    for (unsigned x = 0; x < nx; x++) {
      int nb = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          if (!dx && !dy) continue;
          unsigned xx = (x + nx + dx) % nx, yy = (y + ny + dy) % ny;
          nb += tick[yy * nx + xx] == 1;
        }
      int alive = tick[y * nx + x] == 1;
      ref[y * nx + x] = (char)(alive ? (nb == 2 || nb == 3) : nb == 3);
    }
  void *out[NPATHS];
  out_pair(out, n);
  FOR_PATHS(c, p) {
    DBuf *dt = dev_upload(c, p, tick, n), *dk = dev_alloc(c, p, n);
    Arg args[] = {A_BUF(dt), A_BUF(dk), A_VAL(nx), A_VAL(ny), A_LOCAL((LX + 2) * (LY + 2))};
    dev_launch(c, p, "accelerate_life", 2, G2(nx, ny), G2(LX, LY), args, NARGS(args));
    dev_download(c, p, dk, out[p], n);
    cmp_bytes(c, p, "tock", out[p], ref, n);
  }
  same_on_both_paths(c, "tock", out, n);
}

/* ---------------------------------------------------------------- PolyBench gemm, 2DConv */

static void run_polybench_gemm(Ctx *c) {
  int ni = rt_int(&c->rt, 16, 200), nj = rt_int(&c->rt, 16, 200), nk = rt_int(&c->rt, 16, 200);
  float alpha = rt_float(&c->rt, -2, 2), beta = rt_float(&c->rt, -2, 2);
  float *a = rt_xalloc((size_t)ni * nk * 4), *b = rt_xalloc((size_t)nk * nj * 4);
  float *cc = rt_xalloc((size_t)ni * nj * 4), *ref = rt_xalloc((size_t)ni * nj * 4);
  fill_f32(c, a, (size_t)ni * nk, -1, 1);
  fill_f32(c, b, (size_t)nk * nj, -1, 1);
  fill_f32(c, cc, (size_t)ni * nj, -1, 1);
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      float s = cc[i * nj + j] * beta;
      for (int k = 0; k < nk; k++) s += alpha * a[i * nk + k] * b[k * nj + j];
      ref[i * nj + j] = s;
    }
  FOR_PATHS(c, p) {
    float *got = rt_xalloc((size_t)ni * nj * 4);
    DBuf *da = dev_upload(c, p, a, (size_t)ni * nk * 4),
         *db = dev_upload(c, p, b, (size_t)nk * nj * 4);
    DBuf *dc = dev_upload(c, p, cc, (size_t)ni * nj * 4);
    Arg args[] = {A_BUF(da),   A_BUF(db), A_BUF(dc), A_VAL(alpha),
                  A_VAL(beta), A_VAL(ni), A_VAL(nj), A_VAL(nk)};
    /* PolyBench's work-groups are 32 x 8. */
    dev_launch(c, p, "gemm", 2, G2(round_up((size_t)nj, 32), round_up((size_t)ni, 8)), G2(32, 8),
               args, NARGS(args));
    dev_download(c, p, dc, got, (size_t)ni * nj * 4);
    /* Up to 200 terms of size <= 2 accumulated in global memory; fusing: 1e-4 absolute. */
    cmp_f32(c, p, "c", got, ref, (size_t)ni * nj, 1e-5, 1e-4);
  }
}

static void run_polybench_conv2d(Ctx *c) {
  int ni = rt_int(&c->rt, 8, 300), nj = rt_int(&c->rt, 8, 300);
  size_t n = (size_t)ni * nj;
  float *A = rt_xalloc(n * 4), *ref = rt_xalloc(n * 4);
  fill_f32(c, A, n, -1, 1);
  const float c11 = +0.2, c21 = +0.5, c31 = -0.8, c12 = -0.3, c22 = +0.6, c32 = -0.9, c13 = +0.4,
              c23 = +0.7, c33 = +0.10;
  for (int i = 1; i < ni - 1; i++)
    for (int j = 1; j < nj - 1; j++)
      ref[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + (j + 0)] +
                        c31 * A[(i - 1) * nj + (j + 1)] + c12 * A[(i + 0) * nj + (j - 1)] +
                        c22 * A[(i + 0) * nj + (j + 0)] + c32 * A[(i + 0) * nj + (j + 1)] +
                        c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + (j + 0)] +
                        c33 * A[(i + 1) * nj + (j + 1)];
  FOR_PATHS(c, p) {
    float *got = rt_xalloc(n * 4);
    DBuf *da = dev_upload(c, p, A, n * 4), *db = dev_alloc(c, p, n * 4);
    Arg args[] = {A_BUF(da), A_BUF(db), A_VAL(ni), A_VAL(nj)};
    dev_launch(c, p, "Convolution2D_kernel", 2,
               G2(round_up((size_t)nj, 32), round_up((size_t)ni, 8)), G2(32, 8), args, NARGS(args));
    dev_download(c, p, db, got, n * 4);
    /* The border is not written; compare the interior, row by row. 9 terms: 1e-5. */
    for (int i = 1; i < ni - 1; i++)
      if (!cmp_f32(c, p, "B row", got + (size_t)i * nj + 1, ref + (size_t)i * nj + 1,
                   (size_t)nj - 2, 1e-5, 1e-5))
        break;
  }
}

/* ---------------------------------------------------------------- Rodinia mergesort */

static void sort_elem(const float r0[4], float nr[4]) {
  float r[4];
  nr[0] = (r0[0] > r0[1]) ? r0[1] : r0[0];
  nr[1] = (r0[1] > r0[0]) ? r0[1] : r0[0];
  nr[2] = (r0[2] > r0[3]) ? r0[3] : r0[2];
  nr[3] = (r0[3] > r0[2]) ? r0[3] : r0[2];
  r[0] = (nr[0] > nr[2]) ? nr[2] : nr[0];
  r[1] = (nr[1] > nr[3]) ? nr[3] : nr[1];
  r[2] = (nr[2] > nr[0]) ? nr[2] : nr[0];
  r[3] = (nr[3] > nr[1]) ? nr[3] : nr[1];
  nr[0] = r[0];
  nr[1] = (r[1] > r[2]) ? r[2] : r[1];
  nr[2] = (r[2] > r[1]) ? r[2] : r[1];
  nr[3] = r[3];
}

static void run_rodinia_mergesort(Ctx *c) {
  int listsize = 4 * rt_int(&c->rt, 1000, 50000);
  size_t n4 = (size_t)listsize / 4, global = round_up(n4, 256);
  float *in = rt_xalloc(global * 16), *ref = rt_xalloc(global * 16);
  fill_f32(c, in, (size_t)listsize, -1000, 1000);
  for (size_t i = 0; i < n4; i++) sort_elem(in + 4 * i, ref + 4 * i);
  for (size_t i = 0; i < n4; i++)
    if (!(ref[4 * i] <= ref[4 * i + 1] && ref[4 * i + 1] <= ref[4 * i + 2] &&
          ref[4 * i + 2] <= ref[4 * i + 3])) {
      rt_fail(&c->rt, "host: sortElem did not sort element %zu", i);
      break;
    }
  void *out[NPATHS];
  out_pair(out, global * 16);
  FOR_PATHS(c, p) {
    DBuf *di = dev_upload(c, p, in, global * 16), *dr = dev_alloc(c, p, global * 16);
    Arg args[] = {A_BUF(di), A_BUF(dr), A_VAL(listsize)};
    dev_launch(c, p, "mergeSortFirst", 1, G1(global), G1(256), args, NARGS(args));
    dev_download(c, p, dr, out[p], global * 16);
    cmp_bytes(c, p, "result", out[p], ref, n4 * 16); /* comparisons and moves: exact */
  }
  same_on_both_paths(c, "result", out, n4 * 16);
}

/* ---------------------------------------------------------------- UoB-HPC nbody */

static void run_uobhpc_nbody(Ctx *c) {
  /* Built with -DWGSIZE=64 -Dsoftening=0.05f -Ddelta=0.005f (tests/real/opencl/OPTIONS). */
  const float softening = 0.05f, delta = 0.005f;
  unsigned n = 64 * (unsigned)rt_int(&c->rt, 2, 32);
  float *pos = rt_xalloc((size_t)n * 16), *vel = rt_xalloc((size_t)n * 16);
  float *pref = rt_xalloc((size_t)n * 16), *vref = rt_xalloc((size_t)n * 16);
  for (unsigned i = 0; i < n; i++) {
    fill_f32(c, pos + 4 * i, 3, -1, 1);
    pos[4 * i + 3] = rt_float(&c->rt, 0.5f, 1.5f); /* mass */
    fill_f32(c, vel + 4 * i, 4, -0.1f, 0.1f);
  }
  for (unsigned i = 0; i < n; i++) {
    double f[3] = {0, 0, 0};
    for (unsigned j = 0; j < n; j++) {
      double d[3], dist2 = (double)softening * softening;
      for (int k = 0; k < 3; k++) {
        d[k] = (double)pos[4 * j + k] - pos[4 * i + k];
        dist2 += d[k] * d[k];
      }
      double inv = 1.0 / sqrt(dist2), coeff = pos[4 * j + 3] * inv * inv * inv;
      for (int k = 0; k < 3; k++) f[k] += coeff * d[k];
    }
    for (int k = 0; k < 4; k++) {
      double v = vel[4 * i + k] + (k < 3 ? f[k] : 0) * delta;
      vref[4 * i + k] = (float)v;
      pref[4 * i + k] = (float)(pos[4 * i + k] + v * delta);
    }
  }
  FOR_PATHS(c, p) {
    float *gp = rt_xalloc((size_t)n * 16), *gv = rt_xalloc((size_t)n * 16);
    DBuf *dpi = dev_upload(c, p, pos, (size_t)n * 16), *dpo = dev_alloc(c, p, (size_t)n * 16);
    DBuf *dv = dev_upload(c, p, vel, (size_t)n * 16);
    Arg args[] = {A_BUF(dpi), A_BUF(dpo), A_BUF(dv), A_VAL(n)};
    dev_launch(c, p, "nbody", 1, G1(n), G1(64), args, NARGS(args));
    dev_download(c, p, dv, gv, (size_t)n * 16);
    dev_download(c, p, dpo, gp, (size_t)n * 16);
    /* native_rsqrt has an implementation-defined accuracy (PTX rsqrt.approx: about 2^-22
     * relative); forces of up to 2048 bodies at softened distances: 1e-3 relative + 1e-3
     * absolute on the velocities, and so on the positions. */
    cmp_f32(c, p, "velocities", gv, vref, (size_t)n * 4, 1e-3, 1e-3);
    cmp_f32(c, p, "positionsOut", gp, pref, (size_t)n * 4, 1e-3, 1e-3);
  }
}

/* ---------------------------------------------------------------- Parboil sgemm */

static void run_parboil_sgemm(Ctx *c) {
  int m = 16 * rt_int(&c->rt, 1, 16), n = 16 * rt_int(&c->rt, 1, 16), k = rt_int(&c->rt, 1, 256);
  int lda = m, ldb = n, ldc = m;
  float alpha = rt_float(&c->rt, -2, 2), beta = rt_float(&c->rt, -2, 2);
  float *A = rt_xalloc((size_t)lda * k * 4), *B = rt_xalloc((size_t)ldb * k * 4);
  float *C = rt_xalloc((size_t)ldc * n * 4), *ref = rt_xalloc((size_t)ldc * n * 4);
  fill_f32(c, A, (size_t)lda * k, -1, 1);
  fill_f32(c, B, (size_t)ldb * k, -1, 1);
  fill_f32(c, C, (size_t)ldc * n, -1, 1);
  for (int mm = 0; mm < m; mm++)
    for (int nn = 0; nn < n; nn++) {
      float s = 0.0f;
      for (int i = 0; i < k; i++) s += A[mm + i * lda] * B[nn + i * ldb];
      ref[mm + nn * ldc] = beta * C[mm + nn * ldc] + alpha * s;
    }
  FOR_PATHS(c, p) {
    float *got = rt_xalloc((size_t)ldc * n * 4);
    DBuf *da = dev_upload(c, p, A, (size_t)lda * k * 4),
         *db = dev_upload(c, p, B, (size_t)ldb * k * 4);
    DBuf *dc = dev_upload(c, p, C, (size_t)ldc * n * 4);
    Arg args[] = {A_BUF(da),  A_VAL(lda), A_BUF(db),    A_VAL(ldb), A_BUF(dc),
                  A_VAL(ldc), A_VAL(k),   A_VAL(alpha), A_VAL(beta)};
    dev_launch(c, p, "mysgemmNT", 2, G2((size_t)m, (size_t)n), G2(16, 16), args, NARGS(args));
    dev_download(c, p, dc, got, (size_t)ldc * n * 4);
    /* Up to 256 products in [-1, 1] summed in order, each possibly fused: 1e-4 absolute. */
    cmp_f32(c, p, "C", got, ref, (size_t)ldc * n, 1e-5, 1e-4);
  }
}

const Case real_cases[] = {
    {"handson_gameoflife", run_handson_gameoflife},
    {"handson_matmul_block", run_handson_matmul_block},
    {"handson_pi", run_handson_pi},
    {"handson_pi_vec", run_handson_pi_vec},
    {"handson_vadd_abc", run_handson_vadd_abc},
    {"khronos_collatz", run_khronos_collatz},
    {"khronos_histogram", run_khronos_histogram},
    {"khronos_saxpy", run_khronos_saxpy},
    {"parboil_sgemm", run_parboil_sgemm},
    {"polybench_conv2d", run_polybench_conv2d},
    {"polybench_gemm", run_polybench_gemm},
    {"pyopencl_demo_sum", run_pyopencl_demo_sum},
    {"pyopencl_mandelbrot", run_pyopencl_mandelbrot},
    {"pyopencl_transpose_local", run_pyopencl_transpose_local},
    {"pyopencl_transpose_naive", run_pyopencl_transpose_naive},
    {"rodinia_kmeans", run_rodinia_kmeans},
    {"rodinia_mergesort", run_rodinia_mergesort},
    {"rodinia_nn", run_rodinia_nn},
    {"rodinia_pathfinder", run_rodinia_pathfinder},
    {"uobhpc_nbody", run_uobhpc_nbody},
};
const int real_ncases = (int)(sizeof real_cases / sizeof real_cases[0]);
