/* fuzz_compile.c — libFuzzer harness: bytes as a kernel file (.k, .cl with -DFUZZ_CL, .cu with
 * -DFUZZ_CU) through
 * the front end, the passes and every back end, in process. Each output goes through its
 * checker: SPIR-V through SPIRV-Tools (emit_spirv validates; a rejection is an internal
 * compiler error, which crashes here), OpenCL C through clang's OpenCL C 1.2 parser, and with
 * KCC_FUZZ_TOOLS=1 the PTX through ptxas and the CUDA C through nvcc (the C header has its
 * own harness, fuzz_header.c). A crash, a sanitizer report, an internal compiler error or a
 * rejected output is a finding; diagnostics for bad input are not. */
#include "fuzz_common.h"

#include "diag.h"

#ifdef FUZZ_CL
#define FUZZ_NAME "in.cl"
#define FUZZ_LANG KL_LANG_CL
#elif defined FUZZ_CU
#define FUZZ_NAME "in.cu"
#define FUZZ_LANG KL_LANG_CU
#else
#define FUZZ_NAME "in.k"
#define FUZZ_LANG KL_LANG_K
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  fz_init();
  return 0;
}

static void emit_all(KModule *m, const KOptions *o) {
  KBuf out = {0};
  if (fz_emit(emit_opencl_c, m, o, &out)) fz_check_opencl_c(&out);
  kbuf_free(&out);
  if (fz_emit(emit_cuda_c, m, o, &out)) fz_check_cuda(&out);
  kbuf_free(&out);
  fz_emit(emit_spirv, m, o, &out);
  kbuf_free(&out);
  fz_emit(emit_bundle, m, o, &out); /* PTX, SPIR-V and OpenCL C again, and the tables */
  kbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 100000) return 0;
  const char *path = fz_write_input(FUZZ_NAME, data, size);
  KOptions o;
  fz_options(&o, data, size);
  o.lang = FUZZ_LANG;
  fz_quiet();
  diag_reset();
  /* The forms that need one address space per pointer (OpenCL C, SPIR-V, bundle, header),
   * and CUDA C, which takes either compile; then PTX, LLVM IR and CUDA C again (the .cu
   * form's), which accept generic pointers, from their own compile. */
  KModule *m = kcc_compile_module(path, &o, NULL, false);
  if (m && fz_has_kernel(m)) emit_all(m, &o);
  kir_free_all();
  diag_reset();
  m = kcc_compile_module(path, &o, NULL, true);
  if (m && fz_has_kernel(m)) {
    KBuf out = {0};
    if (fz_emit(emit_ptx, m, &o, &out)) fz_check_ptx(&out);
    kbuf_free(&out);
    fz_emit(emit_llvm_ir, m, &o, &out);
    kbuf_free(&out);
    if (fz_emit(emit_cuda_c, m, &o, &out)) fz_check_cuda(&out);
    kbuf_free(&out);
  }
  kir_free_all();
  diag_reset();
  fz_loud();
  return 0;
}
