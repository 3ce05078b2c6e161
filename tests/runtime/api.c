/* api.c — libkcrt's API and error statuses on kcc's own bundles, on whatever device is the
 * default (PoCL here, CUDA or NVIDIA OpenCL on the GPU machine):
 *   usage: rt_api VECADD.kcb DYNSHARED.kcb [--devices]
 * Queues and events, launches from several threads, dynamic shared memory beyond CUDA's
 * default 48 KiB per block (the opt-in path), and each named error: corrupted bundles
 * (truncated, bad magic, a section out of bounds), unknown kernel, wrong argument count and
 * size, an oversized launch (2^50 blocks), a failed allocation (2^60 bytes), a module the
 * driver cannot build (its log kept), a bundle with no form for the device; and a bundle with
 * broken cubins, which a CUDA device must load from its PTX instead. Also the per-device
 * module table (kcrt_module_get: one handle per bundle address, raced for by threads, owned
 * and released by the device) and buffers tagged with their element type, checked at launch
 * (kcrt_buffer_set_type). */
#define _GNU_SOURCE
#include "rt_common.h"
#include "kcb_format.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *d = malloc(n > 0 ? (size_t)n : 1);
  *len = d ? fread(d, 1, (size_t)n, f) : 0;
  fclose(f);
  return d;
}

static void expect_msg(Rt *rt, const char *what, const char *needle) {
  if (!strstr(kcrt_last_error(), needle))
    rt_fail(rt, "%s: message '%s' lacks '%s'", what, kcrt_last_error(), needle);
}

static void corrupted_bundles(Rt *rt, const unsigned char *img, size_t len) {
  unsigned char *m = malloc(len);
  kcrt_module *mod = NULL;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_MODULE, kcrt_module_load(rt->dev, img, len - 1, &mod));
  expect_msg(rt, "truncated bundle", "truncated");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_MODULE, kcrt_module_load(rt->dev, img, 30, &mod));
  memcpy(m, img, len);
  m[2] ^= 0xff;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_MODULE, kcrt_module_load(rt->dev, m, len, &mod));
  expect_msg(rt, "bad magic", "bad magic");
  /* The last section pushed past the end, with the checksum recomputed so that only the
   * bounds check can catch it. */
  memcpy(m, img, len);
  uint32_t ns = kcb_get32(m + KCB_H_SECTION_COUNT);
  unsigned char *e = m + KCB_HEADER_SIZE + (ns - 1) * KCB_SECTION_ENTRY_SIZE;
  kcb_put64(e + 16, kcb_get64(e + 16) + 64);
  kcb_put64(m + KCB_H_CHECKSUM, kcb_checksum(m, len));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_MODULE, kcrt_module_load(rt->dev, m, len, &mod));
  expect_msg(rt, "section out of bounds", "lies outside");
  /* A flipped payload byte: the checksum. */
  memcpy(m, img, len);
  m[len - 10] ^= 0x20;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_MODULE, kcrt_module_load(rt->dev, m, len, &mod));
  expect_msg(rt, "corrupted byte", "checksum");
  if (mod) rt_fail(rt, "a failed load returned a module");
  free(m);
}

