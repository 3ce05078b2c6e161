/* fe.h — internals of the front end shared by its files (not part of the compiler's API).
 *
 * The front end parses with libclang, forwards clang's diagnostics, then walks the cursors and
 * lowers them to KIR (kir.h) while enforcing the kcc dialect. Every dialect error is reported
 * through diag.h at the construct's expansion location; lowering goes on after an error (so
 * that one run reports several problems) with placeholder nodes, and frontend_parse returns
 * NULL if anything was reported. */
#ifndef KCC_FE_H
#define KCC_FE_H

#include <clang-c/Index.h>

#include "diag.h"
#include "kcc.h"
#include "kir.h"

/* Names under which kcc's own files reach clang; they must be absolute (DESIGN.md). */
#define FE_VDIR    "/__kcc__"
#define FE_PRELUDE FE_VDIR "/prelude.h"
#define FE_INCDIR  FE_VDIR "/include"
/* The builtins' declarations, which the C dialect's and CUDA's preludes include. */
#define FE_BUILTINS FE_VDIR "/builtins.h"

/* Bound on the lowering recursion (expressions and statements together): deeper input is
 * reported instead of overflowing the C stack. */
#define FE_MAX_DEPTH 1000

/* ---------------------------------------------------------------- prelude.c */

typedef struct FeVFile {
  const char *name; /* absolute virtual path */
  const char *text;
} FeVFile;
/* The prelude and the virtual system headers (built once, static storage). */
const FeVFile *fe_vfiles(int *n);

/* The three sets of virtual files (fe_vfiles, fe_cl_vfile, fe_cu_vfiles) as the build wrote
 * them (driver/vfgen.c runs the builders and writes them out as C; the kcc command and libkcc
 * link the result). Those texts depend on nothing but kcc's code, yet building them with
 * kbuf_printf took 2-3 ms of every kcc process (a 30 ms compile of a small .cu file). A
 * program linking kcc_core alone (the unit tests, vfgen itself) has no such table: the weak
 * reference is then NULL and the getters build the texts as before. */
typedef struct FePregen {
  const FeVFile *files[3]; /* [0] fe_vfiles, [1] fe_cl_vfile, [2] fe_cu_vfiles */
  int n[3];
} FePregen;
extern const FePregen fe_pregen __attribute__((weak));
bool fe_is_vfile_name(const char *name);
/* The i-th of the C library's math functions kcc has (sqrt...; each with an f version), NULL
 * past the last. */
const char *fe_math_fn_name(int i);
/* Whether the CUDA Programming Guide declares atomicOP (Add, CAS...) for integer type t. */
bool fe_cuda_has_atomic(const char *op, const char *t);

/* ---------------------------------------------------------------- builtins.c */

/* The builtin a prelude function name stands for (sqrtf -> BI_SQRT), BI_NONE if none. */
KBuiltin fe_builtin_lookup(const char *name);
/* CUDA's fast spellings of math functions (__expf, __logf...): approximations allowed. */
bool fe_builtin_is_fast(const char *name);
/* CUDA's system-scope atomics (atomicAdd_system...): fe_builtin_lookup gives their builtin. */
bool fe_builtin_is_system(const char *name);
/* Checks a printf format; reports at loc and returns false when it uses a conversion kcc
 * does not support. */
bool fe_check_printf_format(const char *fmt, size_t len, KLoc loc);
/* OpenCL C's `%vN...` conversions of printf call e, made one conversion per component. */
bool fe_expand_printf_vectors(KExpr *e, KLoc loc);
/* Each conversion of printf call e against its argument's type (after the format's check). */
bool fe_check_printf_args(const KExpr *e, KLoc loc);

/* ---------------------------------------------------------------- maps */

/* Cursor -> pointer maps (kir.h's table, keyed by clang_hashCursor/clang_equalCursors). */
typedef KMap FeMap;
void *fe_map_get(FeMap *m, CXCursor key);
void fe_map_put(FeMap *m, CXCursor key, void *val);

