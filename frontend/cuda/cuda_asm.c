/* cuda_asm.c — CUDA input: inline PTX, the asm statement of GCC's extended syntax that the
 * CUDA Programming Guide's "Inline PTX Assembly" describes:
 *
 *   asm [volatile] ("template" : "=r"(out), ... : "r"(in), ... : "memory");
 *
 * libclang shows the operands' expressions (outputs, then inputs) but neither the template
 * nor the constraints, so those are read from the statement's tokens. The result is a KE_ASM
 * (kir.h): PTX and CUDA C write it back; OpenCL C and SPIR-V cannot run PTX and refuse it
 * where the kernel is written in those forms. */
#include <stdlib.h>
#include <string.h>

#include "fe_cuda.h"

typedef struct AsmToks {
  FeCtx *fe;
  CXToken *t;
  unsigned n, i;
  int colons; /* a "::" token counts as two */
} AsmToks;

static const char *tok(AsmToks *a, unsigned i, char *buf, size_t cap) {
  if (i >= a->n) return "";
  CXString s = clang_getTokenSpelling(a->fe->tu, a->t[i]);
  snprintf(buf, cap, "%s", clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return buf;
}

/* The string literal's characters, escapes resolved, appended to out (C's escapes; a
 * backslash-newline inside the literal, as multi-line templates write it, is nothing). */
static bool append_literal(const char *lit, KBuf *out) {
  size_t n = strlen(lit);
  if (n < 2 || lit[0] != '"' || lit[n - 1] != '"') return false;
  for (size_t i = 1; i + 1 < n; i++) {
    char c = lit[i];
    if (c != '\\') {
      kbuf_append(out, &c, 1);
      continue;
    }
    c = lit[++i];
    int v = -1;
    switch (c) {
    case '\n': continue;
    case '\r':
      if (lit[i + 1] == '\n') i++;
      continue;
    case 'n': v = '\n'; break;
    case 't': v = '\t'; break;
    case 'r': v = '\r'; break;
    case 'a': v = '\a'; break;
    case 'b': v = '\b'; break;
    case 'f': v = '\f'; break;
    case 'v': v = '\v'; break;
    case 'x':
      v = (int)strtol(lit + i + 1, NULL, 16);
      while (strchr("0123456789abcdefABCDEF", lit[i + 1]) && lit[i + 1]) i++;
      break;
    default:
      if (c >= '0' && c <= '7') {
        v = c - '0';
        for (int k = 0; k < 2 && lit[i + 1] >= '0' && lit[i + 1] <= '7'; k++)
          v = v * 8 + (lit[++i] - '0');
      } else {
        v = (unsigned char)c; /* \\ \" \' \? */
      }
    }
    char ch = (char)v;
    kbuf_append(out, &ch, 1);
  }
  return true;
}

/* Consecutive string literals from token a->i on, concatenated (malloc'ed); NULL if none. */
static char *literals(AsmToks *a) {
  KBuf b = {0};
  char buf[4096];
  bool any = false;
  while (a->i < a->n && clang_getTokenKind(a->t[a->i]) == CXToken_Literal &&
         tok(a, a->i, buf, sizeof buf)[0] == '"') {
    if (!append_literal(buf, &b)) break;
    any = true;
    a->i++;
  }
  if (!any) return NULL;
  kbuf_append(&b, "", 1);
  return b.data;
}

/* Past a ':' (or half of a "::"); false at anything else. */
static bool colon(AsmToks *a) {
  char buf[8];
  const char *s = tok(a, a->i, buf, sizeof buf);
  if (!strcmp(s, "::")) {
    if (a->colons++ == 0) return true;
    a->colons = 0;
    a->i++;
    return true;
  }
  if (strcmp(s, ":")) return false;
  a->i++;
  return true;
}

static bool at(AsmToks *a, const char *s) {
  char buf[64];
  return !strcmp(tok(a, a->i, buf, sizeof buf), s);
}

/* Past a parenthesised operand expression; false if there is none. */
static bool skip_parens(AsmToks *a) {
  if (!at(a, "(")) return false;
  int depth = 0;
  char buf[64];
  for (; a->i < a->n; a->i++) {
    const char *s = tok(a, a->i, buf, sizeof buf);
    if (!strcmp(s, "(")) depth++;
    if (!strcmp(s, ")") && --depth == 0) {
      a->i++;
      return true;
    }
  }
  return false;
}

/* One operand list: "c"(expr), ... up to the next ':' or ')'. The constraints are appended to
 * cons (malloc'ed strings); returns how many, or -1 after reporting what is wrong. */
static int operands(AsmToks *a, KLoc loc, KList *cons) {
  int n = 0;
  while (a->i < a->n && !at(a, ":") && !at(a, "::") && !at(a, ")")) {
    if (n && !at(a, ",")) return -1;
    if (n) a->i++;
    if (at(a, "[")) {
      diag_error(loc, "named asm operands ([name] \"r\"(x), %%[name]) are not supported in kcc "
                      "kernels; number them (%%0, %%1...)");
      return -2;
    }
    char *c = literals(a);
    if (!c || !skip_parens(a)) {
      free(c);
      return -1;
    }
    const char *letters = c + strspn(c, "=+&");
    if (strlen(letters) != 1 || !strchr("hrlfdnc", letters[0])) {
      diag_error(loc,
                 "asm constraint \"%s\" is not one kcc takes: PTX's registers are h (16-bit), "
                 "r (32-bit), l (64-bit), f (float), d (double), c (8-bit), and n an immediate",
                 c);
      free(c);
      return -2;
    }
    klist_push(cons, kir_strdup(c));
    free(c);
    n++;
  }
  return n;
}

KExpr *fe_cu_asm(FeCtx *fe, CXCursor c, KLoc loc) {
  CXSourceRange ext = clang_getCursorExtent(c);
  if (fe_in_macro(clang_getRangeStart(ext))) {
    diag_error(loc, "inline assembly written by a macro is not supported in kcc kernels; write "
                    "the asm statement in a function");
    return fe_poison(loc);
  }
  AsmToks a = {fe, NULL, 0, 0, 0};
  clang_tokenize(fe->tu, ext, &a.t, &a.n);
  KAsm *k = kir_alloc(sizeof *k);
  KList cons = {0}, clob = {0};
  int nout = 0, nin = 0;
  char buf[64];
  a.i = 1; /* after asm / __asm__ */
  for (; a.i < a.n; a.i++) {
    const char *s = tok(&a, a.i, buf, sizeof buf);
    if (!strcmp(s, "volatile") || !strcmp(s, "__volatile__") || !strcmp(s, "__volatile"))
      k->is_volatile = true;
    else if (strcmp(s, "inline") && strcmp(s, "__inline__"))
      break;
  }
  char *text = NULL;
  if (at(&a, "goto")) {
    diag_error(loc, "asm goto is not supported in kcc kernels");
    goto out;
  }
  if (!at(&a, "(")) goto bad;
  a.i++;
  text = literals(&a);
  if (!text) goto bad;
  if (colon(&a) && (nout = operands(&a, loc, &cons)) >= 0 && colon(&a) &&
      (nin = operands(&a, loc, &cons)) >= 0 && colon(&a)) {
    while (a.i < a.n && !at(&a, ")")) {
      if (clob.n && at(&a, ",")) a.i++;
      char *cl = literals(&a);
      if (!cl) goto bad;
      klist_push(&clob, kir_strdup(cl));
      free(cl);
    }
  }
  if (nout == -2 || nin == -2) goto out;
  if (nout < 0 || nin < 0 || !at(&a, ")")) goto bad;
  FeKids kids;
  fe_kids_expr(c, &kids);
  if (kids.n != nout + nin) {
    fe_kids_free(&kids);
    goto bad;
  }
  KExpr *e = kir_expr(KE_ASM, kir_type_void(), loc);
  e->asm_ = k;
  k->text = kir_strdup(text);
  k->nout = nout;
  k->nin = nin;
  k->cons = (const char **)cons.v;
  k->clobbers = (const char **)clob.v;
  k->nclobbers = clob.n;
  e->nargs = nout + nin;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(e->nargs ? e->nargs : 1));
  for (int i = 0; i < e->nargs; i++) {
    KExpr *x = fe_expr(fe, kids.v[i]);
    if (i < nout) {
      if (!kir_is_lvalue(x)) {
        diag_error(fe_loc(fe, kids.v[i]), "an asm output must be an object (an lvalue)");
        x = fe_poison(loc);
      } else {
        x = fe_addr_of(fe, x, fe_loc(fe, kids.v[i]));
      }
    }
    e->args[i] = x;
  }
  fe_kids_free(&kids);
  free(text);
  clang_disposeTokens(fe->tu, a.t, a.n);
  return e;
bad:
  diag_error(loc, "this asm statement is not one kcc can read: asm [volatile] (\"template\" : "
                  "\"=r\"(out), ... : \"r\"(in), ... : \"memory\")");
out:
  free(text);
  if (a.t) clang_disposeTokens(fe->tu, a.t, a.n);
  return fe_poison(loc);
}
