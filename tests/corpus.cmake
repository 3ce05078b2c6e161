# corpus.cmake — the registry corpus (tests/corpus/): real kernel files as their projects ship
# them in PyPI source distributions and Debian packages, downloaded at test time (pip, apt-get)
# into BUILD/corpus/src (cached: later runs need no network) and compiled unchanged.
#
#   corpus.fetch     downloads every package of tests/corpus/MANIFEST not in the cache yet; fails
#                    (and with it every corpus test) when a package cannot be downloaded
#   corpus.PACKAGE   each file of the package through kcc (every form, each checked by its
#                    consumer), compared with tests/corpus/EXPECT; prints the package's counts
#   corpus.summary   after them: "corpus: N/M files pass" and the per-package breakdown
#
# tests/corpus/run.sh --update rewrites EXPECT from the current compiler (docs/testing.md).
set(_corpus_dir ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
set(_corpus_out ${CMAKE_BINARY_DIR}/corpus)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_corpus_dir}/MANIFEST)

find_program(KCC_BASH bash)
if(NOT KCC_BASH)
  message(STATUS "bash not found: the corpus tests (tests/corpus) are not registered")
  return()
endif()

add_test(NAME corpus.fetch COMMAND ${KCC_BASH} ${_corpus_dir}/run.sh --fetch --out ${_corpus_out})
set_tests_properties(corpus.fetch PROPERTIES FIXTURES_SETUP corpus_src TIMEOUT 1800
  LABELS corpus)

file(STRINGS ${_corpus_dir}/MANIFEST _corpus_lines REGEX "^package[ \t]")
set(_corpus_tests "")
foreach(_line IN LISTS _corpus_lines)
  string(REGEX MATCH "^package[ \t]+([^ \t]+)" _m "${_line}")
  set(_pkg ${CMAKE_MATCH_1})
  # Two jobs per package: ctest runs packages side by side as well (each file is one kcc
  # process per form plus its consumer, mostly single-threaded).
  add_test(NAME corpus.${_pkg}
    COMMAND ${KCC_BASH} ${_corpus_dir}/run.sh --kcc $<TARGET_FILE:kcc> --out ${_corpus_out}
      --jobs 2 ${_pkg})
  set_tests_properties(corpus.${_pkg} PROPERTIES FIXTURES_REQUIRED corpus_src TIMEOUT 1800
    LABELS corpus ENVIRONMENT "XDG_CACHE_HOME=${_corpus_out}/cache")
  list(APPEND _corpus_tests corpus.${_pkg})
endforeach()

add_test(NAME corpus.summary COMMAND ${KCC_BASH} ${_corpus_dir}/run.sh --summary --out ${_corpus_out})
set_tests_properties(corpus.summary PROPERTIES FIXTURES_REQUIRED corpus_src
  DEPENDS "${_corpus_tests}" LABELS corpus)
list(LENGTH _corpus_tests _n)
message(STATUS "registry corpus: ${_n} packages (tests/corpus/MANIFEST)")
