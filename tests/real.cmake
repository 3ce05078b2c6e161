# real.cmake — real-world OpenCL C and CUDA kernels this project did not write
# (tests/real/opencl/, tests/real/cuda/; provenance in tests/real/SOURCES.md), compiled
# unchanged, and some of them run.
#
#   real.NAME       tests/real/compile.sh: for `NAME pass` in tests/real/opencl/EXPECT, kcc
#                   writes PTX (ptxas-checked), SPIR-V (validated), OpenCL C (clang-checked),
#                   CUDA C (nvcc-checked) and a bundle; for `NAME fail DIAGNOSTIC`, kcc refuses
#                   the kernel with exactly that first line. `NAME todo`: no test.
#   real.run.NAME   for `NAME pass` in tests/real/run/EXPECT: kcc builds the bundle, then
#                   real_run (tests/real/run/) runs the original source on PoCL through OpenCL
#                   and the bundle through libkcrt, random inputs, host reference, every element.
#   real.cu.NAME    the same compile test for `NAME pass|fail` in tests/real/cuda/EXPECT.
#   real.cu.run.NAME
#                   for `NAME pass` in tests/real/run/cu_EXPECT: kcc builds NAME.cu's bundle and
#                   real_cu_run runs it through libkcrt against a host reference (the CUDA
#                   original cannot run here, so there is no second path).
#
# Flipping a kernel between todo, pass and fail is editing an EXPECT file only (CMake
# re-reads it: CMAKE_CONFIGURE_DEPENDS). Build options the original host passes
# (-DBLOCK_SIZE=16...) come from tests/real/opencl/OPTIONS, for kcc and PoCL alike.

set(_real_dir ${CMAKE_CURRENT_SOURCE_DIR}/real)
set(_real_out ${CMAKE_CURRENT_BINARY_DIR}/real)
file(MAKE_DIRECTORY ${_real_out})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${_real_dir}/opencl/EXPECT ${_real_dir}/opencl/OPTIONS ${_real_dir}/run/EXPECT
  ${_real_dir}/cuda/EXPECT ${_real_dir}/cuda/OPTIONS ${_real_dir}/run/cu_EXPECT)

