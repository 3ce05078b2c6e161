/* main.c — the kcc driver: a gcc-style command line over the compile libkcc runs (options.c
 * parses the options, libkcc.c's kcc_front and kcc_emit compile); this file adds the files.
 * Exit status: 0 success, 1 a diagnostic (the kernel is wrong), 2 bad usage (the command line
 * is wrong). Output is written to a temporary file beside the target and renamed into place,
 * so a failed compile never leaves a partial or stale-looking output behind. */
#include "diag.h"
#include "kcc.h"
#include "kcrt.h" /* --devices */
#include "options.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
  if (!to_stdout && is_directory(output))
    return kcc_usage_error("output '%s' is a directory", output);
  if (!to_stdout && same_file(output, input))
    return kcc_usage_error("output file '%s' is the input file '%s'", output, input);
  if (!depfile) return 0;
  if (!strcmp(depfile, "-")) {
    if (to_stdout)
      return kcc_usage_error(
          "the output and the dependency file cannot both go to standard output");
    return 0;
  }
  if (is_directory(depfile)) return kcc_usage_error("dependency file '%s' is a directory", depfile);
  if (same_file(depfile, input))
    return kcc_usage_error("dependency file '%s' is the input file '%s'", depfile, input);
  /* Two writes to /dev/null are no conflict. */
  if (!to_stdout && !kcc_is_special(output) && same_file(depfile, output))
    return kcc_usage_error("dependency file '%s' is the output file '%s'", depfile, output);
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
      return kcc_usage_error("%s '%s' is %s%s%s'%s' includes",
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

/* Set once a compile ran: main() may then leave without the exit handlers (see there). */
static bool compiled;

/* Everything after option defaults: main() owns o->cargs, so every early return (usage
 * errors, --help, --version) releases it. */
static int drive(int argc, char **argv, KOptions *o) {
  Cmd c = {0};
  int status = kcc_parse_args(argc, argv, o, &c);
  if (status >= 0) return status;
  if (c.help) {
    kcc_usage(stdout);
    return 0;
  }
  if (c.alone && !strcmp(c.alone, "--version")) {
    printf("kcc %s (LLVM 19, libclang 19)\n", KCC_VERSION);
    return 0;
  }
  if (c.alone) return kcrt_print_devices(stdout) == KCRT_SUCCESS ? 0 : 1;

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

  double t0 = now_ms();
  /* Every file the kernel includes: for -MD, and so that no output replaces one. */
  KList deps = {0};
  KModule *m = kcc_front(&c, o, NULL, 0, &deps);
  compiled = true;
  status = 1;
  if (m && check_includes(c.input, c.output, c.md ? c.depfile : NULL, &deps)) {
    status = 2;
    m = NULL;
  }
  double t1 = now_ms();
  if (m) {
    KBuf out = {0}, dep = {0};
    bool ok = kcc_emit(&c, m, o, &out);
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
#ifndef __SANITIZE_ADDRESS__
  /* After a compile, the outputs are written and renamed into place, and nothing is left
   * that an exit handler would do for kcc: exit()'s run of the C++ destructors and atexit
   * handlers of libLLVM and libclang (hundreds of static options, registries) only frees
   * memory the process is about to give back, ~1 ms of a 28 ms compile (bench/RESULTS.md).
   * --devices exits normally (the GPU drivers' handlers), and so do sanitizer builds, whose
   * leak check is an exit handler. */
  if (compiled) {
    fflush(stdout);
    fflush(stderr);
    _exit(status);
  }
#endif
  return status;
}