#!/usr/bin/env bash
# run.sh — the registry corpus: real kernels as projects ship them, downloaded at test time
# with the registries' own clients (pip, apt-get), compiled unchanged by kcc.
#
#   run.sh [--kcc KCC] [--out DIR] [--jobs N] [--update] [PACKAGE...]
#   run.sh --fetch [--out DIR] [PACKAGE...]     download only (ctest's corpus.fetch)
#   run.sh --summary [--out DIR]                totals of the last run of every package
#   run.sh --report [--out DIR]                 pinned diagnostics grouped by message
#   run.sh --path KEY [--out DIR]               a corpus file's path (fetched if need be)
#   run.sh --options KEY [--out DIR]            its build options (-I paths made absolute)
#
# MANIFEST (next to this script) names the packages (pinned versions), the files of each
# (globs inside the package) and the build options the project's own build passes. Each
# package is downloaded once into OUT/src/NAME-VERSION (the cache: a second run needs no
# network); a package that cannot be downloaded is an error, never a silent pass.
#
# Every file gets the lines EXPECT holds for it (KEY is PACKAGE/PATH, PATH relative to the
# package's root):
#   KEY pass                 kcc wrote PTX, and every other form (SPIR-V, OpenCL C, CUDA C,
#                            bundle) it writes was accepted by its consumer (tests/consume.sh:
#                            ptxas, spirv-val, clang's OpenCL C parser, nvcc)
#   KEY form EXT DIAGNOSTIC  with pass: kcc refuses form EXT (spv, cl, cu, kcb) with exactly
#                            this first error line (a form the kernel cannot be written in)
#   KEY rejected EXT         with pass: kcc wrote form EXT, and its consumer rejected it (a kcc
#                            bug, pinned so that it is seen; the file does not count as passing)
#   KEY fail DIAGNOSTIC      kcc refuses the file; DIAGNOSTIC is its first error line, exact
# kcc runs in the file's directory on the bare file name, so diagnostics read `NAME.cu:L:C: `
# wherever the cache is. The run fails if what kcc does differs from EXPECT in any line;
# `run.sh --update [PACKAGE...]` rewrites those packages' lines from the current compiler.
#
# Defaults: KCC build/kcc, OUT build/corpus, JOBS 2 (relative to the checkout's root).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
manifest=$here/MANIFEST
expect=$here/EXPECT
forms=(spv cl cu kcb)

die() {
  echo "corpus: $*" >&2
  exit 1
}

# First error line of a diagnostics file (warnings before it are not pinned), else its first
# line, else a note that kcc said nothing.
first_error() {
  local line
  line=$(grep -m1 -E '(^|: )(fatal )?error: ' "$1" || true)
  [ -n "$line" ] || line=$(head -n 1 "$1")
  [ -n "$line" ] || line="(kcc failed and printed nothing)"
  printf '%s\n' "$line"
}

# --job LINE: one line of a package's job list (tab-separated --one arguments), from xargs.
if [ "${1:-}" = --job ]; then
  IFS=$'\t' read -r -a a <<<"$2"
  exec bash "$0" --one "${a[@]}"
fi

