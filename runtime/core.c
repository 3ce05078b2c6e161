/* core.c — the public API over the back ends: argument checking, object lifetimes, and the
 * launch checks that run before any driver sees a launch. Back ends only ever receive calls
 * whose handles, ranges, arguments and dimensions have been validated here, so that every
 * back end reports the same errors with the same messages. */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- object lists */

static void list_init(KcrtLink *head) {
  head->prev = head->next = head;
}

static void list_add(kcrt_device *dev, KcrtLink *head, KcrtLink *l) {
  pthread_mutex_lock(&dev->lock);
  l->next = head->next;
  l->prev = head;
  head->next->prev = l;
  head->next = l;
  pthread_mutex_unlock(&dev->lock);
}

static void list_del(kcrt_device *dev, KcrtLink *l) {
  pthread_mutex_lock(&dev->lock);
  l->prev->next = l->next;
  l->next->prev = l->prev;
  l->prev = l->next = l;
  pthread_mutex_unlock(&dev->lock);
}

/* The first object of a list, or NULL (links are the first member of every object). */
static void *list_first(kcrt_device *dev, KcrtLink *head) {
  pthread_mutex_lock(&dev->lock);
  void *p = head->next == head ? NULL : head->next;
  pthread_mutex_unlock(&dev->lock);
  return p;
}

/* For the other files' objects (image.c). */
void kcrt_link_add(kcrt_device *dev, KcrtLink *head, KcrtLink *l) {
  list_add(dev, head, l);
}
void kcrt_link_del(kcrt_device *dev, KcrtLink *l) {
  list_del(dev, l);
}
void *kcrt_link_first(kcrt_device *dev, KcrtLink *head) {
  return list_first(dev, head);
}
bool kcrt_link_has(kcrt_device *dev, KcrtLink *head, const void *obj) {
  bool has = false;
  pthread_mutex_lock(&dev->lock);
  for (KcrtLink *l = head->next; l != head && !has; l = l->next) has = (const void *)l == obj;
  pthread_mutex_unlock(&dev->lock);
  return has;
}

/* ---------------------------------------------------------------- devices */

kcrt_status kcrt_device_open_entry(const KcrtDevEntry *e, kcrt_device **out) {
  kcrt_device *dev = calloc(1, sizeof *dev);
  kcrt_queue *q = calloc(1, sizeof *q);
  if (!dev || !q) {
    free(dev);
    free(q);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory opening a device");
  }
  dev->entry = e;
  dev->info = e->info;
  dev->be = e->be;
  pthread_mutex_init(&dev->lock, NULL);
  pthread_mutex_init(&dev->shared_lock, NULL);
  list_init(&dev->buffers);
  list_init(&dev->queues);
  list_init(&dev->events);
  list_init(&dev->modules);
  list_init(&dev->images);
  list_init(&dev->samplers);
  list_init(&dev->textures);
  list_init(&dev->surfaces);
  q->dev = dev;
  list_init(&q->link);
  dev->defq = q;
  kcrt_status st = dev->be->open(dev);
  if (st == KCRT_SUCCESS) {
    st = dev->be->queue_create(q);
    if (st != KCRT_SUCCESS) dev->be->close(dev);
  }
  if (st != KCRT_SUCCESS) {
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->shared_lock);
    free(q);
    free(dev);
    return st;
  }
  kcrt_log("opened %s device %d: %s", dev->be->name, e->info.backend_index, e->info.name);
  *out = dev;
  return KCRT_SUCCESS;
}

static void module_free(kcrt_module *m);

kcrt_status kcrt_device_close(kcrt_device *dev) {
  if (!dev) return KCRT_SUCCESS;
  kcrt_status st = kcrt_device_synchronize(dev);
  void *p;
  /* Every module, kcrt_module_get's too (kcrt_module_unload would refuse those). */
  while ((p = list_first(dev, &dev->modules))) module_free(p);
  dev->shared = NULL;
  while ((p = list_first(dev, &dev->events))) kcrt_event_destroy(p);
  while ((p = list_first(dev, &dev->queues))) kcrt_queue_destroy(p);
  kcrt_images_release(dev);
  for (;;) { /* views before their parents (kcrt_buffer_free refuses a parent with views) */
    kcrt_buffer *v = NULL;
    pthread_mutex_lock(&dev->lock);
    for (KcrtLink *l = dev->buffers.next; l != &dev->buffers && !v; l = l->next)
      if (((kcrt_buffer *)l)->view_of) v = (kcrt_buffer *)l;
    pthread_mutex_unlock(&dev->lock);
    if (!v) break;
    kcrt_buffer_free(v);
  }
  while ((p = list_first(dev, &dev->buffers))) kcrt_buffer_free(p);
  dev->be->queue_destroy(dev->defq);
  free(dev->defq);
  dev->be->close(dev);
  pthread_mutex_destroy(&dev->lock);
  pthread_mutex_destroy(&dev->shared_lock);
  free(dev);
  return st;
}

kcrt_status kcrt_device_get_info(kcrt_device *dev, kcrt_device_info *info) {
  if (!dev || !info) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_get_info: NULL");
  *info = dev->info;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_device_synchronize(kcrt_device *dev) {
  if (!dev) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_synchronize: NULL device");
  kcrt_status st = dev->be->queue_sync(dev->defq);
  /* Queues are only created and destroyed under the lock, but syncing under it would block
   * every other thread's object creation for the duration: collect, then wait. */
  pthread_mutex_lock(&dev->lock);
  size_t n = 0;
  for (KcrtLink *l = dev->queues.next; l != &dev->queues; l = l->next) n++;
  kcrt_queue **qs = malloc((n ? n : 1) * sizeof *qs);
  n = 0;
  if (qs)
    for (KcrtLink *l = dev->queues.next; l != &dev->queues; l = l->next) qs[n++] = (kcrt_queue *)l;
  pthread_mutex_unlock(&dev->lock);
  if (!qs) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  for (size_t i = 0; i < n; i++) {
    kcrt_status s = dev->be->queue_sync(qs[i]);
    if (st == KCRT_SUCCESS) st = s;
  }
  free(qs);
  return kcrt_bounds_poll(dev, st);
}

/* ---------------------------------------------------------------- buffers */

kcrt_status kcrt_buffer_alloc(kcrt_device *dev, size_t size, kcrt_buffer **out) {
  if (!dev || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_alloc: NULL");
  if (size == 0) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_alloc: size is 0");
  if (dev->info.max_alloc_bytes && size > dev->info.max_alloc_bytes)
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY,
                     "cannot allocate %zu bytes: the device's largest buffer is %llu bytes (%s)",
                     size, (unsigned long long)dev->info.max_alloc_bytes, dev->info.name);
  kcrt_buffer *b = calloc(1, sizeof *b);
  if (!b) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  b->dev = dev;
  b->size = size;
  kcrt_status st = dev->be->mem_alloc(b);
  if (st != KCRT_SUCCESS) {
    free(b);
    return st;
  }
  list_add(dev, &dev->buffers, &b->link);
  *out = b;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_buffer_free(kcrt_buffer *b) {
  if (!b) return KCRT_SUCCESS;
  if (b->symbol_of)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_free: this buffer is a module symbol's storage "
                     "(kcrt_module_symbol); its module frees it");
  pthread_mutex_lock(&b->dev->lock);
  int views = b->nviews;
  pthread_mutex_unlock(&b->dev->lock);
  if (views)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_free: %d view%s of this buffer (kcrt_buffer_view) %s still "
                     "alive; free %s first",
                     views, views == 1 ? "" : "s", views == 1 ? "is" : "are",
                     views == 1 ? "it" : "them");
  list_del(b->dev, &b->link);
  b->dev->be->mem_free(b);
  if (b->view_of) {
    pthread_mutex_lock(&b->dev->lock);
    b->view_of->nviews--;
    pthread_mutex_unlock(&b->dev->lock);
  }
  free(b);
  return KCRT_SUCCESS;
}

