"""The objects @kcc.jit makes: a Dispatcher per Python function, specialised lazily per
combination of argument types (one kcc kernel each), launched as kernel[grid, block](args)."""
import builtins
import marshal
import operator
import os
import re
import sys
import threading

from . import _core, _native
from ._errors import CompileError, OutOfBoundsError


def _argtype(a):
    """The kernel type of one argument: a scalar type name, or ArrayType."""
    from ._jit import ArrayType, _CTYPE
    t = type(a)
    if t is int:
        if -(1 << 63) <= a < 1 << 63:
            return "int64"
        if 0 <= a < 1 << 64:
            return "uint64"
        raise OverflowError("kernel argument %d does not fit in 64 bits" % a)
    if t is float:
        return "float64"
    if t is bool:
        return "bool"
    dt = getattr(a, "dtype", None)
    np = sys.modules.get("numpy")
    if not isinstance(a, _core.DeviceArray) and not (np is not None and
                                                     isinstance(a, (np.ndarray, np.generic))):
        cai = getattr(a, "__cuda_array_interface__", None)
        if cai is not None:  # CuPy, PyTorch, numba arrays (CUDA devices): their typestr
            dt = _core._numpy().dtype(cai["typestr"])
            name = dt.name
            if name not in _CTYPE or not dt.isnative or not cai["shape"]:
                raise TypeError("kcc.jit: a CUDA array of %s and shape %r cannot be a kernel "
                                "argument" % (dt, tuple(cai["shape"])))
            return ArrayType(name, len(cai["shape"]))
    if dt is not None:
        name = dt.name if hasattr(dt, "name") else str(dt)
        if np is not None and isinstance(a, np.generic):
            if name in _CTYPE:
                return name
        elif hasattr(a, "shape") and (isinstance(a, _core.DeviceArray) or
                                      (np is not None and isinstance(a, np.ndarray)) or
                                      hasattr(a, "__cuda_array_interface__") or
                                      hasattr(a, "__dlpack__")):  # JAX arrays (CUDA devices)
            if name not in _CTYPE or not dt.isnative:
                raise TypeError("kcc.jit: arrays of %s cannot be kernel arguments (numbers and "
                                "bools of the machine's byte order only)" % dt)
            if len(a.shape) == 0:
                raise TypeError("kcc.jit: a 0-dimensional array cannot be a kernel argument; "
                                "pass a 1-element array")
            return ArrayType(name, len(a.shape))
    if isinstance(a, complex) or (np is not None and isinstance(a, np.complexfloating)):
        raise TypeError("kcc.jit: complex numbers are not supported in kernels yet")
    raise TypeError("kcc.jit: a kernel argument is a number, a numpy array or a device array, "
                    "not %s" % type(a).__name__)


_SIG_TYPES = {"f4": "float32", "f8": "float64", "i4": "int32", "i8": "int64", "u4": "uint32",
              "u8": "uint64", "i1": "int8", "u1": "uint8", "i2": "int16", "u2": "uint16",
              "b1": "bool", "boolean": "bool", "intp": "int64", "uintp": "uint64",
              "float": "float64", "int": "int64", "double": "float64"}


def _parse_signature(sig):
    """'void(float32[:], int32)' -> [ArrayType, 'int32']."""
    from ._jit import ArrayType, _CTYPE
    s = str(sig).strip()
    m = re.fullmatch(r"(?:void|none)?\s*\((.*)\)", s, re.S)
    if not m:
        raise TypeError("kcc.jit: a signature is 'void(type, ...)', e.g. 'void(float32[:], "
                        "int32)', not %r" % sig)
    out = []
    body = m.group(1).strip()
    if not body:
        return out
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    for p in parts:
        p = p.strip()
        m = re.fullmatch(r"(\w+)\s*(\[(.*)\])?", p)
        if not m:
            raise TypeError("kcc.jit: cannot read the type %r of signature %r" % (p, sig))
        name = _SIG_TYPES.get(m.group(1), m.group(1))
        if name not in _CTYPE:
            raise TypeError("kcc.jit: unknown type %r in signature %r" % (m.group(1), sig))
        if m.group(2):
            dims = m.group(3).split(",")
            out.append(ArrayType(name, len(dims)))
        else:
            out.append(name)
    return out


# ---------------------------------------------------------------- the translation cache

_TRANSLATOR_ID = None