# --one PKG PKGROOT REL OUT KCC [OPTION...]: what kcc does with one file, as EXPECT lines on
# standard output. Runs under xargs -P.
if [ "${1:-}" = --one ]; then
  pkg=$2 pkgroot=$3 rel=$4 out=$5 kcc=$6
  shift 6
  key=$pkg/$rel
  src=$pkgroot/$rel
  dir=$(dirname "$src")
  base=$(basename "$src")
  work=$out/work/$key
  rm -rf "$work"
  mkdir -p "$work"
  # A `loader` file: the project's host never builds the file as shipped but as its loader
  # reads it (silx.opencl.utils.read_cl_file: lines that start with `#include ` dropped), so kcc
  # gets that text, under the same name, in a directory of its own beside the package's.
  if [ "${1:-}" = --corpus-loader ]; then
    shift
    dir=$work/loaded
    mkdir -p "$dir"
    grep -v '^#include ' "$src" >"$dir/$base" || true
    src=$dir/$base
  fi
  # Options' -I paths are relative to the package's root; kcc runs in the file's directory.
  opts=()
  while [ $# -gt 0 ]; do
    case $1 in
    -I) opts+=("-I$(realpath -m --relative-to="$dir" "$pkgroot/$2")") && shift ;;
    -I*) opts+=("-I$(realpath -m --relative-to="$dir" "$pkgroot/${1#-I}")") ;;
    *) opts+=("$1") ;;
    esac
    shift
  done
  cd "$dir"
  lines=()
  ok=1
  if ! timeout 300 "$kcc" "${opts[@]}" "$base" -o "$work/out.ptx" 2>"$work/ptx.err"; then
    echo "$key fail $(first_error "$work/ptx.err")"
    exit 0
  else
    sh "$root/tests/consume.sh" "$work/out.ptx" >"$work/ptx.consume" 2>&1 ||
      { lines+=("$key rejected ptx") && ok=0; }
  fi
  for ext in "${forms[@]}"; do
    if ! timeout 300 "$kcc" "${opts[@]}" "$base" -o "$work/out.$ext" 2>"$work/$ext.err"; then
      lines+=("$key form $ext $(first_error "$work/$ext.err")")
    elif ! sh "$root/tests/consume.sh" "$work/out.$ext" >"$work/$ext.consume" 2>&1; then
      lines+=("$key rejected $ext")
      ok=0
    fi
  done
  [ $ok = 1 ] && echo "$key pass"
  for l in "${lines[@]}"; do printf '%s\n' "$l"; done
  exit 0
fi

mode=check kcc=$root/build/kcc out=$root/build/corpus jobs=2 update=0 key=""
pkgs=()
while [ $# -gt 0 ]; do
  case $1 in
  --kcc) kcc=$2 && shift ;;
  --out) out=$2 && shift ;;
  --jobs) jobs=$2 && shift ;;
  --update) update=1 ;;
  --fetch) mode=fetch ;;
  --summary) mode=summary ;;
  --report) mode=report ;;
  --path | --options) mode=${1#--} key=$2 && shift ;;
  -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d' && exit 0 ;;
  -*) die "unknown option $1 (see run.sh --help)" ;;
  *) pkgs+=("$1") ;;
  esac
  shift
