/* structs.c — runs tests/kernels/structs.k: a struct array read and written through global
 * pointers, a struct passed by value (its 16 bytes checked against the kernel table), and a
 * struct result. The reference uses the kernel file's own struct types and step()
 * (kernel_shim.h), so the layouts the test passes are the ones kcc laid out. */
#include "rt_common.h"
#include "kernel_shim.h"
#include "../kernels/structs.k"

#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(struct Particle) == 32, "Particle layout");
_Static_assert(sizeof(struct Params) == 16, "Params layout");

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "structs");
  int n = rt_int(&rt, 5000, 20000);
  struct Particle *ps = malloc(n * sizeof *ps), *got = malloc(n * sizeof *got),
                  *want = malloc(n * sizeof *want);
  float *out = malloc(n * sizeof *out), *wout = malloc(n * sizeof *wout);
  for (int i = 0; i < n; i++) {
    ps[i] =
        (struct Particle){{rt_float(&rt, -50, 50), rt_float(&rt, -50, 50), rt_float(&rt, -50, 50)},
                          {rt_float(&rt, -5, 5), rt_float(&rt, 1, 5), rt_float(&rt, -5, 5)},
                          rt_float(&rt, 0.5f, 3),
                          (int)rt_u32(&rt) | 1};
  }
  struct Params p = {rt_float(&rt, 0.001f, 0.05f), 9.81f, rt_float(&rt, 0.9f, 0.999f),
                     rt_int(&rt, 1, 20)};

  /* bbox on the initial positions (one thread). */
  struct Box box, wbox = {ps[0].pos, ps[0].pos, n};
  for (int i = 1; i < n; i++) {
    wbox.lo.x = fminf(wbox.lo.x, ps[i].pos.x), wbox.hi.x = fmaxf(wbox.hi.x, ps[i].pos.x);
    wbox.lo.y = fminf(wbox.lo.y, ps[i].pos.y), wbox.hi.y = fmaxf(wbox.hi.y, ps[i].pos.y);
    wbox.lo.z = fminf(wbox.lo.z, ps[i].pos.z), wbox.hi.z = fmaxf(wbox.hi.z, ps[i].pos.z);
  }
  kcrt_buffer *dps = rt_upload(&rt, ps, n * sizeof *ps), *dbox = rt_alloc(&rt, sizeof box);
  kcrt_arg a1[] = {KCRT_ARG_BUFFER(dps), KCRT_ARG_VALUE(n), KCRT_ARG_BUFFER(dbox)};
  rt_launch(&rt, rt_kernel(&rt, "bbox"), KCRT_DIM1(1), KCRT_DIM1(1), 0, a1, 3);
  rt_download(&rt, dbox, &box, sizeof box);
  rt_cmp_f32(&rt, "box.lo/hi", &box.lo.x, &wbox.lo.x, 6, 0, 0);
  rt_cmp_i32(&rt, "box.count", &box.count, &wbox.count, 1);

  /* particles */
  for (int i = 0; i < n; i++) {
    struct Particle q = ps[i];
    for (int s = 0; s < p.steps; s++) step(&q, p);
    want[i] = q;
    wout[i] = 0.5f * q.mass * dot(&q.vel, &q.vel);
  }
  kcrt_buffer *dout = rt_alloc(&rt, n * sizeof *out);
  kcrt_arg a2[] = {KCRT_ARG_BUFFER(dps), KCRT_ARG_VALUE(n), KCRT_ARG_VALUE(p),
                   KCRT_ARG_BUFFER(dout)};
  rt_launch(&rt, rt_kernel(&rt, "particles"), KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, a2,
            4);
  rt_download(&rt, dps, got, n * sizeof *got);
  rt_download(&rt, dout, out, n * sizeof *out);
  float *gf = malloc(n * 7 * sizeof *gf), *wf = malloc(n * 7 * sizeof *wf);
  int32_t *gid = malloc(n * sizeof *gid), *wid = malloc(n * sizeof *wid);
  for (int i = 0; i < n; i++) {
    memcpy(gf + 7 * i, &got[i], 7 * sizeof(float)); /* pos, vel, mass */
    memcpy(wf + 7 * i, &want[i], 7 * sizeof(float));
    gid[i] = got[i].id, wid[i] = want[i].id;
  }
  rt_cmp_f32(&rt, "particles pos/vel/mass", gf, wf, 7 * (size_t)n, 1e-5, 1e-5);
  rt_cmp_i32(&rt, "particles id", gid, wid, n);
  rt_cmp_f32(&rt, "energy", out, wout, n, 1e-5, 1e-6);
  free(ps), free(got), free(want), free(out), free(wout), free(gf), free(wf), free(gid), free(wid);
  return rt_finish(&rt, "%d particles, %d steps", n, p.steps);
}
