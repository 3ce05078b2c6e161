/* cxxlib.c — CUDA input: the part of the C++ standard library that device code can use.
 *
 * kcc reads no system header (docs/design.md, "Host code in CUDA input"), so a kernel file's
 * <vector> or <iostream> is simply not found, which only host code notices. Device code may
 * use what CUDA lets it: the C library's math through <cmath> (std::sqrt...), and what is
 * constexpr, which clang makes callable from device code (std::min, std::numeric_limits,
 * <type_traits>). Those headers are written here, as small as the standard allows, with
 * clang's type-trait builtins doing the work; everything is __host__ __device__ so that host
 * code sees the same declarations. */
#include <string.h>

#include "fe.h"

#define HD_BEGIN "#pragma clang force_cuda_host_device begin\n"
#define HD_END   "#pragma clang force_cuda_host_device end\n"

static const char h_cstddef[] = "#pragma once\n"
                                "#include <stddef.h>\n"
                                "namespace std {\n"
                                "using ::size_t;\nusing ::ptrdiff_t;\nusing ::max_align_t;\n"
                                "typedef decltype(nullptr) nullptr_t;\n"
                                "enum class byte : unsigned char {};\n"
                                "}\n";

static const char h_cstdint[] =
    "#pragma once\n"
    "#include <stdint.h>\n"
    "namespace std {\n"
    "using ::int8_t;\nusing ::int16_t;\nusing ::int32_t;\nusing ::int64_t;\n"
    "using ::uint8_t;\nusing ::uint16_t;\nusing ::uint32_t;\nusing ::uint64_t;\n"
    "using ::int_least8_t;\nusing ::int_least16_t;\nusing ::int_least32_t;\n"
    "using ::int_least64_t;\nusing ::uint_least8_t;\nusing ::uint_least16_t;\n"
    "using ::uint_least32_t;\nusing ::uint_least64_t;\nusing ::int_fast8_t;\n"
    "using ::int_fast16_t;\nusing ::int_fast32_t;\nusing ::int_fast64_t;\n"
    "using ::uint_fast8_t;\nusing ::uint_fast16_t;\nusing ::uint_fast32_t;\n"
    "using ::uint_fast64_t;\nusing ::intptr_t;\nusing ::uintptr_t;\nusing ::intmax_t;\n"
    "using ::uintmax_t;\n"
    "}\n";

static const char h_cstdlib[] = "#pragma once\n"
                                "#include <stdlib.h>\n"
                                "#include <cstddef>\n"
                                "namespace std {\nusing ::abs;\nusing ::labs;\nusing ::llabs;\n}\n";

