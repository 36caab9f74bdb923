"""numpy's rearrangements of arrays (son/frontend/arrayops.py): ``np.concatenate`` and
``np.append`` (of n-D arrays too, along an axis or flattened),
``np.argsort`` (stable kinds exact; the default kind refused where keys tie),
``np.nonzero`` and ``np.flatnonzero`` (of n-D arrays too), ``np.argwhere`` (a Fortran-order
view, as numpy's), ``a.fill`` of n-D arrays, ``np.atleast_*d`` of a number.  numpy is the
oracle in every stage."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage, function_from_text, run_python
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son

FLOATS = st.one_of(st.sampled_from([0.0, 1.0, -1.5, math.nan, math.inf, -math.inf]), st.floats(-1e3, 1e3))
FARR = st.lists(FLOATS, max_size=9).map(lambda xs: np.array(xs, dtype=np.float64))
IARR = st.lists(st.integers(-4, 4), max_size=9).map(lambda xs: np.array(xs, dtype=np.int64))
BARR = st.lists(st.booleans(), max_size=7).map(lambda xs: np.array(xs, dtype=np.bool_))
F, I64, B = "float64[]", "int64[]", "bool[]"


def joined(a, k, m):
    return np.concatenate((a, k[::-1], a[:1])), np.concatenate([m, k]), np.concatenate((m, m)), \
        np.concatenate((k,))


def stable_orders(a):
    return np.argsort(a, kind="stable"), a[::-1].argsort(kind="mergesort"), a[np.argsort(a, kind="stable")]


def default_order(a):
    return np.argsort(a), a[1:].argsort()


def nonzeros(a, k, m):
    return np.nonzero(a), np.flatnonzero(k), np.nonzero(m)[0], np.flatnonzero(a > 0.5), np.where(k < 2)


def joined_n_d(a, c, i):
    """Along each axis, of mixed dtypes, flattened (``axis=None``), and ``np.append``."""
    return (np.concatenate((a, i), axis=0), np.concatenate([a, a[:, ::-1]], axis=1),
            np.concatenate((c, c[:, :1]), 1), np.concatenate((c, c), axis=-1),
            np.concatenate((a, c[0]), axis=None),
            np.append(a, i), np.append(a[0], 2), np.append(i, [1.5, -2.0]), np.append(a, i > 0, axis=0),
            np.append(c[0], 7, axis=None))


def nonzeros_n_d(a, c, b, v: float):
    """The true elements' indices in C order (NaN is true, -0.0 false), per axis and
    flat; argwhere's rows; n-D fills with the value cast once, as numpy's."""
    c2 = c.copy()
    c2.fill(v)
    a2 = a[::-1].copy()
    a2.fill(v > 0)
    return (np.nonzero(a), c.nonzero(), np.flatnonzero(c), np.argwhere(b), np.argwhere(c).copy(),
            np.where(a.T), c2, a2, np.atleast_2d(v), np.atleast_3d(b[0, 0]), np.atleast_1d(len(a)))


N_D_VALUES = FLOATS | st.sampled_from([0.0, -0.0, np.nan])


CASES = [
    (nonzeros_n_d, ["float64[:, :]", "float64[:, :, :]", "bool[:, :]", "float"],
     st.tuples(st.integers(0, 3), st.integers(1, 3)).flatmap(lambda s: st.tuples(
         hnp.arrays(np.float64, s, elements=N_D_VALUES),
         st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2)).flatmap(
             lambda t: hnp.arrays(np.float64, t, elements=N_D_VALUES)),
         hnp.arrays(np.bool_, (s[0] + 1, s[1])), FLOATS))),
    (joined_n_d, ["float64[:, :]", "float64[:, :, :]", "int64[:, :]"],
     st.tuples(st.integers(0, 3), st.integers(0, 3)).flatmap(lambda s: st.tuples(
         hnp.arrays(np.float64, s, elements=FLOATS),
         st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(0, 2)).flatmap(
             lambda t: hnp.arrays(np.float64, t, elements=FLOATS)),
         hnp.arrays(np.int64, s, elements=st.integers(-2**62, 2**62) | st.integers(-3, 3))))),
    (joined, [F, I64, B], st.tuples(FARR, IARR, BARR)),
    (stable_orders, [F], st.tuples(FARR)),
    (stable_orders, [I64], st.tuples(IARR)),
    (stable_orders, [B], st.tuples(BARR)),
    (nonzeros, [F, I64, B], st.tuples(FARR, IARR, BARR)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES,
                         ids=[f"{c[0].__name__}-{'-'.join(map(str, c[1]))}" for c in CASES])
def test_every_stage_agrees_with_numpy(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=60)


def test_the_default_argsort_agrees_without_ties_and_refuses_them():
    distinct = st.lists(st.floats(-1e3, 1e3), max_size=9, unique=True).map(
        lambda xs: (np.array(xs, dtype=np.float64),))
    check_every_stage(default_order, [F], distinct, max_examples=40)
    f = son.jit(default_order, fallback="error")
    for ties in ([1.0, 2.0, 1.0], [0.0, -0.0], [math.nan, 1.0, math.nan]):
        with pytest.raises(NotImplementedError, match="kind='stable'"):
            f(np.array(ties))
    # son.jit's default runs such a call again in CPython: numpy's own answer, with a warning
    with pytest.warns(son.FallbackWarning, match="ran a call in CPython"):
        got = son.jit(default_order)(np.array([1.0, 2.0, 1.0]))
    want = default_order(np.array([1.0, 2.0, 1.0]))
    assert all(np.array_equal(x, y) for x, y in zip(got, want))
    assert run_python(default_order, (np.array([3.0, 1.0]),))[0] == "ok"


@pytest.mark.parametrize("text, message", [
    ("def f(a):\n    return np.concatenate(a)\n", "tuple or list of arrays"),
    ("def f(a):\n    return np.concatenate((a, 1.0))\n", "anything but arrays"),
    ("def f(a):\n    return np.concatenate((a, a), axis=len(a))\n", "not a constant int"),
    ("def f(a):\n    return np.concatenate((a, a), axis=1)\n", "out of bounds"),
    ("def f(a):\n    return np.argsort(a, kind='heapsort')\n", "kind="),
    ("def f(a):\n    return np.argsort(a, axis=0, order=None)\n", "arguments other than"),
])
def test_what_son_does_not_rearrange_is_a_located_error(tmp_path, text, message):
    with pytest.raises(son.SonSyntaxError, match=message):
        son.parse(function_from_text(tmp_path, text), argtypes=[F])
