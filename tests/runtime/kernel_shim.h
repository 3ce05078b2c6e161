/* kernel_shim.h — lets a host reference #include a corpus kernel (tests/kernels/NAME.k) and
 * call its device functions as plain C, so the reference is the very code kcc compiled, run
 * by the host compiler. Kernels become unused static functions; the builtins they mention
 * exist but are never meaningful on the host (only device functions are called). */
#ifndef KCC_KERNEL_SHIM_H
#define KCC_KERNEL_SHIM_H

#include <limits.h>
#include <math.h>
#include <stddef.h>

#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"

#define kernel          static __attribute__((unused))
#define shared          static
#define constant        static const
#define __syncthreads() ((void)0)

static struct { unsigned int x, y, z; } threadIdx, blockIdx, blockDim, gridDim;

#endif
