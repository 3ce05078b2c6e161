/* cuda_texobj.c — CUDA texture and surface objects through libkcrt (kcrt_texture_create,
 * kcrt_surface_create; issue 30) on any device, running tests/runtime/cuda_texobj.cu.
 *
 * Textures: every read family (tex1Dfetch, tex1D, tex2D, tex3D, tex1DLayered, tex2DLayered,
 * tex2DLod, tex3DLod) on random images of 16 formats (unorm8/16, half and float read as float;
 * unsigned 8/16/32-bit and signed 8/16/32-bit integers read as their type; 1, 2 and 4
 * channels), with every addressing mode, both filters (integers: nearest, as CUDA allows) and
 * normalized and unnormalized coordinates, at random coordinates; every component read is
 * checked against ref_read, a host reference of CUDA's texture fetching (CUDA Programming
 * Guide, "Texture Fetching": nearest picks texel floor(x); linear blends texels floor(x - 0.5)
 * and the next by the fraction of x - 0.5; clamp, border (zeros), wrap and mirror; 8- and
 * 16-bit normalized reads c / 255 and c / 65535). Where kcc samples in software (the Vulkan
 * form) every result is exact: ref_read computes the same float operations in the same order.
 * The OpenCL forms use the device's images (PoCL here): nearest reads exact, linear ones within
 * 1e-5 of the data's scale; CUDA's texture units filter with 9-bit weights (8 fractional
 * bits) from a coordinate of limited precision too, so a GPU gets 2^-7 of the scale per
 * dimension (NVIDIA's OpenCL, H200: 0.0165 on 2D float data of scale 2, normalized coordinates
 * with wrap, more than the weights' 2^-8 alone allow). Nearest-filtered coordinates stay a tenth of
 * a texel from texel edges, where hardware may round the coordinate either way.
 *
 * Surfaces: surf{1D,2D,3D,1DLayered,2DLayered}write and surf{2D,3D,2DLayered}read on seven
 * texel types (float, float4, uchar4, ushort2, uint, int2, __half), bit for bit against the
 * image's bytes; a read-modify-write of one surface; a texture read into a surface in one
 * kernel. And the refusals: the read mode a channel type does not have, linear filtering of
 * integers, repeat without normalized coordinates, a surface of normalized channels, an image
 * of another type than the kernel reads. */
#include "rt_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { NCOORD = 48 };

typedef struct Fmt {
  kcrt_channel_order order;
  kcrt_channel_type type;
  int nch;           /* channels */
  int chb;           /* bytes per channel */
  const char *tname; /* the kernel suffix: the texel type read */
  int tcomp;         /* components of that type */
  char kind;         /* 'f': read as float, 'u' / 'i': unsigned / signed integers */
} Fmt;

static const Fmt fmts[] = {
    {KCRT_R, KCRT_UNORM_INT8, 1, 1, "float", 1, 'f'},
    {KCRT_RGBA, KCRT_UNORM_INT8, 4, 1, "float4", 4, 'f'},
    {KCRT_RG, KCRT_UNORM_INT16, 2, 2, "float2", 2, 'f'},
    {KCRT_R, KCRT_HALF_FLOAT, 1, 2, "float", 1, 'f'},
    {KCRT_RGBA, KCRT_HALF_FLOAT, 4, 2, "float4", 4, 'f'},
    {KCRT_R, KCRT_FLOAT, 1, 4, "float", 1, 'f'},
    {KCRT_RG, KCRT_FLOAT, 2, 4, "float2", 2, 'f'},
    {KCRT_RGBA, KCRT_FLOAT, 4, 4, "float4", 4, 'f'},
    {KCRT_R, KCRT_UNSIGNED_INT8, 1, 1, "uchar", 1, 'u'},
    {KCRT_RGBA, KCRT_UNSIGNED_INT8, 4, 1, "uchar4", 4, 'u'},
    {KCRT_RG, KCRT_UNSIGNED_INT16, 2, 2, "ushort2", 2, 'u'},
    {KCRT_R, KCRT_UNSIGNED_INT32, 1, 4, "uint", 1, 'u'},
    {KCRT_RGBA, KCRT_UNSIGNED_INT32, 4, 4, "uint4", 4, 'u'},
    {KCRT_RGBA, KCRT_SIGNED_INT8, 4, 1, "char4", 4, 'i'},
    {KCRT_R, KCRT_SIGNED_INT16, 1, 2, "short", 1, 'i'},
    {KCRT_RG, KCRT_SIGNED_INT32, 2, 4, "int2", 2, 'i'},
};

