/* launch_raw.c — host cost of a launch through libkcrt next to the raw CUDA driver API, in one
 * process and one run (issue 14's target: kcrt_launch with 4 arguments <= 1.05x a raw
 * cuLaunchKernel).
 *
 *   launch_raw VECADD.kcb VECADD.cubin [-n LAUNCHES] [-r ROUNDS]
 *
 * The raw side dlopens libcuda.so.1, makes the primary context of device 0 current, loads the
 * cubin (cuModuleLoadData) and launches its `vecadd` with cuLaunchKernel; the kcrt side opens
 * KCC_DEVICE=cuda's device through libkcrt, loads the bundle (its cubin form unless
 * KCC_CUDA_FORM says otherwise) and launches with kcrt_launch. Both launch vecadd(a, b, c, n)
 * on 1024 floats as 4 blocks of 256 threads with 4 arguments. Per round, each side times
 * LAUNCHES back-to-back launches (host time, the queue absorbing them) and then synchronises;
 * the sides alternate which goes first. Prints the medians over rounds in µs per launch and
 * their ratio. Exit 77 when there is no CUDA device. */
#define _GNU_SOURCE
#include "kcrt.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;

static struct {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(CUdevice *, int);
  CUresult (*PrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*CtxSetCurrent)(CUcontext);
  CUresult (*ModuleLoadData)(CUmodule *, const void *);
  CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*CtxSynchronize)(void);
  CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, CUstream, void **, void **);
} cu;

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *p = n > 0 ? malloc((size_t)n) : NULL;
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return p;
}

#define RAW(x)                                                                                     \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_) {                                                                                      \
      fprintf(stderr, "%s: CUDA error %d\n", #x, r_);                                              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)
#define KC(x)                                                                                      \
  do {                                                                                             \
    kcrt_status s_ = (x);                                                                          \
    if (s_) {                                                                                      \
      fprintf(stderr, "%s: %s\n", #x, kcrt_last_error());                                          \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s VECADD.kcb VECADD.cubin [-n LAUNCHES] [-r ROUNDS]\n", argv[0]);
    return 2;
  }
  int n = 2000, rounds = 9;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-n")) n = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "-r")) rounds = atoi(argv[i + 1]);
  }
  if (n < 1 || rounds < 1 || rounds > 100) return 2;

  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("launch_raw: no CUDA driver (%s)\n", dlerror());
    return 77;
  }
  struct {
    void **slot;
    const char *name;
  } syms[] = {{(void **)&cu.Init, "cuInit"},
              {(void **)&cu.DeviceGet, "cuDeviceGet"},
              {(void **)&cu.PrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
              {(void **)&cu.CtxSetCurrent, "cuCtxSetCurrent"},
              {(void **)&cu.ModuleLoadData, "cuModuleLoadData"},
              {(void **)&cu.ModuleGetFunction, "cuModuleGetFunction"},
              {(void **)&cu.MemAlloc, "cuMemAlloc_v2"},
              {(void **)&cu.CtxSynchronize, "cuCtxSynchronize"},
              {(void **)&cu.LaunchKernel, "cuLaunchKernel"}};
  for (size_t i = 0; i < sizeof syms / sizeof *syms; i++)
    if (!(*syms[i].slot = dlsym(lib, syms[i].name))) {
      fprintf(stderr, "libcuda has no %s\n", syms[i].name);
      return 1;
    }
  CUdevice d;
  CUcontext ctx;
  if (cu.Init(0) || cu.DeviceGet(&d, 0)) {
    printf("launch_raw: no CUDA device\n");
    return 77;
  }
  RAW(cu.PrimaryCtxRetain(&ctx, d));
  RAW(cu.CtxSetCurrent(ctx));
  size_t cubin_size;
  void *cubin = read_file(argv[2], &cubin_size);
  if (!cubin) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 1;
  }
  CUmodule m;
  CUfunction f;
  RAW(cu.ModuleLoadData(&m, cubin));
  RAW(cu.ModuleGetFunction(&f, m, "vecadd"));
  int elems = 1024;
  CUdeviceptr ra, rb, rc;
  RAW(cu.MemAlloc(&ra, elems * 4));
  RAW(cu.MemAlloc(&rb, elems * 4));
  RAW(cu.MemAlloc(&rc, elems * 4));
  void *raw_args[4] = {&ra, &rb, &rc, &elems};

  kcrt_device *dev;
  kcrt_module *mod;
  kcrt_kernel *k;
  KC(kcrt_device_open_by_name("cuda", &dev));
  KC(kcrt_module_load_file(dev, argv[1], &mod));
  KC(kcrt_kernel_get(mod, "vecadd", &k));
  kcrt_buffer *a, *b, *c;
  KC(kcrt_buffer_alloc(dev, elems * 4, &a));
  KC(kcrt_buffer_alloc(dev, elems * 4, &b));
  KC(kcrt_buffer_alloc(dev, elems * 4, &c));
  kcrt_arg args[4] = {KCRT_ARG_BUFFER(a), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(c),
                      KCRT_ARG_VALUE(elems)};
  kcrt_device_info info;
  KC(kcrt_device_get_info(dev, &info));

  /* libkcrt pushes and pops its own context around its calls; make sure the raw side's is
   * the thread's current one whatever libkcrt's set-up left. */
  RAW(cu.CtxSetCurrent(ctx));
  for (int w = 0; w < 50; w++) { /* warm-up: first-launch work of both paths */
    RAW(cu.LaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, raw_args, NULL));
    KC(kcrt_launch(k, NULL, KCRT_DIM1(4), KCRT_DIM1(256), 0, args, 4));
  }
  RAW(cu.CtxSynchronize());
  KC(kcrt_device_synchronize(dev));
  double raw[100], kc[100];
  for (int rd = 0; rd < rounds; rd++)
    for (int side = 0; side < 2; side++) {
      bool is_raw = (side + rd) % 2 == 0; /* alternate which side goes first */
      double t0 = now_us();
      for (int i = 0; i < n; i++) {
        if (is_raw)
          RAW(cu.LaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, raw_args, NULL));
        else
          KC(kcrt_launch(k, NULL, KCRT_DIM1(4), KCRT_DIM1(256), 0, args, 4));
      }
      double t = (now_us() - t0) / n;
      if (is_raw) {
        raw[rd] = t;
        RAW(cu.CtxSynchronize());
      } else {
        kc[rd] = t;
        KC(kcrt_device_synchronize(dev));
      }
    }
  qsort(raw, rounds, sizeof *raw, cmp);
  qsort(kc, rounds, sizeof *kc, cmp);
  printf("Launch cost on %s (CUDA driver %s): vecadd, 4 arguments, 4 blocks of 256, host time "
         "per launch, median of %d rounds of %d back-to-back launches.\n\n",
         info.name, info.driver_version, rounds, n);
  printf("| path | µs per launch | ÷ raw |\n|---|---:|---:|\n");
  printf("| raw cuLaunchKernel | %.3f | 1.00 |\n", raw[rounds / 2]);
  printf("| kcrt_launch | %.3f | %.2f |\n", kc[rounds / 2], kc[rounds / 2] / raw[rounds / 2]);
  kcrt_device_close(dev);
  free(cubin);
  return 0;
}
