__kernel void k(read_only image2d_t src, __global float4 *dst, int n) {
  const sampler_t s = n ? CLK_FILTER_NEAREST : CLK_FILTER_LINEAR;
  dst[0] = read_imagef(src, s, (int2)(0, 0));
}
