/* kir.h — KIR, the typed kernel IR: the one contract between the front end, the passes and
 * every back end.
 *
 * KIR is a tree (types, expressions, statements, functions, one module per compilation) in
 * which nothing is implicit: every conversion is a KE_CAST, every array-to-pointer decay is a
 * KE_CAST to a pointer type, pointer arithmetic has its own operators, and every pointer type
 * carries an address space once the address-space pass has run.
 *
 * Conventions every stage relies on:
 *  - Types are interned: two KType pointers are equal iff the types are equal.
 *  - An expression is an lvalue iff kir_is_lvalue() says so (VAR, GVAR, INDEX, MEMBER of an
 *    lvalue, DEREF). An lvalue used where a value is needed is read; there is no explicit
 *    lvalue-to-rvalue node. ASSIGN/INCDEC targets and ADDR operands are the only lvalues that
 *    are not read.
 *  - Binary arithmetic and comparison operands already have one common type (the front end
 *    applied C's usual arithmetic conversions). Shifts are the exception: the right operand
 *    keeps its own promoted integer type. Comparisons and ! yield int.
 *  - Everything is allocated in one arena (kir_alloc) and freed at once by kir_free_all().
 *
 * Vectors (KT_VEC: OpenCL C's T2..T16, the .k dialect's float4 & co.) follow OpenCL C:
 *  - Operands of a binary operator have one vector type (the front end widens a scalar
 *    operand with a KC_SPLAT cast). Arithmetic, bitwise, shift, ~ and unary - act on each
 *    component. Comparisons yield kir_type_mask(t): the signed integer vector of the same
 *    element size and length, each component -1 (true) or 0. &&, || and ! on vectors, and
 *    ?: with a vector condition, do not reach KIR (the front end writes them with
 *    comparisons, & | and BI_SELECT).
 *  - KE_SWIZZLE picks components (.x .s3 .lo .even .xyz); it is an lvalue when its operand
 *    is and no component repeats, so it can be assigned, compound-assigned and incremented.
 *  - KE_VECLIT builds a vector from scalars and smaller vectors of its element type.
 *  - KE_CAST between two vector types of one length converts each component as
 *    kir_cast_kind(element, element) says; KC_SPLAT widens a scalar of the element type;
 *    KC_BITCAST reinterprets the bits of a same-size scalar or vector (as_T, __int_as_float).
 *  - Builtins typed by their result (math, min/max/abs, popcount...) act on each component
 *    when the result is a vector; every vector argument then has the result's length (the
 *    front end splats scalar arguments), and relational ones (isnan) yield a mask vector.
 *  - KE_INITLIST has a vector type only as constant data: one constant per component.
 */
#ifndef KCC_KIR_H
#define KCC_KIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- memory, lists */

void *kir_alloc(size_t n); /* zero-filled; never returns NULL (exits on OOM) */
char *kir_strdup(const char *s);
char *kir_strndup(const char *s, size_t n);
void kir_free_all(void);
/* Whether s is a plain ASCII identifier, [A-Za-z_][A-Za-z0-9_]*: what a kernel's or constant
 * table's name must be, since every form keeps it (limits.c). */
bool kir_is_plain_identifier(const char *s);

/* A growable array of pointers in the arena. */
typedef struct KList {
  void **v;
  int n, cap;
} KList;
void klist_push(KList *l, void *x);
#define KLIST_AT(l, i, T) ((T)(l).v[i])

/* The compiler's one hash table (kmap.c), in the arena: open addressing with linear probing.
 * The caller gives each key's hash and an equality test, so one table serves names (strings),
 * clang cursors (the front end's declaration maps) and SPIR-V instruction keys (interning). */
typedef struct KMapEnt {
  const void *key; /* as stored; compared with eq(key, probe, ctx) */
  void *val;
  unsigned hash;
  bool used;
} KMapEnt;
typedef struct KMap {
  KMapEnt *v;
  unsigned cap, n;
} KMap;
typedef bool (*KMapEq)(const void *stored, const void *probe, void *ctx);
/* The entry whose key equals probe, or the free slot where it belongs (used == false): claim
 * it with kmap_claim, which must come before the next lookup. Makes room first. */
KMapEnt *kmap_lookup(KMap *m, unsigned hash, const void *probe, KMapEq eq, void *ctx);
void kmap_claim(KMap *m, KMapEnt *e, unsigned hash, const void *key, void *val);
unsigned kmap_hash(const void *data, size_t n); /* FNV-1a */
/* Strings as keys: the string is the key (stored as given, not copied). */
void *kmap_get_str(KMap *m, const char *s);
void kmap_put_str(KMap *m, const char *s, void *val);

/* ---------------------------------------------------------------- locations */

typedef struct KLoc {
  const char *file; /* as the user named it (for diagnostics); NULL = unknown */
  int line, col;    /* 1-based; 0 = unknown */
} KLoc;

/* ---------------------------------------------------------------- types */

typedef enum KTypeKind {
  KT_VOID,
  KT_BOOL,
  KT_I8, /* char and signed char: char is signed on every target kcc serves */
  KT_I16,
  KT_I32,
  KT_I64, /* long and long long: 64-bit everywhere */
  KT_U8,
  KT_U16,
  KT_U32,
  KT_U64,
  KT_F32,
  KT_F64,
  /* IEEE binary16: OpenCL C's half (cl_khr_fp16). Only the front end makes and sees it: its
     last step (fe_lower_half, frontend/lower/half_lower.c) turns every half value into its 16 bits
     (KT_U16) and every operation on it into float arithmetic rounded back, so the passes and
     every back end compute half alike on any device (docs/design.md, "half"). */
  KT_F16,
  KT_PTR,
  KT_ARRAY,
  KT_STRUCT,
  KT_VEC, /* base: the element, an arithmetic type other than bool; len: 2, 3, 4, 8 or 16 */
  /* OpenCL C's image types (image2d_t...): an opaque handle to an image the host made. len:
     the KImageDim; qual: the access, KIMG_READ and/or KIMG_WRITE. Only parameters have this
     type (OpenCL C allows no image variable, field or pointer), and only the image builtins
     (BI_IMAGE_*) and calls use them. A back end maps each to its own object: an OpenCL image
     argument, later a CUDA texture object (read) or surface object (write). */
  KT_IMAGE,
  /* OpenCL C's sampler_t: how a read samples an image (KSAMP_* bits). A sampler expression is
     either a KE_ICONST of this type (a constant sampler: the front end folds every constant
     sampler variable to its bits, so a back end sees them statically, as PTX's texture
     objects and SPIR-V's OpConstantSampler want) or a KE_VAR of a sampler parameter. */
  KT_SAMPLER,
} KTypeKind;

