/* opencl.c — the OpenCL back end. The ICD loader (libOpenCL.so.1) is opened at run time and
 * every entry point is looked up by name, so libkcrt has no link-time dependency on OpenCL;
 * CL/cl.h is used for its types and prototypes only (through __typeof__).
 *
 * Mapping of the CUDA-style launch: global size = grid·block, local size = block, and the
 * dynamic shared memory of a kernel that has `extern shared` is its trailing __local
 * argument (index = number of table parameters plus host-filled variables), sized at launch;
 * each local-memory parameter (`__local T *`) is a __local argument at its own position, sized
 * by the launch's kcrt_local(bytes). Programs come from SPIR-V
 * (clCreateProgramWithIL) when the device lists SPIR-V in CL_DEVICE_IL_VERSION, else from the
 * OpenCL C source; built programs are shared per context and cached on disk as binaries. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include "internal.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the loader */

#define CL_REQUIRED(X)                                                                             \
  X(clGetPlatformIDs)                                                                              \
  X(clGetPlatformInfo)                                                                             \
  X(clGetDeviceIDs)                                                                                \
  X(clGetDeviceInfo)                                                                               \
  X(clCreateContext)                                                                               \
  X(clReleaseContext)                                                                              \
  X(clCreateCommandQueue)                                                                          \
  X(clReleaseCommandQueue)                                                                         \
  X(clCreateBuffer)                                                                                \
  X(clReleaseMemObject)                                                                            \
  X(clCreateSubBuffer)                                                                             \
  X(clEnqueueWriteBuffer)                                                                          \
  X(clEnqueueReadBuffer)                                                                           \
  X(clEnqueueCopyBuffer)                                                                           \
  X(clFinish)                                                                                      \
  X(clFlush)                                                                                       \
  X(clCreateProgramWithSource)                                                                     \
  X(clCreateProgramWithBinary)                                                                     \
  X(clBuildProgram)                                                                                \
  X(clGetProgramBuildInfo)                                                                         \
  X(clGetProgramInfo)                                                                              \
  X(clReleaseProgram)                                                                              \
  X(clCreateKernel)                                                                                \
  X(clReleaseKernel)                                                                               \
  X(clGetKernelInfo)                                                                               \
  X(clGetKernelWorkGroupInfo)                                                                      \
  X(clSetKernelArg)                                                                                \
  X(clEnqueueNDRangeKernel)                                                                        \
  X(clWaitForEvents)                                                                               \
  X(clReleaseEvent)                                                                                \
  X(clGetEventProfilingInfo)                                                                       \
  X(clEnqueueWriteImage)                                                                           \
  X(clEnqueueReadImage)                                                                            \
  X(clReleaseSampler)
/* Later than OpenCL 1.1: absent from old loaders; each has a fallback below. */
#define CL_OPTIONAL(X)                                                                             \
  X(clCreateProgramWithIL)                                                                         \
  X(clEnqueueFillBuffer)                                                                           \
  X(clEnqueueMarkerWithWaitList)                                                                   \
  X(clEnqueueMarker)                                                                               \
  X(clGetKernelSubGroupInfo)                                                                       \
  X(clCreateImage)                                                                                 \
  X(clCreateSampler)                                                                               \
  X(clCreateSamplerWithProperties)

static struct {
#define DECL(f) __typeof__(f) *f;
  CL_REQUIRED(DECL) CL_OPTIONAL(DECL)
#undef DECL
} cl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[400];

static void load(void) {
  void *h = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(load_error, sizeof load_error, "libOpenCL.so.1 not found (%s)", dlerror());
    return;
  }
#define LOAD(f)                                                                                    \
  if (!(*(void **)&cl.f = dlsym(h, #f))) {                                                         \
    snprintf(load_error, sizeof load_error, "libOpenCL.so.1 lacks %s", #f);                        \
    return;                                                                                        \
  }
  CL_REQUIRED(LOAD)
#undef LOAD
#define LOAD_OPT(f) *(void **)&cl.f = dlsym(h, #f);
  CL_OPTIONAL(LOAD_OPT)
#undef LOAD_OPT
}

static bool loaded(char *why, size_t n) {
  pthread_once(&load_once, load);
  if (load_error[0]) {
    if (why) snprintf(why, n, "%s", load_error);
    return false;
  }
  return true;
}

/* ---------------------------------------------------------------- errors */

static const char *err_name(cl_int e) {
  switch (e) {
    /* clang-format cannot lay out this table stably; keep it as written. */
    // clang-format off
#define E(x) case x: return #x;
    E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE) E(CL_COMPILER_NOT_AVAILABLE)
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE) E(CL_INVALID_CONTEXT) E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_BINARY) E(CL_INVALID_BUILD_OPTIONS)
    E(CL_INVALID_PROGRAM) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_WORK_ITEM_SIZE) E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT)
    E(CL_INVALID_OPERATION) E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_GLOBAL_WORK_SIZE)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) E(CL_MEM_COPY_OVERLAP)
    E(CL_LINK_PROGRAM_FAILURE) E(CL_INVALID_PLATFORM) E(CL_INVALID_EVENT_WAIT_LIST)
#undef E
        // clang-format on
        case -1001 : return "CL_PLATFORM_NOT_FOUND_KHR";
  default: return "CL_UNKNOWN_ERROR";
  }
}

static kcrt_status status_of(cl_int e) {
  switch (e) {
  case CL_OUT_OF_HOST_MEMORY:
  case CL_OUT_OF_RESOURCES:
  case CL_MEM_OBJECT_ALLOCATION_FAILURE:
  case CL_INVALID_BUFFER_SIZE: return KCRT_ERROR_OUT_OF_MEMORY;
  case CL_INVALID_WORK_GROUP_SIZE:
  case CL_INVALID_WORK_ITEM_SIZE:
  case CL_INVALID_GLOBAL_WORK_SIZE: return KCRT_ERROR_INVALID_LAUNCH;
  case CL_INVALID_ARG_SIZE:
  case CL_INVALID_ARG_VALUE:
  case CL_INVALID_KERNEL_ARGS: return KCRT_ERROR_INVALID_ARGUMENT;
  case CL_BUILD_PROGRAM_FAILURE:
  case CL_INVALID_BINARY: return KCRT_ERROR_BUILD_FAILED;
  case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return KCRT_ERROR_LAUNCH_FAILED;
  case CL_PROFILING_INFO_NOT_AVAILABLE: return KCRT_ERROR_NOT_SUPPORTED;
  default: return KCRT_ERROR_DRIVER;
  }
}

static kcrt_status fail(cl_int e, const char *what) {
  return kcrt_fail(status_of(e), "OpenCL: %s failed: %s (%d)", what, err_name(e), (int)e);
}

/* ---------------------------------------------------------------- devices */

typedef struct ClProg {
  struct ClProg *next;
  uint64_t hash;
  int form;
  cl_program prog;
  int refs;
} ClProg;

typedef struct ClDev {
  cl_platform_id plat;
  cl_device_id dev;
  cl_context ctx;
  pthread_mutex_t lock; /* progs */
  ClProg *progs;        /* the per-context build cache */
} ClDev;

enum { FORM_SOURCE = 1, FORM_SPIRV = 2 };

