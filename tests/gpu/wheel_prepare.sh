#!/bin/sh
# wheel_prepare.sh OUTDIR [WHEEL] — the self-contained wheel (`make wheel`: build/wheel/wheel/
# kcc-*.whl) made ready for tests/gpu/wheel_run.sh, which installs it into the GPU machine's own
# Python and compiles and runs there with no cache filled in advance.
#
# A GPU call carries at most 64 MiB and the wheel is 77 MB (LLVM's deflated libraries), so it
# travels as the same archive with its members stored, compressed by xz (about 45 MB): the run
# unpacks it with Python's lzma into a wheel whose every file is byte for byte the built
# wheel's (pip checks each against the wheel's RECORD), and the built wheel's SHA-256 beside it
# tells the two archives apart in the log.
set -eu
out=${1:?usage: wheel_prepare.sh OUTDIR [WHEEL]}
root=$(cd "$(dirname "$0")/../.." && pwd)
whl=${2:-$(ls "$root"/build/wheel/wheel/kcc-*.whl | head -1)}
rm -rf "$out"
mkdir -p "$out"
name=$(basename "$whl")
python3 - "$whl" "$out/$name" <<'EOF'
import sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as o:
    for info in z.infolist():
        data = z.read(info)
        info.compress_type = zipfile.ZIP_STORED
        o.writestr(info, data)
EOF
xz -9e -T2 "$out/$name"
sha256sum "$whl" | cut -d' ' -f1 >"$out/$name.sha256"
cp "$root/tests/gpu/wheel_run.sh" "$out/"
du -sh "$out"
echo "prepared $out: run 'sh $out/wheel_run.sh $out' on the GPU machine (carry it)"
