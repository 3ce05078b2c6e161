/* test_runtime_api.c — libkcrt's public API on the machine's default device (PoCL here): device
 * choice, buffers, queues, events, modules, launches, the on-disk cache, and every named
 * error status. The bundles are written by hand (OpenCL C source plus a kernel table through
 * kcb_format.h's writer) so that these tests do not depend on kcc's back ends; the corpus
 * tests (tests/runtime/) cover kcc's own bundles. Exits 77 (skipped) without a device. */
#define _GNU_SOURCE
#include "testutil.h"

#include "kcb_format.h"
#include "kcrt.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char cl_source[] =
    "__kernel void scale(__global float *x, float a, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) x[i] *= a;\n"
    "}\n"
    "/* Records, for every thread, its block and thread ids in all three dimensions. */\n"
    "__kernel void ids(__global uint *out) {\n"
    "  size_t gx = get_global_size(0), gy = get_global_size(1);\n"
    "  size_t lin = get_global_id(0) + gx * (get_global_id(1) + gy * get_global_id(2));\n"
    "  out[lin] = get_group_id(0) | get_group_id(1) << 4 | get_group_id(2) << 8 |\n"
    "             get_local_id(0) << 12 | get_local_id(1) << 16 | get_local_id(2) << 20 |\n"
    "             get_num_groups(0) << 24;\n"
    "}\n"
    "/* Reverses each block through dynamic local memory (the trailing __local argument). */\n"
    "__kernel void rev(__global int *d, __local int *s) {\n"
    "  int t = get_local_id(0), b = get_group_id(0) * get_local_size(0);\n"
    "  s[t] = d[b + t];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  d[b + t] = s[get_local_size(0) - 1 - t];\n"
    "}\n"
    "struct P { float a; double b; int c; };\n"
    "__kernel void bystruct(__global double *out, struct P p, char c, long l) {\n"
    "  out[0] = p.a; out[1] = p.b; out[2] = p.c; out[3] = c; out[4] = l;\n"
    "}\n"
    "__kernel void spin(__global float *x, int iters) {\n"
    "  int i = get_global_id(0);\n"
    "  float v = x[i];\n"
    "  for (int k = 0; k < iters; k++) v = v * 0.999f + 0.001f;\n"
    "  x[i] = v;\n"
    "}\n"
    "__kernel void mismatch(__global float *x) { x[0] = 1; }\n"
    "__kernel void hungry(__global float *x, int iters) { x[0] = iters; }\n"
    "__kernel void bytes(__global uchar *x, __global int *y) {\n"
    "  x[get_global_id(0)] = 7;\n"
    "  y[get_global_id(0)] = 7;\n"
    "}\n"
    "/* Local-memory parameters between ordinary ones, and the dynamic one after them all:\n"
    " * each block reverses its slice through a, records its ids through b and e, and\n"
    " * adds n. */\n"
    "__kernel void locals(__global float *d, __local float *a, int n, __local int *b,\n"
    "                     __local int *e, __local int *dynamic) {\n"
    "  int t = get_local_id(0), bs = get_local_size(0), base = get_group_id(0) * bs;\n"
    "  a[t] = d[base + t];\n"
    "  b[t] = t;\n"
    "  e[t] = bs - 1 - t;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  d[base + t] = a[e[t]] + (b[t] == t ? n : -1000);\n"
    "}\n"
    "__kernel __attribute__((reqd_work_group_size(8, 2, 1))) void fixed(__global uint *out) {\n"
    "  out[get_global_id(0) + 8 * get_global_id(1)] = get_local_id(0) + 100 * get_local_id(1);\n"
    "}\n"
    "__kernel void vscale(__global float4 *v, float4 a, __global int3 *w, int3 b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  v[i] *= a;\n"
    "  w[i] += b;\n"
    "}\n";

