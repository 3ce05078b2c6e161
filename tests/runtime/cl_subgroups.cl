/* cl_subgroups.cl — OpenCL C subgroup functions (cl_khr_subgroups and the extended subgroup
 * extensions), run by cl_subgroups.c against a host model of the device's subgroups. Blocks
 * are one-dimensional; each work-item writes what it saw into its own rows. */

/* Where each work-item is: size, max size, count, id, local id, enqueued count. */
#define INFO 6

/* Every reduction and scan of the core extension, and broadcast, for one type. */
#define CORE(T, x, o, t, bl)                                                                   \
  do {                                                                                         \
    __global T *r = o + (size_t)(t) * 10;                                                      \
    r[0] = sub_group_reduce_add(x);                                                            \
    r[1] = sub_group_reduce_min(x);                                                            \
    r[2] = sub_group_reduce_max(x);                                                            \
    r[3] = sub_group_scan_inclusive_add(x);                                                    \
    r[4] = sub_group_scan_inclusive_min(x);                                                    \
    r[5] = sub_group_scan_inclusive_max(x);                                                    \
    r[6] = sub_group_scan_exclusive_add(x);                                                    \
    r[7] = sub_group_scan_exclusive_min(x);                                                    \
    r[8] = sub_group_scan_exclusive_max(x);                                                    \
    r[9] = sub_group_broadcast(x, bl);                                                         \
  } while (0)

__kernel void sg_core(__global uint *info, __global const int *xi, __global int *oi,
                      __global const uint *xu, __global uint *ou, __global const long *xl,
                      __global long *ol, __global const ulong *xul, __global ulong *oul,
                      __global const float *xf, __global float *of, __global const double *xd,
                      __global double *od, __global const char *xc, __global char *oc,
                      __global const ushort *xs, __global ushort *os) {
  size_t t = get_global_id(0);
  uint n = get_sub_group_size();
  __global uint *w = info + t * INFO;
  w[0] = n;
  w[1] = get_max_sub_group_size();
  w[2] = get_num_sub_groups();
  w[3] = get_sub_group_id();
  w[4] = get_sub_group_local_id();
#if __OPENCL_C_VERSION__ >= 200
  w[5] = get_enqueued_num_sub_groups();
#else
  w[5] = get_num_sub_groups();
#endif
  /* A lane every work-item of the subgroup names alike. */
  uint bl = (uint)(get_group_id(0) * 7 + get_sub_group_id() * 3) % n;
  CORE(int, xi[t], oi, t, bl);
  CORE(uint, xu[t], ou, t, bl);
  CORE(long, xl[t], ol, t, bl);
  CORE(ulong, xul[t], oul, t, bl);
  CORE(float, xf[t], of, t, bl);
  CORE(double, xd[t], od, t, bl);
#ifndef KCC_SG_CORE_ONLY /* see cl_subgroups.c */
  /* cl_khr_subgroup_extended_types: char and ushort (the first lane's exclusive min and max
     are the type's own limits). */
  CORE(char, xc[t], oc, t, bl);
  CORE(ushort, xs[t], os, t, bl);
#endif
}

/* Rows of sg_more: one int per result. */
#define MORE 43

__kernel void sg_more(__global int *o, __global const int *x) {
  size_t t = get_global_id(0);
  __global int *r = o + t * MORE;
  int v = x[t];
  uint l = get_sub_group_local_id(), n = get_sub_group_size();
  for (int i = 0; i < MORE; i++) r[i] = 0x5a5a5a5a;
  /* Votes. */
  r[0] = sub_group_all(v > -90);
  r[1] = sub_group_any(v == 7);
  /* Shuffles: only lanes that exist are read (OpenCL leaves the others undefined). */
  r[2] = sub_group_shuffle(v, (l * 7 + 3) % n);
  r[3] = sub_group_shuffle_xor(v, 1u);
#ifndef KCC_SG_CORE_ONLY
  r[4] = sub_group_shuffle_up(v, 3u);
  r[5] = sub_group_shuffle_down(v, 2u);
#endif
  /* Ballots. */
  uint4 b = sub_group_ballot(v & 1);
  r[6] = (int)b.x;
  r[7] = (int)b.y;
  r[8] = sub_group_inverse_ballot(b);
  r[9] = sub_group_ballot_bit_extract(b, (l + 5) % n);
  r[10] = (int)sub_group_ballot_bit_count(b);
  r[11] = (int)sub_group_ballot_inclusive_scan(b);
  r[12] = (int)sub_group_ballot_exclusive_scan(b);
  r[13] = (int)sub_group_ballot_find_lsb(sub_group_ballot((v & 1) || l == n - 1));
  r[14] = (int)sub_group_ballot_find_msb(sub_group_ballot((v & 1) || l == 0));
  r[15] = (int)get_sub_group_eq_mask().x;
  r[16] = (int)get_sub_group_ge_mask().x;
  r[17] = (int)get_sub_group_gt_mask().x;
  r[18] = (int)get_sub_group_le_mask().x;
  r[19] = (int)get_sub_group_lt_mask().x;
#ifndef KCC_SG_CORE_ONLY
  /* Clustered reductions (all lanes active). */
  r[20] = sub_group_clustered_reduce_add(v, 4);
  r[21] = sub_group_clustered_reduce_max(v, 8);
  r[22] = sub_group_clustered_reduce_logical_or(v == 3, 2);
  /* Rotations (cl_khr_subgroup_rotate), down and up, and within clusters of 4. */
  r[40] = sub_group_rotate(v, 3);
  r[41] = sub_group_rotate(v, -5);
  r[42] = sub_group_clustered_rotate(v, -1, 4);
  /* The non-uniform functions, in the lanes whose value is not a multiple of 3. */
  if (v % 3 != 0) {
    r[23] = sub_group_non_uniform_reduce_add(v);
    r[24] = sub_group_non_uniform_reduce_mul(v % 4 + 2);
    r[25] = sub_group_non_uniform_reduce_min(v);
    r[26] = sub_group_non_uniform_reduce_max(v);
    r[27] = sub_group_non_uniform_reduce_and(v | 0x0f0f00);
    r[28] = sub_group_non_uniform_reduce_or(v & 0x00ff00ff);
    r[29] = sub_group_non_uniform_reduce_xor(v);
    r[30] = sub_group_non_uniform_reduce_logical_and(v > -50);
    r[31] = sub_group_non_uniform_reduce_logical_or(v == 8);
    r[32] = sub_group_non_uniform_reduce_logical_xor(v & 2);
    r[33] = sub_group_non_uniform_scan_inclusive_add(v);
    r[34] = sub_group_non_uniform_scan_exclusive_max(v);
    r[35] = sub_group_non_uniform_all_equal(v > 0 ? 1 : 2);
    r[36] = sub_group_broadcast_first(v);
    r[37] = sub_group_elect();
    r[38] = sub_group_non_uniform_all(v != 5);
    r[39] = sub_group_non_uniform_any(v == -7);
  }
#endif
}
