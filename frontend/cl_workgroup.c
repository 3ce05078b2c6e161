/* cl_workgroup.c — OpenCL C 2.0's work-group functions, written in OpenCL C for the `.cl`
 * prelude: the work-item functions get_global_linear_id, get_local_linear_id and
 * get_enqueued_local_size, and the work-group collective functions (OpenCL C 2.0 §6.13.15,
 * 3.0's __opencl_c_work_group_collective_functions): work_group_all/any/broadcast and
 * work_group_reduce_/scan_inclusive_/scan_exclusive_ add, min and max on int, uint, long,
 * ulong, float, double and half.
 *
 * Why OpenCL C over local memory and barriers rather than a KIR node per function: every form
 * kcc writes then gets them with nothing of its own. SPIR-V 1.0 for OpenCL 1.2 has no group
 * operations PoCL or NVIDIA's OpenCL accept (OpGroup* needs the Groups capability, which
 * neither takes from kcc's SPIR-V), OpenCL C 1.2 output has none, and PTX and CUDA C have no
 * block-wide scan; a scratch array and barriers exist in all of them. The cost is a few
 * barriers per call, which is what a work-group collective costs on most devices anyway.
 *
 * The scratch is one `__local ulong[256]` per module, shared by every collective a kernel
 * calls. OpenCL C allows __local variables in kernels only, so the prelude declares it as a
 * private array annotated "kcc.group_scratch", which the front end (lower_stmt.c) turns into
 * the module's one shared variable — the machinery CUDA's __shared__ inside a device function
 * uses, so the OpenCL C and SPIR-V forms pass it to the functions as a __local pointer. One
 * array for all (values stored as their bits) rather than one per type keeps a kernel's local
 * memory at 2 KiB whatever it calls. 256 slots, not the largest work-group: a group of more
 * work-items goes through in chunks of 256 (any size works, 1024 on CUDA, more on CPUs), and
 * most groups take one chunk.
 *
 * The functions must be reached by every work-item of the group (the specification says so,
 * as for barrier), and each call ends with a barrier after its last read of the scratch, so
 * the next call may write it at once. Reductions and scans combine in a fixed order for a
 * given group size (a tree over slots, chunk by chunk in linear-id order), which the
 * specification leaves free for floating point. */
#include <stdio.h>

#include "fe.h"

#define F     "__KCC_CL static inline __attribute__((overloadable))"
#define SLOTS 256

static const struct {
  const char *t;
  const char *to, *from; /* the value as the scratch's ulong bits, and back */
  const char *min, *max; /* min's identity (the largest value) and max's (the smallest) */
  bool is_float;
} types[] = {
    {"int", "(ulong)as_uint(__v)", "as_int((uint)__b)", "INT_MAX", "INT_MIN", false},
    {"uint", "(ulong)__v", "(uint)__b", "UINT_MAX", "0u", false},
    {"long", "as_ulong(__v)", "as_long(__b)", "LONG_MAX", "LONG_MIN", false},
    {"ulong", "__v", "__b", "ULONG_MAX", "0ul", false},
    {"float", "(ulong)as_uint(__v)", "as_float((uint)__b)", "INFINITY", "-INFINITY", true},
    {"double", "as_ulong(__v)", "as_double(__b)", "(double)INFINITY", "(double)-INFINITY", true},
    {"half", "(ulong)as_ushort(__v)", "as_half((ushort)__b)", "(half)INFINITY", "(half)-INFINITY",
     true},
};

/* The combining expression of op on a and b of one type, and op's identity. min and max of
 * floating point are fmin and fmax (a NaN loses to a number, as SPIR-V's OpGroupFMin leaves
 * open). */
static void op_expr(char *buf, size_t cap, const char *op, size_t t, const char *a, const char *b) {
  if (op[1] == 'd')
    snprintf(buf, cap, "(%s + %s)", a, b);
  else if (types[t].is_float)
    snprintf(buf, cap, "f%s(%s, %s)", op, a, b);
  else
    snprintf(buf, cap, "%s(%s, %s)", op, a, b);
}

