/* kcrt.h — libkcrt, the kcc runtime: load a kcc bundle (.kcb) on whatever device the machine
 * has and launch its kernels. NVIDIA GPUs through the CUDA driver API, everything else through
 * OpenCL; both drivers are loaded at run time (dlopen), so a program linked against libkcrt
 * needs neither CUDA nor OpenCL to build, and runs on machines that have either or none.
 *
 * C11, no CUDA or OpenCL header needed. docs/runtime.md is the manual (threading rules,
 * environment variables, examples).
 *
 * Conventions: every function returns a kcrt_status; on failure it leaves its out-parameters
 * untouched and records a message for kcrt_last_error() in the calling thread. Handles are
 * opaque pointers; destroying NULL is a no-op. */
#ifndef KCRT_H
#define KCRT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KCRT_VERSION_MAJOR 0
#define KCRT_VERSION_MINOR 1
#define KCRT_VERSION_PATCH 0

/* ---------------------------------------------------------------- status and errors */

typedef enum kcrt_status {
  KCRT_SUCCESS = 0,
  KCRT_ERROR_NO_DEVICE = 1,         /* no usable device (or none matches the request) */
  KCRT_ERROR_INVALID_VALUE = 2,     /* a NULL handle, a bad index, an out-of-range size... */
  KCRT_ERROR_OUT_OF_MEMORY = 3,     /* host or device allocation failed */
  KCRT_ERROR_INVALID_MODULE = 4,    /* not a bundle, corrupted, or an unsupported version */
  KCRT_ERROR_KERNEL_NOT_FOUND = 5,  /* no kernel of that name in the module */
  KCRT_ERROR_INVALID_ARGUMENT = 6,  /* launch arguments do not match the kernel's parameters */
  KCRT_ERROR_INVALID_LAUNCH = 7,    /* grid/block/shared memory beyond the device's limits */
  KCRT_ERROR_BUILD_FAILED = 8,      /* the driver rejected the module (JIT/build log kept) */
  KCRT_ERROR_NO_BINARY = 9,         /* the bundle has no form this device can load */
  KCRT_ERROR_DRIVER = 10,           /* any other driver failure (its message is kept) */
  KCRT_ERROR_IO = 11,               /* a file could not be read */
  KCRT_ERROR_NOT_SUPPORTED = 12,    /* the device or back end cannot do this */
  KCRT_ERROR_LAUNCH_FAILED = 13,    /* a kernel faulted while running (reported at a sync) */
  KCRT_ERROR_SYMBOL_NOT_FOUND = 14, /* no host-filled variable of that name in the module */
  /* A kernel compiled with -fbounds-check made an out-of-bounds access (reported at the next
   * synchronising call; the access was not performed): kcrt_last_error() names the kernel,
   * the source line, the thread, the buffer and the index (docs/bugs.md). */
  KCRT_ERROR_OUT_OF_BOUNDS = 15,
} kcrt_status;

/* A constant name for the status ("KCRT_ERROR_INVALID_LAUNCH"), or "KCRT_ERROR_UNKNOWN". */
const char *kcrt_status_name(kcrt_status s);
/* A constant one-line description of the status. */
const char *kcrt_strerror(kcrt_status s);
/* The message of the most recent failure in the calling thread: what went wrong and, where a
 * driver said something (a JIT or build log, a driver error name), the driver's text. ""
 * when no call of this thread has failed. Valid until the thread's next kcrt call. */
const char *kcrt_last_error(void);

/* ---------------------------------------------------------------- devices */

typedef enum kcrt_backend {
  KCRT_BACKEND_CUDA = 1,
  KCRT_BACKEND_OPENCL = 2,
  KCRT_BACKEND_VULKAN = 3, /* Vulkan compute (docs/runtime.md, "Vulkan") */
} kcrt_backend;
#define KCRT_HAS_VULKAN 1

typedef enum kcrt_device_type {
  KCRT_DEVICE_GPU = 1,
  KCRT_DEVICE_CPU = 2,
  KCRT_DEVICE_ACCELERATOR = 3,
  KCRT_DEVICE_OTHER = 4,
} kcrt_device_type;

