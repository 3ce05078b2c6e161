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
  st->fields[0] = (KField){"c", T(KT_I8), 0};
  st->fields[1] = (KField){"d", T(KT_F64), 0};
  st->fields[2] = (KField){"s", T(KT_I16), 0};
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
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return tu_main(suite());
}
