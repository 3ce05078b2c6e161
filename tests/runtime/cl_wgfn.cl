// kcc-args: -cl-std=CL2.0
// cl_wgfn.cl — OpenCL C 2.0's work-group functions (frontend/opencl/cl_workgroup.c), run by
// tests/runtime/cl_wgfn.c against a host reference on 1D, 2D and 3D work-groups of several
// sizes: every collective (reduce, inclusive and exclusive scan of add, min and max; broadcast
// in its 1D, 2D and 3D forms) on each type, work_group_all/any, and the work-item functions
// get_local_linear_id, get_global_linear_id, get_enqueued_local_size.

// The linear id of the work-group (sel holds 5 values per group, chosen by the host).
static size_t group_linear_id(void) {
  return get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
}

// A collective called from a helper function: the scratch reaches it as a __local argument.
#define HELPER(T)                                                                                  \
  static T max_of_##T(T x) { return work_group_reduce_max(x); }

#define COLLECTIVES(T)                                                                             \
  HELPER(T)                                                                                        \
  __kernel void wg_##T(__global const T *in, __global T *out, __global const ulong *sel) {         \
    size_t g = get_global_linear_id();                                                             \
    __global const ulong *s = sel + 5 * group_linear_id();                                         \
    T x = in[g];                                                                                   \
    __global T *o = out + 12 * g;                                                                  \
    o[0] = work_group_reduce_add(x);                                                               \
    o[1] = work_group_reduce_min(x);                                                               \
    o[2] = max_of_##T(x);                                                                          \
    o[3] = work_group_scan_inclusive_add(x);                                                       \
    o[4] = work_group_scan_inclusive_min(x);                                                       \
    o[5] = work_group_scan_inclusive_max(x);                                                       \
    o[6] = work_group_scan_exclusive_add(x);                                                       \
    o[7] = work_group_scan_exclusive_min(x);                                                       \
    o[8] = work_group_scan_exclusive_max(x);                                                       \
    o[9] = work_group_broadcast(x, s[0]);                                                          \
    o[10] = work_group_broadcast(x, s[0], s[1]);                                                   \
    o[11] = work_group_broadcast(x, s[0], s[1], s[2]);                                             \
  }

COLLECTIVES(int)
COLLECTIVES(uint)
COLLECTIVES(long)
COLLECTIVES(ulong)
COLLECTIVES(float)
COLLECTIVES(double)
COLLECTIVES(half)

// all and any on predicates the host makes true or false per group (s[3]: a threshold every
// value or all but some pass; s[4]: a value that is or is not in the group), and the
// work-item functions.
__kernel void wg_pred(__global const int *in, __global int *out, __global const ulong *sel) {
  size_t g = get_global_linear_id();
  __global const ulong *s = sel + 5 * group_linear_id();
  int x = in[g];
  __global int *o = out + 8 * g;
  o[0] = work_group_all(x >= (int)s[3]);
  o[1] = work_group_any(x == (int)s[4]);
  o[2] = work_group_all(1) != 0 && !work_group_any(0);
  o[3] = (int)get_local_linear_id();
  o[4] = (int)g;
  o[5] = (int)get_enqueued_local_size(0);
  o[6] = (int)get_enqueued_local_size(1);
  o[7] = (int)get_enqueued_local_size(2);
}
