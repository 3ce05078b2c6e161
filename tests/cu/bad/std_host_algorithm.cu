// <algorithm>'s non-constexpr algorithms run on the host in CUDA: one error at the call, saying so.
#include <algorithm>
int host_only(int *p, int n) {
  std::sort(p, p + n); // host code may
  int c = std::count(p, p + n, 1);
  return c;
}
__global__ void sort_in_kernel(int *p, int n) {
  std::sort(p, p + n);
}
