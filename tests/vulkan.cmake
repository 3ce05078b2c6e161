# vulkan.cmake — the Vulkan form (kcc x.k -o x.vk.spv) and libkcrt's Vulkan back end.
#
#   vulkan.spirv.NAME   kcc NAME.k -o NAME.vk.spv for the corpus kernels the form supports
#                       (tests/kernels), tests/vulkan/{flow,...,divzero}.k, cl/printf_args.cl
#                       and cu/ptr_spaces.cu (below): no
#                       diagnostic, then
#                       spirv-val --target-env vulkan1.2 on the file (kcc validated in process).
#   vulkan.spirv13.NAME_EXT  the same for tests/vulkan/NAME.EXT, then spirv-val --target-env
#                       vulkan1.3 too (issue 27's closed refusals: mul_hi, shared float atomics,
#                       pointers into dynamic shared memory: tests/runtime/cuda_dynptr.cu;
#                       vectors of 8 and 16 components: tests/runtime/cl_vec16.cl).
#   vulkan.bad.NAME     tests/vulkan/bad/NAME.k (or .cl, .cu) fails with exit 1, no output file, and its first
#                       diagnostic is "NAME.k:" followed by NAME.expected: what the form
#                       cannot express yet is refused, never written invalid.
#   vulkan.form         -o x.vk.spv and --emit=vkspv write the same bytes, a Shader module with
#                       a GLCompute entry point; -o x.spv is still the OpenCL form.

find_program(KCC_VK_SPIRV_VAL spirv-val)
find_program(KCC_VK_SPIRV_DIS spirv-dis)
set(_vk_val "${KCC_VK_SPIRV_VAL}")
if(NOT KCC_VK_SPIRV_VAL)
  set(_vk_val "")
endif()
set(_vk_dis "${KCC_VK_SPIRV_DIS}")
if(NOT KCC_VK_SPIRV_DIS)
  set(_vk_dis "")
endif()
set(_vk_dir ${CMAKE_CURRENT_BINARY_DIR}/vulkan)
file(MAKE_DIRECTORY ${_vk_dir})

# The corpus kernels the Vulkan form takes whole (the others use what it refuses yet:
# docs/cli.md, "The Vulkan form").
set(KCC_VK_KERNELS vecadd saxpy reduce atomics control stencil matmul transpose int64 constant
    dynshared cuda_spellings driver_bugs structs
    histogram vec_spirv_ops symbols printf fp64 math32 vec_ops)

# $1 kcc, $2 source, $3 output, $4 spirv-val (may be empty); a `// kcc-args: ...` line in the
# source adds options, as tests/runtime/make_bundle.sh reads it.
set(_vk_spv_sh [=[
set -e
args=$(sed -n 's,^// kcc-args: ,,p' "$2")
# shellcheck disable=SC2086
"$1" $args "$2" -o "$3" 2>"$3.err" || { cat "$3.err"; exit 1; }
if [ -s "$3.err" ]; then cat "$3.err"; echo "kcc printed diagnostics"; exit 1; fi
[ -s "$3" ]
if [ -z "$4" ]; then echo "spirv-val not found: validated in process only"; exit 0; fi
"$4" --target-env vulkan1.2 "$3"
]=])
set(_vk_sources)
foreach(_name ${KCC_VK_KERNELS})
  list(APPEND _vk_sources ${CMAKE_CURRENT_SOURCE_DIR}/kernels/${_name}.k)
endforeach()
foreach(_name flow params frames divguard ieee divzero sharedptr spill vkprintf wrapatomic)
  list(APPEND _vk_sources ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/${_name}.k)
endforeach()
# OpenCL C and CUDA files of the other suites whose Vulkan form has its own cases: printf
# arguments no conversion takes; pointers to pointers of two spaces (refused by OpenCL only).
list(APPEND _vk_sources ${CMAKE_CURRENT_SOURCE_DIR}/cl/printf_args.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/cu/ptr_spaces.cu)
# Images (issue 30): tests/runtime's and tests/vulkan's own image kernels.
list(APPEND _vk_sources ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_images.cl
     ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/images.cl)
