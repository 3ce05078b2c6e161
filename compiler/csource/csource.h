/* csource.h — printing KIR as C source, shared by the OpenCL C and CUDA C back ends.
 *
 * Both back ends print the same tree with the same precedence rules, the same choice of which
 * conversions to spell out and the same renaming of identifiers; only type names, qualifiers,
 * builtins and the module layout differ. Those differences are a CTarget switch (for the
 * small ones) and a few hooks (builtins, shared-variable references, extra call arguments).
 *
 * Casts: every KE_CAST that can change a value is printed. Widening integer conversions and
 * float -> double are left to C where C would apply exactly the same conversion on its own
 * (assignment, argument passing, the usual arithmetic conversions of an operator), so that
 * `int i = blockIdx.x * blockDim.x + threadIdx.x` does not drown in casts.
 *
 * Names: every identifier keeps its source spelling unless it collides with a word the target
 * reserves (keywords, builtin types and functions) or a name kcc introduces; then it becomes
 * `name_`, `name_1`, `name_2`... consistently across the module (globals, functions) or the
 * function (locals). Locals never take the name of a module-level entity, so nothing the back
 * end refers to inside a function can be shadowed. */
#ifndef KCC_CSOURCE_H
#define KCC_CSOURCE_H

#include "diag.h"
#include "kcc.h"

typedef enum CTarget { CT_OPENCL, CT_CUDA } CTarget;

/* C operator precedence, loosest first. */
enum {
  P_LOWEST = 0,
  P_COMMA,
  P_ASSIGN,
  P_COND,
  P_LOR,
  P_LAND,
  P_BOR,
  P_BXOR,
  P_BAND,
  P_EQ,
  P_REL,
  P_SHIFT,
  P_ADD,
  P_MUL,
  P_UNARY, /* prefix operators and casts */
  P_POSTFIX,
  P_PRIMARY,
};

typedef struct CGen CGen;
typedef struct CNames CNames;

typedef struct CHooks {
  /* KE_BUILTIN and KE_SPECIAL. `prec`: the loosest precedence the caller accepts. */
  void (*builtin)(CGen *g, const KExpr *e, int prec);
  /* KE_GVAR read or written (NULL: the variable's name). */
  void (*gvar)(CGen *g, const KExpr *e, int prec);
  /* Whether the hook above prints this variable as `(*name)`, so that `name->field` can
   * stand for `(*name).field` (NULL: never). */
  bool (*gvar_is_deref)(CGen *g, const KVar *v);
  /* &gvar (NULL: `&` and the reference). */
  void (*gvar_addr)(CGen *g, const KExpr *e, int prec);
  /* Arguments appended to a call of `callee` after its own (NULL: none). `any`: whether the
   * call already has arguments (so the hook starts with ", "). */
  void (*call_extra)(CGen *g, const KFunc *callee, bool any);
  /* Printed after the opening brace of a function body (NULL: nothing). */
  void (*prologue)(CGen *g, const KFunc *f);
  /* Whether a name is reserved by the target (keywords, builtins, kcc's helpers). `family`:
   * also whole families of names by prefix (as_*, __*); replacements (name_, name_1), which
   * no family of builtins spells, are checked without them. */
  bool (*reserved)(const char *name, bool family);
  /* Whether a kernel cannot be defined under its own name (a keyword, a type, a macro...).
   * Kernels are never renamed: the runtime finds them by their source name. */
  bool (*kernel_reserved)(const char *name);
  /* Whether a parameter of f arrives under another name and is copied, at the top of the
   * body, into a private variable that has the parameter's name (NULL: never). */
  bool (*copy_param)(const KFunc *f, const KVar *p);
  /* The initializer of that private copy (NULL: the name the parameter arrives under). */
  void (*param_init)(CGen *g, const KVar *p);
  const char *language; /* for messages: "OpenCL C", "CUDA C++" */
} CHooks;

struct CGen {
  CTarget target;
  const CHooks *hooks;
  KModule *m;
  const KOptions *o;
  KBuf *out; /* where printing goes now (back ends swap it to assemble sections) */
  int depth; /* indentation, in steps of two spaces */
  KFunc *fn; /* the function being printed, NULL at module level */
  bool failed;
  bool used_f64;          /* a double type or constant was printed */
  const KType *case_type; /* the controlling type of the switch being printed */
  int lvalue_ctx; /* > 0 while an lvalue is printed as one (assigned to, its address taken) */
  /* Set for the builtin hook, which clears it: */
  bool discard;        /* the value of the call is not used (an expression statement) */
  bool bare_special;   /* the special register is cast to an integer type right away */
  const KExpr *unused; /* the expression of the statement (or for step) being printed */
  CNames *names;
  KList vec_types; /* KType* of every vector type printed (CUDA defines them), in first use */
  /* Constant samplers printed (bit i: the sampler of KSAMP_* bits i), each a module-level
     `kcc_sampler_<i>` the OpenCL C back end declares (OpenCL C names a sampler by a variable). */
  uint64_t samplers;
  void *be; /* the back end's own state */
};

