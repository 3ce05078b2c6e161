/* spirv_expr.c — KIR expressions and builtins to SPIR-V instructions, and initializers
 * (constant ones folded here, since SPIR-V module-scope initializers must be constants).
 *
 * Semantics follow C as the PTX back end implements it: integer conversions by width and
 * signedness (OpenCL SPIR-V integers carry no sign), signed division and remainder truncate
 * (OpSDiv/OpSRem), float->int rounds toward zero (OpConvertFToS/U's default), comparisons are
 * ordered except != (true for NaN, as C's). */
#include <math.h>
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/OpenCL.std.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_gen.h"

static uint32_t ty(SG *g, const KType *t) {
  return sg_type(g, t);
}
static uint32_t tbool(SG *g) {
  return spv_type_bool(&g->m);
}

static uint32_t subgroup_call(SG *g, KExpr *e);
static uint32_t warp_call(SG *g, KExpr *e);

/* A vector's element type, const. */
static const KType *elem(const KType *t) {
  return t->kind == KT_VEC ? t->base : t;
}

/* The OpTypeBool (vector, for a vector t) a comparison of values of type t yields. */
static uint32_t bool_of(SG *g, const KType *t) {
  if (t->kind != KT_VEC) return tbool(g);
  return spv_type_vector(&g->m, tbool(g), (int)t->len);
}

/* The constant of type t whose components all are the scalar constant c. */
static uint32_t splat_const(SG *g, const KType *t, uint32_t c) {
  if (t->kind != KT_VEC) return c;
  uint32_t el[16];
  for (int i = 0; i < t->len && i < 16; i++) el[i] = c;
  return sg_vec_const(g, t, el);
}

static uint32_t zero_of(SG *g, const KType *t) {
  const KType *e = elem(t);
  if (kir_is_float(e)) return splat_const(g, t, spv_const_float(&g->m, sg_bits(e), 0.0));
  return splat_const(g, t, spv_const_int(&g->m, sg_bits(e), 0));
}

static uint32_t one_of(SG *g, const KType *t) {
  const KType *e = elem(t);
  if (kir_is_float(e)) return splat_const(g, t, spv_const_float(&g->m, sg_bits(e), 1.0));
  return splat_const(g, t, spv_const_int(&g->m, sg_bits(e), 1));
}

/* Zero of any type. llvm-spirv 15 refuses OpConstantNull of a scalar, so scalars (and
 * vectors, component by component) get 0. */
/* Whether t holds a pointer as a SPIR-V pointer (a union holds its bytes as integers). */
static bool holds_pointer(const KType *t) {
  if (t->kind == KT_PTR) return true;
  if (t->kind == KT_ARRAY) return t->len > 0 && holds_pointer(t->base);
  if (t->kind != KT_STRUCT || t->st->is_union) return false;
  for (int i = 0; i < t->st->nfields; i++)
    if (holds_pointer(t->st->fields[i].type)) return true;
  return false;
}

uint32_t sg_zero(SG *g, const KType *t) {
  if (kir_is_arith(t) || t->kind == KT_VEC) return zero_of(g, t);
  if (!g->vk || !holds_pointer(t)) return spv_const_null(&g->m, ty(g, t));
  /* Vulkan's buffer pointers have no null constant (OpConstantNull of a PhysicalStorageBuffer
   * pointer is invalid): address 0 converted, and aggregates holding one built in the code
   * (a std::initializer_list's zero value, say). */
  if (t->kind == KT_PTR) return sg_opv(g, SpvOpConvertUToPtr, ty(g, t), 1, sg_u64(g, 0));
  int n = t->kind == KT_ARRAY ? (int)t->len : t->st->nfields;
  uint32_t *c = calloc((size_t)n, sizeof *c);
  for (int i = 0; i < n; i++)
    c[i] = sg_zero(g, t->kind == KT_ARRAY ? t->base : t->st->fields[i].type);
  uint32_t r = sg_op(g, SpvOpCompositeConstruct, ty(g, t), n, c);
  free(c);
  return r;
}

/* A boolean as KIR's integer: 1 or 0 for a scalar; for a vector (a mask type) each
 * component -1 or 0, as OpenCL's vector comparisons give. */
static uint32_t bool_to_int(SG *g, uint32_t b, const KType *t) {
  if (t->kind == KT_VEC)
    return sg_opv(g, SpvOpSelect, ty(g, t), 3, b,
                  splat_const(g, t, spv_const_int(&g->m, sg_bits(t), ~0ull)), zero_of(g, t));
  return sg_opv(g, SpvOpSelect, ty(g, t), 3, b, one_of(g, t), zero_of(g, t));
}

/* A vector (SPIR-V type vty) of the n scalar values comp. Not OpCompositeConstruct:
 * llvm-spirv 15 makes an LLVM constant of every OpCompositeConstruct and crashes when a
 * constituent is not constant, so the components are inserted one by one into an OpUndef. */
static uint32_t build_vector(SG *g, uint32_t vty, int n, const uint32_t *comp) {
  uint32_t v = spv_undef(&g->m, vty);
  for (int i = 0; i < n; i++) v = sg_opv(g, SpvOpCompositeInsert, vty, 3, comp[i], v, (uint32_t)i);
  return v;
}

/* A vector (SPIR-V type vty, n components) whose components all are the scalar value v:
 * inserted once and shuffled. */
static uint32_t splat_id(SG *g, uint32_t vty, int n, uint32_t v) {
  uint32_t one = sg_opv(g, SpvOpCompositeInsert, vty, 3, v, spv_undef(&g->m, vty), 0u);
  uint32_t ops[18] = {one, one};
  for (int i = 0; i < n; i++) ops[2 + i] = 0;
  return sg_op(g, SpvOpVectorShuffle, vty, 2 + n, ops);
}

/* A vector of type t whose components all are the scalar value v. */
static uint32_t splat(SG *g, const KType *t, uint32_t v) {
  if (sg_wide(g, t)) {
    uint32_t part = splat_id(g, ty(g, sg_chunk(t)), 4, v), parts[4] = {part, part, part, part};
    return sg_vec_join(g, t, parts);
  }
  return splat_id(g, ty(g, t), (int)t->len, v);
}

/* ---------------------------------------------------------------- vectors, both flavours
 *
 * Components are reached through these, so that the Vulkan form's vectors of 8 and 16
 * components, arrays of 4-vectors (spirv.c, sg_type), and every other vector share the code
 * that builds, takes apart and rearranges vectors (swizzles, literals, vloadn, as_T). */

bool sg_wide(const SG *g, const KType *t) {
  return g->vk && t->kind == KT_VEC && t->len > 4;
}

KType *sg_chunk(const KType *t) {
  return kir_type_vec(t->base, 4);
}

uint32_t sg_vec_get(SG *g, const KType *t, uint32_t v, int i) {
  uint32_t et = ty(g, t->base);
  if (sg_wide(g, t))
    return sg_opv(g, SpvOpCompositeExtract, et, 3, v, (uint32_t)i / 4, (uint32_t)i % 4);
  return sg_opv(g, SpvOpCompositeExtract, et, 2, v, (uint32_t)i);
}

uint32_t sg_vec_set(SG *g, const KType *t, uint32_t v, int i, uint32_t c) {
  if (sg_wide(g, t))
    return sg_opv(g, SpvOpCompositeInsert, ty(g, t), 4, c, v, (uint32_t)i / 4, (uint32_t)i % 4);
  return sg_opv(g, SpvOpCompositeInsert, ty(g, t), 3, c, v, (uint32_t)i);
}

uint32_t sg_vec_make(SG *g, const KType *t, const uint32_t *c) {
  if (!sg_wide(g, t)) return build_vector(g, ty(g, t), (int)t->len, c);
  /* (OpCompositeConstruct: llvm-spirv's limit is the OpenCL flavour's only.) */
  uint32_t parts[4], ct = ty(g, sg_chunk(t));
  for (int k = 0; k < t->len / 4; k++)
    parts[k] = sg_op(g, SpvOpCompositeConstruct, ct, 4, c + 4 * k);
  return sg_vec_join(g, t, parts);
}

uint32_t sg_vec_const(SG *g, const KType *t, const uint32_t *c) {
  if (!sg_wide(g, t)) return spv_const_composite(&g->m, ty(g, t), c, (int)t->len);
  uint32_t parts[4], ct = ty(g, sg_chunk(t));
  for (int k = 0; k < t->len / 4; k++) parts[k] = spv_const_composite(&g->m, ct, c + 4 * k, 4);
  return spv_const_composite(&g->m, ty(g, t), parts, (int)t->len / 4);
}

uint32_t sg_vec_part(SG *g, const KType *t, uint32_t v, int k) {
  return sg_opv(g, SpvOpCompositeExtract, ty(g, sg_chunk(t)), 2, v, (uint32_t)k);
}

uint32_t sg_vec_join(SG *g, const KType *t, const uint32_t *parts) {
  return sg_op(g, SpvOpCompositeConstruct, ty(g, t), (int)t->len / 4, parts);
}

static uint32_t ptr_to_u64(SG *g, uint32_t p) {
  return sg_opv(g, SpvOpConvertPtrToU, spv_type_int(&g->m, 64), 1, p);
}

/* v (of KIR type t) != 0 as an OpTypeBool. */
static uint32_t nonzero(SG *g, uint32_t v, const KType *t) {
  if (t->kind == KT_PTR)
    return sg_opv(g, SpvOpINotEqual, tbool(g), 2, ptr_to_u64(g, v), sg_u64(g, 0));
  if (kir_is_float(t)) /* NaN is true, as in C */
    return sg_opv(g, SpvOpFUnordNotEqual, tbool(g), 2, v, zero_of(g, t));
  return sg_opv(g, SpvOpINotEqual, tbool(g), 2, v, zero_of(g, t));
}

/* An integer value widened to 64 bits by its own signedness, for indexing. */
static uint32_t to_i64(SG *g, uint32_t v, const KType *t) {
  if (sg_bits(t) == 64) return v;
  return sg_opv(g, kir_is_signed(t) ? SpvOpSConvert : SpvOpUConvert, spv_type_int(&g->m, 64), 1, v);
}

static uint64_t fit_int(uint64_t v, const KType *t);

/* p + idx elements (idx a 64-bit integer) for a pointer p of KIR type pt. Vulkan's buffer
 * pointers add the bytes to the address as an integer: NVIDIA's Vulkan driver reads and writes
 * nothing right through an OpPtrAccessChain with a negative index (docs/driver-bugs.md 31), and
 * the integer sum is what the chain means for a PhysicalStorageBuffer pointer. */
static uint32_t ptr_add(SG *g, const KType *pt, uint32_t p, uint32_t idx) {
  if (!g->vk) return sg_opv(g, SpvOpPtrAccessChain, ty(g, pt), 2, p, idx);
  uint32_t u64 = spv_type_int(&g->m, 64);
  int64_t size = pt->base && pt->base->size > 0 ? pt->base->size : 1;
  uint32_t bytes = size == 1 ? idx : sg_opv(g, SpvOpIMul, u64, 2, idx, sg_u64(g, (uint64_t)size));
  uint32_t at = sg_opv(g, SpvOpIAdd, u64, 2, sg_opv(g, SpvOpConvertPtrToU, u64, 1, p), bytes);
  return sg_opv(g, SpvOpConvertUToPtr, ty(g, pt), 1, at);
}

/* An index expression as a 64-bit value; constants fold so a[3] indexes with %ulong_3. */
static uint32_t index64(SG *g, KExpr *b) {
  if (b->kind == KE_ICONST && kir_is_int(b->type)) return sg_u64(g, fit_int(b->ival, b->type));
  return to_i64(g, sg_expr(g, b), b->type);
}

/* ---------------------------------------------------------------- conversions */

uint32_t sg_convert(SG *g, uint32_t v, const KType *from, const KType *to, KLoc loc) {
  if (from == to) return v;
  if (sg_wide(g, from) && sg_wide(g, to) && from->len == to->len) { /* 4 components at a time */
    if (ty(g, from) == ty(g, to)) return v;
    uint32_t parts[4];
    for (int k = 0; k < to->len / 4; k++)
      parts[k] = sg_convert(g, sg_vec_part(g, from, v, k), sg_chunk(from), sg_chunk(to), loc);
    return sg_vec_join(g, to, parts);
  }
  uint32_t rt = to->kind == KT_VOID ? 0 : ty(g, to);
  if (to->kind == KT_VEC && from->kind != KT_VEC && kir_is_arith(from)) { /* KC_SPLAT */
    if (from != to->base) v = sg_convert(g, v, from, to->base, loc);
    return splat(g, to, v);
  }
  if ((to->kind == KT_VEC) != (from->kind == KT_VEC) ||
      (to->kind == KT_VEC && to->len != from->len)) {
    sg_error(g, loc, "cannot convert '%s' to '%s'", kir_type_str(from), kir_type_str(to));
    return spv_undef(&g->m, rt);
  }
  /* Between vectors of one length, each component converts as the elements do. */
  const KType *fe = elem(from), *te = elem(to);
  switch (kir_cast_kind(from, to)) {
  case KC_NOP: return v;
  case KC_TO_VOID: return 0;
  case KC_INT_TRUNC:
  case KC_INT_ZEXT: return sg_opv(g, SpvOpUConvert, rt, 1, v);
  case KC_INT_SEXT: return sg_opv(g, SpvOpSConvert, rt, 1, v);
  case KC_TO_BOOL: return bool_to_int(g, nonzero(g, v, from), to);
  case KC_INT_TO_FP:
    return sg_opv(g, kir_is_signed(fe) ? SpvOpConvertSToF : SpvOpConvertUToF, rt, 1, v);
  case KC_FP_TO_INT: /* rounds toward zero, as C */
    return sg_opv(g, kir_is_signed(te) ? SpvOpConvertFToS : SpvOpConvertFToU, rt, 1, v);
  case KC_FP_EXT:
  case KC_FP_TRUNC: return sg_opv(g, SpvOpFConvert, rt, 1, v);
  case KC_PTR_TO_PTR:
    if (ty(g, from) == rt) return v;
    if (from->as != to->as) {
      sg_error(g, loc,
               "conversion from '%s' to '%s' changes the address space; SPIR-V for "
               "OpenCL cannot convert between address spaces",
               kir_type_str(from), kir_type_str(to));
      return spv_undef(&g->m, rt);
    }
    return sg_opv(g, SpvOpBitcast, rt, 1, v);
  case KC_PTR_TO_INT:
    /* Vulkan converts PhysicalStorageBuffer addresses to 64-bit integers only
     * (VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710): a narrower one truncates those. */
    if (g->vk && sg_bits(to) != 64)
      return sg_opv(g, SpvOpUConvert, rt, 1,
                    sg_opv(g, SpvOpConvertPtrToU, spv_type_int(&g->m, 64), 1, v));
    return sg_opv(g, SpvOpConvertPtrToU, rt, 1, v);
  case KC_INT_TO_PTR: v = to_i64(g, v, from); return sg_opv(g, SpvOpConvertUToPtr, rt, 1, v);
  case KC_ARRAY_DECAY: break; /* needs the array's address: sg_expr handles it */
  case KC_SPLAT: break;
  }
  sg_error(g, loc, "cannot convert '%s' to '%s'", kir_type_str(from), kir_type_str(to));
  return spv_undef(&g->m, rt);
}

/* ---------------------------------------------------------------- lvalues */

static bool lv_volatile(const KExpr *e) {
  switch (e->kind) {
  case KE_INDEX:
  case KE_DEREF: return (e->a->type->qual & KQ_VOLATILE) != 0;
  case KE_MEMBER: return lv_volatile(e->a);
  default: return false;
  }
}

static SpvStorageClass lv_storage(SG *g, const KExpr *e) {
  switch (e->kind) {
  case KE_VAR: {
    const SVar *s = e->var->aux;
    return s && s->psb ? SpvStorageClassPhysicalStorageBuffer : SpvStorageClassFunction;
  }
  case KE_GVAR:
    if (g->vk) { /* spirv.c, globals */
      const SVar *s = e->var->aux;
      if (s && s->psb) return SpvStorageClassPhysicalStorageBuffer;
      return e->var->kind == KV_SHARED ? SpvStorageClassWorkgroup : SpvStorageClassPrivate;
    }
    return e->var->kind == KV_SHARED ? SpvStorageClassWorkgroup
           : e->var->is_mutable      ? SpvStorageClassCrossWorkgroup
                                     : SpvStorageClassUniformConstant;
  case KE_INDEX:
    /* Vulkan: an array indexed in place is where the array is (vk_index_addr). */
    if (g->vk && e->a->kind == KE_CAST &&
        kir_cast_kind(e->a->a->type, e->a->type) == KC_ARRAY_DECAY &&
        ((e->a->a->kind == KE_GVAR && e->a->a->var->is_dynamic) || sg_addressable(g, e->a->a)))
      return lv_storage(g, e->a->a);
    return sg_storage(g, e->a->type->as, e->loc);
  case KE_DEREF: return sg_storage(g, e->a->type->as, e->loc);
  case KE_MEMBER: return lv_storage(g, e->a);
  default: return SpvStorageClassFunction;
  }
}

bool sg_addressable(SG *g, KExpr *e) {
  switch (e->kind) {
  case KE_VAR: {
    SVar *s = e->var->aux;
    return s && s->ptr;
  }
  case KE_GVAR:
  case KE_INDEX:
  case KE_DEREF: return true;
  case KE_MEMBER: return kir_is_lvalue(e->a) && sg_addressable(g, e->a);
  default: return false;
  }
}

static uint32_t dyn_shared(SG *g, KExpr *e, const KType *ptrtype) {
  uint32_t rt = ty(g, ptrtype);
  if (g->vk && !g->dyn_block) { /* a pointer into it escapes: it is in the block then */
    diag_ice(e->loc,
             "SPIR-V: a pointer into dynamic shared array '%s' that the escape "
             "analysis missed",
             e->var->name);
    g->failed = true;
    return spv_undef(&g->m, rt);
  }
  if (!g->dyn) {
    sg_error(g, e->loc, "dynamic shared array '%s' is not reachable here", e->var->name);
    return spv_undef(&g->m, rt);
  }
  /* Every `extern shared` array starts at the same address; the parameter is typed by one of
   * them, the others are views of it. */
  if (e->var->type->base == g->dyn_var->type->base) return g->dyn;
  return sg_opv(g, SpvOpBitcast, rt, 1, g->dyn);
}

/* A union member's address: the union's own, as a pointer to the member's type. A union
 * held as a value (an unwritten parameter, a call's result) is stored to a temporary first. */
static uint32_t union_member_addr(SG *g, KExpr *e) {
  uint32_t base;
  SpvStorageClass sc = SpvStorageClassFunction;
  if (kir_is_lvalue(e->a) && sg_addressable(g, e->a)) {
    base = sg_addr(g, e->a);
    sc = lv_storage(g, e->a);
  } else if (g->vk) {
    sc = SpvStorageClassPhysicalStorageBuffer; /* refused below: no temporary to view */
    base = spv_undef(&g->m, sg_ptr_type(g, sc, e->a->type));
  } else {
    base = sg_temp_var(g, e->a->type);
    sg_store(g, e->a->type, base, sg_expr(g, e->a), false);
  }
  if (g->vk && sc != SpvStorageClassPhysicalStorageBuffer) {
    sg_error(g, e->loc,
             "a union member outside buffer memory is not supported by the Vulkan "
             "SPIR-V form yet");
    return spv_undef(&g->m, sg_ptr_type(g, SpvStorageClassFunction, e->type));
  }
  return sg_opv(g, SpvOpBitcast, sg_ptr_type(g, sc, e->type), 1, base);
}

/* Vulkan: a[i]. An array in shared or private memory (and a module constant) is indexed in
 * place by OpAccessChain, as logical pointers require; a buffer address steps by
 * OpPtrAccessChain (Addresses' InBounds form is not Shader's). */
static uint32_t vk_index_addr(SG *g, KExpr *e) {
  KExpr *a = e->a;
  if (a->kind == KE_CAST && kir_cast_kind(a->a->type, a->type) == KC_ARRAY_DECAY &&
      a->a->kind == KE_GVAR && a->a->var->is_dynamic && g->dyn_block) /* a buffer pointer */
    return ptr_add(g, a->type, dyn_shared(g, a->a, a->type), index64(g, e->b));
  if (a->kind == KE_CAST && kir_cast_kind(a->a->type, a->type) == KC_ARRAY_DECAY &&
      a->a->kind == KE_GVAR && a->a->var->is_dynamic) {
    /* Dynamic shared memory: the module's array sized by specialisation constant 3. */
    if (!g->dyn) {
      sg_error(g, e->loc, "dynamic shared array '%s' is not reachable here", a->a->var->name);
      return spv_undef(&g->m, sg_ptr_type(g, SpvStorageClassWorkgroup, e->type));
    }
    uint32_t idx = sg_expr(g, e->b);
    int bits = sg_bits(e->b->type);
    if (bits != 32)
      idx = sg_opv(g, bits < 32 && kir_is_signed(e->b->type) ? SpvOpSConvert : SpvOpUConvert,
                   spv_type_int(&g->m, 32), 1, idx);
    return sg_opv(g, SpvOpAccessChain, sg_ptr_type(g, SpvStorageClassWorkgroup, e->type), 2, g->dyn,
                  idx);
  }
  if (a->kind == KE_CAST && kir_cast_kind(a->a->type, a->type) == KC_ARRAY_DECAY &&
      sg_addressable(g, a->a)) {
    SpvStorageClass sc = lv_storage(g, a->a);
    if (sc != SpvStorageClassPhysicalStorageBuffer) {
      uint32_t base = sg_addr(g, a->a);
      uint32_t idx = sg_expr(g, e->b);
      int bits = sg_bits(e->b->type);
      if (bits != 32)
        idx = sg_opv(g, bits < 32 && kir_is_signed(e->b->type) ? SpvOpSConvert : SpvOpUConvert,
                     spv_type_int(&g->m, 32), 1, idx);
      return sg_opv(g, SpvOpAccessChain, sg_ptr_type(g, sc, e->type), 1 + 1, base, idx);
    }
  }
  uint32_t base = sg_expr(g, a);
  return ptr_add(g, a->type, base, index64(g, e->b));
}

