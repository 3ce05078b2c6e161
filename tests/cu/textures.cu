// CUDA texture and surface objects (issue 30): every fetch and sampled-read form kcc takes, with
// scalar and CUDA vector texel types (the level-of-detail, layered and pointer-result forms too),
// and surface reads and writes of every geometry (layered too), texel size and boundary mode.
// PTX (ptxas) and CUDA C (nvcc) are checked, and tests/cu/textures.sh counts the PTX's
// instructions; the OpenCL forms refuse (cu.cmake pins the message).
__global__ void fetches(cudaTextureObject_t tf, cudaTextureObject_t t4, cudaTextureObject_t ti,
                        cudaTextureObject_t tb, float *o, float4 *o4, int *oi, uchar4 *ob,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  o[i] = tex1Dfetch<float>(tf, i);
  o4[i] = tex1Dfetch<float4>(t4, i);
  oi[i] = tex1Dfetch<int>(ti, i) + tex1Dfetch<int2>(ti, i).y;
  ob[i] = tex1Dfetch<uchar4>(tb, i);
}

__global__ void sampled(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                        float *o, float2 *o2, uint4 *ou, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float u = (x + 0.5f) / w, v = y + 0.5f;
  o[y * w + x] = tex1D<float>(t1, u) + tex2D<float>(t2, u, v) + tex3D<float>(t3, u, v, 0.5f);
  o2[y * w + x] = tex2D<float2>(t2, u, v);
  ou[y * w + x] = tex3D<uint4>(t3, u, v, 1.5f);
}

__global__ void surfaces(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, cudaSurfaceObject_t s3,
                         int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  float f = surf1Dread<float>(s1, x * 4);
  surf1Dwrite(f * 2.0f, s1, x * 4, cudaBoundaryModeZero);
  uchar4 c = surf2Dread<uchar4>(s2, x * 4, y, cudaBoundaryModeClamp);
  c.x = (unsigned char)(c.x + 1);
  surf2Dwrite(c, s2, x * 4, y);
  short h = surf2Dread<short>(s2, x * 2, y, cudaBoundaryModeZero);
  surf2Dwrite((short)(h + 1), s2, x * 2, y, cudaBoundaryModeZero);
  unsigned char b = surf3Dread<unsigned char>(s3, x, y, 0);
  surf3Dwrite((unsigned char)(b ^ 1), s3, x, y, 1, cudaBoundaryModeTrap);
  float4 q = surf3Dread<float4>(s3, x * 16, y, 2, cudaBoundaryModeZero);
  surf3Dwrite(q, s3, x * 16, y, 3);
  int2 p = surf2Dread<int2>(s2, x * 8, y);
  surf2Dwrite(make_int2(p.y, p.x), s2, x * 8, y);
}

// Level of detail and layers: tex.level.{1d,2d,3d}, tex.a1d/a2d, tex.level.a1d/a2d.
__global__ void lod_layered(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                            cudaTextureObject_t l1, cudaTextureObject_t l2, float *o, int4 *oi,
                            float4 *o4, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float u = (x + 0.5f) / w, v = y + 0.5f, lv = (float)(y % 3);
  o[y * w + x] = tex1DLod<float>(t1, u, lv) + tex2DLod<float>(t2, u, v, 0.5f) +
                 tex3DLod<float>(t3, u, v, 0.25f, lv);
  oi[y * w + x] = tex1DLayered<int4>(l1, u, y);
  o4[y * w + x] = tex2DLayered<float4>(l2, u, v, x % 4);
  o[y * w + x] += tex1DLayeredLod<float>(l1, u, 2, lv) + tex2DLayeredLod<float>(l2, u, v, y, 1.0f);
}

// The pointer-result overloads: tex2D(&v, obj, x, y) and the other fetches, surf2Dread(&v, ...).
__global__ void into(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3,
                     cudaSurfaceObject_t s2, float *o, uchar4 *ob, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  float a, b, c, d, e, f, g, h, k, m;
  tex1Dfetch(&a, t1, x);
  tex1D(&b, t1, x + 0.5f);
  tex2D(&c, t2, x + 0.5f, y + 0.5f);
  tex3D(&d, t3, x + 0.5f, y + 0.5f, 0.5f);
  tex1DLod(&e, t1, x + 0.5f, 1.0f);
  tex2DLod(&f, t2, x + 0.5f, y + 0.5f, 0.0f);
  tex3DLod(&g, t3, x + 0.5f, y + 0.5f, 0.5f, 2.0f);
  tex1DLayered(&h, t1, x + 0.5f, y);
  tex2DLayered(&k, t2, x + 0.5f, y + 0.5f, 1);
  tex2DLayeredLod(&m, t2, x + 0.5f, y + 0.5f, 1, 0.0f);
  float n;
  tex1DLayeredLod(&n, t1, x + 0.5f, 0, 1.5f);
  o[y * w + x] = a + b + c + d + e + f + g + h + k + m + n;
  uchar4 q;
  surf2Dread(&q, s2, x * 4, y, cudaBoundaryModeZero);
  float r;
  surf1Dread(&r, s2, x * 4);
  surf3Dread(&r, s2, x * 4, y, 1, cudaBoundaryModeClamp);
  ob[y * w + x] = make_uchar4(q.x, q.y, q.z, (unsigned char)r);
}

// Layered surfaces: suld.b.a1d/a2d and sust.b.a1d/a2d.
__global__ void layered_surfaces(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, int w, int l) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  float f = surf1DLayeredread<float>(s1, x * 4, l);
  surf1DLayeredwrite(f + 1.0f, s1, x * 4, l, cudaBoundaryModeZero);
  uchar4 c = surf2DLayeredread<uchar4>(s2, x * 4, y, l, cudaBoundaryModeClamp);
  c.y = (unsigned char)(c.y + l);
  surf2DLayeredwrite(c, s2, x * 4, y, l);
  int2 p;
  surf2DLayeredread(&p, s2, x * 8, y, l + 1, cudaBoundaryModeZero);
  surf2DLayeredwrite(make_int2(p.y, p.x), s2, x * 8, y, l + 1, cudaBoundaryModeTrap);
  short h;
  surf1DLayeredread(&h, s1, x * 2, l);
  surf1DLayeredwrite((short)(h * 3), s1, x * 2, l);
}

// Half texels move as their 2 bytes (suld.b16 / sust.b16): a surface is raw bytes, so a half is
// never read as a float's 4 (a misaligned address at odd x on the device).
#include <cuda_fp16.h>
__global__ void half_surfaces(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, __half *o, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  __half h = surf1Dread<__half>(s1, x * 2);
  o[x] = h;
  surf2Dwrite(__hadd(h, h), s2, x * 2, y, cudaBoundaryModeZero);
  surf1Dwrite(__hmul(h, h), s1, x * 2 + 2, cudaBoundaryModeClamp);
}
