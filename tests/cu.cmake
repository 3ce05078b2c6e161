# cu.cmake — CUDA input (.cu): the C++ front end (frontend/cuda/cuda.c).
#
#   cu.NAME.FORM   kcc NAME.cu --emit=FORM for the .cu kernels of tests/cu/ and
#                  tests/runtime/cuda_cxx.cu, cuda_lambda.cu, cuda_devvar.cu, cuda_fp16.cu,
#                  cuda_bf16.cu, cuda_fp8.cu, cuda_union.cu and cuda_mathfn.cu, then the form's consumer (tests/consume.sh:
#                  ptxas, spirv-val, clang -x cl, nvcc, cc for the header). Any diagnostic fails. (coop.cu's warp
#                  operations are SPIR-V 1.3 since session 34.) cuda_asm.cu's (inline PTX) and
#                  textures.cu's (texture and surface objects) spirv and cl forms must be refused
#                  with the pinned diagnostic instead, and
#                  ptr_spaces.cu's (a pointer to a pointer whose inner pointer takes two
#                  spaces) spirv and cl forms, and generic_ptr.cu's (a pointer to global,
#                  shared or private memory: generic, which PTX and CUDA C keep) spirv, cl and
#                  header forms, each refusal naming its form. no_kernel.cu (device functions
#                  and a constant only) gets every form with no entry point (`-w`: kcc warns).
#   cu.bad.NAME    tests/cu/bad/NAME.cu fails with exit 1, no output, exactly one error, and
#                  that error is "NAME.cu:" followed by NAME.expected; tests/cu/bad_cascade/
#                  NAME.cu the same with clang's further errors allowed.
# runtime.cuda_cxx (runtime.cmake) runs cuda_cxx.cu through libkcrt against host references;
# real-world CUDA files are the registry corpus's (tests/corpus, corpus.cmake). The shell
# steps are cl.cmake's.

set(_kcc_cu_dir ${CMAKE_CURRENT_BINARY_DIR}/cu)
file(MAKE_DIRECTORY ${_kcc_cu_dir})

