/* bounds.c — libkcrt's side of `kcc -fbounds-check` (docs/design.md, "Bounds checking"): the
 * hidden arguments of a checked launch (each buffer's size, the dynamic shared bytes, the
 * module's error record) and the reading of that record at synchronising calls, which turns
 * a failed check into KCRT_ERROR_OUT_OF_BOUNDS and a message naming the access. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

kcrt_status kcrt_bounds_init(kcrt_module *m) {
  if (!m->b->checked) return KCRT_SUCCESS;
  kcrt_buffer *r = calloc(1, sizeof *r);
  if (!r) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  r->dev = m->dev;
  r->size = KCB_BOUNDS_RECORD_BYTES;
  kcrt_status st = m->dev->be->mem_alloc(r);
  if (!st) st = m->dev->be->mem_fill(r, 0, 0, r->size);
  if (!st) st = m->dev->be->queue_sync(m->dev->defq);
  if (st) {
    free(r);
    return st;
  }
  m->bounds = r;
  return KCRT_SUCCESS;
}

void kcrt_bounds_free(kcrt_module *m) {
  if (!m->bounds) return;
  m->dev->be->mem_free(m->bounds);
  free(m->bounds);
  m->bounds = NULL;
}

/* The launch's arguments followed by the hidden ones, in `all` (nparams + nhidden entries);
 * `vals` (nhidden entries) holds the sizes they point at. */
void kcrt_bounds_args(const kcrt_kernel *k, const kcrt_arg *args, size_t dyn, kcrt_arg *all,
                      uint64_t *vals) {
  const KcbKernel *kk = k->k;
  uint32_t n = kk->nparams, h = 0;
  if (n) memcpy(all, args, n * sizeof *all); /* a kernel without parameters may get NULL */
  for (uint32_t i = 0; i < n; i++) {
    if (kk->params[i].kind == KCB_PARAM_POINTER)
      vals[h] = args[i].buffer ? args[i].buffer->size : 0; /* NULL: no byte may be touched */
    else if (kk->params[i].kind == KCB_PARAM_LOCAL)
      vals[h] = args[i].size;
    else
      continue;
    all[n + h] = (kcrt_arg){&vals[h], 8, NULL};
    h++;
  }
  vals[h] = dyn;
  all[n + h] = (kcrt_arg){&vals[h], 8, NULL};
  h++;
  all[n + h] = (kcrt_arg){NULL, 0, k->mod->bounds};
}

static const char *access_verb(int a) {
  return a == 1 ? "reads" : a == 2 ? "writes" : "updates";
}

/* Formats the failure in rec (KB_REC_* words, compiler/passes/bounds.h) for module m. */
static kcrt_status report(kcrt_module *m, const uint32_t *rec) {
  const KcbBundle *b = m->b;
  uint32_t kid = rec[1], site = rec[2], region = rec[3];
  uint64_t off = rec[10] | (uint64_t)rec[11] << 32, size = rec[12] | (uint64_t)rec[13] << 32;
  const char *kname = kid < b->nkernels ? b->kernels[kid].name : "?";
  const KcbSite *s = site < b->nsites ? &b->sites[site] : NULL;
  const KcbRegion *r = region >= 1 && region <= b->nregions ? &b->regions[region - 1] : NULL;
  char where[512] = "";
  if (s) snprintf(where, sizeof where, " at %s:%d:%d", s->file, s->line, s->col);
  const char *name = r ? r->name : "?", *elem = r ? r->elem : "byte";
  uint64_t esz = r && r->elem_size ? r->elem_size : 1;
  int64_t soff = (int64_t)off;
  /* The index in the region's elements, rounded towards minus infinity. */
  int64_t idx = soff >= 0 ? soff / (int64_t)esz : -(int64_t)((-(soff + 1)) / (int64_t)esz) - 1;
  char index[96];
  if (soff - idx * (int64_t)esz)
    snprintf(index, sizeof index, "%s[%" PRId64 "] (byte offset %" PRId64 ")", name, idx, soff);
  else
    snprintf(index, sizeof index, "%s[%" PRId64 "]", name, idx);
  char holds[256];
  if (size % esz)
    snprintf(holds, sizeof holds, "%" PRIu64 " bytes", size);
  else
    snprintf(holds, sizeof holds, "%" PRIu64 " %s (%" PRIu64 " bytes)", size / esz, elem, size);
  return kcrt_fail(KCRT_ERROR_OUT_OF_BOUNDS,
                   "kernel '%s'%s: thread (%u,%u,%u) of block (%u,%u,%u) %s %s; %s holds %s", kname,
                   where, rec[4], rec[5], rec[6], rec[7], rec[8], rec[9],
                   access_verb(s ? s->access : 1), index, name, holds);
}

kcrt_status kcrt_bounds_poll(kcrt_device *dev, kcrt_status st) {
  if (!dev) return st;
  /* The modules with a launch since their last read, under the lock; read without it. */
  pthread_mutex_lock(&dev->lock);
  size_t n = 0;
  for (KcrtLink *l = dev->modules.next; l != &dev->modules; l = l->next)
    n += ((kcrt_module *)l)->bounds_pending;
  kcrt_module **ms = n ? malloc(n * sizeof *ms) : NULL;
  n = 0;
  if (ms)
    for (KcrtLink *l = dev->modules.next; l != &dev->modules; l = l->next) {
      kcrt_module *m = (kcrt_module *)l;
      if (m->bounds_pending) {
        m->bounds_pending = false;
        ms[n++] = m;
      }
    }
  pthread_mutex_unlock(&dev->lock);
  kcrt_status out = st;
  for (size_t i = 0; i < n; i++) {
    kcrt_module *m = ms[i];
    uint32_t rec[KCB_BOUNDS_RECORD_BYTES / 4];
    if (dev->be->mem_read(m->bounds, 0, rec, sizeof rec)) continue;
    if (!rec[0]) continue;
    dev->be->mem_fill(m->bounds, 0, 0, sizeof rec);
    if (out == KCRT_SUCCESS) out = report(m, rec);
  }
  free(ms);
  return out;
}
