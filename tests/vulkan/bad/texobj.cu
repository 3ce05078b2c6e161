__global__ void k(cudaTextureObject_t t, float *o) { o[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x); }
