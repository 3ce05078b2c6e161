/* callgraph.c — who calls whom, recursion rejected, and the shared memory each kernel reaches.
 *
 * GPUs have no call stack worth the name (PTX can, OpenCL C 1.2 and SPIR-V for most drivers
 * cannot), so the dialect forbids recursion outright; finding it here gives one diagnostic
 * for every back end. The shared-memory totals feed the kernel table the runtime checks
 * launches against. */
#include "diag.h"
#include "kcc.h"

typedef struct Edge {
  KFunc *callee;
  KLoc loc; /* the first call, for the diagnostic */
} Edge;

typedef struct Walk {
  KFunc *f;
  KList edges;   /* Edge* */
  KList shared;  /* KVar* used directly */
  KList symbols; /* host-filled constants used directly */
} Walk;

static void list_add_unique(KList *l, void *x) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == x) return;
  klist_push(l, x);
}

static void collect(KExpr *e, void *ctx) {
  Walk *w = ctx;
  /* A read or write of an image calls its software form in the PTX and CUDA C forms. */
  if ((e->kind == KE_CALL || e->kind == KE_BUILTIN) && e->callee) {
    for (int i = 0; i < w->edges.n; i++)
      if (((Edge *)w->edges.v[i])->callee == e->callee) return;
    Edge *edge = kir_alloc(sizeof *edge);
    edge->callee = e->callee;
    edge->loc = e->loc;
    klist_push(&w->edges, edge);
  } else if (e->kind == KE_GVAR && e->var->kind == KV_SHARED) {
    list_add_unique(&w->shared, e->var);
  } else if (e->kind == KE_GVAR && e->var->host_filled) {
    list_add_unique(&w->symbols, e->var);
  }
}

enum { WHITE, GREY, BLACK };

/* Depth-first search; a grey callee is on the current path, so the edge closes a cycle. */
static bool dfs(KFunc *f, Walk *walks, int *color, KFunc **path, int depth, const KModule *m) {
  int fi = (int)(intptr_t)f->aux;
  color[fi] = GREY;
  path[depth] = f;
  Walk *w = &walks[fi];
  for (int i = 0; i < w->edges.n; i++) {
    Edge *e = w->edges.v[i];
    int ci = (int)(intptr_t)e->callee->aux;
    if (color[ci] == GREY) {
      if (e->callee == f) {
        diag_error(e->loc, "recursion is not supported in kcc kernels: '%s' calls itself", f->name);
      } else {
        /* Spell the cycle from the callee round to the call that closes it. */
        KBuf b = {0};
        int start = depth;
        while (start > 0 && path[start] != e->callee) start--;
        for (int j = start; j <= depth; j++) kbuf_printf(&b, "'%s' -> ", path[j]->name);
        kbuf_printf(&b, "'%s'", e->callee->name);
        diag_error(e->loc, "recursion is not supported in kcc kernels: %s", b.data);
        kbuf_free(&b);
      }
      return false;
    }
    if (color[ci] == WHITE && !dfs(e->callee, walks, color, path, depth + 1, m)) return false;
  }
  color[fi] = BLACK;
  return true;
}

/* Callees come before callers in a DFS post-order, so one pass accumulates shared memory. */
static void add_reach(KFunc *f, Walk *walks, bool *done) {
  int fi = (int)(intptr_t)f->aux;
  if (done[fi]) return;
  done[fi] = true;
  Walk *w = &walks[fi];
  for (int i = 0; i < w->shared.n; i++) list_add_unique(&f->shared, w->shared.v[i]);
  for (int i = 0; i < w->symbols.n; i++) list_add_unique(&f->symbols, w->symbols.v[i]);
  for (int i = 0; i < w->edges.n; i++) {
    KFunc *c = ((Edge *)w->edges.v[i])->callee;
    list_add_unique(&f->callees, c);
    add_reach(c, walks, done);
    KList *cs = &c->shared;
    for (int j = 0; j < cs->n; j++) list_add_unique(&f->shared, cs->v[j]);
    for (int j = 0; j < c->symbols.n; j++) list_add_unique(&f->symbols, c->symbols.v[j]);
  }
  f->static_shared_bytes = 0;
  f->uses_dynamic_shared = false;
  for (int i = 0; i < f->shared.n; i++) {
    KVar *v = f->shared.v[i];
    if (v->is_dynamic)
      f->uses_dynamic_shared = true;
    else
      f->static_shared_bytes += v->type->size;
  }
}

/* The subgroup width of the PTX and CUDA C forms reaches a function from the kernels that
 * call it, since it decides how its subgroup functions compute (llvm_builtins.c). One body
 * serves one width: a function reached from kernels of two widths is marked (-1), and
 * limits.c refuses it where it uses subgroup functions (functions without them compute the
 * same for any width). */
static void set_width(KFunc *f, const KFunc *kernel, int w) {
  if (f->sg_width == w || f->sg_width == -1) return;
  if (f->sg_width == 0) {
    f->sg_width = w;
    f->sg_kernels[0] = kernel;
  } else {
    f->sg_width = -1;
    f->sg_kernels[1] = kernel;
  }
  for (int i = 0; i < f->callees.n; i++) set_width(f->callees.v[i], kernel, w);
}

bool pass_callgraph(KModule *m) {
  int n = m->funcs.n;
  if (!n) return true;
  Walk *walks = kir_alloc(sizeof(Walk) * n);
  int *color = kir_alloc(sizeof(int) * n);
  bool *done = kir_alloc(sizeof(bool) * n);
  KFunc **path = kir_alloc(sizeof(KFunc *) * (n + 1));
  for (int i = 0; i < n; i++) {
    KFunc *f = m->funcs.v[i];
    f->aux = (void *)(intptr_t)i;
    f->callees.n = 0;
    f->shared.n = 0;
    f->symbols.n = 0;
    walks[i].f = f;
  }
  for (int i = 0; i < n; i++) kir_visit_stmt(((KFunc *)m->funcs.v[i])->body, collect, &walks[i]);
  for (int i = 0; i < n; i++)
    if (color[i] == WHITE && !dfs(m->funcs.v[i], walks, color, path, 0, m)) return false;
  for (int i = 0; i < n; i++) add_reach(m->funcs.v[i], walks, done);
  for (int i = 0; i < n; i++) ((KFunc *)m->funcs.v[i])->sg_width = 0;
  for (int i = 0; i < n; i++) {
    KFunc *f = m->funcs.v[i];
    if (f->is_kernel) set_width(f, f, f->reqd_subgroup ? f->reqd_subgroup : 32);
  }
  for (int i = 0; i < n; i++) ((KFunc *)m->funcs.v[i])->aux = NULL;
  return true;
}
