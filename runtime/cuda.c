/* cuda.c — the CUDA back end, over the driver API of libcuda.so.1 opened at run time. No CUDA
 * header is used: the few types, enum values and entry points needed are declared below
 * (values as documented for the driver API; the versioned entry points, e.g. cuMemAlloc_v2,
 * are the ones cuda.h has mapped the plain names to since CUDA 3.2/4.0).
 *
 * Each device uses its primary context (shared with any CUDA runtime code in the process),
 * pushed around every call so that the caller's current context is left as it was. Modules
 * load the cubin for the device's architecture when the bundle has one, else the PTX through
 * the driver's whole-program JIT (cuModuleLoadDataEx), which NVIDIA's compute cache keeps on
 * disk. Not through the JIT linker (cuLink*): it compiles PTX as a relocatable object, and that
 * code ran matmul 1.25x slower (21.2 ms against 16.9 from the same PTX on an H200,
 * bench/ptx_probe.c, docs/design.md), so its cubin is not worth caching ourselves. */
#define _GNU_SOURCE
#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- driver API declarations */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
typedef int CUjit_option;
typedef struct CUarray_st *CUarray;
typedef unsigned long long CUsurfObject;

/* Images (cuda.h's layouts): a CUDA array, copies to and from it, its surface object. */
typedef struct {
  size_t Width, Height, Depth;
  int Format; /* CUarray_format */
  unsigned NumChannels, Flags;
} CuArray3DDesc;
enum { /* CUarray_format */
       AF_UNSIGNED_INT8 = 0x01,
       AF_UNSIGNED_INT16 = 0x02,
       AF_UNSIGNED_INT32 = 0x03,
       AF_SIGNED_INT8 = 0x08,
       AF_SIGNED_INT16 = 0x09,
       AF_SIGNED_INT32 = 0x0a,
       AF_HALF = 0x10,
       AF_FLOAT = 0x20,
};
enum { ARRAY3D_LAYERED = 0x01, ARRAY3D_SURFACE_LDST = 0x02 };
enum { MEMTYPE_HOST = 1, MEMTYPE_ARRAY = 3 };
typedef struct {
  size_t srcXInBytes, srcY, srcZ, srcLOD;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch, srcHeight;
  size_t dstXInBytes, dstY, dstZ, dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch, dstHeight;
  size_t WidthInBytes, Height, Depth;
} CuMemcpy3D;
typedef struct {
  int resType; /* CU_RESOURCE_TYPE_ARRAY = 0, CU_RESOURCE_TYPE_LINEAR = 2 */
  union {
    struct {
      CUarray hArray;
    } array;
    struct {
      CUdeviceptr devPtr;
      int format; /* CUarray_format */
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    int reserved[32];
    long long align_;
  } res;
  unsigned flags;
} CuResourceDesc;
/* CUDA_TEXTURE_DESC: address modes CU_TR_ADDRESS_MODE_WRAP 0, CLAMP 1, MIRROR 2, BORDER 3;
 * filter POINT 0, LINEAR 1; flags CU_TRSF_READ_AS_INTEGER 1, CU_TRSF_NORMALIZED_COORDINATES 2. */
typedef struct {
  int addressMode[3];
  int filterMode;
  unsigned flags, maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
} CuTextureDesc;
typedef unsigned long long CUtexObject;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_LAUNCH_TIMEOUT = 702,
  CUDA_ERROR_ASSERT = 710,
  CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_INVALID_PC = 718,
  CUDA_ERROR_LAUNCH_FAILED = 719,
};
enum { /* CUdevice_attribute */
       ATTR_MAX_THREADS_PER_BLOCK = 1,
       ATTR_MAX_BLOCK_DIM_X = 2,
       ATTR_MAX_GRID_DIM_X = 5,
       ATTR_MAX_SHARED_PER_BLOCK = 8,
       ATTR_MULTIPROCESSOR_COUNT = 16,
       ATTR_CC_MAJOR = 75,
       ATTR_CC_MINOR = 76,
       ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97,
};
enum { /* CUfunction_attribute */
       FATTR_MAX_THREADS_PER_BLOCK = 0,
       FATTR_SHARED_SIZE_BYTES = 1,
       FATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
};
enum { /* CUjit_option */
       JIT_ERROR_LOG_BUFFER = 5,
       JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};
enum { STREAM_NON_BLOCKING = 1 };

