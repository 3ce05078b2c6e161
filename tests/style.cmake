# Style: every C source and header is formatted as .clang-format says (Debian 12's
# clang-format 14, installed by scripts/install-deps.sh). Skipped where clang-format is absent.
find_program(KCC_CLANG_FORMAT NAMES clang-format-14 clang-format)
add_test(NAME style.clang_format
  COMMAND sh -c "command -v \"$0\" >/dev/null || { echo 'clang-format not found, skipping'; exit 77; }; cd \"$1\" && git ls-files '*.c' '*.h' | xargs \"$0\" --dry-run -Werror"
          "${KCC_CLANG_FORMAT}" "${CMAKE_SOURCE_DIR}")
set_tests_properties(style.clang_format PROPERTIES SKIP_RETURN_CODE 77 LABELS style)
