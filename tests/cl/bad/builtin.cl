__kernel void k(__global float *o) { prefetch(o, 4); }
