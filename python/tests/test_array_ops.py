"""kcc arrays' argmin/argmax, var/std, cumsum (a scan kernel), dot/matmul and kcc.linalg.norm
(kcc/_array.py) against numpy on fresh random data, every element compared; contiguous and
strided inputs."""
import numpy as np
import pytest

import kcc
from test_array import rand, same


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint16, np.int64,
                                   np.bool_], ids=lambda d: np.dtype(d).name)
def test_argmax_argmin(dtype):
    x = rand((23, 31, 5), dtype, -20, 20)  # few values: ties, where the first one wins
    if np.dtype(dtype).kind == "f":
        x[4, 7, 2] = np.nan
        x[9, 3, 1] = np.nan  # the first NaN wins, on every axis
        x[0, 0, 0] = -np.inf
    d = kcc.asarray(x)
    for v, xv in ((d, x), (d[::-2, 3:], x[::-2, 3:]), (d.T, x.T)):
        for axis in (None, 0, 1, 2, -1):
            for keepdims in (False, True):
                for name in ("argmax", "argmin"):
                    want = np.asarray(getattr(xv, name)(axis=axis, keepdims=keepdims))
                    same(getattr(v, name)(axis=axis, keepdims=keepdims), want)
    big = rand(70000, dtype, -100, 100)  # a long reduction, split over several blocks
    same(kcc.argmax(kcc.asarray(big)), np.asarray(np.argmax(big)))
    same(kcc.argmin(kcc.asarray(big)[1::3]), np.asarray(np.argmin(big[1::3])))
    out = kcc.zeros(5, np.int64)
    assert kcc.argmax(d[0], axis=0, out=out) is out
    same(out, x[0].argmax(axis=0))
    assert int(kcc.argmax(kcc.asarray(x[0, 0]))) == int(np.argmax(x[0, 0]))


def test_arg_errors():
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        kcc.zeros(0).argmax()
    with pytest.raises(ValueError, match="attempt to get argmin of an empty sequence"):
        kcc.zeros((3, 0)).argmin(axis=1)
    with pytest.raises(TypeError, match="axis is None or an int"):
        kcc.zeros(3).argmax(axis=(0,))
    with pytest.raises(ValueError, match="axis 2 is out of bounds"):
        kcc.zeros((3, 2)).argmax(axis=2)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8],
                         ids=lambda d: np.dtype(d).name)
def test_var_std(dtype):
    x = rand((17, 40), dtype, 0, 100)
    d = kcc.asarray(x)
    rtol = 2e-5 if dtype == np.float32 else 1e-10
    for v, xv in ((d, x), (d[::3, ::-2], x[::3, ::-2])):
        for axis in (None, 0, 1, (0, 1)):
            for ddof in (0, 1):
                for name in ("var", "std"):
                    want = np.asarray(getattr(xv, name)(axis=axis, ddof=ddof))
                    got = getattr(v, name)(axis=axis, ddof=ddof)
                    assert got.dtype == want.dtype and got.shape == want.shape
                    np.testing.assert_allclose(got.get(), want, rtol=rtol)
    got = kcc.std(d, axis=1, keepdims=True)
    want = x.std(axis=1, keepdims=True)
    assert got.shape == want.shape
    np.testing.assert_allclose(got.get(), want, rtol=rtol)
    big = rand(50000, np.float64)
    assert np.isclose(float(kcc.asarray(big).var()), big.var(), rtol=1e-10)
    with np.errstate(all="ignore"):  # n - ddof <= 0: inf or nan, as NumPy's
        assert np.isinf(float(kcc.asarray(np.array([1.0, 2.0])).var(ddof=2)))
    with pytest.raises(TypeError, match="dtype must be a float type"):
        d.var(dtype=np.int32)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.int64, np.bool_, np.float32,
                                   np.float64], ids=lambda d: np.dtype(d).name)
