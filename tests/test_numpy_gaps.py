"""Small gaps in son's numpy closed together: ``np.hsplit``/``vsplit``/``dsplit``
(son/frontend/arraybuild.py), ``np.median(..., keepdims=True)``
(son/frontend/axisreduce.py), ``np.roll`` and ``np.flip`` along an axis known only at
run time (son/frontend/axes.py), ``np.linalg.norm(x, ord=p)`` of any number ``p``
(son/frontend/norms.py).

numpy is the oracle in every stage (the interpreter on the raw parse and on each named
pipeline's graph), with hypothesis inputs: empty arrays, NaN, signed zeros, lengths that
do not divide; numpy's errors at run time, son's refusals where they are written.  The
kernels compile slowly (the inlined loops), so one function gathers what the kernel is
checked on."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import check_every_stage, check_stages, function_from_text, run_python
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

F1, F2, I2, I3, F3 = "float64[]", "float64[:, :]", "int64[:, :]", "int64[:, :, :]", "float64[:, :, :]"
FLOATS = st.one_of(st.sampled_from([0.0, -0.0, 1.5, -2.0, np.nan, np.inf, -np.inf]), st.floats(-3, 3))
SIDES = st.sampled_from([0, 1, 2, 3, 4])


def shaped(dtype, ndim: int, elements=FLOATS):
    return st.tuples(*[SIDES] * ndim).flatmap(lambda s: hnp.arrays(dtype, s, elements=elements))


def quietly(fn, args):
    """numpy's outcome, its warnings (the median of nothing) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return run_python(fn, args)


# -- np.hsplit, np.vsplit, np.dsplit ---------------------------------------------------------
def split_at_indices(x, m, c):
    """Along axis 1 (0 of a 1-D array), 0 and 2, at indices (never an error)."""
    return (tuple(np.hsplit(x, [1, -1])), tuple(np.hsplit(m, [1])), tuple(np.vsplit(m, (2, 1))),
            tuple(np.dsplit(c, [1, 5])), tuple(np.hsplit(c, [])), tuple(np.vsplit(c, [0, -2])))


def split_in_sections(x, m, c):
    """Sections of one length: numpy's ValueError where the axis does not divide."""
    a, b = np.hsplit(x, 2)
    return a, b, tuple(np.vsplit(m, 1)), tuple(np.hsplit(c, 2)), tuple(np.dsplit(c, 1))


def split_refused_by_numpy(x, m, k: int):
    """numpy's ValueError for too few axes (before any section is counted), its
    ZeroDivisionError for no sections."""
    if k == 0:
        return np.vsplit(x, 1)[0]
    if k == 1:
        return np.dsplit(m, [1])[0]
    if k == 2:
        return np.hsplit(m, 0)[0]
    a, b = np.vsplit(x, 2)
    return a + b


#: a 1-D and a 2-D float array, a 3-D int array
THREE = (shaped(np.float64, 1), shaped(np.float64, 2), shaped(np.int64, 3, st.integers(-9, 9)))
ARRAYS3 = st.tuples(*THREE)


@pytest.mark.parametrize("fn", [split_at_indices, split_in_sections])
def test_hsplit_vsplit_dsplit_are_numpys_split_along_their_axis(fn):
    check_stages(fn, [F1, F2, I3], ARRAYS3, max_examples=25)


def test_too_few_axes_for_vsplit_and_dsplit_is_numpys_value_error():
    check_stages(split_refused_by_numpy, [F1, F2, "int"],
                 st.tuples(shaped(np.float64, 1), shaped(np.float64, 2), st.integers(0, 3)), max_examples=20)
    g = son.parse(split_refused_by_numpy, argtypes=[F1, F2, "int"])
    for k, message in [(0, "vsplit only works on arrays of 2 or more dimensions"),
                       (1, "dsplit only works on arrays of 3 or more dimensions")]:
        with pytest.raises(ValueError, match=message):
            son.interpret(g, np.ones(2), np.ones((2, 2)), k)


