/* cl_images.c — runs tests/runtime/cl_images.cl (OpenCL C images and samplers) through libkcrt:
 * images of random sizes and random contents, random coordinates, every addressing mode (none,
 * clamp-to-edge, clamp, repeat, mirrored repeat), both filters, normalized and unnormalized
 * coordinates, CL_RGBA and CL_R with CL_FLOAT, CL_UNORM_INT8, CL_SIGNED_INT32 and
 * CL_UNSIGNED_INT8, on every image type; each result is checked against a host reference of
 * the OpenCL 1.2 sampling rules (§8.2: addressing and filtering; §8.3: conversions), written
 * here from the specification.
 *
 * Tolerances: nearest reads of CL_FLOAT are exact; CL_UNORM_INT8 converts to float within 1.5
 * ulp (OpenCL 1.2 §8.3.1.1). Linear filtering has no precision in the specification (devices
 * compute the weights with fewer bits: NVIDIA's texture units use 8 fractional bits), so it is
 * compared as the OpenCL conformance tests compare it (test_conformance/images, MAX_ERR):
 * within 0.005 absolute of the [0, 1] data, or, where more, the bound 8-bit weights give: each
 * of the dims weights off by up to 2^-8 (the CUDA Programming Guide's texture fetching appendix:
 * 9-bit fixed point, 8 fractional bits, the rounding unsaid), each moving the result by at most
 * the data's range, 1 (measured on an H200's OpenCL: 0.00518 on a 3D image, 0.00506 on a 2D one,
 * more than rounding's 2^-9 a weight would give). Coordinates are kept 0.05 texel
 * away from the places where nearest filtering changes texels, where a device's coordinate
 * arithmetic may round either way.
 *
 * PoCL 3.1 departs from the specification in three places (docs/driver-bugs.md 16), which the
 * reference follows on PoCL only (its platform name): the border colour of CL_R is (0, 0, 0, 0),
 * read_imagei/ui of CL_R give alpha 0, and an array's layer coordinate is scaled by the layer
 * count like the others under normalized coordinates (so there the layer coordinate is drawn
 * where both readings pick layer 0).
 *
 * On a CUDA device the same checks run against the same reference: kcc's PTX samples in software
 * over surface loads (docs/design.md, "Images on CUDA"), with the specification's arithmetic, so
 * its linear results are well within the tolerance above and the PoCL departures do not apply.
 *
 * Usage: rt_cl_images BUNDLE.kcb. */
#include "rt_common.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 }; /* coordinates per case */

#include "image_ref.h"

static Img make_img(Rt *rt, kcrt_image_type type, kcrt_channel_order o, kcrt_channel_type t) {
  Img m = {{type, o, t, 0, 0, 0, 0}, rt_int(rt, 3, 17), 1, 1, 1, 1, false, NULL, 0};
  m.dims = type == KCRT_IMAGE_3D ? 3 : type == KCRT_IMAGE_2D || type == KCRT_IMAGE_2D_ARRAY ? 2 : 1;
  m.arrayed = type == KCRT_IMAGE_1D_ARRAY || type == KCRT_IMAGE_2D_ARRAY;
  if (m.dims >= 2) m.h = rt_int(rt, 3, 17);
  if (m.dims == 3) m.dp = rt_int(rt, 3, 9);
  if (m.arrayed) m.layers = rt_int(rt, 2, 5);
  m.d.width = (size_t)m.w;
  m.d.height = m.dims >= 2 ? (size_t)m.h : 0;
  m.d.depth = m.dims == 3 ? (size_t)m.dp : 0;
  m.d.array_size = m.arrayed ? (size_t)m.layers : 0;
  m.bytes = (size_t)m.w * m.h * m.dp * m.layers * nch(o) * chbytes(t);
  m.data = rt_xalloc(m.bytes);
  for (size_t i = 0; i < m.bytes; i += (size_t)chbytes(t)) {
    if (t == KCRT_FLOAT) {
      float f = rt_float(rt, 0.0f, 1.0f);
      memcpy(m.data + i, &f, 4);
    } else if (t == KCRT_SIGNED_INT32) {
      int32_t v = (int32_t)rt_u32(rt);
      memcpy(m.data + i, &v, 4);
    } else {
      m.data[i] = (unsigned char)rt_u32(rt);
    }
  }
  return m;
}

