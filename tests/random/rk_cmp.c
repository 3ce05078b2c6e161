/* rk_cmp.c — compares runner outputs with reference outputs (rk_io.h's format), as rkdiff.py
 * does, for machines without Python (tests/gpu/random_run.sh):
 *   rk_cmp REF OUT COUNT   (COUNT kernels in each file)
 * Every element bit for bit; NaNs of any payload are equal. Prints one line per kernel that
 * differs or is missing; exit status 0 when all COUNT agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_io.h"

static int f32_nan(uint32_t b) {
  return (b & 0x7fffffffu) > 0x7f800000u;
}
static int f64_nan(uint64_t b) {
  return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static int differ(const RkOutputs *w, const RkOutputs *g, char *what, size_t n) {
  int bad = 0;
  for (int i = 0; i < RK_N * RK_NO; i++)
    if (w->ou[i] != g->ou[i] && !bad++)
      snprintf(what, n, "ou[%d]: want %#lx got %#lx", i, w->ou[i], g->ou[i]);
  for (int i = 0; i < RK_N * RK_NF; i++) {
    uint32_t a, b;
    memcpy(&a, &w->of[i], 4);
    memcpy(&b, &g->of[i], 4);
    if (a != b && !(f32_nan(a) && f32_nan(b)) && !bad++)
      snprintf(what, n, "of[%d]: want %#x got %#x", i, a, b);
  }
  for (int i = 0; i < RK_N * RK_ND; i++) {
    uint64_t a, b;
    memcpy(&a, &w->od[i], 8);
    memcpy(&b, &g->od[i], 8);
    if (a != b && !(f64_nan(a) && f64_nan(b)) && !bad++)
      snprintf(what, n, "od[%d]: want %#llx got %#llx", i, (unsigned long long)a,
               (unsigned long long)b);
  }
  for (int i = 0; i < RK_NACC; i++) {
    if (w->acc[i] != g->acc[i] && !bad++) snprintf(what, n, "acc[%d]", i);
    if (w->acci[i] != g->acci[i] && !bad++) snprintf(what, n, "acci[%d]", i);
    if (w->accl[i] != g->accl[i] && !bad++) snprintf(what, n, "accl[%d]", i);
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: rk_cmp REF OUT COUNT\n");
    return 2;
  }
  FILE *fw = fopen(argv[1], "rb"), *fg = fopen(argv[2], "rb");
  if (!fw) {
    perror(argv[1]);
    return 2;
  }
  int count = atoi(argv[3]), failed = 0;
  static RkOutputs w, g;
  for (int k = 0; k < count; k++) {
    char what[160] = "";
    if (fread(&w, sizeof w, 1, fw) != 1) {
      fprintf(stderr, "%s: short\n", argv[1]);
      return 2;
    }
    if (!fg || fread(&g, sizeof g, 1, fg) != 1) {
      printf("kernel %d: no output\n", k);
      failed++;
      continue;
    }
    int n = differ(&w, &g, what, sizeof what);
    if (n) {
      printf("kernel %d: %d elements differ, first %s\n", k, n, what);
      failed++;
    }
  }
  if (fg) fclose(fg);
  fclose(fw);
  return failed != 0;
}
