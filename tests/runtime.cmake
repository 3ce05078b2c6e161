# runtime.cmake — libkcrt's tests.
#
#   unit.test_runtime_*   Check tests (tests/unit/test_runtime_*.c): the bundle reader on valid
#                         and corrupted bundles, the API on hand-written OpenCL C bundles, and
#                         the named error statuses. Linked to kcrt here (the unit-test loop in
#                         tests/CMakeLists.txt links kcc_core only).
#   runtime.NAME          tests/runtime/NAME.c runs tests/kernels/NAME.k: the bundle is built by
#                         kcc at build time, the program loads it through libkcrt, runs it on the
#                         default device (PoCL here) with random inputs and compares every
#                         element with a host reference. Exit 77 (skip) when there is no device.
#
# A kernel that kcc fails to compile does not break the build: its bundle is left missing, the
# command saves kcc's messages in NAME.kcb.log, and runtime.NAME fails showing them.
#
# Every test gets its own cache directory (XDG_CACHE_HOME) under the build tree, so runs never
# touch the user's ~/.cache/kcc.

set(_rt_out ${CMAKE_CURRENT_BINARY_DIR}/runtime)
file(MAKE_DIRECTORY ${_rt_out})
# Under `make test-asan`, what the OpenCL drivers keep for the life of the process is not a
# libkcrt leak (tests/runtime/lsan.supp).
set(_rt_lsan "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_SOURCE_DIR}/runtime/lsan.supp")

foreach(_t test_runtime_bundle test_runtime_api)
  if(TARGET ${_t})
    target_link_libraries(${_t} PRIVATE kcrt)
    target_include_directories(${_t} PRIVATE ${CMAKE_SOURCE_DIR}/runtime)
    set_tests_properties(unit.${_t} PROPERTIES
      ENVIRONMENT "KCC=$<TARGET_FILE:kcc>;KCC_TESTS=${CMAKE_CURRENT_SOURCE_DIR};CK_DEFAULT_TIMEOUT=300;XDG_CACHE_HOME=${_rt_out}/cache-${_t};${_rt_lsan}"
      LABELS runtime)
  endif()
endforeach()

add_library(kcrt_rt_common STATIC ${CMAKE_CURRENT_SOURCE_DIR}/runtime/rt_common.c)
target_link_libraries(kcrt_rt_common PUBLIC kcrt m)
target_include_directories(kcrt_rt_common PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/runtime)

# Kernels with a host program. Every kernel of tests/kernels/ has one; a kernel added to the
# corpus later without one is listed by the check below.
set(KCRT_RUNTIME_KERNELS
  atomics constant control cuda_spellings driver_bugs dynshared fp64 histogram int64 math32
  matmul printf reduce saxpy stencil structs symbols transpose vec_ops vecadd)

# Kernels kept beside their host program (tests/runtime/NAME.k, or NAME.cu for CUDA input,
# NAME.cl for OpenCL C) rather than in the corpus that every back end compiles.
set(KCRT_RUNTIME_OWN_KERNELS local_args cuda_cxx cuda_stdlib cuda_lambda cuda_devvar cuda_names cuda_hostprog cuda_api cuda_fp16 cuda_bf16 cuda_fp8 cuda_union cuda_mathfn cuda_launch cuda_asm cuda_tex cuda_texobj cuda_idioms cuda_ptrref cl_vecfn cl_contract cl_workitem cl_half cl_fp16 cl_printf cl_chatter cl_subgroups cl_sgsize cl_intrel cl_union cl_mathfn cl_images cl_wgfn cl_intdot cl_goto cuda_dynptr cl_switch cl_vec16 cl_wrap8)

