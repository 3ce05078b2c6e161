/* cu_cases.c — one runner per CUDA corpus kernel listed in cu_EXPECT (see cu_run.h).
 *
 * Each case says how the original host program launched the kernel (grid, block, dynamic
 * shared memory) and uses the same configuration, with sizes drawn at random where the
 * kernel allows it. Host references are plain C, compiled with -ffp-contract=off so that
 * every float operation rounds as written; where the kernel may contract a*b+c into an FMA
 * (or uses a fast intrinsic) the bound says so. Integer results, and float results that are
 * exact by construction (small integers in float), are compared bit for bit. */
#include "cu_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define UP(rt, p, n)      rt_upload((rt), (p), (n) * sizeof *(p))
#define OUT(rt, p, n)     rt_alloc((rt), (n) * sizeof *(p))
#define DOWN(rt, b, p, n) rt_download((rt), (b), (p), (n) * sizeof *(p))

/* Random floats that are small integers: sums of them are exact in any order. */
static void fill_small_ints_f32(Rt *rt, float *p, size_t n, int lo, int hi) {
  for (size_t i = 0; i < n; i++) p[i] = (float)rt_int(rt, lo, hi);
}

/* ------------------------------------------------------------------ vector add, saxpy */

/* vectorAdd.cu: vectorAdd<<<(n + 255) / 256, 256>>>(A, B, C, n), n = 50000. */
static void vector_add_case(Rt *rt, const char *kernel) {
  int n = rt_int(rt, 1, 60000);
  float *a = rt_xalloc(n * sizeof *a), *b = rt_xalloc(n * sizeof *b), *c = rt_xalloc(n * sizeof *c),
        *want = rt_xalloc(n * sizeof *want);
  cu_fill_f32(rt, a, n, -1000, 1000);
  cu_fill_f32(rt, b, n, -1000, 1000);
  for (int i = 0; i < n; i++) want[i] = a[i] + b[i] + 0.0f;
  kcrt_buffer *da = UP(rt, a, n), *db = UP(rt, b, n), *dc = OUT(rt, c, n);
  kcrt_arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dc), A_VAL(n)};
  cu_launch(rt, kernel, cu_dim(rt_ceil_div(n, 256), 1, 1), cu_dim(256, 1, 1), 0, args, 4);
  DOWN(rt, dc, c, n);
  /* one IEEE addition per element: exact */
  rt_cmp_f32(rt, kernel, c, want, n, 0, 0);
}

static void run_nvidia_vectorAdd(Rt *rt) {
  vector_add_case(rt, "vectorAdd");
}
/* vectorAddDrv.cpp: VecAdd_kernel, 256 threads, (N + 255) / 256 blocks, N = 50000. */
static void run_nvidia_vectorAddDrv(Rt *rt) {
  vector_add_case(rt, "VecAdd_kernel");
}
/* vectorAdd_nvrtc: the same launch through the driver API. */
static void run_nvidia_vectorAdd_nvrtc(Rt *rt) {
  vector_add_case(rt, "vectorAdd");
}

/* grcuda post: saxpy(n, alpha, x, y) over 256-thread blocks, (n + 255) / 256 of them. */
static void run_devblog_saxpy(Rt *rt) {
  int n = rt_int(rt, 1, 100000);
  float alpha = rt_float(rt, -2, 2);
  float *x = rt_xalloc(n * sizeof *x), *y = rt_xalloc(n * sizeof *y), *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, x, n, -1, 1);
  cu_fill_f32(rt, y, n, -1, 1);
  for (int i = 0; i < n; i++) want[i] = alpha * x[i] + y[i];
  kcrt_buffer *dx = UP(rt, x, n), *dy = UP(rt, y, n);
  kcrt_arg args[] = {A_VAL(n), A_VAL(alpha), A_BUF(dx), A_BUF(dy)};
  cu_launch(rt, "saxpy", cu_dim(rt_ceil_div(n, 256), 1, 1), cu_dim(256, 1, 1), 0, args, 4);
  DOWN(rt, dy, y, n);
  /* a*x+y may be one FMA: within 2^-23 of |a*x| + |y| <= 3 */
  rt_cmp_f32(rt, "y", y, want, n, 0, 4e-7);
}

/* asyncAPI.cu: increment_kernel<<<n / 512, 512>>>(d_a, 26), n = 16M (here n = 512 * k). */
static void run_nvidia_asyncAPI(Rt *rt) {
  int n = 512 * rt_int(rt, 1, 256), inc = rt_int(rt, -1000, 1000);
  int32_t *a = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  cu_fill_i32(rt, a, n, -1000000, 1000000);
  for (int i = 0; i < n; i++) want[i] = a[i] + inc;
  kcrt_buffer *da = UP(rt, a, n);
  kcrt_arg args[] = {A_BUF(da), A_VAL(inc)};
  cu_launch(rt, "increment_kernel", cu_dim(n / 512, 1, 1), cu_dim(512, 1, 1), 0, args, 2);
  DOWN(rt, da, a, n);
  rt_cmp_i32(rt, "g_data", a, want, n);
}

/* simpleOccupancy.cu, manual configuration: square<<<(count + 31) / 32, 32, 0>>>. */
static void run_nvidia_simpleOccupancy(Rt *rt) {
  int n = rt_int(rt, 1, 200000);
  int32_t *a = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  cu_fill_i32(rt, a, n, -40000, 40000);
  for (int i = 0; i < n; i++) want[i] = a[i] * a[i];
  kcrt_buffer *da = UP(rt, a, n);
  kcrt_arg args[] = {A_BUF(da), A_VAL(n)};
  cu_launch(rt, "square", cu_dim(rt_ceil_div(n, 32), 1, 1), cu_dim(32, 1, 1), 0, args, 2);
  DOWN(rt, da, a, n);
  rt_cmp_i32(rt, "array", a, want, n);
}

/* template.cu: testKernel<<<1, 32, 32 * sizeof(float)>>>(d_idata, d_odata). */
static void run_nvidia_template(Rt *rt) {
  const int n = 32;
  float in[32], out[32], want[32];
  cu_fill_f32(rt, in, n, -1000, 1000);
  for (int i = 0; i < n; i++) want[i] = (float)n * in[i];
  kcrt_buffer *di = UP(rt, in, n), *dout = OUT(rt, out, n);
  kcrt_arg args[] = {A_BUF(di), A_BUF(dout)};
  cu_launch(rt, "testKernel", cu_dim(1, 1, 1), cu_dim(n, 1, 1), n * sizeof(float), args, 2);
  DOWN(rt, dout, out, n);
  rt_cmp_f32(rt, "g_odata", out, want, n, 0, 0); /* times 32: exact */
}

/* simpleTemplates_nvrtc: testFloat<<<1, 32, 32 * sizeof(float)>>> and
 * testInt<<<1, 64, 64 * sizeof(float)>>> (the host sizes shared memory with sizeof(float)
 * for both, as written). */
static void run_nvidia_simpleTemplates_nvrtc(Rt *rt) {
  float fin[32], fout[32], fwant[32];
  cu_fill_f32(rt, fin, 32, -1000, 1000);
  for (int i = 0; i < 32; i++) fwant[i] = 32.0f * fin[i];
  kcrt_buffer *dfi = UP(rt, fin, 32), *dfo = OUT(rt, fout, 32);
  kcrt_arg fa[] = {A_BUF(dfi), A_BUF(dfo)};
  cu_launch(rt, "testFloat", cu_dim(1, 1, 1), cu_dim(32, 1, 1), 32 * sizeof(float), fa, 2);
  DOWN(rt, dfo, fout, 32);
  rt_cmp_f32(rt, "testFloat", fout, fwant, 32, 0, 0);
  int32_t iin[64], iout[64], iwant[64];
  cu_fill_i32(rt, iin, 64, -100000, 100000);
  for (int i = 0; i < 64; i++) iwant[i] = 64 * iin[i];
  kcrt_buffer *dii = UP(rt, iin, 64), *dio = OUT(rt, iout, 64);
  kcrt_arg ia[] = {A_BUF(dii), A_BUF(dio)};
  cu_launch(rt, "testInt", cu_dim(1, 1, 1), cu_dim(64, 1, 1), 64 * sizeof(float), ia, 2);
  DOWN(rt, dio, iout, 64);
  rt_cmp_i32(rt, "testInt", iout, iwant, 64);
}

/* ------------------------------------------------------------------ matrix multiply */

/* C[hA x wB] = A[hA x wA] B[wA x wB], k in order (the kernels accumulate k = 0, 1, ... in
 * one running sum). */
static void matmul_ref(float *c, const float *a, const float *b, int hA, int wA, int wB) {
  for (int i = 0; i < hA; i++)
    for (int j = 0; j < wB; j++) {
      float s = 0;
      for (int k = 0; k < wA; k++) s += a[i * wA + k] * b[k * wB + j];
      c[i * wB + j] = s;
    }
}

/* Bound for a k-term dot product of values in [-1, 1] when the kernel may fuse multiply-adds:
 * each step's rounding differs by at most 2^-24 of a partial sum <= k. */
static double dot_atol(int k) {
  return 2.0 * k * k * 6e-8 + 1e-6;
}

/* matrixMul_nvrtc: matrixMulCUDA_block16/32 with threads(bs, bs), grid(wB / bs, hA / bs). */
static void run_nvidia_matrixMul_nvrtc(Rt *rt) {
  for (int bs = 16; bs <= 32; bs *= 2) {
    int wA = bs * rt_int(rt, 1, 6), hA = bs * rt_int(rt, 1, 6), wB = bs * rt_int(rt, 1, 6);
    float *a = rt_xalloc((size_t)hA * wA * 4), *b = rt_xalloc((size_t)wA * wB * 4),
          *c = rt_xalloc((size_t)hA * wB * 4), *want = rt_xalloc((size_t)hA * wB * 4);
    cu_fill_f32(rt, a, (size_t)hA * wA, -1, 1);
    cu_fill_f32(rt, b, (size_t)wA * wB, -1, 1);
    matmul_ref(want, a, b, hA, wA, wB);
    kcrt_buffer *da = UP(rt, a, (size_t)hA * wA), *db = UP(rt, b, (size_t)wA * wB),
                *dc = OUT(rt, c, (size_t)hA * wB);
    kcrt_arg args[] = {A_BUF(dc), A_BUF(da), A_BUF(db), A_VAL(wA), A_VAL(wB)};
    cu_launch(rt, bs == 16 ? "matrixMulCUDA_block16" : "matrixMulCUDA_block32",
              cu_dim(wB / bs, hA / bs, 1), cu_dim(bs, bs, 1), 0, args, 5);
    DOWN(rt, dc, c, (size_t)hA * wB);
    rt_cmp_f32(rt, bs == 16 ? "C (block16)" : "C (block32)", c, want, (size_t)hA * wB, 0,
               dot_atol(wA));
  }
}

/* matrix_mul_shared_solution.cu: mmul<<<grid((ds + 31) / 32, (ds + 31) / 32), (32, 32)>>>;
 * the kernel needs ds to be a multiple of block_size (32). */
static void run_olcf_matrix_mul_shared(Rt *rt) {
  int ds = 32 * rt_int(rt, 1, 8);
  size_t n = (size_t)ds * ds;
  float *a = rt_xalloc(n * 4), *b = rt_xalloc(n * 4), *c = rt_xalloc(n * 4),
        *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, a, n, -1, 1);
  cu_fill_f32(rt, b, n, -1, 1);
  matmul_ref(want, a, b, ds, ds, ds);
  kcrt_buffer *da = UP(rt, a, n), *db = UP(rt, b, n), *dc = OUT(rt, c, n);
  kcrt_arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dc), A_VAL(ds)};
  cu_launch(rt, "mmul", cu_dim(ds / 32, ds / 32, 1), cu_dim(32, 32, 1), 0, args, 4);
  DOWN(rt, dc, c, n);
  rt_cmp_f32(rt, "C", c, want, n, 0, dot_atol(ds));
}

