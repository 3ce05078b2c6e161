# lazy_enum.cmake — runtime/device.c enumerates a back end only when the device choice needs
# it (issue 14: opening a CUDA GPU used to pay 40+ ms for OpenCL's platforms).
#
#   runtime.lazy_enum.cpu      KCC_DEVICE=cpu, KCC_LOG=1: the OpenCL CPU device (PoCL) opens;
#                              the log names OpenCL's enumeration only, and neither libcuda nor
#                              a CUDA line appears
#   runtime.lazy_enum.opencl   the same with KCC_DEVICE=opencl (where the first OpenCL device
#                              is a CPU, as with PoCL alone)
#   runtime.lazy_enum.default  no KCC_DEVICE: CUDA is asked first; OpenCL is enumerated only
#                              when CUDA has no GPU (then its line follows CUDA's), never when
#                              it has one
# Exit 77 (skip) where no OpenCL CPU device is found.
add_executable(rt_lazy_enum ${CMAKE_CURRENT_SOURCE_DIR}/runtime/lazy_enum.c)
target_link_libraries(rt_lazy_enum PRIVATE kcrt)

foreach(_sel cpu opencl default)
  add_test(NAME runtime.lazy_enum.${_sel}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/runtime/lazy_enum.sh $<TARGET_FILE:rt_lazy_enum> ${_sel})
  set_tests_properties(runtime.lazy_enum.${_sel} PROPERTIES LABELS runtime SKIP_RETURN_CODE 77
    ENVIRONMENT "XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/runtime/cache-lazy_enum")
endforeach()
