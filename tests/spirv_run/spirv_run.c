/* spirv_run.c — runs kcc's SPIR-V on PoCL, the execution half of the SPIR-V tests.
 *
 * No driver here ingests SPIR-V, so the path is: kcc NAME.k -o NAME.spv, then
 * llvm-spirv-15 -r --spirv-target-env=CL1.2 (SPIR-V -> SPIR 1.2 LLVM bitcode), then this
 * program loads the bitcode with clCreateProgramWithBinary (PoCL's SPIR loader), launches the
 * kernels with random inputs and compares with a C reference on the host.
 *
 * usage: spirv_run TEST FILE.bc [FILE.spv]  (TEST: a kernel file of tests/kernels without .k;
 *        FILE.spv is loaded directly instead where the device lists SPIR-V)
 * Exit status: 0 pass, 1 mismatch or OpenCL error, 77 skipped (no OpenCL CPU device, or no
 * test written for that kernel yet). */
/* 2.1 for clCreateProgramWithIL on devices that take SPIR-V; the 1.2 calls stay usable. */
#define CL_TARGET_OPENCL_VERSION 210
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <limits.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host_ref.h"

static cl_context ctx;
static cl_command_queue queue;
static cl_program prog;
static cl_device_id dev;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cl_int err_ = (call);                                                                          \
    if (err_ != CL_SUCCESS) {                                                                      \
      fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)err_);             \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

/* Deterministic inputs: the same numbers on every run, so a failure reproduces. */
static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static float frand(void) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((rng >> 40) & 0xffffff) / (float)0x1000000 * 2.0f - 1.0f;
}

/* Everything a test allocates, host buffers and OpenCL objects alike, is recorded here and
 * released by release_all() when the test is over, whatever its outcome. */
enum { MAX_OWNED = 64 };
static void *host_bufs[MAX_OWNED];
static cl_mem mems[MAX_OWNED];
static cl_kernel kernels[MAX_OWNED];
static int nhost, nmems, nkernels;

static void too_many(void) {
  fprintf(stderr, "spirv_run: more than %d objects of one kind: raise MAX_OWNED\n", MAX_OWNED);
  exit(1);
}

/* malloc for a test's host arrays: freed by release_all(). */
static void *host(size_t bytes) {
  if (nhost == MAX_OWNED) too_many();
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "spirv_run: out of memory\n");
    exit(1);
  }
  return host_bufs[nhost++] = p;
}

static void release_all(void) {
  for (int i = 0; i < nkernels; i++) clReleaseKernel(kernels[i]);
  for (int i = 0; i < nmems; i++) clReleaseMemObject(mems[i]);
  for (int i = 0; i < nhost; i++) free(host_bufs[i]);
  nkernels = nmems = nhost = 0;
  if (prog) clReleaseProgram(prog);
  if (queue) clReleaseCommandQueue(queue);
  if (ctx) clReleaseContext(ctx);
  prog = NULL;
  queue = NULL;
  ctx = NULL;
}

static unsigned char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc((size_t)n + 1);
  if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(p);
    return NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return p;
}

/* The first CPU device of the first platform that has one (PoCL here). */
static int open_device(void) {
  cl_platform_id plats[8];
  cl_uint np = 0;
  if (clGetPlatformIDs(8, plats, &np) != CL_SUCCESS || np == 0) return 0;
  for (cl_uint i = 0; i < np; i++) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &dev, &nd) == CL_SUCCESS && nd > 0) {
      char name[256] = "", pname[256] = "";
      clGetPlatformInfo(plats[i], CL_PLATFORM_VERSION, sizeof pname, pname, NULL);
      clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
      printf("device: %s (%s)\n", name, pname);
      cl_int err;
      ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
      CHECK(err);
      queue = clCreateCommandQueue(ctx, dev, 0, &err);
      CHECK(err);
      return 1;
    }
  }
  return 0;
}

/* A device that lists SPIR-V in CL_DEVICE_IL_VERSION gets kcc's .spv as it is; the others
 * get the llvm-spirv translation through their SPIR (bitcode) loader. */
static bool device_takes_spirv(void) {
  char il[256] = "";
  if (clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof il, il, NULL) != CL_SUCCESS) return false;
  return strstr(il, "SPIR-V") != NULL;
}

static void load_program(const char *bc_path, const char *spv_path) {
  bool il = spv_path && device_takes_spirv();
  const char *path = il ? spv_path : bc_path;
  size_t len = 0;
  unsigned char *bin = read_file(path, &len);
  if (!bin) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  cl_int status = CL_SUCCESS, err;
  const unsigned char *bins[1] = {bin};
  if (il)
    prog = clCreateProgramWithIL(ctx, bin, len, &err);
  else
    prog = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
  free(bin); /* the program holds its own copy */
  printf("program: %s (%s)\n", path, il ? "SPIR-V, clCreateProgramWithIL" : "SPIR bitcode");
  if (err != CL_SUCCESS || status != CL_SUCCESS) {
    fprintf(stderr, "%s(%s): error %d, binary status %d\n",
            il ? "clCreateProgramWithIL" : "clCreateProgramWithBinary", path, (int)err,
            (int)status);
    exit(1);
  }
  err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
  if (err != CL_SUCCESS) {
    char log[16384] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "clBuildProgram: error %d\n%s\n", (int)err, log);
    exit(1);
  }
}

static cl_kernel kernel(const char *name) {
  cl_int err;
  if (nkernels == MAX_OWNED) too_many();
  cl_kernel k = clCreateKernel(prog, name, &err);
  CHECK(err);
  return kernels[nkernels++] = k;
}

static cl_mem buffer(size_t bytes, const void *init) {
  cl_int err;
  if (nmems == MAX_OWNED) too_many();
  cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            (void *)init, &err);
  CHECK(err);
  return mems[nmems++] = m;
}

/* CUDA launch mapping: global size = grid * block, local size = block. */
static void launch(cl_kernel k, size_t grid, size_t block) {
  size_t global = grid * block;
  CHECK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &block, 0, NULL, NULL));
  CHECK(clFinish(queue));
}

static void launch2(cl_kernel k, size_t gx, size_t gy, size_t bx, size_t by) {
  size_t global[2] = {gx * bx, gy * by}, local[2] = {bx, by};
  CHECK(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL));
  CHECK(clFinish(queue));
}

static void arg(cl_kernel k, cl_uint i, size_t size, const void *v) {
  CHECK(clSetKernelArg(k, i, size, v));
}

static void read_back(cl_mem m, size_t bytes, void *out) {
  CHECK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
}

static int close_enough(float got, float want, float rel) {
  return fabsf(got - want) <= rel * (fabsf(want) + 1.0f);
}

static int test_vecadd(void) {
  int n = 100003; /* not a multiple of the block: the bounds check matters */
  float *a = host(sizeof(float) * n), *b = host(sizeof(float) * n), *c = host(sizeof(float) * n);
  for (int i = 0; i < n; i++) a[i] = frand(), b[i] = frand();
  cl_mem da = buffer(sizeof(float) * n, a), db = buffer(sizeof(float) * n, b),
         dc = buffer(sizeof(float) * n, NULL);
  cl_kernel k = kernel("vecadd");
  CHECK(clSetKernelArg(k, 0, sizeof da, &da));
  CHECK(clSetKernelArg(k, 1, sizeof db, &db));
  CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  launch(k, (size_t)(n + 255) / 256, 256);
  read_back(dc, sizeof(float) * n, c);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (c[i] != a[i] + b[i] && bad++ < 5) printf("c[%d] = %g, want %g\n", i, c[i], a[i] + b[i]);
  return bad;
}

static int test_saxpy(void) {
  int n = 50000;
  float alpha = 1.75f;
  float *x = host(sizeof(float) * n), *y = host(sizeof(float) * n), *r = host(sizeof(float) * n);
  for (int i = 0; i < n; i++) x[i] = frand(), y[i] = frand();
  cl_mem dx = buffer(sizeof(float) * n, x), dy = buffer(sizeof(float) * n, y);
  cl_kernel k = kernel("saxpy");
  CHECK(clSetKernelArg(k, 0, sizeof n, &n));
  CHECK(clSetKernelArg(k, 1, sizeof alpha, &alpha));
  CHECK(clSetKernelArg(k, 2, sizeof dx, &dx));
  CHECK(clSetKernelArg(k, 3, sizeof dy, &dy));
  launch(k, 40, 256); /* fewer threads than elements: the grid-stride loop matters */
  read_back(dy, sizeof(float) * n, r);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float want = alpha * x[i] + y[i]; /* fused or not: a few ulp apart */
    if (!close_enough(r[i], want, 1e-6f) && bad++ < 5)
      printf("y[%d] = %g, want %g\n", i, r[i], want);
  }
  return bad;
}

