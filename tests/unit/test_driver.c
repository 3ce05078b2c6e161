/* test_driver.c — the kcc command line: options, exit codes, output files, depfiles. */
#define _GNU_SOURCE
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *vecadd =
    "kernel void vecadd(const float *a, const float *b, float *c, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

/* Runs kcc with `args` in the test's temporary directory. */
static int kcc(const char *args, char **out, char **err) {
  char *cmd;
  if (asprintf(&cmd, "cd %s && %s %s", tu_tmpdir(), tu_kcc(), args) < 0) abort();
  int st = tu_sh(cmd, out, err);
  free(cmd);
  return st;
}

static bool exists(const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tu_tmpdir(), name);
  return access(path, F_OK) == 0;
}

/* No file named like a temporary (NAME.tmp.XXXXXX) may survive a compile. */
static int count_temporaries(void) {
  char *out;
  char cmd[512];
  snprintf(cmd, sizeof cmd, "ls -a %s | grep -c '\\.tmp\\.' || true", tu_tmpdir());
  tu_sh(cmd, &out, NULL);
  int n = atoi(out);
  free(out);
  return n;
}

START_TEST(version) {
  char *out, *err;
  ck_assert_int_eq(kcc("--version", &out, &err), 0);
  ck_assert_str_eq(out, "kcc " KCC_VERSION " (LLVM 19, libclang 19)\n");
  ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(help) {
  char *out, *err;
  ck_assert_int_eq(kcc("--help", &out, &err), 0);
  ck_assert_ptr_nonnull(strstr(out, "usage: kcc [options] file.k [-o output]"));
  /* Every option the driver accepts is documented. */
  const char *opts[] = {"-o FILE",     "--emit=FORM",   "-arch=sm_XX", "-O0",
                        "-I DIR",      "-MD",           "-MF FILE",    "-Werror",
                        "-ffast-math", "-ffp-contract", "--cuda-path", "--version"};
  for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++)
    ck_assert_msg(strstr(out, opts[i]), "--help does not mention %s", opts[i]);
}
END_TEST

