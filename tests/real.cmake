# real.cmake — real-world kernels run, not only compiled: the runners of tests/real/run
# (real_run), each on a kernel file of the registry corpus (tests/corpus, corpus.cmake).
#
#   real.run.NAME   for `NAME pass KEY` in tests/real/run/EXPECT: the corpus file KEY (downloaded
#                   by corpus.fetch, whose fixture this needs), kcc builds its bundle, then
#                   real_run runs the original source on PoCL through OpenCL and the bundle
#                   through libkcrt, random inputs, host reference, every element.
#
# Flipping a runner between todo and pass is editing tests/real/run/EXPECT only (CMake re-reads
# it: CMAKE_CONFIGURE_DEPENDS).

set(_real_dir ${CMAKE_CURRENT_SOURCE_DIR}/real)
set(_real_out ${CMAKE_CURRENT_BINARY_DIR}/real)
file(MAKE_DIRECTORY ${_real_out})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_real_dir}/run/EXPECT)

# tests/real/run/EXPECT: `NAME pass|todo CORPUS-KEY` lines (comments and blank lines skipped).
file(STRINGS ${_real_dir}/run/EXPECT _real_lines)
set(_real_names "")
foreach(_line IN LISTS _real_lines)
  if(_line MATCHES "^[ \t]*(#|$)")
    continue()
  endif()
  if(NOT _line MATCHES "^([A-Za-z0-9_]+)[ \t]+(pass|todo)[ \t]+([^ \t]+)[ \t]*$")
    message(FATAL_ERROR "tests/real/run/EXPECT: bad line (want `NAME pass|todo CORPUS-KEY`): ${_line}")
  endif()
  if(CMAKE_MATCH_1 IN_LIST _real_names)
    message(FATAL_ERROR "tests/real/run/EXPECT: ${CMAKE_MATCH_1} is listed twice")
  endif()
  list(APPEND _real_names ${CMAKE_MATCH_1})
  set(_real_state_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  set(_real_key_${CMAKE_MATCH_1} ${CMAKE_MATCH_3})
endforeach()

# real_run links libOpenCL for the original-source path (as clbuild does) and libkcrt (through
# tests/runtime.cmake's kcrt_rt_common) for kcc's.
find_package(OpenCL QUIET)
if(OpenCL_FOUND)
  add_executable(real_run ${_real_dir}/run/real_run.c ${_real_dir}/run/cases.c)
  target_include_directories(real_run PRIVATE ${_real_dir}/run)
  target_link_libraries(real_run PRIVATE kcrt_rt_common OpenCL::OpenCL m)
  # The host references round every float operation as written (cases.c).
  target_compile_options(real_run PRIVATE -ffp-contract=off)
  foreach(_name ${_real_names})
    if(NOT _real_state_${_name} STREQUAL "pass")
      continue()
    endif()
    add_test(NAME real.run.${_name}
      COMMAND sh ${_real_dir}/run/run.sh $<TARGET_FILE:kcc> $<TARGET_FILE:real_run>
        ${CMAKE_BINARY_DIR}/corpus ${_name} ${_real_key_${_name}} ${_real_out}/run/${_name}.kcb)
    set_tests_properties(real.run.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
      LABELS "real;runtime" FIXTURES_REQUIRED corpus_src
      ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_real_out}/cache;POCL_CACHE_DIR=${_real_out}/pocl-cache")
  endforeach()
else()
  message(STATUS "OpenCL not found: real.run.* tests (tests/real/run) are not built")
endif()
