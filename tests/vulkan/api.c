/* api.c — libkcrt's Vulkan back end through the public API, on the device KCC_DEVICE selects
 * (the Vulkan tests set KCC_DEVICE=vulkan): what the device says of itself, the named error
 * statuses (a bundle without the Vulkan form, launches the checks refuse), buffers (views,
 * copies, fills at odd offsets, transfers larger than the staging buffer), a pipeline per block
 * shape, a second queue and events, and batches: hundreds of dependent launches, a buffer
 * freed while launches that read it are still to run, events between them. Usage: vk_api vecadd.kcb
 * cuda_asm.kcb (a bundle with no Vulkan SPIR-V: inline PTX). Exit 77 without a Vulkan
 * device. */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  Rt rt;
  rt_init(&rt, argc, argv, "vulkan_api");
  if (rt.info.backend != KCRT_BACKEND_VULKAN) {
    printf("SKIP vulkan_api: %s is not a Vulkan device\n", rt.info.name);
    return 77;
  }
  if (argc < 3) return 2;
  if (!rt.info.name[0] || !rt.info.max_threads_per_block || !rt.info.max_grid_dim[0] ||
      strncmp(rt.info.platform, "Vulkan 1.", 9)) {
    printf("FAIL: device info: name '%s', platform '%s', %llu threads\n", rt.info.name,
           rt.info.platform, (unsigned long long)rt.info.max_threads_per_block);
    rt.failures++;
  }

  /* A bundle kcc made without the Vulkan form: named, not a crash. */
  kcrt_module *none = NULL;
  RT_EXPECT(&rt, KCRT_ERROR_NO_BINARY, kcrt_module_load_file(rt.dev, argv[2], &none));
  if (!strstr(kcrt_last_error(), "has no Vulkan SPIR-V")) {
    printf("FAIL: no-binary message: %s\n", kcrt_last_error());
    rt.failures++;
  }

  kcrt_kernel *k = rt_kernel(&rt, "vecadd");
  /* vecadd over a view: device addresses carry the view's offset. Blocks of 32, 64 and 96
   * threads: a pipeline each, every element checked each time. */
  int n = rt_int(&rt, 3000, 5000), pad = 7;
  float *a = malloc((n + pad) * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c),
        *want = malloc(n * sizeof *want);
  for (int i = 0; i < n + pad; i++) a[i] = rt_float(&rt, -10, 10);
  for (int i = 0; i < n; i++) {
    b[i] = rt_float(&rt, -10, 10);
    want[i] = a[i + pad] + b[i];
  }
  kcrt_buffer *da = rt_upload(&rt, a, (n + pad) * sizeof *a),
              *db = rt_upload(&rt, b, n * sizeof *b);
  kcrt_buffer *dc = rt_alloc(&rt, n * sizeof *c), *va = NULL;
  RT_CHECK(&rt, kcrt_buffer_view(da, pad * sizeof *a, n * sizeof *a, &va));
  kcrt_arg args[] = {KCRT_ARG_BUFFER(va), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                     KCRT_ARG_VALUE(n)};
  static const unsigned blocks[] = {32, 64, 96};
  for (int s = 0; s < 3; s++) {
    RT_CHECK(&rt, kcrt_buffer_fill(dc, 0, 0xff, n * sizeof *c));
    rt_launch(&rt, k, KCRT_DIM1(rt_ceil_div(n, blocks[s])), KCRT_DIM1(blocks[s]), 0, args, 4);
    rt_download(&rt, dc, c, n * sizeof *c);
    rt_cmp_f32(&rt, "c", c, want, n, 0, 0);
  }

  /* The launch checks, before the driver sees anything. */
  RT_EXPECT(
      &rt, KCRT_ERROR_INVALID_LAUNCH,
      kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(rt.info.max_threads_per_block + 1), 0, args, 4));
  RT_EXPECT(&rt, KCRT_ERROR_INVALID_ARGUMENT,
            kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(32), 0, args, 3));
  kcrt_arg swapped[] = {KCRT_ARG_VALUE(n), KCRT_ARG_BUFFER(db), KCRT_ARG_BUFFER(dc),
                        KCRT_ARG_VALUE(n)};
  RT_EXPECT(&rt, KCRT_ERROR_INVALID_ARGUMENT,
            kcrt_launch(k, NULL, KCRT_DIM1(1), KCRT_DIM1(32), 0, swapped, 4));

  /* A second queue and events around a launch on it. */
  kcrt_queue *q = NULL;
  kcrt_event *e0 = NULL, *e1 = NULL;
  RT_CHECK(&rt, kcrt_queue_create(rt.dev, &q));
  RT_CHECK(&rt, kcrt_event_create(rt.dev, &e0));
  RT_CHECK(&rt, kcrt_event_create(rt.dev, &e1));
  RT_CHECK(&rt, kcrt_buffer_fill(dc, 0, 0, n * sizeof *c));
  RT_CHECK(&rt, kcrt_event_record(e0, q));
  RT_CHECK(&rt, kcrt_launch(k, q, KCRT_DIM1(rt_ceil_div(n, 128)), KCRT_DIM1(128), 0, args, 4));
  RT_CHECK(&rt, kcrt_event_record(e1, q));
  RT_CHECK(&rt, kcrt_event_synchronize(e1));
  double ms = -1;
  RT_CHECK(&rt, kcrt_event_elapsed_ms(e0, e1, &ms));
  if (!(ms >= 0)) {
    printf("FAIL: elapsed %g ms\n", ms);
    rt.failures++;
  }
  RT_CHECK(&rt, kcrt_queue_synchronize(q));
  rt_download(&rt, dc, c, n * sizeof *c);
  rt_cmp_f32(&rt, "c (second queue)", c, want, n, 0, 0);
  RT_CHECK(&rt, kcrt_event_destroy(e0));
  RT_CHECK(&rt, kcrt_event_destroy(e1));
  RT_CHECK(&rt, kcrt_queue_destroy(q));

  /* Batches (runtime/vulkan.c): 300 dependent launches, more than a batch holds, x += inc
   * through two buffers in turn; inc freed while launches that read it may still be to run,
   * and a new buffer of its size filled with other bytes at once; events at the start, the
   * middle and the end, in order. Small integers keep every sum exact. */
  {
    int m = rt_int(&rt, 2000, 4000), steps = 300;
    float *x = malloc(m * sizeof *x), *inc = malloc(m * sizeof *inc), *got = malloc(m * sizeof *x);
    for (int i = 0; i < m; i++) {
      x[i] = (float)rt_int(&rt, -1000, 1000);
      inc[i] = (float)rt_int(&rt, -8, 8);
    }
    kcrt_buffer *dx = rt_upload(&rt, x, m * sizeof *x), *dy = rt_alloc(&rt, m * sizeof *x),
                *dinc = rt_upload(&rt, inc, m * sizeof *inc);
    kcrt_event *ev[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) RT_CHECK(&rt, kcrt_event_create(rt.dev, &ev[i]));
    RT_CHECK(&rt, kcrt_event_record(ev[0], NULL));
    for (int i = 0; i < steps; i++) {
      kcrt_arg sa[] = {KCRT_ARG_BUFFER(i % 2 ? dy : dx), KCRT_ARG_BUFFER(dinc),
                       KCRT_ARG_BUFFER(i % 2 ? dx : dy), KCRT_ARG_VALUE(m)};
      RT_CHECK(&rt, kcrt_launch(k, NULL, KCRT_DIM1(rt_ceil_div(m, 64)), KCRT_DIM1(64), 0, sa, 4));
      if (i == steps / 2) RT_CHECK(&rt, kcrt_event_record(ev[1], NULL));
    }
    RT_CHECK(&rt, kcrt_event_record(ev[2], NULL));
    RT_CHECK(&rt, kcrt_buffer_free(dinc));
    kcrt_buffer *other = rt_alloc(&rt, m * sizeof *inc);
    RT_CHECK(&rt, kcrt_buffer_fill(other, 0, 0x7f, m * sizeof *inc));
    rt_download(&rt, steps % 2 ? dy : dx, got, m * sizeof *x);
    for (int i = 0; i < m; i++) x[i] += (float)steps * inc[i];
    rt_cmp_f32(&rt, "x after 300 launches", got, x, m, 0, 0);
    double half = -1, all = -1;
    RT_CHECK(&rt, kcrt_event_elapsed_ms(ev[0], ev[1], &half));
    RT_CHECK(&rt, kcrt_event_elapsed_ms(ev[0], ev[2], &all));
    if (!(half >= 0 && all >= half)) {
      printf("FAIL: events out of order: %g ms to the middle, %g to the end\n", half, all);
      rt.failures++;
    }
    for (int i = 0; i < 3; i++) RT_CHECK(&rt, kcrt_event_destroy(ev[i]));
    RT_CHECK(&rt, kcrt_buffer_free(other));
    RT_CHECK(&rt, kcrt_buffer_free(dx));
    RT_CHECK(&rt, kcrt_buffer_free(dy));
    free(x), free(inc), free(got);
  }

  /* Fills and copies at offsets that are not whole words, and a transfer larger than the
   * 8 MiB staging buffer. */
  size_t big = (9u << 20) + 13;
  unsigned char *h = malloc(big), *back = malloc(big);
  for (size_t i = 0; i < big; i++) h[i] = (unsigned char)(i * 7 + 3);
  kcrt_buffer *d1 = rt_upload(&rt, h, big), *d2 = rt_alloc(&rt, big);
  RT_CHECK(&rt, kcrt_buffer_copy(d2, 0, d1, 0, big));
  RT_CHECK(&rt, kcrt_buffer_fill(d2, 5, 0x5a, 11));
  RT_CHECK(&rt, kcrt_buffer_copy(d2, 101, d1, 3, 17));
  for (size_t i = 5; i < 16; i++) h[i] = 0x5a;
  for (size_t i = 0; i < 17; i++) h[101 + i] = (unsigned char)((3 + i) * 7 + 3);
  rt_download(&rt, d2, back, big);
  if (memcmp(back, h, big)) {
    size_t i = 0;
    while (back[i] == h[i]) i++;
    printf("FAIL: byte %zu is %u, expected %u\n", i, back[i], h[i]);
    rt.failures++;
  }
  RT_CHECK(&rt, kcrt_buffer_free(va));
  free(a), free(b), free(c), free(want), free(h), free(back);
  return rt_finish(&rt, "%d elements, 3 block shapes, 300 launches in batches, 9 MiB transfers", n);
}
