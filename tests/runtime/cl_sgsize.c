/* cl_sgsize.c — runs tests/runtime/cl_sgsize.cl (kernels with intel_reqd_sub_group_size 16
 * and 8) on random inputs, with 1-D and 2-D work-groups, some of a size that is not a
 * multiple of 32 nor of the subgroup width (a partial last subgroup) and one smaller than a
 * subgroup, and compares every result with a host model of N-wide subgroups: subgroup i of a
 * work-group is its work-items Ni..Ni+N-1 by linear local id (x + y * size x), the last one
 * partial (OpenCL's layout for a required size, and kcc's segments of a warp on CUDA).
 *
 * Usage: rt_cl_sgsize BUNDLE.kcb [--refusal]. A device that cannot give the required sizes
 * (no cl_khr_subgroups, as PoCL 3 here; or no cl_intel_required_subgroup_size listing them)
 * is refused by libkcrt with KCRT_ERROR_NOT_SUPPORTED: with --refusal that refusal is what
 * the test expects, without it the run is a skip (exit 77), as it is on Vulkan, whose form
 * kcc refuses for such kernels (the bundle has none). */
#include "rt_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OUTS = 26 };
#define DC 0x5a5a5a5a /* undefined in OpenCL (a missing lane): not compared */

static int imin(int a, int b) {
  return a < b ? a : b;
}
static int imax(int a, int b) {
  return a > b ? a : b;
}

/* want[t * OUTS + j] for the work-items of one launch: grid gx x gy of blocks bx x by. */
static void model(int N, int gx, int gy, int bx, int by, const int *in, int *want) {
  int gsx = gx * bx, bs = bx * by, nsg = (bs + N - 1) / N;
  for (int b = 0; b < gx * gy; b++) {
    int ox = (b % gx) * bx, oy = (b / gx) * by;
    for (int s = 0; s < nsg; s++) {
      int n = imin(N, bs - s * N), g[32], v[32];
      for (int l = 0; l < n; l++) {
        int ll = s * N + l;
        g[l] = (ox + ll % bx) + gsx * (oy + ll / bx);
        v[l] = in[g[l]];
      }
      int sum = 0, mn = v[0], mx = v[0], sum8 = 0, lsum = 0;
      unsigned odd = 0, pos = 0, any = 0, all = 1;
      for (int l = 0; l < n; l++) {
        sum += v[l], mn = imin(mn, v[l]), mx = imax(mx, v[l]), sum8 += v[l] & 0xff, lsum += l;
        odd |= (unsigned)(v[l] & 1) << l, pos |= (unsigned)(v[l] > 0) << l;
        any |= v[l] > 400, all &= v[l] > -450;
      }
      int isum = 0, imx = 0, emin = 0x7fffffff;
      for (int l = 0; l < n; l++) {
        int *w = want + (size_t)g[l] * OUTS;
        w[0] = n, w[1] = imin(N, bs), w[2] = nsg, w[3] = nsg, w[4] = s, w[5] = l;
        w[6] = v[n - 1];
        w[7] = v[(l + 3) % n];
        w[8] = (l ^ 1) < n ? v[l ^ 1] : DC;
        w[9] = (l ^ (N / 2)) < n ? v[l ^ (N / 2)] : DC;
        w[10] = sum, w[11] = mn, w[12] = mx;
        w[14] = isum;
        w[16] = emin;
        isum += v[l], imx = l ? imax(imx, v[l]) : v[l], emin = imin(emin, v[l]);
        w[13] = isum, w[15] = imx;
        w[17] = (int)any, w[18] = (int)all;
        w[19] = (int)odd, w[20] = __builtin_popcount(pos), w[21] = 0;
        w[22] = l >= 1 ? v[l - 1] : DC;
        w[23] = l + 2 < n ? v[l + 2] : DC;
        w[24] = v[(l + 1) % n];
        w[25] = sum8 + lsum;
      }
    }
  }
}