uint32_t sg_addr(SG *g, KExpr *e) {
  if (e->loc.line > 0) g->loc = e->loc;
  switch (e->kind) {
  case KE_VAR:
  case KE_GVAR: {
    SVar *s = e->var->aux;
    if (e->kind == KE_GVAR && e->var->is_dynamic) {
      sg_error(g, e->loc,
               "the address of dynamic shared array '%s' as a whole is not "
               "supported; use '%s' or '&%s[0]'",
               e->var->name, e->var->name, e->var->name);
      return spv_undef(&g->m, sg_ptr_type(g, SpvStorageClassWorkgroup, e->type));
    }
    if (!s || !s->ptr) {
      diag_ice(e->loc, "SPIR-V: variable '%s' has no storage", e->var->name);
      g->failed = true;
      return spv_undef(&g->m, sg_ptr_type(g, SpvStorageClassFunction, e->type));
    }
    return s->ptr;
  }
  case KE_INDEX: {
    if (g->vk) return vk_index_addr(g, e);
    uint32_t base = sg_expr(g, e->a);
    uint32_t idx = index64(g, e->b);
    return sg_opv(g, SpvOpInBoundsPtrAccessChain, ty(g, e->a->type), 2, base, idx);
  }
  case KE_DEREF: return sg_expr(g, e->a);
  case KE_MEMBER: {
    if (e->a->type->st->is_union) return union_member_addr(g, e);
    uint32_t base = sg_addr(g, e->a);
    uint32_t rt = sg_ptr_type(g, lv_storage(g, e->a), e->type);
    return sg_opv(g, SpvOpInBoundsAccessChain, rt, 2, base, sg_u32(g, (uint32_t)e->field));
  }
  default: break;
  }
  diag_ice(e->loc, "SPIR-V: expression is not an lvalue");
  g->failed = true;
  return spv_undef(&g->m, sg_ptr_type(g, SpvStorageClassFunction, e->type));
}

static uint32_t read_lvalue(SG *g, KExpr *e) {
  if (sg_addressable(g, e) || (e->kind == KE_MEMBER && e->a->type->st->is_union))
    return sg_load(g, e->type, sg_addr(g, e), lv_volatile(e));
  if (e->kind == KE_VAR) {
    SVar *s = e->var->aux;
    if (s && s->val) return s->val;
  } else if (e->kind == KE_MEMBER) {
    uint32_t base = sg_expr(g, e->a); /* a struct value: take the member out */
    return sg_opv(g, SpvOpCompositeExtract, ty(g, e->type), 2, base, (uint32_t)e->field);
  }
  diag_ice(e->loc, "SPIR-V: cannot read this lvalue");
  g->failed = true;
  return spv_undef(&g->m, ty(g, e->type));
}

/* ---------------------------------------------------------------- operators */

static bool is_compare(KOp op) {
  return op >= KB_EQ && op <= KB_GE;
}

static uint32_t compare_values(SG *g, KOp op, const KType *t, uint32_t l, uint32_t r);

static uint32_t compare(SG *g, KOp op, KExpr *a, KExpr *b) {
  const KType *t = a->type;
  uint32_t l = sg_expr(g, a), r = sg_expr(g, b);
  if (t->kind == KT_PTR) {
    l = ptr_to_u64(g, l);
    r = ptr_to_u64(g, r);
  } else if (b->type != t && kir_is_arith(b->type)) {
    r = sg_convert(g, r, b->type, t, b->loc);
  }
  return compare_values(g, op, t, l, r);
}

/* The OpTypeBool (vector) of l op r, values of type t (a pointer's as u64). */
static uint32_t compare_values(SG *g, KOp op, const KType *t, uint32_t l, uint32_t r) {
  SpvOp o;
  const KType *et = elem(t);
  if (kir_is_float(et)) {
    static const SpvOp fo[] = {SpvOpFOrdEqual,       SpvOpFUnordNotEqual,
                               SpvOpFOrdLessThan,    SpvOpFOrdLessThanEqual,
                               SpvOpFOrdGreaterThan, SpvOpFOrdGreaterThanEqual};
    o = fo[op - KB_EQ];
  } else if (kir_is_signed(et) && g->vk && sg_bits(et) == 64 && op != KB_EQ && op != KB_NE) {
    /* lavapipe (Mesa 22.3) got 64-bit signed comparisons with a constant wrong (b > 1000L
     * true for every b sign-extended from an int; docs/driver-bugs.md 20): the same order as
     * an unsigned comparison of the operands with their sign bits flipped. */
    static const SpvOp uo[] = {SpvOpIEqual,         SpvOpINotEqual,    SpvOpULessThan,
                               SpvOpULessThanEqual, SpvOpUGreaterThan, SpvOpUGreaterThanEqual};
    uint32_t flip = splat_const(g, t, sg_u64(g, 1ull << 63)), it = ty(g, t);
    l = sg_opv(g, SpvOpBitwiseXor, it, 2, l, flip);
    r = sg_opv(g, SpvOpBitwiseXor, it, 2, r, flip);
    o = uo[op - KB_EQ];
  } else if (kir_is_signed(et)) {
    static const SpvOp so[] = {SpvOpIEqual,         SpvOpINotEqual,    SpvOpSLessThan,
                               SpvOpSLessThanEqual, SpvOpSGreaterThan, SpvOpSGreaterThanEqual};
    o = so[op - KB_EQ];
  } else {
    static const SpvOp uo[] = {SpvOpIEqual,         SpvOpINotEqual,    SpvOpULessThan,
                               SpvOpULessThanEqual, SpvOpUGreaterThan, SpvOpUGreaterThanEqual};
    o = uo[op - KB_EQ];
  }
  return sg_opv(g, o, bool_of(g, t), 2, l, r);
}

/* sel == when ? c : other, c evaluated only when it is the answer (in a block of its own,
 * joined by an OpPhi): && and ||, and the Vulkan form's switch search (spirv.c). */
uint32_t sg_cond_if(SG *g, uint32_t sel, bool when, KExpr *c, uint32_t other) {
  sg_ensure_block(g);
  uint32_t from = g->label, eval = spv_id(&g->m), join = spv_id(&g->m);
  if (when)
    sg_branch_cond_merge(g, sel, eval, join, join);
  else
    sg_branch_cond_merge(g, sel, join, eval, join);
  sg_start_block(g, eval);
  uint32_t cv = sg_cond(g, c);
  sg_ensure_block(g);
  uint32_t from_c = g->label;
  sg_branch(g, join);
  sg_start_block(g, join);
  return sg_opv(g, SpvOpPhi, tbool(g), 4, other, from, cv, from_c);
}

/* && and ||: the right operand runs only when needed. */
static uint32_t logical(SG *g, KOp op, KExpr *a, KExpr *b) {
  uint32_t ca = sg_cond(g, a);
  return sg_cond_if(g, ca, op == KB_LAND, b, spv_const_bool(&g->m, op == KB_LOR));
}

uint32_t sg_cond(SG *g, KExpr *e) {
  if (e->loc.line > 0) g->loc = e->loc;
  if (e->kind == KE_BINARY && is_compare(e->op)) return compare(g, e->op, e->a, e->b);
  if (e->kind == KE_BINARY && (e->op == KB_LAND || e->op == KB_LOR))
    return logical(g, e->op, e->a, e->b);
  if (e->kind == KE_UNARY && e->op == KU_LNOT)
    return sg_opv(g, SpvOpLogicalNot, tbool(g), 1, sg_cond(g, e->a));
  if (e->kind == KE_CAST && kir_cast_kind(e->a->type, e->type) == KC_TO_BOOL)
    return sg_cond(g, e->a);
  if (e->kind == KE_ICONST) return spv_const_bool(&g->m, e->ival != 0);
  return nonzero(g, sg_expr(g, e), e->type);
}

static uint32_t vk_safe_divisor(SG *g, const KType *t, uint32_t l, uint32_t r, bool sgn);

static uint32_t arith(SG *g, KOp op, const KType *t, uint32_t l, uint32_t r, const KType *rt_b,
                      KLoc loc) {
  if (sg_wide(g, t)) { /* 4 components at a time; a shift's scalar count as it is */
    bool shift = op == KB_SHL || op == KB_SHR;
    bool rvec = !shift || (rt_b && rt_b->kind == KT_VEC);
    const KType *rb = shift ? rt_b : t;
    uint32_t parts[4];
    for (int k = 0; k < t->len / 4; k++)
      parts[k] = arith(g, op, sg_chunk(t), sg_vec_part(g, t, l, k),
                       rvec ? sg_vec_part(g, rb, r, k) : r, rvec ? sg_chunk(rb) : rb, loc);
    return sg_vec_join(g, t, parts);
  }
  uint32_t rt = ty(g, t);
  const KType *et = elem(t);
  if (kir_is_float(et)) {
    SpvOp o;
    switch (op) {
    case KB_ADD: o = SpvOpFAdd; break;
    case KB_SUB: o = SpvOpFSub; break;
    case KB_MUL: o = SpvOpFMul; break;
    case KB_DIV: o = SpvOpFDiv; break;
    case KB_REM: o = SpvOpFRem; break;
    default:
      sg_error(g, loc, "invalid operands to a floating-point operator");
      return spv_undef(&g->m, rt);
    }
    if (g->vk && o == SpvOpFDiv && !g->o->fast_math) return sg_vk_div(g, t, l, r);
    uint32_t id = sg_opv(g, o, rt, 2, l, r);
    sg_fast(g, id);
    if (g->vk && o == SpvOpFDiv) return sg_vk_div_zero(g, t, l, r, id);
    if (g->vk && o == SpvOpFMul && !g->o->fast_math) return sg_vk_mul_zero(g, t, l, r, id);
    if (g->vk && (o == SpvOpFAdd || o == SpvOpFSub) && !g->o->fast_math)
      return sg_vk_add_zero(g, t, l, r, id, o == SpvOpFSub);
    return id;
  }
  bool sgn = kir_is_signed(et);
  SpvOp o;
  switch (op) {
  case KB_ADD: o = SpvOpIAdd; break;
  case KB_SUB: o = SpvOpISub; break;
  case KB_MUL: o = SpvOpIMul; break;
  case KB_DIV: o = sgn ? SpvOpSDiv : SpvOpUDiv; break;
  case KB_REM: o = sgn ? SpvOpSRem : SpvOpUMod; break; /* C's % takes the dividend's sign */
  case KB_AND: o = SpvOpBitwiseAnd; break;
  case KB_OR: o = SpvOpBitwiseOr; break;
  case KB_XOR: o = SpvOpBitwiseXor; break;
  case KB_SHL:
  case KB_SHR:
    /* The count keeps its own promoted type in KIR; give it the left operand's width (the
     * result is undefined past the width anyway). */
    if (rt_b && rt_b != t && sg_bits(rt_b) != sg_bits(t)) {
      bool vec_count = rt_b->kind == KT_VEC;
      r = sg_opv(g,
                 sg_bits(rt_b) > sg_bits(t) || !kir_is_signed(elem(rt_b)) ? SpvOpUConvert
                                                                          : SpvOpSConvert,
                 vec_count || t->kind != KT_VEC ? rt : ty(g, et), 1, r);
    }
    if (rt_b && rt_b->kind != KT_VEC && t->kind == KT_VEC) r = splat(g, t, r);
    o = op == KB_SHL ? SpvOpShiftLeftLogical
        : sgn        ? SpvOpShiftRightArithmetic
                     : SpvOpShiftRightLogical;
    break;
  default: sg_error(g, loc, "invalid operands to an integer operator"); return spv_undef(&g->m, rt);
  }
  if (g->vk && (op == KB_DIV || op == KB_REM)) r = vk_safe_divisor(g, t, l, r, sgn);
  if (g->vk && o == SpvOpSRem) {
    /* l - (l / r) * r: NVIDIA's Vulkan driver (580) gives an OpSRem of a negative
     * dividend the unsigned remainder's value (docs/driver-bugs.md 23); its OpSDiv is right. */
    uint32_t q = sg_opv(g, SpvOpSDiv, rt, 2, l, r);
    return sg_opv(g, SpvOpISub, rt, 2, l, sg_opv(g, SpvOpIMul, rt, 2, q, r));
  }
  return sg_opv(g, o, rt, 2, l, r);
}

/* Vulkan: the divisor of an integer division, with 1 where C leaves the result undefined (a
 * zero divisor; the most negative dividend over -1). Drivers flatten branches into selects
 * and fold constants: lavapipe (Mesa 22.3) then divides by zero in its own compiler and dies
 * of SIGFPE building a pipeline whose division only ran under a guard (docs/driver-bugs.md). */
static uint32_t vk_safe_divisor(SG *g, const KType *t, uint32_t l, uint32_t r, bool sgn) {
  const KType *et = elem(t);
  uint32_t bt = bool_of(g, t), one = one_of(g, t);
  uint32_t bad = sg_opv(g, SpvOpIEqual, bt, 2, r, zero_of(g, t));
  if (sgn) {
    int bits = sg_bits(et);
    uint64_t min = 1ull << (bits - 1);
    uint32_t cmin = splat_const(g, t, spv_const_int(&g->m, bits, min));
    uint32_t cm1 = splat_const(g, t, spv_const_int(&g->m, bits, ~0ull));
    uint32_t ov = sg_opv(g, SpvOpLogicalAnd, bt, 2, sg_opv(g, SpvOpIEqual, bt, 2, l, cmin),
                         sg_opv(g, SpvOpIEqual, bt, 2, r, cm1));
    bad = sg_opv(g, SpvOpLogicalOr, bt, 2, bad, ov);
  }
  return sg_opv(g, SpvOpSelect, ty(g, t), 3, bad, one, r);
}

/* p + n (in elements) for a pointer p of KIR type pt. */
static uint32_t ptr_offset(SG *g, const KType *pt, uint32_t p, uint32_t n, const KType *nt,
                           bool negate) {
  uint32_t idx = to_i64(g, n, nt);
  if (negate) idx = sg_opv(g, SpvOpSNegate, spv_type_int(&g->m, 64), 1, idx);
  return ptr_add(g, pt, p, idx);
}

static uint32_t ptr_diff(SG *g, KExpr *e) {
  uint32_t i64 = spv_type_int(&g->m, 64);
  uint32_t a = ptr_to_u64(g, sg_expr(g, e->a)), b = ptr_to_u64(g, sg_expr(g, e->b));
  uint32_t d = sg_opv(g, SpvOpISub, i64, 2, a, b);
  const KType *el = e->a->type->base;
  int size = el->kind == KT_VOID ? 1 : el->size;
  if (size > 1) d = sg_opv(g, SpvOpSDiv, i64, 2, d, sg_u64(g, (uint64_t)size));
  KType *l = kir_type_scalar(KT_I64);
  return sg_convert(g, d, l, e->type, e->loc);
}

static uint32_t binary(SG *g, KExpr *e) {
  if (is_compare(e->op) && sg_wide(g, e->a->type)) { /* 4 components at a time */
    const KType *t = e->a->type;
    uint32_t l = sg_expr(g, e->a), r = sg_expr(g, e->b), parts[4];
    if (e->b->type != t) r = sg_convert(g, r, e->b->type, t, e->loc);
    for (int k = 0; k < t->len / 4; k++)
      parts[k] = bool_to_int(
          g,
          compare_values(g, e->op, sg_chunk(t), sg_vec_part(g, t, l, k), sg_vec_part(g, t, r, k)),
          sg_chunk(e->type));
    return sg_vec_join(g, e->type, parts);
  }
  if (is_compare(e->op)) return bool_to_int(g, compare(g, e->op, e->a, e->b), e->type);
  switch (e->op) {
  case KB_LAND:
  case KB_LOR: return bool_to_int(g, logical(g, e->op, e->a, e->b), e->type);
  case KB_PTR_ADD:
  case KB_PTR_SUB: {
    uint32_t p = sg_expr(g, e->a), n = sg_expr(g, e->b);
    return ptr_offset(g, e->a->type, p, n, e->b->type, e->op == KB_PTR_SUB);
  }
  case KB_PTR_DIFF: return ptr_diff(g, e);
  default: break;
  }
  uint32_t l = sg_expr(g, e->a), r = sg_expr(g, e->b);
  if (e->a->type != e->type && kir_is_arith(e->a->type))
    l = sg_convert(g, l, e->a->type, e->type, e->loc);
  bool shift = e->op == KB_SHL || e->op == KB_SHR;
  if (!shift && e->b->type != e->type && kir_is_arith(e->b->type))
    r = sg_convert(g, r, e->b->type, e->type, e->loc);
  return arith(g, e->op, e->type, l, r, e->b->type, e->loc);
}

static uint32_t unary(SG *g, KExpr *e) {
  if (sg_wide(g, e->type) && (e->op == KU_NEG || e->op == KU_NOT)) {
    bool fneg = e->op == KU_NEG && kir_is_float(elem(e->type));
    SpvOp o = e->op == KU_NOT ? SpvOpNot : fneg ? SpvOpFNegate : SpvOpSNegate;
    uint32_t v = sg_expr(g, e->a), parts[4], ct = ty(g, sg_chunk(e->type));
    for (int k = 0; k < e->type->len / 4; k++) {
      parts[k] = sg_opv(g, o, ct, 1, sg_vec_part(g, e->type, v, k));
      if (fneg) sg_fast(g, parts[k]);
    }
    return sg_vec_join(g, e->type, parts);
  }
  switch (e->op) {
  case KU_NEG: {
    uint32_t v = sg_expr(g, e->a);
    if (kir_is_float(elem(e->type))) {
      uint32_t id = sg_opv(g, SpvOpFNegate, ty(g, e->type), 1, v);
      sg_fast(g, id);
      return id;
    }
    return sg_opv(g, SpvOpSNegate, ty(g, e->type), 1, v);
  }
  case KU_NOT: return sg_opv(g, SpvOpNot, ty(g, e->type), 1, sg_expr(g, e->a));
  case KU_LNOT:
    return bool_to_int(g, sg_opv(g, SpvOpLogicalNot, tbool(g), 1, sg_cond(g, e->a)), e->type);
  default: break;
  }
  sg_error(g, e->loc, "unexpected unary operator");
  return spv_undef(&g->m, ty(g, e->type));
}

/* old + 1 or old - 1 in type t (the value ++/-- store). */
static uint32_t step(SG *g, const KType *t, uint32_t old, bool inc) {
  if (sg_wide(g, t)) {
    uint32_t parts[4];
    for (int k = 0; k < t->len / 4; k++)
      parts[k] = step(g, sg_chunk(t), sg_vec_part(g, t, old, k), inc);
    return sg_vec_join(g, t, parts);
  }
  uint32_t nv;
  if (t->kind == KT_PTR) {
    nv = ptr_add(g, t, old, sg_u64(g, inc ? 1 : (uint64_t)-1));
  } else if (kir_is_float(elem(t))) {
    nv = sg_opv(g, inc ? SpvOpFAdd : SpvOpFSub, ty(g, t), 2, old, one_of(g, t));
    sg_fast(g, nv);
  } else if (t->kind == KT_BOOL) {
    /* C: b++ makes it true; b-- flips it. */
    nv = inc ? one_of(g, t) : sg_opv(g, SpvOpBitwiseXor, ty(g, t), 2, old, one_of(g, t));
  } else {
    nv = sg_opv(g, inc ? SpvOpIAdd : SpvOpISub, ty(g, t), 2, old, one_of(g, t));
  }
  return nv;
}

/* ---------------------------------------------------------------- swizzles
 *
 * A swizzle picks components of a vector value (OpCompositeExtract, OpVectorShuffle). As an
 * lvalue it names components of the vector lvalue under it (its root, past nested swizzles):
 * writes load the root whole, replace those components (OpCompositeInsert, OpVectorShuffle)
 * and store it back, so the root's own lvalue machinery (variables, struct members, array
 * elements, parameters given storage) serves unchanged, and no pointer into a vector is
 * made. A component past a 3-vector's end (.hi, .odd of a 3-vector name a fourth) reads as 0
 * and is not written. */

