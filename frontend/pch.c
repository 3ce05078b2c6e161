/* pch.c — the prelude, precompiled once and kept on disk.
 *
 * Every input language starts with kcc's prelude (-include of a virtual header: the dialect's
 * built-ins, OpenCL C's, or CUDA's with its C++ library), 100-250 KB of declarations that
 * clang parses again for each file: about 30 ms of a 50 ms compile, most of kcc's time on a
 * small kernel (bench/RESULTS.md, "Compile time"). Clang can save a parsed prelude as a
 * precompiled header and load it in a fraction of that, so kcc keeps one per distinct command
 * line in the cache directory libkcrt uses ($XDG_CACHE_HOME/kcc/pch, KCC_CACHE=0 turns it
 * off, as it does libkcrt's).
 *
 * A precompiled header is only valid for the arguments and prelude it was made with: the key
 * is a hash of clang's version, every argument before the input (-D, -I, -W, -arch...) and the
 * text of every virtual file (the prelude changes with kcc). A new key costs one extra parse
 * of the prelude alone, written to a temporary name and renamed, so that concurrent kcc runs
 * never see half a file. A file that clang cannot load (damaged, another libclang) is removed
 * and the input parsed without it (parse.c), so the cache can only make kcc faster. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fe.h"

static uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* FNV-1a's mixing, eight bytes at a step: the virtual files are ~0.5 MB, which FNV takes
 * byte by byte at a multiply's latency per byte (~1 ms, once in every kcc process); a step per
 * word is 8x fewer. A key, not a checksum: it needs to tell preludes apart, nothing more. */
static uint64_t wide_hash(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 32; /* the multiply carries low bits up only: fold the high ones back */
  }
  return fnv(h, p, n);
}

/* The hash of a virtual file's text. Those texts are built once per process and never change
 * (prelude.c), so each is hashed once: hashing ~0.5 MB byte by byte on every compile was 12%
 * of an in-process compile of a small kernel. Compiles are serialised (libkcc's lock). */
static uint64_t text_hash(const char *text, size_t len) {
  static struct {
    const char *text;
    size_t len;
    uint64_t h;
  } memo[32];
  static int n;
  for (int i = 0; i < n; i++)
    if (memo[i].text == text && memo[i].len == len) return memo[i].h;
  uint64_t h = wide_hash(0xcbf29ce484222325ull ^ len, text, len);
  if (n < 32) memo[n].text = text, memo[n].len = len, memo[n++].h = h;
  return h;
}

static bool cache_on(void) {
  const char *v = getenv("KCC_CACHE");
  return !(v && (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no")));
}

/* mkdir -p, mode 0700 (the cache holds the user's code). */
static bool make_dirs(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
    *p = '/';
    if (!ok) return false;
  }
  return mkdir(path, 0700) == 0 || errno == EEXIST;
}

int fe_pch_prelude_arg(const char *const *args, int nargs) {
  for (int i = 0; i + 1 < nargs; i++)
    if (!strcmp(args[i], "-include") && fe_is_vfile_name(args[i + 1])) return i;
  return -1;
}

char *fe_pch_path(CXIndex idx, const char *const *args, int nargs, struct CXUnsavedFile *uf,
                  int nuf) {
  int at = fe_pch_prelude_arg(args, nargs);
  if (at < 0 || !cache_on()) return NULL;
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  KBuf dir = {0};
  if (xdg && xdg[0] == '/')
    kbuf_printf(&dir, "%s/kcc/pch", xdg);
  else if (home && *home)
    kbuf_printf(&dir, "%s/.cache/kcc/pch", home);
  else
    return NULL;
  uint64_t h = 0xcbf29ce484222325ull;
  CXString v = clang_getClangVersion();
  const char *vs = clang_getCString(v);
  h = fnv(h, vs, strlen(vs) + 1);
  clang_disposeString(v);
  h = fnv(h, KCC_VERSION, sizeof KCC_VERSION);
  for (int i = 0; i < nargs; i++) h = fnv(h, args[i], strlen(args[i]) + 1);
  for (int i = 0; i < nuf; i++) {
    if (!fe_is_vfile_name(uf[i].Filename)) continue; /* the input itself */
    h = fnv(h, uf[i].Filename, strlen(uf[i].Filename) + 1);
    uint64_t th = text_hash(uf[i].Contents, uf[i].Length);
    h = fnv(h, &th, sizeof th);
  }
  KBuf path = {0};
  kbuf_printf(&path, "%s/%016llx.pch", dir.data, (unsigned long long)h);
  struct stat st;
  if (stat(path.data, &st) == 0 && st.st_size > 0) {
    kbuf_free(&dir);
    return path.data;
  }
  /* A miss: the prelude alone, as a header, saved under a temporary name. */
  bool ok = make_dirs(dir.data);
  kbuf_free(&dir);
  const char **a = ok ? malloc(sizeof *a * (size_t)(nargs + 2)) : NULL;
  if (!a) {
    kbuf_free(&path);
    return NULL;
  }
  int n = 0;
  for (int i = 0; i < nargs; i++) {
    if (i == at || i == at + 1) continue;
    /* "-x cuda" stays "-x cuda" (libclang takes the header as the main file of that
       language); the others name the header language clang wants for a PCH. */
    if (i > 0 && !strcmp(args[i - 1], "-x") && (!strcmp(args[i], "c") || !strcmp(args[i], "cl")))
      a[n++] = !strcmp(args[i], "c") ? "c-header" : "cl-header";
    else
      a[n++] = args[i];
  }
  CXTranslationUnit tu = NULL;
  enum CXErrorCode ec = clang_parseTranslationUnit2(
      idx, args[at + 1], a, n, uf, (unsigned)nuf,
      CXTranslationUnit_ForSerialization | CXTranslationUnit_Incomplete, &tu);
  free(a);
  ok = ec == CXError_Success && tu;
  for (unsigned i = 0; ok && i < clang_getNumDiagnostics(tu); i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    ok = clang_getDiagnosticSeverity(d) < CXDiagnostic_Error;
    clang_disposeDiagnostic(d);
  }
  KBuf tmp = {0};
  static unsigned serial; /* threads of one process (libkcc) each get their own name */
  kbuf_printf(&tmp, "%s.%ld.%u.tmp", path.data, (long)getpid(),
              __atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED));
  ok = ok &&
       clang_saveTranslationUnit(tu, tmp.data, clang_defaultSaveOptions(tu)) == CXSaveError_None;
  if (tu) clang_disposeTranslationUnit(tu);
  ok = ok && rename(tmp.data, path.data) == 0;
  if (!ok) unlink(tmp.data);
  kbuf_free(&tmp);
  if (!ok) kbuf_free(&path);
  return ok ? path.data : NULL;
}

/* Clang reports a precompiled header it cannot use as an error of the AST reader's category
 * ("malformed or corrupted AST file", "PCH file built from a different branch"...). */
bool fe_pch_rejected(CXTranslationUnit tu) {
  bool bad = false;
  for (unsigned i = 0; !bad && i < clang_getNumDiagnostics(tu); i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString c = clang_getDiagnosticCategoryText(d);
      const char *t = clang_getCString(c);
      bad = t && strstr(t, "AST Deserialization");
      clang_disposeString(c);
    }
    clang_disposeDiagnostic(d);
  }
  return bad;
}
