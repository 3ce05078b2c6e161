/* hostcode.c — CUDA input: a .cu file is a whole program, and kcc compiles its device half.
 *
 * The host half (main, classes with std:: members, calls into cuBLAS or OpenMP, the project's
 * own host headers) is parsed too, since it shares the file, but kcc has neither the C++
 * standard library nor the toolkit's host headers (docs/design.md, "Host code in CUDA
 * input"): headers that are not found are skipped (clang keeps going past them,
 * CXTranslationUnit_KeepGoing) and the errors that follow in host code are not errors of the
 * kernels. This file decides, for each diagnostic clang gave, whether it concerns device code:
 *
 *   - inside a __global__ or __device__ function (or a constexpr one, which clang lets device
 *     code call), or a __device__/__constant__/__shared__ variable: device code, reported;
 *   - inside a function that is host code only, or a non-const variable without a device
 *     attribute: host code, dropped;
 *   - inside any other declaration (a type, a template of a class, a typedef, a const
 *     variable...): reported only if device code uses that declaration, directly or through
 *     other declarations (the closure below), because only then can it change the kernels;
 *   - anywhere else: the preprocessor's own errors (#error) are reported, except a missing
 *     header, which becomes a note after the errors that are reported (code that needed it
 *     may be why they happened); other errors between the declarations of an included
 *     header are dropped (outside_dropped says why), those of the main file reported.
 *
 * Positions are clang's expansion locations (a macro's body counts where it is used), and
 * each declaration's extent is taken the same way. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fe_cuda.h"

enum { R_DEVICE, R_HOST, R_SHARED };

typedef struct Region {
  int file;            /* index in Regions.files */
  unsigned start, end; /* expansion offsets of the declaration's extent */
  int kind;
  int top; /* the file- or namespace-scope declaration this one is part of */
  CXCursor c;
  bool used; /* for a top-level R_SHARED region: device code uses it */
} Region;

typedef struct Regions {
  Region *v;
  int n, cap;
  int *order;        /* region indices by (file, start) */
  CXFile files[256]; /* the files regions lie in, told apart by name */
  const char *names[256];
  int nfiles;
  int *work, nwork; /* top-level regions whose uses are still to be followed */
  FeCtx *fe;
} Regions;

static bool is_function(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate || k == CXCursor_CXXMethod ||
         k == CXCursor_Constructor || k == CXCursor_Destructor || k == CXCursor_ConversionFunction;
}

