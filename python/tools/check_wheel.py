#!/usr/bin/env python3
"""check_wheel.py — an installed kcc wheel is self-contained (build_wheel.sh): run by the
Python that has it installed, without KCC_LIBDIR, PYTHONPATH or LD_LIBRARY_PATH:

    env -u KCC_LIBDIR -u PYTHONPATH LD_LIBRARY_PATH= VENV/bin/python check_wheel.py

compiles a kernel (no cache: a private, empty one), runs it on the default device, and checks
in /proc/self/maps that the LLVM and libclang that libkcc uses are the wheel's own (kcc.libs/),
not the system's. Other LLVMs may be there: an OpenCL driver has its own (PoCL on Debian 12
loads LLVM 15), so only libraries of libkcc's LLVM major version count."""
import os
import sys
import tempfile

os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kcc-wheel-check-")
import numpy as np  # noqa: E402

import kcc  # noqa: E402
import kcc._native as N  # noqa: E402

here = os.path.dirname(os.path.dirname(os.path.abspath(kcc.__file__)))
m = kcc.compile("kernel void twice(float *p, int n) {\n"
                "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "  if (i < n) p[i] *= 2.0f;\n}\n")
x = np.arange(1000, dtype=np.float32)
y = x.copy()
m.twice[4, 256](y, 1000)
assert np.array_equal(y, x * 2), "wrong result"
assert kcc.stats()["compiles"] == 1, kcc.stats()
libs = sorted({line.split()[-1] for line in open("/proc/self/maps").read().splitlines()
               if ".so" in line.split()[-1]})
ours = [p for p in libs if ("LLVM" in p or "clang" in p) and p.startswith(here)]
theirs = [p for p in libs if ("LLVM" in p or "clang" in p) and not p.startswith(here)]
assert any("libLLVM" in p for p in ours) and any("libclang" in p for p in ours), libs
major = [p for p in ours if "libLLVM" in p][0].rsplit(".so.", 1)[1].split(".")[0]
bad = [p for p in theirs if ".so.%s" % major in p or "-%s.so" % major in p]
assert not bad, "system libraries of libkcc's LLVM %s loaded: %s" % (major, bad)
print("kcc %s from %s on %s: compiled in process (LLVM %s from the wheel: %s), ran, result "
      "equal; launch path %s; other LLVMs loaded (the driver's): %s"
      % (kcc.__version__, here, kcc.get_device().name, major,
         ", ".join(os.path.basename(p) for p in ours), "C" if N.fast else "ctypes",
         ", ".join(os.path.basename(p) for p in theirs) or "none"))
sys.exit(0)
