# python.cmake — the Python package (python/, docs/python.md):
#
#   python.pytest       python/tests (pytest) against this build's libkcc and libkcrt: every API
#                       call, copy-in/copy-out, errors, the cache, threads, the samples' output.
#   python.pip_install  `pip install ./python` into the build tree, then a kernel run through the
#                       installed package (its own libkcc and libkcrt).
#
# Both use the virtual environment BUILD/venv that `make deps` creates (scripts/python-env.sh:
# numpy, pytest, scikit-build-core from the package index) or $KCC_PYTHON; without one they
# are skipped, saying so. Each test has its own cache directory (XDG_CACHE_HOME).
#
# Not in sanitizer builds (make test-asan): a Python interpreter cannot load libraries built
# with AddressSanitizer unless the sanitizer runtime is preloaded, and the Python code is the
# same; the C underneath is covered by libkcc.* and the runtime tests there.
if(KCC_SANITIZE)
  return()
endif()
set(_py_src ${CMAKE_SOURCE_DIR}/python/tests)
add_test(NAME python.pytest
  COMMAND sh ${_py_src}/ctest_run.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${_py_src})
set_tests_properties(python.pytest PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800 LABELS python
  ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/python-cache"
  DEPENDS "libkcc.api")
add_test(NAME python.pip_install
  COMMAND sh ${_py_src}/ctest_pip.sh ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
set_tests_properties(python.pip_install PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 3600
  LABELS python RUN_SERIAL TRUE)

# python.cl_builtins_vulkan  python/tests/test_cl_rounding.py (OpenCL C's rounding-mode
#                         conversions to floating point), test_cl_bitops.py
#                         (cl_khr_extended_bit_ops), both written in the .cl prelude, and
#                         test_cuda_rounding.py (CUDA's directed-rounding intrinsics, in the
#                         CUDA prelude) and test_cl_vload.py (vloadn/vstoren, element by element
#                         there), test_cl_mulhi.py (mul_hi, mad_hi, CUDA's __[u]mul[64]hi)
#                         test_shared_float_atomics.py (float atomics on shared memory) and
#                         test_cl_popcount.py (popcount, clz on every integer type and width)
#                         on the Vulkan device, whose SPIR-V has no rounding modes
#                         and whose double division and square root are kcc's own. Skipped
#                         without a Vulkan device.
set(_py_vk_round_sh [=[
KCC_DEVICE=vulkan "$1" --devices 2>&1 | grep -q "KCC_DEVICE='vulkan' selects" ||
  { echo "skipped: no Vulkan device"; exit 77; }
KCC_DEVICE=vulkan exec sh "$2/ctest_run.sh" "$3" "$4" "$2/test_cl_rounding.py" \
  "$2/test_cl_bitops.py" "$2/test_cuda_rounding.py" "$2/test_cl_vload.py" "$2/test_cl_mulhi.py" \
  "$2/test_shared_float_atomics.py" "$2/test_cl_popcount.py"
]=])
add_test(NAME python.cl_builtins_vulkan
  COMMAND sh -c "${_py_vk_round_sh}" sh $<TARGET_FILE:kcc> ${_py_src} ${CMAKE_BINARY_DIR}
          ${CMAKE_SOURCE_DIR})
# (1200 s: the vloadn, mul_hi and popcount files also check vectors of 8 and 16 components on
# Vulkan, and the whole took more than 600 s on a loaded 2-core machine.)
set_tests_properties(python.cl_builtins_vulkan PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200
  LABELS "python;vulkan" ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/python-cache-vkr")

# python.images_vulkan  python/tests/test_images.py (kcc.Image, kcc.Sampler) and
#                       test_textures.py (kcc.Texture, kcc.Surface) on the Vulkan device
#                       (KCC_DEVICE=vulkan: lavapipe here), whose images libkcrt makes as
#                       buffers and kcc's Vulkan form samples in software (docs/design.md,
#                       "Images on Vulkan"). Skipped without a Vulkan device or a Python.
set(_py_vk_sh [=[
KCC_DEVICE=vulkan "$1" --devices 2>&1 | grep -q "KCC_DEVICE='vulkan' selects" ||
  { echo "skipped: no Vulkan device"; exit 77; }
KCC_DEVICE=vulkan exec sh "$2/ctest_run.sh" "$3" "$4" "$2/test_images.py" "$2/test_textures.py"
]=])
add_test(NAME python.images_vulkan
  COMMAND sh -c "${_py_vk_sh}" sh $<TARGET_FILE:kcc> ${_py_src} ${CMAKE_BINARY_DIR}
          ${CMAKE_SOURCE_DIR})
set_tests_properties(python.images_vulkan PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
  LABELS "python;vulkan" ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/python-cache-vk")
