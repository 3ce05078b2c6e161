/* cuda_asm.c — runs tests/runtime/cuda_asm.cu's inline PTX on a CUDA device against host
 * references, every element; on an OpenCL device the bundle (PTX and cubin only: OpenCL C
 * and SPIR-V cannot run PTX) must be refused with KCRT_ERROR_NO_BINARY. */
#include "rt_common.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  kcrt_device *dev = NULL;
  kcrt_status st = kcrt_device_open_default(&dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    printf("SKIP cuda_asm: no device\n");
    return 77;
  }
  kcrt_device_info info;
  if (st || kcrt_device_get_info(dev, &info)) {
    printf("FAIL cuda_asm: %s\n", kcrt_last_error());
    return 1;
  }
  if (info.backend != KCRT_BACKEND_CUDA) {
    kcrt_module *m = NULL;
    st = argc > 1 ? kcrt_module_load_file(dev, argv[1], &m) : KCRT_ERROR_INVALID_VALUE;
    kcrt_device_close(dev);
    if (st != KCRT_ERROR_NO_BINARY) {
      printf("FAIL cuda_asm: an OpenCL device loaded the bundle: %s\n", kcrt_status_name(st));
      return 1;
    }
    printf("PASS cuda_asm: refused on %s (KCRT_ERROR_NO_BINARY)\n", info.name);
    return 0;
  }
  kcrt_device_close(dev);

  Rt rt;
  rt_init(&rt, argc, argv, "cuda_asm");
  int n = rt_int(&rt, 100, 5000);
  int32_t *qi = rt_xalloc(n * sizeof *qi);
  float *qf = rt_xalloc(n * sizeof *qf), *of = rt_xalloc(n * sizeof *of),
        *wf = rt_xalloc(n * sizeof *wf);
  double *qd = rt_xalloc(n * sizeof *qd), *od = rt_xalloc(n * sizeof *od),
         *wd = rt_xalloc(n * sizeof *wd);
  uint16_t *qh = rt_xalloc(n * sizeof *qh), *oh = rt_xalloc(n * sizeof *oh),
           *wh = rt_xalloc(n * sizeof *wh);
  uint32_t *o = rt_xalloc(5 * n * sizeof *o), *w = rt_xalloc(5 * n * sizeof *w);
  for (int i = 0; i < n; i++) {
    qi[i] = (int32_t)rt_u32(&rt);
    qf[i] = rt_float(&rt, -100.0f, 100.0f);
    qd[i] = rt_double(&rt, -1e6, 1e6);
    qh[i] = (uint16_t)rt_u32(&rt);
    volatile float t = qf[i] * qf[i]; /* each operation rounded, as mul.rn and add.rn */
    wf[i] = t + qf[i];
    wd[i] = qd[i] - 0.25;
    wh[i] = (uint16_t)(qh[i] + 40000u);
    uint64_t wv = (uint64_t)(uint32_t)qi[i] * 0x100000001ull + 5;
    w[5 * i] = 3u + (uint32_t)qi[i] + 7u;
    w[5 * i + 1] = (uint32_t)wv;
    w[5 * i + 2] = (uint32_t)(wv >> 32);
    w[5 * i + 3] = (uint32_t)qi[i];
    w[5 * i + 4] = (uint32_t)(i % 128) % 32; /* blocks of 128: lanes restart every 32 */
  }
  kcrt_buffer *bqi = rt_upload(&rt, qi, n * sizeof *qi), *bqf = rt_upload(&rt, qf, n * sizeof *qf),
              *bqd = rt_upload(&rt, qd, n * sizeof *qd), *bqh = rt_upload(&rt, qh, n * sizeof *qh),
              *bo = rt_alloc(&rt, 5 * n * sizeof *o), *bof = rt_alloc(&rt, n * sizeof *of),
              *bod = rt_alloc(&rt, n * sizeof *od), *boh = rt_alloc(&rt, n * sizeof *oh);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bqi), KCRT_ARG_BUFFER(bqf), KCRT_ARG_BUFFER(bqd),
                     KCRT_ARG_BUFFER(bqh), KCRT_ARG_BUFFER(bo),  KCRT_ARG_BUFFER(bof),
                     KCRT_ARG_BUFFER(bod), KCRT_ARG_BUFFER(boh), KCRT_ARG_VALUE(n)};
  rt_launch(&rt, rt_kernel(&rt, "inline_ptx"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0,
            args, 9);
  rt_download(&rt, bo, o, 5 * n * sizeof *o);
  rt_download(&rt, bof, of, n * sizeof *of);
  rt_download(&rt, bod, od, n * sizeof *od);
  rt_download(&rt, boh, oh, n * sizeof *oh);
  rt_cmp_u32(&rt, "inline_ptx r/l/+r/n", o, w, 5 * (size_t)n);
  rt_cmp_f32(&rt, "inline_ptx f", of, wf, n, 0, 0);
  rt_cmp_f64(&rt, "inline_ptx d", od, wd, n, 0, 0);
  for (int i = 0; i < n; i++)
    if (oh[i] != wh[i]) {
      rt_fail(&rt, "inline_ptx h: element %d is %u, want %u", i, oh[i], wh[i]);
      break;
    }
  return rt_finish(&rt, "%d elements", n);
}
