// blur_buf.cl — 5x5 Gaussian blur of a one-channel float image in a plain buffer, edges
// clamped: bench/kernels/blur_img.cl without the image.
// launch: grid=(ceil(w/16), ceil(h/16)), block=(16, 16); args (src, dst, w, h) with
//   float src[w * h], dst[w * h] (rows of w).
// computes dst[y * w + x] = sum over j, i in [-2, 2] of g[j + 2] * g[i + 2] *
//   src[clamp(y + j, 0, h - 1) * w + clamp(x + i, 0, w - 1)], summed with j outer, i inner,
//   g = {1, 4, 6, 4, 1} / 16.
__constant float g[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

__kernel void blur_buf(__global const float *src, __global float *dst, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float sum = 0.0f;
    for (int j = -2; j <= 2; j++) {
        __global const float *row = src + clamp(y + j, 0, h - 1) * w;
        for (int i = -2; i <= 2; i++)
            sum += g[j + 2] * g[i + 2] * row[clamp(x + i, 0, w - 1)];
    }
    dst[y * w + x] = sum;
}