static void type_functions(KBuf *b, size_t t) {
  const char *T = types[t].t;
  kbuf_printf(b, "#define __KCC_TO(__v) (%s)\n#define __KCC_FROM(__b) (%s)\n", types[t].to,
              types[t].from);
  /* broadcast: the chosen work-item's value through slot 0. */
  kbuf_printf(b,
              F " %s __kcc_wg_bcast(%s a, int mine) { __KCC_WG_SCRATCH; if (mine) "
                "__kcc_wg_scratch[0] = __KCC_TO(a); barrier(CLK_LOCAL_MEM_FENCE); %s r = "
                "__KCC_FROM(__kcc_wg_scratch[0]); barrier(CLK_LOCAL_MEM_FENCE); return r; }\n",
              T, T, T);
  kbuf_printf(b,
              F " %s work_group_broadcast(%s a, size_t x) { return __kcc_wg_bcast(a, "
                "get_local_id(0) == x && get_local_id(1) == 0 && get_local_id(2) == 0); }\n",
              T, T);
  kbuf_printf(b,
              F " %s work_group_broadcast(%s a, size_t x, size_t y) { return __kcc_wg_bcast(a, "
                "get_local_id(0) == x && get_local_id(1) == y && get_local_id(2) == 0); }\n",
              T, T);
  kbuf_printf(b,
              F " %s work_group_broadcast(%s a, size_t x, size_t y, size_t z) { return "
                "__kcc_wg_bcast(a, get_local_id(0) == x && get_local_id(1) == y && "
                "get_local_id(2) == z); }\n",
              T, T);
  static const char *const ops[] = {"add", "min", "max"};
  for (size_t o = 0; o < 3; o++) {
    const char *op = ops[o];
    const char *id = o == 0 ? "0" : o == 1 ? types[t].min : types[t].max;
    char fold[160], tree[160], scan[160], incl[160], excl[160], carry[160];
    op_expr(fold, sizeof fold, op, t, "__KCC_FROM(__kcc_wg_scratch[i - c])", "x");
    op_expr(tree, sizeof tree, op, t, "__KCC_FROM(__kcc_wg_scratch[i])",
            "__KCC_FROM(__kcc_wg_scratch[i + h])");
    op_expr(scan, sizeof scan, op, t, "__KCC_FROM(__kcc_wg_scratch[k - d])",
            "__KCC_FROM(__kcc_wg_scratch[k])");
    op_expr(incl, sizeof incl, op, t, "carry", "__KCC_FROM(__kcc_wg_scratch[k])");
    op_expr(excl, sizeof excl, op, t, "carry", "__KCC_FROM(__kcc_wg_scratch[k - 1])");
    op_expr(carry, sizeof carry, op, t, "carry", "last");
    /* Reduce: chunk c > 0 folds its values into slots 0..255 (one barrier a chunk), then a
       tree over the slots in use halves them down to slot 0, which every work-item reads. */
    kbuf_printf(b,
                F " %s work_group_reduce_%s(%s x) {\n"
                  "  __KCC_WG_SCRATCH;\n"
                  "  size_t i = __kcc_lid(), n = __kcc_lsize(), m = n < %d ? n : %d, h = 1;\n"
                  "  for (size_t c = 0; c < n; c += %d) {\n"
                  "    if (i >= c && i < c + %d) __kcc_wg_scratch[i - c] = __KCC_TO(c == 0 ? x : "
                  "%s);\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  }\n"
                  "  while (h * 2 < m) h *= 2;\n"
                  "  for (; h > 0; h >>= 1) {\n"
                  "    if (i < h && i + h < m) __kcc_wg_scratch[i] = __KCC_TO(%s);\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  }\n"
                  "  %s r = __KCC_FROM(__kcc_wg_scratch[0]);\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  return r;\n}\n",
                T, op, T, SLOTS, SLOTS, SLOTS, SLOTS, fold, tree, T);
    /* Scan: chunk by chunk, an inclusive Hillis-Steele scan over the chunk's slots (read,
       barrier, write, barrier), combined with the carry of the chunks before it. The first
       chunk does not combine with the identity, so that an inclusive scan's first value is
       the first work-item's value exactly (-0.0 stays -0.0). */
    kbuf_printf(b,
                F " %s __kcc_wg_scan_%s(%s x, int inclusive) {\n"
                  "  __KCC_WG_SCRATCH;\n"
                  "  size_t i = __kcc_lid(), n = __kcc_lsize();\n"
                  "  %s carry = (%s)%s, r = carry;\n"
                  "  for (size_t c = 0; c < n; c += %d) {\n"
                  "    size_t m = n - c < %d ? n - c : %d, k = i - c;\n"
                  "    int mine = i >= c && i < c + m;\n"
                  "    if (mine) __kcc_wg_scratch[k] = __KCC_TO(x);\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "    for (size_t d = 1; d < m; d <<= 1) {\n"
                  "      %s v = x;\n"
                  "      if (mine && k >= d) v = %s;\n"
                  "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "      if (mine && k >= d) __kcc_wg_scratch[k] = __KCC_TO(v);\n"
                  "      barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "    }\n"
                  "    if (mine) {\n"
                  "      if (inclusive) r = c == 0 ? __KCC_FROM(__kcc_wg_scratch[k]) : %s;\n"
                  "      else if (k > 0) r = c == 0 ? __KCC_FROM(__kcc_wg_scratch[k - 1]) : %s;\n"
                  "      else r = carry;\n"
                  "    }\n"
                  "    %s last = __KCC_FROM(__kcc_wg_scratch[m - 1]);\n"
                  "    carry = c == 0 ? last : %s;\n"
                  "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  }\n"
                  "  return r;\n}\n",
                T, op, T, T, T, id, SLOTS, SLOTS, SLOTS, T, scan, incl, excl, T, carry);
    kbuf_printf(b,
                F " %s work_group_scan_inclusive_%s(%s x) { return __kcc_wg_scan_%s(x, 1); }\n" F
                  " %s work_group_scan_exclusive_%s(%s x) { return __kcc_wg_scan_%s(x, 0); }\n",
                T, op, T, op, T, op, T, op);
  }
  kbuf_printf(b, "#undef __KCC_TO\n#undef __KCC_FROM\n");
}

