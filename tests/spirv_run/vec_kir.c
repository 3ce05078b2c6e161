/* vec_kir.c — KIR vector kernels built by hand and written as SPIR-V by the back end, so the
 * SPIR-V back end's vector support is tested on PoCL (spirv_run vec_kir) independently of any
 * front end. usage: vec_kir OUT.spv
 *
 * The kernels, in C-like notation (i = blockIdx.x * blockDim.x + threadIdx.x); spirv_run.c's
 * test_vec_kir holds the host reference of each:
 *
 *   float4 scale_add(float4 a, float s) { return a * s + a.wzyx; }
 *   kernel vec_arith(float4 *a, float4 *b, float4 *fo, int4 *ia, int4 *ib, int4 *io, float4 k)
 *   kernel vec_swz(float4 *a, float4 *o, struct SV *s)          -- swizzles read and written
 *   kernel vec_types(char16 *c, short8 *s, double2 *d, float3 *f, long4 *l, uchar3 *u)
 *   kernel vec_builtins(float4 *x, int4 *p, uint4 *u, float4 *fo, int4 *io, uint4 *uo,
 *                       uchar4 *uc, short4 *sh, char4 *ch, int c)
 *   kernel vec_vload(float *src, float *dst, uchar *bsrc, uchar *bdst)
 *   kernel vec_local(float *in, float *out, local float *tmp, local float4 *t4)
 *          reqd_work_group_size(64, 1, 1)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcc.h"
#include "kir.h"

static KLoc L = {"vec_kir.c", 1, 1};
static KModule *M;
static KType *T_F, *T_D, *T_I, *T_U, *T_L, *T_C, *T_UC, *T_S, *T_VOID;

static KType *vec(KType *e, int n) {
  return kir_type_vec(e, n);
}
static KType *gptr(KType *t) {
  return kir_type_ptr(t, KAS_GLOBAL, 0);
}
static KExpr *E(KExprKind k, KType *t) {
  return kir_expr(k, t, L);
}
static KExpr *V(KVar *v) {
  KExpr *e = E(KE_VAR, v->type);
  e->var = v;
  return e;
}
static KExpr *gv(KVar *v) {
  KExpr *e = E(KE_GVAR, v->type);
  e->var = v;
  return e;
}
static KExpr *fc(KType *t, double d) {
  KExpr *e = E(KE_FCONST, t);
  e->fval = d;
  return e;
}
static KExpr *ic(KType *t, long long v) {
  return kir_int(t, (uint64_t)v, L);
}
static KExpr *bin(KOp op, KType *t, KExpr *a, KExpr *b) {
  KExpr *e = E(KE_BINARY, t);
  e->op = op;
  e->a = a;
  e->b = b;
  return e;
}
/* a op b with the operands' type (vectors: comparisons give the mask type) */
static KExpr *B(KOp op, KExpr *a, KExpr *b) {
  KType *t = op >= KB_EQ && op <= KB_GE ? kir_type_mask(a->type) : a->type;
  return bin(op, t, a, b);
}
static KExpr *un(KOp op, KExpr *a) {
  KExpr *e = E(KE_UNARY, a->type);
  e->op = op;
  e->a = a;
  return e;
}
static KExpr *idx(KExpr *p, KExpr *i) {
  KExpr *e = E(KE_INDEX, p->type->base);
  e->a = p;
  e->b = i;
  return e;
}
static KExpr *member(KExpr *s, int f) {
  KExpr *e = E(KE_MEMBER, s->type->st->fields[f].type);
  e->a = s;
  e->field = f;
  return e;
}
static KExpr *asg(KExpr *l, KExpr *r) {
  KExpr *e = E(KE_ASSIGN, l->type);
  e->op = KB_NONE;
  e->a = l;
  e->b = r;
  return e;
}
static KExpr *casg(KOp op, KExpr *l, KExpr *r) {
  KExpr *e = asg(l, r);
  e->op = op;
  e->optype = l->type;
  return e;
}
static KExpr *incdec(KOp op, KExpr *l) {
  KExpr *e = E(KE_INCDEC, l->type);
  e->op = op;
  e->a = l;
  return e;
}
/* components: "xyzw" letters or s0..sf hex digits after 's' */
static KExpr *swz(KExpr *a, const char *s) {
  uint8_t c[16];
  int n = 0;
  if (s[0] == 's') {
    for (const char *p = s + 1; *p; p++) c[n++] = (uint8_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
  } else {
    for (const char *p = s; *p; p++) c[n++] = (uint8_t)(strchr("xyzw", *p) - "xyzw");
  }
  KExpr *e = E(KE_SWIZZLE, n == 1 ? a->type->base : vec(a->type->base, n));
  e->a = a;
  e->nswz = n;
  memcpy(e->swz, c, (size_t)n);
  return e;
}
static KExpr *vlit(KType *t, int n, ...) {
  KExpr *e = E(KE_VECLIT, t);
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)n);
  e->nargs = n;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) e->args[i] = va_arg(ap, KExpr *);
  va_end(ap);
  return e;
}
static KExpr *bi(KBuiltin b, KType *t, int n, ...) {
  KExpr *e = E(KE_BUILTIN, t);
  e->builtin = b;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(n + 1));
  e->nargs = n;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) e->args[i] = va_arg(ap, KExpr *);
  va_end(ap);
  return e;
}
static KExpr *bitc(KExpr *a, KType *t) {
  KExpr *e = E(KE_BITCAST, t);
  e->a = a;
  return e;
}
static KExpr *splat(KExpr *a, int n) {
  return kir_cast(a, vec(a->type, n));
}
static KExpr *special(KBuiltin b) {
  KExpr *e = E(KE_SPECIAL, T_U);
  e->builtin = b;
  e->dim = 0;
  return e;
}
static KExpr *gid(void) {
  return B(KB_ADD, B(KB_MUL, special(BI_BLOCK_IDX), special(BI_BLOCK_DIM)), special(BI_THREAD_IDX));
}
/* p[i * k + j] */
static KExpr *at(KExpr *p, KVar *i, int k, int j) {
  return idx(p, B(KB_ADD, B(KB_MUL, V(i), ic(T_U, k)), ic(T_U, j)));
}