/* A cursor's children, collected once (clang's visitor is callback based). */
typedef struct FeKids {
  CXCursor *v;
  int n, cap;
  CXCursor inl[6];
} FeKids;
void fe_kids(CXCursor c, FeKids *k);
/* The fields of a record type, an instantiated template's too (whose members libclang's
 * cursor visitor does not show). */
void fe_fields(CXType record, FeKids *k);
/* Only the children that are expressions (clang_isExpression), in order. */
void fe_kids_expr(CXCursor c, FeKids *k);
void fe_kids_free(FeKids *k);

/* ---------------------------------------------------------------- context */

typedef struct FeFileName {
  CXFile file;
  const char *name;
} FeFileName;

typedef struct FeSwitch {
  KStmt *sw;
  int block_depth; /* depth of the switch body block, to find misplaced case labels */
} FeSwitch;

typedef struct FeCtx {
  KModule *m;
  CXTranslationUnit tu;
  const char *path; /* the main file as the user named it */
  CXFile main_file;
  FeFileName *names; /* CXFile -> displayed name cache */
  int nnames, capnames;
  FeMap decls;         /* VarDecl/ParmDecl/FunctionDecl (canonical) -> KVar* / KFunc* */
  FeMap structs;       /* record declaration -> KStruct* */
  FeMap typedef_names; /* anonymous record declaration -> the typedef name that names it */
  KFunc *func;         /* function being lowered */
  int depth;           /* current lowering recursion depth */
  bool too_deep;       /* "nesting too deep" already reported */
  FeSwitch *sw;        /* innermost switch being lowered, or NULL */
  KList labels;        /* the function's KS_LABEL statements, made at a label or a goto */
  int block_depth;
  int anon_structs;
  int anon_vars;       /* block-scope anonymous unions (C++), named by lower_stmt.c */
  KList derived_names; /* KStruct* named after a typedef or numbered: they yield on clashes */
  const char *terr_what, *terr_file; /* the last type error, to report each once a line */
  int terr_line;
  int errors0;                 /* diag_error_count() when this compilation began */
  KList pragmas;               /* pragma.c: the main file's FP_CONTRACT pragmas */
  int contract;                /* the contraction state where lowering is (KExpr.contract) */
  const KOptions *opts;        /* the compilation's options (may be NULL) */
  const struct FeLangOps *ops; /* the input language's layer (FeLangOps below) */
  /* ---- OpenCL C input (opencl.c) */
  int lang;               /* KL_LANG_K or KL_LANG_CL (never AUTO once parsing) */
  int cl_std;             /* 120, 200, 300 */
  KFunc *cl_helpers[8];   /* work-item functions of a non-constant dimension, made on first use */
  KFunc *half_helpers[5]; /* half.c: half to float, float to half in each rounding mode */
  KList half_fns;         /* half.c: the vload_half / vstore_half functions made so far */
  int nhelpers;           /* functions kcc made, at the start of the module's list */
  KList image_impls;      /* image.c: the image_lib.c definitions found so far (their cursors) */
  KList texobjs;          /* cuda_texobj.c: kernels' texture and surface object parameters */
  KList texel_helpers;    /* cuda_texobj.c: pairs of a texel helper and its texel type */
  KList texobj_calls;     /* cuda_texobj.c: the texture and surface calls on them, in order */
  /* ---- C++ (CUDA input, cuda.c) */
  FeMap refs;               /* variables of reference type kept as a pointer (fe_ref_by_address) */
  KVar *this_var;           /* `this` of the method being lowered, or NULL */
  bool ret_ref;             /* the function being lowered returns a reference (an address in KIR) */
  KList temps;              /* KS_DECL of the temporaries of this function (declared first) */
  CXCursor kernel_template; /* the first __global__ function template, or a null cursor */
  KList kernel_names;       /* the names kernels are written with (fe_cxx_reserve_kernel_names) */
  bool tile_groups;         /* a call makes a thread_group that holds a tile (kcc.tile_group) */
  KLoc tile_group_at;       /* the first such call */
  KFunc *group_tile_sync;   /* the header's __kcc_group_tile_sync, once called */
  FeMap lambdas;            /* lambda.c: closure class (canonical) -> its captures */
  int ntemps;
  /* language */
  bool opencl; /* the input is OpenCL C: a shift count is taken modulo the width of the shifted
                  type for scalars too (the .k dialect keeps C's rule for scalars; vectors use
                  OpenCL's in both) */
} FeCtx;

