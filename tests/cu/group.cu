// group.cu — a whole-block cooperative_groups::thread_group passed to a device function (as
// CUDA's reduction samples do): every form, SPIR-V and OpenCL C included, since no call makes
// a thread_group that holds a tile (whose sync() is a partial-warp barrier).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float group_sum(cg::thread_group g, float *s, float v) {
  unsigned r = g.thread_rank();
  s[r] = v;
  g.sync();
  for (unsigned k = g.size() / 2; k > 0; k /= 2) {
    if (r < k) s[r] += s[r + k];
    g.sync();
  }
  return s[0];
}

__global__ void block_sums(const float *in, float *out) {
  __shared__ float s[256];
  cg::thread_block b = cg::this_thread_block();
  float t = group_sum(b, s, in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (b.thread_rank() == 0) out[blockIdx.x] = t;
}
