"""Selection by a boolean mask or an array of indices (son/frontend/selection.py):
``a[mask]``, ``a[idx]``, ``a[mask] = v``, ``a[idx] = v``, ``a[idx] += x``.  numpy is the
oracle in every stage (the raw parse, each pipeline, the kernel), with numpy's errors
in numpy's order; what numpy computes in an order son does not model is refused."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage, function_from_text
from hypothesis import strategies as st

import son

FLOATS = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.5, math.nan, math.inf]), st.floats(-1e3, 1e3))
FARR = st.lists(FLOATS, max_size=7).map(lambda xs: np.array(xs, dtype=np.float64))
IARR = st.lists(st.integers(-9, 9), max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
BARR = st.lists(st.booleans(), max_size=7).map(lambda xs: np.array(xs, dtype=np.bool_))
F, I64, B = "float64[]", "int64[]", "bool[]"


def masked(a, m):
    return a[m], a[a > 0.5], a[::-1][m[::-1]], np.sum(a[m])


def indexed(a, k):
    return a[k], a[k[::-1]], a[[0, -1]] if len(a) else a[k]


def set_masked(a, m, x):
    a[m] = x
    return a[m].sum()


def set_indexed(a, k, v):
    a[k] = v * 2.0  # an array the function makes
    return a


def update_indexed(a, k):
    a[k] += 1  # each repeated index once, as numpy
    a[a > 3] -= 2
    return a


def set_number_in_ints(a, k, x):
    a[k] = x  # NaN: numpy's ValueError even where nothing is selected
    return a


def bool_list_mask(a):
    return a[[True, False, True]]


CASES = [
    (masked, [F, B], st.tuples(FARR, BARR)),
    (masked, [I64, B], st.tuples(IARR, BARR)),
    (indexed, [F, I64], st.tuples(FARR, IARR)),
    (indexed, [B, I64], st.tuples(BARR, IARR)),
    (set_masked, [F, B, float], st.tuples(FARR, BARR, FLOATS)),
    (set_masked, [I64, B, int], st.tuples(IARR, BARR, st.integers(-3, 3))),
    (set_indexed, [F, I64, F], st.tuples(FARR, IARR, FARR)),
    (update_indexed, [I64, I64], st.tuples(IARR, IARR)),
    (set_number_in_ints, [I64, I64, float], st.tuples(IARR, IARR, FLOATS)),
    (set_number_in_ints, [I64, B, float], st.tuples(IARR, BARR, st.sampled_from([math.nan, 2.5, -0.7]))),
    (bool_list_mask, [F], st.tuples(FARR)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES,
                         ids=[f"{c[0].__name__}-{'-'.join(map(str, c[1]))}" for c in CASES])
def test_every_stage_agrees_with_numpy(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=60)


def selects_from_itself(a, m):
    a[m] = a[::-1]  # numpy reads the value as it writes here, but not for a[m] = a[:-1]
    return a


def selects_from_another(a, m, b):
    a[m] = b
    return a


def test_an_array_value_that_shares_memory_with_the_target_is_refused_at_run_time():
    a = np.arange(4.0)
    m = np.ones(4, dtype=bool)
    graph = son.parse(selects_from_itself, args=[a, m])
    for run in (son.jit(selects_from_itself, fallback="error"), lambda *x: son.interpret(graph, *x)):
        with pytest.raises(NotImplementedError, match="shares memory"):
            run(a.copy(), m)
    f = son.jit(selects_from_another, fallback="error")
    x = np.arange(4.0)
    np.testing.assert_array_equal(f(x.copy(), m, np.ones(4)), selects_from_another(x.copy(), m, np.ones(4)))
    for b in (x, x[::-1]):  # the same memory twice: numpy's order would decide
        with pytest.raises(NotImplementedError, match="shares memory"):
            f(x, m, b)


@pytest.mark.parametrize("text, message", [
    ("def f(a, k):\n    return a[k * 1.5]\n", "integer \\(or boolean\\) type"),
    ("def f(a, k):\n    a[k > 0] = np.ones(len(a), dtype=np.int64)\n    return a\n",
     "another dtype|int64 array"),
    ("def f(a, k):\n    return a.reshape(2, -1)[k > 0]\n", "n-D arrays by a bool mask of their dimensions"),
])
def test_what_son_does_not_select_is_a_located_error(tmp_path, text, message):
    with pytest.raises(son.SonSyntaxError, match=message):
        son.parse(function_from_text(tmp_path, text), argtypes=[F, F])


def selected_loss(x, k):
    y = x[x > 0.0]
    return np.sum(y * y) + np.sum(x[k] * 3.0)


def test_gradients_flow_through_selections():
    x = np.array([1.0, -2.0, 3.0, 0.5])
    k = np.array([0, 2, 2, -1], dtype=np.int64)
    eps = 1e-6
    fd = [(selected_loss(x + eps * e, k) - selected_loss(x - eps * e, k)) / (2 * eps) for e in np.eye(4)]
    np.testing.assert_allclose(son.grad(selected_loss)(x, k), fd, rtol=1e-6)
    np.testing.assert_allclose(son.grad(selected_loss, interpret=True)(x, k), fd, rtol=1e-6)
