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
