// cuda_mathfn.cu — the CUDA Math API's spellings of the functions kcc defines over its
// builtins (sinpif, sincospif, logbf, ilogbf, ldexpf, scalbnf, scalblnf, frexpf, modff,
// remquof, remainderf, nextafterf, fdimf, nanf, rhypotf, rcbrtf, norm3df, rnorm3df, norm4df,
// rnorm4df, nearbyintf, lrintf & co., erfinvf, erfcinvf, erfcxf, normcdff, normcdfinvf) in float
// and double; cuda_mathfn.c checks them against the host's libm.

#define MATHFN(T, S)                                                                               \
  __global__ void mathfn_##T(const T *xs, const T *ys, const T *uv, const int *ks, T *o, int *oi,  \
                             long long *ol, int n) {                                               \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i >= n) return;                                                                            \
    T x = xs[i], y = ys[i], s, c, ip;                                                              \
    int k = ks[i], e, q;                                                                           \
    o[0 * n + i] = sinpi##S(x);                                                                    \
    o[1 * n + i] = cospi##S(x);                                                                    \
    sincospi##S(x, &s, &c);                                                                        \
    o[2 * n + i] = s;                                                                              \
    o[3 * n + i] = c;                                                                              \
    o[4 * n + i] = logb##S(x);                                                                     \
    o[5 * n + i] = ldexp##S(x, k);                                                                 \
    o[6 * n + i] = scalbn##S(x, k);                                                                \
    o[7 * n + i] = scalbln##S(x, (long)k * 3);                                                     \
    o[8 * n + i] = frexp##S(x, &e);                                                                \
    oi[1 * n + i] = e;                                                                             \
    o[9 * n + i] = modf##S(x, &ip);                                                                \
    o[10 * n + i] = ip;                                                                            \
    o[11 * n + i] = remquo##S(x, y, &q);                                                           \
    oi[2 * n + i] = q;                                                                             \
    o[12 * n + i] = remainder##S(x, y);                                                            \
    o[13 * n + i] = nextafter##S(x, y);                                                            \
    o[14 * n + i] = fdim##S(x, y);                                                                 \
    o[15 * n + i] = nan##S("");                                                                    \
    o[16 * n + i] = rhypot##S(x, y);                                                               \
    o[17 * n + i] = rcbrt##S(x);                                                                   \
    o[18 * n + i] = norm3d##S(x, y, x);                                                            \
    o[19 * n + i] = rnorm3d##S(x, y, x);                                                           \
    o[20 * n + i] = norm4d##S(x, y, x, y);                                                         \
    o[21 * n + i] = rnorm4d##S(x, y, x, y);                                                        \
    o[22 * n + i] = nearbyint##S(x);                                                               \
    o[23 * n + i] = erfinv##S(uv[i]);                                                              \
    o[24 * n + i] = erfcinv##S(uv[n + i]);                                                         \
    o[25 * n + i] = erfcx##S(x);                                                                   \
    o[26 * n + i] = normcdf##S(x);                                                                 \
    o[27 * n + i] = normcdfinv##S(uv[n + i] * (T)0.5);                                             \
    oi[0 * n + i] = ilogb##S(x);                                                                   \
    T r = x > (T)1e15 || x < (T)-1e15 || x != x ? (T)0 : x; /* in every integer type's range */    \
    ol[0 * n + i] = lrint##S(r);                                                                   \
    ol[1 * n + i] = llrint##S(r);                                                                  \
    ol[2 * n + i] = lround##S(r);                                                                  \
    ol[3 * n + i] = llround##S(r);                                                                 \
  }

MATHFN(float, f)
MATHFN(double, )
