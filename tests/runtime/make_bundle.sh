#!/bin/sh
# make_bundle.sh KCC SOURCE.k OUT.kcb — the build step of the runtime tests. A kernel that kcc
# cannot compile must not break everyone's build: the bundle is then left missing, kcc's
# messages are kept in OUT.kcb.log, and the runtime test of that kernel fails showing them.
# A `// kcc-args: ...` line in the source adds options (-cl-std=CL2.0), as in tests/cl/bad.
rm -f "$3"
args=$(sed -n 's,^// kcc-args: ,,p' "$2")
# shellcheck disable=SC2086
if "$1" $args "$2" -o "$3" 2>"$3.log"; then
  rm -f "$3.log"
else
  echo "warning: kcc could not compile $2 (its runtime test will fail): $(head -c 400 "$3.log")"
fi
exit 0