/* The components of v (a vector of type vt) that c[0..n) picks, as type rt. */
static uint32_t swz_pick(SG *g, uint32_t v, const KType *vt, const uint8_t *c, int n,
                         const KType *rt) {
  int len = (int)vt->len;
  if (sg_wide(g, vt) || (n > 1 && sg_wide(g, rt))) {
    /* Vulkan, 8 or 16 components on either side: 4-vectors the swizzle takes whole (.lo,
     * .hi, .s4567...), else component by component. */
    if (n == 1) return c[0] >= len ? zero_of(g, rt) : sg_vec_get(g, vt, v, c[0]);
    uint32_t comp[16], parts[4];
    bool whole = sg_wide(g, vt) && (n == 4 || sg_wide(g, rt));
    for (int k = 0; whole && k < n / 4; k++) {
      whole = c[4 * k] % 4 == 0;
      for (int j = 1; whole && j < 4; j++) whole = c[4 * k + j] == c[4 * k] + j;
      if (whole) parts[k] = sg_vec_part(g, vt, v, c[4 * k] / 4);
    }
    if (whole) return n == 4 ? parts[0] : sg_vec_join(g, rt, parts);
    for (int i = 0; i < n; i++)
      comp[i] = c[i] >= len ? zero_of(g, rt->base) : sg_vec_get(g, vt, v, c[i]);
    return sg_vec_make(g, rt, comp);
  }
  if (n == 1) {
    if (c[0] >= len) return zero_of(g, rt);
    return sg_opv(g, SpvOpCompositeExtract, ty(g, rt), 2, v, (uint32_t)c[0]);
  }
  uint32_t ops[18] = {v, v};
  for (int i = 0; i < n; i++) {
    ops[2 + i] = c[i];
    if (c[i] >= len) { /* the second operand is then a zero vector */
      ops[1] = zero_of(g, vt);
      ops[2 + i] = (uint32_t)len;
    }
  }
  return sg_op(g, SpvOpVectorShuffle, ty(g, rt), 2 + n, ops);
}

/* v (of vector type vt) with components c[0..n) replaced by val's (a scalar when n is 1). */
static uint32_t swz_merge(SG *g, uint32_t v, const KType *vt, const uint8_t *c, int n,
                          uint32_t val) {
  int len = (int)vt->len;
  if (sg_wide(g, vt)) { /* Vulkan, 8 or 16 components: component by component */
    const KType *rt = n > 1 ? kir_type_vec(vt->base, n) : NULL;
    for (int i = 0; i < n; i++)
      if (c[i] < len) v = sg_vec_set(g, vt, v, c[i], rt ? sg_vec_get(g, rt, val, i) : val);
    return v;
  }
  if (n == 1) {
    if (c[0] >= len) return v;
    return sg_opv(g, SpvOpCompositeInsert, ty(g, vt), 3, val, v, (uint32_t)c[0]);
  }
  if (n != len) { /* llvm-spirv 15 shuffles only two vectors of one type: val to len first */
    uint32_t w[18] = {val, val};
    for (int j = 0; j < len; j++) w[2 + j] = (uint32_t)(j < n ? j : 0);
    val = sg_op(g, SpvOpVectorShuffle, ty(g, vt), 2 + len, w);
  }
  uint32_t ops[18] = {v, val};
  for (int j = 0; j < len; j++) ops[2 + j] = (uint32_t)j;
  for (int i = 0; i < n; i++)
    if (c[i] < len) ops[2 + c[i]] = (uint32_t)(len + i);
  return sg_op(g, SpvOpVectorShuffle, ty(g, vt), 2 + len, ops);
}

/* The vector lvalue under the swizzle lvalue e, and the components of it e names. */
static KExpr *swz_root(KExpr *e, uint8_t *c, int *n) {
  *n = e->nswz;
  memcpy(c, e->swz, (size_t)e->nswz);
  KExpr *a = e->a;
  for (; a->kind == KE_SWIZZLE; a = a->a)
    for (int i = 0; i < *n; i++) c[i] = c[i] < a->nswz ? a->swz[c[i]] : 0xff;
  return a;
}

typedef struct SwzLV {
  KExpr *root;
  uint32_t addr;
  bool vol;
  int n;
  uint8_t c[16];
} SwzLV;

static bool swz_lvalue(SG *g, KExpr *e, SwzLV *lv) {
  lv->root = swz_root(e, lv->c, &lv->n);
  if (!sg_addressable(g, lv->root)) {
    sg_error(g, e->loc, "cannot assign to components of this vector");
    return false;
  }
  lv->addr = sg_addr(g, lv->root);
  lv->vol = lv_volatile(lv->root);
  return true;
}

static uint32_t swizzle(SG *g, KExpr *e) {
  uint32_t v = sg_expr(g, e->a);
  return swz_pick(g, v, e->a->type, e->swz, e->nswz, e->type);
}

static uint32_t incdec(SG *g, KExpr *e) {
  const KType *t = e->a->type;
  bool inc = e->op == KU_PREINC || e->op == KU_POSTINC;
  bool pre = e->op == KU_PREINC || e->op == KU_PREDEC;
  if (e->a->kind == KE_SWIZZLE) {
    SwzLV lv;
    if (!swz_lvalue(g, e->a, &lv)) return spv_undef(&g->m, ty(g, t));
    const KType *vt = lv.root->type;
    uint32_t whole = sg_load(g, vt, lv.addr, lv.vol);
    uint32_t old = swz_pick(g, whole, vt, lv.c, lv.n, t), nv = step(g, t, old, inc);
    sg_store(g, vt, lv.addr, swz_merge(g, whole, vt, lv.c, lv.n, nv), lv.vol);
    return pre ? nv : old;
  }
  uint32_t addr = sg_addr(g, e->a);
  bool vol = lv_volatile(e->a);
  uint32_t old = sg_load(g, t, addr, vol), nv = step(g, t, old, inc);
  sg_store(g, t, addr, nv, vol);
  return pre ? nv : old;
}

/* The value a compound assignment stores: old (of type t) op b, computed in e->optype. */
static uint32_t compound(SG *g, KExpr *e, const KType *t, uint32_t old, uint32_t r) {
  const KType *ot = e->optype ? e->optype : t;
  if (ot->kind == KT_PTR)
    return ptr_offset(g, t, old, r, e->b->type, e->op == KB_PTR_SUB || e->op == KB_SUB);
  uint32_t l = sg_convert(g, old, t, ot, e->loc);
  bool shift = e->op == KB_SHL || e->op == KB_SHR;
  if (!shift && e->b->type != ot && (kir_is_arith(e->b->type) || e->b->type->kind == KT_VEC))
    r = sg_convert(g, r, e->b->type, ot, e->loc);
  uint32_t v = arith(g, e->op, ot, l, r, e->b->type, e->loc);
  return sg_convert(g, v, ot, t, e->loc);
}

static uint32_t assign(SG *g, KExpr *e) {
  const KType *t = e->a->type;
  if (e->a->kind == KE_SWIZZLE) {
    SwzLV lv;
    if (!swz_lvalue(g, e->a, &lv)) return spv_undef(&g->m, ty(g, t));
    const KType *vt = lv.root->type;
    /* The right side first: the root is read after it, whole. */
    uint32_t r = sg_expr(g, e->b), v;
    uint32_t whole = sg_load(g, vt, lv.addr, lv.vol);
    if (e->op == KB_NONE) {
      v = e->b->type != t ? sg_convert(g, r, e->b->type, t, e->loc) : r;
    } else {
      uint32_t old = swz_pick(g, whole, vt, lv.c, lv.n, t);
      v = compound(g, e, t, old, r);
    }
    sg_store(g, vt, lv.addr, swz_merge(g, whole, vt, lv.c, lv.n, v), lv.vol);
    return v;
  }
  uint32_t addr = sg_addr(g, e->a);
  bool vol = lv_volatile(e->a);
  uint32_t v;
  if (e->op == KB_NONE) {
    v = sg_expr(g, e->b);
    if (e->b->type != t && kir_is_scalar(e->b->type) && kir_is_scalar(t))
      v = sg_convert(g, v, e->b->type, t, e->loc);
  } else {
    uint32_t old = sg_load(g, t, addr, vol);
    v = compound(g, e, t, old, sg_expr(g, e->b));
  }
  sg_store(g, t, addr, v, vol);
  return v;
}

static uint32_t cond_expr(SG *g, KExpr *e) {
  uint32_t c = sg_cond(g, e->a);
  uint32_t tl = spv_id(&g->m), fl = spv_id(&g->m), join = spv_id(&g->m);
  sg_branch_cond_merge(g, c, tl, fl, join);
  bool has_value = e->type->kind != KT_VOID;
  sg_start_block(g, tl);
  uint32_t vb = sg_expr(g, e->b);
  if (has_value && e->b->type != e->type && kir_is_scalar(e->b->type))
    vb = sg_convert(g, vb, e->b->type, e->type, e->loc);
  sg_ensure_block(g);
  uint32_t lb = g->label;
  sg_branch(g, join);
  sg_start_block(g, fl);
  uint32_t vc = sg_expr(g, e->c);
  if (has_value && e->c->type != e->type && kir_is_scalar(e->c->type))
    vc = sg_convert(g, vc, e->c->type, e->type, e->loc);
  sg_ensure_block(g);
  uint32_t lc = g->label;
  sg_branch(g, join);
  sg_start_block(g, join);
  if (!has_value) return 0;
  return sg_opv(g, SpvOpPhi, ty(g, e->type), 4, vb, lb, vc, lc);
}

static uint32_t cast(SG *g, KExpr *e) {
  KCastKind k = kir_cast_kind(e->a->type, e->type);
  if (k == KC_ARRAY_DECAY) {
    KExpr *a = e->a;
    if (a->kind == KE_GVAR && a->var->is_dynamic) return dyn_shared(g, a, e->type);
    if (a->kind == KE_STR) {
      uint32_t var = sg_string_literal(g, a->str, a->len);
      return sg_opv(g, SpvOpInBoundsAccessChain, ty(g, e->type), 2, var, sg_u64(g, 0));
    }
    if (!sg_addressable(g, a)) {
      sg_error(g, e->loc, "array value without an address cannot be indexed here");
      return spv_undef(&g->m, ty(g, e->type));
    }
    uint32_t base = sg_addr(g, a);
    SpvStorageClass sc = lv_storage(g, a);
    if (g->vk && sc != sg_storage(g, e->type->as, e->loc)) {
      sg_error(g, e->loc,
               "a pointer to a module constant is not supported by the Vulkan SPIR-V "
               "form yet (index the array directly)");
      return spv_undef(&g->m, ty(g, e->type));
    }
    uint32_t rt = sg_ptr_type(g, sc, e->type->base);
    return sg_opv(g, SpvOpInBoundsAccessChain, rt, 2, base, g->vk ? sg_u32(g, 0) : sg_u64(g, 0));
  }
  if (k == KC_TO_BOOL) return bool_to_int(g, sg_cond(g, e->a), e->type);
  if (e->type->kind == KT_VEC) { /* a constant splat is a constant vector */
    uint32_t c = sg_const_init(g, e->type, e);
    if (c) return c;
  }
  uint32_t v = sg_expr(g, e->a);
  if (k == KC_TO_VOID) return 0;
  return sg_convert(g, v, e->a->type, e->type, e->loc);
}

static uint32_t call(SG *g, KExpr *e) {
  KFunc *f = e->callee;
  if (!f || !f->aux) {
    sg_error(g, e->loc, "call to a function without a definition");
    return 0;
  }
  int nsh = sg_nshared_params(g, f);
  uint32_t *ops = calloc((size_t)e->nargs + (size_t)f->symbols.n + (size_t)nsh + 3, sizeof *ops);
  int n = 0;
  ops[n++] = (uint32_t)(uintptr_t)f->aux;
  for (int i = 0; i < e->nargs; i++) {
    uint32_t v = sg_expr(g, e->args[i]);
    if (i < f->nparams && e->args[i]->type != f->params[i]->type &&
        kir_is_arith(e->args[i]->type) && kir_is_arith(f->params[i]->type))
      v = sg_convert(g, v, e->args[i]->type, f->params[i]->type, e->loc);
    ops[n++] = v;
  }
  for (int i = 0; i < f->symbols.n; i++) /* the caller's own parameter for it */
    ops[n++] = ((SVar *)((KVar *)f->symbols.v[i])->aux)->ptr;
  for (int i = 0; i < nsh; i++) /* the caller's array: its parameter, or in a kernel itself */
    ops[n++] = ((SVar *)sg_shared_param(g, f, i)->aux)->ptr;
  KVar *dv = g->vk ? NULL : sg_dyn_var(f); /* Vulkan: a module variable, not a parameter */
  if (dv) {
    uint32_t pt = sg_ptr_type(g, SpvStorageClassWorkgroup, dv->type->base);
    if (!g->dyn) {
      sg_error(g, e->loc, "'%s' uses dynamic shared memory, which is not reachable here", f->name);
      ops[n++] = spv_undef(&g->m, pt);
    } else if (dv->type->base != g->dyn_var->type->base) {
      ops[n++] = sg_opv(g, SpvOpBitcast, pt, 1, g->dyn);
    } else {
      ops[n++] = g->dyn;
    }
  }
  uint32_t id = sg_op(g, SpvOpFunctionCall, ty(g, f->ret), n, ops);
  free(ops);
  return f->ret->kind == KT_VOID ? 0 : id;
}

/* ---------------------------------------------------------------- vector values */

/* (float4)(a, b2, c): the components, vector arguments taken apart, inserted one by one
 * (build_vector), or a constant vector when all are constant. */
static uint32_t veclit(SG *g, KExpr *e) {
  uint32_t c = sg_const_init(g, e->type, e);
  if (c) return c;
  const KType *et = e->type->base;
  uint32_t comp[16];
  int n = 0;
  for (int i = 0; i < e->nargs; i++) {
    KExpr *a = e->args[i];
    uint32_t v = sg_expr(g, a);
    if (a->type->kind == KT_VEC) {
      for (int k = 0; k < a->type->len && n < 16; k++) comp[n++] = sg_vec_get(g, a->type, v, k);
    } else if (n < 16) {
      comp[n++] = a->type != et ? sg_convert(g, v, a->type, et, e->loc) : v;
    }
  }
  if (n != e->type->len) {
    sg_error(g, e->loc, "vector literal of type '%s' has %d components", kir_type_str(e->type), n);
    return spv_undef(&g->m, ty(g, e->type));
  }
  return sg_vec_make(g, e->type, comp);
}

/* A 3-vector as the 4-vector whose room it takes (fourth component 0), or v itself. */
static uint32_t widen3(SG *g, uint32_t v, const KType **t) {
  if ((*t)->kind != KT_VEC || (*t)->len != 3) return v;
  KType *w = kir_type_vec((*t)->base, 4);
  uint32_t r = sg_opv(g, SpvOpVectorShuffle, ty(g, w), 6, v, zero_of(g, *t), 0u, 1u, 2u, 3u);
  *t = w;
  return r;
}

/* Vulkan's as_T to or from 8 or 16 components (arrays, which OpBitcast does not take): the
 * bits in units of the narrower element size, split off each source component by shifts and
 * joined into each result component by shifts and ors. */
static uint32_t vk_wide_bitcast(SG *g, uint32_t v, const KType *from, const KType *to) {
  const KType *fe = elem(from), *te = elem(to);
  int fn = from->kind == KT_VEC ? (int)from->len : 1, tn = to->kind == KT_VEC ? (int)to->len : 1;
  int fs = fe->size, ts = te->size, u = fs < ts ? fs : ts, nu = 0;
  uint32_t fi = spv_type_int(&g->m, 8 * fs), ti = spv_type_int(&g->m, 8 * ts);
  uint32_t ui = spv_type_int(&g->m, 8 * u), units[128], comp[16];
  for (int i = 0; i < fn; i++) {
    uint32_t x = fn > 1 ? sg_vec_get(g, from, v, i) : v;
    if (kir_is_float(fe)) x = sg_opv(g, SpvOpBitcast, fi, 1, x);
    for (int j = 0; j < fs / u && nu < 128; j++) {
      uint32_t p = j ? sg_opv(g, SpvOpShiftRightLogical, fi, 2, x,
                              spv_const_int(&g->m, 8 * fs, (uint64_t)(8 * u * j)))
                     : x;
      units[nu++] = u < fs ? sg_opv(g, SpvOpUConvert, ui, 1, p) : p;
    }
  }
  for (int i = 0; i < tn && i < 16; i++) {
    uint32_t acc = 0;
    for (int j = 0; j < ts / u; j++) {
      int k = i * (ts / u) + j;
      uint32_t w = k < nu ? units[k] : spv_const_int(&g->m, 8 * u, 0);
      if (u < ts) w = sg_opv(g, SpvOpUConvert, ti, 1, w);
      if (j)
        w = sg_opv(g, SpvOpShiftLeftLogical, ti, 2, w,
                   spv_const_int(&g->m, 8 * ts, (uint64_t)(8 * u * j)));
      acc = j ? sg_opv(g, SpvOpBitwiseOr, ti, 2, acc, w) : w;
    }
    comp[i] = kir_is_float(te) ? sg_opv(g, SpvOpBitcast, ty(g, te), 1, acc) : acc;
  }
  return tn > 1 ? sg_vec_make(g, to, comp) : comp[0];
}

/* as_T(x): the same bits as another type of the same size. A 3-vector's size is a
 * 4-vector's, so as clang does for as_int3(float4) & co., a 3-vector operand is widened to
 * its 4-vector and a 3-vector result is the first three components of one; OpBitcast
 * itself needs equal bit counts. */
static uint32_t bitcast(SG *g, KExpr *e) {
  const KType *from = e->a->type, *to = e->type;
  uint32_t v = sg_expr(g, e->a);
  if (from == to) return v;
  if (from->kind == KT_PTR && to->kind == KT_PTR) return sg_opv(g, SpvOpBitcast, ty(g, to), 1, v);
  if (from->kind == KT_PTR) return sg_opv(g, SpvOpConvertPtrToU, ty(g, to), 1, v);
  if (to->kind == KT_PTR) return sg_opv(g, SpvOpConvertUToPtr, ty(g, to), 1, v);
  v = widen3(g, v, &from);
  const KType *wide = to->kind == KT_VEC && to->len == 3 ? kir_type_vec(to->base, 4) : to;
  if (sg_wide(g, from) || sg_wide(g, wide)) {
    v = vk_wide_bitcast(g, v, from, wide);
    if (wide != to) v = sg_opv(g, SpvOpVectorShuffle, ty(g, to), 5, v, v, 0u, 1u, 2u);
    return v;
  }
  if (from != wide) v = sg_opv(g, SpvOpBitcast, ty(g, wide), 1, v);
  if (wide != to) v = sg_opv(g, SpvOpVectorShuffle, ty(g, to), 5, v, v, 0u, 1u, 2u);
  return v;
}

/* ---------------------------------------------------------------- builtins */

static uint32_t special(SG *g, KExpr *e) {
  static const SpvBuiltIn bi[4] = {SpvBuiltInLocalInvocationId, SpvBuiltInWorkgroupId,
                                   SpvBuiltInWorkgroupSize, SpvBuiltInNumWorkgroups};
  static const char *names[4] = {"__spirv_BuiltInLocalInvocationId", "__spirv_BuiltInWorkgroupId",
                                 "__spirv_BuiltInWorkgroupSize", "__spirv_BuiltInNumWorkgroups"};
  if (g->vk) return sg_vk_special(g, e);
  int k = (int)e->builtin - BI_THREAD_IDX;
  if (k < 0 || k > 3 || e->dim < 0 || e->dim > 2) {
    sg_error(g, e->loc, "unknown builtin register");
    return spv_undef(&g->m, ty(g, e->type));
  }
  /* OpenCL's work-item functions return size_t: under Physical64 they are v3ulong inputs,
   * read whole and narrowed to CUDA's unsigned int. */
  uint32_t u64 = spv_type_int(&g->m, 64), v3 = spv_type_vector(&g->m, u64, 3);
  uint32_t ops[3] = {sg_builtin_input(g, k, v3, bi[k], names[k]), SpvMemoryAccessAlignedMask, 32};
  uint32_t vec = sg_op(g, SpvOpLoad, v3, 3, ops);
  uint32_t x = sg_opv(g, SpvOpCompositeExtract, u64, 2, vec, (uint32_t)e->dim);
  return sg_convert(g, x, kir_type_scalar(KT_U64), e->type, e->loc);
}

enum {
  SEM_RELAXED = 0,
  SEM_ACQ_REL = SpvMemorySemanticsAcquireReleaseMask,
  SEM_WG = SpvMemorySemanticsWorkgroupMemoryMask,
  SEM_XWG = SpvMemorySemanticsCrossWorkgroupMemoryMask,
};

/* The retry loop around a compare-exchange: cas_begin opens the block that computes the new
 * value from old (an OpPhi of the first value seen and the exchange's result), cas_end
 * exchanges and loops until no other work-item got in between. The Vulkan flavour makes it a
 * structured loop (header, body, latch). */
typedef struct CasLoop {
  uint32_t head, latch, exit, res, old;
} CasLoop;

static uint32_t cas_begin(SG *g, CasLoop *l, uint32_t ity, uint32_t init) {
  uint32_t pre = g->label;
  l->head = spv_id(&g->m);
  l->exit = spv_id(&g->m);
  sg_start_block(g, l->head);
  l->res = spv_id(&g->m); /* defined by cas_end, used by the OpPhi on the back edge */
  uint32_t body = 0;
  if (g->vk) {
    l->latch = spv_id(&g->m);
    body = spv_id(&g->m);
  }
  l->old = sg_opv(g, SpvOpPhi, ity, 4, init, pre, l->res, g->vk ? l->latch : l->head);
  if (g->vk) {
    sg_loop_header(g, l->exit, l->latch, body);
    sg_start_block(g, body);
  }
  return l->old;
}