typedef struct kcrt_device_info {
  char name[256];
  char vendor[128];
  char driver_version[128]; /* CUDA: "13.0"; OpenCL: CL_DRIVER_VERSION */
  char platform[128];       /* OpenCL platform name; "CUDA" for CUDA devices */
  kcrt_backend backend;
  kcrt_device_type type;
  int backend_index; /* index among the devices of its back end */
  uint64_t global_mem_bytes;
  uint64_t max_alloc_bytes; /* largest single buffer */
  uint32_t compute_units; /* CUDA: multiprocessors; OpenCL: compute units; Vulkan: NVIDIA SMs or AMD
                             compute units (VK_NV_shader_sm_builtins,
                             VK_AMD_shader_core_properties), else 0 */
  uint64_t max_block_dim[3];
  uint64_t max_threads_per_block;
  uint64_t max_grid_dim[3];
  uint64_t max_shared_bytes; /* per block, static + dynamic (CUDA: the opt-in maximum) */
  int cc_major, cc_minor;    /* CUDA compute capability; 0 for OpenCL */
  int spirv;                 /* OpenCL: the device accepts SPIR-V (CL_DEVICE_IL_VERSION) */
  /* The device computes in double precision (CUDA: always; OpenCL: CL_DEVICE_DOUBLE_FP_CONFIG
   * is not 0). A module whose kernels use double does not load on a device without it
   * (KCRT_ERROR_NOT_SUPPORTED, naming the kernel). */
  int fp64;
  /* Which widths keep denormals (KCRT_DENORMALS_F32 | KCRT_DENORMALS_F64), as C's arithmetic
   * does; a width not named may flush them to zero, as CUDA's -ftz=true does (CUDA: both, kcc's
   * PTX never asks for ftz without -ffast-math; OpenCL: CL_FP_DENORM in the device's float and
   * double configs; Vulkan: shaderDenormPreserveFloat32/64, which NVIDIA's driver does not
   * offer: its float denormals are flushed, docs/driver-bugs.md 25). */
  int denormals;
} kcrt_device_info;
#define KCRT_HAS_FP64_INFO 1
#define KCRT_DENORMALS_F32 1
#define KCRT_DENORMALS_F64 2

/* The number of devices every back end found (0 is not an error). */
kcrt_status kcrt_device_count(int *count);
/* Properties of device `index` (0 .. count-1), without opening it. Devices are listed CUDA
 * first, then OpenCL platform by platform. */
kcrt_status kcrt_device_info_get(int index, kcrt_device_info *info);
/* Why a back end found no devices ("libcuda.so.1: cannot open shared object file"), or ""
 * when it found some. For diagnostics such as `kcc --devices`. */
const char *kcrt_backend_status(kcrt_backend backend);
/* Prints every device with its back end and key properties (what `kcc --devices` shows). */
kcrt_status kcrt_print_devices(FILE *out);

typedef struct kcrt_device kcrt_device;

/* Opens device `index` (see kcrt_device_count). */
kcrt_status kcrt_device_open(int index, kcrt_device **out);
/* Several devices at once (docs/multigpu.md). kcrt_device_open_gpus: every GPU of the first
 * back end that has GPUs (CUDA's, else OpenCL's), in list order; kcrt_device_open_all: every
 * device, less the OpenCL entries of GPUs the list has as CUDA devices. At most `max` are
 * opened into devs[0 .. *count); none is not an error (*count = 0). Each device has its own
 * default queue, so work launched on several runs at once from one host thread. */
kcrt_status kcrt_device_open_gpus(kcrt_device **devs, int max, int *count);
kcrt_status kcrt_device_open_all(kcrt_device **devs, int max, int *count);
/* Opens the first device whose name, vendor or platform contains `substring` (case-
 * insensitively), or which a selector names (see kcrt_device_open_default). */
kcrt_status kcrt_device_open_by_name(const char *substring, kcrt_device **out);
/* Opens the device $KCC_DEVICE selects when it is set (an index, "cuda", "opencl", "gpu",
 * "cpu", "cuda:N", "opencl:N", "local-rank" — the node-local rank's device —, or a name
 * substring; docs/runtime.md), else the first CUDA GPU, else the first OpenCL GPU, else the
 * first OpenCL CPU, else any device. Devices that HIP_VISIBLE_DEVICES or
 * ONEAPI_DEVICE_SELECTOR hide are not listed at all (docs/runtime.md, "Devices a scheduler
 * assigns"). */
kcrt_status kcrt_device_open_default(kcrt_device **out);
/* Waits for all work, then releases the device and everything created on it that is still
 * alive (buffers, queues, events, modules, kcrt_module_get's included). */
kcrt_status kcrt_device_close(kcrt_device *dev);
kcrt_status kcrt_device_get_info(kcrt_device *dev, kcrt_device_info *info);
/* Waits until every queue of the device is idle. */
kcrt_status kcrt_device_synchronize(kcrt_device *dev);

/* ---------------------------------------------------------------- buffers */

typedef struct kcrt_buffer kcrt_buffer;

/* Allocates `size` bytes (> 0) of device global memory. Sizes above the device's maximum
 * allocation fail with KCRT_ERROR_OUT_OF_MEMORY before the driver is asked. */
kcrt_status kcrt_buffer_alloc(kcrt_device *dev, size_t size, kcrt_buffer **out);
kcrt_status kcrt_buffer_free(kcrt_buffer *buf);
/* A buffer that is bytes [offset, offset + size) of `parent` (size > 0), sharing its memory:
 * passed to a kernel, the kernel's pointer starts at `offset` and a kernel compiled with
 * -fbounds-check is checked against `size`. Reads, writes, fills and copies address the view's
 * bytes. OpenCL devices need `offset` to be a multiple of their base address alignment
 * (CL_DEVICE_MEM_BASE_ADDR_ALIGN: 128 bytes suits every known device); CUDA takes any offset
 * (kernels need the alignment of their element type). Free views before their parent
 * (kcrt_buffer_free refuses a parent with live views); the view keeps the parent's type tag.
 * A view of a view is refused: make it from the parent. */
