// copy.cu — nvcc side of bench/kernels/copy.k: the bandwidth yardstick: a plain copy, 4 floats per thread as one 16-byte access.
// launch: grid=(ceil(n/1024)), block=(256); args (in, out, n) with float4 in[n/4], out[n/4]
//   (n a multiple of 4, counted in floats).
// computes out[i] = in[i] for i < n/4.

extern "C" __global__ void copy(const float4 *in, float4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4)
        out[i] = in[i];
}
