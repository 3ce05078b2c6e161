# cuda.cmake — the CUDA C back end (compiler/csource/cuda_c.c, compiler/csource/csource.c).
#
#   golden.cuda.NAME  kcc tests/golden/NAME.k --emit=cuda is byte for byte tests/golden/NAME.cu
#   cuda.build.NAME   every tests/kernels/NAME.k compiles to CUDA C that `nvcc -ptx
#                     -arch=sm_75` accepts (skipped where there is no nvcc)

find_program(KCC_NVCC nvcc HINTS ENV CUDA_PATH ENV CUDA_HOME PATH_SUFFIXES bin
  PATHS /usr/local/cuda/bin)
set(_nvcc "")
if(KCC_NVCC)
  set(_nvcc ${KCC_NVCC})
else()
  message(STATUS "nvcc not found: cuda.build.* tests will be skipped")
endif()

foreach(_name vecadd reduce particles)
  add_test(NAME golden.cuda.${_name}
    COMMAND ${CMAKE_COMMAND} -DKCC=$<TARGET_FILE:kcc>
      -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/golden/${_name}.k -DFORM=cuda
      -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/golden/${_name}.cu
      -DACTUAL=${CMAKE_CURRENT_BINARY_DIR}/golden/${_name}.cu
      -P ${CMAKE_CURRENT_SOURCE_DIR}/golden/compare.cmake)
  set_tests_properties(golden.cuda.${_name} PROPERTIES LABELS "cuda;golden")
endforeach()

file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/golden)
set(_cu_out ${CMAKE_CURRENT_BINARY_DIR}/cuda)
file(MAKE_DIRECTORY ${_cu_out})
file(GLOB _cu_kernels CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.k)
foreach(_k ${_cu_kernels})
  get_filename_component(_name ${_k} NAME_WE)
  add_test(NAME cuda.build.${_name}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/run_cl/build_kernel.sh cuda $<TARGET_FILE:kcc>
      "${_nvcc}" ${_k} ${_cu_out}/${_name}.cu)
  set_tests_properties(cuda.build.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    LABELS cuda)
endforeach()
