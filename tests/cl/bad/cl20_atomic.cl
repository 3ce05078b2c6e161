// kcc-args: -cl-std=CL2.0
__kernel void k(__global int *o) { atomic_fetch_add((volatile __global atomic_int *)o, 1); }