static const char h_type_traits[] =
    "#ifndef __KCC_TYPE_TRAITS\n#define __KCC_TYPE_TRAITS\n"
    "#include <cstddef>\n" HD_BEGIN "namespace std {\n"
    "template <class T, T v> struct integral_constant { static constexpr T value = v; typedef T "
    "value_type; typedef integral_constant type; constexpr operator T() const noexcept { return "
    "v; } constexpr T operator()() const noexcept { return v; } };\n"
    "template <bool B> using bool_constant = integral_constant<bool, B>;\n"
    "typedef bool_constant<true> true_type;\ntypedef bool_constant<false> false_type;\n"
    /* Type transformations. */
    "template <class T> struct type_identity { typedef T type; };\n"
    "template <class T> struct remove_const { typedef T type; };\n"
    "template <class T> struct remove_const<const T> { typedef T type; };\n"
    "template <class T> struct remove_volatile { typedef T type; };\n"
    "template <class T> struct remove_volatile<volatile T> { typedef T type; };\n"
    "template <class T> struct remove_cv { typedef typename remove_volatile<typename "
    "remove_const<T>::type>::type type; };\n"
    "template <class T> struct remove_reference { typedef T type; };\n"
    "template <class T> struct remove_reference<T &> { typedef T type; };\n"
    "template <class T> struct remove_reference<T &&> { typedef T type; };\n"
    "template <class T> struct remove_cvref { typedef typename remove_cv<typename "
    "remove_reference<T>::type>::type type; };\n"
    "template <class T> struct remove_pointer { typedef T type; };\n"
    "template <class T> struct remove_pointer<T *> { typedef T type; };\n"
    "template <class T> struct remove_pointer<T *const> { typedef T type; };\n"
    "template <class T> struct remove_pointer<T *volatile> { typedef T type; };\n"
    "template <class T> struct remove_pointer<T *const volatile> { typedef T type; };\n"
    "template <class T> struct remove_extent { typedef T type; };\n"
    "template <class T> struct remove_extent<T[]> { typedef T type; };\n"
    "template <class T, size_t N> struct remove_extent<T[N]> { typedef T type; };\n"
    "template <class T> struct remove_all_extents { typedef T type; };\n"
    "template <class T> struct remove_all_extents<T[]> { typedef typename "
    "remove_all_extents<T>::type type; };\n"
    "template <class T, size_t N> struct remove_all_extents<T[N]> { typedef typename "
    "remove_all_extents<T>::type type; };\n"
    "template <class T> struct add_const { typedef const T type; };\n"
    "template <class T> struct add_volatile { typedef volatile T type; };\n"
    "template <class T> struct add_cv { typedef const volatile T type; };\n"
    "template <class T> struct add_pointer { typedef typename remove_reference<T>::type *type; "
    "};\n"
    "template <class T> struct add_lvalue_reference { typedef T &type; };\n"
    "template <> struct add_lvalue_reference<void> { typedef void type; };\n"
    "template <class T> struct add_rvalue_reference { typedef T &&type; };\n"
    "template <> struct add_rvalue_reference<void> { typedef void type; };\n"
    "template <bool B, class T = void> struct enable_if {};\n"
    "template <class T> struct enable_if<true, T> { typedef T type; };\n"
    "template <bool B, class T, class F> struct conditional { typedef T type; };\n"
    "template <class T, class F> struct conditional<false, T, F> { typedef F type; };\n"
    "template <class T> struct underlying_type { typedef __underlying_type(T) type; };\n"
    "template <class T> typename add_rvalue_reference<T>::type declval() noexcept;\n"
    "template <class...> using void_t = void;\n"
    /* Type properties, from clang's builtins. */
    "template <class T, class U> struct is_same : false_type {};\n"
    "template <class T> struct is_same<T, T> : true_type {};\n"
    "template <class T> struct is_void : is_same<typename remove_cv<T>::type, void> {};\n"
    "template <class T> struct is_const : false_type {};\n"
    "template <class T> struct is_const<const T> : true_type {};\n"
    "template <class T> struct is_volatile : false_type {};\n"
    "template <class T> struct is_volatile<volatile T> : true_type {};\n"
    "template <class T> struct is_pointer : bool_constant<__is_pointer(T)> {};\n"
    "template <class T> struct is_reference : bool_constant<__is_reference(T)> {};\n"
    "template <class T> struct is_lvalue_reference : bool_constant<__is_lvalue_reference(T)> "
    "{};\n"
    "template <class T> struct is_rvalue_reference : bool_constant<__is_rvalue_reference(T)> "
    "{};\n"
    "template <class T> struct is_array : bool_constant<__is_array(T)> {};\n"
    "template <class T> struct is_integral : bool_constant<__is_integral(T)> {};\n"
    "template <class T> struct is_floating_point : bool_constant<__is_floating_point(T)> {};\n"
    "template <class T> struct is_arithmetic : bool_constant<__is_arithmetic(T)> {};\n"
    "template <class T> struct is_fundamental : bool_constant<__is_fundamental(T)> {};\n"
    "template <class T> struct is_scalar : bool_constant<__is_scalar(T)> {};\n"
    "template <class T> struct is_signed : bool_constant<__is_signed(T)> {};\n"
    "template <class T> struct is_unsigned : bool_constant<__is_unsigned(T)> {};\n"
    "template <class T> struct is_enum : bool_constant<__is_enum(T)> {};\n"
    "template <class T> struct is_class : bool_constant<__is_class(T)> {};\n"
    "template <class T> struct is_union : bool_constant<__is_union(T)> {};\n"
    "template <class T> struct is_function : bool_constant<__is_function(T)> {};\n"
    "template <class T> struct is_empty : bool_constant<__is_empty(T)> {};\n"
    "template <class T> struct is_trivial : bool_constant<__is_trivial(T)> {};\n"
    "template <class T> struct is_trivially_copyable : bool_constant<__is_trivially_copyable(T)> "
    "{};\n"
    "template <class T> struct is_standard_layout : bool_constant<__is_standard_layout(T)> {};\n"
    "template <class T, class... A> struct is_constructible : bool_constant<__is_constructible(T, "
    "A...)> {};\n"
    "template <class T> struct is_default_constructible : is_constructible<T> {};\n"
    "template <class B, class D> struct is_base_of : bool_constant<__is_base_of(B, D)> {};\n"
    "template <class F, class T> struct is_convertible : bool_constant<__is_convertible(F, T)> "
    "{};\n"
    "template <class T> struct make_signed { typedef __make_signed(T) type; };\n"
    "template <class T> struct make_unsigned { typedef __make_unsigned(T) type; };\n"
    "template <class T> struct decay { typedef __decay(T) type; };\n"
    "template <class T> struct alignment_of : integral_constant<size_t, alignof(T)> {};\n"
    "template <class T> struct rank : integral_constant<size_t, __array_rank(T)> {};\n"
    "template <class T, unsigned I = 0> struct extent : integral_constant<size_t, "
    "__array_extent(T, I)> {};\n"
    "template <class... T> struct common_type {};\n"
    "template <class T> struct common_type<T> { typedef typename decay<T>::type type; };\n"
    "template <class T, class U> struct common_type<T, U> { typedef typename "
    "decay<decltype(true ? declval<T>() : declval<U>())>::type type; };\n"
    "template <class T, class U, class... R> struct common_type<T, U, R...> : "
    "common_type<typename common_type<T, U>::type, R...> {};\n"
    /* The _t and _v spellings. */
    "template <class T> using remove_const_t = typename remove_const<T>::type;\n"
    "template <class T> using remove_volatile_t = typename remove_volatile<T>::type;\n"
    "template <class T> using remove_cv_t = typename remove_cv<T>::type;\n"
    "template <class T> using remove_reference_t = typename remove_reference<T>::type;\n"
    "template <class T> using remove_cvref_t = typename remove_cvref<T>::type;\n"
    "template <class T> using remove_pointer_t = typename remove_pointer<T>::type;\n"
    "template <class T> using remove_extent_t = typename remove_extent<T>::type;\n"
    "template <class T> using remove_all_extents_t = typename remove_all_extents<T>::type;\n"
    "template <class T> using add_const_t = typename add_const<T>::type;\n"
    "template <class T> using add_pointer_t = typename add_pointer<T>::type;\n"
    "template <class T> using add_lvalue_reference_t = typename add_lvalue_reference<T>::type;\n"
    "template <class T> using add_rvalue_reference_t = typename add_rvalue_reference<T>::type;\n"
    "template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;\n"
    "template <bool B, class T, class F> using conditional_t = typename conditional<B, T, "
    "F>::type;\n"
    "template <class T> using underlying_type_t = typename underlying_type<T>::type;\n"
    "template <class T> using make_signed_t = typename make_signed<T>::type;\n"
    "template <class T> using make_unsigned_t = typename make_unsigned<T>::type;\n"
    "template <class T> using decay_t = typename decay<T>::type;\n"
    "template <class... T> using common_type_t = typename common_type<T...>::type;\n"
    "template <class T> using type_identity_t = typename type_identity<T>::type;\n"
    "template <class T, class U> inline constexpr bool is_same_v = is_same<T, U>::value;\n"
    "template <class T> inline constexpr bool is_void_v = is_void<T>::value;\n"
    "template <class T> inline constexpr bool is_const_v = is_const<T>::value;\n"
    "template <class T> inline constexpr bool is_volatile_v = is_volatile<T>::value;\n"
    "template <class T> inline constexpr bool is_pointer_v = is_pointer<T>::value;\n"
    "template <class T> inline constexpr bool is_reference_v = is_reference<T>::value;\n"
    "template <class T> inline constexpr bool is_array_v = is_array<T>::value;\n"
    "template <class T> inline constexpr bool is_integral_v = is_integral<T>::value;\n"
    "template <class T> inline constexpr bool is_floating_point_v = "
    "is_floating_point<T>::value;\n"
    "template <class T> inline constexpr bool is_arithmetic_v = is_arithmetic<T>::value;\n"
    "template <class T> inline constexpr bool is_fundamental_v = is_fundamental<T>::value;\n"
    "template <class T> inline constexpr bool is_scalar_v = is_scalar<T>::value;\n"
    "template <class T> inline constexpr bool is_signed_v = is_signed<T>::value;\n"
    "template <class T> inline constexpr bool is_unsigned_v = is_unsigned<T>::value;\n"
    "template <class T> inline constexpr bool is_enum_v = is_enum<T>::value;\n"
    "template <class T> inline constexpr bool is_class_v = is_class<T>::value;\n"
    "template <class T> inline constexpr bool is_union_v = is_union<T>::value;\n"
    "template <class T> inline constexpr bool is_function_v = is_function<T>::value;\n"
    "template <class T> inline constexpr bool is_empty_v = is_empty<T>::value;\n"
    "template <class T> inline constexpr bool is_trivial_v = is_trivial<T>::value;\n"
    "template <class T> inline constexpr bool is_trivially_copyable_v = "
    "is_trivially_copyable<T>::value;\n"
    "template <class T> inline constexpr bool is_standard_layout_v = "
    "is_standard_layout<T>::value;\n"
    "template <class T, class... A> inline constexpr bool is_constructible_v = "
    "is_constructible<T, A...>::value;\n"
    "template <class B, class D> inline constexpr bool is_base_of_v = is_base_of<B, D>::value;\n"
    "template <class F, class T> inline constexpr bool is_convertible_v = is_convertible<F, "
    "T>::value;\n"
    "template <class T> inline constexpr size_t rank_v = rank<T>::value;\n"
    "template <class T, unsigned I = 0> inline constexpr size_t extent_v = extent<T, I>::value;\n"
    "template <class T> inline constexpr size_t alignment_of_v = alignment_of<T>::value;\n"
    "constexpr bool is_constant_evaluated() noexcept { return __builtin_is_constant_evaluated(); "
    "}\n"
    "}\n" HD_END "#endif\n";

