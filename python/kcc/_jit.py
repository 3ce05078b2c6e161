"""kcc.jit: Python functions as kernels (numba.cuda's subset of Python), translated to kcc's C
dialect (docs/dialect.md) and compiled through kcc.compile, whose disk cache then keys on the
generated C. The generated C embeds everything the kernel depends on (the values of the
globals and closure variables it reads, frozen as literals; the argument types), so the cache
key covers them without a key of its own.

Typing follows numba's rules (docs/python.md, "From numba"): Python ints are int64, floats
float64; integer arithmetic is done in 64 bits (signed unless both operands are unsigned) and
wraps around; `//` and `%` floor as in Python; `/` is true division. The C written for every
operation is free of C's undefined behaviour: signed + - * are done in unsigned arithmetic
and converted back, divisions check for zero and -1, shifts mask their count, float to
integer conversions clamp (CUDA's __double2ll_rz & co.)."""
import builtins
import math
import operator
import sys
import threading

from . import _core
from ._errors import CompileError

# ---------------------------------------------------------------- device-side names
# The objects kcc.cuda exports for kernels (cuda.threadIdx, cuda.grid, cuda.atomic.add...):
# markers the translator recognises by identity. Called on the host they raise.


class Intrinsic:
    """A name that means something only inside a kernel or device function."""

    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kw):
        raise TypeError("kcc.cuda.%s can only be used inside a kernel or a device function "
                        "(@cuda.jit)" % self._name)

    def __repr__(self):
        return "<kcc.cuda.%s>" % self._name


class _Dim3(Intrinsic):
    def __init__(self, name):
        super().__init__(name)
        self.x = Intrinsic(name + ".x")
        self.y = Intrinsic(name + ".y")
        self.z = Intrinsic(name + ".z")


class _Namespace:
    def __init__(self, prefix, names):
        self._prefix = prefix
        for n in names:
            setattr(self, n, Intrinsic(prefix + "." + n))

    def __repr__(self):
        return "<kcc.cuda.%s>" % self._prefix


threadIdx = _Dim3("threadIdx")
blockIdx = _Dim3("blockIdx")
blockDim = _Dim3("blockDim")
gridDim = _Dim3("gridDim")
INTRINSIC_NAMES = (
    "grid gridsize syncthreads syncthreads_count syncthreads_and syncthreads_or syncwarp "
    "threadfence threadfence_block threadfence_system shfl_sync shfl_up_sync shfl_down_sync "
    "shfl_xor_sync all_sync any_sync ballot_sync activemask laneid warpsize fma popc clz ffs "
    "brev cbrt lanemask_lt match_any_sync").split()
INTRINSICS = {n: Intrinsic(n) for n in INTRINSIC_NAMES}
shared = _Namespace("shared", ["array"])
local = _Namespace("local", ["array"])
const = _Namespace("const", ["array_like"])
atomic = _Namespace("atomic", ["add", "sub", "max", "min", "exch", "cas", "and_", "or_", "xor",
                               "inc", "dec"])

# ---------------------------------------------------------------- types

_CTYPE = {
    "bool": "bool", "int8": "char", "int16": "short", "int32": "int", "int64": "long",
    "uint8": "unsigned char", "uint16": "unsigned short", "uint32": "unsigned int",
    "uint64": "unsigned long", "float32": "float", "float64": "double",
}
_BITS = {"bool": 1, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8,
         "uint16": 16, "uint32": 32, "uint64": 64, "float32": 32, "float64": 64}
_PRINTF = {"int32": "%d", "int64": "%ld", "uint32": "%u", "uint64": "%lu", "float32": "%f",
           "float64": "%f"}


def _is_int(t):
    return t in _BITS and t[0] in "iu"


def _is_float(t):
    return t in ("float32", "float64")


def _is_num(t):
    return t in _BITS


def _signed(t):
    return t[0] == "i"


class ArrayType:
    """An array's type as the kernel sees it: element type, dimensions, memory."""

    __slots__ = ("dtype", "ndim", "space")

    def __init__(self, dtype, ndim, space="global"):
        self.dtype, self.ndim, self.space = dtype, ndim, space

    def __eq__(self, o):
        return isinstance(o, ArrayType) and (self.dtype, self.ndim) == (o.dtype, o.ndim)

    def __hash__(self):
        return hash((self.dtype, self.ndim))

    def __repr__(self):
        return "array(%s, %dd)" % (self.dtype, self.ndim)


# fp32=True (kcc.jit's option for devices without doubles): Python floats, float(), true
# division of integers and math functions of integers are float32; a float64 comes only
# from float64 arrays and numpy float64 scalars. Set while one translation runs.
_state = threading.local()


def _F():
    """The type of Python's float: float64, or float32 under fp32=True."""
    return "float32" if getattr(_state, "fp32", False) else "float64"


def _np_promote(a, b):
    np = _core._numpy()
    t = np.promote_types(a, b).name
    if t == "float64" and getattr(_state, "fp32", False) and "float64" not in (a, b):
        return "float32"
    return t


def unify(a, b):
    """The type of a variable assigned values of types a and b (numba's unification)."""
    if a == b or b is None:
        return a
    if a is None:
        return b
    if a == "bool":
        return b if _is_num(b) else None
    if b == "bool":
        return a
    if _is_int(a) and _is_int(b):
        if _signed(a) != _signed(b):
            return "int64"
        return a if _BITS[a] >= _BITS[b] else b
    return _np_promote(a, b)


def _arith(a, b):
    """numba's result type of + - * // % between two numbers."""
    if _is_float(a) or _is_float(b):
        return _np_promote(a, b)
    if a[0] == "u" and b[0] == "u":
        return "uint64"
    return "int64"


# ---------------------------------------------------------------- values


class V:
    """A value during translation: C code and its type (a scalar type name, an ArrayType,
    'tuple', 'static', or None while inference has not typed it yet)."""

    __slots__ = ("code", "ty", "nonneg", "items", "arr", "static", "const")

    def __init__(self, code, ty, nonneg=False, const=None):
        self.code, self.ty, self.nonneg, self.const = code, ty, nonneg, const
        self.items = self.arr = self.static = None


UNKNOWN = V("0", None)


def _tuple(items):
    v = V("", "tuple")
    v.items = list(items)
    return v


def _static(obj):
    v = V("", "static")
    v.static = obj
    return v


def _contiguous_strides(shape):
    """C-order element strides (C expressions) of a shape."""
    out = []
    for k in range(len(shape)):
        rest = shape[k + 1:]
        out.append(" * ".join(rest) if rest else "1L")
    return ["(%s)" % x if "*" in x else x for x in out]


def _mul(a, b):
    if a in ("1L", "1"):
        return b
    if b in ("1L", "1"):
        return a
    return "%s * %s" % (a, b)


class ArrInfo:
    """An array in a kernel: the pointer of the memory it is in (`base`: a parameter, a
    shared or local array), its first element's offset there (C code), its shape and element
    strides (C code), and the root it came from (for the 'written' flag: a kernel parameter
    nothing writes becomes const and is not copied back)."""

    __slots__ = ("base", "off", "shape", "strides", "dtype", "space", "root", "written")

    def __init__(self, base, shape, dtype, space, root=None, off="0", strides=None):
        self.base, self.shape, self.dtype, self.space = base, list(shape), dtype, space
        self.off = off
        self.strides = list(strides) if strides is not None else _contiguous_strides(self.shape)
        self.root = root or self
        self.written = False

    @property
    def ptr(self):
        return self.base if self.off == "0" else "(%s + %s)" % (self.base, self.off)

    def index(self, codes):
        """C code of the element at these (long) indices, one per dimension."""
        terms = [_mul(c, st) for c, st in zip(codes, self.strides)]
        if self.off != "0":
            terms.insert(0, self.off)
        return "%s[%s]" % (self.base, " + ".join(terms) or "0")


def _arr(info):
    v = V(info.ptr, ArrayType(info.dtype, len(info.shape), info.space))
    v.arr = info
    return v


def _c_int(value, ty="int64"):
    if ty == "uint64":
        return "%dUL" % (value & ((1 << 64) - 1))
    if ty == "int64":
        if value == -(1 << 63):
            return "(-9223372036854775807L - 1L)"
        return "%dL" % value if value >= 0 else "(%dL)" % value
    if ty == "bool":
        return "true" if value else "false"
    return "((%s)%d)" % (_CTYPE[ty], value)


def _c_float(value, ty="float64"):
    suffix = "f" if ty == "float32" else ""
    if value != value:
        return "NAN" if suffix else "((double)NAN)"
    if value in (float("inf"), float("-inf")):
        s = "INFINITY" if suffix else "((double)INFINITY)"
        return s if value > 0 else "(-%s)" % s
    r = repr(float(value))
    if "e" not in r and "." not in r:
        r += ".0"
    return "(%s%s)" % (r, suffix) if r.startswith("-") else r + suffix


def _literal(value, ty):
    if ty == "bool":
        return V(_c_int(bool(value), "bool"), "bool", True, bool(value))
    if _is_int(ty):
        bits = _BITS[ty]
        value = int(value) & ((1 << bits) - 1)
        if _signed(ty) and value >= 1 << (bits - 1):
            value -= 1 << bits
        return V(_c_int(value, ty), ty, value >= 0, value)
    if _is_float(ty):
        if ty == "float32":
            value = float(_core._numpy().float32(value))
        return V(_c_float(value, ty), ty, value >= 0, float(value))
    raise TypeError(ty)


def _cast(v, to):
    """C code of value v converted to scalar type `to`, without undefined behaviour."""
    t = v.ty
    if t == to:
        return v.code
    if to == "bool":
        return "((%s) != 0)" % v.code
    if _is_float(t) and _is_int(to):
        # C's float -> integer conversion is undefined out of range: CUDA's clamping ones
        if to == "uint64":
            return "__%s2ull_rz(%s)" % ("double" if t == "float64" else "float", v.code)
        c = "__%s2ll_rz(%s)" % ("double" if t == "float64" else "float", v.code)
        return c if to == "int64" else "((%s)%s)" % (_CTYPE[to], c)
    return "((%s)(%s))" % (_CTYPE[to], v.code)


def _c_string(text):
    """A C string literal of text's UTF-8 bytes (octal escapes for all but printable ASCII)."""
    out = []
    for b in text.encode("utf-8"):
        c = chr(b)
        out.append(c if 32 <= b < 127 and c not in '"\\?' else "\\%03o" % b)
    return '"' + "".join(out) + '"'


def _truth(v):
    if v.ty == "bool":
        return v.code
    return "((%s) != 0)" % v.code


# ---------------------------------------------------------------- helpers in C

