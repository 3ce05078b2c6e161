/* spirv.c — the SPIR-V back end: KIR -> SPIR-V words for the OpenCL environment (Addresses,
 * Kernel, Physical64/OpenCL memory model, OpenCL.std), validated in process by SPIRV-Tools
 * before anything is written.
 *
 * This file holds types, instruction emission, module-level variables (shared memory,
 * constant data, string literals, builtin inputs), functions and statements; expressions and
 * builtins are in spirv_expr.c, the module builder in spirv_module.c.
 *
 * Mapping of the dialect:
 *  - global memory CrossWorkgroup, shared Workgroup, constant UniformConstant, locals Function.
 *  - threadIdx/blockIdx/blockDim/gridDim: the BuiltIn Input variables LocalInvocationId,
 *    WorkgroupId, WorkgroupSize, NumWorkgroups (v3ulong under Physical64).
 *  - static shared arrays: module-scope Workgroup variables (as llvm-spirv writes OpenCL
 *    `local` arrays declared in kernels), used directly by kernels only. An OpenCL device
 *    function that reaches one receives it as a Workgroup pointer parameter, as the OpenCL C
 *    back end passes it: PoCL's SPIR-V path (llvm-spirv, then PoCL) left a kernel whose
 *    device function read a module-scope Workgroup array writing nothing, silently. A Vulkan
 *    device function uses the variable itself (NVIDIA's driver: docs/driver-bugs.md 24).
 *  - dynamic shared memory (`extern shared T s[]`): a trailing Workgroup-pointer parameter of
 *    every kernel and device function that reaches it (typed and named by the first such
 *    array the function reaches; the others, which CUDA lays at the same address, are
 *    bitcasts of it); the runtime passes the launch's dynamic size as that kernel argument
 *    (clSetKernelArg(k, nparams, bytes, NULL)), as for the OpenCL C back end, and device
 *    functions receive it from their callers.
 *  - host-filled constants (no initializer; the host writes them through kcrt_module_symbol):
 *    a hidden UniformConstant pointer parameter of every function that reaches one, after the
 *    function's own and before the dynamic shared one (KFunc.symbols order), as in the
 *    OpenCL C back end; the runtime binds the symbol's buffer to the kernel argument.
 *  - struct kernel parameters: Function pointers with FuncParamAttr ByVal, as clang and
 *    llvm-spirv pass OpenCL structs by value.
 *  - local-memory kernel parameters (`shared T *`, OpenCL's `__local T *`): a Workgroup
 *    pointer parameter in its place among the user's, before the hidden trailing ones; the
 *    host gives its size with clSetKernelArg(i, size, NULL).
 *  - reqd_work_group_size(x, y, z) (KFunc.reqd_block): OpExecutionMode LocalSize, which
 *    llvm-spirv turns into reqd_work_group_size metadata (CL_KERNEL_COMPILE_WORK_GROUP_SIZE).
 *  - vectors: OpTypeVector (Vector16 for 8 and 16 components). llvm-spirv's data layout
 *    gives <3 x T> a 4-vector's size and alignment, so KIR's OpenCL layout holds in structs
 *    and arrays without Offset decorations. Two llvm-spirv 15 limits shape the code
 *    (spirv_expr.c): run-time vectors are built by OpCompositeInsert, never
 *    OpCompositeConstruct, and OpVectorShuffle always takes two vectors of one type. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_gen.h"

/* ---------------------------------------------------------------- diagnostics */

void sg_error(SG *g, KLoc loc, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  diag_error(loc, "%s", buf);
  g->failed = true;
}

/* ---------------------------------------------------------------- types */

int sg_bits(const KType *t) {
  if (t->kind == KT_VEC) t = t->base; /* a vector: its components' width */
  if (t->kind == KT_BOOL) return 8;
  return t->size * 8;
}

uint32_t sg_u32(SG *g, uint32_t v) {
  return spv_const_int(&g->m, 32, v);
}
uint32_t sg_u64(SG *g, uint64_t v) {
  return spv_const_int(&g->m, 64, v);
}

SpvStorageClass sg_storage(SG *g, KAddrSpace as, KLoc loc) {
  /* Vulkan: buffers are reached through device addresses (PhysicalStorageBuffer), which keep
   * C's pointer arithmetic; `constant` pointers are buffers too (a module's own constant
   * arrays are Private variables, indexed in place: spirv_vulkan.c), and so are pointers to
   * private memory, which point into the invocation's frame, and to shared memory, which point
   * into the workgroup's block (spirv_vulkan.c): a Workgroup variable is only indexed in place. */
  if (g->vk && as != KAS_GENERIC) return SpvStorageClassPhysicalStorageBuffer;
  switch (as) {
  case KAS_GLOBAL: return SpvStorageClassCrossWorkgroup;
  case KAS_SHARED: return SpvStorageClassWorkgroup;
  case KAS_CONSTANT: return SpvStorageClassUniformConstant;
  case KAS_PRIVATE: return SpvStorageClassFunction;
  case KAS_GENERIC: break;
  }
  /* The address-space pass rejects generic pointers when the target has none; one that
   * reaches here slipped through it. */
  sg_error(g, loc, "pointer with no known address space: SPIR-V for OpenCL needs one");
  return SpvStorageClassCrossWorkgroup;
}

static SStruct *struct_slot(SG *g, const KStruct *st) {
  for (int i = 0; i < g->nstructs; i++)
    if (g->structs[i].ks == st) return &g->structs[i];
  return NULL;
}

static uint32_t struct_type(SG *g, const KStruct *st) {
  SStruct *s = struct_slot(g, st);
  if (s) return s->id;
  if (g->nstructs == g->capstructs) {
    g->capstructs = g->capstructs ? 2 * g->capstructs : 8;
    g->structs = realloc(g->structs, (size_t)g->capstructs * sizeof *g->structs);
  }
  g->structs[g->nstructs++] = (SStruct){.ks = st, .building = true};
  /* SPIR-V for OpenCL lays structs out naturally and has no alignment decoration. */
  if (!kir_struct_is_natural(st))
    sg_error(g, st->loc,
             "%s %s has an over-aligned member (an __align__ struct inside it) whose layout "
             "SPIR-V cannot express",
             kir_struct_kw(st), st->name);
  uint32_t id;
  if (st->is_union) {
    /* SPIR-V has no union: one member, an array of units of the union's alignment (its
       members are reached through a bitcast of its address; docs/design.md, "Unions"). The
       members' types are made too, for the pointers to them. */
    for (int i = 0; i < st->nfields; i++) sg_type(g, st->fields[i].type);
    uint32_t arr = spv_type_array(&g->m, sg_union_unit(g, st), (uint64_t)(st->size / st->align));
    id = spv_type_struct(&g->m, &arr, 1);
  } else {
    uint32_t *mem = calloc((size_t)st->nfields + 1, sizeof *mem);
    for (int i = 0; i < st->nfields; i++) mem[i] = sg_type(g, st->fields[i].type);
    id = spv_type_struct(&g->m, mem, st->nfields);
    free(mem);
  }
  s = struct_slot(g, st); /* the array may have moved */
  s->id = id;
  s->building = false;
  char name[300];
  snprintf(name, sizeof name, "%s.%s", kir_struct_kw(st), st->name);
  spv_name(&g->m, id, name);
  for (int i = 0; i < st->nfields && !st->is_union; i++)
    spv_member_name(&g->m, id, (uint32_t)i, st->fields[i].name);
  /* Vulkan lays out memory that buffers hold explicitly: KIR's offsets (a union's one
   * member, its units, at 0). */
  for (int i = 0; g->vk && i < (st->is_union ? 1 : st->nfields); i++) {
    uint32_t off = st->is_union ? 0 : (uint32_t)st->fields[i].offset;
    uint32_t ops[4] = {id, (uint32_t)i, SpvDecorationOffset, off};
    spv_emit(&g->m, SPV_SEC_ANNOTATION, SpvOpMemberDecorate, ops, 4);
  }
  /* Pointers to it announced while its members were lowered get their definition now. */
  for (int i = 0; i < g->nfwd; i++)
    if (g->fwd[i].ks == st) {
      uint32_t ops[2] = {(uint32_t)g->fwd[i].sc, id};
      spv_intern_as(&g->m, SpvOpTypePointer, 0, ops, 2, g->fwd[i].id);
    }
  return id;
}

uint32_t sg_union_unit(SG *g, const KStruct *st) {
  if (st->align <= 8) return spv_type_int(&g->m, st->align * 8);
  int n = st->align / 4;
  if (n > 4 && g->vk) { /* Shader's vectors stop at 4 components: an array of uint4s */
    uint32_t id = spv_type_array(&g->m, spv_type_vector(&g->m, spv_type_int(&g->m, 32), 4),
                                 (uint64_t)(n / 4));
    sg_vk_stride(g, id, 16);
    return id;
  }
  if (n > 4) spv_capability(&g->m, SpvCapabilityVector16);
  return spv_type_vector(&g->m, spv_type_int(&g->m, 32), n);
}

