/* half.c — OpenCL C's half storage: vload_half[N], vloada_half[N] and vstore_half[N] /
 * vstorea_half[N] with the rounding suffixes (_rte _rtz _rtp _rtn) over `half *` pointers.
 * kcc has no half values: a pointer to half is a pointer to ushort in KIR (types.c), and the
 * conversions are KIR functions built once per module from integer operations, so every back
 * end computes them exactly alike with no half support of its own (SPIR-V would need the
 * Float16Buffer capability, CUDA C <cuda_fp16.h>). vstore_half without a suffix rounds to
 * nearest even, as OpenCL's default rounding mode does. */
#include <string.h>

#include "diag.h"
#include "fe.h"

enum { RTE, RTZ, RTP, RTN };

typedef struct B {
  KLoc loc;
} B;

static KType *u16(void) {
  return kir_type_scalar(KT_U16);
}
static KType *u32(void) {
  return kir_type_scalar(KT_U32);
}
static KType *u64(void) {
  return kir_type_scalar(KT_U64);
}
static KType *f32(void) {
  return kir_type_scalar(KT_F32);
}

static KExpr *k(B *b, uint64_t v) {
  return fe_int_const(u32(), v, b->loc);
}

static KExpr *v(B *b, KVar *x) {
  KExpr *e = kir_expr(KE_VAR, x->type, b->loc);
  e->var = x;
  return e;
}

static KExpr *op(B *b, KOp o, KExpr *x, KExpr *y) {
  bool cmp = o == KB_EQ || o == KB_NE || o == KB_LT || o == KB_LE || o == KB_GT || o == KB_GE ||
             o == KB_LAND || o == KB_LOR;
  return kir_binary(o, cmp ? kir_type_scalar(KT_I32) : x->type, x, y, b->loc);
}

static KExpr *cond(B *b, KExpr *c, KExpr *x, KExpr *y) {
  KExpr *e = kir_expr(KE_COND, x->type, b->loc);
  e->a = c, e->b = x, e->c = y;
  return e;
}

static KExpr *bits(B *b, KExpr *x, KType *t) {
  KExpr *e = kir_expr(KE_BITCAST, t, b->loc);
  e->a = x;
  return e;
}

static KExpr *call(B *b, KFunc *f, KExpr **args) {
  KExpr *e = kir_expr(KE_CALL, f->ret, b->loc);
  e->callee = f;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)f->nparams);
  for (int i = 0; i < f->nparams; i++)
    e->args[e->nargs++] = fe_convert(args[i], f->params[i]->type);
  return e;
}

/* A static inline function, placed after the helpers made before it and before every
 * function of the file, for the back ends that write C. */
static KFunc *helper(FeCtx *fe, B *b, const char *name, KType *ret, int nparams) {
  KFunc *f = kir_alloc(sizeof *f);
  f->name = kir_strdup(name);
  f->loc = b->loc;
  f->is_static = f->is_inline = true;
  f->ret = ret;
  f->params = kir_alloc(sizeof(KVar *) * (size_t)nparams);
  f->body = kir_stmt(KS_BLOCK, b->loc);
  fe_add_helper(fe, f);
  return f;
}

static KVar *param(FeCtx *fe, B *b, KFunc *f, const char *name, KType *t) {
  return f->params[f->nparams++] = kir_var(fe->m, name, t, KV_PARAM, b->loc);
}

static KVar *local(FeCtx *fe, B *b, KFunc *f, const char *name, KExpr *init) {
  KVar *x = kir_var(fe->m, name, init->type, KV_LOCAL, b->loc);
  KStmt *s = kir_stmt(KS_DECL, b->loc);
  s->var = x;
  s->init = init;
  klist_push(&f->body->list, s);
  return x;
}

static void stmt(B *b, KFunc *f, KStmtKind kind, KExpr *e) {
  KStmt *s = kir_stmt(kind, b->loc);
  s->expr = e;
  klist_push(&f->body->list, s);
}