static void dev_str(cl_device_id d, cl_device_info what, char *out, size_t n) {
  out[0] = 0;
  if (cl.clGetDeviceInfo(d, what, n, out, NULL) != CL_SUCCESS) out[0] = 0;
  out[n - 1] = 0;
  /* Some drivers pad names with spaces. */
  size_t l = strlen(out);
  while (l && out[l - 1] == ' ') out[--l] = 0;
  char *s = out;
  while (*s == ' ') s++;
  if (s != out) memmove(out, s, strlen(s) + 1);
}

static uint64_t dev_ulong(cl_device_id d, cl_device_info what) {
  cl_ulong v = 0;
  return cl.clGetDeviceInfo(d, what, sizeof v, &v, NULL) == CL_SUCCESS ? v : 0;
}

static uint64_t dev_uint(cl_device_id d, cl_device_info what) {
  cl_uint v = 0;
  return cl.clGetDeviceInfo(d, what, sizeof v, &v, NULL) == CL_SUCCESS ? v : 0;
}

static uint64_t dev_size(cl_device_id d, cl_device_info what) {
  size_t v = 0;
  return cl.clGetDeviceInfo(d, what, sizeof v, &v, NULL) == CL_SUCCESS ? v : 0;
}

static void fill_info(cl_platform_id p, cl_device_id d, kcrt_device_info *f) {
  memset(f, 0, sizeof *f);
  f->backend = KCRT_BACKEND_OPENCL;
  dev_str(d, CL_DEVICE_NAME, f->name, sizeof f->name);
  dev_str(d, CL_DEVICE_VENDOR, f->vendor, sizeof f->vendor);
  dev_str(d, CL_DRIVER_VERSION, f->driver_version, sizeof f->driver_version);
  if (cl.clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof f->platform, f->platform, NULL))
    f->platform[0] = 0;
  f->platform[sizeof f->platform - 1] = 0;
  cl_device_type t = 0;
  cl.clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
  f->type = t & CL_DEVICE_TYPE_GPU           ? KCRT_DEVICE_GPU
            : t & CL_DEVICE_TYPE_CPU         ? KCRT_DEVICE_CPU
            : t & CL_DEVICE_TYPE_ACCELERATOR ? KCRT_DEVICE_ACCELERATOR
                                             : KCRT_DEVICE_OTHER;
  f->global_mem_bytes = dev_ulong(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  f->max_alloc_bytes = dev_ulong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  f->compute_units = (uint32_t)dev_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  uint64_t dims = dev_uint(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  size_t sizes[16] = {0};
  if (dims > 16) dims = 16;
  if (cl.clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), sizes, NULL))
    dims = 0;
  for (int i = 0; i < 3; i++) {
    f->max_block_dim[i] = i < (int)dims ? sizes[i] : 1;
    /* blockIdx and gridDim are unsigned int in the dialect: more groups could not be
     * numbered. */
    f->max_grid_dim[i] = UINT32_MAX;
  }
  f->max_threads_per_block = dev_size(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  f->max_shared_bytes = dev_ulong(d, CL_DEVICE_LOCAL_MEM_SIZE);
  char il[512] = "";
  if (cl.clGetDeviceInfo(d, CL_DEVICE_IL_VERSION, sizeof il, il, NULL) == CL_SUCCESS) {
    il[sizeof il - 1] = 0;
    f->spirv = strstr(il, "SPIR-V") != NULL;
  }
  f->fp64 = dev_ulong(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  f->denormals =
      ((dev_ulong(d, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_DENORM) ? KCRT_DENORMALS_F32 : 0) |
      ((dev_ulong(d, CL_DEVICE_DOUBLE_FP_CONFIG) & CL_FP_DENORM) ? KCRT_DENORMALS_F64 : 0);
}

static void cl_enumerate(KcrtDevEntry **list, int *n, char *why, size_t whylen) {
  if (!loaded(why, whylen)) return;
  cl_uint np = 0;
  cl_int e = cl.clGetPlatformIDs(0, NULL, &np);
  if (e != CL_SUCCESS || np == 0) {
    snprintf(why, whylen,
             "no OpenCL platform (%s; is an ICD installed in /etc/OpenCL/vendors "
             "or named by OCL_ICD_VENDORS?)",
             e ? err_name(e) : "0 platforms");
    return;
  }
  cl_platform_id *ps = calloc(np, sizeof *ps);
  if (!ps || cl.clGetPlatformIDs(np, ps, NULL) != CL_SUCCESS) {
    free(ps);
    snprintf(why, whylen, "clGetPlatformIDs failed");
    return;
  }
  int index = 0;
  for (cl_uint i = 0; i < np; i++) {
    cl_uint nd = 0;
    if (cl.clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || !nd) continue;
    cl_device_id *ds = calloc(nd, sizeof *ds);
    if (!ds || cl.clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, nd, ds, NULL) != CL_SUCCESS) {
      free(ds);
      continue;
    }
    for (cl_uint j = 0; j < nd; j++) {
      cl_bool avail = CL_FALSE, comp = CL_FALSE;
      cl.clGetDeviceInfo(ds[j], CL_DEVICE_AVAILABLE, sizeof avail, &avail, NULL);
      cl.clGetDeviceInfo(ds[j], CL_DEVICE_COMPILER_AVAILABLE, sizeof comp, &comp, NULL);
      if (!avail || !comp) continue; /* kcc needs the device's compiler for OpenCL C */
      KcrtDevEntry *l = realloc(*list, (*n + 1) * sizeof *l);
      if (!l) break;
      *list = l;
      KcrtDevEntry *d = &l[(*n)++];
      memset(d, 0, sizeof *d);
      fill_info(ps[i], ds[j], &d->info);
      d->info.backend_index = index++;
      d->be = &kcrt_opencl_backend;
      d->h1 = ps[i];
      d->h2 = ds[j];
    }
    free(ds);
  }
  free(ps);
  if (!index) snprintf(why, whylen, "%u OpenCL platform(s) but no usable device", np);
}

static ClDev *cd(kcrt_device *d) {
  return d->priv;
}

static kcrt_status cl_open(kcrt_device *dev) {
  ClDev *c = calloc(1, sizeof *c);
  if (!c) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  c->plat = dev->entry->h1;
  c->dev = dev->entry->h2;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)c->plat, 0};
  cl_int e;
  c->ctx = cl.clCreateContext(props, 1, &c->dev, NULL, NULL, &e);
  if (!c->ctx) {
    free(c);
    return fail(e, "clCreateContext");
  }
  pthread_mutex_init(&c->lock, NULL);
  dev->priv = c;
  return KCRT_SUCCESS;
}

