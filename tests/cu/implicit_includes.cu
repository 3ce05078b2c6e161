// What nvcc's implicit cuda_runtime.h declares without an #include: <limits.h>'s macros,
// <stdlib.h>'s (RAND_MAX), memcpy/memset, abs, the math functions.
__global__ void implicit(int *p, float *q) {
  memcpy(p, q, 4);
  memset(p + 1, 0, 4);
  p[3] = abs(p[0]) < INT_MAX ? CHAR_BIT : INT_MIN;
  p[4] = RAND_MAX > SHRT_MAX ? (int)UINT_MAX : LLONG_MAX > 0;
  q[0] = sqrtf(2.f) + fabsf(q[1]);
}
