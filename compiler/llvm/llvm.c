/* llvm.c — the LLVM/PTX back end: KIR -> LLVM IR (LLVM-C builder) -> optimised module ->
 * NVPTX target machine -> PTX text.
 *
 * This file holds the module-level work: the target machine, types, globals, function
 * signatures and bodies, libdevice linking, the pass pipeline and emission. Expressions,
 * statements and builtins live in llvm_expr.c, llvm_stmt.c and llvm_builtins.c. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Support.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "diag.h"
#include "llvm_gen.h"

#define KCC_TRIPLE     "nvptx64-nvidia-cuda"
#define LIBDEVICE_FILE "libdevice.10.bc"

/* ---------------------------------------------------------------- types */

unsigned lg_as(KAddrSpace as) {
  /* Locals are allocas in the generic space (NVPTX's data layout has no alloca address
   * space; the back end moves them to .local itself), so a pointer KIR calls private is a
   * generic pointer here: no casts between the two, and SROA sees plain allocas. */
  return as == KAS_PRIVATE ? 0 : (unsigned)as;
}

static LGStruct *struct_of(LG *g, const KStruct *st);

LLVMTypeRef lg_type(LG *g, const KType *t) {
  switch (t->kind) {
  case KT_VOID: return g->t_void;
  case KT_BOOL: /* bool is a byte in memory and 0/1 in a byte as a value: no i1<->i8 dance */
  case KT_I8:
  case KT_U8: return g->t_i8;
  case KT_I16:
  case KT_U16:
  case KT_F16: /* never reaches a back end (fe_lower_half): its bits */ return g->t_i16;
  case KT_I32:
  case KT_U32: return g->t_i32;
  case KT_I64:
  case KT_U64: return g->t_i64;
  case KT_F32: return g->t_f32;
  case KT_F64: return g->t_f64;
  case KT_PTR: return LLVMPointerTypeInContext(g->ctx, lg_as(t->as));
  case KT_ARRAY: return LLVMArrayType2(lg_type(g, t->base), t->len < 0 ? 0 : (uint64_t)t->len);
  case KT_STRUCT: return struct_of(g, t->st)->ty;
  case KT_IMAGE: return lg_image_type(g);
  case KT_SAMPLER: return g->t_i32; /* its CLK_* bits (kcrt passes them; docs/bundle.md) */
  case KT_VEC: {
    /* NVPTX's data layout gives <N x T> KIR's (OpenCL's) layout: size and alignment the
     * power of two at or above N * sizeof(T), so a 3-vector takes 4 slots in memory, in
     * arrays and in structs (a <3 x float> value still has 96 bits: see gen_bitcast). */
    LLVMTypeRef vt = LLVMVectorType(lg_type(g, t->base), (unsigned)t->len);
    if (LLVMABISizeOfType(g->td, vt) != (unsigned long long)t->size ||
        LLVMABIAlignmentOfType(g->td, vt) != (unsigned)t->align)
      diag_ice((KLoc){0}, "LLVM back end: LLVM lays out '%s' in %llu bytes aligned to %u",
               kir_type_str(t), LLVMABISizeOfType(g->td, vt), LLVMABIAlignmentOfType(g->td, vt));
    return vt;
  }
  }
  return g->t_i8;
}

/* Builds the element list of a struct, with explicit byte padding only where KIR's C layout
 * puts a field later than LLVM's natural alignment would (so LLVM's offsets are KIR's). */
static int struct_elems(LG *g, const KStruct *st, LLVMTypeRef *el, unsigned *map) {
  int n = 0;
  uint64_t cur = 0, maxal = 1;
  for (int i = 0; i < st->nfields; i++) {
    const KField *f = &st->fields[i];
    LLVMTypeRef ft = lg_type(g, f->type);
    uint64_t al = LLVMABIAlignmentOfType(g->td, ft);
    uint64_t nat = (cur + al - 1) / al * al;
    if ((uint64_t)f->offset > nat) el[n++] = LLVMArrayType2(g->t_i8, (uint64_t)f->offset - cur);
    map[i] = (unsigned)n;
    el[n++] = ft;
    cur = (uint64_t)f->offset + LLVMABISizeOfType(g->td, ft);
    if (al > maxal) maxal = al;
  }
  uint64_t nat_size = (cur + maxal - 1) / maxal * maxal;
  if ((uint64_t)st->size > nat_size) el[n++] = LLVMArrayType2(g->t_i8, (uint64_t)st->size - cur);
  return n;
}

static bool layout_matches(LG *g, const KStruct *st, LLVMTypeRef ty, const unsigned *map) {
  if (LLVMABISizeOfType(g->td, ty) != (unsigned long long)st->size) return false;
  for (int i = 0; i < st->nfields; i++)
    if (LLVMOffsetOfElement(g->td, ty, map[i]) != (unsigned long long)st->fields[i].offset)
      return false;
  return true;
}

/* The integer (or, above 8 bytes, i32 vector) whose size and alignment are a union's
 * alignment: its body is an array of them (docs/design.md, "Unions"). */
static LLVMTypeRef union_unit(LG *g, const KStruct *st) {
  switch (st->align) {
  case 1: return g->t_i8;
  case 2: return g->t_i16;
  case 4: return g->t_i32;
  case 8: return g->t_i64;
  default: return LLVMVectorType(g->t_i32, (unsigned)st->align / 4);
  }
}

static LGStruct *new_struct(LG *g, const KStruct *st, LLVMTypeRef ty, unsigned *map) {
  if (g->nstructs == g->capstructs) {
    g->capstructs = g->capstructs ? 2 * g->capstructs : 8;
    g->structs = realloc(g->structs, (size_t)g->capstructs * sizeof *g->structs);
  }
  LGStruct *s = &g->structs[g->nstructs++];
  s->ks = st;
  s->ty = ty;
  s->elem = map;
  return s;
}

