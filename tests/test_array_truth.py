"""``bool(a)``, ``if a:`` and ``not a`` of an array (son/frontend/expressions.py
``array_truth``): numpy's ValueError for an empty array and for one of more than one
element, else the truth of its one element (NaN true, -0.0 false), whatever its number
of dimensions or strides.  CPython is the oracle in every stage and the kernel."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

ELEMENTS = st.sampled_from([0.0, -0.0, 1.5, np.nan, -np.inf])


def truths(a, m):
    out = 0
    if a:
        out += 1
    if not m:
        out += 10
    return out, bool(a[::-1]), bool(m[:, :1])


@pytest.mark.parametrize("rows", [st.integers(0, 2), st.just(1)], ids=["any-size", "one-row"])
def test_the_truth_of_an_array_is_numpys(rows):
    arrays = st.tuples(st.lists(ELEMENTS, max_size=2).map(np.array).map(lambda a: a.astype(np.float64)),
                       st.tuples(rows, st.integers(1, 2)).flatmap(
                           lambda s: st.lists(ELEMENTS, min_size=s[0] * s[1], max_size=s[0] * s[1]).map(
                               lambda xs: np.array(xs, dtype=np.float64).reshape(s))))
    check_every_stage(truths, ["float64[]", "float64[:, :]"], arrays, max_examples=30)
