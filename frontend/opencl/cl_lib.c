/* cl_lib.c — OpenCL C built-ins written in OpenCL C, part of the `.cl` prelude.
 *
 * Functions of the specification that need nothing KIR lacks are defined here as ordinary
 * overloadable functions, lowered only where a kernel calls them (like kcc_derived.h's), so
 * that every form computes them alike: the integer functions of section 6.15.3 that KIR has no
 * node for (abs_diff, add_sat, sub_sat, mad_sat, upsample, ctz), the relational functions of
 * 6.15.6 (isequal ... signbit), and the async copies of 6.15.11, which become a copy shared out
 * over the work-group and a barrier at wait_group_events (the specification makes both
 * work-group functions, reached by every work-item with the same arguments, so a synchronous
 * copy and a barrier are one valid implementation; event_t is an int).
 *
 * Once kcc defines a name, clang's own declarations of it are never made, so each function
 * has every overload the specification gives it. */
#include <stdio.h>
#include <string.h>

#include "fe_opencl.h"

static const struct {
  const char *t, *u; /* the type and its unsigned counterpart */
  int bits;
  bool is_signed;
  const char *min, *max; /* literals of the type's range */
} ints[] = {
    {"char", "uchar", 8, true, "(char)-128", "(char)127"},
    {"uchar", "uchar", 8, false, "(uchar)0", "(uchar)255"},
    {"short", "ushort", 16, true, "(short)-32768", "(short)32767"},
    {"ushort", "ushort", 16, false, "(ushort)0", "(ushort)65535"},
    {"int", "uint", 32, true, "(int)(-2147483647 - 1)", "2147483647"},
    {"uint", "uint", 32, false, "0u", "4294967295u"},
    {"long", "ulong", 64, true, "(long)(-9223372036854775807L - 1)", "9223372036854775807L"},
    {"ulong", "ulong", 64, false, "0ul", "18446744073709551615ul"},
};
static const int lens[] = {1, 2, 3, 4, 8, 16};

#define F "__KCC_CL static inline __attribute__((overloadable))"

/* `#define MACRO(x) ...`: x's bits as type (a cast for scalars; OpenCL C casts no vector to
 * another vector type, as_T does). */
static void bits_as(KBuf *b, const char *macro, const char *type, int n) {
  kbuf_printf(b, n == 1 ? "#define %s(x) ((%s)(x))\n" : "#define %s(x) as_%s(x)\n", macro, type);
}

