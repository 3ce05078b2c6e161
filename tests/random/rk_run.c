/* rk_run.c — runs a batch of random kernels (rkgen.py) and writes their outputs.
 *
 *   rk_run cl   FILE.cl  FIRST COUNT SEED OUT  OpenCL C source, clCreateProgramWithSource
 *   rk_run spir FILE.bc  FIRST COUNT SEED OUT  SPIR 1.2 bitcode (llvm-spirv -r of kcc's
 *                                       SPIR-V), clCreateProgramWithBinary, as spirv_run does
 *   rk_run kcb  FILE.kcb FIRST COUNT SEED OUT  the bundle through libkcrt on its default
 *                                       device (KCC_DEVICE picks another: CUDA runs the PTX)
 *   rk_run cuda FILE     FIRST COUNT SEED OUT  a cubin, fatbin or PTX file (nvcc's build of
 *                                       kcc's CUDA C) through the CUDA driver API, libcuda.so.1
 *                                       opened at run time (tests/gpu/random_run.sh)
 *
 * Kernels kFIRST … k(FIRST+COUNT-1) each get the inputs rk_inputs(SEED, k) and fresh outputs; OUT
 * gets their RkOutputs one after the other (rk_io.h). Exit status: 0 ran, 1 usage or I/O error, 2
 * the program did not build (the build log is printed), 3 a launch failed, 77 no device. */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcrt.h"
#include "rk_io.h"

static RkInputs in;
static RkOutputs out;

/* Every path passes the kernel these buffers in this order, then in.prm; `out` ones are read
 * back. */
static const struct {
  void *host;
  size_t size;
  int out;
} bufs[] = {
    {in.ia, sizeof in.ia, 0},       {in.ua, sizeof in.ua, 0},       {in.la, sizeof in.la, 0},
    {in.fa, sizeof in.fa, 0},       {in.da, sizeof in.da, 0},       {out.ou, sizeof out.ou, 1},
    {out.of, sizeof out.of, 1},     {out.od, sizeof out.od, 1},     {out.acc, sizeof out.acc, 1},
    {out.acci, sizeof out.acci, 1}, {out.accl, sizeof out.accl, 1},
};
enum { NB = sizeof bufs / sizeof bufs[0] };

static void *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *p = malloc((size_t)n + 1);
  if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "%s: read error\n", path);
    exit(1);
  }
  p[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return p;
}

#define CLCHECK(call)                                                                              \
  do {                                                                                             \
    cl_int e_ = (call);                                                                            \
    if (e_ != CL_SUCCESS) {                                                                        \
      fprintf(stderr, "rk_run: %s failed: %d\n", #call, (int)e_);                                  \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

static int run_opencl(int spir, const char *path, int first, int nk, uint64_t seed, FILE *of) {
  cl_platform_id plat;
  cl_uint np = 0;
  if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0) {
    fprintf(stderr, "rk_run: no OpenCL platform\n");
    return 77;
  }
  cl_device_id dev;
  if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
    fprintf(stderr, "rk_run: no OpenCL device\n");
    return 77;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CLCHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  CLCHECK(err);
  size_t len;
  char *src = slurp(path, &len);
  cl_program prog;
  if (spir) {
    const unsigned char *bins[1] = {(const unsigned char *)src};
    cl_int st;
    prog = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &st, &err);
  } else {
    const char *srcs[1] = {src};
    prog = clCreateProgramWithSource(ctx, 1, srcs, &len, &err);
  }
  CLCHECK(err);
  err = clBuildProgram(prog, 1, &dev, spir ? "" : "-cl-std=CL1.2", NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t ln = 0;
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &ln);
    char *log = calloc(ln + 1, 1);
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, ln, log, NULL);
    fprintf(stderr, "rk_run: clBuildProgram: %d\n%s\n", (int)err, log);
    free(log);
    return 2;
  }
  for (int k = first; k < first + nk; k++) {
    char name[32];
    snprintf(name, sizeof name, "k%d", k);
    cl_kernel kern = clCreateKernel(prog, name, &err);
    CLCHECK(err);
    rk_inputs(&in, seed, k);
    rk_outputs_init(&out);
    cl_mem mem[NB];
    for (int i = 0; i < NB; i++) {
      mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bufs[i].size,
                              bufs[i].host, &err);
      CLCHECK(err);
      CLCHECK(clSetKernelArg(kern, (cl_uint)i, sizeof(cl_mem), &mem[i]));
    }
    CLCHECK(clSetKernelArg(kern, NB, sizeof in.prm, &in.prm));
    size_t gsz = RK_N, lsz = RK_BS;
    CLCHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &gsz, &lsz, 0, NULL, NULL));
    for (int i = 0; i < NB; i++)
      if (bufs[i].out)
        CLCHECK(
            clEnqueueReadBuffer(q, mem[i], CL_TRUE, 0, bufs[i].size, bufs[i].host, 0, NULL, NULL));
    for (int i = 0; i < NB; i++) clReleaseMemObject(mem[i]);
    clReleaseKernel(kern);
    if (fwrite(&out, sizeof out, 1, of) != 1) return 1;
  }
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(src);
  return 0;
}

