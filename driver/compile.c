/* compile.c — the middle of kcc: the front end and then every pass, in the order back ends
 * rely on. */
#include "bounds.h"
#include "diag.h"
#include "kcc.h"

KModule *kcc_compile_module(const char *path, const KOptions *o, KList *deps, bool allow_generic) {
  KModule *m = frontend_parse(path, o, deps);
  if (!m || diag_error_count() || !pass_names(m)) return NULL;
  pass_idioms(m, o);
  m->one_space = o->one_space;
  if (!pass_callgraph(m) || !pass_addrspace(m, allow_generic)) return NULL;
  if (o->bounds_check && !pass_bounds(m, allow_generic)) return NULL;
  return diag_error_count() ? NULL : m;
}
