"""Array operators as kcc._fastlaunch's ArrayBase slots, unary operations' direct path in C,
and the lifetime of the arrays those paths make (docs/python.md, "The host path"): results
against NumPy on fresh random data for both operand orders, NumPy scalars and numpy arrays on
either side, the exceptions NumPy's rules give (the same classes on the ctypes path, run in a
second process with KCC_PYEXT=0), results freed when their last reference goes, views keeping
their base's block, and no block, byte or object left behind by 100,000 operations."""
import gc
import sys
import weakref

import numpy as np
import pytest

import kcc
from kcc import _array, _core
from conftest import run_python

FAST = kcc._native.fast is not None
needs_fast = pytest.mark.skipif(not FAST, reason="kcc._fastlaunch is not built")


@pytest.fixture(autouse=True)
def pool_on():
    kcc.set_memory_pool(True)
    yield
    kcc.set_memory_pool(True)


def fresh(n, dt):
    rng = np.random.default_rng()
    if np.dtype(dt).kind == "f":
        return (rng.random(n) * 200 - 100).astype(dt)
    if np.dtype(dt).kind == "b":
        return rng.random(n) < 0.5
    return rng.integers(-100, 100, n).astype(dt)


def unary_in_c(op):
    return any(isinstance(e, tuple) for e in gc.get_referents(_array._FAST_UNARY[op]))


# Run by both launch paths: operators in both orders and every exception class.
SCRIPT = r"""
import operator, numpy as np, kcc
rng = np.random.default_rng()
def fresh(n, dt):
    if np.dtype(dt).kind == "f":
        return (rng.random(n) * 200 - 100).astype(dt)
    return rng.integers(1, 100, n).astype(dt)
ops = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
       operator.mod, operator.lt, operator.le, operator.eq, operator.ne, operator.gt,
       operator.ge]
for dt in (np.float32, np.float64, np.int32, np.int64):
    ints = [operator.and_, operator.or_, operator.xor] if np.dtype(dt).kind == "i" else []
    for _ in range(3):  # the third round through the direct paths
        a, b = fresh((5, 40), dt), fresh((5, 40), dt)
        x, y = kcc.asarray(a), kcc.asarray(b)
        for f in ops + ints:
            for got, want in ((f(x, y), f(a, b)), (f(x, 3), f(a, 3)), (f(3, x), f(3, a)),
                              (f(x, dt(3)), f(a, dt(3))), (f(dt(3), x), f(dt(3), a)),
                              (f(b, x), f(b, a)), (f(x, b[0]), f(a, b[0]))):
                assert type(got) is kcc.DeviceArray, (f, type(got))
                assert got.dtype == want.dtype and got.shape == want.shape, (f, got, want)
                np.testing.assert_allclose(got.get(), want, rtol=1e-6)
        for f, w in ((operator.neg, -a), (abs, np.abs(a)), (kcc.sqrt, np.sqrt(np.abs(a))),
                     (kcc.square, np.square(a)), (kcc.isnan, np.isnan(a))):
            got = f(kcc.asarray(np.abs(a)) if f is kcc.sqrt else x)
            assert got.dtype == w.dtype and got.shape == w.shape, (f, got, w)
            np.testing.assert_allclose(got.get(), w, rtol=1e-6)
        if np.dtype(dt).kind == "i":
            np.testing.assert_array_equal((~x).get(), ~a)
        np.testing.assert_allclose((x ** 2).get(), a ** 2, rtol=1e-6)
x = kcc.asarray(np.arange(10, dtype=np.int32))
f = kcc.asarray(np.ones(10, np.float32))
b = kcc.asarray(np.ones(10, bool))
def raises(cls, fn):
    try:
        fn()
    except cls:
        return
    except Exception as e:
        raise AssertionError("%r raised %r, not %s" % (fn, e, cls.__name__))
    raise AssertionError("%r raised nothing" % fn)
raises(OverflowError, lambda: x + 2 ** 40)          # NumPy 2: a Python int beyond int32
raises(ValueError, lambda: x + kcc.asarray(np.ones(3, np.int32)))   # shapes
raises(TypeError, lambda: x + "a")
raises(TypeError, lambda: "a" + x)
raises(TypeError, lambda: x + None)
raises(TypeError, lambda: f & f)                    # bitwise on floats
raises(TypeError, lambda: ~f)
raises(TypeError, lambda: -b)                       # NumPy refuses it too
raises(TypeError, lambda: b - b)
raises(TypeError, lambda: pow(x, 2, 5))
raises(TypeError, lambda: hash(x))
raises(TypeError, lambda: x + 1j)
raises(TypeError, lambda: kcc.sqrt("a"))
assert (x == None) is False and (x != None) is True  # noqa: E711 (not element-wise: NumPy's too)
assert np.array_equal((2 ** 40 > x).get(), np.ones(10, bool))  # compared by value (NumPy 2)
x.free()
raises(ValueError, lambda: x + 1)
raises(ValueError, lambda: -x)
raises(ValueError, lambda: 1 < x)
print("ok")
"""


