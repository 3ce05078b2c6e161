# mpi.cmake — samples/mpi (the MPI heat solver) under mpirun with 1 and 2 ranks on the
# default device (PoCL in CI): tests/mpi/heat.sh; and samples/python/mpi_heat.py, its mpi4py
# twin, which must print the same checksum: tests/mpi/py_heat.sh. Registered where the sample
# was built (MPI found: Debian's openmpi-bin and libopenmpi-dev, scripts/install-deps.sh).
if(TARGET heat AND MPIEXEC_EXECUTABLE)
  add_test(NAME sample.mpi_heat
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/heat.sh ${MPIEXEC_EXECUTABLE}
                   $<TARGET_FILE:heat>)
  set(_mpi_env "XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/mpi-cache;${KCC_LSAN}")
  if(KCC_SANITIZE)
    # Open MPI keeps its allocations to the end: LeakSanitizer would report the library.
    # use_sigaltstack=0 as in the Makefile's test-asan.
    list(APPEND _mpi_env "ASAN_OPTIONS=detect_leaks=0:intercept_tls_get_addr=0:use_sigaltstack=0")
  endif()
  set_tests_properties(sample.mpi_heat PROPERTIES TIMEOUT 300 LABELS samples
    ENVIRONMENT "${_mpi_env}")
  # Its Python twin (mpi4py), in the Python package's environment: not in sanitizer builds,
  # whose libraries a Python interpreter cannot load (tests/python.cmake).
  if(NOT KCC_SANITIZE)
    add_test(NAME sample.python_mpi_heat
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/mpi/py_heat.sh ${MPIEXEC_EXECUTABLE}
                     $<TARGET_FILE:heat> ${CMAKE_BINARY_DIR}/venv/bin/python ${CMAKE_SOURCE_DIR}
                     ${CMAKE_BINARY_DIR})
    set_tests_properties(sample.python_mpi_heat PROPERTIES TIMEOUT 300 LABELS "samples;python"
      SKIP_RETURN_CODE 77 ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/mpi-py-cache")
  endif()
endif()
