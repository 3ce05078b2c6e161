// cuda_mathfn.cu — the CUDA Math API's spellings of the functions kcc defines over its
// builtins (sinpif, sincospif, logbf, ilogbf, ldexpf, scalbnf, scalblnf, frexpf, modff,
// remquof, remainderf, nextafterf, fdimf, nanf, rhypotf, rcbrtf, norm3df, rnorm3df, norm4df,
// rnorm4df, nearbyintf, lrintf & co., erfinvf, erfcinvf, erfcxf, normcdff, normcdfinvf) in float
// and double; the integer minima and maxima (umin ... ullmax), device memcpy and memset, and
// the Bessel functions (j0f ... cyl_bessel_i1f, j0 ... cyl_bessel_i1); cuda_mathfn.c checks them
// against the host's libm (libquadmath for the Bessel functions) and its own copies.

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

// The Math API's integer minima and maxima, and memcpy/memset in device code: each thread owns
// 160 bytes of o and reads 64 of src. Global to global at run-time offsets and sizes
// (unaligned), constant sizes (aligned and not, bytes and words: typed pointers aligned to 4
// take the word path) through private arrays, and through shared memory; memset of each;
// memcpy's and memset's results (their first argument).
struct never_defined;

__global__ void intmem(const unsigned *ua, const long long *la, unsigned *uo, long long *lo,
                       const unsigned char *src, unsigned char *o, const int *sz, int n) {
  __shared__ unsigned char sh[64 * 64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uo[2 * i] = umin(ua[2 * i], ua[2 * i + 1]);
  uo[2 * i + 1] = umax(ua[2 * i], ua[2 * i + 1]);
  long long a = la[2 * i], b = la[2 * i + 1];
  lo[6 * i] = llmin(a, b);
  lo[6 * i + 1] = llmax(a, b);
  lo[6 * i + 2] = (long long)ullmin((unsigned long long)a, (unsigned long long)b);
  lo[6 * i + 3] = (long long)ullmax((unsigned long long)a, (unsigned long long)b);
  const unsigned char *s = src + 64 * i;
  unsigned char *r = o + 160 * i, *t = sh + 64 * threadIdx.x;
  const int *z = sz + 8 * i;
  memset(r, 0xa5, 64);
  bool same = memcpy(r + z[0], s + z[1], z[2]) == r + z[0];
  same = same && memset(r + z[3], z[4], z[5]) == r + z[3];
  unsigned int w[4];
  memcpy(w, s + 48, 16);
  w[0] ^= 1u;
  memcpy(r + 64, w, sizeof w);
  unsigned char q[13];
  memcpy(q, s + 3, 13);
  // through pointers to an incomplete type: the void * overloads (alignof is unknown)
  memcpy((struct never_defined *)(r + 81), (const struct never_defined *)q, 13);
  memset((struct never_defined *)t, 0, 64);
  memcpy(t + z[6], s + z[7], 16);
  memcpy(r + 96, t + 8, 32);
  unsigned char p[8];
  memset(p, z[4] + 1, sizeof p);
  memcpy(r + 128, p, 8);
  r[136] = same;
  int ia[3];
  memset(ia, z[4], sizeof ia);
  memcpy(r + 137, ia, 7);
  memcpy((void *)(r + 94), (const float *)(s + 4), 2);
  uint4 v4;
  memcpy(&v4, (const uint4 *)s + 2, sizeof v4);
  v4.y += 1u;
  memcpy((uint4 *)(void *)(r + 144), &v4, sizeof v4);
}

// The Bessel functions (j0 j1 y0 y1 jn yn cyl_bessel_i0 cyl_bessel_i1 and their f forms), a
// kernel each: Vulkan drivers inline every call, and lavapipe took minutes over one kernel with
// all eight.
#define BESSEL(T, S, J, F, CALL)                                                                   \
  __global__ void bessel_##F##_##T(const T *xs, const int *ns, T *o, int n) {                      \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i >= n) return;                                                                            \
    T x = xs[i];                                                                                   \
    int k = ns[i];                                                                                 \
    (void)k;                                                                                       \
    o[J * n + i] = CALL;                                                                           \
  }
#define BESSELS(T, S)                                                                              \
  BESSEL(T, S, 0, j0, j0##S(x))                                                                    \
  BESSEL(T, S, 1, j1, j1##S(x))                                                                    \
  BESSEL(T, S, 2, y0, y0##S(x))                                                                    \
  BESSEL(T, S, 3, y1, y1##S(x))                                                                    \
  BESSEL(T, S, 4, jn, jn##S(k, x))                                                                 \
  BESSEL(T, S, 5, yn, yn##S(k, x))                                                                 \
  BESSEL(T, S, 6, i0, cyl_bessel_i0##S(x))                                                         \
  BESSEL(T, S, 7, i1, cyl_bessel_i1##S(x))

BESSELS(float, f)
BESSELS(double, )
