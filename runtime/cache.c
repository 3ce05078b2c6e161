/* cache.c — the on-disk cache of compiled programs (CUDA cubins linked from PTX, OpenCL
 * program binaries), so a second run skips the driver's compiler.
 *
 * Location: $XDG_CACHE_HOME/kcc, else $HOME/.cache/kcc; KCC_CACHE=0 turns it off.
 * One file per entry, named by the hash of its key; the file holds the whole key, which is
 * compared on read, so a hash collision is a miss, never a wrong program. Entries are written
 * to a temporary file and renamed into place (readers never see a partial entry; concurrent
 * writers of one key both produce a whole file), and verified on read (magic, sizes,
 * checksum): a damaged entry is ignored and replaced by the next write.
 *
 * Entry layout (little-endian):
 *   0  "KCRTCACH"   8  u32 version (1)   12 u32 key length   16 u64 payload length
 *   24 u64 FNV-1a-64 of key then payload   32 key bytes, then payload bytes */
#define _GNU_SOURCE
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ENTRY_HEADER = 32, ENTRY_VERSION = 1 };
static const char entry_magic[8] = {'K', 'C', 'R', 'T', 'C', 'A', 'C', 'H'};

void kcrt_key_init(KcrtKey *k, const char *what) {
  k->len = 0;
  kcrt_key_add(k, "kcrt-cache-1");
  kcrt_key_add(k, KCRT_VERSION_STRING);
  kcrt_key_add(k, what);
}

void kcrt_key_add(KcrtKey *k, const char *field) {
  size_t n = strlen(field);
  if (k->len + n + 1 > sizeof k->buf) n = sizeof k->buf - k->len - 1; /* keys stay short */
  memcpy(k->buf + k->len, field, n);
  k->len += n;
  k->buf[k->len++] = 0;
}

void kcrt_key_add_u64(KcrtKey *k, uint64_t v) {
  char s[32];
  snprintf(s, sizeof s, "%016llx", (unsigned long long)v);
  kcrt_key_add(k, s);
}

static bool cache_enabled(void) {
  const char *v = getenv("KCC_CACHE");
  return !(v && (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no")));
}

/* mkdir -p with mode 0700: compiled programs are the user's business. */
static bool make_dirs(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(path, 0700) != 0 && errno != EEXIST) {
      *p = '/';
      return false;
    }
    *p = '/';
  }
  return mkdir(path, 0700) == 0 || errno == EEXIST;
}

/* The entry's path (malloc'd) or NULL when the cache is off or has no home. */
static char *entry_path(const KcrtKey *k, bool create_dir) {
  if (!cache_enabled()) return NULL;
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  char *dir = NULL;
  if (xdg && xdg[0] == '/') {
    if (asprintf(&dir, "%s/kcc", xdg) < 0) return NULL;
  } else if (home && *home) {
    if (asprintf(&dir, "%s/.cache/kcc", home) < 0) return NULL;
  } else {
    return NULL;
  }
  if (create_dir && !make_dirs(dir)) {
    kcrt_log("cache: cannot create %s: %s", dir, strerror(errno));
    free(dir);
    return NULL;
  }
  char *path = NULL;
  uint64_t h = kcb_fnv1a(KCB_FNV_INIT, k->buf, k->len);
  if (asprintf(&path, "%s/%016llx.bin", dir, (unsigned long long)h) < 0) path = NULL;
  free(dir);
  return path;
}

static uint64_t entry_sum(const KcrtKey *k, const void *data, size_t len) {
  return kcb_fnv1a(kcb_fnv1a(KCB_FNV_INIT, k->buf, k->len), data, len);
}

void *kcrt_cache_get(const KcrtKey *k, size_t *lenp) {
  char *path = entry_path(k, false);
  if (!path) return NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    kcrt_log("cache: miss %s", path);
    free(path);
    return NULL;
  }
  unsigned char h[ENTRY_HEADER];
  const char *why = NULL;
  unsigned char *payload = NULL;
  uint64_t plen = 0;
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || fread(h, 1, sizeof h, f) != sizeof h)
    why = "shorter than its header";
  else if (memcmp(h, entry_magic, 8) || kcb_get32(h + 8) != ENTRY_VERSION)
    why = "bad magic or version";
  else if (kcb_get32(h + 12) != k->len)
    why = "key mismatch (hash collision or damage)";
  else if ((plen = kcb_get64(h + 16)) != (uint64_t)st.st_size - ENTRY_HEADER - k->len ||
           (uint64_t)st.st_size < ENTRY_HEADER + k->len)
    why = "size mismatch (truncated?)";
  if (!why) {
    unsigned char *key = malloc(k->len);
    payload = malloc(plen ? plen : 1);
    if (!key || !payload)
      why = "out of memory";
    else if (fread(key, 1, k->len, f) != k->len || memcmp(key, k->buf, k->len))
      why = "key mismatch (hash collision or damage)";
    else if (fread(payload, 1, plen, f) != plen)
      why = "short read";
    else if (entry_sum(k, payload, plen) != kcb_get64(h + 24))
      why = "checksum mismatch";
    free(key);
  }
  fclose(f);
  if (why) {
    kcrt_log("cache: ignoring damaged entry %s: %s", path, why);
    free(payload);
    free(path);
    return NULL;
  }
  kcrt_log("cache: hit %s (%llu bytes)", path, (unsigned long long)plen);
  free(path);
  *lenp = plen;
  return payload;
}

static bool write_all(int fd, const void *data, size_t len) {
  for (size_t off = 0; off < len;) {
    ssize_t w = write(fd, (const char *)data + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    off += (size_t)w;
  }
  return true;
}

void kcrt_cache_put(const KcrtKey *k, const void *data, size_t len) {
  char *path = entry_path(k, true);
  if (!path) return;
  char *tmp = NULL;
  if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0) {
    free(path);
    return;
  }
  int fd = mkstemp(tmp);
  bool ok = fd >= 0;
  if (ok) {
    unsigned char h[ENTRY_HEADER] = {0};
    memcpy(h, entry_magic, 8);
    kcb_put32(h + 8, ENTRY_VERSION);
    kcb_put32(h + 12, (uint32_t)k->len);
    kcb_put64(h + 16, len);
    kcb_put64(h + 24, entry_sum(k, data, len));
    ok = write_all(fd, h, sizeof h) && write_all(fd, k->buf, k->len) && write_all(fd, data, len);
    ok = close(fd) == 0 && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) unlink(tmp);
  }
  if (ok)
    kcrt_log("cache: stored %s (%zu bytes)", path, len);
  else
    kcrt_log("cache: cannot write %s: %s", path, strerror(errno));
  free(tmp);
  free(path);
}