def test_hsplit_pieces_are_views_of_the_array():
    def f(m):
        a, b = np.hsplit(m, 2)
        b[0, 0] = 7.0
        return m

    g = son.parse(f, argtypes=[F2])
    m = np.arange(8.0).reshape(2, 4)
    np.testing.assert_array_equal(son.interpret(g, m.copy()), f(m.copy()))


# -- np.median(..., keepdims=True) ----------------------------------------------------------
def medians_kept(x, m, c):
    return (np.median(x, keepdims=True), np.median(x, axis=-1, keepdims=True), np.median(m, keepdims=True),
            np.median(m, axis=0, keepdims=True), np.median(m[::-1].T, axis=1, keepdims=True),
            np.median(c, axis=1, keepdims=True), np.median(c, keepdims=True), np.median(m, 1, keepdims=False),
            np.median(c, axis=-1, keepdims=1))


def test_median_with_keepdims_is_numpys_in_every_stage():
    """The reduced axes kept with length 1 (all of them without an axis), float64 for ints
    too; NaN where a line is empty or holds one."""
    check_stages(medians_kept, [F1, F2, I3], ARRAYS3, max_examples=25, expected=quietly)


def test_median_keepdims_result_is_a_view_of_numpys_shape():
    g = son.parse(medians_kept, argtypes=[F1, F2, I3])
    args = (np.arange(3.0), np.arange(6.0).reshape(2, 3), np.arange(24).reshape(2, 3, 4))
    for got, want in zip(son.interpret(g, *args), medians_kept(*args)):
        assert got.shape == want.shape and got.dtype == want.dtype


# -- np.roll, np.flip along an axis known at run time ---------------------------------------
def rolled_and_flipped_1d(x, s: int, k: int):
    return np.roll(x, s, axis=k), np.flip(x, k), np.roll(x, (s, 3), axis=(k, 0)), np.flip(x[::-2], axis=k)


def rolled_and_flipped_2d(m, s: int, k: int):
    return (np.roll(m, s, axis=k), np.flip(m, axis=k), np.roll(m, (1, s), axis=k),
            np.flip(m[::-1, 1:], axis=k), np.roll(m, s, axis=(k, 0, k)), np.flip(m.T, k))


def rolled_and_flipped_3d(c, s: int, k: int):
    return np.roll(c, s, axis=k), np.flip(c, k), np.roll(c, (s, 1), axis=(k, -1)), np.flip(c[:, ::2].T, k)


@pytest.mark.parametrize("fn, ndim", [(rolled_and_flipped_1d, 1), (rolled_and_flipped_2d, 2),
                                      (rolled_and_flipped_3d, 3)])
def test_roll_and_flip_take_an_axis_known_at_run_time(fn, ndim):
    """The axis from -ndim to ndim - 1 as numpy's, beyond that numpy's AxisError (a
    ValueError and an IndexError too) when the call runs; shifts of any size."""
    strategy = st.tuples(shaped(np.float64, ndim), st.integers(-9, 9), st.integers(-4, 3))
    check_stages(fn, [(F1, F2, F3)[ndim - 1], "int", "int"], strategy, max_examples=30)


def test_an_axis_out_of_range_is_numpys_axis_error():
    g = son.parse(rolled_and_flipped_2d, argtypes=[F2, "int", "int"])
    with pytest.raises(np.exceptions.AxisError, match="out of bounds for array of dimension 2"):
        son.interpret(g, np.ones((2, 2)), 1, 2)
    with pytest.raises(ValueError):
        son.interpret(g, np.ones((2, 2)), 1, -3)


# -- np.flip along a tuple of axes, some known only at run time ------------------------------
def flipped_by_tuples_1d(x, k: int, j: int):
    return np.flip(x, (k,)), np.flip(x[::-2], axis=(k, j)), np.flip(x, ())


