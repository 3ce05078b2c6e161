__global__ void k(const cudaTextureObject_t *t, float *o) { o[0] = tex1Dfetch<float>(t[0], 0); }
