/* spirv_vulkan.c — what only the Vulkan flavour of the SPIR-V back end has: its module header
 * (Shader, PhysicalStorageBuffer64 addressing, GLSL450 memory model), the workgroup size as
 * specialisation constants, the builtin inputs, the push-constant block and the GLCompute
 * entry point around each kernel, GLSL.std.450 math, and the refusals of what the flavour
 * cannot express yet. Types, statements and expressions are the OpenCL flavour's code
 * (spirv.c, spirv_expr.c) switched by SG.vk where Vulkan differs: buffers are
 * PhysicalStorageBuffer pointers, control flow is structured.
 *
 * The interface the runtime keeps (docs/bundle.md, "Vulkan"):
 *  - kernel parameters are a push-constant block in parameter order, each at the next
 *    multiple of its slot's alignment: a buffer an 8-byte device address, a scalar its own
 *    bytes, a scalar narrower than 4 bytes a zero-extended 4-byte slot (so no 8/16-bit push
 *    constant capability is needed); the block is at most 128 bytes, the minimum every
 *    Vulkan device has.
 *  - the workgroup size is specialisation constants 0, 1, 2 (x, y, z): the runtime builds one
 *    pipeline per block shape.
 *  - each kernel is an entry point of its own name.
 *  - frames: a local whose address escapes (taken with &, an array passed on or kept as a
 *    pointer, a union whose members are reached) cannot stay a Function variable, whose
 *    pointers are logical; it lives in the invocation's frame, in a buffer: each function
 *    has its part of the frame (no recursion: one activation at a time), the module's frame
 *    size is specialisation constant 4's default value, and the runtime passes the scratch
 *    buffer's address as one more push constant (after the parameters, at a multiple of 8)
 *    when that size is not 0; the entry point stores scratch + (linear invocation index) x
 *    frame size in a Private variable that functions read.
 *  - shared blocks: static shared arrays whose address escapes live in the workgroup's block
 *    of the same buffer (specialisation constant 5: its bytes); dynamic shared memory too,
 *    after them, when a pointer into it escapes, a float atomic uses it or a function sees
 *    it as two element types (specialisation constant 8, kcc.dynamic_shared_in_block: the
 *    block grows by constant 3, the launch's dynamic bytes, rounded to 16). */
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/OpenCL.std.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_gen.h"

enum { VK_PUSH_LIMIT = 128 };
/* The print buffer's bytes (specialisation constant 6): a 16-byte header, then records. */
enum { VK_PRINT_BYTES = 1 << 20, VK_PRINT_HEAD = 16 };

void sg_vk_header(SG *g) {
  SpvModule *m = &g->m;
  spv_capability(m, SpvCapabilityShader);
  spv_capability(m, SpvCapabilityPhysicalStorageBufferAddresses);
  spv_capability(m, SpvCapabilityInt64); /* buffer addresses arrive as 64-bit integers */
  spv_extension(m, "SPV_KHR_physical_storage_buffer");
  uint32_t mm[2] = {SpvAddressingModelPhysicalStorageBuffer64, SpvMemoryModelGLSL450};
  spv_emit(m, SPV_SEC_MEMORY_MODEL, SpvOpMemoryModel, mm, 2);
  /* The workgroup size: WorkgroupSize overrides any LocalSize, and being specialisation
   * constants the runtime sets it per pipeline. */
  static const char *names[3] = {"kcc.block_x", "kcc.block_y", "kcc.block_z"};
  uint32_t u32 = spv_type_int(m, 32);
  for (int d = 0; d < 3; d++) {
    uint32_t id = spv_id(m), ops[3] = {u32, id, 1};
    spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstant, ops, 3);
    uint32_t spec = (uint32_t)d;
    spv_decorate(m, id, SpvDecorationSpecId, &spec, 1);
    spv_name(m, id, names[d]);
    g->wgsize[d] = id;
  }
  uint32_t v3 = spv_type_vector(m, u32, 3), comp = spv_id(m);
  uint32_t ops[5] = {v3, comp, g->wgsize[0], g->wgsize[1], g->wgsize[2]};
  spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstantComposite, ops, 5);
  uint32_t bi = SpvBuiltInWorkgroupSize;
  spv_decorate(m, comp, SpvDecorationBuiltIn, &bi, 1);
}

void sg_vk_finish(SG *g) {
  SpvModule *m = &g->m;
  if (g->frame_total) { /* the frame size, for the runtime (never read by the code) */
    uint32_t id = spv_id(m), ops[3] = {spv_type_int(m, 32), id, (g->frame_total + 15) & ~15u};
    spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstant, ops, 3);
    uint32_t spec = 4;
    spv_decorate(m, id, SpvDecorationSpecId, &spec, 1);
    spv_name(m, id, "kcc.frame_bytes");
  }
  if (g->printf_var) { /* the print buffer's size, likewise */
    uint32_t id = spv_id(m), ops[3] = {spv_type_int(m, 32), id, VK_PRINT_BYTES};
    spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstant, ops, 3);
    uint32_t spec = 6;
    spv_decorate(m, id, SpvDecorationSpecId, &spec, 1);
    spv_name(m, id, "kcc.print_bytes");
  }
  if (g->wgframe_total) { /* the shared block's size, likewise */
    uint32_t id = spv_id(m), ops[3] = {spv_type_int(m, 32), id, (g->wgframe_total + 15) & ~15u};
    spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstant, ops, 3);
    uint32_t spec = 5;
    spv_decorate(m, id, SpvDecorationSpecId, &spec, 1);
    spv_name(m, id, "kcc.shared_block_bytes");
  }
  if (g->dyn_block) { /* dynamic shared memory in the block, after its static part */
    uint32_t id = spv_id(m), ops[3] = {spv_type_int(m, 32), id, 1};
    spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstant, ops, 3);
    uint32_t spec = 8;
    spv_decorate(m, id, SpvDecorationSpecId, &spec, 1);
    spv_name(m, id, "kcc.dynamic_shared_in_block");
  }
  /* Narrow integers in buffers (bool is a byte) need the storage capabilities as well. */
  if (spv_has_capability(m, SpvCapabilityInt8)) {
    spv_capability(m, SpvCapabilityStorageBuffer8BitAccess);
    spv_extension(m, "SPV_KHR_8bit_storage");
  }
  if (spv_has_capability(m, SpvCapabilityInt16)) {
    spv_capability(m, SpvCapabilityStorageBuffer16BitAccess);
    spv_extension(m, "SPV_KHR_16bit_storage");
  }
}

void sg_vk_stride(SG *g, uint32_t id, uint32_t stride) {
  if (id >= g->nlaid) {
    size_t n = (size_t)id * 2 + 64;
    g->laid = realloc(g->laid, n);
    memset(g->laid + g->nlaid, 0, n - g->nlaid);
    g->nlaid = n;
  }
  if (g->laid[id]) return;
  g->laid[id] = 1;
  if (stride == 0) stride = 1; /* an empty struct still steps */
  spv_decorate(&g->m, id, SpvDecorationArrayStride, &stride, 1);
}

static uint32_t builtin_var(SG *g, int k);

uint32_t sg_vk_special(SG *g, KExpr *e) {
  int k = (int)e->builtin - BI_THREAD_IDX;
  KType *u = kir_type_scalar(KT_U32);
  if (k < 0 || k > 3 || e->dim < 0 || e->dim > 2) {
    sg_error(g, e->loc, "unknown builtin register");
    return spv_undef(&g->m, sg_type(g, e->type));
  }
  if (k == 2) return sg_convert(g, g->wgsize[e->dim], u, e->type, e->loc);
  /* Vulkan's compute builtins are 32-bit, like CUDA's registers. */
  uint32_t u32 = spv_type_int(&g->m, 32), v3 = spv_type_vector(&g->m, u32, 3);
  uint32_t bvar = builtin_var(g, k);
  uint32_t vec = sg_op(g, SpvOpLoad, v3, 1, &bvar);
  uint32_t x = sg_opv(g, SpvOpCompositeExtract, u32, 2, vec, (uint32_t)e->dim);
  return sg_convert(g, x, u, e->type, e->loc);
}

/* A vector parameter: 2, 3, 4, 8 or 16 components of 32 or 64 bits (std430 aligns a 3-vector
 * as a 4-vector, as KIR's OpenCL layout does; 8 and 16 are arrays of 4-vectors, whose stride
 * is std430's and whose offset, the vector's own alignment, is KIR's). */
static bool push_vec_ok(const KType *t) {
  return t->kind == KT_VEC && t->len >= 2 && t->base->size >= 4 && t->base->kind != KT_BOOL;
}

/* Whether a struct can be a push constant as it is: members of 32 or 64 bits (no 8/16-bit
 * push-constant capability needed), buffer pointers, arrays and structs of them. */
static bool push_struct_ok(const KType *t) {
  switch (t->kind) {
  case KT_PTR: return t->as == KAS_GLOBAL || t->as == KAS_CONSTANT;
  case KT_ARRAY: return t->len > 0 && push_struct_ok(t->base);
  case KT_STRUCT:
    if (t->st->is_union || !kir_struct_is_natural(t->st)) return false;
    for (int i = 0; i < t->st->nfields; i++)
      if (!push_struct_ok(t->st->fields[i].type)) return false;
    return true;
  case KT_VEC: return push_vec_ok(t);
  default: return kir_is_scalar(t) && t->kind != KT_BOOL && t->size >= 4;
  }
}

/* ---------------------------------------------------------------- frames */

static bool is_decay(const KExpr *e) {
  return e && e->kind == KE_CAST && kir_cast_kind(e->a->type, e->type) == KC_ARRAY_DECAY;
}

/* What an escape analysis looks for: locals (KE_VAR), module constants with their value, or
 * shared arrays (KE_GVAR). */
enum { ESC_LOCALS, ESC_CONSTS, ESC_SHARED };

/* The variable an lvalue is part of (through members and array elements), of the kind `mode`
 * looks for; else NULL. */
static KVar *lvalue_root(KExpr *e, int mode) {
  for (;;) {
    switch (e->kind) {
    case KE_VAR: return mode == ESC_LOCALS ? e->var : NULL;
    case KE_GVAR:
      if (mode == ESC_CONSTS)
        return e->var->kind == KV_CONSTANT && !e->var->host_filled ? e->var : NULL;
      return mode == ESC_SHARED && e->var->kind == KV_SHARED ? e->var : NULL;
    case KE_MEMBER:
    case KE_SWIZZLE: e = e->a; break;
    case KE_INDEX:
      if (!is_decay(e->a)) return NULL; /* through a pointer: not the variable itself */
      e = e->a->a;
      break;
    default: return NULL;
    }
  }
}

typedef struct Escapes {
  SG *g;
  KList index_bases; /* array decays that only index (a[i]): they do not escape */
  KList atomic_ptrs; /* &x as an atomic's operand (shared arrays): used in place */
  int mode;          /* ESC_* */
} Escapes;

static bool listed(const KList *l, const void *p) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == p) return true;
  return false;
}