/* sgemm.cu: sgemm_gpu_kernel<<<(M / 16, N / 16), (16, 16)>>>(A, B, C, N, M, K, alpha, beta),
 * N = M = K = 2048 (square: the kernel indexes B with K as its row length). */
static void run_packt_sgemm(Rt *rt) {
  int nn = 16 * rt_int(rt, 1, 12);
  size_t n = (size_t)nn * nn;
  float alpha = rt_float(rt, -2, 2), beta = rt_float(rt, -2, 2);
  float *a = rt_xalloc(n * 4), *b = rt_xalloc(n * 4), *c = rt_xalloc(n * 4),
        *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, a, n, -1, 1);
  cu_fill_f32(rt, b, n, -1, 1);
  cu_fill_f32(rt, c, n, -1, 1);
  matmul_ref(want, a, b, nn, nn, nn);
  for (size_t i = 0; i < n; i++) want[i] = alpha * want[i] + beta * c[i];
  kcrt_buffer *da = UP(rt, a, n), *db = UP(rt, b, n), *dc = UP(rt, c, n);
  kcrt_arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dc),    A_VAL(nn),
                     A_VAL(nn), A_VAL(nn), A_VAL(alpha), A_VAL(beta)};
  cu_launch(rt, "sgemm_gpu_kernel", cu_dim(nn / 16, nn / 16, 1), cu_dim(16, 16, 1), 0, args, 8);
  DOWN(rt, dc, c, n);
  rt_cmp_f32(rt, "C", c, want, n, 0, 2 * dot_atol(nn) + 4e-6);
}

/* ------------------------------------------------------------------ transposes */

/* transpose.cu (cuda-samples): grid(size / 32, size / 32), threads(32, 16), square matrices
 * (the sample refuses others). Every kernel only moves floats: bit for bit. */
static void run_nvidia_transpose(Rt *rt) {
  int size = 32 * rt_int(rt, 1, 8);
  size_t n = (size_t)size * size;
  float *in = rt_xalloc(n * 4), *out = rt_xalloc(n * 4), *tr = rt_xalloc(n * 4);
  cu_fill_f32(rt, in, n, -1e6, 1e6);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++) tr[x * size + y] = in[y * size + x];
  kcrt_buffer *di = UP(rt, in, n);
  static const char *const kernels[] = {"copy", "transposeNaive", "transposeCoalesced",
                                        "transposeNoBankConflicts", "transposeDiagonal"};
  for (int k = 0; k < 5; k++) {
    kcrt_buffer *dout = OUT(rt, out, n);
    kcrt_arg args[] = {A_BUF(dout), A_BUF(di), A_VAL(size), A_VAL(size)};
    cu_launch(rt, kernels[k], cu_dim(size / 32, size / 32, 1), cu_dim(32, 16, 1), 0, args, 4);
    DOWN(rt, dout, out, n);
    rt_cmp_f32(rt, kernels[k], out, k == 0 ? in : tr, n, 0, 0);
    kcrt_buffer_free(dout);
  }
}

/* transpose.cu (developer blog): dimGrid(nx / 32, ny / 32), dimBlock(32, 8), nx = ny. */
static void run_devblog_transpose(Rt *rt) {
  int size = 32 * rt_int(rt, 1, 8);
  size_t n = (size_t)size * size;
  float *in = rt_xalloc(n * 4), *out = rt_xalloc(n * 4), *tr = rt_xalloc(n * 4);
  cu_fill_f32(rt, in, n, -1e6, 1e6);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++) tr[x * size + y] = in[y * size + x];
  kcrt_buffer *di = UP(rt, in, n);
  static const char *const kernels[] = {"copy", "copySharedMem", "transposeNaive",
                                        "transposeCoalesced", "transposeNoBankConflicts"};
  for (int k = 0; k < 5; k++) {
    kcrt_buffer *dout = OUT(rt, out, n);
    kcrt_arg args[] = {A_BUF(dout), A_BUF(di)};
    cu_launch(rt, kernels[k], cu_dim(size / 32, size / 32, 1), cu_dim(32, 8, 1), 0, args, 2);
    DOWN(rt, dout, out, n);
    rt_cmp_f32(rt, kernels[k], out, k < 2 ? in : tr, n, 0, 0);
    kcrt_buffer_free(dout);
  }
}

/* conflict_solved.cu: N = 1024 (a macro in the kernel), blockSize(32, 32), gridSize(32, 32). */
static void run_packt_transpose_shared(Rt *rt) {
  const int size = 1024;
  size_t n = (size_t)size * size;
  int32_t *in = rt_xalloc(n * 4), *out = rt_xalloc(n * 4), *tr = rt_xalloc(n * 4);
  for (size_t i = 0; i < n; i++) in[i] = (int32_t)rt_u32(rt);
  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++) tr[x * size + y] = in[y * size + x];
  kcrt_buffer *di = UP(rt, in, n);
  static const char *const kernels[] = {"matrix_transpose_naive", "matrix_transpose_shared"};
  for (int k = 0; k < 2; k++) {
    kcrt_buffer *dout = OUT(rt, out, n);
    kcrt_arg args[] = {A_BUF(di), A_BUF(dout)};
    cu_launch(rt, kernels[k], cu_dim(32, 32, 1), cu_dim(32, 32, 1), 0, args, 2);
    DOWN(rt, dout, out, n);
    rt_cmp_i32(rt, kernels[k], out, tr, n);
    kcrt_buffer_free(dout);
  }
}

/* shared-memory.cu: staticReverse<<<1, 64>>>(d, 64); dynamicReverse<<<1, 64, 64 * 4>>>. */
static void run_devblog_shared_memory(Rt *rt) {
  const int n = 64;
  int32_t a[64], r[64], d[64];
  cu_fill_i32(rt, a, n, -1000000, 1000000);
  for (int i = 0; i < n; i++) r[i] = a[n - 1 - i];
  for (int k = 0; k < 2; k++) {
    kcrt_buffer *dd = UP(rt, a, n);
    kcrt_arg args[] = {A_BUF(dd), A_VAL(n)};
    cu_launch(rt, k ? "dynamicReverse" : "staticReverse", cu_dim(1, 1, 1), cu_dim(n, 1, 1),
              k ? n * sizeof(int) : 0, args, 2);
    DOWN(rt, dd, d, n);
    rt_cmp_i32(rt, k ? "dynamicReverse" : "staticReverse", d, r, n);
    kcrt_buffer_free(dd);
  }
}

/* ------------------------------------------------------------------ reductions */

/* reductions.cu: N = 8M floats is a constant in the kernels. The original input is all 1.0f;
 * here it is random 0.0f/1.0f, so every partial sum is an integer below 2^24 and exact in any
 * order. atomic_red<<<(N + 255) / 256, 256>>>, reduce_a and reduce_ws <<<640, 256>>> into a
 * zeroed sum; reduce<<<640, 256>>> (not launched by main) gives one partial sum per block. */
static void run_olcf_reductions(Rt *rt) {
  const size_t n = 8u * 1024 * 1024;
  const int blocks = 640;
  float *a = rt_xalloc(n * 4), zero = 0, sum, want = 0;
  fill_small_ints_f32(rt, a, n, 0, 1);
  for (size_t i = 0; i < n; i++) want += a[i];
  kcrt_buffer *da = UP(rt, a, n);
  static const char *const kernels[] = {"atomic_red", "reduce_a", "reduce_ws"};
  for (int k = 0; k < 3; k++) {
    kcrt_buffer *ds = UP(rt, &zero, 1);
    kcrt_arg args[] = {A_BUF(da), A_BUF(ds)};
    cu_launch(rt, kernels[k], cu_dim(k ? (size_t)blocks : (n + 255) / 256, 1, 1), cu_dim(256, 1, 1),
              0, args, 2);
    DOWN(rt, ds, &sum, 1);
    rt_cmp_f32(rt, kernels[k], &sum, &want, 1, 0, 0);
    kcrt_buffer_free(ds);
  }
  float *part = rt_xalloc(blocks * 4), *pwant = rt_xalloc(blocks * 4);
  for (int b = 0; b < blocks; b++)
    for (size_t i = (size_t)b * 256; i < n; i += (size_t)blocks * 256)
      for (int t = 0; t < 256 && i + t < n; t++) pwant[b] += a[i + t];
  kcrt_buffer *dp = OUT(rt, part, blocks);
  kcrt_arg args[] = {A_BUF(da), A_BUF(dp)};
  cu_launch(rt, "reduce", cu_dim(blocks, 1, 1), cu_dim(256, 1, 1), 0, args, 2);
  DOWN(rt, dp, part, blocks);
  rt_cmp_f32(rt, "reduce (per block)", part, pwant, blocks, 0, 0);
}

/* Learn-CUDA-Programming reductions: the host launches min(blocks per SM x SMs, ceil(n /
 * 256)) blocks of 256 threads (an occupancy query); here 64 blocks (a multiple of it on most
 * devices; the kernels are grid-stride loops, so the count only changes the order of additions,
 * and the 0/1 inputs make every order exact). */
