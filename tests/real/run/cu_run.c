/* cu_run.c — see cu_run.h. */
#include "cu_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cu_fill_f32(Rt *rt, float *p, size_t n, float lo, float hi) {
  for (size_t i = 0; i < n; i++) p[i] = rt_float(rt, lo, hi);
}

void cu_fill_i32(Rt *rt, int32_t *p, size_t n, int lo, int hi) {
  for (size_t i = 0; i < n; i++) p[i] = rt_int(rt, lo, hi);
}

void cu_launch(Rt *rt, const char *name, kcrt_dim3 grid, kcrt_dim3 block, size_t dyn,
               const kcrt_arg *args, int nargs) {
  rt_launch(rt, rt_kernel(rt, name), grid, block, dyn, args, nargs);
}

void cu_symbol_write(Rt *rt, const char *name, const void *data, size_t size) {
  kcrt_buffer *b = NULL;
  RT_CHECK(rt, kcrt_module_symbol(rt->mod, name, &b));
  if (kcrt_buffer_size(b) != size)
    rt_fail(rt, "symbol %s is %zu bytes, the host writes %zu", name, kcrt_buffer_size(b), size);
  RT_CHECK(rt, kcrt_buffer_write(b, 0, data, size));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s NAME BUNDLE.kcb\n", argv[0]);
    return 2;
  }
  const CuCase *cs = NULL;
  for (int i = 0; i < cu_ncases; i++)
    if (strcmp(cu_cases[i].name, argv[1]) == 0) cs = &cu_cases[i];
  if (!cs) {
    fprintf(stderr, "%s: no runner for '%s'\n", argv[0], argv[1]);
    return 2;
  }
  static Rt rt;
  char *rt_argv[] = {argv[0], argv[2], NULL};
  rt_init(&rt, 2, rt_argv, cs->name);
  cs->run(&rt);
  int status = rt_finish(&rt, "%s from %s", cs->name, argv[2]);
  rt_xfree_all();
  return status;
}
