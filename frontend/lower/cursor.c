/* cursor.c — the shared lowering's small tools over libclang: cursor maps, a cursor's children,
 * spellings and locations, kcc's annotations, tokens, and clang's diagnostics forwarded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  /* The handle itself first: same_file's name comparison (two strings made and freed) for
     every cached name was most of the time kcc spent asking which file a cursor is in (every
     cursor of a file that includes kcc's headers is asked: 25 M instructions of 645 M for a
     ggml .cu file). A handle met under another name is cached too. */
  for (int i = fe->nnames - 1; i >= 0; i--)
    if (fe->names[i].file == f) return fe->names[i].name;
  const char *name = NULL;
  for (int i = fe->nnames - 1; i >= 0 && !name; i--)
    if (same_file(fe->names[i].file, f)) name = fe->names[i].name;
  if (!name && fe->main_file && same_file(f, fe->main_file))
    name = fe->path; /* as the user named it, for messages and tests */
  if (!name) {
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
