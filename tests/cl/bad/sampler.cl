__kernel void k(sampler_t s, __global int *o) { o[0] = 1; }
