/* main.c — the kcc driver: a gcc-style command line over the stages declared in kcc.h.
 * Exit status: 0 success, 1 a diagnostic (the kernel is wrong), 2 bad usage (the command line
 * is wrong). Output is written to a temporary file beside the target and renamed into place,
 * so a failed compile never leaves a partial or stale-looking output behind. */
#include "diag.h"
#include "kcc.h"
#include "kcrt.h" /* --devices */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef bool (*EmitFn)(KModule *m, const KOptions *o, KBuf *out);

typedef struct Form {
  const char *name; /* --emit=NAME */
  const char *ext;  /* output extension that selects it */
  EmitFn emit;      /* NULL: handled by the driver itself (kir) */
  bool generic_ok;  /* the target has a generic address space (PTX) */
  const char *what;
} Form;

static const Form forms[] = {
    {"ptx", ".ptx", emit_ptx, true, "PTX assembly for NVIDIA GPUs (default)"},
    {"llvm", ".ll", emit_llvm_ir, true, "optimised LLVM IR for NVPTX"},
    {"spirv", ".spv", emit_spirv, false, "SPIR-V for OpenCL, validated"},
    {"cl", ".cl", emit_opencl_c, false, "OpenCL C 1.2 source"},
    {"cuda", ".cu", emit_cuda_c, false, "CUDA C source (extern \"C\" kernels)"},
    {"bundle", ".kcb", emit_bundle, false,
     "fat module: PTX, cubins, SPIR-V, OpenCL C, kernel table"},
    {"header", ".h", emit_header, false, "C header: typed launch functions + embedded bundle"},
    {"kir", ".kir", NULL, true, "kcc's typed kernel IR, as text"},
};
enum { NFORMS = sizeof forms / sizeof forms[0] };

static const Form *form_by_name(const char *name) {
  for (int i = 0; i < NFORMS; i++)
    if (!strcmp(forms[i].name, name)) return &forms[i];
  return NULL;
}

static const Form *form_by_ext(const char *path) {
  const char *dot = strrchr(path, '.');
  if (!dot || strchr(dot, '/')) return NULL;
  for (int i = 0; i < NFORMS; i++)
    if (!strcmp(forms[i].ext, dot)) return &forms[i];
  return NULL;
}

static void usage(FILE *out) {
  fprintf(out, "usage: kcc [options] file.k|file.cl [-o output]\n"
               "\n"
               "Compiles a kcc kernel file (.k, the kcc dialect) or an OpenCL C file (.cl). The\n"
               "output form follows the output file's extension:\n");
  for (int i = 0; i < NFORMS; i++)
    fprintf(out, "  %-6s %-6s %s\n", forms[i].ext, forms[i].name, forms[i].what);
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
               "                      C) or k (the kcc dialect)\n"
               "  -cl-std=CLX.Y       OpenCL C version of a .cl input: CL1.2 (default), CL2.0,\n"
               "                      CL3.0 (also -std=CLX.Y)\n"
               "  -std=STD            must suit the input: c99 c11 c17 (.k), c++11 .. c++20\n"
               "                      (.cu); no effect there\n"
               "  -Werror             treat warnings as errors\n"
               "  -w                  print no warnings (and so -Werror has none to raise)\n"
               "  -Wall -Wextra -W... accepted, no effect: kcc's warnings are always on\n"
               "  -g -c -pedantic     accepted, no effect (kcc always compiles, never links)\n"
               "  -ffast-math         allow approximate math (no IEEE guarantees)\n"
               "  -fbounds-check      check every memory access of the kernels against its\n"
               "                      buffer, array or shared memory (docs/bugs.md)\n"
               "  -ffp-contract=fast|off\n"
               "                      fuse a*b+c into fma (fast, the default, like nvcc) or never\n"
               "  --cuda-path=DIR     CUDA toolkit holding nvvm/libdevice (default: $CUDA_PATH,\n"
               "                      $CUDA_HOME, nvcc's directory, /usr/local/cuda)\n"
               "  --prefix=NAME       start the C header's names with NAME (default: from the\n"
               "                      input's name, e.g. vecadd_k for vecadd.k)\n"
               "  -v                  print each stage's tools, settings and times\n"
               "  --devices           list the devices the runtime (libkcrt) can use (alone)\n"
               "  --version           print kcc's version (alone)\n"
               "  --help              print this help\n"
               "\n"
               "Exit status: 0 success, 1 the kernel has errors, 2 bad command line.\n");
}

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "kcc: error: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\nkcc: run 'kcc --help' for usage\n");
  va_end(ap);
  return 2;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* An output on its way. A regular file is written to a temporary in its directory, then
 * renamed into place, so that readers (make, the runtime) never see a half-written file and
 * an existing one survives a failed compile. Through a symlink, that happens at the file the
 * link names, and the link stays. Standard output ("-"), devices and FIFOs (-o /dev/null),
 * and links that name no regular file are written in place, at commit: renaming over
 * /dev/null would replace the device for the whole system when kcc runs as root. */
