/* limits.c — what the targets cannot express, found before a back end runs into it.
 *
 * Each check here replaces a failure that used to come later and worse: an abort inside LLVM
 * (a kernel named `ké`), PTX that ptxas rejects (shared memory, constant data, kernel
 * parameters over the hardware's limits), a bundle whose PTX only fails when a driver JITs
 * it, or an "internal compiler error" from the SPIR-V validator. Each limit is diagnosed at
 * the declaration that crosses it and names the limit, for the output forms that have it
 * (docs/dialect.md, "Limits"). */
#include "diag.h"
#include "kcc.h"

#include <string.h>

enum {
  SHARED_LIMIT = 48 * 1024,   /* static shared memory per kernel: CUDA, PTX */
  CONSTANT_LIMIT = 64 * 1024, /* the constant bank of a module: CUDA, PTX */
  PARAM_LIMIT = 4352,         /* kernel parameter bytes, PTX ISA < 8.1 or sm < 70 */
  PARAM_LIMIT_81 = 32764,     /* PTX ISA 8.1 (CUDA 12.1) on sm_70 and newer */
  SPIRV_MAX_PARAMS = 255,     /* SPIR-V's universal limit per OpTypeFunction */
  /* An instruction is at most 65,535 words; OpConstantComposite spends 3 on its opcode, type
   * and result, which leaves this many elements for one constant array. */
  SPIRV_MAX_ELEMS = 65532,
};

/* ---------------------------------------------------------------- names */

/* Kernels and constant tables keep their source names in every form (the runtime looks
 * kernels up by name; PTX keeps constants visible for lookups). C11 lets identifiers hold
 * UTF-8 letters and clang takes `$`, but LLVM aborts on such a PTX symbol, nvcc refuses
 * them in device entity names, and a driver's lookup would have to spell them exactly:
 * these names must be plain ASCII identifiers. Device functions, locals, shared variables
 * and types have no such constraint; the back ends rename them where they must. */
bool pass_names(KModule *m) {
  int errors = diag_error_count();
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (f->is_kernel && !f->origin && !kir_is_plain_identifier(f->name))
      diag_error(f->loc,
                 "kernel name '%s' is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*): kernels "
                 "keep their names in PTX, SPIR-V and OpenCL C, where the runtime looks them "
                 "up; rename the kernel",
                 f->name);
  }
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    if (v->kind == KV_CONSTANT && !kir_is_plain_identifier(v->name))
      diag_error(v->loc,
                 "constant name '%s' is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*): "
                 "constant tables keep their names in PTX, where the runtime may look them "
                 "up; rename the table",
                 v->name);
  }
  return diag_error_count() == errors;
}

/* ---------------------------------------------------------------- limits */

static int64_t align_up(int64_t n, int64_t a) {
  return a > 1 ? (n + a - 1) / a * a : n;
}

/* The largest kernel parameter space PTX gives every requested architecture. */
static int64_t param_limit(const KOptions *o) {
  for (int i = 0; i < o->narchs; i++)
    if (o->archs[i] < 70) return PARAM_LIMIT;
  return o->narchs > 0 ? PARAM_LIMIT_81 : PARAM_LIMIT;
}

static int64_t param_bytes(const KFunc *f) {
  int64_t n = 0;
  for (int i = 0; i < f->nparams; i++) {
    const KType *t = f->params[i]->type;
    n = align_up(n, t->align) + t->size;
  }
  return n;
}

int kcc_ptx_isa(const KModule *m, const KOptions *o) {
  if (param_limit(o) == PARAM_LIMIT) return 78;
  for (int i = 0; i < m->funcs.n; i++) {
    const KFunc *f = m->funcs.v[i];
    if (f->is_kernel && param_bytes(f) > PARAM_LIMIT) return 81;
  }
  return 78;
}

/* String literals (printf formats and %s arguments), each distinct one once: the PTX back end
 * keeps one constant-memory copy of each. */
typedef struct Strings {
  KList v; /* KExpr* */
} Strings;

