/* cuda.c — CUDA (.cu) input: the parse mode, kcc's CUDA prelude and headers, and the C++
 * constructs C-style CUDA kernels use (references, C++ casts, constructors of trivial
 * structs, member calls, templates), lowered to the same KIR as the C dialect.
 *
 * clang parses .cu files as CUDA (C++) for the device only (docs/design.md says why each
 * argument is there). kcc's prelude spells the CUDA attributes as clang's own plus the
 * annotations the shared walk looks for, declares the builtins (the C dialect's list, made
 * host-device), CUDA's vector types with CUDA's layout, and the headers kernels include. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe.h"

/* ---------------------------------------------------------------- parse mode */

const char *const *fe_cu_args(int arch) {
  /* __CUDA_ARCH__ follows the PTX target (-arch), so `#if __CUDA_ARCH__ >= 800` code is
     taken where the target has it. */
  static char gpu_arch[40];
  snprintf(gpu_arch, sizeof gpu_arch, "--cuda-gpu-arch=sm_%d", arch > 0 ? arch : 75);
  static const char *args[] = {
      "-x",
      "cuda",
      "--cuda-device-only",
      NULL, /* --cuda-gpu-arch= */
      "-nocudainc",
      "-nocudalib",
      "--cuda-path=/nonexistent",
      "-std=c++17",
      "-nostdinc",
      "-nostdinc++",
      /* Host code may give any number of errors that do not count (hostcode.c). */
      "-ferror-limit=0",
      "-Wno-format-security",
      /* A constexpr function that can never be a constant expression is ill-formed with no
         diagnostic required (C++17 [dcl.constexpr]p5); nvcc accepts it and calls it at run
         time (`constexpr float f() { return 1.f / ::log(10.f); }`), clang makes its warning
         an error by default. */
      "-Wno-invalid-constexpr",
      "-D__KCC__=1",
      "-isystem",
      FE_INCDIR,
      "-include",
      FE_CU_PRELUDE,
      NULL,
  };
  args[3] = gpu_arch;
  return args;
}

/* ---------------------------------------------------------------- the prelude */

static const char cu_head[] =
    "#define __KCC_PRELUDE__ 1\n"
    "#define __CUDACC__ 1\n"
    /* clang's CUDA attributes, plus the annotations the shared walk finds kernels by. */
    "#define __global__ __attribute__((global)) __attribute__((annotate(\"kcc.kernel\")))\n"
    "#define __device__ __attribute__((device))\n"
    "#define __host__ __attribute__((host))\n"
    "#define __shared__ __attribute__((shared)) __attribute__((annotate(\"kcc.shared\")))\n"
    "#define __constant__ __attribute__((constant)) __attribute__((annotate(\"kcc.constant\")))\n"
    "#define __managed__ __attribute__((device)) __attribute__((annotate(\"kcc.managed\")))\n"
    "#define __forceinline__ __inline__ __attribute__((always_inline))\n"
    "#define __noinline__ __attribute__((noinline))\n"
    "#define __inline_hint__\n"
    "#define __restrict__ __restrict\n"
    "#define __align__(n) __attribute__((aligned(n)))\n"
    "#define __builtin_align__(n) __attribute__((aligned(n)))\n"
    "#define __launch_bounds__(...) __attribute__((annotate(\"kcc.launch_bounds\", "
    "__VA_ARGS__)))\n"
    "#define __KCC_OVL\n"
    "#define CUDART_VERSION 12000\n"
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "extern \"C\" __device__ int printf(const char *__fmt, ...) "
    "__attribute__((format(printf, 1, 2)));\n"
    "#pragma clang force_cuda_host_device begin\n"
    /* uint3 and dim3 (below, with the other vector types, uint3 gets its make_uint3), and
       the launch's indices and sizes, before the builtins that read them. dim3 as the
       CUDA Programming Guide defines it: uint3's fields, each 1 unless given, convertible
       both ways with uint3; threadIdx and blockIdx are uint3, blockDim and gridDim dim3
       (lower_expr.c reads them). */
    "struct __attribute__((aligned(4))) uint3 { unsigned int x, y, z; };\n"
    "struct dim3 { unsigned int x, y, z;\n"
    "  constexpr dim3(unsigned int __x = 1, unsigned int __y = 1, unsigned int __z = 1)"
    " : x(__x), y(__y), z(__z) {}\n"
    "  constexpr dim3(uint3 __v) : x(__v.x), y(__v.y), z(__v.z) {}\n"
    "  constexpr operator uint3() const { uint3 __r = {x, y, z}; return __r; } };\n"
    "extern const __device__ uint3 threadIdx, blockIdx;\n"
    "extern const __device__ dim3 blockDim, gridDim;\n"
    "#include \"" FE_BUILTINS "\"\n"
    "void __threadfence(void);\n"
    "void __threadfence_block(void);\n"
    "void __threadfence_system(void);\n"
    "static __inline__ void *memcpy(void *__d, const void *__s, size_t __n) { unsigned char "
    "*__dc = (unsigned char *)__d; const unsigned char *__sc = (const unsigned char *)__s; for "
    "(size_t __i = 0; __i < __n; __i++) __dc[__i] = __sc[__i]; return __d; }\n"
    "static __inline__ void *memset(void *__d, int __c, size_t __n) { unsigned char *__dc = "
    "(unsigned char *)__d; for (size_t __i = 0; __i < __n; __i++) __dc[__i] = (unsigned "
    "char)__c; return __d; }\n"
    "static __inline__ unsigned umin(unsigned __a, unsigned __b) { return __a < __b ? __a : "
    "__b; }\n"
    "static __inline__ unsigned umax(unsigned __a, unsigned __b) { return __a < __b ? __b : "
    "__a; }\n"
    "static __inline__ long long llmin(long long __a, long long __b) { return __a < __b ? __a : "
    "__b; }\n"
    "static __inline__ long long llmax(long long __a, long long __b) { return __a < __b ? __b : "
    "__a; }\n"
    "static __inline__ unsigned long long ullmin(unsigned long long __a, unsigned long long "
    "__b) { return __a < __b ? __a : __b; }\n"
    "static __inline__ unsigned long long ullmax(unsigned long long __a, unsigned long long "
    "__b) { return __a < __b ? __b : __a; }\n"
    "#include <assert.h>\n";

