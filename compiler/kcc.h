/* kcc.h — the compiler's stages as the driver sees them: options, output buffers, the front
 * end, the passes over KIR and the back ends. Each stage reports errors through diag.h and
 * returns false (or NULL) when it reported any. */
#ifndef KCC_KCC_H
#define KCC_KCC_H

#include "kir.h"

#include <stdarg.h>

#define KCC_VERSION "0.1.0"

typedef struct KBuf {
  char *data;
  size_t len, cap;
} KBuf;
void kbuf_append(KBuf *b, const void *data, size_t n);
void kbuf_puts(KBuf *b, const char *s);
void kbuf_printf(KBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kbuf_vprintf(KBuf *b, const char *fmt, va_list ap);
/* Appends the whole file at path to out; false if it cannot be opened or read. */
bool kcc_read_file(const char *path, KBuf *out);
/* Writes all of data to fd, retrying short writes and EINTR. */
bool kcc_write_all(int fd, const void *data, size_t len);
void kbuf_free(KBuf *b);

enum { KCC_MAX_ARCHS = 16, KCC_MAX_INSTANTIATIONS = 64 };

/* KOptions.lang: the input language. KL_LANG_AUTO picks it from the file's extension (.cl is
 * OpenCL C, .cu CUDA, anything else the kcc dialect); -x cl / -x cu / -x k name it. */
enum { KL_LANG_AUTO, KL_LANG_K, KL_LANG_CL, KL_LANG_CU };

typedef struct KOptions {
  int opt_level;            /* 0..3 */
  int narchs;               /* -arch=sm_90,sm_80: the first is the PTX target */
  int archs[KCC_MAX_ARCHS]; /* 75 for sm_75 */
  bool fast_math;           /* -ffast-math */
  bool fp_contract;         /* -ffp-contract=fast (default) vs off */
  bool werror;
  bool verbose;          /* -v: print stage timings and tool paths */
  const char *cuda_path; /* CUDA toolkit root for libdevice; NULL = search */
  /* Extra arguments for the C front end (-I, -D, -U), in order. */
  const char **cargs;
  int ncargs;
  const char *prefix; /* --prefix: names in the C header; NULL = from the file */
  int lang;           /* KL_LANG_*: how the front end parses the input */
  int cl_std;         /* OpenCL C input: 120, 200 or 300 (-cl-std=CL1.2...); 0 = 120 */
  /* The main file's text when it is not on disk (libkcc's kcc_compile): the front end parses
   * it as an unsaved file under the input's name. NULL: read the file. */
  const char *source;
  size_t source_len;
  bool bounds_check; /* -fbounds-check: check every memory access (bounds.h) */
  /* --instantiate=NAME<ARGS> (CUDA input): template specialisations to compile as kernels,
   * like NVRTC's name expressions, for a file that defines templates but never names them. */
  const char *instantiate[KCC_MAX_INSTANTIATIONS];
  int ninstantiate;
  /* The output form's refusal of a pointer that needs two address spaces ("the OpenCL C form
   * (.cl) needs one address space per pointer"), for the address-space pass's diagnostics;
   * NULL: "OpenCL C and SPIR-V need one address space per pointer". */
  const char *one_space;
} KOptions;

void kcc_options_default(KOptions *o);

/* Front end (frontend/): parses `path` with libclang and lowers it to KIR. `deps`, when not
 * NULL, receives every file the translation unit read (for -MD). Returns NULL on error. */
KModule *frontend_parse(const char *path, const KOptions *o, KList *deps);

/* Passes (compiler/): run in this order by kcc_compile_module(). */
bool pass_callgraph(KModule *m); /* callees, recursion check, shared memory per kernel */
/* Infers the address space of every pointer and specialises device functions per
 * combination of pointer-argument spaces. allow_generic: leave pointers that may point to
 * several spaces generic (PTX and CUDA C can); otherwise they are an error (OpenCL C 1.2,
 * SPIR-V), whose message ends with m->one_space. */
bool pass_addrspace(KModule *m, bool allow_generic);
/* For the forms with no generic pointer (OpenCL C, the OpenCL SPIR-V): reports the conflict
 * pass_addrspace left in m (KModule.space_error), naming `form` (the back end's, also within
 * a bundle), and says false; true when there is none. */
bool kcc_check_one_space(const KModule *m, const char *form);

/* Loops that are one instruction on every target (Kernighan's bit count) become it; none
 * at -O0 (idiom.c). */
void pass_idioms(KModule *m, const KOptions *o);

/* Kernel and constant-table names must be plain ASCII identifiers (limits.c says why). */
bool pass_names(KModule *m);

/* The whole middle: front end, then the passes. allow_generic as for pass_addrspace. */
KModule *kcc_compile_module(const char *path, const KOptions *o, KList *deps, bool allow_generic);

/* Limits of the output forms (limits.c, docs/dialect.md): each back end checks those of the
 * forms it writes before it starts, so a kernel over a limit gets a diagnostic at the
 * declaration instead of output the next tool rejects. */
enum {
  KL_PTX = 1,   /* PTX (and LLVM IR for NVPTX) */
  KL_CUDA = 2,  /* CUDA C */
  KL_SPIRV = 4, /* SPIR-V */
};
bool kcc_check_limits(const KModule *m, const KOptions *o, unsigned forms);
/* The PTX ISA version the module needs (78 for 7.8): 8.1 only where a kernel's parameters
 * pass the 4352 bytes older ISAs allow, which 8.1 lifts on sm_70 and newer. */
int kcc_ptx_isa(const KModule *m, const KOptions *o);

/* Back ends: append their output to `out`. */
bool emit_llvm_ir(KModule *m, const KOptions *o, KBuf *out); /* textual LLVM IR (.ll) */
bool emit_ptx(KModule *m, const KOptions *o, KBuf *out);     /* PTX for o->archs[0] */
/* CUDA C takes either; the back ends below it need a module compiled with allow_generic =
 * false. */
bool emit_cuda_c(KModule *m, const KOptions *o, KBuf *out);   /* CUDA C source (.cu) */
bool emit_opencl_c(KModule *m, const KOptions *o, KBuf *out); /* OpenCL C 1.2 source (.cl) */
bool emit_spirv(KModule *m, const KOptions *o, KBuf *out);    /* validated SPIR-V (.spv) */
/* Validated SPIR-V for Vulkan compute (.vk.spv): GLCompute entry points, parameters in push
 * constants, buffers through device addresses (docs/bundle.md, "Vulkan"). */
bool emit_spirv_vulkan(KModule *m, const KOptions *o, KBuf *out);
bool emit_bundle(KModule *m, const KOptions *o, KBuf *out); /* fat module (.kcb) */
/* C header (.h): typed launch functions and the embedded bundle (docs/cli.md). */
bool emit_header(KModule *m, const KOptions *o, KBuf *out);
/* emit_header with the module's bundle bytes given instead of made (NULL: made): for tests. */
bool emit_header_with_bundle(KModule *m, const KOptions *o, const KBuf *bundle, KBuf *out);

#endif