static void integer_functions(KBuf *b) {
  for (size_t e = 0; e < sizeof ints / sizeof *ints; e++)
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
      int n = lens[l], bits = ints[e].bits;
      char T[16], U[16], MN[64], MX[64];
      fe_cl_vtype(T, sizeof T, ints[e].t, n);
      fe_cl_vtype(U, sizeof U, ints[e].u, n);
      /* The range as values of T (splats for vectors). */
      snprintf(MN, sizeof MN, "((%s)%s)", T, ints[e].min);
      snprintf(MX, sizeof MX, "((%s)%s)", T, ints[e].max);
      /* __U(x), __T(x): x's bits as the unsigned type and back. */
      bits_as(b, "__U", U, n);
      bits_as(b, "__T", T, n);
      /* |x - y| in the unsigned type, never wrapping. */
      kbuf_printf(
          b, F " %s abs_diff(%s x, %s y) { return x > y ? __U(x) - __U(y) : __U(y) - __U(x); }\n",
          U, T, T);
      /* ctz (OpenCL 2.0): the zeros below the lowest set bit; the width for 0. */
      kbuf_printf(b,
                  F " %s ctz(%s x) { return __T(popcount(__U(~__U(x) & __U(__U(x) - (%s)1)))); }\n",
                  T, T, U);
      if (ints[e].is_signed) {
        /* Sums and differences wrap in the unsigned type; they overflowed when the operands'
           signs say the result's sign is impossible. */
        /* (Sign bits, not comparisons of comparisons: NVIDIA's OpenCL compiler gets
           `(x < 0) == (y < 0)` on char vectors wrong; docs/driver-bugs.md.) */
        kbuf_printf(b,
                    F " %s add_sat(%s x, %s y) { %s r = __T(__U(x) + __U(y)); "
                      "return ((x ^ r) & (y ^ r)) < (%s)0 ? (x < (%s)0 ? %s : %s) : r; }\n",
                    T, T, T, T, T, T, MN, MX);
        kbuf_printf(b,
                    F " %s sub_sat(%s x, %s y) { %s r = __T(__U(x) - __U(y)); "
                      "return ((x ^ y) & (x ^ r)) < (%s)0 ? (x < (%s)0 ? %s : %s) : r; }\n",
                    T, T, T, T, T, T, MN, MX);
      } else {
        kbuf_printf(b, F " %s add_sat(%s x, %s y) { %s r = x + y; return r < x ? %s : r; }\n", T, T,
                    T, T, MX);
        kbuf_printf(b, F " %s sub_sat(%s x, %s y) { return x < y ? (%s)0 : x - y; }\n", T, T, T, T);
      }
      if (bits < 64) {
        /* a * b + c exactly in a type wide enough, then clamped. */
        const char *wide = bits == 8 ? "int" : bits == 16 || ints[e].is_signed ? "long" : "ulong";
        char WC[16];
        fe_cl_vtype(WC, sizeof WC, wide, n);
        kbuf_printf(b,
                    F " %s mad_sat(%s a, %s b, %s c) { %s r = convert_%s(a) * convert_%s(b) + "
                      "convert_%s(c); return convert_%s_sat(r); }\n",
                    T, T, T, T, WC, WC, WC, WC, T);
        /* upsample(hi, lo): hi in the high half of the type twice as wide. */
        const char *up = bits == 8    ? (ints[e].is_signed ? "short" : "ushort")
                         : bits == 16 ? (ints[e].is_signed ? "int" : "uint")
                                      : (ints[e].is_signed ? "long" : "ulong");
        char UP[16], LO[16];
        fe_cl_vtype(UP, sizeof UP, up, n);
        fe_cl_vtype(LO, sizeof LO, ints[e].u, n);
        kbuf_printf(b,
                    F " %s upsample(%s hi, %s lo) { return convert_%s(hi) << %d | "
                      "convert_%s(lo); }\n",
                    UP, T, LO, UP, bits, UP);
      } else if (ints[e].is_signed) {
        /* 128 bits as (hi, lo): the product's halves, plus c sign-extended; the sum fits in
           a long when hi is lo's sign extension. */
        kbuf_printf(b,
                    F " %s mad_sat(%s a, %s b, %s c) { %s hi = mul_hi(a, b); %s lo = __U(a) * "
                      "__U(b); %s s = lo + __U(c); %s carry = convert_%s(s < lo) & (%s)1; "
                      "hi = hi + (c < (%s)0 ? (%s)-1 : (%s)0) + __T(carry); %s r = __T(s); "
                      "return hi == (r < (%s)0 ? (%s)-1 : (%s)0) ? r : hi < (%s)0 ? %s : %s; }\n",
                    T, T, T, T, T, U, U, U, U, U, T, T, T, T, T, T, T, T, MN, MX);
      } else {
        kbuf_printf(b,
                    F " %s mad_sat(%s a, %s b, %s c) { %s hi = mul_hi(a, b); %s lo = a * b; "
                      "%s s = lo + c; return (hi != (%s)0) | (s < lo) ? %s : s; }\n",
                    T, T, T, T, T, T, T, T, MX);
      }
      kbuf_printf(b, "#undef __U\n#undef __T\n");
    }
}

/* Section 6.15.6: scalars give int 1 or 0; vectors the signed integer vector of the element's
 * size with -1 (all bits) for true, which is what OpenCL C's own vector comparisons give. */
