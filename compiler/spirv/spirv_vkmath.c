/* spirv_vkmath.c — kcc's own math for the Vulkan SPIR-V form (issue 27): exp, log, sin, pow...
 * on float and double to C's precision, where GLSL.std.450's are far looser (sin: 2^-11
 * absolute) or missing (every double one). Each function is a SPIR-V function emitted once per
 * module, at its first call (SG.vkmath), into a section of its own appended after the
 * program's functions.
 *
 * float: the argument is widened to double (the form already needs shaderFloat64 for exact
 * float division) and the function computed there with an argument reduction and a Taylor
 * series long enough for a relative error near 2^-50, so that the rounding to float is correct
 * except within 2^-50 of a midpoint: every function is within 1 ulp, most results correctly
 * rounded. double: the same reductions with the roundings that would show done exactly
 * (Dekker's products, double-double sums, an integer Payne-Hanek reduction): within 2 ulp.
 * tests/vulkan/mathfn.c measures both against the host's long double libm. The series'
 * coefficients are 1/n!, 1/n, Bernoulli numbers and the like, computed here; the tables (2/pi's
 * bits, atan(k/8), erfc's and log gamma's Taylor coefficients) come from scripts/vkmath_table.py.
 * tgamma and lgamma go through log |gamma(x)| in double-double (lgamma_dd64), the float ones
 * through the double ones.
 *
 * lavapipe folds float arithmetic on constants its compiler sees after inlining a call into
 * IEEE-incorrect values (docs/driver-bugs.md 21, 22): the functions never divide by a value
 * that may be zero (the divisor is made 1 there and the case selected away), and signed zeros,
 * infinities and NaN of the result come from selects on the argument, not from arithmetic. */
#include <spirv/unified1/GLSL.std.450.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_gen.h"

/* (2^(E-150) * 2/pi) mod 4 for a float's biased exponent E = 126..254, as four doubles whose
 * products with a 24-bit integer are exact but for the last (scripts/vkmath_table.py). */
static const double VK_TWO_OVER_PI[129][4] = {
    {0x0p+0, 0x1.45f3000000000p-25, 0x1.b727220000000p-47, 0x1.529fc2757d1f5p-76},
    {0x0p+0, 0x1.45f3040000000p-24, 0x1.6e4e440000000p-47, 0x1.529fc2757d1f5p-75},
    {0x0p+0, 0x1.45f3060000000p-23, 0x1.b939100000000p-48, 0x1.529fc2757d1f5p-74},
    {0x1.0000000000000p-22, 0x1.17cc180000000p-24, 0x1.b939100000000p-47, 0x1.529fc2757d1f5p-73},
    {0x1.0000000000000p-21, 0x1.17cc1a0000000p-23, 0x1.7272200000000p-47, 0x1.529fc2757d1f5p-72},
    {0x1.4000000000000p-20, 0x1.7cc1b00000000p-26, 0x1.c9c8800000000p-48, 0x1.529fc2757d1f5p-71},
    {0x1.4000000000000p-19, 0x1.7cc1b00000000p-25, 0x1.c9c8820000000p-47, 0x1.4a7f09d5f47d5p-72},
    {0x1.4000000000000p-18, 0x1.7cc1b40000000p-24, 0x1.9391040000000p-47, 0x1.4a7f09d5f47d5p-71},
    {0x1.4000000000000p-17, 0x1.7cc1b60000000p-23, 0x1.27220a0000000p-47, 0x1.29fc2757d1f53p-72},
    {0x1.4400000000000p-16, 0x1.f306dc0000000p-24, 0x1.3910500000000p-49, 0x1.29fc2757d1f53p-71},
    {0x1.4400000000000p-15, 0x1.f306dc0000000p-23, 0x1.3910540000000p-48, 0x1.4fe13abe8fa9ap-73},
    {0x1.4500000000000p-14, 0x1.e60db80000000p-23, 0x1.3910540000000p-47, 0x1.4fe13abe8fa9ap-72},
    {0x1.4580000000000p-13, 0x1.cc1b720000000p-23, 0x1.c882a00000000p-49, 0x1.4fe13abe8fa9ap-71},
    {0x1.45c0000000000p-12, 0x1.9836e40000000p-23, 0x1.c882a40000000p-48, 0x1.3f84eafa3ea6ap-72},
    {0x1.45e0000000000p-11, 0x1.306dc80000000p-23, 0x1.c882a40000000p-47, 0x1.3f84eafa3ea6ap-71},
    {0x1.45f0000000000p-10, 0x1.836e480000000p-25, 0x1.91054a0000000p-47, 0x1.fc2757d1f534ep-73},
    {0x1.45f0000000000p-9, 0x1.836e4c0000000p-24, 0x1.220a940000000p-47, 0x1.fc2757d1f534ep-72},
    {0x1.45f0000000000p-8, 0x1.836e4e0000000p-23, 0x1.1054a00000000p-49, 0x1.fc2757d1f534ep-71},
    {0x1.45f2000000000p-7, 0x1.06dc9c0000000p-23, 0x1.1054a40000000p-48, 0x1.f84eafa3ea69cp-71},
    {0x1.45f3000000000p-6, 0x1.b727000000000p-28, 0x1.1054a60000000p-47, 0x1.f09d5f47d4d37p-71},
    {0x1.45f3000000000p-5, 0x1.b727200000000p-27, 0x1.054a700000000p-50, 0x1.e13abe8fa9a6fp-71},
    {0x1.45f3000000000p-4, 0x1.b727200000000p-26, 0x1.054a780000000p-49, 0x1.c2757d1f534dep-71},
    {0x1.45f3000000000p-3, 0x1.b727200000000p-25, 0x1.054a7c0000000p-48, 0x1.84eafa3ea69bcp-71},
    {0x1.45f3000000000p-2, 0x1.b727200000000p-24, 0x1.054a7e0000000p-47, 0x1.09d5f47d4d377p-71},
    {0x1.45f3000000000p-1, 0x1.b727220000000p-23, 0x1.529fc00000000p-52, 0x1.3abe8fa9a6ee0p-75},
    {0x1.45f3040000000p+0, 0x1.6e4e440000000p-23, 0x1.529fc00000000p-51, 0x1.3abe8fa9a6ee0p-74},
    {0x1.45f3060000000p+1, 0x1.b939100000000p-24, 0x1.529fc00000000p-50, 0x1.3abe8fa9a6ee0p-73},
    {0x1.17cc180000000p+0, 0x1.b939100000000p-23, 0x1.529fc00000000p-49, 0x1.3abe8fa9a6ee0p-72},
    {0x1.17cc1a0000000p+1, 0x1.7272200000000p-23, 0x1.529fc00000000p-48, 0x1.3abe8fa9a6ee0p-71},
    {0x1.7cc1b00000000p-2, 0x1.c9c8800000000p-24, 0x1.529fc20000000p-47, 0x1.d5f47d4d37703p-73},
    {0x1.7cc1b00000000p-1, 0x1.c9c8820000000p-23, 0x1.4a7f080000000p-48, 0x1.d5f47d4d37703p-72},
    {0x1.7cc1b40000000p+0, 0x1.9391040000000p-23, 0x1.4a7f080000000p-47, 0x1.d5f47d4d37703p-71},
    {0x1.7cc1b60000000p+1, 0x1.27220a0000000p-23, 0x1.29fc240000000p-48, 0x1.abe8fa9a6ee07p-71},
    {0x1.f306dc0000000p+0, 0x1.3910500000000p-25, 0x1.29fc260000000p-47, 0x1.57d1f534ddc0ep-71},
    {0x1.f306dc0000000p+1, 0x1.3910540000000p-24, 0x1.4fe1380000000p-49, 0x1.5f47d4d377037p-72},
    {0x1.e60db80000000p+1, 0x1.3910540000000p-23, 0x1.4fe1380000000p-48, 0x1.5f47d4d377037p-71},
    {0x1.cc1b720000000p+1, 0x1.c882a00000000p-25, 0x1.4fe13a0000000p-47, 0x1.7d1f534ddc0dbp-72},
    {0x1.9836e40000000p+1, 0x1.c882a40000000p-24, 0x1.3f84e80000000p-48, 0x1.7d1f534ddc0dbp-71},
    {0x1.306dc80000000p+1, 0x1.c882a40000000p-23, 0x1.3f84ea0000000p-47, 0x1.f47d4d377036ep-72},
    {0x1.836e480000000p-1, 0x1.91054a0000000p-23, 0x1.fc27500000000p-49, 0x1.f47d4d377036ep-71},
    {0x1.836e4c0000000p+0, 0x1.220a940000000p-23, 0x1.fc27540000000p-48, 0x1.e8fa9a6ee06dbp-71},
    {0x1.836e4e0000000p+1, 0x1.1054a00000000p-25, 0x1.fc27560000000p-47, 0x1.d1f534ddc0db6p-71},
    {0x1.06dc9c0000000p+1, 0x1.1054a40000000p-24, 0x1.f84eae0000000p-47, 0x1.a3ea69bb81b6cp-71},
    {0x1.b727000000000p-4, 0x1.1054a60000000p-23, 0x1.f09d5e0000000p-47, 0x1.47d4d377036d9p-71},
    {0x1.b727200000000p-3, 0x1.054a700000000p-26, 0x1.e13abe0000000p-47, 0x1.1f534ddc0db63p-72},
    {0x1.b727200000000p-2, 0x1.054a780000000p-25, 0x1.c2757c0000000p-47, 0x1.1f534ddc0db63p-71},
    {0x1.b727200000000p-1, 0x1.054a7c0000000p-24, 0x1.84eafa0000000p-47, 0x1.f534ddc0db629p-74},
    {0x1.b727200000000p+0, 0x1.054a7e0000000p-23, 0x1.09d5f40000000p-47, 0x1.f534ddc0db629p-73},
    {0x1.b727220000000p+1, 0x1.529fc00000000p-28, 0x1.3abe800000000p-51, 0x1.f534ddc0db629p-72},
    {0x1.6e4e440000000p+1, 0x1.529fc00000000p-27, 0x1.3abe800000000p-50, 0x1.f534ddc0db629p-71},
    {0x1.b939100000000p+0, 0x1.529fc00000000p-26, 0x1.3abe880000000p-49, 0x1.ea69bb81b6c53p-71},
    {0x1.b939100000000p+1, 0x1.529fc00000000p-25, 0x1.3abe8c0000000p-48, 0x1.d4d377036d8a5p-71},
    {0x1.7272200000000p+1, 0x1.529fc00000000p-24, 0x1.3abe8e0000000p-47, 0x1.a9a6ee06db14bp-71},
    {0x1.c9c8800000000p+0, 0x1.529fc20000000p-23, 0x1.d5f4780000000p-49, 0x1.534ddc0db6296p-71},
    {0x1.c9c8820000000p+1, 0x1.4a7f080000000p-24, 0x1.d5f47c0000000p-48, 0x1.4d377036d8a56p-72},
    {0x1.9391040000000p+1, 0x1.4a7f080000000p-23, 0x1.d5f47c0000000p-47, 0x1.4d377036d8a56p-71},
    {0x1.27220a0000000p+1, 0x1.29fc240000000p-24, 0x1.abe8fa0000000p-47, 0x1.34ddc0db6295ap-72},
    {0x1.3910500000000p-1, 0x1.29fc260000000p-23, 0x1.57d1f40000000p-47, 0x1.34ddc0db6295ap-71},
    {0x1.3910540000000p+0, 0x1.4fe1380000000p-25, 0x1.5f47d40000000p-48, 0x1.a6ee06db14acdp-73},
    {0x1.3910540000000p+1, 0x1.4fe1380000000p-24, 0x1.5f47d40000000p-47, 0x1.a6ee06db14acdp-72},
    {0x1.c882a00000000p-1, 0x1.4fe13a0000000p-23, 0x1.7d1f500000000p-48, 0x1.a6ee06db14acdp-71},
    {0x1.c882a40000000p+0, 0x1.3f84e80000000p-24, 0x1.7d1f520000000p-47, 0x1.4ddc0db629599p-71},
    {0x1.c882a40000000p+1, 0x1.3f84ea0000000p-23, 0x1.f47d4c0000000p-48, 0x1.377036d8a5665p-72},
    {0x1.91054a0000000p+1, 0x1.fc27500000000p-25, 0x1.f47d4c0000000p-47, 0x1.377036d8a5665p-71},
    {0x1.220a940000000p+1, 0x1.fc27540000000p-24, 0x1.e8fa9a0000000p-47, 0x1.bb81b6c52b328p-73},
    {0x1.1054a00000000p-1, 0x1.fc27560000000p-23, 0x1.d1f5340000000p-47, 0x1.bb81b6c52b328p-72},
    {0x1.1054a40000000p+0, 0x1.f84eae0000000p-23, 0x1.a3ea680000000p-47, 0x1.bb81b6c52b328p-71},
    {0x1.1054a60000000p+1, 0x1.f09d5e0000000p-23, 0x1.47d4d20000000p-47, 0x1.77036d8a5664fp-71},
    {0x1.054a700000000p-2, 0x1.e13abe0000000p-23, 0x1.1f534c0000000p-48, 0x1.dc0db6295993cp-72},
    {0x1.054a780000000p-1, 0x1.c2757c0000000p-23, 0x1.1f534c0000000p-47, 0x1.dc0db6295993cp-71},
    {0x1.054a7c0000000p+0, 0x1.84eafa0000000p-23, 0x1.f534d00000000p-50, 0x1.b81b6c52b3279p-71},
    {0x1.054a7e0000000p+1, 0x1.09d5f40000000p-23, 0x1.f534d80000000p-49, 0x1.7036d8a5664f1p-71},
    {0x1.529fc00000000p-4, 0x1.3abe800000000p-27, 0x1.f534dc0000000p-48, 0x1.c0db6295993c4p-72},
    {0x1.529fc00000000p-3, 0x1.3abe800000000p-26, 0x1.f534dc0000000p-47, 0x1.c0db6295993c4p-71},
    {0x1.529fc00000000p-2, 0x1.3abe880000000p-25, 0x1.ea69ba0000000p-47, 0x1.81b6c52b32788p-71},
    {0x1.529fc00000000p-1, 0x1.3abe8c0000000p-24, 0x1.d4d3760000000p-47, 0x1.036d8a5664f11p-71},
    {0x1.529fc00000000p+0, 0x1.3abe8e0000000p-23, 0x1.a9a6ee0000000p-47, 0x1.b6c52b3278872p-77},
    {0x1.529fc20000000p+1, 0x1.d5f4780000000p-25, 0x1.534ddc0000000p-47, 0x1.b6c52b3278872p-76},
    {0x1.4a7f080000000p+0, 0x1.d5f47c0000000p-24, 0x1.4d37700000000p-48, 0x1.b6c52b3278872p-75},
    {0x1.4a7f080000000p+1, 0x1.d5f47c0000000p-23, 0x1.4d37700000000p-47, 0x1.b6c52b3278872p-74},
    {0x1.29fc240000000p+0, 0x1.abe8fa0000000p-23, 0x1.34ddc00000000p-48, 0x1.b6c52b3278872p-73},
    {0x1.29fc260000000p+1, 0x1.57d1f40000000p-23, 0x1.34ddc00000000p-47, 0x1.b6c52b3278872p-72},
    {0x1.4fe1380000000p-1, 0x1.5f47d40000000p-24, 0x1.a6ee000000000p-49, 0x1.b6c52b3278872p-71},
    {0x1.4fe1380000000p+0, 0x1.5f47d40000000p-23, 0x1.a6ee040000000p-48, 0x1.6d8a5664f10e4p-71},
    {0x1.4fe13a0000000p+1, 0x1.7d1f500000000p-24, 0x1.a6ee060000000p-47, 0x1.b6295993c4390p-72},
    {0x1.3f84e80000000p+0, 0x1.7d1f520000000p-23, 0x1.4ddc0c0000000p-47, 0x1.b6295993c4390p-71},
    {0x1.3f84ea0000000p+1, 0x1.f47d4c0000000p-24, 0x1.3770340000000p-48, 0x1.6c52b32788721p-71},
    {0x1.fc27500000000p-1, 0x1.f47d4c0000000p-23, 0x1.3770360000000p-47, 0x1.b14acc9e21c82p-72},
    {0x1.fc27540000000p+0, 0x1.e8fa9a0000000p-23, 0x1.bb81b00000000p-49, 0x1.b14acc9e21c82p-71},
    {0x1.fc27560000000p+1, 0x1.d1f5340000000p-23, 0x1.bb81b40000000p-48, 0x1.6295993c43904p-71},
    {0x1.f84eae0000000p+1, 0x1.a3ea680000000p-23, 0x1.bb81b60000000p-47, 0x1.8a5664f10e410p-72},
    {0x1.f09d5e0000000p+1, 0x1.47d4d20000000p-23, 0x1.77036c0000000p-47, 0x1.8a5664f10e410p-71},
    {0x1.e13abe0000000p+1, 0x1.1f534c0000000p-24, 0x1.dc0db40000000p-48, 0x1.14acc9e21c821p-71},
    {0x1.c2757c0000000p+1, 0x1.1f534c0000000p-23, 0x1.dc0db60000000p-47, 0x1.4acc9e21c8210p-74},
    {0x1.84eafa0000000p+1, 0x1.f534d00000000p-26, 0x1.b81b6c0000000p-47, 0x1.4acc9e21c8210p-73},
    {0x1.09d5f40000000p+1, 0x1.f534d80000000p-25, 0x1.7036d80000000p-47, 0x1.4acc9e21c8210p-72},
    {0x1.3abe800000000p-3, 0x1.f534dc0000000p-24, 0x1.c0db600000000p-48, 0x1.4acc9e21c8210p-71},
    {0x1.3abe800000000p-2, 0x1.f534dc0000000p-23, 0x1.c0db620000000p-47, 0x1.2b32788720840p-72},
    {0x1.3abe880000000p-1, 0x1.ea69ba0000000p-23, 0x1.81b6c40000000p-47, 0x1.2b32788720840p-71},
    {0x1.3abe8c0000000p+0, 0x1.d4d3760000000p-23, 0x1.036d8a0000000p-47, 0x1.5993c439041fep-73},
    {0x1.3abe8e0000000p+1, 0x1.a9a6ee0000000p-23, 0x1.b6c5000000000p-53, 0x1.5993c439041fep-72},
    {0x1.d5f4780000000p-1, 0x1.534ddc0000000p-23, 0x1.b6c5000000000p-52, 0x1.5993c439041fep-71},
    {0x1.d5f47c0000000p+0, 0x1.4d37700000000p-24, 0x1.b6c5200000000p-51, 0x1.664f10e4107f9p-72},
    {0x1.d5f47c0000000p+1, 0x1.4d37700000000p-23, 0x1.b6c5200000000p-50, 0x1.664f10e4107f9p-71},
    {0x1.abe8fa0000000p+1, 0x1.34ddc00000000p-24, 0x1.b6c5280000000p-49, 0x1.993c439041fe5p-72},
    {0x1.57d1f40000000p+1, 0x1.34ddc00000000p-23, 0x1.b6c5280000000p-48, 0x1.993c439041fe5p-71},
    {0x1.5f47d40000000p+0, 0x1.a6ee000000000p-25, 0x1.b6c52a0000000p-47, 0x1.3278872083fcap-71},
    {0x1.5f47d40000000p+1, 0x1.a6ee040000000p-24, 0x1.6d8a560000000p-47, 0x1.93c439041fe51p-73},
    {0x1.7d1f500000000p+0, 0x1.a6ee060000000p-23, 0x1.b629580000000p-48, 0x1.93c439041fe51p-72},
    {0x1.7d1f520000000p+1, 0x1.4ddc0c0000000p-23, 0x1.b629580000000p-47, 0x1.93c439041fe51p-71},
    {0x1.f47d4c0000000p+0, 0x1.3770340000000p-24, 0x1.6c52b20000000p-47, 0x1.278872083fca3p-71},
    {0x1.f47d4c0000000p+1, 0x1.3770360000000p-23, 0x1.b14acc0000000p-48, 0x1.3c439041fe516p-73},
    {0x1.e8fa9a0000000p+1, 0x1.bb81b00000000p-25, 0x1.b14acc0000000p-47, 0x1.3c439041fe516p-72},
    {0x1.d1f5340000000p+1, 0x1.bb81b40000000p-24, 0x1.6295980000000p-47, 0x1.3c439041fe516p-71},
    {0x1.a3ea680000000p+1, 0x1.bb81b60000000p-23, 0x1.8a56640000000p-48, 0x1.e21c820ff28b2p-73},
    {0x1.47d4d20000000p+1, 0x1.77036c0000000p-23, 0x1.8a56640000000p-47, 0x1.e21c820ff28b2p-72},
    {0x1.1f534c0000000p+0, 0x1.dc0db40000000p-24, 0x1.14acc80000000p-47, 0x1.e21c820ff28b2p-71},
    {0x1.1f534c0000000p+1, 0x1.dc0db60000000p-23, 0x1.4acc900000000p-50, 0x1.c439041fe5164p-71},
    {0x1.f534d00000000p-2, 0x1.b81b6c0000000p-23, 0x1.4acc980000000p-49, 0x1.8872083fca2c7p-71},
    {0x1.f534d80000000p-1, 0x1.7036d80000000p-23, 0x1.4acc9c0000000p-48, 0x1.10e4107f9458fp-71},
    {0x1.f534dc0000000p+0, 0x1.c0db600000000p-24, 0x1.4acc9e0000000p-47, 0x1.0e4107f9458ebp-74},
    {0x1.f534dc0000000p+1, 0x1.c0db620000000p-23, 0x1.2b32780000000p-48, 0x1.0e4107f9458ebp-73},
    {0x1.ea69ba0000000p+1, 0x1.81b6c40000000p-23, 0x1.2b32780000000p-47, 0x1.0e4107f9458ebp-72},
    {0x1.d4d3760000000p+1, 0x1.036d8a0000000p-23, 0x1.5993c00000000p-49, 0x1.0e4107f9458ebp-71},
    {0x1.a9a6ee0000000p+1, 0x1.b6c5000000000p-29, 0x1.5993c40000000p-48, 0x1.c820ff28b1d5fp-75},
    {0x1.534ddc0000000p+1, 0x1.b6c5000000000p-28, 0x1.5993c40000000p-47, 0x1.c820ff28b1d5fp-74},
    {0x1.4d37700000000p+0, 0x1.b6c5200000000p-27, 0x1.664f100000000p-48, 0x1.c820ff28b1d5fp-73},
    {0x1.4d37700000000p+1, 0x1.b6c5200000000p-26, 0x1.664f100000000p-47, 0x1.c820ff28b1d5fp-72},
    {0x1.34ddc00000000p+0, 0x1.b6c5280000000p-25, 0x1.993c400000000p-48, 0x1.c820ff28b1d5fp-71},
};

/* 2/pi's bits after the point, 32 a word, behind two zero words (scripts/vkmath_table.py):
 * the double functions' reduction takes a 192-bit window of it. */
static const uint32_t VK_TWO_OVER_PI_BITS[42] = {
    0x00000000, 0x00000000, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599,
    0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
    0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41, 0x3991d639,
    0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f,
    0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7,
    0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d,
};

/* atan(k/8) = hi + lo, k = 0..8: the double atan's reduction points (scripts/vkmath_table.py). */
static const double VK_ATAN_K8[9][2] = {
    {0x0p+0, 0x0p+0},
    {0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59},
    {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57},
    {0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56},
    {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56},
    {0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58},
    {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56},
    {0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56},
    {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55},
};

/* erfc about c = 0.5 + k/4, k = 0..10: erfc(c) = hi + lo, erfc'(c) = hi + lo, then the
 * Taylor coefficients erfc^(n)(c) / n!, n = 2..24 (scripts/vkmath_table.py): the double erf
 * and erfc on [0.375, 3.125). */
