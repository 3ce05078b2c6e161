// fastmath.cu — CUDA's fast intrinsics (__expf, __logf, __sinf...) next to the precise
// functions: the intrinsics are KIR builtins marked approx, which each form writes as its fast
// version (libdevice's __nv_fast_*, OpenCL C's native_*, SPIR-V's native_*, CUDA C's __expf);
// the precise calls stay precise. tests/cu/fastmath.sh checks the spellings in every form.
__global__ void fast(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = __expf(v) + __logf(v + 2.0f) + __sinf(v) + __cosf(v) + __tanf(v) + __exp10f(v) +
         __log2f(v + 2.0f) + __log10f(v + 2.0f) + __powf(v + 2.0f, 1.5f) + __fdividef(v, 3.0f);
}

// The fast intrinsics of constants fold to the correctly rounded value, as nvcc's do (LLVM
// folds no NVVM intrinsic): e, sin(0.5), 1/3, 1/sqrt(4) and log2(16) are constants, and
// __powf(2.0f, v) is one ex2.approx of v (lg2.approx(2) folded to 1).
__global__ void folded(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = __log2f(16.0f) * __powf(2.0f, x[i]) + __expf(1.0f) + __sinf(0.5f) * __cosf(0.0f) +
         __fdividef(1.0f, 3.0f) * x[i] + rsqrtf(4.0f);
}

__global__ void precise(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  y[i] = expf(v) + logf(v + 2.0f) + sinf(v) + cosf(v);
}
