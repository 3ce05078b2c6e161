/* options.h — kcc's options, parsed in one place for the command line (main.c) and for the
 * in-process API (libkcc.c, where the options come as strings and the source as a name):
 * the output forms, the parsed command and the parser. Messages go to diag_output(). */
#ifndef KCC_OPTIONS_H
#define KCC_OPTIONS_H

#include "kcc.h"

#include <stdio.h>

typedef bool (*EmitFn)(KModule *m, const KOptions *o, KBuf *out);

typedef struct Form {
  const char *name; /* --emit=NAME */
  const char *ext;  /* output extension that selects it */
  EmitFn emit;      /* NULL: handled by the driver itself (kir) */
  bool generic_ok;  /* the target has a generic address space (PTX, CUDA C) */
  /* Where it has none: the refusal of a pointer that needs two spaces, naming the form. */
  const char *one_space;
  const char *what;
} Form;

const Form *kcc_form_by_name(const char *name);
extern const Form kcc_forms[];
extern const int kcc_nforms;

/* The command line, once parsed. */
typedef struct Cmd {
  const char *input, *output, *depfile, *deptarget;
  const char *std, *std_opt; /* -std=VALUE / -cl-std=VALUE: the value and the option's name */
  const char *cl_opt;        /* the first OpenCL build option (-cl-mad-enable...), or NULL */
  const char *alone;         /* --devices or --version, which take no other argument */
  const char *xlang;         /* -x LANG: "cl" or "k" */
  const Form *form;
  bool md, nowarn;
  bool help;    /* --help: print the usage and stop */
  bool library; /* parsed for libkcc: no files to write, no "run kcc --help" hint */
} Cmd;

/* Parses argv[1..argc-1] into o and c. Returns -1 to go on compiling (or to act on c->help
 * and c->alone), else the exit status (2: a usage error, reported through kcc_usage_error).
 * o->cargs must have room for 2 * argc entries. */
int kcc_parse_args(int argc, char **argv, KOptions *o, Cmd *c);

/* The usage text of `kcc --help`. */
void kcc_usage(FILE *out);

/* Reports a usage error ("kcc: error: ...", with a hint to run kcc --help on the command
 * line) to diag_output() and returns 2. */
int kcc_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A file that exists and is neither a regular file nor a directory (/dev/null, a FIFO). */
bool kcc_is_special(const char *path);

/* libkcc.c: the middle of a compile, for the driver and the API alike. kcc_front runs the
 * front end and the passes on c->input (from `source` when not NULL, else from the file) and
 * checks that there is a kernel; kcc_emit writes c->form. Both report through diag.h. */
KModule *kcc_front(const Cmd *c, KOptions *o, const char *source, size_t len, KList *deps);
bool kcc_emit(const Cmd *c, KModule *m, const KOptions *o, KBuf *out);

#endif