def flipped_by_tuples_2d(m, k: int, j: int):
    return (np.flip(m, (0, k)), np.flip(m, axis=(k, j)), np.flip(m[::-1, 1:], (k,)), np.flip(m.T, (j, -1)),
            np.flip(m, (k - 1,)))


def flipped_by_tuples_3d(c, k: int, j: int):
    return np.flip(c, (k, 2, j)), np.flip(c[:, ::2].T, (k, j)), np.flip(c, (1, k)), np.flip(c, (k, j, k + j))


@pytest.mark.parametrize("fn, ndim", [(flipped_by_tuples_1d, 1), (flipped_by_tuples_2d, 2),
                                      (flipped_by_tuples_3d, 3)])
def test_flip_takes_a_tuple_of_axes_known_at_run_time(fn, ndim):
    """numpy's ``normalize_axis_tuple``: each axis from -ndim to ndim - 1, else its
    AxisError, then ValueError where two name the same axis; the kernel too."""
    strategy = st.tuples(shaped(np.float64, ndim), st.integers(-4, 3), st.integers(-4, 3))
    check_every_stage(fn, [(F1, F2, F3)[ndim - 1], "int", "int"], strategy, max_examples=40)


def test_a_flip_tuple_raises_numpys_errors_in_its_order():
    """Every axis checked for its range before any is compared with another."""
    g = son.parse(flipped_by_tuples_2d, argtypes=[F2, "int", "int"])
    m = np.arange(6.0).reshape(2, 3)
    with pytest.raises(np.exceptions.AxisError, match="out of bounds for array of dimension 2"):
        son.interpret(g, m, 2, 0)  # (0, 2): out of range, though 2 % 2 would repeat axis 0
    with pytest.raises(ValueError, match="^repeated axis$") as info:
        son.interpret(g, m, -2, 1)  # (0, -2)
    assert type(info.value) is ValueError
    for got, want in zip(son.interpret(g, m, 1, -2), flipped_by_tuples_2d(m, 1, -2)):
        np.testing.assert_array_equal(got, want)


def axes_built_before_checked(m, k: int, j: int):
    return np.roll(m, 1, axis=(k, 1 // j)), np.flip(m, (k, 1 // (j - 1)))


def test_a_tuple_of_axes_is_built_before_numpy_checks_any():
    """CPython builds the tuple first: a later item's error comes before an earlier
    item's AxisError."""
    strategy = st.tuples(shaped(np.float64, 2), st.integers(-3, 2), st.integers(-1, 2))
    check_stages(axes_built_before_checked, [F2, "int", "int"], strategy, max_examples=30)


# -- np.linalg.norm(x, ord=p): numpy's sum(abs(x) ** p) ** (1 / p) -------------------------
#: integers whose 3rd and 4th powers are exact (numpy's SIMD pow and C's agree on them), and
#: the specials
EXACT = st.one_of(st.integers(-99, 99).map(float), st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan]))


def p_norms_exact(x, i):
    """Orders whose powers of integers are exact (3, 4), numpy's fast paths (-1: its
    reciprocal, 0.5: its sqrt), NaN; the root a scalar's, C's pow in numpy too.  An int
    array is read as floats."""
    return (np.linalg.norm(x, 3), np.linalg.norm(x, ord=4.0), np.linalg.norm(x, -1), np.linalg.norm(x, 0.5),
            np.linalg.norm(x, np.nan), np.linalg.norm(x, 3, axis=0), np.linalg.norm(i, 4),
            np.linalg.norm(i, -1))


def test_p_norms_are_numpys_bit_for_bit_where_the_powers_are_exact():
    lengths = SIDES | st.just(9)  # (past 8: numpy's pairwise sum)
    floats = hnp.arrays(np.float64, lengths, elements=EXACT)
    ints = hnp.arrays(np.int64, lengths, elements=st.integers(-99, 99))
    check_stages(p_norms_exact, [F1, "int64[]"], st.tuples(floats, ints), max_examples=30)


