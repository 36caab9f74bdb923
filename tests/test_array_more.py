"""np.repeat, np.tile, np.unique, np.interp, np.argwhere, np.cross, np.vstack,
np.percentile/np.quantile and np.arange(dtype=) (son/frontend/arraymore.py): numpy is
the oracle in every stage, with hypothesis inputs (empty arrays, NaN, infinities,
signed zeros, int64 edges, unsorted sample points, counts of the wrong length)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage, function_from_text, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

F, I64, B = "float64[]", "int64[]", "bool[]"
EDGES = [0.0, -0.0, 0.5, 1.0, 1.0, 2.0, -3.25, 1e300, -1e-300, np.nan, np.inf, -np.inf]
FLOATS = st.one_of(st.sampled_from(EDGES), st.floats(-100, 100))
FLOAT_ARRAYS = st.lists(FLOATS, max_size=7).map(lambda xs: np.array(xs, dtype=np.float64))
INTS = st.one_of(st.integers(-4, 4), st.sampled_from([-2**63, 2**63 - 1, 3037000500]))
INT_ARRAYS = st.lists(INTS, max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
BOOL_ARRAYS = st.lists(st.booleans(), max_size=7).map(lambda xs: np.array(xs, dtype=np.bool_))
ARRAYS = {F: FLOAT_ARRAYS, I64: INT_ARRAYS, B: BOOL_ARRAYS}


def _both_zeros(a) -> bool:
    zeros = a[a == 0]
    return a.dtype.kind == "f" and bool(np.signbit(zeros).any()) and bool((~np.signbit(zeros)).any())


def repeats(a, k: int, counts):
    return np.repeat(a, k), np.tile(a, k), np.repeat(a, counts), np.tile(a[::-1], (2,)), np.repeat(a, True)


@pytest.mark.parametrize("dtype", [F, I64, B])
def test_repeat_and_tile_are_numpys(dtype):
    counts = st.lists(st.integers(-1, 3), max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
    sized = ARRAYS[dtype].flatmap(lambda a: st.tuples(
        st.just(a), st.integers(-2, 3),
        st.one_of(counts, st.lists(st.integers(0, 3), min_size=len(a), max_size=len(a)).map(
            lambda xs: np.array(xs, dtype=np.int64)))))
    check_every_stage(repeats, [dtype, "int", I64], sized)


def repeat_by_bools(a, mask):
    return np.repeat(a, mask)


def test_repeat_by_a_bool_array_counts_ones():
    pairs = st.integers(0, 5).flatmap(lambda n: st.tuples(
        st.lists(FLOATS, min_size=n, max_size=n).map(np.array),
        st.lists(st.booleans(), min_size=n, max_size=n).map(lambda xs: np.array(xs, dtype=np.bool_))))
    check_every_stage(repeat_by_bools, [F, B], pairs)


def uniques(a):
    return np.unique(a), np.unique(a[::2])


def _unique_expected(fn, args):
    if _both_zeros(args[0]):
        return ("raise", NotImplementedError)  # which zero numpy keeps is its kernels' choice
    return run_python(fn, args)


@pytest.mark.parametrize("dtype", [F, I64, B])
def test_unique_is_numpys_sorted_set_with_one_nan(dtype):
    check_every_stage(uniques, [dtype], st.tuples(ARRAYS[dtype]), expected=_unique_expected, max_examples=60)


def interpolated(x: float, xs, xp, fp, lo: float):
    return np.interp(x, xp, fp), np.interp(xs, xp, fp), np.interp(xs, xp, fp, left=lo, right=-lo), \
        np.interp(x, xp, fp, lo)


def _interp_inputs(xp_arrays):
    return st.integers(0, 7).flatmap(lambda n: st.tuples(
        FLOATS, FLOAT_ARRAYS, xp_arrays(n),
        st.one_of(st.lists(FLOATS, min_size=n, max_size=n).map(np.array), FLOAT_ARRAYS),
        FLOATS))


@pytest.mark.parametrize("order", ["sorted", "unsorted"])
def test_interp_is_numpys_c_loop(order):
    points = st.sampled_from([0.0, -0.0, 1.0, 1.5, 2.0, 2.0, 3.0, -7.0, 1e300, np.inf, -np.inf, np.nan])

    def xp_arrays(n):
        xp = st.lists(points | st.floats(-10, 10), min_size=n, max_size=n).map(np.array)
        return xp.map(np.sort) if order == "sorted" else xp

    check_every_stage(interpolated, ["float", F, F, F, "float"], _interp_inputs(xp_arrays), max_examples=80)


def interpolated_ints(x: int, xs, xp, fp):
    return np.interp(x, xp, fp), np.interp(xs, xp, fp)


def test_interp_reads_ints_as_floats():
    inputs = st.integers(0, 9).flatmap(lambda n: st.tuples(
        st.integers(-12, 12), INT_ARRAYS, st.lists(st.integers(-10, 10), min_size=n, max_size=n).map(
            lambda xs: np.array(sorted(xs), dtype=np.int64)),
        st.lists(INTS, min_size=n, max_size=n).map(lambda xs: np.array(xs, dtype=np.int64))))
    check_every_stage(interpolated_ints, ["int", I64, I64, I64], inputs, max_examples=60)


def test_interp_of_long_sample_arrays_searches_as_numpy():
    rng = np.random.default_rng(3)
    cases = []
    for n in (5, 9, 20, 40):
        xp = np.sort(rng.integers(-30, 30, n)).astype(np.float64)
        cases.append((0.5, rng.uniform(-35, 35, 60), xp, rng.standard_normal(n), 0.0))
        shuffled = rng.permutation(xp)
        cases.append((0.5, np.sort(rng.uniform(-35, 35, 60)), shuffled, rng.standard_normal(n), 0.0))
    # NaN in xp fails numpy's tests as written (``key < xp[guess - 1]``, not ``key >= ...``)
    cases.append((0.0, np.array([-np.inf, 4.0]), np.array([np.nan, 0.16, 1.5, 2.25, 1.0]),
                  np.array([3.0, 0.0, -1e-300, -1e-300, -3.25]), 0.5))
    check_every_stage(interpolated, ["float", F, F, F, "float"], st.sampled_from(cases), max_examples=20)


def arg_where(a):
    return np.argwhere(a), np.argwhere(a[::-1])


@pytest.mark.parametrize("dtype", [F, I64, B])
def test_argwhere_is_a_column_of_indices(dtype):
    check_every_stage(arg_where, [dtype], st.tuples(ARRAYS[dtype]))


def crossed(a, b):
    return np.cross(a, b)


def _cross_expected(fn, args):
    a, b = args
    if len(a) in (2, 3) and len(b) in (2, 3) and 2 in (len(a), len(b)):
        return ("raise", NotImplementedError)  # numpy's deprecated 2-vectors
    return run_python(fn, args)


@pytest.mark.parametrize("types", [(F, F), (I64, I64), (I64, F)])
def test_cross_of_3_vectors_is_numpys(types):
    vectors = {F: st.lists(FLOATS, min_size=1, max_size=4).map(np.array),
               I64: st.lists(INTS, min_size=1, max_size=4).map(lambda xs: np.array(xs, dtype=np.int64))}
    three = {k: v.filter(lambda a: len(a) == 3) for k, v in vectors.items()}
    check_every_stage(crossed, list(types), st.one_of(
        st.tuples(three[types[0]], three[types[1]]),
        st.tuples(vectors[types[0]], vectors[types[1]]).filter(lambda ab: len(ab[0]) + len(ab[1]) != 4)),
        expected=_cross_expected, max_examples=60)  # (numpy's cross of two 2-vectors is a 0-D array)


def stacked(a, b):
    return np.vstack((a, b)), np.vstack([a]), np.vstack((a, a[::-1], a))


@pytest.mark.parametrize("types", [(F, F), (I64, B), (B, F)])
def test_vstack_of_1d_arrays_is_a_new_2d_array(types):
    pairs = st.integers(0, 4).flatmap(lambda n: st.tuples(
        ARRAYS[types[0]].filter(lambda a: len(a) <= 4), ARRAYS[types[1]].filter(lambda a: len(a) <= 4)).map(
        lambda ab: (ab[0][:n], ab[1][:n]) if n % 2 else ab))
    check_every_stage(stacked, list(types), pairs)


def quantiles(a, q: float, k: int):
    return np.percentile(a, q), np.quantile(a, q / 100), np.percentile(a, k), np.quantile(a, k)


QS = st.one_of(st.sampled_from([0.0, 100.0, 50.0, 25.0, 33.3, 99.9, 12.5, -1.0, 100.5, np.nan]),
               st.floats(0, 100))


@pytest.mark.parametrize("dtype", [F, I64])
def test_percentile_and_quantile_are_numpys_linear_method(dtype):
    arrays = ARRAYS[dtype].filter(lambda a: not _both_zeros(a))
    check_every_stage(quantiles, [dtype, "float", "int"],
                      st.tuples(arrays, QS, st.sampled_from([0, 1, 50, 100, 2])), max_examples=80)


def percent(a, q: float):
    return np.percentile(a, q)


def test_percentile_of_a_zero_beside_the_other_zero_is_not_guessed():
    assert son.jit(percent, fallback="error")(np.array([-0.0, 5.0, 0.0, 6.0]), 100.0) == 6.0
    with pytest.raises(NotImplementedError):
        son.jit(percent, fallback="error")(np.array([-0.0, 5.0, 0.0]), 0.0)


def ranges(n: int, x: float, s: int):
    return np.arange(n, dtype=float), np.arange(x, dtype=np.float64), np.arange(-n, n, s, dtype=float), \
        np.arange(n, dtype=int), np.arange(1, n, dtype=np.int64)


def test_arange_with_dtype_is_numpys():
    check_every_stage(ranges, ["int", "float", "int"],
                      st.tuples(st.integers(-3, 9), st.sampled_from([0.5, 3.0, -1.0, 7.25, 0.0]),
                                st.sampled_from([1, 2, -1, 3, 0])))


def big_ranges(a: int, b: int, s: int):
    return np.arange(a, b, s, dtype=float)


def test_arange_of_large_ints_as_floats_rounds_as_numpy():
    cases = [(2**62, 2**62 + 10, 3), (-2**63, 2**62, 2**61 + 1), (0, 2**62, 2**61 + 1), (9, -9, -4),
             (-2**63, 2**63 - 1, 2**62)]

    def expected(fn, args):
        if (args[1] - args[0]) >= 2**63:  # the difference passes int64: refused
            return ("raise", NotImplementedError)
        return run_python(fn, args)

    check_every_stage(big_ranges, ["int", "int", "int"], st.sampled_from(cases), expected=expected,
                      max_examples=10)


@pytest.mark.parametrize("text, where", [
    ("def f(a: np.ndarray):\n    return np.repeat(a, 2, axis=0)\n", "axis="),
    ("def f(a: np.ndarray):\n    return np.repeat(a, 2.0)\n", "repeats that are not"),
    ("def f(a: np.ndarray):\n    return np.repeat(a, a)\n", "float repeats"),
    ("def f(a: np.ndarray):\n    return np.tile(a, (2, 2))\n", "tuple of reps"),
    ("def f(a: np.ndarray):\n    return np.tile(a.reshape(1, -1), 2)\n", "2-D array"),
    ("def f(a: np.ndarray):\n    return np.unique(a, return_counts=True, axis=0)\n", "axis="),
    ("def f(a: np.ndarray):\n    return np.interp(1.0, a, a, period=2.0)\n", "period="),
    ("def f(a: np.ndarray):\n    return np.cross(a > 0, a > 1)\n", "of bools"),
    ("def f(a: np.ndarray):\n    return np.vstack(a)\n", "tuple or list of arrays"),
    ("def f(a: np.ndarray):\n    return np.percentile(a, a > 0)\n", "neither a number"),
    ("def f(a: np.ndarray):\n    return np.percentile(a, 50, method='lower')\n", "method="),
    ("def f(a: np.ndarray):\n    return np.quantile(a > 0, 0.5)\n", "of bools"),
    ("def f(a: np.ndarray):\n    return np.arange(3, dtype=bool)\n", "of bools"),
    ("def f(a: np.ndarray):\n    return np.arange(0.5, 3, dtype=int)\n", "floats as ints"),
])
def test_what_son_does_not_build_is_refused_where_it_is_written(tmp_path, text, where):
    fn = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=where) as info:
        son.parse(fn, argtypes=[F])
    assert "case.py:" in str(info.value)


def test_interp_without_sample_points_is_numpys_value_error():
    def f(x: float, xp, fp):
        return np.interp(x, xp, fp)

    for args in [(1.0, np.zeros(0), np.zeros(0)), (1.0, np.zeros(2), np.zeros(3))]:
        with pytest.raises(ValueError):
            f(*args)
        with pytest.raises(ValueError):
            son.jit(f)(*args)
    assert math.isnan(son.jit(f)(math.nan, np.zeros(2), np.ones(2)))


def test_one_count_for_all_is_numpys_scalar_count():
    """``np.repeat(a, [c])`` is ``np.repeat(a, c)``: no error for an empty ``a`` and a
    negative ``c`` (hypothesis found son raising there), numpy's ValueError otherwise."""
    def f(a, counts):
        return np.repeat(a, counts)

    k = son.jit(f)
    for a in (np.array([], dtype=np.float64), np.array([1.5, -2.0])):
        for c in ([-1], [0], [2]):
            counts = np.array(c, dtype=np.int64)
            try:
                want = f(a, counts)
            except ValueError:
                with pytest.raises(ValueError):
                    k(a, counts)
                continue
            assert k(a, counts).tolist() == want.tolist()


