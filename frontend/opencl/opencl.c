/* opencl.c — OpenCL C input (.cl, -x cl): the parse mode, the prelude, and the lowering of the
 * OpenCL built-ins that clang declares itself.
 *
 * libclang parses the file as OpenCL C for the spir64 target (every extension supported,
 * long and size_t 64-bit) with -fdeclare-opencl-builtins: Sema declares each OpenCL built-in
 * lazily, at its first use, so no 18,000-line opencl-c.h is parsed (docs/design.md has the
 * measurements). Such a declaration has no text of its own: its location is the call's and
 * its extent is the callee's name, which is how fe_cl_call tells it from a function the
 * user declared. kcc's own prelude (FE_CL_PRELUDE) supplies what opencl-c-base.h would:
 * types, macros, printf; and the spellings of __kernel and reqd_work_group_size that put an
 * annotation the front end can read beside clang's own attribute. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe_opencl.h"

/* ---------------------------------------------------------------- prelude */

static const char cl_prelude[] =
    "#define __KCC_PRELUDE__ 1\n"
    /* A macro may name itself: __kernel stays the keyword, with an annotation beside it. */
    "#define __kernel __kernel __attribute__((annotate(\"kcc.kernel\")))\n"
    "#define kernel __kernel\n"
    "#define reqd_work_group_size(...) reqd_work_group_size(__VA_ARGS__), "
    "annotate(\"kcc.reqd_work_group_size\", __VA_ARGS__)\n"
    "#define __reqd_work_group_size__(...) __reqd_work_group_size__(__VA_ARGS__), "
    "annotate(\"kcc.reqd_work_group_size\", __VA_ARGS__)\n"
    "#define intel_reqd_sub_group_size(...) intel_reqd_sub_group_size(__VA_ARGS__), "
    "annotate(\"kcc.reqd_sub_group_size\", __VA_ARGS__)\n"
    /* Subgroups: kcc implements cl_khr_subgroups (a core feature of OpenCL C 3.0) and the
       extended subgroup extensions (docs/dialect.md). Clang's built-in table declares their
       functions where these macros are defined (__opencl_subgroup_builtins: the core ones). */
    "#define cl_khr_subgroups 1\n#define __opencl_subgroup_builtins 1\n"
    "#define cl_khr_subgroup_extended_types 1\n#define cl_khr_subgroup_non_uniform_vote 1\n"
    "#define cl_khr_subgroup_ballot 1\n#define cl_khr_subgroup_non_uniform_arithmetic 1\n"
    "#define cl_khr_subgroup_shuffle 1\n#define cl_khr_subgroup_shuffle_relative 1\n"
    "#define cl_khr_subgroup_clustered_reduce 1\n#define cl_khr_subgroup_rotate 1\n"
    "#if __OPENCL_C_VERSION__ == 300\n#define __opencl_c_subgroups 1\n#endif\n"
    /* intel_reqd_sub_group_size(N): kept by the OpenCL forms for the device, N-lane segments
       of a warp in PTX and CUDA C for N <= 32 (docs/design.md, "Required subgroup sizes"). */
    "#define cl_intel_required_subgroup_size 1\n"
    /* cl_khr_integer_dot_product (cl_lib.c), which requires OpenCL 1.0 only: every version,
       with both of its OpenCL C feature macros (4 x 8-bit vectors, and packed in a uint). */
    "#define cl_khr_integer_dot_product 1\n"
    "#define __opencl_c_integer_dot_product_input_4x8bit 1\n"
    "#define __opencl_c_integer_dot_product_input_4x8bit_packed 1\n"
    /* cl_khr_extended_bit_ops (cl_lib.c): every version. */
    "#define cl_khr_extended_bit_ops 1\n"
    /* Extensions clang's spir64 target claims that kcc does not implement: a kernel testing
       for them would take a path kcc then refuses (Intel's subgroup functions, its AVC motion
       estimation, AMD's media operations). */
    "#undef cl_intel_subgroups\n#undef cl_intel_subgroups_short\n"
    "#undef cl_intel_device_side_avc_motion_estimation\n"
    "#undef cl_amd_media_ops\n#undef cl_amd_media_ops2\n"
    /* Images (image.c): every form carries them (PTX and CUDA C sample in software,
       docs/design.md), so a kernel that tests __IMAGE_SUPPORT__ takes its image path. Defined
       here as clang's spir64 target defines it, whatever the target. */
    "#undef __IMAGE_SUPPORT__\n#define __IMAGE_SUPPORT__ 1\n"
    /* The OpenCL C specification's macros for a kernel with its hints ("Preprocessor
       Directives and Macros"); clang does not define them. */
    "#define __kernel_exec(X, typen) __kernel __attribute__((work_group_size_hint(X, 1, 1))) "
    "__attribute__((vec_type_hint(typen)))\n"
    "#define kernel_exec(X, typen) __kernel_exec(X, typen)\n"
    /* The feature macros clang's opencl-c-base.h defines: its built-in table declares the
     * overloads each one guards (named address spaces in 1.2, generic ones in 2.0). */
    "#if __OPENCL_C_VERSION__ == 200\n"
    "#define __opencl_c_pipes 1\n#define __opencl_c_generic_address_space 1\n"
    "#define __opencl_c_work_group_collective_functions 1\n"
    "#define __opencl_c_atomic_order_acq_rel 1\n#define __opencl_c_atomic_order_seq_cst 1\n"
    "#define __opencl_c_atomic_scope_device 1\n#define __opencl_c_atomic_scope_all_devices 1\n"
    "#define __opencl_c_device_enqueue 1\n#define __opencl_c_read_write_images 1\n"
    "#define __opencl_c_program_scope_global_variables 1\n#define __opencl_c_images 1\n"
    "#endif\n"
    "#if __OPENCL_C_VERSION__ == 300\n"
    "#define __opencl_c_work_group_collective_functions 1\n"
    "#define __opencl_c_atomic_order_seq_cst 1\n#define __opencl_c_atomic_scope_device 1\n"
    "#define __opencl_c_atomic_scope_all_devices 1\n#define __opencl_c_read_write_images 1\n"
    "#endif\n"
    "#if !defined(__opencl_c_generic_address_space)\n"
    "#define __opencl_c_named_address_space_builtins 1\n#endif\n"
    "typedef unsigned char uchar;\ntypedef unsigned short ushort;\n"
    "typedef unsigned int uint;\ntypedef unsigned long ulong;\n"
    "typedef __SIZE_TYPE__ size_t;\ntypedef __PTRDIFF_TYPE__ ptrdiff_t;\n"
    "typedef __INTPTR_TYPE__ intptr_t;\ntypedef __UINTPTR_TYPE__ uintptr_t;\n"
    "#define __KCC_VEC(T) typedef T T##2 __attribute__((ext_vector_type(2))); "
    "typedef T T##3 __attribute__((ext_vector_type(3))); "
    "typedef T T##4 __attribute__((ext_vector_type(4))); "
    "typedef T T##8 __attribute__((ext_vector_type(8))); "
    "typedef T T##16 __attribute__((ext_vector_type(16)));\n"
    "__KCC_VEC(char) __KCC_VEC(uchar) __KCC_VEC(short) __KCC_VEC(ushort) __KCC_VEC(int)\n"
    "__KCC_VEC(uint) __KCC_VEC(long) __KCC_VEC(ulong) __KCC_VEC(float) __KCC_VEC(double)\n"
    /* half is a value type (cl_khr_fp16, which spir64 claims); enabled here as clang's own
       opencl-c.h does, so a kernel may use it with or without its own pragma. */
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "__KCC_VEC(half)\n"
    "#undef __KCC_VEC\n"
    "typedef uint cl_mem_fence_flags;\n"
    "#define CLK_LOCAL_MEM_FENCE 0x01\n#define CLK_GLOBAL_MEM_FENCE 0x02\n"
    "#define CLK_IMAGE_MEM_FENCE 0x04\n"
    /* Sampler flags (kcc folds constant samplers to them: image.c). */
    "#define CLK_ADDRESS_NONE 0\n#define CLK_ADDRESS_CLAMP_TO_EDGE 2\n#define CLK_ADDRESS_CLAMP 4\n"
    "#define CLK_ADDRESS_REPEAT 6\n#define CLK_ADDRESS_MIRRORED_REPEAT 8\n"
    "#define CLK_NORMALIZED_COORDS_FALSE 0\n#define CLK_NORMALIZED_COORDS_TRUE 1\n"
    "#define CLK_FILTER_NEAREST 0x10\n#define CLK_FILTER_LINEAR 0x20\n"
    /* What get_image_channel_data_type and get_image_channel_order return (the host API's
       CL_ values): OpenCL C 1.2's, and those 2.0 and 3.0 add. */
    "#define CLK_SNORM_INT8 0x10D0\n#define CLK_SNORM_INT16 0x10D1\n#define CLK_UNORM_INT8 0x10D2\n"
    "#define CLK_UNORM_INT16 0x10D3\n#define CLK_UNORM_SHORT_565 0x10D4\n"
    "#define CLK_UNORM_SHORT_555 0x10D5\n#define CLK_UNORM_INT_101010 0x10D6\n"
    "#define CLK_SIGNED_INT8 0x10D7\n#define CLK_SIGNED_INT16 0x10D8\n"
    "#define CLK_SIGNED_INT32 0x10D9\n#define CLK_UNSIGNED_INT8 0x10DA\n"
    "#define CLK_UNSIGNED_INT16 0x10DB\n#define CLK_UNSIGNED_INT32 0x10DC\n"
    "#define CLK_HALF_FLOAT 0x10DD\n#define CLK_FLOAT 0x10DE\n#define CLK_UNORM_INT24 0x10DF\n"
    "#define CLK_R 0x10B0\n#define CLK_A 0x10B1\n#define CLK_RG 0x10B2\n#define CLK_RA 0x10B3\n"
    "#define CLK_RGB 0x10B4\n#define CLK_RGBA 0x10B5\n#define CLK_BGRA 0x10B6\n"
    "#define CLK_ARGB 0x10B7\n#define CLK_INTENSITY 0x10B8\n#define CLK_LUMINANCE 0x10B9\n"
    "#define CLK_Rx 0x10BA\n#define CLK_RGx 0x10BB\n#define CLK_RGBx 0x10BC\n"
    "#define CLK_DEPTH 0x10BD\n#define CLK_DEPTH_STENCIL 0x10BE\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    "#define CLK_sRGB 0x10BF\n#define CLK_sRGBx 0x10C0\n#define CLK_sRGBA 0x10C1\n"
    "#define CLK_sBGRA 0x10C2\n#define CLK_ABGR 0x10C3\n"
    "#endif\n"
    "#if __OPENCL_C_VERSION__ >= 300\n#define CLK_UNORM_INT_101010_2 0x10E0\n#endif\n"
    "#if __OPENCL_C_VERSION__ >= 200\n"
    /* Named so that clang can declare the OpenCL 2.0 atomics kcc then refuses by name. */
    "typedef enum memory_scope { memory_scope_work_item = __OPENCL_MEMORY_SCOPE_WORK_ITEM,"
    " memory_scope_work_group = __OPENCL_MEMORY_SCOPE_WORK_GROUP,"
    " memory_scope_device = __OPENCL_MEMORY_SCOPE_DEVICE,"
    " memory_scope_all_svm_devices = __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES,"
    " memory_scope_sub_group = __OPENCL_MEMORY_SCOPE_SUB_GROUP } memory_scope;\n"
    "typedef enum memory_order { memory_order_relaxed = __ATOMIC_RELAXED,"
    " memory_order_acquire = __ATOMIC_ACQUIRE, memory_order_release = __ATOMIC_RELEASE,"
    " memory_order_acq_rel = __ATOMIC_ACQ_REL, memory_order_seq_cst = __ATOMIC_SEQ_CST }"
    " memory_order;\n"
    "#define ATOMIC_VAR_INIT(x) (x)\n#define ATOMIC_FLAG_INIT 0\n"
    "#endif\n"
    "#define NULL ((void *)0)\n"
    "#define MAXFLOAT 0x1.fffffep127f\n#define HUGE_VALF (__builtin_huge_valf())\n"
    "#define HUGE_VAL (__builtin_huge_val())\n#define INFINITY (__builtin_inff())\n"
    "#define NAN (__builtin_nanf(\"\"))\n"
    "#define FP_ILOGB0 INT_MIN\n#define FP_ILOGBNAN INT_MAX\n"
    "#define FLT_DIG 6\n#define FLT_MANT_DIG 24\n#define FLT_MAX_10_EXP +38\n"
    "#define FLT_MAX_EXP +128\n#define FLT_MIN_10_EXP -37\n#define FLT_MIN_EXP -125\n"
    "#define FLT_RADIX 2\n#define FLT_MAX 0x1.fffffep127f\n#define FLT_MIN 0x1.0p-126f\n"
    "#define FLT_EPSILON 0x1.0p-23f\n"
    "#define DBL_DIG 15\n#define DBL_MANT_DIG 53\n#define DBL_MAX_10_EXP +308\n"
    "#define DBL_MAX_EXP +1024\n#define DBL_MIN_10_EXP -307\n#define DBL_MIN_EXP -1021\n"
    "#define DBL_RADIX 2\n#define DBL_MAX 0x1.fffffffffffffp1023\n#define DBL_MIN 0x1.0p-1022\n"
    "#define DBL_EPSILON 0x1.0p-52\n"
    "#define HALF_DIG 3\n#define HALF_MANT_DIG 11\n#define HALF_MAX_10_EXP +4\n"
    "#define HALF_MAX_EXP +16\n#define HALF_MIN_10_EXP -4\n#define HALF_MIN_EXP -13\n"
    "#define HALF_RADIX 2\n#define HALF_MAX ((half)0x1.ffcp15f)\n"
    "#define HALF_MIN ((half)0x1.0p-14f)\n#define HALF_EPSILON ((half)0x1.0p-10f)\n"
    "#define M_E_H ((half)M_E)\n#define M_LOG2E_H ((half)M_LOG2E)\n"
    "#define M_LOG10E_H ((half)M_LOG10E)\n#define M_LN2_H ((half)M_LN2)\n"
    "#define M_LN10_H ((half)M_LN10)\n#define M_PI_H ((half)M_PI)\n"
    "#define M_PI_2_H ((half)M_PI_2)\n#define M_PI_4_H ((half)M_PI_4)\n"
    "#define M_1_PI_H ((half)M_1_PI)\n#define M_2_PI_H ((half)M_2_PI)\n"
    "#define M_2_SQRTPI_H ((half)M_2_SQRTPI)\n#define M_SQRT2_H ((half)M_SQRT2)\n"
    "#define M_SQRT1_2_H ((half)M_SQRT1_2)\n"
    "#define M_E_F 2.71828182845904523536028747135266250f\n"
    "#define M_LOG2E_F 1.44269504088896340735992468100189214f\n"
    "#define M_LOG10E_F 0.434294481903251827651128918916605082f\n"
    "#define M_LN2_F 0.693147180559945309417232121458176568f\n"
    "#define M_LN10_F 2.30258509299404568401799145468436421f\n"
    "#define M_PI_F 3.14159265358979323846264338327950288f\n"
    "#define M_PI_2_F 1.57079632679489661923132169163975144f\n"
    "#define M_PI_4_F 0.785398163397448309615660845819875721f\n"
    "#define M_1_PI_F 0.318309886183790671537767526745028724f\n"
    "#define M_2_PI_F 0.636619772367581343075535053490057448f\n"
    "#define M_2_SQRTPI_F 1.12837916709551257389615890312154517f\n"
    "#define M_SQRT2_F 1.41421356237309504880168872420969808f\n"
    "#define M_SQRT1_2_F 0.707106781186547524400844362104849039f\n"
    "#define M_E 0x1.5bf0a8b145769p+1\n#define M_LOG2E 0x1.71547652b82fep+0\n"
    "#define M_LOG10E 0x1.bcb7b1526e50ep-2\n#define M_LN2 0x1.62e42fefa39efp-1\n"
    "#define M_LN10 0x1.26bb1bbb55516p+1\n#define M_PI 0x1.921fb54442d18p+1\n"
    "#define M_PI_2 0x1.921fb54442d18p+0\n#define M_PI_4 0x1.921fb54442d18p-1\n"
    "#define M_1_PI 0x1.45f306dc9c883p-2\n#define M_2_PI 0x1.45f306dc9c883p-1\n"
    "#define M_2_SQRTPI 0x1.20dd750429b6dp+0\n#define M_SQRT2 0x1.6a09e667f3bcdp+0\n"
    "#define M_SQRT1_2 0x1.6a09e667f3bcdp-1\n"
    "#define CHAR_BIT 8\n#define SCHAR_MAX 127\n#define SCHAR_MIN (-128)\n#define UCHAR_MAX 255\n"
    "#define CHAR_MAX SCHAR_MAX\n#define CHAR_MIN SCHAR_MIN\n#define USHRT_MAX 65535\n"
    "#define SHRT_MAX 32767\n#define SHRT_MIN (-32768)\n#define UINT_MAX 0xffffffff\n"
    "#define INT_MAX 2147483647\n#define INT_MIN (-2147483647-1)\n"
    "#define ULONG_MAX 0xffffffffffffffffUL\n#define LONG_MAX 0x7fffffffffffffffL\n"
    "#define LONG_MIN (-0x7fffffffffffffffL-1)\n"
    "int printf(__constant const char *__fmt, ...) __attribute__((format(printf, 1, 2)));\n"
    /* as_T(x): the bits of x as T, sizes checked by clang. */
    "#define __KCC_AS(x, T) __builtin_astype((x), T)\n"
    "#define as_char(__x) __KCC_AS(__x, char)\n#define as_uchar(__x) __KCC_AS(__x, uchar)\n"
    "#define as_short(__x) __KCC_AS(__x, short)\n#define as_ushort(__x) __KCC_AS(__x, ushort)\n"
    "#define as_int(__x) __KCC_AS(__x, int)\n#define as_uint(__x) __KCC_AS(__x, uint)\n"
    "#define as_long(__x) __KCC_AS(__x, long)\n#define as_ulong(__x) __KCC_AS(__x, ulong)\n"
    "#define as_float(__x) __KCC_AS(__x, float)\n#define as_double(__x) __KCC_AS(__x, double)\n"
    "#define as_half(__x) __KCC_AS(__x, half)\n";

