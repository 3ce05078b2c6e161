"""Vector add of 2^24 floats against numpy, timing the first call (compile, or the disk cache,
plus loading on the device) and the later ones. Usage: python vecadd.py [log2(n)]"""
import sys
import time

import numpy as np

import kcc

n = 1 << (int(sys.argv[1]) if len(sys.argv) > 1 else 24)
rng = np.random.default_rng(0)
a = rng.standard_normal(n, dtype=np.float32)
b = rng.standard_normal(n, dtype=np.float32)
c = np.zeros(n, np.float32)

t0 = time.perf_counter()
mod = kcc.compile("""
kernel void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
""")
t1 = time.perf_counter()
mod.vecadd[(n + 255) // 256, 256](a, b, c, n)  # numpy arrays: copied in, c copied back
t2 = time.perf_counter()
times = []
for _ in range(3):
    s = time.perf_counter()
    mod.vecadd[(n + 255) // 256, 256](a, b, c, n)
    times.append(time.perf_counter() - s)

print("device: %s" % kcc.get_device().name)
print("compile: %.1f ms (%s)" % ((t1 - t0) * 1e3,
                                 "from the disk cache" if mod.from_cache else "compiled"))
print("first call (load + copies + kernel): %.1f ms" % ((t2 - t1) * 1e3))
print("later calls: %s ms" % ", ".join("%.1f" % (t * 1e3) for t in times))
ok = np.array_equal(c, a + b)
print("%d elements: %s" % (n, "all equal to numpy's a + b" if ok else "WRONG"))
sys.exit(0 if ok else 1)
