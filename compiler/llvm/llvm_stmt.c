/* llvm_stmt.c — KIR statements to LLVM basic blocks. Code after a jump (break, continue,
 * return) goes into a fresh block nothing branches to; llvm.c terminates such blocks and
 * the optimizer deletes them. */
#include "diag.h"
#include "llvm_gen.h"

#include <llvm-c/DebugInfo.h> /* LLVMTemporaryMDNode, for a loop's self-referential node */
#include <string.h>

static LLVMBasicBlockRef block(LG *g, const char *name) {
  return LLVMAppendBasicBlockInContext(g->ctx, g->fn, name);
}

/* Ends the current block with a branch to `to` unless it already ends in a jump. */
static void branch(LG *g, LLVMBasicBlockRef to) {
  if (lg_block_open(g)) LLVMBuildBr(g->b, to);
}

/* The loop's unrolling hint (KStmt.unroll) as llvm.loop metadata on its back edge `br`:
 * !{!self, !{!"llvm.loop.unroll.count", i32 N}} (or .disable / .full), which LLVM's unroller
 * follows instead of its heuristics, as nvcc follows #pragma unroll. */
void lg_loop_hint(LG *g, LLVMValueRef br, int unroll) {
  if (!unroll || !br || !LLVMIsABranchInst(br)) return;
  const char *name = unroll == -1   ? "llvm.loop.unroll.disable"
                     : unroll == -2 ? "llvm.loop.unroll.full"
                                    : "llvm.loop.unroll.count";
  LLVMMetadataRef hint[2] = {
      LLVMMDStringInContext2(g->ctx, name, strlen(name)),
      unroll > 0 ? LLVMValueAsMetadata(LLVMConstInt(g->t_i32, (unsigned long long)unroll, 0))
                 : NULL};
  LLVMMetadataRef self = LLVMTemporaryMDNode(g->ctx, NULL, 0);
  LLVMMetadataRef ops[2] = {self, LLVMMDNodeInContext2(g->ctx, hint, unroll > 0 ? 2 : 1)};
  LLVMMetadataRef node = LLVMMDNodeInContext2(g->ctx, ops, 2);
  LLVMMetadataReplaceAllUsesWith(self, node);
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(g->ctx, "llvm.loop", 9),
                  LLVMMetadataAsValue(g->ctx, node));
}

/* A small innermost `for` loop that steps its integer variable by a constant other than +-1
 * toward a bound known only at run time gets the hint "4 copies", as nvcc unrolls such loops
 * (cuda-samples' scalarProd: `for (j = first + t; j < end; j += 1024)`). NVPTX asks LLVM's
 * unroller for runtime unrolling, but LLVM computes such a loop's trip count with a division
 * and a max that cost more than its cheap-expansion budget (4), and keeps the loop rolled
 * (2.07x nvcc on bench/kernels/sprod.k); a count hint lifts that budget for this loop alone.
 * Raising the budget for every loop instead unrolled grid-stride loops behind a division
 * (histogram: 1.90x nvcc; docs/design.md). Unit strides are left to LLVM, which unrolls them;
 * a constant bound is left too, where LLVM unrolls fully. */
enum { STRIDE_UNROLL = 4, STRIDE_UNROLL_MAX_EXPRS = 48 };

/* An integer constant's value, sign-extended from its type's width where the type is signed. */
static int64_t iconst_value(const KExpr *e) {
  int bits = e->type->size * 8;
  uint64_t v = bits >= 64 ? e->ival : e->ival & ((1ull << bits) - 1);
  if (kir_is_signed(e->type) && bits < 64 && (v >> (bits - 1)) & 1) v |= ~0ull << bits;
  return (int64_t)v;
}

static void count_expr(KExpr *e, void *n) {
  (void)e;
  ++*(int *)n;
}

/* Whether s contains a loop (or a goto, which may make one). */
static bool has_loop(const KStmt *s) {
  if (!s) return false;
  switch (s->kind) {
  case KS_WHILE:
  case KS_DO:
  case KS_FOR:
  case KS_GOTO: return true;
  case KS_BLOCK:
    for (int i = 0; i < s->list.n; i++)
      if (has_loop(s->list.v[i])) return true;
    return false;
  case KS_IF: return has_loop(s->then) || has_loop(s->els);
  case KS_SWITCH: return has_loop(s->body);
  default: return false;
  }
}