kcrt_status kcrt_buffer_view(kcrt_buffer *parent, size_t offset, size_t size, kcrt_buffer **out);
#define KCRT_HAS_BUFFER_VIEW 1
/* Zero-copy exchange with other CUDA libraries in the process (CuPy, PyTorch, numba:
 * __cuda_array_interface__ and DLPack carry device addresses). CUDA devices only; elsewhere
 * KCRT_ERROR_NOT_SUPPORTED. kcrt_buffer_address: the buffer's device address (a view's
 * includes its offset), valid while the buffer lives; on Vulkan devices too, where it is what
 * a pointer member of a struct parameter takes (docs/runtime.md, "Vulkan"). kcrt_buffer_wrap: a
 * buffer over `size` bytes at `address` that another library allocated on this device (libkcrt uses
 * the device's primary context, as those libraries do); the range must lie inside one allocation of
 * this device (KCRT_ERROR_INVALID_VALUE otherwise, checked with the driver). Freeing the wrapper
 * leaves the memory to its owner, who must keep it alive while the wrapper is used. */
kcrt_status kcrt_buffer_address(const kcrt_buffer *buf, uint64_t *address);
kcrt_status kcrt_buffer_wrap(kcrt_device *dev, uint64_t address, size_t size, kcrt_buffer **out);
/* Waits for the work another library submitted to a CUDA stream of this device (`stream` as
 * __cuda_array_interface__ gives it: a CUstream handle, 1 for the legacy default stream, 2 for
 * the per-thread one), before libkcrt uses memory that work writes. */
kcrt_status kcrt_device_wait_stream(kcrt_device *dev, uint64_t stream);
#define KCRT_HAS_BUFFER_WRAP 1
size_t kcrt_buffer_size(const kcrt_buffer *buf);
/* Blocking transfers on the device's default queue: they start after everything submitted
 * to the default queue before them, and they are complete when they return. Work on other
 * queues is not waited for (synchronize those queues first). Ranges are checked against the
 * buffer sizes (KCRT_ERROR_INVALID_VALUE). */
kcrt_status kcrt_buffer_write(kcrt_buffer *dst, size_t offset, const void *src, size_t size);
kcrt_status kcrt_buffer_read(kcrt_buffer *src, size_t offset, void *dst, size_t size);
kcrt_status kcrt_buffer_copy(kcrt_buffer *dst, size_t dst_offset, kcrt_buffer *src,
                             size_t src_offset, size_t size);
kcrt_status kcrt_buffer_fill(kcrt_buffer *dst, size_t offset, unsigned char byte, size_t size);

/* Element types a buffer can be tagged with, so that kcrt_launch can check a buffer against
 * the kernel's pointer parameter where C could not (a buffer handed around as kcrt_buffer *).
 * The scalar codes are the bundle format's (kcb_format.h, KCB_T_*); the kernel's spelling of
 * each is in the comment, as launch messages use it. */
typedef enum kcrt_elem_type {
  KCRT_TYPE_NONE = 0,    /* untagged: accepted for any pointer parameter */
  KCRT_TYPE_BOOL = 1,    /* bool */
  KCRT_TYPE_INT8 = 2,    /* char */
  KCRT_TYPE_INT16 = 3,   /* short */
  KCRT_TYPE_INT32 = 4,   /* int */
  KCRT_TYPE_INT64 = 5,   /* long */
  KCRT_TYPE_UINT8 = 6,   /* unsigned char */
  KCRT_TYPE_UINT16 = 7,  /* unsigned short */
  KCRT_TYPE_UINT32 = 8,  /* unsigned int */
  KCRT_TYPE_UINT64 = 9,  /* unsigned long */
  KCRT_TYPE_FLOAT = 10,  /* float */
  KCRT_TYPE_DOUBLE = 11, /* double */
  KCRT_TYPE_STRUCT = 64, /* structs of elem_size bytes (clear of the codes a bundle may add) */
} kcrt_elem_type;
#define KCRT_HAS_BUFFER_TYPE 1

/* Vectors of a scalar type other than bool (the kernel's float4, int2, uchar16...): `len` is 2,
 * 3, 4, 8 or 16. Their elements have OpenCL's layout: size = alignment = the scalar's size ×
 * len, a 3-vector taking the room of a 4-vector (KCRT_TYPE_VECTOR(KCRT_TYPE_FLOAT, 3) is 16
 * bytes). A buffer tagged float4 is refused for a `float *` parameter and the reverse. */
#define KCRT_TYPE_VECTOR(scalar, len) ((kcrt_elem_type)((int)(scalar) | (int)(len) << 8))
/* The scalar and the length (0 for a scalar) of an element type. */
#define KCRT_TYPE_SCALAR_OF(type) ((kcrt_elem_type)((int)(type)&0xff))
#define KCRT_TYPE_LEN_OF(type)    ((int)(type) >> 8)
#define KCRT_HAS_VECTOR_TYPES     1