static float small_int_sum(Rt *rt, float *a, int n) {
  fill_small_ints_f32(rt, a, n, 0, 1);
  float s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

/* reduction_wp_kernel.cu: reduction_kernel<<<n_blocks, 256>>>(out, in, size), then
 * reduction_kernel<<<1, 256, 256 * sizeof(float), 0>>>(out, out, n_blocks). */
static void run_packt_reduction_wp(Rt *rt) {
  int n = rt_int(rt, 1, 1 << 22), blocks = 64;
  float *a = rt_xalloc((size_t)n * 4), got, want = small_int_sum(rt, a, n);
  kcrt_buffer *da = UP(rt, a, n), *dout = rt_alloc(rt, blocks * sizeof(float));
  kcrt_arg args[] = {A_BUF(dout), A_BUF(da), A_VAL(n)};
  cu_launch(rt, "reduction_kernel", cu_dim(blocks, 1, 1), cu_dim(256, 1, 1), 0, args, 3);
  kcrt_arg args2[] = {A_BUF(dout), A_BUF(dout), A_VAL(blocks)};
  cu_launch(rt, "reduction_kernel", cu_dim(1, 1, 1), cu_dim(256, 1, 1), 256 * sizeof(float), args2,
            3);
  rt_download(rt, dout, &got, sizeof got);
  rt_cmp_f32(rt, "sum", &got, &want, 1, 0, 0);
}

/* reduction_{wrp,blk}_atmc_kernel.cu: KERNEL<<<n_blocks, 256>>>(g_out, g_in, size), atomicAdd
 * into g_out[0], which the host zeroes first. */
static void atomic_reduction_case(Rt *rt, const char *kernel) {
  int n = rt_int(rt, 1, 1 << 22), blocks = 64;
  float *a = rt_xalloc((size_t)n * 4), got, zero = 0, want = small_int_sum(rt, a, n);
  kcrt_buffer *da = UP(rt, a, n), *dout = UP(rt, &zero, 1);
  kcrt_arg args[] = {A_BUF(dout), A_BUF(da), A_VAL(n)};
  cu_launch(rt, kernel, cu_dim(blocks, 1, 1), cu_dim(256, 1, 1), 0, args, 3);
  DOWN(rt, dout, &got, 1);
  rt_cmp_f32(rt, "sum", &got, &want, 1, 0, 0);
}
static void run_packt_reduction_wrp_atmc(Rt *rt) {
  atomic_reduction_case(rt, "reduction_wrp_atmc_kernel");
}
static void run_packt_reduction_blk_atmc(Rt *rt) {
  atomic_reduction_case(rt, "reduction_blk_atmc_kernel");
}

/* scalarProd.cu: scalarProdGPU<<<128, 256>>>(d_C, d_A, d_B, VECTOR_N = 256, ELEMENT_N = 4096). */
static void run_nvidia_scalarProd(Rt *rt) {
  int vn = rt_int(rt, 1, 256), en = 4096;
  size_t n = (size_t)vn * en;
  float *a = rt_xalloc(n * 4), *b = rt_xalloc(n * 4), *c = rt_xalloc(vn * 4),
        *want = rt_xalloc(vn * 4);
  cu_fill_f32(rt, a, n, -1, 1);
  cu_fill_f32(rt, b, n, -1, 1);
  for (int v = 0; v < vn; v++) {
    double s = 0;
    for (int i = 0; i < en; i++) s += (double)a[(size_t)v * en + i] * b[(size_t)v * en + i];
    want[v] = (float)s;
  }
  kcrt_buffer *da = UP(rt, a, n), *db = UP(rt, b, n), *dc = OUT(rt, c, vn);
  kcrt_arg args[] = {A_BUF(dc), A_BUF(da), A_BUF(db), A_VAL(vn), A_VAL(en)};
  cu_launch(rt, "scalarProdGPU", cu_dim(128, 1, 1), cu_dim(256, 1, 1), 0, args, 5);
  DOWN(rt, dc, c, vn);
  /* a tree of 4096 float products against an exact (double) sum: 4096 * 2^-24 * 4 */
  rt_cmp_f32(rt, "d_C", c, want, vn, 0, 1e-3);
}

/* clock.cu / clock_nvrtc: timedReduction<<<64, 256, 2 * 256 * sizeof(float)>>>(input, output,
 * timer), input 512 floats (every block reduces the same input to its minimum), timer 128
 * clock_t (64-bit). */
static void clock_case(Rt *rt) {
  enum { BLOCKS = 64, THREADS = 256 };
  float in[2 * THREADS], out[BLOCKS], want[BLOCKS], m;
  cu_fill_f32(rt, in, 2 * THREADS, -1e6, 1e6);
  m = in[0];
  for (int i = 1; i < 2 * THREADS; i++) m = in[i] < m ? in[i] : m;
  for (int b = 0; b < BLOCKS; b++) want[b] = m;
  kcrt_buffer *di = UP(rt, in, 2 * THREADS), *dout = OUT(rt, out, BLOCKS),
              *dt = rt_alloc(rt, 2 * BLOCKS * sizeof(int64_t));
  kcrt_arg args[] = {A_BUF(di), A_BUF(dout), A_BUF(dt)};
  cu_launch(rt, "timedReduction", cu_dim(BLOCKS, 1, 1), cu_dim(THREADS, 1, 1),
            2 * THREADS * sizeof(float), args, 3);
  DOWN(rt, dout, out, BLOCKS);
  rt_cmp_f32(rt, "output (minimum)", out, want, BLOCKS, 0, 0);
}
static void run_nvidia_clock(Rt *rt) {
  clock_case(rt);
}
static void run_nvidia_clock_nvrtc(Rt *rt) {
  clock_case(rt);
}

/* ------------------------------------------------------------------ atomics */

/* simpleAtomicIntrinsics: testKernel<<<64, 256>>>(g_odata[11]), g_odata zero but [8] = [10] =
 * 0xff. The final values that do not depend on the order of the threads are checked exactly
 * (computeGold's rules), exchange and compare-and-swap for membership in [0, 64 * 256). */
static void atomics_ref(int32_t *want, int nthreads, int loops) {
  memset(want, 0, 11 * sizeof *want);
  want[8] = want[10] = 0xff;
  uint32_t inc = 0, dec = 0;
  for (int l = 0; l < loops; l++)
    for (int t = 0; t < nthreads; t++) {
      want[0] += 10;
      want[1] -= 10;
      want[3] = t > want[3] ? t : want[3];
      inc = inc >= 17 ? 0 : inc + 1;
      dec = (dec == 0 || dec > 137) ? 137 : dec - 1;
      want[8] &= 2 * t + 7;
      want[10] ^= t;
    }
  want[4] = 0;
  want[5] = (int32_t)inc;
  want[6] = (int32_t)dec;
  want[9] = -1; /* 1 << tid for tid 0..31 sets every bit, whatever larger shifts give */
}

static void check_atomics(Rt *rt, const int32_t *got, const int32_t *want, int nthreads,
                          const int *exact, int nexact, int exch, int cas) {
  for (int i = 0; i < nexact; i++) {
    char what[64];
    snprintf(what, sizeof what, "g_odata[%d]", exact[i]);
    rt_cmp_i32(rt, what, &got[exact[i]], &want[exact[i]], 1);
  }
  if (got[exch] < 0 || got[exch] >= nthreads)
    rt_fail(rt, "atomicExch left %d, not a thread id", got[exch]);
  if (got[cas] < 0 || got[cas] >= nthreads)
    rt_fail(rt, "atomicCAS left %d, not a thread id", got[cas]);
}

static void simple_atomics_case(Rt *rt) {
  const int blocks = 64, threads = 256, n = blocks * threads;
  int32_t data[11] = {0}, want[11];
  data[8] = data[10] = 0xff;
  kcrt_buffer *d = UP(rt, data, 11);
  kcrt_arg args[] = {A_BUF(d)};
  cu_launch(rt, "testKernel", cu_dim(blocks, 1, 1), cu_dim(threads, 1, 1), 0, args, 1);
  DOWN(rt, d, data, 11);
  atomics_ref(want, n, 1);
  /* layout of simpleAtomicIntrinsics: 0 add, 1 sub, 2 exch, 3 max, 4 min, 5 inc, 6 dec, 7 cas,
   * 8 and, 9 or, 10 xor */
  int32_t w[11] = {want[0], want[1], 0,       want[3], want[4], want[5],
                   want[6], 0,       want[8], want[9], want[10]};
  static const int exact[] = {0, 1, 3, 4, 5, 6, 8, 9, 10};
  check_atomics(rt, data, w, n, exact, 9, 2, 7);
}
static void run_nvidia_simpleAtomicIntrinsics(Rt *rt) {
  simple_atomics_case(rt);
}
static void run_nvidia_simpleAtomicIntrinsics_nvrtc(Rt *rt) {
  simple_atomics_case(rt);
}

/* systemWideAtomics.cu: atomicKernel<<<64, 256>>>(atom_arr[10]), LOOP_NUM = 50, [7] = [9] =
 * 0xff. Layout: 0 add, 1 exch, 2 max, 3 min, 4 inc, 5 dec, 6 cas, 7 and, 8 or, 9 xor. */
static void run_nvidia_systemWideAtomics(Rt *rt) {
  const int blocks = 64, threads = 256, n = blocks * threads;
  int32_t data[10] = {0}, want[11];
  data[7] = data[9] = 0xff;
  kcrt_buffer *d = UP(rt, data, 10);
  kcrt_arg args[] = {A_BUF(d)};
  cu_launch(rt, "atomicKernel", cu_dim(blocks, 1, 1), cu_dim(threads, 1, 1), 0, args, 1);
  DOWN(rt, d, data, 10);
  atomics_ref(want, n, 50);
  int32_t w[10] = {want[0], 0, want[3], want[4], want[5], want[6], 0, want[8], want[9], want[10]};
  static const int exact[] = {0, 2, 3, 4, 5, 7, 8, 9};
  check_atomics(rt, data, w, n, exact, 8, 1, 6);
}

/* ------------------------------------------------------------------ histograms */

static void byte_histogram(uint32_t *h, const uint8_t *data, size_t bytes, int shift) {
  for (size_t i = 0; i < bytes; i++) h[data[i] >> shift]++;
}

/* histogram256.cu: histogram256Kernel<<<240, 192>>>(partial, data, bytes / 4), then
 * mergeHistogram256Kernel<<<256, 256>>>(hist, partial, 240). */
static void run_nvidia_histogram256(Rt *rt) {
  size_t bytes = 4 * (size_t)rt_int(rt, 1, 1 << 20);
  uint8_t *data = rt_xalloc(bytes);
  for (size_t i = 0; i < bytes; i++) data[i] = (uint8_t)rt_u32(rt);
  uint32_t hist[256], want[256] = {0};
  byte_histogram(want, data, bytes, 0);
  unsigned count = (unsigned)(bytes / 4), partials = 240;
  kcrt_buffer *dd = rt_upload(rt, data, bytes), *dp = rt_alloc(rt, 240 * 256 * 4),
              *dh = OUT(rt, hist, 256);
  kcrt_arg a1[] = {A_BUF(dp), A_BUF(dd), A_VAL(count)};
  cu_launch(rt, "histogram256Kernel", cu_dim(240, 1, 1), cu_dim(192, 1, 1), 0, a1, 3);
  kcrt_arg a2[] = {A_BUF(dh), A_BUF(dp), A_VAL(partials)};
  cu_launch(rt, "mergeHistogram256Kernel", cu_dim(256, 1, 1), cu_dim(256, 1, 1), 0, a2, 3);
  DOWN(rt, dh, hist, 256);
  rt_cmp_u32(rt, "histogram", hist, want, 256);
}

/* histogram64.cu: histogramCount = ceil(bytes / (64 * 240)); histogram64Kernel<<<count, 64>>>
 * (partial, (uint4 *)data, bytes / 16), then mergeHistogram64Kernel<<<64, 256>>>. */
static void run_nvidia_histogram64(Rt *rt) {
  size_t bytes = 16 * (size_t)rt_int(rt, 1, 1 << 18);
  uint8_t *data = rt_xalloc(bytes);
  for (size_t i = 0; i < bytes; i++) data[i] = (uint8_t)rt_u32(rt);
  uint32_t hist[64], want[64] = {0};
  byte_histogram(want, data, bytes, 2);
  unsigned count = (unsigned)rt_ceil_div(bytes, 64 * 240), n16 = (unsigned)(bytes / 16);
  kcrt_buffer *dd = rt_upload(rt, data, bytes), *dp = rt_alloc(rt, (size_t)count * 64 * 4),
              *dh = OUT(rt, hist, 64);
  kcrt_arg a1[] = {A_BUF(dp), A_BUF(dd), A_VAL(n16)};
  cu_launch(rt, "histogram64Kernel", cu_dim(count, 1, 1), cu_dim(64, 1, 1), 0, a1, 3);
  kcrt_arg a2[] = {A_BUF(dh), A_BUF(dp), A_VAL(count)};
  cu_launch(rt, "mergeHistogram64Kernel", cu_dim(64, 1, 1), cu_dim(256, 1, 1), 0, a2, 3);
  DOWN(rt, dh, hist, 64);
  rt_cmp_u32(rt, "histogram", hist, want, 64);
}

/* ------------------------------------------------------------------ transforms, scans */

/* fastWalshTransform: fwtBatch1Kernel<<<M, N / 4, N * sizeof(float)>>>(d, d, log2N) for
 * log2N <= 11 (the sample's ELEMENTARY_LOG2SIZE), and modulateKernel<<<128, 256>>>(A, B, N).
 * Inputs are small integers: every butterfly is exact, compared bit for bit. */
static void run_nvidia_fastWalshTransform(Rt *rt) {
  int log2n = rt_int(rt, 2, 11), n = 1 << log2n, m = rt_int(rt, 1, 8);
  size_t total = (size_t)m * n;
  float *x = rt_xalloc(total * 4), *want = rt_xalloc(total * 4), *got = rt_xalloc(total * 4);
  fill_small_ints_f32(rt, x, total, -8, 8);
  memcpy(want, x, total * 4);
  for (int b = 0; b < m; b++) {
    float *v = want + (size_t)b * n;
    for (int h = 1; h < n; h *= 2)
      for (int i = 0; i < n; i += 2 * h)
        for (int j = i; j < i + h; j++) {
          float p = v[j], q = v[j + h];
          v[j] = p + q;
          v[j + h] = p - q;
        }
  }
  kcrt_buffer *d = UP(rt, x, total);
  kcrt_arg args[] = {A_BUF(d), A_BUF(d), A_VAL(log2n)};
  cu_launch(rt, "fwtBatch1Kernel", cu_dim(m, 1, 1), cu_dim(n / 4, 1, 1), n * sizeof(float), args,
            3);
  DOWN(rt, d, got, total);
  rt_cmp_f32(rt, "fwtBatch1Kernel", got, want, total, 0, 0);

  int len = rt_int(rt, 1, 200000);
  float *a = rt_xalloc(len * 4), *b = rt_xalloc(len * 4), *mw = rt_xalloc(len * 4);
  cu_fill_f32(rt, a, len, -1, 1);
  cu_fill_f32(rt, b, len, -1, 1);
  float rcp = 1.0f / (float)len;
  for (int i = 0; i < len; i++) mw[i] = a[i] * (b[i] * rcp);
  kcrt_buffer *dA = UP(rt, a, len), *dB = UP(rt, b, len);
  kcrt_arg margs[] = {A_BUF(dA), A_BUF(dB), A_VAL(len)};
  cu_launch(rt, "modulateKernel", cu_dim(128, 1, 1), cu_dim(256, 1, 1), 0, margs, 3);
  DOWN(rt, dA, a, len);
  rt_cmp_f32(rt, "modulateKernel", a, mw, len, 0, 0); /* two roundings, as written */
}

/* shfl_scan.cu, shuffle_simple_test: shfl_scan_test<<<n / 256, 256, 8 * sizeof(int)>>>(data,
 * 32, partial_sums), then shfl_scan_test<<<1, n / 256, ...>>>(partial_sums, 32) (p_blockSize =
 * min(n / 256, 256) threads, one block). The third launch, uniform_add on data + 256, takes an
 * offset pointer that a libkcrt buffer argument cannot express, so it is not run: data is
 * checked as per-block inclusive scans and partial_sums as the scan of the block sums. */
static void run_nvidia_shfl_scan(Rt *rt) {
  /* The second launch scans the partial sums with one thread per block, and its warp-sum scan
   * uses blockDim.x / warpSize as __shfl_up_sync's width, which CUDA defines only for powers
   * of two (the sample launches 256): 32, 64, 128 or 256 blocks. */
  int blocks = 32 << rt_int(rt, 0, 3), n = 256 * blocks, width = 32;
  int32_t *data = rt_xalloc(n * 4), *want = rt_xalloc(n * 4), *part = rt_xalloc(blocks * 4),
          *pwant = rt_xalloc(blocks * 4);
  cu_fill_i32(rt, data, n, -1000, 1000);
  for (int b = 0; b < blocks; b++) {
    int32_t s = 0;
    for (int t = 0; t < 256; t++) want[b * 256 + t] = s += data[b * 256 + t];
    pwant[b] = (b ? pwant[b - 1] : 0) + s;
  }
  kcrt_buffer *dd = UP(rt, data, n), *dp = OUT(rt, part, blocks);
  kcrt_arg a1[] = {A_BUF(dd), A_VAL(width), A_BUF(dp)};
  cu_launch(rt, "shfl_scan_test", cu_dim(blocks, 1, 1), cu_dim(256, 1, 1), 8 * sizeof(int), a1, 3);
  kcrt_buffer *none = rt_alloc(rt, 4);
  int32_t zero = 0;
  RT_CHECK(rt, kcrt_buffer_write(none, 0, &zero, 4));
  /* partial_sums = NULL on the second launch: the kernel tests `partial_sums != NULL`; a
   * zero-length stand-in is not expressible, so a scratch buffer is passed and ignored */
  kcrt_arg a2[] = {A_BUF(dp), A_VAL(width), A_BUF(none)};
  cu_launch(rt, "shfl_scan_test", cu_dim(1, 1, 1), cu_dim(blocks, 1, 1), 8 * sizeof(int), a2, 3);
  DOWN(rt, dd, data, n);
  DOWN(rt, dp, part, blocks);
  rt_cmp_i32(rt, "data (block scans)", data, want, n);
  rt_cmp_i32(rt, "partial_sums (scanned)", part, pwant, blocks);
}

/* ------------------------------------------------------------------ finance, physics */

static float cnd_ref(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
  float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
  float cnd = RSQRT2PI * expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - cnd : cnd;
}

/* BlackScholes.cu: BlackScholesGPU<<<DIV_UP(OPT_N / 2, 128), 128>>>(call, put, S, X, T,
 * RISKFREE = 0.02f, VOLATILITY = 0.30f, OPT_N), float2 arrays of OPT_N / 2; inputs as the
 * sample draws them: S in [5, 30], X in [1, 100], T in [0.25, 10]. */
static void run_nvidia_BlackScholes(Rt *rt) {
  int pairs = rt_int(rt, 1, 20000), optN = 2 * pairs;
  float r = 0.02f, v = 0.30f;
  float *s = rt_xalloc(optN * 4), *x = rt_xalloc(optN * 4), *t = rt_xalloc(optN * 4),
        *call = rt_xalloc(optN * 4), *put = rt_xalloc(optN * 4), *wc = rt_xalloc(optN * 4),
        *wp = rt_xalloc(optN * 4);
  cu_fill_f32(rt, s, optN, 5, 30);
  cu_fill_f32(rt, x, optN, 1, 100);
  cu_fill_f32(rt, t, optN, 0.25f, 10);
  for (int i = 0; i < optN; i++) {
    float sqrtT = sqrtf(t[i]);
    float d1 = (logf(s[i] / x[i]) + (r + 0.5f * v * v) * t[i]) / (v * sqrtT), d2 = d1 - v * sqrtT;
    float c1 = cnd_ref(d1), c2 = cnd_ref(d2), expRT = expf(-r * t[i]);
    wc[i] = s[i] * c1 - x[i] * expRT * c2;
    wp[i] = x[i] * expRT * (1.0f - c2) - s[i] * (1.0f - c1);
  }
  kcrt_buffer *dc = OUT(rt, call, optN), *dp = OUT(rt, put, optN), *ds = UP(rt, s, optN),
              *dx = UP(rt, x, optN), *dt = UP(rt, t, optN);
  kcrt_arg args[] = {A_BUF(dc), A_BUF(dp), A_BUF(ds), A_BUF(dx),
                     A_BUF(dt), A_VAL(r),  A_VAL(v),  A_VAL(optN)};
  cu_launch(rt, "BlackScholesGPU", cu_dim(rt_ceil_div(pairs, 128), 1, 1), cu_dim(128, 1, 1), 0,
            args, 8);
  DOWN(rt, dc, call, optN);
  DOWN(rt, dp, put, optN);
  /* __expf, __logf, __fdividef are fast approximations (a few ulp, more near 0): prices up to
   * 30 within 1e-3 absolute, the sample's own tolerance scale */
  rt_cmp_f32(rt, "call", call, wc, optN, 1e-4, 1e-3);
  rt_cmp_f32(rt, "put", put, wp, optN, 1e-4, 1e-3);
}

/* cuenergy (Parboil cp, cuda_base): copyatomstoconstbuf fills __constant__ float4
 * atominfo[4000] with (x, y, dz^2, q); cenergy<<<(volx / 16, voly / 8), (16, 8)>>>(numatoms,
 * gridspacing, energygrid) adds each atom's q / r to the grid. */
static void run_parboil_cp(Rt *rt) {
  int atoms = rt_int(rt, 1, 200), gx = 16 * rt_int(rt, 1, 8), gy = 8 * rt_int(rt, 1, 16);
  float spacing = 0.1f, *info = rt_xalloc(4000 * 4 * sizeof(float));
  for (int a = 0; a < atoms; a++) {
    info[4 * a + 0] = rt_float(rt, 0, gx * spacing);
    info[4 * a + 1] = rt_float(rt, 0, gy * spacing);
    float dz = rt_float(rt, 0.1f, 2);
    info[4 * a + 2] = dz * dz;
    info[4 * a + 3] = rt_float(rt, -2, 2);
  }
  cu_symbol_write(rt, "atominfo", info, 4000 * 4 * sizeof(float));
  size_t n = (size_t)gx * gy;
  float *grid = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, grid, n, -1, 1);
  for (int y = 0; y < gy; y++)
    for (int x = 0; x < gx; x++) {
      float cx = spacing * x, cy = spacing * y, e = 0;
      for (int a = 0; a < atoms; a++) {
        float dx = cx - info[4 * a], dy = cy - info[4 * a + 1];
        float r1 = 1.0f / sqrtf(dx * dx + dy * dy + info[4 * a + 2]);
        e += info[4 * a + 3] * r1;
      }
      want[(size_t)y * gx + x] = grid[(size_t)y * gx + x] + e;
    }
  kcrt_buffer *dg = UP(rt, grid, n);
  kcrt_arg args[] = {A_VAL(atoms), A_VAL(spacing), A_BUF(dg)};
  cu_launch(rt, "cenergy", cu_dim(gx / 16, gy / 8, 1), cu_dim(16, 8, 1), 0, args, 3);
  DOWN(rt, dg, grid, n);
  /* up to 200 terms |q / r| <= 20 with fused multiply-adds and a correctly rounded or
   * ~1-ulp reciprocal square root: 200 * 20 * 2^-22 */
  rt_cmp_f32(rt, "energygrid", grid, want, n, 1e-5, 2e-3);
}

