# spirv.cmake — the SPIR-V back end on the kernel corpus (tests/kernels/*.k).
#
#   spirv.NAME          kcc NAME.k -o NAME.spv (kcc validates in process), then spirv-val
#                       --target-env opencl2.2 on the file. SPIRV-Tools 2023.1's OpenCL
#                       environments reject the Int64Atomics capability outright (they do not
#                       model cl_khr_int64_base_atomics), so a module that declares it is checked
#                       with the universal SPIR-V 1.2 rules instead, and the test says so.
#   spirv.golden.vecadd spirv-dis --no-header of vecadd.spv equals tests/golden/vecadd.spvasm
#                       (kcc runs in tests/kernels so the OpString file name is "vecadd.k").
#                       After an intended change: regenerate with the same command.
#   spirv_run.NAME      SPIR-V -> llvm-spirv-15 -r --spirv-target-env=CL1.2 -> bitcode ->
#                       PoCL's clCreateProgramWithBinary, run and compared with a host C
#                       reference (tests/spirv_run/spirv_run.c; host_ref.c runs control.k,
#                       int64.k and constant.k themselves on the host). Skipped (77) without
#                       llvm-spirv-15, an OpenCL CPU device, or a test for that kernel.
#
# A kernel whose compile prints anything on stderr fails: the corpus must compile cleanly.

find_program(KCC_SPIRV_VAL spirv-val)
find_program(KCC_SPIRV_DIS spirv-dis)
find_program(KCC_LLVM_SPIRV NAMES llvm-spirv-15 llvm-spirv)
foreach(_v KCC_SPIRV_VAL KCC_SPIRV_DIS KCC_LLVM_SPIRV)
  set(_kcc_${_v} "${${_v}}")
  if(NOT ${_v})
    set(_kcc_${_v} "")
  endif()
endforeach()

set(_kcc_spv_dir ${CMAKE_CURRENT_BINARY_DIR}/spirv)
file(MAKE_DIRECTORY ${_kcc_spv_dir})

# $1 kcc, $2 source, $3 output stem, $4 spirv-val, $5 spirv-dis (both may be empty).
set(_kcc_spv_sh [=[
set -e
err="$3.err"
"$1" "$2" -o "$3.spv" 2>"$err" || { cat "$err"; exit 1; }
if [ -s "$err" ]; then cat "$err"; echo "kcc printed diagnostics"; exit 1; fi
[ -s "$3.spv" ]
if [ -z "$4" ]; then echo "spirv-val not found: validated in process only"; exit 0; fi
env=opencl2.2
if [ -n "$5" ] && "$5" "$3.spv" | grep -q 'OpCapability Int64Atomics'; then
  echo "module uses Int64Atomics, which SPIRV-Tools' OpenCL environments reject: checking spv1.2"
  env=spv1.2
fi
if [ -n "$5" ] && "$5" "$3.spv" | grep -q '^; Version: 1.3'; then
  echo "SPIR-V 1.3 (GroupNonUniform subgroup operations): checking spv1.3"
  env=spv1.3
fi
"$4" --target-env $env "$3.spv"
]=])

file(GLOB _kcc_kernels CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.k)
foreach(_k ${_kcc_kernels})
  get_filename_component(_name ${_k} NAME_WE)
  add_test(NAME spirv.${_name}
           COMMAND sh -c "${_kcc_spv_sh}" sh $<TARGET_FILE:kcc> ${_k} ${_kcc_spv_dir}/${_name}
                   "${_kcc_KCC_SPIRV_VAL}" "${_kcc_KCC_SPIRV_DIS}")
  set_tests_properties(spirv.${_name} PROPERTIES TIMEOUT 120 LABELS spirv)
endforeach()

# $1 kcc, $2 tests dir, $3 output stem, $4 spirv-dis
set(_kcc_spv_golden_sh [=[
set -e
[ -n "$4" ] || { echo "spirv-dis not found, skipping"; exit 77; }
cd "$2/kernels"
"$1" vecadd.k -o "$3.spv"
"$4" --no-header "$3.spv" -o "$3.spvasm"
diff -u "$2/golden/vecadd.spvasm" "$3.spvasm"
]=])
add_test(NAME spirv.golden.vecadd
         COMMAND sh -c "${_kcc_spv_golden_sh}" sh $<TARGET_FILE:kcc> ${CMAKE_CURRENT_SOURCE_DIR}
                 ${_kcc_spv_dir}/golden_vecadd "${_kcc_KCC_SPIRV_DIS}")
set_tests_properties(spirv.golden.vecadd PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS spirv)

# spirv.subgroups.NAME: no OpenCL device here or on the GPU machine runs SPIR-V subgroups (PoCL
# 3 has none, NVIDIA's OpenCL takes no SPIR-V), so the SPIR-V of the subgroup kernels is read
# back by llvm-spirv (the translator Intel's and PoCL's drivers use) into OpenCL C builtin
# calls: the functions it calls, mangled with their argument types, must be exactly
# tests/golden/NAME.spirv-calls (the source's functions, ballot helpers by their parts).
find_program(KCC_LLVM_DIS NAMES llvm-dis-19 llvm-dis)
set(_kcc_spv_calls_sh [=[
set -e
[ -n "$4" ] && [ -n "$5" ] || { echo "llvm-spirv-15 or llvm-dis not found, skipping"; exit 77; }
"$1" -cl-std=CL2.0 "$2" -o "$3.spv"
"$4" -r --spirv-target-env=CL2.0 "$3.spv" -o "$3.bc"
"$5" "$3.bc" -o - | sed -n 's/^declare [^@]*@\([^(]*group[^(]*\)(.*/\1/p' | sort -u >"$3.calls"
diff -u "$6" "$3.calls"
]=])
set(_kcc_llvm_dis "${KCC_LLVM_DIS}")
if(NOT KCC_LLVM_DIS)
  set(_kcc_llvm_dis "")
