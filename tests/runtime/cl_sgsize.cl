// kcc-args: -cl-std=CL2.0
/* cl_sgsize.cl — kernels with required subgroup sizes (cl_intel_required_subgroup_size):
 * 16 and 8, the same body in each (a macro: a function with subgroup calls serves one width
 * in the PTX and CUDA C forms, and the .cl prelude's ballot helpers, sub_group_ballot_bit_count
 * & co., are such functions: left out here), over every family of subgroup function kcc
 * implements.
 * tests/runtime/cl_sgsize.c checks each result against its model of N-wide subgroups. */
#ifndef cl_intel_required_subgroup_size
#error "kcc predefines cl_intel_required_subgroup_size"
#endif

enum { OUTS = 26 };

/* No subgroup calls: shared by both widths. */
static uint linear_local_id(void) {
  return (uint)(get_local_id(0) + get_local_size(0) * get_local_id(1));
}

#define SG_BODY(N)                                                                             \
  size_t gid = get_global_id(0) + get_global_size(0) * get_global_id(1);                      \
  __global int *o = out + gid * OUTS;                                                          \
  int v = in[gid];                                                                             \
  uint lid = get_sub_group_local_id(), n = get_sub_group_size();                               \
  o[0] = (int)n;                                                                               \
  o[1] = (int)get_max_sub_group_size();                                                        \
  o[2] = (int)get_num_sub_groups();                                                            \
  o[3] = (int)get_enqueued_num_sub_groups();                                                   \
  o[4] = (int)get_sub_group_id();                                                              \
  o[5] = (int)lid;                                                                             \
  o[6] = sub_group_broadcast(v, n - 1);                                                        \
  o[7] = sub_group_shuffle(v, (lid + 3) % n);                                                  \
  o[8] = sub_group_shuffle_xor(v, 1u);                                                         \
  o[9] = sub_group_shuffle_xor(v, (uint)(N / 2));                                              \
  o[10] = sub_group_reduce_add(v);                                                             \
  o[11] = sub_group_reduce_min(v);                                                             \
  o[12] = sub_group_reduce_max(v);                                                             \
  o[13] = sub_group_scan_inclusive_add(v);                                                     \
  o[14] = sub_group_scan_exclusive_add(v);                                                     \
  o[15] = sub_group_scan_inclusive_max(v);                                                     \
  o[16] = sub_group_scan_exclusive_min(v);                                                     \
  o[17] = sub_group_any(v > 400);                                                              \
  o[18] = sub_group_all(v > -450);                                                             \
  o[19] = (int)sub_group_ballot(v & 1).s0;                                                     \
  o[20] = (int)popcount(sub_group_ballot(v > 0).s0);                                          \
  o[21] = (int)sub_group_ballot(v < 0).s1;                                                     \
  o[22] = sub_group_shuffle_up(v, 1u);                                                         \
  o[23] = sub_group_shuffle_down(v, 2u);                                                       \
  lds[linear_local_id()] = v;                                                                  \
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);                                                      \
  o[24] = lds[linear_local_id() - lid + (lid + 1) % n];                                        \
  o[25] = sub_group_reduce_add(v & 0xff) + (int)sub_group_non_uniform_reduce_add(lid);

__kernel __attribute__((intel_reqd_sub_group_size(16))) void
sg16(__global int *out, __global const int *in, __local int *lds) {
  SG_BODY(16)
}

__kernel __attribute__((intel_reqd_sub_group_size(8))) void
sg8(__global int *out, __global const int *in, __local int *lds) {
  SG_BODY(8)
}
