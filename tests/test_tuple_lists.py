"""Lists of tuples (son/frontend/tuplelists.py, son/nodes/rows.py): a list of k-tuples
as k lists changed in lockstep.  CPython is the oracle in every stage (the interpreter
on the raw parse and on each pipeline's graph, and the kernel), arguments changed in
place included; refusals are located."""

from __future__ import annotations

import math

import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.errors import SonError, SonSyntaxError

FLOATS = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.5, 2.0, math.inf]), st.floats(-1e3, 1e3))
SMALL = st.integers(-4, 6)
PAIRS = st.lists(st.tuples(st.integers(-3, 3), st.sampled_from([0.0, -0.0, 0.5, 1.0, 2.5, -1.0])),
                 max_size=7)
TRIPLES = st.lists(st.tuples(st.integers(-2, 2), st.booleans(), st.integers(-2, 2)), max_size=8)


def build_and_read(n, x):
    xs = [(1, 2.0), (3, x)]
    for i in range(n):
        xs.append((i, x * i))
    s = 0.0
    for a, b in xs:
        s += a * b
    firsts = 0
    for t in xs:
        firsts += t[0]
    last = xs[-1]
    a, b = xs[n % len(xs)]
    e = [i + t[0] for i, t in enumerate(xs)]
    r = [t[1] for t in reversed(xs)]
    return s, firsts, last, a, b, len(xs), xs[1][1], e, r, xs, bool(xs)


def methods(n, i, j):
    ps = []
    for k in range(n):
        ps.append((k, k * 0.5))
    q = ps.pop()
    r = ps.pop(i)
    ps.insert(j, q)
    ps.insert(-100, (9, 9.5))
    ps[j] = (7, 7.25)
    ps.extend([(5, 5.5), r])
    ps += [(4, 4.5)]
    del ps[0]
    c = ps.copy()
    c.reverse()
    return q, r, ps, c


def searches(ps: list[tuple[int, float]], a, b):
    t = (a, b)
    found = t in ps
    k = ps.index(t) if found else -1
    c = ps.count(t)
    if found:
        ps.remove(t)
    same = ps == [(a, b), (1, 0.5)]
    return found, k, c, ps, same, (a, b) not in ps, ps == ps.copy(), ps != []


def sorting(ps: list[tuple[int, bool, int]], rev):
    s = sorted(ps, reverse=rev)
    ps.sort()
    by_last = sorted(ps, key=lambda t: t[2])
    ps.sort(key=lambda t: -t[2], reverse=rev)  # in place by a key (Pythran's sort_key crashed son)
    return s, ps, by_last


def float_sort(ps: list[tuple[int, float]]):
    qs = ps.copy()
    qs.sort(reverse=True)
    return sorted(ps), qs


def zipped(a: list[int], b: list[float], i, j):
    z = list(zip(a, b))
    c = [(k, x * x) for k, x in enumerate(b) if x > 0]
    return z, c, z[i:j], z[::-1], sum(t[0] for t in z)


def grows_a_parameter(ps: list[tuple[int, float]], n):
    for k in range(n):
        ps.append((k, -k * 1.5))
    if n > 2:
        ps.pop(0)
    return len(ps)


def add_pair(ps, a, b):
    ps.append((a, b))


def aliases(n, x):
    xs: list[tuple[int, float]] = []
    ys = xs
    for i in range(n):
        add_pair(ys, i, x)
    zs = [t for t in xs if t[0] % 2 == 0]
    return xs, zs, ys == xs


def loop_merge(n, c):
    xs = [(0, False)]
    if c:
        xs = [(1, True), (2, False)]
    i = 0
    while i < n:
        xs.append((i, i % 3 == 0))
        i += 1
    return xs, xs[-1] if xs else (0, False)


def slices_and_keys(ps: list[tuple[int, float]], i, j, k):
    """``del`` of a slice deletes it from every position, its bounds read once;
    ``min``/``max`` with a key compare the keys and give the tuple."""
    best = min(ps, key=lambda t: t[1], default=(9, 9.5))
    worst = max(ps, key=lambda t: t[1] - t[0], default=(0, 0.0))
    third = max(((a, b * k) for a, b in ps), key=lambda t: -t[0], default=(k, 0.5))
    del ps[i:j:k or 1]
    return best, worst, third, ps, len(ps)