/* KT_IMAGE's dimension (KType.len), as OpenCL C's type names say. */
typedef enum KImageDim {
  KIMG_1D,        /* image1d_t */
  KIMG_1D_BUFFER, /* image1d_buffer_t: a 1D image over a buffer, no sampler */
  KIMG_1D_ARRAY,  /* image1d_array_t */
  KIMG_2D,        /* image2d_t */
  KIMG_2D_ARRAY,  /* image2d_array_t */
  KIMG_3D,        /* image3d_t */
  KIMG_DIM_COUNT_
} KImageDim;
enum { /* KT_IMAGE's access (KType.qual): read_only 1, write_only 2, read_write 3 */
       KIMG_READ = 1,
       KIMG_WRITE = 2,
};
/* A sampler's bits: OpenCL C's CLK_* values, which the host API's sampler properties and
 * every back end derive from. */
enum {
  KSAMP_NORMALIZED = 0x1,      /* CLK_NORMALIZED_COORDS_TRUE */
  KSAMP_ADDRESS_MASK = 0xe,    /* CLK_ADDRESS_*: */
  KSAMP_ADDRESS_NONE = 0x0,    /*   NONE */
  KSAMP_CLAMP_TO_EDGE = 0x2,   /*   CLAMP_TO_EDGE */
  KSAMP_CLAMP = 0x4,           /*   CLAMP (to the border colour) */
  KSAMP_REPEAT = 0x6,          /*   REPEAT */
  KSAMP_MIRRORED_REPEAT = 0x8, /*   MIRRORED_REPEAT */
  KSAMP_FILTER_MASK = 0x30,    /* CLK_FILTER_*: */
  KSAMP_NEAREST = 0x10,        /*   NEAREST */
  KSAMP_LINEAR = 0x20,         /*   LINEAR */
};
/* Whether bits is a sampler OpenCL C can write: one addressing mode, one filter, nothing else. */
bool kir_sampler_valid(uint64_t bits);

/* Address spaces, numbered as NVPTX numbers them so the LLVM back end can use them as is. */
typedef enum KAddrSpace {
  KAS_GENERIC = 0, /* not known (before inference), or may point to several spaces */
  KAS_GLOBAL = 1,
  KAS_SHARED = 3,
  KAS_CONSTANT = 4,
  KAS_PRIVATE = 5,
} KAddrSpace;

enum { /* KType.qual, for pointers: qualifiers of the pointee, and restrict of the pointer */
       KQ_CONST = 1,
       KQ_VOLATILE = 2,
       KQ_RESTRICT = 4,
};

typedef struct KStruct KStruct;
typedef struct KType KType;

struct KType {
  KTypeKind kind;
  int size, align; /* bytes; an unsized array has size 0 */
  KType *base;     /* PTR: pointee; ARRAY, VEC: element */
  int64_t len;     /* ARRAY: element count, -1 for `T x[]` (extern shared only); VEC: length */
  KAddrSpace as;   /* PTR: where the pointee lives */
  int qual;        /* PTR: KQ_* bits */
  KStruct *st;     /* STRUCT */
};

typedef struct KField {
  const char *name;
  KType *type;
  int offset;
  /* A C11 anonymous struct or union member: KIR names it (__kcc_anonN), and its fields are
     used as the enclosing record's; the generated header declares it anonymous again. */
  bool anon;
} KField;

struct KStruct {
  const char *name; /* tag; never NULL (the front end names anonymous structs) */
  KField *fields;
  int nfields;
  int size, align;
  int align_attr; /* an explicit alignment above the natural one (CUDA's float4: 16), or 0 */
  bool closure;   /* a C++ lambda's closure (frontend/lower/lambda.c): one field per capture */
  /* A C union: every field at offset 0; size the largest field's rounded up to the largest
     alignment (docs/design.md, "Unions"). */
  bool is_union;
  KLoc loc;
};

/* The C keyword that declares st: "struct" or "union". */
static inline const char *kir_struct_kw(const KStruct *st) {
  return st->is_union ? "union" : "struct";
}

KType *kir_type_void(void);
KType *kir_type_scalar(KTypeKind k); /* BOOL..F16 */
KType *kir_type_ptr(KType *base, KAddrSpace as, int qual);
KType *kir_type_array(KType *elem, int64_t len);
KType *kir_type_struct(KStruct *st);
/* OpenCL's layout: size = align = element size * len, except that a 3-vector takes the room
 * (and alignment) of a 4-vector. */
KType *kir_type_vec(KType *elem, int len);
/* An image of dimension dim with access KIMG_READ and/or KIMG_WRITE; the sampler type. Both are
 * opaque handles of 8 bytes (what a kernel's parameter space takes for them). */
KType *kir_type_image(KImageDim dim, int access);
KType *kir_type_sampler(void);
/* OpenCL C's name of an image dimension ("image2d_array_t"); of an access ("read_only"...). */
const char *kir_image_name(KImageDim dim);
const char *kir_image_access(int access);
/* The coordinate components an image of dim addresses (the array index included): 1 for 1D,
 * 2 for 1D arrays and 2D, 3 for 2D arrays and 3D. OpenCL C passes 3 as a 4-vector. */
int kir_image_coords(KImageDim dim);
static inline bool kir_image_arrayed(KImageDim dim) {
  return dim == KIMG_1D_ARRAY || dim == KIMG_2D_ARRAY;
}
static inline bool kir_is_image(const KType *t) {
  return t->kind == KT_IMAGE;
}
/* Whether t is an image or a sampler: a type only the OpenCL forms carry today. */
static inline bool kir_is_opaque(const KType *t) {
  return t->kind == KT_IMAGE || t->kind == KT_SAMPLER;
}
/* The type a comparison of t yields: int for scalars; for a vector, the signed integer vector
 * of the same length whose elements have t's element size (char4 for float4 is wrong: int4). */
KType *kir_type_mask(KType *t);
/* Lays out fields (C rules, natural alignment raised to align_attr; a union's all at 0) and
 * fills size/align/offsets. */
void kir_struct_layout(KStruct *st);
/* Whether st's layout is the one natural alignment alone gives, in it and in every struct it
 * contains (what a back end without alignment attributes, SPIR-V, can express). */
bool kir_struct_is_natural(const KStruct *st);

static inline bool kir_is_int(const KType *t) {
  return t->kind >= KT_BOOL && t->kind <= KT_U64;
}
static inline bool kir_is_signed(const KType *t) {
  return t->kind >= KT_I8 && t->kind <= KT_I64;
}
static inline bool kir_is_float(const KType *t) {
  return t->kind == KT_F32 || t->kind == KT_F64 || t->kind == KT_F16;
}
/* Whether t is half or a vector of half. */
static inline bool kir_is_half(const KType *t) {
  return t->kind == KT_F16 || (t->kind == KT_VEC && t->base->kind == KT_F16);
}
/* IEEE binary16 <-> double, bit-exact: d rounded to the nearest half (ties to even; NaN
 * to the quiet NaN 0x7e00 with d's sign), and a half's exact value. */
