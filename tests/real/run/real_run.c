/* real_run.c — see real_run.h. The two paths: the original source through the OpenCL API
 * (PoCL, or $REAL_CL_DEVICE), and kcc's bundle through libkcrt. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include "real_run.h"

#include <CL/cl.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

struct Dev {
  int path;
  /* original: OpenCL */
  cl_context ctx;
  cl_command_queue queue;
  cl_program prog;
  char device_name[512];
  /* kcc: libkcrt (the device and module live in Ctx.rt) */
};

struct DBuf {
  cl_mem mem;
  kcrt_buffer *kb;
  size_t size;
};

const char *path_name(int path) {
  return path == PATH_ORIGINAL ? "original" : "kcc";
}

void fill_f32(Ctx *c, float *p, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; i++) p[i] = rt_float(&c->rt, lo, hi);
}

static void die(Ctx *c, int path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void die(Ctx *c, int path, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: %s path: ", c->name, path_name(path));
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fprintf(stderr, "%s: seed %" PRIu64 " (rerun with KCRT_TEST_SEED=%" PRIu64 ")\n", c->name,
          c->rt.seed, c->rt.seed);
  printf("FAIL %s\n", c->name);
  exit(1);
}

/* ---------------------------------------------------------------- the original: OpenCL */

static char *read_text(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = rt_xalloc((size_t)n + 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    return NULL;
  }
  fclose(f);
  s[n] = 0;
  *len = (size_t)n;
  return s;
}

/* The device for the original source: the first whose platform or device name contains
 * $REAL_CL_DEVICE, else PoCL's first device, else the first device there is. */
static cl_device_id pick_cl_device(char *name, size_t name_size) {
  cl_platform_id ps[16];
  cl_uint np = 0;
  if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) return NULL;
  if (np > 16) np = 16;
  const char *want = getenv("REAL_CL_DEVICE");
  cl_device_id first = NULL, pocl = NULL, wanted = NULL;
  for (cl_uint i = 0; i < np; i++) {
    char pname[256] = "";
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    cl_device_id ds[16];
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS) continue;
    if (nd > 16) nd = 16;
    for (cl_uint j = 0; j < nd; j++) {
      char dname[256] = "";
      clGetDeviceInfo(ds[j], CL_DEVICE_NAME, sizeof dname, dname, NULL);
      if (!first) first = ds[j];
      if (!pocl && (strcasestr(pname, "portable") || strcasestr(pname, "pocl"))) pocl = ds[j];
      if (!wanted && want && *want && (strcasestr(pname, want) || strcasestr(dname, want)))
        wanted = ds[j];
    }
  }
  cl_device_id d = wanted ? wanted : pocl ? pocl : first;
  if (d) clGetDeviceInfo(d, CL_DEVICE_NAME, name_size, name, NULL);
  return d;
}