/* cl_khr_subgroup_ballot's functions on a uint4 ballot, in OpenCL C over the subgroup queries,
 * so that every form computes them alike (lowered only when called, like kcc_derived.h's):
 * bit i of the 128 stands for lane i, and only the bits of the subgroup's lanes count. */
static const char cl_ballot[] =
    "#define __KCC_SG static inline __attribute__((overloadable))\n"
    /* Bits [lo, hi) of the 128, those of the 32 that start at bit `at`. */
    "__KCC_SG uint __kcc_sg_bits(uint lo, uint hi, uint at) {\n"
    "  uint a = lo <= at ? 0u : lo - at < 32u ? lo - at : 32u;\n"
    "  uint b = hi <= at ? 0u : hi - at < 32u ? hi - at : 32u;\n"
    "  return (b >= 32u ? 0xffffffffu : (1u << b) - 1u) & ~(a >= 32u ? 0xffffffffu : (1u << a) - "
    "1u);\n}\n"
    "__KCC_SG uint4 __kcc_sg_range(uint lo, uint hi) {\n"
    "  return (uint4)(__kcc_sg_bits(lo, hi, 0u), __kcc_sg_bits(lo, hi, 32u), "
    "__kcc_sg_bits(lo, hi, 64u), __kcc_sg_bits(lo, hi, 96u));\n}\n"
    "__KCC_SG uint4 get_sub_group_eq_mask(void) {\n"
    "  uint l = get_sub_group_local_id();\n  return __kcc_sg_range(l, l + 1u);\n}\n"
    "__KCC_SG uint4 get_sub_group_ge_mask(void) {\n"
    "  return __kcc_sg_range(get_sub_group_local_id(), get_sub_group_size());\n}\n"
    "__KCC_SG uint4 get_sub_group_gt_mask(void) {\n"
    "  return __kcc_sg_range(get_sub_group_local_id() + 1u, get_sub_group_size());\n}\n"
    "__KCC_SG uint4 get_sub_group_le_mask(void) {\n"
    "  return __kcc_sg_range(0u, get_sub_group_local_id() + 1u);\n}\n"
    "__KCC_SG uint4 get_sub_group_lt_mask(void) {\n"
    "  return __kcc_sg_range(0u, get_sub_group_local_id());\n}\n"
    "__KCC_SG int sub_group_ballot_bit_extract(uint4 v, uint i) {\n"
    "  uint w = i < 32u ? v.x : i < 64u ? v.y : i < 96u ? v.z : v.w;\n"
    "  return (int)((w >> (i & 31u)) & 1u);\n}\n"
    "__KCC_SG int sub_group_inverse_ballot(uint4 v) {\n"
    "  return sub_group_ballot_bit_extract(v, get_sub_group_local_id());\n}\n"
    "__KCC_SG uint __kcc_sg_count(uint4 v, uint4 m) {\n"
    "  v &= m;\n  return popcount(v.x) + popcount(v.y) + popcount(v.z) + popcount(v.w);\n}\n"
    "__KCC_SG uint sub_group_ballot_bit_count(uint4 v) {\n"
    "  return __kcc_sg_count(v, __kcc_sg_range(0u, get_sub_group_size()));\n}\n"
    "__KCC_SG uint sub_group_ballot_inclusive_scan(uint4 v) {\n"
    "  return __kcc_sg_count(v, get_sub_group_le_mask());\n}\n"
    "__KCC_SG uint sub_group_ballot_exclusive_scan(uint4 v) {\n"
    "  return __kcc_sg_count(v, get_sub_group_lt_mask());\n}\n"
    /* No bit set: undefined in OpenCL; kcc gives 128 for lsb and -1u for msb. */
    "__KCC_SG uint sub_group_ballot_find_lsb(uint4 v) {\n"
    "  v &= __kcc_sg_range(0u, get_sub_group_size());\n"
    "  return v.x ? 31u - clz(v.x & -v.x) : v.y ? 63u - clz(v.y & -v.y)\n"
    "       : v.z ? 95u - clz(v.z & -v.z) : v.w ? 127u - clz(v.w & -v.w) : 128u;\n}\n"
    "__KCC_SG uint sub_group_ballot_find_msb(uint4 v) {\n"
    "  v &= __kcc_sg_range(0u, get_sub_group_size());\n"
    "  return v.w ? 127u - clz(v.w) : v.z ? 95u - clz(v.z) : v.y ? 63u - clz(v.y)\n"
    "       : v.x ? 31u - clz(v.x) : 0xffffffffu;\n}\n"
    "#undef __KCC_SG\n";

