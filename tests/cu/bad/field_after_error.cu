// A record clang keeps with fewer fields after bytes it cannot read (a fuzz.cu finding):
// the access to a lost field is no internal error once an error has been reported.
struct Complex {
  float re, im;ùßß  ›‹rdiff_tevic) {}
};
__global__ o kvid(float *p) {
  Complex c;
  p[2] = c.re * c.im;
}
