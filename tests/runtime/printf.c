/* printf.c — runs tests/kernels/printf.k with grid 2 x block 4 and a random scale that is a
 * multiple of 1/8 (so %f/%e/%g have one right answer). The device's standard output is
 * captured by redirecting file descriptor 1 around the launch, and the sorted lines are
 * compared with the lines the host's printf makes from the same values. */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_lines(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Splits text into lines (in place) and sorts them; returns the count. */
static int sorted_lines(char *text, char **lines, int max) {
  int n = 0;
  for (char *s = strtok(text, "\n"); s && n < max; s = strtok(NULL, "\n")) lines[n++] = s;
  qsort(lines, n, sizeof *lines, cmp_lines);
  return n;
}

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

  char path[] = "/tmp/kcrt-printf-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    perror("mkstemp");
    return 1;
  }
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  kcrt_arg args[] = {KCRT_ARG_VALUE(scale)};
  rt_launch(&rt, rt_kernel(&rt, "print_ids"), KCRT_DIM1(2), KCRT_DIM1(4), 0, args, 1);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);

  char got[16384] = "";
  ssize_t len = pread(fd, got, sizeof got - 1, 0);
  close(fd);
  unlink(path);
  got[len > 0 ? len : 0] = 0;
  char *gl[64], *wl[64];
  int ng = sorted_lines(got, gl, 64), nw = sorted_lines(want, wl, 64);
  if (ng != nw) rt_fail(&rt, "%d lines printed, expected %d", ng, nw);
  for (int i = 0; i < ng && i < nw; i++)
    if (strcmp(gl[i], wl[i]))
      rt_fail(&rt, "line differs:\n  got:      '%s'\n  expected: '%s'", gl[i], wl[i]);
  return rt_finish(&rt, "%d lines, scale %g", nw, scale);
}