_HELPERS = {
    "wrap": "static inline long kj_wrap(long i, long n) { return i < 0 ? i + n : i; }",
    # Python's slice.indices(): the length of lo:hi:step over n elements, its start in *start
    "slice": """static inline long kj_slice(long n, int has_lo, long lo, int has_hi, long hi,
                              long step, int neg, long *start) {
    long a, b;
    if (!has_lo) a = neg ? n - 1 : 0;
    else { a = lo < 0 ? lo + n : lo; if (a < 0) a = neg ? -1 : 0; else if (a >= n) a = neg ? n - 1 : n; }
    if (!has_hi) b = neg ? -1 : n;
    else { b = hi < 0 ? hi + n : hi; if (b < 0) b = neg ? -1 : 0; else if (b >= n) b = neg ? n - 1 : n; }
    *start = a;
    if (step == 0) return 0;
    if (neg) return b < a ? (long)(((unsigned long)a - (unsigned long)b - 1) / (0UL - (unsigned long)step) + 1) : 0;
    return a < b ? (long)(((unsigned long)b - (unsigned long)a - 1) / (unsigned long)step + 1) : 0;
}""",
    "floordiv_i64": """static inline long kj_floordiv_i64(long a, long b) {
    if (b == 0) return 0;
    if (b == -1) return (long)(0UL - (unsigned long)a);
    long q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
    return q;
}""",
    "mod_i64": """static inline long kj_mod_i64(long a, long b) {
    if (b == 0 || b == -1) return 0;
    long r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}""",
    "floordiv_u64": "static inline unsigned long kj_floordiv_u64(unsigned long a, "
                    "unsigned long b) { return b ? a / b : 0; }",
    "mod_u64": "static inline unsigned long kj_mod_u64(unsigned long a, unsigned long b) "
               "{ return b ? a % b : 0; }",
    "pow_i64": """static inline long kj_pow_i64(long b, long e) {
    if (e < 0) return b == 1 ? 1 : (b == -1 ? ((e & 1) ? -1 : 1) : 0);
    unsigned long r = 1, x = (unsigned long)b, n = (unsigned long)e;
    while (n) { if (n & 1) r *= x; x *= x; n >>= 1; }
    return (long)r;
}""",
    "pow_u64": """static inline unsigned long kj_pow_u64(unsigned long x, unsigned long n) {
    unsigned long r = 1;
    while (n) { if (n & 1) r *= x; x *= x; n >>= 1; }
    return r;
}""",
}
for _t, _c, _s in (("f64", "double", ""), ("f32", "float", "f")):
    _HELPERS["mod_" + _t] = """static inline %(c)s kj_mod_%(t)s(%(c)s a, %(c)s b) {
    %(c)s r = fmod%(s)s(a, b);
    if (r != 0) { if ((r < 0) != (b < 0)) r += b; }
    else r = copysign%(s)s(0, b);
    return r;
}""" % {"c": _c, "t": _t, "s": _s}
    _HELPERS["floordiv_" + _t] = """static inline %(c)s kj_floordiv_%(t)s(%(c)s a, %(c)s b) {
    if (b == 0) return a / b;
    %(c)s m = fmod%(s)s(a, b);
    %(c)s d = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;
    if (d != 0) { %(c)s f = floor%(s)s(d); if (d - f > 0.5%(s)s) f += 1; return f; }
    return copysign%(s)s(0, a / b);
}""" % {"c": _c, "t": _t, "s": _s}
    # float atomic max/min: a compare-and-swap loop on the bits (the dialect's atomicMax and
    # atomicMin take integers)
    for _op, _cmp in (("max", "<"), ("min", ">")):
        _bits = "unsigned int" if _t == "f32" else "unsigned long"
        _as = "__uint_as_float" if _t == "f32" else "__longlong_as_double"
        _to = "__float_as_uint" if _t == "f32" else "__double_as_longlong"
        _HELPERS["atomic_%s_%s" % (_op, _t)] = """\
static inline %(c)s kj_atomic_%(op)s_%(t)s(%(c)s *p, %(c)s v) {
    %(b)s *q = (%(b)s *)p;
    %(b)s old = *q, assumed;
    do {
        assumed = old;
        if (!(%(as)s(assumed) %(cmp)s v)) break;
        old = atomicCAS(q, assumed, (%(b)s)%(to)s(v));
    } while (old != assumed);
    return %(as)s(old);
}""" % {"c": _c, "t": _t, "op": _op, "cmp": _cmp, "b": _bits,
        "as": _as, "to": _to}
# __longlong_as_double takes long long; cast the unsigned bits
_HELPERS["atomic_max_f64"] = _HELPERS["atomic_max_f64"].replace(
    "__longlong_as_double(", "__longlong_as_double((long long)")
_HELPERS["atomic_min_f64"] = _HELPERS["atomic_min_f64"].replace(
    "__longlong_as_double(", "__longlong_as_double((long long)")
_HELPER_ORDER = list(_HELPERS)

# ---------------------------------------------------------------- errors


class JitError(Exception):
    """A construct the translator refuses: becomes kcc.CompileError at the Python line."""

    def __init__(self, msg, file=None, line=None, col=None):
        super().__init__(msg)
        self.msg, self.file, self.line, self.col = msg, file, line, col


def _format_error(e, lines_of):
    text = "%s:%s:%s: error: %s\n" % (e.file, e.line, (e.col or 0) + 1, e.msg)
    src = lines_of(e.file, e.line)
    if src is not None:
        text += "    %s\n" % src.strip()
    return text


def _source_line(file, line):
    import linecache
    s = linecache.getline(file, line) if file and line else ""
    return s or None


# ---------------------------------------------------------------- the Python function


class PyFunc:
    """A Python function's AST, file, first line and the names it may read from outside."""

    def __init__(self, fn):
        import ast
        import inspect
        import textwrap
        self.fn = fn
        self.name = fn.__name__
        self.file = fn.__code__.co_filename
        try:
            lines, first = inspect.getsourcelines(fn)
        except (OSError, TypeError):
            raise CompileError("%s:%d: error: kcc.jit needs the source of '%s' (functions "
                               "typed at the prompt or made by exec() have none)\n"
                               % (self.file, fn.__code__.co_firstlineno, self.name),
                               self.file) from None
        src = textwrap.dedent("".join(lines))
        tree = ast.parse(src)
        ast.increment_lineno(tree, first - 1)
        # the column offsets are the dedented text's; add the indentation back
        indent = len(lines[0]) - len(lines[0].lstrip())
        if indent:
            for n in ast.walk(tree):
                if hasattr(n, "col_offset"):
                    n.col_offset += indent
        self.tree = tree.body[0]
        if not isinstance(self.tree, ast.FunctionDef):
            raise CompileError("%s:%d: error: kcc.jit takes a function defined with def\n"
                               % (self.file, first), self.file)
        self.closure = {}
        if fn.__closure__:
            for n, c in zip(fn.__code__.co_freevars, fn.__closure__):
                try:
                    self.closure[n] = c.cell_contents
                except ValueError:
                    pass
        self.globals = fn.__globals__
        a = self.tree.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise JitError("kernels and device functions take plain positional parameters "
                           "(no *args, **kwargs or keyword-only ones)", self.file,
                           self.tree.lineno, self.tree.col_offset)
        self.params = [x.arg for x in a.args]
        self.defaults = [None] * (len(a.args) - len(a.defaults)) + list(a.defaults)

    def lookup(self, name):
        """The value of a non-local name (closure, global, builtin), frozen; KeyError."""
        if name in self.closure:
            return self.closure[name]
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name)


def _assigned_names(fn_node):
    import ast
    names = set()
    for n in ast.walk(fn_node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
    return names


def _mangle(name):
    if name.isascii():
        return name
    return "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_u%04x" % ord(c)
                   for c in name)


# ---------------------------------------------------------------- the translator

_MATH1 = "sqrt exp exp2 expm1 log2 log10 log1p sin cos tan asin acos atan sinh cosh tanh " \
         "asinh acosh atanh fabs erf erfc lgamma cbrt".split()
_MATH2 = "atan2 pow fmod hypot copysign".split()
_NP1 = {"sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log",
        "log2": "log2", "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos",
        "tan": "tan", "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh",
        "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh",
        "arctanh": "atanh", "fabs": "fabs", "floor": "floor", "ceil": "ceil", "trunc": "trunc",
        "rint": "rint", "cbrt": "cbrt"}
_NP2 = {"arctan2": "atan2", "power": "pow", "fmod": "fmod", "hypot": "hypot",
        "copysign": "copysign"}
_NP_SCALARS = ("bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 "
               "intp uintp intc uintc byte ubyte short ushort longlong ulonglong single "
               "double").split()


def _dtype_name(obj):
    """The kernel type name of a dtype-like object (np.float32, 'float32', numba's float32),
    or None."""
    np = _core._numpy()
    for o in (obj, str(obj)):
        try:
            d = np.dtype(o)
        except Exception:
            continue
        if d.name in _CTYPE:
            return d.name
        return None
    return None


class _Var:
    __slots__ = ("kind", "ty", "cname", "nonneg", "items", "bound", "param", "xname")

    def __init__(self, kind, cname, number):
        self.kind, self.cname = kind, cname
        # the prefix of the C names a tuple's items and a view's parts take: kj_x<N>, which
        # no Python name can give (those are v_<name> and a_<name>)
        self.xname = "kj_x%d" % number
        self.ty = None
        self.nonneg = True
        self.items = None
        self.bound = None
        self.param = None


class ModuleCtx:
    """What one kernel's C file gathers: helpers, device functions, constant tables."""

    def __init__(self):
        self.helpers = set()
        self.devfuncs = {}  # (dispatcher, argkey) -> _FnResult
        self.stack = []
        self.consts = {}  # id(array) -> (cname, decl, array)
        self.dyn = {}  # dtype -> extern shared name
        self.tuples = {}  # tuple of types -> struct name
        self.counter = 0

    def tuple_struct(self, types):
        name = self.tuples.get(types)
        if name is None:
            name = self.tuples[types] = "kj_tuple_%d" % (len(self.tuples) + 1)
        return name

    def fresh(self, base):
        self.counter += 1
        return "%s_%d" % (base, self.counter)


class _FnResult:
    __slots__ = ("cname", "ret", "text", "lines", "deps", "written", "uses_dyn")


