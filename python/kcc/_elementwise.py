"""Expression kernels, CuPy's ElementwiseKernel and ReductionKernel (docs/python.md, "From CuPy
and PyOpenCL"): a body of kcc C around which kcc writes the kernel — parameter types resolved
from the arguments, NumPy broadcasting, a grid-stride loop, strided or contiguous access, and
for reductions a two-stage tree in shared memory. The kernels are generated kcc C compiled by
kcc.compile, so they run on every device kcc runs on, and are cached on disk as any compile
is, and in memory per (types, dimensions, layout, device).
"""
import math
import threading

from . import _core

# numpy dtype name -> the kcc C type of an element.
_CTYPES = {
    "bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short",
    "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int", "int64": "long",
    "uint64": "unsigned long", "float32": "float", "float64": "double",
}
# float16 is not among them: kcc C has no half type yet (OpenCL C's `half` is for .cl sources).
_BLOCK = 256
_UNROLL = 4  # a reduction thread's elements per iteration (_source)
# A long reduction's blocks: a large GPU's worth of threads reading (an H100 or H200 holds
# 132 x 8 blocks of 256), which the memory's bandwidth needs. The same on every device, so a
# reduction adds in the same order, and gives the same bits, wherever it runs (and one
# compiled bundle serves every device: tests/gpu carries a cache filled on a CPU device).
_BLOCKS_ALL = 1024
# What every generated source starts with: identities such as INFINITY, INT_MIN or FLT_MAX,
# and bool, mean in a kernel body what they mean in CuPy's.
_HEADERS = "#include <math.h>\n#include <limits.h>\n#include <float.h>\n#include <stdbool.h>\n"


def _is_word(w):
    """A C identifier (ASCII letters, digits, _; not starting with a digit). Not a regular
    expression: `re` would add its import to kcc's (docs/python.md: import loads nothing)."""
    return w.isidentifier() and w.isascii()


def _ctype(dtype):
    np = _core._numpy()
    name = np.dtype(dtype).name
    t = _CTYPES.get(name)
    if t is None:
        raise TypeError("expression kernels take arrays of bool, integer and float types "
                        "(float32, float64), not %s%s" % (name, " (kcc C has no half type "
                                                          "yet)" if name == "float16" else ""))
    return t


class _Param:
    """One parameter of a parameter list: `[raw] TYPE NAME`, TYPE a numpy dtype name or a type
    placeholder (any other name, resolved from the arguments)."""

    def __init__(self, text, what):
        words = text.split()
        self.raw = bool(words) and words[0] == "raw"
        if self.raw:
            words = words[1:]
        if len(words) != 2 or not all(_is_word(w) for w in words):
            raise ValueError("%s: '%s' is not a parameter: write '[raw] TYPE NAME', TYPE a "
                             "numpy dtype name (float32, int64...) or a type placeholder (T)"
                             % (what, text.strip()))
        self.type, self.name = words
        np = _core._numpy()
        try:
            self.dtype = np.dtype(self.type) if self.type in _CTYPES else None
        except TypeError:
            self.dtype = None

    def __repr__(self):
        return "%s%s %s" % ("raw " if self.raw else "", self.type, self.name)


def _params(spec, what):
    if not isinstance(spec, str):
        raise TypeError("%s: the parameters are a string ('float32 x, T y'), not %s"
                        % (what, type(spec).__name__))
    ps = [_Param(p, what) for p in spec.split(",") if p.strip()]
    seen = set()
    for p in ps:
        if p.name in seen:
            raise ValueError("%s: parameter '%s' is named twice" % (what, p.name))
        if p.name in ("i", "_n") or p.name.startswith("_kcc"):
            raise ValueError("%s: '%s' is the kernel's own name (i: the element's index, _n: "
                             "the number of elements, _kcc...: kcc's); name the parameter "
                             "otherwise" % (what, p.name))
        seen.add(p.name)
    return ps


def _scalar(a, dt):
    """A scalar argument as its parameter's type (a bool as Python's: kernels' bool
    parameters take Python bools and ints, not numpy.bool_)."""
    v = _core._numpy().asarray(a, dt)[()]
    return bool(v) if dt.kind == "b" else v


def _is_array(a):
    return isinstance(a, _core.DeviceArray) or _core._is_ndarray(a)


def _bind_types(params, args, what):
    """{placeholder: dtype} from the arguments: arrays bind first, then scalars (a Python int
    is int64, a float float64, as numpy's default dtypes), as CuPy resolves them."""
    np = _core._numpy()
    types = {}
    for scalars in (False, True):
        for p, a in zip(params, args):
            if a is None or p.dtype is not None or p.type in types:
                continue
            if _is_array(a) and not scalars:
                types[p.type] = np.dtype(a.dtype)
            elif scalars and not _is_array(a):
                types[p.type] = np.result_type(a) if isinstance(a, np.generic) else \
                    np.dtype(np.bool_ if isinstance(a, bool) else
                             np.int64 if isinstance(a, int) else np.float64)
    return types


def _dtype_of(p, types, what):
    if p.dtype is not None:
        return p.dtype
    if p.type not in types:
        raise TypeError("%s: the type of '%s' (%s) cannot be told from the arguments: pass an "
                        "array for a parameter of type %s" % (what, p.name, p.type, p.type))
    return types[p.type]


def _broadcast_shape(shapes, what):
    np = _core._numpy()
    try:
        return tuple(np.broadcast_shapes(*shapes)) if shapes else ()
    except ValueError:
        raise ValueError("%s: shapes %s cannot be broadcast together"
                         % (what, ", ".join(str(s) for s in shapes))) from None


def _strides(a, out_shape):
    """Element strides of array `a` (a device array, any layout) read at the indices of
    `out_shape` (NumPy broadcasting: missing leading dimensions and dimensions of 1 have
    stride 0)."""
    st = [0 if n == 1 else k for n, k in zip(a.shape, a._st)]
    return [0] * (len(out_shape) - len(a.shape)) + st


def _merge_dims(shape, strides):
    """(shape, [strides of each array]) with dimensions of length 1 dropped and neighbours
    that every array steps through alike merged (CuPy's reduce_dims): fewer dimensions, fewer
    kernels to compile, less index arithmetic. Arrays indexed by the flat index are unaffected:
    merging keeps C order."""
    dims = [(n, [st[k] for st in strides]) for k, n in enumerate(shape) if n != 1]
    out = []
    for n, sts in dims:
        if out and all(p == q * n for p, q in zip(out[-1][1], sts)):
            out[-1] = (out[-1][0] * n, sts)
        else:
            out.append((n, sts))
    return [n for n, _ in out], [[sts[j] for _, sts in out] for j in range(len(strides))]


class _Compiled:
    """Kernels made from one definition, per key, compiled once (under a lock)."""

    def __init__(self):
        self._kernels = {}
        self._lock = threading.Lock()

    def kernel(self, key, source, name, options, kernel=None):
        """Kernel `kernel` (default: `name`) of `source` (a str, or a function making it,
        called only when the kernel is not made yet), compiled as NAME.k."""
        kernel = kernel or name
        dev = _core.get_device()
        k = self._kernels.get((key, kernel, dev))
        if k is None:
            with self._lock:
                k = self._kernels.get((key, kernel, dev))
                if k is None:
                    m = self._kernels.get((key, None, dev))
                    if m is None:
                        m = self._kernels[(key, None, dev)] = _core.compile(
                            source if isinstance(source, str) else source(), options,
                            name="%s.k" % name)
                    k = self._kernels[(key, kernel, dev)] = m.get_kernel(kernel)
        return k


