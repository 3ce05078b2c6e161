/* start_time.c — how long a program using libkcrt takes from process start to its first kernel
 * result, with the disk caches empty (cold) and filled by an earlier run (warm).
 *
 *   usage: start_time [options] BUNDLE.kcb      (normally vecadd.kcb)
 *          start_time [options] VECADD.cubin    the same through the raw CUDA driver API
 *                                               (dlopen libcuda, primary context,
 *                                               cuModuleLoadData): the baseline row
 *     -r RUNS        timed runs per cache state (default 7); the medians are reported
 *     -m MODES       comma-separated, each one row: cold, warm, kcc (default cold,warm)
 *                      cold  every cache empty (a new directory for each run)
 *                      warm  every cache filled by an untimed first run
 *                      kcc   libkcrt's cache filled, the drivers' caches empty: what
 *                            libkcrt's own cache saves
 *     -l LABEL       the configuration's name in the table (default: the bundle's name)
 *     -n ELEMS       vecadd's length (default 2^20)
 *     --header       print the table's header first (for the first of several invocations)
 *     --timeout S    kill a run that takes longer (default 120 s; a report line says so)
 *
 * Each run is a fresh process (this program re-executed with --child), spawned with
 * XDG_CACHE_HOME, POCL_CACHE_DIR and CUDA_CACHE_PATH pointing into a private directory, so
 * that libkcrt's cache (docs/runtime.md) and the drivers' own caches (PoCL's kernel cache,
 * NVIDIA's compute cache, which also holds JIT and OpenCL builds) all start empty (cold: a
 * new directory for every run) or all hold what one earlier, untimed run left (warm). The
 * child opens the default device ($KCC_DEVICE), loads the bundle, launches vecadd, reads and
 * checks the result, and prints CLOCK_MONOTONIC stamps; the parent stamped the same clock just
 * before posix_spawn, so "total" is spawn -> first correct result, and "exit" is result ->
 * the child reaped (teardown: device close, driver unload). Everything else the environment
 * holds is passed on (KCC_DEVICE, KCC_CUDA_FORM, KCC_OPENCL_FORM, OCL_ICD_VENDORS...).
 *
 * The OS page cache is not dropped (that needs root): "cold" means cold caches of compiled
 * code, with the driver libraries and the bundle already in memory, which is the common case
 * of a first run after an install or a kcc rebuild. */
#define _GNU_SOURCE
#include "kcrt.h"

#include <dlfcn.h>
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---------------------------------------------------------------- the child */

