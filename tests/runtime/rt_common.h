/* rt_common.h — shared by the runtime test programs (tests/runtime/NAME.c): each one loads the
 * bundle of one corpus kernel (tests/kernels/NAME.k, compiled by kcc at build time) through
 * libkcrt, runs it on fresh random inputs and compares every output element with a host C
 * reference.
 *
 * Usage: rt_NAME BUNDLE.kcb. The device is the runtime's default or $KCC_DEVICE. The random
 * seed comes from the clock unless $KCRT_TEST_SEED is set, and every failure prints it so a
 * failing run can be repeated exactly. Exit status: 0 pass, 1 fail, 77 no device (ctest
 * reports a skip). */
#ifndef KCC_RT_COMMON_H
#define KCC_RT_COMMON_H

#include "kcrt.h"

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct Rt {
  const char *name; /* the test's name, for messages */
  kcrt_device *dev;
  kcrt_module *mod;
  kcrt_device_info info;
  uint64_t seed, state;
  int failures;
  double kernel_ms; /* accumulated by rt_launch_timed */
  long flushed;     /* cases left out because the device may flush denormals (rt_flushes) */
} Rt;

/* Opens the device and loads argv[1]; exits 77 when there is no device, 1 on any error. */
void rt_init(Rt *rt, int argc, char **argv, const char *name);
/* rt_init without loading the module (a test that expects the load to fail). */
void rt_open(Rt *rt, int argc, char **argv, const char *name);
/* Prints the one-line summary (`detail` says what ran), closes the device, returns the exit
 * status for main. */
int rt_finish(Rt *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Any kcrt call that must succeed: on failure prints the call, the status, the runtime's
 * message and the seed, and exits 1. */
#define RT_CHECK(rt, call) rt_check_status((rt), (call), #call, __FILE__, __LINE__)
void rt_check_status(Rt *rt, kcrt_status st, const char *what, const char *file, int line);
/* A call that must fail with exactly `want`. */
#define RT_EXPECT(rt, want, call) rt_expect_status((rt), (want), (call), #call, __FILE__, __LINE__)
void rt_expect_status(Rt *rt, kcrt_status want, kcrt_status got, const char *what, const char *file,
                      int line);

kcrt_kernel *rt_kernel(Rt *rt, const char *name);
/* A buffer filled with a recognisable garbage byte (0xA5): an output the kernel fails to
 * write does not come back as plausible zeros. */
kcrt_buffer *rt_alloc(Rt *rt, size_t size);
kcrt_buffer *rt_upload(Rt *rt, const void *data, size_t size);
void rt_download(Rt *rt, kcrt_buffer *b, void *dst, size_t size);
/* Launches and waits; the kernel time (events) is added to rt->kernel_ms. */
void rt_launch(Rt *rt, kcrt_kernel *k, kcrt_dim3 grid, kcrt_dim3 block, size_t dyn,
               const kcrt_arg *args, int nargs);

/* rt_launch with the process's standard output (file descriptor 1) sent to a temporary file:
 * what the kernel printed, NUL-terminated, in out (at most cap - 1 bytes). */
void rt_launch_printed(Rt *rt, kcrt_kernel *k, kcrt_dim3 grid, kcrt_dim3 block, size_t dyn,
                       const kcrt_arg *args, int nargs, char *out, size_t cap);
/* Compares two texts line by line after sorting the lines of each (the order in which a
 * kernel's threads print is not defined); both are modified. Returns the line count of want. */
int rt_cmp_lines(Rt *rt, char *got, char *want);

/* Random numbers (splitmix64 stream from the seed). */
uint64_t rt_u64(Rt *rt);
uint32_t rt_u32(Rt *rt);
int rt_int(Rt *rt, int lo, int hi);         /* uniform in [lo, hi] */
float rt_float(Rt *rt, float lo, float hi); /* uniform in [lo, hi) */
double rt_double(Rt *rt, double lo, double hi);

/* Element-wise comparisons: report the first mismatches (index, got, want) and count a
 * failure; return true when everything matched. Tolerances: |got - want| <= atol + rtol *
 * |want|; NaN matches only NaN. */
bool rt_cmp_f32(Rt *rt, const char *what, const float *got, const float *want, size_t n,
                double rtol, double atol);
bool rt_cmp_f64(Rt *rt, const char *what, const double *got, const double *want, size_t n,
                double rtol, double atol);
bool rt_cmp_i32(Rt *rt, const char *what, const int32_t *got, const int32_t *want, size_t n);
bool rt_cmp_u32(Rt *rt, const char *what, const uint32_t *got, const uint32_t *want, size_t n);
bool rt_cmp_i64(Rt *rt, const char *what, const int64_t *got, const int64_t *want, size_t n);
bool rt_cmp_u64(Rt *rt, const char *what, const uint64_t *got, const uint64_t *want, size_t n);
/* A single failed expectation with a message. */
void rt_fail(Rt *rt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A zero-filled allocation kept until rt_xfree_all (leak checkers stay quiet about tables
 * that live for a whole run); exits on out of memory. */
void *rt_xalloc(size_t n);
void rt_xfree_all(void);

static inline uint64_t rt_ceil_div(uint64_t a, uint64_t b) {
  return (a + b - 1) / b;
}

/* The bits of a float or double, and back (for bit-exact comparisons). */
static inline uint32_t rt_f32_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}
static inline float rt_f32_of_bits(uint32_t u) {
  float x;
  memcpy(&x, &u, 4);
  return x;
}
static inline uint64_t rt_f64_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}
static inline double rt_f64_of_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, 8);
  return x;
}
/* Denormals: a device that does not promise to keep them (kcrt_device_info.denormals) may
 * flush them to zero, as Vulkan allows and NVIDIA's Vulkan driver does (docs/driver-bugs.md 25).
 * There a case whose arguments or result include a denormal of that width is left out of an
 * exact check (and counted, rt->flushed); KCRT_TEST_DENORMALS=strict keeps every case (the
 * lavapipe runs: it keeps them without promising to). */
