// cuda_api.cu — CUDA device functions that are arithmetic or plain memory access: every SIMD
// intrinsic, __dp4a and __dp2a, the cache-hint loads and stores, sincosf, math_constants.h.
// cuda_api.c runs them through libkcrt; tests/gpu/cuda_api_nvcc.cu runs the same kernels
// compiled by nvcc against the same references (cuda_api_ref.h).
#include <math_constants.h>

#include "cuda_api_ref.h"

#define SIMD_CALL1(name)            __##name(x)
#define SIMD_CALL2(name)            __##name(x, y)
#define SIMD_ONE(name, n, op, s, w) o[k++] = SIMD_CALL##n(name);

__global__ void simd(const unsigned *a, const unsigned *b, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = a[i], y = b[i], *o = out + (size_t)i * SIMD_NOPS;
  int k = 0;
  SIMD_OPS(SIMD_ONE)
}

__global__ void dots(const int *a, const int *b, const int *c, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned ua = (unsigned)a[i], ub = (unsigned)b[i], uc = (unsigned)c[i];
  out[6 * i + 0] = __dp4a(a[i], b[i], c[i]);
  out[6 * i + 1] = (int)__dp4a(ua, ub, uc);
  out[6 * i + 2] = __dp2a_lo(a[i], b[i], c[i]);
  out[6 * i + 3] = (int)__dp2a_lo(ua, ub, uc);
  out[6 * i + 4] = __dp2a_hi(a[i], b[i], c[i]);
  out[6 * i + 5] = (int)__dp2a_hi(ua, ub, uc);
}

// Each load and store hint moves the value unchanged.
__global__ void hints(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __stwb(out + i, __ldg(in + i));
  __stcg(out + n + i, __ldcg(in + i) + __ldca(in + i));
  __stcs(out + 2 * n + i, __ldcs(in + i) * __ldlu(in + i));
  __stwt(out + 3 * n + i, __ldcv(in + i) - CUDART_PI_F);
}

__global__ void sincos_pairs(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s, c;
  sincosf(in[i], &s, &c);
  out[4 * i + 0] = s;
  out[4 * i + 1] = sinf(in[i]);
  out[4 * i + 2] = c;
  out[4 * i + 3] = cosf(in[i]);
}

// Atomics: block scope (atomicX_block, run at device scope), and an overload CUDA does not
// declare, which a file may add (CuPy adds this one).
__device__ long long atomicAdd(long long *address, long long val) {
  return (long long)atomicAdd((unsigned long long *)address, (unsigned long long)val);
}

__global__ void scoped_atomics(const int *in, int *counts, long long *total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd_block(&counts[blockIdx.x], 1);
  atomicMax_block(&counts[gridDim.x + blockIdx.x], in[i]);
  atomicAdd(total, (long long)in[i] - 1000);
}
