struct Complex {
  float re, im;
  __device__ Complex(float r, float i) : re(r), im(i) {}
  __device__ Complex() : Complex(0.0f, 0.0f) {}
};
__global__ void k(float *p) {
  Complex c;
  p[2] = c.re * c.im;
}
