/* test_image_lib.c — kcc's software image functions (frontend/opencl/image_lib.c: what the PTX and
 * CUDA C forms run for read_image* and write_image*, docs/design.md "Images on CUDA") checked on
 * the host, where no GPU is needed: the library's OpenCL C, as the .cl prelude carries it, is
 * compiled for x86-64 by clang-19 with small wrappers, over a mock surface and mock image
 * queries written here, and every result is compared element by element with the host
 * reference the runtime image test uses (tests/runtime/image_ref.h): every image type with a
 * sampler, both filters, every addressing mode, normalized and not, CL_RGBA and CL_R of
 * CL_FLOAT, CL_UNORM_INT8, CL_SIGNED_INT32 and CL_UNSIGNED_INT8, integer coordinates, the
 * writes' conversions (NaN to snorm too), and the half conversions over every half. Nearest reads
 * must be exact; linear ones within 2e-6 of the reference (the library sums the weighted texels in
 * float, the reference in double). Skipped without clang-19. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"
#include "../runtime/image_ref.h"

/* frontend/opencl/image_lib.c (fe.h is the front end's own header). */
void fe_cl_image_lib(KBuf *b);

typedef float f4 __attribute__((vector_size(16)));
typedef int i4 __attribute__((vector_size(16)));

/* The mock image, the same struct in the mock C below: the host layout of kcrt_image_write
 * (rows, then slices or layers), y and z as BI_SURF_* address them (the layer is y for 1D
 * arrays and z for 2D arrays). */
typedef struct Mock {
  int w, h, d, layers, order, type, pixel, ydim, zdim;
  unsigned char *data;
  int misaligned; /* set by the mock when x is not a multiple of the texel size */
} Mock;

static const char mock_c[] =
    "#include <math.h>\n#include <stddef.h>\n#include <string.h>\n"
    "typedef unsigned u4 __attribute__((ext_vector_type(4)));\n"
    "typedef struct Mock { int w, h, d, layers, order, type, pixel, ydim, zdim;\n"
    "  unsigned char *data; int misaligned; } Mock;\n"
    "static long off(Mock *m, int x, int y, int z, int n) {\n"
    "  if (n != m->pixel || x % n) m->misaligned = 1;\n"
    "  if (x < 0 || x + n > m->w * m->pixel || y < 0 || y >= m->ydim || z < 0 || z >= m->zdim)\n"
    "    return -1;\n"
    "  return ((long)z * m->ydim + y) * m->w * m->pixel + x;\n}\n"
    "static u4 load(Mock *m, int x, int y, int z, int n) {\n"
    "  u4 r = {0, 0, 0, 0};\n  long o = off(m, x, y, z, n);\n"
    "  if (o >= 0) memcpy(&r, m->data + o, (size_t)n);\n  return r;\n}\n"
    "static void store(Mock *m, int x, int y, int z, u4 v, int n) {\n"
    "  long o = off(m, x, y, z, n);\n  if (o >= 0) memcpy(m->data + o, &v, (size_t)n);\n}\n"
    "#define Q(L, T) \\\n"
    "  u4 _Z15__kcc_surf_load##L##T##_roiiii(Mock *m, int x, int y, int z, int n) { return "
    "load(m, x, y, z, n); } \\\n"
    "  void _Z16__kcc_surf_store##L##T##_woiiiDv4_ji(Mock *m, int x, int y, int z, u4 v, int n) "
    "{ store(m, x, y, z, v, n); } \\\n"
    "  int _Z15get_image_width##L##T##_ro(Mock *m) { return m->w; } \\\n"
    "  int _Z16get_image_height##L##T##_ro(Mock *m) { return m->h; } \\\n"
    "  int _Z15get_image_depth##L##T##_ro(Mock *m) { return m->d; } \\\n"
    "  size_t _Z20get_image_array_size##L##T##_ro(Mock *m) { return (size_t)m->layers; } \\\n"
    "  int _Z23get_image_channel_order##L##T##_ro(Mock *m) { return m->order; } \\\n"
    "  int _Z23get_image_channel_order##L##T##_wo(Mock *m) { return m->order; } \\\n"
    "  int _Z27get_image_channel_data_type##L##T##_ro(Mock *m) { return m->type; } \\\n"
    "  int _Z27get_image_channel_data_type##L##T##_wo(Mock *m) { return m->type; }\n"
    "Q(14, ocl_image1d) Q(20, ocl_image1d_array) Q(14, ocl_image2d) Q(20, ocl_image2d_array)\n"
    "Q(14, ocl_image3d)\n"
    "float _Z4fabsf(float x) { return fabsf(x); }\n"
    "float _Z5floorf(float x) { return floorf(x); }\n"
    "float _Z4rintf(float x) { return rintf(x); }\n"
    "float _Z4fmaxff(float x, float y) { return fmaxf(x, y); }\n"
    "float _Z4fminff(float x, float y) { return fminf(x, y); }\n";