/* A coordinate on an axis of n texels, in texel units: inside for NONE, else up to one and a
 * half images beyond each side; never within 0.05 of a texel boundary. */
static float texel_coord(Rt *rt, int n, int addr) {
  for (;;) {
    float u = addr == NONE ? rt_float(rt, 0.6f, (float)n - 0.6f)
                           : rt_float(rt, -1.5f * (float)n, 2.5f * (float)n);
    float f = u - floorf(u);
    if (f > 0.05f && f < 0.95f && fabsf(f - 0.5f) > 0.05f) return u;
  }
}

static const char *addr_name[] = {"none", "clamp-to-edge", "clamp", "repeat", "mirrored-repeat"};

static kcrt_image *upload(Rt *rt, const Img *m) {
  kcrt_image *img = NULL;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &m->d, &img));
  if (kcrt_image_size(img) != m->bytes)
    rt_fail(rt, "kcrt_image_size %zu, want %zu", kcrt_image_size(img), m->bytes);
  RT_CHECK(rt, kcrt_image_write(img, m->data));
  return img;
}

/* One case: a sampler-argument kernel reading N random coordinates of a fresh image. */
static void sample_case(Rt *rt, const char *kernel, kcrt_image_type type, kcrt_channel_order o,
                        kcrt_channel_type t, int addr, bool norm, bool lin) {
  Img m = make_img(rt, type, o, t);
  kcrt_image *img = upload(rt, &m);
  kcrt_sampler *s = NULL;
  RT_CHECK(rt, kcrt_sampler_create(rt->dev, norm, (kcrt_addressing)addr,
                                   lin ? KCRT_FILTER_LINEAR : KCRT_FILTER_NEAREST, &s));
  int ncoord = m.dims + m.arrayed; /* components the kernel reads */
  int stride = ncoord == 1 ? 1 : ncoord == 2 ? 2 : 4;
  bool ints = t == KCRT_SIGNED_INT32 || t == KCRT_UNSIGNED_INT8;
  int size[3] = {m.w, m.h, m.dp};
  float *c = rt_xalloc(sizeof(float) * N * stride);
  for (int i = 0; i < N; i++) {
    for (int a = 0; a < m.dims; a++) {
      float u = texel_coord(rt, size[a], addr);
      c[i * stride + a] = norm ? u / (float)size[a] : u;
    }
    if (m.arrayed)
      c[i * stride + m.dims] =
          pocl && norm ? rt_float(rt, -1.0f, 0.09f) : rt_float(rt, -1.4f, (float)m.layers + 0.4f);
  }
  int per = ints ? 2 : 1; /* the integer kernels read float then integer coordinates */
  kcrt_buffer *dc = rt_upload(rt, c, sizeof(float) * N * stride),
              *dout = rt_alloc(rt, 16 * N * per);
  kcrt_arg args[] = {KCRT_ARG_VALUE(img), KCRT_ARG_VALUE(s), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_BUFFER(dout)};
  rt_launch(rt, rt_kernel(rt, kernel), KCRT_DIM1(N / 64), KCRT_DIM1(64), 0, args, 4);
  char what[200];
  snprintf(what, sizeof what, "%s %zux%zux%zu[%zu] %s %s %s %s %s", kernel, m.d.width, m.d.height,
           m.d.depth, m.d.array_size, o == KCRT_RGBA ? "RGBA" : "R",
           t == KCRT_FLOAT          ? "FLOAT"
           : t == KCRT_UNORM_INT8   ? "UNORM_INT8"
           : t == KCRT_SIGNED_INT32 ? "SIGNED_INT32"
                                    : "UNSIGNED_INT8",
           norm ? "normalized" : "unnormalized", addr_name[addr], lin ? "linear" : "nearest");
  if (ints) {
    int32_t *got = rt_xalloc(16 * N * 2), *want = rt_xalloc(16 * N * 2);
    rt_download(rt, dout, got, 16 * N * 2);
    for (int i = 0; i < N; i++) {
      double r[4];
      reference(&m, addr, norm, false, true, &c[i * stride], r);
      for (int k = 0; k < 4; k++) want[8 * i + k] = want[8 * i + 4 + k] = (int32_t)(int64_t)r[k];
    }
    rt_cmp_i32(rt, what, got, want, (size_t)8 * N);
  } else {
    float *got = rt_xalloc(16 * N), *want = rt_xalloc(16 * N);
    rt_download(rt, dout, got, 16 * N);
    for (int i = 0; i < N; i++) {
      double r[4];
      reference(&m, addr, norm, lin, false, &c[i * stride], r);
      for (int k = 0; k < 4; k++) want[4 * i + k] = (float)r[k];
    }
    rt_cmp_f32(rt, what, got, want, (size_t)4 * N, lin ? 0 : 2e-7, lin ? linear_tol(m.dims) : 0);
  }
  RT_CHECK(rt, kcrt_sampler_free(s));
  RT_CHECK(rt, kcrt_image_free(img));
  RT_CHECK(rt, kcrt_buffer_free(dc));
  RT_CHECK(rt, kcrt_buffer_free(dout));
}

