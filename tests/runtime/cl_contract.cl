// cl_contract.cl — #pragma OPENCL FP_CONTRACT (OpenCL C 6.10) at file scope and at the start of
// a compound statement (tests/runtime/cl_contract.c). d = x * y - p with p = fl(x * y) is
// exactly 0 when the product is rounded before the subtraction, and the product's rounding
// error when they are fused into an fma: every form must keep the pragma's OFF.
#pragma OPENCL FP_CONTRACT OFF
__kernel void off_file(__global const float *x, __global const float *y,
                       __global const float *p, __global float *d, int n) {
  int i = get_global_id(0);
  if (i < n) d[i] = x[i] * y[i] - p[i];
}

#pragma OPENCL FP_CONTRACT ON
__kernel void off_block(__global const float *x, __global const float *y,
                        __global const float *p, __global float *d, int n, __global float *e) {
  int i = get_global_id(0);
  if (i >= n) return;
  e[i] = x[i] * y[i] - p[i]; // may be fused: not checked
  {
#pragma OPENCL FP_CONTRACT OFF
    d[i] = x[i] * y[i] - p[i];
  }
}

__kernel void off_double(__global const double *x, __global const double *y,
                         __global const double *p, __global double *d, int n) {
#pragma OPENCL FP_CONTRACT OFF
  int i = get_global_id(0);
  if (i < n) d[i] = x[i] * y[i] - p[i];
}