/* Wrappers with external names and 16-byte vectors only (the same x86-64 calling convention in
 * clang's OpenCL C and this file's C). */
static const char wrap_cl[] =
    "#define W(T, S, FC, IC) \\\n"
    "float4 ff_##S(read_only T i, uint s, float4 c) { return __kcc_img_read_ff(i, s, FC); } \\\n"
    "float4 fi_##S(read_only T i, uint s, int4 c) { return __kcc_img_read_fi(i, s, IC); } \\\n"
    "int4 if_##S(read_only T i, uint s, float4 c) { return __kcc_img_read_if(i, s, FC); } \\\n"
    "int4 ii_##S(read_only T i, uint s, int4 c) { return __kcc_img_read_ii(i, s, IC); } \\\n"
    "float4 fetch_##S(read_only T i, int4 c) { return __kcc_img_fetch_f(i, IC); } \\\n"
    "void wf_##S(write_only T i, int4 c, float4 v) { __kcc_img_write_f(i, IC, v); } \\\n"
    "void wi_##S(write_only T i, int4 c, int4 v) { __kcc_img_write_i(i, IC, v); } \\\n"
    "void wu_##S(write_only T i, int4 c, uint4 v) { __kcc_img_write_u(i, IC, v); }\n"
    "W(image1d_t, 1d, c.x, c.x)\n"
    "W(image1d_array_t, 1da, c.xy, c.xy)\n"
    "W(image2d_t, 2d, c.xy, c.xy)\n"
    "W(image2d_array_t, 2da, c, c)\n"
    "W(image3d_t, 3d, c, c)\n"
    "uint f2h(float f) { return __kcc_img_f2h(f); }\n"
    "float h2f(uint h) { return __kcc_img_h2f(h); }\n";

static void *lib;

/* The library compiled and loaded once; false (the tests skip) without clang-19. */
static bool load_lib(void) {
  static bool tried;
  if (tried) return lib != NULL;
  tried = true;
  if (tu_sh("command -v clang-19 >/dev/null", NULL, NULL) != 0) return false;
  KBuf b = {0};
  fe_cl_image_lib(&b);
  kbuf_puts(&b, wrap_cl);
  char *cl = tu_write("imglib.cl", b.data);
  kbuf_free(&b);
  char *mc = strdup(tu_write("mock.c", mock_c));
  char cmd[2048], *err = NULL;
  snprintf(cmd, sizeof cmd,
           "clang-19 -target x86_64-unknown-linux-gnu -O1 -fPIC -shared -o %s/imglib.so "
           "-x cl -cl-std=CL1.2 -Xclang -finclude-default-header %s -x c %s -lm",
           tu_tmpdir(), cl, mc);
  free(mc);
  ck_assert_msg(tu_sh(cmd, NULL, &err) == 0, "clang-19 failed:\n%.4000s", err);
  free(err);
  snprintf(cmd, sizeof cmd, "%s/imglib.so", tu_tmpdir());
  lib = dlopen(cmd, RTLD_NOW | RTLD_LOCAL);
  ck_assert_msg(lib != NULL, "%s", dlerror());
  return true;
}

