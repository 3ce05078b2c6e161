// blur_img.cl — 5x5 Gaussian blur of a one-channel float image read through image2d_t and a
// nearest, clamp-to-edge sampler (issue 30).
// launch: grid=(ceil(w/16), ceil(h/16)), block=(16, 16); args (src, dst, w, h) with src a
//   CL_R/CL_FLOAT image of w x h and float dst[w * h].
// computes dst[y * w + x] = sum over j, i in [-2, 2] of g[j + 2] * g[i + 2] *
//   src(clamp(x + i, 0, w - 1), clamp(y + j, 0, h - 1)), summed with j outer, i inner,
//   g = {1, 4, 6, 4, 1} / 16 (binomial weights: every product exact in float).
__constant sampler_t nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant float g[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

__kernel void blur_img(read_only image2d_t src, __global float *dst, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float sum = 0.0f;
    for (int j = -2; j <= 2; j++)
        for (int i = -2; i <= 2; i++)
            sum += g[j + 2] * g[i + 2] * read_imagef(src, nearest, (int2)(x + i, y + j)).x;
    dst[y * w + x] = sum;
}
