/* image.c — OpenCL C's images and samplers (.cl input): their types, constant samplers and the
 * image built-in functions, lowered to KT_IMAGE / KT_SAMPLER and BI_IMAGE_* (kir.h).
 *
 * A sampler is kept static wherever the source makes it a constant, which is nearly always
 * (`__constant sampler_t s = CLK_...;` at file scope, `const sampler_t s = ...;` in a kernel, or
 * the flags written in the call): every use becomes a KE_ICONST of the sampler type holding the
 * CLK_* bits, and no variable is made for it. Only a sampler parameter stays a variable. This is
 * what the back ends need: SPIR-V writes OpConstantSampler, and the PTX and CUDA C forms, which
 * sample in software (image_lib.c), fold the addressing and filter code away. */
#include <string.h>

#include "fe_opencl.h"

/* ---------------------------------------------------------------- types */

KType *fe_cl_opaque_type(FeCtx *fe, CXType t, KLoc loc) {
  (void)fe;
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_OCLSampler) return kir_type_sampler();
  if (c.kind < CXType_OCLImage1dRO || c.kind > CXType_OCLImage3dRW) return NULL;
  /* clang numbers them in three runs of twelve (read_only, write_only, read_write), each in
   * the same order. */
  int idx = (c.kind - CXType_OCLImage1dRO) % 12, run = (c.kind - CXType_OCLImage1dRO) / 12;
  static const int dims[12] = {
      KIMG_1D, KIMG_1D_ARRAY, KIMG_1D_BUFFER, KIMG_2D, KIMG_2D_ARRAY, -1, -1, -1, -1, -1,
      -1,      KIMG_3D};
  if (dims[idx] < 0) {
    CXString s = clang_getTypeSpelling(t);
    diag_error(loc,
               "OpenCL depth and multisample images are not supported by kcc (type '%s'); "
               "image1d_t, image1d_buffer_t, image1d_array_t, image2d_t, image2d_array_t and "
               "image3d_t are",
               clang_getCString(s));
    clang_disposeString(s);
    return NULL;
  }
  static const int access[3] = {KIMG_READ, KIMG_WRITE, KIMG_READ | KIMG_WRITE};
  return kir_type_image((KImageDim)dims[idx], access[run]);
}

/* ---------------------------------------------------------------- samplers */

/* Marks (in fe->decls) a sampler variable whose declaration was refused, so that its uses add
 * no second error. */
static char bad_sampler_mark;
#define BAD_SAMPLER ((void *)&bad_sampler_mark)

static bool is_sampler(CXType t) {
  return clang_getCanonicalType(t).kind == CXType_OCLSampler;
}

/* The only expression child of c, or the null cursor. */
static CXCursor only_child(CXCursor c) {
  FeKids k;
  fe_kids(c, &k);
  CXCursor r =
      k.n == 1 && clang_isExpression(clang_getCursorKind(k.v[0])) ? k.v[0] : clang_getNullCursor();
  fe_kids_free(&k);
  return r;
}

static KExpr *sampler_const(uint64_t bits, KLoc loc) {
  /* No filter flag is the nearest filter, as OpenCL drivers read it (its value is not 0). */
  if (bits < 64 && !(bits & KSAMP_FILTER_MASK)) bits |= KSAMP_NEAREST;
  if (!kir_sampler_valid(bits)) {
    diag_error(loc,
               "sampler value 0x%llx is not one OpenCL C defines: combine at most one "
               "CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_* and CLK_FILTER_* flag each",
               (unsigned long long)bits);
    return fe_poison(loc);
  }
  KExpr *e = kir_expr(KE_ICONST, kir_type_sampler(), loc);
  e->ival = bits;
  return e;
}

/* The sampler an initializer (an integer constant expression, or another constant sampler)
 * stands for. */
