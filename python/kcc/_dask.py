"""Dask's serializers for kcc.DeviceArray (distributed.protocol), so that arrays travel between
a Dask client and its workers as frames rather than as pickles:

- the "dask" family, every back end: one host frame holding the array's bytes (a copy made on
  the sending side), the shape and dtype in the header; the receiving side puts it on its
  current device, as unpickling does;
- the "cuda" family, arrays on a CUDA device: one device frame, the array's memory itself
  (through __cuda_array_interface__), for transports that move device memory (UCX); the
  receiving side copies the frame into a new array on its CUDA device.

Registered once per process (register()): at kcc's import where distributed.protocol is
already imported, else right after distributed.protocol is imported (hook()): kcc imports
nothing of Dask itself, and a worker that receives a kcc array imports kcc only then.
"""
import importlib.machinery
import math
import sys
import threading

_done = False
_lock = threading.Lock()


def _dtype_header(dtype):
    """The dtype as text (numpy's .npy descr in JSON): msgpack would turn a structured
    dtype's field tuples into lists."""
    import json
    from numpy.lib.format import dtype_to_descr
    return json.dumps(dtype_to_descr(dtype))


def _fields(descr):
    """JSON's lists back into the descr's (name, type[, shape]) tuples, nested fields too."""
    if isinstance(descr, str):
        return descr
    return [tuple([f[0], _fields(f[1])] + [tuple(x) for x in f[2:]]) for f in descr]


def _dtype_of(text):
    import json
    from numpy.lib.format import descr_to_dtype
    return descr_to_dtype(_fields(json.loads(text)))


class _DeviceBytes:
    """The array's memory as a 1-D uint8 device frame (the cuda family's frames are objects
    with __cuda_array_interface__)."""

    def __init__(self, array):
        self._array = array  # keeps the memory alive while the frame is in flight
        self.nbytes = array.nbytes
        cai = array.__cuda_array_interface__  # synchronises kcc's work on the device
        self.__cuda_array_interface__ = {"shape": (array.nbytes,), "typestr": "|u1",
                                         "strides": None, "data": cai["data"], "version": 3,
                                         "stream": None}


def register():
    """Registers the serializers with distributed (once; later calls do nothing)."""
    global _done
    if _done:
        return
    with _lock:
        if _done:
            return
        from distributed.protocol import dask_deserialize, dask_serialize

        from ._core import DeviceArray
        from . import _core

        @dask_serialize.register(DeviceArray)
        def _serialize_host(x):
            x._alive("serializing for Dask")
            host = x.copy_to_host()
            header = {"shape": list(x.shape), "dtype": _dtype_header(x.dtype)}
            return header, [memoryview(host.reshape(-1).view("u1"))]

        @dask_deserialize.register(DeviceArray)
        def _deserialize_host(header, frames):
            import numpy as np
            dtype = _dtype_of(header["dtype"])
            shape = tuple(header["shape"])
            data = b"".join(bytes(f) for f in frames) if len(frames) != 1 else frames[0]
            host = np.frombuffer(data, dtype=dtype, count=math.prod(shape)).reshape(shape)
            return _core.to_device(host)

        try:
            from distributed.protocol.cuda import cuda_deserialize, cuda_serialize
        except ImportError:  # an older distributed without the cuda family
            cuda_serialize = None
        if cuda_serialize is not None:
            @cuda_serialize.register(DeviceArray)
            def _serialize_device(x):
                x._alive("serializing for Dask")
                if x.device.backend != "cuda":
                    # Declined: distributed tries the next family ("dask", host frames).
                    raise NotImplementedError("a kcc array on %s (%s) has no CUDA device "
                                              "frame" % (x.device.name, x.device.backend))
                header = {"shape": list(x.shape), "dtype": _dtype_header(x.dtype)}
                if not x._contiguous:  # a strided view: its elements, contiguous
                    x = x.copy()
                return header, [_DeviceBytes(x)]

            @cuda_deserialize.register(DeviceArray)
            def _deserialize_device(header, frames):
                (frame,) = frames
                dtype = _dtype_of(header["dtype"])
                return _core._from_device_frame(frame, tuple(header["shape"]), dtype)

        _done = True


class _AfterImport:
    """A meta path finder (importlib.abc.MetaPathFinder's protocol; the ABC module is not
    imported for it): finds distributed.protocol with the other finders and registers kcc's
    serializers once it has been executed."""

    def find_spec(self, name, path=None, target=None):
        if name != "distributed.protocol":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _AfterImport)]
            register()

        spec.loader.exec_module = exec_module
        return spec


def hook():
    """Registers now if distributed.protocol is imported, else when it is."""
    if "distributed.protocol" in sys.modules:
        register()
    elif not any(isinstance(f, _AfterImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterImport())

