struct Acc {
  int bias;
  __device__ int add(int x) {
    auto f = [this](int v) { return v + bias; };
    return f(x);
  }
};
__global__ void k(int *p) {
  Acc a = {p[1]};
  p[0] = a.add(p[0]);
}
