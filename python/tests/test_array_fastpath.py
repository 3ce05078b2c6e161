"""The C direct path of array operators and the memory pool (kcc._fastlaunch's BinaryOp,
new_array and DeviceArray's finalizer; docs/python.md, "The host path"): from the third call
of an operator on the same operand kinds on, `x OP y` is one C call that takes the result's
block from the pool and launches, and a freed result's block goes back in C. Every result
against NumPy on fresh random data, the pool's accounting after arrays made and freed in C,
and each way out of the C path (a freed operand, a scalar the launch cannot take as it is, the
pool's lock held, the pool off, a block held back for a stream, another thread) giving what
the Python path gives; the same script without the extension (KCC_PYEXT=0)."""
import gc
import threading

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
    info = np.iinfo(dt)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), n).astype(dt)


def in_c(op):
    """Whether op's BinaryOp has an entry (the C path serves it)."""
    return any(e is not None for e in gc.get_referents(_array._FAST_OPS[op])
               if isinstance(e, tuple))


# The script both paths run: each operation four times (the first two make the kernel, its
# plan and the _SAME entry; the later ones run in C where the extension is), every result
# against NumPy on fresh data, then the pool's counts.
SCRIPT = r"""
import gc, numpy as np, kcc
from kcc import _core
rng = np.random.default_rng()
pool = kcc.get_default_memory_pool()
gc.collect()
pool.free_all_blocks()
def fresh(n, dt):
    if np.dtype(dt).kind == "f":
        return (rng.random(n) * 200 - 100).astype(dt)
    return rng.integers(-1000, 1000, n).astype(dt)
for dt in (np.float32, np.float64, np.int32, np.int64):
    for shape in ((1000,), (7, 33)):
        for _ in range(4):
            a, b = fresh(shape, dt), fresh(shape, dt)
            b[b == 0] = 1
            x, y = kcc.asarray(a), kcc.asarray(b)
            for got, want in ((x + y, a + b), (x - y, a - b), (x * y, a * b),
                              (x * 3, a * 3), (3 - x, 3 - a), (x + 2.5, a + 2.5),
                              (x // y, a // b), (x < y, a < b), (x == 7, a == 7)):
                assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
                np.testing.assert_array_equal(got.get(), want)
            np.testing.assert_allclose((x / y).get(), a / b, rtol=1e-6)
            np.testing.assert_array_equal((x * 2 + y).get(), a * 2 + b)
            # A float sum cancels: its error is bounded by the sum of magnitudes, not the
            # result; an integer sum is exact.
            if a.dtype.kind == "f":
                bound = 4 * np.log2(a.size) * np.finfo(dt).eps * np.abs(a).sum(dtype=np.float64)
                assert abs(float(x.sum()) - a.sum(dtype=np.float64)) <= bound, (x.sum(), a.sum())
            else:
                assert int(x.sum()) == int(a.sum(dtype=np.int64))
del x, y, got
gc.collect()
# Every array is gone (but those the ctypes path's setters keep, the last of each kernel
# parameter): nothing used, every block kept, the counts agree with the blocks.
used = pool.used_bytes()
assert used == 0 or kcc._native.fast is None, pool
blocks = [r for v in pool._free.values() for r in v]
assert pool.n_free_blocks() == len(blocks) > 0
assert pool.free_bytes() == sum(r[2] for r in blocks) == pool.total_bytes() - used
live = [kcc.asarray(fresh(1000, np.float32)) for _ in range(3)]
z = live[0] + live[1]
if kcc._native.fast is not None:  # (the ctypes path's setters let go of arrays meanwhile)
    assert pool.used_bytes() == 4 * _core._size_class(4000), pool
print("ok")
"""


@pytest.mark.parametrize("ext", [True, False], ids=["fastlaunch", "ctypes"])
def test_results_and_counts(ext):
    if ext and not FAST:
        pytest.skip("kcc._fastlaunch is not built")
    st, out, err = run_python(SCRIPT, env={} if ext else {"KCC_PYEXT": "0"})
    assert st == 0, err
    assert out.strip() == "ok"