static int test_reduce(void) {
  int n = 1 << 18 | 77;
  size_t blocks = (size_t)(n + 511) / 512;
  float *in = host(sizeof(float) * n), *part = host(sizeof(float) * blocks);
  double want = 0;
  for (int i = 0; i < n; i++) want += in[i] = frand();
  cl_mem din = buffer(sizeof(float) * n, in), dp = buffer(sizeof(float) * blocks, NULL);
  cl_kernel k = kernel("reduce");
  CHECK(clSetKernelArg(k, 0, sizeof din, &din));
  CHECK(clSetKernelArg(k, 1, sizeof dp, &dp));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  launch(k, blocks, 256);
  read_back(dp, sizeof(float) * blocks, part);
  int bad = 0;
  double got = 0;
  for (size_t b = 0; b < blocks; b++) {
    double ref = 0;
    for (size_t i = b * 512; i < b * 512 + 512 && i < (size_t)n; i++) ref += in[i];
    if (!close_enough(part[b], (float)ref, 1e-5f) && bad++ < 5)
      printf("partial[%zu] = %g, want %g\n", b, part[b], ref);
    got += part[b];
  }
  if (fabs(got - want) > 1e-3 * (fabs(want) + 1)) {
    printf("sum = %g, want %g\n", got, want);
    bad++;
  }
  return bad;
}

/* Dynamic shared memory is the trailing local-pointer argument kcc adds to the kernel. */
static int test_dynshared(void) {
  int bs = 128, n = bs * 37, bad = 0;
  float *d = host(sizeof(float) * n), *r = host(sizeof(float) * n);
  for (int i = 0; i < n; i++) d[i] = frand();
  cl_mem dd = buffer(sizeof(float) * n, d);
  cl_kernel k = kernel("reverse_blocks");
  CHECK(clSetKernelArg(k, 0, sizeof dd, &dd));
  CHECK(clSetKernelArg(k, 1, sizeof n, &n));
  CHECK(clSetKernelArg(k, 2, sizeof(float) * bs, NULL));
  launch(k, (size_t)(n / bs), (size_t)bs);
  read_back(dd, sizeof(float) * n, r);
  for (int i = 0; i < n; i++) {
    int b = i / bs, t = i % bs;
    float want = d[b * bs + (bs - 1 - t)];
    if (r[i] != want && bad++ < 5) printf("reverse d[%d] = %g, want %g\n", i, r[i], want);
  }

  int m = 1000;
  int *in = host(sizeof(int) * m), *out = host(sizeof(int) * m);
  for (int i = 0; i < m; i++) in[i] = (int)(frand() * 1000);
  cl_mem din = buffer(sizeof(int) * m, in), dout = buffer(sizeof(int) * m, NULL);
  k = kernel("scan_blocks");
  CHECK(clSetKernelArg(k, 0, sizeof din, &din));
  CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 2, sizeof m, &m));
  CHECK(clSetKernelArg(k, 3, 2 * sizeof(int) * bs, NULL));
  launch(k, (size_t)(m + bs - 1) / bs, (size_t)bs);
  read_back(dout, sizeof(int) * m, out);
  int acc = 0;
  for (int i = 0; i < m; i++) {
    if (i % bs == 0) acc = 0;
    acc += in[i];
    if (out[i] != acc && bad++ < 10) printf("scan out[%d] = %d, want %d\n", i, out[i], acc);
  }
  return bad;
}

/* Host-filled constants are hidden __constant arguments after the kernel's own parameters
 * and before the dynamic __local one (docs/bundle.md, SYMBOLS): coef then scale for weigh. */
static int test_symbols(void) {
  int bs = 64, n = bs * 29 + 7, bad = 0, scale = 3;
  float coef[16], *in = host(sizeof(float) * n), *out = host(sizeof(float) * n);
  static const float table[4] = {0.5f, 1.5f, 2.5f, 3.5f};
  for (int j = 0; j < 16; j++) coef[j] = frand();
  for (int i = 0; i < n; i++) in[i] = frand();
  cl_mem din = buffer(sizeof(float) * n, in), dout = buffer(sizeof(float) * n, NULL);
  cl_mem dc = buffer(sizeof coef, coef), ds = buffer(sizeof scale, &scale);
  cl_kernel k = kernel("weigh");
  CHECK(clSetKernelArg(k, 0, sizeof din, &din));
  CHECK(clSetKernelArg(k, 1, sizeof dout, &dout));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  CHECK(clSetKernelArg(k, 3, sizeof dc, &dc));
  CHECK(clSetKernelArg(k, 4, sizeof ds, &ds));
  CHECK(clSetKernelArg(k, 5, sizeof(float) * bs, NULL));
  launch(k, (size_t)(n + bs - 1) / bs, (size_t)bs);
  read_back(dout, sizeof(float) * n, out);
  for (int i = 0; i < n; i++) {
    volatile float w = coef[i % 16] * (float)scale, p = in[i] * w;
    float want = p + table[i & 3] + coef[0];
    if (fabsf(out[i] - want) > 1e-6f * (1 + fabsf(want)) && bad++ < 5)
      printf("weigh out[%d] = %g, want %g\n", i, out[i], want);
  }
  return bad;
}

struct Vec3 {
  float x, y, z;
};
struct Particle {
  struct Vec3 pos, vel;
  float mass;
  int id;
};
struct Params {
  float dt, gravity, damping;
  int steps;
};

/* Structs by value (a ByVal kernel argument) and through pointers. */
static int test_structs(void) {
  int n = 1000, bad = 0;
  struct Params p = {0.01f, 9.81f, 0.99f, 10};
  struct Particle *ps = host(sizeof *ps * n), *got = host(sizeof *got * n);
  float *out = host(sizeof(float) * n);
  for (int i = 0; i < n; i++) {
    ps[i] = (struct Particle){
        {frand(), frand(), frand()}, {frand(), frand(), frand()}, 1.0f + frand() * 0.5f, i};
  }
  cl_mem dps = buffer(sizeof *ps * n, ps), dout = buffer(sizeof(float) * n, NULL);
  cl_kernel k = kernel("particles");
  CHECK(clSetKernelArg(k, 0, sizeof dps, &dps));
  CHECK(clSetKernelArg(k, 1, sizeof n, &n));
  CHECK(clSetKernelArg(k, 2, sizeof p, &p));
  CHECK(clSetKernelArg(k, 3, sizeof dout, &dout));
  launch(k, (size_t)(n + 127) / 128, 128);
  read_back(dps, sizeof *ps * n, got);
  read_back(dout, sizeof(float) * n, out);
  for (int i = 0; i < n; i++) {
    struct Particle q = ps[i];
    for (int s = 0; s < p.steps; s++) {
      q.vel.y -= p.gravity * p.dt;
      q.vel.x *= p.damping, q.vel.y *= p.damping, q.vel.z *= p.damping;
      q.pos.x += q.vel.x * p.dt, q.pos.y += q.vel.y * p.dt, q.pos.z += q.vel.z * p.dt;
    }
    float e = 0.5f * q.mass * (q.vel.x * q.vel.x + q.vel.y * q.vel.y + q.vel.z * q.vel.z);
    if ((!close_enough(got[i].pos.y, q.pos.y, 1e-5f) || got[i].id != i ||
         !close_enough(out[i], e, 1e-5f)) &&
        bad++ < 5)
      printf("particle %d: pos.y %g (want %g) id %d energy %g (want %g)\n", i, got[i].pos.y,
             q.pos.y, got[i].id, out[i], e);
  }
  return bad;
}

static int test_control(void) {
  int n = 5000, bad = 0;
  int *in = host(sizeof(int) * n), *out = host(sizeof(int) * n), *want = host(sizeof(int) * n);
  for (int i = 0; i < n; i++) in[i] = i < 1001 ? i : (int)((frand() + 1) * 500); /* 0..1000 */
  cl_mem din = buffer(sizeof(int) * n, in), dout = buffer(sizeof(int) * n, NULL);
  cl_kernel k = kernel("control");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof n, &n);
  launch(k, (size_t)(n + 63) / 64, 64);
  read_back(dout, sizeof(int) * n, out);
  ref_control(in, want, n);
  for (int i = 0; i < n; i++)
    if (out[i] != want[i] && bad++ < 5)
      printf("out[%d] = %d (in %d), want %d\n", i, out[i], in[i], want[i]);
  return bad;
}