static const double VK_ERFC_TAYLOR[11][27] = {
    {0x1.eb02147ce245cp-2,   -0x1.5e809f1a31a28p-56, -0x1.c1efca49a5011p-1,  -0x1.4c081d7f49500p-55,
     0x1.c1efca49a5011p-2,   0x1.2bf531866e00cp-3,   -0x1.76f27de80980ep-3,  -0x1.dfeeb5a3e3346p-8,
     0x1.99f13b26a7676p-5,   -0x1.623c617f0f515p-8,  -0x1.493d480930d14p-7,  0x1.1c1645ee62c3cp-9,
     0x1.9b6f2543cb46cp-10,  -0x1.04c10aa85c4bdp-11, -0x1.9bca40e3c05b8p-13, 0x1.658951157f288p-14,
     0x1.4c433b5aa6987p-16,  -0x1.8e6ed701aefaap-17, -0x1.a501d0174e6c1p-20, 0x1.7852d902db3dep-20,
     0x1.71eb964293287p-24,  -0x1.350876e9138cdp-23, -0x1.0912c6876021dp-30, 0x1.c0f0a1bce0d5dp-27,
     -0x1.189a05aca908fp-31, -0x1.2402a2ed867e2p-30, 0x1.759ba0780bf1ep-34},
    {0x1.27c6d14c5e341p-2,   0x1.3af3434d0eeabp-57,  -0x1.492e42d78d2c5p-1, 0x1.8bd386a7ba3f6p-55,
     0x1.edc5644353c27p-2,   -0x1.b6e8591f66e5bp-6,  -0x1.349b5eaa14598p-3, 0x1.b42a1890ce411p-5,
     0x1.b8477966b3381p-6,   -0x1.2e0afb0bb961ep-6,  -0x1.2db332f9e64d4p-9, 0x1.04105cd6d527ep-8,
     -0x1.86234ec3372d9p-13, -0x1.4725abcb993b6p-11, 0x1.bd5eea735c608p-14, 0x1.3db33dbe2237ep-14,
     -0x1.7313fb66f36f6p-16, -0x1.e0eaec4d06fb6p-18, 0x1.b482f6f2cbfb6p-19, 0x1.0e46b593eb57fp-21,
     -0x1.9a3b710b18fc9p-22, -0x1.55a3560a6d51fp-26, 0x1.43b9683a514f7p-25, -0x1.eac242728056fp-31,
     -0x1.b8157ec471e9dp-29, 0x1.371430d697919p-32,  0x1.0530d9d7bdc6bp-32},
    {0x1.4226162fbddd5p-3,   -0x1.b40443f6ec34ap-59, -0x1.a911f096fbc26p-2, 0x1.086a09f735b33p-56,
     0x1.a911f096fbc26p-2,   -0x1.1b614b0f52819p-3,  -0x1.1b614b0f52819p-4, 0x1.1b614b0f52819p-4,
     -0x1.2e45a565ad570p-8,  -0x1.f096fd702f0efp-7,  0x1.391146bb981a2p-8,  0x1.ee30d995fae39p-10,
     -0x1.4176c4374eb1ep-10, -0x1.66b6afbde3cc2p-14, 0x1.a38bca0efc115p-13, -0x1.3a035a7960672p-16,
     -0x1.8dbd3052dd336p-16, 0x1.6fa38387ffecfp-18,  0x1.17503b2712bd4p-19, -0x1.c7d4267b540c0p-21,
     -0x1.08c1e370a1521p-23, 0x1.a244d23aeb8b2p-24,  0x1.0ace36243eb08p-29, -0x1.3519775284f8cp-27,
     0x1.6532f5af13e04p-31,  0x1.7b715f9e1d28bp-31,  -0x1.e0bdb399fb032p-34},
    {0x1.3bcd133aa0ffcp-4,   -0x1.89da82345938bp-62, -0x1.e4652fadcb6b2p-3,  0x1.e950836901024p-61,
     0x1.2ebf3dcc9f22fp-2,   -0x1.571d01c5c56bep-3,  0x1.93a9a7bb7ed94p-8,   0x1.8281ce0b34fa4p-5,
     -0x1.5d0003af70568p-6,  -0x1.db43c97264485p-9,  0x1.75672cebadac5p-8,   -0x1.cc22555d6cd4ep-11,
     -0x1.a0074f860d925p-11, 0x1.53b177f074426p-12,  0x1.ba66102895704p-15,  -0x1.d4520093cdd9ep-15,
     0x1.94a53c645ccdbp-19,  0x1.ae23c1a269f29p-18,  -0x1.6b412b613178bp-20, -0x1.10b20781c7674p-21,
     0x1.c7658e8701944p-23,  0x1.842847778c28bp-26,  -0x1.89a9954a7c25fp-26, 0x1.77dbc6760d83cp-31,
     0x1.05fd237f9d39bp-29,  -0x1.22363bc456583p-32, -0x1.11ab7ca5e89e2p-33},
    {0x1.15aaa8ec85205p-5,   -0x1.e86ee834da4cep-61, -0x1.e723726b824a9p-4,  0x1.2203197eea764p-59,
     0x1.6d5a95d0a1b7fp-3,   -0x1.1c2a02beb6ab8p-3,  0x1.6d5a95d0a1b7fp-5,   0x1.e723726b824a9p-7,
     -0x1.3ca3d72c47e3bp-6,  0x1.36d73a61dbabfp-8,   0x1.35ae4e395fa0cp-9,   -0x1.c0380c3978d47p-10,
     0x1.85b5f522cea21p-14,  0x1.0acef87389254p-12,  -0x1.45db0652058b6p-14, -0x1.2d3d58b8fbd36p-16,
     0x1.d8dcc76abaeadp-17,  -0x1.3fad4f62b4b13p-21, -0x1.9b5e588bf60cbp-20, 0x1.68e51003dd11fp-22,
     0x1.bfb4d6727bc30p-24,  -0x1.ac688c5721c22p-25, -0x1.4913c0089a0c2p-29, 0x1.4d977213cbaaap-28,
     -0x1.f3e769e963653p-32, -0x1.79d36b54e42c6p-32, 0x1.5c4d76f891c73p-34},
    {0x1.b4be201caa4b4p-7,   -0x1.6abde927f9cddp-61, -0x1.b055303221015p-5,  -0x1.cba9ea60ed019p-59,
     0x1.7a4a8a2bdce13p-4,   -0x1.7148c3d57c312p-4,  0x1.8a0da54306154p-5,   -0x1.b22257dd01249p-8,
     -0x1.25b378c92a6c0p-7,  0x1.8d10fb6b8006fp-8,   -0x1.7ec1d1d8d3387p-11, -0x1.d4cf0ad2e6ca3p-11,
     0x1.d041eea2258aep-12,  0x1.6d70cffe71229p-18,  -0x1.2007a6d7935c6p-14, 0x1.294d49e1a631dp-16,
     0x1.3668d56f09b00p-18,  -0x1.b75406fd5ffd6p-19, 0x1.7ac9620b78991p-23,  0x1.5ca65a3135758p-22,
     -0x1.5e653add60eb8p-24, -0x1.2864313064732p-26, 0x1.714cc1df1e771p-27,  -0x1.fab42d33e31aep-33,
     -0x1.eb6e62987da34p-31, 0x1.5530c148d7bcap-33,  0x1.abb99db1086a8p-35},
    {0x1.328f5ec350e67p-8,   -0x1.ca006412e68d0p-62, -0x1.529b9e8cf9a1ep-6,  -0x1.b47becf12c4e4p-61,
     0x1.529b9e8cf9a1ep-5,   -0x1.8b0ae3a478923p-5,  0x1.1a2c59757ab19p-5,   -0x1.ace7404c2b226p-7,
     -0x1.e1935ea65d580p-12, 0x1.bae0ab9d91458p-9,   -0x1.a11434425e8e8p-10, 0x1.a46c56b1bf347p-15,
     0x1.13917bd98236ap-12,  -0x1.b3399158e1fdap-14, -0x1.5efa63f686f78p-18, 0x1.1082811096fe0p-16,
     -0x1.09282c4c7901bp-18, -0x1.00feae4932917p-20, 0x1.77fa2b27b4e3ep-21,  -0x1.fc672c47d867ap-25,
     -0x1.020dc680f96e9p-24, 0x1.3e64fad1b9b51p-26,  0x1.10e11eb364a40p-29,  -0x1.1a6f180a6db36p-29,
     0x1.bb9c815d3d222p-33,  0x1.29f0bb84361bep-33,  -0x1.54117606909bap-35},
    {0x1.7f713f9cc9784p-10,  -0x1.4207143202515p-64, -0x1.d4143a9dfe965p-8,  0x1.6eec3c35c7ed7p-63,
     0x1.074b60f8df349p-6,   -0x1.63ef61e824425p-6,  0x1.38a98327890e6p-6,   -0x1.5d3b17bbe0f22p-7,
     0x1.7cae0d45b1a6ap-9,   0x1.5f8313b6fdd59p-11,  -0x1.0602e33b9ef4ap-10, 0x1.8352cd05696b8p-12,
     0x1.80c1330a27b22p-17,  -0x1.11321ce0dc8f3p-14, 0x1.7ca5429a38511p-16,  0x1.65937983af9a4p-20,
     -0x1.cb0718bc6dc96p-19, 0x1.ce4a65fe7584cp-21,  0x1.50c6594c2253ap-23,  -0x1.251917755b0cfp-23,
     0x1.3073257725eebp-26,  0x1.420056ef84d97p-27,  -0x1.0445632104c46p-28, -0x1.3f4d179e67782p-35,
     0x1.70b66bc2cb658p-32,  -0x1.134e58eb6c571p-34, -0x1.07c339c24d0c3p-36},
    {0x1.aab859b20ac9ep-12,  0x1.88f4ff748376bp-66,  -0x1.1d83170fbf6fbp-9,  -0x1.ea3671efbb74ap-63,
     0x1.64e3dcd3af4bap-8,   -0x1.119da0c46ccb1p-7,  0x1.1a89b97ceac69p-7,   -0x1.90e81283faacep-8,
     0x1.6ecdbf67c97f8p-9,   -0x1.1c610bcb9f2f4p-11, -0x1.11551df364bafp-12, 0x1.067178c82ec16p-12,
     -0x1.4a84485ac08c0p-14, -0x1.58bd113f5a0acp-18, 0x1.d87265f65a35ap-17,  -0x1.3acdbedf3bf9dp-18,
     -0x1.857cc63e5cc55p-23, 0x1.584349ead6a3ep-21,  -0x1.80e36bab128b3p-23, -0x1.356cf87d24464p-26,
     0x1.97f31e43731b3p-26,  -0x1.325fcf01c60fap-28, -0x1.37fdd82118ebcp-30, 0x1.7252f2fffa4fbp-31,
     -0x1.e23d94864c80cp-35, -0x1.82fa93c26548dp-35, 0x1.dc3d7df77ba2fp-37},
    {0x1.a609f7584d32bp-14,  0x1.d92f3f7ab9ef5p-68,  -0x1.3360ccd23db3ap-11, -0x1.39e15444e9dddp-69,
     0x1.a6a519a114d70p-10,  -0x1.69cf466ccdf62p-9,  0x1.ab0c273ac263ep-9,   -0x1.6935960664d74p-9,
     0x1.b2755bfd73556p-10,  -0x1.52b6263f0c0e7p-11, 0x1.7557726380065p-14,  0x1.2abb3cb37d67fp-14,
     -0x1.cd592454e7d28p-15, 0x1.09d09f8254931p-16,  0x1.1f87c15445595p-20,  -0x1.68b7ad440ba03p-19,
     0x1.eb027532f1e9dp-21,  -0x1.6553f2333fb0bp-29, -0x1.c66fe8aad4da0p-24, 0x1.2882c1472066ep-25,
     0x1.1c7d9c488cbe6p-31,  -0x1.ec3b221d4fb0bp-29, 0x1.01404cb51b0ecp-30,  0x1.5b1efa51c0eb4p-34,
     -0x1.bb25401d2c6e4p-34, 0x1.34a0ef4694705p-36,  0x1.1a42f0de04131p-38},
    {0x1.729df6503422ap-16,  0x1.784ca4c429a15p-73,  -0x1.2408e9ba3327fp-13, 0x1.7e1d81587040cp-67,
     0x1.b60d5e974cbbep-12,  -0x1.9db74b1d1dcdep-11, 0x1.11c85b1e8ff57p-10,  -0x1.0a7b5546b5147p-10,
     0x1.82f235b05094ep-11,  -0x1.998b47c657967p-12, 0x1.1aa5e236f52b3p-13,  -0x1.d2a33c9487ebdp-17,
     -0x1.05ff38163998dp-16, 0x1.6a2c7a4c7a4fap-17,  -0x1.96c6821168fd5p-19, -0x1.08f85acf3b805p-23,
     0x1.e5e7b05db7fdfp-22,  -0x1.63eb0f4262611p-23, 0x1.4176b80e4a09cp-27,  0x1.01510b19ef62fp-26,
     -0x1.9a52b11d33e56p-28, 0x1.b403f7e28f5a9p-32,  0x1.eb289db923a84p-32,  -0x1.678f64d97ec5ep-33,
     0x1.a06855f854480p-38,  0x1.a7345e639e619p-37,  -0x1.e996a0095a31bp-39},
};

/* log gamma about c = 0.5 + k/4, k = 0..10: lgamma(c) = hi + lo, psi(c) = hi + lo, then the
 * Taylor coefficients psi^(n-1)(c) / n!, n = 2..27 (scripts/vkmath_table.py): the double
 * lgamma and tgamma on [0.375, 3.125), and the row about 2 for |h| <= 0.375 (its series
 * converges to |h| = 2). lgamma(1) and lgamma(2) are exactly 0, so at those zeros the series
 * keep their relative precision. */
static const double VK_LGAMMA_TAYLOR[11][30] = {
    {0x1.250d048e7a1bdp-1,  0x1.7abf2ad8d5088p-58,  -0x1.f6a897d3214fcp+0, 0x1.40e69e9653bdbp-54,
     0x1.3bd3cc9be45dep+1,  -0x1.6703ab06d5c7cp+1,  0x1.03c1f081b5ac4p+2,  -0x1.9b73f36ed0e3fp+2,
     0x1.55d3c7e3cbffap+3,  -0x1.24b59a9930667p+4,  0x1.000a2b78d6b33p+5,  -0x1.c7226d35212f5p+5,
     0x1.999b630cf4837p+6,  -0x1.745da18aea43dp+7,  0x1.55557f84e0980p+8,  -0x1.3b13be330c9a2p+9,
     0x1.24924d27a2b97p+10, -0x1.111112507f103p+11, 0x1.00000063cd865p+12, -0x1.e1e1e2207f22dp+12,
     0x1.c71c71dad2590p+13, -0x1.af286bd054536p+14, 0x1.9999999b92285p+15, -0x1.86186186b88e4p+16,
     0x1.745d1746046b3p+17, -0x1.642c8590c2562p+18, 0x1.555555555a863p+19, -0x1.47ae147ae2f0ep+20,
     0x1.3b13b13b14398p+21, -0x1.2f684bda13224p+22},
    {0x1.a051c372609eep-3, -0x1.3f4a305209ee2p-58, -0x1.15fafa86b04dbp+0, -0x1.f52ee4a9905bap-59,
     0x1.455c4ff28f0bfp+0, -0x1.c47dca479e296p-1,  0x1.a59e099b269e0p-1,  -0x1.b69daccfc524bp-1,
     0x1.e2ab4674b6c07p-1, -0x1.12bd373a70e0ap+0,  0x1.40037d2973383p+0,  -0x1.7b0508dcac8e0p+0,
     0x1.c6b1a4a03c76dp+0, -0x1.1389e6e6b1410p+1,  0x1.50c089a2fca3ep+1,  -0x1.9e74796b760a8p+1,
     0x1.0090a04bac428p+2, -0x1.3f478f685fc13p+2,  0x1.8f194605831c4p+2,  -0x1.f4d453a1bfd9ap+2,
     0x1.3b56410f836c4p+3, -0x1.8e51fdca1bf54p+3,  0x1.f889fb45e4d0ep+3,  -0x1.40579af35c548p+4,
     0x1.97b5508f6eb7bp+4, -0x1.03fce5616dbcap+5,  0x1.4c34ec2a6ce31p+5,  -0x1.a93980304b65dp+5,
     0x1.109472fc7c884p+6, -0x1.5dfaa6989ade8p+6},
    {0x0p+0,
     0x0p+0,
     -0x1.2788cfc6fb619p-1,
     0x1.6cb90701fbfabp-58,
     0x1.a51a6625307d3p-1,
     -0x1.9a4d55beab2d7p-2,
     0x1.151322ac7d848p-2,
     -0x1.a8b9c17aa6149p-3,
     0x1.5b40cb100c306p-3,
     -0x1.2703a1dcea3aep-3,
     0x1.010b36af86397p-3,
     -0x1.c806706d57db4p-4,
     0x1.9a01e385d5f8fp-4,
     -0x1.748c33114c6d6p-4,
     0x1.556ad63243bc4p-4,
     -0x1.3b1d971fc5985p-4,
     0x1.2496df8320c5fp-4,
     -0x1.11133476e7fe0p-4,
     0x1.00010064cdeb2p-4,
     -0x1.e1e2d311e8abdp-5,
     0x1.c71ce3a20b419p-5,
     -0x1.af28a1b5688a0p-5,
     0x1.9999b3352d5bap-5,
     -0x1.86186db77bfbfp-5,
     0x1.745d1d1778df9p-5,
     -0x1.642c88591b66dp-5,
     0x1.555556aaafdcdp-5,
     -0x1.47ae151eb9fb7p-5,
     0x1.3b13b189d925ep-5,
     -0x1.2f684c00002bcp-5},
    {-0x1.92857d38caf41p-4, -0x1.d1f2d031dc189p-58, -0x1.d1d32879af85dp-3, 0x1.dc8e13c13fe24p-57,
     0x1.328429d927c67p-1,  -0x1.c533afa1c090bp-3,  0x1.dad1b9fd7bfc9p-4,  -0x1.1de1433c297c1p-4,
     0x1.71ef365f26954p-5,  -0x1.f39b6d9e5e340p-6,  0x1.5ae76b3cdadf2p-6,  -0x1.eb3c295bcc743p-7,
     0x1.60db24cf5a9f1p-7,  -0x1.004ab83b2293ep-7,  0x1.77a0e4fa9a41fp-8,  -0x1.1547622ba34f5p-8,
     0x1.9bde41c3fa371p-9,  -0x1.337dd262d73b2p-9,  0x1.cd34e942683eep-10, -0x1.5b3fadcadfe54p-10,
     0x1.065c4139a7d9fp-10, -0x1.8dadb7e3bc8cbp-11, 0x1.2e3bdc1969385p-11, -0x1.cc8b90bcd471fp-12,
     0x1.5fb0388caf597p-12, -0x1.0d1e25a4b6fe2p-12, 0x1.9ca5a103fe8a0p-13, -0x1.3ce9ac0e97382p-13,
     0x1.e78edb6c18c52p-14, -0x1.7799a868c9efbp-14},
    {-0x1.eeb95b094c191p-4, -0x1.346863f58b075p-58, 0x1.2aed059bd608ap-5,  0x1.cd3d2ca77b63ap-63,
     0x1.de9e64df22ef3p-2,  -0x1.1ae55b180726cp-3,  0x1.e0f840dad61dap-5,  -0x1.da59d5374a543p-6,
     0x1.f9ca39daa929cp-7,  -0x1.1a8ba4f0ea597p-7,  0x1.456f1ad666a3bp-8,  -0x1.7edb812f6426ep-9,
     0x1.c9735ae9db2c1p-10, -0x1.148a319eec639p-10, 0x1.517c5a1579f10p-11, -0x1.9eff1d1c8bdc2p-12,
     0x1.00c41c13e4c1cp-12, -0x1.3f6dff22ac1c2p-13, 0x1.8f3619541742cp-14, -0x1.f4ea079c9c87ap-15,
     0x1.3b5e73f18d398p-15, -0x1.8e583480fb843p-16, 0x1.f88eb43555368p-17, -0x1.4059677eed115p-17,
     0x1.97b6b03fa7446p-18, -0x1.03fd6bf0808efp-18, 0x1.4c355353d5241p-19, -0x1.a939cf6ab6697p-20,
     0x1.109491756a3f0p-20, -0x1.5dfabe1235651p-21},
    {-0x1.59b4fd6875a6ep-4, -0x1.8611cf72ebf19p-59, 0x1.fad2d675283d3p-3,  -0x1.d2a10e7fb96c4p-57,
     0x1.87385c3c034c4p-2,  -0x1.7f95d3d17c5a9p-4,  0x1.112f9cdb80001p-5,  -0x1.c69a305c523afp-7,
     0x1.9aef3265ad3bap-8,  -0x1.8689d06703a1fp-9,  0x1.7f89d0ae7b841p-10, -0x1.815ca05ec2476p-11,
     0x1.89b15e2032e26p-12, -0x1.974f608c4cee3p-13, 0x1.a994c51d9dceep-14, -0x1.c0387313908e9p-15,
     0x1.db2a482ca867dp-16, -0x1.fa81f90aac7d0p-17, 0x1.0f3ad2a30cbddp-17, -0x1.23aa5c5c29295p-18,
     0x1.3ac2ad4576ac1p-19, -0x1.54c1bcd201f4bp-20, 0x1.71f0788f51fdfp-21, -0x1.92a33cd8812d7p-22,
     0x1.b73a9f00959cdp-23, -0x1.e0247dd30858dp-24, 0x1.06eea9bbcd7b4p-24, -0x1.2078e3efb919cp-25,
     0x1.3d0042e48f40bp-26, -0x1.5cde2b519015cp-27},
    {0x0p+0,
     0x0p+0,
     0x1.b0ee6072093cep-2,
     0x1.6cb90701fbfabp-58,
     0x1.4a34cc4a60fa6p-2,
     -0x1.13e001a557607p-4,
     0x1.51322ac7d8483p-6,
     -0x1.e404fc218f5f2p-8,
     0x1.7add6eadb6c30p-9,
     -0x1.38ac5c2bf8e08p-10,
     0x1.0b36af86396e9p-11,
     -0x1.d3fd4c76d2fc8p-13,
     0x1.a127b0f17d65ap-14,
     -0x1.78de5bd7c81efp-15,
     0x1.580dcee66eb02p-16,
     -0x1.3cbc963ce2243p-17,
     0x1.2597a39f34aacp-18,
     -0x1.11b2eb7679541p-19,
     0x1.0064cdeb22f0fp-20,
     -0x1.e2600d93cfd2fp-22,
     0x1.c76bbb3f07a4dp-23,
     -0x1.af5a6cbbf8a97p-24,
     0x1.99b93c2070b0fp-25,
     -0x1.862c734df3eacp-26,
     0x1.7469daccfadcdp-27,
     -0x1.6434a8447aeadp-28,
     0x1.555a877ffd2c3p-29,
     -0x1.47b1679258d0ep-30,
     0x1.3b15d2b2fc10cp-31,
     -0x1.2f69a9fabe3e0p-32},
    {0x1.ff797bba88502p-4,  -0x1.c3103ce9106b2p-60, 0x1.2524cf7b2db82p-1,  0x1.dd89eb56b65efp-55,
     0x1.1d5a3f376e453p-2,  -0x1.9eb4cd8bc9996p-5,  0x1.bb1c5a5dbe4e6p-7,  -0x1.171c930caa33fp-8,
     0x1.80a7c9ffae851p-10, -0x1.181e9b4111495p-11, 0x1.a73e8ce90dc1bp-13, -0x1.4816011331d69p-14,
     0x1.0326b7c455be6p-15, -0x1.9f4390a691809p-17, 0x1.5068db1b02160p-18, -0x1.12f1467fdc88ep-19,
     0x1.c4a6f528763ecp-21, -0x1.76d73a2fbebc2p-22, 0x1.37f89bf46387cp-23, -0x1.04c48024475afp-24,
     0x1.b59187a5b7ccbp-26, -0x1.7053609e988f1p-27, 0x1.36f0ff06b31f5p-28, -0x1.072dbc11a10c7p-29,
     0x1.be8b86d553656p-31, -0x1.7ba29acafd5b4p-32, 0x1.435f2a6bd5f43p-33, -0x1.13ee6ee46a021p-34,
     0x1.d7a9abfa01539p-36, -0x1.93b813b2c14d4p-37},
    {0x1.2383e809a67e8p-2,  -0x1.823fe323a5c09p-56, 0x1.680425af12b5ep-1,  -0x1.46eb6bf0197a4p-58,
     0x1.f62057f7296c9p-3,  -0x1.427f4cc53f5f0p-5,  0x1.31b4c4359dfe5p-7,  -0x1.56b48947b3c37p-9,
     0x1.a54d1cabdc3cbp-11, -0x1.123653d59f542p-12, 0x1.72e00847c2976p-14, -0x1.01a8f9b0dc4c5p-15,
     0x1.6d28afc05c362p-17, -0x1.06a7f5bd53c7ap-18, 0x1.7e47380f10b93p-20, -0x1.18c7d311ca707p-21,
     0x1.9f9496545387ep-23, -0x1.3578545be1e7ap-24, 0x1.cf535ee7ae586p-26, -0x1.5c6358273c0e7p-27,
     0x1.06f9a2904a954p-28, -0x1.8e5818c2258dbp-30, 0x1.2e9858378d0cdp-31, -0x1.ccf0398c0a923p-33,
     0x1.5fe71fe08f6c3p-34, -0x1.0d3c27ec942eap-35, 0x1.9cc67ed93603bp-37, -0x1.3cfbb39cd633bp-38,
     0x1.e7a2ab70470e1p-40, -0x1.77a48f5a247c3p-41},
    {0x1.e69eac73eab05p-2,  -0x1.057db2faf97ffp-58, 0x1.a346fec1dc587p-1,  -0x1.4057e9ed7047bp-57,
     0x1.c012ae051644fp-3,  -0x1.01a88b861cc80p-5,  0x1.b696cf9da0419p-8,  -0x1.ba7d3b200ea5ep-10,
     0x1.ea8360b790b08p-12, -0x1.20595481ee00bp-13, 0x1.60b2b1f2d8450p-15, -0x1.bbab5d0cd2621p-17,
     0x1.1cde8d902e2cdp-18, -0x1.7396f7d7363ccp-20, 0x1.eaa8798a09fddp-22, -0x1.4719c8ef0ad35p-23,
     0x1.b7942367b8171p-25, -0x1.294b757169597p-26, 0x1.94549d2c93d67p-28, -0x1.143a905f7f988p-29,
     0x1.7aef16761fb9ep-31, -0x1.04d10fb06a3aap-32, 0x1.6821c690ce009p-34, -0x1.f29c922e54eeap-36,
     0x1.5a015bd32ba77p-37, -0x1.e14207e0ceec6p-39, 0x1.4f59b31014deap-40, -0x1.d4329a3e0a7f8p-42,
     0x1.475f93a64a249p-43, -0x1.ca8129ccea2a7p-45},
    {0x1.62e42fefa39efp-1,  0x1.abc9e3b39803fp-56,  0x1.d8773039049e7p-1,  0x1.6cb90701fbfabp-58,
     0x1.94699894c1f4dp-3,  -0x1.a4d55beab2d6fp-6,  0x1.44c8ab1f6120ep-8,  -0x1.29ad8a1fd7160p-10,
     0x1.2c40cac30b6d4p-12, -0x1.41a1307669758p-14, 0x1.66d5f0c72dd18p-16, -0x1.9c1b55f6d156bp-18,
     0x1.e385d5f8f3027p-20, -0x1.2051247daaa48p-21, 0x1.5c3cc88cad668p-23, -0x1.a8e501ce72ed4p-25,
     0x1.055a7aa261947p-26, -0x1.43b4cad086017p-28, 0x1.9337ac8bc3ce8p-30, -0x1.f8aec7b7c4274p-32,
     0x1.3d25dfaccc413p-33, -0x1.90078eedb77cep-35, 0x1.fa286d7175a73p-37, -0x1.411c7db8940b4p-38,
     0x1.9870e52d0dc1dp-40, -0x1.0456791a91adbp-41, 0x1.4c8aa9f5b5236p-43, -0x1.a98bbbc49affbp-45,
     0x1.10bbf42fc09e8p-46, -0x1.5e20ab4774bcdp-48},
};

