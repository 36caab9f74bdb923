"""np.unique with return_index/return_inverse/return_counts/equal_nan
(son/frontend/arraymore.py), np.split/np.array_split (son/frontend/arraybuild.py) and
np.tensordot (son/frontend/linalg.py): numpy is the oracle in every stage, with
hypothesis inputs (empty arrays, NaN, signed zeros, int64 edges, lengths that do not
divide), and numpy's errors or son's located refusals."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, function_from_text, run_python
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

F, I64, B, F2, I2 = "float64[]", "int64[]", "bool[]", "float64[:, :]", "int64[:, :]"
EDGES = [0.0, -0.0, 0.5, 1.0, 1.0, 2.0, -3.25, 1e300, np.nan, np.inf, -np.inf]
FLOAT_ARRAYS = st.lists(st.one_of(st.sampled_from(EDGES), st.floats(-3, 3)), max_size=8).map(
    lambda xs: np.array(xs, dtype=np.float64))
INT_ARRAYS = st.lists(st.one_of(st.integers(-3, 3), st.sampled_from([-2**63, 2**63 - 1])), max_size=8).map(
    lambda xs: np.array(xs, dtype=np.int64))
BOOL_ARRAYS = st.lists(st.booleans(), max_size=8).map(lambda xs: np.array(xs, dtype=np.bool_))
ARRAYS = {F: FLOAT_ARRAYS, I64: INT_ARRAYS, B: BOOL_ARRAYS}


def _both_zeros(a) -> bool:
    zeros = a[a == 0]
    return a.dtype.kind == "f" and bool(np.signbit(zeros).any()) and bool((~np.signbit(zeros)).any())


# -- np.unique --------------------------------------------------------------------------
def unique_parts(a):
    return np.unique(a, True, True, True), np.unique(a[::-1], return_index=True, equal_nan=False)


def unique_without_index(a):
    return np.unique(a, return_inverse=True), np.unique(a[::-1], return_counts=True, equal_nan=False)


@pytest.mark.parametrize("dtype", [F, B])
def test_unique_with_index_is_numpys_first_occurrence(dtype):
    """With return_index numpy's sort is stable: the first occurrence of each value is kept
    (of 0.0 and -0.0 too) and its index given; the inverse and the counts follow."""
    check_every_stage(unique_parts, [dtype], st.tuples(ARRAYS[dtype]), max_examples=30)


def _declined_for_both_zeros(fn, args):
    if _both_zeros(args[0]):
        return ("raise", NotImplementedError)  # which zero numpy keeps is its kernels' choice
    return run_python(fn, args)


def test_unique_inverse_and_counts_are_numpys():
    check_every_stage(unique_without_index, [F], st.tuples(FLOAT_ARRAYS), expected=_declined_for_both_zeros,
                      max_examples=40)


def unique_of_grids(m):
    return (np.unique(m, True, True, True), np.unique(m.T, return_inverse=True), np.unique(m[::-1, 1:]),
            np.unique(m[:1]))


@pytest.mark.parametrize("dtype, elements", [(F2, st.sampled_from([0.5, 1.0, -3.25, np.nan, np.inf, 2.0])),
                                             (I2, st.integers(-3, 3) | st.sampled_from([-2**63, 2**63 - 1]))],
                         ids=["float64", "int64"])
def test_unique_of_an_nd_array_is_numpys_of_its_elements(dtype, elements):
    """numpy flattens the array first (C order: a transposed view's elements in its own
    order); numpy 2 gives the inverse the array's shape."""
    np_dtype = np.float64 if dtype == F2 else np.int64
    grids = st.tuples(st.integers(0, 3), st.integers(0, 4)).flatmap(
        lambda shape: hnp.arrays(np_dtype, shape, elements=elements))
    check_every_stage(unique_of_grids, [dtype], st.tuples(grids), max_examples=30)


# -- np.split, np.array_split -----------------------------------------------------------
def equal_thirds(x):
    a, b, c = np.split(x, 3)
    return a, c, tuple(np.split(x, 1))


def sections_and_indices(x, i: int):
    p = np.array_split(x, 3)
    q = np.split(x, [i, 2])
    r = np.array_split(x, (-1,))
    return p[0], p[2], len(p), q[0], q[1], q[2], tuple(r), np.split(x, [])[0], tuple(np.array_split(x, 9))


@pytest.mark.parametrize("dtype", [I64])
def test_split_and_array_split_are_numpys_pieces(dtype):
    """Sections of one length (numpy's ValueError where the length does not divide), the
    first ``n % k`` one longer for array_split, Python's slice rules at the indices."""
    check_every_stage(equal_thirds, [dtype], st.tuples(ARRAYS[dtype]), max_examples=15)
    check_every_stage(sections_and_indices, [dtype, "int"], st.tuples(ARRAYS[dtype], st.integers(-9, 9)),
                      max_examples=30)


