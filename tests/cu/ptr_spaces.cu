// Pointers to pointers whose inner pointer takes two address spaces: CUDA, PTX, CUDA C and
// the Vulkan form (whose pointers all look alike) take them; OpenCL C and the OpenCL SPIR-V,
// which have no generic pointer, refuse them with the place and the spaces.
__device__ void set(float **p, float *g) {
  *p = g;
}

extern "C" __global__ void store_other_space(float *out, float *g) {
  __shared__ float s[4];
  s[threadIdx.x % 4] = 1.0f;
  __syncthreads();
  float *p = s;
  set(&p, g); // a global pointer stored into a pointer to shared memory
  out[threadIdx.x] = *p;
}

extern "C" __global__ void either_space(float *out, const float *in, int c) {
  __shared__ float s[4];
  float loc[4] = {in[0], in[1], in[2], in[3]};
  s[threadIdx.x % 4] = in[threadIdx.x % 4] * 2.0f;
  __syncthreads();
  float *a = s, *b = loc;
  float **pp = c ? &a : &b; // a pointer to a pointer to shared or to private memory
  out[threadIdx.x] = (*pp)[threadIdx.x % 4];
}