def annotated_local(n):
    """An empty local list annotated as a list of tuples is one before any append
    (fuzz seed 61127 i163: it was taken for a list of floats)."""
    t0: list[tuple[int, float, int]] = []
    s = 0.0
    for a, b, c in t0:
        s += a + b + c
    for i in range(n):
        t0.append((i, i * 0.5, -i))
    for a, b, c in t0:
        s += a * b - c
    return s, t0


def plus_an_empty_literal(ps: list[tuple[int, float]], n):
    """``+ []`` and ``+= []`` add nothing to a list of tuples, whose kind the empty
    literal cannot tell (fuzz seed 777 i196: ``t0 += []`` was refused)."""
    ps += []
    qs = ps + []
    rs = [] + qs
    rs.append((n, 0.5))
    return ps, qs, rs


CASES = [
    (plus_an_empty_literal, None, st.tuples(PAIRS, st.integers(-3, 3))),
    (annotated_local, ["int"], st.tuples(st.integers(0, 5))),
    (slices_and_keys, None, st.tuples(PAIRS, SMALL, SMALL, st.integers(-2, 2))),
    (build_and_read, ["int", "float"], st.tuples(st.integers(0, 5), FLOATS)),
    (methods, ["int", "int", "int"], st.tuples(st.integers(0, 6), SMALL, SMALL)),
    (searches, [list[tuple[int, float]], int, float],
     st.tuples(PAIRS, st.integers(-3, 3), st.sampled_from([0.0, 0.5, 1.0, -0.0]))),
    (sorting, None, st.tuples(TRIPLES, st.booleans())),
    (float_sort, None, st.tuples(PAIRS)),
    (zipped, None, st.tuples(st.lists(st.integers(-5, 5), max_size=6), st.lists(FLOATS, max_size=6),
                             SMALL, SMALL)),
    (grows_a_parameter, None, st.tuples(PAIRS, st.integers(0, 4))),
    (aliases, ["int", "float"], st.tuples(st.integers(0, 6), FLOATS)),
    (loop_merge, ["int", "bool"], st.tuples(st.integers(0, 5), st.booleans())),
]


