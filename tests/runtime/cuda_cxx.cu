// C++ as C-style CUDA kernels use it: each kernel exercises one group of constructs, and
// tests/runtime/cuda_cxx.c checks every output element against a host reference.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cstdint>

namespace cg = cooperative_groups;

namespace util {
constexpr int kScale = 3;
__device__ inline float twice(const float &x) { return x + x; }  // const reference: a copy
__device__ inline void bump(int &x, int by = 1) { x += by; }     // reference, default argument
__device__ inline int &pick(int *a, int i) { return a[i]; }      // returns a reference
}  // namespace util

struct Acc {
  float sum;
  int count;
  __device__ void add(float v) { sum += v; count++; }
  __device__ float mean() const { return count ? sum / count : 0.0f; }
};

__device__ float2 operator+(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ void operator+=(float2 &a, float2 b) { a.x += b.x; a.y += b.y; }

template <typename T> __device__ T clamp_to(T v, T lo, T hi) { return v < lo ? lo : v > hi ? hi : v; }

// references, default arguments, C++ casts, constexpr, bool, nullptr
extern "C" __global__ void refs(const float *in, float *out, int *counts, int n) {
  int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  float &o = out[i];
  o = util::twice(in[i]) * util::kScale;
  int *none = nullptr;
  bool odd = (i & 1) != 0;
  if (odd && none == nullptr) util::bump(counts[i]);
  util::bump(counts[i], int(2.9f));
  util::pick(counts, i) += reinterpret_cast<const int *>(in)[i] & 1;
}

// a struct with methods, float2 with user operators, a function template
extern "C" __global__ void methods(const float2 *v, float *mean, float2 *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Acc a = {0.0f, 0};
  float2 s = make_float2(0.0f, 0.0f);
  for (int k = 0; k < 4; k++) {
    float2 x = v[(i + k) % n];
    a.add(clamp_to(x.x, -1.0f, 1.0f));
    s += x;
  }
  mean[i] = a.mean();
  sum[i] = s + make_float2(1.0f, 2.0f);
}

// a kernel template, explicitly instantiated; cooperative groups for the block
template <int BLOCK, typename T>
__global__ void block_sum(const T *in, T *out) {
  __shared__ T tile[BLOCK];
  cg::thread_block b = cg::this_thread_block();
  unsigned t = b.thread_rank();
  tile[t] = in[blockIdx.x * BLOCK + t];
  b.sync();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (t < (unsigned)s) tile[t] += tile[t + s];
    cg::sync(b);
  }
  if (t == 0) out[blockIdx.x] = tile[0];
}
template __global__ void block_sum<64, int>(const int *, int *);
template __global__ void block_sum<128, float>(const float *, float *);

// CUDA's vector types with CUDA's layout
extern "C" __global__ void vectors(const uchar4 *px, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uchar4 p = px[i];
  out[i] = make_float4(p.x / 255.0f, p.y / 255.0f, p.z / 255.0f, (float)(p.w + p.x));
}

// references bound to C++ lvalues C lacks: a conditional of two lvalues refers to one of them
// (never to a copy), a comma expression to its last operand
__device__ void bump(int &r, int by) { r += by; }
extern "C" __global__ void cond_refs(int *a, int *b, const int *sel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int &r = sel[i] & 1 ? a[i] : b[i];
  r += 10;
  bump(sel[i] & 2 ? a[i] : b[i], 100);
  int &c = (r += 1, b[i]);
  c -= 1000;
}