static void argument_and_launch_errors(Rt *rt, kcrt_kernel *k) {
  kcrt_buffer *b = rt_alloc(rt, 1024);
  int n = 256;
  long wide = 256;
  kcrt_arg good[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(n)};
  kcrt_arg three[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b)};
  kcrt_arg size[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b),
                     KCRT_ARG_VALUE(wide)};
  kcrt_dim3 one = KCRT_DIM1(1), blk = KCRT_DIM1(256);
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT, kcrt_launch(k, NULL, one, blk, 0, three, 3));
  expect_msg(rt, "argument count", "takes 4 arguments");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT, kcrt_launch(k, NULL, one, blk, 0, size, 4));
  expect_msg(rt, "argument size", "is 4 bytes, got 8");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_LAUNCH,
            kcrt_launch(k, NULL, KCRT_DIM1(1ull << 50), blk, 0, good, 4));
  char msg[128];
  snprintf(msg, sizeof msg, "grid dimension x = 1125899906842624 exceeds the device maximum %llu",
           (unsigned long long)rt->info.max_grid_dim[0]);
  expect_msg(rt, "2^50 blocks", msg);
  RT_EXPECT(rt, KCRT_ERROR_INVALID_LAUNCH,
            kcrt_launch(k, NULL, one, KCRT_DIM1(rt->info.max_threads_per_block * 2), 0, good, 4));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_LAUNCH,
            kcrt_launch(k, NULL, one, blk, rt->info.max_shared_bytes + 1, good, 4));
  expect_msg(rt, "shared memory", "bytes per block");
  kcrt_buffer *huge = NULL;
  RT_EXPECT(rt, KCRT_ERROR_OUT_OF_MEMORY, kcrt_buffer_alloc(rt->dev, (size_t)1 << 60, &huge));
  kcrt_kernel *none = NULL;
  RT_EXPECT(rt, KCRT_ERROR_KERNEL_NOT_FOUND, kcrt_kernel_get(rt->mod, "vecadd_typo", &none));
  expect_msg(rt, "unknown kernel", "it has: vecadd");
  /* After all that, the device still works. */
  RT_CHECK(rt, kcrt_launch(k, NULL, one, blk, 0, good, 4));
  RT_CHECK(rt, kcrt_device_synchronize(rt->dev));
  kcrt_buffer_free(b);
}

/* Each thread: its own queue and buffers, the shared kernel object, 30 launches. */
typedef struct Job {
  Rt *rt;
  kcrt_kernel *k;
  int id, ok;
  char err[512];
} Job;

static void *worker(void *p) {
  Job *j = p;
  enum { N = 4096 };
  static __thread float a[N], b[N], c[N];
  kcrt_queue *q = NULL;
  kcrt_buffer *da = NULL, *db = NULL, *dc = NULL;
  j->ok = !kcrt_queue_create(j->rt->dev, &q) && !kcrt_buffer_alloc(j->rt->dev, sizeof a, &da) &&
          !kcrt_buffer_alloc(j->rt->dev, sizeof a, &db) &&
          !kcrt_buffer_alloc(j->rt->dev, sizeof a, &dc);
  for (int rep = 0; j->ok && rep < 30; rep++) {
    for (int i = 0; i < N; i++) a[i] = (float)(j->id * 1000 + rep), b[i] = (float)i;
    int n = N;
    kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                       KCRT_ARG_VALUE(n)};
    j->ok = !kcrt_buffer_write(da, 0, a, sizeof a) && !kcrt_buffer_write(db, 0, b, sizeof b) &&
            !kcrt_launch(j->k, q, KCRT_DIM1(N / 256), KCRT_DIM1(256), 0, args, 4) &&
            !kcrt_queue_synchronize(q) && !kcrt_buffer_read(dc, 0, c, sizeof c);
    for (int i = 0; j->ok && i < N; i++) j->ok = c[i] == a[i] + b[i];
  }
  if (!j->ok) snprintf(j->err, sizeof j->err, "%s", kcrt_last_error());
  kcrt_buffer_free(da), kcrt_buffer_free(db), kcrt_buffer_free(dc);
  kcrt_queue_destroy(q);
  return NULL;
}

static void threads(Rt *rt, kcrt_kernel *k) {
  enum { T = 4 };
  pthread_t th[T];
  Job jobs[T];
  for (int i = 0; i < T; i++) {
    jobs[i] = (Job){rt, k, i, 0, ""};
    pthread_create(&th[i], NULL, worker, &jobs[i]);
  }
  for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < T; i++)
    if (!jobs[i].ok) rt_fail(rt, "thread %d: %s", i, jobs[i].err);
}

