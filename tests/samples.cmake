# samples.cmake — runs every sample (samples/*, built by the top-level build) on the default
# device and checks its output: exit status and regular expressions for the lines that do not
# depend on timing or on the random data (tests/header/check_output.sh). Exit 77 (skip) when
# there is no device.
#
#   sample.NAME            samples/NAME
#   sample.make-example    samples/make-example built with make against the installed kcc
#                          (the kcc_installed fixture of header.cmake), rebuilt after an edit
#                          of a header the kernel includes.

include(GNUInstallDirs)
if(NOT KCC_TEST_PREFIX) # header.cmake's install prefix (the kcc_installed fixture)
  set(KCC_TEST_PREFIX ${CMAKE_CURRENT_BINARY_DIR}/header/prefix)
endif()
set(_smp_check sh ${CMAKE_CURRENT_SOURCE_DIR}/header/check_output.sh)
set(_smp_env "XDG_CACHE_HOME=${CMAKE_CURRENT_BINARY_DIR}/samples-cache")

# sample_test(NAME TARGET STATUS REGEX... -- ARGS...)
function(sample_test name target status)
  cmake_parse_arguments(PARSE_ARGV 3 ST "" "" "ENV")
  set(regexes)
  set(args)
  set(in_args FALSE)
  foreach(a IN LISTS ST_UNPARSED_ARGUMENTS)
    if(a STREQUAL "--")
      set(in_args TRUE)
    elseif(in_args)
      list(APPEND args "${a}")
    else()
      list(APPEND regexes "${a}")
    endif()
  endforeach()
  add_test(NAME sample.${name} COMMAND ${_smp_check} ${status} ${regexes} -- $<TARGET_FILE:${target}> ${args})
  set_tests_properties(sample.${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS sample
    ENVIRONMENT "${_smp_env};${ST_ENV}")
endfunction()

sample_test(vecadd vecadd 0
  "^device: .+ \\((CUDA|OpenCL), .+\\)$"
  "^check: OK, 1000000 elements equal to the CPU loop \\(random data, seed [0-9]+\\)$"
  "^first launch \\(loads the module\\): +[0-9.]+ ms$"
  "^kernel on the device: +[0-9.]+ ms +\\([0-9.]+ GB/s\\)$"
  "^same loop on the CPU: +[0-9.]+ ms +\\([0-9.]+ GB/s\\)$"
  "^device vs CPU: [0-9.]+x$"
  -- 1000000)

sample_test(hello hello 0
  "^launching 2 blocks of 4 threads$"
  "^Hello from block 0, thread 0$" "^Hello from block 0, thread 1$"
  "^Hello from block 0, thread 2$" "^Hello from block 0, thread 3$"
  "^Hello from block 1, thread 0$" "^Hello from block 1, thread 1$"
  "^Hello from block 1, thread 2$" "^Hello from block 1, thread 3$"
  "^done$")

sample_test(biggrid biggrid 0
  "^grid of 2\\^40 blocks: KCRT_ERROR_INVALID_LAUNCH: grid dimension x = 1099511627776 exceeds the device maximum [0-9]+$"
  "^block one thread too large: KCRT_ERROR_INVALID_LAUNCH: block dimension x = [0-9]+ exceeds the device maximum [0-9]+$"
  "^a grid of 4096 blocks of 256 threads: ran, result checked$"
  "^both oversized launches were refused before reaching the driver$")

sample_test(reduce reduce 0
  "^1000003 floats in 1954 blocks of 256 threads$"
  "^relative difference [0-9.e+-]+: OK$"
  -- 1000003)

sample_test(matmul matmul 0
  "^C\\(500x400\\) = A\\(500x300\\) \\* B\\(300x400\\), 16x16 tiles$"
  "^check: largest relative difference from the CPU [0-9.e+-]+: OK$")
sample_test(matmul.small matmul 0
  "^C\\(17x33\\) = A\\(17x1\\) \\* B\\(1x33\\), 16x16 tiles$" "^check: .*: OK$"
  -- 17 33 1)

sample_test(choose-device choose_device 0
  "^[0-9]+ devices?:$" "^  \\[0\\] (CUDA  |OpenCL): " "^opening the default device$"
  "^opened: " "^scale kernel on it: OK$")
sample_test(choose-device.index choose_device 0
  "^opening device 0 \\(command line\\)$" "^opened: " "^scale kernel on it: OK$"
  -- 0)
sample_test(choose-device.env choose_device 0
  "^opening the device KCC_DEVICE=0 selects$" "^opened: .*(cuda|opencl) 0\\)$"
  "^scale kernel on it: OK$"
  ENV KCC_DEVICE=0)
# An index past the list: a clean error, exit 1. (KCC_DEVICE=1 works the same way: it opens
# device 1 where there is one, and says why not where there is not; see docs/runtime.md.)
sample_test(choose-device.bad choose_device 1
  "^cannot open it: KCRT_ERROR_(NO_DEVICE|INVALID_VALUE): .+"
  ENV KCC_DEVICE=99)

sample_test(multidevice multidevice 0
  "^device 0: .+: elements .0, [0-9]+\\), [0-9.]+ ms$" # (no \\[: it would upset CMake lists)
  "^500000 elements on [0-9]+ devices?: OK, equal to the CPU loop$"
  "^kernel time: [0-9.]+ ms on [0-9]+ devices?, [0-9.]+ ms on device [0-9]+ alone: speed-up [0-9.]+x$"
  -- 500000)

# The Makefile sample, against the installed kcc (pkg-config finds it in the test prefix).
find_program(KCC_TEST_MAKE NAMES make gmake)
if(KCC_TEST_MAKE)
  add_test(NAME sample.make-example
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/header/make_example.sh ${KCC_TEST_MAKE}
            ${CMAKE_SOURCE_DIR}/samples/make-example ${KCC_TEST_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig
            ${CMAKE_CURRENT_BINARY_DIR}/header/make-example "${KCC_TEST_USER_FLAGS}")
  set_tests_properties(sample.make-example PROPERTIES FIXTURES_REQUIRED kcc_installed
    SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS sample ENVIRONMENT "${_smp_env}")
endif()

# Issue 13: libkcrt flushes stdout before a launch, so with stdout a pipe (fully buffered) the
# host's line printed before the launch still comes before the kernel's printf lines, and
# hello needs no fflush of its own. Exit 77 (skip) when no device opens.
add_test(NAME sample.hello.printf_order
  COMMAND sh -c "out=$(\"$1\" | cat) || exit 77; first=$(printf '%s\\n' \"$out\" | head -n 1); \
test \"$first\" = 'launching 2 blocks of 4 threads' || { printf 'FAIL: first line: %s\\n' \"$first\"; exit 1; }; \
echo PASS" sh $<TARGET_FILE:hello>)
set_tests_properties(sample.hello.printf_order PROPERTIES SKIP_RETURN_CODE 77 LABELS sample)
