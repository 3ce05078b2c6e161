/* cuda_tex.c — runs tests/runtime/cuda_tex.cu (CUDA texture and surface objects) on a CUDA
 * device and compares every element with the host's expectation. The objects are what a CUDA
 * program's host code makes: here through the driver API (libcuda.so.1, opened as libkcrt opens
 * it, on the device's primary context, which libkcrt uses too): linear textures over kcrt
 * buffers (kcrt_buffer_address), surfaces over CUDA arrays (a layered one too) and textures
 * over CUDA arrays (layered and plain; a plain array has one level, which every level of detail
 * reads). The driver's types are
 * declared below with cuda.h's layouts, so no CUDA header is needed to build the test. On an
 * OpenCL device the bundle (no OpenCL form: texture objects have none) must be refused with
 * KCRT_ERROR_NO_BINARY. */
#include "rt_common.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int CUresult;
typedef struct CUctx_st *CUcontext;
typedef struct CUarray_st *CUarray;
typedef unsigned long long CUobj; /* CUtexObject, CUsurfObject */

typedef struct {
  int resType; /* 0 array, 2 linear */
  union {
    struct {
      CUarray hArray;
    } array;
    struct {
      unsigned long long devPtr;
      int format;
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    int reserved[32];
  } res;
  unsigned flags;
} ResDesc;
typedef struct {
  int addressMode[3], filterMode; /* 0: wrap, point */
  unsigned flags, maxAnisotropy;  /* flags: CU_TRSF_* (0: normalized reads of integer formats) */
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp, borderColor[4];
  int reserved[12];
} TexDesc;
typedef struct {
  size_t Width, Height, Depth;
  int Format;
  unsigned NumChannels, Flags;
} ArrayDesc;
typedef struct {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType; /* 1 host, 3 array */
  const void *srcHost;
  unsigned long long srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight, dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  unsigned long long dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight, WidthInBytes, Height, Depth;
} Copy3D;
enum { FMT_U8 = 0x01, FMT_U32 = 0x03, FMT_F32 = 0x20, LAYERED = 0x01, SURFACE_LDST = 0x02 };

static struct {
  CUresult (*DeviceGet)(int *, int);
  CUresult (*PrimaryCtxRetain)(CUcontext *, int);
  CUresult (*PrimaryCtxRelease)(int);
  CUresult (*CtxPush)(CUcontext);
  CUresult (*CtxPop)(CUcontext *);
  CUresult (*TexObjectCreate)(CUobj *, const ResDesc *, const TexDesc *, const void *);
  CUresult (*TexObjectDestroy)(CUobj);
  CUresult (*Array3DCreate)(CUarray *, const ArrayDesc *);
  CUresult (*ArrayDestroy)(CUarray);
  CUresult (*SurfObjectCreate)(CUobj *, const ResDesc *);
  CUresult (*SurfObjectDestroy)(CUobj);
  CUresult (*Memcpy3D)(const Copy3D *);
} cu;

static void cu_check(Rt *rt, CUresult r, const char *what) {
  if (r) {
    rt_fail(rt, "%s failed: CUresult %d", what, r);
    exit(rt_finish(rt, "driver call failed"));
  }
}

static void load_cuda(Rt *rt) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) rt_fail(rt, "libcuda.so.1: %s", dlerror());
  static const struct {
    void **p;
    const char *sym;
  } syms[] = {
      {(void **)&cu.DeviceGet, "cuDeviceGet"},
      {(void **)&cu.PrimaryCtxRetain, "cuDevicePrimaryCtxRetain"},
      {(void **)&cu.PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"},
      {(void **)&cu.CtxPush, "cuCtxPushCurrent_v2"},
      {(void **)&cu.CtxPop, "cuCtxPopCurrent_v2"},
      {(void **)&cu.TexObjectCreate, "cuTexObjectCreate"},
      {(void **)&cu.TexObjectDestroy, "cuTexObjectDestroy"},
      {(void **)&cu.Array3DCreate, "cuArray3DCreate_v2"},
      {(void **)&cu.ArrayDestroy, "cuArrayDestroy"},
      {(void **)&cu.SurfObjectCreate, "cuSurfObjectCreate"},
      {(void **)&cu.SurfObjectDestroy, "cuSurfObjectDestroy"},
      {(void **)&cu.Memcpy3D, "cuMemcpy3D_v2"},
  };
  for (size_t i = 0; h && i < sizeof syms / sizeof syms[0]; i++)
    if (!(*syms[i].p = dlsym(h, syms[i].sym))) rt_fail(rt, "libcuda.so.1 lacks %s", syms[i].sym);
  if (rt->failures) exit(rt_finish(rt, "no driver API"));
}

