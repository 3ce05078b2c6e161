/* lambda.c — CUDA input: lambda expressions, lowered the way C++ defines them and with no KIR
 * of their own. A closure is a struct with one field per captured variable (its value for a
 * capture by copy, a pointer to it for a capture by reference), built where the lambda
 * expression is evaluated; its call operator is a method like any other, whose `this` points
 * to the closure. Inside the operator's body a captured variable is a reference: to the
 * closure's field (by copy) or to what the field points to (by reference). So a closure can
 * be stored, copied, passed to a function template and called there, as in C++.
 *
 * libclang shows a lambda's captures as children of the LambdaExpr (VariableRef for those
 * named in the capture list, DeclRefExpr for those captured implicitly by [=] or [&]) but not
 * how each is captured, so the capture list's tokens say that. Capturing `this`, init-captures
 * (`[x = e]`) and packs are refused with one diagnostic each. */
#include "fe.h"

#include <stdlib.h>
#include <string.h>

typedef struct FeCapture {
  CXCursor var; /* the captured VarDecl/ParmDecl (canonical) */
  const char *name;
  bool byref;
  bool implicit; /* captured by [=] or [&], not named in the list */
} FeCapture;

typedef struct FeLambda {
  CXCursor expr; /* the LambdaExpr */
  FeCapture *cap;
  int n, capn;
  bool bad; /* reported: the closure type is refused */
} FeLambda;

bool fe_cxx_is_lambda_class(CXCursor cls) {
  CXString s = clang_getTypeSpelling(clang_getCursorType(cls));
  bool lambda = clang_getCString(s) && strstr(clang_getCString(s), "(lambda at ");
  clang_disposeString(s);
  return lambda;
}

typedef struct Find {
  CXCursor cls, found;
} Find;

