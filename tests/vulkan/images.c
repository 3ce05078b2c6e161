/* images.c — runs tests/vulkan/images.cl: every channel order with every data type OpenCL
 * allows for it, on random texels and random values, against a host reference written here
 * from OpenCL 1.2 §8.3 (conversions) and §8.2 (the border colour; addressing and filtering are
 * tests/runtime/image_ref.h's):
 *  - read_imagef / read_imagei / read_imageui of every texel, without a sampler and through a
 *    clamping constant sampler half of whose reads fall beyond the image (the border colour);
 *    bit for bit;
 *  - read_imagef through a sampler argument at random float coordinates, every addressing mode,
 *    both filters, both coordinate modes, on each format read_imagef takes (nearest bit for
 *    bit; linear within 1e-5 of the double reference on data in [-1, 1]: software sampling has
 *    the reference's texels and weights, only float rounding differs);
 *  - write_imagef / write_imagei / write_imageui of random values (saturation, round to
 *    nearest even, NaN, half rounding) read back as the image's bytes, bit for bit, and writes
 *    outside the image, which must change nothing;
 *  - a read_write image read and written by each work-item;
 *  - texel layout on every image type (1D, 1D buffer, 1D array, 2D array, 3D) with texels of
 *    1, 2, 4, 8 and 16 bytes, copied image to image, and the size queries.
 * The Vulkan form samples in software over plain loads and stores (docs/design.md, "Images on
 * Vulkan"); this checks the loads and stores of every texel size and the conversions of every
 * format, which tests/runtime/cl_images.c (every image type and sampler, four formats) does
 * not. Usage: vk_images images.kcb. */
#include "rt_common.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/image_ref.h"

enum { NS = 128 }; /* coordinates per sampler case */

static int f_nch(kcrt_channel_order o) {
  return o == KCRT_RG || o == KCRT_RA                         ? 2
         : o == KCRT_RGBA || o == KCRT_BGRA || o == KCRT_ARGB ? 4
                                                              : 1;
}

static int f_chb(kcrt_channel_type t) {
  switch (t) {
  case KCRT_SNORM_INT8:
  case KCRT_UNORM_INT8:
  case KCRT_SIGNED_INT8:
  case KCRT_UNSIGNED_INT8: return 1;
  case KCRT_SIGNED_INT32:
  case KCRT_UNSIGNED_INT32:
  case KCRT_FLOAT: return 4;
  default: return 2;
  }
}

/* 0: read_imagef's (normalized, half, float); 1: signed integers; 2: unsigned integers. */
static int f_kind(kcrt_channel_type t) {
  if (t == KCRT_SIGNED_INT8 || t == KCRT_SIGNED_INT16 || t == KCRT_SIGNED_INT32) return 1;
  if (t == KCRT_UNSIGNED_INT8 || t == KCRT_UNSIGNED_INT16 || t == KCRT_UNSIGNED_INT32) return 2;
  return 0;
}

static const char *order_name(kcrt_channel_order o) {
  static const char *n[] = {"R",    "A",    "RG",   "RA",        "RGB",
                            "RGBA", "BGRA", "ARGB", "INTENSITY", "LUMINANCE"};
  return o >= KCRT_R && o <= KCRT_LUMINANCE ? n[o - KCRT_R] : "?";
}

static const char *type_name(kcrt_channel_type t) {
  static const char *n[] = {
      "SNORM_INT8",      "SNORM_INT16",      "UNORM_INT8",     "UNORM_INT16",  "UNORM_SHORT_565",
      "UNORM_SHORT_555", "UNORM_INT_101010", "SIGNED_INT8",    "SIGNED_INT16", "SIGNED_INT32",
      "UNSIGNED_INT8",   "UNSIGNED_INT16",   "UNSIGNED_INT32", "HALF_FLOAT",   "FLOAT"};
  return t >= KCRT_SNORM_INT8 && t <= KCRT_FLOAT ? n[t - KCRT_SNORM_INT8] : "?";
}

/* Channel c's bits of the texel at p, zero-extended. */
static uint32_t raw(const unsigned char *p, kcrt_channel_type t, int c) {
  int b = f_chb(t);
  uint32_t v = 0;
  memcpy(&v, p + c * b, (size_t)b); /* little-endian host */
  return v;
}

