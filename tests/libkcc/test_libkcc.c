/* test_libkcc.c — libkcc's API (driver/include/libkcc.h) through libkcc.so: outputs, exact
 * diagnostics, options, argument checks, repeated compiles and compiles from many threads. */
#define _GNU_SOURCE
#include <libkcc.h>

#include <check.h>
#include <pthread.h>
#include <stdbool.h>
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

static kcc_status compile(const char *src, const char *name, const char *opts, kcc_result **r) {
  /* opts: space-separated */
  char *copy = strdup(opts ? opts : "");
  const char *v[32];
  int n = 0;
  for (char *t = strtok(copy, " "); t && n < 32; t = strtok(NULL, " ")) v[n++] = t;
  kcc_status st = kcc_compile(src, strlen(src), name, v, n, r);
  free(copy);
  return st;
}

START_TEST(bundle_by_default) {
  kcc_result *r;
  ck_assert_int_eq(compile(vecadd, "vecadd.k", NULL, &r), KCC_SUCCESS);
  ck_assert_int_eq(kcc_result_status(r), KCC_SUCCESS);
  ck_assert_str_eq(kcc_result_form(r), "bundle");
  ck_assert_str_eq(kcc_result_log(r), "");
  ck_assert_int_eq(kcc_result_error_count(r), 0);
  ck_assert_int_eq(kcc_result_warning_count(r), 0);
  size_t n;
  const unsigned char *kcb = kcc_result_output(r, &n);
  ck_assert_ptr_nonnull(kcb);
  ck_assert_uint_gt(n, 64);
  ck_assert_int_eq(memcmp(kcb, "\x89KCB\r\n\x1a\n", 8), 0); /* docs/bundle.md */
  /* The bundle names the kernel and carries OpenCL C for it. */
  ck_assert_ptr_nonnull(memmem(kcb, n, "vecadd", 6));
  ck_assert_ptr_nonnull(memmem(kcb, n, "__kernel void vecadd", 20));
  kcc_result_free(r);
}
END_TEST

