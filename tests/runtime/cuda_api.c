/* cuda_api.c — runs tests/runtime/cuda_api.cu through libkcrt on fresh random inputs (with
 * the lanes' extremes mixed in: 0x80, 0x7f, 0xff...), every element against the host
 * references of cuda_api_ref.h: each SIMD intrinsic, __dp4a/__dp2a signed and unsigned, the
 * cache-hint loads and stores, sincosf against sinf and cosf. */
#include "rt_common.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_api_ref.h"

/* A word whose lanes are random or extremes, to reach every saturation and sign case. */
static uint32_t word(Rt *rt) {
  static const uint32_t special[] = {0x00000000u, 0xffffffffu, 0x80008000u, 0x7fff7fffu,
                                     0x80808080u, 0x7f7f7f7fu, 0x01ff80feu, 0x00017fffu};
  uint32_t r = rt_u32(rt);
  if (r % 4 == 0) return special[(r >> 8) % 8];
  if (r % 4 == 1) return r ^ special[(r >> 8) % 8];
  return rt_u32(rt);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_api");
  int n = rt_int(&rt, 100, 3000);
  size_t m = (size_t)n * SIMD_NOPS;
  uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  uint32_t *out = malloc(m * sizeof *out), *want = malloc(m * sizeof *want);
  for (int i = 0; i < n; i++) a[i] = word(&rt), b[i] = word(&rt), c[i] = word(&rt);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < SIMD_NOPS; k++)
      want[(size_t)i * SIMD_NOPS + k] =
          ref_simd(simd_ops[k].op, simd_ops[k].is_signed, simd_ops[k].w, a[i], b[i]);
  kcrt_buffer *da = rt_upload(&rt, a, n * sizeof *a), *db = rt_upload(&rt, b, n * sizeof *b);
  kcrt_buffer *dc = rt_upload(&rt, c, n * sizeof *c), *dout = rt_alloc(&rt, m * sizeof *out);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dout),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "simd"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a1, 4);
  rt_download(&rt, dout, out, m * sizeof *out);
  for (int k = 0; k < SIMD_NOPS; k++) {
    /* One comparison per function, so a failure names it. */
    int32_t *g = malloc(n * sizeof *g), *w = malloc(n * sizeof *w);
    for (int i = 0; i < n; i++) {
      g[i] = (int32_t)out[(size_t)i * SIMD_NOPS + k];
      w[i] = (int32_t)want[(size_t)i * SIMD_NOPS + k];
    }
    char what[32];
    snprintf(what, sizeof what, "__%s", simd_ops[k].name);
    rt_cmp_i32(&rt, what, g, w, n);
    free(g), free(w);
  }

  int32_t *dg = malloc(6 * n * sizeof *dg), *dw = malloc(6 * n * sizeof *dw);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 6; k++)
      dw[6 * i + k] = (int32_t)ref_dp(k / 2, k % 2 == 0, a[i], b[i], c[i]);
  kcrt_buffer *ddot = rt_alloc(&rt, 6 * n * sizeof *dg);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                   KCRT_ARG_BUFFER(ddot), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "dots"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a2, 5);
  rt_download(&rt, ddot, dg, 6 * n * sizeof *dg);
  rt_cmp_i32(&rt, "__dp4a and __dp2a_lo/_hi", dg, dw, 6 * (size_t)n);

  float *in = malloc(n * sizeof *in), *fo = malloc(4 * n * sizeof *fo),
        *fw = malloc(4 * n * sizeof *fw);
  for (int i = 0; i < n; i++) {
    in[i] = rt_float(&rt, -100.0f, 100.0f);
    fw[i] = in[i];
    fw[n + i] = in[i] + in[i];
    fw[2 * n + i] = in[i] * in[i];
    fw[3 * n + i] = in[i] - 3.14159265358979f;
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dfo = rt_alloc(&rt, 4 * n * sizeof *fo);
  kcrt_arg a3[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dfo), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "hints"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0, a3, 3);
  rt_download(&rt, dfo, fo, 4 * n * sizeof *fo);
  rt_cmp_f32(&rt, "cache-hint loads and stores", fo, fw, 4 * (size_t)n, 0, 0);

  rt_launch(&rt, rt_kernel(&rt, "sincos_pairs"), KCRT_DIM1(rt_ceil_div(n, 64)), KCRT_DIM1(64), 0,
            a3, 3);
  rt_download(&rt, dfo, fo, 4 * n * sizeof *fo);
  float *sg = malloc(2 * n * sizeof *sg), *sw = malloc(2 * n * sizeof *sw);
  for (int i = 0; i < 2 * n; i++) sg[i] = fo[2 * i], sw[i] = fo[2 * i + 1];
  rt_cmp_f32(&rt, "sincosf against sinf and cosf", sg, sw, 2 * (size_t)n, 0, 0);
  /* scoped_atomics: per block the thread count and the largest input; the sum of in - 1000
     over all, negative as often as not (the file's own atomicAdd on long long). */
  int nb = rt_ceil_div(n, 64);
  int32_t *iv = malloc(n * sizeof *iv), *cnt = calloc(2 * nb, sizeof *cnt),
          *wcnt = calloc(2 * nb, sizeof *wcnt);
  int64_t total = 0, wtotal = 0;
  for (int i = 0; i < nb; i++) wcnt[nb + i] = INT32_MIN;
  for (int i = 0; i < 2 * nb; i++) cnt[i] = i < nb ? 0 : INT32_MIN;
  for (int i = 0; i < n; i++) {
    iv[i] = rt_int(&rt, 0, 2000);
    wcnt[i / 64]++;
    if (iv[i] > wcnt[nb + i / 64]) wcnt[nb + i / 64] = iv[i];
    wtotal += iv[i] - 1000;
  }
  kcrt_buffer *div = rt_upload(&rt, iv, n * sizeof *iv),
              *dcnt = rt_upload(&rt, cnt, 2 * nb * sizeof *cnt),
              *dtot = rt_upload(&rt, &total, sizeof total);
  kcrt_arg a4[] = {KCRT_ARG_BUFFER(div), KCRT_ARG_BUFFER(dcnt), KCRT_ARG_BUFFER(dtot),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "scoped_atomics"), KCRT_DIM1(nb), KCRT_DIM1(64), 0, a4, 4);
  rt_download(&rt, dcnt, cnt, 2 * nb * sizeof *cnt);
  rt_download(&rt, dtot, &total, sizeof total);
  rt_cmp_i32(&rt, "atomicAdd_block and atomicMax_block", cnt, wcnt, 2 * (size_t)nb);
  if (total != wtotal)
    rt_fail(&rt, "atomicAdd on long long: %lld, want %lld", (long long)total, (long long)wtotal);
  free(iv), free(cnt), free(wcnt);
  free(a), free(b), free(c), free(out), free(want), free(dg), free(dw), free(in), free(fo),
      free(fw), free(sg), free(sw);
  return rt_finish(&rt, "%d words, %d SIMD functions", n, (int)SIMD_NOPS);
}
