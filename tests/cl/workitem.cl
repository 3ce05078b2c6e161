// Work-item functions on a 2D grid, constant and run-time dimensions.
__kernel void transpose(__global const float *in, __global float *out, int width, int height) {
  size_t x = get_global_id(0), y = get_global_id(1);
  if (x < width && y < height) out[x * height + y] = in[y * width + x];
}
__kernel void ids(__global ulong *o, uint d) {
  size_t i = get_global_id(0) + get_global_id(1) * get_global_size(0);
  o[i] = get_group_id(1) * get_num_groups(0) + get_local_size(1) + get_global_offset(0) +
         get_global_id(d) + get_local_id(3) + get_num_groups(3);
  mem_fence(CLK_LOCAL_MEM_FENCE);
  read_mem_fence(CLK_GLOBAL_MEM_FENCE);
}
