/* kir.c — KIR's arena, interned types, constructors and the builtin table. */
#include "kir.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- arena */

/* One compilation's worth of IR is small (kilobytes to a few megabytes) and dies at once, so a
 * chain of big blocks beats malloc/free per node and makes leaks impossible. */
typedef struct Block {
  struct Block *next;
  size_t used, size;
  max_align_t data[];
} Block;

static Block *arena;

void *kir_alloc(size_t n) {
  n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (!arena || arena->used + n > arena->size) {
    size_t size = n > (1u << 20) ? n : (1u << 20);
    Block *b = malloc(sizeof(Block) + size);
    if (!b) {
      fputs("kcc: fatal error: out of memory\n", stderr);
      exit(1);
    }
    b->next = arena;
    b->used = 0;
    b->size = size;
    arena = b;
  }
  void *p = (char *)arena->data + arena->used;
  arena->used += n;
  memset(p, 0, n);
  return p;
}

char *kir_strndup(const char *s, size_t n) {
  char *p = kir_alloc(n + 1);
  memcpy(p, s, n);
  return p;
}

char *kir_strdup(const char *s) {
  return kir_strndup(s, strlen(s));
}

bool kir_is_plain_identifier(const char *s) {
  if (!*s || (*s >= '0' && *s <= '9')) return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return false;
  return true;
}

static void types_reset(void);

void kir_free_all(void) {
  while (arena) {
    Block *next = arena->next;
    free(arena);
    arena = next;
  }
  types_reset();
}

void klist_push(KList *l, void *x) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    void **v = kir_alloc(sizeof(void *) * cap);
    if (l->n) memcpy(v, l->v, sizeof(void *) * l->n);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = x;
}

/* ---------------------------------------------------------------- types */

static KType scalars[KT_F16 + 1];
static KList derived; /* every PTR/ARRAY/STRUCT type made so far, for interning */

static void types_reset(void) {
  memset(scalars, 0, sizeof scalars);
  memset(&derived, 0, sizeof derived);
}

static const int scalar_size[] = {
    [KT_VOID] = 1, [KT_BOOL] = 1, [KT_I8] = 1,  [KT_I16] = 2, [KT_I32] = 4,
    [KT_I64] = 8,  [KT_U8] = 1,   [KT_U16] = 2, [KT_U32] = 4, [KT_U64] = 8,
    [KT_F32] = 4,  [KT_F64] = 8,  [KT_F16] = 2,
};

KType *kir_type_scalar(KTypeKind k) {
  KType *t = &scalars[k];
  if (!t->size) {
    t->kind = k;
    t->size = t->align = scalar_size[k];
  }
  return t;
}

KType *kir_type_void(void) {
  return kir_type_scalar(KT_VOID);
}

static KType *intern(KType *proto) {
  for (int i = 0; i < derived.n; i++) {
    KType *t = derived.v[i];
    if (t->kind == proto->kind && t->base == proto->base && t->len == proto->len &&
        t->as == proto->as && t->qual == proto->qual && t->st == proto->st)
      return t;
  }
  KType *t = kir_alloc(sizeof *t);
  *t = *proto;
  klist_push(&derived, t);
  return t;
}

KType *kir_type_ptr(KType *base, KAddrSpace as, int qual) {
  KType p = {.kind = KT_PTR, .size = 8, .align = 8, .base = base, .as = as, .qual = qual};
  return intern(&p);
}

KType *kir_type_array(KType *elem, int64_t len) {
  KType a = {.kind = KT_ARRAY, .base = elem, .len = len, .align = elem->align};
  a.size = len > 0 ? (int)(len * elem->size) : 0;
  return intern(&a);
}

KType *kir_type_struct(KStruct *st) {
  KType s = {.kind = KT_STRUCT, .st = st, .size = st->size, .align = st->align};
  KType *t = intern(&s);
  /* The layout may be computed after the type was first named (self-referencing pointers). */
  t->size = st->size;
  t->align = st->align;
  return t;
}

KType *kir_type_vec(KType *elem, int len) {
  int slots = len == 3 ? 4 : len;
  KType v = {.kind = KT_VEC, .base = elem, .len = len};
  v.size = v.align = elem->size * slots;
  return intern(&v);
}

KType *kir_type_image(KImageDim dim, int access) {
  KType t = {.kind = KT_IMAGE, .size = 8, .align = 8, .len = dim, .qual = access};
  return intern(&t);
}

KType *kir_type_sampler(void) {
  KType t = {.kind = KT_SAMPLER, .size = 8, .align = 8};
  return intern(&t);
}

const char *kir_image_name(KImageDim dim) {
  static const char *names[] = {
      [KIMG_1D] = "image1d_t",
      [KIMG_1D_BUFFER] = "image1d_buffer_t",
      [KIMG_1D_ARRAY] = "image1d_array_t",
      [KIMG_2D] = "image2d_t",
      [KIMG_2D_ARRAY] = "image2d_array_t",
      [KIMG_3D] = "image3d_t",
  };
  return dim < KIMG_DIM_COUNT_ ? names[dim] : "image?";
}

const char *kir_image_access(int access) {
  return access == KIMG_READ ? "read_only" : access == KIMG_WRITE ? "write_only" : "read_write";
}

