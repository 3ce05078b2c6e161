# opencl.cmake — the OpenCL C back end (compiler/csource/opencl_c.c, compiler/csource/csource.c).
#
#   golden.cl.NAME     kcc tests/golden/NAME.k --emit=cl is byte for byte tests/golden/NAME.cl
#   opencl.build.NAME  every tests/kernels/NAME.k compiles to OpenCL C that clBuildProgram
#                      accepts on the first OpenCL device (PoCL here; skipped without one)
#
# Running the kernels and checking their results is runtime.NAME (tests/runtime.cmake): on a
# device without SPIR-V (PoCL) libkcrt builds the bundle's OpenCL C, and KCC_OPENCL_FORM=source
# forces that path anywhere.

set(KCC_GOLDEN_NAMES vecadd reduce particles)
set(_golden_out ${CMAKE_CURRENT_BINARY_DIR}/golden)
file(MAKE_DIRECTORY ${_golden_out})

foreach(_name ${KCC_GOLDEN_NAMES})
  add_test(NAME golden.cl.${_name}
    COMMAND ${CMAKE_COMMAND} -DKCC=$<TARGET_FILE:kcc>
      -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/golden/${_name}.k -DFORM=cl
      -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/golden/${_name}.cl
      -DACTUAL=${_golden_out}/${_name}.cl
      -P ${CMAKE_CURRENT_SOURCE_DIR}/golden/compare.cmake)
  set_tests_properties(golden.cl.${_name} PROPERTIES LABELS "opencl;golden")
endforeach()

# clbuild links libOpenCL directly: it is a test tool, not part of kcc (which never links a
# driver library).
find_package(OpenCL QUIET)
set(_clbuild "")
if(OpenCL_FOUND)
  add_executable(clbuild ${CMAKE_CURRENT_SOURCE_DIR}/run_cl/clbuild.c)
  target_compile_definitions(clbuild PRIVATE CL_TARGET_OPENCL_VERSION=120)
  target_link_libraries(clbuild PRIVATE OpenCL::OpenCL)
  set(_clbuild $<TARGET_FILE:clbuild>)
else()
  message(STATUS "OpenCL not found: opencl.build.* tests will be skipped")
endif()

set(_cl_out ${CMAKE_CURRENT_BINARY_DIR}/opencl)
file(MAKE_DIRECTORY ${_cl_out})
file(GLOB _cl_kernels CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.k)
foreach(_k ${_cl_kernels})
  get_filename_component(_name ${_k} NAME_WE)
  add_test(NAME opencl.build.${_name}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_cl/build_kernel.sh cl $<TARGET_FILE:kcc>
      "${_clbuild}" ${_k} ${_cl_out}/${_name}.cl)
  # PoCL compiles with LLVM on first use; its kernel cache lives in the build tree.
  set_tests_properties(opencl.build.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    LABELS opencl ENVIRONMENT "POCL_CACHE_DIR=${_cl_out}/pocl-cache")
endforeach()
