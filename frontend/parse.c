/* parse.c — frontend_parse: libclang setup, forwarding of clang's diagnostics, the include
 * list for -MD, and the file-scope walk (functions, shared/constant globals, types). */
#define _GNU_SOURCE 1 /* sigjmp_buf, siginfo_t, MAP_NORESERVE: POSIX and Linux */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe.h"

/* ---------------------------------------------------------------- small shared helpers */

static bool cursor_eq(const void *stored, const void *probe, void *ctx) {
  (void)ctx;
  return clang_equalCursors(*(const CXCursor *)stored, *(const CXCursor *)probe);
}

void *fe_map_get(FeMap *m, CXCursor key) {
  if (!m->n) return NULL;
  KMapEnt *e = kmap_lookup(m, clang_hashCursor(key), &key, cursor_eq, NULL);
  return e->used ? e->val : NULL;
}

void fe_map_put(FeMap *m, CXCursor key, void *val) {
  unsigned h = clang_hashCursor(key);
  KMapEnt *e = kmap_lookup(m, h, &key, cursor_eq, NULL);
  if (e->used) {
    e->val = val;
    return;
  }
  CXCursor *stored = kir_alloc(sizeof *stored);
  *stored = key;
  kmap_claim(m, e, h, stored, val);
}

typedef struct KidsCtx {
  FeKids *k;
  bool expr_only;
} KidsCtx;

static enum CXChildVisitResult kids_visit(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  KidsCtx *kc = d;
  FeKids *k = kc->k;
  if (kc->expr_only && !clang_isExpression(clang_getCursorKind(c))) return CXChildVisit_Continue;
  if (k->n == k->cap) {
    int cap = k->cap * 2;
    CXCursor *v = malloc(sizeof(CXCursor) * (size_t)cap);
    if (!v) {
      fputs("kcc: fatal error: out of memory\n", stderr);
      exit(1);
    }
    memcpy(v, k->v, sizeof(CXCursor) * (size_t)k->n);
    if (k->v != k->inl) free(k->v);
    k->v = v;
    k->cap = cap;
  }
  k->v[k->n++] = c;
  return CXChildVisit_Continue;
}

static void kids(CXCursor c, FeKids *k, bool expr_only) {
  k->v = k->inl;
  k->n = 0;
  k->cap = (int)(sizeof k->inl / sizeof k->inl[0]);
  KidsCtx kc = {k, expr_only};
  clang_visitChildren(c, kids_visit, &kc);
}

void fe_kids(CXCursor c, FeKids *k) {
  kids(c, k, false);
}
void fe_kids_expr(CXCursor c, FeKids *k) {
  kids(c, k, true);
}
static enum CXVisitorResult field_visit(CXCursor c, CXClientData d) {
  kids_visit(c, c, d);
  return CXVisit_Continue;
}

void fe_fields(CXType record, FeKids *k) {
  k->v = k->inl;
  k->n = 0;
  k->cap = (int)(sizeof k->inl / sizeof k->inl[0]);
  KidsCtx kc = {k, false};
  clang_Type_visitFields(record, field_visit, &kc);
}

void fe_kids_free(FeKids *k) {
  if (k->v != k->inl) free(k->v);
  k->v = k->inl;
  k->n = 0;
}

const char *fe_spelling(CXCursor c) {
  CXString s = clang_getCursorSpelling(c);
  const char *p = clang_getCString(s);
  char *r = kir_strdup(p ? p : "");
  clang_disposeString(s);
  return r;
}

/* Whether two CXFiles are one file. clang_File_isEqual compares unique IDs, which kcc's
 * virtual files (unsaved buffers) all share: their names tell them apart. */
static bool same_file(CXFile a, CXFile b) {
  if (a == b) return true;
  if (!clang_File_isEqual(a, b)) return false;
  CXString sa = clang_getFileName(a), sb = clang_getFileName(b);
  const char *na = clang_getCString(sa), *nb = clang_getCString(sb);
  bool same = na && nb && strcmp(na, nb) == 0;
  clang_disposeString(sa);
  clang_disposeString(sb);
  return same;
}

static const char *file_name(FeCtx *fe, CXFile f) {
  if (!f) return NULL;
  for (int i = fe->nnames - 1; i >= 0; i--)
    if (same_file(fe->names[i].file, f)) return fe->names[i].name;
  const char *name;
  if (fe->main_file && same_file(f, fe->main_file)) {
    name = fe->path; /* as the user named it, for messages and tests */
  } else {
    CXString s = clang_getFileName(f);
    name = kir_strdup(clang_getCString(s) ? clang_getCString(s) : "?");
    clang_disposeString(s);
  }
  if (fe->nnames == fe->capnames) {
    fe->capnames = fe->capnames ? fe->capnames * 2 : 16;
    FeFileName *v = realloc(fe->names, sizeof *v * (size_t)fe->capnames);
    if (!v) {
      fputs("kcc: fatal error: out of memory\n", stderr);
      exit(1);
    }
    fe->names = v;
  }
  fe->names[fe->nnames++] = (FeFileName){f, name};
  return name;
}

KLoc fe_loc_of(FeCtx *fe, CXSourceLocation l) {
  CXFile f = NULL;
  unsigned line = 0, col = 0;
  clang_getExpansionLocation(l, &f, &line, &col, NULL);
  KLoc k = {file_name(fe, f), (int)line, (int)col};
  /* What --instantiate appended to the main file (cu_with_instantiations) is reported under
   * the option's name, which its #line gives. */
  CXString pf;
  unsigned pl = 0, pc = 0;
  clang_getPresumedLocation(l, &pf, &pl, &pc);
  const char *pn = clang_getCString(pf);
  if (pn && !strncmp(pn, "--instantiate=", 14)) k = (KLoc){kir_strdup(pn), (int)pl, (int)pc};
  clang_disposeString(pf);
  return k;
}

KLoc fe_loc(FeCtx *fe, CXCursor c) {
  return fe_loc_of(fe, clang_getCursorLocation(c));
}

bool fe_in_vfile(FeCtx *fe, CXCursor c) {
  CXFile f = NULL;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
  if (!f) return false;
  return fe_is_vfile_name(file_name(fe, f));
}

