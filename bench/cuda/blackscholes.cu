// blackscholes.cu — nvcc side of bench/kernels/blackscholes.k: European options in double.
__device__ static double cnd(double d) {
    const double a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937;
    const double a4 = -1.821255978, a5 = 1.330274429;
    const double rsqrt2pi = 0.39894228040143267794;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = rsqrt2pi * exp(-0.5 * d * d) *
               (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0 ? 1.0 - c : c;
}

extern "C" __global__ void blackscholes(const double *s, const double *x, const double *t,
                                        double *call, double *put, double r, double v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double S = s[i], X = x[i], T = t[i];
    double sqrtT = sqrt(T);
    double d1 = (log(S / X) + (r + 0.5 * v * v) * T) / (v * sqrtT);
    double d2 = d1 - v * sqrtT;
    double nd1 = cnd(d1), nd2 = cnd(d2);
    double ert = exp(-r * T);
    call[i] = S * nd1 - X * ert * nd2;
    put[i] = X * ert * (1.0 - nd2) - S * (1.0 - nd1);
}
