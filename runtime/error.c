/* error.c — status names, the per-thread last-error message, and KCC_LOG logging. */
#define _GNU_SOURCE
#include "internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct {
  const char *name, *text;
} statuses[] = {
    [KCRT_SUCCESS] = {"KCRT_SUCCESS", "success"},
    [KCRT_ERROR_NO_DEVICE] = {"KCRT_ERROR_NO_DEVICE", "no usable device"},
    [KCRT_ERROR_INVALID_VALUE] = {"KCRT_ERROR_INVALID_VALUE", "invalid value"},
    [KCRT_ERROR_OUT_OF_MEMORY] = {"KCRT_ERROR_OUT_OF_MEMORY", "out of memory"},
    [KCRT_ERROR_INVALID_MODULE] = {"KCRT_ERROR_INVALID_MODULE", "invalid or corrupted bundle"},
    [KCRT_ERROR_KERNEL_NOT_FOUND] = {"KCRT_ERROR_KERNEL_NOT_FOUND", "kernel not found"},
    [KCRT_ERROR_INVALID_ARGUMENT] = {"KCRT_ERROR_INVALID_ARGUMENT",
                                     "kernel arguments do not match the kernel's parameters"},
    [KCRT_ERROR_INVALID_LAUNCH] = {"KCRT_ERROR_INVALID_LAUNCH",
                                   "launch configuration exceeds a device limit"},
    [KCRT_ERROR_BUILD_FAILED] = {"KCRT_ERROR_BUILD_FAILED",
                                 "the driver could not build the module"},
    [KCRT_ERROR_NO_BINARY] = {"KCRT_ERROR_NO_BINARY",
                              "the bundle has no form this device can load"},
    [KCRT_ERROR_DRIVER] = {"KCRT_ERROR_DRIVER", "driver error"},
    [KCRT_ERROR_IO] = {"KCRT_ERROR_IO", "input/output error"},
    [KCRT_ERROR_NOT_SUPPORTED] = {"KCRT_ERROR_NOT_SUPPORTED", "not supported by this device"},
    [KCRT_ERROR_LAUNCH_FAILED] = {"KCRT_ERROR_LAUNCH_FAILED", "a kernel failed while running"},
    [KCRT_ERROR_OUT_OF_BOUNDS] = {"KCRT_ERROR_OUT_OF_BOUNDS",
                                  "a kernel accessed memory out of bounds"},
    [KCRT_ERROR_SYMBOL_NOT_FOUND] = {"KCRT_ERROR_SYMBOL_NOT_FOUND",
                                     "no host-filled variable of that name in the module"},
};
enum { NSTATUS = sizeof statuses / sizeof statuses[0] };

const char *kcrt_status_name(kcrt_status s) {
  return (unsigned)s < NSTATUS && statuses[s].name ? statuses[s].name : "KCRT_ERROR_UNKNOWN";
}

const char *kcrt_strerror(kcrt_status s) {
  return (unsigned)s < NSTATUS && statuses[s].text ? statuses[s].text : "unknown status";
}

/* The message lives in a per-thread heap buffer (build logs can be long); the key's
 * destructor frees it when the thread ends. */
static pthread_key_t msg_key;
static pthread_once_t msg_once = PTHREAD_ONCE_INIT;

typedef struct Msg {
  char *text;
  size_t len, cap;
} Msg;

static void msg_destroy(void *p) {
  Msg *m = p;
  free(m->text);
  free(m);
}

static void msg_init(void) {
  pthread_key_create(&msg_key, msg_destroy);
}

static Msg *msg_get(void) {
  pthread_once(&msg_once, msg_init);
  Msg *m = pthread_getspecific(msg_key);
  if (!m) {
    m = calloc(1, sizeof *m);
    if (!m) return NULL;
    pthread_setspecific(msg_key, m);
  }
  return m;
}

static void msg_add(Msg *m, const char *s, size_t n) {
  if (m->len + n + 1 > m->cap) {
    size_t cap = m->cap ? m->cap : 256;
    while (cap < m->len + n + 1) cap *= 2;
    char *t = realloc(m->text, cap);
    if (!t) return; /* keep what fits: a shorter message beats none */
    m->text = t;
    m->cap = cap;
  }
  memcpy(m->text + m->len, s, n);
  m->len += n;
  m->text[m->len] = 0;
}

/* The error handler (kcrt_set_error_handler) and the calling thread's sticky error
 * (kcrt_get_error). */
static _Atomic(kcrt_error_fn) error_fn;
static void *_Atomic error_ctx;
static _Thread_local kcrt_status sticky = KCRT_SUCCESS;

kcrt_status kcrt_fail(kcrt_status s, const char *fmt, ...) {
  Msg *m = msg_get();
  if (!m) return s;
  char *text = NULL;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&text, fmt, ap);
  va_end(ap);
  m->len = 0;
  if (n >= 0) msg_add(m, text, (size_t)n);
  free(text);
  if (kcrt_log_on()) fprintf(stderr, "kcrt: %s: %s\n", kcrt_status_name(s), m->text ? m->text : "");
  if (s != KCRT_SUCCESS && sticky == KCRT_SUCCESS) sticky = s;
  kcrt_error_fn fn = error_fn;
  if (fn && s != KCRT_SUCCESS) fn(s, m->text ? m->text : "", error_ctx);
  return s;
}

kcrt_status kcrt_set_error_handler(kcrt_error_fn fn, void *ctx) {
  /* ctx first: a thread that sees the new fn must not pair it with the old ctx. Setting the
   * handler while other threads fail is the caller's race, as with signal handlers. */
  error_ctx = ctx;
  error_fn = fn;
  return KCRT_SUCCESS;
}

void kcrt_error_exit(kcrt_status status, const char *message, void *ctx) {
  (void)ctx;
  fflush(stdout); /* what the program printed before the failure comes first */
  fprintf(stderr, "kcrt: %s: %s\n", kcrt_status_name(status), message ? message : "");
  exit(1);
}

kcrt_status kcrt_get_error(void) {
  kcrt_status s = sticky;
  sticky = KCRT_SUCCESS;
  return s;
}

void kcrt_error_append(const char *text) {
  Msg *m = msg_get();
  if (m && text) msg_add(m, text, strlen(text));
}

const char *kcrt_last_error(void) {
  Msg *m = msg_get();
  return m && m->text ? m->text : "";
}

bool kcrt_log_on(void) {
  static int on = -1; /* read once: a benign race, every thread computes the same value */
  if (on < 0) {
    const char *v = getenv("KCC_LOG");
    on = v && *v && strcmp(v, "0") != 0;
  }
  return on;
}

void kcrt_log(const char *fmt, ...) {
  if (!kcrt_log_on()) return;
  char line[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  fprintf(stderr, "kcrt: %s\n", line); /* one call per line, so threads do not interleave */
}

double kcrt_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