# kcc's own float math (issue 27): the CUDA spellings and OpenCL C's vectors and prelude
# functions over them (sinpi, pown, rootn, powr, sincos).
list(APPEND _vk_sources ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/mathfn.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/mathvec.cl)
# Issue 27's closed refusals, validated for Vulkan 1.3 as well: mul_hi and mad_hi (OpenCL C),
# CUDA's __[u]mul[64]hi; float atomics on static shared memory; pointers into, float atomics
# on and two element types over dynamic shared memory (run by vulkan.run.cuda_dynptr); vectors
# of 8 and 16 components (run by vulkan.run.cl_vec16).
set(_vk_spv13_sh "${_vk_spv_sh}\n\"$4\" --target-env vulkan1.3 \"$3\"\n")
foreach(_src ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/mulhi.cl ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/mulhi.cu
        ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/shared_fatomic.cu
        ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_dynptr.cu
        ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cl_vec16.cl)
  get_filename_component(_name ${_src} NAME)
  string(REPLACE "." "_" _name ${_name})
  add_test(NAME vulkan.spirv13.${_name}
           COMMAND sh -c "${_vk_spv13_sh}" sh $<TARGET_FILE:kcc> ${_src}
                   ${_vk_dir}/${_name}.vk.spv "${_vk_val}")
  set_tests_properties(vulkan.spirv13.${_name} PROPERTIES TIMEOUT 60 LABELS vulkan)
endforeach()
foreach(_src ${_vk_sources})
  get_filename_component(_name ${_src} NAME_WE)
  add_test(NAME vulkan.spirv.${_name}
           COMMAND sh -c "${_vk_spv_sh}" sh $<TARGET_FILE:kcc> ${_src}
                   ${_vk_dir}/${_name}.vk.spv "${_vk_val}")
  set_tests_properties(vulkan.spirv.${_name} PROPERTIES TIMEOUT 60 LABELS vulkan)
endforeach()

