"""np.nancumsum, np.nancumprod, np.nanvar, np.nanstd, np.diagflat, np.logspace,
np.fill_diagonal, np.resize, np.broadcast_to, np.tri, np.unwrap (son/frontend/arraymisc.py)
and np.correlate (son/frontend/arrayextra.py): numpy is the oracle in every stage, with
hypothesis inputs (empty arrays, NaN, infinities, signed zeros, int64 edges), and each
refusal is a located error."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, check_stages, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

F, I64, B = "float64[]", "int64[]", "bool[]"
EDGES = [0.0, -0.0, 0.5, 1.5, -2.5, 3.25, 1e300, -1e300, -1e-300, np.pi, -np.pi, 2 * np.pi, np.nan, np.nan,
         np.inf, -np.inf]
FLOATS = st.one_of(st.sampled_from(EDGES), st.floats(-1e6, 1e6))
FLOAT_ARRAYS = st.lists(FLOATS, max_size=7).map(lambda xs: np.array(xs, dtype=np.float64))
INTS = st.one_of(st.integers(-5, 5), st.sampled_from([-2**63, 2**63 - 1, 3037000500]))
INT_ARRAYS = st.lists(INTS, max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
BOOL_ARRAYS = st.lists(st.booleans(), max_size=7).map(lambda xs: np.array(xs, dtype=np.bool_))
ARRAYS = {F: FLOAT_ARRAYS, I64: INT_ARRAYS, B: BOOL_ARRAYS}
#: floats whose products and sums are exact, so that every summation order agrees
EXACT = st.sampled_from([0.0, -0.0, 1.0, -2.0, 3.0, 0.5, 7.0, -16.0, np.nan, np.inf, -np.inf])


def _grid(dtype, values):
    """2-D arrays of ``dtype`` with 0 to 4 rows and columns."""
    return st.tuples(st.integers(0, 4), st.integers(0, 4)).flatmap(
        lambda rc: st.lists(values, min_size=rc[0] * rc[1], max_size=rc[0] * rc[1]).map(
            lambda xs: np.array(xs, dtype=dtype).reshape(rc)))


FLOAT_GRIDS = _grid(np.float64, FLOATS)
INT_GRIDS = _grid(np.int64, INTS)


# -- np.nancumsum, np.nancumprod ------------------------------------------------------
def nan_cumulative(a):
    return np.nancumsum(a), np.nancumprod(a)


@pytest.mark.parametrize("t", [F, I64, B])
def test_nancumsum_and_nancumprod_are_numpys(t):
    check_every_stage(nan_cumulative, [t], st.tuples(ARRAYS[t]), max_examples=60, kernel=t == F)


def nan_cumulative_2d(a, k: int):
    return np.nancumsum(a), np.nancumsum(a, axis=0), np.nancumsum(a, axis=1), np.nancumprod(a), \
        np.nancumsum(a, k % 2)


@pytest.mark.parametrize("t, grids", [("float64[:, :]", FLOAT_GRIDS), ("int64[:, :]", INT_GRIDS)])
def test_nancumsum_of_2d_arrays_flat_and_along_an_axis_is_numpys(t, grids):
    check_stages(nan_cumulative_2d, [t, "int"], st.tuples(grids, st.integers(-3, 3)), max_examples=25)


def nancumsum_of_a_transposed_view(a):
    return np.nancumsum(a.T), np.nancumprod(a[:, ::-1])


def test_nancumsum_of_views_reads_them_in_c_order():
    check_stages(nancumsum_of_a_transposed_view, ["float64[:, :]"], st.tuples(FLOAT_GRIDS), max_examples=20)


# -- np.nanvar, np.nanstd -------------------------------------------------------------
def nan_variances(a, d: int):
    return np.nanvar(a), np.nanstd(a), np.nanvar(a, ddof=d), np.nanstd(a, None, ddof=d), \
        np.nanvar(a, axis=None)


@pytest.mark.parametrize("t", [F, I64, B])
def test_nanvar_and_nanstd_are_numpys(t):
    check_stages(nan_variances, [t, "int"], st.tuples(ARRAYS[t], st.integers(-2, 4)), max_examples=60)


def nan_variance(a, d: int):
    return np.nanvar(a, ddof=d), np.nanstd(a)


@pytest.mark.slow  # a minute of Numba compiles: the slow suite's (the stages above run by default)
def test_nanvar_and_nanstd_kernels_are_numpys():
    check_every_stage(nan_variance, [F, "int"], st.tuples(FLOAT_ARRAYS, st.integers(-2, 4)), max_examples=60)


LONG_FLOATS = st.lists(st.one_of(st.floats(-1e3, 1e3), st.just(np.nan)), min_size=8, max_size=300).map(
    lambda xs: np.array(xs, dtype=np.float64))


def test_nanvar_of_long_arrays_sums_pairwise_as_numpy():
    check_stages(nan_variances, [F, "int"], st.tuples(LONG_FLOATS, st.integers(0, 2)), max_examples=30)


def nanvar_2d(a):
    return np.nanvar(a), np.nanstd(a, ddof=1)


def test_nanvar_of_2d_arrays_is_numpys():
    check_stages(nanvar_2d, ["float64[:, :]"], st.tuples(FLOAT_GRIDS), max_examples=25)


# -- np.diagflat, np.tri --------------------------------------------------------------
def diagonals(a, k: int):
    return np.diagflat(a), np.diagflat(a, k), np.diagflat(a, k=-k)


@pytest.mark.parametrize("t", [F, I64, B])
def test_diagflat_is_numpys(t):
    check_every_stage(diagonals, [t, "int"], st.tuples(ARRAYS[t], st.integers(-4, 4)), max_examples=40,
                      kernel=t == B)


def diagflat_2d(a, k: int):
    return np.diagflat(a, k), np.diagflat(a.T)


def test_diagflat_of_2d_arrays_flattens_in_c_order():
    check_stages(diagflat_2d, ["int64[:, :]", "int"], st.tuples(INT_GRIDS, st.integers(-3, 3)))


def diagflat_far(a, k: int):
    return np.diagflat(a, k).shape


def test_diagflat_past_int64_is_numpys_value_error():
    check_stages(diagflat_far, [F, "int"], st.tuples(FLOAT_ARRAYS, st.sampled_from(
        [2**62, -2**62, 2**63 - 1, -2**63, 2**31 + 5, -2**31])))


def triangles(n: int, m: int, k: int):
    return np.tri(n), np.tri(n, m), np.tri(n, m, k), np.tri(n, k=k, dtype=int), np.tri(m, n, -k, bool), \
        np.tri(n, None, k)


def test_tri_is_numpys():
    check_every_stage(triangles, ["int", "int", "int"],
                      st.tuples(st.integers(-2, 5), st.integers(-2, 5), st.integers(-7, 7)), max_examples=60)


def tri_far(n: int, m: int, k: int):
    return np.tri(n, m, k, dtype=bool)


def test_tri_with_k_past_int64_raises_where_numpys_arange_decides():
    """numpy's result there depends on its arange of Python ints (an OverflowError, or an
    empty array): son's NotImplementedError, never a guess; near the edge without passing
    it, numpy's result."""
    graph = son.parse(tri_far, argtypes=["int", "int", "int"])
    for n, m, k in [(3, 3, -2**63), (3, 3, -2**63 + 1), (3, 3, -2**63 + 3), (3, 2**63 - 1, -5),
                    (3, -5, 2**63 - 1)]:
        with pytest.raises(NotImplementedError):
            son.interpret(graph, n, m, k)
    for n, m, k in [(3, 3, 2**63 - 1), (3, 3, -2**63 + 4), (2, 4, 2**62), (3, -5, 2**63 - 6)]:
        assert np.array_equal(son.interpret(graph, n, m, k), tri_far(n, m, k))


