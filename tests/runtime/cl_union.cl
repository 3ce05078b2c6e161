/* cl_union.cl — unions in OpenCL C kernels (tests/runtime/cl_union.c checks every element):
 * type punning (a float's bits through a uint member, a uint's bytes through uchar[4]),
 * anonymous unions and structs in a struct, unions in __local memory and through __global
 * pointers, unions as arguments and results of functions and as a kernel argument by value,
 * __constant unions with initializers (first member, designators). */

typedef union {
  float f;
  uint u;
  uchar b[4];
} FU;

typedef struct {
  int tag;
  union {
    float f;
    int i;
  };
  struct {
    short lo, hi;
  };
} Tagged;

typedef union {
  float4 v;
  float a[4];
} V4;

__constant FU kbias[2] = {{1.5f}, {.u = 0x40000000u}}; /* 1.5f, 2.0f */
__constant Tagged ktag = {.tag = 3, .lo = -2, .hi = 5};

static uint bits_of(FU x) {
  return x.u;
}

static FU negate(FU x) {
  x.u ^= 0x80000000u;
  return x;
}

static void bump(__global FU *p) {
  p->b[0] += 1;
}

__kernel void unions(__global const float *in, __global uint *obits, __global uint *oneg,
                     __global uchar *obytes, __global FU *io, __global Tagged *tg,
                     __global float *ovec, FU key) {
  int i = get_global_id(0), l = get_local_id(0);
  __local FU sh[64];
  FU x;
  x.f = in[i];
  obits[i] = bits_of(x);
  oneg[i] = negate(x).u;
  for (int j = 0; j < 4; j++) obytes[4 * i + j] = x.b[j];
  sh[l].u = x.u + (uint)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  FU y = sh[63 - l];
  io[i].u += y.u ^ key.u;
  bump(&io[i]);
  Tagged t = tg[i];
  if (t.tag & 1)
    t.f = t.f * 2.0f;
  else
    t.i = t.i + 1;
  t.lo = (short)(t.lo + ktag.lo);
  t.hi = (short)(t.hi * ktag.hi);
  tg[i] = t;
  V4 v = {(float4)(x.f, 1.0f, kbias[0].f, kbias[1].f)};
  ovec[i] = v.a[0] + v.a[1] + v.a[2] * v.a[3];
}