static void events(Rt *rt, kcrt_kernel *k) {
  enum { N = 1 << 20 };
  kcrt_queue *q;
  kcrt_event *e0, *e1;
  RT_CHECK(rt, kcrt_queue_create(rt->dev, &q));
  RT_CHECK(rt, kcrt_event_create(rt->dev, &e0));
  RT_CHECK(rt, kcrt_event_create(rt->dev, &e1));
  kcrt_buffer *a = rt_alloc(rt, N * 4), *c = rt_alloc(rt, N * 4);
  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(a), KCRT_ARG_BUFFER(a), KCRT_ARG_BUFFER(c), KCRT_ARG_VALUE(n)};
  RT_CHECK(rt, kcrt_event_record(e0, q));
  for (int i = 0; i < 10; i++)
    RT_CHECK(rt, kcrt_launch(k, q, KCRT_DIM1(N / 256), KCRT_DIM1(256), 0, args, 4));
  RT_CHECK(rt, kcrt_event_record(e1, q));
  double ms = -1;
  RT_CHECK(rt, kcrt_event_elapsed_ms(e0, e1, &ms));
  if (!(ms > 0 && ms < 60000))
    rt_fail(rt, "10 launches over 2^20 elements took %g ms?", ms);
  else
    printf("events: 10 x vecadd(2^20) on a queue: %.3f ms\n", ms);
  RT_CHECK(rt, kcrt_queue_destroy(q));
  kcrt_event_destroy(e0), kcrt_event_destroy(e1);
  kcrt_buffer_free(a), kcrt_buffer_free(c);
}

/* reverse_blocks with more dynamic shared memory than CUDA grants without opting in. */
static void big_dynamic_shared(Rt *rt, const char *path) {
  kcrt_module *m;
  RT_CHECK(rt, kcrt_module_load_file(rt->dev, path, &m));
  kcrt_kernel *k;
  RT_CHECK(rt, kcrt_kernel_get(m, "reverse_blocks", &k));
  kcrt_kernel_info ki;
  RT_CHECK(rt, kcrt_kernel_get_info(k, &ki));
  /* What the device allows beside the kernel's own static shared memory (a driver may report
   * a few bytes of it even for a kernel that declares none). */
  size_t dyn = 64 * 1024;
  if (dyn > rt->info.max_shared_bytes - ki.static_shared_bytes)
    dyn = rt->info.max_shared_bytes - ki.static_shared_bytes;
  enum { BS = 256, NB = 64, N = BS * NB };
  float d[N], want[N];
  for (int i = 0; i < N; i++) d[i] = rt_float(rt, 1, 2) + i;
  for (int i = 0; i < N; i++) want[i] = d[i / BS * BS + BS - 1 - i % BS];
  kcrt_buffer *b = rt_upload(rt, d, sizeof d);
  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(n)};
  rt_launch(rt, k, KCRT_DIM1(NB), KCRT_DIM1(BS), dyn, args, 2);
  rt_download(rt, b, d, sizeof d);
  rt_cmp_f32(rt, "reverse_blocks with large dynamic shared memory", d, want, N, 0, 0);
  RT_CHECK(rt, kcrt_module_unload(m));
}

/* ---------------------------------------------------------------- kcrt_module_get */

typedef struct GetJob {
  kcrt_device *dev;
  const unsigned char *img;
  size_t len;
  kcrt_module *mod;
  kcrt_status st;
} GetJob;

static void *get_worker(void *p) {
  GetJob *j = p;
  j->st = kcrt_module_get(j->dev, j->img, j->len, &j->mod);
  return NULL;
}

/* vecadd from `m`, checked: the module is alive and belongs to `dev`. */
static void vecadd_on(Rt *rt, kcrt_device *dev, kcrt_module *m, const char *what) {
  enum { N = 300 };
  float a[N], c[N], want[N];
  for (int i = 0; i < N; i++) a[i] = rt_float(rt, -5, 5), want[i] = a[i] + a[i];
  kcrt_kernel *k;
  kcrt_buffer *da, *dc;
  RT_CHECK(rt, kcrt_kernel_get(m, "vecadd", &k));
  RT_CHECK(rt, kcrt_buffer_alloc(dev, sizeof a, &da));
  RT_CHECK(rt, kcrt_buffer_alloc(dev, sizeof c, &dc));
  RT_CHECK(rt, kcrt_buffer_write(da, 0, a, sizeof a));
  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_VALUE(n)};
  RT_CHECK(rt, kcrt_launch(k, NULL, KCRT_DIM1(2), KCRT_DIM1(256), 0, args, 4));
  RT_CHECK(rt, kcrt_buffer_read(dc, 0, c, sizeof c));
  rt_cmp_f32(rt, what, c, want, N, 0, 0);
  kcrt_buffer_free(da), kcrt_buffer_free(dc);
}

