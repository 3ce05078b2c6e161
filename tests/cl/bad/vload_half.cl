__kernel void k(__global const half *h, __global float *o) { o[0] = vload_half(0, h); }
