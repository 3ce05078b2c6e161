"""cuda_fp16.h's half2 comparisons and the rest of its device API that kcc writes in its CUDA
prelude (frontend/cuda/cuda_fp16.c, fp16_rest): __h{eq,ne,lt,le,gt,ge}{,u}2 as halves and as
masks, the all-lanes __hb*2, __hisnan2, __hmax_nan/__hmin_nan, the _sat and _rn forms,
__hfma_relu, htanh and __hcmadd, scalar and half2, on every device this machine has, against
numpy's float16 and exact rational arithmetic (fractions) on fresh random bit patterns."""
import fractions

import numpy as np
import pytest

from conftest import compile_on_every_device, on_device

CMPS = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu"]
UNARY_BIN = ["__hmax_nan", "__hmin_nan", "__hadd_sat", "__hsub_sat", "__hmul_sat", "__hadd_rn",
             "__hsub_rn", "__hmul_rn"]

SRC = r"""
#include <cuda_fp16.h>
__device__ __half H(unsigned short u) { return __ushort_as_half(u); }
__device__ unsigned short U(__half h) { return __half_as_ushort(h); }
__global__ void cmps(const unsigned short *a, const unsigned short *b, unsigned short *h,
                     unsigned *m, int *bb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = __halves2half2(H(a[2 * i]), H(a[2 * i + 1]));
  __half2 y = __halves2half2(H(b[2 * i]), H(b[2 * i + 1]));
  %CMPS%
  __half2 q = __hisnan2(x);
  h[(2 * %NC%) * n + 2 * i] = U(q.x);
  h[(2 * %NC%) * n + 2 * i + 1] = U(q.y);
}
__global__ void ops(const unsigned short *a, const unsigned short *b, const unsigned short *c,
                    unsigned short *r, unsigned short *r2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = H(a[i]), y = H(b[i]), z = H(c[i]);
  __half2 x2 = __halves2half2(x, y), y2 = __halves2half2(y, z), z2 = __halves2half2(z, x);
  %OPS%
}
"""


def _source():
    cmps = []
    for k, c in enumerate(CMPS):
        cmps.append("__half2 r%d = __h%s2(x, y); h[%d * n + 2 * i] = U(r%d.x); "
                    "h[%d * n + 2 * i + 1] = U(r%d.y); m[%d * n + i] = __h%s2_mask(x, y); "
                    "bb[%d * n + i] = __hb%s2(x, y);" % (k, c, 2 * k, k, 2 * k, k, k, c, k, c))
    ops = []
    names = UNARY_BIN + ["__hfma_sat", "__hfma_relu", "htanh"]
    for k, f in enumerate(names):
        args = "x, y, z" if f.startswith("__hfma") else "x" if f == "htanh" else "x, y"
        args2 = "x2, y2, z2" if f.startswith("__hfma") else "x2" if f == "htanh" else "x2, y2"
        # the half2 form: h2tanh, __hadd2_sat from __hadd_sat...
        f2 = "h2tanh" if f == "htanh" else f[:f.index("_", 2)] + "2" + f[f.index("_", 2):]
        ops.append("r[%d * n + i] = U(%s(%s)); { __half2 t = %s(%s); r2[%d * n + 2 * i] = U(t.x);"
                   " r2[%d * n + 2 * i + 1] = U(t.y); }" % (k, f, args, f2, args2, 2 * k, 2 * k))
    k = len(names)
    ops.append("{ __half2 t = __hcmadd(x2, y2, z2); r2[%d * n + 2 * i] = U(t.x); "
               "r2[%d * n + 2 * i + 1] = U(t.y); }" % (2 * k, 2 * k))
    return (SRC.replace("%CMPS%", "\n  ".join(cmps)).replace("%NC%", str(len(CMPS)))
            .replace("%OPS%", "\n  ".join(ops))), names


@pytest.fixture(scope="module")
def mods():
    src, names = _source()
    return compile_on_every_device(src, "half.cu"), names