KLoc fe_loc(FeCtx *fe, CXCursor c);
/* The tokens from the start of c's extent to position `to`, both taken at their expansion
 * locations (an extent may begin inside a macro: `API int f()`); NULL and *n = 0 when they are
 * not in one file in that order. Free with clang_disposeTokens. */
CXToken *fe_tokens_to(FeCtx *fe, CXCursor c, CXSourceLocation to, unsigned *n);
/* Whether token t is spelled s. */
bool fe_token_is(FeCtx *fe, CXToken t, const char *s);
/* Reports clang's diagnostic d (and its notes) through diag.h, as a note if as_note. */
void fe_forward_diag(FeCtx *fe, CXDiagnostic d, bool as_note);
KLoc fe_loc_of(FeCtx *fe, CXSourceLocation l);
/* The cursor's spelling, copied into the arena. */
const char *fe_spelling(CXCursor c);
/* True for a declaration that lives in one of kcc's virtual files (prelude, headers). */
bool fe_in_vfile(FeCtx *fe, CXCursor c);
/* Whether location l comes from a macro expansion (its spelling is elsewhere). */
bool fe_in_macro(CXSourceLocation l);
/* A record declaration of C or C++: struct, class, union, a class template or partial
 * specialisation. */
bool fe_is_record_kind(enum CXCursorKind k);
bool fe_has_annotation(CXCursor c, const char *what);
/* The last annotate("what", ...) attribute among c's children (its arguments are the
 * attribute's children), or the null cursor. */
CXCursor fe_find_annotation(CXCursor c, const char *what);
/* Enters one level of recursion; false (after reporting once) when too deep. */
bool fe_enter(FeCtx *fe, CXCursor c);
void fe_leave(FeCtx *fe);

/* ---------------------------------------------------------------- pragma.c */

/* Reads the main file's floating-point contraction pragmas (after the parse). */
void fe_pragmas_scan(FeCtx *fe);
/* The contraction state at the start of a function body (file-scope pragmas before it). */
int fe_contract_at_body(FeCtx *fe, CXCursor body);
/* The state inside a compound statement: a pragma before its first statement, else outer. */
int fe_contract_in_block(FeCtx *fe, CXCursor block, CXCursor first, int outer);
/* Marks a floating-point +, - or * with the state in force (fe->contract). */
void fe_mark_contract(FeCtx *fe, KExpr *e);
/* The unrolling hint written right before a loop statement (KStmt.unroll), or 0. */
int fe_loop_unroll(FeCtx *fe, CXCursor loop);

/* ---------------------------------------------------------------- types.c */

/* The KIR type of a clang type, or NULL after reporting why it is not supported. Pointers get
 * KAS_GENERIC. */
KType *fe_type(FeCtx *fe, CXType t, KLoc loc);
/* The type of a declared variable (arrays whose bounds fold to constants accepted). */
KType *fe_decl_type(FeCtx *fe, CXCursor decl, KLoc loc);
/* The type of a parameter declared as t (arrays adjusted to pointers, as C does). */
KType *fe_param_type(FeCtx *fe, CXType t, KLoc loc);
/* Lowers a struct definition seen at declaration level (checks unions, bit-fields...). */
void fe_record_decl(FeCtx *fe, CXCursor decl);
/* Remembers the name of a typedef for an anonymous struct. */
void fe_typedef_decl(FeCtx *fe, CXCursor decl);
/* Equal types when pointer address spaces are ignored. */
bool fe_type_eq_noas(const KType *a, const KType *b);
/* t with its outermost pointer's address space replaced. */
KType *fe_ptr_as(KType *t, KAddrSpace as);
/* t with every pointer level in its pointer chain in address space as (kernel params). */
KType *fe_ptr_chain_as(KType *t, KAddrSpace as);
bool fe_type_is_const(CXType t);
/* Whether t's canonical spelling starts with prefix ("std::initializer_list<"): the C++
 * library types kcc's own headers define and the front end lowers itself. */
