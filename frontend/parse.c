/* parse.c — frontend_parse: libclang setup, forwarding of clang's diagnostics, the include
 * list for -MD, and the file-scope walk (functions, shared/constant globals, types). */
#define _GNU_SOURCE 1 /* sigjmp_buf, siginfo_t, MAP_NORESERVE: POSIX and Linux */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuda/fe_cuda.h"
#include "opencl/fe_opencl.h"

/* Returns the number of errors clang reported. */
static int forward_diags(FeCtx *fe) {
  int errors = 0;
  unsigned n = clang_getNumDiagnostics(fe->tu);
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(fe->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) errors++;
    fe_forward_diag(fe, d, false);
    clang_disposeDiagnostic(d);
  }
  return errors;
}

/* ---------------------------------------------------------------- -MD */

typedef struct DepCtx {
  FeCtx *fe;
  KList *deps;
} DepCtx;

static void dep_visit(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData d) {
  (void)stack;
  (void)n;
  DepCtx *dc = d;
  if (dc->fe->main_file && clang_File_isEqual(f, dc->fe->main_file)) return;
  CXString s = clang_getFileName(f);
  const char *name = clang_getCString(s);
  if (name && !fe_is_vfile_name(name)) {
    bool seen = false;
    for (int i = 0; i < dc->deps->n && !seen; i++) seen = !strcmp(dc->deps->v[i], name);
    if (!seen) klist_push(dc->deps, kir_strdup(name));
  }
  clang_disposeString(s);
}

static void file_scope_var(FeCtx *fe, CXCursor c) {
  fe_global_var(fe, c, true);
}

typedef struct InstFind {
  CXCursor fn;
} InstFind;

static enum CXChildVisitResult inst_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
    ((InstFind *)d)->fn = clang_getCursorReferenced(c);
    return CXChildVisit_Break;
  }
  return CXChildVisit_Recurse;
}

/* A function template's specialisation (fn, any declaration of it) compiled like a function of
 * the file, once. */
static void specialisation(FeCtx *fe, CXCursor fn, KList *defs) {
  CXCursor def = clang_getCursorDefinition(fn);
  if (clang_Cursor_isNull(def) || clang_getCursorKind(def) != CXCursor_FunctionDecl ||
      fe_map_get(&fe->decls, clang_getCanonicalCursor(def)))
    return;
  klist_push(defs, fe_declare_function(fe, def));
  CXCursor *cc = kir_alloc(sizeof *cc);
  *cc = def;
  klist_push(defs, cc);
}

/* kcc's reference to an explicit instantiation (fe_cu_instantiations): the specialisation
 * it names is compiled like a function of the file. */
static void instantiation(FeCtx *fe, CXCursor var, KList *defs) {
  InstFind f = {clang_getNullCursor()};
  clang_visitChildren(var, inst_visit, &f);
  specialisation(fe, f.fn, defs);
}

/* ---------------------------------------------------------------- kernels host code names
 *
 * C++ instantiates a template where a specialisation is used, and nvcc compiles every kernel
 * specialisation so instantiated, host code's included: `k<float><<<g, b>>>(...)` in `main`,
 * `&k<8>` in a table, or a launch inside a host function template, instantiated by a call
 * of it (`launch<T>() { k<T><<<...>>>(); }` called as `launch<half>()`). libclang shows no
 * cursor for an implicit instantiation, so kcc looks for the uses: every host function and
 * file-scope initializer of the file's own headers is searched for references to kernel
 * specialisations, and a reference to a host template's specialisation leads into its
 * instantiated body. System headers are not searched (their templates are not kcc's to
 * compile), nor device code (a kernel cannot launch one). */

typedef struct HostScan {
  FeCtx *fe;
  KList *defs;
  FeMap seen; /* host specialisations searched (canonical cursor -> itself); in the arena */
  KList todo; /* CXCursor*: host specialisations' definitions to search */
} HostScan;

