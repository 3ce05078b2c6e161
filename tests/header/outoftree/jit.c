/* jit.c — libkcc from an installed kcc (kcc::libkcc): compile a kernel in process to PTX. */
#include <libkcc.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  const char *src = "kernel void k(float *p) { p[threadIdx.x] *= 2.0f; }\n";
  const char *opts[] = {"--emit=ptx", "-arch=sm_80"};
  kcc_result *r;
  kcc_status st = kcc_compile(src, strlen(src), "k.k", opts, 2, &r);
  const char *ptx = st == KCC_SUCCESS ? kcc_result_output(r, NULL) : NULL;
  int ok = ptx && strstr(ptx, ".target sm_80") && strstr(ptx, ".entry k(");
  printf("libkcc %s: %s\n", kcc_version(), ok ? "OK" : kcc_result_log(r));
  kcc_result_free(r);
  return !ok;
}