def _run(dev, mod, kernel, n, *arrays):
    with on_device(dev):
        getattr(mod, kernel)[(n + 63) // 64, 64](*arrays, np.int32(n))


def _halves(rng, n):
    """Random bit patterns (NaNs, infinities, denormals), then ordinary values, equal pairs and
    zeros of both signs."""
    u = rng.integers(0, 1 << 16, size=n, dtype=np.uint16)
    v = (rng.standard_normal(n // 2) * 2.0 ** rng.integers(-3, 3, size=n // 2))
    u[n // 2:] = v.astype(np.float16).view(np.uint16)
    u[:8] = [0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x3c00, 0xbc00, 0x0001]
    return u


def _cmp(x, y, c):
    nan = np.isnan(x) | np.isnan(y)
    op = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
          "gt": np.greater, "ge": np.greater_equal}[c.rstrip("u") if c != "neu" else "ne"]
    with np.errstate(invalid="ignore"):
        r = op(x, y)
    if c == "ne":
        r &= ~nan
    return r | nan if c.endswith("u") and c != "u" else r


def test_comparisons(mods, rng):
    mods, _ = mods
    n = 512
    a, b = _halves(rng, 2 * n), _halves(rng, 2 * n)
    b[::3] = a[::3]  # equal pairs
    x, y = a.view(np.float16), b.view(np.float16)
    for dev, mod in mods:
        nc = len(CMPS)
        h = np.zeros((2 * nc + 2) * n, np.uint16)
        m = np.zeros(nc * n, np.uint32)
        bb = np.zeros(nc * n, np.int32)
        _run(dev, mod, "cmps", n, a, b, h, m, bb)
        for k, c in enumerate(CMPS):
            want = _cmp(x, y, c)
            got = h[2 * k * n:2 * (k + 1) * n]
            assert np.array_equal(got, np.where(want, 0x3c00, 0).astype(np.uint16)), (
                "%s: __h%s2" % (dev.name, c))
            wm = np.where(want[0::2], 0xffff, 0) | np.where(want[1::2], 0xffff0000, 0)
            assert np.array_equal(m[k * n:(k + 1) * n], wm.astype(np.uint32)), (
                "%s: __h%s2_mask" % (dev.name, c))
            assert np.array_equal(bb[k * n:(k + 1) * n] != 0, want[0::2] & want[1::2]), (
                "%s: __hb%s2" % (dev.name, c))
        isn = h[2 * nc * n:(2 * nc + 2) * n]
        assert np.array_equal(isn, np.where(np.isnan(x), 0x3c00, 0).astype(np.uint16)), (
            "%s: __hisnan2" % dev.name)


def _round_half(q):
    """The float16 nearest the exact rational q (ties to even), through its neighbours."""
    f = np.float16(float(q))
    if not np.isfinite(f):
        return f
    while fractions.Fraction(float(f)) > q:
        f = np.nextafter(f, np.float16(-np.inf))
    up = np.nextafter(f, np.float16(np.inf))
    lo, hi = fractions.Fraction(float(f)), fractions.Fraction(float(up)) if np.isfinite(up) else None
    if hi is None or q - lo < hi - q or (q - lo == hi - q and not f.view(np.uint16) & 1):
        return f
    return up


def _fma(a, b, c):
    if not (np.isfinite(a) and np.isfinite(b) and np.isfinite(c)):
        with np.errstate(all="ignore"):
            return np.float16(np.float64(a) * np.float64(b) + np.float64(c))
    F = fractions.Fraction
    q = F(float(a)) * F(float(b)) + F(float(c))
    if q == 0:  # the sign of an exact zero sum (nearest): negative only when both terms are
        neg = np.signbit(np.float64(a) * np.float64(b)) and np.signbit(c)
        return np.float16(-0.0 if neg else 0.0)
    big = F(65504) + F(16)  # past the largest half by half an ulp: infinity
    if abs(q) >= big:
        return np.float16(np.inf if q > 0 else -np.inf)
    return _round_half(q)


def _sat(r):
    return np.float16(0) if np.isnan(r) or not r > 0 else np.float16(1) if r > 1 else r


def _reference(f, x, y, z):
    with np.errstate(all="ignore"):
        if f in ("__hmax_nan", "__hmin_nan"):
            if np.isnan(x) or np.isnan(y):
                return np.uint16(0x7fff)
            return (max if f == "__hmax_nan" else min)(x, y)
        base = {"add": x + y, "sub": x - y, "mul": x * y}
        if f.endswith("_rn"):
            return base[f[3:6]]
        if f in ("__hadd_sat", "__hsub_sat", "__hmul_sat"):
            return _sat(base[f[3:6]])
        if f == "__hfma_sat":
            return _sat(_fma(x, y, z))
        if f == "__hfma_relu":
            r = _fma(x, y, z)
            return np.uint16(0x7fff) if np.isnan(r) else np.float16(0) if np.signbit(r) else r
    raise AssertionError(f)


def _same(got, want):
    if isinstance(want, np.uint16):
        return got == want
    g = np.uint16(got).view(np.float16)
    if np.isnan(want):
        return bool(np.isnan(g))
    if want == 0 and g == 0:
        return True  # max/min of zeros of both signs may give either
    return g.view(np.uint16) == np.float16(want).view(np.uint16)


def test_operations(mods, rng):
    mods, names = mods
    n = 384
    a, b, c = (_halves(rng, n) for _ in range(3))
    x, y, z = a.view(np.float16), b.view(np.float16), c.view(np.float16)
    for dev, mod in mods:
        r = np.zeros(len(names) * n, np.uint16)
        r2 = np.zeros((2 * len(names) + 2) * n, np.uint16)
        _run(dev, mod, "ops", n, a, b, c, r, r2)
        for k, f in enumerate(names):
            got, got2 = r[k * n:(k + 1) * n], r2[2 * k * n:2 * (k + 1) * n]
            for i in range(n):
                if f == "htanh":  # tanhf's float result rounded: within one half ulp
                    w = np.float16(np.tanh(np.float32(x[i])))
                    g = got[i:i + 1].view(np.float16)[0]
                    ok = (np.isnan(w) and np.isnan(g)) or abs(float(g) - float(w)) <= float(
                        np.spacing(np.float16(abs(w))))
                    assert ok, "%s: htanh(%r) gave %r, not %r" % (dev.name, x[i], g, w)
                    continue
                w = _reference(f, x[i], y[i], z[i])
                assert _same(got[i], w), "%s: %s(%r, %r, %r) gave %r, not %r" % (
                    dev.name, f, x[i], y[i], z[i], got[i:i + 1].view(np.float16)[0], w)
                # the half2 form on (x, y), (y, z) [, (z, x)]: lane 0 is the scalar's
                w0 = _reference(f, x[i], y[i], z[i])
                w1 = _reference(f, y[i], z[i], x[i])
                assert _same(got2[2 * i], w0) and _same(got2[2 * i + 1], w1), (
                    "%s: the half2 form of %s at %d" % (dev.name, f, i))
        # __hcmadd((x, y), (y, z), (z, x)): re = fma(-y, z, fma(x, y, z)), im = fma(y, y,
        # fma(x, z, x)), each fma rounded to half
        cm = r2[2 * len(names) * n:]
        for i in range(n):
            re = _fma(-y[i], z[i], _fma(x[i], y[i], z[i]))
            im = _fma(y[i], y[i], _fma(x[i], z[i], x[i]))
            assert _same(cm[2 * i], re) and _same(cm[2 * i + 1], im), (
                "%s: __hcmadd at %d" % (dev.name, i))