@pytest.mark.parametrize("fn,argtypes,strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_lists_of_tuples_agree_with_cpython_in_every_stage(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=30)


def test_the_list_returned_is_the_callers_own_list_changed_in_place():
    def back(ps: list[tuple[int, float]]):
        ps.append((2, 2.5))
        return ps

    for call in (son.jit(back), lambda a: son.interpret(son.parse(back), a)):
        a = [(1, 1.5)]
        r = call(a)
        assert r is a and a == [(1, 1.5), (2, 2.5)]


def test_a_change_before_an_exception_reaches_the_caller():
    def fails(ps: list[tuple[int, float]]):
        ps.append((3, 0.5))
        return ps[5]

    for call in (son.jit(fails), lambda a: son.interpret(son.parse(fails), a)):
        a = [(1, 1.5)]
        with pytest.raises(IndexError, match="list index out of range"):
            call(a)
        assert a == [(1, 1.5), (3, 0.5)]


def test_an_empty_annotated_argument_is_a_list_of_tuples():
    def fill(ps: list[tuple[int, float]], n):
        for k in range(n):
            ps.append((k, k / 2))
        return ps

    a: list = []
    assert son.jit(fill)(a, 3) is a and a == [(0, 0.0), (1, 0.5), (2, 1.0)]


def test_one_list_passed_twice_is_refused():
    def two(ps: list[tuple[int, float]], qs: list[tuple[int, float]]):
        ps.append((1, 1.0))
        return len(qs)

    a = [(0, 0.5)]
    with pytest.raises(SonError, match="one list of tuples passed as two parameters"):
        son.jit(two)(a, a)


def test_a_nan_in_a_sorted_column_is_refused_at_run_time():
    k = son.jit(float_sort, fallback="error")  # the kernel's own refusal (son.jit's default runs CPython)
    assert run_python(k, ([(1, math.nan), (0, 1.0)],)) == ("raise", NotImplementedError)


def test_float_tuples_compare_with_nan_refused_only_where_two_nans_meet():
    def has(ps: list[tuple[int, float]], x):
        return (1, x) in ps

    k = son.jit(has, fallback="error")
    assert k([(0, math.nan), (1, 2.0)], 2.0) is True
    assert run_python(k, ([(1, math.nan)], math.nan)) == ("raise", NotImplementedError)


def test_a_list_of_tuples_is_the_columns_in_the_graph():
    def f(n: int):
        xs = [(n, 1.5)]
        return xs[0][1]

    g = son.parse(f)
    assert son.interpret(g, 3) == 1.5
    assert all(type(n).__name__ != "TupleList" for n in g.nodes())


REFUSED = [
    ("def f(n: int):\n    xs = [(1, 2.0)]\n    xs.append((1, 2))\n    return xs\n",
     r"position 1 into a list\[tuple\[int, float\]\]"),
    ("def f(n: int):\n    xs = [(1, 2.0)]\n    xs.append((1, 2.0, 3))\n    return xs\n",
     r"cannot put a tuple of 3 into a list\[tuple\[int, float\]\]"),
    ("def f(n: int):\n    xs = [(1, (2, 3))]\n    return xs\n", "a tuple holding a tuple in a list"),
    ("def f(n: int):\n    xs = [(1, 2.0)]\n    return xs < xs\n", "ordering comparison of lists of tuples"),
    ("def f(n: int):\n    xs = [1.0]\n    xs.append((1, 2.0))\n    return xs\n",
     r"cannot put a tuple into a list\[float\].*xs: list\[tuple\[int, float\]\] = \[\]"),
    ("def f(n: int):\n    xs = [(1, 2.0)]\n    ys = [xs]\n    return ys\n", "a list of tuples in a list"),
    ("def f(n: int):\n    xs = [(1, 2.0)]\n    xs[0:1] = [(3, 4.0)]\n    return xs\n",
     "slice assignment to a list of tuples"),
    ("def f(n: int):\n    xs = [(1, 2.0)]\n    return xs * 2\n", "this operator on a list of tuples"),
    ("def f(n: int):\n    xs = [(1, 2), (n, 0)]\n    return max(xs)\n",
     r"max\(\) of tuples without a key .*give one: max\(xs, key=lambda t: t\[0\]\)"),
    ("def f(c: bool):\n    xs = []\n    if c:\n        xs = [(1, 2.0)]\n    return xs\n",
     "variable 'xs' holds values of different types on different paths"),
]


@pytest.mark.parametrize("text,message", REFUSED)
def test_refusals_are_located(tmp_path, text, message):
    from conftest import function_from_text

    f = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=message) as e:
        son.parse(f)
    assert e.value.lineno > 1


def test_gradients_with_a_list_of_tuples_parameter():
    """A list of tuples passed beside a float: the float's derivative is the closed
    form's; the list itself is no argnum (a located refusal)."""
    def weighted(ps: list[tuple[int, float]], x: float):
        s = x * x
        for a, b in ps:
            s += a * b * x
        return s

    ps = [(1, 2.0), (-3, 0.5), (2, -1.25)]
    slope = 2 * 1.5 + sum(a * b for a, b in ps)
    assert son.grad(weighted, argnums=1)(ps, 1.5) == pytest.approx(slope, rel=1e-12)
    value, g = son.value_and_grad(weighted, argnums=1)(ps, 1.5)
    assert (value, g) == pytest.approx((weighted(list(ps), 1.5), slope), rel=1e-12)
    assert ps == [(1, 2.0), (-3, 0.5), (2, -1.25)]
    with pytest.raises(SonError, match="argnum 0 is a list of tuples"):
        son.grad(weighted, argnums=0)(ps, 1.5)
