/* rk_ref_main.h — the end of every generated host reference (rkgen.py writes BATCH_ref.c:
 * the kernels' code as plain C, then rk_refs[], the kernels' numbers and kJ_ref functions,
 * then this).
 *   BATCH_ref SEED OUT: writes the reference outputs in rk_run's format (rk_io.h). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s SEED OUT\n", argv[0]);
    return 1;
  }
  uint64_t seed = strtoull(argv[1], NULL, 0);
  FILE *f = fopen(argv[2], "wb");
  if (!f) {
    perror(argv[2]);
    return 1;
  }
  static RkInputs in;
  static RkOutputs o;
  for (int k = 0; k < (int)(sizeof rk_refs / sizeof rk_refs[0]); k++) {
    rk_inputs(&in, seed, rk_refs[k].index);
    rk_outputs_init(&o);
    rk_refs[k].fn(in.ia, in.ua, in.la, in.fa, in.da, o.ou, o.of, o.od, o.acc, o.acci, o.accl,
                  in.prm);
    if (fwrite(&o, sizeof o, 1, f) != 1) return 1;
  }
  return fclose(f) != 0;
}
