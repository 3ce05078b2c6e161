/* options.c — the options kcc takes, shared by the command line (main.c) and libkcc's
 * kcc_compile (libkcc.c): the output forms, the parser and its usage errors. */
#include "options.h"
#include "diag.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const Form kcc_forms[] = {
    {"ptx", ".ptx", emit_ptx, true, NULL, "PTX assembly for NVIDIA GPUs (default)"},
    {"llvm", ".ll", emit_llvm_ir, true, NULL, "optimised LLVM IR for NVPTX"},
    {"spirv", ".spv", emit_spirv, false,
     "the OpenCL SPIR-V form (.spv) needs one address space per pointer",
     "SPIR-V for OpenCL, validated"},
    {"vkspv", ".vk.spv", emit_spirv_vulkan, false,
     "the Vulkan SPIR-V form (.vk.spv) needs one address space per pointer",
     "SPIR-V for Vulkan compute, validated"},
    {"cl", ".cl", emit_opencl_c, false,
     "the OpenCL C form (.cl) needs one address space per pointer", "OpenCL C 1.2 source"},
    {"cuda", ".cu", emit_cuda_c, true, NULL, "CUDA C source (extern \"C\" kernels)"},
    {"bundle", ".kcb", emit_bundle, false,
     "the bundle (.kcb) needs one address space per pointer for its OpenCL C and SPIR-V",
     "fat module: PTX, cubins, SPIR-V, OpenCL C, kernel table"},
    {"header", ".h", emit_header, false,
     "the header's bundle (.h) needs one address space per pointer for its OpenCL C and SPIR-V",
     "C header: typed launch functions + embedded bundle"},
    {"kir", ".kir", NULL, true, NULL, "kcc's typed kernel IR, as text"},
};
const int kcc_nforms = sizeof kcc_forms / sizeof kcc_forms[0];
#define forms  kcc_forms
#define NFORMS kcc_nforms

const Form *kcc_form_by_name(const char *name) {
  for (int i = 0; i < NFORMS; i++)
    if (!strcmp(forms[i].name, name)) return &forms[i];
  return NULL;
}

/* The form whose extension ends the path; the longest wins, so x.vk.spv is Vulkan's. */
static const Form *form_by_ext(const char *path) {
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/')) return NULL;
  const Form *best = NULL;
  size_t n = strlen(path), base = strrchr(path, '/') ? (size_t)(strrchr(path, '/') - path) + 1 : 0;
  for (int i = 0; i < NFORMS; i++) {
    size_t e = strlen(forms[i].ext);
    if (n - base >= e && !strcmp(path + n - e, forms[i].ext) && (!best || e > strlen(best->ext)))
      best = &forms[i];
  }
  return best;
}