static int test_int64(void) {
  int n = 3000, bad = 0;
  long *in = host(sizeof(long) * n);
  unsigned long *out = host(sizeof(long) * 4 * n), *want = host(sizeof(long) * 4 * n);
  for (int i = 0; i < n; i++) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    long v = (long)(rng >> 4) % (1L << 60);
    in[i] = (i & 1) ? -v : v;
  }
  cl_mem din = buffer(sizeof(long) * n, in), dout = buffer(sizeof(long) * 4 * n, NULL);
  cl_kernel k = kernel("int64_ops");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof n, &n);
  launch(k, (size_t)(n + 255) / 256, 256);
  read_back(dout, sizeof(long) * 4 * n, out);
  ref_int64(in, want, n);
  for (int i = 0; i < 4 * n; i++)
    if (out[i] != want[i] && bad++ < 5) printf("out[%d] = %lu, want %lu\n", i, out[i], want[i]);
  return bad;
}

static int test_constant(void) {
  int n = 4000, bad = 0;
  unsigned *in = host(sizeof(unsigned) * n);
  float *out = host(sizeof(float) * n), *want = host(sizeof(float) * n);
  for (int i = 0; i < n; i++) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    in[i] = (unsigned)(rng >> 32);
  }
  cl_mem din = buffer(sizeof(unsigned) * n, in), dout = buffer(sizeof(float) * n, NULL);
  cl_kernel k = kernel("lookup");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof n, &n);
  launch(k, (size_t)(n + 127) / 128, 128);
  read_back(dout, sizeof(float) * n, out);
  ref_lookup(in, want, n);
  for (int i = 0; i < n; i++)
    if (!close_enough(out[i], want[i], 1e-6f) && bad++ < 5)
      printf("out[%d] = %g, want %g\n", i, out[i], want[i]);
  return bad;
}

static int test_atomics(void) {
  int n = 512, bad = 0;
  int ia[8] = {0, 0, INT_MAX, INT_MIN, -1, 0, 0, 0};
  unsigned ua[8] = {0, 0, UINT_MAX, 0, 0xffffffff, 0, 0, 0};
  long la[8] = {0, 0, LONG_MAX, LONG_MIN, 0, 0, 0, 0};
  float fa[2] = {0, 0};
  unsigned long ula[4] = {0, 0, 0, 0};
  cl_mem dia = buffer(sizeof ia, ia), dua = buffer(sizeof ua, ua), dla = buffer(sizeof la, la),
         dfa = buffer(sizeof fa, fa), dula = buffer(sizeof ula, ula);
  cl_kernel k = kernel("atomics");
  arg(k, 0, sizeof dia, &dia);
  arg(k, 1, sizeof dua, &dua);
  arg(k, 2, sizeof dla, &dla);
  arg(k, 3, sizeof dfa, &dfa);
  arg(k, 4, sizeof n, &n);
  arg(k, 5, sizeof dula, &dula);
  launch(k, 4, 128);
  read_back(dia, sizeof ia, ia);
  read_back(dua, sizeof ua, ua);
  read_back(dla, sizeof la, la);
  read_back(dfa, sizeof fa, fa);
  read_back(dula, sizeof ula, ula);
  static const int wia[8] = {130816, -512, -100, 511, INT_MIN, INT_MAX, 0, 508};
  static const long wla[8] = {1308160000000000L, -130816, -511, 511L << 33, -1, 0, 512, 0};
  static const unsigned long wula[4] = {1536, 511, 42, 0xffffffffffffffffUL};
  for (int i = 0; i < 8; i++) {
    if (ia[i] != wia[i] && bad++ < 20) printf("ia[%d] = %d, want %d\n", i, ia[i], wia[i]);
    if (la[i] != wla[i] && bad++ < 20) printf("la[%d] = %ld, want %ld\n", i, la[i], wla[i]);
  }
  unsigned wua[8] = {1024, ua[1], 5, 1533, 0, 0xffffffff, 0, ua[7]};
  for (int i = 0; i < 8; i++)
    if (ua[i] != wua[i] && bad++ < 20) printf("ua[%d] = %u, want %u\n", i, ua[i], wua[i]);
  if (ua[1] < 1 || ua[1] > 512 || ua[7] < 1 || ua[7] > 512) {
    printf("ua[1] = %u, ua[7] = %u: want values in 1..512\n", ua[1], ua[7]);
    bad++;
  }
  for (int i = 0; i < 4; i++)
    if (ula[i] != wula[i] && bad++ < 20) printf("ula[%d] = %lu, want %lu\n", i, ula[i], wula[i]);
  if (fa[0] != 256.0f || fa[1] != 1.0f) {
    printf("fa = {%g, %g}, want {256, 1}\n", fa[0], fa[1]);
    bad++;
  }
  return bad;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted lines of text (modified in place). */
static int split_lines(char *text, char **lines, int max) {
  int n = 0;
  for (char *p = text, *nl; *p && n < max; p = nl + 1) {
    nl = strchr(p, '\n');
    if (!nl) nl = p + strlen(p);
    lines[n++] = p;
    if (!*nl) break;
    *nl = 0;
  }
  qsort(lines, (size_t)n, sizeof *lines, cmp_str);
  return n;
}

/* The device's printf goes to this process's stdout: capture it in a file. */
static int test_printf(void) {
  float scale = 0.5f;
  cl_kernel k = kernel("print_ids");
  arg(k, 0, sizeof scale, &scale);
  char path[] = "/tmp/kcc-spirv-printf-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 1;
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  launch(k, 2, 4);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  size_t len = 0;
  char *got = (char *)read_file(path, &len);
  close(fd);
  unlink(path);
  if (!got) return 1;
  got[len] = 0;
  char want[4096] = "";
  size_t w = 0;
  for (int g = 0; g < 8; g++) {
    double x = (double)(g * scale);
    w += (size_t)snprintf(want + w, sizeof want - w,
                          "block %d thread %u global %i: x=%f e=%e g=%g\n", g / 4,
                          (unsigned)(g % 4), g, x, x, x);
    w += (size_t)snprintf(want + w, sizeof want - w,
                          "  hex %x long %ld ulong %lu char %c str %s 100%%\n", g * 255,
                          (long)g * 4000000000L, 18446744073709551615UL - (unsigned long)g, 'A' + g,
                          g % 2 == 0 ? "even" : "odd");
  }
  char *gl[64], *wl[64];
  int ng = split_lines(got, gl, 64), nw = split_lines(want, wl, 64), bad = 0;
  if (ng != nw) {
    printf("%d lines printed, want %d\n", ng, nw);
    bad++;
  }
  for (int i = 0; i < ng && i < nw; i++)
    if (strcmp(gl[i], wl[i]) && bad++ < 5) printf("printed '%s'\n   want '%s'\n", gl[i], wl[i]);
  free(got);
  return bad;
}

static int test_histogram(void) {
  int n = 100000, bad = 0;
  unsigned char *data = host((size_t)n);
  unsigned bins[256] = {0}, want[256] = {0};
  for (int i = 0; i < n; i++) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    data[i] = (unsigned char)(i % 5 == 0 ? 7 : rng >> 56); /* one heavy bin: contention */
    want[data[i]]++;
  }
  cl_mem dd = buffer((size_t)n, data), db = buffer(sizeof bins, bins);
  cl_kernel k = kernel("histogram");
  arg(k, 0, sizeof dd, &dd);
  arg(k, 1, sizeof n, &n);
  arg(k, 2, sizeof db, &db);
  launch(k, 64, 256);
  read_back(db, sizeof bins, bins);
  for (int i = 0; i < 256; i++)
    if (bins[i] != want[i] && bad++ < 5) printf("bins[%d] = %u, want %u\n", i, bins[i], want[i]);
  return bad;
}

