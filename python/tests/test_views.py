"""Strided views of kcc arrays (kcc/_array.py): basic indexing, reshape, transpose, assignment
through views, and every operation on views, against numpy on fresh random data, every element
compared. The kernels take a view's offset and strides at run time, its dimensions merged where
they can be (so a few kernels per dtype serve every view here)."""
import numpy as np
import pytest

import kcc
from test_array import rand, same

DTYPES = [np.float32, np.int16, np.uint8, np.float64, np.bool_]
KEYS = [
    (1,), (-1,), (slice(None), 3), (slice(1, 10, 2),), (slice(None, None, -1),),
    (Ellipsis, 2), (None, 1), (slice(None), None, slice(1, 4)), (1, 2, 3), (-1, -2, -3),
    (slice(5, 1, -2), Ellipsis, slice(None, None, 3)), (Ellipsis, None),
    (slice(2, 2),), (slice(None), slice(None, None, -2), 0), (0, slice(None), -1),
]


def check_view(v, want):
    """v, a kcc view, holds want's values (through get, np.asarray and a copy)."""
    assert isinstance(v, kcc.DeviceArray)
    assert v.shape == want.shape and v.dtype == want.dtype
    np.testing.assert_array_equal(v.get(), want)
    np.testing.assert_array_equal(np.asarray(v), want)
    c = v.copy()
    assert c._contiguous and c.base is None
    same(c, want)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_basic_indexing(dtype):
    x = rand((6, 11, 7), dtype)
    d = kcc.asarray(x)
    for key in KEYS:
        v, want = d[key], x[key]
        assert v.strides == want.strides, key
        check_view(v, np.asarray(want))
    # integers alone: a 0-d array (CuPy's), which converts to a Python number
    z = d[2, 3, 4]
    assert z.shape == () and z.ndim == 0
    assert z.get()[()] == x[2, 3, 4]
    if dtype != np.bool_:
        assert float(z) == float(x[2, 3, 4])
    # a view of a view, and the view shares the memory
    vv = d[1:5][::2, 3:][:, ::-1]
    check_view(vv, x[1:5][::2, 3:][:, ::-1])
    assert vv.base is d
    d[1:5][::2, 3:][:, ::-1] = x[0, 0, 0]
    x[1:5][::2, 3:][:, ::-1] = x[0, 0, 0]
    same(d, x)