static Dev *open_original(Ctx *c, const char *source, const char *options) {
  Dev *d = rt_xalloc(sizeof *d);
  d->path = PATH_ORIGINAL;
  cl_device_id did = pick_cl_device(d->device_name, sizeof d->device_name);
  if (!did) {
    c->why_not[PATH_ORIGINAL] = "no OpenCL device";
    return NULL;
  }
  cl_int err;
  d->ctx = clCreateContext(NULL, 1, &did, NULL, NULL, &err);
  if (!d->ctx) die(c, PATH_ORIGINAL, "clCreateContext failed (%d)", err);
  d->queue = clCreateCommandQueue(d->ctx, did, 0, &err);
  if (!d->queue) die(c, PATH_ORIGINAL, "clCreateCommandQueue failed (%d)", err);
  size_t len;
  char *src = read_text(source, &len);
  if (!src) die(c, PATH_ORIGINAL, "cannot read %s", source);
  const char *srcs[] = {src};
  d->prog = clCreateProgramWithSource(d->ctx, 1, srcs, &len, &err);
  if (!d->prog) die(c, PATH_ORIGINAL, "clCreateProgramWithSource failed (%d)", err);
  err = clBuildProgram(d->prog, 1, &did, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t loglen = 0;
    clGetProgramBuildInfo(d->prog, did, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
    char *log = rt_xalloc(loglen + 1);
    clGetProgramBuildInfo(d->prog, did, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
    die(c, PATH_ORIGINAL, "clBuildProgram(%s, \"%s\") failed (%d):\n%s", source, options, err, log);
  }
  return d;
}

/* ---------------------------------------------------------------- kcc: libkcrt */

static Dev *open_kcc(Ctx *c, const char *bundle) {
  kcrt_status st = kcrt_device_open_default(&c->rt.dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    c->why_not[PATH_KCC] = "libkcrt found no device";
    c->rt.dev = NULL;
    return NULL;
  }
  RT_CHECK(&c->rt, st);
  RT_CHECK(&c->rt, kcrt_device_get_info(c->rt.dev, &c->rt.info));
  RT_CHECK(&c->rt, kcrt_module_load_file(c->rt.dev, bundle, &c->rt.mod));
  Dev *d = rt_xalloc(sizeof *d);
  d->path = PATH_KCC;
  snprintf(d->device_name, sizeof d->device_name, "%s (%s)", c->rt.info.name,
           c->rt.info.backend == KCRT_BACKEND_CUDA ? "CUDA" : "OpenCL");
  return d;
}

/* ---------------------------------------------------------------- both */

static Dev *dev_of(Ctx *c, int path) {
  if (!c->dev[path]) die(c, path, "no device (a case must skip paths without one)");
  return c->dev[path];
}

DBuf *dev_alloc(Ctx *c, int path, size_t size) {
  dev_of(c, path);
  DBuf *b = rt_xalloc(sizeof *b);
  b->size = size;
  if (path == PATH_KCC) {
    b->kb = rt_alloc(&c->rt, size);
    return b;
  }
  cl_int err;
  b->mem = clCreateBuffer(c->dev[path]->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
  if (!b->mem) die(c, path, "clCreateBuffer(%zu) failed (%d)", size, err);
  unsigned char *garbage = rt_xalloc(size);
  memset(garbage, 0xA5, size);
  err = clEnqueueWriteBuffer(c->dev[path]->queue, b->mem, CL_TRUE, 0, size, garbage, 0, NULL, NULL);
  if (err != CL_SUCCESS) die(c, path, "clEnqueueWriteBuffer failed (%d)", err);
  return b;
}

DBuf *dev_upload(Ctx *c, int path, const void *data, size_t size) {
  DBuf *b = dev_alloc(c, path, size);
  if (path == PATH_KCC) {
    RT_CHECK(&c->rt, kcrt_buffer_write(b->kb, 0, data, size));
    return b;
  }
  cl_int err =
      clEnqueueWriteBuffer(c->dev[path]->queue, b->mem, CL_TRUE, 0, size, data, 0, NULL, NULL);
  if (err != CL_SUCCESS) die(c, path, "clEnqueueWriteBuffer failed (%d)", err);
  return b;
}

void dev_download(Ctx *c, int path, DBuf *b, void *dst, size_t size) {
  if (path == PATH_KCC) {
    rt_download(&c->rt, b->kb, dst, size);
    return;
  }
  cl_int err =
      clEnqueueReadBuffer(dev_of(c, path)->queue, b->mem, CL_TRUE, 0, size, dst, 0, NULL, NULL);
  if (err != CL_SUCCESS) die(c, path, "clEnqueueReadBuffer failed (%d)", err);
}

void dev_launch(Ctx *c, int path, const char *kernel, int dims, const size_t global[3],
                const size_t local[3], const Arg *args, int nargs) {
  Dev *d = dev_of(c, path);
  for (int i = 0; i < dims; i++)
    if (!local[i] || global[i] % local[i])
      die(c, path, "%s: global size %zu is not a multiple of the work-group size %zu", kernel,
          global[i], local[i]);
  if (path == PATH_KCC) {
    kcrt_arg ka[32];
    if (nargs > 32) die(c, path, "too many arguments");
    for (int i = 0; i < nargs; i++) {
      switch (args[i].kind) {
      case ARG_BUFFER: ka[i] = KCRT_ARG_BUFFER(args[i].buf->kb); break;
      case ARG_VALUE: ka[i] = (kcrt_arg){args[i].value, args[i].size, NULL}; break;
      case ARG_LOCAL:
#ifdef KCRT_ARG_LOCAL
        ka[i] = KCRT_ARG_LOCAL(args[i].size);
#else
        die(c, path,
            "%s: argument %d is __local memory, and this libkcrt has no local-memory "
            "launch argument (KCRT_ARG_LOCAL) yet",
            kernel, i);
#endif
        break;
      }
    }
    kcrt_dim3 grid = {1, 1, 1}, block = {1, 1, 1};
    uint64_t *g = &grid.x, *b = &block.x;
    for (int i = 0; i < dims; i++) {
      g[i] = global[i] / local[i];
      b[i] = local[i];
    }
    rt_launch(&c->rt, rt_kernel(&c->rt, kernel), grid, block, 0, ka, nargs);
    return;
  }
  cl_int err;
  cl_kernel k = clCreateKernel(d->prog, kernel, &err);
  if (!k) die(c, path, "clCreateKernel(%s) failed (%d)", kernel, err);
  for (int i = 0; i < nargs; i++) {
    switch (args[i].kind) {
    case ARG_BUFFER: err = clSetKernelArg(k, i, sizeof(cl_mem), &args[i].buf->mem); break;
    case ARG_VALUE: err = clSetKernelArg(k, i, args[i].size, args[i].value); break;
    case ARG_LOCAL: err = clSetKernelArg(k, i, args[i].size, NULL); break;
    }
    if (err != CL_SUCCESS) die(c, path, "%s: clSetKernelArg(%d) failed (%d)", kernel, i, err);
  }
  err = clEnqueueNDRangeKernel(d->queue, k, (cl_uint)dims, NULL, global, local, 0, NULL, NULL);
  if (err != CL_SUCCESS) die(c, path, "%s: clEnqueueNDRangeKernel failed (%d)", kernel, err);
  err = clFinish(d->queue);
  if (err != CL_SUCCESS) die(c, path, "%s: clFinish failed (%d)", kernel, err);
  clReleaseKernel(k);
}

/* ---------------------------------------------------------------- comparisons */

static const char *label(int path, const char *what, char *buf, size_t size) {
  snprintf(buf, size, "%s: %s", path_name(path), what);
  return buf;
}

bool cmp_f32(Ctx *c, int path, const char *what, const float *got, const float *want, size_t n,
             double rtol, double atol) {
  char l[256];
  return rt_cmp_f32(&c->rt, label(path, what, l, sizeof l), got, want, n, rtol, atol);
}

bool cmp_i32(Ctx *c, int path, const char *what, const int32_t *got, const int32_t *want,
             size_t n) {
  char l[256];
  return rt_cmp_i32(&c->rt, label(path, what, l, sizeof l), got, want, n);
}

bool cmp_u32(Ctx *c, int path, const char *what, const uint32_t *got, const uint32_t *want,
             size_t n) {
  char l[256];
  return rt_cmp_u32(&c->rt, label(path, what, l, sizeof l), got, want, n);
}

bool cmp_bytes(Ctx *c, int path, const char *what, const void *got, const void *want, size_t n) {
  const unsigned char *g = got, *w = want;
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    if (g[i] == w[i]) continue;
    if (bad++ < 8)
      fprintf(stderr, "%s: %s: %s byte %zu = %u, expected %u\n", c->name, path_name(path), what, i,
              g[i], w[i]);
  }
  if (bad) rt_fail(&c->rt, "%s: %s: %zu of %zu bytes differ", path_name(path), what, bad, n);
  return bad == 0;
}

void same_on_both_paths(Ctx *c, const char *what, void *const out[NPATHS], size_t bytes) {
  if (!c->dev[PATH_ORIGINAL] || !c->dev[PATH_KCC]) return;
  if (memcmp(out[PATH_ORIGINAL], out[PATH_KCC], bytes) == 0) return;
  const unsigned char *a = out[PATH_ORIGINAL], *b = out[PATH_KCC];
  size_t first = 0;
  while (a[first] == b[first]) first++;
  rt_fail(&c->rt,
          "%s: the original source and kcc's bundle give different bytes (first at "
          "byte %zu: %u vs %u)",
          what, first, a[first], b[first]);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s NAME BUNDLE.kcb SOURCE.cl [BUILD-OPTIONS...]\n", argv[0]);
    return 2;
  }
  const Case *cs = NULL;
  for (int i = 0; i < real_ncases; i++)
    if (strcmp(real_cases[i].name, argv[1]) == 0) cs = &real_cases[i];
  if (!cs) {
    fprintf(stderr, "%s: no runner for '%s'\n", argv[0], argv[1]);
    return 2;
  }
  static Ctx ctx;
  Ctx *c = &ctx;
  c->name = cs->name;
  c->rt.name = cs->name;
  const char *s = getenv("KCRT_TEST_SEED");
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  c->rt.seed = s && *s ? strtoull(s, NULL, 0)
                       : ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^
                             ((uint64_t)getpid() << 32);
  c->rt.state = c->rt.seed;

  char options[2048] = "";
  for (int i = 4; i < argc; i++) {
    if (strlen(options) + strlen(argv[i]) + 2 >= sizeof options) break;
    if (*options) strcat(options, " ");
    strcat(options, argv[i]);
  }
  /* REAL_PATHS=kcc (or original) runs one path only. */
  const char *only = getenv("REAL_PATHS");
  if (!only || !strstr(only, "kcc") || strstr(only, "original"))
    c->dev[PATH_ORIGINAL] = open_original(c, argv[3], options);
  else
    c->why_not[PATH_ORIGINAL] = "REAL_PATHS";
  if (!only || strstr(only, "kcc"))
    c->dev[PATH_KCC] = open_kcc(c, argv[2]);
  else
    c->why_not[PATH_KCC] = "REAL_PATHS";
  if (!c->dev[PATH_ORIGINAL] && !c->dev[PATH_KCC]) {
    printf("SKIP %s: no device (%s; %s)\n", c->name, c->why_not[0], c->why_not[1]);
    return 77;
  }
  for (int p = 0; p < NPATHS; p++)
    fprintf(stderr, "%s: %s path: %s\n", c->name, path_name(p),
            c->dev[p] ? c->dev[p]->device_name : c->why_not[p]);

  cs->run(c);
  if (c->dev[PATH_ORIGINAL]) {
    clReleaseProgram(c->dev[PATH_ORIGINAL]->prog);
    clReleaseCommandQueue(c->dev[PATH_ORIGINAL]->queue);
    clReleaseContext(c->dev[PATH_ORIGINAL]->ctx);
  }

  char detail[1024];
  snprintf(detail, sizeof detail, "original on %s, kcc",
           c->dev[PATH_ORIGINAL] ? c->dev[PATH_ORIGINAL]->device_name : "(not run)");
  if (!c->dev[PATH_KCC]) {
    /* rt_finish names the libkcrt device; without one, report here. */
    if (c->rt.failures) {
      printf("FAIL %s: %d check(s) failed; %s (not run); seed %" PRIu64 "\n", c->name,
             c->rt.failures, detail, c->rt.seed);
      rt_xfree_all();
      return 1;
    }
    printf("PASS %s: %s (not run: %s), seed %" PRIu64 "\n", c->name, detail, c->why_not[PATH_KCC],
           c->rt.seed);
    rt_xfree_all();
    return 0;
  }
  int status = rt_finish(&c->rt, "%s", detail);
  rt_xfree_all();
  return status;
}
