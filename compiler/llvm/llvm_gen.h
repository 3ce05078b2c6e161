/* llvm_gen.h — internal to the LLVM/PTX back end (llvm*.c): the code generator's state and
 * the functions its files share. Nothing outside llvm*.c includes this. */
#ifndef KCC_LLVM_GEN_H
#define KCC_LLVM_GEN_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "kcc.h"

/* An lvalue: the address of an object, the LLVM address space that address lives in, and
 * whether accesses must be volatile. A swizzle lvalue (v.zx, s.pos.xy, a[i].s3) is the
 * address of the whole vector (vt, its type) and the components named, in order: loads
 * read the vector and pick, stores write each named component on its own (no
 * read-modify-write of the others, so threads may write different components). */
typedef struct LV {
  LLVMValueRef ptr;
  unsigned as;
  bool vol;
  const KType *vt; /* swizzle: the vector's type; NULL for an ordinary lvalue */
  int nswz;
  uint8_t swz[16];
} LV;

/* One LLVM struct type per KStruct, with the KIR field index -> LLVM element index map
 * (explicit padding elements make the two differ). */
typedef struct LGStruct {
  const KStruct *ks;
  LLVMTypeRef ty;
  unsigned *elem; /* elem[field] */
} LGStruct;

typedef struct LG {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  LLVMBuilderRef ab; /* allocas: always at the end of the entry block */
  LLVMTargetDataRef td;
  const KOptions *o;
  KModule *km;

  /* common types */
  LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_f32, t_f64, t_ptr0;

  LGStruct *structs;
  int nstructs, capstructs;

  /* the function being generated */
  KFunc *kf;
  LLVMValueRef fn;
  LLVMTypeRef fn_type;
  LLVMBasicBlockRef brk, cont; /* targets of break/continue; NULL outside loops */
  LLVMValueRef sw;             /* the LLVM switch of the innermost switch statement */

  LLVMFastMathFlags fmf; /* flags put on every floating-point operation */
  bool needs_libdevice;
  const char *libdevice_user; /* the first builtin that needed libdevice, for the message */
  char libdevice_user_buf[32];
  KLoc libdevice_loc;
  int nstr;        /* string literals emitted, for names */
  KList strs;      /* LGString*: one global per distinct literal (limits.c counts them so) */
  int llvm_errors; /* errors LLVM reported through its diagnostic handler */
  bool capture;    /* keep LLVM's error message in llvm_msg instead of reporting it */
  char llvm_msg[512];
} LG;

/* llvm.c */
LLVMTypeRef lg_type(LG *g, const KType *t); /* the LLVM type of a value of type t */
unsigned lg_as(KAddrSpace as);              /* KIR address space -> LLVM's */
/* An image parameter's descriptor (docs/bundle.md, "Images on CUDA"): { i64 surface object,
 * i32 width, height, depth, array size, channel order, channel data type } (llvm_builtins.c). */
LLVMTypeRef lg_image_type(LG *g);
unsigned lg_field_index(LG *g, const KStruct *st, int field);
/* The address of field `field` of the struct or union at base. */
LLVMValueRef lg_field_ptr(LG *g, const KStruct *st, LLVMValueRef base, int field);
LLVMValueRef lg_alloca(LG *g, const KType *t, const char *name);
LLVMValueRef lg_alloca_type(LG *g, LLVMTypeRef ty, unsigned align, const char *name);
LLVMValueRef lg_string(LG *g, const char *s, size_t len, unsigned as); /* pointer, AS as */
LLVMValueRef lg_const_init(LG *g, const KType *t, const KExpr *e);     /* NULL: not constant */
/* Declares (once) an external function such as a libdevice __nv_* routine or vprintf. */
LLVMValueRef lg_decl(LG *g, const char *name, LLVMTypeRef fnty);
LLVMValueRef lg_intrinsic(LG *g, const char *name, LLVMTypeRef *over, int nover);
LLVMValueRef lg_call(LG *g, LLVMValueRef fn, LLVMValueRef *args, unsigned n);

/* llvm_expr.c */
LLVMValueRef lg_expr(LG *g, KExpr *e); /* rvalue; NULL for void expressions */
LV lg_lvalue(LG *g, KExpr *e);
LLVMValueRef lg_cond(LG *g, KExpr *e); /* e != 0 as i1 */
LLVMValueRef lg_convert(LG *g, LLVMValueRef v, const KType *from, const KType *to);
LLVMValueRef lg_load(LG *g, LV lv, const KType *t);
void lg_store(LG *g, LV lv, const KType *t, LLVMValueRef v);
/* Stores the value of `init` (expression or KE_INITLIST) into the object at lv. */
void lg_init_object(LG *g, LV lv, const KType *t, KExpr *init);
LLVMValueRef lg_cast_as(LG *g, LLVMValueRef p, unsigned from, unsigned to);
LLVMValueRef lg_fp(LG *g, LLVMValueRef inst); /* applies g->fmf to an FP instruction */
LLVMValueRef lg_i32(LG *g, unsigned v);
LLVMValueRef lg_splat(LG *g, LLVMValueRef v, unsigned n); /* n copies of scalar v */
/* Components idx[0..n) of vector v: the element when n == 1, else an n-vector. */
LLVMValueRef lg_shuffle(LG *g, LLVMValueRef v, const uint8_t *idx, int n);
bool lg_block_open(LG *g);   /* the insertion block has no terminator yet */
void lg_ensure_block(LG *g); /* after a terminator: continue in a fresh (dead) block */

/* llvm_stmt.c */
void lg_stmt(LG *g, KStmt *s);
/* An unrolling hint (KStmt.unroll's values: N, -1 never, -2 fully) on a loop's back edge. */
void lg_loop_hint(LG *g, LLVMValueRef br, int unroll);

/* llvm_builtins.c */
LLVMValueRef lg_special(LG *g, KExpr *e);
LLVMValueRef lg_builtin(LG *g, KExpr *e);
LLVMValueRef lg_asm(LG *g, KExpr *e); /* KE_ASM: inline PTX; NULL (void) */

#endif