/* A linear texture of n elements of `channels` channels of `format` over buffer b. */
static CUobj linear_texture(Rt *rt, kcrt_buffer *b, int format, unsigned channels, size_t bytes) {
  uint64_t addr = 0;
  RT_CHECK(rt, kcrt_buffer_address(b, &addr));
  ResDesc rd;
  TexDesc td;
  memset(&rd, 0, sizeof rd);
  memset(&td, 0, sizeof td);
  rd.resType = 2;
  rd.res.linear.devPtr = addr;
  rd.res.linear.format = format;
  rd.res.linear.numChannels = channels;
  rd.res.linear.sizeInBytes = bytes;
  /* CU_TRSF_READ_AS_INTEGER: an integer format reads as its integers, as the runtime API's
   * cudaReadModeElementType gives tex1Dfetch<uchar4>; without it the driver returns normalized
   * floats (seen on the H100: the low byte of 241/255's float bits, 242). */
  td.flags = format == FMT_F32 ? 0 : 0x01;
  CUobj t = 0;
  cu_check(rt, cu.TexObjectCreate(&t, &rd, &td, NULL), "cuTexObjectCreate");
  return t;
}

static void fetches(Rt *rt) {
  int n = rt_int(rt, 100, 5000);
  float *f = rt_xalloc(4 * (size_t)n), *got = rt_xalloc(4 * (size_t)n),
        *want = rt_xalloc(4 * (size_t)n);
  uint8_t *b = rt_xalloc(4 * (size_t)n), *gotb = rt_xalloc(4 * (size_t)n);
  for (int i = 0; i < n; i++) {
    f[i] = rt_float(rt, -100.0f, 100.0f);
    want[i] = f[i] * 2.0f;
    for (int c = 0; c < 4; c++) b[4 * i + c] = (uint8_t)rt_u32(rt);
  }
  kcrt_buffer *df = rt_upload(rt, f, 4 * (size_t)n), *db = rt_upload(rt, b, 4 * (size_t)n);
  kcrt_buffer *of = rt_alloc(rt, 4 * (size_t)n), *ob = rt_alloc(rt, 4 * (size_t)n);
  CUobj tf = linear_texture(rt, df, FMT_F32, 1, 4 * (size_t)n);
  CUobj tb = linear_texture(rt, db, FMT_U8, 4, 4 * (size_t)n);
  kcrt_arg args[] = {KCRT_ARG_VALUE(tf), KCRT_ARG_VALUE(tb), KCRT_ARG_BUFFER(of),
                     KCRT_ARG_BUFFER(ob), KCRT_ARG_VALUE(n)};
  rt_launch(rt, rt_kernel(rt, "fetch"), KCRT_DIM1(rt_ceil_div((uint64_t)n, 128)), KCRT_DIM1(128), 0,
            args, 5);
  rt_download(rt, of, got, 4 * (size_t)n);
  rt_download(rt, ob, gotb, 4 * (size_t)n);
  rt_cmp_f32(rt, "tex1Dfetch<float> (float linear texture)", got, want, (size_t)n, 0, 0);
  uint32_t *gb = rt_xalloc(16 * (size_t)n), *wb = rt_xalloc(16 * (size_t)n);
  for (int i = 0; i < 4 * n; i++) gb[i] = gotb[i], wb[i] = b[4 * (i / 4) + 3 - i % 4];
  rt_cmp_u32(rt, "tex1Dfetch<uchar4> (uchar4 linear texture)", gb, wb, 4 * (size_t)n);
  cu_check(rt, cu.TexObjectDestroy(tf), "cuTexObjectDestroy");
  cu_check(rt, cu.TexObjectDestroy(tb), "cuTexObjectDestroy");
}

static void copy_layers(Rt *rt, CUarray a, void *host, size_t w, size_t h, size_t layers,
                        bool to_array) {
  Copy3D c;
  memset(&c, 0, sizeof c);
  c.WidthInBytes = 4 * w, c.Height = h, c.Depth = layers;
  if (to_array) {
    c.srcMemoryType = 1, c.srcHost = host, c.srcPitch = 4 * w, c.srcHeight = h;
    c.dstMemoryType = 3, c.dstArray = a;
  } else {
    c.srcMemoryType = 3, c.srcArray = a;
    c.dstMemoryType = 1, c.dstHost = host, c.dstPitch = 4 * w, c.dstHeight = h;
  }
  cu_check(rt, cu.Memcpy3D(&c), "cuMemcpy3D");
}

static void copy(Rt *rt, CUarray a, void *host, size_t w, size_t h, bool to_array) {
  copy_layers(rt, a, host, w, h, 1, to_array);
}

/* A surface object over CUDA array a. */
static CUobj array_surface(Rt *rt, CUarray a) {
  ResDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.res.array.hArray = a;
  CUobj s = 0;
  cu_check(rt, cu.SurfObjectCreate(&s, &rd), "cuSurfObjectCreate");
  return s;
}

