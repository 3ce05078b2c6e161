"""kcc.linalg: NumPy's (and CuPy's) linalg.norm on kcc arrays, each norm one reduction kernel
(two for a matrix's 1- and inf-norms), in the array's float type (integers and bools in
float64, as NumPy's)."""
import math
from typing import Any, Optional, Tuple, Union

from . import _array, _core
from ._elementwise import ReductionKernel

_kernels: dict = {}
_ssq_of: dict = {}  # dtype -> the whole-array 2-norm of an array of it (norm's common call)

# kind: (map of x, reduce of a and b, post-map of a, identity); `p` is the power of a p-norm.
_KINDS = {
    "ssq": ("(R)x * (R)x", "a + b", "y = sqrt(a)", "0"),
    "abs": ("fabs((R)x)", "a + b", "y = a", "0"),
    "maxabs": ("fabs((R)x)", "(a != a || a > b) ? a : b", "y = a", "0"),
    "minabs": ("fabs((R)x)", "(a != a || a < b) ? a : b", "y = a", "INFINITY"),
    "count": ("(R)(x != 0)", "a + b", "y = a", "0"),
    "pow": ("pow(fabs((R)x), (R)p)", "a + b", "y = pow(a, (R)1 / (R)p)", "0"),
}


def _reduce(kind: str, x: "_core.DeviceArray", rt: Any, axis: Any, keepdims: bool,
            p: Optional[float] = None) -> "_core.DeviceArray":
    key = (kind, x.dtype.name, rt.name)
    r = _kernels.get(key)
    if r is None:
        m, red, post, ident = _KINDS[kind]
        params = "T x, float64 p" if kind == "pow" else "T x"
        # R: the result's float type (float32 keeps its functions' float versions)
        pre = "typedef %s R;\n" % _array._ctype(rt)
        if rt.name == "float32":
            m, post = (m.replace("fabs(", "fabsf(").replace("pow(", "powf("),
                       post.replace("sqrt(", "sqrtf(").replace("pow(", "powf("))
        r = _kernels[key] = ReductionKernel(params, "%s y" % rt.name, m, red, post, ident,
                                            "kcc_norm_" + kind, preamble=pre)
    args = (x, float(p)) if kind == "pow" else (x,)
    return r(*args, axis=axis, keepdims=keepdims)


def norm(x: Any, ord: Union[None, int, float, str] = None,
         axis: Union[None, int, Tuple[int, int]] = None,
         keepdims: bool = False) -> "_core.DeviceArray":
    """NumPy's linalg.norm: with axis None, the 2-norm of the flattened array (ord None), or of
    a 1-D array any vector norm (ord inf, -inf, 0, 1, 2, p), of a 2-D one ord 'fro', 1, -1,
    inf, -inf; with an int axis the vector norms along it, with a 2-tuple the matrix norms over
    those dimensions. The 2-norm of a matrix (ord 2, -2, 'nuc': singular values) is not
    supported. A 0-d array of the result (float) type, or an array of the remaining
    dimensions."""
    if ord is None and axis is None and type(x) in _array._ARRAYS and x.size:
        r = _ssq_of.get(x.dtype)  # the common call: its kernel without the checks again
        if r is not None:
            x._alive("linalg.norm")
            r = r(x)
            return _array.reshape(r, (1,) * x.ndim) if keepdims else r
    np = _core._numpy()
    if not isinstance(x, _core.DeviceArray):
        x = _array.asarray(x)
    x._alive("linalg.norm")
    if x.dtype.kind not in "biuf" or x.dtype.name not in _array._CTYPES:
        raise TypeError("linalg.norm: arrays of bool, integer and float types, not %s"
                        % x.dtype)
    rt = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    if rt == np.float16:
        raise TypeError("linalg.norm: float16 is not supported")
    nd = x.ndim
    if axis is None:
        if ord is None or (ord in ("fro", "f") and nd == 2) or (ord == 2 and nd == 1):
            r = _reduce("ssq", x, rt, None, False)
            if ord is None and x.size:
                kern = _kernels[("ssq", x.dtype.name, rt.name)]
                _ssq_of[x.dtype] = lambda a: kern(a, axis=None, keepdims=False)
            return _array.reshape(r, (1,) * nd) if keepdims else r
        if nd == 1:
            axis = 0
        elif nd == 2:
            axis = (0, 1)
        else:
            raise ValueError("linalg.norm: improper number of dimensions to norm (%d) for "
                             "ord=%r: give axis" % (nd, ord))
    if isinstance(axis, (tuple, list)):
        if len(axis) != 2:
            raise ValueError("linalg.norm: axis is an int or a 2-tuple, not %r" % (axis,))
        a0, a1 = (_array._axis_of(k, nd, "linalg.norm") for k in axis)
        if a0 == a1:
            raise ValueError("linalg.norm: duplicate axes given")
        return _matrix_norm(x, ord, a0, a1, rt, keepdims)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError("linalg.norm: axis is None, an int or a 2-tuple, not %r" % (axis,))
    axis = _array._axis_of(axis, nd, "linalg.norm")
    if ord is None or ord == 2:
        return _reduce("ssq", x, rt, axis, keepdims)
    if isinstance(ord, str):
        raise ValueError("linalg.norm: invalid norm order %r for vectors" % ord)
    if ord == math.inf:
        return _reduce("maxabs", x, rt, axis, keepdims)
    if ord == -math.inf:
        return _reduce("minabs", x, rt, axis, keepdims)
    if ord == 0:
        return _reduce("count", x, rt, axis, keepdims)
    if ord == 1:
        return _reduce("abs", x, rt, axis, keepdims)
    return _reduce("pow", x, rt, axis, keepdims, float(ord))


def _matrix_norm(x, ord, a0, a1, rt, keepdims):
    if ord is None or ord in ("fro", "f"):
        return _reduce("ssq", x, rt, (a0, a1), keepdims)
    if ord in (1, -1, math.inf, -math.inf):
        # 1: the largest column sum of |x| (over a0, then the max over a1); inf: rows'.
        first, second = (a0, a1) if ord in (1, -1) else (a1, a0)
        s = _reduce("abs", x, rt, first, True)
        r = _reduce("maxabs" if ord > 0 else "minabs", s, rt, second, True)
        if not keepdims:
            r = _array.reshape(r, tuple(n for k, n in enumerate(r.shape) if k not in (a0, a1)))
        return r
    if ord in (2, -2, "nuc"):
        raise NotImplementedError("linalg.norm: the matrix norm ord=%r needs singular values, "
                                  "which kcc does not compute" % (ord,))
    raise ValueError("linalg.norm: invalid norm order %r for matrices" % (ord,))
