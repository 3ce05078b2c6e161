// CUDA 12's 128-bit atomicCAS (compute capability 9.x): no form of kcc's has a 16-byte atomic.
struct __align__(16) pair { unsigned long long lo, hi; };
__global__ void swap_pair(pair *p, pair want, pair v) {
  pair old = atomicCAS(p, want, v);
  p[1] = old;
}