typedef struct Pending {
  const char *path;
  const KBuf *data;
  char *target; /* where the temporary is renamed to (path, or what its symlink names) */
  char *tmp;
  bool in_place;
} Pending;

static bool pending_write(Pending *p) {
  struct stat st;
  if (!strcmp(p->path, "-")) {
    p->in_place = true;
  } else if (lstat(p->path, &st) != 0 || S_ISREG(st.st_mode)) {
    p->target = strdup(p->path);
  } else if (S_ISLNK(st.st_mode) && stat(p->path, &st) == 0 && S_ISREG(st.st_mode)) {
    p->target = realpath(p->path, NULL);
  } else {
    p->in_place = true;
  }
  if (p->in_place) return true;
  size_t n = p->target ? strlen(p->target) + 32 : 0;
  if (!p->target || !(p->tmp = malloc(n))) {
    diag_error((KLoc){0}, "cannot write '%s': %s", p->path, strerror(errno));
    return false;
  }
  snprintf(p->tmp, n, "%s.tmp.XXXXXX", p->target);
  int fd = mkstemp(p->tmp);
  if (fd < 0) {
    diag_error((KLoc){0}, "cannot write '%s': %s", p->path, strerror(errno));
    free(p->tmp);
    p->tmp = NULL;
    return false;
  }
  bool ok = kcc_write_all(fd, p->data->data, p->data->len);
  mode_t mask = umask(0);
  umask(mask);
  ok = ok && fchmod(fd, 0666 & ~mask) == 0;
  ok = close(fd) == 0 && ok;
  if (!ok) diag_error((KLoc){0}, "cannot write '%s': %s", p->path, strerror(errno));
  return ok;
}

