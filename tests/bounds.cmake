# bounds.cmake — `kcc -fbounds-check` (compiler/passes/bounds.c, runtime/bounds.c, docs/bugs.md).
#
#   bounds.oob[.spirv]    tests/bounds/oob.k compiled with -fbounds-check, run by
#                         tests/bounds/bounds.c through libkcrt: every class of bad access
#                         (global read and write, derived pointer, device function, shared
#                         static and dynamic, local array, struct elements, atomics, a write a
#                         terabyte away) reported with its exact message, the bad access not
#                         made, the good ones made. .spirv: the same through the bundle's
#                         SPIR-V (KCC_OPENCL_FORM=spirv) instead of its OpenCL C.
#   bounds.corpus[_spirv].NAME
#                         the runtime test of tests/kernels/NAME.k (tests/runtime/NAME.c) on the
#                         kernel compiled with -fbounds-check: correct kernels give the same,
#                         exactly checked, results checked and unchecked.
set(_bc_out ${CMAKE_CURRENT_BINARY_DIR}/bounds)
file(MAKE_DIRECTORY ${_bc_out})

function(_bc_bundle name src)
  add_custom_command(OUTPUT ${_bc_out}/${name}.kcb.stamp
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bounds/make_bundle.sh $<TARGET_FILE:kcc> ${src}
            ${_bc_out}/${name}.kcb
    COMMAND ${CMAKE_COMMAND} -E touch ${_bc_out}/${name}.kcb.stamp
    BYPRODUCTS ${_bc_out}/${name}.kcb
    DEPENDS kcc ${src} ${CMAKE_CURRENT_SOURCE_DIR}/bounds/make_bundle.sh
    COMMENT "kcc -fbounds-check ${name}"
    VERBATIM)
endfunction()

_bc_bundle(oob ${CMAKE_CURRENT_SOURCE_DIR}/bounds/oob.k)
add_executable(rt_bounds ${CMAKE_CURRENT_SOURCE_DIR}/bounds/bounds.c ${_bc_out}/oob.kcb.stamp)
target_link_libraries(rt_bounds PRIVATE kcrt_rt_common)
add_test(NAME bounds.oob COMMAND rt_bounds ${_bc_out}/oob.kcb)
find_program(KCC_BC_LLVM_SPIRV NAMES llvm-spirv-15 llvm-spirv)
set(_bc_llvm_spirv "${KCC_BC_LLVM_SPIRV}")
if(NOT KCC_BC_LLVM_SPIRV)
  set(_bc_llvm_spirv "")
endif()
add_test(NAME bounds.oob.spirv
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bounds/run_spirv.sh $<TARGET_FILE:kcbinfo>
                 "${_bc_llvm_spirv}" $<TARGET_FILE:rt_bounds> ${_bc_out}/oob.kcb)
set_tests_properties(bounds.oob PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS runtime
  ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_bc_out}/cache")
set_tests_properties(bounds.oob.spirv PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS runtime
  ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_bc_out}/cache")

# The corpus's correct kernels, checked.
# (CUDA input too: lambdas, and __device__ variables, whose accesses stay unchecked; and OpenCL
# C images, whose software sampling in PTX and CUDA C the pass leaves unchecked.)
foreach(_name atomics constant control cuda_spellings driver_bugs dynshared fp64 histogram int64
              math32 matmul printf reduce saxpy stencil structs symbols transpose vec_ops vecadd
              cuda_lambda cuda_devvar cl_images)
  set(_src ${CMAKE_CURRENT_SOURCE_DIR}/kernels/${_name}.k)
  if(NOT EXISTS ${_src})
    set(_src ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.cu)
  endif()
  if(NOT EXISTS ${_src})
    set(_src ${CMAKE_CURRENT_SOURCE_DIR}/runtime/${_name}.cl)
  endif()
  _bc_bundle(${_name} ${_src})
  add_custom_target(bc_${_name} ALL DEPENDS ${_bc_out}/${_name}.kcb.stamp)
  add_test(NAME bounds.corpus.${_name} COMMAND rt_${_name} ${_bc_out}/${_name}.kcb)
  add_test(NAME bounds.corpus_spirv.${_name}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bounds/run_spirv.sh $<TARGET_FILE:kcbinfo>
                   "${_bc_llvm_spirv}" $<TARGET_FILE:rt_${_name}> ${_bc_out}/${_name}.kcb)
  set_tests_properties(bounds.corpus.${_name} bounds.corpus_spirv.${_name} PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS runtime ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_bc_out}/cache")
endforeach()

# The generated C header on a checked module.
add_executable(bc_header ${CMAKE_CURRENT_SOURCE_DIR}/bounds/header.c)
kcc_add_kernels(bc_header ${CMAKE_CURRENT_SOURCE_DIR}/bounds/oob.k OPTIONS -fbounds-check)
add_test(NAME bounds.header COMMAND bc_header)
set_tests_properties(bounds.header PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS runtime
  ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_bc_out}/cache")

# Launch checks: extern shared with 0 bytes, KCC_PORTABLE limits, fp64 in the device info.
add_executable(rt_launch_checks ${CMAKE_CURRENT_SOURCE_DIR}/bounds/launch_checks.c
                                ${_bc_out}/oob.kcb.stamp)
target_link_libraries(rt_launch_checks PRIVATE kcrt_rt_common)
add_test(NAME bounds.launch_checks COMMAND rt_launch_checks ${_bc_out}/oob.kcb)
add_test(NAME bounds.launch_checks.portable_env COMMAND rt_launch_checks ${_bc_out}/oob.kcb)
set_tests_properties(bounds.launch_checks PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
  LABELS runtime ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_bc_out}/cache")
set_tests_properties(bounds.launch_checks.portable_env PROPERTIES SKIP_RETURN_CODE 77
  TIMEOUT 300 LABELS runtime ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_bc_out}/cache;KCC_PORTABLE=1")

# The registry corpus's runnable kernels (tests/real/run), checked: the same results as the
# original source and the host reference, no check firing. Label "real"; needs the corpus.
find_package(OpenCL QUIET)
if(OpenCL_FOUND)
  add_test(NAME bounds.real
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bounds/real_run.sh $<TARGET_FILE:kcc>
            $<TARGET_FILE:real_run> ${CMAKE_CURRENT_SOURCE_DIR}/real ${_bc_out}/real
            ${CMAKE_BINARY_DIR}/corpus)
  set_tests_properties(bounds.real PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1500
    LABELS "real;runtime" FIXTURES_REQUIRED corpus_src
    ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_bc_out}/cache;POCL_CACHE_DIR=${_bc_out}/pocl-cache")
endif()
