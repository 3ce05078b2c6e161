#!/usr/bin/env python3
"""rkgen.py — random kernels for kcc's differential testing (docs/testing.md).

Each seed gives a batch of kernels k0 … k(K-1) (kernel J depends only on (seed, J)), written as

  BATCH.k      the kernels in kcc's dialect, with the helpers they call;
  BATCH_ref.c  the same statements as plain C: a host reference that simulates each kernel's
               blocks and threads (one loop over the threads per barrier-separated segment),
               for clang on the host (tests/random/rk_ref_main.h writes its outputs).

The programs are valid and free of undefined behaviour by construction:
  * signed + - * / % negation and left shifts go through helpers that return the left operand
    where C would overflow or divide by zero; unsigned arithmetic wraps as C defines; shift
    counts are masked; float to integer conversions are guarded (out of range or NaN give 0);
  * narrowing integer conversions are the implementation-defined modular ones (kcc, clang
    and every GPU agree);
  * loops have constant trip counts (<= 4, nested at most twice); indices are masked to the
    array's power-of-two length;
  * shared memory: each segment between two barriers either writes and reads only its own
    thread's slot sh[tid] or only reads (any slot); the first segment writes every slot; the
    shared atomic counters are set in the first segment, updated in the middle ones, read in
    the last; barriers are only between segments (uniform control flow);
  * atomics only on accumulators nobody reads, with order-independent operations (per
    accumulator array one family that commutes: add/sub, and, or, xor, min or max), their
    results unused;
  * each thread writes only its own output slots.
Floats are compared bit for bit (NaNs of any payload as equal): kcc runs with -ffp-contract=off
and the reference is built by clang with -ffp-contract=off (GCC 12 folds `0.0f - x` wrongly).

usage: rkgen.py SEED [-k KERNELS] [-o STEM]   (writes STEM.k and STEM_ref.c; STEM: rk_SEED)
"""

import argparse
import random
import struct

BS = 32  # rk_io.h: RK_BS
NB = 4  # RK_NB
NIN = BS * NB  # RK_NIN
NO, NF, ND, NACC = 4, 4, 2, 8

ITYPES = ["int", "unsigned", "long", "unsigned long"]
SMALL = ["char", "unsigned char", "short", "unsigned short", "_Bool"]
FTYPES = ["float", "double"]
COMPUTE = ITYPES + FTYPES
STORAGE = ITYPES + SMALL + FTYPES

BITS = {"char": 8, "unsigned char": 8, "short": 16, "unsigned short": 16, "_Bool": 1,
        "int": 32, "unsigned": 32, "long": 64, "unsigned long": 64}
SIGNED = {"char", "short", "int", "long"}
SUFFIX = {"int": "", "unsigned": "u", "long": "L", "unsigned long": "UL"}
HSUF = {"int": "i", "long": "l", "unsigned": "u", "unsigned long": "ul"}
FSUF = {"float": "f", "double": "d"}
INPUTS = {"int": "ia", "unsigned": "ua", "long": "la", "float": "fa", "double": "da"}


def compute_of(t):
    """The arithmetic type a value of storage type t is computed in."""
    if t in COMPUTE:
        return t
    return "int"


# ---------------------------------------------------------------- shared helper text

def helpers():
    out = ["#include <limits.h>", ""]
    for t, sfx, mx, mn, w in (("int", "i", "INT_MAX", "INT_MIN", 31),
                              ("long", "l", "LONG_MAX", "LONG_MIN", 63)):
        u = "unsigned" if t == "int" else "unsigned long"
        out.append(f"""static {t} sadd_{sfx}({t} a, {t} b) {{
  return ((b > 0 && a > {mx} - b) || (b < 0 && a < {mn} - b)) ? a : a + b;
}}
static {t} ssub_{sfx}({t} a, {t} b) {{
  return ((b < 0 && a > {mx} + b) || (b > 0 && a < {mn} + b)) ? a : a - b;
}}
static {t} smul_{sfx}({t} a, {t} b) {{
  if (a == 0 || b == 0) return 0;
  if (a > 0) {{
    if (b > 0) {{
      if (a > {mx} / b) return a;
    }} else if (b < {mn} / a) return a;
  }} else {{
    if (b > 0) {{
      if (a < {mn} / b) return a;
    }} else if (b < {mx} / a) return a;
  }}
  return a * b;
}}
static {t} sdiv_{sfx}({t} a, {t} b) {{ return (b == 0 || (a == {mn} && b == -1)) ? a : a / b; }}
static {t} smod_{sfx}({t} a, {t} b) {{ return (b == 0 || (a == {mn} && b == -1)) ? a : a % b; }}
static {t} sneg_{sfx}({t} a) {{ return a == {mn} ? a : -a; }}
static {t} sshl_{sfx}({t} a, {t} b) {{ return ({t})(({u})a << (b & {w})); }}
static {t} sshr_{sfx}({t} a, {t} b) {{ return a >> (b & {w}); }}
""")
    for t, sfx in (("unsigned", "u"), ("unsigned long", "ul")):
        out.append(f"""static {t} udiv_{sfx}({t} a, {t} b) {{ return b ? a / b : a; }}
static {t} umod_{sfx}({t} a, {t} b) {{ return b ? a % b : a; }}
""")
    for f, fs in (("float", "f"), ("double", "d")):
        lim = {"int": ("-2147483648.0", "2147483648.0"),
               "unsigned": ("-1.0", "4294967296.0"),
               "long": ("-9223372036854775808.0", "9223372036854775808.0"),
               "unsigned long": ("-1.0", "18446744073709551616.0")}
        for t in ITYPES:
            lo, hi = lim[t]
            sf = "f" if f == "float" else ""
            ge = ">=" if t in SIGNED else ">"
            out.append(f"static {t} {fs}2{HSUF[t]}({f} x) {{ return (x {ge} {lo}{sf} && x < {hi}{sf}) "
                       f"? ({t})x : 0; }}")
    out.append("")
    out.append("struct rs {\n  int a;\n  unsigned char b;\n  float c;\n  long d;\n  short e[8];\n};\n")
    return "\n".join(out)


