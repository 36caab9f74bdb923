"""numpy's float ``a ** b`` of arrays (son/frontend/powers.py): the fast paths numpy's loop
takes for one exponent shared by every element (2 squares, 0.5 is ``sqrt``, -1 is
``1 / x``), for a constant, a number known at run time and an array of one element; ``pow``
for an exponent array of the result's size; where numpy's choice depends on its
iterator, son's run-time refusal exactly where the two would differ.  The values include
ones where ``pow`` and the fast path differ in the last bit (found by search), -0.0 and
-inf.  CPython (numpy) is the oracle in every stage and the kernel."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import STAGES, check_every_stage, check_reverse_against_forward, run_both, run_python
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son

#: pow(x, 2) != x * x, pow(x, 0.5) != sqrt(x), pow(x, -1) != 1 / x for these (glibc's pow)
DIFFERING = (28.35243233812019, 36.205404863386384, 38.904073710599874)
FLOATS = st.sampled_from([*DIFFERING, -0.0, 0.0, -np.inf, np.inf, np.nan, -2.5, 1.5, 3.0])
EXPONENTS = st.sampled_from([2.0, 0.5, -1.0, 0.0, 1.0, 3.0, -0.5, np.nan])


def test_the_values_differ_as_the_tests_assume():
    x2, x05, xm1 = DIFFERING
    assert math.pow(x2, 2.0) != x2 * x2 and math.pow(x05, 0.5) != math.sqrt(x05)
    assert math.pow(xm1, -1.0) != 1.0 / xm1
    a = np.array(DIFFERING)
    assert (a ** 2.0)[0] == x2 * x2 and (a ** np.array([0.5]))[1] == math.sqrt(x05)  # numpy's fast path
    assert np.power(a, np.full(3, -1.0))[2] == math.pow(xm1, -1.0)  # and pow for an exponent array


def number_exponents(a, i, y, n):
    """One exponent for the whole array: constants, a float and an int known at run time,
    an int array's elements converted to floats, ``**=`` and ``np.power``."""
    b = a.copy()
    b **= y
    return a ** 2.0, a ** 0.5, a ** -1, a ** y, np.power(a, y), a ** float(n), i ** y, i ** 2.0, b


def test_one_exponent_for_every_element_takes_numpys_fast_path_in_every_stage():
    strategy = st.integers(0, 4).flatmap(lambda k: st.tuples(
        hnp.arrays(np.float64, k, elements=FLOATS), hnp.arrays(np.int64, k, elements=st.integers(-40, 40)),
        EXPONENTS, st.integers(-1, 2)))
    with np.errstate(all="ignore"):
        check_every_stage(number_exponents, ["float64[]", "int64[]", float, int], strategy, max_examples=60)


def exponent_arrays(a, b):
    return a ** b


def exponent_grids(m, b):
    return m ** b


def exponent_view(a, e):
    return a ** np.broadcast_to(e, a.shape)


def ambiguous(base: np.ndarray, exp: np.ndarray, result: np.ndarray) -> bool:
    """Is numpy's choice between pow and its fast path one son does not follow (the
    module docstring of son/frontend/powers.py)?"""
    if exp.size == 1 and result.size >= 2:
        return False
    zero_step = any(s == 0 and d != 1 for s, d in zip(exp.strides, exp.shape))
    return result.size == 1 or exp.size != result.size or zero_step


def _outcome_of(v: float) -> str:
    return "nan" if math.isnan(v) else v.hex()


def fast_differs(base: np.ndarray, exp: np.ndarray) -> bool:
    """Would the fast path give another outcome than pow for some element (by bit
    pattern, any NaN alike)?"""
    x, y = (np.broadcast_arrays(np.asarray(base, float), np.asarray(exp, float)))
    with np.errstate(all="ignore"):
        fast = {2.0: np.square(x), 0.5: np.sqrt(x), -1.0: np.reciprocal(x)}
        slow = np.power(x, y.copy())  # an exponent array with a step of its own: pow
    for c, f in fast.items():
        for u, v, w in zip(y.ravel().tolist(), f.ravel().tolist(), slow.ravel().tolist()):
            if u == c and _outcome_of(v) != _outcome_of(w):
                return True
    return False


