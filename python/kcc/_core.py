"""Devices, device arrays, streams, events, compiling with a disk cache, modules, kernels and
launches: everything of `import kcc` over libkcrt and libkcc (through ctypes, _native.py), with
the launch path in C where the extension kcc._fastlaunch is there (N.fast: the classes
DeviceArray and Kernel then have its C bases, and kernel[grid, block] is its Launch)."""
import ctypes
import math
import marshal  # loaded with the interpreter (importlib's): no cost
import operator
import os
import sys
import threading
import weakref  # loaded with the interpreter: no cost

from . import _native as N
from ._errors import (CompileError, InvalidModuleError, InvalidOptionError, KccWarning,
                      KernelNotFoundError, NoDeviceError, NotSupportedError, kcrt_error)

__version__ = "0.1.0"

_np = None


def _numpy():
    """numpy, imported when first needed (so that `import kcc` stays fast)."""
    global _np
    if _np is None:
        import numpy
        _np = numpy
    return _np


def _is_ndarray(a):
    np = sys.modules.get("numpy")
    return np is not None and isinstance(a, np.ndarray)


_OUT_OF_BOUNDS = 15  # KCRT_ERROR_OUT_OF_BOUNDS


def _check(status, context=None):
    if status:
        raise kcrt_error(N.kcrt(), status, _oob_context(status, context))


# ---------------------------------------------------------------- waiting, interruptibly
# A libkcrt call that waits for the device (kcrt_device_synchronize, kcrt_buffer_read...)
# cannot be interrupted: Python runs a signal's handler (KeyboardInterrupt for Ctrl-C) only
# between bytecodes, in the main thread. So the main thread hands such a call to a waiter
# thread and waits for it in slices, each of which a signal interrupts; other threads call
# directly (signals are the main thread's). A waiter abandoned by an interrupt keeps waiting
# for its kernel (it is a daemon thread: it does not hold up the interpreter's exit); the next
# wait starts another.

_WAIT_SLICE = 0.05  # seconds


class _Waiter:
    """One daemon thread running waiting libkcrt calls for the main thread."""

    def __init__(self):
        import _queue  # queue.SimpleQueue without importing the queue module
        self.jobs = _queue.SimpleQueue()
        self.busy = False
        threading.Thread(target=self._run, name="kcc-waiter", daemon=True).start()

    def _run(self):
        lib = N.kcrt()
        while True:
            fn, args, box, done = self.jobs.get()
            st = fn(*args)
            # kcrt_last_error() is per thread: its text is fetched here.
            box.append((st, (lib.kcrt_last_error() or b"").decode("utf-8", "replace")
                        if st else None))
            done.release()


_waiter = None
_waiter_lock = threading.Lock()


def _after_fork():
    """A forked child has none of its parent's threads: its first wait starts a waiter."""
    global _waiter, _waiter_lock
    _waiter = None
    _waiter_lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)


# What interrupted waits still use: their calls go on (a read still writes into its host
# array when the kernel ends), so none of it may be freed: the objects are kept for the life
# of the process and the device buffers are never freed (one interrupt, one small leak).
_abandoned = []
_pinned = set()


def _wait_call(fn, *args, context=None, keep=None, buffer=None):
    """fn(*args), a libkcrt call that may wait for the device, raising its error; from the main
    thread, interruptible (Ctrl-C raises KeyboardInterrupt within _WAIT_SLICE seconds). `keep`
    (what the call's pointers point into: host arrays, the event or stream) and `buffer` (the
    device buffer it reads or writes) are kept forever when the wait is interrupted."""
    if threading.current_thread() is not threading.main_thread():
        _check(fn(*args), context)
        return
    try:
        st, msg = _wait_main(fn, args)
    except BaseException:  # KeyboardInterrupt: the call goes on without us
        _abandoned.append(keep)
        if buffer:
            _pinned.add(buffer)
        raise
    if st:
        raise kcrt_error(N.kcrt(), st, _oob_context(st, context), msg)


def _wait_main(fn, args):
    """(status, message) of fn(*args) run on a worker while the main thread waits in slices."""
    global _waiter
    if N.fast is not None:  # the same in C (fastlaunch.c's wait): no Python on the way
        return N.fast.wait(_fn_address(fn), _spin_ns(), len(args), *[a or 0 for a in args])
    with _waiter_lock:
        w = _waiter
        if w is None or w.busy:  # none yet, or one left behind by an interrupted wait
            w = _waiter = _Waiter()
        w.busy = True
    box = []
    done = threading.Lock()
    done.acquire()
    w.jobs.put((fn, args, box, done))
    while not done.acquire(timeout=_WAIT_SLICE):
        pass  # a signal's exception propagates from acquire(); the waiter stays busy
    w.busy = False
    return box[0]


_FN_ADDRESS = {}
_SPIN = [None]


def _spin_ns():
    """How long fastlaunch's wait spins before it sleeps (and its worker for the next wait):
    $KCC_WAIT_SPIN_NS, else 50 µs on a GPU, 0 on a CPU device (whose kernels need the
    cores)."""
    v = _SPIN[0]
    if v is None:
        env = os.environ.get("KCC_WAIT_SPIN_NS")
        if env:
            v = int(env)
        else:
            d = _current
            v = 0 if d is None or d.type == "cpu" else 50000
            if d is None:
                return v  # not known yet: not kept
        _SPIN[0] = v
    return v


def _fn_address(fn):
    """The address of a ctypes function of libkcrt (cached by name)."""
    a = _FN_ADDRESS.get(fn.__name__)
    if a is None:
        a = _FN_ADDRESS[fn.__name__] = ctypes.cast(fn, ctypes.c_void_p).value
    return a


def _oob_context(st, context):
    """A waiting call's context, saying that a bounds-check report it raises comes from an
    earlier launch (a launch's own report says "launching NAME")."""
    if st == _OUT_OF_BOUNDS and context and not context.startswith("launching"):
        return "%s: an earlier launch made an out-of-bounds access" % context
    return context


# ---------------------------------------------------------------- element types
# kcrt_elem_type codes (kcrt.h) -> (numpy dtype name, ctypes type, min, max, kind)
_ET = {
    1: ("bool", ctypes.c_bool, 0, 1, "b"),
    2: ("int8", ctypes.c_int8, -(1 << 7), (1 << 7) - 1, "i"),
    3: ("int16", ctypes.c_int16, -(1 << 15), (1 << 15) - 1, "i"),
    4: ("int32", ctypes.c_int32, -(1 << 31), (1 << 31) - 1, "i"),
    5: ("int64", ctypes.c_int64, -(1 << 63), (1 << 63) - 1, "i"),
    6: ("uint8", ctypes.c_uint8, 0, (1 << 8) - 1, "i"),
    7: ("uint16", ctypes.c_uint16, 0, (1 << 16) - 1, "i"),
    8: ("uint32", ctypes.c_uint32, 0, (1 << 32) - 1, "i"),
    9: ("uint64", ctypes.c_uint64, 0, (1 << 64) - 1, "i"),
    10: ("float32", ctypes.c_float, None, None, "f"),
    11: ("float64", ctypes.c_double, None, None, "f"),
}
_DTYPE_ET = {v[0]: k for k, v in _ET.items()}
_FLT_MAX = 3.4028234663852886e38
PARAM_POINTER, PARAM_SCALAR, PARAM_STRUCT, PARAM_LOCAL = 1, 2, 3, 4
PARAM_IMAGE, PARAM_SAMPLER = 7, 8  # OpenCL C image2d_t & co., sampler_t (kcrt.h)
PARAM_TEXTURE, PARAM_SURFACE = 9, 10  # CUDA's cudaTextureObject_t, cudaSurfaceObject_t
# How kcc._fastlaunch may convert a parameter's argument in C (fastlaunch.c's P_*); with
# FAST_PYTHON, and for any argument the C side does not take, the parameter's setter runs.
FAST_PYTHON, FAST_BUFFER, FAST_INT, FAST_FLOAT, FAST_DOUBLE, FAST_TEXOBJ = 0, 1, 2, 3, 4, 5


_DTYPE_CACHE = {}


def _et_of_dtype(dtype):
    """The kcrt element type of a numpy dtype, 0 for none (dtype.name is slow: cached)."""
    et = _DTYPE_CACHE.get(dtype)
    if et is None:
        et = _DTYPE_CACHE[dtype] = _DTYPE_ET.get(dtype.name, 0) if dtype.isnative else 0
    return et


# ---------------------------------------------------------------- devices

_BACKENDS = {1: "cuda", 2: "opencl", 3: "vulkan"}
_TYPES = {1: "gpu", 2: "cpu", 3: "accelerator", 4: "other"}


