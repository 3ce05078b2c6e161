"""Expression kernels (kcc.ElementwiseKernel, kcc.ReductionKernel: CuPy's) against numpy on
fresh random inputs, every element compared."""
import itertools

import numpy as np
import pytest

import kcc

INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
FLOATS = [np.float32, np.float64]


def rand(shape, dtype, rng=None):
    rng = rng or np.random.default_rng()
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), shape, dtype=dtype)
    return (rng.random(shape) * 200 - 100).astype(dtype)


def host(x):
    return x.copy_to_host() if isinstance(x, kcc.DeviceArray) else x


EXACT = ["-ffp-contract=off"]  # results equal numpy's, bit for bit


# ---------------------------------------------------------------- ElementwiseKernel

@pytest.mark.parametrize("dtype", INTS + FLOATS, ids=lambda d: np.dtype(d).name)
def test_elementwise_placeholder_every_dtype(dtype):
    k = kcc.ElementwiseKernel("T x, T y", "T z", "z = x * y + x", "muladd", options=EXACT)
    x, y = rand(1000, dtype), rand(1000, dtype)
    z = k(x, y)
    assert isinstance(z, kcc.DeviceArray) and z.dtype == dtype and z.shape == (1000,)
    with np.errstate(over="ignore"):
        assert np.array_equal(z.copy_to_host(), x * y + x)


@pytest.mark.parametrize("xs,ys", [((4, 5), (5,)), ((4, 1), (1, 6)), ((3, 4, 5), (4, 1)),
                                   ((1,), (7,)), ((), (3, 2)), ((2, 3), (2, 3))])
def test_elementwise_broadcasting(xs, ys):
    k = kcc.ElementwiseKernel("float64 x, float64 y", "float64 z", "z = x - 2 * y", "sub2",
                              options=EXACT)
    x, y = rand(xs, np.float64), rand(ys, np.float64)
    z = k(x, y)
    want = x - 2 * y
    assert z.shape == want.shape
    assert np.array_equal(z.copy_to_host(), want)


def test_elementwise_device_arrays_and_outputs():
    k = kcc.ElementwiseKernel("float32 x, float32 y", "float32 s, float32 d",
                              "s = x + y; d = x - y", "sumdiff", options=EXACT)
    x, y = rand((8, 9), np.float32), rand((8, 9), np.float32)
    dx, dy = kcc.to_device(x), kcc.to_device(y)
    s, d = k(dx, dy)
    assert np.array_equal(s.copy_to_host(), x + y) and np.array_equal(d.copy_to_host(), x - y)
    # Outputs given: a device array is written in place, a numpy one gets the results.
    so, do = kcc.device_array((8, 9), np.float32), np.zeros((8, 9), np.float32)
    r = k(dx, y, so, do)
    assert r[0] is so and r[1] is do
    assert np.array_equal(so.copy_to_host(), x + y) and np.array_equal(do, x - y)


def test_elementwise_output_read_before_written():
    k = kcc.ElementwiseKernel("int32 x", "int32 acc", "acc += x", "accum")
    x = rand(100, np.int32)
    acc = kcc.to_device(np.arange(100, dtype=np.int32))
    k(x, acc)
    k(x, acc)
    assert np.array_equal(acc.copy_to_host(), np.arange(100) + 2 * x)


def test_elementwise_scalars_and_fixed_types():
    k = kcc.ElementwiseKernel("T x, T a, int32 b", "float64 z", "z = (double)x * a + b",
                              "axb", options=EXACT)
    x = rand(50, np.int64)
    z = k(x, 3, np.int32(7))
    assert z.dtype == np.float64
    assert np.array_equal(z.copy_to_host(), x.astype(np.float64) * 3 + 7)
    # A placeholder bound only by a scalar: a Python float is float64.
    k2 = kcc.ElementwiseKernel("T a", "T z", "z = a * i", "ramp")
    z = k2(0.5, size=10)
    assert z.dtype == np.float64 and np.array_equal(z.copy_to_host(), np.arange(10) * 0.5)