/* Every sampler (repeat and mirrored repeat exist for normalized coordinates only). */
static void every_sampler(Rt *rt, const char *kernel, kcrt_image_type type, kcrt_channel_order o,
                          kcrt_channel_type t, bool filters, int *cases) {
  for (int norm = 0; norm < 2; norm++)
    for (int addr = NONE; addr <= MIRROR; addr++)
      for (int lin = 0; lin < (filters ? 2 : 1); lin++) {
        if (!norm && addr >= REPEAT) continue;
        sample_case(rt, kernel, type, o, t, addr, norm, lin);
        (*cases)++;
      }
}

/* consts2d: the constant samplers (bits as the kernel writes them). */
static void constant_samplers(Rt *rt) {
  Img m = make_img(rt, KCRT_IMAGE_2D, KCRT_RGBA, KCRT_UNORM_INT8);
  kcrt_image *img = upload(rt, &m);
  static const struct {
    int addr;
    bool norm, lin;
  } smp[4] = {
      {EDGE, false, false}, {REPEAT, true, true}, {MIRROR, true, false}, {CLAMP, false, true}};
  float *c = rt_xalloc(sizeof(float) * 2 * N);
  for (int i = 0; i < N; i++) {
    c[2 * i] = texel_coord(rt, m.w, CLAMP);
    c[2 * i + 1] = texel_coord(rt, m.h, CLAMP);
  }
  kcrt_buffer *dc = rt_upload(rt, c, sizeof(float) * 2 * N), *dout = rt_alloc(rt, 64 * N);
  kcrt_arg args[] = {KCRT_ARG_VALUE(img), KCRT_ARG_BUFFER(dc), KCRT_ARG_BUFFER(dout)};
  rt_launch(rt, rt_kernel(rt, "consts2d"), KCRT_DIM1(N / 64), KCRT_DIM1(64), 0, args, 3);
  float *got = rt_xalloc(64 * N);
  rt_download(rt, dout, got, 64 * N);
  for (int j = 0; j < 4; j++) {
    float *gj = rt_xalloc(16 * N), *wj = rt_xalloc(16 * N);
    for (int i = 0; i < N; i++) {
      /* The kernel divides by the size it queries (exactly representable). */
      float at[2] = {c[2 * i], c[2 * i + 1]};
      if (smp[j].norm) at[0] /= (float)m.w, at[1] /= (float)m.h;
      double r[4];
      reference(&m, smp[j].addr, smp[j].norm, smp[j].lin, false, at, r);
      for (int k = 0; k < 4; k++)
        wj[4 * i + k] = (float)r[k], gj[4 * i + k] = got[16 * i + 4 * j + k];
    }
    char what[64];
    snprintf(what, sizeof what, "consts2d sampler %d (%s)", j, addr_name[smp[j].addr]);
    rt_cmp_f32(rt, what, gj, wj, (size_t)4 * N, smp[j].lin ? 0 : 2e-7,
               smp[j].lin ? linear_tol(2) : 0);
  }
  RT_CHECK(rt, kcrt_image_free(img));
}

