"""OpenCL C's conversions to floating point with an explicit rounding mode (section 6.4.3):
convert_<float|double>N_<rtz|rtp|rtn>(x) from every integer type, double and float, on every
device this machine has (PoCL's OpenCL CPU device; lavapipe's Vulkan device where installed,
whose SPIR-V has no rounding-mode conversions). Every result is compared with a reference in
exact rational arithmetic (fractions.Fraction): the largest value of the target type not above
x and the smallest not below it, chosen by the mode."""
import fractions
import math

import numpy as np
import pytest

import kcc

SOURCES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"]
NP = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
      "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
      "float": np.float32, "double": np.float64}
MODES = ["rtz", "rtp", "rtn"]


# Vector widths checked. On a Vulkan device the 16 row is a 4: the Vulkan form takes vectors of
# 16 (arrays of 4-vectors: docs/design.md, "Vectors of 8 and 16 components on Vulkan"), but this
# file's kernels with them took lavapipe more than 5 minutes for 3 of its 20 cases here;
# tests/runtime/cl_vec16 checks rounding-mode conversions of such vectors there.
WIDTHS = {False: ((16, 0), (4, 2), (3, 3)), True: ((4, 0), (4, 2), (3, 3))}


def _kernels(vulkan):
    src = ["#pragma OPENCL EXTENSION cl_khr_fp64 : enable"]
    for t in ("float", "double"):
        for s in SOURCES:
            # Each mode on the scalar, and (work-item 0) on vectors of 16, 4 and 3 of the
            # first elements.
            body = ["size_t i = get_global_id(0);"]
            for m, mode in enumerate(MODES):
                body.append("z[%d * n + i] = convert_%s_%s(x[i]);" % (m, t, mode))
                for width, quarter in WIDTHS[vulkan]:
                    at = "%d * n / 4" % quarter
                    comps = ", ".join("x[%d]" % k for k in range(width))
                    stores = " ".join("v[%d] = r.s%x;" % (k, k) for k in range(width))
                    body.append("if (i == 0) { __global %s *v = z + %d * n + %s; %s%d r = "
                                "convert_%s%d_%s((%s%d)(%s)); %s }"
                                % (t, 3 + m, at, t, width, t, width, mode, s, width, comps,
                                   stores))
            src.append("__kernel void %s_%s(__global const %s *x, __global %s *z, uint n) {\n  %s\n}"
                       % (t, s, s, t, "\n  ".join(body)))
    return "\n".join(src)


@pytest.fixture(scope="module")
def mod_per_device():
    prev = kcc.get_device()
    mods = []
    try:
        for d in kcc.devices():
            kcc.select_device(d.index)
            vk = d.backend == "vulkan"
            mods.append((d, vk, kcc.compile(_kernels(vk), name="rounding.cl")))
    finally:
        kcc.select_device(prev.index)
    return mods


def _bounds(x, ft):
    """(lo, hi): the largest value of numpy float type ft not above the exact number x and the
    smallest not below it (infinities past the largest finite value)."""
    big = fractions.Fraction(float(np.finfo(ft).max))
    if x > big:
        return ft(np.finfo(ft).max), ft(np.inf)
    if x < -big:
        return ft(-np.inf), ft(-np.finfo(ft).max)
    f = ft(float(x))  # near x (a double rounding for float); the loops make it exact
    while fractions.Fraction(float(f)) > x:
        f = np.nextafter(f, ft(-np.inf))
    while fractions.Fraction(float(np.nextafter(f, ft(np.inf)))) <= x:
        f = np.nextafter(f, ft(np.inf))
    lo = f
    hi = lo if fractions.Fraction(float(lo)) == x else np.nextafter(lo, ft(np.inf))
    return lo, hi


def _reference(xs, src, ft, mode):
    out = np.empty(len(xs), ft)
    for i, v in enumerate(xs):
        if src in ("float", "double") and (not math.isfinite(float(v)) or v == 0):
            out[i] = ft(float(v))  # NaN, infinities and zeros (their sign) convert as themselves
            continue
        x = fractions.Fraction(int(v)) if np.issubdtype(type(v), np.integer) else \
            fractions.Fraction(float(v))
        lo, hi = _bounds(x, ft)
        out[i] = lo if mode == "rtn" or (mode == "rtz" and x >= 0) else hi
    return out


