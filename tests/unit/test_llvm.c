/* test_llvm.c — the LLVM/PTX back end on KIR built by hand (independent of the front end):
 * kernels and their calling convention, printf argument packing, optimisation levels,
 * -ffp-contract, struct layout, libdevice linking and the libdevice-missing error. */
#define _GNU_SOURCE
#include "testutil.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- KIR by hand */

static KLoc L0;

static KType *T(KTypeKind k) {
  return kir_type_scalar(k);
}
static KType *P(KType *base, KAddrSpace as) {
  return kir_type_ptr(base, as, 0);
}

static KExpr *ref(KVar *v) {
  KExpr *e =
      kir_expr(v->kind == KV_SHARED || v->kind == KV_CONSTANT ? KE_GVAR : KE_VAR, v->type, L0);
  e->var = v;
  return e;
}

static KExpr *bin(KOp op, KType *t, KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_BINARY, t, L0);
  e->op = op;
  e->a = a;
  e->b = b;
  return e;
}

static KExpr *idx(KExpr *p, KExpr *i) {
  KExpr *e = kir_expr(KE_INDEX, p->type->base, L0);
  e->a = p;
  e->b = i;
  return e;
}

static KExpr *cast(KExpr *a, KType *t) {
  KExpr *e = kir_expr(KE_CAST, t, L0);
  e->a = a;
  return e;
}

static KExpr *fconst(KType *t, double v) {
  KExpr *e = kir_expr(KE_FCONST, t, L0);
  e->fval = v;
  return e;
}

static KExpr *str(const char *s) {
  KExpr *e = kir_expr(KE_STR, P(T(KT_I8), KAS_CONSTANT), L0);
  e->str = s;
  e->len = strlen(s);
  return e;
}

static KExpr *special(KBuiltin b, int dim) {
  KExpr *e = kir_expr(KE_SPECIAL, T(KT_U32), L0);
  e->builtin = b;
  e->dim = dim;
  return e;
}

static KExpr *builtin(KBuiltin b, KType *t, int n, ...) {
  KExpr *e = kir_expr(KE_BUILTIN, t, L0);
  e->builtin = b;
  e->nargs = n;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(n + 1));
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) e->args[i] = va_arg(ap, KExpr *);
  va_end(ap);
  return e;
}

static KStmt *assign(KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_ASSIGN, a->type, L0);
  e->a = a;
  e->b = b;
  KStmt *s = kir_stmt(KS_EXPR, L0);
  s->expr = e;
  return s;
}

static KStmt *expr_stmt(KExpr *e) {
  KStmt *s = kir_stmt(KS_EXPR, L0);
  s->expr = e;
  return s;
}

static KStmt *decl(KVar *v, KExpr *init) {
  KStmt *s = kir_stmt(KS_DECL, L0);
  s->var = v;
  s->init = init;
  return s;
}

static KStmt *block(int n, ...) {
  KStmt *s = kir_stmt(KS_BLOCK, L0);
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) klist_push(&s->list, va_arg(ap, KStmt *));
  va_end(ap);
  return s;
}

static KFunc *kernel(KModule *m, const char *name, int np, KVar **params, KStmt *body) {
  KFunc *f = kir_alloc(sizeof *f);
  f->name = name;
  f->is_kernel = true;
  f->ret = kir_type_void();
  f->params = kir_alloc(sizeof(KVar *) * (size_t)(np + 1));
  if (np) memcpy(f->params, params, sizeof(KVar *) * (size_t)np);
  f->nparams = np;
  f->body = body;
  klist_push(&m->funcs, f);
  return f;
}

/* i = blockIdx.x * blockDim.x + threadIdx.x, as an unsigned expression converted to int. */
static KExpr *global_id(void) {
  KType *u = T(KT_U32);
  KExpr *e = bin(KB_ADD, u, bin(KB_MUL, u, special(BI_BLOCK_IDX, 0), special(BI_BLOCK_DIM, 0)),
                 special(BI_THREAD_IDX, 0));
  return cast(e, T(KT_I32));
}

/* kernel void NAME(const float *a, const float *b, float *c, int n) {
 *   int i = global id; if (i < n) c[i] = OP(a[i], b[i]); } with OP chosen by the caller. */
