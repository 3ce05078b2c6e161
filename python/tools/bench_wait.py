#!/usr/bin/env python3
"""bench_wait.py — what an interruptible wait costs (docs/python.md, "Waiting"):

    PYTHONPATH=python KCC_LIBDIR=build:build/runtime python3 python/tools/bench_wait.py [BUNDLE]

On the current device: kcc.synchronize() of an idle device, and a vecadd launch of 1024
floats (device arrays) followed by kcc.synchronize(), each through the bare ctypes call, the C
wait with and without its spin, the Python waiter (the ctypes path's), and from a thread other
than the main one (which calls directly). BUNDLE: a .kcb with kernel vecadd (e.g. made by
`kcc vecadd.k -arch=sm_90 -o vecadd.kcb`) for a machine that cannot compile; else compiled here.
Medians of 9 rounds, µs.
"""
import statistics
import sys
import threading
import time

import kcc
import kcc._native as N
from kcc import _core

VECADD = """
kernel void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


def per(fn, k=3000):
    for _ in range(200):
        fn()
    v = []
    for _ in range(9):
        t = time.perf_counter()
        for _ in range(k):
            fn()
        v.append((time.perf_counter() - t) / k * 1e6)
    return statistics.median(v)


def main():
    d = kcc.get_device()
    print("device: %r, launch path: %s" % (d, "C" if N.fast else "ctypes (%s)" % N.fast_error))
    m = kcc.load(sys.argv[1]) if len(sys.argv) > 1 else kcc.compile(VECADD, bounds_check=False)
    lib = N.kcrt()
    h = d._open()
    a, c = kcc.device_array(1024), kcc.device_array(1024)
    cfg = m.vecadd[4, 256]

    def loop_direct():
        cfg(a, a, c, 1024)
        lib.kcrt_device_synchronize(h)

    def loop():
        cfg(a, a, c, 1024)
        kcc.synchronize()
    print("%-24s %10s %14s" % ("", "idle sync", "launch+sync"))
    print("%-24s %10.2f %14.2f" % ("bare ctypes call", per(lambda: lib.kcrt_device_synchronize(h)),
                                   per(loop_direct)))
    fast = N.fast
    ways = [("Python waiter", None, None)]
    if fast:
        ways[:0] = [("C wait, spin 50 us", 50000, fast), ("C wait, no spin", 0, fast)]
    for label, spin, f in ways:
        _core._SPIN[0] = spin
        N.fast = f
        try:
            print("%-24s %10.2f %14.2f" % (label, per(kcc.synchronize), per(loop)))
        finally:
            N.fast = fast
            _core._SPIN[0] = None
    res = []
    t = threading.Thread(target=lambda: res.append((per(kcc.synchronize), per(loop))))
    t.start()
    t.join()
    print("%-24s %10.2f %14.2f" % (("another thread (direct)",) + res[0]))


if __name__ == "__main__":
    main()
