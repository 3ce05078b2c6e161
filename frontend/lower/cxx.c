/* cxx.c — the C++ of device code, in the shared lowering (CUDA input is C++): member functions,
 * the names of overloads, specialisations and methods, constructors and C++'s default and
 * aggregate initialization, calls C++ spells without a named function, and the class features
 * kcc refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* ---------------------------------------------------------------- methods */

bool fe_is_method(CXCursor fn) {
  enum CXCursorKind k = clang_getCursorKind(fn);
  return (k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction ||
          k == CXCursor_Constructor) &&
         !clang_CXXMethod_isStatic(fn);
}

/* ---------------------------------------------------------------- names */

/* The name of the function template argument i of specialisation def names (`op_add` for
 * `k<&op_add, 4>`), from def's USR (`c:@F@k<#@F@op_add#f#f##VI4>#...`), where each function
 * argument appears as `@F@NAME` in order; false if it cannot be found. libclang's display
 * name leaves the arguments out. */
static bool template_arg_text(CXCursor def, int i, char *out, size_t cap) {
  int d = 0; /* declaration arguments before i */
  for (int a = 0; a < i; a++)
    if (clang_Cursor_getTemplateArgumentKind(def, (unsigned)a) ==
        CXTemplateArgumentKind_Declaration)
      d++;
  CXString usr = clang_getCursorUSR(def);
  const char *s = clang_getCString(usr), *p = s ? strchr(s, '<') : NULL;
  bool found = false;
  while (p && (p = strstr(p, "@F@"))) {
    p += 3;
    if (d--) continue;
    size_t n = strcspn(p, "#<>@");
    if (n && n < cap) {
      memcpy(out, p, n);
      out[n] = 0;
      found = true;
    }
    break;
  }
  clang_disposeString(usr);
  return found;
}

/* Whether the template parameter of def's template that argument i is given for has an
 * unsigned type (bool included); false where that cannot be told (parameter packs). */
typedef struct TParamFind {
  int want, at;
  bool is_unsigned, found;
} TParamFind;

static enum CXChildVisitResult tparam_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  TParamFind *f = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter &&
      k != CXCursor_TemplateTemplateParameter)
    return CXChildVisit_Continue;
  if (f->at++ != f->want) return CXChildVisit_Continue;
  CXType t = clang_getCanonicalType(clang_getCursorType(c));
  f->found = true;
  f->is_unsigned = k == CXCursor_NonTypeTemplateParameter &&
                   (t.kind == CXType_Bool || t.kind == CXType_UChar || t.kind == CXType_Char_U ||
                    t.kind == CXType_UShort || t.kind == CXType_UInt || t.kind == CXType_ULong ||
                    t.kind == CXType_ULongLong);
  return CXChildVisit_Break;
}

static bool unsigned_template_param(CXCursor def, int i) {
  CXCursor tmpl = clang_getSpecializedCursorTemplate(def);
  if (clang_Cursor_isNull(tmpl)) return false;
  TParamFind f = {i, 0, false, false};
  clang_visitChildren(tmpl, tparam_visit, &f);
  return f.found && f.is_unsigned;
}

static const struct {
  const char *op, *name;
} operator_names[] = {
    {"+=", "add_assign"},  {"-=", "sub_assign"},  {"*=", "mul_assign"}, {"/=", "div_assign"},
    {"%=", "mod_assign"},  {"&=", "and_assign"},  {"|=", "or_assign"},  {"^=", "xor_assign"},
    {"<<=", "shl_assign"}, {">>=", "shr_assign"}, {"==", "eq"},         {"!=", "ne"},
    {"<=", "le"},          {">=", "ge"},          {"<<", "shl"},        {">>", "shr"},
    {"&&", "land"},        {"||", "lor"},         {"++", "inc"},        {"--", "dec"},
    {"->", "arrow"},       {"()", "call"},        {"[]", "index"},      {"+", "add"},
    {"-", "sub"},          {"*", "mul"},          {"/", "div"},         {"%", "mod"},
    {"&", "and"},          {"|", "or"},           {"^", "xor"},         {"~", "not"},
    {"!", "lnot"},         {"<", "lt"},           {">", "gt"},          {"=", "assign"},
};

