"""DLPack for kcc's CUDA arrays, through ctypes (docs/python.md, "Other libraries' GPU arrays").

Importing: `view(obj)` takes another library's `__dlpack__` capsule (the consumer's side of the
protocol: rename it "used_dltensor", call its deleter when done) and describes the memory.
Exporting: `export(array)` makes a "dltensor" capsule over a kcc DeviceArray, kept alive until
the consumer calls the deleter (or, unconsumed, until the capsule is collected).
"""
import ctypes

KDL_CUDA = 2  # DLDeviceType
_CODES = {0: "i", 1: "u", 2: "f", 6: "b"}  # DLDataTypeCode -> numpy kind (6: kDLBool)


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_Deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", _Deleter)]


_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_Destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, _Destructor]


class Imported:
    """Another library's tensor, taken from its DLPack capsule: data, shape, numpy dtype,
    whether it is C-contiguous, the CUDA device id; release() gives it back."""

    def __init__(self, capsule):
        ptr = _api.PyCapsule_GetPointer(capsule, b"dltensor")
        self._managed = ctypes.cast(ptr, ctypes.POINTER(DLManagedTensor))
        _api.PyCapsule_SetName(capsule, b"used_dltensor")  # ours now: we call the deleter
        t = self._managed.contents.dl_tensor
        self.device_type = t.device.device_type
        self.device_id = t.device.device_id
        self.shape = tuple(t.shape[i] for i in range(t.ndim))
        kind = _CODES.get(t.dtype.code)
        self.dtype = ("%s%d" % (kind, t.dtype.bits // 8)) if kind and t.dtype.lanes == 1 else None
        self.data = (t.data or 0) + t.byte_offset
        contiguous = True
        if t.strides:
            step = 1
            for i in reversed(range(t.ndim)):
                if self.shape[i] > 1 and t.strides[i] != step:
                    contiguous = False
                step *= self.shape[i]
        self.contiguous = contiguous

    def release(self):
        m, self._managed = self._managed, None
        if m and m.contents.deleter:
            m.contents.deleter(ctypes.cast(m, ctypes.c_void_p))


def view(obj):
    """Takes obj's DLPack capsule; the producer orders its work before the legacy default
    stream (stream=1), which kcc then waits for."""
    try:
        capsule = obj.__dlpack__(stream=1)
    except TypeError:  # a producer without the stream keyword
        capsule = obj.__dlpack__()
    return Imported(capsule)


# ---------------------------------------------------------------- export

_alive = {}  # id of a DLManagedTensor -> (its struct, shape and the array it keeps alive)


@_Deleter
def _delete(ptr):
    _alive.pop(ptr, None)


# The capsule being destroyed is passed as a raw pointer: no Python object may be made of it.
_is_valid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_get_pointer_raw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


@_Destructor
def _capsule_gone(capsule):
    # An unconsumed capsule still named "dltensor" owns its tensor: delete it.
    if _is_valid_raw(capsule, b"dltensor"):
        _alive.pop(_get_pointer_raw(capsule, b"dltensor"), None)


def export(array, address, device_id):
    """A "dltensor" capsule over the C-contiguous CUDA memory of a kcc DeviceArray."""
    kind = {"i": 0, "u": 1, "f": 2, "b": 6}.get(array.dtype.kind)
    if kind is None:
        raise TypeError("__dlpack__: kcc cannot describe %s in DLPack" % array.dtype)
    shape = (ctypes.c_int64 * max(len(array.shape), 1))(*array.shape)
    m = DLManagedTensor()
    m.dl_tensor.data = address
    m.dl_tensor.device = DLDevice(KDL_CUDA, device_id)
    m.dl_tensor.ndim = len(array.shape)
    m.dl_tensor.dtype = DLDataType(kind, array.dtype.itemsize * 8, 1)
    m.dl_tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    m.dl_tensor.strides = None  # C-contiguous
    m.dl_tensor.byte_offset = 0
    m.deleter = _delete
    ptr = ctypes.addressof(m)
    _alive[ptr] = (m, shape, array)
    return _api.PyCapsule_New(ptr, b"dltensor", _capsule_gone)