done
case $kcc in /*) ;; *) kcc=$(pwd)/$kcc ;; esac
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
mkdir -p "$out"

# The manifest, read into parallel arrays: per package its kind, version and root glob; per
# rule (files, options, framework) the package it belongs to and its words.
declare -A kind version rootglob
names=()
rules=()
pkg=""
while read -r word rest; do
  case $word in
  "" | \#*) continue ;;
  package)
    read -r pkg k v r <<<"$rest"
    [ -n "$v" ] || die "MANIFEST: 'package NAME KIND VERSION [ROOT]': $rest"
    case $k in pypi | deb) ;; *) die "MANIFEST: $pkg: kind '$k' is not pypi or deb" ;; esac
    names+=("$pkg")
    kind[$pkg]=$k version[$pkg]=$v rootglob[$pkg]=${r:-.}
    ;;
  files | options | framework | extract | program | loader)
    [ -n "$pkg" ] || die "MANIFEST: '$word' before any 'package' line"
    rules+=("$pkg $word $rest")
    ;;
  *) die "MANIFEST: unknown line: $word $rest" ;;
  esac
done <"$manifest"
if [ ${#pkgs[@]} -eq 0 ]; then
  pkgs=("${names[@]}")
else
  for p in "${pkgs[@]}"; do [ -n "${kind[$p]:-}" ] || die "no package '$p' in MANIFEST"; done
fi

# fetch PKG: the package's files in OUT/src/PKG-VERSION (downloaded unless already there).
fetch() {
  local p=$1 v=${version[$1]} dest tmp log top
  dest=$out/src/$p-$v
  [ -f "$dest/.kcc-corpus-fetched" ] && return 0
  rm -rf "$dest"
  mkdir -p "$out/src"
  tmp=$(mktemp -d "$out/src/.fetch-$p.XXXXXX")
  log=$tmp/log
  echo "corpus: downloading $p $v (${kind[$p]})"
  if [ "${kind[$p]}" = pypi ]; then
    # The source distribution as pip fetches it. pip prepares an sdist's metadata before it
    # saves it, which runs the package's build backend: that fails for projects whose setup
    # needs torch or a CUDA toolkit, after pip has unpacked the sdist. --no-clean keeps that
    # unpacked tree (TMPDIR/pip-*/NAME_*/), so either outcome gives the files; nothing is built.
    local pip=(python3 -m pip)
    "${pip[@]}" --version >/dev/null 2>&1 || pip=(pip3)
    mkdir -p "$tmp/tmp" "$tmp/dl" "$tmp/x"
    TMPDIR=$tmp/tmp PIP_DISABLE_PIP_VERSION_CHECK=1 timeout 900 "${pip[@]}" download --no-deps \
      --no-binary :all: --no-build-isolation --no-clean -d "$tmp/dl" "$p==$v" >"$log" 2>&1 || true
    local archive
    archive=$(find "$tmp/dl" -maxdepth 1 -type f \( -name '*.tar.gz' -o -name '*.zip' \) | head -n 1)
    if [ -n "$archive" ]; then
      case $archive in
      *.zip) (cd "$tmp/x" && python3 -m zipfile -e "$archive" .) ;;
      *) tar -xzf "$archive" -C "$tmp/x" ;;
      esac
      top=$(find "$tmp/x" -mindepth 1 -maxdepth 1 -type d | head -n 1)
    else
      top=$(find "$tmp/tmp" -mindepth 3 -maxdepth 3 -name PKG-INFO -printf '%h\n' | head -n 1)
    fi
    if [ -z "$top" ] || ! grep -qx "Version: $v" "$top/PKG-INFO"; then
      tail -n 15 "$log" | sed 's/^/  | /' >&2
      rm -rf "$tmp"
      die "could not download the sdist of $p $v with pip (no network, or no such version?)"
    fi
  else
    mkdir -p "$tmp/x"
    if ! (cd "$tmp" && timeout 900 apt-get download "$p=$v") >"$log" 2>&1; then
      sed 's/^/  | /' "$log" >&2
      rm -rf "$tmp"
      die "could not download $p=$v with apt-get (no network, stale apt lists - apt-get update -, or the version left the archive?)"
    fi
    dpkg-deb -x "$tmp"/*.deb "$tmp/x"
    top=$tmp/x
  fi
  mv "$top" "$dest"
  rm -rf "$tmp"
  touch "$dest/.kcc-corpus-fetched"
}

# pkgroot PKG: the directory file paths are relative to (the package's ROOT glob, resolved).
pkgroot() {
  local base=$out/src/$1-${version[$1]} m
  [ -f "$base/.kcc-corpus-fetched" ] || die "$1 ${version[$1]} is not downloaded (run.sh --fetch)"
  m=$(cd "$base" && set +f && shopt -s nullglob && for d in ${rootglob[$1]}; do [ -d "$d" ] && echo "$d"; done)
  [ "$(printf '%s\n' "$m" | grep -c .)" = 1 ] ||
    die "$1: root '${rootglob[$1]}' matches $(printf '%s\n' "$m" | grep -c .) directories, not 1"
  (cd "$base/$m" && pwd)
}

# The corpus files of PKG, one relative path a line, sorted; a files glob matching nothing is
# a manifest error (the pinned package does not hold what the manifest says).
files_of() {
  local p=$1 r=$2 rule rp word g n
  local -
  set -f # the globs are expanded in the package's directory below, never in the caller's
  for rule in "${rules[@]}"; do
    read -r rp word rest <<<"$rule"
    [ "$rp" = "$p" ] && [ "$word" = files ] || continue
    for g in $rest; do
      n=$(cd "$r" && set +f && shopt -s globstar nullglob && for f in $g; do [ -f "$f" ] && echo "$f"; done)
      [ -n "$n" ] || die "MANIFEST: $p: '$g' matches no file"
      printf '%s\n' "$n"
    done
  done | sort -u
}

# options_of PKG REL: the build options of every options rule whose glob matches REL.
options_of() {
  local rule rp word g o
  for rule in "${rules[@]}"; do
    read -r rp word g o <<<"$rule"
    [ "$rp" = "$1" ] && [ "$word" = options ] || continue
    # shellcheck disable=SC2053 # the glob is a pattern on purpose
    [[ $2 == $g ]] && printf '%s ' "$o"
  done
  return 0
}

# rule_word PKG REL WORD: the first word after WORD of the package's first WORD rule whose
# globs (the words after that one) match REL, or nothing.
rule_word() {
  local rule rp word w g
  local -
  set -f # the globs are patterns matched against REL, not expanded here
  for rule in "${rules[@]}"; do
    read -r rp word w rest <<<"$rule"
    [ "$rp" = "$1" ] && [ "$word" = "$3" ] || continue
    for g in $rest; do
      # shellcheck disable=SC2053
      [[ $2 == $g ]] && echo "$w" && return 0
    done
  done
  return 0
}

# framework_of PKG REL: the framework a file's device code needs (torch...), or nothing.
framework_of() { rule_word "$1" "$2" framework; }

# loader_of PKG REL: --corpus-loader for a file its project's host reads through a loader.
loader_of() { [ -z "$(rule_word "$1" "$2" loader)" ] || echo --corpus-loader; }

# extract PKG ROOT: for each Python file an `extract GLOB [NAME=VALUE...]` rule matches (the last
# such rule gives the values), its kernel strings as FILE.py.kN.cl beside it
# (tests/corpus/pykernels.py), so that files globs and keys can name them. Done on every run
# (cheap, and follows the rules); pykernels.py rewrites a file only when its text changes.
extract() {
  local rule rp word g vals f
  declare -A last=()
  for rule in "${rules[@]}"; do
    read -r rp word g vals <<<"$rule"
    [ "$rp" = "$1" ] && [ "$word" = extract ] || continue
    for f in $(cd "$2" && shopt -s globstar nullglob && echo $g); do last[$f]=$vals; done
  done
  for f in "${!last[@]}"; do
    # shellcheck disable=SC2086 # NAME=VALUE words
    python3 "$here/pykernels.py" "$2/$f" ${last[$f]} >/dev/null
  done
}

# programs PKG ROOT: each `program NAME FILE...` rule's source, ROOT/kcc-programs/NAME, made as
# silx.opencl.utils.concatenate_cl_kernel makes a program of its files (pyFAI and silx build
# their OpenCL programs so): each file's lines that start with `#include ` dropped, the files
# joined with newlines. A FILE is relative to ROOT, or PACKAGE:PATH to that package's ROOT.
# Rewritten only when the text changes.
programs() {
  local rule rp word name srcs f q
  for rule in "${rules[@]}"; do
    read -r rp word name rest <<<"$rule"
    [ "$rp" = "$1" ] && [ "$word" = program ] || continue
    srcs=()
    for f in $rest; do
      case $f in
      *:*)
        q=${f%%:*}
        [ -n "${kind[$q]:-}" ] || die "MANIFEST: $1: program $name: no package '$q'"
        fetch "$q" >&2
        srcs+=("$(pkgroot "$q")/${f#*:}")
        ;;
      *) srcs+=("$2/$f") ;;
      esac
    done
    python3 - "$2/kcc-programs/$name" "${srcs[@]}" <<'PY' || die "MANIFEST: $1: program $name"
import os, sys
out, parts = sys.argv[1], []
for path in sys.argv[2:]:
    with open(path) as f:
        parts.append("".join(l for l in f if not l.startswith("#include ")))
text = "\n".join(parts)
os.makedirs(os.path.dirname(out), exist_ok=True)
if not os.path.exists(out) or open(out).read() != text:
    with open(out, "w") as f:
        f.write(text)
PY
  done
}

# key_parts KEY: "PKG ROOT REL" for a corpus key (fetching and extracting as need be).
key_parts() {
  local p=${1%%/*} rel=${1#*/} r
  [ -n "${kind[$p]:-}" ] || die "$1: no package '$p' in MANIFEST"
  fetch "$p" >&2
  r=$(pkgroot "$p")
  extract "$p" "$r"
  programs "$p" "$r"
  [ -f "$r/$rel" ] || die "$1: no file $rel in $p ${version[$p]}"
  echo "$p $r $rel"
}