# _real_read(FILE PREFIX): for each `NAME STATE [REST]` line (comments and blank lines
# skipped), sets PREFIX_NAMES (in file order) and PREFIX_STATE_<NAME>.
function(_real_read file prefix)
  file(STRINGS ${file} _lines)
  set(_names "")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^[ \t]*(#|$)")
      continue()
    endif()
    if(NOT _line MATCHES "^([A-Za-z0-9_]+)[ \t]+(pass|fail|todo|gpu)([ \t]|$)")
      message(FATAL_ERROR "${file}: bad line (want `NAME pass|fail DIAGNOSTIC|todo|gpu`): ${_line}")
    endif()
    set(_name ${CMAKE_MATCH_1})
    if(_name IN_LIST _names)
      message(FATAL_ERROR "${file}: ${_name} is listed twice")
    endif()
    list(APPEND _names ${_name})
    set(${prefix}_STATE_${_name} ${CMAKE_MATCH_2} PARENT_SCOPE)
  endforeach()
  set(${prefix}_NAMES ${_names} PARENT_SCOPE)
endfunction()

_real_read(${_real_dir}/opencl/EXPECT _real)
_real_read(${_real_dir}/run/EXPECT _realrun)

# _real_options(FILE PREFIX): for each `NAME OPTION...` line of FILE (an OPTIONS file), sets
# PREFIX_<NAME> to the options as a list.
function(_real_options file prefix)
  file(STRINGS ${file} _lines)
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "^([A-Za-z0-9_]+)[ \t]+(.+)$")
      separate_arguments(_opts UNIX_COMMAND "${CMAKE_MATCH_2}")
      set(${prefix}_${CMAKE_MATCH_1} ${_opts} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# _real_check_files(SUBDIR EXT NAMES...): every SUBDIR/*.EXT has a state, and every named
# kernel (EXPECT and runner lines) a file.
function(_real_check_files subdir ext)
  file(GLOB _files CONFIGURE_DEPENDS ${_real_dir}/${subdir}/*.${ext})
  foreach(_f ${_files})
    get_filename_component(_name ${_f} NAME_WE)
    if(NOT _name IN_LIST ARGN)
      message(FATAL_ERROR "tests/real/${subdir}/${_name}.${ext} has no line in "
                          "tests/real/${subdir}/EXPECT")
    endif()
  endforeach()
endfunction()
function(_real_check_names subdir ext)
  foreach(_name ${ARGN})
    if(NOT EXISTS ${_real_dir}/${subdir}/${_name}.${ext})
      message(FATAL_ERROR "tests/real: an EXPECT file names ${_name}, but "
                          "tests/real/${subdir}/${_name}.${ext} does not exist")
    endif()
  endforeach()
endfunction()

# _real_compile_tests(SUBDIR EXT STATES OPTS TEST OUT WHAT): TEST<NAME> (compile.sh) for every
# pass and fail line of SUBDIR/EXPECT (read into STATES_*), with the build options OPTS_<NAME>.
function(_real_compile_tests subdir ext states opts test out what)
  set(_n_pass 0)
  set(_n_fail 0)
  set(_n_todo 0)
  foreach(_name ${${states}_NAMES})
    set(_state ${${states}_STATE_${_name}})
    math(EXPR _n_${_state} "${_n_${_state}} + 1")
    if(_state STREQUAL "todo")
      continue()
    endif()
    add_test(NAME ${test}${_name}
      COMMAND sh ${_real_dir}/compile.sh ${_state} $<TARGET_FILE:kcc>
        ${_real_dir}/${subdir}/${_name}.${ext} ${out}/${_name} ${_real_dir}/${subdir}/EXPECT
        -- ${${opts}_${_name}})
    set_tests_properties(${test}${_name} PROPERTIES TIMEOUT 300 LABELS real)
  endforeach()
  message(STATUS "real-world ${what} corpus: ${_n_pass} pass, ${_n_fail} pinned diagnostics, "
                 "${_n_todo} todo")
endfunction()

# Build options per kernel: `NAME OPTION...` lines of OPTIONS.
_real_options(${_real_dir}/opencl/OPTIONS _real_opts)

# Every corpus file has a state, and every state a file.
_real_check_files(opencl cl ${_real_NAMES})
_real_check_names(opencl cl ${_real_NAMES} ${_realrun_NAMES})

_real_compile_tests(opencl cl _real _real_opts real. ${_real_out} "OpenCL C")

# The CUDA corpus: the same compile test (compile.sh) for tests/real/cuda/NAME.cu, as real.cu.NAME.
# OPTIONS paths (-Iinclude/NAME) are relative to tests/real/cuda/, where compile.sh runs kcc.
_real_read(${_real_dir}/cuda/EXPECT _realcu)
_real_read(${_real_dir}/run/cu_EXPECT _realcurun)
_real_options(${_real_dir}/cuda/OPTIONS _realcu_opts)
_real_check_files(cuda cu ${_realcu_NAMES})
_real_check_names(cuda cu ${_realcu_NAMES} ${_realcurun_NAMES})
_real_compile_tests(cuda cu _realcu _realcu_opts real.cu. ${_real_out}/cuda CUDA)

# The runners. real_run links libOpenCL for the original-source path (as clbuild does) and
# libkcrt (through tests/runtime.cmake's kcrt_rt_common) for kcc's.
find_package(OpenCL QUIET)
if(OpenCL_FOUND)
  add_executable(real_run ${_real_dir}/run/real_run.c ${_real_dir}/run/cases.c)
  target_include_directories(real_run PRIVATE ${_real_dir}/run)
  target_link_libraries(real_run PRIVATE kcrt_rt_common OpenCL::OpenCL m)
  # The host references round every float operation as written (cases.c).
  target_compile_options(real_run PRIVATE -ffp-contract=off)
  foreach(_name ${_realrun_NAMES})
    if(NOT _realrun_STATE_${_name} STREQUAL "pass")
      continue()
    endif()
    add_test(NAME real.run.${_name}
      COMMAND sh ${_real_dir}/run/run.sh $<TARGET_FILE:kcc> $<TARGET_FILE:real_run> ${_name}
        ${_real_dir}/opencl/${_name}.cl ${_real_out}/run/${_name}.kcb ${_real_opts_${_name}})
    set_tests_properties(real.run.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
      LABELS "real;runtime"
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
foreach(_name ${_realcurun_NAMES})
  if(NOT _realcurun_STATE_${_name} STREQUAL "pass")
    continue()
  endif()
  add_test(NAME real.cu.run.${_name}
    COMMAND sh ${_real_dir}/run/cu_run.sh $<TARGET_FILE:kcc> $<TARGET_FILE:real_cu_run> ${_name}
      ${_real_dir}/cuda/${_name}.cu ${_real_out}/cu_run/${_name}.kcb ${_realcu_opts_${_name}})
  set_tests_properties(real.cu.run.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    LABELS "real;runtime" ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_real_out}/cache;POCL_CACHE_DIR=${_real_out}/pocl-cache")
endforeach()