static uint32_t cas_end(SG *g, CasLoop *l, uint32_t ity, uint32_t p, uint32_t scope, uint32_t sem,
                        uint32_t nv) {
  uint32_t ops[8] = {ity, l->res, p, scope, sem, sem, nv, l->old};
  sg_ensure_block(g);
  spw_inst(&g->body, SpvOpAtomicCompareExchange, ops, 8);
  uint32_t ok = sg_opv(g, SpvOpIEqual, tbool(g), 2, l->res, l->old);
  sg_branch_cond(g, ok, l->exit, g->vk ? l->latch : l->head);
  if (g->vk) {
    sg_start_block(g, l->latch);
    sg_branch(g, l->head);
  }
  sg_start_block(g, l->exit);
  return l->res;
}

/* The storage class of atomic e's pointer operand p (atomic: the Vulkan flavour uses &x of a
 * Workgroup array in place). */
static SpvStorageClass atomic_storage(SG *g, KExpr *e) {
  KExpr *pe = e->args[0];
  if (g->vk && pe->kind == KE_ADDR && sg_addressable(g, pe->a)) return lv_storage(g, pe->a);
  return sg_storage(g, pe->type->as, e->loc);
}

/* Vulkan: a float atomic needs an integer pointer to the same bits, which a Workgroup
 * variable's logical pointer cannot be cast to. A shared array used so (static or dynamic)
 * lives in the workgroup's block instead (spirv_vulkan.c's escape analysis): a Workgroup
 * pointer here is the analysis's miss. */
static bool vk_float_atomic_refused(SG *g, KExpr *e, SpvStorageClass sc) {
  if (!g->vk || sc != SpvStorageClassWorkgroup) return false;
  diag_ice(e->loc, "SPIR-V: floating-point %s on a Workgroup variable",
           kir_builtin_info(e->builtin)->name);
  g->failed = true;
  return true;
}

static uint32_t float_atomic_add(SG *g, KExpr *e, uint32_t p, uint32_t v, uint32_t scope,
                                 uint32_t sem) {
  const KType *ft = e->type;
  KType *it = kir_type_scalar(sg_bits(ft) == 64 ? KT_U64 : KT_U32);
  SpvStorageClass sc = atomic_storage(g, e);
  uint32_t ity = ty(g, it), fty = ty(g, ft);
  if (vk_float_atomic_refused(g, e, sc)) return spv_undef(&g->m, fty);
  /* OpenCL 1.2 has no float atomics: retry a compare-exchange of the bits until no other
   * work-item got in between. */
  uint32_t pi = sg_opv(g, SpvOpBitcast, sg_ptr_type(g, sc, it), 1, p);
  uint32_t init = sg_opv(g, SpvOpAtomicLoad, ity, 3, pi, scope, sem);
  CasLoop l;
  uint32_t old = cas_begin(g, &l, ity, init);
  uint32_t oldf = sg_opv(g, SpvOpBitcast, fty, 1, old);
  uint32_t newf = sg_opv(g, SpvOpFAdd, fty, 2, oldf, v);
  uint32_t newi = sg_opv(g, SpvOpBitcast, ity, 1, newf);
  uint32_t res = cas_end(g, &l, ity, pi, scope, sem, newi);
  return sg_opv(g, SpvOpBitcast, fty, 1, res);
}

static void nonuniform_cap(SG *g, SpvCapability cap);

/* x after j wrapping steps of atomicInc (inc) or atomicDec with bound m, all u32: inc takes
 * x to x >= m ? 0 : x + 1, dec to x == 0 || x > m ? m : x - 1. From x <= m the values
 * cycle modulo m + 1; from x > m the first step goes to 0 (inc) or m (dec). In 64 bits, so
 * that m + 1 does not wrap for m = 0xffffffff. */
static uint32_t wrap_steps(SG *g, bool inc, uint32_t x, uint32_t j, uint32_t m) {
  uint32_t u64 = ty(g, kir_type_scalar(KT_U64)), u32 = ty(g, kir_type_scalar(KT_U32)), b = tbool(g);
  uint32_t one = sg_u64(g, 1);
  uint32_t X = sg_opv(g, SpvOpUConvert, u64, 1, x), J = sg_opv(g, SpvOpUConvert, u64, 1, j);
  uint32_t M = sg_opv(g, SpvOpIAdd, u64, 2, sg_opv(g, SpvOpUConvert, u64, 1, m), one);
  uint32_t normal, over;
  if (inc) {
    normal = sg_opv(g, SpvOpUMod, u64, 2, sg_opv(g, SpvOpIAdd, u64, 2, X, J), M);
    over = sg_opv(g, SpvOpUMod, u64, 2, sg_opv(g, SpvOpISub, u64, 2, J, one), M);
  } else {
    uint32_t t = sg_opv(g, SpvOpUMod, u64, 2, J, M);
    normal = sg_opv(g, SpvOpUMod, u64, 2,
                    sg_opv(g, SpvOpISub, u64, 2, sg_opv(g, SpvOpIAdd, u64, 2, X, M), t), M);
    over = sg_opv(g, SpvOpUMod, u64, 2, sg_opv(g, SpvOpISub, u64, 2, M, t), M);
  }
  uint32_t r =
      sg_opv(g, SpvOpSelect, u64, 3, sg_opv(g, SpvOpUGreaterThan, b, 2, x, m), over, normal);
  r = sg_opv(g, SpvOpUConvert, u32, 1, r);
  return sg_opv(g, SpvOpSelect, u32, 3, sg_opv(g, SpvOpIEqual, b, 2, j, sg_u32(g, 0)), x, r);
}

/* atomicInc/atomicDec on a buffer in the Vulkan form: a compare-exchange loop per subgroup
 * rather than per invocation. Round after round, the invocations whose address and bound are
 * the first active invocation's elect one that moves the word by as many steps as they are
 * (wrap_steps), and each takes the value its rank among them gives, as if they had gone one
 * after the other. Every invocation of a launch on one word retrying a compare-exchange made
 * a launch of NVIDIA's 1600 times its CUDA time (atom.inc has no SPIR-V instruction). */
static uint32_t atomic_inc_dec_subgroup(SG *g, KExpr *e, uint32_t p, uint32_t v, uint32_t scope,
                                        uint32_t sem) {
  bool inc = e->builtin == BI_ATOMIC_INC;
  uint32_t ity = ty(g, e->type), b = tbool(g), u64 = ty(g, kir_type_scalar(KT_U64));
  uint32_t sc = sg_u32(g, SpvScopeSubgroup), undef = spv_undef(&g->m, ity);
  nonuniform_cap(g, SpvCapabilityGroupNonUniformBallot);
  /* The address as two 32-bit halves: subgroup operations on 64-bit values need
     shaderSubgroupExtendedTypes, which a device may lack. */
  uint32_t u2 = spv_type_vector(&g->m, ity, 2), b2 = spv_type_vector(&g->m, b, 2);
  uint32_t addr = sg_opv(g, SpvOpBitcast, u2, 1, sg_opv(g, SpvOpConvertPtrToU, u64, 1, p));
  uint32_t head = spv_id(&g->m), body = spv_id(&g->m), latch = spv_id(&g->m);
  uint32_t exit = spv_id(&g->m), then = spv_id(&g->m), merge = spv_id(&g->m);
  uint32_t lead = spv_id(&g->m), lmerge = spv_id(&g->m);
  sg_start_block(g, head);
  sg_loop_header(g, exit, latch, body);
  sg_start_block(g, body);
  uint32_t la = sg_opv(g, SpvOpGroupNonUniformBroadcastFirst, u2, 2, sc, addr);
  uint32_t lm = sg_opv(g, SpvOpGroupNonUniformBroadcastFirst, ity, 2, sc, v);
  uint32_t same = sg_opv(g, SpvOpAll, b, 1, sg_opv(g, SpvOpIEqual, b2, 2, addr, la));
  uint32_t mine = sg_opv(g, SpvOpLogicalAnd, b, 2, same, sg_opv(g, SpvOpIEqual, b, 2, v, lm));
  uint32_t from_body = g->label;
  sg_branch_cond_merge(g, mine, then, merge, merge);
  sg_start_block(g, then);
  uint32_t u4 = spv_type_vector(&g->m, ity, 4);
  uint32_t ballot = sg_opv(g, SpvOpGroupNonUniformBallot, u4, 2, sc, spv_const_bool(&g->m, true));
  uint32_t k = sg_opv(g, SpvOpGroupNonUniformBallotBitCount, ity, 3, sc,
                      (uint32_t)SpvGroupOperationReduce, ballot);
  uint32_t rank = sg_opv(g, SpvOpGroupNonUniformBallotBitCount, ity, 3, sc,
                         (uint32_t)SpvGroupOperationExclusiveScan, ballot);
  uint32_t elect = sg_opv(g, SpvOpGroupNonUniformElect, b, 1, sc);
  uint32_t from_then = g->label;
  sg_branch_cond_merge(g, elect, lead, lmerge, lmerge);
  sg_start_block(g, lead);
  uint32_t init = sg_opv(g, SpvOpAtomicLoad, ity, 3, p, scope, sem);
  CasLoop l;
  uint32_t old = cas_begin(g, &l, ity, init);
  uint32_t res = cas_end(g, &l, ity, p, scope, sem, wrap_steps(g, inc, old, k, v));
  uint32_t from_lead = g->label;
  sg_branch(g, lmerge);
  sg_start_block(g, lmerge);
  uint32_t first = sg_opv(g, SpvOpPhi, ity, 4, res, from_lead, undef, from_then);
  first = sg_opv(g, SpvOpGroupNonUniformBroadcastFirst, ity, 2, sc, first);
  uint32_t mres = wrap_steps(g, inc, first, rank, v);
  uint32_t from_lmerge = g->label;
  sg_branch(g, merge);
  sg_start_block(g, merge);
  uint32_t r = sg_opv(g, SpvOpPhi, ity, 4, mres, from_lmerge, undef, from_body);
  sg_branch_cond(g, mine, exit, latch); /* done, or another round */
  sg_start_block(g, latch);
  sg_branch(g, head);
  sg_start_block(g, exit);
  return r;
}

/* atomicInc/atomicDec: OpenCL has no wrapping increment, so a compare-exchange is retried
 * until no other work-item got in between (as for float atomicAdd). */
static uint32_t atomic_inc_dec(SG *g, KExpr *e, uint32_t p, uint32_t v, uint32_t scope,
                               uint32_t sem) {
  if (g->vk && sg_storage(g, e->args[0]->type->as, e->loc) == SpvStorageClassPhysicalStorageBuffer)
    return atomic_inc_dec_subgroup(g, e, p, v, scope, sem);
  const KType *it = e->type;
  uint32_t ity = ty(g, it), b = tbool(g);
  uint32_t init = sg_opv(g, SpvOpAtomicLoad, ity, 3, p, scope, sem);
  CasLoop l;
  uint32_t old = cas_begin(g, &l, ity, init);
  uint32_t zero = sg_u32(g, 0), one = sg_u32(g, 1), nv;
  if (e->builtin == BI_ATOMIC_INC) {
    uint32_t wrap = sg_opv(g, SpvOpUGreaterThanEqual, b, 2, old, v);
    nv = sg_opv(g, SpvOpSelect, ity, 3, wrap, zero, sg_opv(g, SpvOpIAdd, ity, 2, old, one));
  } else {
    uint32_t wrap = sg_opv(g, SpvOpLogicalOr, b, 2, sg_opv(g, SpvOpIEqual, b, 2, old, zero),
                           sg_opv(g, SpvOpUGreaterThan, b, 2, old, v));
    nv = sg_opv(g, SpvOpSelect, ity, 3, wrap, v, sg_opv(g, SpvOpISub, ity, 2, old, one));
  }
  return cas_end(g, &l, ity, p, scope, sem, nv);
}

static uint32_t atomic(SG *g, KExpr *e) {
  KExpr *pe = e->args[0];
  const KType *pt = pe->type, *vt = pt->base;
  bool shared = pt->as == KAS_SHARED;
  uint32_t scope = sg_u32(g, shared ? SpvScopeWorkgroup : SpvScopeDevice);
  /* Vulkan: relaxed with no storage-class bits, as glslang writes atomicAdd. */
  uint32_t sem = sg_u32(g, g->vk ? SEM_RELAXED : SEM_RELAXED | (shared ? SEM_WG : SEM_XWG));
  if (sg_bits(vt) == 64 && kir_is_int(vt)) spv_capability(&g->m, SpvCapabilityInt64Atomics);
  uint32_t rt = ty(g, e->type);
  /* Vulkan: &x[i] of a Workgroup array is used in place (not a pointer value). */
  uint32_t p =
      g->vk && pe->kind == KE_ADDR && sg_addressable(g, pe->a) ? sg_addr(g, pe->a) : sg_expr(g, pe);
  uint32_t v = sg_expr(g, e->args[1]);
  if (e->args[1]->type != vt && kir_is_arith(e->args[1]->type))
    v = sg_convert(g, v, e->args[1]->type, vt, e->loc);
  bool sgn = kir_is_signed(vt);
  SpvOp o;
  switch (e->builtin) {
  case BI_ATOMIC_ADD:
    if (kir_is_float(vt)) {
      if (sg_bits(vt) == 64) spv_capability(&g->m, SpvCapabilityInt64Atomics);
      return float_atomic_add(g, e, p, v, scope, sem);
    }
    o = SpvOpAtomicIAdd;
    break;
  case BI_ATOMIC_SUB: o = SpvOpAtomicISub; break;
  case BI_ATOMIC_MIN: o = sgn ? SpvOpAtomicSMin : SpvOpAtomicUMin; break;
  case BI_ATOMIC_MAX: o = sgn ? SpvOpAtomicSMax : SpvOpAtomicUMax; break;
  case BI_ATOMIC_AND: o = SpvOpAtomicAnd; break;
  case BI_ATOMIC_OR: o = SpvOpAtomicOr; break;
  case BI_ATOMIC_XOR: o = SpvOpAtomicXor; break;
  case BI_ATOMIC_EXCH: o = SpvOpAtomicExchange; break;
  case BI_ATOMIC_INC:
  case BI_ATOMIC_DEC: return atomic_inc_dec(g, e, p, v, scope, sem);
  case BI_ATOMIC_CAS: {
    uint32_t nv = sg_expr(g, e->args[2]);
    if (e->args[2]->type != vt && kir_is_arith(e->args[2]->type))
      nv = sg_convert(g, nv, e->args[2]->type, vt, e->loc);
    /* atomicCAS(p, compare, value): SPIR-V takes the value before the comparator. */
    return sg_opv(g, SpvOpAtomicCompareExchange, rt, 6, p, scope, sem, sem, nv, v);
  }
  default: sg_error(g, e->loc, "unknown atomic builtin"); return spv_undef(&g->m, rt);
  }
  if (g->vk && kir_is_float(vt) && o == SpvOpAtomicExchange) {
    /* Vulkan's float atomics are a device feature: exchange the bits as an integer. */
    SpvStorageClass sc = atomic_storage(g, e);
    if (vk_float_atomic_refused(g, e, sc)) return spv_undef(&g->m, rt);
    KType *it = kir_type_scalar(sg_bits(vt) == 64 ? KT_U64 : KT_U32);
    uint32_t ity = ty(g, it);
    uint32_t pi = sg_opv(g, SpvOpBitcast, sg_ptr_type(g, sc, it), 1, p);
    uint32_t vi = sg_opv(g, SpvOpBitcast, ity, 1, v);
    uint32_t old = sg_opv(g, SpvOpAtomicExchange, ity, 4, pi, scope, sem, vi);
    return sg_opv(g, SpvOpBitcast, rt, 1, old);
  }
  if (kir_is_float(vt) && o != SpvOpAtomicExchange) {
    sg_error(g, e->loc, "'%s' on floating-point values is not supported",
             kir_builtin_info(e->builtin)->name);
    return spv_undef(&g->m, rt);
  }
  return sg_opv(g, o, rt, 4, p, scope, sem, v);
}

static uint32_t printf_call(SG *g, KExpr *e) {
  const KExpr *fmt = e->nargs > 0 ? kir_strip_casts(e->args[0]) : NULL;
  if (!fmt || fmt->kind != KE_STR) {
    sg_error(g, e->loc, "printf's format must be a string literal");
    return spv_undef(&g->m, ty(g, e->type));
  }
  int s = kir_printf_nonliteral_string(e);
  if (s) {
    sg_error(g, e->args[s]->loc,
             "printf's '%%s' of a string that is not a literal (argument %d) is not %s: %s "
             "prints string literals only; use the PTX or CUDA C form",
             s, g->vk ? "supported by the Vulkan SPIR-V form" : "available in SPIR-V output",
             g->vk ? "its runtime" : "OpenCL's printf");
    return spv_undef(&g->m, ty(g, e->type));
  }
  if (g->vk) return sg_vk_printf(g, e, fmt);
  uint32_t *ops = calloc((size_t)e->nargs + 3, sizeof *ops);
  int n = 0;
  ops[n++] = sg_ocl_import(g);
  ops[n++] = OpenCLstd_Printf;
  /* The format is a `constant char *` (UniformConstant), as OpenCL's printf requires. */
  uint32_t var = sg_string_literal(g, fmt->str, fmt->len);
  uint32_t cp = spv_type_ptr(&g->m, SpvStorageClassUniformConstant, spv_type_int(&g->m, 8));
  ops[n++] = sg_opv(g, SpvOpInBoundsAccessChain, cp, 2, var, sg_u64(g, 0));
  for (int i = 1; i < e->nargs; i++) ops[n++] = sg_expr(g, e->args[i]);
  uint32_t id = sg_op(g, SpvOpExtInst, ty(g, e->type), n, ops);
  free(ops);
  return id;
}

/* The native_ (device precision) instruction for an approximate call, else inst. */
static int ocl_native(KBuiltin b, int inst) {
  switch (b) {
  case BI_EXP: return OpenCLstd_Native_exp;
  case BI_EXP2: return OpenCLstd_Native_exp2;
  case BI_EXP10: return OpenCLstd_Native_exp10;
  case BI_LOG: return OpenCLstd_Native_log;
  case BI_LOG2: return OpenCLstd_Native_log2;
  case BI_LOG10: return OpenCLstd_Native_log10;
  case BI_SIN: return OpenCLstd_Native_sin;
  case BI_COS: return OpenCLstd_Native_cos;
  case BI_TAN: return OpenCLstd_Native_tan;
  case BI_SQRT: return OpenCLstd_Native_sqrt;
  case BI_RSQRT: return OpenCLstd_Native_rsqrt;
  default: return inst;
  }
}

static int ocl_math(KBuiltin b) {
  switch (b) {
  case BI_SQRT: return OpenCLstd_Sqrt;
  case BI_RSQRT: return OpenCLstd_Rsqrt;
  case BI_CBRT: return OpenCLstd_Cbrt;
  case BI_EXP: return OpenCLstd_Exp;
  case BI_EXP2: return OpenCLstd_Exp2;
  case BI_EXP10: return OpenCLstd_Exp10;
  case BI_EXPM1: return OpenCLstd_Expm1;
  case BI_LOG: return OpenCLstd_Log;
  case BI_LOG2: return OpenCLstd_Log2;
  case BI_LOG10: return OpenCLstd_Log10;
  case BI_LOG1P: return OpenCLstd_Log1p;
  case BI_SIN: return OpenCLstd_Sin;
  case BI_COS: return OpenCLstd_Cos;
  case BI_TAN: return OpenCLstd_Tan;
  case BI_ASIN: return OpenCLstd_Asin;
  case BI_ACOS: return OpenCLstd_Acos;
  case BI_ATAN: return OpenCLstd_Atan;
  case BI_ATAN2: return OpenCLstd_Atan2;
  case BI_SINH: return OpenCLstd_Sinh;
  case BI_COSH: return OpenCLstd_Cosh;
  case BI_TANH: return OpenCLstd_Tanh;
  case BI_ASINH: return OpenCLstd_Asinh;
  case BI_ACOSH: return OpenCLstd_Acosh;
  case BI_ATANH: return OpenCLstd_Atanh;
  case BI_POW: return OpenCLstd_Pow;
  case BI_FABS: return OpenCLstd_Fabs;
  case BI_FMIN: return OpenCLstd_Fmin;
  case BI_FMAX: return OpenCLstd_Fmax;
  case BI_FLOOR: return OpenCLstd_Floor;
  case BI_CEIL: return OpenCLstd_Ceil;
  case BI_ROUND: return OpenCLstd_Round;
  case BI_TRUNC: return OpenCLstd_Trunc;
  case BI_RINT: return OpenCLstd_Rint;
  case BI_FMOD: return OpenCLstd_Fmod;
  case BI_FMA: return OpenCLstd_Fma;
  case BI_HYPOT: return OpenCLstd_Hypot;
  case BI_COPYSIGN: return OpenCLstd_Copysign;
  case BI_ERF: return OpenCLstd_Erf;
  case BI_ERFC: return OpenCLstd_Erfc;
  case BI_TGAMMA: return OpenCLstd_Tgamma;
  case BI_LGAMMA: return OpenCLstd_Lgamma;
  default: return -1;
  }
}

