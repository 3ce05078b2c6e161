"""kcc.jit / kcc.cuda: numba-style Python kernels. Every construct against numpy (or Python
itself) on fresh random inputs, every element checked; numba-style programs; numba's typing
rules; the cache across processes; the error messages."""
import math
import os
import sys

import numpy as np
import pytest

import kcc
from kcc import cuda
from conftest import run_python

HERE = os.path.abspath(__file__)


def line_of(fn, text):
    """The line number in this file of the first line of fn's source containing text."""
    import inspect
    lines, first = inspect.getsourcelines(fn)
    for k, s in enumerate(lines):
        if text in s:
            return first + k
    raise AssertionError(text)


def launch1(kernel, n, *args, tpb=64):
    kernel[(n + tpb - 1) // tpb, tpb](*args)


# ---------------------------------------------------------------- the basics

def test_increment_by_one(rng):
    @cuda.jit
    def increment_by_one(a):
        pos = cuda.grid(1)
        if pos < a.size:
            a[pos] += 1

    for dt in (np.float32, np.float64, np.int32, np.int64, np.uint8):
        a = (rng.random(1000) * 100).astype(dt)
        ref = a + dt(1)
        launch1(increment_by_one, a.size, a)
        assert np.array_equal(a, ref), dt
    assert len(increment_by_one._specs) == 5  # one specialisation per dtype


def test_vector_add_device_arrays(rng):
    @cuda.jit
    def add(x, y, out):
        start = cuda.grid(1)
        stride = cuda.gridsize(1)
        for i in range(start, x.shape[0], stride):
            out[i] = x[i] + y[i]

    n = 100000
    x = rng.random(n).astype(np.float32)
    y = rng.random(n).astype(np.float32)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    dout = cuda.device_array_like(x)
    add[30, 128](dx, dy, dout)
    cuda.synchronize()
    assert np.array_equal(dout.copy_to_host(), x + y)


def test_thread_indices_2d_3d():
    @cuda.jit
    def where(out):
        x, y, z = cuda.grid(3)
        w, h, d = cuda.gridsize(3)
        if x < out.shape[2] and y < out.shape[1] and z < out.shape[0]:
            out[z, y, x] = (cuda.threadIdx.x + 10 * cuda.threadIdx.y + 100 * cuda.threadIdx.z
                            + 1000 * (cuda.blockIdx.x + 2 * cuda.blockIdx.y + 4 *
                                      cuda.blockIdx.z)
                            + 100000 * (cuda.blockDim.x * cuda.blockDim.y * cuda.blockDim.z)
                            + 10000000 * (cuda.gridDim.x + cuda.gridDim.y + cuda.gridDim.z)
                            + 1000000000 * (w * h * d))

    out = np.zeros((4, 6, 8), np.int64)
    where[(2, 3, 2), (4, 2, 2)](out)
    z, y, x = np.indices(out.shape)
    tx, ty, tz = x % 4, y % 2, z % 2
    bx, by, bz = x // 4, y // 2, z // 2
    ref = (tx + 10 * ty + 100 * tz + 1000 * (bx + 2 * by + 4 * bz) + 100000 * 16
           + 10000000 * 7 + 1000000000 * (8 * 6 * 4))
    assert np.array_equal(out, ref)


def test_shape_size_ndim_strides_len(rng):
    @cuda.jit
    def info(a, out):
        out[0] = a.shape[0]
        out[1] = a.shape[1]
        out[2] = a.size
        out[3] = a.ndim
        out[4] = a.strides[0]
        out[5] = a.strides[1]
        out[6] = len(a)
        n, m = a.shape
        out[7] = n * 100 + m
        out[8] = (a.shape == (5, 7)) + 2 * (a.shape != out.shape) + 4 * (out.shape == (9,))

    a = rng.random((5, 7)).astype(np.float32)
    out = np.zeros(9, np.int64)
    info[1, 1](a, out)
    assert out.tolist() == [5, 7, 35, 2, 28, 4, 5, 507, 7]


def test_negative_indices_wrap_around(rng):
    @cuda.jit
    def rev(a, out, ends):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[-1 - i]
        if i == 0:  # negative constant indices (no other thread writes ends)
            ends[-1] = a[-1]
            ends[-2] = a[-a.size]

    a = rng.random(300)
    out = np.zeros_like(a)
    ends = np.zeros(2)
    launch1(rev, a.size, a, out, ends)
    assert np.array_equal(out, a[::-1])
    assert ends.tolist() == [a[0], a[-1]]


def test_strided_and_fortran_inputs(rng):
    @cuda.jit
    def scale(a):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] = a[i, j] * 2 + i - j

    base = rng.random((40, 30))
    for a in (base[::2, 1::3], np.asfortranarray(base)):
        ref = a * 2 + np.arange(a.shape[0])[:, None] - np.arange(a.shape[1])[None, :]
        scale[(4, 4), (16, 16)](a)
        assert np.array_equal(a, ref)