# _kcc_rt_props(NAME): the environment (_rt_env) and timeout (_rt_timeout) runtime.NAME and
# runtime.NAME.spirv run with.
function(_kcc_rt_props name)
  set(env "XDG_CACHE_HOME=${_rt_out}/cache;${_rt_lsan}")
  set(timeout 300)
  if(name STREQUAL cl_wgfn)
    set(env "POCL_MAX_PTHREAD_COUNT=1;${env}")
    set(timeout 600)
  elseif(name STREQUAL cuda_texobj)
    # ~600 launches, each format's kernels compiled by PoCL on a fresh cache: 130 s under ASan
    # on a loaded 2-core machine.
    set(timeout 600)
  endif()
  set(_rt_env "${env}" PARENT_SCOPE)
  set(_rt_timeout ${timeout} PARENT_SCOPE)
endfunction()

foreach(_name ${KCRT_RUNTIME_KERNELS} ${KCRT_RUNTIME_OWN_KERNELS})
  if(_name IN_LIST KCRT_RUNTIME_OWN_KERNELS AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.cu)
    set(_k ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.cu)
  elseif(_name IN_LIST KCRT_RUNTIME_OWN_KERNELS AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.cl)
    set(_k ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.cl)
  elseif(_name IN_LIST KCRT_RUNTIME_OWN_KERNELS)
    set(_k ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.k)
  else()
    set(_k ${CMAKE_CURRENT_SOURCE_DIR}/kernels/${_name}.k)
  endif()
  set(_kcb ${_rt_out}/${_name}.kcb)
  add_custom_command(OUTPUT ${_kcb}.stamp
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/runtime/make_bundle.sh $<TARGET_FILE:kcc> ${_k} ${_kcb}
    COMMAND ${CMAKE_COMMAND} -E touch ${_kcb}.stamp
    BYPRODUCTS ${_kcb}
    DEPENDS kcc ${_k} ${CMAKE_CURRENT_SOURCE_DIR}/runtime/make_bundle.sh
    COMMENT "kcc ${_name}.k -o ${_name}.kcb"
    VERBATIM)
  add_executable(rt_${_name} ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.c ${_kcb}.stamp)
  target_link_libraries(rt_${_name} PRIVATE kcrt_rt_common)
  # PoCL has no subgroups: here the subgroup test expects libkcrt's exact refusal (on a GPU,
  # tests/gpu/run.sh runs it without --refusal).
  set(_rt_args)
  if(_name STREQUAL cl_subgroups OR _name STREQUAL cl_sgsize)
    set(_rt_args --refusal)
  endif()
  # PoCL's pthread device sometimes lets work-groups on different threads share a __local
  # array that helper functions receive (docs/driver-bugs.md 11): the work-group functions'
  # test runs PoCL with one thread, as rt_intrinsics does.
  # It also takes one to two minutes on a fresh cache (PoCL compiles its kernels for each
  # work-group size: tests/runtime/cl_wgfn.c), hence the longer timeout.
  _kcc_rt_props(${_name})
  add_test(NAME runtime.${_name} COMMAND rt_${_name} ${_kcb} ${_rt_args})
  set_tests_properties(runtime.${_name} PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT ${_rt_timeout} LABELS runtime ENVIRONMENT "${_rt_env}")
endforeach()

# cuda_mathfn's Bessel references are libquadmath's (GCC's __float128, x86-64 and others), else
# glibc's long double forms.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|aarch64|ppc64le")
  find_library(KCC_QUADMATH NAMES quadmath libquadmath.so.0)
  if(KCC_QUADMATH)
    target_link_libraries(rt_cuda_mathfn PRIVATE ${KCC_QUADMATH})
    target_compile_definitions(rt_cuda_mathfn PRIVATE KCC_HAVE_QUADMATH)
  endif()
endif()

# cuda_tex makes its texture and surface objects through the driver API it opens itself.
target_link_libraries(rt_cuda_tex PRIVATE ${CMAKE_DL_LIBS})

