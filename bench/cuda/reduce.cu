// reduce.cu — nvcc side of tests/kernels/reduce.k: each thread adds two elements, then a
// shared-memory tree per block (blockDim.x == 256), one partial sum per 512 elements.
#define BLOCK 256

extern "C" __global__ void reduce(const float *in, float *partial, int n) {
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (BLOCK * 2) + tid;

    float sum = 0.0f;
    if (i < n) sum = in[i];
    if (i + BLOCK < n) sum += in[i + BLOCK];
    sdata[tid] = sum;
    __syncthreads();

    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}
