/* builtins.c — which prelude function is which KIR builtin, and the printf format check. */
#include <string.h>

#include "fe.h"

typedef struct Name {
  const char *name;
  KBuiltin id;
} Name;

static const Name fixed[] = {
    {"__syncthreads", BI_SYNCTHREADS},
    {"barrier", BI_SYNCTHREADS},
    {"__threadfence", BI_THREADFENCE},
    {"__threadfence_block", BI_THREADFENCE_BLOCK},
    {"atomicAdd", BI_ATOMIC_ADD},
    {"atomicSub", BI_ATOMIC_SUB},
    {"atomicMin", BI_ATOMIC_MIN},
    {"atomicMax", BI_ATOMIC_MAX},
    {"atomicAnd", BI_ATOMIC_AND},
    {"atomicOr", BI_ATOMIC_OR},
    {"atomicXor", BI_ATOMIC_XOR},
    {"atomicExch", BI_ATOMIC_EXCH},
    {"atomicCAS", BI_ATOMIC_CAS},
    {"printf", BI_PRINTF},
    {"min", BI_MIN},
    {"max", BI_MAX},
    {"abs", BI_ABS},
    {"labs", BI_ABS},
    {"llabs", BI_ABS},
    {"isnan", BI_ISNAN},
    {"isinf", BI_ISINF},
    {"isfinite", BI_ISFINITE},
    {"__expf", BI_EXP},
    {"__exp10f", BI_EXP10},
    {"__logf", BI_LOG},
    {"__log2f", BI_LOG2},
    {"__log10f", BI_LOG10},
    {"__sinf", BI_SIN},
    {"__cosf", BI_COS},
    {"__tanf", BI_TAN},
    {"__powf", BI_POW},
};

/* The math functions by their double name; the float name appends 'f' (prelude.c declares
 * both from its own list, which must name the same functions). */
static const Name math[] = {
    {"sqrt", BI_SQRT},         {"rsqrt", BI_RSQRT}, {"cbrt", BI_CBRT},   {"exp", BI_EXP},
    {"exp2", BI_EXP2},         {"exp10", BI_EXP10}, {"expm1", BI_EXPM1}, {"log", BI_LOG},
    {"log2", BI_LOG2},         {"log10", BI_LOG10}, {"log1p", BI_LOG1P}, {"sin", BI_SIN},
    {"cos", BI_COS},           {"tan", BI_TAN},     {"asin", BI_ASIN},   {"acos", BI_ACOS},
    {"atan", BI_ATAN},         {"atan2", BI_ATAN2}, {"sinh", BI_SINH},   {"cosh", BI_COSH},
    {"tanh", BI_TANH},         {"asinh", BI_ASINH}, {"acosh", BI_ACOSH}, {"atanh", BI_ATANH},
    {"pow", BI_POW},           {"fabs", BI_FABS},   {"fmin", BI_FMIN},   {"fmax", BI_FMAX},
    {"floor", BI_FLOOR},       {"ceil", BI_CEIL},   {"round", BI_ROUND}, {"trunc", BI_TRUNC},
    {"rint", BI_RINT},         {"fmod", BI_FMOD},   {"fma", BI_FMA},     {"hypot", BI_HYPOT},
    {"copysign", BI_COPYSIGN}, {"erf", BI_ERF},     {"erfc", BI_ERFC},   {"tgamma", BI_TGAMMA},
    {"lgamma", BI_LGAMMA},
};

KBuiltin fe_builtin_lookup(const char *name) {
  if (!name) return BI_NONE;
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    if (strcmp(fixed[i].name, name) == 0) return fixed[i].id;
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof math / sizeof *math; i++) {
    size_t m = strlen(math[i].name);
    if (strncmp(math[i].name, name, m) == 0 && (n == m || (n == m + 1 && name[m] == 'f')))
      return math[i].id;
  }
  return BI_NONE;
}

/* The conversions every back end can print: the CUDA and OpenCL printf common subset. */
bool fe_check_printf_format(const char *fmt, size_t len, KLoc loc) {
  bool ok = true;
  for (size_t i = 0; i < len; i++) {
    if (fmt[i] != '%') continue;
    size_t start = i++;
    if (i < len && fmt[i] == '%') continue;
    bool star = false;
    while (i < len && fmt[i] && strchr("-+ #0", fmt[i])) i++;
    while (i < len && ((fmt[i] >= '0' && fmt[i] <= '9') || fmt[i] == '*')) star |= fmt[i++] == '*';
    if (i < len && fmt[i] == '.') {
      i++;
      while (i < len && ((fmt[i] >= '0' && fmt[i] <= '9') || fmt[i] == '*'))
        star |= fmt[i++] == '*';
    }
    size_t lstart = i;
    while (i < len && fmt[i] && strchr("hljztL", fmt[i])) i++;
    size_t llen = i - lstart;
    const char *lm = fmt + lstart;
    bool no_len = llen == 0;
    bool int_len =
        no_len || (llen == 1 && lm[0] == 'l') || (llen == 2 && lm[0] == 'l' && lm[1] == 'l');
    char conv = i < len ? fmt[i] : 0;
    bool good = false;
    if (star)
      good = false; /* '*' takes its value from an argument: not in every back end */
    else if (conv && strchr("diuxXo", conv))
      good = int_len;
    else if (conv && strchr("fegcsp", conv))
      good = no_len;
    if (!good) {
      size_t end = i < len ? i + 1 : len;
      /* Quotes the whole conversion as written: '%hd', '%5.2Lf', '%n'. */
      diag_error(loc, "printf conversion '%.*s' is not supported in kcc kernels",
                 (int)(end - start), fmt + start);
      ok = false;
      if (i >= len) break;
    }
  }
  return ok;
}
