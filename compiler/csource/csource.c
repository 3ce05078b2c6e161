/* csource.c — KIR printed as C: names, types and declarators, expressions with C's
 * precedence, statements. See csource.h for the rules both source back ends share. */
#include "csource.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- name sets */

/* Sets of names: kir.h's table with the name as its own value. */
typedef KMap NameSet;

static bool ns_has(NameSet *s, const char *name) {
  return s->n && kmap_get_str(s, name);
}

static void ns_add(NameSet *s, const char *name) {
  kmap_put_str(s, name, (void *)name);
}

typedef struct StructNames {
  const KStruct *st;
  const char *tag;
  const char **fields;
} StructNames;

struct CNames {
  NameSet module;     /* printed names of globals and functions, and the back end's own */
  NameSet module_src; /* source names of globals and functions: renames steer clear of them */
  NameSet tags, tags_src;
  KList structs;  /* StructNames* */
  KList param_in; /* pairs: parameter (KVar*), the name it arrives under (copy_param) */
};

void cs_init(CGen *g, CTarget target, KModule *m, const KOptions *o, const CHooks *hooks) {
  memset(g, 0, sizeof *g);
  g->target = target;
  g->m = m;
  g->o = o;
  g->hooks = hooks;
  g->names = kir_alloc(sizeof *g->names);
}

bool cs_in_list(const char *name, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(name, *list)) return true;
  return false;
}

/* A name is free when no set in `busy` holds it and the target does not reserve it; a
 * replacement must also avoid every set in `avoid` (names that keep their spelling later). */
static const char *pick_name(CGen *g, const char *base, NameSet **busy, NameSet **avoid) {
  /* C11 identifiers may hold UTF-8 letters and clang takes `$`, but nvcc refuses them in
   * device entity names and OpenCL drivers need not take them: such a name is spelled in
   * ASCII (each other byte as _XX) and then treated as any replacement. */
  if (base[strspn(base, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")]) {
    KBuf b = {0};
    for (const unsigned char *p = (const unsigned char *)base; *p; p++)
      if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", *p))
        kbuf_append(&b, p, 1);
      else
        kbuf_printf(&b, "_%02X", *p);
    base = kir_strdup(b.data);
    kbuf_free(&b);
    bool ok = !g->hooks->reserved(base, false);
    for (NameSet **s = busy; ok && *s; s++) ok = !ns_has(*s, base);
    for (NameSet **s = avoid; ok && *s; s++) ok = !ns_has(*s, base);
    if (ok) return base;
  }
  bool ok = !g->hooks->reserved(base, true);
  for (NameSet **s = busy; ok && *s; s++) ok = !ns_has(*s, base);
  if (ok) return base;
  char buf[300];
  for (int n = 0;; n++) {
    if (n == 0)
      snprintf(buf, sizeof buf, "%.280s_", base);
    else
      snprintf(buf, sizeof buf, "%.280s_%d", base, n);
    ok = !g->hooks->reserved(buf, false);
    for (NameSet **s = busy; ok && *s; s++) ok = !ns_has(*s, buf);
    for (NameSet **s = avoid; ok && *s; s++) ok = !ns_has(*s, buf);
    if (ok) return kir_strdup(buf);
  }
}

void cs_name_module(CGen *g, const char *const *extra) {
  CNames *n = g->names;
  KModule *m = g->m;
  for (; extra && *extra; extra++) ns_add(&n->module, *extra);

  for (int i = 0; i < m->structs.n; i++) ns_add(&n->tags_src, ((KStruct *)m->structs.v[i])->name);
  for (int i = 0; i < m->structs.n; i++) {
    KStruct *st = m->structs.v[i];
    StructNames *sn = kir_alloc(sizeof *sn);
    sn->st = st;
    sn->tag =
        pick_name(g, st->name, (NameSet *[]){&n->tags, NULL}, (NameSet *[]){&n->tags_src, NULL});
    ns_add(&n->tags, sn->tag);
    NameSet fields = {0}, src = {0};
    for (int j = 0; j < st->nfields; j++) ns_add(&src, st->fields[j].name);
    sn->fields = kir_alloc(sizeof(char *) * (st->nfields + 1));
    for (int j = 0; j < st->nfields; j++) {
      sn->fields[j] =
          pick_name(g, st->fields[j].name, (NameSet *[]){&fields, NULL}, (NameSet *[]){&src, NULL});
      ns_add(&fields, sn->fields[j]);
    }
    klist_push(&n->structs, sn);
  }

  /* Source names first, so a rename never takes a name that a later entity keeps. Clones
   * (f_1, made by the address-space pass) come after every source name. */
  for (int i = 0; i < m->globals.n; i++) ns_add(&n->module_src, ((KVar *)m->globals.v[i])->name);
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->origin) ns_add(&n->module_src, f->name);
  }
  NameSet *busy[] = {&n->module, NULL}, *avoid[] = {&n->module_src, NULL};
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->is_kernel) continue;
    if (g->hooks->kernel_reserved(f->name))
      cs_error(g, f->loc,
               "kernel name '%s' is reserved in %s, and kernels keep their names "
               "(the runtime looks them up); rename the kernel",
               f->name, g->hooks->language);
    f->aux = (void *)f->name;
    ns_add(&n->module, f->name);
  }
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    v->aux = (void *)pick_name(g, v->name, busy, avoid);
    ns_add(&n->module, v->aux);
  }
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < m->funcs.n; i++) {
      KFunc *f = m->funcs.v[i];
      if ((f->origin != NULL) != pass || f->is_kernel) continue;
      f->aux = (void *)pick_name(g, f->name, busy, avoid);
      ns_add(&n->module, f->aux);
    }
}

static void collect_locals(const KStmt *s, KList *out) {
  if (!s) return;
  if (s->kind == KS_DECL && s->var && (s->var->kind == KV_LOCAL || s->var->kind == KV_PARAM))
    klist_push(out, s->var);
  for (int i = 0; i < s->list.n; i++) collect_locals(s->list.v[i], out);
  collect_locals(s->init_stmt, out);
  collect_locals(s->then, out);
  collect_locals(s->els, out);
  collect_locals(s->body, out);
}

void cs_name_function(CGen *g, KFunc *f) {
  CNames *n = g->names;
  KList vars = {0};
  for (int i = 0; i < f->nparams; i++) klist_push(&vars, f->params[i]);
  collect_locals(f->body, &vars);
  /* Variables of one source name share one printed name: KIR keeps C's block structure, so
   * shadowing then resolves exactly as in the source. */
  NameSet src = {0}, printed = {0};
  KList map = {0}; /* pairs: source name, printed name */
  for (int i = 0; i < vars.n; i++) ns_add(&src, ((KVar *)vars.v[i])->name);
  NameSet *busy[] = {&n->module, &printed, NULL}, *avoid[] = {&src, &n->module_src, NULL};
  for (int i = 0; i < vars.n; i++) {
    KVar *v = vars.v[i];
    const char *name = NULL;
    for (int j = 0; j < map.n && !name; j += 2)
      if (!strcmp(map.v[j], v->name)) name = map.v[j + 1];
    if (!name) {
      name = pick_name(g, v->name, busy, avoid);
      ns_add(&printed, name);
      klist_push(&map, (void *)v->name);
      klist_push(&map, (void *)name);
    }
    v->aux = (void *)name;
  }
  for (int i = 0; g->hooks->copy_param && i < f->nparams; i++) {
    KVar *p = f->params[i];
    if (!g->hooks->copy_param(f, p)) continue;
    char base[300];
    snprintf(base, sizeof base, "%.280s_arg", cs_var(p));
    const char *in = pick_name(g, kir_strdup(base), busy, avoid);
    ns_add(&printed, in);
    klist_push(&n->param_in, p);
    klist_push(&n->param_in, (void *)in);
  }
}

const char *cs_param_in(CGen *g, const KVar *p) {
  for (int i = 0; i < g->names->param_in.n; i += 2)
    if (g->names->param_in.v[i] == p) return g->names->param_in.v[i + 1];
  return cs_var(p);
}

const char *cs_var(const KVar *v) {
  return v->aux ? v->aux : v->name;
}
const char *cs_func(const KFunc *f) {
  return f->aux ? f->aux : f->name;
}

static StructNames *struct_names(CGen *g, const KStruct *st) {
  for (int i = 0; i < g->names->structs.n; i++) {
    StructNames *sn = g->names->structs.v[i];
    if (sn->st == st) return sn;
  }
  return NULL;
}

const char *cs_tag(CGen *g, const KStruct *st) {
  StructNames *sn = struct_names(g, st);
  return sn ? sn->tag : st->name;
}

const char *cs_field(CGen *g, const KStruct *st, int i) {
  StructNames *sn = struct_names(g, st);
  return sn ? sn->fields[i] : st->fields[i].name;
}

/* ---------------------------------------------------------------- output */

void cs_puts(CGen *g, const char *s) {
  kbuf_puts(g->out, s);
}

void cs_printf(CGen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kbuf_vprintf(g->out, fmt, ap);
  va_end(ap);
}

