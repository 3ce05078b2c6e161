// Pointers passed to device functions by reference (T *&) and by address (T **): the callee
// moves or replaces the caller's pointer, which points to private, shared or global memory.
// Each space gets its own clone of the callee in the forms without a generic pointer.
template <typename T> __device__ void advance(T *&p, int by) {
  p += by;
}
__device__ float take(float *&p) {
  return *p++;
}
__device__ void pick(const float **p, const float *alt, bool use) {
  if (use) *p = alt;
}
__device__ float at(float *const *pp, int k) {
  return (*pp)[k];
}

extern "C" __global__ void ptr_refs(float *out, const float *in, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i >= n) return;
  float loc[4];
  // Sums, not products: a product feeding the sum below could be contracted to an fma (CUDA).
  for (int k = 0; k < 4; k++) loc[k] = in[i] + (float)(k + 1);
  float *pl = loc;
  advance(pl, 1);
  float a = take(pl); // loc[1]
  float b = take(pl); // loc[2]
  float *ps = s;
  advance(ps, (t + 1) % ((int)blockDim.x - 1));
  float c = take(ps) + at(&ps, 0); // s[j] and s[j + 1], j = (t + 1) % (blockDim.x - 1)
  const float *pg = in, *pg2 = in;
  pick(&pg, in + i, true);
  pick(&pg2, in + n - 1, false);
  float *pp = loc;
  out[4 * i + 0] = a;
  out[4 * i + 1] = b + at(&pp, 3);
  out[4 * i + 2] = c;
  out[4 * i + 3] = *pg + *pg2;
}
