"""Reductions over one axis (son/frontend/axisreduce.py): ``np.sum``, ``np.mean``,
``np.prod``, ``np.max``, ``np.min`` with ``axis=`` and ``keepdims=`` of 2-D and 3-D
arrays and views, in numpy's order of operations (a pairwise sum where the reduced
axis is numpy's inner loop, lines added in order elsewhere); and numpy's 1-D functions
line by line (``np.argmax``/``argmin``, ``np.median``, ``np.cumsum``, ``np.diff``, ``np.sort``,
``np.argsort`` along an axis); ``keepdims=True`` over every axis (an array of shape
``(1,) * ndim``).  numpy is the oracle in every stage; the values span twenty orders of
magnitude, so an order of additions other than numpy's shows in the last bits."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import KERNEL_IN_SLOW, check_every_stage, check_stages, finite_differences, function_from_text
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

F2, F3, I3, B3 = "float64[:, :]", "float64[:, :, :]", "int64[:, :, :]", "bool[:, :, :]"
#: lengths where numpy's pairwise sum differs from adding in order (9 and more), or
#: where an axis of length 1 changes which axis is numpy's inner loop
LENGTHS = st.sampled_from([0, 1, 2, 3, 9, 17])
SPREAD = st.floats(-1.0, 1.0).flatmap(lambda x: st.integers(-5, 16).map(lambda k: x * 10.0 ** k))


def cubes(dtype=np.float64, elements=SPREAD):
    return st.tuples(LENGTHS, LENGTHS, LENGTHS).flatmap(lambda s: hnp.arrays(dtype, s, elements=elements))


def float_sums(a):
    return (np.sum(a, axis=0), a.sum(1), np.sum(a, axis=-1), np.mean(a, axis=2), a.mean(0),
            np.sum(a, 1, keepdims=True), a.mean(axis=-1, keepdims=True), np.sum(a[::-1, :, 1:], axis=1),
            np.sum(a[:, ::2], axis=0))


@pytest.mark.parametrize("kernel", KERNEL_IN_SLOW)
def test_float_sums_and_means_over_an_axis_of_a_3_d_array_are_numpys_bit_for_bit(kernel):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "Mean of empty slice"
        check_every_stage(float_sums, [F3], st.tuples(cubes()), max_examples=60, kernel=kernel)


def products_and_int_sums(a, i, m, b):
    return (np.prod(a, axis=0), a.prod(1), np.prod(a, 2, keepdims=True), np.sum(i, 0), i.sum(axis=1),
            np.sum(m, axis=2), np.prod(i, 1), m.prod(0), np.prod(b, axis=1), b.prod(0), np.sum(m[:, ::-1], 1))


@pytest.mark.slow  # minutes of numba compiles: the slow suite (python -m pytest -m slow)
def test_products_and_int_sums_over_an_axis_are_numpys():
    """Products multiply in index order from one (ints wrap, bools give int64)."""
    small = st.floats(-3.0, 3.0) | st.sampled_from([0.0, -0.0, np.inf, np.nan])
    strategy = st.tuples(LENGTHS, LENGTHS, LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, s, elements=small),
        hnp.arrays(np.int64, s, elements=st.integers(-2**63, 2**63 - 1) | st.integers(-3, 3)),
        hnp.arrays(np.bool_, s), hnp.arrays(np.float64, s[:2], elements=small)))
    with np.errstate(all="ignore"):
        check_every_stage(products_and_int_sums, [F3, I3, B3, F2], strategy, max_examples=50)


def extremes(a, i):
    return np.max(a, axis=0), a.min(1), np.min(a, axis=2, keepdims=True), i.max(0), np.min(i, axis=-1)


def _numpy_unless_two_zeros(fn, args):
    """Which of two equal zeros numpy's max returns depends on its SIMD kernels: son
    raises NotImplementedError there (documented), so such inputs are left out."""
    from conftest import run_python

    a = args[0]
    if (a == 0).any() and np.signbit(a[a == 0]).any() and (~np.signbit(a[a == 0])).any():
        return None
    return run_python(fn, args)


def test_max_and_min_over_an_axis_of_a_3_d_array_are_numpys():
    """NaN wins; an empty reduced axis is numpy's ValueError, even for an empty result."""
    strategy = st.tuples(LENGTHS, LENGTHS, LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, s, elements=SPREAD | st.just(np.nan)), hnp.arrays(np.int64, s)))
    check_every_stage(extremes, [F3, I3], strategy, max_examples=50, expected=_numpy_unless_two_zeros)


