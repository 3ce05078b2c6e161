// kcc-args: -cl-std=CL2.0
__kernel void k(__global int *o) { o[0] = work_group_reduce_add(o[1]); }