/* ln 2 in two parts, the first with 32 significant bits (k * LN2_HI is exact for |k| < 2^21). */
#define LN2_HI     0x1.62e42fee00000p-1
#define LN2_LO     0x1.a39ef35793c76p-33
#define LN2        0x1.62e42fefa39efp-1
#define LOG2E      0x1.71547652b82fep+0
#define LN10       0x1.26bb1bbb55516p+1
#define PIO2       0x1.921fb54442d18p+0
#define PI         0x1.921fb54442d18p+1
#define SQRT2      0x1.6a09e667f3bcdp+0
#define LN10_LO    -0x1.f48ad494ea3e9p-53 /* ln 10 - LN10 */
#define LOG2_10    0x1.a934f0979a371p+1
#define LOG10E     0x1.bcb7b1526e50ep-2
#define RSQRTPI_LO 0x1.1ae3a914fed80p-57 /* 1/sqrt pi - 0x1.20dd750429b6dp-1 */
#define PI_LO      0x1.1a62633145c07p-53 /* pi - PI */
#define PIO2_LO    0x1.1a62633145c07p-54 /* pi/2 - PIO2 */
#define LN2_LO2    0x1.abc9e3b39803fp-56 /* ln 2 - LN2 */
#define LOG2E_LO   0x1.777d0ffda0d24p-56 /* 1/ln 2 - LOG2E */
#define LOG10E_LO  0x1.95355baaafad3p-57 /* 1/ln 10 - LOG10E */
/* log pi and log sqrt(2 pi) as hi + lo (scripts/vkmath_table.py). */
#define LNPI         0x1.250d048e7a1bdp+0
#define LNPI_LO      0x1.7abf2ad8d5088p-57
#define LNSQRT2PI    0x1.d67f1c864beb5p-1
#define LNSQRT2PI_LO -0x1.65b5a1b7ff5dfp-55
/* log10(2) in two parts, the first with 32 significant bits. */
#define LOG10_2_HI 0x1.3441350800000p-2
#define LOG10_2_LO 0x1.f79fef311f12bp-34

/* The module's functions, each made at its first use. */
enum {
  F_EXP_D,   /* double e^y (|y| clamped to 200: the float results are 0 or inf beyond) */
  F_EXPM1_D, /* double e^y - 1 */
  F_LOG_D,   /* double log(u): -inf at 0, NaN below, inf at inf */
  F_LOG1P_D, /* double log(1 + y) */
  F_ATAN2_D, /* double atan2(y, x), C's special cases */
  F_TRIG,    /* float x -> dvec2 (sin |x|, cos |x|), the reduction exact over every float */
  F_EXP,
  F_EXP2,
  F_EXP10,
  F_EXPM1,
  F_LOG,
  F_LOG2,
  F_LOG10,
  F_LOG1P,
  F_SIN,
  F_COS,
  F_TAN,
  F_ASIN,
  F_ACOS,
  F_ATAN,
  F_ATAN2,
  F_SINH,
  F_COSH,
  F_TANH,
  F_ASINH,
  F_ACOSH,
  F_ATANH,
  F_POW,
  F_CBRT,
  F_HYPOT,
  F_ROUND,
  F_FMOD,
  F_ERF,
  F_ERFC,
  F_TGAMMA, /* the float gamma functions: the double ones, rounded to float */
  F_LGAMMA,
  /* double functions: double argument and result */
  F64_LOG_PARTS, /* positive finite u -> dvec3 (e, log m as hi + lo): u = m 2^e, m in [0.7, 1.42) */
  F64_EXP,
  F64_EXP2,
  F64_EXP10,
  F64_EXPM1,
  F64_LOG,
  F64_LOG2,
  F64_LOG10,
  F64_LOG1P,
  F64_TRIG, /* double x -> dvec4 (sin |x| as hi + lo, cos |x| as hi + lo) */
  F64_SIN,
  F64_COS,
  F64_TAN,
  F64_POW,
  F64_ATAN2, /* double atan2(y, x); atan, asin, acos call it */
  F64_ATAN,
  F64_ASIN,
  F64_ACOS,
  F64_SINH,
  F64_COSH,
  F64_TANH,
  F64_CBRT,
  F64_HYPOT,
  F64_ROUND,
  F64_ASINH,
  F64_ACOSH,
  F64_ATANH,
  F64_FMOD,
  F64_ERFS, /* double |x| -> dvec2 (erf |x|, erfc |x|) */
  F64_ERF,
  F64_ERFC,
  F64_LGPOS,     /* double a >= 0.375 -> dvec2 log gamma(a) as hi + lo */
  F64_LGAMMA_DD, /* finite double x not a pole -> dvec2 log |gamma(x)| as hi + lo */
  F64_LGAMMA,
  F64_TGAMMA,
  F_COUNT
};
_Static_assert((int)F_COUNT <= (int)SG_NVKMATH, "SG.vkmath is too short");

/* The types and the function being written. */
typedef struct VM {
  SG *g;
  SpvModule *m;
  uint32_t d, f, b, i32, u32, u64, d2, d3, d4, glsl;
} VM;

static VM vm_of(SG *g) {
  SpvModule *m = &g->m;
  VM v = {.g = g,
          .m = m,
          .d = spv_type_float(m, 64),
          .f = spv_type_float(m, 32),
          .b = spv_type_bool(m),
          .i32 = spv_type_int(m, 32),
          .u32 = spv_type_int(m, 32),
          .u64 = spv_type_int(m, 64),
          .glsl = sg_vk_glsl_import(g)};
  v.d2 = spv_type_vector(m, v.d, 2);
  v.d3 = spv_type_vector(m, v.d, 3);
  v.d4 = spv_type_vector(m, v.d, 4);
  return v;
}

static uint32_t K(VM *v, double x) {
  return spv_const_float(v->m, 64, x);
}
static uint32_t KI(VM *v, uint32_t x) {
  return spv_const_int(v->m, 32, x);
}
static uint32_t op2(VM *v, SpvOp o, uint32_t t, uint32_t a, uint32_t b) {
  return sg_opv(v->g, o, t, 2, a, b);
}
static uint32_t add(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpFAdd, v->d, a, b);
}
static uint32_t sub(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpFSub, v->d, a, b);
}
static uint32_t mul(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpFMul, v->d, a, b);
}
static uint32_t neg(VM *v, uint32_t a) {
  return sg_opv(v->g, SpvOpFNegate, v->d, 1, a);
}
static uint32_t sel(VM *v, uint32_t c, uint32_t a, uint32_t b) {
  return sg_opv(v->g, SpvOpSelect, v->d, 3, c, a, b);
}
static uint32_t lt(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpFOrdLessThan, v->b, a, b);
}
static uint32_t gt(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpFOrdGreaterThan, v->b, a, b);
}
static uint32_t eq(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpFOrdEqual, v->b, a, b);
}
static uint32_t and_(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpLogicalAnd, v->b, a, b);
}
static uint32_t or_(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpLogicalOr, v->b, a, b);
}
static uint32_t not_(VM *v, uint32_t a) {
  return sg_opv(v->g, SpvOpLogicalNot, v->b, 1, a);
}
static uint32_t isnan_(VM *v, uint32_t a) {
  return sg_opv(v->g, SpvOpIsNan, v->b, 1, a);
}
static uint32_t isinf_(VM *v, uint32_t a) {
  return sg_opv(v->g, SpvOpIsInf, v->b, 1, a);
}
static uint32_t glsl(VM *v, uint32_t t, int inst, uint32_t a) {
  return sg_opv(v->g, SpvOpExtInst, t, 3, v->glsl, (uint32_t)inst, a);
}
static uint32_t fabs_(VM *v, uint32_t a) {
  return glsl(v, v->d, GLSLstd450FAbs, a);
}
static uint32_t sqrt_(VM *v, uint32_t a) {
  return glsl(v, v->d, GLSLstd450Sqrt, a);
}
/* a / b where b is not zero; where it is, 1 is divided by instead (the caller selects the
 * case away): no division by a zero the driver might fold (docs/driver-bugs.md 22). */
static uint32_t dvd(VM *v, uint32_t a, uint32_t b) {
  return op2(v, SpvOpFDiv, v->d, a, sel(v, eq(v, b, K(v, 0)), K(v, 1), b));
}
static uint32_t widen(VM *v, uint32_t x) {
  return sg_opv(v->g, SpvOpFConvert, v->d, 1, x);
}
static uint32_t narrow(VM *v, uint32_t x) {
  return sg_opv(v->g, SpvOpFConvert, v->f, 1, x);
}
static uint32_t fbits(VM *v, uint32_t x) {
  return sg_opv(v->g, SpvOpBitcast, v->u32, 1, x);
}
/* Whether float x's sign bit is set (-0.0 and negative NaNs included). */
static uint32_t fsign(VM *v, uint32_t x) {
  return op2(v, SpvOpINotEqual, v->b, op2(v, SpvOpBitwiseAnd, v->u32, fbits(v, x), KI(v, 1u << 31)),
             KI(v, 0));
}
/* Float r with float x's sign bit added (r is +0.0 or positive). */
static uint32_t with_sign(VM *v, uint32_t r, uint32_t x) {
  uint32_t s = op2(v, SpvOpBitwiseAnd, v->u32, fbits(v, x), KI(v, 1u << 31));
  return sg_opv(v->g, SpvOpBitcast, v->f, 1, op2(v, SpvOpBitwiseOr, v->u32, fbits(v, r), s));
}
static uint32_t fsel(VM *v, uint32_t c, uint32_t a, uint32_t b) {
  return sg_opv(v->g, SpvOpSelect, v->f, 3, c, a, b);
}
static uint32_t fk(VM *v, float x) {
  return spv_const_float(v->m, 32, x);
}
static uint32_t fnan(VM *v) {
  return sg_opv(v->g, SpvOpBitcast, v->f, 1, KI(v, 0x7fc00000u));
}
static uint32_t dnan(VM *v) {
  return sg_opv(v->g, SpvOpBitcast, v->d, 1, spv_const_int(v->m, 64, 0x7ff8000000000000ull));
}
static uint32_t dinf(VM *v) {
  return sg_opv(v->g, SpvOpBitcast, v->d, 1, spv_const_int(v->m, 64, 0x7ff0000000000000ull));
}

/* c[0] + x (c[1] + x (c[2] + ...)), n coefficients. */
static uint32_t horner(VM *v, uint32_t x, const double *c, int n) {
  uint32_t r = K(v, c[n - 1]);
  for (int i = n - 2; i >= 0; i--) r = add(v, mul(v, r, x), K(v, c[i]));
  return r;
}

/* ---------------------------------------------------------------- functions */

typedef struct Saved {
  SpvWords vars, body;
  bool open;
  uint32_t label, line_file, fn_ret;
  int line_no;
  KLoc loc;
} Saved;

/* Starts function `which` named name: its parameters' ids into params. The function being
 * lowered (if any) is put aside until end_fn. */
static void begin_fn(SG *g, Saved *s, SpvWords *head, int which, const char *name, uint32_t ret,
                     int np, const uint32_t *ptypes, uint32_t *params) {
  s->vars = g->vars, s->body = g->body, s->open = g->open, s->label = g->label;
  s->line_file = g->line_file, s->line_no = g->line_no, s->loc = g->loc, s->fn_ret = g->fn_ret;
  memset(&g->vars, 0, sizeof g->vars);
  memset(&g->body, 0, sizeof g->body);
  g->open = false;
  g->loc = (KLoc){0}; /* no OpLine: the code is no line of the program's */
  g->line_file = 0, g->line_no = 0;
  uint32_t fid = g->vkmath[which] = spv_id(&g->m);
  spv_name(&g->m, fid, name);
  memset(head, 0, sizeof *head);
  uint32_t ops[4] = {ret, fid, SpvFunctionControlMaskNone, spv_type_func(&g->m, ret, ptypes, np)};
  spw_inst(head, SpvOpFunction, ops, 4);
  for (int i = 0; i < np; i++) {
    params[i] = spv_id(&g->m);
    uint32_t p[2] = {ptypes[i], params[i]};
    spw_inst(head, SpvOpFunctionParameter, p, 2);
  }
}

static void end_fn(SG *g, Saved *s, SpvWords *head, uint32_t result) {
  sg_instv(g, SpvOpReturnValue, 1, result);
  SpvWords *out = &g->vkmath_code;
  spw_append(out, head->w, head->n);
  spw_append(out, g->body.w, g->body.n);
  spw_inst(out, SpvOpFunctionEnd, NULL, 0);
  spw_free(head);
  spw_free(&g->body);
  spw_free(&g->vars);
  g->vars = s->vars, g->body = s->body, g->open = s->open, g->label = s->label;
  g->line_file = s->line_file, g->line_no = s->line_no, g->loc = s->loc, g->fn_ret = s->fn_ret;
}

static uint32_t fn(SG *g, int which);
static void def_f64(VM *v, int which);
static uint32_t sign64(VM *v, uint32_t x);

static uint32_t call1(VM *v, int which, uint32_t rt, uint32_t a) {
  uint32_t f = fn(v->g, which);
  return sg_opv(v->g, SpvOpFunctionCall, rt, 2, f, a);
}
static uint32_t call2(VM *v, int which, uint32_t rt, uint32_t a, uint32_t b) {
  uint32_t f = fn(v->g, which);
  return sg_opv(v->g, SpvOpFunctionCall, rt, 3, f, a, b);
}

/* y reduced for e^y: k = round(y / ln 2) (into *k, double) and e^r - 1 for r = y - k ln 2,
 * |r| <= 0.35: its Taylor series to r^13 (the next term is below 2^-57 of the sum). */
static uint32_t exp_reduce(VM *v, uint32_t y, uint32_t *k) {
  y = sel(v, gt(v, y, K(v, 200)), K(v, 200), y);
  y = sel(v, lt(v, y, K(v, -200)), K(v, -200), y);
  uint32_t kf = glsl(v, v->d, GLSLstd450RoundEven, mul(v, y, K(v, LOG2E)));
  uint32_t r = sub(v, sub(v, y, mul(v, kf, K(v, LN2_HI))), mul(v, kf, K(v, LN2_LO)));
  double c[12], f = 2;
  for (int i = 0; i < 12; i++) c[i] = 1 / f, f *= i + 3; /* 1/2!, 1/3!, ... 1/13! */
  *k = kf;
  return add(v, r, mul(v, mul(v, r, r), horner(v, r, c, 12)));
}

/* 2^k for an integral double k in [-300, 300], from its bits. */
static uint32_t pow2(VM *v, uint32_t kf) {
  uint32_t k = sg_opv(v->g, SpvOpConvertFToS, v->i32, 1, kf);
  uint32_t e = sg_opv(v->g, SpvOpUConvert, v->u64, 1, op2(v, SpvOpIAdd, v->i32, k, KI(v, 1023)));
  return sg_opv(v->g, SpvOpBitcast, v->d, 1,
                op2(v, SpvOpShiftLeftLogical, v->u64, e, spv_const_int(v->m, 64, 52)));
}

/* The unbiased exponent of a positive normal double (or -1023 for 0), as an int. */
static uint32_t ilogb_d(VM *v, uint32_t x) {
  uint32_t hi = sg_opv(v->g, SpvOpUConvert, v->u32, 1,
                       op2(v, SpvOpShiftRightLogical, v->u64,
                           sg_opv(v->g, SpvOpBitcast, v->u64, 1, x), spv_const_int(v->m, 64, 32)));
  return op2(v, SpvOpISub, v->i32,
             op2(v, SpvOpBitwiseAnd, v->u32, op2(v, SpvOpShiftRightLogical, v->u32, hi, KI(v, 20)),
                 KI(v, 0x7ff)),
             KI(v, 1023));
}

/* 2 atanh(s) = log((1 + s) / (1 - s)) for |s| <= 0.172: 2s (1 + s^2/3 + ... + s^20/21). */
static uint32_t log_series(VM *v, uint32_t s) {
  double c[10];
  for (int i = 0; i < 10; i++) c[i] = 1.0 / (2 * i + 3);
  uint32_t s2 = mul(v, s, s), two_s = add(v, s, s);
  return add(v, two_s, mul(v, two_s, mul(v, s2, horner(v, s2, c, 10))));
}

/* atan t for t in [0, 1]: halved twice (atan t = 2 atan(t / (1 + sqrt(1 + t^2)))) to at most
 * tan(pi/16) = 0.199, then the series to t^25. */
static uint32_t atan_core(VM *v, uint32_t t) {
  for (int i = 0; i < 2; i++)
    t = op2(v, SpvOpFDiv, v->d, t, add(v, K(v, 1), sqrt_(v, add(v, K(v, 1), mul(v, t, t)))));
  double c[12];
  for (int i = 0; i < 12; i++) c[i] = (i % 2 ? 1.0 : -1.0) / (2 * i + 3);
  uint32_t t2 = mul(v, t, t);
  uint32_t a = add(v, t, mul(v, t, mul(v, t2, horner(v, t2, c, 12))));
  return mul(v, a, K(v, 4));
}