def test_cumsum(dtype):
    x = rand((13, 700), dtype, -50, 50)
    d = kcc.asarray(x)
    exact = np.dtype(dtype).kind != "f"

    def check(got, want):
        if exact:
            same(got, want)
        else:  # a scan adds in another order than NumPy's loop
            assert got.dtype == want.dtype and got.shape == want.shape
            tol = 1e-3 if want.dtype == np.float32 else 1e-9
            np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * 1000)
    for v, xv in ((d, x), (d[::-2, 5::3], x[::-2, 5::3]), (d.T, x.T)):
        for axis in (None, 0, 1, -1):
            check(v.cumsum(axis=axis), np.cumsum(xv, axis=axis))
    # a long row, split over several blocks, and a 3-D array along its middle dimension
    long = rand(100003, dtype, -50, 50)
    check(kcc.cumsum(kcc.asarray(long)), np.cumsum(long))
    check(kcc.cumsum(kcc.asarray(long)[::-7]), np.cumsum(long[::-7]))
    cube = rand((4, 9, 6), dtype, -50, 50)
    check(kcc.cumsum(kcc.asarray(cube), axis=1), np.cumsum(cube, axis=1))
    if exact:
        same(kcc.cumsum(d, dtype=np.int8), np.cumsum(x, dtype=np.int8))  # wraps, as NumPy's
        out = kcc.zeros((13, 700), np.int64)
        kcc.cumsum(d, axis=0, out=out)
        same(out, np.cumsum(x, axis=0, dtype=np.int64))
    same(kcc.cumsum(kcc.zeros((0, 3), dtype), axis=0), np.cumsum(np.zeros((0, 3), dtype),
                                                                 axis=0))


def test_where_and_clip_on_views():
    x = rand((8, 9), np.float32)
    d = kcc.asarray(x)
    same(kcc.where(d[::2] > 0, d[::2], d[1::2]), np.where(x[::2] > 0, x[::2], x[1::2]))
    same(d.T.clip(-100, 100), x.T.clip(-100, 100))
    same(kcc.clip(d[:, ::-1], x[0, ::-1], None), np.clip(x[:, ::-1], x[0, ::-1], None))
    i = rand(50, np.int16)
    same(kcc.sqrt(kcc.asarray(i).astype(np.uint16)), np.sqrt(i.astype(np.uint16)))  # float32


# ---------------------------------------------------------------- dot, matmul, norm

def mm_check(got, want):
    """A product against numpy's: exact for integers and bools (both wrap around), within a
    tolerance of the accumulated rounding for floats."""
    assert isinstance(got, kcc.DeviceArray)
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape,
                                                                want.dtype, want.shape)
    if want.dtype.kind == "f":
        tol = 2e-5 if want.dtype == np.float32 else 1e-12
        scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
        np.testing.assert_allclose(got.get(), want, rtol=tol, atol=tol * scale)
    else:
        same(got, np.asarray(want))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8, np.int64,
                                   np.int16, np.bool_], ids=lambda d: np.dtype(d).name)
def test_matmul(dtype):
    a = rand((37, 45), dtype, -30, 30)
    b = rand((45, 19), dtype, -30, 30)
    da, db = kcc.asarray(a), kcc.asarray(b)
    with np.errstate(all="ignore"):
        mm_check(da @ db, a @ b)
        mm_check(kcc.matmul(da, db), np.matmul(a, b))
        mm_check(da.dot(db), a.dot(b))
        # strided and transposed operands, read in place
        mm_check(da[::2, 1::2] @ db[1::2, ::-1], a[::2, 1::2] @ b[1::2, ::-1])
        mm_check(db.T @ da.T, b.T @ a.T)
        # 1-D operands: matrix-vector, vector-matrix, inner product (a 0-d array)
        v, w = rand(45, dtype, -30, 30), rand(37, dtype, -30, 30)
        mm_check(da @ kcc.asarray(v), a @ v)
        mm_check(kcc.asarray(w) @ da, w @ a)
        mm_check(kcc.asarray(v) @ kcc.asarray(v), np.asarray(v @ v))
        mm_check(kcc.dot(kcc.asarray(w)[::-2], da[::2, 3]), np.asarray(np.dot(w[::-2], a[::2, 3])))
        # numpy operands on either side, and a product of one dimension of 1
        mm_check(a @ db, a @ b)
        mm_check(da @ b, a @ b)
        mm_check(da[:, :1] @ db[:1], a[:, :1] @ b[:1])
    if np.dtype(dtype).kind != "b":
        with np.errstate(all="ignore"):
            mm_check(kcc.dot(da, 3), a * dtype(3))