static void relational_functions(KBuf *b) {
  static const struct {
    const char *t, *i, *vi; /* float type, scalar result, vector result element */
    const char *min_normal, *sign_int;
  } fl[] = {
      {"float", "int", "int", "0x1p-126f", "int"},
      {"double", "int", "long", "0x1p-1022", "long"},
      {"half", "int", "short", "(half)0x1p-14f", "short"},
  };
  static const struct {
    const char *name, *expr;
  } two[] = {
      {"isequal", "x == y"},
      {"isnotequal", "x != y"},
      {"isgreater", "x > y"},
      {"isgreaterequal", "x >= y"},
      {"isless", "x < y"},
      {"islessequal", "x <= y"},
      {"islessgreater", "(x < y) | (x > y)"},
      {"isordered", "(x == x) & (y == y)"},
      {"isunordered", "(x != x) | (y != y)"},
  };
  for (size_t e = 0; e < sizeof fl / sizeof *fl; e++) {
    if (e == 2) kbuf_printf(b, "#ifdef cl_khr_fp16\n");
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
      int n = lens[l];
      char T[16], R[16], SI[16];
      fe_cl_vtype(T, sizeof T, fl[e].t, n);
      fe_cl_vtype(R, sizeof R, n == 1 ? fl[e].i : fl[e].vi, n);
      fe_cl_vtype(SI, sizeof SI, fl[e].sign_int, n);
      /* A scalar comparison is an int 1 or 0, a vector one -1 or 0 already. */
      for (size_t k = 0; k < sizeof two / sizeof *two; k++)
        kbuf_printf(b, F " %s %s(%s x, %s y) { return %s(%s); }\n", R, two[k].name, T, T,
                    n == 1 ? "(int)" : "", two[k].expr);
      kbuf_printf(b,
                  F
                  " %s isnormal(%s x) { return %s((fabs(x) >= (%s)%s) & (fabs(x) < (%s)INFINITY)); "
                  "}\n",
                  R, T, n == 1 ? "(int)" : "", T, fl[e].min_normal, T);
      kbuf_printf(b, F " %s signbit(%s x) { return %s(as_%s(x) < (%s)0); }\n", R, T,
                  n == 1 ? "(int)" : "", SI, SI);
    }
    if (e == 2) kbuf_printf(b, "#endif\n");
  }
}

/* Section 6.15.11 for every gentype: the copy shared out over the work-group's work-items by
 * their linear local id. */
static void async_copies(KBuf *b) {
  static const char *const scalars[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                        "long", "ulong", "float", "double", "half"};
  kbuf_printf(b, F " size_t __kcc_lid(void) { return get_local_id(0) + get_local_size(0) * "
                   "(get_local_id(1) + get_local_size(1) * get_local_id(2)); }\n" F
                   " size_t __kcc_lsize(void) { return get_local_size(0) * get_local_size(1) * "
                   "get_local_size(2); }\n");
  for (size_t s = 0; s < sizeof scalars / sizeof *scalars; s++) {
    if (s == 10) kbuf_printf(b, "#ifdef cl_khr_fp16\n");
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
      char T[16];
      fe_cl_vtype(T, sizeof T, scalars[s], lens[l]);
      static const char *const dirs[2][2] = {{"__local", "const __global"},
                                             {"__global", "const __local"}};
      for (int d = 0; d < 2; d++) {
        kbuf_printf(b,
                    F " event_t async_work_group_copy(%s %s *dst, %s %s *src, size_t n, event_t "
                      "e) { for (size_t i = __kcc_lid(); i < n; i += __kcc_lsize()) dst[i] = "
                      "src[i]; return e; }\n",
                    dirs[d][0], T, dirs[d][1], T);
        /* The stride applies to the global side: the source when copying into local memory,
           the destination when copying out. */
        kbuf_printf(b,
                    F " event_t async_work_group_strided_copy(%s %s *dst, %s %s *src, size_t n, "
                      "size_t stride, event_t e) { for (size_t i = __kcc_lid(); i < n; i += "
                      "__kcc_lsize()) dst[i%s] = src[i%s]; return e; }\n",
                    dirs[d][0], T, dirs[d][1], T, d ? " * stride" : "", d ? "" : " * stride");
      }
      kbuf_printf(b, F " void prefetch(const __global %s *p, size_t n) { (void)p; (void)n; }\n", T);
    }
    if (s == 10) kbuf_printf(b, "#endif\n");
  }
  kbuf_printf(b, F " void wait_group_events(int n, event_t *events) { (void)n; (void)events; "
                   "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); }\n");
}

