/* cuda_ptrref.c — runs tests/runtime/cuda_ptrref.cu (pointers passed by reference and by
 * address to device functions, pointing to private, shared and global memory) through libkcrt
 * on fresh random inputs, every element against the host's arithmetic; ptr_back moves pointers
 * backwards (negative indices, --, char arithmetic) in every memory space. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_ptrref");
  int n = rt_int(&rt, 100, 5000), block = 128;
  float *in = malloc(n * sizeof *in), *out = malloc(4 * (size_t)n * sizeof *out),
        *want = malloc(4 * (size_t)n * sizeof *want);
  for (int i = 0; i < n; i++) in[i] = rt_float(&rt, -100.0f, 100.0f);
  for (int i = 0; i < n; i++) {
    int t = i % block, base = i - t;
    /* The block's shared copy: 0 past n. */
#define S(k) (base + (k) < n ? in[base + (k)] : 0.0f)
    want[4 * i + 0] = in[i] + 2.0f;
    want[4 * i + 1] = (in[i] + 3.0f) + (in[i] + 4.0f);
    want[4 * i + 2] = S((t + 1) % (block - 1)) + S((t + 1) % (block - 1) + 1);
#undef S
    want[4 * i + 3] = in[i] + in[0];
  }
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in),
              *dout = rt_alloc(&rt, 4 * (size_t)n * sizeof *out);
  kcrt_arg a[] = {KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(din), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "ptr_refs"), KCRT_DIM1(rt_ceil_div(n, block)), KCRT_DIM1(block), 0,
            a, 3);
  rt_download(&rt, dout, out, 4 * (size_t)n * sizeof *out);
  rt_cmp_f32(&rt, "ptr_refs", out, want, 4 * (size_t)n, 0, 0);
  kcrt_buffer_free(din), kcrt_buffer_free(dout);

  /* ptr_back: pointers moved backwards, on integers */
  int *iin = malloc(n * sizeof *iin), *iout = malloc(5 * (size_t)n * sizeof *iout),
      *iwant = malloc(5 * (size_t)n * sizeof *iwant);
  for (int i = 0; i < n; i++) iin[i] = rt_int(&rt, -1000000, 1000000);
  for (int i = 0; i < n; i++) {
    int t = i % block, base = i - t, j = base + block - 1 - t, k = 1 + (i & 3);
    iwant[5 * i + 0] = iwant[5 * i + 1] = iin[i];
    iwant[5 * i + 2] = j < n ? iin[j] : 0;
    iwant[5 * i + 3] = iin[i - (i & 1)];
    iwant[5 * i + 4] = (iin[i] + 5 - k) + (iin[i] + 1);
  }
  kcrt_buffer *dii = rt_upload(&rt, iin, n * sizeof *iin),
              *dio = rt_alloc(&rt, 5 * (size_t)n * sizeof *iout);
  kcrt_arg b[] = {KCRT_ARG_BUFFER(dio), KCRT_ARG_BUFFER(dii), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "ptr_back"), KCRT_DIM1(rt_ceil_div(n, block)), KCRT_DIM1(block), 0,
            b, 3);
  rt_download(&rt, dio, iout, 5 * (size_t)n * sizeof *iout);
  rt_cmp_i32(&rt, "ptr_back", iout, iwant, 5 * (size_t)n);
  kcrt_buffer_free(dii), kcrt_buffer_free(dio);
  free(in), free(out), free(want), free(iin), free(iout), free(iwant);
  return rt_finish(&rt, "%d threads, 2 kernels", n);
}
