"""A 2-D kernel on 2-D arrays: C = A + B^T on a 1000 x 700 grid of 16 x 16 blocks, with device
arrays (no copies between launches)."""
import numpy as np

import kcc

mod = kcc.compile("""
kernel void add_transposed(const float *a, const float *b, float *c, int rows, int cols) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;   // column
    int y = blockIdx.y * blockDim.y + threadIdx.y;   // row
    if (x < cols && y < rows) c[y * cols + x] = a[y * cols + x] + b[x * rows + y];
}
""")
rows, cols = 1000, 700
rng = np.random.default_rng(1)
a = rng.standard_normal((rows, cols), dtype=np.float32)
b = rng.standard_normal((cols, rows), dtype=np.float32)
da, db = kcc.to_device(a), kcc.to_device(b)
dc = kcc.device_array((rows, cols), np.float32)
grid = ((cols + 15) // 16, (rows + 15) // 16)
mod.add_transposed[grid, (16, 16)](da, db, dc, rows, cols)
c = dc.copy_to_host()
ok = np.array_equal(c, a + b.T)
print("grid %r of 16x16 blocks: %s" % (grid, "equal to numpy's a + b.T" if ok else "WRONG"))
raise SystemExit(0 if ok else 1)
