/* pragma.c — floating-point contraction pragmas, for every input language:
 *
 *   #pragma STDC FP_CONTRACT ON|OFF|DEFAULT      (C99 7.12.2; the .k dialect, CUDA)
 *   #pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT    (OpenCL C 6.10)
 *   #pragma clang fp contract(on|off|fast)       (clang's spelling, CUDA code uses it)
 *
 * At file scope a pragma holds until the next one; at the start of a compound statement it
 * holds until the end of that statement, then the outer state is back (C99 7.12.2). Clang
 * consumes pragmas in its preprocessor and libclang does not expose the state it keeps per
 * expression, so kcc reads the pragma tokens of the main file itself (only when its text
 * names one) and marks each floating-point +, - and * lowered in their scope (KExpr.contract);
 * each back end honours the mark (docs/dialect.md). */
#define _GNU_SOURCE 1 /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

typedef struct FePragma {
  unsigned off; /* offset of the '#' in the main file */
  int state;    /* +1 contract, -1 do not, 0 the command line's choice */
  bool file_scope;
} FePragma;

/* The state a pragma's tokens give, or 2 when they are not a contraction pragma. */
static int pragma_state(CXTranslationUnit tu, CXToken *t, unsigned n) {
  char w[6][16] = {{0}};
  for (unsigned i = 0; i < n && i < 6; i++) {
    CXString s = clang_getTokenSpelling(tu, t[i]);
    const char *c = clang_getCString(s);
    if (c) snprintf(w[i], sizeof w[i], "%s", c);
    clang_disposeString(s);
  }
  if (strcmp(w[0], "#") || strcmp(w[1], "pragma")) return 2;
  if ((!strcmp(w[2], "STDC") || !strcmp(w[2], "OPENCL")) && !strcmp(w[3], "FP_CONTRACT")) {
    if (!strcmp(w[4], "ON")) return 1;
    if (!strcmp(w[4], "OFF")) return -1;
    if (!strcmp(w[4], "DEFAULT")) return 0;
    return 2;
  }
  if (!strcmp(w[2], "clang") && !strcmp(w[3], "fp") && !strncmp(w[4], "contract", 8)) {
    /* contract ( on|off|fast ): the word after the parenthesis */
    CXString s = n > 6 ? clang_getTokenSpelling(tu, t[6]) : (CXString){0};
    const char *c = n > 6 ? clang_getCString(s) : NULL;
    int r = !c ? 2 : !strcmp(c, "off") ? -1 : !strcmp(c, "on") || !strcmp(c, "fast") ? 1 : 2;
    if (n > 6) clang_disposeString(s);
    return r;
  }
  return 2;
}

/* Whether the location is outside every function body (clang_getCursor gives the innermost
 * cursor there: a statement inside a body). */
static bool at_file_scope(CXTranslationUnit tu, CXSourceLocation l) {
  CXCursor c = clang_getCursor(tu, l);
  enum CXCursorKind k = clang_getCursorKind(c);
  return !clang_isStatement(k) && !clang_isExpression(k);
}

void fe_pragmas_scan(FeCtx *fe) {
  size_t size = 0;
  const char *text = clang_getFileContents(fe->tu, fe->main_file, &size);
  if (!text || (!memmem(text, size, "FP_CONTRACT", 11) && !memmem(text, size, "contract", 8)))
    return;
  CXSourceRange all =
      clang_getRange(clang_getLocationForOffset(fe->tu, fe->main_file, 0),
                     clang_getLocationForOffset(fe->tu, fe->main_file, (unsigned)size));
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(fe->tu, all, &t, &n);
  for (unsigned i = 0; i + 4 < n; i++) {
    if (clang_getTokenKind(t[i]) != CXToken_Punctuation) continue;
    int st = pragma_state(fe->tu, t + i, n - i);
    if (st == 2) continue;
    CXSourceLocation l = clang_getTokenLocation(fe->tu, t[i]);
    unsigned off = 0;
    clang_getSpellingLocation(l, NULL, NULL, NULL, &off);
    FePragma *p = kir_alloc(sizeof *p);
    *p = (FePragma){off, st, at_file_scope(fe->tu, l)};
    klist_push(&fe->pragmas, p);
  }
  clang_disposeTokens(fe->tu, t, n);
}

/* The offset in the main file where c starts, or false when c is elsewhere. */
static bool main_offset(FeCtx *fe, CXSourceLocation l, unsigned *off) {
  CXFile f = NULL;
  clang_getSpellingLocation(l, &f, NULL, NULL, off);
  return f && fe->main_file && clang_File_isEqual(f, fe->main_file);
}

int fe_contract_at_body(FeCtx *fe, CXCursor body) {
  unsigned at;
  if (!fe->pragmas.n || !main_offset(fe, clang_getRangeStart(clang_getCursorExtent(body)), &at))
    return 0;
  int st = 0;
  for (int i = 0; i < fe->pragmas.n; i++) {
    const FePragma *p = fe->pragmas.v[i];
    if (p->file_scope && p->off < at) st = p->state;
  }
  return st;
}

int fe_contract_in_block(FeCtx *fe, CXCursor block, CXCursor first, int outer) {
  unsigned from, to;
  if (!fe->pragmas.n || !main_offset(fe, clang_getRangeStart(clang_getCursorExtent(block)), &from))
    return outer;
  CXSourceLocation end = clang_Cursor_isNull(first)
                             ? clang_getRangeEnd(clang_getCursorExtent(block))
                             : clang_getRangeStart(clang_getCursorExtent(first));
  if (!main_offset(fe, end, &to)) return outer;
  int st = outer;
  for (int i = 0; i < fe->pragmas.n; i++) {
    const FePragma *p = fe->pragmas.v[i];
    if (!p->file_scope && p->off > from && p->off < to) st = p->state;
  }
  return st;
}

void fe_mark_contract(FeCtx *fe, KExpr *e) {
  if (!fe->contract || !e->type) return;
  bool arith = (e->kind == KE_BINARY || (e->kind == KE_ASSIGN && e->optype)) &&
               (e->op == KB_ADD || e->op == KB_SUB || e->op == KB_MUL);
  const KType *t = e->kind == KE_ASSIGN ? e->optype : e->type;
  if (arith && t && kir_is_float(kir_elem((KType *)t))) e->contract = (signed char)fe->contract;
}
