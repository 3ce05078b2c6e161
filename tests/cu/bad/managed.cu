__managed__ int total;
__global__ void k(int *p) { p[0] = total; }
