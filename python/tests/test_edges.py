"""A new user's mistakes (issue 24): each gives an exception of a stated class with a message
that says what to do, never a crash of the interpreter. Bounds checks on CPU devices, freed
and misused device arrays, Ctrl-C while waiting, OpenCL C without name='x.cl', compiler
warnings as Python warnings, the README's Python snippet."""
import os
import re
import warnings

import numpy as np
import pytest

import kcc
from conftest import REPO, run_python

VECADD = """
kernel void vecadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

WRITES = """
kernel void both(int *p, int *q) {
    q[0] = 1;
    p[threadIdx.x] = 2;
}
kernel void wild(int *p) {
    p[(long)1 << 37] = 1;
}
"""

on_cpu = pytest.mark.skipif(kcc.get_device().type != "cpu",
                            reason="bounds checks are on by default on CPU devices only")


@pytest.fixture(scope="module")
def vecadd():
    return kcc.compile(VECADD, name="vecadd.k")


# ---------------------------------------------------------------- bounds checks

@on_cpu
def test_checked_by_default_on_cpu(vecadd, monkeypatch):
    assert vecadd.checked is True
    assert repr(vecadd).startswith("<kcc.Module vecadd.k, bounds-checked")
    assert kcc.compile(VECADD, bounds_check=False).checked is False
    assert kcc.compile(VECADD, bounds_check=True).checked is True
    assert kcc.compile(VECADD, options=["-fbounds-check"], bounds_check=False).checked is True
    monkeypatch.setenv("KCC_BOUNDS_CHECK", "0")
    assert kcc.compile(VECADD).checked is False
    monkeypatch.setenv("KCC_BOUNDS_CHECK", "1")
    assert kcc.compile(VECADD).checked is True
    monkeypatch.setenv("KCC_BOUNDS_CHECK", "off")
    assert kcc.compile(VECADD, bounds_check=True).checked is True  # the argument wins
    # A bundle read back (kcc.load) says what it was compiled with.
    assert kcc.Module(kcc.emit(VECADD, "bundle"), "v.kcb").checked is False
    assert kcc.Module(kcc.emit(VECADD, "bundle", ["-fbounds-check"]), "v.kcb").checked is True


def test_compile_opens_no_device():
    # Deciding the checks needs the default device's type, not the device: kcc.compile must not
    # create a context on a GPU that the program then does not use.
    code = ("import kcc; m = kcc.compile('kernel void k(int *p) { p[0] = 1; }'); "
            "print(kcc._core._current is None, any(d._handle for d in kcc.devices()))")
    st, out, err = run_python(code)
    assert (st, out) == (0, "True False\n"), err


@on_cpu
def test_the_other_kind_of_device_gets_the_other_variant(vecadd):
    from types import SimpleNamespace
    gpu, cpu = SimpleNamespace(type="gpu"), SimpleNamespace(type="cpu")
    assert vecadd.checked_on(cpu) is True and vecadd.checked_on(gpu) is False
    assert vecadd._bundle_for(cpu) is vecadd.bundle
    assert vecadd._bundle_for(gpu) == kcc.compile(VECADD, name="vecadd.k",
                                                  bounds_check=False).bundle
    chosen = kcc.compile(VECADD, name="vecadd.k", bounds_check=True)
    assert chosen.checked_on(gpu) is True and chosen._bundle_for(gpu) is chosen.bundle


@on_cpu
def test_out_of_bounds_at_a_synchronous_launch(vecadd):
    a = np.ones(100, np.float32)
    c = np.zeros(100, np.float32)
    with pytest.raises(kcc.OutOfBoundsError) as e:
        vecadd.vecadd[1, 128](a, a, c, 101)  # c is copied back: the launch waits
    assert isinstance(e.value, kcc.KcrtError)
    assert e.value.status == "KCRT_ERROR_OUT_OF_BOUNDS"
    assert e.value.kernel == "vecadd"
    assert str(e.value) == ("launching vecadd: kernel 'vecadd' at vecadd.k:4:16: thread "
                            "(100,0,0) of block (0,0,0) writes c[100]; c holds 100 float "
                            "(400 bytes)")
    # The report is cleared: the next launch is fine.
    vecadd.vecadd[1, 128](a, a, c, 100)
    assert np.array_equal(c, a + a)


@on_cpu
def test_out_of_bounds_at_the_next_sync(vecadd):
    a = kcc.to_device(np.ones(64, np.float32))
    c = kcc.device_array(64)
    vecadd.vecadd[1, 128](a, a, c, 65)  # device arrays: the launch does not wait
    with pytest.raises(kcc.OutOfBoundsError) as e:
        kcc.synchronize()
    assert str(e.value) == ("synchronize(): an earlier launch made an out-of-bounds access: "
                            "kernel 'vecadd' at vecadd.k:4:16: thread (64,0,0) of block "
                            "(0,0,0) writes c[64]; c holds 64 float (256 bytes)")
    assert e.value.kernel == "vecadd"
    kcc.synchronize()  # reported once
    vecadd.vecadd[1, 128](a, a, c, 65)
    with pytest.raises(kcc.OutOfBoundsError, match=r"^copy_to_host: an earlier launch made an "
                       r"out-of-bounds access: kernel 'vecadd' at vecadd\.k:4:16: "):
        c.copy_to_host()


@on_cpu
def test_none_for_a_pointer_the_kernel_writes():
    m = kcc.compile(WRITES, name="writes.k")
    q = np.zeros(1, np.int32)
    with pytest.raises(kcc.OutOfBoundsError) as e:
        m.both[1, 4](None, q)
    assert str(e.value) == ("launching both: kernel 'both' at writes.k:4:5: thread (0,0,0) of "
                            "block (0,0,0) writes p[0]; p holds 0 int (0 bytes)")


@on_cpu
def test_wild_write_is_an_exception_not_a_crash():
    # Unchecked, this write 512 GiB past the buffer kills the interpreter on PoCL.
    code = """if 1:
        import kcc, numpy as np
        m = kcc.compile('''%s''', name="writes.k")
        p = np.zeros(4, np.int32)
        try:
            m.wild[1, 1](p)
        except kcc.OutOfBoundsError as e:
            print(type(e).__name__, e.kernel)
    """ % WRITES
    st, out, err = run_python(code)
    assert (st, out) == (0, "OutOfBoundsError wild\n"), err


# ---------------------------------------------------------------- device arrays

def test_device_array_too_large():
    with pytest.raises(OverflowError) as e:
        kcc.device_array(1 << 70)
    assert str(e.value) == ("a device array of shape (1180591620717411303424,) and float32 "
                            "would be 4722366482869645213696 bytes, beyond any device's memory "
                            "(and a 64-bit size)")
    with pytest.raises(OverflowError):
        kcc.device_array((1 << 40, 1 << 40), np.int8)
    big = kcc.get_device().max_alloc_bytes + 1
    with pytest.raises(kcc.OutOfMemoryError, match=r"^allocating %d bytes: " % big):
        kcc.device_array(big, np.uint8)


@pytest.mark.parametrize("host, what", [
    (np.array(["ab", "c"]), "<U2 (str)"),
    (np.array([b"ab"]), "|S2 (bytes)"),
    (np.array([1, None]), "object (Python objects)"),
    (["x", "y"], "<U1 (str)"),
])
def test_to_device_refuses_strings_and_objects(host, what):
    with pytest.raises(TypeError) as e:
        kcc.to_device(host)
    assert str(e.value) == ("a kcc device array holds numbers, bools or structs (a numeric or "
                            "structured dtype), not %s: device memory cannot hold Python "
                            "objects or strings" % what)
    with pytest.raises(TypeError):
        kcc.device_array(3, object)


def test_structured_device_arrays_still_work():
    t = np.dtype([("x", np.float32), ("n", np.int32)])
    h = np.zeros(3, t)
    h["n"] = [1, 2, 3]
    assert kcc.to_device(h).copy_to_host()["n"].tolist() == [1, 2, 3]


def test_asarray_of_a_device_array():
    # np.asarray copies from the device, as CuPy's get() (issue 26); numpy's operators with a
    # kcc array stay on the device (__array_ufunc__ = None hands them to the kcc array).
    x = np.arange(4, dtype=np.float32)
    d = kcc.to_device(x)
    for f in (np.asarray, np.array):
        h = f(d)
        assert type(h) is np.ndarray and h.dtype == np.float32 and h.tolist() == [0, 1, 2, 3]
    assert np.asarray(d, dtype=np.int64).dtype == np.int64
    r = np.float32(1) + d
    assert isinstance(r, kcc.DeviceArray) and r.get().tolist() == [1, 2, 3, 4]
    assert d.copy_to_host().tolist() == [0, 1, 2, 3]


def test_freed_array():
    d = kcc.to_device(np.arange(4, dtype=np.float32))
    d.free()
    assert repr(d).endswith(" (freed)>")
    for call, what in ((d.copy_to_host, "copy_to_host"),
                       (lambda: d.copy_to_device(np.zeros(4, np.float32)), "copy_to_device"),
                       (d.fill_zero, "fill_zero")):
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == "%s: the device array was freed (d.free()); its memory is gone" \
            % what
    d.free()  # twice is fine


# ---------------------------------------------------------------- waiting

SPIN = """if 1:
    import kcc, numpy as np, os, signal, threading, time
    m = kcc.compile("kernel void spin(volatile int *flag) { while (flag[0] == 0) { } }\\n",
                    name="spin.k")
    f = kcc.to_device(np.zeros(1, np.int32))
    m.spin[1, 1](f)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    t = time.perf_counter()
    try:
        %s
        print("returned")
    except KeyboardInterrupt:
        print("KeyboardInterrupt", time.perf_counter() - t < 5, flush=True)
    os._exit(0)  # the kernel never ends: leave without waiting for it
