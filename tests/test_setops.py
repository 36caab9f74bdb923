"""numpy's set routines and array edits (son/frontend/setops.py): np.ediff1d, np.extract,
np.array_equal, np.isin, np.union1d, np.intersect1d, np.setdiff1d, np.delete, np.insert,
np.count_nonzero(axis=) and a.take.  numpy is the oracle in every stage, with hypothesis
inputs (empty arrays, duplicates, NaN, signed zeros, infinities, int64 edges); where
numpy's answer depends on its algorithm, son's NotImplementedError is a refusal and the
input is skipped (``expected``)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.sampled_from([0.0, -0.0, 1.5, -1.5, 2.0, 3.0, np.nan, np.inf, -np.inf, 1e300, 2.0**53])
FLOAT_ARRAYS = st.lists(FLOATS, max_size=6).map(lambda xs: np.array(xs, dtype=np.float64))
INTS = st.one_of(st.integers(-3, 3), st.sampled_from([-2**63, 2**63 - 1, 2**53, 2**53 + 1]))
INT_ARRAYS = st.lists(INTS, max_size=6).map(lambda xs: np.array(xs, dtype=np.int64))
SMALL_INTS = st.lists(st.integers(-3, 3), max_size=6).map(lambda xs: np.array(xs, dtype=np.int64))
BOOL_ARRAYS = st.lists(st.booleans(), max_size=6).map(lambda xs: np.array(xs, dtype=bool))
ARRAYS = {"float64[]": FLOAT_ARRAYS, "int64[]": INT_ARRAYS, "bool[]": BOOL_ARRAYS}
KINDS = list(ARRAYS)
PAIRS = [(a, b) for a in KINDS for b in KINDS]


def _ids(kinds):
    return "-".join(k[:-2] for k in kinds)


def unless_refused(fn, args):
    """numpy's outcome, or None (skip) where son refuses at run time: CPython gives no
    NotImplementedError, so son's refusal is told apart by running son's own graph."""
    want = run_python(fn, args)
    if run_python(lambda *a: son.interpret(_GRAPHS[fn], *a), args) == ("raise", NotImplementedError):
        return None
    return want


_GRAPHS: dict = {}


def check(fn, argtypes, strategy, **kw):
    _GRAPHS[fn] = son.parse(fn, argtypes=argtypes)
    check_every_stage(fn, argtypes, strategy, expected=unless_refused, **kw)


# -- np.ediff1d --------------------------------------------------------------------------
def differences(a):
    return np.ediff1d(a)


def differences_with_ends(a, b):
    return np.ediff1d(a, to_begin=b, to_end=[1, 2]), np.ediff1d(a, 3, b[:1])


@pytest.mark.parametrize("kind", KINDS)
def test_ediff1d_is_numpys_in_the_arrays_dtype(kind):
    """Ints wrap, floats keep NaN and -0.0; of bools numpy's subtract is a TypeError."""
    check(differences, [kind], st.tuples(ARRAYS[kind]), max_examples=25)


@pytest.mark.parametrize("kinds", [("float64[]", "int64[]"), ("int64[]", "bool[]"), ("int64[]", "float64[]"),
                                   ("bool[]", "bool[]"), ("float64[]", "float64[]")], ids=_ids)
def test_ediff1d_ends_take_numpys_same_kind_rule(kinds):
    """to_begin of a higher kind than ary (floats before ints) is numpy's TypeError."""
    check(differences_with_ends, list(kinds), st.tuples(ARRAYS[kinds[0]], ARRAYS[kinds[1]]), max_examples=20,
          kernel=kinds[0] != "bool[]")


def differences_2d(a):
    return np.ediff1d(a.reshape(2, -1), to_end=2.5)


def test_ediff1d_flattens_an_nd_array():
    check(differences_2d, ["float64[]"], st.tuples(FLOAT_ARRAYS.filter(lambda a: len(a) % 2 == 0)),
          max_examples=15, kernel=False)


# -- np.extract, a.take ------------------------------------------------------------------
def extracted(c, a):
    return np.extract(c, a), a.take(np.array([0, -1])) if len(a) else a.take(np.zeros(0, dtype=np.int64))


@pytest.mark.parametrize("kinds", [("float64[]", "int64[]"), ("bool[]", "float64[]"), ("int64[]", "bool[]")],
                         ids=_ids)
def test_extract_and_take_are_numpys(kinds):
    """Truthy conditions (NaN is, -0.0 is not) past the end of arr: numpy's IndexError."""
    check(extracted, list(kinds), st.tuples(ARRAYS[kinds[0]], ARRAYS[kinds[1]]), max_examples=30)


def _as(a, dtype):
    with np.errstate(all="ignore"):
        return a.astype(dtype)