/* Textures and surfaces. Texture references (texture<T, dim>, which CUDA 12 removed) are
 * declared unavailable, so that a use gets one clear error; texture and surface objects are the
 * host's unsigned long long handles, read and written through builtins (BI_CU_TEX*,
 * BI_CU_SURF*: the PTX and CUDA C forms only). */
static const char h_textures[] =
    "#define __KCC_NOTEX __attribute__((unavailable(\"texture references are not supported "
    "by kcc (CUDA 12 removed them): use a texture object (cudaTextureObject_t)\")))\n"
    "enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };\n"
    "template <class T, int dim = 1, enum cudaTextureReadMode = cudaReadModeElementType> struct "
    "__KCC_NOTEX texture { int __kcc_unused; };\n"
    "typedef unsigned long long cudaTextureObject_t;\n"
    "typedef unsigned long long cudaSurfaceObject_t;\n"
    "enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, "
    "cudaBoundaryModeTrap = 2 };\n"
    "template <class T> __device__ T tex1Dfetch(cudaTextureObject_t, int);\n"
    "template <class T> __device__ T tex1D(cudaTextureObject_t, float);\n"
    "template <class T> __device__ T tex2D(cudaTextureObject_t, float, float);\n"
    "template <class T> __device__ T tex3D(cudaTextureObject_t, float, float, float);\n"
    "template <class T> __device__ T tex1DLod(cudaTextureObject_t, float, float);\n"
    "template <class T> __device__ T tex2DLod(cudaTextureObject_t, float, float, float);\n"
    "template <class T> __device__ T tex3DLod(cudaTextureObject_t, float, float, float, float);\n"
    "template <class T> __device__ T tex1DLayered(cudaTextureObject_t, float, int);\n"
    "template <class T> __device__ T tex2DLayered(cudaTextureObject_t, float, float, int);\n"
    "template <class T> __device__ T tex1DLayeredLod(cudaTextureObject_t, float, int, float);\n"
    "template <class T> __device__ T tex2DLayeredLod(cudaTextureObject_t, float, float, int, "
    "float);\n"
    /* The pointer-result overloads: *ptr = the value form's texel. */
    "template <class T> __device__ void tex1Dfetch(T *, cudaTextureObject_t, int);\n"
    "template <class T> __device__ void tex1D(T *, cudaTextureObject_t, float);\n"
    "template <class T> __device__ void tex2D(T *, cudaTextureObject_t, float, float);\n"
    "template <class T> __device__ void tex3D(T *, cudaTextureObject_t, float, float, float);\n"
    "template <class T> __device__ void tex1DLod(T *, cudaTextureObject_t, float, float);\n"
    "template <class T> __device__ void tex2DLod(T *, cudaTextureObject_t, float, float, float);\n"
    "template <class T> __device__ void tex3DLod(T *, cudaTextureObject_t, float, float, float, "
    "float);\n"
    "template <class T> __device__ void tex1DLayered(T *, cudaTextureObject_t, float, int);\n"
    "template <class T> __device__ void tex2DLayered(T *, cudaTextureObject_t, float, float, "
    "int);\n"
    "template <class T> __device__ void tex1DLayeredLod(T *, cudaTextureObject_t, float, int, "
    "float);\n"
    "template <class T> __device__ void tex2DLayeredLod(T *, cudaTextureObject_t, float, float, "
    "int, float);\n"
    "template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ T surf3Dread(cudaSurfaceObject_t, int, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ T surf1DLayeredread(cudaSurfaceObject_t, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ T surf2DLayeredread(cudaSurfaceObject_t, int, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf1Dread(T *, cudaSurfaceObject_t, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf2Dread(T *, cudaSurfaceObject_t, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf3Dread(T *, cudaSurfaceObject_t, int, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf1DLayeredread(T *, cudaSurfaceObject_t, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf2DLayeredread(T *, cudaSurfaceObject_t, int, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf1DLayeredwrite(T, cudaSurfaceObject_t, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n"
    "template <class T> __device__ void surf2DLayeredwrite(T, cudaSurfaceObject_t, int, int, int, "
    "cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);\n";

/* Math functions with a float overload in CUDA's C++ headers (sqrt(float) is sqrtf). */
static const char *const float_overloads[] = {
    "sqrt",  "rsqrt", "cbrt",  "exp",   "exp2",   "exp10",  "expm1", "log",  "log2",
    "log10", "log1p", "sin",   "cos",   "tan",    "asin",   "acos",  "atan", "sinh",
    "cosh",  "tanh",  "asinh", "acosh", "atanh",  "fabs",   "floor", "ceil", "round",
    "trunc", "rint",  "erf",   "erfc",  "tgamma", "lgamma",
};
static const char *const float_overloads2[] = {"atan2", "pow",   "fmin",    "fmax",
                                               "fmod",  "hypot", "copysign"};

