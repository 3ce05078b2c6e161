/* vector.c — OpenCL's vector types in expressions, for both input languages (the .k dialect's
 * float4 & co. and OpenCL C): swizzles, literals, splats, the vector forms of the operators,
 * the vector builtins (convert_T, as_T, vloadN, vstoreN, select...) and the lazy lowering of
 * the functions that kcc's virtual headers define (dot, clamp...). kir.h's opening comment
 * says what KIR expects. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

static KExpr *node(KExprKind kind, KType *t, KLoc loc) {
  return kir_expr(kind, t, loc);
}

/* ---------------------------------------------------------------- conversions */

KExpr *fe_splat(KExpr *scalar, KType *vt) {
  KExpr *s = fe_convert(scalar, vt->base);
  if (s->kind == KE_ICONST || s->kind == KE_FCONST) s->loc = scalar->loc;
  KExpr *e = node(KE_CAST, vt, scalar->loc);
  e->a = s;
  return e;
}

KExpr *fe_vec_convert(KExpr *e, KType *vt) {
  if (e->type == vt) return e;
  if (!kir_is_vec(e->type)) return fe_splat(e, vt);
  if (e->type->len != vt->len) {
    KExpr *b = node(KE_BITCAST, vt, e->loc);
    b->a = e;
    return b;
  }
  KExpr *c = node(KE_CAST, vt, e->loc);
  c->a = e;
  return c;
}

/* ---------------------------------------------------------------- swizzles */

static bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The accessor as written (xyz, s3, lo), read from the source after the expression's end:
 * libclang does not expose it. False when it is not in a file kcc can read (an accessor
 * spelled inside a macro's body). */
static bool accessor_name(FeCtx *fe, CXCursor c, char *buf, size_t n) {
  CXSourceLocation end = clang_getRangeEnd(clang_getCursorExtent(c));
  CXFile f = NULL;
  unsigned off = 0;
  clang_getSpellingLocation(end, &f, NULL, NULL, &off);
  if (!f) return false;
  size_t size = 0;
  const char *text = clang_getFileContents(fe->tu, f, &size);
  if (!text || off > size) return false;
  size_t s = off;
  while (s > 0 && ident_char(text[s - 1])) s--;
  if (s == off || off - s >= n) return false;
  size_t p = s;
  while (p > 0 && (text[p - 1] == ' ' || text[p - 1] == '\t' || text[p - 1] == '\n')) p--;
  if (!(p > 0 && (text[p - 1] == '.' || (p > 1 && text[p - 1] == '>' && text[p - 2] == '-'))))
    return false;
  memcpy(buf, text + s, off - s);
  buf[off - s] = 0;
  return true;
}

/* Accessors spelled inside macro bodies are not in any file: their names are read from the
 * enclosing function as clang prints it (macros expanded). The accessors ('.name', '->name')
 * of the printed text, in order, are those of the function's member and component accesses in
 * post-order (a base before the access around it); a count that does not match gives up. */
enum { SWZ_NO, SWZ_YES, SWZ_MAYBE };
static int swizzle_kind(CXCursor c);

typedef struct Printed {
  CXTranslationUnit tu;
  CXCursor fn;
  char **names;
  int nnames;
  CXCursor *nodes;
  int nnodes, cap;
  FeCtx *fe;
  bool reported;
} Printed;
static Printed printed;

static enum CXChildVisitResult collect_accesses(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  Printed *p = d;
  clang_visitChildren(c, collect_accesses, p);
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_MemberRefExpr || k == CXCursor_MemberRef || swizzle_kind(c) == SWZ_YES) {
    if (p->nnodes == p->cap) {
      p->cap = p->cap ? p->cap * 2 : 64;
      p->nodes = realloc(p->nodes, sizeof(CXCursor) * (size_t)p->cap);
      if (!p->nodes) {
        fputs("kcc: fatal error: out of memory\n", stderr);
        exit(1);
      }
    }
    p->nodes[p->nnodes++] = c;
  }
  return CXChildVisit_Continue;
}

