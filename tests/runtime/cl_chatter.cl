/* cl_chatter.cl — OpenCL C input whose generated OpenCL C draws warnings from clang (an
 * assignment used as a condition is written without the extra parentheses), so a driver
 * building it without -w would print "N warnings generated." on the program's stderr
 * (tests/runtime/chatter.sh checks that nothing reaches it). */
__kernel void chatter(__global int *out, __global const int *in, int n) {
  int i = get_global_id(0);
  int v;
  if (i >= n) return;
  if ((v = in[i]))
    out[i] = v * 2;
  else
    out[i] = -1;
  if ((v = v - 1))
    out[i] += 1;
}