int kir_image_coords(KImageDim dim) {
  switch (dim) {
  case KIMG_1D:
  case KIMG_1D_BUFFER: return 1;
  case KIMG_1D_ARRAY:
  case KIMG_2D: return 2;
  default: return 3;
  }
}

bool kir_sampler_valid(uint64_t bits) {
  uint64_t addr = bits & KSAMP_ADDRESS_MASK, filter = bits & KSAMP_FILTER_MASK;
  return !(bits & ~(uint64_t)(KSAMP_NORMALIZED | KSAMP_ADDRESS_MASK | KSAMP_FILTER_MASK)) &&
         addr <= KSAMP_MIRRORED_REPEAT && (filter == KSAMP_NEAREST || filter == KSAMP_LINEAR);
}

KType *kir_type_mask(KType *t) {
  static const KTypeKind by_size[] = {[1] = KT_I8, [2] = KT_I16, [4] = KT_I32, [8] = KT_I64};
  if (t->kind != KT_VEC) return kir_type_scalar(KT_I32);
  return kir_type_vec(kir_type_scalar(by_size[t->base->size]), (int)t->len);
}

void kir_struct_layout(KStruct *st) {
  int off = 0, align = 1;
  for (int i = 0; i < st->nfields; i++) {
    KField *f = &st->fields[i];
    int a = f->type->align ? f->type->align : 1;
    if (st->is_union) {
      f->offset = 0;
      if (f->type->size > off) off = f->type->size;
    } else {
      off = (off + a - 1) / a * a;
      f->offset = off;
      off += f->type->size;
    }
    if (a > align) align = a;
  }
  if (st->align_attr > align) align = st->align_attr;
  st->align = align;
  st->size = (off + align - 1) / align * align;
}

static int natural_align(const KType *t) {
  while (t->kind == KT_ARRAY) t = t->base;
  if (t->kind != KT_STRUCT) return t->align ? t->align : 1;
  int a = 1;
  for (int i = 0; i < t->st->nfields; i++) {
    int fa = natural_align(t->st->fields[i].type);
    if (fa > a) a = fa;
  }
  return a;
}

bool kir_struct_is_natural(const KStruct *st) {
  int off = 0, align = 1;
  for (int i = 0; i < st->nfields; i++) {
    const KType *ft = st->fields[i].type;
    const KType *in = ft;
    while (in->kind == KT_ARRAY) in = in->base;
    if (in->kind == KT_STRUCT && !kir_struct_is_natural(in->st)) return false;
    int a = natural_align(ft);
    if (st->is_union) {
      if (st->fields[i].offset != 0) return false;
      if (ft->size > off) off = ft->size;
    } else {
      off = (off + a - 1) / a * a;
      if (off != st->fields[i].offset) return false;
      off += ft->size;
    }
    if (a > align) align = a;
  }
  return (off + align - 1) / align * align == st->size;
}

static void type_str(char *buf, size_t n, const KType *t) {
  static const char *names[] = {
      [KT_VOID] = "void",        [KT_BOOL] = "bool",
      [KT_I8] = "char",          [KT_I16] = "short",
      [KT_I32] = "int",          [KT_I64] = "long",
      [KT_U8] = "unsigned char", [KT_U16] = "unsigned short",
      [KT_U32] = "unsigned int", [KT_U64] = "unsigned long",
      [KT_F32] = "float",        [KT_F64] = "double",
      [KT_F16] = "half",
  };
  char inner[256];
  switch (t->kind) {
  case KT_PTR: {
    static const char *as[] = {[KAS_GENERIC] = "",
                               [KAS_GLOBAL] = "global ",
                               [KAS_SHARED] = "shared ",
                               [KAS_CONSTANT] = "constant ",
                               [KAS_PRIVATE] = "private "};
    type_str(inner, sizeof inner, t->base);
    snprintf(buf, n, "%s%s%s *%s", as[t->as], (t->qual & KQ_CONST) ? "const " : "", inner,
             (t->qual & KQ_RESTRICT) ? "restrict" : "");
    break;
  }
  case KT_ARRAY: {
    /* C spells the outermost dimension first: float[16][17] is 16 arrays of 17 floats. */
    const KType *elem = t;
    while (elem->kind == KT_ARRAY) elem = elem->base;
    type_str(inner, sizeof inner, elem);
    size_t len = strlen(inner);
    for (const KType *a = t; a->kind == KT_ARRAY && len < sizeof inner - 24; a = a->base)
      len += a->len < 0
                 ? (size_t)snprintf(inner + len, sizeof inner - len, "[]")
                 : (size_t)snprintf(inner + len, sizeof inner - len, "[%lld]", (long long)a->len);
    snprintf(buf, n, "%s", inner);
    break;
  }
  case KT_STRUCT:
    snprintf(buf, n, "%s %s", t->st->is_union ? "union" : "struct", t->st->name);
    break;
  case KT_VEC: {
    /* OpenCL's spelling: uint4, not "unsigned int4". */
    static const char *elem[] = {
        [KT_I8] = "char",   [KT_I16] = "short",  [KT_I32] = "int",  [KT_I64] = "long",
        [KT_U8] = "uchar",  [KT_U16] = "ushort", [KT_U32] = "uint", [KT_U64] = "ulong",
        [KT_F32] = "float", [KT_F64] = "double", [KT_F16] = "half",
    };
    snprintf(buf, n, "%s%d", elem[t->base->kind], (int)t->len);
    break;
  }
  case KT_IMAGE:
    snprintf(buf, n, "%s %s", kir_image_access(t->qual), kir_image_name((KImageDim)t->len));
    break;
  case KT_SAMPLER: snprintf(buf, n, "sampler_t"); break;
  default: snprintf(buf, n, "%s", names[t->kind]); break;
  }
}