static enum CXChildVisitResult attr_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_CUDADeviceAttr || k == CXCursor_CUDAGlobalAttr ||
      k == CXCursor_CUDAConstantAttr || k == CXCursor_CUDASharedAttr) {
    *(bool *)d = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

static bool has_device_attr(CXCursor c) {
  bool dev = false;
  clang_visitChildren(c, attr_visit, &dev);
  return dev;
}

/* `constexpr` among the tokens before the function's name: clang makes constexpr functions
 * callable from device code (-fcuda-host-device-constexpr), and libclang has no query. */
static bool is_constexpr_fn(FeCtx *fe, CXCursor c) {
  unsigned n;
  CXToken *t = fe_tokens_to(fe, c, clang_getCursorLocation(c), &n);
  bool found = false;
  for (unsigned i = 0; i < n && !found; i++)
    found = clang_getTokenKind(t[i]) == CXToken_Keyword &&
            (fe_token_is(fe, t[i], "constexpr") || fe_token_is(fe, t[i], "consteval"));
  if (t) clang_disposeTokens(fe->tu, t, n);
  return found;
}

/* The index of file f (its name's, as clang may hand out two CXFile for one file), -1 when
 * the table is full (a position there then lies in no region: reported, the safe side). */
static int file_index(Regions *rs, CXFile f, bool add) {
  for (int i = 0; i < rs->nfiles; i++)
    if (rs->files[i] == f) return i;
  CXString s = clang_getFileName(f);
  const char *name = clang_getCString(s);
  int found = -1;
  for (int i = 0; i < rs->nfiles && found < 0; i++)
    if (name && !strcmp(rs->names[i], name)) found = i;
  if (found < 0 && add && name && rs->nfiles < 256) {
    rs->names[rs->nfiles] = kir_strdup(name);
    found = rs->nfiles++;
  }
  if (found >= 0) rs->files[found] = f;
  clang_disposeString(s);
  return found;
}

static void add_region(Regions *rs, CXCursor c, int kind, int top) {
  CXSourceRange ext = clang_getCursorExtent(c);
  CXFile f1 = NULL, f2 = NULL;
  unsigned o1 = 0, o2 = 0;
  clang_getExpansionLocation(clang_getRangeStart(ext), &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(clang_getRangeEnd(ext), &f2, NULL, NULL, &o2);
  if (!f1 || !clang_File_isEqual(f1, f2) || o2 < o1) return;
  int fi = file_index(rs, f1, true);
  if (fi < 0) return;
  if (rs->n == rs->cap) {
    rs->cap = rs->cap ? 2 * rs->cap : 256;
    rs->v = realloc(rs->v, sizeof *rs->v * (size_t)rs->cap);
    if (!rs->v) abort();
  }
  rs->v[rs->n] = (Region){fi, o1, o2, kind, top < 0 ? rs->n : top, c, false};
  rs->n++;
}

static int function_kind(FeCtx *fe, CXCursor c) {
  return has_device_attr(c) || is_constexpr_fn(fe, c) ? R_DEVICE : R_HOST;
}

/* The member functions of a record (and of the records in it), as parts of region top. */
static void add_members(Regions *rs, CXCursor rec, int top) {
  FeKids k;
  fe_kids(rec, &k);
  for (int i = 0; i < k.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
    if (is_function(ck))
      add_region(rs, k.v[i], function_kind(rs->fe, k.v[i]), top);
    else if (fe_is_record_kind(ck))
      add_members(rs, k.v[i], top);
  }
  fe_kids_free(&k);
}

/* Function templates named name[0..len) are declared (in regions so far), and every one is
 * host code. */
static bool host_template(Regions *rs, const char *name, int len) {
  int host = 0;
  for (int i = 0; i < rs->n; i++) {
    CXCursor c = rs->v[i].c;
    if (clang_getCursorKind(c) != CXCursor_FunctionTemplate) continue;
    const char *sp = fe_spelling(c);
    if ((int)strlen(sp) != len || strncmp(sp, name, (size_t)len)) continue;
    if (rs->v[i].kind != R_HOST) return false;
    host++;
  }
  return host > 0;
}

/* The text [p, end) of kcc's reference `... = &ns::launch<2>` names a host function template:
 * its name after the last `::`. */
static bool inst_names_host(Regions *rs, const char *p, const char *end) {
  p = memchr(p, '&', (size_t)(end - p));
  if (!p) return false;
  const char *name = ++p;
  while (p < end && (*p == '_' || *p == ':' || isalnum((unsigned char)*p)))
    if (*p++ == ':') name = p;
  return host_template(rs, name, (int)(p - name));
}

/* kcc's reference to an explicit instantiation (`static constexpr auto __kcc_inst0 =
 * &ns::launch<2>;`, cuda.c) is device code unless it names a host function template: the
 * specialisation's name after its last `::`, from the text of the initializer. */
static int inst_kind(Regions *rs, CXCursor c) {
  CXSourceRange ext = clang_getCursorExtent(c);
  CXFile f = NULL;
  unsigned o1 = 0, o2 = 0;
  clang_getExpansionLocation(clang_getRangeStart(ext), &f, NULL, NULL, &o1);
  clang_getExpansionLocation(clang_getRangeEnd(ext), NULL, NULL, NULL, &o2);
  size_t size = 0;
  const char *buf = f ? clang_getFileContents(rs->fe->tu, f, &size) : NULL;
  if (!buf || o2 > size || o1 >= o2) return R_DEVICE;
  /* To the `;`: an invalid declaration's extent may stop before its initializer. */
  const char *semi = memchr(buf + o1, ';', size - o1);
  return inst_names_host(rs, buf + o1, semi ? semi : buf + size) ? R_HOST : R_DEVICE;
}

static void add_scope(Regions *rs, CXCursor scope) {
  FeKids k;
  fe_kids(scope, &k);
  for (int i = 0; i < k.n; i++) {
    CXCursor c = k.v[i];
    /* kcc's own headers: an error there is kcc's, always reported. */
    if (fe_in_vfile(rs->fe, c)) continue;
    enum CXCursorKind ck = clang_getCursorKind(c);
    if (ck == CXCursor_Namespace || ck == CXCursor_LinkageSpec) {
      add_scope(rs, c);
    } else if (is_function(ck)) {
      add_region(rs, c, function_kind(rs->fe, c), -1);
    } else if (ck == CXCursor_VarDecl) {
      /* A variable of one of CUDA's own types kcc refuses (textures, surfaces) is device
         code in CUDA wherever it is declared. */
      CXCursor td = clang_getTypeDeclaration(clang_getCursorType(c));
      bool cuda_type = !clang_Cursor_isNull(td) && fe_in_vfile(rs->fe, td) &&
                       clang_getCursorAvailability(td) == CXAvailability_NotAvailable;
      /* kcc's references to the specialisations to compile (parse.c's `__kcc_inst`). */
      bool inst = !strncmp(fe_spelling(c), "__kcc_inst", 10);
      int kind = inst                                                 ? inst_kind(rs, c)
                 : has_device_attr(c) || cuda_type                    ? R_DEVICE
                 : clang_isConstQualifiedType(clang_getCursorType(c)) ? R_SHARED
                                                                      : R_HOST;
      add_region(rs, c, kind, -1);
    } else {
      int top = rs->n;
      add_region(rs, c, R_SHARED, -1);
      if (fe_is_record_kind(ck) && top < rs->n) add_members(rs, c, top);
    }
  }
  fe_kids_free(&k);
}

static const Regions *sort_rs;

static int by_position(const void *a, const void *b) {
  const Region *x = &sort_rs->v[*(const int *)a], *y = &sort_rs->v[*(const int *)b];
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end; /* a record before its first member */
}

static void sort_regions(Regions *rs) {
  rs->order = malloc(sizeof *rs->order * (size_t)(rs->n + 1));
  if (!rs->order) abort();
  for (int i = 0; i < rs->n; i++) rs->order[i] = i;
  sort_rs = rs;
  qsort(rs->order, (size_t)rs->n, sizeof *rs->order, by_position);
}

static bool holds(const Region *r, int file, unsigned off) {
  return r->file == file && r->start <= off && off <= r->end;
}

/* The innermost region holding (f, off), or -1. Top-level declarations do not overlap, and
 * the only regions inside one are its record's member functions (which do not nest), so the
 * last region starting at or before off holds it, or else its top-level declaration does. */
static int region_at(Regions *rs, CXFile f, unsigned off) {
  int file = file_index(rs, f, false);
  if (file < 0) return -1;
  int lo = 0, hi = rs->n; /* first in order starting after (file, off) */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    const Region *r = &rs->v[rs->order[mid]];
    if (r->file < file || (r->file == file && r->start <= off))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return -1;
  int i = rs->order[lo - 1];
  if (holds(&rs->v[i], file, off)) return i;
  return holds(&rs->v[rs->v[i].top], file, off) ? rs->v[i].top : -1;
}

static int region_of_cursor(Regions *rs, CXCursor c) {
  CXFile f = NULL;
  unsigned off = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
  return f ? region_at(rs, f, off) : -1;
}

static void use(Regions *rs, int i) {
  if (i < 0) return;
  Region *top = &rs->v[rs->v[i].top];
  if (top->kind != R_SHARED || top->used) return;
  top->used = true;
  rs->work[rs->nwork++] = rs->v[i].top;
}

static enum CXChildVisitResult use_visit(CXCursor c, CXCursor p, CXClientData d) {
  (void)p;
  Regions *rs = d;
  enum CXCursorKind k = clang_getCursorKind(c);
  /* A host member function of a type device code uses is still host code. */
  if (is_function(k) && function_kind(rs->fe, c) == R_HOST) return CXChildVisit_Continue;
  CXCursor ref = clang_getCursorReferenced(c);
  if (!clang_Cursor_isNull(ref) && !clang_equalCursors(ref, c)) use(rs, region_of_cursor(rs, ref));
  return CXChildVisit_Recurse;
}

/* Marks every top-level declaration that device code uses, through any chain of uses. */
static void device_closure(Regions *rs) {
  rs->work = malloc(sizeof *rs->work * (size_t)(rs->n + 1));
  if (!rs->work) abort();
  for (int i = 0; i < rs->n; i++) {
    if (rs->v[i].kind != R_DEVICE) continue;
    clang_visitChildren(rs->v[i].c, use_visit, rs);
  }
  while (rs->nwork > 0) {
    Region *r = &rs->v[rs->work[--rs->nwork]];
    clang_visitChildren(r->c, use_visit, rs);
  }
  free(rs->work);
}

/* Clang's "'NAME' file not found" (an error under KeepGoing), told apart by its text, which
 * clang has kept for decades. */
static bool is_missing_header(CXDiagnostic d) {
  CXString s = clang_getDiagnosticSpelling(d);
  const char *m = clang_getCString(s);
  size_t n = m ? strlen(m) : 0;
  static const char tail[] = "' file not found";
  bool yes = n > sizeof tail && m[0] == '\'' && !strcmp(m + n - (sizeof tail - 1), tail);
  clang_disposeString(s);
  return yes;
}

/* An error between the declarations of an included file that is not the preprocessor's:
 * clang dropped the declaration it was in (`extern FILE *f(void);` with no FILE leaves no
 * trace in the AST), so device code cannot have used it without an error of its own. In the
 * main file such an error is reported all the same, as it may have taken a kernel with it. */
static bool outside_dropped(FeCtx *fe, CXDiagnostic d, CXFile f) {
  if (fe->main_file && clang_File_isEqual(f, fe->main_file)) return false;
  CXString s = clang_getDiagnosticCategoryText(d);
  bool pp = clang_getCString(s) && strstr(clang_getCString(s), "Preprocessor");
  clang_disposeString(s);
  return !pp;
}

/* An error in a using-directive or a namespace alias (`using namespace cub;`,
 * `namespace cg = thrust::placeholders;` after a header kcc did not find: "expected namespace
 * name", "use of undeclared identifier 'thrust'"). Clang makes no declaration of either when
 * the namespace is unknown, so the error cannot have taken a kernel with it, and device code
 * that uses a name through it gets an error of its own there. Told apart by the text before
 * the error, back to the start of its line or the end of the declaration before it. */
static const char *blanks(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t')) p++;
  return p;
}

/* p past the word w and the blanks after it when it starts there, else NULL. */
static const char *word(const char *p, const char *end, const char *w) {
  size_t n = strlen(w);
  if (end - p <= (long)n || strncmp(p, w, n) || !(p[n] == ' ' || p[n] == '\t')) return NULL;
  return blanks(p + n, end);
}

static bool in_namespace_directive(FeCtx *fe, CXFile f, unsigned off) {
  size_t size = 0;
  const char *buf = clang_getFileContents(fe->tu, f, &size);
  if (!buf || off > size) return false;
  unsigned b = off;
  while (b > 0 && !strchr(";{}\n", buf[b - 1])) b--;
  const char *end = buf + off, *p = blanks(buf + b, end), *q;
  if ((q = word(p, end, "using"))) return word(q, end, "namespace") != NULL;
  if (!(q = word(p, end, "namespace"))) return false;
  while (q < end && (*q == '_' || isalnum((unsigned char)*q))) q++;
  q = blanks(q, end);
  return q < end && *q == '=';
}

/* An error in an explicit instantiation (`template std::vector<T> launch<2>(...);`, `extern
 * template ...`) of a function template that is host code wherever the file declares it: clang
 * dropped the instantiation (a type from a header kcc did not find), and it could only have
 * made host code. Told apart by the text of the declaration around the error: `template` not
 * followed by `<`, and the name before the first `(` (past its template arguments). */
static bool in_host_instantiation(Regions *rs, CXFile f, unsigned off) {
  size_t size = 0;
  const char *buf = clang_getFileContents(rs->fe->tu, f, &size);
  if (!buf || off > size) return false;
  unsigned b = off, e = off;
  while (b > 0 && !strchr(";{}", buf[b - 1])) b--;
  while (e < size && buf[e] != ';' && buf[e] != '{' && buf[e] != '}') e++;
  const char *p = buf + b, *end = buf + e;
  while (p < end && isspace((unsigned char)*p)) p++;
  /* kcc's own reference to it, which clang dropped with it. */
  static const char ref[] = "static constexpr auto __kcc_inst";
  if (!strncmp(p, ref, strlen(ref))) return inst_names_host(rs, p, end);
  const char *q = word(p, end, "extern");
  if (q) p = q;
  if (end - p < 9 || strncmp(p, "template", 8) || !isspace((unsigned char)p[8])) return false;
  p += 8;
  while (p < end && isspace((unsigned char)*p)) p++;
  if (p >= end || *p == '<') return false;
  const char *paren = memchr(p, '(', (size_t)(end - p));
  if (!paren) return false;
  const char *n = paren;
  while (n > p && isspace((unsigned char)n[-1])) n--;
  if (n > p && n[-1] == '>') { /* the template arguments, back to their `<` */
    int depth = 0;
    do {
      n--;
      depth += *n == '>' ? 1 : *n == '<' ? -1 : 0;
    } while (n > p && depth > 0);
    while (n > p && isspace((unsigned char)n[-1])) n--;
  }
  const char *ne = n;
  while (n > p && (n[-1] == '_' || isalnum((unsigned char)n[-1]))) n--;
  if (n == ne) return false;
  return host_template(rs, n, (int)(ne - n));
}

enum { D_REPORT, D_DROP, D_DEFER, D_MISSING };

int fe_cu_forward_diags(FeCtx *fe) {
  unsigned n = clang_getNumDiagnostics(fe->tu);
  if (n == 0) return 0;
  Regions rs = {.fe = fe};
  add_scope(&rs, clang_getTranslationUnitCursor(fe->tu));
  sort_regions(&rs);
  int *what = calloc(n, sizeof *what), *where = calloc(n, sizeof *where);
  if (!what || !where) abort();
  bool deferred = false;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(fe->tu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
    int r = f ? region_at(&rs, f, off) : -1;
    where[i] = r;
    if (sev == CXDiagnostic_Ignored || sev == CXDiagnostic_Note)
      what[i] = D_DROP;
    else if (r < 0)
      what[i] = sev >= CXDiagnostic_Error && is_missing_header(d) ? D_MISSING
                : outside_dropped(fe, d, f) || in_namespace_directive(fe, f, off) ||
                        in_host_instantiation(&rs, f, off)
                    ? D_DROP
                    : D_REPORT;
    else if (rs.v[r].kind == R_DEVICE)
      what[i] = D_REPORT;
    else if (rs.v[r].kind == R_HOST)
      what[i] = D_DROP;
    else
      what[i] = D_DEFER, deferred = true;
    clang_disposeDiagnostic(d);
  }
  if (deferred) device_closure(&rs);
  int errors = 0;
  for (unsigned i = 0; i < n; i++) {
    if (what[i] == D_DEFER) what[i] = rs.v[rs.v[where[i]].top].used ? D_REPORT : D_DROP;
    if (what[i] != D_REPORT) continue;
    CXDiagnostic d = clang_getDiagnostic(fe->tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) errors++;
    fe_forward_diag(fe, d, false);
    clang_disposeDiagnostic(d);
  }
  /* The headers kcc did not find, after errors they may explain. */
  for (unsigned i = 0; errors && i < n; i++) {
    if (what[i] != D_MISSING) continue;
    CXDiagnostic d = clang_getDiagnostic(fe->tu, i);
    CXString s = clang_getDiagnosticSpelling(d);
    const char *m = clang_getCString(s);
    const char *q = strchr(m + 1, '\'');
    diag_report(DIAG_NOTE, fe_loc_of(fe, clang_getDiagnosticLocation(d)),
                "kcc did not find %.*s, and read on without it: CUDA input may include host "
                "headers kcc does not have, but device code cannot use what they declare",
                q ? (int)(q - m + 1) : (int)strlen(m), m);
    clang_disposeString(s);
    clang_disposeDiagnostic(d);
  }
  free(what);
  free(where);
  free(rs.v);
  free(rs.order);
  return errors;
}