def _translator_id():
    """The translator's identity: kcc's version and the size and time of its Python files."""
    global _TRANSLATOR_ID
    if _TRANSLATOR_ID is None:
        d = os.path.dirname(os.path.abspath(__file__))
        parts = [_core.__version__]
        for f in ("_jit.py", "_jitdispatch.py", "cuda.py"):
            try:
                st = os.stat(os.path.join(d, f))
                parts.append("%s:%d:%d" % (f, st.st_size, st.st_mtime_ns))
            except OSError:
                parts.append(f)
        _TRANSLATOR_ID = "|".join(parts)
    return _TRANSLATOR_ID


def _code_objects(code):
    yield code
    for c in code.co_consts:
        if type(c) is type(code):
            yield from _code_objects(c)


def _source_files(fn, seen=None):
    """The Python files of fn and the device functions it names: an edited file is a miss."""
    seen = set() if seen is None else seen
    f = fn.__code__.co_filename
    out = [f] if os.path.isfile(f) and f not in seen else []
    seen.add(f)
    for name in _names(fn):
        v = fn.__globals__.get(name)
        if isinstance(v, Dispatcher) and v.py_func.__code__.co_filename not in seen:
            out += _source_files(v.py_func, seen)
    return out


def _names(fn):
    names = set()
    for c in _code_objects(fn.__code__):
        names.update(c.co_names)
    return sorted(names)


# modules whose attributes a kernel may read and which do not change within a version
_CONSTANT_MODULES = ("math", "numpy", "kcc", "kcc.cuda", "builtins")


def _value_key(v, seen):
    """A text that tells v's value apart from every other value translation could see, or
    None when there is none (then the translation is not cached)."""
    from ._jit import Intrinsic, _Namespace
    t = type(v)
    if v is None or t in (bool, int, float, complex, str):
        return "%s:%r" % (t.__name__, v)
    if t is tuple:
        ks = [_value_key(x, seen) for x in v]
        return None if None in ks else "(%s)" % ",".join(ks)
    np = sys.modules.get("numpy")
    if np is not None:
        if isinstance(v, np.ndarray):
            if v.dtype.hasobject:
                return None
            return "nd:%s:%r:%s" % (v.dtype.str, v.shape,
                                    _core._digest(np.ascontiguousarray(v).tobytes()).hex())
        if isinstance(v, np.generic):
            return "np:%s:%r" % (v.dtype.str, v.item())
        if isinstance(v, np.dtype):
            return "dtype:%s" % v.str
        if isinstance(v, np.ufunc):
            return "ufunc:%s" % v.__name__
    if t.__name__ == "module":
        if v.__name__ in _CONSTANT_MODULES:
            return "module:%s:%s" % (v.__name__, getattr(v, "__version__", ""))
        return None
    if isinstance(v, (Intrinsic, _Namespace)):
        return "kcc.cuda:%r" % v
    if isinstance(v, Dispatcher):
        if id(v) in seen:
            return "jit:recursive"
        seen.add(id(v))
        k = _function_key(v.py_func, seen)
        return None if k is None else "jit:%d:%s" % (v._device, k)
    mod = getattr(v, "__module__", None)
    if (t.__name__ in ("builtin_function_or_method", "type") and
            mod in ("builtins", "math", "numpy")):
        return "fn:%s.%s" % (mod, v.__qualname__)
    return None


def _function_key(fn, seen):
    parts = [marshal.dumps(fn.__code__).hex()]
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    for name in list(_names(fn)) + sorted(cells):
        if name in cells:
            try:
                v = cells[name].cell_contents
            except ValueError:
                v = None
        elif name in fn.__globals__:
            v = fn.__globals__[name]
        elif hasattr(builtins, name):
            v = getattr(builtins, name)
        else:
            continue  # undefined: translation says so, uncached or not
        k = _value_key(v, seen)
        if k is None:
            return None
        parts.append("%s=%s" % (name, k))
    return "\n".join(parts)


def _translation_key(fn, types, fp32):
    """The key of a translation in kcc's cache, or None when it cannot be cached."""
    try:
        k = _function_key(fn, set())
    except Exception:
        return None
    if k is None:
        return None
    text = "%s\n%s\n%r\n%s" % (_translator_id(), ",".join(map(str, types)), fp32, k)
    return _core._cache_key("jit-translation", text.encode(), (), fn.__qualname__)


