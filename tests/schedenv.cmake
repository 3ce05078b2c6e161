# schedenv.cmake — the devices a scheduler's or MPI launcher's environment gives a process
# (runtime/schedenv.c): ONEAPI_DEVICE_SELECTOR, HIP_VISIBLE_DEVICES and KCC_DEVICE=local-rank
# with each launcher's local-rank variable, checked line by line in `kcc --devices` on two
# PoCL devices (tests/schedenv/devices.sh). python/tests/test_schedenv.py checks the same
# choices from Python, with arrays that travel (pickle, Dask, mpi4py).
add_test(NAME runtime.schedenv COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/schedenv/devices.sh
                                        $<TARGET_FILE:kcc>)
set_tests_properties(runtime.schedenv PROPERTIES LABELS runtime TIMEOUT 300
  ENVIRONMENT "${KCC_LSAN}")
