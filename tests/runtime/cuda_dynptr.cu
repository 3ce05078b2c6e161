// Dynamic shared memory reached through pointers (kept in variables, moved, compared, passed
// to device functions), viewed as two element types at once (float and int arrays at the same
// address), with float atomicAdd and atomicExch on it, beside static shared arrays (one whose
// address escapes, one indexed in place). The Vulkan form keeps such dynamic memory in the
// workgroup's block of the runtime's scratch buffer, after the static arrays there
// (docs/cli.md, "The Vulkan form"); tests/runtime/cuda_dynptr.c launches with two dynamic
// sizes and compares every output with the host.
__device__ float sum8(const float *p) {
  float s = 0.0f;
  for (int k = 0; k < 8; k++) s += p[k];
  return s;
}

__device__ void bump(int *c) {
  atomicAdd(c, 1);
}

// buf: blockDim.x floats of data, then from element m (m >= blockDim.x) blockDim.x ints, then
// 4 float accumulators and 2 int counters.
extern "C" __global__ void dynptr(const float *in, float *out, int *iout, int m) {
  extern __shared__ float buf[];
  extern __shared__ int ibuf[];
  __shared__ int tally[32];
  __shared__ float plain[256];
  int t = threadIdx.x, b = blockIdx.x, n = blockDim.x, i = b * n + t;
  float v = in[i];
  float *p = buf + t;
  *p = v;
  int *cnt = ibuf + m;
  cnt[t] = t * 3 + b;
  float *acc = &buf[m + n];
  if (t < 4) acc[t] = 0.0f;
  if (t < 2) ibuf[m + n + 4 + t] = 0;
  if (t < 32) tally[t] = 0;
  plain[t] = v * 2.0f;
  __syncthreads();
  float s = sum8(buf + (t & ~7));
  atomicAdd(&acc[t & 3], (float)(t & 7));
  bump(&tally[t & 31]);
  atomicAdd(&ibuf[m + n + 4 + (t & 1)], t + 1);
  __syncthreads();
  float prev = atomicExch(p, v * 0.5f);
  __syncthreads();
  float *q = buf + (n - 1 - t);
  float *lo = p < q ? p : q, *hi = p < q ? q : p;
  out[5 * i] = s;
  out[5 * i + 1] = prev;
  out[5 * i + 2] = buf[(t + 1) % n];
  out[5 * i + 3] = acc[t & 3];
  out[5 * i + 4] = plain[n - 1 - t];
  iout[3 * i] = cnt[(t + 5) % n];
  iout[3 * i + 1] = tally[t & 31] + 1000 * ibuf[m + n + 4 + (t & 1)];
  iout[3 * i + 2] = (int)(hi - lo) * 1000 + (int)(lo - buf);
}

// Dynamic shared memory indexed in place only, in a module where it lives in the block all the
// same: a reversal within each block.
extern "C" __global__ void dynrev(const int *in, int *out) {
  extern __shared__ int r[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  r[t] = in[i];
  __syncthreads();
  out[i] = r[blockDim.x - 1 - t];
}

// No dynamic shared memory: its block still ends with the (default-sized) dynamic part.
extern "C" __global__ void nodyn(const int *in, int *out) {
  __shared__ int a[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int *p = a + t;
  *p = in[i] + 1;
  __syncthreads();
  out[i] = a[(t + 3) % blockDim.x];
}
