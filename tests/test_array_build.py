"""numpy functions son builds from what it compiles (son/frontend/arraybuild.py):
``np.meshgrid``, ``np.stack``/``vstack``/``hstack``/``column_stack`` of n-D arrays,
``np.bincount``, ``np.digitize``, ``np.take``, ``np.trapezoid``, ``np.average(weights=)``
``np.unravel_index`` and ``np.vander``.  numpy is the oracle in every stage."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import check_every_stage, finite_differences, function_from_text, run_python
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

F, I64, F2 = "float64[]", "int64[]", "float64[:, :]"
FLOATS = st.floats(-1e3, 1e3) | st.sampled_from([0.0, -0.0, np.nan, np.inf, -np.inf])


def vectors(dtype=np.float64, elements=FLOATS, hi=5):
    return st.integers(0, hi).flatmap(lambda n: hnp.arrays(dtype, n, elements=elements))


def grids(dtype=np.float64, elements=FLOATS):
    return st.tuples(st.integers(0, 3), st.integers(0, 3)).flatmap(
        lambda s: hnp.arrays(dtype, s, elements=elements))


def stacks(x, y, a, b):
    """1-D pieces of one length or not (numpy's ValueError), 2-D pieces, mixed dtypes."""
    return (np.vstack((x, y)), np.vstack([a, x]), np.hstack((x, y)), np.hstack((a, b)), np.stack((x, y)),
            np.stack((x, y), axis=1), np.stack((a, b), -1), np.column_stack((x, y)), np.column_stack((a, x)),
            np.meshgrid(x, y), np.meshgrid(x, y, indexing="ij"), np.meshgrid(y, x, x)[2])


def test_stacks_and_meshgrids_are_numpys_in_every_stage():
    strategy = st.integers(0, 3).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=FLOATS), vectors(np.int64, st.integers(-2**62, 2**62), 3)
        | hnp.arrays(np.int64, n, elements=st.integers(-9, 9)),
        st.integers(0, 3).flatmap(lambda m: hnp.arrays(np.float64, (m, n), elements=FLOATS)),
        st.integers(0, 3).flatmap(lambda m: hnp.arrays(np.bool_, (m, n)))))
    check_every_stage(stacks, [F, I64, F2, "bool[:, :]"], strategy, max_examples=60)


def counted(x, w, k):
    return (np.bincount(x), np.bincount(x, minlength=k), np.bincount(x, w),
            np.bincount(x, weights=w, minlength=k))


def test_bincount_is_numpys_with_its_value_errors():
    """Negative elements, a negative minlength and weights of another length are numpy's
    ValueError."""
    strategy = st.integers(0, 6).flatmap(lambda n: st.tuples(
        hnp.arrays(np.int64, n, elements=st.integers(-1, 8) | st.integers(0, 3)),
        hnp.arrays(np.float64, n, elements=FLOATS) | vectors(), st.integers(-1, 9)))
    check_every_stage(counted, [I64, F, int], strategy, max_examples=60, expected=_counted_expected)


def _counted_expected(fn, args):
    """numpy's outcome, but son's documented refusal where the weighted count of an empty
    ``x`` is reached (numpy's int64 zeros there)."""
    x, _, k = args
    if len(x) == 0 and k >= 0:
        return ("raise", NotImplementedError)
    return run_python(fn, args)


def digitized(x, bins, v):
    return np.digitize(x, bins), np.digitize(x, bins, right=True), np.digitize(v, bins), \
        np.digitize(v, bins, True)


def test_digitize_is_numpys_for_increasing_decreasing_and_unordered_bins():
    """numpy's monotonicity check (NaN bins included: numpy's C loop) then a search;
    bins neither increasing nor decreasing are numpy's ValueError."""
    bins = vectors(np.float64, st.sampled_from([0.0, 1.0, 1.0, 2.5, -3.0, np.nan]), 5)
    ordered = bins.map(np.sort) | bins.map(lambda b: np.sort(b)[::-1].copy()) | bins
    check_every_stage(digitized, [F, F, float], st.tuples(vectors(), ordered, FLOATS), max_examples=80)


def taken(a, g, i, k):
    return np.take(a, i), np.take(g, k), np.take(a, k), np.take(g, i)


def test_take_is_numpys_with_its_index_errors():
    strategy = st.tuples(vectors(), grids(), vectors(np.int64, st.integers(-7, 7)), st.integers(-7, 7))
    check_every_stage(taken, [F, F2, I64, int], strategy, max_examples=60)


def integrals(y, x, i, dx):
    return (np.trapezoid(y), np.trapezoid(y, x), np.trapezoid(y, dx=dx), np.trapezoid(i),
            np.trapezoid(i, dx=dx))


