"""np.array/np.asarray of lists, tuples and arrays, a.astype(dtype) and np.linalg.norm
(son/frontend/arrayconv.py): CPython and numpy are the oracle in every stage
(hypothesis inputs); numpy's machine-defined casts raise NotImplementedError; what son
does not build is refused where it is written."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)
EDGE_FLOATS = st.one_of(FLOATS, st.sampled_from([-2.0**63, 2.0**63, -2.0**63 - 2048.0, 2.0**63 - 1024.0,
                                                -0.0, 0.5, -0.5, -1.5]))
INTS = st.one_of(st.integers(-2**63, 2**63 - 1), st.integers(-3, 3))
FLOAT_ARRAYS = st.lists(EDGE_FLOATS, max_size=6).map(lambda xs: np.array(xs, dtype=np.float64))
INT_ARRAYS = st.lists(INTS, max_size=6).map(lambda xs: np.array(xs, dtype=np.int64))
BOOL_ARRAYS = st.lists(st.booleans(), max_size=6).map(lambda xs: np.array(xs, dtype=np.bool_))


def tuple_to_array(x: float, n: int, b: bool):
    a = np.array((x, n, b))
    return a, np.array((n, b)), np.array((b, b)), np.asarray((n, x))


def list_to_array(x: float, n: int):
    xs = [x, 2.0 * x]
    ys = [n, 1, 0]  # (n + 1 would wrap at INT64_MAX, where CPython makes a bigger int)
    a = np.array(xs)
    xs.append(1.0)  # the array is a copy: unchanged
    return a, np.asarray(ys), np.array([n > 0, True]), np.array([x, n]), len(xs)


def literal_with_dtype(x: float, n: int):
    return np.array([n, 1], dtype=np.float64), np.array([n, 0], dtype=bool), np.array([x, 0.0], dtype=bool)


@pytest.mark.parametrize("fn", [tuple_to_array, list_to_array, literal_with_dtype])
def test_arrays_from_numbers_agree_with_numpy(fn):
    check_every_stage(fn, ["float", "int", "bool"][:fn.__code__.co_argcount],
                      st.tuples(FLOATS, INTS, st.booleans()).map(lambda t: t[:fn.__code__.co_argcount]))


def array_of_a_list(xs: list[int], k: int):
    ys = [x for x in xs if x > k]
    return np.array(ys, dtype=np.int64), np.asarray(ys)


def _numpy_or_refused(fn, args):
    """numpy's outcome, or son's NotImplementedError where the list is empty (numpy's
    array of no items is float64, where son's list holds ints)."""
    xs, k = args
    if not [x for x in xs if x > k]:
        return ("raise", NotImplementedError)
    return run_python(fn, args)


def test_an_array_of_an_empty_int_list_is_refused_where_numpy_makes_floats():
    """Probe (Pythran's np_array1D_): np.array of an empty list[int] was an int64 array."""
    check_every_stage(array_of_a_list, ["list[int]", "int"], st.tuples(st.lists(INTS, max_size=4), INTS),
                      expected=_numpy_or_refused)


def astype_all(a):
    return a.astype(np.float64), a.astype(bool), a.astype(np.int64), a.astype(int) * 2


def _numpy_cast(fn, args):
    """numpy's outcome, or NotImplementedError where a float does not fit int64 (the
    machine's cast, which son does not guess)."""
    a = args[0]
    if a.dtype == np.float64 and not all(-2.0**63 <= x < 2.0**63 for x in a.tolist()):
        return ("raise", NotImplementedError)
    return run_python(fn, args)


@pytest.mark.parametrize("arrays", [FLOAT_ARRAYS, INT_ARRAYS, BOOL_ARRAYS], ids=["float", "int", "bool"])
def test_astype_agrees_with_numpy(arrays):
    dtype = {FLOAT_ARRAYS: "float64[]", INT_ARRAYS: "int64[]", BOOL_ARRAYS: "bool[]"}[arrays]
    check_every_stage(astype_all, [dtype], st.tuples(arrays), expected=_numpy_cast)


def astype_2d(a, n: int):
    m = a.reshape(n, -1)
    return m.astype(np.int64), (m > 0).astype(float), m[1:].astype(np.float64)


def astype_transposed(a):
    return a.reshape(2, -1).T.astype(np.int64)


def test_astype_of_a_2d_array_keeps_its_shape_in_c_order():
    a = np.array([1.5, -2.5, 3.0, 0.0, -0.0, 7.25])
    k = son.jit(astype_2d)
    for n in (1, 2, 3, 6):
        got, want = k(a, n), astype_2d(a, n)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype and (g == w).all()
    with pytest.raises(NotImplementedError, match="memory order"):  # numpy's result is in F order
        son.jit(astype_transposed, fallback="error")(a)


def asarray_aliases(a, b):
    v = np.asarray(a)
    v[0] = 5.0  # np.asarray of an array is the array itself
    c = np.array(b)
    c[0] = 7.0  # np.array copies
    w = np.asarray(a[1:])
    w[0] = 9.0  # of a view, the view itself
    return a[0] + b[0] + a[1], np.asarray(a, dtype=np.int64)


def test_asarray_returns_the_array_itself_and_array_copies():
    check_every_stage(asarray_aliases, ["float64[]", "float64[]"],
                      st.tuples(st.lists(FLOATS.filter(lambda x: -2.0**63 <= x < 2.0**63), min_size=2,
                                         max_size=5).map(np.array),
                                st.lists(FLOATS, min_size=1, max_size=4).map(np.array)))


def norms(a, b):
    return np.linalg.norm(a), np.linalg.norm(b), np.linalg.norm(a.reshape(1, -1))


def test_norm_agrees_with_numpy_on_exact_sums():
    """Small ints as floats: every partial sum is exact, so BLAS's order cannot differ."""
    small = st.lists(st.integers(-1000, 1000), max_size=7)
    check_every_stage(norms, ["float64[]", "int64[]"],
                      st.tuples(small.map(lambda xs: np.array(xs, dtype=np.float64)),
                                small.map(lambda xs: np.array(xs, dtype=np.int64))))


def test_norm_of_floats_is_close_to_numpy():
    rng = np.random.default_rng(3)
    k = son.jit(norms)
    for n in (0, 1, 2, 5, 33, 1000):
        a = rng.standard_normal(n)
        got, want = k(a, np.arange(n)), norms(a, np.arange(n))
        for g, w in zip(got, want):
            assert math.isclose(g, w, rel_tol=1e-13, abs_tol=0.0), (n, g, w)


def nested(x: float, n: int, b: bool, u, v):
    """Displays of numbers, tuples and 1-D arrays: numpy's shape and dtype (any float
    makes floats, bools with ints make ints, nothing makes floats)."""
    p = (x, n)
    return (np.array([[1.0, x], [n, 2.0]]), np.array([[n, b], [b, 3]]), np.array([[b], [not b]]),
            np.array([p, (n, 1)]), np.array([u, v]), np.array([[u, v], [v * 2.0, u[::-1]]]),
            np.asarray((u, u, v), dtype=bool), np.array([[], []]),
            np.array([[[n, 1], [2, 3]], [[4, 5], [6, n]]]), np.array([u > 0, v > 0]))


def test_nested_displays_make_numpys_n_d_arrays_in_every_stage():
    """Arrays of different lengths are numpy's ValueError, its message included."""
    def same(k):
        return st.tuples(st.lists(st.floats(-1e6, 1e6), min_size=k, max_size=k),
                         st.lists(EDGE_FLOATS, min_size=k, max_size=k))

    short = st.lists(st.floats(-9, 9), max_size=3)
    arrays = st.integers(0, 4).flatmap(same) | st.tuples(short, short)
    strategy = st.tuples(EDGE_FLOATS, INTS, st.booleans(), arrays).map(
        lambda t: (*t[:3], np.array(t[3][0], dtype=np.float64), np.array(t[3][1], dtype=np.float64)))
    with np.errstate(all="ignore"):
        check_every_stage(nested, [float, int, bool, "float64[]", "float64[]"], strategy, max_examples=60)


def ragged(x: float, n: int):
    if n > 0:
        return np.array([[x, 1.0], [2.0]])  # numpy's ValueError where (and only if) it runs
    return np.array([[x, x]])


def test_a_ragged_display_raises_numpys_value_error_where_it_runs():
    check_every_stage(ragged, [float, int], st.tuples(st.floats(-9, 9), st.integers(-2, 2)), max_examples=10)


def stacked_loss(x, u, v):
    m = np.array([[x, 2.0 * x], [1.0, x * x]])
    return np.sum(np.array([u * x, v]) @ np.array([u, v]).T * m)


def test_gradients_go_through_nested_displays():
    from conftest import finite_differences

    rng = np.random.default_rng(2)
    args = [0.7, rng.standard_normal(4), rng.standard_normal(4)]
    for k, g in enumerate(son.grad(stacked_loss, argnums=(0, 1, 2))(*[a.copy() if k else a for k, a in
                                                                      enumerate(args)])):
        np.testing.assert_allclose(g, finite_differences(stacked_loss, args, k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("text, where", [
    ("def f(x: float):\n    return np.array(x)\n", "0-D array"),
    ("def f(x: float):\n    return np.array([[x, 1.0], [x, None]])\n", "holding None"),
    ("def f(a: np.ndarray):\n    return np.array([a.reshape(1, -1), a.reshape(1, -1)])\n", "n-D arrays"),
    ("def f(a: np.ndarray):\n    return np.array([[[a, a]]])\n", "4 dimensions"),
    ("def f(a: np.ndarray):\n    return a.astype(np.float32)\n", "unsupported dtype"),
    ("def f(a: np.ndarray):\n    return a.astype(float, copy=False)\n", "one dtype"),
    ("def f(a: np.ndarray):\n    return np.linalg.norm(a, len(a))\n", "ord= that is not a constant"),
    ("def f(x: float):\n    return np.array([x], order='C')\n", "one value and a dtype"),
])
def test_what_son_does_not_build_is_refused_where_it_is_written(tmp_path, text, where):
    from conftest import function_from_text

    fn = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=where) as info:
        son.parse(fn, argtypes=["float64[]"] if "ndarray" in text else ["float"])
    assert "case.py:" in str(info.value)