static void module_get(Rt *rt, const unsigned char *img, size_t len) {
  kcrt_module *m1 = NULL, *m2 = NULL, *m3 = NULL, *m4 = NULL;
  RT_CHECK(rt, kcrt_module_get(rt->dev, img, len, &m1));
  RT_CHECK(rt, kcrt_module_get(rt->dev, img, len, &m2));
  if (!m1 || m1 != m2) rt_fail(rt, "kcrt_module_get: two calls, two modules");
  if (m1 == rt->mod) rt_fail(rt, "kcrt_module_get returned kcrt_module_load's module");
  /* The key is the address: the same bytes elsewhere are another module; another bundle put
   * at the same address (here the same one with its reserved header field changed, which
   * changes the checksum) is another module too. */
  unsigned char *copy = malloc(len);
  memcpy(copy, img, len);
  RT_CHECK(rt, kcrt_module_get(rt->dev, copy, len, &m3));
  if (m3 == m1) rt_fail(rt, "kcrt_module_get: a copy at another address got the same module");
  copy[KCB_H_RESERVED] ^= 1;
  kcb_put64(copy + KCB_H_CHECKSUM, kcb_checksum(copy, len));
  RT_CHECK(rt, kcrt_module_get(rt->dev, copy, len, &m4));
  if (m4 == m3) rt_fail(rt, "kcrt_module_get: a new bundle at the same address got the old module");
  free(copy); /* read at the first load only: m3 and m4 do not need it */
  vecadd_on(rt, rt->dev, m4, "vecadd through kcrt_module_get, bundle since freed");
  /* The device owns these: unload is refused, and the module still works. */
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_module_unload(m1));
  expect_msg(rt, "unloading a kcrt_module_get module", "belongs to its device");
  vecadd_on(rt, rt->dev, m1, "vecadd after a refused kcrt_module_unload");
  /* Failures are reported and not remembered. */
  kcrt_module *bad = NULL;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_MODULE, kcrt_module_get(rt->dev, img, len - 1, &bad));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_MODULE, kcrt_module_get(rt->dev, img, len - 1, &bad));
  expect_msg(rt, "kcrt_module_get of a truncated bundle", "truncated");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_module_get(NULL, img, len, &bad));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_module_get(rt->dev, NULL, len, &bad));
  if (bad) rt_fail(rt, "a failed kcrt_module_get returned a module");

  /* Threads racing for the first load on a fresh device all get one module; closing the
   * device releases it (LSan sees a leak otherwise), and a device opened afterwards, which
   * may have the closed one's address, loads its own. */
  enum { T = 8 };
  for (int round = 0; round < 2; round++) {
    kcrt_device *dev;
    RT_CHECK(rt, kcrt_device_open_default(&dev));
    pthread_t th[T];
    GetJob jobs[T];
    for (int i = 0; i < T; i++) {
      jobs[i] = (GetJob){dev, img, len, NULL, KCRT_ERROR_DRIVER};
      pthread_create(&th[i], NULL, get_worker, &jobs[i]);
    }
    for (int i = 0; i < T; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < T; i++) {
      RT_CHECK(rt, jobs[i].st);
      if (jobs[i].mod != jobs[0].mod) rt_fail(rt, "thread %d got another module", i);
    }
    vecadd_on(rt, dev, jobs[0].mod, "vecadd on a fresh device through kcrt_module_get");
    RT_CHECK(rt, kcrt_device_close(dev));
  }
  printf("kcrt_module_get: one module per address, %d threads, unload refused\n", T);
}

/* ---------------------------------------------------------------- element type tags */