/* as_T2 ... as_T16: written out, as a macro cannot define macros. */
static char *build_cl_prelude(void) {
  static const char *const types[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                      "long", "ulong", "float", "double", "half"};
  static const int lens[] = {2, 3, 4, 8, 16};
  KBuf b = {0};
  kbuf_printf(&b, "%s", cl_prelude);
  for (size_t t = 0; t < sizeof types / sizeof *types; t++)
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++)
      kbuf_printf(&b, "#define as_%s%d(__x) __KCC_AS(__x, %s%d)\n", types[t], lens[l], types[t],
                  lens[l]);
  /* The derived builtins (dot, clamp, mix, rotate...), the same bodies the .k dialect uses;
     clang's own declarations of those names are then never made (every overload OpenCL
     defines for them is in the header). */
  kbuf_printf(&b, "#include \"" FE_INCDIR "/kcc_derived.h\"\n");
  kbuf_printf(&b, "%s", cl_ballot);
  /* The image functions in software, for the PTX and CUDA C forms (image_lib.c). */
  fe_cl_image_lib(&b);
  /* sinpi, ldexp, frexp, fast_length... (mathlib.c), likewise every overload. */
  fe_mathlib_cl(&b);
  /* abs_diff, add_sat, the relational functions, the async copies (cl_lib.c). */
  char *lib = fe_cl_lib();
  kbuf_puts(&b, lib);
  free(lib);
  return b.data;
}

const FeVFile *fe_cl_vfile(void) {
  if (&fe_pregen) return fe_pregen.files[1];
  static FeVFile vf;
  if (!vf.text) vf = (FeVFile){FE_CL_PRELUDE, build_cl_prelude()};
  return &vf;
}

const char *const *fe_cl_args(int cl_std) {
  static const char *args[] = {
      "-x",
      "cl",
      NULL, /* -cl-std= */
      /* spir64: every OpenCL extension (fp64, int64 atomics) and 64-bit size_t. */
      "--target=spir64",
      "-nostdinc",
      "-cl-no-stdinc",
      "-Xclang",
      "-fdeclare-opencl-builtins",
      "-ferror-limit=20",
      "-Wno-format-security",
      /* kcc's `#define __kernel __kernel __attribute__(...)` is meant to stop there. */
      "-Wno-disabled-macro-expansion",
      /* Incompatible pointer types and discarded qualifiers stay warnings, as in every OpenCL
         compiler built on clang (PoCL's, NVIDIA's...): real kernels rely on it. */
      "-D__KCC__=1",
      "-include",
      FE_CL_PRELUDE,
      NULL,
  };
  args[2] = cl_std >= 300 ? "-cl-std=CL3.0" : cl_std >= 200 ? "-cl-std=CL2.0" : "-cl-std=CL1.2";
  return args;
}