class _Spec:
    """One specialisation: the kcc module, its kernel per device, how arguments expand."""

    __slots__ = ("module", "cname", "arrays", "dyn", "linemap", "kernels", "source")

    def kernel(self):
        dev = _core._current or _core.get_device()
        k = self.kernels.get(dev)
        if k is None:
            k = self.kernels[dev] = self.module.get_kernel(self.cname, dev)
        return k


def _map_lines(text, spec_name, linemap):
    """Rewrites 'NAME.k:LINE:COL' of kcc's messages to the Python file and line."""
    def sub(m):
        loc = linemap.get(int(m.group(1)))
        if loc is None:
            return m.group(0)
        return "%s:%d" % loc
    return re.sub(re.escape(spec_name) + r":(\d+)(?::\d+)?", sub, text)


class Dispatcher:
    """A Python function made a kernel (or a device function) by @kcc.jit / @cuda.jit."""

    def __init__(self, fn, device=False, signatures=None, fastmath=False, fp32=False):
        self.py_func = fn
        self.__name__ = getattr(fn, "__name__", "kernel")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        self._device = device
        self._fastmath = fastmath
        self._fp32 = fp32
        # -w: warnings about the generated C would name code the user did not write
        self._options = ("-w", "-ffast-math") if fastmath else ("-w",)
        self._pf = None
        self._specs = {}
        # the launch's fast path: (type, dtype, ndim) of each argument -> (spec, plan)
        self._fast = {}
        self._configs = {}
        self._lock = threading.RLock()
        self._sigs = None
        if signatures is not None and not device:
            self._sigs = []
            for s in signatures:
                types = _parse_signature(s)
                self._sigs.append(types)
                self._compile(tuple(types))

    def _pyfunc(self):
        if self._pf is None:
            from ._jit import PyFunc, JitError, _format_error, _source_line
            try:
                self._pf = PyFunc(self.py_func)
            except JitError as e:
                raise CompileError(_format_error(e, _source_line), e.file) from None
        return self._pf

    def __repr__(self):
        return "<kcc.jit %s %s>" % ("device function" if self._device else "kernel",
                                    self.__name__)

    # ---- compiling

    def _compile(self, types):
        with self._lock:  # two threads launching a new specialisation compile it once
            spec = self._specs.get(types)
            if spec is None:
                spec = self._compile_locked(types)
            return spec

    def _compile_locked(self, types):
        from ._jit import JitError, translate_kernel, _format_error, _source_line
        # The translation itself is cached too (a new process then neither parses nor
        # translates): keyed on what translating reads, or not cached when that cannot be
        # told (_translation_key).
        tkey = _translation_key(self.py_func, types, self._fp32)
        hit = _core._cache_get(tkey) if tkey is not None else None
        if hit is not None:
            text, cname, written, dyn, linemap = marshal.loads(hit[0])
        else:
            pf = self._pyfunc()
            try:
                text, cname, written, dyn, linemap = translate_kernel(pf, list(types),
                                                                      self._fp32)
            except JitError as e:
                raise CompileError(_format_error(e, _source_line), e.file) from None
            if tkey is not None:
                _core._cache_put(tkey, marshal.dumps((text, cname, written, dyn, linemap), 4),
                                 "", _source_files(self.py_func))
        name = "kcc-jit-%s.k" % cname[5:]
        try:
            mod = _core.compile(text, options=self._options, name=name)
        except CompileError as e:
            # the translator wrote C that does not compile: its bug, told at the Python line
            raise CompileError("kcc.jit wrote C that kcc refused for '%s' (a bug of kcc.jit; "
                               "please report it with this message):\n%s"
                               % (pf.name, _map_lines(e.log, name, linemap)), pf.file) \
                from None
        from ._jit import ArrayType
        spec = _Spec()
        spec.module = mod
        spec.cname = cname
        spec.source = text
        spec.arrays = tuple(isinstance(t, ArrayType) for t in types)
        spec.dyn = dyn
        spec.linemap = (name, linemap)
        spec.kernels = {}
        self._specs[types] = spec
        return spec

    def _spec_for(self, args):
        try:
            types = tuple(_argtype(a) for a in args)
        except (TypeError, OverflowError) as e:
            raise type(e)("%s: %s" % (self.__name__, e)) from None
        spec = self._specs.get(types)
        if spec is not None:
            return spec
        code = self.py_func.__code__
        params = code.co_varnames[:code.co_argcount]
        if len(types) != len(params):
            raise TypeError("kernel %s(%s) takes %d argument%s, got %d"
                            % (self.__name__, ", ".join(params), len(params),
                               "" if len(params) == 1 else "s", len(types)))
        if self._sigs is not None:
            # explicit signatures: the first one the arguments convert to
            from ._jit import ArrayType
            for sig in self._sigs:
                if len(sig) == len(types) and all(
                        (a == b) if isinstance(b, ArrayType) else not isinstance(a, ArrayType)
                        for a, b in zip(types, sig)):
                    spec = self._specs[types] = self._compile(tuple(sig))
                    return spec
            raise TypeError("%s: no signature matches the arguments (%s); the kernel was "
                            "declared for %s" % (self.__name__, ", ".join(map(str, types)),
                                                 "; ".join("(%s)" % ", ".join(map(str, s))
                                                           for s in self._sigs)))
        if self._device:
            raise TypeError("%s is a device function: call it from a kernel" % self.__name__)
        return self._compile(types)

    def specialize(self, *args):
        """Compiles for these arguments' types now (without launching)."""
        self._spec_for(args)
        return self

    def inspect_c(self, *args):
        """The generated C source for these arguments (for debugging kcc.jit)."""
        return self._spec_for(args).source

    # ---- launching

    def __getitem__(self, config):
        if self._device:
            raise TypeError("%s is a device function: it cannot be launched" % self.__name__)
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise TypeError("launch configuration: kernel[griddim, blockdim], kernel[griddim, "
                            "blockdim, stream] or kernel[griddim, blockdim, stream, "
                            "sharedmem], not kernel[%r]" % (config,))
        try:
            c = self._configs.get(config)
        except TypeError:  # lists inside: configured, not kept
            c = None
        if c is not None:
            return c
        stream = config[2] if len(config) > 2 else None
        shared = operator.index(config[3]) if len(config) > 3 else 0
        c = _Configured(self, config[0], config[1], stream or None, shared)
        try:
            if len(self._configs) > 64:
                self._configs.clear()
            self._configs[config] = c
        except TypeError:
            pass  # unhashable (lists): not kept
        return c

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A configuration covering ntasks threads: kernel.forall(n)(args)."""
        tpb = tpb or 128
        return _Configured(self, max(1, (ntasks + tpb - 1) // tpb), tpb, stream or None,
                           sharedmem)

    def __call__(self, *args, **kw):
        if self._device:
            raise TypeError("%s is a device function: call it from a kernel (numba.cuda "
                            "device functions do not run on the host)" % self.__name__)
        raise TypeError("kernel %s: launch it with a configuration, %s[griddim, blockdim](...)"
                        % (self.__name__, self.__name__))

    def _launch(self, grid, block, stream, shared, args, cfg=None):
        # The key of the fast path: each argument's class, and an array's dtype and ndim
        # (a Python int outside int64 takes the slow path: its type depends on its value).
        key = []
        slow = False
        for a in args:
            t = type(a)
            if t is float or t is bool:
                key.append(t)
            elif t is int:
                key.append(t)
                if not -(1 << 63) <= a < 1 << 63:
                    slow = True
            else:
                key.append((t, getattr(a, "dtype", None), getattr(a, "ndim", None)))
        key = tuple(key)
        hit = None if slow else self._fast.get(key)
        if hit is None:
            spec = self._spec_for(args)
            plan = bytes(1 if isarr else 2 if (type(a) is bool or (
                hasattr(a, "dtype") and a.dtype.kind == "b")) else 0
                for a, isarr in zip(args, spec.arrays))
            hit = (spec, plan)
            if not slow:
                self._fast[key] = hit
        spec, plan = hit
        k = spec.kernel()
        call = []
        for a, how in zip(args, plan):
            if how == 0:
                call.append(a)
            elif how == 1:
                call.append(a)
                call.extend(a.shape)
            else:
                call.append(int(a))
        if spec.dyn:
            call.append(shared)
        # the configured kcc launch, kept by the configuration for its last kernel
        if cfg is not None and cfg.last_kernel is k:
            launch = cfg.last_launch
        else:
            launch = k[grid, block, shared, stream]
            if cfg is not None:
                cfg.last_kernel, cfg.last_launch = k, launch
        try:
            launch(*call)
        except BaseException as e:
            self._failed(spec, e)
        # kept by _FastConfigured (fastlaunch.c's entry): this launch, for these argument
        # types, on this device
        return (_core._current, launch, plan, spec, shared if spec.dyn else None)

    def _failed(self, spec, e):
        """Raises a launch's exception e, with the Python names of the kernel, its arguments
        and its lines where kcc's message has the generated C's."""
        if isinstance(e, OutOfBoundsError):
            name, linemap = spec.linemap
            # the Python file and line, the Python names of the kernel and the array
            msg = _map_lines(e.message, name, linemap)
            msg = re.sub(r"\bkjit_(\w+)", r"\1", msg)
            msg = re.sub(r"\ba_(\w+)(?=\[| holds)", r"\1", msg)
            raise OutOfBoundsError(msg, e.status) from None
        if isinstance(e, (TypeError, ValueError, OverflowError)):
            # kcc's argument errors name the generated C's parameters: name the Python ones
            msg = _PARAM_RE.sub(lambda m: "kernel '%s' argument '%s'" % (self.__name__,
                                                                         m.group(1)), str(e))
            if msg != str(e):
                raise type(e)(msg) from None
        raise e


_PARAM_RE = re.compile(r"kernel 'kjit_\w+' parameter 'a_(\w+)' \([^)]*\)")


class _Configured:
    """kernel[griddim, blockdim, stream, sharedmem]: call it with the kernel's arguments."""

    __slots__ = ("disp", "grid", "block", "stream", "shared", "last_kernel", "last_launch")

    def __init__(self, disp, grid, block, stream, shared):
        self.disp, self.grid, self.block, self.stream, self.shared = \
            disp, grid, block, stream, shared
        self.last_kernel = self.last_launch = None

    def __call__(self, *args):
        self.disp._launch(self.grid, self.block, self.stream, self.shared, args, self)

    def __repr__(self):
        return "<kcc.jit launch %s[%r, %r]>" % (self.disp.__name__, self.grid, self.block)


