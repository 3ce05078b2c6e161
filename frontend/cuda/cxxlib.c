/* cxxlib.c — CUDA input: the part of the C++ standard library that device code can use.
 *
 * kcc reads no system header (docs/design.md, "Host code in CUDA input"), so a kernel file's
 * <vector> or <iostream> is simply not found, which only host code notices. Device code may
 * use what CUDA lets it: the C library's math through <cmath> (std::sqrt...), and what is
 * constexpr in C++17, which clang makes callable from device code (std::min, std::array,
 * std::numeric_limits, <type_traits>...; nvcc with --expt-relaxed-constexpr). Those headers
 * are written here, as small as the standard allows, with clang's type-trait builtins doing
 * the work; everything is __host__ __device__ so that host code sees the same declarations,
 * but for what runs on the host only in CUDA (std::sort, std::array::at...), which is declared
 * for host code and marked unavailable, with the reason, for device code. cuda.c's prelude
 * includes what nvcc's implicit cuda_runtime.h brings (docs/dialect.md says which). */
#include <stdio.h>
#include <string.h>

#include "fe_cuda.h"

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

/* <cstring>: the prelude's device memcpy and memset, in std:: too. */
static const char h_cstring[] = "#pragma once\n#include <cstddef>\n"
                                "namespace std {\nusing ::memcpy;\nusing ::memset;\n}\n";

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
    "#include <type_traits>\n#include <initializer_list>\n" HD_BEGIN "namespace std {\n"
    "template <class T> struct tuple_size;\n"
    "template <class T> struct tuple_size<const T> : integral_constant<size_t, "
    "tuple_size<T>::value> {};\n"
    "template <size_t I, class T> struct tuple_element;\n"
    "template <size_t I, class T> struct tuple_element<I, const T> { typedef const typename "
    "tuple_element<I, T>::type type; };\n"
    "template <size_t I, class T> using tuple_element_t = typename tuple_element<I, T>::type;\n"
    "template <class T> inline constexpr size_t tuple_size_v = tuple_size<T>::value;\n"
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
    "const T2 &__b) : first(__a), second(__b) {} template <class U1, class U2> constexpr "
    "pair(const pair<U1, U2> &__p) : first(__p.first), second(__p.second) {} constexpr void "
    "swap(pair &__p) { std::swap(first, __p.first); std::swap(second, __p.second); } };\n"
    "template <class T1, class T2> constexpr bool operator==(const pair<T1, T2> &__a, const "
    "pair<T1, T2> &__b) { return __a.first == __b.first && __a.second == __b.second; }\n"
    "template <class T1, class T2> constexpr bool operator!=(const pair<T1, T2> &__a, const "
    "pair<T1, T2> &__b) { return !(__a == __b); }\n"
    "template <class T1, class T2> constexpr bool operator<(const pair<T1, T2> &__a, const "
    "pair<T1, T2> &__b) { return __a.first < __b.first || (!(__b.first < __a.first) && "
    "__a.second < __b.second); }\n"
    "template <class T1, class T2> struct tuple_size<pair<T1, T2>> : integral_constant<size_t, "
    "2> {};\n"
    "template <class T1, class T2> struct tuple_element<0, pair<T1, T2>> { typedef T1 type; "
    "};\n"
    "template <class T1, class T2> struct tuple_element<1, pair<T1, T2>> { typedef T2 type; "
    "};\n"
    "template <size_t I, class T1, class T2> constexpr typename tuple_element<I, pair<T1, "
    "T2>>::type &get(pair<T1, T2> &__p) noexcept { if constexpr (I == 0) return __p.first; "
    "else return __p.second; }\n"
    "template <size_t I, class T1, class T2> constexpr const typename tuple_element<I, pair<T1, "
    "T2>>::type &get(const pair<T1, T2> &__p) noexcept { if constexpr (I == 0) return "
    "__p.first; else return __p.second; }\n"
    "template <size_t I, class T1, class T2> constexpr typename tuple_element<I, pair<T1, "
    "T2>>::type &&get(pair<T1, T2> &&__p) noexcept { if constexpr (I == 0) return "
    "static_cast<T1 &&>(__p.first); else return static_cast<T2 &&>(__p.second); }\n"
    "template <class T1, class T2> constexpr pair<T1, T2> make_pair(T1 __a, T2 __b) { return "
    "pair<T1, T2>(__a, __b); }\n"
    "}\n" HD_END "#endif\n";

/* std::min and std::max of two values: libstdc++'s <cmath> brings them (bits/stl_algobase.h),
 * so nvcc's cuda_runtime.h makes them visible without an #include; the prelude includes this
 * part alone, as the rest of <algorithm> is not there without one. */
static const char h_algobase[] =
    "#ifndef __KCC_ALGOBASE\n#define __KCC_ALGOBASE\n" HD_BEGIN "namespace std {\n"
    "template <class T> constexpr const T &min(const T &__a, const T &__b) { return __b < __a ? "
    "__b : __a; }\n"
    "template <class T> constexpr const T &max(const T &__a, const T &__b) { return __a < __b ? "
    "__b : __a; }\n"
    "template <class T, class C> constexpr const T &min(const T &__a, const T &__b, C __c) { "
    "return __c(__b, __a) ? __b : __a; }\n"
    "template <class T, class C> constexpr const T &max(const T &__a, const T &__b, C __c) { "
    "return __c(__a, __b) ? __b : __a; }\n"
    "}\n" HD_END "#endif\n";

/* <algorithm>: what is constexpr in C++17, which device code may call (nvcc with
 * --expt-relaxed-constexpr; clang makes constexpr functions __host__ __device__). The rest
 * (sort, copy, fill, find...) runs on the host in CUDA and is declared __host__ here, so that
 * host code reads and device code gets "reference to __host__ function". */
