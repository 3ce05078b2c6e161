#!/usr/bin/env python3
"""python_arrays.py — issue 26's measurements: kcc's arrays beside CuPy's on the same GPU, in
one process.

    python bench/python_arrays.py [--small] [--runs N]

Needs `import kcc` (PYTHONPATH=python KCC_LIBDIR=...); CuPy where it imports (its column is
left empty otherwise, e.g. on PoCL, where --small gives sizes a CPU device runs quickly).
Each device row is the median of N runs, each timed by a pair of events on the default stream
around one operation (device time; a result's allocation included, as a program pays it):

  copy          a.copy(): the device-to-device copy whose bandwidth the other rows are put
                against (read + write)
  a + b         one elementwise kernel (2 reads, 1 write)
  a * 2 + b     NumPy semantics: two kernels, a temporary between them (CuPy's too); the
                bandwidth column counts the 3 passes of the result alone, so two kernels can
                reach 60% of copy at most; the next row is the same as one ElementwiseKernel
  sum, max      whole-array reductions (one read); linalg.norm the same
  sum(axis=1)   of an 8192 x 8192 matrix (one read)
  matmul        4096 x 4096 float32 (kcc's tiled kernel; CuPy calls cuBLAS)

and the host cost of a small `a + b`, `a * 2 + b` and `sum` (1024 elements, arrays on the
device): back-to-back calls timed on the host clock, then one synchronize. Every result is
checked against numpy once (elementwise exactly, reductions and matmul to float32 summation
error, relative to the largest element):
a wrong result stops the run. Prints a Markdown table for bench/RESULTS.md.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import kcc


def median_ms(run, record, elapsed, n, warm=3):
    for _ in range(warm):
        run()
    times = []
    for _ in range(n):
        e0, e1 = record(), None
        run()
        e1 = record()
        times.append(elapsed(e0, e1))
    return statistics.median(times)


def host_us(run, sync, n=2000):
    for _ in range(50):
        run()
    sync()
    t = time.perf_counter()
    for _ in range(n):
        run()
    sync()
    return (time.perf_counter() - t) / n * 1e6


class Lib:
    """One array library's side: its module, events and checks."""

    def __init__(self, name, xp, record, elapsed, sync, to_host):
        self.name, self.xp, self.record, self.elapsed = name, xp, record, elapsed
        self.sync, self.to_host = sync, to_host


def kcc_lib():
    def record():
        return kcc.Event().record()
    return Lib("kcc", kcc, record, lambda a, b: a.elapsed_time(b), kcc.synchronize,
               lambda x: np.asarray(x.get() if hasattr(x, "get") else x))


def cupy_lib():
    try:
        import cupy as cp
        cp.zeros(1).sum()
    except Exception as e:  # not installed, or no CUDA device
        print("(CuPy not used: %s)" % str(e).splitlines()[0][:100], file=sys.stderr)
        return None

    def record():
        ev = cp.cuda.Event()
        ev.record()
        return ev

    def elapsed(a, b):
        b.synchronize()
        return cp.cuda.get_elapsed_time(a, b)
    return Lib("CuPy", cp, record, elapsed, cp.cuda.Device().synchronize, cp.asnumpy)