/* fetch: sampler-less reads of every type and the queries. */
static void fetches(Rt *rt) {
  Img a = make_img(rt, KCRT_IMAGE_2D, KCRT_RGBA, KCRT_FLOAT);
  Img b = make_img(rt, KCRT_IMAGE_3D, KCRT_R, KCRT_UNORM_INT8);
  Img c = make_img(rt, KCRT_IMAGE_2D_ARRAY, KCRT_RGBA, KCRT_UNORM_INT8);
  Img d = make_img(rt, KCRT_IMAGE_1D_BUFFER, KCRT_RGBA, KCRT_FLOAT);
  Img e = make_img(rt, KCRT_IMAGE_1D_ARRAY, KCRT_R, KCRT_FLOAT);
  kcrt_image *ia = upload(rt, &a), *ib = upload(rt, &b), *ic = upload(rt, &c), *id = upload(rt, &d),
             *ie = upload(rt, &e);
  int32_t *p = rt_xalloc(16 * N);
  for (int i = 0; i < N; i++) {
    /* x, y, z inside every image; w a layer of e (and c's layer is z). */
    int minw = a.w, minh = a.h;
    const Img *all[] = {&b, &c, &d, &e};
    for (int k = 0; k < 4; k++) {
      if (all[k]->w < minw) minw = all[k]->w;
      if (all[k]->dims > 1 && all[k]->h < minh) minh = all[k]->h;
    }
    int mind = b.dp < c.layers ? b.dp : c.layers;
    p[4 * i] = rt_int(rt, 0, minw - 1);
    p[4 * i + 1] = rt_int(rt, 0, minh - 1);
    p[4 * i + 2] = rt_int(rt, 0, mind - 1);
    p[4 * i + 3] = rt_int(rt, 0, e.layers - 1);
  }
  kcrt_buffer *dp = rt_upload(rt, p, 16 * N), *dout = rt_alloc(rt, 64 * N), *dq = rt_alloc(rt, 64);
  kcrt_arg args[] = {KCRT_ARG_VALUE(ia),    KCRT_ARG_VALUE(ib), KCRT_ARG_VALUE(ic),
                     KCRT_ARG_VALUE(id),    KCRT_ARG_VALUE(ie), KCRT_ARG_BUFFER(dp),
                     KCRT_ARG_BUFFER(dout), KCRT_ARG_BUFFER(dq)};
  rt_launch(rt, rt_kernel(rt, "fetch"), KCRT_DIM1(N / 64), KCRT_DIM1(64), 0, args, 8);
  float *got = rt_xalloc(64 * N), *want = rt_xalloc(64 * N);
  rt_download(rt, dout, got, 64 * N);
  for (int i = 0; i < N; i++) {
    int *q = &p[4 * i];
    double r[4], r2[4];
    texel(&a, (int[3]){q[0], q[1], 0}, 0, false, r);
    for (int k = 0; k < 4; k++) want[16 * i + k] = (float)r[k];
    texel(&b, (int[3]){q[0], q[1], q[2]}, 0, false, r);
    for (int k = 0; k < 4; k++) want[16 * i + 4 + k] = (float)r[k];
    texel(&c, (int[3]){q[0], q[1], 0}, q[2], false, r);
    for (int k = 0; k < 4; k++) want[16 * i + 8 + k] = (float)r[k];
    texel(&d, (int[3]){q[0], 0, 0}, 0, false, r);
    texel(&e, (int[3]){q[0], 0, 0}, q[3], false, r2);
    for (int k = 0; k < 4; k++) want[16 * i + 12 + k] = (float)r[k] + (float)r2[k];
  }
  rt_cmp_f32(rt, "fetch (sampler-less reads)", got, want, (size_t)16 * N, 2e-7, 0);
  /* q[7]: get_image_dim(b).w (0) plus the CLK_RGBA and CLK_UNORM_INT8 comparisons (1, 2). */
  int32_t q[16],
      wq[16] = {a.w,  a.h, KCRT_RGBA, KCRT_FLOAT, b.w, b.h,      b.dp,   3,
                b.dp, c.w, c.h,       c.layers,   e.w, e.layers, KCRT_R, KCRT_UNORM_INT8};
  rt_download(rt, dq, q, 64);
  rt_cmp_i32(rt, "image queries", q, wq, 16);
  kcrt_image *all[] = {ia, ib, ic, id, ie};
  for (int k = 0; k < 5; k++) RT_CHECK(rt, kcrt_image_free(all[k]));
}