bool cs_called_before(const KModule *m, int idx) {
  const KFunc *f = m->funcs.v[idx];
  for (int i = 0; i < idx; i++) {
    const KFunc *c = m->funcs.v[i];
    for (int j = 0; j < c->callees.n; j++)
      if (c->callees.v[j] == f) return true;
  }
  return false;
}

bool cs_printf_format(CGen *g, const KExpr *e) {
  const KExpr *fmt = e->nargs ? e->args[0] : NULL;
  while (fmt && fmt->kind == KE_CAST) fmt = fmt->a;
  if (!fmt || fmt->kind != KE_STR) {
    cs_error(g, e->loc, "printf needs a string literal format");
    return false;
  }
  cs_puts(g, "printf(");
  cs_string(g, fmt->str, fmt->len);
  return true;
}

void cs_structs(CGen *g) {
  for (int i = 0; i < g->m->structs.n; i++) {
    KStruct *s = g->m->structs.v[i];
    cs_printf(g, "%s %s {\n", kir_struct_kw(s), cs_tag(g, s));
    for (int j = 0; j < s->nfields; j++)
      cs_printf(g, "  %s;\n", cs_decl(g, s->fields[j].type, cs_field(g, s, j), NULL));
    if (s->is_union && g->target != CT_OPENCL && cs_type_contains(kir_type_struct(s), KT_VEC))
      /* kcc_vec's volatile store is a user-provided copy assignment, which deletes a C++
         union's implicit one: a union is copied as the bytes it is. */
      cs_printf(g,
                "  __device__ %s %s &operator=(const %s %s &o) { __builtin_memcpy(this, &o, "
                "sizeof o); return *this; }\n",
                kir_struct_kw(s), cs_tag(g, s), kir_struct_kw(s), cs_tag(g, s));
    if (s->align_attr)
      cs_printf(g, "} __attribute__((aligned(%d)));\n\n", s->align_attr);
    else
      cs_puts(g, "};\n\n");
  }
}

void cs_constant_init(CGen *g, const KVar *v) {
  if (v->init)
    cs_expr_conv(g, v->init, P_ASSIGN);
  else
    cs_puts(g, "{0}");
}

void cs_indent(CGen *g) {
  for (int i = 0; i < g->depth; i++) cs_puts(g, "  ");
}

int cs_column(CGen *g) {
  size_t i = g->out->len;
  while (i > 0 && g->out->data[i - 1] != '\n') i--;
  return (int)(g->out->len - i);
}

enum { MARGIN = 100 };

void cs_list_item(CGen *g, const char *item, bool first) {
  if (first) {
    cs_puts(g, item);
    return;
  }
  if (cs_column(g) + 2 + (int)strlen(item) > MARGIN) {
    cs_puts(g, ",\n");
    g->depth += 2;
    cs_indent(g);
    g->depth -= 2;
  } else {
    cs_puts(g, ", ");
  }
  cs_puts(g, item);
}

void cs_error(CGen *g, KLoc loc, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(loc, "%s", msg);
  g->failed = true;
}