KCC_PRELUDE = """#include <kcc_vector.h>
struct kparm {
  int i0;
  int i1;
  float f0;
  long l0;
};
"""

REF_PRELUDE = """#include "rk_io.h"
#include <math.h>
#pragma clang diagnostic ignored "-Wunused-function"
#pragma clang diagnostic ignored "-Wunused-variable"
#pragma clang diagnostic ignored "-Wunused-but-set-variable"
#pragma clang diagnostic ignored "-Wunused-value"
#define constant static const
/* kcc_vector.h's types as clang's ext_vector_type, which kcc's vectors follow. */
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned uint4 __attribute__((ext_vector_type(4)));
typedef float float4 __attribute__((ext_vector_type(4)));
/* The kernels' atomics, sequential: every one the generator uses is order-independent. */
#define atomicAdd(p, v) ((void)(*(p) += (v)))
#define atomicSub(p, v) ((void)(*(p) -= (v)))
#define atomicAnd(p, v) ((void)(*(p) &= (v)))
#define atomicOr(p, v)  ((void)(*(p) |= (v)))
#define atomicXor(p, v) ((void)(*(p) ^= (v)))
#define atomicMin(p, v) ({ __typeof__(*(p)) v_ = (v); if (v_ < *(p)) *(p) = v_; (void)0; })
#define atomicMax(p, v) ({ __typeof__(*(p)) v_ = (v); if (v_ > *(p)) *(p) = v_; (void)0; })
"""

PARAMS = ("const int *ia, const unsigned *ua, const long *la, const float *fa, const double *da, "
          "unsigned long *ou, float *of, double *od, unsigned *acc, int *acci, unsigned long *accl")


# ---------------------------------------------------------------- statement tree

class Stmt:
    """kind: 'line' (text), 'decl' (type, name, init, suffix), 'if' (cond, a, b),
    'for' (var, count, a), 'while' (var, count, a), 'block' (a)."""

    def __init__(self, kind, **kw):
        self.kind = kind
        self.text = kw.get("text")
        self.cond = kw.get("cond")
        self.a = kw.get("a", [])
        self.b = kw.get("b", [])
        self.var = kw.get("var")
        self.count = kw.get("count")
        self.type = kw.get("type")
        self.name = kw.get("name")
        self.init = kw.get("init")
        self.dims = kw.get("dims", "")
        self.removable = kw.get("removable", True)


def render(stmts, ind):
    out = []
    p = "  " * ind
    for s in stmts:
        if s.kind == "line":
            out.append(p + s.text)
        elif s.kind == "decl":
            out.append(f"{p}{s.type} {s.name}{s.dims} = {s.init};")
        elif s.kind == "if":
            out.append(f"{p}if ({s.cond}) {{")
            out += render(s.a, ind + 1)
            if s.b:
                out.append(p + "} else {")
                out += render(s.b, ind + 1)
            out.append(p + "}")
        elif s.kind == "for":
            out.append(f"{p}for (int {s.var} = 0; {s.var} < {s.count}; {s.var}++) {{")
            out += render(s.a, ind + 1)
            out.append(p + "}")
        elif s.kind == "while":
            out.append(f"{p}{{")
            out.append(f"{p}  int {s.var} = {s.count};")
            out.append(f"{p}  while ({s.var} > 0) {{")
            out.append(f"{p}    {s.var}--;")
            out += render(s.a, ind + 2)
            out.append(f"{p}  }}")
            out.append(f"{p}}}")
        elif s.kind == "block":
            out.append(p + "{")
            out += render(s.a, ind + 1)
            out.append(p + "}")
    return out


# ---------------------------------------------------------------- generator

class Env:
    """What an expression or statement may use at one point."""

    def __init__(self):
        self.scalars = []  # (name, type, assignable)
        self.arrays = []  # (expr, elemtype, mask, writable)  expr[i & mask] is valid
        self.ptrs = []  # (expr, elemtype, writable): a single-element pointee, *expr
        self.kernel = False
        self.shared = []  # (name, type, mode)  mode 'W' own slot, 'R' any slot
        self.sacc = None  # 'A' atomics allowed, 'R' reads allowed, None
        self.luts = []  # (name, type)
        self.loop_depth = 0
        self.in_loop = False
        self.funcs = []  # callable device functions
        self.vecs = []  # (name, 'uint4' | 'float4')

    def child(self):
        e = Env()
        e.scalars = list(self.scalars)
        e.arrays = list(self.arrays)
        e.ptrs = list(self.ptrs)
        e.kernel = self.kernel
        e.shared = self.shared
        e.sacc = self.sacc
        e.luts = self.luts
        e.loop_depth = self.loop_depth
        e.in_loop = self.in_loop
        e.funcs = self.funcs
        e.vecs = list(self.vecs)
        return e


