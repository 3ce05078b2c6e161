/* cuda_texobj.c — CUDA texture and surface objects in the forms that have none (OpenCL C,
 * SPIR-V, Vulkan; issue 30; docs/design.md, "CUDA texture objects on every back end").
 *
 * A kernel's cudaTextureObject_t / cudaSurfaceObject_t parameter stays an unsigned long long
 * for PTX and CUDA C, which read it with the hardware's tex and suld/sust. When every use of
 * it in the kernel is a texture or surface call of one image type (tex2D and tex2DLod: 2D,
 * tex1Dfetch: a 1D buffer, surf2Dread/write: 2D...), the parameter gets an image stand-in
 * (KVar.tex_image, which kir_module_texobj_view declares in its place), a texture a hidden
 * sampler parameter (kcrt passes the kcrt_texture's sampler there), and each call an
 * equivalent through OpenCL's image builtins (KExpr.alt): read_imagef/i/ui by the texel's
 * element type, the coordinates as OpenCL takes them (a layer as a float coordinate, a
 * surface's x in bytes divided by the texel's size), the result narrowed to the texel type by
 * a small helper. Those builtins are what the OpenCL forms write natively and what the Vulkan
 * form samples in software (image_lib.c, grafted from a parse of the .cl prelude), so CUDA
 * texture objects made by kcrt read alike on every device.
 *
 * Any other use (the object passed to a device function, stored, compared), two image types
 * for one object, or -fbounds-check leaves the kernel as it was: PTX and CUDA C take it and
 * the other forms refuse the call, saying why (the builtin's str). */
#include <stdio.h>
#include <string.h>

#include "fe_cuda.h"

typedef struct TexObj {
  KFunc *f;
  KVar *param;
  int index;    /* in f->params */
  bool surface; /* cudaSurfaceObject_t */
  KVar *smp;    /* a texture's hidden sampler parameter, once made */
  KList uses;   /* KExpr* BI_CU_TEX* / BI_CU_SURF* whose object is the parameter itself */
} TexObj;

static TexObj *find(FeCtx *fe, const KVar *v) {
  for (int i = 0; i < fe->texobjs.n; i++) {
    TexObj *t = fe->texobjs.v[i];
    if (t->param == v) return t;
  }
  return NULL;
}

void fe_cu_texobj_param(FeCtx *fe, KFunc *f, KVar *v, CXType t) {
  if (!f->is_kernel || (fe->opts && fe->opts->bounds_check)) return;
  if (clang_getCanonicalType(t).kind != CXType_ULongLong) return; /* not a pointer to one */
  CXString s = clang_getTypeSpelling(t);
  const char *n = clang_getCString(s);
  bool tex = strstr(n, "cudaTextureObject_t") != NULL, surf = strstr(n, "cudaSurfaceObject_t");
  clang_disposeString(s);
  if (!tex && !surf) return;
  TexObj *o = kir_alloc(sizeof *o);
  o->f = f;
  o->param = v;
  o->index = f->nparams - 1;
  o->surface = surf;
  klist_push(&fe->texobjs, o);
}

void fe_cu_texobj_use(FeCtx *fe, KExpr *e) {
  if (e->kind != KE_BUILTIN || !kir_builtin_is_cuda_texture(e->builtin)) return;
  const KCuTexShape sh = kir_cuda_texture_shape(e->builtin);
  const KExpr *obj = e->args[sh.write ? 1 : 0];
  TexObj *o = obj && obj->kind == KE_VAR ? find(fe, obj->var) : NULL;
  if (!o) return;
  klist_push(&o->uses, e);
  klist_push(&fe->texobj_calls, e);
}

/* ---------------------------------------------------------------- the image type */

static KImageDim dim_of(KBuiltin b) {
  KCuTexShape s = kir_cuda_texture_shape(b);
  if (b == BI_CU_TEX1DFETCH) return KIMG_1D_BUFFER;
  if (s.layered) return s.dims == 1 ? KIMG_1D_ARRAY : KIMG_2D_ARRAY;
  return s.dims == 1 ? KIMG_1D : s.dims == 2 ? KIMG_2D : KIMG_3D;
}

static const char *dim_name(KImageDim d) {
  static const char *const n[] = {[KIMG_1D] = "1D",
                                  [KIMG_1D_BUFFER] = "1D linear (tex1Dfetch)",
                                  [KIMG_1D_ARRAY] = "1D layered",
                                  [KIMG_2D] = "2D",
                                  [KIMG_2D_ARRAY] = "2D layered",
                                  [KIMG_3D] = "3D"};
  return n[d];
}

