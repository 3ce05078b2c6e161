/* repeat.c — `repeat N [OPTION...]`: compiles a vector add N times through libkcc.so (every
 * tenth compile a kernel with an error instead), checks every result, and checks that libkcc
 * wrote nothing to stderr. Run under valgrind by libkcc.valgrind (tests/libkcc.cmake): a leak
 * per compile shows as N lost blocks. Exit 0 when all is well. */
#define _GNU_SOURCE
#include <libkcc.h>

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
static const char *bad = "kernel void k(int *p) { p[0] = q; }\n";
static const char *bad_log = "bad.k:1:32: error: use of undeclared identifier 'q'\n"
                             "kernel void k(int *p) { p[0] = q; }\n"
                             "                               ^\n";

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  const char *const *opts = (const char *const *)argv + 2;
  int nopts = argc > 2 ? argc - 2 : 0;
  /* Whatever libkcc writes to stderr lands in this file, which must stay empty. */
  char errpath[] = "/tmp/libkcc-stderr-XXXXXX";
  int errfd = mkstemp(errpath);
  int saved = dup(2);
  if (errfd < 0 || saved < 0 || dup2(errfd, 2) < 0) return 2;
  char *first = NULL;
  size_t first_size = 0;
  int failures = 0;
  for (int i = 0; i < n; i++) {
    kcc_result *r;
    bool err = i % 10 == 9;
    kcc_status st = err ? kcc_compile(bad, strlen(bad), "bad.k", opts, nopts, &r)
                        : kcc_compile(vecadd, strlen(vecadd), "vecadd.k", opts, nopts, &r);
    size_t size;
    const void *out = kcc_result_output(r, &size);
    bool ok;
    if (err) {
      ok = st == KCC_ERROR_COMPILE && !strcmp(kcc_result_log(r), bad_log) && !out;
    } else if (!first) {
      ok = st == KCC_SUCCESS && out && (first = malloc(size)) != NULL;
      if (ok) memcpy(first, out, first_size = size);
    } else {
      ok = st == KCC_SUCCESS && size == first_size && !memcmp(out, first, size);
    }
    if (!ok && failures++ < 5)
      dprintf(saved, "repeat: compile %d: status %d, log:\n%s\n", i, st, kcc_result_log(r));
    kcc_result_free(r);
  }
  free(first);
  fflush(stderr);
  struct stat st;
  fstat(errfd, &st);
  dup2(saved, 2);
  close(saved);
  close(errfd);
  if (st.st_size) {
    fprintf(stderr, "repeat: libkcc wrote %lld bytes to stderr (kept in %s)\n",
            (long long)st.st_size, errpath);
    failures++;
  } else {
    unlink(errpath);
  }
  printf("repeat: %d compiles, %d failures\n", n, failures);
  return failures ? 1 : 0;
}
