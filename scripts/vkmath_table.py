#!/usr/bin/env python3
"""vkmath_table.py — the table of 2/pi that compiler/spirv/spirv_vkmath.c's sin, cos and tan
reduce float arguments with (its output is pasted there as VK_TWO_OVER_PI).

A float x >= 1/2 is m * 2^e with m an integer below 2^24 and e = E - 150 (E its biased
exponent, 126..254). x * 2/pi mod 4 = m * a_e mod 4 with a_e = (2^e * 2/pi) mod 4, because m
is an integer. Each a_e is written as four doubles c0 + c1 + c2 + c3: c0 a multiple of 2^-22
below 4, c1 of 2^-46 below 2^-22, c2 of 2^-70 below 2^-46, c3 the rest rounded to double, so
that m * c0, m * c1 and m * c2 are exact in double (at most 48 significant bits)."""
import mpmath

mpmath.mp.prec = 1600  # 1280 bits of 2/pi for the double table, and more
two_over_pi = 2 / mpmath.pi
rows = []
for E in range(126, 255):
    e = E - 150
    a = mpmath.fmod(two_over_pi * mpmath.mpf(2) ** e, 4)
    cs = []
    for k in range(3):
        scale = mpmath.mpf(2) ** (22 + 24 * k)
        c = mpmath.floor(a * scale) / scale
        cs.append(c)
        a -= c
    cs.append(a)
    rows.append([float(c) for c in cs])
    assert all(float(c) == c for c in cs[:3])
print("/* scripts/vkmath_table.py: a_E = (2^(E-150) * 2/pi) mod 4 as four doubles, E = 126..254 */")
print("static const double VK_TWO_OVER_PI[129][4] = {")
for r in rows:
    print("    {" + ", ".join(x.hex() if x else "0x0p+0" for x in r) + "},")
print("};")

# The double functions' table: 2/pi's bits after the point in 32-bit words, most significant
# first, behind two zero words (a window may start up to 64 bits before the point).
words = [0, 0]
frac = two_over_pi
for _ in range(40):
    frac *= 2**32
    w = int(mpmath.floor(frac))
    words.append(w)
    frac -= w
print()
print("/* scripts/vkmath_table.py: 2/pi's bits after the point, 32 a word, behind two zero words */")
print("static const uint32_t VK_TWO_OVER_PI_BITS[%d] = {" % len(words))
for i in range(0, len(words), 6):
    print("    " + ", ".join("0x%08x" % w for w in words[i:i + 6]) + ",")
print("};")

# atan(k/8), k = 0..8, as double-double: the double atan's reduction points.
print()
print("/* scripts/vkmath_table.py: atan(k/8) = hi + lo, k = 0..8 */")
print("static const double VK_ATAN_K8[9][2] = {")
for k in range(9):
    a = mpmath.atan(mpmath.mpf(k) / 8)
    hi = float(a)
    lo = float(a - mpmath.mpf(hi))
    print("    {%s, %s}," % (hi.hex() if hi else "0x0p+0", lo.hex() if lo else "0x0p+0"))
print("};")

# erfc's Taylor coefficients about c = 0.5 + k/4, k = 0..10, for the double erf and erfc on
# [0.375, 3.125): erfc(c) as hi, lo, erfc'(c) as hi, lo, then erfc^(n)(c) / n!, n = 2..24.
print()
print("/* scripts/vkmath_table.py: erfc about c = 0.5 + k/4: erfc(c) = hi + lo, erfc'(c) = hi + lo,")
print(" * then the Taylor coefficients erfc^(n)(c) / n!, n = 2..24 */")
print("static const double VK_ERFC_TAYLOR[11][27] = {")
for k in range(11):
    with mpmath.workprec(300):  # plenty for doubles, and fast
        c = mpmath.mpf(1) / 2 + mpmath.mpf(k) / 4
        co = mpmath.taylor(mpmath.erfc, c, 24)
        hi = float(co[0])
        lo = float(co[0] - mpmath.mpf(hi))
        h1 = float(co[1])
        l1 = float(co[1] - mpmath.mpf(h1))
        row = [hi, lo, h1, l1] + [float(x) for x in co[2:]]
    print("    {" + ", ".join(x.hex() for x in row) + "},")
print("};")

# log gamma's Taylor coefficients about c = 0.5 + k/4, k = 0..10, for the double lgamma and
# tgamma on [0.375, 3.125) (and about 2 for |h| <= 0.375): lgamma(c) as hi, lo,
# lgamma'(c) = psi(c) as hi, lo, then psi^(n-1)(c) / n!, n = 2..27. lgamma(1) = lgamma(2) = 0
# exactly, so the series keep their relative precision at those zeros.
print()
print("/* scripts/vkmath_table.py: lgamma about c = 0.5 + k/4: lgamma(c) = hi + lo, psi(c) = hi +")
print(" * lo, then the Taylor coefficients psi^(n-1)(c) / n!, n = 2..27 */")
print("static const double VK_LGAMMA_TAYLOR[11][30] = {")
for k in range(11):
    with mpmath.workprec(300):
        c = mpmath.mpf(1) / 2 + mpmath.mpf(k) / 4
        co = [mpmath.loggamma(c)] + [mpmath.psi(n - 1, c) / mpmath.factorial(n) for n in range(1, 28)]
        hi = float(co[0])
        lo = float(co[0] - mpmath.mpf(hi))
        h1 = float(co[1])
        l1 = float(co[1] - mpmath.mpf(h1))
        row = [hi, lo, h1, l1] + [float(x) for x in co[2:]]
    print("    {" + ", ".join(x.hex() if x else "0x0p+0" for x in row) + "},")
print("};")

# log(pi) and log(sqrt(2 pi)) as hi + lo: the reflection's and Stirling's constants.
with mpmath.workprec(300):
    for name, val in (("LNPI", mpmath.log(mpmath.pi)), ("LNSQRT2PI", mpmath.log(2 * mpmath.pi) / 2)):
        hi = float(val)
        print("#define %-12s %s\n#define %-12s %s" % (name, hi.hex(), name + "_LO", float(val - mpmath.mpf(hi)).hex()))