static void printed_names(Printed *p, const char *t) {
  int cap = 0;
  for (const char *s = t; *s;) {
    if (*s == '"' || *s == '\'') {
      char q = *s++;
      while (*s && *s != q) s += s[0] == '\\' && s[1] ? 2 : 1;
      if (*s) s++;
    } else if ((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')) {
      while (ident_char(*s) || *s == '.' || ((*s == '+' || *s == '-') && strchr("eEpP", s[-1])))
        s++;
    } else if (*s == '.' || (*s == '-' && s[1] == '>')) {
      s += *s == '.' ? 1 : 2;
      while (*s == ' ' || *s == '\n') s++;
      const char *b = s;
      while (ident_char(*s)) s++;
      if (s == b) continue;
      if (p->nnames == cap) {
        cap = cap ? cap * 2 : 64;
        p->names = realloc(p->names, sizeof(char *) * (size_t)cap);
        if (!p->names) {
          fputs("kcc: fatal error: out of memory\n", stderr);
          exit(1);
        }
      }
      p->names[p->nnames++] = kir_strndup(b, (size_t)(s - b));
    } else if (ident_char(*s)) {
      while (ident_char(*s)) s++;
    } else {
      s++;
    }
  }
}

/* Whether the expansion location of c lies in fn's extent. */
static bool contains(CXCursor fn, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(fn);
  CXFile f0, f1, f;
  unsigned o0, o1, o;
  clang_getExpansionLocation(clang_getRangeStart(r), &f0, NULL, NULL, &o0);
  clang_getExpansionLocation(clang_getRangeEnd(r), &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &o);
  return f && clang_File_isEqual(f, f0) && o >= o0 && o <= o1;
}

typedef struct FindFn {
  CXCursor c, fn;
} FindFn;

static enum CXChildVisitResult find_fn(CXCursor d, CXCursor parent, CXClientData data) {
  (void)parent;
  FindFn *ff = data;
  if (clang_getCursorKind(d) == CXCursor_FunctionDecl && clang_isCursorDefinition(d) &&
      contains(d, ff->c)) {
    ff->fn = d;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* The printed accessors of the function around c; NULL if there is none. */
static Printed *printed_function(FeCtx *fe, CXCursor c) {
  Printed *p = &printed;
  if (p->tu != fe->tu || !contains(p->fn, c)) {
    FindFn ff = {c, clang_getNullCursor()};
    clang_visitChildren(clang_getTranslationUnitCursor(fe->tu), find_fn, &ff);
    if (clang_Cursor_isNull(ff.fn)) return NULL;
    free(p->names);
    free(p->nodes);
    *p = (Printed){fe->tu, ff.fn, NULL, 0, NULL, 0, 0, fe, false};
    CXString s = clang_getCursorPrettyPrinted(ff.fn, NULL);
    printed_names(p, clang_getCString(s) ? clang_getCString(s) : "");
    clang_disposeString(s);
    clang_visitChildren(ff.fn, collect_accesses, p);
  }
  p->fe = fe;
  return p;
}

static bool printed_accessor(FeCtx *fe, CXCursor c, char *buf, size_t n) {
  Printed *p = printed_function(fe, c);
  if (!p || p->nnames != p->nnodes) return false;
  for (int i = 0; i < p->nnodes; i++)
    if (clang_equalCursors(p->nodes[i], c) && strlen(p->names[i]) < n) {
      strcpy(buf, p->names[i]);
      return true;
    }
  return false;
}

/* A conversion-like access inside a macro body: when the function prints no more accessors
 * than the accesses known for certain, it is a conversion; otherwise kcc cannot tell which it
 * is and says so (once per function) rather than guess. */
static bool ambiguous_is_swizzle(FeCtx *fe, CXCursor c) {
  Printed *p = printed_function(fe, c);
  if (!p || p->nnames == p->nnodes) return false;
  if (!p->reported)
    diag_error(fe_loc(fe, p->fn),
               "function '%s' has a vector component access that keeps the vector's length "
               "(such as .wzyx) written inside a macro body, where kcc cannot locate it; write "
               "that access outside the macro",
               fe_spelling(p->fn));
  p->reported = true;
  return false;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Component indices of accessor `name` on a vector of n components; the count, or -1. The
 * halves of a 3-vector are those of the 4-vector it occupies (OpenCL): .hi is (s2, s3). */
static int decode_accessor(const char *name, int n, uint8_t *out) {
  int slots = n == 3 ? 4 : n;
  int k = 0;
  if (!strcmp(name, "lo") || !strcmp(name, "hi") || !strcmp(name, "even") || !strcmp(name, "odd")) {
    for (int i = 0; i < slots / 2; i++)
      out[k++] = (uint8_t)(name[0] == 'l'   ? i
                           : name[0] == 'h' ? slots / 2 + i
                           : name[0] == 'e' ? 2 * i
                                            : 2 * i + 1);
    return k;
  }
  if ((name[0] == 's' || name[0] == 'S') && name[1]) {
    for (const char *p = name + 1; *p; p++) {
      int v = hexval(*p);
      if (v < 0 || v >= n || k >= 16) return -1;
      out[k++] = (uint8_t)v;
    }
    return k;
  }
  for (const char *p = name; *p; p++) {
    const char *xyzw = "xyzw", *rgba = "rgba";
    const char *q = strchr(xyzw, *p), *r = strchr(rgba, *p);
    int v = q && *q ? (int)(q - xyzw) : r && *r ? (int)(r - rgba) : -1;
    if (v < 0 || v >= n || k >= 16) return -1;
    out[k++] = (uint8_t)v;
  }
  return k;
}

/* libclang shows both ExtVectorElementExpr and the implicit casts as UnexposedExpr. A
 * component access has a vector (or pointer to vector) operand and the operand's element type,
 * or a vector of it, as its type; its extent ends after the accessor, beyond the operand's,
 * unless the accessor was written inside a macro body. There an access that keeps the
 * operand's type (.wzyx) looks like a conversion: SWZ_MAYBE. */
/* Whether c is OpenCL C's as_T(x), the prelude's __builtin_astype((x), T): an UnexposedExpr
 * too, whose operand may be a vector of its type, and never a component access. An access of
 * an as_T (`as_ushort8(r).s0`) starts at the same token; its operand, the as_T, starts there
 * too, where the as_T's own operand starts after the parenthesis. */
static bool is_astype(CXCursor c, CXCursor operand) {
  if (clang_equalLocations(clang_getRangeStart(clang_getCursorExtent(c)),
                           clang_getRangeStart(clang_getCursorExtent(operand))))
    return false;
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
  CXFile f = NULL;
  unsigned line = 0, col = 0;
  clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, &line, &col, NULL);
  if (!f) return false;
  CXToken *tok = clang_getToken(tu, clang_getLocation(tu, f, line, col));
  if (!tok) return false;
  CXString s = clang_getTokenSpelling(tu, *tok);
  bool r = clang_getCString(s) && !strcmp(clang_getCString(s), "__builtin_astype");
  clang_disposeString(s);
  clang_disposeTokens(tu, tok, 1);
  return r;
}

static int swizzle_kind(CXCursor c) {
  if (clang_getCursorKind(c) != CXCursor_UnexposedExpr) return SWZ_NO;
  FeKids k;
  fe_kids(c, &k);
  int r = SWZ_NO;
  if (k.n == 1 && clang_isExpression(clang_getCursorKind(k.v[0]))) {
    CXType bt = clang_getCanonicalType(clang_getCursorType(k.v[0]));
    bool ptr = bt.kind == CXType_Pointer;
    if (ptr) bt = clang_getCanonicalType(clang_getPointeeType(bt));
    CXType rt = clang_getCanonicalType(clang_getCursorType(c));
    if (bt.kind != CXType_ExtVector) {
      r = SWZ_NO;
    } else if (!clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(k.v[0]))) {
      r = SWZ_YES;
    } else {
      CXType be = clang_getCanonicalType(clang_getElementType(bt));
      CXType re =
          rt.kind == CXType_ExtVector ? clang_getCanonicalType(clang_getElementType(rt)) : rt;
      bool same_elem = re.kind == be.kind;
      if (!same_elem)
        r = SWZ_NO;
      else if (ptr || rt.kind != CXType_ExtVector ||
               clang_getNumElements(rt) != clang_getNumElements(bt))
        r = SWZ_YES;
      else
        r = fe_in_macro(clang_getCursorLocation(c)) ? SWZ_MAYBE : SWZ_NO;
    }
  }
  if (r != SWZ_NO && is_astype(c, k.v[0])) r = SWZ_NO;
  fe_kids_free(&k);
  return r;
}

static bool ambiguous_is_swizzle(FeCtx *fe, CXCursor c);

bool fe_is_swizzle(FeCtx *fe, CXCursor c) {
  int k = swizzle_kind(c);
  return k == SWZ_YES || (k == SWZ_MAYBE && ambiguous_is_swizzle(fe, c));
}

KExpr *fe_swizzle(FeCtx *fe, CXCursor c, KLoc loc) {
  FeKids k;
  fe_kids(c, &k);
  CXCursor base = k.v[0];
  fe_kids_free(&k);
  KExpr *v = fe_expr(fe, base);
  if (v->type->kind == KT_PTR) {
    KExpr *d = node(KE_DEREF, v->type->base, v->loc);
    d->a = v;
    v = d;
  }
  KType *t = fe_type(fe, clang_getCursorType(c), loc);
  if (!t || !kir_is_vec(v->type)) return fe_poison(loc);
  char name[64];
  if (!accessor_name(fe, c, name, sizeof name) && !printed_accessor(fe, c, name, sizeof name)) {
    diag_error(loc, "vector component access written inside a macro body is not supported in "
                    "kcc kernels; pass the component to the macro instead");
    return fe_poison(loc);
  }
  uint8_t idx[16];
  int n = decode_accessor(name, (int)v->type->len, idx);
  int want = kir_is_vec(t) ? (int)t->len : 1;
  if (n != want) return fe_broken(fe, loc, "this vector component access");
  /* The padding slot of a 3-vector (.hi and .odd name it) is undefined when read: KIR's
     swizzles name real components only, so it reads component 2. */
  if (v->type->len == 3)
    for (int i = 0; i < n; i++)
      if (idx[i] == 3) idx[i] = 2;
  KExpr *e = node(KE_SWIZZLE, kir_is_vec(t) ? kir_type_vec(v->type->base, n) : v->type->base, loc);
  e->a = v;
  e->nswz = n;
  memcpy(e->swz, idx, (size_t)n);
  return e;
}

bool fe_check_swizzle_target(KExpr *target, KLoc loc) {
  /* Clang rejects assignments to repeated components; a repeat here is a 3-vector's padding
     slot read as component 2 (.hi, .odd). */
  if (target->kind != KE_SWIZZLE || kir_is_lvalue(target) || !kir_is_lvalue(target->a)) return true;
  diag_error(loc, "assigning to .hi or .odd of a 3-component vector is not supported in kcc "
                  "kernels; assign its components (.z, or .y and .z)");
  return false;
}

KExpr *fe_vec_subscript(FeCtx *fe, KExpr *v, CXCursor index, KLoc loc) {
  CXEvalResult r = clang_Cursor_Evaluate(index);
  bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
  long long i = ok ? clang_EvalResult_getAsLongLong(r) : -1;
  if (r) clang_EvalResult_dispose(r);
  if (!ok) {
    diag_error(loc, "vector components can only be indexed by constants in kcc kernels");
    return fe_poison(loc);
  }
  if (i < 0 || i >= v->type->len) {
    diag_error(loc, "vector component index %lld is out of range for '%s'", i,
               kir_type_str(v->type));
    return fe_poison(loc);
  }
  (void)fe;
  KExpr *e = node(KE_SWIZZLE, v->type->base, loc);
  e->a = v;
  e->nswz = 1;
  e->swz[0] = (uint8_t)i;
  return e;
}

/* ---------------------------------------------------------------- literals */

KExpr *fe_vec_literal(FeCtx *fe, CXCursor list, KType *vt, KLoc loc) {
  FeKids k;
  fe_kids_expr(list, &k);
  KExpr *e = node(KE_VECLIT, vt, loc);
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(vt->len + k.n + 1));
  int comps = 0;
  for (int i = 0; i < k.n; i++) {
    KExpr *a = fe_expr(fe, k.v[i]);
    if (kir_is_vec(a->type)) {
      a = fe_vec_convert(a, kir_type_vec(vt->base, (int)a->type->len));
      comps += (int)a->type->len;
    } else {
      a = fe_convert(a, vt->base);
      comps++;
    }
    e->args[e->nargs++] = a;
  }
  fe_kids_free(&k);
  if (comps > vt->len) return fe_broken(fe, loc, "this vector literal");
  /* C zero-fills what the list leaves out; OpenCL C requires every component. */
  for (; comps < vt->len; comps++) e->args[e->nargs++] = fe_zero(vt->base, loc);
  return e;
}

/* ---------------------------------------------------------------- operators */

static KExpr *zero_of(KType *t, KLoc loc) {
  if (kir_is_vec(t)) return fe_splat(fe_zero(t->base, loc), t);
  return fe_zero(t, loc);
}

/* e != 0 (or == 0) as the -1/0 mask of e's type. */
static KExpr *test_zero(KExpr *e, KOp op, KLoc loc) {
  return kir_binary(op, kir_type_mask(e->type), e, zero_of(e->type, loc), loc);
}

/* A mask converted to mask type m: -1/0 survive sign extension and truncation. */
static KExpr *mask_to(KExpr *mask, KType *m) {
  return mask->type == m ? mask : fe_vec_convert(mask, m);
}

KExpr *fe_shift_count(KExpr *b, KType *t) {
  int bits = kir_elem(t)->size * 8;
  KType *bt = kir_elem(b->type);
  if (b->kind == KE_ICONST) return fe_int_const(b->type, b->ival & (uint64_t)(bits - 1), b->loc);
  if (b->kind == KE_CAST && kir_is_vec(b->type) && b->a->kind == KE_ICONST)
    return fe_splat(fe_shift_count(b->a, t), b->type);
  KExpr *m = fe_int_const(bt, (uint64_t)(bits - 1), b->loc);
  if (kir_is_vec(b->type)) m = fe_splat(m, b->type);
  return kir_binary(KB_AND, b->type, b, m, b->loc);
}

static bool is_compound(enum CXBinaryOperatorKind bk) {
  return bk >= CXBinaryOperator_MulAssign && bk <= CXBinaryOperator_OrAssign;
}

KExpr *fe_vec_binary(FeCtx *fe, enum CXBinaryOperatorKind bk, KType *t, KExpr *a, KExpr *b,
                     KLoc loc) {
  KOp op = fe_binary_op(bk);
  if (op == KB_NONE) return fe_broken(fe, loc, "this vector operator");
  if (is_compound(bk)) {
    KType *vt = a->type;
    if (!kir_is_vec(vt)) return fe_broken(fe, loc, "this vector assignment");
    b = fe_vec_convert(b, vt);
    if (op == KB_SHL || op == KB_SHR) b = fe_shift_count(b, vt);
    KExpr *e = node(KE_ASSIGN, vt, loc);
    e->op = op;
    e->a = a;
    e->b = b;
    e->optype = vt;
    return e;
  }
  switch (op) {
  case KB_LAND:
  case KB_LOR: {
    /* Both sides are evaluated, as OpenCL C says for vectors. */
    KType *vt = kir_is_vec(a->type) ? a->type : b->type;
    KExpr *na = test_zero(fe_vec_convert(a, vt), KB_NE, loc);
    KExpr *nb = test_zero(fe_vec_convert(b, vt), KB_NE, loc);
    return kir_binary(op == KB_LAND ? KB_AND : KB_OR, na->type, na, mask_to(nb, na->type), loc);
  }
  case KB_EQ:
  case KB_NE:
  case KB_LT:
  case KB_LE:
  case KB_GT:
  case KB_GE: {
    KType *vt = kir_is_vec(a->type) ? a->type : b->type;
    a = fe_vec_convert(a, vt);
    b = fe_vec_convert(b, vt);
    return kir_binary(op, kir_type_mask(vt), a, b, loc);
  }
  case KB_SHL:
  case KB_SHR:
    if (!kir_is_vec(t)) return fe_broken(fe, loc, "this vector shift");
    return kir_binary(op, t, fe_vec_convert(a, t), fe_shift_count(fe_vec_convert(b, t), t), loc);
  default:
    if (!kir_is_vec(t)) return fe_broken(fe, loc, "this vector operator");
    return kir_binary(op, t, fe_vec_convert(a, t), fe_vec_convert(b, t), loc);
  }
}

KExpr *fe_vec_lnot(KExpr *a, KLoc loc) {
  return test_zero(a, KB_EQ, loc);
}

KExpr *fe_vec_cond(FeCtx *fe, KExpr *cond, KExpr *a, KExpr *b, KType *t, KLoc loc) {
  if (!kir_is_vec(t) || t->len != cond->type->len)
    return fe_broken(fe, loc, "this vector conditional");
  KType *m = kir_type_mask(t);
  /* OpenCL C picks by each component's sign bit; C (clang's ext vectors) by != 0. A mask of
   * -1/0 serves both. */
  KExpr *mask = fe->opencl ? cond : test_zero(cond, KB_NE, loc);
  if (kir_elem(mask->type)->size != m->base->size) mask = test_zero(mask, KB_LT, loc);
  mask = mask_to(mask, m);
  KExpr *e = node(KE_BUILTIN, t, loc);
  e->builtin = BI_SELECT;
  e->args = kir_alloc(sizeof(KExpr *) * 3);
  e->args[0] = fe_vec_convert(b, t);
  e->args[1] = fe_vec_convert(a, t);
  e->args[2] = mask;
  e->nargs = 3;
  return e;
}

/* ---------------------------------------------------------------- builtins */

/* An argument without the implicit conversions clang added (a variadic argument's default
 * promotion, lvalue-to-rvalue): the value convert_T and as_T take as it was written. */
static CXCursor unpromoted(CXCursor c) {
  for (int guard = 0; guard < 64; guard++) {
    if (clang_getCursorKind(c) != CXCursor_UnexposedExpr) break;
    FeKids k;
    fe_kids(c, &k);
    bool imp = k.n == 1 && clang_isExpression(clang_getCursorKind(k.v[0])) &&
               clang_equalRanges(clang_getCursorExtent(c), clang_getCursorExtent(k.v[0]));
    CXCursor in = imp ? k.v[0] : c;
    fe_kids_free(&k);
    if (!imp) break;
    c = in;
  }
  return c;
}

/* A builtin whose nargs arguments the caller stores by index. */
static KExpr *builtin_node(KBuiltin b, KType *t, KLoc loc, int nargs) {
  KExpr *e = kir_builtin(b, t, nargs, loc);
  e->nargs = nargs;
  return e;
}

static KExpr *builtin1(KBuiltin b, KType *t, KExpr *a, KLoc loc) {
  KExpr *e = builtin_node(b, t, loc, 1);
  e->args[0] = a;
  return e;
}

enum { RND_NONE, RND_RTE, RND_RTZ, RND_RTP, RND_RTN };
static const char *const rnd_names[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

/* convert_T[_sat][_rnd](x): x converted component by component to t. */
static KExpr *convert_builtin(FeCtx *fe, const char *name, KExpr *x, KType *t, bool sat, int rnd,
                              KLoc loc) {
  KType *from = x->type, *fe_ = kir_elem(from), *te = kir_elem(t);
  if (kir_is_vec(from) != kir_is_vec(t) || (kir_is_vec(t) && from->len != t->len)) {
    diag_error(loc, "'%s' needs an argument with as many components as its result, not '%s'", name,
               kir_type_str(from));
    return fe_poison(loc);
  }
  /* Exact conversions (short to float, int to double, float to double) round nothing. */
  bool exact = kir_is_float(fe_)    ? fe_->size <= te->size
               : te->kind == KT_F16 ? fe_->size == 1 /* half holds integers up to 2048 */
                                    : fe_->size <= 2 || (te->size == 8 && fe_->size <= 4);
  if (kir_is_float(te) && rnd != RND_NONE && rnd != RND_RTE && !exact) {
    diag_error(loc,
               "'%s': rounding mode '%s' for conversions to floating point is not supported in "
               "kcc kernels (only the default, _rte)",
               name, rnd_names[rnd] + 1);
    return fe_poison(loc);
  }
  if (kir_is_float(fe_) && kir_is_int(te) && rnd != RND_NONE && rnd != RND_RTZ)
    x = builtin1(rnd == RND_RTE ? BI_RINT : rnd == RND_RTP ? BI_CEIL : BI_FLOOR, from, x, loc);
  if (sat && kir_is_int(te)) {
    /* Saturation changes nothing when every value of the source fits. */
    bool fits =
        kir_is_int(fe_) &&
        (fe_->size < te->size ? !kir_is_signed(fe_) || kir_is_signed(te)
                              : fe_->size == te->size && kir_is_signed(fe_) == kir_is_signed(te));
    if (!fits) return builtin1(BI_CONVERT_SAT, t, x, loc);
  }
  (void)fe;
  return fe_vec_convert(x, t);
}

static bool parse_conversion_suffix(const char *s, bool *sat, int *rnd) {
  *sat = false;
  *rnd = RND_NONE;
  if (!strncmp(s, "_sat", 4)) {
    *sat = true;
    s += 4;
  }
  for (int r = 1; r <= 4 && *s; r++)
    if (!strcmp(s, rnd_names[r])) {
      *rnd = r;
      s += 4;
    }
  return *s == 0;
}

/* The suffix after convert_<T> in an OpenCL name (convert_int4_sat_rte -> "_sat_rte"). */
static const char *after_type_name(const char *s) {
  while (*s && *s != '_') s++;
  return s;
}

static KExpr *arg(FeCtx *fe, CXCursor call, int i) {
  return fe_expr(fe, clang_Cursor_getArgument(call, i));
}

static bool is_len(const char *s) {
  return !strcmp(s, "2") || !strcmp(s, "3") || !strcmp(s, "4") || !strcmp(s, "8") ||
         !strcmp(s, "16");
}

/* tmp = v, of tmp's type. */
static KExpr *assign_to(KExpr *tmp, KExpr *v, KLoc loc) {
  KExpr *e = node(KE_ASSIGN, tmp->type, loc);
  e->a = tmp;
  e->b = v;
  return e;
}

/* Component c of the temporary v (fresh nodes: KIR wants a tree per use). */
static KExpr *component(KExpr *v, int c, KLoc loc) {
  KExpr *e = node(KE_SWIZZLE, v->type->base, loc);
  e->a = node(KE_VAR, v->type, loc);
  e->a->var = v->var;
  e->nswz = 1;
  e->swz[0] = (uint8_t)c;
  return e;
}

/* Element k of shuffle2's 2m inputs: x's components, then y's. */
static KExpr *shuffle_input(KExpr *x, KExpr *y, int k, KLoc loc) {
  int m = (int)x->type->len;
  return k < m ? component(x, k, loc) : component(y, k - m, loc);
}

/* The input that mask component mc (an unsigned int tree) selects among inputs [lo, hi): a
 * binary tree of comparisons, so each component costs log2 of the inputs to evaluate. */
static KExpr *shuffle_pick(KExpr *x, KExpr *y, KExpr *tm, int c, int lo, int hi, KLoc loc) {
  if (hi - lo == 1) return shuffle_input(x, y, lo, loc);
  int mid = (lo + hi) / 2;
  KType *u32 = kir_type_scalar(KT_U32);
  KExpr *mc = fe_convert(component(tm, c, loc), u32);
  KExpr *e = node(KE_COND, x->type->base, loc);
  e->a = kir_binary(KB_LT, kir_type_scalar(KT_I32), mc, fe_int_const(u32, (uint64_t)mid, loc), loc);
  e->b = shuffle_pick(x, y, tm, c, lo, mid, loc);
  e->c = shuffle_pick(x, y, tm, c, mid, hi, loc);
  return e;
}

/* OpenCL's shuffle(x, mask) and shuffle2(x, y, mask) (section 6.15.12): component i of the
 * result is input mask[i] mod the number of inputs (m of x, 2m with y; m a power of two, so
 * the mod keeps the low bits as the specification says). A constant mask gives components
 * directly; any other, a tree of comparisons over copies of the operands. */
static KExpr *shuffle_builtin(FeCtx *fe, CXCursor call, bool two, KType *t, KLoc loc) {
  int n = clang_Cursor_getNumArguments(call);
  if (n != (two ? 3 : 2) || !kir_is_vec(t)) return fe_broken(fe, loc, "this shuffle");
  KExpr *x = arg(fe, call, 0), *y = two ? arg(fe, call, 1) : NULL, *mask = arg(fe, call, n - 1);
  if (!kir_is_vec(x->type) || (y && y->type != x->type) || !kir_is_vec(mask->type) ||
      mask->type->len != t->len)
    return fe_broken(fe, loc, "this shuffle");
  int inputs = (int)x->type->len * (two ? 2 : 1);
  KExpr *lit = node(KE_VECLIT, t, loc);
  lit->args = kir_alloc(sizeof(KExpr *) * (size_t)t->len);
  bool known = mask->kind == KE_VECLIT && mask->nargs == t->len;
  for (int i = 0; known && i < mask->nargs; i++) known = mask->args[i]->kind == KE_ICONST;
  if (known) {
    KExpr *tx = fe_temp(fe, x->type, NULL, loc), *ty = y ? fe_temp(fe, y->type, NULL, loc) : NULL;
    for (int i = 0; i < t->len; i++)
      lit->args[lit->nargs++] =
          shuffle_input(tx, ty, (int)(mask->args[i]->ival & (uint64_t)(inputs - 1)), loc);
    mask = NULL;
    x = assign_to(tx, x, loc);
    if (y) y = assign_to(ty, y, loc);
  } else {
    KExpr *tx = fe_temp(fe, x->type, NULL, loc), *ty = y ? fe_temp(fe, y->type, NULL, loc) : NULL;
    KExpr *tm = fe_temp(fe, mask->type, NULL, loc);
    for (int i = 0; i < t->len; i++)
      lit->args[lit->nargs++] = shuffle_pick(tx, ty, tm, i, 0, inputs, loc);
    KExpr *set = assign_to(
        tm,
        kir_binary(KB_AND, mask->type, mask,
                   fe_convert(fe_int_const(kir_type_scalar(KT_U32), (uint64_t)(inputs - 1), loc),
                              mask->type),
                   loc),
        loc);
    x = assign_to(tx, x, loc);
    if (y) y = assign_to(ty, y, loc);
    mask = set;
  }
  /* Every operand once, in order, then the components. */
  KExpr *r = lit, *seq[3] = {x, y, mask};
  for (int i = 2; i >= 0; i--) {
    if (!seq[i]) continue;
    KExpr *c = node(KE_COMMA, t, loc);
    c->a = seq[i];
    c->b = r;
    r = c;
  }
  return r;
}

KExpr *fe_vec_builtin(FeCtx *fe, CXCursor call, const char *name, KLoc loc) {
  KExpr *cuda = fe_cuda_intrinsic(fe, call, name, loc); /* builtins.c */
  if (cuda) return cuda;
  int n = clang_Cursor_getNumArguments(call);
  bool kcc_cv = !strncmp(name, "__kcc_convert_", 14), kcc_as = !strncmp(name, "__kcc_as_", 9);
  bool cl_cv = !strncmp(name, "convert_", 8), cl_as = !strncmp(name, "as_", 3);
  /* vloadN / vstoreN only: vload_half & co. are other functions. */
  bool vload = !strncmp(name, "vload", 5) && is_len(name + 5);
  bool vstore = !strncmp(name, "vstore", 6) && is_len(name + 6);
  bool shuffle = !strcmp(name, "shuffle") || !strcmp(name, "shuffle2");
  bool other = !strcmp(name, "select") || !strcmp(name, "popcount") || !strcmp(name, "clz") ||
               !strcmp(name, "mul_hi") || (fe->opencl && shuffle);
  if (!kcc_cv && !kcc_as && !cl_cv && !cl_as && !vload && !vstore && !other) return NULL;
  KType *t = fe_type(fe, clang_getCursorType(call), loc);
  if (!t) return fe_poison(loc);
  if (fe->opencl && shuffle) return shuffle_builtin(fe, call, name[7] == '2', t, loc);
  if (kcc_cv || kcc_as || cl_cv || cl_as) {
    int xi = kcc_cv || kcc_as ? 1 : 0;
    if (n != xi + 1) return fe_broken(fe, loc, "this conversion");
    KExpr *x = fe_expr(fe, unpromoted(clang_Cursor_getArgument(call, xi)));
    const char *shown = name;
    bool sat = false;
    int rnd = RND_NONE;
    if (kcc_cv) {
      CXEvalResult r = clang_Cursor_Evaluate(clang_Cursor_getArgument(call, 0));
      int mode = r && clang_EvalResult_getKind(r) == CXEval_Int ? clang_EvalResult_getAsInt(r) : 0;
      if (r) clang_EvalResult_dispose(r);
      sat = (mode & 8) != 0;
      rnd = mode & 7;
      char buf[64];
      snprintf(buf, sizeof buf, "convert_%s%s%s", name + 14, sat ? "_sat" : "", rnd_names[rnd & 7]);
      shown = kir_strdup(buf);
    } else if (cl_cv && !parse_conversion_suffix(after_type_name(name + 8), &sat, &rnd)) {
      return NULL;
    }
    if (kcc_cv || cl_cv) return convert_builtin(fe, shown, x, t, sat, rnd, loc);
    if (kcc_as) {
      char buf[64];
      snprintf(buf, sizeof buf, "as_%s", name + 9);
      shown = kir_strdup(buf);
    }
    if (x->type->size != t->size || !kir_is_arith(kir_elem(x->type))) {
      diag_error(loc, "'%s' needs an argument of %d bytes, not '%s' (%d bytes)", shown, t->size,
                 kir_type_str(x->type), x->type->size);
      return fe_poison(loc);
    }
    if (x->type == t) return x;
    KExpr *e = node(KE_BITCAST, t, loc);
    e->a = x;
    return e;
  }
  if (vload || vstore) {
    if (n != (vload ? 2 : 3)) return fe_broken(fe, loc, "this vload/vstore");
    KExpr *e = builtin_node(vload ? BI_VLOAD : BI_VSTORE, t, loc, n);
    for (int i = 0; i < n; i++) e->args[i] = arg(fe, call, i);
    e->args[vload ? 0 : 1] = fe_convert(e->args[vload ? 0 : 1], kir_type_scalar(KT_U64));
    return e;
  }
  if (!strcmp(name, "select")) {
    if (n != 3) return fe_broken(fe, loc, "this select");
    KExpr *e = builtin_node(BI_SELECT, t, loc, 3);
    e->args[0] = fe_convert(arg(fe, call, 0), t);
    e->args[1] = fe_convert(arg(fe, call, 1), t);
    e->args[2] = arg(fe, call, 2);
    return e;
  }
  KBuiltin b = !strcmp(name, "popcount") ? BI_POPCOUNT : !strcmp(name, "clz") ? BI_CLZ : BI_MUL_HI;
  if (n != (b == BI_MUL_HI ? 2 : 1)) return fe_broken(fe, loc, "this builtin");
  KExpr *e = builtin_node(b, t, loc, n);
  for (int i = 0; i < n; i++) e->args[i] = fe_convert(arg(fe, call, i), t);
  return e;
}

/* ---------------------------------------------------------------- functions of the headers */

/* A name for one overload (clamp(float4, float, float) -> __kcc_clamp_float4_float_float):
 * unique in the module, an identifier in every back end's language. */
static const char *overload_name(KFunc *f, CXCursor def) {
  char buf[512];
  size_t len = (size_t)snprintf(buf, sizeof buf, "__kcc_%s", f->name);
  for (int i = 0; i < f->nparams && len < sizeof buf - 40; i++) {
    KType *pt = f->params[i]->type;
    const char *ts = kir_type_str(pt);
    buf[len++] = '_';
    /* OpenCL overloads may differ in a pointer's address space only (frexp's __global and
       __local outputs, the async copies' directions), which KIR's types leave to inference. */
    KAddrSpace as =
        pt->kind == KT_PTR
            ? fe_pointee_space(clang_getCursorType(clang_Cursor_getArgument(def, (unsigned)i)))
            : KAS_GENERIC;
    if (as != KAS_GENERIC) len += (size_t)snprintf(buf + len, sizeof buf - len, "as%d_", (int)as);
    for (const char *p = ts; *p && len < sizeof buf - 2; p++)
      buf[len++] = (*p == ' ' || *p == '*') ? (*p == '*' ? 'p' : '_') : *p;
    buf[len] = 0;
  }
  return kir_strdup(buf);
}

KFunc *fe_vfile_function(FeCtx *fe, CXCursor fn) {
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return NULL;
  KFunc *f = fe_map_get(&fe->decls, clang_getCanonicalCursor(def));
  if (f) return f;
  f = fe_declare_function(fe, def);
  f->name = overload_name(f, def);
  f->is_static = true;
  f->is_inline = true;
  fe_lower_body(fe, f, def);
  return f;
}
