// mul_hi and mad_hi on every integer type, scalars and 2-, 3-, 4-vectors: OpSMulExtended /
// OpUMulExtended (32, 64 bits) or a widened product (8, 16 bits) in the Vulkan form.
// python/tests/test_cl_mulhi.py runs them against a reference.
#define MH(T)                                                                                      \
  __kernel void mh_##T(__global T *p, __global T##2 * p2, __global T##3 * p3,                      \
                       __global T##4 * p4) {                                                       \
    size_t i = get_global_id(0);                                                                   \
    p[i] = mad_hi(p[i + 1], p[i + 2], mul_hi(p[i + 3], p[i + 4]));                                 \
    p2[i] = mad_hi(p2[i + 1], p2[i + 2], mul_hi(p2[i + 3], p2[i + 4]));                            \
    p3[i] = mad_hi(p3[i + 1], p3[i + 2], mul_hi(p3[i + 3], p3[i + 4]));                            \
    p4[i] = mad_hi(p4[i + 1], p4[i + 2], mul_hi(p4[i + 3], p4[i + 4]));                            \
  }
MH(char)
MH(uchar)
MH(short)
MH(ushort)
MH(int)
MH(uint)
MH(long)
MH(ulong)
