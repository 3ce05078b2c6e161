/* kmap.c — the compiler's one hash table (kir.h): names in the C back ends, clang cursors in
 * the front end, instruction keys in the SPIR-V writer. Tables live in the arena like the rest
 * of KIR, so nobody frees them; growing leaves the old array behind, at most as much again. */
#include "kir.h"

#include <string.h>

unsigned kmap_hash(const void *data, size_t n) {
  const unsigned char *p = data;
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
  return h;
}

static KMapEnt *free_slot(KMap *m, unsigned hash) {
  unsigned i = hash & (m->cap - 1);
  while (m->v[i].used) i = (i + 1) & (m->cap - 1);
  return &m->v[i];
}

KMapEnt *kmap_lookup(KMap *m, unsigned hash, const void *probe, KMapEq eq, void *ctx) {
  /* Load at most 1/2, counting the entry the caller may claim next. */
  if ((m->n + 1) * 2 > m->cap) {
    KMap old = *m;
    m->cap = old.cap ? old.cap * 2 : 64;
    m->v = kir_alloc(sizeof *m->v * m->cap);
    for (unsigned i = 0; i < old.cap; i++)
      if (old.v[i].used) *free_slot(m, old.v[i].hash) = old.v[i];
  }
  unsigned i = hash & (m->cap - 1);
  for (; m->v[i].used; i = (i + 1) & (m->cap - 1))
    if (m->v[i].hash == hash && eq(m->v[i].key, probe, ctx)) break;
  return &m->v[i];
}

void kmap_claim(KMap *m, KMapEnt *e, unsigned hash, const void *key, void *val) {
  if (!e->used) m->n++;
  *e = (KMapEnt){.key = key, .val = val, .hash = hash, .used = true};
}

static bool str_eq(const void *stored, const void *probe, void *ctx) {
  (void)ctx;
  return !strcmp(stored, probe);
}

void *kmap_get_str(KMap *m, const char *s) {
  KMapEnt *e = kmap_lookup(m, kmap_hash(s, strlen(s)), s, str_eq, NULL);
  return e->used ? e->val : NULL;
}

void kmap_put_str(KMap *m, const char *s, void *val) {
  unsigned h = kmap_hash(s, strlen(s));
  kmap_claim(m, kmap_lookup(m, h, s, str_eq, NULL), h, s, val);
}
