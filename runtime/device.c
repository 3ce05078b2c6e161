/* device.c — finding devices (once per process and back end, when first needed), choosing one
 * (index, name, $KCC_DEVICE, the default order), and describing them (kcrt_print_devices). */
#define _GNU_SOURCE
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const KcrtBackend *const backends[] = {&kcrt_cuda_backend, &kcrt_opencl_backend,
                                              &kcrt_vulkan_backend};
enum { NBACKENDS = sizeof backends / sizeof backends[0] };

/* Each back end is enumerated at most once, and only when a caller needs its devices: a
 * program that opens a CUDA GPU never loads the OpenCL ICD loader and initialises its
 * platforms (40-47 ms with NVIDIA's and PoCL's), and KCC_DEVICE=opencl or cpu never loads
 * libcuda. The lists never change once made (a process's devices should not change under its
 * feet), so entries can be handed out without the lock. */
static pthread_mutex_t enum_lock = PTHREAD_MUTEX_INITIALIZER;
static bool enumerated[NBACKENDS];
static KcrtDevEntry *be_devs[NBACKENDS];
static int be_n[NBACKENDS];
static char why[NBACKENDS][512];
static char hidden[NBACKENDS][512]; /* what the visibility variables hid (schedenv.c) */

static const KcrtDevEntry *backend_devices(int b, int *n) {
  pthread_mutex_lock(&enum_lock);
  if (!enumerated[b]) {
    backends[b]->enumerate(&be_devs[b], &be_n[b], why[b], sizeof why[b]);
    int found = be_n[b];
    kcrt_visible_filter(be_devs[b], &be_n[b], hidden[b], sizeof hidden[b]);
    if (be_n[b] > 0)
      why[b][0] = 0;
    else if (found)
      snprintf(why[b], sizeof why[b], "%d device%s, all hidden: %.400s", found,
               found == 1 ? "" : "s", hidden[b]);
    else if (!why[b][0])
      snprintf(why[b], sizeof why[b], "no devices");
    kcrt_log("%s: %d device(s)%s%s", backends[b]->name, be_n[b], why[b][0] ? ": " : "", why[b]);
    enumerated[b] = true;
  }
  pthread_mutex_unlock(&enum_lock);
  *n = be_n[b];
  return be_devs[b];
}

static int backend_slot(kcrt_backend id) {
  for (int b = 0; b < NBACKENDS; b++)
    if (backends[b]->id == id) return b;
  return -1;
}

/* The numbered list of every back end's devices, CUDA's first (device indices count in it):
 * copies of the back ends' entries, made once. */
static pthread_once_t all_once = PTHREAD_ONCE_INIT;
static KcrtDevEntry *devs;
static int ndevs;

static void enumerate_all(void) {
  const KcrtDevEntry *d[NBACKENDS];
  int n[NBACKENDS], total = 0;
  for (int b = 0; b < NBACKENDS; b++) {
    d[b] = backend_devices(b, &n[b]);
    total += n[b];
  }
  if (!total || !(devs = calloc((size_t)total, sizeof *devs))) return;
  for (int b = 0; b < NBACKENDS; b++) {
    if (n[b]) memcpy(devs + ndevs, d[b], (size_t)n[b] * sizeof *devs);
    ndevs += n[b];
  }
}

const KcrtDevEntry *kcrt_devices(int *n) {
  pthread_once(&all_once, enumerate_all);
  *n = ndevs;
  return devs;
}

kcrt_status kcrt_device_count(int *count) {
  if (!count) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_count: count is NULL");
  kcrt_devices(count);
  return KCRT_SUCCESS;
}

kcrt_status kcrt_device_info_get(int index, kcrt_device_info *info) {
  int n;
  const KcrtDevEntry *d = kcrt_devices(&n);
  if (!info) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_info_get: info is NULL");
  if (index < 0 || index >= n)
    return kcrt_fail(n ? KCRT_ERROR_INVALID_VALUE : KCRT_ERROR_NO_DEVICE,
                     "device index %d is out of range (%d device%s)", index, n, n == 1 ? "" : "s");
  *info = d[index].info;
  return KCRT_SUCCESS;
}

const char *kcrt_backend_status(kcrt_backend backend) {
  int b = backend_slot(backend), n;
  if (b < 0) return "unknown back end";
  backend_devices(b, &n);
  return why[b];
}

