// cl_half.cl — OpenCL C's half storage, run by tests/runtime/cl_half.c: vload_half[N] and
// vloada_half3 of every half bit pattern, vstore_half[N] in each rounding mode and
// vstorea_half3 of random and edge-case floats, through __global and __local pointers.
__kernel void load(__global const half *h, __global float *f, __global float4 *f4,
                   __global float *f3, uint n) {
  size_t i = get_global_id(0);
  if (i >= n) return;
  f[i] = vload_half(i, h);
  if (i % 4 == 0) f4[i / 4] = vload_half4(i / 4, h);
  if (i % 4 == 0) vstore3(vloada_half3(i / 4, h), i / 4, f3);
}

__kernel void store(__global const float *f, __global half *rte, __global half *rtz,
                    __global half *rtp, __global half *rtn, __global half *v2,
                    __global half *a3, __local half *tmp, uint n) {
  size_t i = get_global_id(0), l = get_local_id(0);
  if (i >= n) return;
  vstore_half(f[i], i, rte);
  vstore_half_rtz(f[i], i, rtz);
  vstore_half_rtp(f[i], i, rtp);
  vstore_half_rtn(f[i], i, rtn);
  // through local memory: a store and a load of the same half
  vstore_half_rte(f[i], l, tmp);
  float back = vload_half(l, tmp);
  if (i % 2 == 0) vstore_half2((float2)(back, f[i + 1 < n ? i + 1 : i]), i / 2, v2);
  if (i % 4 == 0) vstorea_half3((float3)(f[i], -f[i], f[i] * 0.5f), i / 4, a3);
}
