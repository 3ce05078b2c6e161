__device__ float get(cudaTextureObject_t t, int i) { return tex1Dfetch<float>(t, i); }
__global__ void k(cudaTextureObject_t t, float *o) { o[threadIdx.x] = get(t, threadIdx.x); }
