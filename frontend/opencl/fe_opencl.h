/* fe_opencl.h — the OpenCL C layer of the front end (opencl/): what the entry (parse.c) and
 * the layer's own files call. The shared lowering reaches the layer only through
 * fe_lang_opencl (fe.h, FeLangOps). */
#ifndef KCC_FE_OPENCL_H
#define KCC_FE_OPENCL_H

#include "fe.h"

#define FE_CL_PRELUDE FE_VDIR "/opencl.h"

/* The hooks of OpenCL C input (opencl.c). */
extern const FeLangOps fe_lang_opencl;

/* The OpenCL prelude (types, macros, printf; kcc's spellings of __kernel and
 * reqd_work_group_size): one virtual file, static storage. */
const FeVFile *fe_cl_vfile(void);
/* The clang arguments that select OpenCL C (NULL-terminated, static storage). */
const char *const *fe_cl_args(int cl_std);
/* Reports types OpenCL C has and kcc refuses (images, samplers, events, pipes, queues,
 * OpenCL 2.0 atomic types) at loc; false when t is one. */
bool fe_cl_check_type(FeCtx *fe, CXType t, KLoc loc);
/* reqd_work_group_size and intel_reqd_sub_group_size on a kernel definition. */
void fe_cl_kernel_attrs(FeCtx *fe, CXCursor def, KFunc *f);
/* A call in OpenCL C to one of clang's implicitly declared OpenCL built-ins (fn is its
 * FunctionDecl): its lowering, or a diagnostic and a placeholder. NULL when fn is not one
 * (a function of the file or of the prelude). */
KExpr *fe_cl_call(FeCtx *fe, CXCursor call, CXCursor fn, KLoc loc);
/* as_T(x) (the prelude's __builtin_astype) when c is one, as a KE_BITCAST; else NULL. */
KExpr *fe_cl_astype(FeCtx *fe, CXCursor c, KLoc loc);
/* cl_lib.c: the OpenCL C built-ins written in OpenCL C, for the .cl prelude (malloc'ed). */
char *fe_cl_lib(void);
/* cl_workgroup.c: OpenCL C 2.0's work-item and work-group collective functions, written in
 * OpenCL C over a local scratch array (appended to b; part of fe_cl_lib's text). */
void fe_cl_workgroup(KBuf *b);

/* ---------------------------------------------------------------- image.c (OpenCL images) */

/* KT_IMAGE or KT_SAMPLER for OpenCL C's image and sampler types; NULL for any other type, or
 * after reporting an image kcc does not take (depth, multisample). */
KType *fe_cl_opaque_type(FeCtx *fe, CXType t, KLoc loc);
/* A sampler-typed expression: the constant sampler it stands for (KE_ICONST of KT_SAMPLER) or a
 * sampler parameter (KE_VAR); NULL when c is not of sampler type. */
KExpr *fe_cl_sampler_expr(FeCtx *fe, CXCursor c, KLoc loc);
/* A sampler variable's declaration (file scope or local): checked to be a constant sampler,
 * and then no variable (its uses fold to the constant); false when decl is not a sampler. */
bool fe_cl_sampler_decl(FeCtx *fe, CXCursor decl);
/* read_image*, write_image*, get_image_*: the BI_IMAGE_* call (reads and writes pointing at
 * their software form for PTX and CUDA C, image_lib.c); __kcc_surf_load/store (image_lib.c's
 * raw texel access): BI_SURF_*; NULL for other names. */
KExpr *fe_cl_image_call(FeCtx *fe, CXCursor call, const char *name, KType *t, KLoc loc);
/* image_lib.c: the image functions in OpenCL C, for the .cl prelude. */
void fe_cl_image_lib(KBuf *b);

#endif