def test_matmul_sizes_and_types():
    # sizes around the 16-wide tiles, and a long inner dimension
    for m, k, n in ((1, 1, 1), (16, 16, 16), (17, 33, 15), (3, 1000, 2), (64, 5, 70)):
        a, b = rand((m, k), np.float64, -1, 1), rand((k, n), np.float64, -1, 1)
        mm_check(kcc.asarray(a) @ kcc.asarray(b), a @ b)
    # more row tiles than a grid's 65535 blocks along y: each block takes several
    a, b = rand((65535 * 16 + 37, 2), np.float32, -1, 1), rand((2, 3), np.float32, -1, 1)
    mm_check(kcc.asarray(a) @ kcc.asarray(b), a @ b)
    # NumPy's result type of mixed operands
    a, b = rand((6, 7), np.int32), rand((7, 3), np.float32)
    mm_check(kcc.asarray(a) @ kcc.asarray(b), a @ b)  # float64
    z = kcc.zeros((4, 0)) @ kcc.zeros((0, 5))
    mm_check(z, np.zeros((4, 0)) @ np.zeros((0, 5)))
    mm_check(kcc.zeros((0, 3)) @ kcc.zeros((3, 5)), np.zeros((0, 5)))
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        kcc.zeros((3, 4)) @ kcc.zeros((5, 2))
    with pytest.raises(ValueError, match="stacks of shapes .* cannot be broadcast"):
        kcc.zeros((2, 3, 4)) @ kcc.zeros((3, 4, 2))
    with pytest.raises(ValueError, match="kcc.dot: arrays of 1 and 2 dimensions"):
        kcc.dot(kcc.zeros((2, 3, 4)), kcc.zeros((4, 2)))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        kcc.matmul(kcc.zeros(3), 2.0)
    with pytest.raises(TypeError):
        kcc.zeros((2, 2)) @ 2


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32], ids=lambda d:
                         np.dtype(d).name)
def test_linalg_norm(dtype):
    x = rand((30, 21), dtype, -10, 10)
    x[0, :5] = 0
    d = kcc.asarray(x)
    rtol = 1e-5 if dtype == np.float32 else 1e-12

    def check(got, want):
        want = np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, want.dtype,
                                                                    got.shape, want.shape)
        np.testing.assert_allclose(got.get(), want, rtol=rtol)
    for v, xv in ((d, x), (d[::-2, 1::3], x[::-2, 1::3]), (d.T, x.T)):
        check(kcc.linalg.norm(v), np.linalg.norm(xv))
        check(kcc.linalg.norm(v), np.linalg.norm(xv))  # the kept kernel's short path
        check(kcc.linalg.norm(v, keepdims=True), np.linalg.norm(xv, keepdims=True))
        for ord in (None, "fro", 1, -1, np.inf, -np.inf):
            check(kcc.linalg.norm(v, ord), np.linalg.norm(xv, ord))
            check(kcc.linalg.norm(v, ord, axis=(1, 0)), np.linalg.norm(xv, ord, axis=(1, 0)))
            check(kcc.linalg.norm(v, ord, keepdims=True), np.linalg.norm(xv, ord,
                                                                          keepdims=True))
        for ord in (None, 1, 2, np.inf, -np.inf, 0, 3, 0.5):
            for axis in (0, 1, -1):
                check(kcc.linalg.norm(v, ord, axis=axis), np.linalg.norm(xv, ord, axis=axis))
        check(kcc.linalg.norm(v[3], 1), np.linalg.norm(xv[3], 1))
    cube = rand((3, 4, 5), dtype, -10, 10)
    check(kcc.linalg.norm(kcc.asarray(cube)), np.linalg.norm(cube))
    check(kcc.linalg.norm(kcc.asarray(cube), axis=(0, 2)), np.linalg.norm(cube, axis=(0, 2)))
    check(kcc.linalg.norm(kcc.asarray(cube), np.inf, axis=(2, 1)),
          np.linalg.norm(cube, np.inf, axis=(2, 1)))
    with pytest.raises(NotImplementedError, match="singular values"):
        kcc.linalg.norm(d, 2)
    with pytest.raises(ValueError, match="improper number of dimensions"):
        kcc.linalg.norm(kcc.asarray(cube), 1)
    with pytest.raises(ValueError, match="invalid norm order 'fro' for vectors"):
        kcc.linalg.norm(d, "fro", axis=0)


