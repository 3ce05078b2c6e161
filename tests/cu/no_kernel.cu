// kcc-args: -w
// A CUDA file of device functions and a constant only: every form but Vulkan's is written,
// without entry points (kcc warns; -w here).
__constant__ float scale[4] = {1.0f, 2.0f, 3.0f, 4.0f};

__device__ float scaled(float x, int i) {
  return x * scale[i & 3];
}

static void host_helper(float *x) {
  x[0] = 0;
}
