// A kernel that only runs with 16x8 work-groups.
#define TX 16
__kernel __attribute__((reqd_work_group_size(TX, 8, 1))) void tile(__global float *a) {
  a[get_global_id(1) * get_global_size(0) + get_global_id(0)] *= 2.0f;
}
