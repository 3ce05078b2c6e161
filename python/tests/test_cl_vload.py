"""OpenCL C's vloadn and vstoren (n = 2, 3, 4, 8 and 16) from global, constant, local and private memory at random offsets, on
every device this machine has, against numpy: element for element, the offset counted in
vectors (p + offset * n), the pointer's own alignment enough. The Vulkan form writes them as n
element loads and stores (spirv_expr.c: Shader has no vloadn)."""
import numpy as np
import pytest

import kcc
from conftest import on_device

SRC = r"""
__kernel void vl%(n)d(__global const float *in, __constant float *cin, __global float *out,
                      __global const int *off, int m) {
  int i = get_global_id(0);
  __local float loc[64 * %(n)d];
  __private float priv[%(n)d * 2];
  for (int j = 0; j < %(n)d * 2; j++) priv[j] = in[j + i] * 2.0f;
  for (int j = 0; j < %(n)d; j++) loc[get_local_id(0) * %(n)d + j] = in[i * %(n)d + j] + 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  float%(n)d a = vload%(n)d(off[i], in + 1);
  float%(n)d b = vload%(n)d(off[i], cin);
  float%(n)d c = vload%(n)d(get_local_id(0), loc);
  float%(n)d d = vload%(n)d(1, priv);
  vstore%(n)d(a, i, out);
  vstore%(n)d(b, i, out + m * %(n)d);
  vstore%(n)d(c, i, out + 2 * m * %(n)d);
  vstore%(n)d(d, 0, priv);
  vstore%(n)d(vload%(n)d(0, priv) + 1.0f, i, out + 3 * m * %(n)d);
}
"""


def _widths(dev):
    return (2, 3, 4, 8, 16)


@pytest.mark.parametrize("n", [2, 3, 4, 8, 16])
def test_vload_vstore(rng, n):
    for dev in kcc.devices():
        if n not in _widths(dev):
            continue
        with on_device(dev):
            mod = kcc.compile(SRC % {"n": n}, name="vl%d.cl" % n)
            m = 64
            src = rng.standard_normal(m * n * 2 + 64).astype(np.float32)
            off = rng.integers(0, m, m).astype(np.int32)
            out = np.zeros(4 * m * n, np.float32)
            getattr(mod, "vl%d" % n)[1, m](src, src, out, off, np.int32(m))
            a = np.stack([src[1 + off * n + j] for j in range(n)], 1)
            b = np.stack([src[off * n + j] for j in range(n)], 1)
            c = np.stack([src[np.arange(m) * n + j] + 1 for j in range(n)], 1)
            d = np.stack([src[np.arange(m) + n + j] * 2 for j in range(n)], 1)
            want = np.concatenate([a.ravel(), b.ravel(), c.ravel(), (d + 1).ravel()])
            np.testing.assert_array_equal(out, want.astype(np.float32), err_msg=dev.name)
