"""numba-style programs run with kcc.cuda and, where numba-cuda imports, with numba.cuda: the
same source, only the import differs (issue 25). Each program's results are saved; --compare
runs both implementations in fresh processes and compares them element by element.

    python_jit.py --impl kcc OUT.npz     # the programs with `from kcc import cuda`
    python_jit.py --impl numba OUT.npz   # with `from numba import cuda`
    python_jit.py --compare              # both, then compared (kcc alone without numba)

Integer results must be equal; floating ones equal to within a few ulps (the two compile
the same arithmetic, but may contract a*b+c into an fma differently). Run by
tests/gpu/python_run.sh on the GPU machine; runs on PoCL too (the warp program is then
skipped: PoCL's CPU device has no 32-wide subgroups)."""
import math
import os
import subprocess
import sys

import numpy as np

IMPL = None
if "--impl" in sys.argv:
    IMPL = sys.argv[sys.argv.index("--impl") + 1]
    if IMPL == "numba":
        from numba import cuda
    else:
        from kcc import cuda

TPB = 128
TILE = 16
PROGRAMS = []


def program(f):
    PROGRAMS.append(f)
    return f


@program
def increment_by_one(rng):
    @cuda.jit
    def inc(a):
        pos = cuda.grid(1)
        if pos < a.size:
            a[pos] += 1

    a = rng.random(100000).astype(np.float32)
    inc[(a.size + 255) // 256, 256](a)
    return {"a": a}


@program
def vecadd_grid_stride(rng):
    @cuda.jit
    def add(x, y, out):
        start = cuda.grid(1)
        stride = cuda.gridsize(1)
        for i in range(start, x.shape[0], stride):
            out[i] = x[i] + y[i]

    x = rng.random(1 << 20).astype(np.float32)
    y = rng.random(1 << 20).astype(np.float32)
    dx, dy = cuda.to_device(x), cuda.to_device(y)
    dout = cuda.device_array_like(x)
    add[120, 256](dx, dy, dout)
    cuda.synchronize()
    return {"out": dout.copy_to_host()}


@program
def shared_reduction(rng):
    @cuda.jit
    def block_sum(a, partial):
        sm = cuda.shared.array(TPB, dtype=np.float32)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        sm[t] = a[i] if i < a.size else np.float32(0)
        cuda.syncthreads()
        s = TPB // 2
        while s > 0:
            if t < s:
                sm[t] += sm[t + s]
            cuda.syncthreads()
            s //= 2
        if t == 0:
            partial[cuda.blockIdx.x] = sm[0]

    a = rng.random(1 << 18).astype(np.float32)
    partial = np.zeros(a.size // TPB, np.float32)
    block_sum[a.size // TPB, TPB](a, partial)
    return {"partial": partial}


@program
def stencil_2d(rng):
    @cuda.jit
    def laplace(u, out):
        i, j = cuda.grid(2)
        n, m = u.shape
        if 0 < i < n - 1 and 0 < j < m - 1:
            out[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4 * u[i, j]

    u = rng.random((512, 384)).astype(np.float32)
    out = np.zeros_like(u)
    laplace[(32, 24), (16, 16)](u, out)
    return {"out": out}


@program
def histogram_atomics(rng):
    @cuda.jit
    def hist(x, bins):
        i = cuda.grid(1)
        if i < x.size:
            cuda.atomic.add(bins, int(x[i] * bins.size), 1)

    x = rng.random(1 << 20)
    bins = np.zeros(64, np.int32)
    hist[(x.size + 255) // 256, 256](x, bins)
    return {"bins": bins}


@program
def matmul_shared_tiles(rng):
    @cuda.jit
    def matmul(A, B, C):
        sA = cuda.shared.array(shape=(TILE, TILE), dtype=np.float32)
        sB = cuda.shared.array(shape=(TILE, TILE), dtype=np.float32)
        x, y = cuda.grid(2)
        tx = cuda.threadIdx.x
        ty = cuda.threadIdx.y
        tmp = np.float32(0.)
        for i in range(cuda.gridDim.x):
            sA[ty, tx] = 0
            sB[ty, tx] = 0
            if y < A.shape[0] and (tx + i * TILE) < A.shape[1]:
                sA[ty, tx] = A[y, tx + i * TILE]
            if x < B.shape[1] and (ty + i * TILE) < B.shape[0]:
                sB[ty, tx] = B[ty + i * TILE, x]
            cuda.syncthreads()
            for j in range(TILE):
                tmp += sA[ty, j] * sB[j, tx]
            cuda.syncthreads()
        if y < C.shape[0] and x < C.shape[1]:
            C[y, x] = tmp

    n = 256
    A = rng.random((n, n)).astype(np.float32)
    B = rng.random((n, n)).astype(np.float32)
    C = np.zeros((n, n), np.float32)
    matmul[(n // TILE, n // TILE), (TILE, TILE)](A, B, C)
    return {"C": C}


@program
def warp_reduction(rng):
    @cuda.jit
    def warp_sum(a, out):
        i = cuda.grid(1)
        v = a[i]
        off = 16
        while off > 0:
            v += cuda.shfl_down_sync(0xffffffff, v, off)
            off //= 2
        if cuda.laneid == 0:
            out[i // 32] = v

    a = rng.integers(0, 1000, 1 << 14).astype(np.int32)
    out = np.zeros(a.size // 32, np.int32)
    warp_sum[a.size // 256, 256](a, out)
    return {"out": out}


@program
def device_functions(rng):
    @cuda.jit(device=True)
    def clamp(v, lo, hi):
        if v < lo:
            return lo
        if v > hi:
            return hi
        return v

    @cuda.jit(device=True)
    def smooth(x):
        return 3 * x * x - 2 * x * x * x

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = smooth(clamp(a[i], 0.0, 1.0)) + math.sin(a[i])

    a = rng.random(100000) * 2 - 0.5
    out = np.zeros_like(a)
    k[(a.size + 255) // 256, 256](a, out)
    return {"out": out}


@program
def dynamic_shared(rng):
    @cuda.jit
    def reverse_blocks(a):
        s = cuda.shared.array(0, dtype=np.float64)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        s[t] = a[i]
        cuda.syncthreads()
        a[i] = s[cuda.blockDim.x - 1 - t]

    a = rng.random(64 * 256)
    reverse_blocks[64, 256, 0, 256 * 8](a)
    return {"a": a}


@program
def typing_rules(rng):
    @cuda.jit
    def k(i32, f32, out_i, out_f):
        i = cuda.grid(1)
        if i < i32.size:
            out_i[i, 0] = i32[i] * i32[i]          # int32 * int32 -> int64
            out_i[i, 1] = i32[i] // 7 - (-i32[i]) % 5   # Python's floor semantics
            out_i[i, 2] = i32[i] * 3037000500      # wraps in 64 bits
            out_f[i, 0] = f32[i] * 0.5             # float32 * float64 -> float64
            out_f[i, 1] = f32[i] * f32[i]          # float32 stays float32
            out_f[i, 2] = i32[i] / 3               # true division

    i32 = rng.integers(-(1 << 31), (1 << 31) - 1, 4096).astype(np.int32)
    f32 = rng.random(4096).astype(np.float32)
    out_i = np.zeros((4096, 3), np.int64)
    out_f = np.zeros((4096, 3), np.float64)
    k[16, 256](i32, f32, out_i, out_f)
    return {"out_i": out_i, "out_f": out_f}


def run_all(path):
    results = {}
    for prog in PROGRAMS:
        rng = np.random.default_rng(20251128)
        try:
            r = prog(rng)
        except Exception as e:  # a device without warp operations, say
            print("%s: %s: %s" % (prog.__name__, type(e).__name__, str(e).splitlines()[0]))
            continue
        for k, v in r.items():
            results["%s.%s" % (prog.__name__, k)] = v
        print("%s: ran" % prog.__name__)
    np.savez(path, **results)


def compare(a, b):
    if a.dtype.kind in "iub":
        return np.array_equal(a, b)
    return np.allclose(a, b, rtol=4 * np.finfo(a.dtype).eps, atol=0, equal_nan=True) or \
        np.allclose(a, b, rtol=1e-5 if a.dtype == np.float32 else 1e-12, atol=1e-6)


def main():
    if IMPL:
        run_all(sys.argv[sys.argv.index("--impl") + 2])
        return 0
    import tempfile
    d = tempfile.mkdtemp()
    out = {}
    for impl in ("kcc", "numba"):
        if impl == "numba":
            try:
                import numba.cuda  # noqa: F401
            except Exception as e:
                print("numba-cuda not importable (%s): kcc's results only" % e)
                break
        path = os.path.join(d, impl + ".npz")
        r = subprocess.run([sys.executable, __file__, "--impl", impl, path])
        if r.returncode:
            print("%s run failed (%d)" % (impl, r.returncode))
            return 1
        out[impl] = dict(np.load(path))
    st = 0
    if "numba" in out:
        k, n = out["kcc"], out["numba"]
        for name in sorted(set(k) | set(n)):
            if name not in k or name not in n:
                print("%-40s only in %s" % (name, "kcc" if name in k else "numba"))
                continue
            ok = k[name].shape == n[name].shape and compare(k[name], n[name])
            print("%-40s %s" % (name, "equal" if ok else "DIFFERENT"))
            st |= not ok
    return st


if __name__ == "__main__":
    sys.exit(main())