# -- np.logspace ----------------------------------------------------------------------
def logspaces(x: float, y: float, n: int, base: float):
    return np.logspace(x, y, n), np.logspace(x, y, n, False), np.logspace(x, y, num=n, base=base), \
        np.logspace(y, x, n, endpoint=True, base=2)


def test_logspace_is_numpys():
    bounds = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -3.0, 0.5, 308.5, -400.0, np.nan, np.inf]),
                       st.floats(-30, 30))
    check_every_stage(logspaces, ["float", "float", "int", "float"],
                      st.tuples(bounds, bounds, st.integers(-1, 9), st.sampled_from(
                          [10.0, 2.0, 0.5, 0.0, -0.0, -2.0, 1.0, np.e, np.nan, np.inf])), max_examples=80)


def logspace_ints(x: int, y: int, n: int, base: int):
    return np.logspace(x, y, n, base=base), np.logspace(x, y, n, base=True)


def test_logspace_of_ints_is_numpys():
    check_every_stage(logspace_ints, ["int", "int", "int", "int"],
                      st.tuples(st.integers(-5, 5), st.integers(-5, 5), st.integers(0, 6),
                                st.integers(-3, 10)))


# -- np.fill_diagonal -----------------------------------------------------------------
def fill_diagonal(a, x: float, big: int):
    np.fill_diagonal(a, x)
    b = a[::-1, :]
    np.fill_diagonal(b, big, wrap=True)
    return np.fill_diagonal(a[:, 1:], x, True)


@pytest.mark.parametrize("t, grids", [("float64[:, :]", FLOAT_GRIDS), ("int64[:, :]", INT_GRIDS),
                                      ("bool[:, :]", _grid(np.bool_, st.booleans()))])
