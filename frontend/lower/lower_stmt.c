/* lower_stmt.c — clang statements and declarations inside functions to KIR statements, and
 * the variables that become module globals (shared and constant storage). */
#include <stdio.h>
#include <string.h>

#include "fe.h"

static void stmt_into(FeCtx *fe, CXCursor c, KList *out);
static void stmt_error(FeCtx *fe, CXCursor c, const char *msg);

static KStmt *block_of(KList *l, KLoc loc) {
  KStmt *b = kir_stmt(KS_BLOCK, loc);
  b->list = *l;
  return b;
}

/* `if constexpr`: libclang has no query for it; its second token says it. */
static bool constexpr_if(FeCtx *fe, CXCursor c) {
  unsigned n;
  CXToken *t = fe_tokens_to(fe, c, clang_getRangeEnd(clang_getCursorExtent(c)), &n);
  bool yes = n >= 2 && fe_token_is(fe, t[1], "constexpr");
  if (t) clang_disposeTokens(fe->tu, t, n);
  return yes;
}

/* Whether branch b of if-statement c is its else branch: `else` comes right before it. */
static bool after_else(FeCtx *fe, CXCursor c, CXCursor b) {
  unsigned n;
  CXToken *t = fe_tokens_to(fe, c, clang_getRangeStart(clang_getCursorExtent(b)), &n);
  /* The range may end with b's first token (clang includes the token at its end). */
  unsigned ob = 0, i = n;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(b)), NULL, NULL, NULL, &ob);
  while (i > 0) {
    unsigned o = 0;
    clang_getExpansionLocation(clang_getTokenLocation(fe->tu, t[i - 1]), NULL, NULL, NULL, &o);
    if (o < ob) break;
    i--;
  }
  bool yes = i > 0 && fe_token_is(fe, t[i - 1], "else");
  if (t) clang_disposeTokens(fe->tu, t, n);
  return yes;
}

/* One statement for a sub-statement position (if/loop bodies). */
static KStmt *sub_stmt(FeCtx *fe, CXCursor c) {
  KList l = {0};
  fe->block_depth++;
  stmt_into(fe, c, &l);
  fe->block_depth--;
  if (l.n == 1) return l.v[0];
  if (l.n == 0) return kir_stmt(KS_EMPTY, fe_loc(fe, c));
  return block_of(&l, fe_loc(fe, c));
}

/* ---------------------------------------------------------------- variables */

static bool holds_pointer(const KType *t) {
  while (t->kind == KT_ARRAY) t = t->base;
  if (t->kind == KT_PTR) return true;
  for (int i = 0; t->kind == KT_STRUCT && i < t->st->nfields; i++)
    if (holds_pointer(t->st->fields[i].type)) return true;
  return false;
}

KVar *fe_global_var(FeCtx *fe, CXCursor decl, bool at_file_scope) {
  KLoc loc = fe_loc(fe, decl);
  const char *name = fe_spelling(decl);
  bool sh = fe_has_annotation(decl, "kcc.shared");
  bool cn = fe_has_annotation(decl, "kcc.constant");
  bool cl = fe->lang == KL_LANG_CL;
  if (fe->ops->var_decl && fe->ops->var_decl(fe, decl)) return NULL; /* a constant sampler */
  if (cl) {
    /* OpenCL C: __local (kernel scope) and __constant are the address space. */
    int space = fe_var_space(decl);
    sh = space == 'S';
    cn = space == 'C';
    if (fe->ops->check_type && !fe->ops->check_type(fe, clang_getCursorType(decl), loc))
      return NULL;
  }
  CXType ct = clang_getCursorType(decl);
  bool ext = clang_Cursor_hasVarDeclExternalStorage(decl) == 1;
  CXCursor init = fe_var_initializer(fe, decl);
  bool has_init = !clang_Cursor_isNull(init);

  if (sh && cn) {
    diag_error(loc, "variable '%s' cannot be both 'shared' and 'constant'", name);
    return NULL;
  }
  bool mut = false;
  if (!sh && !cn) {
    /* A file-scope const object with an initializer is read-only data: kcc puts it in
       constant memory, as if declared 'constant'. */
    if (at_file_scope && fe_type_is_const(ct) && !ext && has_init) {
      cn = true;
    } else if (fe->lang == KL_LANG_CU && at_file_scope && !fe_has_annotation(decl, "kcc.managed")) {
      /* CUDA's `__device__ T x [= init];`: a module variable in global memory. */
      cn = mut = true;
    } else if (cl) {
      diag_error(loc,
                 "program-scope variable '%s' must be '__constant' in kcc (OpenCL 2.0 "
                 "__global variables are not supported)",
                 name);
      return NULL;
    } else if (fe->lang == KL_LANG_CU) {
      diag_error(loc,
                 "'__managed__' variable '%s' is not supported by kcc: allocate the memory on "
                 "the host and pass it to the kernel",
                 name);
      return NULL;
    } else {
      diag_error(loc, "global variable '%s' must be 'constant' or 'shared'", name);
      return NULL;
    }
  }
  if (clang_getCursorTLSKind(decl) != CXTLS_None) {
    diag_error(loc, "thread-local variables are not supported in kcc kernels");
    return NULL;
  }
  CXCursor canon = clang_getCanonicalCursor(decl);
  KVar *v = fe_map_get(&fe->decls, canon);
  if (v) {
    /* A redeclaration: a later one may bring the initializer. */
    if (v->kind == KV_CONSTANT && has_init) {
      v->init = fe_initializer(fe, init, v->type, true);
      v->host_filled = v->is_mutable;
    }
    fe_map_put(&fe->decls, decl, v);
    return v;
  }
  KType *t = fe_decl_type(fe, decl, loc);
  if (!t) return NULL;
  if (sh) {
    if (has_init) {
      diag_error(loc, "'shared' variable '%s' cannot have an initializer", name);
      return NULL;
    }
    bool dyn = t->kind == KT_ARRAY && t->len < 0;
    if (ext != dyn) {
      diag_error(loc,
                 dyn ? "shared array '%s' needs a size (or 'extern' for dynamic shared memory)"
                     : "'extern shared' variable '%s' must be an array of unknown size, as in "
                       "'extern shared float %s[]'",
                 name, name);
      return NULL;
    }
    v = kir_var(fe->m, name, t, KV_SHARED, loc);
    v->is_dynamic = dyn;
    v->owner = at_file_scope ? NULL : fe->func;
  } else {
    if (!at_file_scope) {
      diag_error(loc,
                 cl ? "'__constant' variable '%s' must be declared at program scope in kcc"
                    : "'constant' variable '%s' must be declared at file scope",
                 name);
      return NULL;
    }
    if (ext && !has_init) {
      CXCursor def = clang_getCursorDefinition(decl);
      if (!clang_Cursor_isNull(def) && !clang_equalCursors(def, decl)) return NULL;
      diag_error(loc, "'extern' variable '%s' is not defined in this file", name);
      return NULL;
    }
    if (t->kind == KT_ARRAY && t->len < 0) {
      diag_error(loc, "'constant' array '%s' needs a size", name);
      return NULL;
    }
    /* OpenCL gives the host no device addresses to store: such a table could only be
     * filled on CUDA, so it is refused for every form alike. */
    if ((!has_init || mut) && holds_pointer(t)) {
      diag_error(loc,
                 mut ? "'__device__' variable '%s' holds a pointer, which OpenCL cannot keep in "
                       "a module variable; pass the pointer as a kernel parameter"
                     : "'constant' variable '%s' without an initializer is filled by the host, "
                       "and a host cannot fill pointers portably; pass the pointer as a kernel "
                       "parameter",
                 name);
      return NULL;
    }
    v = kir_var(fe->m, name, t, KV_CONSTANT, loc);
    v->is_const = !mut;
    v->is_mutable = mut;
    v->init = has_init ? fe_initializer(fe, init, t, true) : NULL;
    v->host_filled = !has_init || mut;
  }
  fe_map_put(&fe->decls, canon, v);
  fe_map_put(&fe->decls, decl, v);
  klist_push(&fe->m->globals, v);
  return v;
}