const char *kir_type_str(const KType *t) {
  char buf[512];
  type_str(buf, sizeof buf, t);
  size_t len = strlen(buf);
  while (len && buf[len - 1] == ' ') buf[--len] = 0;
  return kir_strdup(buf);
}

/* ---------------------------------------------------------------- builtins */

static const KBuiltinInfo builtins[] = {
    {"", BI_NONE, 0},
    {"threadIdx", BI_THREAD_IDX, 0},
    {"blockIdx", BI_BLOCK_IDX, 0},
    {"blockDim", BI_BLOCK_DIM, 0},
    {"gridDim", BI_GRID_DIM, 0},
    {"__syncthreads", BI_SYNCTHREADS, 0},
    {"__threadfence", BI_THREADFENCE, 0},
    {"__threadfence_block", BI_THREADFENCE_BLOCK, 0},
    {"atomicAdd", BI_ATOMIC_ADD, 2},
    {"atomicSub", BI_ATOMIC_SUB, 2},
    {"atomicMin", BI_ATOMIC_MIN, 2},
    {"atomicMax", BI_ATOMIC_MAX, 2},
    {"atomicAnd", BI_ATOMIC_AND, 2},
    {"atomicOr", BI_ATOMIC_OR, 2},
    {"atomicXor", BI_ATOMIC_XOR, 2},
    {"atomicExch", BI_ATOMIC_EXCH, 2},
    {"atomicInc", BI_ATOMIC_INC, 2},
    {"atomicDec", BI_ATOMIC_DEC, 2},
    {"atomicCAS", BI_ATOMIC_CAS, 3},
    {"printf", BI_PRINTF, -1},
    {"min", BI_MIN, 2},
    {"max", BI_MAX, 2},
    {"abs", BI_ABS, 1},
    {"sqrt", BI_SQRT, 1},
    {"rsqrt", BI_RSQRT, 1},
    {"cbrt", BI_CBRT, 1},
    {"exp", BI_EXP, 1},
    {"exp2", BI_EXP2, 1},
    {"exp10", BI_EXP10, 1},
    {"expm1", BI_EXPM1, 1},
    {"log", BI_LOG, 1},
    {"log2", BI_LOG2, 1},
    {"log10", BI_LOG10, 1},
    {"log1p", BI_LOG1P, 1},
    {"sin", BI_SIN, 1},
    {"cos", BI_COS, 1},
    {"tan", BI_TAN, 1},
    {"asin", BI_ASIN, 1},
    {"acos", BI_ACOS, 1},
    {"atan", BI_ATAN, 1},
    {"atan2", BI_ATAN2, 2},
    {"sinh", BI_SINH, 1},
    {"cosh", BI_COSH, 1},
    {"tanh", BI_TANH, 1},
    {"asinh", BI_ASINH, 1},
    {"acosh", BI_ACOSH, 1},
    {"atanh", BI_ATANH, 1},
    {"pow", BI_POW, 2},
    {"fabs", BI_FABS, 1},
    {"fmin", BI_FMIN, 2},
    {"fmax", BI_FMAX, 2},
    {"floor", BI_FLOOR, 1},
    {"ceil", BI_CEIL, 1},
    {"round", BI_ROUND, 1},
    {"trunc", BI_TRUNC, 1},
    {"rint", BI_RINT, 1},
    {"fmod", BI_FMOD, 2},
    {"fma", BI_FMA, 3},
    {"hypot", BI_HYPOT, 2},
    {"copysign", BI_COPYSIGN, 2},
    {"erf", BI_ERF, 1},
    {"erfc", BI_ERFC, 1},
    {"tgamma", BI_TGAMMA, 1},
    {"lgamma", BI_LGAMMA, 1},
    {"isnan", BI_ISNAN, 1},
    {"isinf", BI_ISINF, 1},
    {"isfinite", BI_ISFINITE, 1},
    {"popcount", BI_POPCOUNT, 1},
    {"clz", BI_CLZ, 1},
    {"mul_hi", BI_MUL_HI, 2},
    {"select", BI_SELECT, 3},
    {"convert_sat", BI_CONVERT_SAT, 1},
    {"vload", BI_VLOAD, 2},
    {"vstore", BI_VSTORE, 3},
    {"__ffs", BI_FFS, 1},
    {"__brev", BI_BREV, 1},
    {"__byte_perm", BI_BYTE_PERM, 3},
    {"__sad", BI_SAD, 3},
    {"__fdividef", BI_FDIVIDE, 2},
    {"__fadd_rn", BI_FADD_RN, 2},
    {"__fsub_rn", BI_FSUB_RN, 2},
    {"__fmul_rn", BI_FMUL_RN, 2},
    {"clock", BI_CLOCK, 0},
    {"clock64", BI_CLOCK64, 0},
    {"__trap", BI_TRAP, 0},
    {"__nanosleep", BI_NANOSLEEP, 1},
    {"__shfl_sync", BI_SHFL, 4},
    {"__shfl_up_sync", BI_SHFL_UP, 4},
    {"__shfl_down_sync", BI_SHFL_DOWN, 4},
    {"__shfl_xor_sync", BI_SHFL_XOR, 4},
    {"__ballot_sync", BI_BALLOT, 2},
    {"__any_sync", BI_ANY, 2},
    {"__all_sync", BI_ALL, 2},
    {"__activemask", BI_ACTIVEMASK, 0},
    {"__match_any_sync", BI_MATCH_ANY, 2},
    {"__reduce_add_sync", BI_REDUCE_ADD, 2},
    {"__reduce_min_sync", BI_REDUCE_MIN, 2},
    {"__reduce_max_sync", BI_REDUCE_MAX, 2},
    {"__reduce_and_sync", BI_REDUCE_AND, 2},
    {"__reduce_or_sync", BI_REDUCE_OR, 2},
    {"__reduce_xor_sync", BI_REDUCE_XOR, 2},
    {"__syncwarp", BI_SYNCWARP, 1},
    {"get_sub_group_size", BI_SG_SIZE, 0},
    {"get_max_sub_group_size", BI_SG_MAX_SIZE, 0},
    {"get_num_sub_groups", BI_SG_NUM, 0},
    {"get_sub_group_id", BI_SG_ID, 0},
    {"get_sub_group_local_id", BI_SG_LOCAL_ID, 0},
    {"sub_group_barrier", BI_SG_BARRIER, 0},
    {"sub_group_elect", BI_SG_ELECT, 0},
    {"sub_group_all", BI_SG_ALL, 1},
    {"sub_group_any", BI_SG_ANY, 1},
    {"sub_group_all_equal", BI_SG_ALL_EQUAL, 1},
    {"sub_group_ballot", BI_SG_BALLOT, 1},
    {"sub_group_broadcast", BI_SG_BROADCAST, 2},
    {"sub_group_broadcast_first", BI_SG_BROADCAST_FIRST, 1},
    {"sub_group_shuffle", BI_SG_SHUFFLE, 2},
    {"sub_group_shuffle_xor", BI_SG_SHUFFLE_XOR, 2},
    {"sub_group_shuffle_up", BI_SG_SHUFFLE_UP, 2},
    {"sub_group_shuffle_down", BI_SG_SHUFFLE_DOWN, 2},
    {"sub_group_reduce", BI_SG_REDUCE, 1},
    {"sub_group_scan_inclusive", BI_SG_SCAN_INCLUSIVE, 1},
    {"sub_group_scan_exclusive", BI_SG_SCAN_EXCLUSIVE, 1},
    {"sub_group_clustered_reduce", BI_SG_CLUSTERED_REDUCE, 2},
    {"read_image", BI_IMAGE_READ, -1},
    {"write_image", BI_IMAGE_WRITE, 3},
    {"get_image_width", BI_IMAGE_WIDTH, 1},
    {"get_image_height", BI_IMAGE_HEIGHT, 1},
    {"get_image_depth", BI_IMAGE_DEPTH, 1},
    {"get_image_array_size", BI_IMAGE_ARRAY_SIZE, 1},
    {"get_image_dim", BI_IMAGE_DIM, 1},
    {"get_image_channel_order", BI_IMAGE_CHANNEL_ORDER, 1},
    {"get_image_channel_data_type", BI_IMAGE_CHANNEL_TYPE, 1},
    {"__kcc_surf_load", BI_SURF_LOAD, 5},
    {"__kcc_surf_store", BI_SURF_STORE, 6},
    {"tex1Dfetch", BI_CU_TEX1DFETCH, 2},
    {"tex1D", BI_CU_TEX1D, 2},
    {"tex2D", BI_CU_TEX2D, 3},
    {"tex3D", BI_CU_TEX3D, 4},
    {"tex1DLod", BI_CU_TEX1DLOD, 3},
    {"tex2DLod", BI_CU_TEX2DLOD, 4},
    {"tex3DLod", BI_CU_TEX3DLOD, 5},
    {"tex1DLayered", BI_CU_TEX1DLAYERED, 3},
    {"tex2DLayered", BI_CU_TEX2DLAYERED, 4},
    {"tex1DLayeredLod", BI_CU_TEX1DLAYEREDLOD, 4},
    {"tex2DLayeredLod", BI_CU_TEX2DLAYEREDLOD, 5},
    {"surf1Dread", BI_CU_SURF1DREAD, 3},
    {"surf2Dread", BI_CU_SURF2DREAD, 4},
    {"surf3Dread", BI_CU_SURF3DREAD, 5},
    {"surf1DLayeredread", BI_CU_SURF1DLAYEREDREAD, 4},
    {"surf2DLayeredread", BI_CU_SURF2DLAYEREDREAD, 5},
    {"surf1Dwrite", BI_CU_SURF1DWRITE, 4},
    {"surf2Dwrite", BI_CU_SURF2DWRITE, 5},
    {"surf3Dwrite", BI_CU_SURF3DWRITE, 6},
    {"surf1DLayeredwrite", BI_CU_SURF1DLAYEREDWRITE, 5},
    {"surf2DLayeredwrite", BI_CU_SURF2DLAYEREDWRITE, 6},
};
const char *const kir_red_names[KR_COUNT_] = {
    "add", "mul", "min", "max", "and", "or", "xor", "logical_and", "logical_or", "logical_xor",
};
_Static_assert(sizeof builtins / sizeof builtins[0] == BI_COUNT_, "builtin table out of sync");

