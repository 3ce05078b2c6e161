/* cl_union.c — runs tests/runtime/cl_union.cl (OpenCL C unions) through libkcrt on random
 * inputs and checks every element against a host C reference: C's unions give the kernels'
 * punning (C11 6.5.2.3p3 footnote 95: a member read reinterprets the bytes of the member
 * last written) and the same layout on both sides. */
#include "rt_common.h"

#include <stdlib.h>
#include <string.h>

typedef union {
  float f;
  uint32_t u;
  uint8_t b[4];
} FU;

typedef struct {
  int32_t tag;
  union {
    float f;
    int32_t i;
  };
  struct {
    int16_t lo, hi;
  };
} Tagged;

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_union");
  int n = rt_int(&rt, 64, 4096) & ~63;
  float *in = malloc(n * sizeof *in), *ovec = malloc(n * sizeof *ovec),
        *wvec = malloc(n * sizeof *wvec);
  uint32_t *obits = malloc(n * 4), *wbits = malloc(n * 4), *oneg = malloc(n * 4),
           *wneg = malloc(n * 4);
  uint8_t *obytes = malloc(4 * n), *wbytes = malloc(4 * n);
  FU *io = malloc(n * sizeof *io), *wio = malloc(n * sizeof *wio);
  Tagged *tg = malloc(n * sizeof *tg), *wtg = malloc(n * sizeof *wtg);
  FU key = {.u = rt_u32(&rt)};
  for (int i = 0; i < n; i++) {
    in[i] = rt_float(&rt, -1000.0f, 1000.0f);
    io[i].u = rt_u32(&rt);
    memset(&tg[i], 0, sizeof tg[i]);
    tg[i].tag = rt_int(&rt, 0, 3);
    if (tg[i].tag & 1)
      tg[i].f = rt_float(&rt, -1e6f, 1e6f);
    else
      tg[i].i = (int32_t)rt_u32(&rt);
    tg[i].lo = (int16_t)rt_int(&rt, -32768, 32767);
    tg[i].hi = (int16_t)rt_int(&rt, -32768, 32767);
  }
  for (int i = 0; i < n; i++) {
    FU x = {.f = in[i]};
    wbits[i] = x.u;
    wneg[i] = x.u ^ 0x80000000u;
    memcpy(&wbytes[4 * i], x.b, 4);
    int l = i % 64, o = i - l + 63 - l;
    FU y = {.f = in[o]};
    FU w = {.u = io[i].u + ((y.u + (uint32_t)(63 - l)) ^ key.u)};
    w.b[0] = (uint8_t)(w.b[0] + 1);
    wio[i] = w;
    Tagged t = tg[i];
    if (t.tag & 1)
      t.f = t.f * 2.0f;
    else
      t.i = (int32_t)((uint32_t)t.i + 1u);
    t.lo = (int16_t)(t.lo - 2);
    t.hi = (int16_t)(t.hi * 5);
    wtg[i] = t;
    wvec[i] = (in[i] + 1.0f) + 3.0f;
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dbits = rt_alloc(&rt, n * 4),
              *dneg = rt_alloc(&rt, n * 4), *dbytes = rt_alloc(&rt, 4 * n),
              *dio = rt_upload(&rt, io, n * sizeof *io), *dtg = rt_upload(&rt, tg, n * sizeof *tg),
              *dvec = rt_alloc(&rt, n * sizeof *ovec);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din),    KCRT_ARG_BUFFER(dbits), KCRT_ARG_BUFFER(dneg),
                     KCRT_ARG_BUFFER(dbytes), KCRT_ARG_BUFFER(dio),   KCRT_ARG_BUFFER(dtg),
                     KCRT_ARG_BUFFER(dvec),   KCRT_ARG_VALUE(key)};
  rt_launch(&rt, rt_kernel(&rt, "unions"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args, 8);
  rt_download(&rt, dbits, obits, n * 4);
  rt_download(&rt, dneg, oneg, n * 4);
  rt_download(&rt, dbytes, obytes, 4 * n);
  rt_download(&rt, dio, io, n * sizeof *io);
  rt_download(&rt, dtg, tg, n * sizeof *tg);
  rt_download(&rt, dvec, ovec, n * sizeof *ovec);
  rt_cmp_u32(&rt, "float bits through a uint member", obits, wbits, (size_t)n);
  rt_cmp_u32(&rt, "a union returned by a function", oneg, wneg, (size_t)n);
  for (int i = 0; i < 4 * n; i++)
    if (obytes[i] != wbytes[i])
      rt_fail(&rt, "bytes through uchar[4] [%d]: %u, want %u", i, obytes[i], wbytes[i]);
  rt_cmp_u32(&rt, "__local and __global unions", &io[0].u, &wio[0].u, (size_t)n);
  for (int i = 0; i < n; i++)
    if (memcmp(&tg[i], &wtg[i], sizeof tg[i]) != 0)
      rt_fail(&rt, "anonymous members [%d]: tag %d i %d lo %d hi %d, want tag %d i %d lo %d hi %d",
              i, tg[i].tag, tg[i].i, tg[i].lo, tg[i].hi, wtg[i].tag, wtg[i].i, wtg[i].lo,
              wtg[i].hi);
  rt_cmp_f32(&rt, "float4 through float[4]", ovec, wvec, (size_t)n, 0, 0);
  free(in), free(ovec), free(wvec), free(obits), free(wbits), free(oneg), free(wneg);
  free(obytes), free(wbytes), free(io), free(wio), free(tg), free(wtg);
  return rt_finish(&rt, "%d work-items", n);
}
