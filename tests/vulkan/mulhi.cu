// CUDA's high-half products: BI_MUL_HI, as OpenCL C's mul_hi (tests/vulkan/mulhi.cl).
__global__ void mulhi(int *a, unsigned *b, long long *c, unsigned long long *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = __mulhi(a[i + 1], a[i + 2]);
  b[i] = __umulhi(b[i + 1], b[i + 2]);
  c[i] = __mul64hi(c[i + 1], c[i + 2]);
  d[i] = __umul64hi(d[i + 1], d[i + 2]);
}