static void escape_visit(KExpr *e, void *ctx) {
  Escapes *x = ctx;
  /* The visit sees an expression before its operands: a[i] marks a's decay first. */
  if (e->kind == KE_INDEX && is_decay(e->a)) klist_push(&x->index_bases, e->a);
  /* A float atomic is an integer one on the same bits, through a pointer of the other type,
   * which a Workgroup variable's logical pointers cannot be: its shared array escapes to the
   * workgroup's block, where pointers are buffer pointers (spirv_expr.c, float_atomic_add). */
  if (x->mode == ESC_SHARED && e->kind == KE_BUILTIN && kir_builtin_is_atomic(e->builtin) &&
      e->nargs > 0 && e->args[0]->kind == KE_ADDR && e->args[0]->type->kind == KT_PTR &&
      !kir_is_float(e->args[0]->type->base))
    klist_push(&x->atomic_ptrs, e->args[0]);
  KVar *v = NULL;
  if (e->kind == KE_ADDR) {
    if (!listed(&x->atomic_ptrs, e)) v = lvalue_root(e->a, x->mode);
  } else if (is_decay(e)) {
    if (!listed(&x->index_bases, e)) v = lvalue_root(e->a, x->mode);
  } else if (e->kind == KE_MEMBER && e->a->type->kind == KT_STRUCT && e->a->type->st->is_union) {
    v = lvalue_root(e->a, x->mode); /* a member is the union's address, reinterpreted */
  }
  KList *l = x->mode == ESC_CONSTS   ? &x->g->esc_consts
             : x->mode == ESC_SHARED ? &x->g->esc_shared
                                     : &x->g->escaping;
  if (v && !listed(l, v)) klist_push(l, v);
}

static uint32_t frame_var(SG *g) {
  if (!g->frame_var) {
    uint32_t u64 = spv_type_int(&g->m, 64);
    g->frame_var = sg_global_var(g, spv_type_ptr(&g->m, SpvStorageClassPrivate, u64),
                                 SpvStorageClassPrivate, 0);
    spv_name(&g->m, g->frame_var, "kcc.frame");
  }
  return g->frame_var;
}

/* Module constants whose address escapes are copied into the start of every invocation's
 * frame by its entry point (the Private variable holding them has no address). */
void sg_vk_module_escapes(SG *g) {
  Escapes x = {g, {0}, {0}, ESC_CONSTS};
  for (int i = 0; i < g->km->funcs.n; i++) {
    x.index_bases.n = 0;
    kir_visit_stmt(((KFunc *)g->km->funcs.v[i])->body, escape_visit, &x);
  }
  for (int i = 0; i < g->esc_consts.n; i++) {
    KVar *v = g->esc_consts.v[i];
    SVar *s = v->aux;
    uint32_t al = v->type->align > 0 ? (uint32_t)v->type->align : 1;
    s->psb = true;
    s->wg = (g->frame_total + al - 1) / al * al; /* its offset in the frame */
    g->frame_total = s->wg + (uint32_t)(v->type->size > 0 ? v->type->size : 1);
  }
  g->frame_total = (g->frame_total + 15) & ~15u;
  if (g->esc_consts.n) frame_var(g);
}

void sg_vk_escapes(SG *g, KFunc *f) {
  g->escaping.n = 0;
  Escapes x = {g, {0}, {0}, ESC_LOCALS};
  kir_visit_stmt(f->body, escape_visit, &x);
}

bool sg_vk_escaping(SG *g, const KVar *v) {
  return listed(&g->escaping, v);
}

static uint32_t wgframe_var(SG *g);
static uint32_t dyn_bytes(SG *g);
static uint32_t dyn_offset(const SG *g);

/* Shared memory is Workgroup variables, whose logical pointers Vulkan lets no variable hold
 * nor any function receive but as a whole variable. A static shared array whose address
 * escapes lives instead in the workgroup's block of the scratch buffer (after every
 * invocation's frame: docs/bundle.md, "Vulkan"), so that its pointers are buffer pointers
 * with C's arithmetic; the others stay Workgroup variables, indexed in place. */
void sg_vk_shared_escapes(SG *g) {
  Escapes x = {g, {0}, {0}, ESC_SHARED};
  for (int i = 0; i < g->km->funcs.n; i++) {
    x.index_bases.n = x.atomic_ptrs.n = 0;
    kir_visit_stmt(((KFunc *)g->km->funcs.v[i])->body, escape_visit, &x);
  }
  /* Every `extern shared` array names the same memory, so if one of them cannot be a
   * Workgroup array indexed in place (its address escapes, a float atomic views it as
   * integers), none can: dynamic shared memory moves to the block as a whole, after the static
   * arrays there. Likewise when a function reaches it as two element types, which one
   * Workgroup array (logical pointers, no reinterpretation) cannot be. */
  for (int i = 0; i < g->esc_shared.n; i++)
    if (((KVar *)g->esc_shared.v[i])->is_dynamic) g->dyn_block = true;
  for (int i = 0; i < g->km->funcs.n && !g->dyn_block; i++) {
    KFunc *f = g->km->funcs.v[i];
    KVar *dv = f->body ? sg_dyn_var(f) : NULL;
    for (int j = 0; dv && j < f->shared.n; j++) {
      KVar *v = f->shared.v[j];
      if (v->is_dynamic && v->type->base != dv->type->base) g->dyn_block = true;
    }
  }
  if (g->dyn_block) {
    dyn_bytes(g);
    wgframe_var(g);
  }
}

bool sg_vk_shared_escaping(SG *g, const KVar *v) {
  return g->vk && listed(&g->esc_shared, v);
}

static uint32_t wgframe_var(SG *g) {
  if (!g->wgframe_var) {
    uint32_t u64 = spv_type_int(&g->m, 64);
    g->wgframe_var = sg_global_var(g, spv_type_ptr(&g->m, SpvStorageClassPrivate, u64),
                                   SpvStorageClassPrivate, 0);
    spv_name(&g->m, g->wgframe_var, "kcc.shared_block");
  }
  return g->wgframe_var;
}

uint32_t sg_vk_shared_block(SG *g, const KVar *v) {
  uint32_t al = v->type->align > 0 ? (uint32_t)v->type->align : 1;
  uint32_t off = (g->wgframe_total + al - 1) / al * al;
  g->wgframe_total = off + (uint32_t)(v->type->size > 0 ? v->type->size : 1);
  wgframe_var(g);
  return off;
}

void sg_vk_frame_enter(SG *g) {
  SpvModule *m = &g->m;
  g->frame_here = g->frame_total;
  g->frame_size = 0;
  uint32_t u64 = spv_type_int(m, 64);
  if (g->esc_shared.n || g->dyn_block) { /* this function's pointers into the block */
    uint32_t sb = sg_op(g, SpvOpLoad, u64, 1, &g->wgframe_var);
    if (g->dyn_block && g->dyn_var) { /* dynamic shared memory: after the static arrays */
      uint32_t a = sg_opv(g, SpvOpIAdd, u64, 2, sb, spv_const_int(m, 64, dyn_offset(g)));
      g->dyn = sg_opv(g, SpvOpConvertUToPtr,
                      sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, g->dyn_var->type->base),
                      1, a);
      spv_name(m, g->dyn, g->dyn_var->name);
    }
    for (int i = 0; i < g->esc_shared.n; i++) {
      KVar *v = g->esc_shared.v[i];
      SVar *s = v->aux;
      if (v->is_dynamic) continue; /* reached through g->dyn */
      uint32_t a = sg_opv(g, SpvOpIAdd, u64, 2, sb, spv_const_int(m, 64, s->wg));
      s->ptr = sg_opv(g, SpvOpConvertUToPtr,
                      sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, v->type), 1, a);
      spv_name(m, s->ptr, v->name);
    }
  }
  if (!g->escaping.n && !g->esc_consts.n) return;
  uint32_t fv = frame_var(g);
  uint32_t base = sg_op(g, SpvOpLoad, u64, 1, &fv);
  for (int i = 0; i < g->esc_consts.n; i++) { /* this function's pointers to the copies */
    KVar *v = g->esc_consts.v[i];
    SVar *s = v->aux;
    uint32_t a = sg_opv(g, SpvOpIAdd, u64, 2, base, spv_const_int(m, 64, s->wg));
    s->ptr = sg_opv(g, SpvOpConvertUToPtr,
                    sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, v->type), 1, a);
  }
  for (int i = 0; i < g->escaping.n; i++) {
    KVar *v = g->escaping.v[i];
    SVar *s = v->aux;
    if (!s || !s->psb) continue; /* a parameter kept as its value: never stored */
    uint32_t al = v->type->align > 0 ? (uint32_t)v->type->align : 1;
    uint32_t off = (g->frame_size + al - 1) / al * al;
    g->frame_size = off + (uint32_t)(v->type->size > 0 ? v->type->size : 1);
    uint32_t a = sg_opv(g, SpvOpIAdd, u64, 2, base, spv_const_int(m, 64, g->frame_here + off));
    s->ptr = sg_opv(g, SpvOpConvertUToPtr,
                    sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, v->type), 1, a);
    spv_name(m, s->ptr, v->name);
  }
  g->frame_total = (g->frame_here + g->frame_size + 15) & ~15u;
}

int sg_vk_slot_size(const KType *t) {
  if (t->kind == KT_PTR) return 8;
  if (t->kind == KT_IMAGE) return 32;  /* its descriptor (sg_vk_image_type) */
  if (t->kind == KT_SAMPLER) return 4; /* its CLK_* bits */
  if (t->kind == KT_VEC) return push_vec_ok(t) ? t->size : 0;
  if (t->kind == KT_STRUCT) return push_struct_ok(t) ? t->size : 0;
  if (!kir_is_scalar(t)) return 0;
  return t->size < 4 ? 4 : t->size;
}

int sg_vk_slot_align(const KType *t) {
  if (t->kind == KT_PTR || t->kind == KT_IMAGE) return 8;
  if (t->kind == KT_SAMPLER) return 4;
  if (t->kind == KT_STRUCT || t->kind == KT_VEC) return t->align < 4 ? 4 : t->align;
  return t->size < 4 ? 4 : t->size;
}

/* Specialisation constant 3: the launch's dynamic shared bytes (1 unless the runtime sets
 * it: an empty array is still one element). */
static uint32_t dyn_bytes(SG *g) {
  SpvModule *m = &g->m;
  if (!g->dyn_bytes) {
    g->dyn_bytes = spv_id(m);
    uint32_t ops[3] = {spv_type_int(m, 32), g->dyn_bytes, 1};
    spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstant, ops, 3);
    uint32_t spec = 3;
    spv_decorate(m, g->dyn_bytes, SpvDecorationSpecId, &spec, 1);
    spv_name(m, g->dyn_bytes, "kcc.dynamic_shared_bytes");
  }
  return g->dyn_bytes;
}

/* Where dynamic shared memory starts in the workgroup's block: after the static arrays
 * (all placed by gen_globals before any function is lowered), at a multiple of 16. */
static uint32_t dyn_offset(const SG *g) {
  return (g->wgframe_total + 15) & ~15u;
}

uint32_t sg_vk_dyn_shared(SG *g, const KVar *v) {
  SpvModule *m = &g->m;
  const KType *el = v->type->base;
  if (g->dyn_block) return 0; /* a buffer pointer made by sg_vk_frame_enter */
  for (int i = 0; i < g->ndyn_vars; i++)
    if (g->dyn_vars[i].elem == el) return g->dyn_vars[i].var;
  if (g->ndyn_vars == (int)(sizeof g->dyn_vars / sizeof g->dyn_vars[0])) {
    sg_error(g, v->loc,
             "too many element types of dynamic shared memory in one module for the "
             "Vulkan SPIR-V form");
    return 0;
  }
  uint32_t u32 = spv_type_int(m, 32);
  dyn_bytes(g);
  uint32_t size = el->size > 0 ? (uint32_t)el->size : 1;
  uint32_t elt = sg_type(g, el), c1 = spv_const_int(m, 32, size - 1),
           cs = spv_const_int(m, 32, size);
  uint32_t sum = spv_id(m), len = spv_id(m), arr = spv_id(m);
  uint32_t add[5] = {u32, sum, SpvOpIAdd, g->dyn_bytes, c1};
  spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstantOp, add, 5);
  uint32_t div[5] = {u32, len, SpvOpUDiv, sum, cs};
  spv_emit(m, SPV_SEC_GLOBAL, SpvOpSpecConstantOp, div, 5);
  uint32_t aops[3] = {arr, elt, len};
  spv_emit(m, SPV_SEC_GLOBAL, SpvOpTypeArray, aops, 3);
  uint32_t var =
      sg_global_var(g, spv_type_ptr(m, SpvStorageClassWorkgroup, arr), SpvStorageClassWorkgroup, 0);
  spv_name(m, var, v->name);
  g->dyn_vars[g->ndyn_vars].elem = el;
  g->dyn_vars[g->ndyn_vars++].var = var;
  return var;
}