void kcc_usage(FILE *out) {
  fprintf(out, "usage: kcc [options] file.k|file.cu|file.cl [-o output]\n"
               "\n"
               "Compiles a kcc kernel file (.k, the kcc dialect), the device code of a CUDA file\n"
               "(.cu) or an OpenCL C file (.cl). The output form follows the output file's\n"
               "extension:\n");
  for (int i = 0; i < NFORMS; i++)
    fprintf(out, "  %-7s %-6s %s\n", forms[i].ext, forms[i].name, forms[i].what);
  fprintf(out, "\n"
               "Options:\n"
               "  -o FILE             write the output to FILE ('-' for standard output);\n"
               "                      default: the input's name with the form's extension\n"
               "                      (NAME.kcc.EXT when that is the input's own, g.kcc.cu)\n"
               "  --emit=FORM         choose the output form whatever the extension\n"
               "  -arch=sm_XX[,...]   NVIDIA targets (default sm_75); the first is the PTX target\n"
               "  -O0 -O1 -O2 -O3     optimisation level (default -O3)\n"
               "  -I DIR, -D NAME[=VALUE], -U NAME\n"
               "                      preprocessor search paths and macros\n"
               "  -MD, -MMD           also write a make dependency file (OUTPUT.d unless -MF)\n"
               "  -MF FILE            name of the dependency file (implies -MD)\n"
               "  -MT TARGET          the dependency rule's target (default: the output);\n"
               "                      with -o -, -MD needs both -MF and -MT\n"
               "  -MP                 accepted, no effect: depfiles always have phony targets\n"
               "  -x LANG             read the input as LANG whatever its extension: cl (OpenCL\n"
               "                      C), cu (CUDA) or k (the kcc dialect)\n"
               "  -cl-std=CLX.Y       OpenCL C version of a .cl input: CL1.2 (default), CL2.0,\n"
               "                      CL3.0; CL1.0 and CL1.1 read as CL1.2 (also -std=CLX.Y)\n"
               "  -cl-OPTION          OpenCL C's build options (-cl-mad-enable,\n"
               "                      -cl-fast-relaxed-math...: docs/cli.md lists them)\n"
               "  -std=STD            must suit the input: c99 c11 c17 (.k), c++11 .. c++20\n"
               "                      (.cu); no effect there\n"
               "  -Werror             treat warnings as errors\n"
               "  -w                  print no warnings (and so -Werror has none to raise)\n"
               "  -Wall -Wextra -WNAME -Wno-NAME -Werror=NAME\n"
               "                      clang's warning sets and switches, as clang takes them\n"
               "  -g -c -pedantic     accepted, no effect (kcc always compiles, never links)\n"
               "  -ffast-math         allow approximate math (no IEEE guarantees)\n"
               "  -fbounds-check      check every memory access of the kernels against its\n"
               "                      buffer, array or shared memory (docs/bugs.md)\n"
               "  -ffp-contract=fast|off\n"
               "                      fuse a*b+c into fma (fast, the default, like nvcc) or never\n"
               "  --cuda-path=DIR     CUDA toolkit holding nvvm/libdevice (default: $CUDA_PATH,\n"
               "                      $CUDA_HOME, nvcc's directory, /usr/local/cuda)\n"
               "  --instantiate=NAME<ARGS>\n"
               "                      compile that specialisation of a kernel template of a\n"
               "                      .cu file as a kernel named NAME_ARGS (repeatable; as\n"
               "                      NVRTC's name expressions)\n"
               "  --prefix=NAME       start the C header's names with NAME (default: from the\n"
               "                      input's name, e.g. vecadd_k for vecadd.k)\n"
               "  -v                  print each stage's tools, settings and times\n"
               "  --devices           list the devices the runtime (libkcrt) can use (alone)\n"
               "  --version           print kcc's version (alone)\n"
               "  --help              print this help\n"
               "\n"
               "Exit status: 0 success, 1 the kernel has errors, 2 bad command line.\n");
}

/* Set by kcc_parse_args: messages for libkcc's callers leave out the command-line hint. */
static bool library;

int kcc_usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  FILE *out = diag_output();
  fprintf(out, "kcc: error: ");
  vfprintf(out, fmt, ap);
  fprintf(out, library ? "\n" : "\nkcc: run 'kcc --help' for usage\n");
  va_end(ap);
  return 2;
}

/* A file that exists and is neither a regular file nor a directory (/dev/null, a FIFO): no
 * extension to tell a form from, so it gets the default form, as '-' does. */
bool kcc_is_special(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Options about files, which only the command line writes. */
static bool is_driver_only(const char *a) {
  static const char *const exact[] = {"--help", "-h",   "--devices", "--version",
                                      "-MD",    "-MMD", "-MP"};
  for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
    if (!strcmp(a, exact[i])) return true;
  return !strncmp(a, "-o", 2) || !strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3);
}

/* Strict: "sm_90x" or "sm_90," is a typo, not sm_90. */
static bool parse_archs(KOptions *o, const char *list) {
  o->narchs = 0;
  for (const char *p = list;;) {
    const char *num = !strncmp(p, "sm_", 3) ? p + 3 : !strncmp(p, "compute_", 8) ? p + 8 : NULL;
    if (!num || !isdigit((unsigned char)*num)) return false;
    char *end;
    long sm = strtol(num, &end, 10);
    if ((*end && *end != ',') || sm < 50 || sm > 200 || o->narchs == KCC_MAX_ARCHS) return false;
    o->archs[o->narchs++] = (int)sm;
    if (!*end) return true;
    p = end + 1;
  }
}

