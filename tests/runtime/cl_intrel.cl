// cl_intrel.cl — OpenCL C built-ins kcc writes in OpenCL C (frontend/opencl/cl_lib.c), run by
// tests/runtime/cl_intrel.c against a host reference: the integer functions abs_diff, add_sat,
// sub_sat, mad_sat, upsample, ctz (OpenCL C 1.2 §6.12.3 and 2.0's ctz) on scalars and vectors
// of every width class; the relational functions (§6.12.6) on float, float4 and double2; the
// async copies (§6.12.10) between global and local memory, plain and strided.

__kernel void ints(__global const int *a, __global const int *b, __global int *o,
                   __global const long *la, __global const long *lb, __global long *lo) {
  int i = get_global_id(0);
  int x = a[i], y = b[i];
  char4 cx = as_char4(x), cy = as_char4(y);
  uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
  short2 sx = as_short2(x), sy = as_short2(y);
  ushort2 wx = as_ushort2(x), wy = as_ushort2(y);
  __global int *r = o + 16 * i;
  r[0] = as_int(add_sat(cx, cy));
  r[1] = as_int(sub_sat(ux, uy));
  r[2] = as_int(add_sat(sx, sy));
  r[3] = as_int(sub_sat(wx, wy));
  r[4] = add_sat(x, y);
  r[5] = sub_sat(x, y);
  r[6] = (int)add_sat((uint)x, (uint)y);
  r[7] = (int)abs_diff(x, y);
  r[8] = as_int(abs_diff(cx, cy));
  r[9] = as_int(mad_sat(cx, cy, cx));
  r[10] = as_int(mad_sat(wx, wy, wx));
  r[11] = mad_sat(x >> 8, y >> 8, x);
  r[12] = (int)mad_sat((uint)x >> 4, (uint)y >> 4, (uint)y);
  r[13] = as_int(upsample(cx.xy, ux.zw));
  r[14] = upsample(sx.x, wy.y);
  r[15] = as_int(ctz(cx)) ^ ctz(x) ^ (int)ctz((uint)(x & y));
  long p = la[i], q = lb[i];
  __global long *s = lo + 8 * i;
  s[0] = add_sat(p, q);
  s[1] = sub_sat(p, q);
  s[2] = (long)abs_diff(p, q);
  s[3] = mad_sat(p >> 32, q >> 31, p);
  s[4] = (long)mad_sat((ulong)p >> 31, (ulong)q >> 32, (ulong)q);
  s[5] = upsample(x, (uint)y);
  s[6] = ctz(p) + ctz((ulong)q);
  long2 v = add_sat((long2)(p, q), (long2)(q, q));
  s[7] = v.x ^ v.y;
}

__kernel void relational(__global const float4 *f, __global const double2 *d, __global int4 *o,
                         __global long2 *od, __global int *os) {
  int i = get_global_id(0);
  float4 x = f[2 * i], y = f[2 * i + 1];
  __global int4 *r = o + 8 * i;
  r[0] = isequal(x, y) ^ (isnotequal(x, y) << 1);
  r[1] = isgreater(x, y) ^ (isgreaterequal(x, y) << 2);
  r[2] = isless(x, y) ^ (islessequal(x, y) << 3);
  r[3] = islessgreater(x, y) ^ (isordered(x, y) << 4);
  r[4] = isunordered(x, y);
  r[5] = isnormal(x);
  r[6] = signbit(y);
  r[7] = (int4)(isnormal(x.x), signbit(x.y), isunordered(x.z, y.z), islessgreater(x.w, y.w));
  double2 p = d[2 * i], q = d[2 * i + 1];
  od[3 * i + 0] = isless(p, q) ^ (isordered(p, q) << 1);
  od[3 * i + 1] = isnormal(p) ^ (signbit(q) << 2);
  od[3 * i + 2] = isgreaterequal(p, q);
  os[i] = isequal(p.x, q.x) | (isnormal(q.y) << 1) | (signbit(p.y) << 2);
}

// Each work-group of 64 brings 3 * 64 floats into local memory (one async copy) and a strided
// column (every 3rd element, another), sums neighbours there and copies the sums out (an async
// copy back, strided by 2 into the output).
__kernel void async(__global const float *in, __global float *out) {
  __local float tile[3 * 64], col[64], sum[64];
  size_t g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, in + g * 3 * 64, 3 * 64, 0);
  event_t f = async_work_group_strided_copy(col, in + g * 3 * 64 + 1, 64, 3, 0);
  event_t both[2] = {e, f};
  wait_group_events(2, both);
  sum[l] = tile[3 * l] + tile[3 * l + 2] + col[l] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t h = async_work_group_strided_copy(out + g * 2 * 64, sum, 64, 2, 0);
  wait_group_events(1, &h);
  prefetch(in, 64);
}
