/* kcb_format.h — the kcc bundle (.kcb) format, shared by the writer (kcc's
 * compiler/package/bundle.c, the runtime's tests) and the reader (runtime/bundle.c). docs/bundle.md
 * is the prose specification; this header is its executable form. It depends on nothing but libc so
 * the runtime can include it without LLVM or libclang.
 *
 * Everything is little-endian and read byte by byte through kcb_get*() so that neither the
 * host's byte order nor the alignment of the bytes in memory matters.
 *
 * The writer is here too, as static inline functions, so that the compiler and the tests that
 * forge bundles (corrupted ones included) produce byte-identical layouts from one definition
 * instead of two that could drift apart. */
#ifndef KCC_KCB_FORMAT_H
#define KCC_KCB_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* PNG-style magic: the high byte catches 7-bit transfers, CR LF and ^Z catch text-mode
 * conversions, so a mangled copy fails at the magic instead of somewhere inside. */
#define KCB_MAGIC "\x89KCB\r\n\x1a\n"
enum {
  KCB_MAGIC_SIZE = 8,
  KCB_VERSION_MAJOR = 1, /* a reader rejects another major version */
  KCB_VERSION_MINOR = 8, /* a reader accepts any minor version of its major */
  KCB_HEADER_SIZE = 48,
  KCB_SECTION_ENTRY_SIZE = 32,
  KCB_KTAB_HEADER_SIZE = 16,
  KCB_KERNEL_ENTRY_SIZE = 32,
  KCB_PARAM_ENTRY_SIZE = 32,
  KCB_SYMTAB_HEADER_SIZE = 8,
  KCB_SYMBOL_ENTRY_SIZE = 16,
  KCB_SYMUSE_ENTRY_SIZE = 8,
  KCB_SYMINIT_HEADER_SIZE = 8,
  KCB_SYMINIT_ENTRY_SIZE = 24,
  KCB_KATTR_HEADER_SIZE = 8,
  KCB_KATTR_ENTRY_SIZE = 20, /* what this writer writes (1.8: 20); readers take any >= 16 */
  KCB_ALIGN = 16,            /* sections start at multiples of this */
  KCB_CHECKSUM_OFFSET = 32   /* the checksum field, hashed as zeros */
};

/* Header field offsets. */
enum {
  KCB_H_MAGIC = 0,
  KCB_H_MAJOR = 8,
  KCB_H_MINOR = 10,
  KCB_H_HEADER_SIZE = 12,
  KCB_H_FILE_SIZE = 16,
  KCB_H_SECTION_COUNT = 24,
  KCB_H_FLAGS = 28,
  KCB_H_CHECKSUM = 32,
  KCB_H_RESERVED = 40,
};

typedef enum KcbSectionKind {
  KCB_SEC_INFO = 1,     /* text: "key=value\n" lines (producer, source) */
  KCB_SEC_KERNELS = 2,  /* the kernel table (below); exactly one per bundle */
  KCB_SEC_PTX = 3,      /* text: PTX; arch = the .target sm number */
  KCB_SEC_CUBIN = 4,    /* ELF: ptxas output; arch = the sm number */
  KCB_SEC_SPIRV = 5,    /* binary: SPIR-V words (OpenCL environment) */
  KCB_SEC_OPENCL_C = 6, /* text: OpenCL C 1.2 source */
  KCB_SEC_SYMBOLS = 7,  /* 1.1: host-filled module variables and the kernels that use them */
  KCB_SEC_KATTRS = 8,   /* 1.2: per-kernel attributes (reqd_work_group_size) */
  KCB_SEC_BOUNDS = 9,   /* 1.3: text: the regions and access sites of a -fbounds-check module */
  KCB_SEC_SYMINIT = 10, /* 1.4: flags and first values of SYMBOLS entries (CUDA __device__) */
  KCB_SEC_VKSPIRV = 11, /* 1.6: binary: SPIR-V words for Vulkan compute (kcc -o x.vk.spv) */
} KcbSectionKind;