bool fe_type_named(CXType t, const char *prefix);
/* Gives every struct in the module a distinct name (anonymous and scoped tags can clash). */
void fe_unique_struct_names(FeCtx *fe);

/* ---------------------------------------------------------------- lower_expr.c */

/* Lowers an expression cursor (never NULL: a placeholder after an error). */
KExpr *fe_expr(FeCtx *fe, CXCursor c);
/* Converts e to `to` as C's implicit conversions do; a pointer keeps the address space it
 * already has (the address-space pass, not the front end, decides where it points). */
KExpr *fe_convert(KExpr *e, KType *to);
/* The KIR operator of a binary or compound-assignment operator (KB_NONE for others). */
KOp fe_binary_op(enum CXBinaryOperatorKind k);
/* *p, &e (a temporary when e is not an lvalue, for a reference binding to it), this. */
KExpr *fe_deref(KExpr *p, KLoc loc);
KExpr *fe_addr_of(FeCtx *fe, KExpr *e, KLoc loc);
/* lv = list (an initializer list or a value) as assignments of scalars and vectors, chained
 * with commas; members a list leaves out are zeroed. */
KExpr *fe_assign_list(KExpr *lv, KExpr *list, KLoc loc);
KExpr *fe_this(FeCtx *fe, KLoc loc);
/* A new local of the function being lowered, declared at its start with init (or none). */
KExpr *fe_temp(FeCtx *fe, KType *t, KExpr *init, KLoc loc);
/* b.fname (b->fname when b is a pointer). */
KExpr *fe_member_of(FeCtx *fe, KExpr *b, const char *fname, KLoc loc);
/* The KIR name prefix of a C11 anonymous struct or union member (types.c): fe_member_of finds
 * a field through such members, as C names it. */
#define FE_ANON_FIELD "__kcc_anon"
/* Whether a parameter or variable of C++ type t is a reference kcc keeps as an address (a
 * reference to non-const); others (const T &) are copies of the value. */
bool fe_ref_by_address(CXType t);
/* The call c to fn (f: its KFunc), with `self` as the first argument of a method (or NULL)
 * and c's arguments from index arg0 on (1 for a member operator, whose object is argument
 * 0): default arguments filled in, references passed by address. */
KExpr *fe_call(FeCtx *fe, CXCursor c, CXCursor fn, KFunc *f, KExpr *self, int arg0, KLoc loc);
/* An error placeholder of type int. */
KExpr *fe_poison(KLoc loc);
/* A placeholder for a construct that cannot be lowered: an internal error unless an error
 * was reported already (then it is a consequence of that one). */
KExpr *fe_broken(FeCtx *fe, KLoc loc, const char *what);
/* The KIR integer constant of a value (masked to the type's width). */
KExpr *fe_int_const(KType *t, uint64_t v, KLoc loc);
/* Initializer of an object of type t: an expression, or KE_INITLIST for aggregates. With
 * want_const the leaves are folded to KE_ICONST/KE_FCONST (constant memory data). */
KExpr *fe_initializer(FeCtx *fe, CXCursor init, KType *t, bool want_const);
/* A zero value of type t (KE_INITLIST of NULLs for aggregates). */
KExpr *fe_zero(KType *t, KLoc loc);

/* ---------------------------------------------------------------- vector.c (both languages) */

/* Whether c (an UnexposedExpr) is clang's ExtVectorElementExpr: v.xy, p->s3, v.lo. */
bool fe_is_swizzle(FeCtx *fe, CXCursor c);
/* Lowers a swizzle (fe_is_swizzle) to KE_SWIZZLE. */
KExpr *fe_swizzle(FeCtx *fe, CXCursor c, KLoc loc);
/* A scalar converted to vt's element type, then widened to vt (KC_SPLAT). */
KExpr *fe_splat(KExpr *scalar, KType *vt);
/* e converted to vt: splat for scalars, element-wise cast for other vectors of vt's length. */
KExpr *fe_vec_convert(KExpr *e, KType *vt);
/* A vector literal from an InitListExpr (C's (float4){1, 2, 3, 4}, OpenCL's
 * (float4)(a, b2, c)): KE_VECLIT, missing components zero. */