/* CUDA's vector types: name, element, alignment of 1..4 components (vector_types.h). */
static const struct {
  const char *name, *elem;
  int size;
} cu_vec_elems[] = {
    {"char", "signed char", 1},
    {"uchar", "unsigned char", 1},
    {"short", "short", 2},
    {"ushort", "unsigned short", 2},
    {"int", "int", 4},
    {"uint", "unsigned int", 4},
    {"long", "long", 8},
    {"ulong", "unsigned long", 8},
    {"longlong", "long long", 8},
    {"ulonglong", "unsigned long long", 8},
    {"float", "float", 4},
    {"double", "double", 8},
};

static int cu_vec_align(int size, int n) {
  if (n == 2) return 2 * size;
  if (n == 4) return 4 * size < 16 ? 4 * size : 16;
  return size;
}

static char *build_cu_prelude(void) {
  KBuf b = {0};
  kbuf_printf(&b, "%s%s", cu_head, h_textures);
  for (size_t i = 0; i < sizeof float_overloads / sizeof *float_overloads; i++)
    kbuf_printf(&b, "float %s(float);\n", float_overloads[i]);
  for (size_t i = 0; i < sizeof float_overloads2 / sizeof *float_overloads2; i++)
    kbuf_printf(&b, "float %s(float, float);\n", float_overloads2[i]);
  kbuf_printf(&b, "float fma(float, float, float);\n");
  static const char comp[] = "xyzw";
  for (size_t e = 0; e < sizeof cu_vec_elems / sizeof *cu_vec_elems; e++) {
    const char *N = cu_vec_elems[e].name, *T = cu_vec_elems[e].elem;
    for (int n = 1; n <= 4; n++) {
      if (strcmp(N, "uint") || n != 3) { /* uint3 comes first (cu_head) */
        kbuf_printf(&b, "struct __attribute__((aligned(%d))) %s%d { %s",
                    cu_vec_align(cu_vec_elems[e].size, n), N, n, T);
        for (int i = 0; i < n; i++) kbuf_printf(&b, "%s %c", i ? "," : "", comp[i]);
        kbuf_printf(&b, "; };\n");
      }
      kbuf_printf(&b, "typedef struct %s%d %s%d;\n", N, n, N, n);
      kbuf_printf(&b, "static __inline__ %s%d make_%s%d(", N, n, N, n);
      for (int i = 0; i < n; i++) kbuf_printf(&b, "%s%s %c", i ? ", " : "", T, comp[i]);
      kbuf_printf(&b, ") { %s%d __r = {", N, n);
      for (int i = 0; i < n; i++) kbuf_printf(&b, "%s%c", i ? ", " : "", comp[i]);
      kbuf_printf(&b, "}; return __r; }\n");
    }
  }
  /* Cooperative groups shuffle vector types too (thread_block_tile<32>::shfl_xor on a uint4):
     component by component. */
  static const char *const shfl[] = {"", "_up", "_down", "_xor"};
  static const char *const lane[] = {"int __l", "unsigned __l", "unsigned __l", "int __l"};
  for (size_t e = 0; e < sizeof cu_vec_elems / sizeof *cu_vec_elems; e++) {
    if (cu_vec_elems[e].size < 4) continue;
    const char *N = cu_vec_elems[e].name;
    for (int n = 2; n <= 4; n++)
      for (int k = 0; k < 4; k++) {
        kbuf_printf(&b,
                    "static __inline__ %s%d __shfl%s_sync(unsigned __m, %s%d __v, %s, int __w = "
                    "32) { %s%d __r = {",
                    N, n, shfl[k], N, n, lane[k], N, n);
        for (int i = 0; i < n; i++)
          kbuf_printf(&b, "%s__shfl%s_sync(__m, __v.%c, __l, __w)", i ? ", " : "", shfl[k],
                      comp[i]);
        kbuf_printf(&b, "}; return __r; }\n");
      }
  }
  /* The launch configuration `<<<g, b, shm, stream>>>` is a call of
     __cudaPushCallConfiguration for clang: declared so that host code's launches are valid
     C++, which is what instantiates a kernel template launched from a host function template
     (parse.c, "kernels host code names"). */
  kbuf_printf(&b,
              "typedef struct CUstream_st *cudaStream_t;\n"
              "extern \"C\" __host__ unsigned __cudaPushCallConfiguration(dim3 __g, dim3 __b, "
              "size_t __shm = 0, cudaStream_t __s = 0);\n"
              "extern \"C\" __host__ int cudaConfigureCall(dim3 __g, dim3 __b, size_t __shm = 0, "
              "cudaStream_t __s = 0);\n");
  /* Scoped atomics, for the types CUDA has each for: _system is the device's own atomic at
     system scope (KExpr.sys_scope); _block runs at device scope, which includes the block. */
  static const char *const scopes[] = {"_system", "_block"};
  static const char *const ops[] = {"Add", "Sub", "Exch", "Min", "Max", "And", "Or", "Xor", "CAS"};
  static const char *const ints[] = {"int", "unsigned int", "long long", "unsigned long long"};
  for (int s = 0; s < 2; s++) {
    for (int o = 0; o < 9; o++)
      for (int t = 0; t < 4; t++)
        if (fe_cuda_has_atomic(ops[o], ints[t]))
          kbuf_printf(&b, "%s atomic%s%s(%s *, %s%s%s);\n", ints[t], ops[o], scopes[s], ints[t],
                      ints[t], o == 8 ? ", " : "", o == 8 ? ints[t] : "");
    kbuf_printf(&b,
                "float atomicAdd%s(float *, float);\nfloat atomicExch%s(float *, float);\n"
                "double atomicAdd%s(double *, double);\n"
                "unsigned int atomicInc%s(unsigned int *, unsigned int);\n"
                "unsigned int atomicDec%s(unsigned int *, unsigned int);\n",
                scopes[s], scopes[s], scopes[s], scopes[s], scopes[s]);
  }
  fe_cu_api_decls(&b);
  /* cuda_runtime.h, which nvcc includes first, brings the C and C++ math headers; after every
     overload above, which <cmath>'s using-declarations take into std:: (std::sqrt(float) is
     the float overload, as in C++). */
  kbuf_printf(&b, "#include <cmath>\n#include <cstdlib>\n");
  /* ...and <limits.h> (INT_MAX & co. need no #include under nvcc; FLT_MAX does). With
     libstdc++ in C++17 (nvcc's default), <cmath> also brings <type_traits>, <utility>
     (pair, move, forward, swap), <initializer_list>, <limits> and std::min/max of two values
     (bits/stl_algobase.h); not <algorithm>'s others, <array>, <cstdint>'s std:: names or
     <cfloat>. */
  kbuf_printf(&b, "#include <limits.h>\n#include <utility>\n#include <limits>\n"
                  "#include <__kcc_algobase>\n");
  kbuf_printf(&b, "#pragma clang force_cuda_host_device end\n");
  fe_cu_host_decls(&b);
  return b.data;
}