@pytest.mark.parametrize("ext", [True, False], ids=["fastlaunch", "ctypes"])
def test_operators_both_orders_and_errors(ext):
    if ext and not FAST:
        pytest.skip("kcc._fastlaunch is not built")
    st, out, err = run_python(SCRIPT, env={} if ext else {"KCC_PYEXT": "0"})
    assert st == 0, err
    assert out.strip().endswith("ok")


@needs_fast
def test_operators_are_c_slots():
    # No Python method between the interpreter and the operator (DeviceArray inherits the
    # base's slots); in-place and unary plus stay Python.
    base = kcc._native.fast.ArrayBase
    for name in ("__add__", "__radd__", "__mul__", "__rtruediv__", "__lt__", "__eq__",
                 "__neg__", "__abs__", "__invert__", "__pow__"):
        assert name not in kcc.DeviceArray.__dict__, name
        assert getattr(kcc.DeviceArray, name) is getattr(base, name), name
    assert "__iadd__" in kcc.DeviceArray.__dict__
    assert kcc.DeviceArray.__hash__ is None


@needs_fast
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.int64, np.bool_])
def test_unary_direct_path(dt):
    pool = kcc.get_default_memory_pool()
    ops = [("absolute", abs, np.abs), ("isnan", kcc.isnan, np.isnan),
           ("logical_not", kcc.logical_not, np.logical_not)]
    if dt != np.bool_:
        ops += [("negative", lambda v: -v, np.negative), ("square", kcc.square, np.square),
                ("sign", kcc.sign, np.sign)]
    if np.dtype(dt).kind != "f":
        ops += [("invert", lambda v: ~v, np.invert)]
    else:
        ops += [("tanh", kcc.tanh, np.tanh), ("floor", kcc.floor, np.floor)]
    for _ in range(4):
        a = fresh(777, dt)
        x = kcc.asarray(a)
        for name, f, g in ops:
            got, want = f(x), g(a)
            assert got.dtype == want.dtype and got.shape == want.shape, (name, got, want)
            np.testing.assert_allclose(got.get(), want, rtol=1e-6)
    for name, _, _ in ops:
        assert unary_in_c(name), name
    # Ways out: a view, a freed array (the Python path's error), the pool's lock held.
    np.testing.assert_allclose(abs(x[::3]).get(), np.abs(a[::3]))
    with pool._lock:
        np.testing.assert_allclose(abs(x).get(), np.abs(a))
    x.free()
    with pytest.raises(ValueError, match="freed"):
        abs(x)


@needs_fast
def test_unary_int_math_takes_python_path():
    # sqrt of an int array computes in float64 (a conversion kernel first): not the direct
    # path's to take, and still NumPy's answer.
    a = np.arange(1, 500, dtype=np.int32)
    x = kcc.asarray(a)
    for _ in range(4):
        got = kcc.sqrt(x)
        assert got.dtype == np.float64
        np.testing.assert_allclose(got.get(), np.sqrt(a))