KExpr *fe_vec_literal(FeCtx *fe, CXCursor list, KType *vt, KLoc loc);
/* Vector forms of the operators, called by lower_expr.c when an operand or the result is a
 * vector: a, b already lowered; t is clang's result type. */
KExpr *fe_vec_binary(FeCtx *fe, enum CXBinaryOperatorKind bk, KType *t, KExpr *a, KExpr *b,
                     KLoc loc);
KExpr *fe_vec_lnot(KExpr *a, KLoc loc);
KExpr *fe_vec_cond(FeCtx *fe, KExpr *cond, KExpr *a, KExpr *b, KType *t, KLoc loc);
/* Reports an assignment to a swizzle KIR cannot write (a 3-vector's .hi, .odd); false then. */
bool fe_check_swizzle_target(KExpr *target, KLoc loc);
/* v[i] on a vector: a constant index is a one-component swizzle. */
KExpr *fe_vec_subscript(FeCtx *fe, KExpr *v, CXCursor index, KLoc loc);
/* A shift count masked to the width of the shifted type t (OpenCL's rule): b & (bits - 1). */
KExpr *fe_shift_count(KExpr *b, KType *t);
/* The vector and OpenCL builtins that are not plain prelude declarations (convert_T, as_T,
 * vloadN, vstoreN, select, popcount...), or NULL when name is none of them. */
KExpr *fe_vec_builtin(FeCtx *fe, CXCursor call, const char *name, KLoc loc);
/* builtins.c: a call of one of CUDA's intrinsics or warp-level operations that the prelude
 * declares (__popc, __float2int_rn, __shfl_sync...) as KIR; NULL when `name` is none of them.
 * fe_vec_builtin asks it first. */
KExpr *fe_cuda_intrinsic(FeCtx *fe, CXCursor call, const char *name, KLoc loc);
/* A function defined in a virtual file (the derived OpenCL builtins: dot, clamp...), lowered
 * on its first call as a static inline device function; NULL if fn has no definition there.
 * fn is the callee's FunctionDecl. */
KFunc *fe_vfile_function(FeCtx *fe, CXCursor fn);

/* ---------------------------------------------------------------- decl.c */

/* A function definition's KFunc and parameters (not its body), registered in fe->decls and
 * appended to the module. */
KFunc *fe_declare_function(FeCtx *fe, CXCursor def);
/* Adds a function kcc makes (a static inline helper) after those made before it and before
 * every function of the file, so that the back ends that write C see it before its uses. */
void fe_add_helper(FeCtx *fe, KFunc *f);

/* ---------------------------------------------------------------- the input languages
 *
 * The shared lowering (lower/) handles C, C++ and OpenCL C constructs alike and reads
 * fe->lang where a rule differs; what only one input language has (OpenCL C's built-ins and
 * images, CUDA's texture objects, inline PTX, cooperative groups) lives in that language's
 * layer (cuda/, opencl/), which the lowering reaches through its table: a layer's functions
 * are never called from lower/ by name, so the files show the pipeline, the entry (parse.c)
 * above the languages above the lowering. A NULL entry is a language without that feature;
 * the .k dialect has none. */