/* The read families: kernel prefix, image type, spatial dimensions, layered. */
typedef struct Fam {
  const char *name, *call;
  kcrt_image_type type;
  int dims;
  bool layered;
} Fam;
static const Fam fams[] = {
    {"fetch", "tex1Dfetch", KCRT_IMAGE_1D_BUFFER, 1, false},
    {"t1", "tex1D", KCRT_IMAGE_1D, 1, false},
    {"t2", "tex2D", KCRT_IMAGE_2D, 2, false},
    {"t3", "tex3D", KCRT_IMAGE_3D, 3, false},
    {"l1", "tex1DLayered", KCRT_IMAGE_1D_ARRAY, 1, true},
    {"l2", "tex2DLayered", KCRT_IMAGE_2D_ARRAY, 2, true},
    {"lod2", "tex2DLod", KCRT_IMAGE_2D, 2, false},
    {"lod3", "tex3DLod", KCRT_IMAGE_3D, 3, false},
};

typedef struct Img {
  const Fmt *f;
  int size[3], layers; /* absent extents 1 */
  unsigned char *data;
} Img;

static bool vulkan, pocl, cuda_dev;
static int skipped, unsupported, pocl_half;

/* An image of desc d, or NULL where an OpenCL device lacks the format (OpenCL 1.2 requires
 * only RGBA and BGRA: PoCL has no RG images). */
static kcrt_image *image(Rt *rt, const kcrt_image_desc *d) {
  kcrt_image *img = NULL;
  /* PoCL reads and writes one-channel half images wrongly (docs/driver-bugs.md 16). */
  if (pocl && d->order == KCRT_R && d->data_type == KCRT_HALF_FLOAT) {
    pocl_half++;
    return NULL;
  }
  kcrt_status st = kcrt_image_create(rt->dev, d, &img);
  if (st != KCRT_SUCCESS && rt->info.backend == KCRT_BACKEND_OPENCL && d->order != KCRT_RGBA &&
      d->order != KCRT_R) {
    unsupported++;
    return NULL;
  }
  RT_CHECK(rt, st);
  return img;
}

/* ---------------------------------------------------------------- the host reference */

/* Channel c of texel n's bits. */
static uint32_t bits_of(const Img *m, size_t n, int c) {
  const unsigned char *p = m->data + (n * (size_t)m->f->nch + (size_t)c) * (size_t)m->f->chb;
  uint32_t v = 0;
  memcpy(&v, p, (size_t)m->f->chb);
  return v;
}

/* A channel as a float read gives it (normalized reads c / 255 and c / 65535). */
static float chan_f(const Img *m, uint32_t v) {
  switch (m->f->type) {
  case KCRT_UNORM_INT8: return (float)v / 255.0f;
  case KCRT_UNORM_INT16: return (float)v / 65535.0f;
  case KCRT_HALF_FLOAT: return rt_f16_value((uint16_t)v);
  default: return rt_f32_of_bits(v);
  }
}

static int64_t chan_i(const Img *m, uint32_t v) {
  switch (m->f->type) {
  case KCRT_SIGNED_INT8: return (int8_t)v;
  case KCRT_SIGNED_INT16: return (int16_t)v;
  case KCRT_SIGNED_INT32: return (int32_t)v;
  default: return v;
  }
}

/* The texel at ijk of layer l; outside the image: zeros (cudaAddressModeBorder). */
static void texel(const Img *m, const int ijk[3], int l, float f[4], int64_t i[4]) {
  for (int c = 0; c < 4; c++) f[c] = 0, i[c] = 0;
  for (int a = 0; a < 3; a++)
    if (ijk[a] < 0 || ijk[a] >= m->size[a]) return;
  size_t n =
      (((size_t)l * (size_t)m->size[2] + (size_t)ijk[2]) * (size_t)m->size[1] + (size_t)ijk[1]) *
          (size_t)m->size[0] +
      (size_t)ijk[0];
  for (int c = 0; c < m->f->nch; c++) {
    uint32_t v = bits_of(m, n, c);
    f[c] = chan_f(m, v);
    i[c] = chan_i(m, v);
  }
}

typedef struct Smp {
  kcrt_addressing addr;
  kcrt_filter filter;
  bool norm;
} Smp;

/* The coordinate in texels: wrap and mirror act on normalized coordinates. */
static float texels(float s, int n, const Smp *p) {
  if (p->addr == KCRT_ADDRESS_REPEAT) return (s - floorf(s)) * (float)n;
  if (p->addr == KCRT_ADDRESS_MIRRORED_REPEAT) return fabsf(s - 2.0f * rintf(0.5f * s)) * (float)n;
  return p->norm ? s * (float)n : s;
}

static int nearest(float u, int n, const Smp *p) {
  int i = (int)floorf(u);
  if (p->addr == KCRT_ADDRESS_REPEAT) return i > n - 1 ? i - n : i;
  if (p->addr != KCRT_ADDRESS_CLAMP) i = i > n - 1 ? n - 1 : i < 0 ? 0 : i;
  return i;
}

