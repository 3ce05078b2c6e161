#!/usr/bin/env bash
# Installs the Debian packages kcc needs to build and test, if any is missing. Idempotent:
# with everything present it only checks and returns.
set -euo pipefail

pkgs=(
  build-essential cmake pkg-config ninja-build
  llvm-19-dev libclang-19-dev clang-19     # front end, LLVM-C, NVPTX; clang-19 for benchmarks
  libclang-rt-19-dev                       # libFuzzer and sanitizers for clang-19 (tests/fuzz)
  python3                                  # tests/random (generator and driver)
  python3-pip                              # tests/corpus: pip download of the PyPI sdists
  spirv-tools spirv-headers                # SPIR-V enums and the in-process validator
  check                                    # unit tests
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo  # OpenCL loader + PoCL CPU device
  llvm-spirv-15                            # SPIR-V -> LLVM bitcode for the SPIR-V run tests
  libvulkan-dev                            # Vulkan headers for libkcrt (the loader is dlopen'ed)
  libvulkan1 mesa-vulkan-drivers vulkan-validationlayers  # loader, lavapipe, validation layer
  valgrind clang-format git groff-base man-db   # checks: valgrind, style, man page
  python3 python3-venv                     # the Python package's tests (scripts/python-env.sh)
  python3-dev                              # its launch path in C (python/CMakeLists.txt)
  openmpi-bin libopenmpi-dev               # samples/mpi and its test (mpirun -np 2)
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "kcc: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "kcc: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
