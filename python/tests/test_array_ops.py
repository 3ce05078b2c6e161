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