/* ---------------------------------------------------------------- headers */

/* Headers whose device-side content the prelude already gives: an empty file each, so that
 * `#include <cuda_runtime.h>` works as with nvcc. */
static const char *const empty_headers[] = {
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "device_atomic_functions.h",
    "sm_20_atomic_functions.h",
    "sm_30_intrinsics.h",
    "vector_types.h",
    "vector_functions.h",
    "builtin_types.h",
    "host_defines.h",
    "math_functions.h",
    "cuda_device_runtime_api.h",
};

/* stdlib.h's macros (its functions are the prelude's: abs, labs, llabs), and the <sys/types.h>
 * names glibc's stdlib.h brings along in C++ (g++ defines _GNU_SOURCE), which CUDA files on
 * Linux use without including anything: uint, ushort, ulong, ssize_t... */
static const char h_stdlib[] =
    "#ifndef __KCC_STDLIB_H\n#define __KCC_STDLIB_H\n"
    "#define EXIT_SUCCESS 0\n#define EXIT_FAILURE 1\n#define RAND_MAX 2147483647\n"
    "typedef unsigned char u_char;\ntypedef unsigned short u_short, ushort;\n"
    "typedef unsigned int u_int, uint;\ntypedef unsigned long u_long, ulong;\n"
    "typedef long ssize_t;\n#endif\n";

/* Cooperative groups as C-style kernels use them: thread_block (the block: barriers only),
 * thread_group (a dynamic partition; its size is a field the optimiser folds where known),
 * thread_block_tile<N> (a static partition of at most a warp) and coalesced_group (the active
 * threads of a warp). CUDA derives the groups from thread_group; kcc has no inheritance, so
 * each converts to thread_group instead. */