static int child(const char *bundle, int n) {
  int64_t t_main = now_ns();
  kcrt_device *dev;
  kcrt_module *mod;
  kcrt_kernel *k;
  kcrt_buffer *da, *db, *dc;
  kcrt_device_info info;
#define CK(call)                                                                                   \
  do {                                                                                             \
    kcrt_status s_ = (call);                                                                       \
    if (s_) {                                                                                      \
      printf("child: %s: %s: %s\n", #call, kcrt_status_name(s_), kcrt_last_error());               \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)
  CK(kcrt_device_open_default(&dev));
  int64_t t_open = now_ns();
  CK(kcrt_module_load_file(dev, bundle, &mod));
  int64_t t_load = now_ns();
  /* Input generation is host work any program does; it is kept out of the launch column by
   * doing it before the stamp... */
  float *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n),
        *c = malloc(sizeof *c * (size_t)n);
  if (!a || !b || !c) return 1;
  for (int i = 0; i < n; i++) a[i] = (float)i, b[i] = (float)(2 * (i % 1000));
  int64_t t_inputs = now_ns();
  /* ...and everything from here is what the first result costs: buffers, transfers, the
   * first launch (argument checks, driver setup) and the read back. */
  CK(kcrt_kernel_get(mod, "vecadd", &k));
  CK(kcrt_buffer_alloc(dev, sizeof *a * (size_t)n, &da));
  CK(kcrt_buffer_alloc(dev, sizeof *b * (size_t)n, &db));
  CK(kcrt_buffer_alloc(dev, sizeof *c * (size_t)n, &dc));
  CK(kcrt_buffer_write(da, 0, a, sizeof *a * (size_t)n));
  CK(kcrt_buffer_write(db, 0, b, sizeof *b * (size_t)n));
  kcrt_arg args[] = {KCRT_ARG_BUFFER(da), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_VALUE(n)};
  CK(kcrt_launch(k, NULL, KCRT_DIM1(((uint64_t)n + 255) / 256), KCRT_DIM1(256), 0, args, 4));
  CK(kcrt_buffer_read(dc, 0, c, sizeof *c * (size_t)n));
  int64_t t_result = now_ns();
  for (int i = 0; i < n; i++)
    if (c[i] != a[i] + b[i]) {
      printf("child: wrong result c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
      return 1;
    }
  CK(kcrt_device_get_info(dev, &info));
  printf("KCRT_START %lld %lld %lld %lld %lld %s\n", (long long)t_main, (long long)t_open,
         (long long)t_load, (long long)t_inputs, (long long)t_result, info.name);
  fflush(stdout);
  free(a), free(b), free(c);
  CK(kcrt_device_close(dev));
  return 0;
#undef CK
}

/* The same program on the raw CUDA driver API, for the baseline row: BUNDLE is then a cubin
 * (nvcc's vecadd), loaded with cuModuleLoadData into device 0's primary context. The columns
 * mean the same: dlopen + cuInit + context = device open, cuModuleLoadData = module load. The
 * process links libkcrt (this program does) but does not call it. */
typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static int raw_child(const char *cubin, int n) {
  int64_t t_main = now_ns();
  struct {
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGet)(int *, int);
    CUresult (*DeviceGetName)(char *, int, int);
    CUresult (*PrimaryCtxRetain)(void **, int);
    CUresult (*PrimaryCtxRelease)(int);
    CUresult (*CtxSetCurrent)(void *);
    CUresult (*ModuleLoadData)(void **, const void *);
    CUresult (*ModuleGetFunction)(void **, void *, const char *);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, void *, void **, void **);
  } cu;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("child: dlopen libcuda.so.1: %s\n", dlerror());
    return 1;
  }
  static const char *const names[] = {"cuInit",
                                      "cuDeviceGet",
                                      "cuDeviceGetName",
                                      "cuDevicePrimaryCtxRetain",
                                      "cuDevicePrimaryCtxRelease_v2",
                                      "cuCtxSetCurrent",
                                      "cuModuleLoadData",
                                      "cuModuleGetFunction",
                                      "cuMemAlloc_v2",
                                      "cuMemcpyHtoD_v2",
                                      "cuMemcpyDtoH_v2",
                                      "cuLaunchKernel"};
  _Static_assert(sizeof cu == sizeof names / sizeof *names * sizeof(void *), "one name a field");
  void **slot = (void **)&cu; /* the fields in names' order, all function pointers */
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!(slot[i] = dlsym(lib, names[i]))) {
      printf("child: libcuda has no %s\n", names[i]);
      return 1;
    }