static bool is_function_kind(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static bool in_system_header(CXCursor c) {
  return clang_Location_isInSystemHeader(clang_getCursorLocation(c));
}

static void host_reference(HostScan *hs, CXCursor r) {
  if (!is_function_kind(clang_getCursorKind(r))) return;
  bool kernel = fe_has_annotation(r, "kcc.kernel");
  if (clang_Cursor_isNull(clang_getSpecializedCursorTemplate(r))) return;
  if (kernel) {
    specialisation(hs->fe, r, hs->defs);
    return;
  }
  CXCursor def = clang_getCursorDefinition(r);
  if (clang_Cursor_isNull(def) || in_system_header(def) || fe_cu_is_device(def)) return;
  CXCursor key = clang_getCanonicalCursor(def);
  if (fe_map_get(&hs->seen, key)) return;
  CXCursor *cc = kir_alloc(sizeof *cc);
  *cc = def;
  fe_map_put(&hs->seen, key, cc);
  klist_push(&hs->todo, cc);
}

static enum CXChildVisitResult host_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  HostScan *hs = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  switch (k) {
  case CXCursor_FunctionTemplate:
  case CXCursor_ClassTemplate:
  case CXCursor_ClassTemplatePartialSpecialization:
  case CXCursor_TypeAliasTemplateDecl: return CXChildVisit_Continue; /* patterns, not uses */
  case CXCursor_DeclRefExpr:
  case CXCursor_MemberRefExpr:
  case CXCursor_CallExpr: host_reference(hs, clang_getCursorReferenced(c)); break;
  default:
    /* The prelude's and system headers' declarations first: the annotation checks visit a
     * function's children, and the prelude has thousands of functions. */
    if (clang_isDeclaration(k) && (fe_in_vfile(hs->fe, c) || in_system_header(c)))
      return CXChildVisit_Continue;
    if (is_function_kind(k) && (fe_has_annotation(c, "kcc.kernel") || fe_cu_is_device(c)))
      return CXChildVisit_Continue;
    break;
  }
  return CXChildVisit_Recurse;
}

static void host_launches(FeCtx *fe, CXCursor tu, KList *defs) {
  HostScan hs = {.fe = fe, .defs = defs};
  clang_visitChildren(tu, host_visit, &hs);
  for (int i = 0; i < hs.todo.n; i++)
    clang_visitChildren(*(CXCursor *)hs.todo.v[i], host_visit, &hs);
}

/* A `;` alone at file scope (`};` after a function, `;;`): C allows none, but every compiler
 * takes it (clang warns only under -pedantic), and kernels are written with it. */
static bool empty_declaration(FeCtx *fe, CXCursor c) {
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(fe->tu, clang_getCursorExtent(c), &t, &n);
  bool empty = false;
  if (n == 1) {
    CXString s = clang_getTokenSpelling(fe->tu, t[0]);
    empty = !strcmp(clang_getCString(s), ";");
    clang_disposeString(s);
  }
  if (t) clang_disposeTokens(fe->tu, t, n);
  return empty;
}

/* First pass over the file scope: every function definition gets its KFunc (calls may come
 * before the callee's definition), types and globals are lowered in source order. */