void sg_vk_check_func(SG *g, KFunc *f) {
  if (!f->is_kernel) return;
  /* (However many bytes they take: past VK_PUSH_LIMIT the block is in a buffer: sg_vk_entry.) */
  for (int i = 0; i < f->nparams; i++) {
    KVar *p = f->params[i];
    KType *t = p->type;
    int slot = sg_vk_slot_size(t);
    if (t->kind == KT_PTR && t->as != KAS_GLOBAL && t->as != KAS_CONSTANT) slot = 0;
    if (!slot)
      sg_error(g, p->loc,
               "kernel parameter '%s' of type '%s' is not supported by the Vulkan SPIR-V form "
               "yet (buffers, scalars, vectors, images, samplers and structs of 32/64-bit "
               "members and buffers are)",
               p->name, kir_type_str(t));
  }
}

/* An instruction with a result in the entry point's body: its id. */
static uint32_t wop(SG *g, SpvWords *out, SpvOp op, uint32_t type, int n, const uint32_t *ops) {
  uint32_t id = spv_id(&g->m), w[8] = {type, id};
  for (int i = 0; i < n && i < 6; i++) w[2 + i] = ops[i];
  spw_inst(out, op, w, 2 + n);
  return id;
}

/* The builtin Input variable of slot k (0 LocalInvocationId, 1 WorkgroupId, 3 NumWorkgroups:
 * v3uint; 2, which blockDim does not need in Vulkan, LocalInvocationIndex: uint). */
static uint32_t builtin_var(SG *g, int k) {
  static const SpvBuiltIn bi[4] = {SpvBuiltInLocalInvocationId, SpvBuiltInWorkgroupId,
                                   SpvBuiltInLocalInvocationIndex, SpvBuiltInNumWorkgroups};
  static const char *names[4] = {"kcc.thread_idx", "kcc.block_idx", "kcc.thread_index",
                                 "kcc.grid_dim"};
  uint32_t u32 = spv_type_int(&g->m, 32), t = k == 2 ? u32 : spv_type_vector(&g->m, u32, 3);
  return sg_builtin_input(g, k, t, bi[k], names[k]);
}

/* The entry point stores this invocation's frame address: scratch + (its linear index over
 * the whole grid) x the frame size. */
static void store_frame(SG *g, SpvWords *out, uint32_t scratch) {
  SpvModule *m = &g->m;
  uint32_t u32 = spv_type_int(m, 32), u64 = spv_type_int(m, 64), v3 = spv_type_vector(m, u32, 3);
  uint32_t wg = wop(g, out, SpvOpLoad, v3, 1, (uint32_t[]){builtin_var(g, 1)});
  uint32_t nwg = wop(g, out, SpvOpLoad, v3, 1, (uint32_t[]){builtin_var(g, 3)});
  uint32_t lidx = wop(g, out, SpvOpLoad, u32, 1, (uint32_t[]){builtin_var(g, 2)});
  uint32_t c[5];
  for (uint32_t d = 0; d < 3; d++) {
    uint32_t x = wop(g, out, SpvOpCompositeExtract, u32, 2, (uint32_t[]){wg, d});
    c[d] = wop(g, out, SpvOpUConvert, u64, 1, &x);
  }
  for (uint32_t d = 0; d < 2; d++) {
    uint32_t x = wop(g, out, SpvOpCompositeExtract, u32, 2, (uint32_t[]){nwg, d});
    c[3 + d] = wop(g, out, SpvOpUConvert, u64, 1, &x);
  }
  /* ((z * ny + y) * nx + x) * threads per block + index in the block */
  uint32_t lin = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){c[2], c[4]});
  lin = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){lin, c[1]});
  lin = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){lin, c[3]});
  lin = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){lin, c[0]});
  uint32_t bxy = wop(g, out, SpvOpIMul, u32, 2, (uint32_t[]){g->wgsize[0], g->wgsize[1]});
  uint32_t bxyz = wop(g, out, SpvOpIMul, u32, 2, (uint32_t[]){bxy, g->wgsize[2]});
  uint32_t threads = wop(g, out, SpvOpUConvert, u64, 1, &bxyz);
  lin = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){lin, threads});
  uint32_t li = wop(g, out, SpvOpUConvert, u64, 1, &lidx);
  lin = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){lin, li});
  uint32_t bytes = spv_const_int(m, 64, (g->frame_total + 15) & ~15u);
  uint32_t nz = wop(g, out, SpvOpCompositeExtract, u32, 2, (uint32_t[]){nwg, 2});
  nz = wop(g, out, SpvOpUConvert, u64, 1, &nz);
  uint32_t blocks = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){c[3], c[4]});
  blocks = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){blocks, nz});
  uint32_t all = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){blocks, threads});
  uint32_t frames = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){all, bytes});
  uint32_t wgb = spv_const_int(m, 64, (g->wgframe_total + 15) & ~15u);
  if (g->dyn_block) { /* then the dynamic part, the launch's size rounded to 16 */
    uint32_t d =
        wop(g, out, SpvOpIAdd, u32, 2, (uint32_t[]){g->dyn_bytes, spv_const_int(m, 32, 15)});
    d = wop(g, out, SpvOpBitwiseAnd, u32, 2, (uint32_t[]){d, spv_const_int(m, 32, ~15u)});
    d = wop(g, out, SpvOpUConvert, u64, 1, &d);
    wgb = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){spv_const_int(m, 64, dyn_offset(g)), d});
  }
  if (g->printf_var) {
    /* The print buffer: after the frames and the shared blocks. */
    uint32_t pa = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){blocks, wgb});
    pa = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){pa, frames});
    pa = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){pa, scratch});
    spw_inst(out, SpvOpStore, (uint32_t[]){g->printf_var, pa}, 2);
  }
  if (g->wgframe_total || g->dyn_block) {
    /* The workgroup's shared block: after every invocation's frame, block (z * ny + y) * nx
     * + x of the grid's. */
    uint32_t blk = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){c[2], c[4]});
    blk = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){blk, c[1]});
    blk = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){blk, c[3]});
    blk = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){blk, c[0]});
    blk = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){blk, wgb});
    blk = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){blk, frames});
    blk = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){blk, scratch});
    spw_inst(out, SpvOpStore, (uint32_t[]){g->wgframe_var, blk}, 2);
  }
  if (!g->frame_total) return;
  uint32_t off = wop(g, out, SpvOpIMul, u64, 2, (uint32_t[]){lin, bytes});
  uint32_t base = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){scratch, off});
  uint32_t st[2] = {frame_var(g), base};
  spw_inst(out, SpvOpStore, st, 2);
  for (int i = 0; i < g->esc_consts.n; i++) { /* the module constants' copies */
    KVar *v = g->esc_consts.v[i];
    SVar *s = v->aux;
    uint32_t a = wop(g, out, SpvOpIAdd, u64, 2, (uint32_t[]){base, spv_const_int(m, 64, s->wg)});
    uint32_t p = wop(g, out, SpvOpConvertUToPtr,
                     sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, v->type), 1, &a);
    uint32_t al = v->type->align > 0 ? (uint32_t)v->type->align : 1;
    uint32_t ops[4] = {p, s->val, SpvMemoryAccessAlignedMask, al};
    spw_inst(out, SpvOpStore, ops, 4);
  }
}

