"""ctypes bindings of libkcrt (runtime/include/kcrt.h) and libkcc (driver/include/libkcc.h),
and the launch path's extension module kcc._fastlaunch (python/src/fastlaunch.c) where it is.

Both libraries are opened on first use, not at import: libkcc pulls in LLVM and libclang
(about 100 MB of shared objects), which a process that only loads cached bundles never needs.
Where they are looked for: $KCC_LIBDIR (directories separated by ':'), then this package's directory (a wheel carries both),
then the loader's path (an installed kcc).
"""
import ctypes
import os
import threading

c_size_t = ctypes.c_size_t
c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_u64 = ctypes.c_uint64


class DeviceInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char * 256),
        ("vendor", ctypes.c_char * 128),
        ("driver_version", ctypes.c_char * 128),
        ("platform", ctypes.c_char * 128),
        ("backend", c_int),
        ("type", c_int),
        ("backend_index", c_int),
        ("global_mem_bytes", c_u64),
        ("max_alloc_bytes", c_u64),
        ("compute_units", ctypes.c_uint32),
        ("max_block_dim", c_u64 * 3),
        ("max_threads_per_block", c_u64),
        ("max_grid_dim", c_u64 * 3),
        ("max_shared_bytes", c_u64),
        ("cc_major", c_int),
        ("cc_minor", c_int),
        ("spirv", c_int),
        ("fp64", c_int),
        ("denormals", c_int),
    ]


class ParamInfo(ctypes.Structure):
    _fields_ = [
        ("name", c_char_p),
        ("type", c_char_p),
        ("kind", c_int),
        ("size", c_size_t),
        ("align", c_size_t),
        ("elem_type", c_int),
    ]


class KernelInfo(ctypes.Structure):
    _fields_ = [
        ("name", c_char_p),
        ("num_params", c_int),
        ("static_shared_bytes", c_u64),
        ("uses_dynamic_shared", c_int),
        ("max_threads_per_block", c_u64),
        ("required_block", c_u64 * 3),
    ]


class Dim3(ctypes.Structure):
    _fields_ = [("x", c_u64), ("y", c_u64), ("z", c_u64)]


class Arg(ctypes.Structure):
    _fields_ = [("value", c_void_p), ("size", c_size_t), ("buffer", c_void_p)]


_lock = threading.Lock()
_kcrt = None
_kcc = None

# The launch path in C (kcc._fastlaunch, python/src/fastlaunch.c), or None: launches through
# ctypes. Looked for where the libraries are ($KCC_LIBDIR, then this package's directory);
# KCC_PYEXT=0 leaves it unused. fast_error says why there is none (not found, not loadable).
FAST_VERSION = 7  # the contract with fastlaunch.c (its VERSION)
FAST_NAME = "_fastlaunch.abi3.so"
fast = None
fast_error = None


def _load_fast():
    global fast, fast_error
    if os.environ.get("KCC_PYEXT", "").lower() in ("0", "off", "no", "false"):
        fast_error = "KCC_PYEXT=%s" % os.environ["KCC_PYEXT"]
        return
    from importlib.machinery import ExtensionFileLoader, ModuleSpec
    dirs = [d for d in os.environ.get("KCC_LIBDIR", "").split(os.pathsep) if d]
    dirs.append(os.path.dirname(os.path.abspath(__file__)))
    for d in dirs:
        path = os.path.join(d, FAST_NAME)
        if not os.path.exists(path):
            continue
        try:
            loader = ExtensionFileLoader("kcc._fastlaunch", path)
            m = loader.create_module(ModuleSpec("kcc._fastlaunch", loader, origin=path))
            loader.exec_module(m)
        except ImportError as e:  # another platform's build: ctypes it is
            fast_error = "%s: %s" % (path, e)
            return
        if getattr(m, "VERSION", None) != FAST_VERSION:
            fast_error = "%s: version %r, this package needs %d" % (
                path, getattr(m, "VERSION", None), FAST_VERSION)
            return
        fast = m
        return
    fast_error = "no %s in %s" % (FAST_NAME, os.pathsep.join(dirs))


_load_fast()


def _candidates(stem):
    names = [stem + ".so.0", stem + ".so"]
    dirs = []
    env = os.environ.get("KCC_LIBDIR")
    if env:
        dirs += [d for d in env.split(os.pathsep) if d]
    dirs.append(os.path.dirname(os.path.abspath(__file__)))
    for d in dirs:
        for n in names:
            # Absolute, also for a relative KCC_LIBDIR: libkcc_path() (the compile cache's
            # key) would otherwise not find the file it names, and a rebuilt libkcc would
            # answer from the old one's cache entries.
            p = os.path.abspath(os.path.join(d, n))
            if os.path.exists(p):
                yield p
    for n in names:
        yield n


def _open(stem):
    errors = []
    for path in _candidates(stem):
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise OSError("kcc: cannot load %s (set KCC_LIBDIR to the directory holding it): %s"
                  % (stem, "; ".join(errors[-2:])))