/* The double functions the float ones share. */
static void def_double(VM *v, int which) {
  SG *g = v->g;
  Saved s;
  SpvWords head;
  uint32_t p[2], pt[2] = {v->d, v->d};
  static const char *names[] = {"kcc.exp_d", "kcc.expm1_d", "kcc.log_d", "kcc.log1p_d",
                                "kcc.atan2_d"};
  begin_fn(g, &s, &head, which, names[which], v->d, which == F_ATAN2_D ? 2 : 1, pt, p);
  uint32_t y = p[0], r = 0, k;
  switch (which) {
  case F_EXP_D: {
    uint32_t e = exp_reduce(v, y, &k);
    r = mul(v, add(v, K(v, 1), e), pow2(v, k));
    break;
  }
  case F_EXPM1_D: {
    /* 2^k (e^r - 1) + (2^k - 1): exact 2^k - 1 where it matters (|k| small). */
    uint32_t e = exp_reduce(v, y, &k), s2 = pow2(v, k);
    r = add(v, mul(v, e, s2), sub(v, s2, K(v, 1)));
    break;
  }
  case F_LOG_D: {
    /* u = m 2^e with m in [sqrt 1/2, sqrt 2): log u = e ln 2 + 2 atanh((m - 1) / (m + 1)). */
    uint32_t bits = sg_opv(g, SpvOpBitcast, v->u64, 1, y);
    uint32_t hi = sg_opv(g, SpvOpUConvert, v->u32, 1,
                         op2(v, SpvOpShiftRightLogical, v->u64, bits, spv_const_int(v->m, 64, 32)));
    uint32_t ebits = op2(v, SpvOpBitwiseAnd, v->u32,
                         op2(v, SpvOpShiftRightLogical, v->u32, hi, KI(v, 20)), KI(v, 0x7ff));
    uint32_t mbits =
        op2(v, SpvOpBitwiseOr, v->u64,
            op2(v, SpvOpBitwiseAnd, v->u64, bits, spv_const_int(v->m, 64, 0x000fffffffffffffull)),
            spv_const_int(v->m, 64, 0x3ff0000000000000ull));
    uint32_t mant = sg_opv(g, SpvOpBitcast, v->d, 1, mbits);
    uint32_t ef = sub(v, sg_opv(g, SpvOpConvertUToF, v->d, 1, ebits), K(v, 1023));
    uint32_t big = gt(v, mant, K(v, SQRT2));
    mant = sel(v, big, mul(v, mant, K(v, 0.5)), mant);
    ef = sel(v, big, add(v, ef, K(v, 1)), ef);
    uint32_t f = sub(v, mant, K(v, 1));
    uint32_t lm = log_series(v, op2(v, SpvOpFDiv, v->d, f, add(v, f, K(v, 2))));
    r = add(v, mul(v, ef, K(v, LN2_HI)), add(v, mul(v, ef, K(v, LN2_LO)), lm));
    r = sel(v, isinf_(v, y), y, r);
    r = sel(v, lt(v, y, K(v, 0)), dnan(v), r);
    r = sel(v, eq(v, y, K(v, 0)), neg(v, dinf(v)), r);
    r = sel(v, isnan_(v, y), y, r);
    break;
  }
  case F_LOG1P_D: {
    /* Near 0, 2 atanh(y / (2 + y)) keeps log(1 + y)'s relative precision; elsewhere 1 + y
     * rounds by at most 2^-53 of a logarithm of at least 0.34. */
    uint32_t small = and_(v, gt(v, y, K(v, -0.2928)), lt(v, y, K(v, 0.4142)));
    uint32_t near = log_series(v, dvd(v, y, add(v, y, K(v, 2))));
    uint32_t far = call1(v, F_LOG_D, v->d, add(v, K(v, 1), y));
    r = sel(v, small, near, far);
    break;
  }
  case F_ATAN2_D: {
    /* atan of the smaller over the larger magnitude, then the octant: pi/2 - a where |y| is
     * the larger, pi - a for a negative x (-0.0 included), and y's sign. Two zeros give 0
     * (then pi or 0 by x's sign), two infinities pi/4. */
    uint32_t x = p[1];
    uint32_t ay = fabs_(v, y), ax = fabs_(v, x);
    uint32_t swap = gt(v, ay, ax);
    uint32_t t = dvd(v, sel(v, swap, ax, ay), sel(v, swap, ay, ax));
    t = sel(v, and_(v, eq(v, ay, K(v, 0)), eq(v, ax, K(v, 0))), K(v, 0), t);
    t = sel(v, and_(v, isinf_(v, ay), isinf_(v, ax)), K(v, 1), t);
    uint32_t a = atan_core(v, t);
    a = sel(v, swap, sub(v, K(v, PIO2), a), a);
    uint32_t xneg = op2(v, SpvOpINotEqual, v->b,
                        op2(v, SpvOpBitwiseAnd, v->u64, sg_opv(g, SpvOpBitcast, v->u64, 1, x),
                            spv_const_int(v->m, 64, 1ull << 63)),
                        spv_const_int(v->m, 64, 0));
    uint32_t yneg = op2(v, SpvOpINotEqual, v->b,
                        op2(v, SpvOpBitwiseAnd, v->u64, sg_opv(g, SpvOpBitcast, v->u64, 1, y),
                            spv_const_int(v->m, 64, 1ull << 63)),
                        spv_const_int(v->m, 64, 0));
    a = sel(v, xneg, sub(v, K(v, PI), a), a);
    r = sel(v, yneg, neg(v, a), a);
    r = sel(v, or_(v, isnan_(v, x), isnan_(v, y)), dnan(v), r);
    break;
  }
  default: break;
  }
  end_fn(g, &s, &head, r);
}

/* sin |x| and cos |x| of float x in double. |x| = m 2^e with m an integer (m < 2^24):
 * |x| 2/pi mod 4 = m a_e mod 4 (VK_TWO_OVER_PI), whose products are exact but for the last,
 * so the reduced argument keeps 2^-50 of its own size however close |x| is to a multiple of
 * pi/2 (Payne and Hanek's reduction with the table cut to the float exponents). */
static void def_trig(VM *v) {
  SG *g = v->g;
  SpvModule *m = v->m;
  Saved s;
  SpvWords head;
  uint32_t x, ft = v->f;
  begin_fn(g, &s, &head, F_TRIG, "kcc.trig", v->d2, 1, &ft, &x);
  /* The table: a Private array of dvec4 rows. */
  uint32_t d4 = spv_type_vector(m, v->d, 4);
  uint32_t rows[129];
  for (int i = 0; i < 129; i++) {
    uint32_t c[4];
    for (int j = 0; j < 4; j++) c[j] = K(v, VK_TWO_OVER_PI[i][j]);
    rows[i] = spv_const_composite(m, d4, c, 4);
  }
  uint32_t at = spv_type_array(m, d4, 129);
  uint32_t table = sg_global_var(g, spv_type_ptr(m, SpvStorageClassPrivate, at),
                                 SpvStorageClassPrivate, spv_const_composite(m, at, rows, 129));
  spv_name(m, table, "kcc.two_over_pi");
  uint32_t bits = fbits(v, x);
  uint32_t e = op2(v, SpvOpBitwiseAnd, v->u32,
                   op2(v, SpvOpShiftRightLogical, v->u32, bits, KI(v, 23)), KI(v, 0xff));
  uint32_t idx = sg_opv(g, SpvOpExtInst, v->i32, 5, v->glsl, (uint32_t)GLSLstd450SClamp,
                        op2(v, SpvOpISub, v->i32, e, KI(v, 126)), KI(v, 0), KI(v, 128));
  uint32_t row = sg_opv(
      g, SpvOpLoad, d4, 1,
      sg_opv(g, SpvOpAccessChain, spv_type_ptr(m, SpvStorageClassPrivate, d4), 2, table, idx));
  uint32_t c[4];
  for (uint32_t j = 0; j < 4; j++) c[j] = sg_opv(g, SpvOpCompositeExtract, v->d, 2, row, j);
  uint32_t mi = op2(v, SpvOpBitwiseOr, v->u32,
                    op2(v, SpvOpBitwiseAnd, v->u32, bits, KI(v, 0x7fffff)), KI(v, 0x800000));
  uint32_t md = sg_opv(g, SpvOpConvertUToF, v->d, 1, mi);
  uint32_t y = mul(v, md, c[0]);
  y = sub(v, y, mul(v, K(v, 4), glsl(v, v->d, GLSLstd450Floor, mul(v, y, K(v, 0.25)))));
  y = add(v, y, mul(v, md, c[1]));
  y = sub(v, y, mul(v, K(v, 4), glsl(v, v->d, GLSLstd450Floor, mul(v, y, K(v, 0.25)))));
  uint32_t k = glsl(v, v->d, GLSLstd450RoundEven, y);
  uint32_t f = add(v, sub(v, y, k), add(v, mul(v, md, c[2]), mul(v, md, c[3])));
  uint32_t th = mul(v, f, K(v, PIO2));
  uint32_t q = op2(v, SpvOpBitwiseAnd, v->u32, sg_opv(g, SpvOpConvertFToU, v->u32, 1, k), KI(v, 3));
  /* Below 1/2 no reduction: theta = |x|, quadrant 0. */
  uint32_t ax = fabs_(v, widen(v, x));
  uint32_t small = lt(v, ax, K(v, 0.5));
  th = sel(v, small, ax, th);
  q = sg_opv(g, SpvOpSelect, v->u32, 3, small, KI(v, 0), q);
  /* Taylor series on |theta| <= pi/4 (a hair more): sin to theta^17, cos to theta^18. */
  double cs[8], cc[9], fct = 1;
  for (int i = 1; i <= 18; i++) {
    fct *= i;
    if (i >= 3 && i % 2) cs[(i - 3) / 2] = ((i / 2) % 2 ? -1 : 1) / fct;
    if (i >= 2 && i % 2 == 0) cc[(i - 2) / 2] = ((i / 2) % 2 ? -1 : 1) / fct;
  }
  uint32_t z = mul(v, th, th);
  uint32_t sn = add(v, th, mul(v, th, mul(v, z, horner(v, z, cs, 8))));
  uint32_t cn = add(v, K(v, 1), mul(v, z, horner(v, z, cc, 9)));
  uint32_t odd =
      op2(v, SpvOpINotEqual, v->b, op2(v, SpvOpBitwiseAnd, v->u32, q, KI(v, 1)), KI(v, 0));
  uint32_t s0 = sel(v, odd, cn, sn), c0 = sel(v, odd, sn, cn);
  uint32_t sneg =
      op2(v, SpvOpINotEqual, v->b, op2(v, SpvOpBitwiseAnd, v->u32, q, KI(v, 2)), KI(v, 0));
  uint32_t cneg = op2(
      v, SpvOpINotEqual, v->b,
      op2(v, SpvOpBitwiseAnd, v->u32, op2(v, SpvOpIAdd, v->u32, q, KI(v, 1)), KI(v, 2)), KI(v, 0));
  s0 = sel(v, sneg, neg(v, s0), s0);
  c0 = sel(v, cneg, neg(v, c0), c0);
  end_fn(g, &s, &head, sg_opv(g, SpvOpCompositeConstruct, v->d2, 2, s0, c0));
}

/* ---------------------------------------------------------------- double functions
 * The same reductions with the rounding errors that float's margin absorbed kept small:
 * exact products where the reduction needs them (Dekker's, as double division and fma
 * already use: no fused multiply-add on lavapipe), a correctly rounded quotient for log, and
 * series to below 2^-56. Bounds measured in tests/vulkan/mathfn.c. */

/* a * b as p + e exactly (Veltkamp's splitting and Dekker's product; |a|, |b| < 2^995). */
static void two_prod(VM *v, uint32_t a, uint32_t b, uint32_t *p, uint32_t *e) {
  uint32_t sp = K(v, 134217729.0), pa = mul(v, a, sp), pb = mul(v, b, sp);
  uint32_t ah = sub(v, pa, sub(v, pa, a)), al = sub(v, a, ah);
  uint32_t bh = sub(v, pb, sub(v, pb, b)), bl = sub(v, b, bh);
  *p = mul(v, a, b);
  uint32_t t = add(v, sub(v, mul(v, ah, bh), *p), mul(v, ah, bl));
  uint32_t dekker = add(v, add(v, t, mul(v, al, bh)), mul(v, al, bl));
  /* one fused Fma where the driver's is (sg_vk_fma_fused) */
  uint32_t fused = sg_vk_driver_fma(v->g, v->d, a, b, sg_opv(v->g, SpvOpFNegate, v->d, 1, *p));
  *e = sel(v, sg_vk_fma_fused(v->g, kir_type_scalar(KT_F64)), fused, dekker);
}

/* x 2^k for integral double k in [-1100, 1100]: two exact-or-once-rounded scalings (2^k
 * alone may be no double). */
static uint32_t scale2(VM *v, uint32_t x, uint32_t kf) {
  uint32_t k1 = glsl(v, v->d, GLSLstd450Floor, mul(v, kf, K(v, 0.5)));
  return mul(v, mul(v, x, pow2(v, k1)), pow2(v, sub(v, kf, k1)));
}

/* (e^r - 1 - r - r^2/2) / r^3 for |r| <= 0.35: 1/3! + r/4! + ... + r^10/13!. */
static uint32_t exp_tail3(VM *v, uint32_t r) {
  double c[11], f = 6;
  for (int i = 0; i < 11; i++) c[i] = 1 / f, f *= i + 4;
  return horner(v, r, c, 11);
}

/* 2 atanh(f / (a + b)) = log((a + b + f) / (a + b - f)) as hi + lo, for |f / (a + b)| <=
 * 0.172 and |a| >= |b|: the quotient's remainder (exact products) gives its low part, the
 * series 2q (1 + q^2/3 + ... + q^22/23) the rest. */
static void atanh2_dd(VM *v, uint32_t f, uint32_t a, uint32_t b, uint32_t *hi, uint32_t *lo) {
  uint32_t d = add(v, a, b), dl = sub(v, b, sub(v, d, a)); /* a + b = d + dl exactly */
  uint32_t q = dvd(v, f, d), p, pe;
  two_prod(v, q, d, &p, &pe);
  uint32_t rem = sub(v, sub(v, sub(v, f, p), pe), mul(v, q, dl));
  uint32_t ql = dvd(v, rem, d);
  double c[11];
  for (int i = 0; i < 11; i++) c[i] = 1.0 / (2 * i + 3);
  uint32_t q2 = mul(v, q, q), two_q = add(v, q, q);
  *hi = two_q;
  /* ql's share: 2 ql / (1 - q^2), to q^4. */
  uint32_t qls = mul(v, add(v, ql, ql), add(v, K(v, 1), mul(v, q2, add(v, K(v, 1), q2))));
  *lo = add(v, qls, mul(v, two_q, mul(v, q2, horner(v, q2, c, 11))));
}

static uint32_t clampd(VM *v, uint32_t x, double lo, double hi) {
  x = sel(v, gt(v, x, K(v, hi)), K(v, hi), x);
  return sel(v, lt(v, x, K(v, lo)), K(v, lo), x);
}

/* e^(h + l) as sh + t for |h + l| <= 0.36 and l small: 1 + h + h^2/2 summed exactly (an
 * exact square, Fast2Sum, TwoSum) into sh and its error, the rest of the series (rounding
 * below 2^-56 of the result) and l e^h into t. */
static void exp_dd(VM *v, uint32_t h, uint32_t l, uint32_t *sh, uint32_t *t) {
  uint32_t rr = add(v, h, l); /* h + l normalised (Fast2Sum) */
  l = sub(v, l, sub(v, rr, h));
  h = rr;
  uint32_t q, qe;
  two_prod(v, h, h, &q, &qe);
  q = mul(v, q, K(v, 0.5)), qe = mul(v, qe, K(v, 0.5));
  uint32_t s1 = add(v, K(v, 1), h), e1 = sub(v, h, sub(v, s1, K(v, 1)));
  *sh = add(v, s1, q);
  uint32_t bq = sub(v, *sh, s1);
  uint32_t e2 = add(v, sub(v, s1, sub(v, *sh, bq)), sub(v, q, bq));
  uint32_t rest = add(v, add(v, qe, mul(v, l, add(v, K(v, 1), h))),
                      mul(v, h, mul(v, h, mul(v, h, exp_tail3(v, h)))));
  *t = add(v, add(v, e1, e2), rest);
}

/* a + b as s + e exactly (Knuth's TwoSum). */
static uint32_t two_sum(VM *v, uint32_t a, uint32_t b, uint32_t *e) {
  uint32_t s = add(v, a, b), bb = sub(v, s, a);
  *e = add(v, sub(v, a, sub(v, s, bb)), sub(v, b, bb));
  return s;
}

/* log u for positive finite u as lh + ll to about 2^-64 of itself (pow's need): log_parts'
 * reduction with the series' first two terms, 2q and 2q^3/3, in double-double. */
static void log_dd(VM *v, uint32_t u, uint32_t *lh, uint32_t *ll) {
  SG *g = v->g;
  uint32_t sub_ = lt(v, u, K(v, 0x1p-1022));
  u = sel(v, sub_, mul(v, u, K(v, 0x1p54)), u);
  uint32_t ef = sg_opv(g, SpvOpConvertSToF, v->d, 1, ilogb_d(v, u));
  ef = sel(v, sub_, sub(v, ef, K(v, 54)), ef);
  uint32_t bits = sg_opv(g, SpvOpBitcast, v->u64, 1, u);
  uint32_t mbits =
      op2(v, SpvOpBitwiseOr, v->u64,
          op2(v, SpvOpBitwiseAnd, v->u64, bits, spv_const_int(v->m, 64, 0x000fffffffffffffull)),
          spv_const_int(v->m, 64, 0x3ff0000000000000ull));
  uint32_t mant = sg_opv(g, SpvOpBitcast, v->d, 1, mbits);
  uint32_t big = gt(v, mant, K(v, SQRT2));
  mant = sel(v, big, mul(v, mant, K(v, 0.5)), mant);
  ef = sel(v, big, add(v, ef, K(v, 1)), ef);
  /* q + ql = (m - 1) / (m + 1), m + 1 = d + dl exactly. */
  uint32_t f = sub(v, mant, K(v, 1)), d = add(v, K(v, 1), mant);
  uint32_t dl = sub(v, mant, sub(v, d, K(v, 1)));
  uint32_t q = dvd(v, f, d), p, pe;
  two_prod(v, q, d, &p, &pe);
  uint32_t ql = dvd(v, sub(v, sub(v, sub(v, f, p), pe), mul(v, q, dl)), d);
  uint32_t q2, q2e, q3, q3e, t, te;
  two_prod(v, q, q, &q2, &q2e);
  two_prod(v, q, q2, &q3, &q3e);
  q3e = add(v, q3e, mul(v, q, q2e));
  two_prod(v, q3, K(v, 2.0 / 3), &t, &te); /* 2/3 = 2.0/3 + 0x1.5555555555555p-55 */
  te = add(v, te, add(v, mul(v, q3, K(v, 0x1.5555555555555p-55)), mul(v, q3e, K(v, 2.0 / 3))));
  double c[10];
  for (int i = 0; i < 10; i++) c[i] = 2.0 / (2 * i + 5); /* 2/5, 2/7, ... */
  uint32_t rest = mul(v, mul(v, q, mul(v, q2, q2)), horner(v, q2, c, 10));
  uint32_t e1, e2;
  uint32_t s1 = two_sum(v, mul(v, ef, K(v, LN2_HI)), add(v, q, q), &e1);
  uint32_t s2 = two_sum(v, s1, t, &e2);
  /* ql's share: 2 ql / (1 - q^2) = 2 ql (1 + q^2 + q^4...). */
  uint32_t qls = mul(v, add(v, ql, ql), add(v, K(v, 1), mul(v, q2, add(v, K(v, 1), q2))));
  uint32_t low =
      add(v, add(v, e1, e2), add(v, add(v, te, qls), add(v, rest, mul(v, ef, K(v, LN2_LO)))));
  *lh = add(v, s2, low);
  *ll = sub(v, low, sub(v, *lh, s2));
}

/* asin(sh + sl) for |sh| <= 1/2, sl small, as hi + lo: sh, then its series to sh^55
 * (the coefficients (2n)! / (4^n n!^2 (2n + 1))) and sl times the slope 1/sqrt(1 - s^2). */
static void asin_dd(VM *v, uint32_t sh, uint32_t sl, uint32_t *hi, uint32_t *lo) {
  double c[27], b = 1;
  for (int n = 1; n <= 27; n++) {
    b *= (2.0 * n - 1) / (2.0 * n);
    c[n - 1] = b / (2 * n + 1);
  }
  uint32_t z = mul(v, sh, sh);
  uint32_t slope = add(v, K(v, 1), mul(v, z, add(v, K(v, 0.5), mul(v, z, K(v, 0.375)))));
  *hi = sh;
  *lo = add(v, mul(v, sl, slope), mul(v, mul(v, sh, z), horner(v, z, c, 27)));
}

/* An instruction with a result id chosen beforehand (an OpPhi names values defined later). */
static void op_as(SG *g, uint32_t id, SpvOp op, uint32_t type, int n, const uint32_t *ops) {
  sg_ensure_block(g);
  spw_push(&g->body, ((uint32_t)(n + 3) << SpvWordCountShift) | (uint32_t)op);
  spw_push(&g->body, type);
  spw_push(&g->body, id);
  spw_append(&g->body, ops, (size_t)n);
}

/* A double's integer mantissa and exponent (v = m 2^e; subnormals m < 2^52, e = -1074). */
static void mant_exp(VM *v, uint32_t x, uint32_t *mm, uint32_t *e) {
  SG *g = v->g;
  uint32_t bits = sg_opv(g, SpvOpBitcast, v->u64, 1, x);
  uint32_t eb = ilogb_d(v, x); /* -1023 for subnormals */
  uint32_t frac =
      op2(v, SpvOpBitwiseAnd, v->u64, bits, spv_const_int(v->m, 64, 0x000fffffffffffffull));
  uint32_t subn = op2(v, SpvOpIEqual, v->b, eb, KI(v, (uint32_t)-1023));
  *mm = sg_opv(g, SpvOpSelect, v->u64, 3, subn, frac,
               op2(v, SpvOpBitwiseOr, v->u64, frac, spv_const_int(v->m, 64, 1ull << 52)));
  *e = sg_opv(g, SpvOpSelect, v->i32, 3, subn, KI(v, (uint32_t)-1074),
              op2(v, SpvOpISub, v->i32, eb, KI(v, 52)));
}

/* fmod(x, y) of doubles, exact: the mantissas' remainder, mx mod my, then 11 exponent bits at
 * a time (r 2^11 stays below 2^64) r = (r << s) mod my, as integers; a loop (up to 191 turns
 * between the largest and the smallest doubles). */
static uint32_t fmod64(VM *v, uint32_t x, uint32_t y) {
  SG *g = v->g;
  uint32_t ax = fabs_(v, x), ay = fabs_(v, y);
  uint32_t fine =
      and_(v, and_(v, gt(v, ay, K(v, 0)), not_(v, isinf_(v, ay))),
           and_(v, not_(v, isinf_(v, ax)), not_(v, or_(v, isnan_(v, ax), isnan_(v, ay)))));
  uint32_t ya = sel(v, fine, ay, K(v, 1)), xa = sel(v, fine, ax, K(v, 0));
  uint32_t mx, ex, my, ey;
  mant_exp(v, xa, &mx, &ex);
  mant_exp(v, ya, &my, &ey);
  uint32_t n0 = op2(v, SpvOpISub, v->i32, ex, ey);
  n0 = sg_opv(g, SpvOpSelect, v->i32, 3, lt(v, xa, ya), KI(v, 0), n0);
  uint32_t r0 = op2(v, SpvOpUMod, v->u64, mx, my);
  uint32_t pre = g->label;
  uint32_t head = spv_id(v->m), body = spv_id(v->m), cont = spv_id(v->m), merge = spv_id(v->m);
  uint32_t rn = spv_id(v->m), nn = spv_id(v->m), rp = spv_id(v->m), np = spv_id(v->m);
  sg_start_block(g, head);
  uint32_t phr[4] = {r0, pre, rn, cont}, phn[4] = {n0, pre, nn, cont};
  op_as(g, rp, SpvOpPhi, v->u64, 4, phr);
  op_as(g, np, SpvOpPhi, v->i32, 4, phn);
  uint32_t go = op2(v, SpvOpSGreaterThan, v->b, np, KI(v, 0));
  uint32_t mops[3] = {merge, cont, SpvLoopControlMaskNone}, bops[3] = {go, body, merge};
  spw_inst(&g->body, SpvOpLoopMerge, mops, 3);
  spw_inst(&g->body, SpvOpBranchConditional, bops, 3);
  g->open = false;
  sg_start_block(g, body);
  uint32_t sh =
      sg_opv(g, SpvOpExtInst, v->i32, 4, v->glsl, (uint32_t)GLSLstd450SMin, np, KI(v, 11));
  uint32_t shl = op2(v, SpvOpShiftLeftLogical, v->u64, rp, sg_opv(g, SpvOpUConvert, v->u64, 1, sh));
  uint32_t o1[2] = {shl, my}, o2[2] = {np, sh};
  op_as(g, rn, SpvOpUMod, v->u64, 2, o1);
  op_as(g, nn, SpvOpISub, v->i32, 2, o2);
  sg_start_block(g, cont);
  sg_branch(g, head);
  sg_start_block(g, merge);
  uint32_t rd = sg_opv(g, SpvOpConvertUToF, v->d, 1, rp);
  uint32_t r = scale2(v, rd, sg_opv(g, SpvOpConvertSToF, v->d, 1, ey));
  r = sel(v, lt(v, xa, ya), xa, r);
  r = sel(v, sign64(v, x), neg(v, r), r);
  r = sel(v, and_(v, isinf_(v, ay), not_(v, or_(v, isinf_(v, ax), isnan_(v, ax)))), x, r);
  uint32_t bad =
      or_(v, or_(v, isnan_(v, ax), isnan_(v, ay)), or_(v, isinf_(v, ax), eq(v, ay, K(v, 0))));
  return sel(v, bad, dnan(v), r);
}

