// opaque.cl — pointers to a struct the file never defines (an opaque handle): a kernel
// parameter, passed to and returned from a function, compared, and cast to and from int *.
struct handle;

static __global struct handle *pick(__global struct handle *a, __global struct handle *b,
                                    int which) {
  return which ? a : b;
}

kernel void opaque(__global struct handle *h, __global int *out, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  __global struct handle *p = pick(h, (__global struct handle *)(out + n), i & 1);
  __global int *q = (__global int *)p;
  out[i] = p == h ? q[i] : -1;
}