void fe_cl_workgroup(KBuf *b) {
  /* OpenCL C 2.0's work-item functions. kcc launches uniform work-groups (every group has the
     local size the launch gives), so get_enqueued_local_size is get_local_size. */
  kbuf_printf(b,
              "#if __OPENCL_C_VERSION__ >= 200\n" F
              " size_t get_local_linear_id(void) { return __kcc_lid(); }\n" F
              " size_t get_global_linear_id(void) { return (get_global_id(2) * get_global_size(1) "
              "+ get_global_id(1)) * get_global_size(0) + get_global_id(0); }\n" F
              " size_t get_enqueued_local_size(uint d) { return get_local_size(d); }\n"
              "#endif\n");
  kbuf_printf(b,
              "#ifdef __opencl_c_work_group_collective_functions\n"
              "#define __KCC_WG_SCRATCH __attribute__((annotate(\"kcc.group_scratch\"))) ulong "
              "__kcc_wg_scratch[%d]\n",
              SLOTS);
  for (size_t t = 0; t < sizeof types / sizeof *types; t++) type_functions(b, t);
  /* all and any: the minimum and maximum of the predicates as 0 or 1. */
  kbuf_printf(b, F " int work_group_all(int p) { return work_group_reduce_min(p != 0); }\n" F
                   " int work_group_any(int p) { return work_group_reduce_max(p != 0); }\n"
                   "#undef __KCC_WG_SCRATCH\n#endif\n");
}