static const char h_algorithm[] =
    "#ifndef __KCC_ALGORITHM\n#define __KCC_ALGORITHM\n"
    "#include <__kcc_algobase>\n#include <utility>\n#include <initializer_list>\n" HD_BEGIN
    "namespace std {\n"
    "template <class T> constexpr T min(initializer_list<T> __l) { const T *__p = __l.begin(); "
    "T __r = *__p; for (; __p != __l.end(); ++__p) if (*__p < __r) __r = *__p; return __r; }\n"
    "template <class T> constexpr T max(initializer_list<T> __l) { const T *__p = __l.begin(); "
    "T __r = *__p; for (; __p != __l.end(); ++__p) if (__r < *__p) __r = *__p; return __r; }\n"
    "template <class T, class C> constexpr T min(initializer_list<T> __l, C __c) { const T *__p "
    "= __l.begin(); T __r = *__p; for (; __p != __l.end(); ++__p) if (__c(*__p, __r)) __r = "
    "*__p; return __r; }\n"
    "template <class T, class C> constexpr T max(initializer_list<T> __l, C __c) { const T *__p "
    "= __l.begin(); T __r = *__p; for (; __p != __l.end(); ++__p) if (__c(__r, *__p)) __r = "
    "*__p; return __r; }\n"
    "template <class T> constexpr pair<const T &, const T &> minmax(const T &__a, const T &__b) "
    "{ return __b < __a ? pair<const T &, const T &>(__b, __a) : pair<const T &, const T "
    "&>(__a, __b); }\n"
    "template <class T, class C> constexpr pair<const T &, const T &> minmax(const T &__a, const "
    "T &__b, C __c) { return __c(__b, __a) ? pair<const T &, const T &>(__b, __a) : pair<const "
    "T &, const T &>(__a, __b); }\n"
    "template <class T> constexpr pair<T, T> minmax(initializer_list<T> __l) { return "
    "pair<T, T>(min(__l), max(__l)); }\n"
    "template <class I> constexpr I min_element(I __f, I __l) { I __r = __f; if (__f != __l) "
    "for (++__f; __f != __l; ++__f) if (*__f < *__r) __r = __f; return __r; }\n"
    "template <class I, class C> constexpr I min_element(I __f, I __l, C __c) { I __r = __f; if "
    "(__f != __l) for (++__f; __f != __l; ++__f) if (__c(*__f, *__r)) __r = __f; return __r; "
    "}\n"
    "template <class I> constexpr I max_element(I __f, I __l) { I __r = __f; if (__f != __l) "
    "for (++__f; __f != __l; ++__f) if (*__r < *__f) __r = __f; return __r; }\n"
    "template <class I, class C> constexpr I max_element(I __f, I __l, C __c) { I __r = __f; if "
    "(__f != __l) for (++__f; __f != __l; ++__f) if (__c(*__r, *__f)) __r = __f; return __r; "
    "}\n"
    "template <class I> constexpr pair<I, I> minmax_element(I __f, I __l) { return pair<I, "
    "I>(min_element(__f, __l), max_element(__f, __l)); }\n"
    "template <class T> constexpr const T &clamp(const T &__v, const T &__lo, const T &__hi) { "
    "return __v < __lo ? __lo : __hi < __v ? __hi : __v; }\n"
    "template <class T, class C> constexpr const T &clamp(const T &__v, const T &__lo, const T "
    "&__hi, C __c) { return __c(__v, __lo) ? __lo : __c(__hi, __v) ? __hi : __v; }\n"
    "}\n" HD_END "namespace std {\n"
    /* What the host's algorithm returns converts to what host code takes it as. */
    "#ifndef __KCC_HOST_RESULT\n#define __KCC_HOST_RESULT\nstruct __kcc_host_result { "
    "template <class T> operator T() const; };\n#endif\n"
    /* For device code, a declaration that says why (it is the better candidate there, the
       host one for host code). */
    "#define __KCC_HOSTALG(n) template <class... A> __attribute__((host)) __kcc_host_result "
    "n(A &&...); "
    "template <class... A> __attribute__((device)) void n(A &&...) "
    "__attribute__((unavailable(\"std::\" #n \" is host code in CUDA (not constexpr in C++17); "
    "device code has <algorithm>'s constexpr part: min, max, minmax, clamp, min_element, "
    "max_element, minmax_element\")));\n"
    "__KCC_HOSTALG(sort) __KCC_HOSTALG(stable_sort) __KCC_HOSTALG(partial_sort) "
    "__KCC_HOSTALG(nth_element) __KCC_HOSTALG(copy) __KCC_HOSTALG(copy_n) "
    "__KCC_HOSTALG(copy_if) __KCC_HOSTALG(copy_backward) __KCC_HOSTALG(move_backward) "
    "__KCC_HOSTALG(fill) __KCC_HOSTALG(fill_n) __KCC_HOSTALG(transform) __KCC_HOSTALG(generate) "
    "__KCC_HOSTALG(generate_n) __KCC_HOSTALG(for_each) __KCC_HOSTALG(find) "
    "__KCC_HOSTALG(find_if) __KCC_HOSTALG(find_if_not) __KCC_HOSTALG(count) "
    "__KCC_HOSTALG(count_if) __KCC_HOSTALG(equal) __KCC_HOSTALG(mismatch) "
    "__KCC_HOSTALG(all_of) __KCC_HOSTALG(any_of) __KCC_HOSTALG(none_of) "
    "__KCC_HOSTALG(reverse) __KCC_HOSTALG(rotate) __KCC_HOSTALG(unique) __KCC_HOSTALG(remove) "
    "__KCC_HOSTALG(remove_if) __KCC_HOSTALG(replace) __KCC_HOSTALG(replace_if) "
    "__KCC_HOSTALG(lower_bound) __KCC_HOSTALG(upper_bound) __KCC_HOSTALG(equal_range) "
    "__KCC_HOSTALG(binary_search) __KCC_HOSTALG(merge) __KCC_HOSTALG(partition) "
    "__KCC_HOSTALG(is_sorted) __KCC_HOSTALG(shuffle) __KCC_HOSTALG(iter_swap) "
    "__KCC_HOSTALG(swap_ranges) __KCC_HOSTALG(search) __KCC_HOSTALG(adjacent_find) "
    "__KCC_HOSTALG(lexicographical_compare) __KCC_HOSTALG(make_heap) __KCC_HOSTALG(push_heap) "
    "__KCC_HOSTALG(pop_heap) __KCC_HOSTALG(sort_heap)\n"
    "#undef __KCC_HOSTALG\n}\n#endif\n";

/* <numeric>: gcd and lcm are constexpr in C++17, so device code's; the algorithms
 * (accumulate, iota, inner_product, partial_sum...) are constexpr only from C++20 and host code
 * in CUDA, refused in device code as <algorithm>'s are. */
