"""None as an argument (son/nodes/control.py ``NONE_ARG``): a parameter given None is no
value of the graph, which reads the constant None there, so ``if scale is None`` folds
and a slice bound of None is absent; a call with None and one with a number are two
signatures, as a function argument's are; an omitted default of None is the same.
CPython is the oracle in every stage (the raw parse, each pipeline, the kernel), and
derivatives skip such a parameter."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import STAGES, run_both, run_python
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.errors import SonError


def window(a, start, stop, step):
    return a[start:stop:step], len(a[start:])


def scaled(x, scale=None, shift=None):
    y = x * x
    if scale is not None:
        y = y * scale
    if shift is None:
        return y
    return y + shift


def rows(m, lo=None):
    return m[lo:, ::-1].copy(), m[lo:lo]


BOUND = st.one_of(st.none(), st.integers(-6, 6))


@pytest.mark.parametrize("fn, strategy", [
    (window, st.tuples(st.lists(st.floats(-9, 9), max_size=6).map(np.array), BOUND, BOUND,
                       st.one_of(st.none(), st.sampled_from([1, 2, -1, -3])))),
    (scaled, st.tuples(st.floats(-9, 9), st.one_of(st.none(), st.floats(-3, 3)),
                       st.one_of(st.none(), st.integers(-3, 3)))),
    (rows, st.tuples(st.integers(1, 4).map(lambda n: np.arange(n * 3.0).reshape(n, 3)), BOUND)),
], ids=["window", "scaled", "rows"])
def test_every_stage_and_the_kernel_agree_with_cpython_on_none_arguments(fn, strategy):
    kernel = son.jit(fn, fallback="error")
    graphs: dict = {}

    @settings(max_examples=30, deadline=None)
    @given(strategy)
    def check(args):
        key = tuple(a is None for a in args)  # one graph per signature: None or a value
        if key not in graphs:
            graphs[key] = {p: son.optimize(son.parse(fn, args=list(args)), p)[0] for p in STAGES}
            graphs[key]["none"] = son.parse(fn, args=list(args), peephole=False)
        want = run_python(fn, args)
        for name, g in graphs[key].items():
            assert run_both(fn, args, graph=g)[1] == want, name
        assert run_python(kernel, args) == want, "kernel"

    check()


def test_none_folds_away_and_an_omitted_default_is_none():
    g = son.parse(scaled, args=[2.0, None, None])
    assert len(g.params) == 1  # x alone: None is a constant of the graph
    assert son.jit(scaled, fallback="error")(3.0) == 9.0
    assert son.jit(scaled, fallback="error")(3.0, 2.0, 1) == 19.0


def test_a_graph_built_for_none_refuses_another_value():
    g = son.parse(scaled, args=[2.0, None, None])
    with pytest.raises(SonError, match="built for None"):
        son.interpret(g, 2.0, 1.5, None)


def test_derivatives_skip_a_none_parameter_and_refuse_it_as_an_argnum():
    assert son.grad(scaled)(3.0, None, 1) == 6.0
    assert son.grad(scaled)(3.0, 2.0) == 12.0
    with pytest.raises(SonError, match="argnum 1 is None"):
        son.grad(scaled, argnums=1)(3.0, None)
