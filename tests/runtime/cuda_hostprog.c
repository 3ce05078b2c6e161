/* cuda_hostprog.c — runs the kernels of tests/runtime/cuda_hostprog.cu (a whole CUDA program
 * whose host half uses headers kcc does not have) through libkcrt on fresh random inputs,
 * every element against a host reference: what the C++ library gives device code (std::min,
 * std::max, std::clamp, std::swap, std::abs, std::sqrt, numeric_limits, if constexpr on a
 * type trait) computes what the standard says. */
#include "rt_common.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

typedef struct {
  float lo, hi;
} RangeF; /* Range<float> */

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_hostprog");
  int n = rt_int(&rt, 100, 5000);
  float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
        *want = malloc(n * sizeof *want);
  int32_t *iin = malloc(n * sizeof *iin), *iout = malloc(n * sizeof *iout),
          *iwant = malloc(n * sizeof *iwant);
  RangeF r = {rt_float(&rt, -20.0f, 0.0f), rt_float(&rt, 0.0f, 20.0f)};
  for (int i = 0; i < n; i++) {
    in[i] = rt_float(&rt, -50.0f, 50.0f);
    float c = in[i] < r.lo ? r.lo : in[i] > r.hi ? r.hi : in[i];
    want[i] = c * 0.5f + sqrtf(fabsf(in[i]));
    iin[i] = (int32_t)(rt_u32(&rt) % 4000001u) - 2000000;
    int32_t a = iin[i] < 0 ? -iin[i] : iin[i];
    int32_t cl = a > 1000 ? 1000 : a;
    iwant[i] = cl + 2 * (iin[i] & 7) + (INT_MAX >> 20);
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(r),
                   KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "clamp_scale"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0,
            a1, 4);
  rt_download(&rt, dout, out, n * sizeof *out);
  rt_cmp_f32(&rt, "clamp_scale", out, want, n, 0, 0);

  kcrt_buffer *diin = rt_upload(&rt, iin, n * sizeof *iin),
              *diout = rt_alloc(&rt, n * sizeof *iout);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(diin), KCRT_ARG_BUFFER(diout), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "int_ops"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, a2,
            3);
  rt_download(&rt, diout, iout, n * sizeof *iout);
  rt_cmp_i32(&rt, "int_ops", iout, iwant, n);
  free(in), free(out), free(want), free(iin), free(iout), free(iwant);
  return rt_finish(&rt, "%d elements, range [%g, %g]", n, r.lo, r.hi);
}