/* writes: every write form, read back through kcrt_image_read. */
static void writes(Rt *rt) {
  int w = rt_int(rt, 4, 16), h = rt_int(rt, 4, 16);
  kcrt_image_desc df = {KCRT_IMAGE_2D, KCRT_RGBA, KCRT_FLOAT, (size_t)w, (size_t)h, 0, 0};
  kcrt_image_desc di = {KCRT_IMAGE_2D, KCRT_RGBA, KCRT_SIGNED_INT32, (size_t)w, (size_t)h, 0, 0};
  kcrt_image_desc du = {KCRT_IMAGE_2D, KCRT_R, KCRT_UNSIGNED_INT8, (size_t)w, (size_t)h, 0, 0};
  kcrt_image_desc dg = {KCRT_IMAGE_1D, KCRT_RGBA, KCRT_FLOAT, (size_t)w, 0, 0, 0};
  kcrt_image_desc dh = {KCRT_IMAGE_2D_ARRAY, KCRT_RGBA, KCRT_FLOAT, (size_t)w, (size_t)h, 0, 3};
  kcrt_image_desc dk = {KCRT_IMAGE_1D_BUFFER, KCRT_RGBA, KCRT_FLOAT, (size_t)w, 0, 0, 0};
  kcrt_image_desc *ds[] = {&df, &di, &du, &dg, &dh, &dk};
  kcrt_image *im[6];
  for (int k = 0; k < 6; k++) RT_CHECK(rt, kcrt_image_create(rt->dev, ds[k], &im[k]));
  /* The array's layers 0 and 2 are not written: fill them so they read back known. */
  float *hz = rt_xalloc(sizeof(float) * 4 * w * h * 3);
  RT_CHECK(rt, kcrt_image_write(im[4], hz));
  size_t n = (size_t)w * h;
  float *vf = rt_xalloc(16 * n);
  int32_t *vi = rt_xalloc(16 * n);
  for (size_t i = 0; i < 4 * n; i++) vf[i] = rt_float(rt, -2.0f, 2.0f), vi[i] = (int32_t)rt_u32(rt);
  kcrt_buffer *dvf = rt_upload(rt, vf, 16 * n), *dvi = rt_upload(rt, vi, 16 * n);
  kcrt_arg args[] = {KCRT_ARG_VALUE(im[0]), KCRT_ARG_VALUE(im[1]), KCRT_ARG_VALUE(im[2]),
                     KCRT_ARG_VALUE(im[3]), KCRT_ARG_VALUE(im[4]), KCRT_ARG_VALUE(im[5]),
                     KCRT_ARG_BUFFER(dvf),  KCRT_ARG_BUFFER(dvi)};
  rt_launch(rt, rt_kernel(rt, "writes"), KCRT_DIM3((unsigned)w, (unsigned)h, 1), KCRT_DIM1(1), 0,
            args, 8);
  float *gf = rt_xalloc(16 * n * 3), *wf = rt_xalloc(16 * n * 3);
  int32_t *gi = rt_xalloc(16 * n), *wu = rt_xalloc(4 * n), *gu = rt_xalloc(4 * n);
  unsigned char *gu8 = rt_xalloc(n);
  RT_CHECK(rt, kcrt_image_read(im[0], gf));
  rt_cmp_f32(rt, "write_imagef 2D FLOAT", gf, vf, 4 * n, 0, 0);
  RT_CHECK(rt, kcrt_image_read(im[1], gi));
  rt_cmp_i32(rt, "write_imagei 2D SIGNED_INT32", gi, vi, 4 * n);
  RT_CHECK(rt, kcrt_image_read(im[2], gu8));
  for (size_t i = 0; i < n; i++) gu[i] = gu8[i], wu[i] = (int32_t)((uint32_t)vi[4 * i] & 255u);
  rt_cmp_i32(rt, "write_imageui 2D R UNSIGNED_INT8", gu, wu, n);
  RT_CHECK(rt, kcrt_image_read(im[3], gf));
  rt_cmp_f32(rt, "write_imagef 1D", gf, vf, 4 * (size_t)w, 0, 0);
  RT_CHECK(rt, kcrt_image_read(im[5], gf));
  for (int i = 0; i < 4 * w; i++) wf[i] = vf[i] * 2.0f;
  rt_cmp_f32(rt, "write_imagef 1D buffer", gf, wf, 4 * (size_t)w, 0, 0);
  RT_CHECK(rt, kcrt_image_read(im[4], gf));
  for (size_t i = 0; i < 4 * n * 3; i++) wf[i] = i / (4 * n) == 1 ? vf[i % (4 * n)] + 1.0f : 0.0f;
  rt_cmp_f32(rt, "write_imagef 2D array layer 1", gf, wf, 4 * n * 3, 0, 0);
  for (int k = 0; k < 6; k++) RT_CHECK(rt, kcrt_image_free(im[k]));
}

