/* warp.c — runs tests/warp/warp.k (CUDA's warp-level operations) against a host model of
 * 32-lane warps that follows CUDA's (and PTX's) definitions: shuffle lanes from the low five
 * bits of the lane or delta, width segments, out-of-segment lanes keeping their own value,
 * masks limiting votes, matches and reductions to the lanes named.
 *
 * Usage: rt_warp BUNDLE.kcb [--refusal]. Where the device cannot run warp operations (an
 * OpenCL device without 32-wide subgroups) libkcrt refuses the module with
 * KCRT_ERROR_NOT_SUPPORTED: with --refusal that exact refusal is what the test expects (PoCL
 * here; lavapipe, whose subgroups are not 32 wide, with KCC_DEVICE=vulkan), without it the run
 * is reported as a skip (NVIDIA's OpenCL in tests/gpu/run.sh). On NVIDIA's Vulkan driver
 * (subgroups of 32) the kernel runs through kcc's Vulkan SPIR-V. */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { NI = 30, W = 32 };

typedef struct Ref {
  const int32_t *x, *src, *lm;
  const uint32_t *dl;
} Ref;

static int idx_lane(int lane, int j, int w) {
  return (lane & ~(w - 1)) | (j & (w - 1));
}
static int up_lane(int lane, uint32_t d, int w) {
  int d5 = (int)(d & 31);
  return (lane & (w - 1)) >= d5 ? lane - d5 : lane;
}
static int down_lane(int lane, uint32_t d, int w) {
  int j = lane + (int)(d & 31);
  return j <= (lane | (w - 1)) ? j : lane;
}
static int xor_lane(int lane, int m, int w) {
  int j = lane ^ (m & 31);
  return j <= (lane | (w - 1)) ? j : lane;
}

static void reference(const Ref *r, int n, int32_t *want) {
  for (int base = 0; base < n; base += W) {
    const int32_t *x = r->x + base;
    for (int lane = 0; lane < W; lane++) {
      int t = base + lane;
      int32_t *o = want + (size_t)t * NI;
      int j = r->src[t], m = r->lm[t];
      uint32_t d = r->dl[t];
      o[0] = x[idx_lane(lane, j, 32)];
      o[1] = x[idx_lane(lane, j, 8)];
      o[2] = x[up_lane(lane, d, 32)];
      o[3] = x[up_lane(lane, d, 16)];
      o[4] = x[down_lane(lane, d, 32)];
      o[5] = x[down_lane(lane, d, 4)];
      o[6] = x[xor_lane(lane, m, 32)];
      o[7] = x[xor_lane(lane, m, 8)];
      uint32_t ballot = 0, m3 = 0, m40 = 0, b24 = 0, m27 = 0;
      int any = 0, all = 1, any28 = 0;
      uint32_t sum = 0, umin = UINT32_MAX, umax = 0, uand = ~0u, uor = 0, uxor = 0, sum16 = 0;
      int32_t smin = INT32_MAX, smax = INT32_MIN;
      for (int k = 0; k < W; k++) {
        uint32_t u = (uint32_t)x[k];
        ballot |= (uint32_t)((x[k] & 1) != 0) << k;
        any |= x[k] % 7 == 0;
        all &= x[k] > 0;
        m3 |= (uint32_t)((x[k] & 3) == (x[lane] & 3)) << k;
        m40 |= (uint32_t)((x[k] & 1) == (x[lane] & 1)) << k;
        sum += u;
        smin = x[k] < smin ? x[k] : smin;
        smax = x[k] > smax ? x[k] : smax;
        umin = u < umin ? u : umin;
        umax = u > umax ? u : umax;
        uand &= u | 0x0f0f0000u;
        uor |= u & 0x00ff00ffu;
        uxor ^= u;
        if (k < 16) {
          b24 |= (uint32_t)((x[k] & 2) != 0) << k;
          sum16 += u;
        }
        if (k % 2) {
          m27 |= (uint32_t)((x[k] & 1) == (x[lane] & 1)) << k;
          any28 |= x[k] % 5 == 0;
        }
      }
      o[8] = (int32_t)ballot;
      o[9] = any;
      o[10] = all;
      o[11] = -1; /* every lane active */
      o[12] = (int32_t)m3;
      o[13] = (int32_t)m40;
      o[14] = (int32_t)m3;
      o[15] = (int32_t)sum;
      o[16] = smin;
      o[17] = smax;
      o[18] = (int32_t)sum;
      o[19] = (int32_t)umin;
      o[20] = (int32_t)umax;
      o[21] = (int32_t)uand;
      o[22] = (int32_t)uor;
      o[23] = (int32_t)uxor;
      o[24] = lane < 16 ? (int32_t)b24 : -1;
      o[25] = lane >= 8 ? x[down_lane(lane, 1, 8)] : -1;
      o[26] = lane < 16 ? (int32_t)sum16 : -1;
      o[27] = lane % 2 ? (int32_t)m27 : -1;
      o[28] = lane % 2 ? any28 : -1;
      o[29] = x[lane ^ 1];
    }
  }
}