static const KcbWParam p_scale[] = {
    {"x", "float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 0},
    {"a", "float", KCB_PARAM_SCALAR, 0, KCB_T_F32, 0, 4, 4, 0},
    {"n", "int", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 4, 4, 0}};
static const KcbWParam p_ids[] = {
    {"out", "unsigned int *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_U32, 0, 8, 8, 0}};
static const KcbWParam p_rev[] = {
    {"d", "int *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_I32, 0, 8, 8, 0}};
static const KcbWParam p_struct[] = {
    {"out", "double *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F64, 0, 8, 8, 0},
    {"p", "struct P", KCB_PARAM_STRUCT, 0, 0, 0, 24, 8, 0},
    {"c", "char", KCB_PARAM_SCALAR, 0, KCB_T_I8, 0, 1, 1, 0},
    {"l", "long", KCB_PARAM_SCALAR, 0, KCB_T_I64, 0, 8, 8, 0}};
static const KcbWParam p_spin[] = {
    {"x", "float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 0},
    {"iters", "int", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 4, 4, 0}};
/* The table claims two parameters, the program has one: caught at kcrt_kernel_get. */
static const KcbWParam p_mismatch[] = {
    {"x", "float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 0},
    {"y", "int", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 4, 4, 0}};

/* A void pointee (no element type in the table) and a parameter without a name. */
static const KcbWParam p_bytes[] = {
    {"x", "void *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_NONE, 0, 8, 8, 0},
    {"", "int *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_I32, 0, 8, 8, 0}};

/* A bundle of the kernels above; `source` replaces the OpenCL C (NULL: cl_source, "": none). */
/* Local parameters: kind local, size 4 (the CUDA offset), address space shared. */
static const KcbWParam p_locals[] = {
    {"d", "float *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 0},
    {"a", "shared float *", KCB_PARAM_LOCAL, KCB_AS_SHARED, KCB_T_F32, 0, 4, 4, 0},
    {"n", "int", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 4, 4, 0},
    {"b", "shared int *", KCB_PARAM_LOCAL, KCB_AS_SHARED, KCB_T_I32, 0, 4, 4, 0},
    {"e", "shared int *", KCB_PARAM_LOCAL, KCB_AS_SHARED, KCB_T_I32, 0, 4, 4, 0}};
static const KcbWParam p_vscale[] = {
    {"v", "float4 *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_F32, 0, 8, 8, 4},
    {"a", "float4", KCB_PARAM_SCALAR, 0, KCB_T_F32, 0, 16, 16, 4},
    {"w", "int3 *", KCB_PARAM_POINTER, KCB_AS_GLOBAL, KCB_T_I32, 0, 8, 8, 3},
    {"b", "int3", KCB_PARAM_SCALAR, 0, KCB_T_I32, 0, 16, 16, 3}};

static unsigned char *make_bundle(const char *source, size_t *len) {
  KcbWKernel ks[] = {{"scale", p_scale, 3, 0, 0, 0, {0, 0, 0}, 0},
                     {"ids", p_ids, 1, 0, 0, 0, {0, 0, 0}, 0},
                     {"rev", p_rev, 1, 0, KCB_KERNEL_DYNAMIC_SHARED, 0, {0, 0, 0}, 0},
                     {"bystruct", p_struct, 4, 0, 0, 0, {0, 0, 0}, 0},
                     {"spin", p_spin, 2, 0, 0, 0, {0, 0, 0}, 0},
                     {"mismatch", p_mismatch, 2, 0, 0, 0, {0, 0, 0}, 0},
                     {"hungry", p_spin, 2, 1 << 30, 0, 0, {0, 0, 0}, 0},
                     {"bytes", p_bytes, 2, 0, 0, 0, {0, 0, 0}, 0},
                     {"locals", p_locals, 5, 0, KCB_KERNEL_DYNAMIC_SHARED, 0, {0, 0, 0}, 0},
                     {"fixed", p_ids, 1, 0, 0, 0, {8, 2, 1}, 0},
                     {"vscale", p_vscale, 4, 0, 0, 0, {0, 0, 0}, 0}};
  size_t tl, al;
  unsigned char *tab = kcb_write_kernel_table(ks, 11, &tl);
  unsigned char *attrs = kcb_write_kernel_attrs(ks, 11, &al);
  ck_assert_ptr_nonnull(attrs);
  const char *src = source ? source : cl_source;
  static const char info[] = "producer=test_runtime_api\nsource=api.k\n";
  KcbWSection secs[4] = {{KCB_SEC_INFO, 0, info, sizeof info - 1},
                         {KCB_SEC_KERNELS, 0, tab, tl},
                         {KCB_SEC_KATTRS, 0, attrs, al},
                         {KCB_SEC_OPENCL_C, 0, src, strlen(src)}};
  unsigned char *img = kcb_write_bundle(secs, *src ? 4 : 3, len);
  free(tab);
  free(attrs);
  ck_assert_ptr_nonnull(img);
  return img;
}

static kcrt_device *dev;
static kcrt_module *mod;

#define OK(call) ck_assert_msg((call) == KCRT_SUCCESS, "%s: %s", #call, kcrt_last_error())
/* The call fails with `status` and its message contains `needle` (NULL: anything). */
#define FAILS(status, needle, call)                                                                \
  do {                                                                                             \
    kcrt_status st_ = (call);                                                                      \
    ck_assert_msg(st_ == (status), "%s returned %s (%s), expected %s", #call,                      \
                  kcrt_status_name(st_), kcrt_last_error(), #status);                              \
    const char *nd_ = (needle);                                                                    \
    ck_assert_msg(!nd_ || strstr(kcrt_last_error(), nd_), "%s: message '%s' lacks '%s'", #call,    \
                  kcrt_last_error(), nd_ ? nd_ : "");                                              \
  } while (0)

static void setup(void) {
  OK(kcrt_device_open_default(&dev));
  size_t len;
  unsigned char *img = make_bundle(NULL, &len);
  OK(kcrt_module_load(dev, img, len, &mod));
  free(img);
}

static void teardown(void) {
  /* Closing the device releases the module and whatever a test left. */
  OK(kcrt_device_close(dev));
  dev = NULL;
  mod = NULL;
}

static kcrt_kernel *kernel(const char *name) {
  kcrt_kernel *k = NULL;
  OK(kcrt_kernel_get(mod, name, &k));
  return k;
}

/* ---------------------------------------------------------------- devices */

START_TEST(statuses_have_names) {
  for (int s = KCRT_SUCCESS; s <= KCRT_ERROR_LAUNCH_FAILED; s++) {
    ck_assert_str_ne(kcrt_status_name(s), "KCRT_ERROR_UNKNOWN");
    ck_assert_str_ne(kcrt_strerror(s), "unknown status");
  }
  ck_assert_str_eq(kcrt_status_name(KCRT_ERROR_INVALID_LAUNCH), "KCRT_ERROR_INVALID_LAUNCH");
  ck_assert_str_eq(kcrt_status_name(999), "KCRT_ERROR_UNKNOWN");
}
END_TEST

START_TEST(device_info) {
  int n = 0;
  OK(kcrt_device_count(&n));
  ck_assert_int_ge(n, 1);
  kcrt_device_info info;
  OK(kcrt_device_get_info(dev, &info));
  ck_assert_int_gt(strlen(info.name), 0);
  ck_assert(info.backend == KCRT_BACKEND_CUDA || info.backend == KCRT_BACKEND_OPENCL);
  ck_assert_uint_gt(info.global_mem_bytes, 0);
  ck_assert_uint_gt(info.max_alloc_bytes, 0);
  ck_assert_uint_gt(info.compute_units, 0);
  ck_assert_uint_gt(info.max_threads_per_block, 0);
  for (int d = 0; d < 3; d++) {
    ck_assert_uint_gt(info.max_block_dim[d], 0);
    ck_assert_uint_gt(info.max_grid_dim[d], 0);
  }
  ck_assert_uint_gt(info.max_shared_bytes, 0);
  FAILS(KCRT_ERROR_INVALID_VALUE, "out of range", kcrt_device_info_get(n, &info));
  FAILS(KCRT_ERROR_INVALID_VALUE, NULL, kcrt_device_info_get(-1, &info));
  OK(kcrt_device_info_get(0, &info));
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  OK(kcrt_print_devices(f));
  fclose(f);
  ck_assert_ptr_nonnull(strstr(text, info.name));
  free(text);
}
END_TEST

START_TEST(device_selection) {
  kcrt_device_info want, got;
  OK(kcrt_device_get_info(dev, &want));
  const char *be = want.backend == KCRT_BACKEND_CUDA ? "cuda" : "opencl";
  char sel[64];
  kcrt_device *d2;
  /* By back end, back end:index, type, name substring (any case), and index. */
  snprintf(sel, sizeof sel, "%s:%d", be, want.backend_index);
  const char *sels[] = {be, sel, want.type == KCRT_DEVICE_CPU ? "cpu" : "gpu", "0"};
  for (size_t i = 0; i < sizeof sels / sizeof *sels; i++) {
    OK(kcrt_device_open_by_name(sels[i], &d2));
    OK(kcrt_device_close(d2));
  }
  char upper[256];
  snprintf(upper, sizeof upper, "%s", want.name);
  for (char *p = upper; *p; p++) *p = (char)toupper((unsigned char)*p);
  OK(kcrt_device_open_by_name(upper, &d2));
  OK(kcrt_device_get_info(d2, &got));
  ck_assert_str_eq(got.name, want.name);
  OK(kcrt_device_close(d2));
  FAILS(KCRT_ERROR_NO_DEVICE, "no device matches 'no-such-device-xyz'",
        kcrt_device_open_by_name("no-such-device-xyz", &d2));
  FAILS(KCRT_ERROR_NO_DEVICE, NULL, kcrt_device_open_by_name("opencl:4096", &d2));
  /* $KCC_DEVICE: honoured, and an unmatched value is an error, not a silent fallback. */
  setenv("KCC_DEVICE", sel, 1);
  OK(kcrt_device_open_default(&d2));
  OK(kcrt_device_close(d2));
  setenv("KCC_DEVICE", "no-such-device-xyz", 1);
  FAILS(KCRT_ERROR_NO_DEVICE, "KCC_DEVICE='no-such-device-xyz' matches no device",
        kcrt_device_open_default(&d2));
  unsetenv("KCC_DEVICE");
  int n;
  OK(kcrt_device_count(&n));
  /* The same status as KCC_DEVICE=<index> for an index past the list (issue 13). */
  FAILS(KCRT_ERROR_NO_DEVICE, "device index", kcrt_device_open(n + 3, &d2));
  FAILS(KCRT_ERROR_NO_DEVICE, "out of range", kcrt_device_open(n, &d2));
  FAILS(KCRT_ERROR_NO_DEVICE, "out of range", kcrt_device_open(-1, &d2));
}
END_TEST

/* ---------------------------------------------------------------- buffers */

START_TEST(buffers) {
  enum { N = 1000 };
  int a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i * 7 + 1;
  kcrt_buffer *x, *y;
  OK(kcrt_buffer_alloc(dev, sizeof a, &x));
  OK(kcrt_buffer_alloc(dev, sizeof a, &y));
  ck_assert_uint_eq(kcrt_buffer_size(x), sizeof a);
  OK(kcrt_buffer_write(x, 0, a, sizeof a));
  OK(kcrt_buffer_fill(y, 0, 0x5a, sizeof a));
  OK(kcrt_buffer_copy(y, 40, x, 0, 400)); /* ints 10..109 of y = ints 0..99 of x */
  OK(kcrt_buffer_read(y, 0, b, sizeof b));
  for (int i = 0; i < N; i++) {
    int want = i >= 10 && i < 110 ? a[i - 10] : 0x5a5a5a5a;
    ck_assert_int_eq(b[i], want);
  }
  OK(kcrt_buffer_read(x, 4 * 500, b, 8)); /* offsets */
  ck_assert_int_eq(b[0], a[500]);
  ck_assert_int_eq(b[1], a[501]);
  OK(kcrt_buffer_copy(x, 0, x, 2000, 400)); /* same buffer, disjoint ranges */
  OK(kcrt_buffer_read(x, 0, b, 4));
  ck_assert_int_eq(b[0], a[500]);
  FAILS(KCRT_ERROR_INVALID_VALUE, "outside the 4000-byte buffer", kcrt_buffer_write(x, 3999, a, 2));
  FAILS(KCRT_ERROR_INVALID_VALUE, "outside", kcrt_buffer_read(x, SIZE_MAX, b, 2));
  FAILS(KCRT_ERROR_INVALID_VALUE, "outside", kcrt_buffer_fill(x, 1, 0, 4000));
  FAILS(KCRT_ERROR_INVALID_VALUE, "overlap", kcrt_buffer_copy(x, 0, x, 100, 200));
  FAILS(KCRT_ERROR_INVALID_VALUE, "size is 0", kcrt_buffer_alloc(dev, 0, &x));
  FAILS(KCRT_ERROR_INVALID_VALUE, NULL, kcrt_buffer_write(NULL, 0, a, 4));
  OK(kcrt_buffer_write(x, 4000, NULL, 0)); /* empty at the very end: fine */
  OK(kcrt_buffer_free(x));
  OK(kcrt_buffer_free(NULL));
  /* y is left for kcrt_device_close to release. */
}
END_TEST

/* Issue 13's short path: the error handler sees every failure with its message, the sticky
 * error keeps the first failure until read, kcrt_buffer_from copies host data in one call,
 * and kcrt_config_1d covers its thread count. */
static int handler_calls;
static kcrt_status handler_status;
static char handler_msg[256];
static void count_failures(kcrt_status s, const char *msg, void *ctx) {
  handler_calls++;
  handler_status = s;
  snprintf(handler_msg, sizeof handler_msg, "%s", msg);
  ck_assert_ptr_eq(ctx, &handler_calls);
}

START_TEST(convenience) {
  int a[100], b[100];
  for (int i = 0; i < 100; i++) a[i] = i * 3 - 50;
  kcrt_buffer *x = NULL;
  (void)kcrt_get_error(); /* earlier tests' failures */
  OK(kcrt_buffer_from(dev, a, sizeof a, &x));
  OK(kcrt_buffer_read(x, 0, b, sizeof b));
  ck_assert_int_eq(memcmp(a, b, sizeof a), 0);
  ck_assert_int_eq(kcrt_get_error(), KCRT_SUCCESS);

  OK(kcrt_set_error_handler(count_failures, &handler_calls));
  kcrt_buffer *y = NULL;
  ck_assert_int_eq(kcrt_buffer_from(dev, NULL, 4, &y), KCRT_ERROR_INVALID_VALUE);
  ck_assert_ptr_null(y);
  ck_assert_int_eq(handler_calls, 1);
  ck_assert_int_eq(handler_status, KCRT_ERROR_INVALID_VALUE);
  ck_assert_str_eq(handler_msg, "kcrt_buffer_from: NULL source");
  ck_assert_int_eq(kcrt_buffer_read(x, 399, b, 2), KCRT_ERROR_INVALID_VALUE);
  ck_assert_int_eq(handler_calls, 2);
  OK(kcrt_set_error_handler(NULL, NULL));
  ck_assert_int_eq(kcrt_buffer_from(dev, a, 0, &y), KCRT_ERROR_INVALID_VALUE);
  ck_assert_int_eq(handler_calls, 2); /* removed: not called */
  /* Sticky: the first of the three failures, then cleared. */
  ck_assert_int_eq(kcrt_get_error(), KCRT_ERROR_INVALID_VALUE);
  ck_assert_int_eq(kcrt_get_error(), KCRT_SUCCESS);

  kcrt_config c = kcrt_config_1d(dev, 1000, 256);
  ck_assert_ptr_eq(c.dev, dev);
  ck_assert_uint_eq(c.grid.x, 4);
  ck_assert_uint_eq(c.block.x, 256);
  ck_assert_uint_eq(c.grid.y * c.grid.z * c.block.y * c.block.z, 1);
  ck_assert_uint_eq(c.shared, 0);
  ck_assert_ptr_null(c.queue);
  ck_assert_uint_eq(kcrt_config_1d(dev, 1024, 256).grid.x, 4);
  ck_assert_ptr_nonnull(kcrt_device_describe(dev));
  OK(kcrt_buffer_free(x));
}
END_TEST

START_TEST(allocation_failure) {
  kcrt_buffer *b = NULL;
  FAILS(KCRT_ERROR_OUT_OF_MEMORY, "cannot allocate 1152921504606846976 bytes",
        kcrt_buffer_alloc(dev, (size_t)1 << 60, &b));
  ck_assert_ptr_null(b);
}
END_TEST

/* ---------------------------------------------------------------- launches */

START_TEST(launch_scale) {
  enum { N = 10007 };
  static float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (float)i + 0.5f;
  kcrt_buffer *b;
  OK(kcrt_buffer_alloc(dev, sizeof x, &b));
  OK(kcrt_buffer_write(b, 0, x, sizeof x));
  float a = 3.0f;
  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(a), KCRT_ARG_VALUE(n)};
  OK(kcrt_launch(kernel("scale"), NULL, KCRT_DIM1((N + 63) / 64), KCRT_DIM1(64), 0, args, 3));
  OK(kcrt_buffer_read(b, 0, y, sizeof y)); /* ordered after the launch on the default queue */
  for (int i = 0; i < N; i++) ck_assert_float_eq(y[i], x[i] * 3.0f);
  kcrt_kernel_info ki;
  OK(kcrt_kernel_get_info(kernel("scale"), &ki));
  ck_assert_str_eq(ki.name, "scale");
  ck_assert_int_eq(ki.num_params, 3);
  ck_assert_uint_gt(ki.max_threads_per_block, 0);
  kcrt_param_info pi;
  OK(kcrt_kernel_param_info(kernel("scale"), 1, &pi));
  ck_assert_str_eq(pi.name, "a");
  ck_assert_int_eq(pi.kind, KCRT_PARAM_SCALAR);
  FAILS(KCRT_ERROR_INVALID_VALUE, NULL, kcrt_kernel_param_info(kernel("scale"), 3, &pi));
  int count;
  OK(kcrt_module_kernel_count(mod, &count));
  ck_assert_int_eq(count, 11);
  ck_assert_str_eq(kcrt_module_kernel_name(mod, 1), "ids");
  ck_assert_ptr_null(kcrt_module_kernel_name(mod, 11));
  /* One handle per name. */
  ck_assert_ptr_eq(kernel("scale"), kernel("scale"));
}
END_TEST

START_TEST(launch_3d_mapping) {
  const unsigned G[3] = {3, 2, 2}, B[3] = {4, 2, 2};
  size_t gx = G[0] * B[0], gy = G[1] * B[1], gz = G[2] * B[2], n = gx * gy * gz;
  kcrt_buffer *b;
  OK(kcrt_buffer_alloc(dev, n * 4, &b));
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b)};
  OK(kcrt_launch(kernel("ids"), NULL, KCRT_DIM3(G[0], G[1], G[2]), KCRT_DIM3(B[0], B[1], B[2]), 0,
                 args, 1));
  unsigned *out = malloc(n * 4);
  OK(kcrt_buffer_read(b, 0, out, n * 4));
  for (size_t z = 0; z < gz; z++)
    for (size_t y = 0; y < gy; y++)
      for (size_t x = 0; x < gx; x++) {
        unsigned want = (unsigned)(x / B[0] | (y / B[1]) << 4 | (z / B[2]) << 8 | (x % B[0]) << 12 |
                                   (y % B[1]) << 16 | (z % B[2]) << 20 | G[0] << 24);
        ck_assert_uint_eq(out[x + gx * (y + gy * z)], want);
      }
  free(out);
}
END_TEST

START_TEST(launch_dynamic_shared) {
  for (int bs = 16; bs <= 256; bs *= 4) {
    int n = bs * 9, *d = malloc(n * sizeof *d), *r = malloc(n * sizeof *r);
    for (int i = 0; i < n; i++) d[i] = i * 3 + 1;
    kcrt_buffer *b;
    OK(kcrt_buffer_alloc(dev, n * sizeof *d, &b));
    OK(kcrt_buffer_write(b, 0, d, n * sizeof *d));
    kcrt_arg args[] = {KCRT_ARG_BUFFER(b)};
    OK(kcrt_launch(kernel("rev"), NULL, KCRT_DIM1(9), KCRT_DIM1(bs), bs * sizeof(int), args, 1));
    OK(kcrt_buffer_read(b, 0, r, n * sizeof *r));
    for (int i = 0; i < n; i++) ck_assert_int_eq(r[i], d[i / bs * bs + bs - 1 - i % bs]);
    OK(kcrt_buffer_free(b));
    free(d), free(r);
  }
}
END_TEST

START_TEST(launch_struct_by_value) {
  struct P {
    float a;
    double b;
    int c;
  } p = {1.5f, -2.25, 77};
  char c = -5;
  long l = -(1L << 40);
  kcrt_buffer *b;
  OK(kcrt_buffer_alloc(dev, 5 * sizeof(double), &b));
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(p), KCRT_ARG_VALUE(c), KCRT_ARG_VALUE(l)};
  OK(kcrt_launch(kernel("bystruct"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 4));
  double out[5];
  OK(kcrt_buffer_read(b, 0, out, sizeof out));
  ck_assert_double_eq(out[0], 1.5);
  ck_assert_double_eq(out[1], -2.25);
  ck_assert_double_eq(out[2], 77);
  ck_assert_double_eq(out[3], -5);
  ck_assert_double_eq(out[4], (double)l);
}
END_TEST

START_TEST(queues_and_events) {
  enum { N = 4096 };
  static float x[N];
  for (int i = 0; i < N; i++) x[i] = 2;
  kcrt_queue *q;
  kcrt_event *e0, *e1;
  kcrt_buffer *b;
  OK(kcrt_queue_create(dev, &q));
  OK(kcrt_event_create(dev, &e0));
  OK(kcrt_event_create(dev, &e1));
  OK(kcrt_buffer_alloc(dev, sizeof x, &b));
  OK(kcrt_buffer_write(b, 0, x, sizeof x));
  int iters = 20000;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(iters)};
  double ms = -1;
  FAILS(KCRT_ERROR_INVALID_VALUE, "never recorded", kcrt_event_elapsed_ms(e0, e1, &ms));
  OK(kcrt_event_synchronize(e0)); /* unrecorded: nothing to wait for */
  OK(kcrt_event_record(e0, q));
  OK(kcrt_launch(kernel("spin"), q, KCRT_DIM1(N / 64), KCRT_DIM1(64), 0, args, 2));
  OK(kcrt_event_record(e1, q));
  OK(kcrt_event_synchronize(e1));
  OK(kcrt_event_elapsed_ms(e0, e1, &ms));
  ck_assert_msg(ms > 0 && ms < 60000, "elapsed %g ms", ms);
  OK(kcrt_queue_synchronize(q));
  FAILS(KCRT_ERROR_INVALID_VALUE, NULL, kcrt_queue_synchronize(NULL));
  OK(kcrt_buffer_read(b, 0, x, sizeof x));
  ck_assert_float_lt(x[0], 2.0f);
  OK(kcrt_queue_destroy(q));
  OK(kcrt_event_destroy(e0));
  /* e1 is left for kcrt_device_close. */
}
END_TEST

/* Several threads launching the same kernel object on their own queues: argument setting and
 * enqueueing are one step per kernel, so no thread sees another's arguments. */
typedef struct Job {
  kcrt_kernel *k;
  float factor;
  int ok;
  char err[256];
} Job;

static void *worker(void *p) {
  Job *j = p;
  enum { N = 2048 };
  float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (float)i;
  kcrt_queue *q = NULL;
  kcrt_buffer *b = NULL;
  j->ok = kcrt_queue_create(dev, &q) == KCRT_SUCCESS && kcrt_buffer_alloc(dev, sizeof x, &b) == 0;
  for (int rep = 0; j->ok && rep < 20; rep++) {
    int n = N;
    kcrt_arg args[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(j->factor), KCRT_ARG_VALUE(n)};
    j->ok = kcrt_buffer_write(b, 0, x, sizeof x) == 0 &&
            kcrt_launch(j->k, q, KCRT_DIM1(N / 128), KCRT_DIM1(128), 0, args, 3) == 0 &&
            kcrt_queue_synchronize(q) == 0 && kcrt_buffer_read(b, 0, y, sizeof y) == 0;
    for (int i = 0; j->ok && i < N; i++) j->ok = y[i] == x[i] * j->factor;
  }
  if (!j->ok) snprintf(j->err, sizeof j->err, "%s", kcrt_last_error());
  kcrt_buffer_free(b);
  kcrt_queue_destroy(q);
  return NULL;
}

START_TEST(threads) {
  enum { T = 4 };
  pthread_t th[T];
  Job jobs[T];
  for (int i = 0; i < T; i++) {
    jobs[i] = (Job){kernel("scale"), (float)(i + 2), 0, ""};
    pthread_create(&th[i], NULL, worker, &jobs[i]);
  }
  for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < T; i++) ck_assert_msg(jobs[i].ok, "thread %d: %s", i, jobs[i].err);
}
END_TEST

static void *fail_in_thread(void *p) {
  kcrt_kernel *k;
  kcrt_kernel_get(p, "thread-local-name", &k);
  return NULL;
}

START_TEST(last_error_is_per_thread) {
  kcrt_kernel *k;
  FAILS(KCRT_ERROR_KERNEL_NOT_FOUND, "'main-thread-name'",
        kcrt_kernel_get(mod, "main-thread-name", &k));
  pthread_t t;
  pthread_create(&t, NULL, fail_in_thread, mod);
  pthread_join(t, NULL);
  ck_assert_ptr_nonnull(strstr(kcrt_last_error(), "main-thread-name"));
}
END_TEST

/* ---------------------------------------------------------------- errors */

START_TEST(unknown_kernel) {
  kcrt_kernel *k = NULL;
  FAILS(KCRT_ERROR_KERNEL_NOT_FOUND, "no kernel 'nope' in module api.k; it has: scale, ids",
        kcrt_kernel_get(mod, "nope", &k));
  ck_assert_ptr_null(k);
}
END_TEST

START_TEST(argument_checks) {
  kcrt_kernel *k = kernel("scale");
  kcrt_buffer *b;
  OK(kcrt_buffer_alloc(dev, 64, &b));
  float a = 2;
  int n = 16;
  double wide = 2;
  kcrt_dim3 g = KCRT_DIM1(1), bl = KCRT_DIM1(16);
  kcrt_arg two[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(a)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT,
        "kernel 'scale' takes 3 arguments (float *x, float a, int n), got 2",
        kcrt_launch(k, NULL, g, bl, 0, two, 2));
  kcrt_arg size[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(wide), KCRT_ARG_VALUE(n)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "argument 2 (float a) is 4 bytes, got 8",
        kcrt_launch(k, NULL, g, bl, 0, size, 3));
  kcrt_arg value_for_ptr[] = {KCRT_ARG_VALUE(n), KCRT_ARG_VALUE(a), KCRT_ARG_VALUE(n)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "argument 1 (float *x) is a pointer: pass a buffer",
        kcrt_launch(k, NULL, g, bl, 0, value_for_ptr, 3));
  kcrt_arg buf_for_value[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(n)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "takes a 4-byte value, not a buffer",
        kcrt_launch(k, NULL, g, bl, 0, buf_for_value, 3));
  kcrt_arg null_value[] = {KCRT_ARG_BUFFER(b), {NULL, 4, NULL}, KCRT_ARG_VALUE(n)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "has no value", kcrt_launch(k, NULL, g, bl, 0, null_value, 3));
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "got 3", kcrt_launch(k, NULL, g, bl, 0, NULL, 3));
  /* A null pointer is a valid pointer argument (the kernel does not touch it with n = 0). */
  int zero = 0;
  kcrt_arg null_ptr[] = {KCRT_ARG_BUFFER(NULL), KCRT_ARG_VALUE(a), KCRT_ARG_VALUE(zero)};
  OK(kcrt_launch(k, NULL, g, bl, 0, null_ptr, 3));
  OK(kcrt_device_synchronize(dev));
}
END_TEST

/* Element type tags against the table's pointee codes: scalar pointees are checked, a void
 * pointee takes any buffer, an unnamed parameter is named by its position only. */
START_TEST(element_type_tags) {
  kcrt_kernel *k = kernel("bytes");
  kcrt_buffer *f, *s, *i;
  OK(kcrt_buffer_alloc(dev, 64, &f));
  OK(kcrt_buffer_alloc(dev, 64, &s));
  OK(kcrt_buffer_alloc(dev, 64, &i));
  OK(kcrt_buffer_set_type(f, KCRT_TYPE_FLOAT, 4));
  OK(kcrt_buffer_set_type(s, KCRT_TYPE_STRUCT, 16));
  OK(kcrt_buffer_set_type(i, KCRT_TYPE_INT32, 4));
  kcrt_dim3 g = KCRT_DIM1(1), bl = KCRT_DIM1(16);
  kcrt_arg float_void[] = {KCRT_ARG_BUFFER(f), KCRT_ARG_BUFFER(i)};
  OK(kcrt_launch(k, NULL, g, bl, 0, float_void, 2));
  kcrt_arg struct_void[] = {KCRT_ARG_BUFFER(s), KCRT_ARG_BUFFER(i)};
  OK(kcrt_launch(k, NULL, g, bl, 0, struct_void, 2));
  kcrt_arg float_int[] = {KCRT_ARG_BUFFER(i), KCRT_ARG_BUFFER(f)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT,
        "kernel 'bytes' argument 2: buffer holds float, kernel expects int (int *)",
        kcrt_launch(k, NULL, g, bl, 0, float_int, 2));
  OK(kcrt_device_synchronize(dev));
  int32_t got[16];
  OK(kcrt_buffer_read(i, 0, got, sizeof got));
  for (int j = 0; j < 16; j++) ck_assert_int_eq(got[j], 7);
}
END_TEST

/* Local-memory parameters: kcrt_local(bytes) at their positions, the dynamic __local after
 * them; random block sizes, every element checked. */
START_TEST(launch_local_args) {
  kcrt_kernel *k = kernel("locals");
  for (int bs = 8; bs <= 128; bs *= 2) {
    int nb = 7, n = bs * nb, add = bs + 3;
    float *d = malloc(n * sizeof *d), *r = malloc(n * sizeof *r);
    for (int i = 0; i < n; i++) d[i] = (float)(i * 7 % 101) - 50;
    kcrt_buffer *b;
    OK(kcrt_buffer_alloc(dev, n * sizeof *d, &b));
    OK(kcrt_buffer_set_type(b, KCRT_TYPE_FLOAT, 0));
    OK(kcrt_buffer_write(b, 0, d, n * sizeof *d));
    /* The dynamic shared size is unused by the kernel: any value, 0 included. */
    kcrt_arg args[] = {KCRT_ARG_BUFFER(b), kcrt_local(bs * sizeof(float)), KCRT_ARG_VALUE(add),
                       KCRT_ARG_LOCAL(bs * sizeof(int)), kcrt_local(bs * sizeof(int) + 5)};
    OK(kcrt_launch(k, NULL, KCRT_DIM1(nb), KCRT_DIM1(bs), bs == 32 ? 12 : 0, args, 5));
    OK(kcrt_buffer_read(b, 0, r, n * sizeof *r));
    for (int i = 0; i < n; i++)
      ck_assert_float_eq(r[i], d[i / bs * bs + bs - 1 - i % bs] + (float)add);
    OK(kcrt_buffer_free(b));
    free(d), free(r);
  }
  kcrt_param_info pi;
  OK(kcrt_kernel_param_info(k, 1, &pi));
  ck_assert_int_eq(pi.kind, KCRT_PARAM_LOCAL);
  ck_assert_int_eq(pi.elem_type, KCRT_TYPE_FLOAT);
  ck_assert_uint_eq(pi.size, 4);
}
END_TEST

/* Every misuse of a local-memory argument, and of a local size for another parameter. */
START_TEST(local_arg_checks) {
  kcrt_kernel *k = kernel("locals");
  kcrt_device_info info;
  OK(kcrt_device_get_info(dev, &info));
  kcrt_buffer *b;
  OK(kcrt_buffer_alloc(dev, 256, &b));
  int n = 1;
  kcrt_dim3 g = KCRT_DIM1(1), bl = KCRT_DIM1(16);
  kcrt_arg value_for_local[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(n), KCRT_ARG_VALUE(n),
                                kcrt_local(64), kcrt_local(64)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT,
        "argument 2 (shared float *a) is local memory: pass its size in bytes "
        "(kcrt_local(bytes)), not a value",
        kcrt_launch(k, NULL, g, bl, 0, value_for_local, 5));
  kcrt_arg buffer_for_local[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(n),
                                 kcrt_local(64), kcrt_local(64)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "not a buffer",
        kcrt_launch(k, NULL, g, bl, 0, buffer_for_local, 5));
  kcrt_arg zero[] = {KCRT_ARG_BUFFER(b), kcrt_local(64), KCRT_ARG_VALUE(n), kcrt_local(0),
                     kcrt_local(64)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "argument 4 (shared int *b): local memory of 0 bytes",
        kcrt_launch(k, NULL, g, bl, 0, zero, 5));
  kcrt_arg local_for_ptr[] = {kcrt_local(64), kcrt_local(64), KCRT_ARG_VALUE(n), kcrt_local(64),
                              kcrt_local(64)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT,
        "argument 1 (float *d) is not local memory: kcrt_local(64) is only for",
        kcrt_launch(k, NULL, g, bl, 0, local_for_ptr, 5));
  kcrt_arg local_for_value[] = {KCRT_ARG_BUFFER(b), kcrt_local(64), kcrt_local(4), kcrt_local(64),
                                kcrt_local(64)};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "argument 3 (int n) is not local memory",
        kcrt_launch(k, NULL, g, bl, 0, local_for_value, 5));
  /* Each buffer fits alone; together, 16-aligned after the dynamic bytes, they do not. */
  size_t third = info.max_shared_bytes / 3;
  kcrt_arg big[] = {KCRT_ARG_BUFFER(b), kcrt_local(third), KCRT_ARG_VALUE(n), kcrt_local(third),
                    kcrt_local(third)};
  FAILS(KCRT_ERROR_INVALID_LAUNCH, "local-memory arguments, each 16-byte aligned) exceeds",
        kcrt_launch(k, NULL, g, bl, 64, big, 5));
  kcrt_arg huge[] = {KCRT_ARG_BUFFER(b), kcrt_local(SIZE_MAX), KCRT_ARG_VALUE(n),
                     kcrt_local(SIZE_MAX), kcrt_local(16)};
  FAILS(KCRT_ERROR_INVALID_LAUNCH, "exceeds the device maximum",
        kcrt_launch(k, NULL, g, bl, 0, huge, 5));
  /* The layout rounds each start up to 16: sizes that fit exactly still launch. */
  uint64_t room = info.max_shared_bytes - 64;
  kcrt_kernel_info ki;
  OK(kcrt_kernel_get_info(k, &ki));
  room -= (ki.static_shared_bytes + 15) / 16 * 16;
  kcrt_arg fit[] = {KCRT_ARG_BUFFER(b), kcrt_local(16), KCRT_ARG_VALUE(n), kcrt_local(64),
                    kcrt_local(room - 80)};
  OK(kcrt_launch(k, NULL, g, bl, 0, fit, 5));
  OK(kcrt_device_synchronize(dev));
}
END_TEST

/* reqd_work_group_size: only the required shape launches; the message names it. */
START_TEST(required_block_shape) {
  kcrt_kernel *k = kernel("fixed");
  kcrt_kernel_info ki;
  OK(kcrt_kernel_get_info(k, &ki));
  ck_assert_uint_eq(ki.required_block[0], 8);
  ck_assert_uint_eq(ki.required_block[1], 2);
  ck_assert_uint_eq(ki.required_block[2], 1);
  OK(kcrt_kernel_get_info(kernel("scale"), &ki));
  ck_assert_uint_eq(ki.required_block[0], 0);
  kcrt_buffer *b;
  OK(kcrt_buffer_alloc(dev, 3 * 8 * 2 * 4, &b));
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b)};
  FAILS(KCRT_ERROR_INVALID_LAUNCH,
        "kernel 'fixed' requires blocks of exactly 8 x 2 x 1 threads (reqd_work_group_size), "
        "got 16 x 1 x 1",
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(16), 0, args, 1));
  FAILS(KCRT_ERROR_INVALID_LAUNCH, "got 8 x 1 x 2",
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM3(8, 1, 2), 0, args, 1));
  OK(kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM3(8, 2, 1), 0, args, 1));
  uint32_t got[16];
  OK(kcrt_buffer_read(b, 0, got, sizeof got));
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 8; x++) ck_assert_uint_eq(got[x + 8 * y], (uint32_t)(x + 100 * y));
}
END_TEST

/* Vectors by value and buffers of vectors, with element-type tags: float4 * takes a float4
 * buffer only; a 3-vector is 16 bytes. */
START_TEST(vector_params) {
  kcrt_kernel *k = kernel("vscale");
  enum { N = 32 };
  float v[N][4], r[N][4];
  int32_t w[N][4], rw[N][4];
  for (int i = 0; i < N; i++)
    for (int c = 0; c < 4; c++) v[i][c] = (float)(i * 4 + c), w[i][c] = i - c;
  float a[4] = {1, -2, 0.5f, 3};
  int32_t bv[4] = {10, 20, 30, 99};
  kcrt_buffer *bvb, *bwb, *bf;
  OK(kcrt_buffer_alloc(dev, sizeof v, &bvb));
  OK(kcrt_buffer_alloc(dev, sizeof w, &bwb));
  OK(kcrt_buffer_alloc(dev, sizeof v, &bf));
  OK(kcrt_buffer_set_type(bvb, KCRT_TYPE_VECTOR(KCRT_TYPE_FLOAT, 4), 0));
  OK(kcrt_buffer_set_type(bwb, KCRT_TYPE_VECTOR(KCRT_TYPE_INT32, 3), 16));
  OK(kcrt_buffer_set_type(bf, KCRT_TYPE_FLOAT, 0));
  FAILS(KCRT_ERROR_INVALID_VALUE, "float4 elements are 16 bytes, not 12",
        kcrt_buffer_set_type(bf, KCRT_TYPE_VECTOR(KCRT_TYPE_FLOAT, 4), 12));
  FAILS(KCRT_ERROR_INVALID_VALUE, "unknown element type",
        kcrt_buffer_set_type(bf, KCRT_TYPE_VECTOR(KCRT_TYPE_BOOL, 4), 0));
  FAILS(KCRT_ERROR_INVALID_VALUE, "unknown element type",
        kcrt_buffer_set_type(bf, KCRT_TYPE_VECTOR(KCRT_TYPE_FLOAT, 5), 0));
  OK(kcrt_buffer_write(bvb, 0, v, sizeof v));
  OK(kcrt_buffer_write(bwb, 0, w, sizeof w));
  kcrt_arg args[] = {
      KCRT_ARG_BUFFER(bvb), {a, sizeof a, NULL}, KCRT_ARG_BUFFER(bwb), {bv, sizeof bv, NULL}};
  OK(kcrt_launch(k, NULL, KCRT_DIM1(N / 8), KCRT_DIM1(8), 0, args, 4));
  OK(kcrt_buffer_read(bvb, 0, r, sizeof r));
  OK(kcrt_buffer_read(bwb, 0, rw, sizeof rw));
  for (int i = 0; i < N; i++) {
    for (int c = 0; c < 4; c++) ck_assert_float_eq(r[i][c], v[i][c] * a[c]);
    for (int c = 0; c < 3; c++) ck_assert_int_eq(rw[i][c], w[i][c] + bv[c]);
  }
  kcrt_arg wrong[] = {
      KCRT_ARG_BUFFER(bf), {a, sizeof a, NULL}, KCRT_ARG_BUFFER(bwb), {bv, sizeof bv, NULL}};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT,
        "kernel 'vscale' argument 1 'v': buffer holds float, kernel expects float4 (float4 *v)",
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(8), 0, wrong, 4));
  kcrt_arg wrong2[] = {
      KCRT_ARG_BUFFER(bvb), {a, sizeof a, NULL}, KCRT_ARG_BUFFER(bvb), {bv, sizeof bv, NULL}};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "buffer holds float4, kernel expects int3",
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(8), 0, wrong2, 4));
  kcrt_arg small[] = {
      KCRT_ARG_BUFFER(bvb), {a, 12, NULL}, KCRT_ARG_BUFFER(bwb), {bv, sizeof bv, NULL}};
  FAILS(KCRT_ERROR_INVALID_ARGUMENT, "argument 2 (float4 a) is 16 bytes, got 12",
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(8), 0, small, 4));
  kcrt_param_info pi;
  OK(kcrt_kernel_param_info(k, 3, &pi));
  ck_assert_int_eq(pi.kind, KCRT_PARAM_SCALAR);
  ck_assert_int_eq(pi.elem_type, KCRT_TYPE_VECTOR(KCRT_TYPE_INT32, 3));
  ck_assert_uint_eq(pi.size, 16);
  OK(kcrt_kernel_param_info(k, 0, &pi));
  ck_assert_int_eq(pi.elem_type, KCRT_TYPE_VECTOR(KCRT_TYPE_FLOAT, 4));
}
END_TEST