/* An OpenCL.std call on arguments converted to type t. */
static uint32_t ext(SG *g, KExpr *e, int inst, const KType *t) {
  uint32_t ops[8];
  int n = 0;
  if (g->vk) { /* the GLSL.std.450 counterpart, where one is exact enough */
    int ocl = inst;
    inst = sg_vk_glsl_inst(g, inst, e, elem(t));
    if (inst == SG_VK_OWN_MATH && e->nargs <= 2) {
      uint32_t v[2];
      for (int i = 0; i < e->nargs; i++) {
        v[i] = sg_expr(g, e->args[i]);
        if (e->args[i]->type != t) v[i] = sg_convert(g, v[i], e->args[i]->type, t, e->loc);
      }
      return sg_vk_math(g, e->builtin, t, v, e->nargs);
    }
    if (inst < 0) return spv_undef(&g->m, ty(g, t));
    if (inst == GLSLstd450Fma && e->nargs == 3 && !g->o->fast_math) {
      uint32_t v[3];
      for (int i = 0; i < 3; i++) {
        v[i] = sg_expr(g, e->args[i]);
        if (e->args[i]->type != t) v[i] = sg_convert(g, v[i], e->args[i]->type, t, e->loc);
      }
      return sg_bits(elem(t)) == 32 ? sg_vk_fma32(g, t, v[0], v[1], v[2])
                                    : sg_vk_fma64(g, t, v[0], v[1], v[2]);
    }
    if (inst == GLSLstd450Sqrt && ocl == OpenCLstd_Sqrt && !e->approx && !g->o->fast_math) {
      uint32_t x = sg_expr(g, e->args[0]);
      if (e->args[0]->type != t) x = sg_convert(g, x, e->args[0]->type, t, e->loc);
      return sg_vk_sqrt(g, t, x);
    }
    ops[n++] = sg_vk_glsl_import(g);
  } else {
    ops[n++] = sg_ocl_import(g);
  }
  ops[n++] = (uint32_t)inst;
  for (int i = 0; i < e->nargs && n < 8; i++) {
    uint32_t v = sg_expr(g, e->args[i]);
    if (e->args[i]->type != t && kir_is_arith(e->args[i]->type))
      v = sg_convert(g, v, e->args[i]->type, t, e->loc);
    ops[n++] = v;
  }
  return sg_op(g, SpvOpExtInst, ty(g, t), n, ops);
}

/* select(a, b, c): OpSelect on c != 0 (scalar c) or on each component's sign bit
 * (c < 0: vector c), the same as OpenCL.std's select but without its overload mangling. */
static uint32_t select_call(SG *g, KExpr *e) {
  uint32_t a = sg_expr(g, e->args[0]), b = sg_expr(g, e->args[1]);
  uint32_t c = sg_expr(g, e->args[2]), cond;
  const KType *ct = e->args[2]->type;
  if (ct->kind == KT_VEC) {
    cond = sg_opv(g, SpvOpSLessThan, bool_of(g, ct), 2, c, zero_of(g, ct));
  } else {
    cond = nonzero(g, c, ct);
    if (e->type->kind == KT_VEC) /* SPIR-V 1.0 wants one condition per component */
      cond = splat_id(g, bool_of(g, e->type), (int)e->type->len, cond);
  }
  return sg_opv(g, SpvOpSelect, ty(g, e->type), 3, cond, b, a);
}

/* convert_T_sat(x): float to integer with the SaturatedConversion decoration (NaN gives 0);
 * between integers of other signedness OpSatConvertSToU/UToS, and narrowing ones of the
 * same signedness decorated too. Widening ones need no clamping. */
/* A constant of (scalar or vector) type t from the bits of v, or from double d for a float t. */
static uint32_t const_of(SG *g, const KType *t, uint64_t v, double d) {
  if (kir_is_float(elem(t)))
    return sg_convert(g, spv_const_float(&g->m, 64, d), kir_type_scalar(KT_F64), t, (KLoc){0});
  return sg_convert(g, spv_const_int(&g->m, 64, v), kir_type_scalar(KT_U64), t, (KLoc){0});
}

/* convert_T_sat in the Vulkan form, which has neither OpSatConvert* nor the
 * SaturatedConversion decoration (Kernel features): the plain conversion where the value
 * fits, the bound it passes where not, and 0 for NaN. The bounds compared with are powers of
 * two or integers of the source type, all exact there. */
static uint32_t vk_convert_sat(SG *g, const KType *from, const KType *to, uint32_t v) {
  const KType *fe = elem(from), *te = elem(to);
  uint32_t rt = ty(g, to), bt = bool_of(g, from);
  int tb = sg_bits(te), fb = sg_bits(fe);
  bool ts = kir_is_signed(te), fs = kir_is_signed(fe), ff = kir_is_float(fe);
  uint64_t tmax = ts ? (~0ull >> (65 - tb)) : (tb == 64 ? ~0ull : (1ull << tb) - 1);
  uint64_t tmin = ts ? ~0ull << (tb - 1) : 0; /* as the bits of a 64-bit integer */
  uint32_t hi_r = const_of(g, to, tmax, 0), lo_r = const_of(g, to, tmin, 0), r, high, low;
  if (ff) {
    r = sg_opv(g, ts ? SpvOpConvertFToS : SpvOpConvertFToU, rt, 1, v);
    double top = ldexp(1.0, ts ? tb - 1 : tb), bottom = ts ? -top : 0;
    high = sg_opv(g, SpvOpFOrdGreaterThanEqual, bt, 2, v, const_of(g, from, 0, top));
    low = sg_opv(g, SpvOpFOrdLessThan, bt, 2, v, const_of(g, from, 0, bottom));
    r = sg_opv(g, SpvOpSelect, rt, 3, sg_opv(g, SpvOpIsNan, bt, 1, v), sg_zero(g, to), r);
  } else {
    SpvOp conv = fb == tb ? SpvOpBitcast : fs ? SpvOpSConvert : SpvOpUConvert;
    r = fb == tb && fs == ts ? v : sg_opv(g, conv, rt, 1, v);
    /* x > tmax, compared in the source type where tmax fits it, else never */
    bool fits_hi = fs ? (tmax <= (~0ull >> (65 - fb))) : (fb == 64 || tmax <= (1ull << fb) - 1);
    uint32_t never = sg_opv(g, SpvOpINotEqual, bt, 2, v, v);
    high = fits_hi ? sg_opv(g, fs ? SpvOpSGreaterThan : SpvOpUGreaterThan, bt, 2, v,
                            const_of(g, from, tmax, 0))
                   : never;
    /* x < tmin: a signed source below 0 (unsigned target) or below tmin (narrower signed) */
    low = fs && (!ts || tb < fb)
              ? sg_opv(g, SpvOpSLessThan, bt, 2, v, const_of(g, from, ts ? tmin : 0, 0))
              : never;
  }
  r = sg_opv(g, SpvOpSelect, rt, 3, high, hi_r, r);
  return sg_opv(g, SpvOpSelect, rt, 3, low, lo_r, r);
}

static uint32_t convert_sat(SG *g, KExpr *e) {
  const KType *from = e->args[0]->type, *to = e->type;
  const KType *fe = elem(from), *te = elem(to);
  uint32_t v = sg_expr(g, e->args[0]), rt = ty(g, to);
  if ((from->kind == KT_VEC) != (to->kind == KT_VEC) || !kir_is_int(te)) {
    sg_error(g, e->loc, "convert_sat from '%s' to '%s'", kir_type_str(from), kir_type_str(to));
    return spv_undef(&g->m, rt);
  }
  if (g->vk) return vk_convert_sat(g, from, to, v);
  SpvOp op;
  bool fs = kir_is_signed(fe), ts = kir_is_signed(te);
  if (kir_is_float(fe))
    op = ts ? SpvOpConvertFToS : SpvOpConvertFToU;
  else if (fs && !ts)
    return sg_opv(g, SpvOpSatConvertSToU, rt, 1, v);
  else if (!fs && ts)
    return sg_opv(g, SpvOpSatConvertUToS, rt, 1, v);
  else if (sg_bits(fe) == sg_bits(te))
    return v;
  else if (sg_bits(fe) < sg_bits(te))
    return sg_opv(g, ts ? SpvOpSConvert : SpvOpUConvert, rt, 1, v);
  else
    op = ts ? SpvOpSConvert : SpvOpUConvert;
  uint32_t id = sg_opv(g, op, rt, 1, v);
  spv_decorate(&g->m, id, SpvDecorationSaturatedConversion, NULL, 0);
  return id;
}

/* vloadN(offset, p) and vstoreN(v, offset, p): OpenCL.std vloadn/vstoren, whose offset is a
 * size_t (64 bits under Physical64) and whose pointer points to the element type. */
static uint32_t vload_store(SG *g, KExpr *e) {
  bool load = e->builtin == BI_VLOAD;
  int o = load ? 0 : 1;
  uint32_t data = load ? 0 : sg_expr(g, e->args[0]);
  uint32_t off = to_i64(g, sg_expr(g, e->args[o]), e->args[o]->type);
  uint32_t p = sg_expr(g, e->args[o + 1]);
  if (g->vk) {
    /* Shader has no vloadn: the n elements at p + off * n, one by one, as p[i] reads them
       (element alignment: vloadn needs no more). */
    const KType *pt = e->args[o + 1]->type, *vt = load ? e->type : e->args[0]->type;
    const KType *el = vt->base;
    int n = (int)vt->len;
    bool vol = (pt->qual & KQ_VOLATILE) != 0;
    uint32_t i64 = spv_type_int(&g->m, 64);
    uint32_t first = sg_opv(g, SpvOpIMul, i64, 2, off, sg_u64(g, (uint64_t)n));
    uint32_t c[16];
    for (int i = 0; i < n && i < 16; i++) {
      uint32_t at = sg_opv(g, SpvOpIAdd, i64, 2, first, sg_u64(g, (uint64_t)i));
      uint32_t ptr = ptr_add(g, pt, p, at);
      if (load)
        c[i] = sg_load(g, el, ptr, vol);
      else
        sg_store(g, el, ptr, sg_vec_get(g, vt, data, i), vol);
    }
    return load ? sg_vec_make(g, vt, c) : 0;
  }
  if (load)
    return sg_opv(g, SpvOpExtInst, ty(g, e->type), 5, sg_ocl_import(g), (uint32_t)OpenCLstd_Vloadn,
                  off, p, (uint32_t)e->type->len);
  sg_opv(g, SpvOpExtInst, spv_type_void(&g->m), 5, sg_ocl_import(g), (uint32_t)OpenCLstd_Vstoren,
         data, off, p);
  return 0;
}

/* ---------------------------------------------------------------- CUDA intrinsics */

static uint32_t int_const(SG *g, const KType *t, uint64_t v) {
  return spv_const_int(&g->m, sg_bits(t), v);
}

/* Bits of x (type t, 32 or 64 bits) reversed: OpBitReverse is for shaders only. */
static uint32_t bit_reverse(SG *g, uint32_t x, const KType *t) {
  static const uint64_t masks[] = {0x5555555555555555ull, 0x3333333333333333ull,
                                   0x0f0f0f0f0f0f0f0full, 0x00ff00ff00ff00ffull,
                                   0x0000ffff0000ffffull, 0x00000000ffffffffull};
  int bits = sg_bits(t);
  uint32_t tt = ty(g, t);
  for (int i = 0, sh = 1; sh < bits; i++, sh *= 2) {
    uint64_t m = bits == 64 ? masks[i] : masks[i] & 0xffffffffu;
    uint32_t mk = int_const(g, t, m), s = int_const(g, t, (uint64_t)sh);
    uint32_t lo =
        sg_opv(g, SpvOpBitwiseAnd, tt, 2, sg_opv(g, SpvOpShiftRightLogical, tt, 2, x, s), mk);
    uint32_t hi =
        sg_opv(g, SpvOpShiftLeftLogical, tt, 2, sg_opv(g, SpvOpBitwiseAnd, tt, 2, x, mk), s);
    x = sg_opv(g, SpvOpBitwiseOr, tt, 2, lo, hi);
  }
  return x;
}

static uint32_t cuda_intrinsic(SG *g, KExpr *e) {
  KBuiltin b = e->builtin;
  uint32_t a[3] = {0};
  for (int i = 0; i < e->nargs && i < 3; i++) a[i] = sg_expr(g, e->args[i]);
  const KType *at = e->nargs ? e->args[0]->type : e->type;
  uint32_t rt = ty(g, e->type);
  switch (b) {
  case BI_FFS: { /* width - clz(x & -x): 0 for x == 0 */
    uint32_t t = ty(g, at);
    uint32_t low = sg_opv(g, SpvOpBitwiseAnd, t, 2, a[0],
                          sg_opv(g, SpvOpISub, t, 2, int_const(g, at, 0), a[0]));
    uint32_t z = sg_opv(g, SpvOpExtInst, t, 3, sg_ocl_import(g), (uint32_t)OpenCLstd_Clz, low);
    uint32_t r = sg_opv(g, SpvOpISub, t, 2, int_const(g, at, (uint64_t)sg_bits(at)), z);
    return sg_convert(g, r, at, e->type, e->loc);
  }
  case BI_BREV: return bit_reverse(g, a[0], e->type);
  case BI_NANOSLEEP: return 0; /* a hint: sleeping 0 ns is within it (a[0] was evaluated) */
  case BI_BYTE_PERM: {
    const KType *u64 = kir_type_scalar(KT_U64), *u32 = kir_type_scalar(KT_U32);
    uint32_t t64 = ty(g, u64), t32 = ty(g, u32);
    uint32_t v = sg_opv(g, SpvOpBitwiseOr, t64, 2, sg_opv(g, SpvOpUConvert, t64, 1, a[0]),
                        sg_opv(g, SpvOpShiftLeftLogical, t64, 2,
                               sg_opv(g, SpvOpUConvert, t64, 1, a[1]), sg_u64(g, 32)));
    uint32_t r = sg_u32(g, 0);
    for (unsigned i = 0; i < 4; i++) {
      uint32_t sel =
          sg_opv(g, SpvOpBitwiseAnd, t32, 2,
                 sg_opv(g, SpvOpShiftRightLogical, t32, 2, a[2], sg_u32(g, 4 * i)), sg_u32(g, 7));
      uint32_t sh = sg_opv(g, SpvOpUConvert, t64, 1,
                           sg_opv(g, SpvOpShiftLeftLogical, t32, 2, sel, sg_u32(g, 3)));
      uint32_t byte =
          sg_opv(g, SpvOpUConvert, t32, 1, sg_opv(g, SpvOpShiftRightLogical, t64, 2, v, sh));
      byte = sg_opv(g, SpvOpBitwiseAnd, t32, 2, byte, sg_u32(g, 0xff));
      r = sg_opv(g, SpvOpBitwiseOr, t32, 2, r,
                 sg_opv(g, SpvOpShiftLeftLogical, t32, 2, byte, sg_u32(g, 8 * i)));
    }
    return r;
  }
  case BI_SAD: {
    int inst = kir_is_signed(at) ? OpenCLstd_SAbs_diff : OpenCLstd_UAbs_diff;
    uint32_t d = sg_opv(g, SpvOpExtInst, rt, 4, sg_ocl_import(g), (uint32_t)inst, a[0], a[1]);
    return sg_opv(g, SpvOpIAdd, rt, 2, d, a[2]);
  }
  case BI_FDIVIDE:
    return sg_opv(g, SpvOpExtInst, rt, 4, sg_ocl_import(g), (uint32_t)OpenCLstd_Native_divide, a[0],
                  a[1]);
  case BI_FADD_RN:
  case BI_FSUB_RN:
  case BI_FMUL_RN: {
    if (g->vk) { /* NoContraction: the operation as written, with the zero fixes */
      SpvOp o = b == BI_FADD_RN ? SpvOpFAdd : b == BI_FSUB_RN ? SpvOpFSub : SpvOpFMul;
      uint32_t q = sg_vk_exact(g, o, rt, a[0], a[1]);
      return o == SpvOpFMul ? sg_vk_mul_zero(g, e->type, a[0], a[1], q)
                            : sg_vk_add_zero(g, e->type, a[0], a[1], q, o == SpvOpFSub);
    }
    /* As fma, which no consumer contracts further: a*b+(-0), a*1+b, b*(-1)+a are exact. */
    int bits = sg_bits(e->type);
    uint32_t one = spv_const_float(&g->m, bits, 1.0), m1 = spv_const_float(&g->m, bits, -1.0);
    uint32_t x = b == BI_FSUB_RN ? a[1] : a[0];
    uint32_t y = b == BI_FADD_RN ? one : b == BI_FSUB_RN ? m1 : a[1];
    uint32_t z = b == BI_FADD_RN   ? a[1]
                 : b == BI_FSUB_RN ? a[0]
                                   : spv_const_float(&g->m, bits, -0.0);
    return sg_opv(g, SpvOpExtInst, rt, 5, sg_ocl_import(g), (uint32_t)OpenCLstd_Fma, x, y, z);
  }
  default: break;
  }
  if (b == BI_CLOCK || b == BI_CLOCK64 || b == BI_TRAP) {
    sg_error(g, e->loc, "%s() is not available in SPIR-V output%s", kir_builtin_info(b)->name,
             b == BI_TRAP ? " (an OpenCL kernel cannot end itself with an error)" : "");
  } else if (kir_builtin_is_subgroup(b)) {
    return subgroup_call(g, e);
  } else if (kir_builtin_is_warp(b)) {
    return warp_call(g, e);
  } else
    sg_error(g, e->loc, "%s is not available in SPIR-V output", kir_builtin_info(b)->name);
  return e->type->kind == KT_VOID ? 0 : spv_undef(&g->m, rt);
}

/* ---------------------------------------------------------------- subgroups
 * OpenCL's subgroup functions (OpenCL flavour; the Vulkan one refuses them). The uniform core
 * of cl_khr_subgroups is SPIR-V 1.0's Groups (OpGroupAll, OpGroupIAdd... at Subgroup scope);
 * the extended extensions (non-uniform functions, shuffles, ballots, clustered reductions) are
 * SPIR-V 1.3's GroupNonUniform operations, which make the module 1.3 (spv_version). The
 * builtins are the Kernel capability's SubgroupSize .. SubgroupLocalInvocationId inputs. */

/* The invocations of a workgroup in the Vulkan form: the product of its shape's
 * specialisation constants. */
static uint32_t vk_invocations(SG *g) {
  uint32_t u32 = spv_type_int(&g->m, 32);
  return sg_opv(g, SpvOpIMul, u32, 2, sg_opv(g, SpvOpIMul, u32, 2, g->wgsize[0], g->wgsize[1]),
                g->wgsize[2]);
}

static uint32_t sg_subgroup_input(SG *g, KBuiltin b) {
  static const SpvBuiltIn bi[5] = {SpvBuiltInSubgroupSize, SpvBuiltInSubgroupMaxSize,
                                   SpvBuiltInNumSubgroups, SpvBuiltInSubgroupId,
                                   SpvBuiltInSubgroupLocalInvocationId};
  static const char *names[5] = {"__spirv_BuiltInSubgroupSize", "__spirv_BuiltInSubgroupMaxSize",
                                 "__spirv_BuiltInNumSubgroups", "__spirv_BuiltInSubgroupId",
                                 "__spirv_BuiltInSubgroupLocalInvocationId"};
  int k = (int)(b - BI_SG_SIZE);
  uint32_t u32 = spv_type_int(&g->m, 32);
  if (g->vk && b == BI_SG_NUM) {
    /* ceil(invocations / SubgroupSize): lavapipe's NumSubgroups leaves out a last, partial
     * subgroup (12 for 100 invocations in subgroups of 8: docs/driver-bugs.md 26). */
    uint32_t size = sg_subgroup_input(g, BI_SG_MAX_SIZE), one = sg_u32(g, 1);
    uint32_t n = vk_invocations(g);
    return sg_opv(g, SpvOpUDiv, u32, 2,
                  sg_opv(g, SpvOpISub, u32, 2, sg_opv(g, SpvOpIAdd, u32, 2, n, size), one), size);
  }
  if (g->vk && (b == BI_SG_SIZE || b == BI_SG_MAX_SIZE)) {
    /* Vulkan's SubgroupSize is every subgroup's (OpenCL's maximum, a Kernel builtin); OpenCL's
     * size of this subgroup is that, or what is left of the workgroup for the last one. */
    nonuniform_cap(g, SpvCapabilityGroupNonUniform);
    uint32_t ops[3] = {sg_builtin_input(g, 4, u32, SpvBuiltInSubgroupSize, names[0]),
                       SpvMemoryAccessAlignedMask, 4};
    uint32_t size = sg_op(g, SpvOpLoad, u32, 3, ops);
    if (b == BI_SG_MAX_SIZE) return size;
    uint32_t n = vk_invocations(g);
    uint32_t first = sg_opv(g, SpvOpIMul, u32, 2, sg_subgroup_input(g, BI_SG_ID), size);
    uint32_t left = sg_opv(g, SpvOpISub, u32, 2, n, first);
    return sg_opv(g, SpvOpSelect, u32, 3, sg_opv(g, SpvOpULessThan, tbool(g), 2, left, size), left,
                  size);
  }
  if (g->vk) nonuniform_cap(g, SpvCapabilityGroupNonUniform);
  uint32_t ops[3] = {sg_builtin_input(g, 4 + k, u32, bi[k], names[k]), SpvMemoryAccessAlignedMask,
                     4};
  return sg_op(g, SpvOpLoad, u32, 3, ops);
}