/* The input's language, from its extension: what -std= may name for it. */
typedef enum Lang { LANG_C, LANG_CUDA, LANG_OPENCL } Lang;

static Lang lang_of(const char *input, const char *xlang) {
  if (xlang) return !strcmp(xlang, "cl") ? LANG_OPENCL : !strcmp(xlang, "cu") ? LANG_CUDA : LANG_C;
  const char *dot = strrchr(input, '.');
  if (dot && !strchr(dot, '/') && !strcmp(dot, ".cu")) return LANG_CUDA;
  if (dot && !strchr(dot, '/') && !strcmp(dot, ".cl")) return LANG_OPENCL;
  return LANG_C;
}

/* OpenCL C's build options (clBuildProgram's, OpenCL 3.0 section 5.8.6), for OpenCL C input.
 * clang parses with those it knows (float literals under -cl-single-precision-constant, the
 * __FAST_RELAXED_MATH__ macro...); kcc gives the ones it has a meaning for that meaning. The
 * others permit what kcc never does (flushing denormals, ignoring signed zeros), or describe
 * what kcc always does (IEEE division and square root, argument information in the bundle's
 * kernel table), so accepting them changes nothing. */
enum { CL_NONE, CL_CONTRACT, CL_FAST, CL_O0 };
static const struct {
  const char *name;
  bool clang; /* passed on to clang's parse */
  int effect;
} cl_options[] = {
    {"-cl-single-precision-constant", true, CL_NONE},
    {"-cl-denorms-are-zero", false, CL_NONE},
    {"-cl-fp32-correctly-rounded-divide-sqrt", true, CL_NONE},
    {"-cl-opt-disable", true, CL_O0},
    {"-cl-mad-enable", true, CL_CONTRACT},
    {"-cl-no-signed-zeros", true, CL_NONE},
    {"-cl-unsafe-math-optimizations", true, CL_CONTRACT},
    {"-cl-finite-math-only", true, CL_NONE},
    {"-cl-fast-relaxed-math", true, CL_FAST},
    {"-cl-kernel-arg-info", true, CL_NONE},
    {"-cl-uniform-work-group-size", true, CL_NONE},
    {"-cl-no-subgroup-ifp", false, CL_NONE},
    {"-cl-strict-aliasing", false, CL_NONE}, /* OpenCL 1.0's, deprecated since */
};

static int cl_build_option(Cmd *c, KOptions *o, const char *a) {
  for (size_t i = 0; i < sizeof cl_options / sizeof *cl_options; i++) {
    if (strcmp(a, cl_options[i].name)) continue;
    if (!c->cl_opt) c->cl_opt = a;
    if (cl_options[i].clang) o->cargs[o->ncargs++] = a;
    switch (cl_options[i].effect) {
    case CL_CONTRACT: o->fp_contract = true; break;
    case CL_FAST: o->fast_math = o->fp_contract = true; break;
    case CL_O0: o->opt_level = 0; break;
    default: break;
    }
    return 0;
  }
  return kcc_usage_error("unknown OpenCL build option '%s' (docs/cli.md lists those kcc takes)", a);
}

/* -std=: kcc parses each language in one fixed dialect (docs/dialect.md), so a valid value
 * changes nothing. It is still checked, so that a build asking for another language's
 * standard, or one the dialect is not (C89, C23), hears about it. */
