// cuda_lambda.cu — lambdas in CUDA input (frontend/lower/lambda.c), run by cuda_lambda.c against a
// host reference: captures by copy and by reference, [=] and [&], a mutable lambda, one
// invoked where it is written, one passed to a function template, a closure copied, one
// capturing a reference parameter, one reading a shared array, and `return {}`.
struct Pair {
  int lo, hi;
};

template <typename F> __device__ int apply_twice(F f, int x) { return f(f(x)); }

__device__ int bump(int v, int by) {
  auto add = [&v, by]() { v += by; };
  add();
  return v;
}

__global__ void lambdas(const int *in, int *out, int n, int k) {
  __shared__ int tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  if (i >= n) return;
  int x = in[i];
  int scale = k;
  auto by_copy = [scale](int v) { return v * scale; };
  scale = 1000; // the copy keeps k
  auto by_ref = [&scale](int v) { return v + scale; };
  scale = k + 1; // the reference sees this
  auto all_copy = [=](int v) { return v - x + k; };
  int total = 0;
  auto all_ref = [&](int v) { total += v; };
  all_ref(x);
  all_ref(by_copy(x));
  int calls = 0;
  auto counter = [calls]() mutable { return ++calls; };
  counter();
  int c2 = counter(); // 2: the closure's own copy
  auto neighbour = [](unsigned t) { return tile[(t + 1) % blockDim.x]; };
  Pair p = [x]() -> Pair {
    if (x < 0) return {};
    return {x / 2, x * 2};
  }();
  auto copy = by_ref; // a closure copied keeps its reference
  total = bump(total, 3);
  out[6 * i] = by_copy(x) + by_ref(x);
  out[6 * i + 1] = all_copy(x) + copy(1);
  out[6 * i + 2] = total;
  out[6 * i + 3] = c2 + calls; // calls itself stays 0
  out[6 * i + 4] = neighbour(threadIdx.x) + apply_twice([k](int v) { return v * 2 + k; }, x);
  out[6 * i + 5] = p.lo + p.hi;
}