/* Appends s to b as identifier characters (others become '_'). */
static void append_ident(char *b, size_t cap, const char *s) {
  size_t n = strlen(b);
  for (; *s && n + 1 < cap; s++) {
    char ch = *s;
    bool ok = ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9');
    if (ch == ' ' && n && b[n - 1] == '_') continue;
    b[n++] = ok ? ch : '_';
  }
  b[n] = 0;
}

static bool name_taken(FeCtx *fe, const char *name) {
  for (int i = 0; i < fe->m->funcs.n; i++)
    if (!strcmp(((KFunc *)fe->m->funcs.v[i])->name, name)) return true;
  return false;
}

static bool kernel_name_written(FeCtx *fe, const char *name) {
  for (int i = 0; i < fe->kernel_names.n; i++)
    if (!strcmp(fe->kernel_names.v[i], name)) return true;
  return false;
}

void fe_cxx_reserve_kernel_names(FeCtx *fe, CXCursor scope) {
  FeKids k;
  fe_kids(scope, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor c = k.v[i];
    if (fe_in_vfile(fe, c)) continue;
    enum CXCursorKind ck = clang_getCursorKind(c);
    if (ck == CXCursor_Namespace || ck == CXCursor_LinkageSpec)
      fe_cxx_reserve_kernel_names(fe, c);
    else if (ck == CXCursor_FunctionDecl && fe_has_annotation(c, "kcc.kernel"))
      klist_push(&fe->kernel_names, (void *)fe_spelling(c));
  }
  fe_kids_free(&k);
}

/* Whether a function may take `name`: free, and either a kernel's own written name or no
 * kernel's written name (a made-up name must not take a later kernel's). */
static bool name_free(FeCtx *fe, const char *name, bool written) {
  return !name_taken(fe, name) && (written || !kernel_name_written(fe, name));
}