static void *sym(const char *name) {
  void *p = dlsym(lib, name);
  ck_assert_msg(p != NULL, "no %s", name);
  return p;
}

/* A fixed pseudo-random sequence (xorshift64*): the same cases every run. */
static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
  return (uint32_t)((seed * 0x2545f4914f6cdd1dull) >> 32);
}
static int rint_in(int lo, int hi) {
  return lo + (int)(rnd() % (uint32_t)(hi - lo + 1));
}
static float rfloat(float lo, float hi) {
  return lo + (hi - lo) * (float)(rnd() >> 8) / 16777216.0f;
}

static const char *suffix(kcrt_image_type t) {
  return t == KCRT_IMAGE_1D         ? "1d"
         : t == KCRT_IMAGE_1D_ARRAY ? "1da"
         : t == KCRT_IMAGE_2D       ? "2d"
         : t == KCRT_IMAGE_2D_ARRAY ? "2da"
                                    : "3d";
}

/* A random image of the reference's kind and its mock. */
static Img make(kcrt_image_type type, kcrt_channel_order o, kcrt_channel_type t, Mock *mk) {
  Img m = {{type, o, t, 0, 0, 0, 0}, rint_in(3, 17), 1, 1, 1, 1, false, NULL, 0};
  m.dims = type == KCRT_IMAGE_3D ? 3 : type == KCRT_IMAGE_2D || type == KCRT_IMAGE_2D_ARRAY ? 2 : 1;
  m.arrayed = type == KCRT_IMAGE_1D_ARRAY || type == KCRT_IMAGE_2D_ARRAY;
  if (m.dims >= 2) m.h = rint_in(3, 17);
  if (m.dims == 3) m.dp = rint_in(3, 9);
  if (m.arrayed) m.layers = rint_in(2, 5);
  m.bytes = (size_t)m.w * m.h * m.dp * m.layers * nch(o) * chbytes(t);
  m.data = malloc(m.bytes);
  for (size_t i = 0; i < m.bytes; i += (size_t)chbytes(t)) {
    if (t == KCRT_FLOAT) {
      float f = rfloat(0.0f, 1.0f);
      memcpy(m.data + i, &f, 4);
    } else if (t == KCRT_SIGNED_INT32) {
      uint32_t v = rnd();
      memcpy(m.data + i, &v, 4);
    } else {
      m.data[i] = (unsigned char)rnd();
    }
  }
  *mk = (Mock){m.w,
               m.h,
               m.dp,
               m.layers,
               (int)o,
               (int)t,
               nch(o) * chbytes(t),
               type == KCRT_IMAGE_1D_ARRAY ? m.layers : m.h,
               type == KCRT_IMAGE_2D_ARRAY ? m.layers : m.dp,
               m.data,
               0};
  return m;
}

/* As cl_images.c draws them: inside for NONE, else up to 1.5 images beyond each side, never
 * within 0.05 of a texel boundary. */
static float texel_coord(int n, int addr) {
  for (;;) {
    float u = addr == NONE ? rfloat(0.6f, (float)n - 0.6f) : rfloat(-1.5f * (float)n, 2.5f * n);
    float f = u - floorf(u);
    if (f > 0.05f && f < 0.95f && fabsf(f - 0.5f) > 0.05f) return u;
  }
}

static const char *const addr_name[] = {"none", "clamp-to-edge", "clamp", "repeat",
                                        "mirrored-repeat"};

static int sampler_bits(int addr, bool norm, bool lin) {
  return (norm ? 1 : 0) | addr * 2 | (lin ? 0x20 : 0x10);
}