static int stride_unroll(const KStmt *s) {
  const KExpr *st = s->step, *c = s->cond;
  if (s->unroll || !st || !c || st->kind != KE_ASSIGN || (st->op != KB_ADD && st->op != KB_SUB) ||
      st->a->kind != KE_VAR || !kir_is_int(st->a->type))
    return s->unroll;
  const KExpr *k = kir_strip_casts(st->b);
  if (!k || k->kind != KE_ICONST || (iconst_value(k) >= -1 && iconst_value(k) <= 1)) return 0;
  c = kir_strip_casts(c);
  if (c->kind != KE_BINARY || c->op < KB_LT || c->op > KB_GE) return 0;
  const KExpr *l = kir_strip_casts(c->a), *r = kir_strip_casts(c->b);
  const KExpr *bound = l->kind == KE_VAR && l->var == st->a->var   ? r
                       : r->kind == KE_VAR && r->var == st->a->var ? l
                                                                   : NULL;
  if (!bound || bound->kind == KE_ICONST || has_loop(s->body) || kir_may_write(s->body, st->a->var))
    return 0;
  int n = 0;
  kir_visit_stmt(s->body, count_expr, &n);
  return n <= STRIDE_UNROLL_MAX_EXPRS ? STRIDE_UNROLL : 0;
}

/* branch() to the loop's header, with its hint on the branch when it is the back edge. */
static void back_edge(LG *g, LLVMBasicBlockRef to, int unroll) {
  bool open = lg_block_open(g);
  branch(g, to);
  if (open) lg_loop_hint(g, LLVMGetLastInstruction(LLVMGetInsertBlock(g->b)), unroll);
}

/* A goto target's block, made at its first goto or at the label (kir_reset_labels cleared
 * what another back end left in aux). */
static LLVMBasicBlockRef label_block(LG *g, KStmt *label) {
  if (!label->aux) label->aux = block(g, label->label);
  return label->aux;
}

static void jump(LG *g, LLVMBasicBlockRef to) {
  branch(g, to);
  LLVMPositionBuilderAtEnd(g->b, block(g, "after.jump"));
}

static void loop_body(LG *g, KStmt *body, LLVMBasicBlockRef brk, LLVMBasicBlockRef cont) {
  LLVMBasicBlockRef ob = g->brk, oc = g->cont;
  g->brk = brk;
  g->cont = cont;
  lg_stmt(g, body);
  g->brk = ob;
  g->cont = oc;
}

static void gen_switch(LG *g, KStmt *s) {
  LLVMValueRef v = lg_expr(g, s->cond);
  LLVMBasicBlockRef end = block(g, "sw.end"), def = end;
  for (int i = 0; i < s->cases.n; i++) {
    KStmt *c = KLIST_AT(s->cases, i, KStmt *);
    c->aux = block(g, c->is_default ? "sw.default" : "sw.case");
    if (c->is_default) def = c->aux;
  }
  LLVMValueRef sw = LLVMBuildSwitch(g->b, v, def, (unsigned)s->cases.n);
  for (int i = 0; i < s->cases.n; i++) {
    KStmt *c = KLIST_AT(s->cases, i, KStmt *);
    if (!c->is_default)
      LLVMAddCase(sw, LLVMConstInt(LLVMTypeOf(v), (unsigned long long)c->value, 1), c->aux);
  }
  /* Statements before the first label are unreachable (declarations there still get
   * their allocas, which live in the entry block). */
  LLVMPositionBuilderAtEnd(g->b, block(g, "sw.body"));
  LLVMBasicBlockRef ob = g->brk;
  g->brk = end;
  lg_stmt(g, s->body);
  g->brk = ob;
  branch(g, end);
  LLVMPositionBuilderAtEnd(g->b, end);
  for (int i = 0; i < s->cases.n; i++) KLIST_AT(s->cases, i, KStmt *)->aux = NULL;
}

