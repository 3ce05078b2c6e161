/* params.c — runs tests/vulkan/params.k: every parameter kind and alignment of the Vulkan
 * form's push constants, read back exactly (random values each run). */
#include "rt_common.h"

#include <stdbool.h>
#include <stdlib.h>

struct Inner {
  int a;
  double d;
};
struct Outer {
  uint64_t dst; /* a kcrt buffer's device address: kcrt_buffer_address */
  int arr[3];
  struct Inner in;
};

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "params");
  signed char c = (signed char)rt_int(&rt, -128, 127);
  short s = (short)rt_int(&rt, -32768, 32767);
  bool b = rt_int(&rt, 0, 1);
  float v[4] = {rt_float(&rt, -9, 9), rt_float(&rt, -9, 9), rt_float(&rt, -9, 9),
                rt_float(&rt, -9, 9)};
  unsigned char uc = (unsigned char)rt_int(&rt, 0, 255);
  long l = (long)rt_int(&rt, -1000000, 1000000) * 1000003;
  float f = rt_float(&rt, -100, 100);
  unsigned short us = (unsigned short)rt_int(&rt, 0, 65535);
  kcrt_buffer *dout = rt_alloc(&rt, 17 * sizeof(double)), *ddst = rt_alloc(&rt, sizeof(float));
  struct Outer o;
  memset(&o, 0, sizeof o);
  RT_CHECK(&rt, kcrt_buffer_address(ddst, &o.dst));
  for (int i = 0; i < 3; i++) o.arr[i] = rt_int(&rt, -99999, 99999);
  o.in.a = rt_int(&rt, -99999, 99999);
  o.in.d = rt_float(&rt, -1, 1) * 1e10;
  kcrt_arg args[] = {KCRT_ARG_VALUE(c), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(s),
                     KCRT_ARG_VALUE(b), {v, sizeof v, NULL},   KCRT_ARG_VALUE(uc),
                     KCRT_ARG_VALUE(l), KCRT_ARG_VALUE(o),     KCRT_ARG_VALUE(f),
                     KCRT_ARG_VALUE(us)};
  rt_launch(&rt, rt_kernel(&rt, "params"), KCRT_DIM1(1), KCRT_DIM1(32), 0, args, 10);
  double got[17],
      want[17] = {c,        s,        b,        v[0],   v[1],   v[2], v[3], uc,          (double)l,
                  o.arr[0], o.arr[1], o.arr[2], o.in.a, o.in.d, f,    us,   o.arr[1] + 5};
  float dst = 0;
  rt_download(&rt, dout, got, sizeof got);
  rt_download(&rt, ddst, &dst, sizeof dst);
  for (int i = 0; i < 17; i++)
    if (got[i] != want[i]) {
      printf("FAIL params: value %d is %.17g, expected %.17g (seed %llu)\n", i, got[i], want[i],
             (unsigned long long)rt.seed);
      rt.failures++;
    }
  if (dst != f * 2.0f) {
    printf("FAIL params: o.dst[0] is %g, expected %g\n", dst, f * 2.0f);
    rt.failures++;
  }
  return rt_finish(&rt, "10 parameters, 17 values");
}