#define CU_FUNCS(X)                                                                                \
  X(cuInit, CUresult (*)(unsigned), "cuInit")                                                      \
  X(cuDriverGetVersion, CUresult (*)(int *), "cuDriverGetVersion")                                 \
  X(cuDeviceGetCount, CUresult (*)(int *), "cuDeviceGetCount")                                     \
  X(cuDeviceGet, CUresult (*)(CUdevice *, int), "cuDeviceGet")                                     \
  X(cuDeviceGetName, CUresult (*)(char *, int, CUdevice), "cuDeviceGetName")                       \
  X(cuDeviceGetAttribute, CUresult (*)(int *, int, CUdevice), "cuDeviceGetAttribute")              \
  X(cuDeviceTotalMem, CUresult (*)(size_t *, CUdevice), "cuDeviceTotalMem_v2")                     \
  X(cuDevicePrimaryCtxRetain, CUresult (*)(CUcontext *, CUdevice), "cuDevicePrimaryCtxRetain")     \
  X(cuDevicePrimaryCtxRelease, CUresult (*)(CUdevice), "cuDevicePrimaryCtxRelease_v2")             \
  X(cuCtxPushCurrent, CUresult (*)(CUcontext), "cuCtxPushCurrent_v2")                              \
  X(cuCtxPopCurrent, CUresult (*)(CUcontext *), "cuCtxPopCurrent_v2")                              \
  X(cuMemAlloc, CUresult (*)(CUdeviceptr *, size_t), "cuMemAlloc_v2")                              \
  X(cuMemFree, CUresult (*)(CUdeviceptr), "cuMemFree_v2")                                          \
  X(cuMemcpyHtoDAsync, CUresult (*)(CUdeviceptr, const void *, size_t, CUstream),                  \
    "cuMemcpyHtoDAsync_v2")                                                                        \
  X(cuMemcpyDtoHAsync, CUresult (*)(void *, CUdeviceptr, size_t, CUstream),                        \
    "cuMemcpyDtoHAsync_v2")                                                                        \
  X(cuMemcpyDtoDAsync, CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream),                   \
    "cuMemcpyDtoDAsync_v2")                                                                        \
  X(cuMemsetD8Async, CUresult (*)(CUdeviceptr, unsigned char, size_t, CUstream),                   \
    "cuMemsetD8Async")                                                                             \
  X(cuStreamCreate, CUresult (*)(CUstream *, unsigned), "cuStreamCreate")                          \
  X(cuStreamDestroy, CUresult (*)(CUstream), "cuStreamDestroy_v2")                                 \
  X(cuStreamSynchronize, CUresult (*)(CUstream), "cuStreamSynchronize")                            \
  X(cuEventCreate, CUresult (*)(CUevent *, unsigned), "cuEventCreate")                             \
  X(cuEventDestroy, CUresult (*)(CUevent), "cuEventDestroy_v2")                                    \
  X(cuEventRecord, CUresult (*)(CUevent, CUstream), "cuEventRecord")                               \
  X(cuEventSynchronize, CUresult (*)(CUevent), "cuEventSynchronize")                               \
  X(cuModuleLoadData, CUresult (*)(CUmodule *, const void *), "cuModuleLoadData")                  \
  X(cuModuleLoadDataEx, CUresult (*)(CUmodule *, const void *, unsigned, CUjit_option *, void **), \
    "cuModuleLoadDataEx")                                                                          \
  X(cuModuleUnload, CUresult (*)(CUmodule), "cuModuleUnload")                                      \
  X(cuModuleGetFunction, CUresult (*)(CUfunction *, CUmodule, const char *),                       \
    "cuModuleGetFunction")                                                                         \
  X(cuModuleGetGlobal, CUresult (*)(CUdeviceptr *, size_t *, CUmodule, const char *),              \
    "cuModuleGetGlobal_v2")                                                                        \
  X(cuFuncGetAttribute, CUresult (*)(int *, int, CUfunction), "cuFuncGetAttribute")                \
  X(cuLaunchKernel,                                                                                \
    CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, \
                 CUstream, void **, void **),                                                      \
    "cuLaunchKernel")                                                                              \
  X(cuGetErrorName, CUresult (*)(CUresult, const char **), "cuGetErrorName")                       \
  X(cuGetErrorString, CUresult (*)(CUresult, const char **), "cuGetErrorString")
/* Optional: older drivers lack some; each has a fallback. */
#define CU_OPTIONAL(X)                                                                             \
  X(cuCtxGetCurrent, CUresult (*)(CUcontext *), "cuCtxGetCurrent")                                 \
  X(cuEventElapsedTime_v2, CUresult (*)(float *, CUevent, CUevent), "cuEventElapsedTime_v2")       \
  X(cuEventElapsedTime, CUresult (*)(float *, CUevent, CUevent), "cuEventElapsedTime")             \
  X(cuFuncSetAttribute, CUresult (*)(CUfunction, int, int), "cuFuncSetAttribute")                  \
  X(cuPointerGetAttribute, CUresult (*)(void *, int, CUdeviceptr), "cuPointerGetAttribute")        \
  X(cuMemcpyPeer, CUresult (*)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t),            \
    "cuMemcpyPeer")                                                                                \
  X(cuArray3DCreate, CUresult (*)(CUarray *, const CuArray3DDesc *), "cuArray3DCreate_v2")         \
  X(cuArrayDestroy, CUresult (*)(CUarray), "cuArrayDestroy")                                       \
  X(cuMemcpy3DAsync, CUresult (*)(const CuMemcpy3D *, CUstream), "cuMemcpy3DAsync_v2")             \
  X(cuSurfObjectCreate, CUresult (*)(CUsurfObject *, const CuResourceDesc *),                      \
    "cuSurfObjectCreate")                                                                          \
  X(cuSurfObjectDestroy, CUresult (*)(CUsurfObject), "cuSurfObjectDestroy")                        \
  X(cuTexObjectCreate,                                                                             \
    CUresult (*)(CUtexObject *, const CuResourceDesc *, const CuTextureDesc *, const void *),      \
    "cuTexObjectCreate")                                                                           \
  X(cuTexObjectDestroy, CUresult (*)(CUtexObject), "cuTexObjectDestroy")

static struct {
#define DECL(name, type, sym) __typeof__(type) name;
  CU_FUNCS(DECL) CU_OPTIONAL(DECL)
#undef DECL
} cu;

static char load_error[400];

static bool load(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(load_error, sizeof load_error, "libcuda.so.1 not found (%s)", dlerror());
    return false;
  }
#define LOAD(name, type, sym)                                                                      \
  if (!(*(void **)&cu.name = dlsym(h, sym))) {                                                     \
    snprintf(load_error, sizeof load_error, "libcuda.so.1 lacks %s", sym);                         \
    return false;                                                                                  \
  }
  CU_FUNCS(LOAD)
#undef LOAD
#define LOAD_OPT(name, type, sym) *(void **)&cu.name = dlsym(h, sym);
  CU_OPTIONAL(LOAD_OPT)
#undef LOAD_OPT
  return true;
}

/* ---------------------------------------------------------------- errors */

static const char *err_name(CUresult r) {
  const char *s = NULL;
  if (cu.cuGetErrorName && cu.cuGetErrorName(r, &s) == CUDA_SUCCESS && s) return s;
  return "CUDA_ERROR_UNKNOWN";
}

static const char *err_text(CUresult r) {
  const char *s = NULL;
  if (cu.cuGetErrorString && cu.cuGetErrorString(r, &s) == CUDA_SUCCESS && s) return s;
  return "unknown error";
}

static kcrt_status status_of(CUresult r) {
  switch (r) {
  case CUDA_ERROR_OUT_OF_MEMORY: return KCRT_ERROR_OUT_OF_MEMORY;
  case CUDA_ERROR_NO_DEVICE: return KCRT_ERROR_NO_DEVICE;
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION: return KCRT_ERROR_BUILD_FAILED;
  case CUDA_ERROR_NO_BINARY_FOR_GPU: return KCRT_ERROR_NO_BINARY;
  case CUDA_ERROR_NOT_FOUND: return KCRT_ERROR_KERNEL_NOT_FOUND;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return KCRT_ERROR_INVALID_LAUNCH;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED: return KCRT_ERROR_LAUNCH_FAILED;
  default: return KCRT_ERROR_DRIVER;
  }
}