const char *fe_cxx_func_name(FeCtx *fe, CXCursor def, bool kernel) {
  char buf[512] = "";
  const char *sp = fe_spelling(def);
  /* A kernel keeps the name it is written with, as in .k and .cl input: one that is not a
     plain identifier (`k$x`, UTF-8) reaches the check every input gets (limits.c), never a
     spelling of kcc's that another kernel may have. */
  if (kernel && !kir_is_plain_identifier(sp)) return sp;
  if (clang_getCursorKind(def) == CXCursor_CXXMethod ||
      clang_getCursorKind(def) == CXCursor_ConversionFunction) {
    /* Class_method (the class spelled with its template arguments: tile_32_); a lambda's
       operator: lambda_LINE. */
    CXCursor cls = clang_getCursorSemanticParent(def);
    if (fe_cxx_is_lambda_class(cls)) {
      unsigned line;
      clang_getExpansionLocation(clang_getCursorLocation(cls), NULL, &line, NULL, NULL);
      snprintf(buf, sizeof buf, "lambda_%u", line);
      if (name_free(fe, buf, false)) return kir_strdup(buf);
      goto numbered;
    }
    CXString s = clang_getTypeSpelling(clang_getCursorType(cls));
    const char *cs = clang_getCString(s);
    const char *last = cs ? strrchr(cs, ':') : NULL; /* drop the namespace */
    append_ident(buf, sizeof buf, last ? last + 1 : cs ? cs : "");
    clang_disposeString(s);
    append_ident(buf, sizeof buf, "_");
  }
  if (!strncmp(sp, "operator", 8) &&
      !(sp[8] == '_' || (sp[8] >= 'a' && sp[8] <= 'z') || (sp[8] >= 'A' && sp[8] <= 'Z') ||
        (sp[8] >= '0' && sp[8] <= '9'))) {
    const char *op = sp + 8;
    while (*op == ' ') op++;
    const char *nm = NULL;
    for (size_t i = 0; i < sizeof operator_names / sizeof *operator_names && !nm; i++)
      if (!strcmp(op, operator_names[i].op)) nm = operator_names[i].name;
    append_ident(buf, sizeof buf, "operator_");
    append_ident(buf, sizeof buf, nm ? nm : op);
  } else {
    append_ident(buf, sizeof buf, sp);
  }
  int nt = clang_Cursor_getNumTemplateArguments(def);
  for (int i = 0; i < nt; i++) {
    char arg[128];
    switch (clang_Cursor_getTemplateArgumentKind(def, (unsigned)i)) {
    case CXTemplateArgumentKind_Integral: {
      /* libclang sign-extends every value, a bool's `true` (one bit) to -1: an unsigned
         parameter's reads as unsigned. */
      bool is_unsigned = unsigned_template_param(def, i);
      long long v = clang_Cursor_getTemplateArgumentValue(def, (unsigned)i);
      if (is_unsigned || v >= 0)
        snprintf(arg, sizeof arg, "_%llu",
                 clang_Cursor_getTemplateArgumentUnsignedValue(def, (unsigned)i));
      else
        snprintf(arg, sizeof arg, "_m%llu", 0ull - (unsigned long long)v);
      break;
    }
    case CXTemplateArgumentKind_Type: {
      CXString s = clang_getTypeSpelling(clang_Cursor_getTemplateArgumentType(def, (unsigned)i));
      snprintf(arg, sizeof arg, "_%s", clang_getCString(s) ? clang_getCString(s) : "T");
      clang_disposeString(s);
      break;
    }
    default:
      /* A function (`template <float (*op)(float)>`): its name; else the position. */
      if (clang_Cursor_getTemplateArgumentKind(def, (unsigned)i) !=
              CXTemplateArgumentKind_Declaration ||
          !template_arg_text(def, i, arg + 1, sizeof arg - 1))
        snprintf(arg + 1, sizeof arg - 1, "%d", i);
      arg[0] = '_';
      break;
    }
    append_ident(buf, sizeof buf, arg);
  }
  if (name_free(fe, buf, kernel && !strcmp(buf, sp))) return kir_strdup(buf);
  if (kernel) {
    /* Overloaded kernels: the later ones are named after their parameter types
       (simple_kernel_const_int2_p_int2_p_int). */
    CXType ft = clang_getCursorType(def);
    int np = clang_getNumArgTypes(ft);
    for (int i = 0; i < np; i++) {
      CXString ts = clang_getTypeSpelling(clang_getArgType(ft, (unsigned)i));
      char t[160];
      snprintf(t, sizeof t, "_%s", clang_getCString(ts) ? clang_getCString(ts) : "T");
      clang_disposeString(ts);
      for (char *q = t; *q; q++)
        if (*q == '*') *q = 'p';
      append_ident(buf, sizeof buf, t);
    }
    if (name_free(fe, buf, false)) return kir_strdup(buf);
  }
numbered:;
  /* C++ overloads share a name; KIR's functions may not. */
  size_t len = strlen(buf);
  for (int k = 2;; k++) {
    snprintf(buf + (len < sizeof buf - 16 ? len : sizeof buf - 16), 16, "_%d", k);
    if (name_free(fe, buf, false)) return kir_strdup(buf);
  }
}

/* ---------------------------------------------------------------- calls */

KFunc *fe_cxx_function(FeCtx *fe, CXCursor fn) {
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return NULL;
  KFunc *f = fe_map_get(&fe->decls, clang_getCanonicalCursor(def));
  if (f) return f;
  if (fe_in_vfile(fe, def)) return fe_vfile_function(fe, def);
  if (fe_is_method(def) && fe_cxx_is_lambda_class(clang_getCursorSemanticParent(def)))
    return fe_cxx_lambda_method(fe, def);
  f = fe_declare_function(fe, def);
  fe_lower_body(fe, f, def);
  return f;
}

/* The member-call object of c (the MemberRefExpr's base), or a null cursor. */
static CXCursor member_object(CXCursor c, CXCursor fn, bool *is_member) {
  FeKids k;
  fe_kids_expr(c, &k);
  CXCursor obj = clang_getNullCursor();
  *is_member = false;
  /* `a.m = b` through operator= also starts with a MemberRefExpr: the member must be fn. */
  if (k.n && clang_getCursorKind(k.v[0]) == CXCursor_MemberRefExpr &&
      clang_equalCursors(clang_getCanonicalCursor(clang_getCursorReferenced(k.v[0])),
                         clang_getCanonicalCursor(fn))) {
    *is_member = true;
    FeKids m;
    fe_kids_expr(k.v[0], &m);
    if (m.n == 1) obj = m.v[0];
    fe_kids_free(&m);
  }
  fe_kids_free(&k);
  return obj;
}