/* N reads of a fresh image through one sampler; returns the largest difference. */
static double sample_case(kcrt_image_type type, kcrt_channel_order o, kcrt_channel_type t, int addr,
                          bool norm, bool lin) {
  Mock mk;
  Img m = make(type, o, t, &mk);
  bool ints = t == KCRT_SIGNED_INT32 || t == KCRT_UNSIGNED_INT8;
  char name[16];
  snprintf(name, sizeof name, "%s_%s", ints ? "if" : "ff", suffix(type));
  void *read = sym(name);
  f4 (*rf)(Mock *, unsigned, f4) = read;
  i4 (*ri)(Mock *, unsigned, f4) = read;
  char iname[16];
  snprintf(iname, sizeof iname, "ii_%s", suffix(type));
  i4 (*rii)(Mock *, unsigned, i4) = sym(iname);
  int size[3] = {m.w, m.h, m.dp};
  unsigned smp = (unsigned)sampler_bits(addr, norm, lin);
  double worst = 0;
  for (int i = 0; i < 256; i++) {
    float c[4] = {0, 0, 0, 0};
    for (int a = 0; a < m.dims; a++) {
      float u = texel_coord(size[a], addr);
      c[a] = norm ? u / (float)size[a] : u;
    }
    if (m.arrayed) c[m.dims] = rfloat(-1.4f, (float)m.layers + 0.4f);
    double r[4];
    reference(&m, addr, norm, lin, ints, c, r);
    f4 cv = {c[0], c[1], c[2], c[3]};
    if (ints) {
      i4 got = ri(&mk, smp, cv);
      for (int k = 0; k < 4; k++)
        ck_assert_msg(got[k] == (int32_t)(int64_t)r[k], "%s %s coord %d channel %d: %d, want %d",
                      name, addr_name[addr], i, k, got[k], (int32_t)(int64_t)r[k]);
      /* The same texel through integer coordinates (unnormalized only, as OpenCL allows). */
      if (!norm) {
        i4 ic = {(int)floorf(c[0]), (int)floorf(c[1]), (int)floorf(c[2]), (int)rintf(c[3])};
        if (m.dims == 1 && m.arrayed) ic[1] = (int)rintf(c[1]);
        if (m.dims == 2 && m.arrayed) ic[2] = (int)rintf(c[2]);
        got = rii(&mk, smp, ic);
        for (int k = 0; k < 4; k++)
          ck_assert_msg(got[k] == (int32_t)(int64_t)r[k], "ii %s coord %d channel %d", suffix(type),
                        i, k);
      }
    } else {
      f4 got = rf(&mk, smp, cv);
      for (int k = 0; k < 4; k++) {
        double d = fabs((double)got[k] - r[k]);
        if (d > worst) worst = d;
        ck_assert_msg(d <= (lin ? 2e-6 : 0), "%s %s %s %s %s coord %d channel %d: %.9g, want %.9g",
                      name, o == KCRT_RGBA ? "RGBA" : "R", t == KCRT_FLOAT ? "FLOAT" : "UNORM_INT8",
                      addr_name[addr], lin ? "linear" : "nearest", i, k, (double)got[k], r[k]);
      }
    }
  }
  ck_assert_int_eq(mk.misaligned, 0);
  (void)pocl; /* the reference's PoCL departures: off here */
  free(m.data);
  return worst;
}

START_TEST(sampled_reads) {
  if (!load_lib()) return;
  static const kcrt_image_type types[] = {KCRT_IMAGE_1D, KCRT_IMAGE_1D_ARRAY, KCRT_IMAGE_2D,
                                          KCRT_IMAGE_2D_ARRAY, KCRT_IMAGE_3D};
  static const kcrt_channel_order orders[] = {KCRT_RGBA, KCRT_R};
  static const kcrt_channel_type ftypes[] = {KCRT_FLOAT, KCRT_UNORM_INT8};
  int cases = 0;
  for (int ty = 0; ty < 5; ty++)
    for (int o = 0; o < 2; o++)
      for (int ft = 0; ft < 2; ft++)
        for (int norm = 0; norm < 2; norm++)
          for (int addr = NONE; addr <= MIRROR; addr++)
            for (int lin = 0; lin < 2; lin++) {
              if (!norm && addr >= REPEAT) continue;
              sample_case(types[ty], orders[o], ftypes[ft], addr, norm, lin);
              cases++;
            }
  ck_assert_int_eq(cases, 5 * 2 * 2 * 16);
}
END_TEST