static void cl_close(kcrt_device *dev) {
  ClDev *c = cd(dev);
  for (ClProg *p = c->progs, *nx; p; p = nx) {
    nx = p->next;
    cl.clReleaseProgram(p->prog);
    free(p);
  }
  cl.clReleaseContext(c->ctx);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

/* ---------------------------------------------------------------- memory */

static cl_command_queue defq(kcrt_device *d) {
  return d->defq->h;
}

static kcrt_status cl_mem_alloc(kcrt_buffer *b) {
  cl_int e;
  cl_mem m = cl.clCreateBuffer(cd(b->dev)->ctx, CL_MEM_READ_WRITE, b->size, NULL, &e);
  if (!m) {
    kcrt_fail(status_of(e), "OpenCL: cannot allocate %zu bytes on %s: %s (%d)", b->size,
              b->dev->info.name, err_name(e), (int)e);
    return status_of(e);
  }
  b->mem = m;
  return KCRT_SUCCESS;
}

static kcrt_status cl_mem_view(kcrt_buffer *v, kcrt_buffer *parent, size_t off) {
  cl_buffer_region r = {off, v->size};
  cl_int e;
  cl_mem m =
      cl.clCreateSubBuffer(parent->mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &e);
  if (!m) {
    if (e == CL_MISALIGNED_SUB_BUFFER_OFFSET) {
      cl_uint bits = 0;
      cl.clGetDeviceInfo(cd(v->dev)->dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                       "kcrt_buffer_view: offset %zu is not a multiple of %u bytes, the "
                       "alignment %s requires of a view",
                       off, bits / 8, v->dev->info.name);
    }
    return fail(e, "clCreateSubBuffer");
  }
  v->mem = m;
  return KCRT_SUCCESS;
}

static void cl_mem_free(kcrt_buffer *b) {
  cl.clReleaseMemObject(b->mem);
}

static kcrt_status cl_mem_write(kcrt_buffer *b, size_t off, const void *src, size_t n) {
  cl_int e = cl.clEnqueueWriteBuffer(defq(b->dev), b->mem, CL_TRUE, off, n, src, 0, NULL, NULL);
  return e ? fail(e, "clEnqueueWriteBuffer") : KCRT_SUCCESS;
}

static kcrt_status cl_mem_read(kcrt_buffer *b, size_t off, void *dst, size_t n) {
  cl_int e = cl.clEnqueueReadBuffer(defq(b->dev), b->mem, CL_TRUE, off, n, dst, 0, NULL, NULL);
  return e ? fail(e, "clEnqueueReadBuffer") : KCRT_SUCCESS;
}

static kcrt_status cl_mem_copy(kcrt_buffer *d, size_t doff, kcrt_buffer *s, size_t soff, size_t n) {
  cl_int e = cl.clEnqueueCopyBuffer(defq(d->dev), s->mem, d->mem, soff, doff, n, 0, NULL, NULL);
  if (!e) e = cl.clFinish(defq(d->dev));
  return e ? fail(e, "clEnqueueCopyBuffer") : KCRT_SUCCESS;
}

static kcrt_status cl_mem_fill(kcrt_buffer *b, size_t off, unsigned char byte, size_t n) {
  if (cl.clEnqueueFillBuffer) {
    cl_int e = cl.clEnqueueFillBuffer(defq(b->dev), b->mem, &byte, 1, off, n, 0, NULL, NULL);
    if (!e) e = cl.clFinish(defq(b->dev));
    return e ? fail(e, "clEnqueueFillBuffer") : KCRT_SUCCESS;
  }
  /* OpenCL 1.1 loaders: write a host copy of the pattern. */
  unsigned char *tmp = malloc(n);
  if (!tmp) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  memset(tmp, byte, n);
  kcrt_status st = cl_mem_write(b, off, tmp, n);
  free(tmp);
  return st;
}

/* ---------------------------------------------------------------- images, samplers */

/* The region a whole-image copy covers: width, then rows (or a 1D array's layers), then
 * slices (or a 2D array's layers). */
static void image_region(const kcrt_image *img, size_t r[3]) {
  const kcrt_image_desc *d = &img->desc;
  r[0] = d->width;
  r[1] = d->type == KCRT_IMAGE_1D_ARRAY ? d->array_size : d->height ? d->height : 1;
  r[2] = d->type == KCRT_IMAGE_2D_ARRAY ? d->array_size : d->depth ? d->depth : 1;
  if (d->type == KCRT_IMAGE_1D || d->type == KCRT_IMAGE_1D_BUFFER) r[1] = r[2] = 1;
  if (d->type == KCRT_IMAGE_2D || d->type == KCRT_IMAGE_1D_ARRAY) r[2] = 1;
}

static kcrt_status cl_image_create(kcrt_image *img) {
  kcrt_device *dev = img->dev;
  cl_bool support = CL_FALSE;
  cl.clGetDeviceInfo(cd(dev)->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL);
  if (!support || !cl.clCreateImage)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "kcrt_image_create: device '%s' has no %s",
                     dev->info.name, support ? "clCreateImage (OpenCL 1.2)" : "image support");
  static const cl_mem_object_type types[] = {
      [KCRT_IMAGE_1D] = CL_MEM_OBJECT_IMAGE1D,
      [KCRT_IMAGE_1D_BUFFER] = CL_MEM_OBJECT_IMAGE1D_BUFFER,
      [KCRT_IMAGE_1D_ARRAY] = CL_MEM_OBJECT_IMAGE1D_ARRAY,
      [KCRT_IMAGE_2D] = CL_MEM_OBJECT_IMAGE2D,
      [KCRT_IMAGE_2D_ARRAY] = CL_MEM_OBJECT_IMAGE2D_ARRAY,
      [KCRT_IMAGE_3D] = CL_MEM_OBJECT_IMAGE3D,
  };
  const kcrt_image_desc *d = &img->desc;
  /* kcrt's channel orders and types are OpenCL's own values. */
  cl_image_format fmt = {(cl_channel_order)d->order, (cl_channel_type)d->data_type};
  cl_image_desc cd_ = {0};
  cd_.image_type = types[d->type];
  cd_.image_width = d->width;
  cd_.image_height = d->height;
  cd_.image_depth = d->depth;
  cd_.image_array_size = d->array_size;
  cl_int e = CL_SUCCESS;
  cl_mem buf = NULL;
  if (d->type == KCRT_IMAGE_1D_BUFFER) {
    /* A 1D buffer image is a view of a buffer: libkcrt makes one of its own underneath. */
    buf = cl.clCreateBuffer(cd(dev)->ctx, CL_MEM_READ_WRITE, img->bytes, NULL, &e);
    if (!buf) return fail(e, "clCreateBuffer (under a 1D buffer image)");
    cd_.buffer = buf;
  }
  cl_mem m = cl.clCreateImage(cd(dev)->ctx, CL_MEM_READ_WRITE, &fmt, &cd_, NULL, &e);
  if (!m) {
    if (buf) cl.clReleaseMemObject(buf);
    if (e == CL_IMAGE_FORMAT_NOT_SUPPORTED || e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
      return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                       "kcrt_image_create: device '%s' does not support channel order 0x%x with "
                       "data type 0x%x for this image (%s)",
                       dev->info.name, (unsigned)d->order, (unsigned)d->data_type,
                       e == CL_IMAGE_FORMAT_NOT_SUPPORTED ? "CL_IMAGE_FORMAT_NOT_SUPPORTED"
                                                          : "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR");
    if (e == CL_INVALID_IMAGE_SIZE)
      return kcrt_fail(KCRT_ERROR_INVALID_VALUE,
                       "kcrt_image_create: %zu x %zu x %zu (%zu layers) is beyond the image "
                       "sizes of device '%s' (CL_INVALID_IMAGE_SIZE)",
                       d->width, d->height, d->depth, d->array_size, dev->info.name);
    return fail(e, "clCreateImage");
  }
  img->mem = m;
  img->buf = buf;
  return KCRT_SUCCESS;
}

