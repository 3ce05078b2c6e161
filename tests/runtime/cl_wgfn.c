/* cl_wgfn.c — runs tests/runtime/cl_wgfn.cl (OpenCL C 2.0 input) through libkcrt on fresh
 * random inputs and checks every result against a C reference of OpenCL C 2.0 §6.13.15 (the
 * work-group collective functions: reduce, inclusive and exclusive scans in linear local-id
 * order with the operation's identity first, broadcast, all, any) and §6.13.1
 * (get_local_linear_id, get_global_linear_id, get_enqueued_local_size), on 1D, 2D and 3D
 * work-groups of power-of-two and other sizes up to 1024, the most a kernel that uses them
 * takes (one slot each of kcc's scratch array, frontend/opencl/cl_workgroup.c): libkcrt refuses
 * 1025. */
#include "rt_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum { I32, U32, I64, U64, F32, F64, F16, NTYPES } Ty;
static const char *const tname[NTYPES] = {"int",   "uint",   "long", "ulong",
                                          "float", "double", "half"};
static const size_t tsize[NTYPES] = {4, 4, 8, 8, 4, 8, 2};

typedef struct Shape {
  unsigned l[3], g[3]; /* work-group size, number of groups */
  bool all_types;      /* else int, float and the predicates only */
} Shape;
/* Power-of-two and other sizes, up to 1024 (the most a kernel with work-group functions takes),
 * in one, two and three dimensions. PoCL compiles a kernel again for each work-group size (2 to
 * 5 s for these kernels of twelve collectives), so every type runs on one shape, non-power-of-
 * two in both of its dimensions, and int and float on all. */
static const Shape shapes[] = {
    {{64, 1, 1}, {3, 1, 1}, false},   {{100, 1, 1}, {2, 1, 1}, false},
    {{1024, 1, 1}, {2, 1, 1}, false}, {{8, 8, 1}, {2, 2, 1}, false},
    {{13, 7, 1}, {2, 3, 1}, true},    {{4, 3, 5}, {2, 1, 2}, false},
    {{6, 7, 9}, {1, 2, 1}, false},
};

/* ------------------------------------------------------------------ integer reference */

static bool is_signed(Ty t) {
  return t == I32 || t == I64;
}

/* v reduced to the type's width (sign-extended for signed types). */
static uint64_t wrap(Ty t, uint64_t v) {
  if (t == I32) return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
  if (t == U32) return (uint32_t)v;
  return v;
}

static bool lt(Ty t, uint64_t a, uint64_t b) {
  return is_signed(t) ? (int64_t)a < (int64_t)b : a < b;
}

/* op 0 add (wrapping), 1 min, 2 max. */
static uint64_t iop(Ty t, int op, uint64_t a, uint64_t b) {
  if (op == 0) return wrap(t, a + b);
  return (op == 1) == lt(t, a, b) ? a : b;
}

/* The identity: 0 for add, the largest value for min, the smallest for max. */
static uint64_t iid(Ty t, int op) {
  if (op == 0) return 0;
  if (op == 1)
    return t == I32   ? (uint64_t)INT32_MAX
           : t == U32 ? UINT32_MAX
           : t == I64 ? (uint64_t)INT64_MAX
                      : UINT64_MAX;
  return t == I32 ? (uint64_t)(int64_t)INT32_MIN : t == I64 ? (uint64_t)INT64_MIN : 0;
}

/* ------------------------------------------------------------------ floating-point reference */

static double fop(int op, double a, double b) {
  return op == 0 ? a + b : op == 1 ? fmin(a, b) : fmax(a, b);
}

static double fid(int op) {
  return op == 0 ? 0.0 : op == 1 ? INFINITY : -INFINITY;
}

