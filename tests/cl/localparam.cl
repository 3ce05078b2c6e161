// Local memory sized at launch: a __local pointer parameter.
__kernel void stage(__global const int *in, __global int *out, __local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}
