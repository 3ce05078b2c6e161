#!/usr/bin/env python3
"""rkdiff.py — differential testing of kcc with random kernels (rkgen.py; docs/testing.md).

For each seed: rkgen.py makes a batch of kernels and their host reference; kcc compiles the
batch (-ffp-contract=off) to OpenCL C, SPIR-V and a bundle; clang builds the reference; then
every path present runs the batch on fresh inputs and each output element is compared with the
reference, bit for bit (NaNs of any payload equal):

  cl    kcc's OpenCL C, clCreateProgramWithSource on the first OpenCL device (PoCL here)
  spir  kcc's SPIR-V -> llvm-spirv-15 -r -> SPIR 1.2 bitcode -> clCreateProgramWithBinary
  kcb   the bundle through libkcrt on its default device (PoCL: the OpenCL C it carries;
        on a CUDA machine the PTX, see tests/gpu/random.sh)
  vk    the bundle's Vulkan SPIR-V through libkcrt with KCC_DEVICE=vulkan (lavapipe here) and
        the Khronos validation layer when installed, whose any message is a finding; a batch
        the Vulkan form refuses (a diagnostic, not an internal error) is counted as refused
  ptx   compile only: kcc's PTX through ptxas -arch=sm_75 (where ptxas is on the PATH)
  cu    compile only: kcc's CUDA C through nvcc -c (where nvcc is on the PATH; slow)

A mismatch, a kcc failure on a generated kernel or a program the driver does not build is a
finding: the kernel is written alone to WORK/findings/ and, with --reduce, delta-reduced (the
generated statements are removed one at a time while the mismatch stays) to a small reproducer.

usage: rkdiff.py --kcc build/kcc --rk-run build/tests/rk_run --seeds 1-100 [-k 10] [-j 2]
                 [--paths cl,spir,kcb,ptx] [--work DIR] [--reduce] [--keep]
Exit status 0 when every kernel agreed on every path, 1 otherwise.
"""

import argparse
import array
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rkgen  # noqa: E402


def rk_consts():
    """The launch shape and array sizes, from rk_io.h (one place says them)."""
    txt = open(os.path.join(HERE, "rk_io.h")).read()
    c = {}
    for name in ("RK_BS", "RK_NB", "RK_NO", "RK_NF", "RK_ND", "RK_NACC"):
        c[name] = int(re.search(r"#define %s\s+(\d+)" % name, txt).group(1))
    assert (c["RK_BS"], c["RK_NB"], c["RK_NO"], c["RK_NF"], c["RK_ND"], c["RK_NACC"]) == (
        rkgen.BS, rkgen.NB, rkgen.NO, rkgen.NF, rkgen.ND, rkgen.NACC), "rk_io.h and rkgen.py differ"
    n = c["RK_BS"] * c["RK_NB"]
    # (name, array typecode of the bits, count, kind)
    return [("ou", "Q", n * c["RK_NO"], "int"), ("of", "I", n * c["RK_NF"], "f32"),
            ("od", "Q", n * c["RK_ND"], "f64"), ("acc", "I", c["RK_NACC"], "int"),
            ("acci", "I", c["RK_NACC"], "int"), ("accl", "Q", c["RK_NACC"], "int")]


LAYOUT = rk_consts()
RECORD = sum(array.array(tc).itemsize * n for _, tc, n, _ in LAYOUT)


def is_nan(bits, kind):
    if kind == "f32":
        return (bits & 0x7FFFFFFF) > 0x7F800000
    if kind == "f64":
        return (bits & 0x7FFFFFFFFFFFFFFF) > 0x7FF0000000000000
    return False


