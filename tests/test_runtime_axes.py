"""Reductions and line functions along an axis known only at run time
(son/frontend/axes.py ``by_axis``): ``a.sum(axis=k)``, ``np.mean(a, k)``,
``a.max(axis=k, keepdims=True)``, ``np.var(a, axis=k, ddof=1)``, ``np.cumsum``,
``np.argmax``, ``np.diff``, ``np.sort`` and ``np.median`` with ``k`` an int argument:
numpy's AxisError out of range, then one arm per axis whose results merge, so the result's
shape follows the axis.  CPython is the oracle in every stage (the raw parse, each
pipeline, the kernel) on every axis from ``-ndim - 1`` to ``ndim``."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import KERNEL_IN_SLOW, check_every_stage
from hypothesis import strategies as st


def reductions(a, k: int):
    return a.sum(axis=k), np.mean(a, k), a.max(axis=k, keepdims=True), np.var(a, axis=k, ddof=1)


def lines(a, k: int):
    return np.cumsum(a, axis=k), np.argmax(a, k), np.diff(a, axis=k), np.sort(a, axis=k), \
        np.median(a, axis=k, keepdims=True)


def int_sums(a, k: int):
    return a.sum(axis=k) * 2, np.prod(a, axis=k)


def matrices(ndim, dtype=np.float64, low=1):
    shape = st.tuples(*[st.integers(low, 4)] * ndim)
    values = st.floats(-9, 9) if dtype is np.float64 else st.integers(-5, 5)
    def filled(sh):
        n = int(np.prod(sh))
        return st.lists(values, min_size=n, max_size=n).map(lambda xs: np.array(xs, dtype=dtype).reshape(sh))

    return shape.flatmap(filled)


@pytest.mark.parametrize("fn, argtypes, ndim, dtype", [
    (reductions, ["float64[:, :]", "int"], 2, np.float64),
    (reductions, ["float64[:, :, :]", "int"], 3, np.float64),
    (lines, ["float64[:, :]", "int"], 2, np.float64),
    (int_sums, ["int64[:, :, :]", "int"], 3, np.int64),
], ids=["reductions-2d", "reductions-3d", "lines-2d", "int-sums-3d"])
@pytest.mark.parametrize("kernel", KERNEL_IN_SLOW)
def test_every_stage_and_the_kernel_agree_with_cpython_on_every_axis(fn, argtypes, ndim, dtype, kernel):
    """The kernels (one arm per axis, each a loop nest) compile in minutes: the slow suite's."""
    check_every_stage(fn, argtypes, st.tuples(matrices(ndim, dtype), st.integers(-ndim - 1, ndim)),
                      max_examples=20, kernel=kernel)


def one_sum(a, k: int):
    return a.sum(axis=k)


def test_the_kernel_of_a_sum_along_a_run_time_axis_agrees_with_cpython():
    check_every_stage(one_sum, ["int64[:, :]", "int"], st.tuples(matrices(2, np.int64), st.integers(-3, 2)),
                      max_examples=15)
