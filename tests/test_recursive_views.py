"""Array views (slices) as arguments of recursive calls (son/frontend/recursion.py): a
1-D view is passed as four values, its base array, start, length and step, and the
callee's graph binds them to a ``View`` of the caller's array, so writes through it reach
the caller as in CPython.  CPython is the oracle in every stage (the raw parse, each
pipeline, the kernel), on arrays of every length from 0 and on step-1, strided and
reversed views, rows and columns of 2-D arrays; derivatives through such calls agree with
finite differences.  A callee gives a view back as the same four values, which the caller
binds to a ``View`` (writes through it reach the array it views); an n-D array it would
give back is refused with a located error."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, check_stages, finite_differences, function_from_text
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError


def msort(a):
    if len(a) <= 1:
        return a.copy()
    m = len(a) // 2
    left = msort(a[:m])
    right = msort(a[m:])
    out = np.empty(len(a))
    i = j = k = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            out[k] = left[i]
            i += 1
        else:
            out[k] = right[j]
            j += 1
        k += 1
    while i < len(left):
        out[k] = left[i]
        i += 1
        k += 1
    while j < len(right):
        out[k] = right[j]
        j += 1
        k += 1
    return out


def rsum(a):
    if len(a) == 0:
        return 0.0
    if len(a) == 1:
        return a[0]
    m = len(a) // 2
    return rsum(a[:m]) + rsum(a[m:])


def rev_inplace(a):  # writes through the view must reach the caller's array
    if len(a) < 2:
        return 0
    a[0], a[-1] = a[-1], a[0]
    return rev_inplace(a[1:-1])


def strided(a):
    if len(a) <= 1:
        return len(a) + (a[0] if len(a) else 0.0)
    return strided(a[::2]) * 0.5 + strided(a[::-1][1:])


def scale_every_other(a, s):
    if len(a) == 0:
        return 0
    a[0] = a[0] * s
    return 1 + scale_every_other(a[2:], s * s)


def caller(a):
    """Whole arrays and views of several kinds into the same helpers, the caller reading
    what the calls wrote."""
    b = a * 2.0
    r = rev_inplace(b[::2])
    n = scale_every_other(b[::-1], 1.5)
    s = rsum(b[1:]) + rsum(a)
    m = msort(a[::-1])
    return s + r + n, b, m


def flip_ints(a):
    if len(a) < 2:
        return a[0] if len(a) else -1
    a[0], a[-1] = a[-1], a[0]
    return flip_ints(a[1:-1]) + flip_ints(a[::3][:2])


def negate(a):
    if len(a) == 0:
        return 0
    a[0] = not a[0]
    return negate(a[1:]) + (1 if a[0] else 0)


def rows_and_columns(m):
    """Views of a 2-D array: a row and a column (step: the row length)."""
    return rsum(m[0]) * 10.0 + rsum(m[:, -1]) + rev_inplace(m[:, 0]), m


# -- views given back: the callee returns base, start, length and step; the caller a view
def tail(a, n):
    """The last ``n`` elements, one peeled per call: the argument or a view of it."""
    if len(a) <= n:
        return a
    return tail(a[1:], n)


def block(a, x):
    """The part of sorted ``a`` where ``x`` would go, halving: a view."""
    if len(a) <= 1:
        return a
    m = len(a) // 2
    if x < a[m]:
        return block(a[:m], x)
    return block(a[m:], x)


def turn(a, n):
    """``a`` written and passed on reversed: a view of the caller's array either way."""
    if n <= 0 or len(a) == 0:
        return a
    a[0] = a[0] + 1.0
    return turn(a[::-1], n - 1)


def fresh_or_view(a, k):
    if k == 0:
        return a * 2.0
    if k < 0:
        return a[1:]
    return fresh_or_view(a[::2], k - 1)


def nested_peel(a, k):
    """A nested function that calls itself with a view of the array it was given (a graph
    per signature of its lifted form) and gives the view back; it captures ``k``."""
    def peel(b, j):
        if j <= 0 or len(b) == 0:
            return b
        b[0] = b[0] + k
        return peel(b[1:], j - 1)

    def total(b):
        if len(b) < 2:
            return 0.0
        return total(b[1:]) + b[0]
    v = peel(a, k)
    return v.sum() + total(a * 1.0), v, a


def views_given_back(a, n, x):
    """Views a recursive helper gives back, read, written (the writes reaching ``a``)
    and returned."""
    t = tail(a, n)
    b = block(np.sort(a), x)
    u = turn(a[::-1], n)
    if len(u) > 1:
        u[1] = -7.0
    v = fresh_or_view(a, n % 4 - 1)
    return t.sum() + len(b), t, b, u, v, a


