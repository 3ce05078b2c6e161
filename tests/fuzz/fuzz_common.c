/* fuzz_common.c — see fuzz_common.h. */
#define _GNU_SOURCE
#include "fuzz_common.h"

#include <clang-c/Index.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"

static char dir[64];
static FILE *devnull, *real_stderr;
static CXIndex check_index;
static bool tools;
static const uint8_t *input; /* the input being run, shown with a finding */
static size_t input_size;

void fz_init(void) {
  if (dir[0]) return;
  snprintf(dir, sizeof dir, "%s/kcc-fuzz-XXXXXX",
           access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
  if (!mkdtemp(dir)) abort();
  devnull = fopen("/dev/null", "w");
  if (!devnull) abort();
  real_stderr = stderr;
  check_index = clang_createIndex(0, 0);
  const char *t = getenv("KCC_FUZZ_TOOLS");
  tools = t && *t == '1';
}

const char *fz_write_input(const char *name, const uint8_t *data, size_t size) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  input = data, input_size = size;
  FILE *f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) abort();
  return path;
}

void fz_quiet(void) {
  if (!getenv("KCC_FUZZ_VERBOSE")) stderr = devnull;
}

void fz_loud(void) {
  stderr = real_stderr;
}

/* An internal compiler error is a bug whatever the input: print it and crash. */
void __real_diag_ice(KLoc loc, const char *fmt, ...);
void __wrap_diag_ice(KLoc loc, const char *fmt, ...) {
  fz_loud();
  va_list ap;
  va_start(ap, fmt);
  char msg[4096];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  __real_diag_ice(loc, "%s", msg);
  /* Straight to the terminal too: a bundle's forms compile with their diagnostics captured. */
  fprintf(real_stderr, "%s:%d:%d: internal compiler error: %s\n", loc.file ? loc.file : "kcc",
          loc.line, loc.col, msg);
  fprintf(real_stderr, "---- input:\n%.*s\n----\n", (int)(input_size > 8192 ? 8192 : input_size),
          input ? (const char *)input : "");
  fprintf(real_stderr, "kcc-fuzz: internal compiler error: a finding\n");
  abort();
}

void fz_options(KOptions *o, const uint8_t *data, size_t size) {
  kcc_options_default(o);
  unsigned b = size ? data[size - 1] : 0;
  o->opt_level = (int)(b & 3);
  o->fast_math = (b & 4) != 0;
  o->fp_contract = (b & 8) == 0;
}

bool fz_has_kernel(const KModule *m) {
  for (int i = 0; i < m->funcs.n; i++)
    if (((const KFunc *)m->funcs.v[i])->is_kernel) return true;
  return false;
}

bool fz_emit(bool (*emit)(KModule *, const KOptions *, KBuf *), KModule *m, const KOptions *o,
             KBuf *out) {
  int e0 = diag_error_count();
  bool ok = emit(m, o, out);
  return ok && diag_error_count() == e0;
}

static void reject(const char *what, const KBuf *text, const char *why) {
  fz_loud();
  fprintf(stderr, "kcc-fuzz: %s rejects kcc's output:\n%s\n---- output:\n%.*s\n----\n", what, why,
          (int)(text->len > 20000 ? 20000 : text->len), text->data ? text->data : "");
  abort();
}

/* Parses `text` as NAME with clang's `args` (through a main file that includes it when `via`
 * names one); aborts on a diagnostic of `min` or worse. */
static void clang_check(const char *what, const char *name, const char *via, const KBuf *text,
                        const char **args, int nargs, enum CXDiagnosticSeverity min) {
  char path[160], main_path[160], main_text[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct CXUnsavedFile uf[2] = {{path, text->data ? text->data : "", (unsigned long)text->len}};
  int nuf = 1;
  const char *parse = path;
  if (via) {
    snprintf(main_path, sizeof main_path, "%s/%s", dir, via);
    snprintf(main_text, sizeof main_text, "#include \"%s\"\n", name);
    uf[1] = (struct CXUnsavedFile){main_path, main_text, (unsigned long)strlen(main_text)};
    nuf = 2;
    parse = main_path;
  }
  CXTranslationUnit tu = NULL;
  enum CXErrorCode ec = clang_parseTranslationUnit2(check_index, parse, args, nargs, uf,
                                                    (unsigned)nuf, CXTranslationUnit_None, &tu);
  if (ec != CXError_Success || !tu) reject(what, text, "libclang could not parse it");
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= min) {
      CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
      char why[2048];
      snprintf(why, sizeof why, "%s", clang_getCString(s));
      clang_disposeString(s);
      clang_disposeDiagnostic(d);
      clang_disposeTranslationUnit(tu);
      reject(what, text, why);
    }
    clang_disposeDiagnostic(d);
  }
  clang_disposeTranslationUnit(tu);
}

