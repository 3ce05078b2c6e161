/* buf.c — growable output buffers: back ends write here, the driver writes files once. */
#include "kcc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room for n more bytes and the terminating 0. */
static void kbuf_reserve(KBuf *b, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1) cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d) {
      fputs("kcc: fatal error: out of memory\n", stderr);
      exit(1);
    }
    b->data = d;
    b->cap = cap;
  }
}

void kbuf_append(KBuf *b, const void *data, size_t n) {
  kbuf_reserve(b, n);
  if (n) memcpy(b->data + b->len, data, n);
  b->len += n;
  b->data[b->len] = 0; /* text outputs can be used as C strings */
}

void kbuf_puts(KBuf *b, const char *s) {
  kbuf_append(b, s, strlen(s));
}

/* Formats straight into the buffer's free space, and formats again only when that was too
 * small: the preludes are ~1 MB of kbuf_printf (prelude.c), a good part of it long "%s"
 * arguments, and formatting each into a bounce buffer, then again into a malloc'ed one, then
 * copying, was ~1 ms of every compile. */
void kbuf_vprintf(KBuf *b, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  kbuf_reserve(b, 255);
  size_t room = b->cap - b->len; /* including the terminating 0 */
  int n = vsnprintf(b->data + b->len, room, fmt, ap);
  if (n >= 0 && (size_t)n >= room) {
    kbuf_reserve(b, (size_t)n + 1);
    n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, again);
  }
  if (n >= 0) b->len += (size_t)n;
  b->data[b->len] = 0; /* as kbuf_append leaves it, also when vsnprintf failed */
  va_end(again);
}

void kbuf_printf(KBuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kbuf_vprintf(b, fmt, ap);
  va_end(ap);
}

bool kcc_write_all(int fd, const void *data, size_t len) {
  for (size_t off = 0; off < len;) {
    ssize_t w = write(fd, (const char *)data + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    off += (size_t)w;
  }
  return true;
}

void kbuf_free(KBuf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

void kcc_options_default(KOptions *o) {
  memset(o, 0, sizeof *o);
  o->opt_level = 3;
  o->narchs = 1;
  o->archs[0] = 75;
  o->fp_contract = true;
}

bool kcc_read_file(const char *path, KBuf *out) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return false;
  char chunk[65536];
  ssize_t n;
  while ((n = read(fd, chunk, sizeof chunk)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      close(fd);
      return false;
    }
    kbuf_append(out, chunk, (size_t)n);
  }
  close(fd);
  return true;
}
