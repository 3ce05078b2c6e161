/* real_run.h — runs a registry-corpus kernel (tests/real/run/EXPECT names it) two ways and
 * checks both:
 *
 *   original  the kernel's own source, built by an OpenCL driver (PoCL here) through the
 *             OpenCL API directly (cldirect.c), with the host program's build options
 *   kcc       the bundle kcc made of the same source, loaded and launched through libkcrt on
 *             the runtime's default device ($KCC_DEVICE: PoCL here, the CUDA driver on a GPU
 *             machine)
 *
 * Every case (cases.c) generates fresh random inputs (seed printed on failure; KCRT_TEST_SEED
 * repeats a run), computes a host reference in C, runs the kernel on each path with the same
 * inputs and compares every output element with the reference: bit for bit for integer
 * results, within a stated bound for floating point. Where a kernel's results are integers
 * (or floats the kernel only moves), the two paths must also agree bit for bit.
 *
 *   real_run NAME BUNDLE.kcb SOURCE.cl [BUILD-OPTIONS...]
 *
 * Exit status: 0 pass, 1 fail, 2 usage, 77 no device on either path (ctest's skip). */
#ifndef KCC_REAL_RUN_H
#define KCC_REAL_RUN_H

#include "rt_common.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { PATH_ORIGINAL = 0, PATH_KCC = 1, NPATHS = 2 };

typedef struct Dev Dev;   /* one path's device (an OpenCL context, or a libkcrt device) */
typedef struct DBuf DBuf; /* a device buffer of that path */

typedef enum ArgKind { ARG_BUFFER, ARG_VALUE, ARG_LOCAL } ArgKind;
typedef struct Arg {
  ArgKind kind;
  DBuf *buf;         /* ARG_BUFFER */
  const void *value; /* ARG_VALUE */
  size_t size;       /* ARG_VALUE: the value's size; ARG_LOCAL: bytes of local memory */
} Arg;
#define A_BUF(b)   ((Arg){ARG_BUFFER, (b), NULL, 0})
#define A_VAL(v)   ((Arg){ARG_VALUE, NULL, &(v), sizeof(v)})
#define A_LOCAL(n) ((Arg){ARG_LOCAL, NULL, NULL, (n)})

/* The state of one run: the random stream and failure count (Rt), the paths that have a
 * device, and the path being run. */
typedef struct Ctx {
  Rt rt;
  const char *name;
  Dev *dev[NPATHS]; /* NULL: that path has no device here (reported, not a failure) */
  const char *why_not[NPATHS];
} Ctx;

/* Path names for messages: "original" and "kcc". */
const char *path_name(int path);

DBuf *dev_alloc(Ctx *c, int path, size_t size); /* filled with 0xA5 garbage */
DBuf *dev_upload(Ctx *c, int path, const void *data, size_t size);
void dev_download(Ctx *c, int path, DBuf *b, void *dst, size_t size);
/* Launches kernel `kernel` with an OpenCL NDRange: `global` work-items in `dims` dimensions,
 * work-groups of `local` (every global size a multiple of it), and waits for it. */
void dev_launch(Ctx *c, int path, const char *kernel, int dims, const size_t global[3],
                const size_t local[3], const Arg *args, int nargs);

/* Comparisons, labelled with the path. */
bool cmp_f32(Ctx *c, int path, const char *what, const float *got, const float *want, size_t n,
             double rtol, double atol);
bool cmp_i32(Ctx *c, int path, const char *what, const int32_t *got, const int32_t *want, size_t n);
bool cmp_u32(Ctx *c, int path, const char *what, const uint32_t *got, const uint32_t *want,
             size_t n);
bool cmp_bytes(Ctx *c, int path, const char *what, const void *got, const void *want, size_t n);
/* The two paths' results must be the same bytes (integer kernels, or kernels that only move
 * data); a no-op when one path did not run. */
void same_on_both_paths(Ctx *c, const char *what, void *const out[NPATHS], size_t bytes);

void fill_f32(Ctx *c, float *p, size_t n, float lo, float hi);

/* One case per corpus kernel with a runner. */
typedef struct Case {
  const char *name;
  void (*run)(Ctx *c);
} Case;
extern const Case real_cases[];
extern const int real_ncases;

#endif
