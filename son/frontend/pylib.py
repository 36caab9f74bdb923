"""CPython's integer functions of ``math`` and ``int.bit_length``, written in the Python
son compiles and inlined where they are called (``builtins.call_pylib``).

Each computes what CPython's C function computes, on son's int64 (DESIGN.md: a result
beyond int64 wraps around, as any int arithmetic does; ``gcd`` and ``isqrt`` never
leave int64 but for ``gcd(-2**63, 0)``), raising CPython's exceptions.  Their loops are
the graph's loops: SCCP and the kernels see through them like through user code.
Tested against CPython at the int64 edges (tests/test_builtins.py).  ``frexp``,
``ldexp``, ``modf``, ``nextafter``, ``range_len``, ``range_item``, ``pow3`` (``pow(a, b,
m)``), ``gamma``, ``lgamma`` and ``round_float`` are exact on son's int64 and floats,
tested against CPython in tests/test_builtins.py and tests/test_range_objects.py.
Complex arithmetic and ``cmath`` are in ``pycomplex.py``.
"""

import math
import sys

import numpy as np

from . import libm

_INT64_MIN = -9223372036854775808
_NAN = float("nan")
_INF = float("inf")


def gcd(a, b):
    while b:  # on the signed values: abs() first would wrap -2**63 (gcd(1, -2**63) is 1)
        a, b = b, a % b
    return abs(a)


