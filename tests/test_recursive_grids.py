"""2-D arrays and their views cross recursive calls (son/frontend/recursion.py): as
arguments and results, a ``Grid``'s base, start, dimensions and strides, so a recursive
block reduction over quadrants reads the caller's array, a flipped corner returned is a
view of it written through, and a fresh array meets the argument on another path.
CPython is the oracle in every stage (the raw parse, each pipeline, the kernel) on
matrices of 1x1 to 5x5; derivatives through views given agree with finite differences,
and one flowing into a returned array is a located refusal."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, check_stages, finite_differences
from hypothesis import strategies as st

import son
from son.errors import SonError


def doubled(m, k):
    """A 2-D array argument and result: fresh on one path, the argument on the other."""
    return m if k <= 0 else doubled(m * 2.0, k - 1)


def corner(m, k):
    """A 2-D view of a 2-D view, flipped, returned: writes through it reach the caller."""
    if k <= 0 or m.shape[0] <= 1 or m.shape[1] <= 1:
        return m
    return corner(m[1:, ::-1], k - 1)


def blocksum(m):
    """A recursive block reduction over 2-D views (quadrants)."""
    r, c = m.shape
    if r <= 1 or c <= 1:
        s = 0.0
        for i in range(r):
            for j in range(c):
                s += m[i, j]
        return s
    h, w = r // 2, c // 2
    return blocksum(m[:h, :w]) + blocksum(m[h:, w:]) * 2.0 + blocksum(m[:h, w:]) - blocksum(m[h:, :w])


def grids(m, k):
    c = corner(m, k)
    if c.shape[0] > 0 and c.shape[1] > 0:
        c[0, -1] = c[0, 0] * 3.0 - 1.0
    t = corner(m.T, k + 1)
    return doubled(m, k % 3), c, t[0, 0] + t[-1, -1], blocksum(m) + blocksum(m.T[::-1]), m


MAT = st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
    lambda rc: st.lists(st.floats(-9, 9), min_size=rc[0] * rc[1], max_size=rc[0] * rc[1]).map(
        lambda xs: np.array(xs, dtype=np.float64).reshape(rc)))
M2 = "float64[:, :]"


def test_2d_arrays_and_views_as_arguments_and_results_agree_with_cpython_in_the_kernel():
    check_every_stage(grids, [M2, int], st.tuples(MAT, st.integers(-1, 4)), max_examples=20)


@pytest.mark.parametrize("fn, argtypes, strategy", [
    (doubled, [M2, int], st.tuples(MAT, st.integers(-1, 4))),
    (corner, [M2, int], st.tuples(MAT, st.integers(-1, 5))),
    (blocksum, [M2], st.tuples(MAT)),
], ids=["doubled", "corner", "blocksum"])
def test_2d_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_stages(fn, argtypes, strategy, max_examples=15)


def test_a_returned_2d_view_is_a_view_of_the_argument():
    g = son.parse(corner, argtypes=[M2, int])
    for run in (lambda a, n: son.interpret(g, a, n), son.jit(corner, fallback="error")):
        m = np.arange(12.0).reshape(3, 4)
        got, want = run(m, 1), corner(m.copy(), 1)
        assert np.array_equal(got, want) and got.strides == want.strides and np.shares_memory(got, m)
        got[0, 0] = -7.0
        assert m[1, 3] == -7.0


def quadrants(x):
    m = np.arange(12.0).reshape(3, 4) * x
    return blocksum(m[:, ::-1] * m[:, ::-1]) + blocksum(m.T)


def doubled_sum(x):
    d = doubled(np.ones((2, 2)) * x, 2)
    return d[0, 0] + d[1, 1]


def test_derivatives_through_2d_views_given_agree_with_finite_differences():
    want = finite_differences(quadrants, [0.7], 0)
    assert son.grad(quadrants)(0.7) == pytest.approx(want, rel=1e-6)
    assert son.jvp(quadrants)((0.7,), (1.0,))[1] == pytest.approx(want, rel=1e-6)


def test_a_derivative_into_a_returned_2d_array_is_a_located_refusal():
    with pytest.raises(SonError, match=r"recursive_grids\.py:\d+: .*doubled\(\) returns an array"):
        son.grad(doubled_sum)(0.7)


def flat_row(a, n):
    """A 1-D view argument, a 2-D view of it returned (a row of its elements)."""
    if n <= 0:
        return a.reshape(1, -1)
    return flat_row(a[1:], n - 1)


def rows_of(a, n):
    r = flat_row(a[::-1], n)
    if r.shape[1] > 0:
        r[0, 0] = 9.0
    return r, a


def test_a_2d_view_of_a_1d_view_given_back_writes_through_to_the_argument():
    check_every_stage(rows_of, ["float64[:]", int],
                      st.tuples(st.lists(st.floats(-9, 9), max_size=6).map(np.array), st.integers(-1, 7)),
                      max_examples=15)
