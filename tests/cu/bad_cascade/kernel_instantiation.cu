// An explicit instantiation of a kernel template that clang cannot read is reported, whatever
// headers were not found: it is a kernel the file asks for.
#include <project_types.h>
template <typename T> __global__ void fill(T *p) { p[threadIdx.x] = T(); }
template __global__ void fill<Thing>(Thing *);
