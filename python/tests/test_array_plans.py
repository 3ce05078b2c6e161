"""The small-operation host path: expression kernels keep a launch plan per (argument types,
shapes, layouts, device) and array operators their type promotion; every later call with the
same key runs the plan. Each test calls an operation several times on fresh random data (the
first call makes the plan, the others run it) and compares every result with NumPy: scalars,
offsets and outputs must be the call's own, never the plan's first."""
import numpy as np
import pytest

import kcc
from kcc import _elementwise as E

ROUNDS = 4


def fresh(shape, dtype, lo=-100, hi=100):
    rng = np.random.default_rng()
    if np.dtype(dtype).kind == "f":
        return (rng.random(shape) * (hi - lo) + lo).astype(dtype)
    return rng.integers(lo, hi, shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int32, np.uint16],
                         ids=lambda d: np.dtype(d).name)
def test_operators_repeated(dtype):
    for _ in range(ROUNDS):
        x, y = fresh((33, 31), dtype), fresh((33, 31), dtype, 1, 50)
        dx, dy = kcc.asarray(x), kcc.asarray(y)
        np.testing.assert_array_equal((dx + dy).get(), x + y)
        np.testing.assert_array_equal((dx * 2 + dy).get(), x * 2 + y)
        np.testing.assert_array_equal((dx - dy[0]).get(), x - y[0])  # broadcast
        np.testing.assert_array_equal((dx < dy).get(), x < y)
        s = int(np.random.default_rng().integers(1, 100))  # a new scalar every round
        np.testing.assert_array_equal((dx * s).get(), x * dtype(s))


def test_scalars_each_call():
    x = fresh(1000, np.float32)
    d = kcc.asarray(x)
    for s in np.random.default_rng().random(ROUNDS) * 10:
        np.testing.assert_array_equal((d * s).get(), x * s)  # a float64 scalar: float64
        np.testing.assert_array_equal((d * float(s)).get(), x * float(s))  # weak: float32
        np.testing.assert_array_equal((d + np.float32(s)).get(), x + np.float32(s))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal((d * 1e39).get(), x * np.float32(1e39))  # inf
    i = fresh(500, np.int8)
    di = kcc.asarray(i)
    for s in (3, 300, -7, 1000, -129, 127):  # beyond int8: NumPy 2's OverflowError
        if -128 <= s <= 127:
            np.testing.assert_array_equal((di + s).get(), i + s)
        else:
            with pytest.raises(OverflowError, match="Python integer %d out of bounds for "
                               "int8" % s):
                di + s
    axpy = kcc.ElementwiseKernel("T x, T y, T a", "T z", "z = a * x + y", "plan_axpy",
                                 options=("-ffp-contract=off",))  # no FMA: NumPy's rounding
    y = fresh(1000, np.float32)
    for a in np.random.default_rng().random(ROUNDS).astype(np.float32):
        np.testing.assert_array_equal(axpy(d, kcc.asarray(y), a).get(), a * x + y)


def test_views_offsets_each_call():
    x = fresh(1000, np.float64)
    d = kcc.asarray(x)
    for off in range(1, 1 + ROUNDS):  # one key (shape, strides, an offset), other offsets
        np.testing.assert_array_equal((d[off:off + 600:2] + 1).get(), x[off:off + 600:2] + 1)
    m = fresh((50, 40), np.int32)
    dm = kcc.asarray(m)
    for r in range(ROUNDS):
        np.testing.assert_array_equal((dm[r] * dm[r + 1]).get(), m[r] * m[r + 1])
        np.testing.assert_array_equal((dm[:, r] + dm.T[r]).get(), m[:, r] + m.T[r])
        assert int(dm[r + 5].sum()) == m[r + 5].sum()
        np.testing.assert_array_equal(dm[r:r + 10].max(axis=1).get(), m[r:r + 10].max(axis=1))


