// saxpy.cu — nvcc side of tests/kernels/saxpy.k: grid-stride loop; restrict because the .k
// says restrict (CUDA spells it __restrict__).
extern "C" __global__ void saxpy(int n, float a, const float *__restrict__ x,
                                 float *__restrict__ y) {
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i] + y[i];
}
