/* cuda_names.c — runs tests/runtime/cuda_names.cu through libkcrt: each kernel written with a
 * name is found by that name and runs its own body (adds its own tag to fresh random data),
 * even where kcc made up the same name for another kernel (an overload, a specialisation). */
#include "rt_common.h"

#include <stdlib.h>

static void run_int(Rt *rt, const char *name, int32_t tag) {
  int n = rt_int(rt, 1, 3000);
  int32_t *h = malloc(n * sizeof *h), *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) {
    h[i] = (int32_t)(rt_u32(rt) >> 2);
    want[i] = h[i] + tag;
  }
  kcrt_buffer *d = rt_upload(rt, h, n * sizeof *h);
  kcrt_arg a[] = {KCRT_ARG_BUFFER(d), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, name), KCRT_DIM1((unsigned)rt_ceil_div((uint64_t)n, 128)),
            KCRT_DIM1(128), 0, a, 2);
  rt_download(rt, d, h, n * sizeof *h);
  rt_cmp_i32(rt, name, h, want, (size_t)n);
  free(h);
  free(want);
}

static void run_float(Rt *rt, const char *name, float tag) {
  int n = rt_int(rt, 1, 3000);
  float *h = malloc(n * sizeof *h), *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) {
    h[i] = rt_float(rt, -100.0f, 100.0f);
    want[i] = h[i] + tag;
  }
  kcrt_buffer *d = rt_upload(rt, h, n * sizeof *h);
  kcrt_arg a[] = {KCRT_ARG_BUFFER(d), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, name), KCRT_DIM1((unsigned)rt_ceil_div((uint64_t)n, 128)),
            KCRT_DIM1(128), 0, a, 2);
  rt_download(rt, d, h, n * sizeof *h);
  rt_cmp_f32(rt, name, h, want, (size_t)n, 0.0, 0.0);
  free(h);
  free(want);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_names");
  run_int(&rt, "k", 1);
  run_float(&rt, "k_float_p", 3.0f);
  run_int(&rt, "t_int", 5);
  /* The made-up names yield to the written ones (docs/dialect.md). */
  run_float(&rt, "k_float_p_int", 2.0f);
  run_int(&rt, "t_int_int_p_int", 4);
  return rt_finish(&rt, "written kernel names run their own bodies");
}
