/* The cluster size of a clustered reduction must be a constant (OpenCL C requires it). */
__kernel void k(__global int *o, uint n) { o[0] = sub_group_clustered_reduce_add(o[1], n); }