uint16_t kir_f16_bits(double d);
double kir_f16_value(uint16_t h);
static inline bool kir_is_arith(const KType *t) {
  return kir_is_int(t) || kir_is_float(t);
}
static inline bool kir_is_vec(const KType *t) {
  return t->kind == KT_VEC;
}
/* A vector's element type; t itself for anything else. */
static inline KType *kir_elem(KType *t) {
  return t->kind == KT_VEC ? t->base : t;
}
static inline bool kir_is_ptr(const KType *t) {
  return t->kind == KT_PTR;
}
static inline bool kir_is_scalar(const KType *t) {
  return kir_is_arith(t) || kir_is_ptr(t);
}
/* Spelled as C spells it ("unsigned int", "float *", "struct P"), for messages and dumps. */
const char *kir_type_str(const KType *t);

/* ---------------------------------------------------------------- variables */

typedef enum KVarKind {
  KV_LOCAL,    /* automatic, private to the thread */
  KV_PARAM,    /* function or kernel parameter. A kernel parameter of type `shared T *`
                  (OpenCL's `__local T *`) is local memory whose size the host gives at each
                  launch: OpenCL C and SPIR-V pass it as a __local argument; PTX and CUDA C as
                  a 32-bit byte offset into the dynamic shared region, where the runtime
                  places it (16-aligned) after the kernel's own dynamic shared memory. */
  KV_SHARED,   /* module level, per block (static size, or dynamic: type is T[-1]) */
  KV_CONSTANT, /* module level, read-only data with an initializer */
} KVarKind;

typedef struct KExpr KExpr;
typedef struct KStmt KStmt;
typedef struct KFunc KFunc;

#define KIR_GROUP_SCRATCH_SLOTS 1024

typedef struct KVar {
  const char *name; /* the source name (unique within its scope, not its function) */
  KType *type;
  KVarKind kind;
  KLoc loc;
  int id;          /* unique within the module; stable, for back ends that need numbering */
  bool is_const;   /* declared const (locals/params) */
  bool is_dynamic; /* KV_SHARED declared `extern shared T x[]` */
  /* KV_SHARED: the scratch of OpenCL's work-group functions (frontend/opencl/cl_workgroup.c), one
   * slot per work-item: a kernel that reaches it takes at most KIR_GROUP_SCRATCH_SLOTS work-items
   * per group (the bundle records the limit). */
  bool group_scratch;
  KExpr *init; /* KV_CONSTANT: constant initializer (KE_INITLIST or constant) */
  /* KV_CONSTANT declared without an initializer: a module symbol the host fills before
   * launching (cudaMemcpyToSymbol's job; kcrt_module_symbol). init is NULL. Back ends keep
   * it mutable from the host: PTX an external .const, OpenCL C and SPIR-V a hidden buffer
   * argument of every function that reaches it (KFunc.symbols). */
  bool host_filled;
  /* host_filled KV_CONSTANT that kernels may also write: CUDA's `__device__ T x [= init];`, a
   * module variable in global memory (PTX .global, OpenCL C and SPIR-V a hidden __global
   * argument), whose storage outlives launches; init is its first value (NULL: zero), which
   * the bundle carries for the runtimes that make the storage (docs/bundle.md, SYMINIT). */
  bool is_mutable;
  KFunc *owner; /* KV_SHARED declared inside a function: that function; else NULL */
  /* A CUDA kernel's cudaTextureObject_t / cudaSurfaceObject_t parameter (an unsigned long long
     in KIR) whose every use is a texture or surface call (KExpr.alt): the image parameter the
     forms without texture objects declare in its place (kir_module_texobj_view). NULL
     elsewhere. */
  struct KVar *tex_image;
  bool tex_surface; /* with tex_image: a cudaSurfaceObject_t */
  /* The texture parameter a hidden sampler parameter belongs to (KFunc.nhidden): its index. */
  int tex_of;
  void *aux; /* scratch for the back end that is running */
} KVar;

/* ---------------------------------------------------------------- builtins */

