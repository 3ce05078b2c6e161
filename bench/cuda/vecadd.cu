// vecadd.cu — the nvcc side of bench/kernel_time for tests/kernels/vecadd.k: the same
// algorithm as a CUDA programmer writes it. extern "C" keeps the entry-point name equal to the
// kernel table's, so wrap_cubin can put this cubin behind kcc's table unchanged. No
// __restrict__: vecadd.k has none, and the benchmark compares compilers, not annotations.
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
