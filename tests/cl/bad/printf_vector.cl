__kernel void k(__global float4 *o) { printf("%v4f\n", o[0]); }
