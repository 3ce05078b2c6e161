// Float atomics on static shared memory (issue 27): atomicAdd of float and double, atomicExch
// of float, on an array and a scalar; the Vulkan form places them in the workgroup's block.
// python/tests/test_shared_float_atomics.py runs them against a reference.
__global__ void fatomic(const float *x, float *o, double *d) {
  __shared__ float s[4];
  __shared__ double sd[2];
  __shared__ float v;
  int t = threadIdx.x;
  if (t < 4) s[t] = 0.0f;
  if (t < 2) sd[t] = 0.0;
  if (t == 0) v = 0.0f;
  __syncthreads();
  float a = atomicAdd(&s[t % 4], x[t]);
  double b = atomicAdd(&sd[t % 2], (double)x[t]);
  float c = atomicExch(&v, x[t]);
  __syncthreads();
  o[t] = a + c + s[t % 4];
  d[t] = b + sd[t % 2];
}
