#!/bin/sh
# compile_fail.sh COMPILER LANGUAGE-FLAGS SOURCE -I... — the type checks a generated header
# leaves to the host compiler: wrong_type.c must compile as written and fail to compile with
# each mistake, with a message that says what is wrong. Flags: -Wall -Wextra -Werror.
set -u
cc=$1 lang=$2 src=$3
shift 3
status=0
tmp=${TMPDIR:-/tmp}/kcc-compile-fail.$$
trap 'rm -f "$tmp"' EXIT

incs="$*"

compile() { # compile CASE: output in $tmp, returns the compiler's status
  # shellcheck disable=SC2086 # $lang and $incs hold several flags
  "$cc" $lang -Wall -Wextra -Werror -fsyntax-only "-D$1" $incs "$src" >"$tmp" 2>&1
}

if ! compile KCC_TEST_CORRECT; then
  echo "FAIL: the correct call does not compile:"; cat "$tmp"; exit 1
fi
echo "ok: the correct call compiles"

# must_fail CASE REGEX...: CASE must not compile, and its messages must match every REGEX.
must_fail() {
  case_=$1
  shift
  if compile "$case_"; then
    echo "FAIL: $case_ compiled"; status=1; return
  fi
  for re in "$@"; do
    if ! grep -Eq "$re" "$tmp"; then
      echo "FAIL: $case_: the compiler's messages do not match '$re':"; cat "$tmp"; status=1
      return
    fi
  done
  echo "ok: $case_ refused: $(grep -E 'error' "$tmp" | head -n 1)"
}
must_fail KCC_TEST_WRONG_BUFFER 'kcc_buf_int32' 'kcc_buf_float'
must_fail KCC_TEST_RAW_BUFFER 'kcrt_buffer' 'kcc_buf_float'
must_fail KCC_TEST_LAYOUT "struct Params: field 'offset' must be at offset 4"
exit $status