static int test_matmul(void) {
  int m = 70, n = 50, kk = 33, bad = 0;
  float *A = host(sizeof(float) * m * kk), *B = host(sizeof(float) * kk * n),
        *C = host(sizeof(float) * m * n);
  for (int i = 0; i < m * kk; i++) A[i] = frand();
  for (int i = 0; i < kk * n; i++) B[i] = frand();
  cl_mem dA = buffer(sizeof(float) * m * kk, A), dB = buffer(sizeof(float) * kk * n, B),
         dC = buffer(sizeof(float) * m * n, NULL);
  cl_kernel k = kernel("matmul");
  arg(k, 0, sizeof dA, &dA);
  arg(k, 1, sizeof dB, &dB);
  arg(k, 2, sizeof dC, &dC);
  arg(k, 3, sizeof m, &m);
  arg(k, 4, sizeof n, &n);
  arg(k, 5, sizeof kk, &kk);
  launch2(k, (size_t)(n + 15) / 16, (size_t)(m + 15) / 16, 16, 16);
  read_back(dC, sizeof(float) * m * n, C);
  for (int r = 0; r < m; r++)
    for (int c = 0; c < n; c++) {
      double s = 0;
      for (int i = 0; i < kk; i++) s += (double)A[r * kk + i] * B[i * n + c];
      if (!close_enough(C[r * n + c], (float)s, 1e-4f) && bad++ < 5)
        printf("C[%d][%d] = %g, want %g\n", r, c, C[r * n + c], s);
    }
  return bad;
}

static float clampf_at(const float *in, int i, int n) {
  return in[i < 0 ? 0 : i >= n ? n - 1 : i];
}

static int test_stencil(void) {
  int n = 1000, bad = 0;
  float *in = host(sizeof(float) * n), *out = host(sizeof(float) * n);
  for (int i = 0; i < n; i++) in[i] = frand();
  cl_mem din = buffer(sizeof(float) * n, in), dout = buffer(sizeof(float) * n, NULL);
  cl_kernel k = kernel("stencil1d");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof n, &n);
  launch(k, (size_t)(n + 255) / 256, 256);
  read_back(dout, sizeof(float) * n, out);
  for (int i = 0; i < n; i++) {
    float want = 0.25f * clampf_at(in, i - 1, n) + 0.5f * in[i] + 0.25f * clampf_at(in, i + 1, n);
    if (!close_enough(out[i], want, 1e-6f) && bad++ < 5)
      printf("1d out[%d] = %g, want %g\n", i, out[i], want);
  }
  int w = 37, h = 29;
  float *in2 = host(sizeof(float) * w * h), *out2 = host(sizeof(float) * w * h);
  for (int i = 0; i < w * h; i++) in2[i] = frand();
  cl_mem din2 = buffer(sizeof(float) * w * h, in2), dout2 = buffer(sizeof(float) * w * h, NULL);
  k = kernel("stencil2d");
  arg(k, 0, sizeof din2, &din2);
  arg(k, 1, sizeof dout2, &dout2);
  arg(k, 2, sizeof w, &w);
  arg(k, 3, sizeof h, &h);
  launch2(k, (size_t)(w + 15) / 16, (size_t)(h + 15) / 16, 16, 16);
  read_back(dout2, sizeof(float) * w * h, out2);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const float *p = in2 + y * w + x;
      float want = (x > 0 && x < w - 1 && y > 0 && y < h - 1)
                       ? 0.5f * p[0] + 0.125f * (p[-1] + p[1] + p[-w] + p[w])
                       : p[0];
      if (!close_enough(out2[y * w + x], want, 1e-6f) && bad++ < 10)
        printf("2d out[%d][%d] = %g, want %g\n", y, x, out2[y * w + x], want);
    }
  return bad;
}

static int test_transpose(void) {
  int w = 70, h = 45, bad = 0;
  float *in = host(sizeof(float) * w * h), *out = host(sizeof(float) * w * h);
  for (int i = 0; i < w * h; i++) in[i] = frand();
  cl_mem din = buffer(sizeof(float) * w * h, in), dout = buffer(sizeof(float) * w * h, NULL);
  cl_kernel k = kernel("transpose");
  arg(k, 0, sizeof dout, &dout);
  arg(k, 1, sizeof din, &din);
  arg(k, 2, sizeof w, &w);
  arg(k, 3, sizeof h, &h);
  launch2(k, (size_t)(w + 31) / 32, (size_t)(h + 31) / 32, 32, 8);
  read_back(dout, sizeof(float) * w * h, out);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      if (out[x * h + y] != in[y * w + x] && bad++ < 5)
        printf("out[%d] = %g, want %g\n", x * h + y, out[x * h + y], in[y * w + x]);
  return bad;
}

static int near(double got, double want, double rel) {
  return fabs(got - want) <= rel * (fabs(want) + 1e-300) || got == want;
}

static int test_fp64(void) {
  int n = 1000, bad = 0;
  double *x = host(sizeof(double) * n), *out = host(sizeof(double) * 8 * n);
  for (int i = 0; i < n; i++) x[i] = 0.5 + 3.5 * (frand() + 1) / 2;
  cl_mem dx = buffer(sizeof(double) * n, x), dout = buffer(sizeof(double) * 8 * n, NULL);
  cl_kernel k = kernel("fp64_math");
  arg(k, 0, sizeof dx, &dx);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof n, &n);
  launch(k, (size_t)(n + 127) / 128, 128);
  read_back(dout, sizeof(double) * 8 * n, out);
  for (int i = 0; i < n; i++) {
    double v = x[i];
    double want[8] = {sqrt(v),
                      exp(v),
                      log(v),
                      sin(v) + cos(v),
                      pow(v, 1.5),
                      fma(v, v, -1.0),
                      atan2(v, 2.0) + tanh(v) + cbrt(v),
                      floor(v * 10.0) / 10.0 + fabs(-v) + fmin(v, 2.0) + fmax(v, 2.0)};
    for (int j = 0; j < 8; j++)
      if (!near(out[8 * i + j], want[j], 1e-13) && bad++ < 5)
        printf("out[%d] (v = %.17g) = %.17g, want %.17g\n", 8 * i + j, v, out[8 * i + j], want[j]);
  }
  return bad;
}

static int test_math32(void) {
  int n = 2000, bad = 0;
  float *x = host(sizeof(float) * n), *out = host(sizeof(float) * 12 * n);
  for (int i = 0; i < n; i++) x[i] = 0.1f + 0.8f * (frand() + 1) / 2;
  cl_mem dx = buffer(sizeof(float) * n, x), dout = buffer(sizeof(float) * 12 * n, NULL);
  cl_kernel k = kernel("math32");
  arg(k, 0, sizeof dx, &dx);
  arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof n, &n);
  launch(k, (size_t)(n + 255) / 256, 256);
  read_back(dout, sizeof(float) * 12 * n, out);
  for (int i = 0; i < n; i++) {
    float v = x[i];
    float want[12] = {sqrtf(v),
                      1.0f / sqrtf(v),
                      expf(v) + exp2f(v),
                      logf(v) + log2f(v) + log10f(v),
                      sinf(v) * cosf(v),
                      tanf(v) + atanf(v),
                      asinf(v) + acosf(v),
                      powf(v, 2.5f),
                      tanhf(v) + sinhf(v) + coshf(v),
                      fmaf(v, 3.0f, 1.0f) + fabsf(v - 0.5f),
                      floorf(v * 8) + ceilf(v * 8) + roundf(v * 8) + truncf(v * 8) + rintf(v * 8),
                      fminf(v, 0.5f) + fmaxf(v, 0.5f) + hypotf(v, 1.0f) + fmodf(v * 10, 3.0f) +
                          erff(v) + copysignf(1.0f, v - 0.5f) + (isnan(v) ? 100 : 0) +
                          (isfinite(v) ? 1 : 0)};
    for (int j = 0; j < 12; j++) {
      double tol = j == 10 ? 0 : 1e-5;
      if (!near(out[12 * i + j], want[j], tol) && bad++ < 5)
        printf("out[%d] (v = %.9g) = %.9g, want %.9g\n", 12 * i + j, v, out[12 * i + j], want[j]);
    }
  }
  return bad;
}

/* driver_bugs.k: kcc's workarounds for PoCL 3.1 bugs (docs/driver-bugs.md) on the SPIR path:
 * a written struct parameter gets a private copy, and rint() of a constant >= 2^31 no longer
 * makes the kernel lose its stores. */