/* ---------------------------------------------------------------- address spaces, types */

/* What kcc calls a type OpenCL C has and kcc does not take; NULL for the others. */
static const char *refused_type(CXType t) {
  CXType c = clang_getCanonicalType(t);
  for (int guard = 0; guard < 32; guard++) {
    if (c.kind == CXType_Pointer)
      c = clang_getCanonicalType(clang_getPointeeType(c));
    else if (c.kind == CXType_ConstantArray || c.kind == CXType_IncompleteArray)
      c = clang_getCanonicalType(clang_getArrayElementType(c));
    else
      break;
  }
  /* Images and samplers are types of their own (image.c); fe_cl_opaque_type names the images
     it does not take (depth, multisample). */
  switch (c.kind) {
  case CXType_OCLQueue: return "device-side enqueue (queue_t)";
  case CXType_OCLReserveID: return "OpenCL pipes";
  case CXType_Pipe: return "OpenCL pipes";
  case CXType_Atomic: return "OpenCL 2.0 atomic types";
  default: break;
  }
  if (c.kind == CXType_Unexposed || c.kind == CXType_Invalid) {
    CXString s = clang_getTypeSpelling(c);
    const char *n = clang_getCString(s);
    const char *r = NULL;
    if (n && (strstr(n, "clk_event_t") || strstr(n, "ndrange_t")))
      r = "device-side enqueue";
    else if (n && strstr(n, "pipe"))
      r = "OpenCL pipes";
    clang_disposeString(s);
    return r;
  }
  return NULL;
}

bool fe_cl_check_type(FeCtx *fe, CXType t, KLoc loc) {
  const char *what = refused_type(t);
  if (!what) return true;
  (void)fe;
  CXString s = clang_getTypeSpelling(t);
  diag_error(loc, "%s are not supported by kcc (type '%s')", what, clang_getCString(s));
  clang_disposeString(s);
  return false;
}

/* ---------------------------------------------------------------- kernel attributes */

/* intel_reqd_sub_group_size(N): the subgroup width the kernel was written for, which the
 * back ends compare with their own (limits.c; OpenCL C passes it on). */
static void reqd_sub_group_size(FeCtx *fe, CXCursor def, KFunc *f) {
  CXCursor at = fe_find_annotation(def, "kcc.reqd_sub_group_size");
  if (clang_Cursor_isNull(at)) return;
  KLoc loc = fe_loc(fe, at);
  if (!f->is_kernel) {
    diag_error(loc, "intel_reqd_sub_group_size applies to kernels only, not to function '%s'",
               f->name);
    return;
  }
  FeKids k;
  fe_kids(at, &k);
  int64_t v = 0;
  bool ok = k.n == 1;
  if (ok) {
    CXEvalResult r = clang_Cursor_Evaluate(k.v[0]);
    ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) v = clang_EvalResult_getAsLongLong(r);
    if (r) clang_EvalResult_dispose(r);
  }
  fe_kids_free(&k);
  if (!ok || v < 1 || v > 128 || (v & (v - 1))) {
    diag_error(loc,
               "intel_reqd_sub_group_size(%lld): the size must be a power of two from 1 to 128",
               (long long)v);
    return;
  }
  f->reqd_subgroup = (int)v;
}

void fe_cl_kernel_attrs(FeCtx *fe, CXCursor def, KFunc *f) {
  reqd_sub_group_size(fe, def, f);
  CXCursor at = fe_find_annotation(def, "kcc.reqd_work_group_size");
  if (clang_Cursor_isNull(at)) return;
  KLoc loc = fe_loc(fe, at);
  if (!f->is_kernel) {
    diag_error(loc, "reqd_work_group_size applies to kernels only, not to function '%s'", f->name);
    return;
  }
  FeKids k;
  fe_kids(at, &k);
  int64_t v[3] = {0, 0, 0};
  bool ok = k.n == 3;
  for (int i = 0; ok && i < k.n; i++) {
    CXEvalResult r = clang_Cursor_Evaluate(k.v[i]);
    ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) v[i] = clang_EvalResult_getAsLongLong(r);
    if (r) clang_EvalResult_dispose(r);
  }
  fe_kids_free(&k);
  /* clang has checked the count and that each is a positive integer constant. */
  if (!ok || v[0] < 1 || v[1] < 1 || v[2] < 1 || v[0] * v[1] * v[2] > 1024) {
    diag_error(loc,
               "reqd_work_group_size(%lld, %lld, %lld): each size must be at least 1 and the "
               "product at most 1024",
               (long long)v[0], (long long)v[1], (long long)v[2]);
    return;
  }
  for (int i = 0; i < 3; i++) f->reqd_block[i] = (int)v[i];
}

/* ---------------------------------------------------------------- built-in calls */

static KType *t_u32(void) {
  return kir_type_scalar(KT_U32);
}

static KExpr *builtin(KBuiltin b, KType *t, KLoc loc, int n, KExpr **args) {
  KExpr *e = kir_builtin(b, t, n, loc);
  for (int i = 0; i < n; i++) e->args[e->nargs++] = args[i];
  return e;
}

static KExpr *special(KBuiltin b, int dim, KLoc loc) {
  KExpr *e = kir_expr(KE_SPECIAL, t_u32(), loc);
  e->builtin = b;
  e->dim = dim;
  return e;
}

/* The work-item functions, by what they compute from CUDA's registers. */
typedef enum WorkItem {
  WI_GLOBAL_ID,
  WI_LOCAL_ID,
  WI_GROUP_ID,
  WI_GLOBAL_SIZE,
  WI_LOCAL_SIZE,
  WI_NUM_GROUPS,
  WI_GLOBAL_OFFSET,
  WI_COUNT_
} WorkItem;

static const char *const wi_names[WI_COUNT_] = {
    "get_global_id",  "get_local_id",   "get_group_id",      "get_global_size",
    "get_local_size", "get_num_groups", "get_global_offset",
};

/* The value for a dimension 0..2, as t (size_t). */
static KExpr *wi_value(WorkItem w, int dim, KType *t, KLoc loc) {
  KExpr *r;
  switch (w) {
  case WI_GLOBAL_ID:
    r = kir_binary(KB_ADD, t,
                   kir_binary(KB_MUL, t, kir_cast(special(BI_BLOCK_IDX, dim, loc), t),
                              kir_cast(special(BI_BLOCK_DIM, dim, loc), t), loc),
                   kir_cast(special(BI_THREAD_IDX, dim, loc), t), loc);
    return r;
  case WI_LOCAL_ID: return kir_cast(special(BI_THREAD_IDX, dim, loc), t);
  case WI_GROUP_ID: return kir_cast(special(BI_BLOCK_IDX, dim, loc), t);
  case WI_LOCAL_SIZE: return kir_cast(special(BI_BLOCK_DIM, dim, loc), t);
  case WI_NUM_GROUPS: return kir_cast(special(BI_GRID_DIM, dim, loc), t);
  case WI_GLOBAL_SIZE:
    return kir_binary(KB_MUL, t, kir_cast(special(BI_GRID_DIM, dim, loc), t),
                      kir_cast(special(BI_BLOCK_DIM, dim, loc), t), loc);
  default: return fe_int_const(t, 0, loc);
  }
}

/* OpenCL's value for a dimension past get_work_dim(): 1 for sizes, 0 for ids and offsets. */
static uint64_t wi_outside(WorkItem w) {
  return w == WI_GLOBAL_SIZE || w == WI_LOCAL_SIZE || w == WI_NUM_GROUPS ? 1 : 0;
}

/* get_work_dim(): a kcc launch (a grid and a block of three extents, as in CUDA) has no
 * dimension count of its own, so it is the last dimension whose global size is not 1 (at
 * least 1), computed from the sizes on every back end alike. Only a launch that means a
 * trailing extent of 1 as a dimension (pyopencl's (n, 1)) reads less than it would under
 * OpenCL (docs/dialect.md). */
static KExpr *work_dim(KType *t, KLoc loc) {
  KExpr *r = fe_int_const(t, 1, loc);
  for (int dim = 1; dim <= 2; dim++) {
    KExpr *c = kir_expr(KE_COND, t, loc);
    c->a = kir_binary(KB_NE, kir_type_scalar(KT_I32), wi_value(WI_GLOBAL_SIZE, dim, t_u32(), loc),
                      fe_int_const(t_u32(), 1, loc), loc);
    c->b = fe_int_const(t, (uint64_t)dim + 1, loc);
    c->c = r;
    r = c;
  }
  return r;
}

