// The C++ standard library device code may use (docs/dialect.md, "CUDA input"): each family
// kcc's own headers give, in device code, through every form.
#include <algorithm>
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

template <class T, class Op> __device__ T fold(const T *v, int n, T init, Op op) {
  for (int i = 0; i < n; i++) init = op(init, v[i]);
  return init;
}

template <class T> __device__ std::enable_if_t<std::is_floating_point_v<T>, T> mag(T x) {
  return std::abs(x);
}
template <class T> __device__ std::enable_if_t<std::is_integral_v<T>, T> mag(T x) {
  return x < 0 ? -x : x;
}

template <std::size_t... I> __device__ int sum_seq(std::index_sequence<I...>) {
  return (0 + ... + (int)I);
}

struct Point {
  float x, y;
};

__global__ void stdlib_families(const float *in, float *out, std::int32_t *iout,
                                std::uint32_t n) {
  std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = in[t], y = in[t + n];
  // <cmath>: float, double, integer and mixed overloads; classification
  float f = std::sin(x) + std::exp2(y) + std::hypot(x, y, 1.0f) + std::remainder(x, 2.0f);
  double d = std::sqrt((int)t) + std::atan2(x, 1.0) + std::pow(t, 2) + std::nan("");
  int e = 0;
  f += std::frexp(x, &e) + std::scalbn(y, 2) + std::logb(x) + (float)std::llround(y);
  iout[t] = std::fpclassify(x) + std::isnormal(y) + std::signbit(x) + std::isunordered(x, y) +
            std::isless(x, y) + e + std::ilogb(y);
  // <algorithm>, <functional>, <array>, <iterator>
  std::array<float, 4> a = {x, y, x * y, x - y};
  std::array<float, 4> b{};
  b.fill(1.0f);
  b.swap(a);
  float m = *std::max_element(std::begin(b), std::end(b)) + std::min({x, y, 0.5f}) +
            std::clamp(x, -1.0f, 1.0f, std::less<float>()) + b.front() + b.back() +
            std::get<2>(b) + (float)std::distance(b.begin(), std::next(b.begin(), 2));
  auto mm = std::minmax_element(in + t, in + t + 2); // a pair of pointers: to global memory
  m += *mm.first - *mm.second + fold(b.data(), (int)b.size(), 0.0f, std::plus<>()) +
       fold(b.data(), 4, 1.0f, std::multiplies<float>()) + (b == a) + (a < b);
  int ints[3] = {(int)t, 7, -3};
  std::iterator_traits<int *>::value_type s = 0;
  for (std::size_t i = 0; i < std::size(ints); i++) s += std::bit_xor<int>()(ints[i], 1);
  iout[t + n] = s + *std::min_element(ints, ints + 3) + sum_seq(std::make_index_sequence<4>()) +
                std::exchange(ints[0], 5) + mag(-4) + std::logical_and<>()(s, t);
  // <limits>, <type_traits>, <cstdint>, <climits>, <cfloat>, <cstring>, cuda::std
  static_assert(std::numeric_limits<std::uint16_t>::max() == 65535, "limits");
  static_assert(std::is_same_v<std::make_unsigned_t<int>, unsigned>, "traits");
  static_assert(cuda::std::is_trivially_copyable<Point>::value, "libcu++ spelling");
  static_assert(std::tuple_size<std::array<int, 5>>::value == 5, "tuple_size");
  Point p = {m, f}, q;
  std::memcpy(&q, &p, sizeof q);
  out[t] = q.x + q.y + (float)d + mag(y) + FLT_EPSILON * (INT_MAX > 0) +
           cuda::std::numeric_limits<float>::denorm_min() +
           std::numeric_limits<double>::round_error() + (std::numeric_limits<float>::max_digits10 == 9);
}
