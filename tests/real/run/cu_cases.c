/* cu_cases.c — one runner per CUDA kernel of the registry corpus listed in cu_EXPECT (see
 * cu_run.h): PyCUDA's examples, whose kernels are strings passed to SourceModule (the corpus
 * writes them out as FILE.py.kN.cu).
 *
 * Each case launches the kernel as the example's host code does (grid, block), with sizes
 * drawn at random where the kernel allows it. Host references are plain C, compiled with
 * -ffp-contract=off so that every float operation rounds as written; where the kernel may
 * contract a*b+c into an FMA the bound says so. */
#include "cu_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UP(rt, p, n)      rt_upload((rt), (p), (n) * sizeof *(p))
#define OUT(rt, p, n)     rt_alloc((rt), (n) * sizeof *(p))
#define DOWN(rt, b, p, n) rt_download((rt), (b), (p), (n) * sizeof *(p))

/* demo.py: doublify(a) on a 4x4 float matrix, block (4, 4, 1), one block: a[i] *= 2, exact. */
static void run_pycuda_demo(Rt *rt) {
  float a[16], want[16];
  cu_fill_f32(rt, a, 16, -1000, 1000);
  for (int i = 0; i < 16; i++) want[i] = a[i] * 2;
  kcrt_buffer *da = UP(rt, a, 16);
  kcrt_arg args[] = {A_BUF(da)};
  cu_launch(rt, "doublify", cu_dim(1, 1, 1), cu_dim(4, 4, 1), 0, args, 1);
  DOWN(rt, da, a, 16);
  rt_cmp_f32(rt, "a", a, want, 16, 0, 0);
}

/* hello_gpu.py: multiply_them(dest, a, b) with block (400, 1, 1): one product per thread,
 * exact. */
static void run_pycuda_hello_gpu(Rt *rt) {
  enum { N = 400 };
  float a[N], b[N], dest[N], want[N];
  cu_fill_f32(rt, a, N, -100, 100);
  cu_fill_f32(rt, b, N, -100, 100);
  for (int i = 0; i < N; i++) want[i] = a[i] * b[i];
  kcrt_buffer *dd = OUT(rt, dest, N), *da = UP(rt, a, N), *db = UP(rt, b, N);
  kcrt_arg args[] = {A_BUF(dd), A_BUF(da), A_BUF(db)};
  cu_launch(rt, "multiply_them", cu_dim(1, 1, 1), cu_dim(N, 1, 1), 0, args, 3);
  DOWN(rt, dd, dest, N);
  rt_cmp_f32(rt, "dest", dest, want, N, 0, 0);
}

/* from-wiki/matrixmul_simple.py: MatrixMulKernel(a, b, c) for MATRIX_SIZE 2 (the value the
 * example formats the source with), one block of 2x2 threads: c = a b. */
static void run_pycuda_matrixmul_simple(Rt *rt) {
  float a[4], b[4], c[4], want[4];
  cu_fill_f32(rt, a, 4, -10, 10);
  cu_fill_f32(rt, b, 4, -10, 10);
  for (int ty = 0; ty < 2; ty++)
    for (int tx = 0; tx < 2; tx++) {
      float p = 0;
      for (int k = 0; k < 2; k++) p += a[ty * 2 + k] * b[k * 2 + tx];
      want[ty * 2 + tx] = p;
    }
  kcrt_buffer *da = UP(rt, a, 4), *db = UP(rt, b, 4), *dc = OUT(rt, c, 4);
  kcrt_arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dc)};
  cu_launch(rt, "MatrixMulKernel", cu_dim(1, 1, 1), cu_dim(2, 2, 1), 0, args, 3);
  DOWN(rt, dc, c, 4);
  /* two products of |x| <= 10 summed, each step possibly one FMA: |c| <= 200, 1e-4 */
  rt_cmp_f32(rt, "c", c, want, 4, 0, 1e-4);
}

/* from-wiki/matrix_transpose.py, its first kernel (BLOCK_SIZE 16, as the example formats it):
 * transpose(A_t, A, a_width, a_height) through a padded shared tile, grid (a_width / 16,
 * a_height / 16), block (16, 16, 1). A is a_height rows of a_width floats; exact. */
static void run_pycuda_matrix_transpose(Rt *rt) {
  int w = 16 * rt_int(rt, 1, 24), h = 16 * rt_int(rt, 1, 24);
  size_t n = (size_t)w * (size_t)h;
  float *a = rt_xalloc(n * 4), *at = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, a, n, -1, 1);
  for (int r = 0; r < h; r++)
    for (int c = 0; c < w; c++) want[(size_t)c * h + r] = a[(size_t)r * w + c];
  kcrt_buffer *dt = OUT(rt, at, n), *da = UP(rt, a, n);
  kcrt_arg args[] = {A_BUF(dt), A_BUF(da), A_VAL(w), A_VAL(h)};
  cu_launch(rt, "transpose", cu_dim(w / 16, h / 16, 1), cu_dim(16, 16, 1), 0, args, 4);
  DOWN(rt, dt, at, n);
  rt_cmp_f32(rt, "A_t", at, want, n, 0, 0);
}

const CuCase cu_cases[] = {
    {"pycuda_demo", run_pycuda_demo},
    {"pycuda_hello_gpu", run_pycuda_hello_gpu},
    {"pycuda_matrix_transpose", run_pycuda_matrix_transpose},
    {"pycuda_matrixmul_simple", run_pycuda_matrixmul_simple},
};
const int cu_ncases = (int)(sizeof cu_cases / sizeof cu_cases[0]);
