__global__ void k(int *p) {
  int a[4] = {1, 2, 3, 4};
  int s = 0;
  for (int x : a) s += x;
  p[0] = s;
}
