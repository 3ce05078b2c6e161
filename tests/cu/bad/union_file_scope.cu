static __device__ union {
  int a;
  float b;
};
__global__ void k(int *o) { o[0] = a; }
