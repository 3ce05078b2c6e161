// CUDA texture and surface objects (issue 30): every fetch and sampled-read form kcc takes, with
// scalar and CUDA vector texel types, and surface reads and writes of every geometry, texel
// size and boundary mode. PTX (ptxas) and CUDA C (nvcc) are checked; the OpenCL forms refuse
// (cu.cmake pins the message).
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