def test_elementwise_raw_and_index():
    k = kcc.ElementwiseKernel("raw T x", "T y", "y = x[_n - 1 - i]", "reverse")
    x = rand(77, np.int16)
    y = k(x, kcc.device_array(77, np.int16))
    assert np.array_equal(y.copy_to_host(), x[::-1])
    k2 = kcc.ElementwiseKernel("", "int64 y", "y = i * i", "squares")
    assert np.array_equal(k2(size=33).copy_to_host(), np.arange(33) ** 2)


def test_elementwise_bool_and_preamble():
    k = kcc.ElementwiseKernel("float32 x, float32 lo", "bool inside, float32 c",
                              "inside = x >= lo && x <= HI; c = clampf(x, lo)", "band",
                              preamble="#define HI 50.0f\n"
                                       "static float clampf(float v, float l) {"
                                       " return v < l ? l : v > HI ? HI : v; }\n")
    x = rand(300, np.float32)
    inside, c = k(x, -10.0)
    assert inside.dtype == np.bool_
    assert np.array_equal(inside.copy_to_host(), (x >= -10) & (x <= 50))
    assert np.array_equal(c.copy_to_host(), np.clip(x, -10, 50))


def test_elementwise_caches_per_types():
    k = kcc.ElementwiseKernel("T x", "T y", "y = x + 1", "inc")
    before = kcc.stats()
    for dt in (np.int32, np.float32, np.int32, np.float32):
        assert np.array_equal(host(k(np.arange(5, dtype=dt))), np.arange(5) + 1)
    after = kcc.stats()
    assert after["compiles"] + after["cache_hits"] - before["compiles"] - before["cache_hits"] \
        == 2  # one compile (or disk cache hit) per dtype; the repeats are kept in memory


def test_elementwise_errors():
    with pytest.raises(ValueError, match=r"'float32' is not a parameter: write '\[raw\] TYPE "
                                         r"NAME'"):
        kcc.ElementwiseKernel("float32", "float32 y", "y = 1", "bad")
    with pytest.raises(ValueError, match="parameter 'x' is named twice"):
        kcc.ElementwiseKernel("T x, T x", "T y", "y = x", "bad")
    with pytest.raises(ValueError, match="'i' is the kernel's own name"):
        kcc.ElementwiseKernel("T i", "T y", "y = i", "bad")
    with pytest.raises(ValueError, match="name 'my-kernel' is not a C identifier"):
        kcc.ElementwiseKernel("T x", "T y", "y = x", "my-kernel")
    k = kcc.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add2")
    with pytest.raises(TypeError, match="takes 2 inputs \\(and optionally 1 outputs\\), not 1"):
        k(np.zeros(3))
    with pytest.raises(ValueError, match=r"shapes \(3,\), \(4,\) cannot be broadcast"):
        k(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match=r"output 'z' has shape \(5,\); the result's is \(3,\)"):
        k(np.zeros(3), np.zeros(3), np.zeros(5))
    with pytest.raises(TypeError, match="not <U1"):
        k(np.array(["a"]), np.array(["b"]))
    with pytest.raises(TypeError, match="cannot be told from the arguments"):
        kcc.ElementwiseKernel("T x", "U y", "y = x", "untyped")(np.zeros(3))
    with pytest.raises(ValueError, match="no argument is an array: give the loop's size"):
        kcc.ElementwiseKernel("T a", "T y", "y = a", "nosize")(1.0)
    with pytest.raises(kcc.CompileError, match="undeclared identifier 'w'"):
        kcc.ElementwiseKernel("T x", "T y", "y = w", "typo")(np.zeros(3))


# ---------------------------------------------------------------- ReductionKernel

SUM = kcc.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "rsum")