/* convolutionSeparable.cu: setConvolutionKernel fills __constant__ float c_Kernel[17];
 * convolutionRowsKernel<<<(W / 128, H / 4), (16, 4)>>>(dst, src, W, H, pitch = W) and
 * convolutionColumnsKernel<<<(W / 16, H / 64), (16, 8)>>>(dst, src, W, H, W); W a multiple of
 * 128, H of 64. Zero outside the image. */
static void run_nvidia_convolutionSeparable(Rt *rt) {
  int w = 128 * rt_int(rt, 1, 4), h = 64 * rt_int(rt, 1, 4);
  size_t n = (size_t)w * h;
  float k[17], *src = rt_xalloc(n * 4), *dst = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, k, 17, -1, 1);
  cu_fill_f32(rt, src, n, -1, 1);
  cu_symbol_write(rt, "c_Kernel", k, sizeof k);
  for (int pass = 0; pass < 2; pass++) {
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        float s = 0;
        for (int j = -8; j <= 8; j++) {
          int xx = pass ? x : x + j, yy = pass ? y + j : y;
          float v = (xx >= 0 && xx < w && yy >= 0 && yy < h) ? src[(size_t)yy * w + xx] : 0;
          s += k[8 - j] * v;
        }
        want[(size_t)y * w + x] = s;
      }
    kcrt_buffer *ds = UP(rt, src, n), *dd = OUT(rt, dst, n);
    kcrt_arg args[] = {A_BUF(dd), A_BUF(ds), A_VAL(w), A_VAL(h), A_VAL(w)};
    if (pass)
      cu_launch(rt, "convolutionColumnsKernel", cu_dim(w / 16, h / 64, 1), cu_dim(16, 8, 1), 0,
                args, 5);
    else
      cu_launch(rt, "convolutionRowsKernel", cu_dim(w / 128, h / 4, 1), cu_dim(16, 4, 1), 0, args,
                5);
    DOWN(rt, dd, dst, n);
    rt_cmp_f32(rt, pass ? "columns" : "rows", dst, want, n, 0, dot_atol(17));
    kcrt_buffer_free(ds);
    kcrt_buffer_free(dd);
  }
}