static void walk_file_scope(FeCtx *fe, CXCursor tu, KList *defs) {
  FeKids k;
  fe_kids(tu, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor c = k.v[i];
    if (fe_in_vfile(fe, c)) continue;
    switch (clang_getCursorKind(c)) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec: walk_file_scope(fe, c, defs); break;
    case CXCursor_NamespaceAlias:
    case CXCursor_UsingDirective:
    case CXCursor_UsingDeclaration:
    case CXCursor_TypeAliasDecl:
    case CXCursor_TypeAliasTemplateDecl:
    case CXCursor_FunctionTemplate:
      if (clang_Cursor_isNull(fe->kernel_template) && fe_has_annotation(c, "kcc.kernel"))
        fe->kernel_template = c;
      break;
    case CXCursor_ClassTemplate:
    case CXCursor_ClassTemplatePartialSpecialization:
    case CXCursor_CXXMethod:
    case CXCursor_Constructor:
    case CXCursor_Destructor:
      /* C++ (CUDA input): templates are lowered per specialisation when a call names one,
         methods when called. */
      break;
    case CXCursor_FunctionDecl:
      /* In CUDA a function without __device__ or __global__ is host code: not kcc's. */
      if (fe->lang == KL_LANG_CU && !fe_has_annotation(c, "kcc.kernel") && !fe_cu_is_device(c))
        break;
      if (clang_isCursorDefinition(c)) {
        KFunc *f = fe_declare_function(fe, c);
        klist_push(defs, f);
        CXCursor *cc = kir_alloc(sizeof *cc);
        *cc = c;
        klist_push(defs, cc);
      }
      break;
    case CXCursor_VarDecl:
      if (fe->lang == KL_LANG_CU && !strncmp(fe_spelling(c), "__kcc_inst", 10))
        instantiation(fe, c, defs);
      else if (fe->lang != KL_LANG_CU || fe_cu_is_device_var(c))
        file_scope_var(fe, c);
      /* Other CUDA variables are host code, or const ones device code may read: those are
         lowered when it does (lower_expr.c). */
      break;
    case CXCursor_StructDecl:
    case CXCursor_ClassDecl:
    case CXCursor_UnionDecl:
      /* A CUDA file's types serve its host code too: each is lowered when device code uses
         it. The C dialects check every type they declare. */
      if (fe->lang != KL_LANG_CU) fe_record_decl(fe, c);
      break;
    case CXCursor_TypedefDecl: fe_typedef_decl(fe, c); break;
    case CXCursor_EnumDecl:
    case CXCursor_StaticAssert: break;
    case CXCursor_UnexposedDecl:
      if (fe->lang != KL_LANG_CU && !empty_declaration(fe, c))
        diag_error(fe_loc(fe, c), "this declaration is not supported in kcc kernels");
      break;
    default: {
      if (fe->lang == KL_LANG_CU) break; /* C++ declarations matter where device code uses them */
      CXString s = clang_getCursorKindSpelling(clang_getCursorKind(c));
      diag_error(fe_loc(fe, c), "declaration of kind '%s' is not supported in kcc kernels",
                 clang_getCString(s));
      clang_disposeString(s);
      break;
    }
    }
  }
  fe_kids_free(&k);
}

static void lower_bodies(FeCtx *fe, KList *defs) {
  for (int i = 0; i + 1 < defs->n; i += 2) {
    KFunc *f = defs->v[i];
    if (!f->body) fe_lower_body(fe, f, *(CXCursor *)defs->v[i + 1]);
  }
}

/* ---------------------------------------------------------------- entry point */

static bool check_readable(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    diag_error((KLoc){0}, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    diag_error((KLoc){0}, "cannot open '%s': %s", path, strerror(EISDIR));
    return false;
  }
  FILE *f = fopen(path, "rb");
  if (!f) {
    diag_error((KLoc){0}, "cannot open '%s': %s", path, strerror(errno));
    return false;
  }
  fclose(f);
  return true;
}

/* A CUDA source with references to its explicit instantiations appended
 * (fe_cu_instantiations), and then to the specialisations --instantiate names, under a #line
 * that makes clang's diagnostics about them say so; NULL when there are none (malloc'ed). */
/* `extern "C"__global__` (no space): C++11 reads `"C"__global__` as a user-defined literal,
 * and nvcc's front end does not. Rewritten `extern"C" __global__`, every column kept: the
 * string moves left into the space. Returns whether anything changed. */
static bool cu_space_literal_suffixes(char *text, size_t n) {
  static const char pat[] = "extern \"C\"__";
  bool changed = false;
  for (char *p = text; (p = memmem(p, n - (size_t)(p - text), pat, sizeof pat - 1)); p += 3) {
    if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
    memcpy(p + 6, "\"C\" ", 4);
    changed = true;
  }
  return changed;
}

