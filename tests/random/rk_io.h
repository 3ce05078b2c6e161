/* rk_io.h — what the random kernels (rkgen.py), their host references and the runners
 * (rk_run.c, tests/gpu/rk_cuda_main.cu) agree on: the launch shape, the kernel signature's
 * arrays, the struct parameter, the deterministic inputs and the output file format.
 *
 * Every generated kernel is
 *   kernel void kJ(const int *ia, const unsigned *ua, const long *la, const float *fa,
 *                  const double *da, unsigned long *ou, float *of, double *od,
 *                  unsigned *acc, int *acci, unsigned long *accl, struct kparm prm)
 * launched as RK_NB blocks of RK_BS threads; thread gid writes ou[gid*RK_NO ...] and so on.
 * The output file holds, per kernel, ou, of, od, acc, acci, accl in that order (host byte
 * order), nothing else. */
#ifndef RK_IO_H
#define RK_IO_H

#include <stdint.h>
#include <string.h>

#define RK_BS   32 /* threads per block */
#define RK_NB   4  /* blocks */
#define RK_N    (RK_BS * RK_NB)
#define RK_NIN  RK_N /* elements of each input array (a power of two) */
#define RK_NO   4    /* integer results per thread */
#define RK_NF   4    /* float results per thread */
#define RK_ND   2    /* double results per thread */
#define RK_NACC 8    /* accumulators of each kind */

struct kparm {
  int i0;
  int i1;
  float f0;
  long l0;
};

typedef struct RkInputs {
  int ia[RK_NIN];
  unsigned ua[RK_NIN];
  long la[RK_NIN];
  float fa[RK_NIN];
  double da[RK_NIN];
  struct kparm prm;
} RkInputs;

typedef struct RkOutputs {
  unsigned long ou[RK_N * RK_NO];
  float of[RK_N * RK_NF];
  double od[RK_N * RK_ND];
  unsigned acc[RK_NACC];
  int acci[RK_NACC];
  unsigned long accl[RK_NACC];
} RkOutputs;

/* A host reference of one kernel (rkgen.py writes them). */
typedef void (*RkRefFn)(const int *ia, const unsigned *ua, const long *la, const float *fa,
                        const double *da, unsigned long *ou, float *of, double *od, unsigned *acc,
                        int *acci, unsigned long *accl, struct kparm prm);
typedef struct RkRef {
  int index;
  RkRefFn fn;
} RkRef;

static inline uint64_t rk_next(uint64_t *s) {
  /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Integers: mostly small, some at the edges of their type, some anything. */
static inline uint64_t rk_int_bits(uint64_t *s, int bits) {
  uint64_t r = rk_next(s), v;
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  switch (r % 8) {
  case 0: v = 0; break;
  case 1: v = 1; break;
  case 2: v = mask; break;            /* -1 */
  case 3: v = mask >> 1; break;       /* max */
  case 4: v = (mask >> 1) + 1; break; /* min */
  case 5: v = (r >> 8) % 64; break;
  case 6: v = (uint64_t) - (int64_t)((r >> 8) % 64); break;
  default: v = rk_next(s); break;
  }
  return v & mask;
}

static inline double rk_real(uint64_t *s) {
  uint64_t r = rk_next(s);
  static const double special[] = {0.0,  -0.0,   1.0,     -1.0,         0.5,  3.0,
                                   1e10, -1e-10, 65536.0, 2147483648.0, 1e30, -7.25};
  if (r % 4 == 0) return special[(r >> 8) % (sizeof special / sizeof special[0])];
  double u = (double)(r >> 11) / 9007199254740992.0; /* [0, 1) */
  int e = (int)((r >> 3) % 17) - 8;
  double m = (u * 2.0 - 1.0);
  while (e > 0) m *= 4.0, e--;
  while (e < 0) m *= 0.25, e++;
  return m;
}

/* Inputs of kernel `k` of the batch made with `seed`: the same on every runner. */
static inline void rk_inputs(RkInputs *in, uint64_t seed, int k) {
  uint64_t s = seed * 0x100000001b3ull + (uint64_t)k * 7919u + 12345u;
  for (int i = 0; i < RK_NIN; i++) {
    in->ia[i] = (int)(uint32_t)rk_int_bits(&s, 32);
    in->ua[i] = (unsigned)rk_int_bits(&s, 32);
    in->la[i] = (long)rk_int_bits(&s, 64);
    in->fa[i] = (float)rk_real(&s);
    in->da[i] = rk_real(&s);
  }
  memset(&in->prm, 0, sizeof in->prm);
  in->prm.i0 = (int)(uint32_t)rk_int_bits(&s, 32);
  in->prm.i1 = (int)(rk_next(&s) % 100) - 50;
  in->prm.f0 = (float)rk_real(&s);
  in->prm.l0 = (long)rk_int_bits(&s, 64);
}

/* Outputs start as a pattern that no kernel is likely to write, accumulators at 0. */
static inline void rk_outputs_init(RkOutputs *o) {
  memset(o, 0, sizeof *o);
  for (int i = 0; i < RK_N * RK_NO; i++) o->ou[i] = 0x5a5a5a5a5a5a5a5aull;
  for (int i = 0; i < RK_N * RK_NF; i++) o->of[i] = 12345.0f;
  for (int i = 0; i < RK_N * RK_ND; i++) o->od[i] = 54321.0;
}

#endif
