/* image.c — images and samplers (kcrt.h, "images and samplers"): the checks every back end
 * shares, the objects' lifetimes, and the launch-argument check for image and sampler
 * parameters (KCB_PARAM_IMAGE, KCB_PARAM_SAMPLER). The back ends make the driver objects: the
 * OpenCL one clCreateImage and a sampler; the CUDA one a CUDA array and its surface object
 * (kernels sample in their own code there, so a sampler is only its bits). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static const char *type_name(kcrt_image_type t) {
  static const char *const names[] = {
      [KCRT_IMAGE_1D] = "image1d_t",
      [KCRT_IMAGE_1D_BUFFER] = "image1d_buffer_t",
      [KCRT_IMAGE_1D_ARRAY] = "image1d_array_t",
      [KCRT_IMAGE_2D] = "image2d_t",
      [KCRT_IMAGE_2D_ARRAY] = "image2d_array_t",
      [KCRT_IMAGE_3D] = "image3d_t",
  };
  return t >= KCRT_IMAGE_1D && t <= KCRT_IMAGE_3D ? names[t] : "an unknown image type";
}

int kcrt_image_channels(kcrt_channel_order o) {
  switch (o) {
  case KCRT_R:
  case KCRT_A:
  case KCRT_INTENSITY:
  case KCRT_LUMINANCE: return 1;
  case KCRT_RG:
  case KCRT_RA: return 2;
  case KCRT_RGBA:
  case KCRT_BGRA:
  case KCRT_ARGB: return 4;
  }
  return 0;
}

void kcrt_image_set_kdesc(kcrt_image *img, uint64_t surf) {
  const kcrt_image_desc *d = &img->desc;
  img->kdesc.surf = surf;
  img->kdesc.width = (int32_t)d->width;
  img->kdesc.height = (int32_t)(d->height ? d->height : 1);
  img->kdesc.depth = (int32_t)(d->depth ? d->depth : 1);
  img->kdesc.array_size = (int32_t)(d->array_size ? d->array_size : 1);
  img->kdesc.order = (int32_t)d->order;
  img->kdesc.data_type = (int32_t)d->data_type;
}

/* Bytes of a channel of a data type, 0 for an unknown one. */
static int channel_bytes(kcrt_channel_type t) {
  switch (t) {
  case KCRT_SNORM_INT8:
  case KCRT_UNORM_INT8:
  case KCRT_SIGNED_INT8:
  case KCRT_UNSIGNED_INT8: return 1;
  case KCRT_SNORM_INT16:
  case KCRT_UNORM_INT16:
  case KCRT_SIGNED_INT16:
  case KCRT_UNSIGNED_INT16:
  case KCRT_HALF_FLOAT: return 2;
  case KCRT_SIGNED_INT32:
  case KCRT_UNSIGNED_INT32:
  case KCRT_FLOAT: return 4;
  }
  return 0;
}

/* The extents a type has (width always): height, depth, layers. */
static void extents(kcrt_image_type t, bool *h, bool *d, bool *a) {
  *h = t == KCRT_IMAGE_2D || t == KCRT_IMAGE_2D_ARRAY || t == KCRT_IMAGE_3D;
  *d = t == KCRT_IMAGE_3D;
  *a = t == KCRT_IMAGE_1D_ARRAY || t == KCRT_IMAGE_2D_ARRAY;
}