if [ $mode = path ]; then
  read -r p r rel <<<"$(key_parts "$key")"
  echo "$r/$rel"
  exit 0
fi
if [ $mode = options ]; then
  read -r p r rel <<<"$(key_parts "$key")"
  o=()
  # shellcheck disable=SC2046 # options are words
  set -- $(options_of "$p" "$rel")
  while [ $# -gt 0 ]; do
    case $1 in
    -I) o+=("-I$r/$2") && shift ;;
    -I*) o+=("-I$r/${1#-I}") ;;
    *) o+=("$1") ;;
    esac
    shift
  done
  echo "${o[*]}"
  exit 0
fi

if [ $mode = fetch ]; then
  for p in "${pkgs[@]}"; do fetch "$p"; done
  echo "corpus: ${#pkgs[@]} packages in $out/src"
  exit 0
fi

# stats PKG: one line of counts from OUT/results/PKG.{obs,framework} (written by check).
stats() {
  local p=$1 obs=$out/results/$1.obs fw=$out/results/$1.framework
  awk -v pkg="$p" -v ver="${version[$p]}" -v fwfile="$fw" '
    BEGIN { while ((getline l < fwfile) > 0) { split(l, a, " "); fw[a[1]] = a[2] } }
    { key = $1; files[key] = 1
      if ($2 == "pass") pass[key] = 1
      else if ($2 == "fail") fail[key] = 1
      else if ($2 == "form") refused[key, $3] = 1
      else if ($2 == "rejected") rejected[key, $3] = 1 }
    END {
      split("ptx spv cl cu kcb", forms, " ")
      for (k in files) {
        if (k in fw) { nfw++; fwn[fw[k]]++; if (k in pass) fwpass++; continue }
        m++
        if (k in pass) n++
        if (k in fail) nfail++
        if (k in fail) continue
        for (i = 1; i <= 5; i++) if (!((k, forms[i]) in refused) && !((k, forms[i]) in rejected)) per[forms[i]]++
      }
      fwtxt = ""
      for (f in fwn) fwtxt = fwtxt (fwtxt == "" ? "" : ", ") f " " fwn[f]
      printf "%s %s %d %d %d %d %d %d %d %d %d %s\n", pkg, ver, n + 0, m + 0, nfail + 0,
        per["ptx"] + 0, per["spv"] + 0, per["cl"] + 0, per["cu"] + 0, per["kcb"] + 0, nfw + 0,
        (fwtxt == "" ? "-" : fwtxt)
    }' "$obs"
}

