"""a.sort() in place, np.count_nonzero, np.trace, np.searchsorted, np.eye, np.identity,
np.isclose/np.allclose and np.polyval (son/frontend/arraymethods.py): numpy is the
oracle in every stage, with hypothesis inputs (NaN, signed zeros, unsorted arrays for
searchsorted, whose answers are numpy's binary search's too)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.sampled_from([0.0, 1.5, -2.0, 3.0, 3.0, np.nan, np.inf, -np.inf, 7.25])
FLOAT_ARRAYS = st.lists(FLOATS, max_size=7).map(lambda xs: np.array(xs, dtype=np.float64))
INT_ARRAYS = st.lists(st.integers(-3, 5), max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
SORTED_FLOATS = FLOAT_ARRAYS.map(np.sort)


def sort_in_place(a, b):
    r = a.sort()
    b[1:].sort()  # a view: sorted where it lies
    return r, a[0] if len(a) else -1.0


@pytest.mark.parametrize("arrays", [INT_ARRAYS, FLOAT_ARRAYS.map(lambda a: a[a != 0])], ids=["int", "float"])
def test_sort_sorts_in_place(arrays):
    dtype = "float64[]" if arrays is not INT_ARRAYS else "int64[]"
    check_every_stage(sort_in_place, [dtype, dtype], st.tuples(arrays, arrays))


def test_sort_of_both_zeros_is_not_guessed():
    with pytest.raises(NotImplementedError):
        son.jit(sort_in_place)(np.array([0.0, -0.0, 1.0]), np.zeros(2))


def counts(a, n: int):
    return np.count_nonzero(a), np.count_nonzero(a.reshape(n, -1) > 1.0), np.count_nonzero(a[::2])


def test_count_nonzero_counts_as_python_does():
    check_every_stage(counts, ["float64[]", "int"],
                      st.lists(FLOATS | st.sampled_from([-0.0]), max_size=3).map(
                          lambda xs: (np.array(xs * 2), 2)))


def traces(a, n: int):
    m = a.reshape(n, -1)
    return np.trace(m), np.trace(m.T), np.trace(m[::-1])


def test_trace_is_numpys_pairwise_sum_of_the_diagonal():
    rng = np.random.default_rng(5)
    check_every_stage(traces, ["float64[]", "int"],
                      st.sampled_from([(rng.standard_normal(n * m), n) for n, m in
                                       [(1, 1), (2, 3), (3, 2), (12, 12), (40, 30), (0, 4)]]))


def search(a, v: float):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right")


def search_keys(a, keys):
    return np.searchsorted(a, keys), np.searchsorted(a, keys, side="right")


def test_searchsorted_of_a_number_is_numpys():
    check_every_stage(search, ["float64[]", "float"], st.tuples(SORTED_FLOATS, FLOATS))


@pytest.mark.parametrize("arrays", [FLOAT_ARRAYS, SORTED_FLOATS], ids=["unsorted", "sorted"])
def test_searchsorted_of_keys_is_numpys_binary_search(arrays):
    check_every_stage(search_keys, ["float64[]", "float64[]"], st.tuples(arrays, FLOAT_ARRAYS),
                      max_examples=80)


def test_searchsorted_of_int_keys_in_an_unsorted_int_array():
    check_every_stage(search_keys, ["int64[]", "int64[]"], st.tuples(INT_ARRAYS, INT_ARRAYS), max_examples=80)


def eyes(n: int, k: int):
    return np.eye(n), np.eye(n, n + 2, k), np.eye(n, k=k, dtype=np.int64), np.identity(n, dtype=bool)


def test_eye_and_identity_are_numpys():
    check_every_stage(eyes, ["int", "int"], st.tuples(st.integers(0, 4), st.integers(-5, 5)))


@pytest.mark.parametrize("text, where", [
    ("def f(a: np.ndarray):\n    a.sort(kind='stable')\n    return a\n", "takes no arguments"),
    ("def f(a: np.ndarray):\n    return np.searchsorted(a, 1.0, sorter=a)\n", "sorter="),
    ("def f(a: np.ndarray):\n    return np.trace(a)\n", "2-D array"),
    ("def f(a: np.ndarray):\n    return np.count_nonzero(a, axis=0, out=a)\n", "axis= and keepdims="),
])
def test_what_son_does_not_build_is_refused_where_it_is_written(tmp_path, text, where):
    from conftest import function_from_text

    fn = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=where) as info:
        son.parse(fn, argtypes=["float64[]"])
    assert "case.py:" in str(info.value)


def closeness(a, b, t: float):
    return (np.isclose(a, b), np.allclose(a, b), np.allclose(a, b, equal_nan=True),
            np.isclose(a, b[::-1], rtol=t, atol=0.0), np.isclose(a[0] if len(a) else 0.0, t))


def test_isclose_and_allclose_are_numpys():
    pairs = st.integers(0, 4).flatmap(lambda n: st.tuples(
        st.lists(FLOATS | st.sampled_from([1e-9, 1.00001, -0.0]), min_size=n, max_size=n).map(np.array),
        st.lists(FLOATS | st.sampled_from([2e-9, 1.0, 0.0]), min_size=n, max_size=n).map(np.array),
        st.sampled_from([0.0, 1e-3, 0.5, np.inf, np.nan])))
    check_every_stage(closeness, ["float64[]", "float64[]", "float"], pairs)


def horner(p, x, xs, ks):
    return np.polyval(p, x), np.polyval(p, xs), np.polyval(p, ks), np.polyval(ks, 2)


def test_polyval_is_numpys_horner_loop():
    check_every_stage(horner, ["float64[]", "float", "float64[]", "int64[]"],
                      st.tuples(FLOAT_ARRAYS.filter(len).map(lambda a: np.where(np.isnan(a), -0.0, a)),
                                FLOATS, FLOAT_ARRAYS, INT_ARRAYS.filter(len)))
    with pytest.raises(NotImplementedError):  # numpy's 0-D array, which son has not
        son.jit(horner, fallback="error")(np.zeros(0), 1.0, np.zeros(1), np.ones(1, dtype=np.int64))
