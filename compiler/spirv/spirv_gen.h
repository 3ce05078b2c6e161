/* spirv_gen.h — state shared by the files of the SPIR-V back end: spirv.c (types, module-level
 * variables, functions, statements, emit_spirv) and spirv_expr.c (expressions, builtins).
 *
 * Lowering model: every local (and every parameter that is written or whose address is
 * taken) lives in a Function-storage OpVariable declared at the top of the entry block, so no
 * OpPhi is needed for C variables; llvm-spirv/LLVM's mem2reg turns them back into registers.
 * OpPhi appears only for values that are born in control flow (&&, ||, ?:, the float
 * atomic-add loop). KIR's bool is a byte holding 0 or 1, as in memory; SPIR-V's OpTypeBool
 * exists only between a comparison and the branch or select that consumes it. */
#ifndef KCC_SPIRV_GEN_H
#define KCC_SPIRV_GEN_H

#include "diag.h"
#include "kcc.h"
#include "spirv_module.h"

/* What a KVar became, in KVar.aux while the back end runs. */
typedef struct SVar {
  uint32_t ptr; /* pointer to its storage, or 0 */
  uint32_t val; /* a parameter never written: its value */
  uint32_t wg;  /* a static shared array: its module-scope Workgroup variable */
  bool psb;     /* Vulkan: a local or module constant whose address escapes: in the frame */
} SVar;

typedef struct SStruct {
  const KStruct *ks;
  uint32_t id;
  bool building; /* members being lowered: pointers to it need OpTypeForwardPointer */
} SStruct;

typedef struct SForward {
  const KStruct *ks;
  SpvStorageClass sc;
  uint32_t id; /* the pointer type's id, announced by OpTypeForwardPointer */
} SForward;

typedef struct SStr {
  const char *s;
  size_t len;
  uint32_t var;
} SStr;

typedef struct SFile {
  const char *name;
  uint32_t id;
} SFile;

enum { SG_NBUILTIN = 9 }; /* SG.builtin: 4 work-item registers, 5 subgroup builtins */
enum { SG_NVKMATH = 80 }; /* SG.vkmath: at least spirv_vkmath.c's F_COUNT */

typedef struct SG {
  SpvModule m;
  KModule *km;
  const KOptions *o;
  bool failed;
  /* The Vulkan flavour (spirv_vulkan.c): Shader capability, PhysicalStorageBuffer pointers for
   * global memory, structured control flow, GLSL.std.450, push-constant parameters. */
  bool vk;
  bool vk_no_contract;    /* no -ffast-math: float arithmetic gets NoContraction (spirv.c) */
  uint32_t glsl;          /* OpExtInstImport "GLSL.std.450", 0 until needed */
  uint32_t wgsize[3];     /* the workgroup size's specialisation constants (SpecId 0, 1, 2) */
  uint32_t vk_zero_fixes; /* "kcc.zero_fixes" (SpecId 7, spirv_vulkan.c), once used */
  uint32_t vk_fma_fused;  /* "kcc.fma_fused" (SpecId 9, spirv_vulkan.c), once used */
  uint8_t *laid;          /* ids that have their ArrayStride decoration already */
  size_t nlaid;
  uint32_t dyn_bytes; /* dynamic shared memory's size: specialisation constant 3 */
  struct {
    const KType *elem;
    uint32_t var;
  } dyn_vars[8]; /* its Workgroup array, one per element type */
  int ndyn_vars;
  /* Vulkan: locals whose address escapes (taken, an array passed on, a union member) live in
   * a per-invocation frame in a buffer the runtime provides (spirv_vulkan.c, "Frames"). */
  KList escaping;       /* this function's: KVar * */
  KList esc_consts;     /* module constants whose address escapes: copied into the frame */
  uint32_t frame_var;   /* Private u64: this invocation's frame address (0: none yet) */
  uint32_t frame_total; /* bytes of every function's frame, one after the other */
  uint32_t frame_here;  /* where this function's frame starts in it */
  uint32_t frame_size;  /* this function's frame so far */
  /* Vulkan: static shared arrays whose address escapes (kept in a pointer, passed on) live in
   * the workgroup's block of the same scratch buffer (spirv_vulkan.c, "Frames"). */
  KList esc_shared;       /* KVar *, found before gen_globals */
  uint32_t wgframe_var;   /* Private u64: this workgroup's shared block address (0: none) */
  uint32_t wgframe_total; /* bytes of the shared block */
  /* Dynamic shared memory in the block too, after its static part (spirv_vulkan.c): when a
   * pointer into it escapes, a float atomic uses it, or a function views it as two element
   * types; every `extern shared` array is then that one place. */
  bool dyn_block;
  /* Vulkan printf (spirv_vulkan.c, "printf"): records in a buffer the runtime prints. */
  uint32_t printf_var;    /* Private u64: the print buffer's address (0: no printf) */
  uint32_t vk_image;      /* Vulkan: the image descriptor struct (sg_vk_image_type), once */
  int nformats, nstrings; /* "kcc.printf:" and "kcc.str:" OpStrings so far */
  uint32_t ocl;           /* OpExtInstImport "OpenCL.std", 0 until needed */
  /* Vulkan: kcc's own float math (spirv_vkmath.c), each function made at its first call into
   * a buffer of its own (the function section holds the one being lowered). */
  uint32_t vkmath[SG_NVKMATH];
  SpvWords vkmath_code;
  /* Input variables: threadIdx, blockIdx, blockDim, gridDim, then (the OpenCL flavour) the
     subgroup ones, SubgroupSize .. SubgroupLocalInvocationId (spirv_expr.c) */
  uint32_t builtin[SG_NBUILTIN];

  SStruct *structs;
  int nstructs, capstructs;
  SForward *fwd;
  int nfwd, capfwd;
  SStr *strs;
  int nstrs, capstrs;
  SFile *files;
  int nfiles, capfiles;

  /* the function being lowered */
  KFunc *kf;
  uint32_t fn_ret; /* SPIR-V return type */
  SpvWords vars;   /* OpVariable instructions of the entry block */
  SpvWords body;   /* everything after them */
  bool open;       /* a block is open (has a label, no terminator yet) */
  uint32_t label;  /* the open block's label */
  uint32_t brk, cont;
  uint32_t dyn;  /* the dynamic shared memory parameter, or 0 */
  KVar *dyn_var; /* the dynamic shared array that names and types it */
  KLoc loc;      /* the source position instructions are attributed to */
  uint32_t line_file;
  int line_no; /* the OpLine in effect in the open block (0: none) */
} SG;

