# libkcc.cmake — libkcc's tests (driver/include/libkcc.h, through libkcc.so):
#
#   libkcc.api        tests/libkcc/test_libkcc.c (Check): outputs of every form, exact
#                     diagnostics, options, argument checks, repeated and threaded compiles.
#   libkcc.repeat     tests/libkcc/repeat.c: 200 compiles (one in ten failing), every result
#                     checked, nothing written to stderr.
#   libkcc.valgrind   the same program under valgrind memcheck: 100 compiles to OpenCL C (front
#                     end, passes, a back end) and 10 to bundles (every back end): no invalid
#                     access, no definite or possible leak. About 0.8 s a compile under
#                     memcheck, so the 1000 compiles of issue 11 run in `make test-valgrind`
#                     (`make test-valgrind-libkcc`, run by .ci/run), not here.
add_executable(test_libkcc ${CMAKE_CURRENT_SOURCE_DIR}/libkcc/test_libkcc.c)
target_link_libraries(test_libkcc PRIVATE kcc_shared PkgConfig::CHECK Threads::Threads)
add_test(NAME libkcc.api COMMAND test_libkcc)
set_tests_properties(libkcc.api PROPERTIES ENVIRONMENT "CK_DEFAULT_TIMEOUT=300" LABELS libkcc)

add_executable(libkcc_repeat ${CMAKE_CURRENT_SOURCE_DIR}/libkcc/repeat.c)
target_link_libraries(libkcc_repeat PRIVATE kcc_shared)
add_test(NAME libkcc.repeat COMMAND libkcc_repeat 200 --emit=ptx)
set_tests_properties(libkcc.repeat PROPERTIES LABELS libkcc)

find_program(KCC_VALGRIND valgrind)
if(KCC_VALGRIND AND NOT KCC_SANITIZE)
  set(_vg ${KCC_VALGRIND} --error-exitcode=1 --num-callers=40 --leak-check=full --show-leak-kinds=definite,possible
          --errors-for-leak-kinds=definite,possible --suppressions=${CMAKE_CURRENT_SOURCE_DIR}/libkcc/valgrind.supp)
  add_test(NAME libkcc.valgrind COMMAND ${_vg} $<TARGET_FILE:libkcc_repeat> 100 --emit=cl)
  add_test(NAME libkcc.valgrind_bundle COMMAND ${_vg} $<TARGET_FILE:libkcc_repeat> 10)
  set_tests_properties(libkcc.valgrind libkcc.valgrind_bundle PROPERTIES LABELS "libkcc;valgrind" TIMEOUT 1800)
endif()

# bench/libkcc_compile.c: libkcc against NVRTC in one process (bench/README.md). Built with the
# tests so that it keeps compiling; run by hand.
add_executable(bench_libkcc_compile ${CMAKE_SOURCE_DIR}/bench/libkcc_compile.c)
target_link_libraries(bench_libkcc_compile PRIVATE kcc_shared ${CMAKE_DL_LIBS})
# bench/launch_cost.c: libkcrt's launch cost from C, the baseline of bench/python_launch.py.
add_executable(bench_launch_cost ${CMAKE_SOURCE_DIR}/bench/launch_cost.c)
target_link_libraries(bench_launch_cost PRIVATE kcc_shared kcrt)