/* A C++ reference variable: a pointer to what it is bound to when that is an lvalue (or
 * when the reference may write: fe_ref_by_address), else a copy of the value (a const
 * reference to a temporary, whose lifetime C++ extends to the reference's). */
static void reference_var(FeCtx *fe, CXCursor decl, CXType ct, KList *out) {
  KLoc loc = fe_loc(fe, decl);
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
  if (clang_Cursor_isNull(init)) return; /* clang has reported it */
  KExpr *e = fe_expr(fe, init);
  bool by_addr = fe_ref_by_address(ct) || kir_is_lvalue(e);
  KExpr *val = by_addr ? fe_addr_of(fe, e, loc) : e;
  /* `const T &r = p[i];`: a pointer to const T, whatever p points to. */
  if (by_addr && val->type->kind == KT_PTR &&
      clang_isConstQualifiedType(clang_getPointeeType(ct)) && !(val->type->qual & KQ_CONST))
    val = kir_cast(val, kir_type_ptr(val->type->base, val->type->as, val->type->qual | KQ_CONST));
  KVar *v = kir_var(fe->m, fe_spelling(decl), val->type, KV_LOCAL, loc);
  if (!by_addr) {
    KType *t = fe_type(fe, clang_getPointeeType(ct), loc);
    if (!t) return;
    val = fe_convert(val, t);
    v->type = t;
    v->is_const = true;
  }
  CXCursor canon = clang_getCanonicalCursor(decl);
  fe_map_put(&fe->decls, canon, v);
  if (by_addr) fe_map_put(&fe->refs, canon, v);
  KStmt *s = kir_stmt(KS_DECL, loc);
  s->var = v;
  s->init = val;
  klist_push(out, s);
}

CXCursor fe_var_initializer(FeCtx *fe, CXCursor decl) {
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
  if (fe->lang != KL_LANG_CU || clang_Cursor_isNull(init)) return init;
  /* `float4 t;` and `__shared__ S s[4];` call a trivial default constructor: no value. Not
     `float4 t = float4();` (value-initialization, written with its type: zero), nor a class
     with default member initializers (`struct D { int i = 5; }; D d;`). */
  if (clang_getCursorKind(init) == CXCursor_CallExpr && clang_Cursor_getNumArguments(init) == 0) {
    CXCursor ctor = clang_getCursorReferenced(init);
    if (clang_getCursorKind(ctor) == CXCursor_Constructor &&
        clang_CXXConstructor_isDefaultConstructor(ctor) && clang_CXXMethod_isDefaulted(ctor) &&
        !fe_cxx_written_init(init) &&
        (!fe_cxx_needs_default_init(clang_getCursorType(init)) ||
         fe_has_annotation(decl, "kcc.shared")))
      return clang_getNullCursor(); /* nvcc runs no constructor for __shared__ either */
  }
  return init;
}

