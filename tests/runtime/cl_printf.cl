// cl_printf.cl — OpenCL C's printf with vector conversions, run by tests/runtime/cl_printf.c:
// %vN with each length modifier (hh, h, hl, l, and none for 32-bit components), flags, width
// and precision applied to every component, next to scalar conversions.
__kernel void vprint(__global const float4 *f, __global const int2 *i, __global const uchar4 *c,
                     __global const short3 *s, __global const long2 *l, __global const double2 *d,
                     float k) {
  size_t g = get_global_id(0);
  float4 v = f[g] * k;
  printf("%u: f=%v4hlf e=%.1v2hle i=%+v2hld c=%v4hhx s=%5v3hd l=%v2ld d=%.3v2lf n=%v2d %s\n",
         (uint)g, v, v.xy, i[g], c[g], s[g], l[g], d[g] * k, i[g] - 1, "end");
}
