/* cl_binary.c — what an OpenCL driver makes of a program: builds FILE.cl on the first OpenCL GPU
 * (else the first device) with OPTIONS and writes the program binary to OUT (NVIDIA's driver
 * returns PTX, which bench/ptx_probe.c can then time through CUDA). An investigation tool for
 * issue 14 (why kcc's OpenCL C runs matmul slower on NVIDIA than its PTX does).
 *
 *   cl_binary FILE.cl OUT ["OPTIONS"] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: cl_binary FILE.cl OUT [OPTIONS]\n");
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (!f) return perror(argv[1]), 1;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *src = malloc((size_t)n + 1);
  src[fread(src, 1, (size_t)n, f)] = 0;
  fclose(f);
  cl_platform_id plats[8];
  cl_uint np = 0;
  clGetPlatformIDs(8, plats, &np);
  cl_device_id dev = NULL;
  for (cl_uint i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
  for (cl_uint i = 0; i < np && !dev; i++)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
  if (!dev) return fprintf(stderr, "no OpenCL device\n"), 1;
  char name[256];
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  const char *s = src;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &e);
  e = clBuildProgram(p, 1, &dev, argc > 3 ? argv[3] : "", NULL, NULL);
  char log[16384] = "";
  clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  if (e != CL_SUCCESS) return fprintf(stderr, "build failed (%d):\n%s\n", e, log), 1;
  size_t bn = 0;
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bn, &bn, NULL);
  unsigned char *bin = malloc(bn);
  clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
  FILE *o = fopen(argv[2], "wb");
  if (!o) return perror(argv[2]), 1;
  fwrite(bin, 1, bn, o);
  fclose(o);
  printf("%s: %zu bytes from %s (options '%s')%s%s\n", argv[2], bn, name, argc > 3 ? argv[3] : "",
         *log ? "; log: " : "", log);
  return 0;
}