uint32_t sg_ptr_type(SG *g, SpvStorageClass sc, const KType *pointee) {
  if (pointee->kind == KT_STRUCT) {
    SStruct *s = struct_slot(g, pointee->st);
    if (s && s->building) {
      /* A struct that points to itself: the pointer type comes before the struct. */
      for (int i = 0; i < g->nfwd; i++)
        if (g->fwd[i].ks == pointee->st && g->fwd[i].sc == sc) return g->fwd[i].id;
      uint32_t id = spv_id(&g->m);
      uint32_t ops[2] = {id, (uint32_t)sc};
      spv_emit(&g->m, SPV_SEC_GLOBAL, SpvOpTypeForwardPointer, ops, 2);
      if (g->nfwd == g->capfwd) {
        g->capfwd = g->capfwd ? 2 * g->capfwd : 4;
        g->fwd = realloc(g->fwd, (size_t)g->capfwd * sizeof *g->fwd);
      }
      g->fwd[g->nfwd++] = (SForward){pointee->st, sc, id};
      return id;
    }
  }
  uint32_t id = spv_type_ptr(&g->m, sc, sg_pointee(g, pointee));
  /* Pointer arithmetic (OpPtrAccessChain) on a buffer address steps by the pointer type's
   * ArrayStride: the element's C size. */
  if (g->vk && sc == SpvStorageClassPhysicalStorageBuffer)
    sg_vk_stride(g, id, pointee->kind == KT_VOID ? 1u : (uint32_t)pointee->size);
  return id;
}

uint32_t sg_pointee(SG *g, const KType *t) {
  if (t->kind == KT_VOID) return spv_type_int(&g->m, 8); /* void * is char * underneath */
  if (t->kind == KT_ARRAY && t->len < 0) return sg_type(g, t->base);
  return sg_type(g, t);
}

uint32_t sg_image_type(SG *g, const KType *t) {
  /* The OpenCL SPIR-V environment's images: sampled type void, no depth, not multisampled,
   * Sampled 0 (known at run time), format Unknown, and the kernel's access qualifier. */
  SpvModule *m = &g->m;
  KImageDim d = (KImageDim)t->len;
  spv_capability(m, SpvCapabilityImageBasic);
  SpvDim dim = SpvDim2D;
  if (d == KIMG_1D || d == KIMG_1D_ARRAY) dim = SpvDim1D;
  if (d == KIMG_1D_BUFFER) dim = SpvDimBuffer;
  if (d == KIMG_3D) dim = SpvDim3D;
  if (dim == SpvDim1D) spv_capability(m, SpvCapabilityImage1D);
  if (dim == SpvDimBuffer) spv_capability(m, SpvCapabilityImageBuffer);
  SpvAccessQualifier acc = t->qual == KIMG_READ    ? SpvAccessQualifierReadOnly
                           : t->qual == KIMG_WRITE ? SpvAccessQualifierWriteOnly
                                                   : SpvAccessQualifierReadWrite;
  if (acc == SpvAccessQualifierReadWrite) spv_capability(m, SpvCapabilityImageReadWrite);
  uint32_t ops[8] = {spv_type_void(m),
                     (uint32_t)dim,
                     0,
                     kir_image_arrayed(d) ? 1u : 0u,
                     0,
                     0,
                     (uint32_t)SpvImageFormatUnknown,
                     (uint32_t)acc};
  return spv_intern(m, SpvOpTypeImage, 0, ops, 8);
}

uint32_t sg_type(SG *g, const KType *t) {
  SpvModule *m = &g->m;
  switch (t->kind) {
  case KT_VOID: return spv_type_void(m);
  case KT_BOOL:
  case KT_I8:
  case KT_U8: return spv_type_int(m, 8);
  case KT_I16:
  case KT_U16:
  case KT_F16: /* never reaches a back end (fe_lower_half): its bits */ return spv_type_int(m, 16);
  case KT_I32:
  case KT_U32: return spv_type_int(m, 32);
  case KT_I64:
  case KT_U64: return spv_type_int(m, 64);
  case KT_F32: return spv_type_float(m, 32);
  case KT_F64: return spv_type_float(m, 64);
  case KT_PTR: return sg_ptr_type(g, sg_storage(g, t->as, (KLoc){0}), t->base);
  case KT_ARRAY:
    /* T x[] only names dynamic shared memory, which is reached through its pointer. */
    {
      uint32_t id = spv_type_array(m, sg_type(g, t->base), t->len > 0 ? (uint64_t)t->len : 1);
      if (g->vk) sg_vk_stride(g, id, (uint32_t)t->base->size); /* explicit layout in buffers */
      return id;
    }
  case KT_STRUCT: return struct_type(g, t->st);
  case KT_VEC:
    /* OpenCL's 3-vectors take 4 slots in memory; llvm-spirv's data layout (v96:128...)
     * gives <3 x T> that size and alignment too, so KIR's layout holds without Offset
     * decorations. */
    if (sg_wide(g, t)) {
      /* Shader's vectors have at most 4 components (Vector16 is the Kernel capability's): an
       * 8 or 16 one is an array of 4-vectors, which lays its components out contiguously as
       * OpenCL does (docs/design.md, "Vectors of 8 and 16 components on Vulkan"). */
      uint32_t chunk = spv_type_vector(m, sg_type(g, t->base), 4);
      uint32_t id = spv_type_array(m, chunk, (uint64_t)(t->len / 4));
      sg_vk_stride(g, id, (uint32_t)(4 * t->base->size));
      return id;
    }
    if (t->len > 4) spv_capability(m, SpvCapabilityVector16);
    return spv_type_vector(m, sg_type(g, t->base), (int)t->len);
  case KT_IMAGE: return g->vk ? sg_vk_image_type(g) : sg_image_type(g, t);
  case KT_SAMPLER: /* Vulkan: its CLK_* bits, which the software sampling reads */
    return g->vk ? spv_type_int(m, 32) : spv_intern(m, SpvOpTypeSampler, 0, NULL, 0);
  }
  return spv_type_int(m, 32);
}

/* ---------------------------------------------------------------- instruction emission */

static SFile *file_of(SG *g, const char *name) {
  for (int i = 0; i < g->nfiles; i++)
    if (!strcmp(g->files[i].name, name)) return &g->files[i];
  if (g->nfiles == g->capfiles) {
    g->capfiles = g->capfiles ? 2 * g->capfiles : 4;
    g->files = realloc(g->files, (size_t)g->capfiles * sizeof *g->files);
  }
  SFile *f = &g->files[g->nfiles++];
  f->name = name;
  f->id = spv_string(&g->m, name);
  return f;
}

/* OpLine ahead of the instruction about to be written, when the source line changed; its
 * scope ends with the block, so every block starts without one. */
static void line(SG *g) {
  if (!g->loc.file || g->loc.line <= 0) return;
  uint32_t file = file_of(g, g->loc.file)->id;
  if (file == g->line_file && g->loc.line == g->line_no) return;
  g->line_file = file;
  g->line_no = g->loc.line;
  uint32_t ops[3] = {file, (uint32_t)g->loc.line, (uint32_t)(g->loc.col > 0 ? g->loc.col : 0)};
  spw_inst(&g->body, SpvOpLine, ops, 3);
}

static void open_block(SG *g, uint32_t label) {
  spw_inst(&g->body, SpvOpLabel, &label, 1);
  g->open = true;
  g->label = label;
  g->line_file = 0;
  g->line_no = 0;
}

/* Code after a return/break/continue is unreachable but still C: it goes in a block of its
 * own that nothing branches to. */
void sg_ensure_block(SG *g) {
  if (!g->open) open_block(g, spv_id(&g->m));
}

void sg_start_block(SG *g, uint32_t label) {
  if (g->open) sg_branch(g, label);
  open_block(g, label);
}

static void terminate(SG *g, SpvOp op, int n, const uint32_t *ops) {
  sg_ensure_block(g);
  line(g);
  if (!spw_inst(&g->body, op, ops, n)) g->m.too_long = true;
  g->open = false;
}

void sg_branch(SG *g, uint32_t label) {
  if (g->open) terminate(g, SpvOpBranch, 1, &label);
}

void sg_branch_cond(SG *g, uint32_t cond, uint32_t t, uint32_t f) {
  uint32_t ops[3] = {cond, t, f};
  terminate(g, SpvOpBranchConditional, 3, ops);
}

/* A merge instruction and the branch it must immediately precede (no OpLine between). */
static void terminate_merged(SG *g, SpvOp merge_op, int nm, const uint32_t *mops, SpvOp op, int n,
                             const uint32_t *ops) {
  sg_ensure_block(g);
  line(g);
  spw_inst(&g->body, merge_op, mops, nm);
  if (!spw_inst(&g->body, op, ops, n)) g->m.too_long = true;
  g->open = false;
}