START_TEST(launch_limits) {
  kcrt_kernel *k = kernel("scale");
  kcrt_device_info info;
  OK(kcrt_device_get_info(dev, &info));
  kcrt_buffer *b;
  OK(kcrt_buffer_alloc(dev, 64, &b));
  float a = 2;
  int n = 0;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(a), KCRT_ARG_VALUE(n)};
  char msg[256];
  snprintf(msg, sizeof msg, "grid dimension x = 1125899906842624 exceeds the device maximum %llu",
           (unsigned long long)info.max_grid_dim[0]);
  FAILS(KCRT_ERROR_INVALID_LAUNCH, msg,
        kcrt_launch(k, NULL, KCRT_DIM1(1ull << 50), KCRT_DIM1(32), 0, args, 3));
  FAILS(KCRT_ERROR_INVALID_LAUNCH, "grid dimension z = 1125899906842624",
        kcrt_launch(k, NULL, KCRT_DIM3(1, 1, 1ull << 50), KCRT_DIM1(32), 0, args, 3));
  FAILS(KCRT_ERROR_INVALID_LAUNCH, "block dimension y = 0",
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM3(4, 0, 1), 0, args, 3));
  FAILS(KCRT_ERROR_INVALID_LAUNCH, "grid dimension x = 0",
        kcrt_launch(k, NULL, KCRT_DIM1(0), KCRT_DIM1(4), 0, args, 3));
  snprintf(msg, sizeof msg, "block dimension x = %llu exceeds the device maximum %llu",
           (unsigned long long)info.max_block_dim[0] + 1,
           (unsigned long long)info.max_block_dim[0]);
  FAILS(KCRT_ERROR_INVALID_LAUNCH, msg,
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(info.max_block_dim[0] + 1), 0, args, 3));
  /* Every dimension within its limit, the product beyond the threads-per-block limit. */
  uint64_t bx = info.max_block_dim[0], by = info.max_threads_per_block / bx + 1;
  if (by <= info.max_block_dim[1]) {
    FAILS(KCRT_ERROR_INVALID_LAUNCH, "threads per block",
          kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM3(bx, by, 1), 0, args, 3));
  }
  snprintf(msg, sizeof msg, "exceeds the device maximum %llu bytes per block",
           (unsigned long long)info.max_shared_bytes);
  FAILS(KCRT_ERROR_INVALID_LAUNCH, msg,
        kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(1), info.max_shared_bytes + 1, args, 3));
  /* A kernel whose static shared memory alone is too much (1 GiB in its table entry). */
  int iters = 1;
  kcrt_arg sargs[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(iters)};
  FAILS(KCRT_ERROR_INVALID_LAUNCH, "1073741824 + 0 bytes (static + dynamic)",
        kcrt_launch(kernel("hungry"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, sargs, 2));
  /* Nothing reached the driver: the device is still fine. */
  OK(kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 3));
  OK(kcrt_device_synchronize(dev));
}
END_TEST

