#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Scalar math and common built-ins, native_ and half_ variants; doubles.
__constant float coef[4] = {0.5f, 0.25f, 0.125f, 0.0625f};
float poly(float x) { return mad(x, coef[0], coef[1]) * x + coef[2]; }
__kernel void math(__global float *f, __global double *d, __global int *k) {
  int i = get_global_id(0);
  float x = f[i];
  f[i] = poly(x) + native_sin(x) + half_cos(x) + sqrt(x) + rsqrt(x + 1.0f) + fabs(x) +
         fmin(x, 1.0f) + fmax(x, 0.0f) + clamp(x, -1.0f, 1.0f) + exp(x) + log2(x + 2.0f) +
         pow(x, 2.0f) + native_recip(x + 3.0f) + native_divide(x, 7.0f) + floor(x) + M_PI_F;
  d[i] = sqrt(d[i]) + fma(d[i], 2.0, 1.0);
  k[i] = min(k[i], 10) + max(k[i], -10) + abs(k[i]) + clamp(k[i], 0, 5) + mad24(k[i], 3, 1) +
         mul24(k[i], 5) + (k[i] << 33);
}