typedef enum KcbParamKind {
  KCB_PARAM_POINTER = 1, /* a buffer: the host passes a kcrt_buffer */
  KCB_PARAM_SCALAR = 2,  /* integer, float, bool: the host passes the bytes */
  KCB_PARAM_STRUCT = 3,  /* struct by value: the host passes the bytes, C layout */
  KCB_PARAM_LOCAL = 4,   /* 1.2: `shared T *` (OpenCL `__local T *`): the host passes a size */
  /* 1.3, -fbounds-check: hidden trailing parameters the runtime fills (docs/bundle.md) */
  KCB_PARAM_BOUNDS_SIZE = 5,   /* u64: bytes of a buffer, local parameter or dynamic shared */
  KCB_PARAM_BOUNDS_RECORD = 6, /* global uint *: the module's error record */
  /* 1.5, OpenCL C's images and samplers: the host passes a kcrt_image or kcrt_sampler handle
     (size and align 8). An image's `scalar` field is its dimension (KcbImageDim) and its
     `qual` field its access (KCB_IMAGE_READ | KCB_IMAGE_WRITE). */
  KCB_PARAM_IMAGE = 7,
  KCB_PARAM_SAMPLER = 8,
  /* 1.7, CUDA's texture and surface objects (a cudaTextureObject_t / cudaSurfaceObject_t kernel
     parameter, 8 bytes): the host passes a kcrt_texture or kcrt_surface handle, or on CUDA the
     driver's own object. `scalar` is the image dimension (KcbImageDim) the kernel reads it as
     in the forms without texture objects, `qual` the access (a texture: read). */
  KCB_PARAM_TEXTURE = 9,
  KCB_PARAM_SURFACE = 10,
  /* 1.7: a hidden trailing parameter the runtime fills with the sampler of the kcrt_texture
     passed for parameter `scalar` (a KCB_PARAM_TEXTURE): its CLK_* bits, or an OpenCL sampler. */
  KCB_PARAM_TEX_SAMPLER = 11,
} KcbParamKind;

/* 1.5: an image parameter's dimension (KIR's KImageDim + 1). */
typedef enum KcbImageDim {
  KCB_IMAGE_1D = 1,
  KCB_IMAGE_1D_BUFFER = 2,
  KCB_IMAGE_1D_ARRAY = 3,
  KCB_IMAGE_2D = 4,
  KCB_IMAGE_2D_ARRAY = 5,
  KCB_IMAGE_3D = 6,
} KcbImageDim;
enum { KCB_IMAGE_READ = 1, KCB_IMAGE_WRITE = 2 };

/* Scalar type codes: a scalar parameter's type, or a pointer parameter's pointee (0 when the
 * pointee is not a scalar). */
typedef enum KcbScalar {
  KCB_T_NONE = 0,
  KCB_T_BOOL,
  KCB_T_I8,
  KCB_T_I16,
  KCB_T_I32,
  KCB_T_I64,
  KCB_T_U8,
  KCB_T_U16,
  KCB_T_U32,
  KCB_T_U64,
  KCB_T_F32,
  KCB_T_F64,
} KcbScalar;

/* Address spaces of pointer parameters, numbered as KIR (and NVPTX) numbers them. */
enum { KCB_AS_GENERIC = 0, KCB_AS_GLOBAL = 1, KCB_AS_SHARED = 3, KCB_AS_CONSTANT = 4 };
/* Pointee qualifiers of pointer parameters (KIR's KQ_* bits). */
enum { KCB_Q_CONST = 1, KCB_Q_VOLATILE = 2, KCB_Q_RESTRICT = 4 };
/* Kernel flags. */
enum {
  KCB_KERNEL_DYNAMIC_SHARED = 1,
  KCB_KERNEL_WARP = 2, /* 1.3: uses warp-level operations (on OpenCL: 32-wide subgroups) */
  KCB_KERNEL_FP64 = 4, /* 1.3: the kernel (or a function it calls) computes in double */
  /* 1.3: uses OpenCL subgroup functions (.cl input; on OpenCL: the device's own subgroups, any
     width, through cl_khr_subgroups) */
  KCB_KERNEL_SUBGROUPS = 8,
  /* 1.5: has a read_write image parameter (or calls a function that has one): its OpenCL C
     needs OpenCL C 2.0 or newer */
  KCB_KERNEL_RW_IMAGES = 16,
};
/* The -fbounds-check error record: 16 32-bit words (compiler/passes/bounds.h, KB_REC_*). */
enum { KCB_BOUNDS_RECORD_BYTES = 64 };

/* ---------------------------------------------------------------- byte access */

static inline uint16_t kcb_get16(const unsigned char *p) {
  return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t kcb_get32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t kcb_get64(const unsigned char *p) {
  return (uint64_t)kcb_get32(p) | (uint64_t)kcb_get32(p + 4) << 32;
}
static inline void kcb_put16(unsigned char *p, uint16_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
}
static inline void kcb_put32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> 8 * i);
}
static inline void kcb_put64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> 8 * i);
}

