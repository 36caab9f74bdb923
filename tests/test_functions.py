"""Functions as values (son/frontend/functions.py): global functions and builtins passed
and called through variables, nested ``def``s, lambdas and closures (capturing values),
``map`` and ``functools.reduce`` over tuples, a value that is one of several functions
(a selector), rebound in loops, and decorated helpers.  CPython is the oracle in every
stage: the interpreter on each pipeline's graph and the kernel; gradients through
function values agree with forward mode."""

from __future__ import annotations

import functools
import math

import numba
import numpy as np
import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 1.0, -2.5, math.inf, math.nan]))
SMALL = st.integers(-6, 12)


def square(x):
    return x * x


def twice(x):
    return 2.0 * x


def newton(f, df, x0, n):
    x = x0
    for _ in range(n):
        d = df(x)
        if d == 0.0:
            break
        x = x - (f(x) - 2.0) / d
    return x


def integrate(f, a, b, n):
    h = (b - a) / n
    s = 0.5 * (f(a) + f(b))
    for i in range(1, n):
        s += f(a + i * h)
    return s * h


def higher_order(x0, n):
    return newton(square, twice, x0, n & 15) + integrate(math.sin, 0.0, x0, 8)


def closures(a, b):
    k = 3.0
    g = lambda x: x * k + a  # noqa: E731 - a lambda bound to a name is what is tested

    def h(y, z=2):
        return g(y) * z + b

    return h(a) + g(b) + h(1.0, 3) + (lambda: k * b)()


def mapped(a, b, c):
    t = (a, b, c)
    s = functools.reduce(lambda u, v: u + v, map(lambda x: x * 2.0, t), 0.5)
    m = sum(map(abs, t)) + functools.reduce(max, t)
    pairs = tuple(map(lambda x, y: x - y, t, (c, b)))
    return s + m + pairs[0] + len(pairs)


def chosen(a, b, flag):
    f = math.sin if flag else math.cos
    k = b

    def shifted(x):
        return x + k

    g = shifted if a > b else square
    h = (lambda x: x * 3.0) if a < 0 else g
    return f(a) + g(b) + h(a) + h(b)


def rebound_in_loop(a, n):
    f = square
    s = 0.0
    for i in range(n):
        s += f(a + i)
        if s > 100.0:
            f = twice
        elif s < -5.0:
            f = abs
    return s


@numba.njit
def numba_helper(x):
    return x * 0.5 + 1.0


@son.jit
def son_helper(x):
    return x - 3.0


def decorated(a):
    return numba_helper(a) * son_helper(a)


def two_levels_in(x, y):
    a = y * 2.0

    def outer(z):
        def inner(w):
            return w * a + z  # a: the outermost function's local, read two levels in

        return inner(z) + (lambda v: (lambda u: u - a)(v))(x)

    return outer(x)


CASES = [
    (two_levels_in, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (higher_order, ["float", "int"], st.tuples(FLOATS, SMALL)),
    (closures, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (mapped, ["float", "float", "float"], st.tuples(FLOATS, FLOATS, FLOATS)),
    (chosen, ["float", "float", "bool"], st.tuples(FLOATS, FLOATS, st.booleans())),
    (rebound_in_loop, ["float", "int"], st.tuples(FLOATS, SMALL)),
    (decorated, ["float"], st.tuples(FLOATS)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy)


def through_a_lambda(x, y):
    f = lambda u: u * u * y  # noqa: E731
    g = square if x > 0 else twice
    return f(x) + g(y) + integrate(lambda t: t * x, 0.0, 1.0, 4)


def test_gradient_through_function_values():
    for p in [(1.5, -0.5), (-0.7, 2.0)]:
        g = son.grad(through_a_lambda, argnums=(0, 1))(*p)
        fwd = tuple(son.jvp(through_a_lambda)(p, d)[1] for d in ((1.0, 0.0), (0.0, 1.0)))
        assert g == pytest.approx(fwd, rel=1e-12)


def test_arrays_are_captured_by_reference():
    def scale(a, s):
        def put(i, v):
            a[i] = v * s

        for i in range(len(a)):
            put(i, a[i] + 1.0)
        return a[0]

    a, b = np.arange(4.0), np.arange(4.0)
    assert son.jit(scale)(a, 2.0) == scale(b, 2.0)
    assert a.tolist() == b.tolist()


@pytest.mark.parametrize("src, message", [
    ("def f(x: float):\n    k = 1.0\n    g = lambda y: y + k\n    k = 2.0\n    return g(x)\n",
     "binds more than once"),
    ("def f(x: float):\n    def g(y):\n        h = g\n        return h(y - 1.0)\n    return g(x)\n",
     "reads its own name"),
    ("def f(x: float):\n    return lambda y: y + x\n", "a function in the function's result"),
    ("def f(x: float):\n    k = x\n    return k(2.0)\n", "'k' is not a function"),
    ("def f(x: float):\n    def g(y, k=x):\n        return y\n    return g(x)\n", "not a literal"),
    ("def f(x: float):\n    g = lambda y: y + z\n    z = 1.0\n    return g(x)\n", "not bound where the"),
    ("def f(x: float, c: bool):\n    g = abs if c else 1.0\n    return g(x)\n", "conditional expression"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        son.parse_source(src, name="f")


def test_a_nested_function_s_locals_are_its_own():
    def f(x):
        def g(y):
            t = y * 2.0  # t is g's, not f's
            return t

        return g(x) + T

    assert son.jit(f)(1.5) == f(1.5)


T = 0.25
