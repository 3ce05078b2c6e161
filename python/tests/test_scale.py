"""Past one device and one process (docs/python.md, "Many devices, many machines"): the device
a scheduler's or launcher's environment assigns, kcc arrays that pickle, Dask's serializers,
and kcc.mpi over mpi4py. Runs on PoCL; POCL_DEVICES="basic pthread" gives two CPU devices told
apart by name (basic-... is device 0, pthread-... device 1)."""
import pickle

import numpy as np
import pytest

import kcc
from conftest import run_python

TWO = {"POCL_DEVICES": "basic pthread"}
LAUNCHER_VARS = ["OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "MV2_COMM_WORLD_LOCAL_RANK",
                 "SLURM_LOCALID", "PALS_LOCAL_RANKID", "FLUX_TASK_LOCAL_ID"]
CLEAN = dict.fromkeys(["KCC_DEVICE", "ONEAPI_DEVICE_SELECTOR", "HIP_VISIBLE_DEVICES"]
                      + LAUNCHER_VARS, "")


def device_kind(code, **env):
    """Runs `code` (which prints a device) in a fresh process with POCL_DEVICES="basic pthread"
    and `env`; returns 'basic' or 'pthread' (or the whole output when neither)."""
    e = dict(CLEAN, **TWO)
    e.update(env)
    # An empty variable is not the same as an unset one: drop the ones this call leaves empty.
    code = ("import os\nfor v in %r:\n    if os.environ.get(v) == '': del os.environ[v]\n"
            % sorted(CLEAN)) + code
    st, out, err = run_python(code, env=e)
    assert st == 0, err
    out = out.strip()
    return out.split("-", 1)[0] if out.startswith(("basic-", "pthread-")) else out


@pytest.fixture(scope="module")
def two_pocl():
    """These tests tell devices apart by PoCL's names: on a machine whose device list under
    POCL_DEVICES="basic pthread" is not just those two (a GPU machine: CUDA's devices come
    first), they do not apply."""
    st, out, err = run_python("import os\nfor v in %r:\n    if os.environ.get(v) == '': "
                              "del os.environ[v]\nimport kcc\nprint('|'.join(d.name for d in "
                              "kcc.devices()))" % sorted(CLEAN), env=dict(CLEAN, **TWO))
    assert st == 0, err
    names = out.strip().split("|")
    others = [n for n in names if not n.startswith(("basic-", "pthread-"))]
    if others:
        pytest.skip("other devices than PoCL's: %s" % ", ".join(others))
    assert [n.split("-")[0] for n in names] == ["basic", "pthread"]


needs_two_pocl = pytest.mark.usefixtures("two_pocl")
PRINT_DEFAULT = "import kcc\nprint(kcc.get_device().name)"
PRINT_LOCAL = "import kcc\nprint(kcc.select_device('local-rank').name)"


@needs_two_pocl
def test_default_device_without_variables():
    assert device_kind(PRINT_DEFAULT) == "basic"


@needs_two_pocl
@pytest.mark.parametrize("var", LAUNCHER_VARS)
def test_local_rank_from_each_launcher_variable(var):
    assert device_kind(PRINT_LOCAL, **{var: "1"}) == "pthread"
    assert device_kind(PRINT_LOCAL, **{var: "2"}) == "basic"  # 2 mod 2 devices
    # The environment's KCC_DEVICE=local-rank is the same choice for the default device.
    assert device_kind(PRINT_DEFAULT, KCC_DEVICE="local-rank", **{var: "3"}) == "pthread"


@needs_two_pocl
def test_local_rank_without_a_launcher_is_rank_0():
    assert device_kind(PRINT_LOCAL) == "basic"


@needs_two_pocl
def test_oneapi_device_selector_hides_devices():
    assert device_kind(PRINT_DEFAULT, ONEAPI_DEVICE_SELECTOR="opencl:1") == "pthread"
    assert device_kind(PRINT_DEFAULT, ONEAPI_DEVICE_SELECTOR="!opencl:0") == "pthread"
    assert device_kind("import kcc\nprint(len(kcc.devices()))",
                       ONEAPI_DEVICE_SELECTOR="opencl:1") == "1"
    # The visible device is device 0 now, as a worker given one GPU sees it.
    assert device_kind("import kcc\nprint(kcc.select_device(0).name)",
                       ONEAPI_DEVICE_SELECTOR="opencl:1") == "pthread"
    # Ranks count the visible devices only.
    assert device_kind(PRINT_LOCAL, ONEAPI_DEVICE_SELECTOR="opencl:1", SLURM_LOCALID="1") \
        == "pthread"


@needs_two_pocl
def test_all_devices_hidden_is_no_device_error():
    code = ("import kcc\ntry:\n    kcc.get_device()\nexcept kcc.NoDeviceError as e:\n"
            "    print('NoDeviceError:', e)\n")
    out = device_kind(code, ONEAPI_DEVICE_SELECTOR="level_zero:*")
    assert out.startswith("NoDeviceError: opening the default device: no device found")
    assert "OpenCL: 2 devices, all hidden: ONEAPI_DEVICE_SELECTOR='level_zero:*' hides 2" in out


