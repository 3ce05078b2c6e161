/* libkcc_compile.c — in-process compile time: libkcc (kcc_compile, --emit=ptx) against NVRTC
 * (nvrtcCompileProgram + nvrtcGetPTX) on the same vector add, in one warm process.
 *
 *   libkcc_compile [-n N] [-arch sm_XX] [--nvrtc PATH] [--cuda]
 *
 * Each compiler compiles once to warm up, then N times (default 30), alternating rounds so that
 * machine load hits both alike; prints min / median / mean in ms, of wall time and of the
 * process's CPU time. NVRTC is dlopen'ed
 * (libnvrtc.so from --nvrtc, $CUDA_PATH/lib64, /usr/local/cuda/lib64 or the loader path) and
 * skipped when absent. --cuda has libkcc compile the CUDA text NVRTC gets (as vecadd.cu) instead
 * of the .k one. Needs no GPU. Built by CMake as bench_libkcc_compile. */
#define _GNU_SOURCE
#include <libkcc.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *kcc_src =
    "kernel void vecadd(const float *a, const float *b, float *c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";
static const char *cuda_src =
    "extern \"C\" __global__ void vecadd(const float *a, const float *b, float *c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

typedef int (*CreateFn)(void **, const char *, const char *, int, const char *const *,
                        const char *const *);
typedef int (*CompileFn)(void *, int, const char *const *);
typedef int (*SizeFn)(void *, size_t *);
typedef int (*GetFn)(void *, char *);
typedef int (*DestroyFn)(void **);
static CreateFn nv_create;
static CompileFn nv_compile;
static SizeFn nv_ptx_size;
static GetFn nv_ptx;
static DestroyFn nv_destroy;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The process's CPU time (every thread: kcc's front end parses on a thread of its own). On a
 * loaded machine, wall time measures the load as much as the compiler. */
static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double last_cpu; /* CPU time of the last compile */
static bool cuda;       /* --cuda: libkcc compiles NVRTC's text, as vecadd.cu */

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void report(const char *what, double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmp);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += t[i];
  printf("%-28s min %7.2f  median %7.2f  mean %7.2f ms  (%d compiles)\n", what, t[0], t[n / 2],
         sum / n, n);
}

static double one_kcc(const char *arch) {
  char opt[32];
  snprintf(opt, sizeof opt, "-arch=%s", arch);
  const char *opts[] = {"--emit=ptx", opt};
  kcc_result *r;
  double c0 = cpu_ms();
  double t0 = now_ms();
  const char *src = cuda ? cuda_src : kcc_src;
  kcc_status st = kcc_compile(src, strlen(src), cuda ? "vecadd.cu" : "vecadd.k", opts, 2, &r);
  size_t n;
  kcc_result_output(r, &n);
  double t = now_ms() - t0;
  last_cpu = cpu_ms() - c0;
  if (st != KCC_SUCCESS || n == 0) {
    fprintf(stderr, "libkcc failed: %s\n%s", kcc_status_string(st), kcc_result_log(r));
    exit(1);
  }
  kcc_result_free(r);
  return t;
}

static double one_nvrtc(const char *arch) {
  char opt[64];
  snprintf(opt, sizeof opt, "--gpu-architecture=compute_%s", arch + 3);
  const char *opts[] = {opt};
  void *prog = NULL;
  double c0 = cpu_ms();
  double t0 = now_ms();
  if (nv_create(&prog, cuda_src, "vecadd.cu", 0, NULL, NULL) || nv_compile(prog, 1, opts)) {
    fprintf(stderr, "NVRTC failed\n");
    exit(1);
  }
  size_t n = 0;
  nv_ptx_size(prog, &n);
  char *ptx = malloc(n);
  nv_ptx(prog, ptx);
  double t = now_ms() - t0;
  last_cpu = cpu_ms() - c0;
  free(ptx);
  nv_destroy(&prog);
  return t;
}

static void *open_nvrtc(const char *given) {
  char path[4096];
  const char *cp = getenv("CUDA_PATH");
  const char *cands[4] = {given, NULL, "/usr/local/cuda/lib64/libnvrtc.so", "libnvrtc.so"};
  if (cp) {
    snprintf(path, sizeof path, "%s/lib64/libnvrtc.so", cp);
    cands[1] = path;
  }
  for (int i = 0; i < 4; i++) {
    void *h = cands[i] ? dlopen(cands[i], RTLD_NOW) : NULL;
    if (h) return h;
  }
  return NULL;
}

int main(int argc, char **argv) {
  int n = 30;
  const char *arch = "sm_90", *nvrtc_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      n = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-arch") && i + 1 < argc)
      arch = argv[++i];
    else if (!strcmp(argv[i], "--nvrtc") && i + 1 < argc)
      nvrtc_path = argv[++i];
    else if (!strcmp(argv[i], "--cuda"))
      cuda = true;
    else {
      fprintf(stderr, "usage: libkcc_compile [-n N] [-arch sm_XX] [--nvrtc PATH] [--cuda]\n");
      return 2;
    }
  }
  if (n < 1) n = 1;
  void *h = open_nvrtc(nvrtc_path);
  if (h) {
    nv_create = (CreateFn)dlsym(h, "nvrtcCreateProgram");
    nv_compile = (CompileFn)dlsym(h, "nvrtcCompileProgram");
    nv_ptx_size = (SizeFn)dlsym(h, "nvrtcGetPTXSize");
    nv_ptx = (GetFn)dlsym(h, "nvrtcGetPTX");
    nv_destroy = (DestroyFn)dlsym(h, "nvrtcDestroyProgram");
    if (!nv_create || !nv_compile || !nv_ptx_size || !nv_ptx || !nv_destroy) h = NULL;
  }
  double *tk = calloc((size_t)n, sizeof *tk), *tn = calloc((size_t)n, sizeof *tn);
  double *ck = calloc((size_t)n, sizeof *ck), *cn = calloc((size_t)n, sizeof *cn);
  double first_k = one_kcc(arch), first_n = h ? one_nvrtc(arch) : 0;
  for (int i = 0; i < n; i++) {
    if (i % 2) {
      tk[i] = one_kcc(arch), ck[i] = last_cpu;
      if (h) tn[i] = one_nvrtc(arch), cn[i] = last_cpu;
    } else {
      if (h) tn[i] = one_nvrtc(arch), cn[i] = last_cpu;
      tk[i] = one_kcc(arch), ck[i] = last_cpu;
    }
  }
  printf("vecadd%s -> PTX for %s, in process; first compile: libkcc %.2f ms", cuda ? ".cu" : ".k",
         arch, first_k);
  if (h) printf(", NVRTC %.2f ms", first_n);
  printf("\n");
  report("libkcc kcc_compile, wall", tk, n);
  report("libkcc kcc_compile, CPU", ck, n);
  if (h) {
    report("NVRTC, wall", tn, n);
    report("NVRTC, CPU", cn, n);
  } else
    printf("NVRTC: libnvrtc.so not found, skipped\n");
  free(tk);
  free(tn);
  free(ck);
  free(cn);
  return 0;
}
