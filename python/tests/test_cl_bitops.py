"""cl_khr_extended_bit_ops, which kcc's .cl input predefines and writes in its prelude:
bitfield_insert, bitfield_extract_signed, bitfield_extract_unsigned and bit_reverse on every
integer type, scalars and vectors (3 and 4 components; 16 where the device is not Vulkan),
against a reference on Python integers, on fresh random values, offsets and counts (offset +
count within the width, as the extension requires; a count of 0 included)."""
import numpy as np
import pytest

import kcc

TYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
         "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}


def _unsigned(t):
    return t if t.startswith("u") else "u" + t


def _signed(t):
    return t[1:] if t.startswith("u") else t


def _kernels(widths):
    src = []
    for t in TYPES:
        u, s = _unsigned(t), _signed(t)
        body = ["size_t i = get_global_id(0);",
                "ins[i] = bitfield_insert(x[i], y[i], off[i], cnt[i]);",
                "exu[i] = bitfield_extract_unsigned(x[i], off[i], cnt[i]);",
                "exs[i] = bitfield_extract_signed(x[i], off[i], cnt[i]);",
                "rev[i] = bit_reverse(x[i]);"]
        # Vectors of the first elements, with the first offset and count, after the scalars.
        at = 0
        for w in widths:
            xs = "(%s%d)(%s)" % (t, w, ", ".join("x[%d]" % k for k in range(w)))
            ys = "(%s%d)(%s)" % (t, w, ", ".join("y[%d]" % k for k in range(w)))
            for name, out, ty, call in (
                    ("ins", "ins", t, "bitfield_insert(%s, %s, off[0], cnt[0])" % (xs, ys)),
                    ("exu", "exu", u, "bitfield_extract_unsigned(%s, off[0], cnt[0])" % xs),
                    ("exs", "exs", s, "bitfield_extract_signed(%s, off[0], cnt[0])" % xs),
                    ("rev", "rev", t, "bit_reverse(%s)" % xs)):
                stores = " ".join("%s[n + %d] = r.s%x;" % (out, at + k, k) for k in range(w))
                body.append("if (i == 0) { %s%d r = %s; %s }" % (ty, w, call, stores))
            at += w
        src.append("__kernel void ops_%s(__global const %s *x, __global const %s *y, "
                   "__global const uint *off, __global const uint *cnt, __global %s *ins, "
                   "__global %s *exu, __global %s *exs, __global %s *rev, uint n) {\n  %s\n}"
                   % (t, t, t, t, u, s, t, "\n  ".join(body)))
    return "#ifndef cl_khr_extended_bit_ops\n#error not predefined\n#endif\n" + "\n".join(src)


def _ref(t, x, y, off, cnt):
    bits = np.iinfo(TYPES[t]).bits
    full = (1 << bits) - 1
    ux = [int(v) & full for v in x]
    uy = [int(v) & full for v in y]
    ins, exu, exs, rev = [], [], [], []
    for a, b, o, c in zip(ux, uy, off, cnt):
        o, c = int(o), int(c)
        m = ((1 << c) - 1) << o
        ins.append((a & ~m & full) | ((b << o) & m))
        e = (a >> o) & ((1 << c) - 1)
        exu.append(e)
        exs.append(e - (1 << c) if c and e >> (c - 1) else e)
        rev.append(int(format(a, "0%db" % bits)[::-1], 2))
    st, ut = TYPES[_signed(t)], TYPES[_unsigned(t)]
    as_t = lambda v: np.array(v, np.uint64).astype(ut).view(TYPES[t])
    return (as_t(ins), np.array(exu, np.uint64).astype(ut),
            np.array([v & full for v in exs], np.uint64).astype(ut).view(st), as_t(rev))


@pytest.fixture(scope="module")
def mod():
    # 16 components on Vulkan too took more than 7 minutes here (every function of the
    # extension on every type, in 4 parts each); tests/runtime/cl_vec16 checks such vectors
    # there.
    vulkan = kcc.get_device().backend == "vulkan"
    widths = (3, 4) if vulkan else (3, 4, 16)
    return widths, kcc.compile(_kernels(widths), name="bitops.cl")


@pytest.mark.parametrize("t", list(TYPES))
def test_extended_bit_ops(mod, rng, t):
    widths, m = mod
    n = 256
    info = np.iinfo(TYPES[t])
    x = rng.integers(info.min, info.max, size=n, dtype=TYPES[t], endpoint=True)
    y = rng.integers(info.min, info.max, size=n, dtype=TYPES[t], endpoint=True)
    cnt = rng.integers(0, info.bits, size=n, endpoint=True).astype(np.uint32)
    off = np.array([rng.integers(0, info.bits - c, endpoint=True) for c in cnt], np.uint32)
    cnt[:3] = [0, info.bits, 1]  # none, all and one bit
    off[:3] = [5 % info.bits, 0, info.bits - 1]
    extra = sum(widths)
    u, s = TYPES[_unsigned(t)], TYPES[_signed(t)]
    ins, rev = np.zeros(n + extra, TYPES[t]), np.zeros(n + extra, TYPES[t])
    exu, exs = np.zeros(n + extra, u), np.zeros(n + extra, s)
    getattr(m, "ops_" + t)[n // 64, 64](x, y, off, cnt, ins, exu, exs, rev, np.uint32(n))
    want = _ref(t, x, y, off, cnt)
    for name, got, w in zip(("bitfield_insert", "bitfield_extract_unsigned",
                             "bitfield_extract_signed", "bit_reverse"), (ins, exu, exs, rev), want):
        bad = got[:n] != w
        assert not bad.any(), "%s(%s): x=%s off=%s count=%s gave %s, not %s" % (
            name, t, x[bad][:3], off[bad][:3], cnt[bad][:3], got[:n][bad][:3], w[bad][:3])
        first = _ref(t, x, y, [off[0]] * n, [cnt[0]] * n)[
            ("bitfield_insert", "bitfield_extract_unsigned", "bitfield_extract_signed",
             "bit_reverse").index(name)]
        at = n
        for width in widths:
            assert np.array_equal(got[at:at + width], first[:width]), (
                "%s on %s%d" % (name, t, width))
            at += width
