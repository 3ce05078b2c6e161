/* biggrid — what happens when a launch asks for more than the device has. libkcrt checks
 * every launch against the device's limits before the driver sees it and refuses it with
 * KCRT_ERROR_INVALID_LAUNCH and a message that names the limit; nothing runs and the program
 * can carry on. Here: a grid of 2^40 blocks, then a block larger than the device allows,
 * then the launch that fits. Exits 0 when both oversized launches were refused cleanly. */
#include "fill.h" /* kcc fill.k -o fill.h */

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

/* Reports how a launch that should be refused went; returns 1 when it was refused as too
 * large. */
static int expect_refused(const char *what, kcrt_status st) {
  printf("%s: %s: %s\n", what, kcrt_status_name(st), kcrt_last_error());
  return st == KCRT_ERROR_INVALID_LAUNCH;
}

int main(void) {
  kcrt_device *dev;
  kcrt_device_info info;
  CHECK(kcrt_device_open_default(&dev));
  CHECK(kcrt_device_get_info(dev, &info));
  printf("device: %s: grid <= %llu x %llu x %llu blocks, block <= %llu threads\n", info.name,
         (unsigned long long)info.max_grid_dim[0], (unsigned long long)info.max_grid_dim[1],
         (unsigned long long)info.max_grid_dim[2], (unsigned long long)info.max_threads_per_block);

  enum { N = 1 << 20, BLOCK = 256 };
  kcc_buf_int32 out;
  CHECK(kcc_buf_int32_alloc(dev, N, &out));
  int caught = 0;

  /* 2^40 blocks: more than any device's grid (CUDA 2^31-1, OpenCL here 2^32-1). */
  uint64_t huge = (uint64_t)1 << 40;
  caught += expect_refused("grid of 2^40 blocks",
                           fill_k_launch_fill(dev, kcc_dim1(huge), kcc_dim1(BLOCK), 0, NULL, out, 7,
                                              (int64_t)huge * BLOCK));

  /* One thread more per block than the device runs. */
  uint64_t too_many = info.max_threads_per_block + 1;
  caught +=
      expect_refused("block one thread too large",
                     fill_k_launch_fill(dev, kcc_dim1(1), kcc_dim1(too_many), 0, NULL, out, 7, N));

  /* The launch that fits: enough blocks of BLOCK threads to cover N elements. */
  CHECK(
      fill_k_launch_fill(dev, kcc_dim1(kcc_div_up(N, BLOCK)), kcc_dim1(BLOCK), 0, NULL, out, 7, N));
  int *host = malloc(N * sizeof *host);
  if (!host) return 1;
  CHECK(kcc_buf_int32_read(out, 0, host, N));
  int wrong = 0;
  for (int i = 0; i < N; i++) wrong += host[i] != 7;
  printf("a grid of %d blocks of %d threads: %s\n", (int)kcc_div_up(N, BLOCK), BLOCK,
         wrong ? "WRONG RESULT" : "ran, result checked");
  free(host);
  CHECK(kcrt_device_close(dev));
  if (caught != 2 || wrong) {
    printf("FAILED: %d of 2 oversized launches refused\n", caught);
    return 1;
  }
  printf("both oversized launches were refused before reaching the driver\n");
  return 0;
}
