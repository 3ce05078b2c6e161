// cl_vec16.cl — OpenCL C's vectors of 8 and 16 components in every place a 4-vector goes
// (run by tests/runtime/cl_vec16.c against a host reference, on OpenCL and on Vulkan, where
// they are arrays of 4-vectors: docs/design.md, "Vectors of 8 and 16 components on Vulkan"):
// operators, swizzles and .lo/.hi/.even/.odd, literals, conversions and as_T, built-in
// functions, shuffles, vloadn/vstoren, global, local and private memory, struct members and
// kernel parameters by value, and unions holding them.

// int16, uchar16, long8 and short8: arithmetic, bitwise, comparisons, shifts, the integer
// built-ins, select, swizzles (read and written), literals, shuffles and conversions.
__kernel void ints(__global const int16 *a, __global const int16 *b, __global int16 *o,
                   __global const uchar16 *ua, __global uchar16 *uo, __global const long8 *la,
                   __global long8 *lo, __global const short8 *sa, __global short8 *so, int8 pk) {
  int i = get_global_id(0);
  int16 x = a[i], y = b[i];
  int16 k16 = (int16)(pk, pk.s76543210);
  o[12 * i + 0] = x + y * 3 - (x >> 3) + k16;
  o[12 * i + 1] = (x & y) | (x ^ ~y);
  o[12 * i + 2] = (x >> 1) / (y | 1) + (x >> 1) % (y | 1);
  o[12 * i + 3] = (x < y) + (x == y) * 2 + (x >= k16) * 4 + (x != y) * 8 + !x;
  o[12 * i + 4] = (x << (y & 31)) + (x >> 5) + (as_int16(as_uint16(x) >> (uint16)7));
  o[12 * i + 5] = select(x, y, x > y) + max(x, y) - min(x, 3) + clamp(x, -100, 100) +
                  as_int16(abs(x)) + hadd(x, y);
  o[12 * i + 6] = popcount(x) + clz(y) * 3 + mul_hi(x, y) + rotate(x, y);
  int16 t = x;
  t.even = y.odd;
  t.s3 = 7;
  t.sF += 2;
  t.hi.lo = t.lo.hi;
  t.hi.s7 = -t.s0;
  ++t;
  o[12 * i + 7] = t;
  o[12 * i + 8] = x.sFEDCBA9876543210 + (int16)(y.lo, x.hi) + (int16)(x.s0, x.s1, y.s23, x.s4567,
                                                                      y.s89AB, 1, 2, x.even.s01);
  uint16 m = as_uint16(y);
  o[12 * i + 9] = shuffle(x, m) + shuffle2(x.lo, y.lo, m.s13579BDF02468ACE);
  o[12 * i + 10] = shuffle2(x, y, (uint16)(31, 0, 30, 1, 29, 2, 28, 3, 16, 15, 17, 14, 4, 5, 6, 7));
  o[12 * i + 11] = (int16)(x.s0 > 0 ? x.odd : y.even, any(x.lo < 0) + all(y > -5), 9, x.sF, 4,
                           (int)x.even.odd.s2, -1, 0, x.s1);

  uchar16 u = ua[i], v = as_uchar16(x.s048C);
  uo[3 * i + 0] = u + v * (uchar)2 - (u >> (uchar)1);
  uo[3 * i + 1] = convert_uchar16_sat(convert_int16(u) * 3 - 200) + add_sat(u, v);
  uo[3 * i + 2] = as_uchar16(u > v) ^ as_uchar16(y.s1234) ^ (uchar16)(u.hi, v.lo) ^ max(u, v);

  long8 l = la[i];
  lo[2 * i + 0] = l * 7 + (l >> 2) - (l ^ (long8)(long)pk.s0) + (l < 0) + (l / 3);
  lo[2 * i + 1] = convert_long8(x.lo) * l + as_long8(y) + convert_long8(u.hi) + mul_hi(l, l);

  short8 s = sa[i];
  so[2 * i + 0] = convert_short8_sat(x.hi) + s.s76543210 + as_short8(y.s0123) * s;
  so[2 * i + 1] = convert_short8(l) - (s >> (short)2) + (s < (short)0) + convert_short8_sat(u.lo);
}

