// Work-group sum through a __local array and barriers.
#define WG 128
__kernel void reduce(__global const float *in, __global float *out, int n) {
  __local float part[WG];
  uint lid = get_local_id(0);
  size_t gid = get_global_id(0);
  part[lid] = gid < n ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = part[0];
}