kcrt_status kcrt_buffer_address(const kcrt_buffer *b, uint64_t *address) {
  if (!b || !address) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_address: NULL");
  /* Vulkan buffers have one too: what a struct parameter's pointer member holds there. */
  if (!b->dev->be->mem_wrap && b->dev->be->id != KCRT_BACKEND_VULKAN)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kcrt_buffer_address: %s buffers have no device address to share (CUDA "
                     "and Vulkan devices only)",
                     b->dev->be->name);
  *address = b->dptr;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_buffer_wrap(kcrt_device *dev, uint64_t address, size_t size, kcrt_buffer **out) {
  if (!dev || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_wrap: NULL");
  if (!dev->be->mem_wrap)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kcrt_buffer_wrap: %s devices cannot use other libraries' device memory "
                     "(CUDA devices only)",
                     dev->be->name);
  if (!address || !size)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_wrap: %s is 0",
                     address ? "size" : "the address");
  kcrt_buffer *b = calloc(1, sizeof *b);
  if (!b) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  b->dev = dev;
  b->size = size;
  b->dptr = address;
  b->borrowed = true;
  kcrt_status st = dev->be->mem_wrap(b);
  if (st != KCRT_SUCCESS) {
    free(b);
    return st;
  }
  list_add(dev, &dev->buffers, &b->link);
  *out = b;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_device_wait_stream(kcrt_device *dev, uint64_t stream) {
  if (!dev) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_wait_stream: NULL");
  if (!dev->be->wait_stream)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kcrt_device_wait_stream: %s devices have no CUDA streams", dev->be->name);
  return dev->be->wait_stream(dev, stream);
}

kcrt_status kcrt_buffer_view(kcrt_buffer *parent, size_t offset, size_t size, kcrt_buffer **out) {
  if (!parent || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_view: NULL");
  if (parent->symbol_of)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_view: a module symbol's storage cannot have views");
  if (size == 0 || offset > parent->size || size > parent->size - offset)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_view: range [%zu, %zu + %zu) is not a non-empty part of the "
                     "%zu-byte buffer",
                     offset, offset, size, parent->size);
  if (parent->view_of)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_view: the buffer is itself a view; make the view from its "
                     "parent");
  kcrt_buffer *v = calloc(1, sizeof *v);
  if (!v) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  v->dev = parent->dev;
  v->size = size;
  v->view_of = parent;
  v->elem_type = parent->elem_type;
  v->elem_size = parent->elem_size;
  kcrt_status st = parent->dev->be->mem_view(v, parent, offset);
  if (st) {
    free(v);
    return st;
  }
  pthread_mutex_lock(&parent->dev->lock);
  parent->nviews++;
  pthread_mutex_unlock(&parent->dev->lock);
  list_add(parent->dev, &parent->dev->buffers, &v->link);
  *out = v;
  return KCRT_SUCCESS;
}

size_t kcrt_buffer_size(const kcrt_buffer *b) {
  return b ? b->size : 0;
}

/* The public element codes are the bundle's scalar codes, so that a tag compares directly
 * with a kernel table's pointee code. */
_Static_assert(KCRT_TYPE_BOOL == (int)KCB_T_BOOL && KCRT_TYPE_INT8 == (int)KCB_T_I8 &&
                   KCRT_TYPE_INT16 == (int)KCB_T_I16 && KCRT_TYPE_INT32 == (int)KCB_T_I32 &&
                   KCRT_TYPE_INT64 == (int)KCB_T_I64 && KCRT_TYPE_UINT8 == (int)KCB_T_U8 &&
                   KCRT_TYPE_UINT16 == (int)KCB_T_U16 && KCRT_TYPE_UINT32 == (int)KCB_T_U32 &&
                   KCRT_TYPE_UINT64 == (int)KCB_T_U64 && KCRT_TYPE_FLOAT == (int)KCB_T_F32 &&
                   KCRT_TYPE_DOUBLE == (int)KCB_T_F64,
               "kcrt_elem_type and KcbScalar must agree");

/* The size of a scalar or vector element type (kcrt_elem_type), 0 for the others. */
static size_t scalar_size(int t) {
  int len = KCRT_TYPE_LEN_OF(t), sc = KCRT_TYPE_SCALAR_OF(t);
  if (len && (sc == KCB_T_BOOL || !(len == 2 || len == 3 || len == 4 || len == 8 || len == 16)))
    return 0;
  if (t & ~0x1fff) return 0;
  return kcb_elem_size(sc, len);
}

/* An element type as the kernel language spells it, for launch messages ("int", "float4",
 * "8-byte structs"). */