void sg_branch_cond_merge(SG *g, uint32_t cond, uint32_t t, uint32_t f, uint32_t merge) {
  if (!g->vk) {
    sg_branch_cond(g, cond, t, f);
    return;
  }
  uint32_t mops[2] = {merge, SpvSelectionControlMaskNone}, ops[3] = {cond, t, f};
  terminate_merged(g, SpvOpSelectionMerge, 2, mops, SpvOpBranchConditional, 3, ops);
}

void sg_loop_header(SG *g, uint32_t merge, uint32_t cont, uint32_t body) {
  uint32_t mops[3] = {merge, cont, SpvLoopControlMaskNone};
  terminate_merged(g, SpvOpLoopMerge, 3, mops, SpvOpBranch, 1, &body);
}

uint32_t sg_op(SG *g, SpvOp op, uint32_t rtype, int n, const uint32_t *ops) {
  sg_ensure_block(g);
  if (op != SpvOpPhi) line(g); /* OpPhi must lead its block; keep it tidy */
  uint32_t id = spv_id(&g->m);
  if (n + 3 > 0xffff) {
    g->m.too_long = true;
    return id;
  }
  spw_push(&g->body, ((uint32_t)(n + 3) << SpvWordCountShift) | (uint32_t)op);
  spw_push(&g->body, rtype);
  spw_push(&g->body, id);
  spw_append(&g->body, ops, (size_t)n);
  /* Vulkan drivers may fuse a*b+c, and rewrite float arithmetic as if it were on real numbers
   * (Mesa folds x + 0.0 to x, losing -0.0), unless an instruction is NoContraction ("exact" in
   * Mesa): every float operation is, except under -ffast-math (fusion is only a permission). */
  if (g->vk_no_contract &&
      (op == SpvOpFMul || op == SpvOpFAdd || op == SpvOpFSub || op == SpvOpFDiv ||
       op == SpvOpFRem || op == SpvOpFMod || op == SpvOpFNegate))
    spv_decorate(&g->m, id, SpvDecorationNoContraction, NULL, 0);
  return id;
}

uint32_t sg_opv(SG *g, SpvOp op, uint32_t rtype, int n, ...) {
  uint32_t ops[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n && i < 16; i++) ops[i] = va_arg(ap, uint32_t);
  va_end(ap);
  return sg_op(g, op, rtype, n, ops);
}

void sg_inst(SG *g, SpvOp op, int n, const uint32_t *ops) {
  sg_ensure_block(g);
  line(g);
  if (!spw_inst(&g->body, op, ops, n)) g->m.too_long = true;
}

void sg_instv(SG *g, SpvOp op, int n, ...) {
  uint32_t ops[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n && i < 16; i++) ops[i] = va_arg(ap, uint32_t);
  va_end(ap);
  sg_inst(g, op, n, ops);
}

static int mem_align(const KType *t) {
  return t->align > 0 ? t->align : 1;
}

uint32_t sg_load(SG *g, const KType *t, uint32_t ptr, bool is_volatile) {
  uint32_t access = SpvMemoryAccessAlignedMask | (is_volatile ? SpvMemoryAccessVolatileMask : 0);
  uint32_t ops[3] = {ptr, access, (uint32_t)mem_align(t)};
  return sg_op(g, SpvOpLoad, sg_type(g, t), 3, ops);
}

void sg_store(SG *g, const KType *t, uint32_t ptr, uint32_t val, bool is_volatile) {
  uint32_t access = SpvMemoryAccessAlignedMask | (is_volatile ? SpvMemoryAccessVolatileMask : 0);
  uint32_t ops[4] = {ptr, val, access, (uint32_t)mem_align(t)};
  sg_inst(g, SpvOpStore, 4, ops);
}

void sg_fast(SG *g, uint32_t id) {
  if (!g->o->fast_math || g->vk) return; /* FPFastMathMode is the Kernel capability's */
  uint32_t mode = SpvFPFastMathModeNotNaNMask | SpvFPFastMathModeNotInfMask |
                  SpvFPFastMathModeNSZMask | SpvFPFastMathModeAllowRecipMask |
                  SpvFPFastMathModeFastMask;
  spv_decorate(&g->m, id, SpvDecorationFPFastMathMode, &mode, 1);
}

uint32_t sg_ocl_import(SG *g) {
  if (g->vk) {
    /* Callers of OpenCL.std that have no GLSL.std.450 counterpart mapped yet. */
    if (!g->failed)
      sg_error(g, g->loc, "this operation is not supported by the Vulkan SPIR-V form yet");
    return sg_vk_glsl_import(g);
  }
  if (!g->ocl) {
    g->ocl = spv_id(&g->m);
    SpvWords *b = &g->m.sec[SPV_SEC_IMPORT];
    spw_push(b, ((uint32_t)(2 + spw_string_words("OpenCL.std")) << SpvWordCountShift) |
                    SpvOpExtInstImport);
    spw_push(b, g->ocl);
    spw_string(b, "OpenCL.std");
  }
  return g->ocl;
}

/* ---------------------------------------------------------------- module-level variables */

uint32_t sg_global_var(SG *g, uint32_t ptrtype, SpvStorageClass sc, uint32_t init) {
  uint32_t id = spv_id(&g->m);
  uint32_t ops[4] = {ptrtype, id, (uint32_t)sc, init};
  spv_emit(&g->m, SPV_SEC_GLOBAL, SpvOpVariable, ops, init ? 4 : 3);
  return id;
}

/* The builtin Input variable of slot k of SG.builtin, made at its first use: a `type`
 * decorated BuiltIn b, and Constant in the OpenCL flavour (as llvm-spirv writes them). */
uint32_t sg_builtin_input(SG *g, int k, uint32_t type, SpvBuiltIn b, const char *name) {
  if (g->builtin[k]) return g->builtin[k];
  uint32_t var =
      sg_global_var(g, spv_type_ptr(&g->m, SpvStorageClassInput, type), SpvStorageClassInput, 0);
  uint32_t w = (uint32_t)b;
  spv_decorate(&g->m, var, SpvDecorationBuiltIn, &w, 1);
  if (!g->vk) spv_decorate(&g->m, var, SpvDecorationConstant, NULL, 0);
  spv_name(&g->m, var, name);
  return g->builtin[k] = var;
}

/* String literals are read-only UniformConstant char arrays with a terminating NUL, shared
 * between equal literals. */
uint32_t sg_string_literal(SG *g, const char *s, size_t len) {
  for (int i = 0; i < g->nstrs; i++)
    if (g->strs[i].len == len && !memcmp(g->strs[i].s, s, len)) return g->strs[i].var;
  uint32_t i8 = spv_type_int(&g->m, 8);
  uint32_t *el = calloc(len + 1, sizeof *el);
  for (size_t i = 0; i <= len; i++) el[i] = spv_const_int(&g->m, 8, i < len ? (uint8_t)s[i] : 0);
  uint32_t aty = spv_type_array(&g->m, i8, len + 1);
  uint32_t init = spv_const_composite(&g->m, aty, el, (int)len + 1);
  free(el);
  uint32_t var = sg_global_var(g, spv_type_ptr(&g->m, SpvStorageClassUniformConstant, aty),
                               SpvStorageClassUniformConstant, init);
  spv_decorate(&g->m, var, SpvDecorationConstant, NULL, 0);
  if (g->nstrs == g->capstrs) {
    g->capstrs = g->capstrs ? 2 * g->capstrs : 8;
    g->strs = realloc(g->strs, (size_t)g->capstrs * sizeof *g->strs);
  }
  g->strs[g->nstrs++] = (SStr){s, len, var};
  char name[32];
  snprintf(name, sizeof name, ".str.%d", g->nstrs - 1);
  spv_name(&g->m, var, name);
  return var;
}

static SVar *svar(KVar *v) {
  SVar *s = kir_alloc(sizeof *s);
  v->aux = s;
  return s;
}

/* A constant table's initializer as a SPIR-V constant (zero after the error when it is not
 * one). */