def test_fill_diagonal_writes_numpys_values_in_place(t, grids):
    """Tall and wide arrays, with and without wrap, through views; a float into an int
    array is int(x): CPython's ValueError for NaN, OverflowError for infinities and
    beyond int64."""
    check_every_stage(fill_diagonal, [t, "float", "int"], st.tuples(grids, FLOATS, INTS), max_examples=60,
                      kernel=t != "float64[:, :]")


def fill_tall(n: int, m: int, x: float):
    a = np.zeros((n, m))
    np.fill_diagonal(a, x, wrap=n % 2 == 0)
    return a


def test_fill_diagonal_of_tall_arrays_wraps_as_numpy():
    check_stages(fill_tall, ["int", "int", "float"], st.tuples(st.integers(0, 9), st.integers(0, 4), FLOATS),
                 max_examples=30)


def fill_1d(a, x: float):
    np.fill_diagonal(a, x)
    return a


def test_fill_diagonal_of_a_1d_array_is_numpys_value_error():
    assert run_python(fill_1d, (np.zeros(3), 1.0))[1] is ValueError
    check_stages(fill_1d, [F, "float"], st.tuples(FLOAT_ARRAYS, FLOATS), max_examples=3)


# -- np.resize, np.broadcast_to -------------------------------------------------------
def resized(a, n: int, m: int):
    return np.resize(a, n), np.resize(a, (n, m)), np.resize(a, (2, n, m)), np.resize(a, (m,))


@pytest.mark.parametrize("t", [F, I64, B])
def test_resize_is_numpys(t):
    check_every_stage(resized, [t, "int", "int"],
                      st.tuples(ARRAYS[t], st.integers(-1, 5), st.integers(-1, 4)), max_examples=60,
                      kernel=t == I64)


def resized_2d(a, n: int):
    return np.resize(a, n), np.resize(a.T, (n, 2))


def test_resize_of_2d_arrays_reads_c_order():
    check_stages(resized_2d, ["float64[:, :]", "int"], st.tuples(FLOAT_GRIDS, st.integers(0, 9)))


def resized_far(a, n: int):
    return np.resize(a, (n, n, -1 if n == 7 else 4)).shape


def test_resize_past_int64_is_numpys_error_or_not_implemented():
    """Of an empty array numpy's ValueError ("array is too big"); of another, numpy's
    MemoryError or OverflowError depends on how many copies it would join: son's
    NotImplementedError; a negative dimension is numpy's ValueError first."""
    graph = son.parse(resized_far, argtypes=[F, "int"])
    for a, n in [(np.zeros(0), 2**32), (np.zeros(0), 2**31), (np.zeros(0), 7)]:
        assert run_python(resized_far, (a, n))[1] is ValueError
        with pytest.raises(ValueError):
            son.interpret(graph, a, n)
    for a, n in [(np.zeros(3), 2**32), (np.zeros(1), 2**31)]:
        assert run_python(resized_far, (a, n))[0] == "raise"
        with pytest.raises(NotImplementedError):
            son.interpret(graph, a, n)


def broadcasts(a, n: int):
    b = np.broadcast_to(a, (n, len(a)))
    c = np.broadcast_to(a[:1], (len(a),))
    d = np.broadcast_to(a, a.shape)
    if len(a):
        a[0] = a[0] == 0  # the views see it, as numpy's
    return b, c, d, b.shape, b[-1] if n > 0 else c


@pytest.mark.parametrize("t", [F, I64, B])
def test_broadcast_to_is_a_view_with_numpys_shape(t):
    check_every_stage(broadcasts, [t, "int"], st.tuples(ARRAYS[t], st.integers(-1, 3)), max_examples=40,
                      kernel=t == F)


def broadcast_mismatch(a, n: int):
    return np.broadcast_to(a, (2, n))


def test_broadcast_to_of_shapes_that_do_not_broadcast_is_numpys_value_error():
    check_stages(broadcast_mismatch, [F, "int"], st.tuples(FLOAT_ARRAYS, st.integers(-1, 4)), max_examples=30)


def broadcast_2d(a, n: int):
    return np.broadcast_to(a[:, :1], (n, a.shape[0], 3)), np.broadcast_to(a, (2, a.shape[0], a.shape[1]))


def test_broadcast_to_of_2d_arrays_is_numpys():
    check_stages(broadcast_2d, ["float64[:, :]", "int"], st.tuples(FLOAT_GRIDS, st.integers(0, 3)),
                 max_examples=20)


def broadcast_fewer(a):
    return np.broadcast_to(a, (3,))


def test_broadcast_to_fewer_dimensions_is_numpys_value_error():
    assert run_python(broadcast_fewer, (np.zeros((3, 3)),))[1] is ValueError
    check_stages(broadcast_fewer, ["float64[:, :]"], st.tuples(FLOAT_GRIDS), max_examples=3)