static KModule *elementwise(const char *name, KExpr *(*op)(KExpr *, KExpr *)) {
  KModule *m = kir_module("t.k");
  KType *f = T(KT_F32), *i32 = T(KT_I32);
  KVar *pa = kir_var(m, "a", kir_type_ptr(f, KAS_GLOBAL, KQ_CONST | KQ_RESTRICT), KV_PARAM, L0);
  KVar *pb = kir_var(m, "b", kir_type_ptr(f, KAS_GLOBAL, KQ_CONST), KV_PARAM, L0);
  KVar *pc = kir_var(m, "c", P(f, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pn = kir_var(m, "n", i32, KV_PARAM, L0);
  KVar *vi = kir_var(m, "i", i32, KV_LOCAL, L0);
  KStmt *iff = kir_stmt(KS_IF, L0);
  iff->cond = bin(KB_LT, i32, ref(vi), ref(pn));
  iff->then = assign(idx(ref(pc), ref(vi)), op(idx(ref(pa), ref(vi)), idx(ref(pb), ref(vi))));
  KVar *params[] = {pa, pb, pc, pn};
  kernel(m, name, 4, params, block(2, decl(vi, global_id()), iff));
  return m;
}

static KExpr *op_add(KExpr *a, KExpr *b) {
  return bin(KB_ADD, T(KT_F32), a, b);
}
static KExpr *op_muladd(KExpr *a, KExpr *b) {
  return bin(KB_ADD, T(KT_F32), bin(KB_MUL, T(KT_F32), a, b), fconst(T(KT_F32), 2.0));
}
static KExpr *op_sin(KExpr *a, KExpr *b) {
  (void)b;
  return builtin(BI_SIN, T(KT_F32), 1, a);
}

/* ---------------------------------------------------------------- running the back end */

typedef struct Out {
  bool ok;
  char *text;  /* the emitted IR or PTX (malloc'd) */
  char *diags; /* what went to stderr (malloc'd) */
} Out;

static Out run(KModule *m, const KOptions *o, bool ptx) {
  char path[256];
  snprintf(path, sizeof path, "%s/stderr.XXXXXX", tu_tmpdir());
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  diag_reset();
  KBuf b = {0};
  Out r;
  r.ok = ptx ? emit_ptx(m, o, &b) : emit_llvm_ir(m, o, &b);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  kbuf_append(&b, "", 1);
  r.text = strdup(b.data);
  kbuf_free(&b);
  r.diags = tu_read(path, NULL);
  unlink(path);
  return r;
}

static void out_free(Out *r) {
  free(r->text);
  free(r->diags);
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

static bool have_libdevice(void) {
  const char *roots[] = {getenv("CUDA_PATH"), getenv("CUDA_HOME"), "/usr/local/cuda"};
  for (int i = 0; i < 3; i++) {
    if (!roots[i]) continue;
    char p[512];
    snprintf(p, sizeof p, "%s/nvvm/libdevice/libdevice.10.bc", roots[i]);
    if (access(p, R_OK) == 0) return true;
  }
  return false;
}

/* ---------------------------------------------------------------- tests */

START_TEST(kernel_is_ptx_entry) {
  KModule *m = elementwise("vecadd", op_add);
  KOptions o;
  kcc_options_default(&o);
  o.archs[0] = 90;
  Out ir = run(m, &o, false);
  ck_assert_msg(ir.ok, "%s", ir.diags);
  ck_assert_ptr_nonnull(strstr(ir.text, "target triple = \"nvptx64-nvidia-cuda\""));
  ck_assert_ptr_nonnull(strstr(ir.text, "define ptx_kernel void @vecadd("));
  /* const restrict: noalias + readonly, so NVPTX may use the read-only path */
  ck_assert_ptr_nonnull(strstr(ir.text, "noalias"));
  ck_assert_ptr_nonnull(strstr(ir.text, "readonly %a"));
  Out ptx = run(m, &o, true);
  ck_assert_msg(ptx.ok, "%s", ptx.diags);
  ck_assert_ptr_nonnull(strstr(ptx.text, ".target sm_90"));
  ck_assert_ptr_nonnull(strstr(ptx.text, ".visible .entry vecadd("));
  ck_assert_ptr_nonnull(strstr(ptx.text, "ld.global.nc.f32"));
  ck_assert_ptr_nonnull(strstr(ptx.text, "st.global.f32"));
  ck_assert_str_eq(ptx.diags, "");
  out_free(&ir);
  out_free(&ptx);
  kir_free_all();
}
END_TEST

START_TEST(opt_levels) {
  KModule *m = elementwise("vecadd", op_add);
  KOptions o;
  kcc_options_default(&o);
  o.opt_level = 0;
  Out o0 = run(m, &o, false);
  o.opt_level = 3;
  Out o3 = run(m, &o, false);
  ck_assert_msg(o0.ok && o3.ok, "%s%s", o0.diags, o3.diags);
  ck_assert_int_gt(count(o0.text, "alloca"), 0); /* locals stay in memory at -O0 */
  ck_assert_int_eq(count(o3.text, "alloca"), 0);
  ck_assert_int_lt(strlen(o3.text), strlen(o0.text));
  out_free(&o0);
  out_free(&o3);
  kir_free_all();
}
END_TEST

START_TEST(fp_contract) {
  KModule *m = elementwise("muladd", op_muladd);
  KOptions o;
  kcc_options_default(&o);
  Out fast = run(m, &o, true);
  o.fp_contract = false;
  Out off = run(m, &o, true);
  ck_assert_msg(fast.ok && off.ok, "%s%s", fast.diags, off.diags);
  ck_assert_ptr_nonnull(strstr(fast.text, "fma.rn.f32"));
  ck_assert_ptr_null(strstr(off.text, "fma.rn.f32"));
  ck_assert_ptr_nonnull(strstr(off.text, "mul.rn.f32"));
  out_free(&fast);
  out_free(&off);
  kir_free_all();
}
END_TEST

/* printf("%d %f %ld %s %c\n", i, (double)x, (long)i, "s", 'c'): CUDA's vprintf takes the
 * arguments packed at natural alignment: { i32, double, i64, ptr, i32 }. */
START_TEST(printf_packing) {
  KModule *m = kir_module("t.k");
  KVar *vi = kir_var(m, "i", T(KT_I32), KV_LOCAL, L0);
  KExpr *call = builtin(BI_PRINTF, T(KT_I32), 6, str("%d %f %ld %s %c\n"), ref(vi),
                        cast(cast(ref(vi), T(KT_F32)), T(KT_F64)), cast(ref(vi), T(KT_I64)),
                        str("s"), kir_int(T(KT_I32), 'c', L0));
  kernel(m, "p", 0, NULL, block(2, decl(vi, global_id()), expr_stmt(call)));
  KOptions o;
  kcc_options_default(&o);
  o.opt_level = 0;
  Out ir = run(m, &o, false);
  ck_assert_msg(ir.ok, "%s", ir.diags);
  ck_assert_ptr_nonnull(strstr(ir.text, "alloca { i32, double, i64, ptr, i32 }, align 8"));
  ck_assert_ptr_nonnull(strstr(ir.text, "declare i32 @vprintf(ptr, ptr)"));
  ck_assert_ptr_nonnull(strstr(ir.text, "c\"%d %f %ld %s %c\\0A\\00\""));
  Out ptx = run(m, &o, true);
  ck_assert_msg(ptx.ok, "%s", ptx.diags);
  ck_assert_ptr_nonnull(strstr(ptx.text, "call.uni"));
  ck_assert_ptr_nonnull(strstr(ptx.text, "vprintf"));
  out_free(&ir);
  out_free(&ptx);
  kir_free_all();
}
END_TEST

/* A struct with padding: LLVM's layout must be the C layout the front end computed. */
START_TEST(struct_layout_matches) {
  KModule *m = kir_module("t.k");
  KStruct *st = kir_alloc(sizeof *st);
  st->name = "S";
  st->nfields = 3;
  st->fields = kir_alloc(3 * sizeof(KField));
  st->fields[0] = (KField){"c", T(KT_I8), 0, false};
  st->fields[1] = (KField){"d", T(KT_F64), 0, false};
  st->fields[2] = (KField){"s", T(KT_I16), 0, false};
  kir_struct_layout(st);
  klist_push(&m->structs, st);
  KType *S = kir_type_struct(st);
  KVar *ps = kir_var(m, "s", S, KV_PARAM, L0);
  KVar *out = kir_var(m, "out", P(T(KT_F64), KAS_GLOBAL), KV_PARAM, L0);
  KExpr *mem = kir_expr(KE_MEMBER, T(KT_F64), L0);
  mem->a = ref(ps);
  mem->field = 1;
  KVar *params[] = {ps, out};
  kernel(m, "k", 2, params, block(1, assign(idx(ref(out), kir_int(T(KT_I32), 0, L0)), mem)));
  KOptions o;
  kcc_options_default(&o);
  Out ir = run(m, &o, false);
  ck_assert_msg(ir.ok, "%s", ir.diags);
  ck_assert_ptr_nonnull(strstr(ir.text, "%struct.S = type { i8, double, i16 }"));
  Out ptx = run(m, &o, true);
  ck_assert_msg(ptx.ok, "%s", ptx.diags);
  ck_assert_ptr_nonnull(strstr(ptx.text, ".param .align 8 .b8 k_param_0[24]"));
  ck_assert_ptr_nonnull(strstr(ptx.text, "[k_param_0+8]"));
  out_free(&ir);
  out_free(&ptx);
  kir_free_all();
}
END_TEST

START_TEST(libdevice_missing) {
  KModule *m = elementwise("sines", op_sin);
  char dir[256];
  snprintf(dir, sizeof dir, "%s/nocuda", tu_tmpdir());
  mkdir(dir, 0755);
  KOptions o;
  kcc_options_default(&o);
  o.cuda_path = dir;
  Out r = run(m, &o, true);
  ck_assert(!r.ok);
  ck_assert_str_eq(r.text, "");
  char want[1024];
  snprintf(want, sizeof want,
           "kcc: error: 'sinf' needs CUDA's libdevice, which was not found (looked for "
           "%s/nvvm/libdevice/libdevice.10.bc); point --cuda-path=DIR, CUDA_PATH or "
           "CUDA_HOME at a CUDA toolkit\n",
           dir);
  ck_assert_str_eq(r.diags, want);
  out_free(&r);
  /* A file that is not bitcode: a clean error, not LLVM exiting the process. */
  char sub[512];
  snprintf(sub, sizeof sub, "%s/nvvm", dir);
  mkdir(sub, 0755);
  snprintf(sub, sizeof sub, "%s/nvvm/libdevice", dir);
  mkdir(sub, 0755);
  snprintf(sub, sizeof sub, "%s/nvvm/libdevice/libdevice.10.bc", dir);
  FILE *f = fopen(sub, "w");
  ck_assert_ptr_nonnull(f);
  fputs("not bitcode\n", f);
  fclose(f);
  KModule *m3 = elementwise("sines", op_sin);
  Out bad = run(m3, &o, true);
  ck_assert(!bad.ok);
  ck_assert_str_eq(bad.text, "");
  ck_assert_msg(strstr(bad.diags, "is not a valid LLVM bitcode file"), "%s", bad.diags);
  ck_assert_int_eq(count(bad.diags, "error:"), 1);
  out_free(&bad);
  unlink(sub);
  /* Kernels without transcendental math do not need the toolkit at all. */
  KModule *m2 = elementwise("vecadd", op_add);
  Out ok = run(m2, &o, true);
  ck_assert_msg(ok.ok, "%s", ok.diags);
  out_free(&ok);
  kir_free_all();
}
END_TEST

START_TEST(libdevice_linked_and_pruned) {
  if (!have_libdevice()) return; /* nothing to link on this machine */
  KModule *m = elementwise("sines", op_sin);
  KOptions o;
  kcc_options_default(&o);
  Out ir = run(m, &o, false);
  ck_assert_msg(ir.ok, "%s", ir.diags);
  ck_assert_ptr_null(strstr(ir.text, "@__nv_cosf")); /* unused libdevice code is gone */
  ck_assert_ptr_null(strstr(ir.text, "__nvvm_reflect"));
  ck_assert_ptr_null(strstr(ir.text, "call float @__nv_sinf")); /* inlined */
  o.opt_level = 0;
  Out ptx = run(m, &o, true);
  ck_assert_msg(ptx.ok, "%s", ptx.diags);
  ck_assert_ptr_null(strstr(ptx.text, "__nv_cosf"));
  out_free(&ir);
  out_free(&ptx);
  kir_free_all();
}
END_TEST

/* constant int tab[4] = {1, -2, 3}; shared float buf[64]; extern shared float dyn[];
 * kernel void k(float *out) { buf[tid] = tab[tid & 3]; dyn[tid] = buf[63 - tid]; ... } */
START_TEST(globals) {
  KModule *m = kir_module("t.k");
  KType *i32 = T(KT_I32), *f32 = T(KT_F32);
  KVar *tab = kir_var(m, "tab", kir_type_array(i32, 4), KV_CONSTANT, L0);
  KExpr *il = kir_expr(KE_INITLIST, tab->type, L0);
  il->nargs = 3;
  il->args = kir_alloc(3 * sizeof(KExpr *));
  il->args[0] = kir_int(i32, 1, L0);
  il->args[1] = kir_expr(KE_UNARY, i32, L0); /* -2, as the front end may leave it */
  il->args[1]->op = KU_NEG;
  il->args[1]->a = kir_int(i32, 2, L0);
  il->args[2] = kir_int(i32, 3, L0);
  tab->init = il;
  KVar *buf = kir_var(m, "buf", kir_type_array(f32, 64), KV_SHARED, L0);
  KVar *dyn = kir_var(m, "dyn", kir_type_array(f32, -1), KV_SHARED, L0);
  dyn->is_dynamic = true;
  klist_push(&m->globals, tab);
  klist_push(&m->globals, buf);
  klist_push(&m->globals, dyn);
  KExpr *t3 = bin(KB_AND, T(KT_U32), special(BI_THREAD_IDX, 0), kir_int(T(KT_U32), 3, L0));
  KExpr *rd = cast(idx(cast(ref(tab), P(i32, KAS_CONSTANT)), t3), f32);
  KExpr *back = bin(KB_SUB, T(KT_U32), kir_int(T(KT_U32), 63, L0), special(BI_THREAD_IDX, 0));
  KVar *out = kir_var(m, "out", P(f32, KAS_GLOBAL), KV_PARAM, L0);
  KVar *params[] = {out};
  kernel(m, "k", 1, params,
         block(4, assign(idx(cast(ref(buf), P(f32, KAS_SHARED)), special(BI_THREAD_IDX, 0)), rd),
               expr_stmt(builtin(BI_SYNCTHREADS, kir_type_void(), 0)),
               assign(idx(cast(ref(dyn), P(f32, KAS_SHARED)), special(BI_THREAD_IDX, 0)),
                      idx(cast(ref(buf), P(f32, KAS_SHARED)), back)),
               assign(idx(ref(out), special(BI_THREAD_IDX, 0)),
                      idx(cast(ref(dyn), P(f32, KAS_SHARED)), kir_int(i32, 0, L0)))));
  KOptions o;
  kcc_options_default(&o);
  o.archs[0] = 90;
  Out ir = run(m, &o, false);
  ck_assert_msg(ir.ok, "%s", ir.diags);
  ck_assert_ptr_nonnull(
      strstr(ir.text, "addrspace(4) constant [4 x i32] [i32 1, i32 -2, i32 3, i32 0], align 4"));
  ck_assert_ptr_nonnull(
      strstr(ir.text, "@buf = internal unnamed_addr addrspace(3) global [64 x float]"));
  ck_assert_ptr_nonnull(strstr(ir.text, "@dyn = external"));
  ck_assert_ptr_nonnull(strstr(ir.text, "addrspace(3) global [0 x float], align 16"));
  ck_assert_ptr_nonnull(strstr(ir.text, "call void @llvm.nvvm.barrier0()"));
  Out ptx = run(m, &o, true);
  ck_assert_msg(ptx.ok, "%s", ptx.diags);
  ck_assert_ptr_nonnull(strstr(ptx.text, ".extern .shared .align 16 .b8 dyn[];"));
  ck_assert_ptr_nonnull(strstr(
      ptx.text, ".visible .const .align 4 .b8 tab[16] = {1, 0, 0, 0, 254, 255, 255, 255, 3"));
  ck_assert_ptr_nonnull(strstr(ptx.text, "bar.sync"));
  ck_assert_ptr_nonnull(strstr(ptx.text, "ld.const."));
  out_free(&ir);
  out_free(&ptx);
  kir_free_all();
}
END_TEST

/* ---------------------------------------------------------------- vectors */

/* Fails when text lacks (or has) needle; the text goes to stderr, not into the message. */
static void expect_(const char *text, const char *needle, bool want, int line) {
  if ((strstr(text, needle) != NULL) == want) return;
  fprintf(stderr, "---- line %d: %s '%s' in:\n%s\n----\n", line, want ? "no" : "unwanted", needle,
          text);
  ck_abort_msg("line %d: %s '%s'", line, want ? "missing" : "unwanted", needle);
}
#define expect(text, needle)     expect_(text, needle, true, __LINE__)
#define expect_not(text, needle) expect_(text, needle, false, __LINE__)

static KType *V(KTypeKind k, int n) {
  return kir_type_vec(T(k), n);
}

/* e.<comps>, comps as digits/letters 0-9a-f (".s" spelling) or xyzw. */
static KExpr *swz(KExpr *a, const char *comps) {
  int n = (int)strlen(comps);
  KExpr *e = kir_expr(KE_SWIZZLE, n == 1 ? a->type->base : kir_type_vec(a->type->base, n), L0);
  e->a = a;
  e->nswz = n;
  for (int i = 0; i < n; i++) {
    const char *p = strchr("xyzw", comps[i]);
    e->swz[i] =
        (uint8_t)(p ? p - "xyzw" : strchr("0123456789abcdef", comps[i]) - "0123456789abcdef");
  }
  return e;
}

static KExpr *veclit(KType *t, int n, ...) {
  KExpr *e = kir_expr(KE_VECLIT, t, L0);
  e->nargs = n;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(n + 1));
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) e->args[i] = va_arg(ap, KExpr *);
  va_end(ap);
  return e;
}

static KExpr *bitcast(KExpr *a, KType *t) {
  KExpr *e = kir_expr(KE_BITCAST, t, L0);
  e->a = a;
  return e;
}

static KExpr *splat(KExpr *a, KType *vt) {
  return cast(a, vt);
}

static KExpr *op_assign(KOp op, KExpr *a, KExpr *b) {
  KExpr *e = kir_expr(KE_ASSIGN, a->type, L0);
  e->op = op;
  e->a = a;
  e->b = b;
  e->optype = a->type;
  return e;
}

static KExpr *incdec(KOp op, KExpr *a) {
  KExpr *e = kir_expr(KE_INCDEC, a->type, L0);
  e->op = op;
  e->a = a;
  return e;
}

static KExpr *member(KExpr *a, int field) {
  KExpr *e = kir_expr(KE_MEMBER, a->type->st->fields[field].type, L0);
  e->a = a;
  e->field = field;
  return e;
}

static KExpr *tid(void) {
  return cast(special(BI_THREAD_IDX, 0), T(KT_I32));
}

/* Runs ptxas on the PTX when it is installed (PATH or /usr/local/cuda/bin). */
static void check_ptxas(const char *ptx, const char *arch) {
  const char *ptxas = NULL;
  char out[512];
  if (tu_sh("command -v ptxas >/dev/null 2>&1", NULL, NULL) == 0)
    ptxas = "ptxas";
  else if (access("/usr/local/cuda/bin/ptxas", X_OK) == 0)
    ptxas = "/usr/local/cuda/bin/ptxas";
  if (!ptxas) return;
  static int n;
  char name[64];
  snprintf(name, sizeof name, "vec%d.ptx", n++);
  char *path = tu_write(name, ptx);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s -arch=%s %s -o %s.cubin", ptxas, arch, path, path);
  char *err = NULL;
  int rc = tu_sh(cmd, NULL, &err);
  snprintf(out, sizeof out, "%s", err ? err : "");
  free(err);
  ck_assert_msg(rc == 0, "ptxas failed: %s", out);
}

/* Compiles m at -O3 and -O0 to IR and PTX; every PTX through ptxas. Returns the -O3 IR
 * (malloc'd) and, in *ptx_out, the -O3 PTX (malloc'd). */
static char *compile_all(KModule *m, char **ptx_out, char **ir0_out) {
  KOptions o;
  kcc_options_default(&o);
  o.archs[0] = 90;
  char *ir = NULL;
  for (int ol = 3; ol >= 0; ol -= 3) {
    o.opt_level = ol;
    Out r = run(m, &o, false);
    ck_assert_msg(r.ok, "-O%d IR: %s", ol, r.diags);
    ck_assert_msg(!*r.diags, "-O%d IR: %s", ol, r.diags);
    Out p = run(m, &o, true);
    ck_assert_msg(p.ok, "-O%d PTX: %s", ol, p.diags);
    check_ptxas(p.text, "sm_90");
    if (ol == 3) {
      ir = r.text;
      r.text = NULL;
      *ptx_out = p.text;
      p.text = NULL;
    } else if (ir0_out) {
      *ir0_out = r.text;
      r.text = NULL;
    }
    out_free(&r);
    out_free(&p);
  }
  return ir;
}

/* LLVM's layout of the vector types is KIR's (OpenCL's): 3-vectors take 4 slots. */
START_TEST(vec_layout) {
  KModule *m = kir_module("t.k");
  KStruct *st = kir_alloc(sizeof *st);
  st->name = "P";
  st->nfields = 4;
  st->fields = kir_alloc(4 * sizeof(KField));
  st->fields[0] = (KField){"c", T(KT_I8), 0, false};
  st->fields[1] = (KField){"pos", V(KT_F32, 3), 0, false};
  st->fields[2] = (KField){"h", V(KT_I16, 3), 0, false};
  st->fields[3] = (KField){"d", V(KT_F64, 2), 0, false};
  kir_struct_layout(st);
  /* every vector type as a kernel parameter: lg_type checks LLVM's layout against KIR's */
  KTypeKind elems[] = {KT_I8, KT_U16, KT_I32, KT_U64, KT_F32, KT_F64};
  int lens[] = {2, 3, 4, 8, 16};
  KVar *all[30];
  int na = 0;
  for (int e = 0; e < 6; e++)
    for (int l = 0; l < 5; l++) all[na++] = kir_var(m, "v", V(elems[e], lens[l]), KV_PARAM, L0);
  kernel(m, "every_vector", na, all, block(0));
  ck_assert_int_eq(st->fields[1].offset, 16);
  ck_assert_int_eq(st->fields[2].offset, 32);
  ck_assert_int_eq(st->fields[3].offset, 48);
  ck_assert_int_eq(st->size, 64);
  klist_push(&m->structs, st);
  KType *S = kir_type_struct(st);
  /* kernel k(global P *p, float3 v, char3 c) { p[tid].pos = v; p[tid].h.z = (short)c.y;
   *   p[tid].pos.zx += v.xy; } */
  KVar *pp = kir_var(m, "p", P(S, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pv = kir_var(m, "v", V(KT_F32, 3), KV_PARAM, L0);
  KVar *pc = kir_var(m, "c", V(KT_I8, 3), KV_PARAM, L0);
  KVar *params[] = {pp, pv, pc};
  KExpr *zx = swz(member(idx(ref(pp), tid()), 1), "zx");
  kernel(m, "k", 3, params,
         block(3, assign(member(idx(ref(pp), tid()), 1), ref(pv)),
               assign(swz(member(idx(ref(pp), tid()), 2), "z"), cast(swz(ref(pc), "y"), T(KT_I16))),
               expr_stmt(op_assign(KB_ADD, zx, swz(ref(pv), "xy")))));
  char *ptx = NULL;
  char *ir = compile_all(m, &ptx, NULL);
  /* no explicit padding needed: LLVM lays <3 x float> out in 16 bytes, aligned to 16 */
  expect(ir, "%struct.P = type { i8, <3 x float>, <3 x i16>, <2 x double> }");
  expect(ptx, ".param .align 16 .b8 k_param_1[16]");
  expect(ptx, ".param .align 4 .b8 k_param_2[4]");
  free(ir);
  free(ptx);
  kir_free_all();
}
END_TEST

/* Arithmetic, comparisons (masks), swizzles as lvalues (of swizzles, members, elements),
 * vector literals, splats, conversions and bitcasts. */
START_TEST(vec_expressions) {
  KModule *m = kir_module("t.k");
  KType *f4 = V(KT_F32, 4), *i4 = V(KT_I32, 4), *f3 = V(KT_F32, 3), *f2 = V(KT_F32, 2);
  KType *f32 = T(KT_F32), *i32 = T(KT_I32);
  KVar *pa = kir_var(m, "a", P(f4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pm = kir_var(m, "mask", P(i4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *p3 = kir_var(m, "f3", P(f3, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pi = kir_var(m, "ib", P(i4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *ps = kir_var(m, "s", f32, KV_PARAM, L0);
  KVar *vb = kir_var(m, "b", f4, KV_LOCAL, L0);
  KVar *vc = kir_var(m, "c", f2, KV_LOCAL, L0);
  KVar *vu = kir_var(m, "u", V(KT_U8, 4), KV_LOCAL, L0);
  KExpr *ai = idx(ref(pa), tid());
  /* b = a[i] * a[i] + (float4)s */
  KStmt *s1 =
      decl(vb, bin(KB_ADD, f4, bin(KB_MUL, f4, ai, idx(ref(pa), tid())), splat(ref(ps), f4)));
  /* mask[i] = b < a[i] */
  KStmt *s2 = assign(idx(ref(pm), tid()), bin(KB_LT, i4, ref(vb), idx(ref(pa), tid())));
  /* a[i].wx = b.xy; a[i].y += 1; a[i].zy.x++ (= a[i].z++); -b */
  KStmt *s3 = assign(swz(idx(ref(pa), tid()), "wx"), swz(ref(vb), "xy"));
  KStmt *s4 = expr_stmt(op_assign(KB_ADD, swz(idx(ref(pa), tid()), "y"), fconst(f32, 1.0)));
  KStmt *s5 = expr_stmt(incdec(KU_POSTINC, swz(swz(idx(ref(pa), tid()), "zy"), "x")));
  /* c = (float2)(s, b.w); f3[i] = (float3)(c, s) * -b.xyz */
  KStmt *s6 = decl(vc, veclit(f2, 2, ref(ps), swz(ref(vb), "w")));
  KExpr *neg = kir_expr(KE_UNARY, f3, L0);
  neg->op = KU_NEG;
  neg->a = swz(ref(vb), "xyz");
  KStmt *s7 = assign(idx(ref(p3), tid()), bin(KB_MUL, f3, veclit(f3, 2, ref(vc), ref(ps)), neg));
  /* ib[i] = as_int4(f3[i]); ib[i] = (ib[i] >> 3) ^ ~(int4)b; u = (uchar4) ib[i]; ib[i].x = u.w */
  KStmt *s8 = assign(idx(ref(pi), tid()), bitcast(idx(ref(p3), tid()), i4));
  KExpr *nt = kir_expr(KE_UNARY, i4, L0);
  nt->op = KU_NOT;
  nt->a = cast(ref(vb), i4);
  KStmt *s9 =
      assign(idx(ref(pi), tid()),
             bin(KB_XOR, i4, bin(KB_SHR, i4, idx(ref(pi), tid()), kir_int(i32, 3, L0)), nt));
  KStmt *s10 = decl(vu, cast(idx(ref(pi), tid()), V(KT_U8, 4)));
  KStmt *s11 = assign(swz(idx(ref(pi), tid()), "x"), cast(swz(ref(vu), "w"), i32));
  /* f3[i] = as_float3(ib[i]); a[i] += (float4)(f3[i].zz, 1.0f, 2.0f); ib[i]++ */
  KStmt *s12 = assign(idx(ref(p3), tid()), bitcast(idx(ref(pi), tid()), f3));
  KStmt *s13 = expr_stmt(
      op_assign(KB_ADD, idx(ref(pa), tid()),
                veclit(f4, 3, swz(idx(ref(p3), tid()), "zz"), fconst(f32, 1.0), fconst(f32, 2.0))));
  KStmt *s14 = expr_stmt(incdec(KU_PREINC, idx(ref(pi), tid())));
  KVar *params[] = {pa, pm, p3, pi, ps};
  kernel(m, "k", 5, params, block(14, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14));
  char *ptx = NULL, *ir0 = NULL;
  char *ir = compile_all(m, &ptx, &ir0);
  expect(ir0, "olt <4 x float>");
  expect(ir0, "sext <4 x i1>");
  expect(ir0, "shufflevector");
  expect(ir0, "bitcast <4 x float>");
  expect(ir0, "ashr <4 x i32>");
  expect(ir0, "fptosi <4 x float>");
  expect(ir0, "trunc <4 x i32>");
  expect(ptx, "ld.global.v4.f32");
  free(ir);
  free(ir0);
  free(ptx);
  kir_free_all();
}
END_TEST

static KFunc *devfunc(KModule *m, const char *name, KType *ret, int np, KVar **params,
                      KStmt *body) {
  KFunc *f = kernel(m, name, np, params, body);
  f->is_kernel = false;
  f->ret = ret;
  return f;
}

static KExpr *call(KFunc *f, KType *t, int n, ...) {
  KExpr *e = kir_expr(KE_CALL, t, L0);
  e->callee = f;
  e->nargs = n;
  e->args = kir_alloc(sizeof(KExpr *) * (size_t)(n + 1));
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) e->args[i] = va_arg(ap, KExpr *);
  va_end(ap);
  return e;
}

/* The OpenCL builtins on vectors, a device function returning a vector, constant vector
 * data. */
START_TEST(vec_builtins) {
  KModule *m = kir_module("t.k");
  KType *f4 = V(KT_F32, 4), *i4 = V(KT_I32, 4), *u4 = V(KT_U32, 4), *f3 = V(KT_F32, 3);
  KType *l2 = V(KT_I64, 2), *c4 = V(KT_U8, 4), *d2 = V(KT_F64, 2), *f32 = T(KT_F32);
  KType *i64 = T(KT_I64);
  /* constant float4 tab[2] = {{1, 2, 3, 4}, {5, 6}}; constant float3 t3 = {7, 8, 9}; */
  KVar *tab = kir_var(m, "tab", kir_type_array(f4, 2), KV_CONSTANT, L0);
  KExpr *il = kir_expr(KE_INITLIST, tab->type, L0);
  il->nargs = 2;
  il->args = kir_alloc(2 * sizeof(KExpr *));
  for (int r = 0; r < 2; r++) {
    KExpr *row = kir_expr(KE_INITLIST, f4, L0);
    row->nargs = r ? 2 : 4;
    row->args = kir_alloc(4 * sizeof(KExpr *));
    for (int i = 0; i < row->nargs; i++) row->args[i] = fconst(f32, 1 + 4 * r + i);
    il->args[r] = row;
  }
  tab->init = il;
  KVar *t3 = kir_var(m, "t3", f3, KV_CONSTANT, L0);
  t3->init = veclit(f3, 3, fconst(f32, 7), fconst(f32, 8), fconst(f32, 9));
  klist_push(&m->globals, tab);
  klist_push(&m->globals, t3);
  /* float4 twice(float4 x) { return x + x; } */
  KVar *px = kir_var(m, "x", f4, KV_PARAM, L0);
  KStmt *ret = kir_stmt(KS_RETURN, L0);
  ret->expr = bin(KB_ADD, f4, ref(px), ref(px));
  KVar *dp[] = {px};
  KFunc *twice = devfunc(m, "twice", f4, 1, dp, block(1, ret));
  KVar *pf = kir_var(m, "f", P(f4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pi = kir_var(m, "iv", P(i4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pu = kir_var(m, "uv", P(u4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pl = kir_var(m, "lv", P(l2, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pc = kir_var(m, "cv", P(c4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pd = kir_var(m, "dv", P(d2, KAS_GLOBAL), KV_PARAM, L0);
  KVar *ps = kir_var(m, "fs", P(f32, KAS_GLOBAL), KV_PARAM, L0);
  KExpr *fi = idx(ref(pf), tid());
#define F()  idx(ref(pf), tid())
#define I()  idx(ref(pi), tid())
#define U()  idx(ref(pu), tid())
#define LL() idx(ref(pl), tid())
  KStmt *st[] = {
      /* f = sqrt(f) + sin(f) + fmax(f, tab[1]) + twice(t3.xyzz) */
      assign(fi,
             bin(KB_ADD, f4,
                 bin(KB_ADD, f4, builtin(BI_SQRT, f4, 1, F()), builtin(BI_SIN, f4, 1, F())),
                 bin(KB_ADD, f4,
                     builtin(BI_FMAX, f4, 2, F(),
                             idx(cast(ref(tab), P(f4, KAS_CONSTANT)), kir_int(T(KT_I32), 1, L0))),
                     call(twice, f4, 1, swz(ref(t3), "xyzz"))))),
      /* iv = isnan(f) | select(iv, iv + 1, iv) | select(iv, -iv, 1) */
      assign(I(), bin(KB_OR, i4, builtin(BI_ISNAN, i4, 1, F()),
                      builtin(BI_SELECT, i4, 3, I(),
                              bin(KB_ADD, i4, I(), splat(kir_int(T(KT_I32), 1, L0), i4)), I()))),
      assign(F(),
             builtin(BI_SELECT, f4, 3, F(), splat(fconst(f32, 0), f4), kir_int(T(KT_I32), 1, L0))),
      /* uv = popcount(uv) + clz(uv) + abs(iv) + mul_hi(uv, uv) */
      assign(
          U(),
          bin(KB_ADD, u4,
              bin(KB_ADD, u4, builtin(BI_POPCOUNT, u4, 1, U()), builtin(BI_CLZ, u4, 1, U())),
              bin(KB_ADD, u4, builtin(BI_ABS, u4, 1, I()), builtin(BI_MUL_HI, u4, 2, U(), U())))),
      /* lv = mul_hi(lv, lv) + min(lv, lv) + convert_long2_sat(dv) */
      assign(LL(), bin(KB_ADD, l2, builtin(BI_MUL_HI, l2, 2, LL(), LL()),
                       bin(KB_ADD, l2, builtin(BI_MIN, l2, 2, LL(), LL()),
                           builtin(BI_CONVERT_SAT, l2, 1, idx(ref(pd), tid()))))),
      /* cv = convert_uchar4_sat(iv) + convert_uchar4_sat(f) */
      assign(idx(ref(pc), tid()), bin(KB_ADD, c4, builtin(BI_CONVERT_SAT, c4, 1, I()),
                                      builtin(BI_CONVERT_SAT, c4, 1, F()))),
      /* iv = convert_int4_sat(uv); */
      assign(I(), builtin(BI_CONVERT_SAT, i4, 1, U())),
      /* vstore3(vload3(tid, fs) * 2, tid + 1, fs) */
      expr_stmt(builtin(BI_VSTORE, kir_type_void(), 3,
                        bin(KB_MUL, f3, builtin(BI_VLOAD, f3, 2, cast(tid(), i64), ref(ps)),
                            splat(fconst(f32, 2), f3)),
                        cast(bin(KB_ADD, T(KT_I32), tid(), kir_int(T(KT_I32), 1, L0)), i64),
                        ref(ps))),
      /* dv = exp(dv) */
      assign(idx(ref(pd), tid()), builtin(BI_EXP, d2, 1, idx(ref(pd), tid()))),
  };
#undef F
#undef I
#undef U
#undef LL
  KStmt *body = kir_stmt(KS_BLOCK, L0);
  for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) klist_push(&body->list, st[i]);
  KVar *params[] = {pf, pi, pu, pl, pc, pd, ps};
  kernel(m, "k", 7, params, body);
  char *ptx = NULL, *ir0 = NULL;
  char *ir = compile_all(m, &ptx, &ir0);
  expect(ir0, "<4 x float> <float 1.000000e+00, float 2.000000e+00, float "
              "3.000000e+00, float 4.000000e+00>, <4 x float> <float 5.000000e+00, "
              "float 6.000000e+00, float 0.000000e+00, float 0.000000e+00>");
  expect(ir0, "@t3 = addrspace(4) constant <3 x float> <float 7.0");
  expect(ir0, "call i32 @llvm.ctpop.i32");
  expect(ir0, "call i32 @llvm.ctlz.i32(i32 %");
  expect(ir0, "@llvm.fptosi.sat.i64.f64");
  expect(ir0, "@llvm.fptoui.sat.i8.f32");
  expect(ir0, "load <3 x float>, ptr addrspace(1) %");
  expect(ir0, "icmp slt <4 x i32>");
  expect(ir0, "mul i128");
  expect(ptx, "mul.hi.u32");
  expect(ptx, "mul.hi.s64");
  expect(ptx, "popc.b32");
  expect(ptx, "clz.b32");
  free(ir);
  free(ir0);
  free(ptx);
  kir_free_all();
}
END_TEST

/* kernel k(shared float *tmp, global float *out) [reqd_work_group_size(64, 2, 1)]:
 * the local-memory parameter is a 32-bit offset into the dynamic shared memory. */
static KModule *local_param_module(bool with_dyn, int max_threads) {
  KModule *m = kir_module("t.k");
  KType *f32 = T(KT_F32);
  KVar *dyn = NULL;
  if (with_dyn) {
    dyn = kir_var(m, "dyn", kir_type_array(f32, -1), KV_SHARED, L0);
    dyn->is_dynamic = true;
    klist_push(&m->globals, dyn);
  }
  KVar *tmp = kir_var(m, "tmp", P(f32, KAS_SHARED), KV_PARAM, L0);
  KVar *out = kir_var(m, "out", P(f32, KAS_GLOBAL), KV_PARAM, L0);
  KExpr *rd = idx(ref(tmp), bin(KB_XOR, T(KT_I32), tid(), kir_int(T(KT_I32), 1, L0)));
  if (dyn) rd = bin(KB_ADD, f32, rd, idx(cast(ref(dyn), P(f32, KAS_SHARED)), tid()));
  KVar *params[] = {tmp, out};
  KFunc *f = kernel(m, "k", 2, params,
                    block(3, assign(idx(ref(tmp), tid()), cast(tid(), f32)),
                          expr_stmt(builtin(BI_SYNCTHREADS, kir_type_void(), 0)),
                          assign(idx(ref(out), tid()), rd)));
  f->reqd_block[0] = 64;
  f->reqd_block[1] = 2;
  f->reqd_block[2] = 1;
  f->max_threads = max_threads;
  f->min_blocks = max_threads ? 2 : 0;
  return m;
}

START_TEST(local_params_and_reqntid) {
  for (int v = 0; v < 3; v++) {
    KModule *m = local_param_module(v == 1, v == 2 ? 128 : 0);
    char *ptx = NULL;
    char *ir = compile_all(m, &ptx, NULL);
    expect(ptx, ".param .u32 k_param_0");
    expect(ptx, ".reqntid 64, 2, 1");
    if (v == 1) {
      expect(ptx, ".extern .shared .align 16 .b8 dyn[];");
      expect_not(ptx, "__kcc_local_args");
    } else {
      expect(ptx, ".extern .shared .align 16 .b8 __kcc_local_args[];");
    }
    expect_not(ptx, ".maxntid"); /* ptxas refuses it next to .reqntid */
    if (v == 2) expect(ptx, ".minnctapersm 2");
    expect(ptx, "st.shared.f32");
    expect(ptx, "ld.shared.f32");
    free(ir);
    free(ptx);
    kir_free_all();
  }
}
END_TEST

/* The kernel tests/unit/vec_gpu_check.c runs on a GPU and checks against its own host
 * reference (keep the two in step): one block of 64 threads, reqd_work_group_size(64,1,1),
 *
 * kernel vcheck(float4 *f4, int4 *i4, float3 *f3, int4 *i4b, float *fs, uint4 *u,
 *               uint4 *uo, long2 *l, long2 *lo, float4 *fo, shared float *tmp, float3 p3) {
 *   int i = tid;
 *   float4 a = f4[i];
 *   float4 b = a * a + (float4)p3.z;
 *   i4[i] = a < b;
 *   f4[i].wx = b.xy; f4[i].y += 1.0f; f4[i].zy.x++;
 *   f3[i] = (float3)(a.wz, p3.y);
 *   i4b[i] = as_int4(f3[i]);
 *   vstore3(vload3(i, fs) * 2.0f, i + 64, fs);
 *   uint4 U = u[i];
 *   uo[8i] = popcount(U); uo[8i+1] = clz(U); uo[8i+2] = mul_hi(U, U.yzwx);
 *   uo[8i+3] = abs(as_int4(U)); uo[8i+4] = as_uint4(convert_int4_sat(U));
 *   uo[8i+5] = select(U, U.wzyx, as_int4(U));
 *   uo[8i+6].x = as_uint(convert_uchar4_sat(as_int4(U)));
 *   uo[8i+6].y = as_uint(convert_uchar4_sat(a)); uo[8i+6].z = as_uint(convert_char4_sat(a));
 *   uo[8i+6].w = as_uint(convert_ushort2_sat(a.xy));  (ushort2 -> uint)
 *   uo[8i+7] = as_uint4(isnan(a));
 *   long2 L = l[i];
 *   lo[2i] = mul_hi(L, L.yx);
 *   lo[2i+1] = convert_long2_sat(convert_double2(a.xz) * (double2)1e10);
 *   tmp[i] = a.x; barrier(); i4b[i].w = (int)(tmp[i ^ 1] * 4.0f);
 *   fo[i] = sqrt(fabs(a)) + sin(a);
 * } */
static KModule *vcheck_module(void) {
  KModule *m = kir_module("vcheck.k");
  KType *f4 = V(KT_F32, 4), *i4 = V(KT_I32, 4), *f3 = V(KT_F32, 3), *u4 = V(KT_U32, 4);
  KType *l2 = V(KT_I64, 2), *f32 = T(KT_F32), *i32 = T(KT_I32), *u32 = T(KT_U32);
  KType *i64 = T(KT_I64), *d2 = V(KT_F64, 2);
  KVar *pf4 = kir_var(m, "f4", P(f4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pi4 = kir_var(m, "i4", P(i4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pf3 = kir_var(m, "f3", P(f3, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pi4b = kir_var(m, "i4b", P(i4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pfs = kir_var(m, "fs", P(f32, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pu = kir_var(m, "u", P(u4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *puo = kir_var(m, "uo", P(u4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pl = kir_var(m, "l", P(l2, KAS_GLOBAL), KV_PARAM, L0);
  KVar *plo = kir_var(m, "lo", P(l2, KAS_GLOBAL), KV_PARAM, L0);
  KVar *pfo = kir_var(m, "fo", P(f4, KAS_GLOBAL), KV_PARAM, L0);
  KVar *ptmp = kir_var(m, "tmp", P(f32, KAS_SHARED), KV_PARAM, L0);
  KVar *pp3 = kir_var(m, "p3", f3, KV_PARAM, L0);
  KVar *vi = kir_var(m, "i", i32, KV_LOCAL, L0);
  KVar *va = kir_var(m, "a", f4, KV_LOCAL, L0);
  KVar *vb = kir_var(m, "b", f4, KV_LOCAL, L0);
  KVar *vU = kir_var(m, "U", u4, KV_LOCAL, L0);
  KVar *vL = kir_var(m, "L", l2, KV_LOCAL, L0);
#define I        ref(vi)
#define K(n)     kir_int(i32, n, L0)
#define AT(p, e) idx(ref(p), e)
#define UO(n)    AT(puo, bin(KB_ADD, i32, bin(KB_MUL, i32, I, K(8)), K(n)))
  KStmt *st[] = {
      decl(vi, tid()),
      decl(va, AT(pf4, I)),
      decl(vb, bin(KB_ADD, f4, bin(KB_MUL, f4, ref(va), ref(va)), splat(swz(ref(pp3), "z"), f4))),
      assign(AT(pi4, I), bin(KB_LT, i4, ref(va), ref(vb))),
      assign(swz(AT(pf4, I), "wx"), swz(ref(vb), "xy")),
      expr_stmt(op_assign(KB_ADD, swz(AT(pf4, I), "y"), fconst(f32, 1.0))),
      expr_stmt(incdec(KU_POSTINC, swz(swz(AT(pf4, I), "zy"), "x"))),
      assign(AT(pf3, I), veclit(f3, 2, swz(ref(va), "wz"), swz(ref(pp3), "y"))),
      assign(AT(pi4b, I), bitcast(AT(pf3, I), i4)),
      expr_stmt(builtin(BI_VSTORE, kir_type_void(), 3,
                        bin(KB_MUL, f3, builtin(BI_VLOAD, f3, 2, cast(I, i64), ref(pfs)),
                            splat(fconst(f32, 2), f3)),
                        cast(bin(KB_ADD, i32, I, K(64)), i64), ref(pfs))),
      decl(vU, AT(pu, I)),
      assign(UO(0), builtin(BI_POPCOUNT, u4, 1, ref(vU))),
      assign(UO(1), builtin(BI_CLZ, u4, 1, ref(vU))),
      assign(UO(2), builtin(BI_MUL_HI, u4, 2, ref(vU), swz(ref(vU), "yzwx"))),
      assign(UO(3), builtin(BI_ABS, u4, 1, bitcast(ref(vU), i4))),
      assign(UO(4), bitcast(builtin(BI_CONVERT_SAT, i4, 1, ref(vU)), u4)),
      assign(UO(5), builtin(BI_SELECT, u4, 3, ref(vU), swz(ref(vU), "wzyx"), bitcast(ref(vU), i4))),
      assign(swz(UO(6), "x"),
             bitcast(builtin(BI_CONVERT_SAT, V(KT_U8, 4), 1, bitcast(ref(vU), i4)), u32)),
      assign(swz(UO(6), "y"), bitcast(builtin(BI_CONVERT_SAT, V(KT_U8, 4), 1, ref(va)), u32)),
      assign(swz(UO(6), "z"), bitcast(builtin(BI_CONVERT_SAT, V(KT_I8, 4), 1, ref(va)), u32)),
      assign(swz(UO(6), "w"),
             bitcast(builtin(BI_CONVERT_SAT, V(KT_U16, 2), 1, swz(ref(va), "xy")), u32)),
      assign(UO(7), bitcast(builtin(BI_ISNAN, i4, 1, ref(va)), u4)),
      decl(vL, AT(pl, I)),
      assign(AT(plo, bin(KB_MUL, i32, I, K(2))),
             builtin(BI_MUL_HI, l2, 2, ref(vL), swz(ref(vL), "yx"))),
      assign(AT(plo, bin(KB_ADD, i32, bin(KB_MUL, i32, I, K(2)), K(1))),
             builtin(BI_CONVERT_SAT, l2, 1,
                     bin(KB_MUL, d2, cast(swz(ref(va), "xz"), d2),
                         splat(fconst(T(KT_F64), 1e10), d2)))),
      assign(AT(ptmp, I), swz(ref(va), "x")),
      expr_stmt(builtin(BI_SYNCTHREADS, kir_type_void(), 0)),
      assign(swz(AT(pi4b, I), "w"),
             cast(bin(KB_MUL, f32, AT(ptmp, bin(KB_XOR, i32, I, K(1))), fconst(f32, 4.0)), i32)),
      assign(AT(pfo, I), bin(KB_ADD, f4, builtin(BI_SQRT, f4, 1, builtin(BI_FABS, f4, 1, ref(va))),
                             builtin(BI_SIN, f4, 1, ref(va)))),
  };
#undef I
#undef K
#undef AT
#undef UO
  KStmt *body = kir_stmt(KS_BLOCK, L0);
  for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) klist_push(&body->list, st[i]);
  KVar *params[] = {pf4, pi4, pf3, pi4b, pfs, pu, puo, pl, plo, pfo, ptmp, pp3};
  KFunc *f = kernel(m, "vcheck", 12, params, body);
  f->reqd_block[0] = 64;
  return m;
}

/* Compiles vcheck for ptxas; with KCC_VEC_PTX=FILE set, writes the -O3 sm_90 PTX there
 * (tests/unit/vec_gpu_check.c runs it). */
START_TEST(vec_gpu_kernel) {
  KModule *m = vcheck_module();
  char *ptx = NULL;
  char *ir = compile_all(m, &ptx, NULL);
  expect(ptx, ".reqntid 64, 1, 1");
  expect(ptx, ".param .u32 vcheck_param_10");
  expect(ptx, ".param .align 16 .b8 vcheck_param_11[16]");
  const char *out = getenv("KCC_VEC_PTX");
  if (out && *out) {
    FILE *f = fopen(out, "w");
    ck_assert_ptr_nonnull(f);
    fputs(ptx, f);
    fclose(f);
    KOptions o; /* and the -O0 PTX, as FILE.O0 */
    kcc_options_default(&o);
    o.archs[0] = 90;
    o.opt_level = 0;
    Out r = run(m, &o, true);
    ck_assert_msg(r.ok, "%s", r.diags);
    char path[1024];
    snprintf(path, sizeof path, "%s.O0", out);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(r.text, f);
    fclose(f);
    out_free(&r);
  }
  free(ir);
  free(ptx);
  kir_free_all();
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("llvm");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, kernel_is_ptx_entry);
  tcase_add_test(tc, opt_levels);
  tcase_add_test(tc, fp_contract);
  tcase_add_test(tc, printf_packing);
  tcase_add_test(tc, struct_layout_matches);
  tcase_add_test(tc, globals);
  tcase_add_test(tc, libdevice_missing);
  tcase_add_test(tc, libdevice_linked_and_pruned);
  tcase_add_test(tc, vec_layout);
  tcase_add_test(tc, vec_expressions);
  tcase_add_test(tc, vec_builtins);
  tcase_add_test(tc, local_params_and_reqntid);
  tcase_add_test(tc, vec_gpu_kernel);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return tu_main(suite());
}