/* The scratch array of the OpenCL work-group functions (cl_workgroup.c): every function's
 * declaration of it is the module's one shared array, declared at module scope like a
 * file-scope `shared` one, which the back ends give each kernel that reaches it. */
static void group_scratch(FeCtx *fe, CXCursor decl, KLoc loc) {
  const char *name = fe_spelling(decl);
  KVar *v = NULL;
  for (int i = 0; i < fe->m->globals.n && !v; i++) {
    KVar *g = fe->m->globals.v[i];
    if (g->group_scratch) v = g;
  }
  if (!v) {
    KType *t = fe_decl_type(fe, decl, loc);
    if (!t) return;
    v = kir_var(fe->m, name, t, KV_SHARED, loc);
    v->group_scratch = true;
    klist_push(&fe->m->globals, v);
  }
  fe_map_put(&fe->decls, clang_getCanonicalCursor(decl), v);
  fe_map_put(&fe->decls, decl, v);
}

static void local_var(FeCtx *fe, CXCursor decl, KList *out) {
  KLoc loc = fe_loc(fe, decl);
  if (fe->lang == KL_LANG_CL && fe_has_annotation(decl, "kcc.group_scratch")) {
    group_scratch(fe, decl, loc);
    return;
  }
  if (fe_has_annotation(decl, "kcc.shared") || fe_has_annotation(decl, "kcc.constant") ||
      (fe->lang == KL_LANG_CL && fe_var_space(decl))) {
    fe_global_var(fe, decl, false);
    return;
  }
  if (fe->ops->check_type && !fe->ops->check_type(fe, clang_getCursorType(decl), loc)) return;
  if (fe->ops->var_decl && fe->ops->var_decl(fe, decl)) return;
  const char *name = fe_spelling(decl);
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(decl);
  if (sc == CX_SC_Static && fe_type_is_const(clang_getCursorType(decl)) &&
      !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(decl))) {
    /* `static const float lut[8] = {...};` (or constexpr): a table of constants, kept once
       for the module like a file-scope one, under a name no other function's can take. */
    KVar *v = fe_global_var(fe, decl, true);
    if (v && fe->func) {
      KBuf b = {0};
      kbuf_printf(&b, "__kcc_%s_%s", fe->func->name, name);
      v->name = kir_strdup(b.data);
      kbuf_free(&b);
    }
    return;
  }
  if (sc == CX_SC_Static) {
    diag_error(loc,
               "static local variable '%s' is not supported in kcc kernels (a 'static const' "
               "one with an initializer is)",
               name);
    return;
  }
  if (sc == CX_SC_Extern) {
    diag_error(loc, "global variable '%s' must be 'constant' or 'shared'", name);
    return;
  }
  if (clang_getCursorTLSKind(decl) != CXTLS_None) {
    diag_error(loc, "thread-local variables are not supported in kcc kernels");
    return;
  }
  CXType ct = clang_getCursorType(decl);
  CXType canon = clang_getCanonicalType(ct); /* a typedef of a reference is one */
  if (canon.kind == CXType_LValueReference || canon.kind == CXType_RValueReference) {
    reference_var(fe, decl, canon, out);
    return;
  }
  KType *t = fe_decl_type(fe, decl, loc);
  if (!t) return;
  KVar *v = kir_var(fe->m, name, t, KV_LOCAL, loc);
  v->is_const = fe_type_is_const(ct);
  /* Registered before the initializer: `int x = sizeof x;` refers to itself. */
  fe_map_put(&fe->decls, clang_getCanonicalCursor(decl), v);
  KStmt *s = kir_stmt(KS_DECL, loc);
  s->var = v;
  CXCursor init = fe_var_initializer(fe, decl);
  if (!clang_Cursor_isNull(init)) s->init = fe_initializer(fe, init, t, false);
  klist_push(out, s);
}

/* C++'s anonymous union (or struct) at block scope declares an unnamed variable whose
 * members are used by name; libclang shows the record, not the variable. KIR names the
 * variable and files it under the record, where a use of its members finds it
 * (lower_expr.c). */
static void anonymous_local(FeCtx *fe, CXCursor rec, KList *out) {
  KLoc loc = fe_loc(fe, rec);
  KType *t = fe_type(fe, clang_getCursorType(rec), loc);
  if (!t) return;
  char name[32];
  snprintf(name, sizeof name, "%s%d", FE_ANON_FIELD, ++fe->anon_vars);
  KVar *v = kir_var(fe->m, kir_strdup(name), t, KV_LOCAL, loc);
  fe_map_put(&fe->decls, clang_getCanonicalCursor(rec), v);
  KStmt *s = kir_stmt(KS_DECL, loc);
  s->var = v;
  klist_push(out, s);
}

static void decl_stmt(FeCtx *fe, CXCursor c, KList *out) {
  FeKids k;
  fe_kids(c, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor d = k.v[i];
    switch (clang_getCursorKind(d)) {
    case CXCursor_VarDecl: local_var(fe, d, out); break;
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_UnionDecl:
      if (clang_Cursor_isAnonymousRecordDecl(d))
        anonymous_local(fe, d, out);
      else
        fe_record_decl(fe, d);
      break;
    case CXCursor_TypedefDecl: fe_typedef_decl(fe, d); break;
    case CXCursor_EnumDecl:
    case CXCursor_FunctionDecl: /* a block-scope prototype */
    case CXCursor_StaticAssert:
    case CXCursor_TypeAliasDecl: /* C++ (CUDA input): names only */
    case CXCursor_NamespaceAlias:
    case CXCursor_UsingDirective:
    case CXCursor_UsingDeclaration: break;
    default: diag_error(fe_loc(fe, d), "this declaration is not supported in kcc kernels"); break;
    }
  }
  fe_kids_free(&k);
}

