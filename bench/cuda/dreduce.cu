// dreduce.cu — nvcc side of bench/kernels/dreduce.k.
#define BS 256
extern "C" __global__ void dreduce(const double *x, double *partial, int n) {
    __shared__ double s[BS];
    double acc = 0.0;
    for (int i = blockIdx.x * BS + threadIdx.x; i < n; i += gridDim.x * BS)
        acc += x[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = BS / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}