/* §8.3.1.1: a channel as read_imagef gives it. */
static float to_float(uint32_t v, kcrt_channel_type t) {
  switch (t) {
  case KCRT_UNORM_INT8: return (float)v / 255.0f;
  case KCRT_UNORM_INT16: return (float)v / 65535.0f;
  case KCRT_SNORM_INT8: return fmaxf(-1.0f, (float)(int8_t)v / 127.0f);
  case KCRT_SNORM_INT16: return fmaxf(-1.0f, (float)(int16_t)v / 32767.0f);
  case KCRT_HALF_FLOAT: return rt_f16_value((uint16_t)v);
  default: return rt_f32_of_bits(v);
  }
}

/* As read_imagei/ui give it: signed types sign-extended. */
static int32_t to_int(uint32_t v, kcrt_channel_type t) {
  if (t == KCRT_SIGNED_INT8) return (int8_t)v;
  if (t == KCRT_SIGNED_INT16) return (int16_t)v;
  return (int32_t)v;
}

/* The channels in memory order m to (r, g, b, a) (§8.3: missing colour channels 0, a missing
 * alpha 1). one: 1.0f's or 1's bits. */
static void to_rgba(const uint32_t m[4], kcrt_channel_order o, uint32_t one, uint32_t out[4]) {
  uint32_t r[4] = {0, 0, 0, one};
  switch (o) {
  case KCRT_R: r[0] = m[0]; break;
  case KCRT_A: r[3] = m[0]; break;
  case KCRT_RG: r[0] = m[0], r[1] = m[1]; break;
  case KCRT_RA: r[0] = m[0], r[3] = m[1]; break;
  case KCRT_BGRA: r[0] = m[2], r[1] = m[1], r[2] = m[0], r[3] = m[3]; break;
  case KCRT_ARGB: r[0] = m[1], r[1] = m[2], r[2] = m[3], r[3] = m[0]; break;
  case KCRT_INTENSITY: r[0] = r[1] = r[2] = r[3] = m[0]; break;
  case KCRT_LUMINANCE: r[0] = r[1] = r[2] = m[0]; break;
  default: memcpy(r, m, sizeof r); break;
  }
  memcpy(out, r, sizeof r);
}

/* (r, g, b, a) to the channels in memory order, for a write (the red channel for intensity and
 * luminance). */
static void to_mem(const uint32_t c[4], kcrt_channel_order o, uint32_t m[4]) {
  uint32_t r[4] = {c[0], c[1], c[2], c[3]};
  if (o == KCRT_A) r[0] = c[3];
  if (o == KCRT_RA) r[1] = c[3];
  if (o == KCRT_BGRA) r[0] = c[2], r[2] = c[0];
  if (o == KCRT_ARGB) r[0] = c[3], r[1] = c[0], r[2] = c[1], r[3] = c[2];
  memcpy(m, r, sizeof r);
}

/* The border colour (§8.2): (0, 0, 0, 0) for orders with alpha, else (0, 0, 0, 1). */
static bool has_alpha(kcrt_channel_order o) {
  return o == KCRT_A || o == KCRT_INTENSITY || o == KCRT_RA || o == KCRT_ARGB || o == KCRT_BGRA ||
         o == KCRT_RGBA;
}

/* The texel at p as read_image{f,i,ui} returns it, as 4 words (float bits or integers). */
static void ref_texel(const unsigned char *p, kcrt_channel_order o, kcrt_channel_type t,
                      uint32_t out[4]) {
  uint32_t m[4] = {0, 0, 0, 0};
  bool fl = f_kind(t) == 0;
  for (int c = 0; c < f_nch(o); c++) {
    uint32_t v = raw(p, t, c);
    m[c] = fl ? rt_f32_bits(to_float(v, t)) : (uint32_t)to_int(v, t);
  }
  to_rgba(m, o, fl ? rt_f32_bits(1.0f) : 1u, out);
}

/* §8.3.1.2: a float to a channel's bits (round to nearest even, saturated, NaN to 0), and
 * write_imagei/ui's saturating integer conversions. */