/* ---------------------------------------------------------------- for loops */

/* libclang lists only the clauses a for loop has, so `for (;x;)` and `for (x;;)` both show one
 * expression: the semicolons between `for (` and the body tell which clause each child is.
 * That needs the loop header written out in the file; for a loop that comes from a macro
 * (spelled elsewhere than where it is expanded) it returns false. */
static bool for_semicolons(FeCtx *fe, CXCursor f, CXCursor body, unsigned *s1, unsigned *s2,
                           unsigned *lp, unsigned *rp) {
  CXSourceLocation floc = clang_getCursorLocation(f);
  CXFile ef = NULL, sf = NULL;
  unsigned eoff = 0, soff = 0;
  clang_getExpansionLocation(floc, &ef, NULL, NULL, &eoff);
  clang_getSpellingLocation(floc, &sf, NULL, NULL, &soff);
  if (!ef || !sf || !clang_File_isEqual(ef, sf) || eoff != soff) return false;
  CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(f));
  CXSourceLocation end = clang_getRangeStart(clang_getCursorExtent(body));
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(fe->tu, clang_getRange(start, end), &toks, &n);
  int found = 0, depth = 0;
  bool closed = false;
  for (unsigned i = 0; i < n && !closed; i++) {
    CXString s = clang_getTokenSpelling(fe->tu, toks[i]);
    const char *t = clang_getCString(s);
    unsigned off = 0;
    clang_getExpansionLocation(clang_getTokenLocation(fe->tu, toks[i]), NULL, NULL, NULL, &off);
    if (i == 0 && (!t || strcmp(t, "for") != 0 || off != eoff)) {
      clang_disposeString(s);
      break;
    }
    if (t && strcmp(t, "(") == 0 && depth++ == 0) *lp = off;
    if (t && strcmp(t, ")") == 0 && --depth == 0) {
      *rp = off;
      closed = true;
    }
    if (t && depth == 1 && strcmp(t, ";") == 0) {
      if (found++ == 0)
        *s1 = off;
      else
        *s2 = off;
    }
    clang_disposeString(s);
  }
  if (toks) clang_disposeTokens(fe->tu, toks, n);
  return found == 2 && closed;
}

static unsigned start_offset(CXCursor c) {
  unsigned off = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &off);
  return off;
}

static void for_stmt(FeCtx *fe, CXCursor c, KList *out) {
  KLoc loc = fe_loc(fe, c);
  FeKids k;
  fe_kids(c, &k);
  if (k.n < 1) {
    fe_kids_free(&k);
    return;
  }
  CXCursor body = k.v[k.n - 1];
  int nclauses = k.n - 1;
  CXCursor role[3] = {clang_getNullCursor(), clang_getNullCursor(), clang_getNullCursor()};
  unsigned s1 = 0, s2 = 0, lp = 0, rp = 0;
  bool placed = false;
  if (nclauses == 3) {
    for (int i = 0; i < 3; i++) role[i] = k.v[i];
    placed = true;
  } else if (nclauses > 0 && for_semicolons(fe, c, body, &s1, &s2, &lp, &rp)) {
    placed = true;
    for (int i = 0; i < nclauses; i++) {
      unsigned off = start_offset(k.v[i]);
      int r = off < s1 ? 0 : off < s2 ? 1 : 2;
      /* A clause from a macro argument could sit outside the parentheses: do not guess. */
      if (off <= lp || off >= rp || !clang_Cursor_isNull(role[r])) placed = false;
      role[r] = k.v[i];
    }
    if (!placed) role[0] = role[1] = role[2] = clang_getNullCursor();
  }
  if (placed || nclauses == 0) {
    /* roles are known */
  } else if (nclauses == 1 && clang_getCursorKind(k.v[0]) == CXCursor_DeclStmt) {
    role[0] = k.v[0];
  } else if (nclauses > 0) {
    diag_error(loc, "a 'for' loop with omitted clauses written inside a macro is not "
                    "supported in kcc kernels");
    fe_kids_free(&k);
    return;
  }
  fe_kids_free(&k);

  KStmt *s = kir_stmt(KS_FOR, loc);
  s->unroll = fe_loop_unroll(fe, c);
  KList pre = {0};
  if (!clang_Cursor_isNull(role[0])) {
    KList init = {0};
    stmt_into(fe, role[0], &init);
    if (init.n == 1) {
      s->init_stmt = init.v[0];
    } else {
      /* `for (int i = 0, j = 0; ...)`: the declarations go in a block around the loop, which
         is the same scope; back ends only ever see one init statement. */
      pre = init;
    }
  }
  if (!clang_Cursor_isNull(role[1])) s->cond = fe_expr(fe, role[1]);
  if (!clang_Cursor_isNull(role[2])) s->step = fe_expr(fe, role[2]);
  s->body = sub_stmt(fe, body);
  if (pre.n) {
    klist_push(&pre, s);
    klist_push(out, block_of(&pre, loc));
  } else {
    klist_push(out, s);
  }
}

/* ---------------------------------------------------------------- range-based for */

