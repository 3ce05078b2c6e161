// cuda_idioms.cu — loops kcc rewrites as one instruction (compiler/passes/idiom.c), each
// beside look-alikes it must leave alone; tests/runtime/cuda_idioms.c checks every result
// against a host reference, tests/cu/idioms.sh which kernels' PTX has popc.
// Recognised: while (x) { x &= x - 1; c++; } and its for form, any order, x != 0 or x,
// ++c or c += 1, x = x & (x - 1) either way round, a char counter, a signed x.
__global__ void pc_while(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i];
  int c = 0;
  while (v) {
    v &= v - 1;
    c++;
  }
  out[i] = c;
}

__global__ void pc_for_char(const unsigned long long *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = in[i];
  char c;
  for (c = 0; v; c++) v &= v - 1;
  out[i] = c;
}

__global__ void pc_signed(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  long long c = 5; /* counts on from 5 */
  while (x != 0) {
    c += 1;
    x = (x - 1) & x;
  }
  out[i] = (int)c;
}

__global__ void pc_long(const long long *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long x = in[i];
  unsigned short c = 0;
  for (; 0 != x; ++c) x = x & (x - 1);
  out[i] = c + (int)x; /* x is 0 after the loop */
}

// Look-alikes that are not the idiom: do-while runs once for 0; a third statement.
__global__ void not_do(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i];
  int c = 0;
  do {
    v &= v - 1;
    c++;
  } while (v);
  out[i] = c;
}

__global__ void not_extra(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i];
  int c = 0, s = 0;
  while (v) {
    v &= v - 1;
    c++;
    s += c;
  }
  out[i] = s;
}

// The optimisation hints of the CUDA C++ Programming Guide around the idiom: each is its value
// without the promise, and none stops the loop from being one popcount.
__global__ void pc_hinted(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __builtin_assume(i >= 0);
  if (__builtin_expect(i >= n, 0)) return;
  const unsigned *p = (const unsigned *)__builtin_assume_aligned(in, 4);
  const unsigned *q = (const unsigned *)__builtin_assume_aligned(in, 16, 4 * (i & 3));
  if (p != in || q != in) __builtin_unreachable();
  unsigned v = p[i];
  int c = 0;
  while (v) {
    v &= v - 1;
    c++;
  }
  out[i] = c;
}

// Loops of a constant stride other than 1 toward a bound known at run time, which kcc unrolls
// 4 times as nvcc does (compiler/llvm/llvm_stmt.c, stride_unroll), up and down, and the same
// loop where the source asks for no unrolling; thread i sums every 3rd (5th) element from i.
__global__ void st_up(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned s = 0;
  for (int j = i; j < n; j += 3) s = s * 31u + in[j];
  out[i] = (int)s;
}

__global__ void st_down(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned s = 0;
  for (long long j = n - 1 - i; j >= 0; j -= 5) s = s * 31u + in[j];
  out[i] = (int)s;
}

__global__ void st_kept(const unsigned *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned s = 0;
#pragma unroll 1
  for (int j = i; j < n; j += 3) s = s * 31u + in[j];
  out[i] = (int)s;
}