void sg_vk_entry(SG *g, KFunc *f) {
  SpvModule *m = &g->m;
  int np = f->nparams;
  /* The subgroup width a kernel was written for is a pipeline's choice in Vulkan
     (VK_EXT_subgroup_size_control), not the module's: refused rather than ignored. */
  if (f->reqd_subgroup > 0)
    sg_error(g, f->loc,
             "kernel '%s' requires subgroups of %d (intel_reqd_sub_group_size), which the "
             "Vulkan SPIR-V form cannot ask for yet",
             f->name, f->reqd_subgroup);
  bool frame = g->frame_total > 0 || g->wgframe_total > 0 || g->dyn_block || g->printf_var;
  uint32_t u32 = spv_type_int(m, 32), u64 = spv_type_int(m, 64), voidt = spv_type_void(m);
  uint32_t *mem = calloc((size_t)np + (size_t)f->symbols.n + 2, sizeof *mem);
  uint32_t *offs = calloc((size_t)np + (size_t)f->symbols.n + 2, sizeof *offs);
  uint32_t *args = calloc((size_t)np + (size_t)f->symbols.n + 2, sizeof *args);
  uint32_t off = 0;
  for (int i = 0; i < np; i++) {
    KType *t = f->params[i]->type;
    uint32_t slot = (uint32_t)sg_vk_slot_size(t), al = (uint32_t)sg_vk_slot_align(t);
    off = (off + al - 1) / al * al;
    offs[i] = off;
    off += slot;
    mem[i] = t->kind == KT_PTR ? u64 : t->size < 4 ? u32 : sg_type(g, t);
  }
  int nmem = np;
  for (int i = 0; i < f->symbols.n; i++) { /* each host-filled variable's buffer address */
    off = (off + 7) / 8 * 8;
    offs[nmem] = off;
    mem[nmem++] = u64;
    off += 8;
  }
  if (frame) { /* the scratch buffer's address, after the parameters */
    off = (off + 7) / 8 * 8;
    offs[nmem] = off;
    mem[nmem++] = u64;
    off += 8;
  }
  /* Past the push-constant size every device has, the block is in a buffer the runtime fills
   * per launch, and the push constants hold its address (docs/bundle.md, "Vulkan"). */
  bool spill = off > VK_PUSH_LIMIT;
  uint32_t var = 0, blkp = 0;
  if (nmem > 0) {
    uint32_t blk = spv_type_struct(m, mem, nmem);
    spv_decorate(m, blk, SpvDecorationBlock, NULL, 0);
    for (int i = 0; i < nmem; i++) {
      uint32_t ops[4] = {blk, (uint32_t)i, SpvDecorationOffset, offs[i]};
      spv_emit(m, SPV_SEC_ANNOTATION, SpvOpMemberDecorate, ops, 4);
      const char *mn = i < np                  ? f->params[i]->name
                       : i < np + f->symbols.n ? ((KVar *)f->symbols.v[i - np])->name
                                               : "kcc.scratch";
      spv_member_name(m, blk, (uint32_t)i, mn);
    }
    char name[300];
    snprintf(name, sizeof name, "kcc.params.%s", f->name);
    spv_name(m, blk, name);
    uint32_t pblk = blk;
    if (spill) {
      blkp = spv_type_ptr(m, SpvStorageClassPhysicalStorageBuffer, blk);
      pblk = spv_type_struct(m, &u64, 1);
      spv_decorate(m, pblk, SpvDecorationBlock, NULL, 0);
      uint32_t ops[4] = {pblk, 0, SpvDecorationOffset, 0};
      spv_emit(m, SPV_SEC_ANNOTATION, SpvOpMemberDecorate, ops, 4);
      spv_member_name(m, pblk, 0, "kcc.params_address");
      snprintf(name, sizeof name, "kcc.spilled.%s", f->name);
      spv_name(m, pblk, name);
    }
    var = sg_global_var(g, spv_type_ptr(m, SpvStorageClassPushConstant, pblk),
                        SpvStorageClassPushConstant, 0);
  }
  /* The entry point: reads each parameter, makes it the kernel's type, calls the kernel. */
  SpvWords *out = &m->sec[SPV_SEC_FUNCTION];
  uint32_t fid = spv_id(m), label = spv_id(m);
  uint32_t head[4] = {voidt, fid, SpvFunctionControlMaskNone, spv_type_func(m, voidt, NULL, 0)};
  spw_inst(out, SpvOpFunction, head, 4);
  spw_inst(out, SpvOpLabel, &label, 1);
  int na = 0;
  args[na++] = (uint32_t)(uintptr_t)f->aux;
  uint32_t src = var;
  if (spill) {
    uint32_t pa = wop(g, out, SpvOpAccessChain, spv_type_ptr(m, SpvStorageClassPushConstant, u64),
                      2, (uint32_t[]){var, spv_const_int(m, 32, 0)});
    uint32_t a = wop(g, out, SpvOpLoad, u64, 1, &pa);
    src = wop(g, out, SpvOpConvertUToPtr, blkp, 1, &a);
  }
  for (int i = 0; i < nmem; i++) {
    SpvStorageClass sc = spill ? SpvStorageClassPhysicalStorageBuffer : SpvStorageClassPushConstant;
    uint32_t p = wop(g, out, SpvOpAccessChain, spv_type_ptr(m, sc, mem[i]), 2,
                     (uint32_t[]){src, spv_const_int(m, 32, (uint64_t)i)});
    /* In the buffer: aligned as its offset is (the buffer itself to 16 bytes). */
    uint32_t al = 16;
    while (offs[i] % al) al /= 2;
    uint32_t v =
        spill ? wop(g, out, SpvOpLoad, mem[i], 3, (uint32_t[]){p, SpvMemoryAccessAlignedMask, al})
              : wop(g, out, SpvOpLoad, mem[i], 1, &p);
    if (i >= np + f->symbols.n) { /* the scratch address */
      store_frame(g, out, v);
      continue;
    }
    if (i >= np) { /* a host-filled variable's address: the kernel's hidden parameter */
      KVar *sv = f->symbols.v[i - np];
      args[na++] = wop(g, out, SpvOpConvertUToPtr,
                       sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, sv->type), 1, &v);
      continue;
    }
    KType *t = f->params[i]->type;
    if (t->kind == KT_PTR || t->size < 4)
      v = wop(g, out, t->kind == KT_PTR ? SpvOpConvertUToPtr : SpvOpUConvert, sg_type(g, t), 1, &v);
    args[na++] = v;
  }
  uint32_t call[2] = {voidt, spv_id(m)};
  SpvWords tmp = {0};
  spw_append(&tmp, call, 2);
  spw_append(&tmp, args, (size_t)na);
  spw_inst(out, SpvOpFunctionCall, tmp.w, (int)tmp.n);
  spw_free(&tmp);
  spw_inst(out, SpvOpReturn, NULL, 0);
  spw_inst(out, SpvOpFunctionEnd, NULL, 0);

  /* SPIR-V 1.0's interface is the Input variables the entry point reaches: the builtins. */
  SpvWords *b = &m->sec[SPV_SEC_ENTRY];
  int nif = 0;
  for (int k = 0; k < SG_NBUILTIN; k++) nif += g->builtin[k] != 0;
  spw_push(b, ((uint32_t)(3 + spw_string_words(f->name) + nif) << SpvWordCountShift) |
                  SpvOpEntryPoint);
  spw_push(b, SpvExecutionModelGLCompute);
  spw_push(b, fid);
  spw_string(b, f->name);
  for (int k = 0; k < SG_NBUILTIN; k++)
    if (g->builtin[k]) spw_push(b, g->builtin[k]);
  /* Vulkan lets drivers ignore the sign of zero, infinities and NaN unless asked (Mesa turned
   * 0 * -x into +0), and flush denormals (NVIDIA's does: docs/driver-bugs.md 25): C's floats
   * keep them, except under -ffast-math. A device that does not offer to keep denormals
   * (lavapipe, a CPU that keeps them anyway) gets the module without DenormPreserve
   * (runtime/vulkan.c). */
  if (!g->o->fast_math) {
    spv_capability(m, SpvCapabilitySignedZeroInfNanPreserve);
    spv_capability(m, SpvCapabilityDenormPreserve);
    spv_extension(m, "SPV_KHR_float_controls");
    for (int w = 32; w <= 64; w += 32) {
      if (w == 64 && !spv_has_capability(m, SpvCapabilityFloat64)) continue;
      uint32_t em[3] = {fid, SpvExecutionModeSignedZeroInfNanPreserve, (uint32_t)w};
      spv_emit(m, SPV_SEC_EXEC_MODE, SpvOpExecutionMode, em, 3);
      em[1] = SpvExecutionModeDenormPreserve;
      spv_emit(m, SPV_SEC_EXEC_MODE, SpvOpExecutionMode, em, 3);
    }
  }
  free(mem);
  free(offs);
  free(args);
}

/* ---------------------------------------------------------------- printf */

/* Vulkan has no printf: a call appends a record to the print buffer, which the runtime reads
 * back and formats after the launch (docs/bundle.md, "Vulkan"). The record is a u32 format
 * number (the n-th OpString "kcc.printf:FORMAT" of the module), a u32 argument count and an
 * 8-byte slot per argument: integers widened by their signedness, floats as double bits,
 * pointers as addresses, a string literal as its number (the n-th "kcc.str:TEXT"). The
 * header's first word counts the bytes asked for; a record past the end is dropped. */
static uint32_t printf_slot(SG *g, const KType *t, uint32_t v) {
  uint32_t u64 = spv_type_int(&g->m, 64);
  /* A vector or an aggregate: an argument the format leaves unused (the front end checks
   * each conversion's argument, and spells OpenCL C's `%v4hlf` as one per element). */
  if (t->kind == KT_VEC || t->kind == KT_STRUCT || t->kind == KT_ARRAY)
    return spv_const_int(&g->m, 64, 0);
  if (t->kind == KT_PTR) return sg_opv(g, SpvOpConvertPtrToU, u64, 1, v);
  if (kir_is_float(t))
    return sg_opv(g, SpvOpBitcast, u64, 1,
                  sg_bits(t) == 64 ? v : sg_opv(g, SpvOpFConvert, spv_type_float(&g->m, 64), 1, v));
  if (t->kind == KT_BOOL)
    return sg_opv(g, SpvOpSelect, u64, 3, v, spv_const_int(&g->m, 64, 1),
                  spv_const_int(&g->m, 64, 0));
  if (sg_bits(t) < 64)
    return sg_opv(g, kir_is_signed(t) ? SpvOpSConvert : SpvOpUConvert, u64, 1, v);
  return v;
}

uint32_t sg_vk_printf(SG *g, KExpr *e, const KExpr *fmt) {
  SpvModule *m = &g->m;
  uint32_t u32 = spv_type_int(m, 32), u64 = spv_type_int(m, 64), bt = spv_type_bool(m);
  uint32_t rt = sg_type(g, e->type);
  if (strlen(fmt->str) + 1 < fmt->len) {
    sg_error(g, e->loc,
             "a printf format with a NUL character is not supported by the Vulkan "
             "SPIR-V form");
    return spv_undef(m, rt);
  }
  if (!g->printf_var) {
    g->printf_var =
        sg_global_var(g, spv_type_ptr(m, SpvStorageClassPrivate, u64), SpvStorageClassPrivate, 0);
    spv_name(m, g->printf_var, "kcc.print_buffer");
  }
  char *text = malloc(strlen(fmt->str) + 16);
  sprintf(text, "kcc.printf:%s", fmt->str);
  spv_string(m, text);
  free(text);
  uint32_t id = (uint32_t)g->nformats++;
  int nargs = e->nargs - 1;
  uint32_t *vals = calloc((size_t)nargs + 1, sizeof *vals);
  for (int i = 0; i < nargs; i++) {
    KExpr *a = e->args[i + 1];
    const KExpr *s = a;
    while (s->kind == KE_CAST) s = s->a;
    const KType *t = a->type;
    if (s->kind == KE_STR) {
      text = malloc(s->len + 16);
      snprintf(text, s->len + 16, "kcc.str:%s", s->str);
      spv_string(m, text);
      free(text);
      vals[i] = spv_const_int(m, 64, (uint64_t)g->nstrings++);
      continue;
    }
    vals[i] = printf_slot(g, t, sg_expr(g, a));
  }
  uint32_t size = 8 + 8 * (uint32_t)nargs;
  uint32_t base = sg_op(g, SpvOpLoad, u64, 1, &g->printf_var);
  uint32_t hp = sg_opv(
      g, SpvOpConvertUToPtr,
      sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, kir_type_scalar(KT_U32)), 1, base);
  uint32_t off = sg_opv(g, SpvOpAtomicIAdd, u32, 4, hp, sg_u32(g, SpvScopeDevice), sg_u32(g, 0),
                        sg_u32(g, size));
  uint32_t end = sg_opv(g, SpvOpIAdd, u32, 2, off, sg_u32(g, size));
  uint32_t fits =
      sg_opv(g, SpvOpLogicalAnd, bt, 2,
             sg_opv(g, SpvOpULessThanEqual, bt, 2, end, sg_u32(g, VK_PRINT_BYTES - VK_PRINT_HEAD)),
             sg_opv(g, SpvOpUGreaterThan, bt, 2, end, off)); /* no wrap */
  uint32_t then = spv_id(m), merge = spv_id(m);
  sg_branch_cond_merge(g, fits, then, merge, merge);
  sg_start_block(g, then);
  uint32_t rec = sg_opv(g, SpvOpIAdd, u64, 2, base,
                        sg_opv(g, SpvOpIAdd, u64, 2, sg_opv(g, SpvOpUConvert, u64, 1, off),
                               spv_const_int(m, 64, VK_PRINT_HEAD)));
  uint32_t pu32 = sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, kir_type_scalar(KT_U32));
  uint32_t pu64 = sg_ptr_type(g, SpvStorageClassPhysicalStorageBuffer, kir_type_scalar(KT_U64));
  uint32_t p = sg_opv(g, SpvOpConvertUToPtr, pu32, 1, rec);
  sg_store(g, kir_type_scalar(KT_U32), p, sg_u32(g, id), false);
  p = sg_opv(g, SpvOpConvertUToPtr, pu32, 1,
             sg_opv(g, SpvOpIAdd, u64, 2, rec, spv_const_int(m, 64, 4)));
  sg_store(g, kir_type_scalar(KT_U32), p, sg_u32(g, (uint32_t)nargs), false);
  for (int i = 0; i < nargs; i++) {
    p = sg_opv(g, SpvOpConvertUToPtr, pu64, 1,
               sg_opv(g, SpvOpIAdd, u64, 2, rec, spv_const_int(m, 64, 8 + 8 * (uint64_t)i)));
    sg_store(g, kir_type_scalar(KT_U64), p, vals[i], false);
  }
  free(vals);
  sg_branch(g, merge);
  sg_start_block(g, merge);
  return spv_const_int(m, sg_bits(e->type), 0);
}

/* ---------------------------------------------------------------- exact division, sqrt */

/* A float operation the driver must compute as written (NoContraction, Mesa's "exact"):
 * the error-free transformations below rely on each rounding. sg_op decorates them all when
 * contraction is off already. */
