/* diag.c — diagnostics in clang's format, with the quoted source line and a caret. */
#include "diag.h"
#include "kcc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static int nerrors, nwarnings;
static bool werror, color;
/* -w: warnings are dropped, and so are the notes that explain a dropped one. */
static bool nowarn, dropping;

typedef struct Source {
  struct Source *next;
  char *file;
  const char *text;
  size_t len;
  bool owned; /* text is ours to free (a copy or a file read), not a caller's static text */
} Source;
static Source *sources; /* files already read for quoting, and registered unsaved texts */
static FILE *output;    /* NULL: stderr */

void diag_set_output(FILE *f) {
  output = f;
}
FILE *diag_output(void) {
  return output ? output : stderr;
}

void diag_capture_begin(DiagCapture *c) {
  memset(c, 0, sizeof *c);
  c->saved = output;
  c->nerrors = nerrors;
  c->nwarnings = nwarnings;
  c->mem = open_memstream(&c->text, &c->len);
  if (c->mem) output = c->mem; /* without memory the diagnostics just print */
}

char *diag_capture_end(DiagCapture *c, bool forgive) {
  output = c->saved;
  if (!c->mem) return forgive ? calloc(1, 1) : NULL;
  fclose(c->mem);
  if (forgive) {
    nerrors = c->nerrors;
    nwarnings = c->nwarnings;
    return c->text ? c->text : calloc(1, 1);
  }
  if (c->text) fwrite(c->text, 1, c->len, diag_output());
  free(c->text);
  return NULL;
}

void diag_set_werror(bool on) {
  werror = on;
}
void diag_set_nowarn(bool on) {
  nowarn = on;
}
void diag_set_color(bool on) {
  color = on;
}
int diag_error_count(void) {
  return nerrors;
}
int diag_warning_count(void) {
  return nwarnings;
}

void diag_reset(void) {
  nerrors = nwarnings = 0;
  while (sources) {
    Source *n = sources->next;
    free(sources->file);
    if (sources->owned) free((char *)sources->text);
    free(sources);
    sources = n;
  }
}

static Source *add_source(const char *file, const char *text, size_t len, bool owned) {
  Source *s = malloc(sizeof *s);
  if (!s) return NULL;
  s->file = strdup(file);
  s->text = text;
  s->len = len;
  s->owned = owned;
  s->next = sources;
  sources = s;
  return s;
}

void diag_add_source(const char *file, const char *text, size_t len) {
  char *copy = malloc(len + 1);
  if (!copy) return;
  memcpy(copy, text, len);
  copy[len] = 0;
  add_source(file, copy, len, true);
}

void diag_add_static_source(const char *file, const char *text, size_t len) {
  add_source(file, text, len, false);
}

static Source *find_source(const char *file) {
  for (Source *s = sources; s; s = s->next)
    if (!strcmp(s->file, file)) return s;
  /* Read lazily: most compilations print no diagnostic at all. */
  KBuf b = {0};
  kcc_read_file(file, &b); /* what could be read: a quote is a help, not a must */
  return add_source(file, b.data, b.len, true);
}

/* Quotes the line and puts a caret under the column; tabs in the prefix are kept so the caret
 * lines up in a terminal. */
static void quote_line(KLoc loc) {
  Source *s = find_source(loc.file);
  if (!s || !s->text || loc.line < 1) return;
  const char *p = s->text, *end = s->text + s->len;
  for (int line = 1; line < loc.line && p < end; p++)
    if (*p == '\n') line++;
  if (p >= end && loc.line > 1) return;
  const char *eol = memchr(p, '\n', end - p);
  if (!eol) eol = end;
  size_t n = eol - p;
  if (n && p[n - 1] == '\r') n--;
  if (n > 4096) return; /* a minified or binary line helps nobody */
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)p[i] < 0x20 && p[i] != '\t') return; /* binary junk */
  FILE *out = diag_output();
  fprintf(out, "%.*s\n", (int)n, p);
  int col = loc.col > 0 ? loc.col : 1;
  for (int i = 0; i < col - 1 && (size_t)i < n; i++) fputc(p[i] == '\t' ? '\t' : ' ', out);
  fputs(color ? "\033[1;32m^\033[0m\n" : "^\n", out);
}

static void vreport(DiagLevel level, KLoc loc, const char *prefix, const char *fmt, va_list ap) {
  static const char *names[] = {"note", "warning", "error", "fatal error"};
  /* Before -Werror, as gcc does: with -w there is no warning left to make an error. */
  if (level != DIAG_NOTE) dropping = nowarn && level == DIAG_WARNING;
  if (dropping) return;
  if (level == DIAG_WARNING && werror) level = DIAG_ERROR;
  if (level >= DIAG_ERROR) nerrors++;
  if (level == DIAG_WARNING) nwarnings++;
  FILE *out = diag_output();
  if (loc.file && loc.line > 0)
    fprintf(out, "%s:%d:%d: %s: %s", loc.file, loc.line, loc.col > 0 ? loc.col : 1, names[level],
            prefix);
  else if (loc.file)
    fprintf(out, "%s: %s: %s", loc.file, names[level], prefix);
  else
    fprintf(out, "kcc: %s: %s", names[level], prefix);
  vfprintf(out, fmt, ap);
  fputc('\n', out);
  if (loc.file && loc.line > 0) quote_line(loc);
}

void diag_report(DiagLevel level, KLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(level, loc, "", fmt, ap);
  va_end(ap);
}

void diag_ice(KLoc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vreport(DIAG_ERROR, loc, "internal compiler error: ", fmt, ap);
  va_end(ap);
}