static int64_t sat_rte(float f, double lo, double hi) {
  if (f != f) return 0;
  double x = rint((double)f); /* f itself: the scaling was done in float as the device does */
  return (int64_t)(x < lo ? lo : x > hi ? hi : x);
}

static uint32_t from_float(float f, kcrt_channel_type t) {
  switch (t) {
  case KCRT_UNORM_INT8: return (uint32_t)sat_rte(f * 255.0f, 0, 255);
  case KCRT_UNORM_INT16: return (uint32_t)sat_rte(f * 65535.0f, 0, 65535);
  case KCRT_SNORM_INT8: return (uint32_t)sat_rte(f * 127.0f, -128, 127) & 0xffu;
  case KCRT_SNORM_INT16: return (uint32_t)sat_rte(f * 32767.0f, -32768, 32767) & 0xffffu;
  case KCRT_HALF_FLOAT: return rt_f16_of_float(f, FE_TONEAREST);
  default: return rt_f32_bits(f);
  }
}

static uint32_t from_int(uint32_t v, kcrt_channel_type t) {
  int32_t s = (int32_t)v;
  switch (t) {
  case KCRT_SIGNED_INT8: return (uint32_t)(s < -128 ? -128 : s > 127 ? 127 : s) & 0xffu;
  case KCRT_SIGNED_INT16: return (uint32_t)(s < -32768 ? -32768 : s > 32767 ? 32767 : s) & 0xffffu;
  case KCRT_UNSIGNED_INT8: return v > 255u ? 255u : v;
  case KCRT_UNSIGNED_INT16: return v > 65535u ? 65535u : v;
  default: return v;
  }
}

/* The texel's bytes for (r, g, b, a) written with write_imagef (ints false) or write_imagei/ui. */
static void ref_write(const uint32_t c[4], bool ints, kcrt_channel_order o, kcrt_channel_type t,
                      unsigned char *p) {
  uint32_t m[4];
  to_mem(c, o, m);
  for (int k = 0; k < f_nch(o); k++) {
    uint32_t v = ints ? from_int(m[k], t) : from_float(rt_f32_of_bits(m[k]), t);
    memcpy(p + k * f_chb(t), &v, (size_t)f_chb(t));
  }
}

typedef struct Fmt {
  kcrt_channel_order o;
  kcrt_channel_type t;
} Fmt;

static kcrt_image *make(Rt *rt, kcrt_image_type type, Fmt f, int w, int h, int d, int layers,
                        const void *data) {
  kcrt_image_desc desc = {type, f.o, f.t, (size_t)w, (size_t)h, (size_t)d, (size_t)layers};
  kcrt_image *img = NULL;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &desc, &img));
  if (img && data) RT_CHECK(rt, kcrt_image_write(img, data));
  return img;
}

/* Random texel bytes; float and half channels in [-1, 1] when `tame` (no NaN or infinity). */
static void fill(Rt *rt, unsigned char *p, size_t texels, Fmt f, bool tame) {
  size_t n = texels * (size_t)f_nch(f.o);
  for (size_t i = 0; i < n; i++) {
    uint32_t v = rt_u32(rt);
    if (tame && f.t == KCRT_FLOAT) v = rt_f32_bits(rt_float(rt, -1.0f, 1.0f));
    if (tame && f.t == KCRT_HALF_FLOAT)
      v = rt_f16_of_float(rt_float(rt, -1.0f, 1.0f), FE_TONEAREST);
    memcpy(p + i * (size_t)f_chb(f.t), &v, (size_t)f_chb(f.t));
  }
}

static void cmp_words(Rt *rt, const char *what, Fmt f, const uint32_t *got, const uint32_t *want,
                      size_t n) {
  char name[160];
  snprintf(name, sizeof name, "%s %s %s", what, order_name(f.o), type_name(f.t));
  if (f_kind(f.t) == 0)
    rt_cmp_f32(rt, name, (const float *)got, (const float *)want, n, 0, 0);
  else
    rt_cmp_u32(rt, name, got, want, n);
}