static void linear(float u, int n, const Smp *p, int *i0, int *i1, float *a) {
  float v = u - 0.5f;
  *i0 = (int)floorf(v);
  *i1 = *i0 + 1;
  if (p->addr == KCRT_ADDRESS_REPEAT) {
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
  } else if (p->addr != KCRT_ADDRESS_CLAMP) {
    *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
    *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
  }
  *a = v - floorf(v);
}

/* The read at c = (x, y, z, layer): floats in f (the operations in kcc's order, image_lib.c),
 * integers in i. */
static void ref_read(const Img *m, const Fam *fam, const Smp *p, const float c[4], float f[4],
                     int64_t i[4]) {
  int l = fam->layered ? (int)c[3] : 0;
  if (p->filter == KCRT_FILTER_NEAREST) {
    int ijk[3] = {0, 0, 0};
    for (int a = 0; a < fam->dims; a++)
      ijk[a] = nearest(texels(c[a], m->size[a], p), m->size[a], p);
    texel(m, ijk, l, f, i);
    return;
  }
  int i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
  float w[3] = {0, 0, 0};
  for (int a = 0; a < fam->dims; a++)
    linear(texels(c[a], m->size[a], p), m->size[a], p, &i0[a], &i1[a], &w[a]);
  float t[8][4];
  int64_t unused[4];
  for (int k = 0; k < 1 << fam->dims; k++) {
    int ijk[3] = {k & 1 ? i1[0] : i0[0], k & 2 ? i1[1] : i0[1], k & 4 ? i1[2] : i0[2]};
    texel(m, ijk, l, t[k], unused);
  }
  float a = w[0], b = w[1], g = w[2];
  for (int ch = 0; ch < 4; ch++) {
    if (fam->dims == 1)
      f[ch] = (1.0f - a) * t[0][ch] + a * t[1][ch];
    else if (fam->dims == 2)
      f[ch] = (1.0f - a) * (1.0f - b) * t[0][ch] + a * (1.0f - b) * t[1][ch] +
              (1.0f - a) * b * t[2][ch] + a * b * t[3][ch];
    else
      f[ch] = (1.0f - a) * (1.0f - b) * (1.0f - g) * t[0][ch] +
              a * (1.0f - b) * (1.0f - g) * t[1][ch] + (1.0f - a) * b * (1.0f - g) * t[2][ch] +
              a * b * (1.0f - g) * t[3][ch] + (1.0f - a) * (1.0f - b) * g * t[4][ch] +
              a * (1.0f - b) * g * t[5][ch] + (1.0f - a) * b * g * t[6][ch] + a * b * g * t[7][ch];
    i[ch] = 0;
  }
}

/* ---------------------------------------------------------------- textures */

/* Random texels: any bits for integers and normalized channels; halves and floats of moderate
 * size (no infinities or NaNs, which filtering would spread). */
static void fill(Rt *rt, Img *m) {
  size_t n = (size_t)m->size[0] * (size_t)m->size[1] * (size_t)m->size[2] * (size_t)m->layers *
             (size_t)m->f->nch;
  m->data = rt_xalloc(n * (size_t)m->f->chb);
  for (size_t k = 0; k < n; k++) {
    uint32_t v = rt_u32(rt);
    if (m->f->type == KCRT_HALF_FLOAT) v = rt_f16_of_float(rt_float(rt, -4.0f, 4.0f), 0);
    if (m->f->type == KCRT_FLOAT) v = rt_f32_bits(rt_float(rt, -2.0f, 2.0f));
    memcpy(m->data + k * (size_t)m->f->chb, &v, (size_t)m->f->chb);
  }
}

/* A coordinate on an axis of n texels: nearest filtering keeps a tenth of a texel from texel
 * edges; the range reaches past the image (and over several periods for wrap and mirror). */
static float coord(Rt *rt, int n, const Smp *p) {
  bool periodic = p->addr == KCRT_ADDRESS_REPEAT || p->addr == KCRT_ADDRESS_MIRRORED_REPEAT;
  int lo = periodic ? -2 * n : -2, hi = periodic ? 3 * n - 1 : n + 1;
  float u = p->filter == KCRT_FILTER_NEAREST ? (float)rt_int(rt, lo, hi) + rt_float(rt, 0.1f, 0.9f)
                                             : rt_float(rt, (float)lo, (float)hi + 1.0f);
  return p->norm ? u / (float)n : u;
}

static double scale_of(const Fmt *f) {
  return f->type == KCRT_HALF_FLOAT ? 4.0 : f->type == KCRT_FLOAT ? 2.0 : 1.0;
}

/* One launch of family fam's kernel for format f with sampler p on image m; returns whether
 * every component matched. */
