# real.cmake — real-world kernels run, not only compiled: the runners of tests/real/run
# (real_run), each on a kernel file of the registry corpus (tests/corpus, corpus.cmake).
#
#   real.run.NAME   for `NAME pass KEY` in tests/real/run/EXPECT: the corpus file KEY (downloaded
#                   by corpus.fetch, whose fixture this needs), kcc builds its bundle, then
#                   real_run runs the original source on PoCL through OpenCL and the bundle
#                   through libkcrt, random inputs, host reference, every element.
#   real.cu.run.NAME
#                   for `NAME pass KEY` in tests/real/run/cu_EXPECT: the corpus's CUDA file KEY,
#                   kcc builds its bundle and real_cu_run runs it through libkcrt against a host
#                   reference (a CUDA original cannot run here, so there is no second path).
#
# Flipping a runner between todo and pass is editing tests/real/run/EXPECT or cu_EXPECT only
# (CMake re-reads them: CMAKE_CONFIGURE_DEPENDS).

set(_real_dir ${CMAKE_CURRENT_SOURCE_DIR}/real)
set(_real_out ${CMAKE_CURRENT_BINARY_DIR}/real)
file(MAKE_DIRECTORY ${_real_out})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_real_dir}/run/EXPECT
  ${_real_dir}/run/cu_EXPECT)

# _real_read(FILE PREFIX): `NAME pass|todo CORPUS-KEY` lines (comments and blank lines skipped)
# into PREFIX_names, PREFIX_state_<NAME> and PREFIX_key_<NAME>.
function(_real_read file prefix)
  file(STRINGS ${file} _lines)
  set(_names "")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^[ \t]*(#|$)")
      continue()
    endif()
    if(NOT _line MATCHES "^([A-Za-z0-9_]+)[ \t]+(pass|todo)[ \t]+([^ \t]+)[ \t]*$")
      message(FATAL_ERROR "${file}: bad line (want `NAME pass|todo CORPUS-KEY`): ${_line}")
    endif()
    if(CMAKE_MATCH_1 IN_LIST _names)
      message(FATAL_ERROR "${file}: ${CMAKE_MATCH_1} is listed twice")
    endif()
    list(APPEND _names ${CMAKE_MATCH_1})
    set(${prefix}_state_${CMAKE_MATCH_1} ${CMAKE_MATCH_2} PARENT_SCOPE)
    set(${prefix}_key_${CMAKE_MATCH_1} ${CMAKE_MATCH_3} PARENT_SCOPE)
  endforeach()
  set(${prefix}_names ${_names} PARENT_SCOPE)
endfunction()
_real_read(${_real_dir}/run/EXPECT _real)
_real_read(${_real_dir}/run/cu_EXPECT _realcu)

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

# The CUDA runners (tests/real/run/cu_*): one path, kcc's bundle through libkcrt; no OpenCL.
add_executable(real_cu_run ${_real_dir}/run/cu_run.c ${_real_dir}/run/cu_cases.c)
target_include_directories(real_cu_run PRIVATE ${_real_dir}/run)
target_link_libraries(real_cu_run PRIVATE kcrt_rt_common m)
# The host references round every float operation as written (cu_cases.c).
target_compile_options(real_cu_run PRIVATE -ffp-contract=off)
foreach(_name ${_realcu_names})
  if(NOT _realcu_state_${_name} STREQUAL "pass")
    continue()
  endif()
  add_test(NAME real.cu.run.${_name}
    COMMAND sh ${_real_dir}/run/cu_run.sh $<TARGET_FILE:kcc> $<TARGET_FILE:real_cu_run>
      ${CMAKE_BINARY_DIR}/corpus ${_name} ${_realcu_key_${_name}} ${_real_out}/cu_run/${_name}.kcb)
  set_tests_properties(real.cu.run.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    LABELS "real;runtime" FIXTURES_REQUIRED corpus_src
    ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_real_out}/cache;POCL_CACHE_DIR=${_real_out}/pocl-cache")
endforeach()
