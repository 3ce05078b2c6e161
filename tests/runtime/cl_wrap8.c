/* cl_wrap8.c — runs tests/runtime/cl_wrap8.cl (8- and 16-bit unsigned arithmetic that wraps,
 * compared afterwards, and add_sat/sub_sat) through libkcrt on fresh random inputs, every
 * element against the same C here. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_wrap8");
  int n = rt_int(&rt, 64, 512) & ~31; /* whole blocks of 32 */
  size_t m = 16 * (size_t)n;
  uint8_t *a = malloc(m), *b = malloc(m), *o = malloc(8 * m), *w = calloc(8 * m, 1);
  for (size_t j = 0; j < m; j++) {
    /* half the pairs chosen to overflow, half not */
    a[j] = (uint8_t)rt_int(&rt, 0, 255);
    b[j] = (uint8_t)(j % 2 ? rt_int(&rt, 0, 255 - a[j]) : rt_int(&rt, 0, 255));
  }
  for (int i = 0; i < n; i++) {
    const uint8_t *x = a + 16 * i, *y = b + 16 * i;
    uint8_t *r = w + 128 * i;
    for (int k = 0; k < 16; k++) {
      uint8_t s = (uint8_t)(x[k] + y[k]), d = (uint8_t)(x[k] - y[k]);
      int sat = x[k] + y[k] > 255 ? 255 : x[k] + y[k];
      r[k] = s;
      r[16 + k] = s < x[k] ? 0xff : 0;
      r[32 + k] = d > x[k] ? 0xff : 0;
      r[48 + k] = (uint8_t)sat;
      r[64 + k] = x[k] > y[k] ? (uint8_t)(x[k] - y[k]) : 0;
      r[96 + k] = s < x[k] ? 1 : sat == 255 ? 2 : 3;
    }
    for (int k = 0; k < 4; k++) {
      uint8_t x4 = x[k], y4 = y[4 + k], s4 = (uint8_t)(x4 + y4);
      r[80 + k] = s4;
      r[84 + k] = s4 < x4 ? 0xff : 0;
      r[88 + k] = x4 + y4 > 255 ? 255 : s4;
      r[92 + k] = x4 > y4 ? (uint8_t)(x4 - y4) : 0;
    }
  }
  kcrt_buffer *da = rt_upload(&rt, a, m), *db = rt_upload(&rt, b, m), *dout = rt_alloc(&rt, 8 * m);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dout)};
  rt_launch(&rt, rt_kernel(&rt, "wrap8"), KCRT_DIM1((uint64_t)n / 32), KCRT_DIM1(32), 0, args, 3);
  rt_download(&rt, dout, o, 8 * m);
  for (size_t j = 0; j < 8 * m; j++)
    if (o[j] != w[j]) {
      rt_fail(&rt, "wrap8 work-item %zu result %zu component %zu: %u, want %u (x %u, y %u)",
              j / 128, j / 16 % 8, j % 16, o[j], w[j], a[j / 128 * 16 + j % 16],
              b[j / 128 * 16 + j % 16]);
      break;
    }
  /* ushort4 */
  size_t m2 = 4 * (size_t)n;
  uint16_t *a2 = malloc(2 * m2), *b2 = malloc(2 * m2), *o2 = malloc(8 * m2), *w2 = malloc(8 * m2);
  for (size_t j = 0; j < m2; j++) {
    a2[j] = (uint16_t)rt_int(&rt, 0, 65535);
    b2[j] = (uint16_t)(j % 2 ? rt_int(&rt, 0, 65535 - a2[j]) : rt_int(&rt, 0, 65535));
  }
  for (size_t j = 0; j < m2; j++) {
    size_t i = j / 4, k = j % 4;
    uint16_t x = a2[j], y = b2[j], s = (uint16_t)(x + y);
    w2[16 * i + k] = s;
    w2[16 * i + 4 + k] = s < x ? 0xffff : 0;
    w2[16 * i + 8 + k] = x + y > 65535 ? 65535 : s;
    w2[16 * i + 12 + k] = x > y ? (uint16_t)(x - y) : 0;
  }
  kcrt_buffer *da2 = rt_upload(&rt, a2, 2 * m2), *db2 = rt_upload(&rt, b2, 2 * m2),
              *do2 = rt_alloc(&rt, 8 * m2);
  kcrt_arg args2[] = {KCRT_ARG_BUFFER(da2), KCRT_ARG_BUFFER(db2), KCRT_ARG_BUFFER(do2)};
  rt_launch(&rt, rt_kernel(&rt, "wrap16"), KCRT_DIM1((uint64_t)n / 32), KCRT_DIM1(32), 0, args2, 3);
  rt_download(&rt, do2, o2, 8 * m2);
  for (size_t j = 0; j < 4 * m2; j++)
    if (o2[j] != w2[j]) {
      rt_fail(&rt, "wrap16 work-item %zu result %zu component %zu: %u, want %u (x %u, y %u)",
              j / 16, j / 4 % 4, j % 4, o2[j], w2[j], a2[j / 16 * 4 + j % 4],
              b2[j / 16 * 4 + j % 4]);
      break;
    }
  free(a), free(b), free(o), free(w), free(a2), free(b2), free(o2), free(w2);
  return rt_finish(&rt, "%d work-items of uchar16 and ushort4", n);
}