/* erf and erfc of ax >= 0 as dvec2: below 0.5 erf's series (2/sqrt pi)(x - x^3/3 + ...)
 * to x^33; to 3.125 erfc's Taylor series about the nearest 0.5 + k/4 (VK_ERFC_TAYLOR, |h| <=
 * 1/8, to h^24); from there erfc's continued fraction e^-x^2 / sqrt pi / (x + (1/2) / (x +
 * (2/2) / (x + ...))) to 50 terms (the last step and the quotient by it in double-double),
 * e^-x^2 from x^2 as an exact product; the other of the two is 1 minus the one computed, which
 * never cancels (it is at least 0.4). */
static uint32_t erfs64(VM *v, uint32_t ax) {
  SG *g = v->g;
  SpvModule *m = v->m;
  /* series */
  double c[16], fct = 1;
  for (int i = 1; i <= 16; i++) {
    fct *= i;
    c[i - 1] = (i % 2 ? -1 : 1) / (fct * (2 * i + 1));
  }
  uint32_t z = mul(v, ax, ax), p, pe;
  uint32_t tail = mul(v, mul(v, ax, z), horner(v, z, c, 16));
  two_prod(v, ax, K(v, 0x1.20dd750429b6dp+0), &p, &pe); /* 2/sqrt pi = hi + lo */
  uint32_t erf_l = add(v, add(v, pe, mul(v, ax, K(v, 0x1.1ae3a914fed8p-56))),
                       mul(v, tail, K(v, 0x1.20dd750429b6dp+0)));
  uint32_t erf_s = add(v, p, erf_l), ce;
  /* erfc = 1 - erf from p + erf_l unrounded: 1 - erf_s would add erf_s's rounding, twice
   * erfc's ulp, to erfc's own. */
  uint32_t c1 = two_sum(v, K(v, 1), neg(v, p), &ce);
  uint32_t erfc_s = add(v, c1, sub(v, ce, erf_l));
  /* Below 2^-900 the product would round twice (to 53 bits, then subnormal): scaled. */
  uint32_t axs = mul(v, ax, K(v, 0x1p100));
  uint32_t tiny = mul(
      v, add(v, mul(v, axs, K(v, 0x1.20dd750429b6dp+0)), mul(v, axs, K(v, 0x1.1ae3a914fed8p-56))),
      K(v, 0x1p-100));
  erf_s = sel(v, lt(v, ax, K(v, 0x1p-900)), tiny, erf_s);
  /* Taylor about 0.5 + k/4 */
  uint32_t at = spv_type_array(m, v->d, 11 * 27), vals[11 * 27];
  for (int i = 0; i < 11; i++)
    for (int j = 0; j < 27; j++) vals[i * 27 + j] = K(v, VK_ERFC_TAYLOR[i][j]);
  uint32_t table = sg_global_var(g, spv_type_ptr(m, SpvStorageClassPrivate, at),
                                 SpvStorageClassPrivate, spv_const_composite(m, at, vals, 11 * 27));
  spv_name(m, table, "kcc.erfc_taylor");
  uint32_t pd = spv_type_ptr(m, SpvStorageClassPrivate, v->d);
  uint32_t kf =
      clampd(v, glsl(v, v->d, GLSLstd450RoundEven, mul(v, sub(v, ax, K(v, 0.5)), K(v, 4))), 0, 10);
  uint32_t h = sub(v, ax, add(v, K(v, 0.5), mul(v, kf, K(v, 0.25))));
  uint32_t base = op2(v, SpvOpIMul, v->u32, sg_opv(g, SpvOpConvertFToU, v->u32, 1, kf), KI(v, 27));
  uint32_t co[27];
  for (uint32_t j = 0; j < 27; j++)
    co[j] = sg_opv(
        g, SpvOpLoad, v->d, 1,
        sg_opv(g, SpvOpAccessChain, pd, 2, table, op2(v, SpvOpIAdd, v->u32, base, KI(v, j))));
  /* erfc(c) + erfc'(c) h in double-double (they cancel by up to half), and the next term, up
   * to a third of the result near 3, as (c2 + h (c3 + ...)) h h with exact products; the rest
   * in double. */
  uint32_t poly = co[26];
  for (int j = 25; j >= 5; j--) poly = add(v, mul(v, poly, h), co[j]);
  uint32_t t2 = add(v, co[4], mul(v, poly, h)), q1, q1e, q2, q2e;
  two_prod(v, t2, h, &q1, &q1e);
  two_prod(v, q1, h, &q2, &q2e);
  uint32_t p1, p1e, e1, e2;
  two_prod(v, co[2], h, &p1, &p1e);
  uint32_t s0 = two_sum(v, co[0], p1, &e1);
  uint32_t s1 = two_sum(v, s0, q2, &e2);
  uint32_t erfc_t = add(v, s1,
                        add(v, add(v, add(v, e1, e2), add(v, co[1], p1e)),
                            add(v, mul(v, co[3], h), add(v, q2e, mul(v, q1e, h)))));
  /* continued fraction */
  uint32_t zc = clampd(v, ax, 3.125, 28), s2, s2e;
  uint32_t t = zc;
  for (int n = 50; n >= 2; n--) t = add(v, zc, op2(v, SpvOpFDiv, v->d, K(v, n / 2.0), t));
  /* The last step, t = x + (1/2) / t1, in double-double (q from its exact remainder): its
   * rounding would reach the result whole, the deeper ones' are damped by (n/2) / x^2. */
  uint32_t q = op2(v, SpvOpFDiv, v->d, K(v, 0.5), t), qp, qpe, te;
  two_prod(v, q, t, &qp, &qpe);
  uint32_t ql = op2(v, SpvOpFDiv, v->d, sub(v, sub(v, K(v, 0.5), qp), qpe), t);
  uint32_t th = two_sum(v, zc, q, &te), tl = add(v, te, ql);
  two_prod(v, zc, zc, &s2, &s2e);
  uint32_t k2 = glsl(v, v->d, GLSLstd450RoundEven, mul(v, neg(v, s2), K(v, LOG2E)));
  uint32_t eh, el;
  exp_dd(v, sub(v, neg(v, s2), mul(v, k2, K(v, LN2_HI))),
         sub(v, neg(v, s2e), mul(v, k2, K(v, LN2_LO))), &eh, &el);
  /* w = 1/sqrt pi / (th + tl) as wh + wl from wh's exact remainder, then (eh + el)(wh + wl)
   * with one rounding of note, the last. */
  uint32_t wh = op2(v, SpvOpFDiv, v->d, K(v, 0x1.20dd750429b6dp-1), th), wp, wpe, ep, epe;
  two_prod(v, wh, th, &wp, &wpe);
  uint32_t wl =
      op2(v, SpvOpFDiv, v->d,
          sub(v, add(v, sub(v, sub(v, K(v, 0x1.20dd750429b6dp-1), wp), wpe), K(v, RSQRTPI_LO)),
              mul(v, wh, tl)),
          th);
  two_prod(v, eh, wh, &ep, &epe);
  uint32_t erfc_c = scale2(v, add(v, ep, add(v, epe, add(v, mul(v, el, wh), mul(v, eh, wl)))), k2);
  uint32_t small = lt(v, ax, K(v, 0.5)), mid = lt(v, ax, K(v, 3.125));
  uint32_t erfc = sel(v, mid, erfc_t, erfc_c);
  uint32_t erf = sel(v, small, erf_s, sub(v, K(v, 1), erfc));
  erfc = sel(v, small, erfc_s, erfc);
  return sg_opv(g, SpvOpCompositeConstruct, v->d2, 2, erf, erfc);
}

/* Whether double x's sign bit is set. */
static uint32_t sign64(VM *v, uint32_t x) {
  return op2(v, SpvOpINotEqual, v->b,
             op2(v, SpvOpBitwiseAnd, v->u64, sg_opv(v->g, SpvOpBitcast, v->u64, 1, x),
                 spv_const_int(v->m, 64, 1ull << 63)),
             spv_const_int(v->m, 64, 0));
}

/* sin |x| and cos |x| of double x as dvec4 (sin hi, lo, cos hi, lo). |x| = m 2^e with m a
 * 53-bit integer: |x| 2/pi mod 4 is m times the 192 bits of 2/pi from 2^(1-e) down (the
 * bits above give multiples of 4), an integer product (32-bit limbs) whose top two bits are
 * the quadrant and the next 126 the fraction, rounded to the nearest quadrant; that times
 * pi/2 in double-double is the reduced argument, to 2^-60 of itself however close |x| is to
 * a multiple of pi/2 (Payne and Hanek). Below 1/2 no reduction. Then the series to theta^21
 * and theta^22 on the leading part, the low part by the derivative. */
static uint32_t trig64(VM *v, uint32_t x) {
  SG *g = v->g;
  SpvModule *m = v->m;
  uint32_t u32 = v->u32, u64 = v->u64;
  uint32_t at = spv_type_array(m, u32, 42), words[42];
  for (int i = 0; i < 42; i++) words[i] = KI(v, VK_TWO_OVER_PI_BITS[i]);
  uint32_t table = sg_global_var(g, spv_type_ptr(m, SpvStorageClassPrivate, at),
                                 SpvStorageClassPrivate, spv_const_composite(m, at, words, 42));
  spv_name(m, table, "kcc.two_over_pi_bits");
  uint32_t pw = spv_type_ptr(m, SpvStorageClassPrivate, u32);
  uint32_t bits = sg_opv(g, SpvOpBitcast, u64, 1, x);
  uint32_t hi = sg_opv(g, SpvOpUConvert, u32, 1,
                       op2(v, SpvOpShiftRightLogical, u64, bits, spv_const_int(m, 64, 32)));
  uint32_t ebits = op2(v, SpvOpBitwiseAnd, u32, op2(v, SpvOpShiftRightLogical, u32, hi, KI(v, 20)),
                       KI(v, 0x7ff));
  /* The window's first bit: j0 = e + 62 = E - 1013 in the table's bits, E at least 1022. */
  uint32_t j0 = sg_opv(g, SpvOpExtInst, v->i32, 5, v->glsl, (uint32_t)GLSLstd450SClamp,
                       op2(v, SpvOpISub, v->i32, ebits, KI(v, 1013)), KI(v, 9), KI(v, 1034));
  uint32_t k0 = op2(v, SpvOpShiftRightLogical, u32, j0, KI(v, 5));
  uint32_t sh = op2(v, SpvOpBitwiseAnd, u32, j0, KI(v, 31));
  uint32_t rsh = op2(v, SpvOpISub, u32, KI(v, 32), sh);
  uint32_t sh0 = op2(v, SpvOpIEqual, v->b, sh, KI(v, 0));
  uint32_t a[7], w[6];
  for (uint32_t t = 0; t < 7; t++)
    a[t] = sg_opv(g, SpvOpLoad, u32, 1,
                  sg_opv(g, SpvOpAccessChain, pw, 2, table, op2(v, SpvOpIAdd, u32, k0, KI(v, t))));
  for (int t = 0; t < 6; t++) {
    /* A shift by 32 is undefined: sh = 0 takes the word as it is. */
    uint32_t fun = op2(v, SpvOpBitwiseOr, u32, op2(v, SpvOpShiftLeftLogical, u32, a[t], sh),
                       op2(v, SpvOpShiftRightLogical, u32, a[t + 1],
                           sg_opv(g, SpvOpSelect, u32, 3, sh0, KI(v, 1), rsh)));
    w[t] = sg_opv(g, SpvOpSelect, u32, 3, sh0, a[t], fun);
  }
  /* m = m1 2^32 + m0; product limbs r[0] (least) .. r[7]. */
  uint32_t mant =
      op2(v, SpvOpBitwiseOr, u64,
          op2(v, SpvOpBitwiseAnd, u64, bits, spv_const_int(m, 64, 0x000fffffffffffffull)),
          spv_const_int(m, 64, 0x0010000000000000ull));
  uint32_t mw[2] = {op2(v, SpvOpBitwiseAnd, u64, mant, spv_const_int(m, 64, 0xffffffffull)),
                    op2(v, SpvOpShiftRightLogical, u64, mant, spv_const_int(m, 64, 32))};
  uint32_t lo32 = spv_const_int(m, 64, 0xffffffffull), s32 = spv_const_int(m, 64, 32);
  uint32_t prod[2][6];
  for (int ai = 0; ai < 2; ai++)
    for (int t = 0; t < 6; t++)
      prod[ai][t] = op2(v, SpvOpIMul, u64, mw[ai], sg_opv(g, SpvOpUConvert, u64, 1, w[t]));
  uint32_t r[8], carry = spv_const_int(m, 64, 0);
  for (int p = 0; p < 8; p++) {
    uint32_t acc = carry;
    for (int ai = 0; ai < 2; ai++) {
      int t = 5 - (p - ai); /* the product at limb p: (5 - t) + ai = p */
      if (t >= 0 && t <= 5)
        acc = op2(v, SpvOpIAdd, u64, acc, op2(v, SpvOpBitwiseAnd, u64, prod[ai][t], lo32));
      t = 5 - (p - 1 - ai); /* the high half of the one at limb p - 1 */
      if (p >= 1 && t >= 0 && t <= 5)
        acc = op2(v, SpvOpIAdd, u64, acc, op2(v, SpvOpShiftRightLogical, u64, prod[ai][t], s32));
    }
    r[p] = op2(v, SpvOpBitwiseAnd, u64, acc, lo32);
    carry = op2(v, SpvOpShiftRightLogical, u64, acc, s32);
  }
  /* Bits 190, 191 of the product (r[5]'s top two) are the quadrant, the 126 below the
   * fraction F; F >= 1/2 rounds the quadrant up and leaves F - 1. */
  uint32_t top = sg_opv(g, SpvOpUConvert, u32, 1, r[5]);
  uint32_t q = op2(v, SpvOpShiftRightLogical, u32, top, KI(v, 30));
  uint32_t up =
      op2(v, SpvOpINotEqual, v->b, op2(v, SpvOpBitwiseAnd, u32, top, KI(v, 1u << 29)), KI(v, 0));
  q = op2(v, SpvOpBitwiseAnd, u32,
          op2(v, SpvOpIAdd, u32, q, sg_opv(g, SpvOpSelect, u32, 3, up, KI(v, 1), KI(v, 0))),
          KI(v, 3));
  uint32_t f5 =
      sg_opv(g, SpvOpConvertUToF, v->d, 1, op2(v, SpvOpBitwiseAnd, u32, top, KI(v, 0x3fffffff)));
  uint32_t A = sub(v, mul(v, f5, K(v, 0x1p-30)), sel(v, up, K(v, 1), K(v, 0)));
  uint32_t B = mul(v, sg_opv(g, SpvOpConvertUToF, v->d, 1, r[4]), K(v, 0x1p-62));
  uint32_t C = mul(v, sg_opv(g, SpvOpConvertUToF, v->d, 1, r[3]), K(v, 0x1p-94));
  uint32_t D = mul(v, sg_opv(g, SpvOpConvertUToF, v->d, 1, r[2]), K(v, 0x1p-126));
  /* F = A + B + C + D as fh + fl (TwoSum: A may be 0 or smaller than B). */
  uint32_t fh = add(v, A, B), bb = sub(v, fh, A);
  uint32_t fl = add(v, add(v, sub(v, A, sub(v, fh, bb)), sub(v, B, bb)), add(v, C, D));
  uint32_t t2 = add(v, fh, fl);
  fl = sub(v, fl, sub(v, t2, fh));
  fh = t2;
  /* theta = F pi/2 in double-double. */
  uint32_t th, tl;
  two_prod(v, fh, K(v, PIO2), &th, &tl);
  tl = add(v, tl, add(v, mul(v, fh, K(v, PIO2_LO)), mul(v, fl, K(v, PIO2))));
  t2 = add(v, th, tl);
  tl = sub(v, tl, sub(v, t2, th));
  th = t2;
  uint32_t ax = fabs_(v, x);
  uint32_t small = lt(v, ax, K(v, 0.5));
  th = sel(v, small, ax, th);
  tl = sel(v, small, K(v, 0), tl);
  q = sg_opv(g, SpvOpSelect, u32, 3, small, KI(v, 0), q);
  /* Series on th; the low part tl by the derivative (sin' = cos, cos' = -sin). */
  double cs[10], cc[10], fct = 1;
  for (int i = 1; i <= 22; i++) {
    fct *= i;
    if (i >= 3 && i % 2 && (i - 3) / 2 < 10) cs[(i - 3) / 2] = ((i / 2) % 2 ? -1 : 1) / fct;
    if (i >= 4 && i % 2 == 0 && (i - 4) / 2 < 10) cc[(i - 4) / 2] = ((i / 2) % 2 ? -1 : 1) / fct;
  }
  uint32_t z = mul(v, th, th);
  uint32_t stail = mul(v, mul(v, th, z), horner(v, z, cs, 10)); /* sin th - th */
  uint32_t sh_ = add(v, th, stail), sl = sub(v, stail, sub(v, sh_, th));
  uint32_t qq, qe;
  two_prod(v, th, th, &qq, &qe);
  qq = mul(v, qq, K(v, 0.5)), qe = mul(v, qe, K(v, 0.5));
  uint32_t ch = sub(v, K(v, 1), qq), cl = sub(v, sub(v, K(v, 1), ch), qq); /* Fast2Sum */
  cl = add(v, cl, sub(v, mul(v, mul(v, z, z), horner(v, z, cc, 10)), qe));
  sl = add(v, sl, mul(v, tl, ch));
  cl = sub(v, cl, mul(v, tl, th));
  uint32_t t3 = add(v, ch, cl);
  cl = sub(v, cl, sub(v, t3, ch));
  ch = t3;
  t3 = add(v, sh_, sl);
  sl = sub(v, sl, sub(v, t3, sh_));
  sh_ = t3;
  /* Quadrant q: sin |x| = (s, c, -s, -c)[q], cos |x| = (c, -s, -c, s)[q]. */
  uint32_t odd = op2(v, SpvOpINotEqual, v->b, op2(v, SpvOpBitwiseAnd, u32, q, KI(v, 1)), KI(v, 0));
  uint32_t sneg = op2(v, SpvOpINotEqual, v->b, op2(v, SpvOpBitwiseAnd, u32, q, KI(v, 2)), KI(v, 0));
  uint32_t cneg =
      op2(v, SpvOpINotEqual, v->b,
          op2(v, SpvOpBitwiseAnd, u32, op2(v, SpvOpIAdd, u32, q, KI(v, 1)), KI(v, 2)), KI(v, 0));
  uint32_t o[4] = {sel(v, odd, ch, sh_), sel(v, odd, cl, sl), sel(v, odd, sh_, ch),
                   sel(v, odd, sl, cl)};
  o[0] = sel(v, sneg, neg(v, o[0]), o[0]);
  o[1] = sel(v, sneg, neg(v, o[1]), o[1]);
  o[2] = sel(v, cneg, neg(v, o[2]), o[2]);
  o[3] = sel(v, cneg, neg(v, o[3]), o[3]);
  return sg_opv(g, SpvOpCompositeConstruct, v->d4, 4, o[0], o[1], o[2], o[3]);
}

/* The series of a VK_LGAMMA_TAYLOR row (n coefficients, the first two as hi + lo: c0 hi, lo,
 * c1 hi, lo, c2, c3 ...) at h as hi + lo: c0 + c1 h in double-double (they cancel by up to
 * half), the rest, below a sixth of it, in double. */
static uint32_t taylor_dd(VM *v, const uint32_t *co, int n, uint32_t h, uint32_t *lo) {
  uint32_t poly = co[n - 1];
  for (int j = n - 2; j >= 4; j--) poly = add(v, mul(v, poly, h), co[j]);
  uint32_t p1, p1e, e1, e2;
  two_prod(v, co[2], h, &p1, &p1e);
  uint32_t s0 = two_sum(v, co[0], p1, &e1);
  uint32_t rest =
      add(v, add(v, e1, add(v, co[1], p1e)), add(v, mul(v, co[3], h), mul(v, mul(v, poly, h), h)));
  uint32_t hi = two_sum(v, s0, rest, &e2);
  *lo = e2;
  return hi;
}

/* Row kf (an integral double) of VK_LGAMMA_TAYLOR, its 30 coefficients into co. */
static void lgamma_row(VM *v, uint32_t kf, uint32_t *co) {
  SG *g = v->g;
  SpvModule *m = v->m;
  uint32_t at = spv_type_array(m, v->d, 11 * 30), vals[11 * 30];
  for (int i = 0; i < 11; i++)
    for (int j = 0; j < 30; j++) vals[i * 30 + j] = K(v, VK_LGAMMA_TAYLOR[i][j]);
  uint32_t table = sg_global_var(g, spv_type_ptr(m, SpvStorageClassPrivate, at),
                                 SpvStorageClassPrivate, spv_const_composite(m, at, vals, 11 * 30));
  spv_name(m, table, "kcc.lgamma_taylor");
  uint32_t pd = spv_type_ptr(m, SpvStorageClassPrivate, v->d);
  uint32_t base = op2(v, SpvOpIMul, v->u32, sg_opv(g, SpvOpConvertFToU, v->u32, 1, kf), KI(v, 30));
  for (uint32_t j = 0; j < 30; j++)
    co[j] = sg_opv(
        g, SpvOpLoad, v->d, 1,
        sg_opv(g, SpvOpAccessChain, pd, 2, table, op2(v, SpvOpIAdd, v->u32, base, KI(v, j))));
}

/* log u + l/u as hi + lo for positive finite u and l small beside it. */
static void log_plus(VM *v, uint32_t u, uint32_t l, uint32_t *hi, uint32_t *lo) {
  log_dd(v, u, hi, lo);
  *lo = add(v, *lo, dvd(v, l, u));
}

/* log gamma(a) for a >= 0.375 as dvec2 hi + lo, to about 2^-60 of itself. Below 3.125 the
 * Taylor series about the nearest 0.5 + k/4 (|h| <= 1/8); to 8 that of a - m in [2.125, 3.125)
 * plus log((a - 1)(a - 2)...(a - m)), the product in double-double (each a - j exact; both
 * terms positive); from 8 on Stirling's series (a - 1/2) log a - a + log sqrt(2 pi) +
 * sum B_2k / (2k (2k - 1) a^(2k - 1)) to k = 12 (below 2^-61 at 8), the first terms in
 * double-double; past 2^900 (Dekker's product would overflow) a (log a - 1) alone. */