class Func:
    def __init__(self, name, ret, qtype, ptype, pmask, text):
        self.name, self.ret, self.qtype, self.ptype, self.pmask, self.text = (
            name, ret, qtype, ptype, pmask, text)


class KernelGen:
    def __init__(self, seed, index):
        self.r = random.Random(seed * 1000003 + index * 7919 + 17)
        self.kidx = index
        self.kname = f"k{index}"
        self.counter = 0
        r = self.r
        # Richness grows with the kernel's index in the batch, and varies per seed.
        level = min(4, index % 6) if r.random() < 0.8 else r.randint(0, 4)
        self.level = level
        self.use_float = level >= 1 or r.random() < 0.5
        self.use_loops = level >= 2 or r.random() < 0.3
        self.use_funcs = level >= 3 or r.random() < 0.3
        self.use_arrays = level >= 2 or r.random() < 0.3
        self.use_shared = level >= 4 or r.random() < 0.2
        self.use_atomics = level >= 3 or r.random() < 0.3
        # One family of mutually commuting operations per accumulator array: mixing, say,
        # atomicAdd and atomicXor on one location makes the result depend on the order.
        fam = {"unsigned": [["atomicAdd", "atomicSub"], ["atomicAnd"], ["atomicOr"], ["atomicXor"],
                            ["atomicMin"], ["atomicMax"]],
               "int": [["atomicMin"], ["atomicMax"], ["atomicAnd"], ["atomicOr"], ["atomicXor"]],
               "unsigned long": [["atomicAdd"], ["atomicOr"], ["atomicXor"], ["atomicMin"],
                                 ["atomicMax"]]}
        self.atomic_ops = {"acc": r.choice(fam["unsigned"]), "acci": r.choice(fam["int"]),
                           "accl": r.choice(fam["unsigned long"]),
                           "sacc": r.choice([["atomicAdd"], ["atomicOr"], ["atomicXor"],
                                             ["atomicMax"], ["atomicMin"]])}
        self.use_vec = level >= 3 and r.random() < 0.5
        self.max_depth = 3 + (level >= 2)

    def fresh(self, base):
        self.counter += 1
        return f"{base}{self.counter}"

    # ------------------------------------------------ literals
    def lit_int(self, t):
        r = self.r
        bits = BITS[t]
        signed = t in SIGNED
        c = r.random()
        if c < 0.5:
            v = r.choice([0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 63, 100, 127, 255, 1000])
            if signed and r.random() < 0.4:
                v = -v
        elif c < 0.75:
            hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
            lo = -(1 << (bits - 1)) if signed else 0
            v = r.choice([hi, lo, hi - 1, lo + 1, 1 << (bits // 2)])
        else:
            v = r.getrandbits(bits)
            if signed and v >= 1 << (bits - 1):
                v -= 1 << bits
        s = SUFFIX[t]
        if signed and v == -(1 << (bits - 1)):
            return f"(-{(1 << (bits - 1)) - 1}{s} - 1)"
        if v < 0:
            return f"(-{-v}{s})"
        return f"{v}{s}"

    def lit_float(self, t):
        r = self.r
        c = r.random()
        if c < 0.3:
            v = r.choice([0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 0.1, 1e10, -1e-5, 65536.0, 1e30,
                          2147483648.0, 4294967296.0, -3.75])
        else:
            v = (r.random() * 2 - 1) * 4.0 ** r.randint(-6, 8)
        if t == "float":
            v = struct.unpack("f", struct.pack("f", v))[0]
            s = "%.9g" % v
            sfx = "f"
        else:
            s = repr(v)
            sfx = ""
        if "e" not in s and "." not in s and "inf" not in s and "nan" not in s:
            s += ".0"
        if s.startswith("-"):
            return f"({s}{sfx})"
        return s + sfx

    # ------------------------------------------------ expressions
    def index(self, env, mask, d):
        r = self.r
        c = r.random()
        if env.kernel and c < 0.3:
            base = r.choice(["tid", "gid", "bid", "(tid * 7u)", "(gid + 3u)", "(tid ^ 5u)"])
        elif c < 0.55:
            base = str(r.randint(0, 255)) + "u"
        else:
            base = "(unsigned)" + self.expr("unsigned" if r.random() < 0.5 else "int", env, d + 1)
        return f"({base} & {mask}u)"

    def leaf(self, t, env, d):
        """A leaf of type t (a compute type)."""
        r = self.r
        opts = ["lit", "lit"]
        if env.scalars:
            opts += ["var"] * 4
        if env.kernel:
            opts += ["input", "input", "input"]
            if t in ITYPES:
                opts += ["tid"]
            opts += ["prm"]
        if env.arrays:
            opts += ["arr", "arr"]
        if env.ptrs:
            opts += ["ptr"]
        if env.luts:
            opts += ["lut"]
        if env.shared:
            opts += ["shared", "shared"]
        if env.sacc == "R" and t in ITYPES:
            opts += ["sacc"]
        if env.vecs:
            opts += ["vec"]
        k = r.choice(opts)
        if k == "lit":
            return self.lit_int(t) if t in ITYPES else self.lit_float(t)
        if k == "var":
            name, vt, _ = r.choice(env.scalars)
            return self.convert(name, vt, t)
        if k == "input":
            it = r.choice(list(INPUTS))
            return self.convert(f"{INPUTS[it]}[{self.index(env, NIN - 1, d)}]", it, t)
        if k == "tid":
            return f"({t}){r.choice(['tid', 'gid', 'bid'])}"
        if k == "prm":
            f, ft = r.choice([("prm.i0", "int"), ("prm.i1", "int"), ("prm.f0", "float"),
                              ("prm.l0", "long")])
            return self.convert(f, ft, t)
        if k == "arr":
            e, et, mask, _ = r.choice(env.arrays)
            return self.convert(f"{e}[{self.index(env, mask, d)}]", et, t)
        if k == "ptr":
            e, et, _ = r.choice(env.ptrs)
            return self.convert(f"(*{e})", et, t)
        if k == "lut":
            name, lt = r.choice(env.luts)
            return self.convert(f"{name}[{self.index(env, 15, d)}]", lt, t)
        if k == "shared":
            name, st, mode = r.choice(env.shared)
            idx = "tid" if mode == "W" else self.index(env, BS - 1, d)
            return self.convert(f"{name}[{idx}]", st, t)
        if k == "sacc":
            return self.convert(f"sacc[{self.index(env, NACC - 1, d)}]", "unsigned", t)
        if k == "vec":
            name, vt = r.choice(env.vecs)
            comp = r.choice(["x", "y", "z", "w", "s0", "s3"])
            return self.convert(f"{name}.{comp}", "unsigned" if vt == "uint4" else "float", t)
        raise AssertionError(k)

    def convert(self, e, frm, to):
        if frm == to:
            return e
        if frm in FTYPES and to in ITYPES:
            return f"{FSUF[frm]}2{HSUF[to]}({e})"
        return f"({to})({e})"

    def expr(self, t, env, d=0):
        r = self.r
        if d >= self.max_depth or r.random() < 0.25 + 0.1 * d:
            return self.leaf(t, env, d)
        d1 = d + 1
        if t in ITYPES:
            signed = t in SIGNED
            h = HSUF[t]
            c = r.randint(0, 13)
            a = lambda: self.expr(t, env, d1)  # noqa: E731
            if c <= 2:
                op = r.choice(["add", "sub", "mul"])
                if signed:
                    return f"s{op}_{h}({a()}, {a()})"
                return f"({a()} {dict(add='+', sub='-', mul='*')[op]} {a()})"
            if c == 3:
                op = r.choice(["div", "mod"])
                return f"{'s' if signed else 'u'}{op}_{h}({a()}, {a()})"
            if c == 4:
                return f"({a()} {r.choice(['&', '|', '^'])} {a()})"
            if c == 5:
                if signed:
                    return f"s{r.choice(['shl', 'shr'])}_{h}({a()}, {self.expr(t, env, d1)})"
                w = BITS[t] - 1
                return f"({a()} {r.choice(['<<', '>>'])} ({self.expr('unsigned', env, d1)} & {w}u))"
            if c == 6:
                return f"sneg_{h}({a()})" if signed else f"(-{a()})"
            if c == 7:
                return f"(~{a()})"
            if c == 8:  # comparison of mixed types
                ta, tb = r.choice(COMPUTE if self.use_float else ITYPES), r.choice(
                    COMPUTE if self.use_float else ITYPES)
                if (ta in FTYPES) != (tb in FTYPES) and r.random() < 0.5:
                    tb = ta
                op = r.choice(["<", "<=", ">", ">=", "==", "!="])
                return f"({t})({self.expr(ta, env, d1)} {op} {self.expr(tb, env, d1)})"
            if c == 9:
                op = r.choice(["&&", "||"])
                return f"({t})({self.expr(r.choice(ITYPES), env, d1)} {op} {self.expr(r.choice(ITYPES), env, d1)})"
            if c == 10:
                return f"({self.cond(env, d1)} ? {a()} : {a()})"
            if c == 11:  # through a narrower type
                s = r.choice(SMALL + ["int", "unsigned"])
                return f"({t})({s})({a()})"
            if c == 12 and self.use_float:
                ft = r.choice(FTYPES)
                return f"{FSUF[ft]}2{h}({self.expr(ft, env, d1)})"
            if c == 13:
                return f"({t})(!{self.expr(r.choice(ITYPES), env, d1)})"
            return self.leaf(t, env, d)
        # floating point
        fs = "f" if t == "float" else ""
        c = r.randint(0, 10)
        a = lambda: self.expr(t, env, d1)  # noqa: E731
        if c <= 3:
            return f"({a()} {r.choice(['+', '-', '*', '/'])} {a()})"
        if c == 4:
            return f"(-{a()})"
        if c == 5:
            fn = r.choice(["fabs", "sqrt", "floor", "ceil", "trunc"])
            return f"{fn}{fs}({a()})"
        if c == 6:
            return f"fma{fs}({a()}, {a()}, {a()})"
        if c == 7:
            return f"({self.cond(env, d1)} ? {a()} : {a()})"
        if c == 8:
            return f"(({t}){self.expr(r.choice(ITYPES), env, d1)})"
        if c == 9:
            other = "double" if t == "float" else "float"
            return f"(({t}){self.expr(other, env, d1)})"
        if c == 10:
            x, y = a(), a()
            return f"({x} {r.choice(['<', '>'])} {y} ? {x} : {y})"
        return self.leaf(t, env, d)

    def cond(self, env, d):
        r = self.r
        ts = COMPUTE if self.use_float else ITYPES
        ta = r.choice(ts)
        tb = ta if r.random() < 0.6 else r.choice(ts)
        c = r.random()
        if c < 0.7:
            op = r.choice(["<", "<=", ">", ">=", "==", "!="])
            return f"{self.expr(ta, env, d)} {op} {self.expr(tb, env, d)}"
        if c < 0.85 and env.kernel:
            return f"(tid & {r.choice([1, 3, 7, 16])}u) {r.choice(['==', '!='])} 0u"
        return f"({self.expr(r.choice(ITYPES), env, d)} & {r.choice([1, 2, 4, 8])}) != 0"

    # ------------------------------------------------ statements
    def vec_expr(self, vt, env, d=1):
        """An expression of type vt (uint4 or float4)."""
        r = self.r
        same = [n for n, t in env.vecs if t == vt]
        et = "unsigned" if vt == "uint4" else "float"
        c = r.random()
        if not same or c < 0.25 or d > 2:
            return "(%s){%s}" % (vt, ", ".join(self.expr(et, env, 2) for _ in range(r.randint(1, 4))))
        a = r.choice(same)
        if c < 0.45:
            return f"{a}.{''.join(r.choice('xyzw') for _ in range(4))}"
        if c < 0.55:
            return f"({vt})({self.expr(et, env, 2)})"
        if c < 0.65 and vt == "uint4":
            b = r.choice(same)
            return f"({a} {r.choice(['<<', '>>'])} ({b} & 31u))"
        if c < 0.75:  # a comparison mask: -1 or 0 per component
            b = r.choice(same)
            mask = f"(uint4)({a} {r.choice(['<', '>', '==', '!='])} {b})"
            return f"({vt})({mask} & (uint4)1u)" if vt == "uint4" else f"(float4)({a} - {b})"
        ops = ["+", "-", "*"] + (["&", "|", "^"] if vt == "uint4" else [])
        return f"({self.vec_expr(vt, env, d + 1)} {r.choice(ops)} {self.vec_expr(vt, env, d + 1)})"

    def decls(self, env, n, stmts):
        r = self.r
        if self.use_vec and r.random() < 0.6:
            for _ in range(r.randint(1, 2)):
                vt = r.choice(["uint4", "float4"] if self.use_float else ["uint4"])
                name = self.fresh("vec")
                stmts.append(Stmt("decl", type=vt, name=name, init=self.vec_expr(vt, env),
                                  removable=False))
                env.vecs.append((name, vt))
        for _ in range(n):
            t = r.choice(STORAGE if self.use_float else ITYPES + SMALL)
            name = self.fresh("v")
            init = self.assign_value(t, env)
            stmts.append(Stmt("decl", type=t, name=name, init=init, removable=False))
            env.scalars.append((name, t, True))
        if self.use_arrays:
            for _ in range(r.randint(0, 2)):
                t = r.choice(STORAGE if self.use_float else ITYPES + SMALL)
                if t == "_Bool":
                    t = "int"
                name = self.fresh("a")
                vals = ", ".join(self.assign_value(t, env) for _ in range(r.randint(1, 8)))
                stmts.append(Stmt("decl", type=t, name=name, dims="[8]", init="{" + vals + "}",
                                  removable=False))
                env.arrays.append((name, t, 7, True))
            if r.random() < 0.3:
                name = self.fresh("s")
                init = "{%s, %s, %s, %s, {%s, %s}}" % (
                    self.assign_value("int", env), self.assign_value("unsigned char", env),
                    self.assign_value("float", env) if self.use_float else "1.0f",
                    self.assign_value("long", env), self.assign_value("short", env),
                    self.assign_value("short", env))
                stmts.append(Stmt("decl", type="struct rs", name=name, init=init, removable=False))
                env.scalars += [(f"{name}.a", "int", True), (f"{name}.b", "unsigned char", True),
                                (f"{name}.d", "long", True)]
                if self.use_float:
                    env.scalars.append((f"{name}.c", "float", True))
                env.arrays.append((f"{name}.e", "short", 7, True))

    def assign_value(self, t, env):
        ct = compute_of(t)
        e = self.expr(ct, env, 1)
        if t != ct:
            e = f"({t})({e})"
        return e

    def stmt_list(self, env, n, depth):
        out = []
        for _ in range(n):
            out.append(self.stmt(env, depth))
        return out

    def stmt(self, env, depth):
        r = self.r
        opts = ["assign"] * 5
        if depth < 3:
            opts += ["if"] * 2
            if self.use_loops and env.loop_depth < 2:
                opts += ["for", "while"]
        if env.arrays and any(w for _, _, _, w in env.arrays):
            opts += ["store"] * 2
        if env.ptrs and any(w for _, _, w in env.ptrs):
            opts += ["pstore"]
        if env.kernel:
            opts += ["out"] * 2
            if any(m == "W" for _, _, m in env.shared):
                opts += ["sstore"] * 2
            if self.use_atomics:
                opts += ["atomic"]
            if env.sacc == "A":
                opts += ["satomic"]
            opts += ["prm"] if r.random() < 0.2 else []
        if env.funcs:
            opts += ["call"] * 2
        if env.in_loop:
            opts += ["brk"]
        if env.vecs:
            opts += ["vec"] * 2
        k = r.choice(opts)
        if k == "assign":
            cands = [s for s in env.scalars if s[2]]
            if not cands:
                k = "if"
            else:
                name, t, _ = r.choice(cands)
                return Stmt("line", text=f"{name} = {self.assign_value(t, env)};")
        if k == "if":
            c = self.cond(env, 1)
            a = self.block(env, depth + 1, r.randint(1, 3))
            b = self.block(env, depth + 1, r.randint(1, 2)) if r.random() < 0.5 else []
            return Stmt("if", cond=c, a=a, b=b)
        if k in ("for", "while"):
            var = self.fresh("i" if k == "for" else "w")
            e = env.child()
            e.loop_depth += 1
            e.in_loop = True
            if k == "for":
                e.scalars.append((var, "int", False))
            body = self.block(e, depth + 1, r.randint(1, 3), env_given=e)
            return Stmt(k, var=var, count=r.randint(1, 4), a=body)
        if k == "store":
            e, t, mask, _ = r.choice([a for a in env.arrays if a[3]])
            return Stmt("line", text=f"{e}[{self.index(env, mask, 1)}] = {self.assign_value(t, env)};")
        if k == "pstore":
            e, t, _ = r.choice([p for p in env.ptrs if p[2]])
            return Stmt("line", text=f"*{e} = {self.assign_value(t, env)};")
        if k == "out":
            return self.out_stmt(env)
        if k == "sstore":
            name, t, _ = r.choice([s for s in env.shared if s[2] == "W"])
            return Stmt("line", text=f"{name}[tid] = {self.assign_value(t, env)};")
        if k == "atomic":
            arr, t = r.choice([("acc", "unsigned"), ("acci", "int"), ("accl", "unsigned long")])
            op = r.choice(self.atomic_ops[arr])
            return Stmt("line", text=f"{op}(&{arr}[{self.index(env, NACC - 1, 1)}], "
                                     f"({t})({self.expr(t, env, 1)}));")
        if k == "satomic":
            op = r.choice(self.atomic_ops["sacc"])
            return Stmt("line", text=f"{op}(&sacc[{self.index(env, NACC - 1, 1)}], "
                                     f"{self.expr('unsigned', env, 1)});")
        if k == "prm":
            f, t = r.choice([("prm.i0", "int"), ("prm.i1", "int"), ("prm.f0", "float"),
                             ("prm.l0", "long")])
            if t == "float" and not self.use_float:
                f, t = "prm.i1", "int"
            return Stmt("line", text=f"{f} = {self.assign_value(t, env)};")
        if k == "call":
            return self.call_stmt(env)
        if k == "vec":
            name, vt = r.choice(env.vecs)
            et = "unsigned" if vt == "uint4" else "float"
            c = r.random()
            if c < 0.5:
                return Stmt("line", text=f"{name} = {self.vec_expr(vt, env)};")
            if c < 0.7:
                sw = r.choice(["xy", "zw", "yx", "xz", "wy"])
                src = r.choice([n for n, t in env.vecs if t == vt])
                return Stmt("line", text=f"{name}.{sw} = {src}.{r.choice(['xy', 'zw', 'wx', 'yy'])};")
            comp = r.choice("xyzw")
            op = r.choice(["+=", "-=", "*="] + (["^=", "|="] if vt == "uint4" else []))
            return Stmt("line", text=f"{name}.{comp} {op} {self.expr(et, env, 1)};")
        if k == "brk":
            return Stmt("if", cond=self.cond(env, 2), a=[Stmt("line", text=r.choice(["break;", "continue;"]))])
        raise AssertionError(k)

    def block(self, env, depth, n, env_given=None):
        e = env_given or env.child()
        out = []
        if self.r.random() < 0.3:
            self.decls(e, 1, out)
        out += self.stmt_list(e, n, depth)
        return out

    def out_stmt(self, env):
        r = self.r
        c = r.random()
        if c < 0.5 or not self.use_float:
            t = r.choice(ITYPES)
            return Stmt("line", text=f"ou[gid * {NO}u + {r.randrange(NO)}u] = (unsigned long)({self.expr(t, env, 1)});")
        if c < 0.8:
            return Stmt("line", text=f"of[gid * {NF}u + {r.randrange(NF)}u] = {self.expr('float', env, 1)};")
        return Stmt("line", text=f"od[gid * {ND}u + {r.randrange(ND)}u] = {self.expr('double', env, 1)};")

    # ------------------------------------------------ device functions
    def pointer_args(self, env, t, mask, writable):
        """Expressions of type t* (const t* when not writable) valid for [i & mask]."""
        r = self.r
        c = []
        for e, et, m, w in env.arrays:
            if et == t and m >= mask and (w or not writable):
                c.append(e)
        if mask == 0:
            for name, vt, asg in env.scalars:
                if vt == t and asg:
                    c.append(f"&{name}")
            for e, et, w in env.ptrs:
                if et == t and (w or not writable):
                    c.append(e)
        if env.kernel:
            if not writable and t in INPUTS:
                c.append(f"{INPUTS[t]} + {self.index(env, NIN // 2 - 1, 2)}")
            for name, st, mode in env.shared:
                if st != t:
                    continue
                if mode == "W" and mask == 0:
                    c.append(f"&{name}[tid]")
                if mode == "R" and not writable:
                    c.append(f"{name} + {self.index(env, BS // 2 - 1, 2)}")
            if writable and mask == 0:
                if t == "unsigned long":
                    c.append(f"&ou[gid * {NO}u + {r.randrange(NO)}u]")
                if t == "float":
                    c.append(f"&of[gid * {NF}u + {r.randrange(NF)}u]")
                if t == "double":
                    c.append(f"&od[gid * {ND}u + {r.randrange(ND)}u]")
                if t == "int":
                    c.append(f"&prm.i{r.randrange(2)}")
        if not writable:
            for name, lt in env.luts:
                if lt == t:
                    c.append(name)
        return c

    def make_func(self, env_funcs):
        r = self.r
        name = f"{self.kname}_f{len(env_funcs)}"
        ts = ["int", "unsigned", "long", "unsigned long", "short", "unsigned char"] + (
            FTYPES if self.use_float else [])
        ret = r.choice(COMPUTE if self.use_float else ITYPES + ["void"])
        qtype, ptype = r.choice(ts), r.choice(ts)
        pmask = r.choice([0, 7])
        e = Env()
        e.funcs = list(env_funcs)
        e.arrays.append(("q", qtype, 7, False))
        if pmask:
            e.arrays.append(("p", ptype, 7, True))
        else:
            e.ptrs.append(("p", ptype, True))
        e.scalars.append(("x", "int", True))
        if self.use_float:
            e.scalars.append(("y", "float", True))
        body = []
        self.decls(e, r.randint(1, 3), body)
        body += self.stmt_list(e, r.randint(2, 5), 1)
        if ret != "void":
            body.append(Stmt("line", text=f"return {self.expr(ret, e, 1)};", removable=False))
        params = f"const {qtype} *q, {ptype} *p, int x" + (", float y" if self.use_float else "")
        f = Func(name, ret, qtype, ptype, pmask, None)
        f.params = params
        f.body = body
        return f

    def call_stmt(self, env):
        r = self.r
        f = r.choice(env.funcs)
        pre = []
        qa = self.pointer_args(env, f.qtype, 7, False)
        if qa:
            q = r.choice(qa)
        else:
            q = self.fresh("t")
            vals = ", ".join(self.assign_value(f.qtype, env) for _ in range(r.randint(1, 4)))
            pre.append(Stmt("decl", type=f.qtype, name=q, dims="[8]", init="{" + vals + "}",
                            removable=False))
        pa = self.pointer_args(env, f.ptype, f.pmask, True)
        if pa:
            p = r.choice(pa)
        else:
            tname = self.fresh("t")
            vals = ", ".join(self.assign_value(f.ptype, env) for _ in range(r.randint(1, 4)))
            pre.append(Stmt("decl", type=f.ptype, name=tname, dims="[8]", init="{" + vals + "}",
                            removable=False))
            p = tname
        args = f"{q}, {p}, {self.expr('int', env, 2)}"
        if self.use_float:
            args += f", {self.expr('float', env, 2)}"
        call = f"{f.name}({args})"
        cands = [s for s in env.scalars if s[2]]
        if f.ret != "void" and cands and r.random() < 0.8:
            name, t, _ = r.choice(cands)
            v = call if compute_of(t) == f.ret else self.convert(call, f.ret, compute_of(t))
            if t != compute_of(t):
                v = f"({t})({v})"
            text = f"{name} = {v};"
        else:
            text = f"(void){call};"
        if pre:
            return Stmt("block", a=pre + [Stmt("line", text=text, removable=False)])
        return Stmt("line", text=text)

    # ------------------------------------------------ the kernel
    def generate(self):
        r = self.r
        self.luts = []
        lut_text = []
        if self.use_arrays or r.random() < 0.3:
            for _ in range(r.randint(0, 2)):
                t = r.choice(ITYPES + (FTYPES if self.use_float else []))
                name = f"{self.kname}_lut{len(self.luts)}"
                vals = ", ".join(self.lit_int(t) if t in ITYPES else self.lit_float(t)
                                 for _ in range(16))
                lut_text.append(f"constant {t} {name}[16] = {{{vals}}};")
                self.luts.append((name, t))
        self.funcs = []
        if self.use_funcs:
            for _ in range(r.randint(1, 3)):
                fe = Env()
                fe.luts = []
                self.funcs.append(self.make_func(self.funcs))
        shared = []
        sacc = False
        nseg = 1
        if self.use_shared:
            for _ in range(r.randint(1, 2)):
                shared.append((self.fresh("sh"), r.choice(["int", "unsigned", "long"] + (
                    ["float", "double"] if self.use_float else []))))
            sacc = self.use_atomics and r.random() < 0.6
            nseg = r.randint(3 if sacc else 2, 4)
        segs = []
        for si in range(nseg):
            env = Env()
            env.kernel = True
            env.luts = self.luts
            env.funcs = self.funcs
            if si == 0:
                env.shared = [(n, t, "W") for n, t in shared]
            else:
                env.shared = [(n, t, r.choice("WR")) for n, t in shared]
            if sacc:
                env.sacc = None if si == 0 else ("R" if si == nseg - 1 else "A")
            stmts = []
            if si == 0:
                # Every slot of every shared array is written before any barrier.
                for n, t in shared:
                    e0 = Env()
                    e0.kernel = True
                    stmts.append(Stmt("line", text=f"{n}[tid] = {self.assign_value(t, e0)};",
                                      removable=False))
                if sacc:
                    stmts.append(Stmt("line", text=f"if (tid < {NACC}u) sacc[tid] = 0u;",
                                      removable=False))
            self.decls(env, r.randint(2, 5), stmts)
            stmts += self.stmt_list(env, r.randint(2, 4 + 2 * self.level), 0)
            if si == nseg - 1:
                for _ in range(r.randint(1, 3)):
                    stmts.append(self.out_stmt(env))
                if sacc:
                    op = self.atomic_ops["acc"][0]
                    stmts.append(Stmt("line", text=f"if (tid < {NACC}u) {op}(&acc[tid], sacc[tid]);"))
            segs.append(stmts)
        self.shared, self.sacc, self.segs, self.lut_text = shared, sacc, segs, lut_text
        return self

    # ------------------------------------------------ rendering
    def render_common(self):
        out = list(self.lut_text)
        for f in self.funcs:
            out.append(f"static {f.ret} {f.name}({f.params}) {{")
            out += render(f.body, 1)
            out.append("}")
        return "\n".join(out) + ("\n" if out else "")

    def render_kernel(self):
        out = [self.render_common(), f"kernel void {self.kname}({PARAMS}, struct kparm prm) {{"]
        for n, t in self.shared:
            out.append(f"  shared {t} {n}[{BS}];")
        if self.sacc:
            out.append(f"  shared unsigned sacc[{NACC}];")
        out.append(f"  unsigned tid = threadIdx.x, bid = blockIdx.x, gid = bid * {BS}u + tid;")
        out.append("  (void)gid;")
        for i, s in enumerate(self.segs):
            if i:
                out.append("  __syncthreads();")
            out.append("  {")
            out += render(s, 2)
            out.append("  }")
        out.append("}")
        return "\n".join(out) + "\n"

    def render_ref(self):
        out = [self.render_common(),
               f"static void {self.kname}_ref({PARAMS}, struct kparm prm_in) {{",
               f"  for (unsigned bid = 0; bid < {NB}u; bid++) {{"]
        for n, t in self.shared:
            out.append(f"    {t} {n}[{BS}];")
        if self.sacc:
            out.append(f"    unsigned sacc[{NACC}];")
        out.append(f"    struct kparm prm_t[{BS}];")
        out.append(f"    for (unsigned t = 0; t < {BS}u; t++) prm_t[t] = prm_in;")
        for s in self.segs:
            out.append(f"    for (unsigned tid = 0; tid < {BS}u; tid++) {{")
            out.append(f"      unsigned gid = bid * {BS}u + tid;")
            out.append("      struct kparm prm = prm_t[tid];")
            out.append("      {")
            out += render(s, 4)
            out.append("      }")
            out.append("      prm_t[tid] = prm;")
            out.append("    }")
        out.append("  }")
        out.append("}")
        return "\n".join(out) + "\n"


def kernel(seed, index):
    return KernelGen(seed, index).generate()


def write_files(stem, kernels, seed):
    """kernels: generated KernelGen objects. Writes STEM.k and STEM_ref.c."""
    common = helpers()
    with open(stem + ".k", "w") as f:
        f.write("/* generated by tests/random/rkgen.py */\n")
        f.write(KCC_PRELUDE + common + "\n")
        for k in kernels:
            f.write(f"/* {k.kname}: level {k.level} */\n")
            f.write(k.render_kernel() + "\n")
    with open(stem + "_ref.c", "w") as f:
        f.write("/* generated by tests/random/rkgen.py: host reference (rk_seed %d) */\n" % seed)
        f.write(REF_PRELUDE + common + "\n")
        for k in kernels:
            f.write(k.render_ref() + "\n")
        f.write("static const RkRef rk_refs[] = {")
        f.write(", ".join(f"{{{k.kidx}, {k.kname}_ref}}" for k in kernels))
        f.write("};\n#include \"rk_ref_main.h\"\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("-k", "--kernels", type=int, default=10)
    ap.add_argument("-o", "--out")
    a = ap.parse_args()
    write_files(a.out or f"rk_{a.seed}", [kernel(a.seed, i) for i in range(a.kernels)], a.seed)


if __name__ == "__main__":
    main()