/* The Groups (uniform) or GroupNonUniformArithmetic opcode of a reduction or scan. */
static SpvOp red_opcode(KRedOp r, const KType *t, bool nonuniform) {
  bool f = kir_is_float(t), s = kir_is_signed(t);
  if (!nonuniform) switch (r) {
    case KR_ADD: return f ? SpvOpGroupFAdd : SpvOpGroupIAdd;
    case KR_MIN: return f ? SpvOpGroupFMin : s ? SpvOpGroupSMin : SpvOpGroupUMin;
    case KR_MAX: return f ? SpvOpGroupFMax : s ? SpvOpGroupSMax : SpvOpGroupUMax;
    default: break; /* OpenCL has no such uniform function; every lane active is fine below */
    }
  switch (r) {
  case KR_ADD: return f ? SpvOpGroupNonUniformFAdd : SpvOpGroupNonUniformIAdd;
  case KR_MUL: return f ? SpvOpGroupNonUniformFMul : SpvOpGroupNonUniformIMul;
  case KR_MIN:
    return f ? SpvOpGroupNonUniformFMin : s ? SpvOpGroupNonUniformSMin : SpvOpGroupNonUniformUMin;
  case KR_MAX:
    return f ? SpvOpGroupNonUniformFMax : s ? SpvOpGroupNonUniformSMax : SpvOpGroupNonUniformUMax;
  case KR_AND: return SpvOpGroupNonUniformBitwiseAnd;
  case KR_OR: return SpvOpGroupNonUniformBitwiseOr;
  case KR_XOR: return SpvOpGroupNonUniformBitwiseXor;
  case KR_LOGICAL_AND: return SpvOpGroupNonUniformLogicalAnd;
  case KR_LOGICAL_OR: return SpvOpGroupNonUniformLogicalOr;
  default: return SpvOpGroupNonUniformLogicalXor;
  }
}

static bool red_is_logical(KRedOp r) {
  return r == KR_LOGICAL_AND || r == KR_LOGICAL_OR || r == KR_LOGICAL_XOR;
}

static uint32_t to_bool(SG *g, uint32_t v, const KType *t);
static uint32_t from_bool(SG *g, uint32_t c, const KType *t);

/* A clustered reduction in the Vulkan form by shuffles rather than the Clustered capability,
 * which lavapipe (and other drivers) lack: each lane reads the n lanes of its aligned cluster
 * (n a power of two, as OpenCL requires) in order and combines those that exist (a last,
 * partial subgroup has fewer). */
static uint32_t vk_clustered(SG *g, KExpr *e, uint32_t v, const KType *t) {
  KExpr *n = e->args[1];
  uint32_t rt = ty(g, t), sc = sg_u32(g, SpvScopeSubgroup);
  if (n->kind != KE_ICONST || !n->ival || (n->ival & (n->ival - 1)) || n->ival > 128) {
    sg_error(g, n->loc, "a clustered reduction's cluster size must be a constant power of two");
    return spv_undef(&g->m, rt);
  }
  nonuniform_cap(g, SpvCapabilityGroupNonUniformShuffle);
  bool logical = red_is_logical(e->red), f = kir_is_float(t), s = kir_is_signed(t);
  uint32_t x = logical ? to_bool(g, v, t) : v, xt = logical ? tbool(g) : rt;
  uint32_t u32 = spv_type_int(&g->m, 32);
  uint32_t lid = sg_subgroup_input(g, BI_SG_LOCAL_ID), size = sg_subgroup_input(g, BI_SG_SIZE);
  uint32_t base = sg_opv(g, SpvOpBitwiseAnd, u32, 2, lid, sg_u32(g, ~(uint32_t)(n->ival - 1)));
  uint32_t acc = sg_opv(g, SpvOpGroupNonUniformShuffle, xt, 3, sc, x, base);
  int glsl = -1;
  SpvOp op = SpvOpNop;
  switch (e->red) {
  case KR_ADD: op = f ? SpvOpFAdd : SpvOpIAdd; break;
  case KR_MUL: op = f ? SpvOpFMul : SpvOpIMul; break;
  case KR_MIN: glsl = f ? GLSLstd450NMin : s ? GLSLstd450SMin : GLSLstd450UMin; break;
  case KR_MAX: glsl = f ? GLSLstd450NMax : s ? GLSLstd450SMax : GLSLstd450UMax; break;
  case KR_AND: op = SpvOpBitwiseAnd; break;
  case KR_OR: op = SpvOpBitwiseOr; break;
  case KR_XOR: op = SpvOpBitwiseXor; break;
  case KR_LOGICAL_AND: op = SpvOpLogicalAnd; break;
  case KR_LOGICAL_OR: op = SpvOpLogicalOr; break;
  default: op = SpvOpLogicalNotEqual; break; /* logical xor */
  }
  for (uint64_t j = 1; j < n->ival; j++) {
    uint32_t at = sg_opv(g, SpvOpIAdd, u32, 2, base, sg_u32(g, (uint32_t)j));
    uint32_t y = sg_opv(g, SpvOpGroupNonUniformShuffle, xt, 3, sc, x, at);
    uint32_t c = glsl >= 0
                     ? sg_opv(g, SpvOpExtInst, xt, 4, sg_vk_glsl_import(g), (uint32_t)glsl, acc, y)
                     : sg_opv(g, op, xt, 2, acc, y);
    acc = sg_opv(g, SpvOpSelect, xt, 3, sg_opv(g, SpvOpULessThan, tbool(g), 2, at, size), c, acc);
  }
  return logical ? from_bool(g, acc, t) : acc;
}

/* An int truth value as a bool, and back (1 or 0). */
static uint32_t to_bool(SG *g, uint32_t v, const KType *t) {
  return sg_opv(g, SpvOpINotEqual, tbool(g), 2, v, zero_of(g, t));
}

static uint32_t from_bool(SG *g, uint32_t c, const KType *t) {
  return sg_opv(g, SpvOpSelect, ty(g, t), 3, c, one_of(g, t), zero_of(g, t));
}

static void nonuniform_cap(SG *g, SpvCapability cap) {
  spv_capability(&g->m, SpvCapabilityGroupNonUniform);
  if (cap != SpvCapabilityGroupNonUniform) spv_capability(&g->m, cap);
}

/* One scalar lane value v of type t through subgroup operation e (x: its second operand,
 * the lane, mask or delta, already a u32). */
static uint32_t subgroup_scalar(SG *g, KExpr *e, uint32_t v, const KType *t, uint32_t x) {
  KBuiltin b = e->builtin;
  uint32_t sc = sg_u32(g, SpvScopeSubgroup), rt = ty(g, t);
  switch (b) {
  case BI_SG_BROADCAST:
    if (!e->nonuniform && !g->vk) {
      spv_capability(&g->m, SpvCapabilityGroups);
      return sg_opv(g, SpvOpGroupBroadcast, rt, 3, sc, v, x);
    }
    /* SPIR-V 1.3's OpGroupNonUniformBroadcast takes a constant lane: a shuffle takes any. */
    nonuniform_cap(g, SpvCapabilityGroupNonUniformShuffle);
    return sg_opv(g, SpvOpGroupNonUniformShuffle, rt, 3, sc, v, x);
  case BI_SG_BROADCAST_FIRST:
    nonuniform_cap(g, SpvCapabilityGroupNonUniformBallot);
    return sg_opv(g, SpvOpGroupNonUniformBroadcastFirst, rt, 2, sc, v);
  case BI_SG_SHUFFLE:
  case BI_SG_SHUFFLE_XOR:
    nonuniform_cap(g, SpvCapabilityGroupNonUniformShuffle);
    return sg_opv(g,
                  b == BI_SG_SHUFFLE ? SpvOpGroupNonUniformShuffle : SpvOpGroupNonUniformShuffleXor,
                  rt, 3, sc, v, x);
  case BI_SG_SHUFFLE_UP:
  case BI_SG_SHUFFLE_DOWN:
    nonuniform_cap(g, SpvCapabilityGroupNonUniformShuffleRelative);
    return sg_opv(
        g, b == BI_SG_SHUFFLE_UP ? SpvOpGroupNonUniformShuffleUp : SpvOpGroupNonUniformShuffleDown,
        rt, 3, sc, v, x);
  default: break;
  }
  /* reductions and scans */
  uint32_t gop = b == BI_SG_SCAN_INCLUSIVE     ? SpvGroupOperationInclusiveScan
                 : b == BI_SG_SCAN_EXCLUSIVE   ? SpvGroupOperationExclusiveScan
                 : b == BI_SG_CLUSTERED_REDUCE ? SpvGroupOperationClusteredReduce
                                               : SpvGroupOperationReduce;
  /* Vulkan has only the non-uniform instructions (the Groups capability is OpenCL's). */
  bool nonuniform = e->nonuniform || g->vk || b == BI_SG_CLUSTERED_REDUCE;
  SpvOp op = red_opcode(e->red, t, nonuniform);
  bool groups = op >= SpvOpGroupIAdd && op <= SpvOpGroupSMax;
  if (groups) {
    spv_capability(&g->m, SpvCapabilityGroups);
    return sg_opv(g, op, rt, 3, sc, gop, v);
  }
  if (g->vk && b == BI_SG_CLUSTERED_REDUCE) return vk_clustered(g, e, v, t);
  nonuniform_cap(g, b == BI_SG_CLUSTERED_REDUCE ? SpvCapabilityGroupNonUniformClustered
                                                : SpvCapabilityGroupNonUniformArithmetic);
  bool logical = red_is_logical(e->red);
  uint32_t in = logical ? to_bool(g, v, t) : v, ity = logical ? tbool(g) : rt;
  uint32_t r = b == BI_SG_CLUSTERED_REDUCE ? sg_opv(g, op, ity, 4, sc, gop, in, x)
                                           : sg_opv(g, op, ity, 3, sc, gop, in);
  return logical ? from_bool(g, r, t) : r;
}

static uint32_t subgroup_call(SG *g, KExpr *e) {
  KBuiltin b = e->builtin;
  uint32_t sc = sg_u32(g, SpvScopeSubgroup), rt = e->type->kind == KT_VOID ? 0 : ty(g, e->type);
  switch (b) {
  case BI_SG_SIZE:
  case BI_SG_MAX_SIZE:
  case BI_SG_NUM:
  case BI_SG_ID:
  case BI_SG_LOCAL_ID:
    return sg_convert(g, sg_subgroup_input(g, b), kir_type_scalar(KT_U32), e->type, e->loc);
  case BI_SG_BARRIER:
    /* a fence of local and global memory, as the other forms' sub_group_barrier (Vulkan's
       buffers are UniformMemory) */
    sg_instv(g, SpvOpControlBarrier, 3, sc, sg_u32(g, SpvScopeWorkgroup),
             sg_u32(g, SEM_ACQ_REL | SEM_WG |
                           (g->vk ? (uint32_t)SpvMemorySemanticsUniformMemoryMask : SEM_XWG)));
    return 0;
  case BI_SG_ELECT:
    nonuniform_cap(g, SpvCapabilityGroupNonUniform);
    return from_bool(g, sg_opv(g, SpvOpGroupNonUniformElect, tbool(g), 1, sc), e->type);
  case BI_SG_ALL:
  case BI_SG_ANY: {
    uint32_t p = to_bool(g, sg_expr(g, e->args[0]), e->args[0]->type);
    SpvOp op;
    if (e->nonuniform || g->vk) {
      nonuniform_cap(g, SpvCapabilityGroupNonUniformVote);
      op = b == BI_SG_ALL ? SpvOpGroupNonUniformAll : SpvOpGroupNonUniformAny;
    } else {
      spv_capability(&g->m, SpvCapabilityGroups);
      op = b == BI_SG_ALL ? SpvOpGroupAll : SpvOpGroupAny;
    }
    return from_bool(g, sg_opv(g, op, tbool(g), 2, sc, p), e->type);
  }
  case BI_SG_ALL_EQUAL: {
    nonuniform_cap(g, SpvCapabilityGroupNonUniformVote);
    uint32_t v = sg_expr(g, e->args[0]);
    return from_bool(g, sg_opv(g, SpvOpGroupNonUniformAllEqual, tbool(g), 2, sc, v), e->type);
  }
  case BI_SG_BALLOT: {
    nonuniform_cap(g, SpvCapabilityGroupNonUniformBallot);
    uint32_t p = to_bool(g, sg_expr(g, e->args[0]), e->args[0]->type);
    uint32_t u4 = spv_type_vector(&g->m, spv_type_int(&g->m, 32), 4);
    uint32_t r = sg_opv(g, SpvOpGroupNonUniformBallot, u4, 2, sc, p);
    return u4 == rt ? r : sg_opv(g, SpvOpBitcast, rt, 1, r);
  }
  default: break;
  }
  /* Operations on a value: a vector's components one by one. */
  KExpr *a0 = e->args[0];
  uint32_t v = sg_expr(g, a0);
  const KType *t = a0->type;
  if (t != e->type) v = sg_convert(g, v, t, e->type, e->loc), t = e->type;
  uint32_t x = 0;
  if (e->nargs > 1) {
    KExpr *a1 = e->args[1];
    x = sg_convert(g, sg_expr(g, a1), a1->type, kir_type_scalar(KT_U32), e->loc);
  }
  if (t->kind != KT_VEC) return subgroup_scalar(g, e, v, t, x);
  uint32_t c[16];
  for (int i = 0; i < t->len && i < 16; i++) {
    uint32_t ci = sg_opv(g, SpvOpCompositeExtract, ty(g, t->base), 2, v, (uint32_t)i);
    c[i] = subgroup_scalar(g, e, ci, t->base, x);
  }
  return sg_op(g, SpvOpCompositeConstruct, rt, (int)t->len, c);
}

/* ---------------------------------------------------------------- CUDA's warps
 * CUDA's warp-level operations on subgroups, lane for lane as the OpenCL C form writes them
 * (opencl_c.c's kcc_shfl*, kcc_ballot... helpers): libkcrt runs such a kernel only where its
 * subgroups are 32 wide (OpenCL: CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE; Vulkan: the
 * device's subgroup size, or one it can be asked for), so a lane is the subgroup local id and
 * a warp mask is the first word of a ballot. Shuffles are non-uniform: a lane outside the mask
 * or inactive changes nothing CUDA defines. */

static uint32_t warp_lane(SG *g) {
  return sg_subgroup_input(g, BI_SG_LOCAL_ID);
}

/* v (of type t) from lane `lane`: vectors component by component, integers narrower than 32
 * bits as 32 (a subgroup operation on 8- or 16-bit types needs capabilities devices lack). */
static uint32_t warp_shuffle(SG *g, uint32_t v, const KType *t, uint32_t lane) {
  uint32_t sc = sg_u32(g, SpvScopeSubgroup);
  nonuniform_cap(g, SpvCapabilityGroupNonUniformShuffle);
  if (t->kind == KT_VEC) {
    uint32_t c[16];
    for (int i = 0; i < t->len && i < 16; i++)
      c[i] = warp_shuffle(g, sg_opv(g, SpvOpCompositeExtract, ty(g, t->base), 2, v, (uint32_t)i),
                          t->base, lane);
    return sg_op(g, SpvOpCompositeConstruct, ty(g, t), (int)t->len, c);
  }
  if (t->size < 4) {
    const KType *u32 = kir_type_scalar(KT_U32);
    uint32_t w = sg_convert(g, v, t, u32, (KLoc){0});
    w = sg_opv(g, SpvOpGroupNonUniformShuffle, ty(g, u32), 3, sc, w, lane);
    return sg_convert(g, w, u32, t, (KLoc){0});
  }
  return sg_opv(g, SpvOpGroupNonUniformShuffle, ty(g, t), 3, sc, v, lane);
}

/* The first word of the ballot of bool p: the 32 lanes' predicates as CUDA's mask. */
static uint32_t warp_ballot(SG *g, uint32_t p) {
  nonuniform_cap(g, SpvCapabilityGroupNonUniformBallot);
  uint32_t u32 = spv_type_int(&g->m, 32), u4 = spv_type_vector(&g->m, u32, 4);
  uint32_t b = sg_opv(g, SpvOpGroupNonUniformBallot, u4, 2, sg_u32(g, SpvScopeSubgroup), p);
  return sg_opv(g, SpvOpCompositeExtract, u32, 2, b, 0u);
}

/* __reduce_{add,min,max,and,or,xor}_sync(mask, v) of int or unsigned: with every lane in the
 * mask (a constant ~0), the subgroup's own reduction; else the lanes of the mask one by one,
 * from lane 0 up, as the OpenCL C form's loop does. */
static uint32_t warp_reduce(SG *g, KExpr *e, uint32_t mask, uint32_t v) {
  static const KRedOp ops[] = {KR_ADD, KR_MIN, KR_MAX, KR_AND, KR_OR, KR_XOR};
  KRedOp r = ops[e->builtin - BI_REDUCE_ADD];
  const KType *t = e->type;
  uint32_t rt = ty(g, t), u32 = spv_type_int(&g->m, 32), sc = sg_u32(g, SpvScopeSubgroup);
  bool s = kir_is_signed(t);
  uint64_t m;
  if (kir_const_uint(e->args[0], &m) && m == 0xffffffffu) {
    nonuniform_cap(g, SpvCapabilityGroupNonUniformArithmetic);
    return sg_opv(g, red_opcode(r, t, true), rt, 3, sc, (uint32_t)SpvGroupOperationReduce, v);
  }
  uint32_t acc = r == KR_MIN   ? sg_u32(g, s ? 0x7fffffffu : 0xffffffffu)
                 : r == KR_MAX ? sg_u32(g, s ? 0x80000000u : 0)
                 : r == KR_AND ? sg_u32(g, 0xffffffffu)
                               : sg_u32(g, 0);
  for (uint32_t i = 0; i < 32; i++) {
    uint32_t x = warp_shuffle(g, v, t, sg_u32(g, i)), c;
    switch (r) {
    case KR_ADD: c = sg_opv(g, SpvOpIAdd, rt, 2, acc, x); break;
    case KR_MIN:
    case KR_MAX: {
      SpvOp lt = s ? SpvOpSLessThan : SpvOpULessThan;
      uint32_t less =
          r == KR_MIN ? sg_opv(g, lt, tbool(g), 2, x, acc) : sg_opv(g, lt, tbool(g), 2, acc, x);
      c = sg_opv(g, SpvOpSelect, rt, 3, less, x, acc);
      break;
    }
    case KR_AND: c = sg_opv(g, SpvOpBitwiseAnd, rt, 2, acc, x); break;
    case KR_OR: c = sg_opv(g, SpvOpBitwiseOr, rt, 2, acc, x); break;
    default: c = sg_opv(g, SpvOpBitwiseXor, rt, 2, acc, x); break;
    }
    uint32_t bit = sg_opv(g, SpvOpBitwiseAnd, u32, 2, mask, sg_u32(g, 1u << i));
    uint32_t in = sg_opv(g, SpvOpINotEqual, tbool(g), 2, bit, sg_u32(g, 0));
    acc = sg_opv(g, SpvOpSelect, rt, 3, in, c, acc);
  }
  return acc;
}