# -- np.array_equal ----------------------------------------------------------------------
def equal(a, b):
    return np.array_equal(a, b), np.array_equal(a, b, equal_nan=True), np.array_equal(a, a, equal_nan=True), \
        np.array_equal(a, b[::-1])


@pytest.mark.parametrize("kinds", PAIRS, ids=_ids)
def test_array_equal_compares_as_numpys_equal(kinds):
    """An int and a float are compared as doubles (2**53 + 1 equals 2.0**53), bools as 0
    and 1; arrays of other lengths are unequal."""
    same = st.one_of(ARRAYS[kinds[0]].map(lambda a: (a, _as(a, kinds[1][:-2]))),
                     st.tuples(ARRAYS[kinds[0]], ARRAYS[kinds[1]]),
                     st.just(_as(np.array([2**53 + 1, 1]), kinds[0][:-2])).map(
                         lambda a: (a, _as(np.array([2.0**53, 1.0]), kinds[1][:-2]))))
    check(equal, list(kinds), same, max_examples=25, kernel=kinds == ("float64[]", "int64[]"))


def equal_nd(a, b):
    return np.array_equal(a.reshape(2, -1), b.reshape(2, -1)), np.array_equal(a.reshape(2, -1), b), \
        np.array_equal(a.reshape(-1, 2), b.reshape(2, -1), equal_nan=True)


def test_array_equal_of_nd_arrays_compares_shapes():
    pairs = st.lists(FLOATS, min_size=2, max_size=6).filter(lambda xs: len(xs) % 2 == 0).flatmap(
        lambda xs: st.tuples(st.just(np.array(xs)), st.permutations(xs).map(np.array)))
    check(equal_nd, ["float64[]", "float64[]"], pairs, max_examples=25, kernel=False)


# -- np.isin and the set routines ----------------------------------------------------------
def membership(a, b):
    return np.isin(a, b), np.isin(a, b, invert=True), np.isin(a, [1, 2])


def set_routines(a, b):
    return np.union1d(a, b), np.intersect1d(a, b), np.setdiff1d(a, b), np.setdiff1d(b, a)


@pytest.mark.parametrize("kinds", PAIRS, ids=_ids)
def test_isin_is_numpys_membership(kinds):
    """NaN is never in, -0.0 is 0.0; an int past 2**53 against floats is refused."""
    check(membership, list(kinds), st.tuples(ARRAYS[kinds[0]], ARRAYS[kinds[1]]), max_examples=25,
          kernel=kinds == ("int64[]", "float64[]"))


@pytest.mark.parametrize("kinds", PAIRS, ids=_ids)
def test_union_intersection_and_difference_are_numpys(kinds):
    """numpy's promoted dtype (bools with ints are ints), one NaN, duplicates once; both
    zeros in one sort are refused."""
    check(set_routines, list(kinds), st.tuples(ARRAYS[kinds[0]], ARRAYS[kinds[1]]), max_examples=25,
          kernel=kinds == ("float64[]", "int64[]"))


def set_routines_nd(a, b):
    return np.union1d(a.reshape(2, -1), b), np.intersect1d(a.reshape(2, -1), [1.5, 2.0]), \
        np.setdiff1d(a.reshape(-1, 2), b), np.isin(b, a.reshape(2, -1))


def test_set_routines_flatten_nd_arrays_and_lists():
    check(set_routines_nd, ["float64[]", "float64[]"],
          st.tuples(FLOAT_ARRAYS.filter(lambda a: len(a) % 2 == 0), FLOAT_ARRAYS), max_examples=25,
          kernel=False)


def test_isin_refuses_an_int_past_2_53_against_floats_where_numpy_is_not_exact():
    """numpy's sort path rounds both ints to 2.0**53 and calls the first one in [1.5] * 12;
    its loop path (a short test array) does not: son refuses rather than guess."""
    a = np.array([2**53, 2**53 + 1])
    long, short = np.full(12, 1.5), np.array([1.5])
    assert np.isin(a, long).tolist() != np.isin(a, short).tolist()  # numpy's own disagreement
    g = son.parse(membership, argtypes=["int64[]", "float64[]"])
    with pytest.raises(NotImplementedError, match="2\\*\\*53"):
        son.interpret(g, a, short)


# -- np.count_nonzero along an axis --------------------------------------------------------
def counted(a, k: int):
    return np.count_nonzero(a, axis=0), np.count_nonzero(a.reshape(2, -1), axis=1), \
        np.count_nonzero(a.reshape(2, -1), 0), np.count_nonzero(a, axis=None, keepdims=True), \
        np.count_nonzero(a) + k