static int check_std(const char *opt, const char *v, const char *input, const char *xlang,
                     KOptions *o) {
  static const char *const c[] = {"c99", "c11", "c17", "c18", "gnu99", "gnu11", "gnu17", "gnu18"};
  static const char *const cuda[] = {"c++11",   "c++14",   "c++17",   "c++20",
                                     "gnu++11", "gnu++14", "gnu++17", "gnu++20"};
  /* 1.0 and 1.1 are parsed as 1.2, which only adds to them. */
  static const char *const cl[] = {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0",
                                   "cl1.0", "cl1.1", "cl1.2", "cl2.0", "cl3.0"};
  Lang lang = lang_of(input, xlang);
  if (!strcmp(opt, "-cl-std") && lang != LANG_OPENCL)
    return kcc_usage_error("'-cl-std=%s' is for OpenCL C input (.cl or -x cl), and '%s' is not", v,
                           input);
  const char *const *ok = lang == LANG_C ? c : lang == LANG_CUDA ? cuda : cl;
  size_t n = lang == LANG_C      ? sizeof c / sizeof *c
             : lang == LANG_CUDA ? sizeof cuda / sizeof *cuda
                                 : sizeof cl / sizeof *cl;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(v, ok[i])) {
      /* The OpenCL C version does change the parse: 2.0 has the generic address space. */
      if (lang == LANG_OPENCL) o->cl_std = v[2] == '1' ? 120 : v[2] == '2' ? 200 : 300;
      return 0;
    }
  return kcc_usage_error("invalid '%s=%s' for '%s': %s", opt, v, input,
                         lang == LANG_C
                             ? "kcc's C dialect takes c99, c11, c17, gnu99, gnu11 or gnu17"
                         : lang == LANG_CUDA ? "CUDA input takes c++11, c++14, c++17 or c++20"
                                             : "OpenCL C input takes CL1.0, CL1.1, CL1.2, "
                                               "CL2.0 or CL3.0");
}

