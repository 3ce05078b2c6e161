"""The launch path in C (kcc._fastlaunch) against the ctypes one (KCC_PYEXT=0): the same
results, copies back, range checks and exceptions, with the same text, for every kind of
argument each path converts; the fallback when the extension cannot be loaded."""
import os
import threading

import numpy as np
import pytest

import kcc
import kcc._native as N
from conftest import run_python

# One process runs every case and prints one line per outcome; the same script under
# KCC_PYEXT=0 must print the same lines.
SEMANTICS = r'''
import numpy as np, kcc, kcc._native as N
m = kcc.compile("""
kernel void ints(long *out, char a, short b, int c, long d, unsigned char e,
                 unsigned short f, unsigned int g, unsigned long h) {
    out[0] = a; out[1] = b; out[2] = c; out[3] = d;
    out[4] = e; out[5] = f; out[6] = g; out[7] = (long)h;
}
kernel void reals(double *out, float x, double y) { out[0] = x; out[1] = y; }
kernel void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
kernel void sneaky(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { out[i] = in[i] * 2.0f; ((float *)in)[i] = -1.0f; }
}
kernel void anyptr(void *p, int *out) { out[0] = p ? 1 : 2; }
""", options=["-ffp-contract=off"])
lines = ["fast path: %s" % (N.fast is not None)]

def plain(x):  # numpy's scalars print as np.True_: as Python's
    return x.item() if isinstance(x, np.generic) else x

def run(what, f):
    try:
        r = f()
        r = tuple(map(plain, r)) if isinstance(r, tuple) else plain(r)
        lines.append("%s: ok %s" % (what, r))
    except Exception as e:
        lines.append("%s: %s: %s" % (what, type(e).__name__, e))

out = np.zeros(8, np.int64)
dout = kcc.device_array(8, np.int64)
def ints(*args, dev=False):
    def f():
        if dev:
            m.ints[1, 1](dout, *args)
            return dout.copy_to_host().tolist()
        out[:] = 0
        m.ints[1, 1](out, *args)
        return out.tolist()
    return f
ok = (-128, -32768, -2**31, -2**63, 255, 65535, 2**32 - 1, 2**64 - 1)
run("ints, limits", ints(*ok))
run("ints, limits, device array", ints(*ok, dev=True))
run("ints, small", ints(1, 2, 3, 4, 5, 6, 7, 8))
run("ints, numpy scalars", ints(np.int8(-1), np.int16(-2), np.int32(-3), np.int64(-4),
                                np.uint8(5), np.uint16(6), np.uint32(7), np.uint64(2**64 - 1)))
run("ints, bools", ints(True, False, True, False, True, False, True, True))
for i, (lo, hi) in enumerate([(-128, 127), (-32768, 32767), (-2**31, 2**31 - 1),
                              (-2**63, 2**63 - 1), (0, 255), (0, 65535), (0, 2**32 - 1),
                              (0, 2**64 - 1)]):
    for bad in (lo - 1, hi + 1, 2**200, -2**200):
        args = list(ok)
        args[i] = bad
        run("ints, param %d = %d" % (i, bad), ints(*args))
    args = list(ok)
    args[i] = 1.0
    run("ints, param %d = 1.0" % i, ints(*args))
    args[i] = "1"
    run("ints, param %d = '1'" % i, ints(*args))
    args[i] = np.float32(1)
    run("ints, param %d = np.float32(1)" % i, ints(*args))
r = np.zeros(2, np.float64)
def reals(x, y):
    def f():
        m.reals[1, 1](r, x, y)
        return r.tolist()
    return f
for x, y in [(1.5, -2.25), (3, 4), (2**70, -2**70), (1e38, 1e308), (float("inf"), -float("inf")),
             (np.float32(0.1), np.float64(0.1)), (0.1, 0.1), (True, False), (-0.0, -0.0)]:
    run("reals %r %r" % (x, y), reals(x, y))
for x, y in [(1e39, 1.0), (-1e39, 1.0), (10**400, 1.0), (1.0, 10**400), ("x", 1.0),
             (1.0, None), (1j, 1.0), (np.float64(1e39), 1.0)]:
    run("reals %r %r" % (x, y), reals(x, y))
run("reals nan", lambda: str(reals(float("nan"), float("nan"))()))

n = 300
rng = np.random.default_rng(7)
a = rng.standard_normal(n, dtype=np.float32)
b = rng.standard_normal(n, dtype=np.float32)
da, db, dc = kcc.to_device(a), kcc.to_device(b), kcc.device_array(n)
dd = kcc.device_array(n, np.float64)
run("vecadd, device arrays",
    lambda: (m.vecadd[2, 256](da, db, dc, n), (dc.copy_to_host() == a + b).all())[1])
run("vecadd, in place again", lambda: (m.vecadd[2, 256](dc, db, dc, n),
                                       (dc.copy_to_host() == (a + b) + b).all())[1])
c = np.zeros(n, np.float32)
run("vecadd, numpy out", lambda: (m.vecadd[2, 256](da, b, c, n), (c == a + b).all())[1])
c2 = np.zeros(2 * n, np.float32)
run("vecadd, strided out", lambda: (m.vecadd[2, 256](da, db, c2[::2], n),
                                    (c2[::2] == a + b).all(), (c2[1::2] == 0).all())[1:])
x = a.copy()
o = np.zeros(n, np.float32)
run("const not copied back", lambda: (m.sneaky[2, 256](x, o, n), (x == a).all(),
                                      (o == 2 * a).all())[1:])
run("dtype mismatch, device array", lambda: m.vecadd[2, 256](da, dd, dc, n))
run("dtype mismatch, numpy", lambda: m.vecadd[2, 256](da, db, np.zeros(n), n))
run("not an array", lambda: m.vecadd[2, 256](da, db, [0.0] * n, n))
run("int for a pointer", lambda: m.vecadd[2, 256](da, db, 5, n))
run("null pointer", lambda: m.vecadd[2, 256](None, db, dc, 0))
run("void *, float device array", lambda: (m.anyptr[1, 1](da, out[:1].view(np.int32)),
                                           int(out[:1].view(np.int32)[0]))[1])
run("void *, None", lambda: (m.anyptr[1, 1](None, out[:1].view(np.int32)),
                             int(out[:1].view(np.int32)[0]))[1])
freed = kcc.device_array(n)
freed.free()
run("freed array", lambda: m.vecadd[2, 256](da, db, freed, n))
run("same launch after errors", lambda: (m.vecadd[2, 256](da, db, dc, n),
                                         (dc.copy_to_host() == a + b).all())[1])
run("too few", lambda: m.vecadd[2, 256](da, db, dc))
run("too many", lambda: m.vecadd[2, 256](da, db, dc, n, n))
run("keywords", lambda: m.vecadd[2, 256](da, db, dc, n=n))
c[:] = 0
run("error after a numpy argument", lambda: m.vecadd[2, 256](a, b, c, "n"))
run("... nothing copied back", lambda: bool(c.any()))
run("launch failure with numpy arrays", lambda: m.vecadd[2, 1 << 20](a, b, c, n))
run("... nothing copied back", lambda: bool(c.any()))
run("grid too large", lambda: m.vecadd[1 << 50, 256](da, db, dc, n))
run("unhashable configuration", lambda: (m.vecadd[[2], 256](da, db, dc, n),
                                         (dc.copy_to_host() == a + b).all())[1])
s = kcc.Stream()
run("on a stream", lambda: (m.vecadd[2, 256, 0, s](a, b, c, n), (c == a + b).all())[1])
run("bad stream", lambda: m.vecadd[2, 256, 0, "s"](da, db, dc, n))

# CUDA texture and surface objects (kcc.Texture, kcc.Surface): the C path hands them to the
# Python setters; the same results and refusals either way.
t = kcc.compile("""
__global__ void tex(cudaTextureObject_t t, const float2 *at, float *o, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) o[i] = tex2D<float>(t, at[i].x, at[i].y);
}
__global__ void surf(cudaSurfaceObject_t s, const float *v, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w) surf2Dwrite(v[y * w + x], s, x * 4, y);
}
""", name="texobj.cu")
texels = rng.standard_normal((6, 10, 1), dtype=np.float32)
timg = kcc.Image(texels)
tx = kcc.Texture(timg, filter="linear", addressing="border")
sf = kcc.Surface(timg)
at = rng.uniform(-1, 11, (n, 2)).astype(np.float32)
to = np.zeros(n, np.float32)
run("texture", lambda: (t.tex[2, 256](tx, at, to, n), to.tobytes().hex()[:64],
                        float(to.sum()))[1:])
run("texture, device arrays", lambda: (t.tex[2, 256](tx, kcc.to_device(at), dc, n),
                                       (dc.copy_to_host() == to).all())[1])
run("texture for a surface", lambda: t.surf[(1, 6), 16](tx, to, 10))
run("surface for a texture", lambda: t.tex[2, 256](sf, at, to, n))
run("image for a texture", lambda: t.tex[2, 256](timg, at, to, n))
run("int for a texture", lambda: t.tex[2, 256](12345, at, to, n))
run("texture for a pointer", lambda: m.vecadd[2, 256](tx, db, dc, n))
vals = rng.standard_normal(60, dtype=np.float32)
run("surface", lambda: (t.surf[(1, 6), 16](sf, vals, 10),
                        (timg.copy_to_host().ravel() == vals).all())[1])
tx2 = kcc.Texture(kcc.Image(texels))
tx2.free()
run("freed texture", lambda: t.tex[2, 256](tx2, at, to, n))
timg.free()
run("texture of a freed image", lambda: t.tex[2, 256](tx, at, to, n))
run("surface of a freed image", lambda: t.surf[(1, 6), 16](sf, vals, 10))
run("negative shared", lambda: m.vecadd[2, 256, -1](da, db, dc, n))
run("no configuration", lambda: m.vecadd(da, db, dc, n))
for line in lines:
    print(line)
'''


