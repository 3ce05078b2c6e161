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

/* How kcc makes the file (the PCH build's own arguments, drop_deferred_list): part of the key,
 * so that a change to it never meets a file made the old way. */
#define PCH_FORM "inst+nodeferred"

/* ---------------------------------------------------------------- the deferred-diagnostics list
 *
 * In CUDA mode clang records every function definition that may be emitted for the device
 * (each __device__ and __host__ __device__ body of the prelude: thousands) in a list saved in
 * the AST file, and at the end of every translation unit that loads the file it deserialises
 * each of them (Sema::emitDeferredDiags reads the list before looking whether any diagnostic
 * was deferred): measured, 3/4 of clang's parse of a small .cu file with the precompiled
 * prelude, and half of an in-process compile. The walk that list feeds can find nothing in the
 * prelude's functions: the diagnostics clang deferred in them are not saved with the file, and
 * they call only the prelude, never a later file's functions. So the saved record is renamed
 * to a record code clang's reader does not know and skips (its AST block ignores unknown
 * records), in place and at the same bit length, so that every offset in the file stays
 * right. The file is LLVM's bitstream format (llvm/docs/BitCodeFormat.rst); the two numbers
 * below are clang 19's (clang/Serialization/ASTBitCodes.h: AST_BLOCK_ID is the first
 * application block id, DECLS_TO_CHECK_FOR_DEFERRED_DIAGS is 64). Whatever the walk does not
 * recognise leaves the file as clang wrote it. */
enum { AST_BLOCK = 8, DEFERRED_DIAGS_RECORD = 64, UNKNOWN_RECORD = 1000 };

typedef struct {
  uint8_t *p;
  size_t nbits, pos;
  bool bad;
} Bits;

static uint64_t bits_fixed(Bits *b, unsigned w) {
  if (w > 64 || b->pos + w > b->nbits) {
    b->bad = true;
    return 0;
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < w; i++, b->pos++)
    v |= (uint64_t)((b->p[b->pos >> 3] >> (b->pos & 7)) & 1) << i;
  return v;
}

static uint64_t bits_vbr(Bits *b, unsigned w) {
  uint64_t v = 0;
  for (unsigned shift = 0; !b->bad && shift < 64; shift += w - 1) {
    uint64_t c = bits_fixed(b, w);
    v |= (c & ((1ull << (w - 1)) - 1)) << shift;
    if (!(c >> (w - 1))) return v;
  }
  b->bad = true;
  return 0;
}

static void bits_align32(Bits *b) {
  b->pos = (b->pos + 31) & ~(size_t)31;
  if (b->pos > b->nbits) b->bad = true;
}

/* An abbreviation: its operands' encodings (1 fixed, 2 vbr, 3 array, 4 char6, 5 blob; 0 a
 * literal) and values (the literal, or the width). */
typedef struct {
  int n;
  uint8_t enc[32];
  uint64_t val[32];
} Abbrev;

typedef struct {
  Abbrev *a;
  int n, cap;
} Abbrevs;

/* Reads a DEFINE_ABBREV into l (NULL: read past it, for a block the walk does not enter). */
static void abbrev_define(Bits *b, Abbrevs *l) {
  Abbrev ab = {0};
  int nops = (int)bits_vbr(b, 5);
  for (int i = 0; i < nops && !b->bad; i++) {
    bool literal = bits_fixed(b, 1);
    int enc = literal ? 0 : (int)bits_fixed(b, 3);
    uint64_t v = literal ? bits_vbr(b, 8) : (enc == 1 || enc == 2) ? bits_vbr(b, 5) : 0;
    if (ab.n == 32 || (!literal && (enc < 1 || enc > 5))) {
      b->bad = true;
      return;
    }
    ab.enc[ab.n] = (uint8_t)enc, ab.val[ab.n++] = v;
  }
  if (!l || b->bad) return;
  if (l->n == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    Abbrev *na = realloc(l->a, sizeof *na * (size_t)cap);
    if (!na) {
      b->bad = true;
      return;
    }
    l->a = na, l->cap = cap;
  }
  l->a[l->n++] = ab;
}

/* One scalar operand of encoding enc and width w. */
static uint64_t bits_operand(Bits *b, int enc, uint64_t w) {
  if (enc == 1) return bits_fixed(b, (unsigned)w);
  if (enc == 2) return w >= 2 ? bits_vbr(b, (unsigned)w) : (b->bad = true, 0);
  if (enc == 4) return bits_fixed(b, 6);
  b->bad = true;
  return 0;
}

/* Skips an abbreviated record's operands; its code is the first. */
static uint64_t record_skip(Bits *b, const Abbrev *ab) {
  uint64_t code = 0;
  for (int i = 0; i < ab->n && !b->bad; i++) {
    uint64_t v;
    if (ab->enc[i] == 0) {
      v = ab->val[i];
    } else if (ab->enc[i] == 3) { /* an array of the next operand's encoding, which ends it */
      if (i + 1 >= ab->n) return b->bad = true, 0;
      uint64_t count = bits_vbr(b, 6);
      for (uint64_t k = 0; k < count && !b->bad; k++)
        bits_operand(b, ab->enc[i + 1], ab->val[i + 1]);
      return code;
    } else if (ab->enc[i] == 5) {
      uint64_t len = bits_vbr(b, 6);
      bits_align32(b);
      if (len > (b->nbits - b->pos) / 8) return b->bad = true, 0;
      b->pos += len * 8;
      bits_align32(b);
      v = 0;
    } else {
      v = bits_operand(b, ab->enc[i], ab->val[i]);
    }
    if (i == 0) code = v;
  }
  return code;
}