const char *cs_basename(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* ---------------------------------------------------------------- types */

const char *cs_scalar(CGen *g, KTypeKind k) {
  static const char *const ocl[] = {
      [KT_VOID] = "void", [KT_BOOL] = "bool", [KT_I8] = "char",   [KT_I16] = "short",
      [KT_I32] = "int",   [KT_I64] = "long",  [KT_U8] = "uchar",  [KT_U16] = "ushort",
      [KT_U32] = "uint",  [KT_U64] = "ulong", [KT_F32] = "float", [KT_F64] = "double",
  };
  /* CUDA: `signed char` because plain char is unsigned on ARM hosts, and `long long` because
   * long is 32-bit on Windows and the 64-bit atomics are declared on long long. */
  static const char *const cuda[] = {
      [KT_VOID] = "void",        [KT_BOOL] = "bool",
      [KT_I8] = "signed char",   [KT_I16] = "short",
      [KT_I32] = "int",          [KT_I64] = "long long",
      [KT_U8] = "unsigned char", [KT_U16] = "unsigned short",
      [KT_U32] = "unsigned int", [KT_U64] = "unsigned long long",
      [KT_F32] = "float",        [KT_F64] = "double",
  };
  if (k == KT_F64) g->used_f64 = true;
  return k <= KT_F64 ? (g->target == CT_OPENCL ? ocl : cuda)[k] : "?";
}

static const char *space_kw(CGen *g, KAddrSpace as) {
  if (g->target != CT_OPENCL) return NULL;
  switch (as) {
  case KAS_GLOBAL: return "__global";
  case KAS_SHARED: return "__local";
  case KAS_CONSTANT: return "__constant";
  case KAS_PRIVATE: return "__private";
  case KAS_GENERIC: break;
  }
  /* The address-space pass (allow_generic = false) leaves no generic pointer. */
  diag_ice((KLoc){0}, "generic pointer reached the OpenCL C back end");
  g->failed = true;
  return NULL;
}

static void add_word(KBuf *b, const char *w) {
  if (!w || !*w) return;
  if (b->len) kbuf_puts(b, " ");
  kbuf_puts(b, w);
}

static char *take(KBuf *b) {
  char *s = kir_strdup(b->data ? b->data : "");
  kbuf_free(b);
  return s;
}

/* Declarators read inside out, so the type is peeled from the outside in: each pointer adds
 * `*` (and its own qualifiers) before what was declared so far, each array `[n]` after it,
 * with parentheses where a pointer to an array needs them. */
const char *cs_decl(CGen *g, const KType *t, const char *name, const char *quals) {
  char *cur = kir_strdup(name);
  KBuf q = {0};
  add_word(&q, quals);
  for (;;) {
    if (t->kind == KT_PTR) {
      if (t->qual & KQ_RESTRICT) add_word(&q, g->target == CT_OPENCL ? "restrict" : "__restrict__");
      KBuf d = {0};
      kbuf_puts(&d, "*");
      if (q.len) kbuf_append(&d, q.data, q.len);
      if (q.len && *cur) kbuf_puts(&d, " ");
      kbuf_puts(&d, cur);
      cur = take(&d);
      kbuf_free(&q);
      add_word(&q, space_kw(g, t->as));
      if (t->qual & KQ_CONST) add_word(&q, "const");
      if (t->qual & KQ_VOLATILE) add_word(&q, "volatile");
      t = t->base;
    } else if (t->kind == KT_ARRAY) {
      KBuf d = {0};
      if (cur[0] == '*')
        kbuf_printf(&d, "(%s)", cur);
      else
        kbuf_puts(&d, cur);
      if (t->len < 0)
        kbuf_puts(&d, "[]");
      else
        kbuf_printf(&d, "[%" PRId64 "]", t->len);
      cur = take(&d);
      t = t->base;
    } else {
      break;
    }
  }
  if (t->kind == KT_STRUCT) {
    add_word(&q, kir_struct_kw(t->st));
    add_word(&q, cs_tag(g, t->st));
  } else if (t->kind == KT_VEC) {
    add_word(&q, cs_vec_name(g, t));
  } else if (kir_is_opaque(t) && g->target == CT_CUDA) {
    /* The descriptor libkcrt passes for an image, and a sampler's CLK_* bits (cuda_c.c). */
    add_word(&q, t->kind == KT_IMAGE ? "kcc_image" : "unsigned int");
  } else if (kir_is_opaque(t)) {
    add_word(&q, kir_type_str(t)); /* "read_only image2d_t", "sampler_t": OpenCL C's spelling */
  } else {
    add_word(&q, cs_scalar(g, t->kind));
  }
  if (*cur && cur[0] != '[') kbuf_puts(&q, " ");
  kbuf_puts(&q, cur);
  return take(&q);
}

const char *cs_vec_name(CGen *g, const KType *t) {
  bool seen = false;
  for (int i = 0; i < g->vec_types.n && !seen; i++) seen = g->vec_types.v[i] == t;
  if (!seen) klist_push(&g->vec_types, (void *)t);
  cs_scalar(g, t->base->kind); /* notes double */
  /* OpenCL's spelling (uchar, ulong) for both: kir_type_str says uint4. */
  const char *name = kir_type_str(t);
  if (g->target == CT_OPENCL) return name;
  KBuf b = {0};
  kbuf_printf(&b, "kcc_%s", name);
  return take(&b);
}

const char *cs_type(CGen *g, const KType *t) {
  if (t->kind == KT_PTR && (t->qual & KQ_RESTRICT)) /* meaningless in a cast */
    t = kir_type_ptr(t->base, t->as, t->qual & ~KQ_RESTRICT);
  return cs_decl(g, t, "", NULL);
}

bool cs_type_contains(const KType *t, KTypeKind k) {
  if (t->kind == k) return true;
  if (t->kind == KT_ARRAY) return cs_type_contains(t->base, k);
  if (t->kind == KT_STRUCT)
    for (int i = 0; i < t->st->nfields; i++)
      if (cs_type_contains(t->st->fields[i].type, k)) return true;
  return false;
}

/* ---------------------------------------------------------------- C's arithmetic rules */

static bool is_small_int(const KType *t) {
  return kir_is_int(t) && t->size < 4;
}

static KType *promote(const KType *t) {
  if (is_small_int(t)) return kir_type_scalar(KT_I32);
  return (KType *)t;
}

/* C's usual arithmetic conversions (identical in OpenCL C and C++ for these types). */
static KType *usual_conv(const KType *a, const KType *b) {
  if (!kir_is_arith(a) || !kir_is_arith(b)) return NULL;
  if (a->kind == KT_F64 || b->kind == KT_F64) return kir_type_scalar(KT_F64);
  if (a->kind == KT_F32 || b->kind == KT_F32) return kir_type_scalar(KT_F32);
  a = promote(a);
  b = promote(b);
  if (a == b) return (KType *)a;
  if (kir_is_signed(a) == kir_is_signed(b)) return (KType *)(a->size >= b->size ? a : b);
  const KType *s = kir_is_signed(a) ? a : b, *u = kir_is_signed(a) ? b : a;
  if (u->size >= s->size) return (KType *)u;
  return (KType *)s; /* long can hold every unsigned int */
}

/* Conversions that keep every value: sign extension into a signed type, zero extension,
 * float to double. (Sign extension into an unsigned type changes negative values: printed.) */
static bool is_widen(const KExpr *e) {
  /* Neither language converts between vector types implicitly. */
  if (e->kind != KE_CAST || kir_is_vec(e->type)) return false;
  KCastKind k = kir_cast_kind(e->a->type, e->type);
  return (k == KC_INT_SEXT && kir_is_signed(e->type)) || k == KC_INT_ZEXT || k == KC_FP_EXT;
}

const KExpr *cs_strip_widen(const KExpr *e) {
  while (is_widen(e)) e = e->a;
  return e;
}

/* Conversions that keep a value's truth (zero or not), which a condition ignores. */
static const KExpr *strip_cond(const KExpr *e) {
  while (e->kind == KE_CAST) {
    KCastKind k = kir_cast_kind(e->a->type, e->type);
    if (k == KC_TO_BOOL || k == KC_INT_SEXT || k == KC_INT_ZEXT || k == KC_FP_EXT ||
        k == KC_PTR_TO_PTR || (k == KC_NOP && kir_is_int(e->type)))
      e = e->a;
    else
      break;
  }
  return e;
}

/* The type C gives the printed expression (small integer literals print as plain ints). */
static const KType *ctype(const KExpr *e) {
  if (e->kind == KE_ICONST && is_small_int(e->type) && e->type->kind != KT_BOOL)
    return kir_type_scalar(KT_I32);
  return e->type;
}

/* A splat whose scalar already has the element type: operators of both languages widen such a
 * scalar themselves (CUDA's through the preamble's vector-and-scalar overloads). */
static const KExpr *strip_splat(const KExpr *e) {
  if (e->kind == KE_CAST && kir_is_vec(e->type) && !kir_is_vec(e->a->type) &&
      ctype(e->a) == e->type->base)
    return e->a;
  return e;
}

/* Adding const/volatile to a pointee (same space, same type) is implicit in C and C++. */
static bool adds_quals_only(const KType *from, const KType *to) {
  if (from->kind != KT_PTR || to->kind != KT_PTR) return false;
  int f = from->qual & ~KQ_RESTRICT, t = to->qual & ~KQ_RESTRICT;
  return from->base == to->base && from->as == to->as && (f & ~t) == 0;
}

/* ---------------------------------------------------------------- literals */

void cs_int(CGen *g, const KType *t, uint64_t v) {
  bool ocl = g->target == CT_OPENCL;
  switch (t->kind) {
  case KT_BOOL: cs_puts(g, v ? "true" : "false"); return;
  case KT_I8: cs_printf(g, "%d", (int)(int8_t)v); return;
  case KT_I16: cs_printf(g, "%d", (int)(int16_t)v); return;
  case KT_U8: cs_printf(g, "%u", (unsigned)(uint8_t)v); return;
  case KT_U16: cs_printf(g, "%u", (unsigned)(uint16_t)v); return;
  case KT_I32:
    /* -2147483648 would be the negation of a long literal. */
    if ((int32_t)v == INT32_MIN)
      cs_puts(g, "(-2147483647 - 1)");
    else
      cs_printf(g, "%d", (int)(int32_t)v);
    return;
  case KT_U32: cs_printf(g, "%uu", (unsigned)(uint32_t)v); return;
  case KT_I64:
    if ((int64_t)v == INT64_MIN)
      cs_puts(g, ocl ? "(-9223372036854775807L - 1L)" : "(-9223372036854775807LL - 1LL)");
    else
      cs_printf(g, "%" PRId64 "%s", (int64_t)v, ocl ? "L" : "LL");
    return;
  case KT_U64: cs_printf(g, "%" PRIu64 "%s", v, ocl ? "UL" : "ULL"); return;
  default:
    /* A null pointer or another scalar typed as a constant: spell the conversion. */
    cs_printf(g, "(%s)%" PRIu64, cs_type(g, t), v);
    return;
  }
}

static bool int_negative(const KExpr *e) {
  if (e->kind != KE_ICONST || !kir_is_signed(e->type)) return false;
  switch (e->type->size) {
  case 1: return (int8_t)e->ival < 0;
  case 2: return (int16_t)e->ival < 0;
  case 4: return (int32_t)e->ival < 0 && (int32_t)e->ival != INT32_MIN;
  default: return (int64_t)e->ival < 0 && (int64_t)e->ival != INT64_MIN;
  }
}

/* The shortest decimal that reads back as the same float or double. */
static void print_float(CGen *g, const KType *t, double v, int prec) {
  bool f32 = t->kind == KT_F32;
  if (!f32) g->used_f64 = true;
  if (isinf(v) || isnan(v)) {
    /* Constant expressions in both languages, so that they may initialize `constant` tables
     * (as_float() and __int_as_float() may not): the compilers' builtins, which take a NaN's
     * payload and quiet bit; a leading minus sets the sign bit. */
    uint64_t bits, payload;
    memcpy(&bits, &v, sizeof bits);
    /* From the double's bits even for a float: a conversion would quiet a signaling NaN. */
    bool neg = bits >> 63, quiet = (bits >> 51) & 1;
    payload = f32 ? (bits >> 29) & 0x3fffff : bits & 0x7ffffffffffffull;
    bool paren = neg && prec > P_UNARY;
    cs_printf(g, "%s%s", paren ? "(" : "", neg ? "-" : "");
    if (isinf(v) && g->target == CT_OPENCL)
      cs_printf(g, "%sINFINITY", f32 ? "" : "(double)");
    else if (isinf(v))
      cs_printf(g, "__builtin_inf%s()", f32 ? "f" : "");
    else
      cs_printf(g, "__builtin_nan%s%s(\"0x%" PRIx64 "\")", quiet ? "" : "s", f32 ? "f" : "",
                payload);
    cs_puts(g, paren ? ")" : "");
    return;
  }
  char buf[64];
  for (int p = f32 ? 6 : 15; p <= (f32 ? 9 : 17); p++) {
    snprintf(buf, sizeof buf, "%.*g", p, f32 ? (double)(float)v : v);
    if (f32 ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v) break;
  }
  if (!strpbrk(buf, ".e")) strcat(buf, ".0");
  if (f32) strcat(buf, "f");
  bool paren = buf[0] == '-' && prec > P_UNARY;
  cs_printf(g, paren ? "(%s)" : "%s", buf);
}

void cs_string(CGen *g, const char *s, size_t n) {
  KBuf *b = g->out;
  kbuf_puts(b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    switch (c) {
    case '"': kbuf_puts(b, "\\\""); break;
    case '\\': kbuf_puts(b, "\\\\"); break;
    case '\n': kbuf_puts(b, "\\n"); break;
    case '\t': kbuf_puts(b, "\\t"); break;
    case '?': /* no trigraphs, whatever the target's language mode */
      kbuf_puts(b, i > 0 && s[i - 1] == '?' ? "\\?" : "?");
      break;
    default:
      if (c < 0x20 || c >= 0x7f)
        kbuf_printf(b, "\\%03o", c);
      else
        kbuf_append(b, &c, 1);
    }
  }
  kbuf_puts(b, "\"");
}

/* ---------------------------------------------------------------- expressions */

static bool lparen(CGen *g, int mine, int prec) {
  if (mine >= prec) return false;
  cs_puts(g, "(");
  return true;
}

static void rparen(CGen *g, bool open) {
  if (open) cs_puts(g, ")");
}

static int binop_prec(KOp op) {
  switch (op) {
  case KB_MUL:
  case KB_DIV:
  case KB_REM: return P_MUL;
  case KB_ADD:
  case KB_SUB:
  case KB_PTR_ADD:
  case KB_PTR_SUB: return P_ADD;
  case KB_SHL:
  case KB_SHR: return P_SHIFT;
  case KB_LT:
  case KB_LE:
  case KB_GT:
  case KB_GE: return P_REL;
  case KB_EQ:
  case KB_NE: return P_EQ;
  case KB_AND: return P_BAND;
  case KB_XOR: return P_BXOR;
  case KB_OR: return P_BOR;
  case KB_LAND: return P_LAND;
  case KB_LOR: return P_LOR;
  default: return P_UNARY; /* PTR_DIFF prints as a cast */
  }
}

static const char *binop_str(KOp op) {
  switch (op) {
  case KB_ADD:
  case KB_PTR_ADD: return "+";
  case KB_SUB:
  case KB_PTR_SUB:
  case KB_PTR_DIFF: return "-";
  case KB_MUL: return "*";
  case KB_DIV: return "/";
  case KB_REM: return "%";
  case KB_SHL: return "<<";
  case KB_SHR: return ">>";
  case KB_AND: return "&";
  case KB_OR: return "|";
  case KB_XOR: return "^";
  case KB_EQ: return "==";
  case KB_NE: return "!=";
  case KB_LT: return "<";
  case KB_LE: return "<=";
  case KB_GT: return ">";
  case KB_GE: return ">=";
  case KB_LAND: return "&&";
  case KB_LOR: return "||";
  default: return "?";
  }
}

/* Parentheses that C does not need but readers (and -Wparentheses) want: && inside ||,
 * arithmetic or comparisons inside bitwise operators, + and - inside shifts, comparisons
 * inside comparisons. */
static int clarity(KOp parent, const KExpr *child, int dflt) {
  if (child->kind != KE_BINARY || child->op == KB_PTR_DIFF || child->op == parent) return dflt;
  int pp = binop_prec(parent), cp = binop_prec(child->op);
  if (pp == P_LOR && cp == P_LAND) return P_PRIMARY;
  if ((pp == P_BAND || pp == P_BXOR || pp == P_BOR) && cp != pp) return P_PRIMARY;
  if (pp == P_SHIFT && (cp == P_ADD || cp == P_MUL || cp == P_SHIFT)) return P_PRIMARY;
  if ((pp == P_EQ || pp == P_REL) && (cp == P_EQ || cp == P_REL)) return P_PRIMARY;
  return dflt;
}

/* Operands of an arithmetic operator or ?: of type t: drop widening casts when C's usual
 * arithmetic conversions on what remains land on t again. */
static void arith_operands(const KExpr **pa, const KExpr **pb, const KType *t) {
  const KExpr *a = *pa, *b = *pb, *sa = cs_strip_widen(a), *sb = cs_strip_widen(b);
  if (usual_conv(ctype(sa), ctype(sb)) == t) {
    *pa = sa;
    *pb = sb;
  } else if (usual_conv(ctype(sa), ctype(b)) == t) {
    *pa = sa;
  } else if (usual_conv(ctype(a), ctype(sb)) == t) {
    *pb = sb;
  }
}

/* Whether a floating-point operation must not be fused into an fma: FP_CONTRACT OFF where it
 * was written, or -ffp-contract=off with no pragma saying otherwise (KExpr.contract). */
static bool no_fuse(CGen *g, const KExpr *e) {
  return e->contract < 0 || (e->contract == 0 && !g->o->fp_contract);
}

static void print_binary(CGen *g, const KExpr *e, int prec) {
  const KExpr *a = e->a, *b = e->b;
  if (e->op == KB_PTR_DIFF) {
    /* ptrdiff_t is not long on every OpenCL device; KIR says long. */
    bool p = lparen(g, P_UNARY, prec);
    cs_printf(g, "(%s)(", cs_type(g, e->type));
    cs_expr(g, a, P_ADD);
    cs_puts(g, " - ");
    cs_expr(g, b, P_MUL);
    cs_puts(g, ")");
    rparen(g, p);
    return;
  }
  if (e->op == KB_MUL && kir_is_float(e->type) && g->target == CT_CUDA && no_fuse(g, e)) {
    /* -ffp-contract=off or FP_CONTRACT OFF: nvcc never fuses the _rn intrinsics into an FMA. */
    cs_printf(g, "%s(", e->type->kind == KT_F32 ? "__fmul_rn" : "__dmul_rn");
    cs_expr_exact(g, a, P_ASSIGN);
    cs_puts(g, ", ");
    cs_expr_exact(g, b, P_ASSIGN);
    cs_puts(g, ")");
    return;
  }
  int mine = binop_prec(e->op);
  switch (e->op) {
  case KB_SHL:
  case KB_SHR: {
    const KExpr *sa = cs_strip_widen(a);
    if (promote(ctype(sa)) == a->type) a = sa;
    b = cs_strip_widen(b); /* the count's type does not matter, its value does */
    break;
  }
  case KB_LAND:
  case KB_LOR:
    a = strip_cond(a);
    b = strip_cond(b);
    break;
  case KB_PTR_ADD:
  case KB_PTR_SUB: b = cs_strip_widen(b); break;
  default: arith_operands(&a, &b, a->type); break;
  }
  if (kir_is_vec(e->a->type)) {
    /* `v * 2.0f`: one scalar operand is enough (the left one of a shift must stay a vector) */
    b = strip_splat(e->b);
    if (b == e->b && e->op != KB_SHL && e->op != KB_SHR) a = strip_splat(e->a);
  }
  bool p = lparen(g, mine, prec);
  cs_expr(g, a, clarity(e->op, a, mine));
  cs_printf(g, " %s ", binop_str(e->op));
  cs_expr(g, b, clarity(e->op, b, mine + 1));
  rparen(g, p);
}

/* Whether the printed expression starts with '-' (so a unary minus before it needs a gap). */
static bool starts_with_minus(const KExpr *e) {
  if (e->kind == KE_ICONST) return int_negative(e);
  if (e->kind == KE_FCONST) return signbit(e->fval) && !isnan(e->fval);
  return (e->kind == KE_UNARY && e->op == KU_NEG) || (e->kind == KE_INCDEC && e->op == KU_PREDEC);
}

static void print_unary(CGen *g, const KExpr *e, int prec) {
  const KExpr *a = e->a;
  const char *op = e->op == KU_NEG ? "-" : e->op == KU_NOT ? "~" : "!";
  if (e->op == KU_LNOT) {
    a = strip_cond(a);
  } else {
    const KExpr *sa = cs_strip_widen(a);
    if (promote(ctype(sa)) == e->type) a = sa;
  }
  bool p = lparen(g, P_UNARY, prec);
  cs_puts(g, op);
  /* - -x, not -(-x): a gap keeps the tokens apart without a bracket, as brackets nest only
     so deep in the consumers (clang's limit is 256). */
  if (e->op == KU_NEG && starts_with_minus(a)) cs_puts(g, " ");
  cs_expr(g, a, P_UNARY);
  rparen(g, p);
}

static void print_vec_cast(CGen *g, const KExpr *e, int prec) {
  bool ocl = g->target == CT_OPENCL, splat = !kir_is_vec(e->a->type);
  const char *name = cs_vec_name(g, e->type);
  if (ocl && splat) {
    bool p = lparen(g, P_UNARY, prec);
    cs_printf(g, "(%s)(", name);
    cs_expr(g, e->a, P_ASSIGN);
    cs_puts(g, ")");
    rparen(g, p);
    return;
  }
  /* Element-wise conversions: a C cast between vector types is an error in OpenCL C. */
  if (ocl)
    cs_printf(g, "convert_%s(", name);
  else
    cs_printf(g, "%s<%s>(", splat ? "kcc_splat" : "kcc_convert", name);
  cs_expr(g, e->a, P_ASSIGN);
  cs_puts(g, ")");
}

static void print_cast(CGen *g, const KExpr *e, int prec) {
  if (kir_is_vec(e->type)) {
    print_vec_cast(g, e, prec);
    return;
  }
  KCastKind k = kir_cast_kind(e->a->type, e->type);
  if (k == KC_ARRAY_DECAY || (k == KC_PTR_TO_PTR && adds_quals_only(e->a->type, e->type))) {
    cs_expr(g, e->a, prec);
    return;
  }
  bool p = lparen(g, P_UNARY, prec);
  cs_printf(g, "(%s)", cs_type(g, e->type));
  /* The cast already fixes the type: a back end may print the register in its own type. */
  if (e->a->kind == KE_SPECIAL && kir_is_int(e->type)) g->bare_special = true;
  cs_expr(g, e->a, P_UNARY);
  g->bare_special = false;
  rparen(g, p);
}

bool cs_has_side_effects(const KExpr *e) {
  if (!e) return false;
  switch (e->kind) {
  case KE_ASSIGN:
  case KE_INCDEC:
  case KE_CALL:
  case KE_BUILTIN: return true;
  default: break;
  }
  if (cs_has_side_effects(e->a) || cs_has_side_effects(e->b) || cs_has_side_effects(e->c))
    return true;
  for (int i = 0; i < e->nargs; i++)
    if (cs_has_side_effects(e->args[i])) return true;
  return false;
}

static bool is_compound_ok(CGen *g, const KExpr *e, const KExpr *b) {
  /* -ffp-contract=off in CUDA: spelled out, so that the product goes through __fmul_rn
   * (an operand with side effects cannot be repeated: then nvcc may fuse it). */
  if (e->op == KB_MUL && e->optype && kir_is_float(e->optype) && g->target == CT_CUDA &&
      no_fuse(g, e) && !cs_has_side_effects(e->a))
    return false;
  /* `a op= b` computes in the usual conversion of promoted a and b: it must be KIR's optype. */
  if (!e->optype || e->optype->kind == KT_PTR) return true;
  if (kir_is_vec(e->optype)) return e->optype == e->a->type; /* no promotions on vectors */
  if (e->op == KB_SHL || e->op == KB_SHR) return promote(e->a->type) == e->optype;
  return usual_conv(promote(e->a->type), ctype(b)) == e->optype;
}

/* The target of an assignment or ++/--. CUDA has no swizzle lvalues: several components are
 * written through the preamble's kcc_lswz<...>(v) proxy, which takes v by reference (so it
 * is evaluated once). */
static void cs_expr_node(CGen *g, const KExpr *e, int prec);

/* CUDA C: a read of a vector through a volatile pointer. kcc_vec is an aggregate (kernels
 * build vectors with braces), so it cannot have the constructor from a volatile object that
 * such a read needs: kcc_vread copies it element by element. */
static bool volatile_vec_read(const CGen *g, const KExpr *e) {
  if (g->target != CT_CUDA || g->lvalue_ctx || !kir_is_vec(e->type)) return false;
  const KExpr *p = e->kind == KE_INDEX || e->kind == KE_DEREF ? e->a : NULL;
  return p && p->type->kind == KT_PTR && (p->type->qual & KQ_VOLATILE);
}

static void print_lvalue(CGen *g, const KExpr *e, int prec) {
  g->lvalue_ctx++;
  if (g->target != CT_CUDA || e->kind != KE_SWIZZLE || e->nswz == 1) {
    cs_expr(g, e, prec);
    g->lvalue_ctx--;
    return;
  }
  int idx[16];
  const KExpr *base = cs_swizzle_base(e, idx);
  cs_puts(g, "kcc_lswz<");
  for (int i = 0; i < e->nswz; i++) cs_printf(g, "%s%d", i ? ", " : "", idx[i]);
  cs_puts(g, ">(");
  cs_expr(g, base, P_ASSIGN);
  cs_puts(g, ")");
  g->lvalue_ctx--;
}

static void print_assign(CGen *g, const KExpr *e, int prec) {
  bool p = lparen(g, P_ASSIGN, prec);
  if (e->op == KB_NONE) {
    print_lvalue(g, e->a, P_UNARY);
    cs_puts(g, " = ");
    cs_expr_conv(g, e->b, P_ASSIGN);
  } else if (kir_is_vec(e->a->type) && e->optype == e->a->type) {
    print_lvalue(g, e->a, P_UNARY);
    cs_printf(g, " %s= ", binop_str(e->op));
    cs_expr(g, strip_splat(e->b), P_ASSIGN);
  } else {
    const KExpr *b = e->b;
    if (e->op == KB_SHL || e->op == KB_SHR || e->op == KB_PTR_ADD || e->op == KB_PTR_SUB)
      b = cs_strip_widen(b);
    else if (is_compound_ok(g, e, cs_strip_widen(b)))
      b = cs_strip_widen(b);
    if (is_compound_ok(g, e, b)) {
      cs_expr(g, e->a, P_UNARY);
      cs_printf(g, " %s= ", binop_str(e->op));
      cs_expr(g, b, P_ASSIGN);
    } else if (!cs_has_side_effects(e->a)) {
      /* Spell the computation type out: a = (A)((optype)a op b). */
      KExpr lhs = *e->a, op = {.kind = KE_BINARY, .type = e->optype, .op = e->op, .loc = e->loc};
      op.a = e->a->type == e->optype ? &lhs : kir_cast(&lhs, e->optype);
      op.b = e->b;
      cs_expr(g, e->a, P_UNARY);
      cs_puts(g, " = ");
      cs_expr(g, kir_cast(&op, e->a->type), P_ASSIGN);
    } else {
      cs_error(g, e->loc,
               "compound assignment computed as '%s' on an operand with side "
               "effects cannot be written as C source",
               kir_type_str(e->optype));
    }
  }
  rparen(g, p);
}

static void print_zero(CGen *g, const KType *t) {
  if (t->kind == KT_VEC && g->target == CT_OPENCL)
    cs_printf(g, "(%s)(0)", cs_vec_name(g, t));
  else if (t->kind == KT_ARRAY || t->kind == KT_STRUCT || t->kind == KT_VEC)
    cs_puts(g, "{0}");
  else if (kir_is_float(t))
    print_float(g, t, 0.0, P_ASSIGN);
  else
    cs_puts(g, "0");
}

/* Constant vector data, one constant per component: `(float4)(1.0f, 0.0f, ...)` in OpenCL C
 * (a constant expression there), `{{1.0f, 0.0f, ...}}` (the preamble's struct) in CUDA. */
static void print_vec_init(CGen *g, const KExpr *e) {
  bool ocl = g->target == CT_OPENCL;
  if (ocl)
    cs_printf(g, "(%s)(", cs_vec_name(g, e->type));
  else
    cs_puts(g, "{{");
  for (int i = 0; i < e->nargs; i++) {
    if (i) cs_puts(g, ", ");
    if (e->args[i])
      cs_expr(g, e->args[i], P_ASSIGN);
    else
      print_zero(g, e->type->base);
  }
  cs_puts(g, ocl ? ")" : "}}");
}

static void print_initlist(CGen *g, const KExpr *e) {
  if (kir_is_vec(e->type)) {
    print_vec_init(g, e);
    return;
  }
  int n = e->nargs;
  while (n > 0 && !e->args[n - 1]) n--; /* C zero-fills what is left out */
  if (n == 0) {
    cs_puts(g, "{0}");
    return;
  }
  if (e->type->kind == KT_STRUCT && e->type->st->is_union) {
    /* The one member a union's list initializes, by name (C99's designator; nvcc takes it in
       C++ too). */
    const KExpr *a = e->args[n - 1];
    cs_printf(g, "{.%s = ", cs_field(g, e->type->st, n - 1));
    if (a->kind == KE_INITLIST)
      print_initlist(g, a);
    else
      cs_expr_conv(g, a, P_ASSIGN);
    cs_puts(g, "}");
    return;
  }
  cs_puts(g, "{");
  KBuf *saved = g->out, item = {0};
  for (int i = 0; i < n; i++) {
    g->out = &item;
    item.len = 0;
    const KType *et = e->type->kind == KT_ARRAY ? e->type->base
                      : e->type->kind == KT_STRUCT && i < e->type->st->nfields
                          ? e->type->st->fields[i].type
                          : NULL;
    if (!e->args[i])
      print_zero(g, et ? et : kir_type_scalar(KT_I32));
    else if (e->args[i]->kind == KE_INITLIST)
      print_initlist(g, e->args[i]);
    else
      cs_expr_conv(g, e->args[i], P_ASSIGN);
    g->out = saved;
    cs_list_item(g, item.data, i == 0);
  }
  kbuf_free(&item);
  cs_puts(g, "}");
}

const KExpr *cs_swizzle_base(const KExpr *e, int idx[16]) {
  for (int i = 0; i < e->nswz; i++) idx[i] = e->swz[i];
  for (e = e->a; e->kind == KE_SWIZZLE; e = e->a)
    for (int i = 0; i < 16; i++) idx[i] = e->swz[idx[i] & 15];
  return e;
}

/* OpenCL C: .xyzw letters on vectors of up to 4 components, else .s and hex digits.
 * CUDA: v.s[2] for one component (an lvalue as it should be), kcc_swz<0, 1>(v) for more. */
static void print_swizzle(CGen *g, const KExpr *e, int prec) {
  int idx[16];
  const KExpr *base = cs_swizzle_base(e, idx);
  if (g->target == CT_OPENCL) {
    bool p = lparen(g, P_POSTFIX, prec);
    cs_expr(g, base, P_POSTFIX);
    cs_puts(g, base->type->len <= 4 ? "." : ".s");
    for (int i = 0; i < e->nswz; i++)
      cs_printf(g, "%c", (base->type->len <= 4 ? "xyzw" : "0123456789abcdef")[idx[i] & 15]);
    rparen(g, p);
  } else if (e->nswz == 1) {
    bool p = lparen(g, P_POSTFIX, prec);
    cs_expr(g, base, P_POSTFIX);
    cs_printf(g, ".s[%d]", idx[0]);
    rparen(g, p);
  } else {
    cs_puts(g, "kcc_swz<");
    for (int i = 0; i < e->nswz; i++) cs_printf(g, "%s%d", i ? ", " : "", idx[i]);
    cs_puts(g, ">(");
    cs_expr(g, base, P_ASSIGN);
    cs_puts(g, ")");
  }
}

/* OpenCL C: (float4)(a, b, c, d). CUDA: kcc_float4{{a, b, c, d}} from scalars, the preamble's
 * kcc_make<kcc_float4>(v, c, d) when smaller vectors are among them. */
static void print_veclit(CGen *g, const KExpr *e, int prec) {
  const char *name = cs_vec_name(g, e->type);
  bool ocl = g->target == CT_OPENCL, scalars = true;
  for (int i = 0; i < e->nargs; i++) scalars &= !kir_is_vec(e->args[i]->type);
  bool p = ocl && lparen(g, P_UNARY, prec);
  if (ocl)
    cs_printf(g, "(%s)(", name);
  else if (scalars)
    cs_printf(g, "%s{{", name);
  else
    cs_printf(g, "kcc_make<%s>(", name);
  for (int i = 0; i < e->nargs; i++) {
    if (i) cs_puts(g, ", ");
    cs_expr(g, e->args[i], P_ASSIGN);
  }
  cs_puts(g, ocl || !scalars ? ")" : "}}");
  rparen(g, p);
}

/* as_float4(x) in OpenCL C. CUDA: its intrinsics for float and double, a cast between
 * integers of one size, and the preamble's kcc_as<T>(x) (a memcpy) for vectors. */
static void print_bitcast(CGen *g, const KExpr *e, int prec) {
  const KType *from = e->a->type, *to = e->type;
  if (g->target == CT_OPENCL) {
    cs_printf(g, "as_%s(", kir_is_vec(to) ? cs_vec_name(g, to) : cs_scalar(g, to->kind));
    if (is_small_int(from) && from->kind != KT_BOOL) {
      /* as_T needs the operand's own size: C promotes a short's arithmetic to int */
      cs_printf(g, "(%s)", cs_scalar(g, from->kind));
      cs_expr(g, e->a, P_UNARY);
    } else {
      cs_expr_exact(g, e->a, P_ASSIGN);
    }
    cs_puts(g, ")");
    return;
  }
  if (kir_is_vec(from) || kir_is_vec(to)) {
    cs_printf(g, "kcc_as<%s>(", kir_is_vec(to) ? cs_vec_name(g, to) : cs_scalar(g, to->kind));
    cs_expr_exact(g, e->a, P_ASSIGN);
    cs_puts(g, ")");
    return;
  }
  if (kir_is_int(from) && kir_is_int(to)) {
    bool p = lparen(g, P_UNARY, prec);
    cs_printf(g, "(%s)", cs_scalar(g, to->kind));
    cs_expr(g, e->a, P_UNARY);
    rparen(g, p);
    return;
  }
  const char *fn = NULL, *arg = NULL, *res = NULL;
  bool f32 = from->size == 4;
  if (kir_is_float(to)) {
    fn = f32 ? (from->kind == KT_U32 ? "__uint_as_float" : "__int_as_float")
             : "__longlong_as_double";
    if (!f32 && from->kind != KT_I64) arg = "long long";
  } else {
    fn = f32 ? (to->kind == KT_U32 ? "__float_as_uint" : "__float_as_int") : "__double_as_longlong";
    if (!f32 && to->kind != KT_I64) res = cs_scalar(g, to->kind);
  }
  bool p = res && lparen(g, P_UNARY, prec);
  if (res) cs_printf(g, "(%s)", res);
  cs_printf(g, "%s(", fn);
  if (arg) {
    cs_printf(g, "(%s)", arg);
    cs_expr(g, e->a, P_UNARY);
  } else {
    cs_expr_exact(g, e->a, P_ASSIGN);
  }
  cs_puts(g, ")");
  rparen(g, p);
}

void cs_expr(CGen *g, const KExpr *e, int prec) {
  /* A CUDA texture or surface call on a kcrt image: OpenCL C writes its image form. */
  if (e->kind == KE_BUILTIN && e->alt && g->target == CT_OPENCL) e = e->alt;
  if (volatile_vec_read(g, e)) {
    cs_puts(g, "kcc_vread(");
    g->lvalue_ctx++;
    cs_expr(g, e, P_LOWEST);
    g->lvalue_ctx--;
    cs_puts(g, ")");
    return;
  }
  /* Inside an lvalue, operands that are read again (an index, a pointer) are rvalues. */
  int saved_ctx = g->lvalue_ctx;
  if (e->kind != KE_INDEX && e->kind != KE_DEREF && e->kind != KE_SWIZZLE) g->lvalue_ctx = 0;
  cs_expr_node(g, e, prec);
  g->lvalue_ctx = saved_ctx;
}

/* Inline PTX: CUDA C writes the asm statement back, outputs as the objects KIR points to;
 * OpenCL C has no way to run PTX. */
static void print_asm(CGen *g, const KExpr *e) {
  const KAsm *a = e->asm_;
  if (g->target != CT_CUDA) {
    cs_error(g, e->loc,
             "inline PTX assembly (asm) is not available in OpenCL C output; use the PTX or "
             "CUDA C form");
    return;
  }
  cs_puts(g, a->is_volatile ? "asm volatile(" : "asm(");
  cs_string(g, a->text, strlen(a->text));
  for (int part = 0;
       part < 2 && (part == 0 ? a->nout + a->nin + a->nclobbers : a->nin + a->nclobbers); part++) {
    cs_puts(g, " :");
    int from = part ? a->nout : 0, to = part ? a->nout + a->nin : a->nout;
    for (int i = from; i < to; i++) {
      cs_puts(g, i > from ? ", " : " ");
      cs_string(g, a->cons[i], strlen(a->cons[i]));
      cs_puts(g, "(");
      if (part == 0 && e->args[i]->kind == KE_ADDR) {
        cs_expr(g, e->args[i]->a, P_ASSIGN);
      } else if (part == 0) {
        cs_puts(g, "*");
        cs_expr(g, e->args[i], P_UNARY);
      } else { /* the operand's own type: a constant's would be int */
        cs_printf(g, "(%s)(", cs_type(g, e->args[i]->type));
        cs_expr(g, e->args[i], P_ASSIGN);
        cs_puts(g, ")");
      }
      cs_puts(g, ")");
    }
  }
  if (a->nclobbers) {
    cs_puts(g, " :");
    for (int i = 0; i < a->nclobbers; i++) {
      cs_puts(g, i ? ", " : " ");
      cs_string(g, a->clobbers[i], strlen(a->clobbers[i]));
    }
  }
  cs_puts(g, ")");
}

static void cs_expr_node(CGen *g, const KExpr *e, int prec) {
  bool p;
  switch (e->kind) {
  case KE_ASM: print_asm(g, e); return;
  case KE_SWIZZLE: print_swizzle(g, e, prec); return;
  case KE_VECLIT: print_veclit(g, e, prec); return;
  case KE_BITCAST: print_bitcast(g, e, prec); return;
  case KE_ICONST:
    if (e->type->kind == KT_SAMPLER && g->target == CT_CUDA) {
      cs_printf(g, "%uu", (unsigned)e->ival);
      return;
    }
    if (e->type->kind == KT_SAMPLER) {
      g->samplers |= 1ull << (e->ival & 63); /* kir_sampler_valid: below 64 */
      cs_printf(g, "kcc_sampler_%d", (int)(e->ival & 63));
      return;
    }
    p = int_negative(e) && lparen(g, P_UNARY, prec);
    cs_int(g, e->type, e->ival);
    rparen(g, p);
    return;
  case KE_FCONST: print_float(g, e->type, e->fval, prec); return;
  case KE_STR:
    if (g->target == CT_CUDA) {
      /* Our char is `signed char` in CUDA; the literal is plain char. */
      p = lparen(g, P_UNARY, prec);
      cs_puts(g, "(const signed char *)");
      cs_string(g, e->str, e->len);
      rparen(g, p);
    } else {
      cs_string(g, e->str, e->len);
    }
    return;
  case KE_VAR: cs_puts(g, cs_var(e->var)); return;
  case KE_GVAR:
    if (g->hooks->gvar)
      g->hooks->gvar(g, e, prec);
    else
      cs_puts(g, cs_var(e->var));
    return;
  case KE_SPECIAL:
  case KE_BUILTIN: g->hooks->builtin(g, e, prec); return;
  case KE_UNARY: print_unary(g, e, prec); return;
  case KE_INCDEC: {
    bool pre = e->op == KU_PREINC || e->op == KU_PREDEC;
    const char *op = e->op == KU_PREINC || e->op == KU_POSTINC ? "++" : "--";
    if (g->target == CT_OPENCL && kir_is_vec(e->type) && kir_is_float(e->type->base)) {
      /* OpenCL C has no ++ and -- on floating-point vectors. */
      if (!pre && g->unused != e)
        cs_error(g, e->loc,
                 "the value of a postfix %s on a floating-point vector cannot be written "
                 "as OpenCL C; use the prefix form or a separate statement",
                 op);
      p = lparen(g, P_ASSIGN, prec);
      cs_expr(g, e->a, P_UNARY);
      cs_printf(g, " %c= 1.0%s", op[0], e->type->base->kind == KT_F32 ? "f" : "");
      rparen(g, p);
      return;
    }
    if (e->a->type->kind == KT_BOOL && g->target == CT_CUDA)
      cs_error(g, e->loc,
               "++ and -- on a bool cannot be written as CUDA C++ (C++17 removed "
               "them); assign true or false instead");
    p = lparen(g, pre ? P_UNARY : P_POSTFIX, prec);
    if (pre) cs_puts(g, op);
    print_lvalue(g, e->a, pre ? P_UNARY : P_POSTFIX);
    if (!pre) cs_puts(g, op);
    rparen(g, p);
    return;
  }
  case KE_BINARY: print_binary(g, e, prec); return;
  case KE_ASSIGN: print_assign(g, e, prec); return;
  case KE_COND: {
    const KExpr *b = e->b, *c = e->c;
    if (kir_is_arith(e->type)) arith_operands(&b, &c, e->type);
    p = lparen(g, P_COND, prec);
    /* `(a && b) ? x : y` reads better with the parentheses C does not need. */
    const KExpr *cond = strip_cond(e->a);
    if (kir_is_float(cond->type)) {
      /* OpenCL C rejects a floating-point ?: condition; compare explicitly. */
      cs_puts(g, "(");
      cs_expr(g, cond, P_REL);
      cs_puts(g, " != 0)");
    } else {
      cs_expr(g, cond,
              cond->kind == KE_BINARY && (cond->op == KB_LAND || cond->op == KB_LOR) ? P_PRIMARY
                                                                                     : P_LOR);
    }
    cs_puts(g, " ? ");
    /* C's grammar takes any expression here, nested ?: included: parentheses around each
     * nested one would pile up past the compilers' bracket depth (clang: 256). */
    cs_expr(g, b, P_COMMA);
    cs_puts(g, " : ");
    cs_expr(g, c, P_COND);
    rparen(g, p);
    return;
  }
  case KE_COMMA:
    p = lparen(g, P_COMMA, prec);
    cs_expr(g, e->a, P_COMMA);
    cs_puts(g, ", ");
    cs_expr(g, e->b, P_ASSIGN);
    rparen(g, p);
    return;
  case KE_CAST: print_cast(g, e, prec); return;
  case KE_INDEX:
    p = lparen(g, P_POSTFIX, prec);
    cs_expr(g, e->a, P_POSTFIX);
    cs_puts(g, "[");
    cs_expr(g, cs_strip_widen(e->b), P_LOWEST);
    cs_puts(g, "]");
    rparen(g, p);
    return;
  case KE_MEMBER: {
    const KStruct *st = e->a->type->st;
    p = lparen(g, P_POSTFIX, prec);
    if (e->a->kind == KE_DEREF) {
      cs_expr(g, e->a->a, P_POSTFIX);
      cs_printf(g, "->%s", cs_field(g, st, e->field));
    } else if (e->a->kind == KE_GVAR && g->hooks->gvar_is_deref &&
               g->hooks->gvar_is_deref(g, e->a->var)) {
      cs_printf(g, "%s->%s", cs_var(e->a->var), cs_field(g, st, e->field));
    } else {
      cs_expr(g, e->a, P_POSTFIX);
      cs_printf(g, ".%s", cs_field(g, st, e->field));
    }
    rparen(g, p);
    return;
  }
  case KE_DEREF:
    p = lparen(g, P_UNARY, prec);
    cs_puts(g, "*");
    cs_expr(g, e->a, P_UNARY);
    rparen(g, p);
    return;
  case KE_ADDR:
    if (e->a->kind == KE_GVAR && g->hooks->gvar_addr) {
      g->hooks->gvar_addr(g, e, prec);
      return;
    }
    p = lparen(g, P_UNARY, prec);
    cs_puts(g, "&");
    g->lvalue_ctx++;
    cs_expr(g, e->a, P_UNARY);
    g->lvalue_ctx--;
    rparen(g, p);
    return;
  case KE_CALL:
    p = lparen(g, P_POSTFIX, prec);
    cs_printf(g, "%s(", cs_func(e->callee));
    for (int i = 0; i < e->nargs; i++) {
      if (i) cs_puts(g, ", ");
      cs_expr_conv(g, e->args[i], P_ASSIGN);
    }
    if (g->hooks->call_extra) g->hooks->call_extra(g, e->callee, e->nargs > 0);
    cs_puts(g, ")");
    rparen(g, p);
    return;
  case KE_INITLIST:
    /* Only declarations take initializer lists (KS_DECL, constants); anything else would be
     * a compound literal, which C++ does not have. */
    if (prec <= P_ASSIGN)
      print_initlist(g, e);
    else
      cs_error(g, e->loc, "aggregate initializer used as a value");
    return;
  }
}

void cs_expr_conv(CGen *g, const KExpr *e, int prec) {
  if (e->kind == KE_INITLIST) {
    print_initlist(g, e);
    return;
  }
  cs_expr(g, cs_strip_widen(e), prec);
}

static bool is_truth_value(const KExpr *e) {
  if (kir_is_vec(e->type)) return false; /* masks */
  if (e->kind == KE_UNARY) return e->op == KU_LNOT;
  if (e->kind != KE_BINARY) return false;
  return (e->op >= KB_EQ && e->op <= KB_GE) || e->op == KB_LAND || e->op == KB_LOR;
}

void cs_expr_exact(CGen *g, const KExpr *e, int prec) {
  if (e->kind == KE_ICONST && ctype(e) != e->type) {
    bool p = lparen(g, P_UNARY, prec);
    cs_printf(g, "(%s)", cs_type(g, e->type));
    cs_int(g, e->type, e->ival);
    rparen(g, p);
  } else if (g->target == CT_CUDA && is_truth_value(e)) {
    /* C++ gives comparisons the type bool; KIR says int. */
    bool p = lparen(g, P_UNARY, prec);
    cs_puts(g, "(int)");
    cs_expr(g, e, P_PRIMARY);
    rparen(g, p);
  } else {
    cs_expr(g, e, prec);
  }
}

void cs_expr_cond(CGen *g, const KExpr *e, int prec) {
  cs_expr(g, strip_cond(e), prec);
}

/* ---------------------------------------------------------------- statements */

static void print_decl(CGen *g, const KVar *v, const KExpr *init) {
  cs_puts(g, cs_decl(g, v->type, cs_var(v), v->is_const ? "const" : NULL));
  if (init) {
    cs_puts(g, " = ");
    cs_expr_conv(g, init, P_ASSIGN);
  }
}

static bool simple_stmt(const KStmt *s) {
  return s->kind == KS_EXPR || s->kind == KS_RETURN || s->kind == KS_BREAK ||
         s->kind == KS_CONTINUE || s->kind == KS_EMPTY || s->kind == KS_DECL;
}

static void block_items(CGen *g, const KStmt *s, bool in_switch);

/* The body of if/while/for after its header: ` {` ... `}` for blocks (returns true: the
 * caller continues on the line of the brace), or the statement on its own indented line. */
static bool sub_stmt(CGen *g, const KStmt *s, bool brace) {
  if (s->kind == KS_BLOCK || brace) {
    cs_puts(g, " {\n");
    g->depth++;
    if (s->kind == KS_BLOCK)
      block_items(g, s, false);
    else
      cs_stmt(g, s);
    g->depth--;
    cs_indent(g);
    cs_puts(g, "}");
    return true;
  }
  cs_puts(g, "\n");
  g->depth++;
  cs_stmt(g, s);
  g->depth--;
  return false;
}

static void end_sub(CGen *g, bool braced) {
  if (braced) cs_puts(g, "\n");
}

static void print_if(CGen *g, const KStmt *s) {
  cs_puts(g, "if (");
  cs_expr_cond(g, s->cond, P_LOWEST);
  cs_puts(g, ")");
  /* With an else, a then-branch that could swallow it (a nested if, a loop) gets braces. */
  bool braced = sub_stmt(g, s->then, s->els && !simple_stmt(s->then));
  if (!s->els) {
    end_sub(g, braced);
    return;
  }
  if (braced) {
    cs_puts(g, " else");
  } else {
    cs_indent(g);
    cs_puts(g, "else");
  }
  if (s->els->kind == KS_IF) {
    cs_puts(g, " ");
    print_if(g, s->els);
    return;
  }
  end_sub(g, sub_stmt(g, s->els, false));
}

/* `for (int i = 0, j = n; ...)`: several declarations share a header only with one type. */
static bool for_init_inline(const KStmt *init) {
  if (!init || init->kind == KS_DECL || init->kind == KS_EXPR || init->kind == KS_EMPTY)
    return true;
  if (init->kind != KS_BLOCK || init->list.n == 0) return false;
  for (int i = 0; i < init->list.n; i++) {
    const KStmt *d = init->list.v[i], *d0 = init->list.v[0];
    if (d->kind != KS_DECL || d->var->kind != KV_LOCAL || d->var->type != d0->var->type ||
        d->var->is_const != d0->var->is_const || d->var->type->kind == KT_ARRAY ||
        d->var->type->kind == KT_PTR)
      return false;
  }
  return true;
}

/* A loop's unrolling hint (KStmt.unroll) as the line before it: `#pragma unroll N` (1: never;
 * bare: fully), which nvcc and the OpenCL C compilers (clang-based) take in every version,
 * where OpenCL 2.0's opencl_unroll_hint attribute is not in OpenCL C 1.2. */
static void unroll_hint(CGen *g, const KStmt *s) {
  if (!s->unroll) return;
  if (s->unroll == -2)
    cs_puts(g, "#pragma unroll\n");
  else
    cs_printf(g, "#pragma unroll %d\n", s->unroll == -1 ? 1 : s->unroll);
  cs_indent(g);
}

static void print_for(CGen *g, const KStmt *s) {
  const KStmt *init = s->init_stmt;
  bool wrap = !for_init_inline(init);
  if (wrap) {
    /* The declarations go in a block of their own: the same scope the for statement gave. */
    cs_puts(g, "{\n");
    g->depth++;
    if (init->kind == KS_BLOCK)
      block_items(g, init, false);
    else
      cs_stmt(g, init);
    cs_indent(g);
    init = NULL;
  }
  unroll_hint(g, s);
  cs_puts(g, "for (");
  if (init && init->kind == KS_DECL) {
    print_decl(g, init->var, init->init);
  } else if (init && init->kind == KS_EXPR) {
    cs_expr(g, init->expr, P_LOWEST);
  } else if (init && init->kind == KS_BLOCK) {
    for (int i = 0; i < init->list.n; i++) {
      const KStmt *d = init->list.v[i];
      if (i == 0) {
        print_decl(g, d->var, d->init);
        continue;
      }
      cs_printf(g, ", %s", cs_var(d->var));
      if (d->init) {
        cs_puts(g, " = ");
        cs_expr_conv(g, d->init, P_ASSIGN);
      }
    }
  }
  cs_puts(g, ";");
  if (s->cond) {
    cs_puts(g, " ");
    cs_expr_cond(g, s->cond, P_LOWEST);
  }
  cs_puts(g, ";");
  if (s->step) {
    cs_puts(g, " ");
    g->unused = s->step;
    cs_expr(g, s->step, P_LOWEST);
    g->unused = NULL;
  }
  cs_puts(g, ")");
  end_sub(g, sub_stmt(g, s->body, false));
  if (wrap) {
    g->depth--;
    cs_indent(g);
    cs_puts(g, "}\n");
  }
}

/* Whether s holds a goto's label (at any depth). */
static bool has_label(const KStmt *s) {
  if (!s) return false;
  if (s->kind == KS_LABEL) return true;
  for (int i = 0; i < s->list.n; i++)
    if (has_label(s->list.v[i])) return true;
  return has_label(s->init_stmt) || has_label(s->then) || has_label(s->els) || has_label(s->body);
}

/* Statements of a block. In a switch body, labels sit one level out, a label directly before
 * a declaration gets a `;` (C99 labels a statement, not a declaration) and, in C++, a
 * declaration that a later case or goto label jumps past loses its initializer to an
 * assignment, since C++ forbids jumping past an initialization. */
static void block_items(CGen *g, const KStmt *s, bool in_switch) {
  /* In C++, the last items a jump may land on: a case label of this switch body, an item
   * holding a goto's label. A declaration before one may be jumped past. */
  int last_case = -1, last_label = -1;
  if (g->target == CT_CUDA)
    for (int i = 0; i < s->list.n; i++) {
      const KStmt *c = s->list.v[i];
      if (in_switch && c->kind == KS_CASE) last_case = i;
      if (has_label(c)) last_label = i;
    }
  for (int i = 0; i < s->list.n; i++) {
    const KStmt *c = s->list.v[i];
    if (c->kind == KS_CASE) {
      int d = g->depth;
      g->depth = d > 0 ? d - 1 : 0;
      cs_indent(g);
      g->depth = d;
      if (c->is_default) {
        cs_puts(g, "default:");
      } else {
        cs_puts(g, "case ");
        cs_int(g, g->case_type ? g->case_type : kir_type_scalar(KT_I32), (uint64_t)c->value);
        cs_puts(g, ":");
      }
      const KStmt *next = i + 1 < s->list.n ? s->list.v[i + 1] : NULL;
      if (next && next->kind == KS_BLOCK) {
        /* `case 4: {` ... `}` with the braces at the label's level. */
        cs_puts(g, " {\n");
        block_items(g, next, false);
        g->depth = d > 0 ? d - 1 : 0;
        cs_indent(g);
        g->depth = d;
        cs_puts(g, "}\n");
        i++;
        continue;
      }
      cs_puts(g, next && next->kind == KS_DECL ? ";\n" : "\n");
      continue;
    }
    bool case_after = i < last_case;
    if (g->target == CT_CUDA && c->kind == KS_DECL && c->init && c->var->kind == KV_LOCAL &&
        (case_after || i < last_label)) {
      if (c->init->kind == KE_INITLIST) {
        cs_error(g, c->loc,
                 "a later %s jumps past this initialized aggregate, which C++ forbids; "
                 "declare it inside braces",
                 case_after ? "case label" : "goto's label");
        continue;
      }
      cs_indent(g);
      cs_puts(g, cs_decl(g, c->var->type, cs_var(c->var), NULL)); /* assigned: never const */
      cs_puts(g, ";\n");
      cs_indent(g);
      cs_printf(g, "%s = ", cs_var(c->var));
      cs_expr_conv(g, c->init, P_ASSIGN);
      cs_puts(g, ";\n");
      continue;
    }
    cs_stmt(g, c);
  }
}

static void print_switch(CGen *g, const KStmt *s) {
  cs_puts(g, "switch (");
  cs_expr(g, s->cond, P_LOWEST);
  cs_puts(g, ") {\n");
  g->depth++;
  /* Case values are printed in the controlling expression's (promoted) type. */
  const KType *saved = g->case_type;
  g->case_type = s->cond->type;
  if (s->body->kind == KS_BLOCK)
    block_items(g, s->body, true);
  else
    cs_stmt(g, s->body);
  g->case_type = saved;
  g->depth--;
  cs_indent(g);
  cs_puts(g, "}\n");
}

void cs_stmt(CGen *g, const KStmt *s) {
  if (!s) return;
  if (s->kind == KS_CASE) {
    /* A label nested below the switch body's own block (rare): same printing. */
    KStmt wrap = {.kind = KS_BLOCK};
    klist_push(&wrap.list, (void *)s);
    block_items(g, &wrap, false);
    return;
  }
  if (s->kind == KS_DECL && s->var->kind != KV_LOCAL && s->var->kind != KV_PARAM)
    return; /* shared and constant variables are declared by the back end */
  cs_indent(g);
  switch (s->kind) {
  case KS_BLOCK:
    cs_puts(g, "{\n");
    g->depth++;
    block_items(g, s, false);
    g->depth--;
    cs_indent(g);
    cs_puts(g, "}\n");
    return;
  case KS_DECL:
    print_decl(g, s->var, s->init);
    cs_puts(g, ";\n");
    return;
  case KS_EXPR:
    g->discard = s->expr->kind == KE_BUILTIN;
    g->unused = s->expr;
    cs_expr(g, s->expr, P_LOWEST);
    g->discard = false;
    g->unused = NULL;
    cs_puts(g, ";\n");
    return;
  case KS_IF: print_if(g, s); return;
  case KS_WHILE:
    unroll_hint(g, s);
    cs_puts(g, "while (");
    cs_expr_cond(g, s->cond, P_LOWEST);
    cs_puts(g, ")");
    end_sub(g, sub_stmt(g, s->body, false));
    return;
  case KS_DO: {
    unroll_hint(g, s);
    cs_puts(g, "do");
    bool braced = sub_stmt(g, s->body, true);
    (void)braced;
    cs_puts(g, " while (");
    cs_expr_cond(g, s->cond, P_LOWEST);
    cs_puts(g, ");\n");
    return;
  }
  case KS_FOR: print_for(g, s); return;
  case KS_BREAK: cs_puts(g, "break;\n"); return;
  case KS_CONTINUE: cs_puts(g, "continue;\n"); return;
  case KS_RETURN:
    if (s->expr) {
      cs_puts(g, "return ");
      cs_expr_conv(g, s->expr, P_LOWEST);
      cs_puts(g, ";\n");
    } else {
      cs_puts(g, "return;\n");
    }
    return;
  case KS_SWITCH: print_switch(g, s); return;
  case KS_EMPTY: cs_puts(g, ";\n"); return;
  case KS_CASE: return;
  /* C's labels have a name space of their own: the source's names serve. A label's `;`
     lets it end a block or precede a declaration. */
  case KS_LABEL: cs_printf(g, "%s:;\n", s->label); return;
  case KS_GOTO: cs_printf(g, "goto %s;\n", s->target->label); return;
  }
}

void cs_body(CGen *g, KFunc *f) {
  KFunc *saved = g->fn;
  g->fn = f;
  cs_puts(g, "{\n");
  g->depth++;
  for (int i = 0; i < f->nparams; i++) {
    const KVar *p = f->params[i];
    if (cs_param_in(g, p) == cs_var(p)) continue;
    cs_indent(g);
    cs_printf(g, "%s = ", cs_decl(g, p->type, cs_var(p), NULL));
    if (g->hooks->param_init)
      g->hooks->param_init(g, p);
    else
      cs_puts(g, cs_param_in(g, p));
    cs_puts(g, ";\n");
  }
  /* FP_CONTRACT OFF somewhere in f: OpenCL C scopes the pragma to the body (contraction is a
     permission, so the rest of the body losing it changes no result that was allowed). */
  if (g->target == CT_OPENCL && g->o->fp_contract && kir_func_no_contract(f))
    cs_puts(g, "#pragma OPENCL FP_CONTRACT OFF\n");
  if (g->hooks->prologue) g->hooks->prologue(g, f);
  if (f->body && f->body->kind == KS_BLOCK)
    block_items(g, f->body, false);
  else
    cs_stmt(g, f->body);
  g->depth--;
  cs_indent(g);
  cs_puts(g, "}\n");
  g->fn = saved;
}
