// cuda_union.cu — unions in CUDA device code (tests/runtime/cuda_union.c checks every element):
// punning through members, a union with a member function, an anonymous union in a struct and
// one at block scope, __shared__ unions, unions through global pointers, a __constant__ union,
// unions as __device__ function arguments and results and as a kernel argument by value.

union Bits {
  unsigned u;
  float f;
  unsigned char b[4];
  __device__ unsigned top_byte() const { return b[3]; }
};

struct Packet {
  int kind;
  union {
    float f;
    int i;
  };
};

// A constructor initializes a field of an anonymous member; a method reads others.
struct Cell {
  int kind;
  union {
    float f;
    struct {
      short lo, hi;
    };
  };
  __device__ Cell(float v) : kind(1), f(v) {}
  __device__ int halves() const { return lo + hi; }
};

__constant__ Bits kmask = {0x7fffffffu};
__constant__ float kscale = 2.0f;

__device__ Bits absval(Bits x) {
  x.u &= kmask.u;
  return x;
}

extern "C" __global__ void cu_unions(const float *in, unsigned *obits, unsigned *oabs,
                                     unsigned *otop, Bits *io, Packet *pk, int *oscaled,
                                     int *ohalves, Bits key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x;
  __shared__ Bits sh[64];
  Bits x;
  x.f = in[i];
  obits[i] = x.u;
  oabs[i] = absval(x).u;
  otop[i] = x.top_byte();
  sh[l].u = x.u ^ key.u;
  __syncthreads();
  Bits *p = &io[i];
  p->u -= sh[(l + 1) % 64].u;
  p->b[3] ^= 0x5a;
  Packet q = pk[i];
  if (q.kind)
    q.f += kscale;
  else
    q.i *= 3;
  pk[i] = q;
  union {
    float af;
    int ai;
  };
  af = in[i] * kscale;
  oscaled[i] = ai;
  Cell c(in[i]);
  ohalves[i] = c.halves() + c.kind;
}
