template <int N>
__global__ void scale(float *p) { p[threadIdx.x] *= N; }
// A launch in a host function template names a specialisation only where that template is
// instantiated, and this one never is.
template <int N> void launch(float *p) { scale<N><<<1, 32>>>(p); }
