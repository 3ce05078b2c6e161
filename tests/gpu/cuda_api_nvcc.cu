// cuda_api_nvcc.cu — the kernels of tests/runtime/cuda_api.cu compiled by nvcc, checked
// against the host references kcc's own test uses (cuda_api_ref.h): where they agree with
// NVIDIA's implementation of the SIMD intrinsics and __dp4a/__dp2a, kcc's agree with NVIDIA's
// too. Built and run by tests/gpu/run.sh on the GPU machine. Prints one line; exit 0 if equal.
#include <cstdio>
#include <cstdlib>

#include "cuda_api.cu"

int main() {
  const int n = 1 << 16;
  static const unsigned special[] = {0x00000000u, 0xffffffffu, 0x80008000u, 0x7fff7fffu,
                                     0x80808080u, 0x7f7f7f7fu, 0x01ff80feu, 0x00017fffu};
  const struct SimdOp *ops = simd_ops;
  unsigned *a = (unsigned *)malloc(n * 4), *b = (unsigned *)malloc(n * 4),
           *c = (unsigned *)malloc(n * 4);
  unsigned *out = (unsigned *)malloc((size_t)n * SIMD_NOPS * 4);
  int *dout6 = (int *)malloc(6 * n * 4);
  srand(12345);
  for (int i = 0; i < n; i++) {
    unsigned r[3];
    for (int k = 0; k < 3; k++) {
      unsigned x = ((unsigned)rand() << 16) ^ (unsigned)rand();
      r[k] = x % 4 == 0 ? special[(x >> 8) % 8] : x % 4 == 1 ? x ^ special[(x >> 8) % 8] : x;
    }
    a[i] = r[0], b[i] = r[1], c[i] = r[2];
  }
  unsigned *da, *db, *dc, *dout;
  int *ddot;
  cudaMalloc(&da, n * 4), cudaMalloc(&db, n * 4), cudaMalloc(&dc, n * 4);
  cudaMalloc(&dout, (size_t)n * SIMD_NOPS * 4), cudaMalloc(&ddot, 6 * n * 4);
  cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c, n * 4, cudaMemcpyHostToDevice);
  simd<<<n / 64, 64>>>(da, db, dout, n);
  dots<<<n / 64, 64>>>((int *)da, (int *)db, (int *)dc, ddot, n);
  cudaMemcpy(out, dout, (size_t)n * SIMD_NOPS * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(dout6, ddot, 6 * n * 4, cudaMemcpyDeviceToHost);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAIL cuda_api_nvcc: CUDA error\n");
    return 1;
  }
  int bad = 0;
  for (int k = 0; k < SIMD_NOPS; k++)
    for (int i = 0; i < n; i++) {
      unsigned w = ref_simd(ops[k].op, ops[k].is_signed, ops[k].w, a[i], b[i]);
      if (out[(size_t)i * SIMD_NOPS + k] != w) {
        if (bad++ < 10)
          printf("  __%s(0x%08x, 0x%08x): nvcc 0x%08x, reference 0x%08x\n", ops[k].name, a[i], b[i],
                 out[(size_t)i * SIMD_NOPS + k], w);
        break;
      }
    }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 6; k++)
      if ((unsigned)dout6[6 * i + k] != ref_dp(k / 2, k % 2 == 0, a[i], b[i], c[i]) && bad++ < 10)
        printf("  dot %d (0x%08x, 0x%08x, 0x%08x): nvcc 0x%08x\n", k, a[i], b[i], c[i],
               dout6[6 * i + k]);
  printf("%s cuda_api_nvcc: %d SIMD functions and 6 dot products on %d words%s\n",
         bad ? "FAIL" : "PASS", (int)SIMD_NOPS, n, bad ? ": nvcc differs from the references" : "");
  return bad != 0;
}
