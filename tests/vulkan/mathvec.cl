// OpenCL C's math on float vectors in the Vulkan form: kcc's own functions per component
// (spirv_vkmath.c), the module validated for Vulkan (tests/vulkan.cmake, vulkan.spirv).
__kernel void mathvec(__global const float4 *a, __global const float4 *b, __global float4 *o) {
  int i = get_global_id(0);
  float4 x = a[i], y = b[i], c;
  o[i] = exp(x) + log(x) + sin(x) + cos(x) + tan(x) + pow(x, y) + tanh(x) + atan2(x, y) +
         sincos(x, &c) + c + cbrt(x) + hypot(x, y) + exp10(x) + log1p(x) + asinh(x);
  o[i + 1] = pown(x, 3) + rootn(x, 3) + powr(x, y) + sinpi(x) + cospi(x) + native_exp10(x);
}