# -- np.correlate ---------------------------------------------------------------------
def correlations(a, v):
    return np.correlate(a, v), np.correlate(a, v, "same"), np.correlate(a, v, mode="full"), \
        np.correlate(v, a[::-1], "valid")


@pytest.mark.parametrize("types", [(I64, I64), (B, B), (I64, B), (B, I64)])
def test_correlate_of_ints_and_bools_is_numpys(types):
    check_every_stage(correlations, list(types), st.tuples(ARRAYS[types[0]], ARRAYS[types[1]]),
                      max_examples=60, kernel=types in ((I64, I64), (B, B)))


@pytest.mark.parametrize("types", [(F, F), (F, I64)])
def test_correlate_of_floats_is_numpys_where_every_order_agrees(types):
    exact = {F: st.lists(EXACT, max_size=9).map(np.array),
             I64: st.lists(st.integers(-5, 5), max_size=9).map(lambda xs: np.array(xs, dtype=np.int64))}
    check_every_stage(correlations, list(types), st.tuples(exact[types[0]], exact[types[1]]), max_examples=60,
                      kernel=types == (F, F))


def test_correlate_of_floats_is_numpys_to_the_last_bits():
    rng = np.random.default_rng(7)
    kernel = son.jit(correlations)
    for n1, n2 in [(1, 1), (5, 3), (3, 5), (40, 17), (17, 40), (9, 9)]:
        a, v = rng.standard_normal(n1), rng.standard_normal(n2)
        for mine, want in zip(kernel(a, v), correlations(a, v)):
            assert mine.dtype == want.dtype and mine.shape == want.shape
            np.testing.assert_allclose(mine, want, rtol=1e-12, atol=1e-12)


# -- np.unwrap ------------------------------------------------------------------------
def unwrapped(p):
    return np.unwrap(p), np.unwrap(p[::-1])


def test_unwrap_is_numpys():
    steps = st.one_of(st.sampled_from([np.pi, -np.pi, 2 * np.pi, -2 * np.pi, 3 * np.pi, 0.0, -0.0, np.nan,
                                       np.inf, 7.0, -7.0, np.pi + 1e-15]), st.floats(-20, 20))
    walks = st.lists(steps, max_size=9).map(lambda xs: np.cumsum(np.array(xs, dtype=np.float64)))
    check_every_stage(unwrapped, [F], st.tuples(st.one_of(walks, FLOAT_ARRAYS)), max_examples=80)


# -- refusals -------------------------------------------------------------------------
def _nancumprod_axis(a):
    return np.nancumprod(a, axis=0)


def _nanvar_axis(a):
    return np.nanvar(a, axis=0)


def _nanstd_positional_axis(a, d: int):
    return np.nanstd(a, d)  # numpy's second argument is the axis, not ddof


def _logspace_dtype(x: float):
    return np.logspace(0.0, x, dtype=int)


def _fill_3d(a):
    np.fill_diagonal(a, 1.0)


def _fill_array(a):
    np.fill_diagonal(a, a[0])


def _unwrap_ints(p):
    return np.unwrap(p)


def _unwrap_discont(p):
    return np.unwrap(p, discont=1.0)


def _broadcast_subok(a):
    return np.broadcast_to(a, (2, 2), subok=True)


def _diagflat_number(x: float):
    return np.diagflat(x)


def _unwrap_2d(p):
    return np.unwrap(p)


@pytest.mark.parametrize("fn, argtypes, match", [
    (_nancumprod_axis, [F], r"np\.nancumprod\(\) with axis="),
    (_nanvar_axis, [F], r"np\.nanvar\(\) with axis="),
    (_nanstd_positional_axis, [F, "int"], r"np\.nanstd\(\) with axis="),
    (_logspace_dtype, ["float"], r"np\.logspace\(\) with dtype="),
    (_fill_3d, ["float64[:, :, :]"], r"np\.fill_diagonal\(\) of a 3-D array"),
    (_fill_array, ["float64[:, :]"], r"np\.fill_diagonal\(\) of an array of values"),
    (_unwrap_ints, [I64], r"np\.unwrap\(\) of int64 arrays"),
    (_unwrap_discont, [F], r"np\.unwrap\(\) with discont="),
    (_unwrap_2d, ["float64[:, :]"], r"np\.unwrap\(\) of a 2-D array"),
    (_broadcast_subok, [F], r"np\.broadcast_to\(\) with subok="),
    (_diagflat_number, ["float"], r"np\.diagflat\(\) of a float value"),
])
def test_what_son_cannot_make_exact_is_a_located_error(fn, argtypes, match):
    with pytest.raises(SonSyntaxError, match=match) as info:
        son.parse(fn, argtypes=argtypes)
    assert "test_array_misc.py:" in str(info.value)
