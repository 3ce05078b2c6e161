// cl_mathfn.cl — OpenCL C's math and geometric functions that kcc defines in its prelude
// (OpenCL C 2.0 §6.13.2, §6.13.5; run by tests/runtime/cl_mathfn.c against the host's libm
// within the specification's ulp bounds): on float4 and double2, the pointer outputs in each
// address space (__global, __local, __private), ldexp with a scalar exponent, on scalar
// half, and fast_length & co.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// T the vector, I the int vector of its length; out[j * n + i] is result j of work-item i.
#define MATHFN(T, I, U, x, y, k, of, oi, lbuf, ilbuf, n)                                             \
  do {                                                                                      \
    int i = get_global_id(0), l = get_local_id(0);                                          \
    of[0 * n + i] = sinpi(x);                                                               \
    of[1 * n + i] = cospi(x);                                                               \
    of[2 * n + i] = tanpi(x);                                                               \
    of[3 * n + i] = asinpi(x);                                                              \
    of[4 * n + i] = acospi(x);                                                              \
    of[5 * n + i] = atanpi(x);                                                              \
    of[6 * n + i] = atan2pi(x, y);                                                          \
    of[7 * n + i] = logb(x);                                                                \
    of[8 * n + i] = remainder(x, y);                                                        \
    of[9 * n + i] = nextafter(x, y);                                                        \
    of[10 * n + i] = fdim(x, y);                                                            \
    of[11 * n + i] = maxmag(x, y);                                                          \
    of[12 * n + i] = minmag(x, y);                                                          \
    of[13 * n + i] = ldexp(x, k);                                                           \
    of[14 * n + i] = pown(x, k);                                                            \
    of[15 * n + i] = rootn(x, k);                                                           \
    of[16 * n + i] = frexp(x, &oi[1 * n + i]); /* __global */                              \
    of[17 * n + i] = modf(x, &lbuf[l]);        /* __local */                               \
    of[18 * n + i] = lbuf[l];                                                               \
    T p;                                                                                    \
    of[19 * n + i] = fract(x, &p); /* __private */                                         \
    of[20 * n + i] = p;                                                                     \
    of[21 * n + i] = sincos(x, &lbuf[l]);                                                   \
    of[22 * n + i] = lbuf[l];                                                               \
    I q;                                                                                    \
    of[23 * n + i] = remquo(x, y, &ilbuf[l]); /* __local */                                 \
    oi[2 * n + i] = ilbuf[l];                                                               \
    of[28 * n + i] = remquo(x, y, &q);                                                      \
    oi[5 * n + i] = q;                                                                      \
    of[24 * n + i] = lgamma_r(x, &oi[3 * n + i]);                                           \
    of[25 * n + i] = ldexp(x, k.s1);                                                        \
    of[26 * n + i] = nan(convert_##U(k));                                                  \
    oi[0 * n + i] = ilogb(x);                                                               \
    I e;                                                                                    \
    of[27 * n + i] = frexp(x, &e);          /* __private */                          \
    oi[4 * n + i] = e;                                                                      \
  } while (0)

__kernel void mathfn_f(__global const float4 *x, __global const float4 *y, __global const int4 *k,
                       __global float4 *of, __global int4 *oi, int n) {
  __local float4 lbuf[64];
  __local int4 ilbuf[64];
  MATHFN(float4, int4, uint4, x[get_global_id(0)], y[get_global_id(0)], k[get_global_id(0)], of,
         oi, lbuf, ilbuf, n);
}

__kernel void mathfn_d(__global const double2 *x, __global const double2 *y,
                       __global const int2 *k, __global double2 *of, __global int2 *oi, int n) {
  __local double2 lbuf[64];
  __local int2 ilbuf[64];
  MATHFN(double2, int2, ulong2, x[get_global_id(0)], y[get_global_id(0)], k[get_global_id(0)], of,
         oi, lbuf, ilbuf, n);
}

// half, scalar: each function computed in float and rounded once.
__kernel void mathfn_h(__global const half *x, __global const half *y, __global const int *k,
                       __global half *oh, __global int *oi, int n) {
  int i = get_global_id(0);
  half a = x[i], b = y[i];
  int e, q;
  half ip;
  oh[0 * n + i] = sinpi(a);
  oh[1 * n + i] = remainder(a, b);
  oh[2 * n + i] = nextafter(a, b);
  oh[3 * n + i] = ldexp(a, k[i]);
  oh[4 * n + i] = frexp(a, &e);
  oh[5 * n + i] = fract(a, &ip);
  oh[6 * n + i] = remquo(a, b, &q);
  oh[7 * n + i] = fdim(a, b);
  oi[0 * n + i] = ilogb(a);
  oi[1 * n + i] = e;
  oi[2 * n + i] = q;
}

// fast_length, fast_distance, fast_normalize on float4 and float (2 and 3 through the same
// definitions).
__kernel void fastgeo(__global const float4 *x, __global const float4 *y, __global float *ol,
                      __global float4 *on, int n) {
  int i = get_global_id(0);
  ol[0 * n + i] = fast_length(x[i]);
  ol[1 * n + i] = fast_distance(x[i], y[i]);
  ol[2 * n + i] = fast_length(x[i].s0) + fast_distance(x[i].xyz, y[i].xyz) * 0.0f;
  on[i] = fast_normalize(x[i]);
}