static kcrt_status fail(CUresult r, const char *what) {
  return kcrt_fail(status_of(r), "CUDA: %s failed: %s (%d): %s", what, err_name(r), r, err_text(r));
}

/* ---------------------------------------------------------------- devices */

typedef struct CuDev {
  CUdevice dev;
  CUcontext ctx;
  int cc;             /* 90 for sm_90 */
  int default_shared; /* bytes a block may use without opting in */
  char driver[128];
} CuDev;

static CuDev *cd(kcrt_device *d) {
  return d->priv;
}

/* Every driver call runs with the device's context current, restoring the caller's. */
/* enter/leave pair up, and may nest. When the device's context is current already (a
 * program that uses one device: every launch after the first), nothing is pushed or popped:
 * asking costs a thread-local read in the driver, a push and a pop two calls more per launch
 * (bench/launch_raw). Bit i of `pushed` says whether the i-th open enter pushed. */
static _Thread_local uint64_t pushed;
static _Thread_local unsigned depth;

static bool enter(kcrt_device *d) {
  CUcontext cur = NULL;
  bool push = !cu.cuCtxGetCurrent || cu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS ||
              cur != cd(d)->ctx || depth >= 64;
  if (push && cu.cuCtxPushCurrent(cd(d)->ctx) != CUDA_SUCCESS) return false;
  if (depth < 64) pushed = (pushed & ~(1ull << depth)) | ((uint64_t)push << depth);
  depth++;
  return true;
}
static void leave(void) {
  depth--;
  if (depth >= 64 || (pushed >> depth & 1)) {
    CUcontext c;
    cu.cuCtxPopCurrent(&c);
  }
}
#define ENTER(dev)                                                                                 \
  do {                                                                                             \
    if (!enter(dev))                                                                               \
      return kcrt_fail(KCRT_ERROR_DRIVER, "CUDA: cannot make the context of %s current",           \
                       (dev)->info.name);                                                          \
  } while (0)

static int attr(CUdevice d, int a) {
  int v = 0;
  return cu.cuDeviceGetAttribute(&v, a, d) == CUDA_SUCCESS ? v : 0;
}

static void cu_enumerate(KcrtDevEntry **list, int *n, char *why, size_t whylen) {
  if (!load()) {
    snprintf(why, whylen, "%s", load_error);
    return;
  }
  CUresult r = cu.cuInit(0);
  if (r != CUDA_SUCCESS) {
    snprintf(why, whylen, "cuInit failed: %s (%s)", err_name(r), err_text(r));
    return;
  }
  int count = 0, ver = 0;
  cu.cuDriverGetVersion(&ver);
  if (cu.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    snprintf(why, whylen, "no CUDA device");
    return;
  }
  for (int i = 0; i < count; i++) {
    CUdevice d;
    if (cu.cuDeviceGet(&d, i) != CUDA_SUCCESS) continue;
    KcrtDevEntry *l = realloc(*list, (*n + 1) * sizeof *l);
    if (!l) return;
    *list = l;
    KcrtDevEntry *e = &l[(*n)++];
    memset(e, 0, sizeof *e);
    kcrt_device_info *f = &e->info;
    f->backend = KCRT_BACKEND_CUDA;
    f->type = KCRT_DEVICE_GPU;
    f->backend_index = i;
    if (cu.cuDeviceGetName(f->name, sizeof f->name, d) != CUDA_SUCCESS) strcpy(f->name, "CUDA GPU");
    f->name[sizeof f->name - 1] = 0;
    strcpy(f->vendor, "NVIDIA");
    strcpy(f->platform, "CUDA");
    snprintf(f->driver_version, sizeof f->driver_version, "%d.%d", ver / 1000, ver % 1000 / 10);
    size_t mem = 0;
    cu.cuDeviceTotalMem(&mem, d);
    f->global_mem_bytes = mem;
    f->max_alloc_bytes = mem; /* CUDA has no per-allocation limit below the memory size */
    f->compute_units = (uint32_t)attr(d, ATTR_MULTIPROCESSOR_COUNT);
    for (int k = 0; k < 3; k++) {
      f->max_block_dim[k] = (uint64_t)attr(d, ATTR_MAX_BLOCK_DIM_X + k);
      f->max_grid_dim[k] = (uint64_t)attr(d, ATTR_MAX_GRID_DIM_X + k);
    }
    f->max_threads_per_block = (uint64_t)attr(d, ATTR_MAX_THREADS_PER_BLOCK);
    int optin = attr(d, ATTR_MAX_SHARED_PER_BLOCK_OPTIN);
    int plain = attr(d, ATTR_MAX_SHARED_PER_BLOCK);
    f->max_shared_bytes = (uint64_t)(optin > plain ? optin : plain);
    f->cc_major = attr(d, ATTR_CC_MAJOR);
    f->cc_minor = attr(d, ATTR_CC_MINOR);
    f->fp64 = 1; /* every CUDA GPU since compute capability 1.3 */
    f->denormals = KCRT_DENORMALS_F32 | KCRT_DENORMALS_F64;
    e->be = &kcrt_cuda_backend;
    e->h1 = (void *)(intptr_t)d;
  }
}

static kcrt_status cu_open(kcrt_device *dev) {
  CuDev *c = calloc(1, sizeof *c);
  if (!c) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  c->dev = (CUdevice)(intptr_t)dev->entry->h1;
  CUresult r = cu.cuDevicePrimaryCtxRetain(&c->ctx, c->dev);
  if (r != CUDA_SUCCESS) {
    free(c);
    return fail(r, "cuDevicePrimaryCtxRetain");
  }
  c->cc = dev->info.cc_major * 10 + dev->info.cc_minor;
  c->default_shared = attr(c->dev, ATTR_MAX_SHARED_PER_BLOCK);
  snprintf(c->driver, sizeof c->driver, "%s", dev->info.driver_version);
  dev->priv = c;
  return KCRT_SUCCESS;
}

static void cu_close(kcrt_device *dev) {
  cu.cuDevicePrimaryCtxRelease(cd(dev)->dev);
  free(cd(dev));
}

/* ---------------------------------------------------------------- memory */

static CUstream defq(kcrt_device *d) {
  return d->defq->h;
}

