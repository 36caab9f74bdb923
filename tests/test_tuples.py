"""Tuples as values (son/frontend/tuples.py): built, bound to variables, merged at
branches, carried by loops, indexed (by constants, by run-time ints, by slices), compared,
iterated, passed to and returned from inlined helpers, spliced into calls.  CPython is the
oracle in every stage: the interpreter on each pipeline's graph (the raw parse included)
and the kernel; gradients through tuples agree with forward mode."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.5, 1.5, -2.5, -0.0, 0.0, 1e300]))
SMALL = st.integers(-6, 6)


def rotate(p, q):
    return p[1], p[0] + q


def norm2(p):
    return p[0] * p[0] + p[1] * p[1]


def points(x, y, n):
    p = (x, y)
    best = p
    for _ in range(n):
        p = rotate(p, 0.5)
        if norm2(p) > norm2(best):
            best = p
    a, b = best
    return a - b + norm2(p)


def fib_pairs(n):
    p = (0, 1)
    total = 0
    for _ in range(n):
        p = (p[1], p[0] + p[1])
        for x in p:
            total += x
    return p[0] * 1000 + total


def run_time_index(x, y, i):
    t = (x, y, x + y)
    return t[i] + t[-1] + t[i % 3]


def slices_and_concat(x, y, k):
    t = (x, y, k)
    u = t[1:] + t[:1] + (k,) * 2
    return u[0] + u[-1] * 2 + len(u) + t[::-1][0] + len(t[5:]) + len(())


def comparisons(a, b, c):
    p, q = (a, b), (b, a)
    return ((p < q) + 2 * (p == q) + 4 * (p >= (a, 0)) + 8 * ((a, b, 1) > p) + 16 * (a in q)
            + 32 * (c not in (a, b)) + 64 * (p != (a, b)) + 128 * ((p, c) < ((a, b), 0))
            + 256 * (p == a))


def float_comparisons(x, y):
    p = (x, y)
    return (p == (0.0, 1.5)) + 2 * (p < (1.0, 2.0)) + 4 * (x in (0.5, -2.5)) + 8 * ((x, 2) <= (1.0, y))


def reductions(a, b, c):
    t = (a, b, c)
    return (sum(t) + min(t) * 3 + max(t) * 5 + math.prod(t) + any(t) + all(t) + sum(t, 10)
            + len(t) + len(tuple(t)) + bool(t) + bool(()))


def float_reductions(x, y):
    t = (x, y)
    return min(t) + max(t) + math.prod(t) + math.hypot(*t) + max(*t, 0.5)


def enumerate_zip(x, y, z):
    s = 0.0
    for i, v in enumerate((x, y, z), 1):
        if v > 1.0:
            continue
        if v < -1.0:
            break
        s += i * v
    else:
        s += 100.0
    for a, b in zip((x, y), (z, 2.0, 3.0)):
        s += a * b
    for v in reversed((x, z)):
        s = s * 2 + v
    return s


def nested(x, n):
    t = ((x, 1), (n, 2.5))
    (a, b), (c, d) = t
    if n > 0:
        t = ((a + 1, b), t[1])
    return t[0][0] * b + c * d + t[1][1]


def optional_pick(a, b, flag):
    r = (a, b) if flag else (b, a)
    return r[0] - r[1]


def swap_sort(a):
    for i in range(len(a)):
        for j in range(len(a) - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a[0] + 2 * a[len(a) - 1]


def returns_tuple(x, y):
    p = (x + y, x * y)
    if x > y:
        p = (p[1], p[0])
    return p


def nested_result(x, n):
    p = (x, n)
    return (p, x * 2), (n,), ((p,),)


def tuple_parameters(p, q, n):
    (x0, y0), (x1, y1) = p, q
    d = (x1 - x0) ** 2 + (y1 - y0) ** 2
    return d + n * p[1], (q, p[0])


def one_tuple(x):
    return (x + 1.0,)


def starred_targets(x, y, n):
    """``*rest`` takes the new list of the elements between the other targets: empty,
    one, several; before, between and after them; appended to (a new list each time)."""
    a, *mid, z = (x, y, x * 2.0, y - 1.0)
    *init, last = (n, n + 1)
    first, *_ = (n * 3, n, n)
    (p, *q), r = (x, y), n
    a += p
    *every, = (y, x)
    init.append(len(mid))
    return a + z + sum(mid) + last + first + len(_), init, q, r, every, mid


CASES = [
    (nested_result, ["float", "int"], st.tuples(FLOATS, SMALL)),
    (one_tuple, ["float"], st.tuples(FLOATS)),
    (starred_targets, ["float", "float", "int"], st.tuples(FLOATS, FLOATS, SMALL)),
    (tuple_parameters, [("float", "float"), ("float", "int"), "int"],
     st.tuples(st.tuples(FLOATS, FLOATS), st.tuples(FLOATS, SMALL), SMALL)),
    (points, ["float", "float", "int"], st.tuples(FLOATS, FLOATS, SMALL)),
    (fib_pairs, ["int"], st.tuples(st.integers(-2, 30))),
    (run_time_index, ["float", "float", "int"], st.tuples(FLOATS, FLOATS, SMALL)),
    (slices_and_concat, ["float", "float", "int"], st.tuples(FLOATS, FLOATS, SMALL)),
    (comparisons, ["int", "int", "int"], st.tuples(SMALL, SMALL, SMALL)),
    (float_comparisons, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (reductions, ["int", "int", "int"], st.tuples(SMALL, SMALL, SMALL)),
    (float_reductions, ["float", "float"], st.tuples(FLOATS, FLOATS)),
    (enumerate_zip, ["float", "float", "float"], st.tuples(FLOATS, FLOATS, FLOATS)),
    (nested, ["float", "int"], st.tuples(FLOATS, SMALL)),
    (optional_pick, ["float", "int", "bool"], st.tuples(FLOATS, SMALL, st.booleans())),
    (returns_tuple, ["float", "float"], st.tuples(FLOATS, FLOATS)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy)


def run_time_float_pairs(a, b, x):
    return a < b, a <= b, a == b, a != b, a > b, a >= b, x in a, x not in b, (a, x) == (b, x)


def _nan_meets_nan(a, b, x) -> bool:
    """Does CPython compare two NaNs (equal only if one object) in ``run_time_float_pairs``?
    Each comparison reaches the first pair that is not ``==``; ``in`` the first item not
    ``==`` before a match; ``(a, x) == (b, x)`` compares ``x`` with itself where ``a == b``
    (one object in CPython, the same value to son, which does not model identity)."""
    def first_pair(p, q):
        return next(((u, v) for u, v in zip(p, q) if not u == v), None)

    def nan(v):
        return v != v

    def search(t):
        return next((y for y in t if y == x or nan(y) and nan(x)), None)

    pair = first_pair(a, b)
    found = [search(t) for t in (a, b)]
    return bool(pair and all(map(nan, pair))) or any(y is not None and nan(y) for y in found) \
        or pair is None and nan(x)


def expect_cpython_or_refusal(fn, args):
    """CPython's outcome, or son's refusal where two NaNs meet (CPython's answer is
    their identity)."""
    return ("raise", NotImplementedError) if _nan_meets_nan(*args) else run_python(fn, args)


def test_tuples_of_floats_compare_as_cpython_where_no_two_nans_meet():
    """``==``, orders and ``in`` of float tuples known only at run time: CPython compares
    the pairs in order up to the first that differs (identity, then ``==``); son gives its
    answer, and refuses at run time (NotImplementedError) only where two NaNs meet there,
    whose equality is whether they are one object."""
    few = st.sampled_from([0.0, -0.0, 1.5, -2.5, math.nan, math.inf])
    pairs = st.tuples(few, few)
    check_every_stage(run_time_float_pairs, [("float", "float"), ("float", "float"), "float"],
                      st.tuples(pairs, pairs, few), max_examples=80, expected=expect_cpython_or_refusal)


def test_a_tuple_never_reaches_the_graph():
    for peephole in (True, False):
        g = son.parse(points, argtypes=["float", "float", "int"], peephole=peephole)
        assert "Pack" not in {type(n).__name__ for n in g.nodes()}
        g = son.parse(returns_tuple, argtypes=["float", "float"], peephole=peephole)
        assert [len(r.inputs) - 2 for r in g.returns()] == [2]


def test_tuples_in_arrays_code():
    a = np.array([3.0, -1.0, 2.5, 0.0])
    b = a.copy()
    assert son.jit(swap_sort)(a) == swap_sort(b)
    assert (a == b).all() and (a == np.sort(a)).all()


def test_gradient_through_tuples_agrees_with_forward_mode():
    def f(x, y):
        p = (x * y, x + y)
        for _ in range(3):
            p = rotate(p, x)
        a, b = p
        return a * b + norm2(p)

    g = son.grad(f, argnums=(0, 1))(1.5, -0.5)
    fwd = (son.jvp(f)((1.5, -0.5), (1.0, 0.0))[1], son.jvp(f)((1.5, -0.5), (0.0, 1.0))[1])
    assert g == pytest.approx(fwd, rel=1e-12)


@pytest.mark.parametrize("src, message", [
    ("def f(x: float):\n    return ()\n", "an empty tuple as the function's result"),
    ("def f(x: float, c: bool):\n    y = x or None\n    return (x, x) if c else y\n",
     "conditional expression gives"),
    ("def f(x: float, c: bool):\n    return (x, x) if c else x\n", "conditional expression gives"),
    ("def f(x: float, c: bool):\n    return x or (x, x)\n", "'and'/'or' gives values of different"),
    ("def f(x: float, n: int):\n    return ((x,) * n)[0]\n", "number of times not known"),
    ("def f(x: float, n: int):\n    return (x, x)[n:]\n", "not a constant int"),
    ("def f(x: float):\n    a, *b, c, d = (x, x)\n    return a\n",
     "not enough values to unpack (expected at least 3, got 2)"),
    ("def f(x: float, n: int):\n    a, *b = (x, n, x)\n    return b\n", "cannot put a float into a list"),
    ("def f(x: float):\n    a, b = x\n    return a\n", "cannot unpack a float value"),
    ("def f(x: float):\n    a, b = (x, x, x)\n    return a\n", "cannot unpack 3 values into 2"),
    ("def f(x: float):\n    t = (x, 1)\n    i = 1.0\n    return t[i]\n", "tuple indices must be integers"),
    ("def f(x: float):\n    return x in x\n", "'in' on a float value"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("*", r"\*")):
        son.parse_source(src, name="f")


def test_index_out_of_range_raises_as_cpython():
    def f(x, i):
        t = (x, 2.0)
        return t[i] + (x, x)[2] if i > 5 else t[i]

    k = son.jit(f)
    for i in (-3, -2, 0, 1, 2, 7):
        assert run_python(k, (1.5, i)) == run_python(f, (1.5, i))
