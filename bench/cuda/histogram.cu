// histogram.cu — nvcc side of tests/kernels/histogram.k: per-block 256-bin counts with shared
// atomics over a grid-stride loop, then one global atomicAdd per non-empty bin and block.
#define NBINS 256

extern "C" __global__ void histogram(const unsigned char *data, int n, unsigned int *bins) {
    __shared__ unsigned int local[NBINS];
    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();

    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < NBINS; b += blockDim.x)
        if (local[b] != 0)
            atomicAdd(&bins[b], local[b]);
}