/* float __kcc_half_to_float(ushort h): exact (every half is a float). */
static KFunc *half_to_float(FeCtx *fe, B *b) {
  if (fe->half_helpers[0]) return fe->half_helpers[0];
  KFunc *f = fe->half_helpers[0] = helper(fe, b, "__kcc_half_to_float", f32(), 1);
  f->native = KN_HALF_TO_FLOAT;
  KVar *h = param(fe, b, f, "h", u16());
  KVar *u = local(fe, b, f, "u", kir_cast(v(b, h), u32()));
  KVar *s = local(fe, b, f, "s", op(b, KB_SHL, op(b, KB_AND, v(b, u), k(b, 0x8000)), k(b, 16)));
  KVar *e = local(fe, b, f, "e", op(b, KB_AND, op(b, KB_SHR, v(b, u), k(b, 10)), k(b, 0x1f)));
  KVar *m = local(fe, b, f, "m", op(b, KB_AND, v(b, u), k(b, 0x3ff)));
  /* Subnormals (and zero): m * 2^-24, exact in float. */
  KExpr *fc = kir_expr(KE_FCONST, f32(), b->loc);
  fc->fval = 0x1p-24;
  KExpr *sub = bits(b, op(b, KB_MUL, kir_cast(v(b, m), f32()), fc), u32());
  KExpr *r = cond(
      b, op(b, KB_EQ, v(b, e), k(b, 0x1f)),
      op(b, KB_OR, op(b, KB_OR, v(b, s), k(b, 0x7f800000)), op(b, KB_SHL, v(b, m), k(b, 13))),
      cond(b, op(b, KB_NE, v(b, e), k(b, 0)),
           op(b, KB_OR,
              op(b, KB_OR, v(b, s), op(b, KB_SHL, op(b, KB_ADD, v(b, e), k(b, 112)), k(b, 23))),
              op(b, KB_SHL, v(b, m), k(b, 13))),
           op(b, KB_OR, v(b, s), sub)));
  stmt(b, f, KS_RETURN, bits(b, r, f32()));
  return f;
}

/* ushort __kcc_float_to_half_<mode>(float x): IEEE rounding in integers. The half's bits
 * before rounding are X >> sh, the bits shifted out decide the rounding; the cases are a
 * normal half (exponent rebased), a subnormal one (the implicit bit made explicit and shifted
 * further), and anything below half the smallest subnormal (a sticky bit). */
static KFunc *float_to_half(FeCtx *fe, B *b, int mode) {
  if (fe->half_helpers[1 + mode]) return fe->half_helpers[1 + mode];
  static const char *const names[] = {"__kcc_float_to_half_rte", "__kcc_float_to_half_rtz",
                                      "__kcc_float_to_half_rtp", "__kcc_float_to_half_rtn"};
  KFunc *f = fe->half_helpers[1 + mode] = helper(fe, b, names[mode], u16(), 1);
  if (mode == RTE) f->native = KN_FLOAT_TO_HALF;
  KVar *x = param(fe, b, f, "x", f32());
  KVar *u = local(fe, b, f, "u", bits(b, v(b, x), u32()));
  KVar *s = local(fe, b, f, "s", op(b, KB_AND, op(b, KB_SHR, v(b, u), k(b, 16)), k(b, 0x8000)));
  KVar *a = local(fe, b, f, "a", op(b, KB_AND, v(b, u), k(b, 0x7fffffff)));
  KVar *e = local(fe, b, f, "e", op(b, KB_SHR, v(b, a), k(b, 23)));
  KExpr *normal = op(b, KB_GE, v(b, e), k(b, 113)), *subn = op(b, KB_GE, v(b, e), k(b, 102));
  KVar *X =
      local(fe, b, f, "X",
            cond(b, normal, op(b, KB_SUB, v(b, a), k(b, 0x38000000)),
                 cond(b, subn, op(b, KB_OR, op(b, KB_AND, v(b, a), k(b, 0x7fffff)), k(b, 0x800000)),
                      kir_cast(op(b, KB_NE, v(b, a), k(b, 0)), u32()))));
  KVar *sh = local(
      fe, b, f, "sh",
      cond(b, op(b, KB_GE, v(b, e), k(b, 113)), k(b, 13),
           cond(b, op(b, KB_GE, v(b, e), k(b, 102)), op(b, KB_SUB, k(b, 126), v(b, e)), k(b, 2))));
  KVar *val = local(fe, b, f, "val", op(b, KB_SHR, v(b, X), v(b, sh)));
  /* The bits shifted out (toward zero only truncates: it needs none). */
  KVar *rest = NULL;
  if (mode != RTZ)
    rest = local(fe, b, f, "rest",
                 op(b, KB_AND, v(b, X), op(b, KB_SUB, op(b, KB_SHL, k(b, 1), v(b, sh)), k(b, 1))));
  KExpr *inc;
  if (mode == RTE) {
    KExpr *halfway = op(b, KB_SHL, k(b, 1), op(b, KB_SUB, v(b, sh), k(b, 1)));
    inc = op(b, KB_LOR, op(b, KB_GT, v(b, rest), halfway),
             op(b, KB_LAND,
                op(b, KB_EQ, v(b, rest), op(b, KB_SHL, k(b, 1), op(b, KB_SUB, v(b, sh), k(b, 1)))),
                op(b, KB_NE, op(b, KB_AND, v(b, val), k(b, 1)), k(b, 0))));
  } else if (mode == RTZ) {
    inc = kir_int(kir_type_scalar(KT_I32), 0, b->loc);
  } else {
    KExpr *away = op(b, mode == RTP ? KB_EQ : KB_NE, v(b, s), k(b, 0));
    inc = op(b, KB_LAND, away, op(b, KB_NE, v(b, rest), k(b, 0)));
  }
  KVar *r = local(fe, b, f, "r", op(b, KB_ADD, v(b, val), kir_cast(inc, u32())));
  /* Past the largest half: infinity, or the largest finite half where rounding goes toward
   * zero. */
  KExpr *ovf = mode == RTE   ? k(b, 0x7c00)
               : mode == RTZ ? k(b, 0x7bff)
                             : cond(b, op(b, mode == RTP ? KB_EQ : KB_NE, v(b, s), k(b, 0)),
                                    k(b, 0x7c00), k(b, 0x7bff));
  KExpr *res = cond(b, op(b, KB_GT, v(b, a), k(b, 0x7f800000)), k(b, 0x7e00), /* NaN: a quiet one */
                    cond(b, op(b, KB_EQ, v(b, a), k(b, 0x7f800000)), k(b, 0x7c00),
                         cond(b, op(b, KB_GE, v(b, r), k(b, 0x7c00)), ovf, v(b, r))));
  stmt(b, f, KS_RETURN, kir_cast(op(b, KB_OR, v(b, s), res), u16()));
  return f;
}

