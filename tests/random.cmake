# random.cmake — differential testing with random kernels (tests/random/, docs/testing.md).
#
#   random.diff     tests/random/rkdiff.py on seeds 2000-2019 (10 kernels each, 200 kernels): each
#                   kernel compiled by kcc -ffp-contract=off to OpenCL C, SPIR-V (-> llvm-spirv
#                   -> PoCL) and a bundle (-> libkcrt), run on PoCL with fresh inputs, every
#                   output element compared with a host reference built by clang-19; the PTX
#                   is assembled by ptxas where it is on the PATH. Skipped (77) without
#                   python3, clang-19 or an OpenCL device.
#   random.regress  the reduced reproducers of what it found (tests/random/regress/), on the
#                   same paths and the vk one (libkcrt on KCC_DEVICE=vulkan under the validation
#                   layer; skipped without a Vulkan device).
# The full run, on any seed range: `make test-random SEEDS=1-300` (tests/random/run.sh).

find_package(Python3 COMPONENTS Interpreter QUIET)
find_package(OpenCL QUIET)
find_program(KCC_CLANG19 clang-19)
if(OpenCL_FOUND)
  add_executable(rk_run ${CMAKE_CURRENT_SOURCE_DIR}/random/rk_run.c)
  target_include_directories(rk_run PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/random)
  target_link_libraries(rk_run PRIVATE kcrt OpenCL::OpenCL ${CMAKE_DL_LIBS})
endif()
add_executable(rk_cmp ${CMAKE_CURRENT_SOURCE_DIR}/random/rk_cmp.c)

if(Python3_FOUND AND OpenCL_FOUND AND KCC_CLANG19)
  set(_rk_out ${CMAKE_CURRENT_BINARY_DIR}/random)
  file(MAKE_DIRECTORY ${_rk_out})
  set(_rk_common ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/random/rkdiff.py
      --kcc $<TARGET_FILE:kcc> --rk-run $<TARGET_FILE:rk_run> --clang ${KCC_CLANG19})
  add_test(NAME random.diff COMMAND ${_rk_common} --seeds 2000-2019 -k 10 -j 2 --work ${_rk_out}/diff)
  add_test(NAME random.regress
           COMMAND ${_rk_common} --regress ${CMAKE_CURRENT_SOURCE_DIR}/random/regress
                   --paths cl,spir,kcb,ptx,vk --work ${_rk_out}/regress)
  # PoCL's vectorising work-group method (loopvec, its default) gives wrong results for some
  # of these kernels on AVX-512 hosts, with kcc's output of before and after this change alike,
  # where its two other methods and the reference agree (docs/driver-bugs.md #12): the
  # differential run uses cbs, so that what it finds is kcc's.
  set_tests_properties(random.diff random.regress PROPERTIES LABELS random TIMEOUT 1500
                       SKIP_RETURN_CODE 77 ENVIRONMENT "POCL_WORK_GROUP_METHOD=cbs")
else()
  message(STATUS "python3, OpenCL or clang-19 missing: random.* tests not registered")
endif()