def along_lines(a, i, m):
    return (np.argmax(a, axis=1), a.argmin(0), np.argmax(i, 2), np.cumsum(a, axis=0), i.cumsum(axis=2),
            np.cumsum(m, 1), np.diff(a), np.diff(i, axis=0), np.diff(m, 1, 1), np.sort(a, axis=1), np.sort(i),
            np.argsort(i, axis=0, kind="stable"), a.argsort(axis=2, kind="stable"), np.sort(m, 0),
            np.sort(i, axis=None), np.median(a, axis=1), np.median(i, 0), np.median(a, axis=None))


@pytest.mark.parametrize("kernel", KERNEL_IN_SLOW)
def test_numpys_1_d_functions_along_an_axis_are_numpys_in_every_stage(kernel):
    """NaN first for argmax, last for sort; an empty axis is argmax's ValueError even
    where there are no lines."""
    no_zero = SPREAD.filter(lambda x: x != 0.0) | st.just(np.nan)  # (np.sort of both zeros: refused)
    strategy = st.tuples(LENGTHS, LENGTHS, LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, s, elements=no_zero), hnp.arrays(np.int64, s, elements=st.integers(-3, 3)),
        hnp.arrays(np.bool_, s)))
    with np.errstate(all="ignore"):
        check_every_stage(along_lines, [F3, I3, B3], strategy, max_examples=50, kernel=kernel)


def line_loss(a):
    return np.sum(np.cumsum(a, axis=1) * np.sort(a, axis=0)) + np.sum(np.diff(a, axis=1) ** 2)


def test_gradients_go_through_functions_along_an_axis():
    a = np.random.default_rng(4).standard_normal((4, 5))
    want = finite_differences(line_loss, [a], 0)
    np.testing.assert_allclose(son.grad(line_loss)(a.copy()), want, rtol=1e-6, atol=1e-8)


def loss(a):
    return np.sum(np.sum(a, axis=1) * np.mean(a, axis=2)[:, :1]) + np.sum(np.prod(a, axis=0)) \
        + np.sum(np.max(a, axis=2))


@pytest.mark.slow  # minutes of numba compiles: the slow suite (python -m pytest -m slow)
def test_gradients_go_through_reductions_over_an_axis():
    a = np.random.default_rng(3).uniform(0.5, 2.0, (3, 4, 5))
    want = finite_differences(loss, [a], 0)
    np.testing.assert_allclose(son.grad(loss)(a.copy()), want, rtol=1e-6, atol=1e-8)


def int_means_variances_and_truths(i, b, a):
    return (np.mean(i, axis=0), i.mean(2), np.mean(b, axis=1, keepdims=True), np.var(a, axis=0),
            np.std(a, 1, ddof=1), a.var(axis=2, keepdims=True), np.var(i, axis=1), np.std(b, axis=0, ddof=2),
            np.any(a, axis=0), a.all(1), np.all(b, axis=2, keepdims=True), np.any(i[:, ::-1], 1),
            np.sum(a, axis=None), np.max(i, axis=(2, 0, 1)), np.mean(a, axis=(1,)), np.var(a, None, ddof=1))