static LGStruct *struct_of(LG *g, const KStruct *st) {
  for (int i = 0; i < g->nstructs; i++)
    if (g->structs[i].ks == st) return &g->structs[i];
  if (st->is_union) {
    /* Whole units of the union's alignment: a copy of the value keeps every byte (a struct
       member with padding would not), and the members are reached at its address. */
    LLVMTypeRef unit = union_unit(g, st);
    LLVMTypeRef body = LLVMArrayType2(unit, (uint64_t)(st->size / st->align));
    char name[256];
    snprintf(name, sizeof name, "union.%s", st->name);
    LLVMTypeRef ty = LLVMStructCreateNamed(g->ctx, name);
    LLVMStructSetBody(ty, &body, 1, 0);
    if (LLVMABISizeOfType(g->td, ty) != (unsigned long long)st->size ||
        LLVMABIAlignmentOfType(g->td, ty) != (unsigned)st->align)
      diag_ice(st->loc, "LLVM back end: LLVM lays out union %s in %llu bytes aligned to %u",
               st->name, LLVMABISizeOfType(g->td, ty), LLVMABIAlignmentOfType(g->td, ty));
    return new_struct(g, st, ty, calloc((size_t)st->nfields + 1, sizeof(unsigned)));
  }
  int cap = 2 * st->nfields + 2;
  LLVMTypeRef *el = calloc((size_t)cap, sizeof *el);
  unsigned *map = calloc((size_t)st->nfields + 1, sizeof *map);
  int n = struct_elems(g, st, el, map);
  /* Natural alignment makes LLVM's layout agree with C's; check it, and fall back to a
   * packed struct (alignment then comes from the loads/stores, which carry KIR's). */
  LLVMTypeRef probe = LLVMStructTypeInContext(g->ctx, el, (unsigned)n, 0);
  bool packed = !layout_matches(g, st, probe, map);
  char name[256];
  snprintf(name, sizeof name, "struct.%s", st->name);
  LLVMTypeRef ty = LLVMStructCreateNamed(g->ctx, name);
  LLVMStructSetBody(ty, el, (unsigned)n, packed);
  free(el);
  return new_struct(g, st, ty, map);
}

unsigned lg_field_index(LG *g, const KStruct *st, int field) {
  return struct_of(g, st)->elem[field];
}

LLVMValueRef lg_field_ptr(LG *g, const KStruct *st, LLVMValueRef base, int field) {
  if (st->is_union) return base; /* every member at offset 0; pointers are opaque */
  LGStruct *s = struct_of(g, st);
  return LLVMBuildStructGEP2(g->b, s->ty, base, s->elem[field], st->fields[field].name);
}

/* A union's constant: the bytes its initialized member gives, in units of its alignment
 * (little-endian, as every target kcc writes for is). */
static LLVMValueRef const_union(LG *g, const KType *t, const KExpr *e) {
  const KStruct *st = t->st;
  unsigned char *bytes = calloc((size_t)st->size, 1);
  if (!kir_const_bytes(t, e, bytes)) {
    free(bytes);
    return NULL;
  }
  /* A unit is one integer of the alignment's size, or (above 8 bytes) a vector of i32s. */
  LLVMTypeRef unit = union_unit(g, st);
  int n = st->size / st->align, wb = st->align > 8 ? 4 : st->align, nw = st->align / wb;
  LLVMValueRef *el = calloc((size_t)n + 1, sizeof *el);
  LLVMValueRef *w = calloc((size_t)nw, sizeof *w);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < nw; j++) {
      uint64_t v = 0;
      for (int b = wb - 1; b >= 0; b--) v = v << 8 | bytes[i * st->align + j * wb + b];
      w[j] = LLVMConstInt(st->align > 8 ? g->t_i32 : unit, v, 0);
    }
    el[i] = st->align > 8 ? LLVMConstVector(w, (unsigned)nw) : w[0];
  }
  free(w);
  LLVMValueRef arr = LLVMConstArray2(unit, el, (uint64_t)n);
  LLVMValueRef v = LLVMConstNamedStruct(lg_type(g, t), &arr, 1);
  free(el);
  free(bytes);
  return v;
}

/* ---------------------------------------------------------------- helpers */

LLVMValueRef lg_alloca_type(LG *g, LLVMTypeRef ty, unsigned align, const char *name) {
  LLVMValueRef a = LLVMBuildAlloca(g->ab, ty, name ? name : "");
  LLVMSetAlignment(a, align ? align : 1);
  return a;
}

LLVMValueRef lg_alloca(LG *g, const KType *t, const char *name) {
  return lg_alloca_type(g, lg_type(g, t), (unsigned)(t->align > 0 ? t->align : 1), name);
}

typedef struct LGString {
  const char *s;
  size_t len;
  LLVMValueRef gv;
} LGString;

LLVMValueRef lg_string(LG *g, const char *s, size_t len, unsigned as) {
  for (int i = 0; i < g->strs.n; i++) {
    LGString *o = g->strs.v[i];
    if (o->len == len && !memcmp(o->s, s, len)) return lg_cast_as(g, o->gv, 4, as);
  }
  LLVMValueRef init = LLVMConstStringInContext2(g->ctx, s, len, 0);
  char name[32];
  snprintf(name, sizeof name, ".str.%d", g->nstr++);
  LLVMValueRef gv = LLVMAddGlobalInAddressSpace(g->mod, LLVMTypeOf(init), name, 4);
  LLVMSetInitializer(gv, init);
  LLVMSetGlobalConstant(gv, 1);
  LLVMSetLinkage(gv, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
  LLVMSetAlignment(gv, 1);
  LGString *rec = kir_alloc(sizeof *rec);
  *rec = (LGString){s, len, gv};
  klist_push(&g->strs, rec);
  return lg_cast_as(g, gv, 4, as);
}

LLVMValueRef lg_decl(LG *g, const char *name, LLVMTypeRef fnty) {
  LLVMValueRef f = LLVMGetNamedFunction(g->mod, name);
  if (!f) {
    f = LLVMAddFunction(g->mod, name, fnty);
    LLVMSetLinkage(f, LLVMExternalLinkage);
  }
  return f;
}

LLVMValueRef lg_intrinsic(LG *g, const char *name, LLVMTypeRef *over, int nover) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id) {
    diag_ice((KLoc){0}, "LLVM has no intrinsic '%s'", name);
    abort(); /* a kcc bug: every name here is a literal in this back end */
  }
  return LLVMGetIntrinsicDeclaration(g->mod, id, over, (size_t)nover);
}

LLVMValueRef lg_call(LG *g, LLVMValueRef fn, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
  bool isvoid = LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind;
  return LLVMBuildCall2(g->b, fty, fn, args, n, isvoid ? "" : "call");
}

static void add_attr(LG *g, LLVMValueRef fn, LLVMAttributeIndex idx, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(g->ctx, kind, 0));
}

static void add_str_attr(LG *g, LLVMValueRef fn, const char *k, const char *v) {
  LLVMAddAttributeAtIndex(
      fn, LLVMAttributeFunctionIndex,
      LLVMCreateStringAttribute(g->ctx, k, (unsigned)strlen(k), v, (unsigned)strlen(v)));
}

