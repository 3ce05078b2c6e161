# KccAddKernels.cmake — kcc_add_kernels(): compile kcc kernel files (.k) into C headers for a
# target. Loaded by find_package(kcc) (kccConfig.cmake) and by kcc's own build (samples, tests).
#
#   kcc_add_kernels(<target> <file.k>...
#                   [PREFIX <name>]              # kcc --prefix=<name> (one .k file only)
#                   [OPTIONS <kcc option>...]    # e.g. -arch=sm_90,sm_80 -O2 -DTILE=32
#                   [INCLUDE_DIRECTORIES <dir>...]
#                   [OUTPUT_DIR <dir>]           # default <build dir>/kcc/<target>
#                   [SHARED_RUNTIME])            # link kcc::kcrt_shared instead of kcc::kcrt
#
# For each file.k, kcc writes file.h (`kcc file.k -o file.h`: the typed launch functions and
# the embedded fat module) into OUTPUT_DIR at build time; the target gets OUTPUT_DIR on its
# include path, the headers as sources (so they exist before the target's objects compile) and
# libkcrt on its link line. kcc's dependency file (-MD -MF) goes to add_custom_command's
# DEPFILE, so editing a header a kernel includes regenerates the kernel's .h. The .h is also
# regenerated when kcc itself changes.
#
# Uses the targets kcc::kcc (the compiler) and kcc::kcrt / kcc::kcrt_shared (libkcrt), which
# find_package(kcc) imports and kcc's own build defines as aliases.

include_guard(GLOBAL)

# Policies are recorded where a function is defined and apply whenever it is called, so the
# caller's cmake_minimum_required does not decide how DEPFILE paths are read.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW) # DEPFILE paths are transformed for Ninja as for Makefiles
endif()

function(kcc_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 KAK "SHARED_RUNTIME" "PREFIX;OUTPUT_DIR"
                        "OPTIONS;INCLUDE_DIRECTORIES")
  set(sources ${KAK_UNPARSED_ARGUMENTS})
  if(NOT TARGET ${target})
    message(FATAL_ERROR "kcc_add_kernels: '${target}' is not a target (create it first with "
                        "add_executable or add_library)")
  endif()
  if(NOT sources)
    message(FATAL_ERROR "kcc_add_kernels(${target}): no .k files given")
  endif()
  list(LENGTH sources nsources)
  if(KAK_PREFIX AND nsources GREATER 1)
    message(FATAL_ERROR "kcc_add_kernels(${target}): PREFIX names the symbols of one header; "
                        "call kcc_add_kernels once per file to give several files prefixes")
  endif()
  if(NOT TARGET kcc::kcc)
    message(FATAL_ERROR "kcc_add_kernels: no kcc::kcc target (use find_package(kcc))")
  endif()
  if(KAK_OUTPUT_DIR)
    get_filename_component(outdir "${KAK_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(outdir "${CMAKE_CURRENT_BINARY_DIR}/kcc/${target}")
  endif()
  file(MAKE_DIRECTORY "${outdir}")

  set(flags ${KAK_OPTIONS})
  foreach(dir IN LISTS KAK_INCLUDE_DIRECTORIES)
    # Absolute, so that the paths kcc writes into the dependency file are absolute too.
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags "-I${dir}")
  endforeach()
  if(KAK_PREFIX)
    list(APPEND flags "--prefix=${KAK_PREFIX}")
  endif()

  get_property(done TARGET ${target} PROPERTY KCC_KERNEL_HEADERS)
  set(headers)
  foreach(src IN LISTS sources)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${src}" NAME_WE)
    set(header "${outdir}/${name}.h")
    if(header IN_LIST done)
      message(FATAL_ERROR "kcc_add_kernels(${target}): two kernel files would both write "
                          "${name}.h into ${outdir}; use OUTPUT_DIR for one of them")
    endif()
    list(APPEND done "${header}")
    file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${header}")
    add_custom_command(
      OUTPUT "${header}"
      COMMAND kcc::kcc ${flags} -MD -MF "${header}.d" -o "${header}" "${src}"
      DEPENDS "${src}" kcc::kcc
      DEPFILE "${header}.d"
      WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      COMMENT "kcc: generating ${shown}"
      VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND headers "${header}")
  endforeach()
  set_property(TARGET ${target} PROPERTY KCC_KERNEL_HEADERS "${done}")

  target_sources(${target} PRIVATE ${headers})
  target_include_directories(${target} PRIVATE "${outdir}")
  if(KAK_SHARED_RUNTIME)
    set(runtime kcc::kcrt_shared)
  else()
    set(runtime kcc::kcrt)
  endif()
  # The LINK_LIBRARIES property rather than target_link_libraries, which refuses to mix its
  # keyword and plain forms on one target: the caller may use either.
  get_property(libs TARGET ${target} PROPERTY LINK_LIBRARIES)
  if(NOT runtime IN_LIST libs)
    set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES ${runtime})
  endif()
endfunction()

cmake_policy(POP)
