struct Complex {
  float re, im;
  __device__ Complex(float r, float i) : re(r), im(i) {}
};
__global__ void k(float *p) {
  Complex c(p[0], p[1]);
  p[2] = c.re * c.im;
}