static KExpr *var_ref(KVar *v, KLoc loc) {
  KExpr *e = kir_expr(KE_VAR, v->type, loc);
  e->var = v;
  return e;
}

static KVar *loop_local(FeCtx *fe, const char *what, KType *t, KExpr *init, KList *out, KLoc loc) {
  char name[40];
  snprintf(name, sizeof name, "__kcc_%s%d", what, ++fe->ntemps);
  KVar *v = kir_var(fe->m, kir_strdup(name), t, KV_LOCAL, loc);
  KStmt *d = kir_stmt(KS_DECL, loc);
  d->var = v;
  d->init = init;
  klist_push(out, d);
  return v;
}

/* C++'s range-based for (CUDA input) over a range whose elements kcc can see: an array, a
 * braced list or std::initializer_list, and std::array (kcc's own <initializer_list> and
 * <array>, cxxlib.c). libclang shows the loop variable, the range and the body, not the
 * begin and end iterators C++ defines the loop with, so the loop is written over the elements
 * directly: the range evaluated once, then for each index the variable bound to (or
 * initialized from) the element, then the body. */
static void range_for(FeCtx *fe, CXCursor c, KList *out) {
  KLoc loc = fe_loc(fe, c);
  FeKids k;
  fe_kids(c, &k);
  bool shape = k.n == 3 && clang_getCursorKind(k.v[0]) == CXCursor_VarDecl &&
               clang_isExpression(clang_getCursorKind(k.v[1]));
  CXCursor var = shape ? k.v[0] : clang_getNullCursor(), range = shape ? k.v[1] : var,
           body = shape ? k.v[2] : var;
  fe_kids_free(&k);
  CXType rt = shape ? clang_getCursorType(range) : (CXType){0};
  bool il = shape && fe_type_named(rt, "std::initializer_list<"),
       arr = shape && fe_type_named(rt, "std::array<");
  if (fe->lang != KL_LANG_CU || !shape ||
      (!il && !arr && clang_getCanonicalType(rt).kind != CXType_ConstantArray)) {
    stmt_error(fe, c,
               "range-based for loops are supported over an array, a braced list, "
               "std::initializer_list and std::array in kcc kernels; index the container");
    return;
  }
  KList pre = {0};
  KExpr *r = fe_expr(fe, range);
  if (!kir_is_lvalue(r)) r = var_ref(loop_local(fe, "range", r->type, r, &pre, loc), loc);
  if (arr) r = fe_member_of(fe, r, "__elems", loc);
  KType *i64 = kir_type_scalar(KT_I64);
  KExpr *base, *count;
  if (il) {
    base = fe_member_of(fe, r, "__b", loc);
    count = fe_convert(fe_member_of(fe, r, "__n", loc), i64);
  } else if (r->type->kind == KT_ARRAY) {
    base = fe_addr_of(fe, fe_array_elem(r, 0, loc), loc);
    count = kir_int(i64, r->type->len, loc);
  } else {
    stmt_error(fe, c, "cannot lower this range-based for loop"); /* not reached */
    return;
  }
  KVar *bv = loop_local(fe, "rbegin", base->type, base, &pre, loc);
  KVar *nv = loop_local(fe, "rcount", i64, count, &pre, loc);
  KStmt *f = kir_stmt(KS_FOR, loc);
  f->unroll = fe_loop_unroll(fe, c);
  KList init = {0};
  KVar *iv = loop_local(fe, "ri", i64, kir_int(i64, 0, loc), &init, loc);
  f->init_stmt = init.v[0];
  f->cond = kir_binary(KB_LT, kir_type_scalar(KT_I32), var_ref(iv, loc), var_ref(nv, loc), loc);
  f->step = kir_expr(KE_INCDEC, i64, loc);
  f->step->op = KU_PREINC;
  f->step->a = var_ref(iv, loc);
  KExpr *elem = kir_expr(KE_INDEX, base->type->base, loc);
  elem->a = var_ref(bv, loc);
  elem->b = var_ref(iv, loc);
  /* The loop variable: a reference is the element's address, anything else a copy. */
  KList each = {0};
  KLoc vloc = fe_loc(fe, var);
  CXType vt = clang_getCanonicalType(clang_getCursorType(var));
  CXCursor canon = clang_getCanonicalCursor(var);
  bool ref = vt.kind == CXType_LValueReference || vt.kind == CXType_RValueReference;
  KType *t = ref ? NULL : fe_decl_type(fe, var, vloc);
  if (!ref && !t) return; /* fe_decl_type said why */
  KExpr *val = ref ? fe_addr_of(fe, elem, vloc) : fe_convert(elem, t);
  KVar *v = kir_var(fe->m, fe_spelling(var), val->type, KV_LOCAL, vloc);
  v->is_const = !ref && fe_type_is_const(clang_getCursorType(var));
  fe_map_put(&fe->decls, canon, v);
  if (ref) fe_map_put(&fe->refs, canon, v);
  KStmt *d = kir_stmt(KS_DECL, vloc);
  d->var = v;
  d->init = val;
  klist_push(&each, d);
  klist_push(&each, sub_stmt(fe, body));
  f->body = block_of(&each, loc);
  klist_push(&pre, f);
  klist_push(out, block_of(&pre, loc));
}

/* ---------------------------------------------------------------- switch */