START_TEST(corrupted_bundles) {
  size_t len;
  unsigned char *img = make_bundle(NULL, &len);
  kcrt_module *m = NULL;
  FAILS(KCRT_ERROR_INVALID_MODULE, "truncated", kcrt_module_load(dev, img, len / 2, &m));
  img[0] = 'X';
  FAILS(KCRT_ERROR_INVALID_MODULE, "bad magic", kcrt_module_load(dev, img, len, &m));
  img[0] = 0x89;
  /* The OpenCL C section (the last) pushed past the end, resealed. */
  unsigned char *e = img + KCB_HEADER_SIZE + 2 * KCB_SECTION_ENTRY_SIZE;
  kcb_put64(e + 16, len);
  kcb_put64(img + KCB_H_CHECKSUM, kcb_checksum(img, len));
  FAILS(KCRT_ERROR_INVALID_MODULE, "lies outside", kcrt_module_load(dev, img, len, &m));
  ck_assert_ptr_null(m);
  FAILS(KCRT_ERROR_INVALID_VALUE, NULL, kcrt_module_load(dev, NULL, 10, &m));
  /* Through a file: the message names it. */
  char *path = tu_write("bad.kcb", "this is not a bundle, just some text long enough.....");
  FAILS(KCRT_ERROR_INVALID_MODULE, "bad.kcb: invalid bundle", kcrt_module_load_file(dev, path, &m));
  FAILS(KCRT_ERROR_IO, "cannot open '/nonexistent/x.kcb'",
        kcrt_module_load_file(dev, "/nonexistent/x.kcb", &m));
  free(img);
}
END_TEST

