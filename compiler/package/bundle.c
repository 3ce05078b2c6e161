/* bundle.c — the fat-module back end (.kcb): every form of the module that a driver may want
 * (PTX per -arch, cubins per -arch when ptxas is around, SPIR-V, OpenCL C) plus the kernel
 * table the runtime checks launches against, in the format of runtime/kcb_format.h
 * (specified in docs/bundle.md).
 *
 * The runtime chooses among the forms at load time. PTX is required (a PTX failure fails the
 * bundle); an OpenCL form (SPIR-V, OpenCL C) the module cannot be written in is left out with
 * a warning quoting why (docs/bundle.md), so a CUDA kernel that uses clock() still gets a
 * bundle for NVIDIA GPUs. emit_spirv returning false without reporting anything means "no
 * SPIR-V back end", and the bundle goes without it silently. The Vulkan SPIR-V form is left out
 * quietly when the module uses what it cannot express yet. */
#include "bounds.h"
#include "diag.h"
#include "kcc.h"
#include "kcb_format.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef struct Sections {
  KcbWSection *v;
  uint32_t n;
  KList bufs; /* KBuf* (in the KIR arena): section payloads, whose data is freed at the end */
} Sections;

/* A fresh owned buffer for a section payload (kept until the bundle is written). */
static KBuf *new_buf(Sections *s) {
  KBuf *b = kir_alloc(sizeof *b);
  klist_push(&s->bufs, b);
  return b;
}

static void add_section(Sections *s, uint32_t kind, uint32_t arch, const KBuf *b) {
  s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
  if (!s->v) {
    fputs("kcc: fatal error: out of memory\n", stderr);
    exit(1);
  }
  s->v[s->n++] = (KcbWSection){kind, arch, b->data, b->len};
}

/* ---------------------------------------------------------------- kernel table */

static uint8_t scalar_code(const KType *t) {
  switch (t->kind) {
  case KT_BOOL: return KCB_T_BOOL;
  case KT_I8: return KCB_T_I8;
  case KT_I16: return KCB_T_I16;
  case KT_I32: return KCB_T_I32;
  case KT_I64: return KCB_T_I64;
  case KT_U8: return KCB_T_U8;
  case KT_U16: return KCB_T_U16;
  case KT_U32: return KCB_T_U32;
  case KT_U64: return KCB_T_U64;
  case KT_F32: return KCB_T_F32;
  case KT_F64: return KCB_T_F64;
  default: return KCB_T_NONE;
  }
}

/* Whether f or a function it calls uses double (KCB_KERNEL_FP64): a device without fp64
 * cannot run it, and libkcrt says so at load rather than at a driver's build. */
static bool is_f64(const KType *t) {
  while (t && (t->kind == KT_PTR || t->kind == KT_ARRAY || t->kind == KT_VEC)) t = t->base;
  return t && t->kind == KT_F64;
}
/* printf's arguments are promoted to double as in C, which no device needs fp64 for. */
static bool expr_f64(const KExpr *e) {
  if (!e) return false;
  if (e->kind == KE_BUILTIN && e->builtin == BI_PRINTF) return false;
  if (is_f64(e->type) || expr_f64(e->a) || expr_f64(e->b) || expr_f64(e->c)) return true;
  for (int i = 0; i < e->nargs; i++)
    if (expr_f64(e->args[i])) return true;
  return false;
}
static bool stmt_f64(const KStmt *s) {
  if (!s) return false;
  if (s->kind == KS_DECL && is_f64(s->var->type)) return true;
  if (expr_f64(s->init) || expr_f64(s->expr) || expr_f64(s->cond) || expr_f64(s->step)) return true;
  for (int i = 0; i < s->list.n; i++)
    if (stmt_f64(s->list.v[i])) return true;
  return stmt_f64(s->init_stmt) || stmt_f64(s->then) || stmt_f64(s->els) || stmt_f64(s->body);
}
static bool uses_fp64(KFunc *f, int depth) {
  bool hit = stmt_f64(f->body);
  for (int i = 0; i < f->nparams && !hit; i++) hit = is_f64(f->params[i]->type);
  for (int i = 0; i < f->callees.n && !hit && depth < 64; i++)
    hit = uses_fp64(f->callees.v[i], depth + 1);
  return hit;
}