def run_semantics(ext):
    env = {"KCC_PYEXT": "1" if ext else "0"}
    st, out, err = run_python(SEMANTICS, env)
    assert st == 0, err
    return out.splitlines()


@pytest.fixture(scope="module")
def both():
    if N.fast is None:
        pytest.skip("kcc._fastlaunch not loaded here: %s" % N.fast_error)
    return run_semantics(True), run_semantics(False)


def test_same_outcomes_on_both_paths(both):
    fast, slow = both
    assert fast[0] == "fast path: True" and slow[0] == "fast path: False"
    assert len(fast) == len(slow) > 100
    assert fast[1:] == slow[1:]


def test_outcomes(both):
    """Some of the lines, as they must read (on both paths, by the test above)."""
    got = dict(line.split(": ", 1) for line in both[0][1:])
    big = 2**64 - 1
    ok = "ok [-128, -32768, -2147483648, -9223372036854775808, 255, 65535, 4294967295, -1]"
    assert got["ints, limits"] == ok
    assert got["ints, limits, device array"] == ok
    assert got["ints, numpy scalars"] == "ok [-1, -2, -3, -4, 5, 6, 7, -1]"
    assert got["ints, param 0 = 128"] == ("OverflowError: kernel 'ints' parameter 'a' (char): "
                                          "128 is out of range [-128, 127]")
    assert got["ints, param 7 = %d" % (big + 1)] == (
        "OverflowError: kernel 'ints' parameter 'h' (unsigned long): 18446744073709551616 is "
        "out of range [0, 18446744073709551615]")
    assert got["ints, param 3 = %d" % (-2**63 - 1)] == (
        "OverflowError: kernel 'ints' parameter 'd' (long): -9223372036854775809 is out of "
        "range [-9223372036854775808, 9223372036854775807]")
    assert got["ints, param 6 = -1"] == ("OverflowError: kernel 'ints' parameter 'g' (unsigned "
                                         "int): -1 is out of range [0, 4294967295]")
    assert got["ints, param 2 = 1.0"] == ("TypeError: kernel 'ints' parameter 'c' (int) takes "
                                          "an integer, not float 1.0")
    assert got["reals 3 4"] == "ok [3.0, 4.0]"
    assert got["reals 0.1 0.1"] == "ok [%r, 0.1]" % float(np.float32(0.1))
    assert got["reals 1e+39 1.0"] == ("OverflowError: kernel 'reals' parameter 'x' (float): "
                                      "1e+39 is out of float's range")
    assert got["reals nan"] == "ok [nan, nan]"
    assert got["reals 1.0 %d" % 10**400] == ("OverflowError: kernel 'reals' parameter 'y' "
                                             "(double): %d is out of double's range" % 10**400)
    assert got["dtype mismatch, device array"] == (
        "TypeError: kernel 'vecadd' parameter 'b' (const float *): got an array of float64, "
        "the kernel's elements are float32")
    assert got["freed array"] == ("ValueError: kernel 'vecadd' parameter 'c' (float *): the "
                                  "device array was freed")
    assert got["vecadd, device arrays"] == "ok True"
    assert got["vecadd, numpy out"] == "ok True"
    assert got["const not copied back"] == "ok (True, True)"
    assert got["void *, float device array"] == "ok 1"
    assert got["keywords"] == "TypeError: a kernel launch takes no keyword arguments"
    assert got["error after a numpy argument"] == ("TypeError: kernel 'vecadd' parameter 'n' "
                                                   "(int) takes an integer, not str")
    assert got["launch failure with numpy arrays"].startswith(
        "InvalidLaunchError: launching vecadd: ")
    assert got["... nothing copied back"] == "ok False"
    assert got["grid too large"].startswith("InvalidLaunchError: launching vecadd: ")
    assert got["unhashable configuration"] == "ok True"
    assert got["on a stream"] == "ok True"


