/* host reference of clone_for_init.k (rk_seed 2) */
#include "rk_io.h"

static int f(const float *q, int x) {
  int s = 0;
  for (int i = 0; i < 3; i++) s += (int)q[i] * x + i;
  return s;
}

static void k0_ref(const int *ia, const unsigned *ua, const long *la, const float *fa,
                   const double *da, unsigned long *ou, float *of, double *od, unsigned *acc,
                   int *acci, unsigned long *accl, struct kparm prm) {
  (void)ua, (void)la, (void)da, (void)of, (void)od, (void)acc, (void)acci, (void)accl, (void)prm;
  for (unsigned bid = 0; bid < RK_NB; bid++) {
    float sh[RK_BS];
    for (unsigned tid = 0; tid < RK_BS; tid++) sh[tid] = (float)(ia[bid * 32u + tid] & 255);
    for (unsigned tid = 0; tid < RK_BS; tid++) {
      unsigned gid = bid * 32u + tid;
      ou[gid * 4u] = (unsigned long)(long)(f(fa + (tid & 7u), 3) + f(sh + (tid & 15u), 5));
    }
  }
}

static const RkRef rk_refs[] = {{0, k0_ref}};
#include "rk_ref_main.h"