static const char *elem_name(char *s, size_t n, int t, size_t size) {
  static const char *const names[] = {[KCB_T_BOOL] = "bool",          [KCB_T_I8] = "char",
                                      [KCB_T_I16] = "short",          [KCB_T_I32] = "int",
                                      [KCB_T_I64] = "long",           [KCB_T_U8] = "unsigned char",
                                      [KCB_T_U16] = "unsigned short", [KCB_T_U32] = "unsigned int",
                                      [KCB_T_U64] = "unsigned long",  [KCB_T_F32] = "float",
                                      [KCB_T_F64] = "double"};
  static const char *const vnames[] = {
      [KCB_T_I8] = "char",   [KCB_T_I16] = "short",  [KCB_T_I32] = "int",  [KCB_T_I64] = "long",
      [KCB_T_U8] = "uchar",  [KCB_T_U16] = "ushort", [KCB_T_U32] = "uint", [KCB_T_U64] = "ulong",
      [KCB_T_F32] = "float", [KCB_T_F64] = "double"};
  if (scalar_size(t) && KCRT_TYPE_LEN_OF(t)) {
    snprintf(s, n, "%s%d", vnames[KCRT_TYPE_SCALAR_OF(t)], KCRT_TYPE_LEN_OF(t));
    return s;
  }
  if (scalar_size(t)) return names[t];
  snprintf(s, n, "%zu-byte structs", size);
  return s;
}

/* The element type of a parameter's table entry: its scalar, vector or pointee code. */
static int param_elem(const KcbParam *p) {
  /* An image's scalar field is its dimension (KcbImageDim), not an element type. */
  if (p->kind == KCB_PARAM_IMAGE || p->kind == KCB_PARAM_SAMPLER || p->kind == KCB_PARAM_TEXTURE ||
      p->kind == KCB_PARAM_SURFACE)
    return KCRT_TYPE_NONE;
  if (!kcb_elem_size(p->scalar, 0)) return KCRT_TYPE_NONE;
  return p->vec_len ? (int)KCRT_TYPE_VECTOR(p->scalar, p->vec_len) : p->scalar;
}

const unsigned char kcrt_local_marker = 0;

kcrt_status kcrt_buffer_set_type(kcrt_buffer *b, kcrt_elem_type type, size_t elem_size) {
  if (!b) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_set_type: NULL buffer");
  size_t natural = scalar_size(type);
  if (type == KCRT_TYPE_NONE) {
    if (elem_size)
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                       "kcrt_buffer_set_type: KCRT_TYPE_NONE (no tag) takes elem_size 0, not %zu",
                       elem_size);
  } else if (natural) {
    if (!elem_size) elem_size = natural;
    if (elem_size != natural) {
      char s[32];
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                       "kcrt_buffer_set_type: %s elements are %zu bytes, not %zu",
                       elem_name(s, sizeof s, type, 0), natural, elem_size);
    }
  } else if (type == KCRT_TYPE_STRUCT) {
    if (!elem_size)
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                       "kcrt_buffer_set_type: KCRT_TYPE_STRUCT needs the struct's size");
  } else {
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_set_type: unknown element type %d",
                     (int)type);
  }
  if (elem_size && b->size % elem_size)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_set_type: a %zu-byte buffer cannot hold %zu-byte elements",
                     b->size, elem_size);
  b->elem_type = type;
  b->elem_size = elem_size;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_buffer_get_type(const kcrt_buffer *b, kcrt_elem_type *type, size_t *elem_size) {
  if (!b) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_get_type: NULL buffer");
  if (type) *type = b->elem_type;
  if (elem_size) *elem_size = b->elem_size;
  return KCRT_SUCCESS;
}

static kcrt_status check_range(const char *fn, const kcrt_buffer *b, size_t off, size_t n) {
  if (!b) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "%s: NULL buffer", fn);
  if (off > b->size || n > b->size - off)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "%s: range [%zu, %zu + %zu) is outside the %zu-byte buffer", fn, off, off, n,
                     b->size);
  return KCRT_SUCCESS;
}

kcrt_status kcrt_buffer_write(kcrt_buffer *dst, size_t off, const void *src, size_t n) {
  kcrt_status st = check_range("kcrt_buffer_write", dst, off, n);
  if (st) return st;
  if (!n) return KCRT_SUCCESS;
  if (!src) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_write: NULL source");
  return dst->dev->be->mem_write(dst, off, src, n);
}

