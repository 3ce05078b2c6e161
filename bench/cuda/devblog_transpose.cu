// devblog_transpose.cu — nvcc side of the corpus kernel tests/real/cuda/devblog_transpose.cu: the same file, its
// kernels given C names (as kcc names them) so that bench/wrap_cubin can match them.
extern "C" {
#include "../../tests/real/cuda/devblog_transpose.cu"
}
