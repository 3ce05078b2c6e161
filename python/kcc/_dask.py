"""Dask's serializers for kcc.DeviceArray (distributed.protocol), so that arrays travel between
a Dask client and its workers as frames rather than as pickles:

- the "dask" family, every back end: one host frame holding the array's bytes (a copy made on
  the sending side), the shape and dtype in the header; the receiving side puts it on its
  current device, as unpickling does;
- the "cuda" family, arrays on a CUDA device: one device frame, the array's memory itself
  (through __cuda_array_interface__), for transports that move device memory (UCX); the
  receiving side copies the frame into a new array on its CUDA device.

Registered once per process, by kcc.DeviceArray's first pickling where distributed is
imported, or by register() (kcc imports nothing of Dask by itself).
"""
import threading

_done = False
_lock = threading.Lock()


def _dtype_header(dtype):
    from numpy.lib.format import dtype_to_descr
    return dtype_to_descr(dtype)


def _dtype_of(descr):
    from numpy.lib.format import descr_to_dtype
    # msgpack gives lists where dtype_to_descr made tuples (structured dtypes).
    if isinstance(descr, list):
        descr = [tuple(f) for f in descr]
    return descr_to_dtype(descr)


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
            host = np.frombuffer(data, dtype=dtype, count=_count(shape)).reshape(shape)
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
                    # The cuda family is for device frames; other back ends use "dask".
                    raise TypeError("a kcc array on %s (%s) has no CUDA device frame"
                                    % (x.device.name, x.device.backend))
                header = {"shape": list(x.shape), "dtype": _dtype_header(x.dtype)}
                return header, [_DeviceBytes(x)]

            @cuda_deserialize.register(DeviceArray)
            def _deserialize_device(header, frames):
                (frame,) = frames
                dtype = _dtype_of(header["dtype"])
                return _core._from_device_frame(frame, tuple(header["shape"]), dtype)

        _done = True


def _count(shape):
    n = 1
    for s in shape:
        n *= s
    return n