START_TEST(no_usable_form) {
  size_t len;
  unsigned char *img = make_bundle("", &len); /* kernel table only */
  kcrt_module *m = NULL;
  FAILS(KCRT_ERROR_NO_BINARY, "no OpenCL C", kcrt_module_load(dev, img, len, &m));
  free(img);
}
END_TEST

START_TEST(build_failure_keeps_log) {
  size_t len;
  unsigned char *img =
      make_bundle("__kernel void scale(__global float *x) { this is not C; }\n", &len);
  kcrt_module *m = NULL;
  FAILS(KCRT_ERROR_BUILD_FAILED, "build log", kcrt_module_load(dev, img, len, &m));
  ck_assert_msg(strstr(kcrt_last_error(), "error"), "no compiler message in: %s",
                kcrt_last_error());
  free(img);
}
END_TEST

START_TEST(table_program_mismatch) {
  kcrt_kernel *k = NULL;
  FAILS(KCRT_ERROR_INVALID_MODULE, "takes 1 arguments but the kernel table describes 2",
        kcrt_kernel_get(mod, "mismatch", &k));
}
END_TEST

/* ---------------------------------------------------------------- the on-disk cache */

static int count_entries(const char *dir, bool damage) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strstr(e->d_name, ".bin") || strstr(e->d_name, ".tmp")) continue;
    n++;
    if (damage) {
      char p[1024];
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      FILE *f = fopen(p, "r+b");
      fseek(f, -5, SEEK_END);
      fputc('#', f);
      fclose(f);
    }
  }
  closedir(d);
  return n;
}

