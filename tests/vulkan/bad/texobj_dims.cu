__global__ void k(cudaTextureObject_t t, float *o) {
  o[threadIdx.x] = tex2D<float>(t, threadIdx.x, 0.5f) + tex1D<float>(t, threadIdx.x);
}