/* Tags the buffer as holding elements of `type`. elem_size: the element's size in bytes; for
 * a scalar or vector type its own size (or 0 for that), for KCRT_TYPE_STRUCT the struct's size (>
 * 0), for KCRT_TYPE_NONE 0, which removes the tag. The buffer's size must be a multiple of it
 * (KCRT_ERROR_INVALID_VALUE otherwise). A tagged buffer passed for a pointer parameter whose
 * pointee is a scalar or a vector must hold exactly that type, else kcrt_launch fails; parameters
 * pointing to void, structs or pointers take any buffer (the kernel table gives no element
 * type to compare with). Untagged buffers (every new buffer is) are accepted everywhere.
 * Tag a buffer before other threads launch with it. */
kcrt_status kcrt_buffer_set_type(kcrt_buffer *buf, kcrt_elem_type type, size_t elem_size);
/* The buffer's tag: KCRT_TYPE_NONE and 0 for an untagged buffer. Either pointer may be NULL. */
kcrt_status kcrt_buffer_get_type(const kcrt_buffer *buf, kcrt_elem_type *type, size_t *elem_size);

/* ---------------------------------------------------------------- images and samplers
 * OpenCL C's images and samplers (`.cl` kernels taking image2d_t, sampler_t...; docs/runtime.md,
 * "Images"). Supported on CUDA devices (a CUDA array and its surface object; kcc's PTX samples
 * in software with OpenCL's rules) and on OpenCL devices with image support
 * (CL_DEVICE_IMAGE_SUPPORT); on OpenCL devices without it, every call here fails with
 * KCRT_ERROR_NOT_SUPPORTED. */
typedef struct kcrt_image kcrt_image;
typedef struct kcrt_sampler kcrt_sampler;
/* What a kernel declares the image as; the codes are the bundle's (docs/bundle.md). */
typedef enum kcrt_image_type {
  KCRT_IMAGE_1D = 1,        /* image1d_t: width */
  KCRT_IMAGE_1D_BUFFER = 2, /* image1d_buffer_t: width (no sampler; up to the device's
                               CL_DEVICE_IMAGE_MAX_BUFFER_SIZE pixels) */
  KCRT_IMAGE_1D_ARRAY = 3,  /* image1d_array_t: width, array_size */
  KCRT_IMAGE_2D = 4,        /* image2d_t: width, height */
  KCRT_IMAGE_2D_ARRAY = 5,  /* image2d_array_t: width, height, array_size */
  KCRT_IMAGE_3D = 6,        /* image3d_t: width, height, depth */
} kcrt_image_type;
/* Channel orders and data types: OpenCL's values, which the kernel's get_image_channel_order
 * and get_image_channel_data_type return (CLK_RGBA == KCRT_RGBA). */
typedef enum kcrt_channel_order {
  KCRT_R = 0x10B0,
  KCRT_A = 0x10B1,
  KCRT_RG = 0x10B2,
  KCRT_RA = 0x10B3,
  KCRT_RGBA = 0x10B5,
  KCRT_BGRA = 0x10B6, /* UNORM_INT8 only */
  KCRT_ARGB = 0x10B7,
  KCRT_INTENSITY = 0x10B8,
  KCRT_LUMINANCE = 0x10B9,
} kcrt_channel_order;
typedef enum kcrt_channel_type {
  KCRT_SNORM_INT8 = 0x10D0,
  KCRT_SNORM_INT16 = 0x10D1,
  KCRT_UNORM_INT8 = 0x10D2,
  KCRT_UNORM_INT16 = 0x10D3,
  KCRT_SIGNED_INT8 = 0x10D7,
  KCRT_SIGNED_INT16 = 0x10D8,
  KCRT_SIGNED_INT32 = 0x10D9,
  KCRT_UNSIGNED_INT8 = 0x10DA,
  KCRT_UNSIGNED_INT16 = 0x10DB,
  KCRT_UNSIGNED_INT32 = 0x10DC,
  KCRT_HALF_FLOAT = 0x10DD,
  KCRT_FLOAT = 0x10DE,
} kcrt_channel_type;
typedef struct kcrt_image_desc {
  kcrt_image_type type;
  kcrt_channel_order order;
  kcrt_channel_type data_type;
  /* In pixels; the dimensions the type does not have must be 0 (or 1). */
  size_t width, height, depth;
  size_t array_size; /* the arrays' layers; 0 for the other types */
} kcrt_image_desc;
/* A device image of that type and format, its contents undefined until written. Fails with
 * KCRT_ERROR_INVALID_VALUE for a bad type, format or size (the message names it), and
 * KCRT_ERROR_NOT_SUPPORTED where the device has no images or not that format. */
kcrt_status kcrt_image_create(kcrt_device *dev, const kcrt_image_desc *desc, kcrt_image **out);
kcrt_status kcrt_image_free(kcrt_image *img);
/* The bytes of the whole image on the host: pixels in x order, rows of width pixels, then
 * height rows per slice, then depth (3D) or array_size (arrays) slices, tightly packed; a
 * pixel is its channels in the order's order, each of the data type's size. */
size_t kcrt_image_size(const kcrt_image *img);
/* Blocking whole-image copies (kcrt_image_size bytes) on the device's default queue, ordered
 * as kcrt_buffer_write and kcrt_buffer_read are. */