static int test_driver_bugs(void) {
  int n = 64 * 64, bad = 0;
  int *out = host(sizeof(int) * n);
  memset(out, 0, sizeof(int) * n);
  struct {
    int base, scale, hist[4];
  } p = {-17, 3, {0, 0, 0, 0}};
  cl_mem dout = buffer(sizeof(int) * n, out);
  cl_kernel k = kernel("byval_written");
  arg(k, 0, sizeof dout, &dout);
  arg(k, 1, sizeof p, &p);
  launch(k, (size_t)n / 64, 64);
  read_back(dout, sizeof(int) * n, out);
  for (int i = 0; i < n; i++) {
    int want = (p.base + i) * 1000 + (p.scale + 1) * 10 + 1;
    if (out[i] != want && bad++ < 5)
      printf("byval_written: out[%d] = %d, want %d\n", i, out[i], want);
  }

  int m = 1000;
  float *in = host(sizeof(float) * m), *fo = host(sizeof(float) * 2 * m);
  double *dd = host(sizeof(double) * m);
  for (int i = 0; i < m; i++) in[i] = i % 3 ? frand() * 100.0f : frand() * 1e10f;
  cl_mem din = buffer(sizeof(float) * m, in), dfo = buffer(sizeof(float) * 2 * m, NULL),
         ddo = buffer(sizeof(double) * m, NULL);
  k = kernel("rint_big");
  arg(k, 0, sizeof din, &din);
  arg(k, 1, sizeof dfo, &dfo);
  arg(k, 2, sizeof ddo, &ddo);
  arg(k, 3, sizeof m, &m);
  launch(k, (size_t)(m + 63) / 64, 64);
  read_back(dfo, sizeof(float) * 2 * m, fo);
  read_back(ddo, sizeof(double) * m, dd);
  for (int i = 0; i < m; i++) {
    float w0 = rintf(3e9f) + (float)i, w1 = rintf(in[i]);
    double wd = rint(4294967296.5) + rint((double)in[i]);
    if ((fo[2 * i] != w0 || fo[2 * i + 1] != w1 || dd[i] != wd) && bad++ < 5)
      printf("rint_big[%d] (in %.9g): %.9g %.9g %.17g, want %.9g %.9g %.17g\n", i, in[i], fo[2 * i],
             fo[2 * i + 1], dd[i], w0, w1, wd);
  }
  return bad;
}

/* ---------------------------------------------------------------- vec_kir (vec_kir.c) */

static unsigned rnd32(void) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(rng >> 32);
}

/* float bits equal, or both NaN */
static int same_f(float a, float b) {
  return (isnan(a) && isnan(b)) || a == b;
}

static int sat_i(double v, double lo, double hi) {
  if (isnan(v)) return 0;
  return v < lo ? (int)lo : v > hi ? (int)hi : (int)v;
}

static long long clampll(long long v, long long lo, long long hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

struct SV {
  float f;
  float v3[4] __attribute__((aligned(16)));
  signed char c;
  float v4[4] __attribute__((aligned(16)));
};

static int vec_arith(int n) {
  int bad = 0;
  float *a = host(16 * n), *b = host(16 * n), *fo = host(16 * 8 * n), k[4] = {0.5f, -1, 2, 3};
  int *ia = host(16 * n), *ib = host(16 * n), *io = host(16 * 16 * n);
  for (int i = 0; i < 4 * n; i++) {
    a[i] = frand(), b[i] = frand();
    ia[i] = (int)(rnd32() % 2001) - 1000;
    ib[i] = (int)(rnd32() % 100) - 50;
    if (ib[i] == 0) ib[i] = 7;
    if (i % 5 == 0) ia[i] = ib[i], b[i] = a[i];
  }
  cl_mem da = buffer(16 * n, a), db = buffer(16 * n, b), dfo = buffer(16 * 8 * n, NULL),
         dia = buffer(16 * n, ia), dib = buffer(16 * n, ib), dio = buffer(16 * 16 * n, NULL);
  cl_kernel kk = kernel("vec_arith");
  arg(kk, 0, sizeof da, &da), arg(kk, 1, sizeof db, &db), arg(kk, 2, sizeof dfo, &dfo);
  arg(kk, 3, sizeof dia, &dia), arg(kk, 4, sizeof dib, &dib), arg(kk, 5, sizeof dio, &dio);
  arg(kk, 6, sizeof k, k);
  launch(kk, (size_t)n / 64, 64);
  read_back(dfo, 16 * 8 * n, fo);
  read_back(dio, 16 * 16 * n, io);
  static const float ctab[2][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
  for (int i = 0; i < n; i++) {
    const float *x = a + 4 * i, *y = b + 4 * i;
    const int *p = ia + 4 * i, *q = ib + 4 * i;
    float z[4], wf[8][4];
    for (int c = 0; c < 4; c++) {
      volatile float t = x[c] * y[c];
      t = t - 1.0f;
      z[c] = t + 1.0f;
    }
    for (int c = 0; c < 4; c++) {
      wf[0][c] = x[c] + y[c], wf[1][c] = x[c] - y[c], wf[2][c] = x[c] * y[c];
      wf[3][c] = x[c] / y[c], wf[4][c] = -x[c] + k[c], wf[5][c] = 2.5f * x[c];
      wf[6][c] = (float)p[c] + ctab[i & 1][c];
      volatile float h = z[c] * 0.5f;
      wf[7][c] = h + z[3 - c];
    }
    for (int r = 0; r < 8; r++)
      for (int c = 0; c < 4; c++) {
        float got = fo[32 * i + 4 * r + c];
        if (!(r == 3 ? close_enough(got, wf[r][c], 1e-6f) : same_f(got, wf[r][c])) && bad++ < 10)
          printf("vec_arith fo[%d].%d[%d] = %.9g, want %.9g\n", i, r, c, got, wf[r][c]);
      }
    for (int c = 0; c < 4; c++) {
      unsigned up = (unsigned)p[c];
      int sh = q[c] & 31, w = ((p[c] + q[c]) - 1);
      w = (int)((unsigned)w << 2) | (p[c] != q[c] ? -1 : 0);
      int want[16] = {p[c] + q[c],
                      p[c] - q[c],
                      p[c] * q[c],
                      p[c] / q[c],
                      p[c] % q[c],
                      p[c] & q[c],
                      p[c] | q[c],
                      p[c] ^ q[c],
                      ~p[c],
                      -p[c],
                      (int)(up << sh),
                      p[c] >> sh,
                      p[c] < q[c] ? -1 : 0,
                      x[c] >= y[c] ? -1 : 0,
                      (int)(x[c] * 100.0f),
                      w};
      for (int r = 0; r < 16; r++)
        if (io[64 * i + 4 * r + c] != want[r] && bad++ < 10)
          printf("vec_arith io[%d].%d[%d] = %d, want %d (p %d q %d)\n", i, r, c,
                 io[64 * i + 4 * r + c], want[r], p[c], q[c]);
    }
  }
  return bad;
}

static int vec_swz(int n) {
  int bad = 0;
  float *a = host(16 * n), *o = host(16 * 4 * n);
  struct SV *s = host(sizeof *s * n), *sg = host(sizeof *s * n);
  if (sizeof(struct SV) != 64) return printf("host struct SV is not 64 bytes\n"), 1;
  for (int i = 0; i < 4 * n; i++) a[i] = frand();
  memset(s, 0, sizeof *s * n);
  for (int i = 0; i < n; i++) {
    s[i].f = frand(), s[i].c = (signed char)(rnd32() % 200 - 100);
    for (int c = 0; c < 4; c++) s[i].v3[c] = frand(), s[i].v4[c] = frand();
  }
  cl_mem da = buffer(16 * n, a), dout = buffer(16 * 4 * n, NULL), ds = buffer(sizeof *s * n, s);
  cl_kernel k = kernel("vec_swz");
  arg(k, 0, sizeof da, &da), arg(k, 1, sizeof dout, &dout), arg(k, 2, sizeof ds, &ds);
  launch(k, (size_t)n / 64, 64);
  read_back(dout, 16 * 4 * n, o);
  read_back(ds, sizeof *s * n, sg);
  for (int i = 0; i < n; i++) {
    const float *v0 = a + 4 * i;
    float v[4] = {v0[0], v0[1], v0[2], v0[3]}, t2[2] = {v0[3], v0[0]};
    float w[4][4];
    w[0][0] = t2[0], w[0][1] = t2[1], w[0][2] = v[2], w[0][3] = v[1];
    float ox = v[1], oz = v[3];
    v[0] = ox, v[2] = oz;
    v[3] += 1.0f;
    v[1] += 1.0f, v[0] += 1.0f;
    v[2] = 7.0f;
    v[3] *= t2[1], v[2] *= t2[0];
    memcpy(w[1], v, sizeof v);
    w[2][0] = t2[1], w[2][1] = 1.0f, w[2][2] = v0[0], w[2][3] = 2.0f;
    struct SV r = s[i];
    r.v3[2] = r.v4[1], r.v3[0] = r.v4[3];
    r.v4[1] *= 2.0f;
    r.f = r.v3[1] + (float)r.c;
    w[3][0] = r.v3[0], w[3][1] = r.v3[1], w[3][2] = r.v3[2], w[3][3] = r.f;
    for (int j = 0; j < 4; j++)
      for (int c = 0; c < 4; c++)
        if (!same_f(o[16 * i + 4 * j + c], w[j][c]) && bad++ < 10)
          printf("vec_swz o[%d].%d[%d] = %.9g, want %.9g\n", i, j, c, o[16 * i + 4 * j + c],
                 w[j][c]);
    if ((sg[i].f != r.f || sg[i].c != r.c || memcmp(sg[i].v3, r.v3, 12) ||
         memcmp(sg[i].v4, r.v4, 16)) &&
        bad++ < 10)
      printf("vec_swz s[%d] = {%g, {%g %g %g}, %d, {%g %g %g %g}}, want {%g, {%g %g %g}, %d, "
             "{%g %g %g %g}}\n",
             i, sg[i].f, sg[i].v3[0], sg[i].v3[1], sg[i].v3[2], sg[i].c, sg[i].v4[0], sg[i].v4[1],
             sg[i].v4[2], sg[i].v4[3], r.f, r.v3[0], r.v3[1], r.v3[2], r.c, r.v4[0], r.v4[1],
             r.v4[2], r.v4[3]);
  }
  return bad;
}

static int vec_types(int n) {
  int bad = 0;
  signed char *c = host(16 * n), *cg = host(16 * n);
  short *s = host(16 * n), *sgot = host(16 * n);
  double *d = host(16 * n), *dg = host(16 * n);
  float *f = host(16 * n), *fg = host(16 * n);
  long *l = host(32 * n), *lg = host(32 * n);
  unsigned char *u = host(4 * n), *ug = host(4 * n);
  for (int i = 0; i < 16 * n; i++) c[i] = (signed char)rnd32();
  for (int i = 0; i < 8 * n; i++) s[i] = (short)((int)(rnd32() % 20001) - 10000);
  for (int i = 0; i < 2 * n; i++) d[i] = 0.01 + 100.0 * (frand() + 1);
  for (int i = 0; i < 4 * n; i++) f[i] = frand() * 10;
  for (int i = 0; i < 4 * n; i++)
    l[i] = (long)((long long)rnd32() << 16 ^ (long long)rnd32()) - (1ll << 47);
  for (int i = 0; i < 4 * n; i++) u[i] = (unsigned char)rnd32();
  cl_mem dc = buffer(16 * n, c), ds = buffer(16 * n, s), dd = buffer(16 * n, d),
         df = buffer(16 * n, f), dl = buffer(32 * n, l), du = buffer(4 * n, u);
  cl_kernel k = kernel("vec_types");
  arg(k, 0, sizeof dc, &dc), arg(k, 1, sizeof ds, &ds), arg(k, 2, sizeof dd, &dd);
  arg(k, 3, sizeof df, &df), arg(k, 4, sizeof dl, &dl), arg(k, 5, sizeof du, &du);
  launch(k, (size_t)n / 64, 64);
  read_back(dc, 16 * n, cg), read_back(ds, 16 * n, sgot), read_back(dd, 16 * n, dg);
  read_back(df, 16 * n, fg), read_back(dl, 32 * n, lg), read_back(du, 4 * n, ug);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 16; j++) {
      signed char want = (signed char)(c[16 * i + 15 - j] ^ 0x5a);
      if (cg[16 * i + j] != want && bad++ < 10)
        printf("vec_types c[%d][%d] = %d, want %d\n", i, j, cg[16 * i + j], want);
    }
    for (int j = 0; j < 8; j++) {
      short want = (short)((short)(s[8 * i + j] * 3) >> 1);
      if (sgot[8 * i + j] != want && bad++ < 10)
        printf("vec_types s[%d][%d] = %d, want %d\n", i, j, sgot[8 * i + j], want);
    }
    for (int j = 0; j < 2; j++) {
      double x = d[2 * i + j], want = fma(sqrt(x), x, 0.25);
      if (!near(dg[2 * i + j], want, 1e-15) && bad++ < 10)
        printf("vec_types d[%d][%d] = %.17g, want %.17g\n", i, j, dg[2 * i + j], want);
    }
    const float *x = f + 4 * i;
    float wf[3] = {x[0] * x[2], x[1] * x[0], x[2] * x[1]};
    for (int j = 0; j < 3; j++)
      if (fg[4 * i + j] != wf[j] && bad++ < 10)
        printf("vec_types f[%d][%d] = %g, want %g\n", i, j, fg[4 * i + j], wf[j]);
    for (int j = 0; j < 4; j++) {
      long v = l[4 * i + j], want = (long)((unsigned long)v << 3) - (v >> 2);
      if (lg[4 * i + j] != want && bad++ < 10)
        printf("vec_types l[%d][%d] = %ld, want %ld\n", i, j, lg[4 * i + j], want);
    }
    static const unsigned char add[3] = {1, 2, 200};
    for (int j = 0; j < 3; j++)
      if (ug[4 * i + j] != (unsigned char)(u[4 * i + j] + add[j]) && bad++ < 10)
        printf("vec_types u[%d][%d] = %d, want %d\n", i, j, ug[4 * i + j],
               (unsigned char)(u[4 * i + j] + add[j]));
  }
  return bad;
}

