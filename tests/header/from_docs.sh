#!/bin/sh
# from_docs.sh PREFIX WORK_DIR [FLAGS] — the installed docs, followed to the letter: the shell
# blocks of PREFIX/share/doc/kcc/getting-started.md run as written (read from the installed
# page at test time, not copied here), with ~/kcc standing for PREFIX (HOME is a fresh
# directory in WORK_DIR holding a link kcc -> PREFIX) and PATH and PKG_CONFIG_PATH set only by
# the `export` commands the page gives. Then samples/make-example, as its Makefile's comment
# says to use it. Each program must print its OK line. FLAGS (the sanitizers, when kcc was built
# with them) reach the C compiler through a `cc` wrapper first in PATH, and CMake through CFLAGS.
set -eu
prefix=$1 work=$2 flags=${3:-}
docdir=$prefix/share/doc/kcc
doc=$docdir/getting-started.md
[ -f "$doc" ] || { echo "FAIL: $doc is not installed"; exit 1; }
rm -rf "$work"
mkdir -p "$work/home" "$work/bin"
export HOME="$work/home"
ln -s "$prefix" "$HOME/kcc"
if [ -n "$flags" ]; then
  real_cc=$(command -v cc)
  printf '#!/bin/sh\nexec %s %s "$@"\n' "$real_cc" "$flags" >"$work/bin/cc"
  chmod +x "$work/bin/cc"
  export PATH="$work/bin:$PATH" CFLAGS="$flags" LDFLAGS="$flags"
fi

# The page's own setup lines: `export PATH=...` (installing) and `export PKG_CONFIG_PATH=...`.
for var in PATH PKG_CONFIG_PATH; do
  line=$(grep -o "export $var=[^\`]*" "$doc" | head -n 1)
  [ -n "$line" ] || { echo "FAIL: $doc gives no 'export $var=' line"; exit 1; }
  echo "from the page: $line"
  eval "$line"
done
command -v kcc >/dev/null || { echo "FAIL: kcc is not on the PATH the page sets"; exit 1; }

# Every ```sh block, numbered in page order.
awk -v dir="$work" '
  /^```sh$/ { n++; f = dir "/block" n ".sh"; inblock = 1; next }
  /^```/ && inblock { inblock = 0; close(f); next }
  inblock { print > f }' "$doc"
ls "$work"/block*.sh >/dev/null 2>&1 || { echo "FAIL: no sh blocks in $doc"; exit 1; }
# The CMake block copies samples/vecadd to ~/vecadd, builds it and runs it; the block after it
# builds the same program without CMake (run in that copy, beside vecadd.k and main.c).
cmake_block=$(grep -l "cmake --build" "$work"/block*.sh | head -n 1)
plain_block=$(grep -l "pkg-config" "$work"/block*.sh | head -n 1)
[ -n "$cmake_block" ] && [ -n "$plain_block" ] || { echo "FAIL: the page lost its build blocks"; exit 1; }

check_ok() { # NAME OUTPUT-FILE RC
  cat "$2"
  [ "$3" = 77 ] && grep -q "no device" "$2" && { echo "SKIP: no device"; exit 77; }
  [ "$3" = 0 ] || { echo "FAIL: $1 exited $3"; exit 1; }
  grep -q "$4" "$2" || { echo "FAIL: $1 printed no '$4' line"; exit 1; }
}

echo "== $(basename "$cmake_block") (from $docdir):"; cat "$cmake_block"
rc=0; (cd "$docdir" && sh -e "$cmake_block") >"$work/cmake.out" 2>&1 || rc=$?
check_ok "the CMake build" "$work/cmake.out" $rc "^check: OK"
grep -q "^kcc_DIR:PATH=$HOME/kcc/" "$HOME/vecadd/build/CMakeCache.txt" ||
  { echo "FAIL: CMake did not find kcc under ~/kcc"; grep '^kcc_DIR' "$HOME/vecadd/build/CMakeCache.txt"; exit 1; }

echo "== $(basename "$plain_block") (in ~/vecadd):"; cat "$plain_block"
rc=0; (cd "$HOME/vecadd" && sh -e "$plain_block" && ./vecadd) >"$work/plain.out" 2>&1 || rc=$?
check_ok "the pkg-config build" "$work/plain.out" $rc "^check: OK"

# samples/make-example: "point PKG_CONFIG_PATH at <prefix>/lib/pkgconfig ... make run".
grep -q "make run" "$docdir/samples/make-example/Makefile" ||
  { echo "FAIL: the installed Makefile no longer documents 'make run'"; exit 1; }
cp -R "$docdir/samples/make-example" "$HOME/make-example"
chmod -R u+w "$HOME/make-example"
rc=0; make -C "$HOME/make-example" run >"$work/make.out" 2>&1 || rc=$?
check_ok "make run" "$work/make.out" $rc ": OK$"
echo "PASS: getting-started.md's commands and make-example, from $prefix's docs only"
