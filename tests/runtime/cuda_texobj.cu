// cuda_texobj.cu — CUDA texture and surface objects made by libkcrt (kcrt_texture_create,
// kcrt_surface_create; issue 30), run by tests/runtime/cuda_texobj.c on every device: each
// texture function family for each texel type, and surface writes and reads of each
// dimensionality. Thread i reads at coordinates c[i] (a layer or level of detail in the last
// component) and stores what it read in o[i].
#include <cuda_fp16.h>

#define TEX_READS(T, N)                                                                            \
  __global__ void fetch_##N(cudaTextureObject_t t, const int *c, T *o, int n) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) o[i] = tex1Dfetch<T>(t, c[i]);                                                     \
  }                                                                                                \
  __global__ void t1_##N(cudaTextureObject_t t, const float4 *c, T *o, int n) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) o[i] = tex1D<T>(t, c[i].x);                                                        \
  }                                                                                                \
  __global__ void t2_##N(cudaTextureObject_t t, const float4 *c, T *o, int n) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) o[i] = tex2D<T>(t, c[i].x, c[i].y);                                                \
  }                                                                                                \
  __global__ void t3_##N(cudaTextureObject_t t, const float4 *c, T *o, int n) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) o[i] = tex3D<T>(t, c[i].x, c[i].y, c[i].z);                                        \
  }                                                                                                \
  __global__ void l1_##N(cudaTextureObject_t t, const float4 *c, T *o, int n) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) o[i] = tex1DLayered<T>(t, c[i].x, (int)c[i].w);                                    \
  }                                                                                                \
  __global__ void l2_##N(cudaTextureObject_t t, const float4 *c, T *o, int n) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) o[i] = tex2DLayered<T>(t, c[i].x, c[i].y, (int)c[i].w);                            \
  }                                                                                                \
  /* One level of detail: every level reads it (the pointer-result overload). */                  \
  __global__ void lod2_##N(cudaTextureObject_t t, const float4 *c, T *o, int n) {                  \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    T v;                                                                                           \
    if (i < n) {                                                                                   \
      tex2DLod(&v, t, c[i].x, c[i].y, c[i].w);                                                     \
      o[i] = v;                                                                                    \
    }                                                                                              \
  }                                                                                                \
  __global__ void lod3_##N(cudaTextureObject_t t, const float4 *c, T *o, int n) {                  \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (i < n) o[i] = tex3DLod<T>(t, c[i].x, c[i].y, c[i].z, c[i].w);                             \
  }

TEX_READS(float, float)
TEX_READS(float2, float2)
TEX_READS(float4, float4)
TEX_READS(unsigned char, uchar)
TEX_READS(uchar4, uchar4)
TEX_READS(ushort2, ushort2)
TEX_READS(unsigned int, uint)
TEX_READS(uint4, uint4)
TEX_READS(char4, char4)
TEX_READS(short, short)
TEX_READS(int2, int2)

// Surfaces: texel (x, y, z) of layer l gets v[((l * d + z) * h + y) * w + x] (x in bytes in the
// call); the read kernels store what they read the same way.
#define SURFS(T, N)                                                                                \
  __global__ void sw1_##N(cudaSurfaceObject_t s, const T *v, int w) {                              \
    int x = blockIdx.x * blockDim.x + threadIdx.x;                                                 \
    if (x < w) surf1Dwrite(v[x], s, x * (int)sizeof(T));                                           \
  }                                                                                                \
  __global__ void sw2_##N(cudaSurfaceObject_t s, const T *v, int w, int h) {                       \
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;                                 \
    if (x < w) surf2Dwrite(v[y * w + x], s, x * (int)sizeof(T), y);                                \
  }                                                                                                \
  __global__ void swl1_##N(cudaSurfaceObject_t s, const T *v, int w) {                             \
    int x = blockIdx.x * blockDim.x + threadIdx.x, l = blockIdx.y;                                 \
    if (x < w) surf1DLayeredwrite(v[l * w + x], s, x * (int)sizeof(T), l);                         \
  }                                                                                                \
  __global__ void sr2_##N(cudaSurfaceObject_t s, T *o, int w, int h) {                             \
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;                                 \
    if (x < w) o[y * w + x] = surf2Dread<T>(s, x * (int)sizeof(T), y);                             \
  }                                                                                                \
  __global__ void sr3_##N(cudaSurfaceObject_t s, T *o, int w, int h, int d) {                      \
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;                 \
    if (x < w) surf3Dread(&o[(z * h + y) * w + x], s, x * (int)sizeof(T), y, z);                   \
  }                                                                                                \
  __global__ void srl2_##N(cudaSurfaceObject_t s, T *o, int w, int h) {                            \
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;                 \
    if (x < w) o[(l * h + y) * w + x] = surf2DLayeredread<T>(s, x * (int)sizeof(T), y, l);         \
  }

// 3D and 2D-array surface writes, of float types only: through SPIR-V an integer write to those
// images becomes write_imagei, which PoCL's kernel library lacks (docs/driver-bugs.md 16).
#define SURFS_3W(T, N)                                                                             \
  __global__ void sw3_##N(cudaSurfaceObject_t s, const T *v, int w, int h, int d) {                \
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;                 \
    if (x < w) surf3Dwrite<T>(v[(z * h + y) * w + x], s, x * (int)sizeof(T), y, z);                \
  }                                                                                                \
  __global__ void swl2_##N(cudaSurfaceObject_t s, const T *v, int w, int h) {                      \
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, l = blockIdx.z;                 \
    if (x < w) surf2DLayeredwrite(v[(l * h + y) * w + x], s, x * (int)sizeof(T), y, l);            \
  }

SURFS(float, float)
SURFS(float4, float4)
SURFS(uchar4, uchar4)
SURFS(ushort2, ushort2)
SURFS(unsigned int, uint)
SURFS(int2, int2)
SURFS(__half, half)
SURFS_3W(float, float)
SURFS_3W(float4, float4)
SURFS_3W(__half, half)

// A read-modify-write of one surface (a read_write image elsewhere): texel v becomes 3v + y.
__global__ void rmw2(cudaSurfaceObject_t s, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w) surf2Dwrite(surf2Dread<unsigned>(s, x * 4, y) * 3u + (unsigned)y, s, x * 4, y);
}

// A texture read and a surface written in one kernel: d = 2 * tex2D of s's texel centres.
__global__ void tex_to_surf(cudaTextureObject_t t, cudaSurfaceObject_t d, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w) surf2Dwrite(2.0f * tex2D<float>(t, x + 0.5f, y + 0.5f), d, x * 4, y);
}