static void buffer_types(Rt *rt, kcrt_kernel *k) {
  enum { N = 256 };
  kcrt_buffer *a = rt_alloc(rt, N * sizeof(float)), *c = rt_alloc(rt, N * sizeof(float));
  kcrt_elem_type t = KCRT_TYPE_DOUBLE;
  size_t es = 99;
  RT_CHECK(rt, kcrt_buffer_get_type(a, &t, &es));
  if (t != KCRT_TYPE_NONE || es != 0) rt_fail(rt, "a new buffer is tagged %d/%zu", (int)t, es);
  /* What set_type refuses. */
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_set_type(a, KCRT_TYPE_INT32, 8));
  expect_msg(rt, "int of 8 bytes", "int elements are 4 bytes, not 8");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_set_type(a, (kcrt_elem_type)99, 4));
  expect_msg(rt, "unknown type", "unknown element type 99");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_set_type(a, KCRT_TYPE_STRUCT, 0));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_set_type(a, KCRT_TYPE_STRUCT, 24));
  expect_msg(rt, "struct size", "a 1024-byte buffer cannot hold 24-byte elements");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_set_type(a, KCRT_TYPE_NONE, 4));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_set_type(NULL, KCRT_TYPE_FLOAT, 4));
  RT_CHECK(rt, kcrt_buffer_set_type(a, KCRT_TYPE_FLOAT, 0)); /* 0: the type's own size */
  RT_CHECK(rt, kcrt_buffer_get_type(a, &t, &es));
  if (t != KCRT_TYPE_FLOAT || es != 4) rt_fail(rt, "tagged float, reads %d/%zu", (int)t, es);

  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(a), KCRT_ARG_BUFFER(a), KCRT_ARG_BUFFER(c), KCRT_ARG_VALUE(n)};
  kcrt_dim3 one = KCRT_DIM1(1), blk = KCRT_DIM1(N);
  RT_CHECK(rt, kcrt_buffer_set_type(c, KCRT_TYPE_INT32, sizeof(int32_t)));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT, kcrt_launch(k, NULL, one, blk, 0, args, 4));
  expect_msg(rt, "int buffer for float *c",
             "kernel 'vecadd' argument 3 'c': buffer holds int, kernel expects float");
  RT_CHECK(rt, kcrt_buffer_set_type(c, KCRT_TYPE_UINT32, 4)); /* same size, other type */
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT, kcrt_launch(k, NULL, one, blk, 0, args, 4));
  expect_msg(rt, "unsigned buffer for float *c", "buffer holds unsigned int, kernel expects float");
  RT_CHECK(rt, kcrt_buffer_set_type(c, KCRT_TYPE_STRUCT, 8));
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT, kcrt_launch(k, NULL, one, blk, 0, args, 4));
  expect_msg(rt, "struct buffer for float *c", "buffer holds 8-byte structs, kernel expects float");
  /* Untagged again: accepted, as any untagged buffer is; then the right tag. */
  RT_CHECK(rt, kcrt_buffer_set_type(c, KCRT_TYPE_NONE, 0));
  RT_CHECK(rt, kcrt_launch(k, NULL, one, blk, 0, args, 4));
  RT_CHECK(rt, kcrt_buffer_set_type(c, KCRT_TYPE_FLOAT, sizeof(float)));
  RT_CHECK(rt, kcrt_launch(k, NULL, one, blk, 0, args, 4));
  RT_CHECK(rt, kcrt_device_synchronize(rt->dev));
  kcrt_buffer_free(a), kcrt_buffer_free(c);
}

/* A copy of the bundle `img` with every section of `kind` given `payload` (resealed). */
static unsigned char *replace_sections(const unsigned char *img, uint32_t kind, const void *payload,
                                       size_t plen, size_t *len) {
  uint32_t ns = kcb_get32(img + KCB_H_SECTION_COUNT);
  KcbWSection *secs = calloc(ns, sizeof *secs);
  for (uint32_t i = 0; i < ns; i++) {
    const unsigned char *e = img + KCB_HEADER_SIZE + i * KCB_SECTION_ENTRY_SIZE;
    secs[i] =
        (KcbWSection){kcb_get32(e), kcb_get32(e + 4), img + kcb_get64(e + 8), kcb_get64(e + 16)};
    if (secs[i].kind == kind) secs[i].data = payload, secs[i].size = plen;
  }
  unsigned char *out = kcb_write_bundle(secs, ns, len);
  free(secs);
  return out;
}