def test_index_errors():
    d = kcc.zeros((3, 4), np.float32)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        d[3]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        d[0, -5]
    with pytest.raises(IndexError, match="too many indices for array: array is 2-dimensional"):
        d[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        d[..., 0, ...]
    with pytest.raises(TypeError, match="other combinations are not implemented"):
        d[[0, 1], [1, 2]]
    with pytest.raises(TypeError, match="other combinations are not implemented"):
        d[0, np.array([0, 1])]
    with pytest.raises(IndexError, match="must be of integer \\(or boolean\\) type"):
        d[np.array([0.5])]
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        d[[0, -4]]
    with pytest.raises(IndexError, match="a boolean index must have the array's shape"):
        d[np.array([True, False, True])]
    with pytest.raises(TypeError, match="assignment through index arrays supports"):
        d[[0, 1], [1, 2]] = 1
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        d[[3]] = 1
    with pytest.raises(TypeError, match="a bool index"):
        d[True]
    with pytest.raises(TypeError, match="basic indices"):
        d["a"]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        d[::0]
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d"):
        len(d[0, 0])
    with pytest.raises(TypeError, match="iterating over a kcc array"):
        iter(d[0])
    assert len(d[1:]) == 2
    assert d[np.int64(1), kcc.asarray(np.int32(2))].shape == ()
    assert d[:, kcc.newaxis].shape == (3, 1, 4)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_operations_on_views(dtype):
    x = rand((9, 12), dtype, 1, 50)
    y = rand((12, 9), dtype, 1, 50)
    dx, dy = kcc.asarray(x), kcc.asarray(y)
    a, b = dx[1::2, ::-4], dy.T[2:9:2, 10:1:-3]  # both (4, 3), different strides
    xa, yb = x[1::2, ::-4], y.T[2:9:2, 10:1:-3]
    with np.errstate(all="ignore"):
        same(a + b, xa + yb)
        same(a * 3 - b, xa * 3 - yb)
        same(a // b, xa // yb)
        same(a > b, xa > yb)
        same(a + dx[0, :3], xa + x[0, :3])  # broadcast a view
        same(dx[:, 5:6] * dx[2], x[:, 5:6] * x[2])
        if dtype != np.uint8:
            same(kcc.sqrt(a), np.sqrt(xa))
        else:  # NumPy's type for it, float16, is not supported
            with pytest.raises(TypeError, match="in float16, which kcc's arrays do not"):
                kcc.sqrt(a)
        same(-a if dtype != np.uint8 else a.astype(np.int16), -xa if dtype != np.uint8 else
             xa.astype(np.int16))
    same(a.astype(np.float64), xa.astype(np.float64))
    same(kcc.where(a > b, a, b), np.where(xa > yb, xa, yb))
    same(kcc.maximum(a, 10), np.maximum(xa, dtype(10)))
    # reductions over strided views, every axis
    for axis in (None, 0, 1):
        same(a.max(axis=axis), np.asarray(xa.max(axis=axis)))
        same(dx.T.min(axis=axis), np.asarray(x.T.min(axis=axis)))
        s = dx[::2, 1::3].sum(axis=axis)
        want = np.asarray(x[::2, 1::3].sum(axis=axis))
        if want.dtype.kind == "f":
            assert s.dtype == want.dtype and np.allclose(s.get(), want, rtol=1e-6)
        else:
            same(s, want)
    assert np.isclose(float(a.mean()), xa.mean(), rtol=1e-6)
    # a reduction into a strided output view
    out = kcc.zeros((3, 8), dtype)
    dx[:, ::4].max(axis=0, out=out[1, ::-3][::-1])  # out[1, 2::3]... as a view
    want = np.zeros((3, 8), dtype)
    want[1, ::-3][::-1] = x[:, ::4].max(axis=0)
    same(out, want)
    # in-place operators on views write through to the parent
    x2, d2 = x.copy(), dx.copy()
    d2[::2, 1:] += 1
    x2[::2, 1:] += dtype(1)
    v = d2[:, 3]
    v *= 2
    x2[:, 3] *= dtype(2)
    same(d2, x2)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_reshape_transpose_ravel(dtype):
    x = rand((4, 6, 5), dtype)
    d = kcc.asarray(x)
    r = d.reshape(8, 15)
    assert r.base is d and r._contiguous
    same(r.copy(), x.reshape(8, 15))
    for shape in [(-1,), (2, -1, 3), (120,), (5, 4, 6), ((3, 40),)]:
        check_view(d.reshape(*shape), x.reshape(*shape))
    # a reshape of a contiguous view is a view too; of a strided one a copy
    check_view(d[1:3].reshape(-1, 2), x[1:3].reshape(-1, 2))
    t = d.transpose(2, 0, 1)
    check_view(t, x.transpose(2, 0, 1))
    rt = t.reshape(10, 12)
    assert rt.base is None  # a copy: no strides view these elements so
    sv = d[::2].reshape(2, 3, 10)  # a strided array some strides do view: a view, as NumPy's
    assert sv.base is d and sv.strides == x[::2].reshape(2, 3, 10).strides
    check_view(sv, x[::2].reshape(2, 3, 10))
    check_view(d[:, :, ::-2].reshape(-1, 3), x[:, :, ::-2].reshape(-1, 3))
    check_view(rt, x.transpose(2, 0, 1).reshape(10, 12))
    check_view(d.T, x.T)
    check_view(d.transpose(), x.transpose())
    check_view(d.transpose((1, 0, 2)), x.transpose((1, 0, 2)))
    check_view(kcc.transpose(d, (0, 2, 1)), np.transpose(x, (0, 2, 1)))
    check_view(d.swapaxes(0, 2), x.swapaxes(0, 2))
    check_view(d.swapaxes(-1, 1), x.swapaxes(-1, 1))
    check_view(d[:, ::2].ravel(), x[:, ::2].ravel())
    assert d[::2].ravel().base is None and d[:1].ravel().base is d  # NumPy's: copy, view
    check_view(d.ravel(), x.ravel())
    assert d.ravel().base is d
    f = d.flatten()
    assert f.base is None
    check_view(f, x.flatten())
    check_view(kcc.ravel(d.T), np.ravel(x.T))
    check_view(kcc.reshape(d.T, (6, -1)), np.reshape(x.T, (6, -1)))
    # writes through a reshaped view land in the parent
    r[2] = x.reshape(8, 15)[0]
    x.reshape(8, 15)[2] = x.reshape(8, 15)[0]
    same(d, x)
    with pytest.raises(ValueError, match="cannot reshape array of size 120 into shape"):
        d.reshape(7, -1)
    with pytest.raises(ValueError, match="only specify one unknown dimension"):
        d.reshape(-1, -1)
    with pytest.raises(ValueError, match="axes don't match"):
        d.transpose(0, 1)
    with pytest.raises(ValueError, match="repeated axis"):
        d.transpose(0, 1, 1)
    with pytest.raises(ValueError, match="axis 3 is out of bounds"):
        d.swapaxes(0, 3)


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_setitem(dtype):
    x = rand((7, 8), dtype)
    d = kcc.asarray(x)
    d[2] = 5
    x[2] = 5
    d[:, ::3] = True
    x[:, ::3] = True
    d[1:6:2, 1:4] = kcc.asarray(rand(3, dtype))[::-1]  # broadcast over the rows, reversed
    x[1:6:2, 1:4] = np.asarray(d[1, 1:4].get())
    src = rand((3, 1), np.float32, -9, 9)  # a numpy array of another dtype, broadcast
    d[4:, ::-2] = src
    with np.errstate(all="ignore"):
        x[4:, ::-2] = src.astype(dtype) if dtype != np.bool_ else src.astype(bool)
    d[0, 0] = x[6, 7]
    x[0, 0] = x[6, 7]
    d[..., -1] = [1] * 7
    x[..., -1] = [1] * 7
    d[3, 3] = np.float64(2)
    x[3, 3] = 2
    same(d, x)
    # overlapping source and destination: read as a whole before written, as NumPy does
    d[1:, :] = d[:-1, :]
    x[1:, :] = x[:-1, :].copy()
    d[:, ::-1] = d
    x[:, ::-1] = x.copy()
    same(d, x)
    d[...] = d.T.T
    same(d, x)
    kcc.asarray(x).T[::2] = 0  # through a temporary view
    with pytest.raises(ValueError, match="could not broadcast an array of shape"):
        d[0] = kcc.zeros(3, dtype)
    with pytest.raises(TypeError, match="cannot assign <U1"):
        d[0] = ["a"] * 8
    # fill, fill_zero and copy_to_device on views
    e = kcc.asarray(x)
    e[::3, 1::2].fill(1)
    x[::3, 1::2] = 1
    e[1, ::2].fill_zero()
    x[1, ::2] = 0
    e[2:4, 3:].copy_to_device(np.ones((2, 5), dtype))
    x[2:4, 3:] = 1
    e[5].copy_to_device(np.zeros(8, dtype))
    x[5] = 0
    same(e, x)


def test_views_passed_to_kernels():
    src = r"""
    kernel void twice(const float *x, float *y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = 2 * x[i];
    }"""
    k = kcc.compile(src).get_kernel("twice")
    x = rand((4, 8), np.float32)
    d = kcc.asarray(x)
    out = kcc.zeros(32, np.float32)
    # a view in C order from its buffer's start is the buffer: passed as it is
    k[1, 32](d.reshape(-1), out.reshape(4, 8), 32)
    same(out, 2 * x.reshape(-1))
    k[1, 32](d[:2], out[:16], 16)
    # any other view is refused (a copy would not take the kernel's writes)
    with pytest.raises(ValueError, match="is a view with strides .* Pass a contiguous copy"):
        k[1, 32](d[:, ::2], out, 16)
    with pytest.raises(ValueError, match="is a view at an offset"):
        k[1, 32](d[1:], out, 24)
    with pytest.raises(ValueError, match="is a view at an offset"):
        k[1, 32](d, out[8:], 24)
    k[1, 32](d[:, ::2].copy(), out, 16)
    np.testing.assert_array_equal(out.get()[:16], 2 * x[:, ::2].reshape(-1))

    from kcc import cuda

    @kcc.jit
    def add1(a, b):
        i = cuda.grid(1)
        if i < a.shape[0]:
            b[i] = a[i] + 1

    b = kcc.zeros(4, np.float32)
    add1[1, 32](d[:, 0].copy(), b)
    same(b, x[:, 0] + 1)
    with pytest.raises(ValueError, match="is a view with strides"):
        add1[1, 32](d[:, 0], b)


def test_views_in_expression_kernels():
    x = rand((10, 6), np.float32)
    d = kcc.asarray(x)
    ek = kcc.ElementwiseKernel("T x, T y", "T z", "z = x * 2 + y", "views_axpy")
    same(ek(d[::2], d[1::2]), x[::2] * 2 + x[1::2])
    out = kcc.zeros((6, 10), np.float32)
    ek(d[:5].T, 1.5, out[:, ::2])  # into a strided output view
    want = np.zeros((6, 10), np.float32)
    want[:, ::2] = x[:5].T * np.float32(2) + np.float32(1.5)
    same(out, want)
    # raw inputs of strided views are read through a contiguous copy
    rk = kcc.ElementwiseKernel("raw T x", "T z", "z = x[_n - 1 - i]", "views_rev")
    same(rk(d[:, 1], size=10), x[::-1, 1])
    with pytest.raises(ValueError, match="raw output 'z' is a strided view"):
        kcc.ElementwiseKernel("T x", "raw T z", "z[_n - 1 - i] = x", "views_revout")(
            d[:5, 0], out[0, ::2])
    red = kcc.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "views_ssq")
    got = red(d[1::3, ::-2], axis=1)
    assert np.allclose(got.get(), (x[1::3, ::-2] ** 2).sum(axis=1), rtol=1e-6)


def test_view_lifetime_and_memory():
    d = kcc.arange(10, dtype=np.int32)
    v = d[2:8:2]
    del d
    import gc
    gc.collect()
    same(v, np.arange(10, dtype=np.int32)[2:8:2])  # the view keeps its base alive
    v.free()  # frees nothing of the base's
    same(v.base, np.arange(10, dtype=np.int32))
    w = v.base[1:]
    v.base.free()
    with pytest.raises(ValueError, match="freed"):
        w.get()
    assert repr(w).endswith("(freed)>")
    assert kcc.asarray(np.zeros((2, 3)))[:, 1].strides == (24,)
    c = kcc.ascontiguousarray(kcc.arange(6).reshape(2, 3).T)
    assert c._contiguous and c.base is None
    same(c, np.arange(6).reshape(2, 3).T.copy())
    b = kcc.broadcast_to(kcc.arange(3), (2, 3))
    assert b.strides == (0, 8)
    same(b.copy(), np.broadcast_to(np.arange(3), (2, 3)).copy())
    assert "kcc.array([[0, 1, 2]," in repr(b)


def test_elementwise_ind():
    # CuPy's _ind: the element's index along each dimension of the broadcast shape, the size
    x = rand((5, 7), np.float32)
    k = kcc.ElementwiseKernel("T x", "T z", "z = x + _ind.get()[0] * 100 + _ind.get()[1] "
                              "+ _ind.size() * 1000 + _ind.ndim * 10000", "views_ind")
    r, c = np.indices((5, 7))

    def sums(v):  # the kernel's float additions, left to right, each rounded to float
        for term in (r * 100, c, 35 * 1000, 2 * 10000):
            v = v + np.asarray(term, np.float32)
        return v
    same(k(kcc.asarray(x)), sums(x))
    same(k(kcc.asarray(x)[:, ::-1]), sums(x[:, ::-1]))
    diag = kcc.ElementwiseKernel("T x", "T z", "z = _ind.get()[0] == _ind.get()[1] ? x : 0",
                                 "views_diag")
    same(diag(kcc.asarray(x[:5, :5])), np.diag(np.diag(x[:5, :5])))
    with pytest.raises(ValueError, match=r"_ind, CuPy's index, supports _ind.size\(\)"):
        kcc.ElementwiseKernel("T x", "T z", "z = _ind.foo", "views_badind")


@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_array_indexing(dtype):
    # a boolean mask of the array's shape: the selected elements in C order; assignment
    x = rand((9, 8, 5), dtype, -9, 9)
    d = kcc.asarray(x)
    m = rand((9, 8, 5), np.bool_)
    same(d[m], x[m])
    same(d[kcc.asarray(m)], x[m])
    same(d[:, ::-3][m[:, ::-3]], x[:, ::-3][m[:, ::-3]])  # a strided array and mask
    same(d[np.zeros_like(m)], x[np.zeros_like(m)])
    y, e = x.copy(), kcc.asarray(x)
    e[kcc.asarray(m)] = 1
    y[m] = 1
    e[~m] = e[~m][::-1]  # one value per selected element
    y[~m] = y[~m][::-1]
    e.T[m.T] = np.array([2])  # through a view, one element broadcast
    y.T[m.T] = 2
    same(e, y)
    with pytest.raises(ValueError, match="cannot assign 3 input values to the"):
        e[m] = np.ones(3, dtype)
    # one integer array (any dimensions, negative indices from the end) among slices and ...
    idx = np.array([[0, -1], [3, 2], [8, 8]])
    for key in [idx, [4], (slice(None), idx[:2, :1]), (Ellipsis, [4, 0, 0, -5]),
                (slice(1, None, 2), slice(None, None, -1), np.array([1, -2])),
                (slice(None), np.array([], np.int64))]:
        same(d[key], x[key])
    same(d[:, ::2][kcc.asarray(np.array([3, 0]))], x[:, ::2][np.array([3, 0])])
    # assignment through one integer array (distinct indices: repeated ones land in any order)
    y, e = x.copy(), kcc.asarray(x)
    e[[7, 0, -2]] = 1
    y[[7, 0, -2]] = 1
    e[:, np.array([[5], [2]])] = kcc.asarray(x)[:, :2, None, :]
    y[:, np.array([[5], [2]])] = x[:, :2, None, :]
    vals = rand((9, 8, 3), dtype, -9, 9)
    e[..., ::-1][..., [0, 4, 2]] = kcc.asarray(vals)
    y[..., ::-1][..., [0, 4, 2]] = vals
    e[[1, 2]] = e[[2, 1]]
    y[[1, 2]] = y[[2, 1]]
    same(e, y)


def _factorizations(n, depth=0):
    out = [(n,), (1, n)]
    if depth < 3:
        for a in range(2, n):
            if n % a == 0:
                out += [(a,) + rest for rest in _factorizations(n // a, depth + 1)]
    return out


def test_reshape_views_as_numpy():
    # random slicings and transposes reshaped to random shapes: the values, and a view exactly
    # where NumPy's reshape gives one
    import random
    r = random.Random()
    rng = np.random.default_rng()
    for _ in range(150):
        shape = tuple(r.randint(1, 5) for _ in range(r.randint(1, 4)))
        x = rng.integers(-50, 50, shape).astype(np.int16)
        key = tuple(slice(None, None, r.choice([1, 1, 2, -1])) if r.random() < 0.7 else
                    slice(0, r.randint(1, n)) for n in shape)
        axes = list(range(len(shape)))
        if r.random() < 0.5:
            r.shuffle(axes)
        y, v = x[key].transpose(axes), kcc.asarray(x)[key].transpose(axes)
        new = r.choice([f for f in _factorizations(y.size) if len(f) <= 5])
        yr, vr = y.reshape(new), v.reshape(new)
        assert (vr.base is not None) == np.shares_memory(yr, x), (shape, key, axes, new)
        np.testing.assert_array_equal(vr.get(), yr)


def test_squeeze_expand_dims_flags():
    x = rand((3, 1, 4, 1), np.float32)
    d = kcc.asarray(x)
    for axis in (None, 1, 3, (1, 3), -1):
        v = d.squeeze(axis)
        assert v.base is d
        check_view(v, x.squeeze(axis))
    check_view(kcc.squeeze(d[:, :, ::-2]), np.squeeze(x[:, :, ::-2]))
    for axis in (0, 2, -1, (0, 3), (1, -1)):
        v = kcc.expand_dims(d[:, 0, 1:], axis)
        assert v.base is d
        check_view(v, np.expand_dims(x[:, 0, 1:], axis))
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        d.squeeze(0)
    with pytest.raises(ValueError, match="repeated axis"):
        kcc.expand_dims(d, (0, 0))
    for v, xv in ((d, x), (d[1:], x[1:]), (d[:, :, ::2], x[:, :, ::2]), (d.T, x.T),
                  (d[0, 0, :, 0], x[0, 0, :, 0])):
        f = v.flags
        assert (f.c_contiguous, f.f_contiguous) == (xv.flags.c_contiguous,
                                                    xv.flags.f_contiguous), xv.strides
        assert f["C_CONTIGUOUS"] == f.c_contiguous and f.owndata == (v is d)
