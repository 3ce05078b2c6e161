/* clbuild.c — builds an OpenCL C file for the first OpenCL device (PoCL here), the way a
 * driver would at run time, and prints the build log when the build fails.
 *
 *   clbuild FILE.cl [BUILD-OPTIONS]
 *
 * Exit status: 0 built, 1 the build failed (log on stderr), 77 no OpenCL device (ctest's
 * skip code), 2 bad usage or unreadable file. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc(n + 1);
  if (!s || fread(s, 1, n, f) != (size_t)n) {
    fclose(f);
    free(s);
    return NULL;
  }
  fclose(f);
  s[n] = 0;
  *len = n;
  return s;
}

/* The first device of the first platform that has one. */
static cl_device_id first_device(void) {
  cl_uint np = 0;
  if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) return NULL;
  cl_platform_id ps[16];
  if (np > 16) np = 16;
  clGetPlatformIDs(np, ps, NULL);
  for (cl_uint i = 0; i < np; i++) {
    cl_device_id d;
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &d, &nd) == CL_SUCCESS && nd > 0) return d;
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: clbuild FILE.cl [BUILD-OPTIONS]\n");
    return 2;
  }
  size_t len;
  char *src = read_file(argv[1], &len);
  if (!src) {
    fprintf(stderr, "clbuild: cannot read %s\n", argv[1]);
    return 2;
  }
  cl_device_id dev = first_device();
  if (!dev) {
    fprintf(stderr, "clbuild: no OpenCL device; skipped\n");
    return 77;
  }
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (!ctx) {
    fprintf(stderr, "clbuild: clCreateContext failed (%d)\n", err);
    return 1;
  }
  const char *srcs[] = {src};
  cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, &len, &err);
  if (!prog) {
    fprintf(stderr, "clbuild: clCreateProgramWithSource failed (%d)\n", err);
    return 1;
  }
  /* -cl-std=CL1.2: the language kcc promises, whatever newer version the device has. */
  const char *opts = argc > 2 ? argv[2] : "-cl-std=CL1.2";
  err = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
  size_t loglen = 0;
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
  char *log = malloc(loglen + 1);
  log[0] = 0;
  if (loglen) clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, loglen, log, NULL);
  log[loglen] = 0;
  int status = 0;
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clbuild: %s: clBuildProgram failed (%d)\n%s\n", argv[1], err, log);
    status = 1;
  } else {
    cl_uint nk = 0;
    clCreateKernelsInProgram(prog, 0, NULL, &nk);
    printf("clbuild: %s: built, %u kernel%s\n", argv[1], nk, nk == 1 ? "" : "s");
  }
  free(log);
  clReleaseProgram(prog);
  clReleaseContext(ctx);
  free(src);
  return status;
}
