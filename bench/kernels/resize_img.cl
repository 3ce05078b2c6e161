// resize_img.cl — bilinear resize of a one-channel float image through image2d_t and a sampler
// (issue 30): the sampler's linear filter with clamp-to-edge addressing and unnormalized
// coordinates does the interpolation.
// launch: grid=(ceil(ow/16), ceil(oh/16)), block=(16, 16); args (src, dst, ow, oh, sx, sy) with
//   src a CL_R/CL_FLOAT image of w x h, float dst[ow * oh], sx = w / ow, sy = h / oh.
// computes dst[y * ow + x] = the OpenCL bilinear sample of src at ((x + 0.5) * sx, (y + 0.5) * sy)
//   (OpenCL 1.2 §8.2: texels i0 = floor(u - 0.5), i0 + 1 clamped to the edge, weights the
//   fraction of u - 0.5), x < ow, y < oh. bench/cuda/resize_img.cu is the same through tex2D.
__constant sampler_t bilinear =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

__kernel void resize_img(read_only image2d_t src, __global float *dst, int ow, int oh, float sx,
                         float sy) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= ow || y >= oh)
        return;
    float2 at = (float2)(((float)x + 0.5f) * sx, ((float)y + 0.5f) * sy);
    dst[y * ow + x] = read_imagef(src, bilinear, at).x;
}