static bool read_case(Rt *rt, const Fmt *f, const Fam *fam, const Smp *p, Img *m, kcrt_image *img) {
  kcrt_texture_desc d = {p->addr, p->filter, p->norm,
                         f->kind == 'f' &&
                                 (f->type == KCRT_UNORM_INT8 || f->type == KCRT_UNORM_INT16)
                             ? KCRT_READ_NORMALIZED_FLOAT
                             : KCRT_READ_ELEMENT_TYPE};
  kcrt_texture *tex;
  RT_CHECK(rt, kcrt_texture_create(rt->dev, img, &d, &tex));
  bool fetch = fam->type == KCRT_IMAGE_1D_BUFFER;
  float c[NCOORD][4];
  int ic[NCOORD];
  for (int k = 0; k < NCOORD; k++) {
    for (int a = 0; a < 3; a++) c[k][a] = a < fam->dims ? coord(rt, m->size[a], p) : 0.0f;
    c[k][3] = fam->layered ? (float)rt_int(rt, 0, m->layers - 1)
                           : (float)rt_int(rt, 0, 3); /* a level of detail */
    ic[k] = rt_int(rt, 0, m->size[0] - 1);
    if (fetch) c[k][0] = (float)ic[k];
  }
  size_t esz = (size_t)f->tcomp * (size_t)f->chb;
  if (f->kind == 'f') esz = (size_t)f->tcomp * 4;
  kcrt_buffer *cb = fetch ? rt_upload(rt, ic, sizeof ic) : rt_upload(rt, c, sizeof c);
  kcrt_buffer *ob = rt_alloc(rt, esz * NCOORD);
  char name[64];
  snprintf(name, sizeof name, "%s_%s", fam->name, f->tname);
  int n = NCOORD;
  kcrt_arg args[] = {KCRT_ARG_VALUE(tex), KCRT_ARG_BUFFER(cb), KCRT_ARG_BUFFER(ob),
                     KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, name), KCRT_DIM1(1), KCRT_DIM1(NCOORD), 0, args, 4);
  unsigned char got[NCOORD * 16];
  rt_download(rt, ob, got, esz * NCOORD);
  kcrt_buffer_free(cb);
  kcrt_buffer_free(ob);
  RT_CHECK(rt, kcrt_texture_free(tex));
  /* Exact where kcc samples (Vulkan); the driver's own filtering elsewhere. */
  double tol = 0;
  if (p->filter == KCRT_FILTER_LINEAR && !vulkan)
    tol = scale_of(f) * (pocl ? 1e-5 : fam->dims / 128.0);
  /* A driver may scale a normalized channel by the reciprocal (PoCL: c * (1 / 255.0f)). */
  bool normalized = f->type == KCRT_UNORM_INT8 || f->type == KCRT_UNORM_INT16;
  if (normalized && !vulkan && !tol) tol = 1e-6;
  for (int k = 0; k < NCOORD; k++) {
    float want[4];
    int64_t wi[4];
    ref_read(m, fam, p, c[k], want, wi);
    /* NVIDIA's texture units filter a 1D texture with border addressing as a row of a 2D one
     * read at y = 0, half of it from the border's zeros: CUDA's own result, which kcc's PTX
     * gives (docs/driver-bugs.md 28). */
    if (cuda_dev && fam->type == KCRT_IMAGE_1D && p->addr == KCRT_ADDRESS_CLAMP &&
        p->filter == KCRT_FILTER_LINEAR)
      for (int ch = 0; ch < 4; ch++) want[ch] *= 0.5f;
    for (int ch = 0; ch < f->tcomp; ch++) {
      bool ok;
      double g = 0, w = 0;
      if (f->kind == 'f') {
        float x;
        memcpy(&x, got + (size_t)k * esz + (size_t)ch * 4, 4);
        g = x, w = want[ch];
        ok = tol ? fabs(g - w) <= tol : rt_same_f32(x, want[ch]);
      } else {
        uint32_t v = 0;
        memcpy(&v, got + (size_t)k * esz + (size_t)ch * (size_t)f->chb, (size_t)f->chb);
        int64_t x = f->kind == 'i' ? chan_i(m, v) : (int64_t)v;
        int64_t wv = wi[ch];
        /* The texel type's own width: a 32-bit unsigned channel read as uint. */
        if (f->kind == 'u' && f->chb < 4) wv &= (1LL << (8 * f->chb)) - 1;
        g = (double)x, w = (double)wv;
        ok = x == wv;
      }
      if (!ok) {
        rt_fail(rt,
                "%s<%s> on %d-channel type 0x%x (%dx%dx%d, %d layers), %s, %s, %s: "
                "coordinate %d (%.9g, %.9g, %.9g, %.9g) component %d: got %.9g, want %.9g",
                fam->call, f->tname, f->nch, (unsigned)f->type, m->size[0], m->size[1], m->size[2],
                m->layers, p->norm ? "normalized" : "unnormalized",
                p->filter == KCRT_FILTER_LINEAR ? "linear" : "nearest",
                p->addr == KCRT_ADDRESS_CLAMP_TO_EDGE ? "clamp"
                : p->addr == KCRT_ADDRESS_CLAMP       ? "border"
                : p->addr == KCRT_ADDRESS_REPEAT      ? "wrap"
                                                      : "mirror",
                k, c[k][0], c[k][1], c[k][2], c[k][3], ch, g, w);
        return false;
      }
    }
  }
  return true;
}

