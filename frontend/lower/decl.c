/* decl.c — a function's declaration in KIR: its name, attributes, return type and parameters
 * (not its body: lower_stmt.c), in every input language. */
#include <stdio.h>
#include <string.h>

#include "fe.h"

/* __launch_bounds__(max_threads[, min_blocks]) on kernel f: the annotation's arguments are
 * its children, integer constant expressions that libclang evaluates. */
static void launch_bounds(FeCtx *fe, CXCursor def, KFunc *f) {
  CXCursor at = fe_find_annotation(def, "kcc.launch_bounds");
  if (clang_Cursor_isNull(at)) return;
  KLoc loc = fe_loc(fe, at);
  if (!f->is_kernel) {
    diag_error(loc, "__launch_bounds__ applies to kernels only, not to device function '%s'",
               f->name);
    return;
  }
  FeKids k;
  fe_kids(at, &k);
  int64_t v[2] = {0, 0};
  for (int i = 0; i < k.n; i++) {
    CXEvalResult r = clang_Cursor_Evaluate(k.v[i]);
    bool ok = i < 2 && r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) v[i] = clang_EvalResult_getAsLongLong(r);
    if (r) clang_EvalResult_dispose(r);
    if (!ok) {
      diag_error(fe_loc(fe, k.v[i]),
                 i < 2 ? "__launch_bounds__ needs integer constants"
                       : "__launch_bounds__ takes at most 2 arguments here (max threads per "
                         "block, min blocks per multiprocessor)");
      fe_kids_free(&k);
      return;
    }
  }
  int nargs = k.n;
  fe_kids_free(&k);
  if (nargs < 1 || v[0] < 1 || v[0] > 1024 || v[1] < 0 || v[1] > 1024) {
    diag_error(loc,
               "__launch_bounds__(%lld, %lld): max threads per block must be in [1, 1024] and "
               "min blocks per multiprocessor in [0, 1024]",
               (long long)v[0], (long long)v[1]);
    return;
  }
  f->max_threads = (int)v[0];
  f->min_blocks = (int)v[1];
}

