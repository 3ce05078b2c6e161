/* choose-device — lists the devices libkcrt sees and runs a kernel on one of them:
 *
 *   choose_device            the default: $KCC_DEVICE if set, else the best device present
 *   choose_device INDEX      device INDEX of the list
 *   KCC_DEVICE=1 choose_device    (also: cuda, opencl, gpu, cpu, cuda:0, a name substring)
 *
 * `kcc --devices` prints the same list. */
#include "scale.h" /* kcc scale.k -o scale.h */

#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    kcrt_status st_ = (call);                                                                      \
    if (st_ != KCRT_SUCCESS) {                                                                     \
      fprintf(stderr, "%s failed: %s: %s\n", #call, kcrt_status_name(st_), kcrt_last_error());     \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static const char *type_name(kcrt_device_type t) {
  return t == KCRT_DEVICE_GPU           ? "GPU"
         : t == KCRT_DEVICE_CPU         ? "CPU"
         : t == KCRT_DEVICE_ACCELERATOR ? "accelerator"
                                        : "other";
}

int main(int argc, char **argv) {
  int count;
  CHECK(kcrt_device_count(&count));
  printf("%d device%s:\n", count, count == 1 ? "" : "s");
  for (int i = 0; i < count; i++) {
    kcrt_device_info info;
    CHECK(kcrt_device_info_get(i, &info));
    printf("  [%d] %s: %s %s, %u compute units, %.1f GiB\n", i,
           info.backend == KCRT_BACKEND_CUDA ? "CUDA  " : "OpenCL", info.name, type_name(info.type),
           info.compute_units, info.global_mem_bytes / 1073741824.0);
  }
  if (count == 0)
    printf("  (CUDA: %s; OpenCL: %s)\n", kcrt_backend_status(KCRT_BACKEND_CUDA),
           kcrt_backend_status(KCRT_BACKEND_OPENCL));

  /* Open the device the command line names, else the default one. */
  kcrt_device *dev;
  kcrt_status st;
  const char *env = getenv("KCC_DEVICE");
  if (argc > 1) {
    int index = atoi(argv[1]);
    printf("opening device %d (command line)\n", index);
    st = kcrt_device_open(index, &dev);
  } else if (env && *env) {
    printf("opening the device KCC_DEVICE=%s selects\n", env);
    st = kcrt_device_open_default(&dev);
  } else {
    printf("opening the default device\n");
    st = kcrt_device_open_default(&dev);
  }
  if (st != KCRT_SUCCESS) {
    /* A wrong index or selector is the user's mistake, not a crash: say which and why. */
    printf("cannot open it: %s: %s\n", kcrt_status_name(st), kcrt_last_error());
    return 1;
  }
  kcrt_device_info info;
  CHECK(kcrt_device_get_info(dev, &info));
  printf("opened: %s (%s %d)\n", info.name, info.backend == KCRT_BACKEND_CUDA ? "cuda" : "opencl",
         info.backend_index);

  /* Something to run there: scale 1000 numbers by 3 and check them. */
  enum { N = 1000 };
  float x[N];
  for (int i = 0; i < N; i++) x[i] = (float)i;
  kcc_buf_float dx;
  CHECK(kcc_buf_float_alloc(dev, N, &dx));
  CHECK(kcc_buf_float_write(dx, 0, x, N));
  CHECK(
      scale_k_launch_scale(dev, kcc_dim1(kcc_div_up(N, 128)), kcc_dim1(128), 0, NULL, dx, 3.0f, N));
  CHECK(kcc_buf_float_read(dx, 0, x, N));
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += x[i] != 3.0f * i;
  printf("scale kernel on it: %s\n", wrong ? "WRONG RESULT" : "OK");
  CHECK(kcrt_device_close(dev));
  return wrong != 0;
}
