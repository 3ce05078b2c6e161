/* main.c — the kcc driver: a gcc-style command line over the stages declared in kcc.h.
 * Exit status: 0 success, 1 a diagnostic (the kernel is wrong), 2 bad usage (the command line
 * is wrong). Output is written to a temporary file beside the target and renamed into place,
 * so a failed compile never leaves a partial or stale-looking output behind. */
#include "diag.h"
#include "kcc.h"
#include "kcrt.h" /* --devices */

#include <errno.h>
#include <fcntl.h>
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
  fprintf(out,
          "usage: kcc [options] file.k [-o output]\n"
          "\n"
          "Compiles a kcc kernel file. The output form follows the output file's extension:\n");
  for (int i = 0; i < NFORMS; i++)
    fprintf(out, "  %-6s %-6s %s\n", forms[i].ext, forms[i].name, forms[i].what);
  fprintf(out, "\n"
               "Options:\n"
               "  -o FILE             write the output to FILE ('-' for standard output);\n"
               "                      default: the input's name with the form's extension\n"
               "  --emit=FORM         choose the output form whatever the extension\n"
               "  -arch=sm_XX[,...]   NVIDIA targets (default sm_75); the first is the PTX target\n"
               "  -O0 -O1 -O2 -O3     optimisation level (default -O3)\n"
               "  -I DIR, -D NAME[=VALUE], -U NAME\n"
               "                      preprocessor search paths and macros\n"
               "  -MD                 also write a make dependency file (OUTPUT.d unless -MF)\n"
               "  -MF FILE            name of the dependency file (implies -MD)\n"
               "  -Werror             treat warnings as errors\n"
               "  -ffast-math         allow approximate math (no IEEE guarantees)\n"
               "  -ffp-contract=fast|off\n"
               "                      fuse a*b+c into fma (fast, the default, like nvcc) or never\n"
               "  --cuda-path=DIR     CUDA toolkit holding nvvm/libdevice (default: $CUDA_PATH,\n"
               "                      $CUDA_HOME, nvcc's directory, /usr/local/cuda)\n"
               "  --prefix=NAME       start the C header's names with NAME (default: from the\n"
               "                      input's name, e.g. vecadd_k for vecadd.k)\n"
               "  -v                  print the stages and their times\n"
               "  --devices           list the devices the runtime (libkcrt) can use\n"
               "  --version           print kcc's version\n"
               "  --help              print this help\n"
               "\n"
               "Exit status: 0 success, 1 the kernel has errors, 2 bad command line.\n");
}

static int bad_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "kcc: error: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nkcc: run 'kcc --help' for usage\n");
  return 2;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Writes to a temporary in the target's directory, then renames: readers (make, the runtime)
 * never see a half-written file, and an existing output survives a failed write. */
