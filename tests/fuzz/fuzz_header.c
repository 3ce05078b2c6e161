/* fuzz_header.c — libFuzzer harness for the C header generator: bytes as a .k file, compiled
 * in process and written as a header (emit_header: launch functions, argument tables and the
 * embedded bundle), which must compile as C11, C99 -pedantic and C++11 with -Wall and no
 * warning (clang through libclang, in process). The input's last byte also picks the options
 * and whether a --prefix is given. */
#include "fuzz_common.h"

#include "diag.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  fz_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 100000) return 0;
  const char *path = fz_write_input("in.k", data, size);
  KOptions o;
  fz_options(&o, data, size);
  if (size && (data[size - 1] & 16)) o.prefix = "fz";
  fz_quiet();
  diag_reset();
  KModule *m = kcc_compile_module(path, &o, NULL, false);
  if (m && fz_has_kernel(m)) {
    KBuf out = {0};
    if (fz_emit(emit_header, m, &o, &out)) fz_check_header(&out);
    kbuf_free(&out);
  }
  kir_free_all();
  diag_reset();
  fz_loud();
  return 0;
}
