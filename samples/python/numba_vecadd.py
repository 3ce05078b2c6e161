"""Vector add as numba tutorials write it (a grid-stride loop over device arrays), checked
against numpy's a + b, with the first call's time (translate + compile, or the disk cache)
and the later calls'. Usage: python numba_vecadd.py [log2(n)]"""
import sys
import time

import numpy as np

from kcc import cuda  # numba: from numba import cuda


@cuda.jit
def vecadd(a, b, c):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, c.size, stride):
        c[i] = a[i] + b[i]


n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 20)
rng = np.random.default_rng(0)
a = rng.standard_normal(n, dtype=np.float32)
b = rng.standard_normal(n, dtype=np.float32)
d_a, d_b = cuda.to_device(a), cuda.to_device(b)
d_c = cuda.device_array_like(a)

t0 = time.perf_counter()
vecadd[256, 256](d_a, d_b, d_c)
cuda.synchronize()
t1 = time.perf_counter()
times = []
for _ in range(3):
    s = time.perf_counter()
    vecadd[256, 256](d_a, d_b, d_c)
    cuda.synchronize()
    times.append(time.perf_counter() - s)

print("device: %s" % cuda.get_current_device().name.decode())
print("first call (translate, compile or cache, load, kernel): %.1f ms" % ((t1 - t0) * 1e3))
print("later calls: %s ms" % ", ".join("%.2f" % (t * 1e3) for t in times))
ok = np.array_equal(d_c.copy_to_host(), a + b)
print("%d elements: %s" % (n, "all equal to numpy's a + b" if ok else "WRONG"))
sys.exit(0 if ok else 1)