def test_scalar_argument_types(rng):
    @cuda.jit
    def axpb(a, x, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * x[i] + b

    x = rng.random(100).astype(np.float32)
    for a, b in ((2, 3), (2.5, -1.0), (np.float32(1.5), np.int32(4)), (True, 0),
                 (np.int64(-3), np.uint32(7))):
        out = np.zeros(100, np.float64)
        launch1(axpb, 100, a, x, b, out)
        # numba's types: Python int int64, float float64, bool bool; numpy scalars theirs
        A, B = (np.asarray(v) if isinstance(v, np.generic) else
                np.asarray(v, {bool: np.bool_, int: np.int64, float: np.float64}[type(v)])
                for v in (a, b))
        t1 = np.promote_types(A.dtype, x.dtype)
        prod = A.astype(t1) * x.astype(t1)
        t2 = np.promote_types(t1, B.dtype)
        assert np.array_equal(out, prod.astype(t2) + B.astype(t2)), (a, b)


# ---------------------------------------------------------------- statements


def test_if_elif_else_ternary_chained_compare(rng):
    @cuda.jit
    def classify(a, out):
        i = cuda.grid(1)
        if i >= a.size:
            return
        v = a[i]
        if v < -0.5:
            r = 1
        elif -0.5 <= v < 0.0:
            r = 2
        elif 0.0 <= v < 0.5 and not v == 0.25:
            r = 3
        else:
            r = 4 if v > 0.75 or v == 0.25 else 5
        out[i] = r

    a = rng.random(1000) * 2 - 1
    a[:3] = [0.25, 0.0, -0.5]
    out = np.zeros(1000, np.int32)
    launch1(classify, 1000, a, out)
    ref = np.select([a < -0.5, (a >= -0.5) & (a < 0), (a >= 0) & (a < 0.5) & (a != 0.25),
                     (a > 0.75) | (a == 0.25)], [1, 2, 3, 4], 5)
    assert np.array_equal(out, ref)


def test_for_range_forms_and_negative_steps(rng):
    @cuda.jit
    def sums(params, out):
        i = cuda.grid(1)
        if i < out.shape[0]:
            start, stop, step = params[i, 0], params[i, 1], params[i, 2]
            s = 0
            c = 0
            for k in range(start, stop, step):
                s += k * (c + 1)
                c += 1
            last = -999
            for k in range(stop):
                last = k
            out[i, 0] = s
            out[i, 1] = c
            out[i, 2] = last
            t = 0
            for k in range(10, 0, -3):
                t = t * 10 + k
            out[i, 3] = t

    params = rng.integers(-20, 20, size=(200, 3)).astype(np.int64)
    params[params[:, 2] == 0, 2] = 1
    params[:5] = [[0, 10, 1], [10, 0, -1], [5, 5, 1], [-7, 9, 4], [9, -7, -4]]
    out = np.zeros((200, 4), np.int64)
    launch1(sums, 200, params, out)
    for (start, stop, step), row in zip(params.tolist(), out.tolist()):
        ks = list(range(start, stop, step))
        assert row[0] == sum(k * (c + 1) for c, k in enumerate(ks))
        assert row[1] == len(ks)
        assert row[2] == (stop - 1 if stop > 0 else -999)
        assert row[3] == 10741


def test_while_break_continue(rng):
    @cuda.jit
    def collatz(a, out):
        i = cuda.grid(1)
        if i < a.size:
            n = a[i]
            steps = 0
            while True:
                if n == 1:
                    break
                steps += 1
                if n % 2 == 0:
                    n //= 2
                    continue
                n = 3 * n + 1
            out[i] = steps

    def ref(n):
        s = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            s += 1
        return s

    a = rng.integers(1, 10000, 500).astype(np.int64)
    out = np.zeros(500, np.int64)
    launch1(collatz, 500, a, out)
    assert out.tolist() == [ref(x) for x in a.tolist()]


def test_augmented_and_tuple_assignment(rng):
    @cuda.jit
    def ops(a, out):
        i = cuda.grid(1)
        if i < a.shape[0]:
            x, y = a[i, 0], a[i, 1]
            x, y = y, x  # swap
            p = q = 3
            x += 1
            y -= 2
            x *= 3
            y //= 4
            p **= 2
            q <<= 2
            q |= 1
            q ^= 6
            q &= 0xff
            q >>= 1
            x %= 7
            out[i, 0] = x
            out[i, 1] = y
            out[i, 2] = p + q
            out[i, 3] = 0
            out[i, 3] += x
            out[i, 3] -= 1

    a = rng.integers(-1000, 1000, size=(300, 2)).astype(np.int64)
    out = np.zeros((300, 4), np.int64)
    launch1(ops, 300, a, out)
    for (a0, a1), row in zip(a.tolist(), out.tolist()):
        x, y = a1, a0
        x = ((x + 1) * 3) % 7
        y = (y - 2) // 4
        q = ((((3 << 2) | 1) ^ 6) & 0xff) >> 1
        assert row == [x, y, 9 + q, x - 1]


def test_device_functions_early_return_and_keywords(rng):
    @cuda.jit(device=True)
    def clamp(v, lo, hi):
        if v < lo:
            return lo
        if v > hi:
            return hi
        return v

    @cuda.jit(device=True)
    def poly(x, c0=1.0, c1=2.0):
        return c0 + c1 * clamp(x, -1.0, 1.0)

    @cuda.jit(device=True)
    def store(out, i, v):
        out[i] = v

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            store(out, i, poly(a[i], c1=3.0))

    a = rng.random(500) * 4 - 2
    out = np.zeros_like(a)
    launch1(k, 500, a, out)
    assert np.array_equal(out, 1.0 + 3.0 * np.clip(a, -1.0, 1.0))


def test_globals_and_closures_are_frozen(rng):
    SCALE = 3
    OFFSET = 0.5

    def make(f):
        @cuda.jit
        def k(a):
            i = cuda.grid(1)
            if i < a.size:
                a[i] = a[i] * SCALE + OFFSET * f + GLOBAL_K
        return k

    a = rng.random(64)
    ref = a * 3 + 0.5 * 2 + GLOBAL_K
    k = make(2)
    k[1, 64](a)
    assert np.array_equal(a, ref)


GLOBAL_K = 7


# ---------------------------------------------------------------- typing and arithmetic


def test_typing_rules_numba():
    from kcc._jit import unify, _arith
    assert _arith("int32", "int32") == "int64"
    assert _arith("uint32", "uint8") == "uint64"
    assert _arith("int32", "uint32") == "int64"
    assert _arith("float32", "float64") == "float64"
    assert _arith("float32", "int64") == "float64"
    assert _arith("float32", "int16") == "float32"
    assert _arith("float32", "float32") == "float32"
    assert unify("int32", "int64") == "int64"
    assert unify("int64", "float32") == "float64"

    @cuda.jit
    def k(x32, out):
        a = x32[0] * 0.5        # float32 * Python float -> float64
        b = x32[0] * x32[1]     # float32 * float32 -> float32
        out[0] = a
        out[1] = b

    x = np.array([1.1, 3.3], np.float32)
    out = np.zeros(2, np.float64)
    k[1, 1](x, out)
    assert out[0] == np.float64(x[0]) * 0.5
    assert out[1] == np.float64(x[0] * x[1])
    assert out[0] != np.float64(np.float32(x[0] * np.float32(0.5))) or True
    src = k.inspect_c(x, out)
    assert "double v_a" in src and "float v_b" in src


def test_floor_division_modulo_of_negatives(rng):
    @cuda.jit
    def divmod_k(a, b, q, r, fq, fr):
        i = cuda.grid(1)
        if i < a.size:
            q[i] = a[i] // b[i]
            r[i] = a[i] % b[i]
            fq[i] = (a[i] * 0.5) // (b[i] * 0.25)
            fr[i] = (a[i] * 0.5) % (b[i] * 0.25)

    a = rng.integers(-100, 100, 2000).astype(np.int64)
    b = rng.integers(-9, 9, 2000).astype(np.int64)
    b[b == 0] = 3
    a[:4] = [-(1 << 63), 7, -7, 0]
    b[:4] = [-1, -2, 2, -5]
    q, r = np.zeros_like(a), np.zeros_like(a)
    fq, fr = np.zeros(2000), np.zeros(2000)
    launch1(divmod_k, 2000, a, b, q, r, fq, fr)
    with np.errstate(over="ignore"):
        assert np.array_equal(q[1:], a[1:] // b[1:])
    assert q[0] == -(1 << 63)  # wraps as numba does (no trap, no C undefined behaviour)
    assert np.array_equal(r, [x % y for x, y in zip(a.tolist(), b.tolist())])
    fa, fb = a * 0.5, b * 0.25
    assert np.array_equal(fq, np.floor_divide(fa, fb))
    assert np.array_equal(fr, np.mod(fa, fb))
    assert [x // y for x, y in zip(fa.tolist()[1:], fb.tolist()[1:])] == fq.tolist()[1:]
    assert [x % y for x, y in zip(fa.tolist()[1:], fb.tolist()[1:])] == fr.tolist()[1:]


def test_division_by_zero_gives_zero_for_integers():
    @cuda.jit
    def k(a, out):
        out[0] = a[0] // a[1]
        out[1] = a[0] % a[1]

    out = np.ones(2, np.int64)
    k[1, 1](np.array([5, 0], np.int64), out)
    assert out.tolist() == [0, 0]


def test_integer_overflow_wraps(rng):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            x = a[i]
            out[i, 0] = x * 3037000500
            out[i, 1] = x + 9223372036854775000
            out[i, 2] = -x
            out[i, 3] = x << 40
            out[i, 4] = abs(x)

    a = rng.integers(-(1 << 62), 1 << 62, 500).astype(np.int64)
    a[:3] = [-(1 << 63), (1 << 63) - 1, 0]
    out = np.zeros((500, 5), np.int64)
    launch1(k, 500, a, out)

    def wrap(v):
        v &= (1 << 64) - 1
        return v - (1 << 64) if v >= 1 << 63 else v
    for x, row in zip(a.tolist(), out.tolist()):
        assert row == [wrap(x * 3037000500), wrap(x + 9223372036854775000), wrap(-x),
                       wrap(x << 40), wrap(abs(x))]


def test_int32_arithmetic_is_64_bit(rng):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i] * a[i]  # int32 * int32 -> int64 in numba: no 32-bit overflow

    a = rng.integers(-(1 << 31), (1 << 31) - 1, 300).astype(np.int32)
    out = np.zeros(300, np.int64)
    launch1(k, 300, a, out)
    assert np.array_equal(out, a.astype(np.int64) ** 2)


def test_true_division_power_and_unsigned(rng):
    @cuda.jit
    def k(a, b, u, out, iout, uout):
        i = cuda.grid(1)
        if i < a.size:
            out[i, 0] = a[i] / b[i]
            out[i, 1] = 2.0 ** (a[i] % 5)
            out[i, 2] = (a[i] * 0.1) ** 3
            out[i, 3] = (abs(a[i]) * 0.01) ** 0.5
            iout[i, 0] = a[i] ** 3
            iout[i, 1] = b[i] ** 2
            iout[i, 2] = 2 ** -1  # a negative exponent of an int: 0, as in numba
            uout[i, 0] = u[i] + u[i]
            uout[i, 1] = u[i] - 1
            uout[i, 2] = u[i] // 3
            uout[i, 3] = u[i] >> 1

    a = rng.integers(-50, 50, 400).astype(np.int64)
    b = rng.integers(1, 10, 400).astype(np.int64)
    u = rng.integers(0, 1 << 63, 400, dtype=np.uint64)
    out = np.zeros((400, 4))
    iout = np.zeros((400, 3), np.int64)
    uout = np.zeros((400, 4), np.uint64)
    launch1(k, 400, a, b, u, out, iout, uout)
    assert np.array_equal(out[:, 0], a / b)
    assert np.array_equal(out[:, 1], 2.0 ** (a % 5))
    assert np.allclose(out[:, 2], (a * 0.1) ** 3, rtol=1e-15, atol=0)
    assert np.allclose(out[:, 3], (np.abs(a) * 0.01) ** 0.5, rtol=1e-15, atol=0)
    assert np.array_equal(iout[:, 0], a ** 3)
    assert np.array_equal(iout[:, 1], b ** 2)
    assert np.array_equal(iout[:, 2], np.zeros(400))
    with np.errstate(over="ignore"):
        assert np.array_equal(uout[:, 0], u + u)
        assert np.array_equal(uout[:, 1], u - np.uint64(1))
    assert np.array_equal(uout[:, 2], u // np.uint64(3))
    assert np.array_equal(uout[:, 3], u >> np.uint64(1))


def test_math_functions(rng):
    names1 = ["sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan",
              "atan", "sinh", "cosh", "tanh", "asinh", "fabs", "erf", "erfc", "lgamma",
              "floor", "ceil", "trunc"]
    src = "def mk():\n    @cuda.jit\n    def k(x, out):\n        i = cuda.grid(1)\n" \
          "        if i < x.size:\n"
    for j, n in enumerate(names1):
        src += "            out[i, %d] = math.%s(x[i])\n" % (j, n)
    j = len(names1)
    src += "            out[i, %d] = math.atan2(x[i], 0.5)\n" % j
    src += "            out[i, %d] = math.pow(x[i], 1.5)\n" % (j + 1)
    src += "            out[i, %d] = math.hypot(x[i], 2.0)\n" % (j + 2)
    src += "            out[i, %d] = math.fmod(x[i] * 7, 1.5)\n" % (j + 3)
    src += "            out[i, %d] = math.copysign(x[i], -1.0)\n" % (j + 4)
    src += "            out[i, %d] = math.asin(x[i] * 0.1) + math.acos(x[i] * 0.1)\n" % (j + 5)
    src += "            out[i, %d] = math.isnan(x[i]) + 2 * math.isinf(x[i])\n" % (j + 6)
    src += "            out[i, %d] = math.pi * math.e\n" % (j + 7)
    src += "            out[i, %d] = math.log(x[i], 3.0)\n" % (j + 8)
    src += "    return k\n"
    path = os.path.join(os.path.dirname(HERE), "_jit_generated_math.py")
    ns = {}
    exec(compile("import math\nfrom kcc import cuda\n" + src, path, "exec"), ns)
    import linecache
    linecache.cache[path] = (len(src), None, ("import math\nfrom kcc import cuda\n" +
                                              src).splitlines(True), path)
    k = ns["mk"]()
    x = rng.random(256) * 5 + 0.1
    out = np.zeros((256, j + 9))
    launch1(k, 256, x, out)
    for c, n in enumerate(names1):
        ref = [getattr(math, n)(v) for v in x.tolist()]
        # lgamma near its zeros (1 and 2): the device's is within an absolute 1e-15
        assert np.allclose(out[:, c], ref, rtol=4e-15, atol=1e-14 if n == "lgamma" else 0), n
    assert np.allclose(out[:, j], np.arctan2(x, 0.5), rtol=4e-15)
    assert np.allclose(out[:, j + 1], x ** 1.5, rtol=4e-15)
    assert np.allclose(out[:, j + 2], np.hypot(x, 2.0), rtol=4e-15)
    assert np.array_equal(out[:, j + 3], np.fmod(x * 7, 1.5))
    assert np.array_equal(out[:, j + 4], -x)
    assert np.allclose(out[:, j + 5], np.arcsin(x * 0.1) + np.arccos(x * 0.1), rtol=4e-15)
    assert np.array_equal(out[:, j + 6], np.zeros(256))
    assert np.array_equal(out[:, j + 7], np.full(256, math.pi * math.e))
    assert np.allclose(out[:, j + 8], np.log(x) / np.log(3.0), rtol=4e-15)


def test_math_float32_stays_float32(rng):
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = math.sqrt(x[i]) + math.exp(x[i] * np.float32(0.5))

    x = rng.random(100).astype(np.float32)
    out = np.zeros(100, np.float32)
    launch1(k, 100, x, out)
    assert "sqrtf(" in k.inspect_c(x, out) and "expf(" in k.inspect_c(x, out)
    assert np.allclose(out, np.sqrt(x) + np.exp(x * np.float32(0.5)), rtol=3e-7)


def test_builtins_and_numpy_constructors(rng):
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < x.size:
            v = x[i]
            out[i, 0] = abs(v)
            out[i, 1] = min(v, 0.5)
            out[i, 2] = max(v, 0.5, -v)
            out[i, 3] = round(v)
            out[i, 4] = round(v * 10, 1)
            out[i, 5] = int(v * 3)
            out[i, 6] = float(int(v))
            out[i, 7] = bool(v > 0)
            out[i, 8] = np.float32(v)
            out[i, 9] = np.int32(v * 1000)
            out[i, 10] = np.uint8(int(v * 100))
            out[i, 11] = min(i, 3) + max(3, i)
            out[i, 12] = pow(v, 2)

    x = rng.random(200) * 8 - 4
    x[:4] = [0.5, 1.5, 2.5, -2.5]
    out = np.zeros((200, 13))
    launch1(k, 200, x, out)
    i = np.arange(200)
    assert np.array_equal(out[:, 0], np.abs(x))
    assert np.array_equal(out[:, 1], np.minimum(x, 0.5))
    assert np.array_equal(out[:, 2], np.maximum(np.maximum(x, 0.5), -x))
    assert out[:, 3].tolist() == [round(v) for v in x.tolist()]
    assert np.allclose(out[:, 4], np.round(x * 10, 1), rtol=0, atol=1e-12)
    assert out[:, 5].tolist() == [int(v * 3) for v in x.tolist()]
    assert out[:, 6].tolist() == [float(int(v)) for v in x.tolist()]
    assert np.array_equal(out[:, 7], x > 0)
    assert np.array_equal(out[:, 8], x.astype(np.float32))
    assert np.array_equal(out[:, 9], (x * 1000).astype(np.int32))
    assert np.array_equal(out[:, 10], (x * 100).astype(np.int64).astype(np.uint8))
    assert np.array_equal(out[:, 11], np.minimum(i, 3) + np.maximum(3, i))
    assert np.array_equal(out[:, 12], x ** 2)


def test_and_or_values_and_not(rng):
    @cuda.jit
    def k(a, b, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i, 0] = a[i] and b[i]
            out[i, 1] = a[i] or b[i]
            out[i, 2] = not a[i]
            out[i, 3] = (a[i] > 2) or (b[i] > 2) and not (a[i] == b[i])

    a = rng.integers(0, 4, 300).astype(np.int64)
    b = rng.integers(0, 4, 300).astype(np.int64)
    out = np.zeros((300, 4), np.int64)
    launch1(k, 300, a, b, out)
    for x, y, row in zip(a.tolist(), b.tolist(), out.tolist()):
        assert row == [x and y, x or y, not x, (x > 2) or (y > 2) and not (x == y)]


# ---------------------------------------------------------------- numba-style programs


TPB = 128


def test_shared_memory_reduction(rng):
    @cuda.jit
    def block_sum(a, partial):
        sm = cuda.shared.array(TPB, dtype=np.float64)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        sm[t] = a[i] if i < a.size else 0.0
        cuda.syncthreads()
        s = TPB // 2
        while s > 0:
            if t < s:
                sm[t] += sm[t + s]
            cuda.syncthreads()
            s //= 2
        if t == 0:
            partial[cuda.blockIdx.x] = sm[0]

    a = rng.random(10000)
    nb = (a.size + TPB - 1) // TPB
    partial = np.zeros(nb)
    block_sum[nb, TPB](a, partial)
    ref = np.array([a[b * TPB:(b + 1) * TPB].sum() for b in range(nb)])
    assert np.allclose(partial, ref, rtol=1e-13)


def test_stencil_2d(rng):
    @cuda.jit
    def laplace(u, out):
        i, j = cuda.grid(2)
        n, m = u.shape
        if 0 < i < n - 1 and 0 < j < m - 1:
            out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4 * u[i, j]

    u = rng.random((70, 50)).astype(np.float32)
    out = np.zeros_like(u)
    laplace[(5, 4), (16, 16)](u, out)
    ref = np.zeros_like(u)
    ref[1:-1, 1:-1] = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                       - 4 * u[1:-1, 1:-1])
    assert np.allclose(out, ref, rtol=1e-6, atol=1e-6)


def test_histogram_atomics(rng):
    @cuda.jit
    def hist(x, bins):
        i = cuda.grid(1)
        if i < x.size:
            cuda.atomic.add(bins, int(x[i] * bins.size), 1)

    x = rng.random(20000)
    bins = np.zeros(16, np.int32)
    launch1(hist, x.size, x, bins, tpb=128)
    assert np.array_equal(bins, np.histogram(x, 16, (0, 1))[0])


def test_atomics_return_old_values(rng):
    @cuda.jit
    def k(ai, au, af, fl, old):
        i = cuda.grid(1)
        if i < old.shape[0]:
            old[i, 0] = cuda.atomic.add(ai, 0, 1)
            cuda.atomic.sub(ai, 1, 2)
            cuda.atomic.max(ai, 2, i)
            cuda.atomic.min(ai, 3, -i)
            cuda.atomic.and_(au, 0, ~(1 << (i % 32)))
            cuda.atomic.or_(au, 1, 1 << (i % 32))
            cuda.atomic.xor(au, 2, 1 << (i % 5))
            cuda.atomic.inc(au, 3, 9)
            cuda.atomic.dec(au, 4, 9)
            cuda.atomic.add(af, 0, 0.5)
            cuda.atomic.max(af, 1, i * 0.25)
            cuda.atomic.min(af, 2, -i * 0.25)
            cuda.atomic.exch(fl, i, 7)
            old[i, 1] = cuda.atomic.cas(fl, i, 7, 9)

    n = 100
    ai = np.zeros(4, np.int64)
    au = np.array([0xffffffff, 0, 0, 0, 0], np.uint32)
    af = np.zeros(3, np.float32)
    fl = np.zeros(n, np.int32)
    old = np.zeros((n, 2), np.int64)
    launch1(k, n, ai, au, af, fl, old)
    assert sorted(old[:, 0].tolist()) == list(range(n))
    assert ai.tolist() == [n, -2 * n, n - 1, -(n - 1)]
    assert au[0] == 0 and au[1] == 0xffffffff
    x = 0
    for i in range(n):
        x ^= 1 << (i % 5)
    assert au[2] == x
    assert au[3] == n % 10 and au[4] == (-n) % 10
    assert af.tolist() == [n * 0.5, (n - 1) * 0.25, -(n - 1) * 0.25]
    assert fl.tolist() == [9] * n and old[:, 1].tolist() == [7] * n


def test_shared_tile_matmul(rng):
    T = 16

    @cuda.jit
    def matmul(A, B, C):
        sA = cuda.shared.array(shape=(T, T), dtype=np.float32)
        sB = cuda.shared.array(shape=(T, T), dtype=np.float32)
        x, y = cuda.grid(2)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        bpg = cuda.gridDim.x
        tmp = np.float32(0.)
        for i in range(bpg):
            sA[ty, tx] = 0
            sB[ty, tx] = 0
            if y < A.shape[0] and (tx + i * T) < A.shape[1]:
                sA[ty, tx] = A[y, tx + i * T]
            if x < B.shape[1] and (ty + i * T) < B.shape[0]:
                sB[ty, tx] = B[ty + i * T, x]
            cuda.syncthreads()
            for j in range(T):
                tmp += sA[ty, j] * sB[j, tx]
            cuda.syncthreads()
        if y < C.shape[0] and x < C.shape[1]:
            C[y, x] = tmp

    n = 48
    A = rng.random((n, n)).astype(np.float32)
    B = rng.random((n, n)).astype(np.float32)
    C = np.zeros((n, n), np.float32)
    matmul[(n // T, n // T), (T, T)](A, B, C)
    assert np.allclose(C, A @ B, rtol=1e-5)
    assert "float v_tmp" in matmul.inspect_c(A, B, C)  # np.float32(0.) += f32*f32


def test_dynamic_shared_memory_and_local_arrays(rng):
    @cuda.jit
    def k(a, out):
        dyn = cuda.shared.array(0, dtype=np.float32)
        loc = cuda.local.array(4, np.int64)
        t = cuda.threadIdx.x
        dyn[t] = a[cuda.grid(1)]
        cuda.syncthreads()
        for j in range(4):
            loc[j] = j * t
        out[cuda.grid(1)] = dyn[dyn.size - 1 - t] + loc[3] + dyn.shape[0]

    a = rng.random(256).astype(np.float32)
    out = np.zeros_like(a)
    k[4, 64, 0, 64 * 4](a, out)
    t = np.arange(256) % 64
    ref = a.reshape(4, 64)[:, ::-1].reshape(-1) + 3 * t + 64
    assert np.array_equal(out, ref.astype(np.float32))


def test_syncthreads_count_and_or(rng):
    @cuda.jit
    def k(a, out):
        t = cuda.threadIdx.x
        p = a[cuda.grid(1)] > 0.5
        c = cuda.syncthreads_count(p)
        x = cuda.syncthreads_and(p)
        y = cuda.syncthreads_or(p)
        if t == 0:
            out[cuda.blockIdx.x, 0] = c
            out[cuda.blockIdx.x, 1] = x
            out[cuda.blockIdx.x, 2] = y

    a = rng.random(4 * 32)
    a[32:64] = 1.0
    a[64:96] = 0.0
    out = np.zeros((4, 3), np.int32)
    k[4, 32](a, out)
    b = (a > 0.5).reshape(4, 32)
    assert np.array_equal(out, np.stack([b.sum(1), b.all(1), b.any(1)], 1))


def test_global_array_is_a_constant_table(rng):
    @cuda.jit
    def k(idx, out):
        i = cuda.grid(1)
        if i < idx.size:
            out[i] = LUT[idx[i]] + cuda.const.array_like(LUT)[0]

    idx = rng.integers(0, LUT.size, 100).astype(np.int32)
    out = np.zeros(100)
    launch1(k, 100, idx, out)
    assert np.array_equal(out, LUT[idx] + LUT[0])


LUT = np.array([1.5, -2.0, 3.25, 8.0, 0.125])


def test_print_thread_ids():
    st, out, err = run_python("import runpy; runpy.run_path(%r)"
                              % os.path.join(os.path.dirname(HERE), "jit_print_prog.py"))
    assert st == 0, err
    lines = out.splitlines()
    assert sorted(lines[:8]) == sorted("thread %d block %d of 4 2.500000" % (t, b)
                                       for b in range(2) for t in range(4))
    assert lines[8:] == ['é"%d\\ 100% 1 -3 1.500000', '3%,4;']


def test_warp_functions(rng):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        v = a[i]
        s = v
        off = 16
        while off > 0:
            s += cuda.shfl_down_sync(0xffffffff, s, off)
            off //= 2
        out[i, 0] = s
        out[i, 1] = cuda.ballot_sync(0xffffffff, v > 50)
        out[i, 2] = cuda.all_sync(0xffffffff, v >= 0)
        out[i, 3] = cuda.shfl_sync(0xffffffff, v, 3)
        out[i, 4] = cuda.laneid + cuda.warpsize
        out[i, 5] = cuda.lanemask_lt()
        out[i, 6] = cuda.match_any_sync(0xffffffff, v % 2)

    a = rng.integers(0, 100, 64).astype(np.int64)
    out = np.zeros((64, 7), np.int64)
    try:
        k[2, 32](a, out)
    except kcc.NotSupportedError as e:
        pytest.skip("no 32-wide subgroups on this device: %s" % e)
    w = a.reshape(2, 32)
    assert out[0::32, 0].tolist() == w.sum(1).tolist()
    bal = [sum(1 << j for j in range(32) if row[j] > 50) for row in w.tolist()]
    assert out[:, 1].tolist() == [b for b in bal for _ in range(32)]
    assert out[:, 2].tolist() == [1] * 64
    assert out[:, 3].tolist() == [w[0, 3]] * 32 + [w[1, 3]] * 32
    assert out[:, 4].tolist() == [j % 32 + 32 for j in range(64)]
    assert out[:, 5].tolist() == [(1 << (j % 32)) - 1 for j in range(64)]
    par = [sum(1 << j for j in range(32) if row[j] % 2 == p) for row in w.tolist()
           for p in (0, 1)]
    assert out[:, 6].tolist() == [par[2 * (j // 32) + int(a[j] % 2)] for j in range(64)]


def test_forall_and_launch_config_forms(rng):
    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= 2

    a = rng.random(1000)
    ref = a * 2
    k.forall(a.size)(a)
    assert np.array_equal(a, ref)
    s = cuda.stream()
    d = cuda.to_device(a)
    k[8, 128, s](d)
    k[8, 128, s, 0](d)
    s.synchronize()
    assert np.array_equal(d.copy_to_host(), ref * 4)
    k[8, 128, 0](a)
    assert np.array_equal(a, ref * 2)
    k[[8], [128]](a)  # lists, as numba takes them
    assert np.array_equal(a, ref * 4)


def test_explicit_signature_compiles_eagerly(rng):
    before = kcc.stats()["compiles"] + kcc.stats()["cache_hits"]

    @cuda.jit("void(float32[:], int32)")
    def k(a, n):
        i = cuda.grid(1)
        if i < n:
            a[i] += n

    assert kcc.stats()["compiles"] + kcc.stats()["cache_hits"] == before + 1
    a = rng.random(50).astype(np.float32)
    ref = a + np.float32(50)
    k[1, 64](a, 50)
    assert np.array_equal(a, ref)
    assert kcc.stats()["compiles"] + kcc.stats()["cache_hits"] == before + 1
    with pytest.raises(TypeError, match="no signature matches"):
        k[1, 64](a.astype(np.float64), 50)


def test_kcc_jit_is_cuda_jit():
    assert kcc.jit is cuda.jit


def test_host_side_api():
    assert cuda.is_available()
    d = cuda.get_current_device()
    assert d.id == kcc.get_device().index and isinstance(d.name, bytes)
    assert cuda.select_device(0).id == 0
    x = cuda.device_array(5)
    assert x.dtype == np.float64  # numba's default
    e0, e1 = cuda.event(), cuda.event()
    e0.record()
    e1.record()
    e1.synchronize()
    assert cuda.event_elapsed_time(e0, e1) >= 0
    with pytest.raises(TypeError, match="only be used inside a kernel"):
        cuda.grid(1)
    p = cuda.pinned_array((3, 2), np.int32)
    assert p.shape == (3, 2)


# ---------------------------------------------------------------- the cache

CACHE_PROG = r"""
import numpy as np, kcc
from kcc import cuda
K = %d

@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * K + 1

a = np.arange(10, dtype=np.int64)
k[1, 32](a)
print(kcc.stats()['compiles'], kcc.stats()['cache_hits'], k._pf is None, a.tolist())
"""


def test_cache_second_process_compiles_nothing(tmp_path):
    prog = tmp_path / "prog.py"
    env = {"XDG_CACHE_HOME": str(tmp_path / "c")}
    prog.write_text(CACHE_PROG % 3)
    code = "exec(compile(open(%r).read(), %r, 'exec'))" % (str(prog), str(prog))
    outs = []
    for _ in range(2):
        st, out, err = run_python(code, env)
        assert st == 0, err
        outs.append(out.split(None, 2))
    ref = str([x * 3 + 1 for x in range(10)])
    assert outs[0] == ["1", "0", "False " + ref + "\n"]
    # a second process compiles nothing, and does not even translate (k._pf: the parsed
    # function, made only to translate)
    assert outs[1] == ["0", "1", "True " + ref + "\n"]
    prog.write_text(CACHE_PROG % 5)  # editing a global constant recompiles
    st, out, err = run_python(code, env)
    assert st == 0, err
    assert out.split(None, 2) == ["1", "0", "False " + str([x * 5 + 1 for x in range(10)]) +
                                  "\n"]


# ---------------------------------------------------------------- errors


def test_error_unsupported_construct():
    @cuda.jit
    def k(a):
        a[0] = [1, 2][0]

    with pytest.raises(kcc.CompileError) as e:
        k[1, 1](np.zeros(1))
    ln = line_of(k.py_func, "[1, 2][0]")
    assert str(e.value).startswith(
        "%s:%d:16: error: '[1, 2]' is not supported in kernels (kcc.jit: docs/python.md, "
        "'From numba', lists what is)\n    a[0] = [1, 2][0]" % (HERE, ln))


def test_error_messages_name_file_line_and_construct():
    @cuda.jit
    def k1(a):
        for x in a.dtype:
            pass

    @cuda.jit
    def k2(a):
        a[0] = undefined_name

    @cuda.jit
    def k3(a):
        with open("f"):
            pass

    @cuda.jit
    def k4(a):
        return 1

    @cuda.jit
    def k5(a):
        a[0] = sorted(a)

    @cuda.jit
    def k6(a):
        a[1:3] = (1, 2)

    @cuda.jit
    def k7(a, n):
        sm = cuda.shared.array(n, np.float32)

    @cuda.jit(device=True)
    def rec(x):
        return rec(x - 1)

    @cuda.jit
    def k8(a):
        a[0] = rec(1)

    cases = [
        (k1, "for x in a", 18, "a kernel's for loop goes over range(...), a tuple or an array "
         "(kcc.jit cannot iterate over 'a.dtype')"),
        (k2, "undefined_name", 16, "name 'undefined_name' is not defined"),
        (k3, "with open", 9, "'with' is not supported in kernels"),
        (k4, "return 1", 9, "a kernel cannot return a value"),
        (k5, "sorted", 16, "call of 'sorted': kernels can call device functions"),
        (k6, "a[1:3]", 9, "cannot store a tuple into an array slice"),
        (k7, "shared.array", 32, "cuda.shared.array's shape must be a constant integer"),
        (k8, "return rec", 16, "recursion (rec calls itself): kernels cannot recurse"),
    ]
    for k, text, col, msg in cases:
        with pytest.raises(kcc.CompileError) as e:
            k[1, 1](np.zeros(4), 3) if k is k7 else k[1, 1](np.zeros(4))
        fn = rec.py_func if k is k8 else k.py_func
        prefix = "%s:%d:%d: error: %s" % (HERE, line_of(fn, text), col, msg)
        assert str(e.value).startswith(prefix), (str(e.value), prefix)


def test_error_types_of_variables_and_arguments():
    @cuda.jit
    def k(a, b):
        x = a
        x = b

    with pytest.raises(kcc.CompileError, match="variable 'x' refers to different arrays"):
        k[1, 1](np.zeros(2), np.zeros(2))
    with pytest.raises(TypeError, match="k: kcc.jit: a kernel argument is a number"):
        k[1, 1]("s", np.zeros(2))
    with pytest.raises(TypeError, match="launch it with a configuration"):
        k(np.zeros(2), np.zeros(2))

    @cuda.jit(device=True)
    def d(x):
        return x

    with pytest.raises(TypeError, match="device function"):
        d(1)


def test_out_of_bounds_names_the_python_line():
    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        a[i + 1] = 1.0

    if not kcc.get_device().type == "cpu":
        pytest.skip("bounds checks are on by default on CPU devices")
    with pytest.raises(kcc.OutOfBoundsError) as e:
        k[1, 8](np.zeros(8))
    assert str(e.value) == (
        "launching k: kernel 'k' at %s:%d: thread (7,0,0) of block (0,0,0) writes a[8]; a holds "
        "8 double (64 bytes)" % (HERE, line_of(k.py_func, "a[i + 1]")))


# ---------------------------------------------------------------- more constructs


def test_rows_ufuncs_small_types_and_bools(rng):
    @cuda.jit(device=True)
    def row_sum(r):
        s = 0.0
        for j in range(r.size):
            s += r[j]
        return s

    @cuda.jit
    def k(m, flags, small, out):
        i = cuda.grid(1)
        if i < m.shape[0]:
            row = m[i]
            out[i, 0] = row_sum(row)
            out[i, 1] = np.sqrt(abs(row[0])) + np.minimum(row[1], row[2])
            out[i, 2] = np.maximum(row[1], 0.25) + np.floor(row[0] * 3)
            out[i, 3] = 1.0 if flags[i] else -1.0
            flags[i] = not flags[i]
            small[i] += 100  # int8 wraps as numpy's
            out[i, 4] = math.tau + math.inf * 0 if False else math.tau

    m = rng.random((50, 6)) * 2 - 1
    flags = rng.random(50) > 0.5
    small = rng.integers(-128, 127, 50).astype(np.int8)
    f0, s0 = flags.copy(), small.copy()
    out = np.zeros((50, 5))
    launch1(k, 50, m, flags, small, out)
    assert np.allclose(out[:, 0], m.sum(1), rtol=1e-14)
    assert np.array_equal(out[:, 1], np.sqrt(np.abs(m[:, 0])) + np.minimum(m[:, 1], m[:, 2]))
    assert np.array_equal(out[:, 2], np.maximum(m[:, 1], 0.25) + np.floor(m[:, 0] * 3))
    assert np.array_equal(out[:, 3], np.where(f0, 1.0, -1.0))
    assert np.array_equal(flags, ~f0)
    assert np.array_equal(small, (s0.astype(np.int64) + 100).astype(np.int8))
    assert np.array_equal(out[:, 4], np.full(50, math.tau))


def test_device_function_specialised_per_argument_types(rng):
    @cuda.jit(device=True)
    def twice(x):
        return x + x

    @cuda.jit
    def k(a, out_i, out_f):
        i = cuda.grid(1)
        if i < a.size:
            out_i[i] = twice(i)
            out_f[i] = twice(a[i])

    a = rng.random(40).astype(np.float32)
    oi, of = np.zeros(40, np.int64), np.zeros(40, np.float32)
    launch1(k, 40, a, oi, of)
    assert np.array_equal(oi, 2 * np.arange(40)) and np.array_equal(of, a + a)
    src = k.inspect_c(a, oi, of)
    assert "static long kjd_twice" in src and "static float kjd_twice" in src


def test_constant_condition_writes_one_branch():
    @cuda.jit
    def k(out):
        if USE_FAST:
            out[0] = 1
        else:
            out[0] = undefined_is_never_translated  # noqa: F821

    out = np.zeros(1, np.int32)
    k[1, 1](out)
    assert out[0] == 1


USE_FAST = True


def test_translator_bug_is_reported_at_the_python_line(monkeypatch):
    import kcc._jit as J

    @cuda.jit
    def k(a):
        a[0] = 1

    real = J.translate_kernel

    def broken(pf, types, fp32=False):
        text, cname, written, dyn, linemap = real(pf, types, fp32)
        lines = text.split("\n")
        n = max(linemap)
        lines[n - 1] += " this_is_not_c;"
        return "\n".join(lines), cname, written, dyn, linemap

    monkeypatch.setattr(J, "translate_kernel", broken)
    with pytest.raises(kcc.CompileError) as e:
        k[1, 1](np.zeros(1))
    msg = str(e.value)
    assert msg.startswith("kcc.jit wrote C that kcc refused for 'k' (a bug of kcc.jit; please "
                          "report it with this message):\n")
    assert "%s:%d" % (HERE, line_of(k.py_func, "a[0] = 1")) in msg


def test_slices_and_views(rng):
    @cuda.jit(device=True)
    def total(v):
        s = 0.0
        for j in range(v.shape[0]):
            s += v[j]
        return s

    @cuda.jit(device=True)
    def fill(v, x):
        for j in range(len(v)):
            v[j] = x

    @cuda.jit
    def k(m, out, w):
        i = cuda.grid(1)
        if i < m.shape[0]:
            row = m[i, :]
            out[i, 0] = total(row[1:])
            out[i, 1] = total(row[::-2])
            out[i, 2] = total(m[:, 2]) + total(m[i, -3:-1])
            out[i, 3] = total(row[10:]) + row[1:4].size + m[1:, ::2].shape[1]
            col = m[:, i % 3]
            i = 0  # the view keeps its index
            out[i + cuda.grid(1), 4] = total(col)
            fill(w[cuda.grid(1), 1::2], 7.0)

    m = rng.random((30, 7))
    out = np.zeros((30, 5))
    w = np.zeros((30, 6))
    launch1(k, 30, m, out, w)
    for i in range(30):
        r = m[i, :]
        assert np.isclose(out[i, 0], r[1:].sum(), rtol=1e-14)
        assert np.isclose(out[i, 1], r[::-2].sum(), rtol=1e-14)
        assert np.isclose(out[i, 2], m[:, 2].sum() + m[i, -3:-1].sum(), rtol=1e-14)
        assert out[i, 3] == 0 + 3 + 4
        assert np.isclose(out[i, 4], m[:, i % 3].sum(), rtol=1e-14)
    assert np.array_equal(w, np.tile([0.0, 7.0], (30, 3)))


def test_device_function_returning_a_tuple(rng):
    @cuda.jit(device=True)
    def divmod_(a, b):
        if b == 0:
            return 0, 0
        return a // b, a % b

    @cuda.jit(device=True)
    def minmax(x, y):
        return (x, y) if x < y else (y, x)

    @cuda.jit
    def k(a, b, out, f):
        i = cuda.grid(1)
        if i < a.size:
            q, r = divmod_(a[i], b[i])
            lo, hi = minmax(f[i, 0], f[i, 1])
            out[i, 0] = q
            out[i, 1] = r
            out[i, 2] = minmax(q, r)[1]
            f[i, 0] = lo
            f[i, 1] = hi

    a = rng.integers(-100, 100, 200).astype(np.int64)
    b = rng.integers(-5, 5, 200).astype(np.int64)
    f = rng.random((200, 2))
    f0 = f.copy()
    out = np.zeros((200, 3), np.int64)
    launch1(k, 200, a, b, out, f)
    for x, y, row in zip(a.tolist(), b.tolist(), out.tolist()):
        q, r = (x // y, x % y) if y else (0, 0)
        assert row == [q, r, max(q, r)]
    assert np.array_equal(f, np.sort(f0, axis=1))


def test_wrong_argument_count():
    @cuda.jit
    def k(a, b):
        pass

    with pytest.raises(TypeError, match=r"kernel k\(a, b\) takes 2 arguments, got 1"):
        k[1, 1](np.zeros(1))


def test_cache_does_not_depend_on_the_file_location(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "c")}
    outs = []
    for d in ("a", "b/c"):
        prog = tmp_path / d / "prog.py"
        prog.parent.mkdir(parents=True)
        prog.write_text("\n" * len(d) + CACHE_PROG % 3)  # moved, and lines shifted
        st, out, err = run_python("import runpy; runpy.run_path(%r)" % str(prog), env)
        assert st == 0, err
        outs.append(out.split(None, 2)[:2])
    assert outs == [["1", "0"], ["0", "1"]]  # (the moved file is translated again)


def test_fp32_option_narrows_python_floats(rng):
    def body(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i, 0] = x[i] * 0.5 + 1.0
            out[i, 1] = math.sqrt(i) + i / 3 + float(i)

    k64 = cuda.jit(body)
    k32 = cuda.jit(fp32=True)(body)
    x = rng.random(100).astype(np.float32)
    o64, o32 = np.zeros((100, 2)), np.zeros((100, 2))
    launch1(k64, 100, x, o64)
    launch1(k32, 100, x, o32)
    i = np.arange(100)
    assert np.array_equal(o64[:, 0], x.astype(np.float64) * 0.5 + 1.0)
    assert np.array_equal(o32[:, 0], (x * np.float32(0.5) + np.float32(1.0)).astype(np.float64))
    assert np.allclose(o32[:, 1], np.sqrt(i) + i / 3 + i, rtol=1e-6)
    src = k32.inspect_c(x, o32)
    assert "0.5f" in src and "sqrtf(" in src and "(double)(((a_x" in src  # float32 math


def test_cuda_array_interface_argument_types():
    class Foreign:  # a CUDA array of another library (PyTorch-like: a dtype numpy cannot read)
        dtype = "torch.float32"
        shape = (4, 2)
        __cuda_array_interface__ = {"typestr": "<f4", "shape": (4, 2), "data": (0, False),
                                    "version": 3, "strides": None}

    from kcc._jitdispatch import _argtype
    from kcc._jit import ArrayType
    assert _argtype(Foreign()) == ArrayType("float32", 2)

    @cuda.jit
    def k(a):
        a[0, 0] = 1

    if kcc.get_device().backend != "cuda":
        with pytest.raises(TypeError, match="needs a CUDA device"):
            k[1, 1](Foreign())

    class DLPackOnly:  # a JAX-like array: DLPack, numpy dtype
        dtype = np.dtype(np.int32)
        shape = (3,)
        ndim = 1

        def __dlpack__(self, stream=None):
            raise AssertionError("not on this device")

        def __dlpack_device__(self):
            return (2, 0)

    assert _argtype(DLPackOnly()) == ArrayType("int32", 1)

    @cuda.jit
    def k1(a):
        a[0] = 1

    if kcc.get_device().backend != "cuda":
        with pytest.raises(TypeError, match="needs a CUDA device"):
            k1[1, 1](DLPackOnly())


def test_shared_and_local_arrays_passed_to_device_functions():
    @cuda.jit(device=True)
    def fill(v, x):
        for j in range(v.size):
            v[j] = x + j

    @cuda.jit(device=True)
    def total(v):
        s = 0
        for j in range(len(v)):
            s += v[j]
        return s

    @cuda.jit
    def k(out):
        sm = cuda.shared.array(32, np.int64)
        lo = cuda.local.array((2, 3), np.int64)
        t = cuda.threadIdx.x
        if t == 0:
            fill(sm, 1)
        fill(lo[1], t)
        cuda.syncthreads()
        out[t] = total(sm) * 1000 + total(lo[1]) + total(sm[::8])

    out = np.zeros(32, np.int64)
    k[1, 32](out)
    assert out.tolist() == [sum(range(1, 33)) * 1000 + 3 * t + 3 + (1 + 9 + 17 + 25)
                            for t in range(32)]


def test_translation_cache_keys():
    from kcc._jitdispatch import _translation_key

    def mk(v):
        @cuda.jit
        def k(a):
            a[0] = v
        return k

    a, b = mk(1), mk(2)
    assert _translation_key(a.py_func, ("int64",), False) != \
        _translation_key(b.py_func, ("int64",), False)  # closure values
    assert _translation_key(a.py_func, ("int64",), False) != \
        _translation_key(a.py_func, ("int32",), False)
    assert _translation_key(a.py_func, ("int64",), True) != \
        _translation_key(a.py_func, ("int64",), False)
    c = mk(object())  # a value the key cannot describe: not cached
    assert _translation_key(c.py_func, ("int64",), False) is None
    d = mk(np.arange(3))
    e = mk(np.arange(3) + 1)
    assert _translation_key(d.py_func, ("int64",), False) != \
        _translation_key(e.py_func, ("int64",), False)


def test_argument_errors_name_the_python_parameters():
    @cuda.jit
    def k(a, n):
        a[0] = n

    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError) as e:
        k[1, 1](ro, 1)
    assert str(e.value).startswith("kernel 'k' argument 'a': the array is read-only")

    @cuda.jit("void(float64[:], int32)")
    def s(a, n):
        a[0] = n

    with pytest.raises(OverflowError) as e:
        s[1, 1](np.zeros(3), 1 << 40)
    assert str(e.value) == ("kernel 's' argument 'n': 1099511627776 is out of range "
                            "[-2147483648, 2147483647]")


def test_python_names_never_clash_with_generated_ones(rng):
    @cuda.jit
    def k(x, x_s0, kj_t1, out):
        t = (x_s0, kj_t1)
        t_0 = 5
        row = out[1]
        row_off = 7
        kj_i = 0
        for i in range(2):
            kj_i += i
        row[0] = t[0] + t[1] + t_0 + row_off + kj_i + x[0]

    x = np.array([100.0])
    out = np.zeros((2, 2))
    k[1, 1](x, 1, 2, out)
    assert out[1, 0] == 1 + 2 + 5 + 7 + 1 + 100


def test_for_over_tuples_arrays_and_enumerate(rng):
    @cuda.jit
    def k(u, m, out):
        i, j = cuda.grid(2)
        n, w = u.shape
        if 0 < i < n - 1 and 0 < j < w - 1:
            s = 0.0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if di == 0 and dj == 0:
                        continue
                    s += u[i + di, j + dj]
            out[i, j, 0] = s
        if i == 0 and j == 0:
            t = 0.0
            for x in m[1]:          # a row of a 2-D array
                t += x
            out[0, 0, 0] = t
            c = 0
            for row in m:           # rows as views
                for k2, x in enumerate(row):
                    if x > 0.5:
                        c += k2
                    if k2 == 2:
                        break
            out[0, 0, 1] = c
            p = 1
            for d in u.shape:
                p *= d
            out[0, 1, 0] = p

    u = rng.random((20, 30))
    m = rng.random((6, 5))
    out = np.zeros((20, 30, 2))
    k[(2, 2), (16, 16)](u, m, out)
    ref = np.zeros((20, 30))
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            if di or dj:
                ref[1:-1, 1:-1] += u[1 + di:19 + di, 1 + dj:29 + dj]
    assert np.allclose(out[1:-1, 1:-1, 0], ref[1:-1, 1:-1], rtol=1e-14)
    assert np.isclose(out[0, 0, 0], m[1].sum(), rtol=1e-14)
    assert out[0, 0, 1] == sum(k2 for row in m for k2, x in enumerate(row[:3]) if x > 0.5)
    assert out[0, 1, 0] == 600


def test_numba_options_and_device_signatures_are_taken(rng):
    @cuda.jit("float64(float64, float64)", device=True, inline=True)
    def hyp(x, y):
        return math.sqrt(x * x + y * y)

    @cuda.jit(["void(float64[:], float64[:], float64[:])"], debug=False, opt=True,
              lineinfo=True, cache=True, max_registers=32, boundscheck=None)
    def k(x, y, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = hyp(x[i], y[i])

    x, y = rng.random(64), rng.random(64)
    out = np.zeros(64)
    k[1, 64](x, y, out)
    assert np.allclose(out, np.hypot(x, y), rtol=1e-15)


def test_for_over_zip(rng):
    @cuda.jit
    def dot_rows(m, w, out):
        i = cuda.grid(1)
        if i < m.shape[0]:
            s = 0.0
            for x, y, c in zip(m[i], w, (1, 2, 3, 4, 5, 6, 7)):
                s += x * y * c
            out[i] = s

    m = rng.random((40, 9))
    w = rng.random(8)
    out = np.zeros(40)
    launch1(dot_rows, 40, m, w, out)
    assert np.allclose(out, (m[:, :7] * w[:7] * np.arange(1, 8)).sum(1), rtol=1e-14)


def test_float64_atomics_and_uint64_exchange():
    @cuda.jit
    def k(af, au, out):
        i = cuda.grid(1)
        if i < 100:
            cuda.atomic.max(af, 0, i * 0.5)
            cuda.atomic.min(af, 1, -i * 0.5)
            out[i] = cuda.atomic.add(af, 2, 1.0)
            cuda.atomic.sub(af, 3, 0.25)
            cuda.atomic.exch(au, i, 3)

    af = np.zeros(4)
    au = np.zeros(100, np.uint64)
    out = np.zeros(100)
    k[2, 64](af, au, out)
    assert af.tolist() == [49.5, -49.5, 100.0, -25.0]
    assert sorted(out.tolist()) == [float(x) for x in range(100)]
    assert au.tolist() == [3] * 100


# ---------------------------------------------------------------- more programs


@cuda.jit(device=True)
def escape_time(cr, ci, limit):
    zr = 0.0
    zi = 0.0
    for n in range(limit):
        zr, zi = zr * zr - zi * zi + cr, 2 * zr * zi + ci
        if zr * zr + zi * zi >= 4:
            return n
    return limit


def test_mandelbrot_grid_stride_2d():
    @cuda.jit
    def render(x0, x1, y0, y1, img, limit):
        h, w = img.shape
        dx = (x1 - x0) / w
        dy = (y1 - y0) / h
        sx, sy = cuda.grid(2)
        gx, gy = cuda.gridsize(2)
        for x in range(sx, w, gx):
            for y in range(sy, h, gy):
                img[y, x] = escape_time(x0 + x * dx, y0 + y * dy, limit)

    img = np.zeros((48, 72), np.uint8)
    render[(3, 2), (8, 8)](-2.0, 1.0, -1.0, 1.0, img, 30)

    def ref(cr, ci):
        zr = zi = 0.0
        for n in range(30):
            zr, zi = zr * zr - zi * zi + cr, 2 * zr * zi + ci
            if zr * zr + zi * zi >= 4:
                return n
        return 30
    assert img.tolist() == [[ref(-2.0 + x * (3.0 / 72), -1.0 + y * (2.0 / 48))
                             for x in range(72)] for y in range(48)]


def test_option_pricing_with_device_math(rng):
    @cuda.jit(device=True)
    def normal_cdf(z):
        return 0.5 * math.erfc(-z / math.sqrt(2.0))

    @cuda.jit
    def price(spot, strike, years, rate, vol, call, put):
        i = cuda.grid(1)
        if i >= spot.size:
            return
        root = math.sqrt(years[i])
        a = (math.log(spot[i] / strike[i]) + (rate + vol * vol / 2) * years[i]) / (vol * root)
        b = a - vol * root
        disc = strike[i] * math.exp(-rate * years[i])
        call[i] = spot[i] * normal_cdf(a) - disc * normal_cdf(b)
        put[i] = disc * normal_cdf(-b) - spot[i] * normal_cdf(-a)

    n = 3000
    s, k, t = rng.uniform(5, 30, n), rng.uniform(1, 100, n), rng.uniform(0.25, 10, n)
    call, put = np.zeros(n), np.zeros(n)
    launch1(price, n, s, k, t, 0.02, 0.3, call, put, tpb=128)
    ncdf = np.vectorize(lambda z: 0.5 * math.erfc(-z / math.sqrt(2.0)))
    a = (np.log(s / k) + (0.02 + 0.3 * 0.3 / 2) * t) / (0.3 * np.sqrt(t))
    b = a - 0.3 * np.sqrt(t)
    disc = k * np.exp(-0.02 * t)
    assert np.allclose(call, s * ncdf(a) - disc * ncdf(b), rtol=1e-12, atol=1e-12)
    assert np.allclose(put, disc * ncdf(-b) - s * ncdf(-a), rtol=1e-12, atol=1e-12)


def test_block_scan_in_shared_memory(rng):
    B = 256

    @cuda.jit
    def scan(a, out):
        buf = cuda.shared.array(B, np.int32)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        buf[t] = a[i]
        cuda.syncthreads()
        step = 1
        while step < B:
            v = buf[t - step] if t >= step else 0
            cuda.syncthreads()
            buf[t] += v
            cuda.syncthreads()
            step *= 2
        out[i] = buf[t]

    a = rng.integers(0, 10, 4 * B).astype(np.int32)
    out = np.zeros_like(a)
    scan[4, B](a, out)
    assert np.array_equal(out, np.cumsum(a.reshape(4, B), axis=1).reshape(-1))


def test_cuda_random_xoroshiro128p():
    from kcc.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_states_host,
                                 xoroshiro128p_next, xoroshiro128p_normal_float64,
                                 xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64)

    @cuda.jit
    def raw(states, out):
        t = cuda.grid(1)
        for j in range(out.shape[1]):
            out[t, j] = xoroshiro128p_next(states, t)

    host = init_xoroshiro128p_states_host(64, seed=7)
    out = np.zeros((64, 5), np.uint64)
    raw[1, 64](host.copy(), out)
    m = (1 << 64) - 1

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & m
    for t in range(64):
        s0, s1 = int(host[t, 0]), int(host[t, 1])
        for j in range(5):
            assert int(out[t, j]) == (s0 + s1) & m  # xoroshiro128+ (24, 16, 37)
            s1 ^= s0
            s0, s1 = rotl(s0, 24) ^ s1 ^ ((s1 << 16) & m), rotl(s1, 37)
    assert len({tuple(r) for r in host.tolist()}) == 64  # a state per thread

    @cuda.jit
    def draw(states, u32, u64, z):
        t = cuda.grid(1)
        for j in range(u32.shape[1]):
            u32[t, j] = xoroshiro128p_uniform_float32(states, t)
            u64[t, j] = xoroshiro128p_uniform_float64(states, t)
            z[t, j] = xoroshiro128p_normal_float64(states, t)

    st = create_xoroshiro128p_states(256, seed=1)
    u32, u64, z = np.zeros((256, 100), np.float32), np.zeros((256, 100)), np.zeros((256, 100))
    draw[4, 64](st, u32, u64, z)
    for u in (u32, u64):
        assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.01
    assert abs(z.mean()) < 0.02 and abs(z.std() - 1) < 0.02
    again = np.zeros((256, 100), np.float32)
    draw[4, 64](create_xoroshiro128p_states(256, seed=1), again, u64, z)
    assert np.array_equal(again, u32)  # a seed gives the same numbers


def test_numba_scalar_types_from_kcc():
    from kcc import float32, int32, boolean, f8

    @cuda.jit
    def k(out):
        sm = cuda.shared.array(4, dtype=float32)
        loc = cuda.local.array(2, int32)
        sm[0] = float32(1.5)
        loc[0] = int32(7.9)
        out[0] = sm[0] + loc[0] + boolean(3) + f8(0.25)

    out = np.zeros(1)
    k[1, 1](out)
    assert out[0] == 1.5 + 7 + 1 + 0.25


def test_narrowing_casts_wrap_before_indexing():
    @cuda.jit
    def k(a, out):
        i = np.int8(200 + cuda.threadIdx.x)  # -56: an index from the end
        out[0] = a[i]

    a = np.arange(100.0)
    out = np.zeros(1)
    k[1, 1](a, out)
    assert out[0] == a[-56]


def test_tuple_indexed_at_run_time(rng):
    OFFSETS = (-1, 0, 1)

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if 0 < i < a.size - 1:
            s = 0.0
            for d in range(3):
                s += a[i + OFFSETS[d]] * (1.0, 2.0, 1.0)[d]
            out[i] = s + OFFSETS[-1 - d]

    a = rng.random(100)
    out = np.zeros(100)
    launch1(k, 100, a, out)
    ref = np.zeros(100)
    ref[1:-1] = a[:-2] + 2 * a[1:-1] + a[2:] - 1
    assert np.allclose(out, ref, rtol=1e-15)


def test_slice_assignment(rng):
    @cuda.jit
    def k(m, v, out):
        i = cuda.grid(1)
        if i < m.shape[0]:
            out[i, :] = 0.5
            out[i, 1:4] = v[:3]
            out[i, ::2] += m[i, ::2]
            out[i, -1] *= i

    m = rng.random((20, 7))
    v = rng.random(5)
    out = np.ones((20, 7))
    launch1(k, 20, m, v, out)
    ref = np.full((20, 7), 0.5)
    ref[:, 1:4] = v[:3]
    ref[:, ::2] += m[:, ::2]
    ref[:, -1] *= np.arange(20)
    assert np.array_equal(out, ref)


def test_while_conditions_that_need_statements(rng):
    @cuda.jit(device=True)
    def step(x):
        return x // 2, x % 2

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            x = a[i]
            bits = 0
            while step(x)[0] > 0 or step(x)[1] == 1:   # a tuple-returning call in the test
                bits += 1
                x //= 2
            n = 0
            while a[i // 2:][n % 3] >= 0 and n < 5:     # a slice in the test
                n += 1
            out[i, 0] = bits
            out[i, 1] = n

    a = rng.integers(0, 1 << 20, 100).astype(np.int64)
    out = np.zeros((100, 2), np.int64)
    launch1(k, 100, a, out)
    assert out[:, 0].tolist() == [int(v).bit_length() for v in a.tolist()]
    assert out[:, 1].tolist() == [5] * 100


def test_dynamic_shared_memory_in_device_functions(rng):
    @cuda.jit(device=True)
    def stage(x, t):
        buf = cuda.shared.array(0, dtype=np.float64)  # the launch's dynamic shared memory
        buf[t] = x
        cuda.syncthreads()
        return buf[buf.size - 1 - t]

    @cuda.jit(device=True)
    def outer(x, t):
        return stage(x, t) * 2

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        out[i] = outer(a[i], cuda.threadIdx.x)

    a = rng.random(128)
    out = np.zeros(128)
    k[2, 64, 0, 64 * 8](a, out)
    assert np.array_equal(out, 2 * a.reshape(2, 64)[:, ::-1].reshape(-1))


def test_cuda_reduce(rng):
    @cuda.reduce
    def add(a, b):
        return a + b

    @cuda.reduce
    def biggest(a, b):
        return max(a, b)

    for n in (1, 5, 255, 256, 1000, 100000):
        x = rng.random(n)
        assert np.isclose(add(x), x.sum(), rtol=1e-12)
        assert biggest(x - 5, init=-100.0) == (x - 5).max()
    xi = rng.integers(-100, 100, 5000).astype(np.int32)
    assert add(xi) == xi.sum() and type(add(xi)) is np.int32
    d = cuda.to_device(xi)
    r = cuda.device_array(1, np.int32)
    assert add(d, res=r) is None and r.copy_to_host()[0] == xi.sum()
    assert add(d, size=10) == xi[:10].sum()
    assert add(np.zeros(0), init=3) == 3


def test_kept_configuration_relaunches_by_argument_types(rng):
    """One kernel[grid, block] called again and again with arguments whose types change: each
    call runs the specialisation for its own types (the C launch path keeps the last one and a
    table of the others), and errors on a kept specialisation still name the Python code."""
    @cuda.jit
    def k(a, out, s):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = a[i] * s + a.ndim

    cfg = k[4, 64]
    n = 200
    x32 = rng.standard_normal(n).astype(np.float32)
    x64 = rng.standard_normal(n)
    xi = rng.integers(-1000, 1000, n).astype(np.int32)
    d32 = kcc.to_device(x32)
    o32 = kcc.device_array(n, np.float32)
    for round_ in range(3):
        for x, s in ((x32, 3), (x64, 0.5), (xi, 7), (x32, 2.5), (x64, np.float32(2.0))):
            out = np.zeros(n, x.dtype)
            cfg(x, out, s)
            # numba's typing: float32 * int64 (or + a.ndim, an int64) is float64
            wide = np.float64 if x.dtype.kind == "f" else np.int64
            want = (x.astype(wide) * wide(s) + 1).astype(x.dtype)
            np.testing.assert_array_equal(out, want, err_msg=str((x.dtype, s)))
        cfg(d32, o32, 2)  # device arrays, then numpy again: the same dtypes, another class
        np.testing.assert_array_equal(o32.copy_to_host(),
                                      (x32.astype(np.float64) * 2 + 1).astype(np.float32))
    # a 2-D array is another specialisation (ndim 2, one more extent passed)
    m = rng.standard_normal((4, 50)).astype(np.float32)
    out2 = np.zeros((4, 50), np.float32)

    @cuda.jit
    def k2(a, out):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            out[i, j] = a[i, j] * 2 + a.ndim

    c2 = k2[(1, 4), (4, 16)]
    for _ in range(3):
        c2(m, out2)
        np.testing.assert_array_equal(out2, (m.astype(np.float64) * 2 + 2).astype(np.float32))
    # errors on the kept specialisation name the Python parameter
    ro = np.zeros(n, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError) as e:
        cfg(x32, ro, 1)
    assert str(e.value).startswith("kernel 'k' argument 'out': the array is read-only")
    cfg(x32, np.zeros(n, np.float32), 1)  # and the configuration still works
    # a Python int beyond int64 is its own type (uint64), never the kept int64 specialisation
    big = np.zeros(1, np.uint64)

    @cuda.jit
    def put(a, v):
        a[0] = v

    pc = put[1, 1]
    for v in (5, (1 << 64) - 1, 7, (1 << 63) + 3):
        pc(big, v)
        assert int(big[0]) == v


def test_kept_configuration_out_of_bounds_names_the_python_line():
    @cuda.jit
    def k(a, n):
        i = cuda.grid(1)
        if i < n:
            a[i] = 1.0

    if not kcc.get_device().type == "cpu":
        pytest.skip("bounds checks are on by default on CPU devices")
    cfg = k[1, 16]
    a = np.zeros(8)
    cfg(a, 8)
    cfg(a, 8)  # kept now
    with pytest.raises(kcc.OutOfBoundsError) as e:
        cfg(a, 9)
    assert str(e.value) == (
        "launching k: kernel 'k' at %s:%d: thread (8,0,0) of block (0,0,0) writes a[8]; a holds "
        "8 double (64 bytes)" % (HERE, line_of(k.py_func, "a[i] = 1.0")))