static const char h_utility[] =
    "#ifndef __KCC_UTILITY\n#define __KCC_UTILITY\n"
    "#include <type_traits>\n" HD_BEGIN "namespace std {\n"
    "template <class T> constexpr typename remove_reference<T>::type &&move(T &&__t) noexcept { "
    "return static_cast<typename remove_reference<T>::type &&>(__t); }\n"
    "template <class T> constexpr T &&forward(typename remove_reference<T>::type &__t) noexcept "
    "{ return static_cast<T &&>(__t); }\n"
    "template <class T> constexpr T &&forward(typename remove_reference<T>::type &&__t) "
    "noexcept { return static_cast<T &&>(__t); }\n"
    "template <class T> constexpr void swap(T &__a, T &__b) noexcept { T __t = move(__a); __a = "
    "move(__b); __b = move(__t); }\n"
    "template <class T, size_t N> constexpr void swap(T (&__a)[N], T (&__b)[N]) noexcept { for "
    "(size_t __i = 0; __i < N; __i++) swap(__a[__i], __b[__i]); }\n"
    "template <class T, class U = T> constexpr T exchange(T &__o, U &&__n) { T __old = "
    "move(__o); __o = forward<U>(__n); return __old; }\n"
    "template <class T> constexpr typename add_const<T>::type &as_const(T &__t) noexcept { "
    "return __t; }\n"
    "template <class T, T... I> struct integer_sequence { typedef T value_type; static "
    "constexpr size_t size() noexcept { return sizeof...(I); } };\n"
    "template <size_t... I> using index_sequence = integer_sequence<size_t, I...>;\n"
    "template <class T, T N> using make_integer_sequence = __make_integer_seq<integer_sequence, "
    "T, N>;\n"
    "template <size_t N> using make_index_sequence = make_integer_sequence<size_t, N>;\n"
    "template <class... T> using index_sequence_for = make_index_sequence<sizeof...(T)>;\n"
    "template <class T1, class T2> struct pair { typedef T1 first_type; typedef T2 second_type; "
    "T1 first; T2 second; constexpr pair() : first(), second() {} constexpr pair(const T1 &__a, "
    "const T2 &__b) : first(__a), second(__b) {} };\n"
    "template <class T1, class T2> constexpr pair<T1, T2> make_pair(T1 __a, T2 __b) { return "
    "pair<T1, T2>(__a, __b); }\n"
    "}\n" HD_END "#endif\n";

