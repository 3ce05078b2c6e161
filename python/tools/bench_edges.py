#!/usr/bin/env python3
"""bench_edges.py — what issue 24's choices cost, on the current device (PoCL here):

    PYTHONPATH=python KCC_LIBDIR=build:build/runtime python3 python/tools/bench_edges.py

  1. host cost per launch, vecadd with 3 device arrays and an int, launches queued back to back,
     bounds-checked and not (the checked kernel passes 4 hidden arguments more);
  2. kernel time (launch + synchronize) of vecadd over 2^22 floats and of a 5-point 2-D stencil
     over 2048 x 2048 floats, checked and not;
  3. kcc.synchronize() on an idle device (the main thread's interruptible wait);
  4. mod.vecadd[g, b](...) against a kept kernel k[g, b](...) (the module's lookup).
Medians of several rounds; prints one line per figure (µs or ms).

    ... bench_edges.py --lookup

times 4 alone with kcrt_launch replaced by a C function that returns at once (as
bench/python_overhead.py does; needs `cc`), thread CPU time: kcc's own cost, no driver's.
"""
import statistics
import time

import numpy as np

import kcc

VECADD = """
kernel void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
kernel void stencil(const float *in, float *out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
        out[y * w + x] = 0.2f * (in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] +
                                 in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}
"""


def med(f, rounds=7):
    return statistics.median(f() for _ in range(rounds))


def per_launch_us(call, n=2000):
    def once():
        t = time.perf_counter()
        for _ in range(n):
            call()
        dt = time.perf_counter() - t
        kcc.synchronize()
        return dt / n * 1e6
    return med(once)


def kernel_ms(call):
    def once():
        t = time.perf_counter()
        call()
        kcc.synchronize()
        return (time.perf_counter() - t) * 1e3
    call()
    kcc.synchronize()
    return med(once, 9)


def main():
    dev = kcc.get_device()
    print("device: %s (%s)" % (dev.name, dev.type))
    mods = {c: kcc.compile(VECADD, name="bench.k", bounds_check=c) for c in (False, True)}
    small = [kcc.to_device(np.ones(1024, np.float32)) for _ in range(3)]
    n = 1 << 22
    big = [kcc.to_device(np.ones(n, np.float32)) for _ in range(3)]
    w = h = 2048
    sin, sout = kcc.to_device(np.ones(w * h, np.float32)), kcc.device_array(w * h)
    for checked, m in mods.items():
        tag = "checked" if checked else "unchecked"
        k = m.vecadd
        cfg = k[4, 256]
        print("launch, 3 device arrays + int, %-9s %8.2f µs" % (
            tag, per_launch_us(lambda: cfg(small[0], small[1], small[2], 1024))))
        cfg = k[n // 256, 256]
        print("vecadd 2^22 floats,            %-9s %8.2f ms" % (
            tag, kernel_ms(lambda: cfg(big[0], big[1], big[2], n))))
        st = m.stencil[(w // 16, h // 16), (16, 16)]
        print("stencil 2048x2048,             %-9s %8.2f ms" % (
            tag, kernel_ms(lambda: st(sin, sout, w, h))))
    print("kcc.synchronize(), idle device          %8.2f µs" % per_launch_us(kcc.synchronize,
                                                                           200))
    m = mods[False]
    a, b, c = small
    k = m.vecadd
    print("mod.vecadd[4, 256](...) (module lookup) %8.2f µs" % per_launch_us(
        lambda: m.vecadd[4, 256](a, b, c, 1024)))
    print("k[4, 256](...) (kept kernel)            %8.2f µs" % per_launch_us(
        lambda: k[4, 256](a, b, c, 1024)))


NOOP = r"""
#include <stddef.h>
#include <stdint.h>
typedef struct { uint64_t x, y, z; } D3;
int noop_launch(void *k, void *q, D3 g, D3 b, size_t sh, void *args, int n) {
  (void)k; (void)q; (void)g; (void)b; (void)sh; (void)args; (void)n; return 0;
}
"""


def lookup():
    import ctypes
    import os
    import subprocess
    import tempfile
    import kcc._native as N

    def per(fn, n=20000):
        def once():
            t = time.thread_time()
            for _ in range(n):
                fn()
            return (time.thread_time() - t) / n * 1e6
        fn()
        return med(once)
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
        m = kcc.compile(VECADD, name="bench.k")
        a, b, c = kcc.device_array(1024), kcc.device_array(1024), kcc.device_array(1024)
        k = m.vecadd
        real = lib.kcrt_launch
        lib.kcrt_launch = noop
        if N.fast:
            N.fast.bind(ctypes.cast(noop, ctypes.c_void_p).value)
        try:
            print("launch path: %s" % ("C" if N.fast else "ctypes"))
            print("mod.vecadd                              %8.3f µs" % per(lambda: m.vecadd))
            print("mod.vecadd[4, 256](a, b, c, n)          %8.3f µs" % per(
                lambda: m.vecadd[4, 256](a, b, c, 1024)))
            print("k[4, 256](a, b, c, n), k kept           %8.3f µs" % per(
                lambda: k[4, 256](a, b, c, 1024)))
        finally:
            lib.kcrt_launch = real
            if N.fast:
                N.fast.bind(ctypes.cast(real, ctypes.c_void_p).value)


if __name__ == "__main__":
    import sys
    if sys.argv[1:] == ["--lookup"]:
        lookup()
    else:
        main()