static enum CXChildVisitResult find_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  Find *f = d;
  if (clang_getCursorKind(c) == CXCursor_LambdaExpr &&
      clang_equalCursors(clang_getCanonicalCursor(clang_getTypeDeclaration(clang_getCursorType(c))),
                         f->cls)) {
    f->found = c;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* The capture list's tokens: the default ('&', '=' or 0) and, per explicit capture, whether
 * it is by reference. Returns false after reporting what kcc refuses. */
static bool capture_modes(FeCtx *fe, CXCursor expr, char *deflt, FeCapture *cap, int n) {
  CXToken *t = NULL;
  unsigned nt = 0;
  clang_tokenize(fe->tu, clang_getCursorExtent(expr), &t, &nt);
  *deflt = 0;
  bool ok = true;
  unsigned i = 1; /* t[0] is '[' */
  while (ok && i < nt) {
    /* One item: up to ',' or the closing ']'. */
    unsigned start = i, depth = 0;
    while (i < nt) {
      CXString s = clang_getTokenSpelling(fe->tu, t[i]);
      const char *sp = clang_getCString(s);
      bool end = depth == 0 && (!strcmp(sp, ",") || !strcmp(sp, "]"));
      if (!strcmp(sp, "(") || !strcmp(sp, "[") || !strcmp(sp, "{")) depth++;
      if (!end && (!strcmp(sp, ")") || !strcmp(sp, "]") || !strcmp(sp, "}"))) depth--;
      clang_disposeString(s);
      if (end) break;
      i++;
    }
    unsigned len = i - start;
    char first[64] = "", second[64] = "";
    for (unsigned k = 0; k < len && k < 2; k++) {
      CXString s = clang_getTokenSpelling(fe->tu, t[start + k]);
      snprintf(k ? second : first, 64, "%s", clang_getCString(s));
      clang_disposeString(s);
    }
    KLoc loc = fe_loc_of(fe, clang_getTokenLocation(fe->tu, t[start < nt ? start : 0]));
    if (len == 1 && (!strcmp(first, "&") || !strcmp(first, "="))) {
      *deflt = first[0];
    } else if (len == 0) {
      /* [] */
    } else if (!strcmp(first, "this") || (!strcmp(first, "*") && !strcmp(second, "this"))) {
      diag_error(loc, "capturing 'this' in a lambda is not supported in kcc kernels: capture "
                      "the members the lambda uses as local variables");
      ok = false;
    } else if ((len == 1 && clang_getTokenKind(t[start]) == CXToken_Identifier) ||
               (len == 2 && !strcmp(first, "&"))) {
      const char *name = len == 1 ? first : second;
      for (int c = 0; c < n; c++)
        if (!cap[c].implicit && !strcmp(cap[c].name, name)) cap[c].byref = len == 2;
    } else {
      diag_error(loc, "this lambda capture is not supported in kcc kernels (init-captures and "
                      "packs): capture variables by name, by copy or by reference");
      ok = false;
    }
    CXString s = clang_getTokenSpelling(fe->tu, t[i < nt ? i : nt - 1]);
    bool closed = !strcmp(clang_getCString(s), "]");
    clang_disposeString(s);
    i++;
    if (closed) break;
  }
  clang_disposeTokens(fe->tu, t, nt);
  return ok;
}

/* Adds v (canonical) to l's captures unless it is there. */
static void add_capture(FeLambda *l, CXCursor v, bool implicit) {
  for (int i = 0; i < l->n; i++)
    if (clang_equalCursors(l->cap[i].var, v)) return;
  if (l->n == l->capn) {
    l->capn = l->capn ? 2 * l->capn : 8;
    FeCapture *c = kir_alloc(sizeof(FeCapture) * (size_t)l->capn);
    if (l->n) memcpy(c, l->cap, sizeof(FeCapture) * (size_t)l->n);
    l->cap = c;
  }
  l->cap[l->n++] = (FeCapture){v, fe_spelling(v), false, implicit};
}

typedef struct Scan {
  FeCtx *fe;
  FeLambda *l;
  CXCursor unused;
} Scan;

static enum CXChildVisitResult scan_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  Scan *sc = d;
  if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return CXChildVisit_Recurse;
  CXCursor v = clang_getCanonicalCursor(clang_getCursorReferenced(c));
  enum CXCursorKind vk = clang_getCursorKind(v);
  if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl) return CXChildVisit_Recurse;
  if (vk == CXCursor_VarDecl && clang_Cursor_getStorageClass(v) == CX_SC_Static)
    return CXChildVisit_Recurse;
  KVar *kv = fe_map_get(&sc->fe->decls, v);
  if (!kv || (kv->kind != KV_LOCAL && kv->kind != KV_PARAM)) return CXChildVisit_Recurse;
  /* Declared in a function that encloses the lambda, not in its own body or parameters. */
  CXCursor owner = clang_getCursorSemanticParent(v);
  enum CXCursorKind ok = clang_getCursorKind(owner);
  if (ok != CXCursor_FunctionDecl && ok != CXCursor_CXXMethod && ok != CXCursor_FunctionTemplate)
    return CXChildVisit_Recurse;
  if (ok == CXCursor_CXXMethod &&
      clang_equalCursors(
          clang_getCanonicalCursor(clang_getTypeDeclaration(clang_getCursorType(sc->l->expr))),
          clang_getCanonicalCursor(clang_getCursorSemanticParent(owner))))
    return CXChildVisit_Recurse;
  add_capture(sc->l, v, true);
  return CXChildVisit_Recurse;
}

/* The lambda whose closure class is cls (a definition): found in the function that encloses
 * it, its captures analysed once. NULL when it is refused (reported). */