static bool pending_commit(Pending *p) {
  bool ok;
  if (!strcmp(p->path, "-")) {
    ok = fwrite(p->data->data, 1, p->data->len, stdout) == p->data->len && fflush(stdout) == 0;
  } else if (p->in_place) {
    int fd = open(p->path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    ok = fd >= 0 && kcc_write_all(fd, p->data->data, p->data->len);
    if (fd >= 0) ok = close(fd) == 0 && ok;
  } else {
    ok = p->tmp && rename(p->tmp, p->target) == 0;
    if (ok) {
      free(p->tmp);
      p->tmp = NULL;
    }
  }
  if (!ok) diag_error((KLoc){0}, "cannot write '%s': %s", p->path, strerror(errno));
  return ok;
}

/* Removes what pending_write left when the output is not committed. */
static void pending_drop(Pending *p) {
  if (p->tmp) unlink(p->tmp);
  free(p->tmp);
  free(p->target);
  p->tmp = p->target = NULL;
}

/* A file that exists and is neither a regular file nor a directory (/dev/null, a FIFO): no
 * extension to tell a form from, so it gets the default form, as '-' does. */
static bool is_special(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* What identifies a file for "is this the same file": its device and inode when it exists,
 * so that ./g.cu, a symlink and a hard link to g.cu all compare equal; for a file still to be
 * created, its directory's device and inode and its last name (x.ptx and ./x.ptx). */
typedef struct FileId {
  bool known, exists;
  dev_t dev;
  ino_t ino;
  const char *name; /* the last component, when !exists */
} FileId;

static FileId file_id(const char *path) {
  FileId id = {0};
  struct stat st;
  if (stat(path, &st) == 0) {
    id.known = id.exists = true;
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    return id;
  }
  const char *slash = strrchr(path, '/');
  id.name = slash ? slash + 1 : path;
  char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
  if (dir && stat(dir, &st) == 0) {
    id.known = true;
    id.dev = st.st_dev;
    id.ino = st.st_ino;
  }
  free(dir);
  return id;
}

static bool same_file(const char *a, const char *b) {
  if (!strcmp(a, b)) return true;
  FileId x = file_id(a), y = file_id(b);
  if (!x.known || !y.known || x.exists != y.exists || x.dev != y.dev || x.ino != y.ino)
    return false;
  return x.exists || !strcmp(x.name, y.name);
}

static bool is_directory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool has_kernel(const KModule *m) {
  for (int i = 0; i < m->funcs.n; i++)
    if (((const KFunc *)m->funcs.v[i])->is_kernel) return true;
  return false;
}

/* make-style escaping of a path in a depfile. */
static void dep_path(KBuf *b, const char *p) {
  for (; *p; p++) {
    if (*p == ' ' || *p == '#') kbuf_puts(b, "\\");
    if (*p == '$') kbuf_puts(b, "$");
    kbuf_append(b, p, 1);
  }
}

static void depfile_text(KBuf *b, const char *target, const char *input, const KList *deps) {
  dep_path(b, target);
  kbuf_puts(b, ":");
  kbuf_puts(b, " ");
  dep_path(b, input);
  for (int i = 0; i < deps->n; i++) {
    kbuf_puts(b, " \\\n  ");
    dep_path(b, deps->v[i]);
  }
  kbuf_puts(b, "\n");
  /* Phony targets keep make working when a header is deleted. */
  for (int i = 0; i < deps->n; i++) {
    kbuf_puts(b, "\n");
    dep_path(b, deps->v[i]);
    kbuf_puts(b, ":\n");
  }
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
  if (xlang) return !strcmp(xlang, "cl") ? LANG_OPENCL : LANG_C;
  const char *dot = strrchr(input, '.');
  if (dot && !strchr(dot, '/') && !strcmp(dot, ".cu")) return LANG_CUDA;
  if (dot && !strchr(dot, '/') && !strcmp(dot, ".cl")) return LANG_OPENCL;
  return LANG_C;
}

/* -std=: kcc parses each language in one fixed dialect (docs/dialect.md), so a valid value
 * changes nothing. It is still checked, so that a build asking for another language's
 * standard, or one the dialect is not (C89, C23), hears about it. */
static int check_std(const char *opt, const char *v, const char *input, const char *xlang,
                     KOptions *o) {
  static const char *const c[] = {"c99", "c11", "c17", "c18", "gnu99", "gnu11", "gnu17", "gnu18"};
  static const char *const cuda[] = {"c++11",   "c++14",   "c++17",   "c++20",
                                     "gnu++11", "gnu++14", "gnu++17", "gnu++20"};
  static const char *const cl[] = {"CL1.2", "CL2.0", "CL3.0", "cl1.2", "cl2.0", "cl3.0"};
  Lang lang = lang_of(input, xlang);
  if (!strcmp(opt, "-cl-std") && lang != LANG_OPENCL)
    return bad_usage("'-cl-std=%s' is for OpenCL C input (.cl or -x cl), and '%s' is not", v,
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
  return bad_usage("invalid '%s=%s' for '%s': %s", opt, v, input,
                   lang == LANG_C ? "kcc's C dialect takes c99, c11, c17, gnu99, gnu11 or gnu17"
                   : lang == LANG_CUDA ? "CUDA input takes c++11, c++14, c++17 or c++20"
                                       : "OpenCL C input takes CL1.2, CL2.0 or CL3.0");
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

/* The default output name: the input's base name with the form's extension, in the current
 * directory, as gcc does. When that extension is the input's own (kcc g.cu --emit=cuda), a
 * ".kcc" goes before it: a default must never name the input it was derived from. */
static char *default_output(const char *input, const Form *form) {
  const char *base = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
  const char *dot = strrchr(base, '.');
  size_t n = dot ? (size_t)(dot - base) : strlen(base);
  bool clash = dot && !strcmp(dot, form->ext);
  char *out = malloc(n + strlen(form->ext) + 5);
  if (!out) return NULL;
  sprintf(out, "%.*s%s%s", (int)n, base, clash ? ".kcc" : "", form->ext);
  return out;
}

/* The files a compile will write, checked before anything is compiled: a usage error (exit 2)
 * when one would replace the input (whatever the spelling: ./g.cu, a symlink, a hard link),
 * a directory, or the other output. */
static int check_outputs(const char *input, const char *output, const char *depfile) {
  bool to_stdout = !strcmp(output, "-");
  if (!to_stdout && is_directory(output)) return bad_usage("output '%s' is a directory", output);
  if (!to_stdout && same_file(output, input))
    return bad_usage("output file '%s' is the input file '%s'", output, input);
  if (!depfile) return 0;
  if (!strcmp(depfile, "-")) {
    if (to_stdout)
      return bad_usage("the output and the dependency file cannot both go to standard output");
    return 0;
  }
  if (is_directory(depfile)) return bad_usage("dependency file '%s' is a directory", depfile);
  if (same_file(depfile, input))
    return bad_usage("dependency file '%s' is the input file '%s'", depfile, input);
  /* Two writes to /dev/null are no conflict. */
  if (!to_stdout && !is_special(output) && same_file(depfile, output))
    return bad_usage("dependency file '%s' is the output file '%s'", depfile, output);
  return 0;
}

/* After the front end: the same check against every file the kernel included (a header is
 * an input too). */
static int check_includes(const char *input, const char *output, const char *depfile,
                          const KList *deps) {
  for (int i = 0; i < deps->n; i++) {
    const char *dep = deps->v[i];
    const char *out = strcmp(output, "-") && same_file(output, dep)                ? output
                      : depfile && strcmp(depfile, "-") && same_file(depfile, dep) ? depfile
                                                                                   : NULL;
    if (out)
      return bad_usage("%s '%s' is %s%s%s'%s' includes",
                       out == output ? "output file" : "dependency file", out,
                       strcmp(out, dep) ? "'" : "a file ", strcmp(out, dep) ? dep : "",
                       strcmp(out, dep) ? "', which " : "", input);
  }
  return 0;
}

/* Writes the output and the depfile (when depfile != NULL). Both are complete before either
 * is renamed into place, and the depfile goes first: an output without its depfile would look
 * up to date to make for good, a depfile without its output only causes a rebuild. */
static bool write_outputs(const char *output, const KBuf *out, const char *depfile,
                          const KBuf *dep) {
  Pending po = {.path = output, .data = out}, pd = {.path = depfile, .data = dep};
  bool ok = (!depfile || pending_write(&pd)) && pending_write(&po);
  ok = ok && (!depfile || pending_commit(&pd)) && pending_commit(&po);
  pending_drop(&pd);
  pending_drop(&po);
  return ok;
}

/* The command line, once parsed. */
typedef struct Cmd {
  const char *input, *output, *depfile, *deptarget;
  const char *std, *std_opt; /* -std=VALUE / -cl-std=VALUE: the value and the option's name */
  const char *alone;         /* --devices or --version, which take no other argument */
  const char *xlang;         /* -x LANG: "cl" or "k" */
  const Form *form;
  bool md, nowarn;
} Cmd;

/* Returns -1 to go on compiling, else the exit status. */
static int parse_args(int argc, char **argv, KOptions *o, Cmd *c) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--devices") || !strcmp(a, "--version")) {
      c->alone = a;
    } else if (a[0] == '-' && a[1] == 'o') {
      if (!(v = take_value(argc, argv, &i, "-o"))) return bad_usage("missing file name after '-o'");
      if (!*v) return bad_usage("empty file name after '-o'");
      if (conflicting(c->output, v))
        return bad_usage("more than one output file ('-o %s' and '-o %s')", c->output, v);
      c->output = v;
    } else if (!strncmp(a, "--emit=", 7)) {
      const Form *f = form_by_name(a + 7);
      if (!f) return bad_usage("unknown output form '%s'", a + 7);
      if (c->form && c->form != f)
        return bad_usage("more than one output form ('--emit=%s' and '--emit=%s')", c->form->name,
                         f->name);
      c->form = f;
    } else if (!strncmp(a, "-arch=", 6) || !strcmp(a, "-arch")) {
      v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v) return bad_usage("missing argument to '-arch'");
      if (!parse_archs(o, v))
        return bad_usage("invalid -arch '%s' (expected sm_XX[,sm_YY...], e.g. sm_90)", v);
    } else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      o->opt_level = a[2] - '0';
    } else if (!strcmp(a, "-O")) {
      o->opt_level = 2;
    } else if (a[0] == '-' && a[1] == 'O') {
      return bad_usage("invalid optimisation level '%s' (expected -O0, -O1, -O2, -O3 or -O)", a);
    } else if (a[0] == '-' && (a[1] == 'I' || a[1] == 'D' || a[1] == 'U')) {
      char flag[3] = {'-', a[1], 0};
      if (!(v = take_value(argc, argv, &i, flag)) || !*v)
        return bad_usage("missing argument to '%s'", flag);
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
        return bad_usage("missing %s after '%s'", a[2] == 'F' ? "file name" : "target", flag);
      if (!*v) return bad_usage("empty %s after '%s'", a[2] == 'F' ? "file name" : "target", flag);
      if (conflicting(*slot, v))
        return bad_usage("more than one %s ('%s' and '%s')", flag, *slot, v);
      *slot = v;
      c->md |= a[2] == 'F';
    } else if (a[0] == '-' && a[1] == 'x') {
      if (!(v = take_value(argc, argv, &i, "-x")) || !*v)
        return bad_usage("missing language after '-x'");
      if (strcmp(v, "cl") && strcmp(v, "k"))
        return bad_usage("unknown language '-x %s' (expected cl for OpenCL C or k for the kcc "
                         "dialect)",
                         v);
      if (conflicting(c->xlang, v))
        return bad_usage("more than one language ('-x %s' and '-x %s')", c->xlang, v);
      c->xlang = v;
      o->lang = !strcmp(v, "cl") ? KL_LANG_CL : KL_LANG_K;
    } else if (!strncmp(a, "-std=", 5) || !strncmp(a, "-cl-std=", 8)) {
      /* Checked once the input, and so its language, is known. */
      c->std_opt = a;
      c->std = strchr(a, '=') + 1;
    } else if (!strcmp(a, "-Werror")) {
      o->werror = true;
    } else if (!strcmp(a, "-Wno-error")) {
      o->werror = false;
    } else if (!strncmp(a, "-Werror=", 8)) {
      return bad_usage("'%s': kcc cannot make one warning an error; -Werror makes them all "
                       "errors",
                       a);
    } else if (a[0] == '-' && a[1] == 'W' && a[2] && a[3] == ',' && strchr("alp", a[2])) {
      /* Not warning flags: options for a linker, assembler or preprocessor kcc does not run. */
      return bad_usage("unknown option '%s'", a);
    } else if (a[0] == '-' && a[1] == 'W') {
      /* -Wall, -Wextra, -Wno-NAME...: kcc has one set of warnings, always on, so these have
       * nothing to turn on or off; accepted so that habitual flags do not break a build. */
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
        return bad_usage("invalid value '%s' for -ffp-contract (expected fast or off)", a + 14);
    } else if (!strncmp(a, "--prefix=", 9)) {
      /* A C identifier: the header's names are NAME_launch_KERNEL and the like. */
      const char *p = a + 9;
      bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_';
      for (; ok && *p; p++)
        ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
             (*p >= '0' && *p <= '9');
      if (!ok) return bad_usage("invalid --prefix '%s' (expected a C identifier)", a + 9);
      o->prefix = a + 9;
    } else if (!strncmp(a, "--cuda-path=", 12)) {
      /* Empty would look for "/nvvm/libdevice" and, being explicit, nowhere else. */
      if (!a[12]) return bad_usage("missing directory after '--cuda-path='");
      o->cuda_path = a + 12;
    } else if (!strcmp(a, "-v")) {
      o->verbose = true;
    } else if (a[0] == '-' && a[1]) {
      return bad_usage("unknown option '%s'", a);
    } else if (c->input) {
      return bad_usage("more than one input file ('%s'); kcc compiles one file at a time", a);
    } else {
      c->input = a;
    }
  }
  if (c->alone) {
    /* Each does one thing; an argument beside it would be silently ignored. */
    if (argc > 2)
      return bad_usage("'%s' takes no other argument (got '%s')", c->alone,
                       argv[1] == c->alone ? argv[2] : argv[1]);
    if (!strcmp(c->alone, "--version")) {
      printf("kcc %s (LLVM 19, libclang 19)\n", KCC_VERSION);
      return 0;
    }
    return kcrt_print_devices(stdout) == KCRT_SUCCESS ? 0 : 1;
  }
  if (!c->input) return bad_usage("no input file");
  if (!strcmp(c->input, "-"))
    return bad_usage("kcc cannot read a kernel from standard input; name the file");
  if (c->std) {
    char opt[16];
    snprintf(opt, sizeof opt, "%.*s", (int)(c->std - 1 - c->std_opt), c->std_opt);
    int st = check_std(opt, c->std, c->input, c->xlang, o);
    if (st) return st;
  }
  if (!c->form)
    c->form = c->output && strcmp(c->output, "-") && !is_special(c->output) ? form_by_ext(c->output)
                                                                            : &forms[0];
  if (!c->form)
    return bad_usage("cannot tell the output form from '%s'; name it with --emit=FORM", c->output);
  if (c->deptarget && !c->md)
    return bad_usage("'-MT %s' names the target in a dependency file; without -MD or -MF "
                     "there is none",
                     c->deptarget);
  if (c->md && c->output && !strcmp(c->output, "-") && (!c->depfile || !c->deptarget))
    /* There is no file name to derive them from; "-.d" with the target "-" would help no
     * build, as make has no file named "-". */
    return bad_usage("-MD with '-o -' needs %s", c->depfile
                                                     ? "-MT TARGET (the dependency rule's target)"
                                                     : "-MF FILE (the dependency file's name)");
  return -1;
}

