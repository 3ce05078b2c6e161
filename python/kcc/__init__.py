"""kcc: compile GPU kernels in process and launch them, numba-style, on any device libkcrt
runs (NVIDIA GPUs through CUDA, everything else through OpenCL).

    import kcc, numpy as np
    mod = kcc.compile('''
    kernel void vecadd(const float *a, const float *b, float *c, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) c[i] = a[i] + b[i];
    }''')
    a = np.random.rand(1000).astype(np.float32); b = np.ones_like(a); c = np.empty_like(a)
    mod.vecadd[(1000 + 255) // 256, 256](a, b, c, 1000)   # c is copied back

docs/python.md is the manual.
"""
from ._core import (Device, DeviceArray, Event, Kernel, MemoryPool, Module, Stream,
                    __version__, compile, compile_file, device_array, device_array_like,
                    devices, emit, event_elapsed_time, get_default_memory_pool, get_device,
                    load, local, select_device, set_memory_pool, stats, synchronize,
                    to_device)
from ._image import Image, Sampler, Surface, Texture
from ._elementwise import ElementwiseKernel, ReductionKernel, ScanKernel
from ._errors import (BuildFailedError, CompileError, DriverError, Error, InvalidArgumentError,
                      InvalidLaunchError, InvalidModuleError, InvalidOptionError,
                      InvalidValueError, KcrtError, KcrtIOError, KernelNotFoundError,
                      KccWarning, LaunchFailedError, NoBinaryError, NoDeviceError,
                      NotSupportedError, OutOfBoundsError, OutOfMemoryError,
                      SymbolNotFoundError)
from . import _array, _dask
from ._array import (arange, argmax, argmin, array, asarray, ascontiguousarray, asnumpy,
                     broadcast_to, clip, concatenate, cumprod, cumsum, dot, empty, empty_like,
                     expand_dims, full, full_like, linspace, matmul, mean, ones, ones_like,
                     ravel, reshape, squeeze, stack, std, swapaxes, transpose, var, vdot, where,
                     zeros, zeros_like)
from . import linalg  # kcc.linalg.norm

newaxis = None  # NumPy's and CuPy's: d[:, kcc.newaxis] adds a dimension of length 1

_dask.hook()  # Dask's serializers for kcc arrays, once distributed.protocol is imported
_array._install(DeviceArray)  # NumPy's operators and methods on device arrays
globals().update(_array.UFUNCS)  # kcc.sqrt, kcc.exp ... element by element
globals().update(_array.BINFUNCS)  # kcc.maximum, kcc.add ...
globals().update(_array.REDUCTIONS)  # kcc.sum, kcc.max ...
_ARRAY_API = ["arange", "argmax", "argmin", "array", "asarray", "ascontiguousarray",
              "asnumpy", "broadcast_to", "clip", "concatenate", "cumprod", "cumsum", "dot",
              "empty", "empty_like", "expand_dims", "full", "full_like", "linspace", "matmul",
              "mean", "ones", "ones_like", "ravel", "reshape", "squeeze", "stack", "std",
              "swapaxes", "transpose", "var", "vdot", "where", "zeros", "zeros_like"] + \
    sorted(_array.UFUNCS) + sorted(_array.BINFUNCS) + sorted(_array.REDUCTIONS)

_NUMBA_TYPES = {n: n for n in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                "uint64", "float32", "float64", "intp", "uintp")}
_NUMBA_TYPES.update(boolean="bool_", b1="bool_", i1="int8", i2="int16", i4="int32", i8="int64",
                    u1="uint8", u2="uint16", u4="uint32", u8="uint64", f4="float32",
                    f8="float64")


def __getattr__(name):
    """kcc.jit and kcc.cuda, imported when first used (so that `import kcc` stays fast)."""
    if name == "jit":
        from ._jitdispatch import jit
        return jit
    if name == "cuda":
        import importlib
        return importlib.import_module(".cuda", __name__)
    if name in _NUMBA_TYPES:
        # numba's scalar types (`from numba import cuda, float32` becomes `from kcc import
        # cuda, float32`): numpy's, which kernels take as dtypes and casts alike
        import numpy
        return getattr(numpy, _NUMBA_TYPES[name])
    raise AttributeError("module 'kcc' has no attribute %r" % name)


__all__ = [
    "jit", "Device", "DeviceArray", "ElementwiseKernel", "Event", "Image", "Kernel",
    "MemoryPool", "Module", "Sampler", "Surface", "Texture", "get_default_memory_pool",
    "set_memory_pool",
    "ReductionKernel", "ScanKernel", "Stream", "compile", "compile_file",
    "device_array", "device_array_like", "devices", "emit", "event_elapsed_time", "get_device",
    "load", "local", "select_device", "stats", "synchronize", "to_device", "Error",
    "CompileError", "InvalidOptionError", "KcrtError", "NoDeviceError", "InvalidValueError",
    "OutOfMemoryError", "InvalidModuleError", "KernelNotFoundError", "InvalidArgumentError",
    "InvalidLaunchError", "BuildFailedError", "NoBinaryError", "DriverError", "KcrtIOError",
    "NotSupportedError", "LaunchFailedError", "SymbolNotFoundError", "OutOfBoundsError",
    "KccWarning",
] + _ARRAY_API