/* ---------------------------------------------------------------- expressions */

static KExpr *var_ref(KVar *v, KLoc loc) {
  KExpr *e = kir_expr(KE_VAR, v->type, loc);
  e->var = v;
  return e;
}

/* A copy of e's tree: the alternative reads the call's arguments again, and passes that rewrite
 * in place must meet each node once. */
static KExpr *dup(const KExpr *e) {
  if (!e) return NULL;
  KExpr *n = kir_alloc(sizeof *n);
  *n = *e;
  n->a = dup(e->a);
  n->b = dup(e->b);
  n->c = dup(e->c);
  n->alt = dup(e->alt); /* a texture call among the arguments: its image form made first */
  if (e->nargs) {
    n->args = kir_alloc(sizeof(KExpr *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++) n->args[i] = dup(e->args[i]);
  }
  return n;
}

static KExpr *zero(KType *t, KLoc loc) {
  if (!kir_is_float(t)) return fe_int_const(t, 0, loc);
  KExpr *e = kir_expr(KE_FCONST, t, loc);
  e->fval = 0;
  return e;
}

static KExpr *comp(KExpr *v, int c, KLoc loc) {
  KExpr *e = kir_expr(KE_SWIZZLE, v->type->base, loc);
  e->a = v;
  e->nswz = 1;
  e->swz[0] = (uint8_t)c;
  return e;
}

/* A vector of n components of et from xs (the rest 0). */
static KExpr *veclit(KType *et, int n, KExpr **xs, int nx, KLoc loc) {
  if (n == 1) return fe_convert(xs[0], et);
  KExpr *e = kir_expr(KE_VECLIT, kir_type_vec(et, n), loc);
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)n);
  for (int i = 0; i < n; i++) e->args[e->nargs++] = i < nx ? fe_convert(xs[i], et) : zero(et, loc);
  return e;
}

/* The vector OpenCL's image functions use for texel type t: float4 for float and half
 * components, int4 or uint4 for integers. */
static KType *vec4_of(const KType *t) {
  int n;
  const KType *el = kir_texel_elem(t, &n);
  KTypeKind k = !el || kir_is_float(el) ? KT_F32 : kir_is_signed(el) ? KT_I32 : KT_U32;
  return kir_type_vec(kir_type_scalar(k), 4);
}

/* `T __kcc_texel_N(vec4 r)` (r's first components as T) or, for a write, `vec4
 * __kcc_texel_N(T v)` (T's components, then zeros): made once per type and direction. */
static KFunc *texel_helper(FeCtx *fe, KType *t, bool to_vec, KLoc loc) {
  for (int i = 0; i < fe->texel_helpers.n; i += 2) {
    KFunc *h = fe->texel_helpers.v[i];
    if (fe->texel_helpers.v[i + 1] == t && (h->ret != t) == to_vec) return h;
  }
  KType *v4 = vec4_of(t);
  int n;
  const KType *el = kir_texel_elem(t, &n);
  char name[48];
  snprintf(name, sizeof name, "__kcc_texel_%d", fe->texel_helpers.n / 2);
  KFunc *f = kir_alloc(sizeof *f);
  f->name = kir_strdup(name);
  f->loc = loc;
  f->is_static = f->is_inline = true;
  f->alt_only = true;
  f->ret = to_vec ? v4 : t;
  f->params = kir_alloc(sizeof(KVar *));
  KVar *p = kir_var(fe->m, to_vec ? "v" : "r", to_vec ? t : v4, KV_PARAM, loc);
  f->params[f->nparams++] = p;
  f->body = kir_stmt(KS_BLOCK, loc);
  KStmt *ret = kir_stmt(KS_RETURN, loc);
  if (to_vec) {
    KExpr *xs[4];
    for (int i = 0; i < n; i++) {
      if (t->kind != KT_STRUCT) {
        xs[i] = var_ref(p, loc);
        continue;
      }
      KExpr *m = kir_expr(KE_MEMBER, t->st->fields[i].type, loc);
      m->a = var_ref(p, loc);
      m->field = i;
      xs[i] = m;
    }
    ret->expr = veclit(v4->base, 4, xs, n, loc);
  } else if (t->kind != KT_STRUCT) {
    ret->expr = fe_convert(comp(var_ref(p, loc), 0, loc), t);
  } else {
    KVar *r = kir_var(fe->m, "t", t, KV_LOCAL, loc);
    KStmt *d = kir_stmt(KS_DECL, loc);
    d->var = r;
    klist_push(&f->body->list, d);
    for (int i = 0; i < n; i++) {
      KExpr *m = kir_expr(KE_MEMBER, t->st->fields[i].type, loc);
      m->a = var_ref(r, loc);
      m->field = i;
      KExpr *a = kir_expr(KE_ASSIGN, m->type, loc);
      a->op = KB_NONE;
      a->a = m;
      a->b = fe_convert(comp(var_ref(p, loc), i, loc), m->type);
      KStmt *s = kir_stmt(KS_EXPR, loc);
      s->expr = a;
      klist_push(&f->body->list, s);
    }
    ret->expr = var_ref(r, loc);
  }
  (void)el;
  klist_push(&f->body->list, ret);
  fe_add_helper(fe, f);
  klist_push(&fe->texel_helpers, f);
  klist_push(&fe->texel_helpers, t);
  return f;
}