static void cl_image_free(kcrt_image *img) {
  cl.clReleaseMemObject(img->mem);
  if (img->buf) cl.clReleaseMemObject(img->buf);
}

static kcrt_status cl_image_write(kcrt_image *img, const void *src) {
  size_t origin[3] = {0, 0, 0}, region[3];
  image_region(img, region);
  cl_int e = cl.clEnqueueWriteImage(defq(img->dev), img->mem, CL_TRUE, origin, region, 0, 0, src, 0,
                                    NULL, NULL);
  return e ? fail(e, "clEnqueueWriteImage") : KCRT_SUCCESS;
}

static kcrt_status cl_image_read(kcrt_image *img, void *dst) {
  size_t origin[3] = {0, 0, 0}, region[3];
  image_region(img, region);
  cl_int e = cl.clEnqueueReadImage(defq(img->dev), img->mem, CL_TRUE, origin, region, 0, 0, dst, 0,
                                   NULL, NULL);
  return e ? fail(e, "clEnqueueReadImage") : KCRT_SUCCESS;
}

static kcrt_status cl_sampler_create(kcrt_sampler *s) {
  kcrt_device *dev = s->dev;
  cl_bool support = CL_FALSE;
  cl.clGetDeviceInfo(cd(dev)->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL);
  if (!support)
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "kcrt_sampler_create: device '%s' has no images",
                     dev->info.name);
  static const cl_addressing_mode modes[] = {
      [KCRT_ADDRESS_NONE] = CL_ADDRESS_NONE,
      [KCRT_ADDRESS_CLAMP_TO_EDGE] = CL_ADDRESS_CLAMP_TO_EDGE,
      [KCRT_ADDRESS_CLAMP] = CL_ADDRESS_CLAMP,
      [KCRT_ADDRESS_REPEAT] = CL_ADDRESS_REPEAT,
      [KCRT_ADDRESS_MIRRORED_REPEAT] = CL_ADDRESS_MIRRORED_REPEAT,
  };
  cl_filter_mode filter = s->filter == KCRT_FILTER_LINEAR ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
  cl_int e = CL_SUCCESS;
  cl_sampler h = NULL;
  char ver[64] = "";
  dev_str(cd(dev)->dev, CL_DEVICE_VERSION, ver, sizeof ver);
  /* clCreateSampler is deprecated from OpenCL 2.0 on, and the properties call is absent from
   * 1.x platforms: each where it belongs. */
  if (cl.clCreateSamplerWithProperties && strncmp(ver, "OpenCL 1.", 9)) {
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                     s->normalized ? CL_TRUE : CL_FALSE,
                                     CL_SAMPLER_ADDRESSING_MODE,
                                     modes[s->addressing],
                                     CL_SAMPLER_FILTER_MODE,
                                     filter,
                                     0};
    h = cl.clCreateSamplerWithProperties(cd(dev)->ctx, props, &e);
  } else if (cl.clCreateSampler) {
    h = cl.clCreateSampler(cd(dev)->ctx, s->normalized ? CL_TRUE : CL_FALSE, modes[s->addressing],
                           filter, &e);
  } else {
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED, "kcrt_sampler_create: the OpenCL loader has no "
                                               "clCreateSampler");
  }
  if (!h) return fail(e, "clCreateSampler");
  s->h = h;
  return KCRT_SUCCESS;
}

static void cl_sampler_free(kcrt_sampler *s) {
  cl.clReleaseSampler(s->h);
}

/* ---------------------------------------------------------------- queues, events */

static kcrt_status cl_queue_create(kcrt_queue *q) {
  cl_int e;
  /* Profiling on every queue: events must be able to time whatever queue they mark. */
  cl_command_queue h =
      cl.clCreateCommandQueue(cd(q->dev)->ctx, cd(q->dev)->dev, CL_QUEUE_PROFILING_ENABLE, &e);
  if (!h) return fail(e, "clCreateCommandQueue");
  q->h = h;
  return KCRT_SUCCESS;
}

static void cl_queue_destroy(kcrt_queue *q) {
  if (q->h) cl.clReleaseCommandQueue(q->h);
}

static kcrt_status cl_queue_sync(kcrt_queue *q) {
  cl_int e = cl.clFinish(q->h);
  return e ? fail(e, "clFinish") : KCRT_SUCCESS;
}

static kcrt_status cl_event_create(kcrt_event *ev) {
  ev->h = NULL; /* an OpenCL event is made by the command it marks, at record time */
  return KCRT_SUCCESS;
}

static void cl_event_destroy(kcrt_event *ev) {
  if (ev->h) cl.clReleaseEvent(ev->h);
}

static kcrt_status cl_event_record(kcrt_event *ev, kcrt_queue *q) {
  cl_event e2 = NULL;
  cl_int e = cl.clEnqueueMarkerWithWaitList ? cl.clEnqueueMarkerWithWaitList(q->h, 0, NULL, &e2)
             : cl.clEnqueueMarker           ? cl.clEnqueueMarker(q->h, &e2)
                                            : CL_INVALID_OPERATION;
  if (e) return fail(e, "clEnqueueMarkerWithWaitList");
  if (ev->h) cl.clReleaseEvent(ev->h);
  ev->h = e2;
  return KCRT_SUCCESS;
}

static kcrt_status cl_event_sync(kcrt_event *ev) {
  cl_event e2 = ev->h;
  cl_int e = cl.clWaitForEvents(1, &e2);
  return e ? fail(e, "clWaitForEvents") : KCRT_SUCCESS;
}