static const char h_coop[] =
    "#ifndef __KCC_COOPERATIVE_GROUPS_H\n#define __KCC_COOPERATIVE_GROUPS_H\n"
    "#pragma clang force_cuda_host_device begin\n"
    "namespace cooperative_groups {\n"
    "static __inline__ unsigned __kcc_block_rank() { return (threadIdx.z * blockDim.y + "
    "threadIdx.y) * blockDim.x + threadIdx.x; }\n"
    "static __inline__ unsigned __kcc_block_size() { return blockDim.x * blockDim.y * "
    "blockDim.z; }\n"
    "static __inline__ unsigned __kcc_lane() { return __kcc_block_rank() & 31u; }\n"
    /* A thread_group's sync() when it holds a tile: a partial-warp barrier whose mask is known
       at run time. kcc empties it when nothing in the file makes such a group (the calls
       annotated kcc.tile_group), so a whole-block thread_group has no warp operation that the
       OpenCL forms cannot write (fe_cu_tile_groups). */
    "static __inline__ __attribute__((annotate(\"kcc.group_tile_sync\"))) void "
    "__kcc_group_tile_sync(unsigned __m) { __syncwarp(__m); }\n"
    "class thread_group {\n"
    " public:\n"
    "  unsigned __kcc_size; /* 0: the whole block */\n"
    "  void sync() const { if (__kcc_size == 0) __syncthreads(); else "
    "__kcc_group_tile_sync(__kcc_mask()); }\n"
    "  unsigned thread_rank() const { return __kcc_size == 0 ? __kcc_block_rank() : "
    "__kcc_block_rank() % __kcc_size; }\n"
    "  unsigned size() const { return __kcc_size == 0 ? __kcc_block_size() : __kcc_size; }\n"
    "  unsigned num_threads() const { return size(); }\n"
    "  unsigned meta_group_rank() const { return __kcc_size == 0 ? 0 : __kcc_block_rank() / "
    "__kcc_size; }\n"
    "  unsigned meta_group_size() const { return __kcc_size == 0 ? 1 : (__kcc_block_size() + "
    "__kcc_size - 1) / __kcc_size; }\n"
    "  dim3 group_index() const { dim3 __r = {blockIdx.x, blockIdx.y, blockIdx.z}; return "
    "__r; }\n"
    "  dim3 thread_index() const { dim3 __r = {threadIdx.x, threadIdx.y, threadIdx.z}; return "
    "__r; }\n"
    "  dim3 group_dim() const { dim3 __r = {blockDim.x, blockDim.y, blockDim.z}; return __r; }\n"
    "  dim3 dim_threads() const { return group_dim(); }\n"
    "  unsigned __kcc_mask() const { return __kcc_size >= 32 ? 0xffffffffu : ((1u << __kcc_size) "
    "- 1u) << (__kcc_lane() & ~(__kcc_size - 1u)); }\n"
    "};\n"
    "class thread_block {\n"
    " public:\n"
    "  unsigned char __kcc_unused;\n"
    "  void sync() const { __syncthreads(); }\n"
    "  unsigned thread_rank() const { return __kcc_block_rank(); }\n"
    "  unsigned size() const { return __kcc_block_size(); }\n"
    "  unsigned num_threads() const { return __kcc_block_size(); }\n"
    "  dim3 group_index() const { dim3 __r = {blockIdx.x, blockIdx.y, blockIdx.z}; return "
    "__r; }\n"
    "  dim3 thread_index() const { dim3 __r = {threadIdx.x, threadIdx.y, threadIdx.z}; return "
    "__r; }\n"
    "  dim3 group_dim() const { dim3 __r = {blockDim.x, blockDim.y, blockDim.z}; return __r; }\n"
    "  dim3 dim_threads() const { return group_dim(); }\n"
    "  operator thread_group() const { thread_group __g = {0}; return __g; }\n"
    "};\n"
    "static __inline__ thread_block this_thread_block() { thread_block __b = {0}; return __b; "
    "}\n"
    "static __inline__ void sync(const thread_block &__g) { __g.sync(); }\n"
    "static __inline__ unsigned group_size(const thread_block &__g) { return __g.size(); }\n"
    "static __inline__ unsigned thread_rank(const thread_block &__g) { return "
    "__g.thread_rank(); }\n"
    "static __inline__ __attribute__((annotate(\"kcc.tile_group\"))) thread_group "
    "tiled_partition(const thread_group &__g, unsigned __n) { "
    "thread_group __t = {__n}; return __t; }\n"
    "static __inline__ void sync(const thread_group &__g) { __g.sync(); }\n"
    "static __inline__ unsigned group_size(const thread_group &__g) { return __g.size(); }\n"
    "static __inline__ unsigned thread_rank(const thread_group &__g) { return "
    "__g.thread_rank(); }\n"
    "template <unsigned _N> class thread_block_tile {\n"
    " public:\n"
    "  unsigned char __kcc_unused;\n"
    "  unsigned __kcc_mask() const { return _N >= 32 ? 0xffffffffu : ((1u << (_N & 31u)) - 1u) "
    "<< (__kcc_lane() & ~(_N - 1u)); }\n"
    "  __attribute__((annotate(\"kcc.tile_group\"))) operator thread_group() const { "
    "thread_group __g = {_N}; return __g; }\n"
    "  void sync() const { __syncwarp(__kcc_mask()); }\n"
    "  unsigned thread_rank() const { return __kcc_block_rank() & (_N - 1u); }\n"
    "  unsigned size() const { return _N; }\n"
    "  unsigned num_threads() const { return _N; }\n"
    "  unsigned meta_group_rank() const { return __kcc_block_rank() / _N; }\n"
    "  unsigned meta_group_size() const { return (__kcc_block_size() + _N - 1u) / _N; }\n"
    "  template <class T> T shfl(T __v, int __src) const { return __shfl_sync(__kcc_mask(), "
    "__v, __src, _N); }\n"
    "  template <class T> T shfl_down(T __v, unsigned __d) const { return "
    "__shfl_down_sync(__kcc_mask(), __v, __d, _N); }\n"
    "  template <class T> T shfl_up(T __v, unsigned __d) const { return "
    "__shfl_up_sync(__kcc_mask(), __v, __d, _N); }\n"
    "  template <class T> T shfl_xor(T __v, unsigned __m) const { return "
    "__shfl_xor_sync(__kcc_mask(), __v, __m, _N); }\n"
    "  int any(int __p) const { return __ballot_sync(__kcc_mask(), __p) != 0; }\n"
    "  int all(int __p) const { return __ballot_sync(__kcc_mask(), __p) == __kcc_mask(); }\n"
    "  unsigned ballot(int __p) const { return (__ballot_sync(__kcc_mask(), __p) & "
    "__kcc_mask()) >> (__kcc_lane() & ~(_N - 1u) & 31u); }\n"
    "  template <class T> unsigned match_any(T __v) const { return (__match_any_sync(__kcc_mask(), "
    "__v) & __kcc_mask()) >> (__kcc_lane() & ~(_N - 1u) & 31u); }\n"
    "};\n"
    "template <unsigned _N, class _G> static __inline__ thread_block_tile<_N> "
    "tiled_partition(const _G &__g) { thread_block_tile<_N> __t = {0}; return __t; }\n"
    "template <unsigned _N> static __inline__ void sync(const thread_block_tile<_N> &__g) { "
    "__g.sync(); }\n"
    "class coalesced_group {\n"
    " public:\n"
    "  unsigned __kcc_m;\n"
    "  void sync() const { __syncwarp(__kcc_m); }\n"
    "  unsigned size() const { return __popc(__kcc_m); }\n"
    "  unsigned num_threads() const { return __popc(__kcc_m); }\n"
    "  unsigned thread_rank() const { return __popc(__kcc_m & ((1u << __kcc_lane()) - 1u)); }\n"
    "  unsigned ballot(int __p) const { unsigned __b = __ballot_sync(__kcc_m, __p), __r = 0, "
    "__i = 0; for (unsigned __l = 0; __l < 32; __l++) if (__kcc_m >> __l & 1u) { __r |= (__b >> "
    "__l & 1u) << __i; __i++; } return __r; }\n"
    "  int any(int __p) const { return __ballot_sync(__kcc_m, __p) != 0; }\n"
    "  int all(int __p) const { return __ballot_sync(__kcc_m, __p) == __kcc_m; }\n"
    "  template <class T> T shfl(T __v, int __rank) const { unsigned __m = __kcc_m; for (int __k "
    "= 0; __k < __rank; __k++) __m &= __m - 1u; return __shfl_sync(__kcc_m, __v, __ffs(__m) - 1); "
    "}\n"
    "};\n"
    "static __inline__ coalesced_group coalesced_threads() { coalesced_group __g = "
    "{__activemask()}; return __g; }\n"
    "static __inline__ coalesced_group labeled_partition(const coalesced_group &__g, int __l) { "
    "coalesced_group __r = {__match_any_sync(__g.__kcc_m, __l)}; return __r; }\n"
    "static __inline__ coalesced_group labeled_partition(const thread_block_tile<32> &__g, int "
    "__l) { coalesced_group __r = {__match_any_sync(0xffffffffu, __l)}; return __r; }\n"
    "static __inline__ coalesced_group binary_partition(const coalesced_group &__g, bool __p) { "
    "return labeled_partition(__g, __p ? 1 : 0); }\n"
    "static __inline__ coalesced_group binary_partition(const thread_block_tile<32> &__g, bool "
    "__p) { return labeled_partition(__g, __p ? 1 : 0); }\n"
    "/* The grid as a group: ranks and sizes; its barrier needs a cooperative launch. */\n"
    "#define __KCC_NOGRID __attribute__((unavailable(\"a grid-wide barrier needs a cooperative "
    "launch, which kcc does not support: split the kernel in two launches\")))\n"
    "class grid_group {\n"
    " public:\n"
    "  unsigned char __kcc_unused;\n"
    "  void sync() const __KCC_NOGRID;\n"
    "  unsigned long long block_rank() const { return ((unsigned long long)blockIdx.z * gridDim.y "
    "+ blockIdx.y) * gridDim.x + blockIdx.x; }\n"
    "  unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * "
    "gridDim.z; }\n"
    "  unsigned long long thread_rank() const { return block_rank() * __kcc_block_size() + "
    "__kcc_block_rank(); }\n"
    "  unsigned long long size() const { return num_blocks() * __kcc_block_size(); }\n"
    "  unsigned long long num_threads() const { return size(); }\n"
    "  dim3 block_index() const { dim3 __r = {blockIdx.x, blockIdx.y, blockIdx.z}; return __r; }\n"
    "  dim3 dim_blocks() const { dim3 __r = {gridDim.x, gridDim.y, gridDim.z}; return __r; }\n"
    "  dim3 group_dim() const { return dim_blocks(); }\n"
    "};\n"
    "static __inline__ grid_group this_grid() { grid_group __g = {0}; return __g; }\n"
    "static __inline__ void sync(const grid_group &__g) __KCC_NOGRID;\n"
    "template <unsigned _N, unsigned _M = 1> struct __attribute__((unavailable(\"multi-warp "
    "tiles (block_tile_memory) are not supported by kcc\"))) block_tile_memory { unsigned "
    "__kcc_unused; };\n"
    "template <class T> struct plus { T operator()(T __a, T __b) const { return __a + __b; } };\n"
    "template <class T> struct less { T operator()(T __a, T __b) const { return __a < __b ? __a : "
    "__b; } };\n"
    "template <class T> struct greater { T operator()(T __a, T __b) const { return __a < __b ? "
    "__b : __a; } };\n"
    "template <class T> struct bit_and { T operator()(T __a, T __b) const { return __a & __b; } "
    "};\n"
    "template <class T> struct bit_or { T operator()(T __a, T __b) const { return __a | __b; } "
    "};\n"
    "template <class T> struct bit_xor { T operator()(T __a, T __b) const { return __a ^ __b; } "
    "};\n"
    "/* cg::reduce over a tile: a butterfly, so every thread gets the result. */\n"
    "template <unsigned _N, class T, class _F> static __inline__ T reduce(const "
    "thread_block_tile<_N> &__g, T __v, _F __op) { for (unsigned __i = _N / 2; __i > 0; __i /= "
    "2) __v = __op(__v, __g.shfl_xor(__v, __i)); return __v; }\n"
    "template <class T, class _F> static __inline__ T reduce(const coalesced_group &__g, T __v, "
    "_F __op) { T __r = __v; for (unsigned __i = 1; __i < __g.size(); __i++) { T __o = "
    "__g.shfl(__v, (int)((__g.thread_rank() + __i) % __g.size())); __r = __op(__r, __o); } "
    "return __r; }\n"
    "}\n"
    "#pragma clang force_cuda_host_device end\n"
    "#endif\n";