/* Writes v's low w bits at bit position pos. */
static void bits_put(Bits *b, size_t pos, uint64_t v, unsigned w) {
  for (unsigned i = 0; i < w; i++, pos++) {
    uint8_t m = (uint8_t)(1u << (pos & 7));
    b->p[pos >> 3] = (uint8_t)(((v >> i) & 1) ? b->p[pos >> 3] | m : b->p[pos >> 3] & ~m);
  }
}

/* Renames every deferred-diagnostics record of the AST block; returns how many, or -1 where
 * the file is not as expected (then nothing is written). */
static int drop_deferred_list(uint8_t *data, size_t size) {
  if (size < 4 || memcmp(data, "CPCH", 4)) return -1;
  Bits b = {data, size * 8, 32, false};
  Abbrevs info = {0}; /* BLOCKINFO's abbreviations for the AST block */
  size_t patch[8];
  int npatch = 0;
  bool seen = false;
  while (!b.bad && b.pos + 32 <= b.nbits && !seen) {
    if (bits_fixed(&b, 2) != 1) { /* at the top level: only blocks */
      b.bad = true;
      break;
    }
    uint64_t id = bits_vbr(&b, 8);
    unsigned width = (unsigned)bits_vbr(&b, 4);
    bits_align32(&b);
    size_t end = b.pos + 32 + (size_t)bits_fixed(&b, 32) * 32;
    if (b.bad || end > b.nbits || width < 2 || width > 32) {
      b.bad = true;
      break;
    }
    if (id != 0 && id != AST_BLOCK) {
      b.pos = end;
      continue;
    }
    Abbrevs local = {0};
    uint64_t bid = (uint64_t)-1; /* BLOCKINFO: the block its SETBID names */
    while (!b.bad && b.pos < end) {
      uint64_t a = bits_fixed(&b, width);
      if (a == 0) { /* END_BLOCK */
        bits_align32(&b);
        break;
      }
      if (a == 1) { /* a sub-block: skipped whole */
        bits_vbr(&b, 8);
        bits_vbr(&b, 4);
        bits_align32(&b);
        b.pos += (size_t)bits_fixed(&b, 32) * 32;
        continue;
      }
      if (a == 2) {
        abbrev_define(&b, id == 0 ? (bid == AST_BLOCK ? &info : NULL) : &local);
        continue;
      }
      uint64_t code;
      if (a == 3) {
        size_t code_at = b.pos;
        code = bits_vbr(&b, 6);
        if (id == AST_BLOCK && code == DEFERRED_DIAGS_RECORD) {
          if (b.pos - code_at != 12 || npatch == 8)
            b.bad = true; /* not two chunks */
          else
            patch[npatch++] = code_at;
        }
        uint64_t nops = bits_vbr(&b, 6);
        for (uint64_t k = 0; k < nops && !b.bad; k++) {
          uint64_t v = bits_vbr(&b, 6);
          if (id == 0 && code == 1 && k == 0) bid = v; /* SETBID */
        }
      } else {
        Abbrevs *l = id == AST_BLOCK ? &info : NULL;
        int k = (int)a - 4;
        const Abbrev *ab = NULL;
        if (l && k < l->n)
          ab = &l->a[k];
        else if (l && k - l->n < local.n)
          ab = &local.a[k - l->n];
        if (!ab) {
          b.bad = true;
          break;
        }
        code = record_skip(&b, ab);
        if (code == DEFERRED_DIAGS_RECORD) b.bad = true; /* abbreviated: not clang 19's form */
      }
    }
    free(local.a);
    if (b.pos > end) b.bad = true; /* a sub-block said it ran past its parent */
    if (id == AST_BLOCK) seen = true;
    if (!b.bad) b.pos = end;
  }
  free(info.a);
  if (b.bad || !seen) return -1;
  /* UNKNOWN_RECORD in two vbr6 chunks, as DEFERRED_DIAGS_RECORD was written. */
  for (int i = 0; i < npatch; i++) {
    bits_put(&b, patch[i], 32 | (UNKNOWN_RECORD & 31), 6);
    bits_put(&b, patch[i] + 6, UNKNOWN_RECORD >> 5, 6);
  }
  return npatch;
}

/* drop_deferred_list on the file at path; false where it could not be read or written. */
static bool drop_deferred_file(const char *path) {
  FILE *f = fopen(path, "r+b");
  if (!f) return false;
  bool ok = false;
  uint8_t *data = NULL;
  long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (size > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size)) &&
      fread(data, 1, (size_t)size, f) == (size_t)size) {
    int n = drop_deferred_list(data, (size_t)size);
    ok = n <= 0 || (fseek(f, 0, SEEK_SET) == 0 && fwrite(data, 1, (size_t)size, f) == (size_t)size);
  }
  free(data);
  return fclose(f) == 0 && ok;
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
  h = fnv(h, PCH_FORM, sizeof PCH_FORM);
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
  const char **a = ok ? malloc(sizeof *a * (size_t)(nargs + 3)) : NULL;
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
  /* The prelude's own template instantiations, made once here rather than at the end of
     every file that loads it (a quarter of a small CUDA file's parse): their point of
     instantiation is in the prelude, so what a file declares after it cannot change them. */
  a[n++] = "-fpch-instantiate-templates";
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
  ok = ok && drop_deferred_file(tmp.data) && rename(tmp.data, path.data) == 0;
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