@pytest.mark.parametrize("shape", [(1,), (1000,), (7, 9), (3, 4, 5), (2, 1, 6, 3)])
def test_reduction_sum_every_axis_set(shape):
    x = rand(shape, np.int64)
    nd = len(shape)
    for r in range(nd + 1):
        for axes in itertools.combinations(range(nd), r):
            axis = axes if r != 1 else axes[0]
            for keepdims in (False, True):
                got = SUM(x, axis=axis if r else (), keepdims=keepdims)
                want = x.sum(axis=axis if r else (), keepdims=keepdims)
                assert got.shape == want.shape, (axis, keepdims)
                assert np.array_equal(got.copy_to_host(), want), (axis, keepdims)
    got = SUM(x)  # axis=None: everything, a 0-d result
    assert got.shape == () and got.copy_to_host() == x.sum()


@pytest.mark.parametrize("n", [255, 256, 257, 4096, 100003, 1 << 20])
def test_reduction_long_rows_two_stages(n):
    x = rand(n, np.int64)
    assert SUM(x).copy_to_host() == x.sum()
    x2 = rand((3, n // 3), np.int32)
    assert np.array_equal(SUM(x2, axis=1).copy_to_host(), x2.sum(axis=1, dtype=np.int32))


def test_reduction_max_min_norm_and_reduce_type():
    x = rand(100000, np.float32)
    mx = kcc.ReductionKernel("T x", "T y", "x", "a > b ? a : b", "y = a", "-INFINITY", "rmax")
    mn = kcc.ReductionKernel("T x", "T y", "x", "a < b ? a : b", "y = a", "INFINITY", "rmin")
    assert mx(x).copy_to_host() == x.max() and mn(x).copy_to_host() == x.min()
    norm = kcc.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm",
                               reduce_type=np.float64)
    got, want = norm(x).copy_to_host(), np.linalg.norm(x.astype(np.float64))
    # Summed in double, rounded once to the float32 output: within float32's half ulp.
    assert got.dtype == np.float32 and abs(float(got) - want) <= 2 ** -24 * want
    # int8 inputs summed in int64, so nothing wraps.
    total = kcc.ReductionKernel("int8 x", "int64 y", "x", "a + b", "y = a", "0", "wide")
    b = np.random.default_rng().integers(-128, 128, 50000).astype(np.int8)
    assert total(b).copy_to_host() == b.astype(np.int64).sum()


def test_reduction_two_inputs_and_outputs():
    dot = kcc.ReductionKernel("T x, T y", "T s, T m", "x * y", "a + b", "s = a; m = a / _cnt",
                              "0", "dotmean", preamble="#define _cnt 7\n", options=EXACT)
    x, y = rand((5, 7), np.float64), rand((5, 7), np.float64)
    s, m = dot(x, y, axis=1)
    want = np.array([sum(float(a) * float(b) for a, b in zip(r, q)) for r, q in zip(x, y)])
    assert np.allclose(s.copy_to_host(), want, rtol=1e-12)
    assert np.allclose(m.copy_to_host(), want / 7, rtol=1e-12)


def test_reduction_out_and_errors():
    x = rand((4, 6), np.int32)
    out = kcc.device_array(4, np.int32)
    assert SUM(x, out=out, axis=1) is out
    assert np.array_equal(out.copy_to_host(), x.sum(axis=1, dtype=np.int32))
    hout = np.zeros(6, np.int32)
    assert SUM(x, hout, axis=0) is hout and np.array_equal(hout, x.sum(axis=0, dtype=np.int32))
    with pytest.raises(ValueError, match="axis 2 is out of bounds for 2 dimensions"):
        SUM(x, axis=2)
    with pytest.raises(ValueError, match="axis 1 is given twice"):
        SUM(x, axis=(1, -1))
    with pytest.raises(TypeError, match="axis must be None, an int or a tuple of ints"):
        SUM(x, axis=1.0)
    with pytest.raises(ValueError, match=r"output 'y' has shape \(3,\); the result's is \(4,\)"):
        SUM(x, kcc.device_array(3, np.int32), axis=1)
    with pytest.raises(ValueError, match="raw parameters are not supported in reductions"):
        kcc.ReductionKernel("raw T x", "T y", "x", "a + b", "y = a", "0", "bad")
    with pytest.raises(ValueError, match="'a' and 'b' are the reduction's own names"):
        kcc.ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0", "bad")
