"""2-D and 3-D array arguments of any strides (a transpose, a Fortran-ordered array, a
strided or reversed slice): ``son.jit`` types such an argument as a view
(``ViewSpec(dtype, ndim)``, son/frontend/signature.py ``type_of_value``) and passes it
as the memory it spans, the index of its first element and its dimensions and strides
(son/nodes/control.py ``strided_parts``), so the graph reads and writes the caller's
memory through a ``Grid`` of run-time strides, as a recursive call's view is read.
CPython is the oracle in every stage (the interpreter on the raw parse and on each
pipeline's graph, and the kernel), on arguments laid out as the caller's were
(``fresh_copy``): values, writes through the argument, views returned that share its
memory; order-free reductions of a layout numpy would read in memory order are read
from a C-order copy, the others refused at run time (son.jit runs them in CPython)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import STAGES, run_both, run_python
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.errors import SonError
from son.frontend.signature import ViewSpec
from son.fuzz.arguments import fresh_copy


def weighted(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * (i + 1) - j
    return s


def bump(a):
    if a.shape[0] > 0 and a.shape[1] > 0:
        a[0, -1] += 5.0
    a += 1.0
    return a[::-1]


def rows(a):
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        r = a[i]
        for j in range(len(r)):
            out[i] += r[j] * r[j]
    return out, a.T, a[1:, ::-1]


def int_reductions(a):
    top = (a.max(), np.argmax(a)) if a.size else (0, -1)
    return a.sum(), top, np.cumsum(a), np.prod(a), np.any(a), np.median(a)


def cube(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s = s * 0.5 + a[i, j, k]
    a[-1, 0, -1] = s
    return a[0], s


LAYOUTS_2D = [lambda m: m.T, lambda m: m[::-1, ::2], lambda m: m[:, 1:], lambda m: np.asfortranarray(m),
              lambda m: m.T[::-2]]
LAYOUTS_3D = [lambda m: m.transpose(2, 0, 1), lambda m: m[::-1, :, ::2], lambda m: np.asfortranarray(m)]


def laid_out(ndim, dtype, layouts):
    shape = st.tuples(*[st.integers(1, 5)] * ndim)
    values = st.integers(-9, 9) if dtype == "int64" else st.floats(-9, 9)

    def make(sh):
        n = int(np.prod(sh))
        return st.tuples(st.lists(values, min_size=n, max_size=n), st.sampled_from(layouts)).map(
            lambda xl: xl[1](np.array(xl[0], dtype=dtype).reshape(sh)))

    return shape.flatmap(make)


@pytest.mark.parametrize("fn, ndim, dtype, layouts", [
    (weighted, 2, "float64", LAYOUTS_2D),
    (bump, 2, "float64", LAYOUTS_2D),
    (rows, 2, "float64", LAYOUTS_2D),
    (int_reductions, 2, "int64", LAYOUTS_2D),
    (cube, 3, "float64", LAYOUTS_3D),
], ids=["weighted", "bump", "rows", "int_reductions", "cube"])
def test_every_stage_and_the_kernel_agree_with_cpython_on_any_strides(fn, ndim, dtype, layouts):
    spec = [ViewSpec(dtype, ndim)]
    graphs = {p: son.optimize(son.parse(fn, argtypes=spec), p)[0] for p in STAGES}
    graphs["none"] = son.parse(fn, argtypes=spec, peephole=False)
    kernel = son.jit(fn, fallback="error")

    @settings(max_examples=25, deadline=None)
    @given(laid_out(ndim, dtype, layouts))
    def check(a):
        if a.flags.c_contiguous:  # a C-order one is the other signature (tests/test_ndarrays.py)
            return
        want = run_python(fn, (a,))
        for name, g in graphs.items():
            assert run_both(fn, (a,), graph=g)[1] == want, name
        assert run_python(kernel, (a,)) == want, "kernel"

    check()


def test_a_returned_view_shares_the_arguments_memory_and_writes_reach_it():
    m = np.arange(12.0).reshape(3, 4)
    a = m.T[::-1]
    got, want = son.jit(rows, fallback="error")(a)[1:], rows(fresh_copy(a))[1:]
    for x, y in zip(got, want):
        assert np.array_equal(x, y) and x.strides == y.strides and np.shares_memory(x, m)
    got[0][0, 0] = -7.0
    assert a[0, 0] == -7.0 and m[0, 3] == -7.0


def test_a_float_sum_in_memory_order_is_refused_at_run_time_and_replayed_in_cpython():
    """numpy sums a float array it does not read as one run of memory (a view with gaps)
    row by row through its iterator; son's kernel refuses (NotImplementedError) and
    son.jit runs the call in CPython.  A transpose, one run, is numpy's sum
    (tests/test_memory_order.py)."""
    def total(a):
        return a.sum()

    a = np.linspace(-1, 1, 24).reshape(4, 6)[:, ::2].T
    with pytest.raises(NotImplementedError, match="no one run of memory"):
        son.jit(total, fallback="error")(a)
    with pytest.warns(son.FallbackWarning, match="no one run of memory"):
        assert son.jit(total)(a) == total(a)
    t = np.linspace(-1, 1, 12).reshape(3, 4).T
    assert son.jit(total, fallback="error")(t) == total(t)


def test_derivatives_refuse_a_non_contiguous_argument_with_what_to_do():
    with pytest.raises(SonError, match=r"not C-contiguous.*ascontiguousarray"):
        son.grad(weighted)(np.ones((2, 3)).T)
