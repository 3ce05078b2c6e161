"""Reductions that read at bandwidth (ReductionKernel's blocks striding over many parts, four
elements in flight per thread, the kept dimensions' offset once per block): against NumPy on
fresh random data at the sizes where the unrolled loop, its tail and the parts meet, through
contiguous, strided, transposed and broadcast inputs."""
import numpy as np
import pytest

import kcc
from kcc import _elementwise as E

SUM = kcc.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "red_sum")
# a map using j, the element's index in the reduction (argmax's way)
WSUM = kcc.ReductionKernel("T x", "int64 y", "(long)x * (j + 1)", "a + b", "y = a", "0",
                           "red_wsum")


def ints(shape, lo=-1000, hi=1000):
    return np.random.default_rng().integers(lo, hi, shape, dtype=np.int64)


BLOCK, U = E._BLOCK, E._UNROLL


@pytest.mark.parametrize("n", [1, U * BLOCK - 1, 4 * BLOCK, 4 * BLOCK + 1, 8 * BLOCK * 37 + 5,
                               (1 << 20) + 3, 3 << 21])
def test_whole_array_sizes(n):
    x = ints(n)
    d = kcc.asarray(x)
    assert int(SUM(d)) == x.sum()
    assert int(WSUM(d)) == (x * np.arange(1, n + 1)).sum()
    assert int(d.max()) == x.max() and int(d.min()) == x.min()
    assert int(d.argmax()) == x.argmax() and int(d.argmin()) == x.argmin()


def test_argmax_first_of_equal_across_parts():
    n = 3 << 20  # many parts: equal values in different blocks
    x = np.random.default_rng().integers(0, 5, n).astype(np.int32)
    x[[5, 100000, 2000000]] = 9
    x[[7, 300000, 3000000]] = -3
    d = kcc.asarray(x)
    assert int(d.argmax()) == 5 and int(d.argmin()) == 7
    f = np.random.default_rng().random(n).astype(np.float32)
    f[[1234567, 2345678]] = np.nan
    assert int(kcc.asarray(f).argmax()) == 1234567 == np.argmax(f)


@pytest.mark.parametrize("shape,axis", [((70, 5000), 1), ((300, 1025), 1), ((5000, 70), 0),
                                        ((3, 700, 400), (1, 2)), ((3, 700, 400), (0, 2)),
                                        ((64, 64, 9), 2)])
def test_axis_reductions(shape, axis):
    x = ints(shape)
    d = kcc.asarray(x)
    np.testing.assert_array_equal(SUM(d, axis=axis).get(), x.sum(axis=axis))
    np.testing.assert_array_equal(d.max(axis=axis).get(), x.max(axis=axis))
    if isinstance(axis, int):
        np.testing.assert_array_equal(d.argmin(axis=axis).get(), x.argmin(axis=axis))


def test_views_and_broadcast():
    x = ints((600, 3000))
    d = kcc.asarray(x)
    for v, w in ((d[:, ::3], x[:, ::3]), (d.T, x.T), (d[::-2, 7:], x[::-2, 7:]),
                 (d[5], x[5])):
        np.testing.assert_array_equal(SUM(v, axis=-1).get(), w.sum(axis=-1))
        assert int(SUM(v)) == w.sum()
    b = kcc.broadcast_to(kcc.asarray(x[0]), (50, 3000))
    np.testing.assert_array_equal(SUM(b, axis=0).get(), np.broadcast_to(x[0], (50, 3000))
                                  .sum(axis=0))


def test_float_results_close_and_repeatable():
    rng = np.random.default_rng()
    x = rng.random(5 << 20).astype(np.float32)
    d = kcc.asarray(x)
    s1, s2 = d.sum().get(), d.sum().get()
    assert s1.tobytes() == s2.tobytes()  # the same order of additions every time
    assert abs(float(s1) - x.astype(np.float64).sum()) < 1e-5 * x.size
    np.testing.assert_allclose(float(kcc.linalg.norm(d)), np.linalg.norm(x.astype(np.float64)),
                               rtol=1e-5)
    np.testing.assert_allclose(float(d.mean()), x.astype(np.float64).mean(), rtol=1e-5)
    m = rng.random((4096, 1000))
    np.testing.assert_allclose(kcc.asarray(m).sum(axis=1).get(), m.sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(kcc.asarray(m).std(axis=1).get(), m.std(axis=1), rtol=1e-9)