static void surfaces(Rt *rt) {
  int w = rt_int(rt, 1, 300), h = rt_int(rt, 1, 40);
  size_t n = (size_t)w * (size_t)h;
  uint32_t *v = rt_xalloc(4 * n), *got = rt_xalloc(4 * n), *want = rt_xalloc(4 * n);
  for (size_t i = 0; i < n; i++) v[i] = rt_u32(rt), want[i] = v[i] * 3u + (uint32_t)(i / (size_t)w);
  ArrayDesc ad = {(size_t)w, (size_t)h, 0, FMT_U32, 1, SURFACE_LDST};
  CUarray a = NULL;
  cu_check(rt, cu.Array3DCreate(&a, &ad), "cuArray3DCreate");
  copy(rt, a, v, (size_t)w, (size_t)h, true);
  CUobj s = array_surface(rt, a);
  kcrt_arg args[] = {KCRT_ARG_VALUE(s), KCRT_ARG_VALUE(w)};
  rt_launch(rt, rt_kernel(rt, "surf"),
            KCRT_DIM3((unsigned)rt_ceil_div((uint64_t)w, 64), (unsigned)h, 1), KCRT_DIM1(64), 0,
            args, 2);
  RT_CHECK(rt, kcrt_device_synchronize(rt->dev));
  copy(rt, a, got, (size_t)w, (size_t)h, false);
  rt_cmp_u32(rt, "surf2Dread/surf2Dwrite<unsigned> (CUDA array)", got, want, n);
  cu_check(rt, cu.SurfObjectDestroy(s), "cuSurfObjectDestroy");
  cu_check(rt, cu.ArrayDestroy(a), "cuArrayDestroy");
}

/* A point-sampled, clamped, unnormalized texture over CUDA array a. */
static CUobj array_texture(Rt *rt, CUarray a) {
  ResDesc rd;
  TexDesc td;
  memset(&rd, 0, sizeof rd);
  memset(&td, 0, sizeof td);
  rd.res.array.hArray = a;
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = 1; /* clamp */
  CUobj t = 0;
  cu_check(rt, cu.TexObjectCreate(&t, &rd, &td, NULL), "cuTexObjectCreate");
  return t;
}

/* layered: tex2DLayered, tex2DLod and tex2DLayeredLod (pointer-result overloads) on float
 * arrays, a layered one and a plain one, exact (point sampling). */
static void layered(Rt *rt) {
  int w = rt_int(rt, 1, 200), h = rt_int(rt, 1, 20), L = rt_int(rt, 1, 6);
  size_t n = (size_t)w * (size_t)h, all = n * (size_t)L;
  float *lay = rt_xalloc(4 * all), *plain = rt_xalloc(4 * n), *want = rt_xalloc(4 * all),
        *got = rt_xalloc(4 * all);
  for (size_t i = 0; i < all; i++) lay[i] = rt_float(rt, -100.0f, 100.0f);
  for (size_t i = 0; i < n; i++) plain[i] = rt_float(rt, -100.0f, 100.0f);
  for (size_t i = 0; i < all; i++) want[i] = lay[i] + 2.0f * plain[i % n];
  ArrayDesc al = {(size_t)w, (size_t)h, (size_t)L, FMT_F32, 1, LAYERED};
  ArrayDesc ap = {(size_t)w, (size_t)h, 0, FMT_F32, 1, 0};
  CUarray a = NULL, b = NULL;
  cu_check(rt, cu.Array3DCreate(&a, &al), "cuArray3DCreate (layered)");
  cu_check(rt, cu.Array3DCreate(&b, &ap), "cuArray3DCreate");
  copy_layers(rt, a, lay, (size_t)w, (size_t)h, (size_t)L, true);
  copy(rt, b, plain, (size_t)w, (size_t)h, true);
  CUobj tl = array_texture(rt, a), t2 = array_texture(rt, b);
  kcrt_buffer *o = rt_alloc(rt, 4 * all);
  kcrt_arg args[] = {KCRT_ARG_VALUE(tl), KCRT_ARG_VALUE(t2), KCRT_ARG_BUFFER(o), KCRT_ARG_VALUE(w),
                     KCRT_ARG_VALUE(h)};
  rt_launch(rt, rt_kernel(rt, "layered"),
            KCRT_DIM3((unsigned)rt_ceil_div((uint64_t)w, 64), (unsigned)h, (unsigned)L),
            KCRT_DIM1(64), 0, args, 5);
  rt_download(rt, o, got, 4 * all);
  rt_cmp_f32(rt, "tex2DLayered + tex2DLod + tex2DLayeredLod (CUDA arrays)", got, want, all, 0, 0);
  cu_check(rt, cu.TexObjectDestroy(tl), "cuTexObjectDestroy");
  cu_check(rt, cu.TexObjectDestroy(t2), "cuTexObjectDestroy");
  cu_check(rt, cu.ArrayDestroy(a), "cuArrayDestroy");
  cu_check(rt, cu.ArrayDestroy(b), "cuArrayDestroy");
}

