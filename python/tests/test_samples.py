"""samples/python/: each program runs and prints what it promises."""
import os
import re

import kcc
from conftest import REPO, run_python

SAMPLES = os.path.join(REPO, "samples", "python")


def sample(name, *args, env=None):
    # compiled under its full path: kcc.jit (as numba) reads a kernel's source from its file
    path = os.path.join(SAMPLES, name)
    code = ("import sys; sys.argv = [%r] + %r; exec(compile(open(%r).read(), %r, 'exec'))"
            % (name, list(args), path, path))
    return run_python(code, env)


def test_hello():
    st, out, err = sample("hello.py")
    assert st == 0, err
    expected = ["threadIdx.x=%d blockIdx.x=%d blockDim.x=4 gridDim.x=2" % (t, b)
                for b in range(2) for t in range(4)]
    assert sorted(out.splitlines()) == sorted(expected)


def test_vecadd():
    st, out, err = sample("vecadd.py", "20")
    assert st == 0, err + out
    assert out.splitlines()[-1] == "1048576 elements: all equal to numpy's a + b"
    assert re.search(r"^first call \(load \+ copies \+ kernel\): [0-9.]+ ms$", out, re.M)


def test_biggrid():
    st, out, err = sample("biggrid.py")
    assert st == 0, err
    assert out.startswith("refused: launching fill: grid dimension x = 1125899906842624 "
                          "exceeds the device maximum ")


def test_select_device():
    st, out, err = sample("select_device.py")
    assert st == 0, err
    devs = kcc.devices()
    lines = out.splitlines()
    assert len(lines) == len(devs) + (1 if len(devs) > 1 else 1 + len(devs))
    if len(devs) == 1:
        assert lines[1] == ("error: select_device(1): there is no device 1; this machine has 1 "
                            "device:")
        assert lines[2] == "  0: %s (%s, %s)" % (devs[0].name, devs[0].backend, devs[0].type)
    else:
        assert lines[-1] == "selected device 1: %s" % devs[1].name


def test_multiply_them_and_grid2d():
    st, out, err = sample("multiply_them.py")
    assert (st, out) == (0, "max |dest - a*b| = 0\n"), err
    st, out, err = sample("grid2d.py")
    assert (st, out) == (0, "grid (44, 63) of 16x16 blocks: equal to numpy's a + b.T\n"), err


def test_interop():
    st, out, err = sample("interop.py")
    assert st == 0, err
    assert "WRONG" not in out


def test_dask_map():
    import pytest
    pytest.importorskip("distributed")
    st, out, err = sample("dask_map.py", "200000", "6", "40", "--check",
                          env={"POCL_DEVICES": "basic pthread", "KCC_DEVICE": ""})
    assert st == 0, err + out
    lines = out.splitlines()
    assert lines[0] == "dask_map: 200000 elements in 6 chunks, 40 rounds, 2 workers"
    # One worker per device, each on its own (KCC_DEVICE=i in its environment).
    assert re.fullmatch(r"  worker w0 on basic-.* \(opencl\)", lines[1]), lines[1]
    assert re.fullmatch(r"  worker w1 on pthread-.* \(opencl\)", lines[2]), lines[2]
    assert re.fullmatch(r"sum of the hashes: [0-9]+ \(seed [0-9]+\)", lines[3]), lines[3]
    assert re.fullmatch(r"time: [0-9.]+ s for the chunks", lines[4]), lines[4]
    assert lines[5:] == ["check: identical to numpy"]
    # A given seed gives the same sum with one worker.
    seed = lines[3].split("seed ")[1].rstrip(")")
    st, out1, err = sample("dask_map.py", "200000", "6", "40", "--workers", "1", "--seed", seed,
                           env={"POCL_DEVICES": "basic pthread", "KCC_DEVICE": ""})
    assert st == 0, err + out1
    assert out1.splitlines()[2] == lines[3]


def test_numba_hello():
    st, out, err = sample("numba_hello.py")
    assert st == 0, err
    expected = ["threadIdx.x %d blockIdx.x %d blockDim.x 4 gridDim.x 2" % (t, b)
                for b in range(2) for t in range(4)]
    assert sorted(out.splitlines()) == sorted(expected)


def test_numba_increment_and_vecadd():
    st, out, err = sample("numba_increment.py")
    assert (st, out) == (0, "increment_by_one twice: every element + 2\n"), err
    st, out, err = sample("numba_vecadd.py", "16")
    assert st == 0, err + out
    assert out.splitlines()[-1] == "65536 elements: all equal to numpy's a + b"


def test_numba_monte_carlo_pi():
    st, out, err = sample("numba_monte_carlo_pi.py")
    assert st == 0, err
    assert re.fullmatch(r"pi ~ 3\.1[0-9]{3} \(4096000 darts\), error 0\.00[0-9]{2}: within 0\.01\n",
                        out), out
