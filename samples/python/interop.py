"""A kcc kernel on PyTorch and CuPy arrays, where those are installed. Today through host
copies: kcc's device arrays do not yet exchange device pointers with other libraries
(__cuda_array_interface__ / DLPack need a device-pointer call in libkcrt; docs/python.md)."""
import numpy as np

import kcc

mod = kcc.compile("""
kernel void saxpy(float *y, const float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
""", options=["-ffp-contract=off"])
n = 1 << 16
ran = False
try:
    import torch
    x = torch.rand(n)
    y = torch.rand(n)
    ref = 2 * x + y
    yn = y.numpy()  # shares memory with y on the CPU
    mod.saxpy[(n + 255) // 256, 256](yn, x.numpy(), 2.0, n)
    print("PyTorch: %s" % ("equal" if torch.equal(y, ref) else "WRONG"))
    ran = True
except ImportError:
    print("PyTorch: not installed, skipped")
try:
    import cupy
    x = cupy.random.rand(n, dtype=cupy.float32)
    y = cupy.random.rand(n, dtype=cupy.float32)
    ref = cupy.asnumpy(2 * x + y)
    yn = cupy.asnumpy(y)
    mod.saxpy[(n + 255) // 256, 256](yn, cupy.asnumpy(x), 2.0, n)
    print("CuPy: %s" % ("equal" if np.array_equal(yn, ref) else "WRONG"))
    ran = True
except ImportError:
    print("CuPy: not installed, skipped")
if not ran:
    print("(neither PyTorch nor CuPy here: nothing to show)")
