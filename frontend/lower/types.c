/* types.c — clang types to interned KIR types; struct layout and the type-level dialect rules
 * (no bit-fields, VLAs, function pointers, long double, complex...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* Marks a record that was rejected, so that its uses do not repeat the error. */
static char rejected_mark;
#define REJECTED ((void *)&rejected_mark)

/* Type errors are reported once per line: a rejected type usually shows up again in the
 * conversions and expressions around its first use. */
static bool type_err_once(FeCtx *fe, KLoc loc, const char *what) {
  if (fe->terr_what == what && fe->terr_line == loc.line && fe->terr_file == loc.file) return false;
  fe->terr_what = what;
  fe->terr_line = loc.line;
  fe->terr_file = loc.file;
  return true;
}

#define TYPE_ERROR(loc, msg)                                                                       \
  do {                                                                                             \
    if (type_err_once(fe, (loc), (msg))) diag_error((loc), "%s", (msg));                           \
  } while (0)

static const char *type_spelling(CXType t) {
  CXString s = clang_getTypeSpelling(t);
  const char *r = kir_strdup(clang_getCString(s) ? clang_getCString(s) : "?");
  clang_disposeString(s);
  return r;
}

bool fe_type_is_const(CXType t) {
  CXType c = clang_getCanonicalType(t);
  for (;;) {
    /* clang may keep an array's qualifier on the array type or on its element type. */
    if (clang_isConstQualifiedType(c) || clang_isConstQualifiedType(t)) return true;
    if (c.kind != CXType_ConstantArray && c.kind != CXType_IncompleteArray &&
        c.kind != CXType_VariableArray)
      return false;
    t = clang_getArrayElementType(c);
    c = clang_getCanonicalType(t);
  }
}

static bool is_function_type(CXType t) {
  CXType c = clang_getCanonicalType(t);
  return c.kind == CXType_FunctionProto || c.kind == CXType_FunctionNoProto;
}

static bool bad_name(const char *s) {
  if (!s || !*s) return true;
  for (const char *p = s; *p; p++)
    if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9')))
      return true;
  return false;
}

static const char *record_name(FeCtx *fe, CXCursor def, bool *derived) {
  const char *s = fe_spelling(def);
  *derived = false;
  /* A tagged struct's type is spelled "struct TAG"; libclang names an untagged one after
     its typedef (spelled plain "P") or after its position. */
  char tagged[300];
  snprintf(tagged, sizeof tagged, "%s %s",
           clang_getCursorKind(def) == CXCursor_UnionDecl ? "union" : "struct", s);
  if (!bad_name(s) && strcmp(type_spelling(clang_getCursorType(def)), tagged) == 0) return s;
  *derived = true;
  if (!bad_name(s)) return s; /* the typedef's name */
  const char *td = fe_map_get(&fe->typedef_names, def);
  if (td) return td;
  char buf[32];
  snprintf(buf, sizeof buf, "__anon%d", ++fe->anon_structs);
  return kir_strdup(buf);
}

/* A laid-out struct joins the module. */
static KStruct *finish_record(FeCtx *fe, KStruct *st) {
  KType *kt = kir_type_struct(st);
  /* A pointer to the struct may have been interned while the struct was being laid out. */
  kt->size = st->size;
  kt->align = st->align;
  klist_push(&fe->m->structs, st);
  return st;
}

bool fe_type_named(CXType t, const char *prefix) {
  CXString sp = clang_getTypeSpelling(clang_getCanonicalType(t));
  bool r = !strncmp(clang_getCString(sp), prefix, strlen(prefix));
  clang_disposeString(sp);
  return r;
}

