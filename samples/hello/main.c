/* hello — printf from a kernel: 2 blocks of 4 threads each print their block and thread
 * index. The lines come back when the device finishes, in no particular order. */
#include "hello.h" /* kcc hello.k -o hello.h */

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

int main(void) {
  kcrt_device *dev;
  kcrt_device_info info;
  CHECK(kcrt_device_open_default(&dev));
  CHECK(kcrt_device_get_info(dev, &info));
  printf("device: %s\n", info.name);
  printf("launching 2 blocks of 4 threads\n");
  /* The device writes to the same standard output: flush ours first so the lines keep
   * their order. */
  fflush(stdout);
  CHECK(hello_k_launch_hello(dev, kcc_dim1(2), kcc_dim1(4), 0, NULL));
  CHECK(kcrt_device_synchronize(dev)); /* the kernel's output is complete after this */
  fflush(stdout);
  printf("done\n");
  CHECK(kcrt_device_close(dev));
  return 0;
}