def compare(want, got, nk):
    """Per kernel, a list of (array, index, want_bits, got_bits); None where the run stopped."""
    res = []
    for k in range(nk):
        w = want[k * RECORD:(k + 1) * RECORD]
        g = got[k * RECORD:(k + 1) * RECORD]
        if len(g) < RECORD:
            res.append(None)
            continue
        bad = []
        off = 0
        for name, tc, n, kind in LAYOUT:
            size = array.array(tc).itemsize * n
            if w[off:off + size] != g[off:off + size]:
                wa, ga = array.array(tc, w[off:off + size]), array.array(tc, g[off:off + size])
                for i in range(n):
                    if wa[i] != ga[i] and not (is_nan(wa[i], kind) and is_nan(ga[i], kind)):
                        bad.append((name, i, wa[i], ga[i]))
            off += size
        res.append(bad)
    return res


class Tools:
    def __init__(self, a):
        self.kcc = os.path.abspath(a.kcc)
        self.rk_run = os.path.abspath(a.rk_run)
        self.clang = shutil.which(a.clang) or a.clang
        self.llvm_spirv = shutil.which(a.llvm_spirv)
        self.timeout = a.timeout
        paths = a.paths.split(",")
        if "spir" in paths and not self.llvm_spirv:
            print("rkdiff: %s not found: no spir path" % a.llvm_spirv)
            paths.remove("spir")
        self.ptxas = shutil.which("ptxas")
        self.nvcc = shutil.which("nvcc")
        for p, tool in (("ptx", "ptxas"), ("cu", "nvcc")):
            if p in paths and not getattr(self, tool):
                print("rkdiff: %s not on the PATH: %s is compiled by kcc only" % (tool, p))
        self.paths = paths


# The vk path's marker for a batch that kcc's Vulkan form refuses with a diagnostic.
REFUSED = "refused by the Vulkan form"
# The Khronos validation layer, when installed: the vk path runs under it.
VK_LAYER = next(("VK_LAYER_KHRONOS_validation" for d in ("/usr/share/vulkan/explicit_layer.d",
                                                         "/etc/vulkan/explicit_layer.d")
                 if os.path.exists(os.path.join(d, "VkLayer_khronos_validation.json"))), None)


def run(cmd, timeout, cwd=None, env=None):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", "timed out after %ss: %s" % (timeout, " ".join(cmd))


def build_batch(t, d, stem):
    """Compiles STEM.k and builds the reference. Returns {path: error text} for what failed."""
    errs = {}
    for form in ("cl", "spv", "kcb"):
        need = {"cl": "cl", "spv": "spir", "kcb": "kcb"}[form]
        if need not in t.paths and not (form == "kcb" and "vk" in t.paths):
            continue
        rc, out = run([t.kcc, "-w", "-ffp-contract=off", stem + ".k", "-o", stem + "." + form],
                      t.timeout, cwd=d)
        if rc != 0:
            errs[need] = "kcc --emit=%s: exit %s\n%s" % (form, rc, out)
            if form == "kcb":
                errs["vk"] = errs[need]
    if "vk" in t.paths and "vk" not in errs:
        # The bundle leaves the Vulkan form out quietly when kcc refuses it: ask kcc why.
        rc, out = run([t.kcc, "-w", "-ffp-contract=off", stem + ".k", "-o", stem + ".vk.spv"],
                      t.timeout, cwd=d)
        if rc != 0:
            errs["vk"] = ("kcc --emit=vkspv: exit %s\n%s" % (rc, out)
                          if "internal compiler error" in out or rc != 1 else REFUSED)
    if "ptx" in t.paths:  # compiled and assembled only: tests/gpu/random.sh runs it
        rc, out = run([t.kcc, "-w", "-ffp-contract=off", stem + ".k", "-o", stem + ".ptx"],
                      t.timeout, cwd=d)
        if rc != 0:
            errs["ptx"] = "kcc --emit=ptx: exit %s\n%s" % (rc, out)
        elif t.ptxas:
            rc, out = run([t.ptxas, "-arch=sm_75", stem + ".ptx", "-o", os.devnull], t.timeout,
                          cwd=d)
            if rc != 0:
                errs["ptx"] = "ptxas: exit %s\n%s" % (rc, out)
    if "cu" in t.paths:  # CUDA C, compiled by nvcc only
        rc, out = run([t.kcc, "-w", "-ffp-contract=off", stem + ".k", "-o", stem + ".cu"],
                      t.timeout, cwd=d)
        if rc != 0:
            errs["cu"] = "kcc --emit=cuda: exit %s\n%s" % (rc, out)
        elif t.nvcc:
            rc, out = run([t.nvcc, "-arch=sm_75", "-c", stem + ".cu", "-o", stem + ".cu.o"],
                          t.timeout * 3, cwd=d)
            if rc != 0:
                errs["cu"] = "nvcc: exit %s\n%s" % (rc, out)
    if "spir" in t.paths and "spir" not in errs:
        rc, out = run([t.llvm_spirv, "-r", "--spirv-target-env=CL1.2", stem + ".spv", "-o",
                       stem + ".bc"], t.timeout, cwd=d)
        if rc != 0:
            errs["spir"] = "llvm-spirv: exit %s\n%s" % (rc, out)
    # Under UBSan and ASan: the reference itself proves the kernel free of undefined
    # behaviour (overflow, shifts, float-to-integer conversions, out-of-bounds indices).
    rc, out = run([t.clang, "-w", "-O0", "-ffp-contract=off", "-fno-fast-math",
                   "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-I", HERE,
                   stem + "_ref.c", "-o", stem + "_ref", "-lm"], t.timeout * 2, cwd=d)
    if rc != 0:
        raise RuntimeError("the host reference does not build (a generator bug):\n" + out)
    return errs