"""


@pytest.mark.parametrize("path", ["C", "ctypes"])
@pytest.mark.parametrize("wait", ["kcc.synchronize()", "f.copy_to_host()",
                                  "f.copy_to_device(np.ones(1, np.int32))",
                                  "e = kcc.Event().record(); e.elapsed_time(kcc.Event().record())",
                                  "s = kcc.Stream(); m.spin[1, 1, 0, s](f); s.synchronize()"])
def test_ctrl_c_interrupts_a_wait(wait, path):
    # C: kcc._fastlaunch's wait (a pthread worker); ctypes: _core's waiter thread.
    st, out, err = run_python(SPIN % wait, {"KCC_PYEXT": "1" if path == "C" else "0"})
    assert (st, out) == (0, "KeyboardInterrupt True\n"), err


INTERRUPTED_LAUNCH = """if 1:
    import gc, kcc, numpy as np, os, signal, threading
    from kcc import _core
    m = kcc.compile("kernel void spin(volatile int *flag, int *out) {"
                    " while (flag[0] == 0) { } out[0] = 1; }\\n", name="spin2.k")
    f = kcc.to_device(np.ones(1, np.int32))
    m.spin[1, 1](f, np.zeros(1, np.int32))  # compiled and loaded; with flag 0 it spins
    out = np.zeros(1 << 20, np.int32)
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
    f.fill_zero()
    try:
        m.spin[1, 1](f, out)  # copies `out` back: waits for a kernel that never ends
    except KeyboardInterrupt:
        del out
        gc.collect()
        # the read-back still pending keeps its host array and device buffer
        print(len(_core._pinned), any(type(k) is np.ndarray and k.size == 1 << 20
                                      for k in _core._abandoned), flush=True)
    os._exit(0)
