/* kir_print.c — `kcc --emit=kir`: KIR as text. Expressions are S-expressions carrying their
 * result type, so a dump shows every conversion the front end made explicit; statements are
 * indented C-like lines. Tests compare these dumps, so the format only changes on purpose. */
#include "kir.h"

#include <inttypes.h>
#include <string.h>

static const char *op_name(KOp op) {
  static const char *names[] = {
      [KB_NONE] = "",           [KB_ADD] = "add",
      [KB_SUB] = "sub",         [KB_MUL] = "mul",
      [KB_DIV] = "div",         [KB_REM] = "rem",
      [KB_SHL] = "shl",         [KB_SHR] = "shr",
      [KB_AND] = "and",         [KB_OR] = "or",
      [KB_XOR] = "xor",         [KB_EQ] = "eq",
      [KB_NE] = "ne",           [KB_LT] = "lt",
      [KB_LE] = "le",           [KB_GT] = "gt",
      [KB_GE] = "ge",           [KB_LAND] = "land",
      [KB_LOR] = "lor",         [KB_PTR_ADD] = "ptradd",
      [KB_PTR_SUB] = "ptrsub",  [KB_PTR_DIFF] = "ptrdiff",
      [KU_NEG] = "neg",         [KU_NOT] = "not",
      [KU_LNOT] = "lnot",       [KU_PREINC] = "preinc",
      [KU_PREDEC] = "predec",   [KU_POSTINC] = "postinc",
      [KU_POSTDEC] = "postdec",
  };
  return op <= KU_POSTDEC ? names[op] : "?";
}

static const char *cast_name(KCastKind k) {
  static const char *names[] = {
      [KC_NOP] = "nop",
      [KC_INT_TRUNC] = "trunc",
      [KC_INT_SEXT] = "sext",
      [KC_INT_ZEXT] = "zext",
      [KC_TO_BOOL] = "tobool",
      [KC_INT_TO_FP] = "itof",
      [KC_FP_TO_INT] = "ftoi",
      [KC_FP_EXT] = "fpext",
      [KC_FP_TRUNC] = "fptrunc",
      [KC_PTR_TO_PTR] = "ptrcast",
      [KC_ARRAY_DECAY] = "decay",
      [KC_PTR_TO_INT] = "ptrtoint",
      [KC_INT_TO_PTR] = "inttoptr",
      [KC_TO_VOID] = "tovoid",
      [KC_SPLAT] = "splat",
  };
  return names[k];
}