/* `T __kcc_get_X(uint d)`: the conditional on d, for a dimension known only at run time. */
static KFunc *wi_helper(FeCtx *fe, WorkItem w, KType *t, KLoc loc) {
  if (fe->cl_helpers[w]) return fe->cl_helpers[w];
  char name[64];
  snprintf(name, sizeof name, "__kcc_%s", wi_names[w]);
  KFunc *f = kir_alloc(sizeof *f);
  f->name = kir_strdup(name);
  f->loc = loc;
  f->is_static = f->is_inline = true;
  f->ret = t;
  f->params = kir_alloc(sizeof(KVar *));
  KVar *d = kir_var(fe->m, "d", t_u32(), KV_PARAM, loc);
  f->params[f->nparams++] = d;
  KExpr *r = fe_int_const(t, wi_outside(w), loc);
  for (int dim = 2; dim >= 0; dim--) {
    KExpr *dv = kir_expr(KE_VAR, t_u32(), loc);
    dv->var = d;
    KExpr *c = kir_expr(KE_COND, t, loc);
    c->a = kir_binary(KB_EQ, kir_type_scalar(KT_I32), dv, fe_int_const(t_u32(), (uint64_t)dim, loc),
                      loc);
    c->b = wi_value(w, dim, t, loc);
    c->c = r;
    r = c;
  }
  KStmt *ret = kir_stmt(KS_RETURN, loc);
  ret->expr = r;
  f->body = kir_stmt(KS_BLOCK, loc);
  klist_push(&f->body->list, ret);
  fe_add_helper(fe, f);
  fe->cl_helpers[w] = f;
  return f;
}

static KExpr *work_item(FeCtx *fe, CXCursor call, WorkItem w, KType *t, KLoc loc) {
  CXCursor arg = clang_Cursor_getArgument(call, 0);
  CXEvalResult r = clang_Cursor_Evaluate(arg);
  bool known = r && clang_EvalResult_getKind(r) == CXEval_Int;
  uint64_t dim = known ? (uint64_t)clang_EvalResult_getAsUnsigned(r) : 0;
  if (r) clang_EvalResult_dispose(r);
  if (known) return dim <= 2 ? wi_value(w, (int)dim, t, loc) : fe_int_const(t, wi_outside(w), loc);
  if (w == WI_GLOBAL_OFFSET) {
    /* Evaluated for its side effects; kcc launches never have an offset. */
    KExpr *c = kir_expr(KE_COMMA, t, loc);
    c->a = kir_cast(fe_expr(fe, arg), kir_type_void());
    c->b = fe_int_const(t, 0, loc);
    return c;
  }
  KFunc *f = wi_helper(fe, w, t, loc);
  KExpr *e = kir_expr(KE_CALL, t, loc);
  e->callee = f;
  e->args = kir_alloc(sizeof(KExpr *));
  e->args[0] = fe_convert(fe_expr(fe, arg), t_u32());
  e->nargs = 1;
  return e;
}

/* The flags of barrier/mem_fence: CLK_GLOBAL_MEM_FENCE (or not known) asks for a
 * device-scope fence. */
static bool global_fence(CXCursor call) {
  if (clang_Cursor_getNumArguments(call) < 1) return true;
  CXEvalResult r = clang_Cursor_Evaluate(clang_Cursor_getArgument(call, 0));
  bool known = r && clang_EvalResult_getKind(r) == CXEval_Int;
  uint64_t v = known ? (uint64_t)clang_EvalResult_getAsUnsigned(r) : 0;
  if (r) clang_EvalResult_dispose(r);
  return !known || (v & 2) != 0;
}

static const struct {
  const char *name; /* after atomic_ / atom_ */
  KBuiltin b;
  int nargs;
} atomics[] = {
    {"add", BI_ATOMIC_ADD, 2}, {"sub", BI_ATOMIC_SUB, 2},     {"xchg", BI_ATOMIC_EXCH, 2},
    {"min", BI_ATOMIC_MIN, 2}, {"max", BI_ATOMIC_MAX, 2},     {"and", BI_ATOMIC_AND, 2},
    {"or", BI_ATOMIC_OR, 2},   {"xor", BI_ATOMIC_XOR, 2},     {"inc", BI_ATOMIC_ADD, 1},
    {"dec", BI_ATOMIC_SUB, 1}, {"cmpxchg", BI_ATOMIC_CAS, 3},
};

/* OpenCL 2.0's atomics on atomic_int & co. (C11's, with memory orders). */
static bool is_cl20_atomic(const char *name) {
  static const char *const pre[] = {"atomic_init",     "atomic_store",          "atomic_load",
                                    "atomic_exchange", "atomic_compare_",       "atomic_fetch_",
                                    "atomic_flag_",    "atomic_work_item_fence"};
  for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
    if (!strncmp(name, pre[i], strlen(pre[i]))) return true;
  return false;
}

static KExpr *atomic_call(FeCtx *fe, CXCursor call, const char *op, KType *t, KLoc loc) {
  for (size_t i = 0; i < sizeof atomics / sizeof *atomics; i++) {
    if (strcmp(atomics[i].name, op)) continue;
    int n = clang_Cursor_getNumArguments(call);
    if (n != atomics[i].nargs) return NULL;
    KExpr *args[3];
    for (int j = 0; j < n; j++) args[j] = fe_expr(fe, clang_Cursor_getArgument(call, j));
    if (n == 1) args[n++] = fe_int_const(t, 1, loc); /* inc, dec: add or subtract 1 */
    for (int j = 1; j < n; j++) args[j] = fe_convert(args[j], t);
    return builtin(atomics[i].b, t, loc, n, args);
  }
  return NULL;
}

static bool arg_is_vec(CXCursor call, int i) {
  CXType t = clang_getCanonicalType(clang_getCursorType(clang_Cursor_getArgument(call, i)));
  return t.kind == CXType_ExtVector || t.kind == CXType_Vector;
}

/* Every argument lowered and converted to t (clang has converted them to the overload's
 * parameter types already; this only drops qualifiers). */
static int lower_args(FeCtx *fe, CXCursor call, KExpr **args, int max, KType *t) {
  int n = clang_Cursor_getNumArguments(call);
  if (n > max) n = max;
  for (int i = 0; i < n; i++) {
    args[i] = fe_expr(fe, clang_Cursor_getArgument(call, i));
    if (t) args[i] = fe_convert(args[i], t);
  }
  /* Fewer arguments than the built-in takes: clang reported the call; placeholders keep the
     lowering going without reading an unset slot. */
  for (int i = n < 0 ? 0 : n; i < max; i++) args[i] = fe_poison(fe_loc(fe, call));
  return n;
}

/* Math, common and integer functions kcc maps onto KIR: names as OpenCL spells them, after
 * the native_ or half_ prefix (those are the full-precision functions in kcc). */
