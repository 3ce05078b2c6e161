// std::array::at throws, which device code cannot.
#include <array>
__global__ void array_at(int *p) {
  std::array<int, 4> a = {p[0], p[1], p[2], p[3]};
  p[4] = a.at(1) + a[2];
}