START_TEST(disk_cache) {
  char home[512], dir[600];
  snprintf(home, sizeof home, "%s/cache", tu_tmpdir());
  snprintf(dir, sizeof dir, "%s/kcc", home);
  setenv("XDG_CACHE_HOME", home, 1);
  size_t len;
  unsigned char *img = make_bundle(NULL, &len);
  char *src = memmem(img, len, "source=api.k", 12);
  ck_assert_ptr_nonnull(src);
  src[8] = 'q'; /* a bundle no other test loaded: its hash differs */
  kcb_put64(img + KCB_H_CHECKSUM, kcb_checksum(img, len));
  kcrt_module *m;
  setenv("KCC_CACHE", "0", 1);
  OK(kcrt_module_load(dev, img, len, &m));
  OK(kcrt_module_unload(m));
  ck_assert_int_eq(count_entries(dir, false), 0);
  unsetenv("KCC_CACHE");
  OK(kcrt_module_load(dev, img, len, &m));
  OK(kcrt_module_unload(m));
  ck_assert_int_eq(count_entries(dir, false), 1);
  /* A second device context loads from the entry; a damaged entry is ignored and replaced. */
  count_entries(dir, true);
  kcrt_device *d2;
  OK(kcrt_device_open_default(&d2));
  OK(kcrt_module_load(d2, img, len, &m));
  kcrt_kernel *k;
  OK(kcrt_kernel_get(m, "scale", &k));
  OK(kcrt_device_close(d2));
  ck_assert_int_eq(count_entries(dir, false), 1);
  free(img);
}
END_TEST

