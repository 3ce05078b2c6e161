#!/usr/bin/env python3
"""python_overhead.py — the Python package's own host cost per launch, without a device's.

    python bench/python_overhead.py

libkcrt's kcrt_launch is replaced, for this process, by a C function that returns at once (built
here with `cc`), so what is timed is kcc's Python side alone: the launch configuration lookup,
the argument conversion (3 device arrays and an int) and the call into C, for a C kernel and
for the same kernel written with @kcc.jit (its dispatch on the argument types included). Thread CPU time, not
wall time, so that other load on the machine counts less. The real launch then costs this plus
the C launch (bench/launch_cost.c; on an H100, cuLaunchKernel is about 3 us). Runs on the default
device (any: nothing is launched), e.g. PoCL. The arrays rows time kcc's array operations the
same way: `x + y` of two 1024-float kcc arrays is the operation's whole host path (types, shape,
the cached kernel, the result's allocation from the memory pool, the launch), CuPy's role.

Both launch paths are timed: the C extension kcc._fastlaunch (when this interpreter finds it) in
this process, and the ctypes path in a second process with KCC_PYEXT=0.
"""
import ctypes
import operator
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import kcc
import kcc._native as N

NOOP = r"""
#include <stddef.h>
#include <stdint.h>
typedef struct { uint64_t x, y, z; } D3;
int noop_launch(void *k, void *q, D3 g, D3 b, size_t sh, void *args, int n) {
  (void)k; (void)q; (void)g; (void)b; (void)sh; (void)args; (void)n; return 0;
}
"""


def per(fn, n=20000, rounds=7):
    for _ in range(1000):
        fn()
    vals = []
    for _ in range(rounds):
        t = time.thread_time()
        for _ in range(n):
            fn()
        vals.append((time.thread_time() - t) / n * 1e6)
    return statistics.median(vals)


def main():
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "noop.c"), "w") as f:
            f.write(NOOP)
        so = os.path.join(d, "libnoop.so")
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", so, os.path.join(d, "noop.c")],
                       check=True)
        noop = ctypes.CDLL(so).noop_launch
        lib = N.kcrt()
        noop.restype = ctypes.c_int
        noop.argtypes = lib.kcrt_launch.argtypes
        m = kcc.compile("kernel void vecadd(const float *a, const float *b, float *c, int n) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  if (i < n) c[i] = a[i] + b[i];\n}\n")
        a, b, c = kcc.device_array(1024), kcc.device_array(1024), kcc.device_array(1024)
        k = m.vecadd
        cfg = k[4, 256]

        @kcc.jit
        def jvecadd(a, b, c, n):
            i = kcc.cuda.grid(1)
            if i < n:
                c[i] = a[i] + b[i]
        jcfg = jvecadd[4, 256]
        jcfg(a, b, c, 1024)  # compiled before the stub goes in
        # kcc arrays: `x + y` of two 1024-float arrays on the device, the result a new array
        # (from the memory pool) dropped at once; compiled (and its plan made) before the stub.
        x, y = kcc.asarray(np.ones(1024, np.float32)), kcc.asarray(np.ones(1024, np.float32))
        for _ in range(3):  # (the direct paths take over from the third call)
            x + y
            x * 2 + y
            x < y
            -x
            kcc.sqrt(x)
            operator.iadd(x, y)
            x.sum()
            kcc.linalg.norm(x)
        real = lib.kcrt_launch
        lib.kcrt_launch = noop
        if N.fast:
            N.fast.bind(ctypes.cast(noop, ctypes.c_void_p).value)
        try:
            d1, d2 = N.Dim3(4, 1, 1), N.Dim3(256, 1, 1)
            rows = [
                ("k[4, 256](a, b, c, n)", per(lambda: k[4, 256](a, b, c, 1024))),
                ("cfg(a, b, c, n), cfg = k[4, 256]", per(lambda: cfg(a, b, c, 1024))),
                ("@kcc.jit: j[4, 256](a, b, c, n)", per(lambda: jvecadd[4, 256](a, b, c, 1024))),
                ("@kcc.jit: jcfg(a, b, c, n)", per(lambda: jcfg(a, b, c, 1024))),
                ("arrays: x + y (1024 floats)", per(lambda: x + y, n=4000)),
                ("arrays: x * 2 + y (1024 floats)", per(lambda: x * 2 + y, n=4000)),
                ("arrays: x < y (1024 floats)", per(lambda: x < y, n=4000)),
                ("arrays: -x (1024 floats)", per(lambda: -x, n=4000)),
                ("arrays: kcc.sqrt(x) (1024 floats)", per(lambda: kcc.sqrt(x), n=4000)),
                ("arrays: x += y (1024 floats)", per(lambda: operator.iadd(x, y), n=4000)),
                ("arrays: x.sum() (1024 floats)", per(lambda: x.sum(), n=4000)),
                ("arrays: kcc.linalg.norm(x) (1024 floats)",
                 per(lambda: kcc.linalg.norm(x), n=4000)),
                ("the bare ctypes call", per(lambda: noop(None, None, d1, d2, 0, None, 4))),
            ]
        finally:
            lib.kcrt_launch = real
            if N.fast:
                N.fast.bind(ctypes.cast(real, ctypes.c_void_p).value)
    return rows


def report(title, rows):
    print(title)
    for what, us in rows:
        print("  %-40s %7.2f us" % (what, us))


if __name__ == "__main__":
    if sys.argv[1:] == ["--rows"]:  # the second process: its rows, for the first to print
        print(repr(main()))
        sys.exit(0)
    print("kcc Python-side cost per launch, 4 arguments, kcrt_launch stubbed (thread CPU time):")
    if N.fast:
        report("C launch path (kcc._fastlaunch, %s):" % os.path.basename(N.fast.__file__),
               main())
    else:
        print("C launch path: not found (%s)" % N.fast_error)
    env = dict(os.environ, KCC_PYEXT="0")
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--rows"], env=env,
                       capture_output=True, text=True, check=True)
    report("ctypes launch path (KCC_PYEXT=0):", eval(r.stdout.strip().splitlines()[-1]))
