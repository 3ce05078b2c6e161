/* test_opencl_fe.c — the OpenCL C front end: each kernel of tests/cl/NAME.cl lowers to exactly
 * the KIR of tests/cl/NAME.kir (kcc --emit=kir), and the parse mode's choices (spir64 sizes,
 * -x cl, -cl-std=) hold. The bad inputs are tests/cl/bad (tests/cl.cmake). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(kir_dumps) {
  char *list, cmd[2048];
  snprintf(cmd, sizeof cmd, "ls %s/cl/*.cl", tu_srcdir());
  tu_sh(cmd, &list, NULL);
  int n = 0;
  char *save = NULL;
  for (char *line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char golden[1024];
    snprintf(golden, sizeof golden, "%.*s.kir", (int)(strlen(line) - 3), line);
    char *want = tu_read(golden, NULL);
    ck_assert_msg(want != NULL, "missing %s", golden);
    /* The dump names the module after the input as given: run from its directory. */
    const char *base = strrchr(line, '/') + 1;
    /* A `// kcc-args: ...` line adds options (-cl-std=CL2.0), as for tests/cl.cmake. */
    snprintf(cmd, sizeof cmd,
             "cd %s/cl && %s $(sed -n 's,^// kcc-args: ,,p' %s) %s --emit=kir -o -", tu_srcdir(),
             tu_kcc(), base, base);
    char *out, *err;
    int st = tu_sh(cmd, &out, &err);
    ck_assert_msg(st == 0 && !*err, "%s: exit %d\n%s", line, st, err);
    ck_assert_msg(!strcmp(out, want), "%s: KIR differs from %s:\n%s", line, golden, out);
    free(want), free(out), free(err);
    n++;
  }
  ck_assert_int_gt(n, 0);
}
END_TEST

static char *kir_of(const char *name, const char *src, const char *args) {
  char *path = tu_write(name, src), cmd[2048];
  snprintf(cmd, sizeof cmd, "%s %s %s --emit=kir -o -", tu_kcc(), args, path);
  char *out, *err;
  int st = tu_sh(cmd, &out, &err);
  ck_assert_msg(st == 0, "%s: exit %d\n%s", name, st, err);
  free(err);
  return out;
}

#define HAS(text, needle)                                                                          \
  ck_assert_msg(strstr((text), (needle)), "missing '%s' in:\n%s", (needle), (text))

/* Images and samplers: their types, constant samplers folded to their CLK_* bits, and
 * __IMAGE_SUPPORT__ predefined (every form carries images: frontend/opencl/opencl.c). */
START_TEST(images) {
  char *k = kir_of("img.cl",
                   "#if __IMAGE_SUPPORT__ != 1\n#error not predefined\n#endif\n"
                   "__kernel void k(read_write image2d_t a, read_only image2d_t b, sampler_t s,\n"
                   "                __global float4 *o) {\n"
                   "  const sampler_t c = CLK_ADDRESS_CLAMP | CLK_NORMALIZED_COORDS_TRUE;\n"
                   "  o[0] = read_imagef(b, c, (float2)(0.5f)) + read_imagef(b, s, (int2)(1));\n"
                   "  write_imagef(a, (int2)(0), read_imagef(a, (int2)(2)));\n"
                   "}\n",
                   "-cl-std=CL2.0");
  HAS(k, "kernel void k(read_write image2d_t a, read_only image2d_t b, sampler_t s, global "
         "float4 * o)");
  /* No filter flag is the nearest filter: 0x4 | 0x1 | 0x10. */
  HAS(k, "(builtin read_image float4 (var b) (const sampler_t 21) (splat float2");
  HAS(k, "(builtin read_image float4 (var b) (var s) (splat int2");
  HAS(k, "(builtin write_image void (var a) (splat int2");
  HAS(k, "(builtin read_image float4 (var a) (splat int2");
  free(k);
}
END_TEST

/* long and size_t are 64-bit, as OpenCL C has them on 64-bit devices. */
START_TEST(sizes) {
  char *k = kir_of("sizes.cl",
                   "__kernel void k(__global ulong *o) { o[0] = sizeof(long) * 100 + "
                   "sizeof(size_t) * 10 + sizeof(int); }\n",
                   "");
  HAS(k, "(mul unsigned long (const unsigned long 8) (const unsigned long 100)) (mul unsigned long "
         "(const unsigned long 8) (const unsigned long 10))");
  free(k);
}
END_TEST

/* -x cl reads any file as OpenCL C; the same text is no .k kernel. */
START_TEST(x_cl) {
  const char *src = "__kernel void k(__global int *o) { o[0] = get_local_id(0); }\n";
  char *k = kir_of("x.k", src, "-x cl");
  HAS(k, "kernel void k(global int * o)");
  free(k);
  char *path = tu_write("x2.k", src), cmd[2048], *err;
  snprintf(cmd, sizeof cmd, "%s %s --emit=kir -o /dev/null", tu_kcc(), path);
  ck_assert_int_eq(tu_sh(cmd, NULL, &err), 1);
  free(err);
}
END_TEST

/* -cl-std=CL2.0 gives the generic address space: an unqualified pointer parameter of a
 * device function takes global and local pointers (cloned per space by the pass). */
START_TEST(cl20_generic) {
  char *k = kir_of("g.cl",
                   "int get(int *p) { return *p; }\n"
                   "__kernel void k(__global int *o) {\n"
                   "  __local int l[4];\n"
                   "  l[0] = 1;\n"
                   "  o[0] = get(o) + get(l);\n"
                   "}\n",
                   "-cl-std=CL2.0");
  HAS(k, "int get(global int * p)");
  HAS(k, "int get_1(shared int * p)");
  free(k);
}
END_TEST

/* The math built-ins with a pointer output (kcc's prelude definitions) take the generic
 * address space in OpenCL C 2.0: one overload, cloned for each space a call passes. */
START_TEST(cl20_math_pointers) {
  char *k = kir_of("m.cl",
                   "__kernel void k(__global float4 *o, __global int4 *e) {\n"
                   "  __local float l[4];\n"
                   "  int q;\n"
                   "  float4 ip;\n"
                   "  o[0] = frexp(o[1], e);\n"
                   "  o[2] = modf(o[3], &ip) + ip;\n"
                   "  o[4].x = remquo(o[4].y, o[4].z, &q) + q + fract(o[4].w, &l[0]) + l[0];\n"
                   "}\n",
                   "-cl-std=CL2.0");
  HAS(k, "__kcc_frexp_float4_int4_p(float4 x, global int4 * out)");
  HAS(k, "__kcc_modf_float4_float4_p(float4 x, private float4 * out)");
  HAS(k, "__kcc_remquo_float_float_int_p(float x, float y, private int * out)");
  HAS(k, "__kcc_fract_float_float_p(float x, shared float * out)");
  free(k);
}
END_TEST

int main(void) {
  Suite *s = suite_create("opencl_fe");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, kir_dumps);
  tcase_add_test(tc, sizes);
  tcase_add_test(tc, images);
  tcase_add_test(tc, x_cl);
  tcase_add_test(tc, cl20_generic);
  tcase_add_test(tc, cl20_math_pointers);
  suite_add_tcase(s, tc);
  return tu_main(s);
}