/* ---------------------------------------------------------------- a bundle of no kernel */

/* In a child, on the device KCC_DEVICE=`sel` names: loads `path` (kcc's bundle of a file
 * without a kernel) and looks a kernel up. Exit 0 as expected, 77 no such device, else 1. */
static int zero_kernel_child(const char *sel, const char *path) {
  setenv("KCC_DEVICE", sel, 1);
  kcrt_device *d;
  if (kcrt_device_open_default(&d) != KCRT_SUCCESS) return 77;
  kcrt_module *m = NULL;
  kcrt_kernel *k = NULL;
  int count = -1;
  if (kcrt_module_load_file(d, path, &m) != KCRT_SUCCESS) {
    fprintf(stderr, "%s: load: %s\n", sel, kcrt_last_error());
    return 1;
  }
  if (kcrt_module_kernel_count(m, &count) != KCRT_SUCCESS || count != 0) return 1;
  kcrt_status st = kcrt_kernel_get(m, "weigh", &k);
  static const char want[] = "no kernel 'weigh' in module none.cl; it has: no kernels";
  if (st != KCRT_ERROR_KERNEL_NOT_FOUND || k || strcmp(kcrt_last_error(), want)) {
    fprintf(stderr, "%s: kcrt_kernel_get gave %s: %s\n", sel, kcrt_status_name(st),
            kcrt_last_error());
    return 1;
  }
  return kcrt_module_unload(m) == KCRT_SUCCESS && kcrt_device_close(d) == KCRT_SUCCESS ? 0 : 1;
}