/* Which form a device loads, and what happens when that form is broken. */
static void forms(Rt *rt, const unsigned char *img) {
  kcrt_module *m = NULL;
  size_t n;
  /* Driver code that fails to build: the status and the driver's log. */
  static const char bad_ptx[] = ".version 7.8\n.target sm_75\n.address_size 64\nthis is not PTX;\n";
  static const char bad_cl[] = "__kernel void vecadd(__global float *a) { this is not C; }\n";
  unsigned char *b1 = replace_sections(img, KCB_SEC_PTX, bad_ptx, sizeof bad_ptx - 1, &n);
  unsigned char *b2 = replace_sections(b1, KCB_SEC_OPENCL_C, bad_cl, sizeof bad_cl - 1, &n);
  unsigned char *b3 = replace_sections(b2, KCB_SEC_CUBIN, "", 0, &n); /* no usable cubin */
  unsigned char *b4 = replace_sections(b3, KCB_SEC_SPIRV, "", 0, &n);
  setenv("KCC_CUDA_FORM", "ptx", 1);
  RT_EXPECT(rt, KCRT_ERROR_BUILD_FAILED, kcrt_module_load(rt->dev, b4, n, &m));
  unsetenv("KCC_CUDA_FORM");
  if (!strchr(kcrt_last_error(), '\n'))
    rt_fail(rt, "build failure without the driver's log: '%s'", kcrt_last_error());
  else
    printf("build failure reported as: %.200s\n", kcrt_last_error());
  free(b1), free(b2), free(b3), free(b4);
  /* Broken cubins (a CUDA device must fall back to the PTX) and no SPIR-V: still runs. */
  b1 = replace_sections(img, KCB_SEC_CUBIN,
                        "\x7f"
                        "ELF garbage",
                        12, &n);
  RT_CHECK(rt, kcrt_module_load(rt->dev, b1, n, &m));
  kcrt_kernel *k;
  RT_CHECK(rt, kcrt_kernel_get(m, "vecadd", &k));
  float a[256], c[256];
  for (int i = 0; i < 256; i++) a[i] = rt_float(rt, 1, 2);
  kcrt_buffer *da = rt_upload(rt, a, sizeof a), *dc = rt_alloc(rt, sizeof c);
  int cnt = 256;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_VALUE(cnt)};
  rt_launch(rt, k, KCRT_DIM1(1), KCRT_DIM1(256), 0, args, 4);
  rt_download(rt, dc, c, sizeof c);
  for (int i = 0; i < 256; i++) a[i] = a[i] + a[i];
  rt_cmp_f32(rt, "vecadd from a bundle with broken cubins", c, a, 256, 0, 0);
  RT_CHECK(rt, kcrt_module_unload(m));
  kcrt_buffer_free(da), kcrt_buffer_free(dc);
  free(b1);
  /* Nothing this device can load: NVIDIA code for a future arch only, no OpenCL forms. */
  b1 = replace_sections(img, KCB_SEC_OPENCL_C, "", 0, &n);
  b2 = replace_sections(b1, KCB_SEC_SPIRV, "", 0, &n);
  uint32_t ns = kcb_get32(b2 + KCB_H_SECTION_COUNT);
  for (uint32_t i = 0; i < ns; i++) {
    unsigned char *e = b2 + KCB_HEADER_SIZE + i * KCB_SECTION_ENTRY_SIZE;
    uint32_t kind = kcb_get32(e);
    if (kind == KCB_SEC_PTX || kind == KCB_SEC_CUBIN) kcb_put32(e + 4, 1000 + i);
    if (kind == KCB_SEC_OPENCL_C || kind == KCB_SEC_SPIRV) kcb_put32(e, 77); /* unknown kind */
  }
  kcb_put64(b2 + KCB_H_CHECKSUM, kcb_checksum(b2, n));
  RT_EXPECT(rt, KCRT_ERROR_NO_BINARY, kcrt_module_load(rt->dev, b2, n, &m));
  free(b1), free(b2);
}