static void collect_string(KExpr *e, void *ctx) {
  Strings *s = ctx;
  if (e->kind != KE_STR) return;
  for (int i = 0; i < s->v.n; i++) {
    const KExpr *o = s->v.v[i];
    if (o->len == e->len && !memcmp(o->str, e->str, e->len)) return;
  }
  klist_push(&s->v, e);
}

static void check_shared(const KFunc *f) {
  int64_t n = 0;
  for (int i = 0; i < f->shared.n; i++) {
    const KVar *v = f->shared.v[i];
    if (v->is_dynamic) continue;
    n += v->type->size;
    if (n > SHARED_LIMIT) {
      diag_error(v->loc,
                 "static shared memory of kernel '%s' reaches %lld bytes with '%s', over the "
                 "48 KiB (49152 bytes) CUDA and PTX allow per kernel; use dynamic shared "
                 "memory (extern shared) for more",
                 f->name, (long long)n, v->name);
      return;
    }
  }
}

static const char *pname(const KVar *p) {
  return p->name && *p->name ? p->name : "(unnamed)";
}

static void check_params(const KFunc *f, int64_t limit) {
  int64_t n = 0;
  for (int i = 0; i < f->nparams; i++) {
    const KVar *p = f->params[i];
    n = align_up(n, p->type->align) + p->type->size;
    if (n > limit) {
      if (limit == PARAM_LIMIT)
        diag_error(p->loc,
                   "parameters of kernel '%s' reach %lld bytes with '%s', over the 4352 bytes "
                   "PTX allows (32764 with PTX ISA 8.1 when every -arch is sm_70 or newer); "
                   "pass large data in a buffer",
                   f->name, (long long)n, pname(p));
      else
        diag_error(p->loc,
                   "parameters of kernel '%s' reach %lld bytes with '%s', over the 32764 bytes "
                   "PTX ISA 8.1 allows on sm_70 and newer; pass large data in a buffer",
                   f->name, (long long)n, pname(p));
      return;
    }
  }
}

/* Arrays of a constant initializer longer than one SPIR-V instruction can list. */
static bool check_elems(const KVar *v, const KType *t) {
  if (t->kind == KT_ARRAY) {
    if (t->len > SPIRV_MAX_ELEMS) {
      diag_error(v->loc,
                 "constant '%s' has an array of %lld elements; a SPIR-V constant array holds at "
                 "most 65532",
                 v->name, (long long)t->len);
      return false;
    }
    return check_elems(v, t->base);
  }
  if (t->kind == KT_STRUCT)
    for (int i = 0; i < t->st->nfields; i++)
      if (!check_elems(v, t->st->fields[i].type)) return false;
  return true;
}

static void find_subgroup(KExpr *e, void *ctx) {
  if (e->kind == KE_BUILTIN && kir_builtin_is_subgroup(e->builtin)) *(bool *)ctx = true;
}

