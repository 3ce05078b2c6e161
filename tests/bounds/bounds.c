/* bounds.c — `kcc -fbounds-check` end to end: tests/bounds/oob.k compiled with the checker,
 * run through libkcrt on the default device (PoCL here: OpenCL C, or SPIR-V with
 * KCC_OPENCL_FORM=spirv; a GPU through tests/gpu/run.sh: PTX/cubin and NVIDIA OpenCL). Each
 * kernel is launched so that exactly one thread makes one bad access; the next synchronising
 * call must return KCRT_ERROR_OUT_OF_BOUNDS with exactly the expected message, the bad access
 * must not have happened (a bad load reads 0), and every good access must have. Views
 * (kcrt_buffer_view: part of a buffer) are checked against their own size.
 *
 * Usage: rt_bounds CHECKED.kcb [UNCHECKED.kcb]. With the unchecked bundle, the kernels that
 * have no bad access are also run unchecked and must give identical results. */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Rt rt;

/* Waits for the device and compares the status and message with what is expected (want NULL:
 * success). */
static void expect(const char *what, kcrt_status st, const char *want) {
  if (!st) st = kcrt_device_synchronize(rt.dev);
  if (!want) {
    if (st) rt_fail(&rt, "%s: %s: %s", what, kcrt_status_name(st), kcrt_last_error());
    return;
  }
  if (st != KCRT_ERROR_OUT_OF_BOUNDS) {
    rt_fail(&rt, "%s: got %s (%s), want KCRT_ERROR_OUT_OF_BOUNDS", what, kcrt_status_name(st),
            kcrt_last_error());
    return;
  }
  if (strcmp(kcrt_last_error(), want))
    rt_fail(&rt, "%s: message\n  got  %s\n  want %s", what, kcrt_last_error(), want);
  /* Reported once: the record is clear for the next launches. */
  st = kcrt_device_synchronize(rt.dev);
  if (st) rt_fail(&rt, "%s: a second synchronize returned %s", what, kcrt_status_name(st));
}

static kcrt_buffer *upload_f32(const float *v, size_t n) {
  return rt_upload(&rt, v, n * sizeof *v);
}

static void t_vecadd(void) {
  enum { N = 1000 };
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = rt_float(&rt, -1, 1), b[i] = rt_float(&rt, -1, 1);
  kcrt_buffer *ba = upload_f32(a, N), *bb = upload_f32(b, N), *bc = rt_alloc(&rt, N * 4);
  kcrt_kernel *k = rt_kernel(&rt, "vecadd");
  int n = N + 1; /* one thread too many: thread 232 of block 3 */
  kcrt_arg args[] = {KCRT_ARG_BUFFER(ba), KCRT_ARG_BUFFER(bb), KCRT_ARG_BUFFER(bc),
                     KCRT_ARG_VALUE(n)};
  expect("vecadd, n one past the buffers",
         kcrt_launch(k, NULL, KCRT_DIM1(4), KCRT_DIM1(256), 0, args, 4),
         "kernel 'vecadd' at oob.k:5:16: thread (232,0,0) of block (3,0,0) writes c[1000]; c "
         "holds 1000 float (4000 bytes)");
  rt_download(&rt, bc, c, sizeof c);
  float want[N];
  for (int i = 0; i < N; i++) want[i] = a[i] + b[i];
  rt_cmp_f32(&rt, "vecadd c", c, want, N, 0, 0);
  /* In bounds: success. */
  n = N;
  expect("vecadd in bounds", kcrt_launch(k, NULL, KCRT_DIM1(4), KCRT_DIM1(256), 0, args, 4), NULL);
  kcrt_buffer_free(ba);
  kcrt_buffer_free(bb);
  kcrt_buffer_free(bc);
}

