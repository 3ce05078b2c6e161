// The C++ library names nvcc's implicit cuda_runtime.h brings with libstdc++ in C++17 (its
// <cmath> includes bits/stl_algobase.h, <type_traits>, <utility>, <limits>,
// <initializer_list>): no #include, as real CUDA files use them.
template <class T> __device__ constexpr T smaller(T a, T b) { return std::min(a, b); }

__device__ int total(std::initializer_list<int> l) {
  int s = 0;
  for (const int *p = l.begin(); p != l.end(); ++p) s += *p;
  return s;
}

__global__ void implicit_std(int *p, float *q, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int a = p[i], b = p[i + n];
  std::swap(a, b);
  std::pair<int, float> pr = std::make_pair(a, q[i]);
  p[i] = std::max(a, b) + smaller(pr.first, 3) + total({a, b, 5});
  p[i + n] = std::numeric_limits<int>::max() - std::min<int>(b, 0);
  q[i] = std::sqrt(q[i]) + std::is_same<decltype(std::move(q[i])), float &&>::value +
         std::numeric_limits<float>::epsilon() + std::abs(pr.second) + std::floor(std::fabs(q[i]));
}