kcrt_status kcrt_image_write(kcrt_image *img, const void *src);
kcrt_status kcrt_image_read(kcrt_image *img, void *dst);
kcrt_status kcrt_image_get_desc(const kcrt_image *img, kcrt_image_desc *desc);
/* A sampler argument (for a kernel's `sampler_t` parameter; constant samplers in the source need
 * none): `normalized` != 0 for coordinates in [0, 1), and OpenCL's addressing and filter. */
typedef enum kcrt_addressing {
  KCRT_ADDRESS_NONE = 0,
  KCRT_ADDRESS_CLAMP_TO_EDGE = 1,
  KCRT_ADDRESS_CLAMP = 2,  /* to the border colour: 0 (and alpha 0, or 1 for orders without A) */
  KCRT_ADDRESS_REPEAT = 3, /* normalized coordinates only */
  KCRT_ADDRESS_MIRRORED_REPEAT = 4, /* normalized coordinates only */
} kcrt_addressing;
typedef enum kcrt_filter { KCRT_FILTER_NEAREST = 0, KCRT_FILTER_LINEAR = 1 } kcrt_filter;
kcrt_status kcrt_sampler_create(kcrt_device *dev, int normalized, kcrt_addressing addressing,
                                kcrt_filter filter, kcrt_sampler **out);
kcrt_status kcrt_sampler_free(kcrt_sampler *s);
/* Image and sampler parameters take the handle by value: KCRT_ARG_VALUE(img) with img a
 * kcrt_image * (or kcrt_sampler *) variable, which must live until kcrt_launch returns. The
 * launch checks that it is an image of the parameter's type on the kernel's device. */
#define KCRT_HAS_IMAGES 1

/* CUDA's texture and surface objects over kcrt images (docs/runtime.md, "Texture and surface
 * objects"): what a `.cu` kernel's cudaTextureObject_t / cudaSurfaceObject_t parameter takes on
 * every device. A texture bakes in how it is sampled, as cudaCreateTextureObject's
 * cudaTextureDesc does: one addressing mode for every dimension (OpenCL's names: CLAMP_TO_EDGE
 * is cudaAddressModeClamp, CLAMP cudaAddressModeBorder, REPEAT cudaAddressModeWrap,
 * MIRRORED_REPEAT cudaAddressModeMirror), the filter, normalized coordinates or not, and the
 * read mode, which must be the one the image's channel type implies: KCRT_READ_NORMALIZED_FLOAT
 * for UNORM and SNORM channels (an 8- or 16-bit integer array read with
 * cudaReadModeNormalizedFloat), KCRT_READ_ELEMENT_TYPE for the integer, half and float ones.
 * Linear filtering needs a channel type that reads as float (UNORM, SNORM, HALF, FLOAT); the
 * channel order must be R, RG or RGBA (CUDA's 1, 2 and 4 channels). The kernel reads the image
 * as the dimension of its calls (tex2D: a KCRT_IMAGE_2D image; tex1Dfetch: KCRT_IMAGE_1D_BUFFER;
 * tex2DLayered: KCRT_IMAGE_2D_ARRAY...). Free a texture or surface before its image. */
typedef struct kcrt_texture kcrt_texture;
typedef struct kcrt_surface kcrt_surface;
typedef enum kcrt_read_mode {
  KCRT_READ_ELEMENT_TYPE = 0,     /* cudaReadModeElementType */
  KCRT_READ_NORMALIZED_FLOAT = 1, /* cudaReadModeNormalizedFloat */
} kcrt_read_mode;
typedef struct kcrt_texture_desc {
  kcrt_addressing addressing; /* KCRT_ADDRESS_NONE reads as CLAMP_TO_EDGE */
  kcrt_filter filter;
  int normalized; /* != 0: coordinates in [0, 1) (REPEAT and MIRRORED_REPEAT need it) */
  kcrt_read_mode read_mode;
} kcrt_texture_desc;
kcrt_status kcrt_texture_create(kcrt_device *dev, kcrt_image *img, const kcrt_texture_desc *desc,
                                kcrt_texture **out);
kcrt_status kcrt_texture_free(kcrt_texture *tex);
/* A surface: raw texels, written with surf*write and read with surf*read (x in bytes). The
 * channel type must be an integer, HALF or FLOAT one (surfaces move bits, not normalized
 * values), the order R, RG or RGBA. */
kcrt_status kcrt_surface_create(kcrt_device *dev, kcrt_image *img, kcrt_surface **out);
kcrt_status kcrt_surface_free(kcrt_surface *surf);
/* Texture and surface parameters take the handle by value, KCRT_ARG_VALUE(tex) with tex a
 * kcrt_texture * (kcrt_surface *) variable. On CUDA devices they also take a CUtexObject
 * (CUsurfObject) the program made with the CUDA API, passed as before. */
#define KCRT_HAS_TEXTURES 1

/* ---------------------------------------------------------------- queues and events */

/* An in-order queue of work (a CUDA stream, an OpenCL command queue). NULL wherever a queue
 * is taken means the device's default queue. */