static void print_str(FILE *out, const char *s, size_t n) {
  fputc('"', out);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", out);
    else if (c < 0x20 || c >= 0x7f)
      fprintf(out, "\\x%02x", c);
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static void print_expr(FILE *out, const KExpr *e);

static void print_args(FILE *out, const KExpr *e) {
  for (int i = 0; i < e->nargs; i++) {
    fputc(' ', out);
    if (e->args[i])
      print_expr(out, e->args[i]);
    else
      fputs("zero", out);
  }
}

static void print_expr(FILE *out, const KExpr *e) {
  static const char *specials[] = {[BI_THREAD_IDX] = "threadIdx",
                                   [BI_BLOCK_IDX] = "blockIdx",
                                   [BI_BLOCK_DIM] = "blockDim",
                                   [BI_GRID_DIM] = "gridDim"};
  const char *ty = kir_type_str(e->type);
  switch (e->kind) {
  case KE_ICONST:
    if (kir_is_signed(e->type))
      fprintf(out, "(const %s %" PRId64 ")", ty, (int64_t)e->ival);
    else
      fprintf(out, "(const %s %" PRIu64 ")", ty, e->ival);
    return;
  case KE_FCONST: fprintf(out, "(fconst %s %.17g)", ty, e->fval); return;
  case KE_STR:
    fputs("(str ", out);
    print_str(out, e->str, e->len);
    fputc(')', out);
    return;
  case KE_VAR: fprintf(out, "(var %s)", e->var->name); return;
  case KE_GVAR: fprintf(out, "(gvar %s)", e->var->name); return;
  case KE_SPECIAL:
    fprintf(out, "(%s.%c)", e->builtin <= BI_GRID_DIM ? specials[e->builtin] : "?",
            "xyz"[e->dim % 3]);
    return;
  case KE_UNARY:
  case KE_INCDEC: fprintf(out, "(%s %s ", op_name(e->op), ty); break;
  case KE_BINARY: fprintf(out, "(%s %s ", op_name(e->op), ty); break;
  case KE_ASSIGN:
    if (e->op == KB_NONE)
      fprintf(out, "(assign %s ", ty);
    else
      fprintf(out, "(assign-%s %s [%s] ", op_name(e->op), ty,
              e->optype ? kir_type_str(e->optype) : "?");
    break;
  case KE_COND: fprintf(out, "(cond %s ", ty); break;
  case KE_COMMA: fprintf(out, "(comma %s ", ty); break;
  case KE_CAST: fprintf(out, "(%s %s ", cast_name(kir_cast_kind(e->a->type, e->type)), ty); break;
  case KE_INDEX: fprintf(out, "(index %s ", ty); break;
  case KE_MEMBER:
    fprintf(out, "(member .%s %s ",
            e->a->type->kind == KT_STRUCT ? e->a->type->st->fields[e->field].name : "?", ty);
    break;
  case KE_DEREF: fprintf(out, "(deref %s ", ty); break;
  case KE_ADDR: fprintf(out, "(addr %s ", ty); break;
  case KE_CALL:
    fprintf(out, "(call %s %s", e->callee ? e->callee->name : "?", ty);
    print_args(out, e);
    fputc(')', out);
    return;
  case KE_BUILTIN:
    fprintf(out, "(builtin %s%s%s%s%s%s %s", kir_builtin_info(e->builtin)->name,
            e->approx ? " approx" : "", e->sys_scope ? " system" : "",
            e->nonuniform ? " non_uniform" : "", kir_red_uses_op(e->builtin) ? " " : "",
            kir_red_uses_op(e->builtin) ? kir_red_names[e->red] : "", ty);
    print_args(out, e);
    fputc(')', out);
    return;
  case KE_INITLIST:
    fprintf(out, "(init %s", ty);
    print_args(out, e);
    fputc(')', out);
    return;
  case KE_VECLIT:
    fprintf(out, "(veclit %s", ty);
    print_args(out, e);
    fputc(')', out);
    return;
  case KE_SWIZZLE:
    fputs("(swizzle .s", out);
    for (int i = 0; i < e->nswz; i++) fputc("0123456789abcdef"[e->swz[i] & 15], out);
    fprintf(out, " %s ", ty);
    break;
  case KE_BITCAST: fprintf(out, "(bitcast %s ", ty); break;
  case KE_ASM:
    fputs(e->asm_->is_volatile ? "(asm volatile " : "(asm ", out);
    print_str(out, e->asm_->text, strlen(e->asm_->text));
    for (int i = 0; i < e->nargs; i++) {
      fputc(' ', out);
      print_str(out, e->asm_->cons[i], strlen(e->asm_->cons[i]));
      fputc(' ', out);
      print_expr(out, e->args[i]);
    }
    for (int i = 0; i < e->asm_->nclobbers; i++) {
      fputs(" clobber ", out);
      print_str(out, e->asm_->clobbers[i], strlen(e->asm_->clobbers[i]));
    }
    fputc(')', out);
    return;
  }
  const KExpr *ops[] = {e->a, e->b, e->c};
  for (int i = 0, first = 1; i < 3; i++) {
    if (!ops[i]) continue;
    if (!first) fputc(' ', out);
    print_expr(out, ops[i]);
    first = 0;
  }
  fputc(')', out);
}

static void indent(FILE *out, int depth) {
  for (int i = 0; i < depth; i++) fputs("  ", out);
}

static void print_stmt(FILE *out, const KStmt *s, int depth);

/* A body that is not a block is printed one level deeper, like C. */
static void print_body(FILE *out, const KStmt *s, int depth) {
  if (s && s->kind == KS_BLOCK)
    print_stmt(out, s, depth);
  else if (s)
    print_stmt(out, s, depth + 1);
}

static void print_stmt(FILE *out, const KStmt *s, int depth) {
  if (s->kind == KS_CASE) {
    indent(out, depth > 0 ? depth - 1 : 0);
    if (s->is_default)
      fputs("default:\n", out);
    else
      fprintf(out, "case %" PRId64 ":\n", s->value);
    return;
  }
  indent(out, depth);
  switch (s->kind) {
  case KS_BLOCK:
    fputs("{\n", out);
    for (int i = 0; i < s->list.n; i++) print_stmt(out, s->list.v[i], depth + 1);
    indent(out, depth);
    fputs("}\n", out);
    return;
  case KS_DECL:
    fprintf(out, "decl %s %s", kir_type_str(s->var->type), s->var->name);
    if (s->init) {
      fputs(" = ", out);
      print_expr(out, s->init);
    }
    fputc('\n', out);
    return;
  case KS_EXPR:
    print_expr(out, s->expr);
    fputc('\n', out);
    return;
  case KS_IF:
    fputs("if ", out);
    print_expr(out, s->cond);
    fputc('\n', out);
    print_body(out, s->then, depth);
    if (s->els) {
      indent(out, depth);
      fputs("else\n", out);
      print_body(out, s->els, depth);
    }
    return;
  case KS_WHILE:
    fputs("while ", out);
    print_expr(out, s->cond);
    fputc('\n', out);
    print_body(out, s->body, depth);
    return;
  case KS_DO:
    fputs("do\n", out);
    print_body(out, s->body, depth);
    indent(out, depth);
    fputs("while ", out);
    print_expr(out, s->cond);
    fputc('\n', out);
    return;
  case KS_FOR:
    fputs("for\n", out);
    if (s->init_stmt) {
      indent(out, depth + 1);
      fputs("init:\n", out);
      print_stmt(out, s->init_stmt, depth + 2);
    }
    if (s->cond) {
      indent(out, depth + 1);
      fputs("cond: ", out);
      print_expr(out, s->cond);
      fputc('\n', out);
    }
    if (s->step) {
      indent(out, depth + 1);
      fputs("step: ", out);
      print_expr(out, s->step);
      fputc('\n', out);
    }
    print_body(out, s->body, depth);
    return;
  case KS_BREAK: fputs("break\n", out); return;
  case KS_CONTINUE: fputs("continue\n", out); return;
  case KS_RETURN:
    fputs("return", out);
    if (s->expr) {
      fputc(' ', out);
      print_expr(out, s->expr);
    }
    fputc('\n', out);
    return;
  case KS_SWITCH:
    fputs("switch ", out);
    print_expr(out, s->cond);
    fputc('\n', out);
    print_body(out, s->body, depth);
    return;
  case KS_EMPTY: fputs(";\n", out); return;
  case KS_CASE: return;
  case KS_LABEL: fprintf(out, "%s:;\n", s->label); return;
  case KS_GOTO: fprintf(out, "goto %s;\n", s->target->label); return;
  }
}

static void print_var_decl(FILE *out, const KVar *v) {
  static const char *kinds[] = {[KV_LOCAL] = "local",
                                [KV_PARAM] = "param",
                                [KV_SHARED] = "shared",
                                [KV_CONSTANT] = "constant"};
  fprintf(out, "%s %s %s", kinds[v->kind], kir_type_str(v->type), v->name);
  if (v->is_dynamic) fputs(" dynamic", out);
  if (v->owner) fprintf(out, " in %s", v->owner->name);
  if (v->host_filled) fputs(v->is_mutable ? " device" : " host-filled", out);
  if (v->init) {
    fputs(" = ", out);
    print_expr(out, v->init);
  }
  fputc('\n', out);
}

void kir_print(FILE *out, const KModule *m) {
  fprintf(out, "module \"%s\"\n", m->file);
  for (int i = 0; i < m->structs.n; i++) {
    const KStruct *st = m->structs.v[i];
    fprintf(out, "%s %s size %d align %d {", st->is_union ? "union" : "struct", st->name, st->size,
            st->align);
    for (int j = 0; j < st->nfields; j++)
      fprintf(out, " %s %s @%d;", kir_type_str(st->fields[j].type), st->fields[j].name,
              st->fields[j].offset);
    fputs(" }\n", out);
  }
  for (int i = 0; i < m->globals.n; i++) print_var_decl(out, m->globals.v[i]);
  /* The software forms of image functions (KFunc.image_impl: the same library text in every
   * module that reads or writes images) are left out, as the OpenCL forms leave them out. */
  for (int i = 0; i < m->funcs.n; i++) {
    const KFunc *f = m->funcs.v[i];
    if (f->image_impl) continue;
    fprintf(out, "\n%s%s%s%s %s(", f->is_kernel ? "kernel " : "", f->is_static ? "static " : "",
            f->is_inline ? "inline " : "", kir_type_str(f->ret), f->name);
    for (int j = 0; j < f->nparams; j++)
      fprintf(out, "%s%s %s", j ? ", " : "", kir_type_str(f->params[j]->type), f->params[j]->name);
    fputs(")\n", out);
    if (f->is_kernel && (f->static_shared_bytes || f->uses_dynamic_shared))
      fprintf(out, "  ; shared %" PRId64 " bytes%s\n", f->static_shared_bytes,
              f->uses_dynamic_shared ? " + dynamic" : "");
    if (f->max_threads)
      fprintf(out, "  ; launch bounds %d threads, %d blocks\n", f->max_threads, f->min_blocks);
    if (f->reqd_block[0])
      fprintf(out, "  ; reqd_work_group_size %d %d %d\n", f->reqd_block[0], f->reqd_block[1],
              f->reqd_block[2]);
    int ncalls = 0;
    for (int j = 0; j < f->callees.n; j++) ncalls += !((KFunc *)f->callees.v[j])->image_impl;
    if (ncalls) {
      fputs("  ; calls", out);
      for (int j = 0; j < f->callees.n; j++)
        if (!((KFunc *)f->callees.v[j])->image_impl)
          fprintf(out, " %s", ((KFunc *)f->callees.v[j])->name);
      fputc('\n', out);
    }
    if (f->body) print_stmt(out, f->body, 0);
  }
}
