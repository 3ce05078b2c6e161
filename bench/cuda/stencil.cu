// stencil.cu — nvcc side of tests/kernels/stencil.k: a 3-point 1-D stencil with a shared
// halo (clamped edges) and a 5-point 2-D smoothing straight from global memory, sharing a
// device function as the .k does.
#define B 256

__device__ static float weighted(float l, float c, float r) {
    return 0.25f * l + 0.5f * c + 0.25f * r;
}

__device__ static inline int clampi(int v, int lo, int hi) {
    return v < lo ? lo : (v > hi ? hi : v);
}

extern "C" __global__ void stencil1d(const float *in, float *out, int n) {
    __shared__ float s[B + 2];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x + 1;
    s[t] = in[clampi(i, 0, n - 1)];
    if (threadIdx.x == 0)
        s[0] = in[clampi(i - 1, 0, n - 1)];
    if (threadIdx.x == blockDim.x - 1)
        s[t + 1] = in[clampi(i + 1, 0, n - 1)];
    __syncthreads();
    if (i < n)
        out[i] = weighted(s[t - 1], s[t], s[t + 1]);
}

extern "C" __global__ void stencil2d(const float *in, float *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int c = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[c] = in[c];
        return;
    }
    float side = in[c - 1] + in[c + 1] + in[c - w] + in[c + w];
    out[c] = 0.5f * in[c] + 0.125f * side;
}