static FeLambda *lambda_of(FeCtx *fe, CXCursor cls) {
  CXCursor key = clang_getCanonicalCursor(cls);
  FeLambda *l = fe_map_get(&fe->lambdas, key);
  if (l) return l->bad ? NULL : l;
  l = kir_alloc(sizeof *l);
  fe_map_put(&fe->lambdas, key, l);
  Find f = {key, clang_getNullCursor()};
  CXCursor scope = clang_getCursorSemanticParent(cls);
  clang_visitChildren(scope, find_visit, &f);
  if (clang_Cursor_isNull(f.found)) {
    /* A lambda at namespace scope, or one clang shows nowhere kcc looks. */
    diag_error(fe_loc(fe, cls), "this lambda expression is not supported in kcc kernels: "
                                "define it inside the function that uses it");
    l->bad = true;
    return NULL;
  }
  l->expr = f.found;
  FeKids k;
  fe_kids(l->expr, &k);
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
    if (ck != CXCursor_VariableRef && ck != CXCursor_DeclRefExpr) continue;
    CXCursor v = clang_getCanonicalCursor(clang_getCursorReferenced(k.v[i]));
    enum CXCursorKind vk = clang_getCursorKind(v);
    if (vk != CXCursor_VarDecl && vk != CXCursor_ParmDecl) continue;
    add_capture(l, v, ck == CXCursor_DeclRefExpr);
  }
  fe_kids_free(&k);
  /* [&] shows no child for what it captures: the variables of enclosing functions that the
     body names (not those with static storage: shared and constant variables). */
  Scan sc = {fe, l, clang_getNullCursor()};
  FeKids kb;
  fe_kids(l->expr, &kb);
  for (int i = 0; i < kb.n; i++)
    if (clang_getCursorKind(kb.v[i]) == CXCursor_CompoundStmt)
      clang_visitChildren(kb.v[i], scan_visit, &sc);
  fe_kids_free(&kb);
  char deflt;
  if (!capture_modes(fe, l->expr, &deflt, l->cap, l->n)) {
    l->bad = true;
    return NULL;
  }
  /* Implicit captures take the default; capture_modes set the explicit ones. */
  for (int c = 0; c < l->n; c++)
    if (l->cap[c].implicit) l->cap[c].byref = deflt == '&';
  return l;
}

/* The type a capture's field holds: the variable's value type (a reference variable's
 * referee), or a pointer to it for a capture by reference. */
static KType *capture_type(FeCtx *fe, const FeCapture *c, KLoc loc) {
  CXType vt = clang_getCanonicalType(clang_getCursorType(c->var));
  bool ref = vt.kind == CXType_LValueReference || vt.kind == CXType_RValueReference;
  if (ref) vt = clang_getPointeeType(vt);
  KType *t = fe_type(fe, vt, loc);
  if (!t || !c->byref) return t;
  /* The address of a variable points where it lives, which OpenCL C and SPIR-V must know
     for a pointer kept in a struct; a reference's referee may be anywhere (generic). */
  KVar *v = fe_map_get(&fe->decls, c->var);
  KAddrSpace as = !v || ref || fe_map_get(&fe->refs, c->var)   ? KAS_GENERIC
                  : v->kind == KV_SHARED                       ? KAS_SHARED
                  : v->kind == KV_CONSTANT                     ? KAS_CONSTANT
                  : v->kind == KV_LOCAL || v->kind == KV_PARAM ? KAS_PRIVATE
                                                               : KAS_GLOBAL;
  return kir_type_ptr(t, as, 0);
}

KStruct *fe_cxx_lambda_struct(FeCtx *fe, CXCursor def, KStruct *st) {
  FeLambda *l = lambda_of(fe, def);
  if (!l) return NULL;
  KLoc loc = fe_loc(fe, l->expr);
  unsigned line, col;
  clang_getExpansionLocation(clang_getCursorLocation(l->expr), NULL, &line, &col, NULL);
  char name[64];
  snprintf(name, sizeof name, "__kcc_lambda_%u_%u", line, col);
  st->name = kir_strdup(name);
  st->closure = true;
  klist_push(&fe->derived_names, st); /* renamed if another file has one at the same place */
  st->loc = loc;
  int n = l->n ? l->n : 1;
  st->fields = kir_alloc(sizeof(KField) * (size_t)n);
  for (int i = 0; i < l->n; i++) {
    KType *t = capture_type(fe, &l->cap[i], loc);
    if (!t) return NULL;
    st->fields[i].name = l->cap[i].name;
    st->fields[i].type = t;
  }
  st->nfields = l->n;
  if (!l->n) { /* A lambda that captures nothing: one byte, as C++ gives it. */
    st->fields[0].name = "__kcc_empty";
    st->fields[0].type = kir_type_scalar(KT_U8);
    st->nfields = 1;
  }
  kir_struct_layout(st);
  return st;
}

/* A captured variable as the enclosing function sees it (a reference variable's referee). */
static KExpr *captured_value(FeCtx *fe, const FeCapture *c, KLoc loc) {
  KVar *v = fe_map_get(&fe->decls, c->var);
  if (!v) return fe_broken(fe, loc, "this captured variable");
  KExpr *e =
      kir_expr(v->kind == KV_SHARED || v->kind == KV_CONSTANT ? KE_GVAR : KE_VAR, v->type, loc);
  e->var = v;
  return fe_map_get(&fe->refs, c->var) ? fe_deref(e, loc) : e;
}

