// matmul.cu — nvcc side of tests/kernels/matmul.k: the classic 16x16 shared-memory tiled
// SGEMM (one output element per thread, zero-padded edge tiles). Deliberately not a tuned
// GEMM: the benchmark compares what two compilers make of the same algorithm.
#define T 16

extern "C" __global__ void matmul(const float *A, const float *B, float *C, int m, int n, int k) {
    __shared__ float As[T][T];
    __shared__ float Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float acc = 0.0f;

    for (int t = 0; t < (k + T - 1) / T; t++) {
        int ac = t * T + tx, br = t * T + ty;
        As[ty][tx] = (row < m && ac < k) ? A[row * k + ac] : 0.0f;
        Bs[ty][tx] = (br < k && col < n) ? B[br * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < T; i++)
            acc += As[ty][i] * Bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        C[row * n + col] = acc;
}
