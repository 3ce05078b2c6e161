__kernel void k(__global int4 *o) { printf("%v4hlf\n", o[0]); }
