// cl_intdot.cl — cl_khr_integer_dot_product (frontend/opencl/cl_lib.c), run by tests/runtime/cl_intdot.c
// against a host reference: dot and dot_acc_sat on every signedness pair of 4 x 8-bit vectors,
// and the packed forms on uint, with accumulators at and near the saturation limits. OpenCL C
// 1.2 (the extension needs no later version); the feature macros guard the calls as a portable
// kernel would.
#if !defined(cl_khr_integer_dot_product) || !defined(__opencl_c_integer_dot_product_input_4x8bit) || \
    !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
#error "kcc defines cl_khr_integer_dot_product and its feature macros"
#endif

__kernel void intdot(__global const uint *a, __global const uint *b, __global const int *acc,
                     __global int *o) {
  size_t i = get_global_id(0);
  uint x = a[i], y = b[i];
  int c = acc[i];
  uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
  char4 sx = as_char4(x), sy = as_char4(y);
  __global int *r = o + 16 * i;
  r[0] = (int)dot(ux, uy);
  r[1] = dot(sx, sy);
  r[2] = dot(ux, sy);
  r[3] = dot(sx, uy);
  r[4] = (int)dot_acc_sat(ux, uy, (uint)c);
  r[5] = dot_acc_sat(sx, sy, c);
  r[6] = dot_acc_sat(ux, sy, c);
  r[7] = dot_acc_sat(sx, uy, c);
  r[8] = (int)dot_4x8packed_uu_uint(x, y);
  r[9] = dot_4x8packed_ss_int(x, y);
  r[10] = dot_4x8packed_us_int(x, y);
  r[11] = dot_4x8packed_su_int(x, y);
  r[12] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c);
  r[13] = dot_acc_sat_4x8packed_ss_int(x, y, c);
  r[14] = dot_acc_sat_4x8packed_us_int(x, y, c);
  r[15] = dot_acc_sat_4x8packed_su_int(x, y, c);
}