typedef struct FeLangOps {
  /* decl.c: a kernel's attributes (OpenCL: reqd_work_group_size, intel_reqd_sub_group_size);
   * a parameter v of clang type t once declared (CUDA: texture and surface objects). */
  void (*kernel_attrs)(FeCtx *fe, CXCursor def, KFunc *f);
  void (*param)(FeCtx *fe, KFunc *f, KVar *v, CXType t);
  /* Types the language has and kcc refuses (OpenCL: events, pipes, queues...), reported at
   * loc: false when t is one. */
  bool (*check_type)(FeCtx *fe, CXType t, KLoc loc);
  /* KT_IMAGE or KT_SAMPLER for the language's opaque types (OpenCL's image and sampler). */
  KType *(*opaque_type)(FeCtx *fe, CXType t, KLoc loc);
  /* A variable declaration the language lowers itself (OpenCL: a constant sampler, which
   * becomes no variable): true when decl was one. */
  bool (*var_decl)(FeCtx *fe, CXCursor decl);
  /* Whether a namespace-scope variable is device data (CUDA: __device__, __constant__,
   * __shared__); host variables that device code reads are lowered on their first use. */
  bool (*is_device_var)(CXCursor var);
  /* An expression the language lowers before the shared rules (OpenCL: constant samplers,
   * as_T), or NULL. */
  KExpr *(*expr)(FeCtx *fe, CXCursor c, KLoc loc);
  /* A call of a function clang declared itself (OpenCL's built-ins), or NULL. */
  KExpr *(*builtin_call)(FeCtx *fe, CXCursor call, CXCursor fn, KLoc loc);
  /* A call of a function of kcc's headers the language lowers itself (OpenCL: the image
   * library's raw texel access, __kcc_surf_*), or NULL. */
  KExpr *(*header_call)(FeCtx *fe, CXCursor call, const char *name, KLoc loc);
  /* A call of fn (its KFunc f) is about to be lowered (CUDA: cooperative groups' tiles). */
  void (*note_call)(FeCtx *fe, CXCursor fn, KFunc *f, KLoc loc);
  /* A builtin call e was built (CUDA: texture and surface calls on object parameters). */
  void (*builtin_made)(FeCtx *fe, KExpr *e);
  /* An asm statement (CUDA: inline PTX) as an expression; NULL: refused by the lowering. */
  KExpr *(*asm_stmt)(FeCtx *fe, CXCursor c, KLoc loc);
} FeLangOps;

/* ---------------------------------------------------------------- lower_stmt.c */

KStmt *fe_body(FeCtx *fe, CXCursor compound);
/* Lowers the body of function definition def into f (saving and restoring the state of the
 * function being lowered, so that it may be called in the middle of another body). */
void fe_lower_body(FeCtx *fe, KFunc *f, CXCursor def);
/* A file-scope or block-scope VarDecl with kcc.shared / kcc.constant storage. */
KVar *fe_global_var(FeCtx *fe, CXCursor decl, bool at_file_scope);
/* A variable's initializer, or a null cursor for none (a trivial default constructor). */
CXCursor fe_var_initializer(FeCtx *fe, CXCursor decl);
/* arr[i] for an lvalue of array type (lower_expr.c). */
KExpr *fe_array_elem(KExpr *arr, int64_t i, KLoc loc);

/* ---------------------------------------------------------------- types.c: address spaces */

/* The KIR address space a pointer's pointee type names in OpenCL C (global, constant,
 * local); KAS_GENERIC for private, generic and unqualified. */
KAddrSpace fe_pointee_space(CXType pointer);
/* 'S' for a __local variable, 'C' for a __constant one, 0 otherwise. */
int fe_var_space(CXCursor decl);

/* ---------------------------------------------------------------- half.c, half_lower.c */

/* OpenCL C's vload_half / vstore_half family (half.c); NULL when name is not one of them. */
KExpr *fe_cl_half(FeCtx *fe, CXCursor call, const char *name, KLoc loc);
/* half.c's conversions, made on first use: which 0 is `float __kcc_half_to_float(ushort)`,
 * 1..4 `ushort __kcc_float_to_half_<rte|rtz|rtp|rtn>(float)`. */
KFunc *fe_half_helper(FeCtx *fe, KLoc loc, int which);
/* x (float, or an integer: through float, exact up to 2^24, and past it every mode overflows
 * half alike) rounded to half as fe_half_helper's `which` (1..4) says. */
KExpr *fe_half_round(FeCtx *fe, KExpr *x, int which, KLoc loc);
/* The front end's last step (half_lower.c): every half value becomes its bits (KT_U16) and
 * every operation on one float arithmetic rounded back, so nothing after sees KT_F16. */
void fe_lower_half(FeCtx *fe);

/* ---------------------------------------------------------------- mathlib.c */

/* OpenCL C's math and geometric functions kcc defines over its builtins (sinpi, ldexp, frexp,
 * fast_length...: every overload), for the OpenCL prelude after kcc_derived.h. */
