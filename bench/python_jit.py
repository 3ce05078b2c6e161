#!/usr/bin/env python3
"""python_jit.py — issue 25's measurements of kcc.jit: the same Python kernels through
kcc.cuda, through numba.cuda where it imports (same source, only the import differs), and
the hand-written C kernel through kcc.compile.

    python bench/python_jit.py [--quick]

Needs `import kcc` (PYTHONPATH=python KCC_LIBDIR=...). Measured, each the median of runs:
  1. first launch of a new kernel in a fresh process whose caches an earlier process filled
     (kcc: the translation and the bundle come from the disk cache; numba JITs again), the
     device opened first; launch to synchronize;
  2. host cost per launch, 4 arguments (3 device arrays and an int), back to back;
  3. kernel time (launch to synchronize, device arrays) of a 5-point stencil over 2048^2
     floats and a 16x16-tiled matrix multiply of 512^2 floats.
On a machine without an NVIDIA GPU only the kcc rows run (on PoCL, say): kcc.jit against
kcc's own C kernels. Prints a Markdown table for bench/RESULTS.md.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

PROGRAM = r'''
import numpy as np
T = 16

@cuda.jit
def add4(x, y, out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = x[i] + y[i]

@cuda.jit
def stencil(u, out):
    j, i = cuda.grid(2)  # x along a row, as the C kernel's
    n, m = u.shape
    if 0 < i < n - 1 and 0 < j < m - 1:
        out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - np.float32(4) * u[i, j]

@cuda.jit
def matmul(A, B, C):
    sA = cuda.shared.array(shape=(T, T), dtype=np.float32)
    sB = cuda.shared.array(shape=(T, T), dtype=np.float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    acc = np.float32(0)
    for t in range(cuda.gridDim.x):
        sA[ty, tx] = A[y, tx + t * T]
        sB[ty, tx] = B[ty + t * T, x]
        cuda.syncthreads()
        for j in range(T):
            acc += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    C[y, x] = acc
'''

C_KERNELS = r'''
kernel void add4(const float *x, const float *y, float *out, long n) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}
kernel void stencil(const float *u, float *out, long n, long m) {
    long j = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long i = blockIdx.y * (long)blockDim.y + threadIdx.y;
    if (i > 0 && i < n - 1 && j > 0 && j < m - 1)
        out[i * m + j] = u[(i - 1) * m + j] + u[(i + 1) * m + j] + u[i * m + j - 1]
                       + u[i * m + j + 1] - 4.0f * u[i * m + j];
}
kernel void matmul(const float *A, const float *B, float *C, int n) {
    shared float sA[16][16];
    shared float sB[16][16];
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    float acc = 0;
    for (int t = 0; t < (int)gridDim.x; t++) {
        sA[ty][tx] = A[y * n + tx + t * 16];
        sB[ty][tx] = B[(ty + t * 16) * n + x];
        __syncthreads();
        for (int j = 0; j < 16; j++) acc += sA[ty][j] * sB[j][tx];
        __syncthreads();
    }
    C[y * n + x] = acc;
}
'''

FIRST = r'''
import sys, time
impl = sys.argv[1]
if impl == "numba":
    from numba import cuda
else:
    from kcc import cuda
import numpy as np
exec(compile(open(sys.argv[2]).read(), sys.argv[2], "exec"))
n = 1 << 16
x = cuda.to_device(np.ones(n, np.float32))
out = cuda.device_array(n, np.float32)
cuda.synchronize()
t0 = time.perf_counter()
add4[n // 256, 256](x, x, out, n)
cuda.synchronize()
print((time.perf_counter() - t0) * 1e3)
'''


def median_ms(f, reps, sync):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        sync()
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


def first_launch(impl, prog_path, runs):
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(FIRST)
    out = []
    try:
        for i in range(runs + 1):  # the first run fills the caches
            r = subprocess.run([sys.executable, f.name, impl, prog_path], capture_output=True,
                               text=True)
            if r.returncode:
                return "failed: " + (r.stderr.strip().splitlines() or ["?"])[-1]
            if i:
                out.append(float(r.stdout.split()[-1]))
    finally:
        os.unlink(f.name)
    return "%.2f ms" % statistics.median(out)


def measure(impl, quick, prog):
    import numpy as np
    if impl == "numba":
        from numba import cuda
    else:
        from kcc import cuda
    ns = {"cuda": cuda}
    exec(compile(open(prog).read(), prog, "exec"), ns)  # from a file: kcc.jit reads source
    sync = cuda.synchronize
    row = {}
    n = 1 << 16
    x = cuda.to_device(np.ones(n, np.float32))
    out = cuda.device_array(n, np.float32)
    row["launch"] = launch_us(ns["add4"], (x, x, out, n), n, quick, sync)
    s = 1024 if quick else 2048
    u = cuda.to_device(np.random.rand(s, s).astype(np.float32))
    o = cuda.device_array((s, s), np.float32)
    st = ns["stencil"]
    st[(s // 16, s // 16), (16, 16)](u, o)
    row["stencil"] = "%.3f ms" % median_ms(lambda: st[(s // 16, s // 16), (16, 16)](u, o),
                                           5 if quick else 20, sync)
    mm = 256 if quick else 512
    A = cuda.to_device(np.random.rand(mm, mm).astype(np.float32))
    C = cuda.device_array((mm, mm), np.float32)
    mk = ns["matmul"]
    mk[(mm // 16, mm // 16), (16, 16)](A, A, C)
    row["matmul"] = "%.3f ms" % median_ms(lambda: mk[(mm // 16, mm // 16), (16, 16)](A, A, C),
                                          5 if quick else 20, sync)
    return row


def launch_us(k, args, n, quick, sync):
    """The host cost of one launch of k over n elements: the mean of a queued burst."""
    k[n // 256, 256](*args)
    sync()
    m = 2000 if quick else 20000
    t0 = time.perf_counter()
    for _ in range(m):
        k[n // 256, 256](*args)
    sync()
    return "%.2f µs" % ((time.perf_counter() - t0) / m * 1e6)


def measure_c(quick):
    import numpy as np
    import kcc
    mod = kcc.compile(C_KERNELS)
    sync = kcc.synchronize
    row = {}
    n = 1 << 16
    x = kcc.to_device(np.ones(n, np.float32))
    out = kcc.device_array(n, np.float32)
    row["launch"] = launch_us(mod.add4, (x, x, out, n), n, quick, sync)
    s = 1024 if quick else 2048
    u = kcc.to_device(np.random.rand(s, s).astype(np.float32))
    o = kcc.device_array((s, s), np.float32)
    row["stencil"] = "%.3f ms" % median_ms(
        lambda: mod.stencil[(s // 16, s // 16), (16, 16)](u, o, s, s), 5 if quick else 20, sync)
    mm = 256 if quick else 512
    A = kcc.to_device(np.random.rand(mm, mm).astype(np.float32))
    C = kcc.device_array((mm, mm), np.float32)
    row["matmul"] = "%.3f ms" % median_ms(
        lambda: mod.matmul[(mm // 16, mm // 16), (16, 16)](A, A, C, mm), 5 if quick else 20,
        sync)
    row["first"] = "(a kcc.compile kernel: see python_launch.py)"
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    import kcc
    print("device: %s" % kcc.get_device().name)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(PROGRAM)
        prog = f.name
    rows = []
    try:
        r = measure("kcc", args.quick, prog)
        r["first"] = first_launch("kcc", prog, 3 if args.quick else 7)
        rows.append(("kcc.jit (kcc.cuda)", r))
        try:
            import numba.cuda  # noqa: F401
            have_numba = numba.cuda.is_available()
        except Exception:
            have_numba = False
        if have_numba:
            r = measure("numba", args.quick, prog)
            r["first"] = first_launch("numba", prog, 3 if args.quick else 7)
            rows.append(("numba.cuda", r))
        rows.append(("kcc.compile (C)", measure_c(args.quick)))
    finally:
        os.unlink(prog)
    print("| | first launch, fresh process | launch, 4 args | stencil | tiled matmul |")
    print("|---|---:|---:|---:|---:|")
    for name, r in rows:
        print("| %s | %s | %s | %s | %s |" % (name, r["first"], r["launch"], r["stencil"],
                                               r["matmul"]))


if __name__ == "__main__":
    main()
