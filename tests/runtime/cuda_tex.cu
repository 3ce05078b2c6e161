// cuda_tex.cu — CUDA texture and surface objects (issue 30), run by tests/runtime/cuda_tex.c:
// fetches through linear textures the host made over kcrt buffers, and a read-modify-write of a
// 2D surface over a CUDA array.
__global__ void fetch(cudaTextureObject_t tf, cudaTextureObject_t tb, float *o, uchar4 *ob,
                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i] = tex1Dfetch<float>(tf, i) * 2.0f;
  uchar4 b = tex1Dfetch<uchar4>(tb, i);
  ob[i] = make_uchar4(b.w, b.z, b.y, b.x);
}

// Each texel v becomes 3v + y; texel (w, 0) is outside and reads 0 with the zero mode, which
// texel (0, 0) adds.
__global__ void surf(cudaSurfaceObject_t s, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  unsigned v = surf2Dread<unsigned>(s, x * 4, y);
  if (x == 0 && y == 0) v += surf2Dread<unsigned>(s, w * 4, 0, cudaBoundaryModeZero);
  surf2Dwrite(v * 3u + (unsigned)y, s, x * 4, y);
}
