"""Float bounds (son/nodes/fbounds.py) and the math guards they fold.

Two properties against CPython on random expressions over two floats and an int,
drawn with values at the edges (signed zeros, infinities, NaN, huge and tiny):

- soundness: every non-NaN value CPython computes for the expression lies in the
  bounds ``float_bounds`` gives for the graph's returned node;
- the fold: ``math.<f>(expression)`` raises in son's interpreter exactly where it
  raises in CPython (a guard folded on wrong bounds would return an inf or a NaN).

Then the guards each well-known shape loses, and one that must stay, in the parsed
graph and through every pipeline and the kernel.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import pytest
from conftest import check_every_stage, function_from_text, run_python, run_son
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.nodes import MathError, Raise, Return, ir
from son.nodes.fbounds import float_bounds

FLOATS = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 709.0, 710.0, -710.0, 1e308, -1e308, 5e-324,
                     math.inf, -math.inf, math.nan]),
    st.floats(allow_nan=True, allow_infinity=True),
)
#: small enough that no expression of six leaves wraps int64 (son's ints wrap, CPython's grow)
INTS = st.one_of(st.sampled_from([0, 1, -1]), st.integers(-1000, 1000))
#: ints only through float(): ``e * e`` squares without a new leaf, so an int expression
#: could grow past int64, where son's ints wrap and CPython's do not (DESIGN.md)
LEAVES = st.sampled_from(["x", "y", "float(k)", "0.0", "1.0", "-2.5", "709.0", "(k / 7)"])


def _extend(inner):
    return st.one_of(
        st.tuples(st.sampled_from(["+", "-", "*", "/"]), inner, inner)
          .map(lambda t: f"({t[1]} {t[0]} {t[2]})"),
        inner.map(lambda e: f"(-{e})"),
        inner.map(lambda e: f"({e} * {e})"),
        inner.map(lambda e: f"({e} * -{e})"),
        st.sampled_from(["abs", "math.sqrt", "math.exp", "math.cos", "math.tanh", "float"])
          .flatmap(lambda fn: inner.map(lambda e: f"{fn}({e})")),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} < {t[2]} else {t[1]})"),
    )


EXPRS = st.recursive(LEAVES, _extend, max_leaves=6)
_DIR = Path(tempfile.mkdtemp(prefix="son-fbounds-"))


def _function(body: str):
    return function_from_text(_DIR, f"import math\n\n\ndef f(x, y, k):\n    return {body}\n")


def _returned(graph):
    (ret,) = [n for n in graph.nodes() if type(n) is Return]
    return ret.inputs[2]


@settings(max_examples=300, deadline=None)
@given(EXPRS, FLOATS, FLOATS, INTS)
def test_bounds_hold_every_value_cpython_computes(expr, x, y, k):
    f = _function(expr)
    outcome = run_python(f, [x, y, k])
    if outcome[0] != "ok" or not isinstance(outcome[1], float) or math.isnan(outcome[1]):
        return
    graph = son.parse(f, argtypes=[float, float, int])
    lo, hi = float_bounds(_returned(graph))
    assert lo <= outcome[1] <= hi, (expr, x, y, k, outcome[1], (lo, hi))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["sqrt", "exp", "log", "log1p", "cos", "asin", "acosh", "atanh", "sinh", "expm1"]),
       EXPRS, FLOATS, FLOATS, INTS)
def test_a_folded_guard_never_hides_cpythons_error(fn, expr, x, y, k):
    f = _function(f"math.{fn}({expr})")
    graph = son.parse(f, argtypes=[float, float, int])
    assert run_son(graph, [x, y, k]) == run_python(f, [x, y, k]), (fn, expr)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["sqrt", "log", "log1p", "acosh", "asin", "exp", "cos"]),
       st.sampled_from(["<", "<=", ">", ">=", "==", "!="]),
       st.sampled_from(["0.0", "-0.0", "1.0", "-1.0", "700.0", "1e-300", "math.inf", "math.nan"]),
       st.booleans(), st.sampled_from(["x", "x - 1.0", "x * x", "1.0 - x", "-x", "x + y"]),
       FLOATS, FLOATS)
def test_a_guard_folded_under_a_dominating_test_never_hides_cpythons_error(fn, op, c, negate, arg, x, y):
    test = f"not (x {op} {c})" if negate else f"x {op} {c}"
    f = _function(f"(-2.0 if {test} else math.{fn}({arg}))")
    g = _function_of(f"    if {test}:\n        return -2.0\n    return math.{fn}({arg})")
    for fun in (f, g):
        graph = son.parse(fun, argtypes=[float, float, int])
        assert run_son(graph, [x, y, 1]) == run_python(fun, [x, y, 1]), (fn, test, arg)


def _function_of(body: str):
    return function_from_text(_DIR, f"import math\n\n\ndef f(x, y, k):\n{body}\n")


def _guards(graph) -> int:
    return sum(type(n) is MathError for n in graph.nodes())


@pytest.mark.parametrize("body, guards", [
    ("math.exp(-x * x)", 0),             # -x*x <= 0 cannot overflow
    ("math.exp(-(x * x) / 2.0)", 0),
    ("math.exp(x)", 1),
    ("math.exp(math.cos(x) * 700.0)", 1),  # exp of at most 700 cannot overflow; the cos keeps its guard
    ("math.exp(math.cos(x) * 710.0)", 2),
    ("math.sqrt(x * x + y * y)", 0),     # no negative argument
    ("math.sqrt(x - y)", 1),
    ("math.log(1.0 + x * x)", 0),
    ("math.log(x * x)", 1),              # log(0.0) is a range error
    ("math.cos(k / 7)", 0),              # an int over a positive int is finite
    ("math.cos(x / 7)", 1),              # cos(inf) is a domain error
    ("math.sqrt(abs(x))", 0),
    ("math.asin(math.tanh(x))", 0),
    ("math.log(x) if x > 0.0 else 0.0", 0),          # the dominating test bounds x
    ("math.log(x) if x >= 0.0 else 0.0", 1),         # log(0.0) still raises
    ("math.sqrt(x - 1.0) if not x <= 1.0 else 0.0", 0),
    ("math.exp(x) if x < 700.0 else 0.0", 0),
    ("math.acosh(x + y) if x >= 1.0 else 0.0", 1),   # y is unknown
])
def test_guards_each_shape_keeps(tmp_path, body, guards):
    f = function_from_text(tmp_path, f"import math\n\n\ndef f(x, y, k):\n    return {body}\n")
    graph = son.parse(f, argtypes=[float, float, int])
    assert _guards(graph) == guards, ir(graph)
    if guards == 0:
        assert not any(type(n) is Raise for n in graph.nodes())


def test_folded_guards_agree_with_cpython_through_every_stage(tmp_path):
    f = function_from_text(tmp_path, """import math


def f(x, y, k):
    a = math.exp(-x * x) * math.sqrt(x * x + y * y)
    b = math.log1p(y * y) + math.cos(k / 3)
    return a + b + math.exp(x)
""")
    check_every_stage(f, [float, float, int], st.tuples(FLOATS, FLOATS, INTS).map(list), max_examples=30)
