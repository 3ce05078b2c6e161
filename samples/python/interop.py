"""A kcc kernel on PyTorch and CuPy arrays, where those are installed. On a CUDA device their
GPU arrays are used in place (__cuda_array_interface__: no copies), and kcc's device arrays
are seen by them in place too; on other devices (OpenCL) the arrays go through the host."""
import numpy as np

import kcc

mod = kcc.compile("""
kernel void saxpy(float *y, const float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
""", options=["-ffp-contract=off"])
n = 1 << 16
grid = (n + 255) // 256
cuda = kcc.get_device().backend == "cuda"
ran = False
try:
    import torch
    on_gpu = cuda and torch.cuda.is_available()
    x = torch.rand(n, device="cuda" if on_gpu else "cpu")
    y = torch.rand(n, device=x.device)
    ref = 2 * x + y
    if on_gpu:
        mod.saxpy[grid, 256](y, x, 2.0, n)  # the tensors themselves
    else:
        mod.saxpy[grid, 256](y.numpy(), x.numpy(), 2.0, n)  # numpy views of CPU tensors
    print("PyTorch (%s): %s" % ("in place on the GPU" if on_gpu else "through the host",
                                "equal" if torch.equal(y, ref) else "WRONG"))
    ran = True
except ImportError:
    print("PyTorch: not installed, skipped")
try:
    import cupy
    x = cupy.random.rand(n, dtype=cupy.float32)
    y = cupy.random.rand(n, dtype=cupy.float32)
    ref = cupy.asnumpy(2 * x + y)
    if cuda:
        mod.saxpy[grid, 256](y, x, 2.0, n)
        got = cupy.asnumpy(y)
        d = kcc.to_device(ref)
        shared = cupy.asarray(d)  # a CuPy view of kcc's array, no copy
        same = bool((shared == cupy.asarray(ref)).all())
        print("CuPy (in place on the GPU): %s; CuPy view of a kcc array: %s"
              % ("equal" if np.array_equal(got, ref) else "WRONG", "equal" if same else "WRONG"))
    else:
        yn = cupy.asnumpy(y)
        mod.saxpy[grid, 256](yn, cupy.asnumpy(x), 2.0, n)
        print("CuPy (through the host): %s" % ("equal" if np.array_equal(yn, ref) else "WRONG"))
    ran = True
except ImportError:
    print("CuPy: not installed, skipped")
if not ran:
    print("(neither PyTorch nor CuPy here: nothing to show)")