/* Whether f or a function it calls has a read_write image parameter (OpenCL C 2.0). */
static bool uses_rw_images(const KFunc *f, int depth) {
  for (int i = 0; i < f->nparams; i++) {
    /* A surface object read and written (frontend/cuda/cuda_texobj.c) is a read_write image. */
    const KVar *p = f->params[i]->tex_image ? f->params[i]->tex_image : f->params[i];
    if (p->type->kind == KT_IMAGE && p->type->qual == (KIMG_READ | KIMG_WRITE)) return true;
  }
  for (int i = 0; i < f->callees.n && depth < 64; i++)
    if (uses_rw_images(f->callees.v[i], depth + 1)) return true;
  return false;
}

/* The largest block kernel f accepts, 0 for the device's: its __launch_bounds__, and at most
 * one work-item per slot of the OpenCL work-group functions' scratch when it reaches them. */
static uint32_t max_threads(const KFunc *f) {
  uint32_t n = (uint32_t)f->max_threads;
  for (int i = 0; i < f->shared.n; i++)
    if (KLIST_AT(f->shared, i, KVar *)->group_scratch && (n == 0 || n > KIR_GROUP_SCRATCH_SLOTS))
      n = KIR_GROUP_SCRATCH_SLOTS;
  return n;
}

/* The kernel table, and in `attrs` the KATTRS section (left empty when no kernel has an
 * attribute, so that such bundles read the same with a 1.1 reader). */
