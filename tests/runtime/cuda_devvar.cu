// cuda_devvar.cu — CUDA __device__ variables (module state in global memory), run by
// cuda_devvar.c: first values from initializers (or zero), atomics and stores from kernels,
// values that outlive a launch, host reads and writes through kcrt_module_symbol, and a
// device function and a pointer to a member reaching them.
struct Acc {
  int n;
  float sum;
};

__device__ unsigned int counter = 5;
__device__ float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__device__ Acc acc;
__device__ int last_block = -1;

__device__ void add_to(Acc *a, float v) {
  atomicAdd(&a->sum, v);
  atomicAdd(&a->n, 1);
}

__global__ void count(const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&counter, 1u);
  add_to(&acc, in[i] * table[i % 4]);
  if (i == n - 1) last_block = blockIdx.x;
}

__global__ void bump_table(float by) {
  if (threadIdx.x < 4) table[threadIdx.x] += by;
}

__global__ void scale(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[i % 4] * (float)counter + (float)last_block;
}