kcrt_status kcrt_buffer_from(kcrt_device *dev, const void *src, size_t size, kcrt_buffer **out) {
  if (!out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_from: NULL out");
  if (!src) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_from: NULL source");
  kcrt_buffer *b = NULL;
  kcrt_status st = kcrt_buffer_alloc(dev, size, &b);
  if (st) return st;
  st = kcrt_buffer_write(b, 0, src, size);
  if (st) {
    kcrt_buffer_free(b);
    return st;
  }
  *out = b;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_buffer_read(kcrt_buffer *src, size_t off, void *dst, size_t n) {
  kcrt_status st = check_range("kcrt_buffer_read", src, off, n);
  if (st) return st;
  if (!n) return KCRT_SUCCESS;
  if (!dst) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_read: NULL destination");
  return kcrt_bounds_poll(src->dev, src->dev->be->mem_read(src, off, dst, n));
}

/* A copy between two devices: peer to peer where the back end can (CUDA: cuMemcpyPeer),
 * else through host memory in pieces of at most 64 MiB. Blocking, as every buffer copy. */
static kcrt_status copy_between(kcrt_buffer *dst, size_t doff, kcrt_buffer *src, size_t soff,
                                size_t n) {
  if (!n) return KCRT_SUCCESS;
  if (dst->dev->be == src->dev->be && dst->dev->be->mem_copy_peer)
    return dst->dev->be->mem_copy_peer(dst, doff, src, soff, n);
  size_t piece = n < ((size_t)64 << 20) ? n : (size_t)64 << 20;
  void *tmp = malloc(piece);
  if (!tmp) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  kcrt_status st = KCRT_SUCCESS;
  for (size_t done = 0; !st && done < n; done += piece) {
    size_t k = n - done < piece ? n - done : piece;
    st = src->dev->be->mem_read(src, soff + done, tmp, k);
    if (!st) st = dst->dev->be->mem_write(dst, doff + done, tmp, k);
  }
  free(tmp);
  return st;
}

kcrt_status kcrt_buffer_copy(kcrt_buffer *dst, size_t doff, kcrt_buffer *src, size_t soff,
                             size_t n) {
  kcrt_status st = check_range("kcrt_buffer_copy", dst, doff, n);
  if (!st) st = check_range("kcrt_buffer_copy", src, soff, n);
  if (st) return st;
  if (dst->dev != src->dev) return copy_between(dst, doff, src, soff, n);
  /* OpenCL refuses overlapping copies and CUDA leaves them undefined: refuse them here. */
  if (dst == src && doff < soff + n && soff < doff + n)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_buffer_copy: source and destination overlap");
  if (!n) return KCRT_SUCCESS;
  return dst->dev->be->mem_copy(dst, doff, src, soff, n);
}

kcrt_status kcrt_buffer_fill(kcrt_buffer *dst, size_t off, unsigned char byte, size_t n) {
  kcrt_status st = check_range("kcrt_buffer_fill", dst, off, n);
  if (st) return st;
  if (!n) return KCRT_SUCCESS;
  return dst->dev->be->mem_fill(dst, off, byte, n);
}

/* ---------------------------------------------------------------- queues, events */

kcrt_status kcrt_queue_create(kcrt_device *dev, kcrt_queue **out) {
  if (!dev || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_queue_create: NULL");
  kcrt_queue *q = calloc(1, sizeof *q);
  if (!q) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  q->dev = dev;
  kcrt_status st = dev->be->queue_create(q);
  if (st) {
    free(q);
    return st;
  }
  list_add(dev, &dev->queues, &q->link);
  *out = q;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_queue_destroy(kcrt_queue *q) {
  if (!q) return KCRT_SUCCESS;
  kcrt_status st = q->dev->be->queue_sync(q);
  list_del(q->dev, &q->link);
  q->dev->be->queue_destroy(q);
  free(q);
  return st;
}

kcrt_status kcrt_queue_synchronize(kcrt_queue *q) {
  if (!q)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_queue_synchronize: NULL queue (use kcrt_device_synchronize)");
  return kcrt_bounds_poll(q->dev, q->dev->be->queue_sync(q));
}

kcrt_status kcrt_event_create(kcrt_device *dev, kcrt_event **out) {
  if (!dev || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_event_create: NULL");
  kcrt_event *e = calloc(1, sizeof *e);
  if (!e) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  e->dev = dev;
  kcrt_status st = dev->be->event_create(e);
  if (st) {
    free(e);
    return st;
  }
  list_add(dev, &dev->events, &e->link);
  *out = e;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_event_destroy(kcrt_event *e) {
  if (!e) return KCRT_SUCCESS;
  list_del(e->dev, &e->link);
  e->dev->be->event_destroy(e);
  free(e);
  return KCRT_SUCCESS;
}

static kcrt_queue *pick_queue(kcrt_device *dev, kcrt_queue *q) {
  return q ? q : dev->defq;
}

kcrt_status kcrt_event_record(kcrt_event *e, kcrt_queue *q) {
  if (!e) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_event_record: NULL event");
  if (q && q->dev != e->dev)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_event_record: queue of another device");
  kcrt_status st = e->dev->be->event_record(e, pick_queue(e->dev, q));
  if (!st) e->recorded = true;
  return st;
}

kcrt_status kcrt_event_synchronize(kcrt_event *e) {
  if (!e) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_event_synchronize: NULL event");
  if (!e->recorded) return KCRT_SUCCESS; /* nothing to wait for, as in CUDA */
  return kcrt_bounds_poll(e->dev, e->dev->be->event_sync(e));
}

kcrt_event *kcrt_event_mark(kcrt_device *dev, kcrt_queue *q) {
  kcrt_event *e = NULL;
  if (kcrt_event_create(dev, &e)) return NULL;
  if (kcrt_event_record(e, q)) {
    kcrt_event_destroy(e);
    return NULL;
  }
  return e;
}

double kcrt_event_ms(kcrt_event *start, kcrt_event *end) {
  double ms = NAN;
  return kcrt_event_elapsed_ms(start, end, &ms) ? NAN : ms;
}

const char *kcrt_device_describe(kcrt_device *dev) {
  static _Thread_local char text[sizeof(((kcrt_device_info *)0)->name) + 160];
  kcrt_device_info info;
  if (kcrt_device_get_info(dev, &info)) return NULL;
  snprintf(text, sizeof text, "%s (%s, %s)", info.name,
           info.backend == KCRT_BACKEND_CUDA     ? "CUDA"
           : info.backend == KCRT_BACKEND_OPENCL ? "OpenCL"
                                                 : "Vulkan",
           info.platform);
  return text;
}

kcrt_status kcrt_event_elapsed_ms(kcrt_event *a, kcrt_event *b, double *ms) {
  if (!a || !b || !ms) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_event_elapsed_ms: NULL");
  if (a->dev != b->dev)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_event_elapsed_ms: events of two devices");
  if (!a->recorded || !b->recorded)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_event_elapsed_ms: the %s event was never recorded",
                     a->recorded ? "end" : "start");
  return a->dev->be->event_elapsed(a, b, ms);
}

/* ---------------------------------------------------------------- modules, kernels */

/* Storage for every host-filled variable of the module, zero-filled, before the first launch
 * can need it (OpenCL binds it to every launch of a kernel that reads it). */
static kcrt_status symbols_init(kcrt_module *m) {
  const KcbBundle *b = m->b;
  if (!b->nsymbols) return KCRT_SUCCESS;
  m->symbols = calloc(b->nsymbols, sizeof *m->symbols);
  if (!m->symbols) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  for (uint32_t i = 0; i < b->nsymbols; i++) {
    kcrt_buffer *s = calloc(1, sizeof *s);
    if (!s) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
    m->symbols[i] = s;
    s->dev = m->dev;
    s->size = (size_t)b->symbols[i].size;
    s->symbol_of = m;
    kcrt_status st = m->dev->be->symbol_init(m, &b->symbols[i], s);
    if (st) { /* nothing to release but the struct: module_free skips the empty slot */
      free(s);
      m->symbols[i] = NULL;
      return st;
    }
    /* A CUDA __device__ variable starts at its initializer (the module's own copy on CUDA
     * was just zeroed with the rest). */
    if (b->symbols[i].init) {
      st = kcrt_buffer_write(s, 0, b->symbols[i].init, s->size);
      if (st) return st; /* the slot is filled: module_free releases it */
    }
  }
  return KCRT_SUCCESS;
}

kcrt_status kcrt_module_symbol(kcrt_module *m, const char *name, kcrt_buffer **out) {
  if (!m || !name || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_module_symbol: NULL");
  int i = kcb_symbol(m->b, name);
  if (i < 0) {
    /* Name what there is: a constant with an initializer is no symbol, and a typo is common. */
    char list[512] = "";
    size_t n = 0;
    for (uint32_t j = 0; j < m->b->nsymbols && n < sizeof list - 64; j++)
      n += (size_t)snprintf(list + n, sizeof list - n, "%s'%s'", j ? ", " : "",
                            m->b->symbols[j].name);
    return kcrt_fail(KCRT_ERROR_SYMBOL_NOT_FOUND,
                     "the module has no host-filled variable '%s' (%s%s); only 'constant' "
                     "variables declared without an initializer are written by the host",
                     name, m->b->nsymbols ? "it has " : "it has none", list);
  }
  *out = m->symbols[i];
  return KCRT_SUCCESS;
}

kcrt_status kcrt_module_load(kcrt_device *dev, const void *data, size_t size, kcrt_module **out) {
  if (!dev || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_module_load: NULL");
  double t0 = kcrt_now_ms();
  KcbBundle *b;
  kcrt_status st = kcb_parse(data, size, &b);
  if (st) return st;
  /* Double precision on a device without it: refused here, naming the kernel, rather than by
   * a driver's build (an obscure log) or, worse, at run time. */
  for (uint32_t i = 0; i < b->nkernels && !dev->info.fp64; i++)
    if (b->kernels[i].flags & KCB_KERNEL_FP64) {
      kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                "kernel '%s'%s%s uses double precision, which %s does not support (no fp64); "
                "use float there, or run the module on a device with fp64",
                b->kernels[i].name, *b->source ? " of " : "", b->source, dev->info.name);
      kcb_free(b);
      return KCRT_ERROR_NOT_SUPPORTED;
    }
  kcrt_module *m = calloc(1, sizeof *m);
  if (m) m->kernels = calloc(b->nkernels ? b->nkernels : 1, sizeof *m->kernels);
  if (!m || !m->kernels) {
    if (m) free(m->kernels);
    free(m);
    kcb_free(b);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  m->dev = dev;
  m->b = b;
  pthread_mutex_init(&m->lock, NULL);
  st = dev->be->module_load(m);
  if (st) {
    pthread_mutex_destroy(&m->lock);
    free(m->kernels);
    free(m);
    kcb_free(b);
    return st;
  }
  st = symbols_init(m);
  if (!st) st = kcrt_bounds_init(m);
  if (st) {
    module_free(m);
    return st;
  }
  list_add(dev, &dev->modules, &m->link);
  kcrt_log("module %s (%u kernels) loaded on %s in %.1f ms", *b->source ? b->source : "?",
           b->nkernels, dev->info.name, kcrt_now_ms() - t0);
  *out = m;
  return KCRT_SUCCESS;
}

kcrt_status kcrt_module_load_file(kcrt_device *dev, const char *path, kcrt_module **out) {
  if (!dev || !path || !out)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_module_load_file: NULL");
  FILE *f = fopen(path, "rb");
  if (!f) return kcrt_fail(KCRT_ERROR_IO, "cannot open '%s': %s", path, strerror(errno));
  char *data = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      char *d = realloc(data, cap);
      if (!d) {
        free(data);
        fclose(f);
        return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory reading '%s'", path);
      }
      data = d;
    }
    size_t n = fread(data + len, 1, cap - len, f);
    len += n;
    if (n == 0) break;
  }
  bool err = ferror(f);
  fclose(f);
  if (err) {
    free(data);
    return kcrt_fail(KCRT_ERROR_IO, "cannot read '%s'", path);
  }
  kcrt_status st = kcrt_module_load(dev, data, len, out);
  free(data);
  if (st == KCRT_ERROR_INVALID_MODULE) {
    /* Name the file: "invalid bundle: ..." alone does not say which one. */
    char *msg = strdup(kcrt_last_error());
    kcrt_fail(st, "%s: %s", path, msg ? msg : "");
    free(msg);
  }
  return st;
}

kcrt_status kcrt_module_get(kcrt_device *dev, const void *data, size_t size, kcrt_module **out) {
  if (!dev || !data || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_module_get: NULL");
  /* The address and size are the key; the checksum field (8 bytes, no hashing) tells apart
   * a bundle that another one replaced at the same address. */
  const unsigned char *img = data;
  uint64_t sum = size >= KCB_HEADER_SIZE ? kcb_get64(img + KCB_H_CHECKSUM) : 0;
  kcrt_module *m;
  kcrt_status st = KCRT_SUCCESS;
  pthread_mutex_lock(&dev->shared_lock);
  for (m = dev->shared; m; m = m->shared_next)
    if (m->key == data && m->key_size == size && m->key_sum == sum) break;
  if (!m) {
    /* Loaded under the lock: threads racing for the first launch wait for one load instead
     * of each running the driver's compiler. */
    st = kcrt_module_load(dev, data, size, &m);
    if (st == KCRT_SUCCESS) {
      m->shared = true;
      m->key = data;
      m->key_size = size;
      m->key_sum = sum;
      m->shared_next = dev->shared;
      dev->shared = m;
    }
  }
  pthread_mutex_unlock(&dev->shared_lock);
  if (st == KCRT_SUCCESS) *out = m;
  return st;
}

kcrt_status kcrt_module_unload(kcrt_module *m) {
  if (!m) return KCRT_SUCCESS;
  /* Others may hold the same handle from kcrt_module_get: unloading it would pull it from
   * under them (and leave a dangling entry), so it stays until kcrt_device_close. */
  if (m->shared)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_module_unload: this module belongs to its device (kcrt_module_get); "
                     "kcrt_device_close releases it");
  module_free(m);
  return KCRT_SUCCESS;
}

static void module_free(kcrt_module *m) {
  if (m->link.next) list_del(m->dev, &m->link);
  for (uint32_t i = 0; m->symbols && i < m->b->nsymbols; i++) {
    kcrt_buffer *s = m->symbols[i];
    if (s && !s->borrowed) m->dev->be->mem_free(s);
    free(s);
  }
  free(m->symbols);
  kcrt_bounds_free(m);
  for (uint32_t i = 0; i < m->b->nkernels; i++) {
    kcrt_kernel *k = m->kernels[i];
    if (!k) continue;
    m->dev->be->kernel_release(k);
    pthread_mutex_destroy(&k->lock);
    free(k);
  }
  m->dev->be->module_unload(m);
  pthread_mutex_destroy(&m->lock);
  free(m->kernels);
  kcb_free(m->b);
  free(m);
}

kcrt_status kcrt_module_kernel_count(kcrt_module *m, int *count) {
  if (!m || !count) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_module_kernel_count: NULL");
  *count = (int)m->b->nkernels;
  return KCRT_SUCCESS;
}

const char *kcrt_module_kernel_name(kcrt_module *m, int i) {
  return m && i >= 0 && (uint32_t)i < m->b->nkernels ? m->b->kernels[i].name : NULL;
}

kcrt_status kcrt_kernel_get(kcrt_module *m, const char *name, kcrt_kernel **out) {
  if (!m || !name || !out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_kernel_get: NULL");
  const KcbKernel *kk = kcb_kernel(m->b, name);
  if (!kk) {
    kcrt_fail(KCRT_ERROR_KERNEL_NOT_FOUND, "no kernel '%s' in module %s; it has: ", name,
              *m->b->source ? m->b->source : "(unnamed)");
    for (uint32_t i = 0; i < m->b->nkernels; i++) {
      if (i) kcrt_error_append(", ");
      kcrt_error_append(m->b->kernels[i].name);
    }
    if (!m->b->nkernels) kcrt_error_append("no kernels");
    return KCRT_ERROR_KERNEL_NOT_FOUND;
  }
  size_t idx = (size_t)(kk - m->b->kernels);
  kcrt_status st = KCRT_SUCCESS;
  pthread_mutex_lock(&m->lock);
  if (!m->kernels[idx]) {
    kcrt_kernel *k = calloc(1, sizeof *k);
    if (!k) {
      st = kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
    } else {
      k->mod = m;
      k->k = kk;
      k->static_shared = kk->static_shared_bytes;
      k->max_threads = m->dev->info.max_threads_per_block;
      pthread_mutex_init(&k->lock, NULL);
      st = m->dev->be->kernel_init(k);
      if (st) {
        pthread_mutex_destroy(&k->lock);
        free(k);
      } else {
        m->kernels[idx] = k;
      }
    }
  }
  pthread_mutex_unlock(&m->lock);
  if (!st) *out = m->kernels[idx];
  return st;
}

kcrt_status kcrt_kernel_get_info(kcrt_kernel *k, kcrt_kernel_info *info) {
  if (!k || !info) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_kernel_get_info: NULL");
  info->name = k->k->name;
  info->num_params = (int)k->k->nparams;
  info->static_shared_bytes = k->static_shared;
  info->uses_dynamic_shared = (k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) != 0;
  info->max_threads_per_block = k->max_threads;
  for (int d = 0; d < 3; d++) info->required_block[d] = k->k->reqd_block[d];
  return KCRT_SUCCESS;
}

kcrt_status kcrt_kernel_param_info(kcrt_kernel *k, int i, kcrt_param_info *info) {
  if (!k || !info) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_kernel_param_info: NULL");
  if (i < 0 || (uint32_t)i >= k->k->nparams)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kernel '%s' has no parameter %d (it has %u)",
                     k->k->name, i, k->k->nparams);
  const KcbParam *p = &k->k->params[i];
  info->name = p->name;
  info->type = p->type;
  info->kind = (kcrt_param_kind)p->kind;
  info->size = p->size;
  info->align = p->align;
  info->elem_type = (kcrt_elem_type)param_elem(p);
  return KCRT_SUCCESS;
}

/* ---------------------------------------------------------------- launch */

/* "int n", "const float *a": the parameter as the source declared it, for messages. */
static char *param_decl(char *s, size_t n, const KcbParam *p) {
  size_t tl = strlen(p->type);
  bool star = tl && p->type[tl - 1] == '*';
  snprintf(s, n, "%s%s%s", p->type, star || !*p->name ? "" : " ", p->name);
  return s;
}

static kcrt_status check_args(const kcrt_kernel *k, const kcrt_arg *args, int nargs) {
  const KcbKernel *kk = k->k;
  if (nargs < 0 || (uint32_t)nargs != kk->nparams || (nargs && !args)) {
    kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT, "kernel '%s' takes %u argument%s (", kk->name,
              kk->nparams, kk->nparams == 1 ? "" : "s");
    for (uint32_t i = 0; i < kk->nparams; i++) {
      char d[300];
      param_decl(d, sizeof d, &kk->params[i]);
      if (i) kcrt_error_append(", ");
      kcrt_error_append(d);
    }
    char tail[64];
    snprintf(tail, sizeof tail, "), got %d", nargs);
    kcrt_error_append(tail);
    return KCRT_ERROR_INVALID_ARGUMENT;
  }
  for (uint32_t i = 0; i < kk->nparams; i++) {
    const KcbParam *p = &kk->params[i];
    const kcrt_arg *a = &args[i];
    /* The parameter's declaration is formatted only for a message: formatting it for every
     * argument of every launch cost 0.97 us for 4 arguments on the development VM, about the
     * whole 0.53-0.59 us kcrt_launch spent above a raw cuLaunchKernel (issue 14). */
    char d[300];
    bool local = a->value == &kcrt_local_marker;
    if (p->kind == KCB_PARAM_LOCAL) {
      if (!local)
        return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                         "kernel '%s' argument %u (%s) is local memory: pass its size in bytes "
                         "(kcrt_local(bytes)), not a %s",
                         kk->name, i + 1, param_decl(d, sizeof d, p),
                         a->buffer ? "buffer" : "value");
      if (a->size == 0)
        return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                         "kernel '%s' argument %u (%s): local memory of 0 bytes (kcrt_local "
                         "needs a size > 0)",
                         kk->name, i + 1, param_decl(d, sizeof d, p));
      if (a->buffer)
        return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                         "kernel '%s' argument %u (%s): kcrt_local with a buffer", kk->name, i + 1,
                         param_decl(d, sizeof d, p));
      continue;
    }
    if (local)
      return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                       "kernel '%s' argument %u (%s) is not local memory: kcrt_local(%zu) is "
                       "only for `shared T *` (`__local T *`) parameters; pass %s",
                       kk->name, i + 1, param_decl(d, sizeof d, p), a->size,
                       p->kind == KCB_PARAM_POINTER ? "a buffer" : "its value");
    if (p->kind == KCB_PARAM_IMAGE || p->kind == KCB_PARAM_SAMPLER) {
      kcrt_status s = kcrt_check_image_arg(k, i, a);
      if (s != KCRT_SUCCESS) return s;
      continue;
    }
    if (p->kind == KCB_PARAM_TEXTURE || p->kind == KCB_PARAM_SURFACE) {
      kcrt_status s = kcrt_check_texobj_arg(k, i, a);
      if (s != KCRT_SUCCESS) return s;
      continue;
    }
    if (p->kind == KCB_PARAM_POINTER) {
      if (a->value || a->size)
        return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                         "kernel '%s' argument %u (%s) is a pointer: pass a buffer "
                         "(KCRT_ARG_BUFFER), not %zu bytes of value",
                         kk->name, i + 1, param_decl(d, sizeof d, p), a->size);
      if (a->buffer && a->buffer->dev != k->mod->dev)
        return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                         "kernel '%s' argument %u (%s): the buffer belongs to another device",
                         kk->name, i + 1, param_decl(d, sizeof d, p));
      /* Only scalar and vector pointees have a code in the table to compare a tag with; an
       * untagged buffer, or a void/struct/pointer pointee, is taken as it is. */
      int want = param_elem(p);
      if (a->buffer && a->buffer->elem_type != KCRT_TYPE_NONE && want != KCRT_TYPE_NONE &&
          (int)a->buffer->elem_type != want) {
        char s1[48], s2[48];
        return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                         "kernel '%s' argument %u%s%s%s: buffer holds %s, kernel expects %s (%s)",
                         kk->name, i + 1, *p->name ? " '" : "", p->name, *p->name ? "'" : "",
                         elem_name(s1, sizeof s1, a->buffer->elem_type, a->buffer->elem_size),
                         elem_name(s2, sizeof s2, want, 0), param_decl(d, sizeof d, p));
      }
      continue;
    }
    if (a->buffer)
      return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                       "kernel '%s' argument %u (%s) takes a %u-byte value, not a buffer", kk->name,
                       i + 1, param_decl(d, sizeof d, p), p->size);
    if (!a->value)
      return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                       "kernel '%s' argument %u (%s) has no value (NULL)", kk->name, i + 1,
                       param_decl(d, sizeof d, p));
    if (a->size != p->size)
      return kcrt_fail(KCRT_ERROR_INVALID_ARGUMENT,
                       "kernel '%s' argument %u (%s) is %u bytes, got %zu", kk->name, i + 1,
                       param_decl(d, sizeof d, p), p->size, a->size);
  }
  return KCRT_SUCCESS;
}