def expected(fn, args, exponent):
    """CPython's outcome, or son's refusal where numpy's choice is one son does not follow
    and the two would differ."""
    want = run_python(fn, args)
    base, exp = args[0], exponent(*args)
    if want[0] == "ok" and ambiguous(base, exp, np.broadcast(base, exp)) and fast_differs(base, exp):
        return ("raise", NotImplementedError)
    return want


def _own(a, b):
    return b


def _broadcast(a, e):
    return np.broadcast_to(e, a.shape)


@pytest.mark.parametrize("fn, argtypes, shapes, exponent", [
    (exponent_arrays, ["float64[]", "float64[]"],
     st.sampled_from([((3,), (1,)), ((3,), (3,)), ((1,), (1,)), ((0,), (1,)), ((2,), (0,))]), _own),
    (exponent_grids, ["float64[:, :]", "float64[]"],
     st.sampled_from([((2, 3), (1,)), ((2, 3), (3,)), ((1, 1), (1,)), ((3, 1), (2,)), ((1, 2), (2,))]), _own),
    (exponent_grids, ["float64[:, :]", "float64[:, :]"],
     st.sampled_from([((2, 3), (1, 1)), ((2, 3), (2, 1)), ((2, 3), (1, 3)), ((2, 2), (2, 2)),
                      ((1, 1), (1, 1))]), _own),
    (exponent_view, ["float64[]", "float64[]"], st.sampled_from([((3,), (1,)), ((1,), (1,))]), _broadcast),
], ids=["vectors", "matrix and vector", "matrices", "broadcast view"])
def test_an_exponent_array_takes_numpys_loop_or_is_refused_where_numpy_would_differ(fn, argtypes, shapes,
                                                                                     exponent):
    strategy = shapes.flatmap(lambda s: st.tuples(hnp.arrays(np.float64, s[0], elements=FLOATS),
                                                  hnp.arrays(np.float64, s[1], elements=EXPONENTS)))
    graphs = {p: son.optimize(son.parse(fn, argtypes=argtypes), p)[0] for p in STAGES}
    graphs["none"] = son.parse(fn, argtypes=argtypes, peephole=False)
    kernel = son.jit(fn, fallback="error")

    @settings(max_examples=60, deadline=None)
    @given(strategy)
    def check(args):
        with np.errstate(all="ignore"):
            want = expected(fn, args, exponent)
            for name, g in graphs.items():
                assert run_both(fn, args, graph=g)[1] == want, name
            assert run_python(kernel, args) == want, "kernel"

    check()


def test_the_fast_path_is_numpys_where_pow_differs():
    """Deterministic: each differing value, as a constant's, a run-time number's and a
    one-element array's exponent, agrees with numpy bit for bit."""
    a = np.array(DIFFERING * 2)
    g = son.parse(number_exponents, argtypes=["float64[]", "int64[]", float, int])
    kernel = son.jit(exponent_arrays, fallback="error")
    for y in (2.0, 0.5, -1.0):
        args = (a, np.arange(6), y, 2)
        assert run_both(number_exponents, args, graph=g)[1] == run_python(number_exponents, args)
        assert kernel(a, np.array([y])).tobytes() == (a ** np.array([y])).tobytes()
        assert kernel(a, np.full(6, y)).tobytes() == (a ** np.full(6, y)).tobytes()


def loss(a, y):
    return np.sum(a ** y) + np.sum(a ** 2.0) + np.sum(a ** np.array([y]))


def test_gradients_go_through_each_path():
    check_reverse_against_forward(loss, np.array([0.5, 1.25, 2.0]), 0.5)