static uint32_t lgpos64(VM *v, uint32_t a) {
  SG *g = v->g;
  uint32_t ar = clampd(v, a, 0.375, 8);
  uint32_t mf = clampd(v, glsl(v, v->d, GLSLstd450Floor, sub(v, ar, K(v, 2.125))), 0, 5);
  uint32_t y = sub(v, ar, mf);
  uint32_t kf =
      clampd(v, glsl(v, v->d, GLSLstd450RoundEven, mul(v, sub(v, y, K(v, 0.5)), K(v, 4))), 0, 10);
  uint32_t h = sub(v, y, add(v, K(v, 0.5), mul(v, kf, K(v, 0.25)))), co[30], tl;
  lgamma_row(v, kf, co);
  uint32_t th = taylor_dd(v, co, 30, h, &tl);
  uint32_t ph = K(v, 1), pl = K(v, 0);
  for (int j = 1; j <= 5; j++) {
    uint32_t f = sel(v, gt(v, mf, K(v, j - 0.5)), sub(v, ar, K(v, j)), K(v, 1)), p, pe;
    two_prod(v, ph, f, &p, &pe);
    pl = add(v, pe, mul(v, pl, f));
    ph = p;
  }
  /* Stirling */
  uint32_t big = not_(v, lt(v, a, K(v, 8)));
  uint32_t as = clampd(v, a, 8, 0x1p900), lh, ll, p, pe, e1, e2, e3;
  /* one logarithm, of the product or of a (the code is long: lavapipe compiles it inline) */
  log_plus(v, sel(v, big, as, ph), sel(v, big, K(v, 0), pl), &lh, &ll);
  uint32_t rh = two_sum(v, th, lh, &e1), rl = add(v, e1, add(v, tl, ll));
  uint32_t xm = sub(v, as, K(v, 0.5));
  two_prod(v, xm, lh, &p, &pe);
  pe = add(v, pe, mul(v, xm, ll));
  uint32_t s1 = two_sum(v, p, neg(v, as), &e2);
  uint32_t s2 = two_sum(v, s1, K(v, LNSQRT2PI), &e3);
  static const double bern[12][2] = {
      {1, 6}, {-1, 30},     {1, 42},      {-1, 30},       {5, 66},       {-691, 2730},
      {7, 6}, {-3617, 510}, {43867, 798}, {-174611, 330}, {854513, 138}, {-236364091, 2730}};
  double c[12];
  for (int k = 1; k <= 12; k++)
    c[k - 1] = bern[k - 1][0] / bern[k - 1][1] / (2.0 * k * (2 * k - 1));
  uint32_t r = op2(v, SpvOpFDiv, v->d, K(v, 1), as);
  uint32_t ser = mul(v, r, horner(v, mul(v, r, r), c, 12));
  uint32_t sl = add(v, add(v, pe, add(v, e2, e3)), add(v, K(v, LNSQRT2PI_LO), ser));
  rh = sel(v, big, s2, rh);
  rl = sel(v, big, sl, rl);
  uint32_t hh = add(v, rh, rl); /* Fast2Sum: |rl| is far below |rh| */
  rl = sub(v, rl, sub(v, hh, rh));
  uint32_t huge = gt(v, a, K(v, 0x1p900));
  uint32_t far_ = mul(v, a, sub(v, call1(v, F64_LOG, v->d, a), K(v, 1)));
  hh = sel(v, huge, far_, hh);
  rl = sel(v, huge, K(v, 0), rl);
  return sg_opv(g, SpvOpCompositeConstruct, v->d2, 2, hh, rl);
}

/* log |gamma(x)| for finite x not a pole as dvec2 hi + lo. |x| < 0.375: log gamma(2 + x) by
 * the series about 2, less log(1 + x) and log |x| (gamma(x) = gamma(2 + x) / (x (1 + x)));
 * from 0.375 on lgpos64; to -0.375 and below the reflection log pi - log(|x| |sin(pi x)|) -
 * log gamma(|x|), sin(pi x) from |x|'s fraction reduced to [0, 1/4] exactly, its product with
 * pi in double-double and kcc.trig on the leading part. Near the zeros of lgamma below -2 the
 * three terms cancel: there the result is accurate to about 2^-60 absolutely, not relatively. */
static uint32_t lgamma_dd64(VM *v, uint32_t x) {
  SG *g = v->g;
  uint32_t ax = fabs_(v, x), small = lt(v, ax, K(v, 0.375));
  /* small */
  uint32_t co[30], tl, xs = sel(v, small, x, K(v, 0)), axs = sel(v, small, ax, K(v, 1));
  lgamma_row(v, K(v, 6), co);
  uint32_t th = taylor_dd(v, co, 30, xs, &tl);
  uint32_t e1, e2;
  uint32_t l1p = call1(v, F64_LOG1P, v->d, xs);
  /* positive, and |x|'s share of the reflection */
  uint32_t pg = call1(v, F64_LGPOS, v->d2, sel(v, small, K(v, 1), ax));
  uint32_t pgh = sg_opv(g, SpvOpCompositeExtract, v->d, 2, pg, 0u);
  uint32_t pgl = sg_opv(g, SpvOpCompositeExtract, v->d, 2, pg, 1u);
  /* |sin(pi |x|)| = sin(pi t), t = min(f, 1 - f) for |x|'s fraction f (both exact), as
   * cos(pi (1/2 - t)) past 1/4 */
  uint32_t f = sub(v, ax, glsl(v, v->d, GLSLstd450Floor, ax));
  uint32_t t = sel(v, gt(v, f, K(v, 0.5)), sub(v, K(v, 1), f), f);
  uint32_t cosb = gt(v, t, K(v, 0.25)), u = sel(v, cosb, sub(v, K(v, 0.5), t), t);
  uint32_t uh, ue;
  two_prod(v, u, K(v, PI), &uh, &ue);
  ue = add(v, ue, mul(v, u, K(v, PI_LO)));
  uint32_t sc = call1(v, F64_TRIG, v->d4, uh), c4[4];
  for (uint32_t j = 0; j < 4; j++) c4[j] = sg_opv(g, SpvOpCompositeExtract, v->d, 2, sc, j);
  uint32_t snh = sel(v, cosb, c4[2], c4[0]);
  uint32_t snl = sel(v, cosb, sub(v, c4[3], mul(v, ue, c4[0])), add(v, c4[1], mul(v, ue, c4[2])));
  uint32_t qh, qe, lqh, lql, e3, e4;
  two_prod(v, ax, snh, &qh, &qe);
  uint32_t qok = gt(v, qh, K(v, 0));
  /* one logarithm, of |x| (small) or of |x| |sin(pi x)| (the code is long: lavapipe compiles
   * it inline) */
  log_plus(v, sel(v, small, axs, sel(v, qok, qh, K(v, 1))),
           sel(v, small, K(v, 0), add(v, qe, mul(v, ax, snl))), &lqh, &lql);
  uint32_t s1 = two_sum(v, neg(v, lqh), th, &e1);
  uint32_t sh = two_sum(v, s1, neg(v, l1p), &e2);
  uint32_t slo = add(v, add(v, e1, e2), sub(v, tl, lql));
  uint32_t r1 = two_sum(v, K(v, LNPI), neg(v, lqh), &e3);
  uint32_t rh = two_sum(v, r1, neg(v, pgh), &e4);
  uint32_t rl = add(v, add(v, e3, e4), sub(v, sub(v, K(v, LNPI_LO), lql), pgl));
  uint32_t negx = lt(v, x, K(v, 0));
  rh = sel(v, negx, rh, pgh);
  rl = sel(v, negx, rl, pgl);
  rh = sel(v, small, sh, rh);
  rl = sel(v, small, slo, rl);
  return sg_opv(g, SpvOpCompositeConstruct, v->d2, 2, rh, rl);
}

/* lgamma (which F64_LGAMMA) or tgamma of double x: e^(hi + lo) of lgamma_dd64 as pow takes
 * e^ of its double-double, negated where gamma(x) is (x < 0 with an odd floor). C99 Annex F's
 * cases: lgamma is +inf at the poles (0 and the negative integers) and at both infinities;
 * tgamma is +-inf at +-0, NaN at the negative integers and -inf, +inf at +inf. */
static uint32_t gamma64(VM *v, int which, uint32_t x) {
  SG *g = v->g;
  uint32_t nan = isnan_(v, x), inf = isinf_(v, x);
  uint32_t fl = glsl(v, v->d, GLSLstd450Floor, x);
  uint32_t pole = and_(v, not_(v, gt(v, x, K(v, 0))), eq(v, fl, x)); /* finite x <= 0 */
  uint32_t ok = not_(v, or_(v, or_(v, nan, inf), pole));
  uint32_t L = call1(v, F64_LGAMMA_DD, v->d2, sel(v, ok, x, K(v, 1)));
  uint32_t lh = sg_opv(g, SpvOpCompositeExtract, v->d, 2, L, 0u);
  uint32_t ll = sg_opv(g, SpvOpCompositeExtract, v->d, 2, L, 1u);
  uint32_t r;
  if (which == F64_LGAMMA) {
    r = add(v, lh, ll);
    r = sel(v, or_(v, inf, pole), dinf(v), r);
  } else {
    uint32_t inrange = lt(v, fabs_(v, lh), K(v, 800));
    uint32_t xc = clampd(v, lh, -750, 710);
    uint32_t kf = glsl(v, v->d, GLSLstd450RoundEven, mul(v, xc, K(v, LOG2E)));
    uint32_t h = sub(v, xc, mul(v, kf, K(v, LN2_HI)));
    uint32_t l = sel(v, inrange, sub(v, ll, mul(v, kf, K(v, LN2_LO))), K(v, 0)), sh, t;
    exp_dd(v, h, l, &sh, &t);
    r = scale2(v, add(v, sh, t), kf);
    uint32_t half = mul(v, fl, K(v, 0.5));
    uint32_t odd = not_(v, eq(v, glsl(v, v->d, GLSLstd450Floor, half), half));
    r = sel(v, and_(v, lt(v, x, K(v, 0)), odd), neg(v, r), r);
    r = sel(v, and_(v, inf, gt(v, x, K(v, 0))), x, r);
    r = sel(v, or_(v, pole, and_(v, inf, lt(v, x, K(v, 0)))), dnan(v), r);
    r = sel(v, eq(v, x, K(v, 0)), sel(v, sign64(v, x), neg(v, dinf(v)), dinf(v)), r);
  }
  return sel(v, nan, x, r);
}

