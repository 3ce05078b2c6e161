/* printf arguments the format does not take (a vector, a struct, a bool, a half) and vector
 * conversions: every form, the Vulkan one included (its print records hold a slot per
 * vector element and a zero for an aggregate). */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma clang diagnostic ignored "-Wformat-extra-args"
typedef struct {
  int a;
  float b;
} S;

__kernel void unused_args(__global int3 *v, __global S *s, __global const float *x) {
  printf("vector\n", v[0]);
  printf("struct\n", s[0]);
  printf("bool\n", x[0] > 1.0f);
  printf("half\n", (half)x[1]);
  printf("%v3hld|%v2hlf|%d\n", v[1], (float2)(x[0], x[1]), s[1].a);
}
