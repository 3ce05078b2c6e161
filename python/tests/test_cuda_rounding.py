"""CUDA's directed-rounding intrinsics (CUDA Math API, "Single/Double Precision Intrinsics"
and "Type Casting Intrinsics"): __fadd/__fsub/__fmul/__fdiv/__frcp/__fsqrt/__fmaf_r{z,u,d},
the __d* twins and __fma_r{z,u,d} of doubles (with hard cases: cancellation, ties,
overflowing products, denormals), the integer and double conversions __int2float_r* ...
__double2float_r*, __fmaf_ieee_r*, the float2 forms and __frsqrt_rn, on every device this
machine has. kcc's
targets round to nearest only, so each is computed (cuda_api.c) from the nearest result and an
exact residual; every result is compared with a reference in exact rational arithmetic
(fractions.Fraction): the largest value of the type not above the exact result (rd), the
smallest not below it (ru), the one of them nearer zero (rz), with IEEE 754's signed zeros and
overflows (the largest finite value where the mode rounds away from the infinity)."""
import fractions
import math

import numpy as np
import pytest

from conftest import compile_on_every_device, on_device

F = fractions.Fraction
MODES = ["rz", "ru", "rd"]
# name: (float intrinsic, double intrinsic or None, operands)
OPS = {"add": ("__fadd", "__dadd", 2), "sub": ("__fsub", "__dsub", 2),
       "mul": ("__fmul", "__dmul", 2), "div": ("__fdiv", "__ddiv", 2),
       "rcp": ("__frcp", "__drcp", 1), "sqrt": ("__fsqrt", "__dsqrt", 1),
       "fma": ("__fmaf", "__fma", 3)}
# integer sources: (intrinsic stem, C type, numpy type, target)
CONVERSIONS = [("int2float", "int", np.int32, "float"),
               ("uint2float", "unsigned int", np.uint32, "float"),
               ("ll2float", "long long", np.int64, "float"),
               ("ull2float", "unsigned long long", np.uint64, "float"),
               ("ll2double", "long long", np.int64, "double"),
               ("ull2double", "unsigned long long", np.uint64, "double")]


def _source():
    src = []
    for op, (f, d, k) in OPS.items():
        for name, T in ((f, "float"), (d, "double")):
            if not name:
                continue
            params = ", ".join("const %s *%s" % (T, v) for v in "abc"[:k])
            args = ", ".join("%s[i]" % v for v in "abc"[:k])
            body = " ".join("z[%d * n + i] = %s_%s(%s);" % (m, name, mode, args)
                            for m, mode in enumerate(MODES))
            if op == "fma" and T == "float":  # __fmaf_ieee_r* are the same functions
                body += " " + " ".join("z[%d * n + i] = __fmaf_ieee_%s(%s);" % (3 + m, mode, args)
                                       for m, mode in enumerate(MODES))
            src.append("__global__ void %s_%s(%s, %s *z, int n) { int i = blockIdx.x * "
                       "blockDim.x + threadIdx.x; if (i < n) { %s } }" % (op, T, params, T, body))
    for stem, c, _, T in CONVERSIONS + [("double2float", "double", None, "float")]:
        body = " ".join("z[%d * n + i] = __%s_%s(x[i]);" % (m, stem, mode)
                        for m, mode in enumerate(MODES))
        src.append("__global__ void cvt_%s(const %s *x, %s *z, int n) { int i = blockIdx.x * "
                   "blockDim.x + threadIdx.x; if (i < n) { %s } }" % (stem, c, T, body))
    src.append("__global__ void rsqrt_rn(const float *x, float *z, int n) { int i = blockIdx.x * "
               "blockDim.x + threadIdx.x; if (i < n) z[i] = __frsqrt_rn(x[i]); }")
    # The float2 forms against the scalar ones, component by component (rn included).
    body = []
    for m, mode in enumerate(["rn"] + MODES):
        body.append("float2 s%d = __fadd2_%s(a[i], b[i]), p%d = __fmul2_%s(a[i], b[i]), "
                    "f%d = __ffma2_%s(a[i], b[i], c[i]);" % (m, mode, m, mode, m, mode))
        body.append("ok[i] &= s%d.x == __fadd_%s(a[i].x, b[i].x) && s%d.y == __fadd_%s(a[i].y, "
                    "b[i].y) && p%d.x == __fmul_%s(a[i].x, b[i].x) && p%d.y == __fmul_%s(a[i].y, "
                    "b[i].y) && f%d.x == __fmaf_%s(a[i].x, b[i].x, c[i].x) && f%d.y == "
                    "__fmaf_%s(a[i].y, b[i].y, c[i].y);" % ((m, mode) * 6))
    src.append("__global__ void pairs(const float2 *a, const float2 *b, const float2 *c, int *ok, "
               "int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { ok[i] = 1; %s"
               " } }" % " ".join(body))
    return "\n".join(src)


