"""CPython's complex arithmetic and ``cmath`` functions on the parts of the operands,
written in the Python son compiles and inlined where they are used
(son/frontend/complexes.py): ``c_quot`` (``_Py_c_quot``), ``c_pow`` (``complex_pow``),
``c_sqrt``, ``c_exp``, ``c_log`` (``cmath.log`` with a base too), ``c_rect``, and the
hyperbolic functions ``c_sinh``, ``c_cosh``, ``c_tanh`` with the circular ones CPython
computes through them (``sin(z)`` is ``-i sinh(iz)``, ``cos(z)`` ``cosh(iz)``, ``tan(z)``
``-i tanh(iz)``).

Each is CPython's algorithm with libm's functions (``libm.py``: no Python exceptions)
and errno read as CPython reads it: EDOM a ValueError (for ``**`` a
ZeroDivisionError), ERANGE an OverflowError.  Where a part is infinite or NaN CPython
reads a table of special values (cmathmodule.c): those are written here as the rules
the tables follow, checked against CPython on every class of operands (-inf, negative,
-0.0, +0.0, positive, +inf, NaN) in tests/test_complex.py.
"""

import math

import numpy as np

from . import libm

_NAN = float("nan")
_INF = float("inf")
_PI = 3.141592653589793
_E = 2.718281828459045
_LN2 = 0.6931471805599453
_LN10 = 2.302585092994046
_DBL_MIN = 2.2250738585072014e-308
_LARGE = 4.49423283715579e+307  # DBL_MAX / 4
_LOG_LARGE = 708.3964185322641  # log(DBL_MAX / 4)


def _finite(x):
    return x - x == 0.0


def _inf(x):
    return x == x and x - x != 0.0


def c_quot(ar, ai, br, bi):
    """CPython's complex division (``_Py_c_quot``, Smith's algorithm) on the parts."""
    abs_br = -br if br < 0 else br
    abs_bi = -bi if bi < 0 else bi
    if abs_br >= abs_bi:
        if abs_br == 0.0:
            raise ZeroDivisionError("complex division by zero")
        ratio = bi / br
        denom = br + bi * ratio
        return (ar + ai * ratio) / denom, (ai - ar * ratio) / denom
    if abs_bi >= abs_br:
        ratio = br / bi
        denom = br * ratio + bi
        return (ar * ratio + ai) / denom, (ai * ratio - ar) / denom
    return _NAN, _NAN  # a NaN in the divisor


# -- complex ** : CPython 3.11's complex_pow on the parts: c_powi (binary powering, a
# quotient for a negative exponent) for an integral real exponent of magnitude at most
# 100, else _Py_c_pow (polar form, libm's hypot, pow, atan2, exp, log, cos, sin); then
# errno as CPython reads it: EDOM (a zero base to a negative or complex power, or libm's
# cos of an infinite phase) a ZeroDivisionError, an infinite part an OverflowError.

def c_pow(ar, ai, br, bi):
    if bi == 0.0 and br == np.floor(br) and math.fabs(br) <= 100.0:
        n = int(br)
        m = -n if n < 0 else n
        rr, ri, pr, pi, mask = 1.0, 0.0, ar, ai, 1
        while m >= mask:
            if m & mask:
                rr, ri = rr * pr - ri * pi, rr * pi + ri * pr
            mask <<= 1
            pr, pi = pr * pr - pi * pi, pr * pi + pi * pr
        if n <= 0:
            if rr == 0.0 and ri == 0.0:
                raise ZeroDivisionError("0.0 to a negative or complex power")
            rr, ri = c_quot(1.0, 0.0, rr, ri)
    elif ar == 0.0 and ai == 0.0:
        if bi != 0.0 or br < 0.0:
            raise ZeroDivisionError("0.0 to a negative or complex power")
        rr, ri = 0.0, 0.0
    else:
        vabs = np.hypot(ar, ai)
        length = libm.pow(vabs, br)
        at = libm.atan2(ai, ar)
        phase = at * br
        if bi != 0.0:
            d = libm.exp(at * bi)
            length = length / d if d != 0.0 else length * _INF  # C's division by +0.0
            phase += bi * libm.log(vabs)
        if phase - phase != 0.0 and phase == phase:  # cos(+-inf) sets EDOM
            raise ZeroDivisionError("0.0 to a negative or complex power")
        rr, ri = length * libm.cos(phase), length * libm.sin(phase)
    if (rr - rr != 0.0 and rr == rr) or (ri - ri != 0.0 and ri == ri):
        raise OverflowError("complex exponentiation")
    return rr, ri


