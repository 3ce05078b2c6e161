// kcc-args: -cl-std=CL2.0
__kernel void k(__global int *o) { o[0] = *to_global(o + 1); }