KFunc *fe_declare_function(FeCtx *fe, CXCursor def) {
  KLoc loc = fe_loc(fe, def);
  KFunc *f = kir_alloc(sizeof *f);
  f->name = fe_spelling(def);
  f->loc = loc;
  f->is_kernel = fe_has_annotation(def, "kcc.kernel");
  if (fe->lang == KL_LANG_CU) f->name = fe_cxx_func_name(fe, def, f->is_kernel);
  f->is_static = clang_Cursor_getStorageClass(def) == CX_SC_Static;
  f->is_inline = clang_Cursor_isFunctionInlined(def) != 0;
  launch_bounds(fe, def, f);
  if (fe->ops->kernel_attrs) fe->ops->kernel_attrs(fe, def, f);
  CXType ft = clang_getCursorType(def);
  CXType rt = clang_getResultType(ft);
  /* A const reference is returned as the value, as it is passed (fe_ref_by_address): the
     referent may be a parameter, which is a copy in KIR. */
  if (clang_getCanonicalType(rt).kind == CXType_LValueReference && !fe_ref_by_address(rt))
    rt = clang_getPointeeType(clang_getCanonicalType(rt));
  f->ret = fe_type(fe, rt, loc);
  if (!f->ret) f->ret = kir_type_void();
  if (f->is_kernel && f->ret->kind != KT_VOID)
    diag_error(loc, "kernel function '%s' must return void", f->name);
  /* `void k()` (no prototype in C before C23) defines a function without parameters: that is
   * how CUDA spells it, and clang reports such a type as variadic. */
  if (clang_isFunctionTypeVariadic(ft) && ft.kind != CXType_FunctionNoProto)
    diag_error(loc, "variadic functions are not supported in kcc kernels");
  if (f->ret->kind == KT_ARRAY) f->ret = kir_type_void(); /* clang rejected it */
  int n = clang_Cursor_getNumArguments(def);
  if (n < 0) n = 0;
  f->params = kir_alloc(sizeof(KVar *) * (size_t)(n + 1));
  if (fe_is_method(def)) {
    /* A method's object is its first parameter, `this`. */
    KType *ct = fe_type(fe, clang_getCursorType(clang_getCursorSemanticParent(def)), loc);
    if (!ct) ct = kir_type_scalar(KT_I32);
    int q = clang_CXXMethod_isConst(def) ? KQ_CONST : 0;
    f->params[f->nparams++] =
        kir_var(fe->m, "this", kir_type_ptr(ct, KAS_GENERIC, q), KV_PARAM, loc);
  }
  for (int i = 0; i < n; i++) {
    CXCursor p = clang_Cursor_getArgument(def, i);
    KLoc ploc = fe_loc(fe, p);
    bool cl = fe->lang == KL_LANG_CL;
    CXType pct = clang_getCursorType(p), canon = clang_getCanonicalType(pct);
    bool ref = canon.kind == CXType_LValueReference || canon.kind == CXType_RValueReference;
    if (ref && f->is_kernel) {
      diag_error(ploc, "kernel parameter '%s' cannot be a reference: the host passes values",
                 fe_spelling(p));
    } else if (ref && !fe_ref_by_address(pct)) {
      pct = clang_getPointeeType(canon); /* const T &: the value (fe_ref_by_address) */
    } else if (ref) {
      pct = canon;
      fe_map_put(&fe->refs, clang_getCanonicalCursor(p), (void *)1);
      fe_map_put(&fe->refs, p, (void *)1);
    }
    KType *t = fe->ops->check_type && !fe->ops->check_type(fe, pct, ploc)
                   ? NULL
                   : fe_param_type(fe, pct, ploc);
    if (!t) t = kir_type_scalar(KT_I32);
    if (f->is_kernel && cl) {
      /* OpenCL names the space: __local is local memory sized at launch; __constant is a
       * read-only buffer like any other (CUDA's constant bank holds no runtime buffers). */
      KAddrSpace as = fe_pointee_space(clang_getCursorType(p));
      if (as == KAS_CONSTANT && t->kind == KT_PTR)
        t = kir_type_ptr(t->base, KAS_GLOBAL, t->qual | KQ_CONST);
      else
        t = fe_ptr_as(t, as == KAS_SHARED ? KAS_SHARED : KAS_GLOBAL);
    } else if (f->is_kernel) {
      t = fe_ptr_chain_as(t, KAS_GLOBAL);
    }
    const char *name = fe_spelling(p);
    /* A parameter is a value passed by the host: it lives in no memory space of its own,
     * and a pointer parameter points to global memory. */
    bool is_shared = fe_has_annotation(p, "kcc.shared");
    /* `shared T *` on a kernel parameter: local memory the launch sizes (kir.h, KV_PARAM). */
    if (is_shared && f->is_kernel && t->kind == KT_PTR)
      t = fe_ptr_as(t, KAS_SHARED);
    else if (is_shared && f->is_kernel)
      diag_error(ploc,
                 "kernel parameter '%s' cannot be 'shared': only a pointer parameter can be "
                 "(`shared T *p`: local memory sized at launch)",
                 *name ? name : "(unnamed)");
    else if (is_shared)
      diag_error(ploc,
                 "parameter '%s' of device function '%s' cannot be 'shared': only kernel "
                 "parameters can (a device function's pointer parameters take the memory space "
                 "of what the caller passes)",
                 *name ? name : "(unnamed)", f->name);
    else if (fe_has_annotation(p, "kcc.constant"))
      diag_error(ploc,
                 "parameter '%s' cannot be '%s': kernel and device function parameters "
                 "point to global memory (use a shared array declared in the kernel, or "
                 "'extern shared' for memory sized at launch)",
                 *name ? name : "(unnamed)", "constant");
    char buf[32];
    if (!*name) {
      snprintf(buf, sizeof buf, "__unnamed%d", i);
      name = buf;
    }
    /* A parameter pack's expansion (`T... xs`) names each parameter alike: xs_1, xs_2... */
    char pack[256];
    for (int j = 0, k = 0; j < f->nparams; j++)
      if (!strcmp(f->params[j]->name, name)) {
        snprintf(pack, sizeof pack, "%s_%d", fe_spelling(p), ++k);
        name = kir_strdup(pack);
        j = -1;
      }
    KVar *v = kir_var(fe->m, name, t, KV_PARAM, ploc);
    v->is_const = fe_type_is_const(pct);
    f->params[f->nparams++] = v;
    if (fe->ops->param) fe->ops->param(fe, f, v, pct);
    fe_map_put(&fe->decls, clang_getCanonicalCursor(p), v);
    fe_map_put(&fe->decls, p, v);
  }
  fe_map_put(&fe->decls, clang_getCanonicalCursor(def), f);
  klist_push(&fe->m->funcs, f);
  return f;
}

void fe_add_helper(FeCtx *fe, KFunc *f) {
  KList *fl = &fe->m->funcs;
  klist_push(fl, NULL);
  int at = fe->nhelpers++;
  memmove(fl->v + at + 1, fl->v + at, sizeof(void *) * (size_t)(fl->n - 1 - at));
  fl->v[at] = f;
}
