__kernel void blur(read_only image2d_depth_t src, __global float *dst) {
  dst[0] = read_imagef(src, (int2)(0, 0));
}