static const char h_algorithm[] =
    "#ifndef __KCC_ALGORITHM\n#define __KCC_ALGORITHM\n"
    "#include <utility>\n" HD_BEGIN "namespace std {\n"
    "template <class T> constexpr const T &min(const T &__a, const T &__b) { return __b < __a ? "
    "__b : __a; }\n"
    "template <class T> constexpr const T &max(const T &__a, const T &__b) { return __a < __b ? "
    "__b : __a; }\n"
    "template <class T, class C> constexpr const T &min(const T &__a, const T &__b, C __c) { "
    "return __c(__b, __a) ? __b : __a; }\n"
    "template <class T, class C> constexpr const T &max(const T &__a, const T &__b, C __c) { "
    "return __c(__a, __b) ? __b : __a; }\n"
    "template <class T> constexpr const T &clamp(const T &__v, const T &__lo, const T &__hi) { "
    "return __v < __lo ? __lo : __hi < __v ? __hi : __v; }\n"
    "}\n" HD_END "#endif\n";

/* numeric_limits<T> for every arithmetic type: the members a kernel asks of it. */
static void limits_for(KBuf *b, const char *t, const char *lo, const char *hi, const char *low,
                       int digits, int digits10, bool is_signed, bool is_int) {
  kbuf_printf(b,
              "template <> struct numeric_limits<%s> { static constexpr bool is_specialized = "
              "true; static constexpr bool is_signed = %s; static constexpr bool is_integer = "
              "%s; static constexpr bool is_exact = %s; static constexpr bool has_infinity = %s; "
              "static constexpr bool has_quiet_NaN = %s; static constexpr bool is_iec559 = %s; "
              "static constexpr int radix = 2; static constexpr int digits = %d; static constexpr "
              "int digits10 = %d; "
              "static constexpr %s min() noexcept { return %s; } static constexpr %s max() "
              "noexcept { return %s; } static constexpr %s lowest() noexcept { return %s; } ",
              t, is_signed ? "true" : "false", is_int ? "true" : "false", is_int ? "true" : "false",
              is_int ? "false" : "true", is_int ? "false" : "true", is_int ? "false" : "true",
              digits, digits10, t, lo, t, hi, t, low);
  if (is_int)
    kbuf_printf(b,
                "static constexpr %s epsilon() noexcept { return 0; } static constexpr %s "
                "infinity() noexcept { return 0; } static constexpr %s quiet_NaN() noexcept { "
                "return 0; } static constexpr %s denorm_min() noexcept { return 0; } };\n",
                t, t, t, t);
  else {
    const char *p = strcmp(t, "float") ? "__DBL" : "__FLT";
    const char *s = strcmp(t, "float") ? "" : "f";
    kbuf_printf(b,
                "static constexpr %s epsilon() noexcept { return %s_EPSILON__; } static constexpr "
                "%s infinity() noexcept { return __builtin_huge_val%s(); } static constexpr %s "
                "quiet_NaN() noexcept { return __builtin_nan%s(\"\"); } static constexpr %s "
                "signaling_NaN() noexcept { return __builtin_nans%s(\"\"); } static constexpr %s "
                "denorm_min() noexcept { return %s_DENORM_MIN__; } static constexpr %s "
                "round_error() noexcept { return 0.5; } };\n",
                t, p, t, s, t, s, t, s, t, p, t);
  }
}

