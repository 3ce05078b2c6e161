// mul_hi and mad_hi on every integer type, scalars and 2-, 3-, 4-vectors: OpSMulExtended /
// OpUMulExtended (32, 64 bits) or a widened product (8, 16 bits) in the Vulkan form.
// python/tests/test_cl_mulhi.py runs them against a reference.
__kernel void mh_char(__global char *p, __global char2 *p2, __global char3 *p3, __global char4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
__kernel void mh_uchar(__global uchar *p, __global uchar2 *p2, __global uchar3 *p3, __global uchar4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
__kernel void mh_short(__global short *p, __global short2 *p2, __global short3 *p3, __global short4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
__kernel void mh_ushort(__global ushort *p, __global ushort2 *p2, __global ushort3 *p3, __global ushort4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
__kernel void mh_int(__global int *p, __global int2 *p2, __global int3 *p3, __global int4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
__kernel void mh_uint(__global uint *p, __global uint2 *p2, __global uint3 *p3, __global uint4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
__kernel void mh_long(__global long *p, __global long2 *p2, __global long3 *p3, __global long4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
__kernel void mh_ulong(__global ulong *p, __global ulong2 *p2, __global ulong3 *p3, __global ulong4 *p4) {
  size_t i = get_global_id(0);
  p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));
  p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));
  p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));
  p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));
}