static int textures(Rt *rt) {
  static const kcrt_addressing modes[] = {KCRT_ADDRESS_CLAMP_TO_EDGE, KCRT_ADDRESS_CLAMP,
                                          KCRT_ADDRESS_REPEAT, KCRT_ADDRESS_MIRRORED_REPEAT};
  int launches = 0;
  for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++) {
    const Fmt *f = &fmts[fi];
    for (size_t ai = 0; ai < sizeof fams / sizeof fams[0]; ai++) {
      const Fam *fam = &fams[ai];
      bool fetch = fam->type == KCRT_IMAGE_1D_BUFFER;
      Img m = {f, {1, 1, 1}, 1, NULL};
      m.size[0] = fetch ? rt_int(rt, 20, 200) : rt_int(rt, 2, fam->dims == 1 ? 17 : 9);
      if (fam->dims > 1) m.size[1] = rt_int(rt, 2, 8);
      if (fam->dims > 2) m.size[2] = rt_int(rt, 2, 5);
      if (fam->layered) m.layers = rt_int(rt, 2, 4);
      fill(rt, &m);
      kcrt_image_desc d = {fam->type,
                           f->order,
                           f->type,
                           (size_t)m.size[0],
                           fam->dims > 1 ? (size_t)m.size[1] : 0,
                           fam->dims > 2 ? (size_t)m.size[2] : 0,
                           fam->layered ? (size_t)m.layers : 0};
      kcrt_image *img = image(rt, &d);
      if (!img) continue;
      RT_CHECK(rt, kcrt_image_write(img, m.data));
      for (int norm = 0; norm < 2; norm++)
        for (int mi = 0; mi < 4; mi++)
          for (int lin = 0; lin < 2; lin++) {
            Smp p = {modes[mi], lin ? KCRT_FILTER_LINEAR : KCRT_FILTER_NEAREST, norm != 0};
            if (!norm && mi >= 2) continue;             /* wrap and mirror: normalized only */
            if (lin && f->kind != 'f') continue;        /* integers: nearest only */
            if (fetch && (norm || mi || lin)) continue; /* integer indices, no sampling */
            /* PoCL scales a layered image's layer coordinate with normalized coordinates
             * (docs/driver-bugs.md 16): the layer of a CUDA layered read is an index. */
            if (pocl && fam->layered && norm) {
              skipped++;
              continue;
            }
            launches++;
            if (!read_case(rt, f, fam, &p, &m, img)) goto next;
          }
    next:
      RT_CHECK(rt, kcrt_image_free(img));
    }
  }
  return launches;
}

/* ---------------------------------------------------------------- surfaces */

typedef struct SFmt {
  kcrt_channel_order order;
  kcrt_channel_type type;
  int bytes; /* of a texel */
  const char *tname;
} SFmt;
static const SFmt sfmts[] = {
    {KCRT_R, KCRT_FLOAT, 4, "float"},
    {KCRT_RGBA, KCRT_FLOAT, 16, "float4"},
    {KCRT_RGBA, KCRT_UNSIGNED_INT8, 4, "uchar4"},
    {KCRT_RG, KCRT_UNSIGNED_INT16, 4, "ushort2"},
    {KCRT_R, KCRT_UNSIGNED_INT32, 4, "uint"},
    {KCRT_RG, KCRT_SIGNED_INT32, 8, "int2"},
    {KCRT_R, KCRT_HALF_FLOAT, 2, "half"},
};

typedef struct SFam {
  const char *name;
  kcrt_image_type type;
  bool write;
} SFam;
static const SFam sfams[] = {
    {"sw1", KCRT_IMAGE_1D, true},        {"sw2", KCRT_IMAGE_2D, true},
    {"sw3", KCRT_IMAGE_3D, true},        {"swl1", KCRT_IMAGE_1D_ARRAY, true},
    {"swl2", KCRT_IMAGE_2D_ARRAY, true}, {"sr2", KCRT_IMAGE_2D, false},
    {"sr3", KCRT_IMAGE_3D, false},       {"srl2", KCRT_IMAGE_2D_ARRAY, false},
};

/* Random texels a surface moves unchanged on every form: finite floats and halves (a NaN's
 * payload may change in a conversion), any integer bits. */
