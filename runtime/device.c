/* device.c — finding devices (once per process, every back end), choosing one (index, name,
 * $KCC_DEVICE, the default order), and describing them (kcrt_print_devices). */
#define _GNU_SOURCE
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const KcrtBackend *const backends[] = {&kcrt_cuda_backend, &kcrt_opencl_backend};
enum { NBACKENDS = sizeof backends / sizeof backends[0] };

static pthread_once_t enum_once = PTHREAD_ONCE_INIT;
static KcrtDevEntry *devs;
static int ndevs;
static char why[NBACKENDS][512];

/* Enumeration happens once: drivers are slow to initialise and the device list of a process
 * should not change under its feet. */
static void enumerate(void) {
  for (int i = 0; i < NBACKENDS; i++) {
    int before = ndevs;
    backends[i]->enumerate(&devs, &ndevs, why[i], sizeof why[i]);
    if (ndevs > before)
      why[i][0] = 0;
    else if (!why[i][0])
      snprintf(why[i], sizeof why[i], "no devices");
    kcrt_log("%s: %d device(s)%s%s", backends[i]->name, ndevs - before, why[i][0] ? ": " : "",
             why[i]);
  }
}

const KcrtDevEntry *kcrt_devices(int *n) {
  pthread_once(&enum_once, enumerate);
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
  int n;
  kcrt_devices(&n);
  for (int i = 0; i < NBACKENDS; i++)
    if (backends[i]->id == backend) return why[i];
  return "unknown back end";
}

/* ---------------------------------------------------------------- selection */

static int first_where(const KcrtDevEntry *d, int n, int backend, int type) {
  for (int i = 0; i < n; i++)
    if ((!backend || (int)d[i].info.backend == backend) && (!type || (int)d[i].info.type == type))
      return i;
  return -1;
}

/* The default order: CUDA GPU, OpenCL GPU, OpenCL CPU, then anything. */
static int default_index(const KcrtDevEntry *d, int n) {
  int i = first_where(d, n, KCRT_BACKEND_CUDA, KCRT_DEVICE_GPU);
  if (i < 0) i = first_where(d, n, KCRT_BACKEND_OPENCL, KCRT_DEVICE_GPU);
  if (i < 0) i = first_where(d, n, KCRT_BACKEND_OPENCL, KCRT_DEVICE_CPU);
  if (i < 0 && n > 0) i = 0;
  return i;
}

static bool contains_nocase(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++)
    if (!strncasecmp(hay, needle, n)) return true;
  return n == 0;
}

/* Resolves a selector (docs/runtime.md, "Choosing a device") to an index, or -1. */
static int select_device(const KcrtDevEntry *d, int n, const char *sel) {
  char *end;
  if (isdigit((unsigned char)sel[0])) {
    long v = strtol(sel, &end, 10);
    if (!*end && v < n) return (int)v;
    /* Not an index of this machine: maybe part of a name ("3090"), tried below. */
  }
  static const struct {
    const char *name;
    int backend;
  } bes[] = {
      {"cuda", KCRT_BACKEND_CUDA}, {"opencl", KCRT_BACKEND_OPENCL}, {"cl", KCRT_BACKEND_OPENCL}};
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

static kcrt_status no_device(const char *what) {
  int n;
  kcrt_devices(&n);
  kcrt_fail(KCRT_ERROR_NO_DEVICE, "%s (%d device%s found", what, n, n == 1 ? "" : "s");
  for (int i = 0; i < NBACKENDS; i++)
    if (why[i][0]) {
      char line[700];
      snprintf(line, sizeof line, "; %s: %s", backends[i]->name, why[i]);
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
    if (!n) return no_device("no device to open");
    return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "device index %d is out of range (%d device%s)",
                     index, n, n == 1 ? "" : "s");
  }
  return kcrt_device_open_entry(&d[index], out);
}

kcrt_status kcrt_device_open_by_name(const char *sel, kcrt_device **out) {
  int n;
  const KcrtDevEntry *d = kcrt_devices(&n);
  if (!out || !sel) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_open_by_name: NULL");
  int i = select_device(d, n, sel);
  if (i < 0) {
    char what[300];
    snprintf(what, sizeof what, "no device matches '%s'", sel);
    return no_device(what);
  }
  return kcrt_device_open_entry(&d[i], out);
}

kcrt_status kcrt_device_open_default(kcrt_device **out) {
  int n;
  const KcrtDevEntry *d = kcrt_devices(&n);
  if (!out) return kcrt_fail(KCRT_ERROR_INVALID_VALUE, "kcrt_device_open_default: out is NULL");
  const char *env = getenv("KCC_DEVICE");
  int i;
  if (env && *env) {
    /* An explicit request that matches nothing is an error, not a silent fallback: the user
     * would otherwise measure or test a device they did not ask for. */
    i = select_device(d, n, env);
    if (i < 0) {
      char what[300];
      snprintf(what, sizeof what, "KCC_DEVICE='%s' matches no device", env);
      return no_device(what);
    }
  } else {
    i = default_index(d, n);
    if (i < 0) return no_device("no device found");
  }
  return kcrt_device_open_entry(&d[i], out);
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
    fprintf(out, "[%d] %s:%d  %s%s\n", i, f->backend == KCRT_BACKEND_CUDA ? "cuda" : "opencl",
            f->backend_index, f->name, i == def ? "  (default)" : "");
    if (f->backend == KCRT_BACKEND_CUDA)
      fprintf(out, "    %s %s, compute capability %d.%d (sm_%d%d), CUDA driver %s\n", f->vendor,
              type_name(f->type), f->cc_major, f->cc_minor, f->cc_major, f->cc_minor,
              f->driver_version);
    else
      fprintf(out, "    %s %s, platform %s, driver %s, %s\n", f->vendor, type_name(f->type),
              f->platform, f->driver_version,
              f->spirv ? "takes SPIR-V" : "OpenCL C only (no SPIR-V)");
    fprintf(out,
            "    %u compute units, %s global memory (largest buffer %s), %s shared per block, "
            "%s\n",
            f->compute_units, mem, alloc, shared, f->fp64 ? "fp64" : "no fp64 (float only)");
    fprintf(out, "    block <= %llu threads (%llu x %llu x %llu), grid <= %llu x %llu x %llu\n",
            (unsigned long long)f->max_threads_per_block, (unsigned long long)f->max_block_dim[0],
            (unsigned long long)f->max_block_dim[1], (unsigned long long)f->max_block_dim[2],
            (unsigned long long)f->max_grid_dim[0], (unsigned long long)f->max_grid_dim[1],
            (unsigned long long)f->max_grid_dim[2]);
  }
  for (int i = 0; i < NBACKENDS; i++)
    if (why[i][0]) fprintf(out, "%s: %s\n", backends[i]->name, why[i]);
  const char *env = getenv("KCC_DEVICE");
  if (env && *env) {
    int s = select_device(d, n, env);
    if (s >= 0)
      fprintf(out, "KCC_DEVICE='%s' selects [%d]\n", env, s);
    else
      fprintf(out, "KCC_DEVICE='%s' matches no device\n", env);
  }
  return KCRT_SUCCESS;
}
