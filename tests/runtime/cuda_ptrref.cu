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

// Pointers moved backwards (negative indices and offsets, --, char arithmetic) into global,
// shared and private memory: NVIDIA's Vulkan driver once read nothing through such a pointer
// (docs/driver-bugs.md 31). Integers, so every result is exact.
extern "C" __global__ void ptr_back(int *out, const int *in, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  if (i >= n) return;
  const int *q = in + i + 1;
  out[5 * i + 0] = q[-1];                     // in[i]
  const int *last = in + n - 1;
  out[5 * i + 1] = *(last - (n - 1 - i));     // in[i], a run-time offset
  int *ps = s + blockDim.x;
  --ps;
  ps -= t;
  out[5 * i + 2] = *ps;                       // s[blockDim.x - 1 - t]
  unsigned off = sizeof(int) * (1 + (i & 1));
  const char *c = (const char *)(in + i + 1);
  out[5 * i + 3] = *(const int *)(c - off);   // in[i - (i & 1)]
  int loc[4] = {in[i] + 1, in[i] + 2, in[i] + 3, in[i] + 4};
  int *pl = loc + 4;
  int k = 1 + (i & 3);
  out[5 * i + 4] = pl[-k] + *(pl - 4);        // loc[4 - k] + loc[0]
}