static void surf_fill(Rt *rt, const SFmt *f, unsigned char *p, size_t texels) {
  int nch = f->order == KCRT_R ? 1 : f->order == KCRT_RG ? 2 : 4, chb = f->bytes / nch;
  for (size_t k = 0; k < texels * (size_t)nch; k++) {
    uint32_t v = rt_u32(rt);
    if (f->type == KCRT_FLOAT) v = rt_f32_bits(rt_float(rt, -1e6f, 1e6f));
    if (f->type == KCRT_HALF_FLOAT) v = rt_f16_of_float(rt_float(rt, -1000.0f, 1000.0f), 0);
    memcpy(p + k * (size_t)chb, &v, (size_t)chb);
  }
}

static int surfaces(Rt *rt) {
  int launches = 0;
  for (size_t fi = 0; fi < sizeof sfmts / sizeof sfmts[0]; fi++) {
    const SFmt *f = &sfmts[fi];
    for (size_t ai = 0; ai < sizeof sfams / sizeof sfams[0]; ai++) {
      const SFam *fam = &sfams[ai];
      kcrt_image_type t = fam->type;
      /* cuda_texobj.cu writes 3D and 2D-array surfaces of float types only (PoCL's SPIR-V
       * library lacks the integer writes). */
      if (f->type != KCRT_FLOAT && f->type != KCRT_HALF_FLOAT && fam->write &&
          (t == KCRT_IMAGE_3D || t == KCRT_IMAGE_2D_ARRAY))
        continue;
      int w = rt_int(rt, 1, 150), h = 1, dp = 1, l = 1;
      if (t == KCRT_IMAGE_2D || t == KCRT_IMAGE_3D || t == KCRT_IMAGE_2D_ARRAY)
        h = rt_int(rt, 1, 9);
      if (t == KCRT_IMAGE_3D) dp = rt_int(rt, 1, 5);
      if (t == KCRT_IMAGE_1D_ARRAY || t == KCRT_IMAGE_2D_ARRAY) l = rt_int(rt, 1, 4);
      kcrt_image_desc d = {
          t,
          f->order,
          f->type,
          (size_t)w,
          h > 1 || t == KCRT_IMAGE_2D || t == KCRT_IMAGE_3D || t == KCRT_IMAGE_2D_ARRAY ? (size_t)h
                                                                                        : 0,
          t == KCRT_IMAGE_3D ? (size_t)dp : 0,
          l > 1 || t == KCRT_IMAGE_1D_ARRAY || t == KCRT_IMAGE_2D_ARRAY ? (size_t)l : 0};
      size_t texels = (size_t)w * (size_t)h * (size_t)dp * (size_t)l,
             bytes = texels * (size_t)f->bytes;
      unsigned char *want = rt_xalloc(bytes), *got = rt_xalloc(bytes);
      surf_fill(rt, f, want, texels);
      kcrt_image *img = image(rt, &d);
      kcrt_surface *s;
      if (!img) continue;
      RT_CHECK(rt, kcrt_surface_create(rt->dev, img, &s));
      kcrt_buffer *b = fam->write ? rt_upload(rt, want, bytes) : rt_alloc(rt, bytes);
      if (!fam->write) RT_CHECK(rt, kcrt_image_write(img, want));
      /* (s, v, w[, h[, d]]): the grid's y and z are rows and slices or layers. */
      int nargs = t == KCRT_IMAGE_1D || t == KCRT_IMAGE_1D_ARRAY ? 3 : t == KCRT_IMAGE_3D ? 5 : 4;
      kcrt_arg args[] = {KCRT_ARG_VALUE(s), KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(w),
                         KCRT_ARG_VALUE(h), KCRT_ARG_VALUE(dp)};
      uint64_t gy = t == KCRT_IMAGE_1D_ARRAY ? (uint64_t)l : (uint64_t)h,
               gz = t == KCRT_IMAGE_2D_ARRAY ? (uint64_t)l : (uint64_t)dp;
      char name[64];
      snprintf(name, sizeof name, "%s_%s", fam->name, f->tname);
      rt_launch(rt, rt_kernel(rt, name), (kcrt_dim3){rt_ceil_div((uint64_t)w, 64), gy, gz},
                KCRT_DIM1(64), 0, args, nargs);
      if (fam->write)
        RT_CHECK(rt, kcrt_image_read(img, got));
      else
        rt_download(rt, b, got, bytes);
      for (size_t k = 0; k < texels; k++)
        if (memcmp(got + k * (size_t)f->bytes, want + k * (size_t)f->bytes, (size_t)f->bytes)) {
          uint32_t g = 0, x = 0;
          memcpy(&g, got + k * (size_t)f->bytes, f->bytes < 4 ? (size_t)f->bytes : 4);
          memcpy(&x, want + k * (size_t)f->bytes, f->bytes < 4 ? (size_t)f->bytes : 4);
          rt_fail(rt, "%s (%s, %dx%dx%d, %d layers): texel %zu: first word 0x%x, want 0x%x", name,
                  fam->write ? "written" : "read", w, h, dp, l, k, g, x);
          break;
        }
      kcrt_buffer_free(b);
      RT_CHECK(rt, kcrt_surface_free(s));
      RT_CHECK(rt, kcrt_image_free(img));
      launches++;
    }
  }
  return launches;
}