KExpr *fe_cxx_lambda(FeCtx *fe, CXCursor expr, KLoc loc) {
  KType *t = fe_type(fe, clang_getCursorType(expr), loc);
  if (!t || t->kind != KT_STRUCT) return fe_poison(loc);
  FeLambda *l = lambda_of(fe, clang_getTypeDeclaration(clang_getCursorType(expr)));
  if (!l) return fe_poison(loc);
  /* closure.f0 = v0, closure.f1 = &v1, ..., closure: the values at this point. */
  /* Nothing captured: a zero closure (its one byte is never read, but copied). */
  KExpr *closure = fe_temp(fe, t, l->n ? NULL : fe_zero(t, loc), loc), *seq = NULL;
  for (int i = 0; i < l->n; i++) {
    KExpr *v = captured_value(fe, &l->cap[i], loc);
    KExpr *field = fe_member_of(fe, closure, l->cap[i].name, loc);
    KExpr *as = kir_expr(KE_ASSIGN, field->type, loc);
    as->op = KB_NONE;
    as->a = field;
    as->b = l->cap[i].byref ? fe_convert(fe_addr_of(fe, v, loc), field->type)
                            : fe_convert(v, field->type);
    if (seq) {
      KExpr *c = kir_expr(KE_COMMA, as->type, loc);
      c->a = seq;
      c->b = as;
      seq = c;
    } else {
      seq = as;
    }
  }
  if (!seq) return closure;
  KExpr *r = kir_expr(KE_COMMA, t, loc);
  r->a = seq;
  r->b = closure;
  return r;
}

KFunc *fe_cxx_lambda_method(FeCtx *fe, CXCursor def) {
  FeLambda *l = lambda_of(fe, clang_getCursorSemanticParent(def));
  if (!l) return NULL;
  KFunc *f = fe_declare_function(fe, def);
  if (!f->nparams) return f; /* the closure type was refused: reported */
  KLoc loc = f->loc;
  /* Each captured variable becomes a reference local of the operator: a pointer to the
     closure's field, or the pointer the field holds. Bound for this body only. */
  void **old_decl = malloc(sizeof(void *) * (size_t)(l->n ? l->n : 1));
  void **old_ref = malloc(sizeof(void *) * (size_t)(l->n ? l->n : 1));
  KList decls = {0};
  for (int i = 0; i < l->n; i++) {
    const FeCapture *c = &l->cap[i];
    KExpr *self = kir_expr(KE_VAR, f->params[0]->type, loc);
    self->var = f->params[0];
    KExpr *field = fe_member_of(fe, self, c->name, loc);
    KExpr *p = c->byref ? field : fe_addr_of(fe, field, loc);
    /* A copy is read-only unless the lambda is `mutable` (its operator is not const). */
    if (!c->byref && clang_CXXMethod_isConst(def))
      p->type = kir_type_ptr(p->type->base, p->type->as, p->type->qual | KQ_CONST);
    KVar *v = kir_var(fe->m, c->name, p->type, KV_LOCAL, loc);
    KStmt *d = kir_stmt(KS_DECL, loc);
    d->var = v;
    d->init = p;
    klist_push(&decls, d);
    old_decl[i] = fe_map_get(&fe->decls, c->var);
    old_ref[i] = fe_map_get(&fe->refs, c->var);
    fe_map_put(&fe->decls, c->var, v);
    fe_map_put(&fe->refs, c->var, (void *)1);
  }
  fe_lower_body(fe, f, def);
  for (int i = 0; i < l->n; i++) {
    fe_map_put(&fe->decls, l->cap[i].var, old_decl[i]);
    fe_map_put(&fe->refs, l->cap[i].var, old_ref[i]);
  }
  free(old_decl);
  free(old_ref);
  if (decls.n) {
    KList body = decls;
    if (f->body->kind == KS_BLOCK)
      for (int i = 0; i < f->body->list.n; i++) klist_push(&body, f->body->list.v[i]);
    else
      klist_push(&body, f->body);
    KStmt *b = kir_stmt(KS_BLOCK, f->loc);
    b->list = body;
    f->body = b;
  }
  return f;
}
