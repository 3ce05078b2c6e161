// cl_switch.cl — switches whose case labels sit inside nested statements, or whose default is
// fallen into or out of when it is not first, run by cl_switch.c: the functions (cl_switch.h)
// are compiled here for the device and there for the host.
#include "cl_switch.h"

__kernel void switches(__global const int *a, __global int *o, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int x = a[i];
  o[6 * i + 0] = duff(x, x & 31);
  o[6 * i + 1] = mid_default(x);
  o[6 * i + 2] = into_if(x % 300);
  o[6 * i + 3] = into_while(x);
  o[6 * i + 4] = in_loop(x);
  o[6 * i + 5] = deep(x);
}