/* finite-difference.cu: setDerivativeParameters fills the __constant__ stencil coefficients
 * (c_ax...c_dz); derivative_x<<<(my / 4, mz), (mx, 4)>>> and derivative_x_lPencils<<<(my / 32,
 * mz), (mx, 4)>>>, mx = my = mz = 64 (constants of the file). Periodic in x with period mx - 1
 * (the kernels' halo: f(-k) = f(mx - 1 - k), f(mx - 1 + k) = f(k)). The sample's runTest
 * launches the lPencils kernels with grid_sp/block_sp too, which runs blocks past my; the
 * lPencils launch here uses grid_lp[0] = (my / lPencils, mz), the configuration the file sets
 * up for it. */
static void run_devblog_finite_difference(Rt *rt) {
  enum { M = 64 };
  float c[12];
  cu_fill_f32(rt, c, 12, -2, 2);
  static const char *const names[12] = {"c_ax", "c_bx", "c_cx", "c_dx", "c_ay", "c_by",
                                        "c_cy", "c_dy", "c_az", "c_bz", "c_cz", "c_dz"};
  for (int i = 0; i < 12; i++) cu_symbol_write(rt, names[i], &c[i], sizeof(float));
  size_t n = (size_t)M * M * M;
  float *f = rt_xalloc(n * 4), *df = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, f, n, -1, 1);
  for (int k = 0; k < M; k++)
    for (int j = 0; j < M; j++)
      for (int i = 0; i < M; i++) {
        const float *row = f + (size_t)k * M * M + (size_t)j * M;
#define P(ii) row[(ii) < 0 ? (ii) + M - 1 : (ii) >= M ? (ii)-M + 1 : (ii)]
        want[(size_t)k * M * M + (size_t)j * M + i] =
            (c[0] * (P(i + 1) - P(i - 1)) + c[1] * (P(i + 2) - P(i - 2)) +
             c[2] * (P(i + 3) - P(i - 3)) + c[3] * (P(i + 4) - P(i - 4)));
#undef P
      }
  kcrt_buffer *dfi = UP(rt, f, n);
  for (int v = 0; v < 2; v++) {
    kcrt_buffer *dd = OUT(rt, df, n);
    kcrt_arg args[] = {A_BUF(dfi), A_BUF(dd)};
    cu_launch(rt, v ? "derivative_x_lPencils" : "derivative_x", cu_dim(M / (v ? 32 : 4), M, 1),
              cu_dim(M, 4, 1), 0, args, 2);
    DOWN(rt, dd, df, n);
    /* four fused multiply-adds of terms up to 4: 4 * 16 * 2^-23 */
    rt_cmp_f32(rt, v ? "derivative_x_lPencils" : "derivative_x", df, want, n, 0, 4e-5);
    kcrt_buffer_free(dd);
  }
}

/* ------------------------------------------------------------------ warps, groups */

/* simpleVoteIntrinsics.cu: VoteAnyKernel1 and VoteAllKernel2 <<<1, 4 * 32>>>(input, result,
 * size), VoteAnyKernel3<<<1, 3 * 32>>>(info, 32). Inputs: each warp all zero, all one, or
 * random 0/1 (the sample uses the first two patterns). */
static void run_nvidia_simpleVote(Rt *rt) {
  enum { WARPS = 4, N = WARPS * 32 };
  uint32_t in[N], res[N], wany[N], wall[N];
  for (int w = 0; w < WARPS; w++) {
    int kind = rt_int(rt, 0, 2);
    for (int l = 0; l < 32; l++)
      in[w * 32 + l] = (uint32_t)(kind == 0   ? 0
                                  : kind == 1 ? rt_int(rt, 1, 1000)
                                              : rt_int(rt, 0, 1));
    int any = 0, all = 1;
    for (int l = 0; l < 32; l++) {
      any |= in[w * 32 + l] != 0;
      all &= in[w * 32 + l] != 0;
    }
    for (int l = 0; l < 32; l++) {
      wany[w * 32 + l] = any;
      wall[w * 32 + l] = all;
    }
  }
  int size = N;
  kcrt_buffer *di = UP(rt, in, N);
  for (int k = 0; k < 2; k++) {
    kcrt_buffer *dr = OUT(rt, res, N);
    kcrt_arg args[] = {A_BUF(di), A_BUF(dr), A_VAL(size)};
    cu_launch(rt, k ? "VoteAllKernel2" : "VoteAnyKernel1", cu_dim(1, 1, 1), cu_dim(N, 1, 1), 0,
              args, 3);
    DOWN(rt, dr, res, N);
    rt_cmp_u32(rt, k ? "__all_sync" : "__any_sync", res, k ? wall : wany, N);
    kcrt_buffer_free(dr);
  }
  uint8_t info[3 * 96], iw[3 * 96];
  memset(iw, 0, sizeof iw);
  for (int t = 0; t < 96; t++) {
    iw[3 * t] = t >= 32;     /* any thread of the warp has t >= 48 */
    iw[3 * t + 1] = t >= 48; /* written by every thread */
    iw[3 * t + 2] = t >= 64; /* all threads of the warp have t >= 48 */
  }
  int ws = 32;
  memset(info, 0, sizeof info); /* [3t + 2] is written only where the vote holds */
  kcrt_buffer *dinfo = rt_upload(rt, info, sizeof info);
  kcrt_arg a3[] = {A_BUF(dinfo), A_VAL(ws)};
  cu_launch(rt, "VoteAnyKernel3", cu_dim(1, 1, 1), cu_dim(96, 1, 1), 0, a3, 2);
  rt_download(rt, dinfo, info, sizeof info);
  for (int i = 0; i < 3 * 96; i++) /* bool is one byte: bit for bit */
    if (info[i] != iw[i]) {
      rt_fail(rt, "VoteAnyKernel3: info[%d] = %u, expected %u", i, info[i], iw[i]);
      break;
    }
}

/* binaryPartitionCG.cu: oddEvenCountAndSumCG<<<blocks, threads, 0, stream>>> with the
 * occupancy API's choice; a grid-stride loop, so any grid computes the same totals: here 16
 * blocks of 256 over arrSize elements rand() % 50. */
