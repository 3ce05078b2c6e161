# header.cmake — the C programmer's path: the generated header (kcc file.k -o file.h), the
# CMake package and install, the man page.
#
#   header.c11, header.c99, header.cxx
#                       tests/header/two_headers.c (+ module_get_tu.c, a second translation
#                       unit) includes the headers of ops_a.k and ops_b.k (--prefix=opsb), built
#                       with kcc_add_kernels from this tree, compiled -Wall -Wextra -Werror
#                       -pedantic-errors as C11, C99 and C++11 (g++), and run on the default
#                       device with random inputs checked against host references; also
#                       devices closed and opened again with no _release, and element types
#                       checked at launch through kcc_buf_T_of views of tagged buffers.
#   header.compile_fail.c, header.compile_fail.cxx
#                       tests/header/wrong_type.c: the host compiler refuses an int buffer
#                       for a float parameter, an untyped buffer, a different struct layout.
#   header.install      `cmake --install` into a prefix in the build tree, checked file by file
#                       (the fixture the tests below use).
#   header.outoftree.make, header.outoftree.ninja
#                       tests/header/outoftree, a user's project, configured with
#                       -DCMAKE_PREFIX_PATH=<that prefix> only, built, run, and rebuilt after
#                       an edit of a header its kernel includes (the DEPFILE).
#   header.installed_samples
#                       <prefix>/share/doc/kcc/samples configured as one project against the
#                       prefix, built with -Werror, vecadd run.
#   header.manpage      every option of `kcc --help` is in docs/kcc.1; groff reads it cleanly.
#   header.from_docs    the installed getting-started.md's shell blocks run as written against the
#                       prefix (HOME holding kcc -> prefix), and make-example as its Makefile says.
#   header.getting_started
#                       the code in docs/getting-started.md is the vecadd sample's, verbatim.
# The samples' tests are in samples.cmake.

set(_hdr_src ${CMAKE_CURRENT_SOURCE_DIR}/header)
set(_hdr_out ${CMAKE_CURRENT_BINARY_DIR}/header)
file(MAKE_DIRECTORY ${_hdr_out})
find_package(Threads REQUIRED)

# One build of the test program: the same sources, headers generated for this target.
function(_kcc_header_program target)
  add_executable(${target} ${ARGN})
  kcc_add_kernels(${target} ${_hdr_src}/ops_a.k)
  kcc_add_kernels(${target} ${_hdr_src}/ops_b.k PREFIX opsb)
  target_include_directories(${target} PRIVATE ${_hdr_src})
  target_link_libraries(${target} PRIVATE Threads::Threads m)
  target_compile_options(${target} PRIVATE -pedantic-errors)
endfunction()

_kcc_header_program(hdr_c11 ${_hdr_src}/two_headers.c ${_hdr_src}/module_get_tu.c)
set_target_properties(hdr_c11 PROPERTIES C_STANDARD 11 C_EXTENSIONS OFF)
_kcc_header_program(hdr_c99 ${_hdr_src}/two_headers.c ${_hdr_src}/module_get_tu.c)
set_target_properties(hdr_c99 PROPERTIES C_STANDARD 99 C_EXTENSIONS OFF)
set(_hdr_programs hdr_c11 c11 hdr_c99 c99)

include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  _kcc_header_program(hdr_cxx ${_hdr_src}/two_headers_cxx.cpp ${_hdr_src}/module_get_tu_cxx.cpp)
  set_target_properties(hdr_cxx PROPERTIES CXX_STANDARD 11 CXX_EXTENSIONS OFF)
  list(APPEND _hdr_programs hdr_cxx cxx)
else()
  message(STATUS "header tests: no C++ compiler, the generated header is not tried as C++")
endif()