typedef enum KBuiltin {
  BI_NONE,
  /* KE_SPECIAL: unsigned int registers, KExpr.dim selects x/y/z */
  BI_THREAD_IDX,
  BI_BLOCK_IDX,
  BI_BLOCK_DIM,
  BI_GRID_DIM,
  /* synchronisation */
  BI_SYNCTHREADS, /* __syncthreads(), barrier() */
  BI_THREADFENCE, /* __threadfence(): device-scope fence */
  BI_THREADFENCE_BLOCK,
  /* atomics: args[0] is the pointer; they return the old value */
  BI_ATOMIC_ADD,
  BI_ATOMIC_SUB,
  BI_ATOMIC_MIN,
  BI_ATOMIC_MAX,
  BI_ATOMIC_AND,
  BI_ATOMIC_OR,
  BI_ATOMIC_XOR,
  BI_ATOMIC_EXCH,
  BI_ATOMIC_INC, /* atomicInc(unsigned *p, v): *p = old >= v ? 0 : old + 1 */
  BI_ATOMIC_DEC, /* atomicDec(unsigned *p, v): *p = old == 0 || old > v ? v : old - 1 */
  BI_ATOMIC_CAS, /* (ptr, compare, value) */
  /* printf: args[0] is a KE_STR format; the rest are promoted (float -> double) */
  BI_PRINTF,
  /* integer and float helpers typed by their result (min/max/abs) */
  BI_MIN,
  BI_MAX,
  BI_ABS,
  /* math: float or double by the result type (sqrtf -> BI_SQRT with type float) */
  BI_SQRT,
  BI_RSQRT,
  BI_CBRT,
  BI_EXP,
  BI_EXP2,
  BI_EXP10,
  BI_EXPM1,
  BI_LOG,
  BI_LOG2,
  BI_LOG10,
  BI_LOG1P,
  BI_SIN,
  BI_COS,
  BI_TAN,
  BI_ASIN,
  BI_ACOS,
  BI_ATAN,
  BI_ATAN2,
  BI_SINH,
  BI_COSH,
  BI_TANH,
  BI_ASINH,
  BI_ACOSH,
  BI_ATANH,
  BI_POW,
  BI_FABS,
  BI_FMIN,
  BI_FMAX,
  BI_FLOOR,
  BI_CEIL,
  BI_ROUND,
  BI_TRUNC,
  BI_RINT,
  BI_FMOD,
  BI_FMA,
  BI_HYPOT,
  BI_COPYSIGN,
  BI_ERF,
  BI_ERFC,
  BI_TGAMMA,
  BI_LGAMMA,
  BI_ISNAN, /* return int */
  BI_ISINF,
  BI_ISFINITE,
  /* bit and integer helpers, typed by their result (component-wise on vectors) */
  BI_POPCOUNT, /* popcount(x): set bits */
  BI_CLZ,      /* clz(x): leading zero bits (the width for 0) */
  BI_MUL_HI,   /* mul_hi(a, b): the high half of the full product */
  /* select(a, b, c): a, b of the result type; c an integer scalar (c != 0 picks b) or an
     integer vector of the result's length and element size (each component's sign bit picks
     b's component, else a's). All three are evaluated. */
  BI_SELECT,
  /* convert_T_sat(x): x (same length) converted to the integer result type, clamped to its
     range; NaN gives 0. */
  BI_CONVERT_SAT,
  /* vloadN(offset, p): the N-vector of the result type at p + offset * N, where p points
     to the element type and is only element-aligned. vstoreN(v, offset, p): the store. */
  BI_VLOAD,
  BI_VSTORE,
  /* CUDA intrinsics that no composition of the above expresses with each argument evaluated
     once (the others, __popc, __float2int_rn, __mul24..., the front end writes with existing
     nodes). Scalars only. */
  BI_FFS,       /* __ffs/__ffsll(x): int, 1 + the index of the lowest set bit, 0 for x == 0 */
  BI_BREV,      /* __brev/__brevll(x): unsigned int / unsigned long long, bits reversed */
  BI_BYTE_PERM, /* __byte_perm(x, y, s): unsigned int; byte i of the result is byte
                   (s >> 4i) & 7 of the 8 bytes y:x (x bytes 0-3) */
  BI_SAD,       /* __sad/__usad(x, y, z): unsigned int |x - y| + z; x, y int or unsigned */
  BI_FDIVIDE,   /* __fdividef(a, b): float a / b, CUDA's approximate division */
  BI_FADD_RN,   /* __fadd_rn/__dadd_rn(a, b): float or double a + b rounded to nearest, never */
  BI_FSUB_RN,   /* contracted with another operation into an fma (nor are __fsub_rn's and */
  BI_FMUL_RN,   /* __fmul_rn's) */
  BI_CLOCK,     /* clock(): long, the 32-bit SM cycle counter sign-extended (PTX %clock) */
  BI_CLOCK64,   /* clock64(): long long (PTX %clock64) */
  BI_TRAP,      /* __trap(): void, ends the kernel with an error the host sees (PTX trap);
                   OpenCL has no such thing: refused in its forms */
  BI_NANOSLEEP, /* __nanosleep(ns): void, the thread sleeps about ns nanoseconds, anywhere in
                   [0, 2 ns] (PTX nanosleep, sm_70 on); OpenCL has no sleep, and sleeping 0 ns
                   is within the definition: its forms evaluate ns and go on */
  /* warp-level operations (CUDA's; a warp is 32 lanes). mask (args[0], unsigned int) names
     the lanes taking part, as in CUDA. The shuffles take (mask, var, lane-or-delta, width)
     with width a power of two <= 32 (the front end supplies 32 when it is left out) and
     return var's type (int, unsigned, long long, unsigned long long, float, double). */
  BI_SHFL,
  BI_SHFL_UP,
  BI_SHFL_DOWN,
  BI_SHFL_XOR,
  BI_BALLOT,     /* (mask, pred int): unsigned int */
  BI_ANY,        /* (mask, pred): int 1 or 0 */
  BI_ALL,        /* (mask, pred): int 1 or 0 */
  BI_ACTIVEMASK, /* (): unsigned int */
  BI_MATCH_ANY,  /* (mask, v): unsigned int, the lanes of mask whose v equals this lane's;
                    v int, unsigned, long long, unsigned long long, float or double (bits) */
  BI_REDUCE_ADD, /* (mask, v): v's type (int or unsigned); sm_80 redux.sync */
  BI_REDUCE_MIN,
  BI_REDUCE_MAX,
  BI_REDUCE_AND, /* unsigned only */
  BI_REDUCE_OR,
  BI_REDUCE_XOR,
  BI_SYNCWARP, /* (mask): void */
  /* OpenCL's subgroup functions (cl_khr_subgroups and the extended subgroup extensions;
     kir_builtin_is_subgroup). A subgroup is the target's own: a warp of 32 lanes on PTX and
     CUDA C (subgroup i of a block is its threads 32i..32i+31 by linear index, the last one
     partial when the block is not a multiple of 32), whatever the OpenCL device has in
     OpenCL C output, which writes them as the same OpenCL functions. Values are int,
     unsigned int, long, unsigned long, float or double (the front end widens char and short).
     KExpr.nonuniform picks the non-uniform form: over the lanes that reach the call
     (cl_khr_subgroup_non_uniform_*); otherwise every lane of the subgroup reaches it. */
  BI_SG_SIZE,             /* (): unsigned int, get_sub_group_size() */
  BI_SG_MAX_SIZE,         /* (): get_max_sub_group_size() */
  BI_SG_NUM,              /* (): get_num_sub_groups() (= get_enqueued_num_sub_groups(): kcc's
                             work-groups are all full) */
  BI_SG_ID,               /* (): get_sub_group_id() */
  BI_SG_LOCAL_ID,         /* (): get_sub_group_local_id() */
  BI_SG_BARRIER,          /* (): void, sub_group_barrier (a fence of local and global memory) */
  BI_SG_ELECT,            /* (): int, 1 in the lowest lane that reaches it (always non-uniform) */
  BI_SG_ALL,              /* (pred int): int 1 or 0 */
  BI_SG_ANY,              /* (pred int): int 1 or 0 */
  BI_SG_ALL_EQUAL,        /* (v): int, whether v is the same in every lane (always non-uniform) */
  BI_SG_BALLOT,           /* (pred int): uint4, bit i of the 128 set where lane i's pred != 0 */
  BI_SG_BROADCAST,        /* (v, lane unsigned): v of that lane (the same lane for all) */
  BI_SG_BROADCAST_FIRST,  /* (v): v of the lowest lane that reaches it (always non-uniform) */
  BI_SG_SHUFFLE,          /* (v, lane unsigned): v of that lane */
  BI_SG_SHUFFLE_XOR,      /* (v, mask unsigned): v of lane ^ mask */
  BI_SG_SHUFFLE_UP,       /* (v, delta unsigned): v of lane - delta */
  BI_SG_SHUFFLE_DOWN,     /* (v, delta unsigned): v of lane + delta */
  BI_SG_REDUCE,           /* (v): KExpr.red over the lanes, in every lane */
  BI_SG_SCAN_INCLUSIVE,   /* (v): KExpr.red over the lanes up to this one */
  BI_SG_SCAN_EXCLUSIVE,   /* (v): over the lanes below this one; the identity in the first */
  BI_SG_CLUSTERED_REDUCE, /* (v, cluster int constant, a power of two <= 32): KExpr.red over
                             the lanes of this lane's cluster (always non-uniform) */
  /* OpenCL C's image functions (kir_builtin_is_image). args[0] is the image (a KT_IMAGE
     parameter). */
  BI_IMAGE_READ,  /* (image, sampler, coord) or, with no sampler, (image, coord): read_imagef/i/
                     ui by the result, float4, int4 or uint4. coord as OpenCL C passes it:
                     int or float, a scalar for 1D, a 2-vector for 2D and 1D arrays, a
                     4-vector for 3D and 2D arrays (.w ignored). The sampler-less form takes
                     int coordinates only (a sampler with unnormalized coordinates, no
                     addressing, nearest filter). */
  BI_IMAGE_WRITE, /* (image, coord int/int2/int4, color float4/int4/uint4): void */
  BI_IMAGE_WIDTH, /* (image): int, get_image_width */
  BI_IMAGE_HEIGHT,
  BI_IMAGE_DEPTH,
  BI_IMAGE_ARRAY_SIZE,    /* int (size_t in OpenCL C, which the front end converts) */
  BI_IMAGE_DIM,           /* (image): int2 (2D, 2D arrays) or int4 (3D; .w 0) */
  BI_IMAGE_CHANNEL_ORDER, /* (image): int, a CLK_ channel order (CLK_RGBA 0x10B5...) */
  BI_IMAGE_CHANNEL_TYPE,  /* (image): int, a CLK_ channel data type (CLK_FLOAT 0x10DE...) */
  /* The raw texel access the PTX and CUDA C forms build OpenCL's image functions from (only in
     KFunc.image_impl functions; docs/design.md, "Images on CUDA"): args (image, x in bytes, y,
     z, [value,] bytes) with bytes an int constant 1, 2, 4, 8 or 16, the texel's size. y is
     the layer of a 1D array and z the layer of a 2D array; coordinates the image lacks are 0.
     Outside the image a load gives zeros and a store does nothing. */
  BI_SURF_LOAD,  /* (image, x, y, z, bytes): uint4, the texel's bytes little-endian from .x */
  BI_SURF_STORE, /* (image, x, y, z, uint4 value, bytes): void */
  /* CUDA's texture and surface objects (.cu input; kir_builtin_is_cuda_texture; PTX and CUDA C
     only). The object is an unsigned long long (cudaTextureObject_t, cudaSurfaceObject_t) the
     host made; the texel type is the template argument T, the result's (or the stored value's)
     type: a scalar or a CUDA vector type (a struct of 1 to 4 fields of one scalar type). */
  BI_CU_TEX1DFETCH,         /* (tex, int x): T */
  BI_CU_TEX1D,              /* (tex, float x): T */
  BI_CU_TEX2D,              /* (tex, float x, float y): T */
  BI_CU_TEX3D,              /* (tex, float x, float y, float z): T */
  BI_CU_TEX1DLOD,           /* (tex, float x, float level): T, at that level of detail */
  BI_CU_TEX2DLOD,           /* (tex, float x, float y, float level): T */
  BI_CU_TEX3DLOD,           /* (tex, float x, float y, float z, float level): T */
  BI_CU_TEX1DLAYERED,       /* (tex, float x, int layer): T */
  BI_CU_TEX2DLAYERED,       /* (tex, float x, float y, int layer): T */
  BI_CU_TEX1DLAYEREDLOD,    /* (tex, float x, int layer, float level): T */
  BI_CU_TEX2DLAYEREDLOD,    /* (tex, float x, float y, int layer, float level): T */
  BI_CU_SURF1DREAD,         /* (surf, int x (bytes), int mode): T; mode a cudaSurfaceBoundaryMode
                               constant (0 zero, 1 clamp, 2 trap) */
  BI_CU_SURF2DREAD,         /* (surf, int x, int y, int mode): T */
  BI_CU_SURF3DREAD,         /* (surf, int x, int y, int z, int mode): T */
  BI_CU_SURF1DLAYEREDREAD,  /* (surf, int x, int layer, int mode): T */
  BI_CU_SURF2DLAYEREDREAD,  /* (surf, int x, int y, int layer, int mode): T */
  BI_CU_SURF1DWRITE,        /* (T value, surf, int x, int mode): void */
  BI_CU_SURF2DWRITE,        /* (T value, surf, int x, int y, int mode): void */
  BI_CU_SURF3DWRITE,        /* (T value, surf, int x, int y, int z, int mode): void */
  BI_CU_SURF1DLAYEREDWRITE, /* (T value, surf, int x, int layer, int mode): void */
  BI_CU_SURF2DLAYEREDWRITE, /* (T value, surf, int x, int y, int layer, int mode): void */
  BI_COUNT_
} KBuiltin;

