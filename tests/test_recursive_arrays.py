"""Recursive helpers that return arrays (son/frontend/recursion.py, ``_result_type`` in
son/frontend/parser.py): a 1-D array of any dtype, fresh or one of the arguments, comes
back from a ``Call`` as the callee left it.  CPython is the oracle in every stage (the raw
parse, each pipeline, the kernel): a result that *is* the argument is seen to be written
through either name, and an in-place update between a call's result and a new array reads
its source first (``may_alias``, son/frontend/scope.py).  Dtypes that differ between
paths and derivatives through such calls are refused with located errors (views and n-D
results: tests/test_recursive_view_results.py)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.errors import SonError, SonSyntaxError


def cumsum_rec(a, n):
    if n == 0:
        return np.zeros(len(a))
    out = cumsum_rec(a, n - 1)
    out[n - 1] = a[n - 1] + (out[n - 2] if n > 1 else 0.0)
    return out


def cumsum(a):
    return cumsum_rec(a, len(a))


def merge_sorted(a):
    n = len(a)
    if n <= 1:
        return a.copy()
    m = n // 2
    left, right = merge_sorted(a[:m].copy()), merge_sorted(a[m:].copy())
    out = np.empty(n)
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


def merge_sort(a):
    return merge_sorted(a)


def halves(a, lo, hi):
    if hi - lo <= 1:
        return a[lo:hi].copy()
    m = (lo + hi) // 2
    left, right = halves(a, lo, m), halves(a, m, hi)
    return np.concatenate((left, right)) if left[-1] <= right[0] else np.sort(np.concatenate((left, right)))


def concatenated_sort(a):
    return halves(a, 0, len(a))


def doubled(a, i):
    if i >= len(a):
        return a
    a[i] = a[i] * 2 + i
    return doubled(a, i + 1)


def result_is_the_argument(a):
    before = a[0] if len(a) else 0.0
    b = doubled(a, 0)  # b is a: the write below is a write into a
    if len(b):
        b[0] = -1.0
    return before, a[0] if len(a) else 0.0, b


def counted(a, i):
    if i >= len(a):
        return a
    a[i] += i
    return counted(a, i + 1)


def ints(a):
    c = counted(a, 0)
    c[-1:] = 7
    return c


def flipped(a, i):
    if i < 0:
        return a
    a[i] = not a[i]
    return flipped(a, i - 1)


def bools(a):
    return flipped(a, len(a) - 1)


def fresh_or_argument(a, n):
    if n <= 0:
        return a
    if n % 3 == 0:
        return np.ones(len(a)) * n
    r = fresh_or_argument(a, n - 1)
    if len(r):
        r[0] = r[0] + 1.0
    return r


def some_paths_fresh(a, n):
    r = fresh_or_argument(a, n)
    if len(r):
        r[0] += 10.0
    return r, a


def overlapping_update(a):
    z = np.zeros(len(a))
    z[:] = a
    w = doubled(z, 0)  # w is the new array z: numpy reads z[:-1] before it writes w[1:]
    w[1:] += z[:-1]
    return w, z


F, INT, BOOL = "float64[]", "int64[]", "bool[]"
FARR = st.lists(st.floats(-50, 50), max_size=9).map(lambda xs: np.array(xs, dtype=np.float64))
IARR = st.lists(st.integers(-9, 9), max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
BARR = st.lists(st.booleans(), max_size=7).map(lambda xs: np.array(xs, dtype=bool))
CASES = [
    (cumsum, [F], st.tuples(FARR)),
    (merge_sort, [F], st.tuples(FARR)),
    (concatenated_sort, [F], st.tuples(FARR)),
    (result_is_the_argument, [F], st.tuples(FARR)),
    (ints, [INT], st.tuples(IARR)),
    (bools, [BOOL], st.tuples(BARR)),
    (some_paths_fresh, [F, int], st.tuples(FARR, st.integers(-1, 8))),
    (overlapping_update, [F], st.tuples(FARR)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=25)


def test_the_call_is_typed_by_the_array_it_returns():
    g = son.parse(cumsum, argtypes=[F])
    calls = [n for n in g.nodes() if type(n).__name__ == "Call"]
    assert calls and all(str(c.type) == "float64[]" for c in calls)
    son.schedule(son.optimize(g, "combined")[0])  # schedules like any graph with calls


def test_a_strided_argument_comes_back_as_itself_from_a_kernel():
    k = son.jit(some_paths_fresh, fallback="error")
    for n in range(-1, 7):
        x = np.arange(8.0)
        y = x.copy()
        assert run_python(k, (y[::2], n)) == run_python(some_paths_fresh, (x[::2], n))
        k(y[::2], n)
        some_paths_fresh(x[::2], n)
        assert np.array_equal(x, y)  # the writes through the returned view reached its base


def cast_again(a, n):
    if n <= 0:
        return a * 1.5
    return cast_again(a, n - 1).astype(np.int64) * 1.0


def test_a_method_of_a_recursive_result_parses_before_its_kind_is_known():
    """The first parse types the call TOP (no value yet): ``.astype`` of it had crashed."""
    check_every_stage(cast_again, [F, int], st.tuples(st.lists(st.floats(-9, 9), max_size=5).map(np.array),
                                                     st.integers(-1, 3)), max_examples=10)


@pytest.mark.parametrize("text, message", [
    ("def f(a, n: int):\n    if n == 0:\n        return np.zeros(3, dtype=np.int64)\n"
     "    return f(a, n - 1) * 1.5\n", "several kinds"),
    ("def f(a, n: int):\n    if n == 0:\n        return 0.0\n    return f(a, n - 1) + a\n", "several kinds"),
])
def test_refusals_of_arrays_a_call_cannot_give(text, message):
    with pytest.raises(SonSyntaxError, match=message):
        son.parse_source(text, argtypes=[F, int])


def ramp(x, n):
    if n == 0:
        return np.zeros(3)
    r = ramp(x, n - 1)
    r[n % 3] += x * x
    return r


def through_the_result(x):
    r = ramp(x, 4)
    return r[0] + r[1] * 2.0


def into_the_result(x):
    r = ramp(1.0, 4)
    r[0] = x * x
    return r[0] + r[1]


def scaled(a, n):
    if n == 0:
        return a * 1.0
    return scaled(a, n - 1) * a


def array_tangent(a):
    r = scaled(a, 2)
    s = 0.0
    for i in range(len(r)):
        s += r[i]
    return s


@pytest.mark.parametrize("run", [
    lambda: son.grad(through_the_result)(1.5),
    lambda: son.jvp(through_the_result, argnums=0)((1.5,), (1.0,)),
    lambda: son.grad(into_the_result)(1.5),
    lambda: son.jvp(into_the_result, argnums=0)((1.5,), (1.0,)),
    lambda: son.jvp(array_tangent, argnums=0)((np.arange(1.0, 4.0),), (np.ones(3),)),
], ids=["grad-through", "jvp-through", "grad-into", "jvp-into", "jvp-array"])
def test_derivatives_through_a_call_that_returns_an_array_are_refused_not_wrong(run):
    """The tangent function gives tangents of numbers only: an array result read as
    carrying none was a silent wrong derivative (0.0 for ``array_tangent``)."""
    with pytest.raises(SonError, match=r"test_recursive_arrays\.py:\d+: .*returns an array"):
        run()