static KExpr *construct(FeCtx *fe, CXCursor c, CXCursor ctor, KLoc loc) {
  int n = clang_Cursor_getNumArguments(c);
  bool copy =
      clang_CXXConstructor_isCopyConstructor(ctor) || clang_CXXConstructor_isMoveConstructor(ctor);
  if (clang_CXXMethod_isDefaulted(ctor)) {
    if (copy && n == 1) return fe_expr(fe, clang_Cursor_getArgument(c, 0));
    /* The implicit default constructor of a class with default member initializers (or
       members with constructors of their own): zero, then those, in the members' order. */
    if (n == 0 && fe_cxx_needs_default_init(clang_getCursorType(c)))
      return fe_cxx_default_value(fe, clang_getCursorType(c), loc);
    KType *t = fe_type(fe, clang_getCursorType(c), loc);
    /* T(): value-initialised; an aggregate's zero is an initializer, so a temporary holds it. */
    if (n == 0 && t && (t->kind == KT_STRUCT || t->kind == KT_ARRAY))
      return fe_temp(fe, t, fe_zero(t, loc), loc);
    if (n == 0 && t) return fe_zero(t, loc);
  }
  /* A user-provided constructor: a method of a temporary, which is then the value. */
  KType *t = fe_type(fe, clang_getCursorType(c), loc);
  if (!t) return fe_poison(loc);
  /* `Point a[5];`: each element its own default construction (one list entry each). */
  if (t->kind == KT_ARRAY && n == 0) return fe_cxx_default_value(fe, clang_getCursorType(c), loc);
  const char *why = fe_cxx_record_problem(clang_getCursorSemanticParent(ctor));
  if (why) return fe_poison(loc); /* reported with the class */
  KFunc *f = fe_cxx_function(fe, ctor);
  if (!f) return fe_broken(fe, loc, "this constructor");
  KExpr *tmp = fe_temp(fe, t, NULL, loc);
  KExpr *call = fe_call(fe, c, ctor, f, fe_addr_of(fe, tmp, loc), 0, loc);
  KExpr *e = kir_expr(KE_COMMA, t, loc);
  e->a = call;
  e->b = tmp;
  return e;
}

/* The user-provided constructor without parameters of record type t, or a null cursor. */
static CXCursor user_default_ctor(CXType t) {
  CXCursor rec = clang_getTypeDeclaration(clang_getCanonicalType(t));
  CXCursor found = clang_getNullCursor();
  if (clang_Cursor_isNull(rec)) return found;
  FeKids k;
  fe_kids(rec, &k);
  for (int i = 0; i < k.n && clang_Cursor_isNull(found); i++)
    if (clang_getCursorKind(k.v[i]) == CXCursor_Constructor &&
        clang_Cursor_getNumArguments(k.v[i]) == 0 && !clang_CXXMethod_isDefaulted(k.v[i]))
      found = k.v[i];
  fe_kids_free(&k);
  return found;
}

/* Whether the token just before expression e (within field's declaration) is `[`: e is an
 * array bound (`unsigned char b[4]`), not an initializer. */
static bool after_bracket(CXCursor field, CXCursor e) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(field);
  CXFile f1 = NULL, f2 = NULL;
  unsigned o1 = 0, o2 = 0;
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(field)), &f1, NULL, NULL,
                             &o1);
  clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(e)), &f2, NULL, NULL, &o2);
  if (!f1 || !f2 || !clang_File_isEqual(f1, f2) || o2 <= o1) return false;
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(tu,
                 clang_getRange(clang_getLocationForOffset(tu, f1, o1),
                                clang_getLocationForOffset(tu, f1, o2)),
                 &t, &n);
  /* The range ends at e's first character, which clang includes as a token of its own. */
  bool yes = false;
  for (unsigned i = n; i-- > 0;) {
    unsigned off = 0;
    clang_getExpansionLocation(clang_getTokenLocation(tu, t[i]), NULL, NULL, NULL, &off);
    if (off >= o2) continue;
    CXString sp = clang_getTokenSpelling(tu, t[i]);
    yes = !strcmp(clang_getCString(sp), "[");
    clang_disposeString(sp);
    break;
  }
  if (t) clang_disposeTokens(tu, t, n);
  return yes;
}

