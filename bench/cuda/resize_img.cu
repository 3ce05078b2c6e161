// resize_img.cu — nvcc side of bench/kernels/resize_img.cl: bilinear resize through a texture
// object, the texture unit's linear filtering (9-bit fixed-point weights: CUDA Programming
// Guide, "Texture Fetching") doing the interpolation.
// launch: grid=(ceil(ow/16), ceil(oh/16)), block=(16, 16); args (src, dst, ow, oh, sx, sy) with
//   src a texture object over a CUDA array of w x h floats (1 channel), cudaFilterModeLinear,
//   cudaAddressModeClamp in both dimensions, unnormalized coordinates, element-type reads;
//   float dst[ow * oh], sx = w / ow, sy = h / oh.
// computes dst[y * ow + x] = tex2D<float>(src, (x + 0.5) * sx, (y + 0.5) * sy), x < ow, y < oh.
// kcc compiles this file too: its kernel table (a 64-bit handle first) is the one the nvcc
// cubin is wrapped behind (bench/gpu_prepare.sh).
extern "C" __global__ void resize_img(cudaTextureObject_t src, float *dst, int ow, int oh,
                                      float sx, float sy) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= ow || y >= oh)
        return;
    dst[y * ow + x] = tex2D<float>(src, ((float)x + 0.5f) * sx, ((float)y + 0.5f) * sy);
}