def c_sqrt(re, im):
    if not (_finite(re) and _finite(im)):
        if _inf(im):
            return _INF, im
        if re == -_INF:
            return (_NAN, _INF) if im != im else (0.0, math.copysign(_INF, im))
        if re == _INF:
            return (_INF, _NAN) if im != im else (_INF, math.copysign(0.0, im))
        return _NAN, _NAN
    if re == 0.0 and im == 0.0:
        return 0.0, im
    ax = math.fabs(re)
    ay = math.fabs(im)
    if ax < _DBL_MIN and ay < _DBL_MIN:  # both subnormal: scale by 2**53 (exact), back by 2**-27
        ax *= 9007199254740992.0
        s = math.sqrt(ax + np.hypot(ax, ay * 9007199254740992.0)) * 7.450580596923828e-09
    else:
        ax /= 8.0
        s = 2.0 * math.sqrt(ax + np.hypot(ax, ay / 8.0))
    d = ay / (2.0 * s)
    if re >= 0.0:
        return s, math.copysign(d, im)
    return d, math.copysign(s, im)


def c_exp(re, im):
    if not (_finite(re) and _finite(im)):
        if _inf(im) and (_finite(re) or re == _INF):
            raise ValueError("math domain error")
        if _inf(re) and _finite(im) and im != 0.0:
            if re > 0.0:
                return math.copysign(_INF, libm.cos(im)), math.copysign(_INF, libm.sin(im))
            return math.copysign(0.0, libm.cos(im)), math.copysign(0.0, libm.sin(im))
        if re == -_INF:
            return 0.0, (im if im == 0.0 else 0.0)
        if im == 0.0:  # +inf or NaN with a zero: the zero kept
            return re, im
        return (_INF if re == _INF else _NAN), _NAN
    if re > _LOG_LARGE:
        t = libm.exp(re - 1.0)
        r, i = t * libm.cos(im) * _E, t * libm.sin(im) * _E
    else:
        t = libm.exp(re)
        r, i = t * libm.cos(im), t * libm.sin(im)
    if _inf(r) or _inf(i):
        raise OverflowError("math range error")
    return r, i


def _log(re, im):
    """``c_log``: (the logarithm, whether it set EDOM: the log of 0)."""
    if not (_finite(re) and _finite(im)):
        if re != re:
            return (_INF if _inf(im) else _NAN), _NAN, False
        if im != im:
            return (_INF if _inf(re) else _NAN), _NAN, False
        if _inf(re) and _inf(im):
            q = 0.7853981633974483 if re > 0.0 else 2.356194490192345
            return _INF, math.copysign(q, im), False
        if _inf(im):
            return _INF, math.copysign(1.5707963267948966, im), False
        return _INF, math.copysign(0.0 if re > 0.0 else _PI, im), False
    ax = math.fabs(re)
    ay = math.fabs(im)
    if ax > _LARGE or ay > _LARGE:
        r = libm.log(np.hypot(ax / 2.0, ay / 2.0)) + _LN2
    elif ax < _DBL_MIN and ay < _DBL_MIN:
        if ax > 0.0 or ay > 0.0:  # subnormal: scaled by 2**53
            r = libm.log(np.hypot(ax * 9007199254740992.0, ay * 9007199254740992.0)) - 53 * _LN2
        else:
            return -_INF, libm.atan2(im, re), True
    else:
        h = np.hypot(ax, ay)
        if 0.71 <= h and h <= 1.73:
            am = ax if ax > ay else ay
            an = ay if ax > ay else ax
            r = math.log1p((am - 1.0) * (am + 1.0) + an * an) / 2.0
        else:
            r = libm.log(h)
    return r, libm.atan2(im, re), False


def c_log(re, im):
    r, i, edom = _log(re, im)
    if edom:
        raise ValueError("math domain error")
    return r, i


def c_log_base(re, im, bre, bim):
    """``cmath.log(z, base)``: errno is the base's logarithm's (the first is
    overwritten) or the quotient's."""
    r, i, _ = _log(re, im)
    br, bi, edom = _log(bre, bim)
    if edom or (br == 0.0 and bi == 0.0):
        raise ValueError("math domain error")
    return c_quot(r, i, br, bi)