summary() {
  local p tn=0 tm=0 tfw=0 line n m nfail ptx spv cl cu kcb nfw fwtxt lines=()
  for p in "$@"; do
    [ -f "$out/results/$p.obs" ] || die "no results for $p: run the corpus test first"
    line=$(stats "$p")
    read -r _ _ n m nfail ptx spv cl cu kcb nfw fwtxt <<<"$line"
    tn=$((tn + n)) tm=$((tm + m)) tfw=$((tfw + nfw))
    lines+=("$(printf '  %-18s %-26s %4d/%-4d pass  (written and accepted: ptx %d, spv %d, cl %d, cu %d, kcb %d; %d pinned diagnostics)%s' \
      "$p" "${version[$p]}" "$n" "$m" "$ptx" "$spv" "$cl" "$cu" "$kcb" "$nfail" \
      "$([ "$nfw" = 0 ] || echo "; $nfw more need a framework: $fwtxt")")")
  done
  echo "corpus: $tn/$tm files pass ($# packages; $tfw more files need a framework's headers and are counted apart)"
  printf '%s\n' "${lines[@]}"
}

if [ $mode = summary ]; then
  summary "${pkgs[@]}"
  exit 0
fi

if [ $mode = report ]; then
  # Pinned diagnostics by message (file, line and column dropped), per kind of outcome.
  for p in "${pkgs[@]}"; do cat "$out/results/$p.obs"; done |
    awk '$2 == "fail" || $2 == "form" {
           msg = $0; sub(/^[^ ]+ (fail|form [a-z]+) /, "", msg)
           sub(/^[^ ]*: (fatal )?error: /, "", msg)
           split($1, k, "/"); m = ($2 == "form" ? "form " $3 ": " : "") msg
           n[m]++; pk[m, k[1]]++; pkgs[k[1]] = 1 }
         END {
           for (m in n) {
             t = ""
             for (p in pkgs) if ((m, p) in pk) t = t (t == "" ? "" : ", ") p " " pk[m, p]
             printf "%5d  %s  (%s)\n", n[m], m, t
           } }' | sort -rn
  exit 0
