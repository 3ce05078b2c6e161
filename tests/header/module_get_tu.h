/* module_get_tu.h — the second translation unit of the header test program (module_get_tu.c). */
#ifndef KCC_TEST_MODULE_GET_TU_H
#define KCC_TEST_MODULE_GET_TU_H

#include <kcrt.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Runs ops_a.h's scale kernel from this translation unit; returns the number of failures. */
int module_get_tu_run(kcrt_device *dev, unsigned seed);
#ifdef __cplusplus
}
#endif

#endif