typedef struct kcrt_queue kcrt_queue;
kcrt_status kcrt_queue_create(kcrt_device *dev, kcrt_queue **out);
kcrt_status kcrt_queue_destroy(kcrt_queue *q); /* waits for its work first */
/* Waits until the queue is idle. (queue NULL needs a device: use kcrt_device_synchronize.) */
kcrt_status kcrt_queue_synchronize(kcrt_queue *q);

/* A point in a queue, for timing and waiting. */
typedef struct kcrt_event kcrt_event;
kcrt_status kcrt_event_create(kcrt_device *dev, kcrt_event **out);
kcrt_status kcrt_event_destroy(kcrt_event *ev);
/* Marks the point after everything submitted to `q` (NULL: default queue) so far. */
kcrt_status kcrt_event_record(kcrt_event *ev, kcrt_queue *q);
kcrt_status kcrt_event_synchronize(kcrt_event *ev);
/* Milliseconds between two recorded, completed events (waits for both). */
kcrt_status kcrt_event_elapsed_ms(kcrt_event *start, kcrt_event *end, double *ms);

/* ---------------------------------------------------------------- modules and kernels */

typedef struct kcrt_module kcrt_module;
typedef struct kcrt_kernel kcrt_kernel;

/* Loads a bundle (the bytes of a .kcb file, copied) for the device: on CUDA the cubin for
 * the device's architecture if the bundle has one, else its PTX through the JIT; on OpenCL
 * SPIR-V where the device takes it, else the OpenCL C source. Compiled programs are cached
 * on disk (docs/runtime.md: KCC_CACHE). Errors: KCRT_ERROR_INVALID_MODULE for a damaged
 * bundle, KCRT_ERROR_NO_BINARY when no form suits the device, KCRT_ERROR_BUILD_FAILED with
 * the driver's log in kcrt_last_error(). */
kcrt_status kcrt_module_load(kcrt_device *dev, const void *data, size_t size, kcrt_module **out);
kcrt_status kcrt_module_load_file(kcrt_device *dev, const char *path, kcrt_module **out);
/* Releases the module and its kernels. A module of kcrt_module_get belongs to its device:
 * unloading it is refused (KCRT_ERROR_INVALID_VALUE) and leaves it working. */
kcrt_status kcrt_module_unload(kcrt_module *mod);

/* The device's module for the bundle at `data`: loaded by the first call for this (device,
 * address, size) — once, whatever the threads: the load runs under a lock of the device — and
 * the same handle for every later call. The module belongs to the device and is released by
 * kcrt_device_close (kcrt_module_unload refuses it). Meant for bundles that stay at one
 * address for the life of the program, such as the arrays kcc's generated headers embed: the
 * bytes are read (and copied) at the first load only. Another bundle later put at the same
 * address with the same size is told apart by its checksum field and loaded as a module of
 * its own. A failed load is not remembered: the next call tries again. */
kcrt_status kcrt_module_get(kcrt_device *dev, const void *data, size_t size, kcrt_module **out);
#define KCRT_HAS_MODULE_GET 1

/* The storage of the module's host-filled variable `name` — a `constant` (`__constant__`)
 * variable declared without an initializer, which CUDA programs fill with
 * cudaMemcpyToSymbol — as a buffer of exactly its size: write it (and read it back) with
 * kcrt_buffer_write/read/fill/copy before the launches that read it. It starts zero-filled.
 * A CUDA `__device__` variable is one too (cudaMemcpyFrom/ToSymbol): it starts at its
 * initializer, and kernels write it; what they leave there stays for the next launch.
 * The buffer belongs to the module and lives as long as it (kcrt_buffer_free refuses it).
 * On CUDA it is the module's own `.const` (`.global`) variable; on OpenCL, which cannot write
 * program variables from the host, a buffer that libkcrt passes to every kernel using it.
 * KCRT_ERROR_SYMBOL_NOT_FOUND names the module's symbols when there is no such one. */
kcrt_status kcrt_module_symbol(kcrt_module *mod, const char *name, kcrt_buffer **out);
#define KCRT_HAS_MODULE_SYMBOL 1

kcrt_status kcrt_kernel_get(kcrt_module *mod, const char *name, kcrt_kernel **out);
/* The number of kernels in the module and the name of the i-th (for tools). */
kcrt_status kcrt_module_kernel_count(kcrt_module *mod, int *count);
const char *kcrt_module_kernel_name(kcrt_module *mod, int index);

typedef enum kcrt_param_kind {
  KCRT_PARAM_POINTER = 1,  /* pass a buffer */
  KCRT_PARAM_SCALAR = 2,   /* pass the value's bytes (vectors too: see kcrt_param_info.vec_len) */
  KCRT_PARAM_STRUCT = 3,   /* pass the struct's bytes (C layout) */
  KCRT_PARAM_LOCAL = 4,    /* local memory (`shared T *`, OpenCL `__local T *`): pass its size,
                              kcrt_local(bytes) */
  KCRT_PARAM_IMAGE = 7,    /* an OpenCL C image (image2d_t...): pass the kcrt_image * by value,
                              KCRT_ARG_VALUE(img) */
  KCRT_PARAM_SAMPLER = 8,  /* an OpenCL C sampler_t: pass the kcrt_sampler * by value */
  KCRT_PARAM_TEXTURE = 9,  /* a CUDA cudaTextureObject_t: pass the kcrt_texture * by value (or,
                              on CUDA, a CUtexObject) */
  KCRT_PARAM_SURFACE = 10, /* a CUDA cudaSurfaceObject_t: pass the kcrt_surface * by value */
} kcrt_param_kind;

