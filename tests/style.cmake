# Style: every C source and header is formatted as .clang-format says (Debian 12's
# clang-format 14, installed by scripts/install-deps.sh). Skipped where clang-format is absent.
find_program(KCC_CLANG_FORMAT NAMES clang-format-14 clang-format)
add_test(NAME style.clang_format
  COMMAND sh -c "command -v \"$0\" >/dev/null || { echo 'clang-format not found, skipping'; exit 77; }; cd \"$1\" && git ls-files '*.c' '*.h' | xargs \"$0\" --dry-run -Werror"
          "${KCC_CLANG_FORMAT}" "${CMAKE_SOURCE_DIR}")
set_tests_properties(style.clang_format PROPERTIES SKIP_RETURN_CODE 77 LABELS style)

# The layout shows the pipeline with no call running back up it (docs/design.md, "Pipeline"):
# compiler/ includes no front-end header, the shared lowering (frontend/lower/) no language
# layer's header (so calling one by name would not compile: it reaches a layer through
# FeLangOps), and neither language layer the other's.
add_test(NAME style.layers
  COMMAND sh -c "cd \"$0\" && bad=$(grep -l -E '#include \"(fe|cuda/fe_cuda|opencl/fe_opencl)\\.h\"' compiler/*/*.c compiler/*/*.h; grep -l -E 'fe_(cuda|opencl)\\.h' frontend/lower/*; grep -l 'fe_opencl\\.h' frontend/cuda/*; grep -l 'fe_cuda\\.h' frontend/opencl/*); [ -z \"$bad\" ] || { echo \"files that include a header above their layer:\"; echo \"$bad\"; exit 1; }"
          "${CMAKE_SOURCE_DIR}")
set_tests_properties(style.layers PROPERTIES LABELS style)