static uint32_t constant_init(SG *g, const KVar *v) {
  KLoc saved = g->loc;
  g->loc = v->loc;
  uint32_t init = sg_const_init(g, v->type, v->init);
  g->loc = saved;
  if (!init) {
    sg_error(g, v->loc, "initializer of constant '%s' is not a constant expression", v->name);
    init = sg_zero(g, v->type);
  }
  return init;
}
static void gen_globals(SG *g) {
  for (int i = 0; i < g->km->globals.n; i++) {
    KVar *v = g->km->globals.v[i];
    SVar *s = svar(v);
    /* Vulkan: its buffer's device address; dynamic shared memory in the workgroup's block */
    s->psb = g->vk && (v->host_filled || (v->kind == KV_SHARED && v->is_dynamic && g->dyn_block));
    if ((v->kind == KV_SHARED && v->is_dynamic) || v->host_filled)
      continue; /* a parameter, made per function */
    char name[512];
    if (v->kind == KV_SHARED && v->owner)
      snprintf(name, sizeof name, "%s.%s", v->owner->name, v->name);
    else
      snprintf(name, sizeof name, "%s", v->name);
    uint32_t ty = sg_type(g, v->type);
    uint32_t align = (uint32_t)mem_align(v->type);
    if (v->kind == KV_SHARED && sg_vk_shared_escaping(g, v)) {
      s->psb = true; /* in the workgroup's block: its pointer is made per function */
      s->wg = sg_vk_shared_block(g, v);
      continue;
    } else if (v->kind == KV_SHARED) {
      s->ptr = s->wg = sg_global_var(g, spv_type_ptr(&g->m, SpvStorageClassWorkgroup, ty),
                                     SpvStorageClassWorkgroup, 0);
    } else if (g->vk) {
      /* Vulkan has no UniformConstant data: a constant table is a Private variable holding
       * its value (indexed in place, never through a `constant` pointer). */
      uint32_t init = constant_init(g, v);
      s->ptr = sg_global_var(g, spv_type_ptr(&g->m, SpvStorageClassPrivate, ty),
                             SpvStorageClassPrivate, init);
      s->val = init; /* what a copy in the frame starts as (sg_vk_module_escapes) */
      spv_name(&g->m, s->ptr, name);
      continue; /* Alignment and Constant are the Kernel capability's decorations */
    } else {
      uint32_t init = constant_init(g, v);
      s->ptr = sg_global_var(g, spv_type_ptr(&g->m, SpvStorageClassUniformConstant, ty),
                             SpvStorageClassUniformConstant, init);
      spv_decorate(&g->m, s->ptr, SpvDecorationConstant, NULL, 0);
    }
    if (!g->vk) /* Alignment is the Kernel capability's */
      spv_decorate(&g->m, s->ptr, SpvDecorationAlignment, &align, 1);
    spv_name(&g->m, s->ptr, name);
  }
}

/* ---------------------------------------------------------------- functions */

/* A struct kernel parameter passed as a ByVal pointer (OpenCL); Vulkan's arrive by value from
 * the push constants. */
static bool is_byval(const SG *g, const KFunc *f, const KVar *p) {
  return !g->vk && f->is_kernel && p->type->kind == KT_STRUCT;
}

KVar *sg_dyn_var(const KFunc *f) {
  if (!f->uses_dynamic_shared) return NULL;
  for (int i = 0; i < f->shared.n; i++)
    if (((KVar *)f->shared.v[i])->is_dynamic) return f->shared.v[i];
  return NULL;
}

static uint32_t dyn_param_type(SG *g, const KVar *v) {
  return sg_ptr_type(g, SpvStorageClassWorkgroup, v->type->base);
}

static uint32_t symbol_param_type(SG *g, const KVar *v) {
  if (g->vk) return sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, v->type);
  return sg_ptr_type(
      g, v->is_mutable ? SpvStorageClassCrossWorkgroup : SpvStorageClassUniformConstant, v->type);
}

/* Static shared arrays passed as parameters (OpenCL only): not the dynamic one. Vulkan's
 * device functions use the module's Workgroup variables directly, as glslang writes shared
 * arrays: NVIDIA's Vulkan driver drops stores after a call that passes one as a parameter
 * (docs/driver-bugs.md 24), and those in the workgroup's block are reached through their
 * address anyway. */
static bool shared_param(const SG *g, const KVar *v) {
  return !v->is_dynamic && !g->vk;
}

int sg_nshared_params(const SG *g, const KFunc *f) {
  int n = 0;
  for (int i = 0; !f->is_kernel && i < f->shared.n; i++) n += shared_param(g, f->shared.v[i]);
  return n;
}

KVar *sg_shared_param(const SG *g, const KFunc *f, int i) {
  for (int j = 0; j < f->shared.n; j++) {
    KVar *v = f->shared.v[j];
    if (shared_param(g, v) && i-- == 0) return v;
  }
  return NULL;
}

static uint32_t shared_param_type(SG *g, const KVar *v) {
  return sg_ptr_type(g, SpvStorageClassWorkgroup, v->type);
}

static uint32_t func_type(SG *g, KFunc *f) {
  int nsh = sg_nshared_params(g, f);
  uint32_t *pt = calloc((size_t)f->nparams + (size_t)f->symbols.n + (size_t)nsh + 2, sizeof *pt);
  int n = 0;
  for (int i = 0; i < f->nparams; i++) {
    KVar *p = f->params[i];
    pt[n++] =
        is_byval(g, f, p) ? sg_ptr_type(g, SpvStorageClassFunction, p->type) : sg_type(g, p->type);
  }
  for (int i = 0; i < f->symbols.n; i++) pt[n++] = symbol_param_type(g, f->symbols.v[i]);
  for (int i = 0; i < nsh; i++) pt[n++] = shared_param_type(g, sg_shared_param(g, f, i));
  KVar *dv = g->vk ? NULL : sg_dyn_var(f); /* Vulkan: a module variable (spirv_vulkan.c) */
  if (dv) pt[n++] = dyn_param_type(g, dv);
  uint32_t id = spv_type_func(&g->m, sg_type(g, f->ret), pt, n);
  free(pt);
  return id;
}

/* Parameters that need storage: assigned, incremented, address taken, or an array inside
 * them indexed (which needs the array's address). */
typedef struct ParamUse {
  KFunc *f;
  bool *needs;
} ParamUse;

static void mark_root(ParamUse *u, KExpr *e) {
  while (e && (e->kind == KE_MEMBER || e->kind == KE_SWIZZLE)) e = e->a;
  if (!e || e->kind != KE_VAR) return;
  for (int i = 0; i < u->f->nparams; i++)
    if (u->f->params[i] == e->var) u->needs[i] = true;
}

static void param_use(KExpr *e, void *ctx) {
  ParamUse *u = ctx;
  if (e->kind == KE_ASSIGN || e->kind == KE_INCDEC || e->kind == KE_ADDR) mark_root(u, e->a);
  if (e->kind == KE_CAST && e->a->type->kind == KT_ARRAY) mark_root(u, e->a);
}

/* Vulkan asks every buffer pointer that is a parameter (or held in a variable) to say
 * whether it may alias: C's restrict says it does not. */
static void vk_aliasing(SG *g, uint32_t id, const KType *t, SpvDecoration aliased,
                        SpvDecoration restrict_) {
  if (!g->vk || t->kind != KT_PTR ||
      sg_storage(g, t->as, (KLoc){0}) != SpvStorageClassPhysicalStorageBuffer)
    return;
  spv_decorate(&g->m, id, (t->qual & KQ_RESTRICT) ? restrict_ : aliased, NULL, 0);
}

static void local_var(SG *g, KVar *v) {
  if (g->vk && sg_vk_escaping(g, v)) {
    /* Its storage is in the invocation's frame: sg_vk_frame_enter makes the pointer. */
    SVar *s = svar(v);
    s->psb = true;
    return;
  }
  SVar *s = svar(v);
  s->ptr = spv_id(&g->m);
  uint32_t ops[3] = {sg_ptr_type(g, SpvStorageClassFunction, v->type), s->ptr,
                     SpvStorageClassFunction};
  spw_inst(&g->vars, SpvOpVariable, ops, 3);
  spv_name(&g->m, s->ptr, v->name);
  vk_aliasing(g, s->ptr, v->type, SpvDecorationAliasedPointer, SpvDecorationRestrictPointer);
}

uint32_t sg_temp_var(SG *g, const KType *t) {
  uint32_t id = spv_id(&g->m);
  uint32_t ops[3] = {sg_ptr_type(g, SpvStorageClassFunction, t), id, SpvStorageClassFunction};
  spw_inst(&g->vars, SpvOpVariable, ops, 3);
  vk_aliasing(g, id, t, SpvDecorationAliasedPointer, SpvDecorationRestrictPointer);
  return id;
}

static void collect_locals(SG *g, KStmt *s) {
  if (!s) return;
  if (s->kind == KS_DECL && s->var && s->var->kind == KV_LOCAL) local_var(g, s->var);
  for (int i = 0; i < s->list.n; i++) collect_locals(g, s->list.v[i]);
  collect_locals(g, s->init_stmt);
  collect_locals(g, s->then);
  collect_locals(g, s->els);
  collect_locals(g, s->body);
}

static void gen_stmt(SG *g, KStmt *s);