START_TEST(text_forms) {
  struct {
    const char *opt, *form, *needle;
  } cases[] = {
      {"--emit=ptx", "ptx", ".visible .entry vecadd("},
      {"--emit=ptx -arch=sm_80", "ptx", ".target sm_80"},
      {"--emit=cl", "cl", "__kernel void vecadd("},
      {"--emit=cuda", "cuda", "extern \"C\" __global__ void vecadd("},
      {"--emit=llvm", "llvm", "define ptx_kernel void @vecadd("},
      {"--emit=kir", "kir", "vecadd"},
      {"--emit=header --prefix=va", "header", "va_launch_vecadd"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    kcc_result *r;
    ck_assert_int_eq(compile(vecadd, "vecadd.k", cases[i].opt, &r), KCC_SUCCESS);
    ck_assert_str_eq(kcc_result_form(r), cases[i].form);
    size_t n;
    const char *text = kcc_result_output(r, &n);
    ck_assert_uint_eq(strlen(text), n); /* NUL-terminated text */
    ck_assert_msg(strstr(text, cases[i].needle), "%s: no '%s' in:\n%s", cases[i].opt,
                  cases[i].needle, text);
    kcc_result_free(r);
  }
}
END_TEST

START_TEST(spirv_form) {
  kcc_result *r;
  ck_assert_int_eq(compile(vecadd, "vecadd.k", "--emit=spirv", &r), KCC_SUCCESS);
  size_t n;
  const unsigned char *w = kcc_result_output(r, &n);
  ck_assert_uint_eq(n % 4, 0);
  ck_assert_uint_gt(n, 20);
  static const unsigned char magic[4] = {0x03, 0x02, 0x23, 0x07};
  ck_assert_int_eq(memcmp(w, magic, 4), 0);
  kcc_result_free(r);
}
END_TEST

START_TEST(diagnostics_exact) {
  kcc_result *r;
  const char *src = "kernel void k(int *p) {\n"
                    "  p[0] = q;\n"
                    "}\n";
  ck_assert_int_eq(compile(src, "bad.k", "--emit=ptx", &r), KCC_ERROR_COMPILE);
  ck_assert_str_eq(kcc_result_log(r), "bad.k:2:10: error: use of undeclared identifier 'q'\n"
                                      "  p[0] = q;\n"
                                      "         ^\n");
  ck_assert_int_eq(kcc_result_error_count(r), 1);
  size_t n = 99;
  ck_assert_ptr_null(kcc_result_output(r, &n));
  ck_assert_uint_eq(n, 0);
  kcc_result_free(r);

  /* kcc's own checks, after clang's. */
  ck_assert_int_eq(compile("int x;\n", "nokernel.k", NULL, &r), KCC_ERROR_COMPILE);
  ck_assert_str_eq(kcc_result_log(r),
                   "nokernel.k:1:5: error: global variable 'x' must be 'constant' or 'shared'\n"
                   "int x;\n"
                   "    ^\n");
  kcc_result_free(r);
  /* A file without a kernel: a warning and a bundle with no entry point; -Werror refuses. */
  static const char nokernel[] =
      "kcc: warning: no kernel in this file: the output has no entry point to launch, only the "
      "file's variables (a device function is compiled only where a kernel calls it)\n";
  ck_assert_int_eq(compile("void f(void) {}\n", "empty.k", NULL, &r), KCC_SUCCESS);
  ck_assert_str_eq(kcc_result_log(r), nokernel);
  ck_assert_int_eq(kcc_result_warning_count(r), 1);
  ck_assert_ptr_nonnull(kcc_result_output(r, &n));
  ck_assert_uint_gt(n, 0);
  kcc_result_free(r);
  ck_assert_int_eq(compile("void f(void) {}\n", "empty.k", "-Werror", &r), KCC_ERROR_COMPILE);
  ck_assert_str_eq(kcc_result_log(r), "kcc: error: no kernel in this file: the output has no "
                                      "entry point to launch, only the file's variables (a "
                                      "device function is compiled only where a kernel calls "
                                      "it)\n");
  ck_assert_ptr_null(kcc_result_output(r, &n));
  kcc_result_free(r);
}
END_TEST

START_TEST(warnings) {
  const char *src = "kernel void k(int *p) {\n"
                    "  p[0] == 1;\n"
                    "}\n";
  const char *warning = "w.k:2:8: warning: equality comparison result unused "
                        "[-Wunused-comparison]\n"
                        "  p[0] == 1;\n"
                        "       ^\n"
                        "w.k:2:8: note: use '=' to turn this equality comparison into an "
                        "assignment\n"
                        "  p[0] == 1;\n"
                        "       ^\n";
  kcc_result *r;
  ck_assert_int_eq(compile(src, "w.k", "--emit=cl", &r), KCC_SUCCESS);
  ck_assert_str_eq(kcc_result_log(r), warning);
  ck_assert_int_eq(kcc_result_warning_count(r), 1);
  kcc_result_free(r);
  ck_assert_int_eq(compile(src, "w.k", "--emit=cl -w", &r), KCC_SUCCESS);
  ck_assert_str_eq(kcc_result_log(r), "");
  kcc_result_free(r);
  ck_assert_int_eq(compile(src, "w.k", "--emit=cl -Werror", &r), KCC_ERROR_COMPILE);
  ck_assert_str_eq(kcc_result_log(r), "w.k:2:8: error: equality comparison result unused "
                                      "[-Wunused-comparison]\n"
                                      "  p[0] == 1;\n"
                                      "       ^\n"
                                      "w.k:2:8: note: use '=' to turn this equality comparison "
                                      "into an assignment\n"
                                      "  p[0] == 1;\n"
                                      "       ^\n");
  kcc_result_free(r);
}
END_TEST

START_TEST(macros_and_includes) {
  const char *src = "#include \"scale.h\"\n"
                    "kernel void k(float *p) { p[0] = SCALE * FACTOR; }\n";
  char dir[] = "/tmp/libkcc-test-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char hdr[256], name[256];
  snprintf(hdr, sizeof hdr, "%s/scale.h", dir);
  snprintf(name, sizeof name, "%s/k.k", dir);
  FILE *f = fopen(hdr, "w");
  fputs("#define SCALE 3.0f\n", f);
  fclose(f);
  kcc_result *r;
  /* The name's directory is searched first; -D and -I are the command line's. */
  ck_assert_int_eq(compile(src, name, "--emit=cl -DFACTOR=7.0f", &r), KCC_SUCCESS);
  ck_assert_ptr_nonnull(strstr(kcc_result_output(r, NULL), "3.0f * 7.0f"));
  ck_assert_int_eq(kcc_result_dependency_count(r), 1);
  ck_assert_str_eq(kcc_result_dependency(r, 0), hdr);
  ck_assert_ptr_null(kcc_result_dependency(r, 1));
  kcc_result_free(r);
  /* A bare name: the current directory, then -I. */
  char opt[300];
  snprintf(opt, sizeof opt, "--emit=cl -DFACTOR=1.0f -I %s", dir);
  ck_assert_int_eq(compile(src, "k.k", opt, &r), KCC_SUCCESS);
  kcc_result_free(r);
  ck_assert_int_eq(compile(src, "k.k", "--emit=cl -DFACTOR=1.0f", &r), KCC_ERROR_COMPILE);
  ck_assert_str_eq(kcc_result_log(r), "k.k:1:10: fatal error: 'scale.h' file not found\n"
                                      "#include \"scale.h\"\n"
                                      "         ^\n");
  kcc_result_free(r);
  unlink(hdr);
  rmdir(dir);
}
END_TEST

START_TEST(opencl_input) {
  const char *src = "__kernel void twice(__global float *p) {\n"
                    "  p[get_global_id(0)] *= 2.0f;\n"
                    "}\n";
  kcc_result *r;
  ck_assert_int_eq(compile(src, "twice.cl", "--emit=ptx", &r), KCC_SUCCESS);
  ck_assert_ptr_nonnull(strstr(kcc_result_output(r, NULL), ".entry twice("));
  kcc_result_free(r);
  /* The language follows the name, or -x. */
  ck_assert_int_eq(compile(src, "twice.k", "--emit=ptx -x cl", &r), KCC_SUCCESS);
  kcc_result_free(r);
  ck_assert_int_eq(compile(src, "twice.k", "--emit=ptx", &r), KCC_ERROR_COMPILE);
  kcc_result_free(r);
}
END_TEST

START_TEST(bad_options) {
  struct {
    const char *opts, *log;
  } cases[] = {
      {"-fbogus", "kcc: error: unknown option '-fbogus'\n"},
      {"-arch=sm_x", "kcc: error: invalid -arch 'sm_x' (expected sm_XX[,sm_YY...], e.g. sm_90)\n"},
      {"--emit=exe", "kcc: error: unknown output form 'exe'\n"},
      {"-o out.ptx", "kcc: error: '-o' is an option of the kcc command, not of kcc_compile "
                     "(which writes no file: the output is in the result)\n"},
      {"-MD", "kcc: error: '-MD' is an option of the kcc command, not of kcc_compile (which "
              "writes no file: the output is in the result)\n"},
      {"--version", "kcc: error: '--version' is an option of the kcc command, not of "
                    "kcc_compile (which writes no file: the output is in the result)\n"},
      {"stray.k", "kcc: error: unexpected argument 'stray.k' among the options (kcc_compile "
                  "takes the source separately)\n"},
      {"-std=c++17", "kcc: error: invalid '-std=c++17' for 'v.k': kcc's C dialect takes c99, "
                     "c11, c17, gnu99, gnu11 or gnu17\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    kcc_result *r;
    ck_assert_int_eq(compile(vecadd, "v.k", cases[i].opts, &r), KCC_ERROR_INVALID_OPTION);
    ck_assert_str_eq(kcc_result_log(r), cases[i].log);
    ck_assert_ptr_null(kcc_result_output(r, NULL));
    kcc_result_free(r);
  }
}
END_TEST

START_TEST(bad_arguments) {
  kcc_result *r = (kcc_result *)1;
  const char *opts[] = {"-O2", NULL};
  ck_assert_int_eq(kcc_compile(vecadd, strlen(vecadd), "v.k", NULL, 0, NULL),
                   KCC_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(kcc_compile(NULL, 5, "v.k", NULL, 0, &r), KCC_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(r);
  r = (kcc_result *)1;
  ck_assert_int_eq(kcc_compile(vecadd, strlen(vecadd), "v.k", NULL, 1, &r),
                   KCC_ERROR_INVALID_ARGUMENT);
  ck_assert_ptr_null(r);
  ck_assert_int_eq(kcc_compile(vecadd, strlen(vecadd), "v.k", opts, 2, &r),
                   KCC_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(kcc_compile(vecadd, strlen(vecadd), "v.k", opts, -1, &r),
                   KCC_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(kcc_compile(vecadd, strlen(vecadd), "", NULL, 0, &r),
                   KCC_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(kcc_compile(vecadd, strlen(vecadd), "-x", NULL, 0, &r),
                   KCC_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(kcc_compile_file(NULL, NULL, 0, &r), KCC_ERROR_INVALID_ARGUMENT);
  /* A NULL name is "kernel.k"; the source need not be NUL-terminated. */
  char *copy = malloc(strlen(vecadd));
  memcpy(copy, vecadd, strlen(vecadd));
  ck_assert_int_eq(kcc_compile(copy, strlen(vecadd), NULL, opts, 1, &r), KCC_SUCCESS);
  kcc_result_free(r);
  ck_assert_int_eq(kcc_compile(copy, 10, NULL, NULL, 0, &r), KCC_ERROR_COMPILE);
  ck_assert_ptr_nonnull(strstr(kcc_result_log(r), "kernel.k:1:"));
  kcc_result_free(r);
  free(copy);
  kcc_result_free(NULL);
  ck_assert_str_eq(kcc_status_string(KCC_ERROR_COMPILE), "compile error");
  ck_assert_str_eq(kcc_status_string((kcc_status)42), "unknown status");
  ck_assert_str_eq(kcc_version(), "0.1.0");
}
END_TEST

START_TEST(from_file) {
  kcc_result *r;
  ck_assert_int_eq(kcc_compile_file("/nonexistent/k.k", NULL, 0, &r), KCC_ERROR_COMPILE);
  ck_assert_str_eq(kcc_result_log(r),
                   "kcc: error: cannot open '/nonexistent/k.k': No such file or directory\n");
  kcc_result_free(r);
  char path[] = "/tmp/libkcc-file-XXXXXX.k";
  int fd = mkstemps(path, 2);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, vecadd, strlen(vecadd)), (ssize_t)strlen(vecadd));
  close(fd);
  const char *opts[] = {"--emit=ptx"};
  ck_assert_int_eq(kcc_compile_file(path, opts, 1, &r), KCC_SUCCESS);
  ck_assert_ptr_nonnull(strstr(kcc_result_output(r, NULL), ".entry vecadd("));
  kcc_result_free(r);
  unlink(path);
}
END_TEST

/* The same compile many times in one process: the same output every time, failures in
 * between change nothing. */
START_TEST(repeated) {
  kcc_result *first;
  ck_assert_int_eq(compile(vecadd, "v.k", "--emit=ptx", &first), KCC_SUCCESS);
  for (int i = 0; i < 50; i++) {
    kcc_result *r;
    if (i % 3 == 1) {
      ck_assert_int_eq(compile("kernel void k(int *p) { p[0] = q; }\n", "b.k", "--emit=ptx", &r),
                       KCC_ERROR_COMPILE);
      ck_assert_ptr_nonnull(strstr(kcc_result_log(r), "b.k:1:32: error:"));
    } else {
      ck_assert_int_eq(compile(vecadd, "v.k", "--emit=ptx", &r), KCC_SUCCESS);
      ck_assert_str_eq(kcc_result_output(r, NULL), kcc_result_output(first, NULL));
      ck_assert_str_eq(kcc_result_log(r), "");
    }
    kcc_result_free(r);
  }
  kcc_result_free(first);
}
END_TEST

typedef struct Job {
  int id;
  const char *expect_ptx, *expect_cl;
  int failures;
} Job;

static void *thread_main(void *arg) {
  Job *j = arg;
  for (int i = 0; i < 6; i++) {
    kcc_result *r;
    int which = (j->id + i) % 3;
    kcc_status st = which == 2 ? compile("kernel void k(int *p) { p[0] = q; }\n", "t.k", NULL, &r)
                               : compile(vecadd, "v.k", which ? "--emit=cl" : "--emit=ptx", &r);
    bool ok = which == 2 ? st == KCC_ERROR_COMPILE &&
                               !strcmp(kcc_result_log(r),
                                       "t.k:1:32: error: use of undeclared identifier 'q'\n"
                                       "kernel void k(int *p) { p[0] = q; }\n"
                                       "                               ^\n")
                         : st == KCC_SUCCESS && !strcmp(kcc_result_output(r, NULL),
                                                        which ? j->expect_cl : j->expect_ptx);
    j->failures += !ok;
    kcc_result_free(r);
  }
  return NULL;
}

START_TEST(threads) {
  kcc_result *ptx, *cl;
  ck_assert_int_eq(compile(vecadd, "v.k", "--emit=ptx", &ptx), KCC_SUCCESS);
  ck_assert_int_eq(compile(vecadd, "v.k", "--emit=cl", &cl), KCC_SUCCESS);
  enum { N = 8 };
  pthread_t th[N];
  Job jobs[N];
  for (int i = 0; i < N; i++) {
    jobs[i] = (Job){i, kcc_result_output(ptx, NULL), kcc_result_output(cl, NULL), 0};
    ck_assert_int_eq(pthread_create(&th[i], NULL, thread_main, &jobs[i]), 0);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(th[i], NULL);
    ck_assert_int_eq(jobs[i].failures, 0);
  }
  kcc_result_free(ptx);
  kcc_result_free(cl);
}
END_TEST

int main(void) {
  Suite *s = suite_create("libkcc");
  TCase *tc = tcase_create("api");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, bundle_by_default);
  tcase_add_test(tc, text_forms);
  tcase_add_test(tc, spirv_form);
  tcase_add_test(tc, diagnostics_exact);
  tcase_add_test(tc, warnings);
  tcase_add_test(tc, macros_and_includes);
  tcase_add_test(tc, opencl_input);
  tcase_add_test(tc, bad_options);
  tcase_add_test(tc, bad_arguments);
  tcase_add_test(tc, from_file);
  tcase_add_test(tc, repeated);
  tcase_add_test(tc, threads);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
