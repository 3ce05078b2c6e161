// kcc-args: -cl-std=CL2.0
// OpenCL C 2.0's work-group functions (frontend/opencl/cl_workgroup.c): collectives over the module's
// one __local scratch, which reaches the helper through its trailing __local parameter in the
// OpenCL C form; the 2.0 work-item functions; cl_khr_integer_dot_product (frontend/opencl/cl_lib.c).
static float top(float x) { return work_group_scan_exclusive_max(x); }

__kernel void wgfn(__global const int *in, __global const float *f, __global int *o,
                   __global float *of) {
  size_t g = get_global_linear_id();
  int x = in[g];
  o[g] = work_group_reduce_add(x) + work_group_broadcast(x, 1, 0) + work_group_all(x > 0) +
         (int)get_local_linear_id() + (int)get_enqueued_local_size(1);
  of[g] = top(f[g]);
  o[g + 1] += dot_acc_sat(as_char4(x), as_uchar4(x), x) + (int)dot_4x8packed_uu_uint((uint)x, 7u);
}
