#!/bin/sh
# run.sh — one bounded libFuzzer run, as ctest's fuzz.* tests do (tests/fuzz.cmake):
#   run.sh FUZZER SECONDS CORPUS DICT SEED_DIR...
# CORPUS (created) keeps what the run found interesting; the seed directories are read only.
# Any crash, sanitizer report, internal compiler error or rejected output fails the run and
# leaves the input as artifacts-CORPUS/crash-* (docs/testing.md says how to make it a test).
# FUZZ_MAX_LEN: the largest input tried (default 4096: kernels rarely need more, and small
# inputs run faster; fuzz.bundle uses 65536).
set -eu
fuzzer="$1" secs="$2" corpus="$3" dict="$4"
shift 4
mkdir -p "$corpus"
art="$(dirname "$corpus")/artifacts-$(basename "$corpus")"
mkdir -p "$art"
dictarg=""
[ -n "$dict" ] && dictarg="-dict=$dict"
# detect_leaks=0: libclang keeps per-process caches that LeakSanitizer counts at exit; kcc's
# own memory is checked by make test-asan. use_sigaltstack=0: see the Makefile's test-asan.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:use_sigaltstack=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
exec nice -n 10 "$fuzzer" -max_total_time="$secs" -timeout=60 -rss_limit_mb=4096 -max_len="${FUZZ_MAX_LEN:-4096}" \
  -print_final_stats=1 -artifact_prefix="$art/" $dictarg "$corpus" "$@"
