/* cl_subgroups.c — runs tests/runtime/cl_subgroups.cl (OpenCL C's subgroup functions) on
 * random inputs with blocks of several sizes, some not a multiple of 32 (a partial last
 * subgroup), and compares every result with a host model of the device's subgroups.
 *
 * The model takes the subgroups the kernel reports (size, id and local id of each work-item),
 * so it holds for any subgroup width; on CUDA those must also be kcc's warps (subgroup i of a
 * block is its threads 32i..32i+31, docs/design.md). Each subgroup is then computed on the
 * host: every reduction, scan and broadcast of cl_khr_subgroups on int, uint, long, ulong,
 * float and double (floats hold integers, so any summation order is exact), char and ushort
 * (cl_khr_subgroup_extended_types), and the votes, shuffles, ballots, clustered and
 * non-uniform functions of the extended subgroup extensions (the non-uniform ones in a
 * divergent branch).
 *
 * Usage: rt_cl_subgroups BUNDLE.kcb [--refusal]. Where the device has no subgroups (PoCL
 * here) libkcrt refuses the module with KCRT_ERROR_NOT_SUPPORTED: with --refusal that exact
 * refusal is what the test expects, without it the run is a skip (exit 77), as it is where
 * the device lacks one of the extended subgroup extensions (the OpenCL C kcc writes says which
 * with an #error). For such a device (PoCL 5 has cl_khr_subgroups, _ballot and _shuffle
 * only), compile the kernel with -DKCC_SG_CORE_ONLY and set KCC_SG_CORE_ONLY=1 when running:
 * the other extensions' results are then left out. */
#include "rt_common.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* MAXSG: the widest subgroup the model takes (the largest block: PoCL 5's subgroup is the
 * work-group). */
enum { INFO = 6, CORE = 10, MORE = 43, MAXSG = 256 };
#define DC 0x5a5a5a5a /* not written by the kernel, or undefined in OpenCL: not compared */

/* The work-items of each subgroup of a launch, by local id: memb[sg * MAXSG + lid]. */
typedef struct Layout {
  int nsg;    /* subgroups in the launch */
  int *size;  /* per subgroup */
  int *memb;  /* global indices */
  int *bcast; /* the lane sg_core broadcasts from, per subgroup */
} Layout;

/* Checks the reported subgroups and groups the work-items; false (reported) when they make no
 * sense. */
static bool layout(Rt *rt, const uint32_t *info, int bs, int nb, Layout *L) {
  int n = bs * nb;
  L->nsg = 0;
  L->size = rt_xalloc(sizeof(int) * (size_t)n);
  L->memb = rt_xalloc(sizeof(int) * (size_t)n * MAXSG);
  L->bcast = rt_xalloc(sizeof(int) * (size_t)n);
  bool cuda = rt->info.backend == KCRT_BACKEND_CUDA;
  for (int b = 0; b < nb; b++) {
    const uint32_t *w0 = info + (size_t)b * bs * INFO;
    int nsg = (int)w0[2], base = L->nsg;
    if (nsg < 1 || nsg > bs) {
      rt_fail(rt, "block %d of %d: get_num_sub_groups() = %d", b, bs, nsg);
      return false;
    }
    for (int i = 0; i < nsg * MAXSG; i++) L->memb[(size_t)base * MAXSG + i] = -1;
    for (int j = 0; j < bs; j++) {
      int t = b * bs + j;
      const uint32_t *w = info + (size_t)t * INFO;
      int size = (int)w[0], id = (int)w[3], lid = (int)w[4];
      bool bad = size < 1 || size > MAXSG || (uint32_t)size > w[1] || w[2] != (uint32_t)nsg ||
                 w[5] != (uint32_t)nsg || id >= nsg || lid >= size;
      if (cuda) /* kcc's warps */
        bad |= size != (bs - 32 * (j / 32) < 32 ? bs - 32 * (j / 32) : 32) ||
               w[1] != (uint32_t)(bs < 32 ? bs : 32) || id != j / 32 || lid != j % 32 ||
               nsg != (bs + 31) / 32;
      if (bad || L->memb[(size_t)(base + id) * MAXSG + lid] != -1) {
        rt_fail(rt,
                "block size %d, work-item %d: size %u, max %u, count %u, id %u, local id %u, "
                "enqueued count %u",
                bs, j, w[0], w[1], w[2], w[3], w[4], w[5]);
        return false;
      }
      L->memb[(size_t)(base + id) * MAXSG + lid] = t;
      L->size[base + id] = size;
      L->bcast[base + id] = (b * 7 + id * 3) % size;
    }
    for (int s = 0; s < nsg; s++)
      for (int l = 0; l < L->size[base + s]; l++)
        if (L->memb[(size_t)(base + s) * MAXSG + l] < 0) {
          rt_fail(rt, "block %d: subgroup %d has no lane %d of its %d", b, s, l, L->size[base + s]);
          return false;
        }
    L->nsg += nsg;
  }
  return true;
}

