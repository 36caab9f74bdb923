"""CPython's integer functions of ``math`` and ``int.bit_length``, written in the Python
son compiles and inlined where they are called (``builtins.call_pylib``).

Each computes what CPython's C function computes, on son's int64 (DESIGN.md: a result
beyond int64 wraps around, as any int arithmetic does; ``gcd`` and ``isqrt`` never
leave int64 but for ``gcd(-2**63, 0)``), raising CPython's exceptions.  Their loops are
the graph's loops: SCCP and the kernels see through them like through user code.
Tested against CPython at the int64 edges (tests/test_builtins.py).  ``c_quot`` is
CPython's complex division, on the parts of the operands (son/frontend/complexes.py).
"""

_INT64_MIN = -9223372036854775808
_NAN = float("nan")


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