uint32_t sg_vk_exact(SG *g, SpvOp op, uint32_t type, uint32_t a, uint32_t b) {
  uint32_t id = sg_opv(g, op, type, 2, a, b);
  if (!g->vk_no_contract) spv_decorate(&g->m, id, SpvDecorationNoContraction, NULL, 0);
  return id;
}

static uint32_t bool_type(SG *g, const KType *t) {
  uint32_t b = spv_type_bool(&g->m);
  return t->kind == KT_VEC ? spv_type_vector(&g->m, b, (int)t->len) : b;
}

/* Boolean specialisation constant `spec` named `name` with default value `on`, made once
 * (its id kept in *id), as a vector of t's shape where t is a vector: a select's condition. */
static uint32_t spec_bool(SG *g, uint32_t *id, bool on, uint32_t spec, const char *name,
                          const KType *t) {
  SpvModule *m = &g->m;
  if (!*id) {
    *id = spv_id(m);
    uint32_t ops[2] = {spv_type_bool(m), *id};
    spv_emit(m, SPV_SEC_GLOBAL, on ? SpvOpSpecConstantTrue : SpvOpSpecConstantFalse, ops, 2);
    spv_decorate(m, *id, SpvDecorationSpecId, &spec, 1);
    spv_name(m, *id, name);
  }
  if (t->kind != KT_VEC) return *id;
  uint32_t c[16];
  for (uint32_t i = 0; i < t->len; i++) c[i] = *id;
  return sg_op(g, SpvOpCompositeConstruct, bool_type(g, t), (int)t->len, c);
}

/* The signed-zero fixes of products and sums below (docs/driver-bugs.md 21) are for compilers
 * that fold arithmetic with zeros wrongly: Mesa's (lavapipe; RADV and ANV share its NIR). A
 * boolean specialisation constant, SpecId 7 "kcc.zero_fixes", true unless the runtime knows
 * the driver is right (runtime/vulkan.c), guards them, so that where it is false the driver
 * folds them away: they made a matrix product three times slower on NVIDIA's (bench/
 * RESULTS.md, session 29). Quotients keep theirs everywhere: Vulkan leaves a division by
 * zero (or outside 2^-126..2^126) undefined, and NVIDIA's gives NaN for x / 0. As a vector
 * of t's shape, for a select's condition. */
static uint32_t zero_fixes(SG *g, const KType *t) {
  return spec_bool(g, &g->vk_zero_fixes, true, 7, "kcc.zero_fixes", t);
}

/* Exact products and residuals below are Dekker's (a split into halves and four products),
 * as Vulkan's Fma need not be fused and lavapipe's is not. Where the driver's is (NVIDIA's:
 * its FFMA/DFMA), one Fma gives them: a boolean specialisation constant, SpecId 9
 * "kcc.fma_fused", false unless the runtime knows the driver's Fma rounds once
 * (runtime/vulkan.c), chooses, and the driver folds the other branch away. Dekker's products
 * cost a double division 18% there (ddiv 0.339 -> 0.279 ms on an H200: bench/RESULTS.md). As
 * a vector of t's shape, for a select's condition. */
uint32_t sg_vk_fma_fused(SG *g, const KType *t) {
  return spec_bool(g, &g->vk_fma_fused, false, 9, "kcc.fma_fused", t);
}

uint32_t sg_vk_driver_fma(SG *g, uint32_t ft, uint32_t a, uint32_t b, uint32_t c) {
  return sg_opv(g, SpvOpExtInst, ft, 5, sg_vk_glsl_import(g), (uint32_t)GLSLstd450Fma, a, b, c);
}

/* cond, where the zero fixes apply. */
static uint32_t if_fixes(SG *g, const KType *t, uint32_t cond) {
  return sg_opv(g, SpvOpLogicalAnd, bool_type(g, t), 2, cond, zero_fixes(g, t));
}

uint32_t sg_vk_is_finite(SG *g, const KType *t, uint32_t v) {
  uint32_t bt = bool_type(g, t);
  uint32_t nan = sg_opv(g, SpvOpIsNan, bt, 1, v), inf = sg_opv(g, SpvOpIsInf, bt, 1, v);
  uint32_t bad = sg_opv(g, SpvOpLogicalOr, bt, 2, nan, inf);
  return sg_opv(g, SpvOpLogicalNot, bt, 1, bad);
}

/* q0 corrected by r / d, r the exact residual fma(-q0, d, n) (Markstein): the result is
 * correctly rounded once q0 is within a few ulp. Where q0 is 0, infinite or NaN (and so the
 * residual meaningless) q0 itself is the answer: the special cases are exact already. */
/* x split into a high half and a low half of 26 bits each (Veltkamp): hi + lo = x, and the
 * product of two halves is exact in double. */
static void split(SG *g, const KType *t, uint32_t x, uint32_t *hi, uint32_t *lo) {
  uint32_t ft = sg_type(g, t);
  uint32_t k = sg_convert(g, spv_const_float(&g->m, 64, 134217729.0), kir_type_scalar(KT_F64), t,
                          (KLoc){0}); /* 2^27 + 1 */
  uint32_t c = sg_vk_exact(g, SpvOpFMul, ft, k, x);
  *hi = sg_vk_exact(g, SpvOpFSub, ft, c, sg_vk_exact(g, SpvOpFSub, ft, c, x));
  *lo = sg_vk_exact(g, SpvOpFSub, ft, x, *hi);
}

/* n - x * y exactly, for x * y close to n: one fused Fma, or Dekker's product (sg_vk_fma_fused). */
static uint32_t residual(SG *g, const KType *t, uint32_t n, uint32_t x, uint32_t y) {
  uint32_t ft = sg_type(g, t), xh, xl, yh, yl;
  split(g, t, x, &xh, &xl);
  split(g, t, y, &yh, &yl);
  uint32_t p = sg_vk_exact(g, SpvOpFMul, ft, x, y);
  uint32_t e = sg_vk_exact(g, SpvOpFSub, ft, sg_vk_exact(g, SpvOpFMul, ft, xh, yh), p);
  e = sg_vk_exact(g, SpvOpFAdd, ft, e, sg_vk_exact(g, SpvOpFMul, ft, xh, yl));
  e = sg_vk_exact(g, SpvOpFAdd, ft, e, sg_vk_exact(g, SpvOpFMul, ft, xl, yh));
  e = sg_vk_exact(g, SpvOpFAdd, ft, e, sg_vk_exact(g, SpvOpFMul, ft, xl, yl)); /* x * y = p + e */
  uint32_t dekker = sg_vk_exact(g, SpvOpFSub, ft, sg_vk_exact(g, SpvOpFSub, ft, n, p), e);
  uint32_t fused = sg_vk_driver_fma(g, ft, sg_opv(g, SpvOpFNegate, ft, 1, x), y, n);
  return sg_opv(g, SpvOpSelect, ft, 3, sg_vk_fma_fused(g, t), fused, dekker);
}

/* s with its last bit made odd towards t when t is not 0 and s is even: s + t rounded to odd,
 * for (s, t) an exact sum (TwoSum). */
static uint32_t round_odd(SG *g, const KType *t, uint32_t s, uint32_t tl) {
  uint32_t d = sg_type(g, t), bt = bool_type(g, t);
  KType *ut = kir_type_scalar(KT_U64);
  if (t->kind == KT_VEC) ut = kir_type_vec(ut, (int)t->len);
  uint32_t u = sg_type(g, ut), zero_d = sg_zero(g, t), zero_u = sg_zero(g, ut);
  uint32_t one = sg_convert(g, spv_const_int(&g->m, 64, 1), kir_type_scalar(KT_U64), ut, (KLoc){0});
  uint32_t bits = sg_opv(g, SpvOpBitcast, u, 1, s);
  uint32_t even =
      sg_opv(g, SpvOpIEqual, bt, 2, sg_opv(g, SpvOpBitwiseAnd, u, 2, bits, one), zero_u);
  uint32_t inexact = sg_opv(g, SpvOpFUnordNotEqual, bt, 2, tl, zero_d);
  uint32_t nz = sg_opv(g, SpvOpFUnordNotEqual, bt, 2, s, zero_d);
  uint32_t same =
      sg_opv(g, SpvOpLogicalEqual, bt, 2, sg_opv(g, SpvOpFOrdLessThan, bt, 2, tl, zero_d),
             sg_opv(g, SpvOpFOrdLessThan, bt, 2, s, zero_d));
  uint32_t moved = sg_opv(g, SpvOpSelect, u, 3, same, sg_opv(g, SpvOpIAdd, u, 2, bits, one),
                          sg_opv(g, SpvOpISub, u, 2, bits, one));
  uint32_t adjust =
      sg_opv(g, SpvOpLogicalAnd, bt, 2, sg_opv(g, SpvOpLogicalAnd, bt, 2, even, inexact),
             sg_opv(g, SpvOpLogicalAnd, bt, 2, nz, sg_vk_is_finite(g, t, s)));
  return sg_opv(g, SpvOpBitcast, d, 1, sg_opv(g, SpvOpSelect, u, 3, adjust, moved, bits));
}

/* x + y = *s + *e exactly (Knuth's TwoSum). */
static void two_sum(SG *g, uint32_t ft, uint32_t x, uint32_t y, uint32_t *s, uint32_t *e) {
  *s = sg_vk_exact(g, SpvOpFAdd, ft, x, y);
  uint32_t bb = sg_vk_exact(g, SpvOpFSub, ft, *s, x);
  *e = sg_vk_exact(g, SpvOpFAdd, ft,
                   sg_vk_exact(g, SpvOpFSub, ft, x, sg_vk_exact(g, SpvOpFSub, ft, *s, bb)),
                   sg_vk_exact(g, SpvOpFSub, ft, y, bb));
}

static uint32_t mul_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q, bool gated);

/* fma(a, b, c) in double correctly rounded without a fused Fma (Boldo and Melquiond): a * b =
 * ph + pl exactly (Dekker), c + ph = sh + sl exactly, then sh + (sl + pl rounded to odd),
 * rounded to nearest. Where a step overflows or meets infinity or NaN, the driver's Fma gives
 * the answer (those cases are exact or special already). */
