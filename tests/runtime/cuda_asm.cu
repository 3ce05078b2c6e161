// cuda_asm.cu — inline PTX (the CUDA Programming Guide's "Inline PTX Assembly"): every
// register constraint (h r l f d), immediates (n), in-out operands (+r), several outputs,
// multi-line templates with their own .reg, %% for PTX's special registers, a "memory"
// clobber. PTX and CUDA C only: cuda_asm.c runs it on CUDA devices and checks that an OpenCL
// device refuses the bundle, which has no OpenCL form.
__device__ unsigned lane_id() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

extern "C" __global__ void inline_ptx(const int *qi, const float *qf, const double *qd,
                                      const unsigned short *qh, unsigned *o, float *of,
                                      double *od, unsigned short *oh, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int s;
  asm volatile("add.s32 %0, %1, %2;" : "=r"(s) : "r"(qi[i]), "n"(7));
  float x = qf[i];
  asm("{\n\t"
      ".reg .f32 t;\n\t"
      "mul.rn.f32 t, %1, %1;\n\t"
      "add.rn.f32 %0, t, %1;\n\t"
      "}"
      : "=f"(of[i])
      : "f"(x));
  int acc = 3;
  asm("add.s32 %0, %0, %1;" : "+r"(acc) : "r"(s));
  unsigned lo, hi;
  unsigned long long w = (unsigned long long)(unsigned)qi[i] * 0x100000001ull + 5;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(w));
  unsigned loaded;
  asm("ld.global.u32 %0, [%1];" : "=r"(loaded) : "l"(qi + i));
  asm("sub.rn.f64 %0, %1, %2;" : "=d"(od[i]) : "d"(qd[i]), "d"(0.25));
  asm("add.u16 %0, %1, %2;" : "=h"(oh[i]) : "h"(qh[i]), "h"((unsigned short)40000));
  asm volatile("st.global.u32 [%0], %1;" ::"l"(o + 5 * i + 4), "r"(lane_id()) : "memory");
  o[5 * i] = (unsigned)acc;
  o[5 * i + 1] = lo;
  o[5 * i + 2] = hi;
  o[5 * i + 3] = loaded;
}