/* rdf / rdi / rdu: every texel, and w/2 to its right through the clamping sampler. */
static void reads(Rt *rt, Fmt f) {
  int w = rt_int(rt, 2, 19), h = rt_int(rt, 1, 7), ps = f_nch(f.o) * f_chb(f.t);
  size_t n = (size_t)w * h;
  unsigned char *data = rt_xalloc(n * (size_t)ps);
  fill(rt, data, n, f, false);
  kcrt_image *img = make(rt, KCRT_IMAGE_2D, f, w, h, 0, 0, data);
  kcrt_buffer *o = rt_alloc(rt, 32 * n);
  kcrt_arg args[] = {KCRT_ARG_VALUE(img), KCRT_ARG_BUFFER(o)};
  static const char *const kn[3] = {"rdf", "rdi", "rdu"};
  rt_launch(rt, rt_kernel(rt, kn[f_kind(f.t)]), KCRT_DIM3(w, h, 1), KCRT_DIM1(1), 0, args, 2);
  uint32_t *got = rt_xalloc(32 * n), *want = rt_xalloc(32 * n);
  rt_download(rt, o, got, 32 * n);
  bool fl = f_kind(f.t) == 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      size_t i = (size_t)y * w + x;
      ref_texel(data + i * ps, f.o, f.t, want + 8 * i);
      int x2 = x + w / 2;
      if (x2 < w) {
        ref_texel(data + ((size_t)y * w + x2) * ps, f.o, f.t, want + 8 * i + 4);
      } else {
        uint32_t one = fl ? rt_f32_bits(1.0f) : 1u;
        want[8 * i + 4] = want[8 * i + 5] = want[8 * i + 6] = 0;
        want[8 * i + 7] = has_alpha(f.o) ? 0 : one;
      }
    }
  cmp_words(rt, kn[f_kind(f.t)], f, got, want, 8 * n);
  RT_CHECK(rt, kcrt_image_free(img));
  RT_CHECK(rt, kcrt_buffer_free(o));
}

/* A coordinate on an axis of n texels, in texel units, never within 0.05 of a texel boundary
 * or centre (where float coordinate arithmetic may pick either texel); inside for NONE. */
static float coord(Rt *rt, int n, int addr) {
  for (;;) {
    float u = addr == NONE ? rt_float(rt, 0.6f, (float)n - 0.6f)
                           : rt_float(rt, -1.5f * (float)n, 2.5f * (float)n);
    float fr = u - floorf(u);
    if (fr > 0.05f && fr < 0.95f && fabsf(fr - 0.5f) > 0.05f) return u;
  }
}

