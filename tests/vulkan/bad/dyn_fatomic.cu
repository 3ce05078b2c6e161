// A float atomic on dynamic shared memory: the Workgroup array cannot be viewed as integers.
__global__ void k(float *o) {
  extern __shared__ float s[];
  atomicAdd(&s[threadIdx.x % 4], 1.0f);
  o[0] = s[0];
}
