// A kernel name with `$` is refused in .cu input as in .k and .cl: kernels keep their names.
__global__ void k$x(float *p) { p[0] = 1; }
