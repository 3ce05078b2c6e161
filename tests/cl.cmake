# cl.cmake — OpenCL C input (tests/cl/*.cl).
#
#   cl.NAME.FORM   kcc NAME.cl --emit=FORM for FORM in kir ptx spirv cl cuda, then the form's
#                  consumer (tests/consume.sh: ptxas, spirv-val, clang -x cl, nvcc). Any
#                  diagnostic fails. A `// kcc-args: ...` line adds options, here as for
#                  the golden KIR (unit/test_opencl_fe.c) and the runtime bundles
#                  (no_kernel.cl, a file of no kernel, takes -w: kcc warns about it).
#   cl.bad.NAME    tests/cl/bad/NAME.cl fails with exit 1, no output, and its first
#                  diagnostic is "NAME.cl:" followed by NAME.expected (`// kcc-args: ...` adds
#                  options). The exact KIR of each kernel is checked by unit/test_opencl_fe.c.

set(_kcc_cl_dir ${CMAKE_CURRENT_BINARY_DIR}/cl)
file(MAKE_DIRECTORY ${_kcc_cl_dir})

# $1 kcc, $2 source, $3 form, $4 output, $5 consume.sh (also used by cu.cmake). A
# `// kcc-args: ...` line in the source adds options (-cl-std=CL2.0).
set(_kcc_cl_sh [=[
set -e
err="$4.err"
rm -f "$4"
args=$(sed -n 's,^// kcc-args: ,,p' "$2")
"$1" $args "$2" --emit=$3 -o "$4" 2>"$err" || { cat "$err"; exit 1; }
# A header's bundle leaves out the forms the kernel cannot be written in (each form's own
# test pins why): those warnings are expected there, nothing else is.
[ "$3" != header ] || { grep -v -e '^kcc: warning: the bundle carries no ' \
  -e '^kcc: warning: the bundle has no OpenCL form' "$err" >"$err.rest" || true; mv "$err.rest" "$err"; }
if [ -s "$err" ]; then cat "$err"; echo "kcc printed diagnostics"; exit 1; fi
[ "$3" = kir ] || sh "$5" "$4"
]=])

# $1 kcc, $2 source, $3 expected file, $4 output[, $5 one] (also used by cu.cmake)
set(_kcc_cl_bad_sh [=[
args=$(sed -n 's,^// kcc-args: ,,p' "$2")
rm -f "$4"
err=$(cd "$(dirname "$2")" && "$1" $args "$(basename "$2")" --emit=kir -o "$4" 2>&1)
st=$?
[ $st -eq 1 ] || { echo "exit $st, expected 1"; echo "$err"; exit 1; }
[ ! -e "$4" ] || { echo "left an output file"; exit 1; }
want="$(basename "$2"):$(cat "$3")"
got=$(printf '%s\n' "$err" | grep -m1 'error:')
[ "$got" = "$want" ] || { echo "got:  $got"; echo "want: $want"; exit 1; }
# $5 = one: the construct gets one diagnostic, no cascade.
n=$(printf '%s\n' "$err" | grep -c 'error:')
[ "$5" != one ] || [ "$n" -eq 1 ] || { echo "$n errors, expected one:"; echo "$err"; exit 1; }
]=])

# _kcc_input_form_test(PREFIX NAME SOURCE FORM OUTDIR LABEL): PREFIX.NAME.FORM runs
# _kcc_cl_sh on SOURCE (also used by cu.cmake).
function(_kcc_input_form_test prefix name src form outdir label)
  set(_ext ${form})
  if(form STREQUAL "spirv")
    set(_ext spv)
  elseif(form STREQUAL "cuda")
    set(_ext cu)
  elseif(form STREQUAL "header")
    set(_ext h)
  endif()
  add_test(NAME ${prefix}.${name}.${form}
           COMMAND sh -c "${_kcc_cl_sh}" sh $<TARGET_FILE:kcc> ${src} ${form}
                   ${outdir}/${name}.kcc.${_ext} ${CMAKE_CURRENT_SOURCE_DIR}/consume.sh)
  set_tests_properties(${prefix}.${name}.${form} PROPERTIES TIMEOUT 120 LABELS ${label})
endfunction()

file(GLOB _kcc_cl_kernels CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cl/*.cl)
# The OpenCL C kernels the runtime tests run (runtime.cmake) get every form checked too.
list(APPEND _kcc_cl_kernels ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_vecfn.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_fp16.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_contract.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_intrel.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_subgroups.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_sgsize.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_mathfn.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_images.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_wgfn.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_intdot.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_goto.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_switch.cl)
foreach(_k ${_kcc_cl_kernels})
  get_filename_component(_name ${_k} NAME_WE)
  foreach(_form kir ptx spirv cl cuda)
    _kcc_input_form_test(cl ${_name} ${_k} ${_form} ${_kcc_cl_dir} opencl-input)
  endforeach()
endforeach()

file(GLOB _kcc_cl_bad CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cl/bad/*.cl)
foreach(_k ${_kcc_cl_bad})
  get_filename_component(_name ${_k} NAME_WE)
  get_filename_component(_dir ${_k} DIRECTORY)
  add_test(NAME cl.bad.${_name}
           COMMAND sh -c "${_kcc_cl_bad_sh}" sh $<TARGET_FILE:kcc> ${_k}
                   ${_dir}/${_name}.expected ${_kcc_cl_dir}/bad.${_name}.kir)
  set_tests_properties(cl.bad.${_name} PROPERTIES TIMEOUT 60 LABELS opencl-input)
endforeach()