// classes with constructors: member initializers, default member initializers, a body,
// overloads, out-of-line definitions, P{...} and P(...) temporaries, members that are classes
struct Tally {
  float sum;
  int count = 0;
  float scale = 2.0f;
  __device__ Tally() : sum(0.0f) {}
  __device__ explicit Tally(float s) : sum(s), count(1) { scale += 1.0f; }
  __device__ Tally(float s, int c);
  __device__ void add(float v) { sum += v * scale, count++; }
  __device__ float mean() const { return count ? sum / count : 0.0f; }
};
__device__ Tally::Tally(float s, int c) : sum(s * c), count(c) {}
struct Pair {
  Tally lo, hi;
  __device__ Pair(float a, float b) : lo(a), hi(b, 2) {}
};
extern "C" __global__ void ctors(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Tally a;
  a.add(in[i]);
  Tally b(in[i]);
  b.add(1.0f);
  Pair p{in[i], 0.5f};
  out[4 * i + 0] = a.mean();
  out[4 * i + 1] = b.mean() + b.scale;
  out[4 * i + 2] = Tally(in[i], 3).mean() + Tally{}.scale;
  out[4 * i + 3] = p.lo.mean() + p.hi.sum + (float)p.hi.count;
}

// classes without a user-provided constructor: the implicit one applies the default member
// initializers (= and {}), also of members and array elements; aggregate initialization
// takes them for the members its list leaves out; T() value-initializes (zero, then those).
struct Dflt {
  int i = 5;
  float f{2.5f};
  int j;
  unsigned char b[4];
};
struct Outer {
  Dflt d;
  int k = 7;
  Tally t; // a member with a user-provided default constructor
};
struct Holder { // a user-provided constructor that leaves d to its own default initializers
  Dflt d;
  int z;
  __device__ Holder() : z(3) {}
};
extern "C" __global__ void defaults(const int *in, int *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n) return;
  Dflt d;
  Outer o;
  Dflt arr[3];
  Dflt agg{in[x]};
  Dflt none{};
  Dflt v = Dflt();
  float4 zero = float4();
  arr[2].i += in[x];
  int *r = out + 8 * x;
  r[0] = d.i + (int)(d.f * 2.0f);
  r[1] = o.d.i + o.k + o.t.count + (int)o.t.scale;
  r[2] = arr[0].i + arr[1].i * 10 + arr[2].i * 100;
  r[3] = agg.i + (int)(agg.f * 4.0f);
  r[4] = none.i + none.j + none.b[3];
  r[5] = v.i + v.j + v.b[0] + (int)(v.f * 2.0f);
  r[6] = (int)(zero.x + zero.y + zero.z + zero.w);
  Holder h;
  r[7] = (int)(arr[1].f * 8.0f) + h.d.i * 100 + h.z * 1000;
}

// string literals and __func__ as values: const char * to constant memory, read by a device
// function (nvcc's printf("%s", name) of such a pointer is the common use).
static __device__ int slen(const char *s) {
  int n = 0;
  while (s[n]) n++;
  return n;
}
extern "C" __global__ void strings(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  (void)slen; // a function named and discarded (GGML_UNUSED's way)
  static constexpr int tens[3] = {10, 20, 30}; // static const tables: module constants
  const char *word = in[i] & 1 ? "odd" : "even!";
  out[2 * i] = slen(word) * 100 + slen(__func__) * 10 + slen("");
  out[2 * i + 1] = word[in[i] & 1 ? 2 : 4] + __FUNCTION__[0] + tens[in[i] % 3];
}

// Braced lists as values (C++11 list-initialization of temporaries): T{...} of a struct, a
// vector type and a scalar, a list as a function argument and as an assignment's right side,
// each evaluated per loop iteration (the temporary must not keep an earlier one's members).
struct IPair {
  int a, b;
};
struct Nest {
  IPair p;
  int c[2];
};
struct BInit {
  int x[3] = {4, 5};
};
__device__ int ipair_sum(IPair p) { return p.a * 10 + p.b; }
__device__ int nest_sum(Nest q) { return q.p.a * 1000 + q.p.b * 100 + q.c[0] * 10 + q.c[1]; }
extern "C" __global__ void braced(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  int acc = 0;
  for (int k = 0; k < 3; k++)
    acc += k == 1 ? ipair_sum(IPair{x % 7, k}) : ipair_sum({k, 0}) + nest_sum(Nest{{k, x % 5}});
  IPair p = {1, 2};
  p = {x % 3};
  int2 v = int2{x % 11, 4};
  BInit bi; // an array member's default initializer, assigned element by element
  out[3 * i] = acc;
  out[3 * i + 1] = p.a * 10 + p.b;
  out[3 * i + 2] = v.x * 100 + v.y + int{5} + bi.x[0] + bi.x[1] * 10 + bi.x[2] * 100;
}