# ---------------------------------------------------------------- ScanKernel (PyOpenCL's)

def test_scan_kernel_inclusive_exclusive():
    rng = np.random.default_rng()
    for n in (1, 300, 70001):  # one tile, several, and several blocks
        x = rng.integers(-100, 100, n).astype(np.int64)
        incl = np.zeros(n, np.int64)
        excl = kcc.zeros(n, np.int64)
        k = kcc.ScanKernel(np.int64, "__global const long *x, __global long *incl, "
                           "__global long *excl", "x[i]", "a + b", "0",
                           "incl[i] = item; excl[i] = prev_item", name_prefix="test_scan")
        k(kcc.asarray(x), incl, excl)  # numpy arrays are copied in and back, as by a kernel
        np.testing.assert_array_equal(incl, np.cumsum(x))
        np.testing.assert_array_equal(excl.get(), np.cumsum(x) - x)
    # a float max-scan (not a sum: any associative operation), last_item, size=
    xf = rng.standard_normal(5000)
    out = kcc.zeros(5000, np.float64)
    mk = kcc.ScanKernel(np.float64, ["const double *x", "double *out"], "x[i] * 2",
                        "a > b ? a : b", "-INFINITY", "out[i] = item - last_item",
                        name_prefix="test_maxscan")
    mk(kcc.asarray(xf), out, size=4000)
    want = np.zeros(5000)
    want[:4000] = np.maximum.accumulate(xf[:4000] * 2) - (xf[:4000] * 2).max()
    np.testing.assert_array_equal(out.get(), want)


def test_scan_kernel_segmented_and_fetch():
    rng = np.random.default_rng()
    n = 9000
    x = rng.integers(0, 50, n).astype(np.int32)
    starts = rng.random(n) < 0.003
    starts[rng.integers(0, n, 3)] = True
    incl, excl = np.zeros(n, np.int32), np.zeros(n, np.int32)
    k = kcc.ScanKernel(np.int32, "const int *x, const bool *s, int *incl, int *excl", "x[i]",
                       "across_seg_boundary ? b : a + b", "0",
                       "incl[i] = item; excl[i] = prev_item", is_segment_start_expr="s[i]",
                       name_prefix="test_segscan")
    k(x, starts, incl, excl)
    want_i, want_e, acc = np.zeros(n, np.int64), np.zeros(n, np.int64), 0
    for i in range(n):
        if starts[i]:
            acc = 0
        want_e[i] = acc
        acc += x[i]
        want_i[i] = acc
    np.testing.assert_array_equal(incl, want_i)
    np.testing.assert_array_equal(excl, want_e)
    # PyOpenCL's stream compaction: a flag from neighbours fetched by input_fetch_exprs, the
    # exclusive count placing each kept element
    v = rng.integers(0, 4, 3000).astype(np.int32)
    out = np.full(3000, -1, np.int32)
    count = np.zeros(1, np.int32)
    compact = kcc.ScanKernel(
        np.int32, "const int *v, int *out, int *count, int n",
        "(v[i] != prev) ? 1 : 0", "a + b", "0",
        "if (prev_item != item) out[prev_item] = v[i]; if (i == n - 1) count[0] = item",
        input_fetch_exprs=[("prev", "v", -1)], name_prefix="test_unique")
    compact(v, out, count, 3000)
    runs = v[np.concatenate([[v[0] != 0], v[1:] != v[:-1]])]
    assert count[0] == len(runs)
    np.testing.assert_array_equal(out[:len(runs)], runs)


def test_scan_kernel_errors():
    with pytest.raises(ValueError, match="is not an argument declaration"):
        kcc.ScanKernel(np.int32, "int *", "x[i]", "a + b", "0", "")
    with pytest.raises(TypeError, match="scan kernels take bool, integer and float types"):
        kcc.ScanKernel(np.int32, "float2 *x", "x[i]", "a + b", "0", "")
    with pytest.raises(ValueError, match="neutral"):
        kcc.ScanKernel(np.int32, "int *x", "x[i]", "a + b", None, "")
    k = kcc.ScanKernel(np.int32, "int *x, int n", "x[i]", "a + b", "0", "x[i] = item",
                       name_prefix="test_scanerr")
    with pytest.raises(TypeError, match="takes 2 arguments"):
        k(kcc.zeros(3, np.int32))
    with pytest.raises(ValueError, match="size must be a non-negative int"):
        k(kcc.zeros(3, np.int32), 3, size=-1)