static void run_nvidia_binaryPartitionCG(Rt *rt) {
  unsigned size = (unsigned)rt_int(rt, 1, 1024 * 100);
  int32_t *in = rt_xalloc(size * 4), zero[2] = {0, 0}, odds, sums[2], wodds = 0, wsums[2] = {0, 0};
  cu_fill_i32(rt, in, size, 0, 49);
  for (unsigned i = 0; i < size; i++) {
    if (in[i] & 1) {
      wodds++;
      wsums[0] += in[i];
    } else {
      wsums[1] += in[i];
    }
  }
  kcrt_buffer *di = UP(rt, in, size), *dodd = UP(rt, zero, 1), *dsum = UP(rt, zero, 2);
  kcrt_arg args[] = {A_BUF(di), A_BUF(dodd), A_BUF(dsum), A_VAL(size)};
  cu_launch(rt, "oddEvenCountAndSumCG", cu_dim(16, 1, 1), cu_dim(256, 1, 1), 0, args, 4);
  DOWN(rt, dodd, &odds, 1);
  DOWN(rt, dsum, sums, 2);
  rt_cmp_i32(rt, "numOfOdds", &odds, &wodds, 1);
  rt_cmp_i32(rt, "sumOfOddAndEvens", sums, wsums, 2);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* warpAggregatedAtomicsCG.cu: filter_arr<<<NUM_ELEMS / 512 + 1, 512>>>(dst, nres, src,
 * NUM_ELEMS), src rand() % 5. The order of dst depends on the schedule: the count is
 * compared exactly and dst as a sorted multiset. */
static void run_nvidia_warpAggregatedAtomicsCG(Rt *rt) {
  int n = rt_int(rt, 1, 1000000), zero = 0, nres, wn = 0;
  int32_t *src = rt_xalloc(n * 4), *dst = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  cu_fill_i32(rt, src, n, 0, 4);
  for (int i = 0; i < n; i++)
    if (src[i] > 0) want[wn++] = src[i];
  kcrt_buffer *ds = UP(rt, src, n), *dd = OUT(rt, dst, n), *dn = UP(rt, &zero, 1);
  kcrt_arg args[] = {A_BUF(dd), A_BUF(dn), A_BUF(ds), A_VAL(n)};
  cu_launch(rt, "filter_arr", cu_dim(n / 512 + 1, 1, 1), cu_dim(512, 1, 1), 0, args, 4);
  DOWN(rt, dn, &nres, 1);
  rt_cmp_i32(rt, "nres", &nres, &wn, 1);
  if (nres == wn) {
    DOWN(rt, dd, dst, n);
    qsort(dst, wn, sizeof *dst, cmp_int);
    qsort(want, wn, sizeof *want, cmp_int);
    rt_cmp_i32(rt, "dst (sorted)", dst, want, wn);
  }
}

/* ------------------------------------------------------------------ stencils, images */

static int clampi(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* convolution.cu (Learn CUDA Programming): convolution_gpu launches convolution_kernel_v2
 * <<<((cols + 15) / 16, (rows + 15) / 16), (16, 16)>>>; v1 takes the same launch. The kernels
 * do not bound-check the output, so sizes are multiples of 16; filter_size is odd and < 16
 * (v2 asserts it). v1 clamps at the borders. v2 clamps `idx_y + row * blockDim.y`, which is
 * unsigned in CUDA (blockDim is a uint3): above the first row and left of the first column it
 * wraps to a huge value, CUDA's max(unsigned, int) and min(unsigned, int) overloads keep it
 * unsigned, and the tile reads the LAST row (column) instead of the first. That is what nvcc
 * makes of the file, and what the reference for v2 models. */
static int clamp_v2(int v, int n) {
  return v < 0 ? n - 1 : v > n - 1 ? n - 1 : v;
}

static void run_packt_convolution(Rt *rt) {
  int rows = 16 * rt_int(rt, 1, 8), cols = 16 * rt_int(rt, 1, 8), fs = 2 * rt_int(rt, 0, 7) + 1;
  size_t n = (size_t)rows * cols;
  float *in = rt_xalloc(n * 4), *out = rt_xalloc(n * 4), *want = rt_xalloc(2 * n * 4),
        *filt = rt_xalloc((size_t)fs * fs * 4);
  cu_fill_f32(rt, in, n, -1, 1);
  cu_fill_f32(rt, filt, (size_t)fs * fs, -1, 1);
  for (int v = 0; v < 2; v++)
    for (int y = 0; y < rows; y++)
      for (int x = 0; x < cols; x++) {
        float s = 0;
        for (int fr = -fs / 2; fr <= fs / 2; ++fr)
          for (int fc = -fs / 2; fc <= fs / 2; ++fc) {
            int yy = v ? clamp_v2(y + fr, rows) : clampi(y + fr, 0, rows - 1);
            int xx = v ? clamp_v2(x + fc, cols) : clampi(x + fc, 0, cols - 1);
            s += in[yy * cols + xx] * filt[(fr + fs / 2) * fs + fc + fs / 2];
          }
        want[v * n + (size_t)y * cols + x] = s;
      }
  kcrt_buffer *di = UP(rt, in, n), *df = UP(rt, filt, (size_t)fs * fs);
  for (int v = 0; v < 2; v++) {
    kcrt_buffer *dout = OUT(rt, out, n);
    kcrt_arg args[] = {A_BUF(dout), A_BUF(di), A_BUF(df), A_VAL(rows), A_VAL(cols), A_VAL(fs)};
    cu_launch(rt, v ? "convolution_kernel_v2" : "convolution_kernel_v1",
              cu_dim(cols / 16, rows / 16, 1), cu_dim(16, 16, 1), 0, args, 6);
    DOWN(rt, dout, out, n);
    rt_cmp_f32(rt, v ? "v2" : "v1", out, want + v * n, n, 0, dot_atol(fs * fs));
    kcrt_buffer_free(dout);
  }
}

/* pathfinder.cu: calc_path launches dynproc_kernel<<<blockCols, 256>>>(MIN(pyramid_height,
 * rows - t - 1), gpuWall, gpuResult[src], gpuResult[dst], cols, rows, t, borderCols) for t =
 * 0, pyramid_height, ...; borderCols = pyramid_height, smallBlockCol = 256 - 2 *
 * pyramid_height, blockCols = ceil(cols / smallBlockCol); wall = data + cols (rows - 1 rows). */
static void run_rodinia_pathfinder(Rt *rt) {
  int cols = rt_int(rt, 1, 5000), rows = rt_int(rt, 2, 60), ph = rt_int(rt, 1, 20);
  int32_t *data = rt_xalloc((size_t)rows * cols * 4), *want = rt_xalloc(cols * 4),
          *prev = rt_xalloc(cols * 4), *res = rt_xalloc(cols * 4);
  cu_fill_i32(rt, data, (size_t)rows * cols, 0, 9);
  memcpy(want, data, cols * 4);
  for (int r = 1; r < rows; r++) {
    memcpy(prev, want, cols * 4);
    for (int j = 0; j < cols; j++) {
      int m = prev[j];
      if (j > 0 && prev[j - 1] < m) m = prev[j - 1];
      if (j < cols - 1 && prev[j + 1] < m) m = prev[j + 1];
      want[j] = m + data[(size_t)r * cols + j];
    }
  }
  int border = ph, small = 256 - 2 * ph, blockCols = cols / small + (cols % small ? 1 : 0);
  kcrt_buffer *dwall = UP(rt, data + cols, (size_t)(rows - 1) * cols);
  kcrt_buffer *dr[2] = {UP(rt, data, cols), OUT(rt, res, cols)};
  int src = 1, dst = 0;
  for (int t = 0; t < rows - 1; t += ph) {
    int tmp = src;
    src = dst;
    dst = tmp;
    int it = ph < rows - t - 1 ? ph : rows - t - 1;
    kcrt_arg args[] = {A_VAL(it),   A_BUF(dwall), A_BUF(dr[src]), A_BUF(dr[dst]),
                       A_VAL(cols), A_VAL(rows),  A_VAL(t),       A_VAL(border)};
    cu_launch(rt, "dynproc_kernel", cu_dim(blockCols, 1, 1), cu_dim(256, 1, 1), 0, args, 8);
  }
  DOWN(rt, dr[dst], res, cols);
  rt_cmp_i32(rt, "result", res, want, cols);
}

/* hotspot.cu: compute_tran_temp launches calculate_temp<<<(blockCols, blockRows), (16, 16)>>>
 * (MIN(pyramid_height, total - t), power, temp[src], temp[dst], cols, rows, borderCols,
 * borderRows, Cap, Rx, Ry, Rz, step, 0.001) with the chip constants of the file. Each of the
 * `iteration` steps of a launch is one explicit stencil step with clamped neighbours; the
 * kernel computes `2.0 * t` in double, and so does the reference. */
static void run_rodinia_hotspot(Rt *rt) {
  int size = 16 * rt_int(rt, 1, 6), total = rt_int(rt, 1, 6), ph = rt_int(rt, 1, 3);
  const float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f;
  float grid_height = chip_height / size, grid_width = chip_width / size;
  float Cap = 0.5 * 1.75e6 * t_chip * grid_width * grid_height;
  float Rx = grid_width / (2.0 * 100 * t_chip * grid_height);
  float Ry = grid_height / (2.0 * 100 * t_chip * grid_width);
  float Rz = t_chip / (100 * grid_height * grid_width);
  float max_slope = 3.0e6 / (0.5 * t_chip * 1.75e6), step = 0.001 / max_slope, elapsed = 0.001f;
  size_t n = (size_t)size * size;
  float *power = rt_xalloc(n * 4), *temp = rt_xalloc(n * 4), *want = rt_xalloc(n * 4),
        *next = rt_xalloc(n * 4);
  cu_fill_f32(rt, power, n, 0, 0.5f);
  cu_fill_f32(rt, temp, n, 320, 345);
  memcpy(want, temp, n * 4);
  float sdc = step / Cap, rx1 = 1 / Rx, ry1 = 1 / Ry, rz1 = 1 / Rz, amb = 80.0;
  for (int it = 0; it < total; it++) {
    for (int y = 0; y < size; y++)
      for (int x = 0; x < size; x++) {
        float c = want[y * size + x];
        float N = want[clampi(y - 1, 0, size - 1) * size + x];
        float S = want[clampi(y + 1, 0, size - 1) * size + x];
        float W = want[y * size + clampi(x - 1, 0, size - 1)];
        float E = want[y * size + clampi(x + 1, 0, size - 1)];
        next[y * size + x] = c + sdc * (power[y * size + x] + (S + N - 2.0 * c) * ry1 +
                                        (E + W - 2.0 * c) * rx1 + (amb - c) * rz1);
      }
    memcpy(want, next, n * 4);
  }
  int small = 16 - 2 * ph, border = ph, blocks = size / small + (size % small ? 1 : 0);
  kcrt_buffer *dp = UP(rt, power, n), *dt[2] = {UP(rt, temp, n), OUT(rt, next, n)};
  int src = 1, dst = 0;
  for (int t = 0; t < total; t += ph) {
    int tmp = src;
    src = dst;
    dst = tmp;
    int it = ph < total - t ? ph : total - t;
    kcrt_arg args[] = {A_VAL(it),   A_BUF(dp),     A_BUF(dt[src]), A_BUF(dt[dst]), A_VAL(size),
                       A_VAL(size), A_VAL(border), A_VAL(border),  A_VAL(Cap),     A_VAL(Rx),
                       A_VAL(Ry),   A_VAL(Rz),     A_VAL(step),    A_VAL(elapsed)};
    cu_launch(rt, "calculate_temp", cu_dim(blocks, blocks, 1), cu_dim(16, 16, 1), 0, args, 14);
  }
  DOWN(rt, dt[dst], next, n);
  /* temperatures ~330: a few float roundings per step */
  rt_cmp_f32(rt, "temperature", next, want, n, 1e-6, 1e-4);
}

/* 3D.cu: hotspot_opt1 launches hotspotOpt1<<<(nx / 64, ny / 4), (64, 4)>>>(p, tIn, tOut,
 * stepDivCap, nx, ny, nz, ce, cw, cn, cs, ct, cb, cc) once per iteration, swapping tIn/tOut. */
static void run_rodinia_hotspot3d(Rt *rt) {
  int nx = 64 * rt_int(rt, 1, 3), ny = 4 * rt_int(rt, 1, 16), nz = rt_int(rt, 2, 8);
  size_t n = (size_t)nx * ny * nz, xy = (size_t)nx * ny;
  float sdc = rt_float(rt, 0, 0.01f), ce = rt_float(rt, 0, 0.1f), cn = rt_float(rt, 0, 0.1f),
        ct = rt_float(rt, 0, 0.1f), cw = ce, cs = cn, cb = ct,
        cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);
  float *p = rt_xalloc(n * 4), *t = rt_xalloc(n * 4), *out = rt_xalloc(n * 4),
        *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, p, n, 0, 1);
  cu_fill_f32(rt, t, n, 320, 345);
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        size_t c = i + (size_t)j * nx + k * xy;
        size_t W = i == 0 ? c : c - 1, E = i == nx - 1 ? c : c + 1, N = j == 0 ? c : c - nx,
               S = j == ny - 1 ? c : c + nx, B = k == 0 ? c : c - xy, T = k == nz - 1 ? c : c + xy;
        want[c] = cc * t[c] + cw * t[W] + ce * t[E] + cs * t[S] + cn * t[N] + cb * t[B] +
                  ct * t[T] + sdc * p[c] + ct * 80.0f;
      }
  kcrt_buffer *dp = UP(rt, p, n), *di = UP(rt, t, n), *dout = OUT(rt, out, n);
  kcrt_arg args[] = {A_BUF(dp), A_BUF(di), A_BUF(dout), A_VAL(sdc), A_VAL(nx),
                     A_VAL(ny), A_VAL(nz), A_VAL(ce),   A_VAL(cw),  A_VAL(cn),
                     A_VAL(cs), A_VAL(ct), A_VAL(cb),   A_VAL(cc)};
  cu_launch(rt, "hotspotOpt1", cu_dim(nx / 64, ny / 4, 1), cu_dim(64, 4, 1), 0, args, 14);
  DOWN(rt, dout, out, n);
  /* nine products of terms ~345 summed, possibly fused: 9 * 345 * 2^-23 */
  rt_cmp_f32(rt, "tOut", out, want, n, 0, 5e-4);
}

/* ------------------------------------------------------------------ linear algebra */

/* A random diagonally dominant matrix: elimination without pivoting stays well conditioned. */
static void dominant_matrix(Rt *rt, float *a, int n) {
  for (int i = 0; i < n; i++) {
    float row = 0;
    for (int j = 0; j < n; j++) {
      a[i * n + j] = rt_float(rt, -1, 1);
      row += fabsf(a[i * n + j]);
    }
    a[i * n + i] = row + 1;
  }
}

/* gaussian.cu, ForwardSub: for t in 0 .. Size - 2: Fan1<<<ceil(Size / 512), 512>>>(m, a,
 * Size, t); Fan2<<<(ceil(Size / 4), ceil(Size / 4)), (4, 4)>>>(m, a, b, Size, Size - t, t).
 * The reference runs the same elimination in the same order. */
