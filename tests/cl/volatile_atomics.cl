// OpenCL 1.x atomics on volatile pointers, as OpenCL C declares them (global and local, 32-
// and 64-bit, float exchange): CUDA's atomics take plain pointers, so the CUDA C form casts.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void k(volatile __global int *p, volatile __local int *l, __global int *q,
                volatile __global long *lp, volatile __global unsigned int *up, volatile __global float *fp) {
  atomic_add(p, 1);
  atomic_inc(p + 1);
  atomic_dec(p + 5);
  atom_add(q, 2);
  atomic_cmpxchg(p + 2, 0, 5);
  atomic_xchg(p + 3, 7);
  atomic_add(l, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_max(p + 4, l[0]);
  atom_add(lp, 3L);
  atom_xchg(lp + 1, 4L);
  atom_min(lp + 2, 4L);
  atomic_sub(up, 2u);
  atomic_xchg(fp, 1.5f);
  int old = atomic_or(p + 6, 3);
  q[1] = old + atomic_and(p + 7, 1);
}