/* ---- statements and functions */
static KStmt *cur;
static void S(KExpr *e) {
  KStmt *s = kir_stmt(KS_EXPR, L);
  s->expr = e;
  klist_push(&cur->list, s);
}
static KVar *local(const char *name, KType *t, KExpr *init) {
  KVar *v = kir_var(M, name, t, KV_LOCAL, L);
  KStmt *s = kir_stmt(KS_DECL, L);
  s->var = v;
  s->init = init;
  klist_push(&cur->list, s);
  return v;
}
static KFunc *func(const char *name, bool kernel, KType *ret, int n, ...) {
  KFunc *f = kir_alloc(sizeof *f);
  f->name = name;
  f->loc = L;
  f->is_kernel = kernel;
  f->ret = ret;
  f->params = kir_alloc(sizeof(KVar *) * (size_t)(n + 1));
  f->nparams = n;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) {
    const char *pn = va_arg(ap, const char *);
    KType *pt = va_arg(ap, KType *);
    f->params[i] = kir_var(M, pn, pt, KV_PARAM, L);
  }
  va_end(ap);
  f->body = cur = kir_stmt(KS_BLOCK, L);
  klist_push(&M->funcs, f);
  return f;
}
static KExpr *P(KFunc *f, int i) {
  return V(f->params[i]);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: vec_kir OUT.spv\n");
    return 2;
  }
  M = kir_module("vec_kir.c");
  T_F = kir_type_scalar(KT_F32), T_D = kir_type_scalar(KT_F64), T_I = kir_type_scalar(KT_I32);
  T_U = kir_type_scalar(KT_U32), T_L = kir_type_scalar(KT_I64), T_C = kir_type_scalar(KT_I8);
  T_UC = kir_type_scalar(KT_U8), T_S = kir_type_scalar(KT_I16), T_VOID = kir_type_void();
  KType *f4 = vec(T_F, 4), *f3 = vec(T_F, 3), *f2 = vec(T_F, 2), *i4 = vec(T_I, 4);
  KType *u4 = vec(T_U, 4);

  /* constant float4 ctab[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}}; */
  KType *ctab_t = kir_type_array(f4, 2);
  KVar *ctab = kir_var(M, "ctab", ctab_t, KV_CONSTANT, L);
  {
    KExpr *outer = E(KE_INITLIST, ctab_t);
    outer->args = kir_alloc(sizeof(KExpr *) * 2);
    outer->nargs = 2;
    for (int r = 0; r < 2; r++) {
      KExpr *in = E(KE_INITLIST, f4);
      in->args = kir_alloc(sizeof(KExpr *) * 4);
      in->nargs = 4;
      for (int c = 0; c < 4; c++) in->args[c] = fc(T_F, r * 4 + c + 1);
      outer->args[r] = in;
    }
    ctab->init = outer;
    klist_push(&M->globals, ctab);
  }

  /* float4 scale_add(float4 a, float s) { return a * s + a.wzyx; } */
  KFunc *sa = func("scale_add", false, f4, 2, "a", f4, "s", T_F);
  {
    KStmt *r = kir_stmt(KS_RETURN, L);
    r->expr = B(KB_ADD, B(KB_MUL, P(sa, 0), splat(P(sa, 1), 4)), swz(P(sa, 0), "wzyx"));
    klist_push(&cur->list, r);
  }

  /* vec_arith */
  KFunc *k = func("vec_arith", true, T_VOID, 7, "a", gptr(f4), "b", gptr(f4), "fo", gptr(f4), "ia",
                  gptr(i4), "ib", gptr(i4), "io", gptr(i4), "k", f4);
  {
    KVar *i = local("i", T_U, gid());
    KVar *x = local("x", f4, idx(P(k, 0), V(i))), *y = local("y", f4, idx(P(k, 1), V(i)));
    KVar *p = local("p", i4, idx(P(k, 3), V(i))), *q = local("q", i4, idx(P(k, 4), V(i)));
    KExpr *fo = P(k, 2), *io = P(k, 5);
    S(asg(at(fo, i, 8, 0), B(KB_ADD, V(x), V(y))));
    S(asg(at(fo, i, 8, 1), B(KB_SUB, V(x), V(y))));
    S(asg(at(fo, i, 8, 2), B(KB_MUL, V(x), V(y))));
    S(asg(at(fo, i, 8, 3), B(KB_DIV, V(x), V(y))));
    S(asg(at(fo, i, 8, 4), B(KB_ADD, un(KU_NEG, V(x)), P(k, 6))));
    S(asg(at(fo, i, 8, 5), B(KB_MUL, splat(fc(T_F, 2.5), 4), V(x))));
    S(asg(at(fo, i, 8, 6), B(KB_ADD, kir_cast(V(p), f4),
                             idx(kir_cast(gv(ctab), kir_type_ptr(f4, KAS_CONSTANT, 0)),
                                 B(KB_AND, V(i), ic(T_U, 1))))));
    KVar *z = local("z", f4, V(x));
    S(casg(KB_MUL, V(z), V(y)));
    S(casg(KB_SUB, V(z), splat(fc(T_F, 1.0), 4)));
    S(incdec(KU_POSTINC, V(z)));
    KExpr *call = E(KE_CALL, f4);
    call->callee = sa;
    call->args = kir_alloc(sizeof(KExpr *) * 2);
    call->nargs = 2;
    call->args[0] = V(z);
    call->args[1] = fc(T_F, 0.5);
    S(asg(at(fo, i, 8, 7), call));
    KExpr *m31 = splat(ic(T_I, 31), 4);
    S(asg(at(io, i, 16, 0), B(KB_ADD, V(p), V(q))));
    S(asg(at(io, i, 16, 1), B(KB_SUB, V(p), V(q))));
    S(asg(at(io, i, 16, 2), B(KB_MUL, V(p), V(q))));
    S(asg(at(io, i, 16, 3), B(KB_DIV, V(p), V(q))));
    S(asg(at(io, i, 16, 4), B(KB_REM, V(p), V(q))));
    S(asg(at(io, i, 16, 5), B(KB_AND, V(p), V(q))));
    S(asg(at(io, i, 16, 6), B(KB_OR, V(p), V(q))));
    S(asg(at(io, i, 16, 7), B(KB_XOR, V(p), V(q))));
    S(asg(at(io, i, 16, 8), un(KU_NOT, V(p))));
    S(asg(at(io, i, 16, 9), un(KU_NEG, V(p))));
    S(asg(at(io, i, 16, 10), B(KB_SHL, V(p), B(KB_AND, V(q), m31))));
    S(asg(at(io, i, 16, 11), B(KB_SHR, V(p), B(KB_AND, V(q), m31))));
    S(asg(at(io, i, 16, 12), B(KB_LT, V(p), V(q))));
    S(asg(at(io, i, 16, 13), B(KB_GE, V(x), V(y))));
    S(asg(at(io, i, 16, 14), kir_cast(B(KB_MUL, V(x), splat(fc(T_F, 100.0), 4)), i4)));
    KVar *w = local("w", i4, V(p));
    S(casg(KB_ADD, V(w), V(q)));
    S(incdec(KU_PREDEC, V(w)));
    S(casg(KB_SHL, V(w), splat(ic(T_I, 2), 4)));
    S(asg(at(io, i, 16, 15), B(KB_OR, V(w), B(KB_NE, V(p), V(q)))));
  }

  /* struct SV { float f; float3 v3; char c; float4 v4; } */
  KStruct *sv = kir_alloc(sizeof *sv);
  sv->name = "SV";
  sv->nfields = 4;
  sv->fields = kir_alloc(sizeof(KField) * 4);
  sv->fields[0] = (KField){"f", T_F, 0, false};
  sv->fields[1] = (KField){"v3", f3, 0, false};
  sv->fields[2] = (KField){"c", T_C, 0, false};
  sv->fields[3] = (KField){"v4", f4, 0, false};
  kir_struct_layout(sv);
  klist_push(&M->structs, sv);
  KType *svt = kir_type_struct(sv);

  /* vec_swz */
  k = func("vec_swz", true, T_VOID, 3, "a", gptr(f4), "o", gptr(f4), "s", gptr(svt));
  {
    KVar *i = local("i", T_U, gid());
    KVar *v = local("v", f4, idx(P(k, 0), V(i)));
    KVar *t2 = local("t2", f2, swz(V(v), "wx"));
    KExpr *o = P(k, 1);
    S(asg(at(o, i, 4, 0), vlit(f4, 2, V(t2), swz(V(v), "zy"))));
    S(asg(swz(V(v), "xz"), swz(V(v), "yw")));
    S(casg(KB_ADD, swz(V(v), "w"), fc(T_F, 1.0)));
    S(incdec(KU_POSTINC, swz(V(v), "yx")));
    S(asg(swz(swz(V(v), "zyx"), "x"), fc(T_F, 7.0)));
    S(casg(KB_MUL, swz(swz(V(v), "wzyx"), "xy"), swz(V(t2), "yx"))); /* v.w *= t2.y, v.z *= t2.x */
    S(asg(at(o, i, 4, 1), V(v)));
    S(asg(at(o, i, 4, 2),
          vlit(f4, 4, swz(V(t2), "y"), fc(T_F, 1.0), swz(idx(P(k, 0), V(i)), "x"), fc(T_F, 2.0))));
    KExpr *si = idx(P(k, 2), V(i));
    S(asg(swz(member(si, 1), "zx"), swz(member(idx(P(k, 2), V(i)), 3), "yw")));
    S(casg(KB_MUL, swz(member(idx(P(k, 2), V(i)), 3), "y"), fc(T_F, 2.0)));
    S(asg(member(idx(P(k, 2), V(i)), 0), B(KB_ADD, swz(member(idx(P(k, 2), V(i)), 1), "y"),
                                           kir_cast(member(idx(P(k, 2), V(i)), 2), T_F))));
    S(asg(at(o, i, 4, 3),
          vlit(f4, 2, member(idx(P(k, 2), V(i)), 1), member(idx(P(k, 2), V(i)), 0))));
  }

  /* vec_types */
  KType *c16 = vec(T_C, 16), *s8 = vec(T_S, 8), *d2 = vec(T_D, 2), *l4 = vec(T_L, 4),
        *uc3 = vec(T_UC, 3);
  k = func("vec_types", true, T_VOID, 6, "c", gptr(c16), "s", gptr(s8), "d", gptr(d2), "f",
           gptr(f3), "l", gptr(l4), "u", gptr(uc3));
  {
    KVar *i = local("i", T_U, gid());
    KExpr *ci = idx(P(k, 0), V(i));
    S(asg(ci, B(KB_XOR, swz(idx(P(k, 0), V(i)), "sfedcba9876543210"), splat(ic(T_C, 0x5a), 16))));
    KExpr *si = idx(P(k, 1), V(i));
    S(asg(si,
          B(KB_SHR, B(KB_MUL, idx(P(k, 1), V(i)), splat(ic(T_S, 3), 8)), splat(ic(T_S, 1), 8))));
    KVar *dv = local("dv", d2, idx(P(k, 2), V(i)));
    S(asg(idx(P(k, 2), V(i)),
          bi(BI_FMA, d2, 3, bi(BI_SQRT, d2, 1, V(dv)), V(dv), splat(fc(T_D, 0.25), 2))));
    S(asg(idx(P(k, 3), V(i)), B(KB_MUL, idx(P(k, 3), V(i)), swz(idx(P(k, 3), V(i)), "zxy"))));
    KVar *lv = local("lv", l4, idx(P(k, 4), V(i)));
    S(asg(idx(P(k, 4), V(i)), B(KB_SUB, B(KB_SHL, V(lv), splat(ic(T_L, 3), 4)),
                                B(KB_SHR, V(lv), splat(ic(T_L, 2), 4)))));
    KVar *uv = local("uv", uc3, idx(P(k, 5), V(i)));
    S(casg(KB_ADD, V(uv), vlit(uc3, 3, ic(T_UC, 1), ic(T_UC, 2), ic(T_UC, 200))));
    S(asg(idx(P(k, 5), V(i)), V(uv)));
  }

  /* vec_builtins */
  KType *uc4 = vec(T_UC, 4), *sh4 = vec(T_S, 4), *ch4 = vec(T_C, 4);
  k = func("vec_builtins", true, T_VOID, 10, "x", gptr(f4), "p", gptr(i4), "u", gptr(u4), "fo",
           gptr(f4), "io", gptr(i4), "uo", gptr(u4), "uc", gptr(uc4), "sh", gptr(sh4), "ch",
           gptr(ch4), "c", T_I);
  {
    KVar *i = local("i", T_U, gid());
    KVar *x = local("x", f4, idx(P(k, 0), V(i)));
    KVar *p = local("p", i4, idx(P(k, 1), V(i)));
    KVar *u = local("u", u4, idx(P(k, 2), V(i)));
    KExpr *fo = P(k, 3), *io = P(k, 4), *uo = P(k, 5);
    S(asg(at(fo, i, 5, 0), bi(BI_SQRT, f4, 1, bi(BI_FABS, f4, 1, V(x)))));
    S(asg(at(fo, i, 5, 1), bi(BI_FMIN, f4, 2, V(x), swz(V(x), "wzyx"))));
    S(asg(at(fo, i, 5, 2), bi(BI_SELECT, f4, 3, V(x), swz(V(x), "wzyx"), V(p))));
    S(asg(at(fo, i, 5, 3),
          bitc(B(KB_XOR, bitc(V(x), i4), splat(ic(T_I, (int)0x80000000u), 4)), f4)));
    S(asg(at(fo, i, 5, 4), bi(BI_SELECT, f4, 3, V(x), splat(fc(T_F, 9.0), 4), P(k, 9))));
    S(asg(at(io, i, 8, 0), bi(BI_ISNAN, i4, 1, V(x))));
    S(asg(at(io, i, 8, 1), bi(BI_ISINF, i4, 1, V(x))));
    S(asg(at(io, i, 8, 2), bi(BI_POPCOUNT, i4, 1, V(p))));
    S(asg(at(io, i, 8, 3), bi(BI_CLZ, i4, 1, V(p))));
    S(asg(at(io, i, 8, 4), bi(BI_MUL_HI, i4, 2, V(p), swz(V(p), "yzwx"))));
    S(asg(at(io, i, 8, 5), bi(BI_MIN, i4, 2, V(p), swz(V(p), "wzyx"))));
    S(asg(at(io, i, 8, 6), bi(BI_ABS, i4, 1, V(p))));
    S(asg(at(io, i, 8, 7), bi(BI_CONVERT_SAT, i4, 1, B(KB_MUL, V(x), splat(fc(T_F, 3e9), 4)))));
    S(asg(at(uo, i, 4, 0), bi(BI_MUL_HI, u4, 2, V(u), swz(V(u), "yzwx"))));
    S(asg(at(uo, i, 4, 1), bi(BI_CONVERT_SAT, u4, 1, V(p))));
    S(asg(at(uo, i, 4, 2), bi(BI_MAX, u4, 2, V(u), swz(V(u), "wzyx"))));
    S(asg(at(uo, i, 4, 3), kir_cast(bi(BI_CONVERT_SAT, i4, 1, V(u)), u4)));
    S(asg(idx(P(k, 6), V(i)), bi(BI_CONVERT_SAT, uc4, 1, V(p))));
    S(asg(idx(P(k, 7), V(i)), bi(BI_CONVERT_SAT, sh4, 1, B(KB_MUL, V(p), splat(ic(T_I, 100), 4)))));
    S(asg(idx(P(k, 8), V(i)),
          bi(BI_CONVERT_SAT, ch4, 1, B(KB_MUL, V(x), splat(fc(T_F, 200.0), 4)))));
  }

  /* vec_vload: region for N at offset base(N) = n * (sum of the smaller N) */
  KType *pf = gptr(T_F), *puc = gptr(T_UC);
  k = func("vec_vload", true, T_VOID, 5, "src", pf, "dst", pf, "bsrc", puc, "bdst", puc, "n", T_U);
  {
    KVar *i = local("i", T_U, gid());
    static const int ns[5] = {2, 3, 4, 8, 16};
    int before = 0;
    for (int j = 0; j < 5; j++) {
      KType *vt = vec(T_F, ns[j]);
      KExpr *off = B(KB_MUL, P(k, 4), ic(T_U, before));
      KExpr *src = bin(KB_PTR_ADD, pf, P(k, 0), off);
      KExpr *dst = bin(KB_PTR_ADD, pf, P(k, 1), B(KB_MUL, P(k, 4), ic(T_U, before)));
      KExpr *ld = bi(BI_VLOAD, vt, 2, V(i), src);
      KExpr *val = B(KB_ADD, B(KB_MUL, ld, splat(fc(T_F, 2.0), ns[j])), splat(fc(T_F, j), ns[j]));
      S(bi(BI_VSTORE, T_VOID, 3, val, V(i), dst));
      before += ns[j];
    }
    KExpr *bl = bi(BI_VLOAD, uc3, 2, V(i), P(k, 2));
    S(bi(BI_VSTORE, T_VOID, 3, B(KB_ADD, bl, splat(ic(T_UC, 1), 3)), V(i), P(k, 3)));
  }

  /* vec_local */
  KType *lf = kir_type_ptr(T_F, KAS_SHARED, 0), *lf4 = kir_type_ptr(f4, KAS_SHARED, 0);
  k = func("vec_local", true, T_VOID, 4, "in", pf, "out", pf, "tmp", lf, "t4", lf4);
  k->reqd_block[0] = 64, k->reqd_block[1] = 1, k->reqd_block[2] = 1;
  {
    KVar *i = local("i", T_U, gid());
    KVar *t = local("t", T_U, special(BI_THREAD_IDX));
    S(asg(idx(P(k, 2), V(t)), idx(P(k, 0), V(i))));
    S(asg(idx(P(k, 3), V(t)), splat(idx(P(k, 2), V(t)), 4)));
    S(casg(KB_ADD, swz(idx(P(k, 3), V(t)), "y"), fc(T_F, 1.0)));
    S(bi(BI_SYNCTHREADS, T_VOID, 0));
    KVar *m = local("m", T_U, B(KB_SUB, ic(T_U, 63), V(t)));
    S(asg(idx(P(k, 1), V(i)), B(KB_ADD, idx(P(k, 2), V(m)), swz(idx(P(k, 3), V(m)), "y"))));
  }

  /* vec_more: rint on vectors (the PoCL workaround), ?: on vectors, bitcasts through
   * 3-vectors, a constant 3-vector, more comparisons, unsigned operators */
  KType *i3 = vec(T_I, 3);
  KVar *c3 = kir_var(M, "c3", i3, KV_CONSTANT, L);
  c3->init = vlit(i3, 3, ic(T_I, 7), ic(T_I, -8), ic(T_I, 9));
  klist_push(&M->globals, c3);
  k = func("vec_more", true, T_VOID, 7, "x", gptr(f4), "p", gptr(i4), "u", gptr(u4), "fo", gptr(f4),
           "io", gptr(i4), "uo", gptr(u4), "us", gptr(T_U));
  {
    KVar *i = local("i", T_U, gid());
    KVar *x = local("x", f4, idx(P(k, 0), V(i)));
    KVar *p = local("p", i4, idx(P(k, 1), V(i)));
    KVar *u = local("u", u4, idx(P(k, 2), V(i)));
    KExpr *fo = P(k, 3), *io = P(k, 4), *uo = P(k, 5);
    S(asg(at(fo, i, 6, 0), bi(BI_RINT, f4, 1, B(KB_MUL, V(x), splat(fc(T_F, 1000.0), 4)))));
    S(asg(at(fo, i, 6, 1), bi(BI_RINT, f4, 1, B(KB_MUL, V(x), splat(fc(T_F, 3e9), 4)))));
    KExpr *ce = E(KE_COND, f4);
    ce->a = B(KB_GT, swz(V(x), "y"), fc(T_F, 0.0));
    ce->b = V(x);
    ce->c = swz(V(x), "wzyx");
    S(asg(at(fo, i, 6, 2), ce));
    S(asg(at(fo, i, 6, 3), bitc(bitc(V(x), i3), f4)));
    S(asg(at(fo, i, 6, 4), bitc(swz(V(p), "xyz"), f4)));
    S(asg(at(fo, i, 6, 5), vlit(f4, 2, kir_cast(gv(c3), f3), fc(T_F, 1.0))));
    S(asg(at(io, i, 5, 0), bi(BI_ISFINITE, i4, 1, V(x))));
    S(asg(at(io, i, 5, 1), B(KB_EQ, V(x), swz(V(x), "yxwz"))));
    S(asg(at(io, i, 5, 2), B(KB_LE, V(x), swz(V(x), "wzyx"))));
    S(asg(at(io, i, 5, 3), B(KB_GT, V(p), swz(V(p), "yzwx"))));
    S(asg(at(io, i, 5, 4), B(KB_NE, V(p), splat(ic(T_I, 0), 4))));
    KExpr *one = splat(ic(T_U, 1), 4);
    S(asg(at(uo, i, 3, 0), B(KB_DIV, V(u), B(KB_OR, swz(V(u), "yzwx"), one))));
    S(asg(at(uo, i, 3, 1), B(KB_SHR, V(u), B(KB_AND, V(u), splat(ic(T_U, 31), 4)))));
    S(asg(at(uo, i, 3, 2), B(KB_REM, V(u), B(KB_OR, swz(V(u), "wzyx"), one))));
    S(asg(idx(P(k, 6), V(i)), bitc(kir_cast(swz(V(p), "xyz"), uc3), T_U)));
  }

  KOptions o;
  kcc_options_default(&o);
  o.fp_contract = false;
  KBuf out = {0};
  if (!emit_spirv(M, &o, &out)) return 1;
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
    perror(argv[1]);
    return 1;
  }
  kbuf_free(&out);
  kir_free_all();
  return 0;
}
