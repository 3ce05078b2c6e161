#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const half *h, __global float *o) { half x = h[0]; o[0] = x; }