static bool write_atomic(const char *path, const void *data, size_t len) {
  if (!strcmp(path, "-")) return fwrite(data, 1, len, stdout) == len && fflush(stdout) == 0;
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (!tmp) return false;
  snprintf(tmp, n, "%s.tmp.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    diag_error((KLoc){0}, "cannot write '%s': %s", path, strerror(errno));
    free(tmp);
    return false;
  }
  bool ok = kcc_write_all(fd, data, len);
  mode_t mask = umask(0);
  umask(mask);
  ok = ok && fchmod(fd, 0666 & ~mask) == 0;
  ok = close(fd) == 0 && ok;
  if (ok && rename(tmp, path) != 0) ok = false;
  if (!ok) {
    diag_error((KLoc){0}, "cannot write '%s': %s", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok;
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

static bool write_depfile(const char *depfile, const char *target, const char *input,
                          const KList *deps) {
  KBuf b = {0};
  dep_path(&b, target);
  kbuf_puts(&b, ":");
  kbuf_puts(&b, " ");
  dep_path(&b, input);
  for (int i = 0; i < deps->n; i++) {
    kbuf_puts(&b, " \\\n  ");
    dep_path(&b, deps->v[i]);
  }
  kbuf_puts(&b, "\n");
  /* Phony targets keep make working when a header is deleted. */
  for (int i = 0; i < deps->n; i++) {
    kbuf_puts(&b, "\n");
    dep_path(&b, deps->v[i]);
    kbuf_puts(&b, ":\n");
  }
  bool ok = write_atomic(depfile, b.data, b.len);
  kbuf_free(&b);
  return ok;
}

static bool parse_archs(KOptions *o, const char *list) {
  o->narchs = 0;
  const char *p = list;
  while (*p) {
    int sm;
    char rest;
    if (o->narchs == KCC_MAX_ARCHS) return false;
    if (sscanf(p, "sm_%d%c", &sm, &rest) < 1 || sm < 50 || sm > 200) {
      if (sscanf(p, "compute_%d", &sm) != 1 || sm < 50 || sm > 200) return false;
    }
    o->archs[o->narchs++] = sm;
    const char *comma = strchr(p, ',');
    if (!comma) break;
    p = comma + 1;
    if (!*p) return false;
  }
  return o->narchs > 0;
}

/* Options that take a value either joined (-Ifoo) or as the next argument (-I foo). */
static const char *take_value(int argc, char **argv, int *i, const char *opt) {
  size_t n = strlen(opt);
  if (argv[*i][n]) return argv[*i] + n;
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

/* Everything after option defaults: main() owns o->cargs, so every early return (usage
 * errors, --help, --version) releases it. */
static int drive(int argc, char **argv, KOptions *o) {
  const char *input = NULL, *output = NULL, *depfile = NULL;
  const Form *form = NULL;
  bool md = false;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--devices")) {
      return kcrt_print_devices(stdout) == KCRT_SUCCESS ? 0 : 1;
    } else if (!strcmp(a, "--version")) {
      printf("kcc %s (LLVM 19, libclang 19)\n", KCC_VERSION);
      return 0;
    } else if (!strcmp(a, "-o")) {
      if (++i >= argc) return bad_usage("missing file name after '%s'", a);
      output = argv[i];
    } else if (!strncmp(a, "--emit=", 7)) {
      if (!(form = form_by_name(a + 7))) return bad_usage("unknown output form '%s'", a + 7);
    } else if (!strncmp(a, "-arch=", 6) || !strcmp(a, "-arch")) {
      v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v || !parse_archs(o, v))
        return bad_usage("invalid -arch '%s' (expected sm_XX[,sm_YY...], e.g. sm_90)", v ? v : "");
    } else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      o->opt_level = a[2] - '0';
    } else if (!strcmp(a, "-O")) {
      o->opt_level = 2;
    } else if (a[0] == '-' && (a[1] == 'I' || a[1] == 'D' || a[1] == 'U')) {
      char flag[3] = {'-', a[1], 0};
      if (!(v = take_value(argc, argv, &i, flag)) || !*v)
        return bad_usage("missing argument to '%s'", flag);
      o->cargs[o->ncargs++] = flag[1] == 'I' ? "-I" : flag[1] == 'D' ? "-D" : "-U";
      o->cargs[o->ncargs++] = v;
    } else if (!strcmp(a, "-MD")) {
      md = true;
    } else if (!strcmp(a, "-MF")) {
      if (++i >= argc) return bad_usage("missing file name after '%s'", a);
      depfile = argv[i];
      md = true;
    } else if (!strcmp(a, "-Werror")) {
      o->werror = true;
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
      o->cuda_path = a + 12;
    } else if (!strcmp(a, "-v")) {
      o->verbose = true;
    } else if (a[0] == '-' && a[1]) {
      return bad_usage("unknown option '%s'", a);
    } else if (input) {
      return bad_usage("more than one input file ('%s'); kcc compiles one file at a time", a);
    } else {
      input = a;
    }
  }
  if (!input) return bad_usage("%s", "no input file");
  if (!form) form = output && strcmp(output, "-") ? form_by_ext(output) : &forms[0];
  if (!form)
    return bad_usage("cannot tell the output form from '%s'; name it with --emit=FORM", output);

  char *defout = NULL;
  if (!output) {
    /* gcc-like default: the input's base name, in the current directory. */
    const char *base = strrchr(input, '/') ? strrchr(input, '/') + 1 : input;
    const char *dot = strrchr(base, '.');
    size_t n = dot ? (size_t)(dot - base) : strlen(base);
    defout = malloc(n + strlen(form->ext) + 1);
    if (!defout) return 1;
    memcpy(defout, base, n);
    strcpy(defout + n, form->ext);
    output = defout;
  }
  if (!strcmp(output, input)) {
    free(defout);
    return bad_usage("output file '%s' is the input file", output);
  }

  diag_set_werror(o->werror);
  diag_set_color(false);
  double t0 = now_ms();
  KList deps = {0};
  KModule *m = kcc_compile(input, o, md ? &deps : NULL, form->generic_ok);
  if (m && !has_kernel(m)) {
    /* Every output form exists to launch kernels; an empty one (SPIR-V cannot even express
     * it without the Linkage capability) would only hide the mistake. */
    diag_error((KLoc){.file = input}, "no kernel in this file; declare one as 'kernel void "
                                      "name(...)' (or '__global__ void name(...)')");
    m = NULL;
  }
  double t1 = now_ms();
  int status = 1;
  if (m) {
    KBuf out = {0};
    bool ok;
    if (form->emit) {
      ok = form->emit(m, o, &out);
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
    if (ok && diag_error_count() == 0 && write_atomic(output, out.data, out.len)) {
      status = 0;
      if (md && strcmp(output, "-")) {
        char *dflt = NULL;
        if (!depfile) {
          dflt = malloc(strlen(output) + 3);
          if (dflt) sprintf(dflt, "%s.d", output);
        }
        if (!write_depfile(depfile ? depfile : dflt, output, input, &deps)) status = 1;
        free(dflt);
      }
    }
    if (o->verbose)
      fprintf(stderr, "kcc: front end + passes %.1f ms, %s back end %.1f ms\n", t1 - t0, form->name,
              t2 - t1);
    kbuf_free(&out);
  }
  free(defout);
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
