__kernel void k(read_only image2d_t src, __global float4 *dst) {
  dst[0] = read_imagef(src, CLK_FILTER_NEAREST | CLK_FILTER_LINEAR, (int2)(0, 0));
}