/* Options that take a value either joined (-Ifoo) or as the next argument (-I foo). */
static const char *take_value(int argc, char **argv, int *i, const char *opt) {
  size_t n = strlen(opt);
  if (argv[*i][n]) return argv[*i] + n;
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

/* A value-taking option given twice with different values: which one was meant? */
static bool conflicting(const char *old, const char *new) {
  return old && strcmp(old, new);
}

/* Returns -1 to go on compiling, else the exit status. */
int kcc_parse_args(int argc, char **argv, KOptions *o, Cmd *c) {
  library = c->library;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (c->library && is_driver_only(a))
      return kcc_usage_error("'%s' is an option of the kcc command, not of kcc_compile (which "
                             "writes no file: the output is in the result)",
                             a);
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      c->help = true;
      return -1;
    } else if (!strcmp(a, "--devices") || !strcmp(a, "--version")) {
      c->alone = a;
    } else if (a[0] == '-' && a[1] == 'o') {
      if (!(v = take_value(argc, argv, &i, "-o")))
        return kcc_usage_error("missing file name after '-o'");
      if (!*v) return kcc_usage_error("empty file name after '-o'");
      if (conflicting(c->output, v))
        return kcc_usage_error("more than one output file ('-o %s' and '-o %s')", c->output, v);
      c->output = v;
    } else if (!strncmp(a, "--emit=", 7)) {
      const Form *f = kcc_form_by_name(a + 7);
      if (!f) return kcc_usage_error("unknown output form '%s'", a + 7);
      if (c->form && c->form != f)
        return kcc_usage_error("more than one output form ('--emit=%s' and '--emit=%s')",
                               c->form->name, f->name);
      c->form = f;
    } else if (!strncmp(a, "-arch=", 6) || !strcmp(a, "-arch")) {
      v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v) return kcc_usage_error("missing argument to '-arch'");
      if (!parse_archs(o, v))
        return kcc_usage_error("invalid -arch '%s' (expected sm_XX[,sm_YY...], e.g. sm_90)", v);
    } else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      o->opt_level = a[2] - '0';
    } else if (!strcmp(a, "-O")) {
      o->opt_level = 2;
    } else if (a[0] == '-' && a[1] == 'O') {
      return kcc_usage_error("invalid optimisation level '%s' (expected -O0, -O1, -O2, -O3 or -O)",
                             a);
    } else if (a[0] == '-' && (a[1] == 'I' || a[1] == 'D' || a[1] == 'U')) {
      char flag[3] = {'-', a[1], 0};
      if (!(v = take_value(argc, argv, &i, flag)) || !*v)
        return kcc_usage_error("missing argument to '%s'", flag);
      o->cargs[o->ncargs++] = flag[1] == 'I' ? "-I" : flag[1] == 'D' ? "-D" : "-U";
      o->cargs[o->ncargs++] = v;
    } else if (!strcmp(a, "-MD") || !strcmp(a, "-MMD")) {
      /* -MMD leaves out system headers, which kcc's depfiles never list anyway. */
      c->md = true;
    } else if (!strcmp(a, "-MP")) {
      /* Phony targets for the headers: kcc's depfiles always have them. */
    } else if (!strncmp(a, "-MF", 3) || !strncmp(a, "-MT", 3)) {
      const char **slot = a[2] == 'F' ? &c->depfile : &c->deptarget;
      char flag[4] = {'-', 'M', a[2], 0};
      if (!(v = take_value(argc, argv, &i, flag)))
        return kcc_usage_error("missing %s after '%s'", a[2] == 'F' ? "file name" : "target", flag);
      if (!*v)
        return kcc_usage_error("empty %s after '%s'", a[2] == 'F' ? "file name" : "target", flag);
      if (conflicting(*slot, v))
        return kcc_usage_error("more than one %s ('%s' and '%s')", flag, *slot, v);
      *slot = v;
      c->md |= a[2] == 'F';
    } else if (a[0] == '-' && a[1] == 'x') {
      if (!(v = take_value(argc, argv, &i, "-x")) || !*v)
        return kcc_usage_error("missing language after '-x'");
      if (!strcmp(v, "cuda")) v = "cu";
      if (strcmp(v, "cl") && strcmp(v, "cu") && strcmp(v, "k"))
        return kcc_usage_error("unknown language '-x %s' (expected cl for OpenCL C, cu for CUDA "
                               "or k for the kcc dialect)",
                               v);
      if (conflicting(c->xlang, v))
        return kcc_usage_error("more than one language ('-x %s' and '-x %s')", c->xlang, v);
      c->xlang = v;
      o->lang = !strcmp(v, "cl") ? KL_LANG_CL : !strcmp(v, "cu") ? KL_LANG_CU : KL_LANG_K;
    } else if (!strncmp(a, "-std=", 5) || !strncmp(a, "-cl-std=", 8)) {
      /* Checked once the input, and so its language, is known. */
      c->std_opt = a;
      c->std = strchr(a, '=') + 1;
    } else if (!strncmp(a, "-cl-", 4)) {
      int st = cl_build_option(c, o, a);
      if (st) return st;
    } else if (!strcmp(a, "-Werror")) {
      o->werror = true;
    } else if (!strcmp(a, "-Wno-error")) {
      o->werror = false;
    } else if (a[0] == '-' && a[1] == 'W' && a[2] && a[3] == ',' && strchr("alp", a[2])) {
      /* Not warning flags: options for a linker, assembler or preprocessor kcc does not run. */
      return kcc_usage_error("unknown option '%s'", a);
    } else if (a[0] == '-' && a[1] == 'W') {
      /* -Wall, -Wextra, -W, -WNAME, -Wno-NAME, -Werror=NAME: the warnings are clang's (kcc's
       * own are few and always on), so the flags go to clang as they would to a clang build;
       * an unknown NAME gets clang's own warning about it. Through -Xclang, to clang's parser
       * only: its driver would print that warning itself, straight to stderr. */
      o->cargs[o->ncargs++] = "-Xclang";
      o->cargs[o->ncargs++] = a[2] ? a : "-Wextra";
    } else if (!strcmp(a, "-w")) {
      c->nowarn = true;
    } else if (!strcmp(a, "-g") ||
               (a[0] == '-' && a[1] == 'g' && a[2] >= '0' && a[2] <= '3' && !a[3])) {
      /* Accepted, adds nothing: see docs/cli.md for what each form carries. */
    } else if (!strcmp(a, "-c") || !strcmp(a, "-pedantic")) {
      /* -c: kcc always compiles and never links. -pedantic: the dialect's checks are fixed. */
    } else if (!strcmp(a, "-fbounds-check")) {
      o->bounds_check = true;
    } else if (!strcmp(a, "-fno-bounds-check")) {
      o->bounds_check = false;
    } else if (!strcmp(a, "-ffast-math")) {
      o->fast_math = true;
    } else if (!strncmp(a, "-ffp-contract=", 14)) {
      if (!strcmp(a + 14, "fast") || !strcmp(a + 14, "on"))
        o->fp_contract = true;
      else if (!strcmp(a + 14, "off"))
        o->fp_contract = false;
      else
        return kcc_usage_error("invalid value '%s' for -ffp-contract (expected fast or off)",
                               a + 14);
    } else if (!strncmp(a, "--prefix=", 9)) {
      /* A C identifier: the header's names are NAME_launch_KERNEL and the like. */
      const char *p = a + 9;
      bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_';
      for (; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
             (*p >= '0' && *p <= '9');
      if (!ok) return kcc_usage_error("invalid --prefix '%s' (expected a C identifier)", a + 9);
      o->prefix = a + 9;
    } else if (!strncmp(a, "--instantiate=", 14) || !strcmp(a, "--instantiate")) {
      v = a[13] == '=' ? a + 14 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v || !*v || !strchr(v, '<'))
        return kcc_usage_error("'--instantiate' needs a template specialisation such as "
                               "'--instantiate=reduce<256, float>'");
      if (o->ninstantiate == KCC_MAX_INSTANTIATIONS)
        return kcc_usage_error("more than %d '--instantiate' options", KCC_MAX_INSTANTIATIONS);
      o->instantiate[o->ninstantiate++] = v;
    } else if (!strncmp(a, "--cuda-path=", 12)) {
      /* Empty would look for "/nvvm/libdevice" and, being explicit, nowhere else. */
      if (!a[12]) return kcc_usage_error("missing directory after '--cuda-path='");
      o->cuda_path = a + 12;
    } else if (!strcmp(a, "-v")) {
      o->verbose = true;
    } else if (a[0] == '-' && a[1]) {
      return kcc_usage_error("unknown option '%s'", a);
    } else if (c->input && c->library) {
      return kcc_usage_error("unexpected argument '%s' among the options (kcc_compile takes "
                             "the source separately)",
                             a);
    } else if (c->input) {
      return kcc_usage_error("more than one input file ('%s'); kcc compiles one file at a time", a);
    } else {
      c->input = a;
    }
  }
  if (c->alone) {
    /* Each does one thing; an argument beside it would be silently ignored. */
    if (argc > 2)
      return kcc_usage_error("'%s' takes no other argument (got '%s')", c->alone,
                             argv[1] == c->alone ? argv[2] : argv[1]);
    return -1;
  }
  if (!c->input) return kcc_usage_error("no input file");
  if (!strcmp(c->input, "-"))
    return kcc_usage_error("kcc cannot read a kernel from standard input; name the file");
  if (o->ninstantiate && lang_of(c->input, c->xlang) != LANG_CUDA)
    return kcc_usage_error("'--instantiate' is for CUDA input (.cu or -x cu), and '%s' is not",
                           c->input);
  if (c->cl_opt && lang_of(c->input, c->xlang) != LANG_OPENCL)
    return kcc_usage_error("'%s' is for OpenCL C input (.cl or -x cl), and '%s' is not", c->cl_opt,
                           c->input);
  if (c->std) {
    char opt[16];
    snprintf(opt, sizeof opt, "%.*s", (int)(c->std - 1 - c->std_opt), c->std_opt);
    int st = check_std(opt, c->std, c->input, c->xlang, o);
    if (st) return st;
  }
  if (!c->form && c->library) c->form = kcc_form_by_name("bundle"); /* what libkcrt loads */
  if (!c->form)
    c->form = c->output && strcmp(c->output, "-") && !kcc_is_special(c->output)
                  ? form_by_ext(c->output)
                  : &forms[0];
  if (!c->form)
    return kcc_usage_error("cannot tell the output form from '%s'; name it with --emit=FORM",
                           c->output);
  if (c->deptarget && !c->md)
    return kcc_usage_error("'-MT %s' names the target in a dependency file; without -MD or -MF "
                           "there is none",
                           c->deptarget);
  if (c->md && c->output && !strcmp(c->output, "-") && (!c->depfile || !c->deptarget))
    /* There is no file name to derive them from; "-.d" with the target "-" would help no
     * build, as make has no file named "-". */
    return kcc_usage_error("-MD with '-o -' needs %s",
                           c->depfile ? "-MT TARGET (the dependency rule's target)"
                                      : "-MF FILE (the dependency file's name)");
  return -1;
}