@needs_fast
def test_c_path_reuses_blocks_and_counts():
    pool = kcc.get_default_memory_pool()
    a, b = fresh(1000, np.float32), fresh(1000, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    for _ in range(3):
        x + y
    assert in_c("add")
    gc.collect()
    pool.free_all_blocks()
    cls = _core._size_class(4000)
    z = x + y  # a new block from the driver (none kept), launched from C
    np.testing.assert_array_equal(z.get(), a + b)
    blk = z._block[1]
    assert (pool.used_bytes(), pool.free_bytes()) == (3 * cls, 0)  # x, y, z
    del z  # back in C
    assert (pool.used_bytes(), pool.free_bytes(), pool.n_free_blocks()) == (2 * cls, cls, 1)
    for _ in range(5):  # the same block each time, the values each time's
        b = fresh(1000, np.float32)
        y.copy_to_device(b)
        z = x + y
        assert z._block[1] == blk and z.base is None and z._off == 0
        assert z.shape == (1000,) and z.size == 1000 and z.nbytes == 4000 and z._st == (1,)
        np.testing.assert_array_equal(z.get(), a + b)
        assert pool.used_bytes() == 3 * cls and pool.n_free_blocks() == 0
        del z
        assert pool.used_bytes() == 2 * cls and pool.n_free_blocks() == 1


@needs_fast
def test_ways_out_of_the_c_path():
    pool = kcc.get_default_memory_pool()
    a, b = fresh(500, np.float32), fresh(500, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    for _ in range(3):
        x * 2
        x + y
    assert in_c("mul") and in_c("add")
    # Scalars the launch cannot take as they are: NumPy's conversion (the Python path).
    for s in (float("nan"), 1e300, -1e300, 2 ** 70, 2 ** 24 + 1, True):
        with np.errstate(all="ignore"):
            want = a * s
            got = (x * s).get()
        assert got.dtype == want.dtype == np.float32
        np.testing.assert_array_equal(got, want)
    # The pool's lock held (by this thread): the result from Python's _malloc, counts right.
    used = pool.used_bytes()
    with pool._lock:
        z = x + y
        np.testing.assert_array_equal(z.get(), a + b)
        assert pool.used_bytes() == used + _core._size_class(2000)
        del z
    assert pool.used_bytes() == used
    # A freed operand: the Python path's error.
    y.free()
    with pytest.raises(ValueError, match="freed"):
        x + y
    # Pools off: each result its own allocation, nothing kept.
    y = kcc.asarray(b)
    kcc.set_memory_pool(False)
    z = x + y
    assert z._block is None
    np.testing.assert_array_equal(z.get(), a + b)
    del z
    assert pool.n_free_blocks() == 0
    kcc.set_memory_pool(True)
    np.testing.assert_array_equal((x + y).get(), a + b)


@needs_fast
def test_stream_use_holds_block_back():
    k = kcc.compile("kernel void scale(float *x, float k, long n) {\n"
                    "  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) x[i] = x[i] * k;\n}\n").scale
    pool = kcc.get_default_memory_pool()
    a, b = fresh(1000, np.float32), fresh(1000, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    for _ in range(3):
        x + y
    gc.collect()
    pool.free_all_blocks()
    s = kcc.Stream()
    z = x + y  # made in C
    blk = z._block[1]
    k[4, 256, 0, s](z, np.float32(2), 1000)
    del z  # used on a stream: Python's _give_back holds it back
    assert (x + y)._block[1] != blk
    s.synchronize()
    gc.collect()
    w = x + y
    assert w._block[1] == blk
    np.testing.assert_array_equal(w.get(), a + b)


@needs_fast
def test_threads():
    pool = kcc.get_default_memory_pool()
    a, b = fresh(300, np.float32), fresh(300, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    want = a + b
    for _ in range(3):
        x + y
    gc.collect()
    errors = []

    def work():
        try:
            keep = []
            for i in range(300):
                z = x + y
                if i % 7 == 0:
                    keep.append(z)  # some live on, the others go back at once
                if i % 50 == 0:
                    np.testing.assert_array_equal(z.get(), want)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors
    gc.collect()
    cls = _core._size_class(1200)
    assert pool.used_bytes() == 2 * cls  # x and y
    blocks = [r for v in pool._free.values() for r in v]
    assert pool.free_bytes() == sum(r[2] for r in blocks)
    assert len({id(r) for r in blocks}) == len(blocks)  # no block kept twice


@needs_fast
def test_pool_lock():
    lock = kcc.get_default_memory_pool()._lock
    assert lock._count == 0
    with lock:
        with lock:  # reentrant
            assert lock._count == 2
        assert lock._count == 1
    assert lock._count == 0
    with pytest.raises(RuntimeError):
        lock.release()
    assert lock.acquire() and lock.acquire(False)
    lock.release()
    lock.release()
    got = []
    with lock:
        t = threading.Thread(target=lambda: got.append(lock.acquire(False)))
        t.start()
        t.join()
    assert got == [False]


@needs_fast
def test_bad_input_raises():
    fast = kcc._native.fast
    with pytest.raises(TypeError):
        fast.new_array(1, 2)
    assert fast.new_array(None, None, (), None, None) is None
    op = fast.BinaryOp(lambda x, y: ("fallback", x, y), _core)
    assert op(1, 2) == ("fallback", 1, 2)
    with pytest.raises(TypeError):
        op(1)
    with pytest.raises(TypeError):
        op._remember((1, 2, 3))
    with pytest.raises(TypeError):
        fast.BinaryOp.__new__(fast.BinaryOp)(1, 2)  # not set up


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.int64, np.bool_])
def test_whole_reductions(dt):
    # Small (one launch) and large (partial results in a temporary, then a second launch)
    # arrays, each reduction four times: from the third on in C (ReduceOp) where the
    # extension is; a view, keyword arguments and a freed array take _reduce's path.
    rng = np.random.default_rng()
    for n in (1000, 5000):  # 5000: partial sums over 3 blocks, then a second launch
        for _ in range(4):
            a = fresh(n, dt) if dt != np.bool_ else rng.random(n) < 0.999
            x = kcc.asarray(a)
            for what in ("sum", "max", "min", "all", "any"):
                got, want = getattr(x, what)(), getattr(a, what)()
                assert got.shape == () and got.dtype == want.dtype, (what, got, want)
                if np.dtype(dt).kind == "f" and what == "sum":
                    np.testing.assert_allclose(got.get(), want, rtol=1e-4)
                else:
                    np.testing.assert_array_equal(got.get(), want)
            p = kcc.asarray(a[:20]).prod()
            np.testing.assert_allclose(p.get(), a[:20].prod(), rtol=1e-5)
        np.testing.assert_allclose(x[::2].sum().get(), a[::2].sum(), rtol=1e-4)
        np.testing.assert_allclose(x.sum(axis=0).get(), a.sum(axis=0), rtol=1e-4)
        np.testing.assert_array_equal(x.max(keepdims=True).get(), a.max(keepdims=True))
    if FAST:
        assert any(isinstance(e, tuple) for e in gc.get_referents(_array._FAST_REDUCE["sum"]))
    x.free()
    with pytest.raises(ValueError, match="freed"):
        x.sum()


def test_direct_path_for_every_shape():
    # Operand kinds met before with other shapes still get the direct path for a new shape
    # (_SAME is filled from the promoted-types path too); a broadcast, whose plan reads an
    # operand through strides, is marked False and takes the plan each time.
    for n in (300, 301, 302):
        a, b = fresh(n, np.float32), fresh(n, np.float32)
        x, y = kcc.asarray(a), kcc.asarray(b)
        for _ in range(4):
            np.testing.assert_array_equal((x - y).get(), a - b)
        assert _array._SAME.get(_array._same_key("sub", x, y))
        if FAST:
            assert in_c("sub")
    a, b = fresh((4, 5), np.float32), fresh(5, np.float32)
    x, y = kcc.asarray(a), kcc.asarray(b)
    for _ in range(4):
        np.testing.assert_array_equal((x - y).get(), a - b)
    assert _array._SAME.get(_array._same_key("sub", x, y)) is False