@pytest.mark.parametrize("kernel", KERNEL_IN_SLOW)
def test_int_means_variances_and_truths_over_an_axis_are_numpys(kernel):
    """The mean of ints along an axis is exact where numpy's float sums are (magnitudes
    adding up to less than 2**53); var/std are numpy's steps (the kept mean, the squared
    deviations summed along the axis in numpy's order); any/all or the truths (NaN is
    true); ``axis=None`` and a tuple of every axis reduce all the elements."""
    strategy = st.tuples(LENGTHS, LENGTHS, LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.int64, s, elements=st.integers(-2**40, 2**40) | st.integers(-3, 3)),
        hnp.arrays(np.bool_, s), hnp.arrays(np.float64, s, elements=SPREAD | st.sampled_from([np.nan, 0.0]))))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "Degrees of freedom <= 0"
        check_every_stage(int_means_variances_and_truths, [I3, B3, F3], strategy, max_examples=50,
                          kernel=kernel)


def kept_over_every_axis(a, i, b, x):
    """``keepdims=True`` over all the axes: numpy's reduction in an array of shape
    ``(1,) * ndim``, of numpy's dtype (int64 for a bool sum, float64 for every mean and
    for ``dtype=float``)."""
    return (np.sum(a, keepdims=True), a.mean(axis=None, keepdims=True),
            np.prod(i, axis=(0, 1, 2), keepdims=True), b.sum(keepdims=True), np.mean(b, keepdims=True),
            i.mean(keepdims=1), b.prod(keepdims=True), np.var(a, ddof=1, keepdims=True),
            i.std(axis=(2, 0, 1), keepdims=True), np.var(b, keepdims=True), np.any(a, keepdims=True),
            i.all(keepdims=True), np.all(b, None, keepdims=True), np.sum(x, keepdims=True),
            x.mean(0, keepdims=True), np.prod(x > 0, axis=-1, keepdims=True),
            np.std(x, axis=None, keepdims=True), np.any(x, keepdims=True), np.sum(a[1:], keepdims=True),
            np.mean(i[1:], keepdims=True), np.sum(a, keepdims=False), x.sum(keepdims=False),
            np.sum(b, dtype=float, keepdims=True), i.sum(axis=None, dtype=np.float64, keepdims=True),
            np.sum(x > 0, 0, dtype=float, keepdims=True), np.mean(i, dtype=float, keepdims=True))


def extremes_kept_over_every_axis(a, i, b, x):
    """Max, min, argmax and argmin over all the axes (numpy's ValueError where there are
    no elements), and argmax/argmin with ``keepdims=`` along an axis."""
    return (np.max(a, keepdims=True), i.min(axis=None, keepdims=True), b.max(axis=(1, 2, 0), keepdims=True),
            np.argmax(a, keepdims=True), i.argmin(axis=None, keepdims=True), np.argmin(b, axis=None),
            np.argmax(i, axis=1, keepdims=True), a.argmin(-1, keepdims=True),
            np.argmax(i, axis=0, keepdims=False), np.max(x, keepdims=True), x.min(0, keepdims=True),
            np.argmax(x, keepdims=True), x.argmin(axis=0, keepdims=True))


@pytest.mark.slow  # minutes of numba compiles: the slow suite (python -m pytest -m slow)
def test_keepdims_over_every_axis_is_numpys_shape_dtype_and_value():
    strategy = st.tuples(LENGTHS, LENGTHS, LENGTHS, LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, s[:3], elements=SPREAD | st.sampled_from([np.nan, 0.0])),
        hnp.arrays(np.int64, s[:3], elements=st.integers(-2**40, 2**40) | st.integers(-3, 3)),
        hnp.arrays(np.bool_, s[:3]), hnp.arrays(np.float64, s[3:], elements=SPREAD)))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "Mean of empty slice"
        check_stages(kept_over_every_axis, [F3, I3, B3, "float64[:]"], strategy, max_examples=30)