static void t_gather(void) {
  enum { N = 300, M = 1000 };
  static float src[M], dst[N];
  static int idx[N];
  for (int i = 0; i < M; i++) src[i] = rt_float(&rt, -1, 1);
  for (int i = 0; i < N; i++) idx[i] = rt_int(&rt, 0, M - 1);
  kcrt_kernel *k = rt_kernel(&rt, "gather");
  int n = N;
  int bad[] = {M, -3, 1 << 20};
  const char *msgs[] = {
      "kernel 'gather' at oob.k:10:25: thread (17,0,0) of block (1,0,0) reads src[1000]; src "
      "holds 1000 float (4000 bytes)",
      "kernel 'gather' at oob.k:10:25: thread (17,0,0) of block (1,0,0) reads src[-3]; src "
      "holds 1000 float (4000 bytes)",
      "kernel 'gather' at oob.k:10:25: thread (17,0,0) of block (1,0,0) reads src[1048576]; src "
      "holds 1000 float (4000 bytes)",
  };
  for (int t = 0; t < 3; t++) {
    idx[145] = bad[t]; /* block 1 (of 128 threads), thread 17 */
    kcrt_buffer *bs = upload_f32(src, M), *bi = rt_upload(&rt, idx, sizeof idx),
                *bd = rt_alloc(&rt, sizeof dst);
    kcrt_arg args[] = {KCRT_ARG_BUFFER(bs), KCRT_ARG_BUFFER(bi), KCRT_ARG_BUFFER(bd),
                       KCRT_ARG_VALUE(n)};
    expect("gather", kcrt_launch(k, NULL, KCRT_DIM1(3), KCRT_DIM1(128), 0, args, 4), msgs[t]);
    rt_download(&rt, bd, dst, sizeof dst);
    float want[N];
    for (int i = 0; i < N; i++) want[i] = i == 145 ? 0.0f : src[idx[i]]; /* a bad load is 0 */
    rt_cmp_f32(&rt, "gather dst", dst, want, N, 0, 0);
    kcrt_buffer_free(bs);
    kcrt_buffer_free(bi);
    kcrt_buffer_free(bd);
  }
}

static void t_row_sum(void) {
  enum { R = 40, C = 25 };
  static float m[R * C - 1], out[R]; /* the last row is one element short */
  for (int i = 0; i < R * C - 1; i++) m[i] = (float)rt_int(&rt, -8, 8);
  kcrt_buffer *bm = upload_f32(m, R * C - 1), *bo = rt_alloc(&rt, sizeof out);
  int rows = R, cols = C;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bm), KCRT_ARG_BUFFER(bo), KCRT_ARG_VALUE(rows),
                     KCRT_ARG_VALUE(cols)};
  expect("row_sum (derived pointer)",
         kcrt_launch(rt_kernel(&rt, "row_sum"), NULL, KCRT_DIM1(2), KCRT_DIM1(32), 0, args, 4),
         "kernel 'row_sum' at oob.k:19:41: thread (7,0,0) of block (1,0,0) reads m[999]; m holds "
         "999 float (3996 bytes)");
  rt_download(&rt, bo, out, sizeof out);
  float want[R];
  for (int r = 0; r < R; r++) {
    want[r] = 0;
    for (int c = 0; c < C; c++) want[r] += r * C + c < R * C - 1 ? m[r * C + c] : 0.0f;
  }
  rt_cmp_f32(&rt, "row_sum out", out, want, R, 0, 0);
  kcrt_buffer_free(bm);
  kcrt_buffer_free(bo);
}

static void t_through_call(void) {
  enum { N = 100 };
  static float src[N], dst[N];
  for (int i = 0; i < N; i++) src[i] = rt_float(&rt, -1, 1);
  kcrt_buffer *bs = upload_f32(src, N), *bd = rt_alloc(&rt, sizeof dst);
  int n = N, shift = 1; /* thread 99 reads src[100] */
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bs), KCRT_ARG_BUFFER(bd), KCRT_ARG_VALUE(n),
                     KCRT_ARG_VALUE(shift)};
  expect(
      "through_call (device function)",
      kcrt_launch(rt_kernel(&rt, "through_call"), NULL, KCRT_DIM1(1), KCRT_DIM1(128), 0, args, 4),
      "kernel 'through_call' at oob.k:24:12: thread (99,0,0) of block (0,0,0) reads src[100]; "
      "src holds 100 float (400 bytes)");
  rt_download(&rt, bd, dst, sizeof dst);
  float want[N];
  for (int i = 0; i < N; i++) want[i] = i + 1 < N ? src[i + 1] : 0.0f;
  rt_cmp_f32(&rt, "through_call dst", dst, want, N, 0, 0);
  kcrt_buffer_free(bs);
  kcrt_buffer_free(bd);
}

