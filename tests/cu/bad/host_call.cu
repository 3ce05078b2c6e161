// A host function reached from device code through a __host__ __device__ function: clang
// defers this error until it knows the caller is emitted for the device (the kernel below),
// through the list of such functions that the precompiled prelude no longer carries its own
// part of (frontend/pch.c; tests/cu/pch.sh).
int host_only(int x) { return x + 1; }
__host__ __device__ int both(int x) { return host_only(x); }
__global__ void k(int *p) { p[0] = both(p[0]); }
