// cl_goto.cl — goto and labels (C99 §6.8.6.1, which OpenCL C keeps), run by cl_goto.c: the
// functions (cl_goto.h) are compiled here for the device and there for the host.
#include "cl_goto.h"

__kernel void gotos(__global const int *a, __global int *o, int n) {
  int i = get_global_id(0);
  if (i >= n) goto leave;
  int x = a[i];
  o[4 * i + 0] = steps_to_one((uint)x % 10000u + 1u);
  o[4 * i + 1] = find_pair(x % 300);
  o[4 * i + 2] = skip_and_enter(x);
  o[4 * i + 3] = from_switch(x);
leave:
  return;
}