/* kcrt_buffer_address / kcrt_buffer_wrap: on CUDA, a wrapper over part of a buffer's memory
 * (as CuPy's or PyTorch's would be) is launched on in place and the writes land in the
 * owner's buffer; ranges outside one allocation and addresses the driver does not know are
 * refused. On OpenCL both calls say they are CUDA's only. */
static void interop(Rt *rt, kcrt_kernel *k) {
  enum { N = 256, OFF = 64 };
  kcrt_buffer *own, *w = NULL;
  uint64_t addr = 0;
  RT_CHECK(rt, kcrt_buffer_alloc(rt->dev, N * sizeof(float), &own));
  if (rt->info.backend != KCRT_BACKEND_CUDA) {
    RT_EXPECT(rt, KCRT_ERROR_NOT_SUPPORTED, kcrt_buffer_address(own, &addr));
    expect_msg(rt, "kcrt_buffer_address on OpenCL",
               "kcrt_buffer_address: OpenCL buffers have no device address to share (CUDA "
               "and Vulkan devices only)");
    RT_EXPECT(rt, KCRT_ERROR_NOT_SUPPORTED, kcrt_device_wait_stream(rt->dev, 1));
    expect_msg(rt, "kcrt_device_wait_stream on OpenCL",
               "kcrt_device_wait_stream: OpenCL devices have no CUDA streams");
    RT_EXPECT(rt, KCRT_ERROR_NOT_SUPPORTED, kcrt_buffer_wrap(rt->dev, 4096, 16, &w));
    expect_msg(rt, "kcrt_buffer_wrap on OpenCL",
               "kcrt_buffer_wrap: OpenCL devices cannot use other libraries' device memory "
               "(CUDA devices only)");
    kcrt_buffer_free(own);
    return;
  }
  float a[N], c[N];
  for (int i = 0; i < N; i++) a[i] = rt_float(rt, -5, 5);
  RT_CHECK(rt, kcrt_buffer_write(own, 0, a, sizeof a));
  RT_CHECK(rt, kcrt_buffer_address(own, &addr));
  RT_CHECK(rt, kcrt_device_wait_stream(rt->dev, 1)); /* the legacy default stream */
  RT_CHECK(rt, kcrt_device_wait_stream(rt->dev, 2)); /* the per-thread one */
  int n = N - OFF;
  RT_CHECK(rt, kcrt_buffer_wrap(rt->dev, addr + OFF * sizeof(float), n * sizeof(float), &w));
  uint64_t waddr = 0;
  RT_CHECK(rt, kcrt_buffer_address(w, &waddr));
  if (waddr != addr + OFF * sizeof(float)) rt_fail(rt, "the wrapper's address moved");
  /* c[i] = a[i] + a[i] over the tail, in place through the wrapper */
  kcrt_arg args[] = {KCRT_ARG_BUFFER(w), KCRT_ARG_BUFFER(w), KCRT_ARG_BUFFER(w), KCRT_ARG_VALUE(n)};
  RT_CHECK(rt, kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(256), 0, args, 4));
  RT_CHECK(rt, kcrt_buffer_free(w));
  RT_CHECK(rt, kcrt_buffer_read(own, 0, c, sizeof c)); /* the owner's memory, still alive */
  float want[N];
  for (int i = 0; i < N; i++) want[i] = i < OFF ? a[i] : a[i] + a[i];
  rt_cmp_f32(rt, "through kcrt_buffer_wrap", c, want, N, 0, 0);
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE,
            kcrt_buffer_wrap(rt->dev, addr + OFF * sizeof(float), N * sizeof(float), &w));
  expect_msg(rt, "a range past the allocation", "pass the end of its allocation");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_wrap(rt->dev, 4096, 16, &w));
  expect_msg(rt, "an unknown address", "is not device memory the CUDA driver knows");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_wrap(rt->dev, addr, 0, &w));
  kcrt_buffer_free(own);
}