static KExpr *math_call(FeCtx *fe, CXCursor call, const char *name, KType *t, KLoc loc) {
  KExpr *a[3];
  if (!strcmp(name, "mad") || !strcmp(name, "mad24")) {
    lower_args(fe, call, a, 3, t);
    return kir_binary(KB_ADD, t, kir_binary(KB_MUL, t, a[0], a[1], loc), a[2], loc);
  }
  if (!strcmp(name, "mul24")) {
    lower_args(fe, call, a, 2, t);
    return kir_binary(KB_MUL, t, a[0], a[1], loc);
  }
  if (!strcmp(name, "mad_hi")) {
    lower_args(fe, call, a, 3, t);
    return kir_binary(KB_ADD, t, builtin(BI_MUL_HI, t, loc, 2, a), a[2], loc);
  }
  if (!strcmp(name, "recip")) { /* vectors: a splat of one (fe_convert) */
    lower_args(fe, call, a, 1, t);
    return kir_binary(KB_DIV, t, fe_convert(fe_int_const(t_u32(), 1, loc), t), a[0], loc);
  }
  if (!strcmp(name, "divide")) {
    lower_args(fe, call, a, 2, t);
    return kir_binary(KB_DIV, t, a[0], a[1], loc);
  }
  if (!strcmp(name, "degrees") || !strcmp(name, "radians")) {
    lower_args(fe, call, a, 1, t);
    double k = !strcmp(name, "degrees") ? 57.295779513082320876798154814105
                                        : 0.017453292519943295769236907684886;
    KType *et = kir_elem(t);
    KExpr *c = kir_expr(KE_FCONST, et, loc);
    c->fval = et->kind == KT_F32 ? (double)(float)k : k;
    return kir_binary(KB_MUL, t, a[0], fe_convert(c, t), loc);
  }
  if (!strcmp(name, "clamp")) { /* scalar bounds on vectors are splats (lower_args) */
    lower_args(fe, call, a, 3, t);
    bool f = kir_is_float(t);
    KExpr *lo[2] = {a[0], a[1]};
    KExpr *mx = builtin(f ? BI_FMAX : BI_MAX, t, loc, 2, lo);
    KExpr *hi[2] = {mx, a[2]};
    return builtin(f ? BI_FMIN : BI_MIN, t, loc, 2, hi);
  }
  if (!strcmp(name, "abs")) {
    /* OpenCL's abs returns the unsigned type: the signed |x|, then its bits unsigned. */
    KExpr *x = fe_expr(fe, clang_Cursor_getArgument(call, 0));
    if (!kir_is_signed(kir_elem(x->type))) return fe_convert(x, t);
    return fe_convert(builtin(BI_ABS, x->type, loc, 1, &x), t);
  }
  KBuiltin b = BI_NONE;
  int nargs = 1;
  if (!strcmp(name, "popcount"))
    b = BI_POPCOUNT;
  else if (!strcmp(name, "clz"))
    b = BI_CLZ;
  else if (!strcmp(name, "mul_hi"))
    b = BI_MUL_HI, nargs = 2;
  else if (!strcmp(name, "powr"))
    b = BI_POW, nargs = 2;
  else if (!strcmp(name, "min") || !strcmp(name, "max")) {
    if (clang_Cursor_getNumArguments(call) != 2) return NULL;
    lower_args(fe, call, a, 2, t); /* min(float4, float): the scalar is splat */
    return builtin(name[1] == 'i' ? BI_MIN : BI_MAX, t, loc, 2, a);
  } else {
    b = fe_builtin_lookup(name);
    if (b == BI_SYNCTHREADS || b == BI_PRINTF || b == BI_NONE) return NULL;
    if (b >= BI_ATOMIC_ADD && b <= BI_ATOMIC_CAS) return NULL;
    if (b == BI_MIN || b == BI_MAX || b == BI_ABS) return NULL;
    const KBuiltinInfo *bi = kir_builtin_info(b);
    nargs = bi ? bi->nargs : 1;
  }
  if (clang_Cursor_getNumArguments(call) != nargs) return NULL;
  bool typed_args = b != BI_ISNAN && b != BI_ISINF && b != BI_ISFINITE;
  lower_args(fe, call, a, nargs, typed_args ? t : NULL);
  return builtin(b, t, loc, nargs, a);
}

/* convert_T[_sat][_rte|_rtz|_rtp|_rtn](x) on scalars. */
static KExpr *convert_call(FeCtx *fe, CXCursor call, const char *name, KType *t, KLoc loc) {
  if (clang_Cursor_getNumArguments(call) != 1) return NULL;
  if (kir_is_vec(t) || arg_is_vec(call, 0)) return NULL; /* fe's vector lowering */
  KExpr *x = fe_expr(fe, clang_Cursor_getArgument(call, 0));
  bool sat = strstr(name, "_sat") != NULL;
  const char *rm = NULL;
  const char *u = strrchr(name, '_');
  if (u && (!strcmp(u, "_rte") || !strcmp(u, "_rtz") || !strcmp(u, "_rtp") || !strcmp(u, "_rtn")))
    rm = u + 1;
  /* _rte is how every conversion to floating point rounds; the others matter only where the
     conversion is inexact (half holds the integers of one byte, exactly). */
  bool exact =
      kir_is_float(x->type) ? x->type->size <= t->size : t->kind == KT_F16 && x->type->size == 1;
  if (rm && kir_is_float(t) && strcmp(rm, "rte") && !exact && t->kind == KT_F16 &&
      (x->type->kind == KT_F32 || kir_is_int(x->type))) {
    return fe_half_round(fe, x, !strcmp(rm, "rtz") ? 2 : !strcmp(rm, "rtp") ? 3 : 4, loc);
  }
  if (rm && kir_is_float(t) && strcmp(rm, "rte") && !exact) {
    diag_error(loc,
               "'%s': conversions to floating point with a rounding mode are not supported "
               "by kcc",
               name);
    return fe_poison(loc);
  }
  if (rm && kir_is_float(x->type) && kir_is_int(t) && strcmp(rm, "rtz")) {
    KBuiltin b = !strcmp(rm, "rte") ? BI_RINT : !strcmp(rm, "rtp") ? BI_CEIL : BI_FLOOR;
    x = builtin(b, x->type, loc, 1, &x);
  }
  if (sat && kir_is_int(t) && t->kind != KT_BOOL) return builtin(BI_CONVERT_SAT, t, loc, 1, &x);
  return fe_convert(x, t);
}

/* ---------------------------------------------------------------- subgroups */

/* The type a subgroup operation computes a value of type t in: char and short widened to int
 * (cl_khr_subgroup_extended_types), which gives the same bits once narrowed back, for every
 * operation; NULL for a type kcc's subgroup operations do not take. */
static KType *sg_work_type(KType *t) {
  switch (t->kind) {
  case KT_I8:
  case KT_I16: return kir_type_scalar(KT_I32);
  case KT_U8:
  case KT_U16: return kir_type_scalar(KT_U32);
  case KT_I32:
  case KT_U32:
  case KT_I64:
  case KT_U64:
  case KT_F32:
  case KT_F64: return t;
  default: return NULL;
  }
}

static KExpr *sg_node(KBuiltin b, KType *t, bool nonuniform, KLoc loc) {
  KExpr *e = kir_builtin(b, t, 2, loc);
  e->nonuniform = nonuniform;
  return e;
}

/* A value operation (broadcast, shuffle, reduction...) of v with an optional second argument
 * x (a lane, delta or cluster size), computed in the widened type and narrowed to t. */
static KExpr *sg_value(FeCtx *fe, KBuiltin b, KRedOp red, bool nu, const char *name, KExpr *v,
                       KExpr *x, KType *t, KLoc loc) {
  KType *w = sg_work_type(t);
  if (!w) {
    diag_error(loc, "OpenCL built-in '%s' on '%s' is not supported by kcc", name, kir_type_str(t));
    return fe_poison(loc);
  }
  (void)fe;
  KExpr *e = sg_node(b, w, nu, loc);
  e->red = red;
  e->args[e->nargs++] = fe_convert(v, w);
  if (x) e->args[e->nargs++] = x;
  if (w != t && b == BI_SG_SCAN_EXCLUSIVE && (red == KR_MIN || red == KR_MAX)) {
    /* The first lane's identity is int's (INT_MAX): saturated, it is char's or short's. */
    KExpr *n = kir_builtin(BI_CONVERT_SAT, t, 1, loc);
    n->args[n->nargs++] = e;
    return n;
  }
  return fe_convert(e, t);
}

/* broadcast of a vector (cl_khr_subgroup_extended_types): each component, from one copy of
 * the vector and of the lane. */
static KExpr *sg_vector(FeCtx *fe, KBuiltin b, bool nu, const char *name, KExpr *v, KExpr *x,
                        KType *t, KLoc loc) {
  KExpr *tv = fe_temp(fe, t, NULL, loc), *tx = x ? fe_temp(fe, x->type, NULL, loc) : NULL;
  KExpr *lit = kir_expr(KE_VECLIT, t, loc);
  lit->args = kir_alloc(sizeof(KExpr *) * (size_t)t->len);
  for (int c = 0; c < t->len; c++) {
    KExpr *comp = kir_expr(KE_SWIZZLE, t->base, loc);
    comp->a = tv;
    comp->nswz = 1;
    comp->swz[0] = (uint8_t)c;
    lit->args[lit->nargs++] = sg_value(fe, b, KR_ADD, nu, name, comp, tx, t->base, loc);
  }
  KExpr *set = kir_expr(KE_ASSIGN, t, loc);
  set->a = tv;
  set->b = v;
  KExpr *r = kir_expr(KE_COMMA, t, loc);
  r->a = set;
  r->b = lit;
  if (tx) {
    KExpr *setx = kir_expr(KE_ASSIGN, x->type, loc), *r2 = kir_expr(KE_COMMA, t, loc);
    setx->a = tx;
    setx->b = x;
    r2->a = setx;
    r2->b = r;
    r = r2;
  }
  return r;
}

/* The argument i of call, lowered (NULL when the call has fewer). */
static KExpr *sg_arg(FeCtx *fe, CXCursor call, int i) {
  return clang_Cursor_getNumArguments(call) > i ? fe_expr(fe, clang_Cursor_getArgument(call, i))
                                                : NULL;
}

/* A clustered function's cluster size, argument i of call: a constant power of two from 1 to
 * 128, else -1 (reported). */