/* `ushort *` in the address space the pointer argument has: the helpers are specialised per
 * space by the address-space pass like any device function. */
static KType *half_ptr(bool is_const) {
  return kir_type_ptr(u16(), KAS_GENERIC, is_const ? KQ_CONST : 0);
}

static KExpr *elem(B *b, KExpr *p, KExpr *i) {
  KExpr *e = kir_expr(KE_INDEX, u16(), b->loc);
  e->a = p, e->b = i;
  return e;
}

/* Element index of component c: off * stride + c, in size_t. */
static KExpr *index_of(B *b, KVar *off, int stride, int c) {
  return kir_binary(
      KB_ADD, u64(),
      kir_binary(KB_MUL, u64(), v(b, off), fe_int_const(u64(), (uint64_t)stride, b->loc), b->loc),
      fe_int_const(u64(), (uint64_t)c, b->loc), b->loc);
}

/* floatN __kcc_vload[a]_halfN(size_t off, const ushort *p) */
static KFunc *vload_helper(FeCtx *fe, B *b, int n, int stride) {
  char name[64];
  snprintf(name, sizeof name, "__kcc_vload%s_half%d", stride != n ? "a" : "", n);
  for (int i = 0; i < fe->half_fns.n; i++)
    if (!strcmp(((KFunc *)fe->half_fns.v[i])->name, name)) return fe->half_fns.v[i];
  KFunc *h2f = half_to_float(fe, b);
  KType *t = n == 1 ? f32() : kir_type_vec(f32(), n);
  KFunc *f = helper(fe, b, name, t, 2);
  klist_push(&fe->half_fns, f);
  KVar *off = param(fe, b, f, "off", u64()), *p = param(fe, b, f, "p", half_ptr(true));
  KExpr *r;
  if (n == 1) {
    r = call(b, h2f, (KExpr *[]){elem(b, v(b, p), v(b, off))});
  } else {
    r = kir_expr(KE_VECLIT, t, b->loc);
    r->args = kir_alloc(sizeof(KExpr *) * (size_t)n);
    for (int c = 0; c < n; c++)
      r->args[r->nargs++] =
          call(b, h2f, (KExpr *[]){elem(b, v(b, p), index_of(b, off, stride, c))});
  }
  stmt(b, f, KS_RETURN, r);
  return f;
}

