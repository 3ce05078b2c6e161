/* ptx_probe.c — codegen experiments for issue 14, outside libkcrt: times one kernel (nbody or
 * matmul, the bench/ kernels' signatures) loaded from each given file, by every load path that
 * applies — a cubin with cuModuleLoadData; a PTX with cuModuleLoadData (the driver's JIT, as
 * libkcrt does), with cuModuleLoadDataEx at explicit -O levels, and with cuLinkCreate (whose
 * cubin is written beside the PTX as FILE.jit.cubin, for cuobjdump) — and prints one line per
 * (file, path): registers, median kernel ms of 20 launches after 3 warm-ups (events).
 *
 *   ptx_probe nbody|matmul FILE...
 *
 * Build: cc -O2 -I/usr/local/cuda/include bench/ptx_probe.c -o ptx_probe -L<stubs> -lcuda */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                      \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_) {                                                                                      \
      const char *s_ = "?";                                                                        \
      cuGetErrorName(r_, &s_);                                                                     \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);                              \
      return -1;                                                                                   \
    }                                                                                              \
  } while (0)

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)len + 1);
  *n = fread(b, 1, (size_t)len, f);
  b[*n] = 0;
  fclose(f);
  return b;
}

static int cmpf(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

static int time_kernel(CUmodule mod, const char *kname, const char *label) {
  CUfunction f;
  CK(cuModuleGetFunction(&f, mod, kname));
  int regs = 0;
  CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
  int nb = !strcmp(kname, "nbody");
  int n = nb ? 32768 : 4096;
  size_t elems = nb ? 4 * (size_t)n : (size_t)n * n;
  CUdeviceptr a, b, c;
  CK(cuMemAlloc(&a, elems * 4));
  CK(cuMemAlloc(&b, elems * 4));
  CK(cuMemAlloc(&c, elems * 4));
  float *h = malloc(elems * 4);
  for (size_t i = 0; i < elems; i++) h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
  CK(cuMemcpyHtoD(a, h, elems * 4));
  CK(cuMemcpyHtoD(b, h, elems * 4));
  void *nbargs[] = {&a, &b, &n};
  void *mmargs[] = {&a, &b, &c, &n, &n, &n};
  unsigned gx = nb ? (unsigned)n / 256 : (unsigned)n / 16, gy = nb ? 1 : (unsigned)n / 16;
  unsigned bx = nb ? 256 : 16, by = nb ? 1 : 16;
  CUevent e0, e1;
  CK(cuEventCreate(&e0, 0));
  CK(cuEventCreate(&e1, 0));
  float ms[20];
  for (int i = 0; i < 23; i++) {
    CK(cuEventRecord(e0, 0));
    CK(cuLaunchKernel(f, gx, gy, 1, bx, by, 1, 0, 0, nb ? nbargs : mmargs, NULL));
    CK(cuEventRecord(e1, 0));
    CK(cuEventSynchronize(e1));
    if (i >= 3) CK(cuEventElapsedTime(&ms[i - 3], e0, e1));
  }
  qsort(ms, 20, sizeof *ms, cmpf);
  CK(cuMemcpyDtoH(h, nb ? b : c, 64));
  printf("%-40s regs %3d  median %8.3f ms  (min %.3f)  out[0..1] %g %g\n", label, regs,
         (ms[9] + ms[10]) / 2, ms[0], h[0], h[1]);
  fflush(stdout);
  cuEventDestroy(e0), cuEventDestroy(e1);
  cuMemFree(a), cuMemFree(b), cuMemFree(c);
  free(h);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: ptx_probe nbody|matmul FILE...\n");
    return 2;
  }
  CUdevice dev;
  CUcontext ctx;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  int drv = 0;
  cuDriverGetVersion(&drv);
  printf("driver CUDA %d.%d\n", drv / 1000, drv % 1000 / 10);
  for (int i = 2; i < argc; i++) {
    size_t n;
    char *img = slurp(argv[i], &n), label[256];
    if (!img) {
      fprintf(stderr, "%s: cannot read\n", argv[i]);
      continue;
    }
    CUmodule mod;
    int ptx = strstr(argv[i], ".ptx") != NULL;
    snprintf(label, sizeof label, "%s %s", argv[i], ptx ? "JIT default" : "cubin");
    if (cuModuleLoadData(&mod, img) == CUDA_SUCCESS) {
      time_kernel(mod, argv[1], label);
      cuModuleUnload(mod);
    } else
      printf("%s: load failed\n", label);
    if (!ptx) continue;
    for (unsigned ol = 3; ol <= 4; ol++) {
      CUjit_option o[] = {CU_JIT_OPTIMIZATION_LEVEL};
      void *v[] = {(void *)(size_t)ol};
      snprintf(label, sizeof label, "%s JIT -O%u", argv[i], ol);
      if (cuModuleLoadDataEx(&mod, img, 1, o, v) == CUDA_SUCCESS) {
        time_kernel(mod, argv[1], label);
        cuModuleUnload(mod);
      }
    }
    CUlinkState ls;
    CK(cuLinkCreate(0, NULL, NULL, &ls));
    if (cuLinkAddData(ls, CU_JIT_INPUT_PTX, img, n + 1, "probe", 0, NULL, NULL) == CUDA_SUCCESS) {
      void *cub;
      size_t cn;
      if (cuLinkComplete(ls, &cub, &cn) == CUDA_SUCCESS) {
        char out[300];
        snprintf(out, sizeof out, "%s.jit.cubin", argv[i]);
        FILE *f = fopen(out, "wb");
        if (f) fwrite(cub, 1, cn, f), fclose(f);
        snprintf(label, sizeof label, "%s cuLink", argv[i]);
        if (cuModuleLoadData(&mod, cub) == CUDA_SUCCESS) {
          time_kernel(mod, argv[1], label);
          cuModuleUnload(mod);
        }
      }
    }
    cuLinkDestroy(ls);
    free(img);
  }
  return 0;
}
