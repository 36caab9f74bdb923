"""Array slices as views (son/frontend/arrays.py ``slice_view``, son/frontend/scope.py
``View``): the bounds numpy computes (negative, absent, None, out of range, negative
steps, the zero step's ValueError), reads and writes through a view reaching its base,
views of views, views carried by loops and merged at branches (with whole arrays too:
an array is then the view of all of itself), iteration and
reductions over views, slice assignment (a number, an array, an overlapping copy, a
broadcast element, numpy's ValueError).  CPython is the oracle in every stage; the
gradient through views is checked against the derivative written by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage, check_stages, function_from_text
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FARR = st.lists(st.floats(-100, 100), max_size=8).map(lambda xs: np.array(xs, dtype=np.float64))
BOUND = st.one_of(st.integers(-10, 10), st.sampled_from([2 ** 63 - 1, -(2 ** 63)]))
STEP = st.one_of(st.integers(-4, 4), st.sampled_from([2 ** 63 - 1, -(2 ** 63)]))
F = "float64[]"


def bounds(a, i, j, k):
    v = a[i:j:k]
    s = 0.0
    for x in v:
        s = s * 0.5 + x
    return len(v), s, v.size


def absent_bounds(a, i):
    return len(a[i:]), len(a[:i]), len(a[::-1]), max(a[:i:2], default=0.0), math.prod(a[i::-2])


def optional_bound(a, n):
    o = None
    if n > 0:
        o = n
    return len(a[o:]), len(a[:o]), min(a[o::2], default=0.0)


def written_through(a, i):
    v = a[::-1]
    v[i] = 9.0  # IndexError outside the view, as numpy
    w = v[1:][::2]
    if len(w) > 0:
        w[-1] += 1.0
    return a[0], v[0]


def view_of_view_index(a, i):
    return a[1:6][::2][i]


def carried(a, n):
    s = 0.0
    v = a[:]
    for _ in range(n):
        v = v[1:]
        s += max(v, default=0.0)
    return s


def merged(a, p):
    v = a[1:] if p else a[:2]
    return max(v, default=-1.0)


def views_meet_arrays(a, p, n):
    """A view and a whole array merged at a branch, carried by a loop that starts with
    the array, and returned: the array is the view of all of itself, and a write through
    the merged value reaches ``a`` where it is a view of ``a``."""
    v = a[1:] if p else a * 2.0
    w = a
    for _ in range(n):
        w = w[1:]
    if len(v):
        v[0] = 7.5
    if p:
        return v, w, a
    return np.abs(a), w, a


def stencil(a, out):
    left, mid, right = a[:-2], a[1:-1], a[2:]
    for i in range(len(mid)):
        out[i] = left[i] + 2.0 * mid[i] + right[i]
    return out[0] if len(out) > 0 else 0.0


def fill_number(a, i, j):
    a[i:j] = 0.5
    return a[0] if len(a) > 0 else -1.0


def shift_overlapping(a):
    a[1:] = a[:-1]  # numpy copies first: every element moves by one
    return len(a)


def assign_array(a, b, k):
    a[::k] = b  # the lengths must match, or b has one element (broadcast)
    return len(a)


CASES = [
    (bounds, [F, int, int, int], st.tuples(FARR, BOUND, BOUND, STEP)),
    (absent_bounds, [F, int], st.tuples(FARR, BOUND)),
    (optional_bound, [F, int], st.tuples(FARR, st.integers(-3, 10))),
    (written_through, [F, int], st.tuples(FARR, st.integers(-9, 9))),
    (view_of_view_index, [F, int], st.tuples(FARR, st.integers(-4, 4))),
    (carried, [F, int], st.tuples(FARR, st.integers(0, 9))),
    (merged, [F, bool], st.tuples(FARR, st.booleans())),
    (views_meet_arrays, [F, bool, int], st.tuples(FARR, st.booleans(), st.integers(0, 4))),
    (stencil, [F, F], FARR.map(lambda a: (a, np.zeros(len(a))))),
    (fill_number, [F, int, int], st.tuples(FARR, BOUND, BOUND)),
    (shift_overlapping, [F], st.tuples(FARR)),
    (assign_array, [F, F, int], st.tuples(FARR, FARR, st.integers(-3, 3))),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=60)


#: constant slice bounds either side of every length the strategies give (0..8)
CONSTANT_BOUNDS = ["", "0", "2", "5", "-1", "-3", "-9"]


def test_constant_bounds_take_numpys_values_for_every_length(tmp_path):
    """Constant bounds take closed forms (``closed_slice``: ``max(n - (s + t), 0)`` for
    ``a[s:-t]``); every pair of them, on 1-D arrays and on both axes of a 2-D one, on
    every length 0..8 (bounds beyond the length, crossing, empty)."""
    pairs = [f"{lo}:{hi}" for lo in CONSTANT_BOUNDS for hi in CONSTANT_BOUNDS]
    body = ",\n        ".join(f"len(a[{p}]), a[{p}].sum(), m[{p}, {p}].shape" for p in pairs)
    fn = function_from_text(tmp_path, f"def f(a, m):\n    return ({body})\n")
    lengths = st.tuples(st.integers(0, 8), st.integers(0, 8))
    check_stages(fn, [F, "float64[:, :]"], lengths.map(
        lambda nm: (np.arange(nm[0], dtype=np.float64), np.arange(nm[0] * nm[1], dtype=np.float64)
                    .reshape(nm))), max_examples=15)


def test_views_with_one_trimmed_length_share_their_bounds_check():
    """``a[:-2]``, ``a[1:-1]`` and ``a[2:]`` have one length node, so a loop over one of
    them reads the others unchecked: the kernel tests only the output's bound."""
    def stencil3(a, out):
        left, mid, right = a[:-2], a[1:-1], a[2:]
        for i in range(len(mid)):
            out[i] = left[i] + 2.0 * mid[i] + right[i]
        return out

    k = son.jit(stencil3)
    for n in range(5):
        a = np.arange(n, dtype=np.float64)
        assert np.array_equal(k(a, np.zeros(n)), stencil3(a, np.zeros(n)))
    assert k.source.count("raise IndexError") == 1


def smoothed(a, w):
    s = 0.0
    for x, y in zip(a[:-1], a[1:]):
        s += w * x * y
    return s + max(a[::2])


@pytest.mark.parametrize("interpret", [True, False])
def test_gradients_through_views(interpret):
    a = np.array([1.0, -2.0, 3.0, 0.5])
    ga, gw = son.grad(smoothed, argnums=(0, 1), interpret=interpret)(a, 1.5)
    want = np.zeros(4)
    want[:-1] += 1.5 * a[1:]
    want[1:] += 1.5 * a[:-1]
    want[2] += 1.0  # the largest of a[::2]
    np.testing.assert_allclose(ga, want)
    assert gw == pytest.approx((a[:-1] * a[1:]).sum())


@pytest.mark.parametrize("text, argtypes, message", [
    ("def f(a):\n    return a[1:2] if a[0] > 0 else 1.0\n", [F], "different types"),
    ("def f(a, t):\n    a[:] = (t, t)\n    return a[0]\n", [F, float], "slice assignment"),
    ("def f(a):\n    return a[1.5:]\n", [F], "expected an int"),
])
def test_refusals_are_located(text, argtypes, message):
    with pytest.raises(SonSyntaxError, match=message):
        son.parse_source(text, argtypes=argtypes)