static char *cu_with_instantiations(const char *text, size_t n, const KOptions *o) {
  if (memchr(text, 0, n)) return NULL; /* clang reports the NUL; nothing to scan */
  char *extra = fe_cu_instantiations(text, n);
  int ninst = o ? o->ninstantiate : 0;
  KBuf b = {0};
  kbuf_append(&b, text, n);
  bool spaced = cu_space_literal_suffixes(b.data, n);
  if (!extra && !ninst && !spaced) {
    kbuf_free(&b);
    return NULL;
  }
  if (extra) kbuf_puts(&b, extra);
  free(extra);
  for (int i = 0; i < ninst; i++)
    kbuf_printf(&b,
                "\nstatic constexpr auto __kcc_inst_opt%d = &\n#line 1 \"--instantiate=%s\"\n%s;",
                i, o->instantiate[i], o->instantiate[i]);
  kbuf_puts(&b, "\n");
  return b.data;
}

/* The same for a CUDA file (clang reads the file itself when this is NULL). */
static char *cu_main_text(const char *path, const KOptions *o) {
  KBuf b = {0};
  char *all = kcc_read_file(path, &b) && b.data ? cu_with_instantiations(b.data, b.len, o) : NULL;
  kbuf_free(&b);
  return all;
}

/* ---------------------------------------------------------------- stack safety
 *
 * Clang's parser recurses once per nesting level of unary operators, casts, assignments and
 * conditionals, so a hostile input (`- - - ... x` five thousand deep) overflows an ordinary
 * stack inside libclang. kcc therefore parses on a thread of its own with a big, lazily
 * committed stack (libclang told not to start its own 8 MiB thread), and turns a fault in that
 * stack's guard zone into a diagnostic instead of a crash. */

#define FE_STACK_SIZE ((size_t)256 << 20)
#define FE_GUARD_SIZE ((size_t)1 << 20)

static char *stack_lo; /* the big stack (guard zone at the bottom) while a parse runs */
static _Thread_local sigjmp_buf *parse_jmp;

static void on_fault(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  if (parse_jmp) {
    char *a = si->si_addr;
    bool overflow = stack_lo && a >= stack_lo - FE_GUARD_SIZE && a < stack_lo + 2 * FE_GUARD_SIZE;
    siglongjmp(*parse_jmp, overflow ? 1 : 2);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

typedef struct ParseJob {
  CXIndex idx;
  const char *path;
  const char **args;
  int nargs;
  struct CXUnsavedFile *uf;
  int nuf;
  CXTranslationUnit tu;
  enum CXErrorCode ec;
  int fault; /* 1: stack overflow, 2: other crash inside clang */
  unsigned flags;
} ParseJob;

static void guarded_parse(ParseJob *j) {
  static char altstack[1 << 16];
  stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack}, old_ss;
  struct sigaction sa, old_segv, old_bus;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaltstack(&ss, &old_ss);
  sigaction(SIGSEGV, &sa, &old_segv);
  sigaction(SIGBUS, &sa, &old_bus);
  sigjmp_buf jb;
  int r = sigsetjmp(jb, 1);
  if (r == 0) {
    parse_jmp = &jb;
    j->ec = clang_parseTranslationUnit2(j->idx, j->path, j->args, j->nargs, j->uf, (unsigned)j->nuf,
                                        j->flags, &j->tu);
  } else {
    j->fault = r;
    j->tu = NULL;
  }
  parse_jmp = NULL;
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGBUS, &old_bus, NULL);
  sigaltstack(&old_ss, NULL);
}

/* ---------------------------------------------------------------- entry point */

/* Whether a file named `name` exists in dir (a user's -I directory, the input's own). */
static bool in_dir(const char *dir, size_t dlen, const char *name, size_t nlen) {
  char p[4096];
  if (dlen + nlen + 2 > sizeof p) return true; /* cannot tell: as if it were there */
  memcpy(p, dir, dlen);
  p[dlen] = '/';
  memcpy(p + dlen + 1, name, nlen);
  p[dlen + 1 + nlen] = 0;
  struct stat st;
  return stat(p, &st) == 0;
}