/* smp: a sampler argument of every mode on a read_imagef format (data in [-1, 1]). */
static void sampled(Rt *rt, Fmt f) {
  int w = rt_int(rt, 2, 13), h = rt_int(rt, 2, 9), ps = f_nch(f.o) * f_chb(f.t);
  size_t n = (size_t)w * h;
  unsigned char *data = rt_xalloc(n * (size_t)ps);
  fill(rt, data, n, f, true);
  kcrt_image *img = make(rt, KCRT_IMAGE_2D, f, w, h, 0, 0, data);
  /* The texels as image_ref.h's reference reads them: RGBA floats, the order applied. */
  Img m = {{KCRT_IMAGE_2D, KCRT_RGBA, KCRT_FLOAT, (size_t)w, (size_t)h, 0, 0},
           w,
           h,
           1,
           1,
           2,
           false,
           rt_xalloc(16 * n),
           16 * n};
  for (size_t i = 0; i < n; i++) ref_texel(data + i * ps, f.o, f.t, (uint32_t *)(m.data + 16 * i));
  for (int norm = 0; norm < 2; norm++)
    for (int addr = NONE; addr <= MIRROR; addr++)
      for (int lin = 0; lin < 2; lin++) {
        if (!norm && addr >= REPEAT) continue;
        kcrt_sampler *s = NULL;
        RT_CHECK(rt, kcrt_sampler_create(rt->dev, norm, (kcrt_addressing)addr,
                                         lin ? KCRT_FILTER_LINEAR : KCRT_FILTER_NEAREST, &s));
        float *c = rt_xalloc(sizeof(float) * 2 * NS);
        for (int i = 0; i < NS; i++) {
          c[2 * i] = coord(rt, w, addr);
          c[2 * i + 1] = coord(rt, h, addr);
          if (norm) c[2 * i] /= (float)w, c[2 * i + 1] /= (float)h;
        }
        kcrt_buffer *dc = rt_upload(rt, c, sizeof(float) * 2 * NS), *o = rt_alloc(rt, 16 * NS);
        kcrt_arg args[] = {KCRT_ARG_VALUE(img), KCRT_ARG_VALUE(s), KCRT_ARG_BUFFER(dc),
                           KCRT_ARG_BUFFER(o)};
        rt_launch(rt, rt_kernel(rt, "smp"), KCRT_DIM1(NS / 32), KCRT_DIM1(32), 0, args, 4);
        float *got = rt_xalloc(16 * NS), *want = rt_xalloc(16 * NS);
        rt_download(rt, o, got, 16 * NS);
        for (int i = 0; i < NS; i++) {
          double r[4];
          reference(&m, addr, norm, lin, false, &c[2 * i], r);
          /* The reference's border is RGBA's; the format's may have alpha 1. */
          int size[2] = {w, h};
          bool out = false;
          for (int a = 0; a < 2 && !lin; a++) {
            int k = nearest(c[2 * i + a], size[a], addr, norm);
            out |= k < 0 || k >= size[a];
          }
          if (out && !has_alpha(f.o)) r[3] = 1;
          if (lin && !has_alpha(f.o)) { /* each border corner's alpha 1 */
            int i0[2], i1[2];
            float wt[2];
            for (int a = 0; a < 2; a++)
              linear(c[2 * i + a], size[a], addr, norm, &i0[a], &i1[a], &wt[a]);
            for (int k = 0; k < 4; k++) {
              int ix = k & 1 ? i1[0] : i0[0], iy = k & 2 ? i1[1] : i0[1];
              if (ix < 0 || ix >= w || iy < 0 || iy >= h)
                r[3] +=
                    (k & 1 ? (double)wt[0] : 1.0 - wt[0]) * (k & 2 ? (double)wt[1] : 1.0 - wt[1]);
            }
          }
          for (int k = 0; k < 4; k++) want[4 * i + k] = (float)r[k];
        }
        static const char *an[] = {"none", "clamp-to-edge", "clamp", "repeat", "mirrored-repeat"};
        char what[160];
        snprintf(what, sizeof what, "smp %s %s %s %s %s", order_name(f.o), type_name(f.t),
                 norm ? "normalized" : "unnormalized", an[addr], lin ? "linear" : "nearest");
        rt_cmp_f32(rt, what, got, want, 4 * NS, 0, lin ? 1e-5 : 0);
        RT_CHECK(rt, kcrt_sampler_free(s));
        RT_CHECK(rt, kcrt_buffer_free(dc));
        RT_CHECK(rt, kcrt_buffer_free(o));
      }
  RT_CHECK(rt, kcrt_image_free(img));
}

/* A random value for write_imagef into t: around and beyond its range, NaN now and then. */
static float write_value(Rt *rt, kcrt_channel_type t) {
  int r = rt_int(rt, 0, 15);
  if (r == 0 && t != KCRT_HALF_FLOAT) return NAN; /* (a half NaN's payload is the device's) */
  if (t == KCRT_FLOAT) return rt_f32_of_bits(rt_u32(rt));
  if (t == KCRT_HALF_FLOAT && r < 4) { /* any float but NaN: huge, tiny, infinite */
    float f = rt_f32_of_bits(rt_u32(rt));
    return f != f ? INFINITY : f;
  }
  if (t == KCRT_HALF_FLOAT)
    return rt_float(rt, -70000.0f, 70000.0f) * powf(2.0f, -(float)rt_int(rt, 0, 30));
  /* Ties of the scaled value (k + 0.5) / scale, where they are exact, and ordinary values. */
  float scale = t == KCRT_UNORM_INT8    ? 255.0f
                : t == KCRT_UNORM_INT16 ? 65535.0f
                : t == KCRT_SNORM_INT8  ? 127.0f
                                        : 32767.0f;
  if (r < 4) return ((float)rt_int(rt, -300, 300) + 0.5f) / scale;
  return rt_float(rt, -1.3f, 1.3f);
}

