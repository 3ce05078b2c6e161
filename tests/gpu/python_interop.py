#!/usr/bin/env python3
"""python_interop.py — zero-copy exchange between kcc and CuPy / PyTorch on a CUDA GPU
(tests/gpu/python_run.sh runs it; the CPU suite checks the refusals off CUDA).

    python3 tests/gpu/python_interop.py VECADD.kcb

VECADD.kcb holds `vecadd(const float *a, const float *b, float *c, int n)`. Checks, each on
fresh random inputs against numpy, every element: kcc kernels on CuPy arrays and PyTorch
tensors in place; CuPy and PyTorch views of kcc device arrays sharing their memory (a write
through either shows in the other); an array produced on another library's non-default stream;
and the refusals (non-contiguous, wrong dtype). Prints one line per check; exit 1 on failure.
"""
import sys

import numpy as np

import kcc

failures = 0


def check(what, ok, detail=""):
    global failures
    print("%s %s%s" % ("PASS" if ok else "FAIL", what, (": " + detail) if detail and not ok else ""))
    failures += 0 if ok else 1


def main():
    cuda = [d for d in kcc.devices() if d.backend == "cuda"]
    if not cuda:
        print("SKIP no CUDA device")
        return 77
    kcc.select_device(cuda[0].index)
    mod = kcc.load(sys.argv[1])
    rng = np.random.default_rng()
    n = 1 << 20 | 123
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    grid = (n + 255) // 256
    check("device fp64", kcc.get_device().fp64 is True)

    try:
        import cupy
    except Exception as e:  # noqa: BLE001 - any import failure means no CuPy rows
        print("SKIP cupy: %s" % e)
        cupy = None
    if cupy is not None:
        ca, cb, cc = cupy.asarray(a), cupy.asarray(b), cupy.empty(n, cupy.float32)
        mod.vecadd[grid, 256](ca, cb, cc, n)
        check("kcc kernel on CuPy arrays", np.array_equal(cupy.asnumpy(cc), a + b))
        d = kcc.to_device(a)
        view = cupy.asarray(d)
        check("CuPy view of a kcc array shares its memory",
              view.data.ptr == d.__cuda_array_interface__["data"][0])
        view *= 2
        cupy.cuda.Device().synchronize()
        check("a CuPy write shows in the kcc array", np.array_equal(d.copy_to_host(), a * 2))
        mod.vecadd[grid, 256](d, d, d, n)
        check("a kcc write shows in the CuPy view", np.array_equal(cupy.asnumpy(view), a * 4))
        s = cupy.cuda.Stream(non_blocking=True)
        with s:
            sa = cupy.asarray(a) * 3  # queued on s: kcc must wait for it
            out = cupy.zeros(n, cupy.float32)
            mod.vecadd[grid, 256](sa, cb, out, n)
        check("an array made on a non-default CuPy stream", np.array_equal(cupy.asnumpy(out),
                                                                           a * 3 + b))
        try:
            mod.vecadd[grid, 256](ca[::2], cb, cc, n // 2)
            check("a non-contiguous CuPy array is refused", False, "no error")
        except ValueError as e:
            check("a non-contiguous CuPy array is refused", "not C-contiguous" in str(e), str(e))
        try:
            mod.vecadd[grid, 256](cupy.zeros(n, cupy.float64), cb, cc, n)
            check("a float64 CuPy array is refused", False, "no error")
        except TypeError as e:
            check("a float64 CuPy array is refused", "float64" in str(e), str(e))

    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError("no CUDA in torch")
    except Exception as e:  # noqa: BLE001
        print("SKIP torch: %s" % e)
        torch = None
    if torch is not None:
        ta = torch.from_numpy(a).cuda()
        tb = torch.from_numpy(b).cuda()
        tc = torch.empty(n, dtype=torch.float32, device="cuda")
        mod.vecadd[grid, 256](ta, tb, tc, n)
        check("kcc kernel on PyTorch tensors", np.array_equal(tc.cpu().numpy(), a + b))
        d = kcc.to_device(b)
        t = torch.as_tensor(d, device="cuda")
        check("PyTorch view of a kcc array shares its memory",
              t.data_ptr() == d.__cuda_array_interface__["data"][0])
        t.mul_(2)
        torch.cuda.synchronize()
        check("a PyTorch write shows in the kcc array", np.array_equal(d.copy_to_host(), b * 2))
        # DLPack, both ways: torch.from_dlpack of a kcc array, and a kcc kernel on a tensor
        # seen only through __dlpack__.
        e = kcc.to_device(a)
        te = torch.from_dlpack(e)
        check("torch.from_dlpack of a kcc array shares its memory",
              te.data_ptr() == e.__cuda_array_interface__["data"][0])
        check("torch.from_dlpack reads the values", np.array_equal(te.cpu().numpy(), a))

        class OnlyDLPack:
            def __init__(self, t):
                self.t = t

            def __dlpack__(self, stream=None):
                return self.t.__dlpack__(stream=stream)

        out = torch.zeros(n, dtype=torch.float32, device="cuda")
        mod.vecadd[grid, 256](OnlyDLPack(ta), OnlyDLPack(tb), OnlyDLPack(out), n)
        check("kcc kernel on tensors through DLPack only", np.array_equal(out.cpu().numpy(),
                                                                          a + b))
        del te

    try:
        import os
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        import jax
        import jax.numpy as jnp
        gpus = [x for x in jax.devices() if x.platform == "gpu"]
        if not gpus:
            raise RuntimeError("no GPU in jax")
    except Exception as e:  # noqa: BLE001
        print("SKIP jax: %s" % e)
        jax = None
    if jax is not None:
        ja = jax.device_put(jnp.asarray(a), gpus[0])
        jb = jax.device_put(jnp.asarray(b), gpus[0])
        d = kcc.device_array(n, np.float32)
        mod.vecadd[grid, 256](ja, jb, d, n)  # JAX arrays: DLPack only, read-only
        check("kcc kernel on JAX arrays (DLPack)", np.array_equal(d.copy_to_host(), a + b))
    print("%s python interop: %d failure(s)" % ("FAIL" if failures else "PASS", failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
