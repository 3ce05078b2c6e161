/* diag.h — clang-style diagnostics: `file:line:col: error: message`, the source line, a caret.
 * Every stage reports through here so that counting, -Werror and the format are in one place. */
#ifndef KCC_DIAG_H
#define KCC_DIAG_H

#include "kir.h"

#include <stdio.h>

typedef enum DiagLevel { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR, DIAG_FATAL } DiagLevel;

/* Prints one diagnostic to stderr. With loc.file == NULL no location or source line is
 * printed ("kcc: error: ..."). Warnings become errors under diag_set_werror(true). */
void diag_report(DiagLevel level, KLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define diag_error(loc, ...)   diag_report(DIAG_ERROR, (loc), __VA_ARGS__)
#define diag_warning(loc, ...) diag_report(DIAG_WARNING, (loc), __VA_ARGS__)
#define diag_note(loc, ...)    diag_report(DIAG_NOTE, (loc), __VA_ARGS__)
/* An internal compiler error: a bug in kcc, not in the user's kernel. */
void diag_ice(KLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void diag_set_werror(bool on);
/* -w: warnings (and their notes) are not printed or counted; -Werror then has none to raise. */
void diag_set_nowarn(bool on);
void diag_set_color(bool on); /* off by default; tests compare plain text */
int diag_error_count(void);
int diag_warning_count(void);
void diag_reset(void);
/* Where diagnostics go: stderr unless set (libkcc captures them into a memory stream). */
void diag_set_output(FILE *f);
FILE *diag_output(void);
/* Diagnostics held back, for a stage whose failure the caller may forgive (the bundle's
 * OpenCL forms): between begin and end they go to memory. diag_capture_end(c, true) forgets
 * them, counts included, and returns their text (malloc'ed, the caller frees); with false it
 * prints them where they would have gone and keeps them counted (returns NULL). */
typedef struct DiagCapture {
  FILE *saved, *mem;
  char *text;
  size_t len;
  int nerrors, nwarnings;
} DiagCapture;
void diag_capture_begin(DiagCapture *c);
char *diag_capture_end(DiagCapture *c, bool forgive);
/* Source text the diagnostics quote, for files that are not on disk (tests, unsaved input). */
void diag_add_source(const char *file, const char *text, size_t len);
/* The same for a text that lives as long as the process (the prelude's virtual files), kept
 * by reference: copying ~0.5 MB of prelude on every compile was ~0.3 ms of a 30 ms one. */
void diag_add_static_source(const char *file, const char *text, size_t len);

#endif