static bool kernel_table(KModule *m, KBuf *out, KBuf *attrs) {
  int nk = 0;
  for (int i = 0; i < m->funcs.n; i++)
    if (KLIST_AT(m->funcs, i, KFunc *)->is_kernel) nk++;
  KcbWKernel *ks = kir_alloc((nk ? nk : 1) * sizeof *ks);
  int k = 0;
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = KLIST_AT(m->funcs, i, KFunc *);
    if (!f->is_kernel) continue;
    KcbWParam *ps = kir_alloc((f->nparams ? f->nparams : 1) * sizeof *ps);
    for (int j = 0; j < f->nparams; j++) {
      KType *t = f->params[j]->type;
      KcbWParam *p = &ps[j];
      p->name = f->params[j]->name ? f->params[j]->name : "";
      p->type = kir_type_str(t);
      p->size = (uint32_t)t->size;
      p->align = (uint32_t)t->align;
      if (j >= kir_user_params(f) && t->kind == KT_SAMPLER) {
        /* The sampler of a texture object parameter (frontend/cuda/cuda_texobj.c). */
        p->kind = KCB_PARAM_TEX_SAMPLER;
        p->scalar = (uint8_t)f->params[j]->tex_of;
        p->size = p->align = 8;
      } else if (f->params[j]->tex_image) {
        /* A texture or surface object: on CUDA 8 bytes, elsewhere the image it stands for. */
        KType *it = f->params[j]->tex_image->type;
        bool surf = f->params[j]->tex_surface;
        p->kind = surf ? KCB_PARAM_SURFACE : KCB_PARAM_TEXTURE;
        p->type = surf ? "cudaSurfaceObject_t" : "cudaTextureObject_t";
        p->scalar = (uint8_t)(it->len + 1);
        p->qual = (uint8_t)it->qual;
      } else if (j >= kir_user_params(f)) {
        /* -fbounds-check's hidden parameters: buffer sizes, then the error record. */
        p->kind = t->kind == KT_PTR ? KCB_PARAM_BOUNDS_RECORD : KCB_PARAM_BOUNDS_SIZE;
        p->addr_space = t->kind == KT_PTR ? KCB_AS_GLOBAL : 0;
        p->scalar = scalar_code(t->kind == KT_PTR ? t->base : t);
        p->size = p->align = 8;
      } else if (t->kind == KT_PTR && t->as == KAS_SHARED) {
        /* Local memory sized by the host at each launch: on CUDA a 32-bit offset into the
         * dynamic shared region, on OpenCL a __local argument. */
        p->kind = KCB_PARAM_LOCAL;
        p->addr_space = KCB_AS_SHARED;
        p->scalar = scalar_code(kir_elem(t->base));
        p->vec_len = kir_is_vec(t->base) ? (uint8_t)t->base->len : 0;
        p->qual = (uint8_t)t->qual;
        p->size = p->align = 4;
      } else if (t->kind == KT_PTR) {
        p->kind = KCB_PARAM_POINTER;
        p->addr_space = (uint8_t)t->as;
        p->scalar = scalar_code(kir_elem(t->base));
        p->vec_len = kir_is_vec(t->base) ? (uint8_t)t->base->len : 0;
        p->qual = (uint8_t)t->qual;
      } else if (t->kind == KT_STRUCT) {
        p->kind = KCB_PARAM_STRUCT;
      } else if (t->kind == KT_IMAGE) {
        p->kind = KCB_PARAM_IMAGE;
        p->scalar = (uint8_t)(t->len + 1); /* KcbImageDim */
        p->qual = (uint8_t)t->qual;
      } else if (t->kind == KT_SAMPLER) {
        p->kind = KCB_PARAM_SAMPLER;
      } else if (kir_is_arith(t) || kir_is_vec(t)) {
        p->kind = KCB_PARAM_SCALAR;
        p->scalar = scalar_code(kir_elem(t));
        p->vec_len = kir_is_vec(t) ? (uint8_t)t->len : 0;
      } else {
        diag_ice(f->params[j]->loc, "kernel parameter '%s' of type '%s' has no bundle encoding",
                 p->name, p->type);
        return false;
      }
    }
    ks[k++] = (KcbWKernel){
        f->name,
        ps,
        (uint32_t)f->nparams,
        (uint64_t)(f->static_shared_bytes > 0 ? f->static_shared_bytes : 0),
        (f->uses_dynamic_shared ? KCB_KERNEL_DYNAMIC_SHARED : 0) |
            (kir_func_uses_warp(f) ? KCB_KERNEL_WARP : 0) |
            (uses_fp64(f, 0) ? KCB_KERNEL_FP64 : 0) |
            (kir_func_uses_subgroups(f) ? KCB_KERNEL_SUBGROUPS : 0) |
            (uses_rw_images(f, 0) ? KCB_KERNEL_RW_IMAGES : 0),
        max_threads(f),
        {(uint32_t)f->reqd_block[0], (uint32_t)f->reqd_block[1], (uint32_t)f->reqd_block[2]},
        (uint32_t)(f->reqd_subgroup > 0 ? f->reqd_subgroup : 0)};
  }
  size_t len;
  unsigned char *tab = kcb_write_kernel_table(ks, (uint32_t)nk, &len);
  if (!tab) {
    diag_error((KLoc){0}, "the kernel table is too large for the bundle format");
    return false;
  }
  kbuf_append(out, tab, len);
  free(tab);
  tab = kcb_write_kernel_attrs(ks, (uint32_t)nk, &len);
  if (!tab && len) {
    fputs("kcc: fatal error: out of memory\n", stderr);
    exit(1);
  }
  if (tab) kbuf_append(attrs, tab, len);
  free(tab);
  return true;
}

/* The SYMBOLS section: every host-filled constant, and for each kernel the ones it takes as
 * hidden OpenCL arguments, in KFunc.symbols order (the order both OpenCL back ends use). No
 * section when the module has none, so bundles without symbols stay readable by 1.0 readers. */
/* The SYMINIT section: for each CUDA __device__ variable among the symbols (in SYMBOLS order),
 * that it is global memory kernels write, and its first value. None when there are none. */
static bool symbol_inits(KModule *m, KBuf *out) {
  uint32_t ns = 0, n = 0;
  KcbWSymInit *e = kir_alloc(sizeof *e * (size_t)(m->globals.n + 1));
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    if (!v->host_filled) continue;
    if (v->is_mutable) {
      unsigned char *data = NULL;
      if (v->init) {
        data = kir_alloc((size_t)v->type->size);
        memset(data, 0, (size_t)v->type->size);
        if (!kir_const_bytes(v->type, v->init, data)) {
          diag_error(v->loc, "initializer of '%s' is not a constant expression", v->name);
          return false;
        }
      }
      e[n++] = (KcbWSymInit){ns, KCB_SYMBOL_MUTABLE, data, data ? (uint64_t)v->type->size : 0};
    }
    ns++;
  }
  if (!n) return true;
  size_t len;
  unsigned char *tab = kcb_write_syminit(e, n, &len);
  if (!tab) {
    diag_error((KLoc){0}, "the symbols' first values are too large for the bundle format");
    return false;
  }
  kbuf_append(out, tab, len);
  free(tab);
  return true;
}