uint64_t kcrt_local_layout(const KcbKernel *k, const kcrt_arg *args, size_t dyn,
                           uint32_t *offsets) {
  uint64_t end = dyn;
  for (uint32_t i = 0; i < k->nparams && k->nlocal; i++) {
    if (k->params[i].kind != KCB_PARAM_LOCAL) continue;
    uint64_t at = (end + 15) / 16 * 16;
    if (at < end || __builtin_add_overflow(at, (uint64_t)args[i].size, &end) || end > UINT32_MAX)
      return UINT64_MAX; /* the offsets are 32-bit: no device has that much shared memory */
    if (offsets) offsets[i] = (uint32_t)at;
  }
  return end;
}

/* The launch warning for an `extern shared` array given 0 bytes (in `buf`, or a static
 * buffer when buf is NULL). */
static const char *dyn0_message(const kcrt_kernel *k, char *buf, size_t n) {
  static __thread char own[512];
  if (!buf) buf = own, n = sizeof own;
  snprintf(buf, n,
           "kernel '%s' has an 'extern shared' array but is launched with 0 dynamic shared "
           "bytes: any access to it is out of bounds",
           k->k->name);
  return buf;
}

static kcrt_status check_dims(const kcrt_kernel *k, const uint64_t grid[3], const uint64_t block[3],
                              size_t dyn, uint64_t region) {
  const kcrt_device_info *f = &k->mod->dev->info;
  static const char xyz[] = "xyz";
  for (int d = 0; d < 3; d++) {
    if (block[d] == 0 || grid[d] == 0)
      return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                       "%s dimension %c = 0: every grid and block dimension must be at least 1",
                       block[d] == 0 ? "block" : "grid", xyz[d]);
    if (block[d] > f->max_block_dim[d])
      return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                       "block dimension %c = %llu exceeds the device maximum %llu", xyz[d],
                       (unsigned long long)block[d], (unsigned long long)f->max_block_dim[d]);
    if (grid[d] > f->max_grid_dim[d])
      return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                       "grid dimension %c = %llu exceeds the device maximum %llu", xyz[d],
                       (unsigned long long)grid[d], (unsigned long long)f->max_grid_dim[d]);
  }
  if ((k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) && dyn == 0 && kcrt_get_portable())
    return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH, "%s (KCC_PORTABLE makes this an error)",
                     dyn0_message(k, NULL, 0));
  if (kcrt_get_portable()) {
    static const uint64_t pblock[3] = {1024, 1024, 64}, pgrid[3] = {2147483647, 65535, 65535};
    for (int d = 0; d < 3; d++) {
      if (block[d] > pblock[d])
        return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                         "block dimension %c = %llu exceeds the portable maximum %llu "
                         "(KCC_PORTABLE: what every supported GPU accepts)",
                         xyz[d], (unsigned long long)block[d], (unsigned long long)pblock[d]);
      if (grid[d] > pgrid[d])
        return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                         "grid dimension %c = %llu exceeds the portable maximum %llu "
                         "(KCC_PORTABLE: what every supported GPU accepts)",
                         xyz[d], (unsigned long long)grid[d], (unsigned long long)pgrid[d]);
    }
    if (block[0] * block[1] * block[2] > 1024) /* each factor is at most 1024 here */
      return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                       "a block of %llu x %llu x %llu threads exceeds the portable maximum of "
                       "1024 threads per block (KCC_PORTABLE: what every supported GPU accepts)",
                       (unsigned long long)block[0], (unsigned long long)block[1],
                       (unsigned long long)block[2]);
    if (k->k->static_shared_bytes > 48 * 1024)
      return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                       "kernel '%s' has %llu bytes of static shared memory, over the portable "
                       "maximum of 49152 (KCC_PORTABLE: what every supported GPU accepts)",
                       k->k->name, (unsigned long long)k->k->static_shared_bytes);
  }
  const uint32_t *r = k->k->reqd_block;
  if (r[0] && (block[0] != r[0] || block[1] != r[1] || block[2] != r[2]))
    return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                     "kernel '%s' requires blocks of exactly %u x %u x %u threads "
                     "(reqd_work_group_size), got %llu x %llu x %llu",
                     k->k->name, r[0], r[1], r[2], (unsigned long long)block[0],
                     (unsigned long long)block[1], (unsigned long long)block[2]);
  uint64_t threads;
  bool ovf = __builtin_mul_overflow(block[0], block[1], &threads) ||
             __builtin_mul_overflow(threads, block[2], &threads);
  if (ovf || threads > f->max_threads_per_block)
    return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                     "a block of %llu x %llu x %llu threads exceeds the device maximum of %llu "
                     "threads per block",
                     (unsigned long long)block[0], (unsigned long long)block[1],
                     (unsigned long long)block[2], (unsigned long long)f->max_threads_per_block);
  if (k->k->max_threads && threads > k->k->max_threads)
    return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                     "a block of %llu threads exceeds the %u threads per block that kernel '%s' "
                     "accepts (its __launch_bounds__, or 1024 with OpenCL's work-group "
                     "functions)",
                     (unsigned long long)threads, k->k->max_threads, k->k->name);
  if (threads > k->max_threads)
    return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                     "a block of %llu threads exceeds the maximum of %llu threads per block "
                     "for kernel '%s' on this device (its register or local memory use)",
                     (unsigned long long)threads, (unsigned long long)k->max_threads, k->k->name);
  /* Total threads per dimension must be representable for OpenCL's global size. */
  for (int d = 0; d < 3; d++) {
    uint64_t total;
    if (__builtin_mul_overflow(grid[d], block[d], &total) || total > SIZE_MAX)
      return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                       "grid x block in dimension %c (%llu x %llu) overflows the address space",
                       xyz[d], (unsigned long long)grid[d], (unsigned long long)block[d]);
  }
  uint64_t shared;
  if (k->k->nlocal) {
    /* The local parameters' buffers follow the dynamic bytes, 16-aligned (kcrt_local_layout):
     * the same arithmetic on every back end, so a launch passes or fails alike everywhere. */
    if (region == UINT64_MAX || __builtin_add_overflow(k->static_shared, region, &shared) ||
        shared > f->max_shared_bytes)
      return kcrt_fail(
          KCRT_ERROR_INVALID_LAUNCH,
          "shared memory of %llu + %zu + %llu bytes (static + dynamic + the %u "
          "local-memory argument%s, each 16-byte aligned) exceeds the device "
          "maximum %llu bytes per block",
          (unsigned long long)k->static_shared, dyn,
          region == UINT64_MAX ? (unsigned long long)region : (unsigned long long)(region - dyn),
          k->k->nlocal, k->k->nlocal == 1 ? "" : "s", (unsigned long long)f->max_shared_bytes);
    return KCRT_SUCCESS;
  }
  if (__builtin_add_overflow(k->static_shared, (uint64_t)dyn, &shared) ||
      shared > f->max_shared_bytes)
    return kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                     "shared memory of %llu + %zu bytes (static + dynamic) exceeds the device "
                     "maximum %llu bytes per block",
                     (unsigned long long)k->static_shared, dyn,
                     (unsigned long long)f->max_shared_bytes);
  return KCRT_SUCCESS;
}