static kcrt_status cl_event_elapsed(kcrt_event *a, kcrt_event *b, double *ms) {
  cl_event es[2] = {a->h, b->h};
  cl_int e = cl.clWaitForEvents(2, es);
  if (e) return fail(e, "clWaitForEvents");
  cl_ulong t0 = 0, t1 = 0;
  e = cl.clGetEventProfilingInfo(es[0], CL_PROFILING_COMMAND_END, sizeof t0, &t0, NULL);
  if (!e) e = cl.clGetEventProfilingInfo(es[1], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
  if (e) return fail(e, "clGetEventProfilingInfo");
  *ms = ((double)t1 - (double)t0) / 1e6;
  return KCRT_SUCCESS;
}

/* ---------------------------------------------------------------- programs */

static void build_log(ClDev *c, cl_program p) {
  size_t n = 0;
  if (cl.clGetProgramBuildInfo(p, c->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) || !n) return;
  char *log = malloc(n + 1);
  if (!log) return;
  if (!cl.clGetProgramBuildInfo(p, c->dev, CL_PROGRAM_BUILD_LOG, n, log, NULL)) {
    log[n] = 0;
    kcrt_error_append("\n");
    kcrt_error_append(log);
  }
  free(log);
}

/* The first kernel of b whose flags have one of `flags`, or NULL. */
static const KcbKernel *kernel_with(const KcbBundle *b, uint32_t flags) {
  for (uint32_t i = 0; i < b->nkernels; i++)
    if (b->kernels[i].flags & flags) return &b->kernels[i];
  return NULL;
}

/* The first kernel of b that uses warp-level operations, or NULL. */
static const KcbKernel *warp_kernel(const KcbBundle *b) {
  return kernel_with(b, KCB_KERNEL_WARP);
}

/* OpenCL C with warp-level operations is OpenCL C 2.0 with subgroups (or 3.0 with them).
 * Float division and sqrt are correctly rounded where the device can (OpenCL's default allows
 * 2.5 and 3 ulp; CUDA's, PTX's div.rn/sqrt.rn and __fdiv_rn are exact): NVIDIA's OpenCL
 * otherwise gives results one ulp off CUDA's. */
static const char *build_options(kcrt_device *dev, const KcbBundle *b, int form) {
  bool exact = (dev_ulong(cd(dev)->dev, CL_DEVICE_SINGLE_FP_CONFIG) &
                CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  /* -w: the program is kcc's own output, so the driver compiler's warnings about it (PoCL
   * printed "2 warnings generated." on stderr, unasked) say nothing to the user; errors still
   * fail the build with their log (KCRT_ERROR_BUILD_FAILED). */
  static const char *const opts[2][3] = {
      {"-w", "-w -cl-std=CL1.2", "-w -cl-std=CL2.0"},
      {"-w -cl-fp32-correctly-rounded-divide-sqrt",
       "-w -cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt",
       "-w -cl-std=CL2.0 -cl-fp32-correctly-rounded-divide-sqrt"}};
  static const char *const opts30[2] = {"-w -cl-std=CL3.0",
                                        "-w -cl-std=CL3.0 -cl-fp32-correctly-rounded-divide-sqrt"};
  if (form != FORM_SOURCE) return opts[exact][0];
  if (!kernel_with(b, KCB_KERNEL_WARP | KCB_KERNEL_SUBGROUPS | KCB_KERNEL_RW_IMAGES))
    return opts[exact][1];
  char v[128] = "";
  dev_str(cd(dev)->dev, CL_DEVICE_OPENCL_C_VERSION, v, sizeof v);
  /* OpenCL's subgroup functions need only cl_khr_subgroups, which an OpenCL 3.0 device may
     offer with OpenCL C 1.2 (PoCL 5). */
  if (!strncmp(v, "OpenCL C 1", 10) && !warp_kernel(b) && !kernel_with(b, KCB_KERNEL_RW_IMAGES))
    return opts[exact][1];
  return !strncmp(v, "OpenCL C 3", 10) ? opts30[exact] : opts[exact][2];
}

/* Whether ext, a device's extension string, lists name. */
static bool has_extension(const char *ext, const char *name) {
  size_t n = strlen(name);
  for (const char *p = ext; (p = strstr(p, name)); p += n)
    if ((p == ext || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) return true;
  return false;
}

/* CL_DEVICE_SUB_GROUP_SIZES_INTEL (cl_intel_required_subgroup_size): the sizes a kernel may
 * require, a size_t array. */
#define KCRT_CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108

/* intel_reqd_sub_group_size(N): a device that cannot give N would build the kernel (clang
 * takes the attribute without the extension) and run it with subgroups of another width,
 * computing something else; refused unless it lists cl_intel_required_subgroup_size and N
 * among CL_DEVICE_SUB_GROUP_SIZES_INTEL. */
static kcrt_status check_reqd_subgroups(kcrt_device *dev, const KcbBundle *b, const char *ext) {
  bool has = has_extension(ext, "cl_intel_required_subgroup_size");
  size_t sizes[64], n = 0;
  bool asked = false; /* the device's sizes, read at the first kernel that requires one */
  for (uint32_t i = 0; i < b->nkernels; i++) {
    const KcbKernel *k = &b->kernels[i];
    if (!k->reqd_subgroup) continue;
    if (!asked && has &&
        cl.clGetDeviceInfo(cd(dev)->dev, KCRT_CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes,
                           &n) != CL_SUCCESS)
      n = 0;
    asked = true;
    bool ok = false;
    for (size_t j = 0; j < n / sizeof *sizes && j < 64 && !ok; j++)
      ok = sizes[j] == k->reqd_subgroup;
    if (!ok)
      return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                       "kernel '%s' requires subgroups of %u (intel_reqd_sub_group_size); "
                       "device '%s' cannot give them (%s)",
                       k->name, k->reqd_subgroup, dev->info.name,
                       has ? "not among its CL_DEVICE_SUB_GROUP_SIZES_INTEL"
                           : "it lacks cl_intel_required_subgroup_size");
  }
  return KCRT_SUCCESS;
}

/* OpenCL C input's subgroup functions run on the device's own subgroups, whatever their width:
 * they need cl_khr_subgroups, in any OpenCL C version (the extended subgroup extensions a
 * kernel uses beyond it are the driver compiler's to check: a build error names them). */
static kcrt_status check_subgroups(kcrt_device *dev, const KcbBundle *b) {
  const KcbKernel *k = kernel_with(b, KCB_KERNEL_SUBGROUPS);
  if (!k) return KCRT_SUCCESS;
  char ext[8192] = "";
  dev_str(cd(dev)->dev, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
  if (!has_extension(ext, "cl_khr_subgroups"))
    return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                     "kernel '%s' uses OpenCL subgroup functions; device '%s' has no subgroups "
                     "(it lacks cl_khr_subgroups)",
                     k->name, dev->info.name);
  return check_reqd_subgroups(dev, b, ext);
}

/* Whether dev has what kcc's OpenCL C for warp-level operations needs (subgroups, their
 * shuffles and ballots, OpenCL C 2.0 or newer); else reports which kernel needs what. */
static kcrt_status check_warp(kcrt_device *dev, const KcbBundle *b) {
  const KcbKernel *k = warp_kernel(b);
  if (!k) return check_subgroups(dev, b);
  ClDev *c = cd(dev);
  char ext[8192] = "", v[128] = "", missing[160] = "";
  dev_str(c->dev, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
  dev_str(c->dev, CL_DEVICE_OPENCL_C_VERSION, v, sizeof v);
  static const char *const need[] = {"cl_khr_subgroups", "cl_khr_subgroup_ballot",
                                     "cl_khr_subgroup_shuffle"};
  for (int i = 0; i < 3; i++) {
    const char *p = ext;
    size_t n = strlen(need[i]);
    bool found = false;
    while ((p = strstr(p, need[i])) && !found) {
      found = (p == ext || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ');
      p += n;
    }
    if (!found)
      snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
               missing[0] ? ", " : "", need[i]);
  }
  bool old = !strncmp(v, "OpenCL C 1", 10);
  if (!missing[0] && !old && cl.clGetKernelSubGroupInfo) return check_reqd_subgroups(dev, b, ext);
  return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                   "kernel '%s' uses warp-level operations, which need 32-wide subgroups; "
                   "device '%s' has no subgroups kcc can use (%s%s%s)",
                   k->name, dev->info.name, missing[0] ? "it lacks " : "", missing,
                   missing[0] ? ""
                   : old      ? "its OpenCL C is older than 2.0"
                              : "the OpenCL loader lacks clGetKernelSubGroupInfo");
}

static void cache_key(KcrtKey *k, kcrt_device *dev, const KcbBundle *b, int form) {
  const char *options = build_options(dev, b, form);
  char ver[256] = "";
  dev_str(cd(dev)->dev, CL_DEVICE_VERSION, ver, sizeof ver);
  kcrt_key_init(k, "opencl");
  kcrt_key_add(k, dev->info.platform);
  kcrt_key_add(k, dev->info.name);
  kcrt_key_add(k, ver);
  kcrt_key_add(k, dev->info.driver_version);
  kcrt_key_add(k, form == FORM_SOURCE ? "source" : "spirv");
  kcrt_key_add(k, options);
  kcrt_key_add_u64(k, b->hash);
}

static cl_program from_cache(kcrt_device *dev, const KcbBundle *b, const KcrtKey *key, int form) {
  size_t len;
  unsigned char *bin = kcrt_cache_get(key, &len);
  if (!bin) return NULL;
  ClDev *c = cd(dev);
  cl_int e, bs = CL_SUCCESS;
  const unsigned char *bp = bin;
  cl_program p = cl.clCreateProgramWithBinary(c->ctx, 1, &c->dev, &len, &bp, &bs, &e);
  if (p && !e && !bs) e = cl.clBuildProgram(p, 1, &c->dev, build_options(dev, b, form), NULL, NULL);
  free(bin);
  if (!p || e || bs) {
    kcrt_log("cache: the driver rejected a cached binary (%s); rebuilding", err_name(e ? e : bs));
    if (p) cl.clReleaseProgram(p);
    return NULL;
  }
  return p;
}

static void to_cache(kcrt_device *dev, const KcrtKey *key, cl_program p) {
  size_t len = 0;
  if (cl.clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) || !len) return;
  unsigned char *bin = malloc(len);
  if (!bin) return;
  unsigned char *bins[1] = {bin};
  if (!cl.clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL))
    kcrt_cache_put(key, bin, len);
  free(bin);
  (void)dev;
}