@needs_two_pocl
def test_hip_visible_devices_leaves_non_amd_devices():
    assert device_kind("import kcc\nprint(len(kcc.devices()))", HIP_VISIBLE_DEVICES="") == "2"


# ---------------------------------------------------------------- pickling

DTYPES = [np.float32, np.float64, np.int8, np.uint16, np.int64, np.complex64,
          np.dtype([("x", np.float32), ("n", np.int32)]),
          np.dtype([("p", [("a", "<f4"), ("b", "<i2")]), ("v", "<f8", (2,))])]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(0,), (7,), (3, 5), (2, 3, 4)])
def test_pickle_round_trip(dtype, shape):
    rng = np.random.default_rng()
    dtype = np.dtype(dtype)
    host = np.frombuffer(rng.bytes(int(np.prod(shape)) * dtype.itemsize), dtype).reshape(shape)
    d = kcc.to_device(host)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(d, protocol=protocol))
        assert isinstance(back, kcc.DeviceArray)
        assert back.shape == d.shape and back.dtype == d.dtype
        assert back.device is kcc.get_device()
        assert back._buf != d._buf  # a copy: the original is untouched by changes to it
        assert host.tobytes() == back.copy_to_host().tobytes()


def test_pickle_protocol_5_carries_the_data_out_of_band():
    host = np.random.default_rng().random(1000).astype(np.float32)
    d = kcc.to_device(host)
    buffers = []
    data = pickle.dumps(d, protocol=5, buffer_callback=buffers.append)
    assert len(data) < 1000 and len(buffers) == 1 and buffers[0].raw().nbytes == host.nbytes
    back = pickle.loads(data, buffers=buffers)
    assert np.array_equal(back.copy_to_host(), host)


@needs_two_pocl
def test_pickle_lands_on_the_receivers_current_device(tmp_path):
    # Pickled in one process (device 0), unpickled in another that selected device 1.
    host = np.random.default_rng().integers(0, 1000, 64).astype(np.int32)
    blob = pickle.dumps(kcc.to_device(host))
    path = str(tmp_path / "array.pickle")
    with open(path, "wb") as f:
        f.write(blob)
    code = ("import kcc, pickle, numpy as np\nkcc.select_device(1)\n"
            "d = pickle.load(open(%r, 'rb'))\n"
            "print(d.device.name.split('-')[0], ' '.join(map(str, d.copy_to_host())))" % path)
    e = dict(TWO)
    st, out, err = run_python(code, env=e)
    assert st == 0, err
    kind, values = out.strip().split(" ", 1)
    assert kind == "pthread"
    assert values == " ".join(map(str, host))


def test_pickling_a_freed_array_is_value_error():
    d = kcc.to_device(np.zeros(4, np.float32))
    d.free()
    with pytest.raises(ValueError, match="pickling: the device array was freed"):
        pickle.dumps(d)


# ---------------------------------------------------------------- Dask

@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_dask_serializers_host_frames(dtype):
    protocol = pytest.importorskip("distributed.protocol")
    rng = np.random.default_rng()
    dtype = np.dtype(dtype)
    host = np.frombuffer(rng.bytes(24 * dtype.itemsize), dtype).reshape(4, 6)
    d = kcc.to_device(host)
    header, frames = protocol.serialize(d, serializers=["dask"])
    assert header["serializer"] == "dask"
    assert sum(memoryview(f).nbytes for f in frames) == host.nbytes
    back = protocol.deserialize(header, frames)
    assert isinstance(back, kcc.DeviceArray) and back.shape == (4, 6) and back.dtype == dtype
    assert back.copy_to_host().tobytes() == host.tobytes()
    # Through the wire format too (what a transport sends).
    back = protocol.loads(protocol.dumps({"x": protocol.to_serialize(d)}))["x"]
    assert back.copy_to_host().tobytes() == host.tobytes()


def test_dask_cuda_family_refuses_non_cuda_arrays():
    protocol = pytest.importorskip("distributed.protocol")
    d = kcc.to_device(np.zeros(3, np.float32))
    if d.device.backend == "cuda":
        pytest.skip("a CUDA device: the GPU script covers device frames")
    kcc._dask.register()
    header, frames = protocol.serialize(d, serializers=["cuda", "dask"])
    assert header["serializer"] == "dask"  # the cuda family declined; host frames instead


def test_arrays_travel_through_a_local_cluster(tmp_path):
    pytest.importorskip("distributed")
    code = r"""
import numpy as np, kcc
from distributed import Client, LocalCluster

def work(seed):
    import numpy as np, kcc
    x = np.random.default_rng(seed).random(1000).astype(np.float32)
    mod = kcc.compile("kernel void twice(float *x, int n) {"
                      " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 2; }")
    d = kcc.to_device(x)
    mod.twice[4, 256](d, 1000)
    return d                          # a kcc array, back to the client

def echo(d):
    return kcc.to_device(d.copy_to_host() + 1)   # a kcc array sent to a worker and back

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, silence_logs=40) as c, Client(c) as cl:
        fs = [cl.submit(work, s) for s in (1, 2, 3)]
        got = cl.gather(fs)
        ok = all(isinstance(g, kcc.DeviceArray) and np.array_equal(
            g.copy_to_host(), np.random.default_rng(s).random(1000).astype(np.float32) * 2)
            for g, s in zip(got, (1, 2, 3)))
        e = cl.submit(echo, got[0]).result()
        ok = ok and np.array_equal(e.copy_to_host(), got[0].copy_to_host() + 1)
        print("travelled" if ok else "DIFFERS")
"""
    script = tmp_path / "cluster.py"
    script.write_text(code)
    st, out, err = run_python("import runpy; runpy.run_path(%r, run_name='__main__')"
                              % str(script))
    assert st == 0, err
    assert out.strip() == "travelled"