static kcrt_status check_desc(const kcrt_image_desc *d, size_t *pixel, size_t *bytes) {
  if (d->type < KCRT_IMAGE_1D || d->type > KCRT_IMAGE_3D)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_create: unknown image type %d",
                     (int)d->type);
  if (!kcrt_image_channels(d->order))
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_create: unknown channel order 0x%x",
                     (unsigned)d->order);
  if (!channel_bytes(d->data_type))
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_create: unknown channel data type 0x%x",
                     (unsigned)d->data_type);
  bool has_h, has_d, has_a;
  extents(d->type, &has_h, &has_d, &has_a);
  const struct {
    const char *name;
    size_t v;
    bool has;
  } ext[4] = {{"width", d->width, true},
              {"height", d->height, has_h},
              {"depth", d->depth, has_d},
              {"array_size", d->array_size, has_a}};
  size_t n = (size_t)kcrt_image_channels(d->order) * (size_t)channel_bytes(d->data_type);
  *pixel = n;
  for (int i = 0; i < 4; i++) {
    if (ext[i].has && ext[i].v == 0)
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_create: %s of 0 for %s", ext[i].name,
                       type_name(d->type));
    if (!ext[i].has && ext[i].v > 1)
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                       "kcrt_image_create: %s %zu for %s, which has no %s (give 0)", ext[i].name,
                       ext[i].v, type_name(d->type), ext[i].name);
    if (ext[i].has && __builtin_mul_overflow(n, ext[i].v, &n))
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_create: the image's size overflows");
  }
  *bytes = n;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_image_create(kcrt_device *dev, const kcrt_image_desc *desc, kcrt_image **out) {
  if (!dev || !desc || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_create: NULL");
  size_t pixel = 0, bytes = 0;
  kcrt_status st = check_desc(desc, &pixel, &bytes);
  if (st != KCRT_SUCCESS) return st;
  if (!dev->be->image_create)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "images are not supported on %s devices ('%s')",
                     dev->be->name, dev->info.name);
  kcrt_image *img = calloc(1, sizeof *img);
  if (!img) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  img->dev = dev;
  img->desc = *desc;
  img->pixel = pixel;
  img->bytes = bytes;
  st = dev->be->image_create(img);
  if (st != KCRT_SUCCESS) {
    free(img);
    return st;
  }
  img->magic = KCRT_IMAGE_MAGIC;
  kcrt_link_add(dev, &dev->images, &img->link);
  *out = img;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_image_free(kcrt_image *img) {
  if (!img) return KCRT_SUCCESS;
  if (img->magic != KCRT_IMAGE_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_free: not a live image");
  kcrt_link_del(img->dev, &img->link);
  img->dev->be->image_free(img);
  img->magic = 0;
  free(img);
  return KCRT_SUCCESS;
}

size_t kcrt_image_size(const kcrt_image *img) {
  return img && img->magic == KCRT_IMAGE_MAGIC ? img->bytes : 0;
}

kcrt_status kcrt_image_get_desc(const kcrt_image *img, kcrt_image_desc *desc) {
  if (!img || !desc || img->magic != KCRT_IMAGE_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_get_desc: NULL or not an image");
  *desc = img->desc;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_image_write(kcrt_image *img, const void *src) {
  if (!img || !src || img->magic != KCRT_IMAGE_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_write: NULL or not an image");
  return img->dev->be->image_write(img, src);
}

kcrt_status kcrt_image_read(kcrt_image *img, void *dst) {
  if (!img || !dst || img->magic != KCRT_IMAGE_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_image_read: NULL or not an image");
  return img->dev->be->image_read(img, dst);
}

kcrt_status kcrt_sampler_create(kcrt_device *dev, int normalized, kcrt_addressing addressing,
                                kcrt_filter filter, kcrt_sampler **out) {
  if (!dev || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_sampler_create: NULL");
  if (addressing < KCRT_ADDRESS_NONE || addressing > KCRT_ADDRESS_MIRRORED_REPEAT)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_sampler_create: unknown addressing mode %d",
                     (int)addressing);
  if (filter != KCRT_FILTER_NEAREST && filter != KCRT_FILTER_LINEAR)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_sampler_create: unknown filter %d",
                     (int)filter);
  /* OpenCL: repeat and mirrored repeat are defined for normalized coordinates only. */
  if (!normalized && addressing >= KCRT_ADDRESS_REPEAT)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_sampler_create: %s addressing needs normalized coordinates",
                     addressing == KCRT_ADDRESS_REPEAT ? "repeat" : "mirrored-repeat");
  if (!dev->be->sampler_create)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "samplers are not supported on %s devices ('%s')",
                     dev->be->name, dev->info.name);
  kcrt_sampler *s = calloc(1, sizeof *s);
  if (!s) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  s->dev = dev;
  s->normalized = normalized != 0;
  s->addressing = addressing;
  s->filter = filter;
  /* CLK_NORMALIZED_COORDS_TRUE 1, CLK_ADDRESS_* twice kcrt's order, CLK_FILTER_* 0x10/0x20. */
  s->bits = (uint32_t)(s->normalized ? 1 : 0) | (uint32_t)addressing * 2u |
            (filter == KCRT_FILTER_LINEAR ? 0x20u : 0x10u);
  kcrt_status st = dev->be->sampler_create(s);
  if (st != KCRT_SUCCESS) {
    free(s);
    return st;
  }
  s->magic = KCRT_SAMPLER_MAGIC;
  kcrt_link_add(dev, &dev->samplers, &s->link);
  *out = s;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_sampler_free(kcrt_sampler *s) {
  if (!s) return KCRT_SUCCESS;
  if (s->magic != KCRT_SAMPLER_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_sampler_free: not a live sampler");
  kcrt_link_del(s->dev, &s->link);
  s->dev->be->sampler_free(s);
  s->magic = 0;
  free(s);
  return KCRT_SUCCESS;
}

/* ---------------------------------------------------------------- texture and surface objects */

static bool normalized_type(kcrt_channel_type t) {
  return t == KCRT_UNORM_INT8 || t == KCRT_UNORM_INT16 || t == KCRT_SNORM_INT8 ||
         t == KCRT_SNORM_INT16;
}

/* CUDA's texels have 1, 2 or 4 channels in x, y, z, w order. */
static kcrt_status cuda_layout(const kcrt_image *img, const char *fn) {
  kcrt_channel_order o = img->desc.order;
  if (o != KCRT_R && o != KCRT_RG && o != KCRT_RGBA)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "%s: the image's channel order 0x%x is not one a CUDA texel has (R, RG or "
                     "RGBA)",
                     fn, (unsigned)o);
  return KCRT_SUCCESS;
}

static kcrt_status check_texobj_image(kcrt_device *dev, kcrt_image *img, const char *fn) {
  if (!img || img->magic != KCRT_IMAGE_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "%s: not a live image", fn);
  if (img->dev != dev)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "%s: the image belongs to another device", fn);
  return cuda_layout(img, fn);
}

kcrt_status kcrt_texture_create(kcrt_device *dev, kcrt_image *img, const kcrt_texture_desc *desc,
                                kcrt_texture **out) {
  static const char fn[] = "kcrt_texture_create";
  if (!dev || !desc || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "%s: NULL", fn);
  kcrt_status st = check_texobj_image(dev, img, fn);
  if (st != KCRT_SUCCESS) return st;
  kcrt_channel_type t = img->desc.data_type;
  bool norm = normalized_type(t);
  if (desc->read_mode != KCRT_READ_ELEMENT_TYPE && desc->read_mode != KCRT_READ_NORMALIZED_FLOAT)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "%s: unknown read mode %d", fn,
                     (int)desc->read_mode);
  if (norm != (desc->read_mode == KCRT_READ_NORMALIZED_FLOAT))
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "%s: read mode %s does not fit the image's channel type 0x%x: UNORM and "
                     "SNORM channels read as normalized floats (KCRT_READ_NORMALIZED_FLOAT), the "
                     "others as their own type (KCRT_READ_ELEMENT_TYPE)",
                     fn, norm ? "KCRT_READ_ELEMENT_TYPE" : "KCRT_READ_NORMALIZED_FLOAT",
                     (unsigned)t);
  bool floats = norm || t == KCRT_HALF_FLOAT || t == KCRT_FLOAT;
  if (desc->filter == KCRT_FILTER_LINEAR && !floats)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "%s: linear filtering of integer channels (type 0x%x); CUDA and OpenCL filter "
                     "only texels read as float",
                     fn, (unsigned)t);
  /* CUDA reads outside the image as the nearest texel when no mode is given. */
  kcrt_addressing a =
      desc->addressing == KCRT_ADDRESS_NONE ? KCRT_ADDRESS_CLAMP_TO_EDGE : desc->addressing;
  kcrt_texture *tex = calloc(1, sizeof *tex);
  if (!tex) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  st = kcrt_sampler_create(dev, desc->normalized, a, desc->filter, &tex->smp);
  if (st != KCRT_SUCCESS) {
    free(tex);
    return st;
  }
  /* The sampler is the texture's: off the device's list, freed with it. */
  kcrt_link_del(dev, &tex->smp->link);
  tex->dev = dev;
  tex->img = img;
  tex->desc = *desc;
  tex->desc.addressing = a;
  if (dev->be->texture_create && (st = dev->be->texture_create(tex)) != KCRT_SUCCESS) {
    dev->be->sampler_free(tex->smp);
    free(tex->smp);
    free(tex);
    return st;
  }
  tex->magic = KCRT_TEXTURE_MAGIC;
  kcrt_link_add(dev, &dev->textures, &tex->link);
  *out = tex;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_texture_free(kcrt_texture *tex) {
  if (!tex) return KCRT_SUCCESS;
  if (tex->magic != KCRT_TEXTURE_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_texture_free: not a live texture");
  kcrt_link_del(tex->dev, &tex->link);
  if (tex->dev->be->texture_free) tex->dev->be->texture_free(tex);
  tex->dev->be->sampler_free(tex->smp);
  tex->smp->magic = 0;
  free(tex->smp);
  tex->magic = 0;
  free(tex);
  return KCRT_SUCCESS;
}

kcrt_status kcrt_surface_create(kcrt_device *dev, kcrt_image *img, kcrt_surface **out) {
  static const char fn[] = "kcrt_surface_create";
  if (!dev || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "%s: NULL", fn);
  kcrt_status st = check_texobj_image(dev, img, fn);
  if (st != KCRT_SUCCESS) return st;
  if (normalized_type(img->desc.data_type))
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "%s: a surface of UNORM or SNORM channels (type 0x%x); surfaces hold raw "
                     "texels: use the integer type of that size",
                     fn, (unsigned)img->desc.data_type);
  if (img->desc.type == KCRT_IMAGE_1D_BUFFER)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "%s: a 1D buffer image (CUDA has no surface over linear memory)", fn);
  kcrt_surface *s = calloc(1, sizeof *s);
  if (!s) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  s->dev = dev;
  s->img = img;
  s->magic = KCRT_SURFACE_MAGIC;
  kcrt_link_add(dev, &dev->surfaces, &s->link);
  *out = s;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_surface_free(kcrt_surface *s) {
  if (!s) return KCRT_SUCCESS;
  if (s->magic != KCRT_SURFACE_MAGIC)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_surface_free: not a live surface");
  kcrt_link_del(s->dev, &s->link);
  s->magic = 0;
  free(s);
  return KCRT_SUCCESS;
}

/* The handle in a's 8 bytes, if it is a live one on dev's list: CUDA's own objects are small
 * integers that are never such a pointer. */
static void *handle_on(kcrt_device *dev, KcrtLink *head, const kcrt_arg *a) {
  if (!a->value || a->size != sizeof(void *) || a->buffer) return NULL;
  void *h;
  memcpy(&h, a->value, sizeof h);
  return h && kcrt_link_has(dev, head, h) ? h : NULL;
}

kcrt_texture *kcrt_texture_of(kcrt_device *dev, const kcrt_arg *a) {
  return handle_on(dev, &dev->textures, a);
}

kcrt_surface *kcrt_surface_of(kcrt_device *dev, const kcrt_arg *a) {
  return handle_on(dev, &dev->surfaces, a);
}

kcrt_status kcrt_check_texobj_arg(const kcrt_kernel *k, uint32_t i, const kcrt_arg *a) {
  const KcbParam *p = &k->k->params[i];
  kcrt_device *dev = k->mod->dev;
  bool tex = p->kind == KCB_PARAM_TEXTURE;
  const char *what = tex ? "texture" : "surface";
  const kcrt_image *img = NULL;
  if (tex) {
    const kcrt_texture *t = kcrt_texture_of(dev, a);
    img = t ? t->img : NULL;
  } else {
    const kcrt_surface *s = kcrt_surface_of(dev, a);
    img = s ? s->img : NULL;
  }
  if (!img) {
    /* CUDA takes the objects programs make with the CUDA API as they are; never libkcrt's own
     * objects of another kind (a kcrt_surface * for a texture is a pointer, not a handle: the
     * GPU faults on it). */
    bool kcrt_own = tex ? kcrt_surface_of(dev, a) != NULL : kcrt_texture_of(dev, a) != NULL;
    if (!kcrt_own) kcrt_own = handle_on(dev, &dev->images, a) || handle_on(dev, &dev->samplers, a);
    if (dev->be->raw_texobj && !kcrt_own && a->value && a->size == 8 && !a->buffer)
      return KCRT_SUCCESS;
    return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                     "kernel '%s' argument %u (%s %s) is a %s object: pass a live kcrt_%s * of "
                     "this device by value (KCRT_ARG_VALUE(handle))%s",
                     k->k->name, i + 1, p->type, p->name, what, what,
                     dev->be->raw_texobj ? ", or a CUDA object of 8 bytes" : "");
  }
  if ((int)img->desc.type != p->scalar)
    return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                     "kernel '%s' argument %u (%s %s): the kernel reads it as an %s, and the "
                     "%s's image is an %s",
                     k->k->name, i + 1, p->type, p->name, type_name((kcrt_image_type)p->scalar),
                     what, type_name(img->desc.type));
  return KCRT_SUCCESS;
}

