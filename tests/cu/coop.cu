// Warp-level cooperative groups: tiles, shuffles (of a vector type too), votes, coalesced
// groups. PTX, CUDA C and OpenCL C 2.0 (subgroups) express them; SPIR-V 1.0 cannot.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_reduce(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = in[block.thread_rank() + blockIdx.x * blockDim.x];
  int sum = cg::reduce(tile, v, cg::plus<int>());
  for (int d = tile.size() / 2; d > 0; d /= 2) v += tile.shfl_down(v, d);
  if (tile.thread_rank() == 0) {
    out[2 * (blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank())] = sum;
    out[2 * (blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank()) + 1] = v;
  }
}

__global__ void votes(const int *in, unsigned *out) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[threadIdx.x];
  unsigned b = tile.ballot(v > 0);
  float4 f = make_float4(v, 2 * v, 3 * v, 4 * v);
  float4 g = tile.shfl_xor(f, 1);
  cg::coalesced_group active = cg::coalesced_threads();
  if (v > 0) out[threadIdx.x] = b + (unsigned)g.w + active.size();
}
