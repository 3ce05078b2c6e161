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

/* Command lines kcc must refuse with exit 2 and exactly "kcc: error: ERR" and the usage hint. */
typedef struct UsageCase {
  const char *args, *err;
} UsageCase;

static void expect_usage_errors(const UsageCase *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char want[512], *err;
    snprintf(want, sizeof want, "kcc: error: %s\nkcc: run 'kcc --help' for usage\n", cases[i].err);
    ck_assert_msg(kcc(cases[i].args, NULL, &err) == 2, "kcc %s", cases[i].args);
    ck_assert_str_eq(err, want);
    free(err);
  }
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
  ck_assert_ptr_nonnull(strstr(out, "usage: kcc [options] file.k|file.cu|file.cl [-o output]"));
  /* Every option the driver accepts is documented. */
  const char *opts[] = {
      "-o FILE",         "--emit=FORM", "-arch=sm_XX",   "-O0",         "-I DIR",
      "-MD, -MMD",       "-MP",         "-MF FILE",      "-MT TARGET",  "-std=STD",
      "-cl-std=",        "-Werror",     "-w ",           "-Wall",       "-Wextra",
      "-g -c -pedantic", "-ffast-math", "-ffp-contract", "--cuda-path", "--prefix=NAME",
      "--instantiate=",  "-v ",         "--devices",     "--version"};
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
      {"a.k -o a.k --emit=ptx", "kcc: error: output file 'a.k' is the input file 'a.k'\n"
                                "kcc: run 'kcc --help' for usage\n"},
      /* Options without their value, or with an empty one. */
      {"a.k -arch", "kcc: error: missing argument to '-arch'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -arch=", "kcc: error: invalid -arch '' (expected sm_XX[,sm_YY...], e.g. sm_90)\n"
                     "kcc: run 'kcc --help' for usage\n"},
      {"a.k -o ''", "kcc: error: empty file name after '-o'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -MF", "kcc: error: missing file name after '-MF'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -MF ''", "kcc: error: empty file name after '-MF'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -MD -MT", "kcc: error: missing target after '-MT'\nkcc: run 'kcc --help' for usage\n"},
      {"a.k --cuda-path=", "kcc: error: missing directory after '--cuda-path='\n"
                           "kcc: run 'kcc --help' for usage\n"},
      /* A typo in -arch is not the arch it starts with. */
      {"a.k -arch=sm_90x", "kcc: error: invalid -arch 'sm_90x' (expected sm_XX[,sm_YY...], e.g. "
                           "sm_90)\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -arch=sm_90,", "kcc: error: invalid -arch 'sm_90,' (expected sm_XX[,sm_YY...], e.g. "
                           "sm_90)\nkcc: run 'kcc --help' for usage\n"},
      /* Two different values for one thing: which was meant? */
      {"a.k -o a.ptx -o b.ptx", "kcc: error: more than one output file ('-o a.ptx' and '-o "
                                "b.ptx')\nkcc: run 'kcc --help' for usage\n"},
      {"a.k --emit=ptx --emit=cl", "kcc: error: more than one output form ('--emit=ptx' and "
                                   "'--emit=cl')\nkcc: run 'kcc --help' for usage\n"},
      {"a.k -MF a.d -MF b.d", "kcc: error: more than one -MF ('a.d' and 'b.d')\n"
                              "kcc: run 'kcc --help' for usage\n"},
      {"a.k -Ofast", "kcc: error: invalid optimisation level '-Ofast' (expected -O0, -O1, -O2, "
                     "-O3 or -O)\nkcc: run 'kcc --help' for usage\n"},
      {"- -o x.ptx", "kcc: error: kcc cannot read a kernel from standard input; name the file\n"
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
static void consumed(const char *files);

/* A file without a kernel (helpers compiled beside other files) gets every form but Vulkan's,
 * each without an entry point and taken by its consumer, and one warning; -w hides it,
 * -Werror refuses the file and writes nothing. */
START_TEST(no_kernels) {
  static const char warning[] =
      "kcc: warning: no kernel in this file: the output has no entry point to launch, only the "
      "file's variables (a device function is compiled only where a kernel calls it)\n";
  tu_write("none.k", "// only a helper and a table\n"
                     "constant float table[2] = {1.0f, 2.0f};\n"
                     "static float twice(float x) { return 2 * x * table[1]; }\n");
  const char *forms[] = {"ptx", "llvm", "kir", "spirv", "cl", "cuda", "bundle", "header"};
  const char *exts[] = {"ptx", "ll", "kir", "spv", "cl", "cu", "kcb", "h"};
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    char args[128], file[32], *err;
    snprintf(file, sizeof file, "none.%s", exts[i]);
    snprintf(args, sizeof args, "none.k --emit=%s -o %s", forms[i], file);
    ck_assert_msg(kcc(args, NULL, &err) == 0, "kcc %s", args);
    ck_assert_str_eq(err, warning);
    ck_assert_msg(exists(file), "%s", file);
    free(err);
    if (strcmp(forms[i], "kir") && strcmp(forms[i], "llvm")) consumed(file);
  }
  char *out;
  ck_assert_int_eq(kcc("none.k --emit=kir -o -", &out, NULL), 0);
  ck_assert_str_eq(out, "module \"none.k\"\n"
                        "constant float[2] table = (init float[2] (fconst float 1) (fconst float "
                        "2))\n");
  free(out);

  /* Vulkan has no module without an entry point. */
  char *err;
  ck_assert_int_eq(kcc("none.k -o none.vk.spv", NULL, &err), 1);
  ck_assert_str_eq(err, "kcc: warning: no kernel in this file: the output has no entry point to "
                        "launch, only the file's variables (a device function is compiled only "
                        "where a kernel calls it)\n"
                        "kcc: error: the Vulkan SPIR-V form (.vk.spv) needs a kernel: a Vulkan "
                        "shader module must have an entry point\n");
  ck_assert(!exists("none.vk.spv"));
  free(err);

  ck_assert_int_eq(kcc("none.k -w -o quiet.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert(exists("quiet.ptx"));
  free(err);
  ck_assert_int_eq(kcc("none.k -Werror -o strict.kcb", NULL, &err), 1);
  ck_assert_str_eq(err, "kcc: error: no kernel in this file: the output has no entry point to "
                        "launch, only the file's variables (a device function is compiled only "
                        "where a kernel calls it)\n");
  ck_assert(!exists("strict.kcb"));
  free(err);

  tu_write("empty.k", "");
  ck_assert_int_eq(kcc("empty.k -w -o empty.kcb", NULL, NULL), 0);
  ck_assert(exists("empty.kcb"));
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

/* Without -o the output takes the form's extension; when that is the input's own, ".kcc" goes
 * before it (it used to be the input's name, reported from freed memory). */
START_TEST(default_output_never_the_input) {
  const char *src = "__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }\n";
  char *g = tu_write("g.cu", src), *err;
  ck_assert_int_eq(kcc("g.cu --emit=cuda", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert_str_eq(tu_read(g, NULL), src);
  char path[512];
  snprintf(path, sizeof path, "%s/g.kcc.cu", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), "extern \"C\" __global__ void twice("));
  ck_assert_int_eq(kcc("g.cu", NULL, &err), 0);
  ck_assert(exists("g.ptx"));
  /* The rule depends on names only, so a build can predict it: a source in another directory
   * gets the same name. */
  snprintf(path, sizeof path, "mkdir -p %s/src && cp %s %s/src/h.cu", tu_tmpdir(), g, tu_tmpdir());
  ck_assert_int_eq(tu_sh(path, NULL, NULL), 0);
  ck_assert_int_eq(kcc("src/h.cu --emit=cuda", NULL, &err), 0);
  ck_assert(exists("h.kcc.cu"));
  ck_assert_int_eq(count_temporaries(), 0);
}
END_TEST

/* An output or depfile that is an input, whatever the spelling, is a usage error naming both,
 * and nothing is written. */
START_TEST(never_overwrites_an_input) {
  const char *src = "__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }\n";
  const char *hdr = "#define TWO 2\n";
  const char *uses = "#include \"two.h\"\nkernel void k(int *x) { x[0] = TWO; }\n";
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "mkdir -p %s/hinc %s/outdir", tu_tmpdir(), tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  char *in = tu_write("in.cu", src), *two = tu_write("hinc/two.h", hdr);
  tu_write("uses.k", uses);
  snprintf(cmd, sizeof cmd, "cd %s && ln -sf in.cu sym.cu && ln -f in.cu hard.cu", tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  struct {
    const char *args, *err;
  } cases[] = {
      {"./in.cu -o in.cu", "output file 'in.cu' is the input file './in.cu'"},
      {"in.cu -o ./in.cu --emit=ptx", "output file './in.cu' is the input file 'in.cu'"},
      {"in.cu -o sym.cu", "output file 'sym.cu' is the input file 'in.cu'"},
      {"in.cu -o hard.cu", "output file 'hard.cu' is the input file 'in.cu'"},
      {"sym.cu -o in.cu", "output file 'in.cu' is the input file 'sym.cu'"},
      {"in.cu -o outdir --emit=ptx", "output 'outdir' is a directory"},
      {"in.cu -MF in.cu -o in.ptx", "dependency file 'in.cu' is the input file 'in.cu'"},
      {"in.cu -MF ./hard.cu -o in.ptx", "dependency file './hard.cu' is the input file 'in.cu'"},
      {"in.cu -MF ./in.ptx -o in.ptx", "dependency file './in.ptx' is the output file 'in.ptx'"},
      {"in.cu -MF outdir -o in.ptx", "dependency file 'outdir' is a directory"},
      /* A header the kernel includes is an input too. */
      {"uses.k -Ihinc -o hinc/two.h", "output file 'hinc/two.h' is a file 'uses.k' includes"},
      {"uses.k -Ihinc -o hinc/../hinc/two.h",
       "output file 'hinc/../hinc/two.h' is 'hinc/two.h', which 'uses.k' includes"},
      {"uses.k -Ihinc -MF hinc/two.h -o uses.ptx",
       "dependency file 'hinc/two.h' is a file 'uses.k' includes"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *err, want[512];
    snprintf(want, sizeof want, "kcc: error: %s\nkcc: run 'kcc --help' for usage\n", cases[i].err);
    ck_assert_msg(kcc(cases[i].args, NULL, &err) == 2, "kcc %s", cases[i].args);
    ck_assert_str_eq(err, want);
    ck_assert_str_eq(tu_read(in, NULL), src);
    ck_assert_str_eq(tu_read(two, NULL), hdr);
    ck_assert(!exists("in.ptx") && !exists("uses.ptx"));
  }
  ck_assert_int_eq(count_temporaries(), 0);
}
END_TEST

/* The depfile is staged with the output: when it cannot be written, neither is written. */
START_TEST(no_output_without_its_depfile) {
  tu_write("nd.k", vecadd);
  char *err;
  ck_assert_int_eq(kcc("nd.k -MF nodir/nd.d -o nd.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "kcc: error: cannot write 'nodir/nd.d': No such file or directory\n");
  ck_assert(!exists("nd.ptx"));
  ck_assert_int_eq(count_temporaries(), 0);
}
END_TEST

/* What a gcc or nvcc build passes by habit is accepted, with the documented meaning. */
START_TEST(habitual_flags) {
  tu_write("hw.k", "kernel void k(int *x) { int y = 1.5; x[0] = y; }\n");
  const char *warning = "hw.k:1:33: warning: implicit conversion from 'double' to 'int' changes "
                        "value from 1.5 to 1 [-Wliteral-conversion]\n"
                        "kernel void k(int *x) { int y = 1.5; x[0] = y; }\n"
                        "                                ^\n";
  char *err;
  /* -g, -c, -pedantic, -std: no effect; -Wall, -Wextra, -W and -Wpedantic add nothing to
     report here; the warning stays as it is. */
  ck_assert_int_eq(kcc("hw.k -Wall -Wextra -W -Wpedantic -Wno-unused-parameter "
                       "-g -g3 -c -pedantic -std=c11 -o hw1.ptx",
                       NULL, &err),
                   0);
  ck_assert_str_eq(err, warning);
  ck_assert(exists("hw1.ptx"));
  /* -Wno-NAME turns clang's warning off; -Werror=NAME makes it an error. */
  ck_assert_int_eq(kcc("hw.k -Wno-literal-conversion -o hw5.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert_int_eq(kcc("hw.k -Werror=literal-conversion -o hw6.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "hw.k:1:33: error: implicit conversion from 'double' to 'int' changes "
                        "value from 1.5 to 1 [-Wliteral-conversion]\n"
                        "kernel void k(int *x) { int y = 1.5; x[0] = y; }\n"
                        "                                ^\n");
  ck_assert(!exists("hw6.ptx"));
  /* An unknown name: clang's warning, once, and the compile goes on. */
  ck_assert_int_eq(kcc("hw.k -Wno-literal-conversion -Wno-such-warning -o hw7.ptx", NULL, &err), 0);
  ck_assert_ptr_nonnull(strstr(err, "kcc: warning: unknown warning option '-Wno-such-warning'"));
  ck_assert_ptr_nonnull(strstr(err, " [-Wunknown-warning-option]\n"));
  ck_assert_ptr_null(strchr(err, '\n') + 1 == err + strlen(err) ? NULL : err); /* once */
  /* -w: no warnings, and so nothing for -Werror to raise (as with gcc). */
  ck_assert_int_eq(kcc("hw.k -w -o hw2.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert_int_eq(kcc("hw.k -w -Werror -o hw3.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert_int_eq(kcc("hw.k -Werror -Wno-error -o hw4.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, warning);
  /* -w hides warnings, never errors. */
  tu_write("hwbad.k", "kernel int f(void) { return 1; }\n");
  ck_assert_int_eq(kcc("hwbad.k -w -o hwbad.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "hwbad.k:1:"));
  /* -std= values of the input's language. */
  tu_write("hs.cu", "__global__ void k(float *x) { x[0] = 1.0f; }\n");
  const char *ok[] = {"hw.k -std=c99",      "hw.k -std=c17",    "hw.k -std=gnu11",
                      "hs.cu -std=c++11",   "hs.cu -std=c++17", "hs.cu -std=c++20",
                      "hs.cu -std=gnu++14", "hw.k -c -g"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    char args[128];
    snprintf(args, sizeof args, "%s -w -o -", ok[i]);
    ck_assert_msg(kcc(args, NULL, &err) == 0, "kcc %s: %s", args, err);
  }
  /* For .cl the value is checked before the file is read: a missing file then says so. */
  ck_assert_int_eq(kcc("nosuch.cl -std=CL2.0 -o x.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "nosuch.cl"));
  ck_assert_int_eq(kcc("nosuch.cl -cl-std=CL3.0 -o x.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "nosuch.cl"));
  UsageCase bad[] = {
      {"hw.k -std=c++17", "invalid '-std=c++17' for 'hw.k': kcc's C dialect takes c99, c11, "
                          "c17, gnu99, gnu11 or gnu17"},
      {"hw.k -std=c89", "invalid '-std=c89' for 'hw.k': kcc's C dialect takes c99, c11, c17, "
                        "gnu99, gnu11 or gnu17"},
      {"hw.k -std=", "invalid '-std=' for 'hw.k': kcc's C dialect takes c99, c11, c17, gnu99, "
                     "gnu11 or gnu17"},
      {"hs.cu -std=c11",
       "invalid '-std=c11' for 'hs.cu': CUDA input takes c++11, c++14, c++17 or c++20"},
      {"hs.cu -std=c++03",
       "invalid '-std=c++03' for 'hs.cu': CUDA input takes c++11, c++14, c++17 or c++20"},
      {"x.cl -std=c11",
       "invalid '-std=c11' for 'x.cl': OpenCL C input takes CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0"},
      {"hw.k -cl-mad-enable",
       "'-cl-mad-enable' is for OpenCL C input (.cl or -x cl), and 'hw.k' is not"},
      {"x.cl -cl-denorms-are-one", "unknown OpenCL build option '-cl-denorms-are-one' (docs/cli.md "
                                   "lists those kcc takes)"},
      {"hw.k -cl-std=CL2.0",
       "'-cl-std=CL2.0' is for OpenCL C input (.cl or -x cl), and 'hw.k' is not"},
      {"hw.k -Wl,-O1", "unknown option '-Wl,-O1'"},
  };
  expect_usage_errors(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* --instantiate names a kernel template's specialisation (NVRTC's name expressions): it
 * becomes a kernel named after it, a wrong name is an error under the option's name, and the
 * option is refused where there are no templates. */
START_TEST(instantiate) {
  tu_write("tk.cu", "template <typename T, int N> __global__ void scale(T *x) {\n"
                    "  x[threadIdx.x] *= N;\n"
                    "}\n");
  char *out, *err;
  ck_assert_int_eq(kcc("tk.cu --instantiate='scale<float, 2>' --instantiate 'scale<int,3>' "
                       "--emit=ptx -o - | grep '^.visible .entry'",
                       &out, &err),
                   0);
  ck_assert_str_eq(out, ".visible .entry scale_float_2(\n.visible .entry scale_int_3(\n");
  ck_assert_int_eq(kcc("tk.cu --instantiate='scle<float, 2>' -o tk.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "--instantiate=scle<float, 2>:1:1: error: use of undeclared identifier "
                        "'scle'\n");
  ck_assert(!exists("tk.ptx"));
  /* Arguments that fit no template: said of the option, not of kcc's declaration. */
  ck_assert_int_eq(kcc("tk.cu --instantiate='scale<2, float>' -o tk.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "--instantiate=scale<2, float>:1:1: error: 'scale<2, float>' names no "
                        "specialisation of a function template of this file: check its "
                        "template arguments against the template's parameters\n");
  ck_assert(!exists("tk.ptx"));
  UsageCase bad[] = {
      {"tk.cu --instantiate=", "'--instantiate' needs a template specialisation such as "
                               "'--instantiate=reduce<256, float>'"},
      {"tk.cu --instantiate=scale", "'--instantiate' needs a template specialisation such as "
                                    "'--instantiate=reduce<256, float>'"},
      {"hw.k --instantiate='f<1>'",
       "'--instantiate' is for CUDA input (.cu or -x cu), and 'hw.k' is not"},
  };
  expect_usage_errors(bad, sizeof bad / sizeof bad[0]);
}
END_TEST

/* The files kcc wrote in the test directory, each through its consumer (tests/consume.sh). */
static void consumed(const char *files) {
  char cmd[1024], *err = NULL;
  snprintf(cmd, sizeof cmd, "cd %s && sh %s/consume.sh %s", tu_tmpdir(), tu_srcdir(), files);
  ck_assert_msg(tu_sh(cmd, NULL, &err) == 0, "%s: rejected by its consumer\n%.3000s", files, err);
  free(err);
}

/* OpenCL subgroups: a required subgroup size over a warp's 32 is refused where a subgroup is
 * a warp or a segment of one (PTX, CUDA C, so a bundle) and kept for the device in OpenCL C;
 * 16 is a half-warp segment there (shfl.sync's segment mask 32-16 in c[12:8]: 0x101f, or
 * 0x1000 for up). The uniform int reduction is redux.sync from sm_80, a shuffle tree before
 * (and for float); SPIR-V refuses each subgroup call once, a vector broadcast included. */
START_TEST(subgroups) {
  tu_write("rs.cl", "__kernel __attribute__((intel_reqd_sub_group_size(64)))\n"
                    "void k(__global float *o) { o[0] = sub_group_reduce_add(o[1]); }\n");
  static const char want[] =
      "rs.cl:2:6: error: kernel 'k' requires subgroups of 64 (intel_reqd_sub_group_size), but a "
      "subgroup is at most a warp of 32 lanes in %s output; the OpenCL C form keeps the "
      "attribute for the device to honour\n"
      "void k(__global float *o) { o[0] = sub_group_reduce_add(o[1]); }\n"
      "     ^\n";
  char msg[512], *out, *err;
  snprintf(msg, sizeof msg, want, "PTX");
  ck_assert_int_eq(kcc("rs.cl -o rs.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, msg);
  ck_assert_int_eq(kcc("rs.cl -o rs.kcb", NULL, &err), 1);
  ck_assert_str_eq(err, msg);
  snprintf(msg, sizeof msg, want, "CUDA C");
  ck_assert_int_eq(kcc("rs.cl -o rs.cu", NULL, &err), 1);
  ck_assert_str_eq(err, msg);
  ck_assert_int_eq(
      kcc("rs.cl -o rs.cl.cl && grep -c 'intel_reqd_sub_group_size(64)' rs.cl.cl", &out, &err), 0);
  ck_assert_str_eq(out, "1\n");
  tu_write("r16.cl", "__kernel __attribute__((intel_reqd_sub_group_size(16)))\n"
                     "void k(__global float *o) {\n"
                     "  o[0] = sub_group_reduce_add(o[1]) + sub_group_scan_inclusive_add(o[2]);\n"
                     "}\n");
  ck_assert_int_eq(kcc("r16.cl -o r16.ptx && grep -c 'shfl.sync.bfly.b32.*, 4127,' r16.ptx && "
                       "grep -c 'shfl.sync.up.b32.*, 4096,' r16.ptx",
                       &out, &err),
                   0);
  ck_assert_str_eq(out, "4\n4\n");
  ck_assert_int_eq(kcc("r16.cl -o r16.cu && grep -c 'kcc_sg_reduce<kcc_op_add, float>(o\\[1\\], "
                       "false, 16u)' r16.cu",
                       &out, &err),
                   0);
  ck_assert_str_eq(out, "1\n");
  consumed("r16.ptx r16.cu");
  /* A function with subgroup calls computes with one width in PTX and CUDA C: reached from
     kernels of two, it is refused there (the OpenCL C form passes the calls through). */
  tu_write("two.cl", "float f(float x) { return sub_group_reduce_add(x); }\n"
                     "__kernel __attribute__((intel_reqd_sub_group_size(16)))\n"
                     "void a(__global float *o) { o[0] = f(o[1]); }\n"
                     "__kernel void b(__global float *o) { o[0] = f(o[1]); }\n");
  ck_assert_int_eq(kcc("two.cl -o two.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "two.cl:1:7: error: function 'f' uses subgroup functions and is called "
                        "from kernels with subgroups of 16 ('a') and of 32 ('b'); in PTX output a "
                        "function's subgroup is its kernels' segment of a warp, one width per "
                        "function: give each width its own copy of the function\n"
                        "float f(float x) { return sub_group_reduce_add(x); }\n"
                        "      ^\n");
  ck_assert_int_eq(kcc("two.cl -o two.cl.cl", NULL, &err), 0);
  consumed("rs.cl.cl");

  tu_write("sg.cl", "__kernel __attribute__((intel_reqd_sub_group_size(32)))\n"
                    "void k(__global int *o, __global float *f, __global float4 *v) {\n"
                    "  o[0] = sub_group_reduce_add(o[1]);\n"
                    "  f[0] = sub_group_reduce_max(f[1]);\n"
                    "  v[0] = sub_group_broadcast(v[1], 3);\n"
                    "}\n");
  ck_assert_int_eq(kcc("sg.cl -arch=sm_80 -o sg80.ptx && grep -c redux.sync sg80.ptx", &out, &err),
                   0);
  ck_assert_str_eq(out, "1\n");
  ck_assert_int_eq(kcc("sg.cl -o sg75.ptx && grep -c redux.sync sg75.ptx", &out, &err), 1);
  ck_assert_str_eq(out, "0\n");
  ck_assert_int_eq(kcc("sg.cl -o sg.cu && grep -c kcc_sg_reduce sg.cu", &out, &err), 0);
  consumed("sg80.ptx sg75.ptx sg.cu");
  /* SPIR-V: the uniform functions are SPIR-V 1.0's Groups operations, the required subgroup
     size SPIR-V 1.1's SubgroupSize execution mode (tests/spirv.cmake's spirv.subgroups.*
     read the operations back through llvm-spirv). */
  ck_assert_int_eq(kcc("sg.cl -o sg.spv && spirv-dis sg.spv | grep -E -c "
                       "'^; Version: 1.1|OpCapability (Groups|SubgroupDispatch)|"
                       "OpExecutionMode %[a-z0-9_]+ SubgroupSize 32|OpGroup(IAdd|FMax|Broadcast) '",
                       &out, &err),
                   0);
  ck_assert_str_eq(out, "10\n"); /* the version, 2 capabilities, the mode, 1+1+4 operations */
  consumed("sg.spv");
  /* docs/driver-bugs.md 13: nvcc -arch=sm_90 assembles the non-uniform reductions. */
  tu_write("nu.cl", "__kernel void k(__global int *o, __global const int *x) {\n"
                    "  size_t i = get_global_id(0);\n"
                    "  int v = x[i];\n"
                    "  uint4 b = sub_group_ballot(v & 1);\n"
                    "  if (v % 3 != 0) o[i] = sub_group_non_uniform_reduce_mul(v % 4 + 2);\n"
                    "}\n");
  /* ... and kcc's PTX of a non-uniform reduction in a loop, JIT-compiled for sm_90 (its
     lane loop is not unrolled: the sm_75 PTX was refused there too). */
  tu_write("nul.cl", "__kernel void k(__global float *o, __global const float *x, int n) {\n"
                     "  size_t i = get_global_id(0);\n"
                     "  float v = x[i], acc = 0;\n"
                     "  if (v >= 0)\n"
                     "    for (int k = 0; k < n; k++) {\n"
                     "      acc += sub_group_non_uniform_reduce_add(v);\n"
                     "      v += 1.0f;\n"
                     "    }\n"
                     "  o[i] = acc;\n"
                     "}\n");
  ck_assert_int_eq(kcc("nul.cl -arch=sm_90 -o nul90.ptx", NULL, &err), 0);
  ck_assert_int_eq(kcc("nul.cl -o nul75.ptx && "
                       "sed 's/^.target sm_75/.target sm_90/' nul75.ptx > nul75on90.ptx",
                       NULL, &err),
                   0);
  consumed("nul90.ptx nul75on90.ptx");
  ck_assert_int_eq(kcc("nu.cl -o nu.cu && PATH=$PATH:/usr/local/cuda/bin && "
                       "if command -v nvcc >/dev/null; then nvcc -c -arch=sm_90 nu.cu -o nu.o; fi",
                       NULL, &err),
                   0);
  /* A bundle keeps the SPIR-V (its magic word, aligned) and says nothing of leaving it out.
     (The Vulkan form refuses intel_reqd_sub_group_size, so it has no Vulkan SPIR-V.) */
  ck_assert_int_eq(kcc("sg.cl -o sg.kcb -v 2>sg.log && ! grep 'without SPIR-V' sg.log && "
                       "od -An -tx4 -v sg.kcb | grep -c 07230203",
                       &out, &err),
                   0);
  ck_assert_str_eq(out, "1\n");
}
END_TEST

/* INFINITY, NAN and HUGE_VALF in .cl input are clang's constant builtins, folded (they were
 * refused as OpenCL built-ins: llama.cpp's softmax kernels). */
START_TEST(cl_infinity) {
  tu_write("inf.cl",
           "__kernel void k(__global float *o) {\n"
           "  o[0] = -INFINITY; o[1] = NAN; o[2] = HUGE_VALF; o[3] = fmax(o[4], -INFINITY);\n"
           "}\n");
  char *out, *err;
  ck_assert_int_eq(kcc("inf.cl --emit=kir -o - | grep -c 'fconst float inf'", &out, &err), 0);
  ck_assert_str_eq(out, "3\n");
  ck_assert_int_eq(kcc("inf.cl -o inf.ptx", NULL, &err), 0);
  consumed("inf.ptx");
}
END_TEST

/* The subgroup extensions kcc implements are predefined for .cl input only: a kernel that
 * tests for them takes its subgroup path; of Intel's, only cl_intel_required_subgroup_size is
 * kcc's; Qualcomm's is not. */
START_TEST(subgroup_macros) {
  tu_write("mac.cl", "#if !defined(cl_khr_subgroups) || !defined(cl_khr_subgroup_extended_types) "
                     "|| !defined(cl_khr_subgroup_non_uniform_vote) || "
                     "!defined(cl_khr_subgroup_ballot) || "
                     "!defined(cl_khr_subgroup_non_uniform_arithmetic) || "
                     "!defined(cl_khr_subgroup_shuffle) || "
                     "!defined(cl_khr_subgroup_shuffle_relative) || "
                     "!defined(cl_khr_subgroup_clustered_reduce)\n#error missing\n#endif\n"
                     "#ifndef cl_intel_required_subgroup_size\n#error missing\n#endif\n"
                     "#if defined(cl_intel_subgroups) || defined(cl_qcom_reqd_sub_group_size)\n"
                     "#error not kcc's\n#endif\n"
                     "__kernel void k(__global int *o) { o[0] = get_sub_group_size(); }\n");
  char *err;
  ck_assert_int_eq(kcc("mac.cl --emit=kir -o mac.kir", NULL, &err), 0);
  ck_assert_int_eq(kcc("-cl-std=CL3.0 mac.cl --emit=kir -o mac.kir", NULL, &err), 0);
  tu_write("mac30.cl", "#ifndef __opencl_c_subgroups\n#error no feature macro\n#endif\n"
                       "__kernel void k(__global int *o) { o[0] = 1; }\n");
  ck_assert_int_eq(kcc("-cl-std=CL3.0 mac30.cl --emit=kir -o mac30.kir", NULL, &err), 0);
  tu_write("mac.k", "#ifdef cl_khr_subgroups\n#error not in .k files\n#endif\n"
                    "kernel void k(int *o) { o[0] = 1; }\n");
  ck_assert_int_eq(kcc("mac.k --emit=kir -o mack.kir", NULL, &err), 0);
}
END_TEST

/* A lambda that captures a reference variable by reference keeps a pointer to memory of no
 * known space (here shared in one call, global in the other): OpenCL C and SPIR-V refuse it
 * naming the capture and the form, PTX and CUDA C (a generic pointer, as nvcc has it) take it. */
START_TEST(lambda_ref_capture) {
  tu_write("lr.cu", "template <typename F> __device__ void apply(F f, int n) {\n"
                    "  for (int i = 0; i < n; i++) f(i);\n"
                    "}\n"
                    "__device__ void acc(float &r, int n) { apply([&](int i) { r += i; }, n); }\n"
                    "__global__ void k(float *p, int n) {\n"
                    "  __shared__ float s[32];\n"
                    "  s[0] = 0;\n"
                    "  acc(s[0], n);\n"
                    "  acc(p[0], n);\n"
                    "  p[1] = s[0];\n"
                    "}\n");
  static const char *const forms[][2] = {
      {"cl", "the OpenCL C form (.cl) needs one address space per pointer"},
      {"spv", "the OpenCL SPIR-V form (.spv) needs one address space per pointer"},
      {"kcb", "the bundle (.kcb) needs one address space per pointer for its OpenCL C and "
              "SPIR-V"}};
  char *err;
  for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
    char args[64], want[512];
    snprintf(args, sizeof args, "lr.cu -o lr.%s", forms[i][0]);
    snprintf(want, sizeof want,
             "lr.cu:4:46: error: lambda capture '&r': a reference variable captured by "
             "reference may refer to any memory, so its closure needs a generic pointer, and "
             "%s; capture it by copy, or capture a pointer to it\n"
             "__device__ void acc(float &r, int n) { apply([&](int i) { r += i; }, n); }\n"
             "                                             ^\n",
             forms[i][1]);
    ck_assert_int_eq(kcc(args, NULL, &err), 1);
    ck_assert_str_eq(err, want);
    free(err);
  }
  ck_assert_int_eq(kcc("lr.cu -o lr.ptx", NULL, &err), 0);
  consumed("lr.ptx");
  ck_assert_int_eq(kcc("lr.cu -o lr.cu.cu", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  consumed("lr.cu.cu");
}
END_TEST

/* CUDA input: clang's `#pragma clang fp contract(off)` in a kernel body keeps its a * b + c
 * unfused (kcc's default, like nvcc's, fuses it). */
START_TEST(cuda_fp_contract) {
  tu_write("fc.cu", "__global__ void on(float *o) { o[0] = o[1] * o[2] + o[3]; }\n"
                    "__global__ void off(float *o) {\n"
                    "#pragma clang fp contract(off)\n"
                    "  o[0] = o[1] * o[2] + o[3];\n"
                    "}\n");
  char *out, *err;
  ck_assert_int_eq(kcc("fc.cu -o fc.ptx && grep -c fma.rn.f32 fc.ptx", &out, &err), 0);
  ck_assert_str_eq(out, "1\n");
  consumed("fc.ptx");
}
END_TEST

/* atomicInc/atomicDec are PTX's atom.inc/atom.dec in the pointer's space (LLVM's uinc_wrap
 * would be a compare-and-swap loop), also through a device function specialised per space. */
START_TEST(atomic_inc_dec_ptx) {
  tu_write("ai.cu", "__device__ unsigned f(unsigned *q, unsigned m) { return atomicInc(q, m); }\n"
                    "__global__ void k(unsigned *p, unsigned m) {\n"
                    "  __shared__ unsigned s[4];\n"
                    "  s[0] = 0;\n"
                    "  __syncthreads();\n"
                    "  p[2] = atomicInc(p, m) + atomicDec(p + 1, m) + f(s, m) + f(p + 3, m);\n"
                    "}\n");
  char *out, *err;
  ck_assert_int_eq(
      kcc("ai.cu -o ai.ptx && grep -o 'atom[.a-z0-9]*' ai.ptx | sort | uniq -c", &out, &err), 0);
  ck_assert_str_eq(out, "      1 atom.global.dec.u32\n      2 atom.global.inc.u32\n"
                        "      1 atom.shared.inc.u32\n");
  consumed("ai.ptx"); /* ptxas takes the inline PTX */
}
END_TEST

/* OpenCL C's build options (clBuildProgram's): every one is accepted on OpenCL C input, and
 * those with a meaning have it: -cl-fast-relaxed-math defines __FAST_RELAXED_MATH__ and is
 * -ffast-math, -cl-single-precision-constant makes 0.1 a float, -cl-mad-enable contracts. */
START_TEST(cl_build_options) {
  tu_write("bo.cl", "kernel void k(global float *p) {\n"
                    "#ifdef __FAST_RELAXED_MATH__\n"
                    "  p[0] = 2;\n"
                    "#endif\n"
                    "  p[1] = p[2] * 0.1 + p[3];\n"
                    "}\n");
  static const char *const all[] = {"-cl-single-precision-constant",
                                    "-cl-denorms-are-zero",
                                    "-cl-fp32-correctly-rounded-divide-sqrt",
                                    "-cl-opt-disable",
                                    "-cl-mad-enable",
                                    "-cl-no-signed-zeros",
                                    "-cl-unsafe-math-optimizations",
                                    "-cl-finite-math-only",
                                    "-cl-fast-relaxed-math",
                                    "-cl-kernel-arg-info",
                                    "-cl-uniform-work-group-size",
                                    "-cl-no-subgroup-ifp",
                                    "-cl-strict-aliasing",
                                    "-cl-std=CL1.0",
                                    "-cl-std=CL1.1"};
  char *out, *err, cmd[160];
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    snprintf(cmd, sizeof cmd, "bo.cl %s -o bo.kcb", all[i]);
    ck_assert_msg(kcc(cmd, &out, &err) == 0 && !*err, "kcc %s: %s", cmd, err);
  }
  ck_assert_int_eq(kcc("bo.cl --emit=kir -o - | grep -c 'fconst float 2'", &out, &err), 1);
  ck_assert_int_eq(
      kcc("bo.cl -cl-fast-relaxed-math --emit=kir -o - | grep -c 'fconst float 2'", &out, &err), 0);
  ck_assert_str_eq(out, "1\n");
  /* Without the option 0.1 is a double: the product is computed in double. */
  ck_assert_int_eq(kcc("bo.cl --emit=kir -o - | grep -c 'fconst double 0.1'", &out, &err), 0);
  ck_assert_int_eq(kcc("bo.cl -cl-single-precision-constant --emit=kir -o - | grep -c 'fconst "
                       "double'",
                       &out, &err),
                   1);
  ck_assert_int_eq(
      kcc("bo.cl -ffp-contract=off -cl-mad-enable --emit=ptx -o - | grep -c fma.rn", &out, &err),
      0);
}
END_TEST

/* A thread_group that holds a tile (tiled_partition(g, n)) syncs with a partial-warp barrier
 * OpenCL C cannot write: refused there at the call that makes the group, not in kcc's header;
 * PTX takes it (tests/cu/group.cu: a whole-block thread_group goes to every form). */
START_TEST(tile_thread_group) {
  tu_write("tg.cu", "#include <cooperative_groups.h>\n"
                    "namespace cg = cooperative_groups;\n"
                    "__global__ void k(float *out) {\n"
                    "  cg::thread_block b = cg::this_thread_block();\n"
                    "  cg::thread_group t = cg::tiled_partition(b, 16);\n"
                    "  t.sync();\n"
                    "  out[t.thread_rank()] = 1;\n"
                    "}\n");
  char *err;
  ck_assert_int_eq(kcc("tg.cu -o tg.cl", NULL, &err), 1);
  ck_assert_str_eq(err, "tg.cu:5:24: error: __syncwarp with a mask other than 0xffffffff is not "
                        "available in OpenCL C output (a subgroup barrier waits for the whole "
                        "subgroup)\n"
                        "  cg::thread_group t = cg::tiled_partition(b, 16);\n"
                        "                       ^\n");
  ck_assert_int_eq(kcc("tg.cu -o tg.ptx", NULL, &err), 0);
  consumed("tg.ptx");
}
END_TEST

/* A .cu file is a whole program: host code that uses headers kcc does not have (and so has
 * errors kcc sees) never stops the kernels, while every error that concerns device code is
 * reported, with the headers that were not found noted after it. */
START_TEST(host_code) {
  tu_write("hc_host.h", "#include <vector>\n"
                        "struct Plan { std::vector<int> sizes; int n; };\n"
                        "struct Dev { std::vector<float> v; float scale; };\n");
  tu_write("hc.cu",
           "#include <iostream>\n"
           "#include <omp.h>\n"
           "#include \"hc_host.h\"\n"
           "static std::vector<int> table;\n"
           "extern FILE *log_file(const char *name);\n"
           "__global__ void k(float *x, int n) { if (threadIdx.x < n) x[threadIdx.x] = 1; }\n"
           "int main() {\n"
           "  Plan p; p.sizes.push_back(omp_get_max_threads());\n"
           "  std::cout << p.sizes.size() << std::endl;\n"
           "  k<<<1, 32>>>(nullptr, 32);\n"
           "}\n");
  char *err;
  ck_assert_int_eq(kcc("hc.cu -o hc.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  consumed("hc.ptx");
  /* Device code that uses what a missing header declares. */
  tu_write("hc2.cu", "#include <cuda_fp99.h>\n"
                     "__global__ void k(float *x) { x[0] = __float2fp99(x[1]); }\n"
                     "int main() { std::vector<int> v; }\n");
  ck_assert_int_eq(kcc("hc2.cu -o hc2.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "hc2.cu:2:38: error: use of undeclared identifier '__float2fp99'\n"
                        "__global__ void k(float *x) { x[0] = __float2fp99(x[1]); }\n"
                        "                                     ^\n"
                        "hc2.cu:1:10: note: kcc did not find 'cuda_fp99.h', and read on without "
                        "it: CUDA input may include host headers kcc does not have, but device "
                        "code cannot use what they declare\n"
                        "#include <cuda_fp99.h>\n"
                        "         ^\n");
  ck_assert(!exists("hc2.ptx"));
  /* A type with an error is an error once a kernel uses it. */
  tu_write("hc3.cu", "#include \"hc_host.h\"\n"
                     "__global__ void k(Dev *d) { d->scale = 2; }\n");
  ck_assert_int_eq(kcc("hc3.cu -o hc3.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "./hc_host.h:3:19: error: no template named 'vector' in namespace 'std'\n"
                        "struct Dev { std::vector<float> v; float scale; };\n"
                        "                  ^\n"
                        "./hc_host.h:1:10: note: kcc did not find 'vector', and read on without "
                        "it: CUDA input may include host headers kcc does not have, but device "
                        "code cannot use what they declare\n"
                        "#include <vector>\n"
                        "         ^\n");
  /* #error is the preprocessor's: always reported. */
  tu_write("hc4.cu", "#ifndef WIDTH\n#error \"define WIDTH\"\n#endif\n"
                     "__global__ void k(float *x) { x[0] = 1; }\n");
  ck_assert_int_eq(kcc("hc4.cu -o hc4.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "hc4.cu:2:2: error: \"define WIDTH\"\n#error \"define WIDTH\"\n ^\n");
}
END_TEST

/* clang's warnings in every input language: its default set always, -Wall/-Wextra/-WNAME
 * when asked, at file:line:col with a caret; none from kcc's own headers, none from CUDA host
 * code; -Werror and -w apply to them. */
START_TEST(clang_warnings) {
  static const struct {
    const char *file, *text, *warning;
  } cases[] = {
      {"wu.k", "__global__ void k(int *a) {\n  int x;\n  a[0] = x;\n}\n",
       "wu.k:3:10: warning: variable 'x' is uninitialized when used here [-Wuninitialized]\n"
       "  a[0] = x;\n"
       "         ^\n"
       "wu.k:2:8: note: initialize the variable 'x' to silence this warning\n"
       "  int x;\n"
       "       ^\n"},
      {"wu.cl", "kernel void k(global int *a) {\n  int x;\n  a[0] = x;\n}\n",
       "wu.cl:3:10: warning: variable 'x' is uninitialized when used here [-Wuninitialized]\n"
       "  a[0] = x;\n"
       "         ^\n"
       "wu.cl:2:8: note: initialize the variable 'x' to silence this warning\n"
       "  int x;\n"
       "       ^\n"},
      /* Every header kcc gives CUDA input, twice: none may hide an error of its own, which
         would stop clang's flow analysis (and so this warning) for the whole file. */
      {"wu.cu",
       "#include <cstddef>\n#include <cstddef>\n#include <cstdlib>\n#include <cstdlib>\n"
       "#include <cmath>\n#include <cmath>\n#include <cstdint>\n#include <cstdint>\n"
       "#include <type_traits>\n#include <utility>\n#include <algorithm>\n#include <limits>\n"
       "#include <array>\n#include <iterator>\n#include <functional>\n#include <numeric>\n"
       "#include <initializer_list>\n#include <cstring>\n#include <climits>\n#include <cfloat>\n"
       "#include <cuda/std/limits>\n#include <array>\n#include <iterator>\n#include <functional>\n"
       "#include <numeric>\n#include <initializer_list>\n#include <cstring>\n#include <climits>\n"
       "#include <cfloat>\n#include <cuda/std/limits>\n"
       "#include <cooperative_groups.h>\n#include <cuda_fp16.h>\n#include <math_constants.h>\n"
       "#include <cuda_runtime.h>\n#include <assert.h>\n#include <cassert>\n"
       "__global__ void k(int *a) {\n  int x;\n  a[0] = x;\n}\n"
       "int main() { int unused; return 0; }\n",
       "wu.cu:39:10: warning: variable 'x' is uninitialized when used here [-Wuninitialized]\n"
       "  a[0] = x;\n"
       "         ^\n"
       "wu.cu:38:8: note: initialize the variable 'x' to silence this warning\n"
       "  int x;\n"
       "       ^\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *f = cases[i].file;
    tu_write(f, cases[i].text);
    char args[160], *err;
    /* Not in clang's default set. */
    snprintf(args, sizeof args, "%s -o -", f);
    ck_assert_int_eq(kcc(args, NULL, &err), 0);
    ck_assert_msg(!strcmp(err, ""), "%s: %s", f, err);
    snprintf(args, sizeof args, "%s -Wall -o wu.ptx", f);
    ck_assert_int_eq(kcc(args, NULL, &err), 0);
    ck_assert_str_eq(err, cases[i].warning);
    consumed("wu.ptx");
    snprintf(args, sizeof args, "%s -Wuninitialized -Werror -o wu2.ptx", f);
    ck_assert_int_eq(kcc(args, NULL, &err), 1);
    ck_assert_ptr_nonnull(strstr(err, "error: variable 'x' is uninitialized when used here"));
    ck_assert(!exists("wu2.ptx"));
    snprintf(args, sizeof args, "%s -Wall -Wextra -w -o -", f);
    ck_assert_int_eq(kcc(args, NULL, &err), 0);
    ck_assert_str_eq(err, "");
  }
  /* OpenCL C: incompatible pointer types and discarded qualifiers are warnings, as in clang's
     OpenCL compilers; the C forms then write the conversion out. */
  tu_write("wp.cl", "void f(global float *p) { p[0] = 1; }\n"
                    "kernel void k(const global float *b, global char *c) {\n"
                    "  global float *q = c;\n  q[1] = 2;\n  f(b);\n}\n");
  char *err;
  ck_assert_int_eq(kcc("wp.cl -o wp.kcb", NULL, &err), 0);
  ck_assert_str_eq(err, "wp.cl:3:17: warning: incompatible pointer types initializing '__global "
                        "float *__private' with an expression of type '__global char *__private' "
                        "[-Wincompatible-pointer-types]\n"
                        "  global float *q = c;\n"
                        "                ^\n"
                        "wp.cl:5:5: warning: passing 'const __global float *__private' to "
                        "parameter of type '__global float *' discards qualifiers "
                        "[-Wincompatible-pointer-types-discards-qualifiers]\n"
                        "  f(b);\n"
                        "    ^\n"
                        "wp.cl:1:22: note: passing argument to parameter 'p' here\n"
                        "void f(global float *p) { p[0] = 1; }\n"
                        "                     ^\n");
  consumed("wp.kcb");
  ck_assert_int_eq(kcc("wp.cl -Wno-incompatible-pointer-types -o -", NULL, &err), 0);
  ck_assert_str_eq(err, "");
}
END_TEST

/* The precompiled prelude (frontend/pch.c): one per language and command line in
 * $XDG_CACHE_HOME/kcc/pch, the same output with or without it, a damaged one replaced, none
 * with KCC_CACHE=0. */
static int count_pch(const char *dir) {
  char cmd[700], *out = NULL;
  snprintf(cmd, sizeof cmd, "ls %s 2>/dev/null | grep -c '\\.pch$'", dir);
  tu_sh(cmd, &out, NULL);
  int n = out ? atoi(out) : -1;
  free(out);
  return n;
}

START_TEST(prelude_cache) {
  char xdg[512], dir[600];
  snprintf(xdg, sizeof xdg, "%s/xdg", tu_tmpdir());
  snprintf(dir, sizeof dir, "%s/kcc/pch", xdg);
  setenv("XDG_CACHE_HOME", xdg, 1);
  tu_write("pc.cu", "#include <cmath>\n"
                    "__global__ void k(float *x) { x[threadIdx.x] = std::sqrt(x[0]) * W; }\n");
  tu_write("pc.cl", "kernel void k(global float *x) { x[get_global_id(0)] = sqrt(x[0]) * W; }\n");
  tu_write("pc.k", "__global__ void k(float *x) { x[threadIdx.x] = sqrtf(x[0]) * W; }\n");
  const char *files[] = {"pc.cu", "pc.cl", "pc.k"};
  char args[200], *ref, *out, *err;
  for (int i = 0; i < 3; i++) {
    unsetenv("KCC_CACHE");
    snprintf(args, sizeof args, "%s -DW=2 -o -", files[i]);
    ck_assert_int_eq(kcc(args, &ref, &err), 0); /* makes it */
    ck_assert_str_eq(err, "");
    ck_assert_int_eq(count_pch(dir), i + 1);
    ck_assert_int_eq(kcc(args, &out, &err), 0); /* uses it */
    ck_assert_str_eq(out, ref);
    setenv("KCC_CACHE", "0", 1);
    ck_assert_int_eq(kcc(args, &out, &err), 0); /* without it */
    ck_assert_str_eq(out, ref);
    ck_assert_int_eq(count_pch(dir), i + 1);
  }
  unsetenv("KCC_CACHE");
  /* Another macro, another prelude: the prelude sees the command line's macros. */
  ck_assert_int_eq(kcc("pc.cu -DW=3 -o -", &out, &err), 0);
  ck_assert_int_eq(count_pch(dir), 4);
  /* Damaged files: replaced, and the compile is as before. */
  char cmd[900];
  snprintf(cmd, sizeof cmd, "for f in %s/*.pch; do printf 'not a pch' > $f; done", dir);
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  ck_assert_int_eq(kcc("pc.cu -DW=2 -o -", &ref, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert_int_eq(kcc("pc.cu -DW=2 -o -", &out, &err), 0);
  ck_assert_str_eq(out, ref);
  setenv("KCC_CACHE", "0", 1);
  ck_assert_int_eq(kcc("pc.cu -DW=2 -o -", &out, &err), 0);
  ck_assert_str_eq(out, ref);
  unsetenv("KCC_CACHE");
  unsetenv("XDG_CACHE_HOME");
}
END_TEST

/* CUDA input that can have no template is walked without the prelude's declarations (parse.c,
 * cu_walk_local); anything that might bring a template in gets the full walk, and the output
 * is the same either way. */
START_TEST(cuda_short_walk) {
  tu_write("sw1.cu", "#include <stdio.h>\n#include <cmath>\n"
                     "__global__ void k(float *x) { x[0] = sqrtf(x[1]); }\n");
  tu_write("sw2.cu", "template <int N> __global__ void k(float *x) { x[0] = N; }\n"
                     "void go(float *p) { k<4><<<1, 1>>>(p); }\n");
  tu_write("sw3.h", "template <int N> __global__ void k(float *x) { x[0] = N; }\n");
  tu_write("sw3.cu", "#include \"sw3.h\"\nvoid go(float *p) { k<4><<<1, 1>>>(p); }\n");
  /* A -I directory is searched before kcc's headers, also for the prelude's own includes. */
  char cmd[600];
  snprintf(cmd, sizeof cmd, "mkdir -p %s/swinc", tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  tu_write("swinc/cooperative_groups.h",
           "template <int N> __global__ void k(float *x) { x[0] = N; }\n");
  tu_write("sw4.cu", "#include <cooperative_groups.h>\nvoid go(float *p) { k<4><<<1, 1>>>(p); }\n");
  tu_write("sw5.cu", "#define T(a, b) a##b\n__global__ void k(float *x) { x[0] = 1; }\n");
  tu_write("sw6.cu", "# /* */ include <stdio.h>\n__global__ void k(float *x) { x[0] = 1; }\n");
  tu_write("sw7.cu", "D k(float *x) { x[0] = N; }\nvoid go(float *p) { k<4><<<1, 1>>>(p); }\n");
  static const struct {
    const char *args;
    bool local;
  } cases[] = {
      {"sw1.cu", true},          {"sw2.cu", false},
      {"sw3.cu", false},         {"sw4.cu -Iswinc", false},
      {"sw1.cu -Iswinc", false}, {"sw5.cu", false},
      {"sw6.cu", false},         {"sw7.cu '-DD=template <int N> __global__ void'", false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char args[200], *out, *err;
    snprintf(args, sizeof args, "%s -v -o /dev/null", cases[i].args);
    ck_assert_int_eq(kcc(args, &out, &err), 0);
    ck_assert_msg(strstr(err, cases[i].local ? "kcc: front end: short" : "kcc: front end: full"),
                  "%s: %s", cases[i].args, err);
  }
}
END_TEST

/* __trap(): PTX's trap, CUDA C's __trap(); the OpenCL forms refuse it, and a bundle keeps
 * the PTX and says what it left out. */
START_TEST(trap) {
  tu_write("tr.cu", "__global__ void k(int *p) { if (p[0] < 0) __trap(); p[1] = 1; }\n");
  char *out, *err;
  ck_assert_int_eq(kcc("tr.cu -o tr.ptx", NULL, &err), 0);
  consumed("tr.ptx");
  ck_assert_int_eq(kcc("tr.cu -o - | grep -c '\\btrap;'", &out, &err), 0);
  ck_assert_str_eq(out, "1\n");
  ck_assert_int_eq(kcc("tr.cu -o tr.cl", NULL, &err), 1);
  ck_assert_str_eq(err, "tr.cu:1:43: error: __trap() is not available in OpenCL C output (an "
                        "OpenCL kernel cannot end itself with an error)\n"
                        "__global__ void k(int *p) { if (p[0] < 0) __trap(); p[1] = 1; }\n"
                        "                                          ^\n");
  ck_assert(!exists("tr.cl"));
  ck_assert_int_eq(kcc("tr.cu -o tr.kcb", NULL, &err), 0);
  ck_assert_ptr_nonnull(strstr(err, "kcc: warning: the bundle has no OpenCL form: it loads on "
                                    "CUDA devices only\n"));
}
END_TEST

/* OpenCL images: every form is written without a diagnostic. PTX and CUDA C sample in
 * software over surface loads (docs/design.md, "Images on CUDA"): the PTX has suld and no tex,
 * the CUDA C the surface wrappers; the bundle carries PTX. */
START_TEST(images) {
  tu_write("im.cl", "__constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT |\n"
                    "                        CLK_FILTER_LINEAR;\n"
                    "__kernel void k(read_only image2d_t src, __global float4 *o) {\n"
                    "  o[0] = read_imagef(src, s, (float2)(0.25f, 0.5f));\n"
                    "}\n");
  char *out, *err;
  ck_assert_int_eq(
      kcc("im.cl -o im.ptx && grep -c 'suld.b.2d' im.ptx && ! grep -q 'tex\\.' im.ptx", &out, &err),
      0);
  ck_assert_str_eq(err, "");
  ck_assert_int_ne(atoi(out), 0);
  consumed("im.ptx");
  ck_assert_int_eq(kcc("im.cl -o im.cu && grep -c 'kcc_load_2d<' im.cu", &out, &err), 0);
  ck_assert_str_eq(err, "");
  consumed("im.cu");
  ck_assert_int_eq(kcc("im.cl -o im.ll", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  ck_assert_int_eq(kcc("im.cl -o im.spv", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  consumed("im.spv");
  ck_assert_int_eq(
      kcc("im.cl -o im.out.cl && grep -c 'read_imagef(src, kcc_sampler_39' im.out.cl", &out, &err),
      0);
  ck_assert_str_eq(out, "1\n");
  consumed("im.out.cl");
  ck_assert_int_eq(kcc("im.cl -o im.kcb", NULL, &err), 0);
  ck_assert_msg(!strstr(err, "carries no PTX"), "%s", err);
  ck_assert_int_eq(kcc("im.cl -o im.h && grep -c 'kcrt_image \\*src' im.h", &out, &err), 0);
  consumed("im.h");
}
END_TEST

/* Unrolling hints before a loop (#pragma unroll [N], #pragma nounroll, #pragma clang loop,
 * OpenCL's opencl_unroll_hint) reach LLVM as llvm.loop metadata and the C forms as
 * `#pragma unroll N` before the same loop; a loop without one gets none. */
START_TEST(unroll_hints) {
  tu_write("un.cu", "__global__ void k(float *a, const float *b, int n) {\n"
                    "  float s = 0;\n"
                    "#pragma unroll 4\n"
                    "  for (int i = 0; i < n; i++) s += b[i];\n"
                    "  a[0] = s;\n"
                    "#pragma nounroll\n"
                    "  for (int j = 0; j < 8; j++) a[j + 1] = b[j] * 3;\n"
                    "#pragma clang loop unroll_count(3)\n"
                    "  while (n-- > 0) a[n + 9] = 1;\n"
                    "  for (int j = 0; j < 8; j++) a[j + 21] = b[j];\n"
                    "}\n");
  char *out, *err;
  ck_assert_int_eq(kcc("un.cu --emit=cuda -o - | grep -A1 '#pragma unroll'", &out, &err), 0);
  ck_assert_str_eq(out, "  #pragma unroll 4\n  for (int i = 0; i < n; i++)\n--\n"
                        "  #pragma unroll 1\n  for (int j = 0; j < 8; j++)\n--\n"
                        "  #pragma unroll 3\n  while (n-- > 0)\n");
  ck_assert_int_eq(kcc("un.cu -o un.cu.cu", &out, &err), 0);
  ck_assert_int_eq(kcc("un.cu -o un.ptx", &out, &err), 0);
  consumed("un.cu.cu un.ptx");
  ck_assert_int_eq(kcc("un.cu -O0 --emit=llvm -o - | grep -o '\"llvm.loop.unroll[.a-z]*\"' | "
                       "sort | uniq -c",
                       &out, &err),
                   0);
  ck_assert_str_eq(out,
                   "      2 \"llvm.loop.unroll.count\"\n      1 \"llvm.loop.unroll.disable\"\n");
  tu_write("un.cl", "__kernel void k(__global float *a) {\n"
                    "  __attribute__((opencl_unroll_hint(2)))\n"
                    "  for (int i = 0; i < 8; i++) a[i] = i;\n"
                    "#ifndef NO_HINTS\n"
                    "#pragma unroll 5 /* directives and comments may come between */\n"
                    "#endif\n"
                    "  // the loop:\n"
                    "  for (int i = 8; i < 16; i++) a[i] = i;\n"
                    "}\n");
  ck_assert_int_eq(
      kcc("un.cl -cl-std=CL2.0 -o un.k.cl && grep -A1 '#pragma unroll' un.k.cl", &out, &err), 0);
  ck_assert_str_eq(out, "  #pragma unroll 2\n  for (int i = 0; i < 8; i++)\n--\n"
                        "  #pragma unroll 5\n  for (int i = 8; i < 16; i++)\n");
  consumed("un.k.cl");
}
END_TEST

/* Through a symlink, the file the link names is replaced and the link stays. A FIFO, like
 * /dev/null (which a test run as root must not risk replacing), is written in place, and as it
 * has no extension it gets the default form, as '-' does. */
START_TEST(special_outputs) {
  tu_write("sp.k", vecadd);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "cd %s && mkdir -p real && echo old > real/sp.ptx && ln -sf real/sp.ptx splink.ptx && "
           "ln -sf real/new.ptx spdang.ptx && rm -f sp.fifo && mkfifo sp.fifo",
           tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  char *err;
  ck_assert_int_eq(kcc("sp.k -o splink.ptx", NULL, &err), 0);
  ck_assert_str_eq(err, "");
  char path[512];
  struct stat st;
  snprintf(path, sizeof path, "%s/splink.ptx", tu_tmpdir());
  ck_assert(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
  snprintf(path, sizeof path, "%s/real/sp.ptx", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), ".entry vecadd"));
  ck_assert_int_eq(kcc("sp.k -o spdang.ptx", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/real/new.ptx", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), ".entry vecadd"));
  snprintf(cmd, sizeof cmd,
           "cd %s && { timeout 60 cat sp.fifo > sp.got & } && %s sp.k -o sp.fifo; st=$?; wait; "
           "exit $st",
           tu_tmpdir(), tu_kcc());
  ck_assert_int_eq(tu_sh(cmd, NULL, &err), 0);
  ck_assert_str_eq(err, "");
  snprintf(path, sizeof path, "%s/sp.fifo", tu_tmpdir());
  ck_assert(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
  snprintf(path, sizeof path, "%s/sp.got", tu_tmpdir());
  ck_assert_ptr_nonnull(strstr(tu_read(path, NULL), ".entry vecadd"));
  ck_assert_int_eq(count_temporaries(), 0);
  snprintf(cmd, sizeof cmd, "ls -a %s/real | grep -c '\\.tmp\\.'", tu_tmpdir());
  char *out;
  tu_sh(cmd, &out, NULL);
  ck_assert_str_eq(out, "0\n");
}
END_TEST

/* -MD needs a file name for the depfile and for its target; '-o -' gives neither. */
START_TEST(depfile_with_stdout) {
  tu_write("ds.k", vecadd);
  char *out, *err;
  ck_assert_int_eq(kcc("ds.k -MD -o -", &out, &err), 2);
  ck_assert_str_eq(out, "");
  ck_assert_str_eq(err, "kcc: error: -MD with '-o -' needs -MF FILE (the dependency file's "
                        "name)\nkcc: run 'kcc --help' for usage\n");
  ck_assert_int_eq(kcc("ds.k -MF ds.d -o -", &out, &err), 2);
  ck_assert_str_eq(err, "kcc: error: -MD with '-o -' needs -MT TARGET (the dependency rule's "
                        "target)\nkcc: run 'kcc --help' for usage\n");
  ck_assert(!exists("ds.d") && !exists("-.d"));
  ck_assert_int_eq(kcc("ds.k -MF - -MT ds.ptx -o -", &out, &err), 2);
  ck_assert_str_eq(err, "kcc: error: the output and the dependency file cannot both go to "
                        "standard output\nkcc: run 'kcc --help' for usage\n");
  ck_assert_int_eq(kcc("ds.k -MD -MF ds.d -MT ds.ptx -o -", &out, &err), 0);
  ck_assert_ptr_nonnull(strstr(out, ".entry vecadd"));
  char path[512];
  snprintf(path, sizeof path, "%s/ds.d", tu_tmpdir());
  ck_assert_str_eq(tu_read(path, NULL), "ds.ptx: ds.k\n");
  /* -MT names the target with a file output too; alone it would do nothing. */
  ck_assert_int_eq(kcc("ds.k -MD -MT build/ds.ptx -o ds2.ptx", NULL, NULL), 0);
  snprintf(path, sizeof path, "%s/ds2.ptx.d", tu_tmpdir());
  ck_assert_str_eq(tu_read(path, NULL), "build/ds.ptx: ds.k\n");
  ck_assert_int_eq(kcc("ds.k -MT ds3.ptx -o ds3.ptx", NULL, &err), 2);
  ck_assert_str_eq(err, "kcc: error: '-MT ds3.ptx' names the target in a dependency file; "
                        "without -MD or -MF there is none\nkcc: run 'kcc --help' for usage\n");
  ck_assert(!exists("ds3.ptx"));
  /* -MF - writes the depfile to standard output when the output is a file. */
  ck_assert_int_eq(kcc("ds.k -MF - -o ds4.ptx", &out, NULL), 0);
  ck_assert_str_eq(out, "ds4.ptx: ds.k\n");
  /* gcc's -MMD and -MP: the same depfile, as kcc's never lists system headers and always has
   * the phony rules. */
  ck_assert_int_eq(kcc("ds.k -MMD -MP -MF - -o ds5.ptx", &out, NULL), 0);
  ck_assert_str_eq(out, "ds5.ptx: ds.k\n");
}
END_TEST

/* -v prints its own lines only: no LLVM remark ("<unknown>:0:0: 19 instructions in
 * function") leaks through. */
START_TEST(verbose_prints_stages_only) {
  tu_write("vv.k", vecadd);
  char *err;
  ck_assert_int_eq(kcc("vv.k -v -o vv.ptx", NULL, &err), 0);
  ck_assert_ptr_null(strstr(err, "<unknown>"));
  ck_assert_ptr_null(strstr(err, "instructions in function"));
  int lines = 0;
  const char *last = err;
  for (char *line = strtok(err, "\n"); line; line = strtok(NULL, "\n")) {
    ck_assert_msg(!strncmp(line, "kcc: ", 5), "-v printed '%s'", line);
    last = line;
    lines++;
  }
  ck_assert_int_ge(lines, 2);
  ck_assert_ptr_nonnull(strstr(last, "kcc: front end + passes "));
  ck_assert_ptr_nonnull(strstr(last, " ms, ptx back end "));
}
END_TEST

/* --devices and --version do one thing; an argument beside them is not silently dropped. */
START_TEST(alone_options) {
  char *out, *err;
  const char *cases[][2] = {
      {"--devices extra", "'--devices' takes no other argument (got 'extra')"},
      {"a.k --devices", "'--devices' takes no other argument (got 'a.k')"},
      {"--version -v", "'--version' takes no other argument (got '-v')"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char want[256];
    snprintf(want, sizeof want, "kcc: error: %s\nkcc: run 'kcc --help' for usage\n", cases[i][1]);
    ck_assert_int_eq(kcc(cases[i][0], &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_str_eq(err, want);
  }
}
END_TEST

/* A directory is not a kernel file: reported like an unreadable one (exit 1). */
START_TEST(directory_input) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "mkdir -p %s/adir", tu_tmpdir());
  ck_assert_int_eq(tu_sh(cmd, NULL, NULL), 0);
  char *err;
  ck_assert_int_eq(kcc("adir -o adir.ptx", NULL, &err), 1);
  ck_assert_ptr_nonnull(strstr(err, "'adir'"));
  ck_assert(!exists("adir.ptx"));
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

/* OpenCL C's half as a value (issue 31): a kernel with a half parameter, half arithmetic and
 * half vectors goes to every form, each accepted by its consumer, and the generated header
 * passes the half as its 16 bits; what stays refused is one diagnostic at the construct. */
START_TEST(half_values) {
  tu_write("hv.cl", "typedef struct { half h; half2 v; } P;\n"
                    "kernel void k(global half *p, global half4 *q, global P *s, half x) {\n"
                    "  int i = get_global_id(0);\n"
                    "  p[i] = p[i] * x + (half)1.5f;\n"
                    "  q[i] = sqrt(q[i]) + convert_half4(convert_float4(q[i]) * 2.0f);\n"
                    "  s[i].v = s[i].v.yx * s[i].h;\n"
                    "}\n");
  char *out, *err;
  ck_assert_int_eq(kcc("hv.cl -o hv.ptx", NULL, &err), 0);
  ck_assert_int_eq(kcc("hv.cl -o hv.spv", NULL, &err), 0);
  ck_assert_int_eq(kcc("hv.cl -o hv.kcc.cl", NULL, &err), 0);
  ck_assert_int_eq(kcc("hv.cl -o hv.cu", NULL, &err), 0);
  ck_assert_int_eq(kcc("hv.cl -o hv.h && grep -c 'k_launch(kcrt_config cfg, kcc_buf_uint16 p, "
                       "kcc_buf_ushort4 q, kcc_buf_struct_P s, uint16_t x)' hv.h",
                       &out, &err),
                   0);
  ck_assert_str_eq(out, "1\n");
  consumed("hv.ptx hv.spv hv.kcc.cl hv.cu hv.h");
  tu_write("hr.cl", "kernel void k(global half *p, global double *f) {\n"
                    "  p[0] = convert_half_rtz(f[0]);\n"
                    "}\n");
  ck_assert_int_eq(kcc("hr.cl -o hr.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "hr.cl:2:10: error: 'convert_half_rtz': conversions to floating point "
                        "with a rounding mode are not supported by kcc\n"
                        "  p[0] = convert_half_rtz(f[0]);\n"
                        "         ^\n");
  ck_assert(!exists("hr.ptx"));
  /* .k: C's _Float16 is the same half */
  tu_write("hk.k", "kernel void k(_Float16 *p, float x) { p[0] = p[1] * (_Float16)x + p[2]; }\n");
  ck_assert_int_eq(kcc("hk.k -o hk.ptx", NULL, &err), 0);
  ck_assert_int_eq(kcc("hk.k -o hk.cl", NULL, &err), 0);
  consumed("hk.ptx hk.cl");
  tu_write("hf.k", "kernel void k(__fp16 *p) { p[0] = 1; }\n");
  ck_assert_int_eq(kcc("hf.k -o hf.ptx", NULL, &err), 1);
  ck_assert_str_eq(err, "hf.k:1:23: error: '__fp16' is not supported in kcc kernels (use "
                        "_Float16)\n"
                        "kernel void k(__fp16 *p) { p[0] = 1; }\n"
                        "                      ^\n");
}
END_TEST

/* CUDA's warp shuffles of __half and __half2 (kcc's <cuda_fp16.h>): the bits through the int
 * shuffle, in every form (the SPIR-V ones widen a 16-bit value to 32 bits for the shuffle). */
START_TEST(half_cuda_shuffles) {
  tu_write("hs.cu", "#include <cuda_fp16.h>\n"
                    "__global__ void k(__half *p, half2 *q) {\n"
                    "  int i = threadIdx.x;\n"
                    "  p[i] = __shfl_xor_sync(0xffffffffu, p[i], 1) + __shfl_sync(~0u, p[i], 0);\n"
                    "  q[i] = __shfl_down_sync(~0u, q[i], 1) + __shfl_up_sync(~0u, q[i], 2, 16);\n"
                    "}\n");
  char *err;
  ck_assert_int_eq(kcc("hs.cu -o hs.ptx", NULL, &err), 0);
  ck_assert_int_eq(kcc("hs.cu -o hs.cl", NULL, &err), 0);
  ck_assert_int_eq(kcc("hs.cu -o hs.cu.cu", NULL, &err), 0);
  ck_assert_int_eq(kcc("hs.cu -o hs.spv", NULL, &err), 0);
  ck_assert_int_eq(kcc("hs.cu -o hs.vk.spv", NULL, &err), 0);
  consumed("hs.ptx hs.cl hs.cu.cu hs.spv hs.vk.spv");
}
END_TEST

/* The same for __nv_bfloat16 and __nv_bfloat162 (kcc's <cuda_bf16.h>), and atomicAdd of both:
 * a 32-bit compare-and-swap loop, in every form. */
START_TEST(bf16_cuda_shuffles_atomics) {
  tu_write("bs.cu", "#include <cuda_bf16.h>\n"
                    "__global__ void k(__nv_bfloat16 *p, nv_bfloat162 *q) {\n"
                    "  int i = threadIdx.x;\n"
                    "  p[i] = __shfl_xor_sync(0xffffffffu, p[i], 1) + __shfl_sync(~0u, p[i], 0);\n"
                    "  q[i] = __shfl_down_sync(~0u, q[i], 1) + __shfl_up_sync(~0u, q[i], 2, 16);\n"
                    "}\n");
  tu_write("ba.cu", "#include <cuda_bf16.h>\n"
                    "__global__ void k(__nv_bfloat16 *p, nv_bfloat162 *q) {\n"
                    "  __shared__ __nv_bfloat16 s[2];\n"
                    "  atomicAdd(&s[threadIdx.x & 1], p[0]);\n"
                    "  p[1] = atomicAdd(&p[2], s[0]);\n"
                    "  atomicAdd(q, __floats2bfloat162_rn(1.0f, 2.0f));\n"
                    "}\n");
  char *err;
  ck_assert_int_eq(kcc("bs.cu -o bs.ptx", NULL, &err), 0);
  ck_assert_int_eq(kcc("bs.cu -o bs.cl", NULL, &err), 0);
  ck_assert_int_eq(kcc("bs.cu -o bs.cu.cu", NULL, &err), 0);
  ck_assert_int_eq(kcc("ba.cu -o ba.ptx", NULL, &err), 0);
  ck_assert_int_eq(kcc("ba.cu -o ba.cl", NULL, &err), 0);
  ck_assert_int_eq(kcc("ba.cu -o ba.spv", NULL, &err), 0);
  ck_assert_int_eq(kcc("ba.cu -o ba.cu.cu", NULL, &err), 0);
  ck_assert_int_eq(kcc("bs.cu -o bs.spv", NULL, &err), 0);
  ck_assert_int_eq(kcc("bs.cu -o bs.vk.spv", NULL, &err), 0);
  consumed("bs.ptx bs.cl bs.cu.cu bs.spv bs.vk.spv ba.ptx ba.cl ba.spv ba.cu.cu");
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
  tcase_add_test(t, default_output_never_the_input);
  tcase_add_test(t, never_overwrites_an_input);
  tcase_add_test(t, no_output_without_its_depfile);
  tcase_add_test(t, habitual_flags);
  tcase_add_test(t, depfile_with_stdout);
  tcase_add_test(t, verbose_prints_stages_only);
  tcase_add_test(t, alone_options);
  tcase_add_test(t, directory_input);
  tcase_add_test(t, special_outputs);
  tcase_add_test(t, instantiate);
  tcase_add_test(t, lambda_ref_capture);
  tcase_add_test(t, cuda_fp_contract);
  tcase_add_test(t, atomic_inc_dec_ptx);
  tcase_add_test(t, subgroups);
  tcase_add_test(t, subgroup_macros);
  tcase_add_test(t, cl_infinity);
  tcase_add_test(t, cl_build_options);
  tcase_add_test(t, tile_thread_group);
  tcase_add_test(t, unroll_hints);
  tcase_add_test(t, host_code);
  tcase_add_test(t, clang_warnings);
  tcase_add_test(t, prelude_cache);
  tcase_add_test(t, cuda_short_walk);
  tcase_add_test(t, trap);
  tcase_add_test(t, images);
  tcase_add_test(t, large_params_ptx81);
  tcase_add_test(t, half_values);
  tcase_add_test(t, half_cuda_shuffles);
  tcase_add_test(t, bf16_cuda_shuffles_atomics);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  return tu_main(suite());
}