typedef struct KBuiltinInfo {
  const char *name; /* the dialect's spelling; math lists the double name (sqrt) */
  KBuiltin id;
  int nargs; /* -1: variadic (printf) */
} KBuiltinInfo;
const KBuiltinInfo *kir_builtin_info(KBuiltin id);
bool kir_builtin_is_math(KBuiltin id);   /* BI_SQRT..BI_ISFINITE */
bool kir_builtin_is_atomic(KBuiltin id); /* BI_ATOMIC_* */
/* Where a module variable (KV_SHARED, KV_CONSTANT) lives. */
static inline KAddrSpace kir_gvar_space(const KVar *v) {
  return v->kind == KV_SHARED ? KAS_SHARED : v->is_mutable ? KAS_GLOBAL : KAS_CONSTANT;
}
/* A constant initializer (KE_INITLIST/KE_ICONST/KE_FCONST tree, as KVar.init) of type t as the
 * target lays it out, into out (t->size bytes, zero where the tree says nothing). False when a
 * leaf is not a constant number. */
bool kir_const_bytes(const KType *t, const KExpr *init, unsigned char *out);
/* The value of an integer constant expression made of a constant, integer casts and ~ (~0u,
 * 0xffffffff, (unsigned)-1), in e's width; false if e is none (a warp mask the back ends
 * must know). */