START_TEST(integer_reads) {
  if (!load_lib()) return;
  static const kcrt_channel_order orders[] = {KCRT_RGBA, KCRT_R};
  for (int o = 0; o < 2; o++)
    for (int addr = NONE; addr <= CLAMP; addr++) {
      sample_case(KCRT_IMAGE_2D, orders[o], KCRT_SIGNED_INT32, addr, false, false);
      sample_case(KCRT_IMAGE_2D, orders[o], KCRT_UNSIGNED_INT8, addr, false, false);
      sample_case(KCRT_IMAGE_3D, orders[o], KCRT_UNSIGNED_INT8, addr, false, false);
    }
}
END_TEST

/* Writes: FLOAT exactly, UNORM_INT8 as convert_uchar_sat_rte(v * 255), SIGNED_INT8 and
 * UNSIGNED_INT8 saturated, each then read back through fetch (sampler-less reads). */
START_TEST(writes) {
  if (!load_lib()) return;
  static const kcrt_image_type types[] = {KCRT_IMAGE_1D, KCRT_IMAGE_1D_ARRAY, KCRT_IMAGE_2D,
                                          KCRT_IMAGE_2D_ARRAY, KCRT_IMAGE_3D};
  for (int ty = 0; ty < 5; ty++) {
    char name[16];
    Mock mk;
    Img m = make(types[ty], KCRT_RGBA, KCRT_FLOAT, &mk);
    snprintf(name, sizeof name, "wf_%s", suffix(types[ty]));
    void (*wf)(Mock *, i4, f4) = sym(name);
    snprintf(name, sizeof name, "fetch_%s", suffix(types[ty]));
    f4 (*fetch)(Mock *, i4) = sym(name);
    for (int i = 0; i < 200; i++) {
      i4 p = {rint_in(0, m.w - 1), rint_in(0, m.dims > 1 ? m.h - 1 : 0),
              rint_in(0, m.dims > 2 ? m.dp - 1 : 0), 0};
      if (m.arrayed) p[m.dims] = rint_in(0, m.layers - 1);
      f4 v = {rfloat(-2, 2), rfloat(-2, 2), rfloat(-2, 2), rfloat(-2, 2)};
      wf(&mk, p, v);
      f4 back = fetch(&mk, p);
      for (int k = 0; k < 4; k++) ck_assert_float_eq(back[k], v[k]);
    }
    ck_assert_int_eq(mk.misaligned, 0);
    free(m.data);
  }
  /* Conversions on a 2D image of each integer-backed type (one texel, every channel). */
  static const struct {
    kcrt_channel_type t;
    char kind; /* f, i, u: write_imagef/i/ui */
  } conv[] = {{KCRT_UNORM_INT8, 'f'},
              {KCRT_SIGNED_INT8, 'i'},
              {KCRT_UNSIGNED_INT8, 'u'},
              {KCRT_SNORM_INT8, 'f'}};
  for (int c = 0; c < 4; c++) {
    unsigned char px[4 * 4 * 4] = {0};
    Mock mk = {4, 4, 1, 1, KCRT_RGBA, (int)conv[c].t, 4, 4, 1, px, 0};
    void (*w)(Mock *, i4, f4) = sym(conv[c].kind == 'f'   ? "wf_2d"
                                    : conv[c].kind == 'i' ? "wi_2d"
                                                          : "wu_2d");
    for (int i = 0; i < 2000; i++) {
      i4 p = {rint_in(0, 3), rint_in(0, 3), 0, 0};
      union {
        f4 f;
        i4 i;
      } v;
      int want[4];
      for (int k = 0; k < 4; k++) {
        if (conv[c].t == KCRT_SNORM_INT8) {
          /* NaN is 0 (OpenCL 6.2.3.3), not the lower bound a clamp through fmax makes it. */
          float f = i % 5 ? rfloat(-1.5f, 1.5f) : NAN;
          v.f[k] = f;
          float s = f * 127.0f;
          want[k] = (f != f ? 0 : s <= -128 ? -128 : s >= 127 ? 127 : (int)rintf(s)) & 255;
        } else if (conv[c].kind == 'f') {
          /* Halves of 1/255 included: ties round to even. */
          float f = i % 3 ? rfloat(-0.5f, 1.5f) : (float)rint_in(-10, 520) / 510.0f;
          v.f[k] = f;
          float s = f * 255.0f;
          want[k] = s <= 0 ? 0 : s >= 255 ? 255 : (int)rintf(s);
        } else if (conv[c].kind == 'i') {
          v.i[k] = rint_in(-300, 300);
          want[k] = (v.i[k] < -128 ? -128 : v.i[k] > 127 ? 127 : v.i[k]) & 255;
        } else {
          v.i[k] = (int)(rnd() % 600u);
          want[k] = v.i[k] > 255 ? 255 : v.i[k];
        }
      }
      w(&mk, p, v.f);
      for (int k = 0; k < 4; k++)
        ck_assert_msg(px[(p[1] * 4 + p[0]) * 4 + k] == want[k],
                      "conversion %d texel %d: %d, want %d", c, i, px[(p[1] * 4 + p[0]) * 4 + k],
                      want[k]);
    }
  }
}
END_TEST

