/* libkcc.h — kcc's compiler as a library (the role NVRTC plays for CUDA, for every vendor):
 * compile a kernel source held in memory, with the kcc command line's options, to a bundle
 * (.kcb, what libkcrt loads) or to any other output form, in the calling process.
 *
 *   kcc_result *r;
 *   const char *opts[] = {"-O3", "-arch=sm_80"};
 *   kcc_status st = kcc_compile(src, strlen(src), "vecadd.k", opts, 2, &r);
 *   if (st == KCC_SUCCESS) {
 *     size_t size;
 *     const void *kcb = kcc_result_output(r, &size); // load with kcrt_module_load()
 *   } else if (r) {
 *     fputs(kcc_result_log(r), stderr);              // clang-style diagnostics
 *   }
 *   kcc_result_free(r);
 *
 * Every function may be called from any thread; compiles are serialised inside. Nothing is
 * written to stdout or stderr (except the timings the -v option asks for) and nothing exits
 * the process on a kernel error: the diagnostics are in the result. docs/libkcc.md has the
 * whole story. Link with -lkcc (pkg-config: libkcc; CMake: kcc::libkcc). */
#ifndef LIBKCC_H
#define LIBKCC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KCC_API_VERSION 1

typedef enum kcc_status {
  KCC_SUCCESS = 0,
  KCC_ERROR_COMPILE = 1,          /* the source has errors: kcc_result_log() says which */
  KCC_ERROR_INVALID_OPTION = 2,   /* an option is wrong or not for the library: in the log */
  KCC_ERROR_INVALID_ARGUMENT = 3, /* a NULL pointer, a negative count, a bad name: no result */
  KCC_ERROR_OUT_OF_MEMORY = 4,    /* no result */
} kcc_status;

typedef struct kcc_result kcc_result;

/* Compiles `size` bytes of `source` (need not be NUL-terminated). `name` names the source in
 * diagnostics and picks its language by extension as on the command line (.k: the kcc
 * dialect, .cl: OpenCL C; -x cl / -x k override); NULL means "kernel.k". Relative #includes
 * are found from the name's directory (the current directory for a bare name), then -I.
 * `options` (may be NULL when noptions is 0) are the command line's compile options:
 * --emit=FORM (bundle by default here), -arch=sm_XX[,...], -O0..-O3, -I DIR, -D NAME[=VALUE],
 * -U NAME, -x, -std=, -cl-std=, -Werror, -w, -W..., -ffast-math, -ffp-contract=, --prefix=,
 * --cuda-path=, -v. Options about files (-o, -MD, -MF, -MT, -MP) and the command line's
 * --help, --version, --devices are KCC_ERROR_INVALID_OPTION.
 *
 * *result is set for KCC_SUCCESS, KCC_ERROR_COMPILE and KCC_ERROR_INVALID_OPTION (free it with
 * kcc_result_free) and NULL otherwise. */
kcc_status kcc_compile(const char *source, size_t size, const char *name,
                       const char *const *options, int noptions, kcc_result **result);

/* The same for a file on disk, read by the compiler (what the kcc command line does). */
kcc_status kcc_compile_file(const char *path, const char *const *options, int noptions,
                            kcc_result **result);

/* The compile's status (what kcc_compile returned). */
kcc_status kcc_result_status(const kcc_result *r);
/* The output (a bundle unless --emit= named another form; text forms are NUL-terminated one
 * byte past *size), or NULL with *size = 0 when the compile failed. */
const void *kcc_result_output(const kcc_result *r, size_t *size);
/* The output form's name: "bundle", "ptx", "llvm", "spirv", "cl", "cuda", "header", "kir". */
const char *kcc_result_form(const kcc_result *r);
/* The diagnostics, as the kcc command line prints them ("file:line:col: error: ...", the
 * source line and a caret), or "" when there were none. Warnings appear on success too. */
const char *kcc_result_log(const kcc_result *r);
int kcc_result_error_count(const kcc_result *r);
int kcc_result_warning_count(const kcc_result *r);
/* The files the source included (for build systems), in the order read: index 0..count-1. */
int kcc_result_dependency_count(const kcc_result *r);
const char *kcc_result_dependency(const kcc_result *r, int index);
void kcc_result_free(kcc_result *r); /* NULL is fine */

/* "success", "compile error", ... */
const char *kcc_status_string(kcc_status status);
/* The compiler's version, "0.1.0": part of any cache key for compiled output. */
const char *kcc_version(void);

#ifdef __cplusplus
}
#endif

#endif
