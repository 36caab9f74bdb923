"""Recursive helpers (son/frontend/recursion.py ``separate_call``): a helper that calls
itself is parsed into a graph of its own, once per kinds of its arguments, and the
caller holds a ``Call`` whose ``target`` is that graph (``Graph.callees``: the module).
The interpreter runs the callee's graph, a kernel calls the callee's function, written
into the same module.  CPython is the oracle in every stage, on hypothesis inputs."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, function_from_text
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError
from son.nodes import Call


def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


def lcm_of(a):
    r = 1
    for x in a:
        g = gcd(r, x)
        r = r * x // g if g else 0
    return r


def _is_even(n):
    return True if n == 0 else _is_odd(n - 1)


def _is_odd(n):
    return False if n == 0 else _is_even(n - 1)


def count_even(n: int):
    c = 0
    for i in range(n):
        if _is_even(i):
            c += 1
    return c


def _ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return _ack(m - 1, 1)
    return _ack(m - 1, _ack(m, n - 1))


def twice_ackermann(m: int, n: int):
    return 2 * _ack(m, n)


def _rsum(a, lo, hi):
    if hi - lo == 1:
        return a[lo]
    mid = (lo + hi) // 2
    return _rsum(a, lo, mid) + _rsum(a, mid, hi)


def pairwise_total(a):
    return 0.0 if len(a) == 0 else _rsum(a, 0, len(a))


def _bsearch(a, x, lo=0, hi=None):  # hi=None: a graph where hi is None, one where it is an int
    if hi is None:
        hi = len(a)
    if lo >= hi:
        return -1
    mid = (lo + hi) // 2
    if a[mid] == x:
        return mid
    if a[mid] < x:
        return _bsearch(a, x, mid + 1, hi)
    return _bsearch(a, x, lo, mid)


def found(a, xs):
    n = 0
    for x in xs:
        n += _bsearch(a, x) >= 0
    return n


def _power(x, n):
    if n == 0:
        return 1.0
    h = _power(x, n // 2)
    return h * h * x if n % 2 else h * h


def _fact(n):
    return 1 if n <= 1 else n * _fact(n - 1)


def mixed_signatures(x: float, n: int):  # _power for (float, int) and for (int, int)
    return _power(x, n) + _power(2, n) + _fact(n % 15)


def _quicksort(a, lo, hi):
    if lo >= hi:
        return
    p = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] < p:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    _quicksort(a, lo, i - 1)
    _quicksort(a, i + 1, hi)


def sorted_copy(a):
    b = a.copy()
    _quicksort(b, 0, len(b) - 1)
    return b


def _halve(n):  # recursion into a second signature of itself: int, then float
    return 0.0 if n <= 0 else 1.0 + _halve(n - 0.5)


def steps(n: int):
    return _halve(n)


def _down(n):
    return 0 if n <= 0 else 1 + _down(n - 1)


def deep_helper(n: int):
    return _down(n)


def _fill(a, i):  # an int or a float stored (a value with a run-time tag inside the callee)
    if i >= len(a):
        return
    a[i] = a[i - 1] * 2 if i > 0 else 1
    _fill(a, i + 1)


def doubling(n: int):
    a = np.zeros(n)
    _fill(a, 0)
    return a.sum()


def _fib_pair(n):  # a flat tuple result: the call's values are read by CallOut nodes
    if n == 0:
        return 0, 1
    a, b = _fib_pair(n // 2)
    c = a * (2 * b - a)
    d = a * a + b * b
    if n % 2 == 0:
        return c, d
    return d, c + d


def fast_fib(n: int):
    return _fib_pair(n)[0]


def _minmax(a, lo, hi):
    if hi - lo == 1:
        return a[lo], a[lo]
    mid = (lo + hi) // 2
    l0, l1 = _minmax(a, lo, mid)
    r0, r1 = _minmax(a, mid, hi)
    return min(l0, r0), max(l1, r1)


def spread(a):
    if len(a) == 0:
        return 0.0
    lo, hi = _minmax(a, 0, len(a))
    return hi - lo


def divide(n: int, d: int):  # the compiled function itself returns a pair and calls itself
    if n < d:
        return 0, n
    q, r = divide(n - d, d)
    return q + 1, r


def nested_fact(n: int, k: int):  # a nested function that calls itself, over a parameter
    def fact(m):
        if m <= 1:
            return k
        return m * fact(m - 1)

    return fact(n % 20) + fact(3)


def nested_halves(a, lo: int):  # over an array, called through a helper that takes a function
    hi = len(a)

    def half_sum(i, j, depth=0):
        if j - i <= 1:
            return a[i] * (depth + 1) if j > i else 0.0
        m = (i + j) // 2
        return half_sum(i, m, depth + 1) + half_sum(m, j, depth + 1)

    return _apply(half_sum, lo, hi)


def _apply(fn, x, y):
    return fn(x, y)


def nested_power(x: float, n: int):
    base = x * 0.5

    def p(m):
        return 1.0 if m <= 0 else base * p(m - 1) + x

    return p(n % 12)


IARR = st.lists(st.integers(-10 ** 6, 10 ** 6), max_size=10).map(lambda xs: np.array(xs, dtype=np.int64))
FARR = st.lists(st.floats(-50, 50), max_size=12).map(lambda xs: np.array(xs, dtype=np.float64))
CASES = [
    (lcm_of, ["int64[]"], st.tuples(IARR)),
    (count_even, [int], st.tuples(st.integers(0, 40))),
    (twice_ackermann, [int, int], st.tuples(st.integers(0, 2), st.integers(0, 3))),
    (pairwise_total, ["float64[]"], st.tuples(FARR)),
    (found, ["float64[]", "float64[]"], st.tuples(FARR.map(np.sort), FARR)),
    (mixed_signatures, [float, int], st.tuples(st.floats(-2, 2), st.integers(0, 40))),
    (sorted_copy, ["float64[]"], st.tuples(FARR)),
    (steps, [int], st.tuples(st.integers(-3, 30))),
    (doubling, [int], st.tuples(st.integers(-1, 40))),
    (fast_fib, [int], st.tuples(st.integers(0, 90))),
    (spread, ["float64[]"], st.tuples(FARR)),
    (divide, [int, int], st.tuples(st.integers(-5, 60), st.integers(1, 9))),
    (nested_fact, [int, int], st.tuples(st.integers(-5, 60), st.integers(-9, 9))),
    (nested_halves, ["float64[]", int], st.tuples(FARR, st.integers(-3, 12))),
    (nested_power, [float, int], st.tuples(st.floats(-2, 2), st.integers(-3, 40))),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=30)


def test_the_caller_calls_the_helpers_graph_and_the_listing_shows_both():
    g = son.parse(mixed_signatures)
    targets = {(c.target.name, tuple(str(t) for _, t in c.target.params))
               for c in g.nodes() if type(c) is Call}
    assert targets == {("_power", ("float", "int")), ("_power", ("int", "int")), ("_fact", ("int",))}
    assert len(g.callees()) == 3
    text = str(g)
    assert "def _power(x: float, n: int)" in text and "def _fact(n: int)" in text
    assert "call _power" in text


def test_a_helper_is_parsed_once_per_signature_whatever_the_caller_parses_again():
    g = son.parse(found, argtypes=["float64[]", "float64[]"])
    sigs = [tuple(str(t) for _, t in c.params) for c in g.callees()]
    # hi=None is the graph's constant None, no parameter (control.NONE_ARG)
    assert sorted(sigs) == [("float64[]", "float", "int"), ("float64[]", "float", "int", "int")]


def test_the_kernel_writes_one_function_per_graph_of_the_module():
    k = son.jit(mixed_signatures)
    assert k(1.5, 7) == mixed_signatures(1.5, 7)
    assert k.source.count("_calls(") >= 3 and "def __son_0__power_calls" in k.source


def test_runaway_recursion_in_a_helper_raises_recursion_error_in_every_stage():
    deep = 10 * son.config.recursion_limit
    g, k = son.parse(deep_helper), son.jit(deep_helper)
    assert son.interpret(g, 300) == k(300) == 300
    with pytest.raises(RecursionError):
        son.interpret(g, deep)
    with pytest.raises(RecursionError):
        k(deep)


def test_a_cycle_between_two_recursive_helpers_is_refused_with_its_location(tmp_path):
    f = function_from_text(tmp_path, "def h(n):\n    if n <= 0:\n        return 0\n"
                                     "    return h(n - 1) + k(n - 1)\n\n\n"
                                     "def k(n):\n    if n <= 0:\n        return 1\n"
                                     "    return k(n - 2) + h(n - 1)\n\n\n"
                                     "def f(n: int):\n    return h(n)\n")
    with pytest.raises(SonSyntaxError, match=r"case\.py:\d+:\d+: .*cycles"):
        son.parse(f)


def test_a_nested_function_that_calls_itself_is_a_graph_with_its_captures_as_parameters():
    g = son.parse(nested_fact)
    (fact,) = g.callees()
    assert [name for name, _t in fact.params] == ["m", "k"]
    assert sum(type(c) is Call for c in g.nodes()) == 2  # fact(n % 20), fact(3): one graph
    assert son.jit(nested_fact)(7, 3) == nested_fact(7, 3)


def test_gradients_go_through_a_nested_function_that_calls_itself_and_its_captures():
    for x in (-1.3, 0.4, 1.7):
        want = (nested_power(x + 1e-6, 9) - nested_power(x - 1e-6, 9)) / 2e-6
        assert son.grad(nested_power, argnums=0)(x, 9) == pytest.approx(want, rel=1e-6, abs=1e-6)


def test_a_lambda_that_calls_itself_is_refused_with_its_location(tmp_path):
    f = function_from_text(tmp_path, "def f(n: int):\n    g = lambda m: 0 if m <= 0 else g(m - 1)\n"
                                     "    return g(n)\n")
    with pytest.raises(SonSyntaxError, match=r"case\.py:\d+:\d+: .*not bound where the function is made"):
        son.parse(f)


def test_a_tuple_argument_of_a_recursive_helper_is_refused(tmp_path):
    f = function_from_text(tmp_path, "def h(t):\n    return 0 if t[0] <= 0 else h((t[0] - 1, t[1]))\n\n\n"
                                     "def f(n: int):\n    return h((n, 1))\n")
    with pytest.raises(SonSyntaxError, match="passes a tuple"):
        son.parse(f)


def test_gradients_go_through_the_calls_of_a_recursive_helper():
    got = son.grad(mixed_signatures, argnums=0)(1.5, 7)
    assert got == pytest.approx(7 * 1.5 ** 6, rel=1e-12)


def test_dot_draws_each_function_as_a_cluster_with_its_call_edges():
    from son.viz.dot import to_dot

    text = to_dot(son.parse(mixed_signatures))
    assert text.count("subgraph cluster_fn") == 4  # the function and its three callees
    calls = [line for line in text.splitlines() if 'label="calls"' in line]
    assert len(calls) == 6  # three calls from the function, one self-call in each callee
    assert all(" -> f" in line for line in calls)  # each goes to a callee's Start


def test_networkx_export_holds_the_call_graph():
    from son.viz.nx import to_networkx

    G = to_networkx(son.parse(mixed_signatures))
    C = G.graph["call_graph"]
    entry = "mixed_signatures(float, int)"
    assert C.nodes[entry]["entry"] and set(C.successors(entry)) == {
        "_power(float, int)", "_power(int, int)", "_fact(int)"}
    assert all(C.has_edge(f, f) for f in C if f != entry)  # each helper calls itself
    callees = {d["callee"] for _, d in G.nodes(data=True) if d["kind"] == "Call"}
    assert callees == set(C.successors(entry))


def test_a_function_with_a_fallback_region_calls_a_recursive_helper(tmp_path, capsys):
    # the region runs in the caller's frame, the helper in its own: both work together
    f = function_from_text(tmp_path, "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n\n\n"
                                     "def f(n: int):\n    s = 0\n    for i in range(n):\n"
                                     "        s += fact(i % 6)\n        print('step', i)\n    return s\n")
    with pytest.warns(son.FallbackWarning):
        k = son.jit(f)
        assert k(4) == f(4) == 1 + 1 + 2 + 6
    assert capsys.readouterr().out.count("step") == 8
    assert any(type(n) is Call for n in k.graph.nodes())


def test_a_nested_function_that_never_returns_raises_recursion_error(tmp_path):
    f = function_from_text(tmp_path, "def f(x: float):\n    def g(y):\n        return g(y - 1.0)\n"
                                     "    return g(x)\n")
    with pytest.raises(RecursionError):
        son.interpret(son.parse(f), 1.0)
    with pytest.raises(RecursionError):
        son.jit(f)(1.0)
