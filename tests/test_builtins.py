"""Numeric builtins (son/frontend/builtins.py): operator.*, math.degrees/radians, round,
math.isclose, math.pow, float("inf"), isinstance, divmod and tuples returned by inlined
functions.  CPython is the oracle in every stage: the
interpreter on each pipeline's graph and the kernel."""

from __future__ import annotations

import math
import operator

import numpy as np
import pytest
from conftest import check_every_stage, run_both, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.5, 1.5, 2.5, -2.5, -0.0, 1e300, 9.3e18, -9.3e18, 4503599627370497.0]))
INTS = st.one_of(st.integers(-5, 5), st.integers(-2**63, 2**63 - 1))


def operators_int(a, b):
    return (operator.add(a, b) - operator.mul(a, 3) + operator.floordiv(a, b) + operator.mod(b, a)
            + operator.neg(a) + operator.xor(a, b) + operator.lshift(a & 7, 2) + operator.not_(b)
            + operator.truth(a) + operator.index(b) + abs(operator.sub(a, b)) + operator.pos(True))


def operators_float(x, y):
    return operator.truediv(x, y) + operator.pow(abs(x), 0.5) + operator.abs(y) + operator.lt(x, y) \
        + operator.eq(x, y) + operator.ge(y, x)


def angles(x):
    return math.degrees(x) + 2.0 * math.radians(x)


def rounding(x):
    return round(x) + round(int(x > 0)) + round(3) + round(x, None)


def closeness(x, y):
    return (math.isclose(x, y) + 2 * math.isclose(x, y, rel_tol=0.25) + 4 * math.isclose(x, y, abs_tol=1.0)
            + 8 * math.isclose(x, y, rel_tol=0.0, abs_tol=0.0))


def tolerances(x, t):
    return math.isclose(x, 1.0, abs_tol=t)


def library_power(x, y):
    return math.pow(x, y) + math.pow(2, -1) + math.pow(x, 2)


def methods(x, n, b):
    return (x.is_integer() + (x * 2).conjugate() + n.real + n.imag + x.imag + b.real + b.conjugate()
            + (x + 1).is_integer() + n.conjugate() * 2)


def integer_functions(a, b, c):
    return (math.gcd(a, b) + math.gcd(a, b, c) + math.gcd() + math.gcd(a) + math.lcm(a & 4095, b & 4095)
            + a.bit_length() + math.isqrt(abs(b) & (2**62 - 1)) + math.factorial(c & 15) + math.lcm())


def norms(x, y, z):
    return math.hypot(x, y, z) + math.hypot() + math.hypot(y) + 2 * math.hypot(z, 1, x, y)


def modular_power(a, b, m):
    return pow(a, b, m) + pow(a, 3, 7) * 2


def float_parts(x, y, i):
    m, e = math.frexp(x)
    f, w = math.modf(y)
    return m, e, f, w, math.ldexp(y, i), math.nextafter(x, y), math.ldexp(m, e) == x


def digits(x, n):
    return (round(x, 2), round(x, -1), round(x, 0), round(x, ndigits=22), round(x, -22), round(x, 400),
            round(x, -400), round(n, -2), round(n, 3), round(n, -19), round(n, -18))


def digits_of_either(x, n, flag):
    y = x if flag else n  # an int or a float: decided at run time
    return round(y, 1), round(y, -1)


def gammas(x):
    return math.gamma(x), math.lgamma(x)


def cube_roots(x):
    return math.cbrt(x), math.cbrt(-x * 8.0), math.cbrt(3) * x


def combinatorics(n, k):
    return math.comb(n, k), math.perm(n, k), math.perm(n & 31), math.perm(n, None)


def ordered(a, b):
    if a < b:
        return a, b
    return b, a


def tuples(a, b):
    lo, hi = ordered(a, b)
    q, r = divmod(a, b)
    x, (y) = divmod(float(a), 2.5)
    return lo * 3 + hi + q * 7 + r + x + y


def returns_a_pair(a, b):
    return divmod(a, b)


def specials(x):
    return (x < float("inf")) + (x > float("-inf")) + (float("nan") != x) + math.copysign(1.0, float("-0.0"))


def kinds(x, n, flag):
    y = x if flag else n  # an int or a float: decided at run time
    return isinstance(x, float) + 2 * isinstance(n, float) + 4 * isinstance(y, float) \
        + 8 * isinstance(y, (float, np.ndarray))