static void define_func(SG *g, KFunc *f) {
  g->kf = f;
  g->brk = g->cont = 0;
  g->dyn = 0;
  g->dyn_var = NULL;
  g->open = false;
  g->vars.n = g->body.n = 0;
  g->loc = f->loc;
  uint32_t fid = (uint32_t)(uintptr_t)f->aux;
  g->fn_ret = sg_type(g, f->ret);
  SpvWords *out = &g->m.sec[SPV_SEC_FUNCTION];
  /* No DontInline for KFunc.is_cold: PoCL runs only functions inlined into their kernel
   * when they read work-item ids (else "undefined symbol: _group_id_x", and an abort). */
  uint32_t head[4] = {g->fn_ret, fid, SpvFunctionControlMaskNone, func_type(g, f)};
  spw_inst(out, SpvOpFunction, head, 4);

  if (g->vk) sg_vk_escapes(g, f);
  ParamUse use = {f, calloc((size_t)f->nparams + 1, sizeof(bool))};
  kir_visit_stmt(f->body, param_use, &use);
  uint32_t *pid = calloc((size_t)f->nparams + 1, sizeof *pid);
  for (int i = 0; i < f->nparams; i++) {
    KVar *p = f->params[i];
    bool byval = is_byval(g, f, p);
    pid[i] = spv_id(&g->m);
    uint32_t ops[2] = {
        byval ? sg_ptr_type(g, SpvStorageClassFunction, p->type) : sg_type(g, p->type), pid[i]};
    spw_inst(out, SpvOpFunctionParameter, ops, 2);
    spv_name(&g->m, pid[i], p->name);
    vk_aliasing(g, pid[i], p->type, SpvDecorationAliased, SpvDecorationRestrict);
    SVar *s = svar(p);
    if (byval) {
      uint32_t attr = SpvFunctionParameterAttributeByVal;
      spv_decorate(&g->m, pid[i], SpvDecorationFuncParamAttr, &attr, 1);
      uint32_t align = (uint32_t)mem_align(p->type);
      spv_decorate(&g->m, pid[i], SpvDecorationAlignment, &align, 1);
      /* PoCL 3.1 shares the ByVal copy between work-items (docs/driver-bugs.md): a struct
       * the kernel writes gets a private copy. */
      if (use.needs[i])
        local_var(g, p);
      else
        s->ptr = pid[i];
    } else if (use.needs[i]) {
      local_var(g, p);
    } else {
      s->val = pid[i];
    }
    if (!g->vk && f->is_kernel && p->type->kind == KT_PTR && (p->type->qual & KQ_RESTRICT)) {
      uint32_t attr = SpvFunctionParameterAttributeNoAlias;
      spv_decorate(&g->m, pid[i], SpvDecorationFuncParamAttr, &attr, 1);
      /* const alone does not promise that nothing writes (C lets a cast drop it); with
       * restrict nobody else may write the data either. */
      if ((p->type->qual & KQ_CONST) && !(p->type->qual & KQ_VOLATILE)) {
        attr = SpvFunctionParameterAttributeNoWrite;
        spv_decorate(&g->m, pid[i], SpvDecorationFuncParamAttr, &attr, 1);
      }
    }
  }
  /* A host-filled constant's storage is, within this function, its parameter. */
  for (int i = 0; i < f->symbols.n; i++) {
    KVar *v = f->symbols.v[i];
    SVar *s = v->aux;
    s->ptr = spv_id(&g->m);
    uint32_t ops[2] = {symbol_param_type(g, v), s->ptr};
    spw_inst(out, SpvOpFunctionParameter, ops, 2);
    spv_name(&g->m, s->ptr, v->name);
    if (g->vk) spv_decorate(&g->m, s->ptr, SpvDecorationAliased, NULL, 0);
  }
  /* A static shared array is, in an OpenCL device function, its parameter; elsewhere, itself. */
  for (int i = 0; i < f->shared.n; i++) {
    KVar *v = f->shared.v[i];
    SVar *s = v->aux;
    if (!v->is_dynamic && s && !s->psb) s->ptr = s->wg;
  }
  for (int i = 0, nsh = sg_nshared_params(g, f); i < nsh; i++) {
    KVar *v = sg_shared_param(g, f, i);
    SVar *s = v->aux;
    s->ptr = spv_id(&g->m);
    uint32_t ops[2] = {shared_param_type(g, v), s->ptr};
    spw_inst(out, SpvOpFunctionParameter, ops, 2);
    spv_name(&g->m, s->ptr, v->name);
  }
  g->dyn_var = sg_dyn_var(f);
  if (g->dyn_var && g->vk) {
    g->dyn = sg_vk_dyn_shared(g, g->dyn_var);
  } else if (g->dyn_var) {
    g->dyn = spv_id(&g->m);
    uint32_t ops[2] = {dyn_param_type(g, g->dyn_var), g->dyn};
    spw_inst(out, SpvOpFunctionParameter, ops, 2);
    spv_name(&g->m, g->dyn, g->dyn_var->name);
  }
  collect_locals(g, f->body);

  uint32_t entry = spv_id(&g->m);
  open_block(g, entry);
  if (g->vk) sg_vk_frame_enter(g);
  /* Parameters that need storage start as a copy of the argument. */
  for (int i = 0; i < f->nparams; i++) {
    SVar *s = f->params[i]->aux;
    if (!use.needs[i]) continue;
    if (is_byval(g, f, f->params[i])) {
      /* A load and a store: llvm-spirv 15 asserts on OpCopyMemory here. */
      uint32_t v = sg_load(g, f->params[i]->type, pid[i], false);
      sg_store(g, f->params[i]->type, s->ptr, v, false);
    } else {
      sg_store(g, f->params[i]->type, s->ptr, pid[i], false);
    }
  }
  free(use.needs);
  free(pid);
  kir_reset_labels(f->body);
  gen_stmt(g, f->body);
  if (g->open) {
    if (f->ret->kind == KT_VOID)
      terminate(g, SpvOpReturn, 0, NULL);
    else {
      /* Falling off the end of a non-void function: C leaves the value undefined. */
      uint32_t u = spv_undef(&g->m, g->fn_ret);
      terminate(g, SpvOpReturnValue, 1, &u);
    }
  }
  /* The entry block's label, its variables, then the rest of the body. */
  spw_append(out, g->body.w, 2); /* OpLabel entry */
  spw_append(out, g->vars.w, g->vars.n);
  spw_append(out, g->body.w + 2, g->body.n - 2);
  spw_inst(out, SpvOpFunctionEnd, NULL, 0);
  g->kf = NULL;
}

/* ---------------------------------------------------------------- statements */

/* Whether control cannot run past the end of s (it ends in break, continue or return). */
static bool ends_flow(const KStmt *s) {
  while (s && s->kind == KS_BLOCK && s->list.n > 0) s = s->list.v[s->list.n - 1];
  return s && (s->kind == KS_BREAK || s->kind == KS_CONTINUE || s->kind == KS_RETURN);
}

/* SPIR-V's structured switch lists default first and lets a case fall through only into the
 * next target of that list, so an OpSwitch takes the C switches that fit: every label
 * directly in the switch's block, and a default that is not the first label neither fallen
 * into nor falling through. The others the Vulkan flavour lowers to a search (gen_seek). */
static bool vk_switch_fits(KStmt *s) {
  KStmt *b = s->body;
  if (!b || b->kind != KS_BLOCK) return s->cases.n == 0;
  for (int i = 0; i < s->cases.n; i++) {
    KStmt *c = s->cases.v[i];
    int at = -1;
    for (int j = 0; j < b->list.n && at < 0; j++)
      if (b->list.v[j] == c) at = j;
    if (at < 0) return false; /* inside a nested statement */
    if (!c->is_default || i == 0) continue;
    bool ok = at == 0 || ends_flow(b->list.v[at - 1]);
    for (int j = at + 1; j < b->list.n && ok; j++)
      if (((KStmt *)b->list.v[j])->kind == KS_CASE) {
        ok = ends_flow(b->list.v[j - 1]);
        break;
      }
    if (!ok) return false;
  }
  return true;
}

/* ---- switches as a search (Vulkan)
 *
 * A switch whose labels an OpSwitch cannot take (labels inside nested statements, Duff's
 * device; a default fallen into or out of when it is not first) runs its body as C's jump
 * would, without the jump: a Function variable `go` holds the number of the label the
 * switch's value selects (its index in KStmt.cases, plus 1; one past the last when none
 * does: then nothing runs), and the body is generated in a mode in which every statement
 * first asks whether control is still looking for its label (go != 0): a statement without
 * the label is skipped, an if goes to the branch that holds it, a loop enters its body without
 * testing its condition (nor running a for's init), and the label itself sets go to 0, after
 * which everything runs as written. This is the usual elimination of jumps into nested
 * statements by guards (Erosa and Hendren, "Taming control flow", 1994): the code stays
 * structured whatever the labels' places, every path C allows is taken, and no statement is
 * duplicated; the price is a test of go per statement or run of statements, which once the
 * label is passed a driver's compiler cannot drop (switches that fit stay one OpSwitch). The
 * body is the default target of an OpSwitch of its own, so that `break` keeps its meaning. */
typedef struct Seek {
  KStmt *sw;   /* the switch */
  uint32_t go; /* its Function variable (int) */
} Seek;

static void gen_stmt(SG *g, KStmt *s);

/* Whether statement c is s or inside it. */
static bool stmt_holds(const KStmt *s, const KStmt *c) {
  if (!s) return false;
  if (s == c) return true;
  for (int i = 0; i < s->list.n; i++)
    if (stmt_holds(s->list.v[i], c)) return true;
  return stmt_holds(s->then, c) || stmt_holds(s->els, c) || stmt_holds(s->body, c) ||
         stmt_holds(s->init_stmt, c);
}