static void switch_stmt(FeCtx *fe, CXCursor c, KList *out) {
  KLoc loc = fe_loc(fe, c);
  FeKids k;
  fe_kids(c, &k);
  if (k.n != 2) {
    fe_kids_free(&k);
    diag_error(loc, "this switch statement is not supported in kcc kernels");
    return;
  }
  CXCursor cond = k.v[0], body = k.v[1];
  fe_kids_free(&k);
  KStmt *s = kir_stmt(KS_SWITCH, loc);
  s->cond = fe_expr(fe, cond);
  FeSwitch sw = {s, fe->block_depth + 1};
  FeSwitch *outer = fe->sw;
  fe->sw = &sw;
  if (clang_getCursorKind(body) == CXCursor_CompoundStmt) {
    /* The compound statement is the level the case labels must be on (sw.block_depth). */
    KList l = {0};
    stmt_into(fe, body, &l);
    s->body = l.n == 1 ? l.v[0] : block_of(&l, fe_loc(fe, body));
  } else {
    KList l = {0};
    fe->block_depth++;
    stmt_into(fe, body, &l);
    fe->block_depth--;
    s->body = block_of(&l, fe_loc(fe, body));
  }
  fe->sw = outer;
  klist_push(out, s);
}

static void case_stmt(FeCtx *fe, CXCursor c, KList *out) {
  KLoc loc = fe_loc(fe, c);
  bool is_default = clang_getCursorKind(c) == CXCursor_DefaultStmt;
  FeKids k;
  fe_kids(c, &k);
  CXCursor sub = k.n ? k.v[k.n - 1] : clang_getNullCursor();
  CXCursor val = !is_default && k.n >= 2 ? k.v[0] : clang_getNullCursor();
  int n = k.n;
  fe_kids_free(&k);
  if (!is_default && n == 3) {
    diag_error(loc, "case ranges are not supported in kcc kernels");
    return;
  }
  /* A label may sit inside nested statements (Duff's device): the label belongs to the
   * innermost switch, and the back ends jump to it wherever it is (the Vulkan form, whose
   * control flow is structured, lowers such a switch to a search: compiler/spirv/spirv.c). */
  if (!fe->sw) {
    diag_error(loc, "'%s' label outside a switch", is_default ? "default" : "case");
    return;
  }
  KStmt *s = kir_stmt(KS_CASE, loc);
  s->is_default = is_default;
  if (!is_default) {
    CXEvalResult r = clang_Cursor_Evaluate(val);
    if (!r || clang_EvalResult_getKind(r) != CXEval_Int) {
      diag_error(loc, "cannot evaluate this case value");
    } else {
      uint64_t v = clang_EvalResult_isUnsignedInt(r) ? (uint64_t)clang_EvalResult_getAsUnsigned(r)
                                                     : (uint64_t)clang_EvalResult_getAsLongLong(r);
      KType *ct = fe->sw->sw->cond->type;
      /* C converts each case value to the promoted type of the controlling expression. */
      s->value = kir_is_int(ct) ? (int64_t)fe_int_const(ct, v, loc)->ival : (int64_t)v;
    }
    if (r) clang_EvalResult_dispose(r);
  }
  klist_push(out, s);
  klist_push(&fe->sw->sw->cases, s);
  if (!clang_Cursor_isNull(sub)) stmt_into(fe, sub, out);
}

/* ---------------------------------------------------------------- statements */

/* The function's label of that name, made at its first goto or at the label itself. */
static KStmt *label_named(FeCtx *fe, const char *name, KLoc loc) {
  for (int i = 0; i < fe->labels.n; i++)
    if (!strcmp(((KStmt *)fe->labels.v[i])->label, name)) return fe->labels.v[i];
  KStmt *l = kir_stmt(KS_LABEL, loc);
  l->label = kir_strdup(name ? name : "");
  klist_push(&fe->labels, l);
  return l;
}

static void stmt_error(FeCtx *fe, CXCursor c, const char *msg) {
  diag_error(fe_loc(fe, c), "%s", msg);
}

/* The block of a GNU statement expression written as a statement, through parentheses and
 * casts (to void, or clang's implicit ones), or a null cursor. (A statement expression whose
 * value is used is refused where expressions are lowered.) */
static CXCursor discarded_block(CXCursor c) {
  for (;;) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr && k != CXCursor_CStyleCastExpr &&
        k != CXCursor_StmtExpr)
      return clang_getNullCursor();
    FeKids kids;
    fe_kids(c, &kids);
    CXCursor last = kids.n ? kids.v[kids.n - 1] : clang_getNullCursor();
    fe_kids_free(&kids);
    if (clang_Cursor_isNull(last)) return last;
    if (k == CXCursor_StmtExpr)
      return clang_getCursorKind(last) == CXCursor_CompoundStmt ? last : clang_getNullCursor();
    c = last; /* a cast's operand is its last child (after a written type) */
  }
}