static KExpr *call1(KFunc *h, KExpr *a, KLoc loc) {
  KExpr *e = kir_expr(KE_CALL, h->ret, loc);
  e->callee = h;
  e->args = kir_alloc(sizeof(KExpr *));
  e->args[e->nargs++] = a;
  return e;
}

/* The read or write e through image img (and sampler smp for a texture). */
static KExpr *alt_of(FeCtx *fe, KExpr *e, KVar *img, KVar *smp) {
  KLoc loc = e->loc;
  KCuTexShape sh = kir_cuda_texture_shape(e->builtin);
  KType *f32 = kir_type_scalar(KT_F32), *i32 = kir_type_scalar(KT_I32);
  KType *texel = sh.write ? e->args[0]->type : e->type;
  int first = sh.write ? 2 : 1, n = sh.dims + (sh.layered ? 1 : 0);
  KExpr *c[4];
  for (int i = 0; i < n; i++) c[i] = dup(e->args[first + i]);
  if (sh.surf) {
    /* A surface's x is in bytes. */
    c[0] = kir_binary(KB_DIV, i32, fe_convert(c[0], i32),
                      fe_int_const(i32, (uint64_t)(texel->size ? texel->size : 1), loc), loc);
  }
  bool ints = sh.surf || e->builtin == BI_CU_TEX1DFETCH;
  /* OpenCL's coordinate vectors: 1, 2 or 4 components (a 3D or 2D-array one has a 4th). */
  int cn = n == 3 ? 4 : n;
  KExpr *coord = veclit(ints ? i32 : f32, cn, c, n, loc);
  KExpr *im = var_ref(img, loc);
  if (sh.write) {
    KExpr *w = kir_builtin(BI_IMAGE_WRITE, kir_type_void(), 3, loc);
    w->args[w->nargs++] = im;
    w->args[w->nargs++] = coord;
    w->args[w->nargs++] = call1(texel_helper(fe, texel, true, loc), dup(e->args[0]), loc);
    return w;
  }
  KType *v4 = vec4_of(texel);
  KExpr *r = kir_builtin(BI_IMAGE_READ, v4, ints ? 2 : 3, loc);
  r->args[r->nargs++] = im;
  if (!ints) r->args[r->nargs++] = var_ref(smp, loc);
  r->args[r->nargs++] = coord;
  return call1(texel_helper(fe, texel, false, loc), r, loc);
}

/* ---------------------------------------------------------------- per kernel */

typedef struct Count {
  const KVar *v;
  int n;
} Count;

static void count_refs(KExpr *e, void *ctx) {
  Count *c = ctx;
  if (e->kind == KE_VAR && e->var == c->v) c->n++;
}

/* Every use refuses; `at` (a use) says why, the others say nothing more (str ""). */
static void refuse(TexObj *o, const KExpr *at, const char *why) {
  for (int i = 0; i < o->uses.n; i++) {
    KExpr *e = o->uses.v[i];
    e->str = e == at ? why : "";
    e->len = strlen(e->str);
  }
}

static KVar **grow(KFunc *f) {
  KVar **p = kir_alloc(sizeof(KVar *) * (size_t)(f->nparams + 1));
  memcpy(p, f->params, sizeof(KVar *) * (size_t)f->nparams);
  return p;
}