/* Whether s holds a label of k's switch. */
static bool has_label(const Seek *k, const KStmt *s) {
  for (int i = 0; i < k->sw->cases.n; i++)
    if (stmt_holds(s, k->sw->cases.v[i])) return true;
  return false;
}

static uint32_t seek_go(SG *g, const Seek *k) {
  return sg_op(g, SpvOpLoad, spv_type_int(&g->m, 32), 1, &k->go);
}

/* Whether go is the number of one of the labels in s. */
static uint32_t seek_in(SG *g, const Seek *k, const KStmt *s, uint32_t go) {
  uint32_t r = 0, b = spv_type_bool(&g->m);
  for (int i = 0; i < k->sw->cases.n; i++) {
    if (!stmt_holds(s, k->sw->cases.v[i])) continue;
    uint32_t eq = sg_opv(g, SpvOpIEqual, b, 2, go, sg_u32(g, (uint32_t)i + 1));
    r = r ? sg_opv(g, SpvOpLogicalOr, b, 2, r, eq) : eq;
  }
  return r ? r : spv_const_bool(&g->m, false);
}

/* go == 0 ? c : alt, c evaluated only when go is 0 (NULL: true). */
static uint32_t seek_cond(SG *g, const Seek *k, KExpr *c, uint32_t alt) {
  uint32_t b = spv_type_bool(&g->m);
  uint32_t z = sg_opv(g, SpvOpIEqual, b, 2, seek_go(g, k), sg_u32(g, 0));
  if (!c) return sg_opv(g, SpvOpLogicalOr, b, 2, z, alt);
  return sg_cond_if(g, z, true, c, alt);
}

static void gen_seek(SG *g, const Seek *k, KStmt *s);

/* Statements list[from, to), which hold no label, run only once the label is passed. */
static void seek_skip(SG *g, const Seek *k, KStmt **list, int n) {
  if (!n) return;
  uint32_t b = spv_type_bool(&g->m);
  uint32_t z = sg_opv(g, SpvOpIEqual, b, 2, seek_go(g, k), sg_u32(g, 0));
  uint32_t then = spv_id(&g->m), join = spv_id(&g->m);
  sg_branch_cond_merge(g, z, then, join, join);
  sg_start_block(g, then);
  for (int i = 0; i < n; i++) gen_stmt(g, list[i]);
  sg_branch(g, join);
  sg_start_block(g, join);
}

/* A loop's body in search mode (brk, cont: its exit and continue target). */
static void seek_loop_body(SG *g, const Seek *k, KStmt *body, uint32_t brk, uint32_t cont) {
  uint32_t sb = g->brk, sc = g->cont;
  g->brk = brk;
  g->cont = cont;
  gen_seek(g, k, body);
  g->brk = sb;
  g->cont = sc;
}

/* s in search mode: s holds a label of k's switch, and go is 0 or the number of one in s. */
static void gen_seek(SG *g, const Seek *k, KStmt *s) {
  if (s->loc.line > 0) g->loc = s->loc;
  SpvModule *m = &g->m;
  uint32_t b = spv_type_bool(m), u32 = spv_type_int(m, 32);
  switch (s->kind) {
  case KS_CASE: { /* the label: found when it is the one sought */
    uint32_t go = seek_go(g, k);
    int i = 0;
    while (k->sw->cases.v[i] != s) i++;
    uint32_t here = sg_opv(g, SpvOpIEqual, b, 2, go, sg_u32(g, (uint32_t)i + 1));
    sg_instv(g, SpvOpStore, 2, k->go, sg_opv(g, SpvOpSelect, u32, 3, here, sg_u32(g, 0), go));
    return;
  }
  case KS_BLOCK:
    /* Runs of statements without a label under one test; those with one under a test that
     * the label sought is theirs (or that none is: go == 0). */
    for (int i = 0; i < s->list.n;) {
      int j = i;
      while (j < s->list.n && !has_label(k, s->list.v[j])) j++;
      seek_skip(g, k, (KStmt **)s->list.v + i, j - i);
      if (j == s->list.n) break;
      KStmt *c = s->list.v[j];
      if (c->kind == KS_CASE) {
        gen_seek(g, k, c);
      } else {
        uint32_t go = seek_go(g, k);
        uint32_t enter =
            sg_opv(g, SpvOpLogicalOr, b, 2, sg_opv(g, SpvOpIEqual, b, 2, go, sg_u32(g, 0)),
                   seek_in(g, k, c, go));
        uint32_t then = spv_id(m), join = spv_id(m);
        sg_branch_cond_merge(g, enter, then, join, join);
        sg_start_block(g, then);
        gen_seek(g, k, c);
        sg_branch(g, join);
        sg_start_block(g, join);
      }
      i = j + 1;
    }
    return;
  case KS_IF: { /* the branch that holds the label, else as written */
    uint32_t c = seek_cond(g, k, s->cond, seek_in(g, k, s->then, seek_go(g, k)));
    uint32_t then = spv_id(m), els = spv_id(m), join = spv_id(m);
    sg_branch_cond_merge(g, c, then, els, join);
    sg_start_block(g, then);
    if (has_label(k, s->then))
      gen_seek(g, k, s->then);
    else
      gen_stmt(g, s->then);
    sg_branch(g, join);
    sg_start_block(g, els);
    if (s->els && has_label(k, s->els))
      gen_seek(g, k, s->els);
    else
      gen_stmt(g, s->els);
    sg_branch(g, join);
    sg_start_block(g, join);
    return;
  }
  case KS_WHILE:
  case KS_FOR: { /* into the body without the test (nor a for's init) */
    if (s->kind == KS_FOR && s->init_stmt) seek_skip(g, k, &s->init_stmt, 1);
    uint32_t head = spv_id(m), check = spv_id(m), body = spv_id(m), latch = spv_id(m),
             exit = spv_id(m);
    sg_start_block(g, head);
    sg_loop_header(g, exit, latch, check);
    sg_start_block(g, check);
    sg_branch_cond(g, seek_cond(g, k, s->cond, spv_const_bool(m, true)), body, exit);
    sg_start_block(g, body);
    seek_loop_body(g, k, s->body, exit, latch);
    sg_start_block(g, latch);
    if (s->kind == KS_FOR && s->step) {
      if (s->step->loc.line > 0) g->loc = s->step->loc;
      sg_expr(g, s->step);
    }
    sg_branch(g, head);
    sg_start_block(g, exit);
    return;
  }
  case KS_DO: { /* its body first in any case */
    uint32_t head = spv_id(m), body = spv_id(m), test = spv_id(m), exit = spv_id(m);
    sg_start_block(g, head);
    sg_loop_header(g, exit, test, body);
    sg_start_block(g, body);
    seek_loop_body(g, k, s->body, exit, test);
    sg_start_block(g, test);
    g->loc = s->cond->loc.line > 0 ? s->cond->loc : g->loc;
    sg_branch_cond(g, sg_cond(g, s->cond), head, exit);
    sg_start_block(g, exit);
    return;
  }
  default: /* no other statement holds statements */
    diag_ice(s->loc, "SPIR-V: a case label inside a statement of kind %d", (int)s->kind);
    g->failed = true;
    return;
  }
}

/* Vulkan: switch s as a search (above). */
static void gen_switch_seek(SG *g, KStmt *s) {
  SpvModule *m = &g->m;
  KType *ct = s->cond->type;
  uint32_t sel = sg_expr(g, s->cond), b = spv_type_bool(m), u32 = spv_type_int(m, 32);
  int bits = sg_bits(ct);
  Seek k = {s, sg_temp_var(g, kir_type_scalar(KT_I32))};
  /* The label's number: the matching case's, else the default's, else none (cases + 1). */
  uint32_t go = sg_u32(g, (uint32_t)s->cases.n + 1);
  for (int i = 0; i < s->cases.n; i++)
    if (((KStmt *)s->cases.v[i])->is_default) go = sg_u32(g, (uint32_t)i + 1);
  for (int i = 0; i < s->cases.n; i++) {
    KStmt *c = s->cases.v[i];
    if (c->is_default) continue;
    uint64_t v = (uint64_t)c->value;
    if (bits < 64) v &= (1ull << bits) - 1;
    uint32_t cv = bits > 32 ? spv_const_int(m, 64, v) : spv_const_int(m, bits, v);
    go = sg_opv(g, SpvOpSelect, u32, 3, sg_opv(g, SpvOpIEqual, b, 2, sel, cv),
                sg_u32(g, (uint32_t)i + 1), go);
  }
  sg_instv(g, SpvOpStore, 2, k.go, go);
  uint32_t body = spv_id(m), exit = spv_id(m);
  uint32_t mops[2] = {exit, SpvSelectionControlMaskNone}, ops[2] = {sg_u32(g, 0), body};
  terminate_merged(g, SpvOpSelectionMerge, 2, mops, SpvOpSwitch, 2, ops);
  sg_start_block(g, body);
  uint32_t saved_brk = g->brk;
  g->brk = exit;
  if (s->body) gen_seek(g, &k, s->body);
  g->brk = saved_brk;
  sg_branch(g, exit);
  sg_start_block(g, exit);
}