static void stmt_into(FeCtx *fe, CXCursor c, KList *out) {
  if (!fe_enter(fe, c)) return;
  KLoc loc = fe_loc(fe, c);
  enum CXCursorKind kind = clang_getCursorKind(c);
  FeKids k;
  switch (kind) {
  case CXCursor_CompoundStmt: {
    KStmt *b = kir_stmt(KS_BLOCK, loc);
    fe_kids(c, &k);
    int outer = fe->contract;
    fe->contract = fe_contract_in_block(fe, c, k.n ? k.v[0] : clang_getNullCursor(), outer);
    fe->block_depth++;
    for (int i = 0; i < k.n; i++) stmt_into(fe, k.v[i], &b->list);
    fe->block_depth--;
    fe->contract = outer;
    fe_kids_free(&k);
    klist_push(out, b);
    break;
  }
  case CXCursor_DeclStmt: decl_stmt(fe, c, out); break;
  case CXCursor_NullStmt: klist_push(out, kir_stmt(KS_EMPTY, loc)); break;
  case CXCursor_IfStmt: {
    fe_kids(c, &k);
    if (fe->lang == KL_LANG_CU && (k.n == 2 || k.n == 3) && constexpr_if(fe, c)) {
      /* Only the branch the condition takes exists in a template's instantiation (the other
         is not even a child): lower that one, whichever position it holds. */
      CXEvalResult r = clang_Cursor_Evaluate(k.v[0]);
      bool ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
      bool taken = ok && clang_EvalResult_getAsLongLong(r) != 0;
      if (r) clang_EvalResult_dispose(r);
      if (!ok) {
        stmt_error(fe, c, "this 'if constexpr' condition is not a constant kcc can read");
      } else {
        for (int i = 1; i < k.n; i++)
          if (after_else(fe, c, k.v[i]) != taken) klist_push(out, sub_stmt(fe, k.v[i]));
      }
      fe_kids_free(&k);
      break;
    }
    if (k.n == 2 || k.n == 3) {
      KStmt *s = kir_stmt(KS_IF, loc);
      s->cond = fe_expr(fe, k.v[0]);
      s->then = sub_stmt(fe, k.v[1]);
      if (k.n == 3) s->els = sub_stmt(fe, k.v[2]);
      klist_push(out, s);
    } else {
      stmt_error(fe, c, "this 'if' statement is not supported in kcc kernels");
    }
    fe_kids_free(&k);
    break;
  }
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt: {
    fe_kids(c, &k);
    if (k.n == 2) {
      bool is_do = kind == CXCursor_DoStmt;
      KStmt *s = kir_stmt(is_do ? KS_DO : KS_WHILE, loc);
      s->unroll = fe_loop_unroll(fe, c);
      s->cond = fe_expr(fe, k.v[is_do ? 1 : 0]);
      s->body = sub_stmt(fe, k.v[is_do ? 0 : 1]);
      klist_push(out, s);
    } else {
      stmt_error(fe, c, "this loop is not supported in kcc kernels");
    }
    fe_kids_free(&k);
    break;
  }
  case CXCursor_ForStmt: for_stmt(fe, c, out); break;
  case CXCursor_SwitchStmt: switch_stmt(fe, c, out); break;
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt: case_stmt(fe, c, out); break;
  case CXCursor_BreakStmt: klist_push(out, kir_stmt(KS_BREAK, loc)); break;
  case CXCursor_ContinueStmt: klist_push(out, kir_stmt(KS_CONTINUE, loc)); break;
  case CXCursor_ReturnStmt: {
    KStmt *s = kir_stmt(KS_RETURN, loc);
    fe_kids_expr(c, &k);
    CXCursor list = k.n == 1 ? k.v[0] : clang_getNullCursor();
    while (!clang_Cursor_isNull(list) && clang_getCursorKind(list) == CXCursor_UnexposedExpr) {
      FeKids u;
      fe_kids_expr(list, &u);
      list = u.n == 1 ? u.v[0] : clang_getNullCursor();
      fe_kids_free(&u);
    }
    if (fe->lang == KL_LANG_CU && !clang_Cursor_isNull(list) &&
        clang_getCursorKind(list) == CXCursor_InitListExpr && !fe->ret_ref && fe->func &&
        fe->func->ret->kind != KT_VOID) {
      /* `return {...};` (C++): { T __kcc_ret = {...}; return __kcc_ret; } */
      KVar *v = kir_var(fe->m, "__kcc_ret", fe->func->ret, KV_LOCAL, loc);
      KStmt *d = kir_stmt(KS_DECL, loc);
      d->var = v;
      d->init = fe_initializer(fe, list, v->type, false);
      s->expr = kir_expr(KE_VAR, v->type, loc);
      s->expr->var = v;
      KStmt *b = kir_stmt(KS_BLOCK, loc);
      klist_push(&b->list, d);
      klist_push(&b->list, s);
      fe_kids_free(&k);
      klist_push(out, b);
      break;
    }
    if (k.n == 1) {
      s->expr = fe_expr(fe, k.v[0]);
      if (fe->ret_ref)
        s->expr = fe_addr_of(fe, s->expr, s->expr->loc); /* a reference is returned by address */
      else if (fe->func && fe->func->ret->kind != KT_VOID)
        s->expr = fe_convert(s->expr, fe->func->ret);
    }
    fe_kids_free(&k);
    klist_push(out, s);
    break;
  }
  case CXCursor_LabelStmt: {
    /* `name: statement`: the label, then its statement */
    CXString sp = clang_getCursorSpelling(c);
    KStmt *l = label_named(fe, clang_getCString(sp), loc);
    clang_disposeString(sp);
    l->loc = loc;
    klist_push(out, l);
    fe_kids(c, &k);
    for (int i = 0; i < k.n; i++) stmt_into(fe, k.v[i], out);
    fe_kids_free(&k);
    break;
  }
  case CXCursor_GotoStmt: {
    fe_kids(c, &k);
    CXString sp = clang_getCursorSpelling(k.n ? k.v[0] : c);
    KStmt *s = kir_stmt(KS_GOTO, loc);
    s->target = label_named(fe, clang_getCString(sp), loc);
    clang_disposeString(sp);
    fe_kids_free(&k);
    klist_push(out, s);
    break;
  }
  case CXCursor_IndirectGotoStmt:
    stmt_error(fe, c, "a computed 'goto *' is not supported in kcc kernels");
    break;
  case CXCursor_GCCAsmStmt:
    if (fe->ops->asm_stmt) { /* CUDA: inline PTX (cuda_asm.c) */
      KStmt *s = kir_stmt(KS_EXPR, loc);
      s->expr = fe->ops->asm_stmt(fe, c, loc);
      klist_push(out, s);
      break;
    }
    /* fall through */
  case CXCursor_MSAsmStmt:
    stmt_error(fe, c, "inline assembly is not supported in kcc kernels");
    break;
  case CXCursor_CXXForRangeStmt: range_for(fe, c, out); break;
  case CXCursor_CXXTryStmt: stmt_error(fe, c, "exceptions are not supported in kcc kernels"); break;
  case CXCursor_UnexposedStmt: {
    /* An attributed statement (#pragma unroll, __attribute__((fallthrough))): the hint does
       not change the meaning, the statement is kept. */
    fe_kids(c, &k);
    if (k.n == 1 && clang_isStatement(clang_getCursorKind(k.v[0])))
      stmt_into(fe, k.v[0], out);
    else if (k.n == 1 && clang_isExpression(clang_getCursorKind(k.v[0])))
      stmt_into(fe, k.v[0], out);
    else
      stmt_error(fe, c, "this statement is not supported in kcc kernels");
    fe_kids_free(&k);
    break;
  }
  default: {
    /* GNU's `({ ... })` as a statement: its value is discarded, so it is its block. */
    CXCursor block = clang_isExpression(kind) ? discarded_block(c) : clang_getNullCursor();
    if (!clang_Cursor_isNull(block)) {
      stmt_into(fe, block, out);
    } else if (clang_isExpression(kind)) {
      KStmt *s = kir_stmt(KS_EXPR, loc);
      s->expr = fe_expr(fe, c);
      klist_push(out, s);
    } else {
      CXString sp = clang_getCursorKindSpelling(kind);
      diag_error(loc, "statement of kind '%s' is not supported in kcc kernels",
                 clang_getCString(sp));
      clang_disposeString(sp);
    }
    break;
  }
  }
  fe_leave(fe);
}