bool kcc_check_limits(const KModule *m, const KOptions *o, unsigned forms) {
  int errors = diag_error_count();
  bool nv = forms & (KL_PTX | KL_CUDA);
  Strings strs = {0};
  for (int i = 0; i < m->funcs.n; i++) {
    const KFunc *f = m->funcs.v[i];
    if (f->body) kir_visit_stmt(f->body, collect_string, &strs);
  }

  if (nv) {
    int64_t limit = param_limit(o);
    for (int i = 0; i < m->funcs.n; i++) {
      const KFunc *f = m->funcs.v[i];
      if (!f->is_kernel) continue;
      check_shared(f);
      check_params(f, limit);
      /* A subgroup is a warp, or an aligned segment of one, there (llvm_builtins.c). */
      if (f->reqd_subgroup > 32)
        diag_error(f->loc,
                   "kernel '%s' requires subgroups of %d (intel_reqd_sub_group_size), but a "
                   "subgroup is at most a warp of 32 lanes in %s output; the OpenCL C form keeps "
                   "the attribute for the device to honour",
                   f->name, f->reqd_subgroup, forms & KL_PTX ? "PTX" : "CUDA C");
    }
    for (int i = 0; i < m->funcs.n; i++) {
      const KFunc *f = m->funcs.v[i];
      bool uses = false;
      if (f->sg_width != -1 || !f->body) continue;
      kir_visit_stmt(f->body, find_subgroup, &uses);
      if (!uses) continue;
      const KFunc *a = f->sg_kernels[0], *b = f->sg_kernels[1];
      diag_error(f->loc,
                 "function '%s' uses subgroup functions and is called from kernels with "
                 "subgroups of %d ('%s') and of %d ('%s'); in %s output a function's subgroup "
                 "is its kernels' segment of a warp, one width per function: give each width "
                 "its own copy of the function",
                 f->name, a->reqd_subgroup ? a->reqd_subgroup : 32, a->name,
                 b->reqd_subgroup ? b->reqd_subgroup : 32, b->name,
                 forms & KL_PTX ? "PTX" : "CUDA C");
    }
    /* Constant tables, then (PTX) the string literals, which PTX keeps in the same bank;
     * CUDA C puts string literals in global memory. */
    int64_t n = 0;
    bool over = false;
    for (int i = 0; i < m->globals.n && !over; i++) {
      const KVar *v = m->globals.v[i];
      if (v->kind != KV_CONSTANT) continue;
      n = align_up(n, v->type->align) + v->type->size;
      if ((over = n > CONSTANT_LIMIT))
        diag_error(v->loc,
                   "constant data reaches %lld bytes with '%s', over the 64 KiB (65536 bytes) of "
                   "constant memory CUDA and PTX give a module",
                   (long long)n, v->name);
    }
    for (int i = 0; i < strs.v.n && !over && (forms & KL_PTX); i++) {
      const KExpr *e = strs.v.v[i];
      n += (int64_t)e->len + 1;
      if ((over = n > CONSTANT_LIMIT))
        diag_error(e->loc,
                   "constant data reaches %lld bytes with this %zu-byte string, over the 64 KiB "
                   "(65536 bytes) of constant memory PTX gives a module, where it keeps string "
                   "literals with the constant tables",
                   (long long)n, e->len + 1);
    }
  }

  if (forms & KL_SPIRV) {
    KList seen = {0}; /* specialised clones share their origin's parameters: report once */
    for (int i = 0; i < m->funcs.n; i++) {
      const KFunc *f = m->funcs.v[i], *root = f->origin ? f->origin : f;
      bool dup = false;
      for (int j = 0; j < seen.n && !dup; j++) dup = seen.v[j] == root;
      if (!f->body || dup) continue;
      bool dyn = false; /* the dynamic shared memory pointer: one parameter more */
      for (int j = 0; j < f->shared.n; j++) dyn |= ((const KVar *)f->shared.v[j])->is_dynamic;
      int n = f->nparams + dyn;
      if (n > SPIRV_MAX_PARAMS) {
        klist_push(&seen, (void *)root);
        KLoc at = f->nparams > SPIRV_MAX_PARAMS ? f->params[SPIRV_MAX_PARAMS]->loc : f->loc;
        diag_error(at,
                   "%s '%s' has %d parameters%s; SPIR-V allows at most 255 per function; pass "
                   "them in a buffer or a struct",
                   f->is_kernel ? "kernel" : "function", root->name, n,
                   dyn ? " (with the one for its dynamic shared memory)" : "");
      }
    }
    for (int i = 0; i < m->globals.n; i++) {
      const KVar *v = m->globals.v[i];
      if (v->kind == KV_CONSTANT) check_elems(v, v->type);
    }
    for (int i = 0; i < strs.v.n; i++) {
      const KExpr *e = strs.v.v[i];
      if (e->len + 1 > SPIRV_MAX_ELEMS)
        diag_error(e->loc,
                   "string of %zu bytes is longer than the 65532 bytes a SPIR-V constant array "
                   "holds",
                   e->len + 1);
    }
  }
  return diag_error_count() == errors;
}