const KBuiltinInfo *kir_builtin_info(KBuiltin id) {
  return id < BI_COUNT_ ? &builtins[id] : &builtins[BI_NONE];
}
bool kir_builtin_is_math(KBuiltin id) {
  return id >= BI_SQRT && id <= BI_ISFINITE;
}
bool kir_builtin_is_atomic(KBuiltin id) {
  return id >= BI_ATOMIC_ADD && id <= BI_ATOMIC_CAS;
}
bool kir_builtin_is_warp(KBuiltin id) {
  return id >= BI_SHFL && id <= BI_SYNCWARP;
}
bool kir_builtin_is_subgroup(KBuiltin id) {
  return id >= BI_SG_SIZE && id <= BI_SG_CLUSTERED_REDUCE;
}
const char *kir_subgroup_name(const KExpr *e) {
  KBuiltin b = e->builtin;
  const char *base = kir_builtin_info(b)->name;
  /* Those with a uniform and a non-uniform spelling (all_equal has only the latter). */
  bool spelled = e->nonuniform && (b == BI_SG_ALL || b == BI_SG_ANY || b == BI_SG_ALL_EQUAL ||
                                   b == BI_SG_BROADCAST || b == BI_SG_REDUCE ||
                                   b == BI_SG_SCAN_INCLUSIVE || b == BI_SG_SCAN_EXCLUSIVE);
  char buf[96];
  if (spelled && !strncmp(base, "sub_group_", 10))
    snprintf(buf, sizeof buf, "sub_group_non_uniform_%s", base + 10);
  else
    snprintf(buf, sizeof buf, "%s", base);
  if (kir_red_uses_op(b))
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "_%s", kir_red_names[e->red]);
  return kir_strdup(buf);
}

