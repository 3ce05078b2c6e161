/* host_ref.c — host references for spirv_run made from the kernels themselves: control.k,
 * int64.k and constant.k are plain C once the dialect's keywords and thread indices are
 * defined, so the host runs the very same source over the grid, one thread at a time (these
 * kernels use neither shared memory nor barriers). */
#include <stddef.h>

typedef struct {
  unsigned int x, y, z;
} kcc_dim3;
static kcc_dim3 threadIdx, blockIdx, blockDim, gridDim;

#define kernel   static
#define constant static const

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "../kernels/constant.k"
#include "../kernels/control.k"
#include "../kernels/int64.k"
#pragma GCC diagnostic pop

#include "host_ref.h"

/* Every thread of a 1-D grid, in order. */
#define FOR_GRID(nthreads, blk, body)                                                              \
  do {                                                                                             \
    blockDim.x = (blk), blockDim.y = blockDim.z = 1;                                               \
    gridDim.x = ((nthreads) + (blk)-1) / (blk), gridDim.y = gridDim.z = 1;                         \
    for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++)                                     \
      for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++) body;                         \
  } while (0)

void ref_control(const int *in, int *out, int n) {
  FOR_GRID((unsigned)n, 64u, control(in, out, n));
}

void ref_int64(const long *in, unsigned long *out, int n) {
  FOR_GRID((unsigned)n, 256u, int64_ops(in, out, n));
}

void ref_lookup(const unsigned int *in, float *out, int n) {
  FOR_GRID((unsigned)n, 128u, lookup(in, out, n));
}