bool fe_in_macro(CXSourceLocation l) {
  CXFile f1, f2;
  unsigned o1, o2;
  clang_getExpansionLocation(l, &f1, NULL, NULL, &o1);
  clang_getSpellingLocation(l, &f2, NULL, NULL, &o2);
  return o1 != o2 || !f1 || !f2 || !clang_File_isEqual(f1, f2);
}

bool fe_is_record_kind(enum CXCursorKind k) {
  return k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
         k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

typedef struct AnnCtx {
  const char *what;
  CXCursor at;
} AnnCtx;

static enum CXChildVisitResult ann_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  AnnCtx *a = d;
  if (clang_getCursorKind(c) == CXCursor_AnnotateAttr) {
    CXString s = clang_getCursorSpelling(c);
    if (clang_getCString(s) && strcmp(clang_getCString(s), a->what) == 0) {
      a->at = c;
    }
    clang_disposeString(s);
  }
  return CXChildVisit_Continue;
}

CXCursor fe_find_annotation(CXCursor c, const char *what) {
  AnnCtx a = {what, clang_getNullCursor()};
  clang_visitChildren(c, ann_visit, &a);
  return a.at;
}

bool fe_has_annotation(CXCursor c, const char *what) {
  return !clang_Cursor_isNull(fe_find_annotation(c, what));
}

bool fe_enter(FeCtx *fe, CXCursor c) {
  if (fe->depth >= FE_MAX_DEPTH) {
    if (!fe->too_deep) diag_error(fe_loc(fe, c), "expression nesting too deep");
    fe->too_deep = true;
    return false;
  }
  fe->depth++;
  return true;
}

void fe_leave(FeCtx *fe) {
  fe->depth--;
}

CXToken *fe_tokens_to(FeCtx *fe, CXCursor c, CXSourceLocation to, unsigned *n) {
  CXFile f1 = NULL, f2 = NULL;
  unsigned o1 = 0, o2 = 0;
  *n = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(to, &f2, NULL, NULL, &o2);
  if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 < o1) return NULL;
  CXToken *t = NULL;
  clang_tokenize(fe->tu,
                 clang_getRange(clang_getLocationForOffset(fe->tu, f1, o1),
                                clang_getLocationForOffset(fe->tu, f1, o2)),
                 &t, n);
  return t;
}

bool fe_token_is(FeCtx *fe, CXToken t, const char *s) {
  CXString sp = clang_getTokenSpelling(fe->tu, t);
  bool yes = !strcmp(clang_getCString(sp), s);
  clang_disposeString(sp);
  return yes;
}

/* ---------------------------------------------------------------- clang diagnostics */

void fe_forward_diag(FeCtx *fe, CXDiagnostic d, bool as_note) {
  enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
  if (sev == CXDiagnostic_Ignored) return;
  DiagLevel level = as_note || sev == CXDiagnostic_Note ? DIAG_NOTE
                    : sev == CXDiagnostic_Warning       ? DIAG_WARNING
                    : sev == CXDiagnostic_Error         ? DIAG_ERROR
                                                        : DIAG_FATAL;
  KLoc loc = fe_loc_of(fe, clang_getDiagnosticLocation(d));
  /* kcc's own headers are its business, not the user's: a warning there (an unused parameter
     of a built-in's definition under -Wextra) is dropped with its notes. */
  if (level == DIAG_WARNING && fe_is_vfile_name(loc.file)) return;
  CXString msg = clang_getDiagnosticSpelling(d);
  CXString opt = clang_getDiagnosticOption(d, NULL);
  const char *o = clang_getCString(opt);
  const char *inst = strstr(clang_getCString(msg), "'__kcc_inst_opt");
  int ii = inst ? atoi(inst + 15) : -1;
  if (inst && fe->opts && ii >= 0 && ii < fe->opts->ninstantiate) {
    /* The declaration kcc wrote for --instantiate=NAME<ARGS> (cu_with_instantiations) took
       no specialisation: say so of the option, not of kcc's variable. */
    const char *text = fe->opts->instantiate[ii];
    KBuf f = {0};
    kbuf_printf(&f, "--instantiate=%s", text);
    diag_report(level, (KLoc){kir_strdup(f.data), 1, 1},
                "'%s' names no specialisation of a function template of this file: check its "
                "template arguments against the template's parameters",
                text);
    kbuf_free(&f);
  } else if ((level == DIAG_WARNING || level == DIAG_ERROR) && o && *o)
    diag_report(level, loc, "%s [%s]", clang_getCString(msg), o);
  else
    diag_report(level, loc, "%s", clang_getCString(msg));
  clang_disposeString(opt);
  clang_disposeString(msg);
  CXDiagnosticSet kids = clang_getChildDiagnostics(d);
  unsigned n = clang_getNumDiagnosticsInSet(kids);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic k = clang_getDiagnosticInSet(kids, i);
    fe_forward_diag(fe, k, true);
    clang_disposeDiagnostic(k);
  }
}

/* Returns the number of errors clang reported. */
static int forward_diags(FeCtx *fe) {
  int errors = 0;
  unsigned n = clang_getNumDiagnostics(fe->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(fe->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) errors++;
    fe_forward_diag(fe, d, false);
    clang_disposeDiagnostic(d);
  }
  return errors;
}

/* ---------------------------------------------------------------- -MD */

typedef struct DepCtx {
  FeCtx *fe;
  KList *deps;
} DepCtx;

static void dep_visit(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d) {
  (void)stack;
  (void)n;
  DepCtx *dc = d;
  if (dc->fe->main_file && clang_File_isEqual(f, dc->fe->main_file)) return;
  CXString s = clang_getFileName(f);
  const char *name = clang_getCString(s);
  if (name && !fe_is_vfile_name(name)) {
    bool seen = false;
    for (int i = 0; i < dc->deps->n && !seen; i++) seen = !strcmp(dc->deps->v[i], name);
    if (!seen) klist_push(dc->deps, kir_strdup(name));
  }
  clang_disposeString(s);
}

/* ---------------------------------------------------------------- file scope */

/* __launch_bounds__(max_threads[, min_blocks]) on kernel f: the annotation's arguments are
 * its children, integer constant expressions that libclang evaluates. */