static kcrt_status sync_after(kcrt_device *dev, CUresult r, const char *what) {
  if (r == CUDA_SUCCESS) r = cu.cuStreamSynchronize(defq(dev));
  leave();
  return r ? fail(r, what) : KCRT_SUCCESS;
}

static kcrt_status cu_mem_alloc(kcrt_buffer *b) {
  ENTER(b->dev);
  CUdeviceptr p = 0;
  CUresult r = cu.cuMemAlloc(&p, b->size);
  leave();
  b->dptr = p;
  if (r)
    return kcrt_fail(status_of(r), "CUDA: cannot allocate %zu bytes on %s: %s (%s)", b->size,
                     b->dev->info.name, err_name(r), err_text(r));
  return KCRT_SUCCESS;
}

static kcrt_status cu_mem_view(kcrt_buffer *v, kcrt_buffer *parent, size_t off) {
  v->dptr = parent->dptr + off;
  return KCRT_SUCCESS;
}

static void cu_mem_free(kcrt_buffer *b) {
  if (b->view_of || b->borrowed) return; /* its parent's memory, or another library's */
  if (!enter(b->dev)) return;
  cu.cuMemFree(b->dptr);
  leave();
}

static kcrt_status cu_mem_write(kcrt_buffer *b, size_t off, const void *src, size_t n) {
  ENTER(b->dev);
  return sync_after(b->dev, cu.cuMemcpyHtoDAsync(b->dptr + off, src, n, defq(b->dev)),
                    "cuMemcpyHtoDAsync");
}

static kcrt_status cu_mem_read(kcrt_buffer *b, size_t off, void *dst, size_t n) {
  ENTER(b->dev);
  return sync_after(b->dev, cu.cuMemcpyDtoHAsync(dst, b->dptr + off, n, defq(b->dev)),
                    "cuMemcpyDtoHAsync");
}

static kcrt_status cu_mem_copy(kcrt_buffer *d, size_t doff, kcrt_buffer *s, size_t soff, size_t n) {
  ENTER(d->dev);
  return sync_after(d->dev, cu.cuMemcpyDtoDAsync(d->dptr + doff, s->dptr + soff, n, defq(d->dev)),
                    "cuMemcpyDtoDAsync");
}

static kcrt_status cu_mem_fill(kcrt_buffer *b, size_t off, unsigned char byte, size_t n) {
  ENTER(b->dev);
  return sync_after(b->dev, cu.cuMemsetD8Async(b->dptr + off, byte, n, defq(b->dev)),
                    "cuMemsetD8Async");
}

/* A host-filled variable is the module's own global: its address, checked against the table. */
static kcrt_status cu_symbol_init(kcrt_module *m, const KcbSymbol *s, kcrt_buffer *b) {
  ENTER(m->dev);
  CUdeviceptr p = 0;
  size_t size = 0;
  CUresult r = cu.cuModuleGetGlobal(&p, &size, m->h, s->name);
  leave();
  if (r) return fail(r, "cuModuleGetGlobal");
  if (size != s->size)
    return kcrt_fail(KCRT_ERROR_INVALID_MODULE,
                     "the module's variable '%s' is %zu bytes but the symbol table says %llu",
                     s->name, size, (unsigned long long)s->size);
  b->dptr = p;
  b->borrowed = true;
  return cu_mem_fill(b, 0, 0, b->size);
}

enum { /* CUpointer_attribute */
       PTR_DEVICE_ORDINAL = 9,
       PTR_RANGE_START_ADDR = 11,
       PTR_RANGE_SIZE = 12,
};

static kcrt_status cu_mem_wrap(kcrt_buffer *b) {
  if (!cu.cuPointerGetAttribute)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kcrt_buffer_wrap: the CUDA driver has no cuPointerGetAttribute");
  ENTER(b->dev);
  int ordinal = -1;
  CUdeviceptr start = 0;
  size_t range = 0;
  CUresult r = cu.cuPointerGetAttribute(&ordinal, PTR_DEVICE_ORDINAL, b->dptr);
  if (!r) r = cu.cuPointerGetAttribute(&start, PTR_RANGE_START_ADDR, b->dptr);
  if (!r) r = cu.cuPointerGetAttribute(&range, PTR_RANGE_SIZE, b->dptr);
  leave();
  if (r)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_wrap: 0x%llx is not device memory the CUDA driver knows (%s)",
                     (unsigned long long)b->dptr, err_name(r));
  if (ordinal != (int)cd(b->dev)->dev)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_wrap: 0x%llx is memory of CUDA device %d, not of %s (device %d)",
                     (unsigned long long)b->dptr, ordinal, b->dev->info.name, (int)cd(b->dev)->dev);
  if (b->dptr - start + b->size > range)
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                     "kcrt_buffer_wrap: %zu bytes at 0x%llx pass the end of its allocation "
                     "(%zu bytes at 0x%llx)",
                     b->size, (unsigned long long)b->dptr, range, (unsigned long long)start);
  return KCRT_SUCCESS;
}

/* Between two CUDA devices' buffers: the driver copies peer to peer where the GPUs can (NVLink,
 * PCIe peer access) and through the host where they cannot. Everything queued on either
 * device's default queue comes first, as for the other buffer calls. */
static kcrt_status cu_mem_copy_peer(kcrt_buffer *d, size_t doff, kcrt_buffer *s, size_t soff,
                                    size_t n) {
  if (!cu.cuMemcpyPeer)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "the CUDA driver has no cuMemcpyPeer");
  kcrt_status st = kcrt_device_synchronize(s->dev);
  if (!st) st = kcrt_device_synchronize(d->dev);
  if (st) return st;
  ENTER(d->dev);
  CUresult r = cu.cuMemcpyPeer(d->dptr + doff, cd(d->dev)->ctx, s->dptr + soff, cd(s->dev)->ctx, n);
  leave();
  return r ? fail(r, "cuMemcpyPeer") : KCRT_SUCCESS;
}

static kcrt_status cu_wait_stream(kcrt_device *dev, uint64_t stream) {
  ENTER(dev);
  /* 1 and 2 are the driver's own CU_STREAM_LEGACY and CU_STREAM_PER_THREAD handles. */
  CUresult r = cu.cuStreamSynchronize((CUstream)(uintptr_t)stream);
  leave();
  return r ? fail(r, "cuStreamSynchronize (another library's stream)") : KCRT_SUCCESS;
}

