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
  bool loop; /* a loop hint instead: unroll (KStmt.unroll), for the loop right after end */
  int unroll;
  unsigned end; /* offset just past the hint's last token */
} FePragma;

/* The spelling of token i of t[0..n), or "" past the end (in buf). */
static const char *tok(CXTranslationUnit tu, CXToken *t, unsigned n, unsigned i, char *buf,
                       size_t cap) {
  buf[0] = 0;
  if (i >= n) return buf;
  CXString s = clang_getTokenSpelling(tu, t[i]);
  if (clang_getCString(s)) snprintf(buf, cap, "%s", clang_getCString(s));
  clang_disposeString(s);
  return buf;
}

/* The state a pragma's tokens give, or 2 when they are not a contraction pragma. */
static int pragma_state(CXTranslationUnit tu, CXToken *t, unsigned n) {
  char w[7][16];
  for (unsigned i = 0; i < 7; i++) tok(tu, t, n, i, w[i], sizeof w[i]);
  if (strcmp(w[0], "#") || strcmp(w[1], "pragma")) return 2;
  if ((!strcmp(w[2], "STDC") || !strcmp(w[2], "OPENCL")) && !strcmp(w[3], "FP_CONTRACT")) {
    if (!strcmp(w[4], "ON")) return 1;
    if (!strcmp(w[4], "OFF")) return -1;
    if (!strcmp(w[4], "DEFAULT")) return 0;
    return 2;
  }
  if (!strcmp(w[2], "clang") && !strcmp(w[3], "fp") && !strcmp(w[4], "contract")) {
    /* contract ( on|off|fast ): the word after the parenthesis */
    if (!strcmp(w[6], "off")) return -1;
    if (!strcmp(w[6], "on") || !strcmp(w[6], "fast")) return 1;
  }
  return 2;
}

/* A loop unrolling hint at t[0]: CUDA's and clang's `#pragma unroll [N]`, `#pragma nounroll`,
 * `#pragma clang loop unroll(enable|full|disable)` / `unroll_count(N)`, GCC's `#pragma GCC
 * unroll N`, and OpenCL C's `__attribute__((opencl_unroll_hint[(N)]))`. Returns the number of
 * tokens it spans (0: none) and sets *unroll: N > 1, -1 never, -2 fully. */