static inline bool rt_flushes(const Rt *rt, int width) {
  const char *e = getenv("KCRT_TEST_DENORMALS");
  return !(rt->info.denormals & width) && !(e && strcmp(e, "strict") == 0);
}
static inline bool rt_sub32(float x) {
  return x == x && x != 0 && x > -FLT_MIN && x < FLT_MIN;
}
static inline bool rt_sub64(double x) {
  return x == x && x != 0 && x > -DBL_MIN && x < DBL_MIN;
}
/* Whether a float case with these values (arguments, the host's result) is left out here. */
static inline bool rt_skip_sub32(Rt *rt, float a, float b, float c, float want) {
  if (!rt_flushes(rt, KCRT_DENORMALS_F32) ||
      !(rt_sub32(a) || rt_sub32(b) || rt_sub32(c) || rt_sub32(want)))
    return false;
  rt->flushed++;
  return true;
}
static inline bool rt_skip_sub64(Rt *rt, double a, double b, double c, double want) {
  if (!rt_flushes(rt, KCRT_DENORMALS_F64) ||
      !(rt_sub64(a) || rt_sub64(b) || rt_sub64(c) || rt_sub64(want)))
    return false;
  rt->flushed++;
  return true;
}

/* Equal bit for bit, or both NaN (of any payload). */
static inline bool rt_same_f32(float x, float y) {
  return (x != x && y != y) || rt_f32_bits(x) == rt_f32_bits(y);
}
static inline bool rt_same_f64(double x, double y) {
  return (x != x && y != y) || rt_f64_bits(x) == rt_f64_bits(y);
}

/* IEEE half on the host, bit-exact, through GCC's _Float16 conversions: x rounded to half in
 * a <fenv.h> rounding mode (FE_TONEAREST...), from double and long double to nearest even,
 * and a half's value. */
uint16_t rt_f16_of_float(float x, int mode);
uint16_t rt_f16_of_double(double x);
uint16_t rt_f16_of_long_double(long double x);
float rt_f16_value(uint16_t h);
static inline bool rt_f16_is_nan(uint16_t h) {
  return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
}
/* A random half: any bit pattern (NaN, infinity, subnormal...) half of the time, else a value
 * in [-8, 8), where the math functions are interesting. */
uint16_t rt_f16_rand(Rt *rt);
/* Compares halves got[i * stride] with want[i * stride], a NaN equal to any NaN. tol: 0 bit for
 * bit, 1 within one half ulp (a float function and the host's may differ by a float ulp), 2
 * bit for bit but either zero for a zero (fmin(-0, +0)). */
bool rt_cmp_f16(Rt *rt, const char *what, const uint16_t *got, const uint16_t *want, size_t n,
                size_t stride, int tol);

#endif