int main(int argc, char **argv) {
  Rt rt;
  bool refusal = argc > 2 && !strcmp(argv[2], "--refusal");
  rt_open(&rt, argc, argv, "cl_sgsize");
  kcrt_status st = kcrt_module_load_file(rt.dev, argv[1], &rt.mod);
  if (st == KCRT_ERROR_NOT_SUPPORTED) {
    const char *got = kcrt_last_error();
    char want[600];
    snprintf(want, sizeof want,
             "kernel 'sg16' uses OpenCL subgroup functions; device '%s' has no subgroups "
             "(it lacks cl_khr_subgroups)",
             rt.info.name);
    char want2[600];
    snprintf(want2, sizeof want2,
             "kernel 'sg16' requires subgroups of 16 (intel_reqd_sub_group_size); device '%s' "
             "cannot give them (",
             rt.info.name);
    if (!refusal) {
      printf("SKIP cl_sgsize: refused on %s: %s\n", rt.info.name, got);
      kcrt_device_close(rt.dev);
      return 77;
    }
    if (strcmp(got, want) && strncmp(got, want2, strlen(want2)))
      rt_fail(&rt, "refusal message\n  got:  %s\n  want: %s\n  or:   %s...", got, want, want2);
    return rt_finish(&rt, "KCRT_ERROR_NOT_SUPPORTED as expected: %s", got);
  }
  /* The Vulkan form refuses required subgroup sizes, and the bundle goes without it. */
  if (st == KCRT_ERROR_NO_BINARY && rt.info.backend == KCRT_BACKEND_VULKAN) {
    printf("SKIP cl_sgsize: no Vulkan form (kcc refuses intel_reqd_sub_group_size there): %s\n",
           kcrt_last_error());
    kcrt_device_close(rt.dev);
    return 77;
  }
  RT_CHECK(&rt, st);
  if (refusal)
    rt_fail(&rt, "the module loaded on %s, which was expected to refuse it", rt.info.name);
  /* Blocks: 1-D whole, partial (not a multiple of 32 nor of N), smaller than a subgroup;
     2-D with rows shorter than a subgroup. */
  static const int shapes[][2] = {{64, 1}, {48, 1}, {37, 1}, {100, 1}, {5, 1},
                                  {8, 5},  {6, 7},  {16, 3}, {13, 3},  {3, 2}};
  static const char *const names[] = {"sg16", "sg8"};
  int launches = 0;
  size_t checked = 0;
  for (int k = 0; k < 2; k++) {
    int N = k ? 8 : 16;
    kcrt_kernel *kern = rt_kernel(&rt, names[k]);
    for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++) {
      int bx = shapes[sh][0], by = shapes[sh][1], gx = 3, gy = by > 1 ? 2 : 1;
      int nt = gx * gy * bx * by;
      int *in = rt_xalloc(sizeof(int) * (size_t)nt);
      for (int i = 0; i < nt; i++) in[i] = rt_int(&rt, -500, 500);
      size_t ob = sizeof(int) * (size_t)nt * OUTS;
      kcrt_buffer *out = rt_alloc(&rt, ob), *ib = rt_upload(&rt, in, sizeof(int) * (size_t)nt);
      size_t lds = sizeof(int) * (size_t)(bx * by);
      kcrt_arg args[] = {KCRT_ARG_BUFFER(out), KCRT_ARG_BUFFER(ib), KCRT_ARG_LOCAL(lds)};
      rt_launch(&rt, kern, (kcrt_dim3){(unsigned)gx, (unsigned)gy, 1},
                (kcrt_dim3){(unsigned)bx, (unsigned)by, 1}, 0, args, 3);
      int *got = rt_xalloc(ob), *want = rt_xalloc(ob);
      rt_download(&rt, out, got, ob);
      model(N, gx, gy, bx, by, in, want);
      int bad = 0;
      for (size_t i = 0; i < (size_t)nt * OUTS; i++) {
        if (want[i] == DC) continue;
        checked++;
        if (got[i] != want[i] && bad++ < 8)
          rt_fail(&rt, "%s, block %dx%d: work-item %zu, output %zu: got %d, want %d", names[k], bx,
                  by, i / OUTS, i % OUTS, got[i], want[i]);
      }
      kcrt_buffer_free(out);
      kcrt_buffer_free(ib);
      launches++;
    }
  }
  return rt_finish(&rt, "%d launches, %zu results compared", launches, checked);
}