static unsigned loop_hint(CXTranslationUnit tu, CXToken *t, unsigned n, int *unroll) {
  char w[5][32];
  for (unsigned i = 0; i < 5; i++) tok(tu, t, n, i, w[i], sizeof w[i]);
  char num[32];
  if (!strcmp(w[0], "__attribute__") && !strcmp(w[1], "(") && !strcmp(w[2], "(") &&
      !strcmp(w[3], "opencl_unroll_hint")) {
    if (!strcmp(w[4], "(")) {
      long v = atol(tok(tu, t, n, 5, num, sizeof num));
      *unroll = v <= 0 ? -2 : v == 1 ? -1 : (int)v;
      return 9; /* __attribute__ ( ( opencl_unroll_hint ( N ) ) ) */
    }
    *unroll = -2;
    return 6; /* __attribute__ ( ( opencl_unroll_hint ) ) */
  }
  if (strcmp(w[0], "#") || strcmp(w[1], "pragma")) return 0;
  CXSourceLocation l0 = clang_getTokenLocation(tu, t[1]);
  unsigned line0 = 0, i = 2;
  clang_getSpellingLocation(l0, NULL, &line0, NULL, NULL);
  /* The directive ends with its line. */
  unsigned end = 2;
  for (; end < n; end++) {
    unsigned line = 0;
    clang_getSpellingLocation(clang_getTokenLocation(tu, t[end]), NULL, &line, NULL, NULL);
    if (line != line0) break;
  }
  if (!strcmp(w[2], "nounroll")) {
    *unroll = -1;
    return end;
  }
  if (!strcmp(w[2], "GCC") && !strcmp(w[3], "unroll"))
    i = 4;
  else if (!strcmp(w[2], "unroll"))
    i = 3;
  if (i > 2) {
    const char *a = tok(tu, t, end, i, num, sizeof num);
    if (!strcmp(a, "(")) a = tok(tu, t, end, i + 1, num, sizeof num);
    long v = *a ? atol(a) : 0;
    *unroll = !*a ? -2 : v <= 1 ? -1 : (int)v;
    return end;
  }
  if (!strcmp(w[2], "clang") && !strcmp(w[3], "loop")) {
    *unroll = 0;
    for (unsigned j = 4; j + 2 < end; j++) {
      char k[32], v[32];
      tok(tu, t, end, j, k, sizeof k);
      tok(tu, t, end, j + 2, v, sizeof v);
      if (!strcmp(k, "unroll"))
        *unroll = !strcmp(v, "disable") ? -1 : *unroll > 0 ? *unroll : -2;
      else if (!strcmp(k, "unroll_count"))
        *unroll = atol(v) <= 1 ? -1 : (int)atol(v);
    }
    return *unroll ? end : 0;
  }
  return 0;
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
  if (!text || (!memmem(text, size, "FP_CONTRACT", 11) && !memmem(text, size, "contract", 8) &&
                !memmem(text, size, "unroll", 6)))
    return;
  CXSourceRange all =
      clang_getRange(clang_getLocationForOffset(fe->tu, fe->main_file, 0),
                     clang_getLocationForOffset(fe->tu, fe->main_file, (unsigned)size));
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(fe->tu, all, &t, &n);
  for (unsigned i = 0; i + 2 < n; i++) {
    /* Every hint starts with `#` or `__attribute__`: other tokens cost no spelling lookups. */
    enum CXTokenKind k = clang_getTokenKind(t[i]);
    if (k != CXToken_Punctuation && k != CXToken_Keyword && k != CXToken_Identifier) continue;
    char first[16];
    tok(fe->tu, t, n, i, first, sizeof first);
    if (strcmp(first, "#") && strcmp(first, "__attribute__")) continue;
    int unroll = 0;
    unsigned span = loop_hint(fe->tu, t + i, n - i, &unroll);
    if (span) {
      unsigned off = 0, end = 0;
      clang_getSpellingLocation(clang_getTokenLocation(fe->tu, t[i]), NULL, NULL, NULL, &off);
      CXSourceRange r = clang_getTokenExtent(fe->tu, t[i + span - 1 < n ? i + span - 1 : n - 1]);
      clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &end);
      FePragma *p = kir_alloc(sizeof *p);
      *p = (FePragma){.off = off, .loop = true, .unroll = unroll, .end = end};
      klist_push(&fe->pragmas, p);
      i += span - 1;
      continue;
    }
    if (i + 4 >= n || k != CXToken_Punctuation) continue;
    int st = pragma_state(fe->tu, t + i, n - i);
    if (st == 2) continue;
    CXSourceLocation l = clang_getTokenLocation(fe->tu, t[i]);
    unsigned off = 0;
    clang_getSpellingLocation(l, NULL, NULL, NULL, &off);
    FePragma *p = kir_alloc(sizeof *p);
    *p = (FePragma){.off = off, .state = st, .file_scope = at_file_scope(fe->tu, l)};
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
    if (!p->loop && p->file_scope && p->off < at) st = p->state;
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
    if (!p->loop && !p->file_scope && p->off > from && p->off < to) st = p->state;
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

int fe_loop_unroll(FeCtx *fe, CXCursor loop) {
  unsigned at;
  if (!fe->pragmas.n || !main_offset(fe, clang_getRangeStart(clang_getCursorExtent(loop)), &at))
    return 0;
  size_t size = 0;
  const char *text = clang_getFileContents(fe->tu, fe->main_file, &size);
  for (int i = fe->pragmas.n - 1; i >= 0; i--) {
    const FePragma *p = fe->pragmas.v[i];
    if (!p->loop || p->end > at) continue;
    /* The hint is the loop's when only blanks, comments and other directive lines (#endif...)
       separate them. */
    for (unsigned o = p->end; o < at && o < size; o++) {
      char ch = text[o];
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
      if (ch == '#' || (ch == '/' && o + 1 < size && text[o + 1] == '/')) {
        while (o < at && text[o] != '\n') o++; /* to the end of the line */
        continue;
      }
      if (ch == '/' && o + 1 < size && text[o + 1] == '*') {
        const char *e = memmem(text + o + 2, at - o - 2 < size ? at - o - 2 : 0, "*/", 2);
        if (!e) return 0;
        o = (unsigned)(e - text) + 1;
        continue;
      }
      return 0;
    }
    return p->unroll;
  }
  return 0;
}
