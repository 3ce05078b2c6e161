__global__ void k(unsigned *p) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  p[threadIdx.x] = lane;
}