/* A field's default member initializer (`int n = 4;`, `float f{2.5f}`): its expression child
 * that is not an array bound. */
static CXCursor default_member_init(CXCursor field) {
  FeKids k;
  fe_kids(field, &k);
  CXCursor init = clang_getNullCursor();
  for (int i = 0; i < k.n && clang_Cursor_isNull(init); i++)
    if (clang_isExpression(clang_getCursorKind(k.v[i])) && !after_bracket(field, k.v[i]))
      init = k.v[i];
  fe_kids_free(&k);
  return init;
}

bool fe_cxx_written_init(CXCursor construct) {
  /* `T()` and `T{}` name their type (a TypeRef child); `T t;`'s implicit call has none. */
  FeKids k;
  fe_kids(construct, &k);
  bool yes = false;
  for (int i = 0; i < k.n && !yes; i++) yes = clang_getCursorKind(k.v[i]) == CXCursor_TypeRef;
  fe_kids_free(&k);
  return yes;
}

bool fe_cxx_needs_default_init(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_ConstantArray)
    return fe_cxx_needs_default_init(clang_getArrayElementType(c));
  if (c.kind != CXType_Record) return false;
  if (!clang_Cursor_isNull(user_default_ctor(c))) return true;
  FeKids f;
  fe_fields(c, &f);
  bool yes = false;
  for (int i = 0; i < f.n && !yes; i++)
    yes = !clang_Cursor_isNull(default_member_init(f.v[i])) ||
          fe_cxx_needs_default_init(clang_getCursorType(f.v[i]));
  fe_kids_free(&f);
  return yes;
}

/* A path from an object to one of its parts: members by name (anonymous members are
 * reached through their fields' names, as fe_member_of does) and array elements. The object
 * is a temporary (root) or, for root NULL, a constructor's *this. */
typedef struct Part {
  const struct Part *up;
  const char *name; /* NULL: element `index` */
  int64_t index;
} Part;

static KExpr *part_expr(FeCtx *fe, KVar *root, const Part *p, KLoc loc) {
  if (!p && !root) return fe_this(fe, loc);
  if (!p) {
    KExpr *v = kir_expr(KE_VAR, root->type, loc);
    v->var = root;
    return v;
  }
  KExpr *base = part_expr(fe, root, p->up, loc);
  return p->name ? fe_member_of(fe, base, p->name, loc) : fe_array_elem(base, p->index, loc);
}

static void push_stmt(KList *out, KExpr *e, KLoc loc) {
  KStmt *st = kir_stmt(KS_EXPR, loc);
  st->expr = e;
  klist_push(out, st);
}

static void init_part(FeCtx *fe, KVar *root, const Part *p, CXType t, CXCursor init, KList *out,
                      KLoc loc);

/* The statements that default-initialize part p (of type t) of root, in C++'s order. */
static void default_init_part(FeCtx *fe, KVar *root, const Part *p, CXType t, KList *out,
                              KLoc loc) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_ConstantArray) {
    long long n = clang_getArraySize(c);
    for (long long i = 0; i < n; i++) {
      Part e = {p, NULL, i};
      default_init_part(fe, root, &e, clang_getArrayElementType(c), out, loc);
    }
    return;
  }
  CXCursor dc = user_default_ctor(c);
  if (!clang_Cursor_isNull(dc)) {
    KFunc *f = fe_cxx_function(fe, dc);
    if (!f) return;
    KExpr *call = kir_expr(KE_CALL, f->ret, loc);
    call->callee = f;
    call->args = kir_alloc(sizeof(KExpr *));
    call->args[call->nargs++] = fe_addr_of(fe, part_expr(fe, root, p, loc), loc);
    push_stmt(out, call, loc);
    return;
  }
  FeKids f;
  fe_fields(c, &f);
  for (int i = 0; i < f.n; i++) {
    CXType ft = clang_getCursorType(f.v[i]);
    if (clang_Cursor_isAnonymousRecordDecl(clang_getTypeDeclaration(clang_getCanonicalType(ft)))) {
      default_init_part(fe, root, p, ft, out, loc); /* its fields by their own names */
      continue;
    }
    Part m = {p, fe_spelling(f.v[i]), 0};
    init_part(fe, root, &m, ft, default_member_init(f.v[i]), out, loc);
  }
  fe_kids_free(&f);
}