#define KCHECK(call)                                                                               \
  do {                                                                                             \
    kcrt_status s_ = (call);                                                                       \
    if (s_ != KCRT_SUCCESS) {                                                                      \
      fprintf(stderr, "rk_run: %s: %s\n", #call, kcrt_last_error());                               \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

static int run_kcrt(const char *path, int first, int nk, uint64_t seed, FILE *of) {
  kcrt_device *dev;
  if (kcrt_device_open_default(&dev) != KCRT_SUCCESS) {
    fprintf(stderr, "rk_run: no device: %s\n", kcrt_last_error());
    return 77;
  }
  kcrt_module *mod;
  if (kcrt_module_load_file(dev, path, &mod) != KCRT_SUCCESS) {
    fprintf(stderr, "rk_run: kcrt_module_load_file: %s\n", kcrt_last_error());
    return 2;
  }
  for (int k = first; k < first + nk; k++) {
    char name[32];
    snprintf(name, sizeof name, "k%d", k);
    kcrt_kernel *kern;
    KCHECK(kcrt_kernel_get(mod, name, &kern));
    rk_inputs(&in, seed, k);
    rk_outputs_init(&out);
    kcrt_buffer *b[NB];
    kcrt_arg args[NB + 1];
    for (int i = 0; i < NB; i++) {
      KCHECK(kcrt_buffer_alloc(dev, bufs[i].size, &b[i]));
      KCHECK(kcrt_buffer_write(b[i], 0, bufs[i].host, bufs[i].size));
      args[i] = (kcrt_arg)KCRT_ARG_BUFFER(b[i]);
    }
    args[NB] = (kcrt_arg)KCRT_ARG_VALUE(in.prm);
    KCHECK(kcrt_launch(kern, NULL, KCRT_DIM1(RK_NB), KCRT_DIM1(RK_BS), 0, args, NB + 1));
    for (int i = 0; i < NB; i++) {
      if (bufs[i].out) KCHECK(kcrt_buffer_read(b[i], 0, bufs[i].host, bufs[i].size));
      kcrt_buffer_free(b[i]);
    }
    if (fwrite(&out, sizeof out, 1, of) != 1) return 1;
  }
  kcrt_module_unload(mod);
  kcrt_device_close(dev);
  return 0;
}

/* ---------------------------------------------------------------- CUDA driver API */

/* The few driver entry points used, declared here so that no CUDA header is needed. */
typedef int CUres;
typedef unsigned long long CUptr;
static struct {
  CUres (*Init)(unsigned);
  CUres (*DeviceGet)(int *, int);
  CUres (*CtxCreate)(void **, unsigned, int);
  CUres (*ModuleLoadData)(void **, const void *);
  CUres (*ModuleGetFunction)(void **, void *, const char *);
  CUres (*MemAlloc)(CUptr *, size_t);
  CUres (*MemFree)(CUptr);
  CUres (*MemcpyHtoD)(CUptr, const void *, size_t);
  CUres (*MemcpyDtoH)(void *, CUptr, size_t);
  CUres (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, void *, void **, void **);
  CUres (*CtxSynchronize)(void);
} cu;

#define CUCHECK(call)                                                                              \
  do {                                                                                             \
    CUres e_ = (call);                                                                             \
    if (e_ != 0) {                                                                                 \
      fprintf(stderr, "rk_run: %s failed: CUDA error %d\n", #call, e_);                            \
      exit(3);                                                                                     \
    }                                                                                              \
  } while (0)

static int run_cuda(const char *path, int first, int nk, uint64_t seed, FILE *of) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "rk_run: no CUDA driver (%s)\n", dlerror());
    return 77;
  }
  struct {
    void **slot;
    const char *name;
  } syms[] = {
      {(void **)&cu.Init, "cuInit"},
      {(void **)&cu.DeviceGet, "cuDeviceGet"},
      {(void **)&cu.CtxCreate, "cuCtxCreate_v2"},
      {(void **)&cu.ModuleLoadData, "cuModuleLoadData"},
      {(void **)&cu.ModuleGetFunction, "cuModuleGetFunction"},
      {(void **)&cu.MemAlloc, "cuMemAlloc_v2"},
      {(void **)&cu.MemFree, "cuMemFree_v2"},
      {(void **)&cu.MemcpyHtoD, "cuMemcpyHtoD_v2"},
      {(void **)&cu.MemcpyDtoH, "cuMemcpyDtoH_v2"},
      {(void **)&cu.LaunchKernel, "cuLaunchKernel"},
      {(void **)&cu.CtxSynchronize, "cuCtxSynchronize"},
  };
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
    if (!(*syms[i].slot = dlsym(lib, syms[i].name))) {
      fprintf(stderr, "rk_run: libcuda.so.1 has no %s\n", syms[i].name);
      return 77;
    }
  int dev;
  void *ctx, *mod;
  if (cu.Init(0) != 0 || cu.DeviceGet(&dev, 0) != 0) {
    fprintf(stderr, "rk_run: no CUDA device\n");
    return 77;
  }
  CUCHECK(cu.CtxCreate(&ctx, 0, dev));
  size_t len;
  char *image = slurp(path, &len);
  if (cu.ModuleLoadData(&mod, image) != 0) {
    fprintf(stderr, "rk_run: cuModuleLoadData(%s) failed\n", path);
    return 2;
  }
  for (int k = first; k < first + nk; k++) {
    char name[32];
    snprintf(name, sizeof name, "k%d", k);
    void *fn;
    CUCHECK(cu.ModuleGetFunction(&fn, mod, name));
    rk_inputs(&in, seed, k);
    rk_outputs_init(&out);
    CUptr mem[NB];
    void *params[NB + 1];
    for (int i = 0; i < NB; i++) {
      CUCHECK(cu.MemAlloc(&mem[i], bufs[i].size));
      CUCHECK(cu.MemcpyHtoD(mem[i], bufs[i].host, bufs[i].size));
      params[i] = &mem[i];
    }
    params[NB] = &in.prm;
    CUCHECK(cu.LaunchKernel(fn, RK_NB, 1, 1, RK_BS, 1, 1, 0, NULL, params, NULL));
    CUCHECK(cu.CtxSynchronize());
    for (int i = 0; i < NB; i++) {
      if (bufs[i].out) CUCHECK(cu.MemcpyDtoH(bufs[i].host, mem[i], bufs[i].size));
      cu.MemFree(mem[i]);
    }
    if (fwrite(&out, sizeof out, 1, of) != 1) return 1;
  }
  free(image);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: rk_run cl|spir|kcb|cuda FILE FIRST COUNT SEED OUT\n");
    return 1;
  }
  int first = atoi(argv[3]), nk = atoi(argv[4]);
  uint64_t seed = strtoull(argv[5], NULL, 0);
  FILE *of = fopen(argv[6], "wb");
  if (!of) {
    perror(argv[6]);
    return 1;
  }
  int rc;
  if (!strcmp(argv[1], "cl"))
    rc = run_opencl(0, argv[2], first, nk, seed, of);
  else if (!strcmp(argv[1], "spir"))
    rc = run_opencl(1, argv[2], first, nk, seed, of);
  else if (!strcmp(argv[1], "kcb"))
    rc = run_kcrt(argv[2], first, nk, seed, of);
  else if (!strcmp(argv[1], "cuda"))
    rc = run_cuda(argv[2], first, nk, seed, of);
  else {
    fprintf(stderr, "rk_run: unknown mode %s\n", argv[1]);
    rc = 1;
  }
  if (fclose(of) != 0 && rc == 0) rc = 1;
  return rc;
}
