/* fe_cuda.h — the CUDA layer of the front end (cuda/): what the entry (parse.c) and the
 * layer's own files call. The shared lowering reaches the layer only through fe_lang_cuda
 * (fe.h, FeLangOps); the C++ of device code is the lowering's own (lower/cxx.c). */
#ifndef KCC_FE_CUDA_H
#define KCC_FE_CUDA_H

#include "fe.h"

#define FE_CU_PRELUDE FE_VDIR "/cuda_prelude.h"

/* The hooks of CUDA input (cuda.c). */
extern const FeLangOps fe_lang_cuda;

/* The clang arguments that select CUDA, device side, for sm_<arch> (NULL-terminated, static
 * storage). */
const char *const *fe_cu_args(int arch);
/* The CUDA prelude and headers (cuda_runtime.h, cooperative_groups.h, cmath...). */
const FeVFile *fe_cu_vfiles(int *n);
/* kcc's <cuda_fp16.h> (cuda_fp16.c): __half and __half2 on KIR's half. */
const char *fe_cuda_fp16_header(void);
/* kcc's <cuda_bf16.h> (cuda_bf16.c): CUDA's __nv_bfloat16 struct, computed in float. */
const char *fe_cuda_bf16_header(void);
/* kcc's <cuda_fp8.h> (cuda_fp8.c): the e4m3 and e5m2 storage types and their conversions. */
const char *fe_cuda_fp8_header(void);
/* Whether a CUDA function declaration is __device__ (device code kcc compiles). */
bool fe_cu_is_device(CXCursor fn);
/* Whether a CUDA variable is __device__, __constant__, __shared__ or __managed__. */
bool fe_cu_is_device_var(CXCursor var);
/* The references kcc appends to a CUDA file so that its explicit instantiations
 * (`template __global__ void k<256>(int *);`) get cursors, or NULL if it has none (malloc'ed). */
char *fe_cu_instantiations(const char *text, size_t len);
/* Notes a call to one of <cooperative_groups.h>'s functions that make a tile thread_group or
 * sync one (their kcc.* annotations), at the call's location. */
void fe_cu_note_call(FeCtx *fe, CXCursor fn, KFunc *f, KLoc loc);
/* After lowering: a thread_group's tile sync emptied when no call makes a tile group, else
 * its errors placed at the first call that does. */
void fe_cu_tile_groups(FeCtx *fe);

/* ---------------------------------------------------------------- cuda_api.c, cuda_host.c */

/* The CUDA device functions written over kcc's builtins (SIMD intrinsics, cache-hint loads
 * and stores, __dp4a, sincos), for the CUDA prelude. */
void fe_cu_api_decls(KBuf *b);
/* cuda_host.c: the CUDA runtime API's host declarations, for the prelude. */
void fe_cu_host_decls(KBuf *b);
/* <math_constants.h>. */
extern const char fe_cu_math_constants[];
/* cuda_asm.c: an asm statement (inline PTX) as a KE_ASM. */
KExpr *fe_cu_asm(FeCtx *fe, CXCursor c, KLoc loc);

/* ---------------------------------------------------------------- cxxlib.c, hostcode.c */

/* The device-usable part of the C++ standard library, as headers (built once). */
const FeVFile *fe_cxx_vfiles(int *n);
/* CUDA input: forwards clang's diagnostics that concern device code (hostcode.c says which),
 * then notes the headers that were not found; returns the number of errors forwarded. */
int fe_cu_forward_diags(FeCtx *fe);

/* ---------------------------------------------------------------- cuda_texobj.c */

/* CUDA texture and surface objects in the forms without them. A kernel's parameter v of
 * clang type t, as it is declared; a texture or surface call e, once built; then after every
 * body: the alternatives (KExpr.alt), true when one was made; and image_lib.c's software
 * forms of them (for Vulkan) from parse_cl's parse of an OpenCL C text. */
void fe_cu_texobj_param(FeCtx *fe, KFunc *f, KVar *v, CXType t);
void fe_cu_texobj_use(FeCtx *fe, KExpr *e);
bool fe_cu_texobj_lower(FeCtx *fe);
bool fe_cu_texobj_graft(FeCtx *fe, KModule *(*parse_cl)(const char *name, const char *text));

#endif
