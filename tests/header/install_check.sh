#!/bin/sh
# install_check.sh CMAKE BUILD_DIR PREFIX LIBDIR — `cmake --install BUILD_DIR --prefix PREFIX`
# into a fresh PREFIX, then checks that everything a user needs is there and usable: kcc runs,
# both libkcrt flavours, kcrt.h, libkcc (libkcc.h, libkcc.so, libkcc.pc: a program compiles a
# kernel through it), the CMake package, kcrt.pc (through pkg-config), the man page.
set -eu
cmake=$1 build=$2 prefix=$3 libdir=$4
rm -rf "$prefix"
"$cmake" --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1 || { cat "$prefix.log"; exit 1; }
status=0
for f in bin/kcc bin/kcbinfo include/kcrt.h "$libdir/libkcrt.a" "$libdir/libkcrt.so" \
         "$libdir/cmake/kcc/kccConfig.cmake" "$libdir/cmake/kcc/kccConfigVersion.cmake" \
         "$libdir/cmake/kcc/KccAddKernels.cmake" "$libdir/pkgconfig/kcrt.pc" "$libdir/pkgconfig/kcrt-static.pc" \
         share/man/man1/kcc.1 share/doc/kcc/samples/vecadd/main.c share/doc/kcc/getting-started.md share/doc/kcc/runtime.md share/doc/kcc/cli.md share/doc/kcc/dialect.md \
         include/libkcc.h "$libdir/libkcc.so" "$libdir/pkgconfig/libkcc.pc"; do
  if [ -e "$prefix/$f" ]; then echo "installed: $f"; else echo "FAIL: missing $f"; status=1; fi
done
# The installed compiler runs (its libclang/LLVM found through its RPATH or the system).
"$prefix/bin/kcc" --version
# The man page renders.
if command -v man >/dev/null; then
  MANPAGER=cat MANWIDTH=80 man -l "$prefix/share/man/man1/kcc.1" 2>&1 | grep -q "kcc" ||
    { echo "FAIL: man cannot read kcc.1"; status=1; }
fi
# pkg-config finds kcrt in the prefix, and its paths are the prefix's (kcrt.pc is relocatable).
if command -v pkg-config >/dev/null; then
  pc="env PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig pkg-config"
  cflags=$($pc --cflags kcrt) libs=$($pc --libs kcrt) kcc=$($pc --variable=kcc kcrt)
  echo "pkg-config: --cflags '$cflags' --libs '$libs' --variable=kcc '$kcc'"
  [ "$($pc --modversion kcrt)" != "" ] || status=1
  [ -x "$kcc" ] || { echo "FAIL: pkg-config's kcc '$kcc' is not the installed kcc"; status=1; }
  # Plain paths: no "//" and no "pkgconfig/../.." (issue 13).
  case "$cflags $libs $kcc" in
    *//* | */../*) echo "FAIL: pkg-config's paths are not plain: '$cflags' '$libs' '$kcc'"; status=1 ;;
  esac
  inc=$(echo "$cflags" | sed -n 's/^-I\([^ ]*\).*/\1/p')
  [ -f "$inc/kcrt.h" ] || { echo "FAIL: pkg-config's -I has no kcrt.h"; status=1; }
  # libkcc through its pkg-config file: a program compiles a kernel in process.
  cat >"$prefix.libkcc.c" <<'EOF2'
#include <libkcc.h>
#include <stdio.h>
#include <string.h>
int main(void) {
  const char *src = "kernel void k(float *p) { p[threadIdx.x] = 1.0f; }\n";
  const char *opt[] = {"--emit=ptx"};
  kcc_result *r;
  kcc_status st = kcc_compile(src, strlen(src), "k.k", opt, 1, &r);
  int ok = st == KCC_SUCCESS && strstr(kcc_result_output(r, NULL), ".entry k(") != NULL;
  printf("libkcc %s: %s\n", kcc_version(), kcc_status_string(st));
  kcc_result_free(r);
  return !ok;
}
EOF2
  ldir=$($pc --variable=libdir libkcc)
  # shellcheck disable=SC2086 # KCC_USER_CFLAGS: the sanitizers an instrumented libkcc needs
  if cc ${KCC_USER_CFLAGS:-} "$prefix.libkcc.c" -o "$prefix.libkcc" $($pc --cflags --libs libkcc) \
       -Wl,-rpath,"$ldir" &&
     "$prefix.libkcc"; then :; else echo "FAIL: a program using the installed libkcc"; status=1; fi
fi
exit $status
