/* libkcc.c — the compiler as a library (include/libkcc.h), and the middle of a compile that
 * the kcc command line runs too (kcc_front, kcc_emit). The compiler keeps its state in
 * globals (the KIR arena, the diagnostics), so compiles are serialised by one mutex; the
 * diagnostics go to a memory stream for the result instead of stderr. */
#include "include/libkcc.h"

#include "diag.h"
#include "kcc.h"
#include "options.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- shared with main.c */

KModule *kcc_front(const Cmd *c, KOptions *o, const char *source, size_t len, KList *deps) {
  diag_set_werror(o->werror);
  diag_set_nowarn(c->nowarn);
  diag_set_color(false);
  o->source = source;
  o->source_len = len;
  o->one_space = c->form->one_space;
  /* Diagnostics quote the text compiled, not a file of the same name. */
  if (source) diag_add_source(c->input, source, len);
  KModule *m = kcc_compile_module(c->input, o, deps, c->form->generic_ok);
  o->source = NULL;
  o->source_len = 0;
  if (m && !kir_has_kernel(m)) {
    /* Projects ship files of device functions and constants that their build compiles
     * beside the kernels' files; every form but Vulkan's can carry a module without an entry
     * point, so this is worth a word, not a refusal (-Werror makes it one). */
    int errors = diag_error_count();
    diag_warning((KLoc){0}, "no kernel in this file: the output has no entry point to launch, "
                            "only the file's variables (a device function is compiled only "
                            "where a kernel calls it)");
    if (diag_error_count() > errors) m = NULL;
  }
  return m;
}

bool kcc_emit(const Cmd *c, KModule *m, const KOptions *o, KBuf *out) {
  if (c->form->emit) return c->form->emit(m, o, out);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return false;
  kir_print(f, m);
  fclose(f);
  kbuf_append(out, text, len);
  free(text);
  return true;
}

/* ---------------------------------------------------------------- the API */

struct kcc_result {
  kcc_status status;
  char *output; /* NUL-terminated one past size */
  size_t size;
  const char *form;
  char *log;
  int errors, warnings;
  char **deps;
  int ndeps;
};

static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;

/* Under compile_lock: parses the options, compiles, fills r. */
static void compile_locked(const char *source, size_t size, const char *name,
                           const char *const *options, int noptions, kcc_result *r) {
  int argc = noptions + 2;
  char **argv = calloc((size_t)argc + 1, sizeof *argv);
  KOptions o;
  kcc_options_default(&o);
  o.cargs = calloc((size_t)argc * 2 + 1, sizeof *o.cargs);
  if (!argv || !o.cargs) {
    free(argv);
    free(o.cargs);
    r->status = KCC_ERROR_OUT_OF_MEMORY;
    return;
  }
  argv[0] = "kcc";
  argv[1] = (char *)name;
  for (int i = 0; i < noptions; i++) argv[i + 2] = (char *)options[i];
  Cmd c = {.library = true};
  if (kcc_parse_args(argc, argv, &o, &c) >= 0) {
    r->status = KCC_ERROR_INVALID_OPTION;
  } else {
    r->form = c.form->name;
    KList deps = {0};
    KBuf out = {0};
    KModule *m = kcc_front(&c, &o, source, size, &deps);
    bool ok = m && kcc_emit(&c, m, &o, &out) && diag_error_count() == 0;
    r->status = ok ? KCC_SUCCESS : KCC_ERROR_COMPILE;
    if (ok) {
      r->output = out.data ? out.data : calloc(1, 1);
      r->size = out.len;
      out.data = NULL;
      if (!r->output) r->status = KCC_ERROR_OUT_OF_MEMORY;
    }
    kbuf_free(&out);
    if (deps.n && (r->deps = calloc((size_t)deps.n, sizeof *r->deps)))
      for (int i = 0; i < deps.n; i++)
        if ((r->deps[r->ndeps] = strdup(deps.v[i]))) r->ndeps++;
  }
  r->errors = diag_error_count();
  r->warnings = diag_warning_count();
  kir_free_all();
  diag_reset();
  free(o.cargs);
  free(argv);
}

static kcc_status run(const char *source, size_t size, const char *name, const char *const *options,
                      int noptions, kcc_result **result) {
  if (!result) return KCC_ERROR_INVALID_ARGUMENT;
  *result = NULL;
  if (noptions < 0 || (noptions > 0 && !options) || !name || !*name || name[0] == '-')
    return KCC_ERROR_INVALID_ARGUMENT;
  for (int i = 0; i < noptions; i++)
    if (!options[i]) return KCC_ERROR_INVALID_ARGUMENT;
  kcc_result *r = calloc(1, sizeof *r);
  if (!r) return KCC_ERROR_OUT_OF_MEMORY;
  size_t loglen = 0;
  pthread_mutex_lock(&compile_lock);
  FILE *log = open_memstream(&r->log, &loglen);
  if (log) {
    diag_set_output(log);
    compile_locked(source, size, name, options, noptions, r);
    diag_set_output(NULL);
    fclose(log);
  }
  pthread_mutex_unlock(&compile_lock);
  if (!log || !r->log || r->status == KCC_ERROR_OUT_OF_MEMORY) {
    kcc_result_free(r);
    return KCC_ERROR_OUT_OF_MEMORY;
  }
  *result = r;
  return r->status;
}

kcc_status kcc_compile(const char *source, size_t size, const char *name,
                       const char *const *options, int noptions, kcc_result **result) {
  if (!source && size) {
    if (result) *result = NULL;
    return KCC_ERROR_INVALID_ARGUMENT;
  }
  return run(source ? source : "", size, name ? name : "kernel.k", options, noptions, result);
}

kcc_status kcc_compile_file(const char *path, const char *const *options, int noptions,
                            kcc_result **result) {
  return run(NULL, 0, path, options, noptions, result);
}

kcc_status kcc_result_status(const kcc_result *r) {
  return r ? r->status : KCC_ERROR_INVALID_ARGUMENT;
}

const void *kcc_result_output(const kcc_result *r, size_t *size) {
  if (size) *size = r && r->output ? r->size : 0;
  return r ? r->output : NULL;
}

const char *kcc_result_form(const kcc_result *r) {
  return r && r->form ? r->form : "";
}

const char *kcc_result_log(const kcc_result *r) {
  return r && r->log ? r->log : "";
}

int kcc_result_error_count(const kcc_result *r) {
  return r ? r->errors : 0;
}

int kcc_result_warning_count(const kcc_result *r) {
  return r ? r->warnings : 0;
}

int kcc_result_dependency_count(const kcc_result *r) {
  return r ? r->ndeps : 0;
}

const char *kcc_result_dependency(const kcc_result *r, int index) {
  return r && index >= 0 && index < r->ndeps ? r->deps[index] : NULL;
}

void kcc_result_free(kcc_result *r) {
  if (!r) return;
  for (int i = 0; i < r->ndeps; i++) free(r->deps[i]);
  free(r->deps);
  free(r->output);
  free(r->log);
  free(r);
}

const char *kcc_status_string(kcc_status status) {
  switch (status) {
  case KCC_SUCCESS: return "success";
  case KCC_ERROR_COMPILE: return "compile error";
  case KCC_ERROR_INVALID_OPTION: return "invalid option";
  case KCC_ERROR_INVALID_ARGUMENT: return "invalid argument";
  case KCC_ERROR_OUT_OF_MEMORY: return "out of memory";
  }
  return "unknown status";
}

const char *kcc_version(void) {
  return KCC_VERSION;
}
