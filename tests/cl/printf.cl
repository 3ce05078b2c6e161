// OpenCL 1.2 printf.
__kernel void hello(__global const int *v) {
  int i = get_global_id(0);
  if (i == 0) printf("v[0] = %d, half = %f\n", v[0], v[0] * 0.5f);
}
