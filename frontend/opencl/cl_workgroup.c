/* cl_workgroup.c — OpenCL C 2.0's work-group functions, written in OpenCL C for the `.cl`
 * prelude: the work-item functions get_global_linear_id, get_local_linear_id and
 * get_enqueued_local_size, and the work-group collective functions (OpenCL C 2.0 §6.13.15,
 * 3.0's __opencl_c_work_group_collective_functions): work_group_all/any/broadcast and
 * work_group_reduce_/scan_inclusive_/scan_exclusive_ add, min and max on int, uint, long,
 * ulong, float, double and half.
 *
 * Why OpenCL C over local memory and barriers rather than a KIR node per function: every form
 * kcc writes then gets them with nothing of its own. The OpenCL C kcc writes is 1.2, which has
 * no work-group functions; its SPIR-V is 1.0 for OpenCL 1.2 devices, where the Groups
 * capability (OpGroupIAdd & co.) belongs to OpenCL 2.0; PTX and CUDA C have no block-wide scan.
 * A scratch array in local memory and barriers exist in all of them.
 *
 * The scratch is one `__local ulong[1024]` (8 KiB) per module, shared by every collective a
 * kernel calls: one slot per work-item, values stored as their bits, so one array serves every
 * type. OpenCL C allows __local variables in kernels only, so the prelude declares it as a
 * private array annotated "kcc.group_scratch", which the front end (lower_stmt.c) turns into
 * the module's one shared variable, declared at module scope like a `shared` array of a `.k`
 * file: the OpenCL C and SPIR-V forms declare it in each kernel that reaches it and pass it to
 * the functions as a __local pointer. A kernel that reaches it accepts work-groups of at most
 * 1024 work-items, CUDA's limit, which the bundle records (KVar.group_scratch) and libkcrt
 * enforces on every device; a larger group (only possible by running kcc's OpenCL C or SPIR-V
 * elsewhere) gets wrong values, never a write out of bounds.
 *
 * The algorithm has three barriers and no barrier inside a loop: PoCL compiles a barrier in a
 * loop whose trip count is not a constant by replicating code, and a kernel with six such
 * reductions took more than five minutes to compile (measured 2026-11-27, PoCL 3.1); straight
 * barriers cost it about 10 ms each. Reductions and scans split the group's values into 32
 * segments: 32 work-items scan one segment each, one value after the other, then each
 * work-item combines the totals of the segments before its own. The order of combination is
 * fixed for a given group size, which the specification leaves free for floating point.
 *
 * The functions must be reached by every work-item of the group (the specification says so,
 * as for barrier), and each call ends with a barrier after its last read of the scratch, so
 * the next call may write it at once. */
#include <stdio.h>

#include "fe_opencl.h"

#define F     "__KCC_CL static inline __attribute__((overloadable))"
#define SLOTS KIR_GROUP_SCRATCH_SLOTS

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

/* The combining expression of op on a and b of type t. min and max of floating point are fmin
 * and fmax: a NaN loses to a number (the specification does not say what a NaN does there). */
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
    char seg[160], pre[160], tot[160], incl[160], excl[160];
    op_expr(seg, sizeof seg, op, t, "acc", "__KCC_FROM(__kcc_wg_scratch[k])");
    op_expr(pre, sizeof pre, op, t, "pre", "__KCC_FROM(__kcc_wg_scratch[(s + 1) * len - 1])");
    op_expr(tot, sizeof tot, op, t, "pre", "__KCC_FROM(__kcc_wg_scratch[e - 1])");
    op_expr(incl, sizeof incl, op, t, "pre", "__KCC_FROM(__kcc_wg_scratch[i])");
    op_expr(excl, sizeof excl, op, t, "pre", "__KCC_FROM(__kcc_wg_scratch[i - 1])");
    /* mode 0: reduce, 1: inclusive scan, 2: exclusive scan. The n values (n <= 1024) are 32
       segments of len = ceil(n / 32) slots: after the first barrier, work-item j < 32 scans
       segment j in place, one value after the other; after the second, each work-item
       combines the totals of the segments before its own (each segment's last slot) with its
       slot (or the one before it), and a reduction combines all the totals. So three barriers
       and at most 64 steps for any group, and no barrier in a loop. Work-items past the 1024th
       (a launch libkcrt refuses) read the last slot's results: wrong, but in bounds. */
    kbuf_printf(b,
                F " %s __kcc_wg_%s(%s x, int mode) {\n"
                  "  __KCC_WG_SCRATCH;\n"
                  "  size_t i = __kcc_lid(), n = __kcc_lsize(), len;\n"
                  "  n = n < %d ? n : %d;\n"
                  "  len = (n + 31) / 32;\n"
                  "  if (i < n) __kcc_wg_scratch[i] = __KCC_TO(x);\n"
                  "  i = i < n ? i : n - 1;\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  if (i < 32 && i * len < n) {\n"
                  "    size_t k = i * len, e = k + len < n ? k + len : n;\n"
                  "    %s acc = __KCC_FROM(__kcc_wg_scratch[k]);\n"
                  "    for (k++; k < e; k++) {\n"
                  "      acc = %s;\n"
                  "      __kcc_wg_scratch[k] = __KCC_TO(acc);\n"
                  "    }\n"
                  "  }\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  %s pre = (%s)%s, r;\n"
                  "  size_t j = mode ? i / len : (n + len - 1) / len, s = 0;\n"
                  "  if (j > 0) pre = __KCC_FROM(__kcc_wg_scratch[len - 1]);\n"
                  "  for (s = 1; s + 1 < j; s++) pre = %s;\n"
                  "  if (mode == 0) {\n"
                  "    size_t e = n;\n"
                  "    r = j == 1 ? __KCC_FROM(__kcc_wg_scratch[n - 1]) : %s;\n"
                  "  } else {\n"
                  "    if (j > 1) pre = %s;\n"
                  "    if (mode == 1) r = j == 0 ? __KCC_FROM(__kcc_wg_scratch[i]) : %s;\n"
                  "    else if (i %% len == 0) r = pre;\n"
                  "    else r = j == 0 ? __KCC_FROM(__kcc_wg_scratch[i - 1]) : %s;\n"
                  "  }\n"
                  "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                  "  return r;\n}\n",
                T, op, T, SLOTS, SLOTS, T, seg, T, T, id, pre, tot, pre, incl, excl);
    kbuf_printf(b,
                F " %s work_group_reduce_%s(%s x) { return __kcc_wg_%s(x, 0); }\n" F
                  " %s work_group_scan_inclusive_%s(%s x) { return __kcc_wg_%s(x, 1); }\n" F
                  " %s work_group_scan_exclusive_%s(%s x) { return __kcc_wg_%s(x, 2); }\n",
                T, op, T, op, T, op, T, op, T, op, T, op);
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
