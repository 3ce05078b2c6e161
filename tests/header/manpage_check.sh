#!/bin/sh
# manpage_check.sh KCC MANPAGE — docs/kcc.1 stays true to `kcc --help`: every option and every
# output form the help lists appears in the man page, and groff reads the page without
# warnings.
set -u
kcc=$1 page=$2
help=$("$kcc" --help) || { echo "FAIL: kcc --help"; exit 1; }
# The man page's text with roff's escaped hyphens made plain.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$page")
status=0
# Options: the first word of each "  -x" line of the help ("-I DIR," -> "-I").
for opt in $(printf '%s\n' "$help" | sed -n 's/^  \(-[^ ,=[]*\).*/\1/p'); do
  case $opt in -O0) opt=-O ;; esac
  printf '%s\n' "$text" | grep -q -- "$opt" || { echo "FAIL: $opt is not in $page"; status=1; }
done
# Option names joined on one help line ("-I DIR, -D NAME[=VALUE], -U NAME").
for opt in -D -U -O3 -MF; do
  printf '%s\n' "$text" | grep -q -- "$opt" || { echo "FAIL: $opt is not in $page"; status=1; }
done
# Output forms: "  .ext   name   what".
printf '%s\n' "$help" | sed -n 's/^  \(\.[a-z]*\) *\([a-z]*\) .*/\1 \2/p' | while read -r ext name; do
  printf '%s\n' "$text" | grep -qF -- "$ext" || { echo "FAIL: form $ext is not in $page"; exit 1; }
  printf '%s\n' "$text" | grep -q -- "$name" || { echo "FAIL: form $name is not in $page"; exit 1; }
done || status=1
if command -v groff >/dev/null; then
  warn=$(groff -man -ww -z "$page" 2>&1)
  [ -z "$warn" ] || { echo "FAIL: groff warns:"; echo "$warn"; status=1; }
fi
[ $status = 0 ] && echo "PASS: $page covers every option and form of kcc --help"
exit $status