static uint32_t write_int(Rt *rt, int kind) {
  int r = rt_int(rt, 0, 3);
  if (r == 0) return rt_u32(rt);
  if (r == 1) return (uint32_t)rt_int(rt, -70000, 70000);
  return kind == 2 ? (uint32_t)rt_int(rt, 0, 300) : (uint32_t)rt_int(rt, -300, 300);
}

/* wrf / wri / wru, then writes outside the image (which change nothing), read back as bytes. */
static void writes(Rt *rt, Fmt f) {
  int w = rt_int(rt, 2, 19), h = rt_int(rt, 1, 7), ps = f_nch(f.o) * f_chb(f.t);
  int kind = f_kind(f.t);
  size_t n = (size_t)w * h;
  uint32_t *v = rt_xalloc(16 * n);
  for (size_t i = 0; i < 4 * n; i++)
    v[i] = kind == 0 ? rt_f32_bits(write_value(rt, f.t)) : write_int(rt, kind);
  kcrt_image *img = make(rt, KCRT_IMAGE_2D, f, w, h, 0, 0, NULL);
  kcrt_buffer *dv = rt_upload(rt, v, 16 * n);
  kcrt_arg args[] = {KCRT_ARG_VALUE(img), KCRT_ARG_BUFFER(dv)};
  static const char *const kn[3] = {"wrf", "wri", "wru"};
  rt_launch(rt, rt_kernel(rt, kn[kind]), KCRT_DIM3(w, h, 1), KCRT_DIM1(1), 0, args, 2);
  unsigned char *got = rt_xalloc(n * ps), *want = rt_xalloc(n * ps);
  RT_CHECK(rt, kcrt_image_read(img, got));
  for (size_t i = 0; i < n; i++) ref_write(v + 4 * i, kind != 0, f.o, f.t, want + i * ps);
  uint32_t *g32 = rt_xalloc(4 * n * ps), *w32 = rt_xalloc(4 * n * ps);
  for (size_t i = 0; i < n * ps; i++) g32[i] = got[i], w32[i] = want[i];
  char what[160];
  snprintf(what, sizeof what, "%s %s %s (bytes)", kn[kind], order_name(f.o), type_name(f.t));
  rt_cmp_u32(rt, what, g32, w32, n * ps);
  RT_CHECK(rt, kcrt_image_free(img));
  RT_CHECK(rt, kcrt_buffer_free(dv));
}

/* Writes at coordinates outside the image: dropped (the image keeps its texels). */
static void outside(Rt *rt) {
  Fmt f = {KCRT_RGBA, KCRT_UNSIGNED_INT8};
  int w = rt_int(rt, 2, 12), h = rt_int(rt, 2, 6);
  size_t n = (size_t)w * h;
  unsigned char *data = rt_xalloc(4 * n), *got = rt_xalloc(4 * n);
  fill(rt, data, n, f, false);
  kcrt_image *img = make(rt, KCRT_IMAGE_2D, f, w, h, 0, 0, data);
  kcrt_arg args[] = {KCRT_ARG_VALUE(img)};
  rt_launch(rt, rt_kernel(rt, "oob"), KCRT_DIM3(w, h, 1), KCRT_DIM1(1), 0, args, 1);
  RT_CHECK(rt, kcrt_image_read(img, got));
  uint32_t *g32 = rt_xalloc(16 * n), *w32 = rt_xalloc(16 * n);
  for (size_t i = 0; i < 4 * n; i++) g32[i] = got[i], w32[i] = data[i];
  rt_cmp_u32(rt, "writes outside the image", g32, w32, 4 * n);
  RT_CHECK(rt, kcrt_image_free(img));
}

