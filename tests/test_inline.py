"""Calls kept as calls (``son.parse(f, inline=False)``, son/frontend/recursion.py
``kept_call``) and the ``inline`` pass (son/peephole/inline.py) that puts them back.

A helper of the user's module is then a ``Call`` of its own graph; the interpreter runs
it, the kernel calls its numba function, and the pass copies its body where the call
stands.  CPython is the oracle in every stage, on hypothesis inputs: the kept calls, the
inlined graph, both kernels, and the gradient."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import run_python, run_son
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.nodes import Call, Raise
from son.peephole.inline import inline_calls, recursive

KEPT = son.Pipeline.of("sccp", inline=False)
INLINED = son.Pipeline.of("inline,peephole,sccp", inline=False).but(peephole=True)
FLOATS = st.floats(-1e3, 1e3, allow_nan=False)


def _sq(x):
    return x * x


def _clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def poly(a: float, b: float):
    s = 0.0
    for i in range(4):
        s += _clamp(_sq(a - i), 0.0, b) + _sq(b)
    return s


def _checked_sqrt(x):
    if x < 0.0:
        raise ValueError("negative")
    return math.sqrt(x)


def raise_order(a: np.ndarray, x: float, i: int):
    """The helper's ValueError comes before the caller's IndexError after the call, and
    the caller's store before the call is seen by the helper's read."""
    a[0] = x
    r = _checked_sqrt(a[0])
    return r + a[i]


def _fill(a, v):
    for i in range(len(a)):
        a[i] = v * i
    return a[len(a) - 1]


def _total(a):
    s = 0.0
    for x in a:
        s += x
    return s


def effects(n: int, v: float):
    a = np.zeros(n)
    before = _total(a)
    last = _fill(a, v)
    return before + last + _total(a) + a[n // 2]


def _divmod_pair(a, b):
    return a // b, a % b


def pairs(a: int, b: int):
    q, r = _divmod_pair(a, b)
    return q * 1000 + r


def _big(x, k):
    y = x
    for i in range(k):
        y = y * 0.5 + math.sin(y + i) - math.cos(y * i) + math.tanh(y) * math.exp(-abs(y))
        if y > 10.0:
            y = y - 3.0
        elif y < -10.0:
            y = y + 3.0
        else:
            y = y * 1.5 - 0.25
    return y


def big_twice(x: float):
    return _big(x, 3) + _big(x + 1.0, 2)


def _cpx(x):
    return complex(x, 1.0)


def complex_helper(x: float):
    return abs(_cpx(x))


def _gcd(a, b):
    return a if b == 0 else _gcd(b, a % b)


def with_recursion(a: int, b: int):
    return _gcd(abs(a), abs(b)) + _sq(a)


CASES = [
    (poly, st.tuples(FLOATS, FLOATS)),
    (raise_order, st.tuples(st.just(np.zeros(3)), FLOATS, st.integers(-5, 5))),
    (effects, st.tuples(st.integers(-2, 8), FLOATS)),
    (pairs, st.tuples(st.integers(-10 ** 6, 10 ** 6), st.integers(-50, 50))),
    (big_twice, st.tuples(FLOATS)),
    (with_recursion, st.tuples(st.integers(-10 ** 4, 10 ** 4), st.integers(-10 ** 4, 10 ** 4))),
]


@pytest.mark.parametrize("fn,args", CASES, ids=[c[0].__name__ for c in CASES])
def test_kept_and_inlined_calls_agree_with_cpython(fn, args):
    kept = KEPT.build(fn)
    inlined = INLINED.build(fn)
    assert any(type(n) is Call for n in kept.nodes()), "the parse kept no call"
    kernels = {"kept": son.compile(kept), "inlined": son.compile(inlined)}

    @settings(max_examples=40, deadline=None)
    @given(args)
    def check(a):
        want = run_python(fn, a)
        assert run_son(kept, a) == want, "interpreter, calls kept"
        assert run_son(inlined, a) == want, "interpreter, calls inlined"
        for name, k in kernels.items():
            assert run_python(k, a) == want, f"kernel, calls {name}"

    check()


def test_the_parse_keeps_the_users_module_helpers_only():
    g = son.parse(poly, inline=False)
    assert sorted(c.name for c in g.callees()) == ["_clamp", "_sq"]
    # son's own helpers (the numpy functions written in Python) and the default: inlined
    assert not son.parse(poly).callees()
    # a helper that returns a complex number cannot be a graph's result: inlined
    assert not son.parse(complex_helper, inline=False).callees()
    assert son.interpret(son.parse(complex_helper, inline=False), 2.0) == complex_helper(2.0)


def _fail(x):
    if x > 9.0:
        raise ValueError("large")
    raise ArithmeticError("small")


def unpacks_a_helper_that_never_returns(x: float):
    if x > 5.0:
        a, b = _fail(x)
        return a + b
    return x


def test_a_helper_that_never_returns_is_inlined_where_the_caller_uses_its_result():
    """A call typed by no Return cannot say that the code after it is dead; the copy can
    (the caller unpacks a pair from it, which a kept call's number would not give)."""
    g = son.parse(unpacks_a_helper_that_never_returns, inline=False)
    assert not g.callees()
    for x in (1.0, 7.0):
        assert run_son(g, (x,)) == run_python(unpacks_a_helper_that_never_returns, (x,))


def test_nested_functions_and_lambdas_stay_inlined():
    def f(x: float):
        def g(y):
            return y * x

        h = lambda y: y + 1.0  # noqa: E731
        return g(h(x)) + _sq(x)

    g = son.parse(f, inline=False)
    assert [c.name for c in g.callees()] == ["_sq"]
    assert son.interpret(g, 3.0) == f(3.0)


def test_the_pass_inlines_small_and_single_callees_and_keeps_recursive_ones():
    g = son.parse(with_recursion, inline=False)
    targets = {c.name: c for c in g.callees()}
    assert recursive(targets["_gcd"]) and not recursive(targets["_sq"])
    stats = inline_calls(g)
    g.verify()
    assert stats == {"inlined": 1, "calls": 1}
    assert [c.name for c in g.callees()] == ["_gcd"]


def test_a_large_helper_called_twice_stays_a_call_unless_the_size_allows():
    g = son.parse(big_twice, inline=False)
    (big,) = g.callees()
    assert len(big) > 30
    assert inline_calls(g.copy(), size=len(big) - 1) == {"inlined": 0, "calls": 2}
    h = g.copy()
    assert inline_calls(h, size=len(big)) == {"inlined": 2, "calls": 0}
    h.verify()
    assert son.interpret(h, 0.3) == big_twice(0.3)


def test_a_helper_called_once_is_inlined_whatever_its_size():
    def once(x: float):
        return _big(x, 4) * 2.0

    g = son.parse(once, inline=False)
    assert inline_calls(g, size=1) == {"inlined": 1, "calls": 0}
    assert son.interpret(g, 0.7) == once(0.7)


def test_an_inlined_helpers_raise_joins_the_callers_stop():
    g = son.parse(raise_order, inline=False)
    inline_calls(g)
    g.verify()
    assert not g.callees()
    assert any(type(r) is Raise and r.exc is ValueError for r in g.stop.inputs)


def test_inlining_lets_the_callers_constants_fold_the_callee():
    """Interprocedural constant propagation: the copy sees the call's constant argument."""

    def f(x: float):
        return _clamp(x, 0.0, 1.0) + _clamp(5.0, 0.0, 1.0)

    kept = KEPT.build(f)
    inlined = INLINED.build(f)
    assert sum(type(n) is Call for n in kept.nodes()) == 2
    assert len(inlined) < len(kept) + len(kept.callees()[0])
    assert son.interpret(inlined, 0.5) == f(0.5) == 1.5


def test_a_pipeline_that_keeps_calls_compiles_and_differentiates():
    j = son.jit(poly, pipeline=KEPT)
    assert j(1.5, 2.0) == poly(1.5, 2.0)
    assert son.grad(poly, pipeline=KEPT)(1.5, 2.0) == pytest.approx(son.grad(poly)(1.5, 2.0))
    assert "inline=False" in repr(KEPT)
    assert KEPT.key() != son.Pipeline.of("sccp").key()


def _steps(x, k):
    for _ in range(k):
        x = x * 0.5 + 1.0
    return x


def constant_count(x: float, y: float):
    return _steps(x, 4) + _steps(y, 4)


def test_a_constant_every_call_passes_becomes_the_callees_constant():
    """Interprocedural constant propagation without inlining (``propagate_constant_arguments``):
    both calls pass k = 4, so the kept callee's loop runs to the constant 4."""
    g = KEPT.build(constant_count)
    (steps,) = g.callees()
    assert steps.param(1) is None  # k is read nowhere: it is 4 in the callee
    assert any(type(n).__name__ == "Constant" and n.type.con == 4 for n in steps.nodes())
    assert son.interpret(g, 1.5, -2.0) == constant_count(1.5, -2.0)
    assert son.jit(constant_count, pipeline=KEPT)(1.5, -2.0) == constant_count(1.5, -2.0)


def test_a_constant_a_nested_recursion_captures_folds_in_its_graph():
    def f(n: int):
        k = 3

        def fact(m):
            return k if m <= 1 else m * fact(m - 1)

        return fact(n) + fact(5)

    g = son.Pipeline.of("sccp").build(f)
    (fact,) = g.callees()
    assert fact.param(1) is None  # the captured k: 3 at both calls and passed on unchanged
    assert son.jit(f)(6) == f(6) == 2520


def test_different_constants_stay_a_parameter():
    def f(x: float):
        return _steps(x, 2) + _steps(x, 3)

    g = KEPT.build(f)
    (steps,) = g.callees()
    assert steps.param(1) is not None
    assert son.interpret(g, 0.25) == f(0.25)