/* One surface read and written (rmw2), and a texture read into a surface (tex_to_surf). */
static void both(Rt *rt) {
  int w = rt_int(rt, 1, 100), h = rt_int(rt, 1, 6);
  size_t n = (size_t)w * (size_t)h;
  uint32_t *v = rt_xalloc(n * 4), *got = rt_xalloc(n * 4), *want = rt_xalloc(n * 4);
  float *a = rt_xalloc(n * 4), *fg = rt_xalloc(n * 4), *fw = rt_xalloc(n * 4);
  for (size_t k = 0; k < n; k++) {
    v[k] = rt_u32(rt);
    want[k] = v[k] * 3u + (uint32_t)(k / (size_t)w);
    a[k] = rt_float(rt, -100.0f, 100.0f);
    fw[k] = 2.0f * a[k];
  }
  kcrt_image_desc d = {KCRT_IMAGE_2D, KCRT_R, KCRT_UNSIGNED_INT32, (size_t)w, (size_t)h, 0, 0};
  kcrt_image *img, *ia, *ib;
  kcrt_surface *s, *sb;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &img));
  RT_CHECK(rt, kcrt_image_write(img, v));
  RT_CHECK(rt, kcrt_surface_create(rt->dev, img, &s));
  kcrt_arg args[] = {KCRT_ARG_VALUE(s), KCRT_ARG_VALUE(w)};
  rt_launch(rt, rt_kernel(rt, "rmw2"), (kcrt_dim3){rt_ceil_div((uint64_t)w, 64), (uint64_t)h, 1},
            KCRT_DIM1(64), 0, args, 2);
  RT_CHECK(rt, kcrt_image_read(img, got));
  rt_cmp_u32(rt, "rmw2: surf2Dread then surf2Dwrite of one surface", got, want, n);

  d.data_type = KCRT_FLOAT;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &ia));
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &ib));
  RT_CHECK(rt, kcrt_image_write(ia, a));
  kcrt_texture_desc td = {KCRT_ADDRESS_CLAMP_TO_EDGE, KCRT_FILTER_NEAREST, 0,
                          KCRT_READ_ELEMENT_TYPE};
  kcrt_texture *t;
  RT_CHECK(rt, kcrt_texture_create(rt->dev, ia, &td, &t));
  RT_CHECK(rt, kcrt_surface_create(rt->dev, ib, &sb));
  kcrt_arg args2[] = {KCRT_ARG_VALUE(t), KCRT_ARG_VALUE(sb), KCRT_ARG_VALUE(w), KCRT_ARG_VALUE(h)};
  rt_launch(rt, rt_kernel(rt, "tex_to_surf"),
            (kcrt_dim3){rt_ceil_div((uint64_t)w, 64), (uint64_t)h, 1}, KCRT_DIM1(64), 0, args2, 4);
  RT_CHECK(rt, kcrt_image_read(ib, fg));
  rt_cmp_f32(rt, "tex_to_surf: 2 * tex2D into surf2Dwrite", fg, fw, n, 0, 0);
  RT_CHECK(rt, kcrt_texture_free(t));
  RT_CHECK(rt, kcrt_surface_free(s));
  RT_CHECK(rt, kcrt_surface_free(sb));
  RT_CHECK(rt, kcrt_image_free(img));
  RT_CHECK(rt, kcrt_image_free(ia));
  RT_CHECK(rt, kcrt_image_free(ib));
}

/* ---------------------------------------------------------------- refusals */

static void expect_msg(Rt *rt, const char *what, const char *want) {
  if (!strstr(kcrt_last_error(), want))
    rt_fail(rt, "%s: message '%s' lacks '%s'", what, kcrt_last_error(), want);
}

