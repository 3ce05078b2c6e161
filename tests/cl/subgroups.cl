/* OpenCL C subgroups: cl_khr_subgroups and the extended subgroup extensions, every function
 * family on its types (the runtime test tests/runtime/cl_subgroups.c checks the values). */

#define CORE(T)                                                                                \
  __kernel void core_##T(__global T *o, __global const T *x, uint lane) {                     \
    size_t i = get_global_id(0);                                                               \
    T v = x[i];                                                                                \
    o[i] = sub_group_reduce_add(v) + sub_group_reduce_min(v) + sub_group_reduce_max(v) +      \
           sub_group_scan_inclusive_add(v) + sub_group_scan_inclusive_min(v) +                 \
           sub_group_scan_inclusive_max(v) + sub_group_scan_exclusive_add(v) +                 \
           sub_group_scan_exclusive_min(v) + sub_group_scan_exclusive_max(v) +                 \
           sub_group_broadcast(v, lane);                                                       \
  }
CORE(int)
CORE(uint)
CORE(long)
CORE(ulong)
CORE(float)
CORE(double)
/* cl_khr_subgroup_extended_types */
CORE(char)
CORE(uchar)
CORE(short)
CORE(ushort)

__kernel __attribute__((intel_reqd_sub_group_size(32))) void queries(__global uint *o) {
  size_t i = get_global_id(0);
  o[i * 6 + 0] = get_sub_group_size();
  o[i * 6 + 1] = get_max_sub_group_size();
  o[i * 6 + 2] = get_num_sub_groups();
  o[i * 6 + 3] = get_sub_group_id();
  o[i * 6 + 4] = get_sub_group_local_id();
#if __OPENCL_C_VERSION__ >= 200
  o[i * 6 + 5] = get_enqueued_num_sub_groups();
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
#endif
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
}

/* Votes, ballots, shuffles; broadcasts of vectors. */
__kernel void exchange(__global int *o, __global const float4 *f, __global float4 *g,
                       __global const int *x) {
  size_t i = get_global_id(0);
  int v = x[i];
  uint l = get_sub_group_local_id();
  uint4 b = sub_group_ballot(v > 0);
  o[i] = sub_group_all(v) + sub_group_any(v) + sub_group_inverse_ballot(b) +
         sub_group_ballot_bit_extract(b, 3) + (int)sub_group_ballot_bit_count(b) +
         (int)sub_group_ballot_inclusive_scan(b) + (int)sub_group_ballot_exclusive_scan(b) +
         (int)sub_group_ballot_find_lsb(b) + (int)sub_group_ballot_find_msb(b) +
         (int)(get_sub_group_eq_mask().x ^ get_sub_group_ge_mask().y ^ get_sub_group_gt_mask().z ^
               get_sub_group_le_mask().w ^ get_sub_group_lt_mask().x) +
         sub_group_shuffle(v, l ^ 3) + sub_group_shuffle_xor(v, 1) + sub_group_shuffle_up(v, 1) +
         (int)sub_group_shuffle_down((ulong)v, 2) + (int)sub_group_shuffle((double)v, 0);
  g[i] = sub_group_broadcast(f[i], 2) + sub_group_non_uniform_broadcast(f[i], 1);
}

/* The non-uniform and clustered functions, in a divergent branch. */
__kernel void nonuniform(__global int *o, __global double *d, __global const int *x) {
  size_t i = get_global_id(0);
  int v = x[i];
  if (v & 1) {
    o[i] = sub_group_elect() + sub_group_non_uniform_all(v) + sub_group_non_uniform_any(v) +
           sub_group_non_uniform_all_equal(v) + sub_group_broadcast_first(v) +
           sub_group_non_uniform_reduce_add(v) + sub_group_non_uniform_reduce_mul(v) +
           sub_group_non_uniform_reduce_min(v) + sub_group_non_uniform_reduce_max(v) +
           sub_group_non_uniform_reduce_and(v) + sub_group_non_uniform_reduce_or(v) +
           sub_group_non_uniform_reduce_xor(v) + sub_group_non_uniform_reduce_logical_and(v) +
           sub_group_non_uniform_reduce_logical_or(v) +
           sub_group_non_uniform_reduce_logical_xor(v) +
           sub_group_non_uniform_scan_inclusive_mul(v) +
           sub_group_non_uniform_scan_exclusive_xor(v) +
           sub_group_clustered_reduce_add(v, 4) + sub_group_clustered_reduce_max(v, 16) +
           sub_group_clustered_reduce_logical_xor(v, 2) +
           (int)sub_group_non_uniform_all_equal((char)v);
    d[i] = sub_group_non_uniform_reduce_mul(d[i]) + sub_group_clustered_reduce_min(d[i], 8) +
           sub_group_non_uniform_scan_inclusive_max(d[i]);
  }
}
