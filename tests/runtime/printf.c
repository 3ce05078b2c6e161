/* printf.c — runs tests/kernels/printf.k with grid 2 x block 4 and a random scale that is a
 * multiple of 1/8 (so %f/%e/%g have one right answer). The device's standard output is
 * captured by redirecting file descriptor 1 around the launch, and the sorted lines are
 * compared with the lines the host's printf makes from the same values. */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "printf");
  float scale = rt_int(&rt, 1, 40) / 8.0f;
  char want[8192] = "";
  for (int g = 0; g < 8; g++) {
    int b = g / 4;
    unsigned t = g % 4;
    double x = (double)(g * scale);
    char line[512];
    snprintf(line, sizeof line, "block %d thread %u global %i: x=%f e=%e g=%g\n", b, t, g, x, x, x);
    strcat(want, line);
    snprintf(line, sizeof line, "  hex %x long %ld ulong %lu char %c str %s 100%%\n", g * 255,
             (long)g * 4000000000L, 18446744073709551615UL - g, 'A' + g, g % 2 ? "odd" : "even");
    strcat(want, line);
  }

  kcrt_arg args[] = {KCRT_ARG_VALUE(scale)};
  char got[16384];
  rt_launch_printed(&rt, rt_kernel(&rt, "print_ids"), KCRT_DIM1(2), KCRT_DIM1(4), 0, args, 1, got,
                    sizeof got);
  int nw = rt_cmp_lines(&rt, got, want);
  return rt_finish(&rt, "%d lines, scale %g", nw, scale);
}