/* FNV-1a, 64-bit: the bundle checksum. It guards against accidental corruption (truncated
 * downloads, bit rot); it is not a defence against forgery, which the bounds checks are. */
static inline uint64_t kcb_fnv1a(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
#define KCB_FNV_INIT 0xcbf29ce484222325ull

/* The checksum of a whole bundle image: FNV-1a over every byte, with the 8 bytes of the
 * checksum field hashed as zeros. `len` must be at least KCB_HEADER_SIZE. */
static inline uint64_t kcb_checksum(const unsigned char *img, size_t len) {
  static const unsigned char zero[8] = {0};
  uint64_t h = kcb_fnv1a(KCB_FNV_INIT, img, KCB_CHECKSUM_OFFSET);
  h = kcb_fnv1a(h, zero, 8);
  return kcb_fnv1a(h, img + KCB_CHECKSUM_OFFSET + 8, len - KCB_CHECKSUM_OFFSET - 8);
}

/* ---------------------------------------------------------------- writer */

typedef struct KcbWParam {
  const char *name; /* source name (may be "") */
  const char *type; /* C spelling, for messages ("const float *") */
  uint8_t kind;     /* KcbParamKind */
  uint8_t addr_space;
  uint8_t scalar; /* KcbScalar */
  uint8_t qual;
  uint32_t size, align;
  uint8_t vec_len; /* 1.2: a vector (or a pointer to one): its length 2, 3, 4, 8, 16; else 0 */
} KcbWParam;

typedef struct KcbWKernel {
  const char *name;
  const KcbWParam *params;
  uint32_t nparams;
  uint64_t static_shared_bytes;
  uint32_t flags;         /* KCB_KERNEL_* */
  uint32_t max_threads;   /* 1.1: __launch_bounds__'s max threads per block; 0 = none */
  uint32_t reqd_block[3]; /* 1.2: reqd_work_group_size, in the KATTRS section; 0s = none */
  uint32_t reqd_subgroup; /* 1.8: intel_reqd_sub_group_size, in KATTRS; 0 = none */
} KcbWKernel;

typedef struct KcbWSection {
  uint32_t kind; /* KcbSectionKind */
  uint32_t arch;
  const void *data;
  uint64_t size;
} KcbWSection;

/* Serialises a kernel table section. Returns malloc'd bytes (*len set) or NULL when out of
 * memory or a count does not fit its 32-bit field. */
static inline unsigned char *kcb_write_kernel_table(const KcbWKernel *ks, uint32_t nk,
                                                    size_t *len) {
  *len = 0;
  uint64_t np = 0, strsz = 0;
  for (uint32_t i = 0; i < nk; i++) {
    strsz += strlen(ks[i].name);
    np += ks[i].nparams;
    for (uint32_t j = 0; j < ks[i].nparams; j++)
      strsz += strlen(ks[i].params[j].name) + strlen(ks[i].params[j].type);
  }
  uint64_t stroff =
      KCB_KTAB_HEADER_SIZE + (uint64_t)nk * KCB_KERNEL_ENTRY_SIZE + np * KCB_PARAM_ENTRY_SIZE;
  uint64_t total = stroff + strsz;
  if (np > UINT32_MAX || total > UINT32_MAX) return NULL;
  unsigned char *b = calloc(1, total ? total : 1);
  if (!b) return NULL;
  kcb_put32(b + 0, nk);
  kcb_put32(b + 4, (uint32_t)np);
  kcb_put32(b + 8, (uint32_t)stroff);
  kcb_put32(b + 12, (uint32_t)strsz);
  uint32_t s = 0, pi = 0; /* next string offset (relative to the pool), next param index */
#define KCB_ADD_STR_(str, at)                                                                      \
  do {                                                                                             \
    uint32_t n_ = (uint32_t)strlen(str);                                                           \
    memcpy(b + stroff + s, (str), n_);                                                             \
    kcb_put32((at), s);                                                                            \
    kcb_put32((at) + 4, n_);                                                                       \
    s += n_;                                                                                       \
  } while (0)
  for (uint32_t i = 0; i < nk; i++) {
    unsigned char *e = b + KCB_KTAB_HEADER_SIZE + (size_t)i * KCB_KERNEL_ENTRY_SIZE;
    KCB_ADD_STR_(ks[i].name, e);
    kcb_put32(e + 8, pi);
    kcb_put32(e + 12, ks[i].nparams);
    kcb_put64(e + 16, ks[i].static_shared_bytes);
    kcb_put32(e + 24, ks[i].flags);
    kcb_put32(e + 28, ks[i].max_threads);
    for (uint32_t j = 0; j < ks[i].nparams; j++, pi++) {
      const KcbWParam *p = &ks[i].params[j];
      unsigned char *q = b + KCB_KTAB_HEADER_SIZE + (size_t)nk * KCB_KERNEL_ENTRY_SIZE +
                         (size_t)pi * KCB_PARAM_ENTRY_SIZE;
      KCB_ADD_STR_(p->name, q);
      KCB_ADD_STR_(p->type, q + 8);
      q[16] = p->kind;
      q[17] = p->addr_space;
      q[18] = p->scalar;
      q[19] = p->qual;
      kcb_put32(q + 20, p->size);
      kcb_put32(q + 24, p->align);
      q[28] = p->vec_len;
    }
  }
#undef KCB_ADD_STR_
  *len = (size_t)total;
  return b;
}

/* Serialises a KATTRS section (1.2) for the kernels of a kernel table: one entry per kernel
 * that has an attribute (reqd_block, reqd_subgroup). Returns malloc'd bytes, or NULL with *len 0
 * when no kernel has one (then the bundle needs no such section), or NULL with *len 1 when out of
 * memory. */
static inline unsigned char *kcb_write_kernel_attrs(const KcbWKernel *ks, uint32_t nk,
                                                    size_t *len) {
  *len = 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < nk; i++)
    if (ks[i].reqd_block[0] || ks[i].reqd_block[1] || ks[i].reqd_block[2] || ks[i].reqd_subgroup)
      n++;
  if (!n) return NULL;
  size_t total = KCB_KATTR_HEADER_SIZE + (size_t)n * KCB_KATTR_ENTRY_SIZE;
  unsigned char *b = calloc(1, total);
  if (!b) {
    *len = 1;
    return NULL;
  }
  kcb_put32(b, n);
  kcb_put32(b + 4, KCB_KATTR_ENTRY_SIZE);
  unsigned char *e = b + KCB_KATTR_HEADER_SIZE;
  for (uint32_t i = 0; i < nk; i++) {
    if (!(ks[i].reqd_block[0] || ks[i].reqd_block[1] || ks[i].reqd_block[2] || ks[i].reqd_subgroup))
      continue;
    kcb_put32(e, i);
    for (int d = 0; d < 3; d++) kcb_put32(e + 4 + 4 * d, ks[i].reqd_block[d]);
    kcb_put32(e + 16, ks[i].reqd_subgroup);
    e += KCB_KATTR_ENTRY_SIZE;
  }
  *len = total;
  return b;
}