static KStruct *lower_record(FeCtx *fe, CXCursor decl, KLoc use) {
  CXCursor def = clang_getCursorDefinition(decl);
  if (clang_Cursor_isNull(def)) {
    diag_error(use, "incomplete struct type '%s' is not supported in kcc kernels",
               type_spelling(clang_getCursorType(decl)));
    return NULL;
  }
  void *known = fe_map_get(&fe->structs, def);
  if (known == REJECTED) return NULL;
  if (known) return known;
  KLoc loc = fe_loc(fe, def);
  bool is_union = clang_getCursorKind(def) == CXCursor_UnionDecl;
  if (fe->lang == KL_LANG_CU && fe_cxx_is_lambda_class(def)) {
    KStruct *st = kir_alloc(sizeof *st);
    fe_map_put(&fe->structs, def, st);
    if (!fe_cxx_lambda_struct(fe, def, st)) {
      fe_map_put(&fe->structs, def, REJECTED);
      return NULL;
    }
    return finish_record(fe, st);
  }
  const char *cxx = fe->lang == KL_LANG_CU ? fe_cxx_record_problem(def) : NULL;
  if (cxx) {
    diag_error(loc, "%s are not supported in kcc kernels", cxx);
    fe_map_put(&fe->structs, def, REJECTED);
    return NULL;
  }
  KStruct *st = kir_alloc(sizeof *st);
  st->is_union = is_union;
  bool derived;
  st->name = record_name(fe, def, &derived);
  if (derived) klist_push(&fe->derived_names, st);
  st->loc = loc;
  /* Registered before its fields are lowered: a field may point to the struct itself. */
  fe_map_put(&fe->structs, def, st);

  FeKids k;
  bool ok = true;
  int nanon = 0;
  /* The fields from the type: an instantiated class template shows no member cursors. */
  fe_fields(clang_getCursorType(def), &k);
  int nf = k.n;
  st->fields = kir_alloc(sizeof(KField) * (size_t)(nf ? nf : 1));
  CXCursor *fcur = malloc(sizeof(CXCursor) * (size_t)(nf ? nf : 1));
  for (int i = 0; i < k.n; i++) {
    CXCursor f = k.v[i];
    KLoc floc = fe_loc(fe, f);
    const char *fname = fe_spelling(f);
    CXType ft = clang_getCursorType(f);
    KType *t = NULL;
    if (clang_Cursor_isBitField(f)) {
      diag_error(floc, "bit-fields are not supported in kcc kernels");
    } else if (!*fname || clang_Cursor_isAnonymousRecordDecl(
                              clang_getTypeDeclaration(clang_getCanonicalType(ft)))) {
      /* A C11 anonymous struct or union member: KIR names it (fe_member_of reaches its
         fields through it), and the C back ends write the name. */
      char buf[32];
      snprintf(buf, sizeof buf, "%s%d", FE_ANON_FIELD, nanon++);
      fname = kir_strdup(buf);
      t = fe_type(fe, ft, floc);
    } else if (clang_getCanonicalType(ft).kind == CXType_IncompleteArray) {
      diag_error(floc, "flexible array members are not supported in kcc kernels");
    } else {
      t = fe_type(fe, ft, floc);
    }
    if (!t) {
      ok = false;
      continue;
    }
    /* std::initializer_list's elements are a temporary array of the function that makes the
       list (lower_expr.c), so its pointer points to private memory, which OpenCL C and
       SPIR-V must know of a pointer kept in a struct (addrspace.c). */
    if (fe->lang == KL_LANG_CU && i == 0 && t->kind == KT_PTR &&
        fe_type_named(clang_getCursorType(def), "std::initializer_list<"))
      t = kir_type_ptr(t->base, KAS_PRIVATE, t->qual);
    fcur[st->nfields] = f;
    st->fields[st->nfields].anon = !strncmp(fname, FE_ANON_FIELD, strlen(FE_ANON_FIELD));
    st->fields[st->nfields].name = fname;
    st->fields[st->nfields].type = t;
    st->nfields++;
  }
  fe_kids_free(&k);
  if (!ok) {
    free(fcur);
    fe_map_put(&fe->structs, def, REJECTED);
    return NULL;
  }
  if (st->nfields == 0 && fe->lang == KL_LANG_CU &&
      clang_Type_getSizeOf(clang_getCursorType(def)) == 1) {
    /* An empty C++ class (methods only) takes one byte, as C++ gives it. */
    st->fields[0].name = "__kcc_empty";
    st->fields[0].type = kir_type_scalar(KT_U8);
    fcur[0] = clang_getNullCursor();
    st->nfields = 1;
  }
  if (st->nfields == 0) {
    free(fcur);
    diag_error(loc, "empty %s are not supported in kcc kernels", is_union ? "unions" : "structs");
    fe_map_put(&fe->structs, def, REJECTED);
    return NULL;
  }
  kir_struct_layout(st);
  /* KIR lays structs out with natural alignment, raised by an explicit alignment
     (`__align__(16)`, aligned(16): CUDA's vector types); packing would give the back ends a
     layout the host does not share. */
  CXType rt = clang_getCursorType(def);
  if (clang_Type_getAlignOf(rt) > st->align) {
    st->align_attr = (int)clang_Type_getAlignOf(rt);
    kir_struct_layout(st);
  }
  bool same = clang_Type_getSizeOf(rt) == st->size && clang_Type_getAlignOf(rt) == st->align;
  for (int i = 0; same && i < st->nfields; i++)
    same = clang_Cursor_isNull(fcur[i]) ||
           clang_Cursor_getOffsetOfField(fcur[i]) == (long long)st->fields[i].offset * 8;
  free(fcur);
  if (!same) {
    diag_error(loc, "struct layout attributes (packed, aligned fields) are not supported in kcc "
                    "kernels");
    fe_map_put(&fe->structs, def, REJECTED);
    return NULL;
  }
  return finish_record(fe, st);
}

