__device__ unsigned int counter;
__global__ void k(unsigned int *p) { p[0] = atomicAdd(&counter, 1u); }