/* The tolerance of a floating-point sum of k terms, per unit of sum|x_i|. The device adds a
 * group's values in its own order (32 segments summed one value after the other, then their
 * totals), which the specification leaves free. Any order of summing k terms errs by at most
 * (k - 1) u sum|x_i| + O(u^2) (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed.,
 * §4.2). The host sums in double: exactly for float inputs (1024 terms of 24 bits need 35),
 * within the same bound for double inputs. So 2 k u sum|x_i| covers both. The inputs have
 * 0.5 <= |x| <= 1 and k <= 1024, so for float it is at most 2 * 1024 * 2^-24 * 1024 = 0.125:
 * a term lost or counted twice (0.5 or more) fails. Halves are chosen so that every partial
 * sum is exact (multiples of 1/4 below 512 in magnitude: 11 bits) and are compared exactly. */
static double sum_tolerance(Ty t) {
  return 2 * (t == F32 ? 0x1p-24 : t == F64 ? 0x1p-53 : 0.0);
}

/* ------------------------------------------------------------------ the test */

typedef struct Launch {
  const Shape *s;
  size_t L, G, N;
  size_t *member; /* member[grp * L + l]: the global linear id of local linear id l */
  uint64_t *sel;  /* 5 per group */
} Launch;

static void layout(Rt *rt, Launch *ln, const Shape *s) {
  ln->s = s;
  ln->L = (size_t)s->l[0] * s->l[1] * s->l[2];
  ln->G = (size_t)s->g[0] * s->g[1] * s->g[2];
  ln->N = ln->L * ln->G;
  ln->member = rt_xalloc(ln->N * sizeof *ln->member);
  ln->sel = rt_xalloc(5 * ln->G * sizeof *ln->sel);
  size_t gsx = (size_t)s->g[0] * s->l[0], gsy = (size_t)s->g[1] * s->l[1];
  for (unsigned bz = 0; bz < s->g[2]; bz++)
    for (unsigned by = 0; by < s->g[1]; by++)
      for (unsigned bx = 0; bx < s->g[0]; bx++) {
        size_t grp = bx + s->g[0] * (by + (size_t)s->g[1] * bz);
        for (unsigned tz = 0; tz < s->l[2]; tz++)
          for (unsigned ty = 0; ty < s->l[1]; ty++)
            for (unsigned tx = 0; tx < s->l[0]; tx++) {
              size_t l = tx + s->l[0] * (ty + (size_t)s->l[1] * tz);
              size_t gx = (size_t)bx * s->l[0] + tx, gy = (size_t)by * s->l[1] + ty,
                     gz = (size_t)bz * s->l[2] + tz;
              ln->member[grp * ln->L + l] = gx + gsx * (gy + gsy * gz);
            }
        for (int d = 0; d < 3; d++)
          ln->sel[5 * grp + d] = (uint64_t)rt_int(rt, 0, (int)s->l[d] - 1);
      }
}

/* The local linear ids the broadcast forms name: (s0, 0, 0), (s0, s1, 0), (s0, s1, s2). */
static size_t bcast_source(const Launch *ln, size_t grp, int form) {
  const uint64_t *s = ln->sel + 5 * grp;
  const unsigned *l = ln->s->l;
  return s[0] + l[0] * ((form >= 2 ? s[1] : 0) + l[1] * (form == 3 ? s[2] : 0));
}

static void run_launch(Rt *rt, kcrt_kernel *k, const Launch *ln, kcrt_buffer *in, kcrt_buffer *out,
                       kcrt_buffer *sel) {
  kcrt_arg a[] = {KCRT_ARG_BUFFER(in), KCRT_ARG_BUFFER(out), KCRT_ARG_BUFFER(sel)};
  const Shape *s = ln->s;
  rt_launch(rt, k, KCRT_DIM3(s->g[0], s->g[1], s->g[2]), KCRT_DIM3(s->l[0], s->l[1], s->l[2]), 0, a,
            3);
}