/* ---------------------------------------------------------------- queues, events */

static kcrt_status cu_queue_create(kcrt_queue *q) {
  ENTER(q->dev);
  CUstream s;
  /* Non-blocking: no implicit ordering against the legacy default stream, which other CUDA
   * code in the process may be using. */
  CUresult r = cu.cuStreamCreate(&s, STREAM_NON_BLOCKING);
  leave();
  if (r) return fail(r, "cuStreamCreate");
  q->h = s;
  return KCRT_SUCCESS;
}

static void cu_queue_destroy(kcrt_queue *q) {
  if (!q->h || !enter(q->dev)) return;
  cu.cuStreamDestroy(q->h);
  leave();
}

static kcrt_status cu_queue_sync(kcrt_queue *q) {
  ENTER(q->dev);
  CUresult r = cu.cuStreamSynchronize(q->h);
  leave();
  return r ? fail(r, "cuStreamSynchronize") : KCRT_SUCCESS;
}

static kcrt_status cu_event_create(kcrt_event *e) {
  ENTER(e->dev);
  CUevent ev;
  CUresult r = cu.cuEventCreate(&ev, 0);
  leave();
  if (r) return fail(r, "cuEventCreate");
  e->h = ev;
  return KCRT_SUCCESS;
}

static void cu_event_destroy(kcrt_event *e) {
  if (!enter(e->dev)) return;
  cu.cuEventDestroy(e->h);
  leave();
}

static kcrt_status cu_event_record(kcrt_event *e, kcrt_queue *q) {
  ENTER(e->dev);
  CUresult r = cu.cuEventRecord(e->h, q->h);
  leave();
  return r ? fail(r, "cuEventRecord") : KCRT_SUCCESS;
}

static kcrt_status cu_event_sync(kcrt_event *e) {
  ENTER(e->dev);
  CUresult r = cu.cuEventSynchronize(e->h);
  leave();
  return r ? fail(r, "cuEventSynchronize") : KCRT_SUCCESS;
}

static kcrt_status cu_event_elapsed(kcrt_event *a, kcrt_event *b, double *ms) {
  ENTER(a->dev);
  CUresult r = cu.cuEventSynchronize(a->h);
  if (!r) r = cu.cuEventSynchronize(b->h);
  float f = 0;
  if (!r) {
    if (cu.cuEventElapsedTime_v2)
      r = cu.cuEventElapsedTime_v2(&f, a->h, b->h);
    else if (cu.cuEventElapsedTime)
      r = cu.cuEventElapsedTime(&f, a->h, b->h);
    else
      r = CUDA_ERROR_NOT_FOUND;
  }
  leave();
  if (r) return fail(r, "cuEventElapsedTime");
  *ms = f;
  return KCRT_SUCCESS;
}

/* ---------------------------------------------------------------- modules */

enum { LOG_SIZE = 1 << 16 };

/* Appends a JIT log to the current error message, trimmed of trailing NULs/newlines. */
static void append_log(const char *log) {
  if (!log || !*log) return;
  kcrt_error_append("\n");
  kcrt_error_append(log);
}

/* Loads an image (cubin or PTX) with the error log captured; NULL module on failure. */
static CUresult load_image(const void *img, CUmodule *mod, char *log, size_t loglen) {
  CUjit_option opts[] = {JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, (void *)(uintptr_t)(loglen - 1)};
  log[0] = 0;
  return cu.cuModuleLoadDataEx(mod, img, 2, opts, vals);
}

static const KcbSection *best_cubin(const KcbBundle *b, int cc) {
  const KcbSection *best = NULL;
  for (uint32_t i = 0; i < b->nsecs; i++) {
    const KcbSection *s = &b->secs[i];
    if (s->kind != KCB_SEC_CUBIN || !s->size) continue;
    /* A cubin runs on its own major version at an equal or later minor version. */
    if ((int)s->arch == cc) return s;
    if ((int)s->arch / 10 == cc / 10 && (int)s->arch % 10 <= cc % 10 &&
        (!best || s->arch > best->arch))
      best = s;
  }
  return best;
}

static const KcbSection *best_ptx(const KcbBundle *b, int cc) {
  const KcbSection *best = NULL;
  for (uint32_t i = 0; i < b->nsecs; i++) {
    const KcbSection *s = &b->secs[i];
    if (s->kind == KCB_SEC_PTX && s->size && (int)s->arch <= cc && (!best || s->arch > best->arch))
      best = s;
  }
  return best;
}

static kcrt_status load_ptx(kcrt_module *m, const KcbSection *ps, CUmodule *mod) {
  kcrt_device *dev = m->dev;
  const char *src = *m->b->source ? m->b->source : "the module";
  double t0 = kcrt_now_ms();
  char *ptx = kcb_text(ps), *log = calloc(1, LOG_SIZE);
  kcrt_status st = KCRT_SUCCESS;
  CUresult r = ptx && log ? load_image(ptx, mod, log, LOG_SIZE) : CUDA_ERROR_OUT_OF_MEMORY;
  if (r) {
    st = kcrt_fail(status_of(r) == KCRT_ERROR_DRIVER ? KCRT_ERROR_BUILD_FAILED : status_of(r),
                   "CUDA: loading the sm_%u PTX of %s on %s (sm_%d) failed: %s (%s)", ps->arch, src,
                   dev->info.name, cd(dev)->cc, err_name(r), err_text(r));
    append_log(log);
  } else {
    /* The driver's compute cache (~/.nv/ComputeCache, CUDA_CACHE_* variables) makes a repeat
     * of this load cheap; the time says which it was. */
    kcrt_log("cuda: %s JIT compiled from sm_%u PTX in %.1f ms", src, ps->arch, kcrt_now_ms() - t0);
  }
  free(log);
  free(ptx);
  return st;
}