def _inputs(src, rng, n):
    t = NP[src]
    if src in ("float", "double"):
        # Random bit patterns (NaNs, infinities, denormals), then values of every magnitude
        # around float's range, where a double rounds to float.
        ut = np.uint64 if src == "double" else np.uint32
        x = rng.integers(0, np.iinfo(ut).max, size=n, dtype=ut, endpoint=True).view(t)
        half = n // 2
        x[half:] = (rng.standard_normal(n - half) *
                    2.0 ** rng.integers(-160, 140, size=n - half)).astype(t)
        edges = [0.0, -0.0, 1.0, np.inf, -np.inf, np.nan, 3.4028235677973366e38,
                 3.4028235677973366e38 * (1 + 2 ** -30), 1.4e-45, -1.4e-45, 7e-46, 2.0 ** -150,
                 1.0 + 2.0 ** -24, 1.0 + 2.0 ** -25, 1e300, -1e300]
    else:
        info = np.iinfo(t)
        # every magnitude: a random number of significant bits
        width = rng.integers(0, info.bits, size=n)
        x = (rng.integers(0, 2 ** 62, size=n, dtype=np.uint64) >> (62 - np.minimum(width, 62))
             .astype(np.uint64)).astype(np.uint64)
        x = x * np.uint64(2) ** (np.maximum(width - 62, 0)).astype(np.uint64)
        x = x.astype(t)
        if info.min < 0:
            x = np.where(rng.integers(0, 2, size=n) == 1, -x, x).astype(t)
        edges = [0, 1, info.max, info.min, info.max - 1, info.min + 1]
        for p in (24, 25, 53, 54, 62, 63):
            for d in (-1, 0, 1, 3):
                v = 2 ** p + d
                if info.min <= v <= info.max:
                    edges.append(v)
                if info.min <= -v <= info.max:
                    edges.append(-v)
    if src in ("float", "double"):
        with np.errstate(over="ignore"):  # 1e300 as a float is an infinity
            e = np.array(edges, dtype=np.float64).astype(t)
    else:
        e = np.array(edges[:n], dtype=t)
    x[:len(e)] = e
    return x


@pytest.mark.parametrize("target", ["float", "double"])
@pytest.mark.parametrize("src", SOURCES)
def test_rounded_conversion(mod_per_device, rng, target, src):
    ft = np.float32 if target == "float" else np.float64
    n = 256
    x = _inputs(src, rng, n)
    want = [_reference(x, src, ft, m) for m in MODES]
    for dev, vk, mod in mod_per_device:
        prev = kcc.get_device()
        kcc.select_device(dev.index)
        try:
            z = np.zeros(6 * n, ft)
            getattr(mod, "%s_%s" % (target, src))[n // 64, 64](x, z, np.uint32(n))
        finally:
            kcc.select_device(prev.index)
        # A float denormal, source or result, which a device may flush (Vulkan allows it;
        # NVIDIA's Vulkan driver does: docs/driver-bugs.md 25).
        skip = np.zeros(n, bool)
        if "float32" not in dev.denormals and src in ("float", "double"):
            with np.errstate(all="ignore"):
                a = np.abs(x.astype(np.float64))
            skip = (a > 0) & (a < 2.0 ** -126)
        for m, mode in enumerate(MODES):
            got = z[m * n:(m + 1) * n]
            bad = ~((got == want[m]) & (np.signbit(got) == np.signbit(want[m])) |
                    (np.isnan(got) & np.isnan(want[m]))) & ~skip
            assert not bad.any(), "%s: convert_%s_%s(%s) of %s gave %s, not %s" % (
                dev.name, target, mode, src, x[bad][:4], got[bad][:4], want[m][bad][:4])
            # The vector forms of the first elements (WIDTHS: at 0, n/2 and 3n/4).
            vec = z[(3 + m) * n:(4 + m) * n]
            for width, quarter in WIDTHS[vk]:
                if skip[:width].any():
                    continue
                at = quarter * n // 4
                assert np.array_equal(vec[at:at + width], want[m][:width], equal_nan=True), (
                    "%s: convert_%s%d_%s(%s)" % (dev.name, target, width, mode, src))
