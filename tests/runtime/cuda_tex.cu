// cuda_tex.cu — CUDA texture and surface objects (issue 30), run by tests/runtime/cuda_tex.c:
// fetches through linear textures the host made over kcrt buffers, a read-modify-write of a
// 2D surface over a CUDA array, layered and level-of-detail reads of textures over CUDA arrays
// (through the pointer-result overloads too) and a layered surface.
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

// o[(l * h + y) * w + x] = layer l's texel (x, y) of tl + 2 * texel (x, y) of t2, both point
// sampled at the texel's centre; t2's array has one level, so every level of detail reads it.
__global__ void layered(cudaTextureObject_t tl, cudaTextureObject_t t2, float *o, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;
  if (x >= w) return;
  float a = tex2DLayered<float>(tl, x + 0.5f, y + 0.5f, l), b, c;
  tex2DLod(&b, t2, x + 0.5f, y + 0.5f, (float)l);
  tex2DLayeredLod(&c, tl, x + 0.5f, y + 0.5f, l, 0.0f);
  o[(l * h + y) * w + x] = a + 2.0f * b + 4.0f * (c - a);
}

// Each texel v of layer l becomes 3v + l, read through the pointer-result overload.
__global__ void surf_layered(cudaSurfaceObject_t s, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;
  if (x >= w) return;
  unsigned v;
  surf2DLayeredread(&v, s, x * 4, y, l);
  surf2DLayeredwrite(v * 3u + (unsigned)l, s, x * 4, y, l, cudaBoundaryModeZero);
}