void fe_record_decl(FeCtx *fe, CXCursor decl) {
  if (!clang_isCursorDefinition(decl)) return;
  lower_record(fe, decl, fe_loc(fe, decl));
}

void fe_typedef_decl(FeCtx *fe, CXCursor decl) {
  CXType u = clang_getTypedefDeclUnderlyingType(decl);
  CXType c = clang_getCanonicalType(u);
  if (c.kind == CXType_Record) {
    CXCursor rd = clang_getCursorDefinition(clang_getTypeDeclaration(c));
    if (!clang_Cursor_isNull(rd) && clang_Cursor_isAnonymous(rd) &&
        !fe_map_get(&fe->typedef_names, rd))
      fe_map_put(&fe->typedef_names, rd, (void *)fe_spelling(decl));
  }
  /* The typedef itself checks nothing until used, except types that can never be used. */
  if (c.kind == CXType_VariableArray)
    diag_error(fe_loc(fe, decl), "variable length arrays are not supported in kcc kernels");
}

/* OpenCL's vector types: 2, 3, 4, 8 or 16 components of an arithmetic type other than bool. */
static KType *vector_type(FeCtx *fe, CXType c, KLoc loc) {
  long long n = clang_getNumElements(c);
  CXType et = clang_getCanonicalType(clang_getElementType(c));
  if (et.kind == CXType_Bool) {
    TYPE_ERROR(loc, "vectors of bool are not supported in kcc kernels; use a vector of an "
                    "integer type");
    return NULL;
  }
  KType *e = fe_type(fe, et, loc);
  if (!e) return NULL;
  if (!kir_is_arith(e) || e->kind == KT_BOOL) {
    TYPE_ERROR(loc, "vectors of this element type are not supported in kcc kernels");
    return NULL;
  }
  if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16) {
    TYPE_ERROR(loc, "vector types must have 2, 3, 4, 8 or 16 components in kcc kernels");
    return NULL;
  }
  return kir_type_vec(e, (int)n);
}

