"""numba.cuda's names over kcc, so that a numba-cuda program runs on every device kcc runs
on (NVIDIA through CUDA, anything else through OpenCL) with only its import changed:

    from kcc import cuda          # instead of: from numba import cuda

    @cuda.jit
    def increment_by_one(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] += 1

docs/python.md, "From numba", says what is covered and what differs."""
import sys as _sys

from . import _core
# re-exported: numba.cuda's names
from ._jit import (INTRINSICS as _I, atomic, blockDim, blockIdx, const, gridDim,  # noqa: F401
                   local, shared, threadIdx)
from ._jitdispatch import jit  # noqa: F401
from . import _cuda_random as random  # kcc.cuda.random: numba.cuda.random's generators

# `from kcc.cuda.random import ...` (kcc.cuda is a module, not a package)
_sys.modules[__name__ + ".random"] = random

# ---- inside kernels (markers the translator recognises; on the host they raise)
grid = _I["grid"]
gridsize = _I["gridsize"]
syncthreads = _I["syncthreads"]
syncthreads_count = _I["syncthreads_count"]
syncthreads_and = _I["syncthreads_and"]
syncthreads_or = _I["syncthreads_or"]
syncwarp = _I["syncwarp"]
threadfence = _I["threadfence"]
threadfence_block = _I["threadfence_block"]
threadfence_system = _I["threadfence_system"]
shfl_sync = _I["shfl_sync"]
shfl_up_sync = _I["shfl_up_sync"]
shfl_down_sync = _I["shfl_down_sync"]
shfl_xor_sync = _I["shfl_xor_sync"]
all_sync = _I["all_sync"]
any_sync = _I["any_sync"]
ballot_sync = _I["ballot_sync"]
activemask = _I["activemask"]
laneid = _I["laneid"]
warpsize = _I["warpsize"]
fma = _I["fma"]
popc = _I["popc"]
clz = _I["clz"]
ffs = _I["ffs"]
brev = _I["brev"]
cbrt = _I["cbrt"]
lanemask_lt = _I["lanemask_lt"]
match_any_sync = _I["match_any_sync"]

# ---- on the host


def _stream(stream):
    return None if stream is None or (isinstance(stream, int) and stream == 0) else stream


def to_device(obj, stream=0, copy=True, to=None):
    """A device array holding a copy of obj (numba: cuda.to_device); with `to`, copies obj
    into that device array."""
    if to is not None:
        to.copy_to_device(obj, stream=_stream(stream))
        return to
    np = _core._numpy()
    if not copy:
        a = np.asarray(obj)
        return _core.device_array(a.shape, a.dtype)
    return _core.to_device(np.asarray(obj), stream=_stream(stream))


def device_array(shape, dtype=None, strides=None, order="C", stream=0):
    """An uninitialised device array (numba's default dtype: float64)."""
    if order != "C" or strides is not None:
        raise NotImplementedError("kcc device arrays are C-contiguous")
    np = _core._numpy()
    return _core.device_array(shape, np.float64 if dtype is None else dtype)


def device_array_like(ary, stream=0):
    return _core.device_array(ary.shape, ary.dtype)


def pinned_array(shape, dtype=None, strides=None, order="C"):
    """A host array (kcc's transfers need no page-locking: an ordinary numpy array)."""
    np = _core._numpy()
    return np.empty(shape, np.float64 if dtype is None else dtype, order=order)


mapped_array = pinned_array


def pinned(*arrays):
    """numba's `with cuda.pinned(a):`: nothing to do with kcc."""
    import contextlib
    return contextlib.nullcontext()


def defer_cleanup():
    import contextlib
    return contextlib.nullcontext()


def synchronize():
    _core.synchronize()


class _Device:
    """numba's device object: name, id, compute_capability, and kcc's device as .kcc."""

    def __init__(self, d):
        self.kcc = d
        self.id = d.index
        self.name = d.name.encode()
        cc = d.compute_capability
        self.compute_capability = tuple(cc) if cc else (0, 0)
        self.MAX_THREADS_PER_BLOCK = d.max_threads_per_block
        self.MAX_SHARED_MEMORY_PER_BLOCK = d.max_shared_bytes
        self.MULTIPROCESSOR_COUNT = d.compute_units
        self.WARP_SIZE = d.subgroup_size or 32

    def __repr__(self):
        return "<kcc.cuda device %d '%s' (%s)>" % (self.id, self.kcc.name, self.kcc.backend)

    def reset(self):
        _core.synchronize()