/* The core results for one type: want[t * CORE + k]. ADD wraps for integers. */
#define REF_CORE(NAME, T, U, LO, HI)                                                               \
  static void ref_##NAME(const Layout *L, const T *x, T *want) {                                   \
    for (int s = 0; s < L->nsg; s++) {                                                             \
      const int *m = L->memb + (size_t)s * MAXSG;                                                  \
      int n = L->size[s];                                                                          \
      T sum = 0, mn = HI, mx = LO;                                                                 \
      for (int i = 0; i < n; i++) {                                                                \
        T v = x[m[i]];                                                                             \
        sum = (T)((U)sum + (U)v);                                                                  \
        mn = v < mn ? v : mn;                                                                      \
        mx = v > mx ? v : mx;                                                                      \
      }                                                                                            \
      T is = 0, imn = HI, imx = LO;                                                                \
      for (int i = 0; i < n; i++) {                                                                \
        T v = x[m[i]], *w = want + (size_t)m[i] * CORE;                                            \
        w[6] = is, w[7] = imn, w[8] = imx;                                                         \
        is = (T)((U)is + (U)v);                                                                    \
        imn = v < imn ? v : imn;                                                                   \
        imx = v > imx ? v : imx;                                                                   \
        w[0] = sum, w[1] = mn, w[2] = mx, w[3] = is, w[4] = imn, w[5] = imx;                       \
        w[9] = x[m[L->bcast[s]]];                                                                  \
      }                                                                                            \
    }                                                                                              \
  }
