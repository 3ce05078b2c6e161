// OpenCL C's math on float vectors in the Vulkan form: kcc's own functions per component
// (spirv_vkmath.c), the module validated for Vulkan (tests/vulkan.cmake, vulkan.spirv).
__kernel void mathvec(__global const float4 *a, __global const float4 *b, __global float4 *o) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i], c;
  o[i] = exp(x) + log(x) + sin(x) + cos(x) + tan(x) + pow(x, y) + tanh(x) + atan2(x, y) +
         sincos(x, &c) + c + cbrt(x) + hypot(x, y) + exp10(x) + log1p(x) + asinh(x);
  o[i + 1] = pown(x, 3) + rootn(x, 3) + powr(x, y) + sinpi(x) + cospi(x) + native_exp10(x);
}

// double: the prelude's functions over kcc's own double ones (rootn's ilogb takes a 64-bit clz).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void mathvec_d(__global const double2 *a, __global double2 *o) {
  int i = get_global_id(0);
  double2 x = a[i], c;
  o[i] = sincos(x, &c) + c + sinpi(x) + rootn(x, 3) + pown(x, 5) + powr(x, x) + atan2pi(x, c) +
         fmod(x, c) + exp10(x) + asinh(x) + hypot(x, c) + cbrt(x);
}