#define SUBGROUP_EXTS "-cl-ext=+cl_khr_subgroups,+cl_khr_subgroup_ballot,+cl_khr_subgroup_shuffle"

void fz_check_opencl_c(const KBuf *cl) {
  static const char *args[] = {"-x",
                               "cl",
                               "-cl-std=CL1.2",
                               "-Xclang",
                               "-fdeclare-opencl-builtins",
                               "-Xclang",
                               "-finclude-default-header",
                               "-fsyntax-only"};
  /* Warp operations: kcc writes OpenCL C 2.0 with the subgroup extensions (as
   * tests/consume.sh checks it). */
  static const char *args20[] = {"-x",
                                 "cl",
                                 "-cl-std=CL2.0",
                                 "--target=spir64",
                                 "-Xclang",
                                 SUBGROUP_EXTS,
                                 "-Xclang",
                                 "-fdeclare-opencl-builtins",
                                 "-Xclang",
                                 "-finclude-default-header",
                                 "-fsyntax-only"};
  if (cl->data && strstr(cl->data, "#pragma OPENCL EXTENSION cl_khr_subgroups"))
    clang_check("clang -x cl -cl-std=CL2.0 (subgroups)", "out.cl", NULL, cl, args20,
                sizeof args20 / sizeof args20[0], CXDiagnostic_Error);
  else
    clang_check("clang -x cl -cl-std=CL1.2", "out.cl", NULL, cl, args, sizeof args / sizeof args[0],
                CXDiagnostic_Error);
}

void fz_check_header(const KBuf *h) {
  static const char *c11[] = {"-x",      "c",  "-std=c11",           "-Wall",
                              "-Wextra", "-I", KCC_FUZZ_KCRT_INCLUDE};
  static const char *c99[] = {"-x",    "c",  "-std=c99",           "-pedantic",
                              "-Wall", "-I", KCC_FUZZ_KCRT_INCLUDE};
  static const char *cxx[] = {"-x", "c++", "-std=c++11", "-Wall", "-I", KCC_FUZZ_KCRT_INCLUDE};
  clang_check("clang -std=c11 -Wall -Wextra (the .h)", "out.h", "use.c", h, c11, 7,
              CXDiagnostic_Warning);
  clang_check("clang -std=c99 -pedantic -Wall (the .h)", "out.h", "use.c", h, c99, 7,
              CXDiagnostic_Warning);
  clang_check("clang -x c++ -std=c++11 -Wall (the .h)", "out.h", "use.cpp", h, cxx, 6,
              CXDiagnostic_Warning);
}

/* Runs `cmd` on the text written to DIR/NAME; aborts when it fails. */
static void tool_check(const char *what, const char *name, const KBuf *text, const char *cmd) {
  const char *path = fz_write_input(name, (const uint8_t *)text->data, text->len);
  char full[1024];
  snprintf(full, sizeof full, "cd %s && %s %s >tool.log 2>&1", dir, cmd, path);
  int st = system(full);
  if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) == 127) return; /* tool missing */
  if (WEXITSTATUS(st) != 0) {
    char log[160], why[4096] = "";
    snprintf(log, sizeof log, "%s/tool.log", dir);
    FILE *f = fopen(log, "r");
    if (f) {
      size_t n = fread(why, 1, sizeof why - 1, f);
      why[n] = 0;
      fclose(f);
    }
    reject(what, text, why);
  }
}

void fz_check_ptx(const KBuf *ptx) {
  if (tools) tool_check("ptxas", "out.ptx", ptx, "ptxas -arch=sm_75 -o /dev/null");
}

void fz_check_cuda(const KBuf *cu) {
  if (tools) tool_check("nvcc", "out.cu", cu, "nvcc -arch=sm_75 -c -o /dev/null");
}