bool kir_builtin_is_cuda_intrinsic(KBuiltin id) {
  return id >= BI_FFS && id <= BI_NANOSLEEP;
}

bool kir_builtin_is_image(KBuiltin id) {
  return id >= BI_IMAGE_READ && id <= BI_IMAGE_CHANNEL_TYPE;
}

bool kir_builtin_is_cuda_texture(KBuiltin id) {
  return id >= BI_CU_TEX1DFETCH && id <= BI_CU_SURF2DLAYEREDWRITE;
}

KCuTexShape kir_cuda_texture_shape(KBuiltin id) {
  KCuTexShape s = {0};
  switch (id) {
  case BI_CU_TEX1DFETCH:
  case BI_CU_TEX1D: s.dims = 1; break;
  case BI_CU_TEX2D: s.dims = 2; break;
  case BI_CU_TEX3D: s.dims = 3; break;
  case BI_CU_TEX1DLOD: s.dims = 1, s.lod = true; break;
  case BI_CU_TEX2DLOD: s.dims = 2, s.lod = true; break;
  case BI_CU_TEX3DLOD: s.dims = 3, s.lod = true; break;
  case BI_CU_TEX1DLAYERED: s.dims = 1, s.layered = true; break;
  case BI_CU_TEX2DLAYERED: s.dims = 2, s.layered = true; break;
  case BI_CU_TEX1DLAYEREDLOD: s.dims = 1, s.layered = s.lod = true; break;
  case BI_CU_TEX2DLAYEREDLOD: s.dims = 2, s.layered = s.lod = true; break;
  case BI_CU_SURF1DREAD: s.dims = 1, s.surf = true; break;
  case BI_CU_SURF2DREAD: s.dims = 2, s.surf = true; break;
  case BI_CU_SURF3DREAD: s.dims = 3, s.surf = true; break;
  case BI_CU_SURF1DLAYEREDREAD: s.dims = 1, s.surf = s.layered = true; break;
  case BI_CU_SURF2DLAYEREDREAD: s.dims = 2, s.surf = s.layered = true; break;
  case BI_CU_SURF1DWRITE: s.dims = 1, s.surf = s.write = true; break;
  case BI_CU_SURF2DWRITE: s.dims = 2, s.surf = s.write = true; break;
  case BI_CU_SURF3DWRITE: s.dims = 3, s.surf = s.write = true; break;
  case BI_CU_SURF1DLAYEREDWRITE: s.dims = 1, s.surf = s.write = s.layered = true; break;
  case BI_CU_SURF2DLAYEREDWRITE: s.dims = 2, s.surf = s.write = s.layered = true; break;
  default: break;
  }
  return s;
}

const KType *kir_texel_elem(const KType *t, int *n) {
  if (kir_is_int(t) || kir_is_float(t)) {
    *n = 1;
    return t;
  }
  if (t->kind != KT_STRUCT || t->st->is_union || t->st->nfields < 1 || t->st->nfields > 4)
    return NULL;
  const KType *e = t->st->fields[0].type;
  for (int i = 0; i < t->st->nfields; i++)
    if (t->st->fields[i].type != e || t->st->fields[i].anon) return NULL;
  *n = t->st->nfields;
  return kir_is_int(e) || kir_is_float(e) ? e : NULL;
}

