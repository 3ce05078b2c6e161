# fuzz.cmake — libFuzzer harnesses (tests/fuzz/, docs/testing.md), built when the C compiler is
# clang with its fuzzer runtime (Debian: clang-19 and libclang-rt-19-dev); option KCC_FUZZ.
# The compiler and runtime sources are built again for them, instrumented
# (-fsanitize=fuzzer-no-link,address,undefined), so the rest of the build is unchanged:
#   cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-19   (make test-fuzz does this)
#
#   fuzz.k       fuzz_k: bytes as a .k file -> every output form in process, each checked
#   fuzz.cl      fuzz_cl: the same for OpenCL C input (-x cl)
#   fuzz.cu      fuzz_cu: the same for CUDA input (.cu: C++, lambdas, templates, __device__
#                variables), seeded with tests/cu
#   fuzz.header  fuzz_header: .k -> the C header, compiled as C11, C99 and C++11, -Wall
#   fuzz.bundle  fuzz_bundle: bytes -> libkcrt's bundle reader
# Each test runs its fuzzer for KCC_FUZZ_SECONDS (default 60) after the seed corpus (the test
# kernels of tests/) with the dialect's dictionary; longer runs: tests/fuzz/run.sh directly.

include(CheckCSourceCompiles)
set(_fz_default OFF)
if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  check_c_source_compiles("#include <stdint.h>
#include <stddef.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }"
    KCC_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  if(KCC_HAVE_LIBFUZZER)
    set(_fz_default ON)
  endif()
endif()
option(KCC_FUZZ "Build the libFuzzer harnesses (needs clang and its fuzzer runtime)" ${_fz_default})
set(KCC_FUZZ_SECONDS 60 CACHE STRING "How long each fuzz.* test runs its fuzzer")

if(KCC_FUZZ)
  find_package(Threads REQUIRED)
  set(_fz_flags -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer -g)
  set(_fz_dir ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)

  add_library(kcc_core_fuzz STATIC ${KCC_FRONTEND_SRC} ${KCC_COMPILER_SRC} ${KCC_DRIVER_SRC})
  target_compile_options(kcc_core_fuzz PRIVATE ${_fz_flags})
  target_include_directories(kcc_core_fuzz PUBLIC ${KCC_CORE_INCLUDE_DIRS})
  target_include_directories(kcc_core_fuzz PRIVATE ${CMAKE_SOURCE_DIR}/runtime)
  target_include_directories(kcc_core_fuzz SYSTEM PUBLIC ${LLVM_INCLUDE_DIR})
  target_link_libraries(kcc_core_fuzz PUBLIC ${CLANG_LIB} ${LLVM_LIB} m PkgConfig::SPIRV_TOOLS
                        stdc++)
  target_compile_definitions(kcc_core_fuzz PUBLIC KCC_LLVM_LIB_DIR="${LLVM_LIB_DIR}")

  file(GLOB _fz_kcrt_src CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/runtime/*.c)
  add_library(kcrt_fuzz STATIC ${_fz_kcrt_src})
  target_compile_options(kcrt_fuzz PRIVATE ${_fz_flags})
  target_include_directories(kcrt_fuzz PUBLIC ${CMAKE_SOURCE_DIR}/runtime/include
                             ${CMAKE_SOURCE_DIR}/runtime)
  target_include_directories(kcrt_fuzz SYSTEM PRIVATE ${KCRT_CL_INCLUDE})
  target_link_libraries(kcrt_fuzz PUBLIC ${CMAKE_DL_LIBS} Threads::Threads)

  foreach(_fz k cl cu header)
    set(_src compile)
    if(_fz STREQUAL "header")
      set(_src header)
    endif()
    add_executable(fuzz_${_fz} ${_fz_dir}/fuzz_${_src}.c ${_fz_dir}/fuzz_common.c)
    target_compile_options(fuzz_${_fz} PRIVATE ${_fz_flags})
    target_compile_definitions(fuzz_${_fz} PRIVATE
      KCC_FUZZ_KCRT_INCLUDE="${CMAKE_SOURCE_DIR}/runtime/include")
    if(_fz STREQUAL "cl")
      target_compile_definitions(fuzz_${_fz} PRIVATE FUZZ_CL)
    elseif(_fz STREQUAL "cu")
      target_compile_definitions(fuzz_${_fz} PRIVATE FUZZ_CU)
    endif()
    # -Wl,--wrap=diag_ice: an internal compiler error crashes the fuzzer (fuzz_common.c).
    target_link_options(fuzz_${_fz} PRIVATE -fsanitize=fuzzer,address,undefined
                        -Wl,--wrap=diag_ice)
    target_link_libraries(fuzz_${_fz} PRIVATE kcc_core_fuzz kcrt_fuzz)
  endforeach()
  add_executable(fuzz_bundle ${_fz_dir}/fuzz_bundle.c)
  target_compile_options(fuzz_bundle PRIVATE ${_fz_flags})
  target_link_options(fuzz_bundle PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_bundle PRIVATE kcrt_fuzz)

  # Seed corpora: the kernels of tests/ (and the bundles kcc makes of them, for the reader).
  set(_fz_out ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
  file(MAKE_DIRECTORY ${_fz_out})
  # (libFuzzer runs every seed before it looks at the clock: the 92 small files of tests/bad
  # would make a 60 s run take minutes on a busy machine, so they are for the long runs that
  # tests/fuzz/run.sh makes: docs/testing.md.)
  set(_fz_k_seeds ${CMAKE_CURRENT_SOURCE_DIR}/kernels ${CMAKE_CURRENT_SOURCE_DIR}/random/regress)
  set(_fz_run sh ${_fz_dir}/run.sh)
  add_test(NAME fuzz.k COMMAND ${_fz_run} $<TARGET_FILE:fuzz_k> ${KCC_FUZZ_SECONDS}
           ${_fz_out}/corpus-k ${_fz_dir}/kcc.dict ${_fz_k_seeds})
  add_test(NAME fuzz.header COMMAND ${_fz_run} $<TARGET_FILE:fuzz_header> ${KCC_FUZZ_SECONDS}
           ${_fz_out}/corpus-header ${_fz_dir}/kcc.dict ${_fz_k_seeds})
  add_test(NAME fuzz.cl COMMAND ${_fz_run} $<TARGET_FILE:fuzz_cl> ${KCC_FUZZ_SECONDS}
           ${_fz_out}/corpus-cl ${_fz_dir}/kcc.dict ${CMAKE_CURRENT_SOURCE_DIR}/cl)
  add_test(NAME fuzz.cu COMMAND ${_fz_run} $<TARGET_FILE:fuzz_cu> ${KCC_FUZZ_SECONDS}
           ${_fz_out}/corpus-cu ${_fz_dir}/kcc.dict ${CMAKE_CURRENT_SOURCE_DIR}/cu)
  # Bundles of the corpus kernels, made by this build's kcc when the test starts.
  add_test(NAME fuzz.bundle COMMAND sh -c "mkdir -p \"$2\" && for k in \"$3\"/*.k; do \"$1\" \"$k\" -o \"$2/$(basename \"$k\" .k).kcb\" 2>/dev/null || true; done && shift 3 && exec \"$@\""
           sh $<TARGET_FILE:kcc> ${_fz_out}/seeds-bundle ${CMAKE_CURRENT_SOURCE_DIR}/kernels
           ${_fz_run} $<TARGET_FILE:fuzz_bundle> ${KCC_FUZZ_SECONDS} ${_fz_out}/corpus-bundle
           ${_fz_dir}/kcb.dict ${_fz_out}/seeds-bundle)
  set_tests_properties(fuzz.k fuzz.cl fuzz.cu fuzz.header fuzz.bundle PROPERTIES LABELS fuzz
                       TIMEOUT 1800)
  set_tests_properties(fuzz.bundle PROPERTIES ENVIRONMENT "FUZZ_MAX_LEN=65536")
endif()