static kcrt_status cu_module_load(kcrt_module *m) {
  kcrt_device *dev = m->dev;
  int cc = cd(dev)->cc;
  const char *want = getenv("KCC_CUDA_FORM"); /* "ptx" or "cubin": force one path */
  const KcbSection *cub = want && !strcmp(want, "ptx") ? NULL : best_cubin(m->b, cc);
  const KcbSection *ptx = want && !strcmp(want, "cubin") ? NULL : best_ptx(m->b, cc);
  if (!cub && !ptx) {
    kcrt_fail(KCRT_ERROR_NO_BINARY,
              "the bundle has no cubin or PTX for %s (sm_%d); it has:", dev->info.name, cc);
    int listed = 0;
    for (uint32_t i = 0; i < m->b->nsecs; i++) {
      const KcbSection *s = &m->b->secs[i];
      if (s->kind != KCB_SEC_CUBIN && s->kind != KCB_SEC_PTX) continue;
      char item[64];
      snprintf(item, sizeof item, "%s %s sm_%u", listed++ ? "," : "",
               s->kind == KCB_SEC_CUBIN ? "cubin" : "PTX", s->arch);
      kcrt_error_append(item);
    }
    if (!listed) kcrt_error_append(" no NVIDIA code");
    return KCRT_ERROR_NO_BINARY;
  }
  ENTER(dev);
  CUmodule mod = NULL;
  kcrt_status st = KCRT_ERROR_NO_BINARY;
  if (cub) {
    char log[4096];
    double t0 = kcrt_now_ms();
    CUresult r = load_image(cub->data, &mod, log, sizeof log);
    if (!r) {
      st = KCRT_SUCCESS;
      kcrt_log("cuda: loaded the sm_%u cubin in %.1f ms", cub->arch, kcrt_now_ms() - t0);
    } else {
      st = fail(r, "cuModuleLoadDataEx (cubin)");
      append_log(log);
      if (ptx)
        kcrt_log("cuda: the sm_%u cubin was refused (%s); trying PTX", cub->arch, err_name(r));
    }
  }
  if (st && ptx) st = load_ptx(m, ptx, &mod);
  leave();
  if (!st) m->h = mod;
  return st;
}

static void cu_module_unload(kcrt_module *m) {
  if (!enter(m->dev)) return;
  cu.cuModuleUnload(m->h);
  leave();
}

static kcrt_status cu_kernel_init(kcrt_kernel *k) {
  ENTER(k->mod->dev);
  CUfunction f;
  CUresult r = cu.cuModuleGetFunction(&f, k->mod->h, k->k->name);
  if (r) {
    leave();
    if (r == CUDA_ERROR_NOT_FOUND)
      return kcrt_fail(KCRT_ERROR_INVALID_MODULE,
                       "the bundle's CUDA code has no kernel '%s' although its kernel table "
                       "lists it",
                       k->k->name);
    return fail(r, "cuModuleGetFunction");
  }
  int v = 0;
  if (!cu.cuFuncGetAttribute(&v, FATTR_MAX_THREADS_PER_BLOCK, f) && v > 0 &&
      (uint64_t)v < k->max_threads)
    k->max_threads = (uint64_t)v;
  if (!cu.cuFuncGetAttribute(&v, FATTR_SHARED_SIZE_BYTES, f) && (uint64_t)v > k->static_shared)
    k->static_shared = (uint64_t)v;
  leave();
  k->h = f;
  return KCRT_SUCCESS;
}

static void cu_kernel_release(kcrt_kernel *k) {
  (void)k; /* owned by the module */
}

/* ---------------------------------------------------------------- images (issue 30)
 * An image is a CUDA array made for surface loads and stores (layered for image arrays) and its
 * surface object; a 1D buffer image is linear memory. Kernels sample in their own code
 * (docs/design.md, "Images on CUDA"), so no texture object is made and a sampler is only its
 * CLK_* bits; an image parameter receives img->kdesc (docs/bundle.md). */

static kcrt_status make_array(kcrt_image *img);

static kcrt_status cu_image_create(kcrt_image *img) {
  kcrt_device *dev = img->dev;
  if (!cu.cuArray3DCreate || !cu.cuArrayDestroy || !cu.cuMemcpy3DAsync || !cu.cuSurfObjectCreate ||
      !cu.cuSurfObjectDestroy)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kcrt_image_create: the CUDA driver of '%s' lacks the array and surface "
                     "object functions",
                     dev->info.name);
  const kcrt_image_desc *d = &img->desc;
  if (d->type == KCRT_IMAGE_1D_BUFFER) {
    /* Linear memory, which the kernel reads and writes at its address (the descriptor's first
     * field): a 1D surface is at most tens of thousands of texels wide, far below the buffers
     * such images view. */
    ENTER(dev);
    CUdeviceptr p = 0;
    CUresult r = cu.cuMemAlloc(&p, img->bytes);
    leave();
    if (r) return fail(r, "cuMemAlloc (a 1D buffer image)");
    img->mem = NULL;
    img->kdesc.surf = p;
  } else {
    kcrt_status st = make_array(img);
    if (st != KCRT_SUCCESS) return st;
  }
  kcrt_image_set_kdesc(img, img->kdesc.surf);
  return KCRT_SUCCESS;
}

/* The array format of a channel type: the type itself, so that a texture object over the array
 * (kcrt_texture_create) samples and converts as CUDA does; kcc's own image code reads it with
 * unformatted surface loads (suld.b), which take any format of the texel's size. */
static int array_format(kcrt_channel_type t, size_t chb) {
  switch (t) {
  case KCRT_SNORM_INT8:
  case KCRT_SIGNED_INT8: return AF_SIGNED_INT8;
  case KCRT_SNORM_INT16:
  case KCRT_SIGNED_INT16: return AF_SIGNED_INT16;
  case KCRT_SIGNED_INT32: return AF_SIGNED_INT32;
  case KCRT_HALF_FLOAT: return AF_HALF;
  case KCRT_FLOAT: return AF_FLOAT;
  default: return chb == 1 ? AF_UNSIGNED_INT8 : chb == 2 ? AF_UNSIGNED_INT16 : AF_UNSIGNED_INT32;
  }
}