void fe_mathlib_cl(KBuf *b);
/* CUDA's spellings of the same functions (sinpif, ldexpf, remquof...), for the CUDA prelude. */
void fe_mathlib_cu(KBuf *b);
/* An OpenCL C type name: NAME for n == 1, else NAMEn (cl_lib.c's too). */
const char *fe_cl_vtype(char *buf, size_t cap, const char *name, int n);

/* ---------------------------------------------------------------- cxx.c, lambda.c: C++ */

/* Whether fn is a C++ member function with a `this` (methods, conversion operators). */
bool fe_is_method(CXCursor fn);
/* The KIR name of a C++ function: the source name for kernels, with template arguments for
 * specialisations; operators, methods and overloads get unique identifiers. */
const char *fe_cxx_func_name(FeCtx *fe, CXCursor def, bool kernel);
/* Collects the names the file's kernels are written with, before any function is named: a
 * name kcc makes up (an overload's, a template specialisation's, a method's) never takes one,
 * since the runtime finds a kernel by its written name. */
void fe_cxx_reserve_kernel_names(FeCtx *fe, CXCursor scope);
/* Calls C++ spells other than a call of a named function: constructors of trivial structs,
 * defaulted assignments, member functions, member operators. NULL for a plain call. */
KExpr *fe_cxx_call(FeCtx *fe, CXCursor c, KLoc loc);
/* A function of the file not declared yet (a template specialisation, a method, a constexpr
 * function): declared and lowered now. NULL when fn has no definition. */
KFunc *fe_cxx_function(FeCtx *fe, CXCursor fn);
/* C++ default initialization of class types: whether a value of type t needs code to be
 * default-initialized (a default member initializer or a user-provided default constructor
 * in it, at any depth); the value a class's implicit default constructor gives (zero where
 * C++ leaves a member indeterminate). */
bool fe_cxx_needs_default_init(CXType t);
KExpr *fe_cxx_default_value(FeCtx *fe, CXType t, KLoc loc);
/* Whether a constructor call with no arguments is written (`T()`, value-initialization)
 * rather than implied by a declaration (`T t;`, default-initialization). */
bool fe_cxx_written_init(CXCursor construct);
/* C++ aggregate initialization: the members list (of record type rec) leaves out take their
 * default member initializers (or their class's default value), not zero. */
void fe_cxx_aggregate_defaults(FeCtx *fe, CXType rec, KExpr *list, KLoc loc);
/* A constructor's member and default member initializers, as statements appended to out. */
void fe_cxx_ctor_inits(FeCtx *fe, CXCursor ctor, KList *out);
/* What kcc refuses in a C++ class definition (lambda closures, base classes, virtual
 * functions), as a plural noun phrase, or NULL. */
const char *fe_cxx_record_problem(CXCursor def);
/* Whether a class is a lambda's closure type. */
bool fe_cxx_is_lambda_class(CXCursor cls);
/* Fills st (named, registered by the caller) as the closure struct of lambda class def: one
 * field per capture. NULL after reporting a capture kcc refuses. */
KStruct *fe_cxx_lambda_struct(FeCtx *fe, CXCursor def, KStruct *st);
/* A LambdaExpr evaluated: a closure holding the captures' values or addresses. */
KExpr *fe_cxx_lambda(FeCtx *fe, CXCursor expr, KLoc loc);
/* A lambda's call operator def, declared and lowered with its captures bound; NULL when the
 * lambda is refused (reported). */
KFunc *fe_cxx_lambda_method(FeCtx *fe, CXCursor def);

/* ---------------------------------------------------------------- pch.c */

/* The prelude precompiled. fe_pch_prelude_arg: the index of "-include PRELUDE" in a front
 * end's clang arguments, or -1. fe_pch_path: the cached precompiled prelude for those
 * arguments and virtual files (made on a miss; malloc'ed path), or NULL: no cache, or clang
 * could not make one. fe_pch_rejected: whether a translation unit parsed with it says clang
 * could not load it. */
int fe_pch_prelude_arg(const char *const *args, int nargs);
char *fe_pch_path(CXIndex idx, const char *const *args, int nargs, struct CXUnsavedFile *uf,
                  int nuf);
bool fe_pch_rejected(CXTranslationUnit tu);

#endif