static void t_shared(void) {
  float out[65];
  kcrt_buffer *bo = rt_alloc(&rt, sizeof out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bo)};
  expect(
      "shared_static, a block of 65",
      kcrt_launch(rt_kernel(&rt, "shared_static"), NULL, KCRT_DIM1(1), KCRT_DIM1(65), 0, args, 1),
      "kernel 'shared_static' at oob.k:35:5: thread (64,0,0) of block (0,0,0) writes "
      "tile[64]; tile holds 64 float (256 bytes)");
  rt_download(&rt, bo, out, sizeof out);
  float want[65];
  for (int i = 0; i < 65; i++) want[i] = (float)(i % 64);
  rt_cmp_f32(&rt, "shared_static out", out, want, 65, 0, 0);
  expect("shared_dynamic, 64 floats for 65 threads",
         kcrt_launch(rt_kernel(&rt, "shared_dynamic"), NULL, KCRT_DIM1(1), KCRT_DIM1(65), 256, args,
                     1),
         "kernel 'shared_dynamic' at oob.k:42:5: thread (64,0,0) of block (0,0,0) writes "
         "buf[64]; buf holds 64 float (256 bytes)");
  rt_download(&rt, bo, out, sizeof out);
  for (int i = 0; i < 65; i++) want[i] = 1.0f;
  rt_cmp_f32(&rt, "shared_dynamic out", out, want, 65, 0, 0);
  kcrt_buffer_free(bo);
}

static void t_local_array(void) {
  enum { N = 64 };
  int count[N];
  float out[N];
  for (int i = 0; i < N; i++) count[i] = rt_int(&rt, 1, 8);
  count[37] = 9; /* acc[8] */
  kcrt_buffer *bc = rt_upload(&rt, count, sizeof count), *bo = rt_alloc(&rt, sizeof out);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bc), KCRT_ARG_BUFFER(bo)};
  expect("local_array",
         kcrt_launch(rt_kernel(&rt, "local_array"), NULL, KCRT_DIM1(2), KCRT_DIM1(32), 0, args, 2),
         "kernel 'local_array' at oob.k:51:33: thread (5,0,0) of block (1,0,0) writes acc[8]; acc "
         "holds 8 float (32 bytes)");
  rt_download(&rt, bo, out, sizeof out);
  float want[N];
  for (int i = 0; i < N; i++) want[i] = 0.0f;
  rt_cmp_f32(&rt, "local_array out", out, want, N, 0, 0);
  kcrt_buffer_free(bc);
  kcrt_buffer_free(bo);
}

static void t_points(void) {
  enum { N = 100 };
  float pts[2 * N], out[N];
  for (int i = 0; i < 2 * N; i++) pts[i] = rt_float(&rt, -1, 1);
  kcrt_buffer *bp = rt_upload(&rt, pts, sizeof pts), *bo = rt_alloc(&rt, sizeof out);
  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bp), KCRT_ARG_BUFFER(bo), KCRT_ARG_VALUE(n)};
  expect("points (struct elements)",
         kcrt_launch(rt_kernel(&rt, "points"), NULL, KCRT_DIM1(1), KCRT_DIM1(128), 0, args, 3),
         "kernel 'points' at oob.k:61:25: thread (99,0,0) of block (0,0,0) reads pts[100]; pts "
         "holds 100 struct P (800 bytes)");
  rt_download(&rt, bo, out, sizeof out);
  float want[N];
  for (int i = 0; i < N; i++) want[i] = (i + 1 < N ? pts[2 * (i + 1) + 1] : 0.0f) - pts[2 * i];
  rt_cmp_f32(&rt, "points out", out, want, N, 0, 0);
  kcrt_buffer_free(bp);
  kcrt_buffer_free(bo);
}

