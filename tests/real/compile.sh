#!/bin/sh
# compile.sh MODE KCC KERNEL OUTDIR EXPECT-FILE -- [BUILD-OPTIONS...]
#
# One corpus kernel (tests/real/opencl/NAME.cl or tests/real/cuda/NAME.cu) through kcc,
# unchanged. The kernel's extension picks nothing here: kcc itself reads .cl as OpenCL C and
# .cu as CUDA.
#
#   MODE pass  kcc writes every form and each consumer accepts it (tests/consume.sh):
#              PTX (ptxas), SPIR-V (validated by kcc in process, then by spirv-val),
#              OpenCL C (clang's OpenCL parser), CUDA C (nvcc), and the bundle (.kcb).
#              Warnings are allowed (real code has unused variables); an error is not.
#              A form the kernel cannot be written in (warp operations have no SPIR-V 1.0
#              form; clock() no OpenCL C one) is pinned in FORMS next to EXPECT-FILE:
#              `NAME EXT FIRST-DIAGNOSTIC-LINE`; kcc must refuse that form with exactly that
#              first line, and write every other form.
#   MODE fail  kcc must fail, and the first line it prints must be exactly the text after
#              `NAME fail ` on the kernel's line of EXPECT-FILE (read here rather than passed
#              through CMake, so that a diagnostic may contain `;` or quotes).
#
# kcc runs in the kernel's directory on the bare file name, so that diagnostics read
# `NAME.cl:LINE:COL: ...` (or `NAME.cu:...`) wherever the checkout is. BUILD-OPTIONS come from
# the corpus's OPTIONS file (-D..., and -Iinclude/NAME for the CUDA corpus's local headers,
# relative to the kernel's directory), passed to kcc as they are.
# Exit status: 0 pass, 1 fail.
mode=$1 kcc=$2 kernel=$3 out=$4 expect_file=$5
shift 5
[ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "$0")/.." && pwd)
# Absolute paths: the compiles below run in the kernel's directory.
case $kcc in /*) ;; */*) kcc=$(pwd)/$kcc ;; esac
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
case $expect_file in /*) ;; *) expect_file=$(pwd)/$expect_file ;; esac
dir=$(cd "$(dirname "$kernel")" && pwd)
file=$(basename "$kernel")
name=${file%.*}
mkdir -p "$out"
expected=$(sed -n "s/^$name[[:space:]][[:space:]]*fail[[:space:]][[:space:]]*//p" "$expect_file" | head -n 1)
cd "$dir" || exit 1

if [ "$mode" = fail ]; then
  "$kcc" "$@" "$file" -o "$out/$name.ptx" 2>"$out/$name.err"
  rc=$?
  first=$(head -n 1 "$out/$name.err")
  if [ $rc -eq 0 ]; then
    echo "kcc accepted $file; EXPECT says it fails with: $expected"
    echo "(if the front end now takes it, change its EXPECT line to 'pass')"
    exit 1
  fi
  if [ "$first" != "$expected" ]; then
    echo "kcc failed on $file (exit $rc) with a different first line."
    echo "expected: $expected"
    echo "got:      $first"
    sed 's/^/  | /' "$out/$name.err" | head -20
    exit 1
  fi
  echo "kcc refused $file as pinned: $first"
  exit 0
fi

status=0
forms_file=$(dirname "$expect_file")/FORMS
# PTX (-arch=sm_75, kcc's default), SPIR-V, OpenCL C, CUDA C, bundle.
for ext in ptx spv kcc.cl cu kcb; do
  pinned=""
  [ -f "$forms_file" ] &&
    pinned=$(sed -n "s/^$name[[:space:]][[:space:]]*${ext##*.}[[:space:]][[:space:]]*//p" "$forms_file" |
      head -n 1)
  if ! "$kcc" "$@" "$file" -o "$out/$name.$ext" 2>"$out/$name.$ext.err"; then
    first=$(head -n 1 "$out/$name.$ext.err")
    if [ -n "$pinned" ] && [ "$first" = "$pinned" ]; then
      echo "kcc refused $name.$ext as pinned in FORMS: $first"
      continue
    fi
    echo "kcc $* $file -o $name.$ext failed:"
    cat "$out/$name.$ext.err"
    [ -n "$pinned" ] && echo "(FORMS pins: $pinned)"
    status=1
    continue
  fi
  if [ -n "$pinned" ]; then
    echo "kcc wrote $name.$ext, which FORMS says it refuses ($pinned): update FORMS"
    status=1
    continue
  fi
  if [ -s "$out/$name.$ext.err" ]; then
    echo "kcc $name.$ext: diagnostics (allowed):"
    sed 's/^/  | /' "$out/$name.$ext.err" | head -20
  fi
  case $ext in
    kcb) sh "$here/consume.sh" "$out/$name.kcb" || status=1 ;;
    *) sh "$here/consume.sh" "$out/$name.$ext" || status=1 ;;
  esac
done
[ $status -eq 0 ] && echo "$file: every form accepted by its consumer or refused as pinned"
exit $status
