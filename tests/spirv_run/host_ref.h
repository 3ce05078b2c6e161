/* host_ref.h — host references built from the kernel sources (host_ref.c). */
#ifndef KCC_HOST_REF_H
#define KCC_HOST_REF_H
void ref_control(const int *in, int *out, int n);
void ref_int64(const long *in, unsigned long *out, int n);
void ref_lookup(const unsigned int *in, float *out, int n);
#endif
