/* wrong_type.c — what the C (and C++) compiler must refuse in a call to a generated launch
 * function. compile_fail.sh compiles it once per -D case and expects:
 *   KCC_TEST_CORRECT        compiles (so the failures below come from the case, not setup)
 *   KCC_TEST_WRONG_BUFFER   an int buffer for `float *out`: an error naming both types
 *   KCC_TEST_RAW_BUFFER     an untyped kcrt_buffer * for `float *out`: an error
 *   KCC_TEST_LAYOUT         the program's own struct Params laid out differently: an error
 *                           naming the field */
#ifdef KCC_TEST_LAYOUT
struct Params {
  float scale;
  double bias;
  int offset;
};
#define KCC_STRUCT_Params /* "use mine" */
#endif

#include "ops_a.h"

kcrt_status launch(kcrt_device *dev, kcc_buf_float floats, kcc_buf_int32 ints, kcrt_buffer *raw);

kcrt_status launch(kcrt_device *dev, kcc_buf_float floats, kcc_buf_int32 ints, kcrt_buffer *raw) {
  struct Params p;
  p.scale = 2;
  p.offset = 1;
  p.bias = 0;
  (void)ints, (void)raw;
#if defined(KCC_TEST_WRONG_BUFFER)
  return ops_a_k_launch_scale(dev, kcc_dim1(1), kcc_dim1(64), 0, NULL, ints, floats, p, 64);
#elif defined(KCC_TEST_RAW_BUFFER)
  return ops_a_k_launch_scale(dev, kcc_dim1(1), kcc_dim1(64), 0, NULL, raw, floats, p, 64);
#else
  return ops_a_k_launch_scale(dev, kcc_dim1(1), kcc_dim1(64), 0, NULL, floats, floats, p, 64);
#endif
}