static const char h_numeric[] =
    "#ifndef __KCC_NUMERIC\n#define __KCC_NUMERIC\n"
    "#include <type_traits>\n" HD_BEGIN "namespace std {\n"
    "template <class M, class N> constexpr common_type_t<M, N> gcd(M __m, N __n) { "
    "common_type_t<M, N> __a = __m < 0 ? -__m : __m, __b = __n < 0 ? -__n : __n; while (__b) { "
    "common_type_t<M, N> __t = __a % __b; __a = __b; __b = __t; } return __a; }\n"
    "template <class M, class N> constexpr common_type_t<M, N> lcm(M __m, N __n) { if (__m == 0 "
    "|| __n == 0) return 0; common_type_t<M, N> __a = __m < 0 ? -__m : __m, __b = __n < 0 ? "
    "-__n : __n; return __a / gcd(__a, __b) * __b; }\n"
    "}\n" HD_END "namespace std {\n"
    "#ifndef __KCC_HOST_RESULT\n#define __KCC_HOST_RESULT\nstruct __kcc_host_result { "
    "template <class T> operator T() const; };\n#endif\n"
    "#define __KCC_HOSTALG(n) template <class... A> __attribute__((host)) __kcc_host_result "
    "n(A &&...); template <class... A> __attribute__((device)) void n(A &&...) "
    "__attribute__((unavailable(\"std::\" #n \" is host code in CUDA (not constexpr in C++17); "
    "device code has <numeric>'s gcd and lcm\")));\n"
    "__KCC_HOSTALG(accumulate) __KCC_HOSTALG(reduce) __KCC_HOSTALG(iota) "
    "__KCC_HOSTALG(inner_product) __KCC_HOSTALG(transform_reduce) __KCC_HOSTALG(partial_sum) "
    "__KCC_HOSTALG(inclusive_scan) __KCC_HOSTALG(exclusive_scan) "
    "__KCC_HOSTALG(adjacent_difference)\n"
    "#undef __KCC_HOSTALG\n}\n#endif\n";

static const char h_initializer_list[] =
    "#ifndef __KCC_INITIALIZER_LIST\n#define __KCC_INITIALIZER_LIST\n"
    "#include <cstddef>\n" HD_BEGIN "namespace std {\n"
    /* The layout clang builds a braced list into: a pointer and a length. */
    "template <class E> class initializer_list { const E *__b; size_t __n; constexpr "
    "initializer_list(const E *__p, size_t __k) noexcept : __b(__p), __n(__k) {} public: "
    "typedef E value_type; typedef const E &reference; typedef const E &const_reference; "
    "typedef size_t size_type; typedef const E *iterator; typedef const E *const_iterator; "
    "constexpr initializer_list() noexcept : __b(nullptr), __n(0) {} constexpr size_t size() "
    "const noexcept { return __n; } constexpr const E *begin() const noexcept { return __b; } "
    "constexpr const E *end() const noexcept { return __b + __n; } };\n"
    "template <class E> constexpr const E *begin(initializer_list<E> __l) noexcept { return "
    "__l.begin(); }\n"
    "template <class E> constexpr const E *end(initializer_list<E> __l) noexcept { return "
    "__l.end(); }\n"
    "}\n" HD_END "#endif\n";

/* <array>: the aggregate, every member but at() constexpr as in C++17 (and the comparisons,
 * constexpr in C++20). at() throws out_of_range, which device code cannot: it is __host__. */
