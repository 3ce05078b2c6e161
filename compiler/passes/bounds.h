/* bounds.h — what `kcc -fbounds-check` (compiler/passes/bounds.c) leaves for the back ends and the
 * bundle: the module's table of checked regions and access sites, which the runtime uses to
 * turn an error record into a message (docs/design.md, "Bounds checking"). */
#ifndef KCC_BOUNDS_H
#define KCC_BOUNDS_H

#include "kir.h"

enum {                         /* KBoundsRegion.kind */
       KB_REGION_PARAM = 1,    /* a kernel's buffer (or local-memory) parameter */
       KB_REGION_SHARED = 2,   /* a shared array (static, or dynamic: the launch's bytes) */
       KB_REGION_LOCAL = 3,    /* a thread's local variable or array */
       KB_REGION_CONSTANT = 4, /* a constant table */
};

enum { /* KBoundsSite.access */
       KB_ACCESS_READ = 1,
       KB_ACCESS_WRITE = 2,
       KB_ACCESS_UPDATE = 3, /* compound assignment, ++/--, atomics */
};

typedef struct KBoundsRegion {
  int kind;
  const char *name; /* the parameter's or variable's source name */
  const char *elem; /* its element type as C spells it ("float"; "char" for void) */
  uint32_t elem_size;
  int kernel, param; /* PARAM: the kernel's index and the parameter's; else kernel or -1 */
} KBoundsRegion;

typedef struct KBoundsSite {
  const char *file; /* base name */
  int line, col;
  int access;
} KBoundsSite;

typedef struct KBoundsTable {
  KList regions; /* KBoundsRegion*; region id i + 1 is regions.v[i] (0: none) */
  KList sites;   /* KBoundsSite*; site id i is sites.v[i] */
} KBoundsTable;

/* The error record's layout in 32-bit words (the runtime allocates and reads it). */
enum {
  KB_REC_FLAG = 0, /* 0: no failure; 1: the rest is filled */
  KB_REC_KERNEL = 1,
  KB_REC_SITE = 2,
  KB_REC_REGION = 3,
  KB_REC_THREAD = 4,  /* x, y, z */
  KB_REC_BLOCK = 7,   /* x, y, z */
  KB_REC_OFFSET = 10, /* u64, low word first: the access's byte offset from the region's base */
  KB_REC_SIZE = 12,   /* u64: the region's size in bytes */
  KB_REC_WORDS = 16,
};

/* Instruments every function of the module (after pass_addrspace). allow_generic as there. */
bool pass_bounds(KModule *m, bool allow_generic);
/* The parameters of a function the source declares (the hidden ones come after them). */
int kir_user_params(const KFunc *f);
/* The bundle's BOUNDS section (docs/bundle.md): one line per region, then one per site. */
struct KBuf;
void bounds_table_text(const KModule *m, struct KBuf *out);

#endif