def test_float16_refused_clearly():
    h = kcc.asarray(np.ones(3, np.float16))  # holding float16 is fine; computing is not yet
    np.testing.assert_array_equal(h.get(), np.ones(3, np.float16))
    with pytest.raises(TypeError, match="the result would be float16"):
        h + 1
    with pytest.raises(TypeError, match="not float16 \\(kcc C has no half type yet\\)"):
        kcc.ElementwiseKernel("T x", "T z", "z = x", "f16_copy")(h)
    with pytest.raises(TypeError, match="float16"):
        kcc.sqrt(kcc.asarray(np.arange(3, dtype=np.uint8)))


@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=lambda d: np.dtype(d).name)
def test_cumprod_concatenate_stack(dtype):
    x = rand((7, 300), dtype, -2, 3)
    x[x == 0] = 1
    if dtype == np.float64:
        x = (x / 2 + 1).astype(dtype)  # products that stay finite
    d = kcc.asarray(x)
    for v, xv in ((d, x), (d[::-2, 5::7], x[::-2, 5::7])):
        for axis in (None, 0, 1):
            got, want = v.cumprod(axis=axis), np.cumprod(xv, axis=axis)
            assert got.dtype == want.dtype and got.shape == want.shape
            if dtype == np.float64:
                np.testing.assert_allclose(got.get(), want, rtol=1e-12)
            else:
                same(got, want)  # wraps around as NumPy's
    y = rand((7, 5), np.int16)
    same(kcc.concatenate([d, kcc.asarray(y), d[:, :2]], axis=1),
         np.concatenate([x, y, x[:, :2]], axis=1))
    same(kcc.concatenate([d[::3], d[::-4]]), np.concatenate([x[::3], x[::-4]]))
    same(kcc.concatenate([d[0, :4], y], axis=None), np.concatenate([x[0, :4], y], axis=None))
    same(kcc.stack([d[:, 0], d[:, 1], kcc.asarray(y[:, 0])], axis=1),
         np.stack([x[:, 0], x[:, 1], y[:, 0]], axis=1))
    same(kcc.stack([d[1], d[2]]), np.stack([x[1], x[2]]))
    np.testing.assert_array_equal(kcc.asnumpy(d[2:4]), x[2:4])
    with pytest.raises(ValueError, match="must match exactly"):
        kcc.concatenate([d, d[:3, :4]], axis=1)
    with pytest.raises(ValueError, match="same shape"):
        kcc.stack([d, d[:2]])


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=lambda d: np.dtype(d).name)
def test_matmul_stacks(dtype):
    # stacks of matrices, their leading dimensions broadcast (NumPy's matmul)
    cases = [((3, 5, 4), (3, 4, 6)), ((2, 1, 5, 4), (3, 4, 2)), ((5, 4), (2, 3, 4, 6)),
             ((2, 3, 1, 2, 5, 4), (4, 7)), ((4,), (3, 4, 2)), ((2, 3, 4), (4,))]
    with np.errstate(all="ignore"):
        for sa, sb in cases:
            a, b = rand(sa, dtype, -9, 9), rand(sb, dtype, -9, 9)
            mm_check(kcc.asarray(a) @ kcc.asarray(b), a @ b)
        a, b = rand((4, 6, 5, 3), dtype, -9, 9), rand((6, 3, 7), dtype, -9, 9)
        # strided and transposed stacks, read in place
        mm_check(kcc.asarray(a)[::2, :, ::-1] @ kcc.asarray(b)[::-1], a[::2, :, ::-1] @ b[::-1])
        mm_check(kcc.matmul(kcc.asarray(b).transpose(0, 2, 1), kcc.asarray(a)[1].swapaxes(1, 2)),
                 np.matmul(b.transpose(0, 2, 1), a[1].swapaxes(1, 2)))