/* The static shared arrays device function f reaches, which an OpenCL one receives as Workgroup
 * pointer parameters (after the host-filled constants' and before the dynamic one): count, and the
 * i-th in f->shared order. */
int sg_nshared_params(const SG *g, const KFunc *f);
KVar *sg_shared_param(const SG *g, const KFunc *f, int i);

/* ---- spirv.c: types and instruction emission */
uint32_t sg_type(SG *g, const KType *t);
uint32_t sg_pointee(SG *g, const KType *t);
/* OpTypeImage of a KT_IMAGE (declaring the capabilities it needs). */
uint32_t sg_image_type(SG *g, const KType *t); /* void -> i8 */
SpvStorageClass sg_storage(SG *g, KAddrSpace as, KLoc loc);
/* The integer (or, above 8 bytes, i32 vector) type whose size and alignment are st's
 * alignment: a union is an array of them. */
uint32_t sg_union_unit(SG *g, const KStruct *st);
uint32_t sg_ptr_type(SG *g, SpvStorageClass sc, const KType *pointee);
int sg_bits(const KType *t); /* integer or float width of a scalar (bool: 8) */
uint32_t sg_u32(SG *g, uint32_t v);
uint32_t sg_u64(SG *g, uint64_t v);
/* Instructions in the current function. sg_op returns the new result id. */
uint32_t sg_op(SG *g, SpvOp op, uint32_t rtype, int n, const uint32_t *ops);
uint32_t sg_opv(SG *g, SpvOp op, uint32_t rtype, int n, ...);
void sg_inst(SG *g, SpvOp op, int n, const uint32_t *ops);
void sg_instv(SG *g, SpvOp op, int n, ...);
void sg_ensure_block(SG *g);
void sg_start_block(SG *g, uint32_t label); /* falls through from an open block */
void sg_branch(SG *g, uint32_t label);      /* ends the open block, if any */
void sg_branch_cond(SG *g, uint32_t cond, uint32_t t, uint32_t f);
uint32_t sg_load(SG *g, const KType *t, uint32_t ptr, bool is_volatile);
void sg_store(SG *g, const KType *t, uint32_t ptr, uint32_t val, bool is_volatile);
/* Marks a float instruction's result for -ffast-math. */
void sg_fast(SG *g, uint32_t id);
uint32_t sg_ocl_import(SG *g);
/* The first dynamic shared array f reaches (it names and types f's dynamic-memory
 * parameter), or NULL when f takes none. */