@pytest.fixture(scope="module")
def mods():
    return compile_on_every_device(_source(), "rounding.cu")


def _flushed(dev, ft, *values):
    """Cases a device that may flush denormals of ft (Vulkan allows it; NVIDIA's Vulkan driver
    does for float: docs/driver-bugs.md 25) leaves out: a nonzero value, operand or result,
    small enough that the residual the computation relies on may be a denormal."""
    if ("float32" if ft == np.float32 else "float64") in dev.denormals:
        return np.zeros(len(values[0]), bool)
    small = 2.0 ** (-102 if ft == np.float32 else -969)
    out = np.zeros(len(values[0]), bool)
    with np.errstate(invalid="ignore", over="ignore"):
        for v in values:
            a = np.abs(np.asarray(v, np.float64))
            out |= (a > 0) & (a < small)
    return out


def _run(dev, mod, kernel, *arrays):
    with on_device(dev):
        getattr(mod, kernel)[(len(arrays[0]) + 63) // 64, 64](*arrays)


def _bounds(x, ft):
    """(lo, hi): the largest value of float type ft not above the exact nonzero x, and the
    smallest not below it (infinities past the largest finite value)."""
    big = F(float(np.finfo(ft).max))
    if x > big:
        return ft(np.finfo(ft).max), ft(np.inf)
    if x < -big:
        return ft(-np.inf), ft(-np.finfo(ft).max)
    f = ft(float(x))
    while F(float(f)) > x:
        f = np.nextafter(f, ft(-np.inf))
    while F(float(np.nextafter(f, ft(np.inf)))) <= x:
        f = np.nextafter(f, ft(np.inf))
    hi = f if F(float(f)) == x else np.nextafter(f, ft(np.inf))
    return f, hi


def _round(x, ft, mode):
    lo, hi = _bounds(x, ft)
    return lo if mode == "rd" or (mode == "rz" and x > 0) else hi


def _fma_near(a, b, c):
    """a * b + c rounded once. The product of finite a and b is exact, never an overflow, so
    with an infinite or NaN c the result is c (a float product a * b may overflow to an
    infinity of the other sign, which would make it NaN)."""
    ft = type(a)
    if math.isfinite(a) and math.isfinite(b):
        if not math.isfinite(c):
            return c
        v = F(float(a)) * F(float(b)) + F(float(c))
        try:
            return ft(float(v))
        except OverflowError:  # beyond double's range (a double product may be)
            return ft(math.inf if v > 0 else -math.inf)
    return a * b + c


def _reference(op, args, ft, mode):
    """The exactly rounded result of op on one tuple of operands (numpy scalars of ft)."""
    vals = [float(a) for a in args]
    with np.errstate(all="ignore"):
        near = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
                "div": lambda a, b: a / b, "rcp": lambda a: ft(1) / a, "sqrt": np.sqrt,
                "fma": _fma_near}[op](*args)
    if not all(map(math.isfinite, vals)) or not math.isfinite(float(near)) and (
            op in ("div", "rcp") and vals[-1] == 0):
        return ft(near)  # NaN, infinite operands, division by zero: exact in every mode
    if op == "sqrt" and vals[0] < 0:
        return ft(np.nan)
    x = [F(v) for v in vals]
    exact = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
             "div": lambda a, b: a / b, "rcp": lambda a: 1 / a, "sqrt": None,
             "fma": lambda a, b, c: a * b + c}[op]
    if op == "sqrt":
        if vals[0] == 0:
            return args[0]
        lo = ft(math.sqrt(vals[0]))  # near; the exact comparisons below settle it
        while F(float(lo)) ** 2 > x[0]:
            lo = np.nextafter(lo, ft(-np.inf))
        while F(float(np.nextafter(lo, ft(np.inf)))) ** 2 <= x[0]:
            lo = np.nextafter(lo, ft(np.inf))
        if F(float(lo)) ** 2 == x[0] or mode in ("rd", "rz"):
            return lo
        return np.nextafter(lo, ft(np.inf))
    v = exact(*x)
    if v == 0:
        if op in ("mul", "div", "rcp"):
            return ft(near)  # the product's or quotient's sign
        terms = list(args) if op != "fma" else [args[0] * args[1], args[2]]
        neg = [math.copysign(1, float(t)) < 0 for t in terms]
        if op == "sub":
            neg[1] = not neg[1]
        both = neg[0] == neg[1]
        return ft(-0.0) if (neg[0] if both else mode == "rd") else ft(0.0)
    return _round(v, ft, mode)


