// Float math at C's precision on the Vulkan form: kcc's own functions (spirv_vkmath.c), run by
// tests/vulkan/mathfn.c on random and special arguments against the host's long double libm.
// Result f of element i is o[f * n + i]; the order is mathfn.c's table.
extern "C" __global__ void mathfn(const float *a, const float *b, float *o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i];
    o[0 * n + i] = expf(x);
    o[1 * n + i] = exp2f(x);
    o[2 * n + i] = exp10f(x);
    o[3 * n + i] = expm1f(x);
    o[4 * n + i] = logf(x);
    o[5 * n + i] = log2f(x);
    o[6 * n + i] = log10f(x);
    o[7 * n + i] = log1pf(x);
    o[8 * n + i] = sinf(x);
    o[9 * n + i] = cosf(x);
    o[10 * n + i] = tanf(x);
    o[11 * n + i] = asinf(x);
    o[12 * n + i] = acosf(x);
    o[13 * n + i] = atanf(x);
    o[14 * n + i] = atan2f(x, y);
    o[15 * n + i] = sinhf(x);
    o[16 * n + i] = coshf(x);
    o[17 * n + i] = tanhf(x);
    o[18 * n + i] = asinhf(x);
    o[19 * n + i] = acoshf(x);
    o[20 * n + i] = atanhf(x);
    o[21 * n + i] = powf(x, y);
    o[22 * n + i] = cbrtf(x);
    o[23 * n + i] = hypotf(x, y);
    float s, c;
    sincosf(x, &s, &c);
    o[24 * n + i] = s;
    o[25 * n + i] = c;
    o[26 * n + i] = fmodf(x, y);
    o[27 * n + i] = roundf(x);
    o[28 * n + i] = copysignf(x, y);
    o[29 * n + i] = erff(x);
    o[30 * n + i] = erfcf(x);
    o[31 * n + i] = normcdff(x);
    o[32 * n + i] = tgammaf(x);
    o[33 * n + i] = lgammaf(x);
}

// double: the functions kcc has its own double forms of so far. Result f of element i is
// o[f * n + i].
extern "C" __global__ void mathfn_d(const double *a, const double *b, double *o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i];
    o[0 * n + i] = exp(x);
    o[1 * n + i] = exp2(x);
    o[2 * n + i] = exp10(x);
    o[3 * n + i] = expm1(x);
    o[4 * n + i] = log(x);
    o[5 * n + i] = log2(x);
    o[6 * n + i] = log10(x);
    o[7 * n + i] = log1p(x);
    o[8 * n + i] = sin(x);
    o[9 * n + i] = cos(x);
    o[10 * n + i] = tan(x);
    o[11 * n + i] = pow(x, b[i]);
    o[12 * n + i] = atan2(x, b[i]);
    o[13 * n + i] = atan(x);
    o[14 * n + i] = asin(x);
    o[15 * n + i] = acos(x);
    o[16 * n + i] = sinh(x);
    o[17 * n + i] = cosh(x);
    o[18 * n + i] = tanh(x);
    o[19 * n + i] = cbrt(x);
    o[20 * n + i] = hypot(x, b[i]);
    o[21 * n + i] = round(x);
    o[22 * n + i] = asinh(x);
    o[23 * n + i] = acosh(x);
    o[24 * n + i] = atanh(x);
    o[25 * n + i] = fmod(x, b[i]);
    o[26 * n + i] = sinpi(x);
    o[27 * n + i] = rcbrt(x);
    o[28 * n + i] = erf(x);
    o[29 * n + i] = erfc(x);
    o[30 * n + i] = tgamma(x);
    o[31 * n + i] = lgamma(x);
}

// 64-bit clz and popcount (their halves' in the Vulkan form), which rootn's prelude uses.
extern "C" __global__ void bits64(const unsigned long long *a, int *o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    o[2 * i] = __clzll((long long)a[i]);
    o[2 * i + 1] = __popcll(a[i]);
}
