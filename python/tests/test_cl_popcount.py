"""popcount and clz (OpenCL C) on every integer type, scalars and 2-, 3-, 4-, 8-, 16-vectors, on
every device this machine has, against Python's bit counts on fresh random values (0, -1 and single
bits included). The Vulkan form widens 8- and 16-bit operands to 32 bits and splits 64-bit
ones in halves (spirv_expr.c's vk_bitcount); the OpenCL C form zero-extends 8- and 16-bit
ones, which PoCL 3.1 gets wrong otherwise (docs/driver-bugs.md 30)."""
import numpy as np
import pytest

from conftest import compile_on_every_device, on_device

TYPES = {"char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
         "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}
WIDTHS = (1, 2, 3, 4, 8, 16)
N = 128


def _src():
    src = []
    for t in TYPES:
        for w in WIDTHS:
            if w == 1:
                body = "pc[i] = popcount(x[i]); lz[i] = clz(x[i]);"
            else:
                body = ("%s%d v = vload%d(i, x); vstore%d(popcount(v), i, pc); "
                        "vstore%d(clz(v), i, lz);" % (t, w, w, w, w))
            src.append("__kernel void bc_%s_%d(__global const %s *x, __global %s *pc, "
                       "__global %s *lz) { int i = get_global_id(0); %s }"
                       % (t, w, t, t, t, body))
    return "\n".join(src)


@pytest.mark.parametrize("t", list(TYPES))
def test_popcount_clz(rng, t):
    dt = TYPES[t]
    info = np.iinfo(dt)
    x = rng.integers(info.min, info.max, size=N * 16, dtype=dt, endpoint=True)
    x[:info.bits] = [np.array(1 << k, np.uint64).astype(dt) if info.min == 0 else
                     np.array(1 << k, np.uint64).astype(np.dtype(dt).str.replace("i", "u"))
                     .view(dt) for k in range(info.bits)]
    x[info.bits:info.bits + 2] = [0, -1 if info.min < 0 else info.max]
    ux = [int(v) & ((1 << info.bits) - 1) for v in x]
    want_pc = np.array([bin(v).count("1") for v in ux], dt)
    want_lz = np.array([info.bits - v.bit_length() for v in ux], dt)
    for dev, m in compile_on_every_device(_src(), "bitcount.cl"):
        with on_device(dev):
            for w in WIDTHS:
                pc, lz = np.zeros(N * w, dt), np.zeros(N * w, dt)
                getattr(m, "bc_%s_%d" % (t, w))[N // 64, 64](x, pc, lz)
                for name, got, want in (("popcount", pc, want_pc), ("clz", lz, want_lz)):
                    bad = got != want[:N * w]
                    assert not bad.any(), "%s on %s%s (%s): x=%s gave %s, not %s" % (
                        name, t, w if w > 1 else "", dev.name, x[:N * w][bad][:3],
                        got[bad][:3], want[:N * w][bad][:3])