static bool symbol_table(KModule *m, KBuf *out) {
  KcbWSymbol *syms = kir_alloc(sizeof *syms * (size_t)(m->globals.n + 1));
  uint32_t ns = 0, nu = 0, nuses = 0;
  for (int i = 0; i < m->globals.n; i++) {
    KVar *v = m->globals.v[i];
    if (!v->host_filled) continue;
    v->aux = (void *)(uintptr_t)ns;
    syms[ns++] = (KcbWSymbol){v->name, (uint64_t)v->type->size};
  }
  if (!ns) return true;
  for (int i = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (f->is_kernel) nuses += (uint32_t)f->symbols.n;
  }
  uint32_t(*uses)[2] = kir_alloc(sizeof *uses * (nuses + 1));
  for (int i = 0, k = 0; i < m->funcs.n; i++) {
    KFunc *f = m->funcs.v[i];
    if (!f->is_kernel) continue;
    for (int j = 0; j < f->symbols.n; j++)
      uses[nu][0] = (uint32_t)k,
      uses[nu++][1] = (uint32_t)(uintptr_t)((KVar *)f->symbols.v[j])->aux;
    k++;
  }
  for (int i = 0; i < m->globals.n; i++) ((KVar *)m->globals.v[i])->aux = NULL;
  size_t len;
  unsigned char *tab = kcb_write_symbols(syms, ns, (const uint32_t(*)[2])uses, nu, &len);
  if (!tab) {
    diag_error((KLoc){0}, "the symbol table is too large for the bundle format");
    return false;
  }
  kbuf_append(out, tab, len);
  free(tab);
  return true;
}

/* ---------------------------------------------------------------- ptxas */

static bool is_exe(const char *p) {
  return access(p, X_OK) == 0;
}

/* ptxas to use, or NULL: $KCC_PTXAS (empty or "none" turns cubins off), the CUDA path given
 * with --cuda-path, $PATH, then /usr/local/cuda/bin. Returns malloc'd. */
static char *find_ptxas(const KOptions *o) {
  const char *env = getenv("KCC_PTXAS");
  if (env) return *env && strcmp(env, "none") ? strdup(env) : NULL;
  KBuf b = {0};
  if (o->cuda_path) {
    kbuf_printf(&b, "%s/bin/ptxas", o->cuda_path);
    if (is_exe(b.data)) return b.data;
    kbuf_free(&b);
  }
  const char *path = getenv("PATH");
  for (const char *p = path; p && *p;) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n) {
      b.len = 0;
      kbuf_append(&b, p, n);
      kbuf_puts(&b, "/ptxas");
      if (is_exe(b.data)) return b.data;
    }
    p = e ? e + 1 : NULL;
  }
  kbuf_free(&b);
  if (is_exe("/usr/local/cuda/bin/ptxas")) return strdup("/usr/local/cuda/bin/ptxas");
  return NULL;
}

/* Assembles `ptx` for sm_<arch> into `cubin`. Temporary files, not pipes: ptxas reads and
 * writes only files. Returns false with ptxas's own messages in `log`. */