file(GLOB _kcc_cu_kernels CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cu/*.cu)
list(APPEND _kcc_cu_kernels ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_cxx.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_stdlib.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_lambda.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_devvar.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_hostprog.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_api.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_fp16.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_bf16.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_fp8.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_union.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_mathfn.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_launch.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_asm.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_ptrref.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_texobj.cu ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_tex.cu
     ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_dynptr.cu)
foreach(_k ${_kcc_cu_kernels})
  get_filename_component(_name ${_k} NAME_WE)
  foreach(_form kir ptx spirv cl cuda header)
    if(((_name STREQUAL "cuda_asm" OR _name STREQUAL "textures" OR _name STREQUAL "ptr_spaces" OR
         _name STREQUAL "generic_ptr") AND (_form STREQUAL "spirv" OR _form STREQUAL "cl")) OR
       (_name STREQUAL "generic_ptr" AND _form STREQUAL "header"))
      if(_name STREQUAL "generic_ptr")
        set(_generic_ptr_forms_spirv "the OpenCL SPIR-V form (.spv) needs one address space per pointer")
        set(_generic_ptr_forms_cl "the OpenCL C form (.cl) needs one address space per pointer")
        set(_generic_ptr_forms_header "the header's bundle (.h) needs one address space per pointer for its OpenCL C and SPIR-V")
        set(_refusal "generic_ptr.cu:20:37: error: this expression may point to shared and private memory; ${_generic_ptr_forms_${_form}}")
      elseif(_name STREQUAL "ptr_spaces" AND _form STREQUAL "spirv")
        set(_refusal "ptr_spaces.cu:5:8: error: pointer to global memory used where a pointer to shared memory is needed; the OpenCL SPIR-V form (.spv) needs one address space per pointer")
      elseif(_name STREQUAL "ptr_spaces")
        set(_refusal "ptr_spaces.cu:5:8: error: pointer to global memory used where a pointer to shared memory is needed; the OpenCL C form (.cl) needs one address space per pointer")
      elseif(_form STREQUAL "spirv")
        set(_refusal "is not available in SPIR-V output")
      else()
        set(_refusal "is not available in OpenCL C output")
      endif()
      if(_name STREQUAL "textures")
        # Texture objects are images there, one image type each: t1 is read as two.
        string(REPLACE "is not" "textures.cu:64:3: error: tex1D is not" _refusal "${_refusal}")
        string(APPEND _refusal ": the texture object 't1' is read as a 1D image here and as a 1D linear (tex1Dfetch) image at line 63")
      endif()
      add_test(NAME cu.${_name}.${_form} COMMAND sh -c "
        ! \"$1\" \"$2\" --emit=$4 -o \"$3\" 2>\"$3.err\" || exit 1
        grep -q \"$5\" \"$3.err\" || { cat \"$3.err\"; exit 1; }
        [ ! -e \"$3\" ]" sh $<TARGET_FILE:kcc> ${_k} ${_kcc_cu_dir}/${_name}.kcc.${_form} ${_form}
        "${_refusal}")
      set_tests_properties(cu.${_name}.${_form} PROPERTIES TIMEOUT 120 LABELS cuda-input)
    else()
      _kcc_input_form_test(cu ${_name} ${_k} ${_form} ${_kcc_cu_dir} cuda-input)
    endif()
  endforeach()
endforeach()

file(GLOB _kcc_cu_bad CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cu/bad/*.cu)
foreach(_k ${_kcc_cu_bad})
  get_filename_component(_name ${_k} NAME_WE)
  get_filename_component(_dir ${_k} DIRECTORY)
  add_test(NAME cu.bad.${_name}
           COMMAND sh -c "${_kcc_cl_bad_sh}" sh $<TARGET_FILE:kcc> ${_k}
                   ${_dir}/${_name}.expected ${_kcc_cu_dir}/bad.${_name}.kir one)
  set_tests_properties(cu.bad.${_name} PROPERTIES TIMEOUT 60 LABELS cuda-input)
endforeach()

# tests/cu/bad_cascade/NAME.cu: as cu.bad.NAME, but clang's own errors after the first are
# expected too (an explicit instantiation clang cannot read gives one per unknown name).
file(GLOB _kcc_cu_bad_cascade CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/cu/bad_cascade/*.cu)
foreach(_k ${_kcc_cu_bad_cascade})
  get_filename_component(_name ${_k} NAME_WE)
  get_filename_component(_dir ${_k} DIRECTORY)
  add_test(NAME cu.bad.${_name}
           COMMAND sh -c "${_kcc_cl_bad_sh}" sh $<TARGET_FILE:kcc> ${_k}
                   ${_dir}/${_name}.expected ${_kcc_cu_dir}/bad.${_name}.kir)
  set_tests_properties(cu.bad.${_name} PROPERTIES TIMEOUT 60 LABELS cuda-input)
endforeach()

# CUDA's fast intrinsics (__expf...) take each form's fast version, the precise functions not.
find_program(KCC_CU_SPIRV_DIS NAMES spirv-dis)
add_test(NAME cu.fastmath
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cu/fastmath.sh $<TARGET_FILE:kcc>
                 "$<$<BOOL:${KCC_CU_SPIRV_DIS}>:${KCC_CU_SPIRV_DIS}>" ${_kcc_cu_dir}/fastmath)
set_tests_properties(cu.fastmath PROPERTIES TIMEOUT 120 LABELS cuda-input)

# System-scope atomics: atom.sys in the PTX, sm_60 needed (tests/cu/sysatomic.sh).
add_test(NAME cu.sysatomic.atom_sys
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cu/sysatomic.sh $<TARGET_FILE:kcc>
                 ${CMAKE_CURRENT_SOURCE_DIR}/cu/sysatomic.cu ${_kcc_cu_dir}/sysatomic)
set_tests_properties(cu.sysatomic.atom_sys PROPERTIES TIMEOUT 120 LABELS cuda-input)

# __nanosleep: nanosleep.u32 in the PTX, sm_70 needed (tests/cu/nanosleep.sh).
add_test(NAME cu.nanosleep.ptx_sm70
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cu/nanosleep.sh $<TARGET_FILE:kcc>
                 ${CMAKE_CURRENT_SOURCE_DIR}/cu/nanosleep.cu ${_kcc_cu_dir}/nanosleep)
set_tests_properties(cu.nanosleep.ptx_sm70 PROPERTIES TIMEOUT 120 LABELS cuda-input)

# Texture and surface objects: the PTX's tex/suld/sust instructions, each form counted
# (tests/cu/textures.sh).
add_test(NAME cu.textures.instructions
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cu/textures.sh $<TARGET_FILE:kcc>
                 ${CMAKE_CURRENT_SOURCE_DIR}/cu/textures.cu ${_kcc_cu_dir}/textures_instr)
set_tests_properties(cu.textures.instructions PROPERTIES TIMEOUT 120 LABELS cuda-input)

# Kernighan's bit-count loops as one popcount (compiler/passes/idiom.c; tests/cu/idioms.sh).
add_test(NAME cu.idioms
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cu/idioms.sh $<TARGET_FILE:kcc>
                 ${CMAKE_CURRENT_SOURCE_DIR}/runtime/cuda_idioms.cu ${_kcc_cu_dir}/idioms)
set_tests_properties(cu.idioms PROPERTIES TIMEOUT 120 LABELS cuda-input)

# The precompiled CUDA prelude without its deferred-diagnostics list (frontend/pch.c;
# tests/cu/pch.sh).
find_program(KCC_BCANALYZER NAMES llvm-bcanalyzer-19 llvm-bcanalyzer PATHS /usr/lib/llvm-19/bin
             NO_DEFAULT_PATH)
if(KCC_BCANALYZER)
  add_test(NAME cu.pch.deferred_list
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cu/pch.sh $<TARGET_FILE:kcc> ${KCC_BCANALYZER}
                   ${_kcc_cu_dir}/pch)
  set_tests_properties(cu.pch.deferred_list PROPERTIES TIMEOUT 120 LABELS cuda-input)
endif()
