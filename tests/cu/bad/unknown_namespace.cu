// A using-directive of a namespace from a header kcc did not find declares nothing: the
// directive is no error, a kernel's use of a name through it is one.
#include <cub/cub.cuh>
using namespace cub;
__global__ void k(float *a) { a[threadIdx.x] = Max()(a[0], 1.0f); }
