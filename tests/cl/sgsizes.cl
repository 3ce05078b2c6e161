/* Required subgroup sizes 8, 16 and 32 in one module (cl_intel_required_subgroup_size): every
 * form takes them; PTX and CUDA C make segments of 8 and 16 lanes of a warp. scale() has no
 * subgroup calls and serves every width; each sum_*() serves one (its kernel's). */
#ifndef cl_intel_required_subgroup_size
#error "kcc predefines cl_intel_required_subgroup_size"
#endif

static float scale(float x) {
  return x * 0.5f;
}

static float sum_8(float x) {
  return sub_group_reduce_add(x) + sub_group_scan_exclusive_add(x);
}
static float sum_16(float x) {
  return sub_group_reduce_max(x) + sub_group_shuffle_xor(x, 5u);
}

__kernel __attribute__((intel_reqd_sub_group_size(8))) void k8(__global float *o) {
  size_t i = get_global_id(0);
  o[i] = sum_8(scale(o[i])) + (float)get_sub_group_id() + (float)sub_group_all(o[i] > 0.0f);
}

__kernel __attribute__((intel_reqd_sub_group_size(16))) void k16(__global float *o) {
  size_t i = get_global_id(0);
  o[i] =
      sum_16(scale(o[i])) + (float)get_num_sub_groups() + (float)sub_group_ballot(o[i] > 1.0f).s0;
}

__kernel __attribute__((intel_reqd_sub_group_size(32))) void k32(__global float *o) {
  size_t i = get_global_id(0);
  o[i] = scale(sub_group_scan_inclusive_min(o[i])) + (float)get_sub_group_local_id();
}