def _to_device(a, dtype, what):
    """A device array holding `a` (numpy: copied; a kcc array of another dtype: an error)."""
    np = _core._numpy()
    if isinstance(a, _core.DeviceArray):
        if a.dtype != dtype:
            raise TypeError("%s: a %s array where the kernel takes %s (convert it with "
                            "kcc.to_device(a.copy_to_host().astype(...)))"
                            % (what, a.dtype, dtype))
        a._alive(what)
        return a
    return _core.to_device(np.asarray(a, dtype=dtype, order="C"))  # 0-d stays 0-d


def _outputs(out_params, given, dtypes, shape, what):
    """The output arrays: allocated in `shape`, or the caller's (checked; a numpy one is
    replaced by a device copy, listed in host_outs to get the results back)."""
    outs, host_outs = [], []
    for p, a, dt in zip(out_params, given, dtypes):
        if a is None:
            a = _core.DeviceArray(shape, dt)
        elif not p.raw and tuple(a.shape) != shape:
            raise ValueError("%s: output '%s' has shape %s; the result's is %s"
                             % (what, p.name, tuple(a.shape), shape))
        if _core._is_ndarray(a):
            d = _to_device(a, dt, what)
            host_outs.append((a, d))
            a = d
        outs.append(a)
    return outs, host_outs


def _results(outs, host_outs, single):
    """What a call returns: each output (a numpy output as itself, its results copied back),
    the only one alone when `single`."""
    back = {id(d): host for host, d in host_outs}
    for host, d in host_outs:
        d.copy_to_host(host)
    results = [back.get(id(d), d) for d in outs]
    return results[0] if single and len(results) == 1 else tuple(results)


def _index_code(ndim, arrays):
    """C statements computing each array's element offset `_kcc_o_NAME` from the flat index i
    over the loop's shape (parameters _kcc_shapeK, and _kcc_off_NAME, _kcc_sK_NAME for the
    array's first element and strides)."""
    if not arrays:
        return ""
    lines = ["long _kcc_r = i;"]
    for a in arrays:
        lines.append("long _kcc_o_%s = _kcc_off_%s;" % (a, a))
    for k in reversed(range(ndim)):
        lines.append("{ long _kcc_c = _kcc_r %% _kcc_shape%d; _kcc_r /= _kcc_shape%d;" % (k, k))
        for a in arrays:
            lines.append("  _kcc_o_%s += _kcc_c * _kcc_s%d_%s;" % (a, k, a))
        lines.append("}")
    return "\n        ".join(lines)


def _contiguous_for(d, shape, what, p, is_out):
    """A device array a kernel can take by its buffer for raw parameter `p`: `d` itself when
    it is whole, an input's contiguous copy, an output's view refused."""
    if d._whole:
        return d
    if is_out:
        raise ValueError("%s: raw output '%s' is a strided view or at an offset; pass a "
                         "contiguous array" % (what, p.name))
    return _copy(d)


def _owner(a):
    """The array owning a device array's buffer (a view's base), what a kernel is passed."""
    return a.base if isinstance(a, _core.DeviceArray) and a.base is not None else a


def _copy(a):
    """A new C-contiguous device array with the values of `a` (any layout)."""
    d = _core.DeviceArray(a.shape, a.dtype)
    _assign(d, a)
    return d


_ASSIGN = {}


def _assign(dst, src):
    """dst[...] = src for device arrays of one dtype (src broadcast to dst's shape), any
    layouts; when both are contiguous a buffer copy. src must not overlap dst unless equal."""
    if dst.size == 0:
        return dst
    if src.dtype != dst.dtype:
        raise TypeError("_assign: %s into %s" % (src.dtype, dst.dtype))
    if dst._contiguous and src._contiguous and tuple(src.shape) == tuple(dst.shape):
        _core._check(_core.N.kcrt().kcrt_buffer_copy(
            dst._buf, dst._off * dst.itemsize, src._buf, src._off * src.itemsize, dst.nbytes))
        return dst
    k = _ASSIGN.get(dst.dtype.name)
    if k is None:
        k = _ASSIGN[dst.dtype.name] = ElementwiseKernel(
            "%s x" % dst.dtype.name, "%s z" % dst.dtype.name, "z = x", "kcc_copy")
    k(src, dst)
    return dst


# ---------------------------------------------------------------- launch plans
# A small operation's host cost is what Python does before the launch: binding types,
# broadcasting, merging dimensions, checking outputs, finding the kernel. All of it depends
# only on the arguments' types, shapes and layouts and the device, so an ElementwiseKernel
# keeps, per such key, a plan: the launch configuration, the outputs to allocate and where
# each launch argument comes from. A call whose key has a plan then allocates its outputs,
# gathers the launch arguments and launches.

_ARRAY_TYPES = ()  # DeviceArray and its view class (set at the end of this module)
_PLANS_MAX = 256  # per kernel: a program cycling through more shapes starts over


def _plan_key(args):
    """The arguments' types, shapes and layouts, or None when a plan cannot serve them
    (numpy arrays: copied to the device first; None; a freed array: its error is raised by
    the full path)."""
    dev, np = _core._current, _core._np
    if dev is None or np is None:
        return None
    key = [dev]
    for a in args:
        t = type(a)
        if t in _ARRAY_TYPES:
            o = a.base if a.base is not None else a
            if o._buf is None:
                return None
            key.append((a.dtype, a.shape, a._st, a._off == 0))
        elif t is float or t is int or t is bool or isinstance(a, np.generic):
            key.append(t)
        else:
            return None
    return tuple(key)


def _plan_scalar(a, dt):
    """A scalar argument for a launch as _scalar makes it, as a Python number where that is
    exact (the C launch path converts those without Python)."""
    if type(a) is dt.type:
        return a.item()
    v = _scalar(a, dt)
    return v if dt.kind == "b" else v.item()



