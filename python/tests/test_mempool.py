"""The device memory pool of kcc arrays (kcc.get_default_memory_pool): blocks of freed arrays
reused by new ones of the same size class, the values always what NumPy computes; blocks used
by a launch on a kcc.Stream held back until that stream's work is known done; free_all_blocks,
KCC_MEMPOOL=0 and kcc.set_memory_pool; an allocation that fails retries without the pool's
blocks, then raises kcc.OutOfMemoryError."""
import ctypes
import gc

import numpy as np
import pytest

import kcc
from kcc import _core
from conftest import run_python

SRC = """
kernel void scale(float *x, float k, long n) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * k;
}
"""


@pytest.fixture(autouse=True)
def pool_on():
    kcc.set_memory_pool(True)
    yield
    kcc.set_memory_pool(True)


def block_of(d):
    return d._block[1]


def test_size_classes():
    prev = 0
    for n in sorted(list(range(1, 5000, 7)) +
                    [2 ** k + j for k in range(10, 40) for j in (-1, 0, 1)]):
        c = _core._size_class(n)
        assert c >= n and c >= 512
        assert c - n < max(512, n / 8), (n, c)  # 512-byte steps, then 1/8
        assert c >= prev  # monotone: a larger array never gets a smaller class
        assert _core._size_class(c) == c  # a class is its own class
        prev = c


def test_freed_block_reused_values_fresh():
    rng = np.random.default_rng()
    pool = kcc.get_default_memory_pool()
    gc.collect()  # earlier tests' garbage arrays: freed now, not during the counts below
    pool.free_all_blocks()
    x = rng.random(1000).astype(np.float32)
    d = kcc.to_device(x)
    blk = block_of(d)
    assert pool.used_bytes() >= 4000
    del d
    gc.collect()
    assert pool.n_free_blocks() == 1 and pool.free_bytes() == _core._size_class(4000)
    # Another size of the same class and another dtype: the same block, its own contents.
    y = rng.integers(-100, 100, 999).astype(np.int32)
    e = kcc.to_device(y)
    assert block_of(e) == blk
    assert pool.n_free_blocks() == 0
    np.testing.assert_array_equal(e.get(), y)
    assert e.nbytes == 3996
    lib = kcc._native.kcrt()
    lib.kcrt_buffer_size.restype = ctypes.c_size_t
    lib.kcrt_buffer_size.argtypes = [ctypes.c_void_p]
    assert lib.kcrt_buffer_size(e._buf) == 3996  # the array's bytes, not the block's


def test_expressions_with_reuse_match_numpy():
    rng = np.random.default_rng()
    pool = kcc.get_default_memory_pool()
    for n in (1, 100, 4096, 10000):
        a, b = rng.random(n), rng.random(n)
        da, db = kcc.asarray(a), kcc.asarray(b)
        for _ in range(3):  # each round's temporaries reuse the last round's blocks
            got = ((da + db) * 2 - da / (db + 1)).get()
            np.testing.assert_allclose(got, (a + b) * 2 - a / (b + 1), rtol=1e-12)
        total = pool.total_bytes()
        got = ((da + db) * 2 - da / (db + 1)).get()
        assert pool.total_bytes() == total  # nothing new allocated: all from the pool


def test_free_all_blocks():
    rng = np.random.default_rng()
    pool = kcc.get_default_memory_pool()
    keep = kcc.asarray(rng.random(3000))
    for n in (10, 1000, 100000):
        d = kcc.zeros(n, np.float32)
        del d
    gc.collect()
    assert pool.free_bytes() > 0 and pool.n_free_blocks() >= 3
    used = pool.used_bytes()
    pool.free_all_blocks()
    assert pool.free_bytes() == 0 and pool.n_free_blocks() == 0
    assert pool.used_bytes() == used == pool.total_bytes()
    x = rng.random(3000)
    keep[...] = x
    np.testing.assert_array_equal(keep.get(), x)


def test_set_memory_pool_off():
    rng = np.random.default_rng()
    pool = kcc.get_default_memory_pool()
    d = kcc.zeros(100)
    kcc.set_memory_pool(False)
    assert pool.free_bytes() == 0
    e = kcc.asarray(rng.random(100))
    assert e._block is None
    del d  # a pooled array freed with the pool off: its block goes to the driver
    gc.collect()
    assert pool.n_free_blocks() == 0
    x = rng.random(50)
    np.testing.assert_array_equal((kcc.asarray(x) + 1).get(), x + 1)
    kcc.set_memory_pool(True)
    assert kcc.zeros(10)._block is not None


def test_env_off():
    st, out, err = run_python(
        "import kcc, numpy as np\n"
        "x = np.random.default_rng().random(100)\n"
        "d = kcc.asarray(x) * 3\n"
        "assert d._block is None\n"
        "assert np.allclose(d.get(), x * 3)\n"
        "del d\n"
        "p = kcc.get_default_memory_pool()\n"
        "print(p.total_bytes(), p.n_free_blocks())\n", env={"KCC_MEMPOOL": "0"})
    assert st == 0, err
    assert out.split() == ["0", "0"]


