// kcc-args: -cl-std=CL2.0
__kernel void k(read_only pipe int p, __global int *o) { o[0] = 1; }
