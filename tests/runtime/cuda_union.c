/* cuda_union.c — runs tests/runtime/cuda_union.cu (unions in CUDA device code) through
 * libkcrt on random inputs and checks every element against a host C reference (C's unions
 * give the same punning and layout). */
#include "rt_common.h"

#include <stdlib.h>
#include <string.h>

typedef union {
  uint32_t u;
  float f;
  uint8_t b[4];
} Bits;

typedef struct {
  int32_t kind;
  union {
    float f;
    int32_t i;
  };
} Packet;

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_union");
  int n = rt_int(&rt, 64, 4096) & ~63;
  float *in = malloc(n * sizeof *in);
  uint32_t *obits = malloc(n * 4), *wbits = malloc(n * 4), *oabs = malloc(n * 4),
           *wabs = malloc(n * 4), *otop = malloc(n * 4), *wtop = malloc(n * 4);
  int32_t *osc = malloc(n * 4), *wsc = malloc(n * 4), *oh = malloc(n * 4), *wh = malloc(n * 4);
  Bits *io = malloc(n * sizeof *io), *wio = malloc(n * sizeof *wio);
  Packet *pk = malloc(n * sizeof *pk), *wpk = malloc(n * sizeof *wpk);
  Bits key = {rt_u32(&rt)};
  for (int i = 0; i < n; i++) {
    in[i] = rt_float(&rt, -1000.0f, 1000.0f);
    io[i].u = rt_u32(&rt);
    pk[i].kind = rt_int(&rt, 0, 1);
    if (pk[i].kind)
      pk[i].f = rt_float(&rt, -1e5f, 1e5f);
    else
      pk[i].i = (int32_t)rt_u32(&rt);
  }
  for (int i = 0; i < n; i++) {
    Bits x = {.f = in[i]};
    wbits[i] = x.u;
    wabs[i] = x.u & 0x7fffffffu;
    wtop[i] = x.b[3];
    int l = i % 64, o = i - l + (l + 1) % 64;
    Bits y = {.f = in[o]};
    Bits w = {io[i].u - (y.u ^ key.u)};
    w.b[3] ^= 0x5a;
    wio[i] = w;
    Packet q = pk[i];
    if (q.kind)
      q.f += 2.0f;
    else
      q.i = (int32_t)((uint32_t)q.i * 3u);
    wpk[i] = q;
    Bits s = {.f = in[i] * 2.0f};
    wsc[i] = (int32_t)s.u;
    wh[i] = (int16_t)(x.u & 0xffff) + (int16_t)(x.u >> 16) + 1;
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dbits = rt_alloc(&rt, n * 4),
              *dabs = rt_alloc(&rt, n * 4), *dtop = rt_alloc(&rt, n * 4),
              *dio = rt_upload(&rt, io, n * sizeof *io), *dpk = rt_upload(&rt, pk, n * sizeof *pk),
              *dsc = rt_alloc(&rt, n * 4), *dh = rt_alloc(&rt, n * 4);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din),  KCRT_ARG_BUFFER(dbits), KCRT_ARG_BUFFER(dabs),
                     KCRT_ARG_BUFFER(dtop), KCRT_ARG_BUFFER(dio),   KCRT_ARG_BUFFER(dpk),
                     KCRT_ARG_BUFFER(dsc),  KCRT_ARG_BUFFER(dh),    KCRT_ARG_VALUE(key)};
  rt_launch(&rt, rt_kernel(&rt, "cu_unions"), KCRT_DIM1((unsigned)n / 64), KCRT_DIM1(64), 0, args,
            9);
  rt_download(&rt, dbits, obits, n * 4);
  rt_download(&rt, dabs, oabs, n * 4);
  rt_download(&rt, dtop, otop, n * 4);
  rt_download(&rt, dio, io, n * sizeof *io);
  rt_download(&rt, dpk, pk, n * sizeof *pk);
  rt_download(&rt, dsc, osc, n * 4);
  rt_download(&rt, dh, oh, n * 4);
  rt_cmp_u32(&rt, "float bits through an unsigned member", obits, wbits, (size_t)n);
  rt_cmp_u32(&rt, "a union through a __device__ function", oabs, wabs, (size_t)n);
  rt_cmp_u32(&rt, "a union's member function", otop, wtop, (size_t)n);
  rt_cmp_u32(&rt, "__shared__ unions and unions through pointers", &io[0].u, &wio[0].u, (size_t)n);
  for (int i = 0; i < n; i++)
    if (memcmp(&pk[i], &wpk[i], sizeof pk[i]) != 0)
      rt_fail(&rt, "anonymous union in a struct [%d]: kind %d i %d, want kind %d i %d", i,
              pk[i].kind, pk[i].i, wpk[i].kind, wpk[i].i);
  rt_cmp_i32(&rt, "block-scope anonymous union", osc, wsc, (size_t)n);
  rt_cmp_i32(&rt, "a constructor and a method on anonymous members", oh, wh, (size_t)n);
  free(in), free(obits), free(wbits), free(oabs), free(wabs), free(otop), free(wtop);
  free(osc), free(wsc), free(oh), free(wh), free(io), free(wio), free(pk), free(wpk);
  return rt_finish(&rt, "%d threads", n);
}