/* cl_khr_integer_dot_product (the extension requires OpenCL 1.0, so kcc offers it with every
 * -cl-std; opencl.c defines its macros): dot of 4 x 8-bit vectors, unsigned, signed or
 * mixed, each product and the sum exact in 32 bits (|sum| <= 4 * 255 * 255), and dot_acc_sat,
 * that sum added to acc with saturation to the result's type (add_sat above). The packed forms
 * take the 4 components from a uint, component 0 in the least significant byte, as the
 * specification says: extracted with shifts, so the layout never depends on the device's
 * byte order. */
static void integer_dot_product(KBuf *b) {
  static const struct {
    const char *a, *b, *r, *sfx; /* operand types, result, packed suffix */
  } forms[] = {
      {"uchar", "uchar", "uint", "uu_uint"},
      {"char", "char", "int", "ss_int"},
      {"uchar", "char", "int", "us_int"},
      {"char", "uchar", "int", "su_int"},
  };
  kbuf_printf(b, "#ifdef cl_khr_integer_dot_product\n");
  /* Byte i of a packed operand as uchar or char. */
  for (int s = 0; s < 2; s++) {
    const char *E = s ? "char" : "uchar";
    kbuf_printf(b,
                F " %s4 __kcc_unpack_%c(uint p) { %s4 v; v.x = (%s)p; v.y = (%s)(p >> 8); v.z = "
                  "(%s)(p >> 16); v.w = (%s)(p >> 24); return v; }\n",
                E, s ? 's' : 'u', E, E, E, E, E);
  }
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
    const char *A = forms[f].a, *B = forms[f].b, *R = forms[f].r, *S = forms[f].sfx;
    kbuf_printf(b,
                F " %s dot(%s4 a, %s4 b) { return (%s)a.x * (%s)b.x + (%s)a.y * (%s)b.y + "
                  "(%s)a.z * (%s)b.z + (%s)a.w * (%s)b.w; }\n",
                R, A, B, R, R, R, R, R, R, R, R);
    kbuf_printf(b, F " %s dot_acc_sat(%s4 a, %s4 b, %s acc) { return add_sat(dot(a, b), acc); }\n",
                R, A, B, R);
    kbuf_printf(b,
                F " %s dot_4x8packed_%s(uint a, uint b) { return dot(__kcc_unpack_%c(a), "
                  "__kcc_unpack_%c(b)); }\n",
                R, S, S[0], S[1]);
    kbuf_printf(b,
                F " %s dot_acc_sat_4x8packed_%s(uint a, uint b, %s acc) { return "
                  "dot_acc_sat(__kcc_unpack_%c(a), __kcc_unpack_%c(b), acc); }\n",
                R, S, R, S[0], S[1]);
  }
  kbuf_printf(b, "#endif\n");
}

/* Section 6.4.3's conversions to floating point with an explicit rounding mode,
 * convert_<float|double>N_<rtz|rtp|rtn>(x), for every source type: the default (round to
 * nearest even) conversion, then one step to the neighbouring value in the mode's direction
 * when it rounded the wrong way. Whether it did is an exact comparison: an integer source
 * against the result converted back (an integer-valued float wherever the conversion is
 * inexact; past the integer type's range, 2^63 or 2^64, it rounded up), a double against the
 * float widened. Conversions that are exact (8- and 16-bit integers, float to double, 32-bit
 * integers to double) are the plain conversion. No KIR node or back end is involved, so every
 * form rounds alike, Vulkan's included, whose SPIR-V has no rounding-mode conversions. */
