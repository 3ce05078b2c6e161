/* hello — printf from a kernel: 2 blocks of 4 threads each print their block and thread
 * index. The lines come back when the device finishes, in no particular order; libkcrt
 * flushes stdout before they appear, so they follow what the program printed before. */
#include "hello.h" /* kcc hello.k -o hello.h */

#include <stdio.h>

int main(void) {
  kcrt_set_error_handler(kcrt_error_exit, NULL); /* any failure: message, exit(1) */
  kcrt_device *dev;
  kcrt_device_open_default(&dev);
  printf("launching 2 blocks of 4 threads\n");
  hello_launch(kcrt_config_1d(dev, 8, 4));
  kcrt_device_close(dev); /* waits for the kernel: its output is complete */
  printf("done\n");
  return 0;
}