static uint64_t load_int(Ty t, const unsigned char *p) {
  if (tsize[t] == 4) {
    uint32_t v;
    memcpy(&v, p, 4);
    return wrap(t, v);
  }
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static void store_int(Ty t, unsigned char *p, uint64_t v) {
  if (tsize[t] == 4) {
    uint32_t w = (uint32_t)v;
    memcpy(p, &w, 4);
  } else
    memcpy(p, &v, 8);
}

static double load_float(Ty t, const unsigned char *p) {
  if (t == F32) {
    float f;
    memcpy(&f, p, 4);
    return f;
  }
  if (t == F64) {
    double d;
    memcpy(&d, p, 8);
    return d;
  }
  uint16_t h;
  memcpy(&h, p, 2);
  return rt_f16_value(h);
}

static void store_float(Ty t, unsigned char *p, double v) {
  if (t == F32) {
    float f = (float)v;
    memcpy(p, &f, 4);
  } else if (t == F64)
    memcpy(p, &v, 8);
  else {
    uint16_t h = rt_f16_of_double(v);
    memcpy(p, &h, 2);
  }
}

static const char *const what[12] = {
    "reduce_add",         "reduce_min",         "reduce_max (in a helper)",
    "scan_inclusive_add", "scan_inclusive_min", "scan_inclusive_max",
    "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max",
    "broadcast 1D",       "broadcast 2D",       "broadcast 3D"};

/* One type on one shape: random inputs, the kernel, every output against the reference.
 * Returns the number of values compared. */
static size_t check_type(Rt *rt, kcrt_kernel *k, Ty t, const Launch *ln) {
  size_t N = ln->N, L = ln->L, sz = tsize[t];
  bool fl = t >= F32;
  uint64_t *iv = rt_xalloc(N * sizeof *iv);
  double *dv = rt_xalloc(N * sizeof *dv);
  unsigned char *raw = rt_xalloc(N * sz), *got = rt_xalloc(12 * N * sz);
  int hk = (int)(2047 / L); /* halves: k / 4 with |k| <= hk, every partial sum exact */
  for (size_t i = 0; i < N; i++) {
    switch (t) {
    case I32: iv[i] = wrap(t, (uint64_t)(int64_t)rt_int(rt, -(1 << 20), 1 << 20)); break;
    case U32: iv[i] = rt_u32(rt); break;
    case I64: iv[i] = (uint64_t)((int64_t)rt_u64(rt) >> 14); break;
    case U64: iv[i] = rt_u64(rt); break;
    case F32:
    case F64: {
      double m = 0.5 + 0.5 * rt_double(rt, 0.0, 1.0);
      dv[i] = rt_u32(rt) & 1 ? -m : m;
      if (t == F32) dv[i] = (float)dv[i];
      break;
    }
    case F16: dv[i] = rt_int(rt, -hk, hk) / 4.0; break;
    default: break;
    }
    if (fl)
      store_float(t, raw + i * sz, dv[i]);
    else
      store_int(t, raw + i * sz, iv[i]);
  }
  kcrt_buffer *din = rt_upload(rt, raw, N * sz), *dout = rt_alloc(rt, 12 * N * sz),
              *dsel = rt_upload(rt, ln->sel, 5 * ln->G * sizeof *ln->sel);
  run_launch(rt, k, ln, din, dout, dsel);
  rt_download(rt, dout, got, 12 * N * sz);
  RT_CHECK(rt, kcrt_buffer_free(din));
  RT_CHECK(rt, kcrt_buffer_free(dout));
  RT_CHECK(rt, kcrt_buffer_free(dsel));

  const Shape *s = ln->s;
  int shown = 0;
  double u = sum_tolerance(t);
  for (size_t grp = 0; grp < ln->G; grp++) {
    const size_t *m = ln->member + grp * L;
    /* Per op: the whole group's result, then the running (inclusive) value. */
    uint64_t itot[3], irun[3];
    double dtot[3], drun[3], abs_tot = 0, abs_run = 0;
    for (int op = 0; op < 3; op++) {
      itot[op] = irun[op] = iid(t, op);
      dtot[op] = drun[op] = fid(op);
    }
    for (size_t l = 0; l < L; l++) {
      for (int op = 0; op < 3; op++) {
        itot[op] = iop(t, op, itot[op], iv[m[l]]);
        dtot[op] = fop(op, dtot[op], dv[m[l]]);
      }
      abs_tot += fabs(dv[m[l]]);
    }
    for (size_t l = 0; l < L; l++) {
      size_t g = m[l];
      uint64_t iw[12];
      double dw[12], tol[12] = {0};
      for (int op = 0; op < 3; op++) {
        /* exclusive before this work-item's value, inclusive after */
        iw[6 + op] = irun[op];
        dw[6 + op] = drun[op];
        irun[op] = iop(t, op, irun[op], iv[g]);
        drun[op] = fop(op, drun[op], dv[g]);
        iw[op] = itot[op];
        dw[op] = dtot[op];
        iw[3 + op] = irun[op];
        dw[3 + op] = drun[op];
      }
      tol[6] = (double)l * u * abs_run;
      abs_run += fabs(dv[g]);
      tol[0] = (double)L * u * abs_tot;
      tol[3] = (double)(l + 1) * u * abs_run;
      for (int f = 1; f <= 3; f++) {
        size_t src = m[bcast_source(ln, grp, f)];
        iw[8 + f] = iv[src];
        dw[8 + f] = dv[src];
      }
      for (int r = 0; r < 12; r++) {
        const unsigned char *p = got + (12 * g + (size_t)r) * sz;
        bool ok;
        char gs[64], ws[64];
        if (fl) {
          double v = load_float(t, p);
          ok = fabs(v - dw[r]) <= tol[r] || v == dw[r];
          snprintf(gs, sizeof gs, "%.17g", v);
          snprintf(ws, sizeof ws, "%.17g (tolerance %.3g)", dw[r], tol[r]);
        } else {
          uint64_t v = load_int(t, p);
          ok = v == iw[r];
          snprintf(gs, sizeof gs, is_signed(t) ? "%lld" : "%llu", (long long)v);
          snprintf(ws, sizeof ws, is_signed(t) ? "%lld" : "%llu", (long long)iw[r]);
        }
        if (!ok && shown++ < 8)
          rt_fail(rt, "%s %s, group %ux%ux%u #%zu, local linear id %zu: %s, want %s", tname[t],
                  what[r], s->l[0], s->l[1], s->l[2], grp, l, gs, ws);
        else if (!ok)
          rt->failures++;
      }
    }
  }
  return 12 * N;
}

/* work_group_all/any and the work-item functions (kernel wg_pred). */
static size_t check_pred(Rt *rt, kcrt_kernel *k, Launch *ln) {
  size_t N = ln->N, L = ln->L;
  int32_t *in = rt_xalloc(N * 4), *got = rt_xalloc(8 * N * 4);
  for (size_t i = 0; i < N; i++) in[i] = rt_int(rt, -(1 << 20), 1 << 20);
  for (size_t grp = 0; grp < ln->G; grp++) {
    const size_t *m = ln->member + grp * L;
    int32_t mn = INT32_MAX;
    for (size_t l = 0; l < L; l++) mn = in[m[l]] < mn ? in[m[l]] : mn;
    /* all: the group's minimum (true) or one above it (false); any: a member's value (true) or
       one no input has (false). */
    ln->sel[5 * grp + 3] = (uint64_t)(int64_t)(rt_u32(rt) & 1 ? mn : mn + 1);
    ln->sel[5 * grp + 4] =
        (uint64_t)(int64_t)(rt_u32(rt) & 1 ? in[m[rt_int(rt, 0, (int)L - 1)]] : (1 << 30) + 7);
  }
  kcrt_buffer *din = rt_upload(rt, in, N * 4), *dout = rt_alloc(rt, 8 * N * 4),
              *dsel = rt_upload(rt, ln->sel, 5 * ln->G * sizeof *ln->sel);
  run_launch(rt, k, ln, din, dout, dsel);
  rt_download(rt, dout, got, 8 * N * 4);
  RT_CHECK(rt, kcrt_buffer_free(din));
  RT_CHECK(rt, kcrt_buffer_free(dout));
  RT_CHECK(rt, kcrt_buffer_free(dsel));
  int32_t *want = rt_xalloc(8 * N * 4);
  for (size_t grp = 0; grp < ln->G; grp++) {
    const size_t *m = ln->member + grp * L;
    int all = 1, any = 0;
    for (size_t l = 0; l < L; l++) {
      all &= in[m[l]] >= (int32_t)ln->sel[5 * grp + 3];
      any |= in[m[l]] == (int32_t)ln->sel[5 * grp + 4];
    }
    for (size_t l = 0; l < L; l++) {
      int32_t *w = want + 8 * m[l];
      const int32_t *g = got + 8 * m[l];
      /* all and any return "a non-zero value": compared as truth values. */
      w[0] = all, w[1] = any;
      w[2] = 1;
      w[3] = (int32_t)l;
      w[4] = (int32_t)m[l];
      for (int d = 0; d < 3; d++) w[5 + d] = (int32_t)ln->s->l[d];
      if ((g[0] != 0) != all || (g[1] != 0) != any || g[2] != 1)
        rt_fail(rt,
                "all/any, group %ux%ux%u #%zu, local %zu: all %d any %d (all(1) && "
                "!any(0): %d), want %d %d",
                ln->s->l[0], ln->s->l[1], ln->s->l[2], grp, l, g[0], g[1], g[2], all, any);
    }
  }
  /* The truth values are checked above; the ids and sizes exactly. */
  for (size_t i = 0; i < N; i++)
    for (int r = 0; r < 3; r++) got[8 * i + r] = want[8 * i + r] = 0;
  char label[96];
  snprintf(label, sizeof label, "work-item functions, group %ux%ux%u", ln->s->l[0], ln->s->l[1],
           ln->s->l[2]);
  rt_cmp_i32(rt, label, got, want, 8 * N);
  return 8 * N;
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cl_wgfn");
  kcrt_kernel *k[NTYPES];
  char name[32];
  for (int t = 0; t < NTYPES; t++) {
    snprintf(name, sizeof name, "wg_%s", tname[t]);
    k[t] = rt_kernel(&rt, name);
  }
  kcrt_kernel *pred = rt_kernel(&rt, "wg_pred");
  size_t checked = 0;
  int ran = 0;
  /* The largest work-group every kernel takes on this device (NVIDIA's OpenCL: 256 for some,
     their registers permitting). */
  uint64_t most = rt.info.max_threads_per_block;
  for (int t = 0; t <= NTYPES; t++) {
    kcrt_kernel_info ki;
    RT_CHECK(&rt, kcrt_kernel_get_info(t < NTYPES ? k[t] : pred, &ki));
    if (ki.max_threads_per_block && ki.max_threads_per_block < most)
      most = ki.max_threads_per_block;
  }
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    const Shape *s = &shapes[i];
    if ((uint64_t)s->l[0] * s->l[1] * s->l[2] > most || s->l[0] > rt.info.max_block_dim[0] ||
        s->l[1] > rt.info.max_block_dim[1] || s->l[2] > rt.info.max_block_dim[2]) {
      printf("cl_wgfn: work-group %ux%ux%u is larger than the kernels take here, left out\n",
             s->l[0], s->l[1], s->l[2]);
      continue;
    }
    Launch ln;
    layout(&rt, &ln, s);
    for (int t = 0; t < NTYPES; t++)
      if (s->all_types || t == I32 || t == F32) checked += check_type(&rt, k[t], (Ty)t, &ln);
    checked += check_pred(&rt, pred, &ln);
    ran++;
  }
  /* One slot of the scratch per work-item: the bundle records 1024 as the kernels' largest
     work-group, and libkcrt refuses a larger one on every device. */
  if (rt.info.max_threads_per_block > 1024) {
    kcrt_buffer *b = rt_alloc(&rt, 16);
    kcrt_arg a[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b)};
    RT_EXPECT(&rt, KCRT_ERROR_INVALID_LAUNCH,
              kcrt_launch(k[I32], NULL, KCRT_DIM1(1), KCRT_DIM1(1025), 0, a, 3));
    const char *want = "a block of 1025 threads exceeds the 1024 threads per block that kernel "
                       "'wg_int' accepts (its __launch_bounds__, or 1024 with OpenCL's work-group "
                       "functions)";
    if (strcmp(kcrt_last_error(), want)) rt_fail(&rt, "1025 work-items: %s", kcrt_last_error());
  }
  rt_xfree_all();
  return rt_finish(&rt, "%zu values on %d work-group shapes", checked, ran);
}