# Each test has caches of its own (kcrt's and PoCL's both live under XDG_CACHE_HOME): two tests
# building one program in one PoCL kernel cache at once once aborted PoCL (docs/driver-bugs.md 17).
while(_hdr_programs)
  list(POP_FRONT _hdr_programs _target _name)
  add_test(NAME header.${_name} COMMAND ${_target})
  set_tests_properties(header.${_name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS header
    ENVIRONMENT "XDG_CACHE_HOME=${_hdr_out}/cache-${_name}")
endwhile()

# The compile-fail checks read the headers generated for hdr_c11.
set(_hdr_incs -I${CMAKE_CURRENT_BINARY_DIR}/kcc/hdr_c11 -I${CMAKE_SOURCE_DIR}/runtime/include)
add_test(NAME header.compile_fail.c
  COMMAND sh ${_hdr_src}/compile_fail.sh ${CMAKE_C_COMPILER} "-std=c11 -pedantic-errors"
          ${_hdr_src}/wrong_type.c ${_hdr_incs})
set_tests_properties(header.compile_fail.c PROPERTIES LABELS header)
if(CMAKE_CXX_COMPILER)
  add_test(NAME header.compile_fail.cxx
    COMMAND sh ${_hdr_src}/compile_fail.sh ${CMAKE_CXX_COMPILER} "-x c++ -std=c++11 -pedantic-errors"
            ${_hdr_src}/wrong_type.c ${_hdr_incs})
  set_tests_properties(header.compile_fail.cxx PROPERTIES LABELS header)
endif()

# The install tree the out-of-tree tests (and samples.cmake's make-example) use.
include(GNUInstallDirs)
set(KCC_TEST_PREFIX ${_hdr_out}/prefix)
add_test(NAME header.install
  COMMAND sh ${_hdr_src}/install_check.sh ${CMAKE_COMMAND} ${CMAKE_BINARY_DIR} ${KCC_TEST_PREFIX}
          ${CMAKE_INSTALL_LIBDIR})
set_tests_properties(header.install PROPERTIES FIXTURES_SETUP kcc_installed LABELS header
  TIMEOUT 300)

# Under KCC_SANITIZE libkcrt carries the sanitizers' instrumentation: what links it needs them.
set(KCC_TEST_USER_FLAGS "")
if(KCC_SANITIZE)
  set(KCC_TEST_USER_FLAGS "-fsanitize=address,undefined -fno-omit-frame-pointer")
endif()
set_tests_properties(header.install PROPERTIES ENVIRONMENT "KCC_USER_CFLAGS=${KCC_TEST_USER_FLAGS}")

set(_gens "Unix Makefiles" make)
find_program(KCC_TEST_NINJA ninja)
if(KCC_TEST_NINJA)
  list(APPEND _gens Ninja ninja)
endif()
while(_gens)
  list(POP_FRONT _gens _gen _name)
  add_test(NAME header.outoftree.${_name}
    COMMAND sh ${_hdr_src}/outoftree.sh ${CMAKE_BINARY_DIR} ${KCC_TEST_PREFIX}
            ${_hdr_src}/outoftree ${_hdr_out}/outoftree-${_name} ${_gen} "${KCC_TEST_USER_FLAGS}")
  set_tests_properties(header.outoftree.${_name} PROPERTIES FIXTURES_REQUIRED kcc_installed
    SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS header
    ENVIRONMENT "XDG_CACHE_HOME=${_hdr_out}/cache-outoftree-${_name}")
endwhile()

# The samples as installed, built as one project against the prefix.
add_test(NAME header.installed_samples
  COMMAND sh ${_hdr_src}/installed_samples.sh ${KCC_TEST_PREFIX} ${_hdr_out}/installed-samples
          "${KCC_TEST_USER_FLAGS}")
set_tests_properties(header.installed_samples PROPERTIES FIXTURES_REQUIRED kcc_installed
  SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS header
  ENVIRONMENT "XDG_CACHE_HOME=${_hdr_out}/cache-installed-samples")

add_test(NAME header.from_docs
  COMMAND sh ${_hdr_src}/from_docs.sh ${KCC_TEST_PREFIX} ${_hdr_out}/from-docs "${KCC_TEST_USER_FLAGS}")
set_tests_properties(header.from_docs PROPERTIES FIXTURES_REQUIRED kcc_installed
  SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS header ENVIRONMENT "XDG_CACHE_HOME=${_hdr_out}/cache-from-docs")

add_test(NAME header.manpage
  COMMAND sh ${_hdr_src}/manpage_check.sh $<TARGET_FILE:kcc> ${CMAKE_SOURCE_DIR}/docs/kcc.1)
set_tests_properties(header.manpage PROPERTIES LABELS header)

# docs/getting-started.md quotes the vecadd sample (and the header kcc made for it) verbatim.
add_test(NAME header.getting_started
  COMMAND sh ${_hdr_src}/docs_check.sh ${CMAKE_SOURCE_DIR}/docs/getting-started.md
          ${CMAKE_SOURCE_DIR}/samples/vecadd/main.c ${CMAKE_SOURCE_DIR}/samples/vecadd/vecadd.k
          ${CMAKE_SOURCE_DIR}/samples/vecadd/CMakeLists.txt
          ${CMAKE_BINARY_DIR}/samples/vecadd/kcc/vecadd/vecadd.h)
set_tests_properties(header.getting_started PROPERTIES LABELS header)

# Issue 13's host-code budget: the vecadd sample in at most 55 lines of code (non-blank,
# non-comment), the minimal printf program in at most 12.
add_test(NAME header.sample_lines_vecadd
  COMMAND sh ${_hdr_src}/count_lines.sh 55 ${CMAKE_SOURCE_DIR}/samples/vecadd/main.c)
add_test(NAME header.sample_lines_hello
  COMMAND sh ${_hdr_src}/count_lines.sh 12 ${CMAKE_SOURCE_DIR}/samples/hello/main.c)
set_tests_properties(header.sample_lines_vecadd header.sample_lines_hello PROPERTIES LABELS header)

# Issue 13: without kcc (pkg-config finds no kcrt, KCC unset) the Make example stops at once
# with a message saying how to point it at kcc, not "saxpy.k: No such file or directory".
add_test(NAME header.make_example_no_kcc
  COMMAND make -s -C ${CMAKE_SOURCE_DIR}/samples/make-example PKG_CONFIG=false)
set_tests_properties(header.make_example_no_kcc PROPERTIES LABELS header WILL_FAIL FALSE
  PASS_REGULAR_EXPRESSION "Makefile:[0-9]+: \\*\\*\\* kcc not found: pkg-config has no kcrt package \\(set PKG_CONFIG_PATH=<prefix>/lib/pkgconfig\\) and KCC is not set \\(make KCC=<prefix>/bin/kcc\\)\\.  Stop\\.")
