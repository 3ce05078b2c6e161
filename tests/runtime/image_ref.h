/* image_ref.h — the host reference of OpenCL 1.2 image sampling (section 8.2: addressing and
 * filtering; 8.3: conversions), written from the specification, for the formats the image
 * tests use: CL_RGBA and CL_R with CL_FLOAT, CL_UNORM_INT8, CL_SIGNED_INT32 and
 * CL_UNSIGNED_INT8. Shared by tests/runtime/cl_images.c (every device) and
 * tests/unit/test_image_lib.c (kcc's software sampling, frontend/opencl/image_lib.c, on the host).
 */
#ifndef KCC_IMAGE_REF_H
#define KCC_IMAGE_REF_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kcrt.h"

/* The device is PoCL's: its three departures (docs/driver-bugs.md 16) are followed. */
static bool pocl;

typedef struct Img {
  kcrt_image_desc d;
  int w, h, dp, layers; /* h, dp, layers: 1 where the type has none */
  int dims;             /* spatial dimensions: 1, 2, 3 */
  bool arrayed;
  unsigned char *data;
  size_t bytes;
} Img;

static inline int nch(kcrt_channel_order o) {
  return o == KCRT_RGBA ? 4 : 1;
}
static inline int chbytes(kcrt_channel_type t) {
  return t == KCRT_FLOAT || t == KCRT_SIGNED_INT32 ? 4 : 1;
}

/* Channel c of the texel at linear index n, as read_imagef converts it (§8.3.1.1: unorm8 is
 * c / 255) or as read_imagei/ui give it (raw, in the int). */
static inline float chan_f(const Img *m, size_t n, int c) {
  const unsigned char *p = m->data + (n * nch(m->d.order) + c) * chbytes(m->d.data_type);
  float f;
  if (m->d.data_type == KCRT_FLOAT) {
    memcpy(&f, p, 4);
    return f;
  }
  return (float)*p / 255.0f;
}
static inline int64_t chan_i(const Img *m, size_t n, int c) {
  const unsigned char *p = m->data + (n * nch(m->d.order) + c) * chbytes(m->d.data_type);
  if (m->d.data_type == KCRT_SIGNED_INT32) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
  }
  return *p;
}

/* The texel at integer coordinates ijk and layer, as a float4 (or its integers); out of the
 * image: the border colour, (0, 0, 0, 0) for orders with alpha, else (0, 0, 0, 1) (§8.2). */
static inline void texel(const Img *m, const int ijk[3], int layer, bool ints, double out[4]) {
  int size[3] = {m->w, m->h, m->dp};
  bool border = false;
  for (int a = 0; a < m->dims; a++) border |= ijk[a] < 0 || ijk[a] >= size[a];
  out[0] = out[1] = out[2] = 0;
  out[3] = nch(m->d.order) == 4 || (pocl && (border || ints)) ? 0 : 1;
  if (border) return;
  size_t n =
      (size_t)ijk[0] +
      (size_t)m->w * ((size_t)(m->dims > 1 ? ijk[1] : 0) +
                      (size_t)m->h * ((size_t)(m->dims > 2 ? ijk[2] : 0) + (size_t)m->dp * layer));
  for (int c = 0; c < nch(m->d.order); c++)
    out[c] = ints ? (double)chan_i(m, n, c) : (double)chan_f(m, n, c);
}

enum { NONE, EDGE, CLAMP, REPEAT, MIRROR }; /* kcrt_addressing's order */

/* Nearest filtering on one axis of n texels (§8.2.1.1, §8.2.2.1), in float as the device
 * computes it. */
static inline int nearest(float s, int n, int addr, bool norm) {
  if (addr == REPEAT) {
    float u = (s - floorf(s)) * (float)n;
    int i = (int)floorf(u);
    return i > n - 1 ? i - n : i;
  }
  if (addr == MIRROR) {
    float sp = fabsf(s - 2.0f * rintf(0.5f * s));
    int i = (int)floorf(sp * (float)n);
    return i < n - 1 ? i : n - 1;
  }
  int i = (int)floorf(norm ? s * (float)n : s);
  if (addr == EDGE) i = i < 0 ? 0 : i > n - 1 ? n - 1 : i;
  return i; /* CLAMP: outside is the border; NONE: the test stays inside */
}

/* Linear filtering on one axis: the two texels and the weight of the second. */
/* Linear filtering's tolerance on [0, 1] data in dims dimensions (see the top). */
static inline double linear_tol(int dims) {
  return dims / 256.0 > 0.005 ? dims / 256.0 : 0.005;
}

static inline void linear(float s, int n, int addr, bool norm, int *i0, int *i1, float *a) {
  float u;
  if (addr == REPEAT) {
    u = (s - floorf(s)) * (float)n;
    *i0 = (int)floorf(u - 0.5f);
    *i1 = *i0 + 1;
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
  } else if (addr == MIRROR) {
    u = fabsf(s - 2.0f * rintf(0.5f * s)) * (float)n;
    *i0 = (int)floorf(u - 0.5f);
    *i1 = *i0 + 1;
    if (*i0 < 0) *i0 = 0;
    if (*i1 > n - 1) *i1 = n - 1;
  } else {
    u = norm ? s * (float)n : s;
    *i0 = (int)floorf(u - 0.5f);
    *i1 = *i0 + 1;
    if (addr == EDGE) {
      *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
      *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
    }
  }
  *a = (u - 0.5f) - floorf(u - 0.5f);
}

/* The reference read: coord[0..dims) the spatial coordinates, coord[dims] the layer of an
 * array (unnormalized, rounded to nearest and clamped: §8.2.1). */
static inline void reference(const Img *m, int addr, bool norm, bool lin, bool ints,
                             const float *coord, double out[4]) {
  int size[3] = {m->w, m->h, m->dp};
  int layer = 0;
  if (m->arrayed) {
    layer = (int)rintf(coord[m->dims]);
    layer = layer < 0 ? 0 : layer > m->layers - 1 ? m->layers - 1 : layer;
  }
  if (!lin) {
    int ijk[3] = {0, 0, 0};
    for (int a = 0; a < m->dims; a++) ijk[a] = nearest(coord[a], size[a], addr, norm);
    texel(m, ijk, layer, ints, out);
    return;
  }
  int i0[3] = {0}, i1[3] = {0};
  float w[3] = {0};
  for (int a = 0; a < m->dims; a++) linear(coord[a], size[a], addr, norm, &i0[a], &i1[a], &w[a]);
  out[0] = out[1] = out[2] = out[3] = 0;
  for (int corner = 0; corner < 1 << m->dims; corner++) {
    int ijk[3] = {0, 0, 0};
    double weight = 1;
    for (int a = 0; a < m->dims; a++) {
      bool hi = corner >> a & 1;
      ijk[a] = hi ? i1[a] : i0[a];
      weight *= hi ? w[a] : 1 - w[a];
    }
    double t[4];
    texel(m, ijk, layer, ints, t);
    for (int c = 0; c < 4; c++) out[c] += weight * t[c];
  }
}

#endif