/* ---------------------------------------------------------------- selection */

static int first_where(const KcrtDevEntry *d, int n, int backend, int type) {
  for (int i = 0; i < n; i++)
    if ((!backend || (int)d[i].info.backend == backend) && (!type || (int)d[i].info.type == type))
      return i;
  return -1;
}

/* The default order: CUDA GPU, OpenCL GPU, Vulkan GPU, OpenCL CPU, then anything (a Vulkan
 * CPU device is listed only when asked for: docs/runtime.md, "Vulkan"). */
static int default_index(const KcrtDevEntry *d, int n) {
  int i = first_where(d, n, KCRT_BACKEND_CUDA, KCRT_DEVICE_GPU);
  if (i < 0) i = first_where(d, n, KCRT_BACKEND_OPENCL, KCRT_DEVICE_GPU);
  if (i < 0) i = first_where(d, n, KCRT_BACKEND_VULKAN, KCRT_DEVICE_GPU);
  if (i < 0) i = first_where(d, n, KCRT_BACKEND_OPENCL, KCRT_DEVICE_CPU);
  if (i < 0 && n > 0) i = 0;
  return i;
}

/* The back end whose GPUs a multi-GPU program takes: CUDA's, else OpenCL's, else Vulkan's. */
static int gpu_backend_of(const KcrtDevEntry *d, int n) {
  if (first_where(d, n, KCRT_BACKEND_CUDA, KCRT_DEVICE_GPU) >= 0) return KCRT_BACKEND_CUDA;
  if (first_where(d, n, KCRT_BACKEND_VULKAN, KCRT_DEVICE_GPU) >= 0 &&
      first_where(d, n, KCRT_BACKEND_OPENCL, KCRT_DEVICE_GPU) < 0)
    return KCRT_BACKEND_VULKAN;
  return KCRT_BACKEND_OPENCL;
}

static bool contains_nocase(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++)
    if (!strncasecmp(hay, needle, n)) return true;
  return n == 0;
}

static bool cuda_twin(const KcrtDevEntry *d, int n, int i);

/* "local-rank": the node-local rank's device, counting the devices a rank may take — the GPUs
 * of one back end (CUDA's when it has any, as kcrt_device_open_gpus opens them), else every
 * device — modulo their number, so that ranks share devices round-robin when there are more
 * ranks than devices. *count gets the number of candidates. */
static int local_rank_index(const KcrtDevEntry *d, int n, int *count) {
  int gpu_backend = gpu_backend_of(d, n);
  bool gpus = first_where(d, n, gpu_backend, KCRT_DEVICE_GPU) >= 0;
  int cand[256], m = 0;
  for (int i = 0; i < n && m < 256; i++)
    if (gpus ? (int)d[i].info.backend == gpu_backend && d[i].info.type == KCRT_DEVICE_GPU
             : !cuda_twin(d, n, i))
      cand[m++] = i;
  *count = m;
  return m ? cand[kcrt_local_rank(NULL) % m] : -1;
}

/* Resolves a selector (docs/runtime.md, "Choosing a device") to an index, or -1. */
static int select_device(const KcrtDevEntry *d, int n, const char *sel) {
  char *end;
  int count;
  if (!strcasecmp(sel, "local-rank")) return local_rank_index(d, n, &count);
  if (isdigit((unsigned char)sel[0])) {
    long v = strtol(sel, &end, 10);
    if (!*end && v < n) return (int)v;
    /* Not an index of this machine: maybe part of a name ("3090"), tried below. */
  }
  static const struct {
    const char *name;
    int backend;
  } bes[] = {{"cuda", KCRT_BACKEND_CUDA},
             {"opencl", KCRT_BACKEND_OPENCL},
             {"cl", KCRT_BACKEND_OPENCL},
             {"vulkan", KCRT_BACKEND_VULKAN},
             {"vk", KCRT_BACKEND_VULKAN}};
  for (size_t b = 0; b < sizeof bes / sizeof bes[0]; b++) {
    size_t len = strlen(bes[b].name);
    if (strncasecmp(sel, bes[b].name, len)) continue;
    if (!sel[len]) { /* the back end's best device: a GPU if it has one */
      int i = first_where(d, n, bes[b].backend, KCRT_DEVICE_GPU);
      return i >= 0 ? i : first_where(d, n, bes[b].backend, 0);
    }
    if (sel[len] == ':' && isdigit((unsigned char)sel[len + 1])) {
      long k = strtol(sel + len + 1, &end, 10);
      if (*end) return -1;
      for (int i = 0; i < n; i++)
        if ((int)d[i].info.backend == bes[b].backend && d[i].info.backend_index == k) return i;
      return -1;
    }
  }
  if (!strcasecmp(sel, "gpu")) {
    int i = first_where(d, n, KCRT_BACKEND_CUDA, KCRT_DEVICE_GPU);
    return i >= 0 ? i : first_where(d, n, 0, KCRT_DEVICE_GPU);
  }
  if (!strcasecmp(sel, "cpu")) return first_where(d, n, 0, KCRT_DEVICE_CPU);
  for (int i = 0; i < n; i++)
    if (contains_nocase(d[i].info.name, sel) || contains_nocase(d[i].info.vendor, sel) ||
        contains_nocase(d[i].info.platform, sel))
      return i;
  return -1;
}