def arrays(a, x):
    return isinstance(a, np.ndarray) + isinstance(x, np.ndarray) + isinstance(a[0], float)


#: decimals written with few digits, their halves at the digit, and values past 2**52 scaled
DECIMALS = st.one_of(
    FLOATS, st.integers(-10**7, 10**7).map(lambda i: i / 1000),
    st.tuples(st.integers(-10**6, 10**6), st.integers(0, 8)).map(lambda t: (t[0] + 0.5) / 10**t[1]),
    st.tuples(st.integers(-2**53, 2**53), st.integers(-30, 60)).map(lambda t: math.ldexp(t[0], -t[1])))

CASES = [
    (gammas, ["float"], st.tuples(st.one_of(
        FLOATS, st.floats(-205, 205), st.integers(-30, 30).map(lambda i: i + 1e-9),
        st.sampled_from([171.6, 171.7, 1e-21, -1e-21, 1e-320, 140.0, -140.5, 1e308, 5.524680040776729])))),
    (operators_int, ["int", "int"], st.tuples(INTS, INTS)),
    (operators_float, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (angles, ["float"], st.tuples(FLOATS)),
    (cube_roots, ["float"], st.tuples(FLOATS)),
    (rounding, ["float"], st.tuples(FLOATS)),
    (closeness, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (tolerances, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (specials, ["float"], st.tuples(FLOATS)),
    (library_power, ["float", "float"],
     st.tuples(FLOATS, st.one_of(FLOATS, st.sampled_from([-1.0, 0.5, 3.0])))),
    (kinds, ["float", "int", "bool"], st.tuples(FLOATS, INTS, st.booleans())),
    (methods, ["float", "int", "bool"], st.tuples(FLOATS, st.integers(-2**60, 2**60), st.booleans())),
    (integer_functions, ["int", "int", "int"], st.tuples(INTS, INTS, INTS)),
    (tuples, ["int", "int"], st.tuples(st.integers(-2**40, 2**40), st.integers(-2**40, 2**40))),
    (returns_a_pair, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (norms, ["float", "float", "float"],
     st.tuples(FLOATS, FLOATS,
               st.one_of(FLOATS, st.sampled_from([1e-310, 5e-324, 2.2250738585072014e-308])))),
    (modular_power, ["int", "int", "int"],
     st.tuples(INTS, st.one_of(st.integers(-40, 40), st.sampled_from([2**63 - 1, -2**63])), INTS)),
    (float_parts, ["float", "float", "int"],
     st.tuples(FLOATS, FLOATS,
               st.one_of(st.integers(-2200, 2200), st.sampled_from([-1074, -1075, 1023, 1024])))),
]


def _wrapped(fn, args):
    """CPython's outcome, or None where an int leaves int64 (son's ints wrap: DESIGN.md)."""
    want = run_python(fn, args)
    if want[0] == "ok" and want[1][0] == "int" and not -2**63 <= want[1][1] < 2**63:
        return None
    return want


def _int64(v):
    return (v + 2**63) % 2**64 - 2**63 if type(v) is int else v


def _wrapping(fn, args):
    """CPython's outcome with its int results taken modulo 2**64, as son's ints wrap."""
    return run_python(lambda *a: tuple(map(_int64, fn(*a))), args)


def test_digits_agree_with_cpython_modulo_int64():
    check_every_stage(digits, ["float", "int"], st.tuples(DECIMALS, INTS), expected=_wrapping)


def test_digits_of_an_int_or_a_float():
    check_every_stage(digits_of_either, ["float", "int", "bool"], st.tuples(DECIMALS, INTS, st.booleans()),
                      expected=_wrapping)


def digits_at(x, i, n):
    return round(x, n), round(i, n), round(i, -n), round(x, -n)


def _digits_at(fn, args):
    """CPython's (ints modulo 2**64), or son's refusal where a float is rounded at a
    digit whose power of ten is no exact float."""
    n = args[2]
    inexact = [k for k in (n, -n) if 22 < k <= 323 or -308 <= k < -22]
    return ("raise", NotImplementedError) if inexact else _wrapping(fn, args)


def test_digits_known_at_run_time_agree_with_cpython():
    """``round(x, n)`` with ``n`` an argument: the steps of a constant ``n``, the digit
    read when they run."""
    places = st.integers(-25, 25) | st.sampled_from([-400, 324, 323, -308, -309])
    check_every_stage(digits_at, ["float", "int", "int"], st.tuples(DECIMALS, INTS, places),
                      expected=_digits_at, max_examples=60)


def test_combinatorics_wrap_as_int64():
    check_every_stage(combinatorics, ["int", "int"],
                      st.tuples(st.integers(-3, 90), st.one_of(st.integers(-3, 95), st.integers(30, 60))),
                      max_examples=60, expected=_wrapping)


def _nonzero(fn):
    """operators_int divides by both operands: a zero is replaced by 1."""
    return (lambda args: (args[0] or 1, args[1] or 1)) if fn is operators_int else None


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, expected=_wrapped, adjust=_nonzero(fn))


def bump(a):
    a[0] += 1.0
    return a[0]


def operator_arguments_once(a):
    return operator.add(bump(a), 1.0) + operator.neg(bump(a)) + operator.truth(bump(a))


def test_an_operator_function_evaluates_each_argument_once():
    a, b = np.zeros(1), np.zeros(1)
    assert son.jit(operator_arguments_once)(a) == operator_arguments_once(b)
    assert a[0] == b[0] == 3.0  # each bump ran once


def test_isinstance_of_an_array():
    a = np.arange(3.0)
    assert son.jit(arrays)(a, 1.5) == arrays(a, 1.5) == 2


def test_attributes_of_values():
    def f(a, x):
        return a.ndim + a[1].real + x.imag + (x - 1.0).real

    a = np.arange(3.0)
    assert son.jit(f)(a, 2.5) == f(a, 2.5) == 3.5


@pytest.mark.parametrize("src, message", [
    ("def f(x: float):\n    return round(x, 30)\n", "round() with ndigits=30"),
    ("def f(x: float):\n    return round(x, 2.0)\n", "ndigits must be an int, not float"),
    ("def f(x: int):\n    return isinstance(x, int)\n", "isinstance() against int"),
    ("def f(x: float):\n    return float('one')\n", "could not convert string to float: 'one'"),
    ("def f(x: float):\n    return operator.add(x)\n", "operator.add() takes 2 positional arguments"),
    ("def f(n: int):\n    return n.is_integer()\n", "int has no method is_integer()"),
    ("def f(x: float):\n    return math.gcd(x, 2)\n", "math.gcd() takes ints, not float"),
    ("def f(x: float):\n    return math.isqrt(x)\n", "math.isqrt() takes ints, not float"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        son.parse_source("import math\nimport operator\n" + src, name="f")


def raising(n):
    return math.factorial(n) + math.isqrt(n)


def pair_gcd(a, b):
    return math.gcd(a, b)


def test_gcd_at_the_int64_edge():
    k = son.jit(pair_gcd)  # abs() before Euclid's loop wrapped -2**63: gcd(1, -2**63) was wrong
    for args in ((1, -2**63), (-2**63, 6), (2**63 - 1, -2**63), (-2**63, -2**62)):
        assert k(*args) == pair_gcd(*args)


def test_integer_functions_raise_as_cpython():
    k = son.jit(raising)
    assert k(10) == raising(10) == 3628803
    with pytest.raises(ValueError):
        raising(-1)
    with pytest.raises(ValueError):
        k(-1)


def test_round_half_to_even_and_its_errors():
    k = son.jit(rounding)
    assert [k(x) for x in (0.5, 1.5, 2.5, -2.5, 0.49999999999999994)] == \
        [rounding(x) for x in (0.5, 1.5, 2.5, -2.5, 0.49999999999999994)]
    with pytest.raises(ValueError):
        k(math.nan)
    with pytest.raises(OverflowError):
        k(math.inf)


def chained_attributes(x, n):
    return x.real.real + n.real.imag, x.conjugate().real, x.real.conjugate(), x.real.is_integer()


def test_an_attribute_of_a_locals_attribute_is_a_value():
    # seed 778 i11 and 29125 i8699: ``(v3.real).real`` and ``(x0.real).conjugate()`` were
    # refused as dotted global names
    g = son.parse(chained_attributes, argtypes=[float, int])
    for args in [(2.5, 3), (-0.0, -1), (math.nan, 0)]:
        want, got = run_both(chained_attributes, args, graph=g)
        assert want == got