def repeated_n_d(m, k: int):
    """numpy repeats an n-D array flattened in C order, whatever its layout."""
    return np.repeat(m, k), m.T.repeat(2), np.repeat(m > 0, k)


def test_repeat_of_an_n_d_array_is_numpys():
    shapes = st.tuples(st.integers(0, 3), st.integers(1, 3))
    check_every_stage(repeated_n_d, ["float64[:, :]", "int"], st.tuples(
        shapes.flatmap(lambda s: st.lists(st.floats(-9, 9), min_size=s[0] * s[1], max_size=s[0] * s[1]).map(
            lambda xs: np.array(xs, dtype=np.float64).reshape(s))), st.integers(-1, 3)), max_examples=25)


def crossed_rows(m, v):
    """Rows of 3-vectors, a 1-D vector broadcast down them (numpy's ValueError for rows
    that do not broadcast or vectors that are not 3 long)."""
    return np.cross(m, v), np.cross(v, m), np.cross(m, m[::-1]), np.cross(m[:1], m)


def test_cross_of_rows_of_vectors_is_numpys():
    rows = st.integers(0, 3).flatmap(lambda n: st.lists(st.floats(-9, 9), min_size=3 * n,
                                                          max_size=3 * n).map(
        lambda xs: np.array(xs, dtype=np.float64).reshape(-1, 3)))
    vectors = st.lists(st.floats(-9, 9), min_size=3, max_size=4).map(
        lambda xs: np.array(xs, dtype=np.float64))
    check_every_stage(crossed_rows, ["float64[:, :]", "float64[]"], st.tuples(rows, vectors), max_examples=25)


def quantile_arrays(a, q, k):
    """One number per q, numpy's errors first (a q out of range, then an empty array)."""
    return np.percentile(a, q * 100.0), np.quantile(a, q), np.quantile(k, k % 2), np.percentile(k, k)


def test_percentile_and_quantile_of_an_array_of_q_are_numpys():
    values = st.floats(-9, 9) | st.sampled_from([np.nan, np.inf, 1.0])
    check_every_stage(quantile_arrays, ["float64[]", "float64[]", "int64[]"], st.tuples(
        st.lists(values.filter(lambda x: x != 0), max_size=5).map(lambda xs: np.array(xs, dtype=np.float64)),
        st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5, -0.1]), max_size=3).map(
            lambda xs: np.array(xs, dtype=np.float64)),
        st.lists(st.integers(0, 100), min_size=1, max_size=4).map(lambda xs: np.array(xs, dtype=np.int64))),
        max_examples=30)