static void refusals(Rt *rt) {
  kcrt_image_desc d = {KCRT_IMAGE_2D, KCRT_R, KCRT_UNORM_INT8, 4, 4, 0, 0};
  kcrt_image *un, *ui, *bgra;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &un));
  d.data_type = KCRT_UNSIGNED_INT8;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &ui));
  d.order = KCRT_BGRA;
  d.data_type = KCRT_UNORM_INT8;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &bgra));
  kcrt_texture *t = NULL;
  kcrt_surface *s = NULL;
  kcrt_texture_desc td = {KCRT_ADDRESS_CLAMP, KCRT_FILTER_NEAREST, 0, KCRT_READ_ELEMENT_TYPE};
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_texture_create(rt->dev, un, &td, &t));
  expect_msg(rt, "element-type read of unorm",
             "kcrt_texture_create: read mode KCRT_READ_ELEMENT_TYPE does not fit the image's "
             "channel type 0x10d2");
  td.read_mode = KCRT_READ_NORMALIZED_FLOAT;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_texture_create(rt->dev, ui, &td, &t));
  expect_msg(rt, "normalized read of uint8", "read mode KCRT_READ_NORMALIZED_FLOAT does not fit");
  td.read_mode = KCRT_READ_ELEMENT_TYPE;
  td.filter = KCRT_FILTER_LINEAR;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_texture_create(rt->dev, ui, &td, &t));
  expect_msg(rt, "linear integers", "kcrt_texture_create: linear filtering of integer channels");
  td.filter = KCRT_FILTER_NEAREST;
  td.addressing = KCRT_ADDRESS_REPEAT;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_texture_create(rt->dev, ui, &td, &t));
  expect_msg(rt, "unnormalized wrap", "repeat addressing needs normalized coordinates");
  td.addressing = KCRT_ADDRESS_CLAMP;
  td.read_mode = KCRT_READ_NORMALIZED_FLOAT;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_texture_create(rt->dev, bgra, &td, &t));
  expect_msg(rt, "BGRA", "the image's channel order 0x10b6 is not one a CUDA texel has");
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_surface_create(rt->dev, un, &s));
  expect_msg(rt, "unorm surface", "kcrt_surface_create: a surface of UNORM or SNORM channels");
  if (t || s) rt_fail(rt, "a refused create set its result");

  /* A texture over a 2D image for a kernel that reads a 3D one; a surface for a texture. */
  td.read_mode = KCRT_READ_ELEMENT_TYPE;
  RT_CHECK(rt, kcrt_texture_create(rt->dev, ui, &td, &t));
  RT_CHECK(rt, kcrt_surface_create(rt->dev, ui, &s));
  kcrt_buffer *b = rt_alloc(rt, 64);
  int n = 1;
  kcrt_arg args[] = {KCRT_ARG_VALUE(t), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(n)};
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT,
            kcrt_launch(rt_kernel(rt, "t3_uchar"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 4));
  expect_msg(rt, "3D kernel, 2D image",
             "kernel 't3_uchar' argument 1 (cudaTextureObject_t t): the kernel reads it as an "
             "image3d_t, and the texture's image is an image2d_t");
  args[0] = KCRT_ARG_VALUE(s);
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT,
            kcrt_launch(rt_kernel(rt, "t2_uchar"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 4));
  expect_msg(rt, "surface for a texture",
             "kernel 't2_uchar' argument 1 (cudaTextureObject_t t) is a texture object: pass a "
             "live kcrt_texture * of this device by value");
  kcrt_param_info pi;
  RT_CHECK(rt, kcrt_kernel_param_info(rt_kernel(rt, "t2_uchar"), 0, &pi));
  if (pi.kind != KCRT_PARAM_TEXTURE || strcmp(pi.type, "cudaTextureObject_t"))
    rt_fail(rt, "t2_uchar's parameter 0: kind %d, type '%s'", (int)pi.kind, pi.type);
  RT_CHECK(rt, kcrt_kernel_param_info(rt_kernel(rt, "sw2_uint"), 0, &pi));
  if (pi.kind != KCRT_PARAM_SURFACE || strcmp(pi.type, "cudaSurfaceObject_t"))
    rt_fail(rt, "sw2_uint's parameter 0: kind %d, type '%s'", (int)pi.kind, pi.type);
  kcrt_kernel_info ki;
  RT_CHECK(rt, kcrt_kernel_get_info(rt_kernel(rt, "t2_uchar"), &ki));
  if (ki.num_params != 4) rt_fail(rt, "t2_uchar has %d parameters, not 4", ki.num_params);
  kcrt_buffer_free(b);
  RT_CHECK(rt, kcrt_texture_free(t));
  RT_CHECK(rt, kcrt_surface_free(s));
  RT_CHECK(rt, kcrt_image_free(un));
  RT_CHECK(rt, kcrt_image_free(ui));
  RT_CHECK(rt, kcrt_image_free(bgra));
}

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "cuda_texobj");
  vulkan = rt.info.backend == KCRT_BACKEND_VULKAN;
  cuda_dev = rt.info.backend == KCRT_BACKEND_CUDA;
  pocl = strstr(rt.info.platform, "Portable Computing Language") != NULL;
  refusals(&rt);
  int nt = textures(&rt), ns = surfaces(&rt);
  both(&rt);
  return rt_finish(&rt,
                   "%d texture reads of %d coordinates (%s linear filtering), %d surface "
                   "launches, a read-modify-write surface, a texture into a surface%s%s%s",
                   nt, NCOORD,
                   vulkan ? "exact"
                   : pocl ? "1e-5"
                          : "2^-7 per dimension",
                   ns, skipped ? "; normalized layered reads skipped on PoCL (driver-bugs 16)" : "",
                   unsupported ? "; RG images skipped (the device has none)" : "",
                   pocl_half ? "; one-channel half images skipped on PoCL (driver-bugs 16)" : "");
}