if _native.fast is not None:
    class _FastConfigured(_native.fast.JitLaunchBase):
        """_Configured with its call in C (fastlaunch.c's JitLaunchBase): a call whose argument
        types this configuration has launched before on the current device goes straight to
        the specialisation's launch; any other goes to _miss, the Python path above."""

        __slots__ = ("disp", "grid", "block", "stream", "shared", "last_kernel", "last_launch")

        def __init__(self, disp, grid, block, stream, shared):
            self.disp, self.grid, self.block, self.stream, self.shared = \
                disp, grid, block, stream, shared
            self.last_kernel = self.last_launch = None
            self._cache = {}
            self._core = _core

        def _miss(self, key, args):
            entry = self.disp._launch(self.grid, self.block, self.stream, self.shared, args,
                                      self)
            if key is not None and entry[0] is not None and entry[0] is _core._current:
                if len(self._cache) > 64:
                    self._cache.clear()
                self._cache[key] = entry

        def _failed(self, spec, e):
            self.disp._failed(spec, e)

        def __repr__(self):
            return "<kcc.jit launch %s[%r, %r]>" % (self.disp.__name__, self.grid, self.block)

    _Configured = _FastConfigured  # noqa: F811 (the C path where the extension is there)


def jit(func_or_sig=None, device=False, inline=False, debug=False, fastmath=False, opt=True,
        lineinfo=False, cache=False, link=None, max_registers=None, boundscheck=None,
        fp32=False):
    """@kcc.jit / @cuda.jit: a Python function as a kernel (or, device=True, a device
    function callable from kernels). Compiled per combination of argument types at the first
    launch; a signature string ('void(float32[:], int32)') or a list of them compiles
    eagerly (a device function's signatures are not needed: it is specialised per call);
    debug, opt, lineinfo, cache, inline, max_registers and boundscheck are numba's, taken and
    ignored (kcc.compile's bounds checks follow the device: docs/python.md). fp32=True
    (kcc's own): Python floats and the float results of integer operations
    are float32, for devices without doubles. docs/python.md, 'From numba'."""
    if link:
        raise TypeError("kcc.jit: link= (foreign device code) is not supported")
    sigs = None
    if isinstance(func_or_sig, (str, list, tuple)):
        sigs = [func_or_sig] if isinstance(func_or_sig, str) else list(func_or_sig)
        func_or_sig = None

    def wrap(fn):
        return Dispatcher(fn, device=device, signatures=sigs, fastmath=fastmath, fp32=fp32)
    if func_or_sig is not None:
        if not callable(func_or_sig):
            raise TypeError("kcc.jit decorates a function, not %r" % (func_or_sig,))
        return wrap(func_or_sig)
    return wrap
