// sprod.cu — nvcc side of bench/kernels/sprod.k.
#define ACC 1024
extern "C" __global__ void sprod(const float *a, const float *b, float *dots, int nvec, int len) {
    __shared__ float part[ACC];
    for (int v = blockIdx.x; v < nvec; v += gridDim.x) {
        int first = v * len, end = first + len;
        for (int t = threadIdx.x; t < ACC; t += blockDim.x) {
            float sum = 0.0f;
            for (int j = first + t; j < end; j += ACC)
                sum += a[j] * b[j];
            part[t] = sum;
        }
        for (int w = ACC / 2; w > 0; w >>= 1) {
            __syncthreads();
            for (int t = threadIdx.x; t < w; t += blockDim.x)
                part[t] += part[t + w];
        }
        __syncthreads();
        if (threadIdx.x == 0)
            dots[v] = part[0];
    }
}
