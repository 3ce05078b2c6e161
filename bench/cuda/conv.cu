// conv.cu — nvcc side of bench/kernels/conv.k: 1-D convolution with 9 taps in constant memory, edges clamped.
// launch: grid=(ceil(n/256)), block=(256); args (in, out, n) with float in[n], out[n].
// computes out[i] = sum over k in [0, 9) of taps[k] * in[clamp(i + k - 4, 0, n - 1)], i < n,
//   summed in k order, taps = {0.02, 0.05, 0.1, 0.15, 0.36, 0.15, 0.1, 0.05, 0.02}.
#define R 4

__constant__ float taps[2 * R + 1] = {0.02f, 0.05f, 0.1f, 0.15f, 0.36f, 0.15f, 0.1f, 0.05f, 0.02f};

extern "C" __global__ void conv(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float sum = 0.0f;
    for (int k = 0; k <= 2 * R; k++) {
        int j = i + k - R;
        j = j < 0 ? 0 : (j > n - 1 ? n - 1 : j);
        sum += taps[k] * in[j];
    }
    out[i] = sum;
}
