// blur_buf.cu — nvcc side of bench/kernels/blur_buf.cl: 5x5 Gaussian blur from a plain buffer,
// edges clamped.
// launch: grid=(ceil(w/16), ceil(h/16)), block=(16, 16); args (src, dst, w, h) with
//   float src[w * h], dst[w * h] (rows of w).
// computes dst[y * w + x] = sum over j, i in [-2, 2] of g[j + 2] * g[i + 2] *
//   src[clamp(y + j, 0, h - 1) * w + clamp(x + i, 0, w - 1)], summed with j outer, i inner,
//   g = {1, 4, 6, 4, 1} / 16.
__constant__ float g[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

__device__ static int clampi(int v, int lo, int hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

extern "C" __global__ void blur_buf(const float *src, float *dst, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float sum = 0.0f;
    for (int j = -2; j <= 2; j++) {
        const float *row = src + clampi(y + j, 0, h - 1) * w;
        for (int i = -2; i <= 2; i++)
            sum += g[j + 2] * g[i + 2] * row[clampi(x + i, 0, w - 1)];
    }
    dst[y * w + x] = sum;
}