static const char h_array[] =
    "#ifndef __KCC_ARRAY\n#define __KCC_ARRAY\n"
    "#include <utility>\n#include <iterator>\n" HD_BEGIN "namespace std {\n"
    "template <class T, size_t N> struct array {\n"
    "  typedef T value_type; typedef size_t size_type; typedef ptrdiff_t difference_type;\n"
    "  typedef T &reference; typedef const T &const_reference; typedef T *pointer;\n"
    "  typedef const T *const_pointer; typedef T *iterator; typedef const T *const_iterator;\n"
    "  typedef std::reverse_iterator<iterator> reverse_iterator;\n"
    "  typedef std::reverse_iterator<const_iterator> const_reverse_iterator;\n"
    "  T __elems[N ? N : 1];\n"
    "  constexpr T &operator[](size_t __i) noexcept { return __elems[__i]; }\n"
    "  constexpr const T &operator[](size_t __i) const noexcept { return __elems[__i]; }\n" HD_END
    "  __attribute__((host)) T &at(size_t __i);\n"
    "  __attribute__((host)) const T &at(size_t __i) const;\n"
    "  __attribute__((device, unavailable(\"std::array::at throws out_of_range, which device "
    "code cannot: index with []\"))) T &at(size_t __i);\n"
    "  __attribute__((device, unavailable(\"std::array::at throws out_of_range, which device "
    "code cannot: index with []\"))) const T &at(size_t __i) const;\n" HD_BEGIN
    "  constexpr T &front() noexcept { return __elems[0]; }\n"
    "  constexpr const T &front() const noexcept { return __elems[0]; }\n"
    "  constexpr T &back() noexcept { return __elems[N ? N - 1 : 0]; }\n"
    "  constexpr const T &back() const noexcept { return __elems[N ? N - 1 : 0]; }\n"
    "  constexpr T *data() noexcept { return __elems; }\n"
    "  constexpr const T *data() const noexcept { return __elems; }\n"
    "  constexpr T *begin() noexcept { return __elems; }\n"
    "  constexpr const T *begin() const noexcept { return __elems; }\n"
    "  constexpr const T *cbegin() const noexcept { return __elems; }\n"
    "  constexpr T *end() noexcept { return __elems + N; }\n"
    "  constexpr const T *end() const noexcept { return __elems + N; }\n"
    "  constexpr const T *cend() const noexcept { return __elems + N; }\n"
    "  constexpr reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }\n"
    "  constexpr const_reverse_iterator rbegin() const noexcept { return "
    "const_reverse_iterator(end()); }\n"
    "  constexpr reverse_iterator rend() noexcept { return reverse_iterator(begin()); }\n"
    "  constexpr const_reverse_iterator rend() const noexcept { return "
    "const_reverse_iterator(begin()); }\n"
    "  constexpr const_reverse_iterator crbegin() const noexcept { return rbegin(); }\n"
    "  constexpr const_reverse_iterator crend() const noexcept { return rend(); }\n"
    "  constexpr size_t size() const noexcept { return N; }\n"
    "  constexpr size_t max_size() const noexcept { return N; }\n"
    "  constexpr bool empty() const noexcept { return N == 0; }\n"
    "  constexpr void fill(const T &__v) { for (size_t __i = 0; __i < N; __i++) __elems[__i] = "
    "__v; }\n"
    "  constexpr void swap(array &__o) noexcept { for (size_t __i = 0; __i < N; __i++) "
    "std::swap(__elems[__i], __o.__elems[__i]); }\n"
    "};\n"
    "template <class T, class... U> array(T, U...) -> array<T, 1 + sizeof...(U)>;\n"
    "template <class T, size_t N> constexpr bool operator==(const array<T, N> &__a, const "
    "array<T, N> &__b) { for (size_t __i = 0; __i < N; __i++) if (!(__a[__i] == __b[__i])) "
    "return false; return true; }\n"
    "template <class T, size_t N> constexpr bool operator!=(const array<T, N> &__a, const "
    "array<T, N> &__b) { return !(__a == __b); }\n"
    "template <class T, size_t N> constexpr bool operator<(const array<T, N> &__a, const "
    "array<T, N> &__b) { for (size_t __i = 0; __i < N; __i++) { if (__a[__i] < __b[__i]) return "
    "true; if (__b[__i] < __a[__i]) return false; } return false; }\n"
    "template <class T, size_t N> constexpr bool operator>(const array<T, N> &__a, const "
    "array<T, N> &__b) { return __b < __a; }\n"
    "template <class T, size_t N> constexpr bool operator<=(const array<T, N> &__a, const "
    "array<T, N> &__b) { return !(__b < __a); }\n"
    "template <class T, size_t N> constexpr bool operator>=(const array<T, N> &__a, const "
    "array<T, N> &__b) { return !(__a < __b); }\n"
    "template <class T, size_t N> constexpr void swap(array<T, N> &__a, array<T, N> &__b) "
    "noexcept { __a.swap(__b); }\n"
    "template <class T, size_t N> struct tuple_size<array<T, N>> : integral_constant<size_t, "
    "N> {};\n"
    "template <size_t I, class T, size_t N> struct tuple_element<I, array<T, N>> { typedef T "
    "type; };\n"
    "template <size_t I, class T, size_t N> constexpr T &get(array<T, N> &__a) noexcept { "
    "static_assert(I < N, \"array index out of bounds\"); return __a.__elems[I]; }\n"
    "template <size_t I, class T, size_t N> constexpr const T &get(const array<T, N> &__a) "
    "noexcept { static_assert(I < N, \"array index out of bounds\"); return __a.__elems[I]; }\n"
    "template <size_t I, class T, size_t N> constexpr T &&get(array<T, N> &&__a) noexcept { "
    "static_assert(I < N, \"array index out of bounds\"); return std::move(__a.__elems[I]); }\n"
    "}\n" HD_END "#endif\n";

/* <iterator>: the tags and traits algorithms dispatch on, reverse_iterator, and the
 * constexpr helpers (begin, end, size, data, advance, next, prev, distance). */
