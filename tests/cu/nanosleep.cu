// __nanosleep (CUDA Programming Guide: the thread sleeps about ns nanoseconds, anywhere in
// [0, 2 ns]): PTX nanosleep.u32 from sm_70 on; OpenCL C and SPIR-V evaluate the argument and
// go on (sleeping 0 ns is within the definition). tests/cu/nanosleep.sh checks the PTX.
__device__ unsigned calls;

__device__ unsigned next_delay(unsigned ns) {
  atomicAdd(&calls, 1u);
  return ns * 2;
}

// A back-off loop as real code writes one: the argument has a side effect that must happen
// in every form, and the result never depends on how long the thread slept.
__global__ void backoff(const int *ready, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned ns = 8;
  int tries = 0;
  while (!ready[i] && tries < 4) {
    __nanosleep(ns);
    __nanosleep(ns = next_delay(ns));
    tries++;
  }
  out[i] = tries * 1000 + (int)ns;
}