def test_outputs_each_call():
    for _ in range(ROUNDS):
        x, y = fresh(300, np.float32), fresh(300, np.float32)
        dx, dy = kcc.asarray(x), kcc.asarray(y)
        z = kcc.empty(300, np.float32)
        r = kcc.add(dx, dy, out=z) if "out" in kcc.add.__code__.co_varnames else None
        if r is not None:
            assert r is z
            np.testing.assert_array_equal(z.get(), x + y)
        dx += dy
        np.testing.assert_array_equal(dx.get(), x + y)
        a = dx + dy
        b = dx + dy
        assert a is not b and a._buf != b._buf  # two live results: two buffers
        np.testing.assert_array_equal(a.get(), b.get())


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=lambda d: np.dtype(d).name)
def test_reductions_repeated(dtype):
    tol = dict(rtol=1e-5, atol=1e-2 if dtype == np.float32 else 0)  # float32: cancellation
    for _ in range(ROUNDS):
        x = fresh((40, 300), dtype)
        d = kcc.asarray(x)
        for axis in (None, 0, 1):
            got, want = d.sum(axis=axis).get(), x.sum(axis=axis)
            np.testing.assert_allclose(got, want, **tol)
            np.testing.assert_array_equal(d.max(axis=axis).get(), x.max(axis=axis))
            np.testing.assert_array_equal(d.argmin(axis=axis).get(), x.argmin(axis=axis))
        for ddof in (0, 1, 2):  # a scalar parameter of the reduction: the call's own
            np.testing.assert_allclose(d.std(axis=1, ddof=ddof).get(), x.std(axis=1, ddof=ddof),
                                       **tol)
        np.testing.assert_allclose(float(kcc.linalg.norm(d)),
                                   np.linalg.norm(x.astype(np.float64)), rtol=1e-5)
        o = kcc.empty(300, d.sum(axis=0).dtype)
        assert d.sum(axis=0, out=o) is o
        np.testing.assert_allclose(o.get(), x.sum(axis=0), **tol)


def test_plans_are_used():
    k = kcc.ElementwiseKernel("T x", "T z", "z = x + 1", "plan_inc")
    d = kcc.asarray(fresh(100, np.float32))
    k(d)
    assert len(k._plans) == 1
    orig = E._broadcast_shape
    E._broadcast_shape = None  # the full path would call it
    try:
        for _ in range(3):
            e = kcc.asarray(fresh(100, np.float32))
            np.testing.assert_array_equal(k(e).get(), e.get() + 1)
    finally:
        E._broadcast_shape = orig


def test_freed_and_other_args_take_the_full_path():
    x = kcc.asarray(fresh(100, np.float32))
    y = kcc.asarray(fresh(100, np.float32))
    x + y
    y.free()
    with pytest.raises(ValueError, match="freed"):
        x + y
    h = fresh(100, np.float32)  # a numpy operand: copied, no plan
    np.testing.assert_array_equal((x + h).get(), x.get() + h)
    with pytest.raises(ValueError, match="broadcast"):
        x + kcc.zeros(7, np.float32)


def test_whole_arrays_and_scalars_fast_path():
    """Whole arrays and Python scalars skip the plan's lookup after their first call
    (_array.py's _SAME); every call's scalars and arrays are its own, scalars a launch cannot
    take exactly as they are still convert as NumPy's, and a freed array is still an error."""
    from kcc import _array as A
    x32, y32 = fresh(777, np.float32), fresh(777, np.float32)
    d32, e32 = kcc.asarray(x32), kcc.asarray(y32)
    scalars = [2, -3, 2.5, float("nan"), float("inf"), 1e39, 2 ** 24 + 1, 2 ** 60 + 1, True]
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(ROUNDS):
            np.testing.assert_array_equal((d32 + e32).get(), x32 + y32)
            np.testing.assert_array_equal((e32 / d32).get(), y32 / x32)
            for s in scalars:
                np.testing.assert_array_equal((d32 * s).get(), x32 * s)
                np.testing.assert_array_equal((s - d32).get(), s - x32)
    assert any(k[0] == "mul" and k[2] is float for k in A._SAME)
    i16 = fresh(500, np.int16)
    di = kcc.asarray(i16)
    for s in (7, -32768, 32767, 32768, -40000, True, 1.5):  # beyond int16: the slow way
        if type(s) is int and not -32768 <= s <= 32767:
            with pytest.raises(OverflowError):
                di + s
        else:
            np.testing.assert_array_equal((di + s).get(), i16 + s)
        for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
            np.testing.assert_array_equal(getattr(di, op)(s).get(), getattr(i16, op)(s))
        np.testing.assert_array_equal((s < di).get(), s < i16)
        np.testing.assert_array_equal((s >= di[::3]).get(), s >= i16[::3])
    b = fresh(300, np.int8) > 0
    db = kcc.asarray(b)
    for s in (True, False, 1):
        np.testing.assert_array_equal((db & s).get(), b & s)
    gone = kcc.asarray(x32)
    gone + e32
    gone.free()
    with pytest.raises(Exception) as e:
        gone + e32
    assert "free" in str(e.value)