/* halfs: read_imageh/write_imageh on CL_HALF_FLOAT images, exact (a half is a float exactly,
 * and doubling one is exact in this range). */
static void halfs(Rt *rt) {
  int w = rt_int(rt, 4, 16), h = rt_int(rt, 4, 16);
  size_t n = (size_t)w * h;
  kcrt_image_desc d = {KCRT_IMAGE_2D, KCRT_RGBA, KCRT_HALF_FLOAT, (size_t)w, (size_t)h, 0, 0};
  uint16_t *in = rt_xalloc(8 * n), *back = rt_xalloc(8 * n), *want2 = rt_xalloc(8 * n);
  float *want = rt_xalloc(16 * n), *got = rt_xalloc(16 * n);
  for (size_t i = 0; i < 4 * n; i++) {
    in[i] = rt_f16_of_float(rt_float(rt, -1000.0f, 1000.0f), FE_TONEAREST);
    want[i] = rt_f16_value(in[i]);
    want2[i] = rt_f16_of_float(2.0f * want[i], FE_TONEAREST);
  }
  kcrt_image *a = NULL, *b = NULL;
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &a));
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d, &b));
  RT_CHECK(rt, kcrt_image_write(a, in));
  kcrt_buffer *o = rt_alloc(rt, 16 * n);
  kcrt_arg args[] = {KCRT_ARG_VALUE(a), KCRT_ARG_VALUE(b), KCRT_ARG_BUFFER(o)};
  rt_launch(rt, rt_kernel(rt, "halfs"), KCRT_DIM3((unsigned)w, (unsigned)h, 1), KCRT_DIM1(1), 0,
            args, 3);
  rt_download(rt, o, got, 16 * n);
  rt_cmp_f32(rt, "read_imageh (as float)", got, want, 4 * n, 0, 0);
  RT_CHECK(rt, kcrt_image_read(b, back));
  int32_t *g32 = rt_xalloc(16 * n), *w32 = rt_xalloc(16 * n);
  for (size_t i = 0; i < 4 * n; i++) g32[i] = back[i], w32[i] = want2[i];
  rt_cmp_i32(rt, "write_imageh (half bits)", g32, w32, 4 * n);
  RT_CHECK(rt, kcrt_image_free(a));
  RT_CHECK(rt, kcrt_image_free(b));
}

/* support: the kernel's #ifdef __IMAGE_SUPPORT__ path (a copy of the texels) is the one
 * compiled, in every form. */
static void support(Rt *rt) {
  Img m = make_img(rt, KCRT_IMAGE_2D, KCRT_RGBA, KCRT_FLOAT);
  kcrt_image *img = upload(rt, &m);
  size_t n = (size_t)m.w * m.h;
  kcrt_buffer *o = rt_alloc(rt, 16 * n);
  kcrt_arg args[] = {KCRT_ARG_VALUE(img), KCRT_ARG_BUFFER(o)};
  rt_launch(rt, rt_kernel(rt, "support"), KCRT_DIM1(n), KCRT_DIM1(1), 0, args, 2);
  float *got = rt_xalloc(16 * n);
  rt_download(rt, o, got, 16 * n);
  rt_cmp_f32(rt, "#ifdef __IMAGE_SUPPORT__ (the image path)", got, (const float *)m.data, 4 * n, 0,
             0);
  RT_CHECK(rt, kcrt_image_free(img));
}