/* Several devices: kcrt_device_open_gpus / _all open what the list has (PoCL: one CPU, no
 * GPU), and kcrt_buffer_copy between two devices (here the same one opened twice: two
 * contexts, so the copy goes through the host) moves the bytes, ranges checked. */
static void multi_device(Rt *rt) {
  kcrt_device *devs[4];
  int n = -1, count = 0;
  RT_CHECK(rt, kcrt_device_count(&count));
  RT_CHECK(rt, kcrt_device_open_all(devs, 4, &n));
  if (n < 1 || n > count) rt_fail(rt, "kcrt_device_open_all opened %d of %d devices", n, count);
  for (int i = 0; i < n; i++) RT_CHECK(rt, kcrt_device_close(devs[i]));
  RT_CHECK(rt, kcrt_device_open_gpus(devs, 4, &n));
  for (int i = 0; i < n; i++) {
    kcrt_device_info info;
    RT_CHECK(rt, kcrt_device_get_info(devs[i], &info));
    if (info.type != KCRT_DEVICE_GPU) rt_fail(rt, "kcrt_device_open_gpus opened %s", info.name);
    RT_CHECK(rt, kcrt_device_close(devs[i]));
  }
  RT_CHECK(rt, kcrt_device_open_all(devs, 0, &n));
  if (n != 0) rt_fail(rt, "max 0 opened %d devices", n);
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_device_open_gpus(NULL, 4, &n));

  kcrt_device *other;
  RT_CHECK(rt, kcrt_device_open_default(&other));
  enum { N = 100003 };
  static unsigned char a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = (unsigned char)rt_u32(rt);
  kcrt_buffer *x, *y;
  RT_CHECK(rt, kcrt_buffer_alloc(rt->dev, N, &x));
  RT_CHECK(rt, kcrt_buffer_alloc(other, N, &y));
  RT_CHECK(rt, kcrt_buffer_write(x, 0, a, N));
  RT_CHECK(rt, kcrt_buffer_fill(y, 0, 0, N));
  RT_CHECK(rt, kcrt_buffer_copy(y, 3, x, 1, N - 7));
  RT_CHECK(rt, kcrt_buffer_read(y, 0, b, N));
  int bad = b[0] || b[1] || b[2];
  for (int i = 3; i < N - 4; i++) bad += b[i] != a[i - 2];
  for (int i = N - 4; i < N; i++) bad += b[i] != 0;
  if (bad) rt_fail(rt, "copy between devices: %d bytes wrong", bad);
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_copy(y, 8, x, 0, N - 7));
  kcrt_buffer_free(x), kcrt_buffer_free(y);
  RT_CHECK(rt, kcrt_device_close(other));
}

int main(int argc, char **argv) {
  if (argc > 3 && !strcmp(argv[3], "--devices")) kcrt_print_devices(stdout);
  Rt rt;
  rt_init(&rt, argc, argv, "api");
  if (argc < 3) {
    fprintf(stderr, "usage: rt_api VECADD.kcb DYNSHARED.kcb [--devices]\n");
    return 2;
  }
  size_t len;
  unsigned char *img = slurp(argv[1], &len);
  if (!img || len < 100) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  kcrt_kernel *k = rt_kernel(&rt, "vecadd");
  corrupted_bundles(&rt, img, len);
  argument_and_launch_errors(&rt, k);
  events(&rt, k);
  threads(&rt, k);
  big_dynamic_shared(&rt, argv[2]);
  forms(&rt, img);
  module_get(&rt, img, len);
  buffer_types(&rt, k);
  interop(&rt, k);
  multi_device(&rt);
  free(img);
  return rt_finish(&rt,
                   "errors, events, 4 threads, large dynamic shared memory, forms, "
                   "kcrt_module_get, element type tags, device-address interop, several devices");
}