static void launch_bounds(FeCtx *fe, CXCursor def, KFunc *f) {
  CXCursor at = fe_find_annotation(def, "kcc.launch_bounds");
  if (clang_Cursor_isNull(at)) return;
  KLoc loc = fe_loc(fe, at);
  if (!f->is_kernel) {
    diag_error(loc, "__launch_bounds__ applies to kernels only, not to device function '%s'",
               f->name);
    return;
  }
  FeKids k;
  fe_kids(at, &k);
  int64_t v[2] = {0, 0};
  for (int i = 0; i < k.n; i++) {
    CXEvalResult r = clang_Cursor_Evaluate(k.v[i]);
    bool ok = i < 2 && r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) v[i] = clang_EvalResult_getAsLongLong(r);
    if (r) clang_EvalResult_dispose(r);
    if (!ok) {
      diag_error(fe_loc(fe, k.v[i]),
                 i < 2 ? "__launch_bounds__ needs integer constants"
                       : "__launch_bounds__ takes at most 2 arguments here (max threads per "
                         "block, min blocks per multiprocessor)");
      fe_kids_free(&k);
      return;
    }
  }
  int nargs = k.n;
  fe_kids_free(&k);
  if (nargs < 1 || v[0] < 1 || v[0] > 1024 || v[1] < 0 || v[1] > 1024) {
    diag_error(loc,
               "__launch_bounds__(%lld, %lld): max threads per block must be in [1, 1024] and "
               "min blocks per multiprocessor in [0, 1024]",
               (long long)v[0], (long long)v[1]);
    return;
  }
  f->max_threads = (int)v[0];
  f->min_blocks = (int)v[1];
}

static KFunc *declare_function(FeCtx *fe, CXCursor def) {
  KLoc loc = fe_loc(fe, def);
  KFunc *f = kir_alloc(sizeof *f);
  f->name = fe_spelling(def);
  f->loc = loc;
  f->is_kernel = fe_has_annotation(def, "kcc.kernel");
  if (fe->lang == KL_LANG_CU) f->name = fe_cu_func_name(fe, def, f->is_kernel);
  f->is_static = clang_Cursor_getStorageClass(def) == CX_SC_Static;
  f->is_inline = clang_Cursor_isFunctionInlined(def) != 0;
  launch_bounds(fe, def, f);
  if (fe->lang == KL_LANG_CL) fe_cl_kernel_attrs(fe, def, f);
  CXType ft = clang_getCursorType(def);
  CXType rt = clang_getResultType(ft);
  /* A const reference is returned as the value, as it is passed (fe_ref_by_address): the
     referent may be a parameter, which is a copy in KIR. */
  if (clang_getCanonicalType(rt).kind == CXType_LValueReference && !fe_ref_by_address(rt))
    rt = clang_getPointeeType(clang_getCanonicalType(rt));
  f->ret = fe_type(fe, rt, loc);
  if (!f->ret) f->ret = kir_type_void();
  if (f->is_kernel && f->ret->kind != KT_VOID)
    diag_error(loc, "kernel function '%s' must return void", f->name);
  /* `void k()` (no prototype in C before C23) defines a function without parameters: that is
   * how CUDA spells it, and clang reports such a type as variadic. */
  if (clang_isFunctionTypeVariadic(ft) && ft.kind != CXType_FunctionNoProto)
    diag_error(loc, "variadic functions are not supported in kcc kernels");
  if (f->ret->kind == KT_ARRAY) f->ret = kir_type_void(); /* clang rejected it */
  int n = clang_Cursor_getNumArguments(def);
  if (n < 0) n = 0;
  f->params = kir_alloc(sizeof(KVar *) * (size_t)(n + 1));
  if (fe_is_method(def)) {
    /* A method's object is its first parameter, `this`. */
    KType *ct = fe_type(fe, clang_getCursorType(clang_getCursorSemanticParent(def)), loc);
    if (!ct) ct = kir_type_scalar(KT_I32);
    int q = clang_CXXMethod_isConst(def) ? KQ_CONST : 0;
    f->params[f->nparams++] =
        kir_var(fe->m, "this", kir_type_ptr(ct, KAS_GENERIC, q), KV_PARAM, loc);
  }
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(def, i);
    KLoc ploc = fe_loc(fe, p);
    bool cl = fe->lang == KL_LANG_CL;
    CXType pct = clang_getCursorType(p), canon = clang_getCanonicalType(pct);
    bool ref = canon.kind == CXType_LValueReference || canon.kind == CXType_RValueReference;
    if (ref && f->is_kernel) {
      diag_error(ploc, "kernel parameter '%s' cannot be a reference: the host passes values",
                 fe_spelling(p));
    } else if (ref && !fe_ref_by_address(pct)) {
      pct = clang_getPointeeType(canon); /* const T &: the value (fe_ref_by_address) */
    } else if (ref) {
      pct = canon;
      fe_map_put(&fe->refs, clang_getCanonicalCursor(p), (void *)1);
      fe_map_put(&fe->refs, p, (void *)1);
    }
    KType *t = cl && !fe_cl_check_type(fe, pct, ploc) ? NULL : fe_param_type(fe, pct, ploc);
    if (!t) t = kir_type_scalar(KT_I32);
    if (f->is_kernel && cl) {
      /* OpenCL names the space: __local is local memory sized at launch; __constant is a
       * read-only buffer like any other (CUDA's constant bank holds no runtime buffers). */
      KAddrSpace as = fe_cl_pointee_space(clang_getCursorType(p));
      if (as == KAS_CONSTANT && t->kind == KT_PTR)
        t = kir_type_ptr(t->base, KAS_GLOBAL, t->qual | KQ_CONST);
      else
        t = fe_ptr_as(t, as == KAS_SHARED ? KAS_SHARED : KAS_GLOBAL);
    } else if (f->is_kernel) {
      t = fe_ptr_chain_as(t, KAS_GLOBAL);
    }
    const char *name = fe_spelling(p);
    /* A parameter is a value passed by the host: it lives in no memory space of its own,
     * and a pointer parameter points to global memory. */
    bool is_shared = fe_has_annotation(p, "kcc.shared");
    /* `shared T *` on a kernel parameter: local memory the launch sizes (kir.h, KV_PARAM). */
    if (is_shared && f->is_kernel && t->kind == KT_PTR)
      t = fe_ptr_as(t, KAS_SHARED);
    else if (is_shared && f->is_kernel)
      diag_error(ploc,
                 "kernel parameter '%s' cannot be 'shared': only a pointer parameter can be "
                 "(`shared T *p`: local memory sized at launch)",
                 *name ? name : "(unnamed)");
    else if (is_shared)
      diag_error(ploc,
                 "parameter '%s' of device function '%s' cannot be 'shared': only kernel "
                 "parameters can (a device function's pointer parameters take the memory space "
                 "of what the caller passes)",
                 *name ? name : "(unnamed)", f->name);
    else if (fe_has_annotation(p, "kcc.constant"))
      diag_error(ploc,
                 "parameter '%s' cannot be '%s': kernel and device function parameters "
                 "point to global memory (use a shared array declared in the kernel, or "
                 "'extern shared' for memory sized at launch)",
                 *name ? name : "(unnamed)", "constant");
    char buf[32];
    if (!*name) {
      snprintf(buf, sizeof buf, "__unnamed%d", i);
      name = buf;
    }
    /* A parameter pack's expansion (`T... xs`) names each parameter alike: xs_1, xs_2... */
    char pack[256];
    for (int j = 0, k = 0; j < f->nparams; j++)
      if (!strcmp(f->params[j]->name, name)) {
        snprintf(pack, sizeof pack, "%s_%d", fe_spelling(p), ++k);
        name = kir_strdup(pack);
        j = -1;
      }
    KVar *v = kir_var(fe->m, name, t, KV_PARAM, ploc);
    v->is_const = fe_type_is_const(pct);
    f->params[f->nparams++] = v;
    if (fe->lang == KL_LANG_CU) fe_cu_texobj_param(fe, f, v, pct);
    fe_map_put(&fe->decls, clang_getCanonicalCursor(p), v);
    fe_map_put(&fe->decls, p, v);
  }
  fe_map_put(&fe->decls, clang_getCanonicalCursor(def), f);
  klist_push(&fe->m->funcs, f);
  return f;
}