/* rw: a read_write image, each work-item reading and writing its texel. */
static void read_write(Rt *rt, Fmt f) {
  int w = rt_int(rt, 2, 13), h = rt_int(rt, 1, 6), ps = f_nch(f.o) * f_chb(f.t);
  size_t n = (size_t)w * h;
  unsigned char *data = rt_xalloc(n * ps), *got = rt_xalloc(n * ps), *want = rt_xalloc(n * ps);
  fill(rt, data, n, f, true);
  kcrt_image *img = make(rt, KCRT_IMAGE_2D, f, w, h, 0, 0, data);
  kcrt_arg args[] = {KCRT_ARG_VALUE(img)};
  rt_launch(rt, rt_kernel(rt, "rw"), KCRT_DIM3(w, h, 1), KCRT_DIM1(1), 0, args, 1);
  RT_CHECK(rt, kcrt_image_read(img, got));
  static const float add[4] = {0.25f, 0.125f, 0.0f, 0.5f};
  for (size_t i = 0; i < n; i++) {
    uint32_t c[4];
    ref_texel(data + i * ps, f.o, f.t, c);
    for (int k = 0; k < 4; k++) c[k] = rt_f32_bits(rt_f32_of_bits(c[k]) * 0.5f + add[k]);
    ref_write(c, false, f.o, f.t, want + i * ps);
  }
  uint32_t *g32 = rt_xalloc(4 * n * ps), *w32 = rt_xalloc(4 * n * ps);
  for (size_t i = 0; i < n * ps; i++) g32[i] = got[i], w32[i] = want[i];
  char what[160];
  snprintf(what, sizeof what, "read_write %s %s (bytes)", order_name(f.o), type_name(f.t));
  rt_cmp_u32(rt, what, g32, w32, n * ps);
  RT_CHECK(rt, kcrt_image_free(img));
}

/* copy*: every image type's layout with a texel of `bytes` (an unsigned format of that size,
 * read_imageui and write_imageui keep its bits). */
static void layouts(Rt *rt, int bytes) {
  Fmt f = bytes == 1   ? (Fmt){KCRT_R, KCRT_UNSIGNED_INT8}
          : bytes == 2 ? (Fmt){KCRT_RG, KCRT_UNSIGNED_INT8}
          : bytes == 4 ? (Fmt){KCRT_R, KCRT_UNSIGNED_INT32}
          : bytes == 8 ? (Fmt){KCRT_RGBA, KCRT_UNSIGNED_INT16}
                       : (Fmt){KCRT_RGBA, KCRT_UNSIGNED_INT32};
  int w = rt_int(rt, 2, 11), h = rt_int(rt, 2, 6), d = rt_int(rt, 2, 5), l = rt_int(rt, 2, 4);
  struct {
    const char *kernel;
    kcrt_image_type type;
    int h, d, l; /* extents given (0: none) */
    int q[5];    /* the queries the kernel reports */
    int nq;
  } cases[] = {
      {"copy3d", KCRT_IMAGE_3D, h, d, 0, {w, h, d, 0, d}, 5},
      {"copy2da", KCRT_IMAGE_2D_ARRAY, h, 0, l, {l, h}, 2},
      {"copy1da", KCRT_IMAGE_1D_ARRAY, 0, 0, l, {l, w}, 2},
      {"copy1d", KCRT_IMAGE_1D, 0, 0, 0, {w, w}, 2},
  };
  for (int c = 0; c < 4; c++) {
    int ch = cases[c].h ? cases[c].h : 1, cd = cases[c].d ? cases[c].d : 1,
        cl = cases[c].l ? cases[c].l : 1;
    size_t n = (size_t)w * ch * cd * cl, sz = n * bytes;
    unsigned char *a = rt_xalloc(sz), *b = rt_xalloc(sz);
    fill(rt, a, n, f, false);
    kcrt_image *ia = make(rt, cases[c].type, f, w, cases[c].h, cases[c].d, cases[c].l, a);
    kcrt_image *ib = make(rt, cases[c].type, f, w, cases[c].h, cases[c].d, cases[c].l, NULL);
    kcrt_image *ic = NULL, *id = NULL;
    kcrt_buffer *q = rt_alloc(rt, 64);
    kcrt_arg args[5] = {KCRT_ARG_VALUE(ia), KCRT_ARG_VALUE(ib), KCRT_ARG_BUFFER(q)};
    int na = 3;
    unsigned char *a2 = NULL;
    if (cases[c].type == KCRT_IMAGE_1D) { /* with a 1D buffer image of the same texels */
      a2 = rt_xalloc(sz);
      fill(rt, a2, n, f, false);
      ic = make(rt, KCRT_IMAGE_1D_BUFFER, f, w, 0, 0, 0, a2);
      id = make(rt, KCRT_IMAGE_1D_BUFFER, f, w, 0, 0, 0, NULL);
      args[2] = KCRT_ARG_VALUE(ic);
      args[3] = KCRT_ARG_VALUE(id);
      args[4] = KCRT_ARG_BUFFER(q);
      na = 5;
    }
    kcrt_dim3 grid = cases[c].type == KCRT_IMAGE_3D         ? KCRT_DIM3(w, ch, cd)
                     : cases[c].type == KCRT_IMAGE_2D_ARRAY ? KCRT_DIM3(w, ch, cl)
                     : cases[c].type == KCRT_IMAGE_1D_ARRAY ? KCRT_DIM3(w, cl, 1)
                                                            : KCRT_DIM1(w);
    rt_launch(rt, rt_kernel(rt, cases[c].kernel), grid, KCRT_DIM1(1), 0, args, (uint32_t)na);
    RT_CHECK(rt, kcrt_image_read(ib, b));
    uint32_t *g32 = rt_xalloc(4 * sz), *w32 = rt_xalloc(4 * sz);
    for (size_t i = 0; i < sz; i++) g32[i] = b[i], w32[i] = a[i];
    char what[100];
    snprintf(what, sizeof what, "%s, %d-byte texels", cases[c].kernel, bytes);
    rt_cmp_u32(rt, what, g32, w32, sz);
    if (id) {
      RT_CHECK(rt, kcrt_image_read(id, b));
      for (size_t i = 0; i < sz; i++) g32[i] = b[i], w32[i] = a2[i];
      snprintf(what, sizeof what, "copy1d (1D buffer), %d-byte texels", bytes);
      rt_cmp_u32(rt, what, g32, w32, sz);
    }
    int32_t gq[5];
    rt_download(rt, q, gq, sizeof(int32_t) * (size_t)cases[c].nq);
    snprintf(what, sizeof what, "%s queries", cases[c].kernel);
    rt_cmp_i32(rt, what, gq, cases[c].q, (size_t)cases[c].nq);
    RT_CHECK(rt, kcrt_image_free(ia));
    RT_CHECK(rt, kcrt_image_free(ib));
    RT_CHECK(rt, kcrt_image_free(ic));
    RT_CHECK(rt, kcrt_image_free(id));
    RT_CHECK(rt, kcrt_buffer_free(q));
  }
}