typedef struct KcbWSymbol {
  const char *name;
  uint64_t size;
} KcbWSymbol;

/* Serialises a SYMBOLS section: the symbols, then (kernel index, symbol index) pairs in each
 * kernel's hidden-argument order, then the names. Returns malloc'd bytes or NULL. */
static inline unsigned char *kcb_write_symbols(const KcbWSymbol *syms, uint32_t ns,
                                               const uint32_t (*uses)[2], uint32_t nu,
                                               size_t *len) {
  *len = 0;
  uint64_t strsz = 0;
  for (uint32_t i = 0; i < ns; i++) strsz += strlen(syms[i].name);
  uint64_t pool = KCB_SYMTAB_HEADER_SIZE + (uint64_t)ns * KCB_SYMBOL_ENTRY_SIZE +
                  (uint64_t)nu * KCB_SYMUSE_ENTRY_SIZE;
  uint64_t total = pool + strsz;
  if (total > UINT32_MAX) return NULL;
  unsigned char *b = calloc(1, (size_t)total);
  if (!b) return NULL;
  kcb_put32(b, ns);
  kcb_put32(b + 4, nu);
  uint32_t s = 0;
  for (uint32_t i = 0; i < ns; i++) {
    unsigned char *e = b + KCB_SYMTAB_HEADER_SIZE + (size_t)i * KCB_SYMBOL_ENTRY_SIZE;
    uint32_t n = (uint32_t)strlen(syms[i].name);
    memcpy(b + pool + s, syms[i].name, n);
    kcb_put32(e, s);
    kcb_put32(e + 4, n);
    kcb_put64(e + 8, syms[i].size);
    s += n;
  }
  for (uint32_t i = 0; i < nu; i++) {
    unsigned char *e = b + KCB_SYMTAB_HEADER_SIZE + (size_t)ns * KCB_SYMBOL_ENTRY_SIZE +
                       (size_t)i * KCB_SYMUSE_ENTRY_SIZE;
    kcb_put32(e, uses[i][0]);
    kcb_put32(e + 4, uses[i][1]);
  }
  *len = (size_t)total;
  return b;
}

