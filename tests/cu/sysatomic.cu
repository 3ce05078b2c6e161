// sysatomic.cu — CUDA's system-scope atomics (docs/dialect.md): every form is written and
// accepted by its consumer (cu.sysatomic.FORM); tests/cu/sysatomic.sh checks the PTX uses
// atom.sys for each one and that an -arch older than sm_60 is refused.
__global__ void sysatomic(int *i, unsigned *u, unsigned long long *ull, long long *ll, float *f,
                          double *d, int v) {
  atomicAdd_system(&i[0], v);
  atomicSub_system(&i[1], v);
  atomicExch_system(&i[2], v);
  atomicMin_system(&i[3], v);
  atomicMax_system(&i[4], v);
  atomicAnd_system(&i[5], v);
  atomicOr_system(&i[6], v);
  atomicXor_system(&i[7], v);
  atomicCAS_system(&i[8], v, v + 1);
  atomicInc_system(&u[0], 17u);
  atomicDec_system(&u[1], 137u);
  atomicMin_system(&u[2], (unsigned)v);
  atomicMax_system(&ull[0], (unsigned long long)v);
  atomicMin_system(&ll[0], (long long)v);
  atomicAdd_system(&f[0], 1.5f);
  atomicExch_system(&f[1], 2.5f);
  atomicAdd_system(&d[0], 0.25);
  __threadfence_system(); // membar.sys; __threadfence() stays membar.gl
  __threadfence();
}