static void run_rodinia_gaussian(Rt *rt) {
  int n = rt_int(rt, 2, 100);
  float *a = rt_xalloc((size_t)n * n * 4), *b = rt_xalloc(n * 4), *m = rt_xalloc((size_t)n * n * 4),
        *wa = rt_xalloc((size_t)n * n * 4), *wb = rt_xalloc(n * 4),
        *wm = rt_xalloc((size_t)n * n * 4);
  dominant_matrix(rt, a, n);
  cu_fill_f32(rt, b, n, -1, 1);
  memcpy(wa, a, (size_t)n * n * 4);
  memcpy(wb, b, n * 4);
  for (int t = 0; t < n - 1; t++) {
    for (int i = t + 1; i < n; i++) wm[i * n + t] = wa[i * n + t] / wa[t * n + t];
    for (int i = t + 1; i < n; i++) {
      for (int j = t; j < n; j++) wa[i * n + j] -= wm[i * n + t] * wa[t * n + j];
      wb[i] -= wm[i * n + t] * wb[t];
    }
  }
  kcrt_buffer *dm = UP(rt, m, (size_t)n * n), *da = UP(rt, a, (size_t)n * n), *db = UP(rt, b, n);
  int g1 = n / 512 + (n % 512 ? 1 : 0), g2 = n / 4 + (n % 4 ? 1 : 0);
  for (int t = 0; t < n - 1; t++) {
    kcrt_arg a1[] = {A_BUF(dm), A_BUF(da), A_VAL(n), A_VAL(t)};
    cu_launch(rt, "Fan1", cu_dim(g1, 1, 1), cu_dim(512, 1, 1), 0, a1, 4);
    int j1 = n - t;
    kcrt_arg a2[] = {A_BUF(dm), A_BUF(da), A_BUF(db), A_VAL(n), A_VAL(j1), A_VAL(t)};
    cu_launch(rt, "Fan2", cu_dim(g2, g2, 1), cu_dim(4, 4, 1), 0, a2, 6);
  }
  DOWN(rt, da, a, (size_t)n * n);
  DOWN(rt, db, b, n);
  /* the same operations in the same order; a - m * a may be fused: relative 1e-5 */
  rt_cmp_f32(rt, "a", a, wa, (size_t)n * n, 1e-5, 1e-5);
  rt_cmp_f32(rt, "b", b, wb, n, 1e-5, 1e-5);
  DOWN(rt, dm, m, (size_t)n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (j >= i) m[i * n + j] = wm[i * n + j] = 0; /* only the multipliers are defined */
  rt_cmp_f32(rt, "m", m, wm, (size_t)n * n, 1e-5, 1e-5);
}

/* lud.cu (lud_cuda): for i = 0; i < dim - 16; i += 16: lud_diagonal<<<1, 16>>>(m, dim, i);
 * lud_perimeter<<<(dim - i) / 16 - 1, 32>>>; lud_internal<<<((dim - i) / 16 - 1, same), (16,
 * 16)>>>; then lud_diagonal<<<1, 16>>> on the last block. dim a multiple of 16. The reference
 * is the unblocked Doolittle decomposition (L below the diagonal, unit diagonal; U on and
 * above), the same result up to the order of the additions. */
static void run_rodinia_lud(Rt *rt) {
  int dim = 16 * rt_int(rt, 1, 8);
  size_t n = (size_t)dim * dim;
  float *a = rt_xalloc(n * 4), *w = rt_xalloc(n * 4);
  dominant_matrix(rt, a, dim);
  memcpy(w, a, n * 4);
  for (int k = 0; k < dim; k++)
    for (int i = k + 1; i < dim; i++) {
      w[i * dim + k] /= w[k * dim + k];
      for (int j = k + 1; j < dim; j++) w[i * dim + j] -= w[i * dim + k] * w[k * dim + j];
    }
  kcrt_buffer *dm = UP(rt, a, n);
  int i = 0;
  for (i = 0; i < dim - 16; i += 16) {
    kcrt_arg args[] = {A_BUF(dm), A_VAL(dim), A_VAL(i)};
    cu_launch(rt, "lud_diagonal", cu_dim(1, 1, 1), cu_dim(16, 1, 1), 0, args, 3);
    int nb = (dim - i) / 16 - 1;
    cu_launch(rt, "lud_perimeter", cu_dim(nb, 1, 1), cu_dim(32, 1, 1), 0, args, 3);
    cu_launch(rt, "lud_internal", cu_dim(nb, nb, 1), cu_dim(16, 16, 1), 0, args, 3);
  }
  kcrt_arg args[] = {A_BUF(dm), A_VAL(dim), A_VAL(i)};
  cu_launch(rt, "lud_diagonal", cu_dim(1, 1, 1), cu_dim(16, 1, 1), 0, args, 3);
  DOWN(rt, dm, a, n);
  /* a dominant diagonal keeps every factor O(1): a different summation order stays within a
   * few ulp of the row sum */
  rt_cmp_f32(rt, "LU", a, w, n, 1e-4, 1e-4);
}

/* ------------------------------------------------------------------ Rodinia, misc */

/* nn.cu: euclid<<<(gridX, gridY), 256>>>(locations, distances, numRecords, lat, lng), blocks =
 * ceil(numRecords / 256), gridY = ceil(blocks / 65535), gridX = ceil(blocks / gridY). sqrt of a
 * float argument is the float overload (sqrtf). */
static void run_rodinia_nn(Rt *rt) {
  int n = rt_int(rt, 1, 100000);
  float lat = rt_float(rt, 0, 90), lng = rt_float(rt, 0, 180);
  float *loc = rt_xalloc((size_t)n * 8), *d = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  for (int i = 0; i < n; i++) {
    loc[2 * i] = rt_float(rt, 0, 90);
    loc[2 * i + 1] = rt_float(rt, 0, 180);
    float a = lat - loc[2 * i], b = lng - loc[2 * i + 1];
    want[i] = sqrtf(a * a + b * b);
  }
  uint64_t blocks = rt_ceil_div(n, 256), gy = rt_ceil_div(blocks, 65535),
           gx = rt_ceil_div(blocks, gy);
  kcrt_buffer *dl = UP(rt, loc, (size_t)n * 2), *dd = OUT(rt, d, n);
  kcrt_arg args[] = {A_BUF(dl), A_BUF(dd), A_VAL(n), A_VAL(lat), A_VAL(lng)};
  cu_launch(rt, "euclid", cu_dim(gx, gy, 1), cu_dim(256, 1, 1), 0, args, 5);
  DOWN(rt, dd, d, n);
  /* a*a + b*b may be fused, sqrtf correctly rounded: 2 ulp of values up to 200 */
  rt_cmp_f32(rt, "distances", d, want, n, 3e-7, 1e-6);
}

/* backprop_cuda.cu: bpnn_layerforward_CUDA<<<(1, in / 16), (16, 16)>>>(input_cuda,
 * output_hidden_cuda, input_hidden_cuda, hidden_partial_sum, in, hid) and
 * bpnn_adjust_weights_cuda<<<(1, in / 16), (16, 16)>>>(delta, hid, ly, in, w, oldw), hid = 16
 * (the kernels index with HEIGHT = WIDTH = 16). ETA and MOMENTUM are double: the update is
 * computed in double, as the reference does. */
static void run_rodinia_backprop(Rt *rt) {
  int blocks = rt_int(rt, 1, 64), in = 16 * blocks, hid = 16;
  size_t nw = (size_t)(in + 1) * (hid + 1);
  float *input = rt_xalloc((in + 1) * 4), *w = rt_xalloc(nw * 4),
        *psum = rt_xalloc(blocks * hid * 4), *ww = rt_xalloc(nw * 4),
        *wpsum = rt_xalloc(blocks * hid * 4);
  cu_fill_f32(rt, input, in + 1, 0, 1);
  cu_fill_f32(rt, w, nw, -1, 1);
  memcpy(ww, w, nw * 4);
  for (int by = 0; by < blocks; by++) {
    float m[16][16];
    for (int ty = 0; ty < 16; ty++)
      for (int tx = 0; tx < 16; tx++) {
        size_t idx = (size_t)(hid + 1) * 16 * by + (hid + 1) * ty + tx + 1 + (hid + 1);
        m[ty][tx] = w[idx] * input[16 * by + ty + 1];
      }
    for (int p = 2; p <= 16; p *= 2)
      for (int ty = 0; ty < 16; ty += p)
        for (int tx = 0; tx < 16; tx++) m[ty][tx] = m[ty][tx] + m[ty + p / 2][tx];
    for (int ty = 0; ty < 16; ty++)
      for (int tx = 0; tx < 16; tx++)
        ww[(size_t)(hid + 1) * 16 * by + (hid + 1) * ty + tx + 1 + (hid + 1)] = m[ty][tx];
    for (int ty = 0; ty < 16; ty++) wpsum[by * hid + ty] = m[0][ty];
  }
  kcrt_buffer *di = UP(rt, input, in + 1), *dout = rt_alloc(rt, (hid + 1) * 4), *dw = UP(rt, w, nw),
              *dps = OUT(rt, psum, blocks * hid);
  kcrt_arg a1[] = {A_BUF(di), A_BUF(dout), A_BUF(dw), A_BUF(dps), A_VAL(in), A_VAL(hid)};
  cu_launch(rt, "bpnn_layerforward_CUDA", cu_dim(1, blocks, 1), cu_dim(16, 16, 1), 0, a1, 6);
  DOWN(rt, dw, w, nw);
  DOWN(rt, dps, psum, blocks * hid);
  /* the same additions in the same order: exact */
  rt_cmp_f32(rt, "input_hidden_cuda", w, ww, nw, 0, 0);
  rt_cmp_f32(rt, "hidden_partial_sum", psum, wpsum, blocks * hid, 0, 0);

  float *delta = rt_xalloc((hid + 1) * 4), *ly = rt_xalloc((in + 1) * 4), *oldw = rt_xalloc(nw * 4),
        *wo = rt_xalloc(nw * 4);
  cu_fill_f32(rt, delta, hid + 1, -1, 1);
  cu_fill_f32(rt, ly, in + 1, 0, 1);
  cu_fill_f32(rt, w, nw, -1, 1);
  cu_fill_f32(rt, oldw, nw, -0.1f, 0.1f);
  memcpy(ww, w, nw * 4);
  memcpy(wo, oldw, nw * 4);
  for (int by = 0; by < blocks; by++)
    for (int ty = 0; ty < 16; ty++)
      for (int tx = 0; tx < 16; tx++) {
        size_t idx = (size_t)(hid + 1) * 16 * by + (hid + 1) * ty + tx + 1 + (hid + 1);
        int iy = 16 * by + ty + 1, ix = tx + 1;
        ww[idx] += ((0.3 * delta[ix] * ly[iy]) + (0.3 * wo[idx]));
        wo[idx] = ((0.3 * delta[ix] * ly[iy]) + (0.3 * wo[idx]));
      }
  for (int tx = 0; tx < 16; tx++) {
    ww[tx + 1] += ((0.3 * delta[tx + 1]) + (0.3 * wo[tx + 1]));
    wo[tx + 1] = ((0.3 * delta[tx + 1]) + (0.3 * wo[tx + 1]));
  }
  kcrt_buffer *dd = UP(rt, delta, hid + 1), *dly = UP(rt, ly, in + 1), *dw2 = UP(rt, w, nw),
              *dow = UP(rt, oldw, nw);
  kcrt_arg a2[] = {A_BUF(dd), A_VAL(hid), A_BUF(dly), A_VAL(in), A_BUF(dw2), A_BUF(dow)};
  cu_launch(rt, "bpnn_adjust_weights_cuda", cu_dim(1, blocks, 1), cu_dim(16, 16, 1), 0, a2, 6);
  DOWN(rt, dw2, w, nw);
  DOWN(rt, dow, oldw, nw);
  /* computed in double and rounded once, like the reference; a fused multiply-add in double
   * stays far below float's rounding */
  rt_cmp_f32(rt, "w", w, ww, nw, 1e-7, 1e-7);
  rt_cmp_f32(rt, "oldw", oldw, wo, nw, 1e-7, 1e-7);
}

/* ------------------------------------------------------------------ more samples */

/* cppIntegration.cu: kernel<<<1, len / 4>>>((int *)d_data) subtracts 10 from every byte of a
 * char string, kernel2<<<1, len>>>(d_data_int2) sets x = x - y. Bytes are drawn from
 * [10, 127] (the sample's input is text shifted up by 10) so no byte goes negative. */
static void run_nvidia_cppIntegration(Rt *rt) {
  int len = 4 * rt_int(rt, 1, 256);
  uint8_t *data = rt_xalloc(len), *want = rt_xalloc(len);
  for (int i = 0; i < len; i++) {
    data[i] = (uint8_t)rt_int(rt, 10, 127);
    want[i] = (uint8_t)(data[i] - 10);
  }
  kcrt_buffer *dd = rt_upload(rt, data, len);
  kcrt_arg a1[] = {A_BUF(dd)};
  cu_launch(rt, "kernel", cu_dim(1, 1, 1), cu_dim(len / 4, 1, 1), 0, a1, 1);
  rt_download(rt, dd, data, len);
  for (int i = 0; i < len; i++)
    if (data[i] != want[i]) {
      rt_fail(rt, "kernel: byte %d = %u, expected %u", i, data[i], want[i]);
      break;
    }
  int32_t *v = rt_xalloc((size_t)len * 8), *vw = rt_xalloc((size_t)len * 8);
  cu_fill_i32(rt, v, (size_t)len * 2, -1000000, 1000000);
  for (int i = 0; i < len; i++) {
    vw[2 * i] = v[2 * i] - v[2 * i + 1];
    vw[2 * i + 1] = v[2 * i + 1];
  }
  kcrt_buffer *dv = UP(rt, v, (size_t)len * 2);
  kcrt_arg a2[] = {A_BUF(dv)};
  cu_launch(rt, "kernel2", cu_dim(1, 1, 1), cu_dim(len, 1, 1), 0, a2, 1);
  DOWN(rt, dv, v, (size_t)len * 2);
  rt_cmp_i32(rt, "kernel2 (int2)", v, vw, (size_t)len * 2);
}

/* simpleZeroCopy.cu: vectorAddGPU<<<ceil(nelem / 256), 256>>>(a, b, c, nelem) on mapped host
 * memory (here ordinary buffers). */
static void run_nvidia_simpleZeroCopy(Rt *rt) {
  int n = rt_int(rt, 1, 1048576);
  float *a = rt_xalloc(n * 4), *b = rt_xalloc(n * 4), *c = rt_xalloc(n * 4),
        *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, a, n, 0, 1);
  cu_fill_f32(rt, b, n, 0, 1);
  for (int i = 0; i < n; i++) want[i] = a[i] + b[i];
  kcrt_buffer *da = UP(rt, a, n), *db = UP(rt, b, n), *dc = OUT(rt, c, n);
  kcrt_arg args[] = {A_BUF(da), A_BUF(db), A_BUF(dc), A_VAL(n)};
  cu_launch(rt, "vectorAddGPU", cu_dim(rt_ceil_div(n, 256), 1, 1), cu_dim(256, 1, 1), 0, args, 4);
  DOWN(rt, dc, c, n);
  rt_cmp_f32(rt, "c", c, want, n, 0, 0);
}

