#!/bin/sh
# docs_check.sh DOC FILE... — every ```c and ```cmake block of DOC appears, character for
# character, in one of the FILEs: docs/getting-started.md shows the vecadd sample's real code
# (samples/vecadd/*, and the header kcc generated for it), so the two cannot drift apart.
set -u
doc=$1
shift
awk -v ndoc=1 '
  FNR == 1 { fileno++ }
  fileno > ndoc { src[fileno] = src[fileno] $0 "\n"; name[fileno] = FILENAME; next }
  /^```(c|cmake)$/ { inblock = 1; block = ""; start = FNR; next }
  /^```/ && inblock { inblock = 0; blocks[++nb] = block; line[nb] = start; next }
  inblock { block = block $0 "\n" }
  END {
    bad = 0
    for (b = 1; b <= nb; b++) {
      found = 0
      for (f in src) if (index(src[f], blocks[b])) found = 1
      if (!found) {
        printf "FAIL: the code block at %s:%d is in none of the sources:\n%s", ARGV[1], line[b], blocks[b]
        bad = 1
      }
    }
    if (!bad) printf "PASS: %d code blocks of %s found in the sources\n", nb, ARGV[1]
    exit bad
  }' "$doc" "$@"
