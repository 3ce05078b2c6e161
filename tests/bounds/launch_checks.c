/* launch_checks.c — the launch checks that came with -fbounds-check (docs/bugs.md): a kernel
 * with an `extern shared` array launched with 0 dynamic bytes, portable launch limits
 * (KCC_PORTABLE / kcrt_set_portable), and the device's fp64 report. Runs with KCC_PORTABLE=1
 * in the environment (the test sets it) to see the variable take effect.
 *
 * Usage: rt_launch_checks OOB.kcb (tests/bounds/oob.k, checked or not). */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Rt rt;
static char warned[1024];
static int nwarned;

static void on_warning(const char *msg, void *ctx) {
  (void)ctx;
  snprintf(warned, sizeof warned, "%s", msg);
  nwarned++;
}

static void expect_launch(const char *what, kcrt_status st, kcrt_status want, const char *msg) {
  if (st != want) {
    rt_fail(&rt, "%s: got %s (%s), want %s", what, kcrt_status_name(st), kcrt_last_error(),
            kcrt_status_name(want));
    return;
  }
  if (msg && strcmp(kcrt_last_error(), msg))
    rt_fail(&rt, "%s: message\n  got  %s\n  want %s", what, kcrt_last_error(), msg);
  if (!st) {
    st = kcrt_device_synchronize(rt.dev);
    if (st) rt_fail(&rt, "%s: synchronize: %s", what, kcrt_last_error());
  }
}