# The OpenCL C kernels kept here, and the CUDA ones, also run from the bundle's SPIR-V (tests/bounds/run_spirv.sh).
find_program(KCC_BC_LLVM_SPIRV NAMES llvm-spirv-15 llvm-spirv)
foreach(_name cl_workitem cl_half cl_fp16 cl_printf cl_vecfn cl_contract cl_intrel cl_union cl_mathfn cl_subgroups cuda_idioms cuda_cxx cuda_ptrref cuda_stdlib cuda_lambda cuda_devvar cuda_names cuda_hostprog cuda_api cuda_fp16 cuda_bf16 cuda_fp8 cuda_union cuda_mathfn cuda_launch cuda_texobj cl_images cl_wgfn cl_intdot cl_goto cuda_dynptr cl_switch cl_vec16 cl_wrap8)
  add_test(NAME runtime.${_name}.spirv
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bounds/run_spirv.sh $<TARGET_FILE:kcbinfo>
                   "$<$<BOOL:${KCC_BC_LLVM_SPIRV}>:${KCC_BC_LLVM_SPIRV}>" $<TARGET_FILE:rt_${_name}>
                   ${_rt_out}/${_name}.kcb)
  _kcc_rt_props(${_name})
  set_tests_properties(runtime.${_name}.spirv PROPERTIES SKIP_RETURN_CODE 77
    TIMEOUT ${_rt_timeout} LABELS runtime ENVIRONMENT "${_rt_env}")
endforeach()

# Driver chatter (PoCL's "N warnings generated.") kept off stderr; KCC_LOG's first-launch lines.
find_program(KCC_CHATTER_CLANG NAMES clang-19 clang)
add_test(NAME runtime.cl_chatter.stderr
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/runtime/chatter.sh $<TARGET_FILE:kcc>
          "$<$<BOOL:${KCC_CHATTER_CLANG}>:${KCC_CHATTER_CLANG}>" $<TARGET_FILE:rt_cl_chatter>
          ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_chatter.cl ${_rt_out}/cl_chatter.kcb)
set_tests_properties(runtime.cl_chatter.stderr PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
  LABELS runtime ENVIRONMENT "${_rt_lsan}")

# The API and its error statuses on kcc's own bundles (vecadd, dynshared), on any device.
add_executable(rt_api ${CMAKE_CURRENT_SOURCE_DIR}/runtime/api.c ${_rt_out}/vecadd.kcb.stamp
               ${_rt_out}/dynshared.kcb.stamp)
target_link_libraries(rt_api PRIVATE kcrt_rt_common)
target_include_directories(rt_api PRIVATE ${CMAKE_SOURCE_DIR}/runtime)
add_test(NAME runtime.api COMMAND rt_api ${_rt_out}/vecadd.kcb ${_rt_out}/dynshared.kcb)
set_tests_properties(runtime.api PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS runtime ENVIRONMENT "XDG_CACHE_HOME=${_rt_out}/cache;${_rt_lsan}")

file(GLOB _rt_corpus CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.k)
foreach(_k ${_rt_corpus})
  get_filename_component(_name ${_k} NAME_WE)
  if(NOT _name IN_LIST KCRT_RUNTIME_KERNELS)
    message(STATUS "runtime tests: tests/kernels/${_name}.k has no host program in tests/runtime/")
  endif()
endforeach()

# The on-disk cache from outside: store, hit, damaged entry replaced, KCC_CACHE=0.
add_test(NAME runtime.cache
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cache_test.sh $<TARGET_FILE:rt_vecadd>
          ${_rt_out}/vecadd.kcb)
set_tests_properties(runtime.cache PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS runtime
  ENVIRONMENT "${_rt_lsan}")

# kcc --devices lists what libkcrt sees (and says why a back end has none).
add_test(NAME runtime.kcc_devices COMMAND sh -c "\"$1\" --devices | grep -E '^[0-9]+ devices?$'"
  sh $<TARGET_FILE:kcc>)
set_tests_properties(runtime.kcc_devices PROPERTIES LABELS runtime ENVIRONMENT "${_rt_lsan}")
