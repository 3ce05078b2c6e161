/* module_get_tu.c — a second translation unit of two_headers.c's program that includes
 * ops_a.h again (so one program links two copies of one generated header), compiled for the
 * runtime interface the header prefers: kcrt_module_get (KCRT_HAS_MODULE_GET), where libkcrt
 * keeps one module per device. While kcrt.h lacks it, this file supplies a stand-in with the
 * same contract so that the generated code for that interface is compiled and run. */
#include <kcrt.h>

#include "module_get_tu.h"

#include <stdio.h>

#ifndef KCRT_HAS_MODULE_GET
#include <pthread.h>

#define KCRT_HAS_MODULE_GET 1
#define kcrt_module_get     test_module_get /* never clash with a later libkcrt's own */

enum { MAX_ENTRIES = 8 };
static struct {
  kcrt_device *dev;
  const void *data;
  kcrt_module *mod;
} entries[MAX_ENTRIES];
static int nentries, calls;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The contract: the same module for the same (device, bundle bytes), loaded once. */
static kcrt_status test_module_get(kcrt_device *dev, const void *data, size_t size,
                                   kcrt_module **out) {
  kcrt_status st = KCRT_SUCCESS;
  int i;
  pthread_mutex_lock(&lock);
  calls++;
  for (i = 0; i < nentries; i++)
    if (entries[i].dev == dev && entries[i].data == data) break;
  if (i == nentries) {
    if (nentries == MAX_ENTRIES) {
      st = KCRT_ERROR_OUT_OF_MEMORY;
    } else {
      st = kcrt_module_load(dev, data, size, &entries[i].mod);
      if (st == KCRT_SUCCESS) entries[nentries].dev = dev, entries[nentries++].data = data;
    }
  }
  if (st == KCRT_SUCCESS) *out = entries[i].mod;
  pthread_mutex_unlock(&lock);
  return st;
}

/* What kcrt_device_close would do for the runtime's own table. */
static void forget_device(kcrt_device *dev) {
  for (int i = 0; i < nentries; i++)
    if (entries[i].dev == dev) {
      kcrt_module_unload(entries[i].mod);
      entries[i--] = entries[--nentries];
    }
}
#else
static int calls = -1;
static void forget_device(kcrt_device *dev) {
  (void)dev;
}
#endif

#include "ops_a.h"

int module_get_tu_run(kcrt_device *dev, unsigned seed) {
  enum { N = 3000 };
  float in[N], out[N];
  int failures = 0;
  struct Params p;
  p.scale = 0.5f + (float)(seed % 8);
  p.offset = (int)(seed % 100);
  p.bias = 0.25;
  for (int i = 0; i < N; i++) in[i] = (float)(i % 97) - 48;
  kcc_buf_float din, dout;
  kcrt_module *m1 = NULL, *m2 = NULL;
  if (kcc_buf_float_alloc(dev, N, &din) || kcc_buf_float_alloc(dev, N, &dout) ||
      kcc_buf_float_write(din, 0, in, N) ||
      ops_a_k_launch_scale(dev, kcc_dim1(kcc_div_up(N, 256)), kcc_dim1(256), 0, NULL, dout, din, p,
                           N) ||
      ops_a_k_module(dev, &m1) || ops_a_k_module(dev, &m2) || kcc_buf_float_read(dout, 0, out, N)) {
    fprintf(stderr, "FAIL module_get_tu: %s\n", kcrt_last_error());
    return 1;
  }
  for (int i = 0; i < N; i++) {
    /* Small integers times a multiple of 0.5: exact in float, fused or not. */
    float want = (float)(in[i] * p.scale + p.offset + p.bias);
    if (out[i] != want) {
      if (failures++ < 5)
        fprintf(stderr, "FAIL module_get_tu scale: element %d: got %g, want %g\n", i, out[i], want);
    }
  }
  if (m1 != m2 || !m1) failures++, fprintf(stderr, "FAIL module_get_tu: two modules\n");
  if (calls >= 0 && calls != 3) /* the launch and the two ops_a_k_module calls */
    failures++, fprintf(stderr, "FAIL module_get_tu: kcrt_module_get called %d times\n", calls);
  kcc_buf_float_free(din);
  kcc_buf_float_free(dout);
  forget_device(dev);
  printf("second translation unit (kcrt_module_get interface%s): %s\n",
         calls >= 0 ? ", stand-in" : "", failures ? "FAILED" : "OK");
  return failures;
}