REF_CORE(i32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
REF_CORE(u32, uint32_t, uint32_t, 0, UINT32_MAX)
REF_CORE(i64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
REF_CORE(u64, uint64_t, uint64_t, 0, UINT64_MAX)
REF_CORE(f32, float, float, -INFINITY, INFINITY)
REF_CORE(f64, double, double, -INFINITY, INFINITY)
REF_CORE(i8, int8_t, uint8_t, INT8_MIN, INT8_MAX)
REF_CORE(u16, uint16_t, uint16_t, 0, UINT16_MAX)

static uint32_t range_bits(int lo, int hi) { /* bits [lo, hi) of lanes 0..31 */
  uint32_t r = 0;
  for (int i = lo < 0 ? 0 : lo; i < hi && i < 32; i++) r |= 1u << i;
  return r;
}

/* sg_more's results: want[t * MORE + k], DC where OpenCL leaves it undefined. */
static bool core_only; /* $KCC_SG_CORE_ONLY: the kernel was compiled with -DKCC_SG_CORE_ONLY */

static void ref_more(const Layout *L, const int32_t *x, int32_t *want, size_t n_items) {
  for (size_t i = 0; i < n_items * MORE; i++) want[i] = DC;
  for (int s = 0; s < L->nsg; s++) {
    const int *m = L->memb + (size_t)s * MAXSG;
    int n = L->size[s];
    int all = 1, any = 0, count = 0, lsb = n - 1, msb = 0, first = -1;
    uint32_t bx = 0, by = 0;
    for (int i = 0; i < n; i++) {
      int32_t v = x[m[i]];
      all &= v > -90;
      any |= v == 7;
      if (v & 1) {
        if (i < 32)
          bx |= 1u << i;
        else if (i < 64)
          by |= 1u << (i - 32);
        count++;
        if (i < lsb) lsb = i;
        msb = i;
      }
      if (first < 0 && v % 3 != 0) first = i;
    }
    /* The non-uniform functions over the active lanes (v % 3 != 0). */
    uint32_t sum = 0, prod = 1, band = ~0u, bor = 0, bxor = 0;
    int32_t mn = INT32_MAX, mx = INT32_MIN;
    int land = 1, lor = 0, lxor = 0, eq = 1, nall = 1, nany = 0, e0 = -1;
    for (int i = 0; i < n; i++) {
      int32_t v = x[m[i]];
      if (v % 3 == 0) continue;
      sum += (uint32_t)v;
      prod *= (uint32_t)(v % 4 + 2);
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
      band &= (uint32_t)(v | 0x0f0f00);
      bor |= (uint32_t)(v & 0x00ff00ff);
      bxor ^= (uint32_t)v;
      land &= v > -50;
      lor |= v == 8;
      lxor ^= (v & 2) != 0;
      int e = v > 0 ? 1 : 2;
      if (e0 < 0) e0 = e;
      eq &= e == e0;
      nall &= v != 5;
      nany |= v == -7;
    }
    uint32_t isum = 0;
    int32_t emax = INT32_MIN;
    for (int l = 0; l < n; l++) {
      int t = m[l];
      int32_t *w = want + (size_t)t * MORE, v = x[t];
      w[0] = all;
      w[1] = any;
      w[2] = x[m[(l * 7 + 3) % n]];
      if ((l ^ 1) < n) w[3] = x[m[l ^ 1]];
      if (l >= 3) w[4] = x[m[l - 3]];
      if (l + 2 < n) w[5] = x[m[l + 2]];
      w[6] = (int32_t)bx;
      w[7] = (int32_t)by;
      w[8] = v & 1;
      w[9] = x[m[(l + 5) % n]] & 1;
      w[10] = count;
      int inc = 0;
      for (int i = 0; i <= l; i++) inc += x[m[i]] & 1;
      w[11] = inc;
      w[12] = inc - (v & 1);
      w[13] = lsb;
      w[14] = msb;
      w[15] = (int32_t)range_bits(l, l + 1);
      w[16] = (int32_t)range_bits(l, n);
      w[17] = (int32_t)range_bits(l + 1, n);
      w[18] = (int32_t)range_bits(0, l + 1);
      w[19] = (int32_t)range_bits(0, l);
      uint32_t c4 = 0;
      int32_t c8 = INT32_MIN;
      int c2 = 0;
      for (int i = l & ~3; i < (l & ~3) + 4 && i < n; i++) c4 += (uint32_t)x[m[i]];
      for (int i = l & ~7; i < (l & ~7) + 8 && i < n; i++) c8 = x[m[i]] > c8 ? x[m[i]] : c8;
      for (int i = l & ~1; i < (l & ~1) + 2 && i < n; i++) c2 |= x[m[i]] == 3;
      w[20] = (int32_t)c4;
      w[21] = c8;
      w[22] = c2;
      w[40] = x[m[(l + 3) % n]];
      w[41] = x[m[((l - 5) % n + n) % n]];
      int rc = (l & ~3) + ((l & 3) + 3) % 4; /* a lane past a partial subgroup's: undefined */
      if (rc < n) w[42] = x[m[rc]];
      if (core_only) w[4] = w[5] = w[20] = w[21] = w[22] = w[40] = w[41] = w[42] = DC;
      if (n > 128) /* wider than a uint4 ballot */
        for (int k = 6; k <= 19; k++) w[k] = DC;
      if (v % 3 == 0 || core_only) continue;
      isum += (uint32_t)v;
      w[23] = (int32_t)sum;
      w[24] = (int32_t)prod;
      w[25] = mn;
      w[26] = mx;
      w[27] = (int32_t)band;
      w[28] = (int32_t)bor;
      w[29] = (int32_t)bxor;
      w[30] = land;
      w[31] = lor;
      w[32] = lxor;
      w[33] = (int32_t)isum;
      w[34] = emax;
      emax = v > emax ? v : emax;
      w[35] = eq;
      w[36] = x[m[first]];
      w[37] = l == first;
      w[38] = nall;
      w[39] = nany;
    }
  }
}

static void cmp_more(Rt *rt, const char *what, const int32_t *got, const int32_t *want, size_t n) {
  int bad = 0;
  for (size_t i = 0; i < n * MORE; i++) {
    if (want[i] == DC || got[i] == want[i]) continue;
    if (bad++ < 8)
      rt_fail(rt, "%s: work-item %zu, result %zu: got %d (0x%x), want %d (0x%x)", what, i / MORE,
              i % MORE, got[i], (unsigned)got[i], want[i], (unsigned)want[i]);
  }
  if (bad > 8) rt_fail(rt, "%s: %d mismatches in all", what, bad);
}

/* Opens the device and loads the bundle, or handles the refusal (see the usage). Returns -1
 * to go on, else the exit status. */
static int open_module(Rt *rt, int argc, char **argv) {
  memset(rt, 0, sizeof *rt);
  rt->name = "cl_subgroups";
  if (argc < 2) {
    fprintf(stderr, "usage: %s BUNDLE.kcb [--refusal]\n", argv[0]);
    return 2;
  }
  bool refusal = argc > 2 && !strcmp(argv[2], "--refusal");
  const char *s = getenv("KCRT_TEST_SEED");
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  rt->seed = s && *s ? strtoull(s, NULL, 0)
                     : ((uint64_t)ts.tv_sec * 1000003u) ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid();
  rt->state = rt->seed;
  kcrt_status st = kcrt_device_open_default(&rt->dev);
  if (st == KCRT_ERROR_NO_DEVICE) {
    printf("SKIP cl_subgroups: no device (%s)\n", kcrt_last_error());
    return 77;
  }
  RT_CHECK(rt, st);
  RT_CHECK(rt, kcrt_device_get_info(rt->dev, &rt->info));
  st = kcrt_module_load_file(rt->dev, argv[1], &rt->mod);
  if (st == KCRT_ERROR_NOT_SUPPORTED) {
    char want[600];
    snprintf(want, sizeof want,
             "kernel 'sg_core' uses OpenCL subgroup functions; device '%s' has no subgroups "
             "(it lacks cl_khr_subgroups)",
             rt->info.name);
    const char *got = kcrt_last_error();
    if (!refusal) {
      printf("SKIP cl_subgroups: refused on %s: %s\n", rt->info.name, got);
      kcrt_device_close(rt->dev);
      return 77;
    }
    if (strcmp(got, want)) rt_fail(rt, "refusal message\n  got:  %s\n  want: %s", got, want);
    return rt_finish(rt, "KCRT_ERROR_NOT_SUPPORTED as expected: %s", got);
  }
  /* The OpenCL driver builds the program at the load. */
  const char *need = st == KCRT_ERROR_BUILD_FAILED && !refusal
                         ? strstr(kcrt_last_error(), "kcc: this program needs ")
                         : NULL;
  if (need) {
    printf("SKIP cl_subgroups: %s: %.*s\n", rt->info.name, (int)strcspn(need, "\"\n"), need);
    kcrt_device_close(rt->dev);
    return 77;
  }
  RT_CHECK(rt, st);
  if (refusal)
    rt_fail(rt, "the module loaded on %s, which was expected to refuse it", rt->info.name);
  return -1;
}

int main(int argc, char **argv) {
  Rt rt;
  core_only = getenv("KCC_SG_CORE_ONLY") && *getenv("KCC_SG_CORE_ONLY") == '1';
  int rc = open_module(&rt, argc, argv);
  if (rc >= 0) return rc;
  kcrt_kernel *core = rt_kernel(&rt, "sg_core"), *more = rt_kernel(&rt, "sg_more");
  kcrt_kernel_info ki;
  RT_CHECK(&rt, kcrt_kernel_get_info(core, &ki));
  /* Whole warps, partial last subgroups, a block smaller than a subgroup. */
  static const int sizes[] = {32, 64, 256, 96, 48, 100, 7, 33, 1, 128};
  int launches = 0;
  size_t checked = 0;
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes && !rt.failures; si++) {
    int bs = sizes[si];
    if ((uint64_t)bs > ki.max_threads_per_block) continue;
    int nb = rt_int(&rt, 3, 24), n = bs * nb;
    int32_t *xi = rt_xalloc(4 * (size_t)n), *oi = rt_xalloc(40 * (size_t)n);
    uint32_t *xu = rt_xalloc(4 * (size_t)n), *ou = rt_xalloc(40 * (size_t)n);
    int64_t *xl = rt_xalloc(8 * (size_t)n), *ol = rt_xalloc(80 * (size_t)n);
    uint64_t *xul = rt_xalloc(8 * (size_t)n), *oul = rt_xalloc(80 * (size_t)n);
    float *xf = rt_xalloc(4 * (size_t)n), *of = rt_xalloc(40 * (size_t)n);
    double *xd = rt_xalloc(8 * (size_t)n), *od = rt_xalloc(80 * (size_t)n);
    int8_t *xc = rt_xalloc((size_t)n), *oc = rt_xalloc(10 * (size_t)n);
    uint16_t *xs = rt_xalloc(2 * (size_t)n), *os = rt_xalloc(20 * (size_t)n);
    int32_t *xm = rt_xalloc(4 * (size_t)n), *om = rt_xalloc(4 * MORE * (size_t)n);
    uint32_t *info = rt_xalloc(4 * INFO * (size_t)n);
    for (int t = 0; t < n; t++) {
      xi[t] = (int32_t)rt_u32(&rt); /* sums wrap */
      xu[t] = t % 5 ? rt_u32(&rt) : (uint32_t)rt_int(&rt, 0, 9);
      xl[t] = (int64_t)rt_u64(&rt);
      xul[t] = rt_u64(&rt) >> (t % 3 ? 0 : 40);
      xf[t] = (float)rt_int(&rt, -100000, 100000); /* sums of up to 128 are exact */
      xd[t] = (double)(int64_t)(rt_u64(&rt) >> 20) - (double)(1ll << 43);
      xc[t] = (int8_t)rt_int(&rt, -128, 127);
      xs[t] = (uint16_t)rt_int(&rt, 0, 65535);
      xm[t] = (t / 16) % 4 == 0 ? rt_int(&rt, -89, 100) : rt_int(&rt, -100, 100);
    }
    kcrt_buffer *b_info = rt_alloc(&rt, 4 * INFO * (size_t)n);
    kcrt_buffer *in[8] = {rt_upload(&rt, xi, 4 * (size_t)n), rt_upload(&rt, xu, 4 * (size_t)n),
                          rt_upload(&rt, xl, 8 * (size_t)n), rt_upload(&rt, xul, 8 * (size_t)n),
                          rt_upload(&rt, xf, 4 * (size_t)n), rt_upload(&rt, xd, 8 * (size_t)n),
                          rt_upload(&rt, xc, (size_t)n),     rt_upload(&rt, xs, 2 * (size_t)n)};
    static const size_t esz[8] = {4, 4, 8, 8, 4, 8, 1, 2};
    kcrt_buffer *out[8];
    for (int i = 0; i < 8; i++) out[i] = rt_alloc(&rt, esz[i] * CORE * (size_t)n);
    kcrt_arg args[17] = {KCRT_ARG_BUFFER(b_info)};
    for (int i = 0; i < 8; i++) {
      args[1 + 2 * i] = (kcrt_arg)KCRT_ARG_BUFFER(in[i]);
      args[2 + 2 * i] = (kcrt_arg)KCRT_ARG_BUFFER(out[i]);
    }
    rt_launch(&rt, core, (kcrt_dim3){(unsigned)nb, 1, 1}, (kcrt_dim3){(unsigned)bs, 1, 1}, 0, args,
              17);
    kcrt_buffer *b_xm = rt_upload(&rt, xm, 4 * (size_t)n);
    kcrt_buffer *b_om = rt_alloc(&rt, 4 * MORE * (size_t)n);
    kcrt_arg margs[2] = {KCRT_ARG_BUFFER(b_om), KCRT_ARG_BUFFER(b_xm)};
    rt_launch(&rt, more, (kcrt_dim3){(unsigned)nb, 1, 1}, (kcrt_dim3){(unsigned)bs, 1, 1}, 0, margs,
              2);
    launches += 2;
    rt_download(&rt, b_info, info, 4 * INFO * (size_t)n);
    void *got[8] = {oi, ou, ol, oul, of, od, oc, os};
    for (int i = 0; i < 8; i++) rt_download(&rt, out[i], got[i], esz[i] * CORE * (size_t)n);
    rt_download(&rt, b_om, om, 4 * MORE * (size_t)n);
    Layout L;
    if (layout(&rt, info, bs, nb, &L)) {
      char what[64];
      size_t nc = (size_t)n * CORE;
      int32_t *wi = rt_xalloc(4 * nc), *wm = rt_xalloc(4 * MORE * (size_t)n);
      uint32_t *wu = rt_xalloc(4 * nc);
      int64_t *wl = rt_xalloc(8 * nc);
      uint64_t *wul = rt_xalloc(8 * nc);
      float *wf = rt_xalloc(4 * nc);
      double *wd = rt_xalloc(8 * nc);
      int8_t *wc = rt_xalloc(nc);
      uint16_t *ws = rt_xalloc(2 * nc);
      int32_t *gc = rt_xalloc(4 * nc), *wc32 = rt_xalloc(4 * nc);
      uint32_t *gs = rt_xalloc(4 * nc), *ws32 = rt_xalloc(4 * nc);
      ref_i32(&L, xi, wi);
      ref_u32(&L, xu, wu);
      ref_i64(&L, xl, wl);
      ref_u64(&L, xul, wul);
      ref_f32(&L, xf, wf);
      ref_f64(&L, xd, wd);
      ref_i8(&L, xc, wc);
      ref_u16(&L, xs, ws);
      for (size_t i = 0; i < nc; i++)
        gc[i] = oc[i], wc32[i] = wc[i], gs[i] = os[i], ws32[i] = ws[i];
#define CMP(f, T, g, w)                                                                            \
  snprintf(what, sizeof what, "block %d: %s", bs, T);                                              \
  f(&rt, what, g, w, nc)
      CMP(rt_cmp_i32, "int", oi, wi);
      CMP(rt_cmp_u32, "uint", ou, wu);
      CMP(rt_cmp_i64, "long", ol, wl);
      CMP(rt_cmp_u64, "ulong", oul, wul);
      snprintf(what, sizeof what, "block %d: float", bs);
      rt_cmp_f32(&rt, what, of, wf, nc, 0, 0);
      snprintf(what, sizeof what, "block %d: double", bs);
      rt_cmp_f64(&rt, what, od, wd, nc, 0, 0);
      if (!core_only) {
        CMP(rt_cmp_i32, "char", gc, wc32);
        CMP(rt_cmp_u32, "ushort", gs, ws32);
      }
      ref_more(&L, xm, wm, (size_t)n);
      snprintf(what, sizeof what, "block %d: votes, shuffles, ballots, non-uniform", bs);
      cmp_more(&rt, what, om, wm, (size_t)n);
      checked += nc * 8 + (size_t)n * MORE;
    }
    kcrt_buffer_free(b_info);
    kcrt_buffer_free(b_xm);
    kcrt_buffer_free(b_om);
    for (int i = 0; i < 8; i++) kcrt_buffer_free(in[i]), kcrt_buffer_free(out[i]);
  }
  rt_xfree_all();
  return rt_finish(&rt, "%d launches on %s, %zu results (subgroups of blocks 1 to 256)", launches,
                   rt.info.name, checked);
}