static uint32_t warp_call(SG *g, KExpr *e) {
  KBuiltin b = e->builtin;
  uint32_t u32 = spv_type_int(&g->m, 32);
  const KType *tu32 = kir_type_scalar(KT_U32);
  if (b == BI_SYNCWARP) {
    uint64_t m;
    if (!kir_const_uint(e->args[0], &m) || m != 0xffffffffu) {
      sg_error(g, e->loc,
               "__syncwarp with a mask other than 0xffffffff is not available in SPIR-V "
               "output (a subgroup barrier waits for the whole subgroup)");
      return 0;
    }
    /* as sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE) */
    sg_instv(g, SpvOpControlBarrier, 3, sg_u32(g, SpvScopeSubgroup), sg_u32(g, SpvScopeWorkgroup),
             sg_u32(g, SEM_ACQ_REL | SEM_WG |
                           (g->vk ? (uint32_t)SpvMemorySemanticsUniformMemoryMask : SEM_XWG)));
    return 0;
  }
  if (b == BI_ACTIVEMASK) return warp_ballot(g, spv_const_bool(&g->m, true));
  uint32_t mask = sg_convert(g, sg_expr(g, e->args[0]), e->args[0]->type, tu32, e->loc);
  KExpr *a1 = e->args[1];
  uint32_t v = sg_expr(g, a1);
  if (b == BI_BALLOT || b == BI_ANY || b == BI_ALL) {
    uint32_t p = to_bool(g, v, a1->type);
    if (b == BI_ALL) p = sg_opv(g, SpvOpLogicalNot, tbool(g), 1, p);
    uint32_t w = sg_opv(g, SpvOpBitwiseAnd, u32, 2, warp_ballot(g, p), mask);
    if (b == BI_BALLOT) return sg_convert(g, w, tu32, e->type, e->loc);
    uint32_t c =
        sg_opv(g, b == BI_ANY ? SpvOpINotEqual : SpvOpIEqual, tbool(g), 2, w, sg_u32(g, 0));
    return from_bool(g, c, e->type);
  }
  if (b == BI_MATCH_ANY) {
    /* the lanes whose value has the same bits: floats compared as integers of their size */
    const KType *it = kir_type_scalar(a1->type->size == 8 ? KT_U64 : KT_U32);
    if (kir_is_float(a1->type))
      v = sg_opv(g, SpvOpBitcast, ty(g, it), 1, v);
    else if (a1->type != it)
      v = sg_convert(g, v, a1->type, it, e->loc);
    uint32_t r = sg_u32(g, 0);
    for (uint32_t i = 0; i < 32; i++) {
      uint32_t x = warp_shuffle(g, v, it, sg_u32(g, i));
      uint32_t same = sg_opv(g, SpvOpIEqual, tbool(g), 2, x, v);
      r = sg_opv(g, SpvOpBitwiseOr, u32, 2, r,
                 sg_opv(g, SpvOpSelect, u32, 3, same, sg_u32(g, 1u << i), sg_u32(g, 0)));
    }
    return sg_convert(g, sg_opv(g, SpvOpBitwiseAnd, u32, 2, r, mask), tu32, e->type, e->loc);
  }
  if (b >= BI_REDUCE_ADD && b <= BI_REDUCE_XOR) {
    if (a1->type != e->type) v = sg_convert(g, v, a1->type, e->type, e->loc);
    return warp_reduce(g, e, mask, v);
  }
  /* The shuffles: (mask, v, lane or delta, width), the source lane as CUDA picks it within
   * the width's segment, a lane's own value where the source falls outside. */
  if (a1->type != e->type) v = sg_convert(g, v, a1->type, e->type, e->loc);
  uint32_t x = sg_convert(g, sg_expr(g, e->args[2]), e->args[2]->type, tu32, e->loc);
  uint32_t w = sg_convert(g, sg_expr(g, e->args[3]), e->args[3]->type, tu32, e->loc);
  uint32_t l = warp_lane(g), m = sg_opv(g, SpvOpISub, u32, 2, w, sg_u32(g, 1)), src;
  if (b == BI_SHFL) {
    uint32_t seg = sg_opv(g, SpvOpBitwiseAnd, u32, 2, l, sg_opv(g, SpvOpNot, u32, 1, m));
    src = sg_opv(g, SpvOpBitwiseOr, u32, 2, seg, sg_opv(g, SpvOpBitwiseAnd, u32, 2, x, m));
  } else {
    uint32_t d = sg_opv(g, SpvOpBitwiseAnd, u32, 2, x, sg_u32(g, 31));
    uint32_t j, ok;
    if (b == BI_SHFL_UP) {
      j = sg_opv(g, SpvOpISub, u32, 2, l, d);
      ok = sg_opv(g, SpvOpUGreaterThanEqual, tbool(g), 2, sg_opv(g, SpvOpBitwiseAnd, u32, 2, l, m),
                  d);
    } else {
      j = sg_opv(g, b == BI_SHFL_DOWN ? SpvOpIAdd : SpvOpBitwiseXor, u32, 2, l, d);
      ok = sg_opv(g, SpvOpULessThanEqual, tbool(g), 2, j, sg_opv(g, SpvOpBitwiseOr, u32, 2, l, m));
    }
    src = sg_opv(g, SpvOpSelect, u32, 3, ok, j, l);
  }
  return warp_shuffle(g, v, e->type, src);
}

/* ---------------------------------------------------------------- images */

/* A constant sampler (KE_ICONST of KT_SAMPLER: OpenCL C's CLK_* bits) as an OpConstantSampler,
 * whose operands number the modes as those bits do (addressing none 0 .. mirrored repeat 4,
 * filter nearest 0 / linear 1). */
static uint32_t const_sampler(SG *g, uint64_t bits) {
  spv_capability(&g->m, SpvCapabilityLiteralSampler);
  uint32_t ops[3] = {(uint32_t)((bits & KSAMP_ADDRESS_MASK) >> 1),
                     (bits & KSAMP_NORMALIZED) ? 1u : 0u,
                     (bits & KSAMP_FILTER_MASK) == KSAMP_LINEAR ? 1u : 0u};
  return spv_intern(&g->m, SpvOpConstantSampler, spv_intern(&g->m, SpvOpTypeSampler, 0, NULL, 0),
                    ops, 3);
}

/* The image builtins (OpenCL SPIR-V environment): a read with a sampler is OpSampledImage then
 * OpImageSampleExplicitLod at level 0; one without is OpImageRead; the size queries read
 * OpImageQuerySizeLod (OpImageQuerySize for a buffer image, which has no levels). Coordinates
 * go as OpenCL C passes them: SPIR-V allows a vector longer than the image needs (float4 for 3D
 * and 2D arrays), the unused components last. */
static uint32_t image_call(SG *g, KExpr *e) {
  KBuiltin b = e->builtin;
  const KType *it = e->args[0]->type;
  KImageDim d = (KImageDim)it->len;
  uint32_t img = sg_expr(g, e->args[0]);
  uint32_t i32 = spv_type_int(&g->m, 32), zero = sg_u32(g, 0);
  if (b == BI_IMAGE_READ) {
    uint32_t rt = ty(g, e->type);
    if (e->nargs == 2) return sg_opv(g, SpvOpImageRead, rt, 2, img, sg_expr(g, e->args[1]));
    uint32_t smp = sg_expr(g, e->args[1]), coord = sg_expr(g, e->args[2]);
    uint32_t ity = sg_image_type(g, it);
    uint32_t sit = spv_intern(&g->m, SpvOpTypeSampledImage, 0, &ity, 1);
    uint32_t si = sg_opv(g, SpvOpSampledImage, sit, 2, img, smp);
    return sg_opv(g, SpvOpImageSampleExplicitLod, rt, 4, si, coord,
                  (uint32_t)SpvImageOperandsLodMask, spv_const_float(&g->m, 32, 0.0));
  }
  if (b == BI_IMAGE_WRITE) {
    uint32_t coord = sg_expr(g, e->args[1]), texel = sg_expr(g, e->args[2]);
    sg_instv(g, SpvOpImageWrite, 3, img, coord, texel);
    return 0;
  }
  if (b == BI_IMAGE_CHANNEL_ORDER || b == BI_IMAGE_CHANNEL_TYPE) {
    /* SPIR-V numbers orders and data types from 0 in OpenCL's order (R, A, RG...; SnormInt8,
     * SnormInt16...); OpenCL C's CLK_ values are those plus 0x10B0 and 0x10D0. */
    bool order = b == BI_IMAGE_CHANNEL_ORDER;
    uint32_t q = sg_opv(g, order ? SpvOpImageQueryOrder : SpvOpImageQueryFormat, i32, 1, img);
    return sg_opv(g, SpvOpIAdd, i32, 2, q, sg_u32(g, order ? 0x10B0 : 0x10D0));
  }
  /* The sizes: width [, height] [, depth] [, layers]. */
  int n = kir_image_coords(d);
  uint32_t st = n == 1 ? i32 : spv_type_vector(&g->m, i32, n);
  uint32_t size = d == KIMG_1D_BUFFER ? sg_opv(g, SpvOpImageQuerySize, st, 1, img)
                                      : sg_opv(g, SpvOpImageQuerySizeLod, st, 2, img, zero);
  int comp = b == BI_IMAGE_WIDTH ? 0 : b == BI_IMAGE_HEIGHT ? 1 : b == BI_IMAGE_DEPTH ? 2 : n - 1;
  if (b != BI_IMAGE_DIM)
    return n == 1 ? size : sg_opv(g, SpvOpCompositeExtract, i32, 2, size, (uint32_t)comp);
  /* get_image_dim: int2 (2D, 2D arrays: the layers left out) or int4 (3D: w 0). */
  uint32_t rt = ty(g, e->type);
  if (e->type->len == 2)
    return n == 2 ? size : sg_opv(g, SpvOpVectorShuffle, rt, 4, size, size, 0u, 1u);
  uint32_t v = sg_opv(g, SpvOpVectorShuffle, rt, 6, size, size, 0u, 1u, 2u, 0xffffffffu);
  return sg_opv(g, SpvOpCompositeInsert, rt, 3, zero, v, 3u);
}

/* mul_hi (OpenCL C's mul_hi and mad_hi, CUDA's __[u]mul[64]hi) in the Vulkan flavour, which
 * has no OpenCL.std SMul_hi/UMul_hi, and on 8 and 16 bits in both flavours:
 * OpSMulExtended/OpUMulExtended give both halves of the full product of 32- or 64-bit operands
 * (Shader has them; 64 bits need Int64, declared with the type). 8- and 16-bit operands are
 * widened to 32 bits, where their product cannot overflow, and the product shifted down by
 * their width. */
static uint32_t mul_hi(SG *g, KExpr *e) {
  const KType *t = e->type, *et = elem(t);
  bool sgn = kir_is_signed(et);
  int bits = sg_bits(et);
  uint32_t v[2];
  for (int i = 0; i < 2; i++) {
    v[i] = sg_expr(g, e->args[i]);
    if (e->args[i]->type != t) v[i] = sg_convert(g, v[i], e->args[i]->type, t, e->loc);
  }
  uint32_t rt = ty(g, t);
  if (bits >= 32) {
    uint32_t mem[2] = {rt, rt};
    uint32_t st = spv_type_struct(&g->m, mem, 2);
    uint32_t r = sg_opv(g, sgn ? SpvOpSMulExtended : SpvOpUMulExtended, st, 2, v[0], v[1]);
    return sg_opv(g, SpvOpCompositeExtract, rt, 2, r, 1u);
  }
  KType *w32 = kir_type_scalar(sgn ? KT_I32 : KT_U32);
  const KType *wt = t->kind == KT_VEC ? kir_type_vec(w32, t->len) : w32;
  uint32_t wty = ty(g, wt);
  uint32_t a = sg_convert(g, v[0], t, wt, e->loc), b = sg_convert(g, v[1], t, wt, e->loc);
  uint32_t p = sg_opv(g, SpvOpIMul, wty, 2, a, b);
  uint32_t sh = splat_const(g, wt, sg_u32(g, (uint32_t)bits));
  p = sg_opv(g, sgn ? SpvOpShiftRightArithmetic : SpvOpShiftRightLogical, wty, 2, p, sh);
  return sg_convert(g, p, wt, t, e->loc);
}

/* popcount / clz through core instructions (OpBitCount and GLSL.std.450 FindUMsb, whose -1
 * for 0 makes clz(0) 32), which Vulkan has for 32 bits only: an 8- or 16-bit operand is
 * zero-extended to 32 bits (clz then counts the 32 - width extra zeros less), a 64-bit one is
 * its halves': clz(hi), or 32 + clz(lo) where hi is 0; the two counts. Vectors the same,
 * component-wise. */
static uint32_t vk_bitcount(SG *g, KExpr *e, bool clz) {
  const KType *at = e->args[0]->type, *rt = e->type;
  int n = at->kind == KT_VEC ? (int)at->len : 1, bits = sg_bits(elem(at));
  KType *ki32 = kir_type_scalar(KT_I32);
  const KType *kt32 = n > 1 ? kir_type_vec(ki32, n) : ki32;
  uint32_t t32 = ty(g, kt32), bt = bool_of(g, kt32), glsl = sg_vk_glsl_import(g);
  uint32_t x = sg_expr(g, e->args[0]), r;
#define K32(v) splat_const(g, kt32, sg_u32(g, (v)))
  if (bits == 64) {
    KType *ku64 = kir_type_scalar(KT_U64);
    const KType *kt64 = n > 1 ? kir_type_vec(ku64, n) : ku64;
    uint32_t t64 = ty(g, kt64);
    uint32_t lo = sg_opv(g, SpvOpUConvert, t32, 1, x);
    uint32_t hi =
        sg_opv(g, SpvOpUConvert, t32, 1,
               sg_opv(g, SpvOpShiftRightLogical, t64, 2, x, splat_const(g, kt64, sg_u64(g, 32))));
    if (clz) {
      uint32_t mh = sg_opv(g, SpvOpExtInst, t32, 3, glsl, (uint32_t)GLSLstd450FindUMsb, hi);
      uint32_t ml = sg_opv(g, SpvOpExtInst, t32, 3, glsl, (uint32_t)GLSLstd450FindUMsb, lo);
      uint32_t zh = sg_opv(g, SpvOpIEqual, bt, 2, hi, K32(0));
      r = sg_opv(g, SpvOpSelect, t32, 3, zh, sg_opv(g, SpvOpISub, t32, 2, K32(63), ml),
                 sg_opv(g, SpvOpISub, t32, 2, K32(31), mh));
    } else {
      r = sg_opv(g, SpvOpIAdd, t32, 2, sg_opv(g, SpvOpBitCount, t32, 1, hi),
                 sg_opv(g, SpvOpBitCount, t32, 1, lo));
    }
  } else {
    if (bits < 32) x = sg_opv(g, SpvOpUConvert, t32, 1, x);
    if (clz) {
      uint32_t msb = sg_opv(g, SpvOpExtInst, t32, 3, glsl, (uint32_t)GLSLstd450FindUMsb, x);
      r = sg_opv(g, SpvOpISub, t32, 2, K32((uint32_t)bits - 1u), msb); /* width - 1 - msb */
    } else {
      r = sg_opv(g, SpvOpBitCount, t32, 1, x);
    }
  }
#undef K32
  return sg_convert(g, r, kt32, rt, e->loc);
}

static uint32_t builtin(SG *g, KExpr *e);

/* Builtins that act on each component (on vectors of one length, with scalars alongside). */
static bool componentwise(KBuiltin b) {
  switch (b) {
  case BI_MIN:
  case BI_MAX:
  case BI_ABS:
  case BI_POPCOUNT:
  case BI_CLZ:
  case BI_MUL_HI:
  case BI_SELECT:
  case BI_CONVERT_SAT: return true;
  default: return kir_builtin_is_math(b);
  }
}

/* Vulkan: component-wise builtin e on vectors of 8 or 16 components, as the same call on each
 * 4-component part. Every argument is evaluated once, first; a copy of e then reads each
 * one's part (a scalar: itself) through a placeholder variable that holds the value
 * (SVar.val, as an unwritten parameter does), so each builtin's own 4-vector lowering serves
 * unchanged. */
static uint32_t wide_builtin(SG *g, KExpr *e) {
  int n = e->nargs;
  const KType *wt = sg_wide(g, e->type) ? e->type : NULL;
  for (int i = 0; i < n && !wt; i++)
    if (sg_wide(g, e->args[i]->type)) wt = e->args[i]->type;
  if (n > 4 || !sg_wide(g, e->type)) {
    sg_error(g, e->loc, "builtin '%s' on '%s' is not supported by the Vulkan SPIR-V form",
             kir_builtin_info(e->builtin)->name, kir_type_str(wt));
    return e->type->kind == KT_VOID ? 0 : spv_undef(&g->m, ty(g, e->type));
  }
  uint32_t v[4], parts[4];
  KVar var[4];
  SVar sv[4];
  KExpr ph[4], *args[4];
  for (int i = 0; i < n; i++) {
    const KType *at = e->args[i]->type;
    if (at->kind == KT_VEC && at->len != wt->len) {
      sg_error(g, e->loc, "builtin '%s' on '%s' and '%s'", kir_builtin_info(e->builtin)->name,
               kir_type_str(wt), kir_type_str(at));
      return spv_undef(&g->m, ty(g, e->type));
    }
    v[i] = sg_expr(g, e->args[i]);
  }
  for (int k = 0; k < wt->len / 4; k++) {
    for (int i = 0; i < n; i++) {
      KType *at = e->args[i]->type;
      bool w = sg_wide(g, at);
      sv[i] = (SVar){.val = w ? sg_vec_part(g, at, v[i], k) : v[i]};
      var[i] = (KVar){.name = "part",
                      .type = w ? sg_chunk(at) : at,
                      .kind = KV_LOCAL,
                      .loc = e->loc,
                      .aux = &sv[i]};
      ph[i] = (KExpr){.kind = KE_VAR, .type = var[i].type, .loc = e->loc, .var = &var[i]};
      args[i] = &ph[i];
    }
    KExpr c = *e;
    c.type = sg_chunk(e->type);
    c.args = args;
    parts[k] = builtin(g, &c);
  }
  return sg_vec_join(g, e->type, parts);
}

static uint32_t builtin(SG *g, KExpr *e) {
  KBuiltin b = e->builtin;
  if (g->vk && componentwise(b)) {
    bool wide = sg_wide(g, e->type);
    for (int i = 0; i < e->nargs; i++) wide |= sg_wide(g, e->args[i]->type);
    if (wide) return wide_builtin(g, e);
  }
  if (g->vk && (kir_builtin_is_image(b) || b == BI_SURF_LOAD || b == BI_SURF_STORE)) {
    if (b == BI_IMAGE_READ || b == BI_IMAGE_WRITE) { /* their software form (KExpr.callee) */
      if (!e->callee) {
        sg_error(g, e->loc, "an image %s without its software form",
                 b == BI_IMAGE_READ ? "read" : "write");
        return e->type->kind == KT_VOID ? 0 : spv_undef(&g->m, ty(g, e->type));
      }
      KExpr c = *e;
      c.kind = KE_CALL;
      return call(g, &c);
    }
    return sg_vk_image(g, e);
  }
  if (kir_builtin_is_image(b)) return image_call(g, e);
  const KType *et = elem(e->type);
  bool sync = b == BI_SYNCTHREADS || b == BI_THREADFENCE || b == BI_THREADFENCE_BLOCK;
  uint32_t wg = sync ? sg_u32(g, SpvScopeWorkgroup) : 0;
  /* Vulkan's buffer memory is UniformMemory (CrossWorkgroupMemory is OpenCL's). */
  uint32_t sem =
      sync ? sg_u32(g, SEM_ACQ_REL | SEM_WG |
                           (g->vk ? (uint32_t)SpvMemorySemanticsUniformMemoryMask : SEM_XWG))
           : 0;
  if (kir_builtin_is_cuda_intrinsic(b)) return cuda_intrinsic(g, e);
  switch (b) {
  case BI_SYNCTHREADS: sg_instv(g, SpvOpControlBarrier, 3, wg, wg, sem); return 0;
  case BI_THREADFENCE: sg_instv(g, SpvOpMemoryBarrier, 2, sg_u32(g, SpvScopeDevice), sem); return 0;
  case BI_THREADFENCE_BLOCK: sg_instv(g, SpvOpMemoryBarrier, 2, wg, sem); return 0;
  case BI_PRINTF: return printf_call(g, e);
  case BI_MIN:
  case BI_MAX:
    if (kir_is_float(et)) return ext(g, e, b == BI_MIN ? OpenCLstd_Fmin : OpenCLstd_Fmax, e->type);
    if (kir_is_signed(et)) return ext(g, e, b == BI_MIN ? OpenCLstd_SMin : OpenCLstd_SMax, e->type);
    return ext(g, e, b == BI_MIN ? OpenCLstd_UMin : OpenCLstd_UMax, e->type);
  case BI_ABS:
    if (kir_is_float(et)) return ext(g, e, OpenCLstd_Fabs, e->type);
    if (kir_is_signed(et)) return ext(g, e, OpenCLstd_SAbs, e->type);
    return sg_convert(g, sg_expr(g, e->args[0]), e->args[0]->type, e->type, e->loc);
  case BI_POPCOUNT:
    if (g->vk) return vk_bitcount(g, e, false);
    return ext(g, e, OpenCLstd_Popcount, e->type);
  case BI_CLZ:
    if (g->vk) return vk_bitcount(g, e, true);
    return ext(g, e, OpenCLstd_Clz, e->type);
  case BI_MUL_HI:
    /* (8 and 16 bits in the OpenCL flavour too: PoCL 3.1's mul_hi of them gives 0,
       docs/driver-bugs.md 29.) */
    if (g->vk || sg_bits(et) < 32) return mul_hi(g, e);
    return ext(g, e, kir_is_signed(et) ? OpenCLstd_SMul_hi : OpenCLstd_UMul_hi, e->type);
  case BI_SELECT: return select_call(g, e);
  case BI_CONVERT_SAT: return convert_sat(g, e);
  case BI_VLOAD:
  case BI_VSTORE: return vload_store(g, e);
  case BI_RINT:
    if (kir_is_float(et) && !g->vk) {
      /* PoCL 3.1 folds rint() of a constant of 2^31 or more into code that drops the
       * kernel's stores or never ends (docs/driver-bugs.md). Every float of 2^23 or more
       * (double: 2^52) is an integer already: rint() only below, x itself above, so that a
       * constant argument folds to itself. */
      uint32_t x = sg_expr(g, e->args[0]);
      if (e->args[0]->type != e->type) x = sg_convert(g, x, e->args[0]->type, e->type, e->loc);
      uint32_t t = ty(g, e->type), imp = sg_ocl_import(g);
      uint32_t ax = sg_opv(g, SpvOpExtInst, t, 3, imp, (uint32_t)OpenCLstd_Fabs, x);
      uint32_t big = splat_const(
          g, e->type, spv_const_float(&g->m, sg_bits(et), et->kind == KT_F64 ? 0x1p52 : 0x1p23));
      uint32_t small = sg_opv(g, SpvOpFOrdLessThan, bool_of(g, e->type), 2, ax, big);
      /* rint() sees 0 rather than x above: a select alone still calls it on the constant. */
      uint32_t arg = sg_opv(g, SpvOpSelect, t, 3, small, x, zero_of(g, e->type));
      uint32_t r = sg_opv(g, SpvOpExtInst, t, 3, imp, (uint32_t)OpenCLstd_Rint, arg);
      return sg_opv(g, SpvOpSelect, t, 3, small, r, x);
    }
    break;
  case BI_ISNAN:
  case BI_ISINF:
  case BI_ISFINITE: {
    SpvOp o = b == BI_ISNAN ? SpvOpIsNan : b == BI_ISINF ? SpvOpIsInf : SpvOpIsFinite;
    uint32_t v = sg_expr(g, e->args[0]);
    if (g->vk && o == SpvOpIsFinite) /* OpIsFinite is the Kernel capability's */
      return bool_to_int(g, sg_vk_is_finite(g, e->args[0]->type, v), e->type);
    return bool_to_int(g, sg_opv(g, o, bool_of(g, e->args[0]->type), 1, v), e->type);
  }
  default: break;
  }
  if (kir_builtin_is_atomic(b)) return atomic(g, e);
  if (kir_builtin_is_warp(b) || kir_builtin_is_subgroup(b)) return cuda_intrinsic(g, e);
  int inst = ocl_math(b);
  if (e->approx && kir_elem(e->type)->kind == KT_F32) inst = ocl_native(b, inst);
  if (inst >= 0 && kir_is_float(et)) return ext(g, e, inst, e->type);
  if (kir_builtin_is_cuda_texture(b) && e->str && !*e->str)
    ; /* refused at another call of the same object */
  else if (kir_builtin_is_cuda_texture(b) && e->str)
    sg_error(g, e->loc, "%s is not available in SPIR-V output: %s", kir_builtin_info(b)->name,
             e->str);
  else if (kir_builtin_is_cuda_texture(b))
    sg_error(g, e->loc,
             "CUDA texture and surface objects (%s) are not available in SPIR-V output "
             "except on a kernel's own texture or surface parameter, in that kernel; use the "
             "PTX or CUDA C form",
             kir_builtin_info(b)->name);
  else
    sg_error(g, e->loc, "builtin '%s' is not supported by the SPIR-V back end",
             kir_builtin_info(b)->name);
  return e->type->kind == KT_VOID ? 0 : spv_undef(&g->m, ty(g, e->type));
}

