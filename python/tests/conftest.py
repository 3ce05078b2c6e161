"""Every test gets its own compile cache (XDG_CACHE_HOME), so tests neither see nor fill the
user's ~/.cache/kcc. Tests run on the default device (PoCL's CPU device in CI)."""
import contextlib
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    # KCC_TEST_CACHE: one cache for every test instead, filled beforehand (tests/gpu: the GPU
    # machine has no LLVM to compile with, so its compiles must be answered by the cache).
    monkeypatch.setenv("XDG_CACHE_HOME", os.environ.get("KCC_TEST_CACHE") or
                       str(tmp_path / "cache"))
    monkeypatch.delenv("KCC_CACHE", raising=False)
    yield tmp_path / "cache"


@pytest.fixture
def rng():
    """A generator with a fresh seed per test; the seed is printed, so a failure's report shows
    it, and KCC_TEST_SEED=N runs the test again on the same inputs."""
    import secrets
    import numpy as np
    seed = int(os.environ.get("KCC_TEST_SEED") or secrets.randbits(32))
    print(f"rng seed {seed} (rerun with KCC_TEST_SEED={seed})")
    return np.random.default_rng(seed)


def run_python(code, env=None, cwd=None):
    """Runs `code` in a fresh interpreter with this one's kcc; returns (status, out, err)."""
    import subprocess
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(p for p in [os.path.dirname(os.path.dirname(
        sys.modules["kcc"].__file__)), e.get("PYTHONPATH", "")] if p)
    if env:
        e.update(env)
    r = subprocess.run([sys.executable, "-c", code], env=e, cwd=cwd, capture_output=True,
                       text=True, timeout=600)
    return r.returncode, r.stdout, r.stderr


@contextlib.contextmanager
def on_device(dev):
    """The block runs with dev selected; the device selected before is selected again after."""
    import kcc
    prev = kcc.get_device()
    kcc.select_device(dev.index)
    try:
        yield dev
    finally:
        kcc.select_device(prev.index)


def compile_on_every_device(src, name):
    """[(device, module)]: src compiled for each device this machine has."""
    import kcc
    out = []
    for d in kcc.devices():
        with on_device(d):
            out.append((d, kcc.compile(src, name=name)))
    return out