/* ---------------------------------------------------------------- constant initializers */

/* Scalars are folded by LLVM itself: the expression is generated into a scratch function
 * with the ordinary expression code, and whatever the builder's constant folder could not
 * turn into a constant is not a constant initializer. */
static LLVMValueRef const_scalar(LG *g, const KType *t, const KExpr *e) {
  LLVMValueRef saved_fn = g->fn;
  LLVMBasicBlockRef saved_bb = LLVMGetInsertBlock(g->b);
  LLVMTypeRef fty = LLVMFunctionType(g->t_void, NULL, 0, 0);
  LLVMValueRef tmp = LLVMAddFunction(g->mod, "__kcc_constinit", fty);
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(g->ctx, tmp, "");
  LLVMPositionBuilderAtEnd(g->b, bb);
  LLVMPositionBuilderAtEnd(g->ab, bb);
  g->fn = tmp;
  LLVMValueRef v = lg_expr(g, (KExpr *)e);
  if (v && e->type != t) v = lg_convert(g, v, e->type, t);
  if (v && !LLVMIsConstant(v)) v = NULL;
  LLVMDeleteFunction(tmp);
  g->fn = saved_fn;
  if (saved_bb)
    LLVMPositionBuilderAtEnd(g->b, saved_bb);
  else
    LLVMClearInsertionPosition(g->b);
  if (saved_fn)
    LLVMPositionBuilderAtEnd(g->ab, LLVMGetEntryBasicBlock(saved_fn));
  else
    LLVMClearInsertionPosition(g->ab);
  return v;
}

LLVMValueRef lg_const_init(LG *g, const KType *t, const KExpr *e) {
  LLVMTypeRef ty = lg_type(g, t);
  if (!e) return LLVMConstNull(ty);
  if (t->kind == KT_ARRAY) {
    uint64_t len = t->len < 0 ? 0 : (uint64_t)t->len;
    if (e->kind == KE_STR && t->base->size == 1) {
      char *buf = calloc(len + 1, 1);
      memcpy(buf, e->str, e->len < len ? e->len : len);
      LLVMValueRef v = LLVMConstStringInContext2(g->ctx, buf, len, 1);
      free(buf);
      return v;
    }
    if (e->kind != KE_INITLIST) return NULL;
    LLVMValueRef *el = calloc(len + 1, sizeof *el);
    for (uint64_t i = 0; i < len; i++) {
      const KExpr *a = i < (uint64_t)e->nargs ? e->args[i] : NULL;
      if (!(el[i] = lg_const_init(g, t->base, a))) {
        free(el);
        return NULL;
      }
    }
    LLVMValueRef v = LLVMConstArray2(lg_type(g, t->base), el, len);
    free(el);
    return v;
  }
  if (t->kind == KT_STRUCT && t->st->is_union) return const_union(g, t, e);
  if (t->kind == KT_STRUCT) {
    if (e->kind != KE_INITLIST) return NULL;
    const KStruct *st = t->st;
    unsigned n = LLVMCountStructElementTypes(ty);
    LLVMValueRef *el = calloc(n + 1, sizeof *el);
    LLVMTypeRef *et = calloc(n + 1, sizeof *et);
    LLVMGetStructElementTypes(ty, et);
    for (unsigned i = 0; i < n; i++) el[i] = LLVMConstNull(et[i]); /* padding */
    bool ok = true;
    for (int f = 0; f < st->nfields && ok; f++) {
      const KExpr *a = f < e->nargs ? e->args[f] : NULL;
      LLVMValueRef v = lg_const_init(g, st->fields[f].type, a);
      if (v)
        el[lg_field_index(g, st, f)] = v;
      else
        ok = false;
    }
    LLVMValueRef v = ok ? LLVMConstNamedStruct(ty, el, n) : NULL;
    free(el);
    free(et);
    return v;
  }
  if (t->kind == KT_VEC && e->kind == KE_INITLIST) { /* one constant per component */
    LLVMValueRef el[16];
    for (int i = 0; i < t->len; i++)
      if (!(el[i] = lg_const_init(g, t->base, i < e->nargs ? e->args[i] : NULL))) return NULL;
    return LLVMConstVector(el, (unsigned)t->len);
  }
  if (e->kind == KE_INITLIST) /* `int x = {3};` */
    return e->nargs > 0 ? lg_const_init(g, t, e->args[0]) : LLVMConstNull(ty);
  return const_scalar(g, t, e);
}

/* ---------------------------------------------------------------- globals */

static void gen_globals(LG *g) {
  for (int i = 0; i < g->km->globals.n; i++) {
    KVar *v = KLIST_AT(g->km->globals, i, KVar *);
    LLVMTypeRef ty = lg_type(g, v->type);
    char name[512];
    if (v->kind == KV_SHARED && v->owner && !v->is_dynamic)
      snprintf(name, sizeof name, "%s.%s", v->owner->name, v->name); /* per-function scope */
    else
      snprintf(name, sizeof name, "%s", v->name);
    unsigned as = lg_as(kir_gvar_space(v));
    LLVMValueRef gv = LLVMAddGlobalInAddressSpace(g->mod, ty, name, as);
    unsigned align = (unsigned)(v->type->align > 0 ? v->type->align : 1);
    if (v->kind == KV_SHARED && v->is_dynamic) {
      /* As clang does for `extern __shared__ T s[]`: an external zero-length array whose
       * address is the start of the block's dynamic shared memory. */
      LLVMSetLinkage(gv, LLVMExternalLinkage);
      align = align < 16 ? 16 : align;
    } else if (v->kind == KV_SHARED) {
      LLVMSetLinkage(gv, LLVMInternalLinkage);
      LLVMSetInitializer(gv, LLVMGetUndef(ty)); /* shared memory has no initial value */
    } else if (v->is_mutable) {
      /* CUDA's __device__ variable: .global, its first value in the module, found by name
       * (cuModuleGetGlobal); kernels write it, so nothing may be folded. */
      LLVMValueRef init = v->init ? lg_const_init(g, v->type, v->init) : LLVMConstNull(ty);
      if (!init) {
        diag_error(v->loc, "initializer of '%s' is not a constant expression", v->name);
        init = LLVMConstNull(ty);
      }
      LLVMSetInitializer(gv, init);
      LLVMSetExternallyInitialized(gv, 1);
      LLVMSetLinkage(gv, LLVMExternalLinkage);
    } else if (v->host_filled) {
      /* The host writes it (cuModuleGetGlobal): zero until then, and never folded. */
      LLVMSetInitializer(gv, LLVMConstNull(ty));
      LLVMSetExternallyInitialized(gv, 1);
      LLVMSetLinkage(gv, LLVMExternalLinkage);
    } else {
      LLVMValueRef init = lg_const_init(g, v->type, v->init);
      if (!init) {
        diag_error(v->loc, "initializer of constant '%s' is not a constant expression", v->name);
        init = LLVMConstNull(ty);
      }
      LLVMSetInitializer(gv, init);
      LLVMSetGlobalConstant(gv, 1);
      LLVMSetLinkage(gv, LLVMExternalLinkage); /* visible: the runtime may look it up */
    }
    LLVMSetAlignment(gv, align);
    v->aux = gv;
  }
}