def run_path(t, d, stem, path, first, count, seed, env):
    f = {"cl": stem + ".cl", "spir": stem + ".bc", "kcb": stem + ".kcb", "vk": stem + ".kcb"}[path]
    out = os.path.join(d, "%s.%s.out" % (stem, path))
    mode = path
    if path == "vk":
        mode = "kcb"
        env = dict(env, KCC_DEVICE="vulkan")
        if VK_LAYER:
            env["VK_INSTANCE_LAYERS"] = VK_LAYER
    rc, log = run([t.rk_run, mode, f, str(first), str(count), str(seed), out], t.timeout, cwd=d,
                  env=env)
    if path == "vk" and rc == 0 and re.search(r"Validation (Error|Warning|Performance)|VUID-", log):
        rc = "validation"  # the layer's messages: the run counts as failed
    data = open(out, "rb").read() if os.path.exists(out) else b""
    return rc, log, data


def check_batch(t, d, seed, kernels, env):
    """Returns ({kernel index: {path: description}} of failures, per-path ran counts)."""
    stem = "rk_%d" % seed
    rkgen.write_files(os.path.join(d, stem), kernels, seed)
    return check_files(t, d, stem, seed, [k.kidx for k in kernels], env)


def check_files(t, d, stem, seed, kidx, env):
    errs = build_batch(t, d, stem)
    rc, log = run([os.path.join(d, stem + "_ref"), str(seed), stem + ".ref"], t.timeout, cwd=d)
    if rc != 0:
        raise RuntimeError("the host reference failed (%s):\n%s" % (rc, log))
    want = open(os.path.join(d, stem + ".ref"), "rb").read()
    first, count = kidx[0], len(kidx)
    assert kidx == list(range(first, first + count))
    fails = {}
    ran = {}
    refused = {}
    for path in t.paths:
        if path in ("ptx", "cu"):  # compile-only here
            if path in errs:
                for k in kidx:
                    fails.setdefault(k, {})[path] = errs[path]
            else:
                ran[path] = count
            continue
        if path in errs and errs[path] is REFUSED:
            refused[path] = refused.get(path, 0) + count
            continue
        if path in errs:
            for k in kidx:
                fails.setdefault(k, {})[path] = errs[path]
            continue
        rc, log, got = run_path(t, d, stem, path, first, count, seed, env)
        if rc == 77:
            print("rkdiff: %s: no device, skipped (%s)" % (path, log.strip()))
            continue
        res = compare(want, got, count)
        ran[path] = 0
        for k, bad in zip(kidx, res):
            if bad is None:
                fails.setdefault(k, {})[path] = "did not run: exit %s\n%s" % (rc, log)
            elif bad:
                lines = ["%s[%d]: want %#x got %#x" % b for b in bad[:8]]
                fails.setdefault(k, {})[path] = "%d elements differ:\n  %s" % (
                    len(bad), "\n  ".join(lines))
            else:
                ran[path] += 1
    for path, n in refused.items():  # batches the form does not take yet: not findings
        ran[path + "-refused"] = n
    return fails, ran