KType *fe_type(FeCtx *fe, CXType t, KLoc loc) {
  CXType c = clang_getCanonicalType(t);
  switch (c.kind) {
  case CXType_Void: return kir_type_void();
  case CXType_Bool: return kir_type_scalar(KT_BOOL);
  case CXType_Char_S:
  case CXType_SChar: return kir_type_scalar(KT_I8);
  case CXType_Char_U:
  case CXType_UChar: return kir_type_scalar(KT_U8);
  case CXType_Short: return kir_type_scalar(KT_I16);
  case CXType_UShort: return kir_type_scalar(KT_U16);
  case CXType_Int: return kir_type_scalar(KT_I32);
  case CXType_UInt: return kir_type_scalar(KT_U32);
  case CXType_Long:
  case CXType_LongLong: return kir_type_scalar(KT_I64);
  case CXType_ULong:
  case CXType_ULongLong: return kir_type_scalar(KT_U64);
  /* OpenCL's event_t: what cl_lib.c's async copies return and wait for, nothing more. */
  case CXType_OCLEvent: return kir_type_scalar(KT_I32);
  case CXType_Float: return kir_type_scalar(KT_F32);
  case CXType_Double: return kir_type_scalar(KT_F64);
  case CXType_Half:
    /* OpenCL C's half computes in half; C's __fp16 is storage that computes in float, which
       the front end's conversions do not model. */
    if (fe->lang != KL_LANG_CL) {
      TYPE_ERROR(loc, "'__fp16' is not supported in kcc kernels (use _Float16)");
      return NULL;
    }
    return kir_type_scalar(KT_F16);
  case CXType_Float16: return kir_type_scalar(KT_F16);
  case CXType_LongDouble:
    TYPE_ERROR(loc, "'long double' is not supported in kcc kernels");
    return NULL;
  case CXType_Complex:
    TYPE_ERROR(loc, "complex types are not supported in kcc kernels");
    return NULL;
  case CXType_Int128:
  case CXType_UInt128: TYPE_ERROR(loc, "'__int128' is not supported in kcc kernels"); return NULL;
  case CXType_Pointer: {
    CXType pt = clang_getPointeeType(c);
    if (is_function_type(pt)) {
      TYPE_ERROR(loc, "function pointers are not supported in kcc kernels");
      return NULL;
    }
    CXType pc = clang_getCanonicalType(pt);
    /* A pointer to a struct the file never defines (an opaque handle) can only be passed,
       compared and cast: it is void * in KIR, as that is all its uses need. */
    KType *b = pc.kind == CXType_Record &&
                       clang_Cursor_isNull(clang_getCursorDefinition(clang_getTypeDeclaration(pc)))
                   ? kir_type_void()
                   : fe_type(fe, pt, loc);
    if (!b) return NULL;
    int q = 0;
    if (clang_isConstQualifiedType(pc)) q |= KQ_CONST;
    if (clang_isVolatileQualifiedType(pc)) q |= KQ_VOLATILE;
    if (clang_isRestrictQualifiedType(c)) q |= KQ_RESTRICT;
    return kir_type_ptr(b, KAS_GENERIC, q);
  }
  case CXType_LValueReference:
  case CXType_RValueReference: {
    /* C++ (CUDA input): a reference is an address in KIR; its uses are dereferenced. */
    CXType pt = clang_getPointeeType(c);
    KType *b = fe_type(fe, pt, loc);
    if (!b) return NULL;
    int q = clang_isConstQualifiedType(clang_getCanonicalType(pt)) ? KQ_CONST : 0;
    if (clang_isVolatileQualifiedType(clang_getCanonicalType(pt))) q |= KQ_VOLATILE;
    return kir_type_ptr(b, KAS_GENERIC, q);
  }
  case CXType_ConstantArray:
  case CXType_IncompleteArray: {
    KType *e = fe_type(fe, clang_getArrayElementType(c), loc);
    if (!e) return NULL;
    if (e->kind == KT_VOID) return NULL; /* clang has already rejected it */
    return kir_type_array(e, c.kind == CXType_ConstantArray ? clang_getArraySize(c) : -1);
  }
  case CXType_VariableArray:
  case CXType_DependentSizedArray:
    TYPE_ERROR(loc, "variable length arrays are not supported in kcc kernels");
    return NULL;
  case CXType_Record: {
    KStruct *st = lower_record(fe, clang_getTypeDeclaration(c), loc);
    return st ? kir_type_struct(st) : NULL;
  }
  case CXType_Enum: {
    CXType it = clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c));
    if (it.kind == CXType_Invalid) return kir_type_scalar(KT_I32);
    return fe_type(fe, it, loc);
  }
  case CXType_FunctionProto:
  case CXType_FunctionNoProto:
    TYPE_ERROR(loc, "function pointers are not supported in kcc kernels");
    return NULL;
  case CXType_Atomic:
    TYPE_ERROR(loc, "'_Atomic' is not supported in kcc kernels; use the atomic builtins");
    return NULL;
  case CXType_ExtVector: return vector_type(fe, c, loc);
  case CXType_Vector:
    TYPE_ERROR(loc, "GCC vector types (vector_size) are not supported in kcc kernels; use "
                    "OpenCL's vector types (ext_vector_type)");
    return NULL;
  case CXType_BlockPointer: TYPE_ERROR(loc, "blocks are not supported in kcc kernels"); return NULL;
  default:
    if (fe->ops->opaque_type && (c.kind == CXType_OCLSampler ||
                                 (c.kind >= CXType_OCLImage1dRO && c.kind <= CXType_OCLImage3dRW)))
      return fe->ops->opaque_type(fe, c, loc);
    diag_error(loc, "type '%s' is not supported in kcc kernels", type_spelling(t));
    return NULL;
  }
}