/* Part p (of type t) of root initialized by init (`= v`, `{v}`, `(v)`), or, for a null
 * cursor, default-initialized: its class's constructor or default member initializers. */
static void init_part(FeCtx *fe, KVar *root, const Part *p, CXType t, CXCursor init, KList *out,
                      KLoc loc) {
  if (clang_Cursor_isNull(init)) {
    if (fe_cxx_needs_default_init(t)) default_init_part(fe, root, p, t, out, loc);
    return;
  }
  KExpr *lhs = part_expr(fe, root, p, loc);
  /* A braced initializer of an array or struct member (`float x[4] = {0};`) is assigned
     element by element: KIR takes lists in declarations only. */
  push_stmt(out, fe_assign_list(lhs, fe_initializer(fe, init, lhs->type, false), loc), loc);
}

void fe_cxx_aggregate_defaults(FeCtx *fe, CXType rec, KExpr *list, KLoc loc) {
  CXType c = clang_getCanonicalType(rec);
  KType *t = list->type;
  if (c.kind != CXType_Record || t->kind != KT_STRUCT || t->st->is_union) return;
  FeKids f;
  fe_fields(c, &f);
  for (int i = 0; i < f.n && i < list->nargs && i < t->st->nfields; i++) {
    if (list->args[i]) continue;
    KType *ft = t->st->fields[i].type;
    CXCursor init = default_member_init(f.v[i]);
    if (!clang_Cursor_isNull(init))
      list->args[i] = fe_initializer(fe, init, ft, false);
    else if (fe_cxx_needs_default_init(clang_getCursorType(f.v[i])))
      list->args[i] = fe_cxx_default_value(fe, clang_getCursorType(f.v[i]), loc);
  }
  fe_kids_free(&f);
}

KExpr *fe_cxx_default_value(FeCtx *fe, CXType t, KLoc loc) {
  KType *kt = fe_type(fe, t, loc);
  if (!kt) return fe_poison(loc);
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_ConstantArray) { /* each element's value: arrays are not assigned */
    KExpr *l = kir_expr(KE_INITLIST, kt, loc);
    l->args = kir_alloc(sizeof(KExpr *) * (size_t)(kt->len ? kt->len : 1));
    for (int64_t i = 0; i < kt->len; i++)
      l->args[l->nargs++] = fe_cxx_default_value(fe, clang_getArrayElementType(c), loc);
    return l;
  }
  KExpr *tmp = fe_temp(fe, kt, fe_zero(kt, loc), loc);
  KList stmts = {0};
  default_init_part(fe, tmp->var, NULL, t, &stmts, loc);
  KExpr *r = tmp;
  for (int i = stmts.n - 1; i >= 0; i--) {
    KExpr *c = kir_expr(KE_COMMA, kt, loc);
    c->a = ((KStmt *)stmts.v[i])->expr;
    c->b = r;
    r = c;
  }
  return r;
}

/* Member `field` of *this, as the constructor whose children are k initializes it: by its
 * written initializer, else its default member initializer, else default-initialized (its
 * class's constructor, or that class's own default member initializers, at any depth). The
 * fields of an anonymous struct or union member (`union { float f; int i; };`) are
 * initialized as the class's own; fe_member_of reaches them through the member. */
static void member_init(FeCtx *fe, CXCursor field, FeKids *k, KList *out, KLoc loc) {
  CXType ft = clang_getCursorType(field);
  if (clang_Cursor_isAnonymousRecordDecl(clang_getTypeDeclaration(clang_getCanonicalType(ft)))) {
    FeKids inner;
    fe_fields(clang_getCanonicalType(ft), &inner);
    for (int i = 0; i < inner.n; i++) member_init(fe, inner.v[i], k, out, loc);
    fe_kids_free(&inner);
    return;
  }
  const char *name = fe_spelling(field);
  CXCursor init = clang_getNullCursor();
  for (int j = 0; j + 1 < k->n && clang_Cursor_isNull(init); j++)
    if (clang_getCursorKind(k->v[j]) == CXCursor_MemberRef && !strcmp(fe_spelling(k->v[j]), name))
      init = k->v[j + 1];
  if (clang_Cursor_isNull(init)) init = default_member_init(field);
  Part m = {NULL, name, 0};
  init_part(fe, NULL, &m, ft, init, out, clang_Cursor_isNull(init) ? loc : fe_loc(fe, init));
}