/* Warnings: launches that are legal but likely wrong. One handler for the process. */
static kcrt_warning_fn warn_fn;
static void *warn_ctx;
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;

kcrt_status kcrt_set_warning_handler(kcrt_warning_fn fn, void *ctx) {
  pthread_mutex_lock(&warn_lock);
  warn_fn = fn;
  warn_ctx = ctx;
  pthread_mutex_unlock(&warn_lock);
  return KCRT_SUCCESS;
}

void kcrt_warn(const char *msg) {
  pthread_mutex_lock(&warn_lock);
  if (warn_fn) {
    warn_fn(msg, warn_ctx);
  } else {
    const char *e = getenv("KCC_WARNINGS");
    if (!e || strcmp(e, "off")) fprintf(stderr, "kcrt: warning: %s\n", msg);
  }
  pthread_mutex_unlock(&warn_lock);
}

/* -1: not decided yet ($KCC_PORTABLE at the first launch), else 0 or 1. */
static int portable = -1;

kcrt_status kcrt_set_portable(int on) {
  __atomic_store_n(&portable, on ? 1 : 0, __ATOMIC_RELAXED);
  return KCRT_SUCCESS;
}

int kcrt_get_portable(void) {
  int p = __atomic_load_n(&portable, __ATOMIC_RELAXED);
  if (p < 0) {
    const char *e = getenv("KCC_PORTABLE");
    p = e && *e && strcmp(e, "0") ? 1 : 0;
    int expect = -1;
    __atomic_compare_exchange_n(&portable, &expect, p, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    p = __atomic_load_n(&portable, __ATOMIC_RELAXED);
  }
  return p;
}

kcrt_status kcrt_launch(kcrt_kernel *k, kcrt_queue *q, kcrt_dim3 grid, kcrt_dim3 block, size_t dyn,
                        const kcrt_arg *args, int nargs) {
  if (!k) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_launch: NULL kernel");
  kcrt_device *dev = k->mod->dev;
  if (q && q->dev != dev)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_launch: the queue belongs to another device");
  const uint64_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  kcrt_status st = check_args(k, args, nargs);
  if (!st) st = check_dims(k, g, b, dyn, kcrt_local_layout(k->k, args, dyn, NULL));
  if (st) return st;
  if ((k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) && dyn == 0 &&
      !__atomic_exchange_n(&k->warned_dyn0, true, __ATOMIC_RELAXED)) {
    char msg[512];
    kcrt_warn(dyn0_message(k, msg, sizeof msg));
  }
  /* Kernel printf reaches the process's stdout (PoCL writes it from the launch, CUDA at the
   * next synchronising call): what the host printed before the launch goes out first. An
   * empty stdout buffer makes this a lock and a test. */
  fflush(stdout);
  if (!k->k->nhidden) return dev->be->launch(k, pick_queue(dev, q), g, b, dyn, args);
  if (k->k->params[k->k->nparams].kind == KCB_PARAM_TEX_SAMPLER) {
    /* Texture objects' samplers: each hidden parameter gets its texture's argument, from
     * which the back end takes the sampler. */
    uint32_t n = k->k->nparams + k->k->nhidden;
    kcrt_arg small[64];
    kcrt_arg *all = n <= 64 ? small : malloc(n * sizeof *all);
    if (!all) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
    if (k->k->nparams) memcpy(all, args, k->k->nparams * sizeof *all);
    for (uint32_t j = k->k->nparams; j < n; j++) all[j] = args[k->k->params[j].scalar];
    st = dev->be->launch(k, pick_queue(dev, q), g, b, dyn, all);
    if (all != small) free(all);
    return st;
  }
  /* -fbounds-check: each buffer's size, the dynamic shared bytes and the error record follow
   * the arguments; the record is read at the next synchronising call. */
  uint32_t n = k->k->nparams + k->k->nhidden;
  kcrt_arg small[64];
  uint64_t vsmall[64];
  kcrt_arg *all = n <= 64 ? small : malloc(n * sizeof *all);
  uint64_t *vals = n <= 64 ? vsmall : malloc(n * sizeof *vals);
  if (!all || !vals) {
    if (all != small) free(all);
    if (vals != vsmall) free(vals);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  kcrt_bounds_args(k, args, dyn, all, vals);
  st = dev->be->launch(k, pick_queue(dev, q), g, b, dyn, all);
  if (!st) {
    pthread_mutex_lock(&dev->lock);
    k->mod->bounds_pending = true;
    pthread_mutex_unlock(&dev->lock);
  }
  if (all != small) free(all);
  if (vals != vsmall) free(vals);
  return st;
}