@pytest.mark.parametrize("kind", KINDS)
def test_count_nonzero_along_an_axis_is_numpys(kind):
    even = ARRAYS[kind].filter(lambda a: len(a) % 2 == 0)
    check(counted, [kind, "int"], st.tuples(even, st.integers(0, 2)), max_examples=20,
          kernel=kind == "float64[]")


# -- np.delete, np.insert ------------------------------------------------------------------
def deleted(a, i: int, idx, m):
    return np.delete(a, i), np.delete(a, idx), np.delete(a, m), np.delete(a, slice(1, None, 2)), \
        np.delete(a, slice(i, None, -1)), np.delete(a, [0, -1]), np.delete(a, i, axis=0)


@pytest.mark.parametrize("kind", KINDS)
def test_delete_is_numpys(kind):
    """An int index out of range is IndexError, a mask of another length ValueError; a slice
    with a zero step ValueError; duplicates in an index array delete once."""
    args = ARRAYS[kind].flatmap(lambda a: st.tuples(
        st.just(a), st.integers(-len(a) - 1, len(a)), SMALL_INTS,
        st.lists(st.booleans(), min_size=len(a), max_size=len(a) + (len(a) % 2)).map(
            lambda xs: np.array(xs, dtype=bool))))
    check(deleted, [kind, "int", "int64[]", "bool[]"], args, max_examples=30, kernel=kind == "int64[]")


def deleted_by_step(a, k: int):
    return np.delete(a.reshape(2, -1), slice(None, None, k))


def test_delete_by_a_slice_of_an_nd_array_is_numpys():
    """A zero step is Python's (and numpy's) ValueError."""
    check(deleted_by_step, ["float64[]", "int"], st.tuples(FLOAT_ARRAYS.filter(lambda a: len(a) % 2 == 0),
                                                          st.integers(-3, 3)), max_examples=20, kernel=False)


def deleted_oddly(a, x: float, flag: bool):
    if flag:
        return np.delete(a, x)
    return np.delete(a, flag)


def test_delete_of_a_float_or_bool_index_is_numpys_error():
    check(deleted_oddly, ["float64[]", "float", "bool"], st.tuples(FLOAT_ARRAYS, FLOATS, st.booleans()),
          max_examples=10, kernel=False)
    assert run_python(deleted_oddly, (np.ones(3), 1.0, True))[0] == "raise"


def inserted(a, i: int, v, x: float):
    return np.insert(a, i, v), np.insert(a, i, x), np.insert(a, -1, [True, False]), np.insert(a, i, 7)


@pytest.mark.parametrize("kind", KINDS)
def test_insert_at_an_int_is_numpys(kind):
    """Values of a lower kind converted to the array's dtype; numpy's IndexError outside
    -n <= i <= n."""
    args = ARRAYS[kind].flatmap(lambda a: st.tuples(st.just(a), st.integers(-len(a) - 1, len(a) + 1),
                                                    BOOL_ARRAYS, FLOATS))
    fn = inserted if kind == "float64[]" else inserted_low
    check(fn, [kind, "int", "bool[]", "float"], args, max_examples=25, kernel=kind == "float64[]")


def inserted_low(a, i: int, v, x: float):
    return np.insert(a, i, v), np.insert(a.reshape(1, -1), i, True)


# -- refusals ----------------------------------------------------------------------------
def f_isin_2d(a):
    return np.isin(a.reshape(1, -1), a)


def f_isin_unique(a):
    return np.isin(a, a, assume_unique=True)


def f_intersect_indices(a):
    return np.intersect1d(a, a, return_indices=True)


def f_insert_float(a):
    return np.insert(a, 0, 1.5)


def f_insert_list_obj(a):
    return np.insert(a, [0, 1], 1)


def f_delete_axis(a):
    return np.delete(a.reshape(1, -1), 0, axis=1)


def f_equal_number(a):
    return np.array_equal(a, 1.0)


def f_union_number(a):
    return np.union1d(a, 2)


@pytest.mark.parametrize("fn, argtype, match", [
    (f_isin_2d, "float64[]", "isin\\(\\) of a 2-D array"),
    (f_isin_unique, "float64[]", "assume_unique=True"),
    (f_intersect_indices, "float64[]", "return_indices=True"),
    (f_insert_float, "int64[]", "float64 values into a int64 array"),
    (f_insert_list_obj, "int64[]", "obj that is not an int"),
    (f_delete_axis, "float64[]", "along an axis of an n-D array"),
    (f_equal_number, "float64[]", "array_equal\\(\\) of a float value"),
    (f_union_number, "float64[]", "union1d\\(\\) of a int value"),
])
def test_refusals_are_located(fn, argtype, match):
    with pytest.raises(SonSyntaxError, match=match) as info:
        son.parse(fn, argtypes=[argtype])
    assert info.value.lineno > 0 and info.value.filename.endswith("test_setops.py")