bool fe_cu_texobj_lower(FeCtx *fe) {
  bool any = false;
  for (int i = 0; i < fe->texobjs.n; i++) {
    TexObj *o = fe->texobjs.v[i];
    if (!o->uses.n || !o->f->body) continue;
    char why[512];
    const char *what = o->surface ? "surface" : "texture";
    Count c = {o->param, 0};
    kir_visit_stmt(o->f->body, count_refs, &c);
    KExpr *first = o->uses.v[0], *other = NULL;
    KImageDim d = dim_of(first->builtin);
    int access = 0;
    for (int j = 0; j < o->uses.n; j++) {
      KExpr *e = o->uses.v[j];
      if (dim_of(e->builtin) != d && !other) other = e;
      access |= kir_cuda_texture_shape(e->builtin).write ? KIMG_WRITE : KIMG_READ;
    }
    if (c.n != o->uses.n) {
      snprintf(why, sizeof why,
               "its %s object '%s' is used other than as the object of %s calls in the kernel "
               "(passed to a function, copied or compared), which only the PTX and CUDA C "
               "forms allow",
               what, o->param->name, what);
      refuse(o, first, kir_strdup(why));
      continue;
    }
    if (other) {
      snprintf(why, sizeof why,
               "the %s object '%s' is read as a %s image here and as a %s image at line %d; "
               "these forms pass it as one image, of one type",
               what, o->param->name, dim_name(dim_of(other->builtin)), dim_name(d),
               first->loc.line);
      refuse(o, other, kir_strdup(why));
      continue;
    }
    KVar *img = kir_var(fe->m, o->param->name, kir_type_image(d, access), KV_PARAM, o->param->loc);
    o->param->tex_image = img;
    o->param->tex_surface = o->surface;
    KVar *smp = NULL;
    if (!o->surface) {
      char n[96];
      snprintf(n, sizeof n, "__kcc_smp_%s", o->param->name);
      smp = kir_var(fe->m, n, kir_type_sampler(), KV_PARAM, o->param->loc);
      smp->tex_of = o->index;
      o->f->params = grow(o->f);
      o->f->params[o->f->nparams++] = smp;
      o->f->nhidden++;
    }
    o->smp = smp;
    any = true;
  }
  /* The image forms in the order the calls were made: a call among another's arguments came
   * first, so the outer one's copy of it (dup) takes its image form along. */
  for (int i = 0; i < fe->texobj_calls.n; i++) {
    KExpr *e = fe->texobj_calls.v[i];
    const KExpr *obj = e->args[kir_cuda_texture_shape(e->builtin).write ? 1 : 0];
    TexObj *o = find(fe, obj->var);
    if (o->param->tex_image) e->alt = alt_of(fe, e, o->param->tex_image, o->smp);
  }
  return any;
}

/* ---------------------------------------------------------------- image_lib.c for Vulkan */

typedef struct Want {
  KImageDim dim;
  KBuiltin b;
  int nargs;    /* 2: no sampler */
  char kind;    /* result or colour: f, i, u */
  KFunc *found; /* its KExpr.callee in the .cl parse */
} Want;

static void collect(KExpr *e, void *ctx) {
  KList *l = ctx;
  if (e->kind == KE_BUILTIN && (e->builtin == BI_IMAGE_READ || e->builtin == BI_IMAGE_WRITE))
    klist_push(l, e);
}

static char kind_of(const KExpr *e) {
  const KType *v = e->builtin == BI_IMAGE_READ ? e->type : e->args[2]->type;
  return kir_is_float(v->base) ? 'f' : kir_is_signed(v->base) ? 'i' : 'u';
}

static void renumber(KModule *m, KStmt *s) {
  if (!s) return;
  if (s->kind == KS_DECL && s->var) s->var->id = m->nvars++;
  for (int i = 0; i < s->list.n; i++) renumber(m, s->list.v[i]);
  renumber(m, s->init_stmt);
  renumber(m, s->then);
  renumber(m, s->els);
  renumber(m, s->body);
}