static kcrt_status build_binary(kcrt_device *dev, const char *path, cl_program *out) {
  ClDev *c = cd(dev);
  FILE *f = fopen(path, "rb");
  if (!f) return kcrt_fail(KCRT_ERROR_IO, "KCC_OPENCL_SPIRV_BINARY: cannot open '%s'", path);
  unsigned char *data = NULL;
  size_t len = 0, cap = 0, n;
  unsigned char chunk[65536];
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (len + n > cap) {
      unsigned char *d = realloc(data, cap = (len + n) * 2);
      if (!d) {
        free(data);
        fclose(f);
        return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
      }
      data = d;
    }
    memcpy(data + len, chunk, n);
    len += n;
  }
  fclose(f);
  const unsigned char *bins[1] = {data};
  cl_int e = CL_SUCCESS, be = CL_SUCCESS;
  cl_program p = cl.clCreateProgramWithBinary(c->ctx, 1, &c->dev, &len, bins, &be, &e);
  free(data);
  if (!p) return fail(e, "clCreateProgramWithBinary (KCC_OPENCL_SPIRV_BINARY)");
  e = cl.clBuildProgram(p, 1, &c->dev, NULL, NULL, NULL);
  if (e) {
    kcrt_fail(KCRT_ERROR_BUILD_FAILED, "OpenCL: building '%s' failed: %s (%d); build log:", path,
              err_name(e), (int)e);
    build_log(c, p);
    cl.clReleaseProgram(p);
    return KCRT_ERROR_BUILD_FAILED;
  }
  *out = p;
  return KCRT_SUCCESS;
}

static kcrt_status build(kcrt_device *dev, const KcbBundle *b, int form, cl_program *out) {
  ClDev *c = cd(dev);
  KcrtKey key;
  cache_key(&key, dev, b, form);
  double t0 = kcrt_now_ms();
  /* Test hook: KCC_OPENCL_SPIRV_BINARY names a program binary that stands for the bundle's
   * SPIR-V (llvm-spirv -r's bitcode of it, which PoCL takes where it has no
   * clCreateProgramWithIL), so that the SPIR-V back end's output runs through libkcrt. */
  const char *bin = form == FORM_SPIRV ? getenv("KCC_OPENCL_SPIRV_BINARY") : NULL;
  if (bin && *bin) return build_binary(dev, bin, out);
  cl_program p = from_cache(dev, b, &key, form);
  if (p) {
    kcrt_log("opencl: %s loaded from the cache in %.1f ms", *b->source ? b->source : "module",
             kcrt_now_ms() - t0);
    *out = p;
    return KCRT_SUCCESS;
  }
  cl_int e = CL_SUCCESS;
  if (form == FORM_SPIRV) {
    const KcbSection *s = kcb_section(b, KCB_SEC_SPIRV, 0);
    p = cl.clCreateProgramWithIL(c->ctx, s->data, s->size, &e);
  } else {
    char *src = kcb_text(kcb_section(b, KCB_SEC_OPENCL_C, 0));
    if (!src) return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
    const char *srcs[1] = {src};
    p = cl.clCreateProgramWithSource(c->ctx, 1, srcs, NULL, &e);
    free(src);
  }
  if (!p)
    return fail(e, form == FORM_SPIRV ? "clCreateProgramWithIL" : "clCreateProgramWithSource");
  e = cl.clBuildProgram(p, 1, &c->dev, build_options(dev, b, form), NULL, NULL);
  if (e) {
    kcrt_fail(KCRT_ERROR_BUILD_FAILED,
              "OpenCL: building %s from %s for %s failed: %s (%d); build log:",
              *b->source ? b->source : "the module", form == FORM_SPIRV ? "SPIR-V" : "OpenCL C",
              dev->info.name, err_name(e), (int)e);
    build_log(c, p);
    cl.clReleaseProgram(p);
    return KCRT_ERROR_BUILD_FAILED;
  }
  kcrt_log("opencl: built %s from %s in %.1f ms", *b->source ? b->source : "module",
           form == FORM_SPIRV ? "SPIR-V" : "OpenCL C", kcrt_now_ms() - t0);
  to_cache(dev, &key, p);
  *out = p;
  return KCRT_SUCCESS;
}

/* Whether device d lists SPIR-V of the version the module in section sec has (1.0 for
 * most of kcc's; 1.3 for one with GroupNonUniform subgroup operations) in
 * CL_DEVICE_IL_VERSION ("SPIR-V_1.0 SPIR-V_1.1 ..."). */
static bool il_version_listed(cl_device_id d, const KcbSection *sec) {
  if (!sec || sec->size < 8) return false;
  unsigned minor = sec->data[5]; /* the header's version word, little-endian: 0x0001mm00 */
  char il[512] = "";
  if (cl.clGetDeviceInfo(d, CL_DEVICE_IL_VERSION, sizeof il, il, NULL) != CL_SUCCESS) return false;
  il[sizeof il - 1] = 0;
  for (const char *p = il; (p = strstr(p, "SPIR-V_1.")); p += 9)
    if ((unsigned)atoi(p + 9) >= minor) return true;
  return false;
}