/* Every half to float exactly, and every float the library rounds to the nearest half, ties to
 * even (checked against the neighbours' values, through the library's own exact h2f). */
START_TEST(halves) {
  if (!load_lib()) return;
  float (*h2f)(unsigned) = sym("h2f");
  unsigned (*f2h)(float) = sym("f2h");
  for (unsigned h = 0; h < 0x10000; h++) {
    unsigned e = h >> 10 & 31, mant = h & 1023;
    double want = e == 31  ? (mant ? NAN : INFINITY)
                  : e == 0 ? ldexp(mant, -24)
                           : ldexp(1024 + mant, (int)e - 25);
    if (h & 0x8000) want = -want;
    float got = h2f(h);
    if (isnan(want))
      ck_assert(isnan(got));
    else
      ck_assert_msg((double)got == want, "half 0x%04x: %g, want %g", h, (double)got, want);
    if (!isnan(want))
      ck_assert_msg(f2h(got) == h, "round trip of half 0x%04x: 0x%04x", h, f2h(got));
  }
  for (int i = 0; i < 200000; i++) {
    uint32_t bits = rnd() & 0x7fffffffu;
    if ((bits >> 23) > 0x8f || (bits >> 23) < 0x60)
      bits = (bits & 0x807fffffu) | (uint32_t)rint_in(0x60, 0x8f) << 23;
    float f;
    memcpy(&f, &bits, 4);
    unsigned h = f2h(f);
    double d = fabs((double)h2f(h) - f);
    if (h < 0x7bff) ck_assert_msg(d <= fabs((double)h2f(h + 1) - f), "0x%08x -> 0x%04x", bits, h);
    /* 65520 and above round to infinity (IEEE 754), which is no nearer than 65504. */
    if (h > 0 && h < 0x7c00)
      ck_assert_msg(d <= fabs((double)h2f(h - 1) - f), "0x%08x -> 0x%04x", bits, h);
    if (h < 0x7bff && d == fabs((double)h2f(h + 1) - f))
      ck_assert_msg(!(h & 1), "tie 0x%08x", bits);
    if (h > 0 && h < 0x7c00 && d == fabs((double)h2f(h - 1) - f))
      ck_assert_msg(!(h & 1), "tie 0x%08x", bits);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("image_lib");
  TCase *tc = tcase_create("image_lib");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, sampled_reads);
  tcase_add_test(tc, integer_reads);
  tcase_add_test(tc, writes);
  tcase_add_test(tc, halves);
  suite_add_tcase(s, tc);
  return tu_main(s);
}