class Translator:
    """One function (kernel or device function) for one combination of argument types."""

    def __init__(self, pyfunc, argtypes, ctx, kernel, cname):
        self.pf = pyfunc
        self.argtypes = argtypes
        self.ctx = ctx
        self.kernel = kernel
        self.cname = cname
        self.file = pyfunc.file
        self.local_names = _assigned_names(pyfunc.tree) | set(pyfunc.params)
        self.vars = {}
        self.node = pyfunc.tree

    # ---- errors

    def err(self, msg, node=None):
        node = node or self.node
        return JitError(msg, self.file, getattr(node, "lineno", None),
                        getattr(node, "col_offset", None))

    def unsupported(self, node, what=None):
        import ast
        what = what or "'%s'" % ast.unparse(node).split("\n")[0][:60]
        return self.err("%s is not supported in kernels (kcc.jit: docs/python.md, 'From "
                        "numba', lists what is)" % what, node)

    # ---- driving

    def translate(self):
        """Infers the variables' types (repeating until they stop changing), then writes
        the function's C."""
        self.ret = None
        self.ret_void = False
        self.params_c = []
        self.arrays = {}  # param name -> ArrInfo
        for i, (p, t) in enumerate(zip(self.pf.params, self.argtypes)):
            self._param(p, t, i)
        for _ in range(20):
            self.changed = False
            self.final = False
            self._emit_function()
            if not self.changed:
                break
        self.final = True
        self.deps = []
        for a in self.arrays.values():
            a.written = False
        body = self._emit_function()
        r = _FnResult()
        r.cname = self.cname
        if self.ret is not None and self.ret_void:
            raise self.err("device function '%s' returns a value on one path and nothing on "
                           "another" % self.pf.name)
        r.ret = self.ret
        r.written = [self.arrays[p].written if p in self.arrays else False
                     for p in self.pf.params]
        ret_c = "void" if self.kernel or self.ret is None else \
            self.ctx.tuple_struct(self.ret) if isinstance(self.ret, tuple) else _CTYPE[self.ret]
        params = []
        for kind, text, p in self.params_c:
            if kind == "array":
                info = self.arrays[p]
                params.append(text % ("" if info.written else "const "))
            else:
                params.append(text)
        if self.uses_dyn:  # a kernel's, or passed to a device function that needs it
            params.append("long kj_dynsmem")
        head = ("kernel void %s(%s)" if self.kernel else "static %s %s(%s)" % (ret_c, "%s",
                                                                              "%s")) \
            % (self.cname, ", ".join(params) or "void")
        r.lines = [(head + " {", (self.file, self.pf.tree.lineno))] + body + [("}", None)]
        r.deps = self.deps
        r.uses_dyn = self.uses_dyn
        return r

    def _param(self, p, t, index):
        c = "a_" + _mangle(p)
        v = self.vars[p] = _Var("bind" if isinstance(t, ArrayType) else "scalar", "v_" +
                                _mangle(p), len(self.vars) + 1)
        if isinstance(t, ArrayType):
            shape = ["kj_p%d_s%d" % (index, k) for k in range(t.ndim)]
            # a kernel's arrays are C-contiguous; a device function's may be views
            strides = None if self.kernel else ["kj_p%d_t%d" % (index, k)
                                                for k in range(t.ndim)]
            info = ArrInfo(c, shape, t.dtype, "global", strides=strides)
            self.arrays[p] = info
            v.bound = _arr(info)
            self.params_c.append(("array", "%%s%s *%s" % (_CTYPE[t.dtype], c) +
                                  "".join(", long %s" % s for s in shape + (strides or [])),
                                  p))
        else:
            v.ty = t
            v.param = c
            v.nonneg = t == "bool" or t[0] == "u"
            self.params_c.append(("scalar", "%s %s" % (_CTYPE[t], c), p))

    def _emit_function(self):
        self.decls = []
        self.lines = []
        self.temps = 0
        self.indent = 1
        self.loop_depth = 0
        self.uses_dyn = False
        self.hoisted = {}  # id(call node) -> V of a shared/local array
        self.deps_final = []
        if self.final:
            self.deps = []
        self.block(self.pf.tree.body)
        out = []
        for name, v in self.vars.items():
            if v.kind == "scalar" and v.ty is not None:
                init = "(%s)%s" % (_CTYPE[v.ty], v.param) if v.param else "0"
                out.append(("    %s %s = %s;" % (_CTYPE[v.ty], v.cname, init), None))
            elif v.kind == "bind" and isinstance(v.items, int):
                out.append(("    long %s_off = 0;" % v.xname, None))
                for k in range(v.items):
                    out.append(("    long %s_s%d = 0, %s_t%d = 0;" % (v.xname, k, v.xname, k),
                                None))
            elif v.kind == "tuple" and v.items:
                for k, t in enumerate(v.items):
                    if t is not None:
                        out.append(("    %s %s_%d = 0;" % (_CTYPE[t], v.xname, k), None))
        return out + self.decls + self.lines

    def temp(self, ty):
        self.temps += 1
        name = "kj_t%d" % self.temps
        self.decls.append(("    %s %s;" % (_CTYPE[ty], name), None))
        return name

    def emit(self, text, node=None):
        ln = getattr(node, "lineno", None)
        self.lines.append(("    " * self.indent + text, (self.file, ln) if ln else None))

    def helper(self, name):
        self.ctx.helpers.add(name)
        return "kj_" + name

    # ---- statements

    def block(self, stmts):
        for s in stmts:
            self.stmt(s)

    def stmt(self, s):
        import ast
        m = getattr(self, "s_" + type(s).__name__, None)
        if m is None:
            raise self.unsupported(s, "the statement '%s'" % type(s).__name__.lower()
                                   if not isinstance(s, (ast.Try, ast.With)) else
                                   "'%s'" % type(s).__name__.lower())
        m(s)

    def s_Pass(self, s):
        pass

    def s_Expr(self, s):
        import ast
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        v = self.expr(s.value)
        if v.ty is not None and v.ty not in ("static", "tuple") and \
                not isinstance(v.ty, ArrayType) and v.code:
            self.emit("(void)(%s);" % v.code, s)
        elif v.ty == "static" and v.code:
            self.emit("%s;" % v.code, s)

    def s_Assert(self, s):
        pass  # as numba.cuda without debug=True: assertions are not checked

    def s_Assign(self, s):
        v = self.expr(s.value)
        if len(s.targets) > 1 and v.ty not in ("static", "tuple") and \
                not isinstance(v.ty, ArrayType) and v.ty is not None:
            t = self.temp(v.ty)
            self.emit("%s = %s;" % (t, v.code), s)
            v = V(t, v.ty, v.nonneg, v.const)
        for tgt in s.targets:
            self.assign(tgt, v, s)

    def s_AnnAssign(self, s):
        if s.value is None:
            return
        self.assign(s.target, self.expr(s.value), s)

    def s_AugAssign(self, s):
        import ast
        t = s.target
        if isinstance(t, ast.Name):
            cur = self.expr(ast.Name(id=t.id, ctx=ast.Load(), lineno=t.lineno,
                                     col_offset=t.col_offset))
            self.assign(t, self.binop(s.op, cur, self.expr(s.value), s), s)
        elif isinstance(t, ast.Subscript):
            target = self._element_target(t)
            if target is None:
                return
            base, off = target
            if isinstance(off, V):
                self._store_view(off, self.expr(s.value), s, s.op)
                return
            tmp = "kj_o"
            self.emit("{ long %s = %s;" % (tmp, off), s)
            cur = V("%s[%s]" % (base.arr.base, tmp), base.arr.dtype, base.arr.dtype[0] == "u")
            r = self.binop(s.op, cur, self.expr(s.value), s)
            self._store(base, tmp, r, s)
            self.emit("}", s)
        else:
            raise self.unsupported(s)

    def _element_target(self, t):
        """(array, offset) of an assignment to an array element or view `t` (a Subscript), or
        None while the array's type is not known yet."""
        base = self.expr(t.value)
        if base.ty is None:
            return None
        if not isinstance(base.ty, ArrayType):
            raise self.err("only array elements and variables can be assigned to", t)
        return base, self.offset(base, t.slice, t)

    def _store(self, base, off, v, node):
        if v.ty is None:
            return
        info = base.arr
        if info.space == "constant":
            raise self.err("a constant array (a global numpy array or cuda.const.array_like) "
                           "cannot be written", node)
        if not _is_num(v.ty):
            raise self.err("cannot store %s into an array of %s" % (self.tyname(v.ty),
                                                                    info.dtype), node)
        info.root.written = True
        self.emit("%s[%s] = %s;" % (info.base, off, _cast(v, info.dtype)), node)

    def _store_view(self, view, v, node, op=None):
        """view[...] = v (op: view[...] op= v): a number into every element, or an array of
        the same number of dimensions element by element (over the view's shape, as numba
        requires equal shapes), in loops over the view."""
        if v.ty is None:
            return
        info = view.arr
        if info.space == "constant":
            raise self.err("a constant array (a global numpy array or cuda.const.array_like) "
                           "cannot be written", node)
        nd = len(info.shape)
        src = None
        if isinstance(v.ty, ArrayType):
            src = v.arr
            if len(src.shape) != nd:
                raise self.err("cannot assign an array of %d dimension%s to a slice of %d"
                               % (len(src.shape), "" if len(src.shape) == 1 else "s", nd),
                               node)
        elif not _is_num(v.ty):
            raise self.err("cannot store %s into an array slice" % self.tyname(v.ty), node)
        info.root.written = True
        self.emit("{", node)
        self.indent += 1
        if src is None and v.const is None:
            t = self.temp(v.ty)  # the value, evaluated once
            self.emit("%s = %s;" % (t, v.code), node)
            v = V(t, v.ty, v.nonneg)
        for k in range(nd):
            self.emit("for (long kj_v%d = 0; kj_v%d < %s; kj_v%d++) {"
                      % (k, k, info.shape[k], k), node)
            self.indent += 1
        idx = ["kj_v%d" % k for k in range(nd)]
        dst = info.index(idx)
        if src is not None:
            v = V(src.index(idx), src.dtype, src.dtype[0] == "u")
        if op is not None:
            v = self.binop(op, V(dst, info.dtype, info.dtype[0] == "u"), v, node)
        self.emit("%s = %s;" % (dst, _cast(v, info.dtype)), node)
        for k in range(nd):
            self.indent -= 1
            self.emit("}", node)
        self.indent -= 1
        self.emit("}", node)

    def tyname(self, t):
        if t == "static":
            return "a Python object"
        if t == "tuple":
            return "a tuple"
        if isinstance(t, ArrayType):
            return "an array"
        return t

    def assign(self, tgt, v, node):
        import ast
        if isinstance(tgt, ast.Name):
            self.assign_name(tgt.id, v, tgt)
        elif isinstance(tgt, (ast.Tuple, ast.List)):
            if v.ty is None:
                for e in tgt.elts:
                    self.assign(e, UNKNOWN, node)
                return
            if v.ty != "tuple":
                raise self.err("cannot unpack %s" % self.tyname(v.ty), tgt)
            if len(v.items) != len(tgt.elts):
                raise self.err("cannot unpack %d values into %d names"
                               % (len(v.items), len(tgt.elts)), tgt)
            # Python evaluates the whole right side first (a, b = b, a)
            vals = []
            for it in v.items:
                if it.ty in ("static", "tuple") or isinstance(it.ty, ArrayType) or \
                        it.ty is None or it.const is not None:
                    vals.append(it)
                else:
                    t = self.temp(it.ty)
                    self.emit("%s = %s;" % (t, it.code), node)
                    vals.append(V(t, it.ty, it.nonneg))
            for e, it in zip(tgt.elts, vals):
                self.assign(e, it, node)
        elif isinstance(tgt, ast.Subscript):
            target = self._element_target(tgt)
            if target is None:
                return
            base, off = target
            if isinstance(off, V):
                self._store_view(off, v, node)
                return
            self._store(base, off, v, node)
        elif isinstance(tgt, ast.Attribute):
            raise self.err("cannot assign to an attribute ('%s')" % ast.unparse(tgt), tgt)
        else:
            raise self.unsupported(tgt)

    def assign_name(self, name, v, node):
        var = self.vars.get(name)
        if v.ty is None:
            return
        kind = "scalar" if _is_num(v.ty) else "tuple" if v.ty == "tuple" else "bind"
        if var is None:
            var = self.vars[name] = _Var(kind, "v_" + _mangle(name), len(self.vars) + 1)
        if var.kind != kind:
            raise self.err("variable '%s' holds %s here and %s elsewhere; a kernel's variable "
                           "keeps one kind of value" % (name, self.tyname(v.ty),
                                                        "a number" if var.kind == "scalar"
                                                        else "a tuple" if var.kind == "tuple"
                                                        else "an array or object"), node)
        if kind == "scalar":
            t = unify(var.ty, v.ty)
            if t != var.ty:
                var.ty = t
                self.changed = True
            if var.nonneg and not v.nonneg:
                var.nonneg = False
                self.changed = True
            self.emit("%s = %s;" % (var.cname, _cast(v, var.ty)), node)
        elif kind == "tuple":
            if var.items is None:
                var.items = [None] * len(v.items)
                self.changed = True
            if len(var.items) != len(v.items):
                raise self.err("variable '%s' holds tuples of different lengths" % name, node)
            for k, it in enumerate(v.items):
                if not _is_num(it.ty) if it.ty is not None else False:
                    raise self.err("a tuple variable holds numbers only", node)
                t = unify(var.items[k], it.ty)
                if t != var.items[k]:
                    var.items[k] = t
                    self.changed = True
            for k, it in enumerate(v.items):
                if it.ty is not None and var.items[k] is not None:
                    self.emit("%s_%d = %s;" % (var.xname, k, _cast(it, var.items[k])), node)
        else:
            if v.arr is not None and v.arr is not v.arr.root:
                # a view (a row, a slice): its offset, shape and strides go into variables
                # of its own, so that later changes of its indices do not move it
                info = v.arr
                if var.bound is not None and not (var.bound.arr is not None and
                                                  var.bound.arr.base == info.base and
                                                  len(var.bound.arr.shape) ==
                                                  len(info.shape)):
                    raise self.err("variable '%s' refers to different arrays or objects; in "
                                   "a kernel an array variable names one array" % name, node)
                nd = len(info.shape)
                c = var.xname
                names = ["%s_s%d" % (c, k) for k in range(nd)]
                tnames = ["%s_t%d" % (c, k) for k in range(nd)]
                self.emit("%s_off = %s;" % (c, info.off), node)
                for a, b in zip(names + tnames, info.shape + info.strides):
                    self.emit("%s = %s;" % (a, b), node)
                if var.bound is None:
                    var.bound = _arr(ArrInfo(info.base, names, info.dtype, info.space,
                                             info.root, c + "_off", tnames))
                    var.items = nd  # declared with the function's variables
                    self.changed = True
                return
            if var.bound is None:
                var.bound = v
                self.changed = True
            elif not self._same_binding(var.bound, v):
                raise self.err("variable '%s' refers to different arrays or objects; in a "
                               "kernel an array variable names one array" % name, node)

    @staticmethod
    def _same_binding(a, b):
        if a.ty == "static" or b.ty == "static":
            return a.ty == b.ty and a.static is b.static
        return a.arr is not None and b.arr is not None and a.arr.ptr == b.arr.ptr and \
            a.arr.shape == b.arr.shape and a.arr.strides == b.arr.strides

    def s_If(self, s):
        c = self.expr(s.test)
        if c.const is not None and not isinstance(c.ty, ArrayType):
            # a test known at compile time (a frozen global): only that branch is written
            self.block(s.body if c.const else s.orelse)
            return
        self.emit("if (%s) {" % self.truth(c, s.test), s)
        self.indent += 1
        self.block(s.body)
        self.indent -= 1
        if s.orelse:
            self.emit("} else {", s)
            self.indent += 1
            self.block(s.orelse)
            self.indent -= 1
        self.emit("}", s)

    def truth(self, v, node):
        if v.ty is None:
            return "0"
        if not _is_num(v.ty):
            raise self.err("%s has no truth value in a kernel" % self.tyname(v.ty), node)
        return _truth(v)

    def s_While(self, s):
        if s.orelse:
            raise self.unsupported(s, "'while ... else'")
        # The test is evaluated inside the loop: what it needs computed first (a slice's
        # bounds, a device function's tuple) is then computed before every test.
        self.indent += 1
        mark = len(self.lines)
        c = self.expr(s.test)
        cond = self.truth(c, s.test)
        pre = self.lines[mark:]
        del self.lines[mark:]
        self.indent -= 1
        if pre:
            self.emit("for (;;) {", s)
            self.lines.extend(pre)
            self.indent += 1
            self.emit("if (!(%s)) break;" % cond, s)
        else:
            self.emit("while (%s) {" % cond, s)
            self.indent += 1
        self.loop_depth += 1
        self.block(s.body)
        self.loop_depth -= 1
        self.indent -= 1
        self.emit("}", s)

    def s_Break(self, s):
        self.emit("break;", s)

    def s_Continue(self, s):
        self.emit("continue;", s)

    def s_For(self, s):
        import ast
        if s.orelse:
            raise self.unsupported(s, "'for ... else'")
        it = s.iter
        target = s.target
        counter = None
        if isinstance(it, ast.Call) and self._static_of(it.func) is enumerate:
            # enumerate(x): the index, then what iterating x gives
            if len(it.args) != 1 or it.keywords or not (
                    isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2):
                raise self.err("kernels take enumerate(x) in 'for i, v in enumerate(x)'", it)
            counter, target, it = target.elts[0], target.elts[1], it.args[0]
        if not (isinstance(it, ast.Call) and self._static_of(it.func) is range):
            return self._for_items(s, it, target, counter)
        if counter is not None:
            raise self.err("enumerate(range(...)) is not supported in kernels", it)
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.err("range() takes 1 to 3 positional arguments", it)
        args = [self.expr(a) for a in it.args]
        for a, n in zip(args, it.args):
            if a.ty is not None and not (_is_int(a.ty) or a.ty == "bool"):
                raise self.err("range() takes integers, not %s" % self.tyname(a.ty), n)
        if any(a.ty is None for a in args):
            start = stop = step = UNKNOWN
            ty = "int64"
        if len(args) == 1:
            start, stop, step = _literal(0, "int64"), args[0], _literal(1, "int64")
        elif len(args) == 2:
            start, stop, step = args[0], args[1], _literal(1, "int64")
        else:
            start, stop, step = args
        ty = "uint64" if all(a.ty is not None and a.ty[0] == "u" for a in (start, stop)) \
            else "int64"
        cst = step.const
        if cst == 0:
            raise self.err("range() step must not be zero", it)
        nonneg = start.nonneg and cst is not None and cst > 0
        loopv = V("kj_i", ty, nonneg)
        c = _CTYPE[ty]
        self.emit("{", s)
        self.indent += 1
        if cst in (1, -1):
            # i < stop before i++ : never overflows
            self.emit("%s kj_stop = %s;" % (c, _cast(stop, ty)), s)
            self.emit("for (%s kj_i = %s; kj_i %s kj_stop; kj_i%s) {"
                      % (c, _cast(start, ty), "<" if cst == 1 else ">",
                         "++" if cst == 1 else "--"), s)
        else:
            # Python's trip count, in unsigned arithmetic (no overflow whatever the bounds)
            self.emit("%s kj_start = %s, kj_stop = %s, kj_step = %s;"
                      % (c, _cast(start, ty), _cast(stop, ty), _cast(step, ty)), s)
            if ty == "uint64":
                self.emit("unsigned long kj_n = kj_step == 0 ? 0 : kj_start < kj_stop ? "
                          "(kj_stop - kj_start - 1) / kj_step + 1 : 0;", s)
            else:
                self.emit("unsigned long kj_n = kj_step > 0 ? (kj_start < kj_stop ? "
                          "((unsigned long)kj_stop - (unsigned long)kj_start - 1) / "
                          "(unsigned long)kj_step + 1 : 0) : kj_step < 0 ? (kj_start > "
                          "kj_stop ? ((unsigned long)kj_start - (unsigned long)kj_stop - 1) "
                          "/ (0UL - (unsigned long)kj_step) + 1 : 0) : 0;", s)
            self.emit("for (unsigned long kj_k = 0; kj_k < kj_n; kj_k++) {", s)
            self.emit("    %s kj_i = (%s)((unsigned long)kj_start + kj_k * (unsigned long)"
                      "kj_step);" % (c, c), s)
        self.indent += 1
        self.loop_depth += 1
        self.assign(s.target, loopv, s)
        self.block(s.body)
        self.loop_depth -= 1
        self.indent -= 1
        self.emit("}", s)
        self.indent -= 1
        self.emit("}", s)

    def _for_items(self, s, it, target, counter):
        """for x in <tuple of numbers> / <array> / zip(...) of those: a loop over an index
        (a tuple's items go into an array first, computed once before the loop, as Python
        evaluates the tuple)."""
        import ast
        self.emit("{", s)
        self.indent += 1
        if isinstance(it, ast.Call) and self._static_of(it.func) is zip:
            if it.keywords or not it.args:
                raise self.err("kernels take zip(a, b, ...) of tuples and arrays", it)
            if not (isinstance(target, (ast.Tuple, ast.List)) and
                    len(target.elts) == len(it.args)):
                raise self.err("'for' over zip() of %d sequences unpacks into %d names"
                               % (len(it.args), len(it.args)), target)
            sources = [self._iter_source(a, k, s) for k, a in enumerate(it.args)]
            n = sources[0][0]
            for m, _ in sources[1:]:
                n = "(%s < %s ? %s : %s)" % (n, m, n, m)
            item = _tuple(x for _, x in sources)
        else:
            n, item = self._iter_source(it, 0, s)
        self.emit("long kj_n = %s;" % n, s)
        self.emit("for (long kj_j = 0; kj_j < kj_n; kj_j++) {", s)
        self.indent += 1
        self.loop_depth += 1
        if counter is not None:
            self.assign(counter, V("kj_j", "int64", True), s)
        self.assign(target, item, s)
        self.block(s.body)
        self.loop_depth -= 1
        self.indent -= 1
        self.emit("}", s)
        self.indent -= 1
        self.emit("}", s)

    def _iter_source(self, it, k, s):
        """(length, item at index kj_j) of one thing a for loop goes over."""
        import ast
        v = self.expr(it)
        if v.ty is not None and not (v.ty == "tuple" or isinstance(v.ty, ArrayType)):
            raise self.err("a kernel's for loop goes over range(...), a tuple or an array "
                           "(kcc.jit cannot iterate over '%s')" % ast.unparse(it), it)
        if v.ty is None:
            return "0L", UNKNOWN
        if v.ty == "tuple":
            if not v.items or not all(_is_num(x.ty) or x.ty is None for x in v.items):
                raise self.err("a kernel's for loop over a tuple takes a tuple of numbers", it)
            if any(x.ty is None for x in v.items):
                return "0L", UNKNOWN
            t = v.items[0].ty
            for x in v.items[1:]:
                t = unify(t, x.ty)
            self.emit("%s kj_items%d[%d] = {%s};" % (_CTYPE[t], k, len(v.items), ", ".join(
                _cast(x, t) for x in v.items)), s)
            return "%dL" % len(v.items), V("kj_items%d[kj_j]" % k, t,
                                            all(x.nonneg for x in v.items))
        info = v.arr
        if len(info.shape) == 1:
            off = self._offset_of_value(v, V("kj_j", "int64", True), it)
            return info.shape[0], V("%s[%s]" % (info.base, off), info.dtype,
                                    info.dtype[0] == "u" or info.dtype == "bool")
        # the rows of an array of 2 or more dimensions, as views
        terms = ([] if info.off == "0" else [info.off]) + [_mul("kj_j", info.strides[0])]
        return info.shape[0], _arr(ArrInfo(info.base, info.shape[1:], info.dtype, info.space,
                                           info.root, "(%s)" % " + ".join(terms),
                                           info.strides[1:]))

    def s_Return(self, s):
        if s.value is None:
            if not self.kernel:
                self.ret_void = True
            self.emit("return;", s)
            return
        v = self.expr(s.value)
        if self.kernel:
            raise self.err("a kernel cannot return a value", s)
        if v.ty is None:
            self.emit("return 0;", s)
            return
        if v.ty == "tuple":
            # a tuple of numbers: returned as a struct (kj_tuple_N, one per list of types)
            if not all(_is_num(x.ty) or x.ty is None for x in v.items):
                raise self.err("a device function returns numbers or a tuple of numbers", s)
            if self.ret is not None and (not isinstance(self.ret, tuple) or
                                         len(self.ret) != len(v.items)):
                raise self.err("a device function returns values of different kinds (a "
                               "number, tuples of other lengths)", s)
            old = self.ret or (None,) * len(v.items)
            t = tuple(unify(a, x.ty) for a, x in zip(old, v.items))
            if t != self.ret:
                self.ret = t
                self.changed = True
            if None in t:
                self.emit("return;", s)
                return
            name = self.ctx.tuple_struct(t)
            self.emit("{ %s kj_r = {%s}; return kj_r; }" % (
                name, ", ".join(_cast(x, ty) for x, ty in zip(v.items, t))), s)
            return
        if not _is_num(v.ty):
            raise self.err("a device function returns a number, not %s" % self.tyname(v.ty),
                           s)
        if isinstance(self.ret, tuple):
            raise self.err("a device function returns values of different kinds (a number "
                           "and a tuple)", s)
        t = unify(self.ret, v.ty)
        if t != self.ret:
            self.ret = t
            self.changed = True
        self.emit("return %s;" % _cast(v, self.ret), s)

    # ---- expressions

    def expr(self, n):
        m = getattr(self, "e_" + type(n).__name__, None)
        if m is None:
            raise self.unsupported(n)
        return m(n)

    def e_Constant(self, n):
        return self.from_python(n.value, n)

    def from_python(self, val, n):
        np = sys.modules.get("numpy")
        if isinstance(val, bool):
            return _literal(val, "bool")
        if isinstance(val, int):
            if -(1 << 63) <= val < 1 << 63:
                return _literal(val, "int64")
            if 0 <= val < 1 << 64:
                return _literal(val, "uint64")
            raise self.err("the integer %d does not fit in 64 bits" % val, n)
        if isinstance(val, float):
            return _literal(val, _F())
        if np is not None and isinstance(val, np.generic) and val.dtype.name in _CTYPE:
            return _literal(val.item(), val.dtype.name)
        if isinstance(val, tuple) and all(isinstance(x, (int, float, bool)) or
                                          (np is not None and isinstance(x, np.generic))
                                          for x in val):
            return _tuple(self.from_python(x, n) for x in val)
        if np is not None and isinstance(val, np.ndarray):
            return self.const_array(val, n)
        return _static(val)

    def const_array(self, a, n):
        dt = a.dtype.name
        if dt not in _CTYPE or a.ndim == 0:
            raise self.err("a global array of %s cannot be a kernel constant" % a.dtype, n)
        if a.nbytes > 65536:
            raise self.err("the global array is %d bytes; constant memory holds 64 KiB"
                           % a.nbytes, n)
        ent = self.ctx.consts.get(id(a))
        if ent is None:
            cname = self.ctx.fresh("kj_const")
            flat = a.reshape(-1)
            vals = ", ".join(_literal(x, dt).code for x in flat.tolist())
            decl = "constant %s %s[%d] = {%s};" % (_CTYPE[dt], cname, max(flat.size, 1),
                                                   vals or "0")
            ent = self.ctx.consts[id(a)] = (cname, decl, a)
        info = ArrInfo(ent[0], ["%dL" % s for s in a.shape], dt, "constant")
        return _arr(info)

    def e_Name(self, n):
        name = n.id
        if name in self.local_names:
            var = self.vars.get(name)
            if var is None or (var.kind == "scalar" and var.ty is None) or \
                    (var.kind == "tuple" and (var.items is None or None in var.items)) or \
                    (var.kind == "bind" and var.bound is None):
                if self.final:
                    raise self.err("variable '%s' is used before it is given a value" % name, n)
                return UNKNOWN
            if var.kind == "scalar":
                return V(var.cname, var.ty, var.nonneg)
            if var.kind == "tuple":
                return _tuple(V("%s_%d" % (var.xname, k), t) for k, t in enumerate(var.items))
            return var.bound
        try:
            val = self.pf.lookup(name)
        except AttributeError:
            raise self.err("name '%s' is not defined" % name, n) from None
        return self.from_python(val, n)

    def _static_of(self, n):
        """The Python object an expression names (cuda.grid, math.sqrt, range...), or None."""
        import ast
        if isinstance(n, ast.Name):
            if n.id in self.local_names:
                var = self.vars.get(n.id)
                return var.bound.static if var is not None and var.kind == "bind" and \
                    var.bound is not None and var.bound.ty == "static" else None
            try:
                return self.pf.lookup(n.id)
            except AttributeError:
                return None
        if isinstance(n, ast.Attribute):
            base = self._static_of(n.value)
            if base is None:
                return None
            return getattr(base, n.attr, None)
        return None

    def e_Attribute(self, n):
        base = self.expr(n.value)
        if base.ty is None:
            return UNKNOWN
        if base.ty == "static":
            obj = base.static
            try:
                val = getattr(obj, n.attr)
            except AttributeError:
                raise self.err("'%s' has no attribute '%s'" % (getattr(obj, "__name__", obj),
                                                               n.attr), n) from None
            if isinstance(val, Intrinsic):
                r = self.intrinsic_value(val, n)
                if r is not None:
                    return r
            return self.from_python(val, n)
        if isinstance(base.ty, ArrayType):
            info = base.arr
            a = n.attr
            if a == "shape":
                return _tuple(V(s, "int64", True) for s in info.shape)
            if a == "ndim":
                return _literal(len(info.shape), "int64")
            if a == "size":
                return V("(" + " * ".join(info.shape) + ")" if info.shape else "1L", "int64",
                         True)
            if a == "dtype":
                return _static(_core._numpy().dtype(info.dtype))
            if a == "strides":
                isz = _core._numpy().dtype(info.dtype).itemsize
                out = []
                for st in info.strides:
                    out.append(V("(%dL * %s)" % (isz, st), "int64"))
                return _tuple(out)
            raise self.err("arrays in kernels have shape, size, ndim, strides and dtype; not "
                           "'%s'" % a, n)
        if base.ty == "tuple":
            raise self.err("a tuple has no attribute '%s' in a kernel" % n.attr, n)
        if _is_num(base.ty) and n.attr in ("real",):
            return base
        if _is_num(base.ty) and n.attr == "imag":
            return _literal(0, base.ty)
        raise self.err("%s has no attribute '%s' in a kernel" % (self.tyname(base.ty), n.attr),
                       n)

    def intrinsic_value(self, obj, n):
        """The value of an intrinsic used as a value (threadIdx.x, laneid, warpsize)."""
        name = obj._name
        if "." in name and name.split(".")[0] in ("threadIdx", "blockIdx", "blockDim",
                                                   "gridDim"):
            return V("((int)%s)" % name, "int32", True)
        if name == "warpsize":
            return _literal(32, "int32")
        if name == "laneid":
            return V("((int)(((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + "
                     "threadIdx.x) & 31))", "int32", True)
        return None

    def e_Tuple(self, n):
        return _tuple(self.expr(e) for e in n.elts)

    e_List = None

    def e_Subscript(self, n):
        import ast
        base = self.expr(n.value)
        if base.ty is None:
            return UNKNOWN
        if base.ty == "tuple":
            if isinstance(n.slice, ast.Slice):
                raise self.err("tuple slices are not supported in kernels", n)
            i = self.expr(n.slice)
            if i.ty is None:
                return UNKNOWN
            if i.const is None and _is_int(i.ty) and base.items and \
                    all(_is_num(x.ty) for x in base.items):
                # a run-time index of a tuple of numbers: the items in a local array,
                # filled before the statement
                t = base.items[0].ty
                for x in base.items[1:]:
                    t = unify(t, x.ty)
                self.temps += 1
                arr = "kj_t%d" % self.temps
                self.decls.append(("    %s %s[%d];" % (_CTYPE[t], arr, len(base.items)), None))
                for k, x in enumerate(base.items):
                    self.emit("%s[%d] = %s;" % (arr, k, _cast(x, t)), n)
                c = "(long)(%s)" % i.code
                if not i.nonneg:
                    c = "%s(%s, %dL)" % (self.helper("wrap"), c, len(base.items))
                return V("%s[%s]" % (arr, c), t, all(x.nonneg for x in base.items))
            if i.const is None or not isinstance(i.const, int):
                raise self.err("a tuple's index must be an integer in a kernel (a tuple of "
                               "numbers may be indexed at run time)", n)
            try:
                return base.items[i.const]
            except IndexError:
                raise self.err("tuple index %d out of range" % i.const, n) from None
        if isinstance(base.ty, ArrayType):
            off = self.offset(base, n.slice, n)
            if isinstance(off, V):
                return off  # a sub-array
            return V("%s[%s]" % (base.arr.base, off), base.arr.dtype,
                     base.arr.dtype[0] == "u" or base.arr.dtype == "bool")
        raise self.err("%s cannot be indexed" % self.tyname(base.ty), n)

    def offset(self, base, sl, node):
        """The element offset (C code, from base.arr.base) of base[sl], or a V of the view
        when fewer indices than dimensions are given or some are slices."""
        import ast
        info = base.arr
        nodes = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        items = []
        for e in nodes:
            if isinstance(e, ast.Slice):
                items.append(e)
                continue
            v = self.expr(e)
            if v.ty is None:
                return "0"
            items.extend(v.items if v.ty == "tuple" else [v])
        nd = len(info.shape)
        if len(items) > nd:
            raise self.err("%d indices for an array of %d dimension%s" % (
                len(items), nd, "" if nd == 1 else "s"), node)
        terms = [] if info.off == "0" else [info.off]
        shape, strides = [], []
        for k, it in enumerate(items):
            if isinstance(it, ast.Slice):
                start, length, step = self.slice_of(it, info.shape[k])
                terms.append(_mul(start, info.strides[k]))
                shape.append(length)
                strides.append(_mul(step, info.strides[k]))
                continue
            terms.append(self._index_term(it, info, k, node))
        off = " + ".join(terms) or "0"
        if shape or len(items) < nd:
            shape += info.shape[len(items):]
            strides += info.strides[len(items):]
            return _arr(ArrInfo(info.base, shape, info.dtype, info.space, info.root,
                                "(%s)" % off if off != "0" else "0", strides))
        return off

    def slice_of(self, sl, n):
        """(start, length, step) of a slice over a dimension of n elements, as C code, with
        Python's clamping; computed once, into temporaries, before the statement."""
        vals = []
        for part in (sl.lower, sl.upper, sl.step):
            if part is None:
                vals.append(None)
                continue
            v = self.expr(part)
            if v.ty is not None and not (_is_int(v.ty) or v.ty == "bool"):
                raise self.err("slice bounds must be integers", part)
            vals.append(v)
        lo, hi, st = vals
        if st is not None and st.const == 0:
            raise self.err("slice step cannot be zero", sl)
        step = "1L" if st is None else "(long)(%s)" % st.code
        if st is None or (st.const is not None and st.const > 0) or st.nonneg:
            neg = "0"
        else:
            neg = "(%s < 0)" % step
        h = self.helper("slice")
        t_start, t_len = self.temp("int64"), self.temp("int64")
        self.emit("%s = %s(%s, %s, %s, %s, %s, %s, %s, &%s);" % (
            t_len, h, n, "0" if lo is None else "1", "0L" if lo is None else
            "(long)(%s)" % lo.code, "0" if hi is None else "1",
            "0L" if hi is None else "(long)(%s)" % hi.code, step, neg, t_start), sl)
        return t_start, t_len, step

    def e_UnaryOp(self, n):
        import ast
        v = self.expr(n.operand)
        if v.ty is None:
            return UNKNOWN
        if isinstance(n.op, ast.Not):
            c = None if v.const is None else (not v.const)
            return V("(!%s)" % self.truth(v, n), "bool", True, c)
        if not _is_num(v.ty):
            raise self.err("unary %s of %s" % (type(n.op).__name__, self.tyname(v.ty)), n)
        if isinstance(n.op, ast.UAdd):
            return v if v.ty != "bool" else V(_cast(v, "int64"), "int64", True)
        if isinstance(n.op, ast.USub):
            if _is_float(v.ty):
                return V("(-%s)" % v.code, v.ty, False,
                         None if v.const is None else -v.const)
            t = "uint64" if v.ty[0] == "u" else "int64"
            if v.const is not None:
                return _literal(-v.const, t)
            if t == "uint64":
                return V("(0UL - (unsigned long)(%s))" % v.code, t, True)
            return V("((long)(0UL - (unsigned long)(%s)))" % v.code, t)
        if isinstance(n.op, ast.Invert):
            if _is_float(v.ty):
                raise self.err("~ of a float", n)
            t = "uint64" if v.ty[0] == "u" else "int64"
            if v.const is not None:
                return _literal(~int(v.const), t)
            return V("(~(%s)%s)" % (_CTYPE[t], v.code), t, t == "uint64")
        raise self.unsupported(n)

    def e_BinOp(self, n):
        a = self.expr(n.left)
        b = self.expr(n.right)
        return self.binop(n.op, a, b, n)

    _OPS = {"Add": "+", "Sub": "-", "Mult": "*", "Div": "/", "FloorDiv": "//", "Mod": "%",
            "Pow": "**", "LShift": "<<", "RShift": ">>", "BitAnd": "&", "BitOr": "|",
            "BitXor": "^"}

    def binop(self, op, a, b, n):
        opn = type(op).__name__
        sym = self._OPS.get(opn)
        if sym is None:
            raise self.unsupported(n, "the operator '%s'" % opn)
        if a.ty is None or b.ty is None:
            return UNKNOWN
        if a.ty == "tuple" and b.ty == "tuple" and sym == "+":
            return _tuple(a.items + b.items)
        if not (_is_num(a.ty) and _is_num(b.ty)):
            raise self.err("unsupported operand types for %s: %s and %s"
                           % (sym, self.tyname(a.ty), self.tyname(b.ty)), n)
        ta, tb = a.ty, b.ty
        fl = _is_float(ta) or _is_float(tb)
        if sym in ("<<", ">>", "&", "|", "^") and fl:
            raise self.err("unsupported operand types for %s: %s and %s" % (sym, ta, tb), n)
        if sym in ("&", "|", "^") and ta == "bool" and tb == "bool":
            c = None if a.const is None or b.const is None else \
                {"&": operator.and_, "|": operator.or_, "^": operator.xor}[sym](a.const,
                                                                             b.const)
            return V("((bool)(%s %s %s))" % (a.code, sym, b.code), "bool", True, c)
        if sym == "/":
            t = _F() if not fl else _np_promote(ta, tb)
            if a.const is not None and b.const is not None and b.const != 0 and \
                    t == "float64":
                return _literal(a.const / b.const, t)
            return V("(%s / %s)" % (_cast(a, t), _cast(b, t)), t)
        if sym == "**":
            if not fl:
                t = "uint64" if ta[0] == "u" and tb[0] == "u" else "int64"
                if a.const is not None and b.const is not None and b.const >= 0 and \
                        b.const < 64:
                    return _literal(int(a.const) ** int(b.const), t)
                h = self.helper("pow_u64" if t == "uint64" else "pow_i64")
                return V("%s(%s, %s)" % (h, _cast(a, t), _cast(b, t)), t, t == "uint64")
            if _is_float(ta) and not _is_float(tb):
                t = ta  # numba: float ** int keeps the float's type
                if b.const is not None and 0 <= b.const <= 4:
                    # small constant powers as products: exact, as numpy's x**2
                    if b.const == 0:
                        return _literal(1.0, t)
                    tmp = self.temp(t)
                    return V("(%s = %s, %s)" % (tmp, a.code, " * ".join([tmp] * b.const)), t,
                             b.const % 2 == 0 or a.nonneg)
            else:
                t = _np_promote(ta, tb)
            f = "powf" if t == "float32" else "pow"
            return V("%s(%s, %s)" % (f, _cast(a, t), _cast(b, t)), t)
        t = _arith(ta, tb) if not (ta == "bool" and tb == "bool") or sym in "+-*" or \
            sym in ("//", "%") else "int64"
        if ta == "bool" and tb == "bool":
            t = "int64"
        # constant folding (shapes and sizes written as expressions of globals)
        if a.const is not None and b.const is not None and not fl and sym not in ("//", "%") \
                or (a.const is not None and b.const is not None and not fl and b.const != 0):
            x, y = int(a.const), int(b.const)
            r = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y,
                 "//": lambda: x // y, "%": lambda: x % y, "<<": lambda: x << (y & 63),
                 ">>": lambda: x >> (y & 63), "&": lambda: x & y, "|": lambda: x | y,
                 "^": lambda: x ^ y}[sym]()
            return _literal(r, t)
        ca, cb = _cast(a, t), _cast(b, t)
        nonneg = a.nonneg and b.nonneg
        if fl:
            if sym in ("+", "-", "*"):
                return V("(%s %s %s)" % (ca, sym, cb), t)
            s = "f32" if t == "float32" else "f64"
            h = self.helper(("floordiv_" if sym == "//" else "mod_") + s)
            return V("%s(%s, %s)" % (h, ca, cb), t)
        u = t == "uint64"
        if sym in ("+", "*"):
            if u:
                return V("(%s %s %s)" % (ca, sym, cb), t, True)
            return V("((long)((unsigned long)%s %s (unsigned long)%s))" % (ca, sym, cb), t,
                     nonneg)
        if sym == "-":
            if u:
                return V("(%s - %s)" % (ca, cb), t, True)
            return V("((long)((unsigned long)%s - (unsigned long)%s))" % (ca, cb), t)
        if sym in ("//", "%"):
            if u:
                return V("%s(%s, %s)" % (self.helper("floordiv_u64" if sym == "//"
                                                     else "mod_u64"), ca, cb), t, True)
            if nonneg:  # no flooring to do; b == 0 still gives 0
                return V("(%s == 0 ? 0L : %s %s %s)" % (cb, ca, "/" if sym == "//" else "%",
                                                        cb), t, True)
            h = self.helper("floordiv_i64" if sym == "//" else "mod_i64")
            return V("%s(%s, %s)" % (h, ca, cb), t, sym == "%" and b.nonneg)
        if sym == "<<":
            if u:
                return V("(%s << (%s & 63))" % (ca, cb), t, True)
            return V("((long)((unsigned long)%s << (%s & 63)))" % (ca, cb), t)
        if sym == ">>":
            return V("(%s >> (%s & 63))" % (ca, cb), t, u or a.nonneg)
        return V("(%s %s %s)" % (ca, sym, cb), t,
                 u or (sym == "&" and (a.nonneg or b.nonneg)) or nonneg)

    def e_BoolOp(self, n):
        import ast
        vals = [self.expr(v) for v in n.values]
        if any(v.ty is None for v in vals):
            return UNKNOWN
        isand = isinstance(n.op, ast.And)
        if all(v.ty == "bool" for v in vals):
            return V("(" + (" && " if isand else " || ").join(v.code for v in vals) + ")",
                     "bool", True)
        # Python's value semantics: `a or b` is a if a is true, else b
        t = vals[0].ty
        for v in vals[1:]:
            if not _is_num(v.ty):
                raise self.err("and/or of %s" % self.tyname(v.ty), n)
            t = unify(t, v.ty)
        if not _is_num(t):
            raise self.err("and/or of %s" % self.tyname(t), n)
        code = _cast(vals[-1], t)
        for v in reversed(vals[:-1]):
            tmp = self.temp(t)
            x = V(tmp, t)
            code = "(%s = %s, %s ? %s : %s)" % (tmp, _cast(v, t), _truth(x),
                                                 code if isand else tmp,
                                                 tmp if isand else code)
        return V(code, t)

    _CMP = {"Eq": "==", "NotEq": "!=", "Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">="}

    def e_Compare(self, n):
        vals = [self.expr(n.left)] + [self.expr(c) for c in n.comparators]
        if any(v.ty is None for v in vals):
            return UNKNOWN
        parts = []
        pre = []
        for k, op in enumerate(n.ops):
            sym = self._CMP.get(type(op).__name__)
            if sym is None:
                raise self.unsupported(n, "the comparison '%s'" % type(op).__name__)
            a, b = vals[k], vals[k + 1]
            if a.ty == "tuple" and b.ty == "tuple" and sym in ("==", "!=") and \
                    all(_is_num(x.ty) for x in a.items + b.items):
                # tuples of numbers (a.shape == b.shape): equal when every item is
                if len(a.items) != len(b.items):
                    parts.append("true" if sym == "!=" else "false")
                    continue
                eq = " && ".join("(%s == %s)" % (_cast(x, self._cmp_type(x.ty, y.ty)),
                                                 _cast(y, self._cmp_type(x.ty, y.ty)))
                                 for x, y in zip(a.items, b.items)) or "true"
                parts.append("(%s)" % eq if sym == "==" else "(!(%s))" % eq)
                continue
            if not (_is_num(a.ty) and _is_num(b.ty)):
                raise self.err("cannot compare %s and %s" % (self.tyname(a.ty),
                                                             self.tyname(b.ty)), n)
            if k + 1 < len(vals) - 1 and b.const is None:
                # a middle operand of a chain is evaluated once (a < f(x) < c)
                tmp = self.temp(b.ty)
                pre.append("%s = %s" % (tmp, b.code))
                b = vals[k + 1] = V(tmp, b.ty, b.nonneg)
            t = self._cmp_type(a.ty, b.ty)
            parts.append("(%s %s %s)" % (_cast(a, t), sym, _cast(b, t)))
        code = " && ".join(parts)
        if pre:
            code = "(%s, %s)" % (", ".join(pre), code)
        elif len(parts) > 1:
            code = "(%s)" % code
        return V(code, "bool", True)

    @staticmethod
    def _cmp_type(a, b):
        if _is_float(a) or _is_float(b):
            return _np_promote(a, b) if a != "bool" and b != "bool" else \
                (a if _is_float(a) else b)
        if a == b:
            return a
        if a[0] == "u" and b[0] == "u":
            return "uint64"
        return "int64"

    def e_IfExp(self, n):
        c = self.expr(n.test)
        a = self.expr(n.body)
        b = self.expr(n.orelse)
        if c.ty is None or a.ty is None or b.ty is None:
            return UNKNOWN
        if not (_is_num(a.ty) and _is_num(b.ty)):
            if c.const is not None:
                return a if c.const else b
            if a.ty == "tuple" and b.ty == "tuple" and len(a.items) == len(b.items) and \
                    all(_is_num(x.ty) for x in a.items + b.items):
                # a tuple of conditional items, the test evaluated once before the statement
                tmp = self.temp("bool")
                self.emit("%s = %s;" % (tmp, self.truth(c, n.test)), n)
                out = []
                for x, y in zip(a.items, b.items):
                    t = unify(x.ty, y.ty)
                    out.append(V("(%s ? %s : %s)" % (tmp, _cast(x, t), _cast(y, t)), t,
                                 x.nonneg and y.nonneg))
                return _tuple(out)
            raise self.err("a conditional expression of %s and %s" % (self.tyname(a.ty),
                                                                     self.tyname(b.ty)), n)
        t = unify(a.ty, b.ty)
        return V("(%s ? %s : %s)" % (self.truth(c, n.test), _cast(a, t), _cast(b, t)), t,
                 a.nonneg and b.nonneg)

    # ---- calls

    def e_Call(self, n):
        fnv = self.expr(n.func)
        if fnv.ty is None:
            return UNKNOWN
        if fnv.ty != "static":
            raise self.err("%s is not callable" % self.tyname(fnv.ty), n)
        f = fnv.static
        from ._jitdispatch import Dispatcher
        if isinstance(f, Dispatcher):
            return self.call_device(f, n)
        if isinstance(f, Intrinsic):
            return self.call_intrinsic(f, n)
        np = sys.modules.get("numpy")
        if f is print:
            return self.call_print(n)
        if isinstance(f, type) and np is not None and issubclass(f, np.generic) or \
                type(f).__module__.startswith("numba") or f in (int, float, bool):
            return self.call_cast(f, n)
        if getattr(f, "__module__", None) == "math" or \
                (callable(f) and getattr(math, getattr(f, "__name__", ""), None) is f):
            return self.call_math(f.__name__, n)
        if np is not None and isinstance(f, np.ufunc) or f in (getattr(np, "abs", None),
                                                             getattr(np, "round", None)):
            return self.call_numpy(f, n)
        if f in (abs, min, max, round, len, range, pow):
            return getattr(self, "b_" + f.__name__)(n)
        raise self.err("call of '%s': kernels can call device functions "
                       "(@cuda.jit(device=True)), math and numpy functions on numbers, and "
                       "kcc.cuda's functions" % (getattr(f, "__name__", None) or
                                                 type(f).__name__), n)

    def args(self, n, lo, hi=None, names=()):
        """The call's arguments as Vs (keywords by `names`)."""
        hi = lo if hi is None else hi
        vals = [self.expr(a) for a in n.args]
        kw = {}
        for k in n.keywords:
            if k.arg not in names:
                raise self.err("unexpected keyword argument '%s'" % k.arg, n)
            kw[k.arg] = k.value
        for i, name in enumerate(names):
            if name in kw:
                if i < len(vals):
                    raise self.err("argument '%s' given twice" % name, n)
                while len(vals) < i:
                    vals.append(None)
                vals.append(self.expr(kw[name]))
        if not lo <= len(vals) <= hi or None in vals[:lo]:
            raise self.err("%s takes %s argument%s, got %d" % (
                self._callee_name(n), lo if lo == hi else "%d to %d" % (lo, hi),
                "" if hi == 1 else "s", len(vals)), n)
        return vals

    def _callee_name(self, n):
        import ast
        return ast.unparse(n.func) + "()"

    def numeric_arg(self, v, n):
        if v.ty is not None and not _is_num(v.ty):
            raise self.err("%s takes numbers, not %s" % (self._callee_name(n),
                                                         self.tyname(v.ty)), n)

    def call_cast(self, f, n):
        (v,) = self.args(n, 1)
        if v.ty is None:
            return UNKNOWN
        self.numeric_arg(v, n)
        if f is bool:
            return V(_truth(v), "bool", True)
        if f is int:
            t = "int64"
        elif f is float:
            t = _F()
        else:
            t = _dtype_name(f)
            if t is None:
                raise self.err("%s is not a kernel type" % f, n)
        if v.const is not None:
            return _literal(int(v.const) if _is_int(t) and not isinstance(v.const, float)
                            else (math.trunc(v.const) if _is_int(t) else v.const), t)
        # a non-negative integer stays so unless the cast can wrap it (np.int8(200))
        keeps = v.nonneg and _is_int(v.ty) and (
            _BITS[t] > _BITS[v.ty] or (_signed(v.ty) and _BITS[t] >= _BITS[v.ty]))
        return V(_cast(v, t), t, t == "bool" or t[0] == "u" or keeps or
                 (v.ty == "bool" and _is_int(t)))

    def _float_type(self, v):
        return v.ty if _is_float(v.ty) else _F()

    def _mathcall(self, cname, t, *vals):
        f = cname + ("f" if t == "float32" else "")
        return "%s(%s)" % (f, ", ".join(_cast(v, t) for v in vals))

    def call_math(self, name, n):
        if name in ("floor", "ceil", "trunc"):
            (v,) = self.args(n, 1)
            if v.ty is None:
                return UNKNOWN
            self.numeric_arg(v, n)
            if not _is_float(v.ty):
                return V(_cast(v, "int64"), "int64", v.nonneg)
            mode = {"floor": "rd", "ceil": "ru", "trunc": "rz"}[name]
            return V("__%s2ll_%s(%s)" % ("double" if v.ty == "float64" else "float", mode,
                                         v.code), "int64")
        if name in ("isnan", "isinf", "isfinite"):
            (v,) = self.args(n, 1)
            if v.ty is None:
                return UNKNOWN
            self.numeric_arg(v, n)
            if not _is_float(v.ty):
                return _literal(name == "isfinite", "bool")
            return V("((bool)%s(%s))" % (name, v.code), "bool", True)
        if name == "log":
            vals = self.args(n, 1, 2)
            if any(v.ty is None for v in vals):
                return UNKNOWN
            for v in vals:
                self.numeric_arg(v, n)
            t = self._float_type(vals[0])
            if len(vals) == 2:
                t = unify(t, self._float_type(vals[1]))
                return V("(%s / %s)" % (self._mathcall("log", t, vals[0]),
                                        self._mathcall("log", t, vals[1])), t)
            return V(self._mathcall("log", t, vals[0]), t)
        if name in ("degrees", "radians"):
            (v,) = self.args(n, 1)
            if v.ty is None:
                return UNKNOWN
            t = self._float_type(v)
            k = 180.0 / math.pi if name == "degrees" else math.pi / 180.0
            return V("(%s * %s)" % (_cast(v, t), _c_float(k, t)), t)
        if name == "gamma":
            name = "tgamma"
        if name in ("ldexp",):
            x, e = self.args(n, 2)
            if x.ty is None or e.ty is None:
                return UNKNOWN
            t = self._float_type(x)
            return V("(%s * %s)" % (_cast(x, t), self._mathcall("exp2", t, V(_cast(e, t), t))),
                     t)
        if name in _MATH1 or name == "tgamma" or name == "exp":
            (v,) = self.args(n, 1)
            if v.ty is None:
                return UNKNOWN
            self.numeric_arg(v, n)
            t = self._float_type(v)
            return V(self._mathcall(name, t, v), t, name in ("sqrt", "fabs", "exp", "exp2"))
        if name in _MATH2:
            a, b = self.args(n, 2)
            if a.ty is None or b.ty is None:
                return UNKNOWN
            self.numeric_arg(a, n)
            self.numeric_arg(b, n)
            t = unify(self._float_type(a), self._float_type(b))
            return V(self._mathcall(name, t, a, b), t)
        if name == "fma":
            vals = self.args(n, 3)
            if any(v.ty is None for v in vals):
                return UNKNOWN
            t = self._float_type(vals[0])
            return V(self._mathcall("fma", t, *vals), t)
        raise self.err("math.%s is not supported in kernels" % name, n)

    def call_numpy(self, f, n):
        np = _core._numpy()
        name = f.__name__ if hasattr(f, "__name__") else str(f)
        if f is np.abs or f is np.absolute:
            return self.b_abs(n)
        if name in ("minimum", "maximum", "fmin", "fmax"):
            a, b = self.args(n, 2)
            if a.ty is None or b.ty is None:
                return UNKNOWN
            t = unify(a.ty, b.ty)
            if _is_float(t):
                c = "fmin" if name in ("minimum", "fmin") else "fmax"
                return V(self._mathcall(c, t, a, b), t)
            return self._minmax(n, [a, b], name in ("minimum", "fmin"))
        if name in _NP1:
            (v,) = self.args(n, 1)
            if v.ty is None:
                return UNKNOWN
            self.numeric_arg(v, n)
            t = self._float_type(v)
            return V(self._mathcall(_NP1[name], t, v), t)
        if name in _NP2:
            a, b = self.args(n, 2)
            if a.ty is None or b.ty is None:
                return UNKNOWN
            t = unify(self._float_type(a), self._float_type(b))
            return V(self._mathcall(_NP2[name], t, a, b), t)
        if name in ("isnan", "isinf", "isfinite"):
            return self.call_math(name, n)
        raise self.err("numpy.%s is not supported in kernels" % name, n)

    def b_abs(self, n):
        (v,) = self.args(n, 1)
        if v.ty is None:
            return UNKNOWN
        self.numeric_arg(v, n)
        if _is_float(v.ty):
            return V(self._mathcall("fabs", v.ty, v), v.ty, True)
        if v.ty[0] == "u" or v.ty == "bool":
            return V(_cast(v, "int64") if v.ty == "bool" else v.code,
                     "int64" if v.ty == "bool" else v.ty, True)
        t = v.ty
        tmp = self.temp(t)
        # wrap-around negation (abs of the most negative value is itself, as in numba)
        return V("(%s = %s, %s < 0 ? (%s)(0UL - (unsigned long)%s) : %s)"
                 % (tmp, v.code, tmp, _CTYPE[t], tmp, tmp), t, True)

    def _minmax(self, n, vals, ismin):
        t = vals[0].ty
        for v in vals[1:]:
            t = unify(t, v.ty)
        if not _is_num(t):
            raise self.err("%s() takes numbers" % ("min" if ismin else "max"), n)
        code = None
        nonneg = all(v.nonneg for v in vals) if ismin else any(v.nonneg for v in vals)
        for v in vals:
            tmp = self.temp(t)
            if code is None:
                code = "(%s = %s)" % (tmp, _cast(v, t))
                continue
            # Python: the first of equal values wins; a later one only if strictly better
            res = self.temp(t)
            code = "(%s = %s, %s = %s, %s = %s %s %s ? %s : %s)" % (
                res, code, tmp, _cast(v, t), res, tmp, "<" if ismin else ">", res, tmp, res)
        return V(code, t, nonneg)

    def b_min(self, n):
        return self._b_minmax(n, True)

    def b_max(self, n):
        return self._b_minmax(n, False)

    def _b_minmax(self, n, ismin):
        if n.keywords:
            raise self.err("min()/max() take no keyword arguments in kernels", n)
        vals = [self.expr(a) for a in n.args]
        if any(v.ty is None for v in vals):
            return UNKNOWN
        if len(vals) == 1 and vals[0].ty == "tuple":
            vals = vals[0].items
        if len(vals) < 2:
            raise self.err("min()/max() take 2 or more numbers (or a tuple) in kernels", n)
        for v in vals:
            self.numeric_arg(v, n)
        return self._minmax(n, vals, ismin)

    def b_round(self, n):
        vals = self.args(n, 1, 2, ("x", "ndigits"))
        if any(v.ty is None for v in vals):
            return UNKNOWN
        v = vals[0]
        self.numeric_arg(v, n)
        if len(vals) == 1:
            if not _is_float(v.ty):
                return V(_cast(v, "int64"), "int64", v.nonneg)
            return V("__%s2ll_rn(%s)" % ("double" if v.ty == "float64" else "float", v.code),
                     "int64")
        d = vals[1]
        if d.const is None or not isinstance(d.const, int):
            raise self.err("round(x, ndigits) needs a constant ndigits in kernels", n)
        if not _is_float(v.ty):
            return v
        t = v.ty
        p = _c_float(10.0 ** abs(d.const), t)
        if d.const >= 0:
            return V("(%s(%s * %s) / %s)" % ("rintf" if t == "float32" else "rint", v.code,
                                             p, p), t)
        return V("(%s(%s / %s) * %s)" % ("rintf" if t == "float32" else "rint", v.code, p, p),
                 t)

    def b_pow(self, n):
        import ast
        a, b = self.args(n, 2)
        return self.binop(ast.Pow(), a, b, n)

    def b_len(self, n):
        (v,) = self.args(n, 1)
        if v.ty is None:
            return UNKNOWN
        if v.ty == "tuple":
            return _literal(len(v.items), "int64")
        if isinstance(v.ty, ArrayType):
            return V(v.arr.shape[0], "int64", True)
        raise self.err("len() of %s" % self.tyname(v.ty), n)

    def b_range(self, n):
        raise self.err("range() is for 'for' loops in kernels", n)

    def call_print(self, n):
        import ast
        sep, end = " ", "\n"
        for k in n.keywords:
            v = self.expr(k.value)
            if k.arg not in ("sep", "end") or not (v.ty == "static" and
                                                   isinstance(v.static, (str, type(None)))):
                raise self.err("print() in kernels takes sep= and end= strings, nothing else",
                               n)
            if v.static is not None:
                if k.arg == "sep":
                    sep = v.static
                else:
                    end = v.static
        fmt = []
        args = []
        for a in n.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                fmt.append(a.value.replace("%", "%%"))
                continue
            v = self.expr(a)
            if v.ty is None:
                return UNKNOWN
            vals = v.items if v.ty == "tuple" else [v]
            for x in vals:
                if x.ty == "static" and isinstance(x.static, str):
                    fmt.append(x.static.replace("%", "%%"))
                    continue
                if not _is_num(x.ty):
                    raise self.err("print() in kernels prints strings and numbers, not %s"
                                   % self.tyname(x.ty), n)
                t = x.ty
                if t in _PRINTF:
                    fmt.append(_PRINTF[t])
                    args.append(x.code)
                else:
                    fmt.append("%d")
                    args.append("(int)(%s)" % x.code)
        text = sep.replace("%", "%%").join(fmt) + end.replace("%", "%%")
        lit = _c_string(text)
        return self._void("printf(%s)" % ", ".join([lit] + args))

    def _void(self, code):
        v = V(code, "static")
        v.static = None
        return v

    # ---- kcc.cuda's functions

    def call_intrinsic(self, f, n):
        name = f._name
        if name in ("grid", "gridsize"):
            (d,) = self.args(n, 1)
            if d.const not in (1, 2, 3):
                raise self.err("cuda.%s() takes a constant 1, 2 or 3" % name, n)
            out = []
            for k in "xyz"[:d.const]:
                if name == "grid":
                    out.append(V("((long)blockIdx.%s * (long)blockDim.%s + (long)threadIdx.%s)"
                                 % (k, k, k), "int64", True))
                else:
                    out.append(V("((long)blockDim.%s * (long)gridDim.%s)" % (k, k), "int64",
                                 True))
            return out[0] if d.const == 1 else _tuple(out)
        if name in ("syncthreads", "threadfence", "threadfence_block", "threadfence_system"):
            self.args(n, 0)
            c = {"syncthreads": "__syncthreads()", "threadfence": "__threadfence()",
                 "threadfence_block": "__threadfence_block()",
                 "threadfence_system": "__threadfence_system()"}[name]
            return self._void(c)
        if name in ("syncthreads_count", "syncthreads_and", "syncthreads_or"):
            (p,) = self.args(n, 1)
            if p.ty is None:
                return UNKNOWN
            return V("((int)__%s(%s))" % (name, _truth(p)), "int32", True)
        if name == "syncwarp":
            vals = self.args(n, 0, 1, ("mask",))
            return self._void("__syncwarp(%s)" % (_cast(vals[0], "uint32") if vals else ""))
        if name in ("shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"):
            m, v, l = self.args(n, 3)
            if v.ty is None or m.ty is None or l.ty is None:
                return UNKNOWN
            t = v.ty
            vt = {"bool": "int32", "int8": "int32", "int16": "int32", "uint8": "uint32",
                  "uint16": "uint32"}.get(t, t)
            c = "__%s(%s, %s, %s)" % (name, _cast(m, "uint32"), _cast(v, vt),
                                      _cast(l, "int32" if name == "shfl_sync" else "uint32"))
            return V(c if vt == t else "((%s)%s)" % (_CTYPE[t], c), t)
        if name in ("all_sync", "any_sync"):
            m, p = self.args(n, 2)
            if p.ty is None or m.ty is None:
                return UNKNOWN
            return V("(__%s(%s, %s) != 0)" % (name, _cast(m, "uint32"), _truth(p)), "bool",
                     True)
        if name == "ballot_sync":
            m, p = self.args(n, 2)
            if p.ty is None or m.ty is None:
                return UNKNOWN
            return V("__ballot_sync(%s, %s)" % (_cast(m, "uint32"), _truth(p)), "uint32", True)
        if name == "activemask":
            self.args(n, 0)
            return V("__activemask()", "uint32", True)
        if name == "lanemask_lt":  # the lanes below this one
            self.args(n, 0)
            lane = self.intrinsic_value(INTRINSICS["laneid"], n)
            return V("((1U << %s) - 1U)" % lane.code, "uint32", True)
        if name == "match_any_sync":
            m, v = self.args(n, 2)
            if m.ty is None or v.ty is None:
                return UNKNOWN
            if not (_is_int(v.ty) or _is_float(v.ty)):
                raise self.err("cuda.match_any_sync() takes a number", n)
            vt = v.ty if _BITS[v.ty] >= 32 else ("int32" if _signed(v.ty) else "uint32")
            return V("__match_any_sync(%s, %s)" % (_cast(m, "uint32"), _cast(v, vt)), "uint32",
                     True)
        if name in ("popc", "clz", "ffs", "brev"):
            (v,) = self.args(n, 1)
            if v.ty is None:
                return UNKNOWN
            if not _is_int(v.ty):
                raise self.err("cuda.%s() takes an integer" % name, n)
            wide = _BITS[v.ty] == 64
            fn = "__%s%s" % (name, "ll" if wide else "")
            if name == "brev":
                t = "uint64" if wide else "uint32"
                return V("%s(%s)" % (fn, _cast(v, t)), t, True)
            return V("((int)%s(%s))" % (fn, _cast(v, "int64" if wide else "int32")), "int32",
                     True)
        if name == "fma":
            vals = self.args(n, 3)
            if any(v.ty is None for v in vals):
                return UNKNOWN
            t = vals[0].ty if _is_float(vals[0].ty) else _F()
            return V(self._mathcall("fma", t, *vals), t)
        if name == "cbrt":
            (v,) = self.args(n, 1)
            if v.ty is None:
                return UNKNOWN
            t = self._float_type(v)
            return V(self._mathcall("cbrt", t, v), t)
        if name in ("shared.array", "local.array"):
            return self.new_array(name.split(".")[0], n)
        if name == "const.array_like":
            (a,) = self.args(n, 1)
            if a.ty is None:
                return UNKNOWN
            if not (isinstance(a.ty, ArrayType) and a.arr.space == "constant"):
                raise self.err("cuda.const.array_like() takes a global numpy array", n)
            return a
        if name.startswith("atomic."):
            return self.call_atomic(name[7:], n)
        v = self.intrinsic_value(f, n)
        if v is not None:
            raise self.err("cuda.%s is not a function" % name, n)
        raise self.err("cuda.%s is not supported in kernels" % name, n)

    def new_array(self, space, n):
        import ast
        args = list(n.args)
        kw = {k.arg: k.value for k in n.keywords}
        for k in kw:
            if k not in ("shape", "dtype"):
                raise self.err("unexpected keyword argument '%s'" % k, n)
        shape_n = args[0] if args else kw.get("shape")
        dtype_n = args[1] if len(args) > 1 else kw.get("dtype")
        if shape_n is None or dtype_n is None:
            raise self.err("cuda.%s.array(shape, dtype)" % space, n)
        shape = self.expr(shape_n)
        dims = shape.items if shape.ty == "tuple" else [shape]
        if any(d.const is None or not isinstance(d.const, int) or isinstance(d.const, bool)
               for d in dims):
            raise self.err("cuda.%s.array's shape must be a constant integer or a tuple of "
                           "them (a literal, or a global or closure variable)" % space,
                           shape_n)
        dv = self.expr(dtype_n)
        dt = _dtype_name(dv.static) if dv.ty == "static" else None
        if dt is None:
            raise self.err("cuda.%s.array's dtype must be a numeric type such as "
                           "numpy.float32, not '%s'" % (space, ast.unparse(dtype_n)), dtype_n)
        dims = [d.const for d in dims]
        key = id(n)
        if key in self.hoisted:
            return self.hoisted[key]
        if space == "shared" and len(dims) == 1 and dims[0] == 0:
            self.uses_dyn = True  # its size: the kernel's hidden kj_dynsmem, passed down
            name = self.ctx.dyn.get(dt)
            if name is None:
                name = self.ctx.dyn[dt] = "kj_dyn_%s" % dt
            info = ArrInfo(name, ["(kj_dynsmem / (long)sizeof(%s))" % _CTYPE[dt]], dt,
                           "shared")
            v = self.hoisted[key] = _arr(info)
            return v
        if any(d <= 0 for d in dims):
            raise self.err("cuda.%s.array's shape must be positive" % space, shape_n)
        total = 1
        for d in dims:
            total *= d
        cname = "kj_%s%d" % (space[0], len(self.hoisted) + 1)
        self.decls.append(("    %s%s %s[%d];" % ("shared " if space == "shared" else "",
                                                 _CTYPE[dt], cname, total), (self.file, n.lineno)))
        info = ArrInfo(cname, ["%dL" % d for d in dims], dt, space)
        v = self.hoisted[key] = _arr(info)
        return v

    _ATOMIC_C = {"add": "atomicAdd", "sub": "atomicSub", "max": "atomicMax",
                 "min": "atomicMin", "exch": "atomicExch", "and_": "atomicAnd",
                 "or_": "atomicOr", "xor": "atomicXor", "inc": "atomicInc",
                 "dec": "atomicDec"}

    def call_atomic(self, op, n):
        if op == "cas":
            vals = self.args(n, 4)
        else:
            vals = self.args(n, 3)
        if any(v.ty is None for v in vals):
            return UNKNOWN
        arr = vals[0]
        if not isinstance(arr.ty, ArrayType):
            raise self.err("cuda.atomic.%s's first argument is an array, not %s"
                           % (op, self.tyname(arr.ty)), n)
        if arr.arr.space == "constant":
            raise self.err("cuda.atomic.%s on a constant array" % op, n)
        idx = vals[1]
        idx_n = n.args[1]
        off = self._offset_of_value(arr, idx, idx_n)
        dt = arr.arr.dtype
        p = "&%s[%s]" % (arr.arr.base, off)
        arr.arr.root.written = True
        ok32 = ("int32", "uint32", "int64", "uint64")
        if op in ("inc", "dec"):
            if dt != "uint32":
                raise self.err("cuda.atomic.%s works on uint32 arrays (this one holds %s)"
                               % (op, dt), n)
        elif op in ("and_", "or_", "xor", "cas"):
            if dt not in ok32:
                raise self.err("cuda.atomic.%s works on arrays of 32- and 64-bit integers "
                               "(this one holds %s)" % (op, dt), n)
        elif op in ("add", "sub", "max", "min", "exch"):
            if dt not in ok32 + ("float32", "float64") or (op == "exch" and dt == "float64"):
                raise self.err("cuda.atomic.%s does not work on arrays of %s" % (op, dt), n)
        if op == "cas":
            return V("atomicCAS(%s, %s, %s)" % (p, _cast(vals[2], dt), _cast(vals[3], dt)), dt)
        v = vals[2]
        self.numeric_arg(v, n)
        if _is_float(dt):
            s = "f32" if dt == "float32" else "f64"
            if op == "sub":
                return V("atomicAdd(%s, -%s)" % (p, _cast(v, dt)), dt)
            if op in ("max", "min"):
                return V("%s(%s, %s)" % (self.helper("atomic_%s_%s" % (op, s)), p,
                                         _cast(v, dt)), dt)
        return V("%s(%s, %s)" % (self._ATOMIC_C[op], p, _cast(v, dt)), dt, dt[0] == "u")

    def _index_term(self, it, info, k, node):
        """Index value `it` of dimension k as its part of the element offset: checked to be an
        integer, a possibly negative one wrapped as Python's, times the dimension's stride."""
        if not (_is_int(it.ty) or it.ty == "bool"):
            raise self.err("array indices must be integers, not %s" % self.tyname(it.ty), node)
        c = "(long)(%s)" % it.code
        if not it.nonneg:
            c = "%s(%s, %s)" % (self.helper("wrap"), c, info.shape[k])
        return _mul(c, info.strides[k])

    def _offset_of_value(self, arr, idx, node):
        """The offset of arr[idx] for an index given as a value (atomics)."""
        info = arr.arr
        items = idx.items if idx.ty == "tuple" else [idx]
        if len(items) != len(info.shape):
            raise self.err("the index has %d component%s, the array %d dimension%s"
                           % (len(items), "" if len(items) == 1 else "s", len(info.shape),
                              "" if len(info.shape) == 1 else "s"), node)
        codes = []
        for k, it in enumerate(items):
            codes.append(self._index_term(it, info, k, node))
        if info.off != "0":
            codes.insert(0, info.off)
        return " + ".join(codes)

    # ---- device functions

    def call_device(self, disp, n):
        if not disp._device:
            raise self.err("'%s' is a kernel; kernels cannot call kernels (make it "
                           "@cuda.jit(device=True))" % disp.__name__, n)
        pf = disp._pyfunc()
        vals = [self.expr(a) for a in n.args]
        kw = {k.arg: k.value for k in n.keywords}
        for k in kw:
            if k not in pf.params:
                raise self.err("%s() got an unexpected keyword argument '%s'"
                               % (pf.name, k), n)
        for i in range(len(vals), len(pf.params)):
            p = pf.params[i]
            if p in kw:
                vals.append(self.expr(kw[p]))
            elif pf.defaults[i] is not None:
                import ast
                d = pf.defaults[i]
                if not isinstance(d, ast.Constant):
                    raise self.err("default values of device functions must be constants",
                                   d)
                vals.append(self.from_python(d.value, d))
            else:
                raise self.err("%s() missing argument '%s'" % (pf.name, p), n)
        if len(vals) > len(pf.params):
            raise self.err("%s() takes %d arguments, got %d" % (pf.name, len(pf.params),
                                                                len(vals)), n)
        if any(v.ty is None for v in vals):
            return UNKNOWN
        types = []
        for v, a in zip(vals, n.args + [None] * len(vals)):
            if isinstance(v.ty, ArrayType):
                types.append(ArrayType(v.arr.dtype, len(v.arr.shape)))
            elif _is_num(v.ty):
                types.append(v.ty)
            else:
                raise self.err("device functions take numbers and arrays, not %s"
                               % self.tyname(v.ty), n)
        key = (disp, tuple(types))
        r = self.ctx.devfuncs.get(key)
        if r is None:
            if key in self.ctx.stack:
                raise self.err("recursion (%s calls itself): kernels cannot recurse"
                               % pf.name, n)
            self.ctx.stack.append(key)
            try:
                t = Translator(pf, types, self.ctx, False,
                               self.ctx.fresh("kjd_" + _mangle(pf.name)))
                r = t.translate()
            finally:
                self.ctx.stack.pop()
            self.ctx.devfuncs[key] = r
        if self.final:
            self.deps.append(key)
        args = []
        for v, w in zip(vals, r.written):
            if isinstance(v.ty, ArrayType):
                if w:
                    if v.arr.space == "constant":
                        raise self.err("a constant array cannot be written (by %s)"
                                       % pf.name, n)
                    v.arr.root.written = True
                args.append(v.arr.ptr)
                args.extend(v.arr.shape)
                args.extend(v.arr.strides)
            else:
                args.append(v.code)
        if r.uses_dyn:
            args.append("kj_dynsmem")
            self.uses_dyn = True
        code = "%s(%s)" % (r.cname, ", ".join(args))
        if r.ret is None:
            return self._void(code)
        if isinstance(r.ret, tuple):
            sname = self.ctx.tuple_struct(r.ret)
            self.temps += 1
            tmp = "kj_t%d" % self.temps
            self.decls.append(("    %s %s;" % (sname, tmp), None))
            self.emit("%s = %s;" % (tmp, code), n)
            return _tuple(V("%s.f%d" % (tmp, k), t, t[0] == "u" or t == "bool")
                          for k, t in enumerate(r.ret))
        return V(code, r.ret, r.ret[0] == "u" or r.ret == "bool")


def translate_kernel(pyfunc, argtypes, fp32=False):
    _state.fp32 = fp32
    try:
        return _translate_kernel(pyfunc, argtypes, fp32)
    finally:
        _state.fp32 = False


def _translate_kernel(pyfunc, argtypes, fp32):
    """The C source of the kernel for these argument types, its name, the written flags of
    its array parameters, whether it takes the dynamic shared size, and the line map
    (C line number -> Python line)."""
    ctx = ModuleCtx()
    cname = "kjit_" + _mangle(pyfunc.name)
    t = Translator(pyfunc, argtypes, ctx, True, cname)
    r = t.translate()
    # No file name or line in the C: the cache entry serves the same function wherever its
    # file is (a copy on another machine) and whatever lines moved above it.
    out = [("// kcc.jit: %s for (%s)%s" % (pyfunc.name, ", ".join(map(str, argtypes)),
                                           ", fp32" if fp32 else ""), None),
           ("#include <math.h>", None), ("#include <stdbool.h>", None)]
    for h in _HELPER_ORDER:
        if h in ctx.helpers:
            out += [(line, None) for line in _HELPERS[h].split("\n")]
    for types, name in ctx.tuples.items():
        out.append(("typedef struct { %s } %s;" % (" ".join(
            "%s f%d;" % (_CTYPE[t], k) for k, t in enumerate(types)), name), None))
    for dt, name in sorted(ctx.dyn.items()):
        out.append(("extern shared %s %s[];" % (_CTYPE[dt], name), None))
    for cname_, decl, _ in ctx.consts.values():
        out.append((decl, None))
    done = set()

    def emit_dev(key):
        if key in done:
            return
        done.add(key)
        d = ctx.devfuncs[key]
        for k in d.deps:
            emit_dev(k)
        out.extend(d.lines)
    for k in r.deps:
        emit_dev(k)
    out.extend(r.lines)
    text = "\n".join(line for line, _ in out) + "\n"
    linemap = {i + 1: ln for i, (_, ln) in enumerate(out) if ln is not None}
    return text, cname, r.written, t.uses_dyn, linemap