KVar *sg_dyn_var(const KFunc *f);
uint32_t sg_temp_var(SG *g, const KType *t); /* a nameless Function variable */
uint32_t sg_global_var(SG *g, uint32_t ptrtype, SpvStorageClass sc, uint32_t init);
uint32_t sg_builtin_input(SG *g, int k, uint32_t type, SpvBuiltIn b, const char *name);
uint32_t sg_string_literal(SG *g, const char *s, size_t len); /* UniformConstant i8 array var */
void sg_error(SG *g, KLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Structured control flow (the Vulkan flavour; the OpenCL one writes the plain branch):
 * OpSelectionMerge merge before the conditional branch. */
void sg_branch_cond_merge(SG *g, uint32_t cond, uint32_t t, uint32_t f, uint32_t merge);
/* A loop header's OpLoopMerge merge cont, then a branch to body; ends the block. */
void sg_loop_header(SG *g, uint32_t merge, uint32_t cont, uint32_t body);

/* ---- spirv_vulkan.c: what only the Vulkan flavour has */
void sg_vk_header(SG *g);                /* capabilities, memory model, workgroup size */
void sg_vk_finish(SG *g);                /* capabilities that follow from the types used */
uint32_t sg_vk_special(SG *g, KExpr *e); /* threadIdx, blockIdx, blockDim, gridDim */
void sg_vk_stride(SG *g, uint32_t id, uint32_t stride); /* ArrayStride, once per id */
/* Refuses (with a diagnostic) what the flavour cannot express yet in kernel or function f. */
void sg_vk_check_func(SG *g, KFunc *f);
/* Kernel f's GLCompute entry point: a parameterless function that reads f's parameters
 * from the push-constant block and calls f; its OpEntryPoint and execution modes. */
void sg_vk_entry(SG *g, KFunc *f);
/* GLSL.std.450's instruction for OpenCL.std's `ocl` in call e on element type et,
 * SG_VK_OWN_MATH where kcc's own function is taken instead (sg_vk_math), or -1 with a
 * diagnostic saying why not. */
enum { SG_VK_OWN_MATH = -2 };
int sg_vk_glsl_inst(SG *g, int ocl, const KExpr *e, const KType *et);
uint32_t sg_vk_glsl_import(SG *g);
/* A float operation the driver must compute as written (NoContraction, even under
 * -ffast-math): error-free transformations and __fadd_rn & co. rely on its rounding. */
uint32_t sg_vk_exact(SG *g, SpvOp op, uint32_t type, uint32_t a, uint32_t b);
/* Specialisation constant 9, kcc.fma_fused: true where the driver's Fma rounds once (the
 * runtime says), so an exact product's error is one Fma instead of Dekker's; t's shape. */
uint32_t sg_vk_fma_fused(SG *g, const KType *t);
/* The driver's Fma(a, b, c) of float type ft (fused or not: sg_vk_fma_fused says). */
uint32_t sg_vk_driver_fma(SG *g, uint32_t ft, uint32_t a, uint32_t b, uint32_t c);
/* IEEE a / b and sqrt(x) of float type t (scalar or vector): Vulkan's OpFDiv and Sqrt are
 * allowed 2.5 and 3 ulp; one fused correction step makes them correctly rounded. */
uint32_t sg_vk_div(SG *g, const KType *t, uint32_t a, uint32_t b);
/* q = a / b made safe where b is zero (lavapipe: docs/driver-bugs.md 22). */
uint32_t sg_vk_div_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q);
/* q = a + b (sub: a - b) made right where both are zeros (lavapipe: docs/driver-bugs.md 21). */
uint32_t sg_vk_add_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q, bool sub);
/* q = a * b made right where a or b is zero (lavapipe: docs/driver-bugs.md 21). */
uint32_t sg_vk_mul_zero(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t q);
uint32_t sg_vk_sqrt(SG *g, const KType *t, uint32_t x);
/* fmaf correctly rounded (through double: Vulkan's 32-bit Fma need not be fused). */
uint32_t sg_vk_fma32(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t c);
uint32_t sg_vk_fma64(SG *g, const KType *t, uint32_t a, uint32_t b, uint32_t c);
/* isfinite(v) as an OpTypeBool (of t's shape). */
uint32_t sg_vk_is_finite(SG *g, const KType *t, uint32_t v);
/* The size and alignment of a kernel parameter of type t in the push-constant block
 * (docs/bundle.md, "Vulkan"); size 0 when it cannot be there. */
int sg_vk_slot_size(const KType *t);
int sg_vk_slot_align(const KType *t);
/* Finds the locals of f whose address escapes (into g->escaping). */
void sg_vk_escapes(SG *g, KFunc *f);
/* Finds the module constants whose address escapes (into g->esc_consts) and places their
 * copies at the start of the frame; after gen_globals. */