def c_log10(re, im):
    r, i = c_log(re, im)
    return r / _LN10, i / _LN10


def c_rect(r, phi):
    r = float(r)
    phi = float(phi)
    if not (_finite(r) and _finite(phi)):
        if r != 0.0 and r == r and _inf(phi):
            raise ValueError("math domain error")
        if _inf(r) and _finite(phi) and phi != 0.0:
            c = math.copysign(_INF, libm.cos(phi))
            s = math.copysign(_INF, libm.sin(phi))
            return (c, s) if r > 0.0 else (-c, -s)
        if r == 0.0:
            return 0.0, 0.0
        if phi == 0.0:  # an infinite or NaN r with a zero angle
            if r != r:
                return _NAN, 0.0
            return r, (phi if r > 0.0 else -phi)
        return (_INF if _inf(r) else _NAN), _NAN
    if phi == 0.0:
        return r, r * phi
    return r * libm.cos(phi), r * libm.sin(phi)


def c_sinh(re, im):
    if not (_finite(re) and _finite(im)):
        if _inf(im) and re == re:
            raise ValueError("math domain error")
        if _inf(re) and im != 0.0 and _finite(im):
            r = math.copysign(_INF, libm.cos(im))
            return (r if re > 0.0 else -r), math.copysign(_INF, libm.sin(im))
        if _inf(re):  # a zero or NaN imaginary part
            return (re, im) if im == 0.0 else (_INF, _NAN)
        if re == 0.0:  # and a NaN imaginary part
            return 0.0, _NAN
        return _NAN, (im if im == 0.0 else _NAN)
    return _hyperbolic(re, im, True)


def c_cosh(re, im):
    if not (_finite(re) and _finite(im)):
        if _inf(im) and re == re:
            raise ValueError("math domain error")
        if _inf(re) and im != 0.0 and _finite(im):
            i = math.copysign(_INF, libm.sin(im))
            return math.copysign(_INF, libm.cos(im)), (i if re > 0.0 else -i)
        if _inf(re):  # a zero or NaN imaginary part
            return _INF, ((im if re > 0.0 else -im) if im == 0.0 else _NAN)
        if re == 0.0 or im == 0.0:  # a NaN with a zero
            return _NAN, 0.0
        return _NAN, _NAN
    return _hyperbolic(re, im, False)


def _hyperbolic(re, im, odd):
    """``sinh`` (``odd``) or ``cosh`` of finite parts: ``cos(im)`` times the function of
    ``re``, ``sin(im)`` times the other, scaled by e from ``re - 1`` where the functions
    of ``re`` would overflow before the product (a factor of 1.0 is exact otherwise)."""
    x, scale = re, 1.0
    if math.fabs(re) > _LOG_LARGE:
        x, scale = re - math.copysign(1.0, re), _E
    sh, ch = libm.sinh(x), libm.cosh(x)
    r = libm.cos(im) * (sh if odd else ch) * scale
    i = libm.sin(im) * (ch if odd else sh) * scale
    if _inf(r) or _inf(i):
        raise OverflowError("math range error")
    return r, i


def c_tanh(re, im):
    if not (_finite(re) and _finite(im)):
        if _inf(im) and _finite(re):
            raise ValueError("math domain error")
        if _inf(re) and im != 0.0 and _finite(im):
            return math.copysign(1.0, re), math.copysign(0.0, 2.0 * libm.sin(im) * libm.cos(im))
        if _inf(re):
            return math.copysign(1.0, re), (im if im == 0.0 else 0.0)
        return _NAN, (im if im == 0.0 and re != re else _NAN)
    if math.fabs(re) > _LOG_LARGE:  # 1 - tanh(re)**2 as 4 exp(-2|re|): cosh(re) would overflow
        return math.copysign(1.0, re), 4.0 * libm.sin(im) * libm.cos(im) * libm.exp(-2.0 * math.fabs(re))
    tx = libm.tanh(re)
    ty = libm.tan(im)
    cx = 1.0 / libm.cosh(re)
    txty = tx * ty
    denom = 1.0 + txty * txty
    return tx * (1.0 + ty * ty) / denom, ((ty / denom) * cx) * cx


def c_sin(re, im):
    r, i = c_sinh(-im, re)
    return i, -r


def c_cos(re, im):
    return c_cosh(-im, re)


def c_tan(re, im):
    r, i = c_tanh(-im, re)
    return i, -r