bool kir_const_uint(const KExpr *e, uint64_t *v);
bool kir_builtin_is_warp(KBuiltin id); /* BI_SHFL..BI_SYNCWARP: need 32-lane subgroups */
/* BI_SG_SIZE..BI_SG_CLUSTERED_REDUCE: OpenCL subgroups, the device's own in OpenCL C. */
bool kir_builtin_is_subgroup(KBuiltin id);
/* The operation of a subgroup reduction or scan (KExpr.red), as OpenCL names them. The
 * logical ones act on int truth values and give 0 or 1. */
typedef enum KRedOp {
  KR_ADD,
  KR_MUL,
  KR_MIN,
  KR_MAX,
  KR_AND,
  KR_OR,
  KR_XOR,
  KR_LOGICAL_AND,
  KR_LOGICAL_OR,
  KR_LOGICAL_XOR,
  KR_COUNT_
} KRedOp;
extern const char *const kir_red_names[KR_COUNT_]; /* "add" ... "logical_xor" */
/* The OpenCL function a subgroup operation e stands for, as the source spelled it
 * ("sub_group_non_uniform_scan_inclusive_max"), for messages; in the arena. */
const char *kir_subgroup_name(const struct KExpr *e);
/* Whether builtin id carries a KRedOp (BI_SG_REDUCE, the scans, the clustered reduction). */
static inline bool kir_red_uses_op(KBuiltin id) {
  return id >= BI_SG_REDUCE && id <= BI_SG_CLUSTERED_REDUCE;
}
/* BI_FFS..BI_TRAP: the CUDA intrinsics each back end writes in one function of its own. */
bool kir_builtin_is_cuda_intrinsic(KBuiltin id);
/* BI_IMAGE_READ..BI_IMAGE_CHANNEL_TYPE. */
bool kir_builtin_is_image(KBuiltin id);
/* BI_CU_TEX1DFETCH..BI_CU_SURF2DLAYEREDWRITE. */
bool kir_builtin_is_cuda_texture(KBuiltin id);
/* The geometry of one: 1 to 3 spatial dimensions, whether layered (a layer index after the
 * coordinates), whether it takes a level of detail (last, tex only), whether it is a surface
 * access and a write. */
typedef struct KCuTexShape {
  int dims;
  bool layered, lod, surf, write;
} KCuTexShape;
KCuTexShape kir_cuda_texture_shape(KBuiltin id);
/* A CUDA texel type: a scalar, or a struct of 1 to 4 fields of one scalar type (float4, uchar2);
 * its scalar type and component count, or NULL. */
const KType *kir_texel_elem(const KType *t, int *n);

/* ---------------------------------------------------------------- expressions */

typedef enum KExprKind {
  KE_ICONST,   /* ival (bits, in the expression's integer type) */
  KE_FCONST,   /* fval */
  KE_STR,      /* str/len: string literal, type `const char *` in constant memory */
  KE_VAR,      /* var: local or parameter (lvalue) */
  KE_GVAR,     /* var: shared or constant module-level variable (lvalue) */
  KE_SPECIAL,  /* builtin (BI_THREAD_IDX..BI_GRID_DIM) with dim 0..2, type unsigned int */
  KE_UNARY,    /* op (KU_*), a */
  KE_BINARY,   /* op (KB_*), a, b */
  KE_ASSIGN,   /* a = b, or a op= b when op != KB_NONE; type = a's type */
  KE_INCDEC,   /* ++/-- on a: op is KU_PREINC/PREDEC/POSTINC/POSTDEC */
  KE_COND,     /* a ? b : c (a is a scalar condition) */
  KE_COMMA,    /* a, b */
  KE_CAST,     /* a converted to type (see kir_cast_kind) */
  KE_INDEX,    /* a[b]: a is a pointer, b an integer; lvalue of the element type */
  KE_MEMBER,   /* a.field: a is a struct (usually an lvalue) */
  KE_DEREF,    /* *a: lvalue */
  KE_ADDR,     /* &a: a is an lvalue */
  KE_CALL,     /* callee(args): device function; args already converted to parameter types */
  KE_BUILTIN,  /* builtin(args) */
  KE_INITLIST, /* aggregate initializer: args has one entry per array element or struct
                  field; a NULL entry means zero. A union's has at most one non-NULL entry,
                  the member it initializes; the rest of the union's bytes are zero */
  KE_SWIZZLE,  /* a.xyz: a is a vector; swz[0..nswz) its components; the element type when
                  nswz == 1, else a vector of nswz elements */
  KE_VECLIT,   /* (float4)(a, b2, c): args are scalars of the element type and vectors of
                  it, whose components, in order, make the result's */
  KE_BITCAST,  /* a's bits as type (as_T, __int_as_float): same size; scalars and vectors */
  KE_ASM,      /* inline PTX (CUDA's asm statement), type void: asm; args[0..asm->nout) point
                  to the outputs, the rest are the inputs' values */
} KExprKind;

/* An asm statement as GCC's extended syntax writes it (CUDA inline PTX): the template with
 * %N operands and %% for %, each operand's constraint as written ("=r", "+l", "f", "n"),
 * outputs first, and the clobbers ("memory"). PTX and CUDA C only. */
typedef struct KAsm {
  const char *text;
  bool is_volatile;
  int nout, nin;
  const char **cons; /* nout + nin */
  const char **clobbers;
  int nclobbers;
} KAsm;

typedef enum KOp {
  KB_NONE,
  /* binary */
  KB_ADD,
  KB_SUB,
  KB_MUL,
  KB_DIV,
  KB_REM,
  KB_SHL,
  KB_SHR, /* arithmetic for signed, logical for unsigned left operands */
  KB_AND,
  KB_OR,
  KB_XOR,
  KB_EQ,
  KB_NE,
  KB_LT,
  KB_LE,
  KB_GT,
  KB_GE,
  KB_LAND, /* short-circuit &&, operands scalar, result int */
  KB_LOR,
  KB_PTR_ADD,  /* pointer + integer (in elements); either operand order is normalised to a=ptr */
  KB_PTR_SUB,  /* pointer - integer */
  KB_PTR_DIFF, /* pointer - pointer: long, in elements */
  /* unary */
  KU_NEG,
  KU_NOT,  /* ~ */
  KU_LNOT, /* ! : result int */
  KU_PREINC,
  KU_PREDEC,
  KU_POSTINC,
  KU_POSTDEC,
} KOp;