/* ---------------------------------------------------------------- functions */

/* A kernel parameter of type `shared T *` (OpenCL's __local T *): local memory the host
 * sizes at each launch. In PTX it is a 32-bit byte offset into the block's dynamic shared
 * memory: the runtime lays these buffers out (each 16-byte aligned) after the kernel's own
 * dynamic shared bytes, passes their offsets, and enlarges the launch's dynamic shared
 * size. The kernel's prologue turns the offset back into a pointer (local_param_ptr). */
static bool is_local_param(const KFunc *f, const KVar *v) {
  return f->is_kernel && v->type->kind == KT_PTR && v->type->as == KAS_SHARED;
}

static void add_annotation(LG *g, LLVMValueRef fn, const char *key, int val) {
  LLVMMetadataRef md[3] = {LLVMValueAsMetadata(fn),
                           LLVMMDStringInContext2(g->ctx, key, strlen(key)),
                           LLVMValueAsMetadata(LLVMConstInt(g->t_i32, (unsigned)val, 0))};
  LLVMAddNamedMetadataOperand(g->mod, "nvvm.annotations",
                              LLVMMetadataAsValue(g->ctx, LLVMMDNodeInContext2(g->ctx, md, 3)));
}

static void declare_func(LG *g, KFunc *f) {
  LLVMTypeRef *pt = calloc((size_t)f->nparams + 1, sizeof *pt);
  for (int i = 0; i < f->nparams; i++)
    pt[i] = is_local_param(f, f->params[i]) ? g->t_i32 : lg_type(g, f->params[i]->type);
  LLVMTypeRef fty = LLVMFunctionType(lg_type(g, f->ret), pt, (unsigned)f->nparams, 0);
  free(pt);
  LLVMValueRef fn = LLVMAddFunction(g->mod, f->name, fty);
  f->aux = fn;
  if (f->is_kernel) {
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv); /* llc 19 emits .entry for it */
    LLVMSetLinkage(fn, LLVMExternalLinkage);
    /* __launch_bounds__: NVPTX reads them from nvvm.annotations (.maxntid, .minnctapersm);
     * reqd_work_group_size: .reqntid, the one block shape the kernel accepts. ptxas refuses
     * .maxntid next to .reqntid ("conflicting directives"), and .reqntid says more: with
     * both, only .reqntid (its thread count must then be within the bound). */
    bool reqd = f->reqd_block[0] || f->reqd_block[1] || f->reqd_block[2];
    if (reqd) {
      static const char *keys[3] = {"reqntidx", "reqntidy", "reqntidz"};
      int64_t n = 1;
      for (int i = 0; i < 3; i++) {
        int d = f->reqd_block[i] ? f->reqd_block[i] : 1;
        add_annotation(g, fn, keys[i], d);
        n *= d;
      }
      if (f->max_threads && n > f->max_threads)
        diag_error(f->loc,
                   "kernel '%s': reqd_work_group_size asks for %lld threads per block, more than "
                   "its __launch_bounds__ (%d) allow",
                   f->name, (long long)n, f->max_threads);
    } else if (f->max_threads) {
      add_annotation(g, fn, "maxntidx", f->max_threads);
    }
    if (f->min_blocks) add_annotation(g, fn, "minctasm", f->min_blocks);
  } else {
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    if (f->is_inline && !f->no_inline) add_attr(g, fn, LLVMAttributeFunctionIndex, "inlinehint");
    if (f->is_cold) {
      add_attr(g, fn, LLVMAttributeFunctionIndex, "noinline");
      add_attr(g, fn, LLVMAttributeFunctionIndex, "cold");
    } else if (f->no_inline) {
      add_attr(g, fn, LLVMAttributeFunctionIndex, "noinline");
    }
  }
  add_attr(g, fn, LLVMAttributeFunctionIndex, "nounwind");
  /* Any function may reach __syncthreads(): calls must not be made control dependent on
   * more values than they are (what clang does for every CUDA function). */
  add_attr(g, fn, LLVMAttributeFunctionIndex, "convergent");
  if (g->o->fast_math) {
    add_str_attr(g, fn, "unsafe-fp-math", "true");
    add_str_attr(g, fn, "no-infs-fp-math", "true");
    add_str_attr(g, fn, "no-nans-fp-math", "true");
    add_str_attr(g, fn, "no-signed-zeros-fp-math", "true");
    add_str_attr(g, fn, "approx-func-fp-math", "true");
    add_str_attr(g, fn, "denormal-fp-math-f32", "preserve-sign,preserve-sign");
  }
  for (int i = 0; i < f->nparams; i++) {
    const KType *t = f->params[i]->type;
    if (t->kind != KT_PTR || !(t->qual & KQ_RESTRICT)) continue;
    /* A local-memory kernel parameter is an i32 offset here, not a pointer. */
    if (f->is_kernel && t->as == KAS_SHARED) continue;
    add_attr(g, fn, (LLVMAttributeIndex)(i + 1), "noalias");
    /* const + restrict: nothing writes the data during the call, which lets NVPTX use
     * the read-only data path (ld.global.nc) for a kernel parameter. */
    if ((t->qual & KQ_CONST) && !(t->qual & KQ_VOLATILE))
      add_attr(g, fn, (LLVMAttributeIndex)(i + 1), "readonly");
  }
}

