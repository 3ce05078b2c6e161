"""NumPy's array operations on kcc.DeviceArray (docs/python.md, "From CuPy and PyOpenCL"):
creation functions, operators with broadcasting and NumPy 2's type promotion, element-wise math
functions, reductions, conversions. Each operation is an expression kernel (_elementwise.py)
made once per operation and compiled per combination of types, so every one runs wherever kcc
runs. NumPy's semantics are spelled out in C where C's differ: integer arithmetic wraps around
(done in unsigned types: C's signed overflow is undefined), floor division and modulo round
towards negative infinity (NumPy's npy_divmod for floats), integer division by zero gives 0.
"""
import functools
import math
import operator

from . import _core
from ._elementwise import (ElementwiseKernel, ReductionKernel, _CTYPES, _RowScan, _assign, _copy,
                           _ctype, _merge_dims, _plan_key)

# C helpers every operation kernel may use, defined for each type the kernel is made for.
# NumPy never fuses a multiply and an add into one rounding: neither do these kernels.
_EXACT = ("-ffp-contract=off",)

_PREAMBLE = r"""
static double kcc_floordiv_f64(double a, double b) {
    if (b == 0) return a / b;
    double mod = fmod(a, b), div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
    if (div != 0) {
        double f = floor(div);
        if (div - f > 0.5) f += 1.0;
        return f;
    }
    return copysign(0.0, a / b);
}
static double kcc_mod_f64(double a, double b) {
    if (b == 0) return fmod(a, b);
    double mod = fmod(a, b);
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) mod += b;
    } else {
        mod = copysign(0.0, b);
    }
    return mod;
}
static float kcc_floordiv_f32(float a, float b) {
    if (b == 0) return a / b;
    float mod = fmodf(a, b), div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0f;
    if (div != 0) {
        float f = floorf(div);
        if (div - f > 0.5f) f += 1.0f;
        return f;
    }
    return copysignf(0.0f, a / b);
}
static float kcc_mod_f32(float a, float b) {
    if (b == 0) return fmodf(a, b);
    float mod = fmodf(a, b);
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) mod += b;
    } else {
        mod = copysignf(0.0f, b);
    }
    return mod;
}
"""


def _np():
    return _core._numpy()


def _unsigned(dt):
    """The unsigned C type of an integer dtype's width (arithmetic that wraps)."""
    return {1: "unsigned char", 2: "unsigned short", 4: "unsigned int",
            8: "unsigned long"}[_np().dtype(dt).itemsize]


def _kind(dt):
    dt = _np().dtype(dt)
    return "b" if dt == _np().bool_ else dt.kind


# ---------------------------------------------------------------- binary operations

def _binary_expr(op, dt):
    """C for `z = x OP y`, x and y already of the result's computation type dt."""
    k, ct = _kind(dt), _ctype(dt)
    u = _unsigned(dt) if k in "iu" else None
    f = "f32" if dt == _np().float32 else "f64"
    wrap = "z = (%s)((%s)x %%s (%s)y)" % (ct, u, u) if k == "i" else "z = x %s y"
    if op in ("add", "sub", "mul"):
        sym = {"add": "+", "sub": "-", "mul": "*"}[op]
        if k == "b":
            return {"add": "z = x || y", "sub": "z = x != y", "mul": "z = x && y"}[op]
        return wrap % sym
    if op == "truediv":
        return "z = x / y"
    if op == "floordiv":
        if k == "i":  # MIN / -1 overflows in C: NumPy wraps it (to MIN)
            return ("if (y == 0) z = 0; else if (y == -1) z = (%s)(0 - (%s)x); else {"
                    " z = x / y; if (x %% y != 0 && ((x < 0) != (y < 0))) z -= 1; }" % (ct, u))
        if k in "ub":
            return "z = y == 0 ? 0 : x / y"
        if dt == _np().float16:
            return "z = (half)kcc_floordiv_f32((float)x, (float)y)"
        return "z = kcc_floordiv_%s(x, y)" % f
    if op == "mod":
        if k == "i":
            return ("if (y == 0 || y == -1) z = 0; else { z = x % y;"
                    " if (z != 0 && ((z < 0) != (y < 0))) z += y; }")
        if k in "ub":
            return "z = y == 0 ? 0 : x % y"
        if dt == _np().float16:
            return "z = (half)kcc_mod_f32((float)x, (float)y)"
        return "z = kcc_mod_%s(x, y)" % f
    if op == "pow":
        if k in "iu":
            # Repeated squaring in the unsigned type (wraps as NumPy's does); a negative
            # exponent gives 0 (NumPy raises for it; a kernel cannot).
            return ("%s r = 1, b = (%s)x; z = 0; if (%s) { for (%s e = (%s)y; e; e >>= 1) "
                    "{ if (e & 1) r *= b; b *= b; } z = (%s)r; }"
                    % (u, u, "y >= 0" if k == "i" else "1", u, u, ct))
        if k == "b":
            return "z = x || !y"
        if dt == _np().float16:
            return "z = (half)powf((float)x, (float)y)"
        return "z = pow%s(x, y)" % ("f" if f == "f32" else "")
    if op in ("and", "or", "xor"):
        sym = {"and": "&", "or": "|", "xor": "^"}[op]
        return "z = x %s y" % sym
    if op in ("lshift", "rshift"):
        # NumPy: a shift by the width or more gives 0 (or -1 for a negative >>), never UB.
        bits = _np().dtype(dt).itemsize * 8
        if op == "lshift":
            return "z = (y < 0 || y >= %d) ? 0 : (%s)((%s)x << y)" % (bits, ct, u)
        return "z = (y < 0 || y >= %d) ? (x < 0 ? -1 : 0) : x >> y" % bits
    if op in ("maximum", "minimum"):
        cmp = ">" if op == "maximum" else "<"
        if k == "f":
            return "z = (x != x || x %s y) ? x : (y != y ? y : (x == y ? x : y))" % cmp
        return "z = x %s y ? x : y" % cmp
    raise AssertionError(op)


# The binary operators of Python's syntax (ArrayBase's slots with kcc._fastlaunch).
_SLOT_OPS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
             "lshift", "rshift", "lt", "le", "eq", "ne", "gt", "ge")
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_BINARY = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
           "lshift", "rshift", "maximum", "minimum") + tuple(_COMPARE)
_kernels = {}


def _operand(a):
    """(array or numpy scalar, dtype for promotion) of an operand: kcc and numpy arrays are
    themselves, Python scalars stay weak (NumPy 2: they take the array's type)."""
    np = _np()
    if isinstance(a, _core.DeviceArray):
        return a, a.dtype
    if _core._is_ndarray(a):
        return a, a.dtype
    if isinstance(a, (bool, int, float)):
        return a, a
    if isinstance(a, np.generic):
        return a, a.dtype
    return None, None


_ARRAYS = (_core.DeviceArray, _core._View)
_DA = _core.DeviceArray
_PROMOTED = {}  # (op, operand kinds) -> (kernel, computation type): _binary's decisions


def _promotion_key(a):
    """What NumPy 2's promotion of an operand depends on: its dtype, or a Python scalar's
    type (weak: the value does not matter); None for anything else."""
    t = type(a)
    if t is float or t is int or t is bool:
        return t
    if t in _ARRAYS or isinstance(a, _np().generic):
        return a.dtype
    return None


# (op, each operand's dtype (a Python scalar's type), shapes, device) -> (launch
# configuration, the result's shape and dtype, the launch's trailing values, the range (lo, hi)
# of Python scalars the launch takes as they are): _binary's whole cost for whole arrays and
# Python scalars that need no conversion kernel, the commonest calls, once their kernel has a
# plan (_elementwise.py's "launch plans") that takes the operands as they are; False for a key
# whose plan cannot be taken so (broadcasting, empty arrays), which is then not looked at again.
_SAME = {}
_WEAK = frozenset((int, float, bool))


def _same_key(op, x, y):
    tx, ty = type(x), type(y)
    if tx is _DA:
        if ty is _DA:
            return (op, x.dtype, y.dtype, x.shape, y.shape, _core._current)
        if ty in _WEAK:
            return (op, x.dtype, ty, x.shape, None, _core._current)
    elif ty is _DA and tx in _WEAK:
        return (op, tx, y.dtype, None, y.shape, _core._current)
    return None


def _binary(op, x, y, out=None):
    same = _same_key(op, x, y) if out is None else None
    if same is not None:
        hit = _SAME.get(same)
        if hit:
            cfg, shape, zt, rest, lo, hi = hit
            # (A freed array, or a scalar the launch cannot take as it is, goes the full way,
            # which raises the array's error or converts the scalar as NumPy does.)
            if (x._buf is not None if type(x) is _DA else lo <= x <= hi) and \
                    (y._buf is not None if type(y) is _DA else lo <= y <= hi):
                z = _core._new_array(shape, zt, same[-1])
                cfg(x, y, z, *rest)
                if _FAST_OPS is not None:
                    _fast_remember(op, x, y, hit, same[-1])
                return z
    kx, ky = _promotion_key(x), _promotion_key(y)
    if kx is not None and ky is not None:
        hit = _PROMOTED.get((op, kx, ky))
        # The types were checked and the kernel made before (a Python int beyond an integer
        # type takes NumPy 2's rules below).
        if hit is not None and (hit[1].kind not in "iu" or _ints_fit(x, y, hit[1])):
            k, ct = hit
            a = x if type(x) in _ARRAYS and x.dtype == ct else _cast_operand(x, ct)
            b = y if type(y) in _ARRAYS and y.dtype == ct else _cast_operand(y, ct)
            if out is not None:
                return k(a, b, out)
            z = k(a, b)
            # Operand kinds met before with other shapes: this shape's direct path too.
            if same is not None and (a is x or type(x) in _WEAK) and \
                    (b is y or type(y) in _WEAK) and _SAME.get(same) is None:
                _remember_same(same, k, x, y, a, b, ct)
            return z
    np = _np()
    a, ta = _operand(x)
    b, tb = _operand(y)
    if a is None or b is None:
        return NotImplemented
    if op == "truediv":  # true division of integers and bools is float64's
        rt = np.result_type(ta, tb)
        ct = zt = rt if rt.kind in "fc" else np.dtype(np.float64)
    else:
        ct = np.result_type(ta, tb)
        zt = np.dtype(np.bool_) if op in _COMPARE else ct
    if ct.kind == "c" or ct.name not in _CTYPES:
        raise TypeError("kcc arrays: %s of %s and %s is not supported (the result would be %s)"
                        % (op, _typename(ta), _typename(tb), ct))
    if op in ("and", "or", "xor", "lshift", "rshift") and _kind(ct) == "f":
        raise TypeError("kcc arrays: %s needs integer or bool operands, not %s"
                        % (op, ct))
    if _kind(ct) == "b":
        if op == "sub":
            raise TypeError("kcc arrays: - of bool arrays is not supported (NumPy refuses it "
                            "too); use ^ or logical_xor")
        if op in ("floordiv", "mod", "pow", "lshift", "rshift"):
            ct = zt = np.dtype(np.int8)  # NumPy computes these on bools as int8
    if ct.kind in "iu" and not _ints_fit(x, y, ct):
        for v, other in ((x, b), (y, a)):
            if type(v) is int and not _fits(v, ct):
                if op in _COMPARE:  # NumPy 2 compares the values: the answer is constant
                    return _outside_compare(op, v > 0 if v is y else v < 0, other, out)
                raise OverflowError("Python integer %d out of bounds for %s" % (v, ct))
    key = ("bin", op, ct.name, zt.name)
    k = _kernels.get(key)
    if k is None:
        expr = "z = x %s y" % _COMPARE[op] if op in _COMPARE else _binary_expr(op, ct)
        k = _kernels[key] = ElementwiseKernel(
            "%s x, %s y" % (ct.name, ct.name), "%s z" % zt.name, expr, "kcc_%s" % op,
            preamble=_PREAMBLE, options=_EXACT)
    if kx is not None and ky is not None:
        if len(_PROMOTED) > 4096:
            _PROMOTED.clear()
        _PROMOTED[(op, kx, ky)] = (k, ct)
    a = _cast_operand(a, ct)
    b = _cast_operand(b, ct)
    if out is not None:
        return k(a, b, out)
    z = k(a, b)
    if same is not None and (a is x or type(x) in _WEAK) and (b is y or type(y) in _WEAK):
        _remember_same(same, k, x, y, a, b, ct)
    return z