/* A constructor's member initializers (`: x(a), y(b)`) and the class's default member
 * initializers (`int n = 4;`), as assignments through `this` in the fields' order, which is
 * the order C++ initialises them in. libclang shows each written initializer as the member's
 * MemberRef followed by the expression. */
void fe_cxx_ctor_inits(FeCtx *fe, CXCursor ctor, KList *out) {
  FeKids k, fields;
  fe_kids(ctor, &k);
  CXCursor cls = clang_getCursorSemanticParent(ctor);
  fe_fields(clang_getCursorType(cls), &fields);
  for (int i = 0; i < fields.n; i++) member_init(fe, fields.v[i], &k, out, fe_loc(fe, ctor));
  /* `P() : P(0, 0) {}`: the class named, then its construction (an out-of-line definition's
     `P::` qualifier is a TypeRef too, followed by no expression). */
  for (int j = 0; j < k.n; j++)
    if (clang_getCursorKind(k.v[j]) == CXCursor_TypeRef && j + 1 < k.n &&
        clang_isExpression(clang_getCursorKind(k.v[j + 1]))) {
      diag_error(fe_loc(fe, k.v[j]), "delegating constructors are not supported in kcc kernels");
      break;
    }
  fe_kids_free(&fields);
  fe_kids_free(&k);
}

KExpr *fe_cxx_call(FeCtx *fe, CXCursor c, KLoc loc) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind k = clang_getCursorKind(fn);
  if (k == CXCursor_Constructor) return construct(fe, c, fn, loc);
  if (k != CXCursor_CXXMethod && k != CXCursor_ConversionFunction) return NULL;
  /* A method of a class kcc refused (a lambda's call operator): reported with the class. */
  if (fe_cxx_record_problem(clang_getCursorSemanticParent(fn))) return fe_poison(loc);
  if (clang_CXXMethod_isVirtual(fn)) {
    diag_error(loc, "virtual functions are not supported in kcc kernels");
    return fe_poison(loc);
  }
  bool is_member;
  CXCursor obj = member_object(c, fn, &is_member);
  int arg0 = 0;
  if (!is_member && !clang_CXXMethod_isStatic(fn)) {
    obj = clang_Cursor_getArgument(c, 0); /* a member operator: the object is argument 0 */
    arg0 = 1;
  }
  if (clang_CXXMethod_isDefaulted(fn) && arg0 == 1 && clang_Cursor_getNumArguments(c) == 2) {
    /* A trivial copy or move assignment. */
    KExpr *a = fe_expr(fe, obj);
    KExpr *b = fe_expr(fe, clang_Cursor_getArgument(c, 1));
    KExpr *e = kir_expr(KE_ASSIGN, a->type, loc);
    e->op = KB_NONE;
    e->a = a;
    e->b = fe_convert(b, a->type);
    return e;
  }
  KFunc *f = fe_cxx_function(fe, fn);
  if (!f) return fe_broken(fe, loc, "this member function");
  KExpr *self = NULL;
  if (!clang_CXXMethod_isStatic(fn)) {
    if (clang_Cursor_isNull(obj)) {
      if (!fe->this_var) return fe_broken(fe, loc, "this member call");
      self = fe_this(fe, loc); /* f() inside another method */
    } else {
      KExpr *o = fe_expr(fe, obj);
      self = o->type->kind == KT_PTR ? o : fe_addr_of(fe, o, loc);
    }
  }
  return fe_call(fe, c, fn, f, self, arg0, loc);
}

/* ---------------------------------------------------------------- C++ kcc refuses */

static enum CXChildVisitResult record_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  const char **why = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CXXBaseSpecifier)
    *why = "base classes (class inheritance)";
  else if ((k == CXCursor_CXXMethod || k == CXCursor_Destructor) && clang_CXXMethod_isVirtual(c))
    *why = "virtual functions";
  return *why ? CXChildVisit_Break : CXChildVisit_Continue;
}

const char *fe_cxx_record_problem(CXCursor def) {
  if (fe_cxx_is_lambda_class(def)) return NULL; /* lambda.c */
  const char *why = NULL;
  clang_visitChildren(def, record_visit, &why);
  return why;
}