def test_trapezoid_is_numpys():
    """Its own expression, summed pairwise as numpy sums; x of another length is numpy's
    broadcasting ValueError."""
    strategy = st.integers(0, 12).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=FLOATS), hnp.arrays(np.float64, n, elements=FLOATS) | vectors(),
        hnp.arrays(np.int64, n, elements=st.integers(-2**62, 2**62)), FLOATS))
    with np.errstate(all="ignore"):
        check_every_stage(integrals, [F, F, I64, float], strategy, max_examples=60)


def averages(a, w, i, m):
    return np.average(a, weights=w), np.average(i, weights=m), np.average(a, weights=m, returned=True), \
        np.average(i, weights=w)


@pytest.mark.slow  # minutes of numba compiles: the slow suite (python -m pytest -m slow)
def test_weighted_averages_are_numpys():
    """Weights summing to zero are numpy's ZeroDivisionError; weights of another length
    its TypeError."""
    small = st.floats(-4, 4) | st.sampled_from([0.0, -0.0, np.nan])
    strategy = st.integers(0, 6).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=FLOATS), hnp.arrays(np.float64, n, elements=small),
        hnp.arrays(np.int64, n, elements=st.integers(-2**62, 2**62)),
        hnp.arrays(np.int64, n, elements=st.integers(-3, 3)) | vectors(np.int64, st.integers(0, 3))))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_every_stage(averages, [F, F, I64, I64], strategy, max_examples=60)


def unraveled(i, n, m):
    return np.unravel_index(i, (n, m)), np.unravel_index(i, (2, n, m)), np.unravel_index(i, n), \
        np.unravel_index(i, (n,))


def test_unravel_index_is_numpys_with_its_value_error():
    check_every_stage(unraveled, [int, int, int], st.tuples(st.integers(-2, 30), st.integers(1, 6),
                                                            st.integers(1, 6)), max_examples=60)


def built_loss(x, y, w):
    gx, gy = np.meshgrid(x, y)
    return (np.sum(np.vstack((x, y)) ** 2) + np.sum(gx * gy) + np.average(x, weights=w)
            + np.trapezoid(x * y) + np.sum(np.column_stack((x, y)) * 1.5)
            + np.sum(np.take(x, np.array([0, 2, -1]))))


def vanders(x, n):
    return (np.vander(x), np.vander(x, n), np.vander(x, n, increasing=True),
            np.vander(x, N=2, increasing=False))


@pytest.mark.parametrize("argtype, elements", [
    (F, vectors()),
    (I64, vectors(np.int64, st.integers(-2**40, 2**40) | st.integers(-3, 3))),  # products that wrap
    ("bool[]", vectors(np.bool_, st.booleans())),
], ids=["float64", "int64", "bool"])
def test_vander_is_numpys_running_products_with_its_value_error(argtype, elements):
    """Column k is a running product (``x * x * x``, which differs from ``x ** 3`` in its
    last bits and for -0.0), ints wrap as numpy's, a negative N is numpy's ValueError."""
    check_every_stage(vanders, [argtype, int], st.tuples(elements, st.integers(-1, 5)), max_examples=40)


def test_gradients_go_through_built_functions():
    rng = np.random.default_rng(5)
    x, y, w = rng.uniform(0.5, 2.0, 4), rng.uniform(0.5, 2.0, 4), rng.uniform(0.5, 2.0, 4)
    for k in range(2):
        want = finite_differences(built_loss, [x, y, w], k)
        np.testing.assert_allclose(son.grad(built_loss, argnums=k)(x.copy(), y.copy(), w.copy()), want,
                                   rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("body, words", [
    ("return np.bincount(a)", "float64 array"),
    ("return np.meshgrid(a, a, sparse=True)", "sparse=True"),
    ("return np.meshgrid(a, a, indexing='yx')", "indexing must be"),
    ("return np.meshgrid(a)", "of 1 arrays"),
    ("return np.digitize(a, a, right=k > 0)", "right= that is not a constant"),
    ("return np.average(a, axis=0, weights=a)", "axis= and weights="),
    ("return np.unravel_index(a, (2, 3))", "one int index"),
    ("return np.unravel_index(k, (1, 2, 3, 4))", "one to three ints"),
    ("return np.stack((a, a), axis=2)", "out of bounds"),
])
def test_refusals_are_located(tmp_path, body, words):
    f = function_from_text(tmp_path, f"def f(a, k):\n    {body}\n")
    with pytest.raises(SonSyntaxError, match=words):
        son.parse(f, argtypes=[F, int])