uint32_t sg_vk_fma64(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t c) {
  uint32_t ft = sg_type(g, t), ah, al, bh, bl;
  split(g, t, a, &ah, &al);
  split(g, t, b, &bh, &bl);
  uint32_t ph = sg_vk_exact(g, SpvOpFMul, ft, a, b);
  uint32_t pl = sg_vk_exact(g, SpvOpFSub, ft, sg_vk_exact(g, SpvOpFMul, ft, ah, bh), ph);
  pl = sg_vk_exact(g, SpvOpFAdd, ft, pl, sg_vk_exact(g, SpvOpFMul, ft, ah, bl));
  pl = sg_vk_exact(g, SpvOpFAdd, ft, pl, sg_vk_exact(g, SpvOpFMul, ft, al, bh));
  pl = sg_vk_exact(g, SpvOpFAdd, ft, pl, sg_vk_exact(g, SpvOpFMul, ft, al, bl));
  uint32_t sh, sl, w, we;
  two_sum(g, ft, c, ph, &sh, &sl);
  two_sum(g, ft, sl, pl, &w, &we);
  uint32_t r = sg_vk_exact(g, SpvOpFAdd, ft, sh, round_odd(g, t, w, we));
  uint32_t bt = bool_type(g, t);
  uint32_t ok = sg_opv(
      g, SpvOpLogicalAnd, bt, 2, sg_vk_is_finite(g, t, r),
      sg_opv(g, SpvOpLogicalAnd, bt, 2, sg_vk_is_finite(g, t, pl), sg_vk_is_finite(g, t, sl)));
  uint32_t drv = sg_vk_driver_fma(g, ft, a, b, c);
  r = sg_opv(g, SpvOpSelect, ft, 3, ok, r, drv);
  /* A zero factor: the product p is a signed zero (or NaN), and p + c is c, or a zero negative
   * only when both are, made without float arithmetic (lavapipe got the emulation's zero of
   * fma(x, 0.0, 0.0) as -0.0, and folds x + 0.0 to x: docs/driver-bugs.md 21). */
  KType *it = kir_type_scalar(KT_U64);
  if (t->kind == KT_VEC) it = kir_type_vec(it, (int)t->len);
  uint32_t ity = sg_type(g, it), zero = sg_zero(g, t);
  uint32_t z = sg_opv(g, SpvOpLogicalOr, bt, 2, sg_opv(g, SpvOpFOrdEqual, bt, 2, a, zero),
                      sg_opv(g, SpvOpFOrdEqual, bt, 2, b, zero));
  uint32_t p = mul_zero(g, t, a, b, sg_vk_exact(g, SpvOpFMul, ft, a, b), false);
  uint32_t both = sg_opv(g, SpvOpBitcast, ft, 1,
                         sg_opv(g, SpvOpBitwiseAnd, ity, 2, sg_opv(g, SpvOpBitcast, ity, 1, p),
                                sg_opv(g, SpvOpBitcast, ity, 1, c)));
  uint32_t sum = sg_opv(g, SpvOpSelect, ft, 3, sg_opv(g, SpvOpFOrdEqual, bt, 2, c, zero), both, c);
  sum = sg_opv(g, SpvOpSelect, ft, 3, sg_opv(g, SpvOpIsNan, bt, 1, p), p, sum);
  r = sg_opv(g, SpvOpSelect, ft, 3, z, sum, r);
  return sg_opv(g, SpvOpSelect, ft, 3, sg_vk_fma_fused(g, t), drv, r);
}

static uint32_t correct(SG *g, const KType *t, uint32_t q0, uint32_t n, uint32_t d) {
  uint32_t ft = sg_type(g, t);
  uint32_t r = residual(g, t, n, q0, d);
  uint32_t corr = sg_vk_exact(g, SpvOpFDiv, ft, r, d);
  uint32_t q1 = sg_vk_exact(g, SpvOpFAdd, ft, q0, corr);
  uint32_t zero = sg_zero(g, t);
  uint32_t bt = bool_type(g, t);
  uint32_t nz = sg_opv(g, SpvOpFUnordNotEqual, bt, 2, q0, zero);
  uint32_t use = sg_opv(g, SpvOpLogicalAnd, bt, 2, sg_vk_is_finite(g, t, q0), nz);
  uint32_t fin = sg_vk_is_finite(g, t, q1);
  use = sg_opv(g, SpvOpLogicalAnd, bt, 2, use, fin);
  return sg_opv(g, SpvOpSelect, ft, 3, use, q1, q0);
}

/* The double type of t's shape (float -> double, float4 -> double4). */
static KType *double_of(const KType *t) {
  KType *d = kir_type_scalar(KT_F64);
  return t->kind == KT_VEC ? kir_type_vec(d, (int)t->len) : d;
}

/* q, the quotient a / b, made right where lavapipe's compiler gets it wrong
 * (docs/driver-bugs.md 22): where b is zero, a times an infinity of b's sign (the store of a
 * quotient whose divisor it can fold to +0.0 disappeared); where a is zero, b if it is NaN,
 * else a zero of the sign a and b make (it folds 0.0 / b to +0.0). The selects fold away
 * where the driver knows a or b, and cost two comparisons where it does not. */
uint32_t sg_vk_div_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q) {
  uint32_t ft = sg_type(g, t), bt = bool_type(g, t);
  KType *it = kir_type_scalar(sg_bits(t) == 64 ? KT_I64 : KT_I32);
  if (t->kind == KT_VEC) it = kir_type_vec(it, (int)t->len);
  uint32_t ity = sg_type(g, it), fzero = sg_zero(g, t), izero = sg_zero(g, it);
  uint32_t ia = sg_opv(g, SpvOpBitcast, ity, 1, a), ib = sg_opv(g, SpvOpBitcast, ity, 1, b);
  uint64_t sign = sg_bits(t) == 64 ? 1ull << 63 : 1ull << 31;
  uint32_t smask =
      sg_convert(g, spv_const_int(&g->m, 64, sign), kir_type_scalar(KT_U64), it, (KLoc){0});
  uint32_t sz =
      sg_opv(g, SpvOpBitwiseAnd, ity, 2, sg_opv(g, SpvOpBitwiseXor, ity, 2, ia, ib), smask);
  uint32_t zq = sg_opv(g, SpvOpSelect, ft, 3, sg_opv(g, SpvOpIsNan, bt, 1, b), b,
                       sg_opv(g, SpvOpBitcast, ft, 1, sz));
  q = sg_opv(g, SpvOpSelect, ft, 3, sg_opv(g, SpvOpFOrdEqual, bt, 2, a, fzero), zq, q);
  uint32_t neg = sg_opv(g, SpvOpSLessThan, bt, 2, ib, izero);
  KType *f64 = kir_type_scalar(KT_F64);
  uint32_t inf = sg_convert(g, spv_const_float(&g->m, 64, INFINITY), f64, t, (KLoc){0});
  uint32_t ninf = sg_convert(g, spv_const_float(&g->m, 64, -INFINITY), f64, t, (KLoc){0});
  uint32_t by = sg_vk_exact(g, SpvOpFMul, ft, a, sg_opv(g, SpvOpSelect, ft, 3, neg, ninf, inf));
  return sg_opv(g, SpvOpSelect, ft, 3, sg_opv(g, SpvOpFOrdEqual, bt, 2, b, fzero), by, q);
}

/* q = a * b, made right where an operand is zero: NaN where the other is infinite or NaN, else
 * a zero of the sign a and b make. lavapipe folds a product with an operand its compiler
 * knows to be zero to +0.0, whatever the other's sign (docs/driver-bugs.md 21); the selects
 * fold away where it knows the operands and cost two comparisons where it does not. */
static uint32_t mul_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q, bool gated) {
  uint32_t ft = sg_type(g, t), bt = bool_type(g, t);
  KType *it = kir_type_scalar(sg_bits(t) == 64 ? KT_I64 : KT_I32);
  if (t->kind == KT_VEC) it = kir_type_vec(it, (int)t->len);
  uint32_t ity = sg_type(g, it), fzero = sg_zero(g, t);
  uint32_t ia = sg_opv(g, SpvOpBitcast, ity, 1, a), ib = sg_opv(g, SpvOpBitcast, ity, 1, b);
  uint64_t sign = sg_bits(t) == 64 ? 1ull << 63 : 1ull << 31;
  uint32_t smask =
      sg_convert(g, spv_const_int(&g->m, 64, sign), kir_type_scalar(KT_U64), it, (KLoc){0});
  uint32_t sz =
      sg_opv(g, SpvOpBitcast, ft, 1,
             sg_opv(g, SpvOpBitwiseAnd, ity, 2, sg_opv(g, SpvOpBitwiseXor, ity, 2, ia, ib), smask));
  uint32_t nan =
      sg_convert(g, spv_const_float(&g->m, 64, NAN), kir_type_scalar(KT_F64), t, (KLoc){0});
  uint32_t special =
      sg_opv(g, SpvOpLogicalNot, bt, 1,
             sg_opv(g, SpvOpLogicalAnd, bt, 2, sg_vk_is_finite(g, t, a), sg_vk_is_finite(g, t, b)));
  uint32_t zq = sg_opv(g, SpvOpSelect, ft, 3, special, nan, sz);
  uint32_t z = sg_opv(g, SpvOpLogicalOr, bt, 2, sg_opv(g, SpvOpFOrdEqual, bt, 2, a, fzero),
                      sg_opv(g, SpvOpFOrdEqual, bt, 2, b, fzero));
  return sg_opv(g, SpvOpSelect, ft, 3, gated ? if_fixes(g, t, z) : z, zq, q);
}

uint32_t sg_vk_mul_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q) {
  return mul_zero(g, t, a, b, q, true);
}

/* q = a + b (or a - b), made right where both are zeros: a zero negative only when both (a
 * and -b for a subtraction) are. lavapipe folds x + 0.0 to x where its compiler knows the
 * 0.0, giving -0.0 + 0.0 as -0.0, even for a NoContraction addition (docs/driver-bugs.md 21);
 * the select folds with it, and costs two comparisons where it does not. */
uint32_t sg_vk_add_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q, bool sub) {
  uint32_t ft = sg_type(g, t), bt = bool_type(g, t);
  KType *it = kir_type_scalar(sg_bits(t) == 64 ? KT_I64 : KT_I32);
  if (t->kind == KT_VEC) it = kir_type_vec(it, (int)t->len);
  uint32_t ity = sg_type(g, it), fzero = sg_zero(g, t);
  uint64_t sbit = sg_bits(t) == 64 ? 1ull << 63 : 1ull << 31;
  uint32_t sign =
      sg_convert(g, spv_const_int(&g->m, 64, sbit), kir_type_scalar(KT_U64), it, (KLoc){0});
  uint32_t ia = sg_opv(g, SpvOpBitcast, ity, 1, a), ib = sg_opv(g, SpvOpBitcast, ity, 1, b);
  if (sub) ib = sg_opv(g, SpvOpBitwiseXor, ity, 2, ib, sign);
  uint32_t zs =
      sg_opv(g, SpvOpBitcast, ft, 1,
             sg_opv(g, SpvOpBitwiseAnd, ity, 2, sg_opv(g, SpvOpBitwiseAnd, ity, 2, ia, ib), sign));
  uint32_t both = sg_opv(g, SpvOpLogicalAnd, bt, 2, sg_opv(g, SpvOpFOrdEqual, bt, 2, a, fzero),
                         sg_opv(g, SpvOpFOrdEqual, bt, 2, b, fzero));
  return sg_opv(g, SpvOpSelect, ft, 3, if_fixes(g, t, both), zs, q);
}

/* The double constant v as type t (a scalar or a vector of doubles). */
static uint32_t dconst(SG *g, const KType *t, double v) {
  return sg_convert(g, spv_const_float(&g->m, 64, v), kir_type_scalar(KT_F64), t, (KLoc){0});
}

/* A power of two by which x is multiplied: big where |x| < lo, small where |x| > hi, else 1
 * (lo 0: never big). */
static uint32_t pick_scale(SG *g, const KType *t, uint32_t x, double lo, double big, double hi,
                           double small) {
  uint32_t ft = sg_type(g, t), bt = bool_type(g, t);
  uint32_t ax = sg_opv(g, SpvOpExtInst, ft, 3, sg_vk_glsl_import(g), (uint32_t)GLSLstd450FAbs, x);
  uint32_t k =
      sg_opv(g, SpvOpSelect, ft, 3, sg_opv(g, SpvOpFOrdGreaterThan, bt, 2, ax, dconst(g, t, hi)),
             dconst(g, t, small), dconst(g, t, 1.0));
  return sg_opv(g, SpvOpSelect, ft, 3, sg_opv(g, SpvOpFOrdLessThan, bt, 2, ax, dconst(g, t, lo)),
                dconst(g, t, big), k);
}

/* The correction step's residual is exact only where Dekker's product neither underflows
 * (q0 * b, about a, below 2^-969) nor overflows in its split (factors above 2^996): a and b
 * are scaled alike into range where a is tiny or b huge (the quotient stays), and a huge
 * quotient is corrected at 2^-128 of itself, then scaled back (exactly: it is normal). A
 * quotient below 2^-969 is corrected only as far as its denormal bits allow. */