def stream_case(ext):
    """Held back while a stream may use it, free after its synchronize()."""
    return (
        "import gc, numpy as np, kcc\n"
        "assert (kcc._native.fast is not None) == %r\n"
        "k = kcc.compile(%r).scale\n"
        "pool = kcc.get_default_memory_pool()\n"
        "s = kcc.Stream()\n"
        "x = np.random.default_rng().random(1000).astype(np.float32)\n"
        "d = kcc.to_device(x)\n"
        "v = d.reshape(10, 100)  # a view: the launch marks its base\n"
        "blk = d._block[1]\n"
        "k[4, 256, 0, s](v, np.float32(2), 1000)\n"
        "assert d._queue == s._handle, d._queue\n"
        "del d, v\n"
        "gc.collect()\n"
        "e = kcc.zeros(1000, np.float32)\n"
        "assert e._block[1] != blk  # held back: the stream may still be scaling it\n"
        "assert pool.n_free_blocks() == 1\n"
        "s.synchronize()\n"
        "f = kcc.zeros(1000, np.float32)\n"
        "assert f._block[1] == blk\n"
        "assert not f.get().any()\n"
        "d2 = kcc.to_device(x)\n"
        "k[4, 256](d2, np.float32(3), 1000)  # the default queue: not held\n"
        "assert d2._queue is None\n"
        "b2 = d2._block[1]\n"
        "y = d2.get()\n"
        "assert np.array_equal(y, x * np.float32(3))\n"
        "k[4, 256](f, np.float32(3), 1000)  # the ctypes path's setter keeps its last array\n"
        "del d2\n"
        "gc.collect()\n"
        "assert kcc.zeros(1000, np.float32)._block[1] == b2\n"
        "t = kcc.Stream()\n"
        "d3 = kcc.to_device(x)\n"
        "k[4, 256, 0, s](d3, np.float32(2), 1000)\n"
        "k[4, 256, 0, t](d3, np.float32(1), 1000)\n"
        "assert d3._queue == 1  # two streams\n"
        "b3 = d3._block[1]\n"
        "k[4, 256](f, np.float32(3), 1000)\n"
        "del d3\n"
        "gc.collect()\n"
        "s.synchronize()  # not enough: t's work too\n"
        "assert kcc.zeros(1000, np.float32)._block[1] != b3\n"
        "kcc.synchronize()\n"
        "assert kcc.zeros(1000, np.float32)._block[1] == b3\n"
        "print('ok')\n" % (ext, SRC))


@pytest.mark.parametrize("ext", [True, False], ids=["fastlaunch", "ctypes"])
def test_stream_blocks_held(ext):
    if ext and kcc._native.fast is None:
        pytest.skip("kcc._fastlaunch is not built")
    st, out, err = run_python(stream_case(ext), env={} if ext else {"KCC_PYEXT": "0"})
    assert st == 0, err
    assert out.strip() == "ok"


def test_stream_destroyed_releases():
    k = kcc.compile(SRC).scale
    pool = kcc.get_default_memory_pool()
    pool.free_all_blocks()
    s = kcc.Stream()
    x = np.random.default_rng().random(300).astype(np.float32)
    d = kcc.to_device(x)
    k[2, 256, 0, s](d, np.float32(2), 300)
    s.synchronize()
    np.testing.assert_array_equal(d.get(), x * np.float32(2))
    k[2, 256, 0, s](d, np.float32(2), 300)
    blk = block_of(d)
    del d
    gc.collect()
    assert kcc.zeros(300, np.float32)._block[1] != blk
    del s, k  # kcrt_queue_destroy waits for the stream: its blocks are free
    gc.collect()
    assert kcc.zeros(300, np.float32)._block[1] == blk


def test_stream_release_without_the_device_list():
    # On a CUDA machine the current device is made without listing every device (kcc._core's
    # _adopt), so the device list may not exist: a stream's blocks must be released anyway,
    # and set_memory_pool(False) must still empty the pool.
    st, out, err = run_python(
        "import gc, numpy as np, kcc\n"
        "k = kcc.compile(%r).scale\n"
        "pool = kcc.get_default_memory_pool()\n"
        "kcc._core._devices = None  # as on a CUDA machine\n"
        "s = kcc.Stream()\n"
        "x = np.random.default_rng().random(1000).astype(np.float32)\n"
        "d = kcc.to_device(x)\n"
        "blk = d._block[1]\n"
        "k[4, 256, 0, s](d, np.float32(2), 1000)\n"
        "del d\n"
        "gc.collect()\n"
        "s.synchronize()\n"
        "assert kcc.zeros(1000, np.float32)._block[1] == blk\n"
        "gc.collect()\n"
        "assert pool.n_free_blocks() == 1\n"
        "kcc.set_memory_pool(False)\n"
        "assert pool.n_free_blocks() == 0 and pool.total_bytes() == 0\n"
        "print('ok')\n" % SRC)
    assert st == 0, err
    assert out.strip() == "ok"


def test_out_of_memory_empties_pool_then_raises():
    pool = kcc.get_default_memory_pool()
    for n in (1000, 20000):
        kcc.zeros(n)
    gc.collect()
    assert pool.free_bytes() > 0
    dev = kcc.get_device()
    with pytest.raises(kcc.OutOfMemoryError):
        kcc.device_array(dev.max_alloc_bytes // 4 + 1024, np.float32)
    assert pool.free_bytes() == 0  # the retry gave the kept blocks back first
    x = np.random.default_rng().random(10)
    np.testing.assert_array_equal(kcc.asarray(x).get(), x)