def test_result_freed_with_last_reference():
    pool = kcc.get_default_memory_pool()
    a, b = fresh(1000, np.float32), fresh(1000, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    for _ in range(3):
        x + y, -x
    gc.collect()
    cls = _core._size_class(4000)
    used = pool.used_bytes()
    for make in (lambda: x + y, lambda: -x, lambda: 2 * x, lambda: x < y):
        z = make()
        assert pool.used_bytes() == used + _core._size_class(z.nbytes)
        if FAST:  # (the ctypes path's setters keep the last argument of each parameter)
            assert sys.getrefcount(z) == 2  # z and getrefcount's argument: nothing else
        r = weakref.ref(z)
        del z  # no cycle: freed at once, its block back
        assert r() is None
        assert pool.used_bytes() == used
    assert cls == _core._size_class(4000)


def test_views_keep_their_base():
    pool = kcc.get_default_memory_pool()
    a, b = fresh(1000, np.float32), fresh(1000, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    for _ in range(3):
        x + y
    gc.collect()
    used = pool.used_bytes()
    v = (x + y)[10:20]  # the sum's only reference is the view's
    w = (-x).reshape(10, 100).T[3]
    gc.collect()
    assert pool.used_bytes() == used + 2 * _core._size_class(4000)
    assert v.base is not None and w.base is not None
    r = weakref.ref(v.base)
    np.testing.assert_array_equal(v.get(), (a + b)[10:20])
    np.testing.assert_array_equal((v * 2).get(), (a + b)[10:20] * 2)
    np.testing.assert_array_equal(w.get(), (-a).reshape(10, 100).T[3])
    # A new result does not take a block a view still reads.
    z = x - y
    np.testing.assert_array_equal(v.get(), (a + b)[10:20])
    del z
    del v
    assert r() is None
    del w
    gc.collect()
    assert pool.used_bytes() == used


def test_no_leak_over_100k_operations():
    # x + y, -x, 2 * x, x < y and x.sum() in turn, 100,000 operations in all, each result
    # dropped: afterwards the pool holds what it held (the results' blocks back on their
    # lists, none new from the driver after the first round) and no objects are left.
    pool = kcc.get_default_memory_pool()
    a, b = fresh(256, np.float32), fresh(256, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    ops = (lambda: x + y, lambda: -x, lambda: 2 * x, lambda: x < y, lambda: x.sum())
    for f in ops * 3:
        f()
    kcc.synchronize()
    gc.collect()
    used, total, blocks = pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()
    objects = len(gc.get_objects())
    for i in range(20000):
        for f in ops:
            f()
        if i % 1000 == 999:
            kcc.synchronize()  # (the queue's length: PoCL keeps every command until done)
    kcc.synchronize()
    gc.collect()
    assert (pool.used_bytes(), pool.total_bytes(), pool.n_free_blocks()) == \
        (used, total, blocks)
    assert len(gc.get_objects()) <= objects + 50
    np.testing.assert_allclose((x + y).get(), a + b)


@needs_fast
def test_register_ops_checks():
    fast = kcc._native.fast
    with pytest.raises(TypeError):
        fast.register_ops([1])
    with pytest.raises(TypeError):
        fast.register_ops({"add": lambda x, y: 1})
    with pytest.raises(TypeError):
        fast.register_ops({"negative": _array._FAST_OPS["add"]})  # a BinaryOp for a unary
    with pytest.raises(KeyError):
        fast.register_ops({"maximum": _array._FAST_OPS["maximum"]})
    # The registered operators are unchanged by the refusals.
    x = kcc.asarray(np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal((x + x).get(), np.arange(4) * 2)
    np.testing.assert_array_equal((-x).get(), -np.arange(4))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.int64])
def test_in_place(dt):
    # From the second call of an operand kind on, x OP= y writes x in place (one launch):
    # the same object, the same block, NumPy's values, and no block more in use.
    pool = kcc.get_default_memory_pool()
    a, b = fresh(600, dt), fresh(600, dt)
    b[b == 0] = 1
    x, y = kcc.asarray(a), kcc.asarray(b)
    gc.collect()
    used = pool.used_bytes()
    blk = x._block
    ops = [("+=", lambda u, v: u.__iadd__(v)), ("-=", lambda u, v: u.__isub__(v)),
           ("*=", lambda u, v: u.__imul__(v))]
    if np.dtype(dt).kind == "i":
        ops += [("//=", lambda u, v: u.__ifloordiv__(v)), ("%=", lambda u, v: u.__imod__(v)),
                ("^=", lambda u, v: u.__ixor__(v))]
    else:
        ops += [("/=", lambda u, v: u.__itruediv__(v))]
    for _ in range(3):
        for what, f in ops:
            for v, w in ((y, b), (3, 3), (dt(2), dt(2))):
                assert f(x, v) is x
                with np.errstate(all="ignore"):
                    f(a, w)
                np.testing.assert_allclose(x.get(), a, rtol=1e-6, err_msg=what)
            if np.dtype(dt).kind == "f":  # keep the values in range
                a[...] = fresh(600, dt)
                x.copy_to_device(a)
        x += x
        a += a
        np.testing.assert_allclose(x.get(), a, rtol=1e-6)
    gc.collect()
    assert x._block is blk and pool.used_bytes() == used
    if np.dtype(dt).kind == "i":
        with pytest.raises(TypeError):
            x += 2.5  # NumPy's same_kind casting refuses float64 into an integer array
        if dt == np.int32:
            with pytest.raises(OverflowError):
                x += 2 ** 40
    with pytest.raises(ValueError):
        x += kcc.asarray(np.ones(3, dt))
    x.free()
    with pytest.raises(ValueError, match="freed"):
        x += 1
