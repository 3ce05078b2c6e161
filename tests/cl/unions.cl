/* unions.cl — C unions in OpenCL C: named and anonymous, nested in structs and unions, of
 * structs, arrays, vectors and pointers; private, __local and __constant unions with
 * initializers (first member, designators, through anonymous members); punning; unions as
 * function arguments and results and as a kernel argument by value; sizeof and alignof. */

typedef union {
  float f;
  uint u;
  uchar b[4];
} FU;

struct Pair {
  char c;
  int n;
};

union Mixed {
  struct Pair p;           /* a struct with padding */
  short s[5];              /* the largest member: 10 bytes */
  float3 v;                /* alignment 16 */
  __global float *ptr;     /* a pointer */
  union {                  /* an anonymous union in a union */
    long l;
    double d;
  };
};

struct Tagged {
  int tag;
  union {
    float f;
    int i;
    struct {
      short lo, hi;
    };
  };
};

__constant FU kone = {1.0f};
__constant FU kbits[2] = {{.u = 0x40490fdbu}, {.b = {1, 2, 3, 4}}};
__constant struct Tagged ktag = {.tag = 2, .lo = 7, .hi = -1};
__constant union Mixed kmix = {.s = {1, 2, 3, 4, 5}};

static uint float_bits(FU x) {
  return x.u;
}

static FU from_bits(uint u) {
  FU r = {.u = u};
  return r;
}

__kernel void punning(__global const float *in, __global uint *out, __global uchar *bytes,
                      FU key) {
  int i = get_global_id(0);
  FU x;
  x.f = in[i];
  out[i] = float_bits(x) ^ key.u;
  for (int j = 0; j < 4; j++) bytes[4 * i + j] = x.b[j];
  out[i] += from_bits(kbits[0].u).u + kbits[1].b[2] + (uint)kone.f;
}

__kernel void shared_and_global(__global struct Tagged *t, __global union Mixed *m,
                                __global float *f) {
  __local FU sh[32];
  int i = get_global_id(0), l = get_local_id(0);
  sh[l].f = f[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  struct Tagged v = t[i];
  if (v.tag == ktag.tag)
    v.f += sh[31 - l].f;
  else
    v.hi = (short)(v.lo + ktag.hi);
  t[i] = v;
  m[i].l = m[i].s[4] + kmix.s[2];
  m[i].ptr = f;
  m[i].v.y = (float)(sizeof(union Mixed) + __alignof__(union Mixed) + sizeof(FU));
  union Mixed copy = m[i]; /* a union holding a vector, copied whole */
  m[i + 1] = copy;
}