/* Whether a header the translation unit names could come from the user's directories rather
 * than kcc's virtual ones: `name` (nlen bytes) in a -I directory, or in the input's own
 * directory for a quoted #include. */
static bool user_header(const char *name, size_t nlen, bool quoted, const char *path,
                        const KOptions *o) {
  if (quoted) {
    const char *slash = path ? strrchr(path, '/') : NULL;
    if (slash ? in_dir(path, (size_t)(slash - path), name, nlen) : in_dir(".", 1, name, nlen))
      return true;
  }
  for (int i = 0; o && i + 1 < o->ncargs; i++)
    if (!strcmp(o->cargs[i], "-I") && in_dir(o->cargs[i + 1], strlen(o->cargs[i + 1]), name, nlen))
      return true;
  return false;
}

/* Whether the walk of a CUDA translation unit may leave the precompiled prelude's declarations
 * out, as the C dialects' walk does: visiting them deserialises the whole prelude, ~2 ms of a
 * 25 ms compile. The full walk is needed for what it meets besides the prelude's declarations,
 * which the walk skips anyway (fe_in_vfile): clang's implicit instantiations of the input's
 * templates, which libclang lists only with every declaration. So the short walk is taken only
 * for a file that cannot have any: its text (which holds every --instantiate) spells no
 * `template`, `auto` (a generic lambda) or `##` (a pasted keyword), and every header it
 * includes is kcc's (no user header, which could hold templates). No macro of kcc's headers
 * that a file could use expands to a template. Conservative: "include" anywhere that is not a
 * plain #include <...> or "..." line, or a header name that a -I directory (searched before
 * kcc's) or the file's own directory also holds, and the file gets the full walk. The corpus
 * and tests/cu compile to the same bytes either way. */
static bool may_template(const char *text) {
  return strstr(text, "template") || strstr(text, "auto") || strstr(text, "##");
}

static bool cu_walk_scan(const char *text, const char *path, const KOptions *o) {
  if (!text || may_template(text) || strstr(text, "import")) return false;
  /* A -D macro the file expands can spell one too. */
  for (int i = 0; o && i < o->ncargs; i++)
    if (may_template(o->cargs[i])) return false;
  /* kcc's headers, as `#include <...>` of a vfile could otherwise name one in a -I directory
     (the prelude's own includes are searched there too). */
  const FeVFile *sets[2];
  int ns[2];
  sets[0] = fe_vfiles(&ns[0]);
  sets[1] = fe_cu_vfiles(&ns[1]);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < ns[k]; i++) {
      const char *n = sets[k][i].name;
      if (strncmp(n, FE_INCDIR "/", sizeof FE_INCDIR)) continue;
      n += sizeof FE_INCDIR;
      if (user_header(n, strlen(n), false, path, o)) return false;
    }
  for (const char *p = text; (p = strstr(p, "include")); p += 7) {
    const char *q = p;
    while (q > text && (q[-1] == ' ' || q[-1] == '\t')) q--;
    if (q == text || q[-1] != '#') return false;
    q--;
    while (q > text && (q[-1] == ' ' || q[-1] == '\t')) q--;
    if (q > text && q[-1] != '\n') return false;
    const char *r = p + 7;
    while (*r == ' ' || *r == '\t') r++;
    char close = *r == '<' ? '>' : *r == '"' ? '"' : 0;
    if (!close) return false;
    const char *name = ++r;
    while (*r && *r != close && *r != '\n') r++;
    if (*r != close || r == name) return false;
    if (user_header(name, (size_t)(r - name), close == '"', path, o)) return false;
  }
  return true;
}

/* The same for the text clang parses: main_text when kcc changed it, else the input. */
static bool cu_walk_local(const char *main_text, const char *path, const KOptions *o) {
  if (main_text) return cu_walk_scan(main_text, path, o);
  KBuf b = {0};
  if (o && o->source)
    kbuf_append(&b, o->source, o->source_len);
  else if (!kcc_read_file(path, &b))
    return false;
  /* A NUL would end the scan early: such a file gets the full walk. */
  bool local = b.data && !memchr(b.data, 0, b.len) && cu_walk_scan(b.data, path, o);
  kbuf_free(&b);
  return local;
}

