texture<float, 1, cudaReadModeElementType> tex;
__global__ void k(float *p) { p[0] = 1.0f; }