static uint32_t div_f64(SG *g, const KType *t, uint32_t a, uint32_t b) {
  uint32_t ft = sg_type(g, t), bt = bool_type(g, t);
  uint32_t q0 = sg_opv(g, SpvOpFDiv, ft, 2, a, b);
  uint32_t glsl = sg_vk_glsl_import(g);
  uint32_t aa = sg_opv(g, SpvOpExtInst, ft, 3, glsl, (uint32_t)GLSLstd450FAbs, a);
  uint32_t ab = sg_opv(g, SpvOpExtInst, ft, 3, glsl, (uint32_t)GLSLstd450FAbs, b);
  uint32_t up = sg_opv(g, SpvOpLogicalAnd, bt, 2,
                       sg_opv(g, SpvOpFOrdLessThan, bt, 2, aa, dconst(g, t, 0x1p-900)),
                       sg_opv(g, SpvOpFOrdLessThan, bt, 2, ab, dconst(g, t, 0x1p300)));
  uint32_t down = sg_opv(g, SpvOpLogicalAnd, bt, 2,
                         sg_opv(g, SpvOpFOrdGreaterThan, bt, 2, ab, dconst(g, t, 0x1p900)),
                         sg_opv(g, SpvOpFOrdGreaterThan, bt, 2, aa, dconst(g, t, 0x1p-300)));
  uint32_t k =
      sg_opv(g, SpvOpSelect, ft, 3, up, dconst(g, t, 0x1p600),
             sg_opv(g, SpvOpSelect, ft, 3, down, dconst(g, t, 0x1p-600), dconst(g, t, 1.0)));
  uint32_t kq = pick_scale(g, t, q0, 0.0, 1.0, 0x1p900, 0x1p-128);
  uint32_t as = sg_vk_exact(g, SpvOpFMul, ft, sg_vk_exact(g, SpvOpFMul, ft, a, k), kq);
  uint32_t bs = sg_vk_exact(g, SpvOpFMul, ft, b, k);
  uint32_t q0s = sg_vk_exact(g, SpvOpFMul, ft, q0, kq);
  uint32_t q1s = correct(g, t, q0s, as, bs);
  uint32_t back = pick_scale(g, t, q0, 0.0, 1.0, 0x1p900, 0x1p128); /* kq's inverse */
  uint32_t q1 = sg_vk_exact(g, SpvOpFMul, ft, q1s, back);
  return sg_vk_div_zero(g, t, a, b, q1);
}

/* x scaled by 2^128 where it is below 2^-900, by 2^-128 above 2^900 (so that neither the
 * residual's product underflows nor its split overflows), the root scaled back by 2^-64 or
 * 2^64: exact, as the root is normal. sqrt(DBL_MAX) gave -inf before (s0 * s0 overflowed). */
static uint32_t sqrt_scaled(SG *g, const KType *t, uint32_t x);
static uint32_t sqrt_f64(SG *g, const KType *t, uint32_t x) {
  uint32_t ft = sg_type(g, t);
  uint32_t kx = pick_scale(g, t, x, 0x1p-900, 0x1p128, 0x1p900, 0x1p-128);
  uint32_t ks = pick_scale(g, t, x, 0x1p-900, 0x1p-64, 0x1p900, 0x1p64);
  uint32_t s = sqrt_scaled(g, t, sg_vk_exact(g, SpvOpFMul, ft, x, kx));
  return sg_vk_exact(g, SpvOpFMul, ft, s, ks);
}

static uint32_t sqrt_scaled(SG *g, const KType *t, uint32_t x) {
  uint32_t ft = sg_type(g, t);
  uint32_t s0 = sg_opv(g, SpvOpExtInst, ft, 3, sg_vk_glsl_import(g), (uint32_t)GLSLstd450Sqrt, x);
  /* s1 = s0 + (x - s0 * s0) / (2 s0): the same step, n = x and d = s0, halved. */
  uint32_t r = residual(g, t, x, s0, s0);
  uint32_t two = sg_vk_exact(g, SpvOpFAdd, ft, s0, s0);
  uint32_t corr = sg_vk_exact(g, SpvOpFDiv, ft, r, two);
  uint32_t s1 = sg_vk_exact(g, SpvOpFAdd, ft, s0, corr);
  uint32_t bt = bool_type(g, t);
  uint32_t zero = sg_zero(g, t);
  uint32_t pos = sg_opv(g, SpvOpFOrdGreaterThan, bt, 2, s0, zero);
  uint32_t use = sg_opv(g, SpvOpLogicalAnd, bt, 2, sg_vk_is_finite(g, t, s0), pos);
  return sg_opv(g, SpvOpSelect, ft, 3, use, s1, s0);
}

/* Float division and square root go through double, where the correction step is exact
 * (lavapipe's Fma is not fused: measured, 99% of cancelling fmaf results differ) and
 * the result, correctly rounded to 53 bits, rounds correctly again to 24 (53 >= 2 x 24 + 2).
 * So exact float math needs shaderFloat64; the runtime refuses the module on a device
 * without it. */
uint32_t sg_vk_div(SG *g, const KType *t, uint32_t a, uint32_t b) {
  if (sg_bits(t) != 32) return div_f64(g, t, a, b);
  KType *dt = double_of(t);
  uint32_t dty = sg_type(g, dt);
  uint32_t da = sg_opv(g, SpvOpFConvert, dty, 1, a), db = sg_opv(g, SpvOpFConvert, dty, 1, b);
  return sg_opv(g, SpvOpFConvert, sg_type(g, t), 1, div_f64(g, dt, da, db));
}

uint32_t sg_vk_sqrt(SG *g, const KType *t, uint32_t x) {
  if (sg_bits(t) != 32) return sqrt_f64(g, t, x);
  KType *dt = double_of(t);
  uint32_t dx = sg_opv(g, SpvOpFConvert, sg_type(g, dt), 1, x);
  return sg_opv(g, SpvOpFConvert, sg_type(g, t), 1, sqrt_f64(g, dt, dx));
}

/* fmaf(a, b, c) correctly rounded: a * b is exact in double; s = p + c rounded to double and
 * its error e (TwoSum, exact) give the exact sum s + e, which rounds to odd in 53 bits (s,
 * or its neighbour towards e when s is even and e is not 0) and then to nearest in 24: no
 * double rounding error (Boldo and Melquiond). */
uint32_t sg_vk_fma32(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t c) {
  KType *dt = double_of(t);
  uint32_t d = sg_type(g, dt), ft = sg_type(g, t), bt = bool_type(g, t);
  KType *ut = kir_type_scalar(KT_U64);
  if (t->kind == KT_VEC) ut = kir_type_vec(ut, (int)t->len);
  uint32_t u = sg_type(g, ut);
  uint32_t da = sg_opv(g, SpvOpFConvert, d, 1, a), db = sg_opv(g, SpvOpFConvert, d, 1, b),
           dc = sg_opv(g, SpvOpFConvert, d, 1, c);
  uint32_t p = sg_vk_exact(g, SpvOpFMul, d, da, db);
  uint32_t sum = sg_vk_exact(g, SpvOpFAdd, d, p, dc);
  uint32_t bb = sg_vk_exact(g, SpvOpFSub, d, sum, p);
  uint32_t e = sg_vk_exact(g, SpvOpFAdd, d,
                           sg_vk_exact(g, SpvOpFSub, d, p, sg_vk_exact(g, SpvOpFSub, d, sum, bb)),
                           sg_vk_exact(g, SpvOpFSub, d, dc, bb));
  /* Neighbour towards e: the bits step by one away from zero when e has s's sign. */
  uint32_t bits = sg_opv(g, SpvOpBitcast, u, 1, sum);
  uint32_t one = sg_convert(g, spv_const_int(&g->m, 64, 1), kir_type_scalar(KT_U64), ut, (KLoc){0});
  uint32_t zero_u = sg_zero(g, ut), zero_d = sg_zero(g, dt);
  uint32_t even =
      sg_opv(g, SpvOpIEqual, bt, 2, sg_opv(g, SpvOpBitwiseAnd, u, 2, bits, one), zero_u);
  uint32_t inexact = sg_opv(g, SpvOpFUnordNotEqual, bt, 2, e, zero_d);
  uint32_t same =
      sg_opv(g, SpvOpLogicalEqual, bt, 2, sg_opv(g, SpvOpFOrdLessThan, bt, 2, e, zero_d),
             sg_opv(g, SpvOpFOrdLessThan, bt, 2, sum, zero_d));
  uint32_t up = sg_opv(g, SpvOpIAdd, u, 2, bits, one), down = sg_opv(g, SpvOpISub, u, 2, bits, one);
  uint32_t moved = sg_opv(g, SpvOpSelect, u, 3, same, up, down);
  uint32_t adjust = sg_opv(g, SpvOpLogicalAnd, bt, 2, even, inexact);
  /* Only finite, nonzero sums round to odd (0, infinities and NaN are exact or special). */
  uint32_t nz = sg_opv(g, SpvOpFUnordNotEqual, bt, 2, sum, zero_d);
  adjust = sg_opv(g, SpvOpLogicalAnd, bt, 2, adjust,
                  sg_opv(g, SpvOpLogicalAnd, bt, 2, nz, sg_vk_is_finite(g, dt, sum)));
  uint32_t odd = sg_opv(g, SpvOpBitcast, d, 1, sg_opv(g, SpvOpSelect, u, 3, adjust, moved, bits));
  return sg_opv(g, SpvOpFConvert, ft, 1, odd);
}

uint32_t sg_vk_glsl_import(SG *g) {
  if (!g->glsl) {
    g->glsl = spv_id(&g->m);
    SpvWords *b = &g->m.sec[SPV_SEC_IMPORT];
    spw_push(b, ((uint32_t)(2 + spw_string_words("GLSL.std.450")) << SpvWordCountShift) |
                    SpvOpExtInstImport);
    spw_push(b, g->glsl);
    spw_string(b, "GLSL.std.450");
  }
  return g->glsl;
}