void sg_vk_module_escapes(SG *g);
bool sg_vk_escaping(SG *g, const KVar *v);
/* Finds the static shared arrays whose address escapes (into g->esc_shared); before
 * gen_globals, which places them in the workgroup's block (sg_vk_shared_block). */
void sg_vk_shared_escapes(SG *g);
bool sg_vk_shared_escaping(SG *g, const KVar *v);
/* v's offset in the workgroup's shared block (allocated on the first call). */
uint32_t sg_vk_shared_block(SG *g, const KVar *v);
/* In f's entry block: the frame-resident locals' pointers (their SVar.ptr), from the frame
 * address the entry point stored; ends f's frame. */
void sg_vk_frame_enter(SG *g);
/* printf call e (format fmt, a string literal) as a record in the print buffer. */
uint32_t sg_vk_printf(SG *g, KExpr *e, const KExpr *fmt);
/* Dynamic shared memory for the array v names: a Workgroup array of v's element type whose
 * length is specialisation constant 3 (bytes) over the element size, rounded up. */
uint32_t sg_vk_dyn_shared(SG *g, const KVar *v);
/* Images (issue 30; docs/design.md, "Images on Vulkan"): an image is its 32-byte descriptor
 * (a struct: the texels' device address, width, height, depth, layers, channel order and
 * type), a sampler its CLK_* bits (u32); reads and writes call their software forms
 * (KFunc.image_impl), which reach the texels through BI_SURF_LOAD/STORE. */
uint32_t sg_vk_image_type(SG *g);
uint32_t sg_vk_image(SG *g, KExpr *e); /* the queries, BI_SURF_LOAD/STORE, reads, writes */

/* ---- spirv_vkmath.c: kcc's own float math for the Vulkan flavour */
/* Whether builtin b (exp, sin, pow...) has kcc's own implementation on float (f64: on
 * double). */
bool sg_vk_math_has(KBuiltin b, bool f64);
/* b on float or double (or vector) type t: a call of the module's function for it, made at the
 * first use. */
uint32_t sg_vk_math(SG *g, KBuiltin b, const KType *t, const uint32_t *args, int nargs);
/* Appends the functions made to the module's function section. */
void sg_vk_math_finish(SG *g);

/* ---- spirv_expr.c: vectors (both flavours). The Vulkan form's vectors of 8 and 16 components
 * ("wide") are arrays of 4-vectors (docs/design.md, "Vectors of 8 and 16 components on
 * Vulkan"); these reach components whatever the representation. */
bool sg_wide(const SG *g, const KType *t);
KType *sg_chunk(const KType *t); /* the 4-vector of t's element type: a wide vector's part */
uint32_t sg_vec_get(SG *g, const KType *t, uint32_t v, int i);             /* component i */
uint32_t sg_vec_set(SG *g, const KType *t, uint32_t v, int i, uint32_t c); /* v, i replaced */
uint32_t sg_vec_make(SG *g, const KType *t, const uint32_t *c);     /* from t->len components */
uint32_t sg_vec_const(SG *g, const KType *t, const uint32_t *c);    /* constant components */
uint32_t sg_vec_part(SG *g, const KType *t, uint32_t v, int k);     /* wide: 4-vector k */
uint32_t sg_vec_join(SG *g, const KType *t, const uint32_t *parts); /* wide: from its parts */

/* ---- spirv_expr.c */
uint32_t sg_expr(SG *g, KExpr *e); /* the value (0 for void) */
uint32_t sg_addr(SG *g, KExpr *e); /* pointer to an lvalue */
uint32_t sg_cond(SG *g, KExpr *e); /* OpTypeBool: e != 0 */
uint32_t sg_cond_if(SG *g, uint32_t sel, bool when, KExpr *c, uint32_t other);
bool sg_addressable(SG *g, KExpr *e); /* has storage that sg_addr can name */
uint32_t sg_convert(SG *g, uint32_t v, const KType *from, const KType *to, KLoc loc);
uint32_t sg_zero(SG *g, const KType *t); /* zero of any type */
/* A constant for an initializer of type t (NULL: zero), or 0 if e is not constant. */
uint32_t sg_const_init(SG *g, const KType *t, const KExpr *e);
/* The value of an initializer of type t (constant or built at run time). */
uint32_t sg_init_value(SG *g, const KType *t, KExpr *e);
/* Writes an initializer of type t to ptr, which points into storage class sc. */
void sg_init_store(SG *g, const KType *t, uint32_t ptr, SpvStorageClass sc, KExpr *e);

#endif
