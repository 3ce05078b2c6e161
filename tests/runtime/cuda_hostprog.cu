// cuda_hostprog.cu — a whole CUDA program as projects ship one: the host half uses the C++
// standard library, OpenMP, cuBLAS, cuRAND, Thrust, getopt and a project header that is not
// here; none of those exist for kcc, and none of it stops the kernels (frontend/cuda/hostcode.c).
// The kernels use what CUDA lets device code take from the C++ library (frontend/cuda/cxxlib.c).
// cuda_hostprog.c runs them against host references.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <getopt.h>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cublas_v2.h>
#include <curand.h>
#include <thrust/device_vector.h>

#include "project_host_utils.h" // the project's own host helpers: not in this directory

// Namespaces of headers kcc does not have, brought in at file scope as projects do: nothing
// that the kernels use comes through them.
using namespace thrust::placeholders;
namespace blas = project_blas;

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) throw std::runtime_error(cudaGetErrorString(e_));                     \
  } while (0)

// Host-only types with standard-library members.
struct Options {
  std::string name = "hostprog";
  std::vector<int> sizes;
  std::map<std::string, double> params;
  std::unique_ptr<FILE, int (*)(FILE *)> log{nullptr, fclose};
};

class Timer {
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

public:
  double ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
        .count();
  }
};

// A type both halves use.
template <typename T> struct Range {
  T lo, hi;
  __host__ __device__ T clamp(T v) const { return std::min(std::max(v, lo), hi); }
};

template <typename T> __device__ T scale_of() {
  if constexpr (std::is_floating_point_v<T>)
    return T(0.5);
  else
    return T(2);
}

__global__ void clamp_scale(const float *in, float *out, Range<float> r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = r.clamp(in[i]) * scale_of<float>() + std::sqrt(std::fabs(in[i]));
}

__global__ void int_ops(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  std::int32_t a = std::abs(v);
  std::swap(a, v);
  out[i] = std::clamp(v, -1000, 1000) + scale_of<int>() * (a & 7) +
           (std::numeric_limits<int>::max() >> 20);
}

// A host function template with types from headers kcc does not have, explicitly instantiated
// as projects do for the launchers their other files call.
template <int N>
std::vector<blas::Tensor> host_table(blas::Tensor t, int64_t n, std::vector<int64_t> shape) {
  return std::vector<blas::Tensor>(n * N, t);
}
template std::vector<blas::Tensor> host_table<2>(blas::Tensor t, int64_t n,
                                                 std::vector<int64_t> shape);
extern template std::vector<blas::Tensor> host_table<3>(blas::Tensor t, int64_t n,
                                                        std::vector<int64_t> shape);

static std::tuple<int, std::string> parse(int argc, char **argv) {
  int n = 1 << 20, opt;
  std::string mode = "all";
  while ((opt = getopt(argc, argv, "n:m:")) != -1) {
    if (opt == 'n') n = std::stoi(optarg);
    if (opt == 'm') mode = optarg;
  }
  return {n, mode};
}

int main(int argc, char **argv) {
  auto [n, mode] = parse(argc, argv);
  Options o;
  o.sizes.push_back(n);
  std::vector<float> h(n);
#pragma omp parallel for
  for (int i = 0; i < n; i++) h[i] = float(i % 100) - 50.0f + omp_get_thread_num() * 0.0f;
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  Timer t;
  clamp_scale<<<(n + 255) / 256, 256>>>(din, dout, Range<float>{-10.0f, 10.0f}, n);
  CHECK(cudaDeviceSynchronize());
  cublasHandle_t handle;
  cublasCreate(&handle);
  float sum = 0.0f;
  cublasSasum(handle, n, dout, 1, &sum);
  thrust::device_vector<float> dv(h.begin(), h.end());
  project_util_log(o.name.c_str(), t.ms());
  std::cout << mode << ": " << sum << " in " << t.ms() << " ms" << std::endl;
  cublasDestroy(handle);
  return 0;
}
