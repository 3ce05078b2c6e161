// The specification's kernel_exec(X, typen) and __kernel_exec(X, typen): a kernel with the
// work-group size hint (X, 1, 1) and the vector type hint typen, both hints only.
kernel_exec(64, float4) void scale4(__global float4 *a, float s) {
  a[get_global_id(0)] *= s;
}

__kernel_exec(32, int) void inc(__global int *a) {
  a[get_global_id(0)] += 1;
}