/* For vector.c (fe): functions of kcc's virtual headers, declared on their first call. */
KFunc *fe_declare_function(FeCtx *fe, CXCursor def) {
  return declare_function(fe, def);
}

static void file_scope_var(FeCtx *fe, CXCursor c) {
  fe_global_var(fe, c, true);
}

typedef struct InstFind {
  CXCursor fn;
} InstFind;

static enum CXChildVisitResult inst_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    ((InstFind *)d)->fn = clang_getCursorReferenced(c);
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* A function template's specialisation (fn, any declaration of it) compiled like a function of
 * the file, once. */
static void specialisation(FeCtx *fe, CXCursor fn, KList *defs) {
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl ||
      fe_map_get(&fe->decls, clang_getCanonicalCursor(def)))
    return;
  klist_push(defs, declare_function(fe, def));
  CXCursor *cc = kir_alloc(sizeof *cc);
  *cc = def;
  klist_push(defs, cc);
}

/* kcc's reference to an explicit instantiation (fe_cu_instantiations): the specialisation
 * it names is compiled like a function of the file. */
static void instantiation(FeCtx *fe, CXCursor var, KList *defs) {
  InstFind f = {clang_getNullCursor()};
  clang_visitChildren(var, inst_visit, &f);
  specialisation(fe, f.fn, defs);
}

/* ---------------------------------------------------------------- kernels host code names
 *
 * C++ instantiates a template where a specialisation is used, and nvcc compiles every kernel
 * specialisation so instantiated, host code's included: `k<float><<<g, b>>>(...)` in `main`,
 * `&k<8>` in a table, or a launch inside a host function template, instantiated by a call
 * of it (`launch<T>() { k<T><<<...>>>(); }` called as `launch<half>()`). libclang shows no
 * cursor for an implicit instantiation, so kcc looks for the uses: every host function and
 * file-scope initializer of the file's own headers is searched for references to kernel
 * specialisations, and a reference to a host template's specialisation leads into its
 * instantiated body. System headers are not searched (their templates are not kcc's to
 * compile), nor device code (a kernel cannot launch one). */

typedef struct HostScan {
  FeCtx *fe;
  KList *defs;
  FeMap seen; /* host specialisations searched (canonical cursor -> itself); in the arena */
  KList todo; /* CXCursor*: host specialisations' definitions to search */
} HostScan;

static bool is_function_kind(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static bool in_system_header(CXCursor c) {
  return clang_Location_isInSystemHeader(clang_getCursorLocation(c));
}

static void host_reference(HostScan *hs, CXCursor r) {
  if (!is_function_kind(clang_getCursorKind(r))) return;
  bool kernel = fe_has_annotation(r, "kcc.kernel");
  if (clang_Cursor_isNull(clang_getSpecializedCursorTemplate(r))) return;
  if (kernel) {
    specialisation(hs->fe, r, hs->defs);
    return;
  }
  CXCursor def = clang_getCursorDefinition(r);
  if (clang_Cursor_isNull(def) || in_system_header(def) || fe_cu_is_device(def)) return;
  CXCursor key = clang_getCanonicalCursor(def);
  if (fe_map_get(&hs->seen, key)) return;
  CXCursor *cc = kir_alloc(sizeof *cc);
  *cc = def;
  fe_map_put(&hs->seen, key, cc);
  klist_push(&hs->todo, cc);
}

static enum CXChildVisitResult host_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  HostScan *hs = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  switch (k) {
  case CXCursor_FunctionTemplate:
  case CXCursor_ClassTemplate:
  case CXCursor_ClassTemplatePartialSpecialization:
  case CXCursor_TypeAliasTemplateDecl: return CXChildVisit_Continue; /* patterns, not uses */
  case CXCursor_DeclRefExpr:
  case CXCursor_MemberRefExpr:
  case CXCursor_CallExpr: host_reference(hs, clang_getCursorReferenced(c)); break;
  default:
    /* The prelude's and system headers' declarations first: the annotation checks visit a
     * function's children, and the prelude has thousands of functions. */
    if (clang_isDeclaration(k) && (fe_in_vfile(hs->fe, c) || in_system_header(c)))
      return CXChildVisit_Continue;
    if (is_function_kind(k) && (fe_has_annotation(c, "kcc.kernel") || fe_cu_is_device(c)))
      return CXChildVisit_Continue;
    break;
  }
  return CXChildVisit_Recurse;
}