/* <assert.h>: CUDA's device assert prints this message (as CUDA does) when the condition
 * fails; the kernel goes on (kcc has no portable way to stop it yet). */
static const char h_assert[] =
    "#undef assert\n"
    "#ifdef NDEBUG\n#define assert(e) ((void)0)\n#else\n"
    "#define assert(e) ((e) ? (void)0 : (void)printf(\"%s:%d: %s: block [%u,%u,%u], thread "
    "[%u,%u,%u] Assertion `%s` failed.\\n\", __FILE__, __LINE__, __func__, blockIdx.x, "
    "blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, #e))\n"
    "#endif\n";

static FeVFile cu_vfiles[96];
static int ncu_vfiles;

const FeVFile *fe_cu_vfiles(int *n) {
  if (&fe_pregen) {
    *n = fe_pregen.n[2];
    return fe_pregen.files[2];
  }
  if (!ncu_vfiles) {
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_CU_PRELUDE, build_cu_prelude()};
    static char names[96][64]; /* static storage, as the texts */
    for (size_t i = 0; i < sizeof empty_headers / sizeof *empty_headers; i++) {
      snprintf(names[ncu_vfiles], sizeof names[0], FE_INCDIR "/%s", empty_headers[i]);
      cu_vfiles[ncu_vfiles] = (FeVFile){names[ncu_vfiles], ""};
      ncu_vfiles++;
    }
    int ncxx;
    const FeVFile *cxx = fe_cxx_vfiles(&ncxx);
    for (int i = 0; i < ncxx; i++) cu_vfiles[ncu_vfiles++] = cxx[i];
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/stdlib.h", h_stdlib};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/cooperative_groups.h", h_coop};
    cu_vfiles[ncu_vfiles++] =
        (FeVFile){FE_INCDIR "/cooperative_groups/reduce.h", "#include <cooperative_groups.h>\n"};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/assert.h", h_assert};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/cuda_fp16.h", fe_cuda_fp16_header()};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/cuda_bf16.h", fe_cuda_bf16_header()};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/cuda_fp8.h", fe_cuda_fp8_header()};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/cassert", "#include <assert.h>\n"};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/time.h", ""};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/math_constants.h", fe_cu_math_constants};
    cu_vfiles[ncu_vfiles++] = (FeVFile){FE_INCDIR "/ctime", ""};
  }
  *n = ncu_vfiles;
  return cu_vfiles;
}

