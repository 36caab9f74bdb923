"""Iterating an n-D array's elements and index tuples (son/frontend/iteration.py,
son/frontend/ndarrays.py): ``for x in a.flat``, ``for idx, x in np.ndenumerate(a)``,
``for idx in np.ndindex(*shape)`` / ``np.ndindex(a.shape)``, ``a[idx]`` with ``idx`` a
tuple value, and ``x in a``.  Items come in C order, each read when the loop reaches it (a write in the
body is seen by a later step), as numpy's iterators do.  CPython is the oracle in every
stage and the kernel, on C-order arrays, transposed and reversed views and empty ones."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.frontend.signature import ViewSpec


def arrays(ndim, views: bool = False):
    """C-order arrays of up to 4 per axis; with ``views``, views of them that are not C
    order (transposed, or reversed along the first axis): son specializes on layout."""
    shape = st.tuples(*[st.integers(0, 4)] * ndim)

    def filled(sh):
        n = int(np.prod(sh))
        values = st.lists(st.floats(-9, 9), min_size=n, max_size=n)
        return values.map(lambda xs: np.array(xs, dtype=np.float64).reshape(sh))

    if not views:
        return shape.flatmap(filled)
    return shape.flatmap(filled).flatmap(lambda a: st.sampled_from([a.T, a[::-1]])).filter(
        lambda v: not v.flags.c_contiguous)


def spec(ndim, views: bool = False):
    return ViewSpec("float64", ndim) if views and ndim > 1 else f"float64[{', '.join([':'] * ndim)}]"


def flat_walk(a):
    s, first = 0.0, -1.0
    for x in a.flat:
        s = s * 0.5 + x
        if x > 3.0 and first < 0:
            first = x
    return s, first


def enumerated(a):
    s = 0.0
    for idx, x in np.ndenumerate(a):
        s = s * 0.5 + x * (idx[0] + 1) - idx[-1]
        if x > 8.5:
            break
    return s


def indexed_in_place(a):
    for idx in np.ndindex(a.shape):
        a[idx] = a[idx] * 2.0 + idx[0]
    t = 0.0
    for jdx in np.ndindex(*a.shape):
        t = t * 0.5 + a[jdx]
    return t


@pytest.mark.parametrize("fn", [flat_walk, enumerated, indexed_in_place])
@pytest.mark.parametrize("ndim", [1, 2, 3])
@pytest.mark.parametrize("views", [False, True], ids=["c-order", "views"])
def test_element_and_index_iteration_agrees_with_cpython(fn, ndim, views):
    check_every_stage(fn, [spec(ndim, views)], st.tuples(arrays(ndim, views)), max_examples=12)


def counted(n: int, m: int):
    t, c = 0, 0
    for i, j in np.ndindex(n, m):
        t = t * 3 + i * 7 + j
        c += 1
    for _ in np.ndindex():
        c += 100
    for (k,) in np.ndindex(m):
        c += k
    return t, c


def test_ndindex_of_int_dimensions_agrees_with_cpython():
    """An empty shape is one empty tuple; a zero dimension none; a negative one numpy's
    ValueError."""
    check_every_stage(counted, ["int", "int"], st.tuples(st.integers(-2, 5), st.integers(-1, 5)),
                      max_examples=30)


def rows_of(a):
    out = 0.0
    for idx in np.ndindex(a.shape[:1]):
        out += np.sum(a[idx]) * (idx[0] + 1)
    return out


def test_a_tuple_value_shorter_than_the_rank_is_a_view():
    check_every_stage(rows_of, [spec(2)], st.tuples(arrays(2)), max_examples=15)


def too_many(a, t: tuple):
    return a[t]


def test_a_tuple_value_longer_than_the_rank_is_a_located_error():
    with pytest.raises(son.SonSyntaxError, match="too many indices|items for a 1-D array"):
        son.parse(too_many, argtypes=["float64[:, :]", ("int", "int", "int")])
    with pytest.raises(son.SonSyntaxError, match="items for a 1-D array"):
        son.parse(too_many, argtypes=["float64[:]", ("int", "int")])


def members(a, x: float):
    return x in a, (x + 1.0) not in a, x in a.T


@pytest.mark.parametrize("views", [False, True], ids=["c-order", "views"])
def test_membership_in_an_n_d_array_is_numpys(views):
    """numpy's ``(a == x).any()``: every element, whatever the layout (NaN never equal)."""
    check_every_stage(members, [spec(2, views), "float"],
                      st.tuples(arrays(2, views), st.sampled_from([0.0, -0.0, 3.0, np.nan, 8.5])),
                      max_examples=15)


def sums_of_rows(m, c):
    return sum(m), sum(m, 0.5), math.prod(m, start=2.0), sum(c)


def _no_rows_refused(fn, args):
    """CPython's value, or son's refusal where there are no rows (``sum`` is then its
    start, a number, where son's sum of rows is an array)."""
    return ("raise", NotImplementedError) if 0 in (len(args[0]), len(args[1])) else run_python(fn, args)


def test_sum_of_an_n_d_array_adds_its_rows_as_cpython():
    """``sum(m)`` is ``0 + m[0] + m[1] + ...``, each ``+`` numpy's (so ``-0.0`` rows give
    ``0.0``); ``math.prod`` multiplies; a 3-D array's rows are 2-D."""
    check_every_stage(sums_of_rows, ["float64[:, :]", "float64[:, :, :]"], st.tuples(arrays(2), arrays(3)),
                      max_examples=30, expected=_no_rows_refused)