/* The back end a selector can only pick from (its devices alone answer it, as select_device
 * on the whole list would), or -1: "cuda", "cuda:N", "opencl", "cl", "opencl:N", "cl:N" name
 * theirs, and "cpu" OpenCL's (CUDA's devices are all GPUs). */
static int scope_of(const char *sel) {
  static const struct {
    const char *name;
    kcrt_backend backend;
  } bes[] = {{"cuda", KCRT_BACKEND_CUDA},
             {"opencl", KCRT_BACKEND_OPENCL},
             {"cl", KCRT_BACKEND_OPENCL},
             {"vulkan", KCRT_BACKEND_VULKAN},
             {"vk", KCRT_BACKEND_VULKAN}};
  if (!strcasecmp(sel, "cpu")) return backend_slot(KCRT_BACKEND_OPENCL);
  for (size_t b = 0; b < sizeof bes / sizeof bes[0]; b++) {
    size_t len = strlen(bes[b].name);
    if (!strncasecmp(sel, bes[b].name, len) &&
        (!sel[len] || (sel[len] == ':' && isdigit((unsigned char)sel[len + 1]))))
      return backend_slot(bes[b].backend);
  }
  return -1;
}

/* The device `sel` selects (NULL: the default order), enumerating no more back ends than the
 * answer needs; NULL when nothing matches. A CUDA GPU comes first in the default order and
 * for "gpu", so when CUDA has one the other back ends are not asked; indices and names are
 * resolved on the whole list. */
static const KcrtDevEntry *choose(const char *sel) {
  int n, b = sel ? scope_of(sel) : -1;
  const KcrtDevEntry *d;
  if (b >= 0) {
    d = backend_devices(b, &n);
    int i = select_device(d, n, sel);
    return i >= 0 ? &d[i] : NULL;
  }
  if (!sel || !strcasecmp(sel, "gpu")) {
    int cuda = backend_slot(KCRT_BACKEND_CUDA);
    d = backend_devices(cuda, &n);
    int i = first_where(d, n, KCRT_BACKEND_CUDA, KCRT_DEVICE_GPU);
    if (i >= 0) return &d[i];
  }
  d = kcrt_devices(&n);
  int i = sel ? select_device(d, n, sel) : default_index(d, n);
  return i >= 0 ? &d[i] : NULL;
}

static kcrt_status no_device(const char *what) {
  int n;
  kcrt_devices(&n);
  kcrt_fail(KCRT_ERROR_NO_DEVICE, "%s (%d device%s found", what, n, n == 1 ? "" : "s");
  for (int i = 0; i < NBACKENDS; i++)
    if (why[i][0]) {
      char line[700];
      snprintf(line, sizeof line, "; %s: %.600s", backends[i]->name, why[i]);
      kcrt_error_append(line);
    }
  kcrt_error_append(")");
  return KCRT_ERROR_NO_DEVICE;
}

