// cl_workitem.cl — OpenCL C work-item functions, run by tests/runtime/cl_workitem.c on 1-, 2-
// and 3-dimensional launches: every id, size and count, with the dimension known at compile
// time and at run time (including dimensions past get_work_dim()), and get_work_dim() itself.
__kernel void workitem(__global uint *o, uint d) {
  size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  size_t flat = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
  __global uint *r = o + flat * 12;
  r[0] = get_work_dim();
  r[1] = (uint)get_global_id(d);
  r[2] = (uint)get_local_id(d);
  r[3] = (uint)get_group_id(d);
  r[4] = (uint)get_global_size(d);
  r[5] = (uint)get_local_size(d);
  r[6] = (uint)get_num_groups(d);
  r[7] = (uint)get_global_offset(d);
  r[8] = (uint)(get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2));
  r[9] = (uint)(get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2));
  r[10] = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
  r[11] = (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2));
}
