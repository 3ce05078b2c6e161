/* cuda_idioms.c — runs tests/runtime/cuda_idioms.cu (Kernighan's bit-count loops that kcc
 * rewrites as a population count, and look-alikes it must not) through libkcrt on random
 * inputs with the edge values (0, all ones, the sign bit alone, one bit) and checks every
 * result against the loops run on the host; pc_hinted wraps the loop in the optimisation
 * hints (__builtin_assume, __builtin_expect, __builtin_assume_aligned, __builtin_unreachable);
 * st_* are strided loops kcc unrolls (or, asked not to, keeps). */
#include "rt_common.h"

#include <stdlib.h>

#define N 4099 /* not a multiple of the block */

static int bits64(uint64_t v) {
  int c = 0;
  for (; v; v &= v - 1) c++;
  return c;
}

static uint64_t pick(Rt *rt, int i) {
  static const uint64_t edges[] = {0, ~0ull, 1ull << 63, 1, 0x80000000u, 0xffffffffu, 0x7fffffffu};
  if (i < (int)(sizeof edges / sizeof edges[0])) return edges[i];
  uint64_t v = rt_u64(rt);
  return i % 3 ? v : v & rt_u64(rt) & rt_u64(rt); /* sparse ones too */
}

/* Runs kernel `name` on `in` (n elements of `size` bytes) and compares with want. */
static void run(Rt *rt, const char *name, const void *in, size_t size, const int32_t *want) {
  kcrt_buffer *bi = rt_upload(rt, in, N * size), *bo = rt_alloc(rt, N * sizeof(int32_t));
  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bi), KCRT_ARG_BUFFER(bo), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, name), KCRT_DIM1(rt_ceil_div(N, 128)), KCRT_DIM1(128), 0, args, 3);
  int32_t *got = malloc(N * sizeof *got);
  rt_download(rt, bo, got, N * sizeof *got);
  rt_cmp_i32(rt, name, got, want, N);
  free(got);
  kcrt_buffer_free(bi);
  kcrt_buffer_free(bo);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_idioms");
  uint32_t *u32 = malloc(N * sizeof *u32);
  uint64_t *u64 = malloc(N * sizeof *u64);
  int32_t *want = malloc(N * sizeof *want);
  for (int i = 0; i < N; i++) u64[i] = pick(&rt, i), u32[i] = (uint32_t)pick(&rt, i);

  for (int i = 0; i < N; i++) want[i] = bits64(u32[i]);
  run(&rt, "pc_while", u32, 4, want);
  for (int i = 0; i < N; i++) want[i] = bits64(u64[i]); /* at most 64: a char holds it */
  run(&rt, "pc_for_char", u64, 8, want);
  for (int i = 0; i < N; i++) want[i] = 5 + bits64(u32[i]);
  run(&rt, "pc_signed", u32, 4, want);
  for (int i = 0; i < N; i++) want[i] = bits64(u64[i]);
  run(&rt, "pc_long", u64, 8, want);
  for (int i = 0; i < N; i++) want[i] = u32[i] ? bits64(u32[i]) : 1;
  run(&rt, "not_do", u32, 4, want);
  for (int i = 0; i < N; i++) {
    int c = bits64(u32[i]);
    want[i] = c * (c + 1) / 2;
  }
  run(&rt, "not_extra", u32, 4, want);
  for (int i = 0; i < N; i++) want[i] = bits64(u32[i]);
  run(&rt, "pc_hinted", u32, 4, want);
  /* the strided loops, unrolled (st_up, st_down) and not (st_kept) */
  for (int i = 0; i < N; i++) {
    uint32_t s = 0;
    for (int j = i; j < N; j += 3) s = s * 31u + u32[j];
    want[i] = (int32_t)s;
  }
  run(&rt, "st_up", u32, 4, want);
  run(&rt, "st_kept", u32, 4, want);
  for (int i = 0; i < N; i++) {
    uint32_t s = 0;
    for (int j = N - 1 - i; j >= 0; j -= 5) s = s * 31u + u32[j];
    want[i] = (int32_t)s;
  }
  run(&rt, "st_down", u32, 4, want);

  free(u32);
  free(u64);
  free(want);
  return rt_finish(&rt, "%d elements x 10 kernels", N);
}
