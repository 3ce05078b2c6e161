// kcc-args: -cl-std=CL2.0
__global int counter;
__kernel void k(__global int *o) { o[0] = counter; }
