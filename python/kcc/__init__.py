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
from ._core import (Device, DeviceArray, Event, Kernel, Module, Stream, __version__, compile,
                    compile_file, device_array, device_array_like, devices, emit,
                    event_elapsed_time, get_device, load, local, select_device, stats,
                    synchronize, to_device)
from ._elementwise import ElementwiseKernel, ReductionKernel
from ._errors import (BuildFailedError, CompileError, DriverError, Error, InvalidArgumentError,
                      InvalidLaunchError, InvalidModuleError, InvalidOptionError,
                      InvalidValueError, KcrtError, KcrtIOError, KernelNotFoundError,
                      KccWarning, LaunchFailedError, NoBinaryError, NoDeviceError,
                      NotSupportedError, OutOfBoundsError, OutOfMemoryError,
                      SymbolNotFoundError)
from . import _array, _dask
from ._array import (arange, array, asarray, clip, empty, empty_like, full, full_like,
                     linspace, mean, ones, ones_like, where, zeros, zeros_like)

_dask.hook()  # Dask's serializers for kcc arrays, once distributed.protocol is imported
_array._install(DeviceArray)  # NumPy's operators and methods on device arrays
globals().update(_array.UFUNCS)  # kcc.sqrt, kcc.exp ... element by element
globals().update(_array.BINFUNCS)  # kcc.maximum, kcc.add ...
globals().update(_array.REDUCTIONS)  # kcc.sum, kcc.max ...
_ARRAY_API = ["arange", "array", "asarray", "clip", "empty", "empty_like", "full", "full_like",
              "linspace", "mean", "ones", "ones_like", "where", "zeros", "zeros_like"] + \
    sorted(_array.UFUNCS) + sorted(_array.BINFUNCS) + sorted(_array.REDUCTIONS)

__all__ = [
    "Device", "DeviceArray", "ElementwiseKernel", "Event", "Kernel", "Module",
    "ReductionKernel", "Stream", "compile", "compile_file",
    "device_array", "device_array_like", "devices", "emit", "event_elapsed_time", "get_device",
    "load", "local", "select_device", "stats", "synchronize", "to_device", "Error",
    "CompileError", "InvalidOptionError", "KcrtError", "NoDeviceError", "InvalidValueError",
    "OutOfMemoryError", "InvalidModuleError", "KernelNotFoundError", "InvalidArgumentError",
    "InvalidLaunchError", "BuildFailedError", "NoBinaryError", "DriverError", "KcrtIOError",
    "NotSupportedError", "LaunchFailedError", "SymbolNotFoundError", "OutOfBoundsError",
    "KccWarning",
] + _ARRAY_API