F, INT, BOOL = "float64[]", "int64[]", "bool[]"
FARR = st.lists(st.floats(-50, 50), max_size=11).map(lambda xs: np.array(xs, dtype=np.float64))
IARR = st.lists(st.integers(-9, 9), max_size=9).map(lambda xs: np.array(xs, dtype=np.int64))
BARR = st.lists(st.booleans(), max_size=9).map(lambda xs: np.array(xs, dtype=bool))
MAT = st.tuples(st.integers(1, 4), st.integers(1, 4)).flatmap(
    lambda rc: st.lists(st.floats(-9, 9), min_size=rc[0] * rc[1], max_size=rc[0] * rc[1]).map(
        lambda xs: np.array(xs, dtype=np.float64).reshape(rc)))
KERNEL_CASES = [
    (msort, [F], st.tuples(FARR)),
    (rsum, [F], st.tuples(FARR)),
    (rev_inplace, [F], st.tuples(FARR)),
    (strided, [F], st.tuples(FARR)),
    (caller, [F], st.tuples(FARR)),
    (views_given_back, [F, int, float], st.tuples(FARR, st.integers(-2, 12), st.floats(-60, 60))),
    (nested_peel, [F, int], st.tuples(FARR, st.integers(-1, 12))),
]
CASES = [
    (flip_ints, [INT], st.tuples(IARR)),
    (negate, [BOOL], st.tuples(BARR)),
    (scale_every_other, [F, float], st.tuples(FARR, st.floats(-2, 2))),
    (rows_and_columns, ["float64[:, :]"], st.tuples(MAT)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", KERNEL_CASES, ids=[c[0].__name__ for c in KERNEL_CASES])
def test_every_stage_and_the_kernel_agree_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=20)


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_stages(fn, argtypes, strategy, max_examples=15)


def test_a_view_is_passed_as_its_base_and_three_numbers():
    g = son.parse(caller, argtypes=[F])
    callees = {c.target for c in g.nodes() if type(c).__name__ == "Call"}
    forms = sorted(str(c.arg_forms) for c in callees)
    assert "['grid1']" in forms and "None" in forms  # rsum(b[1:]) and rsum(a): two graphs
    viewed = next(c for c in callees if c.arg_forms == ["grid1"])
    assert [str(t) for _n, t in viewed.params][0] == "float64[]" and len(viewed.params) == 4


def test_a_view_given_back_is_a_call_of_four_values_and_a_numpy_view_at_the_entry():
    g = son.parse(tail, argtypes=[F, int])
    assert any(type(c).__name__ == "Call" and str(c.result).count("int") == 3 for c in g.nodes())
    a = np.arange(6.0)
    got = son.jit(tail, fallback="error")(a, 2)
    assert np.shares_memory(got, a) and got.base is not None and np.array_equal(got, a[4:])


def test_writes_through_a_view_reach_a_strided_argument_of_a_kernel():
    k = son.jit(caller, fallback="error")
    x = np.arange(10.0)
    y = x.copy()
    got, want = k(y[1::3]), caller(x[1::3])
    assert np.array_equal(got[0], want[0]) and all(np.array_equal(p, q) for p, q in zip(got[1:], want[1:]))
    assert np.array_equal(x, y)


def chained(x):
    a = np.arange(1.0, 8.0) * x
    rev_inplace(a[::2])
    scale_every_other(a[::-1], x)
    return rsum(a[1:]) * a[0] + strided(a[2:])


def through_views(a):
    b = a * 1.0
    rev_inplace(b[::2])
    scale_every_other(b[::-1], 1.5)
    return b[0] * b[1] + rsum(b[::-1][1:]) * b[-1]


def test_derivatives_through_calls_given_views_agree_with_finite_differences():
    x = 0.7
    want = finite_differences(chained, [x], 0)
    assert son.grad(chained)(x) == pytest.approx(want, rel=1e-6)
    assert son.jvp(chained, argnums=0)((x,), (1.0,))[1] == pytest.approx(want, rel=1e-6)
    a = np.array([0.3, -1.2, 2.0, 0.7, 1.1, -0.4, 0.9])
    t = np.array([0.5, -1.0, 2.0, 0.25, 1.0, 3.0, -2.0])
    want = float(finite_differences(through_views, [a], 0) @ t)
    assert son.jvp(through_views, argnums=0)((a.copy(),), (t,))[1] == pytest.approx(want, rel=1e-6)


@pytest.mark.parametrize("text, message", [
    ("def f(a, n: int):\n    if n <= 0:\n        return a.reshape(1, -1)\n    if n == 1:\n        return a\n"
     "    return f(a[1:], n - 1)\n", "gives an array view .* gives a 2-D array"),
    ("def f(a, n: int):\n    if n <= 0:\n        return a.reshape(1, -1)\n    return 1.0\n",
     "gives a single value but .* gives a 2-D array"),
])
def test_refusals(text, message, tmp_path):
    """A function whose returns give a 1-D view, a 2-D array and a number refuses with a
    located error naming both."""
    fn = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=r"case\.py:\d+:\d+: .*" + message):
        son.parse(fn, argtypes={"a": F})