static void gen_switch(SG *g, KStmt *s) {
  if (g->vk && !vk_switch_fits(s)) {
    gen_switch_seek(g, s);
    return;
  }
  KType *ct = s->cond->type;
  uint32_t sel = sg_expr(g, s->cond);
  uint32_t exit = spv_id(&g->m), def = exit;
  int bits = sg_bits(ct), nw = bits > 32 ? 2 : 1;
  uint32_t *ops = calloc((size_t)s->cases.n * 3 + 2, sizeof *ops);
  int n = 2;
  for (int i = 0; i < s->cases.n; i++) {
    KStmt *c = s->cases.v[i];
    uint32_t label = spv_id(&g->m);
    c->aux = (void *)(uintptr_t)label;
    if (c->is_default) {
      def = label;
      continue;
    }
    uint64_t v = (uint64_t)c->value;
    if (bits < 64) v &= (1ull << bits) - 1;
    ops[n++] = (uint32_t)v;
    if (nw == 2) ops[n++] = (uint32_t)(v >> 32);
    ops[n++] = label;
  }
  ops[0] = sel;
  ops[1] = def;
  if (g->vk) {
    uint32_t mops[2] = {exit, SpvSelectionControlMaskNone};
    terminate_merged(g, SpvOpSelectionMerge, 2, mops, SpvOpSwitch, n, ops);
  } else {
    terminate(g, SpvOpSwitch, n, ops);
  }
  free(ops);
  uint32_t saved_brk = g->brk;
  g->brk = exit;
  gen_stmt(g, s->body);
  g->brk = saved_brk;
  for (int i = 0; i < s->cases.n; i++) ((KStmt *)s->cases.v[i])->aux = NULL;
  sg_start_block(g, exit);
}

static void gen_loop_body(SG *g, KStmt *body, uint32_t brk, uint32_t cont) {
  uint32_t sb = g->brk, sc = g->cont;
  g->brk = brk;
  g->cont = cont;
  gen_stmt(g, body);
  g->brk = sb;
  g->cont = sc;
}

static void gen_stmt(SG *g, KStmt *s) {
  if (!s) return;
  if (s->loc.line > 0) g->loc = s->loc;
  SpvModule *m = &g->m;
  switch (s->kind) {
  case KS_BLOCK:
    for (int i = 0; i < s->list.n; i++) gen_stmt(g, s->list.v[i]);
    break;
  case KS_DECL:
    if (s->var->kind == KV_LOCAL && s->init) {
      SVar *v = s->var->aux;
      sg_init_store(g, s->var->type, v->ptr,
                    v->psb ? SpvStorageClassPhysicalStorageBuffer : SpvStorageClassFunction,
                    s->init);
    }
    break;
  case KS_EXPR: sg_expr(g, s->expr); break;
  case KS_IF: {
    uint32_t c = sg_cond(g, s->cond);
    uint32_t then = spv_id(m), els = s->els ? spv_id(m) : 0, join = spv_id(m);
    sg_branch_cond_merge(g, c, then, els ? els : join, join);
    sg_start_block(g, then);
    gen_stmt(g, s->then);
    sg_branch(g, join);
    if (els) {
      sg_start_block(g, els);
      gen_stmt(g, s->els);
      sg_branch(g, join);
    }
    sg_start_block(g, join);
    break;
  }
  case KS_WHILE: {
    if (g->vk) {
      /* Structured: the header names the merge and continue blocks, the condition has a
       * block of its own (it may branch itself), continue goes through the latch. */
      uint32_t head = spv_id(m), check = spv_id(m), body = spv_id(m), latch = spv_id(m),
               exit = spv_id(m);
      sg_start_block(g, head);
      sg_loop_header(g, exit, latch, check);
      sg_start_block(g, check);
      sg_branch_cond(g, sg_cond(g, s->cond), body, exit);
      sg_start_block(g, body);
      gen_loop_body(g, s->body, exit, latch);
      sg_start_block(g, latch);
      sg_branch(g, head);
      sg_start_block(g, exit);
      break;
    }
    uint32_t head = spv_id(m), body = spv_id(m), exit = spv_id(m);
    sg_start_block(g, head);
    sg_branch_cond(g, sg_cond(g, s->cond), body, exit);
    sg_start_block(g, body);
    gen_loop_body(g, s->body, exit, head);
    sg_branch(g, head);
    sg_start_block(g, exit);
    break;
  }
  case KS_DO: {
    /* Vulkan: a header block first; the test is the continue target, its branch back the
     * back edge. */
    uint32_t head = g->vk ? spv_id(m) : 0;
    uint32_t body = spv_id(m), test = spv_id(m), exit = spv_id(m);
    if (g->vk) {
      sg_start_block(g, head);
      sg_loop_header(g, exit, test, body);
    }
    sg_start_block(g, body);
    gen_loop_body(g, s->body, exit, test);
    sg_start_block(g, test);
    g->loc = s->cond->loc.line > 0 ? s->cond->loc : g->loc;
    sg_branch_cond(g, sg_cond(g, s->cond), g->vk ? head : body, exit);
    sg_start_block(g, exit);
    break;
  }
  case KS_FOR: {
    gen_stmt(g, s->init_stmt);
    uint32_t head = spv_id(m), body = spv_id(m), step = spv_id(m), exit = spv_id(m);
    sg_start_block(g, head);
    if (g->vk) { /* as KS_WHILE: the step is the continue target */
      uint32_t check = spv_id(m);
      sg_loop_header(g, exit, step, check);
      sg_start_block(g, check);
    }
    if (s->cond) sg_branch_cond(g, sg_cond(g, s->cond), body, exit);
    sg_start_block(g, body);
    gen_loop_body(g, s->body, exit, step);
    sg_start_block(g, step);
    if (s->step) {
      if (s->step->loc.line > 0) g->loc = s->step->loc;
      sg_expr(g, s->step);
    }
    sg_branch(g, head);
    sg_start_block(g, exit);
    break;
  }
  case KS_BREAK:
  case KS_CONTINUE: {
    uint32_t target = s->kind == KS_BREAK ? g->brk : g->cont;
    if (!target) {
      sg_error(g, s->loc, "'%s' outside a loop or switch",
               s->kind == KS_BREAK ? "break" : "continue");
      break;
    }
    sg_ensure_block(g);
    sg_branch(g, target);
    break;
  }
  case KS_RETURN:
    if (s->expr && s->expr->type->kind != KT_VOID && g->kf->ret->kind != KT_VOID) {
      uint32_t v = sg_expr(g, s->expr);
      terminate(g, SpvOpReturnValue, 1, &v);
    } else {
      if (s->expr) sg_expr(g, s->expr);
      if (g->kf->ret->kind == KT_VOID) {
        terminate(g, SpvOpReturn, 0, NULL);
      } else {
        uint32_t u = spv_undef(m, g->fn_ret);
        terminate(g, SpvOpReturnValue, 1, &u);
      }
    }
    break;
  case KS_SWITCH: gen_switch(g, s); break;
  case KS_CASE:
    if (!s->aux) {
      sg_error(g, s->loc, "case label outside a switch");
      break;
    }
    sg_start_block(g, (uint32_t)(uintptr_t)s->aux);
    break;
  case KS_EMPTY: break;
  case KS_LABEL:
  case KS_GOTO: {
    if (g->vk) { /* Vulkan's control flow must be structured: a label alone is nothing */
      if (s->kind == KS_GOTO)
        sg_error(g, s->loc,
                 "goto is not available in the Vulkan SPIR-V form (Vulkan needs structured "
                 "control flow); use the other forms");
      break;
    }
    KStmt *l = s->kind == KS_LABEL ? s : s->target;
    if (!l->aux) l->aux = (void *)(uintptr_t)spv_id(m);
    if (s->kind == KS_LABEL) {
      sg_start_block(g, (uint32_t)(uintptr_t)l->aux);
    } else {
      sg_ensure_block(g);
      sg_branch(g, (uint32_t)(uintptr_t)l->aux);
    }
    break;
  }
  }
}

/* ---------------------------------------------------------------- module */

static void module_header(SG *g) {
  SpvModule *m = &g->m;
  spv_capability(m, SpvCapabilityAddresses);
  spv_capability(m, SpvCapabilityKernel);
  spv_capability(m, SpvCapabilityInt64); /* Physical64 pointers and size_t builtins */
  uint32_t mm[2] = {SpvAddressingModelPhysical64, SpvMemoryModelOpenCL};
  spv_emit(m, SPV_SEC_MEMORY_MODEL, SpvOpMemoryModel, mm, 2);
  const char *file = g->km->file ? g->km->file : "kernel.k";
  uint32_t src[3] = {SpvSourceLanguageOpenCL_C, 102000, file_of(g, file)->id};
  spv_emit(m, SPV_SEC_DEBUG_STRING, SpvOpSource, src, 3);
}