typedef struct kcrt_param_info {
  const char *name; /* as in the source */
  const char *type; /* as C spells it: "const float *" */
  kcrt_param_kind kind;
  size_t size, align; /* of what the host passes (a local parameter: 4, its CUDA offset) */
  /* The scalar, vector or pointee element type (KCRT_TYPE_NONE for structs, void and other
   * pointees), as a buffer would be tagged with it: KCRT_TYPE_VECTOR(KCRT_TYPE_FLOAT, 4) for
   * float4 and float4 *. */
  kcrt_elem_type elem_type;
} kcrt_param_info;

typedef struct kcrt_kernel_info {
  const char *name;
  int num_params;
  uint64_t static_shared_bytes;
  int uses_dynamic_shared;
  uint64_t max_threads_per_block; /* for this kernel on this device (registers permitting) */
  /* reqd_work_group_size(x, y, z): the only block shape the kernel accepts; 0s = any. */
  uint64_t required_block[3];
} kcrt_kernel_info;

kcrt_status kcrt_kernel_get_info(kcrt_kernel *k, kcrt_kernel_info *info);
kcrt_status kcrt_kernel_param_info(kcrt_kernel *k, int index, kcrt_param_info *info);

/* ---------------------------------------------------------------- launch */

/* Grid and block sizes are 64-bit so that any request can be checked and reported exactly
 * instead of being truncated on the way in. */
typedef struct kcrt_dim3 {
  uint64_t x, y, z;
} kcrt_dim3;
#define KCRT_DIM3(x, y, z) ((kcrt_dim3){(x), (y), (z)})
#define KCRT_DIM1(x)       ((kcrt_dim3){(x), 1, 1})

/* One kernel argument. Pointer parameters take a buffer (`buffer`, or NULL for a null
 * pointer); scalar and struct parameters take `size` bytes at `value`. */
typedef struct kcrt_arg {
  const void *value;
  size_t size;
  kcrt_buffer *buffer;
} kcrt_arg;
#define KCRT_ARG_VALUE(v)  ((kcrt_arg){&(v), sizeof(v), NULL})
#define KCRT_ARG_BUFFER(b) ((kcrt_arg){NULL, 0, (b)})

/* Local-memory parameters (`shared float *tmp` on a kernel; OpenCL's `__local float *tmp`)
 * take the size in bytes (> 0) of the block's buffer, made for each launch: kcrt_local(bytes)
 * or KCRT_ARG_LOCAL(bytes). Such an argument is marked by `value` pointing at
 * kcrt_local_marker (size: the bytes); a local size for any other parameter, or anything else
 * for a local parameter, is KCRT_ERROR_INVALID_ARGUMENT, and so is a size of 0. Every local
 * buffer and the launch's dynamic_shared bytes, with the kernel's static shared memory,
 * must fit the device's shared memory per block (KCRT_ERROR_INVALID_LAUNCH). */
extern const unsigned char kcrt_local_marker;
#define KCRT_ARG_LOCAL(bytes) ((kcrt_arg){&kcrt_local_marker, (bytes), NULL})
static inline kcrt_arg kcrt_local(size_t bytes) {
  kcrt_arg a;
  a.value = &kcrt_local_marker;
  a.size = bytes;
  a.buffer = NULL;
  return a;
}
#define KCRT_HAS_LOCAL_ARGS 1

/* Launches `k` on `q` (NULL: default queue) with grid × block threads, `dynamic_shared`
 * bytes for the kernel's `extern shared` array, and the arguments in parameter order.
 * Everything is checked before the driver sees it: the argument count, each argument's kind
 * and size against the kernel table, each tagged buffer's element type against its pointer
 * parameter's (kcrt_buffer_set_type) (KCRT_ERROR_INVALID_ARGUMENT), and every grid and block
 * dimension, the threads per block, the block shape a reqd_work_group_size kernel requires,
 * and the shared memory (static + dynamic + local parameters) against the device's and the
 * kernel's limits (KCRT_ERROR_INVALID_LAUNCH); the message names the limit.
 * Asynchronous: returns once the launch is queued. */
kcrt_status kcrt_launch(kcrt_kernel *k, kcrt_queue *q, kcrt_dim3 grid, kcrt_dim3 block,
                        size_t dynamic_shared, const kcrt_arg *args, int num_args);

/* ---------------------------------------------------------------- convenience
 * The short path for the common program (docs/runtime.md, "The short path"): errors handled
 * in one place, a buffer made from host data in one call, launches that name only what the
 * caller sets. Everything here is built on the calls above and mixes freely with them. */