KModule *kir_module_without_image_impl(KModule *m) {
  bool any = false;
  for (int i = 0; i < m->funcs.n && !any; i++) any = ((KFunc *)m->funcs.v[i])->image_impl;
  if (!any) return m;
  KModule *v = kir_alloc(sizeof *v);
  *v = *m;
  v->funcs = (KList){0};
  for (int i = 0; i < m->funcs.n; i++)
    if (!((KFunc *)m->funcs.v[i])->image_impl) klist_push(&v->funcs, m->funcs.v[i]);
  return v;
}

KModule *kir_module_without_alt_only(KModule *m) {
  bool any = false;
  for (int i = 0; i < m->funcs.n && !any; i++) any = ((KFunc *)m->funcs.v[i])->alt_only;
  if (!any) return m;
  KModule *v = kir_alloc(sizeof *v);
  *v = *m;
  v->funcs = (KList){0};
  for (int i = 0; i < m->funcs.n; i++)
    if (!((KFunc *)m->funcs.v[i])->alt_only) klist_push(&v->funcs, m->funcs.v[i]);
  return v;
}

KModule *kir_module_texobj_view(KModule *m) {
  KModule *v = NULL;
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    bool any = false;
    for (int j = 0; j < f->nparams && !any; j++) any = f->params[j]->tex_image != NULL;
    if (!any) continue;
    if (!v) {
      v = kir_alloc(sizeof *v);
      *v = *m;
      v->funcs = (KList){0};
      for (int k = 0; k < m->funcs.n; k++) klist_push(&v->funcs, m->funcs.v[k]);
    }
    KFunc *c = kir_alloc(sizeof *c);
    *c = *f;
    c->params = kir_alloc(sizeof(KVar *) * (size_t)(f->nparams ? f->nparams : 1));
    for (int j = 0; j < f->nparams; j++)
      c->params[j] = f->params[j]->tex_image ? f->params[j]->tex_image : f->params[j];
    v->funcs.v[i] = c;
  }
  return v ? v : m;
}

typedef struct WarpCtx {
  bool (*is)(KBuiltin); /* the builtins looked for */
  bool found;
  KList seen; /* KFunc* already walked */
} WarpCtx;

static void warp_visit(KExpr *e, void *ctx);

static void warp_func(WarpCtx *c, const KFunc *f) {
  for (int i = 0; i < c->seen.n; i++)
    if (c->seen.v[i] == f) return;
  klist_push(&c->seen, (void *)f);
  if (f->body) kir_visit_stmt(f->body, warp_visit, c);
}

static void warp_visit(KExpr *e, void *ctx) {
  WarpCtx *c = ctx;
  if (e->kind == KE_BUILTIN && c->is(e->builtin)) c->found = true;
  if (e->kind == KE_CALL && e->callee && !c->found) warp_func(c, e->callee);
}

bool kir_func_uses_warp(const KFunc *f) {
  WarpCtx c = {kir_builtin_is_warp, false, {0}};
  warp_func(&c, f);
  return c.found;
}

bool kir_func_uses_subgroups(const KFunc *f) {
  WarpCtx c = {kir_builtin_is_subgroup, false, {0}};
  warp_func(&c, f);
  return c.found;
}

/* ---------------------------------------------------------------- expressions, statements */

uint16_t kir_f16_bits(double d) {
  uint16_t s = signbit(d) ? 0x8000 : 0;
  if (isnan(d)) return s | 0x7e00;
  double a = fabs(d);
  if (a >= 65520.0) return s | 0x7c00; /* the largest half plus half its ulp rounds up */
  if (a == 0) return s;
  /* a / q rounded to an integer, q the ulp of a's binade (2^-24 below the normals); scaling
     by a power of two is exact, so rint rounds once, to nearest even. */
  int e;
  frexp(a, &e);
  int qexp = e - 11 < -24 ? -24 : e - 11;
  uint32_t mi = (uint32_t)rint(ldexp(a, -qexp));
  if (qexp == -24) return s | (uint16_t)mi; /* subnormal; 1024 is the smallest normal */
  return s | (uint16_t)(((uint32_t)(qexp + 25) << 10) + mi - 1024); /* mi 2048 carries */
}

double kir_f16_value(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0x1f ? (m ? NAN : INFINITY) : e ? ldexp(m + 1024, e - 25) : ldexp(m, -24);
  return (h & 0x8000) ? -v : v;
}

KCastKind kir_cast_kind(const KType *from, const KType *to) {
  if (to->kind == KT_VOID) return KC_TO_VOID;
  if (to->kind == KT_VEC && from->kind != KT_VEC) return KC_SPLAT;
  if (to->kind == KT_VEC) return kir_cast_kind(from->base, to->base);
  if (from->kind == KT_ARRAY) return KC_ARRAY_DECAY;
  if (to->kind == KT_BOOL && from->kind != KT_BOOL) return KC_TO_BOOL;
  if (kir_is_ptr(from) && kir_is_ptr(to)) return KC_PTR_TO_PTR;
  if (kir_is_ptr(from)) return KC_PTR_TO_INT;
  if (kir_is_ptr(to)) return KC_INT_TO_PTR;
  if (kir_is_int(from) && kir_is_int(to)) {
    if (to->size < from->size) return KC_INT_TRUNC;
    if (to->size == from->size) return KC_NOP;
    return kir_is_signed(from) ? KC_INT_SEXT : KC_INT_ZEXT;
  }
  if (kir_is_int(from) && kir_is_float(to)) return KC_INT_TO_FP;
  if (kir_is_float(from) && kir_is_int(to)) return KC_FP_TO_INT;
  if (kir_is_float(from) && kir_is_float(to)) {
    if (to->size > from->size) return KC_FP_EXT;
    if (to->size < from->size) return KC_FP_TRUNC;
  }
  return KC_NOP;
}

