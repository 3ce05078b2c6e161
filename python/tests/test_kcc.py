"""The Python package: every API call, copy-in/copy-out semantics, every error path, the
cache, threads. Results are compared element by element with numpy on random inputs."""
import os
import threading

import numpy as np
import pytest

import kcc
import kcc._native
from conftest import run_python

VECADD = """
kernel void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

KINDS = """#include <kcc_vector.h>
kernel void axpb(const double *x, double *y, double a, long b, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + (double)b;
}
kernel void bytes(const unsigned char *in, unsigned char *out, unsigned char add, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (unsigned char)(in[i] + add);
}
kernel void ints(const long *in, unsigned long *out, short s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = (unsigned long)(in[i] * s);
}
kernel void grid2d(float *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = (float)(y * 1000 + x);
}
kernel void grid3d(int *out, int w, int h, int d) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < w && y < h && z < d) out[(z * h + y) * w + x] = z * 10000 + y * 100 + x;
}
kernel void reverse_block(float *d, int n) {
    extern shared float s[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? d[i] : 0.0f;
    __syncthreads();
    if (i < n) d[i] = s[blockDim.x - 1 - t];
}
kernel void block_sums(const int *in, int *out, int n, shared int *tmp) {
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    tmp[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) tmp[t] += tmp[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = tmp[0];
}
kernel void scale4(float4 *v, float4 k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * k;
}
kernel void flag(int *out, bool on) {
    out[0] = on ? 7 : 3;
}
kernel void sneaky(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { out[i] = in[i] * 2.0f; ((float *)in)[i] = -1.0f; }
}
"""


@pytest.fixture(scope="module")
def vecadd():
    return kcc.compile(VECADD, name="vecadd.k")


@pytest.fixture(scope="module")
def kinds():
    # -ffp-contract=off: a * x + b rounded twice, as numpy computes it (the default fuses it
    # into one fma, as nvcc does).
    return kcc.compile(KINDS, options=["-ffp-contract=off"], name="kinds.k")


def blocks(n, bs=64):
    return (n + bs - 1) // bs


# ---------------------------------------------------------------- devices

def test_devices():
    devs = kcc.devices()
    assert devs, "no device: the tests need one (PoCL's CPU device in CI)"
    for i, d in enumerate(devs):
        assert d.index == i
        assert d.backend in ("cuda", "opencl", "vulkan")
        assert d.type in ("gpu", "cpu", "accelerator", "other")
        assert isinstance(d.name, str) and d.name
        assert d.memory > 0 and d.max_alloc_bytes > 0
        assert d.max_threads_per_block >= 1 and len(d.max_block_dim) == 3
        assert len(d.max_grid_dim) == 3 and d.max_shared_bytes > 0
        assert set(d.as_dict()) >= {"name", "backend", "memory", "max_threads_per_block",
                                     "max_grid_dim", "fp64", "subgroup_size"}
        assert repr(d).startswith("<kcc.Device %d: " % i)
    assert kcc.devices() == devs  # the same objects every time


def test_select_device():
    devs = kcc.devices()
    d = kcc.select_device(0)
    assert d is devs[0] and kcc.get_device() is d
    assert kcc.select_device(devs[0].backend) is devs[0]
    n = len(devs)
    with pytest.raises(kcc.NoDeviceError) as e:
        kcc.select_device(n)
    lines = ["select_device(%d): there is no device %d; this machine has %d device%s:"
             % (n, n, n, "" if n == 1 else "s")]
    lines += ["  %d: %s (%s, %s)" % (x.index, x.name, x.backend, x.type) for x in devs]
    assert str(e.value) == "\n".join(lines)
    assert e.value.status == "KCRT_ERROR_NO_DEVICE"
    with pytest.raises(kcc.NoDeviceError) as e:
        kcc.select_device("no-such-device-anywhere")
    assert str(e.value).startswith("select_device('no-such-device-anywhere'): ")
    with pytest.raises(TypeError):
        kcc.select_device(1.5)
    assert kcc.get_device() is devs[0]  # a failed selection changes nothing


def test_kcc_device_environment():
    code = "import kcc; print(kcc.get_device().index)"
    st, out, err = run_python(code, {"KCC_DEVICE": "0"})
    assert (st, out) == (0, "0\n"), err
    st, out, err = run_python("import kcc\ntry:\n    kcc.get_device()\nexcept kcc.NoDeviceError "
                              "as e:\n    print('NoDeviceError', e.status)",
                              {"KCC_DEVICE": "no-such-device-anywhere"})
    assert (st, out) == (0, "NoDeviceError KCRT_ERROR_NO_DEVICE\n"), err


# ---------------------------------------------------------------- launches, numpy arrays

@pytest.mark.parametrize("n", [1, 63, 64, 1000, 100003])
def test_vecadd_numpy(vecadd, rng, n):
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    c = np.full(n, np.nan, np.float32)
    a0, b0 = a.copy(), b.copy()
    vecadd.vecadd[blocks(n), 64](a, b, c, n)
    assert np.array_equal(c, a + b)
    assert np.array_equal(a, a0) and np.array_equal(b, b0)


def test_const_arrays_are_not_copied_back(kinds, rng):
    n = 500
    x = rng.standard_normal(n, dtype=np.float32)
    x0 = x.copy()
    out = np.zeros(n, np.float32)
    kinds.sneaky[blocks(n), 64](x, out, n)  # writes -1 through the const pointer
    assert np.array_equal(out, x0 * 2)
    assert np.array_equal(x, x0)  # const: copied in only
    # A read-only array is fine for a const parameter, not for the others.
    x.flags.writeable = False
    kinds.sneaky[blocks(n), 64](x, out, n)
    with pytest.raises(ValueError) as e:
        kinds.sneaky[blocks(n), 64](out, x, n)
    assert str(e.value) == ("kernel 'sneaky' parameter 'out' (float *): the array is read-only "
                            "but the parameter is not const (the kernel's results are copied "
                            "back into it)")


def test_non_contiguous_arrays(vecadd, rng):
    n = 300
    big_a = rng.standard_normal(2 * n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    big_c = np.zeros(3 * n, np.float32)
    a, c = big_a[::2], big_c[::3]
    vecadd.vecadd[blocks(n), 64](a, b, c, n)
    assert np.array_equal(big_c[::3], a + b)
    assert not big_c[1::3].any() and not big_c[2::3].any()


def test_scalar_types(kinds, rng):
    n = 777
    x = rng.standard_normal(n)
    y = np.zeros(n)
    kinds.axpb[blocks(n), 64](x, y, 2.5, -3, n)
    assert np.array_equal(y, 2.5 * x + -3.0)
    kinds.axpb[blocks(n), 64](x, y, np.float32(0.5), np.int16(7), np.uint32(n))
    assert np.array_equal(y, 0.5 * x + 7.0)
    u = rng.integers(0, 256, n, dtype=np.uint8)
    v = np.zeros(n, np.uint8)
    kinds.bytes[blocks(n), 64](u, v, 200, n)
    assert np.array_equal(v, (u.astype(np.int64) + 200).astype(np.uint8))
    li = rng.integers(-2**40, 2**40, n, dtype=np.int64)
    lu = np.zeros(n, np.uint64)
    kinds.ints[blocks(n), 64](li, lu, -3, n)
    assert np.array_equal(lu, (li * -3).astype(np.uint64))
    out = np.zeros(1, np.int32)
    kinds.flag[1, 1](out, True)
    assert out[0] == 7
    kinds.flag[1, 1](out, False)
    assert out[0] == 3
    # NumPy's bools (no __index__ in NumPy 2) as Python's
    kinds.flag[1, 1](out, np.True_)
    assert out[0] == 7
    kinds.flag[1, 1](out, np.bool_(False))
    assert out[0] == 3


def test_scalar_errors(kinds):
    x, y = np.zeros(4), np.zeros(4)
    cases = [
        ((x, y, 1.0, 2, -1), OverflowError,
         "kernel 'axpb' parameter 'n' (unsigned int): -1 is out of range [0, 4294967295]"),
        ((x, y, 1.0, 2, 2**32), OverflowError,
         "kernel 'axpb' parameter 'n' (unsigned int): 4294967296 is out of range "
         "[0, 4294967295]"),
        ((x, y, 1.0, 2.5, 4), TypeError,
         "kernel 'axpb' parameter 'b' (long) takes an integer, not float 2.5"),
        ((x, y, "1", 2, 4), TypeError,
         "kernel 'axpb' parameter 'a' (double) takes a number, not str"),
        ((x, y, 1.0, 2), TypeError,
         "kernel axpb(const double * x, double * y, double a, long b, unsigned int n) takes 5 "
         "arguments, got 4"),
    ]
    for args, exc, msg in cases:
        with pytest.raises(exc) as e:
            kinds.axpb[1, 4](*args)
        assert str(e.value) == msg
    u = np.zeros(4, np.uint8)
    with pytest.raises(OverflowError) as e:
        kinds.bytes[1, 4](u, u, 256, 4)
    assert str(e.value) == ("kernel 'bytes' parameter 'add' (unsigned char): 256 is out of "
                            "range [0, 255]")


def test_float_range():
    mod = kcc.compile("kernel void f(float *o, float v) { o[0] = v; }\n")
    o = np.zeros(1, np.float32)
    mod.f[1, 1](o, 1e38)
    assert o[0] == np.float32(1e38)
    mod.f[1, 1](o, float("inf"))
    assert o[0] == np.inf
    with pytest.raises(OverflowError) as e:
        mod.f[1, 1](o, 1e39)
    assert str(e.value) == "kernel 'f' parameter 'v' (float): 1e+39 is out of float's range"


def test_dtype_mismatch_names_the_parameter(vecadd):
    a = np.zeros(8, np.float32)
    with pytest.raises(TypeError) as e:
        vecadd.vecadd[1, 8](a, np.zeros(8), a, 8)
    assert str(e.value) == ("kernel 'vecadd' parameter 'b' (const float *): got an array of "
                            "float64, the kernel's elements are float32")
    with pytest.raises(TypeError) as e:
        vecadd.vecadd[1, 8](a, a, [0.0] * 8, 8)
    assert str(e.value) == ("kernel 'vecadd' parameter 'c' (float *) takes a numpy array, a "
                            "kcc device array or a CUDA array (__cuda_array_interface__), not "
                            "list")
    d = kcc.device_array(8, np.int32)
    with pytest.raises(TypeError) as e:
        vecadd.vecadd[1, 8](a, a, d, 8)
    assert str(e.value) == ("kernel 'vecadd' parameter 'c' (float *): got an array of int32, "
                            "the kernel's elements are float32")


def test_vectors(kinds, rng):
    n = 100
    v = rng.standard_normal((n, 4), dtype=np.float32)
    v0 = v.copy()
    kinds.scale4[blocks(n), 64](v, (1.0, 2.0, 0.5, -1.0), n)
    assert np.array_equal(v, v0 * np.array([1.0, 2.0, 0.5, -1.0], np.float32))
    with pytest.raises(TypeError) as e:
        kinds.scale4[1, 64](np.zeros((n, 3), np.float32), (1, 1, 1, 1), n)
    assert str(e.value) == ("kernel 'scale4' parameter 'v' (float4 *): an array of float32 for "
                            "4-vectors needs a last dimension of 4, got shape (100, 3)")
    with pytest.raises(ValueError) as e:
        kinds.scale4[1, 64](v, (1, 1, 1), n)
    assert str(e.value) == "kernel 'scale4' parameter 'k' (float4) takes 4 values, got 3"


# ---------------------------------------------------------------- device arrays

def test_device_arrays(vecadd, rng):
    n = 4097
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    da, db = kcc.to_device(a), kcc.to_device(b)
    dc = kcc.device_array(n, np.float32)
    assert (dc.shape, dc.dtype, dc.size, dc.nbytes, len(dc)) == ((n,), np.float32, n, 4 * n, n)
    vecadd.vecadd[blocks(n), 64](da, db, dc, n)
    assert np.array_equal(dc.copy_to_host(), a + b)
    # In place, no copies: the output feeds the next launch.
    vecadd.vecadd[blocks(n), 64](dc, db, dc, n)
    out = np.empty(n, np.float32)
    assert dc.copy_to_host(out) is out
    assert np.array_equal(out, (a + b) + b)
    like = kcc.device_array_like(a)
    like.copy_to_device(a)
    assert np.array_equal(like.copy_to_host(), a)
    with pytest.raises(ValueError):
        like.copy_to_device(np.zeros(3, np.float32))
    z = kcc.device_array((0,), np.float32)
    assert z.copy_to_host().shape == (0,)
    m = kcc.to_device(np.arange(12, dtype=np.int64).reshape(3, 4))
    assert m.shape == (3, 4) and np.array_equal(m.copy_to_host(), np.arange(12).reshape(3, 4))
    m.free()
    with pytest.raises(ValueError) as e:
        vecadd.vecadd[1, 1](da, db, m, 1)
    assert str(e.value) == "kernel 'vecadd' parameter 'c' (float *): the device array was freed"


class _FakeCudaArray:
    """An object that says it is a CUDA array, as CuPy's and PyTorch's do."""
    __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (4096, False),
                                "version": 3, "strides": None, "stream": None}


def test_cuda_array_interface_off_cuda(vecadd):
    """Zero-copy exchange is CUDA's: elsewhere CUDA arrays are refused by name and kcc's own
    device arrays do not claim the interface (tests/gpu/python_interop.py runs it on a GPU)."""
    d = kcc.get_device()
    if d.backend == "cuda":
        pytest.skip("a CUDA device: tests/gpu/python_interop.py covers it")
    a = kcc.to_device(np.zeros(4, np.float32))
    assert not hasattr(a, "__cuda_array_interface__")
    with pytest.raises(AttributeError) as e:
        a.__cuda_array_interface__
    assert str(e.value) == ("__cuda_array_interface__: the array is on an OpenCL device (%s)"
                            % d.name)
    with pytest.raises(TypeError) as e:
        vecadd.vecadd[1, 4](_FakeCudaArray(), a, a, 4)
    assert str(e.value) == ("kernel 'vecadd' parameter 'a' (const float *): a CUDA array "
                            "(_FakeCudaArray) needs a CUDA device; the kernel is on %s (opencl)"
                            % d.name)
    with pytest.raises(TypeError) as e:
        vecadd.vecadd[1, 4](object(), a, a, 4)
    assert str(e.value) == ("kernel 'vecadd' parameter 'a' (const float *) takes a numpy "
                            "array, a kcc device array or a CUDA array "
                            "(__cuda_array_interface__), not object")
    assert isinstance(d.fp64, bool)
    # PoCL's CPU device keeps both widths' denormals (CL_FP_DENORM); a tuple of the widths kept
    assert d.denormals == (("float32", "float64") if d.fp64 else ("float32",))


def test_null_pointer():
    mod = kcc.compile("kernel void k(int *p, int *q) { if (!q) p[0] = 42; else p[0] = 1; }\n")
    p = np.zeros(1, np.int32)
    mod.k[1, 1](p, None)
    assert p[0] == 42


# ---------------------------------------------------------------- configurations

def test_grids(kinds):
    w, h = 70, 33
    out = np.zeros((h, w), np.float32)
    kinds.grid2d[(blocks(w, 16), blocks(h, 8)), (16, 8)](out, w, h)
    yy, xx = np.mgrid[0:h, 0:w]
    assert np.array_equal(out, (yy * 1000 + xx).astype(np.float32))
    w, h, d = 9, 7, 5
    o3 = np.zeros((d, h, w), np.int32)
    kinds.grid3d[(3, 2, 3), (4, 4, 2)](o3, w, h, d)
    zz, yy, xx = np.mgrid[0:d, 0:h, 0:w]
    assert np.array_equal(o3, zz * 10000 + yy * 100 + xx)
    for bad, exc in [((1,), TypeError), ((1, 2, 3, 4, 5), TypeError), (((1, 2, 3, 4), 1), ValueError),
                     ((-1, 1), ValueError), ((1.5, 1), TypeError), ((2**64, 1), OverflowError)]:
        with pytest.raises(exc):
            kinds.grid2d[bad]


def test_launch_limits(kinds):
    out = np.zeros(1, np.float32)
    with pytest.raises(kcc.InvalidLaunchError) as e:
        kinds.grid2d[2**50, 1](out, 1, 1)
    assert e.value.status == "KCRT_ERROR_INVALID_LAUNCH"
    assert str(e.value).startswith("launching grid2d: ")
    assert "grid" in str(e.value)
    dev = kcc.get_device()
    with pytest.raises(kcc.InvalidLaunchError) as e:
        kinds.grid2d[1, dev.max_threads_per_block + 1](out, 1, 1)
    with pytest.raises(kcc.InvalidLaunchError):
        kinds.reverse_block[1, 64, dev.max_shared_bytes + 1](out, 1)


def test_dynamic_shared_and_local_memory(kinds, rng):
    bs, nb = 64, 10
    n = bs * nb
    d = rng.standard_normal(n, dtype=np.float32)
    d0 = d.copy()
    kinds.reverse_block[nb, bs, bs * 4](d, n)
    assert np.array_equal(d, d0.reshape(nb, bs)[:, ::-1].reshape(n))
    x = rng.integers(-1000, 1000, n + 5, dtype=np.int32)
    out = np.zeros(nb + 1, np.int32)
    kinds.block_sums[nb + 1, bs](x, out, n + 5, kcc.local(bs * 4))
    ref = np.add.reduceat(x, np.arange(0, n + 5, bs))
    assert np.array_equal(out, ref)
    out[:] = 0
    kinds.block_sums[nb + 1, bs](x, out, n + 5, bs * 4)
    assert np.array_equal(out, ref)
    with pytest.raises(TypeError) as e:
        kinds.block_sums[1, bs](x, out, n, x)
    assert str(e.value) == ("kernel 'block_sums' parameter 'tmp' (shared int *) is local "
                            "memory: pass its size in bytes (an int or kcc.local(n)), not "
                            "ndarray")


def test_streams_and_events(vecadd, rng):
    n = 10000
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    s = kcc.Stream()
    start, end = kcc.Event(), kcc.Event()
    c = np.zeros(n, np.float32)
    start.record(s)
    vecadd.vecadd[blocks(n), 64, 0, s](a, b, c, n)  # numpy arrays: synchronised, copied back
    end.record(s)
    assert np.array_equal(c, a + b)
    assert start.elapsed_time(end) >= 0.0
    assert kcc.event_elapsed_time(start, end) >= 0.0
    da, db, dc = kcc.to_device(a), kcc.to_device(b), kcc.device_array(n)
    vecadd.vecadd[blocks(n), 64, 0, s](da, db, dc, n)
    s.synchronize()
    assert np.array_equal(dc.copy_to_host(stream=s), a + b)
    with pytest.raises(TypeError):
        vecadd.vecadd[1, 1, 0, "stream"]


# ---------------------------------------------------------------- modules and compiling

def test_module(vecadd):
    assert vecadd.kernel_names() == ["vecadd"]
    k = vecadd.vecadd
    assert k is vecadd.get_kernel("vecadd")
    assert k.signature == "vecadd(const float * a, const float * b, float * c, int n)"
    assert [p.name for p in k.params] == ["a", "b", "c", "n"]
    assert "vecadd" in dir(vecadd)
    with pytest.raises(kcc.KernelNotFoundError) as e:
        vecadd.nosuch
    assert isinstance(e.value, AttributeError)
    assert "nosuch" in str(e.value)
    with pytest.raises(TypeError):
        vecadd.vecadd(1, 2, 3, 4)


def test_compile_errors():
    with pytest.raises(kcc.CompileError) as e:
        kcc.compile("kernel void k(int *p) {\n  p[0] = q;\n}\n", name="bad.k")
    assert e.value.log == ("bad.k:2:10: error: use of undeclared identifier 'q'\n"
                           "  p[0] = q;\n"
                           "         ^\n")
    assert str(e.value) == e.value.log.rstrip("\n")
    with pytest.raises(kcc.InvalidOptionError) as e:
        kcc.compile(VECADD, options=["-fbogus"])
    assert e.value.log == "kcc: error: unknown option '-fbogus'\n"
    with pytest.raises(kcc.InvalidOptionError) as e:
        kcc.compile(VECADD, options=["-o", "x.kcb"])
    assert e.value.log.startswith("kcc: error: '-o' is an option of the kcc command")
    with pytest.raises(TypeError):
        kcc.compile(VECADD, options="-O2")
    with pytest.raises(kcc.InvalidOptionError):
        kcc.compile(VECADD, options=["--emit=ptx"])
    # Warnings do not fail a compile; they are kept on the module.
    with pytest.warns(kcc.KccWarning):
        m = kcc.compile("kernel void k(int *p) {\n  p[0] == 1;\n}\n", name="w.k")
    assert m.log.startswith("w.k:2:8: warning: equality comparison result unused")


def test_options_and_opencl(rng):
    m = kcc.compile("kernel void k(int *p) { p[threadIdx.x] = VALUE * 2; }\n",
                    options=["-DVALUE=21", "-O1"])
    p = np.zeros(4, np.int32)
    m.k[1, 4](p)
    assert list(p) == [42] * 4
    cl = kcc.compile("__kernel void twice(__global float *p) { p[get_global_id(0)] *= 2.0f; }\n",
                     name="twice.cl")
    x = rng.standard_normal(256, dtype=np.float32)
    y = x.copy()
    cl.twice[4, 64](y)
    assert np.array_equal(y, x * 2)


def test_emit():
    ptx = kcc.emit(VECADD, "ptx", ["-arch=sm_80"])
    assert ".target sm_80" in ptx and ".entry vecadd(" in ptx
    spv = kcc.emit(VECADD, "spirv")
    assert isinstance(spv, bytes) and spv[:4] == b"\x03\x02\x23\x07"
    assert "__kernel void vecadd(" in kcc.emit(VECADD, "cl")


def test_compile_file_and_load(tmp_path, rng):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "op.h").write_text("#define OP(x, y) ((x) * (y))\n")
    src = tmp_path / "mul.k"
    src.write_text('#include "inc/op.h"\n'
                   "kernel void mul(const float *a, const float *b, float *c, int n) {\n"
                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "    if (i < n) c[i] = OP(a[i], b[i]);\n"
                   "}\n")
    m = kcc.compile_file(src)
    n = 1000
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    m.mul[blocks(n), 64](a, b, c, n)
    assert np.array_equal(c, a * b)
    kcb = tmp_path / "mul.kcb"
    kcb.write_bytes(m.bundle)
    m2 = kcc.load(kcb)
    c[:] = 0
    m2.mul[blocks(n), 64](a, b, c, n)
    assert np.array_equal(c, a * b)
    junk = tmp_path / "junk.kcb"
    junk.write_bytes(b"not a bundle at all")
    with pytest.raises(kcc.InvalidModuleError):
        kcc.load(junk)
    with pytest.raises(FileNotFoundError):
        kcc.load(tmp_path / "missing.kcb")


# ---------------------------------------------------------------- the cache

CACHE_SCRIPT = """
import kcc, kcc._native, numpy as np
m = kcc.compile('''%s''')
a = np.arange(100, dtype=np.float32); c = np.zeros_like(a)
m.vecadd[2, 64](a, a, c, 100)
assert np.array_equal(c, a + a)
print(kcc.stats()['compiles'], kcc.stats()['cache_hits'], m.from_cache,
      kcc._native._kcc is not None)
""" % VECADD


def test_cache_second_process_compiles_nothing(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "c")}
    st, out, err = run_python(CACHE_SCRIPT, env)
    assert (st, out) == (0, "1 0 False True\n"), err
    # The second process neither compiles nor even loads libkcc.
    st, out, err = run_python(CACHE_SCRIPT, env)
    assert (st, out) == (0, "0 1 True False\n"), err
    env["KCC_CACHE"] = "0"
    st, out, err = run_python(CACHE_SCRIPT, env)
    assert (st, out) == (0, "1 0 False True\n"), err


def test_cache_keys(tmp_path):
    before = kcc.stats()
    kcc.compile(VECADD)
    kcc.compile(VECADD)
    kcc.compile(VECADD, options=["-O2"])
    kcc.compile(VECADD, name="other.k")
    after = kcc.stats()
    assert after["compiles"] - before["compiles"] == 3
    assert after["cache_hits"] - before["cache_hits"] == 1
    # An included file that changes is a miss.
    h = tmp_path / "v.h"
    h.write_text("#define V 1\n")
    src = '#include "v.h"\nkernel void k(int *p) { p[0] = V; }\n'
    name = str(tmp_path / "k.k")
    p = np.zeros(1, np.int32)
    kcc.compile(src, name=name).k[1, 1](p)
    assert p[0] == 1
    h.write_text("#define V 2\n")
    m = kcc.compile(src, name=name)
    assert not m.from_cache
    m.k[1, 1](p)
    assert p[0] == 2
    assert kcc.compile(src, name=name).from_cache


def test_cache_key_names_libkcc_under_a_relative_libdir():
    # The key holds libkcc's size and mtime; a relative KCC_LIBDIR must still find the file
    # (it once gave "0|0", so a rebuilt compiler answered from the old one's entries).
    lib = kcc._native.libkcc_path()
    assert lib and os.path.isabs(lib)
    st = os.stat(lib)
    parent = os.path.dirname(os.path.dirname(lib))
    rel = os.path.relpath(os.path.dirname(lib), parent)
    code = "import kcc._core as c; print(c._compiler_id())"
    status, out, err = run_python(code, env={"KCC_LIBDIR": rel}, cwd=parent)
    assert status == 0, err
    assert out.strip() == "%s|%d|%d" % (kcc.__version__, st.st_size, st.st_mtime_ns)


def test_cache_damaged_entry(private_cache):
    kcc.compile(VECADD)
    d = private_cache / "kcc" / "python"
    outs = list(d.glob("*.kcache"))
    assert len(outs) == 1
    outs[0].write_bytes(outs[0].read_bytes()[:-10])
    m = kcc.compile(VECADD)
    assert not m.from_cache  # damaged: compiled again, and replaced
    assert kcc.compile(VECADD).from_cache


def test_cache_off(monkeypatch, private_cache):
    monkeypatch.setenv("KCC_CACHE", "0")
    kcc.compile(VECADD)
    assert not kcc.compile(VECADD).from_cache
    assert not (private_cache / "kcc" / "python").exists()


# ---------------------------------------------------------------- threads

def test_threads(vecadd, rng):
    errors = []
    inputs = [rng.standard_normal(2000, dtype=np.float32) for _ in range(8)]

    def work(i):
        try:
            m = kcc.compile(VECADD.replace("a[i] + b[i]", "a[i] + b[i] * %d.0f" % i),
                            options=["-ffp-contract=off"])
            a = inputs[i]
            for _ in range(5):
                c = np.zeros_like(a)
                m.vecadd[blocks(2000), 64](a, a, c, 2000)
                if not np.array_equal(c, a + a * np.float32(i)):
                    errors.append("thread %d: wrong result" % i)
                c2 = np.zeros_like(a)
                vecadd.vecadd[blocks(2000), 64](a, a, c2, 2000)  # one kernel, many threads
                if not np.array_equal(c2, a + a):
                    errors.append("thread %d: wrong shared-kernel result" % i)
        except Exception as e:  # pragma: no cover - reported below
            errors.append("thread %d: %r" % (i, e))

    ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_errors_hierarchy():
    for name in kcc.__all__:
        obj = getattr(kcc, name)
        if isinstance(obj, type) and issubclass(obj, Warning):
            assert obj is kcc.KccWarning and obj.__module__ == "kcc"
        elif isinstance(obj, type) and issubclass(obj, BaseException):
            assert issubclass(obj, kcc.Error)
            assert obj.__module__ == "kcc" or obj.__module__.startswith("kcc.")
    assert issubclass(kcc.InvalidLaunchError, kcc.KcrtError)
    assert kcc.InvalidLaunchError.status == "KCRT_ERROR_INVALID_LAUNCH"
    assert issubclass(kcc.OutOfBoundsError, kcc.KcrtError)
    assert kcc.OutOfBoundsError.status == "KCRT_ERROR_OUT_OF_BOUNDS"


def test_import_is_lazy():
    st, out, err = run_python("import kcc, kcc._native as n, sys; "
                              "print(n._kcc is None, n._kcrt is None, 'numpy' in sys.modules)")
    assert (st, out) == (0, "True True False\n"), err


def test_dlpack_off_cuda(vecadd):
    """kcc arrays refuse DLPack off CUDA; a DLPack tensor is refused by name (its capsule is
    not taken). The export and import themselves run on a GPU (tests/gpu/python_interop.py)."""
    d = kcc.get_device()
    if d.backend == "cuda":
        pytest.skip("a CUDA device: tests/gpu/python_interop.py covers it")
    a = kcc.to_device(np.zeros(4, np.float32))
    with pytest.raises(AttributeError) as e:
        a.__dlpack__()
    assert str(e.value) == "__dlpack_device__: the array is on an OpenCL device (%s)" % d.name

    class OnlyDLPack:
        def __dlpack__(self, stream=None):
            raise AssertionError("the capsule must not be taken off CUDA")

    with pytest.raises(TypeError) as e:
        vecadd.vecadd[1, 4](OnlyDLPack(), a, a, 4)
    assert str(e.value) == ("kernel 'vecadd' parameter 'a' (const float *): a DLPack tensor "
                            "(OnlyDLPack) needs a CUDA device; the kernel is on %s (opencl)"
                            % d.name)


def test_dlpack_capsule_roundtrip():
    """The DLPack structures kcc exports are the ones it imports: a capsule made over an
    address reads back as the same shape, dtype and data, and its deleter runs once."""
    from kcc import _dlpack

    class Fake:
        shape = (3, 5)
        dtype = np.dtype(np.int16)

    cap = _dlpack.export(Fake(), 0x10000, 0)
    assert len(_dlpack._alive) >= 1
    t = _dlpack.Imported(cap)
    assert (t.shape, t.dtype, t.data, t.device_type, t.device_id, t.contiguous) == (
        (3, 5), "i2", 0x10000, 2, 0, True)
    n = len(_dlpack._alive)
    t.release()
    assert len(_dlpack._alive) == n - 1
    t.release()  # a second release does nothing
    del cap
    cap2 = _dlpack.export(Fake(), 0x20000, 0)
    n = len(_dlpack._alive)
    del cap2  # never consumed: the capsule's destructor frees it
    assert len(_dlpack._alive) == n - 1


def test_opencl_build_options(rng):
    """OpenCL C's build options, as PyOpenCL programs pass them to clBuildProgram, are taken
    with their meaning (-cl-fast-relaxed-math defines __FAST_RELAXED_MATH__); one kcc does
    not know is a CompileError naming it."""
    src = """__kernel void k(__global float *p, int n) {
        int i = get_global_id(0);
    #ifdef __FAST_RELAXED_MATH__
        if (i < n) p[i] = p[i] * 0.5 + 2.0;
    #else
        if (i < n) p[i] = -1.0f;
    #endif
    }"""
    opts = ["-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-denorms-are-zero",
            "-cl-single-precision-constant", "-cl-std=CL1.1"]
    mod = kcc.compile(src, name="bo.cl", options=opts)
    x = rng.uniform(-10, 10, 1000).astype(np.float32)
    want = x * np.float32(0.5) + np.float32(2.0)
    mod.k[4, 256](x, np.int32(x.size))
    np.testing.assert_allclose(x, want, rtol=1e-6)
    with pytest.raises(kcc.CompileError, match="unknown OpenCL build option '-cl-nope'"):
        kcc.compile(src, name="bo.cl", options=["-cl-nope"])