def p_norms(x, m):
    return (np.linalg.norm(x, 3, keepdims=True), np.linalg.norm(x, -2.5), np.linalg.norm(x, 1 / 3),
            np.linalg.norm(m, 3, axis=0), np.linalg.norm(m, -1.5, axis=1, keepdims=True),
            np.linalg.norm(m, 0.5, axis=-1), np.linalg.norm(m, 7, axis=0, keepdims=True))


def test_p_norms_are_numpys_within_its_simd_pow():
    """numpy raises an array to a power with its own SIMD loop on AVX-512 CPUs (docs/
    decisions.md), son with C's pow: the same value or within a few ulps (the root of a
    sum multiplies the powers' one-ulp differences by ``1 / p``); NaN, infinities, shapes
    and dtypes exactly."""
    graphs = [son.parse(p_norms, argtypes=[F1, F2], peephole=False),
              son.optimize(son.parse(p_norms, argtypes=[F1, F2]), "combined")[0]]

    @settings(max_examples=25, deadline=None)
    @given(st.tuples(shaped(np.float64, 1), shaped(np.float64, 2)))
    def check(args):
        with np.errstate(all="ignore"):
            want = p_norms(*args)
        for g in graphs:
            for got, exp in zip(son.interpret(g, *args), want):
                got, exp = np.asarray(got), np.asarray(exp)
                assert got.shape == exp.shape and got.dtype == exp.dtype
                np.testing.assert_allclose(got, exp, rtol=1e-14, atol=0.0)

    check()


# -- one kernel for all of the above ---------------------------------------------------------
def sample(x, m, c, k: int):
    if k == 4:
        np.vsplit(x, 1)  # numpy's ValueError: a 1-D array
    if k == 3:
        np.dsplit(m, [1])
    p = np.hsplit(m, [k])
    return (p[0], p[1], tuple(np.vsplit(c, [1])), tuple(np.dsplit(c, [k, 2])),
            np.median(m, axis=1, keepdims=True), np.median(x, keepdims=True),
            np.median(c, axis=0, keepdims=True), np.roll(m, k + 3, axis=k), np.flip(c, axis=k - 1),
            np.flip(x, axis=k - 1),  # numpy's AxisError unless k is 0 or 1
            np.linalg.norm(np.rint(x), 3), np.linalg.norm(x, -1), np.linalg.norm(c[0, 0], 4))


def test_the_kernel_agrees():
    strategy = st.tuples(*THREE, st.integers(-1, 4))
    check_every_stage(sample, [F1, F2, I3, "int"], strategy, max_examples=20, expected=quietly)


# -- refusals --------------------------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    ("def f(m, k: int):\n    return np.hsplit(m, k)[0]\n", "not a constant int"),
    ("def f(m, k: int):\n    return np.vsplit(m, 2, axis=1)[0]\n", "axis"),
    ("def f(m, k: int):\n    return np.median(m, keepdims=k > 0)\n", "keepdims= that is not a constant"),
    ("def f(m, k: int):\n    return np.median(m, out=m)\n", "axis=, keepdims="),
    ("def f(m, k: int):\n    return np.flip(m, axis=k > 0)\n", "axis of bool"),
    ("def f(m, k: int):\n    return np.roll(m, 1, axis=(k, 2))\n", "out of bounds"),
    ("def f(m, k: int):\n    return np.flip(m, (k, 2))\n", "out of bounds"),
    ("def f(m, k: int):\n    return np.flip(m, (1, k, -1))\n", "repeated axis"),
])
def test_what_son_does_not_build_is_a_located_error(tmp_path, text, message):
    f = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=message) as info:
        son.parse(f, argtypes=[F2, "int"])
    assert "case.py:5:" in str(info.value)