struct KExpr {
  KExprKind kind;
  KType *type;
  KLoc loc;
  KOp op;
  KExpr *a, *b, *c;
  /* KE_ASSIGN compound: the type the operation is computed in (C's computation type);
     the left value is converted to it, combined with b, and converted back. For pointer
     targets (p += n) op is KB_PTR_ADD/KB_PTR_SUB and optype is the pointer type. */
  KType *optype;
  uint64_t ival;
  double fval;
  const char *str; /* KE_STR bytes (not NUL-terminated necessarily), len bytes */
  size_t len;
  KVar *var;
  int field; /* KE_MEMBER: index into a->type->st->fields */
  int dim;   /* KE_SPECIAL */
  int nswz;  /* KE_SWIZZLE */
  uint8_t swz[16];
  /* KE_BUILTIN math on float: the device's fast approximation will do (CUDA's __expf & co.,
     OpenCL C's native_exp & co.), as -ffast-math allows for every call. */
  bool approx;
  /* BI_ATOMIC_*: system scope (CUDA's atomicAdd_system & co.): atomic also with respect to the
     host and other devices where the target has such a scope (PTX atom.sys); elsewhere kcc's
     memory is the device's alone during a kernel, and device scope is the same thing. */
  bool sys_scope;
  /* BI_SG_REDUCE, BI_SG_SCAN_*, BI_SG_CLUSTERED_REDUCE: the operation. */
  KRedOp red;
  /* Subgroup operations (kir_builtin_is_subgroup): the non-uniform form, over the lanes
     that reach the call; otherwise every lane of the subgroup reaches it. */
  bool nonuniform;
  /* KE_BINARY, compound KE_ASSIGN of floats (+ - *): the FP_CONTRACT pragma in force where it
     was written (frontend/lower/pragma.c): -1 never fuse it into an fma, +1 it may be, 0 the
     command line's -ffp-contract decides. */
  signed char contract;
  KBuiltin builtin;
  /* KE_CALL: the function called. BI_IMAGE_READ / BI_IMAGE_WRITE: the KFunc.image_impl
     function the PTX and CUDA C forms call instead, with the same arguments (NULL where the
     module has no such form to write). */
  KFunc *callee;
  /* BI_CU_TEX* / BI_CU_SURF* on a kernel's texture or surface object parameter that kcrt may
     pass as one of its images (KVar.tex_image): the same read or write through the OpenCL
     image builtins, which the forms without texture objects (OpenCL C, SPIR-V, Vulkan) write
     instead (docs/design.md, "CUDA texture objects on every back end"). NULL elsewhere; then
     a BI_CU_* builtin's str, when set, says why those forms refuse it. */
  KExpr *alt;
  KExpr **args;
  int nargs;
  const KAsm *asm_; /* KE_ASM */
};

typedef enum KCastKind {
  KC_NOP,       /* same representation (e.g. int <-> unsigned int, same type) */
  KC_INT_TRUNC, /* to a narrower integer */
  KC_INT_SEXT,  /* widen a signed integer */
  KC_INT_ZEXT,  /* widen an unsigned integer or bool */
  KC_TO_BOOL,   /* scalar != 0 */
  KC_INT_TO_FP,
  KC_FP_TO_INT,
  KC_FP_EXT,
  KC_FP_TRUNC,
  KC_PTR_TO_PTR,  /* change of pointee type or address space */
  KC_ARRAY_DECAY, /* array lvalue to pointer to its first element */
  KC_PTR_TO_INT,
  KC_INT_TO_PTR,
  KC_TO_VOID, /* (void)e */
  KC_SPLAT,   /* scalar of a vector's element type to the vector, every component equal */
} KCastKind;
/* Between two vectors of one length: the kind of the element conversion (applied to each
 * component); KC_NOP for equal types. */
KCastKind kir_cast_kind(const KType *from, const KType *to);

bool kir_is_lvalue(const KExpr *e);
/* e with the conversions around it taken off (NULL stays NULL). */
static inline const KExpr *kir_strip_casts(const KExpr *e) {
  while (e && e->kind == KE_CAST) e = e->a;
  return e;
}

/* Constructors: they only fill fields; the front end is responsible for typing. */
KExpr *kir_expr(KExprKind kind, KType *type, KLoc loc);
/* a op b (KE_BINARY) of type t. */
KExpr *kir_binary(KOp op, KType *t, KExpr *a, KExpr *b, KLoc loc);
/* A call of builtin b with type t and room for n arguments (nargs 0: the caller appends). */
KExpr *kir_builtin(KBuiltin b, KType *t, int n, KLoc loc);
KExpr *kir_int(KType *type, uint64_t v, KLoc loc);
KExpr *kir_cast(KExpr *e, KType *to); /* returns e itself when the types are equal */

/* ---------------------------------------------------------------- statements */

typedef enum KStmtKind {
  KS_BLOCK, /* list */
  KS_DECL,  /* var, optional init (expression or KE_INITLIST) */
  KS_EXPR,  /* expr */
  KS_IF,    /* cond, then, els (may be NULL) */
  KS_WHILE, /* cond, body */
  KS_DO,    /* body, cond */
  KS_FOR,   /* init (a statement, may be NULL), cond (may be NULL), step (may be NULL), body */
  KS_BREAK,
  KS_CONTINUE,
  KS_RETURN, /* expr (may be NULL) */
  KS_SWITCH, /* cond (integer, promoted), body; cases: the KS_CASE statements of this switch */
  KS_CASE,   /* a label inside a switch body: value, or is_default; no sub-statement */
  KS_EMPTY,
  KS_LABEL, /* a goto target: label (its name, unique in its function); no sub-statement */
  KS_GOTO,  /* target: the KS_LABEL of the same function it jumps to */
} KStmtKind;

struct KStmt {
  KStmtKind kind;
  KLoc loc;
  KList list; /* KS_BLOCK: KStmt* */
  KVar *var;
  KExpr *init;
  KExpr *expr;
  KExpr *cond;
  KExpr *step;
  KStmt *then, *els, *body;
  KStmt *init_stmt;
  KList cases; /* KS_SWITCH: KStmt* of kind KS_CASE */
  int64_t value;
  bool is_default;
  const char *label; /* KS_LABEL */
  KStmt *target;     /* KS_GOTO */
  /* KS_FOR, KS_WHILE, KS_DO: the unrolling hint written before the loop (#pragma unroll N,
     OpenCL's opencl_unroll_hint): N > 1 that many copies, -1 never, -2 fully, 0 none. */
  int unroll;
  void *aux; /* scratch for the back end */
};

KStmt *kir_stmt(KStmtKind kind, KLoc loc);
/* Clears the aux of every KS_LABEL in s: a back end keeps a label's block there, made at the
 * first goto or at the label, and must not see another back end's. */
void kir_reset_labels(KStmt *s);

/* Calls fn on every expression in s (statements nested included), operands after the
 * expression that contains them. */
typedef void (*KExprVisit)(KExpr *e, void *ctx);
void kir_visit_stmt(KStmt *s, KExprVisit fn, void *ctx);
void kir_visit_expr(KExpr *e, KExprVisit fn, void *ctx);
/* Whether f has a floating-point operation written under FP_CONTRACT OFF (KExpr.contract). */
bool kir_func_no_contract(const KFunc *f);

