"""Reductions and line functions along an axis known only at run time
(son/frontend/axes.py ``by_axis``): ``a.sum(axis=k)``, ``np.mean(a, k)``,
``a.max(axis=k, keepdims=True)``, ``np.var(a, axis=k, ddof=1)``, ``np.cumsum``,
``np.argmax``, ``np.diff``, ``np.sort`` and ``np.median`` with ``k`` an int argument:
numpy's AxisError out of range, then one arm per axis whose results merge, so the result's
shape follows the axis.  The views whose axes are arguments too: ``np.swapaxes``,
``np.moveaxis``, ``np.expand_dims``, ``np.transpose`` with a tuple of axes (numpy's
ValueError for a repeated one); ``np.diagonal``/``np.trace`` offsets and ``np.diff``'s
order known only at run time.  CPython is the oracle in every stage (the raw parse, each
pipeline, the kernel) on every axis from ``-ndim - 1`` to ``ndim``."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import KERNEL_IN_SLOW, STAGES, check_every_stage, run_python, run_son
from hypothesis import strategies as st

import son


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


def swapped(a, i: int, j: int):
    return np.swapaxes(a, i, j).copy(), np.moveaxis(a, i, j).copy(), a.swapaxes(j, i)[0].copy()


def widened(a, i: int, j: int):
    return np.expand_dims(a, i).shape, np.expand_dims(a[0], j).copy(), np.expand_dims(a, j).copy()


@pytest.mark.parametrize("fn, ndim", [(swapped, 3), (widened, 2)], ids=["swapped", "widened"])
def test_views_with_run_time_axes_agree_with_cpython(fn, ndim):
    """Two axes, each out of range too: numpy's AxisError for the first one out of range."""
    check_every_stage(fn, [f"float64[{', '.join([':'] * ndim)}]", "int", "int"],
                      st.tuples(matrices(ndim), st.integers(-4, 3), st.integers(-4, 3)), max_examples=20)


def transposed(a, axes: tuple):
    return np.transpose(a, axes).copy(), a.transpose(axes[1], axes[0], axes[2]).shape


def test_transpose_with_a_tuple_of_run_time_axes_agrees_with_cpython():
    """Any tuple of three ints: a permutation, a repeated axis (numpy's ValueError), one out
    of range (AxisError)."""
    axes = st.tuples(*[st.integers(-4, 3)] * 3) | st.permutations([0, 1, 2]).map(tuple)
    check_every_stage(transposed, ["float64[:, :, :]", ("int", "int", "int")], st.tuples(matrices(3), axes),
                      max_examples=40)


def test_transpose_checks_each_axis_then_its_repeat_before_the_next():
    """numpy's order (``PyArray_Transpose``): axis ``i`` is range-checked, then compared
    with those before it, before axis ``i + 1`` is looked at; ``(0, 0, 3)`` is a repeated
    axis, ``(0, 3, 0)`` an AxisError (the stages found the first as an AxisError)."""
    a = np.zeros((1, 2, 3))
    for axes in [(0, 0, 3), (0, 3, 0), (3, 0, 0), (1, 1, -4), (-4, 1, 1), (2, 0, 1)]:
        want = run_python(transposed, [a, axes])
        argtypes = ["float64[:, :, :]", ("int", "int", "int")]
        graphs = {p: son.optimize(son.parse(transposed, argtypes=argtypes), p)[0] for p in STAGES}
        graphs["none"] = son.parse(transposed, argtypes=argtypes, peephole=False)
        for stage, g in graphs.items():
            assert run_son(g, [a, axes]) == want, (axes, stage)


def diagonals(a, k: int):
    return np.diagonal(a, k).copy(), np.trace(a, k), a.diagonal(-k).sum(), np.diag(a, k).copy()


#: numpy 2.4 crashes on an offset of -2**31 (it negates a C int): not drawn
OFFSETS = st.integers(-6, 6) | st.sampled_from([2**31 - 1, 2**31, -2**31 + 1, -2**31 - 1, 2**63 - 1, -2**63])


@pytest.mark.parametrize("ndim_dtype", ["float64[:, :]", "int64[:, :]"])
def test_diagonals_and_traces_at_run_time_offsets_agree_with_cpython(ndim_dtype):
    """numpy's offset is a C int: OverflowError outside it, whatever the array."""
    dtype = np.float64 if ndim_dtype.startswith("float") else np.int64
    check_every_stage(diagonals, [ndim_dtype, "int"], st.tuples(matrices(2, dtype, low=0), OFFSETS),
                      max_examples=30)


def test_the_offset_overflow_is_numpys_message():
    a = np.zeros((2, 3))
    for fn, word in ((lambda a, k: np.diagonal(a, k), "greater than maximum"),
                     (lambda a, k: np.trace(a, k), "too large to convert to C int")):
        with pytest.raises(OverflowError, match=word):
            fn(a, 2**31)
        with pytest.raises(OverflowError, match=word):
            son.jit(fn, fallback="error")(a, 2**31)


def differences(a, n: int, k: int):
    return np.diff(a, n), np.diff(a, n=n, axis=k)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.bool_])
def test_diff_of_a_run_time_order_agrees_with_cpython(dtype):
    """numpy's loop: ``n = 0`` is the array itself (its axis unchecked), a negative order
    numpy's ValueError, an order past the length an empty axis."""
    name = {np.float64: "float64", np.int64: "int64", np.bool_: "bool"}[dtype]
    arrays = matrices(2, np.int64 if dtype is np.bool_ else dtype, low=0).map(lambda m: m.astype(dtype))
    check_every_stage(differences, [f"{name}[:, :]", "int", "int"],
                      st.tuples(arrays, st.integers(-1, 5), st.integers(-3, 2)), max_examples=25)


def counted_nonzero(a, k: int):
    return np.count_nonzero(a, axis=k), np.count_nonzero(a, k, keepdims=True)


def test_count_nonzero_along_a_run_time_axis_agrees_with_cpython():
    check_every_stage(counted_nonzero, ["int64[:, :]", "int"],
                      st.tuples(matrices(2, np.int64, low=0), st.integers(-3, 2)), max_examples=20)


def test_count_nonzero_of_an_axis_argument_that_is_none_counts_every_element():
    a = np.arange(12).reshape(3, 4) % 3
    want = run_python(counted_nonzero, (a, None))
    assert run_python(son.jit(counted_nonzero, fallback="error"), (a, None)) == want