static kcrt_status cl_module_load(kcrt_module *m) {
  kcrt_device *dev = m->dev;
  ClDev *c = cd(dev);
  const KcbBundle *b = m->b;
  bool has_spv = kcb_section(b, KCB_SEC_SPIRV, 0) && cl.clCreateProgramWithIL && dev->info.spirv &&
                 il_version_listed(c->dev, kcb_section(b, KCB_SEC_SPIRV, 0));
  bool has_src = kcb_section(b, KCB_SEC_OPENCL_C, 0) != NULL;
  /* "source" or "spirv": that path only. "spirv" tries the IL even on a device that does not
   * list SPIR-V in CL_DEVICE_IL_VERSION, for drivers that accept more than they advertise. */
  const char *want = getenv("KCC_OPENCL_FORM");
  if (want && !strcmp(want, "source")) has_spv = false;
  if (want && !strcmp(want, "spirv")) {
    has_src = false;
    has_spv = kcb_section(b, KCB_SEC_SPIRV, 0) &&
              (cl.clCreateProgramWithIL || getenv("KCC_OPENCL_SPIRV_BINARY"));
  }
  int form = has_spv ? FORM_SPIRV : has_src ? FORM_SOURCE : 0;
  kcrt_status ws = check_warp(dev, b);
  if (ws) return ws;
  if (!form)
    return kcrt_fail(KCRT_ERROR_NO_BINARY,
                     "the bundle has no form %s can load: it needs %sOpenCL C, the bundle has "
                     "%s and %s",
                     dev->info.name, dev->info.spirv ? "SPIR-V or " : "",
                     kcb_section(b, KCB_SEC_SPIRV, 0) ? "SPIR-V" : "no SPIR-V",
                     kcb_section(b, KCB_SEC_OPENCL_C, 0) ? "OpenCL C" : "no OpenCL C");

  /* The per-context cache: loading one bundle twice shares one built program. */
  pthread_mutex_lock(&c->lock);
  ClProg *p;
  for (p = c->progs; p; p = p->next)
    if (p->hash == b->hash && p->form == form) break;
  if (p) {
    p->refs++;
    pthread_mutex_unlock(&c->lock);
    m->h = p;
    return KCRT_SUCCESS;
  }
  pthread_mutex_unlock(&c->lock);

  cl_program prog;
  int requested = form; /* the per-context cache remembers what was asked for */
  kcrt_status st = build(dev, b, form, &prog);
  if (st == KCRT_ERROR_BUILD_FAILED && form == FORM_SPIRV && has_src) {
    /* A driver's SPIR-V consumer is younger and less used than its OpenCL C compiler: the
     * same kernels from source beat no kernels (KCC_LOG says why). */
    kcrt_log("opencl: %s; falling back to OpenCL C", kcrt_last_error());
    form = FORM_SOURCE;
    st = build(dev, b, form, &prog);
  }
  if (st) return st;
  ClProg *np = calloc(1, sizeof *np);
  if (!np) {
    cl.clReleaseProgram(prog);
    return kcrt_fail(KCRT_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  pthread_mutex_lock(&c->lock);
  for (p = c->progs; p; p = p->next) /* another thread may have built it meanwhile */
    if (p->hash == b->hash && p->form == requested) break;
  if (p) {
    p->refs++;
    cl.clReleaseProgram(prog);
    free(np);
  } else {
    *np = (ClProg){c->progs, b->hash, requested, prog, 1};
    c->progs = p = np;
  }
  pthread_mutex_unlock(&c->lock);
  m->h = p;
  return KCRT_SUCCESS;
}

static void cl_module_unload(kcrt_module *m) {
  ClDev *c = cd(m->dev);
  ClProg *p = m->h;
  pthread_mutex_lock(&c->lock);
  if (--p->refs == 0) {
    for (ClProg **pp = &c->progs; *pp; pp = &(*pp)->next)
      if (*pp == p) {
        *pp = p->next;
        break;
      }
    cl.clReleaseProgram(p->prog);
    free(p);
  }
  pthread_mutex_unlock(&c->lock);
}

static kcrt_status cl_kernel_init(kcrt_kernel *k) {
  ClDev *c = cd(k->mod->dev);
  ClProg *p = k->mod->h;
  cl_int e;
  cl_kernel h = cl.clCreateKernel(p->prog, k->k->name, &e);
  if (!h) {
    if (e == CL_INVALID_KERNEL_NAME)
      return kcrt_fail(KCRT_ERROR_INVALID_MODULE,
                       "the bundle's OpenCL program has no kernel '%s' although its kernel table "
                       "lists it",
                       k->k->name);
    return fail(e, "clCreateKernel");
  }
  /* The table and the program must agree on the arguments, the trailing __local included:
   * a mismatch here would otherwise surface as garbage results. */
  cl_uint nargs = 0;
  cl_uint want = k->k->nparams + k->k->nhidden + k->k->nsymbols +
                 ((k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) ? 1 : 0);
  if (!cl.clGetKernelInfo(h, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL) && nargs != want) {
    cl.clReleaseKernel(h);
    return kcrt_fail(KCRT_ERROR_INVALID_MODULE,
                     "the OpenCL kernel '%s' takes %u arguments but the kernel table describes "
                     "%u (%u parameters, %u host-filled variables%s)",
                     k->k->name, nargs, want, k->k->nparams + k->k->nhidden, k->k->nsymbols,
                     (k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) ? ", the dynamic __local one" : "");
  }
  /* Host-filled variables keep their buffers for the module's life, and a cl_kernel keeps its
   * arguments: they are bound here once, not at every launch. */
  for (uint32_t j = 0; j < k->k->nsymbols; j++) {
    cl_mem m = k->mod->symbols[k->k->symbols[j]]->mem;
    e = cl.clSetKernelArg(h, k->k->nparams + k->k->nhidden + j, sizeof m, &m);
    if (e) {
      cl.clReleaseKernel(h);
      return fail(e, "clSetKernelArg (host-filled variable)");
    }
  }
  size_t wg = 0;
  if (!cl.clGetKernelWorkGroupInfo(h, c->dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) &&
      wg && wg < k->max_threads)
    k->max_threads = wg;
  cl_ulong lm = 0;
  if (!cl.clGetKernelWorkGroupInfo(h, c->dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL) &&
      lm > k->static_shared)
    k->static_shared = lm;
  /* The trailing __local argument starts at an aligned offset after the kernel's own local
   * memory (NVIDIA reports 1 byte of it for a kernel that declares none, and then refuses a
   * dynamic size within 4 bytes of the limit): count the static part rounded up, so that a
   * launch the checks accept is one the driver accepts. */
  if ((k->k->flags & KCB_KERNEL_DYNAMIC_SHARED) || k->k->nlocal)
    k->static_shared = (k->static_shared + 15) / 16 * 16;
  k->h = h;
  return KCRT_SUCCESS;
}

/* OpenCL 1.2 cannot write a program variable from the host: the compiler made each
 * host-filled variable a hidden __constant argument, bound to this buffer (cl_kernel_init). */
static kcrt_status cl_symbol_init(kcrt_module *m, const KcbSymbol *s, kcrt_buffer *b) {
  (void)m;
  (void)s;
  kcrt_status st = cl_mem_alloc(b);
  if (st) return st;
  st = cl_mem_fill(b, 0, 0, b->size);
  if (st) cl_mem_free(b), b->mem = NULL;
  return st;
}

static void cl_kernel_release(kcrt_kernel *k) {
  if (k->h) cl.clReleaseKernel(k->h);
}

static kcrt_status cl_launch(kcrt_kernel *k, kcrt_queue *q, const uint64_t grid[3],
                             const uint64_t block[3], size_t dyn, const kcrt_arg *args) {
  cl_kernel h = k->h;
  size_t global[3], local[3];
  for (int d = 0; d < 3; d++) {
    global[d] = (size_t)(grid[d] * block[d]); /* checked for overflow by the caller */
    local[d] = (size_t)block[d];
  }
  kcrt_status st = KCRT_SUCCESS;
  if (k->k->flags & KCB_KERNEL_WARP) {
    /* CUDA's warps are the kernel's subgroups: only where they are 32 wide. */
    size_t sg = 0;
    cl_int se = cl.clGetKernelSubGroupInfo(h, cd(k->mod->dev)->dev,
                                           CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local,
                                           local, sizeof sg, &sg, NULL);
    if (se)
      return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                       "kernel '%s' uses warp-level operations, which need 32-wide subgroups; "
                       "device '%s' does not tell its subgroup size: %s (%d)",
                       k->k->name, k->mod->dev->info.name, err_name(se), (int)se);
    if (sg != 32)
      return kcrt_fail(KCRT_ERROR_NOT_SUPPORTED,
                       "kernel '%s' uses warp-level operations, which need 32-wide subgroups; "
                       "device '%s' runs it with subgroups of %zu",
                       k->k->name, k->mod->dev->info.name, sg);
  }
  /* A cl_kernel holds its arguments: setting them and enqueueing must not interleave with
   * another thread's launch of the same kernel. */
  pthread_mutex_lock(&k->lock);
  cl_int e = CL_SUCCESS;
  cl_uint i;
  for (i = 0; i < k->k->nparams + k->k->nhidden && !e; i++) {
    if (k->k->params[i].kind == KCB_PARAM_POINTER ||
        k->k->params[i].kind == KCB_PARAM_BOUNDS_RECORD) {
      cl_mem m = args[i].buffer ? args[i].buffer->mem : NULL;
      e = cl.clSetKernelArg(h, i, sizeof m, &m);
    } else if (k->k->params[i].kind == KCB_PARAM_LOCAL) {
      e = cl.clSetKernelArg(h, i, args[i].size, NULL); /* a __local buffer of that size */
    } else if (k->k->params[i].kind == KCB_PARAM_IMAGE) {
      kcrt_image *img; /* checked by kcrt_check_image_arg */
      memcpy(&img, args[i].value, sizeof img);
      cl_mem m = img->mem;
      e = cl.clSetKernelArg(h, i, sizeof m, &m);
    } else if (k->k->params[i].kind == KCB_PARAM_SAMPLER) {
      kcrt_sampler *smp;
      memcpy(&smp, args[i].value, sizeof smp);
      cl_sampler sh = smp->h;
      e = cl.clSetKernelArg(h, i, sizeof sh, &sh);
    } else if (k->k->params[i].kind == KCB_PARAM_TEXTURE ||
               k->k->params[i].kind == KCB_PARAM_SURFACE) {
      /* Checked by kcrt_check_texobj_arg: the image, which the kernel declares. */
      kcrt_device *dev = k->mod->dev;
      const kcrt_texture *t =
          k->k->params[i].kind == KCB_PARAM_TEXTURE ? kcrt_texture_of(dev, &args[i]) : NULL;
      const kcrt_surface *sf = t ? NULL : kcrt_surface_of(dev, &args[i]);
      cl_mem m = t ? t->img->mem : sf ? sf->img->mem : NULL;
      e = cl.clSetKernelArg(h, i, sizeof m, &m);
    } else if (k->k->params[i].kind == KCB_PARAM_TEX_SAMPLER) {
      const kcrt_texture *t = kcrt_texture_of(k->mod->dev, &args[i]);
      cl_sampler sh = t ? t->smp->h : NULL;
      e = cl.clSetKernelArg(h, i, sizeof sh, &sh);
    } else {
      e = cl.clSetKernelArg(h, i, args[i].size, args[i].value);
    }
  }
  if (e) {
    st = kcrt_fail(status_of(e), "OpenCL: setting argument %u (%s) of '%s' failed: %s (%d)", i,
                   k->k->params[i - 1].name, k->k->name, err_name(e), (int)e);
  } else {
    /* A __local argument may not be 0 bytes: a kernel launched without dynamic shared memory
     * still gets one byte, which it never touches. */
    /* The host-filled variables between them were bound once, by cl_kernel_init. */
    if (k->k->flags & KCB_KERNEL_DYNAMIC_SHARED)
      e = cl.clSetKernelArg(h, k->k->nparams + k->k->nhidden + k->k->nsymbols, dyn ? dyn : 1, NULL);
    if (e) st = fail(e, "clSetKernelArg (dynamic shared memory)");
  }
  if (!st) {
    e = cl.clEnqueueNDRangeKernel(q->h, h, 3, NULL, global, local, 0, NULL, NULL);
    if (!e) cl.clFlush(q->h); /* start it now rather than at the next wait */
    if (e == CL_OUT_OF_RESOURCES)
      /* At enqueue this is the launch asking for more than the kernel can have (registers,
       * local memory): a launch error like CUDA's LAUNCH_OUT_OF_RESOURCES. */
      st = kcrt_fail(KCRT_ERROR_INVALID_LAUNCH,
                     "OpenCL: the driver refused to launch '%s' with %llu threads per block and "
                     "%llu + %llu bytes of local memory (static + dynamic%s): "
                     "CL_OUT_OF_RESOURCES",
                     k->k->name, (unsigned long long)(block[0] * block[1] * block[2]),
                     (unsigned long long)k->static_shared,
                     (unsigned long long)kcrt_local_layout(k->k, args, dyn, NULL),
                     k->k->nlocal ? " with the local-memory arguments" : "");
    else if (e)
      st = kcrt_fail(status_of(e), "OpenCL: launching '%s' failed: %s (%d)", k->k->name,
                     err_name(e), (int)e);
  }
  pthread_mutex_unlock(&k->lock);
  return st;
}

const KcrtBackend kcrt_opencl_backend = {
    .id = KCRT_BACKEND_OPENCL,
    .name = "OpenCL",
    .enumerate = cl_enumerate,
    .open = cl_open,
    .close = cl_close,
    .mem_alloc = cl_mem_alloc,
    .mem_free = cl_mem_free,
    .mem_write = cl_mem_write,
    .mem_read = cl_mem_read,
    .mem_copy = cl_mem_copy,
    .mem_fill = cl_mem_fill,
    .mem_view = cl_mem_view,
    .queue_create = cl_queue_create,
    .queue_destroy = cl_queue_destroy,
    .queue_sync = cl_queue_sync,
    .event_create = cl_event_create,
    .event_destroy = cl_event_destroy,
    .event_record = cl_event_record,
    .event_sync = cl_event_sync,
    .event_elapsed = cl_event_elapsed,
    .module_load = cl_module_load,
    .module_unload = cl_module_unload,
    .symbol_init = cl_symbol_init,
    .kernel_init = cl_kernel_init,
    .kernel_release = cl_kernel_release,
    .launch = cl_launch,
    .image_create = cl_image_create,
    .image_free = cl_image_free,
    .image_write = cl_image_write,
    .image_read = cl_image_read,
    .sampler_create = cl_sampler_create,
    .sampler_free = cl_sampler_free,
};
