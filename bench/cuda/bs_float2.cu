// bs_float2.cu — Black-Scholes in float, written as CUDA code is commonly tuned: two options per
// thread through float2 loads (more independent work per thread), CUDA's fast intrinsics
// (__expf, __logf, __fdividef, rsqrtf), blocks of 128. kcc compiles this file as it is; the
// nvcc side is the same file, so both compile identical source.
//
// cnd is the Abramowitz-Stegun polynomial for the cumulative normal distribution (26.2.17),
// the same approximation as bench/kernels/blackscholes.k.
__device__ static float cnd_fast(float d) {
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f;
    const float a4 = -1.821255978f, a5 = 1.330274429f;
    const float rsqrt2pi = 0.39894228040143267794f;
    float k = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
    float c = rsqrt2pi * __expf(-0.5f * d * d) *
              (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
    return d > 0.0f ? 1.0f - c : c;
}

// One option: its call and put prices.
__device__ static void price(float s, float x, float t, float r, float v, float *call,
                             float *put) {
    float sqrt_t = __fdividef(1.0f, rsqrtf(t));
    float d1 = __fdividef(__logf(s / x) + (r + 0.5f * v * v) * t, v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float n1 = cnd_fast(d1), n2 = cnd_fast(d2);
    float ert = __expf(-r * t);
    *call = s * n1 - x * ert * n2;
    *put = x * ert * (1.0f - n2) - s * (1.0f - n1);
}

// n options (even); thread i prices options 2i and 2i+1.
extern "C" __global__ void __launch_bounds__(128)
    bs_float2(float2 *call, float2 *put, const float2 *stock, const float2 *strike,
              const float2 *years, float r, float v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n / 2)
        return;
    float2 s = stock[i], x = strike[i], t = years[i];
    float c0, p0, c1, p1;
    price(s.x, x.x, t.x, r, v, &c0, &p0);
    price(s.y, x.y, t.y, r, v, &c1, &p1);
    call[i] = make_float2(c0, c1);
    put[i] = make_float2(p0, p1);
}
