__kernel void k(__global float *o) { o[0] = rootn(o[1], 3); }