static void rounded_conversions(KBuf *b) {
  /* The neighbours of r towards +inf and -inf, by their bits (r finite or infinite, not NaN;
     from a zero of either sign to the smallest denormal). */
  kbuf_printf(b, "__KCC_CL static inline float __kcc_up_f(float r) { uint u = as_uint(r); "
                 "return as_float(u == 0x80000000u ? 1u : (u >> 31) ? u - 1u : u + 1u); }\n"
                 "__KCC_CL static inline float __kcc_down_f(float r) { uint u = as_uint(r); "
                 "return as_float(u == 0u ? 0x80000001u : (u >> 31) ? u + 1u : u - 1u); }\n"
                 "__KCC_CL static inline double __kcc_up_d(double r) { ulong u = as_ulong(r); "
                 "return as_double(u == 0x8000000000000000ul ? 1ul : (u >> 63) ? u - 1ul : u + "
                 "1ul); }\n"
                 "__KCC_CL static inline double __kcc_down_d(double r) { ulong u = "
                 "as_ulong(r); return as_double(u == 0ul ? 0x8000000000000001ul : (u >> 63) ? "
                 "u + 1ul : u - 1ul); }\n");
  static const char *const srcs[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                     "long", "ulong", "float", "double", "half"};
  static const char *const modes[] = {"rtz", "rtp", "rtn"};
  for (int d = 0; d < 2; d++) {
    const char *T = d ? "double" : "float", *s = d ? "d" : "f";
    for (size_t i = 0; i < sizeof srcs / sizeof *srcs; i++) {
      const char *S = srcs[i];
      bool half = !strcmp(S, "half"), dbl = !strcmp(S, "double");
      if (half) kbuf_printf(b, "#ifdef cl_khr_fp16\n");
      /* cmp: r (the nearest-even result) above x (1), below (-1), equal (0). */
      char cmp[192];
      bool is64 = !strcmp(S, "long") || !strcmp(S, "ulong");
      if (!d && (!strcmp(S, "int") || !strcmp(S, "uint")))
        snprintf(cmp, sizeof cmp, "(long)r > (long)x ? 1 : (long)r < (long)x ? -1 : 0");
      else if (is64)
        snprintf(cmp, sizeof cmp, "r >= 0x1p%d%s ? 1 : (%s)r > x ? 1 : (%s)r < x ? -1 : 0",
                 S[0] == 'u' ? 64 : 63, d ? "" : "f", S, S);
      else if (dbl && !d)
        snprintf(cmp, sizeof cmp, "isnan(x) ? 0 : (double)r > x ? 1 : (double)r < x ? -1 : 0");
      else
        cmp[0] = 0; /* exact */
      for (int m = 0; m < 3; m++) {
        kbuf_printf(b, F " %s convert_%s_%s(%s x) { %s r = (%s)x;", T, T, modes[m], S, T, T);
        if (cmp[0]) {
          kbuf_printf(b, " int c = %s;", cmp);
          if (m == 0)
            kbuf_printf(b,
                        " return c > 0 && r > 0 ? __kcc_down_%s(r) : c < 0 && r < 0 ? "
                        "__kcc_up_%s(r) : r;",
                        s, s);
          else
            kbuf_printf(b, " return c %s 0 ? __kcc_%s_%s(r) : r;", m == 1 ? "<" : ">",
                        m == 1 ? "up" : "down", s);
        } else {
          kbuf_printf(b, " return r;");
        }
        kbuf_printf(b, " }\n");
        /* Vectors: component by component. */
        static const char *const comp = "0123456789abcdef";
        for (int l = 1; l < (int)(sizeof lens / sizeof *lens); l++) {
          int n = lens[l];
          kbuf_printf(b, F " %s%d convert_%s%d_%s(%s%d x) { return (%s%d)(", T, n, T, n, modes[m],
                      S, n, T, n);
          for (int k = 0; k < n; k++)
            kbuf_printf(b, "%sconvert_%s_%s(x.s%c)", k ? ", " : "", T, modes[m], comp[k]);
          kbuf_printf(b, "); }\n");
        }
      }
      if (half) kbuf_printf(b, "#endif\n");
    }
  }
}