bool kir_is_lvalue(const KExpr *e) {
  switch (e->kind) {
  case KE_VAR:
  case KE_GVAR:
  case KE_INDEX:
  case KE_DEREF: return true;
  case KE_MEMBER: return kir_is_lvalue(e->a);
  case KE_SWIZZLE: {
    if (!kir_is_lvalue(e->a)) return false;
    unsigned seen = 0;
    for (int i = 0; i < e->nswz; i++) {
      if (seen & (1u << e->swz[i])) return false;
      seen |= 1u << e->swz[i];
    }
    return true;
  }
  default: return false;
  }
}

KExpr *kir_expr(KExprKind kind, KType *type, KLoc loc) {
  KExpr *e = kir_alloc(sizeof *e);
  e->kind = kind;
  e->type = type;
  e->loc = loc;
  return e;
}

KExpr *kir_int(KType *type, uint64_t v, KLoc loc) {
  KExpr *e = kir_expr(KE_ICONST, type, loc);
  e->ival = v;
  return e;
}

KExpr *kir_binary(KOp op, KType *t, KExpr *a, KExpr *b, KLoc loc) {
  KExpr *e = kir_expr(KE_BINARY, t, loc);
  e->op = op;
  e->a = a;
  e->b = b;
  return e;
}

KExpr *kir_builtin(KBuiltin b, KType *t, int n, KLoc loc) {
  KExpr *e = kir_expr(KE_BUILTIN, t, loc);
  e->builtin = b;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(n > 0 ? n : 1));
  return e;
}

KExpr *kir_cast(KExpr *e, KType *to) {
  if (e->type == to) return e;
  KExpr *c = kir_expr(KE_CAST, to, e->loc);
  c->a = e;
  return c;
}

KStmt *kir_stmt(KStmtKind kind, KLoc loc) {
  KStmt *s = kir_alloc(sizeof *s);
  s->kind = kind;
  s->loc = loc;
  return s;
}

void kir_reset_labels(KStmt *s) {
  if (!s) return;
  if (s->kind == KS_LABEL) s->aux = NULL;
  for (int i = 0; i < s->list.n; i++) kir_reset_labels(s->list.v[i]);
  kir_reset_labels(s->init_stmt);
  kir_reset_labels(s->then);
  kir_reset_labels(s->els);
  kir_reset_labels(s->body);
}

KModule *kir_module(const char *file) {
  KModule *m = kir_alloc(sizeof *m);
  m->file = kir_strdup(file);
  return m;
}

KVar *kir_var(KModule *m, const char *name, KType *type, KVarKind kind, KLoc loc) {
  KVar *v = kir_alloc(sizeof *v);
  v->name = kir_strdup(name);
  v->type = type;
  v->kind = kind;
  v->loc = loc;
  v->id = m->nvars++;
  return v;
}

void kir_visit_expr(KExpr *e, KExprVisit fn, void *ctx) {
  if (!e) return;
  fn(e, ctx);
  kir_visit_expr(e->a, fn, ctx);
  kir_visit_expr(e->b, fn, ctx);
  kir_visit_expr(e->c, fn, ctx);
  for (int i = 0; i < e->nargs; i++) kir_visit_expr(e->args[i], fn, ctx);
  kir_visit_expr(e->alt, fn, ctx);
}

void kir_visit_stmt(KStmt *s, KExprVisit fn, void *ctx) {
  if (!s) return;
  for (int i = 0; i < s->list.n; i++) kir_visit_stmt(s->list.v[i], fn, ctx);
  if (s->var && s->kind == KS_DECL) kir_visit_expr(s->init, fn, ctx);
  kir_visit_expr(s->expr, fn, ctx);
  kir_visit_stmt(s->init_stmt, fn, ctx);
  kir_visit_expr(s->cond, fn, ctx);
  kir_visit_expr(s->step, fn, ctx);
  kir_visit_stmt(s->then, fn, ctx);
  kir_visit_stmt(s->els, fn, ctx);
  kir_visit_stmt(s->body, fn, ctx);
}

typedef struct MayWrite {
  const KVar *v;
  bool hit;
} MayWrite;

static void may_write_root(MayWrite *w, const KExpr *e) {
  while (e && (e->kind == KE_MEMBER || e->kind == KE_SWIZZLE)) e = e->a;
  if (e && e->kind == KE_VAR && e->var == w->v) w->hit = true;
}

static void may_write_visit(KExpr *e, void *ctx) {
  MayWrite *w = ctx;
  if (e->kind == KE_ASSIGN || e->kind == KE_INCDEC || e->kind == KE_ADDR) may_write_root(w, e->a);
  if (e->kind == KE_CAST && e->a && e->a->type->kind == KT_ARRAY) may_write_root(w, e->a);
}

