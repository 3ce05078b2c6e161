// ddiv.cu — nvcc side of bench/kernels/ddiv.k.
extern "C" __global__ void ddiv(const double *a, const double *b, double *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double p = a[i], q = b[i];
    y[i] = p / q + sqrt(p) / (q + 1.0) + 1.0 / (p * q) - rsqrt(p + q);
}
