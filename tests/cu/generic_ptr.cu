// Pointers that point to global memory for some threads and to shared or private memory for
// others: generic pointers, which PTX and the CUDA C form keep (a plain `T *` in CUDA device
// code is generic, so kcc writes one as nvcc expects it), and which OpenCL C and the OpenCL
// SPIR-V, with one address space per pointer, refuse naming their form.
__device__ float bump(float *p, float by) { // called with a generic pointer
  *p += by;
  return *p;
}

extern "C" __global__ void spaces(float *out, const float *in, int n) {
  __shared__ float tile[256];
  float mine[2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  if (i >= n) return;
  tile[t] = in[i] * 2.0f;
  mine[0] = in[i] - 1.0f;
  mine[1] = 0.0f;
  out[i] = in[i];
  float *p = i % 3 == 0 ? &out[i] : i % 3 == 1 ? &tile[t] : mine; // global, shared or private
  float v = bump(p, 0.5f);
  out[i] = v + (float)(i % 3);
}