class Device:
    """One device as libkcrt lists it (kcc.devices()). Opened on first use."""

    def __init__(self, index, info):
        self.index = index
        self.name = info.name.decode("utf-8", "replace")
        self.vendor = info.vendor.decode("utf-8", "replace")
        self.platform = info.platform.decode("utf-8", "replace")
        self.driver_version = info.driver_version.decode("utf-8", "replace")
        self.backend = _BACKENDS.get(info.backend, "unknown")
        self.type = _TYPES.get(info.type, "other")
        self.backend_index = info.backend_index
        self.memory = info.global_mem_bytes
        self.max_alloc_bytes = info.max_alloc_bytes
        self.compute_units = info.compute_units
        self.max_block_dim = tuple(info.max_block_dim)
        self.max_threads_per_block = info.max_threads_per_block
        self.max_grid_dim = tuple(info.max_grid_dim)
        self.max_shared_bytes = info.max_shared_bytes
        self.compute_capability = ((info.cc_major, info.cc_minor) if info.backend == 1 else None)
        self.spirv = bool(info.spirv)
        self.fp64 = bool(info.fp64)
        # Widths whose denormals the device keeps (C's arithmetic); others may be flushed.
        self.denormals = tuple(w for w, bit in (("float32", 1), ("float64", 2))
                               if info.denormals & bit)
        # OpenCL 1.2 has no device-wide subgroup size (it is per kernel): CUDA's only.
        self.subgroup_size = 32 if self.backend == "cuda" else None
        self._handle = None
        self._lock = threading.Lock()
        self._pool = None  # its MemoryPool, made on the first array

    def as_dict(self):
        """The device's properties (name, backend, memory, limits...) as a dict."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __repr__(self):
        return "<kcc.Device %d: %s (%s, %s, %d MiB)>" % (self.index, self.name, self.backend,
                                                         self.type, self.memory >> 20)

    def _open(self):
        if self._handle is None:
            with self._lock:
                if self._handle is None:
                    h = ctypes.c_void_p()
                    _check(N.kcrt().kcrt_device_open(self.index, ctypes.byref(h)),
                           "opening device %d (%s)" % (self.index, self.name))
                    self._handle = h.value
        return self._handle

    def synchronize(self):
        """Waits for all work on the device (Ctrl-C interrupts the wait). A kernel's failure,
        such as a bounds-check report (kcc.OutOfBoundsError), is raised here."""
        _wait_call(N.kcrt().kcrt_device_synchronize, self._open(), context="synchronize()")
        if self._pool is not None and self._pool._held:  # the streams' work is done
            self._pool._release_held(None)


_devices = None
_devices_lock = threading.Lock()
_current = None


def devices():
    """Every device libkcrt can use: CUDA devices first, then OpenCL platform by platform."""
    global _devices
    if _devices is None:
        with _devices_lock:
            if _devices is None:
                lib = N.kcrt()
                n = ctypes.c_int()
                _check(lib.kcrt_device_count(ctypes.byref(n)))
                found = []
                for i in range(n.value):
                    info = N.DeviceInfo()
                    _check(lib.kcrt_device_info_get(i, ctypes.byref(info)))
                    found.append(_device_object(i, info))
                _devices = found
    return list(_devices)


_by_key = {}  # (back end code, back-end index) -> its Device: one object per device


def _device_object(index, info):
    """The Device of (back end, back-end index), made once (under _devices_lock)."""
    key = (info.backend, info.backend_index)
    d = _by_key.get(key)
    if d is None:
        d = _by_key[key] = Device(index, info)
    return d


def _made_devices():
    """Every Device object made so far: on a CUDA machine the current device is made without
    listing the others (_adopt), so _devices may still be None while that device has a pool.
    No lock: a stream's __del__ may run inside one, and copying a dict's values is atomic."""
    return list(_by_key.values())


_CUDA = 1  # KCRT_BACKEND_CUDA


def _cuda_has_devices():
    """Whether CUDA found devices, asking CUDA alone: libkcrt enumerates back ends one by one,
    and the whole list would load the OpenCL ICD loader and initialise its platforms (40-47
    ms; PoCL brings its own LLVM) in a process that only uses a CUDA GPU."""
    return not N.kcrt().kcrt_backend_status(_CUDA)


def _device_list_text(devs):
    if not devs:
        return "this machine has no device kcc can use (kcc --devices says why)"
    lines = ["this machine has %d device%s:" % (len(devs), "" if len(devs) == 1 else "s")]
    lines += ["  %d: %s (%s, %s)" % (d.index, d.name, d.backend, d.type) for d in devs]
    return "\n".join(lines)


def _adopt(handle):
    """The Device of an opened handle (same back end and back-end index)."""
    info = N.DeviceInfo()
    _check(N.kcrt().kcrt_device_get_info(handle, ctypes.byref(info)))
    if info.backend == _CUDA:
        # CUDA's devices come first in libkcrt's list, in CUDA's order: the index is known
        # without listing OpenCL's (_cuda_has_devices).
        with _devices_lock:
            d = _device_object(info.backend_index, info)
        with d._lock:
            if d._handle is None:
                d._handle = handle
        return d
    for d in devices():
        if _BACKENDS.get(info.backend) == d.backend and d.backend_index == info.backend_index:
            with d._lock:
                if d._handle is None:
                    d._handle = handle
            return d
    raise NoDeviceError("libkcrt opened a device it does not list", "KCRT_ERROR_NO_DEVICE")


def select_device(which):
    """Makes device `which` the current one: an index of kcc.devices(), or a selector as for
    KCC_DEVICE ("cuda", "opencl:0", "gpu", "cpu", a name substring such as "H100")."""
    global _current
    if isinstance(which, Device):
        which = which.index
    if isinstance(which, bool) or not isinstance(which, (int, str)):
        raise TypeError("select_device takes a device index or a name, not %r" % (which,))
    if isinstance(which, int):
        devs = devices()
        if not 0 <= which < len(devs):
            raise NoDeviceError("select_device(%d): there is no device %d; %s"
                                % (which, which, _device_list_text(devs)),
                                "KCRT_ERROR_NO_DEVICE")
        d = devs[which]
        d._open()
    else:
        h = ctypes.c_void_p()
        st = N.kcrt().kcrt_device_open_by_name(which.encode(), ctypes.byref(h))
        if st:
            e = kcrt_error(N.kcrt(), st, "select_device(%r)" % which)
            if isinstance(e, NoDeviceError):
                e = NoDeviceError("%s; %s" % (e.message, _device_list_text(devices())),
                                  e.status)
            raise e
        d = _adopt(h.value)
    if d is not _current:
        _forget_kernels()
        _SPIN[0] = None
    _current = d
    return d


def get_device():
    """The current device: the one select_device chose, else the one $KCC_DEVICE names, else
    the first CUDA GPU, else the first OpenCL GPU, else the first OpenCL CPU."""
    global _current
    d = _current
    if d is None:
        with _devices_lock:
            d = _current
        if d is None:
            h = ctypes.c_void_p()
            st = N.kcrt().kcrt_device_open_default(ctypes.byref(h))
            if st:
                raise kcrt_error(N.kcrt(), st, "opening the default device")
            d = _current = _adopt(h.value)
    return d


def synchronize():
    """Waits for all work on the current device."""
    get_device().synchronize()


# ---------------------------------------------------------------- streams and events

class Stream:
    """An in-order queue of work on a device (a CUDA stream, an OpenCL command queue)."""

    def __init__(self, device=None):
        self.device = device or get_device()
        h = ctypes.c_void_p()
        _check(N.kcrt().kcrt_queue_create(self.device._open(), ctypes.byref(h)))
        self._handle = h.value

    def synchronize(self):
        """Waits for the stream's work (Ctrl-C interrupts the wait)."""
        _wait_call(N.kcrt().kcrt_queue_synchronize, self._handle,
                   context="Stream.synchronize()", keep=self)
        _release_queue_blocks(self._handle)

    def __del__(self):
        h, self._handle = getattr(self, "_handle", None), None
        if h and N._kcrt is not None:
            N._kcrt.kcrt_queue_destroy(h)  # waits for the stream's work
            _release_queue_blocks(h)

    def __repr__(self):
        return "<kcc.Stream on %s>" % self.device.name


def _stream_handle(stream):
    if stream is None or stream == 0:
        return None
    if isinstance(stream, Stream):
        return stream._handle
    raise TypeError("stream must be a kcc.Stream, 0 or None, not %r" % (stream,))


class Event:
    """A point in a stream, for timing: e1.record(); ...; e2.record(); e1.elapsed_time(e2)."""

    def __init__(self, device=None):
        self.device = device or get_device()
        h = ctypes.c_void_p()
        _check(N.kcrt().kcrt_event_create(self.device._open(), ctypes.byref(h)))
        self._handle = h.value

    def record(self, stream=None):
        """Records the event on `stream` (default: the default queue); returns the event."""
        _check(N.kcrt().kcrt_event_record(self._handle, _stream_handle(stream)))
        return self

    def synchronize(self):
        """Waits until the work before the event's record is done (Ctrl-C interrupts it)."""
        _wait_call(N.kcrt().kcrt_event_synchronize, self._handle,
                   context="Event.synchronize()", keep=self)

    def __repr__(self):
        return "<kcc.Event on %s>" % self.device.name

    def elapsed_time(self, end):
        """Milliseconds from this event to `end` (both recorded; waits for them)."""
        ms = ctypes.c_double()
        lib = N.kcrt()
        _wait_call(lib.kcrt_event_synchronize, end._handle, context="Event.elapsed_time()",
                   keep=end)
        _check(lib.kcrt_event_elapsed_ms(self._handle, end._handle, ctypes.byref(ms)))
        return ms.value

    def __del__(self):
        h, self._handle = getattr(self, "_handle", None), None
        if h and N._kcrt is not None:
            N._kcrt.kcrt_event_destroy(h)


def event_elapsed_time(start, end):
    """numba's spelling: milliseconds between two recorded events."""
    return start.elapsed_time(end)


# ---------------------------------------------------------------- device arrays

def _dtype_kind_name(dtype):
    return {"O": "Python objects", "U": "str", "S": "bytes"}.get(dtype.kind, "with objects")


def _c_strides(shape):
    """The element strides of a C-contiguous array of `shape`."""
    st, acc = [], 1
    for n in reversed(shape):
        st.append(acc)
        acc *= n
    return tuple(reversed(st))


def _is_c_contiguous(shape, strides):
    """Whether element strides `strides` lay `shape` out in C order without gaps (dimensions
    of length 1, and arrays of no element, are contiguous whatever their strides)."""
    if 0 in shape:
        return True
    acc = 1
    for n, st in zip(reversed(shape), reversed(strides)):
        if n != 1 and st != acc:
            return False
        acc *= n
    return True


