// cuda_stdlib.cu — the C++ standard library in device code as CUDA has it (docs/dialect.md,
// "CUDA input"): std::min/max, <utility>, <limits> and <initializer_list> with no #include (nvcc's
// cuda_runtime.h brings them), <cmath>'s std:: functions with their float, integer and mixed
// overloads and classification functions, <algorithm>, <array>, <functional>, and range-based
// for over arrays, braced lists and std::array;
// cuda_stdlib.c checks every result against the host's C library.
#include <algorithm>
#include <array>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>

__device__ int sum_list(std::initializer_list<int> l) {
  int s = 0;
  for (const int *p = l.begin(); p != l.end(); ++p) s += *p;
  return s + 1000 * (int)l.size();
}

template <class T> __device__ T clamp_unit(T v) {
  return std::clamp(v, -std::numeric_limits<T>::max() / 2, std::numeric_limits<T>::max() / 2);
}

__global__ void stdlib(const float *xs, const float *ys, const int *is, const int *js, float *of,
                       double *od, int *oi, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float x = xs[t], y = ys[t];
  int i = is[t], j = js[t];
  // float: the float overloads, never through double
  of[0 * n + t] = std::sqrt(std::abs(x));
  of[1 * n + t] = std::abs(x);
  of[2 * n + t] = std::min(x, y);
  of[3 * n + t] = std::max(x, y);
  of[4 * n + t] = clamp_unit(x);
  of[5 * n + t] = std::fma(x, y, x);
  of[6 * n + t] = std::fmin(x, y);
  of[7 * n + t] = std::max({x, y, std::trunc(x)});
  of[8 * n + t] = std::copysign(std::floor(x), y);
  of[9 * n + t] = std::nextafter(x, y);
  // double: an integer argument is double, a mixed call the wider type
  od[0 * n + t] = std::sqrt(std::abs(i));
  od[1 * n + t] = std::pow(i, 2);
  od[2 * n + t] = std::ldexp(i, 3);
  od[3 * n + t] = std::fmax(x, (double)y);
  od[4 * n + t] = std::fdim(i, x);
  // integers and classification
  int a = i, b = j;
  std::swap(a, b);
  std::array<int, 3> arr = {i, j, i - j};
  auto mm = std::minmax(i, j);
  oi[0 * n + t] = std::min(i, j);
  oi[1 * n + t] = std::max(i, j);
  oi[2 * n + t] = std::abs(i);
  oi[3 * n + t] = std::clamp(i, -50, 50);
  oi[4 * n + t] = std::fpclassify(x);
  oi[5 * n + t] = std::isnormal(x) + 2 * std::signbit(x) + 4 * std::isinf(x) + 8 * std::isnan(x) +
                  16 * std::isfinite(x);
  oi[6 * n + t] = std::isgreater(x, y) + 2 * std::isgreaterequal(x, y) + 4 * std::isless(x, y) +
                  8 * std::islessequal(x, y) + 16 * std::islessgreater(x, y) +
                  32 * std::isunordered(x, y);
  oi[7 * n + t] = a - 2 * b;
  oi[8 * n + t] = mm.first * 3 + mm.second;
  oi[9 * n + t] = (int)(std::max_element(arr.begin(), arr.end()) - arr.begin()) +
                  10 * *std::min_element(arr.begin(), arr.end());
  oi[10 * n + t] = std::plus<int>()(i, j) * std::multiplies<>()(2, 3) - std::negate<int>()(j);
  oi[11 * n + t] = sum_list({i, j, 7});
  oi[12 * n + t] = std::isfinite(x) && std::abs(x) < 1e9f ? (int)std::lround(x) : 0;
  oi[13 * n + t] = x != 0 && std::isfinite(x) ? std::ilogb(x) : 0;
  oi[14 * n + t] = (std::numeric_limits<int>::max() == INT_MAX) +
                   2 * (std::numeric_limits<unsigned char>::max() == 255) +
                   4 * (std::numeric_limits<float>::digits == 24) +
                   8 * (std::numeric_limits<double>::max_exponent == 1024) +
                   16 * (std::numeric_limits<float>::lowest() == -FLT_MAX) +
                   32 * (std::numeric_limits<float>::infinity() > FLT_MAX) +
                   64 * (std::numeric_limits<std::int64_t>::min() < 0) +
                   128 * std::is_same<std::common_type_t<int, float>, float>::value;
  int ra[3] = {i, j, 7}, rs = 0; // range-based for over an array, a braced list, std::array
  for (int &v : ra) v *= 2;
  for (const int v : ra) rs += v;
#pragma unroll
  for (int v : {i, j}) rs += 3 * v;
  for (auto v : arr) rs += v;
  oi[16 * n + t] = rs;
  oi[15 * n + t] = std::get<2>(arr) + (int)arr.size() * 1000 + (arr == arr) * 10000;
}
