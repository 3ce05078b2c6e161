// OpenCL 1.x atomics on __global and __local int/uint, and atomic_xchg on float.
__kernel void histogram(__global const uint *data, __global uint *bins, __global int *stats,
                        __global float *last, int n) {
  __local uint local_bins[16];
  uint l = get_local_id(0);
  if (l < 16) local_bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int i = get_global_id(0);
  if (i < n) {
    atomic_inc(&local_bins[data[i] & 15]);
    atomic_add(&stats[0], (int)data[i]);
    atomic_sub(&stats[1], 1);
    atomic_min(&stats[2], (int)data[i]);
    atomic_max(&stats[3], (int)data[i]);
    atomic_and(&stats[4], 0xff);
    atomic_or(&stats[5], 1);
    atomic_xor(&stats[6], i);
    atomic_dec(&stats[7]);
    atom_add(&stats[8], 2);
    atomic_cmpxchg(&stats[9], 0, i);
    atomic_xchg(&last[0], (float)i);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&bins[l], local_bins[l]);
}
