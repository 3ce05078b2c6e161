# ptx.cmake — the LLVM/PTX back end on the kernel corpus (tests/kernels/*.k).
#
#   ptx.NAME   kcc NAME.k -o NAME.ptx -arch=sm_90 (default -O3), then ptxas -arch=sm_90 on
#              it. Without ptxas the PTX is still generated, then the test is skipped (77).
#   llvm.NAME  kcc --emit=llvm -O0 -arch=sm_75 (the textual IR must parse with llvm-as when
#              it is installed), then -O0 PTX for sm_75 through ptxas -arch=sm_75 when present.
#
# A kernel whose compile prints anything on stderr fails: the corpus must compile cleanly.

find_program(KCC_PTXAS ptxas PATHS /usr/local/cuda/bin ENV CUDA_PATH ENV CUDA_HOME
             PATH_SUFFIXES bin)
find_program(KCC_LLVM_AS NAMES llvm-as-19 llvm-as PATHS /usr/lib/llvm-19/bin NO_DEFAULT_PATH)
if(NOT KCC_LLVM_AS)
  find_program(KCC_LLVM_AS NAMES llvm-as-19)
endif()
set(_kcc_ptxas "${KCC_PTXAS}")
if(NOT KCC_PTXAS)
  set(_kcc_ptxas "")
endif()
set(_kcc_llvm_as "${KCC_LLVM_AS}")
if(NOT KCC_LLVM_AS)
  set(_kcc_llvm_as "")
endif()

set(_kcc_ptx_dir ${CMAKE_CURRENT_BINARY_DIR}/ptx)
file(MAKE_DIRECTORY ${_kcc_ptx_dir})

# $1 kcc, $2 source, $3 output stem, $4 ptxas (may be empty). Fails on any stderr output.
set(_kcc_ptx_sh [=[
set -e
err="$3.err"
"$1" "$2" -o "$3.ptx" -arch=sm_90 2>"$err" || { cat "$err"; exit 1; }
if [ -s "$err" ]; then cat "$err"; echo "kcc printed diagnostics"; exit 1; fi
if [ -z "$4" ]; then echo "ptxas not found, skipping"; exit 77; fi
"$4" -arch=sm_90 "$3.ptx" -o "$3.cubin"
]=])

# $1 kcc, $2 source, $3 output stem, $4 ptxas (may be empty), $5 llvm-as (may be empty).
set(_kcc_llvm_sh [=[
set -e
err="$3.err"
"$1" --emit=llvm -O0 -arch=sm_75 "$2" -o "$3.O0.ll" 2>"$err" || { cat "$err"; exit 1; }
if [ -s "$err" ]; then cat "$err"; echo "kcc printed diagnostics"; exit 1; fi
grep -q 'target triple = "nvptx64-nvidia-cuda"' "$3.O0.ll"
if [ -n "$5" ]; then "$5" "$3.O0.ll" -o /dev/null; fi
"$1" -O0 -arch=sm_75 "$2" -o "$3.O0.ptx" 2>"$err" || { cat "$err"; exit 1; }
grep -q '^.target sm_75' "$3.O0.ptx"
if [ -n "$4" ]; then "$4" -arch=sm_75 "$3.O0.ptx" -o "$3.O0.cubin"; fi
]=])

file(GLOB _kcc_kernels CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.k)
foreach(_k ${_kcc_kernels})
  get_filename_component(_name ${_k} NAME_WE)
  add_test(NAME ptx.${_name}
           COMMAND sh -c "${_kcc_ptx_sh}" sh $<TARGET_FILE:kcc> ${_k}
                   ${_kcc_ptx_dir}/${_name} "${_kcc_ptxas}")
  set_tests_properties(ptx.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120 LABELS ptx)
  add_test(NAME llvm.${_name}
           COMMAND sh -c "${_kcc_llvm_sh}" sh $<TARGET_FILE:kcc> ${_k}
                   ${_kcc_ptx_dir}/${_name}.sm75 "${_kcc_ptxas}" "${_kcc_llvm_as}")
  set_tests_properties(llvm.${_name} PROPERTIES TIMEOUT 120 LABELS ptx)
endforeach()