int main(int argc, char **argv) {
  Rt rt;
  rt_open(&rt, argc, argv, "images");
  RT_CHECK(&rt, kcrt_module_load_file(rt.dev, argv[1], &rt.mod));
  /* The formats OpenCL 1.2 allows (§5.3.1.1): every data type with R, A, RG, RA and RGBA;
   * 8-bit ones with BGRA and ARGB; normalized, half and float ones with INTENSITY and
   * LUMINANCE. */
  static const kcrt_channel_order all[] = {KCRT_R,    KCRT_A,         KCRT_RG,
                                           KCRT_RA,   KCRT_RGBA,      KCRT_BGRA,
                                           KCRT_ARGB, KCRT_INTENSITY, KCRT_LUMINANCE};
  int formats = 0;
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    for (int ti = KCRT_SNORM_INT8; ti <= KCRT_FLOAT; ti++) {
      if (ti > KCRT_UNORM_INT16 && ti < KCRT_SIGNED_INT8) continue; /* packed types: not kcrt's */
      kcrt_channel_type t = (kcrt_channel_type)ti;
      kcrt_channel_order o = all[i];
      if ((o == KCRT_BGRA || o == KCRT_ARGB) && f_chb(t) != 1) continue;
      if ((o == KCRT_INTENSITY || o == KCRT_LUMINANCE) && f_kind(t) != 0) continue;
      Fmt f = {o, t};
      reads(&rt, f);
      writes(&rt, f);
      if (f_kind(t) == 0) {
        sampled(&rt, f);
        read_write(&rt, f);
      }
      formats++;
    }
  outside(&rt);
  for (int b = 1; b <= 16; b *= 2) layouts(&rt, b);
  return rt_finish(&rt,
                   "%d formats: reads with and without a sampler, every sampler mode, writes, "
                   "read_write, writes outside, layouts of every image type and texel size",
                   formats);
}
