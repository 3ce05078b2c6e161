// dmath.cu — nvcc side of bench/kernels/dmath.k.
extern "C" __global__ void dmath(const double *x, double *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double v = x[i];
    y[i] = exp(-v) * log(v + 1.0) + sin(v) * cos(2.0 * v) + pow(v, 1.5);
}