static void entry_points(SG *g) {
  SpvModule *m = &g->m;
  /* Contraction is per entry point in SPIR-V: FP_CONTRACT OFF anywhere turns it off for every
     kernel (it is a permission: never using it changes no allowed result). */
  bool contraction_off = (!g->o->fp_contract && !g->o->fast_math) || kir_module_no_contract(g->km);
  for (int i = 0; i < g->km->funcs.n; i++) {
    KFunc *f = g->km->funcs.v[i];
    if (!f->is_kernel || !f->body) continue;
    SpvWords *b = &m->sec[SPV_SEC_ENTRY];
    int nif = 0;
    for (int k = 0; k < SG_NBUILTIN; k++) nif += g->builtin[k] != 0;
    /* The interface lists every Input variable (SPIR-V 1.0 asks for those the entry point
     * uses; listing the few builtins all kernels share is allowed and simpler). */
    spw_push(b, ((uint32_t)(3 + spw_string_words(f->name) + nif) << SpvWordCountShift) |
                    SpvOpEntryPoint);
    spw_push(b, SpvExecutionModelKernel);
    spw_push(b, (uint32_t)(uintptr_t)f->aux);
    spw_string(b, f->name);
    for (int k = 0; k < SG_NBUILTIN; k++)
      if (g->builtin[k]) spw_push(b, g->builtin[k]);
    if (contraction_off) {
      uint32_t em[2] = {(uint32_t)(uintptr_t)f->aux, SpvExecutionModeContractionOff};
      spv_emit(m, SPV_SEC_EXEC_MODE, SpvOpExecutionMode, em, 2);
    }
    if (f->reqd_subgroup > 0) { /* intel_reqd_sub_group_size(N): SPIR-V 1.1's SubgroupSize */
      spv_capability(m, SpvCapabilitySubgroupDispatch);
      uint32_t em[3] = {(uint32_t)(uintptr_t)f->aux, SpvExecutionModeSubgroupSize,
                        (uint32_t)f->reqd_subgroup};
      spv_emit(m, SPV_SEC_EXEC_MODE, SpvOpExecutionMode, em, 3);
    }
    if (f->reqd_block[0] > 0) { /* reqd_work_group_size(x, y, z) */
      uint32_t em[5] = {(uint32_t)(uintptr_t)f->aux, SpvExecutionModeLocalSize,
                        (uint32_t)f->reqd_block[0],
                        (uint32_t)(f->reqd_block[1] > 0 ? f->reqd_block[1] : 1),
                        (uint32_t)(f->reqd_block[2] > 0 ? f->reqd_block[2] : 1)};
      spv_emit(m, SPV_SEC_EXEC_MODE, SpvOpExecutionMode, em, 5);
    }
  }
}

static void cleanup(SG *g) {
  KModule *km = g->km;
  for (int i = 0; i < km->globals.n; i++) ((KVar *)km->globals.v[i])->aux = NULL;
  for (int i = 0; i < km->funcs.n; i++) {
    KFunc *f = km->funcs.v[i];
    f->aux = NULL;
    for (int j = 0; j < f->nparams; j++) f->params[j]->aux = NULL;
  }
  spw_free(&g->vars);
  spw_free(&g->body);
  spw_free(&g->vkmath_code);
  free(g->structs);
  free(g->fwd);
  free(g->strs);
  free(g->files);
  free(g->laid);
  spv_module_free(&g->m);
}

static void clear_var_aux(KExpr *e, void *ctx) {
  (void)ctx;
  if ((e->kind == KE_VAR || e->kind == KE_GVAR) && e->var) e->var->aux = NULL;
}

static void clear_locals(KStmt *s) {
  if (!s) return;
  if (s->kind == KS_DECL && s->var) s->var->aux = NULL;
  for (int i = 0; i < s->list.n; i++) clear_locals(s->list.v[i]);
  clear_locals(s->init_stmt);
  clear_locals(s->then);
  clear_locals(s->els);
  clear_locals(s->body);
}

/* Both flavours: the OpenCL one (vk false) and the Vulkan one. */
static bool emit(KModule *m, const KOptions *o, KBuf *out, bool vk) {
  if (vk && !kir_has_kernel(m)) {
    /* Vulkan has no library modules: a shader module needs an entry point (the bundle goes
     * without this form then, and libkcrt loads it on Vulkan without one). */
    diag_error((KLoc){0}, "the Vulkan SPIR-V form (.vk.spv) needs a kernel: a Vulkan shader "
                          "module must have an entry point");
    return false;
  }
  if (!kcc_check_limits(m, o, KL_SPIRV) ||
      (!vk && !kcc_check_one_space(m, "the OpenCL SPIR-V form (.spv)")))
    return false;
  /* OpenCL's SPIR-V has its own image instructions; Vulkan's form samples in software as PTX
   * does (docs/design.md, "Images on Vulkan"), so it keeps the software forms. */
  if (!vk) m = kir_module_without_image_impl(m);
  m = kir_module_texobj_view(m); /* CUDA texture objects as images (KExpr.alt) */
  SG g;
  memset(&g, 0, sizeof g);
  spv_module_init(&g.m);
  g.km = m;
  g.o = o;
  g.vk = vk;
  g.vk_no_contract = vk && !o->fast_math;
  int errors = diag_error_count();
  /* Another back end may have run on this module and left its own data in KVar.aux. */
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    kir_visit_stmt(f->body, clear_var_aux, NULL);
    clear_locals(f->body);
  }
  if (vk)
    sg_vk_header(&g);
  else
    module_header(&g);
  for (int i = 0; vk && i < m->funcs.n; i++)
    if (((KFunc *)m->funcs.v[i])->body) sg_vk_check_func(&g, m->funcs.v[i]);
  if (vk) sg_vk_shared_escapes(&g);
  gen_globals(&g);
  if (vk) sg_vk_module_escapes(&g);
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->body) continue;
    f->aux = (void *)(uintptr_t)spv_id(&g.m);
    spv_name(&g.m, (uint32_t)(uintptr_t)f->aux, f->name);
  }
  for (int i = 0; i < m->funcs.n && !g.failed; i++) {
    KFunc *f = m->funcs.v[i];
    if (f->body) define_func(&g, f);
  }
  if (vk) {
    for (int i = 0; i < m->funcs.n && !g.failed; i++) {
      KFunc *f = m->funcs.v[i];
      if (f->is_kernel && f->body) sg_vk_entry(&g, f);
    }
    sg_vk_math_finish(&g);
    sg_vk_finish(&g);
  } else {
    entry_points(&g);
    /* A module without an entry point is a library to SPIR-V: the validator then asks for
     * the Linkage capability (a file of no kernel: driver/libkcc.c). */
    if (!kir_has_kernel(m)) spv_capability(&g.m, SpvCapabilityLinkage);
  }
  for (int i = 0; i < m->funcs.n; i++) clear_locals(((KFunc *)m->funcs.v[i])->body);
  bool ok = !g.failed && diag_error_count() == errors;
  if (ok && g.m.too_long) {
    diag_error((KLoc){0}, "the SPIR-V module needs an instruction longer than 65535 words (a "
                          "constant array of more than about 65000 elements?)");
    ok = false;
  }
  if (ok) {
    size_t n = 0;
    uint32_t *words = spv_finish(&g.m, &n);
    char *msg = NULL;
    bool universal = !vk && spv_has_capability(&g.m, SpvCapabilityInt64Atomics);
    if (vk ? !spv_validate_vulkan(words, n, &msg) : !spv_validate(words, n, universal, &msg)) {
      diag_ice((KLoc){0}, "the SPIR-V back end produced a module that SPIRV-Tools rejects: %s",
               msg ? msg : "no message");
      if (o->verbose) { /* what a bug report needs */
        char *text = spv_disassemble(words, n);
        if (text) fprintf(stderr, "%s", text);
        free(text);
      }
      ok = false;
    } else {
      if (o->verbose)
        fprintf(stderr, "kcc: spirv: %zu words, %u ids, validated by SPIRV-Tools (%s)\n", n,
                g.m.next_id,
                vk          ? "Vulkan 1.2"
                : universal ? "universal SPIR-V 1.2: Int64Atomics"
                            : "OpenCL 2.2");
      for (size_t i = 0; i < n; i++) {
        unsigned char b[4] = {(unsigned char)words[i], (unsigned char)(words[i] >> 8),
                              (unsigned char)(words[i] >> 16), (unsigned char)(words[i] >> 24)};
        kbuf_append(out, b, 4);
      }
    }
    free(msg);
    free(words);
  }
  cleanup(&g);
  return ok;
}

bool emit_spirv(KModule *m, const KOptions *o, KBuf *out) {
  return emit(m, o, out, false);
}

bool emit_spirv_vulkan(KModule *m, const KOptions *o, KBuf *out) {
  return emit(m, o, out, true);
}
