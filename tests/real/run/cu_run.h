/* cu_run.h — runs a CUDA kernel of the registry corpus (tests/real/run/cu_EXPECT names it)
 * through kcc's bundle and libkcrt, and checks it against a host reference in C.
 *
 * The CUDA originals cannot run here (no NVIDIA driver on PoCL machines), so unlike real_run
 * (tests/real/run/real_run.h) there is one path: kcc's bundle on the runtime's default device
 * ($KCC_DEVICE: PoCL here, the CUDA driver on a GPU machine). Every case (cu_cases.c) makes
 * fresh random inputs (seed printed on failure; KCRT_TEST_SEED repeats a run), launches the
 * kernels with the grid, block and dynamic shared memory the original host code uses (noted
 * at each case), and compares every output element with a C reference: integers bit for bit,
 * floats within the bound stated at each comparison.
 *
 *   real_cu_run NAME BUNDLE.kcb
 *
 * Kernels are looked up by their source name (what `__global__ void NAME(` says); the runner
 * writes `__constant__` variables that the original host code fills with cudaMemcpyToSymbol
 * through kcrt_module_symbol. Exit status: 0 pass, 1 fail, 2 usage, 77 no device. */
#ifndef KCC_CU_RUN_H
#define KCC_CU_RUN_H

#include "rt_common.h"

#include <stddef.h>
#include <stdint.h>

#define A_BUF(b) KCRT_ARG_BUFFER(b)
#define A_VAL(v) KCRT_ARG_VALUE(v)

/* grid and block as CUDA's dim3 */
static inline kcrt_dim3 cu_dim(uint64_t x, uint64_t y, uint64_t z) {
  kcrt_dim3 d = {x, y, z};
  return d;
}

/* Launches kernel `name` of the bundle with `dyn` bytes of dynamic shared memory (the third
 * <<<>>> argument) and waits for it. */
void cu_launch(Rt *rt, const char *name, kcrt_dim3 grid, kcrt_dim3 block, size_t dyn,
               const kcrt_arg *args, int nargs);
/* Writes a host-filled `__constant__` (or `__device__`) variable: cudaMemcpyToSymbol. */
void cu_symbol_write(Rt *rt, const char *name, const void *data, size_t size);

/* Fills with uniform random values. */
void cu_fill_f32(Rt *rt, float *p, size_t n, float lo, float hi);
void cu_fill_i32(Rt *rt, int32_t *p, size_t n, int lo, int hi);

typedef struct CuCase {
  const char *name;
  void (*run)(Rt *rt);
} CuCase;
extern const CuCase cu_cases[];
extern const int cu_ncases;

#endif
