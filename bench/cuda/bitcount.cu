// bitcount.cu — the CUDA twin of bench/kernels/bitcount.k, for nvcc.
extern "C" __global__ void bitcount(const unsigned long long *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = in[i];
  char c;
  for (c = 0; v; c++) v &= v - 1;
  out[i] = c;
}