endif()
foreach(_sg cl/subgroups runtime/cl_subgroups)
  get_filename_component(_name ${_sg} NAME)
  add_test(NAME spirv.subgroups.${_name}
           COMMAND sh -c "${_kcc_spv_calls_sh}" sh $<TARGET_FILE:kcc>
                   ${CMAKE_CURRENT_SOURCE_DIR}/${_sg}.cl ${_kcc_spv_dir}/calls_${_name}
                   "${_kcc_KCC_LLVM_SPIRV}" "${_kcc_llvm_dis}"
                   ${CMAKE_CURRENT_SOURCE_DIR}/golden/${_name}.spirv-calls)
  set_tests_properties(spirv.subgroups.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
                       LABELS spirv)
endforeach()

# Execution on PoCL through the SPIR 1.2 bitcode llvm-spirv makes.
find_library(KCC_OPENCL_LIB NAMES OpenCL)
find_path(KCC_OPENCL_INCLUDE CL/cl.h)
if(KCC_OPENCL_LIB AND KCC_OPENCL_INCLUDE)
  add_executable(spirv_run ${CMAKE_CURRENT_SOURCE_DIR}/spirv_run/spirv_run.c
                           ${CMAKE_CURRENT_SOURCE_DIR}/spirv_run/host_ref.c)
  target_include_directories(spirv_run PRIVATE ${KCC_OPENCL_INCLUDE})
  target_link_libraries(spirv_run PRIVATE ${KCC_OPENCL_LIB} m)

  # $1 kcc, $2 source, $3 output stem, $4 llvm-spirv (may be empty), $5 spirv_run, $6 test
  set(_kcc_spv_run_sh [=[
set -e
[ -n "$4" ] || { echo "llvm-spirv-15 not found, skipping"; exit 77; }
"$1" "$2" -o "$3.spv"
"$4" -r --spirv-target-env=CL1.2 "$3.spv" -o "$3.bc"
"$5" "$6" "$3.bc" "$3.spv"
]=])
  # The kernels spirv_run.c has a test for (its table); the other runtime kernels run their
  # libkcrt host program (tests/runtime/NAME.c) on the bundle's SPIR-V instead, so every
  # kernel with a host program runs as SPIR-V. (vec_csrc_ops and vec_llvm_ops have none: they
  # are compile-and-validate tests of the back ends; vec_ops runs their semantics.)
  set(_kcc_spv_run_tests vecadd saxpy reduce dynshared structs control int64 constant atomics
      printf histogram matmul stencil transpose fp64 math32 driver_bugs symbols vec_spirv_ops)
  foreach(_k ${_kcc_kernels})
    get_filename_component(_name ${_k} NAME_WE)
    if(_name IN_LIST _kcc_spv_run_tests)
      add_test(NAME spirv_run.${_name}
               COMMAND sh -c "${_kcc_spv_run_sh}" sh $<TARGET_FILE:kcc>
                       ${_k} ${_kcc_spv_dir}/run_${_name}
                       "${_kcc_KCC_LLVM_SPIRV}" $<TARGET_FILE:spirv_run> ${_name})
    elseif(_name IN_LIST KCRT_RUNTIME_KERNELS)
      add_test(NAME spirv_run.${_name}
               COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/bounds/run_spirv.sh $<TARGET_FILE:kcbinfo>
                       "${_kcc_KCC_LLVM_SPIRV}" $<TARGET_FILE:rt_${_name}> ${_rt_out}/${_name}.kcb)
      set_tests_properties(spirv_run.${_name} PROPERTIES
                           ENVIRONMENT "${KCC_LSAN};XDG_CACHE_HOME=${_rt_out}/cache")
    else()
      continue()
    endif()
    set_tests_properties(spirv_run.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                         LABELS spirv)
  endforeach()
endif()

# Vector KIR built by hand (tests/spirv_run/vec_kir.c): the SPIR-V back end's vectors,
# swizzles, vector builtins, local-memory parameters and reqd_work_group_size, run on PoCL
# whatever the front ends support.
add_executable(vec_kir ${CMAKE_CURRENT_SOURCE_DIR}/spirv_run/vec_kir.c)
target_link_libraries(vec_kir PRIVATE kcc_core)
add_test(NAME spirv.vec_kir
         COMMAND sh -c "$1 $2.spv && { [ -z \"$3\" ] || \"$3\" --target-env opencl2.2 $2.spv; }"
                 sh $<TARGET_FILE:vec_kir> ${_kcc_spv_dir}/vec_kir "${_kcc_KCC_SPIRV_VAL}")
set_tests_properties(spirv.vec_kir PROPERTIES TIMEOUT 60 LABELS spirv)
if(KCC_OPENCL_LIB AND KCC_OPENCL_INCLUDE)
  set(_kcc_vec_kir_sh [=[
set -e
[ -n "$3" ] || { echo "llvm-spirv-15 not found, skipping"; exit 77; }
"$1" "$2.spv"
"$3" -r --spirv-target-env=CL1.2 "$2.spv" -o "$2.bc"
"$4" vec_kir "$2.bc" "$2.spv"
]=])
  add_test(NAME spirv_run.vec_kir
           COMMAND sh -c "${_kcc_vec_kir_sh}" sh $<TARGET_FILE:vec_kir> ${_kcc_spv_dir}/run_vec_kir
                   "${_kcc_KCC_LLVM_SPIRV}" $<TARGET_FILE:spirv_run>)
  set_tests_properties(spirv_run.vec_kir PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS spirv)
endif()