def env_for(d):
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = os.path.join(d, "cache")  # libkcrt's program cache
    env["POCL_CACHE_DIR"] = os.path.join(d, "pocl")  # and PoCL's: both go with the batch
    return env


def still_fails(t, d, seed, k, path, env):
    try:
        fails, _ = check_batch(t, d, seed, [k], env)
    except RuntimeError:
        return False
    return path in fails.get(k.kidx, {})


def stmt_lists(k):
    """Every statement list of kernel k (segments, device function bodies, nested blocks)."""
    todo = list(k.segs) + [f.body for f in k.funcs]
    out = []
    while todo:
        lst = todo.pop()
        out.append(lst)
        for s in lst:
            if s.kind in ("if", "for", "while", "block"):
                todo.append(s.a)
                if s.b:
                    todo.append(s.b)
    return out


def reduce_kernel(t, d, seed, k, path, env, budget_s=600):
    """Greedy delta reduction: drop statements (and simplify declarations) while `path` still
    disagrees with the reference."""
    t0 = time.time()
    tries = 0
    changed = True
    while changed and time.time() - t0 < budget_s:
        changed = False
        for lst in stmt_lists(k):
            i = len(lst) - 1
            while i >= 0 and time.time() - t0 < budget_s:
                s = lst[i]
                if s.removable:
                    del lst[i]
                    tries += 1
                    if still_fails(t, d, seed, k, path, env):
                        changed = True
                    else:
                        lst.insert(i, s)
                elif s.kind == "decl" and s.init not in ("0", "{0}"):
                    old = s.init
                    s.init = "{0}" if s.dims or s.type.startswith("struct") else "0"
                    tries += 1
                    if still_fails(t, d, seed, k, path, env):
                        changed = True
                    else:
                        s.init = old
                i -= 1
    return tries


def do_seed(t, a, seed):
    d = tempfile.mkdtemp(prefix="rk%d_" % seed, dir=a.work)
    env = env_for(d)
    kernels = [rkgen.kernel(seed, i) for i in range(a.kernels)]
    t0 = time.time()
    try:
        fails, ran = check_batch(t, d, seed, kernels, env)
    except RuntimeError as e:
        return seed, {"generator": str(e)}, {}, time.time() - t0, d
    findings = {}
    for kidx, per_path in fails.items():
        for path, what in per_path.items():
            name = "seed%d_k%d_%s" % (seed, kidx, path)
            fd = os.path.join(a.work, "findings", name)
            os.makedirs(fd, exist_ok=True)
            k = rkgen.kernel(seed, kidx)
            ok = still_fails(t, fd, seed, k, path, env)
            note = what if ok else what + "\n(not reproduced alone: depends on the batch)"
            if ok and a.reduce:
                tries = reduce_kernel(t, fd, seed, k, path, env)
                still_fails(t, fd, seed, k, path, env)  # leave the reduced files in place
                note += "\nreduced in %d tries" % tries
            with open(os.path.join(fd, "README"), "w") as f:
                f.write("seed %d kernel %d path %s\n%s\n" % (seed, kidx, path, note))
                f.write("rerun: rk_run %s rk_%d.<form> %d 1 %d out && ./rk_%d_ref %d ref\n" % (
                    path, seed, kidx, seed, seed, seed))
            findings["k%d/%s" % (kidx, path)] = note
    if not a.keep and not findings:
        shutil.rmtree(d, ignore_errors=True)
    return seed, findings, ran, time.time() - t0, d


