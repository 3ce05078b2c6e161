__kernel __attribute__((intel_reqd_sub_group_size(16))) void k(__global int *o) {
  o[0] = sub_group_reduce_add(o[1]);
}