static const char h_iterator[] =
    "#ifndef __KCC_ITERATOR\n#define __KCC_ITERATOR\n"
    "#include <type_traits>\n#include <initializer_list>\n" HD_BEGIN "namespace std {\n"
    "struct input_iterator_tag {};\nstruct output_iterator_tag {};\n"
    "struct forward_iterator_tag : input_iterator_tag {};\n"
    "struct bidirectional_iterator_tag : forward_iterator_tag {};\n"
    "struct random_access_iterator_tag : bidirectional_iterator_tag {};\n"
    "template <class I, class = void> struct __kcc_iter_traits {};\n"
    "template <class I> struct __kcc_iter_traits<I, void_t<typename I::iterator_category, "
    "typename I::value_type, typename I::difference_type, typename I::pointer, typename "
    "I::reference>> { typedef typename I::iterator_category iterator_category; typedef typename "
    "I::value_type value_type; typedef typename I::difference_type difference_type; typedef "
    "typename I::pointer pointer; typedef typename I::reference reference; };\n"
    "template <class I> struct iterator_traits : __kcc_iter_traits<I> {};\n"
    "template <class T> struct iterator_traits<T *> { typedef random_access_iterator_tag "
    "iterator_category; typedef typename remove_cv<T>::type value_type; typedef ptrdiff_t "
    "difference_type; typedef T *pointer; typedef T &reference; };\n"
    "template <class C, class T, class D = ptrdiff_t, class P = T *, class R = T &> struct "
    "iterator { typedef C iterator_category; typedef T value_type; typedef D difference_type; "
    "typedef P pointer; typedef R reference; };\n"
    "template <class I> constexpr typename iterator_traits<I>::difference_type distance(I __f, I "
    "__l) { typename iterator_traits<I>::difference_type __n = 0; if constexpr "
    "(is_base_of<random_access_iterator_tag, typename "
    "iterator_traits<I>::iterator_category>::value) __n = __l - __f; else for (; __f != __l; "
    "++__f) ++__n; return __n; }\n"
    "template <class I, class D> constexpr void advance(I &__i, D __n) { if constexpr "
    "(is_base_of<random_access_iterator_tag, typename "
    "iterator_traits<I>::iterator_category>::value) __i += __n; else { for (; __n > 0; --__n) "
    "++__i; for (; __n < 0; ++__n) --__i; } }\n"
    /* By value, not through advance's reference: a pointer's address passed on is one more
       pointer whose memory OpenCL C and SPIR-V must know. */
    "template <class I> constexpr I next(I __i, typename iterator_traits<I>::difference_type "
    "__n = 1) { if constexpr (is_base_of<random_access_iterator_tag, typename "
    "iterator_traits<I>::iterator_category>::value) return __i + __n; else { for (; __n > 0; "
    "--__n) ++__i; for (; __n < 0; ++__n) --__i; return __i; } }\n"
    "template <class I> constexpr I prev(I __i, typename iterator_traits<I>::difference_type "
    "__n = 1) { return next(__i, -__n); }\n"
    "template <class I> class reverse_iterator { protected: I current; public: typedef I "
    "iterator_type; typedef typename iterator_traits<I>::iterator_category iterator_category; "
    "typedef typename iterator_traits<I>::value_type value_type; typedef typename "
    "iterator_traits<I>::difference_type difference_type; typedef typename "
    "iterator_traits<I>::pointer pointer; typedef typename iterator_traits<I>::reference "
    "reference;\n"
    "  constexpr reverse_iterator() : current() {}\n"
    "  constexpr explicit reverse_iterator(I __x) : current(__x) {}\n"
    "  template <class U> constexpr reverse_iterator(const reverse_iterator<U> &__o) : "
    "current(__o.base()) {}\n"
    "  constexpr I base() const { return current; }\n"
    "  constexpr reference operator*() const { I __t = current; return *--__t; }\n"
    "  constexpr reference operator[](difference_type __n) const { return *(*this + __n); }\n"
    "  constexpr reverse_iterator &operator++() { --current; return *this; }\n"
    "  constexpr reverse_iterator operator++(int) { reverse_iterator __t = *this; --current; "
    "return __t; }\n"
    "  constexpr reverse_iterator &operator--() { ++current; return *this; }\n"
    "  constexpr reverse_iterator operator--(int) { reverse_iterator __t = *this; ++current; "
    "return __t; }\n"
    "  constexpr reverse_iterator operator+(difference_type __n) const { return "
    "reverse_iterator(current - __n); }\n"
    "  constexpr reverse_iterator operator-(difference_type __n) const { return "
    "reverse_iterator(current + __n); }\n"
    "  constexpr reverse_iterator &operator+=(difference_type __n) { current -= __n; return "
    "*this; }\n"
    "  constexpr reverse_iterator &operator-=(difference_type __n) { current += __n; return "
    "*this; }\n"
    "};\n"
    "template <class A, class B> constexpr bool operator==(const reverse_iterator<A> &__a, const "
    "reverse_iterator<B> &__b) { return __a.base() == __b.base(); }\n"
    "template <class A, class B> constexpr bool operator!=(const reverse_iterator<A> &__a, const "
    "reverse_iterator<B> &__b) { return __a.base() != __b.base(); }\n"
    "template <class A, class B> constexpr bool operator<(const reverse_iterator<A> &__a, const "
    "reverse_iterator<B> &__b) { return __b.base() < __a.base(); }\n"
    "template <class A, class B> constexpr auto operator-(const reverse_iterator<A> &__a, const "
    "reverse_iterator<B> &__b) -> decltype(__b.base() - __a.base()) { return __b.base() - "
    "__a.base(); }\n"
    "template <class I> constexpr reverse_iterator<I> make_reverse_iterator(I __i) { return "
    "reverse_iterator<I>(__i); }\n"
    "template <class C> constexpr auto begin(C &__c) -> decltype(__c.begin()) { return "
    "__c.begin(); }\n"
    "template <class C> constexpr auto begin(const C &__c) -> decltype(__c.begin()) { return "
    "__c.begin(); }\n"
    "template <class C> constexpr auto end(C &__c) -> decltype(__c.end()) { return __c.end(); "
    "}\n"
    "template <class C> constexpr auto end(const C &__c) -> decltype(__c.end()) { return "
    "__c.end(); }\n"
    "template <class T, size_t N> constexpr T *begin(T (&__a)[N]) noexcept { return __a; }\n"
    "template <class T, size_t N> constexpr T *end(T (&__a)[N]) noexcept { return __a + N; }\n"
    "template <class C> constexpr auto cbegin(const C &__c) -> decltype(std::begin(__c)) { "
    "return std::begin(__c); }\n"
    "template <class C> constexpr auto cend(const C &__c) -> decltype(std::end(__c)) { return "
    "std::end(__c); }\n"
    "template <class C> constexpr auto size(const C &__c) -> decltype(__c.size()) { return "
    "__c.size(); }\n"
    "template <class T, size_t N> constexpr size_t size(const T (&)[N]) noexcept { return N; }\n"
    "template <class C> constexpr auto empty(const C &__c) -> decltype(__c.empty()) { return "
    "__c.empty(); }\n"
    "template <class T, size_t N> constexpr bool empty(const T (&)[N]) noexcept { return false; "
    "}\n"
    "template <class E> constexpr bool empty(initializer_list<E> __l) noexcept { return "
    "__l.size() == 0; }\n"
    "template <class C> constexpr auto data(C &__c) -> decltype(__c.data()) { return "
    "__c.data(); }\n"
    "template <class C> constexpr auto data(const C &__c) -> decltype(__c.data()) { return "
    "__c.data(); }\n"
    "template <class T, size_t N> constexpr T *data(T (&__a)[N]) noexcept { return __a; }\n"
    "template <class E> constexpr const E *data(initializer_list<E> __l) noexcept { return "
    "__l.begin(); }\n"
    "}\n" HD_END "#endif\n";

/* <functional>: the function objects (constexpr calls since C++14, so device code's), the
 * transparent <void> forms too. std::function, bind and the rest are host library code, not
 * declared. */
static char *build_functional(void) {
  static const struct {
    const char *name, *op;
    bool unary, boolean;
  } fos[] = {
      {"plus", "+", false, false},          {"minus", "-", false, false},
      {"multiplies", "*", false, false},    {"divides", "/", false, false},
      {"modulus", "%", false, false},       {"negate", "-", true, false},
      {"equal_to", "==", false, true},      {"not_equal_to", "!=", false, true},
      {"greater", ">", false, true},        {"less", "<", false, true},
      {"greater_equal", ">=", false, true}, {"less_equal", "<=", false, true},
      {"logical_and", "&&", false, true},   {"logical_or", "||", false, true},
      {"logical_not", "!", true, true},     {"bit_and", "&", false, false},
      {"bit_or", "|", false, false},        {"bit_xor", "^", false, false},
      {"bit_not", "~", true, false},
  };
  KBuf b = {0};
  kbuf_printf(&b,
              "#ifndef __KCC_FUNCTIONAL\n#define __KCC_FUNCTIONAL\n#include <utility>\n" HD_BEGIN
              "namespace std {\n");
  for (size_t i = 0; i < sizeof fos / sizeof *fos; i++) {
    const char *n = fos[i].name, *o = fos[i].op, *r = fos[i].boolean ? "bool" : "T";
    if (fos[i].unary)
      kbuf_printf(&b,
                  "template <class T = void> struct %s { typedef T argument_type; typedef %s "
                  "result_type; constexpr %s operator()(const T &__x) const { return %s__x; } "
                  "};\n"
                  "template <> struct %s<void> { typedef int is_transparent; template <class T> "
                  "constexpr auto operator()(T &&__x) const -> decltype(%sstd::forward<T>(__x)) { "
                  "return %sstd::forward<T>(__x); } };\n",
                  n, r, r, o, n, o, o);
    else
      kbuf_printf(&b,
                  "template <class T = void> struct %s { typedef T first_argument_type; typedef T "
                  "second_argument_type; typedef %s result_type; constexpr %s operator()(const T "
                  "&__x, const T &__y) const { return __x %s __y; } };\n"
                  "template <> struct %s<void> { typedef int is_transparent; template <class T, "
                  "class U> constexpr auto operator()(T &&__x, U &&__y) const -> "
                  "decltype(std::forward<T>(__x) %s std::forward<U>(__y)) { return "
                  "std::forward<T>(__x) %s std::forward<U>(__y); } };\n",
                  n, r, r, o, n, o, o);
  }
  kbuf_printf(&b, "}\n" HD_END "#endif\n");
  return b.data;
}