/* surf_layered: surf2DLayeredread (pointer-result) and surf2DLayeredwrite on a layered array. */
static void layered_surface(Rt *rt) {
  int w = rt_int(rt, 1, 300), h = rt_int(rt, 1, 20), L = rt_int(rt, 1, 6);
  size_t all = (size_t)w * (size_t)h * (size_t)L;
  uint32_t *v = rt_xalloc(4 * all), *got = rt_xalloc(4 * all), *want = rt_xalloc(4 * all);
  for (size_t i = 0; i < all; i++)
    v[i] = rt_u32(rt), want[i] = v[i] * 3u + (uint32_t)(i / ((size_t)w * (size_t)h));
  ArrayDesc ad = {(size_t)w, (size_t)h, (size_t)L, FMT_U32, 1, LAYERED | SURFACE_LDST};
  CUarray a = NULL;
  cu_check(rt, cu.Array3DCreate(&a, &ad), "cuArray3DCreate (layered surface)");
  copy_layers(rt, a, v, (size_t)w, (size_t)h, (size_t)L, true);
  CUobj s = array_surface(rt, a);
  kcrt_arg args[] = {KCRT_ARG_VALUE(s), KCRT_ARG_VALUE(w)};
  rt_launch(rt, rt_kernel(rt, "surf_layered"),
            KCRT_DIM3((unsigned)rt_ceil_div((uint64_t)w, 64), (unsigned)h, (unsigned)L),
            KCRT_DIM1(64), 0, args, 2);
  RT_CHECK(rt, kcrt_device_synchronize(rt->dev));
  copy_layers(rt, a, got, (size_t)w, (size_t)h, (size_t)L, false);
  rt_cmp_u32(rt, "surf2DLayeredread/surf2DLayeredwrite<unsigned> (layered CUDA array)", got, want,
             all);
  cu_check(rt, cu.SurfObjectDestroy(s), "cuSurfObjectDestroy");
  cu_check(rt, cu.ArrayDestroy(a), "cuArrayDestroy");
}

int main(int argc, char **argv) {
  Rt rt;
  rt_open(&rt, argc, argv, "cuda_tex");
  if (rt.info.backend != KCRT_BACKEND_CUDA) {
    /* Elsewhere the kernels take kcrt textures and surfaces (cuda_texobj.c runs them): a CUDA
     * object's handle is refused by name. */
    RT_CHECK(&rt, kcrt_module_load_file(rt.dev, argv[1], &rt.mod));
    unsigned long long h = 1;
    int n = 1;
    kcrt_buffer *o = rt_alloc(&rt, 16);
    kcrt_arg args[] = {KCRT_ARG_VALUE(h), KCRT_ARG_VALUE(h), KCRT_ARG_BUFFER(o), KCRT_ARG_BUFFER(o),
                       KCRT_ARG_VALUE(n)};
    RT_EXPECT(&rt, KCRT_ERROR_INVALID_ARGUMENT,
              kcrt_launch(rt_kernel(&rt, "fetch"), NULL, KCRT_DIM1(1), KCRT_DIM1(1), 0, args, 5));
    const char *want = "kernel 'fetch' argument 1 (cudaTextureObject_t tf) is a texture object: "
                       "pass a live kcrt_texture * of this device by value "
                       "(KCRT_ARG_VALUE(handle))";
    if (strcmp(kcrt_last_error(), want))
      rt_fail(&rt, "message: '%s'\n  want: '%s'", kcrt_last_error(), want);
    return rt_finish(&rt, "a CUDA object's handle refused on a device without CUDA, as expected");
  }
  RT_CHECK(&rt, kcrt_module_load_file(rt.dev, argv[1], &rt.mod));
  load_cuda(&rt);
  int d = 0;
  CUcontext ctx = NULL, old = NULL;
  cu_check(&rt, cu.DeviceGet(&d, rt.info.backend_index), "cuDeviceGet");
  cu_check(&rt, cu.PrimaryCtxRetain(&ctx, d), "cuDevicePrimaryCtxRetain");
  cu_check(&rt, cu.CtxPush(ctx), "cuCtxPushCurrent");
  fetches(&rt);
  surfaces(&rt);
  layered(&rt);
  layered_surface(&rt);
  cu.CtxPop(&old);
  cu.PrimaryCtxRelease(d);
  return rt_finish(&rt, "linear textures (float, uchar4), a 2D surface, layered and "
                        "level-of-detail textures over CUDA arrays, a layered surface");
}