static void host_launches(FeCtx *fe, CXCursor tu, KList *defs) {
  HostScan hs = {.fe = fe, .defs = defs};
  clang_visitChildren(tu, host_visit, &hs);
  for (int i = 0; i < hs.todo.n; i++)
    clang_visitChildren(*(CXCursor *)hs.todo.v[i], host_visit, &hs);
}

/* A `;` alone at file scope (`};` after a function, `;;`): C allows none, but every compiler
 * takes it (clang warns only under -pedantic), and kernels are written with it. */
static bool empty_declaration(FeCtx *fe, CXCursor c) {
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(fe->tu, clang_getCursorExtent(c), &t, &n);
  bool empty = false;
  if (n == 1) {
    CXString s = clang_getTokenSpelling(fe->tu, t[0]);
    empty = !strcmp(clang_getCString(s), ";");
    clang_disposeString(s);
  }
  if (t) clang_disposeTokens(fe->tu, t, n);
  return empty;
}

/* First pass over the file scope: every function definition gets its KFunc (calls may come
 * before the callee's definition), types and globals are lowered in source order. */
static void walk_file_scope(FeCtx *fe, CXCursor tu, KList *defs) {
  FeKids k;
  fe_kids(tu, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor c = k.v[i];
    if (fe_in_vfile(fe, c)) continue;
    switch (clang_getCursorKind(c)) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec: walk_file_scope(fe, c, defs); break;
    case CXCursor_NamespaceAlias:
    case CXCursor_UsingDirective:
    case CXCursor_UsingDeclaration:
    case CXCursor_TypeAliasDecl:
    case CXCursor_TypeAliasTemplateDecl:
    case CXCursor_FunctionTemplate:
      if (clang_Cursor_isNull(fe->kernel_template) && fe_has_annotation(c, "kcc.kernel"))
        fe->kernel_template = c;
      break;
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
      /* C++ (CUDA input): templates are lowered per specialisation when a call names one,
         methods when called. */
      break;
    case CXCursor_FunctionDecl:
      /* In CUDA a function without __device__ or __global__ is host code: not kcc's. */
      if (fe->lang == KL_LANG_CU && !fe_has_annotation(c, "kcc.kernel") && !fe_cu_is_device(c))
        break;
      if (clang_isCursorDefinition(c)) {
        KFunc *f = declare_function(fe, c);
        klist_push(defs, f);
        CXCursor *cc = kir_alloc(sizeof *cc);
        *cc = c;
        klist_push(defs, cc);
      }
      break;
    case CXCursor_VarDecl:
      if (fe->lang == KL_LANG_CU && !strncmp(fe_spelling(c), "__kcc_inst", 10))
        instantiation(fe, c, defs);
      else if (fe->lang != KL_LANG_CU || fe_cu_is_device_var(c))
        file_scope_var(fe, c);
      /* Other CUDA variables are host code, or const ones device code may read: those are
         lowered when it does (lower_expr.c). */
      break;
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_UnionDecl:
      /* A CUDA file's types serve its host code too: each is lowered when device code uses
         it. The C dialects check every type they declare. */
      if (fe->lang != KL_LANG_CU) fe_record_decl(fe, c);
      break;
    case CXCursor_TypedefDecl: fe_typedef_decl(fe, c); break;
    case CXCursor_EnumDecl:
    case CXCursor_StaticAssert: break;
    case CXCursor_UnexposedDecl:
      if (fe->lang != KL_LANG_CU && !empty_declaration(fe, c))
        diag_error(fe_loc(fe, c), "this declaration is not supported in kcc kernels");
      break;
    default: {
      if (fe->lang == KL_LANG_CU) break; /* C++ declarations matter where device code uses them */
      CXString s = clang_getCursorKindSpelling(clang_getCursorKind(c));
      diag_error(fe_loc(fe, c), "declaration of kind '%s' is not supported in kcc kernels",
                 clang_getCString(s));
      clang_disposeString(s);
      break;
    }
    }
  }
  fe_kids_free(&k);
}

static void lower_bodies(FeCtx *fe, KList *defs) {
  for (int i = 0; i + 1 < defs->n; i += 2) {
    KFunc *f = defs->v[i];
    if (!f->body) fe_lower_body(fe, f, *(CXCursor *)defs->v[i + 1]);
  }
}

/* ---------------------------------------------------------------- entry point */

