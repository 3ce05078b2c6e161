"""PyCUDA's first example (SourceModule, multiply_them), on any device. PyCUDA's drv.Out/drv.In
become plain numpy arrays: `const` parameters are copied in, the others in and back out."""
import numpy as np

import kcc

mod = kcc.compile("""
kernel void multiply_them(float *dest, const float *a, const float *b) {
    const int i = threadIdx.x;
    dest[i] = a[i] * b[i];
}
""")
multiply_them = mod.multiply_them

a = np.random.randn(400).astype(np.float32)
b = np.random.randn(400).astype(np.float32)
dest = np.zeros_like(a)
multiply_them[1, 400](dest, a, b)  # PyCUDA: multiply_them(drv.Out(dest), drv.In(a), drv.In(b),
                                   #                       block=(400, 1, 1), grid=(1, 1))
print("max |dest - a*b| = %g" % np.max(np.abs(dest - a * b)))
raise SystemExit(0 if np.array_equal(dest, a * b) else 1)