/* ---------------------------------------------------------------- expressions */

uint32_t sg_expr(SG *g, KExpr *e) {
  if (!e) return 0;
  if (e->kind == KE_BUILTIN && e->alt) e = e->alt; /* a CUDA texture call on a kcrt image */
  if (e->loc.line > 0) g->loc = e->loc;
  switch (e->kind) {
  case KE_ICONST:
    if (e->type->kind == KT_PTR) return spv_const_null(&g->m, ty(g, e->type));
    if (e->type->kind == KT_SAMPLER)
      return g->vk ? sg_u32(g, (uint32_t)e->ival) : const_sampler(g, e->ival);
    return spv_const_int(&g->m, sg_bits(e->type), e->ival);
  case KE_FCONST: return spv_const_float(&g->m, sg_bits(e->type), e->fval);
  case KE_STR: {
    if (g->vk) {
      sg_error(g, e->loc, "string literals are not supported by the Vulkan SPIR-V form yet");
      return spv_undef(&g->m, ty(g, e->type));
    }
    uint32_t var = sg_string_literal(g, e->str, e->len);
    uint32_t cp = spv_type_ptr(&g->m, SpvStorageClassUniformConstant, spv_type_int(&g->m, 8));
    return sg_opv(g, SpvOpInBoundsAccessChain, cp, 2, var, sg_u64(g, 0));
  }
  case KE_VAR:
  case KE_GVAR:
  case KE_INDEX:
  case KE_MEMBER:
  case KE_DEREF: return read_lvalue(g, e);
  case KE_SPECIAL: return special(g, e);
  case KE_UNARY: return unary(g, e);
  case KE_BINARY: return binary(g, e);
  case KE_ASSIGN: return assign(g, e);
  case KE_INCDEC: return incdec(g, e);
  case KE_COND: return cond_expr(g, e);
  case KE_COMMA: sg_expr(g, e->a); return sg_expr(g, e->b);
  case KE_CAST: return cast(g, e);
  case KE_ADDR:
    if (g->vk && e->type->kind == KT_PTR && sg_addressable(g, e->a) &&
        lv_storage(g, e->a) != sg_storage(g, e->type->as, e->loc)) {
      sg_error(g, e->loc,
               "a pointer %s is not supported by the Vulkan SPIR-V form yet (index "
               "the array directly)",
               e->type->as == KAS_SHARED ? "into dynamic shared memory" : "to a module constant");
      return spv_undef(&g->m, ty(g, e->type));
    }
    return sg_addr(g, e->a);
  case KE_CALL: return call(g, e);
  case KE_BUILTIN: return builtin(g, e);
  case KE_INITLIST: return sg_init_value(g, e->type, e);
  case KE_SWIZZLE: return swizzle(g, e);
  case KE_VECLIT: return veclit(g, e);
  case KE_BITCAST: return bitcast(g, e);
  case KE_ASM:
    sg_error(g, e->loc,
             "inline PTX assembly (asm) is not available in SPIR-V output; use the PTX or CUDA "
             "C form");
    return 0;
  }
  sg_error(g, e->loc, "unexpected expression");
  return 0;
}

/* ---------------------------------------------------------------- constant folding */

/* A folded scalar in KIR type t: integers as their bits (sign-extended from t's width when
 * t is signed), floats as a double already rounded to t. */
typedef struct CV {
  uint64_t i;
  double f;
  bool null_ptr;
} CV;

static uint64_t fit_int(uint64_t v, const KType *t) {
  int bits = sg_bits(t);
  if (t->kind == KT_BOOL) return v != 0;
  if (bits >= 64) return v;
  v &= (1ull << bits) - 1;
  if (kir_is_signed(t) && (v >> (bits - 1) & 1)) v |= ~0ull << bits;
  return v;
}

static double fit_float(double d, const KType *t) {
  return t->kind == KT_F32 ? (double)(float)d : d;
}

static bool const_eval(const KExpr *e, CV *out);

static bool cv_truth(const KType *t, const CV *c) {
  if (kir_is_float(t)) return c->f != 0.0 || isnan(c->f);
  if (t->kind == KT_PTR) return !c->null_ptr;
  return c->i != 0;
}

static bool const_cast_cv(const KType *from, const KType *to, CV *c) {
  switch (kir_cast_kind(from, to)) {
  case KC_NOP:
  case KC_INT_TRUNC:
  case KC_INT_SEXT:
  case KC_INT_ZEXT:
    if (kir_is_float(to)) return true;
    c->i = fit_int(c->i, to);
    return true;
  case KC_TO_BOOL: c->i = cv_truth(from, c); return true;
  case KC_INT_TO_FP:
    c->f = fit_float(kir_is_signed(from) ? (double)(int64_t)c->i : (double)c->i, to);
    return true;
  case KC_FP_TO_INT: {
    double t = trunc(c->f);
    if (isnan(t)) return false;
    if (kir_is_signed(to)) {
      if (t < -9223372036854775808.0 || t >= 9223372036854775808.0) return false;
      c->i = fit_int((uint64_t)(int64_t)t, to);
    } else {
      if (t < 0 || t >= 18446744073709551616.0) return false;
      c->i = fit_int((uint64_t)t, to);
    }
    return true;
  }
  case KC_FP_EXT:
  case KC_FP_TRUNC: c->f = fit_float(c->f, to); return true;
  case KC_INT_TO_PTR:
    if (c->i != 0) return false;
    c->null_ptr = true;
    return true;
  case KC_PTR_TO_PTR: return c->null_ptr;
  default: return false;
  }
}

static bool const_binary(const KExpr *e, CV *out) {
  CV a, b;
  if (e->op == KB_LAND || e->op == KB_LOR) {
    if (!const_eval(e->a, &a)) return false;
    bool ta = cv_truth(e->a->type, &a);
    if (e->op == KB_LAND && !ta) return out->i = 0, true;
    if (e->op == KB_LOR && ta) return out->i = 1, true;
    if (!const_eval(e->b, &b)) return false;
    out->i = cv_truth(e->b->type, &b);
    return true;
  }
  if (!const_eval(e->a, &a) || !const_eval(e->b, &b)) return false;
  const KType *t = e->a->type;
  if (e->op >= KB_EQ && e->op <= KB_GE) {
    int r;
    if (kir_is_float(t)) {
      double x = a.f, y = b.f;
      r = e->op == KB_EQ   ? x == y
          : e->op == KB_NE ? x != y
          : e->op == KB_LT ? x < y
          : e->op == KB_LE ? x <= y
          : e->op == KB_GT ? x > y
                           : x >= y;
    } else if (kir_is_signed(t)) {
      int64_t x = (int64_t)a.i, y = (int64_t)b.i;
      r = e->op == KB_EQ   ? x == y
          : e->op == KB_NE ? x != y
          : e->op == KB_LT ? x < y
          : e->op == KB_LE ? x <= y
          : e->op == KB_GT ? x > y
                           : x >= y;
    } else if (kir_is_int(t)) {
      uint64_t x = a.i, y = b.i;
      r = e->op == KB_EQ   ? x == y
          : e->op == KB_NE ? x != y
          : e->op == KB_LT ? x < y
          : e->op == KB_LE ? x <= y
          : e->op == KB_GT ? x > y
                           : x >= y;
    } else {
      return false;
    }
    out->i = (uint64_t)r;
    return true;
  }
  const KType *rt = e->type;
  if (kir_is_float(rt)) {
    double x = a.f, y = b.f, r;
    switch (e->op) {
    case KB_ADD: r = x + y; break;
    case KB_SUB: r = x - y; break;
    case KB_MUL: r = x * y; break;
    case KB_DIV: r = x / y; break;
    default: return false;
    }
    out->f = fit_float(r, rt);
    return true;
  }
  if (!kir_is_int(rt)) return false;
  uint64_t x = a.i, y = b.i, r;
  bool sgn = kir_is_signed(rt);
  int bits = sg_bits(rt);
  switch (e->op) {
  case KB_ADD: r = x + y; break;
  case KB_SUB: r = x - y; break;
  case KB_MUL: r = x * y; break;
  case KB_DIV:
  case KB_REM:
    if (y == 0) return false;
    if (sgn) {
      if ((int64_t)y == -1 && (int64_t)x == INT64_MIN) return false;
      r = e->op == KB_DIV ? (uint64_t)((int64_t)x / (int64_t)y)
                          : (uint64_t)((int64_t)x % (int64_t)y);
    } else {
      r = e->op == KB_DIV ? x / y : x % y;
    }
    break;
  case KB_AND: r = x & y; break;
  case KB_OR: r = x | y; break;
  case KB_XOR: r = x ^ y; break;
  case KB_SHL:
    if (y >= (uint64_t)bits) return false;
    r = x << y;
    break;
  case KB_SHR:
    if (y >= (uint64_t)bits) return false;
    r = sgn ? (uint64_t)((int64_t)x >> y) : (x & (bits == 64 ? ~0ull : (1ull << bits) - 1)) >> y;
    break;
  default: return false;
  }
  out->i = fit_int(r, rt);
  return true;
}

static bool const_eval(const KExpr *e, CV *out) {
  memset(out, 0, sizeof *out);
  switch (e->kind) {
  case KE_ICONST:
    if (e->type->kind == KT_PTR) return e->ival == 0 && (out->null_ptr = true);
    out->i = fit_int(e->ival, e->type);
    return true;
  case KE_FCONST: out->f = fit_float(e->fval, e->type); return true;
  case KE_CAST:
    if (!const_eval(e->a, out)) return false;
    return const_cast_cv(e->a->type, e->type, out);
  case KE_UNARY:
    if (!const_eval(e->a, out)) return false;
    if (e->op == KU_LNOT) {
      out->i = !cv_truth(e->a->type, out);
      return true;
    }
    if (kir_is_float(e->type)) {
      if (e->op != KU_NEG) return false;
      out->f = -out->f;
      return true;
    }
    if (e->op == KU_NEG)
      out->i = fit_int(-out->i, e->type);
    else if (e->op == KU_NOT)
      out->i = fit_int(~out->i, e->type);
    else
      return false;
    return true;
  case KE_BINARY: return const_binary(e, out);
  case KE_COND: {
    CV c;
    if (!const_eval(e->a, &c)) return false;
    return const_eval(cv_truth(e->a->type, &c) ? e->b : e->c, out);
  }
  case KE_COMMA: return false;
  default: return false;
  }
}

static uint32_t cv_const(SG *g, const KType *t, const CV *c) {
  if (t->kind == KT_PTR) return spv_const_null(&g->m, ty(g, t));
  if (kir_is_float(t)) return spv_const_float(&g->m, sg_bits(t), c->f);
  return spv_const_int(&g->m, sg_bits(t), c->i);
}

static bool is_zero_init(const KExpr *e) {
  if (!e) return true;
  switch (e->kind) {
  case KE_ICONST: return e->ival == 0;
  case KE_FCONST: return e->fval == 0.0 && !signbit(e->fval);
  case KE_INITLIST:
    for (int i = 0; i < e->nargs; i++)
      if (!is_zero_init(e->args[i])) return false;
    return true;
  case KE_CAST: return e->a->kind == KE_ICONST && e->a->ival == 0 && kir_is_scalar(e->type);
  default: return false;
  }
}

/* The constant components of a vector-typed initializer (a KE_INITLIST of one constant per
 * component, a vector literal, a splat), appended to out[*n..16); false if one is not
 * constant. */
static bool const_components(SG *g, const KType *et, const KExpr *e, uint32_t *out, int *n) {
  const KType *t = e ? e->type : et;
  if (e && t->kind == KT_VEC && (e->kind == KE_INITLIST || e->kind == KE_VECLIT)) {
    int len = e->kind == KE_INITLIST ? (int)t->len : e->nargs;
    for (int i = 0; i < len; i++)
      if (!const_components(g, et, i < e->nargs ? e->args[i] : NULL, out, n)) return false;
    return true;
  }
  if (e && t->kind == KT_VEC && e->kind == KE_CAST && e->a->type->kind != KT_VEC) {
    int first = *n;
    if (!const_components(g, et, e->a, out, n)) return false;
    for (int i = 1; i < t->len && *n < 16; i++) out[(*n)++] = out[first];
    return true;
  }
  if (t->kind == KT_VEC || *n >= 16) return false;
  uint32_t c = sg_const_init(g, et, e);
  if (!c) return false;
  out[(*n)++] = c;
  return true;
}

/* A union's constant: the bytes its initialized member gives, in units of its alignment
 * (little-endian, as OpenCL devices kcc runs on are). */
static uint32_t const_union(SG *g, const KType *t, const KExpr *e) {
  const KStruct *st = t->st;
  unsigned char *bytes = calloc((size_t)st->size, 1);
  if (!kir_const_bytes(t, e, bytes)) {
    free(bytes);
    return 0;
  }
  int n = st->size / st->align, wb = st->align > 8 ? 4 : st->align, nw = st->align / wb;
  uint32_t unit = sg_union_unit(g, st);
  uint32_t *el = calloc((size_t)n + 1, sizeof *el), *w = calloc((size_t)nw, sizeof *w);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < nw; j++) {
      uint64_t v = 0;
      for (int b = wb - 1; b >= 0; b--) v = v << 8 | bytes[i * st->align + j * wb + b];
      w[j] = spv_const_int(&g->m, wb * 8, v);
    }
    if (g->vk && nw > 4) { /* sg_union_unit: uint4s */
      uint32_t q[32], u4 = spv_type_vector(&g->m, spv_type_int(&g->m, 32), 4);
      for (int j = 0; j < nw / 4 && j < 32; j++)
        q[j] = spv_const_composite(&g->m, u4, w + 4 * j, 4);
      el[i] = spv_const_composite(&g->m, unit, q, nw / 4);
    } else {
      el[i] = st->align > 8 ? spv_const_composite(&g->m, unit, w, nw) : w[0];
    }
  }
  uint32_t arr = spv_const_composite(&g->m, spv_type_array(&g->m, unit, (uint64_t)n), el, n);
  uint32_t id = spv_const_composite(&g->m, ty(g, t), &arr, 1);
  free(w);
  free(el);
  free(bytes);
  return id;
}

uint32_t sg_const_init(SG *g, const KType *t, const KExpr *e) {
  if (t->kind == KT_VEC) {
    uint32_t el[16];
    int n = 0;
    if (!e) return sg_zero(g, t);
    if (!const_components(g, t->base, e, el, &n) || n != t->len) return 0;
    return sg_vec_const(g, t, el);
  }
  if (is_zero_init(e) && (!e || e->kind == KE_INITLIST || kir_is_scalar(t))) return sg_zero(g, t);
  if (t->kind == KT_ARRAY) {
    int64_t len = t->len > 0 ? t->len : 0;
    uint32_t *el = calloc((size_t)len + 1, sizeof *el);
    bool ok = true;
    if (e->kind == KE_STR && t->base->size == 1) {
      for (int64_t i = 0; i < len; i++)
        el[i] = spv_const_int(&g->m, 8, (size_t)i < e->len ? (uint8_t)e->str[i] : 0);
    } else if (e->kind == KE_INITLIST) {
      for (int64_t i = 0; i < len && ok; i++)
        ok = (el[i] = sg_const_init(g, t->base, i < e->nargs ? e->args[i] : NULL)) != 0;
    } else {
      ok = false;
    }
    uint32_t id = ok ? spv_const_composite(&g->m, ty(g, t), el, (int)len) : 0;
    free(el);
    return id;
  }
  if (t->kind == KT_STRUCT && t->st->is_union) return const_union(g, t, e);
  if (t->kind == KT_STRUCT) {
    if (e->kind != KE_INITLIST) return 0;
    const KStruct *st = t->st;
    uint32_t *el = calloc((size_t)st->nfields + 1, sizeof *el);
    bool ok = true;
    for (int i = 0; i < st->nfields && ok; i++)
      ok = (el[i] = sg_const_init(g, st->fields[i].type, i < e->nargs ? e->args[i] : NULL)) != 0;
    uint32_t id = ok ? spv_const_composite(&g->m, ty(g, t), el, st->nfields) : 0;
    free(el);
    return id;
  }
  if (e->kind == KE_INITLIST) return sg_const_init(g, t, e->nargs > 0 ? e->args[0] : NULL);
  CV c;
  if (!const_eval(e, &c)) return 0;
  if (e->type != t && !const_cast_cv(e->type, t, &c)) return 0;
  return cv_const(g, t, &c);
}

/* Stores an initializer into ptr (storage class sc). Aggregates that are not constant are
 * written member by member: llvm-spirv 15 turns OpCompositeConstruct of a struct or array
 * into an LLVM constant and crashes when a member is not one. */
void sg_init_store(SG *g, const KType *t, uint32_t ptr, SpvStorageClass sc, KExpr *e) {
  uint32_t c = sg_const_init(g, t, e);
  if (c) {
    sg_store(g, t, ptr, c, false);
    return;
  }
  if (e->kind == KE_INITLIST && (t->kind == KT_ARRAY || t->kind == KT_STRUCT)) {
    int n = t->kind == KT_ARRAY ? (int)(t->len > 0 ? t->len : 0) : t->st->nfields;
    bool partial = e->nargs < n;
    for (int i = 0; i < e->nargs && i < n; i++) partial |= e->args[i] == NULL;
    if (partial) sg_store(g, t, ptr, sg_zero(g, t), false);
    for (int i = 0; i < e->nargs && i < n; i++) {
      if (!e->args[i]) continue;
      const KType *et = t->kind == KT_ARRAY ? t->base : t->st->fields[i].type;
      uint32_t idx = t->kind == KT_ARRAY ? sg_u64(g, (uint64_t)i) : sg_u32(g, (uint32_t)i);
      uint32_t ep = t->kind == KT_STRUCT && t->st->is_union
                        ? sg_opv(g, SpvOpBitcast, sg_ptr_type(g, sc, et), 1, ptr)
                        : sg_opv(g, SpvOpInBoundsAccessChain, sg_ptr_type(g, sc, et), 2, ptr, idx);
      sg_init_store(g, et, ep, sc, e->args[i]);
    }
    return;
  }
  sg_store(g, t, ptr, sg_init_value(g, t, e), false);
}

uint32_t sg_init_value(SG *g, const KType *t, KExpr *e) {
  uint32_t c = sg_const_init(g, t, e);
  if (c) return c;
  if (e->kind == KE_INITLIST && (t->kind == KT_ARRAY || t->kind == KT_STRUCT)) {
    uint32_t tmp = sg_temp_var(g, t);
    sg_init_store(g, t, tmp, SpvStorageClassFunction, e);
    return sg_load(g, t, tmp, false);
  }
  if (e->kind == KE_INITLIST && t->kind == KT_VEC) { /* one value per component */
    uint32_t el[16];
    for (int i = 0; i < t->len && i < 16; i++)
      el[i] =
          i < e->nargs && e->args[i] ? sg_init_value(g, t->base, e->args[i]) : sg_zero(g, t->base);
    return sg_vec_make(g, t, el);
  }
  if (e->kind == KE_INITLIST) return e->nargs > 0 ? sg_init_value(g, t, e->args[0]) : sg_zero(g, t);
  uint32_t v = sg_expr(g, e);
  if (e->type != t && kir_is_scalar(e->type) && kir_is_scalar(t))
    v = sg_convert(g, v, e->type, t, e->loc);
  return v;
}
