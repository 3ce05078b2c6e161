"""NumPy's operations on kcc.DeviceArray (kcc/_array.py): every operator and function against
numpy on fresh random inputs, every element compared, with NumPy 2's type promotion."""
import operator

import numpy as np
import pytest

import kcc

INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
FLOATS = [np.float32, np.float64]
ALL = INTS + FLOATS + [np.bool_]


def rand(shape, dtype, lo=-1000, hi=1000, nonzero=False):
    rng = np.random.default_rng()
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        x = rng.integers(0, 2, shape).astype(bool)
        return np.ones(shape, bool) if nonzero else x
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        x = rng.integers(max(info.min, lo), min(info.max, hi), shape, dtype=dtype)
    else:
        x = (rng.random(shape) * (hi - lo) + lo).astype(dtype)
    if nonzero:
        x[x == 0] = 1
    return x


def same(got, want):
    assert isinstance(got, kcc.DeviceArray), type(got)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    g = got.get()
    assert np.array_equal(g, want, equal_nan=want.dtype.kind == "f"), (g, want)


ARITH = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
         operator.mod]


@pytest.mark.parametrize("dtype", INTS + FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", ARITH, ids=lambda o: o.__name__)
def test_arithmetic_every_dtype(op, dtype):
    x = rand(500, dtype)
    y = rand(500, dtype, nonzero=True)
    with np.errstate(all="ignore"):
        want = op(x, y)
    same(op(kcc.asarray(x), kcc.asarray(y)), want)
    # numpy operands on either side, and python scalars (weak: the array's type)
    same(op(kcc.asarray(x), y), want)
    same(op(x, kcc.asarray(y)), want)
    with np.errstate(all="ignore"):
        same(op(kcc.asarray(x), 7), op(x, 7))
        same(op(3, kcc.asarray(y)), op(3, y))


def test_integer_semantics_numpy_not_c():
    # floor division and modulo round towards -inf; division by zero gives 0; MIN // -1 wraps.
    x = np.array([-7, 7, -7, 7, 5, -128, -128, 0], np.int8)
    y = np.array([2, -2, -2, 2, 0, -1, 1, 0], np.int8)
    with np.errstate(all="ignore"):
        same(kcc.asarray(x) // kcc.asarray(y), x // y)
        same(kcc.asarray(x) % kcc.asarray(y), x % y)
    # wrap-around, never C's undefined signed overflow
    big = np.array([2 ** 31 - 1, -2 ** 31], np.int32)
    with np.errstate(all="ignore"):
        same(kcc.asarray(big) + 1, big + np.int32(1))
        same(kcc.asarray(big) * 3, big * np.int32(3))
        same(-kcc.asarray(big), -big)
    # float floor division and modulo as npy_divmod: floor_divide(1, 0.1) is 9
    a = np.array([1.0, -1.0, 7.5, -7.5, 0.0, 3.0], np.float64)
    b = np.array([0.1, 0.1, -2.0, 2.0, -3.0, 0.0], np.float64)
    with np.errstate(all="ignore"):
        same(kcc.asarray(a) // kcc.asarray(b), a // b)
        same(kcc.asarray(a) % kcc.asarray(b), a % b)


@pytest.mark.parametrize("dtype", INTS + FLOATS, ids=lambda d: np.dtype(d).name)
def test_power(dtype):
    x = rand(200, dtype, -5, 6)
    y = rand(200, dtype, 0, 5)
    with np.errstate(all="ignore"):
        want = x ** y
    got = kcc.asarray(x) ** kcc.asarray(y)
    if np.dtype(dtype).kind == "f":
        assert got.dtype == want.dtype
        assert np.allclose(got.get(), want, rtol=1e-6, equal_nan=True)
    else:
        same(got, want)


@pytest.mark.parametrize("dtype", INTS + [np.bool_], ids=lambda d: np.dtype(d).name)
def test_bitwise_and_shifts(dtype):
    x, y = rand(300, dtype), rand(300, dtype)
    for op in (operator.and_, operator.or_, operator.xor):
        same(op(kcc.asarray(x), kcc.asarray(y)), op(x, y))
    same(~kcc.asarray(x), ~x)
    if dtype != np.bool_:
        s = rand(300, dtype, 0, np.dtype(dtype).itemsize * 8)
        same(kcc.asarray(x) << kcc.asarray(s), x << s)
        same(kcc.asarray(x) >> kcc.asarray(s), x >> s)


def test_bools():
    x, y = rand(100, np.bool_), rand(100, np.bool_)
    same(kcc.asarray(x) + kcc.asarray(y), x + y)
    same(kcc.asarray(x) * kcc.asarray(y), x * y)
    with pytest.raises(TypeError, match="- of bool arrays is not supported"):
        kcc.asarray(x) - kcc.asarray(y)


@pytest.mark.parametrize("op", [operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
                                operator.ge], ids=lambda o: o.__name__)
def test_comparisons(op):
    for dt in (np.int16, np.uint32, np.float32, np.float64):
        x, y = rand((6, 7), dt, -5, 5), rand((6, 7), dt, -5, 5)
        same(op(kcc.asarray(x), kcc.asarray(y)), op(x, y))
        same(op(kcc.asarray(x), 2), op(x, 2))


@pytest.mark.parametrize("xs,ys", [((4, 5), (5,)), ((4, 1), (1, 6)), ((3, 4, 5), (4, 1)),
                                   ((), (3, 2)), ((2, 1, 3), (1, 4, 1))])
def test_broadcasting_and_mixed_types(xs, ys):
    x, y = rand(xs, np.int32), rand(ys, np.float32)
    same(kcc.asarray(x) + kcc.asarray(y), x + y)  # int32 + float32: float64
    same(kcc.asarray(y) * 2.5, y * 2.5)  # a python float is weak: float32
    same(kcc.asarray(x) * np.float32(2), x * np.float32(2))  # a numpy scalar is not


def test_inplace():
    x = rand((5, 6), np.float32)
    d = kcc.asarray(x)
    ref = x.copy()
    for op, iop in ((operator.add, operator.iadd), (operator.sub, operator.isub),
                    (operator.mul, operator.imul), (operator.truediv, operator.itruediv)):
        r = iop(d, 3)
        assert r is d
        ref = op(ref, np.float32(3))
        same(d, ref)
    i = kcc.asarray(rand(10, np.int32))
    with pytest.raises(TypeError, match="in-place truediv would change int32 into float64"):
        i /= 2
    with pytest.raises(ValueError, match=r"the result's shape \(2, 10\) is not the array's"):
        i += kcc.zeros((2, 10), np.int32)


MATH = ["sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
        "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arctanh", "floor",
        "ceil", "trunc", "rint", "cbrt", "exp2"]


@pytest.mark.parametrize("name", MATH)
def test_math_functions(name):
    for dt, rtol in ((np.float32, 4e-6), (np.float64, 1e-14), (np.int32, 1e-14)):
        lo, hi = (-0.99, 0.99) if name in ("arcsin", "arccos", "arctanh") else \
            (0.01, 50) if name.startswith("log") or name == "sqrt" else (-10, 10)
        if np.dtype(dt).kind == "i":
            if name in ("arcsin", "arccos", "arctanh"):
                continue
            lo, hi = max(int(lo), 1 if name.startswith("log") or name == "sqrt" else -10), 10
        x = rand(300, dt, lo, hi)
        want = getattr(np, name)(x)
        got = getattr(kcc, name)(kcc.asarray(x))
        assert got.dtype == want.dtype, (name, dt)
        assert np.allclose(got.get(), want, rtol=rtol, atol=0), (name, dt)


def test_other_unary():
    x = rand(200, np.float64, -5, 5)
    x[:3] = [0.0, -0.0, np.nan]
    for name in ("negative", "absolute", "sign", "square", "isnan", "isinf", "isfinite",
                 "logical_not"):
        same(getattr(kcc, name)(kcc.asarray(x)), getattr(np, name)(x))
    i = rand(200, np.int16)
    i[0] = -32768
    with np.errstate(all="ignore"):
        for name in ("negative", "absolute", "sign", "square"):
            same(getattr(kcc, name)(kcc.asarray(i)), getattr(np, name)(i))
    same(abs(kcc.asarray(i)), np.abs(i))
    same(kcc.maximum(kcc.asarray(x), 0.5), np.maximum(x, 0.5))
    same(kcc.minimum(kcc.asarray(x), kcc.asarray(-x)), np.minimum(x, -x))


SHAPES = [(1,), (1000,), (7, 9), (3, 4, 5)]


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_reductions(dtype):
    for shape in SHAPES:
        x = rand(shape, dtype, -3, 4)
        d = kcc.asarray(x)
        axes = [None] + list(range(len(shape))) + ([(0, len(shape) - 1)] if len(shape) > 1
                                                    else [])
        for axis in axes:
            for keepdims in (False, True):
                for name in ("sum", "prod", "max", "min", "all", "any"):
                    with np.errstate(all="ignore"):
                        want = getattr(x, name)(axis=axis, keepdims=keepdims)
                    got = getattr(d, name)(axis=axis, keepdims=keepdims)
                    want = np.asarray(want)
                    if want.dtype.kind == "f" and name in ("sum", "prod"):
                        # another order of additions (a tree, not NumPy's pairwise sum)
                        assert got.dtype == want.dtype and got.shape == want.shape
                        assert np.allclose(got.get(), want, rtol=1e-12, atol=0)
                    else:
                        same(got, want)


def test_float_reductions_and_mean():
    x = rand((50, 80), np.float32, -1, 1)
    d = kcc.asarray(x)
    for axis in (None, 0, 1):
        for name in ("sum", "mean"):
            got, want = getattr(d, name)(axis=axis), getattr(x, name)(axis=axis)
            assert got.dtype == want.dtype and got.shape == np.shape(want)
            assert np.allclose(got.get(), want, rtol=1e-5, atol=1e-5)
        same(d.max(axis=axis), np.asarray(x.max(axis=axis)))
    i = rand(1000, np.int32)
    m = kcc.asarray(i).mean()
    assert m.dtype == np.float64 and abs(float(m) - i.mean()) < 1e-9
    y = x.copy()
    y[3, 4] = np.nan
    assert np.isnan(float(kcc.asarray(y).max())) and np.isnan(float(kcc.max(kcc.asarray(y))))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        kcc.zeros(0).max()
    assert float(kcc.sum(kcc.zeros((0,)))) == 0.0


def test_creation():
    same(kcc.zeros((2, 3)), np.zeros((2, 3)))
    same(kcc.ones(4, np.int16), np.ones(4, np.int16))
    same(kcc.full((2, 2), 7.5, np.float32), np.full((2, 2), 7.5, np.float32))
    same(kcc.full(3, 5), np.full(3, 5))
    same(kcc.arange(10), np.arange(10))
    same(kcc.arange(2, 20, 3), np.arange(2, 20, 3))
    same(kcc.arange(1.0, 2.0, 0.25), np.arange(1.0, 2.0, 0.25))
    same(kcc.arange(10, 0, -2), np.arange(10, 0, -2))
    same(kcc.arange(5, dtype=np.float32), np.arange(5, dtype=np.float32))
    same(kcc.linspace(0, 1, 11), np.linspace(0, 1, 11))
    same(kcc.linspace(-2, 3, 7, endpoint=False), np.linspace(-2, 3, 7, endpoint=False))
    x = rand((3, 4), np.int32)
    d = kcc.asarray(x)
    assert kcc.asarray(d) is d
    same(kcc.asarray(d, np.float32), x.astype(np.float32))
    same(kcc.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 4]]))
    same(kcc.array(d), x)
    assert kcc.array(d)._buf != d._buf
    same(kcc.zeros_like(d), np.zeros_like(x))
    same(kcc.ones_like(d), np.ones_like(x))
    same(kcc.full_like(d, 9), np.full_like(x, 9))
    assert kcc.empty_like(d).shape == (3, 4)
    with pytest.raises(TypeError, match="kcc arrays hold numbers and bools, not <U1"):
        kcc.array(["a", "b"])