kcrt_status kcrt_device_open(int index, kcrt_device **out) {
  int n;
  const KcrtDevEntry *d = kcrt_devices(&n);
  if (!out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_open: out is NULL");
  if (index < 0 || index >= n) {
    /* NO_DEVICE, as KCC_DEVICE=<index> says for the same index: there is no such device. */
    char what[64];
    snprintf(what, sizeof what, "device index %d is out of range", index);
    return no_device(n ? what : "no device to open");
  }
  return kcrt_device_open_entry(&d[index], out);
}

kcrt_status kcrt_device_open_by_name(const char *sel, kcrt_device **out) {
  if (!out || !sel) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_open_by_name: NULL");
  const KcrtDevEntry *e = choose(sel);
  if (!e) {
    char what[300];
    snprintf(what, sizeof what, "no device matches '%s'", sel);
    return no_device(what);
  }
  return kcrt_device_open_entry(e, out);
}

kcrt_status kcrt_device_open_default(kcrt_device **out) {
  if (!out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_open_default: out is NULL");
  const char *env = getenv("KCC_DEVICE");
  bool explicit = env && *env;
  const KcrtDevEntry *e = choose(explicit ? env : NULL);
  if (!e) {
    /* An explicit request that matches nothing is an error, not a silent fallback: the user
     * would otherwise measure or test a device they did not ask for. */
    char what[300];
    if (explicit)
      snprintf(what, sizeof what, "KCC_DEVICE='%s' matches no device", env);
    else
      snprintf(what, sizeof what, "no device found");
    return no_device(what);
  }
  return kcrt_device_open_entry(e, out);
}

/* ---------------------------------------------------------------- several devices */

/* An OpenCL entry for a GPU that the list also has as a CUDA device (NVIDIA's OpenCL driver
 * lists the same GPUs), or a Vulkan entry for one it has as a CUDA or OpenCL device: opening
 * both would use one GPU twice. */
static bool cuda_twin(const KcrtDevEntry *d, int n, int i) {
  const kcrt_device_info *f = &d[i].info;
  if (f->backend == KCRT_BACKEND_CUDA || f->type != KCRT_DEVICE_GPU) return false;
  for (int j = 0; j < n; j++) {
    const kcrt_device_info *o = &d[j].info;
    if (o->backend == f->backend || o->type != KCRT_DEVICE_GPU ||
        (f->backend == KCRT_BACKEND_OPENCL && o->backend != KCRT_BACKEND_CUDA))
      continue;
    if (strstr(f->name, o->name) || strstr(o->name, f->name)) return true;
  }
  return false;
}

/* Opens the entries `want` accepts, at most max, closing them again on a failure. */
static kcrt_status open_many(bool (*want)(const KcrtDevEntry *, int, int, int), int arg,
                             kcrt_device **devs, int max, int *count, const char *what) {
  if (!devs || !count || max < 0) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "%s: NULL", what);
  int n, got = 0;
  const KcrtDevEntry *d = kcrt_devices(&n);
  for (int i = 0; i < n && got < max; i++) {
    if (!want(d, n, i, arg)) continue;
    kcrt_status st = kcrt_device_open_entry(&d[i], &devs[got]);
    if (st) {
      while (got > 0) kcrt_device_close(devs[--got]);
      *count = 0;
      return st;
    }
    got++;
  }
  *count = got;
  return KCRT_SUCCESS;
}

static bool any_device(const KcrtDevEntry *d, int n, int i, int arg) {
  (void)arg;
  return !cuda_twin(d, n, i);
}

static bool gpu_of(const KcrtDevEntry *d, int n, int i, int backend) {
  (void)n;
  return d[i].info.type == KCRT_DEVICE_GPU && (int)d[i].info.backend == backend;
}

kcrt_status kcrt_device_open_all(kcrt_device **devs, int max, int *count) {
  return open_many(any_device, 0, devs, max, count, "kcrt_device_open_all");
}

kcrt_status kcrt_device_open_gpus(kcrt_device **devs, int max, int *count) {
  int n;
  const KcrtDevEntry *d = kcrt_devices(&n);
  return open_many(gpu_of, gpu_backend_of(d, n), devs, max, count, "kcrt_device_open_gpus");
}

/* ---------------------------------------------------------------- description */

static const char *type_name(kcrt_device_type t) {
  switch (t) {
  case KCRT_DEVICE_GPU: return "GPU";
  case KCRT_DEVICE_CPU: return "CPU";
  case KCRT_DEVICE_ACCELERATOR: return "accelerator";
  default: return "other";
  }
}

static void fmt_bytes(char *s, size_t n, uint64_t b) {
  if (b >= (1ull << 30))
    snprintf(s, n, "%.1f GiB", b / (double)(1ull << 30));
  else if (b >= (1ull << 20))
    snprintf(s, n, "%.1f MiB", b / (double)(1ull << 20));
  else if (b >= 1024)
    snprintf(s, n, "%.0f KiB", b / 1024.0);
  else
    snprintf(s, n, "%llu B", (unsigned long long)b);
}

kcrt_status kcrt_print_devices(FILE *out) {
  int n;
  const KcrtDevEntry *d = kcrt_devices(&n);
  if (!out) out = stdout;
  int def = default_index(d, n);
  fprintf(out, "%d device%s\n", n, n == 1 ? "" : "s");
  for (int i = 0; i < n; i++) {
    const kcrt_device_info *f = &d[i].info;
    char mem[32], alloc[32], shared[32];
    fmt_bytes(mem, sizeof mem, f->global_mem_bytes);
    fmt_bytes(alloc, sizeof alloc, f->max_alloc_bytes);
    fmt_bytes(shared, sizeof shared, f->max_shared_bytes);
    fprintf(out, "[%d] %s:%d  %s%s\n", i,
            f->backend == KCRT_BACKEND_CUDA     ? "cuda"
            : f->backend == KCRT_BACKEND_OPENCL ? "opencl"
                                                : "vulkan",
            f->backend_index, f->name, i == def ? "  (default)" : "");
    if (f->backend == KCRT_BACKEND_VULKAN)
      fprintf(out, "    %s %s, %s, driver %s\n", f->vendor, type_name(f->type), f->platform,
              f->driver_version);
    else if (f->backend == KCRT_BACKEND_CUDA)
      fprintf(out, "    %s %s, compute capability %d.%d (sm_%d%d), CUDA driver %s\n", f->vendor,
              type_name(f->type), f->cc_major, f->cc_minor, f->cc_major, f->cc_minor,
              f->driver_version);
    else
      fprintf(out, "    %s %s, platform %s, driver %s, %s\n", f->vendor, type_name(f->type),
              f->platform, f->driver_version,
              f->spirv ? "takes SPIR-V" : "OpenCL C only (no SPIR-V)");
    char units[32] = "compute units unknown";
    if (f->compute_units) snprintf(units, sizeof units, "%u compute units", f->compute_units);
    fprintf(out, "    %s, %s global memory (largest buffer %s), %s shared per block, %s\n", units,
            mem, alloc, shared, f->fp64 ? "fp64" : "no fp64 (float only)");
    bool flush32 = !(f->denormals & KCRT_DENORMALS_F32);
    bool flush64 = f->fp64 && !(f->denormals & KCRT_DENORMALS_F64);
    if (flush32 || flush64)
      fprintf(out, "    denormals may be flushed to zero: %s\n",
              flush32 && flush64 ? "float and double"
              : flush32          ? "float"
                                 : "double");
    fprintf(out, "    block <= %llu threads (%llu x %llu x %llu), grid <= %llu x %llu x %llu\n",
            (unsigned long long)f->max_threads_per_block, (unsigned long long)f->max_block_dim[0],
            (unsigned long long)f->max_block_dim[1], (unsigned long long)f->max_block_dim[2],
            (unsigned long long)f->max_grid_dim[0], (unsigned long long)f->max_grid_dim[1],
            (unsigned long long)f->max_grid_dim[2]);
  }
  for (int i = 0; i < NBACKENDS; i++) {
    if (why[i][0])
      fprintf(out, "%s: %s\n", backends[i]->name, why[i]);
    else if (hidden[i][0])
      fprintf(out, "%s: %s\n", backends[i]->name, hidden[i]);
  }
  const char *env = getenv("KCC_DEVICE");
  if (env && *env) {
    int s = select_device(d, n, env);
    if (s >= 0)
      fprintf(out, "KCC_DEVICE='%s' selects [%d]", env, s);
    else
      fprintf(out, "KCC_DEVICE='%s' matches no device", env);
    if (!strcasecmp(env, "local-rank")) {
      const char *from;
      int rank = kcrt_local_rank(&from), count;
      local_rank_index(d, n, &count);
      if (from)
        fprintf(out, ": local rank %d (%s) of %d candidate%s", rank, from, count,
                count == 1 ? "" : "s");
      else
        fprintf(out, ": no launcher set a local rank, so rank 0 of %d candidate%s", count,
                count == 1 ? "" : "s");
    }
    fputc('\n', out);
  }
  return KCRT_SUCCESS;
}