/* Error handling in one place. Every failing kcrt call, before it returns its status, calls
 * the handler set here (fn NULL: none, the default) with the status and kcrt_last_error()'s
 * message, in the failing thread. A handler may log, count, or end the program; libkcrt
 * itself never exits. */
typedef void (*kcrt_error_fn)(kcrt_status status, const char *message, void *ctx);
kcrt_status kcrt_set_error_handler(kcrt_error_fn fn, void *ctx);
/* A ready handler for programs that cannot go on after a failure: prints
 * "kcrt: STATUS: message" on stderr and calls exit(1). kcrt_set_error_handler(kcrt_error_exit,
 * NULL) and no call needs its own check. */
void kcrt_error_exit(kcrt_status status, const char *message, void *ctx);
/* The sticky error, like cudaGetLastError: the status of the first call of this thread that
 * failed since the previous kcrt_get_error (KCRT_SUCCESS if none), which it clears. A batch
 * of calls can be checked once at its end; kcrt_last_error() keeps the latest message. */
kcrt_status kcrt_get_error(void);

/* A buffer holding a copy of `size` bytes (> 0) at `src`: kcrt_buffer_alloc then
 * kcrt_buffer_write, the buffer freed again if the write fails. */
kcrt_status kcrt_buffer_from(kcrt_device *dev, const void *src, size_t size, kcrt_buffer **out);

/* What a launch needs besides the kernel's arguments, as one value: the generated headers'
 * short launch functions (NAME_launch) take it first. C99 designated initializers leave
 * the rarely-set members zero: (kcrt_config){.dev = dev, .grid = g, .block = b}; zero
 * shared bytes and a NULL queue (the default one) are what most launches want. */
typedef struct kcrt_config {
  kcrt_device *dev;
  kcrt_dim3 grid, block;
  size_t shared;     /* bytes for the kernel's `extern shared` array */
  kcrt_queue *queue; /* NULL: the device's default queue */
} kcrt_config;
/* One-dimensional: enough blocks of `block` threads to cover `threads` (the kernel checks
 * its index against its size). Without a compound literal, so that C++ takes it too. */
static inline kcrt_config kcrt_config_1d(kcrt_device *dev, uint64_t threads, uint64_t block) {
  kcrt_config c;
  c.dev = dev;
  c.grid.x = block ? threads / block + (threads % block != 0) : 0;
  c.block.x = block;
  c.grid.y = c.grid.z = c.block.y = c.block.z = 1;
  c.shared = 0;
  c.queue = NULL;
  return c;
}

/* Value-returning shorthands for the usual steps. Each returns NULL (NaN for a time) on
 * failure, after the failure went through kcrt_set_error_handler's handler and into the
 * sticky error (kcrt_get_error), as every failure does. */
/* "NAME (CUDA, PLATFORM)" or "NAME (OpenCL, PLATFORM)" for the device (kcrt_device_get_info's
 * fields), in a per-thread buffer valid until this thread's next call of it. */
const char *kcrt_device_describe(kcrt_device *dev);
/* A new event recorded on `q` (NULL: the default queue): kcrt_event_create then
 * kcrt_event_record. kcrt_device_close destroys it with the device. */
kcrt_event *kcrt_event_mark(kcrt_device *dev, kcrt_queue *q);
/* kcrt_event_elapsed_ms's milliseconds as the result. */
double kcrt_event_ms(kcrt_event *start, kcrt_event *end);
/* A monotonic clock in milliseconds (CLOCK_MONOTONIC), for timing host-side work such as a
 * first launch, which loads the module. */
double kcrt_now_ms(void);
#define KCRT_HAS_CONVENIENCE 1
/* ---------------------------------------------------------------- end of convenience */

/* Portable launches: when on, kcrt_launch also refuses (KCRT_ERROR_INVALID_LAUNCH, the message
 * naming the limit and "portable") what some supported GPU would refuse although this device
 * takes it: more than 1024 threads per block, a block dimension over 1024 x 1024 x 64, a grid
 * over 2147483647 x 65535 x 65535, more than 48 KiB of static shared memory. So a launch
 * that would fail on NVIDIA fails on a CPU's OpenCL too. Off by default; $KCC_PORTABLE=1
 * turns it on for the process; this call overrides the variable (on != 0: on). */
kcrt_status kcrt_set_portable(int on);

/* Warnings: launches libkcrt accepts but that are probably wrong — today, a kernel with an
 * `extern shared` array launched with 0 dynamic shared bytes (once per kernel; under
 * KCC_PORTABLE it is an error, KCRT_ERROR_INVALID_LAUNCH). By default each goes to stderr as
 * "kcrt: warning: MESSAGE" ($KCC_WARNINGS=off: nowhere); a handler set here gets them
 * instead (fn NULL: back to the default). It may be called from any thread that launches,
 * one call at a time. */
typedef void (*kcrt_warning_fn)(const char *message, void *ctx);
kcrt_status kcrt_set_warning_handler(kcrt_warning_fn fn, void *ctx);
#define KCRT_HAS_WARNINGS 1
int kcrt_get_portable(void);
#define KCRT_HAS_PORTABLE 1

#ifdef __cplusplus
}
#endif

#endif