def test_conversions_and_methods():
    x = rand((4, 5), np.float64)
    d = kcc.asarray(x)
    same(d.astype(np.int32), x.astype(np.int32))
    same(d.astype(bool), x.astype(bool))
    c = d.copy()
    c.fill(2.5)
    same(c, np.full((4, 5), 2.5))
    same(d, x)
    np.testing.assert_array_equal(np.asarray(d), x)
    np.testing.assert_array_equal(d.get(), x)
    one = kcc.asarray(np.array([3.5]))
    assert float(one) == 3.5 and int(kcc.asarray(np.int64(7))) == 7
    assert bool(kcc.asarray(np.array([1]))) is True
    assert [10, 20, 30][kcc.asarray(np.int32(1))] == 20
    with pytest.raises(TypeError, match="only a kcc array of one element converts"):
        float(d)
    with pytest.raises(ValueError, match="truth value of a kcc array with more than one"):
        bool(d)
    with pytest.raises(TypeError, match="iterating over a kcc array would copy each element"):
        list(d)
    assert len(d) == 4
    assert repr(kcc.asarray(np.array([1, 2], np.int8))) == "kcc.array([1, 2], dtype=int8)"
    same(kcc.where(d > 0, d, 0.0), np.where(x > 0, x, 0.0))
    same(kcc.where(x > 0, 1, kcc.asarray(x)), np.where(x > 0, 1.0, x))
    same(d.clip(-10, 10), np.clip(x, -10, 10))
    same(kcc.clip(d, None, 0), np.clip(x, None, 0))


def test_numpy_scalars_on_the_left_stay_on_the_device():
    x = rand(10, np.float32)
    r = np.float32(2) * kcc.asarray(x)
    same(r, np.float32(2) * x)
    r = np.int64(1) + kcc.asarray(x)
    same(r, np.int64(1) + x)


def test_unsupported():
    d = kcc.asarray(rand(4, np.float32))
    with pytest.raises(TypeError, match="& needs integer or bool operands|and needs integer"):
        d & d
    with pytest.raises(TypeError):
        d + "a"
    with pytest.raises(TypeError, match="not supported"):
        d + np.complex64(1)
