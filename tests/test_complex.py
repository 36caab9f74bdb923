"""Complex numbers (son/frontend/complexes.py): CPython's arithmetic on the parts, its
division (Smith's algorithm), powers by constant integers, abs, comparisons, truth,
attributes, complex() and the cmath functions son has.  CPython is the oracle in every
stage: the interpreter on each pipeline's graph (the raw parse included) and the
kernel; gradients through complex code agree with forward mode."""

from __future__ import annotations

import cmath
import math

import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError
from son.frontend import pycomplex

PARTS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                  st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 2.5, 1e308, -1e308, 5e-324, math.inf,
                                   math.nan]))


def arithmetic(a, b, c, d):
    z, w = complex(a, b), complex(c, d)
    r = z * w - z / w + 2 * z - w * 0.5 + (1 - z) - 3j * z
    return r.real, r.imag


def division_edges(a, b, c, d):
    q = complex(a, b) / complex(c, d)
    return q.real, q.imag


def powers(a, b):
    z = complex(a, b)
    p = z ** 2 + z ** 3 - z ** -1 + z ** 0 + z ** 2.0 + z ** -2 + (z ** 7).conjugate()
    return p.real, p.imag


def general_powers(a, b, c, d, n):
    z, w = complex(a, b), complex(c, d)
    p = z ** w + z ** 0.5 + 2 ** w + z ** n + z ** (n + 0.25) + z ** complex(float(n), 0.0)
    return p.real, p.imag


def complex_results(a, b):
    z = complex(a, b)
    return z * z, (z.conjugate(), a)


def complex_parameter(z, a):
    w = z * a + cmath.sqrt(z)
    return w, abs(z) + a


def cmath_functions(a, b, c, d):
    z, w = complex(a, b), complex(c, d)
    r = (cmath.sqrt(z) + cmath.exp(w) - cmath.log(z) + cmath.log10(w) * 2 + cmath.rect(a, d)
         + cmath.log(z, w) + cmath.log(w, 2.0) + cmath.sqrt(a))
    return r.real, r.imag


def modulus_and_tests(a, b, c):
    z = complex(a, b)
    return (abs(z), z == c, z != complex(c, 0.0), z == complex(a, b), bool(z), -z == z,
            (+z).imag, cmath.phase(z), cmath.isnan(z), cmath.isinf(z), cmath.isfinite(z))


def polar_form(a, b):
    r, phi = cmath.polar(complex(a, b))
    return r * phi


def mixed_kinds(n, x, flag):
    z = complex(n, x) + n - x * 1j + flag
    w = complex(flag) * n + complex(x)
    return (z * w).real + (z == n) + (w == x) + (z - n).imag


def mandelbrot_point(cr, ci, maxiter):
    c = complex(cr, ci)
    z = 0j
    k = 0
    while k < maxiter and abs(z) <= 2.0:
        z = z * z + c
        k += 1
    return k


def carried(a, b, n):
    z = complex(a, b)
    acc = 0j
    for k in range(n):
        acc = acc * z + complex(k, -k)
        if abs(acc) > 1e3:
            acc = acc / 1e3
    return acc.real - acc.imag


def in_tuples_and_merges(a, b, flag):
    z = complex(a, b) if flag else complex(b, a)
    pair = (z, z.conjugate())
    u, v = pair
    return (u * v).real + (pair[0] - pair[1]).imag


def cmath_trigonometry(a, b, c, d):
    """The hyperbolic functions and the circular ones CPython computes through them, each
    its own result (an overflow or domain error of one is the outcome)."""
    z, w = complex(a, b), complex(c, d)
    return (cmath.sinh(z), cmath.cosh(w), cmath.tanh(z), cmath.sin(w), cmath.cos(z), cmath.tan(w),
            cmath.tanh(a))


CASES = [
    (arithmetic, ["float"] * 4, st.tuples(PARTS, PARTS, PARTS, PARTS)),
    (division_edges, ["float"] * 4,
     st.tuples(PARTS, PARTS, st.sampled_from([0.0, -0.0, 1.0, math.inf, math.nan, 3.0]),
               st.sampled_from([0.0, -0.0, 2.0, -math.inf, math.nan]))),
    (powers, ["float", "float"], st.tuples(PARTS, PARTS)),
    (complex_results, ["float", "float"], st.tuples(PARTS, PARTS)),
    (cmath_functions, ["float"] * 4, st.tuples(PARTS, PARTS, PARTS, PARTS)),
    (cmath_trigonometry, ["float"] * 4, st.tuples(PARTS, PARTS, PARTS, PARTS)),
    (complex_parameter, ["complex", "float"], st.tuples(st.builds(complex, PARTS, PARTS), PARTS)),
    (general_powers, ["float", "float", "float", "float", "int"],
     st.tuples(PARTS, PARTS, PARTS, PARTS,
               st.one_of(st.integers(-120, 120), st.sampled_from([-2**63, 2**63 - 1, 0, 100, 101])))),
    (modulus_and_tests, ["float", "float", "int"], st.tuples(PARTS, PARTS, st.integers(-3, 3))),
    (polar_form, ["float", "float"], st.tuples(PARTS, PARTS)),
    (mixed_kinds, ["int", "float", "bool"], st.tuples(st.integers(-5, 5), PARTS, st.booleans())),
    (mandelbrot_point, ["float", "float", "int"],
     st.tuples(st.floats(-2.5, 1.0), st.floats(-1.5, 1.5), st.integers(0, 60))),
    (carried, ["float", "float", "int"], st.tuples(PARTS, PARTS, st.integers(0, 12))),
    (in_tuples_and_merges, ["float", "float", "bool"], st.tuples(PARTS, PARTS, st.booleans())),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=60)