/* Whether s may change v's storage: v (or a member of it) assigned or incremented, its
 * address taken, or an array inside it decayed to a pointer (which may be written through). */
bool kir_may_write(KStmt *s, const KVar *v);

/* ---------------------------------------------------------------- functions, module */

/* A function kcc made whose result a back end may compute with an instruction of its own
 * instead of calling it: the same value, NaN payloads aside (KFunc.native). */
typedef enum KNative {
  KN_NONE,
  KN_HALF_TO_FLOAT, /* float (ushort h): the half whose bits are h, exactly */
  KN_FLOAT_TO_HALF, /* ushort (float x): x rounded to the nearest half (ties to even), bits */
} KNative;

struct KFunc {
  const char *name; /* the source name; specialised clones get a suffix */
  KLoc loc;
  bool is_kernel;
  bool is_static, is_inline;
  KType *ret;
  KVar **params;
  int nparams;
  KStmt *body;   /* NULL only for a declaration the front end rejected */
  KList callees; /* KFunc*, filled by the call-graph pass */
  KList shared;  /* KVar* (KV_SHARED) this function or its callees use, filled by passes */
  KList symbols; /* KVar* (host_filled KV_CONSTANT) this function or its callees use */
  bool uses_dynamic_shared;
  int max_threads, min_blocks; /* kernels: __launch_bounds__(max_threads, min_blocks); 0 = none */
  int reqd_block[3];           /* kernels: reqd_work_group_size(x, y, z), the only block shape they
                                  accept; 0 = none */
  int reqd_subgroup; /* kernels: intel_reqd_sub_group_size(N) & co., the subgroup width the
                        source was written for; 0 = none */
  /* PTX, CUDA C: the subgroup width (a power of two <= 32, a segment of the warp) its subgroup
     functions compute with — its kernels' reqd_subgroup, 32 without one — set through the call
     graph by pass_callgraph; 0 when no kernel reaches it (then 32), -1 when kernels of two
     widths reach it (sg_kernels names two; limits.c refuses it if it uses subgroups). */
  int sg_width;
  const KFunc *sg_kernels[2];
  int64_t static_shared_bytes; /* kernels: sum of the static shared arrays they reach */
  KFunc *origin;               /* a clone made by address-space specialisation: the original */
  int nhidden; /* -fbounds-check: trailing parameters the source did not declare (bounds.h) */
  /* Called only when something went wrong (-fbounds-check's reporter): never inlined, so
     that the checked loops it is called from stay small enough to unroll and schedule. */
  bool is_cold;
  /* An OpenCL image function in software (frontend/opencl/image.c): the body the PTX and CUDA C
     forms call for a BI_IMAGE_READ / BI_IMAGE_WRITE whose KExpr.callee it is. The OpenCL forms use
     their own image instructions and never write it. */
  bool image_impl;
  /* Never inlined (PTX noinline, CUDA C __noinline__): image_lib.c's texel decoding, which every
     read would otherwise copy with every format's conversion. */
  bool no_inline;
  /* Called only from KExpr.alt (frontend/cuda/cuda_texobj.c: the texel helpers and the image
     functions the Vulkan form samples CUDA textures with): PTX and CUDA C leave it out. */
  bool alt_only;
  KNative native;
  void *aux;
};
/* The lanes of a subgroup in the PTX and CUDA C forms for code of f (its sg_width, a power
 * of two <= 32): 32 where no kernel reaches f or kernels of two widths do (limits.c refuses
 * the latter where it matters), and where f is NULL. */
static inline unsigned kir_sg_width(const KFunc *f) {
  int w = f ? f->sg_width : 0;
  return w > 0 && w <= 32 ? (unsigned)w : 32u;
}

typedef struct KModule {
  const char *file; /* the main source file */
  KList funcs;      /* KFunc*, in source order (kernels and device functions) */
  KList globals;    /* KVar* of kind KV_SHARED or KV_CONSTANT */
  KList structs;    /* KStruct*, in dependency order (a struct after those it contains) */
  int nvars;        /* KVar ids handed out */
  void *bounds;     /* -fbounds-check: the KBoundsTable (bounds.h); NULL when unchecked */
  /* Set by the address-space pass (allow_generic = false) where a pointer reached through a
   * pointer to a pointer needs two spaces: the forms with no generic pointer (OpenCL C, the
   * OpenCL SPIR-V) refuse the module with this message; CUDA C and Vulkan, whose pointers all
   * look alike, compile it. */
  const char *space_error;
  KLoc space_loc;
  /* How the address-space refusals end, naming the form (KOptions.one_space); NULL: the
   * forms in general. */
  const char *one_space;
} KModule;

KModule *kir_module(const char *file);
KVar *kir_var(KModule *m, const char *name, KType *type, KVarKind kind, KLoc loc);

/* m as the OpenCL forms see it: without the software forms of image functions
 * (KFunc.image_impl), which only PTX and CUDA C call. m itself when it has none; else a copy
 * sharing everything but the function list. */
KModule *kir_module_without_image_impl(KModule *m);
/* m without its KFunc.alt_only functions (PTX, CUDA C): m itself when it has none. */
KModule *kir_module_without_alt_only(KModule *m);
/* m as the forms without CUDA texture objects see it (OpenCL C, SPIR-V, Vulkan): each kernel
 * parameter with a KVar.tex_image replaced by that image parameter. m itself when it has none;
 * else a copy sharing everything but those kernels (copies sharing their bodies). */
KModule *kir_module_texobj_view(KModule *m);
/* Whether m defines at least one kernel. */
bool kir_has_kernel(const KModule *m);
/* Whether any function of m has an operation under FP_CONTRACT OFF (kir_func_no_contract). */
bool kir_module_no_contract(const KModule *m);
/* Whether f, or a function it calls, uses a warp-level operation (kir_builtin_is_warp). */
bool kir_func_uses_warp(const KFunc *f);
/* Whether f, or a function it calls, uses an OpenCL subgroup operation
 * (kir_builtin_is_subgroup). */
bool kir_func_uses_subgroups(const KFunc *f);

/* Prints the module as readable text (`kcc --emit=kir`); the format is stable for tests. */
void kir_print(FILE *out, const KModule *m);

/* The first argument (1-based) of printf call e that a `%s` conversion takes and that is not
 * a string literal (a `const char *` the kernel computes), or 0. CUDA's printf prints any
 * string; OpenCL C's takes literals only, so its forms refuse the others. */
int kir_printf_nonliteral_string(const KExpr *e);

#endif
