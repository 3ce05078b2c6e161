/* vkprintf.c — runs tests/vulkan/vkprintf.k on random values and compares the sorted lines it
 * prints with the lines the host's printf makes from the same values. */
#include "rt_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(char **at, char *end, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char **at, char *end, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(*at, (size_t)(end - *at), fmt, ap);
  va_end(ap);
  if (n > 0) *at += n < end - *at ? n : end - *at - 1;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "vkprintf");
  int n = rt_int(&rt, 20, 60);
  int *in = malloc(n * sizeof *in);
  size_t cap = 1 << 20;
  char *want = malloc(cap), *got = malloc(cap), *at = want, *end = want + cap;
  *want = 0;
  for (int g = 0; g < n; g++) {
    int v = in[g] = rt_int(&rt, -2000000000, 2000000000);
    long big = (long)v * 3000000011L;
    unsigned long ub = (unsigned long)big;
    add(&at, end, "%d %i %u %x %X %o %c|%5d|%-5d|%05d\n", v, -v, (unsigned)v, v, -v,
        (unsigned)v & 511u, 'a' + (g % 26), g, g, g);
    add(&at, end, "%ld %lu %lx %lld\n", big, ub, ub, -(long long)big);
    double d = (double)((float)v * 0.25f);
    add(&at, end, "[%s] g=%-3d|%+8.3f|%12.4e|%g\n", g % 2 ? "odd" : "even", g, d, d, d);
    if (g == 0) add(&at, end, "no arguments 100%%\n");
    int k = g + 100;
    add(&at, end, "%d %d %d %d %d %d %d %d %d %d %s\n", k, k + 1, k + 2, k + 3, k + 4, k + 5, k + 6,
        k + 7, k + 8, k + 9, "end");
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_VALUE(n)};
  rt_launch_printed(&rt, rt_kernel(&rt, "vkprintf"), KCRT_DIM1(rt_ceil_div(n, 16)), KCRT_DIM1(16),
                    0, args, 2, got, cap);
  int nw = rt_cmp_lines(&rt, got, want);
  free(in), free(want), free(got);
  return rt_finish(&rt, "%d lines", nw);
}