fi

# check: every selected package, each file through kcc (xargs -P), compared with EXPECT.
[ -x "$kcc" ] || die "kcc not found at $kcc (--kcc)"
# nvcc checks kcc's CUDA C for its device half only (-cubin): hundreds of files, and nvcc -c's
# host compile of the same kernel declarations each time would triple the corpus's time.
export CONSUME_NVCC_CUBIN=1
mkdir -p "$out/results"
status=0
# Lines of EXPECT for a package the manifest no longer names would never be checked.
stale=$(grep -v -e '^#' -e '^$' "$expect" | cut -d/ -f1 | sort -u |
  grep -v -x -F "$(printf '%s\n' "${names[@]}")" || true)
[ -z "$stale" ] || [ $update = 1 ] ||
  die "tests/corpus/EXPECT has lines for packages MANIFEST does not name (--update drops them): $stale"
for p in "${pkgs[@]}"; do
  fetch "$p"
  r=$(pkgroot "$p")
  extract "$p" "$r"
  programs "$p" "$r"
  list=$(files_of "$p" "$r")
  : >"$out/results/$p.framework"
  while read -r rel; do
    case $rel in *[[:space:]]*) die "$p: '$rel': a path with white space cannot be a key" ;; esac
    fw=$(framework_of "$p" "$rel")
    [ -z "$fw" ] || echo "$p/$rel $fw" >>"$out/results/$p.framework"
    # One job a line for xargs, its arguments separated by tabs (no path here has one):
    # PKG ROOT REL OUT KCC OPTIONS...
    # shellcheck disable=SC2046 # options are words
    printf '%s\t' "$p" "$r" "$rel" "$out" "$kcc" $(loader_of "$p" "$rel") $(options_of "$p" "$rel")
    printf '\n'
  done <<<"$list" >"$out/results/$p.jobs"
  start=$(date +%s)
  xargs -d '\n' -P "$jobs" -n 1 bash "$0" --job <"$out/results/$p.jobs" >"$out/results/$p.obs.tmp"
  sort "$out/results/$p.obs.tmp" >"$out/results/$p.obs"
  rm -f "$out/results/$p.obs.tmp"
  echo "corpus: $p: $(grep -c . "$out/results/$p.jobs") files in $(($(date +%s) - start)) s"
  if [ $update = 1 ]; then
    continue
  fi
  if ! diff <(grep "^$p/" "$expect" | sort) "$out/results/$p.obs" >"$out/results/$p.diff"; then
    echo "corpus: $p: kcc's results differ from tests/corpus/EXPECT (< expected, > now):"
    head -n 60 "$out/results/$p.diff"
    echo "(tests/corpus/run.sh --update $p rewrites its lines once the change is understood;"
    echo " kcc's diagnostics and outputs are under $out/work/$p/)"
    status=1
  fi
done

if [ $update = 1 ]; then
  # Rewrite the lines of the packages checked, keeping the header and every other package's.
  tmp=$(mktemp)
  { grep '^#' "$expect" 2>/dev/null || true
    # Other packages' lines stay; lines of packages no longer in the manifest go.
    { grep -v '^#' "$expect" 2>/dev/null | grep . | grep -v -E "^($(IFS='|' && echo "${pkgs[*]}"))/" |
        grep -E "^($(IFS='|' && echo "${names[*]}"))/" || true
      for p in "${pkgs[@]}"; do cat "$out/results/$p.obs"; done; } | sort -t' ' -k1,1 -s
  } >"$tmp"
  mv "$tmp" "$expect"
  echo "corpus: tests/corpus/EXPECT rewritten for: ${pkgs[*]}"
fi
summary "${pkgs[@]}"
exit $status
