__global__ void k(int *p) {
  auto inc = [y = 1](int x) { return x + y; };
  p[0] = inc(p[0]);
}
