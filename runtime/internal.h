/* internal.h — what the pieces of libkcrt share: the parsed bundle, the objects behind the
 * public handles, the back-end interface every driver implements, errors, logging and the
 * on-disk cache. Nothing here is part of the public API. */
#ifndef KCRT_INTERNAL_H
#define KCRT_INTERNAL_H

#include "kcrt.h"
#include "kcb_format.h"

#include <pthread.h>
#include <stdbool.h>

#define KCRT_VERSION_STRING "0.1.0"

/* ---------------------------------------------------------------- errors, logging */

/* Records the message for kcrt_last_error() in this thread and returns `s`, so that
 * `return kcrt_fail(KCRT_ERROR_..., "...")` reports and fails in one statement. */
kcrt_status kcrt_fail(kcrt_status s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Passes a warning to the handler (kcrt_set_warning_handler), or prints it on stderr. */
void kcrt_warn(const char *msg);
/* Appends to the current thread's message (for driver logs after a kcrt_fail). */
void kcrt_error_append(const char *text);
/* KCC_LOG=1: prints "kcrt: ..." lines on stderr (cache hits and misses, load times). */
bool kcrt_log_on(void);
void kcrt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
double kcrt_now_ms(void);

/* ---------------------------------------------------------------- the parsed bundle */

typedef struct KcbParam {
  const char *name, *type; /* NUL-terminated copies */
  uint8_t kind, addr_space, scalar, qual;
  uint32_t size, align;
  uint8_t vec_len; /* 1.2: 2, 3, 4, 8 or 16 for a vector or a pointer to one; else 0 */
} KcbParam;

typedef struct KcbSymbol {
  const char *name;
  uint64_t size;
  uint32_t flags;            /* SYMINIT (1.4): KCB_SYMBOL_MUTABLE for a CUDA __device__ variable */
  const unsigned char *init; /* its first value, size bytes (in the bundle's image), or NULL */
} KcbSymbol;

typedef struct KcbKernel {
  const char *name;
  KcbParam *params;
  uint32_t nparams;
  uint32_t *symbols; /* SYMBOLS: the symbol indices of its hidden OpenCL arguments, in order */
  uint32_t nsymbols;
  uint64_t static_shared_bytes;
  uint32_t flags;
  uint32_t max_threads;   /* __launch_bounds__ (1.1; 0 = none, as 1.0's reserved field reads) */
  uint32_t reqd_block[3]; /* reqd_work_group_size (1.2, KATTRS section); 0s = none */
  uint32_t reqd_subgroup; /* intel_reqd_sub_group_size (1.8, KATTRS section); 0 = none */
  uint32_t nlocal;        /* parameters of kind KCB_PARAM_LOCAL */
  /* -fbounds-check (1.3): params[nparams .. nparams + nhidden) are the hidden parameters the
   * runtime fills (KCB_PARAM_BOUNDS_*); nparams counts what the host passes. */
  uint32_t nhidden;
} KcbKernel;

/* -fbounds-check's tables (BOUNDS section): what the error record's ids name. */
typedef struct KcbRegion {
  int kind; /* 1 kernel parameter, 2 shared, 3 local, 4 constant */
  int kernel, param;
  uint32_t elem_size;
  const char *name, *elem;
} KcbRegion;

typedef struct KcbSite {
  int access; /* 1 read, 2 write, 3 update */
  int line, col;
  const char *file;
} KcbSite;

typedef struct KcbSection {
  uint32_t kind, arch;
  const unsigned char *data; /* inside KcbBundle.image */
  size_t size;
} KcbSection;

typedef struct KcbBundle {
  unsigned char *image; /* a private copy of the bytes given */
  size_t size;
  uint64_t hash; /* the verified checksum: identifies the bundle in caches */
  KcbSection *secs;
  uint32_t nsecs;
  KcbKernel *kernels;
  uint32_t nkernels;
  KcbParam *params;
  KcbSymbol *symbols; /* host-filled module variables (SYMBOLS section; none in 1.0) */
  uint32_t nsymbols;
  uint32_t *symuses;  /* storage of every KcbKernel.symbols */
  char *symnames;     /* the symbols' names, NUL-terminated */
  char *strings;      /* every name above, NUL-terminated */
  const char *source; /* the INFO section's source=, or "" */
  KcbRegion *regions; /* -fbounds-check: region id i + 1 is regions[i] */
  uint32_t nregions;
  KcbSite *sites; /* site id i is sites[i] */
  uint32_t nsites;
  char *bounds_text; /* the BOUNDS section, cut into the strings above */
  bool checked;      /* compiled with -fbounds-check: every kernel has hidden parameters */
} KcbBundle;

/* Validates (every offset and count bounds-checked) and copies a bundle. */
kcrt_status kcb_parse(const void *data, size_t size, KcbBundle **out);
void kcb_free(KcbBundle *b);
const KcbKernel *kcb_kernel(const KcbBundle *b, const char *name);
/* The index of the symbol called name, or -1. */
int kcb_symbol(const KcbBundle *b, const char *name);
/* The section of `kind` (and `arch` unless arch is 0), or NULL. */
const KcbSection *kcb_section(const KcbBundle *b, uint32_t kind, uint32_t arch);
/* A NUL-terminated malloc'd copy of a text section, or NULL when out of memory. */
char *kcb_text(const KcbSection *s);

/* The size in bytes of an element of scalar code `t` (KcbScalar) and vector length `vec_len`
 * (0: not a vector; 3-vectors take 4 slots), or 0 when `t` is not a scalar code. */
size_t kcb_elem_size(int t, int vec_len);

/* ---------------------------------------------------------------- objects */

typedef struct KcrtBackend KcrtBackend;

/* One device found by enumeration (the list is built once and never changes). */
typedef struct KcrtDevEntry {
  kcrt_device_info info;
  const KcrtBackend *be;
  void *h1, *h2; /* back-end handles: CUDA ordinal; OpenCL platform and device ids; Vulkan's
                    physical device record */
} KcrtDevEntry;

/* The visibility variables kcrt applies itself (schedenv.c): removes the entries of one back
 * end's list they hide and numbers the rest from 0; `note` says which variables hid how many
 * ("" when none did). */
void kcrt_visible_filter(KcrtDevEntry *list, int *n, char *note, size_t notelen);
/* The process's rank among the processes of its node, from the variables MPI launchers and
 * schedulers set (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID...); 0 when none
 * is set. *from names the variable read (NULL: none). */
int kcrt_local_rank(const char **from);

/* The device list (built on first use, then constant). */
const KcrtDevEntry *kcrt_devices(int *n);
kcrt_status kcrt_device_open_entry(const KcrtDevEntry *e, kcrt_device **out);

/* Every live object is on its device's list, so closing a device can release what the
 * program forgot. */
typedef struct KcrtLink {
  struct KcrtLink *prev, *next;
} KcrtLink;

struct kcrt_device {
  const KcrtDevEntry *entry;
  kcrt_device_info info;
  const KcrtBackend *be;
  void *priv; /* the back end's context state */
  kcrt_queue *defq;
  pthread_mutex_t lock; /* the object lists */
  KcrtLink buffers, queues, events, modules, images, samplers, textures, surfaces;
  /* kcrt_module_get's modules (chained by shared_next) and the lock held across a load
   * through it: not `lock`, which every allocation takes, because a load may run a driver's
   * compiler for seconds. Order: shared_lock before lock. */
  pthread_mutex_t shared_lock;
  kcrt_module *shared;
};

struct kcrt_buffer {
  KcrtLink link;
  kcrt_device *dev;
  size_t size;
  uint64_t dptr;            /* CUDA device pointer */
  void *mem;                /* OpenCL cl_mem */
  kcrt_elem_type elem_type; /* kcrt_buffer_set_type's tag (KCRT_TYPE_NONE: untagged) */
  size_t elem_size;
  kcrt_module *symbol_of; /* a module symbol's storage (kcrt_module_symbol): the module frees it */
  bool borrowed;          /* the driver owns the memory (CUDA module globals): never freed */
  kcrt_buffer *view_of;   /* kcrt_buffer_view: the parent whose bytes this is */
  int nviews;             /* views of this buffer still alive */
};

/* Marks live image and sampler handles: a launch reads a handle from the bytes the caller gave
 * for an image or sampler parameter, and this catches the common mistake of passing something
 * else (a buffer, the wrong variable). */
enum { KCRT_IMAGE_MAGIC = 0x696d6731u, KCRT_SAMPLER_MAGIC = 0x736d7031u };

struct kcrt_image {
  KcrtLink link;
  kcrt_device *dev;
  uint32_t magic;
  kcrt_image_desc desc;
  size_t pixel; /* bytes per pixel */
  size_t bytes; /* kcrt_image_size */
  void *mem;    /* OpenCL cl_mem (the image); CUDA CUarray */
  void *buf;    /* OpenCL cl_mem under a 1D buffer image */
  /* CUDA: what a kernel's image parameter receives (docs/bundle.md, "Images on CUDA"); surf is
   * the array's surface object, or a 1D buffer image's device address (mem NULL). */
  struct {
    uint64_t surf;
    int32_t width, height, depth, array_size, order, data_type; /* absent extents are 1 */
  } kdesc;
};

struct kcrt_sampler {
  KcrtLink link;
  kcrt_device *dev;
  uint32_t magic;
  int normalized;
  kcrt_addressing addressing;
  kcrt_filter filter;
  uint32_t bits; /* OpenCL C's CLK_* bits for these settings: what a CUDA kernel receives */
  void *h;       /* cl_sampler */
};

enum { KCRT_TEXTURE_MAGIC = 0x74657831u, KCRT_SURFACE_MAGIC = 0x73726631u };

/* A CUDA-style texture object (kcrt_texture_create): an image and the sampler it bakes in. */
struct kcrt_texture {
  KcrtLink link;
  kcrt_device *dev;
  uint32_t magic;
  kcrt_image *img;
  kcrt_sampler *smp; /* made for it: the OpenCL sampler, or the CLK_* bits Vulkan reads */
  kcrt_texture_desc desc;
  uint64_t cu; /* CUDA: the CUtexObject a PTX kernel's tex instructions read */
};

struct kcrt_surface {
  KcrtLink link;
  kcrt_device *dev;
  uint32_t magic;
  kcrt_image *img;
};

/* Whether obj is on dev's list head (a live handle of that kind), under the device's lock. */
bool kcrt_link_has(kcrt_device *dev, KcrtLink *head, const void *obj);
/* The kcrt_texture (kcrt_surface) a texture (surface) parameter's 8 argument bytes name, or
 * NULL: on CUDA devices a CUDA object the program made (image.c). */
kcrt_texture *kcrt_texture_of(kcrt_device *dev, const kcrt_arg *a);
kcrt_surface *kcrt_surface_of(kcrt_device *dev, const kcrt_arg *a);
/* Launch argument i of k for a texture or surface parameter (image.c). */
kcrt_status kcrt_check_texobj_arg(const kcrt_kernel *k, uint32_t i, const kcrt_arg *a);

/* Channels of a channel order, 0 for an unknown one (image.c). */
int kcrt_image_channels(kcrt_channel_order o);
/* Fills img->kdesc for the software samplers (CUDA, Vulkan): surf, and the extents and format
 * of img->desc (image.c). */
void kcrt_image_set_kdesc(kcrt_image *img, uint64_t surf);
/* Closing a device frees what it made (image.c). */
void kcrt_images_release(kcrt_device *dev);
/* Launch argument i of k for an image or sampler parameter: a live handle of the right kind,
 * type and device, passed by value (image.c). */
kcrt_status kcrt_check_image_arg(const kcrt_kernel *k, uint32_t i, const kcrt_arg *a);
/* core.c's object lists, for the objects of other files. */
void kcrt_link_add(kcrt_device *dev, KcrtLink *head, KcrtLink *l);
void kcrt_link_del(kcrt_device *dev, KcrtLink *l);
void *kcrt_link_first(kcrt_device *dev, KcrtLink *head);

struct kcrt_queue {
  KcrtLink link;
  kcrt_device *dev;
  void *h; /* CUstream / cl_command_queue */
};

struct kcrt_event {
  KcrtLink link;
  kcrt_device *dev;
  void *h; /* CUevent / cl_event (NULL until recorded) */
  bool recorded;
};

struct kcrt_kernel {
  kcrt_module *mod;
  const KcbKernel *k;
  void *h;                 /* CUfunction / cl_kernel */
  uint64_t max_threads;    /* for this kernel on this device */
  uint64_t static_shared;  /* what the compiled code uses (>= the table's figure) */
  uint64_t dyn_shared_set; /* CUDA: the dynamic shared size opted in so far */
  bool warned_dyn0;        /* the 0-byte `extern shared` warning was given */
  pthread_mutex_t lock;    /* OpenCL: argument setting and enqueue are one step */
};

struct kcrt_module {
  KcrtLink link;
  kcrt_device *dev;
  KcbBundle *b;
  void *h;               /* CUmodule / the back end's program record */
  kcrt_kernel **kernels; /* nkernels slots, filled on first kcrt_kernel_get */
  kcrt_buffer **symbols; /* b->nsymbols: each host-filled variable's storage, made at load */
  /* -fbounds-check: the error record every checked launch gets (KCB_BOUNDS_RECORD_BYTES,
   * zero until a kernel fails a check), and whether a launch may have written it since it
   * was last read. */
  kcrt_buffer *bounds;
  bool bounds_pending;
  pthread_mutex_t lock;
  /* kcrt_module_get's modules: owned by the device, found by the caller's bundle address,
   * size and checksum field. Set before the module is published, constant after. */
  bool shared;
  const void *key;
  size_t key_size;
  uint64_t key_sum;
  kcrt_module *shared_next;
};

/* Where a launch's local-memory parameters (KCB_PARAM_LOCAL) go in the dynamic shared region:
 * after the launch's own `dyn` bytes, each at the next multiple of 16. Fills offsets[i] for
 * each parameter i that is local (others untouched; offsets may be NULL) and returns the
 * region's total size (dyn when the kernel has none), or UINT64_MAX on overflow. args are
 * checked (check_args) already. */
uint64_t kcrt_local_layout(const KcbKernel *k, const kcrt_arg *args, size_t dyn, uint32_t *offsets);

/* -fbounds-check: reads the error record of every checked module of dev launched since its
 * last read; a failure there is KCRT_ERROR_OUT_OF_BOUNDS with the message (and the record is
 * cleared for the next launches). `st` is returned when there is none. Called by every
 * synchronising call once its wait is over. */
kcrt_status kcrt_bounds_poll(kcrt_device *dev, kcrt_status st);
/* The error record of a checked module (none for others), made zero-filled at load. */
kcrt_status kcrt_bounds_init(kcrt_module *m);
void kcrt_bounds_free(kcrt_module *m);
/* A checked launch's arguments: `args` (nparams) then the hidden ones (nhidden) in `all`;
 * `vals` (nhidden entries) holds the sizes they point at. */
void kcrt_bounds_args(const kcrt_kernel *k, const kcrt_arg *args, size_t dyn, kcrt_arg *all,
                      uint64_t *vals);

/* ---------------------------------------------------------------- back ends */

struct KcrtBackend {
  kcrt_backend id;
  const char *name;
  /* Appends the back end's devices to the list (grown with realloc). On finding none it
   * writes the reason to `why`. */
  void (*enumerate)(KcrtDevEntry **list, int *n, char *why, size_t whylen);
  kcrt_status (*open)(kcrt_device *dev); /* context and default queue (dev->defq->h) */
  void (*close)(kcrt_device *dev);
  kcrt_status (*mem_alloc)(kcrt_buffer *b);
  void (*mem_free)(kcrt_buffer *b);
  kcrt_status (*mem_write)(kcrt_buffer *b, size_t off, const void *src, size_t n);
  kcrt_status (*mem_read)(kcrt_buffer *b, size_t off, void *dst, size_t n);
  kcrt_status (*mem_copy)(kcrt_buffer *d, size_t doff, kcrt_buffer *s, size_t soff, size_t n);
  /* d and s on two devices of this back end (NULL: through the host). */
  kcrt_status (*mem_copy_peer)(kcrt_buffer *d, size_t doff, kcrt_buffer *s, size_t soff, size_t n);
  kcrt_status (*mem_fill)(kcrt_buffer *b, size_t off, unsigned char byte, size_t n);
  /* v (size set) as bytes [off, off + v->size) of parent: CUDA an offset pointer, OpenCL a
   * sub-buffer. */
  kcrt_status (*mem_view)(kcrt_buffer *v, kcrt_buffer *parent, size_t off);
  /* b (dev, dptr, size set) over memory another library allocated: checks that it is this
   * device's, whole. NULL: the back end cannot share device memory (kcrt_buffer_wrap). */
  kcrt_status (*mem_wrap)(kcrt_buffer *b);
  kcrt_status (*wait_stream)(kcrt_device *dev, uint64_t stream); /* NULL with mem_wrap */
  kcrt_status (*queue_create)(kcrt_queue *q);
  void (*queue_destroy)(kcrt_queue *q);
  kcrt_status (*queue_sync)(kcrt_queue *q);
  kcrt_status (*event_create)(kcrt_event *e);
  void (*event_destroy)(kcrt_event *e);
  kcrt_status (*event_record)(kcrt_event *e, kcrt_queue *q);
  kcrt_status (*event_sync)(kcrt_event *e);
  kcrt_status (*event_elapsed)(kcrt_event *a, kcrt_event *b, double *ms);
  kcrt_status (*module_load)(kcrt_module *m);
  void (*module_unload)(kcrt_module *m);
  /* Storage of module symbol s in b (size already set): CUDA finds the module's global,
   * OpenCL allocates the buffer that launches pass as a hidden argument. Zero-filled. */
  kcrt_status (*symbol_init)(kcrt_module *m, const KcbSymbol *s, kcrt_buffer *b);
  kcrt_status (*kernel_init)(kcrt_kernel *k); /* h, max_threads, static_shared */
  void (*kernel_release)(kcrt_kernel *k);
  /* Arguments and dimensions are already checked against the table and the limits. dyn_shared
   * is the launch's own dynamic shared size (local parameters not included: see
   * kcrt_local_layout). */
  kcrt_status (*launch)(kcrt_kernel *k, kcrt_queue *q, const uint64_t grid[3],
                        const uint64_t block[3], size_t dyn_shared, const kcrt_arg *args);
  /* Images and samplers (NULL: the back end has none, KCRT_ERROR_NOT_SUPPORTED). image_create
   * gets desc, pixel and bytes set (and checked) and fills mem (and buf). */
  kcrt_status (*image_create)(kcrt_image *img);
  void (*image_free)(kcrt_image *img);
  kcrt_status (*image_write)(kcrt_image *img, const void *src);
  kcrt_status (*image_read)(kcrt_image *img, void *dst);
  kcrt_status (*sampler_create)(kcrt_sampler *s);
  void (*sampler_free)(kcrt_sampler *s);
  /* CUDA texture objects (kcrt_texture_create; NULL: the back end reads the image and sampler
   * themselves): fills t->cu. raw_texobj: a texture or surface parameter also takes the
   * driver's own objects (CUDA). */
  kcrt_status (*texture_create)(kcrt_texture *t);
  void (*texture_free)(kcrt_texture *t);
  bool raw_texobj;
};

extern const KcrtBackend kcrt_cuda_backend;
extern const KcrtBackend kcrt_opencl_backend;
extern const KcrtBackend kcrt_vulkan_backend;

/* ---------------------------------------------------------------- on-disk cache */

/* Keys are built from NUL-separated fields (device, driver version, runtime version, bundle
 * hash, form); the whole key is stored in the entry and compared, the file name is its hash. */
typedef struct KcrtKey {
  char buf[2048];
  size_t len;
} KcrtKey;
void kcrt_key_init(KcrtKey *k, const char *what);
void kcrt_key_add(KcrtKey *k, const char *field);
void kcrt_key_add_u64(KcrtKey *k, uint64_t v);
/* The cached payload for the key (malloc'd, *len set) or NULL: disabled, missing, or
 * corrupt (a corrupt entry is logged and will be replaced by the next put). */
void *kcrt_cache_get(const KcrtKey *k, size_t *len);
/* Stores the payload atomically (temporary file + rename); failures are only logged. */
void kcrt_cache_put(const KcrtKey *k, const void *data, size_t len);

#endif