static int vec_builtins(int n) {
  int bad = 0, csel = 0;
  float *x = host(16 * n), *fo = host(16 * 5 * n);
  int *p = host(16 * n), *io = host(16 * 8 * n);
  unsigned *u = host(16 * n), *uo = host(16 * 4 * n);
  unsigned char *uc = host(4 * n);
  short *sh = host(8 * n);
  signed char *ch = host(4 * n);
  for (int i = 0; i < 4 * n; i++) {
    x[i] = frand() * 2;
    p[i] = (int)rnd32();
    if (i % 3 == 0) p[i] >>= (i % 29);
    u[i] = rnd32();
  }
  for (int i = 0; i < n; i++) {
    if (i % 8 == 0) x[4 * i + 1] = NAN;
    if (i % 8 == 1) x[4 * i + 2] = INFINITY;
    if (i % 8 == 2) x[4 * i + 3] = -INFINITY;
    if (i % 8 == 3) x[4 * i] = 0.0f;
  }
  cl_mem dx = buffer(16 * n, x), dp = buffer(16 * n, p), du = buffer(16 * n, u),
         dfo = buffer(16 * 5 * n, NULL), dio = buffer(16 * 8 * n, NULL),
         duo = buffer(16 * 4 * n, NULL), duc = buffer(4 * n, NULL), dsh = buffer(8 * n, NULL),
         dch = buffer(4 * n, NULL);
  for (int pass = 0; pass < 2; pass++) {
    csel = pass ? -3 : 0;
    cl_kernel k = kernel("vec_builtins");
    arg(k, 0, sizeof dx, &dx), arg(k, 1, sizeof dp, &dp), arg(k, 2, sizeof du, &du);
    arg(k, 3, sizeof dfo, &dfo), arg(k, 4, sizeof dio, &dio), arg(k, 5, sizeof duo, &duo);
    arg(k, 6, sizeof duc, &duc), arg(k, 7, sizeof dsh, &dsh), arg(k, 8, sizeof dch, &dch);
    arg(k, 9, sizeof csel, &csel);
    launch(k, (size_t)n / 64, 64);
    read_back(dfo, 16 * 5 * n, fo), read_back(dio, 16 * 8 * n, io);
    read_back(duo, 16 * 4 * n, uo), read_back(duc, 4 * n, uc), read_back(dsh, 8 * n, sh);
    read_back(dch, 4 * n, ch);
    for (int i = 0; i < n; i++) {
      const float *xv = x + 4 * i;
      const int *pv = p + 4 * i;
      const unsigned *uv = u + 4 * i;
      for (int c = 0; c < 4; c++) {
        float xr = xv[3 - c];
        float nx;
        unsigned bits;
        memcpy(&bits, &xv[c], 4);
        bits ^= 0x80000000u;
        memcpy(&nx, &bits, 4);
        float wf[5] = {sqrtf(fabsf(xv[c])), fminf(xv[c], xr), pv[c] < 0 ? xr : xv[c], nx,
                       csel ? 9.0f : xv[c]};
        for (int r = 0; r < 5; r++) {
          float got = fo[20 * i + 4 * r + c];
          int ok =
              r == 0 ? (same_f(got, wf[0]) || close_enough(got, wf[0], 1e-6f)) : same_f(got, wf[r]);
          if (r == 3) ok = !memcmp(&got, &wf[3], 4);
          if (!ok && bad++ < 10)
            printf("vec_builtins fo[%d].%d[%d] = %.9g, want %.9g (x %.9g)\n", i, r, c, got, wf[r],
                   xv[c]);
        }
        int pn = pv[(c + 1) & 3];
        unsigned un = uv[(c + 1) & 3];
        int wi[8] = {isnan(xv[c]) ? -1 : 0,
                     isinf(xv[c]) ? -1 : 0,
                     __builtin_popcount((unsigned)pv[c]),
                     pv[c] ? __builtin_clz((unsigned)pv[c]) : 32,
                     (int)(((long long)pv[c] * pn) >> 32),
                     pv[c] < pv[3 - c] ? pv[c] : pv[3 - c],
                     (int)(pv[c] < 0 ? 0u - (unsigned)pv[c] : (unsigned)pv[c]),
                     sat_i((double)(xv[c] * 3e9f), -2147483648.0, 2147483647.0)};
        for (int r = 0; r < 8; r++)
          if (io[32 * i + 4 * r + c] != wi[r] && bad++ < 10)
            printf("vec_builtins io[%d].%d[%d] = %d, want %d (x %.9g p %d)\n", i, r, c,
                   io[32 * i + 4 * r + c], wi[r], xv[c], pv[c]);
        unsigned wu[4] = {(unsigned)(((unsigned long long)uv[c] * un) >> 32),
                          pv[c] < 0 ? 0u : (unsigned)pv[c], uv[c] > uv[3 - c] ? uv[c] : uv[3 - c],
                          uv[c] > 2147483647u ? 2147483647u : uv[c]};
        for (int r = 0; r < 4; r++)
          if (uo[16 * i + 4 * r + c] != wu[r] && bad++ < 10)
            printf("vec_builtins uo[%d].%d[%d] = %u, want %u\n", i, r, c, uo[16 * i + 4 * r + c],
                   wu[r]);
        unsigned char wuc = (unsigned char)clampll(pv[c], 0, 255);
        short wsh = (short)clampll((int)((unsigned)pv[c] * 100u), -32768, 32767);
        signed char wch = (signed char)sat_i((double)(xv[c] * 200.0f), -128, 127);
        if ((uc[4 * i + c] != wuc || sh[4 * i + c] != wsh || ch[4 * i + c] != wch) && bad++ < 10)
          printf("vec_builtins sat[%d][%d] = %d %d %d, want %d %d %d (p %d x %g)\n", i, c,
                 uc[4 * i + c], sh[4 * i + c], ch[4 * i + c], wuc, wsh, wch, pv[c], xv[c]);
      }
    }
  }
  return bad;
}