/* numeric_limits<T> for every arithmetic type, every member [numeric.limits] has. */
static void limits_for(KBuf *b, const char *t, const char *lo, const char *hi, const char *low,
                       int digits, int digits10, bool is_signed, bool is_int) {
  const char *no = is_int ? "true" : "false", *yes = is_int ? "false" : "true";
  kbuf_printf(b,
              "template <> struct numeric_limits<%s> { static constexpr bool is_specialized = "
              "true; static constexpr bool is_signed = %s; static constexpr bool is_integer = "
              "%s; static constexpr bool is_exact = %s; static constexpr bool has_infinity = %s; "
              "static constexpr bool has_quiet_NaN = %s; static constexpr bool has_signaling_NaN "
              "= %s; static constexpr float_denorm_style has_denorm = %s; static constexpr bool "
              "has_denorm_loss = false; static constexpr float_round_style round_style = %s; "
              "static constexpr bool is_iec559 = %s; static constexpr bool is_bounded = true; "
              "static constexpr bool is_modulo = %s; static constexpr bool traps = false; static "
              "constexpr bool tinyness_before = false; static constexpr int radix = 2; static "
              "constexpr int digits = %d; static constexpr int digits10 = %d; static constexpr "
              "int max_digits10 = %d; "
              "static constexpr %s min() noexcept { return %s; } static constexpr %s max() "
              "noexcept { return %s; } static constexpr %s lowest() noexcept { return %s; } ",
              t, is_signed ? "true" : "false", no, no, yes, yes, yes,
              is_int ? "denorm_absent" : "denorm_present",
              is_int ? "round_toward_zero" : "round_to_nearest", yes,
              is_int && !is_signed && strcmp(t, "bool") ? "true" : "false", digits, digits10,
              is_int         ? 0
              : digits == 24 ? 9
                             : 17,
              t, lo, t, hi, t, low);
  if (is_int)
    kbuf_printf(b,
                "static constexpr int min_exponent = 0; static constexpr int min_exponent10 = 0; "
                "static constexpr int max_exponent = 0; static constexpr int max_exponent10 = 0; "
                "static constexpr %s epsilon() noexcept { return 0; } static constexpr %s "
                "round_error() noexcept { return 0; } static constexpr %s infinity() noexcept { "
                "return 0; } static constexpr %s quiet_NaN() noexcept { return 0; } static "
                "constexpr %s signaling_NaN() noexcept { return 0; } static constexpr %s "
                "denorm_min() noexcept { return 0; } };\n",
                t, t, t, t, t, t);
  else {
    const char *p = strcmp(t, "float") ? "__DBL" : "__FLT";
    const char *s = strcmp(t, "float") ? "" : "f";
    kbuf_printf(b,
                "static constexpr int min_exponent = %s_MIN_EXP__; static constexpr int "
                "min_exponent10 = %s_MIN_10_EXP__; static constexpr int max_exponent = "
                "%s_MAX_EXP__; static constexpr int max_exponent10 = %s_MAX_10_EXP__; "
                "static constexpr %s epsilon() noexcept { return %s_EPSILON__; } static constexpr "
                "%s infinity() noexcept { return __builtin_huge_val%s(); } static constexpr %s "
                "quiet_NaN() noexcept { return __builtin_nan%s(\"\"); } static constexpr %s "
                "signaling_NaN() noexcept { return __builtin_nans%s(\"\"); } static constexpr %s "
                "denorm_min() noexcept { return %s_DENORM_MIN__; } static constexpr %s "
                "round_error() noexcept { return 0.5; } };\n",
                p, p, p, p, t, p, t, s, t, s, t, s, t, p, t);
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
      {"wchar_t", "(-2147483647 - 1)", "2147483647", 31, true}, /* Linux: a signed 32 bits */
      {"char16_t", "0", "65535", 16, false},
      {"char32_t", "0", "4294967295u", 32, false},
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
                  "enum float_round_style { round_indeterminate = -1, round_toward_zero = 0, "
                  "round_to_nearest = 1, round_toward_infinity = 2, round_toward_neg_infinity = "
                  "3 };\n"
                  "enum float_denorm_style { denorm_indeterminate = -1, denorm_absent = 0, "
                  "denorm_present = 1 };\n"
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

/* <cmath> as C++17 declares it ([cmath.syn], less long double and the special functions,
 * which CUDA's device code has neither): every function for float and double, the
 * additional overloads that make an integer argument double and a mixed call the wider type
 * (sqrt(2) is sqrt(2.0), atan2(1.f, 2.0) atan2(1.0, 2.0)), all in the global namespace as
 * CUDA's headers over libstdc++'s leave them, and in std::, with the f spellings. */
static const char *const cm_unary[] = {
    "acos", "asin",  "atan",      "cos",  "sin",   "tan",   "acosh", "asinh",  "atanh",
    "cosh", "sinh",  "tanh",      "exp",  "exp2",  "expm1", "log",   "log10",  "log1p",
    "log2", "logb",  "sqrt",      "cbrt", "fabs",  "erf",   "erfc",  "tgamma", "lgamma",
    "ceil", "floor", "nearbyint", "rint", "round", "trunc",
};
static const struct {
  const char *name, *ret;
} cm_tointeger[] = {
    {"ilogb", "int"},        {"lrint", "long"},        {"lround", "long"},
    {"llrint", "long long"}, {"llround", "long long"},
};
static const char *const cm_binary[] = {"atan2",    "pow",       "hypot", "fmod", "remainder",
                                        "copysign", "nextafter", "fdim",  "fmax", "fmin"};
static const char *const cm_compare[][2] = {
    {"isgreater", ">"},
    {"isgreaterequal", ">="},
    {"isless", "<"},
    {"islessequal", "<="},
};

static char *build_cmath(void) {
  KBuf b = {0};
  kbuf_printf(&b,
              "#ifndef __KCC_CMATH\n#define __KCC_CMATH\n#include <math.h>\n#include <cstdlib>\n"
              "#define FP_NAN 0\n#define FP_INFINITE 1\n#define FP_ZERO 2\n#define FP_SUBNORMAL "
              "3\n#define FP_NORMAL 4\n" HD_BEGIN
              /* The result type of an argument list: double if any is double or an integer,
                 else float; no type (so no overload) for any other argument. */
              "template <class T, bool = __is_integral(T)> struct __kcc_fparg {};\n"
              "template <class T> struct __kcc_fparg<T, true> { typedef double type; };\n"
              "template <> struct __kcc_fparg<float, false> { typedef float type; };\n"
              "template <> struct __kcc_fparg<double, false> { typedef double type; };\n"
              "template <class T, bool = __is_integral(T)> struct __kcc_intarg {};\n"
              "template <class T> struct __kcc_intarg<T, true> { typedef double type; };\n"
              /* No type, rather than an error, where an argument has none (a __half's
                 overloads are cuda_fp16.h's): a failed substitution, not a failed
                 instantiation. */
              "template <class A, class B = float, class C = float, class = void> struct "
              "__kcc_fpres {};\n"
              "template <class A, class B, class C> struct __kcc_fpres<A, B, C, "
              "decltype((void)(typename __kcc_fparg<A>::type() + typename "
              "__kcc_fparg<B>::type() + typename __kcc_fparg<C>::type()))> { typedef "
              "decltype(typename __kcc_fparg<A>::type() + typename __kcc_fparg<B>::type() + "
              "typename __kcc_fparg<C>::type()) type; };\n"
              "inline float abs(float __x) { return fabsf(__x); }\n"
              "inline double abs(double __x) { return fabs(__x); }\n");
  for (size_t i = 0; i < sizeof cm_unary / sizeof *cm_unary; i++)
    kbuf_printf(&b,
                "template <class T> inline typename __kcc_intarg<T>::type %s(T __x) { return "
                "%s((double)__x); }\n",
                cm_unary[i], cm_unary[i]);
  for (size_t i = 0; i < sizeof cm_tointeger / sizeof *cm_tointeger; i++)
    kbuf_printf(&b,
                "template <class T, class = typename __kcc_intarg<T>::type> inline %s %s(T __x) "
                "{ return %s((double)__x); }\n",
                cm_tointeger[i].ret, cm_tointeger[i].name, cm_tointeger[i].name);
  for (size_t i = 0; i < sizeof cm_binary / sizeof *cm_binary; i++)
    kbuf_printf(&b,
                "template <class A, class B> inline typename __kcc_fpres<A, B>::type %s(A __a, B "
                "__b) { typedef typename __kcc_fpres<A, B>::type R; return %s((R)__a, (R)__b); "
                "}\n",
                cm_binary[i], cm_binary[i]);
  kbuf_printf(
      &b,
      "template <class A, class B, class C> inline typename __kcc_fpres<A, B, C>::type fma(A "
      "__a, B __b, C __c) { typedef typename __kcc_fpres<A, B, C>::type R; return fma((R)__a, "
      "(R)__b, (R)__c); }\n"
      "template <class T> inline typename __kcc_intarg<T>::type ldexp(T __x, int __n) { return "
      "ldexp((double)__x, __n); }\n"
      "template <class T> inline typename __kcc_intarg<T>::type scalbn(T __x, int __n) { return "
      "scalbn((double)__x, __n); }\n"
      "template <class T> inline typename __kcc_intarg<T>::type scalbln(T __x, long __n) { "
      "return scalbln((double)__x, __n); }\n"
      "template <class T> inline typename __kcc_intarg<T>::type frexp(T __x, int *__e) { return "
      "frexp((double)__x, __e); }\n"
      "template <class A, class B> inline typename __kcc_fpres<A, B>::type remquo(A __a, B __b, "
      "int *__q) { typedef typename __kcc_fpres<A, B>::type R; return remquo((R)__a, (R)__b, "
      "__q); }\n"
      /* C++17's three-argument hypot: CUDA's norm3d. */
      "inline float hypot(float __x, float __y, float __z) { return norm3df(__x, __y, __z); }\n"
      "inline double hypot(double __x, double __y, double __z) { return norm3d(__x, __y, __z); "
      "}\n"
      "template <class A, class B, class C> inline typename __kcc_fpres<A, B, C>::type hypot(A "
      "__a, B __b, C __c) { typedef typename __kcc_fpres<A, B, C>::type R; return hypot((R)__a, "
      "(R)__b, (R)__c); }\n"
      /* Classification: C's macros are C++'s overloaded functions. */
      "template <class T> inline bool isnan(T __x) { return isnan((typename "
      "__kcc_intarg<T>::type)__x); }\n"
      "template <class T> inline bool isinf(T __x) { return isinf((typename "
      "__kcc_intarg<T>::type)__x); }\n"
      "template <class T> inline bool isfinite(T __x) { return isfinite((typename "
      "__kcc_intarg<T>::type)__x); }\n"
      "inline bool signbit(float __x) { return __float_as_int(__x) < 0; }\n"
      "inline bool signbit(double __x) { return __double_as_longlong(__x) < 0; }\n"
      "inline bool isnormal(float __x) { return fabsf(__x) >= __FLT_MIN__ && fabsf(__x) <= "
      "__FLT_MAX__; }\n"
      "inline bool isnormal(double __x) { return fabs(__x) >= __DBL_MIN__ && fabs(__x) <= "
      "__DBL_MAX__; }\n"
      "inline int fpclassify(float __x) { return isnan(__x) ? FP_NAN : isinf(__x) ? FP_INFINITE "
      ": __x == 0.0f ? FP_ZERO : isnormal(__x) ? FP_NORMAL : FP_SUBNORMAL; }\n"
      "inline int fpclassify(double __x) { return isnan(__x) ? FP_NAN : isinf(__x) ? "
      "FP_INFINITE : __x == 0.0 ? FP_ZERO : isnormal(__x) ? FP_NORMAL : FP_SUBNORMAL; }\n"
      "template <class T> inline bool signbit(T __x) { return signbit((typename "
      "__kcc_intarg<T>::type)__x); }\n"
      "template <class T> inline bool isnormal(T __x) { return isnormal((typename "
      "__kcc_intarg<T>::type)__x); }\n"
      "template <class T> inline int fpclassify(T __x) { return fpclassify((typename "
      "__kcc_intarg<T>::type)__x); }\n"
      "template <class A, class B> inline bool isunordered(A __a, B __b) { typedef typename "
      "__kcc_fpres<A, B>::type R; return isnan((R)__a) || isnan((R)__b); }\n"
      "template <class A, class B> inline bool islessgreater(A __a, B __b) { typedef typename "
      "__kcc_fpres<A, B>::type R; return (R)__a < (R)__b || (R)__a > (R)__b; }\n");
  /* A comparison with a NaN is false, and kcc's comparisons raise no exception: the quiet
     comparisons are the operators. */
  for (size_t i = 0; i < sizeof cm_compare / sizeof *cm_compare; i++)
    kbuf_printf(&b,
                "template <class A, class B> inline bool %s(A __a, B __b) { typedef typename "
                "__kcc_fpres<A, B>::type R; return (R)__a %s (R)__b; }\n",
                cm_compare[i][0], cm_compare[i][1]);
  kbuf_printf(&b, "double (nan)(const char *);\nfloat (nanf)(const char *);\n" HD_END
                  "namespace std {\nusing ::abs;\nusing ::nan;\nusing ::nanf;\nusing "
                  "::__kcc_nan;\nusing ::__kcc_nanf;\nusing ::fma;\nusing ::fmaf;\nusing "
                  "::ldexp;\nusing ::ldexpf;\nusing ::scalbn;\nusing ::scalbnf;\nusing "
                  "::scalbln;\nusing ::scalblnf;\nusing ::frexp;\nusing ::frexpf;\nusing "
                  "::modf;\nusing ::modff;\nusing ::remquo;\nusing ::remquof;\n");
  for (size_t i = 0; i < sizeof cm_unary / sizeof *cm_unary; i++)
    kbuf_printf(&b, "using ::%s;\nusing ::%sf;\n", cm_unary[i], cm_unary[i]);
  for (size_t i = 0; i < sizeof cm_tointeger / sizeof *cm_tointeger; i++)
    kbuf_printf(&b, "using ::%s;\nusing ::%sf;\n", cm_tointeger[i].name, cm_tointeger[i].name);
  for (size_t i = 0; i < sizeof cm_binary / sizeof *cm_binary; i++)
    kbuf_printf(&b, "using ::%s;\nusing ::%sf;\n", cm_binary[i], cm_binary[i]);
  for (size_t i = 0; i < sizeof cm_compare / sizeof *cm_compare; i++)
    kbuf_printf(&b, "using ::%s;\n", cm_compare[i][0]);
  kbuf_printf(&b, "using ::isnan;\nusing ::isinf;\nusing ::isfinite;\nusing ::isnormal;\nusing "
                  "::signbit;\nusing ::fpclassify;\nusing ::isunordered;\nusing "
                  "::islessgreater;\n}\n#endif\n");
  return b.data;
}

/* libcu++'s spellings of the headers above (<cuda/std/limits>, cuda::std::min...): the same
 * declarations, cuda::std naming std. */
static const char *const cuda_std[] = {
    "algorithm", "array",       "numeric", "cfloat",     "climits",          "cmath",
    "cstddef",   "cstdint",     "cstdlib", "functional", "initializer_list", "iterator",
    "limits",    "type_traits", "utility",
};

static FeVFile files[48];
static int nfiles;

const FeVFile *fe_cxx_vfiles(int *n) {
  if (!nfiles) {
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstddef", h_cstddef};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstdint", h_cstdint};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstdlib", h_cstdlib};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cmath", build_cmath()};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstdio", "#include <stdio.h>\n"};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cstring", h_cstring};
    files[nfiles++] = (FeVFile){FE_INCDIR "/climits", "#include <limits.h>\n"};
    files[nfiles++] = (FeVFile){FE_INCDIR "/cfloat", "#include <float.h>\n"};
    files[nfiles++] = (FeVFile){FE_INCDIR "/type_traits", h_type_traits};
    files[nfiles++] = (FeVFile){FE_INCDIR "/utility", h_utility};
    files[nfiles++] = (FeVFile){FE_INCDIR "/__kcc_algobase", h_algobase};
    files[nfiles++] = (FeVFile){FE_INCDIR "/algorithm", h_algorithm};
    files[nfiles++] = (FeVFile){FE_INCDIR "/numeric", h_numeric};
    files[nfiles++] = (FeVFile){FE_INCDIR "/initializer_list", h_initializer_list};
    files[nfiles++] = (FeVFile){FE_INCDIR "/array", h_array};
    files[nfiles++] = (FeVFile){FE_INCDIR "/iterator", h_iterator};
    files[nfiles++] = (FeVFile){FE_INCDIR "/functional", build_functional()};
    files[nfiles++] = (FeVFile){FE_INCDIR "/limits", build_limits()};
    static char names[sizeof cuda_std / sizeof *cuda_std][64],
        texts[sizeof cuda_std / sizeof *cuda_std][128];
    for (size_t i = 0; i < sizeof cuda_std / sizeof *cuda_std; i++) {
      snprintf(names[i], sizeof names[i], FE_INCDIR "/cuda/std/%s", cuda_std[i]);
      snprintf(texts[i], sizeof texts[i],
               "#include <%s>\nnamespace cuda { namespace std = ::std; }\n", cuda_std[i]);
      files[nfiles++] = (FeVFile){names[i], texts[i]};
    }
  }
  *n = nfiles;
  return files;
}