int sg_vk_glsl_inst(SG *g, int ocl, const KExpr *e, const KType *et) {
  bool f64 = et->kind == KT_F64, approx = e->approx || g->o->fast_math;
  const char *name = kir_builtin_info(e->builtin)->name;
  int exact = -1, loose = -1;
  switch (ocl) {
  /* Exact in Vulkan (or within OpenCL's bound), at every width. */
  case OpenCLstd_Fabs: exact = GLSLstd450FAbs; break;
  case OpenCLstd_Floor: exact = GLSLstd450Floor; break;
  case OpenCLstd_Ceil: exact = GLSLstd450Ceil; break;
  case OpenCLstd_Trunc: exact = GLSLstd450Trunc; break;
  case OpenCLstd_Rint: exact = GLSLstd450RoundEven; break;
  case OpenCLstd_Fma: exact = GLSLstd450Fma; break;
  case OpenCLstd_Fmin: exact = GLSLstd450NMin; break; /* C's fmin ignores a NaN */
  case OpenCLstd_Fmax: exact = GLSLstd450NMax; break;
  case OpenCLstd_SMin: exact = GLSLstd450SMin; break;
  case OpenCLstd_SMax: exact = GLSLstd450SMax; break;
  case OpenCLstd_UMin: exact = GLSLstd450UMin; break;
  case OpenCLstd_UMax: exact = GLSLstd450UMax; break;
  case OpenCLstd_SAbs: exact = GLSLstd450SAbs; break;
  case OpenCLstd_Sqrt:
  case OpenCLstd_Native_sqrt: exact = GLSLstd450Sqrt; break;
  case OpenCLstd_Rsqrt:
  case OpenCLstd_Native_rsqrt: exact = GLSLstd450InverseSqrt; break;
  /* Vulkan's precision for these is far looser than C's (sin: 2^-11 absolute), and they
   * exist for 32-bit floats only: taken where the call allows device precision. */
  case OpenCLstd_Exp:
  case OpenCLstd_Native_exp: loose = GLSLstd450Exp; break;
  case OpenCLstd_Exp2:
  case OpenCLstd_Native_exp2: loose = GLSLstd450Exp2; break;
  case OpenCLstd_Log:
  case OpenCLstd_Native_log: loose = GLSLstd450Log; break;
  case OpenCLstd_Log2:
  case OpenCLstd_Native_log2: loose = GLSLstd450Log2; break;
  case OpenCLstd_Sin:
  case OpenCLstd_Native_sin: loose = GLSLstd450Sin; break;
  case OpenCLstd_Cos:
  case OpenCLstd_Native_cos: loose = GLSLstd450Cos; break;
  case OpenCLstd_Tan:
  case OpenCLstd_Native_tan: loose = GLSLstd450Tan; break;
  case OpenCLstd_Pow: loose = GLSLstd450Pow; break;
  case OpenCLstd_Tanh: loose = GLSLstd450Tanh; break;
  default: break;
  }
  if (exact >= 0) return exact;
  if (loose >= 0 && approx && !f64) return loose;
  /* kcc's own (spirv_vkmath.c): C's precision, and for the fast intrinsics Vulkan lacks. */
  if ((f64 || et->kind == KT_F32) && sg_vk_math_has(e->builtin, f64)) return SG_VK_OWN_MATH;
  if (e->builtin == BI_COPYSIGN) return SG_VK_OWN_MATH; /* bits: every width */
  sg_error(g, e->loc, "'%s'%s is not supported by the Vulkan SPIR-V form yet", name,
           f64 ? " on double" : "");
  return -1;
}

/* ---------------------------------------------------------------- images (issue 30)
 * docs/design.md, "Images on Vulkan": an image is a buffer of tightly packed texels (the host
 * copy's layout: x, then rows, then slices or layers) and a kernel's image parameter its
 * 32-byte descriptor, the CUDA one's layout with the texels' device address first (docs/
 * bundle.md). Reads and writes are the software forms PTX uses (frontend/opencl/image_lib.c), so
 * the sampling arithmetic is the same code on both; only the texel access is this file's. */

enum { IMG_ADDR, IMG_WIDTH, IMG_HEIGHT, IMG_DEPTH, IMG_LAYERS, IMG_ORDER, IMG_TYPE, IMG_FIELDS };

uint32_t sg_vk_image_type(SG *g) {
  if (g->vk_image) return g->vk_image;
  SpvModule *m = &g->m;
  uint32_t u32 = spv_type_int(m, 32), mem[IMG_FIELDS] = {spv_type_int(m, 64)};
  for (int i = 1; i < IMG_FIELDS; i++) mem[i] = u32;
  /* A struct of its own (never interned with a program's struct of the same members), laid
   * out for the push constants it arrives in. */
  uint32_t id = spv_type_struct(m, mem, IMG_FIELDS);
  static const char *names[IMG_FIELDS] = {"texels", "width",         "height",      "depth",
                                          "layers", "channel_order", "channel_type"};
  spv_name(m, id, "kcc.image");
  for (uint32_t i = 0; i < IMG_FIELDS; i++) {
    uint32_t ops[4] = {id, i, SpvDecorationOffset, i == 0 ? 0 : 4 + 4 * i};
    spv_emit(m, SPV_SEC_ANNOTATION, SpvOpMemberDecorate, ops, 4);
    spv_member_name(m, id, i, names[i]);
  }
  g->vk_image = id;
  return id;
}

static uint32_t img_field(SG *g, uint32_t d, int f) {
  SpvModule *m = &g->m;
  return sg_opv(g, SpvOpCompositeExtract, spv_type_int(m, f == IMG_ADDR ? 64 : 32), 2, d,
                (uint32_t)f);
}

/* BI_SURF_LOAD / BI_SURF_STORE: one texel of `bytes` at x (in bytes), y, z as image_lib.c
 * passes them (y the layer of a 1D array, z that of a 2D array). Outside the image a load
 * gives zeros and a store does nothing, as CUDA's .zero surface instructions: the load reads
 * the first texel instead (always there) and its value is dropped, the store is skipped. */
static uint32_t surf(SG *g, KExpr *e, KImageDim dim) {
  SpvModule *m = &g->m;
  bool load = e->builtin == BI_SURF_LOAD;
  KExpr *nb = e->args[load ? 4 : 5];
  int bytes = nb->kind == KE_ICONST ? (int)nb->ival : 0;
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8 && bytes != 16) {
    sg_error(g, e->loc, "internal compiler error: a texel access of %d bytes", bytes);
    return load ? spv_undef(m, sg_type(g, e->type)) : 0;
  }
  uint32_t u32 = spv_type_int(m, 32), u64 = spv_type_int(m, 64), bt = spv_type_bool(m);
  uint32_t d = sg_expr(g, e->args[0]);
  uint32_t x = sg_expr(g, e->args[1]), y = sg_expr(g, e->args[2]), z = sg_expr(g, e->args[3]);
  /* Rows per slice and slices: a 1D array's layers are its rows, a 2D array's its slices
   * (the descriptor has 1 for the extents a type lacks). */
  uint32_t w = img_field(g, d, IMG_WIDTH);
  uint32_t ny = img_field(g, d, dim == KIMG_1D_ARRAY ? IMG_LAYERS : IMG_HEIGHT);
  uint32_t nz = img_field(g, d, dim == KIMG_2D_ARRAY ? IMG_LAYERS : IMG_DEPTH);
  uint32_t row =
      sg_opv(g, SpvOpIMul, u64, 2, sg_opv(g, SpvOpUConvert, u64, 1, w), sg_u64(g, (uint64_t)bytes));
  uint32_t row32 = sg_opv(g, SpvOpIMul, u32, 2, w, sg_u32(g, (uint32_t)bytes));
  /* Unsigned comparisons: a negative coordinate is far outside. */
  uint32_t in = sg_opv(g, SpvOpULessThan, bt, 2, x, row32);
  in = sg_opv(g, SpvOpLogicalAnd, bt, 2, in, sg_opv(g, SpvOpULessThan, bt, 2, y, ny));
  in = sg_opv(g, SpvOpLogicalAnd, bt, 2, in, sg_opv(g, SpvOpULessThan, bt, 2, z, nz));
  uint32_t zy = sg_opv(g, SpvOpIAdd, u64, 2,
                       sg_opv(g, SpvOpIMul, u64, 2, sg_opv(g, SpvOpUConvert, u64, 1, z),
                              sg_opv(g, SpvOpUConvert, u64, 1, ny)),
                       sg_opv(g, SpvOpUConvert, u64, 1, y));
  uint32_t off = sg_opv(g, SpvOpIAdd, u64, 2, sg_opv(g, SpvOpIMul, u64, 2, zy, row),
                        sg_opv(g, SpvOpUConvert, u64, 1, x));
  uint32_t base = img_field(g, d, IMG_ADDR);
  uint32_t words = bytes <= 4 ? 1 : (uint32_t)bytes / 4;
  uint32_t et = bytes < 4    ? spv_type_int(m, bytes * 8)
                : words == 1 ? u32
                             : spv_type_vector(m, u32, (int)words);
  if (bytes < 4) spv_capability(m, bytes == 1 ? SpvCapabilityInt8 : SpvCapabilityInt16);
  uint32_t pt = spv_type_ptr(m, SpvStorageClassPhysicalStorageBuffer, et);
  uint32_t v4 = spv_type_vector(m, u32, 4), zero = sg_u32(g, 0);
  if (load) {
    uint32_t at = sg_opv(g, SpvOpSelect, u64, 3, in, sg_opv(g, SpvOpIAdd, u64, 2, base, off), base);
    uint32_t p = sg_opv(g, SpvOpConvertUToPtr, pt, 1, at);
    uint32_t v =
        sg_opv(g, SpvOpLoad, et, 3, p, (uint32_t)SpvMemoryAccessAlignedMask, (uint32_t)bytes);
    uint32_t c[4] = {zero, zero, zero, zero};
    if (bytes < 4)
      c[0] = sg_opv(g, SpvOpUConvert, u32, 1, v);
    else if (words == 1)
      c[0] = v;
    else
      for (uint32_t i = 0; i < words; i++) c[i] = sg_opv(g, SpvOpCompositeExtract, u32, 2, v, i);
    uint32_t r = sg_op(g, SpvOpCompositeConstruct, v4, 4, c);
    uint32_t z4 = sg_opv(g, SpvOpCompositeConstruct, v4, 4, zero, zero, zero, zero);
    uint32_t in4 = sg_opv(g, SpvOpCompositeConstruct, spv_type_vector(m, bt, 4), 4, in, in, in, in);
    return sg_opv(g, SpvOpSelect, v4, 3, in4, r, z4);
  }
  uint32_t val = sg_expr(g, e->args[4]), w0 = sg_opv(g, SpvOpCompositeExtract, u32, 2, val, 0u);
  uint32_t sv = bytes < 4    ? sg_opv(g, SpvOpUConvert, et, 1, w0)
                : words == 1 ? w0
                : words == 2 ? sg_opv(g, SpvOpVectorShuffle, et, 4, val, val, 0u, 1u)
                             : val;
  uint32_t then = spv_id(m), merge = spv_id(m);
  sg_branch_cond_merge(g, in, then, merge, merge);
  sg_start_block(g, then);
  uint32_t p = sg_opv(g, SpvOpConvertUToPtr, pt, 1, sg_opv(g, SpvOpIAdd, u64, 2, base, off));
  sg_instv(g, SpvOpStore, 4, p, sv, (uint32_t)SpvMemoryAccessAlignedMask, (uint32_t)bytes);
  sg_start_block(g, merge);
  return 0;
}

uint32_t sg_vk_image(SG *g, KExpr *e) {
  SpvModule *m = &g->m;
  KImageDim dim = (KImageDim)e->args[0]->type->len;
  if (e->builtin == BI_SURF_LOAD || e->builtin == BI_SURF_STORE) return surf(g, e, dim);
  uint32_t d = sg_expr(g, e->args[0]);
  int f = e->builtin == BI_IMAGE_WIDTH           ? IMG_WIDTH
          : e->builtin == BI_IMAGE_HEIGHT        ? IMG_HEIGHT
          : e->builtin == BI_IMAGE_DEPTH         ? IMG_DEPTH
          : e->builtin == BI_IMAGE_ARRAY_SIZE    ? IMG_LAYERS
          : e->builtin == BI_IMAGE_CHANNEL_ORDER ? IMG_ORDER
          : e->builtin == BI_IMAGE_CHANNEL_TYPE  ? IMG_TYPE
                                                 : -1;
  if (f >= 0) return img_field(g, d, f);
  if (e->builtin != BI_IMAGE_DIM) {
    sg_error(g, e->loc, "internal compiler error: image builtin '%s' in the Vulkan form",
             kir_builtin_info(e->builtin)->name);
    return spv_undef(m, sg_type(g, e->type));
  }
  /* get_image_dim: (width, height) or (width, height, depth, 0). */
  uint32_t c[4] = {img_field(g, d, IMG_WIDTH), img_field(g, d, IMG_HEIGHT), 0, sg_u32(g, 0)};
  if (e->type->len == 4) c[2] = img_field(g, d, IMG_DEPTH);
  return sg_op(g, SpvOpCompositeConstruct, sg_type(g, e->type), (int)e->type->len, c);
}