static int vec_vload(int n) {
  int bad = 0, total = 33 * n;
  float *src = host(sizeof(float) * total), *dst = host(sizeof(float) * total);
  unsigned char *bs = host(3 * n), *bd = host(3 * n);
  for (int i = 0; i < total; i++) src[i] = frand();
  for (int i = 0; i < 3 * n; i++) bs[i] = (unsigned char)rnd32();
  cl_mem dsrc = buffer(sizeof(float) * total, src), ddst = buffer(sizeof(float) * total, NULL),
         dbs = buffer(3 * n, bs), dbd = buffer(3 * n, NULL);
  cl_kernel k = kernel("vec_vload");
  unsigned un = (unsigned)n;
  arg(k, 0, sizeof dsrc, &dsrc), arg(k, 1, sizeof ddst, &ddst), arg(k, 2, sizeof dbs, &dbs);
  arg(k, 3, sizeof dbd, &dbd), arg(k, 4, sizeof un, &un);
  launch(k, (size_t)n / 64, 64);
  read_back(ddst, sizeof(float) * total, dst);
  read_back(dbd, 3 * n, bd);
  static const int ns[5] = {2, 3, 4, 8, 16};
  for (int j = 0, base = 0; j < 5; base += n * ns[j], j++)
    for (int e = 0; e < n * ns[j]; e++) {
      float want = src[base + e] * 2.0f + (float)j;
      if (dst[base + e] != want && bad++ < 10)
        printf("vec_vload N=%d dst[%d] = %g, want %g\n", ns[j], e, dst[base + e], want);
    }
  for (int e = 0; e < 3 * n; e++)
    if (bd[e] != (unsigned char)(bs[e] + 1) && bad++ < 10)
      printf("vec_vload uchar3 [%d] = %d, want %d\n", e, bd[e], (unsigned char)(bs[e] + 1));
  return bad;
}

static int vec_local(int n) {
  int bad = 0;
  float *in = host(sizeof(float) * n), *out = host(sizeof(float) * n);
  for (int i = 0; i < n; i++) in[i] = frand();
  cl_mem din = buffer(sizeof(float) * n, in), dout = buffer(sizeof(float) * n, NULL);
  cl_kernel k = kernel("vec_local");
  size_t wg[3] = {0, 0, 0};
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL));
  if (wg[0] != 64 || wg[1] != 1 || wg[2] != 1) {
    printf("vec_local: compile work-group size %zu %zu %zu, want 64 1 1\n", wg[0], wg[1], wg[2]);
    bad++;
  }
  arg(k, 0, sizeof din, &din), arg(k, 1, sizeof dout, &dout);
  arg(k, 2, sizeof(float) * 64, NULL), arg(k, 3, 16 * 64, NULL);
  launch(k, (size_t)n / 64, 64);
  read_back(dout, sizeof(float) * n, out);
  for (int i = 0; i < n; i++) {
    float m = in[i / 64 * 64 + 63 - i % 64], want = m + (m + 1.0f);
    if (out[i] != want && bad++ < 10) printf("vec_local out[%d] = %g, want %g\n", i, out[i], want);
  }
  return bad;
}

