#!/usr/bin/env python3
"""bessel_centers.py -- the Taylor centres of kcc's J0, J1, Y0, Y1, I0, I1 on [0.5, 25]
(frontend/lower/mathlib.c, bessel_*[]), with mpmath at 200 bits.

Each function's centres are its zeros in that range (as a double and the double of the rest,
the value there taken as 0, so that the Taylor series keeps its relative accuracy next to a
zero) and, between them, points on multiples of 1/64 spaced by min(1.2, x/4) (so that |x - c|
stays well inside the radius c of the series). For each centre: the value and the derivative,
rounded to double. I0 and I1 (no zeros) have the filler points only. `check` evaluates the device's algorithm in Python doubles against mpmath.
Prints the C initialisers."""
import sys
import math, random

import mpmath as mp
mp.mp.prec = 200
LO, HI = 0.5, 25.0
def funcs():
    return {
     'j0': (0, lambda x: mp.besselj(0, x), lambda k: mp.besseljzero(0, k)),
     'j1': (1, lambda x: mp.besselj(1, x), lambda k: mp.besseljzero(1, k)),
     'y0': (0, lambda x: mp.bessely(0, x), lambda k: mp.besselyzero(0, k)),
     'y1': (1, lambda x: mp.bessely(1, x), lambda k: mp.besselyzero(1, k)),
     'i0': (0, lambda x: mp.besseli(0, x), None),
     'i1': (1, lambda x: mp.besseli(1, x), None),
    }
def centers(name):
    nu, f, z = funcs()[name]
    zs = []
    k = 1
    while z:
        v = z(k)
        if v > HI + 1: break
        if v > LO * 0.9: zs.append(v)
        k += 1
    # filler grid: spacing min(1.2, 0.25 g), on multiples of 1/64
    g = []
    x = LO
    while x < HI + 1.2:
        g.append(x)
        x = round((x + min(1.2, 0.25 * x)) * 64) / 64
    out = [(mp.mpf(z0), True) for z0 in zs]
    for p in g:
        # distance to nearest zero
        if all(abs(p - z0) > min(0.6, 0.125 * p) for z0 in zs):
            out.append((mp.mpf(p), False))
    out.sort(key=lambda e: e[0])
    res = []
    for c, iz in out:
        hi = float(c)
        lo = float(c - hi)
        if not iz: lo = 0.0
        cc = mp.mpf(hi) + mp.mpf(lo)
        f0 = 0.0 if iz else float(f(cc))
        f1 = float(mp.diff(f, cc))
        res.append((hi, lo, f0, f1, iz))
    return res

def ev(nu, c, cl, f0, f1, x, K=24, sg=1):
    t = (x - c) - cl
    a = [f0, f1]
    am1 = am2 = 0.0
    # a_{k+2}
    for k in range(0, K - 2):
        ak1 = a[k+1]; ak = a[k]; akm1 = a[k-1] if k >= 1 else 0.0; akm2 = a[k-2] if k >= 2 else 0.0
        num = (c * (k + 1) * (2 * k + 1) * ak1 + (k * k + sg * c * c - nu * nu) * ak
               + sg * (2 * c * akm1 + akm2))
        a.append(-num / (c * c * (k + 2) * (k + 1)))
    s = a[-1]
    for k in range(K - 2, -1, -1):
        s = s * t + a[k]   # no fma in python; close enough
    return s

def ulp(v):
    v = abs(float(v))
    if v == 0: return 5e-324
    return math.ulp(v)



def emit():
    out = []
    for name in ['j0', 'j1', 'y0', 'y1', 'i0', 'i1']:
        out.append('static const BesselCenter bessel_%s[] = {' % name)
        for hi, lo, f0, f1, iz in centers(name):
            out.append('    {%s, %s, %s, %s},' % (hi.hex(), lo.hex() if lo else '0',
                                                  f0.hex() if f0 else '0', f1.hex()))
        out.append('};')
    print('\n'.join(out))


def check():
    for name in ['j0', 'j1', 'y0', 'y1', 'i0', 'i1']:
        nu, f, _ = funcs()[name]
        cs = centers(name)
        mids = [(cs[i][0] + cs[i+1][0]) / 2 for i in range(len(cs) - 1)]
        worst = 0; wx = 0
        random.seed(1)
        for it in range(3000):
            x = random.uniform(LO, HI)
            if it % 3 == 0 and name[0] != 'i':
                e = random.choice([e for e in cs if e[4]])
                x = e[0] + random.choice([1, -1]) * 10 ** random.uniform(-15, -1)
            i = 0
            while i < len(mids) and x >= mids[i]: i += 1
            c, cl, f0, f1, iz = cs[i]
            got = ev(nu, c, cl, f0, f1, x, sg=-1 if name[0] == 'i' else 1)
            want = f(mp.mpf(x))
            err = float(abs(got - want)) / ulp(want)
            if err > worst: worst, wx = err, x
        print(name, len(cs), 'worst ulps', worst, 'at', wx, 'maxdist', max(max(abs(cs[i][0]-cs[i+1][0]) for i in range(len(cs)-1))/2, 0))


if __name__ == '__main__':
    check() if sys.argv[1:] == ['check'] else emit()
