/* schedenv.c — what job schedulers and MPI launchers tell a process through its environment:
 * which devices it may use, and its rank among the processes of its node (docs/runtime.md,
 * "Devices a scheduler assigns").
 *
 * Schedulers (Slurm, Dask, Ray, Kubernetes device plugins) hand each worker its GPUs through
 * the vendors' visibility variables, so that a worker given one GPU sees it as its device 0.
 * Where a vendor's own driver reads its variable, kcrt leaves it to the driver and applying it
 * again would be wrong (the driver has already renumbered the devices):
 *   CUDA_VISIBLE_DEVICES  libcuda and NVIDIA's OpenCL driver
 *   ROCR_VISIBLE_DEVICES  the ROCm runtime under AMD's OpenCL driver
 * The others are read by a vendor's higher-level runtime that kcrt does not use (HIP, SYCL),
 * so kcrt applies them itself to the devices they mean, before numbering its list:
 *   HIP_VISIBLE_DEVICES      AMD's GPUs of the OpenCL list, by their index among AMD's GPUs
 *   ONEAPI_DEVICE_SELECTOR   every device, as oneAPI's SYCL runtime reads it (below) */
#define _GNU_SOURCE
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- device families */

/* The families a visibility variable counts devices in; a device's index in a family is its
 * position among the family's devices of the back end's list, before any is hidden. */
typedef enum { FAM_CUDA, FAM_OPENCL, FAM_VULKAN, FAM_INTEL_GPU, FAM_AMD_GPU, FAM_ANY } Family;

static bool is_gpu_of(const kcrt_device_info *f, const char *const *vendors) {
  if (f->backend != KCRT_BACKEND_OPENCL || f->type != KCRT_DEVICE_GPU) return false;
  for (; *vendors; vendors++)
    if (strcasestr(f->vendor, *vendors) || strcasestr(f->platform, *vendors)) return true;
  return false;
}

static bool in_family(const kcrt_device_info *f, Family fam) {
  static const char *const intel[] = {"Intel", NULL};
  static const char *const amd[] = {"Advanced Micro Devices", "AMD", NULL};
  switch (fam) {
  case FAM_CUDA: return f->backend == KCRT_BACKEND_CUDA;
  case FAM_OPENCL: return f->backend == KCRT_BACKEND_OPENCL;
  case FAM_VULKAN: return f->backend == KCRT_BACKEND_VULKAN; /* only "*:N" counts in it */
  case FAM_INTEL_GPU: return is_gpu_of(f, intel);
  case FAM_AMD_GPU: return is_gpu_of(f, amd);
  case FAM_ANY: return true;
  }
  return false;
}

/* Entry i's index in its family, counting the entries before it in the same list. */
static int family_index(const KcrtDevEntry *d, int i, Family fam) {
  int k = 0;
  for (int j = 0; j < i; j++) k += in_family(&d[j].info, fam);
  return k;
}

/* ---------------------------------------------------------------- HIP_VISIBLE_DEVICES */

/* HIP_VISIBLE_DEVICES=0,2: the AMD GPUs at those indices stay; set but empty hides them all,
 * as CUDA_VISIBLE_DEVICES= does for CUDA. HIP stops at the first entry that is not a valid
 * index, and so does this. */
static bool hip_visible(const char *v, const KcrtDevEntry *d, int i) {
  if (!in_family(&d[i].info, FAM_AMD_GPU)) return true;
  int k = family_index(d, i, FAM_AMD_GPU);
  for (const char *p = v; *p;) {
    char *end;
    if (!isdigit((unsigned char)*p)) return false;
    long x = strtol(p, &end, 10);
    if (x == k) return true;
    if (*end != ',') return false;
    p = end + 1;
  }
  return false;
}

/* ---------------------------------------------------------------- ONEAPI_DEVICE_SELECTOR */

/* ONEAPI_DEVICE_SELECTOR="term;term...", a term "[!]backend:device,device...", as oneAPI's
 * SYCL runtime defines it: a device is visible when some positive term selects it (or when
 * there is none) and no negative ("!") term does. Backends map onto kcrt's devices:
 *   opencl      every OpenCL device          level_zero  Intel's GPUs (through OpenCL)
 *   cuda        every CUDA device             hip         AMD's GPUs (through OpenCL)
 *   *           every device (indices count per back end, as SYCL counts them per backend)
 * A device is "*", "gpu", "cpu", "fpga" (an accelerator) or an index in the backend's family;
 * sub-devices ("1.0", "1.*") mean their device, which kcrt does not split. Other backends
 * (native_cpu...) select nothing kcrt has. */
static bool parse_family(const char *s, size_t len, Family *fam) {
  static const struct {
    const char *name;
    Family fam;
  } names[] = {{"opencl", FAM_OPENCL},
               {"level_zero", FAM_INTEL_GPU},
               {"cuda", FAM_CUDA},
               {"hip", FAM_AMD_GPU},
               {"*", FAM_ANY}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strlen(names[i].name) == len && !strncasecmp(s, names[i].name, len)) {
      *fam = names[i].fam;
      return true;
    }
  return false;
}

