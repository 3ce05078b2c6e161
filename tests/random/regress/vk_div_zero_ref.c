/* host reference of vk_div_zero.k (rk_seed 22) */
#include "rk_io.h"

#include <math.h>

static void k0_ref(const int *ia, const unsigned *ua, const long *la, const float *fa,
                   const double *da, unsigned long *ou, float *of, double *od, unsigned *acc,
                   int *acci, unsigned long *accl, struct kparm prm) {
  (void)ia, (void)ua, (void)la, (void)fa, (void)ou, (void)of, (void)acc, (void)acci, (void)accl;
  for (unsigned gid = 0; gid < RK_N; gid++) {
    _Bool z = 0;
    od[gid * 2u + 1u] = (double)(prm.i1) / (double)(z);
    od[gid * 2u + 0u] = da[gid] / (double)(prm.i0 - prm.i0);
  }
}

static void k1_ref(const int *ia, const unsigned *ua, const long *la, const float *fa,
                   const double *da, unsigned long *ou, float *of, double *od, unsigned *acc,
                   int *acci, unsigned long *accl, struct kparm prm) {
  (void)ia, (void)ua, (void)da, (void)ou, (void)od, (void)acc, (void)acci, (void)accl, (void)prm;
  for (unsigned gid = 0; gid < RK_N; gid++) {
    unsigned v1 = 0;
    short v2 = 0;
    of[gid * 4u + 1u] = 3.0f / (float)(v1) - (float)(la[gid]) / (float)(v2);
    of[gid * 4u + 2u] = fa[gid] / -(float)(v2);
  }
}

static void k2_ref(const int *ia, const unsigned *ua, const long *la, const float *fa,
                   const double *da, unsigned long *ou, float *of, double *od, unsigned *acc,
                   int *acci, unsigned long *accl, struct kparm prm) {
  (void)ua, (void)la, (void)fa, (void)da, (void)ou, (void)of, (void)acc, (void)acci, (void)accl;
  (void)prm;
  for (unsigned bid = 0; bid < RK_NB; bid++) {
    double sh[RK_BS];
    unsigned v18 = 0;
    double v20 = 0;
    float c = (float)(v20);
    for (unsigned tid = 0; tid < RK_BS; tid++) sh[tid] = sqrt(((double)(c)*v20) / (double)(v18));
    for (unsigned tid = 0; tid < RK_BS; tid++) {
      unsigned gid = bid * 32u + tid;
      od[gid * 2u + 1u] = sh[(tid ^ 5u) & 31u];
      od[gid * 2u + 0u] = (double)(ia[gid] | 1) / (double)(v18);
    }
  }
}

static const RkRef rk_refs[] = {{0, k0_ref}, {1, k1_ref}, {2, k2_ref}};
#include "rk_ref_main.h"
