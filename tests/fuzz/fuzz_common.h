/* fuzz_common.h — what kcc's libFuzzer harnesses share (tests/fuzz/, docs/testing.md): the
 * input written to a file for the front end, kcc's diagnostics kept off the terminal, an
 * internal compiler error turned into a crash (linked with -Wl,--wrap=diag_ice), and checkers
 * of the outputs that run in process (clang's OpenCL C and C parsers through libclang) or, with
 * KCC_FUZZ_TOOLS=1, as programs (ptxas, nvcc: the slower secondary mode). */
#ifndef KCC_FUZZ_COMMON_H
#define KCC_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kcc.h"

/* Once per process: a private directory for the inputs and the checkers' files. */
void fz_init(void);
/* Writes the input to DIR/NAME and returns that path. */
const char *fz_write_input(const char *name, const uint8_t *data, size_t size);
/* kcc's diagnostics go to /dev/null between fz_quiet() and fz_loud(). */
void fz_quiet(void);
void fz_loud(void);
/* Options from the input's last byte (optimisation level, fast math, contraction), so that
 * the fuzzer explores them too. */
void fz_options(KOptions *o, const uint8_t *data, size_t size);
bool fz_has_kernel(const KModule *m);
/* Each prints what it rejects, with the text, and aborts: a finding. */
void fz_check_opencl_c(const KBuf *cl);
/* The C header as C11 -Wall, C99 -pedantic -Wall and C++11 -Wall, as host programs include
 * it (warnings are findings: the test suite builds headers with -Werror). */
void fz_check_header(const KBuf *h);
void fz_check_ptx(const KBuf *ptx); /* ptxas, only with KCC_FUZZ_TOOLS=1 */
void fz_check_cuda(const KBuf *cu); /* nvcc, only with KCC_FUZZ_TOOLS=1 */
/* Calls an emitter; true when it produced output without reporting an error. */
bool fz_emit(bool (*emit)(KModule *, const KOptions *, KBuf *), KModule *m, const KOptions *o,
             KBuf *out);

#endif