static void finish_blocks(LG *g, KFunc *f) {
  LLVMTypeRef rt = LLVMGetReturnType(g->fn_type);
  /* The entry block (allocas) gets its branch to the body last. */
  LLVMBasicBlockRef first = LLVMGetNextBasicBlock(LLVMGetFirstBasicBlock(g->fn));
  for (LLVMBasicBlockRef bb = first; bb; bb = LLVMGetNextBasicBlock(bb)) {
    if (LLVMGetBasicBlockTerminator(bb)) continue;
    LLVMPositionBuilderAtEnd(g->b, bb);
    if (f->ret->kind == KT_VOID)
      LLVMBuildRetVoid(g->b);
    else if (LLVMGetFirstInstruction(bb) || LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)))
      LLVMBuildRet(g->b, LLVMGetUndef(rt)); /* fell off the end: C leaves the value undefined */
    else
      LLVMBuildUnreachable(g->b);
  }
}

/* The start of the block's dynamic shared memory: any `extern shared T x[]` names it (they
 * all start there, as in CUDA); a kernel with none gets one of its own. */
static LLVMValueRef dynamic_shared_base(LG *g) {
  for (int i = 0; i < g->km->globals.n; i++) {
    KVar *v = KLIST_AT(g->km->globals, i, KVar *);
    if (v->kind == KV_SHARED && v->is_dynamic && v->aux) return v->aux;
  }
  const char *name = "__kcc_local_args";
  LLVMValueRef gv = LLVMGetNamedGlobal(g->mod, name);
  if (!gv) {
    gv = LLVMAddGlobalInAddressSpace(g->mod, LLVMArrayType2(g->t_i8, 0), name, 3);
    LLVMSetLinkage(gv, LLVMExternalLinkage);
    LLVMSetAlignment(gv, 16);
  }
  return gv;
}

/* A local-memory kernel parameter's pointer: the dynamic shared base + the byte offset. */
static LLVMValueRef local_param_ptr(LG *g, LLVMValueRef off) {
  LLVMValueRef idx = LLVMBuildZExt(g->ab, off, g->t_i64, "");
  return LLVMBuildInBoundsGEP2(g->ab, g->t_i8, dynamic_shared_base(g), &idx, 1, "");
}

static void define_func(LG *g, KFunc *f) {
  g->kf = f;
  g->fn = f->aux;
  g->fn_type = LLVMGlobalGetValueType(g->fn);
  g->brk = g->cont = NULL;
  g->sw = NULL;
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "entry");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "body");
  LLVMPositionBuilderAtEnd(g->ab, entry);
  LLVMPositionBuilderAtEnd(g->b, body);
  /* Parameters live in allocas like locals so that & and assignment work on them;
   * mem2reg/SROA turn them back into registers. */
  for (int i = 0; i < f->nparams; i++) {
    KVar *v = f->params[i];
    LLVMValueRef p = LLVMGetParam(g->fn, (unsigned)i);
    LLVMSetValueName2(p, v->name, strlen(v->name));
    LLVMValueRef a = lg_alloca(g, v->type, v->name);
    if (is_local_param(f, v)) p = local_param_ptr(g, p);
    LLVMValueRef st = LLVMBuildStore(g->ab, p, a);
    LLVMSetAlignment(st, (unsigned)(v->type->align > 0 ? v->type->align : 1));
    v->aux = a;
  }
  kir_reset_labels(f->body);
  if (f->body) lg_stmt(g, f->body);
  finish_blocks(g, f);
  LLVMPositionBuilderAtEnd(g->ab, entry);
  LLVMBuildBr(g->ab, body);
}

/* ---------------------------------------------------------------- target machine */

static void init_nvptx(void) {
  static bool done;
  if (done) return;
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  /* NVPTX lets a loop unroll partially only while the copy stays under a quarter of the full-
   * unroll threshold (75 at -O3): nbody's inner loop (a constant 256 trips) got 2 copies, nvcc
   * makes 4, and 4 let ptxas turn each shared array's 4 loads into one LDS.128 — 1.20x slower
   * than nvcc before, 0.90x after (H200, docs/design.md). Twice the bound (150) changed no
   * other kernel of bench/ or tests/kernels/ but a struct test's loop. The option is process-
   * wide in LLVM; kcc sets it once, the same for every compile, so it cannot leak between
   * compiles with different kcc options.
   * Non-trivial loop unswitching (off in LLVM's -O3) takes -fbounds-check's loop-invariant
   * checks out of loops: a checked matmul's inner loop becomes the unchecked one again
   * (16 FMAs, fully unrolled) behind one test per loop; of the unchecked kernels in bench/
   * and tests/kernels/ only transpose's code changes (6 lines shorter). */
  const char *argv[64] = {"kcc", "-unroll-partial-threshold=150", "-enable-nontrivial-unswitch"};
  int argc = 3;
  /* KCC_LLVM_OPTIONS (docs/cli.md): LLVM's own options after kcc's, for measuring a setting
   * against the default (bench/), never needed to compile correctly. */
  const char *extra = getenv("KCC_LLVM_OPTIONS");
  char *words = extra ? strdup(extra) : NULL, *save = NULL;
  for (char *w = words ? strtok_r(words, " \t", &save) : NULL; w && argc < 64;
       w = strtok_r(NULL, " \t", &save))
    argv[argc++] = w;
  LLVMParseCommandLineOptions(argc, argv, NULL);
  free(words); /* LLVM copied what it kept */
  done = true;
}

/* LLVM 19 knows sm_20..sm_90. Newer GPUs run PTX written for sm_90 (ptxas and the driver
 * compile it forward), so a newer -arch gets sm_90 PTX. PTX ISA 7.8 (CUDA 11.8) covers
 * every one of those targets and every ptxas since 11.8 accepts it; a module whose kernel
 * parameters need more than 4352 bytes gets 8.1 (CUDA 12.1), the first ISA that allows it. */
static LLVMTargetMachineRef make_tm(const KModule *m, const KOptions *o) {
  int sm = o->narchs > 0 ? o->archs[0] : 75;
  if (sm > 90) sm = 90;
  if (sm < 30) sm = 30;
  char cpu[16], isa[16];
  snprintf(cpu, sizeof cpu, "sm_%d", sm);
  snprintf(isa, sizeof isa, "+ptx%d", kcc_ptx_isa(m, o));
  if (o->verbose)
    fprintf(stderr, "kcc: llvm: target %s, cpu %s, %s, -O%d\n", KCC_TRIPLE, cpu, isa, o->opt_level);
  char *err = NULL;
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(KCC_TRIPLE, &target, &err)) {
    diag_ice((KLoc){0}, "NVPTX target unavailable in this LLVM: %s", err ? err : "?");
    LLVMDisposeMessage(err);
    return NULL;
  }
  static const LLVMCodeGenOptLevel lv[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                           LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
  int ol = o->opt_level < 0 ? 0 : o->opt_level > 3 ? 3 : o->opt_level;
  return LLVMCreateTargetMachine(target, KCC_TRIPLE, cpu, isa, lv[ol], LLVMRelocDefault,
                                 LLVMCodeModelDefault);
}