static void t_histogram(void) {
  enum { N = 500, B = 16 };
  int v[N];
  unsigned hist[B], want[B] = {0};
  for (int i = 0; i < N; i++) v[i] = rt_int(&rt, 0, B - 1);
  v[261] = B + 4;
  for (int i = 0; i < N; i++)
    if (v[i] < B) want[v[i]]++;
  kcrt_buffer *bv = rt_upload(&rt, v, sizeof v), *bh = rt_alloc(&rt, sizeof hist);
  RT_CHECK(&rt, kcrt_buffer_fill(bh, 0, 0, sizeof hist));
  int n = N;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bv), KCRT_ARG_BUFFER(bh), KCRT_ARG_VALUE(n)};
  expect("histogram (atomic)",
         kcrt_launch(rt_kernel(&rt, "histogram"), NULL, KCRT_DIM1(2), KCRT_DIM1(256), 0, args, 3),
         "kernel 'histogram' at oob.k:66:16: thread (5,0,0) of block (1,0,0) updates hist[20]; "
         "hist holds 16 unsigned int (64 bytes)");
  rt_download(&rt, bh, hist, sizeof hist);
  rt_cmp_u32(&rt, "histogram", hist, want, B);
  kcrt_buffer_free(bv);
  kcrt_buffer_free(bh);
}

/* A view of part of a buffer: the kernel sees the view's size, not its parent's. */
static void t_view(void) {
  enum { N = 1024, OFF = 256, M = 100 };
  static float a[N], c[N];
  for (int i = 0; i < N; i++) a[i] = rt_float(&rt, -1, 1);
  kcrt_buffer *ba = upload_f32(a, N), *bc = upload_f32(a, N), *va, *vc;
  RT_CHECK(&rt, kcrt_buffer_view(ba, OFF * 4, M * 4, &va));
  RT_CHECK(&rt, kcrt_buffer_view(bc, OFF * 4, M * 4, &vc));
  int n = M + 1;
  kcrt_arg args[] = {KCRT_ARG_BUFFER(va), KCRT_ARG_BUFFER(va), KCRT_ARG_BUFFER(vc),
                     KCRT_ARG_VALUE(n)};
  expect("vecadd on views of 100 floats at element 256",
         kcrt_launch(rt_kernel(&rt, "vecadd"), NULL, KCRT_DIM1(1), KCRT_DIM1(128), 0, args, 4),
         "kernel 'vecadd' at oob.k:5:16: thread (100,0,0) of block (0,0,0) writes c[100]; c holds "
         "100 float (400 bytes)");
  rt_download(&rt, bc, c, sizeof c);
  float want[N];
  for (int i = 0; i < N; i++) want[i] = i >= OFF && i < OFF + M ? 2 * a[i] : a[i];
  rt_cmp_f32(&rt, "vecadd through views", c, want, N, 0, 0);
  RT_EXPECT(&rt, KCRT_ERROR_INVALID_VALUE, kcrt_buffer_free(ba)); /* a view is alive */
  kcrt_buffer_free(va);
  kcrt_buffer_free(vc);
  kcrt_buffer_free(ba);
  kcrt_buffer_free(bc);
}

static void t_wild(void) {
  kcrt_buffer *bo = rt_alloc(&rt, 64);
  long at = 1L << 40; /* a terabyte away: unchecked, a crash of the host process on PoCL */
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bo), KCRT_ARG_VALUE(at)};
  expect("wild write",
         kcrt_launch(rt_kernel(&rt, "wild"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 2),
         "kernel 'wild' at oob.k:71:46: thread (0,0,0) of block (0,0,0) writes "
         "out[1099511627776]; out holds 16 float (64 bytes)");
  /* Several bad launches before one synchronize: the first failure is the one reported. */
  at = -1;
  kcrt_launch(rt_kernel(&rt, "wild"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 2);
  at = 16;
  expect("two bad launches",
         kcrt_launch(rt_kernel(&rt, "wild"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 2),
         "kernel 'wild' at oob.k:71:46: thread (0,0,0) of block (0,0,0) writes out[-1]; out holds "
         "16 float (64 bytes)");
  kcrt_buffer_free(bo);
}

int main(int argc, char **argv) {
  rt_init(&rt, argc, argv, "bounds");
  t_vecadd();
  t_gather();
  t_row_sum();
  t_through_call();
  t_shared();
  t_local_array();
  t_points();
  t_histogram();
  t_view();
  t_wild();
  return rt_finish(&rt, "11 kinds of out-of-bounds access");
}
