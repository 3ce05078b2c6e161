__global__ void k(int *p) {
  asm volatile("st.global.u32 [%0], 1;" : : "m"(p[0]));
}