def select_device(device_id):
    _core.select_device(device_id)
    return get_current_device()


def get_current_device():
    return _Device(_core.get_device())


def list_devices():
    return [_Device(d) for d in _core.devices()]


def __getattr__(name):
    if name == "gpus":  # numba's cuda.gpus: the devices
        return list_devices()
    raise AttributeError("module 'kcc.cuda' has no attribute %r (docs/python.md, 'From numba', "
                         "lists what kcc.cuda has)" % name)


def is_available():
    """Whether kcc has a device to run on (a GPU through CUDA or OpenCL, or a CPU through
    OpenCL): with kcc, numba programs also run without an NVIDIA GPU."""
    try:
        return bool(_core.devices())
    except Exception:
        return False


def detect():
    """Prints the devices, as numba's cuda.detect() does; True when there is one."""
    try:
        devs = _core.devices()
    except Exception as e:
        print("kcc: no devices (%s)" % e)
        return False
    print("Found %d device%s" % (len(devs), "" if len(devs) == 1 else "s"))
    for d in devs:
        print("id %d %40s  %s %s" % (d.index, d.name, d.backend, d.type))
    return bool(devs)


def close():
    _core.synchronize()


def stream():
    return _core.Stream()


def default_stream():
    return None


def per_thread_default_stream():
    return None


class _Event(_core.Event):
    def record(self, stream=0):
        super().record(_stream(stream))

    def wait(self, stream=0):
        self.synchronize()

    def elapsed_time(self, end):
        return super().elapsed_time(end)


def event(timing=True):
    return _Event()


def event_elapsed_time(evtstart, evtend):
    return evtstart.elapsed_time(evtend)


def is_cuda_array(obj):
    return isinstance(obj, _core.DeviceArray) or hasattr(obj, "__cuda_array_interface__")


__all__ = [n for n in dir() if not n.startswith("_")]


# ---- cuda.reduce: numba's reduction of a 1-D array by a binary function


class Reduce:
    """@cuda.reduce def add(a, b): return a + b; then add(array) -> the reduction (numba's
    cuda.reduce). The function becomes a device function; a kernel reduces each block's
    share in shared memory, and the host combines the blocks' results (and `init`) with the
    same function in Python. `res`: a 1-element device array to receive the result."""

    def __init__(self, functor):
        self._functor = functor
        self._device = jit(device=True)(functor)
        self._kernel = _reduce_kernel(self._device)

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        import functools
        np = _core._numpy()
        n = len(arr) if size is None else size
        if n == 0:
            out = init
        else:
            blocks = max(1, min(64, (n + 255) // 256))
            vals = _core.device_array(blocks, arr.dtype)
            ok = _core.device_array(blocks, np.int32)
            self._kernel[blocks, 256, _stream(stream)](arr, vals, ok, n)
            v, k = vals.copy_to_host(), ok.copy_to_host()
            parts = [x for x, good in zip(v.tolist(), k.tolist()) if good]
            out = functools.reduce(self._functor, parts, init)
            out = np.asarray(out).astype(arr.dtype)[()]
        if res is not None:
            res.copy_to_device(np.asarray([out], dtype=res.dtype))
            return None
        return out


def reduce(functor):
    return Reduce(functor)


def _reduce_kernel(op):
    @jit
    def reduce_blocks(a, vals, ok, n):
        # each thread folds a grid-stride share; then a tree in shared memory, where a lane
        # that saw no element (n smaller than the grid) is skipped by its flag
        sv = shared.array(256, a.dtype)
        sok = shared.array(256, _np_int32)
        t = threadIdx.x
        i = grid(1)
        step = gridsize(1)
        acc = a[0]
        have = 0
        if i < n:
            acc = a[i]
            have = 1
            for j in range(i + step, n, step):
                acc = op(acc, a[j])
        sv[t] = acc
        sok[t] = have
        syncthreads()
        s = 128
        while s > 0:
            if t < s and sok[t + s]:
                if sok[t]:
                    sv[t] = op(sv[t], sv[t + s])
                else:
                    sv[t] = sv[t + s]
                    sok[t] = 1
            syncthreads()
            s //= 2
        if t == 0:
            vals[blockIdx.x] = sv[0]
            ok[blockIdx.x] = sok[0]
    return reduce_blocks


_np_int32 = _core._numpy().int32  # the flags' type in reduce_blocks (a frozen global)