def _remember_same(key, k, x, y, a, b, ct):
    """Keeps k's plan in _SAME under key when x and y are whole arrays (taken as they are) or
    Python scalars and the plan launches (operands, result, values the plan fixes), as most
    do."""
    if len(_SAME) > 4096:
        _SAME.clear()
    plan = k._plans.get(_plan_key((a, b)))
    if plan is None:  # (no plan: empty arrays)
        _SAME[key] = False
        return
    cfg, news, src = plan
    want = tuple((0, j) if type(v) is _DA else (1, (j, ct)) for j, v in enumerate((x, y)))
    if len(news) != 1 or src[:3] != want + ((0, 2),) or any(kind != 3 for kind, _ in src[3:]):
        _SAME[key] = False
        return
    lo, hi = _exact_scalars(ct, type(x) if type(x) in _WEAK else type(y))
    _SAME[key] = (cfg, news[0][0], news[0][1], tuple(v for _, v in src[3:]), lo, hi)


# kcc._fastlaunch's operators (BinaryOp), per operation: x OP y through the direct path in one
# C call once _binary hands them a _SAME entry; anything else they pass to _binary.
_N = _core.N
_FAST_OPS = {op: _N.fast.BinaryOp(functools.partial(_binary, op), _core)
             for op in _BINARY} if _N.fast else None


def _fast_remember(op, x, y, hit, dev):
    """Hands _SAME entry `hit`, which x OP y just took, to the operator's C path, with what it
    needs to make the result from the memory pool (its layout, the device's pool)."""
    cfg, shape, zt, rest, lo, hi = hit
    lay = _core._LAYOUT.get((shape, zt))
    if lay is None or lay[5] is None or dev._pool is None or type(cfg) is not _N.fast.Launch:
        return
    xs = x.shape if type(x) is _DA else None
    ys = y.shape if type(y) is _DA else None
    _FAST_OPS[op]._remember((type(x) if xs is None else x.dtype, xs,
                             type(y) if ys is None else y.dtype, ys, dev, cfg, rest, lo, hi,
                             dev._pool, lay, shape, zt))


def _exact_scalars(ct, t):
    """The Python scalars of type t that a launch may take as they are for a parameter of
    type ct (kcc._fastlaunch converts them exactly as _plan_scalar would), as (lo, hi); an
    empty range where the others' conversion must be _binary's."""
    if t is int and ct.kind in "iu":
        return _int_bounds(ct)
    if t is int and ct.kind == "f" and ct.itemsize >= 4:  # exact in a double, rounded once
        m = 1 << (24 if ct.itemsize == 4 else 53)
        return -m, m
    if t is float and ct.kind == "f" and ct.itemsize >= 4:  # (NaN: not in any range)
        return (-3e38, 3e38) if ct.itemsize == 4 else (-_INF, _INF)
    return 1, 0


_BOUNDS = {}  # integer dtype -> (min, max)


def _int_bounds(dt):
    b = _BOUNDS.get(dt)
    if b is None:
        info = _np().iinfo(dt)
        b = _BOUNDS[dt] = (int(info.min), int(info.max))
    return b


def _fits(v, dt):
    lo, hi = _int_bounds(dt)
    return lo <= v <= hi


def _ints_fit(x, y, dt):
    """Whether the operands that are Python ints fit integer type dt."""
    return (type(x) is not int or _fits(x, dt)) and (type(y) is not int or _fits(y, dt))


def _outside_compare(op, above, other, out):
    """x OP v for an integer array x and a Python int v beyond x's type, as NumPy 2 answers
    it: the same for every element (`above`: v is past x's largest value, when v is the right
    operand; past the smallest, when v is the left operand, which flips the comparison)."""
    value = {"eq": False, "ne": True, "lt": above, "le": above, "gt": not above,
             "ge": not above}[op]
    r = full(_np().shape(other), value, _np().bool_)
    if out is None:
        return r
    _assign(out, r)
    return out


def _typename(t):
    return type(t).__name__ if isinstance(t, (bool, int, float)) else str(t)


def _cast_operand(a, dt):
    """An operand in the computation type: arrays converted (a kernel) unless they have it,
    scalars as numpy scalars of it."""
    np = _np()
    if isinstance(a, _core.DeviceArray):
        return a if a.dtype == dt else astype(a, dt)
    if _core._is_ndarray(a):
        return np.asarray(a, dtype=dt, order="C")  # keeps 0-d arrays 0-d
    t = type(a)
    # The common scalars without np.errstate (microseconds): where the value surely fits,
    # the conversion is the same and warns of nothing.
    k = dt.kind
    if t is bool or t is int and (k == "f" and dt.itemsize >= 4 and -2 ** 60 < a < 2 ** 60 or
                                  k == "i" and -128 <= a < 128 or k == "u" and 0 <= a < 256) \
            or t is float and k == "f" and (dt.itemsize == 8 or dt.itemsize == 4 and (
                -3e38 < a < 3e38 or a != a or a == _INF or a == -_INF)):
        return dt.type(a)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(a).astype(dt)[()]


_INF = float("inf")


# ---------------------------------------------------------------- unary operations

# name: (C for float, for double) of x; ints and bools compute in float64 as NumPy's do.
_MATH = {
    "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log",
    "log2": "log2", "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos",
    "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh",
    "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh", "floor": "floor", "ceil": "ceil", "trunc": "trunc", "rint": "rint",
    "cbrt": "cbrt",
}


def _math_type(dt):
    """NumPy's float type of a math function of `dt`: the smallest that holds its values
    (bool, int8, uint8: float16; int16, uint16: float32; wider: float64)."""
    np = _np()
    if dt.kind == "f":
        return dt
    if dt.itemsize == 1:
        raise TypeError("kcc arrays: NumPy computes math functions of %s in float16, which "
                        "kcc's arrays do not support yet: convert first (a.astype(float32))"
                        % dt)
    return np.dtype(np.float32 if dt.itemsize == 2 else np.float64)


_UNARY_K = {}  # (op, operand dtype) -> (kernel, computation type): _unary_kernel's


def _unary(op, x):
    np = _np()
    a, t = _operand(x)
    if a is None:
        raise TypeError("kcc.%s takes a kcc array, a numpy array or a number, not %s"
                        % (op, type(x).__name__))
    dt = np.asarray(a).dtype if not isinstance(a, _core.DeviceArray) and \
        not _core._is_ndarray(a) else a.dtype
    k, ct = _unary_kernel(op, dt)
    return k(_cast_operand(a, ct))


def _unary_kernel(op, dt):
    """The kernel of op on operands of dtype dt and the type it computes in (dt's operands
    are converted to it first): kept per (op, dt), so that its checks and errors run once."""
    hit = _UNARY_K.get((op, dt))
    if hit is not None:
        return hit
    np = _np()
    if op in ("floor", "ceil", "trunc") and _kind(dt) in "iub":  # NumPy 2 keeps ints (not rint's)
        zt = ct = dt if _kind(dt) != "b" else np.dtype(np.float64)
        expr = "z = x"
    elif op in _MATH:
        ct = zt = _math_type(dt)
        fn = _MATH[op]
        if ct == np.float16:
            expr = "z = (half)%sf((float)x)" % fn
        else:
            expr = "z = %s%s(x)" % (fn, "f" if ct == np.float32 else "")
    elif op == "negative":
        ct = zt = dt
        k = _kind(dt)
        expr = ("z = (%s)(0 - (%s)x)" % (_ctype(dt), _unsigned(dt)) if k in "iu" else
                "z = !x" if k == "b" else "z = -x")
        if k == "b":
            raise TypeError("kcc arrays: the negative of a bool array is not supported (NumPy "
                            "refuses it too); use ~ or logical_not")
    elif op == "absolute":
        ct = zt = dt
        k = _kind(dt)
        expr = ("z = x < 0 ? (%s)(0 - (%s)x) : x" % (_ctype(dt), _unsigned(dt)) if k == "i"
                else "z = x" if k in "ub" else "z = x < 0 ? -x : (x == 0 ? 0 : x)")
    elif op == "invert":
        ct = zt = dt
        if _kind(dt) == "f":
            raise TypeError("kcc arrays: ~ needs integer or bool operands, not %s" % dt)
        expr = "z = !x" if _kind(dt) == "b" else "z = ~x"
    elif op == "sign":
        ct = zt = dt
        expr = ("z = x > 0 ? 1 : (x < 0 ? -1 : (x == 0 ? 0 : x))" if _kind(dt) == "f"
                else "z = x > 0 ? 1 : (x < 0 ? -1 : 0)")
    elif op == "square":
        ct = zt = dt
        expr = _binary_expr("mul", dt).replace("y", "x")
    elif op in ("isnan", "isinf", "isfinite"):
        ct, zt = dt, np.dtype(np.bool_)
        if _kind(dt) != "f":
            expr = "z = %s" % ("true" if op == "isfinite" else "false")
        else:
            expr = {"isnan": "z = x != x", "isinf": "z = x == INFINITY || x == -INFINITY",
                    "isfinite": "z = x == x && x != INFINITY && x != -INFINITY"}[op]
    elif op == "logical_not":
        ct, zt = dt, np.dtype(np.bool_)
        expr = "z = !x"
    else:
        raise AssertionError(op)
    if ct.kind == "c" or ct.name not in _CTYPES:
        raise TypeError("kcc arrays: %s of %s is not supported" % (op, dt))
    key = ("un", op, ct.name, zt.name)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = ElementwiseKernel("%s x" % ct.name, "%s z" % zt.name, expr,
                                              "kcc_%s" % op, options=_EXACT)
    if len(_UNARY_K) > 4096:
        _UNARY_K.clear()
    _UNARY_K[(op, dt)] = k, ct
    return k, ct