def check(what, got, want, rtol):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    # float32 summation error is relative to the terms' size, not to a sum near 0
    bad = np.abs(got - want) > rtol * np.abs(want).max() if rtol else got != want
    if np.any(bad):
        i = np.flatnonzero(bad)[0]
        sys.exit("python_arrays.py: %s is WRONG: element %d is %r, numpy says %r"
                 % (what, i, got.ravel()[i], want.ravel()[i]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", action="store_true", help="small sizes (CPU devices)")
    ap.add_argument("--runs", type=int, default=20)
    opt = ap.parse_args()
    n = 1 << (16 if opt.small else 26)
    side = 256 if opt.small else 8192
    mm = 128 if opt.small else 4096
    rng = np.random.default_rng(26)
    a_h = rng.standard_normal(n, dtype=np.float32)
    b_h = rng.standard_normal(n, dtype=np.float32)
    m_h = rng.standard_normal((side, side), dtype=np.float32)
    p_h = rng.standard_normal((mm, mm), dtype=np.float32)
    q_h = rng.standard_normal((mm, mm), dtype=np.float32)
    libs = [lib for lib in (kcc_lib(), cupy_lib()) if lib is not None]
    rows = []  # (label, size, bytes moved or None, {lib: ms})
    for lib in libs:
        xp = lib.xp
        a, b = xp.asarray(a_h), xp.asarray(b_h)
        m, p, q = xp.asarray(m_h), xp.asarray(p_h), xp.asarray(q_h)
        # correctness first, once per library
        check(lib.name + " a + b", lib.to_host(a + b), a_h + b_h, 0)
        check(lib.name + " a * 2 + b", lib.to_host(a * 2 + b), a_h * np.float32(2) + b_h, 0)
        check(lib.name + " sum", float(xp.sum(a)), a_h.sum(dtype=np.float64), 1e-4)
        check(lib.name + " max", float(a.max()), a_h.max(), 0)
        check(lib.name + " norm", float(xp.linalg.norm(a)),
              np.sqrt((a_h.astype(np.float64) ** 2).sum()), 1e-4)
        check(lib.name + " sum(axis=1)", lib.to_host(m.sum(axis=1)),
              m_h.sum(axis=1, dtype=np.float64), 1e-3)
        want = p_h[:64].astype(np.float64) @ q_h.astype(np.float64)
        check(lib.name + " matmul", lib.to_host(p @ q)[:64], want, 1e-3)
        # The same expression as one kernel (the API is CuPy's and kcc's alike): NumPy's
        # semantics make `a * 2 + b` two kernels and a temporary, 5 array passes for 3.
        axpb = xp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x * 2 + y",
                                    "bench_axpb")
        check(lib.name + " axpb", lib.to_host(axpb(a, b)), a_h * np.float32(2) + b_h, 0)
        ops = [
            ("copy", None, 2 * 4 * n, lambda: a.copy()),
            ("a + b", None, 3 * 4 * n, lambda: a + b),
            ("a * 2 + b", None, 3 * 4 * n, lambda: a * 2 + b),
            ("a * 2 + b, one ElementwiseKernel", None, 3 * 4 * n, lambda: axpb(a, b)),
            ("sum", None, 4 * n, lambda: xp.sum(a)),
            ("max", None, 4 * n, lambda: a.max()),
            ("linalg.norm", None, 4 * n, lambda: xp.linalg.norm(a)),
            ("sum(axis=1)", "%d x %d" % (side, side), 4 * side * side,
             lambda: m.sum(axis=1)),
            ("matmul", "%d x %d" % (mm, mm), None, lambda: p @ q),
        ]
        for i, (label, size, nbytes, run) in enumerate(ops):
            runs = max(3, opt.runs // 4) if label == "matmul" else opt.runs
            ms = median_ms(run, lib.record, lib.elapsed, runs)
            if len(rows) <= i:
                rows.append((label, size or "2^%d floats" % (n.bit_length() - 1), nbytes, {}))
            rows[i][3][lib.name] = ms
        s1, s2 = xp.asarray(a_h[:1024]), xp.asarray(b_h[:1024])
        small = [("a + b, host cost per call", lambda: s1 + s2),
                 ("a * 2 + b, host cost per call", lambda: s1 * 2 + s2),
                 ("sum, host cost per call", lambda: s1.sum())]
        for j, (label, run) in enumerate(small):
            if len(rows) == len(ops) + j:
                rows.append((label, "1024 floats", None, {}))
            rows[len(ops) + j][3][lib.name] = host_us(run, lib.sync)
        del a, b, m, p, q
    names = [lib.name for lib in libs]
    copy = rows[0][3]
    print("| operation | size | " + " | ".join("%s ms" % x for x in names) +
          (" | kcc / CuPy" if "CuPy" in names else "") +
          " | kcc GB/s | kcc % of its copy |" + (" CuPy % of its copy |" if "CuPy" in names
                                                  else ""))
    print("|---|---|" + "---:|" * (len(names) + (1 if "CuPy" in names else 0) + 2 +
                                   (1 if "CuPy" in names else 0)))
    for label, size, nbytes, t in rows:
        unit = "us" if "host cost" in label else "ms"
        cells = ["%.3f%s" % (t[x], "" if unit == "ms" else " us") if x in t else "" for x in names]
        if "CuPy" in names:
            cells.append("%.2f" % (t["kcc"] / t["CuPy"]) if "CuPy" in t else "")
        if nbytes and unit == "ms":
            cells.append("%.0f" % (nbytes / t["kcc"] / 1e6))
            cells.append("%.0f%%" % (100 * (nbytes / t["kcc"]) / (2 * 4 * n / copy["kcc"])))
            if "CuPy" in names:
                cells.append("%.0f%%" % (100 * (nbytes / t["CuPy"]) / (2 * 4 * n / copy["CuPy"])))
        else:
            cells += [""] * (3 if "CuPy" in names else 2)
        print("| %s | %s | %s |" % (label, size, " | ".join(cells)))
    dev = kcc.get_device()
    print("\nkcc device: %s; %d runs per row (median), events around each operation"
          % (dev.name, opt.runs))


if __name__ == "__main__":
    main()