static int64_t cluster_size(CXCursor call, int i, const char *name, KLoc loc) {
  CXEvalResult r = clang_Cursor_getNumArguments(call) > i
                       ? clang_Cursor_Evaluate(clang_Cursor_getArgument(call, i))
                       : NULL;
  bool known = r && clang_EvalResult_getKind(r) == CXEval_Int;
  int64_t c = known ? clang_EvalResult_getAsLongLong(r) : 0;
  if (r) clang_EvalResult_dispose(r);
  if (known && c >= 1 && c <= 128 && !(c & (c - 1))) return c;
  diag_error(loc,
             "%s: the cluster size must be a constant power of two from 1 to 128 (OpenCL C "
             "requires a compile-time constant)",
             name);
  return -1;
}

/* The subgroup functions of cl_khr_subgroups and the extended subgroup extensions
 * (KIR's BI_SG_*); NULL for a name that is none of them (pipes, Intel's...: refused by
 * name later). The ballot functions on a uint4 are OpenCL C in the prelude (cl_ballot). */
static KExpr *subgroup_call(FeCtx *fe, CXCursor call, const char *name, KType *t, KLoc loc) {
  static const struct {
    const char *name;
    KBuiltin b;
  } queries[] = {
      {"get_sub_group_size", BI_SG_SIZE}, {"get_max_sub_group_size", BI_SG_MAX_SIZE},
      {"get_num_sub_groups", BI_SG_NUM},  {"get_enqueued_num_sub_groups", BI_SG_NUM},
      {"get_sub_group_id", BI_SG_ID},     {"get_sub_group_local_id", BI_SG_LOCAL_ID},
  };
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++)
    if (!strcmp(name, queries[i].name)) return sg_node(queries[i].b, t, false, loc);
  if (strncmp(name, "sub_group_", 10)) return NULL;
  const char *op = name + 10;
  bool nu = !strncmp(op, "non_uniform_", 12);
  if (nu) op += 12;
  KType *i32 = kir_type_scalar(KT_I32), *u32 = kir_type_scalar(KT_U32);
  if (!strcmp(op, "barrier") && !nu) {
    /* Both fences whatever the flags (a stronger barrier), at the subgroup's scope. */
    return sg_node(BI_SG_BARRIER, t, false, loc);
  }
  if (!strcmp(op, "elect") && !nu) return sg_node(BI_SG_ELECT, t, true, loc);
  if (!strcmp(op, "all") || !strcmp(op, "any") || (!strcmp(op, "ballot") && !nu)) {
    KExpr *e = sg_node(op[1] == 'l'   ? BI_SG_ALL
                       : op[1] == 'n' ? BI_SG_ANY
                                      : BI_SG_BALLOT,
                       t, nu, loc);
    KExpr *p = sg_arg(fe, call, 0);
    e->args[e->nargs++] = p ? fe_convert(p, i32) : fe_poison(loc);
    return e;
  }
  if (!strcmp(op, "all_equal") && nu) {
    KExpr *v = sg_arg(fe, call, 0);
    if (!v) return fe_poison(loc);
    KType *w = sg_work_type(v->type);
    if (!w) return sg_value(fe, BI_SG_ALL_EQUAL, KR_ADD, true, name, v, NULL, v->type, loc);
    KExpr *e = sg_node(BI_SG_ALL_EQUAL, t, true, loc);
    e->args[e->nargs++] = fe_convert(v, w);
    return e;
  }
  static const struct {
    const char *name;
    KBuiltin b;
    int uniform; /* 1: the uniform form only, 0: non-uniform only, 2: both */
  } moves[] = {
      {"broadcast", BI_SG_BROADCAST, 2},   {"broadcast_first", BI_SG_BROADCAST_FIRST, 1},
      {"shuffle", BI_SG_SHUFFLE, 1},       {"shuffle_xor", BI_SG_SHUFFLE_XOR, 1},
      {"shuffle_up", BI_SG_SHUFFLE_UP, 1}, {"shuffle_down", BI_SG_SHUFFLE_DOWN, 1},
  };
  for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
    if (strcmp(op, moves[i].name) || (nu ? moves[i].uniform == 1 : moves[i].uniform == 0)) continue;
    KBuiltin b = moves[i].b;
    bool first = b == BI_SG_BROADCAST_FIRST;
    KExpr *v = sg_arg(fe, call, 0), *x = first ? NULL : sg_arg(fe, call, 1);
    if (!v || (!first && !x)) return fe_poison(loc);
    if (x) x = fe_convert(x, u32);
    /* Shuffles and broadcast_first are non-uniform (SPIR-V's OpGroupNonUniform*). */
    nu |= b != BI_SG_BROADCAST;
    if (kir_is_vec(t)) return sg_vector(fe, b, nu, name, v, x, t, loc);
    return sg_value(fe, b, KR_ADD, nu, name, v, x, t, loc);
  }
  /* cl_khr_subgroup_rotate: the value of the lane (local id + delta) mod the subgroup's size,
     or within the aligned cluster of a constant power-of-two size: a shuffle of that lane.
     The subgroup's own size (get_sub_group_size), so that a partial last subgroup rotates
     within its lanes; delta may be negative. */
  if ((!strcmp(op, "rotate") || !strcmp(op, "clustered_rotate")) && !nu) {
    bool clustered = op[0] == 'c';
    KExpr *v = sg_arg(fe, call, 0), *d = sg_arg(fe, call, 1);
    if (!v || !d) return fe_poison(loc);
    int64_t c = clustered ? cluster_size(call, 2, name, loc) : 0; /* 0: the subgroup */
    if (c < 0) return fe_poison(loc);
    /* base + (id - base + (delta mod n + n)) mod n; delta's remainder in int, for its sign */
    KExpr *id = sg_node(BI_SG_LOCAL_ID, u32, false, loc), *base = NULL;
    if (c) {
      base = kir_binary(KB_AND, u32, sg_node(BI_SG_LOCAL_ID, u32, false, loc),
                        fe_int_const(u32, ~(uint64_t)(c - 1) & 0xffffffffu, loc), loc);
      id = kir_binary(KB_AND, u32, id, fe_int_const(u32, (uint64_t)(c - 1), loc), loc);
    }
#define ROT_SIZE() (c ? fe_int_const(u32, (uint64_t)c, loc) : sg_node(BI_SG_SIZE, u32, false, loc))
    KExpr *dm = kir_binary(KB_REM, i32, fe_convert(d, i32), fe_convert(ROT_SIZE(), i32), loc);
    KExpr *dp = fe_convert(kir_binary(KB_ADD, i32, dm, fe_convert(ROT_SIZE(), i32), loc), u32);
    KExpr *at = kir_binary(KB_REM, u32, kir_binary(KB_ADD, u32, id, dp, loc), ROT_SIZE(), loc);
#undef ROT_SIZE
    if (base) at = kir_binary(KB_ADD, u32, base, at, loc);
    return sg_value(fe, BI_SG_SHUFFLE, KR_ADD, true, name, v, at, t, loc);
  }
  /* reduce_OP, scan_inclusive_OP, scan_exclusive_OP, clustered_reduce_OP */
  static const struct {
    const char *prefix;
    KBuiltin b;
  } kinds[] = {{"reduce_", BI_SG_REDUCE},
               {"scan_inclusive_", BI_SG_SCAN_INCLUSIVE},
               {"scan_exclusive_", BI_SG_SCAN_EXCLUSIVE},
               {"clustered_reduce_", BI_SG_CLUSTERED_REDUCE}};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    size_t n = strlen(kinds[i].prefix);
    if (strncmp(op, kinds[i].prefix, n)) continue;
    KBuiltin b = kinds[i].b;
    bool clustered = b == BI_SG_CLUSTERED_REDUCE;
    if (clustered && nu) return NULL;
    int red = -1;
    for (int r = 0; r < KR_COUNT_; r++)
      if (!strcmp(op + n, kir_red_names[r])) red = r;
    /* The core extension has add, min and max; the others come with the non-uniform and
       clustered extensions, as clang's table declares them. */
    if (red < 0 || (!nu && !clustered && red != KR_ADD && red != KR_MIN && red != KR_MAX))
      return NULL;
    KExpr *v = sg_arg(fe, call, 0), *x = NULL;
    if (!v) return fe_poison(loc);
    if (clustered) {
      int64_t c = cluster_size(call, 1, name, loc);
      if (c < 0) return fe_poison(loc);
      x = fe_int_const(u32, (uint64_t)c, loc);
    }
    if (red >= KR_LOGICAL_AND) v = fe_convert(v, i32);
    return sg_value(fe, b, (KRedOp)red, nu || clustered, name, v, x, t, loc);
  }
  return NULL;
}

/* Whether a call passes something kcc already refused (an image, a sampler, an atomic_int
 * pointer): the call then adds no second error. */