def _shape_of(shape):
    if isinstance(shape, (int,)) or hasattr(shape, "__index__"):
        shape = (operator.index(shape),)
    shape = tuple(operator.index(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimension in shape %r" % (shape,))
    return shape


# ---------------------------------------------------------------- the memory pool
# Every kcc array used to be a fresh kcrt_buffer_alloc (cuMemAlloc, clCreateBuffer), which
# costs more than a fast kernel on the same memory, and an array expression makes one per
# operation. So, as CuPy does, a pool per device keeps the blocks of freed arrays and hands
# them to new arrays of the same size class. An array is a view (kcrt_buffer_view) of its
# block of exactly the array's bytes, so transfers, element-type tags and -fbounds-check
# kernels see the array's own size, not the block's.
#
# When a block may be reused: kcc's array operations, transfers and fills all run on the
# device's default queue, in order, so a block freed after work on that queue can go to the
# next array at once: whatever uses it next is queued behind that work. A block of an array
# that a launch on a kcc.Stream used (Launch marks it: _queue) may still be read or written
# by that stream's work, so it is held back until kcc knows that work is done: that
# Stream's synchronize() or its destruction, kcc.synchronize()/Device.synchronize(),
# free_all_blocks(), or an allocation that finds too many held back (it synchronizes the
# device). A block whose address another library took (__cuda_array_interface__, DLPack) is
# given back to the driver, not reused: kcc cannot see that library's streams.

_POOL_MIN = 512  # bytes: the smallest class (CuPy's rounding)
_POOL_HELD_MAX = 64  # blocks held back for streams before an allocation synchronizes


def _size_class(nbytes):
    """The block size for an array of `nbytes`: 512 bytes at least, then 8 classes per
    doubling (a block is at most 1/8 larger than asked), so a freed block serves arrays of
    nearby sizes and the pool holds few distinct sizes."""
    if nbytes <= _POOL_MIN:
        return _POOL_MIN
    step = 1 << max(9, (nbytes - 1).bit_length() - 4)
    return -(-nbytes // step) * step


def _pool_env():
    v = os.environ.get("KCC_MEMPOOL", "1").strip().lower()
    return v not in ("0", "off", "no", "false")


_pool_on = [_pool_env()]
_CLASS_OF = {}  # nbytes -> _size_class(nbytes), for the sizes met


class MemoryPool(N.fast.PoolBase if N.fast else object):
    """A device's pool of memory blocks for kcc arrays (kcc.get_default_memory_pool()):
    freed arrays' blocks are kept and reused by new arrays of the same size class. (With
    kcc._fastlaunch, _free, _held, _lock, _used and _cached are fields of its C base, whose
    new_array and DeviceArray finalizer take and give back blocks in the common cases.)"""

    def __init__(self, device):
        self.device = device
        # A block's record: [pool, block, size class, view, view's bytes, view's type tag,
        # whether to keep it when freed].
        # The view (the array's buffer) stays with the block when the array is freed: the
        # next array of the same bytes and element type takes both, no libkcrt call at all.
        self._free = {}  # size class -> [records]
        self._held = []  # (queue handle or 1: several, record): blocks held back for streams
        # reentrant: a __del__ may free during an allocation. kcc._fastlaunch's C paths read
        # whether its PoolLock is held (they run only when it is not).
        self._lock = N.fast.PoolLock() if N.fast else threading.RLock()
        self._used = 0  # bytes of blocks that arrays hold
        self._cached = 0  # bytes of blocks kept free (or held back)

    def __repr__(self):
        return "<kcc.MemoryPool of %s: %d bytes used, %d free>" % (
            self.device.name, self._used, self._cached)

    def used_bytes(self):
        """Bytes of the blocks that live arrays hold."""
        return self._used

    def free_bytes(self):
        """Bytes of the blocks kept for reuse (held back for streams included)."""
        return self._cached

    def total_bytes(self):
        """used_bytes() + free_bytes(): the device memory the pool has allocated."""
        return self._used + self._cached

    def n_free_blocks(self):
        """How many blocks are kept for reuse (held back for streams included)."""
        with self._lock:
            return sum(len(v) for v in self._free.values()) + len(self._held)

    def free_all_blocks(self):
        """Gives every kept block back to the driver (those held back for streams after
        waiting for the device). Arrays alive keep theirs."""
        lib = N._kcrt
        if lib is None:
            return
        if self._held:
            self.device.synchronize()
        with self._lock:
            self._release_held(None)
            recs = [r for v in self._free.values() for r in v]
            self._free = {}
            for r in recs:
                lib.kcrt_buffer_free(r[3])
                lib.kcrt_buffer_free(r[1])
            self._cached = 0

    def _release_held(self, queue):
        """Blocks held back for `queue` (None: all) become free: that work is done."""
        with self._lock:
            keep = []
            for q, r in self._held:
                if queue is None or q == queue:
                    self._free.setdefault(r[2], []).append(r)
                else:
                    keep.append((q, r))
            self._held = keep

    def _alloc_block(self, size):
        h = ctypes.c_void_p()
        st = N.kcrt().kcrt_buffer_alloc(self.device._open(), size, ctypes.byref(h))
        return st, h.value

    def _malloc(self, nbytes, tag):
        """(array handle, block record): a view of nbytes (> 0) of a kept or new block,
        tagged with `tag` ((element type, size), (0, 0) for none)."""
        cls = _CLASS_OF.get(nbytes)
        if cls is None:
            if len(_CLASS_OF) > 4096:
                _CLASS_OF.clear()
            cls = _CLASS_OF[nbytes] = _size_class(nbytes)
        with self._lock:
            lst = self._free.get(cls)
            rec = lst.pop() if lst else None
            if rec is not None:
                self._cached -= cls
                self._used += cls
        if rec is not None and rec[4] == nbytes and rec[5] == tag:
            return rec[3], rec  # the common case: the same array again
        lib = N.kcrt()
        if rec is None:
            if len(self._held) > _POOL_HELD_MAX:
                self.device.synchronize()
                self._release_held(None)
                return self._malloc(nbytes, tag)
            st, block = self._alloc_block(cls)
            if st == 3 or (st and cls != nbytes):  # out of memory: without the pool's blocks
                self.free_all_blocks()
                st, block = self._alloc_block(cls)
                if st and cls != nbytes:  # the class's rounding may be what does not fit
                    cls = nbytes
                    st, block = self._alloc_block(cls)
            _check(st, "allocating %d bytes" % nbytes)
            # the last item: whether the block is a class's, to be kept when freed
            rec = [self, block, cls, None, 0, (0, 0), cls == _size_class(cls)]
            with self._lock:
                self._used += cls
        if rec[4] != nbytes:  # another size: another view
            if rec[3]:
                lib.kcrt_buffer_free(rec[3])
                rec[3] = None
            h = ctypes.c_void_p()
            st = lib.kcrt_buffer_view(rec[1], 0, nbytes, ctypes.byref(h))
            if st:
                self._give_back(rec, None, True)
                _check(st, "allocating %d bytes" % nbytes)
            rec[3], rec[4], rec[5] = h.value, nbytes, (0, 0)  # a new view has no tag
        if rec[5] != tag:
            lib.kcrt_buffer_set_type(rec[3], tag[0], tag[1])
            rec[5] = tag
        return rec[3], rec

    def _give_back(self, rec, queue, exported):
        """A freed array's block record: kept for reuse, or (`exported`: another library had
        its address; a size that is not a class; the pool turned off) given to the driver."""
        lib = N._kcrt
        if lib is None:
            return
        cls = rec[2]
        with self._lock:
            self._used -= cls
            if exported or not rec[6] or not _pool_on[0]:
                if rec[3]:
                    lib.kcrt_buffer_free(rec[3])
                lib.kcrt_buffer_free(rec[1])
                return
            self._cached += cls
            if queue is None:
                self._free.setdefault(cls, []).append(rec)
            else:
                self._held.append((queue, rec))


def get_default_memory_pool(device=None):
    """The memory pool of `device` (default: the current device), as CuPy's
    cupy.get_default_memory_pool(): used_bytes(), free_bytes(), total_bytes(),
    n_free_blocks(), free_all_blocks()."""
    dev = device or get_device()
    p = dev._pool
    if p is None:
        with dev._lock:
            if dev._pool is None:
                dev._pool = MemoryPool(dev)
            p = dev._pool
    return p


def set_memory_pool(enabled):
    """Turns the memory pools on (the default) or off (each array its own allocation, as
    KCC_MEMPOOL=0 does); turning them off gives the kept blocks back to the driver."""
    _pool_on[0] = bool(enabled)
    if not enabled:
        for d in _made_devices():
            if d._pool is not None:
                d._pool.free_all_blocks()


def _release_queue_blocks(queue):
    """A stream's work is done (synchronized or destroyed): its held blocks become free."""
    for d in _made_devices():
        if d._pool is not None and d._pool._held:
            d._pool._release_held(queue)


class DeviceArray(N.fast.ArrayBase if N.fast else object):
    """An array in device memory: kcc.device_array(shape, dtype), kcc.to_device(a).
    Passed to a kernel, it is used in place (no copy). (With kcc._fastlaunch, _buf, _et and
    device are fields of its C base, which a launch reads.)"""

    def __init__(self, shape, dtype=None, device=None):
        np = _numpy()
        self._buf = None  # (freed) until allocated
        self.shape = _shape_of(shape)
        self.dtype = np.dtype(np.float32 if dtype is None else dtype)
        if self.dtype.hasobject or self.dtype.kind in "OUS":
            raise TypeError("a kcc device array holds numbers, bools or structs (a numeric or "
                            "structured dtype), not %s (%s): device memory cannot hold Python "
                            "objects or strings" % (self.dtype, _dtype_kind_name(self.dtype)))
        self.size = 1
        for s in self.shape:
            self.size *= s
        self.nbytes = self.size * self.dtype.itemsize
        self.base = None  # a view's: the array that owns the memory
        self._off = 0  # a view's: its first element's index in the buffer
        self._st = _c_strides(self.shape)  # element strides
        if self.nbytes >= 1 << 63:
            raise OverflowError("a device array of shape %r and %s would be %d bytes, beyond "
                                "any device's memory (and a 64-bit size)"
                                % (self.shape, self.dtype, self.nbytes))
        self.device = dev = device or get_device()
        self._et = _et_of_dtype(self.dtype)
        lib = N.kcrt()
        # A buffer has at least one element: libkcrt refuses size 0.
        nb = max(self.nbytes, self.dtype.itemsize)
        tag = None
        if _pool_on[0]:
            tag = (self._et, self.dtype.itemsize) if self._et and self.nbytes else (0, 0)
            self._buf, self._block = (dev._pool or get_default_memory_pool(dev))._malloc(nb,
                                                                                        tag)
        else:
            h = ctypes.c_void_p()
            _check(lib.kcrt_buffer_alloc(dev._open(), nb, ctypes.byref(h)),
                   "allocating %d bytes" % self.nbytes)
            self._buf = h.value
            if self._et and self.nbytes:
                lib.kcrt_buffer_set_type(self._buf, self._et, self.dtype.itemsize)
        if len(_LAYOUT) > 4096:
            _LAYOUT.clear()
        _LAYOUT[(self.shape, self.dtype)] = (self.size, self.nbytes, self._st, self._et, nb,
                                             tag if _pool_on[0] else None, _size_class(nb))

    ndim = property(lambda self: len(self.shape), doc="The number of dimensions.")
    strides = property(lambda self: tuple(k * self.dtype.itemsize for k in self._st),
                       doc="NumPy's strides: the bytes from one element to the next along "
                           "each dimension (a view's may be negative or 0).")
    itemsize = property(lambda self: self.dtype.itemsize, doc="The bytes of one element.")

    @property
    def _contiguous(self):
        """Whether the elements are the buffer's, C order, from the view's first element."""
        return _is_c_contiguous(self.shape, self._st)

    @property
    def _whole(self):
        """Whether a kernel can take the array as its buffer (C order from element 0)."""
        return self._off == 0 and _is_c_contiguous(self.shape, self._st)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d device array")
        return self.shape[0]

    def __repr__(self):
        return "<kcc.DeviceArray shape=%r dtype=%s on %s%s>" % (
            self.shape, self.dtype, self.device.name, " (freed)" if self._buf is None else "")

    @property
    def __cuda_array_interface__(self):
        """For CuPy, PyTorch and numba on a CUDA device (version 3): the array's memory in
        place. kcc's pending work on the device is finished first, so no stream is named."""
        freed = self._buf is None or (self.base is not None and self.base._buf is None)
        if freed or self.device.backend != "cuda":
            raise AttributeError("__cuda_array_interface__: the array is %s"
                                 % ("freed" if freed else
                                    "on an OpenCL device (%s)" % self.device.name))
        lib = N.kcrt()
        addr = ctypes.c_uint64()
        _check(lib.kcrt_buffer_address(self._buf, ctypes.byref(addr)))
        _check(lib.kcrt_device_synchronize(self.device._open()))
        (self.base if self.base is not None else self)._exported = True
        return {"shape": self.shape, "typestr": self.dtype.str,
                "strides": None if self._contiguous else self.strides,
                "data": (addr.value + self._off * self.itemsize if self.nbytes else 0, False),
                "version": 3, "stream": None}

    def __dlpack_device__(self):
        if self._buf is None or self.device.backend != "cuda":
            raise AttributeError("__dlpack_device__: the array is %s"
                                 % ("freed" if self._buf is None else
                                    "on an OpenCL device (%s)" % self.device.name))
        return (2, self.device.backend_index)  # kDLCUDA

    def __dlpack__(self, stream=None):
        """A DLPack capsule over the array's memory (CUDA devices). kcc's pending work is
        finished first, so the consumer's `stream` needs no ordering."""
        from . import _dlpack
        dev_type, dev_id = self.__dlpack_device__()
        if not self._contiguous:
            raise BufferError("__dlpack__: the kcc array is a strided view; export a copy "
                              "(v.copy())")
        lib = N.kcrt()
        addr = ctypes.c_uint64()
        _check(lib.kcrt_buffer_address(self._buf, ctypes.byref(addr)))
        _check(lib.kcrt_device_synchronize(self.device._open()))
        (self.base if self.base is not None else self)._exported = True
        return _dlpack.export(self, addr.value + self._off * self.itemsize, dev_id)

    def _sync_stream(self, stream):
        h = _stream_handle(stream)
        if h:
            _wait_call(N.kcrt().kcrt_queue_synchronize, h, keep=stream)

    def _alive(self, what):
        """Raises ValueError when the array (or a view's base) was freed."""
        if self._buf is None or (self.base is not None and self.base._buf is None):
            raise ValueError("%s: the device array was freed (d.free()); its memory is gone"
                             % what)

    def copy_to_device(self, ary, stream=None):
        """Copies a host array (same size and dtype) into this array."""
        np = _numpy()
        self._alive("copy_to_device")
        a = np.ascontiguousarray(ary, dtype=self.dtype)
        if a.size != self.size:
            raise ValueError("copy_to_device: %d elements into a device array of %d"
                             % (a.size, self.size))
        self._sync_stream(stream)
        if not self._contiguous:  # a strided view: through a contiguous copy
            from . import _array
            _array._assign(self, to_device(a.reshape(self.shape)))
            return self
        if self.nbytes:
            # Blocking on the default queue, behind its kernels: interruptibly.
            _wait_call(N.kcrt().kcrt_buffer_write, self._buf, self._off * self.itemsize,
                       a.ctypes.data, self.nbytes, context="copy_to_device", keep=a,
                       buffer=self._buf)
        return self

    def copy_to_host(self, ary=None, stream=None):
        """Copies the array back: into `ary` when given (same size), else into a new numpy
        array, which is returned. Waits for the device's default queue (and `stream`)."""
        np = _numpy()
        self._alive("copy_to_host")
        out = np.empty(self.shape, self.dtype) if ary is None else ary
        if out.size != self.size or out.dtype != self.dtype:
            raise ValueError("copy_to_host: a %s array of %d elements for a device array of "
                             "%d %s" % (out.dtype, out.size, self.size, self.dtype))
        self._sync_stream(stream)
        if not self._contiguous:  # a strided view: through a contiguous copy on the device
            from . import _array
            return _array._copy(self).copy_to_host(out)
        if self.nbytes:
            read = N.kcrt().kcrt_buffer_read
            off = self._off * self.itemsize
            if out.flags.c_contiguous and out.flags.writeable:
                _wait_call(read, self._buf, off, out.ctypes.data, self.nbytes,
                           context="copy_to_host", keep=out, buffer=self._buf)
            else:
                tmp = np.empty(self.shape, self.dtype)
                _wait_call(read, self._buf, off, tmp.ctypes.data, self.nbytes,
                           context="copy_to_host", keep=tmp, buffer=self._buf)
                np.copyto(out, tmp.reshape(out.shape))
        return out

    def __array__(self, dtype=None, copy=None):
        """Refused, as CuPy does: numpy would otherwise make a 0-d object array holding the
        device array. d.copy_to_host() is the host copy."""
        raise TypeError("a kcc.DeviceArray is in device memory: np.asarray() cannot read it; "
                        "use d.copy_to_host() for a numpy array")

    def __reduce_ex__(self, protocol):
        """Pickling (multiprocessing, Dask, mpi4py's lowercase methods) sends a host copy;
        unpickling puts it on the receiving process's current device (kcc.get_device()).
        numpy's own pickling carries the data, out of band under protocol 5 (Dask's frames)."""
        self._alive("pickling")
        return (_unpickle_array, (self.copy_to_host(),))

    def fill_zero(self):
        """Sets every byte of the array to 0."""
        self._alive("fill_zero")
        if not self._contiguous:
            from . import _array
            return _array.fill(self, 0)
        if self.nbytes:
            _check(N.kcrt().kcrt_buffer_fill(self._buf, self._off * self.itemsize, 0,
                                             self.nbytes))
        return self

    if not N.fast:  # with the extension, fields of the C base (None and False by default)
        _block = None  # a pool's array: its block's record (MemoryPool)
        _exported = False  # its address went to another library (CUDA array interface, DLPack)

    def free(self):
        """Releases the device memory now (else when the array is garbage collected): its
        block goes back to the memory pool, or to the driver without one."""
        b, self._buf = getattr(self, "_buf", None), None
        if b and N._kcrt is not None and b not in _pinned:
            rec = self._block
            if rec is None:
                N._kcrt.kcrt_buffer_free(b)
            else:  # the view goes back with its block
                self._block = None
                rec[0]._give_back(rec, self._queue, self._exported)

    if not N.fast:  # the C base's finalizer gives the block back (or calls free())
        __del__ = free


class _View(DeviceArray):
    """A view of a kcc.DeviceArray (slicing, reshape, transpose): the same memory, seen from
    element `_off` with element strides `_st`. Freeing a view frees nothing: the memory is
    its base's, which the view keeps alive. Not the exact class kcc._fastlaunch passes by
    handle: a launch looks at a view's layout (Kernel._pointer_setter)."""

    def __init__(self, *args, **kwargs):
        raise TypeError("kcc array views are made by indexing, reshape or transpose")

    def free(self):
        """Forgets the view (the memory stays its base's)."""
        self._buf = None

    __del__ = free


def _view(a, shape, strides, offset):
    """A view of `a`'s memory: `shape`, element `strides`, first element at element `offset`
    of the buffer (all absolute: `a`'s own offset already included)."""
    v = _View.__new__(_View)
    v._buf = a._buf
    v._et = a._et
    v.device = a.device
    v.shape = tuple(shape)
    v.dtype = a.dtype
    v.size = math.prod(v.shape)
    v.nbytes = v.size * a.dtype.itemsize
    v.base = a.base if a.base is not None else a
    v._off = offset
    v._st = tuple(strides)
    return v


# (shape, dtype) -> what DeviceArray.__init__ worked out for them: (size, nbytes, element
# strides, element type, buffer bytes, type tag, the buffer's size class), so that _new_array
# skips it all (kcc._fastlaunch's new_array reads the same tuple).
_LAYOUT = {}
_new_object = (N.fast.ArrayBase if N.fast else object).__new__


def _new_array(shape, dtype, dev):
    """DeviceArray(shape, dtype, dev) for a tuple of ints and a numpy dtype that an array was
    made with before: the array operations' result, without __init__'s checks and arithmetic
    (a few microseconds of a small operation's host path)."""
    lay = _LAYOUT.get((shape, dtype))
    if lay is None or lay[5] is None or not _pool_on[0]:
        return DeviceArray(shape, dtype, dev)
    if _fast_new is not None and dev._pool is not None:  # a kept block of these bytes, in C
        a = _fast_new(dev._pool, dev, lay, shape, dtype)
        if a is not None:
            return a
    a = _new_object(DeviceArray)
    a._buf = None
    a.shape, a.dtype, a.device = shape, dtype, dev
    a.size, a.nbytes, a._st, a._et = lay[0], lay[1], lay[2], lay[3]
    a.base = None
    a._off = 0
    a._buf, a._block = (dev._pool or get_default_memory_pool(dev))._malloc(lay[4], lay[5])
    return a


_fast_new = N.fast.new_array if N.fast else None

if N.fast:
    N.fast.register_array(DeviceArray)
    N.fast.register_pool(_pool_on, _pinned, _new_array)
else:  # with the extension, a field of the C base (which a launch on a stream sets)
    DeviceArray._queue = None


def _mark_stream_use(args, sh):
    """After a launch on stream `sh` (without kcc._fastlaunch, which does this in C): the kcc
    arrays it used remember it, so that the memory pool holds their blocks back until that
    stream's work is done; 1 stands for several streams."""
    for a in args:
        if isinstance(a, DeviceArray):
            for o in (a, a.base) if a.base is not None else (a,):
                q = o._queue
                o._queue = sh if q is None or q == sh else 1


def _unpickle_array(host):
    return to_device(host)


def _from_device_frame(frame, shape, dtype):
    """A new array on the current device (CUDA) holding a copy of another library's device
    memory `frame` (__cuda_array_interface__): Dask's cuda-family frames."""
    cai = frame.__cuda_array_interface__
    d = DeviceArray(shape, dtype)
    if d.device.backend != "cuda":
        raise NotSupportedError("a CUDA device frame cannot be received on %s (%s): this "
                                "worker's device is not a CUDA GPU" % (d.device.name,
                                                                      d.device.backend),
                                "KCRT_ERROR_NOT_SUPPORTED")
    if d.nbytes:
        lib = N.kcrt()
        h = d.device._open()
        if cai.get("stream"):
            _check(lib.kcrt_device_wait_stream(h, cai["stream"]))
        w = ctypes.c_void_p()
        _check(lib.kcrt_buffer_wrap(h, cai["data"][0], d.nbytes, ctypes.byref(w)),
               "receiving a device frame")
        try:
            _check(lib.kcrt_buffer_copy(d._buf, 0, w.value, 0, d.nbytes))
            _check(lib.kcrt_device_synchronize(h))
        finally:
            lib.kcrt_buffer_free(w.value)
    return d


def device_array(shape, dtype=None, device=None):
    """A new uninitialised array on the device (default dtype float32)."""
    return DeviceArray(shape, dtype, device)


def device_array_like(ary, device=None):
    """A new uninitialised device array of the shape and dtype of `ary`."""
    return DeviceArray(ary.shape, ary.dtype, device)


def to_device(ary, stream=None, device=None):
    """A device array holding a copy of the host array `ary`."""
    np = _numpy()
    a = np.asarray(ary)
    d = DeviceArray(a.shape, a.dtype, device)
    d.copy_to_device(a, stream)
    return d


class local:
    """kcc.local(nbytes): the size of a local-memory kernel parameter (`shared T *p`); an int
    works as well."""

    __slots__ = ("nbytes",)

    def __init__(self, nbytes):
        self.nbytes = operator.index(nbytes)

    def __repr__(self):
        return "kcc.local(%d)" % self.nbytes


# ---------------------------------------------------------------- compiling, with a cache

def _cache_dir():
    v = os.environ.get("KCC_CACHE", "")
    if v.lower() in ("0", "off", "no", "false"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kcc", "python")


def _compiler_id():
    """kcc's version and the identity of the libkcc file (size, mtime): a rebuilt compiler
    is another compiler, without loading it to ask."""
    p = N.libkcc_path()
    try:
        st = os.stat(p) if p else None
    except OSError:
        st = None
    return "%s|%s|%s" % (__version__, st.st_size if st else 0, st.st_mtime_ns if st else 0)


# A cache entry is one file, <digest of the key>.kcache:
#     _ENTRY_MAGIC, the 16-byte digest of the rest, marshal((key, output, log, deps))
# where key is the bytes the name was made from (compared in full: a digest that collides is a
# miss, never another kernel's bundle) and deps lists (path, digest) of every file the source
# included (one that changed is a miss). A damaged file fails the digest before marshal reads
# it, and is compiled again and replaced.
#
# No hashlib and no json: a first launch from the cache pays for what it imports (hashlib
# loads OpenSSL, json the regular expression engine: together ~5 ms of the ~7 ms a cached
# compile took). The digest is a 128-bit polynomial hash, the data as one integer modulo a
# prime, which int.from_bytes and % compute in C; marshal is always loaded (importlib uses
# it), and its format 4 reads the same in every Python 3 from 3.4 on. Not a cryptographic
# hash: the cache directory is the user's own (0700), and collisions are told apart by the key.
_ENTRY_MAGIC = b"kcc-py-cache-2\n\0"
_DIGEST_PRIME = (1 << 128) - 159


def _digest(data):
    """16 bytes: the data (with a final 1, so that trailing zeros count) as a little-endian
    integer, modulo the largest prime below 2**128."""
    return (int.from_bytes(data + b"\x01", "little") % _DIGEST_PRIME).to_bytes(16, "little")


def _cache_key(kind, src, options, name):
    """The key's bytes: every part with its length, so that no two keys run together."""
    parts = [kind.encode(), _compiler_id().encode(), name.encode(),
             "\0".join(options).encode(), src]
    return b"".join(len(p).to_bytes(8, "little") + p for p in parts)


def _entry_path(d, key):
    return os.path.join(d, _digest(key).hex() + ".kcache")


def _file_digest(path):
    try:
        with open(path, "rb") as f:
            return _digest(f.read())
    except OSError:
        return None


def _cache_get(key):
    d = _cache_dir()
    if d is None:
        return None
    try:
        with open(_entry_path(d, key), "rb") as f:
            data = f.read()
    except OSError:
        return None
    n = len(_ENTRY_MAGIC)
    if data[:n] != _ENTRY_MAGIC:
        return None
    body = data[n + 16:]
    if _digest(body) != data[n:n + 16]:
        return None  # damaged: compiled again and replaced
    try:
        k, out, log, deps = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    if k != key:
        return None  # another key with the same digest
    for path, digest in deps:
        if _file_digest(path) != digest:
            return None  # an included file changed
    return out, log


def _atomic_write(path, data):
    import tempfile
    d = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _cache_put(key, out, log, deps):
    d = _cache_dir()
    if d is None:
        return
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)
        body = marshal.dumps((key, bytes(out), log, [(p, _file_digest(p)) for p in deps]), 4)
        _atomic_write(_entry_path(d, key), _ENTRY_MAGIC + _digest(body) + body)
    except OSError:
        pass  # a read-only or full cache directory only costs a compile next time


_stats = {"compiles": 0, "cache_hits": 0}


def _native_compile(src, options, name):
    lib = N.kcc()
    opts = (ctypes.c_char_p * max(len(options), 1))(*[o.encode() for o in options])
    r = ctypes.c_void_p()
    st = lib.kcc_compile(src, len(src), name.encode(), opts, len(options), ctypes.byref(r))
    _stats["compiles"] += 1
    if not r.value:
        raise CompileError("kcc: %s" % lib.kcc_status_string(st).decode(), name)
    try:
        log = (lib.kcc_result_log(r) or b"").decode("utf-8", "replace")
        if st == 2:
            raise InvalidOptionError(log, name)
        if st != 0:
            raise CompileError(log, name)
        size = ctypes.c_size_t()
        p = lib.kcc_result_output(r, ctypes.byref(size))
        out = ctypes.string_at(p, size.value)
        deps = [lib.kcc_result_dependency(r, i).decode("utf-8", "surrogateescape")
                for i in range(lib.kcc_result_dependency_count(r))]
        return out, log, deps
    finally:
        lib.kcc_result_free(r)


def _check_options(options, what):
    if isinstance(options, (str, bytes)):
        raise TypeError("%s: options is a sequence of strings, e.g. ('-O2', '-DN=4'), not one "
                        "string" % what)
    options = tuple(options)
    for o in options:
        if not isinstance(o, str):
            raise TypeError("%s: option %r is not a string" % (what, o))
    return options


def _compile_cached(kind, source, options, name):
    src = source.encode() if isinstance(source, str) else bytes(source)
    key = _cache_key(kind, src, options, name)
    hit = _cache_get(key)
    if hit is not None:
        _stats["cache_hits"] += 1
        return hit[0], hit[1], True
    out, log, deps = _native_compile(src, options, name)
    _cache_put(key, out, log, deps)
    return out, log, False


_OFF = ("0", "off", "no", "false")
_ON = ("1", "on", "yes", "true")


def _bounds_check_choice(bounds_check):
    """True or False when the user decided -fbounds-check (`bounds_check`, else
    $KCC_BOUNDS_CHECK: 1/on, 0/off), None when the device decides (checked on CPU devices)."""
    if bounds_check is not None:
        return bool(bounds_check)
    env = os.environ.get("KCC_BOUNDS_CHECK", "").lower()
    if env in _ON:
        return True
    if env in _OFF:
        return False
    return None


def _current_device_type():
    """The type ('gpu', 'cpu'...) of the device a launch would use now, without opening a
    device (kcc.compile must not create a CUDA context on a GPU the program does not use):
    the current one, else $KCC_DEVICE's (opened: the user named it), else the default's
    (libkcrt's order: a GPU if there is one, else a CPU). None without any device."""
    d = _current
    if d is not None:
        return d.type
    try:
        if os.environ.get("KCC_DEVICE"):
            return get_device().type
        if _cuda_has_devices():
            return "gpu"  # the default is the first CUDA GPU
        types = [x.type for x in devices()]
    except Exception:  # no device, no driver: compiling only
        return None
    for t in ("gpu", "cpu"):
        if t in types:
            return t
    return types[0] if types else None


_OPENCL_HINT = ("hint: this looks like OpenCL C; kcc reads OpenCL C when the name ends in "
                "'.cl': kcc.compile(source, name='kernels.cl')\n")


def _looks_like_opencl(source, log):
    """Whether a failed compile of a .k source failed on OpenCL C's keywords."""
    words = ("__kernel", "__global", "__local", "__constant", "global", "__private")
    return any("unknown type name '%s'" % w in log for w in words) or \
        "'get_global_id'" in log


def _compile_hinted(kind, source, options, name):
    """_compile_cached, with a hint added to the CompileError of OpenCL C compiled as .k."""
    try:
        return _compile_cached(kind, source, options, name)
    except InvalidOptionError:
        raise
    except CompileError as e:
        if not name.endswith(".cl") and _looks_like_opencl(source, e.log):
            raise CompileError(e.log + _OPENCL_HINT, e.name) from None
        raise


_warned = {}  # the warnings registry of kcc.compile: each warning once per process


def _issue_warnings(log, name, source):
    """Each warning of the compiler's log as a Python warning (kcc.KccWarning) at the kernel
    source's file and line; the source's lines go to linecache so that the warning shows
    the right one (not a file of that name in the current directory)."""
    if "warning:" not in log:
        return
    import linecache
    import re
    import warnings
    src = source if isinstance(source, str) else bytes(source).decode("utf-8", "replace")
    lines = src.splitlines(True)
    linecache.cache[name] = (len(src), None, lines, name)  # mtime None: never reloaded
    for m in re.finditer(r"^(.*?):(\d+):(\d+): warning: (.*)$", log, re.M):
        warnings.warn_explicit("%s (%s:%s:%s)" % (m.group(4), m.group(1), m.group(2),
                                                  m.group(3)),
                               KccWarning, m.group(1), int(m.group(2)), module="kcc",
                               registry=_warned)


def compile(source, options=(), name=None, bounds_check=None):
    """Compiles kernel source (the kcc dialect, or OpenCL C when name ends in .cl) to a
    Module. options: the kcc command line's compile options ('-O2', '-DN=4', '-arch=sm_90',
    '-I', 'dir'...). bounds_check: add -fbounds-check (True), not (False), or (None) as
    $KCC_BOUNDS_CHECK says, else when the current device is a CPU device (docs/python.md,
    "Mistakes in kernels"). The compiler's warnings are issued as kcc.KccWarning. Bundles are
    cached on disk by source, options, name and compiler; KCC_CACHE=0 turns the cache off."""
    options = _check_options(options, "kcc.compile")
    for o in options:
        if o.startswith("--emit"):
            raise InvalidOptionError("kcc.compile makes bundles (what kcc.Module loads); for "
                                     "another form use kcc.emit(source, form)\n")
    name = name or "kernel.k"
    choice = True if "-fbounds-check" in options else _bounds_check_choice(bounds_check)
    checked = choice if choice is not None else _current_device_type() == "cpu"
    plain = tuple(o for o in options if o != "-fbounds-check")
    bundle, log, cached = _compile_hinted(
        "bundle", source, plain + ("-fbounds-check",) if checked else plain, name)
    every_device = False
    if checked and choice is None:
        alt = _unchecked_for_opencl(bundle, source, plain, name)
        if alt is not None:
            (bundle, log, cached), checked, every_device = alt, False, True
    _issue_warnings(log, name, source)
    m = Module(bundle, name, log, cached)
    m.checked = checked
    if choice is None and not every_device:
        # the device decides: another kind of device gets the other variant
        m._variant_source = (source, plain, name)
    return m


_KCB_OPENCL_FORMS = (5, 6, 11)  # the SPIRV, OPENCL_C and VKSPIRV sections (docs/bundle.md)


def _unchecked_for_opencl(bundle, source, plain, name):
    """The unchecked compile's (bundle, log, cached) when the checked `bundle` has no form a
    CPU device loads (no SPIR-V, OpenCL C or Vulkan SPIR-V) and the unchecked one has: a
    CUDA kernel's texture and surface objects, which -fbounds-check keeps to PTX and CUDA C
    (docs/design.md, "CUDA texture objects on every back end"). A kernel that runs
    unchecked beats one that cannot load; None otherwise (inline PTX: no OpenCL form
    either way)."""
    if _bundle_sections(bundle, _KCB_OPENCL_FORMS) is not False:
        return None
    r = _compile_cached("bundle", source, plain, name)
    return r if _bundle_sections(r[0], _KCB_OPENCL_FORMS) else None


def compile_file(path, options=(), name=None, bounds_check=None):
    """kcc.compile on a file's text, under its path (so that its #includes are found)."""
    path = os.fspath(path)
    with open(path, "rb") as f:
        src = f.read()
    return compile(src, options, name or path, bounds_check)


def emit(source, form="ptx", options=(), name=None):
    """Compiles to another output form: 'ptx', 'spirv', 'cl', 'cuda', 'llvm', 'header',
    'kir', 'bundle'. Returns str for text forms, bytes for 'spirv' and 'bundle'."""
    options = _check_options(options, "kcc.emit") + ("--emit=" + form,)
    out, log, _ = _compile_hinted("emit", source, options, name or "kernel.k")
    return out if form in ("spirv", "bundle") else out.decode("utf-8", "replace")


def load(path):
    """A Module from a bundle file (.kcb) written by `kcc file.k -o file.kcb`."""
    with open(os.fspath(path), "rb") as f:
        data = f.read()
    return Module(data, os.fspath(path))


def stats():
    """{'compiles': libkcc compiles in this process, 'cache_hits': bundles from the cache}."""
    return dict(_stats)


# ---------------------------------------------------------------- modules and kernels

_KCB_MAGIC = b"\x89KCB\r\n\x1a\n"
_KCB_BOUNDS = 9  # the BOUNDS section: present exactly in bundles made with -fbounds-check


def _bundle_sections(bundle, kinds):
    """Whether a bundle has a non-empty section of one of `kinds` (docs/bundle.md; libkcrt
    checks the rest when it loads the bundle). None when the header or the section table is
    cut short."""
    if len(bundle) < 48:
        return None
    header_size = int.from_bytes(bundle[12:16], "little")
    count = int.from_bytes(bundle[24:28], "little")
    end = header_size + 32 * count
    if end > len(bundle):
        return None
    for i in range(header_size, end, 32):
        if int.from_bytes(bundle[i:i + 4], "little") in kinds and \
                int.from_bytes(bundle[i + 16:i + 24], "little"):
            return True
    return False


def _bundle_checked(bundle):
    """Whether a bundle was compiled with -fbounds-check: it has a non-empty BOUNDS section.
    None when the header or the section table is cut short."""
    return _bundle_sections(bundle, (_KCB_BOUNDS,))

# The modules with kernels kept as attributes, for select_device() to forget them.
_modules_kept = weakref.WeakSet()
_modules_lock = threading.Lock()


def _forget_kernels():
    """Drops the kernels modules keep as attributes (they are the previous device's)."""
    with _modules_lock:
        for m in list(_modules_kept):
            for name in m._kept:
                m.__dict__.pop(name, None)
            m._kept.clear()
        _modules_kept.clear()


class Module:
    """A compiled bundle. Its kernels are attributes: mod.vecadd[grid, block](*args). Loaded
    on a device at the first kernel looked up there."""

    def __init__(self, bundle, name=None, log="", from_cache=False):
        if not bundle.startswith(_KCB_MAGIC):
            raise InvalidModuleError("%s is not a kcc bundle (no .kcb magic)" % (name or "data"),
                                     "KCRT_ERROR_INVALID_MODULE")
        self.bundle = bundle
        self.name = name
        self.log = log  # the compiler's warnings, if any
        self.from_cache = from_cache
        self.checked = _bundle_checked(bundle)  # compiled with -fbounds-check
        self._variant_source = None  # (source, options, name): the device decides the checks
        self._variants = {}  # checked (bool) -> the other variant's bundle, once compiled
        self._loaded = {}
        self._lock = threading.Lock()
        self._kept = set()  # kernels kept as attributes (__getattr__)

    def __repr__(self):
        return "<kcc.Module %s%s%s>" % (
            self.name, ", bounds-checked" if self.checked else "",
            ", from the cache" if self.from_cache else "")

    def _bundle_for(self, device):
        """The bundle to load on `device`: this module's, or, when kcc.compile left the
        bounds checks to the device and `device` is of the other kind (a CPU device for an
        unchecked module, a GPU for a checked one), the other variant, compiled now (or
        found in the cache)."""
        if self._variant_source is None or (device.type == "cpu") == self.checked:
            return self.bundle
        want = device.type == "cpu"
        b = self._variants.get(want)
        if b is None:
            source, plain, name = self._variant_source
            b, _, _ = _compile_cached("bundle", source,
                                      plain + ("-fbounds-check",) if want else plain, name)
            if want and _unchecked_for_opencl(b, source, plain, name) is not None:
                b = self.bundle  # texture objects: unchecked on CPU devices too
            self._variants[want] = b
        return b

    def _state(self, device):
        st = self._loaded.get(device.index)
        if st is None:
            with self._lock:
                st = self._loaded.get(device.index)
                if st is None:
                    bundle = self._bundle_for(device)
                    h = ctypes.c_void_p()
                    _check(N.kcrt().kcrt_module_load(device._open(), bundle, len(bundle),
                                                     ctypes.byref(h)),
                           "loading %s on %s" % (self.name or "the module", device.name))
                    st = self._loaded[device.index] = (h.value, {})
        return st

    def checked_on(self, device=None):
        """Whether the module runs bounds-checked on `device` (default: the current one):
        `checked`, unless kcc.compile left the choice to the device (then: a CPU device)."""
        device = device or get_device()
        if self._variant_source is None:
            return self.checked
        if device.type == "cpu" and not self.checked:
            return self._bundle_for(device) is not self.bundle
        return device.type == "cpu"

    def kernel_names(self, device=None):
        """The names of the module's kernels (loading it on `device`, default the current
        one)."""
        h, _ = self._state(device or get_device())
        lib = N.kcrt()
        n = ctypes.c_int()
        _check(lib.kcrt_module_kernel_count(h, ctypes.byref(n)))
        return [lib.kcrt_module_kernel_name(h, i).decode() for i in range(n.value)]

    def get_kernel(self, name, device=None):
        """The kernel `name` on `device` (default: the current device), a kcc.Kernel; the
        module is loaded there the first time. KernelNotFoundError when there is none."""
        device = device or get_device()
        h, kernels = self._state(device)
        k = kernels.get(name)
        if k is None:
            kh = ctypes.c_void_p()
            st = N.kcrt().kcrt_kernel_get(h, name.encode(), ctypes.byref(kh))
            if st:
                raise kcrt_error(N.kcrt(), st)
            k = kernels[name] = Kernel(kh.value, device, self)
        return k

    def __getattr__(self, name):
        """mod.NAME: get_kernel(NAME) on the current device, kept as an attribute of the module
        so that the next mod.NAME costs an attribute read (select_device() to another device
        drops the kept ones)."""
        if name.startswith("_"):
            raise AttributeError(name)
        k = self.get_kernel(name)
        if _current is k.device:
            with _modules_lock:
                self.__dict__[name] = k
                self._kept.add(name)
                _modules_kept.add(self)
        return k

    def __dir__(self):
        try:
            return sorted(set(super().__dir__()) | set(self.kernel_names()))
        except Exception:
            return super().__dir__()


def _dim3(v, what):
    if isinstance(v, tuple) or isinstance(v, list):
        if not 1 <= len(v) <= 3:
            raise ValueError("%s must have 1 to 3 dimensions, got %r" % (what, v))
        t = [operator.index(x) for x in v] + [1] * (3 - len(v))
    else:
        try:
            t = [operator.index(v), 1, 1]
        except TypeError:
            raise TypeError("%s must be an int or a tuple of up to 3 ints, not %r"
                            % (what, v)) from None
    for x in t:
        if x < 0:
            raise ValueError("%s has a negative size: %r" % (what, v))
        if x >= 1 << 64:
            raise OverflowError("%s does not fit in 64 bits: %r" % (what, v))
    return N.Dim3(*t)


class _Param:
    """A kernel parameter (kernel.params): index, name, ctype (its C type), kind (1 pointer,
    2 scalar or vector, 3 struct, 4 local memory), size, const (a pointer to const)."""

    __slots__ = ("index", "name", "ctype", "kind", "size", "elem_type", "const", "scalar",
                 "vec_len", "store")

    def __repr__(self):
        return "<kcc parameter %d of %s: %s>" % (self.index, self.ctype, self.name)


class Kernel(N.fast.KernelBase if N.fast else object):
    """A kernel of a module on one device: kernel[grid, block](*args),
    kernel[grid, block, shared_bytes, stream](*args). (With kcc._fastlaunch, kernel[...] and
    the launch are its C base's and Launch's; the setters below still convert what C does not
    take, and raise every argument error.)"""

    def __init__(self, handle, device, module):
        self._h = handle
        self.device = device
        self.module = module
        lib = N.kcrt()
        info = N.KernelInfo()
        _check(lib.kcrt_kernel_get_info(handle, ctypes.byref(info)))
        self.name = info.name.decode()
        self.max_threads_per_block = info.max_threads_per_block
        self.static_shared_bytes = info.static_shared_bytes
        n = info.num_params
        self._cargs = (N.Arg * max(n, 1))()
        self._cargs_ptr = ctypes.addressof(self._cargs)
        self._lock = threading.Lock()
        self._configs = {}
        self.params = []
        setters = []
        for i in range(n):
            pi = N.ParamInfo()
            _check(lib.kcrt_kernel_param_info(handle, i, ctypes.byref(pi)))
            p = _Param()
            p.index, p.name = i, pi.name.decode()
            # libkcrt spells pointer parameters with their space ("global const float *"):
            # kept out of messages, which speak the kernel's language.
            t = pi.type.decode()
            p.ctype = t[7:] if t.startswith("global ") else t
            p.kind, p.size, p.elem_type = pi.kind, pi.size, pi.elem_type
            p.scalar, p.vec_len = pi.elem_type & 0xFF, pi.elem_type >> 8
            # const pointee: a `const` before the last '*' (numba's rule, made precise: what
            # the kernel cannot write is not copied back).
            p.const = p.kind == PARAM_POINTER and "const" in t.rsplit("*", 1)[0].split()
            p.store = None
            self.params.append(p)
            setters.append(self._setter(p, self._cargs[i]))
        self._setters = setters
        self.signature = "%s(%s)" % (self.name, ", ".join("%s %s" % (p.ctype, p.name)
                                                          for p in self.params))
        if N.fast:
            self._fast_setup(handle, self._cargs_ptr, tuple(setters), device,
                             tuple(_fast_code(p) for p in self.params))

    def __repr__(self):
        return "<kcc.Kernel %s on %s>" % (self.signature, self.device.name)

    # ---- argument conversion, one closure per parameter, made once

    def _setter(self, p, arg):
        kname = self.name
        where = "kernel '%s' parameter '%s' (%s)" % (kname, p.name, p.ctype)
        if p.kind == PARAM_POINTER:
            return self._pointer_setter(p, arg, where)
        if p.kind in (PARAM_IMAGE, PARAM_SAMPLER):
            from ._image import image_setter  # kcc.Image, kcc.Sampler
            return image_setter(p, arg, where, self.device)
        if p.kind in (PARAM_TEXTURE, PARAM_SURFACE):
            from ._image import texobj_setter  # kcc.Texture, kcc.Surface
            return texobj_setter(p, arg, where, self.device)
        if p.kind == PARAM_LOCAL:
            marker = N.kcrt().local_marker

            def set_local(a):
                n = a.nbytes if type(a) is local else a
                try:
                    n = operator.index(n)
                except TypeError:
                    raise TypeError("%s is local memory: pass its size in bytes (an int or "
                                    "kcc.local(n)), not %s" % (where, type(a).__name__)) from None
                if n <= 0:
                    raise ValueError("%s: local memory of %d bytes" % (where, n))
                arg.value = marker
                arg.size = n
                arg.buffer = None
            return set_local
        if p.kind == PARAM_STRUCT or p.scalar not in _ET:
            size = p.size
            keep = []

            def set_bytes(a):
                try:
                    b = bytes(memoryview(a).cast("B"))
                except TypeError:
                    raise TypeError("%s: pass the struct as bytes-like data of %d bytes (a "
                                    "numpy structured scalar or array element, a ctypes "
                                    "Structure), not %s" % (where, size, type(a).__name__)) \
                        from None
                if len(b) != size:
                    raise ValueError("%s: %d bytes given, the struct has %d"
                                     % (where, len(b), size))
                buf = ctypes.create_string_buffer(b, size)
                keep[:] = [buf]
                arg.value = ctypes.addressof(buf)
                arg.size = size
                arg.buffer = None
            return set_bytes
        # Scalars and vectors.
        dname, ctype, lo, hi, kind = _ET[p.scalar]
        count = p.vec_len
        slots = 4 if count == 3 else max(count, 1)
        store = (ctype * slots)()
        p.store = store
        arg.value = ctypes.addressof(store)
        arg.size = p.size
        arg.buffer = None

        def convert(a):
            t = type(a)
            if kind == "f":
                if t is float or t is int:
                    try:
                        v = float(a)
                    except OverflowError:  # an int beyond any double
                        raise OverflowError("%s: %d is out of %s's range"
                                            % (where, a, p.ctype)) from None
                else:
                    try:
                        v = float(operator.index(a)) if not hasattr(a, "__float__") else float(a)
                    except TypeError:
                        raise TypeError("%s takes a number, not %s" % (where, t.__name__)) \
                            from None
                    if hasattr(a, "imag") and a.imag:
                        raise TypeError("%s takes a real number, not %r" % (where, a))
                if dname == "float32" and abs(v) > _FLT_MAX and v == v and abs(v) != float("inf"):
                    raise OverflowError("%s: %r is out of float's range" % (where, a))
                return v
            if t is not int and getattr(getattr(a, "dtype", None), "kind", None) == "b":
                a = int(a)  # numpy.bool_ as Python's bool: NumPy 2 gives it no __index__
            elif t is not int:
                if t is float or (hasattr(a, "dtype") and a.dtype.kind == "f"):
                    raise TypeError("%s takes an integer, not %s %r" % (where, t.__name__, a))
                try:
                    a = operator.index(a)
                except TypeError:
                    raise TypeError("%s takes an integer, not %s" % (where, t.__name__)) \
                        from None
            if a < lo or a > hi:
                raise OverflowError("%s: %d is out of range [%d, %d]" % (where, a, lo, hi))
            return a

        if count == 0 and kind == "i":
            def set_int(a):
                if type(a) is int and lo <= a <= hi:  # the common case, without a call
                    store[0] = a
                else:
                    store[0] = convert(a)
            return set_int
        if count == 0:
            def set_scalar(a):
                store[0] = convert(a)
            return set_scalar

        def set_vector(a):
            try:
                items = list(a)
            except TypeError:
                raise TypeError("%s takes %d values (a tuple or array), not %s"
                                % (where, count, type(a).__name__)) from None
            if len(items) != count:
                raise ValueError("%s takes %d values, got %d" % (where, count, len(items)))
            for j, x in enumerate(items):
                store[j] = convert(x)
        return set_vector

    def _pointer_setter(self, p, arg, where):
        want = p.scalar if p.scalar in _ET else 0
        vec = p.vec_len
        slots = 4 if vec == 3 else vec
        dev = self.device
        const = p.const
        lib = N.kcrt()

        def check_dtype(dtype, shape, et):
            if not want:
                return
            if et != want:
                raise TypeError("%s: got an array of %s, the kernel's elements are %s"
                                % (where, dtype, _ET[want][0]))
            if vec and (not shape or shape[-1] != slots):
                raise TypeError("%s: an array of %s for %d-vectors needs a last dimension of "
                                "%d, got shape %r" % (where, dtype, vec, slots, shape))

        last = [None]  # the device array the argument slot holds now
        # With the C launch path, C writes the slots of device arrays itself: a slot is then
        # not known here, so each call sets it.
        cache = N.fast is None

        def need_cuda(a, what):
            if dev.backend != "cuda":
                raise TypeError("%s: a %s (%s) needs a CUDA device; the kernel is on %s (%s)"
                                % (where, what, type(a).__name__, dev.name, dev.backend))

        def wrap(h, ptr, shape, dtype, stream, keep):
            """The argument slot over another library's memory, used in place: waits for its
            stream first; `keep` goes into the launch's list (freed, or released, after)."""
            check_dtype(dtype, shape, _et_of_dtype(dtype))
            if stream is not None:
                _check(lib.kcrt_device_wait_stream(h, stream), where)
            size = 1
            for n in shape:
                size *= n
            arg.value = None
            arg.size = 0
            last[0] = None
            arg.buffer = None
            if not size:
                return None
            w = ctypes.c_void_p()
            _check(lib.kcrt_buffer_wrap(h, ptr, size * dtype.itemsize, ctypes.byref(w)), where)
            arg.buffer = w.value
            return (w.value, keep, None, 0, True)  # no copy back

        def wrap_dlpack(a):
            """Another library's tensor through DLPack (JAX...)."""
            need_cuda(a, "DLPack tensor")
            from . import _dlpack
            t = _dlpack.view(a)
            try:
                if t.device_type != _dlpack.KDL_CUDA or t.device_id != dev.backend_index:
                    raise ValueError("%s: the DLPack tensor is on device type %d id %d, not on "
                                     "CUDA device %d" % (where, t.device_type, t.device_id,
                                                         dev.backend_index))
                if t.dtype is None:
                    raise TypeError("%s: the DLPack tensor's element type has no numpy "
                                    "equivalent" % where)
                if not t.contiguous:
                    raise ValueError("%s: the DLPack tensor is not C-contiguous" % where)
                # stream 1: what view() asked __dlpack__ to order its work before
                r = wrap(dev._open(), t.data, t.shape, _numpy().dtype(t.dtype), 1, t)
            except BaseException:
                t.release()
                raise
            if r is None:
                t.release()
            return r  # t: released after the launch

        def wrap_cuda_array(a, cai):
            """Another library's CUDA array (CuPy, PyTorch, numba)."""
            need_cuda(a, "CUDA array")
            dtype = _numpy().dtype(cai["typestr"])
            shape = tuple(cai["shape"])
            strides = cai.get("strides")
            if strides is not None:
                want, step = [], dtype.itemsize
                for n in reversed(shape):
                    want.append(step)
                    step *= n
                if step > dtype.itemsize and tuple(strides) != tuple(reversed(want)):
                    raise ValueError("%s: the CUDA array is not C-contiguous (strides %r)"
                                     % (where, tuple(strides)))
            ptr, readonly = cai["data"]
            if readonly and not const:
                raise ValueError("%s: the CUDA array is read-only but the parameter is not "
                                 "const" % where)
            return wrap(dev._open(), ptr, shape, dtype, cai.get("stream"), a)  # v3's stream

        def set_pointer(a):
            if type(a) is DeviceArray:
                if a is last[0] and cache and a._buf is not None:
                    return None  # launched with the same array again: the slot is set
                if a.device is not dev:
                    raise ValueError("%s: the array is on device %d (%s), the kernel on %d (%s)"
                                     % (where, a.device.index, a.device.name, dev.index,
                                        dev.name))
                if a._buf is None:
                    raise ValueError("%s: the device array was freed" % where)
                if a._et != want or vec:
                    check_dtype(a.dtype, a.shape, a._et)
                arg.buffer = a._buf
                arg.value = None
                arg.size = 0
                last[0] = a
                return None
            last[0] = None
            if isinstance(a, _View):
                # A view in C order from its buffer's start is that buffer; any other would
                # need a copy, which a kernel's writes would not reach: refused.
                if a.device is not dev:
                    raise ValueError("%s: the array is on device %d (%s), the kernel on %d (%s)"
                                     % (where, a.device.index, a.device.name, dev.index,
                                        dev.name))
                a._alive(where)
                if not a._whole:
                    raise ValueError(
                        "%s: the kcc array is a view %s (shape %s, strides %s, offset %d "
                        "elements): a kernel takes an array by its buffer, in C order from "
                        "its first element. Pass a contiguous copy (v.copy(); copy the results "
                        "back with v[...] = c) or the array it views"
                        % (where, "at an offset" if a._contiguous else "with strides",
                           a.shape, a.strides, a._off))
                if a._et != want or vec:
                    check_dtype(a.dtype, a.shape, a._et)
                arg.buffer = a._buf
                arg.value = None
                arg.size = 0
                return None
            if a is None:
                arg.buffer = None
                arg.value = None
                arg.size = 0
                return None
            if not _is_ndarray(a):
                cai = getattr(a, "__cuda_array_interface__", None)
                if cai is not None:
                    return wrap_cuda_array(a, cai)
                if hasattr(a, "__dlpack__"):
                    return wrap_dlpack(a)
                from . import _image
                if isinstance(a, (_image.Image, _image.Sampler)):
                    raise TypeError("%s is a pointer: it takes an array, not a kcc.%s (an "
                                    "OpenCL image or sampler goes to an image2d_t & co. or "
                                    "sampler_t parameter)" % (where, type(a).__name__))
                if isinstance(a, (_image.Texture, _image.Surface)):
                    raise TypeError("%s is a pointer: it takes an array, not a kcc.%s (a CUDA "
                                    "texture or surface object goes to a cudaTextureObject_t "
                                    "or cudaSurfaceObject_t parameter)"
                                    % (where, type(a).__name__))
                raise TypeError("%s takes a numpy array, a kcc device array or a CUDA array "
                                "(__cuda_array_interface__), not %s" % (where, type(a).__name__))
            check_dtype(a.dtype, a.shape, _et_of_dtype(a.dtype))
            if not const and not a.flags.writeable:
                raise ValueError("%s: the array is read-only but the parameter is not const "
                                 "(the kernel's results are copied back into it)" % where)
            np = _numpy()
            host = a if a.flags.c_contiguous else np.ascontiguousarray(a)
            nbytes = host.nbytes
            h = ctypes.c_void_p()
            _check(lib.kcrt_buffer_alloc(dev._open(), max(nbytes, 1), ctypes.byref(h)),
                   "%s: allocating %d bytes" % (where, nbytes))
            buf = h.value
            if nbytes:
                st = lib.kcrt_buffer_write(buf, 0, host.ctypes.data, nbytes)
                if st:
                    lib.kcrt_buffer_free(buf)
                    _check(st, where)
            arg.buffer = buf
            arg.value = None
            arg.size = 0
            return (buf, a, host, nbytes, const)
        return set_pointer

    # ---- launching

    def _getitem(self, config):  # Kernel.__getitem__ without kcc._fastlaunch
        c = None
        if type(config) is tuple:
            try:
                c = self._configs.get(config)
            except TypeError:
                pass  # unhashable (a list inside): configured, not kept
        if c is None:
            c = self._configure(config)
        return c

    def _configure(self, config):
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise TypeError("launch configuration: kernel[grid, block], kernel[grid, block, "
                            "shared_bytes] or kernel[grid, block, shared_bytes, stream], "
                            "not kernel[%r]" % (config,))
        grid = _dim3(config[0], "grid")
        block = _dim3(config[1], "block")
        shared = operator.index(config[2]) if len(config) > 2 else 0
        if shared < 0:
            raise ValueError("shared_bytes is negative: %d" % shared)
        stream = config[3] if len(config) > 3 else None
        sh = _stream_handle(stream)
        if N.fast:
            launch = N.fast.Launch(self, (grid.x, grid.y, grid.z), (block.x, block.y, block.z),
                                   shared, sh, stream)
        else:
            launch = _Launch(self, grid, block, shared, sh, stream)
        try:
            if len(self._configs) > 64:
                self._configs.clear()
            self._configs[config] = launch
        except TypeError:
            pass  # unhashable (a list): fine, just not kept
        return launch

    def _wrong_count(self, n):
        m = len(self._setters)
        return TypeError("kernel %s takes %d argument%s, got %d"
                         % (self.signature, m, "" if m == 1 else "s", n))

    def _finish(self, posts, sh):
        """After a launch with numpy arrays: waits, copies the non-const ones back. A wait
        interrupted (Ctrl-C) leaves the kernel running with the launch's temporary buffers
        and host arrays: all are kept (_pinned, _abandoned), none freed."""
        n = len(_abandoned)
        try:
            self._finish_copies(posts, sh)
        except BaseException:
            if len(_abandoned) != n:  # an interrupted wait
                for p in posts:
                    _pinned.add(p[0])
            raise

    def _finish_copies(self, posts, sh):
        lib = N._kcrt
        context = "launching %s" % self.name
        waited = False
        if sh:
            _wait_call(lib.kcrt_queue_synchronize, sh, context=context)
            waited = True
        foreign = False
        for buf, a, host, nbytes, const in posts:
            if host is None:  # another library's CUDA array: it must see the results
                foreign = True
                continue
            if not const and nbytes:
                if waited:  # the kernel is done: a plain read
                    _check(lib.kcrt_buffer_read(buf, 0, host.ctypes.data, nbytes), context)
                else:  # waits for the kernel: interruptibly
                    _wait_call(lib.kcrt_buffer_read, buf, 0, host.ctypes.data, nbytes,
                               context=context, keep=host, buffer=buf)
                    waited = True
                if host is not a:
                    _numpy().copyto(a, host)
        if foreign and not sh:
            _wait_call(lib.kcrt_device_synchronize, self.device._open(), context=context)

    def _after_launch(self, posts, sh, st):
        """After kcrt_launch returned `st`: its exception, else the copies back of `posts`
        (what the setters returned); the temporary buffers freed either way."""
        try:
            if st:
                raise kcrt_error(N._kcrt, st, "launching %s" % self.name)
            if posts:
                self._finish(posts, sh)
        finally:
            if posts:
                self._release(posts)

    @staticmethod
    def _release(posts):
        lib = N._kcrt
        for p in posts:
            if p[0] in _pinned:  # an interrupted read-back still uses it: kept
                _abandoned.append(p)
                continue
            lib.kcrt_buffer_free(p[0])
            if type(p[1]).__module__ == "kcc._dlpack":
                p[1].release()  # a DLPack tensor: give it back

    def __call__(self, *args):
        raise TypeError("launch kernel '%s' with a configuration: %s[grid, block](...)"
                        % (self.name, self.name))


if N.fast is None:
    Kernel.__getitem__ = Kernel._getitem


def _fast_code(p):
    """The (FAST_*, element type) pair of a parameter, for kcc._fastlaunch."""
    if p.kind == PARAM_POINTER and not p.vec_len:
        return (FAST_BUFFER, p.scalar if p.scalar in _ET else 0)
    if p.kind == PARAM_SCALAR and not p.vec_len and p.scalar in _ET:
        kind = _ET[p.scalar][4]
        if kind == "i":
            return (FAST_INT, p.scalar)
        if kind == "f":
            return (FAST_DOUBLE if p.scalar == 11 else FAST_FLOAT, p.scalar)
    if p.kind in (PARAM_TEXTURE, PARAM_SURFACE):
        return (FAST_TEXOBJ, p.kind)  # a kcc.Texture / kcc.Surface by its handle
    return (FAST_PYTHON, 0)


class _Launch:
    """kernel[grid, block] without kcc._fastlaunch: call it with the kernel's arguments."""

    __slots__ = ("kernel", "grid", "block", "shared", "sh", "stream")

    def __repr__(self):
        g, b = self.grid, self.block
        return "<kcc launch %s[(%d, %d, %d), (%d, %d, %d), %d]>" % (
            self.kernel.name, g.x, g.y, g.z, b.x, b.y, b.z, self.shared)

    def __init__(self, kernel, grid, block, shared, sh, stream):
        self.kernel, self.grid, self.block = kernel, grid, block
        self.shared, self.sh, self.stream = shared, sh, stream

    def __call__(self, *args, **kw):
        if kw:
            raise TypeError("a kernel launch takes no keyword arguments")
        k = self.kernel
        setters = k._setters
        if len(args) != len(setters):
            raise k._wrong_count(len(args))
        lib = N._kcrt
        posts = None
        with k._lock:
            try:
                for f, a in zip(setters, args):
                    r = f(a)
                    if r is not None:  # a numpy array, in a temporary device buffer
                        if posts is None:
                            posts = []
                        posts.append(r)
                st = lib.kcrt_launch(k._h, self.sh, self.grid, self.block, self.shared,
                                     k._cargs_ptr, len(setters))
                if self.sh and not st:
                    _mark_stream_use(args, self.sh)
            except BaseException:
                if posts:
                    k._release(posts)
                raise
            if st or posts:
                k._after_launch(posts, self.sh, st)