/* cl_khr_extended_bit_ops (an OpenCL 3.0 extension, OpenCL 1.0's types): bitfield_insert,
 * bitfield_extract_signed/_unsigned and bit_reverse on every integer type and vector width,
 * offset and count scalars (their sum at most the width, as the extension requires). Shifts
 * are made in the unsigned type and cast back, so char and short, which C promotes to int,
 * lose the bits shifted past their width as vectors of them do. */
static void bit_ops(KBuf *b) {
  static const char *const masks[] = {"0x5555555555555555ul", "0x3333333333333333ul",
                                      "0x0f0f0f0f0f0f0f0ful", "0x00ff00ff00ff00fful",
                                      "0x0000ffff0000fffful", "0x00000000fffffffful"};
  for (size_t e = 0; e < sizeof ints / sizeof *ints; e++)
    for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
      int n = lens[l], w = ints[e].bits;
      /* The signed counterpart: an unsigned type's name without its leading 'u'. */
      const char *signed_t = ints[e].is_signed ? ints[e].t : ints[e].t + 1;
      char T[16], U[16], S[16];
      fe_cl_vtype(T, sizeof T, ints[e].t, n);
      fe_cl_vtype(U, sizeof U, ints[e].u, n);
      fe_cl_vtype(S, sizeof S, signed_t, n);
      /* __U/__S/__T: the bits as the unsigned, the signed and the own type. */
      bits_as(b, "__U", U, n);
      bits_as(b, "__S", S, n);
      bits_as(b, "__T", T, n);
      /* The count low bits set, moved to offset (none for a count of 0). */
      kbuf_printf(b,
                  F " %s bitfield_insert(%s base, %s insert, uint offset, uint count) { %s m = "
                    "count ? __U(__U((%s)~(%s)0 >> (%d - count)) << offset) : (%s)0; return "
                    "__T((__U(base) & ~m) | (__U(__U(insert) << offset) & m)); }\n",
                  T, T, T, U, U, U, w, U);
      kbuf_printf(b,
                  F " %s bitfield_extract_unsigned(%s base, uint offset, uint count) { return "
                    "count ? __U(__U(__U(base) << (%d - offset - count)) >> (%d - count)) : "
                    "(%s)0; }\n",
                  U, T, w, w, U);
      kbuf_printf(b,
                  F " %s bitfield_extract_signed(%s base, uint offset, uint count) { return "
                    "count ? __S(__S(__U(base) << (%d - offset - count)) >> (%d - count)) : "
                    "(%s)0; }\n",
                  S, T, w, w, S);
      /* Swaps of ever wider neighbouring groups: halves of pairs, pairs of nibbles... */
      kbuf_printf(b, F " %s bit_reverse(%s base) { %s x = __U(base);", T, T, U);
      for (int k = 0, g = 1; g < w; k++, g *= 2)
        kbuf_printf(b, " x = __U(__U(x >> %d) & (%s)%s) | __U(__U(x & (%s)%s) << %d);", g, U,
                    masks[k], U, masks[k], g);
      kbuf_printf(b, " return __T(x); }\n#undef __U\n#undef __S\n#undef __T\n");
    }
}

char *fe_cl_lib(void) {
  KBuf b = {0};
  kbuf_printf(&b, "#define __KCC_CL\n");
  integer_functions(&b);
  relational_functions(&b);
  async_copies(&b);
  integer_dot_product(&b);
  rounded_conversions(&b);
  bit_ops(&b);
  fe_cl_workgroup(&b);
  kbuf_printf(&b, "#undef __KCC_CL\n");
  return b.data;
}