static bool passes_refused(CXCursor call) {
  int n = clang_Cursor_getNumArguments(call);
  for (int i = 0; i < n; i++)
    if (refused_type(clang_getCursorType(clang_Cursor_getArgument(call, i)))) return true;
  return false;
}

/* Clang's implicit declaration of an OpenCL built-in: extern, written nowhere (its extent
 * is the name at its first use, where a written declaration starts with its type). */
static bool is_implicit_builtin(CXCursor fn) {
  if (clang_isCursorDefinition(fn) || clang_Cursor_getStorageClass(fn) != CX_SC_Extern)
    return false;
  CXSourceLocation at = clang_getCursorLocation(fn);
  CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(fn));
  return clang_equalLocations(at, start) != 0;
}

static KExpr *unsupported_builtin(FeCtx *fe, CXCursor call, const char *name, KLoc loc) {
  /* One diagnostic per construct: an argument of a type already refused says it all. */
  if (passes_refused(call) && diag_error_count() > fe->errors0) return fe_poison(loc);
  if (is_cl20_atomic(name))
    diag_error(loc,
               "OpenCL 2.0 atomic '%s' is not supported by kcc; use int or uint with atomic_add "
               "& co. (OpenCL 1.2 atomics)",
               name);
  else if (!strncmp(name, "read_image", 10) || !strncmp(name, "write_image", 11) ||
           !strncmp(name, "get_image", 9))
    diag_error(loc, "OpenCL image function '%s' is not supported by kcc", name);
  else if (!strncmp(name, "enqueue_", 8) || !strncmp(name, "get_kernel_", 11) ||
           !strncmp(name, "ndrange_", 8))
    diag_error(loc, "device-side enqueue is not supported by kcc ('%s')", name);
  else if (strstr(name, "_pipe"))
    diag_error(loc, "OpenCL pipes are not supported by kcc ('%s')", name);
  else
    diag_error(loc, "OpenCL built-in '%s' is not supported by kcc", name);
  return fe_poison(loc);
}

KExpr *fe_cl_call(FeCtx *fe, CXCursor call, CXCursor fn, KLoc loc) {
  if (!is_implicit_builtin(fn)) return NULL;
  const char *name = fe_spelling(fn);
  /* Clang's own (the prelude's INFINITY and NAN): the shared lowering folds them. */
  if (!strncmp(name, "__builtin_", 10)) return NULL;
  KType *t = fe_type(fe, clang_getCursorType(call), loc);
  if (!t) return fe_poison(loc);
  for (int w = 0; w < WI_COUNT_; w++)
    if (!strcmp(name, wi_names[w]) && clang_Cursor_getNumArguments(call) == 1)
      return work_item(fe, call, (WorkItem)w, t, loc);
  if (!strcmp(name, "get_work_dim")) return work_dim(t, loc);
  if (strstr(name, "sub_group")) {
    KExpr *sg = subgroup_call(fe, call, name, t, loc);
    if (sg) return sg;
  }
  if (!strcmp(name, "barrier") || !strcmp(name, "work_group_barrier"))
    return builtin(BI_SYNCTHREADS, t, loc, 0, NULL);
  if (!strcmp(name, "mem_fence") || !strcmp(name, "read_mem_fence") ||
      !strcmp(name, "write_mem_fence"))
    return builtin(global_fence(call) ? BI_THREADFENCE : BI_THREADFENCE_BLOCK, t, loc, 0, NULL);
  KExpr *r = NULL;
  if (strstr(name, "image")) {
    r = fe_cl_image_call(fe, call, name, t, loc);
    if (r) return r;
  }
  if (!strncmp(name, "atomic_", 7) && !is_cl20_atomic(name))
    r = atomic_call(fe, call, name + 7, t, loc);
  else if (!strncmp(name, "atom_", 5))
    r = atomic_call(fe, call, name + 5, t, loc);
  else if (!strncmp(name, "convert_", 8))
    r = convert_call(fe, call, name, t, loc);
  else if (!strncmp(name, "native_", 7)) {
    r = math_call(fe, call, name + 7, t, loc);
    if (r && r->kind == KE_BUILTIN) r->approx = true; /* the device's own precision */
  } else if (!strncmp(name, "half_", 5))
    r = math_call(fe, call, name + 5, t, loc);
  else
    r = math_call(fe, call, name, t, loc);
  if (r) return r;
  /* The vector families (vector.c): convert_T on vectors, as_T, vloadN/vstoreN, select,
     popcount, clz, mul_hi; then the half-precision storage functions (half.c). */
  r = fe_vec_builtin(fe, call, name, loc);
  if (!r && (!strncmp(name, "vload", 5) || !strncmp(name, "vstore", 6)))
    r = fe_cl_half(fe, call, name, loc);
  if (r) return r;
  return unsupported_builtin(fe, call, name, loc);
}

/* ---------------------------------------------------------------- as_T */

/* The spelling position of a location: its file and offset. */
static void spelled_at(CXSourceLocation l, CXFile *f, unsigned *off) {
  clang_getSpellingLocation(l, f, NULL, NULL, off);
}

KExpr *fe_cl_astype(FeCtx *fe, CXCursor c, KLoc loc) {
  FeKids k;
  fe_kids(c, &k);
  CXCursor sub = k.n == 1 ? k.v[0] : clang_getNullCursor();
  fe_kids_free(&k);
  if (clang_Cursor_isNull(sub) || !clang_isExpression(clang_getCursorKind(sub))) return NULL;
  /* as_T(x) is the prelude's __builtin_astype((x), T), an expression libclang does not
   * expose: an UnexposedExpr spelled at that name in the prelude, whose operand is spelled
   * further on. An implicit conversion starts where its operand starts. */
  CXFile f = NULL, fs = NULL;
  unsigned off = 0, soff = 0;
  CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(c));
  spelled_at(start, &f, &off);
  spelled_at(clang_getRangeStart(clang_getCursorExtent(sub)), &fs, &soff);
  if (!f || (fs && clang_File_isEqual(f, fs) && off == soff)) return NULL;
  CXString fn = clang_getFileName(f);
  bool in_prelude = clang_getCString(fn) && !strcmp(clang_getCString(fn), FE_CL_PRELUDE);
  clang_disposeString(fn);
  if (!in_prelude) return NULL;
  unsigned line = 0, col = 0;
  clang_getSpellingLocation(start, NULL, &line, &col, NULL);
  CXSourceLocation at = clang_getLocation(fe->tu, f, line, col);
  CXToken *tok = clang_getToken(fe->tu, at);
  bool astype = false;
  if (tok) {
    CXString s = clang_getTokenSpelling(fe->tu, *tok);
    astype = clang_getCString(s) && !strcmp(clang_getCString(s), "__builtin_astype");
    clang_disposeString(s);
    clang_disposeTokens(fe->tu, tok, 1);
  }
  if (!astype) return NULL;
  KExpr *x = fe_expr(fe, sub);
  KType *t = fe_type(fe, clang_getCursorType(c), loc);
  if (!t) return fe_poison(loc);
  if (x->type == t) return x;
  if (x->type->size != t->size || !(kir_is_arith(kir_elem(t)) && kir_is_arith(kir_elem(x->type))))
    return fe_broken(fe, loc, "this as_ conversion");
  KExpr *e = kir_expr(KE_BITCAST, t, loc);
  e->a = x;
  return e;
}

/* ---------------------------------------------------------------- the layer's hooks */

/* Before the shared rules: a constant sampler folds to its bits; as_T is a bit cast. */
static KExpr *cl_expr(FeCtx *fe, CXCursor c, KLoc loc) {
  KExpr *s = fe_cl_sampler_expr(fe, c, loc);
  if (s || clang_getCursorKind(c) != CXCursor_UnexposedExpr) return s;
  return fe_cl_astype(fe, c, loc);
}

/* image_lib.c's raw texel access (__kcc_surf_load/store...), which the prelude declares. */
static KExpr *cl_header_call(FeCtx *fe, CXCursor call, const char *name, KLoc loc) {
  if (strncmp(name, "__kcc_surf_", 11)) return NULL;
  KType *t = fe_type(fe, clang_getCursorType(call), loc);
  return t ? fe_cl_image_call(fe, call, name, t, loc) : fe_poison(loc);
}

const FeLangOps fe_lang_opencl = {
    .kernel_attrs = fe_cl_kernel_attrs,
    .check_type = fe_cl_check_type,
    .opaque_type = fe_cl_opaque_type,
    .var_decl = fe_cl_sampler_decl,
    .expr = cl_expr,
    .builtin_call = fe_cl_call,
    .header_call = cl_header_call,
};