int main(int argc, char **argv) {
  rt_init(&rt, argc, argv, "launch_checks");
  const char *env = getenv("KCC_PORTABLE");
  if (kcrt_get_portable() != (env && *env && strcmp(env, "0")))
    rt_fail(&rt, "kcrt_get_portable() = %d with KCC_PORTABLE='%s'", kcrt_get_portable(),
            env ? env : "(unset)");

  /* extern shared with 0 dynamic bytes: a warning, once per kernel; an error when portable. */
  kcrt_buffer *out = rt_alloc(&rt, 4096 * sizeof(float));
  kcrt_arg one[] = {KCRT_ARG_BUFFER(out)};
  kcrt_kernel *dyn = rt_kernel(&rt, "shared_dynamic");
  const char *dyn0 = "kernel 'shared_dynamic' has an 'extern shared' array but is launched with "
                     "0 dynamic shared bytes: any access to it is out of bounds";
  char want[1024];
  snprintf(want, sizeof want, "%s (KCC_PORTABLE makes this an error)", dyn0);
  kcrt_set_warning_handler(on_warning, NULL);
  if (kcrt_get_portable()) {
    expect_launch("extern shared, 0 bytes, portable",
                  kcrt_launch(dyn, NULL, KCRT_DIM1(1), KCRT_DIM1(32), 0, one, 1),
                  KCRT_ERROR_INVALID_LAUNCH, want);
  } else {
    kcrt_status st = kcrt_launch(dyn, NULL, KCRT_DIM1(1), KCRT_DIM1(32), 0, one, 1);
    if (!st) st = kcrt_device_synchronize(rt.dev);
    /* The launch runs; a checked kernel then reports its access to the empty array. */
    if (st && st != KCRT_ERROR_OUT_OF_BOUNDS)
      rt_fail(&rt, "extern shared, 0 bytes: %s", kcrt_last_error());
    kcrt_launch(dyn, NULL, KCRT_DIM1(1), KCRT_DIM1(32), 0, one, 1);
    kcrt_device_synchronize(rt.dev);
    if (nwarned != 1 || strcmp(warned, dyn0))
      rt_fail(&rt, "extern shared, 0 bytes: %d warnings, the last '%s'; want one: %s", nwarned,
              warned, dyn0);
  }
  kcrt_set_warning_handler(NULL, NULL);
  expect_launch("extern shared, 128 bytes",
                kcrt_launch(dyn, NULL, KCRT_DIM1(1), KCRT_DIM1(32), 128, one, 1), KCRT_SUCCESS,
                NULL);

  /* Portable limits: what this device takes but some GPU would not. */
  kcrt_kernel *vec = rt_kernel(&rt, "vecadd");
  int n = 0;
  kcrt_arg va[] = {KCRT_ARG_BUFFER(out), KCRT_ARG_BUFFER(out), KCRT_ARG_BUFFER(out),
                   KCRT_ARG_VALUE(n)};
  kcrt_set_portable(1);
  if (!kcrt_get_portable()) rt_fail(&rt, "kcrt_set_portable(1) did not take");
  expect_launch("extern shared, 0 bytes, kcrt_set_portable(1)",
                kcrt_launch(dyn, NULL, KCRT_DIM1(1), KCRT_DIM1(32), 0, one, 1),
                KCRT_ERROR_INVALID_LAUNCH, want);
  if (rt.info.max_threads_per_block >= 2048 && rt.info.max_block_dim[0] >= 2048) {
    expect_launch("portable: 2048 threads",
                  kcrt_launch(vec, NULL, KCRT_DIM1(1), KCRT_DIM1(2048), 0, va, 4),
                  KCRT_ERROR_INVALID_LAUNCH,
                  "block dimension x = 2048 exceeds the portable maximum 1024 (KCC_PORTABLE: "
                  "what every supported GPU accepts)");
  }
  if (rt.info.max_block_dim[2] >= 128 && rt.info.max_threads_per_block >= 128)
    expect_launch("portable: block z 128",
                  kcrt_launch(vec, NULL, KCRT_DIM1(1), KCRT_DIM3(1, 1, 128), 0, va, 4),
                  KCRT_ERROR_INVALID_LAUNCH,
                  "block dimension z = 128 exceeds the portable maximum 64 (KCC_PORTABLE: what "
                  "every supported GPU accepts)");
  expect_launch("portable: 32 x 32 x 2 threads",
                kcrt_launch(vec, NULL, KCRT_DIM1(1), KCRT_DIM3(32, 32, 2), 0, va, 4),
                KCRT_ERROR_INVALID_LAUNCH, /* a GPU's own limit says so in its own words */
                rt.info.max_threads_per_block >= 2048
                    ? "a block of 32 x 32 x 2 threads exceeds the portable maximum of 1024 "
                      "threads per block (KCC_PORTABLE: what every supported GPU accepts)"
                    : NULL);
  if (rt.info.max_grid_dim[1] > 65535)
    expect_launch("portable: grid y 65536",
                  kcrt_launch(vec, NULL, KCRT_DIM3(1, 65536, 1), KCRT_DIM1(1), 0, va, 4),
                  KCRT_ERROR_INVALID_LAUNCH,
                  "grid dimension y = 65536 exceeds the portable maximum 65535 (KCC_PORTABLE: "
                  "what every supported GPU accepts)");
  /* The largest block the portable limits allow, unless the kernel's own limit on this device
     (registers: 256 for vecadd on NVIDIA's OpenCL) is lower. */
  kcrt_kernel_info ki;
  uint64_t most = 1024;
  if (kcrt_kernel_get_info(vec, &ki) == KCRT_SUCCESS && ki.max_threads_per_block < most)
    most = ki.max_threads_per_block;
  expect_launch("portable: the largest block",
                kcrt_launch(vec, NULL, KCRT_DIM1(1), KCRT_DIM1((unsigned)most), 0, va, 4),
                KCRT_SUCCESS, NULL);
  kcrt_set_portable(0);
  if (rt.info.max_threads_per_block >= 2048 && rt.info.max_block_dim[0] >= 2048)
    expect_launch("not portable: 2048 threads",
                  kcrt_launch(vec, NULL, KCRT_DIM1(1), KCRT_DIM1(2048), 0, va, 4), KCRT_SUCCESS,
                  NULL);

  /* fp64: reported by the device info (and `kcc --devices`); CUDA devices always have it. */
  if (rt.info.backend == KCRT_BACKEND_CUDA && !rt.info.fp64)
    rt_fail(&rt, "a CUDA device without fp64");
  kcrt_buffer_free(out);
  return rt_finish(&rt, "extern shared with 0 bytes, portable limits, fp64 %s",
                   rt.info.fp64 ? "yes" : "no");
}
