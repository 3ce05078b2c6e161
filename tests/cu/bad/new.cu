__global__ void k(int *p) {
  int *q = new int[4];
  p[0] = q[0];
}