static KExpr *sampler_of(FeCtx *fe, CXCursor c, KLoc loc, int depth) {
  while (!clang_Cursor_isNull(c) && depth < 16) {
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!is_sampler(clang_getCursorType(c))) {
      /* The integer under clang's IntToOCLSampler conversion. */
      CXEvalResult r = clang_Cursor_Evaluate(c);
      bool known = r && clang_EvalResult_getKind(r) == CXEval_Int;
      uint64_t v = known ? (uint64_t)clang_EvalResult_getAsLongLong(r) : 0;
      if (r) clang_EvalResult_dispose(r);
      if (known) return sampler_const(v, loc);
      break;
    }
    if (k == CXCursor_DeclRefExpr) {
      CXCursor ref = clang_getCursorReferenced(c);
      if (clang_getCursorKind(ref) == CXCursor_ParmDecl) {
        KVar *v = fe_map_get(&fe->decls, clang_getCanonicalCursor(ref));
        if (!v) return fe_poison(loc);
        KExpr *e = kir_expr(KE_VAR, v->type, loc);
        e->var = v;
        return e;
      }
      if (fe_map_get(&fe->decls, clang_getCanonicalCursor(ref)) == BAD_SAMPLER)
        return fe_poison(loc);
      CXCursor def = clang_getCursorDefinition(ref);
      c = fe_var_initializer(fe, clang_Cursor_isNull(def) ? ref : def);
      if (clang_Cursor_isNull(c)) break;
      depth++;
      continue;
    }
    c = only_child(c); /* implicit conversions, parentheses */
    depth++;
  }
  diag_error(loc, "a sampler must be a sampler parameter or a constant sampler (CLK_* flags "
                  "known at compile time) in kcc kernels");
  return fe_poison(loc);
}

KExpr *fe_cl_sampler_expr(FeCtx *fe, CXCursor c, KLoc loc) {
  if (!clang_isExpression(clang_getCursorKind(c)) || !is_sampler(clang_getCursorType(c)))
    return NULL;
  return sampler_of(fe, c, loc, 0);
}

bool fe_cl_sampler_decl(FeCtx *fe, CXCursor decl) {
  if (!is_sampler(clang_getCursorType(decl))) return false;
  KLoc loc = fe_loc(fe, decl);
  CXCursor init = fe_var_initializer(fe, decl);
  int errors = diag_error_count();
  if (clang_Cursor_isNull(init))
    diag_error(loc, "sampler '%s' needs an initializer (a constant sampler) in kcc kernels",
               fe_spelling(decl));
  else
    sampler_of(fe, init, loc, 0); /* checked here; each use folds it again */
  if (diag_error_count() > errors)
    fe_map_put(&fe->decls, clang_getCanonicalCursor(decl), BAD_SAMPLER);
  return true;
}

/* ---------------------------------------------------------------- built-in functions */

/* ---------------------------------------------------------------- software forms (image_lib.c) */

typedef struct ImplFind {
  const char *name;
  int dim; /* clang's image type index within a run of twelve */
  CXCursor found;
} ImplFind;

static int image_index(CXType t) {
  CXType c = clang_getCanonicalType(t);
  return c.kind < CXType_OCLImage1dRO || c.kind > CXType_OCLImage3dRW
             ? -1
             : (int)(c.kind - CXType_OCLImage1dRO) % 12;
}