/* ---------------------------------------------------------------- libdevice */

static bool file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Toolkit root from `nvcc` on PATH: <root>/bin/nvcc. */
static bool nvcc_root(char *out, size_t n) {
  const char *path = getenv("PATH");
  if (!path) return false;
  char *dup = strdup(path);
  bool found = false;
  for (char *save = NULL, *d = strtok_r(dup, ":", &save); d && !found;
       d = strtok_r(NULL, ":", &save)) {
    char cand[PATH_MAX], real[PATH_MAX];
    snprintf(cand, sizeof cand, "%s/nvcc", d);
    if (access(cand, X_OK) != 0 || !realpath(cand, real)) continue;
    char *slash = strrchr(real, '/'); /* .../bin/nvcc -> .../bin */
    if (slash) *slash = 0;
    slash = strrchr(real, '/');
    if (slash) *slash = 0;
    snprintf(out, n, "%s", real);
    found = true;
  }
  free(dup);
  return found;
}

/* Finds libdevice; on failure *tried lists every file looked at. Returns malloc'd path. */
static char *find_libdevice(const KOptions *o, KBuf *tried) {
  const char *roots[8];
  char nv[PATH_MAX];
  int n = 0;
  if (o->cuda_path) {
    roots[n++] = o->cuda_path; /* explicit: look nowhere else */
  } else {
    const char *e;
    if ((e = getenv("CUDA_PATH")) && *e) roots[n++] = e;
    if ((e = getenv("CUDA_HOME")) && *e) roots[n++] = e;
    if (nvcc_root(nv, sizeof nv)) roots[n++] = nv;
    roots[n++] = "/usr/local/cuda";
    roots[n++] = "/usr/lib/cuda";
    roots[n++] = "/usr/lib/nvidia-cuda-toolkit";
  }
  /* The toolkit keeps it in nvvm/libdevice; Debian's nvidia-cuda-toolkit in libdevice. */
  static const char *subs[] = {"nvvm/libdevice/" LIBDEVICE_FILE, "libdevice/" LIBDEVICE_FILE};
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 2; j++) {
      char p[PATH_MAX];
      size_t rl = strlen(roots[i]);
      bool slash = rl > 0 && roots[i][rl - 1] == '/';
      snprintf(p, sizeof p, "%s%s%s", roots[i], slash ? "" : "/", subs[j]);
      if (file_exists(p)) return strdup(p);
      if (o->cuda_path && j == 1) continue; /* report the canonical location only */
      if (tried->len) kbuf_puts(tried, ", ");
      kbuf_puts(tried, p);
    }
  return NULL;
}

static bool link_libdevice(LG *g) {
  KBuf tried = {0};
  char *path = find_libdevice(g->o, &tried);
  if (!path) {
    diag_error(g->libdevice_loc,
               "'%s' needs CUDA's libdevice, which was not found (looked for %s); point "
               "--cuda-path=DIR, CUDA_PATH or CUDA_HOME at a CUDA toolkit",
               g->libdevice_user, tried.data ? tried.data : LIBDEVICE_FILE);
    kbuf_free(&tried);
    return false;
  }
  kbuf_free(&tried);
  if (g->o->verbose) fprintf(stderr, "kcc: llvm: linking %s\n", path);
  LLVMMemoryBufferRef mb = NULL;
  char *err = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &err)) {
    diag_error((KLoc){0}, "cannot read %s: %s", path, err ? err : "?");
    LLVMDisposeMessage(err);
    free(path);
    return false;
  }
  /* Lazily: only the functions the kernels reach get read (parsing all of libdevice costs
   * more than the rest of a compile). The module owns `mb` from here on. */
  LLVMModuleRef lib = NULL;
  g->capture = true;
  g->llvm_msg[0] = 0;
  bool bad = LLVMGetBitcodeModuleInContext2(g->ctx, mb, &lib);
  g->capture = false;
  if (bad) {
    LLVMDisposeMemoryBuffer(mb); /* only a module that was made owns the buffer */
    diag_error((KLoc){0}, "%s is not a valid LLVM bitcode file (%s)", path,
               g->llvm_msg[0] ? g->llvm_msg : "unreadable");
    free(path);
    return false;
  }
  /* libdevice says nvptx64-nvidia-gpulibs and an older layout string; make them ours so
   * the linker has nothing to warn about. */
  LLVMSetTarget(lib, KCC_TRIPLE);
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(g->mod));
  /* What our module does not declare becomes internal in libdevice: the linker then copies
   * (and materializes) only what the declared functions reach, as -mlink-builtin-bitcode's
   * "only needed" mode does. */
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    LLVMValueRef ours = LLVMGetNamedFunction(g->mod, LLVMGetValueName(f));
    if (!ours || !LLVMIsDeclaration(ours)) LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  for (LLVMValueRef v = LLVMGetFirstGlobal(lib); v; v = LLVMGetNextGlobal(v))
    if (!LLVMIsDeclaration(v)) LLVMSetLinkage(v, LLVMInternalLinkage);
  g->capture = true;
  g->llvm_msg[0] = 0;
  bad = LLVMLinkModules2(g->mod, lib); /* consumes lib */
  g->capture = false;
  if (bad) diag_error((KLoc){0}, "cannot link %s: %s", path, g->llvm_msg[0] ? g->llvm_msg : "?");
  free(path);
  return !bad;
}

/* Only kernels stay visible: everything else (device functions, libdevice) becomes
 * internal so the optimizer inlines what it wants and drops the rest. */