static char *build_limits(void) {
  static const struct {
    const char *t, *min, *max;
    int bits;
    bool is_signed;
  } ints[] = {
      {"bool", "false", "true", 1, false},
      {"char", "(-128)", "127", 7, true},
      {"signed char", "(-128)", "127", 7, true},
      {"unsigned char", "0", "255", 8, false},
      {"short", "(-32767 - 1)", "32767", 15, true},
      {"unsigned short", "0", "65535", 16, false},
      {"int", "(-2147483647 - 1)", "2147483647", 31, true},
      {"unsigned int", "0", "4294967295u", 32, false},
      {"long", "(-9223372036854775807L - 1)", "9223372036854775807L", 63, true},
      {"unsigned long", "0", "18446744073709551615ul", 64, false},
      {"long long", "(-9223372036854775807LL - 1)", "9223372036854775807LL", 63, true},
      {"unsigned long long", "0", "18446744073709551615ull", 64, false},
  };
  KBuf b = {0};
  kbuf_printf(&b, "#ifndef __KCC_LIMITS\n#define __KCC_LIMITS\n" HD_BEGIN "namespace std {\n"
                  "template <class T> struct numeric_limits { static constexpr bool "
                  "is_specialized = false; };\n"
                  "template <class T> struct numeric_limits<const T> : numeric_limits<T> {};\n"
                  "template <class T> struct numeric_limits<volatile T> : numeric_limits<T> {};\n"
                  "template <class T> struct numeric_limits<const volatile T> : "
                  "numeric_limits<T> {};\n");
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) /* digits10: floor(digits * log10(2)). */
    limits_for(&b, ints[i].t, ints[i].min, ints[i].max, ints[i].min, ints[i].bits,
               ints[i].bits * 30103 / 100000, ints[i].is_signed, true);
  limits_for(&b, "float", "__FLT_MIN__", "__FLT_MAX__", "-__FLT_MAX__", 24, 6, true, false);
  limits_for(&b, "double", "__DBL_MIN__", "__DBL_MAX__", "-__DBL_MAX__", 53, 15, true, false);
  kbuf_printf(&b, "}\n" HD_END "#endif\n");
  return b.data;
}