/* kcc writes a file without a kernel in every form but Vulkan's (and warns): its bundle loads
 * on every back end, Vulkan's without a Vulkan form, and names no kernel. Each back end in a
 * child of its own (the device list is made once per process, for one KCC_DEVICE). */
START_TEST(zero_kernel_bundle) {
  tu_write("none.cl", "__constant float w[2] = {1.0f, 2.0f};\n"
                      "float weigh(float x) { return x * w[1]; }\n");
  char cmd[1024], path[512];
  snprintf(cmd, sizeof cmd, "cd %s && %s -w none.cl -o none.kcb", tu_tmpdir(), tu_kcc());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/none.kcb", tu_tmpdir());
  const char *sels[] = {"opencl", "vulkan", "cuda"};
  int ran = 0;
  for (size_t i = 0; i < sizeof sels / sizeof *sels; i++) {
    pid_t pid = fork();
    if (pid == 0) _exit(zero_kernel_child(sels[i], path));
    int st = 0;
    waitpid(pid, &st, 0);
    ck_assert_msg(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 77),
                  "%s: the zero-kernel bundle failed (status %d)", sels[i], st);
    ran += WEXITSTATUS(st) == 0;
  }
  ck_assert_int_ge(ran, 1);
}
END_TEST

Suite *suite(void) {
  Suite *s = suite_create("runtime_api");
  TCase *tc = tcase_create("api");
  tcase_set_timeout(tc, 300);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, statuses_have_names);
  tcase_add_test(tc, device_info);
  tcase_add_test(tc, device_selection);
  tcase_add_test(tc, buffers);
  tcase_add_test(tc, convenience);
  tcase_add_test(tc, allocation_failure);
  tcase_add_test(tc, launch_scale);
  tcase_add_test(tc, launch_3d_mapping);
  tcase_add_test(tc, launch_dynamic_shared);
  tcase_add_test(tc, launch_struct_by_value);
  tcase_add_test(tc, queues_and_events);
  tcase_add_test(tc, threads);
  tcase_add_test(tc, last_error_is_per_thread);
  tcase_add_test(tc, unknown_kernel);
  tcase_add_test(tc, argument_checks);
  tcase_add_test(tc, element_type_tags);
  tcase_add_test(tc, launch_limits);
  tcase_add_test(tc, corrupted_bundles);
  tcase_add_test(tc, no_usable_form);
  tcase_add_test(tc, build_failure_keeps_log);
  tcase_add_test(tc, table_program_mismatch);
  tcase_add_test(tc, launch_local_args);
  tcase_add_test(tc, local_arg_checks);
  tcase_add_test(tc, required_block_shape);
  tcase_add_test(tc, vector_params);
  tcase_add_test(tc, disk_cache);
  suite_add_tcase(s, tc);
  /* No fixture: no driver is initialised before the test's children are forked. */
  TCase *bare = tcase_create("bare");
  tcase_set_timeout(bare, 120);
  tcase_add_test(bare, zero_kernel_bundle);
  suite_add_tcase(s, bare);
  return s;
}

int main(void) {
  setenv("KCC_DEVICE", "opencl", 0);
  /* Without a device there is nothing to test: skip (ctest SKIP_RETURN_CODE 77). The check
   * runs in a child so that this process initialises no driver before Check forks. */
  pid_t pid = fork();
  if (pid == 0) {
    kcrt_device *d;
    _exit(kcrt_device_open_default(&d) == KCRT_SUCCESS ? 0 : 77);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
    printf("no device: skipping the runtime API tests\n");
    return 77;
  }
  return tu_main(suite());
}
