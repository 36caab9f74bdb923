"""Derivatives through recursion (son/grad/calls.py): forward mode calls each callee's
tangent function, which returns the value and its tangent, and ``son.grad`` of a
function that calls is one forward-mode run per float argnum.  Oracles: the analytic
derivative where there is one, central finite differences otherwise (hypothesis
inputs), the interpreter against the kernel, and the second derivative through a
gradient's own calls."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import finite_differences
from hypothesis import given, settings
from hypothesis import strategies as st
from test_module_calls import _quicksort

import son
from son.errors import SonError


def power(x: float, n: int):
    if n == 0:
        return 1.0
    h = power(x, n // 2)
    return h * h * (x if n % 2 else 1.0)


def _horner(c, x, i):  # a recursive helper over an array and a float
    if i == len(c):
        return 0.0
    return c[i] + x * _horner(c, x, i + 1)


def poly(c, x: float):
    return _horner(c, x, 0)


def scaled_poly(c, x: float, y: float):
    return _horner(c, x, 0) * y


def _chain(x, y, n):  # two floats carried through the recursion, swapped on the way
    if n <= 0:
        return x * y + math.sin(x)
    return _chain(y * 0.5 + 0.1, x, n - 1) + x


def chained(x: float, y: float, n: int):
    return _chain(x, y, n) * 2.0


def _sincos(x, n):  # a pair through the recursion: CallOut values and their tangents
    if n == 0:
        return math.sin(x), math.cos(x)
    s, c = _sincos(x / 2, n - 1)
    return 2 * s * c, c * c - s * s


def sin_plus_cos(x: float):
    s, c = _sincos(x, 4)
    return s + 2 * c


def ranked(a, w: float):  # sorts a copy in a recursive helper, weights its ranks
    b = a.copy()
    _quicksort(b, 0, len(b) - 1)
    s = 0.0
    for k in range(len(b)):
        s += b[k] * (k + w)
    return s


@pytest.mark.parametrize("interpret", [True, False], ids=["interpreter", "kernel"])
@settings(max_examples=25, deadline=None)
@given(x=st.floats(-2, 2), n=st.integers(0, 12))
def test_grad_of_a_self_recursive_function_is_the_analytic_derivative(interpret, x, n):
    got = son.grad(power, interpret=interpret)(x, n)
    want = n * x ** (n - 1) if n else 0.0
    assert got == pytest.approx(want, rel=1e-9, abs=1e-12)
    value, (g,) = son.value_and_grad(power, argnums=(0,), interpret=interpret)(x, n)
    assert value == pytest.approx(power(x, n), rel=1e-12, abs=1e-300) and g == got


@settings(max_examples=25, deadline=None)
@given(c=st.lists(st.floats(-3, 3), min_size=0, max_size=6), x=st.floats(-1.5, 1.5))
def test_grad_through_a_recursive_helper_over_an_array(c, x):
    c = np.array(c, dtype=np.float64)
    want = sum(k * c[k] * x ** (k - 1) for k in range(1, len(c)))
    assert son.grad(poly, argnums=1)(c, x) == pytest.approx(want, rel=1e-9, abs=1e-9)
    # with respect to the array, forward mode: the tangent along t is sum(t[k] x^k)
    t = np.linspace(0.5, 1.5, len(c))
    value, tangent = son.jvp(poly, argnums=0)((c, x), (t,))
    assert value == pytest.approx(poly(c, x), rel=1e-12, abs=1e-12)
    assert tangent == pytest.approx(sum(t[k] * x ** k for k in range(len(c))), rel=1e-9, abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(x=st.floats(-2, 2), y=st.floats(-2, 2), n=st.integers(0, 6))
def test_gradients_of_several_floats_through_calls_match_finite_differences(x, y, n):
    gx, gy = son.grad(chained, argnums=(0, 1))(x, y, n)
    assert gx == pytest.approx(finite_differences(chained, (x, y, n), 0), rel=1e-5, abs=1e-6)
    assert gy == pytest.approx(finite_differences(chained, (x, y, n), 1), rel=1e-5, abs=1e-6)
    assert son.grad(chained, argnums=(0, 1), interpret=True)(x, y, n) == pytest.approx((gx, gy), rel=1e-12)


@settings(max_examples=20, deadline=None)
@given(a=st.lists(st.floats(-10, 10), min_size=0, max_size=8, unique=True), w=st.floats(0, 2))
def test_tangents_follow_the_writes_of_a_recursive_sort(a, w):
    a = np.array(a, dtype=np.float64)
    t = np.arange(1.0, len(a) + 1)
    value, tangent = son.jvp(ranked, argnums=0)((a, w), (t,))
    order = np.argsort(a)
    assert value == pytest.approx(ranked(a, w), rel=1e-12, abs=1e-12)
    assert tangent == pytest.approx(sum(t[order[k]] * (k + w) for k in range(len(a))), rel=1e-12, abs=1e-12)
    # the rank weights' derivative: the sum of the sorted values
    assert son.grad(ranked, argnums=1)(a, w) == pytest.approx(float(np.sum(a)), rel=1e-12, abs=1e-9)


@settings(max_examples=15, deadline=None)
@given(x=st.floats(-2, 2), n=st.integers(0, 9))
def test_the_second_derivative_through_the_gradients_calls(x, n):
    got = son.grad(son.grad(power))(x, n)
    want = n * (n - 1) * x ** (n - 2) if n > 1 else 0.0
    assert got == pytest.approx(want, rel=1e-9, abs=1e-9)


def test_the_gradient_graph_calls_the_tangent_function_and_the_tangent_function_calls_itself():
    gf = son.grad(power)
    assert gf(1.5, 3) == pytest.approx(3 * 1.5 ** 2)
    g = gf.graph
    (tangent,) = g.callees()
    assert [t for _, t in tangent.params][-1] == son.nodes.FLOAT  # x, n, then x's tangent
    own = [c for c in tangent.nodes() if type(c).__name__ == "Call"]
    assert own and all(c.target is None for c in own)


def test_refusals_name_what_forward_mode_through_calls_cannot_take():
    c = np.array([1.0, 2.0])
    with pytest.raises(SonError, match="float parameters, not 'c'"):
        son.grad(poly, argnums=0)(c, 0.5)
    with pytest.raises(SonError, match="one argnum at a time"):
        son.grad(scaled_poly, argnums=(1, 2))(c, 0.5, 2.0)
    assert son.grad(scaled_poly, argnums=2)(c, 0.5, 2.0) == pytest.approx(poly(c, 0.5))


@settings(max_examples=20, deadline=None)
@given(x=st.floats(-3, 3))
def test_derivatives_through_a_recursion_that_returns_a_pair(x):
    assert son.grad(sin_plus_cos)(x) == pytest.approx(math.cos(x) - 2 * math.sin(x), rel=1e-9, abs=1e-9)
    assert son.grad(son.grad(sin_plus_cos))(x) == pytest.approx(-math.sin(x) - 2 * math.cos(x),
                                                                 rel=1e-8, abs=1e-8)
    (s, c), (ds, dc) = son.jvp(_sincos, argnums=0)((x, 3), (1.0,))
    assert (s, c) == pytest.approx((math.sin(x), math.cos(x)), rel=1e-9, abs=1e-12)
    assert (ds, dc) == pytest.approx((math.cos(x), -math.sin(x)), rel=1e-9, abs=1e-12)
