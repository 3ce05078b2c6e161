/* module_get_tu.c — a second translation unit of two_headers.c's program that includes
 * ops_a.h again, so that one program links two copies of one generated header. Each copy
 * asks libkcrt for the device's module of its own copy of the bundle (kcrt_module_get): one
 * handle for every call, owned by the device, so kcrt_module_unload must refuse it and leave
 * it working. */
#include <kcrt.h>

#include "module_get_tu.h"

#include <stdio.h>
#include <string.h>

#include "ops_a.h"

static int run_scale(kcrt_device *dev, struct Params p, const char *when) {
  enum { N = 3000 };
  float in[N], out[N];
  int failures = 0;
  for (int i = 0; i < N; i++) in[i] = (float)(i % 97) - 48;
  kcc_buf_float din, dout;
  if (kcc_buf_float_alloc(dev, N, &din) || kcc_buf_float_alloc(dev, N, &dout) ||
      kcc_buf_float_write(din, 0, in, N) ||
      ops_a_k_launch_scale(dev, kcc_dim1(kcc_div_up(N, 256)), kcc_dim1(256), 0, NULL, dout, din, p,
                           N) ||
      kcc_buf_float_read(dout, 0, out, N)) {
    fprintf(stderr, "FAIL module_get_tu %s: %s\n", when, kcrt_last_error());
    return 1;
  }
  for (int i = 0; i < N; i++) {
    /* Small integers times a multiple of 0.5: exact in float, fused or not. */
    float want = (float)(in[i] * p.scale + p.offset + p.bias);
    if (out[i] != want && failures++ < 5)
      fprintf(stderr, "FAIL module_get_tu scale %s: element %d: got %g, want %g\n", when, i, out[i],
              want);
  }
  kcc_buf_float_free(din);
  kcc_buf_float_free(dout);
  return failures;
}

int module_get_tu_run(kcrt_device *dev, unsigned seed) {
  int failures = 0;
  struct Params p;
  p.scale = 0.5f + (float)(seed % 8);
  p.offset = (int)(seed % 100);
  p.bias = 0.25;
  failures += run_scale(dev, p, "first launch");
  kcrt_module *m1 = NULL, *m2 = NULL;
  if (ops_a_k_module(dev, &m1) || ops_a_k_module(dev, &m2)) {
    fprintf(stderr, "FAIL module_get_tu: %s\n", kcrt_last_error());
    return failures + 1;
  }
  if (!m1 || m1 != m2) failures++, fprintf(stderr, "FAIL module_get_tu: two modules\n");
  /* The device owns it: refused with a message, and still there for the next launch. */
  kcrt_status st = kcrt_module_unload(m1);
  if (st != KCRT_ERROR_INVALID_VALUE || !strstr(kcrt_last_error(), "belongs to its device"))
    failures++, fprintf(stderr, "FAIL module_get_tu: kcrt_module_unload gave %s (%s)\n",
                        kcrt_status_name(st), kcrt_last_error());
  failures += run_scale(dev, p, "after kcrt_module_unload");
  printf("second translation unit (one module per device, unload refused): %s\n",
         failures ? "FAILED" : "OK");
  return failures;
}