// Casts to a reference name the operand's bytes as another type (C++ [expr.cast]: (T &)x is
// *(T *)&x): writes through the reference land in the operand, reads see its bytes.
typedef int2 &int2_ref;
extern "C" __global__ void refcast(float *io, int *bits, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  float4 &v = (float4 &)(io[4 * i]);
  const float4 &c = (const float4 &)(io[4 * i]);
  float s = c.x + c.y + c.z + c.w;
  v.x = s;
  reinterpret_cast<float2 &>(io[4 * i + 2]).y = -s;
  int2_ref b = (int2_ref)(bits[2 * i]);
  b.y = b.x + 1;
}

// Function pointers as template arguments: each specialisation calls its function directly
// (`op(a, b)`, `(*op)(a, b)`, through a typedef'd pointer type, given as `f` or `&f`), and a
// functor type as a template argument; kernels are named after the functions.
typedef float (*fbinop_t)(float, float);
__device__ float fp_sub(float a, float b) { return a - b; }
__device__ float fp_max(float a, float b) { return a > b ? a : b; }
struct Twice {
  __device__ float operator()(float x) const { return 2.0f * x; }
};
template <fbinop_t op, typename F> __device__ float fp_apply(float a, float b) {
  return F()(op(a, b)) + (*op)(b, a);
}
template <fbinop_t op, typename F> __global__ void fptmpl(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = fp_apply<op, F>(a[i], 1.5f);
}
template __global__ void fptmpl<fp_sub, Twice>(const float *, float *, int);
template __global__ void fptmpl<&fp_max, Twice>(const float *, float *, int);

// Static data members: read through an object (`t.ne`, an access C++ allows) and through
// the class (`STile<8, 8>::ne`), constexpr and const.
template <int I, int J> struct STile {
  static constexpr int ne = I * J / 32;
  static const int kind = 7;
  int x[ne];
};
__device__ int stile_sum(const STile<16, 8> &t) {
  int s = 0;
  for (int l = 0; l < t.ne; l++) s += t.x[l];
  return s;
}
struct CtorPt {
  int v;
  __device__ CtorPt() { v = 9; }
};
extern "C" __global__ void statics(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  STile<16, 8> t;
  for (int l = 0; l < t.ne; l++) t.x[l] = in[i] + l;
  CtorPt pts[3]; // an array of a class with a user-provided default constructor: each one
  out[i] = stile_sum(t) * 100 + t.ne * 10 + STile<8, 8>::ne + STile<4, 8>::kind +
           (pts[0].v + pts[1].v * 10 + pts[2].v * 100) * 1000;
}

// A parameter pack of kernel parameters (each gets a name of its own in every form) and a
// fold expression assigning inside an assignment's right side, which C++17 sequences before
// the store (the C forms compute it into a temporary first).
template <typename... Srcs> __global__ void fold_sum(int *out, int n, const Srcs *...srcs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r = 0;
  r = (..., (r = r * 2 + srcs[i]));
  out[i] = r;
}
template __global__ void fold_sum<int, int, int>(int *, int, const int *, const int *,
                                                 const int *);

// A constexpr function that is never a constant expression (it calls functions that are not
// constexpr) is ill-formed, no diagnostic required: nvcc takes it and calls it at run time.
__device__ constexpr int top_bit(unsigned v) { return 31 - __clz(v); }
__device__ constexpr float inv_ln10() { return 1.f / ::logf(10.f); }
extern "C" __global__ void nonconst(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = top_bit(in[i] | 1u) + (inv_ln10() > 0.43f && inv_ln10() < 0.44f ? 100 : 0);
}