def test_types():
    """With the extension, kernel[grid, block] is its Launch and the classes have its bases;
    the configuration is made once and kept."""
    if N.fast is None:
        pytest.skip("kcc._fastlaunch not loaded here: %s" % N.fast_error)
    m = kcc.compile("kernel void k(int *p, int v) { p[0] = v; }\n")
    cfg = m.k[1, 1]
    assert type(cfg) is N.fast.Launch and m.k[1, 1] is cfg
    assert (cfg.grid, cfg.block, cfg.shared, cfg.stream, cfg.kernel) == (
        (1, 1, 1), (1, 1, 1), 0, None, m.k)
    assert isinstance(m.k, N.fast.KernelBase)
    d = kcc.device_array(1, np.int32)
    assert isinstance(d, N.fast.ArrayBase) and d._et == 4 and d._buf is not None
    cfg(d, 41)
    assert d.copy_to_host()[0] == 41
    d.free()
    assert d._buf is None


def test_threads_one_kernel_device_arrays():
    """Many threads launching one kernel with their own device arrays: the argument slots are
    the kernel's, written under its lock (released around kcrt_launch)."""
    m = kcc.compile("kernel void fill(int *p, int v, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v; }\n")
    n = 1000
    errors = []

    def work(t):
        d = kcc.device_array(n, np.int32)
        for j in range(30):
            v = t * 1000 + j
            m.fill[(n + 63) // 64, 64](d, v, n)
            h = d.copy_to_host()
            if not (h == v).all():
                errors.append("thread %d round %d: %r" % (t, j, set(h.tolist())))

    ts = [threading.Thread(target=work, args=(t,)) for t in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_fallback_when_not_loadable(tmp_path):
    """An extension that does not load (here: not an ELF file) leaves ctypes to launch, and
    says why in kcc._native.fast_error."""
    (tmp_path / N.FAST_NAME).write_bytes(b"not a shared object")
    libdir = os.pathsep.join([str(tmp_path), os.environ.get("KCC_LIBDIR", "")])
    st, out, err = run_python(
        "import numpy as np, kcc, kcc._native as N\n"
        "m = kcc.compile('kernel void k(int *p, int v) { p[0] = v; }')\n"
        "p = np.zeros(1, np.int32); m.k[1, 1](p, 5)\n"
        "print(N.fast, int(p[0]), type(m.k[1, 1]).__name__)\n"
        "print(N.fast_error)\n", {"KCC_LIBDIR": libdir, "KCC_PYEXT": "1"})
    assert st == 0, err
    first, why = out.splitlines()
    assert first == "None 5 _Launch"
    assert why.startswith(str(tmp_path / N.FAST_NAME) + ": ")
    st, out, err = run_python("import kcc._native as N; print(N.fast, N.fast_error)",
                              {"KCC_PYEXT": "0"})
    assert (st, out) == (0, "None KCC_PYEXT=0\n"), err
