// cuda_launch.cu — kernel templates instantiated by host code, as a CUDA program launches them:
// nvcc compiles every kernel specialisation a launch, a cast or a pointer names, host
// function templates' instantiations included, and so does kcc (frontend/parse.c, "kernels
// host code names"). The host half uses the CUDA runtime's host API, which kcc does not
// declare: its errors concern host code only. cuda_launch.c launches each specialisation by
// the name kcc gives it and checks every element, and the dims kernel reads threadIdx & co.
// whole, as uint3 and dim3 values.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

template <typename T> __global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

template <typename T, int UNROLL> __global__ void axpy(const T *x, T *y, T a, int n) {
  int i0 = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; u++)
    if (i0 + u < n) y[i0 + u] += a * x[i0 + u];
}

template <typename T> __global__ void negate(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

template <int N> __global__ void fill(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = N;
}

// Every launch dimension, read through whole uint3/dim3 values.
template <bool WITH_DIMS> __global__ void dims(unsigned *o) {
  uint3 t = threadIdx;
  uint3 b = blockIdx;
  dim3 bd = blockDim;
  dim3 gd(gridDim);
  dim3 one;
  dim3 five(5);
  dim3 part(6, 7);
  uint3 back = part;
  unsigned flat = ((b.z * gd.y + b.y) * gd.x + b.x) * (bd.x * bd.y * bd.z) +
                  (t.z * bd.y + t.y) * bd.x + t.x;
  unsigned *r = o + 12 * flat;
  r[0] = t.x, r[1] = t.y, r[2] = t.z;
  r[3] = b.x, r[4] = b.y, r[5] = b.z;
  r[6] = bd.x * 100 + bd.y * 10 + bd.z;
  r[7] = gd.x * 100 + gd.y * 10 + gd.z;
  r[8] = one.x * 100 + one.y * 10 + one.z;
  r[9] = five.x * 100 + five.y * 10 + five.z;
  r[10] = back.x * 100 + back.y * 10 + back.z;
  r[11] = WITH_DIMS;
}

// A host function template launching a kernel template: each of its instantiations
// instantiates the kernel for its T. Its calls of the runtime API with arguments of type T
// are checked when it is instantiated, so they must be declared (frontend/cuda/cuda_host.c).
template <typename T> static void axpy_cuda(const T *x, T *y, T a, int n, cudaStream_t s) {
  constexpr int U = sizeof(T) == 8 ? 2 : 4;
  int threads = 128;
  cudaFuncAttributes attr;
  if (cudaFuncGetAttributes(&attr, axpy<T, U>) == cudaSuccess && attr.maxThreadsPerBlock < 128)
    threads = attr.maxThreadsPerBlock;
  T *copy;
  cudaMalloc(&copy, n * sizeof(T));
  cudaMemcpyAsync(copy, x, n * sizeof(T), cudaMemcpyDeviceToDevice, s);
  axpy<T, U><<<(n + threads * U - 1) / (threads * U), threads, 0, s>>>(copy, y, a, n);
  cudaStreamSynchronize(s);
  cudaFree(copy);
}

// Two levels down, through a class template's member and if constexpr.
template <typename T> struct Ops {
  static void negate_all(T *x, int n) {
    if constexpr (sizeof(T) >= 4)
      negate<<<dim3((n + 63) / 64), dim3(64)>>>(x, n);
  }
};
template <typename T> static void run_ops(T *x, int n) { Ops<T>::negate_all(x, n); }

int main() {
  const int n = 1000;
  std::vector<float> host(n);
  float *xf, *yf;
  double *xd;
  int *p;
  cudaMalloc(&xf, n * sizeof(float));
  cudaMalloc(&yf, n * sizeof(float));
  cudaMalloc(&xd, n * sizeof(double));
  cudaMalloc(&p, n * sizeof(int));
  scale<<<(n + 255) / 256, 256>>>(xf, 2.0f, n); // deduced: scale<float>
  scale<double><<<(n + 255) / 256, 256>>>(xd, 3.0, n);
  axpy_cuda(xf, yf, 0.5f, n, 0);
  axpy_cuda<double>(xd, xd, 1.5, n, 0);
  run_ops(p, n);
  run_ops(xd, n);
  void *args[] = {&p, (void *)&n};
  cudaLaunchKernel((const void *)fill<7>, dim3(4), dim3(256), args, 0, 0);
  unsigned *o;
  cudaMalloc(&o, 12 * 2 * 3 * 4 * 2 * 2 * sizeof(unsigned));
  dims<true><<<dim3(2, 3), dim3(4, 2, 2)>>>(o);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