def test_extremes_with_keepdims_are_numpys_shape_dtype_and_value():
    no_zero = SPREAD.filter(lambda x: x != 0.0) | st.just(np.nan)  # (the max of both zeros: refused)
    nonempty = st.sampled_from([1, 2, 3, 9])
    strategy = st.tuples(nonempty, nonempty, nonempty, LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, s[:3], elements=no_zero), hnp.arrays(np.int64, s[:3]),
        hnp.arrays(np.bool_, s[:3]), hnp.arrays(np.float64, s[3:], elements=no_zero)))
    check_stages(extremes_kept_over_every_axis, [F3, I3, B3, "float64[:]"], strategy, max_examples=30)


def kept_in_a_kernel(a, b, x):
    return (a.sum(keepdims=True), np.mean(b, axis=None, keepdims=True), np.var(x, keepdims=True),
            np.all(a, keepdims=True), np.argmax(a, axis=1, keepdims=True), x.max(keepdims=True))


def test_the_kernel_keeps_every_axis_too():
    strategy = st.tuples(st.sampled_from([1, 2, 3]), LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, (s[0], 2), elements=SPREAD.filter(lambda x: x != 0.0)),
        hnp.arrays(np.bool_, (s[1], 2, 1)), hnp.arrays(np.float64, s[0], elements=SPREAD)))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "Mean of empty slice"
        check_every_stage(kept_in_a_kernel, [F2, B3, "float64[:]"], strategy, max_examples=20)


def test_keepdims_over_every_axis_gives_numpys_shapes():
    g = son.parse(kept_over_every_axis, argtypes=[F3, I3, B3, "float64[:]"])
    i = np.arange(24).reshape(2, 3, 4)
    args = (i * 0.5, i, i > 5, np.arange(5.0))
    for got, want in zip(son.interpret(g, *args), kept_over_every_axis(*args)):
        assert np.shape(got) == np.shape(want) and np.asarray(got).dtype == np.asarray(want).dtype


def test_the_mean_of_ints_whose_magnitudes_reach_2_to_the_53_is_refused_at_run_time():
    def f(i):
        return np.mean(i, axis=1)

    k = son.jit(f, fallback="error")
    fine = np.array([[2**51, 2**51 - 1], [-3, 4]])  # the whole array's magnitudes: below 2**53
    np.testing.assert_array_equal(k(fine), f(fine))
    with pytest.raises(NotImplementedError, match="2\\*\\*53"):
        k(np.array([[2**52, 2**52], [0, 0]]))


def repeated_differences(a, i):
    return np.diff(a, 2), np.diff(a, n=3, axis=0), np.diff(i, 0), np.diff(i, n=2, axis=1), np.diff(a > 0, 2)


def test_diff_of_order_n_is_diff_applied_n_times():
    strategy = st.tuples(LENGTHS, LENGTHS, LENGTHS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, s, elements=SPREAD), hnp.arrays(np.int64, s)))
    with np.errstate(all="ignore"):
        check_every_stage(repeated_differences, [F3, I3], strategy, max_examples=40)


def test_diff_of_a_negative_order_is_numpys_value_error():
    def f(a):
        return np.diff(a, -1)

    with pytest.raises(ValueError, match="order must be non-negative but got -1"):
        son.jit(f, fallback="error")(np.zeros(3))


@pytest.mark.parametrize("body, words", [
    ("return np.sum(a, axis=3)", "not a constant of this 3-D"),
    ("return np.sum(a, axis=(0, 0, 1))", "not a constant of this 3-D"),
    ("return np.var(a, axis=0, ddof=0.5)", "ddof= of a float"),
    ("return np.sum(a, axis=0, keepdims=k)", "keepdims= that is not a constant"),
    ("return np.argsort(a, axis=0, kind='heapsort')", "kind="),
    ("return np.sort(a, 1, 'stable', 3)", "takes 2 arguments"),
])
def test_refusals_are_located(tmp_path, body, words):
    f = function_from_text(tmp_path, f"def f(a, i, k):\n    {body}\n")
    with pytest.raises(SonSyntaxError, match=words):
        son.parse(f, argtypes=[F3, I3, int])