static void def_f64(VM *v, int which) {
  SG *g = v->g;
  Saved s;
  SpvWords head;
  /* Every double function by name (its index less F64_LOG_PARTS). */
  static const char *names[F_COUNT - F64_LOG_PARTS] = {
      [F64_LOG_PARTS - F64_LOG_PARTS] = "kcc.log_parts",
      [F64_EXP - F64_LOG_PARTS] = "kcc.exp",
      [F64_EXP2 - F64_LOG_PARTS] = "kcc.exp2",
      [F64_EXP10 - F64_LOG_PARTS] = "kcc.exp10",
      [F64_EXPM1 - F64_LOG_PARTS] = "kcc.expm1",
      [F64_LOG - F64_LOG_PARTS] = "kcc.log",
      [F64_LOG2 - F64_LOG_PARTS] = "kcc.log2",
      [F64_LOG10 - F64_LOG_PARTS] = "kcc.log10",
      [F64_LOG1P - F64_LOG_PARTS] = "kcc.log1p",
      [F64_TRIG - F64_LOG_PARTS] = "kcc.trig",
      [F64_SIN - F64_LOG_PARTS] = "kcc.sin",
      [F64_COS - F64_LOG_PARTS] = "kcc.cos",
      [F64_TAN - F64_LOG_PARTS] = "kcc.tan",
      [F64_POW - F64_LOG_PARTS] = "kcc.pow",
      [F64_ATAN2 - F64_LOG_PARTS] = "kcc.atan2",
      [F64_ATAN - F64_LOG_PARTS] = "kcc.atan",
      [F64_ASIN - F64_LOG_PARTS] = "kcc.asin",
      [F64_ACOS - F64_LOG_PARTS] = "kcc.acos",
      [F64_SINH - F64_LOG_PARTS] = "kcc.sinh",
      [F64_COSH - F64_LOG_PARTS] = "kcc.cosh",
      [F64_TANH - F64_LOG_PARTS] = "kcc.tanh",
      [F64_CBRT - F64_LOG_PARTS] = "kcc.cbrt",
      [F64_HYPOT - F64_LOG_PARTS] = "kcc.hypot",
      [F64_ROUND - F64_LOG_PARTS] = "kcc.round",
      [F64_ASINH - F64_LOG_PARTS] = "kcc.asinh",
      [F64_ACOSH - F64_LOG_PARTS] = "kcc.acosh",
      [F64_ATANH - F64_LOG_PARTS] = "kcc.atanh",
      [F64_FMOD - F64_LOG_PARTS] = "kcc.fmod",
      [F64_ERFS - F64_LOG_PARTS] = "kcc.erfs",
      [F64_ERF - F64_LOG_PARTS] = "kcc.erf",
      [F64_ERFC - F64_LOG_PARTS] = "kcc.erfc",
      [F64_LGPOS - F64_LOG_PARTS] = "kcc.lgpos",
      [F64_LGAMMA_DD - F64_LOG_PARTS] = "kcc.lgamma_dd",
      [F64_LGAMMA - F64_LOG_PARTS] = "kcc.lgamma",
      [F64_TGAMMA - F64_LOG_PARTS] = "kcc.tgamma"};
  uint32_t pp[2], dts[2] = {v->d, v->d};
  begin_fn(g, &s, &head, which, names[which - F64_LOG_PARTS],
           which == F64_LOG_PARTS                                              ? v->d3
           : which == F64_TRIG                                                 ? v->d4
           : which == F64_ERFS || which == F64_LGPOS || which == F64_LGAMMA_DD ? v->d2
                                                                               : v->d,
           which == F64_POW || which == F64_ATAN2 || which == F64_HYPOT || which == F64_FMOD ? 2
                                                                                             : 1,
           dts, pp);
  uint32_t x = pp[0], p2nd = pp[1];
  uint32_t r = 0, nan = isnan_(v, x), kf;
  switch (which) {
  case F64_LOG_PARTS: {
    /* Subnormals scaled by 2^54 first; log m = 2 atanh((m - 1) / (m + 1)) as hi + lo. */
    uint32_t sub_ = lt(v, x, K(v, 0x1p-1022));
    uint32_t u = sel(v, sub_, mul(v, x, K(v, 0x1p54)), x);
    uint32_t ef = sg_opv(g, SpvOpConvertSToF, v->d, 1, ilogb_d(v, u));
    ef = sel(v, sub_, sub(v, ef, K(v, 54)), ef);
    uint32_t bits = sg_opv(g, SpvOpBitcast, v->u64, 1, u);
    uint32_t mbits =
        op2(v, SpvOpBitwiseOr, v->u64,
            op2(v, SpvOpBitwiseAnd, v->u64, bits, spv_const_int(v->m, 64, 0x000fffffffffffffull)),
            spv_const_int(v->m, 64, 0x3ff0000000000000ull));
    uint32_t mant = sg_opv(g, SpvOpBitcast, v->d, 1, mbits);
    uint32_t big = gt(v, mant, K(v, SQRT2));
    mant = sel(v, big, mul(v, mant, K(v, 0.5)), mant);
    ef = sel(v, big, add(v, ef, K(v, 1)), ef);
    uint32_t hi, lo;
    atanh2_dd(v, sub(v, mant, K(v, 1)), K(v, 1), mant, &hi, &lo);
    r = sg_opv(g, SpvOpCompositeConstruct, v->d3, 3, ef, hi, lo);
    break;
  }
  case F64_EXP:
  case F64_EXP2:
  case F64_EXP10:
  case F64_EXPM1: {
    /* r = x - k ln 2 as h + l: k ln 2 in two parts (exact products: k < 2^11); exp2: (x - k)
     * ln 2, an exact product plus ln 2's own rounding; exp10: likewise x ln 10 - k ln 2. */
    uint32_t h, l;
    if (which == F64_EXP2) {
      uint32_t xc = clampd(v, x, -1080, 1030), t;
      kf = glsl(v, v->d, GLSLstd450RoundEven, xc);
      t = sub(v, xc, kf);
      two_prod(v, t, K(v, LN2), &h, &l);
      l = add(v, l, mul(v, t, K(v, LN2_LO2)));
    } else if (which == F64_EXP10) {
      uint32_t xc = clampd(v, x, -330, 310), ph, pl;
      kf = glsl(v, v->d, GLSLstd450RoundEven, mul(v, xc, K(v, LOG2_10)));
      two_prod(v, xc, K(v, LN10), &ph, &pl);
      h = sub(v, ph, mul(v, kf, K(v, LN2_HI))); /* exact: ph and k ln 2 are close */
      l = sub(v, add(v, pl, mul(v, xc, K(v, LN10_LO))), mul(v, kf, K(v, LN2_LO)));
    } else {
      uint32_t xc = which == F64_EXPM1 ? clampd(v, x, -40, 40) : clampd(v, x, -750, 710);
      kf = glsl(v, v->d, GLSLstd450RoundEven, mul(v, xc, K(v, LOG2E)));
      h = sub(v, xc, mul(v, kf, K(v, LN2_HI)));
      l = neg(v, mul(v, kf, K(v, LN2_LO)));
    }
    uint32_t sh, t;
    exp_dd(v, h, l, &sh, &t);
    if (which != F64_EXPM1) {
      r = scale2(v, add(v, sh, t), kf);
    } else {
      /* (2^k s - 1) + 2^k t, the first with its rounding error; beyond 40, e^x itself. */
      uint32_t p2 = pow2(v, kf);
      uint32_t a = mul(v, p2, sh), s1 = sub(v, a, K(v, 1)), bb = sub(v, s1, a);
      uint32_t err = add(v, sub(v, a, sub(v, s1, bb)), sub(v, K(v, -1), bb)); /* TwoSum */
      r = add(v, s1, add(v, err, mul(v, p2, t)));
      r = sel(v, gt(v, x, K(v, 40)), call1(v, F64_EXP, v->d, x), r);
      r = sel(v, eq(v, x, K(v, 0)), x, r);
    }
    r = sel(v, nan, x, r);
    break;
  }
  case F64_LOG:
  case F64_LOG2:
  case F64_LOG10:
  case F64_LOG1P: {
    uint32_t u = x, c = 0;
    if (which == F64_LOG1P) {
      /* u = 1 + x and its rounding error c (Fast2Sum, the larger term first), log u + c/u. */
      u = add(v, K(v, 1), x);
      uint32_t big = gt(v, fabs_(v, x), K(v, 1));
      c = sel(v, big, sub(v, K(v, 1), sub(v, u, x)), sub(v, x, sub(v, u, K(v, 1))));
    }
    uint32_t pos = and_(v, gt(v, u, K(v, 0)), not_(v, isinf_(v, u)));
    uint32_t parts = call1(v, F64_LOG_PARTS, v->d3, sel(v, pos, u, K(v, 1)));
    uint32_t ef = sg_opv(g, SpvOpCompositeExtract, v->d, 2, parts, 0u);
    uint32_t hi = sg_opv(g, SpvOpCompositeExtract, v->d, 2, parts, 1u);
    uint32_t lo = sg_opv(g, SpvOpCompositeExtract, v->d, 2, parts, 2u);
    if (which == F64_LOG1P) lo = add(v, lo, dvd(v, c, u));
    if (which == F64_LOG1P) {
      /* Near 0, 2 atanh(x / (2 + x)) keeps the relative precision that 1 + x loses. */
      uint32_t small = and_(v, gt(v, x, K(v, -0.2928)), lt(v, x, K(v, 0.4142)));
      uint32_t sh, sl;
      atanh2_dd(v, sel(v, small, x, K(v, 0)), K(v, 2), sel(v, small, x, K(v, 0)), &sh, &sl);
      ef = sel(v, small, K(v, 0), ef);
      hi = sel(v, small, sh, hi);
      lo = sel(v, small, sl, lo);
    }
    /* e c + (hi + lo) c' with e c exact (c's leading part), hi c' an exact product, and the
     * one rounding of consequence the last. */
    uint32_t a, ph, pl;
    if (which == F64_LOG || which == F64_LOG1P) {
      a = mul(v, ef, K(v, LN2_HI));
      ph = hi;
      pl = add(v, lo, mul(v, ef, K(v, LN2_LO)));
    } else {
      double c1 = which == F64_LOG2 ? LOG2E : LOG10E, c2 = which == F64_LOG2 ? LOG2E_LO : LOG10E_LO;
      a = which == F64_LOG2 ? ef : mul(v, ef, K(v, LOG10_2_HI));
      two_prod(v, hi, K(v, c1), &ph, &pl);
      pl = add(v, pl, add(v, mul(v, hi, K(v, c2)), mul(v, lo, K(v, c1))));
      if (which == F64_LOG10) pl = add(v, pl, mul(v, ef, K(v, LOG10_2_LO)));
    }
    uint32_t s1 = add(v, a, ph), bb = sub(v, s1, a);
    uint32_t err = add(v, sub(v, a, sub(v, s1, bb)), sub(v, ph, bb));
    r = add(v, s1, add(v, err, pl));
    /* log1p(x) = x - x^2/2... rounds to x below 2^-60 (and x / 2 may underflow). */
    if (which == F64_LOG1P) r = sel(v, lt(v, fabs_(v, x), K(v, 0x1p-60)), x, r);
    r = sel(v, isinf_(v, u), u, r);
    r = sel(v, lt(v, u, K(v, 0)), dnan(v), r);
    r = sel(v, eq(v, u, K(v, 0)), neg(v, dinf(v)), r);
    r = sel(v, or_(v, nan, isnan_(v, u)), dnan(v), r);
    break;
  }
  case F64_POW: {
    /* e^(y log|x|) with log|x| and the product in double-double (|y log|x|| may reach 745,
     * so its 2^-63 carries into the result's last bit), then C's cases as powf's. */
    uint32_t y = p2nd, ax = fabs_(v, x);
    uint32_t safe = and_(v, gt(v, ax, K(v, 0)), not_(v, isinf_(v, ax)));
    uint32_t lh, ll, ph, pl;
    log_dd(v, sel(v, safe, ax, K(v, 1)), &lh, &ll);
    /* Dekker's splitting overflows above 2^995: a large y is scaled down, log up. */
    uint32_t ybig = gt(v, fabs_(v, y), K(v, 0x1p900));
    uint32_t ys = sel(v, ybig, mul(v, y, K(v, 0x1p-100)), y);
    lh = sel(v, ybig, mul(v, lh, K(v, 0x1p100)), lh);
    ll = sel(v, ybig, mul(v, ll, K(v, 0x1p100)), ll);
    two_prod(v, ys, lh, &ph, &pl);
    pl = add(v, pl, mul(v, ys, ll));
    uint32_t inrange = lt(v, fabs_(v, ph), K(v, 800)); /* beyond, l is NaN of inf - inf */
    uint32_t xc = clampd(v, ph, -750, 710);
    kf = glsl(v, v->d, GLSLstd450RoundEven, mul(v, xc, K(v, LOG2E)));
    uint32_t h = sub(v, xc, mul(v, kf, K(v, LN2_HI)));
    uint32_t l = sel(v, inrange, sub(v, pl, mul(v, kf, K(v, LN2_LO))), K(v, 0));
    uint32_t sh, t;
    exp_dd(v, h, l, &sh, &t);
    r = scale2(v, add(v, sh, t), kf);
    uint32_t yinf = isinf_(v, y), ypos = gt(v, y, K(v, 0)), yneg = lt(v, y, K(v, 0));
    uint32_t azero = eq(v, ax, K(v, 0)), ainf = isinf_(v, ax);
    uint32_t agt1 = gt(v, ax, K(v, 1)), alt1 = lt(v, ax, K(v, 1));
    uint32_t to_inf = or_(v, or_(v, and_(v, azero, yneg), and_(v, ainf, ypos)),
                          and_(v, yinf, or_(v, and_(v, ypos, agt1), and_(v, yneg, alt1))));
    uint32_t to_zero = or_(v, or_(v, and_(v, azero, ypos), and_(v, ainf, yneg)),
                           and_(v, yinf, or_(v, and_(v, ypos, alt1), and_(v, yneg, agt1))));
    r = sel(v, to_inf, dinf(v), r);
    r = sel(v, to_zero, K(v, 0), r);
    uint32_t fl = glsl(v, v->d, GLSLstd450Floor, y), half = mul(v, y, K(v, 0.5));
    uint32_t yint = eq(v, fl, y);
    uint32_t yodd = and_(v, yint, not_(v, eq(v, glsl(v, v->d, GLSLstd450Floor, half), half)));
    r = sel(v, and_(v, sign64(v, x), yodd), neg(v, r), r);
    uint32_t xfinite = not_(v, or_(v, nan, isinf_(v, x)));
    r = sel(v, and_(v, and_(v, lt(v, x, K(v, 0)), xfinite), not_(v, yint)), dnan(v), r);
    r = sel(v, or_(v, nan, isnan_(v, y)), dnan(v), r);
    uint32_t one = or_(v, eq(v, y, K(v, 0)), eq(v, x, K(v, 1)));
    one = or_(v, one, and_(v, eq(v, ax, K(v, 1)), yinf));
    r = sel(v, one, K(v, 1), r);
    break;
  }
  case F64_ATAN2: {
    /* t = the smaller magnitude over the larger in double-double, k/8 nearest t (|u| <= 1/16
     * below), atan t = atan(k/8) + atan u with u = (t - k/8) / (1 + t k/8) in double-double
     * and atan u's series to u^15; then the octant: pi/2 - a where |y| is the larger, pi - a
     * for a negative x, and y's sign, each in double-double. */
    uint32_t y = x, xx = p2nd;
    uint32_t ay = fabs_(v, y), ax = fabs_(v, xx);
    uint32_t swap = gt(v, ay, ax);
    uint32_t num = sel(v, swap, ax, ay), den = sel(v, swap, ay, ax);
    /* Dekker's product needs its operands and product normal and below 2^995: both scaled
     * by 2^-100 where den is above 2^900, by 2^200 where num is below 2^-900 and den below
     * 2^700 (num <= den; a smaller quotient is 0 anyway). */
    uint32_t up = or_(v, lt(v, den, K(v, 0x1p-900)),
                      and_(v, lt(v, num, K(v, 0x1p-900)), lt(v, den, K(v, 0x1p700))));
    uint32_t scl =
        sel(v, gt(v, den, K(v, 0x1p900)), K(v, 0x1p-100), sel(v, up, K(v, 0x1p200), K(v, 1)));
    num = mul(v, num, scl), den = mul(v, den, scl);
    uint32_t th = dvd(v, num, den), p, pe;
    uint32_t dsafe = and_(v, gt(v, den, K(v, 0)), not_(v, isinf_(v, den)));
    uint32_t dd_ = sel(v, dsafe, den, K(v, 1));
    two_prod(v, th, dd_, &p, &pe);
    uint32_t tl = sel(v, dsafe, dvd(v, sub(v, sub(v, num, p), pe), dd_), K(v, 0));
    th = sel(v, and_(v, eq(v, ay, K(v, 0)), eq(v, ax, K(v, 0))), K(v, 0), th);
    uint32_t binf = and_(v, isinf_(v, ay), isinf_(v, ax));
    th = sel(v, binf, K(v, 1), th);
    tl = sel(v, binf, K(v, 0), tl);
    SpvModule *m = v->m;
    uint32_t rows[9];
    for (int i = 0; i < 9; i++) {
      uint32_t c2[2] = {K(v, VK_ATAN_K8[i][0]), K(v, VK_ATAN_K8[i][1])};
      rows[i] = spv_const_composite(m, v->d2, c2, 2);
    }
    uint32_t at = spv_type_array(m, v->d2, 9);
    uint32_t table = sg_global_var(g, spv_type_ptr(m, SpvStorageClassPrivate, at),
                                   SpvStorageClassPrivate, spv_const_composite(m, at, rows, 9));
    spv_name(m, table, "kcc.atan_k8");
    uint32_t kf = glsl(v, v->d, GLSLstd450RoundEven, mul(v, th, K(v, 8)));
    kf = clampd(v, kf, 0, 8); /* NaN: whatever row, the result is NaN */
    uint32_t ki = sg_opv(g, SpvOpConvertFToU, v->u32, 1, kf);
    uint32_t row = sg_opv(
        g, SpvOpLoad, v->d2, 1,
        sg_opv(g, SpvOpAccessChain, spv_type_ptr(m, SpvStorageClassPrivate, v->d2), 2, table, ki));
    uint32_t A0 = sg_opv(g, SpvOpCompositeExtract, v->d, 2, row, 0u);
    uint32_t A1 = sg_opv(g, SpvOpCompositeExtract, v->d, 2, row, 1u);
    uint32_t c = mul(v, kf, K(v, 0.125));
    uint32_t n = add(v, sub(v, th, c), tl); /* th - c is exact */
    two_prod(v, th, c, &p, &pe);
    uint32_t dh = add(v, K(v, 1), p);
    uint32_t dl = add(v, add(v, sub(v, sub(v, K(v, 1), dh), neg(v, p)), pe), mul(v, tl, c));
    uint32_t q = dvd(v, n, dh), mm, me;
    two_prod(v, q, dh, &mm, &me);
    uint32_t ql = dvd(v, sub(v, sub(v, sub(v, n, mm), me), mul(v, q, dl)), dh);
    double cs[7];
    for (int i = 0; i < 7; i++) cs[i] = (i % 2 ? 1.0 : -1.0) / (2 * i + 3);
    uint32_t q2 = mul(v, q, q), se;
    uint32_t s0 = two_sum(v, A0, q, &se);
    uint32_t lo = add(v, add(v, se, A1), add(v, ql, mul(v, mul(v, q, q2), horner(v, q2, cs, 7))));
    uint32_t ah = add(v, s0, lo), al = sub(v, lo, sub(v, ah, s0));
    /* pi/2 - a, then pi - a, in double-double. */
    uint32_t e1, e2;
    uint32_t bh = two_sum(v, K(v, PIO2), neg(v, ah), &e1);
    uint32_t bl = add(v, e1, sub(v, K(v, PIO2_LO), al));
    ah = sel(v, swap, bh, ah), al = sel(v, swap, bl, al);
    uint32_t ch = two_sum(v, K(v, PI), neg(v, ah), &e2);
    uint32_t cl = add(v, e2, sub(v, K(v, PI_LO), al));
    uint32_t xneg = sign64(v, xx);
    ah = sel(v, xneg, ch, ah), al = sel(v, xneg, cl, al);
    r = add(v, ah, al);
    r = sel(v, sign64(v, y), neg(v, r), r);
    r = sel(v, or_(v, isnan_(v, y), isnan_(v, xx)), dnan(v), r);
    break;
  }
  case F64_ATAN: r = call2(v, F64_ATAN2, v->d, x, K(v, 1)); break;
  case F64_ASIN:
  case F64_ACOS: {
    /* Below 1/2, asin's series; above, asin |x| = pi/2 - 2 asin s and acos |x| = 2 asin s with
     * s = sqrt((1 - |x|) / 2) (exact argument, s as hi + lo from the exact remainder); acos
     * is pi/2 - asin x below 1/2 and pi - acos |x| for x below -1/2; all in double-double. */
    uint32_t ax = fabs_(v, x), big = not_(v, lt(v, ax, K(v, 0.5)));
    uint32_t u = mul(v, sub(v, K(v, 1), ax), K(v, 0.5));
    uint32_t sh = sg_vk_sqrt(g, kir_type_scalar(KT_F64), sel(v, big, u, K(v, 0.25))), p, pe;
    two_prod(v, sh, sh, &p, &pe);
    uint32_t sl = dvd(v, sub(v, sub(v, u, p), pe), add(v, sh, sh));
    uint32_t hi, lo, e1;
    asin_dd(v, sel(v, big, sh, ax), sel(v, big, sl, K(v, 0)), &hi, &lo);
    uint32_t h2 = add(v, hi, hi), l2 = add(v, lo, lo);
    /* pi/2 - 2 asin s (asin, big), pi/2 - asin |x| (acos, small; x's sign later) */
    uint32_t ph = two_sum(v, K(v, PIO2), neg(v, sel(v, big, h2, hi)), &e1);
    uint32_t pl = add(v, e1, sub(v, K(v, PIO2_LO), sel(v, big, l2, lo)));
    if (which == F64_ASIN) {
      r = sel(v, big, add(v, ph, pl), add(v, hi, lo));
      r = sel(v, sign64(v, x), neg(v, r), r);
      r = sel(v, eq(v, x, K(v, 0)), x, r);
    } else {
      uint32_t e2, e3;
      uint32_t xneg = sign64(v, x);
      /* small: pi/2 -+ asin |x| */
      uint32_t qh = two_sum(v, K(v, PIO2), sel(v, xneg, hi, neg(v, hi)), &e2);
      uint32_t small = add(v, qh, add(v, e2, add(v, K(v, PIO2_LO), sel(v, xneg, lo, neg(v, lo)))));
      /* big: 2 asin s, or pi - 2 asin s */
      uint32_t rh = two_sum(v, K(v, PI), neg(v, h2), &e3);
      uint32_t bigneg = add(v, rh, add(v, e3, sub(v, K(v, PI_LO), l2)));
      r = sel(v, big, sel(v, xneg, bigneg, add(v, h2, l2)), small);
    }
    r = sel(v, or_(v, nan, gt(v, ax, K(v, 1))), dnan(v), r);
    break;
  }
  case F64_SINH:
  case F64_COSH:
  case F64_TANH: {
    /* Below 1 (tanh: 0.55) the series of sinh and cosh, each as hi + lo; above, (E -+ 1/E)/2
     * with E = e^|x| in double-double (e^(|x| - 1) e/2 past 700: e^|x| overflows before sinh
     * and cosh do); tanh 1 - 2 / (e^2|x| + 1) from 0.55, 1 past 20. */
    uint32_t ax = fabs_(v, x), z = mul(v, ax, ax);
    double cs[10], cc[10], fct = 1;
    for (int i = 1; i <= 21; i++) {
      fct *= i;
      if (i >= 3 && i % 2) cs[(i - 3) / 2] = 1 / fct;
      if (i >= 2 && i % 2 == 0 && (i - 2) / 2 < 10) cc[(i - 2) / 2] = 1 / fct;
    }
    uint32_t st = mul(v, mul(v, ax, z), horner(v, z, cs, 10));
    uint32_t ssh = add(v, ax, st), ssl = sub(v, st, sub(v, ssh, ax));
    uint32_t ct = mul(v, z, horner(v, z, cc, 10));
    uint32_t csh = add(v, K(v, 1), ct), csl = sub(v, ct, sub(v, csh, K(v, 1)));
    uint32_t big = gt(v, ax, K(v, 700));
    uint32_t xa = clampd(v, sel(v, big, sub(v, ax, K(v, 1)), ax), 0, 710);
    uint32_t kf2 = glsl(v, v->d, GLSLstd450RoundEven, mul(v, xa, K(v, LOG2E)));
    uint32_t eh, el;
    exp_dd(v, sub(v, xa, mul(v, kf2, K(v, LN2_HI))), neg(v, mul(v, kf2, K(v, LN2_LO))), &eh, &el);
    uint32_t e0 = add(v, eh, el); /* e^r = e0 + e0l, normalised; 2^k applied last */
    uint32_t e0l = sub(v, el, sub(v, e0, eh));
    uint32_t p2 = pow2(v, kf2);
    uint32_t Eh = mul(v, e0, p2), El = mul(v, e0l, p2);
    uint32_t inv = op2(v, SpvOpFDiv, v->d, K(v, 1), Eh);
    uint32_t half =
        mul(v, K(v, 0.5), add(v, Eh, which == F64_SINH ? sub(v, El, inv) : add(v, El, inv)));
    uint32_t hp, hpe;
    two_prod(v, e0, K(v, 0x1.5bf0a8b145769p+0), &hp, &hpe); /* e/2 = hi + lo */
    uint32_t huge = add(v, hp,
                        add(v, hpe,
                            add(v, mul(v, e0, K(v, 0x1.4d57ee2b1013ap-54)),
                                mul(v, e0l, K(v, 0x1.5bf0a8b145769p+0)))));
    huge = scale2(v, huge, kf2); /* 2^k alone may overflow here */
    half = sel(v, big, huge, half);
    half = sel(v, gt(v, ax, K(v, 711)), dinf(v), half);
    if (which == F64_TANH) {
      uint32_t e2 =
          call1(v, F64_EXPM1, v->d, sel(v, gt(v, ax, K(v, 20)), K(v, 40), add(v, ax, ax)));
      uint32_t t = sub(v, K(v, 1), op2(v, SpvOpFDiv, v->d, K(v, 2), add(v, e2, K(v, 2))));
      /* (ssh + ssl) / (csh + csl) corrected by the exact remainder. */
      uint32_t tq = dvd(v, ssh, csh), p, pe;
      two_prod(v, tq, csh, &p, &pe);
      uint32_t rem = sub(v, add(v, sub(v, sub(v, ssh, p), pe), ssl), mul(v, tq, csl));
      tq = add(v, tq, dvd(v, rem, csh));
      r = sel(v, lt(v, ax, K(v, 0.55)), tq, t);
      r = sel(v, gt(v, ax, K(v, 20)), K(v, 1), r);
    } else {
      uint32_t ser = which == F64_SINH ? add(v, ssh, ssl) : add(v, csh, csl);
      r = sel(v, lt(v, ax, K(v, 1)), ser, half);
    }
    if (which != F64_COSH) {
      r = sel(v, sign64(v, x), neg(v, r), r);
      r = sel(v, eq(v, x, K(v, 0)), x, r);
    }
    r = sel(v, nan, x, r);
    break;
  }
  case F64_CBRT: {
    /* Newton's y -= (y^3 - a) / 3y^2 from the bits' third, five steps (the error squares
     * from 15%), then one with y^3 - a from exact products, which leaves the rounding. */
    uint32_t ax = fabs_(v, x), special = or_(v, or_(v, eq(v, x, K(v, 0)), nan), isinf_(v, x));
    uint32_t sub_ = lt(v, ax, K(v, 0x1p-1022)), hugev = gt(v, ax, K(v, 0x1p900));
    uint32_t a = sel(v, special, K(v, 1), sel(v, sub_, mul(v, ax, K(v, 0x1p54)), ax));
    a = sel(v, hugev, mul(v, ax, K(v, 0x1p-900)), a); /* y^3 would overflow */
    uint32_t b = sg_opv(g, SpvOpBitcast, v->u64, 1, a);
    uint32_t y0 =
        op2(v, SpvOpIAdd, v->u64, op2(v, SpvOpUDiv, v->u64, b, spv_const_int(v->m, 64, 3)),
            spv_const_int(v->m, 64, 682ull << 52));
    uint32_t yy = sg_opv(g, SpvOpBitcast, v->d, 1, y0);
    for (int i = 0; i < 5; i++) {
      uint32_t y2 = mul(v, yy, yy);
      yy = sub(v, yy, op2(v, SpvOpFDiv, v->d, sub(v, mul(v, y2, yy), a), mul(v, K(v, 3), y2)));
    }
    uint32_t y2, y2e, y3, y3e;
    two_prod(v, yy, yy, &y2, &y2e);
    two_prod(v, y2, yy, &y3, &y3e);
    uint32_t res = add(v, sub(v, y3, a), add(v, y3e, mul(v, y2e, yy))); /* y^3 - a */
    yy = sub(v, yy, op2(v, SpvOpFDiv, v->d, res, mul(v, K(v, 3), y2)));
    yy = sel(v, sub_, mul(v, yy, K(v, 0x1p-18)), yy); /* cbrt(2^54) = 2^18 */
    yy = sel(v, hugev, mul(v, yy, K(v, 0x1p300)), yy);
    r = sel(v, sign64(v, x), neg(v, yy), yy);
    r = sel(v, special, x, r);
    break;
  }
  case F64_HYPOT: {
    /* sqrt of x^2 + y^2 in double-double (exact squares, TwoSum), scaled by a power of 2
     * that keeps them finite and normal: the square root of s + e is q + (s + e - q^2) / 2q
     * for q = sqrt(s), with q^2 exact. */
    uint32_t y = p2nd, ax = fabs_(v, x), ay = fabs_(v, y);
    uint32_t mx = sel(v, gt(v, ax, ay), ax, ay);
    uint32_t ek =
        sg_opv(g, SpvOpConvertSToF, v->d, 1, ilogb_d(v, sel(v, gt(v, mx, K(v, 0)), mx, K(v, 1))));
    uint32_t a = scale2(v, ax, neg(v, ek)), b = scale2(v, ay, neg(v, ek)), a2, a2e, b2, b2e, e1;
    two_prod(v, a, a, &a2, &a2e);
    two_prod(v, b, b, &b2, &b2e);
    uint32_t s0 = two_sum(v, a2, b2, &e1);
    uint32_t lo = add(v, e1, add(v, a2e, b2e));
    uint32_t sq = sg_vk_sqrt(g, kir_type_scalar(KT_F64), s0);
    uint32_t q2, q2e; /* one Newton step from sq on s + e: the exact residual over 2 sq */
    two_prod(v, sq, sq, &q2, &q2e);
    uint32_t res = add(v, sub(v, sub(v, s0, q2), q2e), lo);
    uint32_t rr = add(v, sq, dvd(v, res, add(v, sq, sq)));
    r = scale2(v, rr, ek);
    r = sel(v, eq(v, mx, K(v, 0)), K(v, 0), r);
    r = sel(v, or_(v, nan, isnan_(v, y)), dnan(v), r);
    r = sel(v, or_(v, isinf_(v, x), isinf_(v, y)), dinf(v), r);
    break;
  }
  case F64_ROUND: {
    /* Halves away from zero: trunc(|x| + 1/2) but where |x| + 1/2 rounds up (the largest
     * double below 1/2, and odd integers past 2^52); from 2^52 on |x| is an integer. */
    uint32_t ax = fabs_(v, x), t = glsl(v, v->d, GLSLstd450Trunc, ax);
    uint32_t rr = add(v, t, sel(v, lt(v, sub(v, ax, t), K(v, 0.5)), K(v, 0), K(v, 1)));
    rr = sel(v, lt(v, ax, K(v, 0x1p52)), rr, ax);
    r = sel(v, sign64(v, x), neg(v, rr), rr);
    r = sel(v, or_(v, nan, isinf_(v, x)), x, r);
    break;
  }
  case F64_ASINH:
  case F64_ATANH: {
    /* Below 1/2 the series (asinh's coefficients are asin's, alternating; atanh's 1/(2n+1));
     * above, asinh = log(|x| + sqrt(x^2 + 1)) with the argument in double-double and
     * log(2|x|) past 2^26, atanh = log1p(2|x| / (1 - |x|)) / 2 with the quotient in
     * double-double; each log's argument's low part by the slope. */
    uint32_t ax = fabs_(v, x), z = mul(v, ax, ax);
    double c[27], b = 1;
    for (int n = 1; n <= 27; n++) {
      b *= (2.0 * n - 1) / (2.0 * n);
      c[n - 1] = which == F64_ASINH ? (n % 2 ? -b : b) / (2 * n + 1) : 1.0 / (2 * n + 1);
    }
    uint32_t ser = add(v, ax, mul(v, mul(v, ax, z), horner(v, z, c, 27)));
    uint32_t big;
    if (which == F64_ASINH) {
      uint32_t zz, ze, e1, q2, q2e;
      two_prod(v, ax, ax, &zz, &ze);
      uint32_t sh = two_sum(v, zz, K(v, 1), &e1), sl = add(v, e1, ze); /* x^2 + 1 */
      uint32_t sq = sg_vk_sqrt(g, kir_type_scalar(KT_F64), sh);
      two_prod(v, sq, sq, &q2, &q2e);
      uint32_t sql = dvd(v, add(v, sub(v, sub(v, sh, q2), q2e), sl), add(v, sq, sq));
      uint32_t e2, wh = two_sum(v, ax, sq, &e2), wl = add(v, e2, sql);
      uint32_t lw = call1(v, F64_LOG, v->d, wh);
      uint32_t mid = add(v, lw, dvd(v, wl, wh));
      uint32_t far_ =
          call1(v, F64_LOG, v->d, sel(v, lt(v, ax, K(v, 0x1p1022)), add(v, ax, ax), ax));
      far_ = sel(v, lt(v, ax, K(v, 0x1p1022)), far_, add(v, far_, K(v, LN2)));
      big = not_(v, lt(v, ax, K(v, 0.5)));
      r = sel(v, big, sel(v, gt(v, ax, K(v, 0x1p26)), far_, mid), ser);
      r = sel(v, isinf_(v, ax), ax, r);
    } else {
      uint32_t den = sub(v, K(v, 1), ax), num = add(v, ax, ax), p, pe;
      uint32_t wh = dvd(v, num, den);
      two_prod(v, wh, den, &p, &pe);
      uint32_t wl = dvd(v, sub(v, sub(v, num, p), pe), sel(v, eq(v, den, K(v, 0)), K(v, 1), den));
      uint32_t lg = call1(v, F64_LOG1P, v->d, wh);
      uint32_t mid = mul(v, K(v, 0.5), add(v, lg, dvd(v, wl, add(v, K(v, 1), wh))));
      big = not_(v, lt(v, ax, K(v, 0.5)));
      r = sel(v, big, mid, ser);
      r = sel(v, eq(v, ax, K(v, 1)), dinf(v), r);
      r = sel(v, gt(v, ax, K(v, 1)), dnan(v), r);
    }
    r = sel(v, sign64(v, x), neg(v, r), r);
    r = sel(v, eq(v, x, K(v, 0)), x, r);
    r = sel(v, nan, x, r);
    break;
  }
  case F64_ACOSH: {
    /* log1p(t + sqrt(t (t + 2))) with t = x - 1 (exact) and the argument in double-double;
     * log(2x) past 2^26 (log x + ln 2 past 2^1022). */
    uint32_t t = sub(v, x, K(v, 1)), e1, zz, ze, q2, q2e;
    uint32_t t2h = two_sum(v, t, K(v, 2), &e1);
    two_prod(v, t, t2h, &zz, &ze);
    ze = add(v, ze, mul(v, t, e1)); /* t (t + 2) = zz + ze */
    uint32_t sq = sg_vk_sqrt(g, kir_type_scalar(KT_F64), zz);
    two_prod(v, sq, sq, &q2, &q2e);
    uint32_t sql = dvd(v, add(v, sub(v, sub(v, zz, q2), q2e), ze), add(v, sq, sq));
    uint32_t e2, wh = two_sum(v, t, sq, &e2), wl = add(v, e2, sql);
    uint32_t mid = add(v, call1(v, F64_LOG1P, v->d, wh), dvd(v, wl, add(v, K(v, 1), wh)));
    uint32_t fits = lt(v, x, K(v, 0x1p1022));
    uint32_t far_ = call1(v, F64_LOG, v->d, sel(v, fits, add(v, x, x), x));
    far_ = sel(v, fits, far_, add(v, far_, K(v, LN2)));
    r = sel(v, gt(v, x, K(v, 0x1p26)), far_, mid);
    r = sel(v, isinf_(v, x), x, r);
    r = sel(v, lt(v, x, K(v, 1)), dnan(v), r);
    r = sel(v, eq(v, x, K(v, 1)), K(v, 0), r);
    r = sel(v, nan, x, r);
    break;
  }
  case F64_FMOD: r = fmod64(v, x, p2nd); break;
  case F64_ERFS: r = erfs64(v, x); break;
  case F64_LGPOS: r = lgpos64(v, x); break;
  case F64_LGAMMA_DD: r = lgamma_dd64(v, x); break;
  case F64_LGAMMA:
  case F64_TGAMMA: r = gamma64(v, which, x); break;
  case F64_ERF:
  case F64_ERFC: {
    uint32_t ee = call1(v, F64_ERFS, v->d2, fabs_(v, x));
    uint32_t ef = sg_opv(g, SpvOpCompositeExtract, v->d, 2, ee, 0u);
    uint32_t ec = sg_opv(g, SpvOpCompositeExtract, v->d, 2, ee, 1u);
    if (which == F64_ERF) {
      r = sel(v, sign64(v, x), neg(v, ef), ef);
      r = sel(v, eq(v, x, K(v, 0)), x, r);
    } else {
      r = sel(v, sign64(v, x), sub(v, K(v, 2), ec), ec);
    }
    r = sel(v, nan, x, r);
    break;
  }
  case F64_TRIG: r = trig64(v, x); break;
  case F64_SIN:
  case F64_COS:
  case F64_TAN: {
    uint32_t sc = call1(v, F64_TRIG, v->d4, x), c4[4];
    for (uint32_t j = 0; j < 4; j++) c4[j] = sg_opv(g, SpvOpCompositeExtract, v->d, 2, sc, j);
    if (which == F64_SIN) {
      r = add(v, c4[0], c4[1]);
    } else if (which == F64_COS) {
      r = add(v, c4[2], c4[3]);
    } else {
      /* (sh + sl) / (ch + cl): the quotient t of the leading parts, corrected by the exact
       * remainder sh - t ch and the low parts. cos |x| is never 0 at a double x. */
      uint32_t t = op2(v, SpvOpFDiv, v->d, c4[0], c4[2]), p, pe;
      two_prod(v, t, c4[2], &p, &pe);
      uint32_t rem = sub(v, add(v, sub(v, sub(v, c4[0], p), pe), c4[1]), mul(v, t, c4[3]));
      r = add(v, t, op2(v, SpvOpFDiv, v->d, rem, c4[2]));
    }
    if (which != F64_COS) r = sel(v, sign64(v, x), neg(v, r), r);
    if (which != F64_COS) r = sel(v, eq(v, x, K(v, 0)), x, r);
    r = sel(v, or_(v, nan, isinf_(v, x)), dnan(v), r);
    break;
  }
  default: break;
  }
  end_fn(g, &s, &head, r);
}

