"""kcc arrays through mpi4py's buffer methods (docs/python.md, "Many devices, many machines").

    from mpi4py import MPI
    import kcc, kcc.mpi
    comm = MPI.COMM_WORLD
    kcc.select_device("local-rank")          # this rank's device on its node
    kcc.mpi.Sendrecv(comm, (u, nx, nx), up, (u, 0, nx), down)

Each function takes mpi4py's communicator first, then the arguments of mpi4py's method of the
same name, where a buffer is a kcc.DeviceArray (all of it) or a part of one, (array, start,
count) in elements of the flattened array. A numpy array is passed through as it is.

The device's pending work is finished before the data moves (MPI knows nothing of kcc's
queues): a kernel launched before a Send has written what is sent. Data goes through host
memory, except on a CUDA device with a CUDA-aware MPI (Open MPI built with CUDA, found through
MPIX_Query_cuda_support; KCC_MPI_CUDA_AWARE=1 or 0 overrides), where MPI reads and writes the
device memory in place. Lowercase methods (comm.send, comm.bcast...) pickle: a kcc array
arrives as a host copy put on the receiving rank's current device.
"""
import ctypes
import os

from . import _core
from . import _native as N

__all__ = ["Send", "Recv", "Sendrecv", "Bcast", "Reduce", "Allreduce", "cuda_aware"]

_aware = None


def cuda_aware():
    """Whether the MPI library reads and writes CUDA device memory itself: $KCC_MPI_CUDA_AWARE
    (1 or 0) when set, else MPIX_Query_cuda_support() where the library has it (Open MPI)."""
    global _aware
    if _aware is None:
        env = os.environ.get("KCC_MPI_CUDA_AWARE")
        if env in ("0", "1"):
            _aware = env == "1"
        else:
            _aware = False
            try:
                from mpi4py import MPI
                lib = ctypes.CDLL(MPI.__file__, mode=ctypes.RTLD_GLOBAL)
                q = getattr(lib, "MPIX_Query_cuda_support", None)
                if q is None:
                    q = getattr(ctypes.CDLL(None), "MPIX_Query_cuda_support", None)
                if q is not None:
                    q.restype = ctypes.c_int
                    _aware = bool(q())
            except (OSError, ImportError):
                pass
    return _aware


class _Part:
    """One buffer argument: a whole kcc array, a part of one, or a numpy array."""

    def __init__(self, buf, what):
        self.host = None
        if isinstance(buf, tuple):
            if len(buf) != 3:
                raise TypeError("%s: a part of a kcc array is (array, start, count), not a "
                                "%d-tuple" % (what, len(buf)))
            array, start, count = buf
        else:
            array, start, count = buf, 0, None
        if not isinstance(array, _core.DeviceArray):
            if isinstance(buf, tuple) or not _core._is_ndarray(array):
                raise TypeError("%s takes a kcc.DeviceArray, (array, start, count) or a numpy "
                                "array, not %s" % (what, type(array).__name__))
            self.host = array  # numpy: MPI uses it as it is
            self.array = None
            return
        array._alive(what)
        if not array._contiguous:
            raise ValueError("%s: the kcc array is a strided view; send a copy (v.copy()), or "
                             "receive into one and copy it back (v[...] = c)" % what)
        if count is None:
            count = array.size
        if isinstance(start, bool) or isinstance(count, bool) or \
                not isinstance(start, int) or not isinstance(count, int):
            raise TypeError("%s: start and count are ints" % what)
        if start < 0 or count < 0 or start + count > array.size:
            raise ValueError("%s: elements [%d, %d) are not in the array's %d"
                             % (what, start, start + count, array.size))
        self.array, self.start, self.count = array, start, count
        self.offset = (array._off + start) * array.dtype.itemsize
        self.nbytes = count * array.dtype.itemsize

    def _in_place(self):
        return self.array is not None and self.array.device.backend == "cuda" and cuda_aware()

    def for_send(self, typed, nowhere=False):
        """What mpi4py gets for data going out: the device memory in place, or a host copy
        (not made when it goes `nowhere`: to MPI.PROC_NULL)."""
        if self.array is None:
            return self.host
        np = _core._numpy()
        if nowhere:
            return np.empty(self.count if typed else self.nbytes, self.array.dtype if typed
                            else np.uint8)
        lib = N.kcrt()
        if self._in_place():
            _core._check(lib.kcrt_device_synchronize(self.array.device._open()))
            return _DeviceSpan(self.array, self.offset, self.count, typed)
        host = np.empty(self.count, self.array.dtype)
        if self.nbytes:  # blocking on the device's queue: its kernels have finished
            _core._wait_call(lib.kcrt_buffer_read, self.array._buf, self.offset,
                             host.ctypes.data, self.nbytes, context="kcc.mpi", keep=host,
                             buffer=self.array._buf)
        return host if typed else host.view("u1")

    def for_recv(self, typed):
        """Where mpi4py puts data coming in; finish() moves it to the device."""
        if self.array is None:
            return self.host
        np = _core._numpy()
        if self._in_place():
            _core._check(N.kcrt().kcrt_device_synchronize(self.array.device._open()))
            self._staged = None
            return _DeviceSpan(self.array, self.offset, self.count, typed)
        self._staged = np.empty(self.count, self.array.dtype)
        return self._staged if typed else self._staged.view("u1")

    def finish(self):
        staged = getattr(self, "_staged", None)
        if staged is not None and self.nbytes:
            _core._wait_call(N.kcrt().kcrt_buffer_write, self.array._buf, self.offset,
                             staged.ctypes.data, self.nbytes, context="kcc.mpi", keep=staged,
                             buffer=self.array._buf)