# ---------------------------------------------------------------- kcc.mpi

@pytest.fixture
def comm():
    MPI = pytest.importorskip("mpi4py.MPI")
    return MPI.COMM_SELF


def test_mpi_sendrecv_parts_to_self(comm):
    import kcc.mpi
    host = np.random.default_rng().random((5, 8)).astype(np.float32)
    d = kcc.to_device(host)
    # Row 1 to row 4 and row 3 to row 0, as a halo exchange does between neighbours.
    kcc.mpi.Sendrecv(comm, (d, 8, 8), 0, (d, 32, 8), 0, 0, 0)
    kcc.mpi.Sendrecv(comm, (d, 24, 8), 0, (d, 0, 8), 0, 1, 1)
    want = host.copy()
    want[4], want[0] = host[1], host[3]
    assert np.array_equal(d.copy_to_host(), want)


def test_mpi_proc_null_leaves_the_array(comm):
    import kcc.mpi
    from mpi4py import MPI
    host = np.random.default_rng().random(16).astype(np.float32)
    d = kcc.to_device(host)
    kcc.mpi.Sendrecv(comm, (d, 0, 4), MPI.PROC_NULL, (d, 12, 4), MPI.PROC_NULL)
    kcc.mpi.Recv(comm, (d, 4, 4), MPI.PROC_NULL)
    assert np.array_equal(d.copy_to_host(), host)


def test_mpi_send_after_a_kernel_sees_its_results(comm):
    import kcc.mpi
    mod = kcc.compile("kernel void fill(int *x, int n) {"
                      " int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = i * 3; }")
    d = kcc.device_array(1000, np.int32)
    out = kcc.device_array(1000, np.int32)
    mod.fill[4, 256](d, 1000)  # not waited for: kcc.mpi finishes the device's work first
    kcc.mpi.Sendrecv(comm, d, 0, out, 0, 5, 5)
    assert np.array_equal(out.copy_to_host(), np.arange(1000, dtype=np.int32) * 3)


def test_mpi_bcast_reduce_allreduce_on_one_rank(comm):
    import kcc.mpi
    from mpi4py import MPI
    host = np.random.default_rng().integers(-50, 50, 32).astype(np.int64)
    d, r = kcc.to_device(host), kcc.device_array(32, np.int64)
    kcc.mpi.Bcast(comm, d)
    assert np.array_equal(d.copy_to_host(), host)
    kcc.mpi.Allreduce(comm, d, r)
    assert np.array_equal(r.copy_to_host(), host)
    kcc.mpi.Allreduce(comm, (d, 4, 8), (r, 0, 8), MPI.MAX)
    assert np.array_equal(r.copy_to_host()[:8], host[4:12])
    r.fill_zero()
    kcc.mpi.Reduce(comm, d, r, MPI.SUM, 0)
    assert np.array_equal(r.copy_to_host(), host)


def test_mpi_numpy_buffers_pass_through(comm):
    import kcc.mpi
    a = np.arange(6, dtype=np.float64)
    b = np.zeros(6)
    kcc.mpi.Sendrecv(comm, a, 0, b, 0)
    assert np.array_equal(a, b)


def test_mpi_bad_buffers(comm):
    import kcc.mpi
    d = kcc.device_array(10, np.float32)
    with pytest.raises(ValueError, match=r"kcc.mpi.Send: elements \[8, 12\) are not in the "
                                         r"array's 10"):
        kcc.mpi.Send(comm, (d, 8, 4), 0)
    with pytest.raises(TypeError, match=r"a part of a kcc array is \(array, start, count\), "
                                        r"not a 2-tuple"):
        kcc.mpi.Send(comm, (d, 8), 0)
    with pytest.raises(TypeError, match="takes a kcc.DeviceArray, .* not list"):
        kcc.mpi.Send(comm, [1, 2], 0)
    with pytest.raises(TypeError, match="start and count are ints"):
        kcc.mpi.Send(comm, (d, 1.5, 2), 0)
    d.free()
    with pytest.raises(ValueError, match="the device array was freed"):
        kcc.mpi.Send(comm, d, 0)


def test_mpi_cuda_aware_override(monkeypatch):
    import kcc.mpi
    for value, want in (("1", True), ("0", False)):
        monkeypatch.setenv("KCC_MPI_CUDA_AWARE", value)
        monkeypatch.setattr(kcc.mpi, "_aware", None)
        assert kcc.mpi.cuda_aware() is want