/* The float functions: float arguments, a float result. */
static void def_float(VM *v, int which) {
  SG *g = v->g;
  Saved s;
  SpvWords head;
  static const char *names[F_COUNT] = {
      [F_EXP] = "kcc.expf",     [F_EXP2] = "kcc.exp2f",     [F_EXP10] = "kcc.exp10f",
      [F_EXPM1] = "kcc.expm1f", [F_LOG] = "kcc.logf",       [F_LOG2] = "kcc.log2f",
      [F_LOG10] = "kcc.log10f", [F_LOG1P] = "kcc.log1pf",   [F_SIN] = "kcc.sinf",
      [F_COS] = "kcc.cosf",     [F_TAN] = "kcc.tanf",       [F_ASIN] = "kcc.asinf",
      [F_ACOS] = "kcc.acosf",   [F_ATAN] = "kcc.atanf",     [F_ATAN2] = "kcc.atan2f",
      [F_SINH] = "kcc.sinhf",   [F_COSH] = "kcc.coshf",     [F_TANH] = "kcc.tanhf",
      [F_ASINH] = "kcc.asinhf", [F_ACOSH] = "kcc.acoshf",   [F_ATANH] = "kcc.atanhf",
      [F_POW] = "kcc.powf",     [F_CBRT] = "kcc.cbrtf",     [F_HYPOT] = "kcc.hypotf",
      [F_ROUND] = "kcc.roundf", [F_FMOD] = "kcc.fmodf",     [F_ERF] = "kcc.erff",
      [F_ERFC] = "kcc.erfcf",   [F_TGAMMA] = "kcc.tgammaf", [F_LGAMMA] = "kcc.lgammaf"};
  bool two = which == F_ATAN2 || which == F_POW || which == F_HYPOT || which == F_FMOD;
  uint32_t p[2], pt[2] = {v->f, v->f};
  begin_fn(g, &s, &head, which, names[which], v->f, two ? 2 : 1, pt, p);
  uint32_t x = p[0], xd = widen(v, x), ax = fabs_(v, xd), r = 0;
  uint32_t zero = eq(v, xd, K(v, 0)), nan = isnan_(v, xd), fr = 0; /* fr: a float result */
  switch (which) {
  case F_EXP: r = call1(v, F_EXP_D, v->d, xd); break;
  /* x ln 2 and x ln 10 round by 2^-53 of at most 150 (larger x give 0 or inf): 2^-45. */
  case F_EXP2: r = call1(v, F_EXP_D, v->d, mul(v, xd, K(v, LN2))); break;
  case F_EXP10: r = call1(v, F_EXP_D, v->d, mul(v, xd, K(v, LN10))); break;
  case F_EXPM1:
    r = call1(v, F_EXPM1_D, v->d, xd);
    fr = fsel(v, zero, x, narrow(v, r));
    break;
  case F_LOG: r = call1(v, F_LOG_D, v->d, xd); break;
  case F_LOG2: r = mul(v, call1(v, F_LOG_D, v->d, xd), K(v, LOG2E)); break;
  case F_LOG10: r = mul(v, call1(v, F_LOG_D, v->d, xd), K(v, 1 / LN10)); break;
  case F_LOG1P:
    r = call1(v, F_LOG1P_D, v->d, xd);
    fr = fsel(v, zero, x, narrow(v, r));
    break;
  case F_SIN:
  case F_COS:
  case F_TAN: {
    uint32_t sc = call1(v, F_TRIG, v->d2, x);
    uint32_t sn = sg_opv(g, SpvOpCompositeExtract, v->d, 2, sc, 0u);
    uint32_t cn = sg_opv(g, SpvOpCompositeExtract, v->d, 2, sc, 1u);
    /* cos |x| is never 0 at a float x (pi/2's multiples are irrational). */
    r = which == F_SIN ? sn : which == F_COS ? cn : op2(v, SpvOpFDiv, v->d, sn, cn);
    fr = narrow(v, r);
    if (which != F_COS)
      fr = sg_opv(g, SpvOpBitcast, v->f, 1,
                  op2(v, SpvOpBitwiseXor, v->u32, fbits(v, fr),
                      op2(v, SpvOpBitwiseAnd, v->u32, fbits(v, x), KI(v, 1u << 31))));
    if (which != F_COS) fr = fsel(v, zero, x, fr);
    fr = fsel(v, or_(v, nan, isinf_(v, xd)), fnan(v), fr);
    break;
  }
  case F_ASIN:
  case F_ACOS: {
    /* (1 - x)(1 + x) is exact in double for |x| >= 1/2, and rounds once below. */
    uint32_t c = sqrt_(v, mul(v, sub(v, K(v, 1), ax), add(v, K(v, 1), ax)));
    r = which == F_ASIN ? call2(v, F_ATAN2_D, v->d, xd, c) : call2(v, F_ATAN2_D, v->d, c, xd);
    fr = fsel(v, gt(v, ax, K(v, 1)), fnan(v), narrow(v, r));
    if (which == F_ASIN) fr = fsel(v, zero, x, fr);
    break;
  }
  case F_ATAN: r = call2(v, F_ATAN2_D, v->d, xd, K(v, 1)); break;
  case F_ATAN2: r = call2(v, F_ATAN2_D, v->d, xd, widen(v, p[1])); break;
  case F_SINH: {
    /* (E + E / (E + 1)) / 2 with E = e^|x| - 1: no cancellation near 0. */
    uint32_t e = call1(v, F_EXPM1_D, v->d, ax);
    r = mul(v, K(v, 0.5), add(v, e, op2(v, SpvOpFDiv, v->d, e, add(v, e, K(v, 1)))));
    fr = fsel(v, zero, x, with_sign(v, narrow(v, r), x));
    fr = fsel(v, nan, x, fr);
    break;
  }
  case F_COSH: {
    uint32_t e = call1(v, F_EXP_D, v->d, ax);
    r = add(v, mul(v, K(v, 0.5), e), op2(v, SpvOpFDiv, v->d, K(v, 0.5), e));
    break;
  }
  case F_TANH: {
    /* E / (E + 2) with E = e^(2|x|) - 1; 1 from |x| = 20 on (the rest is below 2^-57). */
    uint32_t a = sel(v, gt(v, ax, K(v, 20)), K(v, 20), ax);
    uint32_t e = call1(v, F_EXPM1_D, v->d, add(v, a, a));
    r = op2(v, SpvOpFDiv, v->d, e, add(v, e, K(v, 2)));
    fr = fsel(v, zero, x, with_sign(v, narrow(v, r), x));
    fr = fsel(v, nan, x, fr);
    break;
  }
  case F_ASINH: {
    /* log1p(|x| + x^2 / (1 + sqrt(1 + x^2))): x^2 is exact, and finite up to 2^256. */
    uint32_t x2 = mul(v, ax, ax);
    uint32_t t =
        add(v, ax, op2(v, SpvOpFDiv, v->d, x2, add(v, K(v, 1), sqrt_(v, add(v, K(v, 1), x2)))));
    r = call1(v, F_LOG1P_D, v->d, t);
    r = sel(v, isinf_(v, ax), ax, r);
    fr = fsel(v, zero, x, with_sign(v, narrow(v, r), x));
    fr = fsel(v, nan, x, fr);
    break;
  }
  case F_ACOSH: {
    /* log1p(t + sqrt(t (t + 2))) with t = x - 1, exact. */
    uint32_t t = sub(v, xd, K(v, 1));
    r = call1(v, F_LOG1P_D, v->d, add(v, t, sqrt_(v, mul(v, t, add(v, t, K(v, 2))))));
    r = sel(v, isinf_(v, xd), xd, r);
    r = sel(v, lt(v, xd, K(v, 1)), dnan(v), r);
    r = sel(v, nan, xd, r);
    break;
  }
  case F_ATANH: {
    /* log1p(2|x| / (1 - |x|)) / 2; inf at 1, NaN beyond. */
    uint32_t t = dvd(v, add(v, ax, ax), sub(v, K(v, 1), ax));
    r = mul(v, K(v, 0.5), call1(v, F_LOG1P_D, v->d, t));
    r = sel(v, eq(v, ax, K(v, 1)), dinf(v), r);
    fr = fsel(v, zero, x, with_sign(v, narrow(v, r), x));
    fr = fsel(v, or_(v, nan, gt(v, ax, K(v, 1))), fnan(v), fr);
    break;
  }
  case F_POW: {
    /* e^(y log |x|): log |x| is within 2^-52 of itself and |y log |x|| below 104 where the
     * result is finite and not 0, so the product is within 2^-45. Then C's cases: a negative
     * x with an odd integer y negates, with a non-integer y is NaN; y = 0 or x = 1 give 1,
     * as do x = -1 with y infinite. */
    uint32_t yd = widen(v, p[1]);
    uint32_t t = mul(v, yd, call1(v, F_LOG_D, v->d, ax));
    /* 0 * inf is NaN where the exponent is zero: overridden below. */
    r = call1(v, F_EXP_D, v->d, t);
    uint32_t fl = glsl(v, v->d, GLSLstd450Floor, yd), half = mul(v, yd, K(v, 0.5));
    uint32_t yint = eq(v, fl, yd);
    uint32_t yodd = and_(v, yint, not_(v, eq(v, glsl(v, v->d, GLSLstd450Floor, half), half)));
    fr = narrow(v, r);
    fr = fsel(v, and_(v, fsign(v, x), yodd), sg_opv(g, SpvOpFNegate, v->f, 1, fr), fr);
    uint32_t xfinite = not_(v, or_(v, nan, isinf_(v, xd)));
    fr = fsel(v, and_(v, and_(v, lt(v, xd, K(v, 0)), xfinite), not_(v, yint)), fnan(v), fr);
    uint32_t one = or_(v, eq(v, yd, K(v, 0)), eq(v, xd, K(v, 1)));
    one = or_(v, one, and_(v, eq(v, ax, K(v, 1)), isinf_(v, yd)));
    fr = fsel(v, one, fk(v, 1), fr);
    break;
  }
  case F_CBRT: {
    /* From the bits' third (the exponent's third, the mantissa roughly), five Newton steps
     * y -= (y^3 - a) / 3y^2: the error squares each time from at most 15%. */
    uint32_t a = sel(v, or_(v, zero, or_(v, nan, isinf_(v, ax))), K(v, 1), ax);
    uint32_t b = sg_opv(g, SpvOpBitcast, v->u64, 1, a);
    uint32_t y0 =
        op2(v, SpvOpIAdd, v->u64, op2(v, SpvOpUDiv, v->u64, b, spv_const_int(v->m, 64, 3)),
            spv_const_int(v->m, 64, 682ull << 52));
    uint32_t y = sg_opv(g, SpvOpBitcast, v->d, 1, y0);
    for (int i = 0; i < 5; i++) {
      uint32_t y2 = mul(v, y, y);
      y = sub(v, y, op2(v, SpvOpFDiv, v->d, sub(v, mul(v, y2, y), a), mul(v, K(v, 3), y2)));
    }
    fr = with_sign(v, narrow(v, y), x);
    fr = fsel(v, or_(v, zero, or_(v, nan, isinf_(v, ax))), x, fr);
    break;
  }
  case F_HYPOT: {
    /* The squares are exact and their sum within 2^-53: sqrt rounds to float once more. */
    uint32_t yd = widen(v, p[1]), ay = fabs_(v, yd);
    r = sqrt_(v, add(v, mul(v, ax, ax), mul(v, ay, ay)));
    r = sel(v, or_(v, isinf_(v, ax), isinf_(v, ay)), dinf(v), r);
    break;
  }
  case F_ROUND:
    /* Halves away from zero: |x| + 1/2 is exact in double. */
    r = glsl(v, v->d, GLSLstd450Trunc, add(v, ax, K(v, 0.5)));
    fr = fsel(v, or_(v, nan, isinf_(v, xd)), x, with_sign(v, narrow(v, r), x));
    break;
  case F_FMOD: {
    /* Exact: r = |x| loses multiples of s = |y| 2^k, k leaving r / s below 2^29 so that
     * q s (q = trunc(r / s), one too large at worst, then corrected) and r - q s are exact;
     * each step takes 27 exponents of the at most 277 between a float x and y. */
    uint32_t ay = fabs_(v, widen(v, p[1]));
    uint32_t ybits = ilogb_d(v, ay);
    r = ax;
    for (int i = 0; i < 11; i++) {
      uint32_t k =
          op2(v, SpvOpISub, v->i32, op2(v, SpvOpISub, v->i32, ilogb_d(v, r), ybits), KI(v, 27));
      k = sg_opv(g, SpvOpExtInst, v->i32, 4, v->glsl, (uint32_t)GLSLstd450SMax, k, KI(v, 0));
      uint32_t sc = mul(v, ay, pow2(v, sg_opv(g, SpvOpConvertSToF, v->d, 1, k)));
      uint32_t q = glsl(v, v->d, GLSLstd450Trunc, dvd(v, r, sc));
      uint32_t rn = sub(v, r, mul(v, q, sc));
      rn = sel(v, lt(v, rn, K(v, 0)), add(v, rn, sc), rn);
      r = sel(v, lt(v, r, ay), r, rn);
    }
    fr = with_sign(v, narrow(v, r), x);
    fr = fsel(v, isinf_(v, ay), x, fr);
    fr = fsel(v, or_(v, or_(v, nan, isnan_(v, ay)), or_(v, isinf_(v, xd), eq(v, ay, K(v, 0)))),
              fnan(v), fr);
    break;
  }
  case F_ERF:
  case F_ERFC: {
    /* Below 2.5, erf's Taylor series (2/sqrt pi) sum (-1)^n x^(2n+1) / (n! (2n + 1)) to
     * n = 39 (within 2^-52; erfc = 1 - erf keeps 2^-43 of erfc(2.5) = 4e-4); from 2.5 on,
     * erfc's continued fraction e^-x^2 / sqrt pi / (x + (1/2) / (x + (2/2) / (x + ...)))
     * to 40 terms (within 2^-52 there, better beyond). */
    double c[40], fct = 1;
    for (int i = 0; i < 40; i++) {
      if (i) fct *= i;
      c[i] = (i % 2 ? -1 : 1) / (fct * (2 * i + 1));
    }
    uint32_t e = mul(v, K(v, 0x1.20dd750429b6dp+0), mul(v, ax, horner(v, mul(v, ax, ax), c, 40)));
    uint32_t big = gt(v, ax, K(v, 2.5));
    uint32_t z = sel(v, big, ax, K(v, 2.5)); /* never a division by 0 on the unused side */
    uint32_t t = z;
    for (int i = 40; i >= 1; i--) t = add(v, z, op2(v, SpvOpFDiv, v->d, K(v, i / 2.0), t));
    uint32_t tail =
        op2(v, SpvOpFDiv, v->d,
            mul(v, call1(v, F_EXP_D, v->d, neg(v, mul(v, z, z))), K(v, 0x1.20dd750429b6dp-1)), t);
    uint32_t xneg = lt(v, xd, K(v, 0));
    if (which == F_ERF) {
      r = sel(v, big, sub(v, K(v, 1), tail), e);
      fr = fsel(v, zero, x, with_sign(v, narrow(v, r), x));
      fr = fsel(v, nan, x, fr);
    } else {
      uint32_t pos = sel(v, big, tail, sub(v, K(v, 1), e));
      uint32_t negv = sel(v, big, sub(v, K(v, 2), tail), add(v, K(v, 1), e));
      r = sel(v, xneg, negv, pos);
      r = sel(v, nan, xd, r);
    }
    break;
  }
  /* The double functions are within a few double ulps: rounding to float adds at most 2^-25
   * float ulps to the correct rounding's half. */
  case F_TGAMMA: r = call1(v, F64_TGAMMA, v->d, xd); break;
  case F_LGAMMA: r = call1(v, F64_LGAMMA, v->d, xd); break;
  default: break;
  }
  end_fn(g, &s, &head, fr ? fr : narrow(v, r));
}

static uint32_t fn(SG *g, int which) {
  if (g->vkmath[which]) return g->vkmath[which];
  VM v = vm_of(g);
  if (which <= F_ATAN2_D)
    def_double(&v, which);
  else if (which >= F64_LOG_PARTS)
    def_f64(&v, which);
  else if (which == F_TRIG)
    def_trig(&v);
  else
    def_float(&v, which);
  return g->vkmath[which];
}

static int fn_of(KBuiltin b) {
  switch (b) {
  case BI_EXP: return F_EXP;
  case BI_EXP2: return F_EXP2;
  case BI_EXP10: return F_EXP10;
  case BI_EXPM1: return F_EXPM1;
  case BI_LOG: return F_LOG;
  case BI_LOG2: return F_LOG2;
  case BI_LOG10: return F_LOG10;
  case BI_LOG1P: return F_LOG1P;
  case BI_SIN: return F_SIN;
  case BI_COS: return F_COS;
  case BI_TAN: return F_TAN;
  case BI_ASIN: return F_ASIN;
  case BI_ACOS: return F_ACOS;
  case BI_ATAN: return F_ATAN;
  case BI_ATAN2: return F_ATAN2;
  case BI_SINH: return F_SINH;
  case BI_COSH: return F_COSH;
  case BI_TANH: return F_TANH;
  case BI_ASINH: return F_ASINH;
  case BI_ACOSH: return F_ACOSH;
  case BI_ATANH: return F_ATANH;
  case BI_POW: return F_POW;
  case BI_CBRT: return F_CBRT;
  case BI_HYPOT: return F_HYPOT;
  case BI_ROUND: return F_ROUND;
  case BI_FMOD: return F_FMOD;
  case BI_ERF: return F_ERF;
  case BI_ERFC: return F_ERFC;
  case BI_TGAMMA: return F_TGAMMA;
  case BI_LGAMMA: return F_LGAMMA;
  case BI_COPYSIGN: return F_COUNT; /* bit operations in place, at every width */
  default: return -1;
  }
}

static int fn_of64(KBuiltin b) {
  switch (b) {
  case BI_EXP: return F64_EXP;
  case BI_EXP2: return F64_EXP2;
  case BI_EXP10: return F64_EXP10;
  case BI_EXPM1: return F64_EXPM1;
  case BI_LOG: return F64_LOG;
  case BI_LOG2: return F64_LOG2;
  case BI_LOG10: return F64_LOG10;
  case BI_LOG1P: return F64_LOG1P;
  case BI_SIN: return F64_SIN;
  case BI_COS: return F64_COS;
  case BI_TAN: return F64_TAN;
  case BI_POW: return F64_POW;
  case BI_ATAN2: return F64_ATAN2;
  case BI_ATAN: return F64_ATAN;
  case BI_ASIN: return F64_ASIN;
  case BI_ACOS: return F64_ACOS;
  case BI_SINH: return F64_SINH;
  case BI_COSH: return F64_COSH;
  case BI_TANH: return F64_TANH;
  case BI_CBRT: return F64_CBRT;
  case BI_HYPOT: return F64_HYPOT;
  case BI_ROUND: return F64_ROUND;
  case BI_ASINH: return F64_ASINH;
  case BI_ACOSH: return F64_ACOSH;
  case BI_ATANH: return F64_ATANH;
  case BI_FMOD: return F64_FMOD;
  case BI_ERF: return F64_ERF;
  case BI_ERFC: return F64_ERFC;
  case BI_TGAMMA: return F64_TGAMMA;
  case BI_LGAMMA: return F64_LGAMMA;
  case BI_COPYSIGN: return F_COUNT;
  default: return -1;
  }
}

bool sg_vk_math_has(KBuiltin b, bool f64) {
  return (f64 ? fn_of64(b) : fn_of(b)) >= 0;
}

uint32_t sg_vk_math(SG *g, KBuiltin b, const KType *t, const uint32_t *args, int nargs) {
  const KType *et0 = t->kind == KT_VEC ? t->base : t;
  bool f64 = et0->kind == KT_F64;
  int which = f64 ? fn_of64(b) : fn_of(b);
  if (which < 0 || which > F_COUNT) { /* sg_vk_glsl_inst asked sg_vk_math_has first */
    sg_error(g, g->loc, "internal compiler error: no Vulkan math function for '%s'",
             kir_builtin_info(b)->name);
    return spv_undef(&g->m, sg_type(g, t));
  }
  if (which == F_COUNT) { /* copysign: x's magnitude bits, y's sign bit */
    const KType *et = t->kind == KT_VEC ? t->base : t;
    int bits = sg_bits(et);
    KType *it = kir_type_scalar(bits == 64 ? KT_U64 : bits == 16 ? KT_U16 : KT_U32);
    if (t->kind == KT_VEC) it = kir_type_vec(it, (int)t->len);
    uint32_t ut = sg_type(g, it);
    uint64_t sb = 1ull << (bits - 1);
    uint32_t sign =
        sg_convert(g, spv_const_int(&g->m, 64, sb), kir_type_scalar(KT_U64), it, (KLoc){0});
    uint32_t mag =
        sg_convert(g, spv_const_int(&g->m, 64, sb - 1), kir_type_scalar(KT_U64), it, (KLoc){0});
    uint32_t xb = sg_opv(g, SpvOpBitcast, ut, 1, args[0]);
    uint32_t yb = sg_opv(g, SpvOpBitcast, ut, 1, args[1]);
    uint32_t r = sg_opv(g, SpvOpBitwiseOr, ut, 2, sg_opv(g, SpvOpBitwiseAnd, ut, 2, xb, mag),
                        sg_opv(g, SpvOpBitwiseAnd, ut, 2, yb, sign));
    return sg_opv(g, SpvOpBitcast, sg_type(g, t), 1, r);
  }
  uint32_t f = fn(g, which), ft = spv_type_float(&g->m, f64 ? 64 : 32);
  if (t->kind != KT_VEC) {
    uint32_t ops[3] = {f, args[0], nargs > 1 ? args[1] : 0};
    return sg_op(g, SpvOpFunctionCall, ft, nargs + 1, ops);
  }
  uint32_t c[16];
  for (uint32_t i = 0; i < (uint32_t)t->len && i < 16; i++) {
    uint32_t ops[3] = {f, 0, 0};
    for (int j = 0; j < nargs; j++)
      ops[j + 1] = sg_opv(g, SpvOpCompositeExtract, ft, 2, args[j], i);
    c[i] = sg_op(g, SpvOpFunctionCall, ft, nargs + 1, ops);
  }
  return sg_op(g, SpvOpCompositeConstruct, sg_type(g, t), (int)t->len, c);
}

void sg_vk_math_finish(SG *g) {
  spw_append(&g->m.sec[SPV_SEC_FUNCTION], g->vkmath_code.w, g->vkmath_code.n);
  spw_free(&g->vkmath_code);
}
