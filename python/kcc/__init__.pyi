# Type stubs of kcc's public API (docs/python.md). The package is typed: see py.typed.
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
__all__: List[str]

_Dim = Union[int, Tuple[int], Tuple[int, int], Tuple[int, int, int], List[int]]
_Shape = Union[int, Sequence[int]]

# ---------------------------------------------------------------- devices

class Device:
    index: int
    name: str
    vendor: str
    platform: str
    driver_version: str
    backend: str  # 'cuda' or 'opencl'
    type: str  # 'gpu', 'cpu', 'accelerator', 'other'
    backend_index: int
    memory: int
    max_alloc_bytes: int
    compute_units: int
    max_block_dim: Tuple[int, int, int]
    max_threads_per_block: int
    max_grid_dim: Tuple[int, int, int]
    max_shared_bytes: int
    compute_capability: Optional[Tuple[int, int]]
    spirv: bool
    fp64: bool
    subgroup_size: Optional[int]
    def as_dict(self) -> Dict[str, Any]: ...
    def synchronize(self) -> None: ...

def devices() -> List[Device]: ...
def select_device(which: Union[int, str, Device]) -> Device: ...
def get_device() -> Device: ...
def synchronize() -> None: ...

# ---------------------------------------------------------------- streams and events

class Stream:
    device: Device
    def __init__(self, device: Optional[Device] = ...) -> None: ...
    def synchronize(self) -> None: ...

_StreamArg = Union[Stream, None, int]

class Event:
    device: Device
    def __init__(self, device: Optional[Device] = ...) -> None: ...
    def record(self, stream: _StreamArg = ...) -> "Event": ...
    def synchronize(self) -> None: ...
    def elapsed_time(self, end: "Event") -> float: ...

def event_elapsed_time(start: Event, end: Event) -> float: ...

# ---------------------------------------------------------------- device arrays

class DeviceArray:
    shape: Tuple[int, ...]
    dtype: np.dtype
    size: int
    nbytes: int
    device: Device
    def __init__(self, shape: _Shape, dtype: npt.DTypeLike = ...,
                 device: Optional[Device] = ...) -> None: ...
    @property
    def ndim(self) -> int: ...
    def __len__(self) -> int: ...
    def copy_to_device(self, ary: npt.ArrayLike, stream: _StreamArg = ...) -> "DeviceArray": ...
    @overload
    def copy_to_host(self, ary: None = ..., stream: _StreamArg = ...) -> np.ndarray: ...
    @overload
    def copy_to_host(self, ary: np.ndarray, stream: _StreamArg = ...) -> np.ndarray: ...
    def fill_zero(self) -> "DeviceArray": ...
    def free(self) -> None: ...
    @property
    def __cuda_array_interface__(self) -> Dict[str, Any]: ...
    def __dlpack__(self, stream: Optional[int] = ...) -> Any: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...

def device_array(shape: _Shape, dtype: npt.DTypeLike = ...,
                 device: Optional[Device] = ...) -> DeviceArray: ...
def device_array_like(ary: Any, device: Optional[Device] = ...) -> DeviceArray: ...
def to_device(ary: npt.ArrayLike, stream: _StreamArg = ...,
              device: Optional[Device] = ...) -> DeviceArray: ...

class local:
    nbytes: int
    def __init__(self, nbytes: int) -> None: ...

# ---------------------------------------------------------------- modules, kernels, launches

class _Param:
    index: int
    name: str
    ctype: str
    kind: int
    size: int
    const: bool

class _Launch:
    """kernel[grid, block]: call it with the kernel's arguments to launch."""
    def __call__(self, *args: Any) -> None: ...

class Kernel:
    name: str
    device: Device
    module: "Module"
    signature: str
    params: List[_Param]
    max_threads_per_block: int
    static_shared_bytes: int
    def __getitem__(self, config: Tuple[Any, ...]) -> _Launch: ...

class Module:
    bundle: bytes
    name: Optional[str]
    log: str
    from_cache: bool
    checked: Optional[bool]
    def __init__(self, bundle: bytes, name: Optional[str] = ..., log: str = ...,
                 from_cache: bool = ...) -> None: ...
    def kernel_names(self, device: Optional[Device] = ...) -> List[str]: ...
    def get_kernel(self, name: str, device: Optional[Device] = ...) -> Kernel: ...
    def checked_on(self, device: Optional[Device] = ...) -> Optional[bool]: ...
    def __getattr__(self, name: str) -> Kernel: ...

_Source = Union[str, bytes]

def compile(source: _Source, options: Sequence[str] = ..., name: Optional[str] = ...,
            bounds_check: Optional[bool] = ...) -> Module: ...
def compile_file(path: Union[str, "os.PathLike[str]"], options: Sequence[str] = ...,
                 name: Optional[str] = ..., bounds_check: Optional[bool] = ...) -> Module: ...
def emit(source: _Source, form: str = ..., options: Sequence[str] = ...,
         name: Optional[str] = ...) -> Union[str, bytes]: ...
def load(path: Union[str, "os.PathLike[str]"]) -> Module: ...
def stats() -> Dict[str, int]: ...

# ---------------------------------------------------------------- errors and warnings

class Error(Exception):
    status: Optional[str]

class CompileError(Error):
    log: str
    name: Optional[str]
    def __init__(self, log: str, name: Optional[str] = ...) -> None: ...

class InvalidOptionError(CompileError, ValueError): ...

class KcrtError(Error):
    message: str
    def __init__(self, message: str, status: Optional[str] = ...) -> None: ...

class NoDeviceError(KcrtError): ...
class InvalidValueError(KcrtError, ValueError): ...
class OutOfMemoryError(KcrtError, MemoryError): ...
class InvalidModuleError(KcrtError): ...
class KernelNotFoundError(KcrtError, AttributeError): ...
class InvalidArgumentError(KcrtError, TypeError): ...
class InvalidLaunchError(KcrtError, ValueError): ...
class BuildFailedError(KcrtError): ...
class NoBinaryError(KcrtError): ...
class DriverError(KcrtError): ...
class KcrtIOError(KcrtError, OSError): ...
class NotSupportedError(KcrtError): ...
class LaunchFailedError(KcrtError): ...
class SymbolNotFoundError(KcrtError, AttributeError): ...

class OutOfBoundsError(KcrtError):
    kernel: Optional[str]

class KccWarning(UserWarning): ...



# kcc.jit / kcc.cuda.jit (docs/python.md, "From numba"); `from kcc import cuda` for numba's names
def jit(func_or_sig: Any = ..., device: bool = ..., inline: bool = ..., debug: bool = ...,
        fastmath: bool = ..., opt: bool = ..., lineinfo: bool = ..., cache: bool = ...,
        link: Any = ..., max_registers: Optional[int] = ...,
        boundscheck: Optional[bool] = ..., fp32: bool = ...) -> Any: ...

# numba's scalar type names, as numpy's types (`from kcc import cuda, float32`)
int8 = np.int8
int16 = np.int16
int32 = np.int32
int64 = np.int64
uint8 = np.uint8
uint16 = np.uint16
uint32 = np.uint32
uint64 = np.uint64
float32 = np.float32
float64 = np.float64
intp = np.intp
uintp = np.uintp
boolean = np.bool_
b1 = np.bool_
i1 = np.int8
i2 = np.int16
i4 = np.int32
i8 = np.int64
u1 = np.uint8
u2 = np.uint16
u4 = np.uint32
u8 = np.uint64
f4 = np.float32
f8 = np.float64