/* ---------------------------------------------------------------- declarations */

static enum CXChildVisitResult device_attr_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  if (clang_getCursorKind(c) == CXCursor_CUDADeviceAttr) {
    *(bool *)d = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

bool fe_is_method(CXCursor fn) {
  enum CXCursorKind k = clang_getCursorKind(fn);
  return (k == CXCursor_CXXMethod || k == CXCursor_ConversionFunction ||
          k == CXCursor_Constructor) &&
         !clang_CXXMethod_isStatic(fn);
}

bool fe_cu_is_device(CXCursor fn) {
  bool dev = false;
  clang_visitChildren(fn, device_attr_visit, &dev);
  return dev;
}

bool fe_cu_is_device_var(CXCursor var) {
  return fe_cu_is_device(var) || fe_has_annotation(var, "kcc.shared") ||
         fe_has_annotation(var, "kcc.constant");
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

void fe_cu_reserve_kernel_names(FeCtx *fe, CXCursor scope) {
  FeKids k;
  fe_kids(scope, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor c = k.v[i];
    if (fe_in_vfile(fe, c)) continue;
    enum CXCursorKind ck = clang_getCursorKind(c);
    if (ck == CXCursor_Namespace || ck == CXCursor_LinkageSpec)
      fe_cu_reserve_kernel_names(fe, c);
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

const char *fe_cu_func_name(FeCtx *fe, CXCursor def, bool kernel) {
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
    if (fe_cu_is_lambda_class(cls)) {
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

KFunc *fe_cu_function(FeCtx *fe, CXCursor fn) {
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def)) return NULL;
  KFunc *f = fe_map_get(&fe->decls, clang_getCanonicalCursor(def));
  if (f) return f;
  if (fe_in_vfile(fe, def)) return fe_vfile_function(fe, def);
  if (fe_is_method(def) && fe_cu_is_lambda_class(clang_getCursorSemanticParent(def)))
    return fe_cu_lambda_method(fe, def);
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
    if (n == 0 && fe_cu_needs_default_init(clang_getCursorType(c)))
      return fe_cu_default_value(fe, clang_getCursorType(c), loc);
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
  if (t->kind == KT_ARRAY && n == 0) return fe_cu_default_value(fe, clang_getCursorType(c), loc);
  const char *why = fe_cu_record_problem(clang_getCursorSemanticParent(ctor));
  if (why) return fe_poison(loc); /* reported with the class */
  KFunc *f = fe_cu_function(fe, ctor);
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

bool fe_cu_written_init(CXCursor construct) {
  /* `T()` and `T{}` name their type (a TypeRef child); `T t;`'s implicit call has none. */
  FeKids k;
  fe_kids(construct, &k);
  bool yes = false;
  for (int i = 0; i < k.n && !yes; i++) yes = clang_getCursorKind(k.v[i]) == CXCursor_TypeRef;
  fe_kids_free(&k);
  return yes;
}

bool fe_cu_needs_default_init(CXType t) {
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_ConstantArray) return fe_cu_needs_default_init(clang_getArrayElementType(c));
  if (c.kind != CXType_Record) return false;
  if (!clang_Cursor_isNull(user_default_ctor(c))) return true;
  FeKids f;
  fe_fields(c, &f);
  bool yes = false;
  for (int i = 0; i < f.n && !yes; i++)
    yes = !clang_Cursor_isNull(default_member_init(f.v[i])) ||
          fe_cu_needs_default_init(clang_getCursorType(f.v[i]));
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
    KFunc *f = fe_cu_function(fe, dc);
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
    if (fe_cu_needs_default_init(t)) default_init_part(fe, root, p, t, out, loc);
    return;
  }
  KExpr *lhs = part_expr(fe, root, p, loc);
  /* A braced initializer of an array or struct member (`float x[4] = {0};`) is assigned
     element by element: KIR takes lists in declarations only. */
  push_stmt(out, fe_assign_list(lhs, fe_initializer(fe, init, lhs->type, false), loc), loc);
}

void fe_cu_aggregate_defaults(FeCtx *fe, CXType rec, KExpr *list, KLoc loc) {
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
    else if (fe_cu_needs_default_init(clang_getCursorType(f.v[i])))
      list->args[i] = fe_cu_default_value(fe, clang_getCursorType(f.v[i]), loc);
  }
  fe_kids_free(&f);
}

KExpr *fe_cu_default_value(FeCtx *fe, CXType t, KLoc loc) {
  KType *kt = fe_type(fe, t, loc);
  if (!kt) return fe_poison(loc);
  CXType c = clang_getCanonicalType(t);
  if (c.kind == CXType_ConstantArray) { /* each element's value: arrays are not assigned */
    KExpr *l = kir_expr(KE_INITLIST, kt, loc);
    l->args = kir_alloc(sizeof(KExpr *) * (size_t)(kt->len ? kt->len : 1));
    for (int64_t i = 0; i < kt->len; i++)
      l->args[l->nargs++] = fe_cu_default_value(fe, clang_getArrayElementType(c), loc);
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
void fe_cu_ctor_inits(FeCtx *fe, CXCursor ctor, KList *out) {
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

KExpr *fe_cu_call(FeCtx *fe, CXCursor c, KLoc loc) {
  CXCursor fn = clang_getCursorReferenced(c);
  enum CXCursorKind k = clang_getCursorKind(fn);
  if (k == CXCursor_Constructor) return construct(fe, c, fn, loc);
  if (k != CXCursor_CXXMethod && k != CXCursor_ConversionFunction) return NULL;
  /* A method of a class kcc refused (a lambda's call operator): reported with the class. */
  if (fe_cu_record_problem(clang_getCursorSemanticParent(fn))) return fe_poison(loc);
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
  KFunc *f = fe_cu_function(fe, fn);
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

/* ---------------------------------------------------------------- explicit instantiations
 *
 * libclang shows no cursor for an explicit instantiation (`template __global__ void
 * reduce<256>(int *);`), so kcc finds them in the text and appends a reference to each
 * (`static constexpr auto __kcc_inst0 = &reduce<256>;`) to the main file it gives clang:
 * the reference's cursor leads to the specialisation. */

static bool ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Skips a comment or a literal at p (returning past it), or returns p. */
static const char *skip_opaque(const char *p, const char *end) {
  if (p + 1 < end && p[0] == '/' && p[1] == '/') {
    while (p < end && *p != '\n') p++;
    return p;
  }
  if (p + 1 < end && p[0] == '/' && p[1] == '*') {
    for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++) {
    }
    return p + 2 <= end ? p + 2 : end;
  }
  if (*p == '"' || *p == '\'') {
    char q = *p++;
    while (p < end && *p != q && *p != '\n') p += *p == '\\' ? 2 : 1;
    return p < end ? p + 1 : end;
  }
  return p;
}

/* In the instantiation text [s, e): NAME<ARGS> before the parameter list, as "NAME<ARGS>". */
static bool instantiated_name(const char *s, const char *e, KBuf *out) {
  const char *paren = memchr(s, '(', (size_t)(e - s));
  if (!paren) return false;
  const char *gt = paren;
  while (gt > s && (gt[-1] == ' ' || gt[-1] == '\t' || gt[-1] == '\n')) gt--;
  if (gt == s || gt[-1] != '>') return false;
  int depth = 0;
  const char *lt = gt - 1;
  for (; lt >= s; lt--) {
    if (*lt == '>') depth++;
    if (*lt == '<' && --depth == 0) break;
  }
  if (lt < s) return false;
  const char *name = lt;
  while (name > s && (ident_char(name[-1]) || name[-1] == ':')) name--;
  if (name == lt) return false;
  kbuf_printf(out, "%.*s", (int)(gt - name), name);
  return true;
}

char *fe_cu_instantiations(const char *text, size_t len) {
  KBuf b = {0};
  const char *p = text, *end = text + len;
  int n = 0;
  while (p < end) {
    const char *q = skip_opaque(p, end);
    if (q != p) {
      p = q;
      continue;
    }
    if (!ident_char(*p)) {
      p++;
      continue;
    }
    const char *w = p;
    while (p < end && ident_char(*p)) p++;
    if (p - w != 8 || strncmp(w, "template", 8) || (w > text && ident_char(w[-1]))) continue;
    const char *a = p;
    while (a < end && (*a == ' ' || *a == '\t' || *a == '\n' || *a == '\r')) a++;
    if (a >= end || *a == '<') continue;
    const char *semi = memchr(a, ';', (size_t)(end - a));
    if (!semi) break;
    KBuf name = {0};
    if (instantiated_name(a, semi, &name)) {
      kbuf_printf(&b, "\nstatic constexpr auto __kcc_inst%d = &%s;", n++, name.data);
      free(name.data);
    }
    p = semi + 1;
  }
  return b.data;
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

const char *fe_cu_record_problem(CXCursor def) {
  if (fe_cu_is_lambda_class(def)) return NULL; /* lambda.c */
  const char *why = NULL;
  clang_visitChildren(def, record_visit, &why);
  return why;
}

/* ---------------------------------------------------------------- tile groups */

static void tile_sync_at(KExpr *e, void *ctx) {
  if (e->kind == KE_BUILTIN && e->builtin == BI_SYNCWARP) e->loc = *(KLoc *)ctx;
}

void fe_cu_note_call(FeCtx *fe, CXCursor fn, KFunc *f, KLoc loc) {
  if (!fe_in_vfile(fe, fn)) return;
  if (!fe->tile_groups && fe_has_annotation(fn, "kcc.tile_group")) {
    fe->tile_groups = true;
    fe->tile_group_at = loc;
  } else if (!fe->group_tile_sync && fe_has_annotation(fn, "kcc.group_tile_sync")) {
    fe->group_tile_sync = f;
  }
}

void fe_cu_tile_groups(FeCtx *fe) {
  KFunc *f = fe->group_tile_sync;
  if (!f || !f->body) return;
  if (!fe->tile_groups) {
    /* No thread_group holds a tile: its tile branch never runs. */
    f->body = kir_stmt(KS_BLOCK, f->loc);
    return;
  }
  /* A form that cannot write the partial-warp barrier says so where the file made the group,
     not inside kcc's header. */
  kir_visit_stmt(f->body, tile_sync_at, &fe->tile_group_at);
}