def _floats(rng, ft, n, k):
    """k operand arrays: random bit patterns, then values of every magnitude, near pairs (for
    cancellation) and edges (zeros, infinities, NaN, the largest and smallest values)."""
    ut = np.uint32 if ft == np.float32 else np.uint64
    big = 140 if ft == np.float32 else 1060
    ops = []
    for _ in range(k):
        x = rng.integers(0, np.iinfo(ut).max, size=n, dtype=ut, endpoint=True).view(ft)
        q = n // 4
        with np.errstate(over="ignore", under="ignore"):
            x[q:] = (rng.standard_normal(n - q) * 2.0 ** rng.integers(-big, big, size=n - q)).astype(ft)
        ops.append(x)
    if k >= 2:  # near pairs: a - b cancels, a + b overflows
        m = n // 8
        ops[1][m:2 * m] = -ops[0][m:2 * m] * (1 + ft(np.finfo(ft).eps) * rng.integers(-4, 4, size=m))
        ops[1][2 * m:2 * m + 4] = ops[0][2 * m:2 * m + 4] = np.finfo(ft).max
    tiny = np.finfo(ft).smallest_subnormal
    edges = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, float(np.finfo(ft).max), float(tiny),
             -float(tiny), 3.0, 0.1, 2.0 ** -70, 2.0 ** 70]
    for j, e in enumerate(edges):
        for a in range(k):
            ops[a][3 * n // 4 + j * k + a] = ft(edges[(j + a * 3) % len(edges)])
    return ops


def _fma_cases(rng, ft, args):
    """Hard cases for a * b + c, written over args[0:3][n/2:3n/4]: cancellation (c the negated
    rounded product, or a few ulps from it: the result is the product's rounding error or near
    it), exact ties and near-ties (short products on a c whose ulp is 1), a product past the
    largest value that c brings back, products far below c's rounding, products and sums in the
    denormals, products of every exponent, and c of the size of the product's rounding
    error."""
    a, b, c = args
    n = len(a)
    i = np.arange(n // 2, 3 * n // 4)
    m = len(i)
    mant = 24 if ft == np.float32 else 53
    big = 2.0 ** (mant - 1)
    kind = rng.integers(0, 7, size=m)
    u = rng.uniform(1, 2, size=m)
    v = rng.uniform(1, 2, size=m)
    sgn = np.where(rng.integers(0, 2, size=m) == 1, -1.0, 1.0)
    with np.errstate(all="ignore"):
        for j, kd in zip(i, kind):
            x, y, s = u[j - i[0]], v[j - i[0]], sgn[j - i[0]]
            if kd == 0:  # cancellation: c = -fl(a*b), give or take a few ulps
                a[j], b[j] = ft(x), ft(y * s)
                p = ft(a[j] * b[j])
                c[j] = -p
                for _ in range(int(rng.integers(-2, 3))):
                    c[j] = np.nextafter(c[j], ft(np.inf))
            elif kd == 1:  # ties and near-ties: short or full products on c with ulp 1
                a[j] = ft(np.floor(x * 1024) / 2048) if rng.integers(0, 2) else ft(x / 2)
                b[j] = ft(np.floor(y * 1024) / 1024)
                c[j] = ft(s * (big + rng.integers(0, 1000)))
            elif kd == 2:  # the product overflows (or nearly), c brings it back
                top = 64 if ft == np.float32 else 512
                a[j], b[j] = ft(s * x * 2.0 ** top), ft(y * 2.0 ** (top - 1))
                c[j] = ft(-s * float(np.finfo(ft).max) * rng.uniform(0.5, 1))
            elif kd == 3:  # the product far below c's rounding
                a[j], b[j] = ft(x * 2.0 ** -40), ft(s * y * 2.0 ** -40)
                c[j] = ft(rng.uniform(1, 2) * sgn[(j + 1 - i[0]) % m])
            elif kd == 4:  # a denormal product, c zero or a denormal
                lo = -75 if ft == np.float32 else -537
                a[j], b[j] = ft(x * 2.0 ** lo), ft(s * y * 2.0 ** (lo - 3))
                tiny = float(np.finfo(ft).smallest_subnormal)
                c[j] = ft(0.0 if rng.integers(0, 2) else tiny * int(rng.integers(-50, 50)))
            elif kd == 5:  # products of every exponent on c of every exponent
                span = 120 if ft == np.float32 else 1000
                a[j] = ft(x * 2.0 ** int(rng.integers(-span // 2, span // 2)))
                b[j] = ft(s * y * 2.0 ** int(rng.integers(-span // 2, span // 2)))
                c[j] = ft(rng.uniform(-2, 2) * 2.0 ** int(rng.integers(-span, span)))
            else:  # c as small as the product's rounding error: both decide the residual
                a[j], b[j] = ft(x), ft(s * y)
                c[j] = ft(rng.uniform(-2, 2) * 2.0 ** -(2 * mant - int(rng.integers(0, 4))))


@pytest.mark.parametrize("T", ["float", "double"])
@pytest.mark.parametrize("op", list(OPS))
def test_directed_arithmetic(mods, rng, op, T):
    f, d, k = OPS[op]
    ft = np.float32 if T == "float" else np.float64
    n = 512
    args = _floats(rng, ft, n, k)
    if op == "fma":
        _fma_cases(rng, ft, args)
    want = [np.array([_reference(op, [a[i] for a in args], ft, m) for i in range(n)], ft)
            for m in MODES]
    for dev, mod in mods:
        z = np.zeros((6 if op == "fma" else 3) * n, ft)
        _run(dev, mod, "%s_%s" % (op, T), *args, z, np.int32(n))
        with np.errstate(all="ignore"):
            prod = [args[0] * args[1]] if op == "fma" else []
            skip = _flushed(dev, ft, *args, *prod, *want)
        for m, mode in enumerate(MODES):
            got = z[m * n:(m + 1) * n]
            bad = ~(((got == want[m]) & (np.signbit(got) == np.signbit(want[m]))) |
                    (np.isnan(got) & np.isnan(want[m]))) & ~skip
            name = (f if T == "float" else d) + "_" + mode
            assert not bad.any(), "%s: %s of %s gave %s, not %s" % (
                dev.name, name, [a[bad][:3] for a in args], got[bad][:3], want[m][bad][:3])
            if op == "fma" and T == "float":
                ieee = z[(3 + m) * n:(4 + m) * n]
                assert np.array_equal(ieee[~skip], got[~skip], equal_nan=True)


def _ints(rng, t, n):
    info = np.iinfo(t)
    width = rng.integers(0, info.bits, size=n)
    x = (rng.integers(0, 2 ** 62, size=n, dtype=np.uint64) >>
         (62 - np.minimum(width, 62)).astype(np.uint64)) << np.maximum(width - 62, 0).astype(np.uint64)
    x = x.astype(t)
    if info.min < 0:
        x = np.where(rng.integers(0, 2, size=n) == 1, -x, x).astype(t)
    edges = [0, 1, info.max, info.min, info.max - 1, info.min + 1]
    for p in (24, 25, 31, 53, 54, 63):
        for s in (-1, 0, 1, 3):
            for v in (2 ** p + s, -(2 ** p + s)):
                if info.min <= v <= info.max:
                    edges.append(v)
    x[:len(edges)] = np.array(edges, dtype=object).astype(t)
    return x


@pytest.mark.parametrize("conv", CONVERSIONS + [("double2float", "double", np.float64, "float")],
                         ids=lambda c: c[0])
def test_directed_conversions(mods, rng, conv):
    stem, _, st, target = conv
    ft = np.float32 if target == "float" else np.float64
    n = 512
    if st == np.float64:
        x = _floats(rng, np.float64, n, 1)[0]
        with np.errstate(over="ignore", under="ignore"):
            x[n // 4:n // 2] = (rng.standard_normal(n // 4) *
                                2.0 ** rng.integers(-160, 140, size=n // 4))
    else:
        x = _ints(rng, st, n)
    for dev, mod in mods:
        z = np.zeros(3 * n, ft)
        _run(dev, mod, "cvt_" + stem, x, z, np.int32(n))
        for m, mode in enumerate(MODES):
            got = z[m * n:(m + 1) * n]
            for i in range(n):
                v = float(x[i]) if st == np.float64 else None
                if v is not None and _flushed(dev, ft, [v])[0]:
                    continue  # a float denormal result, which the device may flush
                if v is not None and (not math.isfinite(v) or v == 0):
                    want = ft(v)
                else:
                    want = _round(F(v) if v is not None else F(int(x[i])), ft, mode)
                same = (got[i] == want and np.signbit(got[i]) == np.signbit(want)) or (
                    np.isnan(got[i]) and np.isnan(want))
                assert same, "%s: __%s_%s(%r) gave %r, not %r" % (dev.name, stem, mode, x[i],
                                                                  got[i], want)


def test_frsqrt_rn(mods, rng):
    n = 512
    x = _floats(rng, np.float32, n, 1)[0]
    want = np.empty(n, np.float32)
    for i in range(n):
        v = float(x[i])
        if not (v > 0) or math.isinf(v):
            with np.errstate(all="ignore"):
                want[i] = np.float32(1) / np.sqrt(x[i])
            continue
        c = np.float32(1 / math.sqrt(v))
        for _ in range(4):  # the float whose midpoints' squares times x bracket 1
            up = F(float(np.nextafter(c, np.float32(np.inf))))
            dn = F(float(np.nextafter(c, np.float32(0))))
            hi, lo = (F(float(c)) + up) / 2, (F(float(c)) + dn) / 2
            if hi * hi * F(v) < 1:
                c = np.nextafter(c, np.float32(np.inf))
            elif lo * lo * F(v) > 1:
                c = np.nextafter(c, np.float32(0))
            else:
                break
        want[i] = c
    for dev, mod in mods:
        z = np.zeros(n, np.float32)
        _run(dev, mod, "rsqrt_rn", x, z, np.int32(n))
        bad = ~((z == want) | (np.isnan(z) & np.isnan(want))) & ~_flushed(dev, np.float32, x)
        assert not bad.any(), "%s: __frsqrt_rn of %s gave %s, not %s" % (
            dev.name, x[bad][:3], z[bad][:3], want[bad][:3])


def test_float2_forms(mods, rng):
    n = 256
    a, b, c = (np.stack(_floats(rng, np.float32, n, 2), axis=1).copy() for _ in range(3))
    for dev, mod in mods:
        ok = np.zeros(n, np.int32)
        _run(dev, mod, "pairs", a, b, c, ok, np.int32(n))
        # NaN results compare unequal to themselves: only pairs without NaN must agree
        nan = np.isnan(a).any(1) | np.isnan(b).any(1) | np.isnan(c).any(1) | \
            np.isinf(a).any(1) | np.isinf(b).any(1) | np.isinf(c).any(1)
        assert ok[~nan].all(), "%s: the float2 forms differ from the scalar ones at %s" % (
            dev.name, np.nonzero(~ok.astype(bool) & ~nan)[0][:5])
