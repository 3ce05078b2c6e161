/* cuda_launch.c — runs the kernel specialisations that only tests/runtime/cuda_launch.cu's
 * host code names (a launch with deduced or explicit arguments, a host function template's
 * launch, a class template member's, a cudaLaunchKernel cast), each by the name kcc gives it,
 * on fresh random inputs, every element against a host reference; then the dims kernel on a
 * 2x3 grid of 4x2x2 blocks, which reads threadIdx, blockIdx, blockDim and gridDim whole, as
 * uint3 and dim3 values, and builds dim3s with one, two and no arguments. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_launch");
  int n = rt_int(&rt, 100, 5000);
  float *xf = rt_xalloc(n * sizeof *xf), *yf = rt_xalloc(n * sizeof *yf),
        *gotf = rt_xalloc(n * sizeof *gotf), *wantf = rt_xalloc(n * sizeof *wantf);
  double *xd = rt_xalloc(n * sizeof *xd), *gotd = rt_xalloc(n * sizeof *gotd),
         *wantd = rt_xalloc(n * sizeof *wantd);
  int32_t *xi = rt_xalloc(n * sizeof *xi), *goti = rt_xalloc(n * sizeof *goti),
          *wanti = rt_xalloc(n * sizeof *wanti);
  for (int i = 0; i < n; i++) {
    xf[i] = rt_float(&rt, -10.0f, 10.0f);
    yf[i] = rt_float(&rt, -10.0f, 10.0f);
    xd[i] = rt_double(&rt, -10.0, 10.0);
    xi[i] = (int32_t)(rt_u32(&rt) % 2000001u) - 1000000;
  }
  kcrt_dim3 blk = KCRT_DIM1(128);

  /* scale<float> and scale<double>: x *= a */
  float af = rt_float(&rt, -3.0f, 3.0f);
  double ad = rt_double(&rt, -3.0, 3.0);
  kcrt_buffer *bxf = rt_upload(&rt, xf, n * sizeof *xf), *bxd = rt_upload(&rt, xd, n * sizeof *xd);
  kcrt_arg s1[] = {KCRT_ARG_BUFFER(bxf), KCRT_ARG_VALUE(af), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "scale_float"), KCRT_DIM1(rt_ceil_div(n, 128)), blk, 0, s1, 3);
  kcrt_arg s2[] = {KCRT_ARG_BUFFER(bxd), KCRT_ARG_VALUE(ad), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "scale_double"), KCRT_DIM1(rt_ceil_div(n, 128)), blk, 0, s2, 3);
  rt_download(&rt, bxf, gotf, n * sizeof *gotf);
  rt_download(&rt, bxd, gotd, n * sizeof *gotd);
  for (int i = 0; i < n; i++) wantf[i] = xf[i] * af, wantd[i] = xd[i] * ad;
  rt_cmp_f32(&rt, "scale_float", gotf, wantf, n, 0, 0);
  rt_cmp_f64(&rt, "scale_double", gotd, wantd, n, 0, 0);

  /* axpy<float, 4> (from axpy_cuda<float>): y += a * x, four elements a thread. The kernel's
     multiply-add may be fused: one rounding of a * x (|a * x| < 20, so under 2^-19) apart at
     most. */
  kcrt_buffer *bx = rt_upload(&rt, xf, n * sizeof *xf), *by = rt_upload(&rt, yf, n * sizeof *yf);
  float a = rt_float(&rt, -2.0f, 2.0f);
  kcrt_arg s3[] = {KCRT_ARG_BUFFER(bx), KCRT_ARG_BUFFER(by), KCRT_ARG_VALUE(a), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "axpy_float_4"), KCRT_DIM1(rt_ceil_div(n, 4 * 128)), blk, 0, s3, 4);
  rt_download(&rt, by, gotf, n * sizeof *gotf);
  for (int i = 0; i < n; i++) wantf[i] = yf[i] + a * xf[i];
  rt_cmp_f32(&rt, "axpy_float_4", gotf, wantf, n, 0, 4e-6);

  /* axpy<double, 2> (from axpy_cuda<double>, x and y the same buffer): x += a * x */
  kcrt_buffer *bxd2 = rt_upload(&rt, xd, n * sizeof *xd);
  kcrt_arg s4[] = {KCRT_ARG_BUFFER(bxd2), KCRT_ARG_BUFFER(bxd2), KCRT_ARG_VALUE(ad),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "axpy_double_2"), KCRT_DIM1(rt_ceil_div(n, 2 * 128)), blk, 0, s4,
            4);
  rt_download(&rt, bxd2, gotd, n * sizeof *gotd);
  for (int i = 0; i < n; i++) wantd[i] = xd[i] + ad * xd[i];
  rt_cmp_f64(&rt, "axpy_double_2", gotd, wantd, n, 0, 1e-14);

  /* negate<int> and negate<double> (Ops<T>::negate_all through run_ops<T>) */
  kcrt_buffer *bxi = rt_upload(&rt, xi, n * sizeof *xi), *bxd3 = rt_upload(&rt, xd, n * sizeof *xd);
  kcrt_arg s5[] = {KCRT_ARG_BUFFER(bxi), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "negate_int"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, s5,
            2);
  kcrt_arg s6[] = {KCRT_ARG_BUFFER(bxd3), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "negate_double"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0,
            s6, 2);
  rt_download(&rt, bxi, goti, n * sizeof *goti);
  rt_download(&rt, bxd3, gotd, n * sizeof *gotd);
  for (int i = 0; i < n; i++) wanti[i] = -xi[i], wantd[i] = -xd[i];
  rt_cmp_i32(&rt, "negate_int", goti, wanti, n);
  rt_cmp_f64(&rt, "negate_double", gotd, wantd, n, 0, 0);

  /* fill<7> (named by a cudaLaunchKernel cast) */
  kcrt_buffer *bp = rt_upload(&rt, xi, n * sizeof *xi);
  kcrt_arg s7[] = {KCRT_ARG_BUFFER(bp), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "fill_7"), KCRT_DIM1(rt_ceil_div(n, 128)), blk, 0, s7, 2);
  rt_download(&rt, bp, goti, n * sizeof *goti);
  for (int i = 0; i < n; i++) wanti[i] = 7;
  rt_cmp_i32(&rt, "fill_7", goti, wanti, n);

  /* dims<true>: 12 words per thread, threads numbered block by block. */
  enum { GX = 2, GY = 3, BX = 4, BY = 2, BZ = 2, W = 12 };
  size_t nt = GX * GY * BX * BY * BZ;
  uint32_t *gotu = rt_xalloc(nt * W * sizeof *gotu), *wantu = rt_xalloc(nt * W * sizeof *wantu);
  kcrt_buffer *bo = rt_alloc(&rt, nt * W * sizeof *gotu);
  kcrt_arg s8[] = {KCRT_ARG_BUFFER(bo)};
  rt_launch(&rt, rt_kernel(&rt, "dims_1"), KCRT_DIM3(GX, GY, 1), KCRT_DIM3(BX, BY, BZ), 0, s8, 1);
  rt_download(&rt, bo, gotu, nt * W * sizeof *gotu);
  for (uint32_t by_ = 0; by_ < GY; by_++)
    for (uint32_t bx_ = 0; bx_ < GX; bx_++)
      for (uint32_t tz = 0; tz < BZ; tz++)
        for (uint32_t ty = 0; ty < BY; ty++)
          for (uint32_t tx = 0; tx < BX; tx++) {
            size_t flat = (by_ * GX + bx_) * (BX * BY * BZ) + (tz * BY + ty) * BX + tx;
            uint32_t *r = wantu + W * flat;
            uint32_t v[W] = {
                tx,  ty,  tz,  bx_, by_, 0, BX * 100 + BY * 10 + BZ, GX * 100 + GY * 10 + 1,
                111, 511, 671, 1};
            for (int k = 0; k < W; k++) r[k] = v[k];
          }
  rt_cmp_u32(&rt, "dims_1", gotu, wantu, nt * W);
  return rt_finish(&rt, "%d elements", n);
}