/* HSOpticalFlow addKernel.cuh: Add() launches AddKernel<<<iDivUp(count, 256), 256>>>. */
static void run_nvidia_HSOpticalFlow_add(Rt *rt) {
  int n = rt_int(rt, 1, 300000);
  float *a = rt_xalloc(n * 4), *b = rt_xalloc(n * 4), *s = rt_xalloc(n * 4),
        *want = rt_xalloc(n * 4);
  cu_fill_f32(rt, a, n, -10, 10);
  cu_fill_f32(rt, b, n, -10, 10);
  for (int i = 0; i < n; i++) want[i] = a[i] + b[i];
  kcrt_buffer *da = UP(rt, a, n), *db = UP(rt, b, n), *ds = OUT(rt, s, n);
  kcrt_arg args[] = {A_BUF(da), A_BUF(db), A_VAL(n), A_BUF(ds)};
  cu_launch(rt, "AddKernel", cu_dim(rt_ceil_div(n, 256), 1, 1), cu_dim(256, 1, 1), 0, args, 4);
  DOWN(rt, ds, s, n);
  rt_cmp_f32(rt, "sum", s, want, n, 0, 0);
}

/* simpleHyperQ.cu: sum<<<1, 32>>>(d_a, 2 * nstreams) adds the clock_t values (64-bit) that
 * kernel_A/kernel_B wrote; here the values are random and only sum runs (the clock_block
 * kernels only spin). nstreams = 32 by default, up to any count. */
static void run_nvidia_simpleHyperQ(Rt *rt) {
  int n = 2 * rt_int(rt, 1, 64);
  int64_t *c = rt_xalloc((size_t)n * 8), got, want = 0;
  for (int i = 0; i < n; i++) want += c[i] = (int64_t)(rt_u64(rt) >> 8);
  kcrt_buffer *dc = UP(rt, c, n);
  kcrt_arg args[] = {A_BUF(dc), A_VAL(n)};
  cu_launch(rt, "sum", cu_dim(1, 1, 1), cu_dim(32, 1, 1), 0, args, 2);
  rt_download(rt, dc, &got, sizeof got);
  rt_cmp_i64(rt, "d_clocks[0]", &got, &want, 1);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* mergeSort bitonic.cu: bitonicSortShared launches bitonicSortSharedKernel<<<batchSize *
 * arrayLength / 1024, 512>>>(dstKey, dstVal, srcKey, srcVal, arrayLength, sortDir) for
 * power-of-two arrayLength <= SHARED_SIZE_LIMIT (1024). Values are the keys' indices: keys
 * must come out sorted per array (ascending for sortDir 1, descending for 0), and every
 * (key, value) pair must be an input pair. */
static void run_nvidia_mergeSort_bitonic(Rt *rt) {
  uint32_t log2l = (uint32_t)rt_int(rt, 1, 10), len = 1u << log2l, dir = (uint32_t)rt_int(rt, 0, 1);
  uint32_t batch = (1024 / len) * (uint32_t)rt_int(rt, 1, 8), n = batch * len;
  uint32_t *key = rt_xalloc(n * 4), *val = rt_xalloc(n * 4), *ok = rt_xalloc(n * 4),
           *ov = rt_xalloc(n * 4), *sorted = rt_xalloc(n * 4);
  for (uint32_t i = 0; i < n; i++) {
    key[i] = rt_u32(rt) % 1000;
    val[i] = i;
  }
  kcrt_buffer *dk = UP(rt, key, n), *dv = UP(rt, val, n), *dok = OUT(rt, ok, n),
              *dov = OUT(rt, ov, n);
  kcrt_arg args[] = {A_BUF(dok), A_BUF(dov), A_BUF(dk), A_BUF(dv), A_VAL(len), A_VAL(dir)};
  cu_launch(rt, "bitonicSortSharedKernel", cu_dim(n / 1024, 1, 1), cu_dim(512, 1, 1), 0, args, 6);
  DOWN(rt, dok, ok, n);
  DOWN(rt, dov, ov, n);
  memcpy(sorted, key, n * 4);
  for (uint32_t b = 0; b < batch; b++) {
    uint32_t *s = sorted + b * len;
    qsort(s, len, 4, cmp_u32);
    if (!dir)
      for (uint32_t i = 0; i < len / 2; i++) {
        uint32_t t = s[i];
        s[i] = s[len - 1 - i];
        s[len - 1 - i] = t;
      }
  }
  rt_cmp_u32(rt, "keys", ok, sorted, n);
  for (uint32_t i = 0; i < n; i++)
    if (ov[i] >= n || ov[i] / len != i / len || key[ov[i]] != ok[i]) {
      rt_fail(rt, "value %u at %u is not the index of key %u in its array", ov[i], i, ok[i]);
      break;
    }
}

/* ------------------------------------------------------------------ the table */

const CuCase cu_cases[] = {
    {"devblog_finite_difference", run_devblog_finite_difference},
    {"devblog_saxpy", run_devblog_saxpy},
    {"devblog_shared_memory", run_devblog_shared_memory},
    {"devblog_transpose", run_devblog_transpose},
    {"nvidia_BlackScholes", run_nvidia_BlackScholes},
    {"nvidia_asyncAPI", run_nvidia_asyncAPI},
    {"nvidia_binaryPartitionCG", run_nvidia_binaryPartitionCG},
    {"nvidia_clock", run_nvidia_clock},
    {"nvidia_clock_nvrtc", run_nvidia_clock_nvrtc},
    {"nvidia_cppIntegration", run_nvidia_cppIntegration},
    {"nvidia_convolutionSeparable", run_nvidia_convolutionSeparable},
    {"nvidia_fastWalshTransform", run_nvidia_fastWalshTransform},
    {"nvidia_histogram256", run_nvidia_histogram256},
    {"nvidia_histogram64", run_nvidia_histogram64},
    {"nvidia_HSOpticalFlow_add", run_nvidia_HSOpticalFlow_add},
    {"nvidia_matrixMul_nvrtc", run_nvidia_matrixMul_nvrtc},
    {"nvidia_mergeSort_bitonic", run_nvidia_mergeSort_bitonic},
    {"nvidia_scalarProd", run_nvidia_scalarProd},
    {"nvidia_shfl_scan", run_nvidia_shfl_scan},
    {"nvidia_simpleAtomicIntrinsics", run_nvidia_simpleAtomicIntrinsics},
    {"nvidia_simpleHyperQ", run_nvidia_simpleHyperQ},
    {"nvidia_simpleAtomicIntrinsics_nvrtc", run_nvidia_simpleAtomicIntrinsics_nvrtc},
    {"nvidia_simpleOccupancy", run_nvidia_simpleOccupancy},
    {"nvidia_simpleTemplates_nvrtc", run_nvidia_simpleTemplates_nvrtc},
    {"nvidia_simpleVote", run_nvidia_simpleVote},
    {"nvidia_simpleZeroCopy", run_nvidia_simpleZeroCopy},
    {"nvidia_systemWideAtomics", run_nvidia_systemWideAtomics},
    {"nvidia_template", run_nvidia_template},
    {"nvidia_transpose", run_nvidia_transpose},
    {"nvidia_vectorAdd", run_nvidia_vectorAdd},
    {"nvidia_vectorAddDrv", run_nvidia_vectorAddDrv},
    {"nvidia_vectorAdd_nvrtc", run_nvidia_vectorAdd_nvrtc},
    {"nvidia_warpAggregatedAtomicsCG", run_nvidia_warpAggregatedAtomicsCG},
    {"olcf_matrix_mul_shared", run_olcf_matrix_mul_shared},
    {"olcf_reductions", run_olcf_reductions},
    {"packt_convolution", run_packt_convolution},
    {"packt_reduction_blk_atmc", run_packt_reduction_blk_atmc},
    {"packt_reduction_wp", run_packt_reduction_wp},
    {"packt_reduction_wrp_atmc", run_packt_reduction_wrp_atmc},
    {"packt_sgemm", run_packt_sgemm},
    {"packt_transpose_shared", run_packt_transpose_shared},
    {"parboil_cp", run_parboil_cp},
    {"rodinia_backprop", run_rodinia_backprop},
    {"rodinia_gaussian", run_rodinia_gaussian},
    {"rodinia_hotspot", run_rodinia_hotspot},
    {"rodinia_hotspot3d", run_rodinia_hotspot3d},
    {"rodinia_lud", run_rodinia_lud},
    {"rodinia_nn", run_rodinia_nn},
    {"rodinia_pathfinder", run_rodinia_pathfinder},
};
const int cu_ncases = sizeof cu_cases / sizeof cu_cases[0];
