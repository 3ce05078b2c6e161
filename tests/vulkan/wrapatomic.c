/* wrapatomic.c — runs tests/vulkan/wrapatomic.k: n invocations each apply atomicInc (then, in
 * a second launch, atomicDec) to one of WORDS words chosen at random, with each word's own
 * bound: 0, 1, small ones, 0xffffffff, and a word that starts above its bound. The order of
 * the operations is the device's, so the host checks what does not depend on it: each word's
 * final value, and the values the invocations got back, as a multiset, against the same
 * operations made one after the other. */
#include "rt_common.h"

#include <stdlib.h>

enum { WORDS = 9 };

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static uint32_t step(uint32_t x, uint32_t m, int dec) {
  if (dec) return x == 0 || x > m ? m : x - 1;
  return x >= m ? 0 : x + 1;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "wrapatomic");
  static const uint32_t bound[WORDS] = {0, 1, 5, 100, 1000, 0xffffffffu, 7, 3, 64};
  uint32_t start[WORDS] = {0, 1, 2, 57, 999, 0xfffffff0u, 50, 0, 64};
  int n = rt_int(&rt, 20000, 60000);
  uint32_t *which = malloc(n * sizeof *which), *ret = malloc(n * sizeof *ret),
           *got = malloc(n * sizeof *got), *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) /* runs of one word, then mixed, so subgroups see both */
    which[i] = (uint32_t)(i % 256 < 96 ? (i / 256) % WORDS : rt_int(&rt, 0, WORDS - 1));
  kcrt_buffer *dw = rt_upload(&rt, start, sizeof start), *dwhich = rt_upload(&rt, which, n * 4),
              *dbound = rt_upload(&rt, bound, sizeof bound), *dret = rt_alloc(&rt, n * 4);
  kcrt_kernel *k = rt_kernel(&rt, "wrapatomic");
  for (int dec = 0; dec < 2; dec++) {
    uint32_t before[WORDS];
    rt_download(&rt, dw, before, sizeof before);
    kcrt_arg args[] = {KCRT_ARG_BUFFER(dw),   KCRT_ARG_BUFFER(dwhich), KCRT_ARG_BUFFER(dbound),
                       KCRT_ARG_BUFFER(dret), KCRT_ARG_VALUE(n),       KCRT_ARG_VALUE(dec)};
    rt_launch(&rt, k, KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, args, 6);
    uint32_t after[WORDS];
    rt_download(&rt, dw, after, sizeof after);
    rt_download(&rt, dret, ret, n * 4);
    for (int w = 0; w < WORDS; w++) {
      int cnt = 0;
      uint32_t x = before[w];
      for (int i = 0; i < n; i++)
        if (which[i] == (uint32_t)w) {
          got[cnt] = ret[i];
          want[cnt++] = x;
          x = step(x, bound[w], dec);
        }
      qsort(got, cnt, 4, cmp_u32);
      qsort(want, cnt, 4, cmp_u32);
      int bad = after[w] != x;
      for (int i = 0; i < cnt && !bad; i++) bad = got[i] != want[i];
      if (bad) {
        printf("FAIL wrapatomic: %s, word %d (bound %u, from %u, %d operations): final %u, want "
               "%u; or the values returned differ\n",
               dec ? "atomicDec" : "atomicInc", w, bound[w], before[w], cnt, after[w], x);
        rt.failures++;
      }
    }
  }
  free(which), free(ret), free(got), free(want);
  return rt_finish(&rt, "%d invocations on %d words, atomicInc then atomicDec", n, WORDS);
}