def check_regress(t, a, src_dir):
    """Runs the kept reproducers (tests/random/regress/NAME.k with NAME_ref.c, in rkgen.py's
    format) on every path. Returns the number of failures."""
    env_dir = tempfile.mkdtemp(prefix="rkregress_", dir=a.work)
    bad = 0
    for f in sorted(os.listdir(src_dir)):
        if not f.endswith(".k"):
            continue
        stem = f[:-2]
        d = os.path.join(env_dir, stem)
        os.makedirs(d)
        shutil.copy(os.path.join(src_dir, f), d)
        ref = open(os.path.join(src_dir, stem + "_ref.c")).read()
        shutil.copy(os.path.join(src_dir, stem + "_ref.c"), d)
        idx = [int(x) for x in re.findall(r"\{(\d+), k\d+_ref\}", ref)]
        seed = int(re.search(r"rk_seed (\d+)", ref).group(1))
        fails, ran = check_files(t, d, stem, seed, idx, env_for(d))
        ok = not fails and all(ran.get(p) == len(idx) for p in ran)
        print("regress %s: %s (%s)" % (stem, "ok" if ok else "FAIL", ", ".join(
            "%s %d" % kv for kv in sorted(ran.items()))))
        for k, per in fails.items():
            for p, what in per.items():
                print("  k%d/%s: %s" % (k, p, what))
        bad += not ok
    return bad


def parse_seeds(s):
    out = []
    for part in s.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += range(int(lo), int(hi) + 1)
        else:
            out.append(int(part))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kcc", required=True)
    ap.add_argument("--rk-run", required=True)
    ap.add_argument("--seeds", default="1-10", help="e.g. 1-100 or 3,7,9-12")
    ap.add_argument("-k", "--kernels", type=int, default=10, help="kernels per seed")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--paths", default="cl,spir,kcb,ptx")
    ap.add_argument("--work", default=None, help="work directory (default: a new one in /tmp)")
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--llvm-spirv", default="llvm-spirv-15")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per step")
    ap.add_argument("--reduce", action="store_true", help="delta-reduce each finding")
    ap.add_argument("--keep", action="store_true", help="keep every batch's files")
    ap.add_argument("--regress", metavar="DIR", help="run the reproducers kept in DIR instead")
    a = ap.parse_args()
    a.work = os.path.abspath(a.work or tempfile.mkdtemp(prefix="rkdiff_"))
    os.makedirs(a.work, exist_ok=True)
    t = Tools(a)
    if a.regress:
        return 1 if check_regress(t, a, a.regress) else 0
    seeds = parse_seeds(a.seeds)
    print("rkdiff: seeds %s (%d), %d kernels each, paths %s, work %s" % (
        a.seeds, len(seeds), a.kernels, ",".join(t.paths), a.work), flush=True)
    t0 = time.time()
    total = {p: 0 for p in t.paths}
    nfind = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for seed, findings, ran, secs, d in ex.map(lambda s: do_seed(t, a, s), seeds):
            for p, n in ran.items():
                total[p] = total.get(p, 0) + n
            status = "ok" if not findings else "FINDINGS"
            print("seed %d: %s (%s) %.1fs" % (seed, status, ", ".join(
                "%s %d" % kv for kv in sorted(ran.items())), secs), flush=True)
            for what, note in findings.items():
                nfind += 1
                print("  %s: %s" % (what, note.replace("\n", "\n    ")))
                print("  files: %s, %s" % (d, os.path.join(a.work, "findings")))
    print("rkdiff: %d kernels generated; agreed with the reference: %s; findings: %d; %.0fs" % (
        len(seeds) * a.kernels, ", ".join("%s %d" % kv for kv in sorted(total.items())), nfind,
        time.time() - t0))
    return 1 if nfind else 0


if __name__ == "__main__":
    sys.exit(main())