class ElementwiseKernel:
    """kcc.ElementwiseKernel(in_params, out_params, operation, name='kernel', preamble='',
    options=(), reduce_dims=True): CuPy's. `operation` is kcc C run once per element, where
    each parameter's name is its element (a `raw` one is the whole array, indexed with the
    flat index `i`). Called with the inputs and optionally the outputs (allocated when left
    out, in the broadcast shape; `size=n` when no input array gives one); returns the output,
    or a tuple of them. CuPy's `_ind.size()`, `_ind.ndim` and `_ind.get()` (the element's
    index along each dimension of the broadcast shape) work in `operation`. reduce_dims is
    accepted for CuPy's signature; kcc merges dimensions where it can unless `_ind.get()` is
    used."""

    def __init__(self, in_params, out_params, operation, name="kernel", preamble="",
                 options=(), reduce_dims=True, no_return=False, return_tuple=False):
        what = "ElementwiseKernel %s" % name
        if not isinstance(name, str) or not _is_word(name):
            raise ValueError("ElementwiseKernel: name %r is not a C identifier" % (name,))
        self.name = name
        self.in_params = _params(in_params, what)
        self.out_params = _params(out_params, what)
        if not isinstance(operation, str):
            raise TypeError("%s: operation is kcc C source (a str)" % what)
        names = [p.name for p in self.in_params + self.out_params]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError("%s: %s is both an input and an output" % (what, sorted(dup)[0]))
        # CuPy's index object: _ind.size() (the loop's length), _ind.ndim and _ind.get() (the
        # element's index along each dimension of the broadcast shape, a const long *).
        rest = operation
        for spelled, c in (("_ind.size()", "_n"), ("_ind.ndim", "_kcc_ndim"),
                           ("_ind.get()", "((const long *)_kcc_idx)")):
            rest = rest.replace(spelled, c)
        self._uses_ind = rest != operation
        self._uses_idx = "_kcc_idx" in rest
        if "_ind" in rest.replace("_kcc_ind", ""):
            raise ValueError("%s: _ind, CuPy's index, supports _ind.size(), _ind.ndim and "
                             "_ind.get() (the element's index along each dimension)" % what)
        self.operation = rest
        self.preamble = preamble
        self.options = tuple(options)
        self.no_return = no_return
        self.return_tuple = return_tuple
        self._compiled = _Compiled()
        self._plans = {}  # _plan_key -> plan (_make_plan)

    def __repr__(self):
        return "<kcc.ElementwiseKernel %s(%s) -> (%s)>" % (
            self.name, ", ".join(map(repr, self.in_params)),
            ", ".join(map(repr, self.out_params)))

    def __call__(self, *args, size=None, block_size=None):
        key = None
        if size is None and block_size is None:
            key = _plan_key(args)
            plan = self._plans.get(key)
            if plan is not None:
                return self._run_plan(plan, args)
        what = "ElementwiseKernel %s" % self.name
        nin, nout = len(self.in_params), len(self.out_params)
        nargs = len(args)
        if len(args) not in (nin, nin + nout):
            raise TypeError("%s takes %d inputs%s, not %d arguments"
                            % (what, nin, " (and optionally %d outputs)" % nout if nout else "",
                               len(args)))
        params = self.in_params + self.out_params
        args = list(args) + [None] * (nin + nout - len(args))
        for p, a in zip(params, args):
            if p.raw and a is not None and not _is_array(a):
                raise TypeError("%s: raw parameter '%s' takes an array, not %s"
                                % (what, p.name, type(a).__name__))
        types = _bind_types(params, args, what)
        dtypes = [_dtype_of(p, types, what) for p in params]
        # The loop's shape: the inputs' broadcast; without input arrays, the outputs' shape.
        shapes = [tuple(a.shape) for p, a in zip(self.in_params, args) if not p.raw and
                  _is_array(a)] or [tuple(a.shape) for p, a in zip(self.out_params, args[nin:])
                                    if not p.raw and _is_array(a)][:1]
        shape = _broadcast_shape(shapes, what)
        if size is not None:
            if shapes:
                raise ValueError("%s: size= is for kernels whose arguments give no shape; "
                                 "these give %s" % (what, shape))
            if isinstance(size, bool) or not isinstance(size, int) or size < 0:
                raise ValueError("%s: size must be a non-negative int, not %r" % (what, size))
            shape = (size,)
        elif not shapes:
            raise ValueError("%s: no argument is an array: give the loop's size with size=n"
                             % what)
        n = math.prod(shape)
        outs, host_outs = _outputs(self.out_params, args[nin:], dtypes[nin:], shape, what)
        args[nin:] = outs
        # Every array on the device; scalars converted to their parameter's type.
        dev_args, kparams, strided, arrays = [], [], [], []
        for p, a, dt in zip(params, args, dtypes):
            ct = _ctype(dt)
            if _is_array(a):
                d = _to_device(a, dt, what)
                if p.raw:
                    d = _contiguous_for(d, shape, what, p, p in self.out_params)
                dev_args.append(d)
                const = "" if p in self.out_params else "const "
                kparams.append("%s%s *_kcc_p_%s" % (const, ct, p.name))
                if not p.raw:
                    arrays.append((p, d))
            else:
                if p in self.out_params:
                    raise TypeError("%s: output '%s' must be an array" % (what, p.name))
                dev_args.append(_scalar(a, dt))
                kparams.append("%s %s" % (ct, p.name))
        # Arrays of the loop's shape in C order from their first element are indexed by i;
        # the others through their strides, over the loop's dimensions merged where the
        # strides allow.
        strided = [(p, d) for p, d in arrays if tuple(d.shape) != shape or not d._whole]
        if self._uses_idx:  # the element's index along the broadcast shape's dimensions
            dims, sts = list(shape), [_strides(d, shape) for _, d in strided]
            ndim = len(shape)
        else:
            dims, sts = _merge_dims(shape, [_strides(d, shape) for _, d in strided])
            ndim = len(dims) if strided else 0
        extra = []
        if strided or self._uses_idx:
            extra += ["long _kcc_shape%d" % k for k in range(ndim)]
            for p, d in strided:
                extra += ["long _kcc_off_%s" % p.name]
                extra += ["long _kcc_s%d_%s" % (k, p.name) for k in range(ndim)]
        pkey, key = key, (tuple(str(dt) for dt in dtypes), tuple(_is_array(a) for a in args),
                          ndim, tuple(p.name for p, _ in strided),
                          len(shape) if self._uses_ind else None)
        if not n:
            r = _results(outs, host_outs, not self.return_tuple)
            return None if self.no_return else r
        k = self._compiled.kernel(
            key, lambda: self._source(params, dtypes, args, kparams + extra + ["long _n"],
                                      [p.name for p, _ in strided], ndim, len(shape)),
            self.name, self.options)
        # A view is passed as the array owning its buffer (its offset is a parameter).
        values = [_owner(d) for d in dev_args]
        if strided or self._uses_idx:
            values += dims
            for (p, d), st in zip(strided, sts):
                values.append(d._off)
                values += st
        values.append(n)
        if n:
            block = block_size or _BLOCK
            grid = min(-(-n // block), 1 << 16)
            cfg = k[grid, block]
            cfg(*values)
            if pkey is not None and not host_outs and not any(p.raw for p in params):
                self._make_plan(pkey, cfg, params, args, nargs, dtypes, shape, strided, values)
        r = _results(outs, host_outs, not self.return_tuple)
        return None if self.no_return else r

    def _make_plan(self, key, cfg, params, args, nargs, dtypes, shape, strided, values):
        """What a call with arguments of `key` does (see "launch plans" above): (launch
        configuration, the outputs to allocate as (shape, dtype), where each launch argument
        comes from: (0, k) array argument k (a view's owner), (1, (k, dtype)) scalar argument
        k, (2, k) array argument k's offset, (3, v) the value v)."""
        src = [(0, j) if _is_array(args[j]) else (1, (j, dt)) for j, dt in enumerate(dtypes)]
        src += [(3, v) for v in values[len(src):]]  # dims, offsets and strides, n
        if strided:
            ndim = (len(values) - len(params) - 1 - len(strided)) // (len(strided) + 1)
            for q, (p, _) in enumerate(strided):
                src[len(params) + ndim + q * (ndim + 1)] = (2, params.index(p))
        news = [(tuple(shape), dt) for dt in dtypes[nargs:]]
        if len(self._plans) >= _PLANS_MAX:
            self._plans.clear()
        self._plans[key] = (cfg, news, tuple(src))

    def _run_plan(self, plan, args):
        cfg, news, src = plan
        if news:
            dev = _core._current
            new = [_core._new_array(shp, dt, dev) for shp, dt in news]
            args = args + tuple(new)
        values = []
        for kind, v in src:
            if kind == 0:
                a = args[v]
                values.append(a.base if a.base is not None else a)
            elif kind == 3:
                values.append(v)
            elif kind == 2:
                values.append(args[v]._off)
            else:
                values.append(_plan_scalar(args[v[0]], v[1]))
        cfg(*values)
        if self.no_return:
            return None
        outs = args[len(self.in_params):]
        return outs[0] if len(outs) == 1 and not self.return_tuple else tuple(outs)

    def _source(self, params, dtypes, args, kparams, strided, ndim, loop_ndim):
        lines = [_HEADERS + self.preamble, ""]
        if self._uses_ind:
            lines.append("#define _kcc_ndim %dL" % loop_ndim)
        placeholders = {}
        for p, dt in zip(params, dtypes):
            if p.dtype is None:
                placeholders[p.type] = _ctype(dt)
        for t, ct in sorted(placeholders.items()):
            lines.append("typedef %s %s;" % (ct, t))
        lines.append("kernel void %s(%s) {" % (self.name, ", ".join(kparams)))
        lines.append("    for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < _n;"
                     " i += (long)gridDim.x * blockDim.x) {")
        idx = _index_code(ndim, strided)
        if idx:
            lines.append("        " + idx)
        if self._uses_idx and not ndim:
            lines.append("        long _kcc_idx[1] = {0};")
        elif self._uses_idx:
            lines.append("        long _kcc_idx[%d];" % ndim)
            lines.append("        { long _kcc_q = i;%s }" % "".join(
                " _kcc_idx[%d] = _kcc_q %% _kcc_shape%d; _kcc_q /= _kcc_shape%d;" % (k, k, k)
                for k in reversed(range(ndim))))
        for p, dt, a in zip(params, dtypes, args):
            if not _is_array(a):
                continue
            ct = _ctype(dt)
            if p.raw:
                lines.append("        %s%s *%s = _kcc_p_%s;" % (
                    "" if p in self.out_params else "const ", ct, p.name, p.name))
            else:
                off = "_kcc_o_%s" % p.name if p.name in strided else "i"
                lines.append("        %s%s %s = _kcc_p_%s[%s];" % (
                    "" if p in self.out_params else "const ", ct, p.name, p.name, off))
        lines.append("        {\n%s\n        ;}" % self.operation)
        for p, dt, a in zip(self.out_params, dtypes[len(self.in_params):],
                            args[len(self.in_params):]):
            if not p.raw:
                off = "_kcc_o_%s" % p.name if p.name in strided else "i"
                lines.append("        _kcc_p_%s[%s] = %s;" % (p.name, off, p.name))
        lines.append("    }\n}\n")
        return "\n".join(lines)


class ReductionKernel:
    """kcc.ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr,
    identity, name='reduce_kernel', reduce_type=None, preamble='', options=()): CuPy's.
    Each output element reduces the mapped inputs over the reduced axes: `a` starts as
    `identity`, and every element's `map_expr` (of the input names) joins it through
    `reduce_expr` (of `a` and `b`), all in `reduce_type` (default: the first output's type);
    then `post_map_expr` (of `a`) sets the outputs. Called with the inputs (and optionally the
    outputs, or out=) and axis=None (all), an int or a tuple, keepdims=False."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, preamble="", options=(),
                 _reduce_ctype=None):
        what = "ReductionKernel %s" % name
        if not isinstance(name, str) or not _is_word(name):
            raise ValueError("ReductionKernel: name %r is not a C identifier" % (name,))
        self.name = name
        self.in_params = _params(in_params, what)
        self.out_params = _params(out_params, what)
        if not self.out_params:
            raise ValueError("%s: a reduction has at least one output" % what)
        for p in self.in_params + self.out_params:
            if p.raw:
                raise ValueError("%s: raw parameters are not supported in reductions ('%s')"
                                 % (what, p.name))
            if p.name in ("a", "b"):
                raise ValueError("%s: 'a' and 'b' are the reduction's own names; name the "
                                 "parameter otherwise" % what)
        for e, w in ((map_expr, "map_expr"), (reduce_expr, "reduce_expr"),
                     (post_map_expr, "post_map_expr"), (identity, "identity")):
            if not isinstance(e, str):
                raise TypeError("%s: %s is kcc C source (a str), not %s"
                                % (what, w, type(e).__name__))
        self.map_expr, self.reduce_expr = map_expr, reduce_expr
        self.post_map_expr, self.identity = post_map_expr, identity
        self.reduce_type = reduce_type
        # kcc's own reductions of a struct (argmax's value and index): its C name, declared
        # in the preamble; reduce_type is then its numpy (structured, aligned) dtype.
        self._reduce_ctype = _reduce_ctype
        self.preamble = preamble
        self.options = tuple(options)
        self._compiled = _Compiled()
        self._plans = {}  # (_plan_key, axis, keepdims) -> plan

    def __repr__(self):
        return "<kcc.ReductionKernel %s(%s) -> (%s)>" % (
            self.name, ", ".join(map(repr, self.in_params)),
            ", ".join(map(repr, self.out_params)))

    def __call__(self, *args, out=None, axis=None, keepdims=False):
        pkey = None
        if axis is None or type(axis) is int or type(axis) is tuple:
            pkey = _plan_key(args if out is None else args + (out,))
            if pkey is not None:
                pkey = (pkey, axis, keepdims)
                plan = self._plans.get(pkey)
                if plan is not None:
                    return self._run_plan(plan, args if out is None else args + (out,))
        what = "ReductionKernel %s" % self.name
        np = _core._numpy()
        nin, nout = len(self.in_params), len(self.out_params)
        if out is not None:
            if len(args) != nin or nout != 1:
                raise TypeError("%s: out= is the one output, given instead of as an argument"
                                % what)
            args = args + (out,)
        nargs = len(args)
        if len(args) not in (nin, nin + nout):
            raise TypeError("%s takes %d inputs (and optionally %d outputs), not %d arguments"
                            % (what, nin, nout, len(args)))
        params = self.in_params + self.out_params
        args = list(args) + [None] * (nin + nout - len(args))
        types = _bind_types(params, args, what)
        dtypes = [_dtype_of(p, types, what) for p in params]
        in_shapes = [tuple(a.shape) for a in args[:nin] if _is_array(a)]
        if not in_shapes:
            raise ValueError("%s: no input is an array" % what)
        shape = _broadcast_shape(in_shapes, what)
        ndim = len(shape)
        axes = self._axes(axis, ndim, what)
        kept = [k for k in range(ndim) if k not in axes]
        out_shape = tuple(1 if k in axes else shape[k] for k in range(ndim)) if keepdims \
            else tuple(shape[k] for k in kept)
        nout_el = math.prod(shape[k] for k in kept)
        nred = math.prod(shape[k] for k in axes)
        rtype = np.dtype(self.reduce_type) if self.reduce_type is not None else dtypes[nin]
        outs, host_outs = _outputs(self.out_params, args[nin:], dtypes[nin:], out_shape, what)
        # A reduction writes its outputs by flat index: a strided view given as an output
        # gets the results through a contiguous temporary.
        final_outs = list(outs)
        outs = [o if o._whole else _core.DeviceArray(o.shape, o.dtype) for o in outs]
        # Inputs: device arrays, read through strides over (kept dims..., reduced dims...),
        # each group's dimensions merged where every input's strides allow.
        dev_in, kparams, values, devs, scalars = [], [], [], [], []
        for p, a, dt in zip(self.in_params, args[:nin], dtypes[:nin]):
            if _is_array(a):
                d = _to_device(a, dt, what)
                devs.append(d)
                dev_in.append(p)
        sts = [_strides(d, shape) for d in devs]
        kdims, ksts = _merge_dims([shape[k] for k in kept], [[st[k] for k in kept] for st in sts])
        rdims, rsts = _merge_dims([shape[k] for k in axes], [[st[k] for k in axes] for st in sts])
        nkept, ndim = len(kdims), len(kdims) + len(rdims)
        j = 0
        src, ssrc = [], []  # where each value comes from, for a plan (_make_plan)
        for q, (p, a, dt) in enumerate(zip(self.in_params, args[:nin], dtypes[:nin])):
            ct = _ctype(dt)
            if p in dev_in:
                kparams.append("const %s *_kcc_p_%s" % (ct, p.name))
                kparams.append("long _kcc_off_%s" % p.name)
                kparams += ["long _kcc_s%d_%s" % (k, p.name) for k in range(ndim)]
                values += [_owner(devs[j]), devs[j]._off] + ksts[j] + rsts[j]
                src += [(0, q), (2, q)] + [(3, v) for v in ksts[j] + rsts[j]]
                j += 1
            else:
                kparams.append("%s %s" % (ct, p.name))
                values.append(_scalar(a, dt))
                scalars.append(("%s %s" % (ct, p.name), values[-1]))
                src.append((1, (q, dt)))
                ssrc.append(src[-1])
        # Few outputs and long reductions: each output's elements split over `parts` blocks,
        # _BLOCKS_ALL blocks in all, each part at least 8 elements per thread; a second
        # kernel joins the parts.
        parts = 1
        if nred >= 4 * _BLOCK:
            parts = min(-(-nred // (8 * _BLOCK)), max(1, _BLOCKS_ALL // nout_el))
        dims = ["long _kcc_shape%d" % k for k in range(ndim)]
        values += kdims + rdims
        src += [(3, v) for v in kdims + rdims]
        key = (tuple(str(dt) for dt in dtypes), str(rtype), tuple(_is_array(a) for a in args),
               ndim, nkept, parts > 1)
        if not nout_el:
            return _results(final_outs, host_outs, True)
        def source():
            return self._source(dtypes, rtype, kparams, dims, dev_in, ndim, nkept, parts,
                                [c for c, _ in scalars])
        osrc = [(4, m) for m in range(nout)]
        if parts == 1:
            k = self._compiled.kernel(key, source, self.name, self.options)
            launches = [(k[nout_el, _BLOCK], src + osrc + [(3, nred)])]
            launches[0][0](*values, *outs, nred)
        else:
            first = self._compiled.kernel(key, source, self.name, self.options,
                                          self.name + "_parts")
            final = self._compiled.kernel(key, source, self.name, self.options,
                                          self.name + "_final")
            partial = _core.DeviceArray(nout_el * parts, rtype)
            launches = [(first[nout_el * parts, _BLOCK], src + [(5, 0), (3, nred), (3, parts)]),
                        (final[nout_el, _BLOCK], [(5, 0)] + osrc + [(3, parts)] + ssrc)]
            launches[0][0](*values, partial, nred, parts)
            launches[1][0](partial, *outs, parts, *[v for _, v in scalars])
        for o, t in zip(final_outs, outs):
            if o is not t:
                _assign(o, t)
        if pkey is not None and not host_outs and all(o is t for o, t in zip(outs, final_outs)):
            # a plan: the outputs to allocate, the temporary, the launches and their values
            news = [(out_shape, dt) for dt in dtypes[nargs:]]
            tmp = (nout_el * parts, rtype) if parts > 1 else None
            if len(self._plans) >= _PLANS_MAX:
                self._plans.clear()
            self._plans[pkey] = (news, tmp, [(c, tuple(v)) for c, v in launches], nin)
        return _results(final_outs, host_outs, True)

    def _run_plan(self, plan, args):
        """A call with arguments of a plan's key: its outputs and temporary allocated, its
        launches' values gathered, as ElementwiseKernel._run_plan."""
        news, tmp, launches, nin = plan
        dev = _core._current
        if news:
            args = args + tuple(_core._new_array(shp, dt, dev) for shp, dt in news)
        partial = _core._new_array((tmp[0],), tmp[1], dev) if tmp else None
        for cfg, src in launches:
            values = []
            for kind, v in src:
                if kind == 3:
                    values.append(v)
                elif kind == 0 or kind == 4:
                    a = args[v if kind == 0 else nin + v]
                    values.append(a.base if a.base is not None else a)
                elif kind == 2:
                    values.append(args[v]._off)
                elif kind == 5:
                    values.append(partial)
                else:
                    values.append(_plan_scalar(args[v[0]], v[1]))
            cfg(*values)
        outs = args[nin:]
        return outs[0] if len(outs) == 1 else tuple(outs)

    @staticmethod
    def _axes(axis, ndim, what):
        if axis is None:
            return list(range(ndim))
        seq = axis if isinstance(axis, tuple) else (axis,)
        out = []
        for a in seq:
            if isinstance(a, bool) or not isinstance(a, int):
                raise TypeError("%s: axis must be None, an int or a tuple of ints, not %r"
                                % (what, axis))
            if not -ndim <= a < ndim:
                raise ValueError("%s: axis %d is out of bounds for %d dimensions"
                                 % (what, a, ndim))
            a %= ndim
            if a in out:
                raise ValueError("%s: axis %d is given twice" % (what, a))
            out.append(a)
        return sorted(out)

    def _source(self, dtypes, rtype, kparams, dims, dev_in, ndim, nkept, parts, scalars):
        nin = len(self.in_params)
        rt = self._reduce_ctype or _ctype(rtype)
        cast = "" if self._reduce_ctype else "(_kcc_rt)"  # no cast to a struct type
        placeholders = {}
        for p, dt in zip(self.in_params + self.out_params, dtypes):
            if p.dtype is None:
                placeholders[p.type] = _ctype(dt)
        outs = ["%s *_kcc_p_%s" % (_ctype(dt), p.name)
                for p, dt in zip(self.out_params, dtypes[nin:])]
        L = [_HEADERS + self.preamble, ""]
        L += ["typedef %s %s;" % (ct, t) for t, ct in sorted(placeholders.items())]
        L.append("typedef %s _kcc_rt;" % rt)
        L.append("static _kcc_rt _kcc_reduce(_kcc_rt a, _kcc_rt b) { return (%s); }"
                 % self.reduce_expr)
        # The block's tree: every thread's value in shared memory, halved each step.
        L.append("""static _kcc_rt _kcc_block(_kcc_rt v, _kcc_rt *t) {
    unsigned k = threadIdx.x;
    t[k] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (k < s) t[k] = _kcc_reduce(t[k], t[k + s]);
        __syncthreads();
    }
    return t[0];
}""")
        post = ["    if (threadIdx.x == 0) {", "        _kcc_rt a = r;"]
        for p, dt in zip(self.out_params, dtypes[nin:]):
            post.append("        %s %s;" % (_ctype(dt), p.name))
        post.append("        {\n%s\n        ;}" % self.post_map_expr)
        for p in self.out_params:
            post.append("        _kcc_p_%s[o] = %s;" % (p.name, p.name))
        post.append("    }")
        # Each block reduces for one output element o (the kept dimensions' index), its
        # threads (and, with parts, `parts` blocks) striding over the reduced elements j.
        # The kept dimensions' offset is worked out once per block; a reduction over one
        # (merged) dimension, such as a contiguous array's, then costs a multiply-add per
        # element where every element used to pay a 64-bit division per dimension.
        head = ["    long _kcc_u = o;"]
        for p in dev_in:
            head.append("    long _kcc_b_%s = _kcc_off_%s;" % (p.name, p.name))
        for k in reversed(range(nkept)):
            head.append("    { long _kcc_c = _kcc_u %% _kcc_shape%d; _kcc_u /= _kcc_shape%d;"
                        % (k, k))
            for p in dev_in:
                head.append("      _kcc_b_%s += _kcc_c * _kcc_s%d_%s;" % (p.name, k, p.name))
            head.append("    }")
        head.append("    (void)_kcc_u;")

        def element(u):
            """The u-th of an iteration's elements, mapped, as _kcc_vU (j: its index among
            the reduced elements, as map_expr may use)."""
            e = ["        _kcc_rt _kcc_v%d;" % u,
                 "        { const long j = _kcc_j + %d * _kcc_step; (void)j;" % u]
            if ndim - nkept == 1:
                for p in dev_in:
                    e.append("          long _kcc_o_%s = _kcc_b_%s + j * _kcc_s%d_%s;"
                             % (p.name, p.name, nkept, p.name))
            else:
                e.append("          long _kcc_q = j; (void)_kcc_q;")
                for p in dev_in:
                    e.append("          long _kcc_o_%s = _kcc_b_%s;" % (p.name, p.name))
                for k in reversed(range(nkept, ndim)):
                    e.append("          { long _kcc_c = _kcc_q %% _kcc_shape%d; "
                             "_kcc_q /= _kcc_shape%d;" % (k, k))
                    for p in dev_in:
                        e.append("            _kcc_o_%s += _kcc_c * _kcc_s%d_%s;"
                                 % (p.name, k, p.name))
                    e.append("          }")
            for p, dt in zip(self.in_params, dtypes[:nin]):
                if p in dev_in:
                    e.append("          const %s %s = _kcc_p_%s[_kcc_o_%s];"
                             % (_ctype(dt), p.name, p.name, p.name))
            e.append("          _kcc_v%d = %s(%s); }" % (u, cast, self.map_expr))
            return e

        # _UNROLL elements per thread and iteration, all loaded before any joins r: that
        # many reads in flight per thread, which a memory-bound reduction needs to reach the
        # memory's bandwidth. They join r in the order of j, as one at a time would (the
        # same results, bit for bit).
        loop = ["    for (; _kcc_j + %d * _kcc_step < _kcc_nred; _kcc_j += %d * _kcc_step) {"
                % (_UNROLL - 1, _UNROLL)]
        for u in range(_UNROLL):
            loop += element(u)
        loop += ["        r = _kcc_reduce(r, _kcc_v%d);" % u for u in range(_UNROLL)]
        loop.append("    }")
        loop.append("    for (; _kcc_j < _kcc_nred; _kcc_j += _kcc_step) {")
        loop += element(0)
        loop.append("        r = _kcc_reduce(r, _kcc_v0);")
        loop.append("    }")
        shared = "kernel void %s(%s) {\n    shared _kcc_rt _kcc_t[%d];"
        if parts == 1:
            L.append(shared % (self.name, ", ".join(kparams + dims + outs + ["long _kcc_nred"]),
                               _BLOCK))
            L.append("    long o = blockIdx.x;")
            L += head
            L.append("    _kcc_rt r = %s(%s);" % (cast, self.identity))
            L.append("    long _kcc_j = threadIdx.x, _kcc_step = blockDim.x;")
            L += loop
            L.append("    r = _kcc_block(r, _kcc_t);")
            L += post
            L.append("}")
        else:
            L.append(shared % (self.name + "_parts",
                               ", ".join(kparams + dims + ["_kcc_rt *_kcc_partial",
                                                           "long _kcc_nred", "long _kcc_parts"]),
                               _BLOCK))
            L.append("    long o = blockIdx.x / _kcc_parts, part = blockIdx.x % _kcc_parts;")
            L += head
            L.append("    _kcc_rt r = %s(%s);" % (cast, self.identity))
            L.append("    long _kcc_j = part * blockDim.x + threadIdx.x, "
                     "_kcc_step = _kcc_parts * blockDim.x;")
            L += loop
            L.append("    r = _kcc_block(r, _kcc_t);")
            L.append("    if (threadIdx.x == 0) _kcc_partial[blockIdx.x] = r;\n}")
            L.append(shared % (self.name + "_final",
                               ", ".join(["const _kcc_rt *_kcc_partial"] + outs +
                                         ["long _kcc_parts"] + scalars), _BLOCK))
            L.append("    long o = blockIdx.x;\n    _kcc_rt r = %s(%s);" % (cast, self.identity))
            L.append("    for (long j = threadIdx.x; j < _kcc_parts; j += blockDim.x)\n"
                     "        r = _kcc_reduce(r, _kcc_partial[o * _kcc_parts + j]);")
            L.append("    r = _kcc_block(r, _kcc_t);")
            L += post
            L.append("}")
        return "\n".join(L) + "\n"


# ---------------------------------------------------------------- scans

_SCAN_BODY = r"""
/* The scan of each row (a block per part of a row): the thread block's values in shared
 * memory, scanned in log2(block) steps (Hillis and Steele), in order, so the operation needs to
 * be associative only. A row split in `parts` parts: _sums first (each part's total), then each
 * part starts from the totals of the parts before it. */
static _kcc_rt _kcc_block_total(_kcc_rt v, _kcc_rt *t) {
    unsigned k = threadIdx.x;
    t[k] = v;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s <<= 1) {
        _kcc_rt w = (k %% (2 * s) == 0 && k + s < blockDim.x) ? t[k + s] : _kcc_neutral();
        __syncthreads();
        if (k %% (2 * s) == 0) t[k] = _kcc_op(t[k], w);
        __syncthreads();
    }
    _kcc_rt r = t[0];
    __syncthreads();
    return r;
}

kernel void %(name)s_sums(%(params)s, long _kcc_n, long _kcc_parts, long _kcc_chunk,
                          _kcc_rt *_kcc_sums) {
    shared _kcc_rt _kcc_t[%(block)d];
    long _kcc_row = blockIdx.x / _kcc_parts, _kcc_part = blockIdx.x %% _kcc_parts;
    long _kcc_lo = _kcc_part * _kcc_chunk, _kcc_hi = _kcc_lo + _kcc_chunk;
    if (_kcc_hi > _kcc_n) _kcc_hi = _kcc_n;
%(rowoff)s
    _kcc_rt _kcc_v = _kcc_neutral();
    /* each thread a contiguous piece, joined in order: the operation need not commute */
    long _kcc_per = (_kcc_hi - _kcc_lo + blockDim.x - 1) / blockDim.x;
    long _kcc_from = _kcc_lo + threadIdx.x * _kcc_per, _kcc_to = _kcc_from + _kcc_per;
    if (_kcc_to > _kcc_hi) _kcc_to = _kcc_hi;
    for (long i = _kcc_from; i < _kcc_to; i++) {
        _kcc_rt _kcc_in;
%(load)s
        _kcc_v = _kcc_op(_kcc_v, _kcc_in);
    }
    _kcc_v = _kcc_block_total(_kcc_v, _kcc_t);
    if (threadIdx.x == 0) _kcc_sums[blockIdx.x] = _kcc_v;
}

kernel void %(name)s(%(params)s, long _kcc_n, long _kcc_parts, long _kcc_chunk,
                     const _kcc_rt *_kcc_sums) {
    shared _kcc_rt _kcc_t[%(block)d];
    shared _kcc_rt _kcc_carry[2];
    long _kcc_row = blockIdx.x / _kcc_parts, _kcc_part = blockIdx.x %% _kcc_parts;
    long _kcc_lo = _kcc_part * _kcc_chunk, _kcc_hi = _kcc_lo + _kcc_chunk;
    if (_kcc_hi > _kcc_n) _kcc_hi = _kcc_n;
%(rowoff)s
    unsigned k = threadIdx.x;
    if (k == 0) {
        _kcc_rt c = _kcc_neutral();
        for (long p = 0; p < _kcc_part; p++) c = _kcc_op(c, _kcc_sums[_kcc_row * _kcc_parts + p]);
        _kcc_carry[0] = c;
%(total)s
    }
    __syncthreads();
    for (long _kcc_base = _kcc_lo; _kcc_base < _kcc_hi; _kcc_base += blockDim.x) {
        long i = _kcc_base + k;
        _kcc_rt _kcc_in = _kcc_neutral();
        if (i < _kcc_hi) {
%(load)s
        }
        _kcc_t[k] = _kcc_in;
        __syncthreads();
        for (unsigned s = 1; s < blockDim.x; s <<= 1) {
            _kcc_rt w = k >= s ? _kcc_t[k - s] : _kcc_neutral();
            __syncthreads();
            _kcc_t[k] = _kcc_op(w, _kcc_t[k]);
            __syncthreads();
        }
        _kcc_rt c = _kcc_carry[0];
        if (i < _kcc_hi) {
%(store)s
        }
        __syncthreads();
        if (k == blockDim.x - 1) _kcc_carry[0] = _kcc_op(c, _kcc_t[k]);
        __syncthreads();
    }
}
"""


def _scan_launch(compiled, source, name, options, key, values, rows, n, rtype, need_sums,
                 parts=None):
    """Runs a _SCAN_BODY scan of `rows` rows of n elements: the sums kernel first when rows
    are split in parts (or `need_sums`: the total is wanted), then the scan."""
    if parts is None:
        parts = 1
        if n >= 4 * _BLOCK and rows < 64:
            parts = min(-(-n // (4 * _BLOCK)), max(1, 256 // rows))
    chunk = -(-n // parts)
    if parts > 1 or need_sums:
        sums = _core.DeviceArray(rows * parts, rtype)
        first = compiled.kernel(key, source, name, options, name + "_sums")
        first[rows * parts, _BLOCK](*values, n, parts, chunk, sums)
    else:
        sums = _core.DeviceArray(1, rtype)
    k = compiled.kernel(key, source, name, options)
    k[rows * parts, _BLOCK](*values, n, parts, chunk, sums)


def _scan_head(preamble, rt, op, neutral):
    return "\n".join([_HEADERS + preamble, "typedef %s _kcc_rt;" % rt,
                      "static _kcc_rt _kcc_neutral(void) { return %s; }" % neutral,
                      "static _kcc_rt _kcc_op(_kcc_rt a, _kcc_rt b) { return %s; }" % op])


class _RowScan:
    """kcc's scans along one dimension (cumsum's): each row of `x` (the other dimensions)
    scanned with `op` (C of a and b, associative) from `neutral`, every element mapped by
    `map_expr` (of x) first, the inclusive results written to the same place in `z`. The
    rows' dimensions are merged where the strides allow; rows split in parts when they are
    few and long."""

    def __init__(self, name, op, neutral, map_expr="x", preamble="", options=()):
        self.name, self.op, self.neutral = name, op, neutral
        self.map_expr, self.preamble, self.options = map_expr, preamble, tuple(options)
        self._compiled = _Compiled()

    def __call__(self, x, z, axis, rtype):
        """z[..., j, ...] = scan of x[..., :j+1, ...] along `axis` (x, z device arrays of one
        shape, any layouts; rtype the scan's type)."""
        shape = tuple(x.shape)
        n = shape[axis]
        others = [k for k in range(len(shape)) if k != axis]
        rows = math.prod(shape[k] for k in others)
        if not rows or not n:
            return z
        dims, (xs, zs) = _merge_dims([shape[k] for k in others],
                                     [[x._st[k] for k in others], [z._st[k] for k in others]])
        nd = len(dims)
        xt, zt, rt = _ctype(x.dtype), _ctype(z.dtype), _ctype(rtype)
        params = ["const %s *_kcc_x" % xt, "long _kcc_xoff", "long _kcc_xs"] + \
            ["long _kcc_xs%d" % k for k in range(nd)] + ["long _kcc_d%d" % k for k in range(nd)]
        params += ["%s *_kcc_z" % zt, "long _kcc_zoff", "long _kcc_zs"] + \
            ["long _kcc_zs%d" % k for k in range(nd)]
        rowoff = ["    long _kcc_xo = _kcc_xoff, _kcc_zo = _kcc_zoff, _kcc_r = _kcc_row;"]
        for k in reversed(range(nd)):
            rowoff.append("    { long _kcc_c = _kcc_r %% _kcc_d%d; _kcc_r /= _kcc_d%d; "
                          "_kcc_xo += _kcc_c * _kcc_xs%d; _kcc_zo += _kcc_c * _kcc_zs%d; }"
                          % (k, k, k, k))
        rowoff.append("    (void)_kcc_zo;")
        load = ("            { const %s x = _kcc_x[_kcc_xo + i * _kcc_xs];\n"
                "              _kcc_in = (_kcc_rt)(%s); }" % (xt, self.map_expr))
        store = "            _kcc_z[_kcc_zo + i * _kcc_zs] = (%s)_kcc_op(c, _kcc_t[k]);" % zt
        source = _scan_head(self.preamble, rt, self.op, "(_kcc_rt)(%s)" % self.neutral) + \
            _SCAN_BODY % {"name": self.name, "params": ", ".join(params), "block": _BLOCK,
                          "rowoff": "\n".join(rowoff), "load": load, "store": store,
                          "total": ""}
        key = (x.dtype.name, z.dtype.name, str(rtype), nd)
        values = [_owner(x), x._off, x._st[axis]] + xs + dims
        values += [_owner(z), z._off, z._st[axis]] + zs
        _scan_launch(self._compiled, source, self.name, self.options, key, values, rows, n,
                     rtype, False)
        return z


def _scan_args(arguments, what):
    """PyOpenCL's argument declarations ('__global int *ary, int n' or a list of such
    strings): [(C declaration without address spaces, name, element dtype or None (scalar),
    dtype)]."""
    np = _core._numpy()
    decls = arguments if isinstance(arguments, (list, tuple)) else arguments.split(",")
    ctype_to_dtype = {v: k for k, v in _CTYPES.items()}
    ctype_to_dtype.update({"char": "int8", "uchar": "uint8", "ushort": "uint16",
                           "uint": "uint32", "ulong": "uint64", "signed char": "int8",
                           "unsigned char": "uint8", "int8_t": "int8", "uint8_t": "uint8",
                           "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32",
                           "uint32_t": "uint32", "int64_t": "int64", "uint64_t": "uint64"})
    out = []
    for d in decls:
        if not isinstance(d, str):
            raise TypeError("%s: arguments are C declarations (str), not %s"
                            % (what, type(d).__name__))
        words = d.replace("*", " * ").split()
        words = [w for w in words if w not in ("__global", "global", "__constant", "restrict",
                                               "__restrict__", "__restrict")]
        if not words:
            continue
        pointer = "*" in words
        name = words[-1]
        tw = [w for w in words[:-1] if w not in ("*", "const")]
        if not _is_word(name) or not tw:
            raise ValueError("%s: '%s' is not an argument declaration ('__global int *ary' or "
                             "'int n')" % (what, d.strip()))
        ctype = " ".join(tw)
        dt = ctype_to_dtype.get(ctype)
        if dt is None:
            raise TypeError("%s: argument '%s' has type %s; scan kernels take bool, integer "
                            "and float types" % (what, name, ctype))
        const = "const " if "const" in words else ""
        decl = "%s%s %s%s" % (const, _CTYPES[dt], "*" if pointer else "", name)
        out.append((decl, name, pointer, np.dtype(dt)))
    return out


class ScanKernel:
    """kcc.ScanKernel(dtype, arguments, input_expr, scan_expr, neutral, output_statement,
    is_segment_start_expr=None, input_fetch_exprs=None, index_dtype=None, name_prefix='scan',
    options=(), preamble=''): PyOpenCL's GenericScanKernel, without the context. For each i in
    [0, n), `input_expr` (C of i and the arguments) is the scanned value, `scan_expr` (of a and
    b; associative) joins values, `neutral` is its identity, and `output_statement` runs once
    per i with `item` (the inclusive scan up to i), `prev_item` (the exclusive one: `neutral`
    at 0 and, in a segmented scan, at each segment's start) and `last_item` (the whole scan's
    result). With `is_segment_start_expr` (C of i) the scan restarts where it is true;
    scan_expr then sees `across_seg_boundary` (write `across_seg_boundary ? b : a + b`).
    `input_fetch_exprs`: (name, argument, offset) triples, each `name` being
    argument[i + offset] (0 outside the array). Called with the arguments (kcc or numpy
    arrays, numbers; as a C kernel takes them) and `size=` (default: the first array's
    size); returns None."""

    def __init__(self, dtype, arguments, input_expr, scan_expr, neutral, output_statement,
                 is_segment_start_expr=None, input_fetch_exprs=None, index_dtype=None,
                 name_prefix="scan", options=(), preamble=""):
        np = _core._numpy()
        what = "ScanKernel %s" % name_prefix
        if not isinstance(name_prefix, str) or not _is_word(name_prefix):
            raise ValueError("ScanKernel: name_prefix %r is not a C identifier" % (name_prefix,))
        self.name = name_prefix
        self.dtype = np.dtype(dtype)
        _ctype(self.dtype)
        self.args = _scan_args(arguments, what)
        if not self.args:
            raise ValueError("%s: no arguments" % what)
        for e, w in ((input_expr, "input_expr"), (scan_expr, "scan_expr"),
                     (output_statement, "output_statement")):
            if not isinstance(e, str):
                raise TypeError("%s: %s is kcc C source (a str), not %s"
                                % (what, w, type(e).__name__))
        if neutral is None:
            raise ValueError("%s: neutral (the scan's identity, C source) is needed" % what)
        self.input_expr, self.scan_expr = input_expr, scan_expr
        self.neutral, self.output_statement = str(neutral), output_statement
        self.segment = is_segment_start_expr
        self.fetch = list(input_fetch_exprs or [])
        names = {a[1]: a for a in self.args}
        for f in self.fetch:
            if len(f) != 3 or f[1] not in names or not names[f[1]][2]:
                raise ValueError("%s: an input fetch is (name, array argument, offset), not %r"
                                 % (what, f))
        if index_dtype is not None and np.dtype(index_dtype).kind not in "iu":
            raise TypeError("%s: index_dtype is an integer type" % what)
        self.preamble, self.options = preamble, tuple(options)
        self._compiled = _Compiled()
        self._source = self._make_source()

    def __repr__(self):
        return "<kcc.ScanKernel %s(%s)>" % (self.name, ", ".join(a[0] for a in self.args))

    def _make_source(self):
        T = _ctype(self.dtype)
        seg = self.segment is not None
        used = self.output_statement
        fetch = ""
        names = {a[1]: a for a in self.args}
        for name, arg, off in self.fetch:
            et = _ctype(names[arg][3])
            fetch += ("            const %s %s = (i + (%d) >= 0 && i + (%d) < _kcc_n) ? "
                      "%s[i + (%d)] : (%s)0;\n" % (et, name, off, off, arg, off, et))
        if seg:
            head = "\n".join([
                _HEADERS + self.preamble, "typedef %s _kcc_T;" % T,
                "typedef struct { bool f; _kcc_T v; } _kcc_rt;",
                "static _kcc_T _kcc_user_op(_kcc_T a, _kcc_T b, bool across_seg_boundary) "
                "{ (void)across_seg_boundary; return %s; }" % self.scan_expr,
                "static _kcc_rt _kcc_neutral(void) { _kcc_rt r; r.f = false; r.v = %s; "
                "return r; }" % self.neutral,
                "static _kcc_rt _kcc_op(_kcc_rt a, _kcc_rt b) { _kcc_rt r; r.f = a.f || b.f; "
                "r.v = _kcc_user_op(a.v, b.v, b.f); return r; }"])
            load = fetch + ("            _kcc_in.f = (%s); _kcc_in.v = (%s);"
                            % (self.segment, self.input_expr))
        else:
            head = _scan_head(self.preamble, T, "(%s)" % self.scan_expr,
                              "(_kcc_rt)(%s)" % self.neutral)
            head = head.replace("static _kcc_rt _kcc_op(_kcc_rt a, _kcc_rt b) {",
                                "static _kcc_rt _kcc_op(_kcc_rt a, _kcc_rt b) { "
                                "const bool across_seg_boundary = false; "
                                "(void)across_seg_boundary;")
            load = fetch + "            _kcc_in = (%s);" % self.input_expr
        v = ".v" if seg else ""
        store = ["            _kcc_rt _kcc_item = _kcc_op(c, _kcc_t[k]);",
                 "            %s item = _kcc_item%s;" % (T, v)]
        if "prev_item" in used:
            store.append("            _kcc_rt _kcc_prev = k > 0 ? _kcc_op(c, _kcc_t[k - 1]) "
                         ": c;")
            store.append("            %s prev_item = _kcc_prev%s;" % (T, v))
            if seg:  # a segment's start: neutral (PyOpenCL's); _kcc_in is the element's own
                store.append("            if (_kcc_in.f) prev_item = _kcc_neutral().v;")
        total = ""
        if "last_item" in used:
            store.append("            %s last_item = _kcc_carry[1]%s;" % (T, v))
            total = ("        _kcc_rt _kcc_tot = c;\n"
                     "        for (long p = _kcc_part; p < _kcc_parts; p++)\n"
                     "            _kcc_tot = _kcc_op(_kcc_tot, _kcc_sums[p]);\n"
                     "        _kcc_carry[1] = _kcc_tot;")
        store.append("            { %s; }" % self.output_statement)
        return head, load, store, total

    def __call__(self, *args, size=None, queue=None, wait_for=None, allocator=None):
        np = _core._numpy()
        what = "ScanKernel %s" % self.name
        if len(args) != len(self.args):
            raise TypeError("%s takes %d arguments (%s), not %d"
                            % (what, len(self.args), ", ".join(a[1] for a in self.args),
                               len(args)))
        if size is None:
            arrays = [a for a, spec in zip(args, self.args) if spec[2] and _is_array(a)]
            if not arrays:
                raise ValueError("%s: no array argument gives the size: pass size=n" % what)
            size = math.prod(arrays[0].shape)
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise ValueError("%s: size must be a non-negative int, not %r" % (what, size))
        if not size:
            return None
        head, load, store, total = self._source
        params = ", ".join(a[0] for a in self.args)
        src = head + "\n" + _SCAN_BODY % {
            "name": self.name, "params": params, "block": _BLOCK,
            "rowoff": "    (void)_kcc_row;", "load": load, "store": "\n".join(store),
            "total": total}
        rt = self.dtype if self.segment is None else \
            np.dtype([("f", np.bool_), ("v", self.dtype)], align=True)
        # with last_item wanted, the parts' totals are computed first even for one part
        _scan_launch(self._compiled, src, self.name, self.options, ("scan",), list(args), 1,
                     size, rt, bool(total))
        return None


_ARRAY_TYPES = (_core.DeviceArray, _core._View)