#define CU(call)                                                                                   \
  do {                                                                                             \
    CUresult r_ = (call);                                                                          \
    if (r_) {                                                                                      \
      printf("child: %s: CUDA error %d\n", #call, r_);                                             \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)
  int dev;
  void *ctx, *mod, *fn;
  CU(cu.Init(0));
  CU(cu.DeviceGet(&dev, 0));
  CU(cu.PrimaryCtxRetain(&ctx, dev));
  CU(cu.CtxSetCurrent(ctx));
  int64_t t_open = now_ns();
  FILE *f = fopen(cubin, "rb");
  static char image[1 << 20];
  size_t len = f ? fread(image, 1, sizeof image, f) : 0;
  if (f) fclose(f);
  if (!len || len == sizeof image) {
    printf("child: cannot read %s (or over 1 MiB)\n", cubin);
    return 1;
  }
  CU(cu.ModuleLoadData(&mod, image));
  int64_t t_load = now_ns();
  float *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n),
        *c = malloc(sizeof *c * (size_t)n);
  if (!a || !b || !c) return 1;
  for (int i = 0; i < n; i++) a[i] = (float)i, b[i] = (float)(2 * (i % 1000));
  int64_t t_inputs = now_ns();
  CUdeviceptr da, db, dc;
  CU(cu.ModuleGetFunction(&fn, mod, "vecadd"));
  CU(cu.MemAlloc(&da, sizeof *a * (size_t)n));
  CU(cu.MemAlloc(&db, sizeof *b * (size_t)n));
  CU(cu.MemAlloc(&dc, sizeof *c * (size_t)n));
  CU(cu.MemcpyHtoD(da, a, sizeof *a * (size_t)n));
  CU(cu.MemcpyHtoD(db, b, sizeof *b * (size_t)n));
  void *args[] = {&da, &db, &dc, &n};
  CU(cu.LaunchKernel(fn, (unsigned)((n + 255) / 256), 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  CU(cu.MemcpyDtoH(c, dc, sizeof *c * (size_t)n)); /* synchronous: waits for the kernel */
  int64_t t_result = now_ns();
  for (int i = 0; i < n; i++)
    if (c[i] != a[i] + b[i]) {
      printf("child: wrong result c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
      return 1;
    }
  char name[256] = "CUDA device";
  cu.DeviceGetName(name, sizeof name, dev);
  printf("KCRT_START %lld %lld %lld %lld %lld %s\n", (long long)t_main, (long long)t_open,
         (long long)t_load, (long long)t_inputs, (long long)t_result, name);
  fflush(stdout);
  free(a), free(b), free(c);
  cu.PrimaryCtxRelease(dev);
  return 0;
#undef CU
}

/* ---------------------------------------------------------------- the parent */

enum { COLS = 6 }; /* to main, device open, module load, first launch, total, exit */

typedef struct Run {
  double ms[COLS];
  char device[256];
} Run;

static const char *self_path;
static double timeout_s = 120;
static char first_error[300];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
  (void)sb, (void)flag, (void)ftw;
  return remove(path);
}

static void rm_rf(const char *dir) {
  nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The environment for a child: ours, with libkcrt's cache in `kcc` and the drivers' in `drv`. */
static char **child_env(const char *kcc, const char *drv, char *bufs[3]) {
  size_t n = 0;
  while (environ[n]) n++;
  char **env = calloc(n + 4, sizeof *env);
  if (!env) return NULL;
  size_t j = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "XDG_CACHE_HOME=", 15) && strncmp(environ[i], "POCL_CACHE_DIR=", 15) &&
        strncmp(environ[i], "CUDA_CACHE_PATH=", 16))
      env[j++] = environ[i];
  if (asprintf(&bufs[0], "XDG_CACHE_HOME=%s", kcc) < 0 ||
      asprintf(&bufs[1], "POCL_CACHE_DIR=%s/pocl", drv) < 0 ||
      asprintf(&bufs[2], "CUDA_CACHE_PATH=%s/nv", drv) < 0) {
    free(env);
    return NULL;
  }
  env[j++] = bufs[0], env[j++] = bufs[1], env[j++] = bufs[2];
  return env;
}

/* One child run; false (with its output on stderr) when it failed or timed out. */
static bool run_child(const char *bundle, int n, const char *kcc, const char *drv, Run *r) {
  char *bufs[3] = {0}, nbuf[32];
  char **env = child_env(kcc, drv, bufs);
  if (!env) return false;
  snprintf(nbuf, sizeof nbuf, "%d", n);
  char *argv[] = {(char *)"start_time", (char *)"--child", (char *)bundle, nbuf, NULL};
  int fd[2];
  if (pipe(fd)) return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
  posix_spawn_file_actions_addclose(&fa, fd[0]);
  posix_spawn_file_actions_addclose(&fa, fd[1]);
  pid_t pid;
  int64_t t_spawn = now_ns();
  int err = posix_spawn(&pid, self_path, &fa, NULL, argv, env);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  free(env);
  for (int i = 0; i < 3; i++) free(bufs[i]);
  if (err) {
    fprintf(stderr, "start_time: cannot run %s: %s\n", self_path, strerror(err));
    close(fd[0]);
    return false;
  }

  /* Collect everything the child says until it closes its end (it exits), within the
   * timeout: a hung driver must not hang the benchmark. */
  char out[16384];
  size_t len = 0;
  bool timed_out = false;
  int64_t deadline = t_spawn + (int64_t)(timeout_s * 1e9);
  for (;;) {
    int64_t left = deadline - now_ns();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    struct pollfd p = {fd[0], POLLIN, 0};
    int pr = poll(&p, 1, (int)(left / 1000000 + 1));
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) continue;
    char tmp[4096];
    ssize_t got = read(fd[0], tmp, sizeof tmp);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    size_t take = (size_t)got < sizeof out - 1 - len ? (size_t)got : sizeof out - 1 - len;
    memcpy(out + len, tmp, take);
    len += take;
  }
  out[len] = 0;
  close(fd[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    continue; /* a signal interrupted the wait, not the child */
  int64_t t_reaped = now_ns();

  const char *line = strstr(out, "KCRT_START ");
  long long tm, to, tl, ti, tr;
  int used = 0;
  if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !line ||
      sscanf(line, "KCRT_START %lld %lld %lld %lld %lld %n", &tm, &to, &tl, &ti, &tr, &used) < 5) {
    fprintf(stderr, "start_time: a run %s; its output:\n%s\n", timed_out ? "timed out" : "failed",
            out);
    if (!first_error[0]) { /* its first line, for the table */
      const char *msg = timed_out ? "timed out" : out;
      if (!strncmp(msg, "child: ", 7)) msg += 7;
      snprintf(first_error, sizeof first_error, "%.*s", (int)strcspn(msg, "\n|"), msg);
    }
    return false;
  }
  snprintf(r->device, sizeof r->device, "%.*s", (int)strcspn(line + used, "\n"), line + used);
  r->ms[0] = (tm - t_spawn) / 1e6;
  r->ms[1] = (to - tm) / 1e6;
  r->ms[2] = (tl - to) / 1e6;
  r->ms[3] = (tr - ti) / 1e6;
  r->ms[4] = (tr - t_spawn - (ti - tl)) / 1e6; /* input generation is not startup */
  r->ms[5] = (t_reaped - tr) / 1e6;
  return true;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void report(const char *label, const char *mode, Run *runs, int n, int failed) {
  double col[COLS];
  for (int c = 0; c < COLS; c++) {
    double v[256];
    for (int i = 0; i < n; i++) v[i] = runs[i].ms[c];
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    col[c] = n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
  if (n == 0) {
    printf("| %s | %s | - | 0 (%d failed) | - | - | - | - | **-** | - |\n", label, mode, failed);
  } else {
    printf("| %s | %s | %s | %d%s |", label, mode, runs[0].device, n, failed ? " (+failures)" : "");
    for (int c = 0; c < COLS; c++) printf(c == 4 ? " **%.1f** |" : " %.1f |", col[c]);
    printf("\n");
  }
  fflush(stdout);
}

static int usage(void) {
  fprintf(stderr, "usage: start_time [-r RUNS] [-m cold,kcc,warm] [-l LABEL] [-n ELEMS] "
                  "[--header] [--timeout S] BUNDLE.kcb\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "--child")) {
    size_t len = strlen(argv[2]);
    bool cubin = len > 6 && !strcmp(argv[2] + len - 6, ".cubin");
    return cubin ? raw_child(argv[2], atoi(argv[3])) : child(argv[2], atoi(argv[3]));
  }

  int runs = 7, n = 1 << 20;
  const char *mode = "cold,warm", *label = NULL, *bundle = NULL;
  bool header = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--header"))
      header = true;
    else if (a[0] != '-')
      bundle = a;
    else if (i + 1 >= argc)
      return usage();
    else if (!strcmp(a, "-r"))
      runs = atoi(argv[++i]);
    else if (!strcmp(a, "-m"))
      mode = argv[++i];
    else if (!strcmp(a, "-l"))
      label = argv[++i];
    else if (!strcmp(a, "-n"))
      n = atoi(argv[++i]);
    else if (!strcmp(a, "--timeout"))
      timeout_s = atof(argv[++i]);
    else
      return usage();
  }
  if (!bundle || runs < 1 || runs > 256 || n < 1) return usage();
  for (const char *m = mode; *m; m += strcspn(m, ",") + (m[strcspn(m, ",")] == ',')) {
    size_t ml = strcspn(m, ",");
    if (!(ml == 4 && (!strncmp(m, "cold", 4) || !strncmp(m, "warm", 4))) &&
        !(ml == 3 && !strncmp(m, "kcc", 3)))
      return usage();
  }
  if (!label) label = bundle;
  static char exe[4096];
  ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (el <= 0) {
    fprintf(stderr, "start_time: cannot find my own executable\n");
    return 1;
  }
  exe[el] = 0;
  self_path = exe;

  if (header) {
    printf("| configuration | cache | device | runs | spawn → main | device open | module load "
           "| first launch + read | **total to first result** | exit |\n");
    printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  }
  const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  int bad = 0;
  bool any_ok = false;
  Run *rs = calloc((size_t)runs, sizeof *rs);
  if (!rs) return 1;

  /* Modes in the order given; each is one table row. */
  for (const char *m = mode; *m; m += strcspn(m, ",") + (m[strcspn(m, ",")] == ',')) {
    size_t ml = strcspn(m, ",");
    bool cold = ml == 4 && !strncmp(m, "cold", 4), warm = ml == 4 && !strncmp(m, "warm", 4);
    /* cold: new, empty directories for every run. warm: one directory for both caches,
     * filled by an untimed first run. kcc: libkcrt's cache filled by an untimed first run,
     * the drivers' caches new and empty for every run (what libkcrt's cache alone saves). */
    char keep[4096] = "";
    int ok = 0, failed = 0;
    if (!cold) {
      snprintf(keep, sizeof keep, "%s/kcc-start.XXXXXX", tmpdir);
      if (!mkdtemp(keep)) {
        perror("start_time: mkdtemp");
        return 1;
      }
      Run prime;
      if (!run_child(bundle, n, keep, keep, &prime))
        failed = runs; /* skip the timed runs */
      else
        any_ok = true;
    }
    for (int i = 0; i < runs && failed < runs; i++) {
      char fresh[4096] = "";
      if (!warm) {
        snprintf(fresh, sizeof fresh, "%s/kcc-start.XXXXXX", tmpdir);
        if (!mkdtemp(fresh)) {
          perror("start_time: mkdtemp");
          return 1;
        }
      }
      if (run_child(bundle, n, cold ? fresh : keep, warm ? keep : fresh, &rs[ok]))
        ok++;
      else
        failed++;
      any_ok |= ok > 0;
      if (fresh[0]) rm_rf(fresh);
      if (failed >= 2 && ok == 0) break; /* a broken configuration: do not wait N times */
    }
    if (keep[0]) rm_rf(keep);
    if (!any_ok) { /* the first runs failed: the device or driver cannot do this at all */
      printf("| %s | - | n/a: %s |\n", label, first_error);
      return 77;
    }
    report(label, cold ? "cold" : warm ? "warm" : "kcc cache only", rs, ok, failed);
    bad += failed;
  }
  free(rs);
  return bad ? 1 : 0;
}