void kcrt_images_release(kcrt_device *dev) {
  void *p;
  while ((p = kcrt_link_first(dev, &dev->textures))) kcrt_texture_free(p);
  while ((p = kcrt_link_first(dev, &dev->surfaces))) kcrt_surface_free(p);
  while ((p = kcrt_link_first(dev, &dev->images))) kcrt_image_free(p);
  while ((p = kcrt_link_first(dev, &dev->samplers))) kcrt_sampler_free(p);
}

kcrt_status kcrt_check_image_arg(const kcrt_kernel *k, uint32_t i, const kcrt_arg *a) {
  const KcbParam *p = &k->k->params[i];
  bool image = p->kind == KCB_PARAM_IMAGE;
  const char *what = image ? "image" : "sampler";
  if (a->buffer || !a->value || a->size != sizeof(void *))
    return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                     "kernel '%s' argument %u (%s %s) is an %s: pass the kcrt_%s * by value "
                     "(KCRT_ARG_VALUE(handle)), not %s",
                     k->k->name, i + 1, p->type, p->name, what, what,
                     a->buffer   ? "a buffer"
                     : !a->value ? "NULL"
                                 : "a value of another size");
  const void *h;
  memcpy(&h, a->value, sizeof h);
  const kcrt_image *img = h;
  const kcrt_sampler *s = h;
  if (!h || (image ? img->magic != KCRT_IMAGE_MAGIC : s->magic != KCRT_SAMPLER_MAGIC))
    return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                     "kernel '%s' argument %u (%s %s): not a live kcrt_%s", k->k->name, i + 1,
                     p->type, p->name, what);
  if ((image ? img->dev : s->dev) != k->mod->dev)
    return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                     "kernel '%s' argument %u (%s %s): the %s belongs to another device",
                     k->k->name, i + 1, p->type, p->name, what);
  if (image && (int)img->desc.type != p->scalar)
    return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                     "kernel '%s' argument %u (%s %s): the image is an %s", k->k->name, i + 1,
                     p->type, p->name, type_name(img->desc.type));
  return KCRT_SUCCESS;
}