void cs_init(CGen *g, CTarget target, KModule *m, const KOptions *o, const CHooks *hooks);

/* ---------------------------------------------------------------- names */

/* Picks the printed names of struct tags, fields, globals and functions. Call once, first.
 * `extra` (NULL-terminated, may be NULL): module-level names the back end will define. */
void cs_name_module(CGen *g, const char *const *extra);
/* Picks the printed names of f's parameters and locals. */
void cs_name_function(CGen *g, KFunc *f);
const char *cs_var(const KVar *v);
/* The name a parameter arrives under: cs_var(p), or the other one copy_param asked for. */
const char *cs_param_in(CGen *g, const KVar *p);
const char *cs_func(const KFunc *f);
const char *cs_tag(CGen *g, const KStruct *st);
const char *cs_field(CGen *g, const KStruct *st, int i);
/* Whether `name` is in the NULL-terminated `list`. */
bool cs_in_list(const char *name, const char *const *list);

/* ---------------------------------------------------------------- types */

/* A declaration of `name` with type t ("" gives a type name for casts). `quals`: qualifiers
 * of the declared object itself ("const", "__local"...; NULL for none). Arena string. */
const char *cs_decl(CGen *g, const KType *t, const char *name, const char *quals);
/* The type name, as in a cast: "__global float *", "unsigned int". Arena string. */
const char *cs_type(CGen *g, const KType *t);
/* The C keyword or name of a scalar type ("uint", "unsigned int"). */
const char *cs_scalar(CGen *g, KTypeKind k);
/* The name of vector type t: OpenCL's own (float4), or CUDA's kcc_float4 (the preamble's
 * typedef). Records t in g->vec_types. Arena string. */
const char *cs_vec_name(CGen *g, const KType *t);
/* Whether t is or contains (through arrays and struct fields, not pointers) a type of kind k,
 * or a pointer when k is KT_PTR. */
bool cs_type_contains(const KType *t, KTypeKind k);

/* ---------------------------------------------------------------- output */

void cs_puts(CGen *g, const char *s);
void cs_printf(CGen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Device functions called before their definition (in module order) need a prototype. */
bool cs_called_before(const KModule *m, int idx);
/* Every struct of the module, defined in dependency order. */
void cs_structs(CGen *g);
/* Prints `printf(FORMAT` for a BI_PRINTF call; false (reported) if the format is not a string
 * literal, which the front end already guarantees. The caller prints the arguments and `)`. */
bool cs_printf_format(CGen *g, const KExpr *e);
/* The initializer of a constant variable (all zeros when it has none). */
void cs_constant_init(CGen *g, const KVar *v);
void cs_indent(CGen *g);
/* The column the output is at (characters since the last newline). */
int cs_column(CGen *g);
/* Appends `item` to a comma-separated list, breaking the line before it when it would pass
 * the right margin; continuation lines are indented two steps deeper than g->depth. */
void cs_list_item(CGen *g, const char *item, bool first);

/* ---------------------------------------------------------------- expressions */

/* Prints e; parenthesised when its precedence is looser than `prec`. */
void cs_expr(CGen *g, const KExpr *e, int prec);
/* Prints e where C converts the value to e->type by itself (assignment, argument): widening
 * conversions at the top are left implicit. */
void cs_expr_conv(CGen *g, const KExpr *e, int prec);
/* Prints e so that the C expression has exactly e->type (arguments of overloaded builtins). */
void cs_expr_exact(CGen *g, const KExpr *e, int prec);
/* Prints e as a condition (tested against zero): conversions to bool are left implicit. */
void cs_expr_cond(CGen *g, const KExpr *e, int prec);
/* An integer literal of type t with value bits v. */
void cs_int(CGen *g, const KType *t, uint64_t v);
/* A C string literal. */
void cs_string(CGen *g, const char *s, size_t n);
/* Whether evaluating e may have side effects (assignments, calls, builtins). */
bool cs_has_side_effects(const KExpr *e);
/* A swizzle of swizzles as one: returns the vector it picks from and fills idx[0..n) with the
 * components, n = e->nswz. */
const KExpr *cs_swizzle_base(const KExpr *e, int idx[16]);
/* The innermost operand under conversions that widen (integer sign/zero extension, float to
 * double): for back ends that pass values where C promotes them anyway. */
const KExpr *cs_strip_widen(const KExpr *e);

/* ---------------------------------------------------------------- statements, functions */

/* A function body (KS_BLOCK) at the current depth, with the prologue hook after `{`. */
void cs_body(CGen *g, KFunc *f);
void cs_stmt(CGen *g, const KStmt *s);

/* The source file's base name, for header comments. */
const char *cs_basename(const char *path);
/* Reports an error at loc and marks the output failed. */
void cs_error(CGen *g, KLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
