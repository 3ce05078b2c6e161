// cuda_names.cu — kernels whose names kcc makes up (an overload's, a template
// specialisation's) next to kernels written with those very names: the written names stay
// with their kernels, so a launch by a source name runs that kernel's body
// (tests/runtime/cuda_names.c). Each kernel adds its own tag to every element.

__global__ void k(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

__global__ void k(float *p, int n) {  // an overload: kcc names it
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 2.0f;
}

extern "C" __global__ void k_float_p(float *p, int n) {  // the name kcc would have made up
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 3.0f;
}

template <typename T> __global__ void t(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += (T)4;
}
template __global__ void t<int>(int *, int);  // kcc names it after its template argument

__global__ void t_int(int *p, int n) {  // written after the specialisation, keeps its name
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 5;
}