enum { KCB_SYMBOL_MUTABLE = 1 }; /* SYMINIT flags: global memory that kernels write */

typedef struct KcbWSymInit {
  uint32_t symbol, flags;
  const unsigned char *data; /* the symbol's first value, len bytes (0: none, zero-filled) */
  uint64_t len;
} KcbWSymInit;

/* Serialises a SYMINIT section: a header (entry count, 0), one 24-byte entry per symbol
 * (u32 symbol index, u32 flags, u64 data offset from the section's start, u64 data length),
 * then the data, each value at a multiple of 8. Returns malloc'd bytes or NULL. */
static inline unsigned char *kcb_write_syminit(const KcbWSymInit *e, uint32_t n, size_t *len) {
  *len = 0;
  uint64_t total = KCB_SYMINIT_HEADER_SIZE + (uint64_t)n * KCB_SYMINIT_ENTRY_SIZE;
  for (uint32_t i = 0; i < n; i++) total += (e[i].len + 7) & ~(uint64_t)7;
  if (total > UINT32_MAX) return NULL;
  unsigned char *b = calloc(1, (size_t)total);
  if (!b) return NULL;
  kcb_put32(b, n);
  uint64_t at = KCB_SYMINIT_HEADER_SIZE + (uint64_t)n * KCB_SYMINIT_ENTRY_SIZE;
  for (uint32_t i = 0; i < n; i++) {
    unsigned char *p = b + KCB_SYMINIT_HEADER_SIZE + (size_t)i * KCB_SYMINIT_ENTRY_SIZE;
    kcb_put32(p, e[i].symbol);
    kcb_put32(p + 4, e[i].flags);
    kcb_put64(p + 8, e[i].len ? at : 0);
    kcb_put64(p + 16, e[i].len);
    if (e[i].len) memcpy(b + at, e[i].data, (size_t)e[i].len);
    at += (e[i].len + 7) & ~(uint64_t)7;
  }
  *len = (size_t)total;
  return b;
}

/* Lays out a whole bundle: header, section table, then each section at the next multiple of
 * KCB_ALIGN, zero padded, and seals it with the checksum. Returns malloc'd bytes (*len set)
 * or NULL when out of memory. */
static inline unsigned char *kcb_write_bundle(const KcbWSection *secs, uint32_t nsecs,
                                              size_t *len) {
  *len = 0;
  uint64_t off = KCB_HEADER_SIZE + (uint64_t)nsecs * KCB_SECTION_ENTRY_SIZE;
  uint64_t total = off;
  for (uint32_t i = 0; i < nsecs; i++) {
    total = (total + KCB_ALIGN - 1) / KCB_ALIGN * KCB_ALIGN;
    total += secs[i].size;
  }
  if (total > SIZE_MAX) return NULL;
  unsigned char *b = calloc(1, (size_t)total);
  if (!b) return NULL;
  memcpy(b, KCB_MAGIC, KCB_MAGIC_SIZE);
  kcb_put16(b + KCB_H_MAJOR, KCB_VERSION_MAJOR);
  kcb_put16(b + KCB_H_MINOR, KCB_VERSION_MINOR);
  kcb_put32(b + KCB_H_HEADER_SIZE, KCB_HEADER_SIZE);
  kcb_put64(b + KCB_H_FILE_SIZE, total);
  kcb_put32(b + KCB_H_SECTION_COUNT, nsecs);
  for (uint32_t i = 0; i < nsecs; i++) {
    off = (off + KCB_ALIGN - 1) / KCB_ALIGN * KCB_ALIGN;
    unsigned char *e = b + KCB_HEADER_SIZE + (size_t)i * KCB_SECTION_ENTRY_SIZE;
    kcb_put32(e + 0, secs[i].kind);
    kcb_put32(e + 4, secs[i].arch);
    kcb_put64(e + 8, off);
    kcb_put64(e + 16, secs[i].size);
    if (secs[i].size) memcpy(b + off, secs[i].data, (size_t)secs[i].size);
    off += secs[i].size;
  }
  kcb_put64(b + KCB_H_CHECKSUM, kcb_checksum(b, (size_t)total));
  *len = (size_t)total;
  return b;
}

#endif