/* Everything after option defaults: main() owns o->cargs, so every early return (usage
 * errors, --help, --version) releases it. */
static int drive(int argc, char **argv, KOptions *o) {
  Cmd c = {0};
  int status = parse_args(argc, argv, o, &c);
  if (status >= 0) return status;

  char *defout = NULL, *defdep = NULL;
  if (!c.output && !(c.output = defout = default_output(c.input, c.form))) return 1;
  if (c.md && !c.depfile) {
    if (!(c.depfile = defdep = malloc(strlen(c.output) + 3))) {
      free(defout);
      return 1;
    }
    sprintf(defdep, "%s.d", c.output);
  }
  if (c.md && !c.deptarget) c.deptarget = c.output;
  if ((status = check_outputs(c.input, c.output, c.md ? c.depfile : NULL))) {
    free(defout);
    free(defdep);
    return status;
  }

  diag_set_werror(o->werror);
  diag_set_nowarn(c.nowarn);
  diag_set_color(false);
  double t0 = now_ms();
  /* Every file the kernel includes: for -MD, and so that no output replaces one. */
  KList deps = {0};
  KModule *m = kcc_compile(c.input, o, &deps, c.form->generic_ok);
  status = 1;
  if (m && !has_kernel(m)) {
    /* Every output form exists to launch kernels; an empty one (SPIR-V cannot even express
     * it without the Linkage capability) would only hide the mistake. */
    diag_error((KLoc){.file = c.input}, "no kernel in this file; declare one as 'kernel void "
                                        "name(...)' (or '__global__ void name(...)')");
    m = NULL;
  }
  if (m && check_includes(c.input, c.output, c.md ? c.depfile : NULL, &deps)) {
    status = 2;
    m = NULL;
  }
  double t1 = now_ms();
  if (m) {
    KBuf out = {0}, dep = {0};
    bool ok;
    if (c.form->emit) {
      ok = c.form->emit(m, o, &out);
    } else {
      char *text = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&text, &len);
      ok = f != NULL;
      if (f) {
        kir_print(f, m);
        fclose(f);
        kbuf_append(&out, text, len);
        free(text);
      }
    }
    double t2 = now_ms();
    if (c.md) depfile_text(&dep, c.deptarget, c.input, &deps);
    if (ok && diag_error_count() == 0 &&
        write_outputs(c.output, &out, c.md ? c.depfile : NULL, &dep))
      status = 0;
    if (o->verbose)
      fprintf(stderr, "kcc: front end + passes %.1f ms, %s back end %.1f ms\n", t1 - t0,
              c.form->name, t2 - t1);
    kbuf_free(&out);
    kbuf_free(&dep);
  }
  free(defout);
  free(defdep);
  kir_free_all();
  diag_reset();
  return status;
}

int main(int argc, char **argv) {
  KOptions o;
  kcc_options_default(&o);
  /* At most one C front-end argument pair per command-line argument. */
  o.cargs = calloc(argc * 2 + 1, sizeof(char *));
  if (!o.cargs) return 1;
  int status = drive(argc, argv, &o);
  free(o.cargs);
  return status;
}
