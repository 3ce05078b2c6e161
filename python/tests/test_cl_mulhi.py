"""mul_hi and mad_hi (OpenCL C) on every integer type, scalars and vectors of 2, 3 and 4
components and 8 and 16, and CUDA's
__mulhi, __umulhi, __mul64hi and __umul64hi, on every device this machine has, against the
high half of the exact product on Python integers, on fresh random operands (the extremes
included). The Vulkan form writes them with OpSMulExtended/OpUMulExtended (32 and 64 bits) or
a widened product (8 and 16 bits): spirv_expr.c's mul_hi, which PoCL gets for 8 and 16 bits too (docs/driver-bugs.md 29)."""
import numpy as np
import pytest

import kcc
from conftest import compile_on_every_device, on_device

TYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
         "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}
N = 256


def _widths(dev):
    return (1, 2, 3, 4, 8, 16)


def _cl_src(widths):
    src = []
    for t in TYPES:
        for w in widths:
            if w == 1:
                body = ("hi[i] = mul_hi(a[i], b[i]); mad[i] = mad_hi(a[i], b[i], c[i]);")
            else:
                body = ("%(v)s x = vload%(w)d(i, a), y = vload%(w)d(i, b), z = vload%(w)d(i, c);"
                        " vstore%(w)d(mul_hi(x, y), i, hi); vstore%(w)d(mad_hi(x, y, z), i, mad);"
                        % {"v": "%s%d" % (t, w), "w": w})
            src.append("__kernel void mh_%s_%d(__global const %s *a, __global const %s *b, "
                       "__global const %s *c, __global %s *hi, __global %s *mad, int n) {\n"
                       "  int i = get_global_id(0);\n  if (i < n) { %s }\n}"
                       % (t, w, t, t, t, t, t, body))
    return "\n".join(src)


CUDA = r"""
__global__ void cu_mulhi(const int *a, const int *b, const unsigned *ua, const unsigned *ub,
                         const long long *la, const long long *lb,
                         const unsigned long long *ula, const unsigned long long *ulb,
                         int *r, unsigned *ur, long long *lr, unsigned long long *ulr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  r[i] = __mulhi(a[i], b[i]);
  ur[i] = __umulhi(ua[i], ub[i]);
  lr[i] = __mul64hi(la[i], lb[i]);
  ulr[i] = __umul64hi(ula[i], ulb[i]);
}
"""


def _rand(rng, dt, n):
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
    x[:4] = [info.min, info.max, info.max, info.min]  # the extremes' products
    x[4:6] = [0, -1 if info.min < 0 else 1]
    return x


def _ref(dt, a, b, c=None):
    bits = np.iinfo(dt).bits
    mask = (1 << bits) - 1
    hi = [(int(x) * int(y)) >> bits for x, y in zip(a, b)]
    if c is not None:
        hi = [h + int(z) for h, z in zip(hi, c)]
    signed = np.iinfo(dt).min < 0
    wrap = [((h & mask) ^ (1 << (bits - 1))) - (1 << (bits - 1)) if signed else h & mask
            for h in hi]
    return np.array(wrap, dtype=dt)


@pytest.fixture(scope="module")
def mods():
    out = []
    for d in kcc.devices():
        with on_device(d):
            out.append((d, kcc.compile(_cl_src(_widths(d)), name="mulhi.cl")))
    return out


@pytest.mark.parametrize("t", list(TYPES))
def test_mul_hi_mad_hi(mods, rng, t):
    dt = TYPES[t]
    a, b, c = _rand(rng, dt, N * 16), _rand(rng, dt, N * 16), _rand(rng, dt, N * 16)
    b[:4] = b[:4][::-1]  # min * min, max * max, max * min, min * max
    want_hi, want_mad = _ref(dt, a, b), _ref(dt, a, b, c)
    for dev, m in mods:
        with on_device(dev):
            for w in _widths(dev):
                hi, mad = np.zeros(N * w, dt), np.zeros(N * w, dt)
                getattr(m, "mh_%s_%d" % (t, w))[N // 64, 64](a, b, c, hi, mad, np.int32(N))
                for name, got, want in (("mul_hi", hi, want_hi), ("mad_hi", mad, want_mad)):
                    bad = got != want[:N * w]
                    assert not bad.any(), "%s on %s%s (%s): a=%s b=%s gave %s, not %s" % (
                        name, t, w if w > 1 else "", dev.name, a[:N * w][bad][:3],
                        b[:N * w][bad][:3], got[bad][:3], want[:N * w][bad][:3])


def test_cuda_mulhi(rng):
    ts = (np.int32, np.uint32, np.int64, np.uint64)
    ins = [(_rand(rng, dt, N), _rand(rng, dt, N)) for dt in ts]
    for a, b in ins:
        b[:4] = b[:4][::-1]
    for dev, m in compile_on_every_device(CUDA, "mulhi.cu"):
        with on_device(dev):
            outs = [np.zeros(N, dt) for dt in ts]
            m.cu_mulhi[N // 64, 64](*[x for p in ins for x in p], *outs, np.int32(N))
            for name, dt, (a, b), got in zip(("__mulhi", "__umulhi", "__mul64hi", "__umul64hi"),
                                             ts, ins, outs):
                want = _ref(dt, a, b)
                bad = got != want
                assert not bad.any(), "%s (%s): a=%s b=%s gave %s, not %s" % (
                    name, dev.name, a[bad][:3], b[bad][:3], got[bad][:3], want[bad][:3])