typedef struct FrontJob {
  const char *path;
  const KOptions *o;
  KList *deps;
  KModule *result;
} FrontJob;

/* The language of `path` as o asks for it (KL_LANG_AUTO resolved by extension). */
static int lang_of(const char *path, const KOptions *o) {
  if (o && o->lang != KL_LANG_AUTO) return o->lang;
  const char *dot = path ? strrchr(path, '.') : NULL;
  if (dot && !strchr(dot, '/') && !strcmp(dot, ".cl")) return KL_LANG_CL;
  if (dot && !strchr(dot, '/') && !strcmp(dot, ".cu")) return KL_LANG_CU;
  return KL_LANG_K;
}

static KModule *parse_and_lower(const char *path, const KOptions *o, KList *deps);

/* An OpenCL C text kcc writes itself (cuda_texobj.c's calls of image functions), lowered. */
static KModule *parse_cl_text(const char *name, const char *text) {
  KOptions o;
  kcc_options_default(&o);
  o.lang = KL_LANG_CL;
  o.source = text;
  o.source_len = strlen(text);
  return parse_and_lower(name, &o, NULL);
}

static KModule *parse_and_lower(const char *path, const KOptions *o, KList *deps) {
  bool in_memory = o && o->source; /* libkcc: the main file is an unsaved buffer */
  if (!path || (!in_memory && !check_readable(path))) return NULL;
  int errors_before = diag_error_count();
  int lang = lang_of(path, o);

  int nv, ncu = 0;
  const FeVFile *vf0 = fe_vfiles(&nv);
  const FeVFile *cu = lang == KL_LANG_CU ? fe_cu_vfiles(&ncu) : NULL;
  /* The dialect's files, the OpenCL prelude after them for OpenCL C, and CUDA's for CUDA
     input. Only OpenCL C includes the OpenCL prelude (it lies outside the include directory,
     so no other input can name it): building its 470 KB for .cu and .k input, and hashing it
     into their PCH keys, was ~2 ms of every compile. */
  FeVFile *vf = calloc((size_t)(nv + 1 + ncu), sizeof *vf);
  if (vf) memcpy(vf, vf0, sizeof *vf * (size_t)nv);
  if (vf && lang == KL_LANG_CL) vf[nv++] = *fe_cl_vfile();
  if (vf && ncu) memcpy(vf + nv, cu, sizeof *vf * (size_t)ncu);
  nv += ncu;
  struct CXUnsavedFile *uf = calloc((size_t)nv + 1, sizeof *uf);
  const char **args = calloc((size_t)(o ? o->ncargs : 0) + 32, sizeof *args);
  if (!vf || !uf || !args) {
    fputs("kcc: fatal error: out of memory\n", stderr);
    exit(1);
  }
  for (int i = 0; i < nv; i++) {
    uf[i].Filename = vf[i].name;
    uf[i].Contents = vf[i].text;
    uf[i].Length = strlen(vf[i].text);
    /* Notes may point into the prelude (overload candidates); let them quote it. */
    diag_add_static_source(vf[i].name, vf[i].text, uf[i].Length);
  }
  char *main_text = NULL;
  if (lang == KL_LANG_CU)
    main_text =
        in_memory ? cu_with_instantiations(o->source, o->source_len, o) : cu_main_text(path, o);
  if (main_text)
    uf[nv++] = (struct CXUnsavedFile){path, main_text, strlen(main_text)};
  else if (in_memory)
    uf[nv++] = (struct CXUnsavedFile){path, o->source, o->source_len};
  int na = 0;
  if (lang == KL_LANG_CL || lang == KL_LANG_CU) {
    const char *const *a0 = lang == KL_LANG_CL ? fe_cl_args(o ? o->cl_std : 0)
                                               : fe_cu_args(o && o->narchs ? o->archs[0] : 0);
    for (const char *const *a = a0; *a; a++) args[na++] = *a;
    goto user_args;
  }
  args[na++] = "-x";
  args[na++] = "c";
  args[na++] = "-std=c11";
  args[na++] = "--target=x86_64-linux-gnu";
  args[na++] = "-nostdinc";
  args[na++] = "-ffreestanding";
  args[na++] = "-ferror-limit=20";
  /* kcc checks printf's formats and arguments itself, as errors where a back end could not
   * print the argument (builtins.c): clang's warnings would say it twice. */
  args[na++] = "-Wno-format";
  /* An atomic or a store through a mismatched pointer type is never what a kernel meant. */
  args[na++] = "-Werror=incompatible-pointer-types";
  /* `void f()` defines f without parameters; passing it arguments is a mistake, not C89. */
  args[na++] = "-Werror=deprecated-non-prototype";
  args[na++] = "-D__KCC__=1";
  args[na++] = "-isystem";
  args[na++] = FE_INCDIR;
  args[na++] = "-include";
  args[na++] = FE_PRELUDE;
user_args:
  for (int i = 0; o && i < o->ncargs; i++) args[na++] = o->cargs[i];
  free(vf);

  FeCtx fe = {0};
  fe.kernel_template = clang_getNullCursor();
  fe.path = path;
  fe.lang = lang;
  static const FeLangOps k_ops; /* the .k dialect: the shared lowering alone */
  fe.ops = lang == KL_LANG_CL ? &fe_lang_opencl : lang == KL_LANG_CU ? &fe_lang_cuda : &k_ops;
  fe.opencl = lang == KL_LANG_CL;
  fe.cl_std = o && o->cl_std ? o->cl_std : 120;
  fe.errors0 = errors_before;
  fe.opts = o;
  /* Declarations from the precompiled prelude are left out of the translation unit's walk in
     the C dialects: the walk skips the prelude anyway (fe_in_vfile), and visiting them
     deserialised all of it on every compile (a fifth of an in-process compile of a small
     kernel). CUDA input keeps them, unless it can have no template (cu_walk_local): its walk
     also meets the template instantiations clang made, which libclang lists only with every
     declaration. */
  bool local = lang != KL_LANG_CU || cu_walk_local(main_text, path, o);
  if (lang == KL_LANG_CU && o && o->verbose)
    fprintf(stderr, "kcc: front end: %s walk of the translation unit\n",
            local ? "short (no template possible)" : "full");
  CXIndex idx = clang_createIndex(local, 0);
  /* CUDA input goes on past a header kcc does not have, as an error (not clang's fatal one,
     after which it would instantiate no template): hostcode.c decides whether it matters. */
  ParseJob pj = {.idx = idx,
                 .path = path,
                 .args = args,
                 .nargs = na,
                 .uf = uf,
                 .nuf = nv,
                 .ec = CXError_Success,
                 .flags =
                     lang == KL_LANG_CU ? CXTranslationUnit_KeepGoing : CXTranslationUnit_None};
  /* The prelude from the cache when it is there (pch.c); a precompiled prelude clang cannot
     use is removed and the file parsed again with the prelude's text. */
  char *pch = fe_pch_path(idx, args, na, uf, nv);
  int pch_at = pch ? fe_pch_prelude_arg(args, na) : -1;
  const char *prelude = pch_at >= 0 ? args[pch_at + 1] : NULL;
  if (pch_at >= 0) {
    args[pch_at] = "-include-pch";
    args[pch_at + 1] = pch;
  }
  guarded_parse(&pj);
  if (pch_at >= 0 && !pj.fault && (pj.ec != CXError_Success || !pj.tu || fe_pch_rejected(pj.tu))) {
    unlink(pch);
    if (pj.tu) clang_disposeTranslationUnit(pj.tu);
    args[pch_at] = "-include";
    args[pch_at + 1] = prelude;
    pj.tu = NULL;
    pj.ec = CXError_Success;
    guarded_parse(&pj);
  }
  free(pch);
  CXTranslationUnit tu = pj.tu;
  free(args);
  KModule *m = NULL;
  if (pj.fault) {
    /* Clang's state is unusable after the jump: leak it rather than touch it (test_frontend.c
     * tells LeakSanitizer). The index is not part of that state, as the parse only copied its
     * options: it is disposed of as after any parse. */
    KLoc floc = {path, 0, 0};
    if (pj.fault == 1)
      diag_error(floc, "expression nesting too deep");
    else
      diag_error(floc, "internal error: clang crashed while parsing this file");
    clang_disposeIndex(idx);
    free(uf);
    free(main_text);
    return NULL;
  }
  if (pj.ec != CXError_Success || !tu) {
    diag_error((KLoc){0}, "cannot parse '%s' (libclang error %d)", path, (int)pj.ec);
    goto out;
  }
  fe.tu = tu;
  fe.main_file = clang_getFile(tu, path);
  if ((lang == KL_LANG_CU ? fe_cu_forward_diags(&fe) : forward_diags(&fe)) > 0) goto out;
  fe_pragmas_scan(&fe);

  if (deps) {
    DepCtx dc = {&fe, deps};
    clang_getInclusions(tu, dep_visit, &dc);
  }

  m = kir_module(path);
  fe.m = m;
  KList defs = {0};
  if (lang == KL_LANG_CU) fe_cxx_reserve_kernel_names(&fe, clang_getTranslationUnitCursor(tu));
  walk_file_scope(&fe, clang_getTranslationUnitCursor(tu), &defs);
  if (lang == KL_LANG_CU) host_launches(&fe, clang_getTranslationUnitCursor(tu), &defs);
  lower_bodies(&fe, &defs);
  if (lang == KL_LANG_CU) fe_cu_tile_groups(&fe);
  if (lang == KL_LANG_CU && diag_error_count() == errors_before && fe_cu_texobj_lower(&fe))
    fe_cu_texobj_graft(&fe, parse_cl_text);
  fe_unique_struct_names(&fe);
  if (diag_error_count() == errors_before) fe_lower_half(&fe);
  if (!clang_Cursor_isNull(fe.kernel_template) && !kir_has_kernel(m)) {
    const char *name = fe_spelling(fe.kernel_template);
    diag_error(fe_loc(&fe, fe.kernel_template),
               "kernel template '%s' is never instantiated in this file, so there is no kernel "
               "to compile: no launch, reference or explicit instantiation in code that is "
               "compiled names a specialisation of it; name one with --instantiate='%s<...>' or "
               "in the file: 'template __global__ void %s<...>(...);'",
               name, name, name);
  }
  if (diag_error_count() > errors_before) m = NULL;

out:
  free(fe.names);
  if (tu) clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  free(uf);
  free(main_text);
  return m;
}