def grid_pieces(x):
    a, b = np.array_split(x, 2)
    c = np.array_split(x, 3, axis=1)
    return a, b, c[0], c[2], tuple(np.split(x, [1], axis=-1)), tuple(np.split(x, 1, axis=1))


def test_split_of_2d_arrays_along_an_axis_is_numpys():
    grids = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=0, max_side=4),
                       elements=st.floats(-3, 3))
    check_every_stage(grid_pieces, [F2], st.tuples(grids), max_examples=25)


def sections_refused_by_numpy(x, k: int):
    if k == 0:
        return np.split(x, 0)[0]
    if k == 1:
        return np.array_split(x, 0)[0]
    if k == 2:
        return np.split(x, -2)[0]
    return np.split(x, 2)[1]


def test_split_raises_numpys_errors_at_run_time():
    """np.split(x, 0) is ZeroDivisionError (numpy's ``N % 0``), a count below one
    ValueError, an unequal division ValueError: when the call runs, not when son parses."""
    check_every_stage(sections_refused_by_numpy, [F, "int"],
                      st.tuples(FLOAT_ARRAYS, st.integers(0, 3)), max_examples=30)


def test_split_pieces_are_views_of_the_array():
    def f(x):
        a, b = np.split(x, 2)
        a[0] = 7.0
        b += 1.0
        return x

    x = np.arange(6.0)
    np.testing.assert_array_equal(son.jit(f, fallback="error")(x.copy()), f(x.copy()))
    g = son.parse(f, argtypes=[F])
    np.testing.assert_array_equal(son.interpret(g, x.copy()), f(x.copy()))



# -- np.tensordot ------------------------------------------------------------------------
def _shaped(dtype, shape):
    elements = st.integers(-3, 3) if dtype == np.float64 else st.one_of(st.integers(-3, 3), st.just(2**62))
    return hnp.arrays(dtype, shape, elements=elements)


def _operands(dtype):
    """``a`` (n, k), ``b`` (k, n) (or, now and then, (k + 1, n): numpy's ValueError),
    ``x`` (p, n, k)."""
    return st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2), st.integers(0, 5)).flatmap(
        lambda d: st.tuples(_shaped(dtype, (d[0], d[1])), _shaped(dtype, (d[1] + (d[3] == 0), d[0])),
                            _shaped(dtype, (d[2], d[0], d[1]))))


def contractions(a, b, x):
    return (np.tensordot(a, b, 1), np.tensordot(a, b, axes=([0], [1])), np.tensordot(x, a, axes=2),
            np.tensordot(x, b[:, 0], axes=([2], [0])), np.tensordot(a[0], b[:, 0], 0),
            np.tensordot(x, x, axes=([0, 2], [0, 2])))


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_tensordot_is_numpys_transpose_reshape_dot(dtype):
    """Integer-valued floats and wrapping ints, so every order of summation gives numpy's
    result; shapes that do not match give numpy's ValueError (or IndexError for a[0] of
    an empty array)."""
    kind = "float64" if dtype == np.float64 else "int64"
    check_every_stage(contractions, [f"{kind}[:, :]", f"{kind}[:, :]", f"{kind}[:, :, :]"], _operands(dtype),
                      max_examples=40)


@pytest.mark.parametrize("text, where", [
    ("def f(a, k: bool):\n    return np.unique(a, return_counts=k)\n", "not a constant bool"),
    ("def f(a, k: bool):\n    return np.unique(a, sorted=False)\n", "sorted=False"),
    ("def f(a, k: bool):\n    return np.unique(a.reshape(2, -1), axis=0)\n", "axis="),
    ("def f(a, k: bool):\n    return np.split(a, 2)\n", "list of arrays"),
    ("def f(a, k: bool):\n    return np.array_split(a, 2) == (a, a)\n", "comparison of numpy's list"),
    ("def f(a, k: bool):\n    return tuple(np.split(a, 2) + (a,))\n", "can only concatenate list"),
    ("def f(a, k: bool):\n    return np.split(a, int(k) + 1)[0]\n", "not a constant int"),
    ("def f(a, k: bool):\n    return np.split(a, [1.5])[0]\n", "not an int"),
    ("def f(a, k: bool):\n    return np.split(a, 2, axis=1)[0]\n", "out of bounds"),
    ("def f(a, k: bool):\n    return np.tensordot(a, a, 1)\n", "summing every axis"),
    ("def f(a, k: bool):\n    return np.tensordot(a, a, int(k))\n", "not a constant int"),
    ("def f(a, k: bool):\n    return np.tensordot(a > 0, a, 0)\n", "int or float arrays"),
    ("def f(a, k: bool):\n    return np.tensordot(a.reshape(2, 2, -1), a.reshape(2, 2, -1), 0)\n", "6-D"),
])
def test_what_son_does_not_build_is_refused_where_it_is_written(tmp_path, text, where):
    fn = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=where) as info:
        son.parse(fn, argtypes=[F, "bool"])
    assert "case.py:" in str(info.value)