class _DeviceSpan:
    """A part of a kcc array on a CUDA device, as __cuda_array_interface__ for a CUDA-aware MPI
    (typed: the array's dtype; else bytes)."""

    def __init__(self, array, offset, count, typed):
        addr = ctypes.c_uint64()
        _core._check(N.kcrt().kcrt_buffer_address(array._buf, ctypes.byref(addr)))
        self._array = array
        shape = (count,) if typed else (count * array.dtype.itemsize,)
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": array.dtype.str if typed else "|u1", "strides": None,
            "data": (addr.value + offset, False), "version": 3, "stream": None}


def _parts(*bufs):
    return [_Part(b, w) for b, w in bufs]


# Point-to-point and broadcast move bytes (any dtype, structs included); reductions need the
# element type, so their buffers are typed.

def Send(comm, buf, dest, tag=0):
    """comm.Send of a kcc array (or part): its pending work finished first."""
    from mpi4py import MPI
    (p,) = _parts((buf, "kcc.mpi.Send"))
    comm.Send(p.for_send(False, dest == MPI.PROC_NULL), dest, tag)


def Recv(comm, buf, source=None, tag=None, status=None):
    """comm.Recv into a kcc array (or part)."""
    from mpi4py import MPI
    (p,) = _parts((buf, "kcc.mpi.Recv"))
    source = MPI.ANY_SOURCE if source is None else source
    comm.Recv(p.for_recv(False), source, MPI.ANY_TAG if tag is None else tag, status)
    if source != MPI.PROC_NULL:  # nothing arrived: the array keeps its contents
        p.finish()


def Sendrecv(comm, sendbuf, dest, recvbuf, source=None, sendtag=0, recvtag=None, status=None):
    """comm.Sendrecv between kcc arrays (or parts of one): a halo exchange's step."""
    from mpi4py import MPI
    s, r = _parts((sendbuf, "kcc.mpi.Sendrecv"), (recvbuf, "kcc.mpi.Sendrecv"))
    source = MPI.ANY_SOURCE if source is None else source
    comm.Sendrecv(s.for_send(False, dest == MPI.PROC_NULL), dest, sendtag, r.for_recv(False),
                  source,
                  MPI.ANY_TAG if recvtag is None else recvtag, status)
    if source != MPI.PROC_NULL:  # nothing arrived: the array keeps its contents
        r.finish()


def Bcast(comm, buf, root=0):
    """comm.Bcast of a kcc array (or part): root's contents reach every rank's array."""
    (p,) = _parts((buf, "kcc.mpi.Bcast"))
    if comm.Get_rank() == root:
        comm.Bcast(p.for_send(False), root)
    else:
        comm.Bcast(p.for_recv(False), root)
        p.finish()


def Reduce(comm, sendbuf, recvbuf, op=None, root=0):
    """comm.Reduce of kcc arrays (recvbuf used on root only; None elsewhere is fine)."""
    from mpi4py import MPI
    s = _Part(sendbuf, "kcc.mpi.Reduce")
    if comm.Get_rank() != root:
        comm.Reduce(s.for_send(True), None, MPI.SUM if op is None else op, root)
        return
    r = _Part(recvbuf, "kcc.mpi.Reduce")
    comm.Reduce(s.for_send(True), r.for_recv(True), MPI.SUM if op is None else op, root)
    r.finish()


def Allreduce(comm, sendbuf, recvbuf, op=None):
    """comm.Allreduce of kcc arrays (MPI.SUM by default)."""
    from mpi4py import MPI
    s, r = _parts((sendbuf, "kcc.mpi.Allreduce"), (recvbuf, "kcc.mpi.Allreduce"))
    comm.Allreduce(s.for_send(True), r.for_recv(True), MPI.SUM if op is None else op)
    r.finish()