static void *front_thread(void *arg) {
  FrontJob *j = arg;
  j->result = parse_and_lower(j->path, j->o, j->deps);
  return NULL;
}

KModule *frontend_parse(const char *path, const KOptions *o, KList *deps) {
  FrontJob j = {path, o, deps, NULL};
  /* libclang parses on the calling thread (ours, with the big stack) only when told so. */
  setenv("LIBCLANG_NOTHREADS", "1", 1);
  char *stk = mmap(NULL, FE_STACK_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  pthread_attr_t attr;
  pthread_t th;
  bool threaded = false;
  if (stk != MAP_FAILED && mprotect(stk, FE_GUARD_SIZE, PROT_NONE) == 0 &&
      pthread_attr_init(&attr) == 0) {
    if (pthread_attr_setstack(&attr, stk, FE_STACK_SIZE) == 0) {
      stack_lo = stk + FE_GUARD_SIZE;
      threaded = pthread_create(&th, &attr, front_thread, &j) == 0;
    }
    pthread_attr_destroy(&attr);
  }
  if (threaded) {
    pthread_join(th, NULL);
  } else {
    stack_lo = NULL;
    front_thread(&j);
  }
  stack_lo = NULL;
  if (stk != MAP_FAILED) munmap(stk, FE_STACK_SIZE);
  return j.result;
}