# kcc._fastlaunch's direct path of unary operations on whole arrays (-x, abs(x), kcc.sqrt(x)),
# per operation: a ReduceOp, whose entries (the array's kind, one launch's sources) serve an
# element-wise plan of one array as well as a reduction's; else _unary.
def _unary_default(op, x):
    """_unary(op, x), then its plan handed to the C path when it can take it: x whole and
    of the type the kernel computes in (no conversion kernel first)."""
    z = _unary(op, x)
    if type(x) is _DA and x.base is None and x._off == 0 and x._buf is not None and x.size \
            and _FAST_UNARY is not None:
        k, ct = _UNARY_K.get((op, x.dtype), (None, None))
        pkey = _plan_key((x,)) if ct == x.dtype else None
        plan = k._plans.get(pkey) if pkey is not None else None
        if plan is not None:
            _fast_remember_unary(op, x, plan)
    return z


def _fast_remember_unary(op, x, plan):
    cfg, news, src = plan
    dev = _core._current
    if len(news) != 1 or dev is None or dev._pool is None or type(cfg) is not _N.fast.Launch \
            or src[:2] != ((0, 0), (0, 1)) or any(kind != 3 for kind, _ in src[2:]):
        return
    zshape, zt = news[0]
    lay = _core._LAYOUT.get((zshape, zt))
    if lay is None or lay[5] is None:
        return
    # In ReduceOp's sources: 0 the array, 4 the result, 3 a value.
    _FAST_UNARY[op]._remember((x.dtype, x.shape, x._st, dev, dev._pool, lay, zshape, zt, None,
                               ((cfg, ((0, 0), (4, 0)) + tuple(src[2:])),)))


def astype(a, dtype):
    """A new device array of `a`'s values converted to `dtype` (C's conversions, which are
    NumPy's for values that fit; a float too large for an integer type is undefined in both)."""
    np = _np()
    dt = np.dtype(dtype)
    _ctype(dt)
    key = ("cast", a.dtype.name, dt.name)
    k = _kernels.get(key)
    if k is None:
        expr = "z = x != 0" if dt == np.bool_ else "z = (%s)x" % _ctype(dt)
        k = _kernels[key] = ElementwiseKernel("%s x" % a.dtype.name, "%s z" % dt.name, expr,
                                              "kcc_astype", options=_EXACT)
    return k(a)


# ---------------------------------------------------------------- reductions

def _sum_type(dt):
    """NumPy's accumulator and result type of sum/prod: bool and small ints widen to int64 (or
    uint64), floats keep their type."""
    np = _np()
    k = _kind(dt)
    if k in "bi":
        return np.dtype(np.int64)
    if k == "u":
        return np.dtype(np.uint64)
    return dt


_REDUCERS = {}  # (what, dtype, dtype=) -> the ReductionKernel _reduce chose before


def _reduce(what, a, axis=None, dtype=None, keepdims=False, out=None):
    if type(a) in _ARRAYS and a.size:
        try:
            r = _REDUCERS.get((what, a.dtype, dtype))
        except TypeError:  # an unhashable dtype=: the full path says what is wrong
            r = None
        if r is not None:
            a._alive(what)
            return r(a, out=out, axis=_axis(axis), keepdims=keepdims)
    np = _np()
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    a._alive(what)
    dt = a.dtype
    k = _kind(dt)
    if what in ("sum", "prod"):
        rt = np.dtype(dtype) if dtype is not None else _sum_type(dt)
        ident = "0" if what == "sum" else "1"
        red = _binary_expr("add" if what == "sum" else "mul", rt)
        red = red.replace("z = ", "").replace("x", "a").replace("y", "b")
        if _kind(rt) == "b":
            red = "a || b" if what == "sum" else "a && b"
        kern_key = (what, dt.name, rt.name)
        mk = lambda: ReductionKernel("%s x" % dt.name, "%s y" % rt.name, "(_kcc_rt)x",
                                     red, "y = a", ident, "kcc_" + what, options=_EXACT)
    elif what in ("max", "min"):
        if a.size == 0:
            raise ValueError("zero-size array to reduction operation %s which has no "
                             "identity" % ("maximum" if what == "max" else "minimum"))
        rt = dt
        cmp = ">" if what == "max" else "<"
        if k == "f":
            ident = ("-INFINITY" if what == "max" else "INFINITY")
            red = "(a != a || a %s b) ? a : b" % cmp
        elif k == "b":
            ident = "false" if what == "max" else "true"
            red = "a || b" if what == "max" else "a && b"
        else:
            info = np.iinfo(dt)
            lim = info.min if what == "max" else info.max
            ident = "(%s)%d%s" % (_ctype(dt), lim, "UL" if k == "u" else "L") \
                if lim != -2 ** 63 else "LONG_MIN"
            red = "a %s b ? a : b" % cmp
        kern_key = (what, dt.name)
        mk = lambda: ReductionKernel("%s x" % dt.name, "%s y" % dt.name, "x", red, "y = a",
                                     ident, "kcc_" + what, options=_EXACT)
    elif what in ("all", "any"):
        rt = np.dtype(np.bool_)
        kern_key = (what, dt.name)
        mk = lambda: ReductionKernel("%s x" % dt.name, "bool y", "x != 0",
                                     "a && b" if what == "all" else "a || b", "y = a",
                                     "true" if what == "all" else "false", "kcc_" + what)
    else:
        raise AssertionError(what)
    r = _kernels.get(("red",) + kern_key)
    if r is None:
        r = _kernels[("red",) + kern_key] = mk()
    try:
        _REDUCERS[(what, a.dtype, dtype)] = r
    except TypeError:
        pass  # an unhashable dtype= (NumPy's error, if any, comes from np.dtype above)
    return r(a, out=out, axis=_axis(axis), keepdims=keepdims)


_ARG_PREAMBLE = r"""
typedef struct { %(T)s v; long i; } _kcc_pair;
static _kcc_pair _kcc_pair_of(%(T)s v, long i) { _kcc_pair p; p.v = v; p.i = i; return p; }
/* NumPy's %(what)s: the first NaN; else the %(most)s value, the first of equal ones. */
static _kcc_pair _kcc_pick(_kcc_pair a, _kcc_pair b) {
    bool an = %(nan_a)s, bn = %(nan_b)s;
    if (an || bn) return (an && bn) ? (a.i < b.i ? a : b) : (an ? a : b);
    if (a.v %(cmp)s b.v) return a;
    if (b.v %(cmp)s a.v) return b;
    return a.i < b.i ? a : b;
}
"""


def argmax(a, axis=None, out=None, keepdims=False):
    """NumPy's argmax: the index of the first largest element (a NaN first) along `axis`
    (None: of the flattened array), as int64."""
    return _argreduce("argmax", a, axis, keepdims, out)


def argmin(a, axis=None, out=None, keepdims=False):
    """NumPy's argmin: the index of the first smallest element (a NaN first) along `axis`
    (None: of the flattened array), as int64."""
    return _argreduce("argmin", a, axis, keepdims, out)


def _argreduce(what, a, axis=None, keepdims=False, out=None):
    """NumPy's argmax/argmin: the index (int64) of the first largest/smallest element (a NaN
    first) along `axis`, or in the flattened array when axis is None."""
    np = _np()
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    a._alive(what)
    if axis is not None and not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError("%s: axis is None or an int, not %r" % (what, axis))
    if axis is not None:
        axis = _axis_of(axis, a.ndim, what)
        if a.shape[axis] == 0:
            raise ValueError("attempt to get %s of an empty sequence" % what)
    elif a.size == 0:
        raise ValueError("attempt to get %s of an empty sequence" % what)
    dt = a.dtype
    k = _kind(dt)
    T = _ctype(dt)
    if k == "f":
        ident = "-INFINITY" if what == "argmax" else "INFINITY"
    elif k == "b":
        ident = "false" if what == "argmax" else "true"
    else:
        info = np.iinfo(dt)
        lim = info.min if what == "argmax" else info.max
        ident = "(%s)%d%s" % (T, lim, "UL" if k == "u" else "L") if lim != -2 ** 63 \
            else "LONG_MIN"
    key = ("red", what, dt.name)
    r = _kernels.get(key)
    if r is None:
        pre = _ARG_PREAMBLE % {"T": T, "what": what, "cmp": ">" if what == "argmax" else "<",
                               "most": "largest" if what == "argmax" else "smallest",
                               "nan_a": "a.v != a.v" if k == "f" else "false",
                               "nan_b": "b.v != b.v" if k == "f" else "false"}
        pair = np.dtype([("v", dt), ("i", np.int64)], align=True)
        r = _kernels[key] = ReductionKernel(
            "%s x" % dt.name, "int64 y", "_kcc_pair_of(x, j)", "_kcc_pick(a, b)", "y = a.i",
            "_kcc_pair_of(%s, LONG_MAX)" % ident, "kcc_" + what, reduce_type=pair,
            preamble=pre, _reduce_ctype="_kcc_pair")
    if axis is None:
        res = r(a, axis=None, out=None)
        if keepdims:
            res = reshape(res, (1,) * a.ndim)
        if out is not None:
            _assign(out, res)
            return out
        return res
    return r(a, axis=axis, keepdims=keepdims, out=out)


