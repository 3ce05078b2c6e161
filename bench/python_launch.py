#!/usr/bin/env python3
"""python_launch.py — issue 11's Python measurements, kcc beside CuPy and numba where they import.

    python bench/python_launch.py [--launch-cost PATH] [--quick]

Needs `import kcc` to work (pip install ./python, or PYTHONPATH=python KCC_LIBDIR=build:build/runtime).
Rows for CuPy (RawKernel) and numba (@cuda.jit) appear when those import and see a CUDA device;
numba-cuda needs numpy older than 2.5. On a machine without an NVIDIA GPU only the kcc rows run
(on its default device, e.g. PoCL), which measures kcc's own overhead, not a comparison.

Measured, each as the median of several runs:
  1. import time: a fresh interpreter's `import kcc` (and `import cupy`, `from numba import cuda`);
  2. first launch in a new process of a kernel compiled by an earlier process, after the device is
     open (a buffer allocated and the device synchronised before the clock starts): compile (a
     disk-cache hit for kcc and CuPy; numba JITs in every process) + module load + launch +
     synchronise; kcc's row notes its parts;
  3. host cost per launch, 4 arguments (3 device arrays and an int), launches queued back to back;
     with --launch-cost PATH (build/tests/bench_launch_cost) the same loop in C through libkcrt;
  4. vector add of 2^20 floats with numpy arrays in and out (copies included), per call.
Prints a Markdown table; paste it into bench/RESULTS.md with the machine and the command.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

VECADD_KCC = """
kernel void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""
VECADD_CUDA = """
extern "C" __global__ void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

rows = []


def row(what, tool, value, unit, note=""):
    rows.append((what, tool, value, unit, note))
    print("  %-40s %-22s %10.3f %s %s" % (what, tool, value, unit, note), flush=True)


def fresh(code, env=None, runs=5, parts=False):
    """Median of a number a fresh interpreter prints (ms), over `runs` runs; with parts, the
    last line holds several numbers and the medians of each are returned, as a list."""
    e = dict(os.environ)
    if env:
        e.update(env)
    vals = []
    for _ in range(runs):
        r = subprocess.run([sys.executable, "-c", code], env=e, capture_output=True, text=True)
        if r.returncode != 0:
            return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"
        vals.append([float(x) for x in r.stdout.strip().splitlines()[-1].split()])
    if parts:
        return [statistics.median(v[i] for v in vals) for i in range(len(vals[0]))], None
    return statistics.median(v[0] for v in vals), None


def importable(mod):
    r = subprocess.run([sys.executable, "-c", "import %s" % mod], capture_output=True)
    return r.returncode == 0


def have_cupy():
    return importable("cupy") and subprocess.run(
        [sys.executable, "-c", "import cupy; cupy.cuda.runtime.getDeviceCount()"],
        capture_output=True).returncode == 0


def have_numba_cuda():
    return subprocess.run([sys.executable, "-c", "from numba import cuda; assert cuda.is_available()"],
                          capture_output=True).returncode == 0


def bench_import(runs):
    print("1. import time (fresh interpreter)")
    t = "import time; t = time.perf_counter(); %s; print((time.perf_counter() - t) * 1e3)"
    for tool, stmt, ok in [("kcc", "import kcc", True), ("CuPy", "import cupy", importable("cupy")),
                           ("numba", "from numba import cuda", importable("numba"))]:
        if not ok:
            print("  %s: not importable, skipped" % tool)
            continue
        v, err = fresh(t % stmt, runs=runs)
        if v is None:
            print("  %s: %s" % (tool, err))
        else:
            row("import", tool, v, "ms")


def bench_first_launch(runs, cache_dir):
    print("2. first launch in a new process (kernel compiled by an earlier process), after device open")
    env = {"XDG_CACHE_HOME": cache_dir}
    # The device is open (context made, memory allocated, synchronised) before the clock
    # starts; then compile (the cache answers) + module load + first launch + synchronise,
    # with the time at each step.
    kcc_code = """
