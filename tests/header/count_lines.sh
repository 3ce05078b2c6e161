#!/bin/sh
# count_lines.sh MAX FILE — counts FILE's lines of C code (lines with something besides
# blanks and comments; a code line with a trailing comment counts) and fails when there are
# more than MAX. Guards the host-code budget of the samples (issue 13: vecadd <= 55,
# hello <= 12). String literals holding "/*" or "//" would confuse it: the samples have none.
max=$1
file=$2
n=$(awk '
  {
    line = $0; code = ""
    while (length(line) > 0) {
      if (incom) {
        e = index(line, "*/")
        if (e == 0) { line = ""; break }
        line = substr(line, e + 2); incom = 0
      } else {
        s = index(line, "/*"); d = index(line, "//")
        if (d > 0 && (s == 0 || d < s)) { code = code substr(line, 1, d - 1); line = ""; break }
        if (s == 0) { code = code line; line = ""; break }
        code = code substr(line, 1, s - 1); line = substr(line, s + 2); incom = 1
      }
    }
    if (code ~ /[^ \t]/) n++
  }
  END { print n + 0 }' "$file") || exit 2
echo "$file: $n lines of code (at most $max)"
[ "$n" -le "$max" ]