static int vec_more(int n) {
  int bad = 0;
  float *x = host(16 * n), *fo = host(16 * 6 * n);
  int *p = host(16 * n), *io = host(16 * 5 * n);
  unsigned *u = host(16 * n), *uo = host(16 * 3 * n), *us = host(4 * n);
  for (int i = 0; i < 4 * n; i++) {
    x[i] = frand() * 2, p[i] = (int)rnd32() >> (i % 24), u[i] = rnd32() >> (i % 19);
    if (i % 6 == 0) x[i] = x[i ^ 1];
    if (i % 10 == 0) p[i] = 0;
  }
  for (int i = 0; i < n; i++) {
    if (i % 8 == 0) x[4 * i + 1] = NAN;
    if (i % 8 == 1) x[4 * i + 2] = INFINITY;
    if (i % 8 == 3) x[4 * i + 1] = 0.0f;
  }
  cl_mem dx = buffer(16 * n, x), dp = buffer(16 * n, p), du = buffer(16 * n, u),
         dfo = buffer(16 * 6 * n, NULL), dio = buffer(16 * 5 * n, NULL),
         duo = buffer(16 * 3 * n, NULL), dus = buffer(4 * n, NULL);
  cl_kernel k = kernel("vec_more");
  arg(k, 0, sizeof dx, &dx), arg(k, 1, sizeof dp, &dp), arg(k, 2, sizeof du, &du);
  arg(k, 3, sizeof dfo, &dfo), arg(k, 4, sizeof dio, &dio), arg(k, 5, sizeof duo, &duo);
  arg(k, 6, sizeof dus, &dus);
  launch(k, (size_t)n / 64, 64);
  read_back(dfo, 16 * 6 * n, fo), read_back(dio, 16 * 5 * n, io), read_back(duo, 16 * 3 * n, uo);
  read_back(dus, 4 * n, us);
  for (int i = 0; i < n; i++) {
    const float *xv = x + 4 * i;
    const int *pv = p + 4 * i;
    const unsigned *uv = u + 4 * i;
    for (int c = 0; c < 4; c++) {
      float pf, zero = 0.0f;
      memcpy(&pf, &pv[c], 4);
      float wf[6] = {rintf(xv[c] * 1000.0f),
                     rintf(xv[c] * 3e9f),
                     xv[1] > 0 ? xv[c] : xv[3 - c],
                     c < 3 ? xv[c] : zero,
                     c < 3 ? pf : zero,
                     c == 0 ? 7.0f : c == 1 ? -8.0f : c == 2 ? 9.0f : 1.0f};
      for (int r = 0; r < 6; r++) {
        float got = fo[24 * i + 4 * r + c];
        bool ok = r >= 3 ? !memcmp(&got, &wf[r], 4) : same_f(got, wf[r]);
        if (!ok && bad++ < 10)
          printf("vec_more fo[%d].%d[%d] = %.9g, want %.9g (x %.9g)\n", i, r, c, got, wf[r], xv[c]);
      }
      int wi[5] = {isfinite(xv[c]) ? -1 : 0, xv[c] == xv[c ^ 1] ? -1 : 0,
                   xv[c] <= xv[3 - c] ? -1 : 0, pv[c] > pv[(c + 1) & 3] ? -1 : 0,
                   pv[c] != 0 ? -1 : 0};
      for (int r = 0; r < 5; r++)
        if (io[20 * i + 4 * r + c] != wi[r] && bad++ < 10)
          printf("vec_more io[%d].%d[%d] = %d, want %d\n", i, r, c, io[20 * i + 4 * r + c], wi[r]);
      unsigned wu[3] = {uv[c] / (uv[(c + 1) & 3] | 1), uv[c] >> (uv[c] & 31),
                        uv[c] % (uv[3 - c] | 1)};
      for (int r = 0; r < 3; r++)
        if (uo[12 * i + 4 * r + c] != wu[r] && bad++ < 10)
          printf("vec_more uo[%d].%d[%d] = %u, want %u\n", i, r, c, uo[12 * i + 4 * r + c], wu[r]);
    }
    unsigned wus = (unsigned)(unsigned char)pv[0] | (unsigned)(unsigned char)pv[1] << 8 |
                   (unsigned)(unsigned char)pv[2] << 16;
    if (us[i] != wus && bad++ < 10) printf("vec_more us[%d] = %#x, want %#x\n", i, us[i], wus);
  }
  return bad;
}

static int test_vec_kir(void) {
  int n = 256;
  int bad = 0;
  bad += vec_arith(n);
  bad += vec_swz(n);
  bad += vec_types(n);
  bad += vec_builtins(n);
  bad += vec_vload(n);
  bad += vec_local(n);
  bad += vec_more(n);
  return bad;
}

/* vec_spirv_ops.k: vectors through the .k front end. */
struct Pt {
  float p[4] __attribute__((aligned(16)));
  int tag;
  float w[4] __attribute__((aligned(16)));
};

static int test_vec_spirv_ops(void) {
  int n = 256, bad = 0;
  float k = 1.5f;
  float *a = host(16 * n), *b = host(16 * n), *fo = host(16 * 6 * n);
  int *ia = host(16 * n), *ib = host(16 * n), *io = host(16 * 4 * n);
  struct Pt *pts = host(sizeof *pts * n), *pg = host(sizeof *pts * n);
  memset(pts, 0, sizeof *pts * n);
  for (int i = 0; i < 4 * n; i++) {
    a[i] = frand(), b[i] = frand();
    ia[i] = (int)(rnd32() % 2001) - 1000, ib[i] = (int)(rnd32() % 101) - 50;
    if (i % 7 == 0) ib[i] = ia[i];
  }
  for (int i = 0; i < n; i++) {
    pts[i].tag = (int)(rnd32() % 1000);
    for (int c = 0; c < 4; c++) pts[i].p[c] = frand(), pts[i].w[c] = frand();
  }
  cl_mem da = buffer(16 * n, a), db = buffer(16 * n, b), dfo = buffer(16 * 6 * n, NULL),
         dia = buffer(16 * n, ia), dib = buffer(16 * n, ib), dio = buffer(16 * 4 * n, NULL),
         dp = buffer(sizeof *pts * n, pts);
  cl_kernel kk = kernel("vec_ops");
  arg(kk, 0, sizeof da, &da), arg(kk, 1, sizeof db, &db), arg(kk, 2, sizeof dfo, &dfo);
  arg(kk, 3, sizeof dia, &dia), arg(kk, 4, sizeof dib, &dib), arg(kk, 5, sizeof dio, &dio);
  arg(kk, 6, sizeof dp, &dp), arg(kk, 7, sizeof k, &k);
  launch(kk, (size_t)n / 64, 64);
  read_back(dfo, 16 * 6 * n, fo), read_back(dio, 16 * 4 * n, io);
  read_back(dp, sizeof *pts * n, pg);
  for (int i = 0; i < n; i++) {
    const float *x = a + 4 * i, *y = b + 4 * i;
    const int *p = ia + 4 * i, *q = ib + 4 * i;
    float z[4] = {y[1], x[1], y[3], x[3]};
    z[3] += 1.0f, z[1] += 1.0f, z[0] += 1.0f, z[1] += 1.0f;
    for (int c = 0; c < 4; c++) z[c] *= 2.0f;
    float l[4] = {x[3], x[0], y[2], y[1]};
    for (int c = 0; c < 4; c++) {
      float want[6] = {x[c] + y[c] * k,           l[c] / y[c],
                       z[c] * 0.5f + z[3 - c],    x[c] < y[c] ? x[c] : y[c],
                       (float)(c + 1) - x[3 - c], c < 3 ? pts[i].p[c] : (float)pts[i].tag};
      for (int r = 0; r < 6; r++) {
        float got = fo[24 * i + 4 * r + c];
        bool ok = r < 3 ? close_enough(got, want[r], 1e-6f) : got == want[r];
        if (!ok && bad++ < 10)
          printf("vec_ops fo[%d].%d[%d] = %.9g, want %.9g\n", i, r, c, got, want[r]);
      }
      int w = c == 1 ? q[0] : c == 3 ? q[2] : p[c];
      int wi[4] = {p[c] + q[c] * 3 - (p[c] >> 2) + (int)((unsigned)q[c] << 1),
                   (p[c] & q[c]) | (p[c] ^ ~q[c]), -(p[c] < q[c]) - (p[c] == q[c]), w - 7};
      for (int r = 0; r < 4; r++)
        if (io[16 * i + 4 * r + c] != wi[r] && bad++ < 10)
          printf("vec_ops io[%d].%d[%d] = %d, want %d\n", i, r, c, io[16 * i + 4 * r + c], wi[r]);
    }
    struct Pt r = pts[i];
    r.p[2] = r.w[1], r.p[0] = r.w[3], r.w[1] *= 3.0f, r.tag += 1;
    if ((memcmp(pg[i].p, r.p, 12) || memcmp(pg[i].w, r.w, 16) || pg[i].tag != r.tag) && bad++ < 10)
      printf("vec_ops pts[%d] differs\n", i);
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: spirv_run TEST FILE.bc [FILE.spv]\n");
    return 2;
  }
  if (!open_device()) {
    printf("no OpenCL CPU device: skipped\n");
    return 77;
  }
  load_program(argv[2], argc == 4 ? argv[3] : NULL);
  static const struct {
    const char *name;
    int (*fn)(void);
  } tests[] = {{"vecadd", test_vecadd},
               {"saxpy", test_saxpy},
               {"reduce", test_reduce},
               {"dynshared", test_dynshared},
               {"structs", test_structs},
               {"control", test_control},
               {"int64", test_int64},
               {"constant", test_constant},
               {"atomics", test_atomics},
               {"printf", test_printf},
               {"histogram", test_histogram},
               {"matmul", test_matmul},
               {"stencil", test_stencil},
               {"transpose", test_transpose},
               {"fp64", test_fp64},
               {"math32", test_math32},
               {"driver_bugs", test_driver_bugs},
               {"symbols", test_symbols},
               {"vec_kir", test_vec_kir},
               {"vec_spirv_ops", test_vec_spirv_ops}};
  for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
    if (!strcmp(tests[i].name, argv[1])) {
      int bad = tests[i].fn();
      release_all();
      printf("%s: %s\n", argv[1], bad ? "FAILED" : "passed");
      return bad ? 1 : 0;
    }
  fprintf(stderr, "spirv_run: no test named %s\n", argv[1]);
  release_all();
  return 2;
}
