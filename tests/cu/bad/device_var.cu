__device__ int *table;
__global__ void k(int *p) { p[0] = table[0]; }