static void internalize(LG *g) {
  for (LLVMValueRef f = LLVMGetFirstFunction(g->mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || LLVMGetFunctionCallConv(f) == LLVMPTXKernelCallConv) continue;
    LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  for (LLVMValueRef v = LLVMGetFirstGlobal(g->mod); v; v = LLVMGetNextGlobal(v)) {
    if (LLVMIsDeclaration(v)) continue;
    const char *n = LLVMGetValueName(v);
    if (strncmp(n, "__nv_", 5) == 0) LLVMSetLinkage(v, LLVMInternalLinkage); /* libdevice tables */
  }
}

/* ---------------------------------------------------------------- driver */

/* LLVM's own diagnostics (bitcode reader, linker, back end): without a handler an error
 * makes LLVM print and exit the process. Errors become kcc errors; warnings and notes show
 * with -v; remarks never. */
static void llvm_diag(LLVMDiagnosticInfoRef di, void *ctx) {
  LG *g = ctx;
  char *msg = LLVMGetDiagInfoDescription(di);
  LLVMDiagnosticSeverity sev = LLVMGetDiagInfoSeverity(di);
  if (sev == LLVMDSError && g->capture) { /* the caller words the error itself */
    snprintf(g->llvm_msg, sizeof g->llvm_msg, "%s", msg);
    g->llvm_errors++;
  } else if (sev == LLVMDSError) {
    diag_error((KLoc){0}, "LLVM: %s", msg);
    g->llvm_errors++;
  } else if (g->o->verbose && sev != LLVMDSRemark) {
    /* Remarks (the NVPTX printer's "N instructions in function") are optimisation chatter
     * with no location: -v promises stages and times, not those. */
    fprintf(stderr, "kcc: llvm: %s\n", msg);
  }
  LLVMDisposeMessage(msg);
}

static void lg_init(LG *g, KModule *m, const KOptions *o, LLVMTargetMachineRef tm) {
  memset(g, 0, sizeof *g);
  g->km = m;
  g->o = o;
  g->ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(g->ctx, llvm_diag, g);
  g->mod = LLVMModuleCreateWithNameInContext(m->file ? m->file : "kcc", g->ctx);
  LLVMSetTarget(g->mod, KCC_TRIPLE);
  g->td = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(g->mod, g->td);
  g->b = LLVMCreateBuilderInContext(g->ctx);
  g->ab = LLVMCreateBuilderInContext(g->ctx);
  g->t_void = LLVMVoidTypeInContext(g->ctx);
  g->t_i1 = LLVMInt1TypeInContext(g->ctx);
  g->t_i8 = LLVMInt8TypeInContext(g->ctx);
  g->t_i16 = LLVMInt16TypeInContext(g->ctx);
  g->t_i32 = LLVMInt32TypeInContext(g->ctx);
  g->t_i64 = LLVMInt64TypeInContext(g->ctx);
  g->t_f32 = LLVMFloatTypeInContext(g->ctx);
  g->t_f64 = LLVMDoubleTypeInContext(g->ctx);
  g->t_ptr0 = LLVMPointerTypeInContext(g->ctx, 0);
  if (o->fast_math)
    g->fmf = LLVMFastMathAll;
  else if (o->fp_contract)
    g->fmf = LLVMFastMathAllowContract;
  else
    g->fmf = LLVMFastMathNone;
}

static void lg_dispose(LG *g) {
  for (int i = 0; i < g->nstructs; i++) free(g->structs[i].elem);
  free(g->structs);
  for (int i = 0; i < g->km->globals.n; i++) KLIST_AT(g->km->globals, i, KVar *)->aux = NULL;
  for (int i = 0; i < g->km->funcs.n; i++) KLIST_AT(g->km->funcs, i, KFunc *)->aux = NULL;
  LLVMDisposeBuilder(g->b);
  LLVMDisposeBuilder(g->ab);
  if (g->mod) LLVMDisposeModule(g->mod);
  LLVMDisposeTargetData(g->td);
  LLVMContextDispose(g->ctx);
}

static bool build_module(LG *g) {
  int errors = diag_error_count();
  gen_globals(g);
  for (int i = 0; i < g->km->funcs.n; i++) {
    KFunc *f = KLIST_AT(g->km->funcs, i, KFunc *);
    if (f->body) declare_func(g, f);
  }
  for (int i = 0; i < g->km->funcs.n; i++) {
    KFunc *f = KLIST_AT(g->km->funcs, i, KFunc *);
    if (f->body) define_func(g, f);
  }
  if (diag_error_count() > errors) return false;
  /* libdevice asks __nvvm_reflect("__CUDA_FTZ"); NVVMReflect answers from this flag. */
  LLVMAddModuleFlag(g->mod, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 16,
                    LLVMValueAsMetadata(LLVMConstInt(g->t_i32, g->o->fast_math ? 1 : 0, 0)));
  char *msg = NULL;
  if (LLVMVerifyModule(g->mod, LLVMReturnStatusAction, &msg)) {
    diag_ice((KLoc){0}, "the LLVM back end produced an invalid module:\n%s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMDisposeMessage(msg);
  if (g->needs_libdevice && !link_libdevice(g)) return false;
  internalize(g);
  return true;
}

/* ---------------------------------------------------------------- NVVM constant folding */

/* LLVM 19 folds none of the NVVM math intrinsics, so the fast functions of constants
 * (__log2f(16.0f), __expf(1.0f); __powf(2.0f, y)'s lg2.approx(2)) stay instructions run per
 * thread, where nvcc folds them to the correctly rounded value (issue 29's backprop, 1.19x).
 * Each entry: the intrinsic's name prefix (every type and .ftz variant) and the operation the
 * host computes. Approximations are
 * folded to the correctly rounded result (well within their documented error, as nvcc does);
 * the .rn forms are IEEE operations, so host float/double arithmetic gives their exact bits. */
typedef enum { NF_LOG2, NF_EXP2, NF_SIN, NF_COS, NF_RSQRT, NF_SQRT, NF_RCP, NF_DIV } NvvmFold;

static const struct {
  const char *name;
  NvvmFold op;
} nvvm_folds[] = {
    {"llvm.nvvm.lg2.approx.", NF_LOG2},    {"llvm.nvvm.ex2.approx.", NF_EXP2},
    {"llvm.nvvm.sin.approx.", NF_SIN},     {"llvm.nvvm.cos.approx.", NF_COS},
    {"llvm.nvvm.rsqrt.approx.", NF_RSQRT}, {"llvm.nvvm.sqrt.approx.", NF_SQRT},
    {"llvm.nvvm.sqrt.rn.", NF_SQRT},       {"llvm.nvvm.sqrt.f", NF_SQRT},
    {"llvm.nvvm.rcp.approx.", NF_RCP},     {"llvm.nvvm.rcp.rn.", NF_RCP},
    {"llvm.nvvm.div.approx.", NF_DIV},     {"llvm.nvvm.div.rn.", NF_DIV},
};

/* A float flushed as .ftz does it: subnormals become zero of the same sign. */
static double ftz(double x, bool on) {
  return on && x != 0 && fabs(x) < FLT_MIN ? copysign(0.0, x) : x;
}

/* The value of call `c` to an NVVM math intrinsic of constant operands, or NULL. */
static LLVMValueRef fold_nvvm_call(LLVMValueRef c) {
  LLVMValueRef fn = LLVMGetCalledValue(c);
  size_t len;
  const char *name = fn ? LLVMGetValueName2(fn, &len) : NULL;
  if (!name || strncmp(name, "llvm.nvvm.", 10)) return NULL;
  int k = -1;
  for (size_t i = 0; i < sizeof nvvm_folds / sizeof nvvm_folds[0] && k < 0; i++)
    if (!strncmp(name, nvvm_folds[i].name, strlen(nvvm_folds[i].name))) k = (int)i;
  if (k < 0) return NULL;
  LLVMTypeRef ty = LLVMTypeOf(c);
  LLVMTypeKind tk = LLVMGetTypeKind(ty);
  if (tk != LLVMFloatTypeKind && tk != LLVMDoubleTypeKind) return NULL;
  bool f32 = tk == LLVMFloatTypeKind, flush = f32 && strstr(name, ".ftz") != NULL;
  bool exact = strstr(name, ".rn.") != NULL || !strcmp(name, "llvm.nvvm.sqrt.f");
  unsigned n = (unsigned)LLVMGetNumArgOperands(c);
  NvvmFold op = nvvm_folds[k].op;
  if (n != (op == NF_DIV ? 2u : 1u)) return NULL;
  double a[2];
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef v = LLVMGetOperand(c, i);
    if (!LLVMIsAConstantFP(v) || LLVMTypeOf(v) != ty) return NULL;
    LLVMBool loses;
    a[i] = ftz(LLVMConstRealGetDouble(v, &loses), flush);
  }
  double r;
  if (f32 && exact) {
    /* One IEEE float operation, rounded to nearest: the instruction's own bits. */
    float x = (float)a[0], y = n > 1 ? (float)a[1] : 0;
    r = op == NF_SQRT ? sqrtf(x) : op == NF_RCP ? 1.0f / x : x / y;
  } else {
    switch (op) {
    case NF_LOG2: r = log2(a[0]); break;
    case NF_EXP2: r = exp2(a[0]); break;
    case NF_SIN: r = sin(a[0]); break;
    case NF_COS: r = cos(a[0]); break;
    case NF_RSQRT: r = 1 / sqrt(a[0]); break;
    case NF_SQRT: r = sqrt(a[0]); break;
    case NF_RCP: r = 1 / a[0]; break;
    default: r = a[0] / a[1]; break;
    }
    if (f32) r = (float)r;
  }
  /* NaN bits differ between the host and the device: such calls stay. */
  if (isnan(r)) return NULL;
  return LLVMConstReal(ty, ftz(r, flush));
}

/* Folds every such call in the module; returns how many. */
static int fold_nvvm(LG *g) {
  int n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(g->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
        next = LLVMGetNextInstruction(i);
        LLVMValueRef v = LLVMIsACallInst(i) ? fold_nvvm_call(i) : NULL;
        if (!v) continue;
        LLVMReplaceAllUsesWith(i, v);
        LLVMInstructionEraseFromParent(i);
        n++;
      }
  return n;
}

static bool run_pipeline(LLVMModuleRef mod, const char *pipeline, LLVMTargetMachineRef tm,
                         LLVMPassBuilderOptionsRef po) {
  LLVMErrorRef err = LLVMRunPasses(mod, pipeline, tm, po);
  if (!err) return true;
  char *m = LLVMGetErrorMessage(err);
  diag_ice((KLoc){0}, "LLVM pass pipeline '%s' failed: %s", pipeline, m);
  LLVMDisposeErrorMessage(m);
  return false;
}

static bool optimize(LG *g, LLVMTargetMachineRef tm) {
  int ol = g->o->opt_level < 0 ? 0 : g->o->opt_level > 3 ? 3 : g->o->opt_level;
  char pipeline[64];
  /* -O0 keeps the code as written but still drops unused libdevice functions. */
  snprintf(pipeline, sizeof pipeline, ol == 0 ? "default<O0>,globaldce" : "default<O%d>", ol);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopUnrolling(po, ol >= 2);
  LLVMPassBuilderOptionsSetLoopVectorization(po, ol >= 2);
  LLVMPassBuilderOptionsSetSLPVectorization(po, ol >= 2);
  bool ok = run_pipeline(g->mod, pipeline, tm, po);
  /* What folding NVVM calls makes constant in turn (ex2.approx(4.0f * 1.0f)) folds on the
   * next round; the cleanup is cheap, and most modules have nothing to fold. */
  for (int round = 0; ok && ol > 0 && round < 4 && fold_nvvm(g); round++)
    ok = run_pipeline(g->mod, "function(instcombine,simplifycfg,adce)", tm, po);
  LLVMDisposePassBuilderOptions(po);
  return ok;
}

static bool compile(KModule *m, const KOptions *o, KBuf *out, bool ptx) {
  m = kir_module_without_alt_only(m); /* PTX reads texture objects with tex and suld */
  if (!kcc_check_limits(m, o, KL_PTX)) return false;
  init_nvptx();
  LLVMTargetMachineRef tm = make_tm(m, o);
  if (!tm) return false;
  LG g;
  lg_init(&g, m, o, tm);
  bool ok = build_module(&g) && optimize(&g, tm);
  if (ok && ptx) {
    char *err = NULL;
    LLVMMemoryBufferRef mb = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, g.mod, LLVMAssemblyFile, &err, &mb)) {
      diag_ice((KLoc){0}, "NVPTX code generation failed: %s", err ? err : "?");
      LLVMDisposeMessage(err);
      ok = false;
    } else {
      kbuf_append(out, LLVMGetBufferStart(mb), LLVMGetBufferSize(mb));
      LLVMDisposeMemoryBuffer(mb);
    }
  } else if (ok) {
    char *s = LLVMPrintModuleToString(g.mod);
    kbuf_puts(out, s);
    LLVMDisposeMessage(s);
  }
  lg_dispose(&g);
  LLVMDisposeTargetMachine(tm);
  return ok;
}

bool emit_llvm_ir(KModule *m, const KOptions *o, KBuf *out) {
  return compile(m, o, out, false);
}

bool emit_ptx(KModule *m, const KOptions *o, KBuf *out) {
  return compile(m, o, out, true);
}
