"""scale_frames.py — on a CUDA device: kcc arrays through Dask's "cuda" serializer family
(device frames: the array's memory itself, through __cuda_array_interface__) and back, every
dtype's bytes compared; and what kcc.mpi decides about the MPI library (CUDA-aware or host
staging). Run by tests/gpu/scale_run.sh; exit 1 on a difference."""
import sys

import numpy as np
from distributed.protocol import deserialize, serialize

import kcc
import kcc.mpi

assert kcc.get_device().backend == "cuda", kcc.get_device()
rng = np.random.default_rng()
bad = 0
for dtype in (np.float32, np.float64, np.int8, np.uint16, np.complex64,
              np.dtype([("x", np.float32), ("n", np.int32)])):
    dtype = np.dtype(dtype)
    host = np.frombuffer(rng.bytes(3000 * dtype.itemsize), dtype).reshape(30, 100)
    d = kcc.to_device(host)
    header, frames = serialize(d, serializers=["cuda"])
    ok = header.get("serializer") == "cuda" and len(frames) == 1 and \
        hasattr(frames[0], "__cuda_array_interface__")
    back = deserialize(header, frames, deserializers=["cuda"])
    ok = ok and isinstance(back, kcc.DeviceArray) and back.shape == (30, 100) and \
        back.dtype == dtype and back.copy_to_host().tobytes() == host.tobytes()
    print("cuda frames, %s: %s" % (dtype, "round trip identical" if ok else "DIFFERS"))
    bad += not ok
print("kcc.mpi: the MPI library is %s" % ("CUDA-aware: device memory in place"
                                        if kcc.mpi.cuda_aware() else
                                        "not CUDA-aware: host staging"))
sys.exit(1 if bad else 0)