/* A CUDA array for surface loads and stores and its surface object (img->mem, kdesc.surf). */
static kcrt_status make_array(kcrt_image *img) {
  kcrt_device *dev = img->dev;
  const kcrt_image_desc *d = &img->desc;
  size_t chb = img->pixel / (size_t)kcrt_image_channels(d->order);
  bool layered = d->type == KCRT_IMAGE_1D_ARRAY || d->type == KCRT_IMAGE_2D_ARRAY;
  CuArray3DDesc ad = {
      .Width = d->width,
      /* An extent the type lacks is 0, never 1, even where the caller gave 1 (kcrt_image_create
         takes either): a 1D image as a 2D array of height 1 filters its only row with the
         border row in border mode, halving every texel (tex1D samples y = 0, the rows' edge). */
      .Height = d->type == KCRT_IMAGE_1D || d->type == KCRT_IMAGE_1D_ARRAY ? 0 : d->height,
      .Depth = layered                    ? d->array_size
               : d->type == KCRT_IMAGE_3D ? d->depth
                                          : 0,
      .Format = array_format(d->data_type, chb),
      .NumChannels = (unsigned)kcrt_image_channels(d->order),
      .Flags = ARRAY3D_SURFACE_LDST | (layered ? ARRAY3D_LAYERED : 0),
  };
  ENTER(dev);
  CUarray a = NULL;
  CUresult r = cu.cuArray3DCreate(&a, &ad);
  if (r) {
    leave();
    if (r == CUDA_ERROR_INVALID_VALUE)
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                       "kcrt_image_create: %zu x %zu x %zu (%zu layers) is beyond the surface "
                       "sizes of device '%s' (cuArray3DCreate: CUDA_ERROR_INVALID_VALUE)",
                       d->width, d->height, d->depth, d->array_size, dev->info.name);
    return fail(r, "cuArray3DCreate");
  }
  CuResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.res.array.hArray = a;
  CUsurfObject so = 0;
  r = cu.cuSurfObjectCreate(&so, &rd);
  if (r) {
    cu.cuArrayDestroy(a);
    leave();
    return fail(r, "cuSurfObjectCreate");
  }
  leave();
  img->mem = a;
  img->kdesc.surf = so;
  return KCRT_SUCCESS;
}

static void cu_image_free(kcrt_image *img) {
  if (!enter(img->dev)) return;
  if (img->desc.type == KCRT_IMAGE_1D_BUFFER) {
    cu.cuMemFree(img->kdesc.surf);
  } else {
    cu.cuSurfObjectDestroy(img->kdesc.surf);
    cu.cuArrayDestroy(img->mem);
  }
  leave();
}

/* The whole image between the array and host memory laid out as kcrt_image_write says (rows,
 * then slices or layers), on the default queue and waited for. */
static kcrt_status image_copy(kcrt_image *img, const void *src, void *dst) {
  const kcrt_image_desc *d = &img->desc;
  if (d->type == KCRT_IMAGE_1D_BUFFER) {
    ENTER(img->dev);
    CUresult r = src ? cu.cuMemcpyHtoDAsync(img->kdesc.surf, src, img->bytes, defq(img->dev))
                     : cu.cuMemcpyDtoHAsync(dst, img->kdesc.surf, img->bytes, defq(img->dev));
    return sync_after(img->dev, r, src ? "cuMemcpyHtoDAsync" : "cuMemcpyDtoHAsync");
  }
  CuMemcpy3D c;
  memset(&c, 0, sizeof c);
  c.WidthInBytes = d->width * img->pixel;
  c.Height = d->type == KCRT_IMAGE_1D_ARRAY ? 1 : d->height ? d->height : 1;
  c.Depth = d->type == KCRT_IMAGE_1D_ARRAY || d->type == KCRT_IMAGE_2D_ARRAY ? d->array_size
            : d->depth                                                       ? d->depth
                                                                             : 1;
  if (src) {
    c.srcMemoryType = MEMTYPE_HOST, c.srcHost = src, c.srcPitch = c.WidthInBytes;
    c.srcHeight = c.Height;
    c.dstMemoryType = MEMTYPE_ARRAY, c.dstArray = img->mem;
  } else {
    c.srcMemoryType = MEMTYPE_ARRAY, c.srcArray = img->mem;
    c.dstMemoryType = MEMTYPE_HOST, c.dstHost = dst, c.dstPitch = c.WidthInBytes;
    c.dstHeight = c.Height;
  }
  ENTER(img->dev);
  return sync_after(img->dev, cu.cuMemcpy3DAsync(&c, defq(img->dev)), "cuMemcpy3DAsync");
}

static kcrt_status cu_image_write(kcrt_image *img, const void *src) {
  return image_copy(img, src, NULL);
}

static kcrt_status cu_image_read(kcrt_image *img, void *dst) {
  return image_copy(img, NULL, dst);
}

static kcrt_status cu_sampler_create(kcrt_sampler *s) {
  (void)s; /* its bits (image.c) are all a kernel needs */
  return KCRT_SUCCESS;
}

static void cu_sampler_free(kcrt_sampler *s) {
  (void)s;
}

/* A CUtexObject over the image's array (a 1D buffer image's linear memory) with the texture's
 * sampling: what PTX's tex instructions read. */
static kcrt_status cu_texture_create(kcrt_texture *t) {
  kcrt_device *dev = t->dev;
  const kcrt_image *img = t->img;
  if (!cu.cuTexObjectCreate || !cu.cuTexObjectDestroy)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kcrt_texture_create: the CUDA driver of '%s' lacks cuTexObjectCreate",
                     dev->info.name);
  CuResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  size_t nch = (size_t)kcrt_image_channels(img->desc.order);
  if (img->mem) {
    rd.resType = 0;
    rd.res.array.hArray = img->mem;
  } else {
    rd.resType = 2;
    rd.res.linear.devPtr = img->kdesc.surf;
    rd.res.linear.format = array_format(img->desc.data_type, img->pixel / nch);
    rd.res.linear.numChannels = (unsigned)nch;
    rd.res.linear.sizeInBytes = img->bytes;
  }
  CuTextureDesc td;
  memset(&td, 0, sizeof td);
  static const int modes[] = {[KCRT_ADDRESS_NONE] = 1,
                              [KCRT_ADDRESS_CLAMP_TO_EDGE] = 1,
                              [KCRT_ADDRESS_CLAMP] = 3,
                              [KCRT_ADDRESS_REPEAT] = 0,
                              [KCRT_ADDRESS_MIRRORED_REPEAT] = 2};
  for (int i = 0; i < 3; i++) td.addressMode[i] = modes[t->desc.addressing];
  td.filterMode = t->desc.filter == KCRT_FILTER_LINEAR ? 1 : 0;
  td.flags =
      (t->desc.read_mode == KCRT_READ_ELEMENT_TYPE ? 1u : 0u) | (t->desc.normalized ? 2u : 0u);
  ENTER(dev);
  CUtexObject o = 0;
  CUresult r = cu.cuTexObjectCreate(&o, &rd, &td, NULL);
  leave();
  if (r) return fail(r, "cuTexObjectCreate");
  t->cu = o;
  return KCRT_SUCCESS;
}

