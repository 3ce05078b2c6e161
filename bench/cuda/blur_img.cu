// blur_img.cu — nvcc side of bench/kernels/blur_img.cl: 5x5 Gaussian blur read through a
// texture object (point filtering, clamp addressing: texel centres at x + 0.5).
// launch: grid=(ceil(w/16), ceil(h/16)), block=(16, 16); args (src, dst, w, h) with src a
//   texture object over a CUDA array of w x h floats (1 channel), cudaFilterModePoint,
//   cudaAddressModeClamp in both dimensions, unnormalized coordinates; float dst[w * h].
// computes dst[y * w + x] = sum over j, i in [-2, 2] of g[j + 2] * g[i + 2] *
//   src(clamp(x + i, 0, w - 1), clamp(y + j, 0, h - 1)), summed with j outer, i inner,
//   g = {1, 4, 6, 4, 1} / 16.
// kcc compiles this file too: its kernel table is the one the nvcc cubin is wrapped behind.
__constant__ float g[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

extern "C" __global__ void blur_img(cudaTextureObject_t src, float *dst, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float sum = 0.0f;
    for (int j = -2; j <= 2; j++)
        for (int i = -2; i <= 2; i++)
            sum += g[j + 2] * g[i + 2] *
                   tex2D<float>(src, (float)(x + i) + 0.5f, (float)(y + j) + 0.5f);
    dst[y * w + x] = sum;
}