def lcm(a, b):
    if a == 0 or b == 0:
        return 0
    return abs(a // gcd(a, b) * b)


def bit_length(n):
    if n == _INT64_MIN:
        return 64  # abs() would wrap back to it
    n = abs(n)
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


def isqrt(n):
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    if n == 0:
        return 0
    x = 1 << ((bit_length(n) + 1) // 2)  # at least sqrt(n): Newton's steps go down to it
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def factorial(n):
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def _odd_part(n):
    """(the odd part of n > 0, the exponent of 2 in n)"""
    t = 0
    while n & 1 == 0:
        n >>= 1
        t += 1
    return n, t


def comb(n, k):
    """The binomial coefficient modulo 2**64 (son's int64 wrap-around of CPython's exact
    one), with no division that is not exact: the product of the factors' odd parts
    times the inverse of the divisors' (odd, so invertible modulo 2**64), shifted by
    the factors' twos that the divisors' do not cancel."""
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    if k > n:
        return 0
    if n - k < k:
        k = n - k
    num, den, twos = 1, 1, 0
    for i in range(1, k + 1):
        a, s = _odd_part(n - k + i)
        b, t = _odd_part(i)
        num *= a
        den *= b
        twos += s - t
    inv = den  # Newton's iteration for the inverse modulo 2**64: 3, 6, 12, 24, 48, 96 bits
    for _ in range(5):
        inv = inv * (2 - den * inv)
    return 0 if twos >= 64 else (num * inv) << twos


def perm(n, k):
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")
    r = 1 if k <= n else 0
    i = 0
    while i < k and r != 0:  # a product of 64 even factors is 0 modulo 2**64: done
        r *= n - i
        i += 1
    return r


# -- float functions: CPython's math.frexp, ldexp, modf (special cases first, as
# Modules/mathmodule.c) and libm's nextafter, exactly, with scalings by powers of two
# (exact where no bound is crossed) and one rounding at most.

def frexp(x):
    x = float(x)
    if x == 0.0 or x != x or x - x != 0.0:  # zero, NaN, infinity: (x, 0)
        return x, 0
    m = -x if x < 0.0 else x
    e = 0
    while m >= 1.0:
        m *= 0.5
        e += 1
    while m < 0.5:
        m *= 2.0
        e -= 1
    return (-m if x < 0.0 else m), e


def ldexp(x, i):
    x = float(x)
    if x == 0.0 or x != x or x - x != 0.0:
        return x
    m, e = frexp(x)  # x = m * 2**e, 0.5 <= |m| < 1
    if i > 2200 or e + i > 1024:
        raise OverflowError("math range error")
    if i < -2200 or e + i < -1075:
        return m * 0.0  # below half the least subnormal: a zero of x's sign
    k = e + i
    if k >= -1021:  # a normal result: exact (2.0 ** 1024 overflows: two steps there)
        return m * 2.0 ** k if k <= 1023 else m * 2.0 ** (k - 1) * 2.0
    return m * 2.0 ** (k + 1074) * 5e-324  # a subnormal: one rounding, in the last product


def modf(x):
    x = float(x)
    if x != x:
        return x, x
    if x - x != 0.0:  # an infinity
        return (-0.0 if x < 0.0 else 0.0), x
    t = float(np.trunc(x))
    return math.copysign(x - t, x), t  # the difference is exact; its zero takes x's sign


def nextafter(x, y):
    x = float(x)
    y = float(y)
    if x != x or y != y:
        return x + y  # a NaN
    if x == y:
        return y
    if x == 0.0:
        return 5e-324 if y > 0.0 else -5e-324
    if x - x != 0.0:  # an infinity, toward y: the largest finite float
        return 1.7976931348623157e308 if x > 0.0 else -1.7976931348623157e308
    m, e = frexp(x)
    up = y > x
    away = up == (x > 0.0)
    u = 5e-324 if e - 53 < -1074 else 2.0 ** (e - 53)  # the spacing above |x|
    if not away and (m == 0.5 or m == -0.5) and e - 54 >= -1074:
        u *= 0.5  # just below a power of two the spacing halves
    r = x + u if up else x - u
    return math.copysign(r, x) if r == 0.0 else r  # from the least subnormal to a zero of x's sign


# -- range objects: CPython's compute_range_length and range item, on son's int64 bounds
# (the difference of two bounds may leave int64: it is split where it does).

_INT64_MAX = 9223372036854775807


def _range_length(start, stop, step):
    """(the length modulo 2**64, whether it is past int64)"""
    if step > 0:
        lo, hi = start, stop
    else:
        lo, hi = stop, start
    if hi <= lo:
        return 0, False
    d = hi - lo  # the true difference is in [1, 2**64 - 1]; it wraps below 0 past int64
    if step == _INT64_MIN:  # -step leaves int64: ceil(d / 2**63)
        return (1 if d > 0 or d == _INT64_MIN else 2), False
    s = step if step > 0 else -step
    if d > 0:
        return (d - 1) // s + 1, False
    if s == 1:  # a true difference past int64, one by one: the length is d itself
        return d, True
    # the true d - 1 is MAX + t with t = d - 1 - MAX in [0, MAX]: (MAX + t) // s, by parts
    t = d - 1 - _INT64_MAX
    a, b = _INT64_MAX // s, _INT64_MAX % s
    c, e = t // s, t % s
    q = a + c + (1 if b >= s - e else 0)
    return q + 1, q == _INT64_MAX


def range_len(start, stop, step):
    n, huge = _range_length(start, stop, step)
    if huge:
        raise OverflowError("Python int too large to convert to C ssize_t")
    return n


def range_item(start, stop, step, i):
    n, huge = _range_length(start, stop, step)
    if huge:  # every int64 index is inside; the products wrap, the element does not
        return start + (i + n if i < 0 else i) * step
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("range object index out of range")
    return start + i * step  # within the range: exact, though i * step may wrap


def slice_of(n, start, has_start, stop, has_stop, step):
    """``slice(start, stop, step).indices(n)`` as numpy reads a 1-D basic slice
    (CPython's PySlice_Unpack and PySlice_AdjustIndices): the first index and the
    number of elements; a bound that is absent (or None) takes its default."""
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < -_INT64_MAX:
        step = -_INT64_MAX  # PySlice_Unpack: -step must not overflow
    lower, upper = (-1, n - 1) if step < 0 else (0, n)
    start = _slice_index(n, start, lower, upper) if has_start else upper if step < 0 else lower
    stop = _slice_index(n, stop, lower, upper) if has_stop else lower if step < 0 else upper
    if step < 0:
        length = (start - stop - 1) // -step + 1 if stop < start else 0
    else:
        length = (stop - start - 1) // step + 1 if start < stop else 0
    return start, step, length


def range_contains(start, stop, step, x):
    """``x in range(start, stop, step)`` for an int ``x``: CPython's arithmetic test (O(1),
    not a scan); the distance from ``start`` is a 64-bit unsigned value, kept exact."""
    if step > 0:
        if x < start or x >= stop:
            return False
        return _umod(x - start, step) == 0
    if x > start or x <= stop:
        return False
    if step == _INT64_MIN:  # |step| is 2**63: the low 63 bits of the distance
        return (start - x) & _INT64_MAX == 0
    return _umod(start - x, -step) == 0


def _umod(d, m):
    """``d``'s 64 bits read unsigned, modulo ``m`` (0 < m < 2**63), without leaving int64."""
    if d >= 0:
        return d % m
    r63 = _addmod(_INT64_MAX % m, 1 % m, m)  # 2**63 % m
    return _addmod(d % m, _addmod(r63, r63, m), m)  # d + 2**64


def _slice_index(n, i, lower, upper):
    """A present slice bound: a negative one counted from the end, then clipped."""
    if i < 0:
        i += n
        return lower if i < lower else i
    return upper if i > upper else i


# -- pow(a, b, m): CPython's long_pow with a modulus, on son's int64 (products reduced
# without leaving int64: doubling and adding, each step below the modulus)

_INT64_MAXPOS = 9223372036854775807


def _addmod(a, b, m):
    return a - (m - b) if a >= m - b else a + b  # (a + b) % m for a, b in [0, m)


def _mulmod(a, b, m):
    r = 0
    while b > 0:
        if b & 1:
            r = _addmod(r, a, m)
        a = _addmod(a, a, m)
        b >>= 1
    return r


def _invmod(a, m):
    """The inverse of a (in [0, m)) modulo m (extended Euclid: every value within m)."""
    r0, r1, s0, s1 = m, a, 0, 1
    while r1 != 0:
        q = r0 // r1
        r0, r1 = r1, r0 - q * r1
        s0, s1 = s1, s0 - q * s1
    if r0 != 1:
        raise ValueError("base is not invertible for the given modulus")
    return s0 + m if s0 < 0 else s0


def _mulmod_any(a, b, m):
    """a * b modulo m, or modulo 2**63 for m == 0 (the wrapped product's low 63 bits)."""
    return (a * b) & _INT64_MAXPOS if m == 0 else _mulmod(a, b, m)


def pow3(a, b, m):
    if m == 0:
        raise ValueError("pow() 3rd argument cannot be 0")
    negative = m < 0
    if m == _INT64_MIN:  # |m| = 2**63 leaves int64: m = 0 below stands for it
        m = 0
        a &= _INT64_MAXPOS
    else:
        if negative:
            m = -m
        if m == 1:
            return 0
        a %= m
    if b < 0:
        if m != 0:
            a = _invmod(a, m)
        elif a & 1 == 0:
            raise ValueError("base is not invertible for the given modulus")
        else:
            x = a  # Newton's iteration for the inverse modulo 2**64: 3, 6, 12, 24, 48, 96 bits
            for _ in range(5):
                x = x * (2 - a * x)
            a = x & _INT64_MAXPOS
        b = -(b + 1)  # -b may leave int64: one factor more below
        r = a
    else:
        r = 1
    while b > 0:
        if b & 1:
            r = _mulmod_any(r, a, m)
        a = _mulmod_any(a, a, m)
        b >>= 1
    if not negative or r == 0:
        return r
    return r + _INT64_MIN if m == 0 else r - m


# -- math.hypot of any number of arguments: the running CPython's vector_norm on a tuple
# (the kernels' two-argument _hypot in son/exec/emit.py is the same algorithm)

_HYPOT_311 = sys.version_info < (3, 12)
_DBL_MIN = 2.2250738585072014e-308

def _square_into(a, b, csum, frac1, frac2):
    """csum + a*b with the product split exactly (Veltkamp, Dekker) and the sum
    compensated: the new (csum, frac1, frac2)."""
    t = a * 134217729.0  # 2**27 + 1
    ah = t - (t - a)
    al = a - ah
    t = b * 134217729.0
    bh = t - (t - b)
    bl = b - bh
    p = ah * bh
    q = ah * bl + al * bh
    z = p + q
    frac1 += p - z + q + al * bl
    s = csum + z
    frac2 += (csum - s) + z
    return s, frac1, frac2


def hypot_n(xs):
    """``math.hypot(*xs)`` as the running CPython computes it (vector_norm; the kernels'
    two-argument ``_hypot`` in son/exec/emit.py is the same): 3.10/3.11 sum each square
    in three parts and divide by a subnormal largest value; 3.12 and later sum an exact
    product and its low part, a subnormal largest value first scaled by 1/DBL_MIN."""
    big = 0.0
    nan = False
    for x in xs:
        x = math.fabs(x)
        nan = nan or x != x
        if x > big:
            big = x
    if big - big != 0.0 and big == big:  # an infinity wins over a NaN
        return big
    if nan:
        return _NAN
    if big == 0.0 or len(xs) <= 1:
        return big
    tiny = 1.0
    if frexp(big)[1] < -1023:  # 2**-e would overflow
        if _HYPOT_311:  # 3.10, 3.11: divide by the largest, one compensated sum
            csum, frac = 1.0, 0.0
            for x in xs:
                a = math.fabs(x) / big
                a *= a
                s = csum + a
                frac += (csum - s) + a
                csum = s
            return big * math.sqrt(csum - 1.0 + frac)
        tiny = _DBL_MIN  # 3.12 and later: scale by 1/DBL_MIN first
        big = big / tiny
    scale = 2.0 ** (-frexp(big)[1])
    if _HYPOT_311:
        csum, frac1, frac2, frac3 = 1.0, 0.0, 0.0, 0.0
        for x in xs:
            csum, frac1, frac2, frac3 = _split_square_into(math.fabs(x) / tiny * scale, 1.0, csum, frac1,
                                                           frac2, frac3)
        h = math.sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
        csum, frac1, frac2, frac3 = _split_square_into(h, -1.0, csum, frac1, frac2, frac3)
        return tiny * ((h + (csum - 1.0 + (frac1 + frac2 + frac3)) / (2.0 * h)) / scale)
    csum, frac1, frac2 = 1.0, 0.0, 0.0
    for x in xs:
        a = math.fabs(x) / tiny * scale
        csum, frac1, frac2 = _square_into(a, a, csum, frac1, frac2)
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    csum, frac1, frac2 = _square_into(-h, h, csum, frac1, frac2)
    h += (csum - 1.0 + (frac1 + frac2)) / (2.0 * h)
    return tiny * (h / scale)


def dist(p, q):
    """``math.dist(p, q)``: CPython's vector_norm of the coordinates' differences, which
    is ``math.hypot`` of them."""
    if len(p) != len(q):
        raise ValueError("both points must have the same number of dimensions")
    return hypot_n([float(x) - float(y) for x, y in zip(p, q)])


def _split_square_into(x, sign, csum, frac1, frac2, frac3):
    """CPython 3.10/3.11's step: ``sign * x*x`` added as hi*hi, 2*hi*lo and lo*lo (x split
    by Veltkamp), the first two compensated in ``frac1``/``frac2``; the last one goes into
    ``frac3`` (compensated too for the correction step, ``sign`` -1)."""
    t = x * 134217729.0
    hi = t - (t - x)
    lo = x - hi
    v = sign * (hi * hi)
    old = csum
    csum += v
    frac1 += (old - csum) + v
    v = sign * (2.0 * hi * lo)
    old = csum
    csum += v
    frac2 += (old - csum) + v
    if sign > 0.0:
        return csum, frac1, frac2, frac3 + lo * lo
    v = -(lo * lo)
    old = csum
    csum += v
    frac3 += (old - csum) + v
    return csum, frac1, frac2, frac3


# -- math.gamma and math.lgamma: CPython's own (mathmodule.c's m_tgamma and m_lgamma:
# Lanczos' approximation with N = 13 and Boost's g, the reflection formula below 0), not
# the platform's tgamma, which rounds differently.  libm's exp, pow, log, sin and cos.

_LANCZOS_G = 6.024680040776729583740234375
_LANCZOS_G_MINUS_HALF = 5.524680040776729583740234375
_LANCZOS_NUM = (23531376880.410759688572007674451636754734846804940,
                42919803642.649098768957899047001988850926355848959,
                35711959237.355668049440185451547166705960488635843,
                17921034426.037209699919755754458931112671403265390,
                6039542586.3520280050642916443072979210699388420708,
                1439720407.3117216736632230727949123939715485786772,
                248874557.86205415651146038641322942321632125127801,
                31426415.585400194380614231628318205362874684987640,
                2876370.6289353724412254090516208496135991145378768,
                186056.26539522349504029498971604569928220784236328,
                8071.6720023658162106380029022722506138218516325024,
                210.82427775157934587250973392071336271166969580291,
                2.5066282746310002701649081771338373386264310793408)
_LANCZOS_DEN = (0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0, 13339535.0,
                2637558.0, 357423.0, 32670.0, 1925.0, 66.0, 1.0)
_PI = 3.141592653589793
_LOG_PI = 1.1447298858494002


def _lanczos_sum(x):
    num, den = 0.0, 0.0
    if x < 5.0:  # Horner in x from the last coefficient
        for c, d in zip(_LANCZOS_NUM[::-1], _LANCZOS_DEN[::-1]):
            num = num * x + c
            den = den * x + d
    else:  # in 1/x from the first: no overflow for large x
        for c, d in zip(_LANCZOS_NUM, _LANCZOS_DEN):
            num = num / x + c
            den = den / x + d
    return num / den


def _sinpi(x):
    """sin(pi * x) for finite x, reduced to [0, 2) and to the nearest quarter turn."""
    y = math.fabs(x) % 2.0
    t = 2.0 * y
    n = int(t)
    if t - n >= 0.5:  # C's round(): half away from zero
        n += 1
    if n == 0:
        r = libm.sin(_PI * y)
    elif n == 1:
        r = libm.cos(_PI * (y - 0.5))
    elif n == 2:
        r = libm.sin(_PI * (1.0 - y))
    elif n == 3:
        r = -libm.cos(_PI * (y - 1.5))
    else:
        r = libm.sin(_PI * (y - 2.0))
    return math.copysign(1.0, x) * r


def gamma(x):
    x = float(x)
    if x - x != 0.0:  # NaN or an infinity
        if x != x or x > 0.0:
            return x
        raise ValueError("math domain error")
    if x == 0.0:
        raise ValueError("math domain error")
    if x == np.floor(x):
        if x < 0.0:
            raise ValueError("math domain error")
        if x <= 23.0:  # (x - 1)! as a float: every partial product is exact
            r = 1.0
            for i in range(2, int(x)):
                r *= i
            return r
    absx = math.fabs(x)
    if absx < 1e-20:
        r = 1.0 / x
        if r - r != 0.0:
            raise OverflowError("math range error")
        return r
    if absx > 200.0:
        if x < 0.0:
            return 0.0 / _sinpi(x)
        raise OverflowError("math range error")
    y = absx + _LANCZOS_G_MINUS_HALF
    if absx > _LANCZOS_G_MINUS_HALF:  # the rounding error of y, corrected for below
        z = (y - absx) - _LANCZOS_G_MINUS_HALF
    else:
        z = (y - _LANCZOS_G_MINUS_HALF) - absx
    z = z * _LANCZOS_G / y
    if x < 0.0:
        r = -_PI / _sinpi(absx) / absx * libm.exp(y) / _lanczos_sum(absx)
        r -= z * r
        if absx < 140.0:
            r /= libm.pow(y, absx - 0.5)
        else:
            sqrtpow = libm.pow(y, absx / 2.0 - 0.25)
            r /= sqrtpow
            r /= sqrtpow
    else:
        r = _lanczos_sum(absx) / libm.exp(y)
        r += z * r
        if absx < 140.0:
            r *= libm.pow(y, absx - 0.5)
        else:
            sqrtpow = libm.pow(y, absx / 2.0 - 0.25)
            r *= sqrtpow
            r *= sqrtpow
    if r - r != 0.0 and r == r:
        raise OverflowError("math range error")
    return r


def lgamma(x):
    x = float(x)
    if x - x != 0.0:
        return x if x != x else _INF
    if x == np.floor(x) and x <= 2.0:
        if x <= 0.0:
            raise ValueError("math domain error")
        return 0.0
    absx = math.fabs(x)
    if absx < 1e-20:
        return -libm.log(absx)
    r = libm.log(_lanczos_sum(absx)) - _LANCZOS_G
    r += (absx - 0.5) * (libm.log(absx + _LANCZOS_G - 0.5) - 1.0)
    if x < 0.0:  # the reflection formula
        r = _LOG_PI - libm.log(math.fabs(_sinpi(absx))) - libm.log(absx) - r
    if r - r != 0.0 and r == r:
        raise OverflowError("math range error")
    return r


# -- round(x, ndigits): CPython rounds the exact binary value half to even at the
# decimal digit (a correctly rounded decimal conversion), then reads the decimal back
# correctly rounded.  For |ndigits| <= 22, 10**|ndigits| is an exact float, and so is
# the quotient or product that scales x up to the digit, as hi + lo: the digit's
# rounding is rint(hi), moved by one where hi is halfway and lo says which side the
# exact value is on; the last division (multiplication) by the power is the one rounding.

def _two_product(a, b):
    """a * b exactly, as hi + lo (Veltkamp's split, Dekker's product)."""
    p = a * b
    t = a * 134217729.0
    ah = t - (t - a)
    al = a - ah
    t = b * 134217729.0
    bh = t - (t - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def round_float(x, n):
    """``round(x, n)`` of a float, for n in [-22, 22], n > 323 or n < -308."""
    x = float(x)
    if x != x or x - x != 0.0 or x == 0.0 or n > 323:
        return x
    if n < -308:
        return 0.0 * x
    p = 10.0 ** (n if n >= 0 else -n)
    if n >= 0:
        hi, lo = _two_product(x, p)
        if math.fabs(hi) >= 9007199254740992.0:  # 2**53: x has no digit there
            return x
        if math.fabs(hi) >= 4503599627370496.0:  # 2**52: hi is an integer, |lo| <= 0.5
            r = hi + math.copysign(1.0, lo) if math.fabs(lo) == 0.5 and hi % 2.0 != 0.0 else hi
        else:
            r = np.rint(hi)
            d = hi - r
            if d == 0.5 and lo > 0.0:
                r += 1.0
            elif d == -0.5 and lo < 0.0:
                r -= 1.0
        return r / p
    q = x / p
    if math.fabs(q) >= 9007199254740992.0:
        return x
    r = q
    if math.fabs(q) < 4503599627370496.0:  # above, q is the integer (no halfway float)
        r = np.rint(q)
        d = q - r
        if d == 0.5 or d == -0.5:
            hi, lo = _two_product(q, p)
            s = (x - hi) - lo  # the sign of x - q * p, exactly
            if d == 0.5 and s > 0.0:
                r += 1.0
            elif d == -0.5 and s < 0.0:
                r -= 1.0
    y = r * p
    if y - y != 0.0:
        raise OverflowError("rounded value too large to represent")
    return y


def round_int(x, n):
    """``round(x, n)`` of an int for n < 0: the nearest multiple of 10**-n, halves to
    the even multiple (modulo 2**64 past int64, as son's ints wrap)."""
    if n < -19:
        return 0
    if n == -19:  # 10**19 is past int64: 0 or +-10**19, wrapped
        if x > 5000000000000000000:
            return -8446744073709551616
        if x < -5000000000000000000:
            return 8446744073709551616
        return 0
    p = 10 ** (-n)
    q = x // p
    r = x - q * p
    if 2 * r > p or (2 * r == p and q % 2 == 1):
        q += 1
    return q * p


def round_number(x, n):
    """``round(x, n)`` of a value that is an int or a float, known at run time."""
    if isinstance(x, float):
        return round_float(x, n)
    return x if n >= 0 else round_int(x, n)


# -- math.ulp and math.remainder (mathmodule.c: math_ulp, m_remainder)

def ulp(x):
    """``math.ulp(x)``: the gap from ``|x|`` to the next float away from zero (towards
    zero at the largest finite float); NaN and infinities are themselves."""
    x = float(x)
    if x != x:
        return x
    x = math.fabs(x)
    if math.isinf(x):
        return x
    x2 = nextafter(x, _INF)
    if math.isinf(x2):
        return x - nextafter(x, -_INF)
    return x2 - x


def remainder(x, y):
    """``math.remainder(x, y)``: IEEE 754's remainder, ``x - n*y`` for the integer ``n``
    nearest ``x / y`` (halves to even), computed exactly as CPython does (``fmod`` and a
    comparison with the complement, never ``0.5 * |y|``); ValueError for a zero ``y`` or
    an infinite ``x`` (a NaN from no NaN)."""
    x = float(x)
    y = float(y)
    if math.isfinite(x) and math.isfinite(y):
        if y == 0.0:
            raise ValueError("math domain error")
        absx = math.fabs(x)
        absy = math.fabs(y)
        m = math.fmod(absx, absy)
        c = absy - m
        if m < c:
            r = m
        elif m > c:
            r = -c
        else:  # halfway: m if the multiple below is even, -m if odd
            r = m - 2.0 * math.fmod(0.5 * (absx - m), absy)
        return math.copysign(1.0, x) * r
    if x != x:
        return x
    if y != y:
        return y
    if math.isinf(x):
        raise ValueError("math domain error")
    return x


# -- math.fsum: CPython's msum (Shewchuk's non-overlapping partials), its specials and
# its final half-even correction across partials (mathmodule.c, math_fsum)

def fsum(xs):
    """``math.fsum(xs)`` as CPython computes it: the exactly rounded sum of the items as
    floats; an infinity or a NaN among them is summed apart (``-inf + inf`` is
    ValueError), an overflow of the finite partials OverflowError.  O(len(xs) * p) for
    p partials (at most about 40 for doubles)."""
    ps = [0.0] * 0
    n = 0
    special = 0.0
    inf_sum = 0.0
    for item in xs:
        x = float(item)
        xsave = x
        i = 0
        for j in range(n):
            y = ps[j]
            if math.fabs(x) < math.fabs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                ps[i] = lo
                i += 1
            x = hi
        n = i
        if x != 0.0:
            if not math.isfinite(x):
                if math.isfinite(xsave):
                    raise OverflowError("intermediate overflow in fsum")
                if math.isinf(xsave):
                    inf_sum += xsave
                special += xsave
                n = 0
            else:
                if n == len(ps):
                    ps.append(x)
                else:
                    ps[n] = x
                n += 1
    if special != 0.0:
        if inf_sum != inf_sum:
            raise ValueError("-inf + inf in fsum")
        return special
    hi = 0.0
    if n > 0:
        n -= 1
        hi = ps[n]
        lo = 0.0
        while n > 0:  # sum_exact from the top, until the sum becomes inexact
            x = hi
            n -= 1
            y = ps[n]
            hi = x + y
            lo = y - (hi - x)
            if lo != 0.0:
                break
        if n > 0 and ((lo < 0.0 and ps[n - 1] < 0.0) or (lo > 0.0 and ps[n - 1] > 0.0)):
            y = lo * 2.0  # half-even rounding across partials: sum([1e-16, 1, 1e16])
            x = hi + y
            if y == x - hi:
                hi = x
    return hi
