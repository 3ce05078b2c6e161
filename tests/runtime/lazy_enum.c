/* lazy_enum.c — opens the device kcrt_device_open_default picks ($KCC_DEVICE) and says which
 * back end it is on and whether libcuda and the OpenCL ICD loader are mapped into the process:
 * tests/lazy_enum.cmake checks that choosing one back end's device leaves the other back end
 * unloaded (runtime/device.c enumerates each back end only when needed).
 * Output: "opened: cuda|opencl GPU|CPU|other", "libcuda: mapped|not mapped",
 * "libOpenCL: mapped|not mapped"; exit 1 (and "cannot open: STATUS") when no device opens. */
#define _GNU_SOURCE
#include "kcrt.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool mapped(const char *lib) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  bool found = false;
  while (f && !found && fgets(line, sizeof line, f)) found = strstr(line, lib) != NULL;
  if (f) fclose(f);
  return found;
}

int main(void) {
  kcrt_device *dev;
  kcrt_status s = kcrt_device_open_default(&dev);
  if (s) {
    printf("cannot open: %s\n", kcrt_status_name(s));
    return 1;
  }
  kcrt_device_info info;
  kcrt_device_get_info(dev, &info);
  printf("opened: %s %s\n", info.backend == KCRT_BACKEND_CUDA ? "cuda" : "opencl",
         info.type == KCRT_DEVICE_GPU   ? "GPU"
         : info.type == KCRT_DEVICE_CPU ? "CPU"
                                        : "other");
  printf("libcuda: %s\n", mapped("/libcuda.so") ? "mapped" : "not mapped");
  printf("libOpenCL: %s\n", mapped("/libOpenCL.so") ? "mapped" : "not mapped");
  kcrt_device_close(dev);
  return 0;
}