bool kir_may_write(KStmt *s, const KVar *v) {
  MayWrite w = {v, false};
  if (s) kir_visit_stmt(s, may_write_visit, &w);
  return w.hit;
}

bool kir_has_kernel(const KModule *m) {
  for (int i = 0; i < m->funcs.n; i++)
    if (((const KFunc *)m->funcs.v[i])->is_kernel) return true;
  return false;
}

/* ---------------------------------------------------------------- constant bytes */

static void put_le(unsigned char *out, uint64_t v, int size) {
  for (int i = 0; i < size; i++) out[i] = (unsigned char)(v >> (8 * i));
}

bool kir_const_uint(const KExpr *e, uint64_t *v) {
  if (e->kind == KE_ICONST) {
    *v = e->ival;
  } else if (e->kind == KE_CAST && kir_is_int(e->type) && kir_is_int(e->a->type)) {
    if (!kir_const_uint(e->a, v)) return false;
  } else if (e->kind == KE_UNARY && e->op == KU_NOT) {
    if (!kir_const_uint(e->a, v)) return false;
    *v = ~*v;
  } else {
    return false;
  }
  if (e->type->size < 8) *v &= (1ull << (8 * e->type->size)) - 1;
  return true;
}

bool kir_const_bytes(const KType *t, const KExpr *init, unsigned char *out) {
  if (!init) return true; /* zero: the caller's buffer is zeroed */
  if (t->kind == KT_ARRAY || t->kind == KT_VEC) {
    int64_t len = t->len < 0 ? 0 : t->len;
    int step = t->kind == KT_ARRAY ? t->base->size : t->size / (int)(t->len == 3 ? 4 : t->len);
    if (t->kind == KT_ARRAY && init->kind == KE_STR && t->base->size == 1) {
      memcpy(out, init->str, init->len < (size_t)len ? init->len : (size_t)len);
      return true;
    }
    if (init->kind != KE_INITLIST) return false;
    for (int64_t i = 0; i < len && i < init->nargs; i++)
      if (!kir_const_bytes(t->base, init->args[i], out + i * step)) return false;
    return true;
  }
  if (t->kind == KT_STRUCT) {
    if (init->kind != KE_INITLIST) return false;
    /* A union's list names one member (kir.h, KE_INITLIST); its other entries are NULL. */
    for (int f = 0; f < t->st->nfields && f < init->nargs; f++)
      if (init->args[f] &&
          !kir_const_bytes(t->st->fields[f].type, init->args[f], out + t->st->fields[f].offset))
        return false;
    return true;
  }
  if (init->kind == KE_INITLIST) /* `int x = {3};` */
    return init->nargs == 0 || kir_const_bytes(t, init->args[0], out);
  if (init->kind != KE_ICONST && init->kind != KE_FCONST) return false;
  bool from_float = init->kind == KE_FCONST;
  double d = from_float                  ? init->fval
             : kir_is_signed(init->type) ? (double)(int64_t)init->ival
                                         : (double)init->ival;
  if (t->kind == KT_F32) {
    float f = (float)d;
    memcpy(out, &f, 4);
  } else if (t->kind == KT_F64) {
    memcpy(out, &d, 8);
  } else if (t->kind == KT_F16) {
    put_le(out, kir_f16_bits(d), 2);
  } else if (t->kind == KT_BOOL) {
    out[0] = from_float ? d != 0 : init->ival != 0;
  } else if (kir_is_int(t)) {
    uint64_t v = !from_float ? init->ival : kir_is_signed(t) ? (uint64_t)(int64_t)d : (uint64_t)d;
    put_le(out, v, t->size);
  } else {
    return false; /* pointers: never in a host-filled variable */
  }
  return true;
}

static void find_no_contract(KExpr *e, void *ctx) {
  if (e->contract < 0) *(bool *)ctx = true;
}

bool kir_func_no_contract(const KFunc *f) {
  bool found = false;
  if (f->body) kir_visit_stmt(f->body, find_no_contract, &found);
  return found;
}

bool kir_module_no_contract(const KModule *m) {
  for (int i = 0; i < m->funcs.n; i++)
    if (kir_func_no_contract(m->funcs.v[i])) return true;
  return false;
}

int kir_printf_nonliteral_string(const KExpr *e) {
  const KExpr *f = e->nargs > 0 ? e->args[0] : NULL;
  if (!f || f->kind != KE_STR) return 0;
  int next = 1;
  for (size_t i = 0; i < f->len; i++) {
    if (f->str[i] != '%') continue;
    if (++i < f->len && f->str[i] == '%') continue;
    /* flags, width, precision (a `*` takes an argument of its own), length */
    while (i < f->len && strchr("-+ #0.123456789*", f->str[i])) next += f->str[i++] == '*';
    while (i < f->len && strchr("hljztL", f->str[i])) i++;
    if (i >= f->len || next >= e->nargs) return 0;
    const KExpr *a = e->args[next++];
    while (a->kind == KE_CAST) a = a->a;
    if (f->str[i] == 's' && a->kind != KE_STR) return next - 1;
  }
  return 0;
}
