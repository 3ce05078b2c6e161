/* vec_gpu_check.c — runs the `vcheck` kernel (built by hand as KIR in test_llvm.c, written
 * out as PTX with KCC_VEC_PTX=FILE) on a CUDA GPU through the driver API, and compares every
 * result with a host reference: vectors, swizzle stores, masks, 3-vector layout, vload3 and
 * vstore3, as_T, the integer builtins, convert_T_sat, isnan, vector math, a local-memory
 * kernel parameter (a dynamic shared offset) and a by-value float3 parameter.
 *
 *   KCC_VEC_PTX=/tmp/vcheck.ptx build/tests/test_llvm
 *   cc -O2 -I/usr/local/cuda/include tests/unit/vec_gpu_check.c \
 *      -L/usr/local/cuda/lib64/stubs -lcuda -lm -o vec_gpu_check
 *   ./vec_gpu_check /tmp/vcheck.ptx          (on a machine with a GPU)
 *
 * Not a ctest test (the build machines have no GPU). Exit status 0 when everything matched. */
#include <cuda.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 64

#define CK(x)                                                                                      \
  do {                                                                                             \
    CUresult r_ = (x);                                                                             \
    if (r_ != CUDA_SUCCESS) {                                                                      \
      const char *s_ = NULL;                                                                       \
      cuGetErrorString(r_, &s_);                                                                   \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_ ? s_ : "?");                   \
      exit(2);                                                                                     \
    }                                                                                              \
  } while (0)

static int fails;

static void bad(const char *what, int i, int k, double got, double want) {
  if (fails++ < 40) fprintf(stderr, "%s[%d].%d: got %.17g, want %.17g\n", what, i, k, got, want);
}

static void eq_u(const char *what, int i, int k, uint64_t got, uint64_t want) {
  if (got != want) bad(what, i, k, (double)got, (double)want);
}

static void eq_i(const char *what, int i, int k, int64_t got, int64_t want) {
  if (got != want) bad(what, i, k, (double)got, (double)want);
}

static void eq_f(const char *what, int i, int k, double got, double want, double tol) {
  if (isnan(want) && isnan(got)) return;
  if (!(fabs(got - want) <= tol * fmax(1.0, fabs(want)))) bad(what, i, k, got, want);
}

