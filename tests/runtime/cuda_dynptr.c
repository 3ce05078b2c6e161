/* cuda_dynptr.c — runs tests/runtime/cuda_dynptr.cu (pointers into dynamic shared memory, two
 * element types over it, float atomics on it) on fresh random inputs, with two dynamic sizes in
 * turn and a kernel without dynamic memory between them, and compares every output with the
 * same computation on the host. */
#include "rt_common.h"

#include <stdlib.h>

static void run_dynptr(Rt *rt, int n, int nb, int m) {
  int total = n * nb;
  float *in = malloc(total * sizeof *in), *out = malloc(5 * total * sizeof *out),
        *want = malloc(5 * total * sizeof *want);
  int32_t *iout = malloc(3 * total * sizeof *iout), *iwant = malloc(3 * total * sizeof *iwant);
  /* Small integers and halves: sums of eight are exact in any order, as the products are. */
  for (int i = 0; i < total; i++) in[i] = (float)rt_int(rt, -4000, 4000) * 0.25f;
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < n; t++) {
      int i = b * n + t, q = n - 1 - t, lo = t < q ? t : q, hi = t < q ? q : t;
      float s = 0.0f, acc = 0.0f;
      for (int k = 0; k < 8; k++) s += in[b * n + (t & ~7) + k];
      for (int u = 0; u < n; u++)
        if ((u & 3) == (t & 3)) acc += (float)(u & 7);
      want[5 * i] = s;
      want[5 * i + 1] = in[i];
      want[5 * i + 2] = in[b * n + (t + 1) % n] * 0.5f;
      want[5 * i + 3] = acc;
      want[5 * i + 4] = in[b * n + q] * 2.0f;
      iwant[3 * i] = (t + 5) % n * 3 + b;
      int sum = 0;
      for (int u = t & 1; u < n; u += 2) sum += u + 1;
      iwant[3 * i + 1] = n / 32 + 1000 * sum;
      iwant[3 * i + 2] = (hi - lo) * 1000 + lo;
    }
  kcrt_buffer *din = rt_upload(rt, in, total * sizeof *in),
              *dout = rt_alloc(rt, 5 * total * sizeof *out),
              *diout = rt_alloc(rt, 3 * total * sizeof *iout);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(diout),
                     KCRT_ARG_VALUE(m)};
  size_t dyn = (size_t)(m + n + 6) * 4;
  rt_launch(rt, rt_kernel(rt, "dynptr"), KCRT_DIM1(nb), KCRT_DIM1(n), dyn, args, 4);
  rt_download(rt, dout, out, 5 * total * sizeof *out);
  rt_download(rt, diout, iout, 3 * total * sizeof *iout);
  char what[64];
  snprintf(what, sizeof what, "dynptr (m %d, block %d)", m, n);
  rt_cmp_f32(rt, what, out, want, 5 * (size_t)total, 0.0, 0.0);
  rt_cmp_i32(rt, what, iout, iwant, 3 * (size_t)total);
  free(in), free(out), free(want), free(iout), free(iwant);
}

/* dynrev (dynamic shared memory indexed in place) when dyn is not 0, else nodyn. */
static void run_int(Rt *rt, const char *name, int n, int nb) {
  int total = n * nb;
  int32_t *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out),
          *want = malloc(total * sizeof *want);
  bool rev = name[3] == 'r';
  for (int i = 0; i < total; i++) in[i] = rt_int(rt, -1000000, 1000000);
  for (int b = 0; b < nb; b++)
    for (int t = 0; t < n; t++)
      want[b * n + t] = rev ? in[b * n + n - 1 - t] : in[b * n + (t + 3) % n] + 1;
  kcrt_buffer *din = rt_upload(rt, in, total * sizeof *in),
              *dout = rt_alloc(rt, total * sizeof *out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout)};
  rt_launch(rt, rt_kernel(rt, name), KCRT_DIM1(nb), KCRT_DIM1(n), rev ? n * 4 : 0, args, 2);
  rt_download(rt, dout, out, total * sizeof *out);
  rt_cmp_i32(rt, name, out, want, (size_t)total);
  free(in), free(out), free(want);
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_dynptr");
  static const int sizes[3] = {32, 64, 128};
  int n = sizes[rt_int(&rt, 0, 2)], nb = rt_int(&rt, 3, 40);
  run_dynptr(&rt, n, nb, n + rt_int(&rt, 0, 50));
  run_int(&rt, "nodyn", n, nb);
  run_dynptr(&rt, n, nb + 5, n + rt_int(&rt, 51, 300)); /* a larger block stride */
  run_int(&rt, "dynrev", n, nb);
  return rt_finish(&rt, "blocks of %d, %d blocks", n, nb);
}