def var(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """NumPy's var: the mean of the squared deviations from the mean, divided by n - ddof
    instead of n (integers and bools in float64)."""
    return _var("var", a, axis, dtype, ddof, keepdims)


def std(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """NumPy's std: the square root of var."""
    return _var("std", a, axis, dtype, ddof, keepdims)


def _var(what, a, axis, dtype, ddof, keepdims):
    np = _np()
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    a._alive(what)
    dt = np.dtype(dtype) if dtype is not None else \
        (a.dtype if a.dtype.kind == "f" else np.dtype(np.float64))
    if _kind(dt) != "f":
        raise TypeError("%s: dtype must be a float type, not %s" % (what, dt))
    m = mean(a, axis, dt, keepdims=True)
    key = ("red", "sqdev", dt.name, what)
    r = _kernels.get(key)
    if r is None:
        # sum((x - m)^2) / (n - ddof), then (std) its square root, in the result's type
        post = "y = (T)(a / (double)d)" if what == "var" else "y = (T)sqrt(a / (double)d)"
        r = _kernels[key] = ReductionKernel(
            "T x, T m, float64 d", "T y", "(x - m) * (x - m)", "a + b", post, "0",
            "kcc_" + what, options=_EXACT)
    x = a if a.dtype == dt else astype(a, dt)
    n = a.size // max(1, m.size) if a.size else 0
    return r(x, m, float(max(n - ddof, 0)), axis=_axis(axis), keepdims=keepdims)


def cumsum(a, axis=None, dtype=None, out=None):
    """NumPy's cumsum: the running sums along `axis` (None: of the flattened array), in sum's
    types (bool and small integers in int64 or uint64); a scan kernel, so float sums may
    differ from NumPy's sequential ones in the last bits."""
    return _cumulative("cumsum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """NumPy's cumprod: the running products along `axis` (None: of the flattened array), in
    prod's types; a scan kernel (float products may differ from NumPy's in the last bits)."""
    return _cumulative("cumprod", a, axis, dtype, out)


def _cumulative(what, a, axis, dtype, out):
    np = _np()
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    a._alive(what)
    rt = np.dtype(dtype) if dtype is not None else _sum_type(a.dtype)
    _ctype(rt)
    if axis is None:
        a = ravel(a)
        axis = 0
    else:
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError("%s: axis is None or an int, not %r" % (what, axis))
        axis = _axis_of(axis, a.ndim, what)
    if out is None:
        out = _core.DeviceArray(a.shape, rt)
    elif not isinstance(out, _core.DeviceArray) or tuple(out.shape) != tuple(a.shape):
        raise ValueError("%s: out must be a kcc array of shape %s" % (what, a.shape))
    key = ("scan", what, rt.name)
    k = _kernels.get(key)
    if k is None:
        red = _binary_expr("add" if what == "cumsum" else "mul", rt)
        red = red.replace("z = ", "").replace("x", "a").replace("y", "b")
        if _kind(rt) == "b":
            red = "a || b" if what == "cumsum" else "a && b"
        k = _kernels[key] = _RowScan("kcc_" + what, red, "0" if what == "cumsum" else "1",
                                     options=_EXACT)
    k(a, out, axis, rt)
    return out


# kcc._fastlaunch's direct path of whole-array reductions with the defaults (x.sum()), per
# reduction (ReduceOp): the ReductionKernel's plan launched in one C call, else _reduce.
def _reduce_default(what, a):
    """_reduce(what, a), then its plan handed to the C path when it can take it."""
    z = _reduce(what, a)
    if type(a) is _DA and a.base is None and a._off == 0 and a._buf is not None and a.size:
        r = _REDUCERS.get((what, a.dtype, None))
        pkey = _plan_key((a,))
        plan = r._plans.get((pkey, None, False)) if r is not None and pkey is not None else None
        if plan is not None:
            _fast_remember_reduce(what, a, plan)
    return z


def _fast_remember_reduce(what, a, plan):
    news, tmp, launches, nin = plan
    dev = _core._current
    if nin != 1 or len(news) != 1 or dev is None or dev._pool is None:
        return
    zshape, zt = news[0]
    lay = _core._LAYOUT.get((zshape, zt))
    if lay is None or lay[5] is None:
        return
    t = None
    if tmp is not None:
        tl = _core._LAYOUT.get(((tmp[0],), tmp[1]))
        if tl is None or tl[5] is None:
            return
        t = (tl, (tmp[0],), tmp[1])
    for cfg, src in launches:  # the array, its offset, values, the result and temporary only
        if type(cfg) is not _N.fast.Launch or \
                any(k == 1 or k in (0, 2, 4) and v != 0 for k, v in src):
            return
    _FAST_REDUCE[what]._remember((a.dtype, a.shape, a._st, dev, dev._pool, lay, zshape, zt, t,
                                  tuple((cfg, tuple(src)) for cfg, src in launches)))


_FAST_REDUCE = {w: _N.fast.ReduceOp(functools.partial(_reduce_default, w), _core)
                for w in ("sum", "prod", "max", "min", "all", "any")} if _N.fast else None
_UNARY_OPS = tuple(_MATH) + ("negative", "absolute", "invert", "sign", "square", "isnan",
                             "isinf", "isfinite", "logical_not")
_FAST_UNARY = {op: _N.fast.ReduceOp(functools.partial(_unary_default, op), _core)
               for op in _UNARY_OPS} if _N.fast else None


def _axis(axis):
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def mean(a, axis=None, dtype=None, keepdims=False):
    """NumPy's mean: the sum in float64 for integers and bools (else the array's type) divided
    by the number of elements reduced."""
    np = _np()
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    dt = np.dtype(dtype) if dtype is not None else \
        (a.dtype if a.dtype.kind == "f" else np.dtype(np.float64))
    s = _reduce("sum", a, axis, dt, keepdims)
    n = a.size // max(1, s.size) if a.size else 0
    if n == 0:
        return s * float("nan")
    return s / n if dt != np.float16 else astype(s.astype(np.float32) / n, np.float16)


# ---------------------------------------------------------------- creation

def asarray(a, dtype=None):
    """`a` as a kcc array: a kcc array of that dtype is returned as it is; numpy arrays, lists
    and scalars are copied to the current device."""
    np = _np()
    if isinstance(a, _core.DeviceArray):
        return a if dtype is None or a.dtype == np.dtype(dtype) else astype(a, dtype)
    return array(a, dtype)


def array(a, dtype=None, copy=True):
    """A new kcc array holding a copy of `a` (a kcc array, numpy array, list or scalar)."""
    np = _np()
    if isinstance(a, _core.DeviceArray):
        if dtype is not None and a.dtype != np.dtype(dtype):
            return astype(a, dtype)
        return a.copy() if copy else a
    h = np.asarray(a, dtype=dtype)
    if h.dtype.kind in "OUSV" and not h.dtype.fields:
        raise TypeError("kcc arrays hold numbers and bools, not %s (%s)" % (h.dtype, type(a)))
    return _core.to_device(np.asarray(h, order="C"))  # ascontiguousarray makes 0-d 1-d


def empty(shape, dtype=float):
    """A new uninitialised device array (default dtype float64, as NumPy's)."""
    return _core.DeviceArray(shape, _np().dtype(dtype))


def full(shape, fill_value, dtype=None):
    """A new device array with every element `fill_value` (dtype: fill_value's)."""
    np = _np()
    dt = np.dtype(dtype) if dtype is not None else np.asarray(fill_value).dtype
    d = _core.DeviceArray(shape, dt)
    return fill(d, fill_value)


def zeros(shape, dtype=float):
    """A new device array of zeros (default dtype float64)."""
    return _core.DeviceArray(shape, _np().dtype(dtype)).fill_zero()


def ones(shape, dtype=float):
    """A new device array of ones (default dtype float64)."""
    return full(shape, 1, dtype)


def empty_like(a, dtype=None):
    """empty() of `a`'s shape and dtype."""
    return empty(a.shape, dtype or a.dtype)


def zeros_like(a, dtype=None):
    """zeros() of `a`'s shape and dtype."""
    return zeros(a.shape, dtype or a.dtype)


def ones_like(a, dtype=None):
    """ones() of `a`'s shape and dtype."""
    return ones(a.shape, dtype or a.dtype)


def full_like(a, fill_value, dtype=None):
    """full() of `a`'s shape and dtype."""
    return full(a.shape, fill_value, dtype or a.dtype)


def arange(start, stop=None, step=1, dtype=None):
    """NumPy's arange: start + i * step for i < ceil((stop - start) / step)."""
    np = _np()
    if stop is None:
        start, stop = 0, start
    dt = np.dtype(dtype) if dtype is not None else np.arange(start, start + step, step).dtype
    if step == 0:
        raise ZeroDivisionError("arange: step is 0")
    n = max(0, int(math.ceil((stop - start) / step)))
    return _ramp(n, start, step, dt)


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    """NumPy's linspace: `num` evenly spaced values from start to stop (included when
    `endpoint`), computed in float64."""
    np = _np()
    if num < 0:
        raise ValueError("linspace: num must be non-negative, not %d" % num)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else 0.0
    dt = np.dtype(dtype) if dtype is not None else np.dtype(np.float64)
    key = ("linspace", dt.name)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = ElementwiseKernel(
            "float64 start, float64 stop, float64 step, int64 last", "%s z" % dt.name,
            "z = (%s)(i == last ? stop : i * step + start)" % _ctype(dt), "kcc_linspace",
            options=_EXACT)
    z = _core.DeviceArray((num,), dt)
    if num:
        k(float(start), float(stop), float(step), num - 1 if endpoint and num > 1 else -1, z)
    return z


def _ramp(n, start, step, dt):
    np = _np()
    ct = np.dtype(np.float64) if dt.kind == "f" else np.dtype(np.int64)
    key = ("ramp", dt.name, ct.name)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = ElementwiseKernel(
            "%s start, %s step" % (ct.name, ct.name), "%s z" % dt.name,
            "z = (%s)(start + i * step)" % _ctype(dt), "kcc_arange", options=_EXACT)
    z = _core.DeviceArray((n,), dt)
    if n:
        k(np.asarray(start).astype(ct)[()], np.asarray(step).astype(ct)[()], z)
    return z


def fill(a, value):
    """Sets every element of `a` to `value` (converted to a's dtype); returns a."""
    np = _np()
    a._alive("fill")
    key = ("fill", a.dtype.name)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = ElementwiseKernel("%s v" % a.dtype.name, "%s z" % a.dtype.name,
                                              "z = v", "kcc_fill", options=_EXACT)
    with np.errstate(over="ignore", invalid="ignore"):
        v = np.asarray(value).astype(a.dtype)[()]
    if a.size:
        k(v, a)
    return a


def where(cond, x, y):
    """NumPy's where: x where cond is true, else y (broadcast; NumPy's promotion of x and y)."""
    np = _np()
    c, _ = _operand(cond)
    a, ta = _operand(x)
    b, tb = _operand(y)
    rt = np.result_type(ta, tb)
    key = ("where", rt.name)
    k = _kernels.get(key)
    if k is None:
        k = _kernels[key] = ElementwiseKernel("bool c, %s x, %s y" % (rt.name, rt.name),
                                              "%s z" % rt.name, "z = c ? x : y", "kcc_where",
                                              options=_EXACT)
    return k(_cast_operand(c, np.dtype(np.bool_)), _cast_operand(a, rt), _cast_operand(b, rt))


def clip(a, a_min, a_max):
    """NumPy's clip: minimum(maximum(a, a_min), a_max)."""
    r = a
    if a_min is not None:
        r = _binary("maximum", r, a_min)
    if a_max is not None:
        r = _binary("minimum", r, a_max)
    return r


# ---------------------------------------------------------------- products

_TILE = 16
# C = A B for A (M x K) and B (K x N) of any strides (views: transposes need no copy), C
# contiguous: a block computes a 16 x 16 tile of C, stepping through K in 16-wide tiles of A
# and B staged in shared memory.
_MATMUL = r"""
kernel void kcc_matmul(const T *A, long ao, long as0, long as1, const T *B, long bo, long bs0,
                       long bs1, T *C, long M, long N, long K, long nb0, long nb1, long nb2,
                       long ab0, long ab1, long ab2, long bb0, long bb1, long bb2) {
    shared T As[%(t)d * %(t)d];
    shared T Bs[%(t)d * %(t)d];
    unsigned tx = threadIdx.x, ty = threadIdx.y;
    /* the matrices of a stack (up to 3 broadcast dimensions) and the tiles of each, a grid's
     * worth at a time (grids have at most 65535 blocks along y and z) */
    for (long z = blockIdx.z; z < nb0 * nb1 * nb2; z += gridDim.z)
    for (long ty0 = (long)blockIdx.y * %(t)d; ty0 < M; ty0 += (long)gridDim.y * %(t)d)
    for (long tx0 = (long)blockIdx.x * %(t)d; tx0 < N; tx0 += (long)gridDim.x * %(t)d) {
        long row = ty0 + ty, col = tx0 + tx;
        long z2 = z %% nb2, z1 = (z / nb2) %% nb1, z0 = z / (nb1 * nb2);
        long ab = ao + z0 * ab0 + z1 * ab1 + z2 * ab2, bb = bo + z0 * bb0 + z1 * bb1 + z2 * bb2;
        ACC acc = 0;
        for (long k0 = 0; k0 < K; k0 += %(t)d) {
            long ka = k0 + tx, kb = k0 + ty;
            As[ty * %(t)d + tx] = (row < M && ka < K) ? A[ab + row * as0 + ka * as1] : (T)0;
            Bs[ty * %(t)d + tx] = (kb < K && col < N) ? B[bb + kb * bs0 + col * bs1] : (T)0;
            __syncthreads();
            for (int k = 0; k < %(t)d; k++) {
                T a = As[ty * %(t)d + k], b = Bs[k * %(t)d + tx];
                %(mac)s;
            }
            __syncthreads();
        }
        if (row < M && col < N) C[z * M * N + row * N + col] = (T)acc;
    }
}
"""


def _matmul_stack(a, b, rt):
    """a (..., M, K) @ b (..., K, N) -> a new contiguous (..., M, N) array of rt (a and b
    already rt; the stack dimensions broadcast, NumPy's)."""
    np = _np()
    M, K = a.shape[-2:]
    N = b.shape[-1]
    try:
        batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    except ValueError:
        raise ValueError("matmul: the stacks of shapes %s and %s cannot be broadcast together"
                         % (a.shape, b.shape)) from None
    c = _core.DeviceArray(batch + (M, N), rt)
    if c.size == 0:
        return c
    if K == 0:
        return fill(c, 0)
    nbd = len(batch)
    ast = [0] * (nbd - (a.ndim - 2)) + [0 if n == 1 else k for n, k in
                                        zip(a.shape[:-2], a._st[:-2])]
    bst = [0] * (nbd - (b.ndim - 2)) + [0 if n == 1 else k for n, k in
                                        zip(b.shape[:-2], b._st[:-2])]
    dims, (ast, bst) = _merge_dims(batch, [ast, bst])
    if len(dims) > 3:
        raise ValueError("kcc.matmul: a stack of more than 3 dimensions that cannot be merged "
                         "(shapes %s and %s): make it contiguous first" % (a.shape, b.shape))
    pad = 3 - len(dims)
    dims, ast, bst = [1] * pad + dims, [0] * pad + ast, [0] * pad + bst
    key = ("matmul", rt.name)
    k = _kernels.get(key)
    if k is None:
        T = _ctype(rt)
        kind = _kind(rt)
        if kind == "b":
            acc, mac = "bool", "acc = acc || (a && b)"
        elif kind in "iu":  # wraps around, as NumPy's integer matmul
            acc, mac = _unsigned(rt), "acc += (%s)a * (%s)b" % (_unsigned(rt), _unsigned(rt))
        else:
            acc, mac = T, "acc += a * b"
        src = "typedef %s T;\ntypedef %s ACC;\n" % (T, acc) + _MATMUL % {"t": _TILE, "mac": mac}
        k = _kernels[key] = _core.compile(src, name="kcc_matmul.k").get_kernel("kcc_matmul")
    grid = (min(-(-N // _TILE), 65535), min(-(-M // _TILE), 65535), min(math.prod(dims), 65535))
    k[grid, (_TILE, _TILE)](_owner(a), a._off, a._st[-2], a._st[-1], _owner(b), b._off,
                            b._st[-2], b._st[-1], c, M, N, K, *dims, *ast, *bst)
    return c


def _vdot(a, b, rt):
    """The inner product of two 1-D arrays of rt: a 0-d array."""
    key = ("red", "vdot", rt.name)
    r = _kernels.get(key)
    if r is None:
        kind = _kind(rt)
        if kind == "b":
            m, red = "x && y", "a || b"
        elif kind in "iu":
            u = _unsigned(rt)
            m = "(%s)((%s)x * (%s)y)" % (_ctype(rt), u, u)
            red = "(%s)((%s)a + (%s)b)" % (_ctype(rt), u, u)
        else:
            m, red = "x * y", "a + b"
        r = _kernels[key] = ReductionKernel("T x, T y", "T z", m, red, "z = a", "0",
                                            "kcc_vdot")
    return r(a, b)


def matmul(a, b):
    """NumPy's matmul (a @ b): a matrix product in NumPy's result type (integers wrap around,
    bools are or of ands) with a tiled kernel; a 1-D operand is a row (left) or a column
    (right) vector, dropped from the result; two 1-D give a 0-d array; arrays of more
    dimensions are stacks of matrices, their leading dimensions broadcast."""
    np = _np()
    a = a if isinstance(a, _core.DeviceArray) else asarray(a)
    b = b if isinstance(b, _core.DeviceArray) else asarray(b)
    a._alive("matmul")
    b._alive("matmul")
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand %d does not have enough dimensions (a 0-d "
                         "array): use * to multiply by a scalar" % (0 if a.ndim == 0 else 1))
    rt = np.result_type(a.dtype, b.dtype)
    _ctype(rt)
    if rt == np.float16:
        raise TypeError("kcc.matmul: float16 is not supported")
    ka = a.shape[-1]
    kb = b.shape[-2] if b.ndim > 1 else b.shape[0]
    if ka != kb:
        raise ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0 "
                         "(size %d is different from %d): shapes %s and %s"
                         % (kb, ka, a.shape, b.shape))
    a = a if a.dtype == rt else astype(a, rt)
    b = b if b.dtype == rt else astype(b, rt)
    if a.ndim == 1 and b.ndim == 1:
        return _vdot(a, b, rt)
    a2 = _getitem(a, (None, slice(None))) if a.ndim == 1 else a
    b2 = _getitem(b, (slice(None), None)) if b.ndim == 1 else b
    c = _matmul_stack(a2, b2, rt)
    if a.ndim == 1 or b.ndim == 1:  # the vector's dimension of 1 dropped
        shape = c.shape[:-2] + ((c.shape[-1],) if a.ndim == 1 else (c.shape[-2],))
        c.shape, c._st = shape, _core._c_strides(shape)
    return c


def dot(a, b):
    """NumPy's dot for 1-D and 2-D arrays (matmul's product) and scalars (a product); dot of
    more dimensions (NumPy's sum over the last and second-to-last axes) is not supported."""
    np = _np()
    if np.ndim(a) == 0 and not isinstance(a, _core.DeviceArray) or \
            isinstance(a, _core.DeviceArray) and a.ndim == 0 or \
            np.ndim(b) == 0 and not isinstance(b, _core.DeviceArray) or \
            isinstance(b, _core.DeviceArray) and b.ndim == 0:
        return _binary("mul", a, b)
    if np.ndim(a) > 2 or np.ndim(b) > 2:
        raise ValueError("kcc.dot: arrays of 1 and 2 dimensions (use matmul for stacks of "
                         "matrices: NumPy's dot of more dimensions differs)")
    return matmul(a, b)


def vdot(a, b):
    """NumPy's vdot (real arrays): the inner product of the flattened arrays, a 0-d array."""
    a = a if isinstance(a, _core.DeviceArray) else asarray(a)
    b = b if isinstance(b, _core.DeviceArray) else asarray(b)
    if a.size != b.size:
        raise ValueError("vdot: cannot take the inner product of %d and %d elements"
                         % (a.size, b.size))
    return matmul(reshape(a, -1), reshape(b, -1))


# ---------------------------------------------------------------- views

def _index_of(k, n, dim):
    """An integer index `k` into a dimension of length n (negative from the end)."""
    try:
        i = operator.index(k)
    except TypeError:
        raise TypeError("kcc arrays take basic indices (ints, slices, ..., None): %s is not "
                        "supported (integer and boolean array indexing are not implemented)"
                        % type(k).__name__) from None
    if not -n <= i < n:
        raise IndexError("index %d is out of bounds for axis %d with size %d" % (i, dim, n))
    return i % n


def _getitem(a, key):
    """NumPy's basic indexing: a view of `a` (ints drop a dimension, slices step through one,
    None adds one of length 1, ... stands for the dimensions not named). Integers alone give a
    0-d array, as CuPy's do."""
    a._alive("indexing")
    key = key if isinstance(key, tuple) else (key,)
    for k in key:
        if isinstance(k, list) or (isinstance(k, _core.DeviceArray) or _core._is_ndarray(k)) \
                and (k.ndim != 0 or k.dtype.kind not in "iu"):
            raise TypeError("kcc arrays take basic indices (ints, slices, ..., None): array "
                            "indexing (integer or boolean arrays, lists) is not implemented")
        if isinstance(k, bool):
            raise TypeError("kcc arrays: a bool index (NumPy's boolean indexing) is not "
                            "supported")
    n_ell = sum(1 for k in key if k is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    named = sum(1 for k in key if k is not None and k is not Ellipsis)
    if named > a.ndim:
        raise IndexError("too many indices for array: array is %d-dimensional, but %d were "
                         "indexed" % (a.ndim, named))
    if not n_ell:
        key = key + (Ellipsis,)
    shape, strides, off, dim = [], [], a._off, 0
    for k in key:
        if k is None:
            shape.append(1)
            strides.append(0)
        elif k is Ellipsis:
            for _ in range(a.ndim - named):
                shape.append(a.shape[dim])
                strides.append(a._st[dim])
                dim += 1
        elif isinstance(k, slice):
            start, stop, step = k.indices(a.shape[dim])
            shape.append(len(range(start, stop, step)))
            strides.append(a._st[dim] * step)
            off += start * a._st[dim] if shape[-1] else 0
            dim += 1
        else:
            off += _index_of(k, a.shape[dim], dim) * a._st[dim]
            dim += 1
    return _core._view(a, shape, strides, off)


def _index_array(k):
    """An index that is an array (kcc, numpy, list) of one or more dimensions: (it as a kcc
    array, 'b' for a mask or 'i' for integers); (None, None) for a basic index."""
    np = _np()
    if isinstance(k, (list, tuple)) or _core._is_ndarray(k):
        h = np.asarray(k)
        if h.ndim == 0 and h.dtype.kind in "iu":
            return None, None
        if h.dtype.kind not in "biu":
            if h.size:
                raise IndexError("arrays used as indices must be of integer (or boolean) type, "
                                 "not %s" % h.dtype)
            h = h.astype(np.int64)  # [] is float64 to numpy: no index at all
        return _core.to_device(np.asarray(h, order="C")), "b" if h.dtype == np.bool_ else "i"
    if isinstance(k, _core.DeviceArray) and k.ndim:
        if k.dtype.kind not in "biu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type, "
                             "not %s" % k.dtype)
        return k, "b" if k.dtype == np.bool_ else "i"
    return None, None


def _mask_positions(a, mask, what):
    """For a boolean index of a's shape: (mask and its running count, both of a's shape;
    the number of true elements)."""
    if tuple(mask.shape) != tuple(a.shape):
        raise IndexError("%s: a boolean index must have the array's shape %s, not %s (a mask "
                         "of the leading dimensions only is not implemented)"
                         % (what, a.shape, mask.shape))
    pos = cumsum(mask)  # int64, flattened in C order
    count = int(_getitem(pos, (-1,))) if pos.size else 0
    return reshape(pos, a.shape), count


def _advanced_getitem(a, key):
    """NumPy's indexing with an index array: a boolean mask of the array's shape (the selected
    elements, 1-D, in C order) or one integer array among slices and ... (the elements taken
    along that dimension); a new array."""
    a._alive("indexing")
    tkey = key if isinstance(key, tuple) else (key,)
    found = [(j, *_index_array(k)) for j, k in enumerate(tkey)]
    arrays = [(j, d, kind) for j, d, kind in found if d is not None]
    if not arrays:
        return _getitem(a, key)
    if len(arrays) == 1 and arrays[0][2] == "b" and len(tkey) == 1:
        mask = arrays[0][1]
        pos, count = _mask_positions(a, mask, "indexing")
        out = _core.DeviceArray((count,), a.dtype)
        if count:
            k = _kernels.get(("maskget", a.dtype.name))
            if k is None:
                k = _kernels[("maskget", a.dtype.name)] = ElementwiseKernel(
                    "T x, bool m, int64 p", "raw T out", "if (m) out[p - 1] = x",
                    "kcc_mask_get")
            k(a, mask, pos, out)
        return out
    others = [k for j, k in enumerate(tkey) if j != arrays[0][0]]
    if len(arrays) > 1 or arrays[0][2] == "b" or \
            not all(isinstance(k, slice) or k is Ellipsis for k in others):
        raise TypeError("kcc arrays: indexing with arrays supports a boolean mask of the "
                        "array's shape alone, or one integer array among slices and ...; "
                        "other combinations are not implemented")
    v, p, n, idx, shape = _take_plan(a, tkey, arrays[0][0], arrays[0][1])
    out = _core.DeviceArray(shape, a.dtype)
    if out.size:
        _take_kernel(a.dtype, p, idx.ndim, v.ndim, False)(
            _owner(v), idx, v._off, n, *v._st, *idx.shape, out)
    return out


def _owner(v):
    return v.base if v.base is not None else v


def _take_plan(a, tkey, j, idx):
    """For a key with one integer array `idx` (at tkey[j]) among slices and ...: the view of
    the basic part (the array's dimension kept whole), the dimension p of that view it indexes
    and its length n, idx as contiguous int64 (checked against n), and the result's shape."""
    np = _np()
    v = _getitem(a, tuple(slice(None) if i == j else k for i, k in enumerate(tkey)))
    p = 0
    for k in tkey[:j]:
        p += (a.ndim - (len(tkey) - 1)) if k is Ellipsis else 1
    n = v.shape[p]
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if lo < -n or hi >= n:
            raise IndexError("index %d is out of bounds for axis %d with size %d"
                             % (lo if lo < -n else hi, p, n))
    idx = idx if idx.dtype == np.int64 and idx._contiguous else astype(idx, np.int64)
    return v, p, n, idx, v.shape[:p] + tuple(idx.shape) + v.shape[p + 1:]


def _take_kernel(dtype, p, ki, nd, scatter):
    """The kernel of a gather (z = src[...]) or scatter (dst[...] = val) along dimension p of
    an nd-dimensional view through a ki-dimensional index array: the loop runs over the
    result's shape, (view's dimensions before p, idx's, view's after p)."""
    key = ("scatter" if scatter else "take", dtype.name, p, ki, nd)
    k = _kernels.get(key)
    if k is None:
        g = "_ind.get()"
        code = ["long o = off;"]
        code += ["o += %s[%d] * st%d;" % (g, d, d) for d in range(p)]
        code.append("long q = 0;")
        code += ["q = q * ish%d + %s[%d];" % (t, g, p + t) for t in range(ki)]
        code.append("long jj = idx[q]; if (jj < 0) jj += nax;")
        code.append("o += jj * st%d;" % p)
        code += ["o += %s[%d] * st%d;" % (g, p + ki + u, p + 1 + u) for u in range(nd - p - 1)]
        code.append("dst[o] = val;" if scatter else "z = src[o];")
        params = ["raw int64 idx", "int64 off", "int64 nax"] + \
            ["int64 st%d" % d for d in range(nd)] + ["int64 ish%d" % t for t in range(ki)]
        if scatter:
            k = ElementwiseKernel(", ".join(["T val"] + params), "raw T dst", "\n".join(code),
                                  "kcc_put")
        else:
            k = ElementwiseKernel(", ".join(["raw T src"] + params), "T z", "\n".join(code),
                                  "kcc_take")
        _kernels[key] = k
    return k


def _take_setitem(a, key, value):
    """a[key] = value for a key of one integer array among slices and ...: value (converted
    to a's dtype) broadcast to the indexed shape, written element by element (with repeated
    indices, which write lands is not defined, as in CuPy)."""
    np = _np()
    tkey = key if isinstance(key, tuple) else (key,)
    found = [(j, *_index_array(k)) for j, k in enumerate(tkey)]
    arrays = [(j, d, kind) for j, d, kind in found if d is not None]
    others = [k for j, k in enumerate(tkey) if j != arrays[0][0]]
    if len(arrays) > 1 or arrays[0][2] == "b" or \
            not all(isinstance(k, slice) or k is Ellipsis for k in others):
        raise TypeError("kcc arrays: assignment through index arrays supports a boolean mask "
                        "of the array's shape alone, or one integer array among slices and "
                        "...; other combinations are not implemented")
    v, p, n, idx, shape = _take_plan(a, tkey, arrays[0][0], arrays[0][1])
    if not math.prod(shape):
        return
    if isinstance(value, _core.DeviceArray):
        val = value if value.dtype == a.dtype else astype(value, a.dtype)
        if val._buf == a._buf:
            val = _copy(val)  # may overlap: read whole first
    else:
        h = np.asarray(value)
        if h.dtype.kind not in "biuf":
            raise TypeError("kcc arrays hold numbers and bools: cannot assign %s" % h.dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            val = _core.to_device(np.asarray(h.astype(a.dtype), order="C"))
    _take_kernel(a.dtype, p, idx.ndim, v.ndim, True)(
        _broadcast_to(val, shape), idx, v._off, n, *v._st, *idx.shape, _owner(v))


def _has_index_array(key):
    return any(_index_array(k)[0] is not None for k in key)


def _mask_setitem(a, mask, value):
    """a[mask] = value: a scalar (or one element) into every selected element, or one value
    per selected element in C order."""
    np = _np()
    pos, count = _mask_positions(a, mask, "assignment")
    if isinstance(value, _core.DeviceArray):
        vals = value
    else:
        h = np.asarray(value)
        if h.dtype.kind not in "biuf":
            raise TypeError("kcc arrays hold numbers and bools: cannot assign %s" % h.dtype)
        vals = h
    if vals.size == 1:
        one = vals.get() if isinstance(vals, _core.DeviceArray) else vals
        with np.errstate(over="ignore", invalid="ignore"):
            v = np.asarray(one).reshape(()).astype(a.dtype)[()]
        k = _kernels.get(("maskset1", a.dtype.name))
        if k is None:
            k = _kernels[("maskset1", a.dtype.name)] = ElementwiseKernel(
                "bool m, T v", "T z", "if (m) z = v", "kcc_mask_set")
        k(mask, v, a)
        return
    if vals.ndim != 1 or vals.size != count:
        raise ValueError("NumPy boolean array indexing assignment cannot assign %d input "
                         "values to the %d output values where the mask is true"
                         % (vals.size, count))
    vals = asarray(vals, a.dtype)
    vals = vals if vals._whole else _copy(vals)
    k = _kernels.get(("masksetn", a.dtype.name))
    if k is None:
        k = _kernels[("masksetn", a.dtype.name)] = ElementwiseKernel(
            "bool m, int64 p, raw T vals", "T z", "if (m) z = vals[p - 1]", "kcc_mask_setn")
    k(mask, pos, vals, a)


def _broadcast_to(a, shape):
    """A read-only-in-spirit view of `a` in `shape` (NumPy broadcasting: stride 0 along the
    dimensions it repeats)."""
    shape = tuple(shape)
    if tuple(a.shape) == shape:
        return a
    nd = len(shape) - a.ndim
    ok = nd >= 0 and all(n == m or n == 1 for n, m in zip(a.shape, shape[nd:]))
    if not ok:
        raise ValueError("could not broadcast an array of shape %s into shape %s"
                         % (a.shape, shape))
    st = [0] * nd + [0 if n == 1 and m != 1 else k
                     for n, m, k in zip(a.shape, shape[nd:], a._st)]
    return _core._view(a, shape, st, a._off)


def _setitem(a, key, value):
    """a[key] = value: a scalar filled in, an array (kcc, numpy, list) converted to a's dtype
    and broadcast to the indexed shape."""
    np = _np()
    v = _getitem(a, key)
    if isinstance(value, (bool, int, float)) or isinstance(value, np.generic):
        if v.size:
            fill(v, value)
        return
    if not isinstance(value, _core.DeviceArray):
        h = np.asarray(value)
        if h.dtype.kind not in "biuf":
            raise TypeError("kcc arrays hold numbers and bools: cannot assign %s" % h.dtype)
        if h.ndim == 0:
            fill(v, h[()])
            return
        value = _core.to_device(np.asarray(h, dtype=a.dtype, order="C"))
    value._alive("assignment")
    if value.dtype != a.dtype:
        value = astype(value, a.dtype)
    elif value._buf == a._buf:
        if value._off == v._off and value._st == v._st and value.shape == v.shape:
            return  # itself (a[k] += 1 stores the view it changed)
        value = _copy(value)  # may overlap: NumPy reads all of it before writing
    _assign(v, _broadcast_to(value, v.shape))


def reshape(a, shape, order="C"):
    """NumPy's reshape (C order): a view when strides can view `a`'s elements in the new
    shape (always when `a` is contiguous), else a copy; one dimension may be -1 (inferred)."""
    if order != "C":
        raise ValueError("kcc arrays: reshape supports order='C' only")
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    if isinstance(shape, int) or hasattr(shape, "__index__"):
        shape = (shape,)
    try:
        shape = tuple(operator.index(n) for n in shape)
    except TypeError:
        raise TypeError("reshape: the shape is ints (or a tuple of ints), not %r"
                        % (shape,)) from None
    if sum(1 for n in shape if n == -1) > 1:
        raise ValueError("reshape: can only specify one unknown dimension")
    if any(n < -1 for n in shape):
        raise ValueError("reshape: negative dimensions are not allowed")
    known = math.prod(n for n in shape if n != -1)
    if -1 in shape:
        if known == 0 or a.size % known:
            raise ValueError("cannot reshape array of size %d into shape %s"
                             % (a.size, shape))
        shape = tuple(a.size // known if n == -1 else n for n in shape)
    if math.prod(shape) != a.size:
        raise ValueError("cannot reshape array of size %d into shape %s" % (a.size, shape))
    a._alive("reshape")
    if a._contiguous:
        return _core._view(a, shape, _core._c_strides(shape), a._off)
    st = _reshape_strides(a.shape, a._st, shape)
    if st is not None:
        return _core._view(a, shape, st, a._off)
    c = _copy(a)
    c.shape, c._st = shape, _core._c_strides(shape)
    return c


def _reshape_strides(shape, strides, new):
    """The strides that view elements of (shape, strides) in C order as `new`, or None when
    no strides do (then reshape copies, as NumPy's): the old and new dimensions are matched in
    groups of equal products, and each old group must step through memory as one dimension."""
    old = [(n, k) for n, k in zip(shape, strides) if n != 1]
    out = [0] * len(new)
    oi = ni = 0
    while oi < len(old) and ni < len(new):
        oj, nj = oi + 1, ni + 1
        po, pn = old[oi][0], new[ni]
        while po != pn:
            if pn < po:
                pn *= new[nj]
                nj += 1
            else:
                po *= old[oj][0]
                oj += 1
        if any(old[k][1] != old[k + 1][1] * old[k + 1][0] for k in range(oi, oj - 1)):
            return None
        out[nj - 1] = old[oj - 1][1]
        for k in range(nj - 1, ni, -1):
            out[k - 1] = out[k] * new[k]
        oi, ni = oj, nj
    return out  # new dimensions left over have length 1: any stride


def transpose(a, axes=None):
    """NumPy's transpose: a view with the dimensions permuted (reversed by default)."""
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    a._alive("transpose")
    if axes is None:
        axes = tuple(reversed(range(a.ndim)))
    axes = tuple(operator.index(k) for k in axes)
    if len(axes) != a.ndim:
        raise ValueError("transpose: axes don't match array (%d axes for %d dimensions)"
                         % (len(axes), a.ndim))
    axes = tuple(_axis_of(k, a.ndim, "transpose") for k in axes)
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError("transpose: repeated axis in %s" % (axes,))
    return _core._view(a, [a.shape[k] for k in axes], [a._st[k] for k in axes], a._off)


def _axis_of(k, ndim, what):
    if isinstance(k, bool) or not isinstance(k, int):
        k = operator.index(k)
    if not -ndim <= k < ndim:
        raise ValueError("%s: axis %d is out of bounds for array of dimension %d"
                         % (what, k, ndim))
    return k % ndim


def swapaxes(a, axis1, axis2):
    """NumPy's swapaxes: a view with two dimensions exchanged."""
    if not isinstance(a, _core.DeviceArray):
        a = asarray(a)
    axes = list(range(a.ndim))
    i, j = _axis_of(axis1, a.ndim, "swapaxes"), _axis_of(axis2, a.ndim, "swapaxes")
    axes[i], axes[j] = axes[j], axes[i]
    return transpose(a, axes)


def concatenate(arrays, axis=0, out=None, dtype=None):
    """NumPy's concatenate: the arrays joined along an existing dimension `axis` (None: each
    flattened first), in NumPy's result type (or `dtype`), into a new array or `out`."""
    np = _np()
    arrays = [asarray(x) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [ravel(x) for x in arrays], 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    for x in arrays:
        if x.ndim != nd:
            raise ValueError("all the input arrays must have same number of dimensions, but "
                             "one has %d and another %d" % (nd, x.ndim))
    axis = _axis_of(axis, nd, "concatenate")
    shape = list(arrays[0].shape)
    for x in arrays[1:]:
        for k in range(nd):
            if k != axis and x.shape[k] != shape[k]:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 "axis must match exactly, but along dimension %d one has "
                                 "size %d and another %d" % (k, shape[k], x.shape[k]))
    shape[axis] = sum(x.shape[axis] for x in arrays)
    rt = np.dtype(dtype) if dtype is not None else np.result_type(*[x.dtype for x in arrays])
    if out is None:
        out = _core.DeviceArray(tuple(shape), rt)
    elif tuple(out.shape) != tuple(shape):
        raise ValueError("concatenate: out has shape %s, the result's is %s"
                         % (out.shape, tuple(shape)))
    at = 0
    for x in arrays:
        n = x.shape[axis]
        part = _getitem(out, (slice(None),) * axis + (slice(at, at + n),))
        _assign(part, x if x.dtype == out.dtype else astype(x, out.dtype))
        at += n
    return out


def stack(arrays, axis=0, out=None, dtype=None):
    """NumPy's stack: arrays of one shape joined along a new dimension `axis`."""
    arrays = [asarray(x) for x in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    if any(x.shape != arrays[0].shape for x in arrays):
        raise ValueError("all input arrays must have the same shape")
    axis = _axis_of(axis, arrays[0].ndim + 1, "stack")
    return concatenate([expand_dims(x, axis) for x in arrays], axis, out, dtype)


def asnumpy(a):
    """CuPy's asnumpy: a numpy array of `a`'s values (a kcc array copied from the device; a
    numpy array or anything else through numpy.asarray)."""
    if isinstance(a, _core.DeviceArray):
        return a.get()
    return _np().asarray(a)


def squeeze(a, axis=None):
    """NumPy's squeeze: a view without the dimensions of length 1 (all, or those of `axis`, an
    int or a tuple; one of another length is a ValueError)."""
    a = asarray(a)
    if axis is None:
        axes = [k for k, n in enumerate(a.shape) if n == 1]
    else:
        axes = [_axis_of(k, a.ndim, "squeeze") for k in
                (axis if isinstance(axis, tuple) else (axis,))]
        for k in axes:
            if a.shape[k] != 1:
                raise ValueError("squeeze: cannot select an axis to squeeze out which has size "
                                 "not equal to one (axis %d has %d)" % (k, a.shape[k]))
    keep = [k for k in range(a.ndim) if k not in axes]
    return _core._view(a, [a.shape[k] for k in keep], [a._st[k] for k in keep], a._off)


def expand_dims(a, axis):
    """NumPy's expand_dims: a view with dimensions of length 1 inserted at `axis` (an int or a
    tuple, positions in the result)."""
    a = asarray(a)
    seq = axis if isinstance(axis, tuple) else (axis,)
    nd = a.ndim + len(seq)
    axes = sorted(_axis_of(k, nd, "expand_dims") for k in seq)
    if len(set(axes)) != len(axes):
        raise ValueError("expand_dims: repeated axis in %r" % (axis,))
    shape, st, it = [], [], iter(zip(a.shape, a._st))
    for k in range(nd):
        n, s = (1, 0) if k in axes else next(it)
        shape.append(n)
        st.append(s)
    return _core._view(a, shape, st, a._off)


class _Flags:
    """NumPy's and CuPy's a.flags, for the layout: c_contiguous, f_contiguous, owndata (also
    as a.flags['C_CONTIGUOUS']...)."""

    def __init__(self, a):
        self.c_contiguous = a._contiguous
        rev = tuple(reversed(a.shape))
        self.f_contiguous = _core._is_c_contiguous(rev, tuple(reversed(a._st)))
        self.owndata = a.base is None

    def __getitem__(self, name):
        return {"C_CONTIGUOUS": self.c_contiguous, "C": self.c_contiguous,
                "F_CONTIGUOUS": self.f_contiguous, "F": self.f_contiguous,
                "OWNDATA": self.owndata}[name]

    def __repr__(self):
        return "  C_CONTIGUOUS : %s\n  F_CONTIGUOUS : %s\n  OWNDATA : %s" % (
            self.c_contiguous, self.f_contiguous, self.owndata)


def ravel(a):
    """NumPy's ravel: the elements in C order, 1-D (a view when contiguous, else a copy, as
    NumPy's: reshape(-1) may view more)."""
    a = asarray(a)
    if a._contiguous:
        return reshape(a, -1)
    c = _copy(a)
    c.shape, c._st = (c.size,), (1,)
    return c


def ascontiguousarray(a, dtype=None):
    """`a` in C order: itself when it is, else a contiguous copy (dtype: converted to)."""
    a = asarray(a, dtype)
    return a if a._contiguous else _copy(a)


def broadcast_to(a, shape):
    """NumPy's broadcast_to: a view of `a` repeated along dimensions of stride 0 (write to it
    only through a copy: its elements share memory)."""
    return _broadcast_to(asarray(a), _core._shape_of(shape))


# ---------------------------------------------------------------- DeviceArray's methods

def _install(cls):
    """NumPy's operators and methods on kcc.DeviceArray. They live here, beside the kernels
    that implement them; _core's class keeps the memory and the copies."""

    def binop(op):
        fop = _FAST_OPS[op] if _FAST_OPS is not None else None
        if fop is not None:  # C: the direct path, else _binary
            def f(self, other):
                return fop(self, other)

            def r(self, other):
                return fop(other, self)
        else:
            def f(self, other):
                return _binary(op, self, other)

            def r(self, other):
                return _binary(op, other, self)

        def i(self, other):
            # A whole array whose type the operation keeps, with a whole array of its shape
            # or a scalar: the kernel writes the array in place (one launch, no temporary; an
            # element is read before it is written, so x += x is NumPy's too). The first
            # call of these operand kinds, and everything else, takes the way below.
            if type(self) is _DA and self._buf is not None:
                ko = type(other)
                kx = None if ko is not _DA and ko not in _WEAK and \
                    not isinstance(other, _np().generic) else _promotion_key(other)
                hit = _PROMOTED.get((op, self.dtype, kx)) if kx is not None and (
                    ko is not _DA or other.shape == self.shape and other._buf is not None) \
                    else None
                if hit is not None and hit[1] == self.dtype and (
                        hit[1].kind not in "iu" or _ints_fit(self, other, hit[1])):
                    k, ct = hit
                    k(self, other if ko is _DA and other.dtype == ct else
                      _cast_operand(other, ct), self)
                    return self
            res = _binary(op, self, other)
            if res is NotImplemented:
                return res
            if res.dtype != self.dtype:
                raise TypeError("kcc arrays: in-place %s would change %s into %s (NumPy's "
                                "casting rule 'same_kind' refuses it too); write a = a %s b"
                                % (op, self.dtype, res.dtype, op))
            if res.shape != self.shape:
                raise ValueError("kcc arrays: in-place %s: the result's shape %s is not the "
                                 "array's %s" % (op, res.shape, self.shape))
            _assign(self, res)
            return self
        return f, r, i

    # With kcc._fastlaunch the operators are the C base's slots, which call _FAST_OPS and
    # _FAST_UNARY (python/src/fastlaunch.c, "ArrayBase's operators": a Python method between
    # the interpreter and the C path was half of x + y's host cost); else these methods.
    in_c = _FAST_OPS is not None and issubclass(cls, _N.fast.ArrayBase)
    for op, name in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "truediv"),
                     ("floordiv", "floordiv"), ("mod", "mod"), ("pow", "pow"),
                     ("and", "and"), ("or", "or"), ("xor", "xor"), ("lshift", "lshift"),
                     ("rshift", "rshift")):
        f, r, i = binop(op)
        if not in_c:
            setattr(cls, "__%s__" % name, f)
            setattr(cls, "__r%s__" % name, r)
        setattr(cls, "__i%s__" % name, i)
    if not in_c:
        for op in _COMPARE:
            setattr(cls, "__%s__" % op, binop(op)[0])
    cls.__matmul__ = lambda self, other: matmul(self, other) if _operand(other)[0] is not \
        None and not isinstance(other, (bool, int, float)) else NotImplemented
    cls.__rmatmul__ = lambda self, other: matmul(other, self) if _operand(other)[0] is not \
        None and not isinstance(other, (bool, int, float)) else NotImplemented
    cls.__hash__ = None  # == is element-wise, as NumPy's
    cls.__pos__ = lambda self: self.copy()
    if in_c:
        ops = {op: _FAST_OPS[op] for op in _SLOT_OPS}
        ops.update((op, _FAST_UNARY[op]) for op in ("negative", "absolute", "invert"))
        _N.fast.register_ops(ops)
    else:
        cls.__neg__ = lambda self: _unary("negative", self)
        cls.__abs__ = lambda self: _unary("absolute", self)
        cls.__invert__ = lambda self: _unary("invert", self)
    # NumPy hands binary operations with a kcc array to the kcc array's reflected methods
    # (np.float32(2) * d), instead of reading the array through __array__.
    cls.__array_ufunc__ = None

    def scalar(conv):
        def f(self):
            if self.size != 1:
                raise TypeError("only a kcc array of one element converts to a Python scalar "
                                "(this one has shape %s)" % (self.shape,))
            return conv(self.get().reshape(()).item())
        return f

    cls.__float__ = scalar(float)
    cls.__int__ = scalar(int)

    def __index__(self):
        if _kind(self.dtype) not in "iu":
            raise TypeError("only an integer kcc array is an index, not %s" % self.dtype)
        return operator.index(scalar(int)(self))
    cls.__index__ = __index__

    def __bool__(self):
        if self.size != 1:
            raise ValueError("the truth value of a kcc array with more than one element is "
                             "ambiguous: use a.any() or a.all()")
        return bool(self.get().reshape(()).item())
    cls.__bool__ = __bool__

    def __iter__(self):
        raise TypeError("iterating over a kcc array would copy each element from the device "
                        "in turn: copy it once with a.get() and iterate over that")
    cls.__iter__ = __iter__

    def get(self):
        """The array's values in a new numpy array (a copy from the device)."""
        return self.copy_to_host()

    def copy(self):
        """A new device array with the same values (C-contiguous, whatever the layout of
        this one)."""
        self._alive("copy")
        return _copy(self)

    def astype_(self, dtype):
        """A new device array of the values converted to `dtype` (a copy when it is the
        array's own)."""
        return astype(self, dtype) if _np().dtype(dtype) != self.dtype else self.copy()

    def fill_(self, value):
        """Sets every element to `value` (converted to the array's dtype)."""
        fill(self, value)

    fr = _FAST_REDUCE or {}
    f_sum, f_prod, f_max, f_min, f_all, f_any = (fr.get(w) for w in ("sum", "prod", "max", "min",
                                                                   "all", "any"))

    def sum(self, axis=None, dtype=None, keepdims=False, out=None):
        """NumPy's sum over `axis` (None: all): bool and integers add up in int64 (uint64)."""
        if f_sum is not None and axis is None and dtype is None and keepdims is False and \
                out is None:
            return f_sum(self)  # C: the plan's launch, else _reduce
        return _reduce("sum", self, axis, dtype, keepdims, out)

    def prod(self, axis=None, dtype=None, keepdims=False, out=None):
        """NumPy's product over `axis` (None: all), in sum's types."""
        if f_prod is not None and axis is None and dtype is None and keepdims is False and \
                out is None:
            return f_prod(self)
        return _reduce("prod", self, axis, dtype, keepdims, out)

    def max(self, axis=None, keepdims=False, out=None):
        """NumPy's maximum over `axis` (NaN wins); an empty array is a ValueError."""
        if f_max is not None and axis is None and keepdims is False and out is None:
            return f_max(self)
        return _reduce("max", self, axis, None, keepdims, out)

    def min(self, axis=None, keepdims=False, out=None):
        """NumPy's minimum over `axis` (NaN wins); an empty array is a ValueError."""
        if f_min is not None and axis is None and keepdims is False and out is None:
            return f_min(self)
        return _reduce("min", self, axis, None, keepdims, out)

    def all(self, axis=None, keepdims=False, out=None):
        """Whether every element over `axis` is non-zero (a bool array)."""
        if f_all is not None and axis is None and keepdims is False and out is None:
            return f_all(self)
        return _reduce("all", self, axis, None, keepdims, out)

    def any(self, axis=None, keepdims=False, out=None):
        """Whether any element over `axis` is non-zero (a bool array)."""
        if f_any is not None and axis is None and keepdims is False and out is None:
            return f_any(self)
        return _reduce("any", self, axis, None, keepdims, out)

    def mean_(self, axis=None, dtype=None, keepdims=False):
        """NumPy's mean over `axis`: integers average in float64."""
        return mean(self, axis, dtype, keepdims)

    def argmax(self, axis=None, out=None, keepdims=False):
        """NumPy's argmax: the index of the first largest element (a NaN first) along `axis`
        (None: of the flattened array), as int64."""
        return _argreduce("argmax", self, axis, keepdims, out)

    def argmin(self, axis=None, out=None, keepdims=False):
        """NumPy's argmin: the index of the first smallest element (a NaN first) along `axis`
        (None: of the flattened array), as int64."""
        return _argreduce("argmin", self, axis, keepdims, out)

    def var_(self, axis=None, dtype=None, ddof=0, keepdims=False):
        """NumPy's var over `axis`: squared deviations from the mean over n - ddof."""
        return var(self, axis, dtype, ddof, keepdims)

    def std_(self, axis=None, dtype=None, ddof=0, keepdims=False):
        """NumPy's std over `axis`: the square root of var."""
        return std(self, axis, dtype, ddof, keepdims)

    def cumsum_(self, axis=None, dtype=None, out=None):
        """NumPy's cumsum: the running sums along `axis` (None: of the flattened array)."""
        return cumsum(self, axis, dtype, out)

    def cumprod_(self, axis=None, dtype=None, out=None):
        """NumPy's cumprod: the running products along `axis` (None: of the flattened array)."""
        return cumprod(self, axis, dtype, out)

    def dot_(self, b):
        """NumPy's dot (matmul's product for 1-D and 2-D arrays)."""
        return dot(self, b)

    for f in (argmax, argmin):
        setattr(cls, f.__name__, f)
    dot_.__name__ = "dot"
    cls.dot = dot_
    for f in (var_, std_, cumsum_, cumprod_):
        f.__name__ = f.__name__.rstrip("_")
        setattr(cls, f.__name__, f)

    def clip_(self, a_min=None, a_max=None):
        """NumPy's clip: each element limited to [a_min, a_max] (None: no limit)."""
        return clip(self, a_min, a_max)

    cls.__getitem__ = _advanced_getitem

    def __setitem__(self, key, value):
        d, kind = _index_array(key) if not isinstance(key, tuple) else (None, None)
        if kind == "b":
            self._alive("assignment")
            _mask_setitem(self, d, value)
            return
        if d is not None or isinstance(key, tuple) and _has_index_array(key):
            self._alive("assignment")
            _take_setitem(self, key, value)
            return
        _setitem(self, key, value)
    cls.__setitem__ = __setitem__

    def reshape_(self, *shape, order="C"):
        """NumPy's reshape: a view where strides allow (always when contiguous), else a copy
        (-1: inferred)."""
        return reshape(self, shape[0] if len(shape) == 1 else shape, order=order)

    def transpose_(self, *axes):
        """NumPy's transpose: a view with the dimensions permuted (reversed by default)."""
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], int)):
            axes = axes[0]
        return transpose(self, axes or None)

    def swapaxes_(self, axis1, axis2):
        """NumPy's swapaxes: a view with two dimensions exchanged."""
        return swapaxes(self, axis1, axis2)

    def ravel_(self):
        """The elements in C order, 1-D: a view when contiguous, else a copy."""
        return ravel(self)

    def flatten(self):
        """A new 1-D device array of the elements in C order (always a copy)."""
        c = _copy(self)
        c.shape, c._st = (c.size,), (1,)
        return c

    cls.T = property(lambda self: transpose(self), doc="The transpose (a view).")
    cls.flags = property(_Flags, doc="NumPy's flags: c_contiguous, f_contiguous, owndata.")

    def squeeze_(self, axis=None):
        """NumPy's squeeze: a view without dimensions of length 1 (all, or `axis`)."""
        return squeeze(self, axis)
    squeeze_.__name__ = "squeeze"
    cls.squeeze = squeeze_
    for f in (reshape_, transpose_, swapaxes_, ravel_):
        f.__name__ = f.__name__.rstrip("_")
        setattr(cls, f.__name__, f)
    cls.flatten = flatten

    for f in (get, copy, sum, prod, max, min, all, any):
        setattr(cls, f.__name__, f)
    for f in (astype_, fill_, mean_, clip_):
        f.__name__ = f.__name__.rstrip("_")
        setattr(cls, f.__name__, f)

    def __repr__(self):
        if self._buf is None or (self.base is not None and self.base._buf is None):
            return "<kcc.DeviceArray shape=%r dtype=%s on %s (freed)>" % (
                self.shape, self.dtype, self.device.name)
        np = _np()
        text = np.array2string(self.get(), separator=", ", prefix="kcc.array(")
        return "kcc.array(%s, dtype=%s)" % (text, self.dtype)
    cls.__repr__ = __repr__
    cls.__array__ = lambda self, dtype=None, copy=None: \
        self.get() if dtype is None else self.get().astype(dtype)


def _ufunc(op):
    fop = _FAST_UNARY[op] if _FAST_UNARY is not None else None
    if fop is not None:  # C: the direct path, else _unary_default
        def f(x):
            return fop(x)
    else:
        def f(x):
            return _unary(op, x)
    f.__name__ = op
    f.__doc__ = "NumPy's %s, element by element on the device." % op
    return f


def _binfunc(op):
    fop = _FAST_OPS[op] if _FAST_OPS is not None else None  # C: the direct path, else _binary

    def f(x, y):
        r = fop(x, y) if fop is not None else _binary(op, x, y)
        if r is NotImplemented:
            raise TypeError("kcc.%s takes kcc arrays, numpy arrays and numbers" % op)
        return r
    f.__name__ = op
    f.__doc__ = "NumPy's %s, element by element on the device (broadcast)." % op
    return f


# The functions kcc exports (kcc.sqrt, kcc.maximum...).
UFUNCS = {name: _ufunc(name) for name in _UNARY_OPS}
UFUNCS["abs"] = UFUNCS["absolute"]
BINFUNCS = {name: _binfunc(op) for name, op in (
    ("add", "add"), ("subtract", "sub"), ("multiply", "mul"), ("divide", "truediv"),
    ("true_divide", "truediv"), ("floor_divide", "floordiv"), ("mod", "mod"),
    ("remainder", "mod"), ("power", "pow"), ("bitwise_and", "and"), ("bitwise_or", "or"),
    ("bitwise_xor", "xor"), ("left_shift", "lshift"), ("right_shift", "rshift"),
    ("maximum", "maximum"), ("minimum", "minimum"), ("equal", "eq"), ("not_equal", "ne"),
    ("less", "lt"), ("less_equal", "le"), ("greater", "gt"), ("greater_equal", "ge"))}


def _reduction(what):
    if what in ("sum", "prod"):
        def f(a, axis=None, dtype=None, keepdims=False, out=None):
            return _reduce(what, a, axis, dtype, keepdims, out)
    else:
        def f(a, axis=None, keepdims=False, out=None):
            return _reduce(what, a, axis, None, keepdims, out)
    f.__name__ = what
    f.__doc__ = "NumPy's %s over `axis` (None: all), on the device." % what
    return f


REDUCTIONS = {w: _reduction(w) for w in ("sum", "prod", "max", "min", "all", "any")}
REDUCTIONS["amax"], REDUCTIONS["amin"] = REDUCTIONS["max"], REDUCTIONS["min"]