import time, kcc
dev = kcc.get_device()
a = kcc.device_array(1024); c = kcc.device_array(1024)
dev.synchronize()
t0 = time.perf_counter()
m = kcc.compile('''%s''')
t1 = time.perf_counter()
k = m.vecadd
t2 = time.perf_counter()
k[4, 256](a, a, c, 1024)
dev.synchronize()
t3 = time.perf_counter()
print((t3 - t0) * 1e3, (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3)
""" % VECADD_KCC
    fresh(kcc_code, env, runs=1)  # fills the cache
    v, err = fresh(kcc_code, env, runs=runs, parts=True)
    if v is not None:
        row("first launch, cached compile", "kcc", v[0], "ms",
            "compile from the cache %.3f + module load and kernel lookup %.3f + launch and sync %.3f ms"
            % tuple(v[1:]))
    else:
        print("  kcc: %s" % err)
    if have_cupy():
        cupy_code = """
import time, cupy
a = cupy.zeros(1024, cupy.float32); c = cupy.zeros(1024, cupy.float32)
cupy.cuda.Device().synchronize()
t = time.perf_counter()
k = cupy.RawKernel(r'''%s''', 'vecadd')
k((4,), (256,), (a, a, c, cupy.int32(1024)))
cupy.cuda.Device().synchronize()
print((time.perf_counter() - t) * 1e3)
""" % VECADD_CUDA
        e2 = {"CUPY_CACHE_DIR": os.path.join(cache_dir, "cupy")}
        fresh(cupy_code, e2, runs=1)
        v, err = fresh(cupy_code, e2, runs=runs)
        if v is not None:
            row("first launch, cached compile", "CuPy RawKernel", v, "ms")
    if have_numba_cuda():
        numba_code = """
import time
from numba import cuda
import numpy as np
a = cuda.device_array(1024, np.float32); c = cuda.device_array(1024, np.float32)
cuda.synchronize()
t = time.perf_counter()
@cuda.jit
def vecadd(a, b, c, n):
    i = cuda.grid(1)
    if i < n:
        c[i] = a[i] + b[i]
vecadd[4, 256](a, a, c, 1024)
cuda.synchronize()
print((time.perf_counter() - t) * 1e3)
"""
        v, err = fresh(numba_code, runs=runs)
        if v is not None:
            row("first launch (JIT in every process)", "numba", v, "ms")


def per_launch(fn, sync, n, rounds):
    for _ in range(50):
        fn()
    sync()
    vals = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        vals.append((time.perf_counter() - t) / n * 1e6)
        sync()
    return statistics.median(vals)


def bench_launch(n, rounds, launch_cost):
    import numpy as np
    import kcc
    print("3. host cost per launch, 4 arguments, device arrays, queued")
    m = kcc.compile(VECADD_KCC)
    a, b, c = kcc.device_array(1024), kcc.device_array(1024), kcc.device_array(1024)
    k = m.vecadd
    import kcc._native as N
    path = ("C (%s)" % os.path.basename(N.fast.__file__) if N.fast else
            "ctypes (%s)" % N.fast_error)
    row("launch, 4 args", "kcc k[4, 256](...)",
        per_launch(lambda: k[4, 256](a, b, c, 1024), kcc.synchronize, n, rounds), "us",
        "device: %s; launch path: %s" % (kcc.get_device().name, path))
    cfg = k[4, 256]
    row("launch, 4 args", "kcc cfg = k[4, 256]; cfg(...)",
        per_launch(lambda: cfg(a, b, c, 1024), kcc.synchronize, n, rounds), "us")
    if launch_cost:
        r = subprocess.run([launch_cost, "-n", str(n), "-r", str(rounds)], capture_output=True,
                           text=True)
        for line in r.stdout.splitlines():
            if "queued" in line:
                row("launch, 4 args", "C kcrt_launch", float(line.split(":")[1].split()[0]), "us")
    if have_cupy():
        import cupy
        ck = cupy.RawKernel(VECADD_CUDA, "vecadd")
        ca, cb, cc = (cupy.zeros(1024, cupy.float32) for _ in range(3))
        nn = cupy.int32(1024)
        row("launch, 4 args", "CuPy RawKernel",
            per_launch(lambda: ck((4,), (256,), (ca, cb, cc, nn)),
                       cupy.cuda.Device().synchronize, n, rounds), "us")
    if have_numba_cuda():
        from numba import cuda

        @cuda.jit
        def vecadd(a, b, c, n):
            i = cuda.grid(1)
            if i < n:
                c[i] = a[i] + b[i]
        na, nb, nc = (cuda.device_array(1024, np.float32) for _ in range(3))
        row("launch, 4 args", "numba @cuda.jit",
            per_launch(lambda: vecadd[4, 256](na, nb, nc, 1024), cuda.synchronize, n, rounds),
            "us")


def bench_vecadd_numpy(rounds, log2n):
    import numpy as np
    import kcc
    n = 1 << log2n
    print("4. vector add of 2^%d floats, numpy arrays in and out (copies included)" % log2n)
    rng = np.random.default_rng(0)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    grid = (n + 255) // 256

    def timed(fn):
        fn()
        vals = []
        for _ in range(rounds):
            t = time.perf_counter()
            fn()
            vals.append((time.perf_counter() - t) * 1e3)
        return statistics.median(vals)

    m = kcc.compile(VECADD_KCC)
    row("vecadd 2^%d, numpy in/out" % log2n, "kcc",
        timed(lambda: m.vecadd[grid, 256](a, b, c, n)), "ms")
    assert np.array_equal(c, a + b)
    if have_numba_cuda():
        from numba import cuda

        @cuda.jit
        def vecadd(a, b, c, n):
            i = cuda.grid(1)
            if i < n:
                c[i] = a[i] + b[i]
        row("vecadd 2^%d, numpy in/out" % log2n, "numba",
            timed(lambda: (vecadd[grid, 256](a, b, c, n), cuda.synchronize())), "ms")
    if have_cupy():
        import cupy
        ck = cupy.RawKernel(VECADD_CUDA, "vecadd")

        def run():
            ca, cb = cupy.asarray(a), cupy.asarray(b)
            cc = cupy.empty_like(ca)
            ck((grid,), (256,), (ca, cb, cc, cupy.int32(n)))
            cc.get(out=c)
        row("vecadd 2^%d, numpy in/out" % log2n, "CuPy", timed(run), "ms")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--launch-cost", help="build/tests/bench_launch_cost (the C baseline)")
    ap.add_argument("--quick", action="store_true", help="fewer runs")
    ap.add_argument("--log2n", type=int, default=20)
    ap.add_argument("--cache", help="an XDG_CACHE_HOME whose kcc cache already holds the "
                    "kernels (a machine that cannot compile: tests/gpu/python_prepare.sh fills "
                    "one); default: a new, empty one")
    args = ap.parse_args()
    runs = 3 if args.quick else 7
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or tmp
        bench_import(runs)
        bench_first_launch(runs, cache)
        os.environ["XDG_CACHE_HOME"] = cache
        bench_launch(500 if args.quick else 5000, runs, args.launch_cost)
        bench_vecadd_numpy(runs, args.log2n)
    print()
    print("| measurement | tool | value | unit | note |")
    print("|---|---|---:|---|---|")
    for what, tool, value, unit, note in rows:
        print("| %s | %s | %.3f | %s | %s |" % (what, tool, value, unit, note))


if __name__ == "__main__":
    main()
