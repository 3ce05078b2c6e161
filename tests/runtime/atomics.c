/* atomics.c — runs tests/kernels/atomics.k with n random in [300, 512] threads doing work
 * (grid = ceil(n/128) blocks of 128; the last block's surplus threads only touch the shared
 * block counter's barrier). The expected values come from applying every operation serially
 * on the host; atomicExch and the first-wins CAS have a set of valid results. */
#include "rt_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "atomics");
  int n = rt_int(&rt, 300, 512);
  int ia[8] = {0, 0, INT_MAX, INT_MIN, -1, 0, 0, 0};
  unsigned int ua[8] = {0, 0, UINT_MAX, 0, 0xffffffff, 0, 0, 0};
  long la[8] = {0, 0, LONG_MAX, LONG_MIN, 0, 0, 0, 0};
  float fa[2] = {0, 0};
  unsigned long ula[4] = {0, 0, 0, 0};
  kcrt_buffer *dia = rt_upload(&rt, ia, sizeof ia), *dua = rt_upload(&rt, ua, sizeof ua),
              *dla = rt_upload(&rt, la, sizeof la), *dfa = rt_upload(&rt, fa, sizeof fa),
              *dula = rt_upload(&rt, ula, sizeof ula);

  /* The host's serial application of the same operations. */
  int wi[8];
  unsigned int wu[8];
  long wl[8];
  unsigned long wul[4];
  memcpy(wi, ia, sizeof ia), memcpy(wu, ua, sizeof ua), memcpy(wl, la, sizeof la);
  memcpy(wul, ula, sizeof ula);
  for (int g = 0; g < n; g++) {
    wi[0] += g, wi[1] -= 1;
    if (g - 100 < wi[2]) wi[2] = g - 100;
    if (g > wi[3]) wi[3] = g;
    wi[4] &= ~(1 << (g % 31)), wi[5] |= 1 << (g % 31), wi[6] ^= (int)(1u << (g % 32));
    if (g * 7 % 509 > wi[7]) wi[7] = g * 7 % 509;
    wu[0] += 2u;
    if ((unsigned)g + 5 < wu[2]) wu[2] = (unsigned)g + 5;
    if ((unsigned)g * 3 > wu[3]) wu[3] = (unsigned)g * 3;
    wu[4] &= ~(1u << (g % 32)), wu[5] |= 1u << (g % 32), wu[6] ^= (unsigned)g;
    wl[0] += (long)g * 10000000000L, wl[1] -= g;
    if (-(long)g < wl[2]) wl[2] = -(long)g;
    if ((long)g << 33 > wl[3]) wl[3] = (long)g << 33;
    wl[4] |= (long)(1UL << (g % 64)), wl[5] ^= g; /* the kernel's 1L << 63, without UB */
    wul[0] += 3, wul[3] |= 1UL << (g % 64);
    if ((unsigned long)g > wul[1]) wul[1] = g;
  }
  wl[6] = n; /* the per-block shared counts, added by each block's thread 0 */
  wl[7] = 0;
  wul[2] = 42;

  kcrt_arg args[] = {KCRT_ARG_BUFFER(dia), KCRT_ARG_BUFFER(dua), KCRT_ARG_BUFFER(dla),
                     KCRT_ARG_BUFFER(dfa), KCRT_ARG_VALUE(n),    KCRT_ARG_BUFFER(dula)};
  rt_launch(&rt, rt_kernel(&rt, "atomics"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, args,
            6);
  rt_download(&rt, dia, ia, sizeof ia), rt_download(&rt, dua, ua, sizeof ua);
  rt_download(&rt, dla, la, sizeof la), rt_download(&rt, dfa, fa, sizeof fa);
  rt_download(&rt, dula, ula, sizeof ula);

  rt_cmp_i32(&rt, "ia", ia, wi, 8);
  /* ua[1] (exch g+1) and ua[7] (CAS 0 -> g+1, first wins) hold some thread's g+1. */
  if (ua[1] < 1 || ua[1] > (unsigned)n) rt_fail(&rt, "ua[1] = %u, expected 1..%d", ua[1], n);
  if (ua[7] < 1 || ua[7] > (unsigned)n) rt_fail(&rt, "ua[7] = %u, expected 1..%d", ua[7], n);
  ua[1] = wu[1] = 0, ua[7] = wu[7] = 0;
  rt_cmp_u32(&rt, "ua", ua, wu, 8);
  rt_cmp_i64(&rt, "la", (const int64_t *)la, (const int64_t *)wl, 8);
  float wf[2] = {0.5f * n, 1.0f};
  rt_cmp_f32(&rt, "fa", fa, wf, 2, 0, 0);
  rt_cmp_u64(&rt, "ula", (const uint64_t *)ula, (const uint64_t *)wul, 4);
  return rt_finish(&rt, "%d threads, 33 atomic results", n);
}