static bool run_ptxas(const char *ptxas, int arch, const KBuf *ptx, KBuf *cubin, KBuf *log) {
  const char *tmpdir = getenv("TMPDIR");
  if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
  char in[4096], out[4096], err[4096];
  snprintf(in, sizeof in, "%s/kcc-XXXXXX.ptx", tmpdir);
  snprintf(out, sizeof out, "%s/kcc-XXXXXX.cubin", tmpdir);
  snprintf(err, sizeof err, "%s/kcc-XXXXXX.log", tmpdir);
  int fin = mkstemps(in, 4), fout = mkstemps(out, 6), ferr = mkstemps(err, 4);
  bool ok = fin >= 0 && fout >= 0 && ferr >= 0;
  if (!ok) kbuf_printf(log, "cannot create temporary files in %s: %s", tmpdir, strerror(errno));
  if (ok && !kcc_write_all(fin, ptx->data, ptx->len)) {
    kbuf_printf(log, "cannot write %s: %s", in, strerror(errno));
    ok = false;
  }
  if (ok) {
    char archarg[32];
    snprintf(archarg, sizeof archarg, "-arch=sm_%d", arch);
    char *argv[] = {(char *)ptxas, archarg, in, "-o", out, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, ferr, 1);
    posix_spawn_file_actions_adddup2(&fa, ferr, 2);
    pid_t pid;
    int rc = posix_spawn(&pid, ptxas, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int st = 0;
    if (rc != 0) {
      kbuf_printf(log, "cannot run %s: %s", ptxas, strerror(rc));
      ok = false;
    } else {
      while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
      }
      ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
      if (!ok) {
        kcc_read_file(err, log);
        if (!log->len) kbuf_printf(log, "%s exited with status %d", ptxas, WEXITSTATUS(st));
      }
    }
  }
  if (ok && (!kcc_read_file(out, cubin) || cubin->len == 0)) {
    kbuf_printf(log, "%s wrote no cubin", ptxas);
    ok = false;
  }
  if (fin >= 0) close(fin), unlink(in);
  if (fout >= 0) close(fout), unlink(out);
  if (ferr >= 0) close(ferr), unlink(err);
  return ok;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---------------------------------------------------------------- the bundle */

/* A form the module cannot be written in: the bundle goes without it, and a warning quotes
 * the first line of what that back end said (why, malloc'ed, is freed here). */
static void leave_out(const char *form, char *why) {
  size_t n = why ? strcspn(why, "\n") : 0;
  diag_warning((KLoc){0}, "the bundle carries no %s: %.*s", form, (int)n, why ? why : "");
  free(why);
}

bool emit_bundle(KModule *m, const KOptions *o, KBuf *out) {
  /* Every limit of every form first, once: a bundle is only as good as its weakest form. */
  if (!kcc_check_limits(m, o, KL_PTX | KL_SPIRV)) return false;
  Sections s = {0};
  bool ok = true;

  KBuf *info = new_buf(&s);
  const char *base = m->file ? strrchr(m->file, '/') : NULL;
  kbuf_printf(info, "producer=kcc %s\nsource=%s\n", KCC_VERSION,
              base      ? base + 1
              : m->file ? m->file
                        : "");
  add_section(&s, KCB_SEC_INFO, 0, info);

  KBuf *ktab = new_buf(&s), *kattrs = new_buf(&s);
  ok = kernel_table(m, ktab, kattrs);
  if (ok) add_section(&s, KCB_SEC_KERNELS, 0, ktab);
  if (ok && kattrs->len) add_section(&s, KCB_SEC_KATTRS, 0, kattrs);
  KBuf *symtab = new_buf(&s);
  ok = ok && symbol_table(m, symtab);
  if (ok && symtab->len) add_section(&s, KCB_SEC_SYMBOLS, 0, symtab);
  KBuf *syminit = new_buf(&s);
  ok = ok && symbol_inits(m, syminit);
  if (ok && syminit->len) add_section(&s, KCB_SEC_SYMINIT, 0, syminit);
  if (ok && m->bounds) {
    KBuf *btab = new_buf(&s);
    bounds_table_text(m, btab);
    add_section(&s, KCB_SEC_BOUNDS, 0, btab);
  }

  /* One PTX per requested arch: PTX for sm_XX only assembles and JITs for sm_XX and later, so
   * a single PTX for the first arch could not serve an older second one. */
  char *ptxas = ok ? find_ptxas(o) : NULL;
  if (o->verbose && ok)
    fprintf(stderr, "kcc: bundle: ptxas %s\n", ptxas ? ptxas : "not found (no cubins)");
  for (int i = 0; ok && i < o->narchs; i++) {
    int arch = o->archs[i];
    bool dup = false;
    for (int j = 0; j < i; j++) dup |= o->archs[j] == arch;
    if (dup) continue;
    KOptions one = *o;
    one.archs[0] = arch;
    one.narchs = 1;
    KBuf *ptx = new_buf(&s);
    if (!emit_ptx(m, &one, ptx)) {
      ok = false;
      break;
    }
    add_section(&s, KCB_SEC_PTX, (uint32_t)arch, ptx);
    if (!ptxas) continue;
    KBuf *cubin = new_buf(&s), log = {0};
    double t0 = now_ms();
    if (run_ptxas(ptxas, arch, ptx, cubin, &log)) {
      add_section(&s, KCB_SEC_CUBIN, (uint32_t)arch, cubin);
      if (o->verbose)
        fprintf(stderr, "kcc: bundle: ptxas sm_%d: %zu bytes of cubin in %.1f ms\n", arch,
                cubin->len, now_ms() - t0);
    } else {
      /* The PTX still serves that arch through the driver's JIT, so this is not fatal. */
      diag_warning((KLoc){0},
                   "ptxas could not assemble the PTX for sm_%d; the bundle carries "
                   "PTX only for it:\n%s",
                   arch, log.data ? log.data : "");
    }
    kbuf_free(&log);
  }
  free(ptxas);

  /* The OpenCL forms. A kernel that cannot be written in one (clock() in OpenCL C, a partial
   * warp barrier, a struct holding a pointer as a parameter) leaves that form out with a
   * warning, rather than failing a bundle whose PTX serves every NVIDIA GPU; the runtime then
   * says which form an OpenCL device would have needed (KCRT_ERROR_NO_BINARY). */
  bool have_opencl = false;
  if (ok) {
    KBuf *spv = new_buf(&s);
    int errors = diag_error_count();
    DiagCapture cap;
    diag_capture_begin(&cap);
    bool made = emit_spirv(m, o, spv);
    char *why = diag_capture_end(&cap, !made && diag_error_count() != errors);
    if (made)
      add_section(&s, KCB_SEC_SPIRV, 0, spv);
    else if (why)
      leave_out("SPIR-V", why);
    else if (o->verbose)
      fprintf(stderr, "kcc: bundle: no SPIR-V back end in this build; bundle without SPIR-V\n");
    have_opencl |= made;
  }
  if (ok) {
    KBuf *cl = new_buf(&s);
    DiagCapture cap;
    diag_capture_begin(&cap);
    bool made = emit_opencl_c(m, o, cl);
    char *why = diag_capture_end(&cap, !made);
    if (made)
      add_section(&s, KCB_SEC_OPENCL_C, 0, cl);
    else
      leave_out("OpenCL C", why);
    have_opencl |= made;
  }
  if (ok && !have_opencl)
    diag_warning((KLoc){0}, "the bundle has no OpenCL form: it loads on CUDA devices only");

  /* The Vulkan form (1.6) is new and refuses much yet (docs/cli.md, "The Vulkan form"): a
   * module it cannot express goes without it quietly (-v says why), as most modules would
   * otherwise warn; the runtime names the missing form on a Vulkan device. An internal error
   * is a kcc bug, though, and is shown. */
  if (ok) {
    KBuf *vk = new_buf(&s);
    DiagCapture cap;
    diag_capture_begin(&cap);
    bool made = emit_spirv_vulkan(m, o, vk);
    char *why = diag_capture_end(&cap, !made);
    if (made) {
      add_section(&s, KCB_SEC_VKSPIRV, 0, vk);
    } else if (why && strstr(why, "internal compiler error")) {
      leave_out("Vulkan SPIR-V", why);
      why = NULL;
    } else if (o->verbose) {
      fprintf(stderr, "kcc: bundle: no Vulkan SPIR-V: %.*s\n", why ? (int)strcspn(why, "\n") : 0,
              why ? why : "");
    }
    free(why);
  }

  if (ok) {
    size_t len;
    unsigned char *img = kcb_write_bundle(s.v, s.n, &len);
    if (img) {
      kbuf_append(out, img, len);
      free(img);
    } else {
      diag_error((KLoc){0}, "out of memory while writing the bundle");
      ok = false;
    }
  }
  for (int i = 0; i < s.bufs.n; i++) kbuf_free(KLIST_AT(s.bufs, i, KBuf *));
  free(s.v);
  return ok;
}