/* <cmath>: math.h, and each of its functions in std:: (with their float overloads). */
static char *build_cmath(void) {
  KBuf b = {0};
  kbuf_printf(&b, "#pragma once\n#include <math.h>\n#include <cstdlib>\nnamespace std {\n");
  for (int i = 0; fe_math_fn_name(i); i++) {
    const char *f = fe_math_fn_name(i);
    kbuf_printf(&b, "using ::%s;\nusing ::%sf;\n", f, f);
  }
  kbuf_printf(&b, "using ::isnan;\nusing ::isinf;\nusing ::isfinite;\n" HD_BEGIN
                  "inline float abs(float __x) { return ::fabsf(__x); }\n"
                  "inline double abs(double __x) { return ::fabs(__x); }\n" HD_END "}\n");
  return b.data;
}

static FeVFile files[16];
static int nfiles;

const FeVFile *fe_cxx_vfiles(int *n) {
  if (!nfiles) {
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstddef", h_cstddef};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstdint", h_cstdint};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstdlib", h_cstdlib};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cmath", build_cmath()};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstdio", "#include <stdio.h>\n"};
    files[nfiles++] = (FeVFile){FE_INCDIR "/climits", "#include <limits.h>\n"};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cfloat", "#include <float.h>\n"};
    files[nfiles++] = (FeVFile){FE_INCDIR "/type_traits", h_type_traits};
    files[nfiles++] = (FeVFile){FE_INCDIR "/utility", h_utility};
    files[nfiles++] = (FeVFile){FE_INCDIR "/algorithm", h_algorithm};
    files[nfiles++] = (FeVFile){FE_INCDIR "/limits", build_limits()};
  }
  *n = nfiles;
  return files;
}
