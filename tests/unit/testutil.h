/* testutil.h — helpers shared by the Check unit tests: parse snippets, capture diagnostics,
 * run the kcc binary. */
#ifndef KCC_TESTUTIL_H
#define KCC_TESTUTIL_H

#include <check.h>
#include "kcc.h"
#include "diag.h"

/* A fresh temporary directory for this test process (created once). */
const char *tu_tmpdir(void);
/* Writes `text` to tu_tmpdir()/name and returns the full path (static storage per call). */
char *tu_write(const char *name, const char *text);
/* Parses `src` as the file `name` (default "t.k") with default options and runs the passes
 * that kcc runs before any back end (allow_generic as for PTX). Returns the module or NULL;
 * *diags (if not NULL) receives everything that was printed to stderr (malloc'd). */
KModule *tu_compile(const char *name, const char *src, char **diags);
/* The `--emit=kir` text of `src`, or NULL on error (diagnostics in *diags). malloc'd. */
char *tu_kir(const char *src, char **diags);
/* Runs `cmd` through /bin/sh; returns its exit status (or -1); out/err receive its stdout and
 * stderr (malloc'd) when not NULL. */
int tu_sh(const char *cmd, char **out, char **err);
/* The kcc binary under test (from $KCC, set by ctest). */
const char *tu_kcc(void);
/* Path of tests/ in the source tree (from $KCC_TESTS). */
const char *tu_srcdir(void);
/* Reads a whole file (malloc'd, NUL-terminated) or NULL. */
char *tu_read(const char *path, size_t *len);
/* Runs a suite with CK_NORMAL output and returns the process exit status. */
int tu_main(Suite *s);

#endif