static enum CXChildVisitResult find_impl(CXCursor d, CXCursor parent, CXClientData data) {
  (void)parent;
  ImplFind *f = data;
  if (clang_getCursorKind(d) != CXCursor_FunctionDecl || !clang_isCursorDefinition(d) ||
      clang_Cursor_getNumArguments(d) < 1)
    return CXChildVisit_Continue;
  CXString s = clang_getCursorSpelling(d);
  bool same = !strcmp(clang_getCString(s), f->name);
  clang_disposeString(s);
  if (same && image_index(clang_getArgType(clang_getCursorType(d), 0)) == f->dim) {
    f->found = d;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* Marks the software form and the image_lib.c functions it calls (their names hold __kcc_img_) as
 * image_impl, and every floating-point operation in them as uncontracted: the specification's
 * formulas round each product (a fused u * n - 0.5 could pick another texel than the host
 * reference at a texel's edge). */
static void mark_impl(KExpr *e, void *ctx) {
  (void)ctx;
  const KType *t = e->type->kind == KT_VEC ? e->type->base : e->type;
  if ((e->kind == KE_BINARY || e->kind == KE_ASSIGN) && kir_is_float(t)) e->contract = -1;
  if (e->kind != KE_CALL || !e->callee || e->callee->image_impl ||
      !strstr(e->callee->name, "__kcc_img_"))
    return;
  e->callee->image_impl = true;
  /* A texel's load and conversion is one call per texel read: inlined, every read (and every
   * copy an unrolled loop makes of it) carries every format's conversion (a ggml kernel of
   * four image reads made 4.7 MB of PTX). */
  e->callee->no_inline =
      strstr(e->callee->name, "__kcc_img_texf") || strstr(e->callee->name, "__kcc_img_texi");
  kir_visit_stmt(e->callee->body, mark_impl, NULL);
}

/* A definition image_impl found (FeCtx.image_impls): finding one searches the prelude's text. */
typedef struct ImplSeen {
  const char *name;
  int dim;
  CXCursor c;
} ImplSeen;

/* The image_lib.c function named name for the image type of the call's first argument. */
static KFunc *image_impl(FeCtx *fe, CXCursor call, const char *name, KLoc loc) {
  int dim = image_index(clang_getCursorType(clang_Cursor_getArgument(call, 0)));
  CXCursor c = clang_getNullCursor();
  for (int i = 0; i < fe->image_impls.n; i++) {
    ImplSeen *s = fe->image_impls.v[i];
    if (s->dim == dim && !strcmp(s->name, name)) c = s->c;
  }
  if (clang_Cursor_isNull(c)) {
    /* The translation unit's walk leaves out the precompiled prelude (parse.c), so each place
     * the .cl prelude spells `name(` is asked for the declaration there (a definition for one
     * image type each; calls are other cursors). */
    ImplFind f = {name, dim, clang_getNullCursor()};
    const FeVFile *vf = fe_cl_vfile();
    CXFile file = clang_getFile(fe->tu, vf->name);
    size_t len = strlen(name);
    for (const char *p = vf->text; file && clang_Cursor_isNull(f.found) && (p = strstr(p, name));
         p += len) {
      if (p[len] != '(') continue;
      CXSourceLocation at = clang_getLocationForOffset(fe->tu, file, (unsigned)(p - vf->text));
      find_impl(clang_getCursor(fe->tu, at), clang_getNullCursor(), &f);
    }
    if (clang_Cursor_isNull(f.found)) {
      diag_ice(loc, "the .cl prelude has no '%s' for this image type", name);
      return NULL;
    }
    c = f.found;
    ImplSeen *s = kir_alloc(sizeof *s);
    *s = (ImplSeen){name, dim, c};
    klist_push(&fe->image_impls, s);
  }
  KFunc *f = fe_vfile_function(fe, c);
  if (f && !f->image_impl) {
    f->image_impl = true;
    kir_visit_stmt(f->body, mark_impl, NULL);
  }
  return f;
}

/* The software form of a read or write (image_lib.c's names): read_{f,i,u}{f,i} by result and
 * coordinate type, fetch_{f,i,u} without a sampler, write_{f,i,u} by the colour's type. */
static void set_impl(FeCtx *fe, CXCursor call, KExpr *e, KLoc loc) {
  const KType *v = e->builtin == BI_IMAGE_READ ? e->type : e->args[2]->type;
  const char *r = kir_is_float(v->base) ? "f" : kir_is_signed(v->base) ? "i" : "u";
  const KType *coord = e->args[e->nargs - (e->builtin == BI_IMAGE_READ ? 1 : 2)]->type;
  if (coord->kind == KT_VEC) coord = coord->base;
  static const char *const names[] = {
      "__kcc_img_read_ff", "__kcc_img_read_fi", "__kcc_img_read_if", "__kcc_img_read_ii",
      "__kcc_img_read_uf", "__kcc_img_read_ui", "__kcc_img_fetch_f", "__kcc_img_fetch_i",
      "__kcc_img_fetch_u", "__kcc_img_write_f", "__kcc_img_write_i", "__kcc_img_write_u"};
  int ri = *r == 'f' ? 0 : *r == 'i' ? 1 : 2, i;
  if (e->builtin == BI_IMAGE_WRITE)
    i = 9 + ri;
  else if (e->nargs == 2)
    i = 6 + ri;
  else
    i = 2 * ri + (kir_is_float(coord) ? 0 : 1);
  e->callee = image_impl(fe, call, names[i], loc);
}

static KExpr *arg(FeCtx *fe, CXCursor call, int i) {
  return fe_expr(fe, clang_Cursor_getArgument(call, i));
}

KExpr *fe_cl_image_call(FeCtx *fe, CXCursor call, const char *name, KType *t, KLoc loc) {
  int n = clang_Cursor_getNumArguments(call);
  KType *i32 = kir_type_scalar(KT_I32);
  static const struct {
    const char *name;
    KBuiltin b;
  } queries[] = {
      {"get_image_width", BI_IMAGE_WIDTH},
      {"get_image_height", BI_IMAGE_HEIGHT},
      {"get_image_depth", BI_IMAGE_DEPTH},
      {"get_image_array_size", BI_IMAGE_ARRAY_SIZE},
      {"get_image_dim", BI_IMAGE_DIM},
      {"get_image_channel_order", BI_IMAGE_CHANNEL_ORDER},
      {"get_image_channel_data_type", BI_IMAGE_CHANNEL_TYPE},
  };
  for (size_t q = 0; q < sizeof queries / sizeof queries[0]; q++) {
    if (strcmp(name, queries[q].name) || n != 1) continue;
    KExpr *img = arg(fe, call, 0);
    if (!kir_is_image(img->type)) return fe_poison(loc);
    KType *rt = i32;
    if (queries[q].b == BI_IMAGE_DIM) rt = kir_type_vec(i32, img->type->len == KIMG_3D ? 4 : 2);
    KExpr *e = kir_builtin(queries[q].b, rt, 1, loc);
    e->args[e->nargs++] = img;
    return rt == t ? e : fe_convert(e, t);
  }
  if (!strcmp(name, "__kcc_surf_load") || !strcmp(name, "__kcc_surf_store")) {
    bool load = name[11] == 'l';
    KExpr *e = kir_builtin(load ? BI_SURF_LOAD : BI_SURF_STORE, t, n, loc);
    for (int i = 0; i < n; i++) e->args[e->nargs++] = arg(fe, call, i);
    return e;
  }
  bool read = !strncmp(name, "read_image", 10), write = !strncmp(name, "write_image", 11);
  if (!read && !write) return NULL;
  const char *suffix = name + (read ? 10 : 11);
  bool half = !strcmp(suffix, "h");
  if (strcmp(suffix, "f") && strcmp(suffix, "i") && strcmp(suffix, "ui") && !half) {
    diag_error(loc, "'%s' is not supported by kcc", name);
    return fe_poison(loc);
  }
  if ((read && n != 2 && n != 3) || (write && n != 3)) {
    /* The forms with an explicit level of detail or gradients (cl_khr_mipmap_image). */
    diag_error(loc, "this form of '%s' is not supported by kcc (mipmapped images are not)", name);
    return fe_poison(loc);
  }
  KExpr *args[3];
  for (int i = 0; i < n; i++) args[i] = arg(fe, call, i);
  if (!kir_is_image(args[0]->type)) return fe_poison(loc);
  /* read_imageh and write_imageh (cl_khr_fp16) are the float forms with a conversion: every
   * half is a float exactly, a half image's texels read as float are halves, and a float that
   * is a half writes as that half (OpenCL rounds a written float to the nearest half), so the
   * values are the same and no form needs half images. */
  KType *f4 = kir_type_vec(kir_type_scalar(KT_F32), 4);
  if (write) {
    KExpr *e = kir_builtin(BI_IMAGE_WRITE, kir_type_void(), 3, loc);
    if (half) args[2] = fe_vec_convert(args[2], f4);
    for (int i = 0; i < 3; i++) e->args[e->nargs++] = args[i];
    set_impl(fe, call, e, loc);
    return e;
  }
  KExpr *e = kir_builtin(BI_IMAGE_READ, half ? f4 : t, n, loc);
  for (int i = 0; i < n; i++) e->args[e->nargs++] = args[i];
  set_impl(fe, call, e, loc);
  return half ? fe_vec_convert(e, t) : e;
}