"""


@pytest.mark.parametrize("path", ["C", "ctypes"])
def test_interrupted_launch_keeps_its_buffers(path):
    st, out, err = run_python(INTERRUPTED_LAUNCH, {"KCC_PYEXT": "1" if path == "C" else "0"})
    assert (st, out) == (0, "1 True\n"), err


WAIT_ERRORS = '''if 1:
    import kcc, kcc._native as n, numpy as np
    m = kcc.compile(%r, name="vecadd.k", bounds_check=True)
    a = kcc.to_device(np.ones(8, np.float32)); c = kcc.device_array(8)
    for i in range(3):
        m.vecadd[1, 16](a, a, c, 9)
        try:
            kcc.synchronize()
        except kcc.OutOfBoundsError as e:
            print(e.kernel, end=" ")
        kcc.synchronize()
    print(c.copy_to_host().tolist() == [2.0] * 8, n.fast is not None)
'''


@pytest.mark.parametrize("path", ["C", "ctypes"])
def test_waits_report_errors_on_both_paths(path):
    st, out, err = run_python(WAIT_ERRORS % VECADD, {"KCC_PYEXT": "1" if path == "C" else "0"})
    assert (st, out) == (0, "vecadd vecadd vecadd True %s\n" % (path == "C")), err


def test_waits_from_other_threads():
    import threading
    errors = []

    def work():
        try:
            d = kcc.to_device(np.arange(8, dtype=np.int32))
            kcc.synchronize()
            assert d.copy_to_host().tolist() == list(range(8))
        except Exception as e:  # pragma: no cover
            errors.append(e)
    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


# ---------------------------------------------------------------- compiling

def test_opencl_c_without_its_name():
    src = "__kernel void twice(__global float *p) { p[get_global_id(0)] *= 2.0f; }\n"
    with pytest.raises(kcc.CompileError) as e:
        kcc.compile(src)
    assert str(e.value).startswith("kernel.k:1:1: error: unknown type name '__kernel'\n")
    assert str(e.value).endswith(
        "\nhint: this looks like OpenCL C; kcc reads OpenCL C when the name ends in '.cl': "
        "kcc.compile(source, name='kernels.cl')")
    with pytest.raises(kcc.CompileError, match="hint: this looks like OpenCL C"):
        kcc.emit("kernel void f(global float *p) { p[0] = 1; }\n", "cl")
    with pytest.raises(kcc.CompileError) as e:  # a plain mistake gets no hint
        kcc.compile("kernel void f(float *p) { p[0] = q; }\n")
    assert "hint" not in str(e.value)
    assert kcc.compile(src, name="twice.cl").kernel_names() == ["twice"]


def test_select_device_by_type_lists_the_devices():
    devs = kcc.devices()
    missing = [t for t in ("gpu", "cpu") if all(d.type != t for d in devs)]
    if not missing:
        pytest.skip("this machine has both a GPU and a CPU device")
    with pytest.raises(kcc.NoDeviceError) as e:
        kcc.select_device(missing[0])
    lines = ["  %d: %s (%s, %s)" % (d.index, d.name, d.backend, d.type) for d in devs]
    assert str(e.value).startswith("select_device(%r): " % missing[0])
    assert str(e.value).endswith("; this machine has %d device%s:\n%s" % (
        len(devs), "" if len(devs) == 1 else "s", "\n".join(lines)))


def test_compiler_warnings_are_python_warnings():
    src = "kernel void k(int *p) {\n  p[0] == 1;\n}\n"
    with pytest.warns(kcc.KccWarning) as rec:
        m = kcc.compile(src, name="warned.k")
    assert m.log.startswith("warned.k:2:8: warning: equality comparison result unused")
    (w,) = rec.list
    assert str(w.message) == ("equality comparison result unused [-Wunused-comparison] "
                              "(warned.k:2:8)")
    assert (w.filename, w.lineno) == ("warned.k", 2)
    text = warnings.formatwarning(w.message, w.category, w.filename, w.lineno)
    assert text.endswith("\n  p[0] == 1;\n")  # the kernel's line, not a file's
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kcc.compile(VECADD, name="clean.k")  # no warning, nothing issued
        with pytest.raises(kcc.KccWarning):
            kcc.compile(src, name="werror.k")


def test_warning_options_reach_clang():
    src = "kernel void k(int *p) {\n  int x;\n  p[0] = x;\n}\n"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kcc.compile(src, name="quiet.k")  # -Wuninitialized is not in clang's default set
    with pytest.warns(kcc.KccWarning) as rec:
        kcc.compile(src, options=("-Wall",), name="wall.k")
    assert [str(w.message) for w in rec.list] == [
        "variable 'x' is uninitialized when used here [-Wuninitialized] (wall.k:3:10)"]
    assert (rec.list[0].filename, rec.list[0].lineno) == ("wall.k", 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kcc.compile(src, options=("-Wall", "-w"), name="wall_w.k")
    with pytest.raises(kcc.CompileError) as e:
        kcc.compile(src, options=("-Werror=uninitialized",), name="wall_e.k")
    assert "wall_e.k:3:10: error: variable 'x' is uninitialized when used here" in str(e.value)


# ---------------------------------------------------------------- kernels kept on modules

def test_kernel_kept_on_the_module(vecadd):
    k = vecadd.vecadd
    assert vecadd.__dict__["vecadd"] is k and vecadd.vecadd is k
    kcc.select_device(kcc.get_device().index)  # the same device: kept
    assert vecadd.__dict__.get("vecadd") is k
    from kcc import _core
    _core._forget_kernels()  # what select_device() of another device does
    assert "vecadd" not in vecadd.__dict__
    assert vecadd.vecadd is k  # the same Kernel object, looked up again


# ---------------------------------------------------------------- the README

def test_readme_python_snippet(tmp_path):
    with open(os.path.join(REPO, "README.md")) as f:
        readme = f.read()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert len(blocks) == 1, "README.md should have one Python snippet"
    # The kernel it compiles: the C block that starts with "// vecadd.k".
    (kernel,) = re.findall(r"```c\n// vecadd\.k\n(.*?)```", readme, re.S)
    (tmp_path / "vecadd.k").write_text(kernel)
    st, out, err = run_python(blocks[0], cwd=str(tmp_path))
    assert st == 0, err


# ---------------------------------------------------------------- documentation, stubs

def _public():
    import inspect
    for name in kcc.__all__:
        o = getattr(kcc, name)
        yield name, o
        if inspect.isclass(o) and not issubclass(o, BaseException):
            for n, v in vars(o).items():
                if not n.startswith("_") and (callable(v) or isinstance(v, property)):
                    yield "%s.%s" % (name, n), v


def test_docstrings_and_reprs(vecadd):
    missing = [n for n, o in _public() if not (getattr(o, "__doc__", None) or "").strip()]
    assert missing == []
    d = kcc.get_device()
    k = vecadd.vecadd
    for o, start in ((d, "<kcc.Device 0: "), (vecadd, "<kcc.Module vecadd.k"),
                     (k, "<kcc.Kernel vecadd(const float * a, "),
                     (k[(4, 2), 64], "<kcc launch vecadd[(4, 2, 1), (64, 1, 1), 0]>"),
                     (k.params[0], "<kcc parameter 0 of const float *: a>"),
                     (kcc.to_device(np.zeros(2, np.int8)), "kcc.array([0, 0], dtype=int8)"),
                     (kcc.Stream(), "<kcc.Stream on "), (kcc.Event(), "<kcc.Event on "),
                     (kcc.local(64), "kcc.local(64)")):
        assert repr(o).startswith(start), repr(o)


def _stub_params(args):
    """A stub's parameter names in inspect.signature's order (*args and keyword-only too)."""
    return [a.arg for a in args.posonlyargs + args.args] + \
        ([args.vararg.arg] if args.vararg else []) + [a.arg for a in args.kwonlyargs] + \
        ([args.kwarg.arg] if args.kwarg else [])


def test_type_stubs():
    import ast
    import inspect
    pkg = os.path.dirname(kcc.__file__)
    assert os.path.exists(os.path.join(pkg, "py.typed"))
    with open(os.path.join(pkg, "__init__.pyi")) as f:
        tree = ast.parse(f.read())
    stubs = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stubs[node.name] = node
    missing = [n for n in kcc.__all__ if n not in stubs]
    assert missing == []
    # Each public function's stub has the function's parameters, in order.
    for name in kcc.__all__:
        o = getattr(kcc, name)
        if inspect.isfunction(o):
            got = _stub_params(stubs[name].args)
            assert got == list(inspect.signature(o).parameters), name
        elif inspect.isclass(o) and not issubclass(o, BaseException):
            methods = {m.name: m for m in stubs[name].body if isinstance(m, ast.FunctionDef)}
            for n, v in vars(o).items():
                if n.startswith("_") or not inspect.isfunction(v):
                    continue
                assert n in methods, "%s.%s" % (name, n)
                got = _stub_params(methods[n].args)
                assert got == list(inspect.signature(v).parameters), "%s.%s" % (name, n)