void lg_stmt(LG *g, KStmt *s) {
  if (!s) return;
  switch (s->kind) {
  case KS_BLOCK:
    for (int i = 0; i < s->list.n; i++) lg_stmt(g, KLIST_AT(s->list, i, KStmt *));
    return;
  case KS_DECL: {
    KVar *v = s->var;
    if (v->kind != KV_LOCAL && v->kind != KV_PARAM) return; /* shared/constant: globals */
    v->aux = lg_alloca(g, v->type, v->name);
    if (s->init) lg_init_object(g, (LV){.ptr = v->aux}, v->type, s->init);
    return;
  }
  case KS_EXPR:
    if (s->expr) lg_expr(g, s->expr);
    return;
  case KS_IF: {
    LLVMValueRef c = lg_cond(g, s->cond);
    LLVMBasicBlockRef tb = block(g, "if.then"), end = block(g, "if.end");
    LLVMBasicBlockRef eb = s->els ? block(g, "if.else") : end;
    LLVMBuildCondBr(g->b, c, tb, eb);
    LLVMPositionBuilderAtEnd(g->b, tb);
    lg_stmt(g, s->then);
    branch(g, end);
    if (s->els) {
      LLVMPositionBuilderAtEnd(g->b, eb);
      lg_stmt(g, s->els);
      branch(g, end);
    }
    LLVMMoveBasicBlockAfter(end, LLVMGetInsertBlock(g->b));
    LLVMPositionBuilderAtEnd(g->b, end);
    return;
  }
  case KS_WHILE: {
    LLVMBasicBlockRef cb = block(g, "while.cond"), bb = block(g, "while.body"),
                      end = block(g, "while.end");
    branch(g, cb);
    LLVMPositionBuilderAtEnd(g->b, cb);
    LLVMBuildCondBr(g->b, lg_cond(g, s->cond), bb, end);
    LLVMPositionBuilderAtEnd(g->b, bb);
    loop_body(g, s->body, end, cb);
    back_edge(g, cb, s->unroll);
    LLVMMoveBasicBlockAfter(end, LLVMGetInsertBlock(g->b));
    LLVMPositionBuilderAtEnd(g->b, end);
    return;
  }
  case KS_DO: {
    LLVMBasicBlockRef bb = block(g, "do.body"), cb = block(g, "do.cond"), end = block(g, "do.end");
    branch(g, bb);
    LLVMPositionBuilderAtEnd(g->b, bb);
    loop_body(g, s->body, end, cb);
    branch(g, cb);
    LLVMMoveBasicBlockAfter(cb, LLVMGetInsertBlock(g->b));
    LLVMPositionBuilderAtEnd(g->b, cb);
    lg_loop_hint(g, LLVMBuildCondBr(g->b, lg_cond(g, s->cond), bb, end), s->unroll);
    LLVMMoveBasicBlockAfter(end, cb);
    LLVMPositionBuilderAtEnd(g->b, end);
    return;
  }
  case KS_FOR: {
    lg_stmt(g, s->init_stmt);
    LLVMBasicBlockRef cb = block(g, "for.cond"), bb = block(g, "for.body"),
                      sb = block(g, "for.inc"), end = block(g, "for.end");
    branch(g, cb);
    LLVMPositionBuilderAtEnd(g->b, cb);
    if (s->cond)
      LLVMBuildCondBr(g->b, lg_cond(g, s->cond), bb, end);
    else
      LLVMBuildBr(g->b, bb);
    LLVMPositionBuilderAtEnd(g->b, bb);
    loop_body(g, s->body, end, sb);
    branch(g, sb);
    LLVMMoveBasicBlockAfter(sb, LLVMGetInsertBlock(g->b));
    LLVMPositionBuilderAtEnd(g->b, sb);
    if (s->step) lg_expr(g, s->step);
    back_edge(g, cb, stride_unroll(s));
    LLVMMoveBasicBlockAfter(end, LLVMGetInsertBlock(g->b));
    LLVMPositionBuilderAtEnd(g->b, end);
    return;
  }
  case KS_BREAK:
    if (!g->brk) {
      diag_error(s->loc, "'break' outside a loop or switch");
      return;
    }
    jump(g, g->brk);
    return;
  case KS_CONTINUE:
    if (!g->cont) {
      diag_error(s->loc, "'continue' outside a loop");
      return;
    }
    jump(g, g->cont);
    return;
  case KS_RETURN: {
    LLVMValueRef v = s->expr ? lg_expr(g, s->expr) : NULL;
    if (lg_block_open(g)) {
      if (g->kf->ret->kind == KT_VOID)
        LLVMBuildRetVoid(g->b);
      else if (v)
        LLVMBuildRet(g->b, lg_convert(g, v, s->expr->type, g->kf->ret));
      else
        LLVMBuildRet(g->b, LLVMGetUndef(lg_type(g, g->kf->ret)));
    }
    LLVMPositionBuilderAtEnd(g->b, block(g, "after.return"));
    return;
  }
  case KS_SWITCH: gen_switch(g, s); return;
  case KS_CASE:
    if (!s->aux) {
      diag_ice(s->loc, "LLVM back end: case label outside its switch");
      return;
    }
    branch(g, s->aux); /* fall through from the previous case */
    LLVMMoveBasicBlockAfter(s->aux, LLVMGetInsertBlock(g->b));
    LLVMPositionBuilderAtEnd(g->b, s->aux);
    return;
  case KS_EMPTY: return;
  case KS_LABEL: {
    LLVMBasicBlockRef bb = label_block(g, s);
    branch(g, bb); /* fall through into the label */
    LLVMMoveBasicBlockAfter(bb, LLVMGetInsertBlock(g->b));
    LLVMPositionBuilderAtEnd(g->b, bb);
    return;
  }
  case KS_GOTO: jump(g, label_block(g, s->target)); return;
  }
}