bool fe_cu_texobj_graft(FeCtx *fe, KModule *(*parse_cl)(const char *name, const char *text)) {
  KList alts = {0}, wants = {0};
  for (int i = 0; i < fe->texobjs.n; i++) {
    TexObj *o = fe->texobjs.v[i];
    for (int j = 0; j < o->uses.n; j++) {
      KExpr *a = ((KExpr *)o->uses.v[j])->alt;
      if (a) kir_visit_expr(a, collect, &alts);
    }
  }
  if (!alts.n) return true;
  /* One call of each kind the kernels make, in a kernel of its own. */
  KBuf b = {0};
  KBuf body = {0};
  kbuf_puts(&b, "__kernel void __kcc_texobj_impls(__global float4 *of, __global int4 *oi, "
                "__global uint4 *ou, sampler_t s");
  static const char *const types[] = {[KIMG_1D] = "image1d_t",
                                      [KIMG_1D_BUFFER] = "image1d_buffer_t",
                                      [KIMG_1D_ARRAY] = "image1d_array_t",
                                      [KIMG_2D] = "image2d_t",
                                      [KIMG_2D_ARRAY] = "image2d_array_t",
                                      [KIMG_3D] = "image3d_t"};
  static const char *const fc[] = {
      [KIMG_1D] = "0.0f",      [KIMG_1D_BUFFER] = "0.0f",     [KIMG_1D_ARRAY] = "(float2)0",
      [KIMG_2D] = "(float2)0", [KIMG_2D_ARRAY] = "(float4)0", [KIMG_3D] = "(float4)0"};
  static const char *const ic[] = {
      [KIMG_1D] = "0",       [KIMG_1D_BUFFER] = "0",      [KIMG_1D_ARRAY] = "(int2)0",
      [KIMG_2D] = "(int2)0", [KIMG_2D_ARRAY] = "(int4)0", [KIMG_3D] = "(int4)0"};
  for (int i = 0; i < alts.n; i++) {
    KExpr *e = alts.v[i];
    Want w = {(KImageDim)e->args[0]->type->len, e->builtin, e->nargs, kind_of(e), NULL};
    bool seen = false;
    for (int j = 0; j < wants.n && !seen; j++) {
      Want *x = wants.v[j];
      seen = x->dim == w.dim && x->b == w.b && x->nargs == w.nargs && x->kind == w.kind;
    }
    if (seen) continue;
    Want *x = kir_alloc(sizeof *x);
    *x = w;
    int k = wants.n;
    klist_push(&wants, x);
    bool wr = w.b == BI_IMAGE_WRITE;
    kbuf_printf(&b, ", %s %s i%d", wr ? "write_only" : "read_only", types[w.dim], k);
    const char *sfx = w.kind == 'f' ? "f" : w.kind == 'i' ? "i" : "ui";
    const char *vt = w.kind == 'f' ? "float4" : w.kind == 'i' ? "int4" : "uint4";
    if (wr)
      kbuf_printf(&body, "  write_image%s(i%d, %s, (%s)0);\n", sfx, k, ic[w.dim], vt);
    else if (w.nargs == 2)
      kbuf_printf(&body, "  o%c[%d] = read_image%s(i%d, %s);\n", w.kind, k, sfx, k, ic[w.dim]);
    else
      kbuf_printf(&body, "  o%c[%d] = read_image%s(i%d, s, %s);\n", w.kind, k, sfx, k, fc[w.dim]);
  }
  kbuf_printf(&b, ") {\n%s}\n", body.data ? body.data : "");
  KModule *cl = parse_cl("__kcc_texobj_impls.cl", b.data);
  /* The module holds nothing of the text (an in-memory source, as libkcc's callers free). */
  kbuf_free(&b);
  kbuf_free(&body);
  if (!cl) {
    diag_ice((KLoc){0}, "the software forms of texture reads did not compile");
    return false;
  }
  KList found = {0};
  for (int i = 0; i < cl->funcs.n; i++) {
    KFunc *f = cl->funcs.v[i];
    if (f->is_kernel) {
      kir_visit_stmt(f->body, collect, &found);
      continue;
    }
    if (!f->image_impl) continue;
    f->alt_only = true;
    for (int j = 0; j < f->nparams; j++) f->params[j]->id = fe->m->nvars++;
    renumber(fe->m, f->body);
    fe_add_helper(fe, f);
  }
  for (int i = 0; i < found.n && i < wants.n; i++)
    ((Want *)wants.v[i])->found = ((KExpr *)found.v[i])->callee;
  for (int i = 0; i < alts.n; i++) {
    KExpr *e = alts.v[i];
    for (int j = 0; j < wants.n; j++) {
      Want *x = wants.v[j];
      if (x->dim == (KImageDim)e->args[0]->type->len && x->b == e->builtin &&
          x->nargs == e->nargs && x->kind == kind_of(e))
        e->callee = x->found;
    }
  }
  return true;
}