static bool is_array_kind(enum CXTypeKind k) {
  return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray ||
         k == CXType_DependentSizedArray;
}

/* `const int n = 4; float a[n];` is a variable length array in C, but every CUDA kernel
 * writes it: when each bound of a declared array folds to a constant, kcc takes it as the
 * constant array it is in CUDA. The bounds are the declaration's expression children other
 * than its initializer, innermost first. */
static KType *folded_vla(FeCtx *fe, CXCursor decl, CXType ct, KLoc loc) {
  enum { MAXDIMS = 16 };
  int ndims = 0;
  CXType inner = clang_getCanonicalType(ct);
  while (is_array_kind(inner.kind) && ndims < MAXDIMS) {
    ndims++;
    inner = clang_getCanonicalType(clang_getArrayElementType(inner));
  }
  FeKids k;
  fe_kids_expr(decl, &k);
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
  int64_t dims[MAXDIMS];
  int n = 0;
  bool ok = !is_array_kind(inner.kind);
  for (int i = 0; ok && i < k.n; i++) {
    if (!clang_Cursor_isNull(init) && clang_equalCursors(k.v[i], init)) continue;
    CXEvalResult r = clang_Cursor_Evaluate(k.v[i]);
    ok = n < ndims && r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
      int64_t v = clang_EvalResult_isUnsignedInt(r) ? (int64_t)clang_EvalResult_getAsUnsigned(r)
                                                    : clang_EvalResult_getAsLongLong(r);
      ok = v > 0 && v < ((int64_t)1 << 40);
      dims[ndims - 1 - n++] = v;
    }
    if (r) clang_EvalResult_dispose(r);
  }
  fe_kids_free(&k);
  if (!ok || n != ndims) {
    TYPE_ERROR(loc, "variable length arrays are not supported in kcc kernels");
    return NULL;
  }
  KType *t = fe_type(fe, inner, loc);
  for (int i = ndims - 1; t && i >= 0; i--) t = kir_type_array(t, dims[i]);
  return t;
}

static bool has_vla(CXType t) {
  CXType c = clang_getCanonicalType(t);
  for (; is_array_kind(c.kind); c = clang_getCanonicalType(clang_getArrayElementType(c)))
    if (c.kind == CXType_VariableArray) return true;
  return false;
}

KType *fe_decl_type(FeCtx *fe, CXCursor decl, KLoc loc) {
  CXType ct = clang_getCursorType(decl);
  if (has_vla(ct)) return folded_vla(fe, decl, ct, loc);
  KType *t = fe_type(fe, ct, loc);
  if (t && t->size == 0 && !(t->kind == KT_ARRAY && t->len < 0)) {
    /* A zero-length array (a GNU extension): no target can place it (nvcc refuses it in
     * device code), no host fill it; an array of unknown size (extern shared) is sized later. */
    diag_error(loc, "variable '%s' has no bytes (a zero-length array); give it a length",
               fe_spelling(decl));
    return NULL;
  }
  return t;
}