static bool check_readable(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    diag_error((KLoc){0}, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    diag_error((KLoc){0}, "cannot open '%s': %s", path, strerror(EISDIR));
    return false;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    diag_error((KLoc){0}, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  fclose(f);
  return true;
}

/* A CUDA source with references to its explicit instantiations appended
 * (fe_cu_instantiations), and then to the specialisations --instantiate names, under a #line
 * that makes clang's diagnostics about them say so; NULL when there are none (malloc'ed). */
/* `extern "C"__global__` (no space): C++11 reads `"C"__global__` as a user-defined literal,
 * and nvcc's front end does not. Rewritten `extern"C" __global__`, every column kept: the
 * string moves left into the space. Returns whether anything changed. */
static bool cu_space_literal_suffixes(char *text, size_t n) {
  static const char pat[] = "extern \"C\"__";
  bool changed = false;
  for (char *p = text; (p = memmem(p, n - (size_t)(p - text), pat, sizeof pat - 1)); p += 3) {
    if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
    memcpy(p + 6, "\"C\" ", 4);
    changed = true;
  }
  return changed;
}

static char *cu_with_instantiations(const char *text, size_t n, const KOptions *o) {
  if (memchr(text, 0, n)) return NULL; /* clang reports the NUL; nothing to scan */
  char *extra = fe_cu_instantiations(text, n);
  int ninst = o ? o->ninstantiate : 0;
  KBuf b = {0};
  kbuf_append(&b, text, n);
  bool spaced = cu_space_literal_suffixes(b.data, n);
  if (!extra && !ninst && !spaced) {
    kbuf_free(&b);
    return NULL;
  }
  if (extra) kbuf_puts(&b, extra);
  free(extra);
  for (int i = 0; i < ninst; i++)
    kbuf_printf(&b,
                "\nstatic constexpr auto __kcc_inst_opt%d = &\n#line 1 \"--instantiate=%s\"\n%s;",
                i, o->instantiate[i], o->instantiate[i]);
  kbuf_puts(&b, "\n");
  return b.data;
}

/* The same for a CUDA file (clang reads the file itself when this is NULL). */
static char *cu_main_text(const char *path, const KOptions *o) {
  KBuf b = {0};
  char *all = kcc_read_file(path, &b) && b.data ? cu_with_instantiations(b.data, b.len, o) : NULL;
  kbuf_free(&b);
  return all;
}

/* ---------------------------------------------------------------- stack safety
 *
 * Clang's parser recurses once per nesting level of unary operators, casts, assignments and
 * conditionals, so a hostile input (`- - - ... x` five thousand deep) overflows an ordinary
 * stack inside libclang. kcc therefore parses on a thread of its own with a big, lazily
 * committed stack (libclang told not to start its own 8 MiB thread), and turns a fault in that
 * stack's guard zone into a diagnostic instead of a crash. */

#define FE_STACK_SIZE ((size_t)256 << 20)
#define FE_GUARD_SIZE ((size_t)1 << 20)

static char *stack_lo; /* the big stack (guard zone at the bottom) while a parse runs */
static _Thread_local sigjmp_buf *parse_jmp;

static void on_fault(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  if (parse_jmp) {
    char *a = si->si_addr;
    bool overflow = stack_lo && a >= stack_lo - FE_GUARD_SIZE && a < stack_lo + 2 * FE_GUARD_SIZE;
    siglongjmp(*parse_jmp, overflow ? 1 : 2);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

typedef struct ParseJob {
  CXIndex idx;
  const char *path;
  const char **args;
  int nargs;
  struct CXUnsavedFile *uf;
  int nuf;
  CXTranslationUnit tu;
  enum CXErrorCode ec;
  int fault; /* 1: stack overflow, 2: other crash inside clang */
  unsigned flags;
} ParseJob;

static void guarded_parse(ParseJob *j) {
  static char altstack[1 << 16];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack}, old_ss;
  struct sigaction sa, old_segv, old_bus;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaltstack(&ss, &old_ss);
  sigaction(SIGSEGV, &sa, &old_segv);
  sigaction(SIGBUS, &sa, &old_bus);
  sigjmp_buf jb;
  int r = sigsetjmp(jb, 1);
  if (r == 0) {
    parse_jmp = &jb;
    j->ec = clang_parseTranslationUnit2(j->idx, j->path, j->args, j->nargs, j->uf, (unsigned)j->nuf,
                                        j->flags, &j->tu);
  } else {
    j->fault = r;
    j->tu = NULL;
  }
  parse_jmp = NULL;
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGBUS, &old_bus, NULL);
  sigaltstack(&old_ss, NULL);
}

/* ---------------------------------------------------------------- entry point */

/* Whether a file named `name` exists in dir (a user's -I directory, the input's own). */
static bool in_dir(const char *dir, size_t dlen, const char *name, size_t nlen) {
  char p[4096];
  if (dlen + nlen + 2 > sizeof p) return true; /* cannot tell: as if it were there */
  memcpy(p, dir, dlen);
  p[dlen] = '/';
  memcpy(p + dlen + 1, name, nlen);
  p[dlen + 1 + nlen] = 0;
  struct stat st;
  return stat(p, &st) == 0;
}

/* Whether a header the translation unit names could come from the user's directories rather
 * than kcc's virtual ones: `name` (nlen bytes) in a -I directory, or in the input's own
 * directory for a quoted #include. */
static bool user_header(const char *name, size_t nlen, bool quoted, const char *path,
                        const KOptions *o) {
  if (quoted) {
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (slash ? in_dir(path, (size_t)(slash - path), name, nlen) : in_dir(".", 1, name, nlen))
      return true;
  }
  for (int i = 0; o && i + 1 < o->ncargs; i++)
    if (!strcmp(o->cargs[i], "-I") && in_dir(o->cargs[i + 1], strlen(o->cargs[i + 1]), name, nlen))
      return true;
  return false;
}

/* Whether the walk of a CUDA translation unit may leave the precompiled prelude's declarations
 * out, as the C dialects' walk does: visiting them deserialises the whole prelude, ~2 ms of a
 * 25 ms compile. The full walk is needed for what it meets besides the prelude's declarations,
 * which the walk skips anyway (fe_in_vfile): clang's implicit instantiations of the input's
 * templates, which libclang lists only with every declaration. So the short walk is taken only
 * for a file that cannot have any: its text (which holds every --instantiate) spells no
 * `template`, `auto` (a generic lambda) or `##` (a pasted keyword), and every header it
 * includes is kcc's (no user header, which could hold templates). No macro of kcc's headers
 * that a file could use expands to a template. Conservative: "include" anywhere that is not a
 * plain #include <...> or "..." line, or a header name that a -I directory (searched before
 * kcc's) or the file's own directory also holds, and the file gets the full walk. The corpus
 * and tests/cu compile to the same bytes either way. */
static bool may_template(const char *text) {
  return strstr(text, "template") || strstr(text, "auto") || strstr(text, "##");
}

static bool cu_walk_scan(const char *text, const char *path, const KOptions *o) {
  if (!text || may_template(text) || strstr(text, "import")) return false;
  /* A -D macro the file expands can spell one too. */
  for (int i = 0; o && i < o->ncargs; i++)
    if (may_template(o->cargs[i])) return false;
  /* kcc's headers, as `#include <...>` of a vfile could otherwise name one in a -I directory
     (the prelude's own includes are searched there too). */
  const FeVFile *sets[2];
  int ns[2];
  sets[0] = fe_vfiles(&ns[0]);
  sets[1] = fe_cu_vfiles(&ns[1]);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < ns[k]; i++) {
      const char *n = sets[k][i].name;
      if (strncmp(n, FE_INCDIR "/", sizeof FE_INCDIR)) continue;
      n += sizeof FE_INCDIR;
      if (user_header(n, strlen(n), false, path, o)) return false;
    }
  for (const char *p = text; (p = strstr(p, "include")); p += 7) {
    const char *q = p;
    while (q > text && (q[-1] == ' ' || q[-1] == '\t')) q--;
    if (q == text || q[-1] != '#') return false;
    q--;
    while (q > text && (q[-1] == ' ' || q[-1] == '\t')) q--;
    if (q > text && q[-1] != '\n') return false;
    const char *r = p + 7;
    while (*r == ' ' || *r == '\t') r++;
    char close = *r == '<' ? '>' : *r == '"' ? '"' : 0;
    if (!close) return false;
    const char *name = ++r;
    while (*r && *r != close && *r != '\n') r++;
    if (*r != close || r == name) return false;
    if (user_header(name, (size_t)(r - name), close == '"', path, o)) return false;
  }
  return true;
}

/* The same for the text clang parses: main_text when kcc changed it, else the input. */
static bool cu_walk_local(const char *main_text, const char *path, const KOptions *o) {
  if (main_text) return cu_walk_scan(main_text, path, o);
  KBuf b = {0};
  if (o && o->source)
    kbuf_append(&b, o->source, o->source_len);
  else if (!kcc_read_file(path, &b))
    return false;
  /* A NUL would end the scan early: such a file gets the full walk. */
  bool local = b.data && !memchr(b.data, 0, b.len) && cu_walk_scan(b.data, path, o);
  kbuf_free(&b);
  return local;
}

typedef struct FrontJob {
  const char *path;
  const KOptions *o;
  KList *deps;
  KModule *result;
} FrontJob;

static KModule *parse_and_lower(const char *path, const KOptions *o, KList *deps);

/* An OpenCL C text kcc writes itself (cuda_texobj.c's calls of image functions), lowered. */
static KModule *parse_cl_text(const char *name, const char *text) {
  KOptions o;
  kcc_options_default(&o);
  o.lang = KL_LANG_CL;
  o.source = text;
  o.source_len = strlen(text);
  return parse_and_lower(name, &o, NULL);
}

static KModule *parse_and_lower(const char *path, const KOptions *o, KList *deps) {
  bool in_memory = o && o->source; /* libkcc: the main file is an unsaved buffer */
  if (!path || (!in_memory && !check_readable(path))) return NULL;
  int errors_before = diag_error_count();
  int lang = fe_lang_of(path, o);

  int nv, ncu = 0;
  const FeVFile *vf0 = fe_vfiles(&nv);
  const FeVFile *cu = lang == KL_LANG_CU ? fe_cu_vfiles(&ncu) : NULL;
  /* The dialect's files, the OpenCL prelude after them for OpenCL C, and CUDA's for CUDA
     input. Only OpenCL C includes the OpenCL prelude (it lies outside the include directory,
     so no other input can name it): building its 470 KB for .cu and .k input, and hashing it
     into their PCH keys, was ~2 ms of every compile. */
  FeVFile *vf = calloc((size_t)(nv + 1 + ncu), sizeof *vf);
  if (vf) memcpy(vf, vf0, sizeof *vf * (size_t)nv);
  if (vf && lang == KL_LANG_CL) vf[nv++] = *fe_cl_vfile();
  if (vf && ncu) memcpy(vf + nv, cu, sizeof *vf * (size_t)ncu);
  nv += ncu;
  struct CXUnsavedFile *uf = calloc((size_t)nv + 1, sizeof *uf);
  const char **args = calloc((size_t)(o ? o->ncargs : 0) + 32, sizeof *args);
  if (!vf || !uf || !args) {
    fputs("kcc: fatal error: out of memory\n", stderr);
    exit(1);
  }
  for (int i = 0; i < nv; i++) {
    uf[i].Filename = vf[i].name;
    uf[i].Contents = vf[i].text;
    uf[i].Length = strlen(vf[i].text);
    /* Notes may point into the prelude (overload candidates); let them quote it. */
    diag_add_static_source(vf[i].name, vf[i].text, uf[i].Length);
  }
  char *main_text = NULL;
  if (lang == KL_LANG_CU)
    main_text =
        in_memory ? cu_with_instantiations(o->source, o->source_len, o) : cu_main_text(path, o);
  if (main_text)
    uf[nv++] = (struct CXUnsavedFile){path, main_text, strlen(main_text)};
  else if (in_memory)
    uf[nv++] = (struct CXUnsavedFile){path, o->source, o->source_len};
  int na = 0;
  if (lang == KL_LANG_CL || lang == KL_LANG_CU) {
    const char *const *a0 = lang == KL_LANG_CL ? fe_cl_args(o ? o->cl_std : 0)
                                               : fe_cu_args(o && o->narchs ? o->archs[0] : 0);
    for (const char *const *a = a0; *a; a++) args[na++] = *a;
    goto user_args;
  }
  args[na++] = "-x";
  args[na++] = "c";
  args[na++] = "-std=c11";
  args[na++] = "--target=x86_64-linux-gnu";
  args[na++] = "-nostdinc";
  args[na++] = "-ffreestanding";
  args[na++] = "-ferror-limit=20";
  /* kcc checks printf's formats and arguments itself, as errors where a back end could not
   * print the argument (builtins.c): clang's warnings would say it twice. */
  args[na++] = "-Wno-format";
  /* An atomic or a store through a mismatched pointer type is never what a kernel meant. */
  args[na++] = "-Werror=incompatible-pointer-types";
  /* `void f()` defines f without parameters; passing it arguments is a mistake, not C89. */
  args[na++] = "-Werror=deprecated-non-prototype";
  args[na++] = "-D__KCC__=1";
  args[na++] = "-isystem";
  args[na++] = FE_INCDIR;
  args[na++] = "-include";
  args[na++] = FE_PRELUDE;
user_args:
  for (int i = 0; o && i < o->ncargs; i++) args[na++] = o->cargs[i];
  free(vf);

  FeCtx fe = {0};
  fe.kernel_template = clang_getNullCursor();
  fe.path = path;
  fe.lang = lang;
  fe.opencl = lang == KL_LANG_CL;
  fe.cl_std = o && o->cl_std ? o->cl_std : 120;
  fe.errors0 = errors_before;
  fe.opts = o;
  /* Declarations from the precompiled prelude are left out of the translation unit's walk in
     the C dialects: the walk skips the prelude anyway (fe_in_vfile), and visiting them
     deserialised all of it on every compile (a fifth of an in-process compile of a small
     kernel). CUDA input keeps them, unless it can have no template (cu_walk_local): its walk
     also meets the template instantiations clang made, which libclang lists only with every
     declaration. */
  bool local = lang != KL_LANG_CU || cu_walk_local(main_text, path, o);
  if (lang == KL_LANG_CU && o && o->verbose)
    fprintf(stderr, "kcc: front end: %s walk of the translation unit\n",
            local ? "short (no template possible)" : "full");
  CXIndex idx = clang_createIndex(local, 0);
  /* CUDA input goes on past a header kcc does not have, as an error (not clang's fatal one,
     after which it would instantiate no template): hostcode.c decides whether it matters. */
  ParseJob pj = {.idx = idx,
                 .path = path,
                 .args = args,
                 .nargs = na,
                 .uf = uf,
                 .nuf = nv,
                 .ec = CXError_Success,
                 .flags =
                     lang == KL_LANG_CU ? CXTranslationUnit_KeepGoing : CXTranslationUnit_None};
  /* The prelude from the cache when it is there (pch.c); a precompiled prelude clang cannot
     use is removed and the file parsed again with the prelude's text. */
  char *pch = fe_pch_path(idx, args, na, uf, nv);
  int pch_at = pch ? fe_pch_prelude_arg(args, na) : -1;
  const char *prelude = pch_at >= 0 ? args[pch_at + 1] : NULL;
  if (pch_at >= 0) {
    args[pch_at] = "-include-pch";
    args[pch_at + 1] = pch;
  }
  guarded_parse(&pj);
  if (pch_at >= 0 && !pj.fault && (pj.ec != CXError_Success || !pj.tu || fe_pch_rejected(pj.tu))) {
    unlink(pch);
    if (pj.tu) clang_disposeTranslationUnit(pj.tu);
    args[pch_at] = "-include";
    args[pch_at + 1] = prelude;
    pj.tu = NULL;
    pj.ec = CXError_Success;
    guarded_parse(&pj);
  }
  free(pch);
  CXTranslationUnit tu = pj.tu;
  free(args);
  KModule *m = NULL;
  if (pj.fault) {
    /* Clang's state is unusable after the jump: leak it rather than touch it (test_frontend.c
     * tells LeakSanitizer). The index is not part of that state, as the parse only copied its
     * options: it is disposed of as after any parse. */
    KLoc floc = {path, 0, 0};
    if (pj.fault == 1)
      diag_error(floc, "expression nesting too deep");
    else
      diag_error(floc, "internal error: clang crashed while parsing this file");
    clang_disposeIndex(idx);
    free(uf);
    free(main_text);
    return NULL;
  }
  if (pj.ec != CXError_Success || !tu) {
    diag_error((KLoc){0}, "cannot parse '%s' (libclang error %d)", path, (int)pj.ec);
    goto out;
  }
  fe.tu = tu;
  fe.main_file = clang_getFile(tu, path);
  if ((lang == KL_LANG_CU ? fe_cu_forward_diags(&fe) : forward_diags(&fe)) > 0) goto out;
  fe_pragmas_scan(&fe);

  if (deps) {
    DepCtx dc = {&fe, deps};
    clang_getInclusions(tu, dep_visit, &dc);
  }

  m = kir_module(path);
  fe.m = m;
  KList defs = {0};
  if (lang == KL_LANG_CU) fe_cu_reserve_kernel_names(&fe, clang_getTranslationUnitCursor(tu));
  walk_file_scope(&fe, clang_getTranslationUnitCursor(tu), &defs);
  if (lang == KL_LANG_CU) host_launches(&fe, clang_getTranslationUnitCursor(tu), &defs);
  lower_bodies(&fe, &defs);
  if (lang == KL_LANG_CU) fe_cu_tile_groups(&fe);
  if (lang == KL_LANG_CU && diag_error_count() == errors_before && fe_cu_texobj_lower(&fe))
    fe_cu_texobj_graft(&fe, parse_cl_text);
  fe_unique_struct_names(&fe);
  if (diag_error_count() == errors_before) fe_lower_half(&fe);
  if (!clang_Cursor_isNull(fe.kernel_template) && !kir_has_kernel(m)) {
    const char *name = fe_spelling(fe.kernel_template);
    diag_error(fe_loc(&fe, fe.kernel_template),
               "kernel template '%s' is never instantiated in this file, so there is no kernel "
               "to compile: no launch, reference or explicit instantiation in code that is "
               "compiled names a specialisation of it; name one with --instantiate='%s<...>' or "
               "in the file: 'template __global__ void %s<...>(...);'",
               name, name, name);
  }
  if (diag_error_count() > errors_before) m = NULL;

out:
  free(fe.names);
  if (tu) clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  free(uf);
  free(main_text);
  return m;
}

static void *front_thread(void *arg) {
  FrontJob *j = arg;
  j->result = parse_and_lower(j->path, j->o, j->deps);
  return NULL;
}

KModule *frontend_parse(const char *path, const KOptions *o, KList *deps) {
  FrontJob j = {path, o, deps, NULL};
  /* libclang parses on the calling thread (ours, with the big stack) only when told so. */
  setenv("LIBCLANG_NOTHREADS", "1", 1);
  char *stk = mmap(NULL, FE_STACK_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  pthread_attr_t attr;
  pthread_t th;
  bool threaded = false;
  if (stk != MAP_FAILED && mprotect(stk, FE_GUARD_SIZE, PROT_NONE) == 0 &&
      pthread_attr_init(&attr) == 0) {
    if (pthread_attr_setstack(&attr, stk, FE_STACK_SIZE) == 0) {
      stack_lo = stk + FE_GUARD_SIZE;
      threaded = pthread_create(&th, &attr, front_thread, &j) == 0;
    }
    pthread_attr_destroy(&attr);
  }
  if (threaded) {
    pthread_join(th, NULL);
  } else {
    stack_lo = NULL;
    front_thread(&j);
  }
  stack_lo = NULL;
  if (stk != MAP_FAILED) munmap(stk, FE_STACK_SIZE);
  return j.result;
}