START_TEST(usage_errors) {
  struct {
    const char *args, *err;
  } cases[] = {
      {"", "kcc: error: no input file\nkcc: run 'kcc --help' for usage\n"},
      {"-fno-such-thing a.k", "kcc: error: unknown option '-fno-such-thing'\n"
                              "kcc: run 'kcc --help' for usage\n"},
      {"a.k b.k", "kcc: error: more than one input file ('b.k'); kcc compiles one file at a "
                  "time\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -o a.exe", "kcc: error: cannot tell the output form from 'a.exe'; name it with "
                       "--emit=FORM\nkcc: run 'kcc --help' for usage\n"},
      {"a.k --emit=exe",
       "kcc: error: unknown output form 'exe'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -arch=sm_x", "kcc: error: invalid -arch 'sm_x' (expected sm_XX[,sm_YY...], e.g. "
                         "sm_90)\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -o", "kcc: error: missing file name after '-o'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -I", "kcc: error: missing argument to '-I'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -ffp-contract=on2", "kcc: error: invalid value 'on2' for -ffp-contract (expected "
                                "fast or off)\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -o a.k --emit=ptx", "kcc: error: output file 'a.k' is the input file\n"
                                "kcc: run 'kcc --help' for usage\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *err;
    ck_assert_int_eq(kcc(cases[i].args, NULL, &err), 2);
    ck_assert_str_eq(err, cases[i].err);
  }
}
END_TEST

START_TEST(missing_input) {
  char *err;
  ck_assert_int_eq(kcc("nope.k -o nope.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "nope.k"));
  ck_assert(!exists("nope.ptx"));
}
END_TEST

START_TEST(output_forms) {
  tu_write("v.k", vecadd);
  char *out;
  ck_assert_int_eq(kcc("v.k -o v.ptx -arch=sm_90", NULL, NULL), 0);
  char path[512];
  snprintf(path, sizeof path, "%s/v.ptx", tu_tmpdir());
  char *ptx = tu_read(path, NULL);
  ck_assert_ptr_nonnull(strstr(ptx, ".entry vecadd"));
  ck_assert_ptr_nonnull(strstr(ptx, ".target sm_90"));
  /* The default output name is the input's with the form's extension. */
  unlink(path);
  ck_assert_int_eq(kcc("v.k", NULL, NULL), 0);
  ck_assert(exists("v.ptx"));
  ck_assert_int_eq(kcc("v.k -o v.ll", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/v.ll", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), "define"));
  /* --emit overrides the extension; -o - writes to standard output. */
  ck_assert_int_eq(kcc("v.k --emit=kir -o -", &out, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out, "kernel void vecadd("));
  ck_assert_int_eq(kcc("v.k --emit=kir -o v.txt", NULL, NULL), 0);
  ck_assert(exists("v.txt"));
  ck_assert_int_eq(kcc("v.k -O0 -o v0.ptx", NULL, NULL), 0);
  ck_assert_int_eq(kcc("v.k -O2 -o v2.ptx -arch=sm_80,sm_90", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/v2.ptx", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), ".target sm_80"));
  ck_assert_int_eq(count_temporaries(), 0);
}
END_TEST

/* A file without kernels is an error for every form (nothing could be launched from it). */
START_TEST(no_kernels) {
  tu_write("none.k", "// only a helper\nstatic int twice(int x) { return 2 * x; }\n");
  const char *forms[] = {"ptx", "llvm", "kir", "spirv", "cl", "cuda", "bundle", "header"};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    char args[128], *err;
    snprintf(args, sizeof args, "none.k --emit=%s -o none.out", forms[i]);
    ck_assert_int_eq(kcc(args, NULL, &err), 1);
    ck_assert_str_eq(err, "none.k: error: no kernel in this file; declare one as 'kernel void "
                          "name(...)' (or '__global__ void name(...)')\n");
    ck_assert(!exists("none.out"));
  }
  tu_write("empty.k", "");
  ck_assert_int_eq(kcc("empty.k -o empty.kcb", NULL, NULL), 1);
  ck_assert(!exists("empty.kcb"));
}
END_TEST

START_TEST(failed_compile_leaves_no_output) {
  tu_write("bad.k", "kernel int f(void) { return 1; }\n");
  tu_write("bad.ptx", "previous contents\n");
  char *err;
  ck_assert_int_eq(kcc("bad.k -o bad.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "bad.k:1:"));
  char path[512];
  snprintf(path, sizeof path, "%s/bad.ptx", tu_tmpdir());
  ck_assert_str_eq(tu_read(path, NULL), "previous contents\n");
  ck_assert_int_eq(count_temporaries(), 0);
  ck_assert_int_eq(kcc("bad.k -o fresh.ptx", NULL, NULL), 1);
  ck_assert(!exists("fresh.ptx"));
}
END_TEST

START_TEST(preprocessor_options) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "mkdir -p %s/inc", tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  tu_write("inc/scale.h", "#define SCALE 2.0f\n");
  tu_write("m.k", "#include \"scale.h\"\n"
                  "kernel void k(float *x) {\n"
                  "#ifdef TWICE\n"
                  "  x[threadIdx.x] *= SCALE * FACTOR;\n"
                  "#endif\n"
                  "}\n");
  char *err;
  /* Without -I the header is not found: clang's diagnostic, exit 1. */
  ck_assert_int_eq(kcc("m.k -o m.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "m.k:1:10: "));
  ck_assert_ptr_nonnull(strstr(err, "error: 'scale.h' file not found\n#include \"scale.h\"\n"));
  ck_assert_int_eq(kcc("m.k -Iinc -DTWICE -DFACTOR=3 -o m.kir --emit=kir", NULL, &err), 0);
  char path[512];
  snprintf(path, sizeof path, "%s/m.kir", tu_tmpdir());
  char *kir = tu_read(path, NULL);
  ck_assert_ptr_nonnull(strstr(kir, "(fconst float 2)"));
  /* -U removes a macro defined earlier on the command line: the body is then empty. */
  ck_assert_int_eq(kcc("m.k -I inc -D TWICE -U TWICE -o m2.kir --emit=kir", NULL, &err), 0);
  snprintf(path, sizeof path, "%s/m2.kir", tu_tmpdir());
  ck_assert_ptr_null(strstr(tu_read(path, NULL), "fconst"));
  /* FACTOR undefined: an undeclared identifier, reported at its use. */
  ck_assert_int_eq(kcc("m.k -Iinc -DTWICE -o m3.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "m.k:4:"));
  ck_assert_ptr_nonnull(strstr(err, "FACTOR"));
}
END_TEST

START_TEST(depfile) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "mkdir -p %s/inc", tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  tu_write("inc/two.h", "#define TWO 2\n");
  tu_write("d.k", "#include \"two.h\"\n#include <stdint.h>\n"
                  "kernel void k(int *x) { x[0] = TWO; }\n");
  ck_assert_int_eq(kcc("d.k -Iinc -MD -o d.ptx", NULL, NULL), 0);
  char path[512];
  snprintf(path, sizeof path, "%s/d.ptx.d", tu_tmpdir());
  char *dep = tu_read(path, NULL);
  ck_assert_ptr_nonnull(dep);
  ck_assert_str_eq(dep, "d.ptx: d.k \\\n  inc/two.h\n\ninc/two.h:\n");
  ck_assert_int_eq(kcc("d.k -Iinc -MF deps.mk -o d.ptx", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/deps.mk", tu_tmpdir());
  ck_assert_str_eq(tu_read(path, NULL), "d.ptx: d.k \\\n  inc/two.h\n\ninc/two.h:\n");
}
END_TEST

START_TEST(werror) {
  tu_write("w.k", "kernel void k(int *x) { int y = 1.5; x[0] = y; }\n");
  char *err;
  ck_assert_int_eq(kcc("w.k -o w.ptx", NULL, &err), 0);
  ck_assert_ptr_nonnull(strstr(err, "w.k:1:33: warning: implicit conversion from 'double' to "
                                    "'int' changes value from 1.5 to 1"));
  ck_assert_int_eq(kcc("w.k -Werror -o w2.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "w.k:1:33: error: implicit conversion"));
  ck_assert(!exists("w2.ptx"));
}
END_TEST

/* The value of a `// kcc-NAME: value` line at the top of a corpus file, or NULL. */
static char *directive(const char *src, const char *name) {
  char key[64];
  snprintf(key, sizeof key, "// kcc-%s:", name);
  const char *p = strstr(src, key);
  if (!p) return NULL;
  p += strlen(key);
  while (*p == ' ') p++;
  size_t n = strcspn(p, "\n");
  return strndup(p, n);
}

/* Every tests/bad/NAME.k fails with exit 1 and no output file, and its diagnostics start with
 * NAME.expected (every line of it: the message, and where given the source line and caret),
 * for each output form: all six by default, or those a `// kcc-forms: ptx spv` line names.
 * Forms a `// kcc-ok: cl spv` line names must compile the same file (the limit is not
 * theirs) into output its consumer takes (tests/consume.sh); `// kcc-args: -arch=sm_60` adds
 * options. */
START_TEST(bad_corpus) {
  static const char *const all_forms = "ptx spv cl cu kcb h";
  char *list;
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "ls %s/bad/*.k 2>/dev/null", tu_srcdir());
  tu_sh(cmd, &list, NULL);
  int n = 0;
  char *save = NULL;
  for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char exp_path[1024];
    snprintf(exp_path, sizeof exp_path, "%.*s.expected", (int)(strlen(line) - 2), line);
    char *expected = tu_read(exp_path, NULL);
    if (!expected) continue;
    char *src = tu_read(line, NULL);
    ck_assert_ptr_nonnull(src);
    char *forms = directive(src, "forms"), *ok_forms = directive(src, "ok"),
         *args = directive(src, "args");
    char want[4096];
    snprintf(want, sizeof want, "%s:%s", line, expected);
    for (int pass = 0; pass < 2; pass++) {
      char *fl = strdup(pass == 0 ? (forms ? forms : all_forms) : (ok_forms ? ok_forms : ""));
      char *fsave = NULL;
      for (char *form = strtok_r(fl, " ", &fsave); form; form = strtok_r(NULL, " ", &fsave)) {
        char *err;
        snprintf(cmd, sizeof cmd, "rm -f %s/corpus.%s; %s %s %s -o %s/corpus.%s", tu_tmpdir(), form,
                 tu_kcc(), args ? args : "", line, tu_tmpdir(), form);
        int st = tu_sh(cmd, NULL, &err);
        char out_name[64];
        snprintf(out_name, sizeof out_name, "corpus.%s", form);
        if (pass == 1) {
          ck_assert_msg(st == 0, "%s (.%s): exit %d, expected 0\n%.3000s", line, form, st, err);
          free(err);
          snprintf(cmd, sizeof cmd, "sh %s/consume.sh %s/corpus.%s", tu_srcdir(), tu_tmpdir(),
                   form);
          st = tu_sh(cmd, NULL, &err);
          ck_assert_msg(st == 0, "%s (.%s): output rejected by its consumer\n%.3000s", line, form,
                        err);
          free(err);
          continue;
        }
        ck_assert_msg(st == 1, "%s (.%s): exit %d, expected 1\n%.3000s", line, form, st, err);
        ck_assert_msg(!strncmp(err, want, strlen(want)),
                      "%s (.%s):\n  got:  %.1500s\n  want: %.1500s", line, form, err, want);
        ck_assert_msg(!exists(out_name), "%s (.%s) left an output file", line, form);
        free(err);
      }
      free(fl);
    }
    free(forms), free(ok_forms), free(args), free(src), free(expected);
    n++;
  }
  ck_assert_msg(n > 0, "no bad-input cases found in %s/bad", tu_srcdir());
}
END_TEST

/* Kernel parameters past the 4352 bytes of older PTX ISAs: PTX ISA 8.1, which lifts the limit
 * to 32764 bytes on sm_70 and newer, and output that ptxas, nvcc and the bundle's ptxas take
 * without a warning. (tests/bad/limit_params*.k: the limits themselves.) */
START_TEST(large_params_ptx81) {
  tu_write("big.k", "struct Big { float v[1089]; };\n"
                    "kernel void k(float *x, struct Big b) { x[0] = b.v[3]; }\n");
  char *err, *ptx;
  ck_assert_int_eq(kcc("big.k -o big.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  char path[512];
  snprintf(path, sizeof path, "%s/big.ptx", tu_tmpdir());
  ck_assert_ptr_nonnull(ptx = tu_read(path, NULL));
  ck_assert_ptr_nonnull(strstr(ptx, "\n.version 8.1\n"));
  ck_assert_int_eq(kcc("big.k -o big.cu", NULL, &err), 0);
  ck_assert_int_eq(kcc("big.k -o big.h", NULL, &err), 0);
  ck_assert_str_eq(err, ""); /* the bundle's ptxas took it: no "PTX only" warning */
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "cd %s && sh %s/consume.sh big.ptx big.cu big.h", tu_tmpdir(),
           tu_srcdir());
  ck_assert_msg(tu_sh(cmd, NULL, &err) == 0, "%s", err);
  /* Without any parameter that large, the module stays at PTX ISA 7.8. */
  ck_assert_int_eq(kcc("-arch=sm_80 big.k -o big80.ptx", NULL, &err), 0);
  tu_write("small.k", vecadd);
  ck_assert_int_eq(kcc("small.k -o small.ptx", NULL, &err), 0);
  snprintf(path, sizeof path, "%s/small.ptx", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), "\n.version 7.8\n"));
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("driver");
  TCase *t = tcase_create("driver");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, version);
  tcase_add_test(t, help);
  tcase_add_test(t, usage_errors);
  tcase_add_test(t, missing_input);
  tcase_add_test(t, output_forms);
  tcase_add_test(t, failed_compile_leaves_no_output);
  tcase_add_test(t, no_kernels);
  tcase_add_test(t, preprocessor_options);
  tcase_add_test(t, depfile);
  tcase_add_test(t, werror);
  tcase_add_test(t, bad_corpus);
  tcase_add_test(t, large_params_ptx81);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  return tu_main(suite());
}
