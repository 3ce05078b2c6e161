/* testutil.c — see testutil.h. */
#define _GNU_SOURCE
#include "testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every string handed to a test stays reachable from here, so LeakSanitizer does not count the
 * ones a test does not free (and a test may still free them). */
static void **kept;
static size_t nkept, capkept;

static char *keep(char *p) {
  if (!p) return p;
  if (nkept == capkept) {
    capkept = capkept ? capkept * 2 : 64;
    kept = realloc(kept, capkept * sizeof *kept);
    if (!kept) abort();
  }
  kept[nkept++] = p;
  return p;
}

const char *tu_tmpdir(void) {
  static char dir[64];
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/kcc-test-XXXXXX");
    if (!mkdtemp(dir)) abort();
  }
  return dir;
}

char *tu_write(const char *name, const char *text) {
  char *path = kir_alloc(strlen(tu_tmpdir()) + strlen(name) + 2);
  sprintf(path, "%s/%s", tu_tmpdir(), name);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return path;
}

char *tu_read(const char *path, size_t *lenp) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  KBuf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) kbuf_append(&b, chunk, n);
  fclose(f);
  if (!b.data) kbuf_append(&b, "", 0);
  if (lenp) *lenp = b.len;
  return keep(b.data);
}

/* Runs fn with stderr redirected to a file, so a test can compare what the user would see. */
static char *capture_stderr(void (*fn)(void *), void *arg) {
  char path[128];
  snprintf(path, sizeof path, "%s/stderr.XXXXXX", tu_tmpdir());
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  fn(arg);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  char *text = tu_read(path, NULL);
  unlink(path);
  return text;
}

typedef struct CompileArgs {
  const char *path;
  KModule *m;
} CompileArgs;

static void do_compile(void *p) {
  CompileArgs *a = p;
  KOptions o;
  kcc_options_default(&o);
  a->m = kcc_compile_module(a->path, &o, NULL, true);
}

KModule *tu_compile(const char *name, const char *src, char **diags) {
  diag_reset();
  CompileArgs a = {.path = tu_write(name ? name : "t.k", src)};
  char *text = capture_stderr(do_compile, &a);
  if (diags)
    *diags = text;
  else
    free(text);
  return a.m;
}

char *tu_kir(const char *src, char **diags) {
  KModule *m = tu_compile(NULL, src, diags);
  if (!m) return NULL;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  kir_print(f, m);
  fclose(f);
  return keep(text);
}

int tu_sh(const char *cmd, char **out, char **err) {
  char o[128], e[128];
  snprintf(o, sizeof o, "%s/out.XXXXXX", tu_tmpdir());
  snprintf(e, sizeof e, "%s/err.XXXXXX", tu_tmpdir());
  int fo = mkstemp(o), fe = mkstemp(e);
  close(fo);
  close(fe);
  char *full = malloc(strlen(cmd) + strlen(o) + strlen(e) + 32);
  sprintf(full, "(%s) >%s 2>%s", cmd, o, e);
  int st = system(full);
  free(full);
  if (out) *out = tu_read(o, NULL);
  if (err) *err = tu_read(e, NULL);
  unlink(o);
  unlink(e);
  return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

const char *tu_kcc(void) {
  const char *k = getenv("KCC");
  return k ? k : "kcc";
}

const char *tu_srcdir(void) {
  const char *d = getenv("KCC_TESTS");
  return d ? d : ".";
}

int tu_main(Suite *s) {
  tu_tmpdir(); /* made before Check forks, so the parent removes it */
  SRunner *r = srunner_create(s);
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tu_tmpdir());
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tu_tmpdir());
  return failed ? 1 : 0;
}