int main(int argc, char **argv) {
  Rt rt;
  memset(&rt, 0, sizeof rt);
  rt.name = "warp";
  if (argc < 2) {
    fprintf(stderr, "usage: %s BUNDLE.kcb [--refusal]\n", argv[0]);
    return 2;
  }
  bool refusal = argc > 2 && !strcmp(argv[2], "--refusal");
  const char *s = getenv("KCRT_TEST_SEED");
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  rt.seed = s && *s ? strtoull(s, NULL, 0)
                    : ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid();
  rt.state = rt.seed;
  kcrt_status st = kcrt_device_open_default(&rt.dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    printf("SKIP warp: no device (%s)\n", kcrt_last_error());
    return 77;
  }
  RT_CHECK(&rt, st);
  RT_CHECK(&rt, kcrt_device_get_info(rt.dev, &rt.info));
  st = kcrt_module_load_file(rt.dev, argv[1], &rt.mod);
  if (st == KCRT_ERROR_NOT_SUPPORTED) {
    char want[600];
    if (rt.info.backend == KCRT_BACKEND_VULKAN) /* lavapipe: subgroups of 8 (or 4, 16) */
      snprintf(want, sizeof want,
               "kernel 'warp_ops' uses warp-level operations, which need 32-wide subgroups; "
               "device '%s' runs compute shaders in subgroups of %s",
               rt.info.name, strrchr(kcrt_last_error(), ' ') + 1);
    else
      snprintf(want, sizeof want,
               "kernel 'warp_ops' uses warp-level operations, which need 32-wide subgroups; "
               "device '%s' has no subgroups kcc can use (it lacks cl_khr_subgroups, "
               "cl_khr_subgroup_ballot, cl_khr_subgroup_shuffle)",
               rt.info.name);
    const char *got = kcrt_last_error();
    if (!refusal) {
      printf("SKIP warp: refused on %s: %s\n", rt.info.name, got);
      kcrt_device_close(rt.dev);
      return 77;
    }
    if (strcmp(got, want)) rt_fail(&rt, "refusal message\n  got:  %s\n  want: %s", got, want);
    return rt_finish(&rt, "KCRT_ERROR_NOT_SUPPORTED as expected: %s", got);
  }
  RT_CHECK(&rt, st);
  if (refusal)
    rt_fail(&rt, "the module loaded on %s, which was expected to refuse it", rt.info.name);

  int bs = 32 * rt_int(&rt, 1, 8), nb = rt_int(&rt, 20, 80), n = bs * nb;
  int32_t *x = malloc(n * 4), *src = malloc(n * 4), *lm = malloc(n * 4);
  uint32_t *dl = malloc(n * 4);
  float *y = malloc(n * 4), *fo = malloc(n * 4), *wf = malloc(n * 4);
  double *z = malloc(n * 8), *dout = malloc(n * 8), *wd = malloc(n * 8);
  int64_t *w = malloc(n * 8), *lo = malloc(n * 8), *wl = malloc(n * 8);
  uint64_t *uo = malloc(n * 8), *wu = malloc(n * 8);
  int32_t *out = malloc((size_t)n * NI * 4), *want = malloc((size_t)n * NI * 4);
  for (int t = 0; t < n; t++) {
    int warp = t / W;
    x[t] = warp % 3 == 0 ? rt_int(&rt, 1, 100000) : rt_int(&rt, -100000, 100000);
    if (warp % 5 == 1) x[t] = rt_int(&rt, 0, 3) * 7; /* repeated values: matches, any */
    src[t] = rt_int(&rt, -40, 100);
    dl[t] = (uint32_t)rt_int(&rt, 0, 40);
    if (t % 13 == 0) dl[t] = rt_u32(&rt); /* only the low five bits count */
    lm[t] = rt_int(&rt, 0, 63);
    y[t] = rt_float(&rt, -100, 100);
    z[t] = rt_double(&rt, -1e9, 1e9);
    w[t] = (int64_t)rt_u64(&rt);
  }
  Ref r = {x, src, lm, dl};
  reference(&r, n, want);
  for (int t = 0; t < n; t++) {
    int base = t - t % W, lane = t % W;
    wf[t] = y[base + xor_lane(lane, lm[t], 32)];
    wd[t] = z[base + idx_lane(lane, src[t], 32)];
    wl[t] = w[base + down_lane(lane, dl[t], 32)];
    wu[t] = (uint64_t)w[base + up_lane(lane, dl[t], 8)];
  }
  kcrt_buffer *bx = rt_upload(&rt, x, n * 4), *bs_ = rt_upload(&rt, src, n * 4),
              *bd = rt_upload(&rt, dl, n * 4), *bm = rt_upload(&rt, lm, n * 4),
              *by = rt_upload(&rt, y, n * 4), *bz = rt_upload(&rt, z, n * 8),
              *bw = rt_upload(&rt, w, n * 8), *bo = rt_alloc(&rt, (size_t)n * NI * 4),
              *bfo = rt_alloc(&rt, n * 4), *bdo = rt_alloc(&rt, n * 8), *blo = rt_alloc(&rt, n * 8),
              *buo = rt_alloc(&rt, n * 8);
  kcrt_arg args[] = {KCRT_ARG_BUFFER(bx),  KCRT_ARG_BUFFER(bs_), KCRT_ARG_BUFFER(bd),
                     KCRT_ARG_BUFFER(bm),  KCRT_ARG_BUFFER(by),  KCRT_ARG_BUFFER(bz),
                     KCRT_ARG_BUFFER(bw),  KCRT_ARG_BUFFER(bo),  KCRT_ARG_BUFFER(bfo),
                     KCRT_ARG_BUFFER(bdo), KCRT_ARG_BUFFER(blo), KCRT_ARG_BUFFER(buo)};
  rt_launch(&rt, rt_kernel(&rt, "warp_ops"), KCRT_DIM1(nb), KCRT_DIM1(bs), 0, args, 12);
  rt_download(&rt, bo, out, (size_t)n * NI * 4);
  rt_download(&rt, bfo, fo, n * 4);
  rt_download(&rt, bdo, dout, n * 8);
  rt_download(&rt, blo, lo, n * 8);
  rt_download(&rt, buo, uo, n * 8);
  rt_cmp_i32(&rt, "warp_ops (int results)", out, want, (size_t)n * NI);
  rt_cmp_f32(&rt, "__shfl_xor_sync(float)", fo, wf, n, 0, 0);
  rt_cmp_f64(&rt, "__shfl_sync(double)", dout, wd, n, 0, 0);
  rt_cmp_i64(&rt, "__shfl_down_sync(long long)", lo, wl, n);
  rt_cmp_u64(&rt, "__shfl_up_sync(unsigned long long, width 8)", uo, wu, n);
  kcrt_buffer *bufs[] = {bx, bs_, bd, bm, by, bz, bw, bo, bfo, bdo, blo, buo};
  for (size_t j = 0; j < sizeof bufs / sizeof *bufs; j++) RT_CHECK(&rt, kcrt_buffer_free(bufs[j]));
  free(x), free(src), free(lm), free(dl), free(y), free(fo), free(wf), free(z), free(dout);
  free(wd), free(w), free(lo), free(wl), free(uo), free(wu), free(out), free(want);
  return rt_finish(&rt, "%d warps of %d-thread blocks, %d results per thread", n / W, bs, NI + 4);
}