def test_gradient_through_complex_arithmetic():
    def f(x, y):
        z = complex(x, y)
        w = z * z / (1 + z)
        return abs(w) + w.imag

    g = son.grad(f, argnums=(0, 1))(0.7, -1.3)
    fwd = (son.jvp(f)((0.7, -1.3), (1.0, 0.0))[1], son.jvp(f)((0.7, -1.3), (0.0, 1.0))[1])
    assert g == pytest.approx(fwd, rel=1e-12)
    h = 1e-7  # and the derivative is the real one: finite differences
    fd = (f(0.7 + h, -1.3) - f(0.7 - h, -1.3)) / (2 * h)
    assert g[0] == pytest.approx(fd, rel=1e-6)


@pytest.mark.parametrize("src, message", [
    ("def f(x: float):\n    return complex(x, 1.0) < 1\n", "not supported between complex numbers"),
    ("def f(x: float):\n    return (complex(x, 1.0) // 2).real\n", "floor or mod of a complex"),
    ("def f(x: float):\n    return math.sin(complex(x, 1.0))\n", "takes numbers, not a complex number"),
    ("def f(x: float):\n    return complex('1+2j').real\n", "complex() of a string"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        son.parse_source("import math\n" + src, name="f")


#: operands of every class CPython's special-value tables tell apart, and ordinary ones
CLASSES = [-math.inf, -1e300, -3.5, -1.0, -1e-310, -5e-324, -0.0, 0.0, 5e-324, 1e-310, 0.71, 1.0, 1.73, 2.5,
           708.4, 710.0, 1e300, 1e308, math.inf, math.nan]


def _same(a, b) -> bool:
    if isinstance(a, complex) and isinstance(b, complex):
        return all((x == y and math.copysign(1, x) == math.copysign(1, y)) or (x != x and y != y)
                   for x, y in ((a.real, b.real), (a.imag, b.imag)))
    return a == b


def _outcome(f, *args):
    try:
        r = f(*args)
    except (ValueError, OverflowError, ZeroDivisionError) as e:
        return type(e)
    return complex(*r) if isinstance(r, tuple) else r


@pytest.mark.parametrize("ref, mine, nargs", [
    (cmath.sqrt, pycomplex.c_sqrt, 1), (cmath.exp, pycomplex.c_exp, 1),
    (cmath.log, pycomplex.c_log, 1), (cmath.log10, pycomplex.c_log10, 1),
    (cmath.rect, pycomplex.c_rect, 0), (cmath.log, pycomplex.c_log_base, 2),
    *[(getattr(cmath, n), getattr(pycomplex, "c_" + n), 1)
      for n in ("sinh", "cosh", "tanh", "sin", "cos", "tan")],
], ids=["sqrt", "exp", "log", "log10", "rect", "log_base", "sinh", "cosh", "tanh", "sin", "cos", "tan"])
def test_cmath_in_python_is_cpython_s_on_every_class_of_operands(ref, mine, nargs):
    """pycomplex's rules for the special-value tables and its algorithms, run by CPython:
    every pair of parts from CLASSES (for a base: a sample of pairs of pairs)."""
    grid = [(a, b) for a in CLASSES for b in CLASSES]
    if nargs == 2:
        cases = [(*z, *w) for z, w in zip(grid, grid[7::3] + grid[:7:3])]
        cases += [(*z, 0.0, 0.0) for z in grid[::5]] + [(*z, 1.0, 0.0) for z in grid[::5]]
        want = [_outcome(ref, complex(a, b), complex(c, d)) for a, b, c, d in cases]
    elif nargs == 1:
        cases = grid
        want = [_outcome(ref, complex(a, b)) for a, b in cases]
    else:
        cases = grid
        want = [_outcome(ref, a, b) for a, b in cases]
    got = [_outcome(mine, *c) for c in cases]
    bad = [(c, w, g) for c, w, g in zip(cases, want, got) if not _same(w, g)]
    assert not bad, bad[:5]