typedef struct {
  float a;
  float16 v;
  int8 w;
  double8 d;
} Rec;

// float16, float8 and double8: arithmetic, the common and math built-ins, comparisons and
// relational functions, conversions with rounding modes and saturation, as_T, vload16/vstore16
// and vload8/vstore8 at odd offsets, __local and private memory (a private array a pointer
// walks), struct members, and float16/double8 parameters by value (push constants on Vulkan).
__kernel void floats(__global const float16 *fa, __global const float8 *ga,
                     __global const double8 *da, __global float16 *of, __global float16 *om,
                     __global int16 *oi, __global double8 *od, __global float *flat,
                     __global Rec *rec, float16 pf, double8 pd) {
  int i = get_global_id(0), lid = get_local_id(0);
  __local float16 lf[64];
  float16 f = fa[i];
  float8 g = ga[i];
  double8 d = da[i];
  float16 g16 = (float16)(g, g.s76543210);
  of[6 * i + 0] = f * 2.5f + g16 - f / 3.0f + pf;
  of[6 * i + 1] = sqrt(fabs(f)) + fmin(f, g16) + fmax(f, 1.0f) + floor(f) + ceil(g16) + trunc(f);
  of[6 * i + 2] = clamp(f, -1.0f, 1.0f) + copysign(g16, f) + select(f, g16, f < g16) - f.s0;
  of[6 * i + 3] = convert_float16(convert_int16_rte(f)) + convert_float16(as_int16(f) & 0xff);
  lf[lid] = f;
  barrier(CLK_LOCAL_MEM_FENCE);
  of[6 * i + 4] = lf[63 - lid] - f;
  float16 priv[3] = {f, g16, pf};
  float16 *p = &priv[1];
  p[1] += *p;
  p[-1].lo = p[1].hi;
  of[6 * i + 5] = priv[0] + priv[2];
  om[2 * i + 0] = sin(f) + exp(g16 * 0.01f);
  om[2 * i + 1] = mix(f, g16, 0.25f) + fma(f, g16, 1.0f) + hypot(f, g16);

  oi[4 * i + 0] = isgreater(f, g16) + isnan(f / g16) * 2 + signbit(f) * 4 + convert_int16(f) +
                  convert_int16_sat(f * 1e8f) + convert_int16_rtn(g16);
  oi[4 * i + 2] = as_int16(convert_float16_rtz(as_int16(f)));
  oi[4 * i + 3] = as_int16(convert_float16_rtp(as_int16(f) >> 3));
  oi[4 * i + 1] = as_int16(f) ^ convert_int16(as_uchar16(f.s0123 + 1.0f)).s0123456789abcdef;

  od[3 * i + 0] = d * 2.0 + convert_double8(f.lo) - sqrt(fabs(d)) + pd;
  od[3 * i + 1] = fmax(d, convert_double8(g)) + floor(d) + as_double8(as_long8(d) ^ 1);
  od[3 * i + 2] = convert_double8(convert_float8(d)) + convert_double8(convert_int8_sat(d * 1e3));

  float16 w = vload16(i, flat + 3) + 1.0f;
  vstore16(w, 0, flat + 4096 + 16 * i); /* (after what is read: 128 work-items) */
  vstore8(convert_float8(d) + vload8(2 * i + 1, flat + 1), 0, flat + 8192 + 8 * i);

  Rec r = rec[i];
  r.v = r.v * r.a + f;
  r.w.lo = r.w.hi + convert_int4(r.v.s0123);
  r.d = r.d - d;
  rec[i] = r;
  rec[i].v.sF = r.a;
}

// A union with a float16 member (aligned to 64: on Vulkan an array of uint4s as its unit),
// read, written through another member and copied whole, in a buffer and as a local.
typedef union {
  float16 v;
  int i[16];
  uchar b[64];
} U16;

__kernel void unions(__global U16 *u, __global float *o) {
  int i = get_global_id(0);
  U16 x = u[i];
  x.i[3] += 5;
  o[2 * i] = x.v.s3 + x.v.sF + (float)x.b[63];
  U16 y;
  y.v = x.v * 2.0f;
  o[2 * i + 1] = as_float(y.i[i & 15]);
  u[i] = x;
}