KType *fe_param_type(FeCtx *fe, CXType t, KLoc loc) {
  CXType c = clang_getCanonicalType(t);
  /* C adjusts `float a[16]` and `float a[]` parameters to `float *a`. */
  if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray ||
      c.kind == CXType_VariableArray) {
    CXType et = clang_getArrayElementType(c);
    KType *e = fe_type(fe, et, loc);
    if (!e) return NULL;
    int q = fe_type_is_const(t) ? KQ_CONST : 0;
    if (clang_isVolatileQualifiedType(clang_getCanonicalType(et))) q |= KQ_VOLATILE;
    return kir_type_ptr(e, KAS_GENERIC, q);
  }
  return fe_type(fe, t, loc);
}

bool fe_type_eq_noas(const KType *a, const KType *b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
  case KT_PTR: return a->qual == b->qual && fe_type_eq_noas(a->base, b->base);
  case KT_ARRAY: return a->len == b->len && fe_type_eq_noas(a->base, b->base);
  case KT_STRUCT: return a->st == b->st;
  case KT_VEC: return false; /* interned, and a != b */
  default: return true;
  }
}

KType *fe_ptr_as(KType *t, KAddrSpace as) {
  if (!t || t->kind != KT_PTR || t->as == as) return t;
  return kir_type_ptr(t->base, as, t->qual);
}

KType *fe_ptr_chain_as(KType *t, KAddrSpace as) {
  if (!t || t->kind != KT_PTR) return t;
  return kir_type_ptr(fe_ptr_chain_as(t->base, as), as, t->qual);
}

static bool is_derived(FeCtx *fe, KStruct *s) {
  for (int i = 0; i < fe->derived_names.n; i++)
    if (fe->derived_names.v[i] == s) return true;
  return false;
}

static bool name_taken(KList *done, const char *name) {
  for (int i = 0; i < done->n; i++)
    if (strcmp(((KStruct *)done->v[i])->name, name) == 0) return true;
  return false;
}

/* Real tags keep their names (host code spells them); names taken from a typedef, and tags
 * reused in another scope, get a suffix. */
void fe_unique_struct_names(FeCtx *fe) {
  KList *l = &fe->m->structs;
  KList done = {0};
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < l->n; i++) {
      KStruct *s = l->v[i];
      if (is_derived(fe, s) != (pass == 1)) continue;
      const char *base = s->name;
      for (int n = 1; name_taken(&done, s->name); n++) {
        char buf[256];
        snprintf(buf, sizeof buf, "%.200s_%d", base, n);
        s->name = kir_strdup(buf);
      }
      klist_push(&done, s);
    }
  }
}

/* ---------------------------------------------------------------- address spaces */

/* clang_getAddressSpace gives clang's language address spaces: OpenCL C's qualifiers (the other
 * input languages' declarations have none). */
enum { LANGAS_GLOBAL = 1, LANGAS_LOCAL = 2, LANGAS_CONSTANT = 3 };

KAddrSpace fe_pointee_space(CXType pointer) {
  CXType c = clang_getCanonicalType(pointer);
  if (c.kind != CXType_Pointer) return KAS_GENERIC;
  switch (clang_getAddressSpace(clang_getPointeeType(c))) {
  case LANGAS_GLOBAL: return KAS_GLOBAL;
  case LANGAS_LOCAL: return KAS_SHARED;
  case LANGAS_CONSTANT: return KAS_CONSTANT;
  default: return KAS_GENERIC;
  }
}

int fe_var_space(CXCursor decl) {
  CXType t = clang_getCursorType(decl);
  unsigned as = clang_getAddressSpace(t);
  if (as == 0) as = clang_getAddressSpace(clang_getCanonicalType(t));
  return as == LANGAS_LOCAL ? 'S' : as == LANGAS_CONSTANT ? 'C' : 0;
}
