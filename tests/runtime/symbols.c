/* symbols.c — runs tests/kernels/symbols.k: host-filled constants written through
 * kcrt_module_symbol (zero before the first write, then fresh random values, rewritten
 * between launches), a symbol reached through a device function, and the errors: an unknown
 * name, a constant with an initializer (no symbol), freeing a symbol's buffer. */
#include "rt_common.h"

#include <stdlib.h>
#include <string.h>

static kcrt_buffer *symbol(Rt *rt, const char *name, size_t want) {
  kcrt_buffer *b = NULL;
  RT_CHECK(rt, kcrt_module_symbol(rt->mod, name, &b));
  if (kcrt_buffer_size(b) != want)
    rt_fail(rt, "symbol %s is %zu bytes, want %zu", name, kcrt_buffer_size(b), want);
  return b;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "symbols");
  kcrt_buffer *coef = symbol(&rt, "coef", 16 * sizeof(float));
  kcrt_buffer *scale = symbol(&rt, "scale", sizeof(int));
  kcrt_buffer *offsets = symbol(&rt, "offsets", 5 * sizeof(int64_t));
  kcrt_buffer *none = NULL;
  RT_EXPECT(&rt, KCRT_ERROR_SYMBOL_NOT_FOUND, kcrt_module_symbol(rt.mod, "table", &none));
  RT_EXPECT(&rt, KCRT_ERROR_SYMBOL_NOT_FOUND, kcrt_module_symbol(rt.mod, "coeff", &none));
  if (!strstr(kcrt_last_error(), "'coef', 'scale', 'offsets'"))
    rt_fail(&rt, "the message does not list the symbols: %s", kcrt_last_error());
  RT_EXPECT(&rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_free(coef));

  /* Zero until written: read back, and run shift with the untouched offsets. */
  int64_t zeros[5];
  memset(zeros, 0x5a, sizeof zeros);
  rt_download(&rt, offsets, zeros, sizeof zeros);
  int64_t want0[5] = {0};
  rt_cmp_i64(&rt, "offsets before any write", zeros, want0, 5);

  int n = rt_int(&rt, 1000, 30000), bs = 32 << rt_int(&rt, 0, 3);
  static const float table[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  float *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
        *want = malloc(n * sizeof *want);
  for (int i = 0; i < n; i++) in[i] = rt_float(&rt, -10, 10);
  kcrt_buffer *din = rt_upload(&rt, in, n * sizeof *in), *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(din), KCRT_ARG_BUFFER(dout), KCRT_ARG_VALUE(n)};
  for (int round = 0; round < 2; round++) { /* a rewrite between launches takes effect */
    float c[16];
    int s = rt_int(&rt, -5, 5);
    for (int j = 0; j < 16; j++) c[j] = rt_float(&rt, -2, 2);
    RT_CHECK(&rt, kcrt_buffer_write(coef, 0, c, sizeof c));
    RT_CHECK(&rt, kcrt_buffer_write(scale, 0, &s, sizeof s));
    for (int i = 0; i < n; i++) {
      volatile float w = c[i % 16] * (float)s, p = in[i] * w; /* no contraction: exact */
      want[i] = p + table[i & 3] + c[0];
    }
    rt_launch(&rt, rt_kernel(&rt, "weigh"), KCRT_DIM1(rt_ceil_div(n, bs)), KCRT_DIM1(bs),
              bs * sizeof(float), a1, 3);
    rt_download(&rt, dout, out, n * sizeof *out);
    rt_cmp_f32(&rt, round ? "weigh (rewritten)" : "weigh", out, want, n, 1e-6, 1e-6);
  }

  int64_t off[5], *d = malloc(n * sizeof *d), *dw = malloc(n * sizeof *dw);
  for (int j = 0; j < 5; j++) off[j] = (int64_t)rt_u64(&rt) >> 8;
  RT_CHECK(&rt, kcrt_buffer_write(offsets, 0, off, sizeof off));
  int64_t back[5];
  rt_download(&rt, offsets, back, sizeof back);
  rt_cmp_i64(&rt, "offsets read back", back, off, 5);
  for (int i = 0; i < n; i++) d[i] = (int64_t)rt_u64(&rt) >> 8, dw[i] = d[i] + off[i % 5];
  kcrt_buffer *dd = rt_upload(&rt, d, n * sizeof *d);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(dd), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "shift"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, a2, 2);
  rt_download(&rt, dd, d, n * sizeof *d);
  rt_cmp_i64(&rt, "shift", d, dw, n);
  free(in), free(out), free(want), free(d), free(dw);
  return rt_finish(&rt, "%d elements in blocks of %d", n, bs);
}
