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

#include "fe_cuda.h"

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
    /* memcpy and memset of device code: byte loops, right for any pointer, alignment and
       size. Pointers to a type aligned to 4 or more (a struct, float, int4...) are aligned to
       it, so where the size is a multiple of 4 as well (a constant size folds the test) the
       typed overloads, which C++ prefers to the void * ones, move words instead: a 16-byte
       struct copy is 4 loads and 4 stores rather than 16 of each. */
    "static __inline__ void *memcpy(void *__d, const void *__s, size_t __n) { unsigned char "
    "*__dc = (unsigned char *)__d; const unsigned char *__sc = (const unsigned char *)__s; for "
    "(size_t __i = 0; __i < __n; __i++) __dc[__i] = __sc[__i]; return __d; }\n"
    "static __inline__ void *memset(void *__d, int __c, size_t __n) { unsigned char *__dc = "
    "(unsigned char *)__d; for (size_t __i = 0; __i < __n; __i++) __dc[__i] = (unsigned "
    "char)__c; return __d; }\n"
    "template <class __T> struct __kcc_align { enum { v = alignof(__T) }; };\n"
    "template <> struct __kcc_align<void> { enum { v = 1 }; };\n"
    /* sizeof in a default template argument keeps incomplete types (a pointer to a struct
       only declared) out of the typed overloads: they take the void * ones, as with nvcc */
    "template <class __T, class __U, class = decltype(sizeof(__T)), class = "
    "decltype(sizeof(__U))> static __inline__ void *memcpy(__T *__d, const __U *__s, "
    "size_t __n) { if (__kcc_align<__T>::v >= 4 && __kcc_align<__U>::v >= 4 && __n % 4 == 0) { "
    "unsigned int *__dw = (unsigned int *)(void *)__d; const unsigned int *__sw = (const "
    "unsigned int *)(const void *)__s; for (size_t __i = 0; __i < __n / 4; __i++) __dw[__i] = "
    "__sw[__i]; return __d; } return memcpy((void *)__d, (const void *)__s, __n); }\n"
    "template <class __T, class = decltype(sizeof(__T))> static __inline__ void *memset(__T "
    "*__d, int __c, size_t __n) { if "
    "(__kcc_align<__T>::v >= 4 && __n % 4 == 0) { unsigned int *__dw = (unsigned int *)(void "
    "*)__d, __w = (unsigned int)(unsigned char)__c * 0x01010101u; for (size_t __i = 0; __i < "
    "__n / 4; __i++) __dw[__i] = __w; return __d; } return memset((void *)__d, __c, __n); }\n"
    /* CUDA 12's 128-bit atomicCAS and atomicExch (template <typename T> T atomicCAS(T *, T, T),
       T atomicExch(T *, T), T of 16 bytes, compute capability 9.x): declared for 16-byte types
       only, unavailable, so that a use gets one error that says why rather than no match */
    "template <bool __B, class __T> struct __kcc_if16 {};\n"
    "template <class __T> struct __kcc_if16<true, __T> { typedef __T type; };\n"
    "template <class __T> __attribute__((unavailable(\"a 128-bit atomic (CUDA 12, compute "
    "capability 9.x) is not supported: kcc's forms have atomics of up to 64 bits\"))) typename "
    "__kcc_if16<sizeof(__T) == 16, __T>::type atomicCAS(__T *__p, __T __c, __T __v);\n"
    "template <class __T> __attribute__((unavailable(\"a 128-bit atomic (CUDA 12, compute "
    "capability 9.x) is not supported: kcc's forms have atomics of up to 64 bits\"))) typename "
    "__kcc_if16<sizeof(__T) == 16, __T>::type atomicExch(__T *__p, __T __v);\n"
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

bool fe_cu_is_device(CXCursor fn) {
  bool dev = false;
  clang_visitChildren(fn, device_attr_visit, &dev);
  return dev;
}

bool fe_cu_is_device_var(CXCursor var) {
  return fe_cu_is_device(var) || fe_has_annotation(var, "kcc.shared") ||
         fe_has_annotation(var, "kcc.constant");
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

/* ---------------------------------------------------------------- the layer's hooks */

const FeLangOps fe_lang_cuda = {
    .param = fe_cu_texobj_param,
    .is_device_var = fe_cu_is_device_var,
    .note_call = fe_cu_note_call,
    .builtin_made = fe_cu_texobj_use,
    .asm_stmt = fe_cu_asm,
};