/* What the runtime refuses before any driver sees it. */
static void refusals(Rt *rt) {
  kcrt_image *img = NULL;
  kcrt_image_desc bad = {KCRT_IMAGE_2D, KCRT_RGBA, KCRT_FLOAT, 4, 0, 0, 0};
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_image_create(rt->dev, &bad, &img));
  bad.height = 4;
  bad.depth = 3;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE, kcrt_image_create(rt->dev, &bad, &img));
  kcrt_sampler *s = NULL;
  RT_EXPECT(rt, KCRT_ERROR_INVALID_VALUE,
            kcrt_sampler_create(rt->dev, 0, KCRT_ADDRESS_REPEAT, KCRT_FILTER_NEAREST, &s));
  /* A 1D image for a 2D parameter, a buffer for an image, an image for a sampler. */
  kcrt_image_desc d1 = {KCRT_IMAGE_1D, KCRT_RGBA, KCRT_FLOAT, 8, 0, 0, 0};
  RT_CHECK(rt, kcrt_image_create(rt->dev, &d1, &img));
  RT_CHECK(rt, kcrt_sampler_create(rt->dev, 1, KCRT_ADDRESS_CLAMP, KCRT_FILTER_NEAREST, &s));
  kcrt_buffer *b = rt_alloc(rt, 64 * 16);
  kcrt_kernel *k = rt_kernel(rt, "f2d");
  kcrt_arg a1[] = {KCRT_ARG_VALUE(img), KCRT_ARG_VALUE(s), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b)};
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT,
            kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(64), 0, a1, 4));
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(b), KCRT_ARG_VALUE(s), KCRT_ARG_BUFFER(b), KCRT_ARG_BUFFER(b)};
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT,
            kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(64), 0, a2, 4));
  kcrt_arg a3[] = {KCRT_ARG_VALUE(img), KCRT_ARG_VALUE(img), KCRT_ARG_BUFFER(b),
                   KCRT_ARG_BUFFER(b)};
  RT_EXPECT(rt, KCRT_ERROR_INVALID_ARGUMENT,
            kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(64), 0, a3, 4));
  RT_CHECK(rt, kcrt_sampler_free(s));
  RT_CHECK(rt, kcrt_image_free(img));
}

int main(int argc, char **argv) {
  Rt rt;
  rt_open(&rt, argc, argv, "cl_images");
  RT_CHECK(&rt, kcrt_module_load_file(rt.dev, argv[1], &rt.mod));
  pocl = strstr(rt.info.platform, "Portable Computing Language") != NULL;
  int cases = 0;
  static const kcrt_channel_order orders[] = {KCRT_RGBA, KCRT_R};
  for (int o = 0; o < 2; o++) {
    every_sampler(&rt, "f2d", KCRT_IMAGE_2D, orders[o], KCRT_FLOAT, true, &cases);
    every_sampler(&rt, "f2d", KCRT_IMAGE_2D, orders[o], KCRT_UNORM_INT8, true, &cases);
    /* Integer coordinates need unnormalized coordinates and no repeat (OpenCL 1.2 §6.12.14.2). */
    for (int addr = NONE; addr <= CLAMP; addr++) {
      sample_case(&rt, "i2d", KCRT_IMAGE_2D, orders[o], KCRT_SIGNED_INT32, addr, false, false);
      sample_case(&rt, "u2d", KCRT_IMAGE_2D, orders[o], KCRT_UNSIGNED_INT8, addr, false, false);
      cases += 2;
    }
  }
  every_sampler(&rt, "f1d", KCRT_IMAGE_1D, KCRT_RGBA, KCRT_FLOAT, true, &cases);
  every_sampler(&rt, "f1da", KCRT_IMAGE_1D_ARRAY, KCRT_R, KCRT_UNORM_INT8, true, &cases);
  every_sampler(&rt, "f2da", KCRT_IMAGE_2D_ARRAY, KCRT_RGBA, KCRT_UNORM_INT8, true, &cases);
  every_sampler(&rt, "f3d", KCRT_IMAGE_3D, KCRT_RGBA, KCRT_FLOAT, true, &cases);
  every_sampler(&rt, "f3d", KCRT_IMAGE_3D, KCRT_R, KCRT_UNORM_INT8, true, &cases);
  constant_samplers(&rt);
  fetches(&rt);
  writes(&rt);
  halfs(&rt);
  support(&rt);
  refusals(&rt);
  return rt_finish(&rt,
                   "%d sampler cases of %d reads, constant samplers, fetches, queries, writes, "
                   "half images, __IMAGE_SUPPORT__",
                   cases, N);
}
