#!/usr/bin/env bash
# python-env.sh VENV — the Python environment the tests of the Python package use (ctest's
# python.* tests look for BUILD/venv): a virtual environment with numpy and pytest (what the
# package and its tests need), scikit-build-core (to build the package with
# `pip install --no-build-isolation ./python` in python.pip_install), and mpi4py and Dask's
# distributed (the scale-out samples and their tests: Open MPI is Debian's, libopenmpi-dev),
# installed by pip from its default package index. Idempotent: an environment that has them is left as it is.
set -euo pipefail
venv=${1:?usage: scripts/python-env.sh VENV}
py=${PYTHON:-python3}
if [ -x "$venv/bin/python" ] &&
   "$venv/bin/python" -c "import numpy, pytest, scikit_build_core, mpi4py, distributed" \
     2>/dev/null; then
  exit 0
fi
command -v "$py" >/dev/null || { echo "kcc: no $py (Debian: apt-get install python3 python3-venv)" >&2; exit 1; }
echo "kcc: creating the Python test environment $venv (numpy, pytest, scikit-build-core," \
     "mpi4py, dask[distributed])"
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q numpy pytest scikit-build-core mpi4py "dask[distributed]"