static void cu_texture_free(kcrt_texture *t) {
  if (!enter(t->dev)) return;
  cu.cuTexObjectDestroy(t->cu);
  leave();
}

static kcrt_status cu_launch(kcrt_kernel *k, kcrt_queue *q, const uint64_t grid[3],
                             const uint64_t block[3], size_t dyn, const kcrt_arg *args) {
  kcrt_device *dev = k->mod->dev;
  uint32_t n = k->k->nparams + k->k->nhidden;
  void *small[32];
  CUdeviceptr sptr[32];
  uint32_t soff[32];
  void **params = n <= 32 ? small : malloc(n * sizeof *params);
  CUdeviceptr *ptrs = n <= 32 ? sptr : malloc(n * sizeof *ptrs);
  uint32_t *offs = n <= 32 ? soff : malloc(n * sizeof *offs);
  kcrt_status st = KCRT_SUCCESS;
  if (!params || !ptrs || !offs) {
    st = kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
    goto out;
  }
  /* Local-memory parameters are 32-bit byte offsets into the dynamic shared region: their
   * buffers follow the launch's own dynamic bytes, and the launch asks for all of it. */
  if (k->k->nlocal) dyn = (size_t)kcrt_local_layout(k->k, args, dyn, offs); /* checked */
  for (uint32_t i = 0; i < n; i++) {
    if (k->k->params[i].kind == KCB_PARAM_POINTER ||
        k->k->params[i].kind == KCB_PARAM_BOUNDS_RECORD) {
      ptrs[i] = args[i].buffer ? args[i].buffer->dptr : 0;
      params[i] = &ptrs[i];
    } else if (k->k->params[i].kind == KCB_PARAM_LOCAL) {
      params[i] = &offs[i];
    } else if (k->k->params[i].kind == KCB_PARAM_IMAGE) {
      kcrt_image *img; /* checked by kcrt_check_image_arg */
      memcpy(&img, args[i].value, sizeof img);
      params[i] = &img->kdesc;
    } else if (k->k->params[i].kind == KCB_PARAM_SAMPLER) {
      kcrt_sampler *smp;
      memcpy(&smp, args[i].value, sizeof smp);
      params[i] = &smp->bits;
    } else if (k->k->params[i].kind == KCB_PARAM_TEXTURE ||
               k->k->params[i].kind == KCB_PARAM_TEX_SAMPLER) {
      /* A kcrt texture's CUtexObject (and sampler bits, which PTX does not read); else the
       * program's own CUDA object, as it is. */
      kcrt_texture *t = kcrt_texture_of(dev, &args[i]);
      params[i] = !t                                          ? (void *)args[i].value
                  : k->k->params[i].kind == KCB_PARAM_TEXTURE ? (void *)&t->cu
                                                              : (void *)&t->smp->bits;
    } else if (k->k->params[i].kind == KCB_PARAM_SURFACE) {
      kcrt_surface *sf = kcrt_surface_of(dev, &args[i]);
      params[i] = sf ? (void *)&sf->img->kdesc.surf : (void *)args[i].value;
    } else {
      params[i] = (void *)args[i].value;
    }
  }
  if (!enter(dev)) {
    st = kcrt_fail(KCRT_ERROR_DRIVER, "CUDA: cannot make the context current");
    goto out;
  }
  /* Beyond the default per-block limit, a kernel must opt in to its dynamic shared size. */
  if (k->static_shared + dyn > (uint64_t)cd(dev)->default_shared) {
    pthread_mutex_lock(&k->lock);
    CUresult r = CUDA_SUCCESS;
    if (dyn > k->dyn_shared_set) {
      r = cu.cuFuncSetAttribute
              ? cu.cuFuncSetAttribute(k->h, FATTR_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn)
              : CUDA_ERROR_NOT_FOUND;
      if (!r) k->dyn_shared_set = dyn;
    }
    pthread_mutex_unlock(&k->lock);
    if (r) {
      leave();
      st = fail(r, "cuFuncSetAttribute (dynamic shared memory size)");
      goto out;
    }
  }
  CUresult r = cu.cuLaunchKernel(k->h, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2],
                                 (unsigned)block[0], (unsigned)block[1], (unsigned)block[2],
                                 (unsigned)dyn, q->h, params, NULL);
  leave();
  if (r)
    st = kcrt_fail(status_of(r), "CUDA: launching '%s' failed: %s (%s)", k->k->name, err_name(r),
                   err_text(r));
out:
  if (params != small) free(params);
  if (ptrs != sptr) free(ptrs);
  if (offs != soff) free(offs);
  return st;
}

const KcrtBackend kcrt_cuda_backend = {
    .id = KCRT_BACKEND_CUDA,
    .name = "CUDA",
    .enumerate = cu_enumerate,
    .open = cu_open,
    .close = cu_close,
    .mem_alloc = cu_mem_alloc,
    .mem_free = cu_mem_free,
    .mem_write = cu_mem_write,
    .mem_read = cu_mem_read,
    .mem_copy = cu_mem_copy,
    .mem_copy_peer = cu_mem_copy_peer,
    .mem_fill = cu_mem_fill,
    .mem_view = cu_mem_view,
    .mem_wrap = cu_mem_wrap,
    .wait_stream = cu_wait_stream,
    .image_create = cu_image_create,
    .image_free = cu_image_free,
    .image_write = cu_image_write,
    .image_read = cu_image_read,
    .sampler_create = cu_sampler_create,
    .sampler_free = cu_sampler_free,
    .texture_create = cu_texture_create,
    .texture_free = cu_texture_free,
    .raw_texobj = true,
    .queue_create = cu_queue_create,
    .queue_destroy = cu_queue_destroy,
    .queue_sync = cu_queue_sync,
    .event_create = cu_event_create,
    .event_destroy = cu_event_destroy,
    .event_record = cu_event_record,
    .event_sync = cu_event_sync,
    .event_elapsed = cu_event_elapsed,
    .module_load = cu_module_load,
    .module_unload = cu_module_unload,
    .symbol_init = cu_symbol_init,
    .kernel_init = cu_kernel_init,
    .kernel_release = cu_kernel_release,
    .launch = cu_launch,
};