/* Whether one device item (s, len) of a term selects entry i. */
static bool item_selects(const char *s, size_t len, const KcrtDevEntry *d, int i, Family fam) {
  const kcrt_device_info *f = &d[i].info;
  if (len == 1 && *s == '*') return true;
  if (len == 3 && !strncasecmp(s, "gpu", 3)) return f->type == KCRT_DEVICE_GPU;
  if (len == 3 && !strncasecmp(s, "cpu", 3)) return f->type == KCRT_DEVICE_CPU;
  if (len == 4 && !strncasecmp(s, "fpga", 4)) return f->type == KCRT_DEVICE_ACCELERATOR;
  if (!len || !isdigit((unsigned char)*s)) return false;
  long x = strtol(s, NULL, 10); /* "1.0" and "1.*" stop at the dot: device 1 */
  if (fam == FAM_ANY)
    fam = f->backend == KCRT_BACKEND_CUDA     ? FAM_CUDA
          : f->backend == KCRT_BACKEND_VULKAN ? FAM_VULKAN
                                              : FAM_OPENCL;
  return x == family_index(d, i, fam);
}

/* Whether term (s, len) selects entry i; *negative tells whether it was a "!" term. A term
 * that does not parse selects nothing. */
static bool term_selects(const char *s, size_t len, const KcrtDevEntry *d, int i, bool *negative) {
  *negative = len && *s == '!';
  if (*negative) s++, len--;
  const char *colon = memchr(s, ':', len);
  Family fam;
  if (!colon || !parse_family(s, (size_t)(colon - s), &fam)) return false;
  if (!in_family(&d[i].info, fam)) return false;
  for (const char *p = colon + 1, *end = s + len; p < end;) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    size_t n = (size_t)((comma ? comma : end) - p);
    if (item_selects(p, n, d, i, fam)) return true;
    p += n + 1;
  }
  return false;
}

static bool oneapi_visible(const char *v, const KcrtDevEntry *d, int i) {
  bool positive_terms = false, selected = false;
  for (const char *p = v; *p;) {
    size_t n = strcspn(p, ";");
    bool negative;
    bool hit = term_selects(p, n, d, i, &negative);
    if (negative && hit) return false;
    if (!negative && n) {
      positive_terms = true;
      selected |= hit;
    }
    p += n + (p[n] == ';');
  }
  return selected || !positive_terms;
}

/* ---------------------------------------------------------------- filtering */

static const struct {
  const char *var;
  bool (*visible)(const char *value, const KcrtDevEntry *d, int i);
} rules[] = {{"HIP_VISIBLE_DEVICES", hip_visible}, {"ONEAPI_DEVICE_SELECTOR", oneapi_visible}};

void kcrt_visible_filter(KcrtDevEntry *d, int *n, char *note, size_t notelen) {
  if (notelen) note[0] = 0;
  if (!*n) return;
  bool *keep = malloc((size_t)*n * sizeof *keep);
  if (!keep) return;
  for (int i = 0; i < *n; i++) keep[i] = true;
  for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
    const char *v = getenv(rules[r].var);
    if (!v) continue;
    int hidden = 0;
    for (int i = 0; i < *n; i++)
      if (!rules[r].visible(v, d, i)) hidden += keep[i], keep[i] = false;
    if (hidden) {
      size_t used = strlen(note);
      snprintf(note + used, notelen - used, "%s%s='%s' hides %d", used ? ", " : "", rules[r].var, v,
               hidden);
    }
  }
  /* Keep the visible entries in order and number each back end's from 0 again, as a driver
   * that applies its own variable does. */
  int m = 0;
  for (int i = 0; i < *n; i++)
    if (keep[i]) d[m++] = d[i];
  for (int i = 0; i < m; i++) d[i].info.backend_index = i;
  if (m < *n) kcrt_log("%s", note);
  *n = m;
  free(keep);
}

/* ---------------------------------------------------------------- the local rank */

/* The variables MPI launchers and schedulers set to a process's rank among the processes of
 * its node, in the order they are read. */
static const char *const rank_vars[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK", /* Open MPI's mpirun */
    "MPI_LOCALRANKID",            /* MPICH's and Intel MPI's Hydra */
    "MV2_COMM_WORLD_LOCAL_RANK",  /* MVAPICH2 */
    "SLURM_LOCALID",              /* Slurm's srun */
    "PALS_LOCAL_RANKID",          /* HPE Cray's PALS */
    "FLUX_TASK_LOCAL_ID",         /* Flux */
};

int kcrt_local_rank(const char **from) {
  for (size_t i = 0; i < sizeof rank_vars / sizeof rank_vars[0]; i++) {
    const char *v = getenv(rank_vars[i]);
    char *end;
    if (!v || !isdigit((unsigned char)*v)) continue;
    long r = strtol(v, &end, 10);
    if (*end || r > 1 << 20) continue;
    if (from) *from = rank_vars[i];
    return (int)r;
  }
  if (from) *from = NULL;
  return 0;
}