def _proto(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


def kcrt():
    """libkcrt, opened on first use."""
    global _kcrt
    if _kcrt is not None:
        return _kcrt
    with _lock:
        if _kcrt is not None:
            return _kcrt
        lib = _open("libkcrt")
        P = ctypes.POINTER
        st = c_int
        _proto(lib, "kcrt_status_name", c_char_p, c_int)
        _proto(lib, "kcrt_last_error", c_char_p)
        _proto(lib, "kcrt_device_count", st, P(c_int))
        _proto(lib, "kcrt_backend_status", c_char_p, c_int)
        _proto(lib, "kcrt_device_info_get", st, c_int, P(DeviceInfo))
        _proto(lib, "kcrt_device_open", st, c_int, P(c_void_p))
        _proto(lib, "kcrt_device_open_by_name", st, c_char_p, P(c_void_p))
        _proto(lib, "kcrt_device_open_default", st, P(c_void_p))
        _proto(lib, "kcrt_device_get_info", st, c_void_p, P(DeviceInfo))
        _proto(lib, "kcrt_device_synchronize", st, c_void_p)
        _proto(lib, "kcrt_buffer_alloc", st, c_void_p, c_size_t, P(c_void_p))
        _proto(lib, "kcrt_buffer_free", st, c_void_p)
        _proto(lib, "kcrt_buffer_view", st, c_void_p, c_size_t, c_size_t, P(c_void_p))
        _proto(lib, "kcrt_buffer_write", st, c_void_p, c_size_t, c_void_p, c_size_t)
        _proto(lib, "kcrt_buffer_read", st, c_void_p, c_size_t, c_void_p, c_size_t)
        _proto(lib, "kcrt_buffer_copy", st, c_void_p, c_size_t, c_void_p, c_size_t, c_size_t)
        _proto(lib, "kcrt_buffer_fill", st, c_void_p, c_size_t, ctypes.c_ubyte, c_size_t)
        _proto(lib, "kcrt_buffer_set_type", st, c_void_p, c_int, c_size_t)
        _proto(lib, "kcrt_buffer_address", st, c_void_p, P(c_u64))
        _proto(lib, "kcrt_buffer_wrap", st, c_void_p, c_u64, c_size_t, P(c_void_p))
        _proto(lib, "kcrt_device_wait_stream", st, c_void_p, c_u64)
        _proto(lib, "kcrt_queue_create", st, c_void_p, P(c_void_p))
        _proto(lib, "kcrt_queue_destroy", st, c_void_p)
        _proto(lib, "kcrt_queue_synchronize", st, c_void_p)
        _proto(lib, "kcrt_event_create", st, c_void_p, P(c_void_p))
        _proto(lib, "kcrt_event_destroy", st, c_void_p)
        _proto(lib, "kcrt_event_record", st, c_void_p, c_void_p)
        _proto(lib, "kcrt_event_synchronize", st, c_void_p)
        _proto(lib, "kcrt_event_elapsed_ms", st, c_void_p, c_void_p, P(ctypes.c_double))
        _proto(lib, "kcrt_module_load", st, c_void_p, c_void_p, c_size_t, P(c_void_p))
        _proto(lib, "kcrt_module_unload", st, c_void_p)
        _proto(lib, "kcrt_kernel_get", st, c_void_p, c_char_p, P(c_void_p))
        _proto(lib, "kcrt_module_kernel_count", st, c_void_p, P(c_int))
        _proto(lib, "kcrt_module_kernel_name", c_char_p, c_void_p, c_int)
        _proto(lib, "kcrt_kernel_get_info", st, c_void_p, P(KernelInfo))
        _proto(lib, "kcrt_kernel_param_info", st, c_void_p, c_int, P(ParamInfo))
        _proto(lib, "kcrt_image_create", st, c_void_p, c_void_p, P(c_void_p))
        _proto(lib, "kcrt_image_free", st, c_void_p)
        _proto(lib, "kcrt_image_write", st, c_void_p, c_void_p)
        _proto(lib, "kcrt_image_read", st, c_void_p, c_void_p)
        _proto(lib, "kcrt_sampler_create", st, c_void_p, c_int, c_int, c_int, P(c_void_p))
        _proto(lib, "kcrt_sampler_free", st, c_void_p)
        _proto(lib, "kcrt_texture_create", st, c_void_p, c_void_p, c_void_p, P(c_void_p))
        _proto(lib, "kcrt_texture_free", st, c_void_p)
        _proto(lib, "kcrt_surface_create", st, c_void_p, c_void_p, P(c_void_p))
        _proto(lib, "kcrt_surface_free", st, c_void_p)
        _proto(lib, "kcrt_launch", st, c_void_p, c_void_p, Dim3, Dim3, c_size_t, c_void_p,
               c_int)
        lib.local_marker = ctypes.addressof(ctypes.c_ubyte.in_dll(lib, "kcrt_local_marker"))
        if fast is not None:
            fast.bind(ctypes.cast(lib.kcrt_launch, c_void_p).value)
            fast.bind_wait(ctypes.cast(lib.kcrt_last_error, c_void_p).value)
        _kcrt = lib
        return lib


def kcc():
    """libkcc, opened on first use (a compile that the cache did not answer)."""
    global _kcc
    if _kcc is not None:
        return _kcc
    with _lock:
        if _kcc is not None:
            return _kcc
        lib = _open("libkcc")
        P = ctypes.POINTER
        _proto(lib, "kcc_compile", c_int, c_char_p, c_size_t, c_char_p, P(c_char_p), c_int,
               P(c_void_p))
        _proto(lib, "kcc_result_output", c_void_p, c_void_p, P(c_size_t))
        _proto(lib, "kcc_result_log", c_char_p, c_void_p)
        _proto(lib, "kcc_result_dependency_count", c_int, c_void_p)
        _proto(lib, "kcc_result_dependency", c_char_p, c_void_p, c_int)
        _proto(lib, "kcc_result_free", None, c_void_p)
        _proto(lib, "kcc_status_string", c_char_p, c_int)
        _proto(lib, "kcc_version", c_char_p)
        _kcc = lib
        return lib


def libkcc_path():
    """The file libkcc would be loaded from (for cache keys), without loading it."""
    for p in _candidates("libkcc"):
        if os.path.isabs(p):
            return p
    return None