static uint32_t popc(uint32_t x) {
  return (uint32_t)__builtin_popcount(x);
}
static uint32_t clz32(uint32_t x) {
  return x ? (uint32_t)__builtin_clz(x) : 32;
}
static int64_t sat(double x, double lo, double hi) {
  if (isnan(x)) return 0;
  if (x <= lo) return (int64_t)lo;
  if (x >= hi) return (int64_t)hi;
  return (int64_t)x; /* toward zero */
}
static uint64_t usat(double x, double hi) {
  if (isnan(x) || x <= 0) return 0;
  if (x >= hi) return (uint64_t)hi;
  return (uint64_t)x;
}
static int64_t isat(int64_t x, int64_t lo, int64_t hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

static int32_t ibits(float f) {
  int32_t i;
  memcpy(&i, &f, 4);
  return i;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s vcheck.ptx\n", argv[0]);
    return 2;
  }
  FILE *pf = fopen(argv[1], "rb");
  if (!pf) {
    perror(argv[1]);
    return 2;
  }
  static char ptx[1 << 20];
  size_t np = fread(ptx, 1, sizeof ptx - 1, pf);
  fclose(pf);
  ptx[np] = 0;

  /* inputs */
  static float f4[N][4], fs[N * 6];
  static uint32_t u[N][4];
  static int64_t l[N][2];
  for (int i = 0; i < N; i++) {
    f4[i][0] = (float)i - 20.5f;
    f4[i][1] = (float)i * 3.25f;
    f4[i][2] = -(float)i * 1e9f + 7.0f;
    f4[i][3] = i == 5 ? NAN : (float)i * 0.1f;
    uint32_t x = (uint32_t)i * 2654435761u;
    u[i][0] = x;
    u[i][1] = ~x;
    u[i][2] = i % 4 == 0 ? 0 : x >> (i % 32);
    u[i][3] = 0x80000000u + (uint32_t)i * 977u;
    l[i][0] = (int64_t)i * 0x123456789LL - 500000000000000000LL;
    l[i][1] = -l[i][0] * 3 + i;
  }
  for (int k = 0; k < N * 6; k++) fs[k] = (float)k * 0.5f;
  float p3[4] = {1.5f, 2.5f, 3.5f, 0.0f};

  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  char log[8192] = "";
  CUjit_option jo[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *jv[2] = {log, (void *)(uintptr_t)sizeof log};
  if (cuModuleLoadDataEx(&mod, ptx, 2, jo, jv) != CUDA_SUCCESS) {
    fprintf(stderr, "cuModuleLoadDataEx failed: %s\n", log);
    return 2;
  }
  CUfunction fn;
  CK(cuModuleGetFunction(&fn, mod, "vcheck"));

  CUdeviceptr d_f4, d_i4, d_f3, d_i4b, d_fs, d_u, d_uo, d_l, d_lo, d_fo;
  CK(cuMemAlloc(&d_f4, sizeof f4));
  CK(cuMemAlloc(&d_i4, N * 16));
  CK(cuMemAlloc(&d_f3, N * 16));
  CK(cuMemAlloc(&d_i4b, N * 16));
  CK(cuMemAlloc(&d_fs, sizeof fs));
  CK(cuMemAlloc(&d_u, sizeof u));
  CK(cuMemAlloc(&d_uo, N * 8 * 16));
  CK(cuMemAlloc(&d_l, sizeof l));
  CK(cuMemAlloc(&d_lo, N * 2 * 16));
  CK(cuMemAlloc(&d_fo, N * 16));
  CK(cuMemcpyHtoD(d_f4, f4, sizeof f4));
  CK(cuMemcpyHtoD(d_fs, fs, sizeof fs));
  CK(cuMemcpyHtoD(d_u, u, sizeof u));
  CK(cuMemcpyHtoD(d_l, l, sizeof l));
  CK(cuMemsetD8(d_f3, 0xAB, N * 16)); /* the 4th slot of each float3 must stay untouched */
  /* The local-memory parameter: the kernel has no dynamic shared array of its own; put the
   * buffer at offset 32 of a 32 + N*4 byte region, to check the offset is honoured. */
  uint32_t tmp_off = 32;
  unsigned dyn = 32 + N * 4;
  void *args[] = {&d_f4, &d_i4, &d_f3, &d_i4b, &d_fs,    &d_u,
                  &d_uo, &d_l,  &d_lo, &d_fo,  &tmp_off, p3};
  CK(cuLaunchKernel(fn, 1, 1, 1, N, 1, 1, dyn, 0, args, NULL));
  CK(cuCtxSynchronize());
  /* A block shape other than reqd_work_group_size must be refused. */
  CUresult wrong = cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, dyn, 0, args, NULL);
  if (wrong == CUDA_SUCCESS) wrong = cuCtxSynchronize();
  if (wrong == CUDA_SUCCESS) {
    fprintf(stderr, "a 32-thread launch of a .reqntid 64,1,1 kernel was accepted\n");
    fails++;
  }
  if (wrong == CUDA_ERROR_ILLEGAL_ADDRESS || wrong == CUDA_ERROR_LAUNCH_FAILED) {
    fprintf(stderr, "wrong-shape launch broke the context: %d\n", (int)wrong);
    return 2;
  }

  static float o_f4[N][4], o_f3[N][4], o_fs[N * 6], o_fo[N][4];
  static int32_t o_i4[N][4], o_i4b[N][4];
  static uint32_t o_uo[N * 8][4];
  static int64_t o_lo[N * 2][2];
  CK(cuMemcpyDtoH(o_f4, d_f4, sizeof o_f4));
  CK(cuMemcpyDtoH(o_i4, d_i4, sizeof o_i4));
  CK(cuMemcpyDtoH(o_f3, d_f3, sizeof o_f3));
  CK(cuMemcpyDtoH(o_i4b, d_i4b, sizeof o_i4b));
  CK(cuMemcpyDtoH(o_fs, d_fs, sizeof o_fs));
  CK(cuMemcpyDtoH(o_uo, d_uo, sizeof o_uo));
  CK(cuMemcpyDtoH(o_lo, d_lo, sizeof o_lo));
  CK(cuMemcpyDtoH(o_fo, d_fo, sizeof o_fo));

  for (int i = 0; i < N; i++) {
    const float *a = f4[i];
    float b[4];
    for (int k = 0; k < 4; k++) b[k] = fmaf(a[k], a[k], p3[2]); /* kcc contracts a * a + c */
    for (int k = 0; k < 4; k++) eq_i("mask a<b", i, k, o_i4[i][k], a[k] < b[k] ? -1 : 0);
    float w4[4] = {b[1], a[1] + 1.0f, a[2] + 1.0f, b[0]};
    for (int k = 0; k < 4; k++) eq_f("swizzle stores", i, k, o_f4[i][k], w4[k], 0);
    float w3[3] = {a[3], a[2], p3[1]};
    for (int k = 0; k < 3; k++) eq_f("float3 veclit", i, k, o_f3[i][k], w3[k], 0);
    eq_i("float3 4th slot untouched", i, 3, ibits(o_f3[i][3]), (int32_t)0xABABABAB);
    for (int k = 0; k < 3; k++) eq_i("as_int4(float3)", i, k, o_i4b[i][k], ibits(w3[k]));
    int j = i ^ 1;
    eq_i("local param via tmp[i^1]", i, 3, o_i4b[i][3], (int32_t)(f4[j][0] * 4.0f));
    for (int k = 0; k < 3; k++) {
      eq_f("vstore3", i, k, o_fs[(64 + i) * 3 + k], fs[i * 3 + k] * 2.0f, 0);
      eq_f("vload3 source kept", i, k, o_fs[i * 3 + k], fs[i * 3 + k], 0);
    }
    const uint32_t *U = u[i];
    for (int k = 0; k < 4; k++) {
      eq_u("popcount", i, k, o_uo[i * 8][k], popc(U[k]));
      eq_u("clz", i, k, o_uo[i * 8 + 1][k], clz32(U[k]));
      eq_u("mul_hi uint", i, k, o_uo[i * 8 + 2][k],
           (uint32_t)(((uint64_t)U[k] * U[(k + 1) % 4]) >> 32));
      int32_t s = (int32_t)U[k];
      eq_u("abs int->uint", i, k, o_uo[i * 8 + 3][k], s < 0 ? 0u - (uint32_t)s : (uint32_t)s);
      eq_u("convert_int4_sat(uint4)", i, k, o_uo[i * 8 + 4][k],
           (uint32_t)(U[k] > 0x7fffffffu ? 0x7fffffffu : U[k]));
      eq_u("select", i, k, o_uo[i * 8 + 5][k], s < 0 ? U[3 - k] : U[k]);
      eq_u("isnan", i, k, o_uo[i * 8 + 7][k], isnan(a[k]) ? 0xffffffffu : 0);
    }
    uint32_t w = 0, y = 0, z = 0;
    for (int k = 0; k < 4; k++) {
      w |= (uint32_t)isat((int32_t)U[k], 0, 255) << (8 * k);
      y |= (uint32_t)usat(a[k], 255) << (8 * k);
      z |= (uint32_t)(uint8_t)(int8_t)sat(a[k], -128, 127) << (8 * k);
    }
    uint32_t ww = (uint32_t)usat(a[0], 65535) | (uint32_t)usat(a[1], 65535) << 16;
    eq_u("convert_uchar4_sat(int4)", i, 0, o_uo[i * 8 + 6][0], w);
    eq_u("convert_uchar4_sat(float4)", i, 1, o_uo[i * 8 + 6][1], y);
    eq_u("convert_char4_sat(float4)", i, 2, o_uo[i * 8 + 6][2], z);
    eq_u("convert_ushort2_sat(float2)", i, 3, o_uo[i * 8 + 6][3], ww);
    for (int k = 0; k < 2; k++) {
      __int128 p = (__int128)l[i][k] * l[i][1 - k];
      eq_i("mul_hi long", i, k, o_lo[i * 2][k], (int64_t)(p >> 64));
    }
    double dx[2] = {(double)a[0] * 1e10, (double)a[2] * 1e10};
    for (int k = 0; k < 2; k++)
      eq_i("convert_long2_sat(double2)", i, k, o_lo[i * 2 + 1][k],
           isnan(dx[k])       ? 0
           : dx[k] >= 0x1p63  ? INT64_MAX
           : dx[k] <= -0x1p63 ? INT64_MIN
                              : (int64_t)dx[k]);
    for (int k = 0; k < 4; k++)
      eq_f("sqrt(fabs)+sin", i, k, o_fo[i][k], sqrt(fabs((double)a[k])) + sin((double)a[k]), 2e-6);
  }
  printf("vec_gpu_check: %s (%d mismatches)\n", fails ? "FAIL" : "ok", fails);
  return fails ? 1 : 0;
}