# $1 kcc, $2 source, $3 expected, $4 output
set(_vk_bad_sh [=[
rm -f "$4"
err=$(cd "$(dirname "$2")" && "$1" "$(basename "$2")" -o "$4" 2>&1)
st=$?
[ $st -eq 1 ] || { echo "exit $st, expected 1"; echo "$err"; exit 1; }
[ ! -e "$4" ] || { echo "left an output file"; exit 1; }
printf '%s\n' "$err" | grep -q 'internal compiler error' && { echo "$err"; exit 1; }
want="$(basename "$2"):$(cat "$3")"
got=$(printf '%s\n' "$err" | grep -m1 'error:')
[ "$got" = "$want" ] || { echo "got:  $got"; echo "want: $want"; exit 1; }
]=])
file(GLOB _vk_bad CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/bad/*.k
     ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/bad/*.cl ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/bad/*.cu)
foreach(_k ${_vk_bad})
  get_filename_component(_name ${_k} NAME_WE)
  get_filename_component(_d ${_k} DIRECTORY)
  add_test(NAME vulkan.bad.${_name}
           COMMAND sh -c "${_vk_bad_sh}" sh $<TARGET_FILE:kcc> ${_k} ${_d}/${_name}.expected
                   ${_vk_dir}/bad.${_name}.vk.spv)
  set_tests_properties(vulkan.bad.${_name} PROPERTIES TIMEOUT 60 LABELS vulkan)
endforeach()

# $1 kcc, $2 vecadd.k, $3 out dir, $4 spirv-dis
set(_vk_form_sh [=[
set -e
[ -n "$4" ] || { echo "spirv-dis not found"; exit 77; }
"$1" "$2" -o "$3/form.vk.spv"
"$1" "$2" --emit=vkspv -o "$3/form.emit"
cmp "$3/form.vk.spv" "$3/form.emit"
"$4" "$3/form.vk.spv" > "$3/form.vk.txt"
grep -q '^ *OpCapability Shader$' "$3/form.vk.txt"
grep -q 'OpMemoryModel PhysicalStorageBuffer64 GLSL450' "$3/form.vk.txt"
grep -q 'OpEntryPoint GLCompute %[0-9a-z_]* "vecadd"' "$3/form.vk.txt"
! grep -q 'OpCapability Kernel' "$3/form.vk.txt"
"$1" "$2" -o "$3/form.spv"
"$4" "$3/form.spv" | grep -q '^ *OpCapability Kernel$'
]=])
add_test(NAME vulkan.form
         COMMAND sh -c "${_vk_form_sh}" sh $<TARGET_FILE:kcc>
                 ${CMAKE_CURRENT_SOURCE_DIR}/kernels/vecadd.k ${_vk_dir} "${_vk_dis}")
set_tests_properties(vulkan.form PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77 LABELS vulkan)

# Runs on the Vulkan device (lavapipe here) through libkcrt, with the validation layer
# (tests/vulkan/run.sh fails on any of its messages; exit 77 when there is no Vulkan device):
#   vulkan.run.NAME     tests/runtime/NAME.c on its corpus kernel's bundle (KCC_VK_KERNELS
#                       less vec_spirv_ops, which has no host program): random inputs, every
#                       element against the host reference.
#   vulkan.run.cuda_devvar tests/runtime/cuda_devvar.c on cuda_devvar.cu: CUDA __device__
#                       variables (initial values, atomics, host reads and writes between
#                       launches) in buffers whose addresses the kernels take as push constants;
#                       vulkan.run.symbols likewise host-filled constants.
#   vulkan.run.flow     tests/vulkan/flow.c on flow.k: structured control flow against the host.
#   vulkan.run.params   tests/vulkan/params.c on params.k: every parameter kind and alignment of
#                       the push constants, read back exactly.
#   vulkan.run.frames   tests/vulkan/frames.c on frames.k: locals whose address escapes, kept
#                       in each invocation's frame, on a 2-D grid.
#   vulkan.run.divguard tests/vulkan/divguard.c on divguard.k: guarded undefined divisions
#                       that lavapipe's compiler died on (docs/driver-bugs.md 18).
#   vulkan.run.ieee     tests/vulkan/ieee.c on ieee.k: float division, sqrt and fmaf (and
#                       double division and sqrt) bit for bit against the host.
#   vulkan.run.divzero  tests/vulkan/divzero.c on divzero.k: division by zeros the driver can
#                       and cannot see, bit for bit (docs/driver-bugs.md 22).
#   vulkan.run.sharedptr tests/vulkan/sharedptr.c on sharedptr.k: shared arrays whose address
#                       escapes (the workgroup's block), in place ones beside them.
#   vulkan.run.spill    tests/vulkan/spill.c on spill.k: 180 bytes of parameters (past the
#                       push constants: a buffer per launch) with a symbol's and the frame's
#                       addresses after them.
#   vulkan.run.vkprintf tests/vulkan/vkprintf.c on vkprintf.k: printf's conversions, flags,
#                       widths, 64-bit values and string literals through the print buffer,
#                       against the host's printf (vulkan.run.printf runs tests/kernels').
#   vulkan.run.wrapatomic tests/vulkan/wrapatomic.c on wrapatomic.k: atomicInc and atomicDec
#                       (a compare-exchange loop per subgroup) on words of several bounds,
#                       final values and returned values against the same operations in turn.
#   vulkan.run.images   tests/vulkan/images.c on images.cl: every channel order and data type
#                       (reads with and without samplers, every sampler mode, writes, read_write)
#                       and every image type's layout, against a host reference (and
#                       vulkan.run.cl_images: tests/runtime/cl_images.c, every image type and
#                       sampler on four formats).
#   vulkan.run.mathfn   tests/vulkan/mathfn.c on mathfn.cu: kcc's own math (spirv_vkmath.c), 34
#                       float and 32 double functions (tgamma and lgamma among them), on
#                       random, ranged and special arguments, each within its claimed ulp bound of the host's long double libm; and
#                       64-bit clz and popcount.
#   vulkan.run.cuda_texobj tests/runtime/cuda_texobj.c on cuda_texobj.cu: CUDA texture and
#                       surface objects made by libkcrt over its images, every read family,
#                       format and sampler mode exact against the host reference (kcc's software
#                       sampling), surfaces bit for bit.
#   vulkan.api          tests/vulkan/api.c: device info, the named errors, views, block shapes,
#                       queues and events, fills and copies at odd offsets, large transfers.
# lavapipe keeps denormals without promising to (shaderDenormPreserveFloat32 is false there):
# every denormal case is checked all the same (rt_flushes, tests/runtime/rt_common.h).
set(_vk_env "KCC_DEVICE=vulkan;XDG_CACHE_HOME=${_rt_out}/cache-vulkan;KCRT_TEST_DENORMALS=strict")
# vulkan.run.NAME: PROGRAM (a target) on BUNDLE through tests/vulkan/run.sh.
# cuda_texobj builds a pipeline per format and sampler kind under the validation layer: 141 s on
# a fresh cache, over 300 s under ASan on a loaded 2-core machine.
function(_kcc_vk_run name program bundle)
  add_test(NAME vulkan.run.${name}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/run.sh $<TARGET_FILE:${program}> ${bundle})
  set(timeout 300)
  if(name STREQUAL cuda_texobj)
    set(timeout 900)
  endif()
  set_tests_properties(vulkan.run.${name} PROPERTIES
    SKIP_RETURN_CODE 77 TIMEOUT ${timeout} LABELS vulkan ENVIRONMENT "${_vk_env}")
endfunction()

# The corpus kernels the form takes, and runtime tests' own kernels (tests/runtime/NAME.cu or
# .cl) that it takes whole: OpenCL C's work-item, work-group and subgroup functions, integer dot
# products, printf, math functions (cl_mathfn: sinpi ... lgamma_r, with kcc's own math); CUDA's
# __device__ variables, fp8, lambdas, launches and names, and (with kcc's own math,
# spirv_vkmath.c) its math functions, SIMD intrinsics, fp16, bf16 and std::; vectors of 8 and
# 16 components (cl_vec16: every operation family on six element types; cl_vecfn, cl_intrel).
set(KCC_VK_OWN_KERNELS cuda_devvar cuda_fp8 cuda_hostprog cuda_lambda cuda_launch cuda_names
    cuda_ptrref cuda_api cuda_bf16 cuda_fp16 cuda_idioms cuda_mathfn cuda_stdlib cuda_texobj
    cl_chatter cl_contract cl_intdot cl_mathfn cl_printf cl_subgroups cl_wgfn cl_workitem
    cl_images cuda_dynptr cl_switch cl_vec16 cl_vecfn cl_intrel cl_wrap8)
foreach(_name ${KCC_VK_KERNELS} ${KCC_VK_OWN_KERNELS})
  if(TARGET rt_${_name})
    _kcc_vk_run(${_name} rt_${_name} ${_rt_out}/${_name}.kcb)
  endif()
endforeach()

# Kernels kept beside their host program in tests/vulkan/.
foreach(_src flow.k params.k frames.k divguard.k ieee.k divzero.k sharedptr.k spill.k vkprintf.k
        wrapatomic.k images.cl mathfn.cu)
  get_filename_component(_name ${_src} NAME_WE)
  add_custom_command(OUTPUT ${_vk_dir}/${_name}.kcb.stamp
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/runtime/make_bundle.sh $<TARGET_FILE:kcc>
            ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/${_src} ${_vk_dir}/${_name}.kcb
    COMMAND ${CMAKE_COMMAND} -E touch ${_vk_dir}/${_name}.kcb.stamp
    BYPRODUCTS ${_vk_dir}/${_name}.kcb
    DEPENDS kcc ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/${_src}
            ${CMAKE_CURRENT_SOURCE_DIR}/runtime/make_bundle.sh
    COMMENT "kcc ${_name}.k -o ${_name}.kcb"
    VERBATIM)
  add_executable(vk_${_name} ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/${_name}.c
                 ${_vk_dir}/${_name}.kcb.stamp)
  target_link_libraries(vk_${_name} PRIVATE kcrt_rt_common)
  _kcc_vk_run(${_name} vk_${_name} ${_vk_dir}/${_name}.kcb)
endforeach()

add_executable(vk_api ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/api.c ${_rt_out}/vecadd.kcb.stamp
               ${_rt_out}/cuda_asm.kcb.stamp)
target_link_libraries(vk_api PRIVATE kcrt_rt_common)
add_test(NAME vulkan.api
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/run.sh $<TARGET_FILE:vk_api>
                 ${_rt_out}/vecadd.kcb ${_rt_out}/cuda_asm.kcb)
set_tests_properties(vulkan.api PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS vulkan ENVIRONMENT "${_vk_env}")

# vulkan.devices  kcc --devices: lavapipe listed only for KCC_DEVICE=vulkan and named in the
#                 Vulkan note otherwise; vulkan, vk, vulkan:0 select it (tests/vulkan/devices.sh).
add_test(NAME vulkan.devices COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/vulkan/devices.sh
                                     $<TARGET_FILE:kcc>)
set_tests_properties(vulkan.devices PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS vulkan)

# vulkan.pipeline_cache  a module's pipeline cache goes to libkcrt's disk cache after a pipeline
#                        is built, and the next run of the program starts from it (KCC_LOG).
set(_vk_pc_sh [=[
dir="$3/pc-cache"
rm -rf "$dir"
export XDG_CACHE_HOME="$dir" KCC_LOG=1 KCC_DEVICE=vulkan
out=$("$1" "$2" 2>&1); st=$?
[ $st -eq 77 ] && { echo "$out"; exit 77; }
[ $st -eq 0 ] || { echo "$out"; exit 1; }
echo "$out" | grep -q 'kcrt: cache: stored .*' || { echo "$out"; echo "nothing stored"; exit 1; }
out=$("$1" "$2" 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -q 'kcrt: vulkan: pipeline cache of [0-9]* bytes from disk' ||
  { echo "$out"; echo "the second run did not start from the disk cache"; exit 1; }
]=])
add_test(NAME vulkan.pipeline_cache
         COMMAND sh -c "${_vk_pc_sh}" sh $<TARGET_FILE:rt_vecadd> ${_rt_out}/vecadd.kcb ${_vk_dir})
set_tests_properties(vulkan.pipeline_cache PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
                     LABELS vulkan)

# vulkan.random  tests/random/rkdiff.py's vk path on seeds whose 60 kernels all compile to the
#                Vulkan form (2 and 4 pass pointers into shared memory to functions): each run
#                through libkcrt on lavapipe under the validation layer and compared bit for bit
#                with the host reference. (Other seeds still find
#                what the form refuses or gets wrong: `rkdiff.py --paths vk`, docs/testing.md.)
find_package(Python3 COMPONENTS Interpreter QUIET)
find_program(KCC_VK_CLANG19 clang-19)
if(Python3_FOUND AND KCC_VK_CLANG19 AND TARGET rk_run)
  add_test(NAME vulkan.random
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/random/rkdiff.py
                   --kcc $<TARGET_FILE:kcc> --rk-run $<TARGET_FILE:rk_run> --clang ${KCC_VK_CLANG19}
                   --seeds 2,4,2005,2006,2009,2010 -k 10 -j 2 --paths vk --work ${_vk_dir}/random)
  set_tests_properties(vulkan.random PROPERTIES TIMEOUT 600 LABELS vulkan)
endif()
