"""numba's first kernel, with only the import changed: every thread prints its indices.
Launched [2, 4]: two blocks of four threads, eight lines (in no particular order between
threads, as on every GPU)."""
from kcc import cuda  # numba: from numba import cuda


@cuda.jit
def print_ids():
    print("threadIdx.x", cuda.threadIdx.x, "blockIdx.x", cuda.blockIdx.x,
          "blockDim.x", cuda.blockDim.x, "gridDim.x", cuda.gridDim.x)


print_ids[2, 4]()
cuda.synchronize()  # device output appears when the kernel has finished
