__global__ void k(unsigned *p) {
  unsigned lane;
  asm("mov.u32 %[l], %%laneid;" : [l] "=r"(lane));
  p[threadIdx.x] = lane;
}