/* void __kcc_vstore[a]_halfN_<mode>(floatN x, size_t off, ushort *p) */
static KFunc *vstore_helper(FeCtx *fe, B *b, int n, int stride, int mode) {
  static const char *const suffix[] = {"rte", "rtz", "rtp", "rtn"};
  char name[64];
  snprintf(name, sizeof name, "__kcc_vstore%s_half%d_%s", stride != n ? "a" : "", n, suffix[mode]);
  for (int i = 0; i < fe->half_fns.n; i++)
    if (!strcmp(((KFunc *)fe->half_fns.v[i])->name, name)) return fe->half_fns.v[i];
  KFunc *f2h = float_to_half(fe, b, mode);
  KType *t = n == 1 ? f32() : kir_type_vec(f32(), n);
  KFunc *f = helper(fe, b, name, kir_type_void(), 3);
  klist_push(&fe->half_fns, f);
  KVar *x = param(fe, b, f, "x", t), *off = param(fe, b, f, "off", u64()),
       *p = param(fe, b, f, "p", half_ptr(false));
  for (int c = 0; c < n; c++) {
    KExpr *comp = v(b, x);
    if (n > 1) {
      comp = kir_expr(KE_SWIZZLE, f32(), b->loc);
      comp->a = v(b, x);
      comp->swz[0] = (uint8_t)c;
      comp->nswz = 1;
    }
    KExpr *as = kir_expr(KE_ASSIGN, u16(), b->loc);
    as->a = elem(b, v(b, p), n == 1 ? v(b, off) : index_of(b, off, stride, c));
    as->b = call(b, f2h, (KExpr *[]){comp});
    stmt(b, f, KS_EXPR, as);
  }
  return f;
}

/* The vector length in a name's tail ("" 1, "2".."16"), and where the tail ends; -1 if it is
 * not one. */
static int length_at(const char *s, const char **end) {
  static const int lens[] = {16, 8, 4, 3, 2};
  for (int i = 0; i < 5; i++) {
    char d[4];
    snprintf(d, sizeof d, "%d", lens[i]);
    if (!strncmp(s, d, strlen(d))) {
      *end = s + strlen(d);
      return lens[i];
    }
  }
  *end = s;
  return 1;
}

KFunc *fe_half_helper(FeCtx *fe, KLoc loc, int which) {
  B b = {loc};
  return which == 0 ? half_to_float(fe, &b) : float_to_half(fe, &b, which - 1);
}

KExpr *fe_half_round(FeCtx *fe, KExpr *x, int which, KLoc loc) {
  B b = {loc};
  KExpr *h = kir_expr(KE_BITCAST, kir_type_scalar(KT_F16), loc);
  h->a = call(&b, float_to_half(fe, &b, which - 1), (KExpr *[]){x});
  return h;
}

KExpr *fe_cl_half(FeCtx *fe, CXCursor c, const char *name, KLoc loc) {
  bool load = !strncmp(name, "vload", 5);
  if (!load && strncmp(name, "vstore", 6)) return NULL;
  const char *s = name + (load ? 5 : 6);
  bool aligned = *s == 'a';
  s += aligned;
  if (strncmp(s, "_half", 5)) return NULL;
  const char *end;
  int n = length_at(s + 5, &end);
  int mode = RTE;
  if (!load && *end) {
    static const char *const modes[] = {"_rte", "_rtz", "_rtp", "_rtn"};
    int m = -1;
    for (int i = 0; i < 4; i++)
      if (!strcmp(end, modes[i])) m = i;
    if (m < 0) return NULL;
    mode = m;
  } else if (*end) {
    return NULL;
  }
  int nargs = clang_Cursor_getNumArguments(c);
  if (nargs != (load ? 2 : 3)) return NULL;
  /* vloada_half3 / vstorea_half3 step over 4 halves per vector. */
  int stride = aligned && n == 3 ? 4 : n;
  B b = {loc};
  KExpr *args[3];
  for (int i = 0; i < nargs; i++) args[i] = fe_expr(fe, clang_Cursor_getArgument(c, i));
  KExpr *p = args[nargs - 1];
  if (p->type->kind != KT_PTR || p->type->base->kind != KT_F16) {
    diag_error(loc, "'%s' needs a pointer to half, not '%s'", name, kir_type_str(p->type));
    return fe_poison(loc);
  }
  /* The helpers read and write the 16 bits, which is what a half is once lowered. */
  args[nargs - 1] = kir_cast(p, kir_type_ptr(u16(), p->type->as, p->type->qual));
  if (load) return call(&b, vload_helper(fe, &b, n, stride), args);
  if (kir_elem(args[0]->type)->kind == KT_F64) {
    diag_error(loc,
               "'%s' of double is not supported by kcc (round to float first: the result "
               "can differ in the last bit)",
               name);
    return fe_poison(loc);
  }
  return call(&b, vstore_helper(fe, &b, n, stride, mode), args);
}