KStmt *fe_body(FeCtx *fe, CXCursor compound) {
  KList l = {0};
  fe->block_depth = 0;
  fe->sw = NULL;
  stmt_into(fe, compound, &l);
  if (l.n == 1 && ((KStmt *)l.v[0])->kind == KS_BLOCK) return l.v[0];
  return block_of(&l, fe_loc(fe, compound));
}

void fe_lower_body(FeCtx *fe, KFunc *f, CXCursor def) {
  FeKids k;
  fe_kids(def, &k);
  CXCursor body = clang_getNullCursor();
  for (int i = 0; i < k.n; i++)
    if (clang_getCursorKind(k.v[i]) == CXCursor_CompoundStmt) body = k.v[i];
  fe_kids_free(&k);
  /* Possibly called in the middle of another function's body: its state is saved. */
  KFunc *saved_func = fe->func;
  int saved_depth = fe->depth, saved_block = fe->block_depth;
  FeSwitch *saved_sw = fe->sw;
  KList saved_labels = fe->labels;
  KVar *saved_this = fe->this_var;
  bool saved_ret_ref = fe->ret_ref;
  KList saved_temps = fe->temps;
  int saved_contract = fe->contract;
  if (!clang_Cursor_isNull(body)) fe->contract = fe_contract_at_body(fe, body);
  fe->func = f;
  fe->depth = 0;
  fe->block_depth = 0;
  fe->sw = NULL;
  fe->labels = (KList){0};
  fe->temps = (KList){0};
  bool method = fe_is_method(def);
  fe->this_var = method && f->nparams ? f->params[0] : NULL;
  fe->ret_ref = fe_ref_by_address(clang_getResultType(clang_getCursorType(def)));
  KList inits = {0};
  if (clang_getCursorKind(def) == CXCursor_Constructor) fe_cxx_ctor_inits(fe, def, &inits);
  if (!clang_Cursor_isNull(body)) f->body = fe_body(fe, body);
  if (!f->body) f->body = kir_stmt(KS_BLOCK, f->loc);
  if (inits.n) {
    KStmt *b = kir_stmt(KS_BLOCK, f->loc);
    for (int i = 0; i < inits.n; i++) klist_push(&b->list, inits.v[i]);
    klist_push(&b->list, f->body);
    f->body = b;
  }
  if (fe->temps.n) {
    /* Temporaries that references bind to, declared before everything else. */
    KList l = {0};
    for (int i = 0; i < fe->temps.n; i++) klist_push(&l, fe->temps.v[i]);
    if (f->body->kind == KS_BLOCK) {
      for (int i = 0; i < f->body->list.n; i++) klist_push(&l, f->body->list.v[i]);
      f->body->list = l;
    } else {
      klist_push(&l, f->body);
      KStmt *b = kir_stmt(KS_BLOCK, f->loc);
      b->list = l;
      f->body = b;
    }
  }
  fe->func = saved_func;
  fe->depth = saved_depth;
  fe->block_depth = saved_block;
  fe->sw = saved_sw;
  fe->labels = saved_labels;
  fe->this_var = saved_this;
  fe->ret_ref = saved_ret_ref;
  fe->temps = saved_temps;
  fe->contract = saved_contract;
}
