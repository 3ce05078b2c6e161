// Vectors read and written through volatile pointers, in every address space a kernel can
// name: the CUDA C form copies them element by element (kcc_vread, kcc_vec's volatile
// operator=), which nvcc must accept.
kernel void volatile_vectors(volatile global float4 *io, volatile global int2 *ij,
                             global float4 *out, int n) {
  volatile local float4 tile[64];
  int i = get_global_id(0), l = get_local_id(0) & 63;
  if (i >= n) return;
  float4 v = io[i];
  tile[l] = v + 1.0f;
  io[i] = v * 2.0f;
  ij[i] = ij[i] + (int2)(1, 2);
  out[i] = io[i] + tile[l];
}
