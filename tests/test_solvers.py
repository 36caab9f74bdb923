"""np.linalg.solve, inv and det (son/frontend/solvers.py): LU with partial pivoting,
numpy's errors (LinAlgError for a singular or non-square matrix, ValueError for a
right-hand side of other rows), numpy's det formula.  LAPACK's order of operations
depends on the machine (docs/decisions.md), so values are compared within a few ulps
of the condition number, in every stage; the errors and shapes exactly."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import finite_differences
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son

F, F2 = "float64[]", "float64[:, :]"


def solve_all(a, b, c):
    return np.linalg.solve(a, b), np.linalg.solve(a, c), np.linalg.inv(a), np.linalg.det(a)


def _stages(fn, argtypes):
    graphs = [son.parse(fn, argtypes=argtypes, peephole=False),
              son.optimize(son.parse(fn, argtypes=argtypes), "combined")[0]]
    return [son.jit(fn, fallback="error")] + [lambda *a, g=g: son.interpret(g, *a) for g in graphs]


def _outcome(run, args):
    try:
        return "ok", run(*[x.copy() for x in args])
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return "raise", type(e)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 5).flatmap(lambda n: st.tuples(
    hnp.arrays(np.float64, (n, n), elements=st.floats(-1, 1)),
    hnp.arrays(np.float64, n, elements=st.floats(-9, 9)),
    hnp.arrays(np.float64, (n, 2), elements=st.floats(-9, 9)), st.sampled_from([0.0, 4.0, 9.0]))))
def test_solve_inv_det_agree_with_numpy_in_every_stage(case):
    """Diagonally dominant matrices, and with no shift some with a zero row (singular in
    any order of operations), empty ones too: numpy's values within rounding, its
    LinAlgError where it raises.  (A nearly singular matrix may have an exact zero pivot
    in one order of operations and not in another: LAPACK's is the machine's.)"""
    a, b, c, shift = case
    if shift == 0.0 and len(a):
        a[-1] = 0.0
    a = a + shift * np.eye(len(a))
    want = _outcome(solve_all, (a, b, c))
    for run in _stages(solve_all, [F2, F, F2]):
        got = _outcome(run, (a, b, c))
        assert got[0] == want[0], (got, want)
        if want[0] == "raise":
            assert got[1] is want[1]
            continue
        scale = np.linalg.cond(a) if len(a) else 1.0
        for x, y in zip(got[1], want[1]):
            assert np.shape(x) == np.shape(y)
            np.testing.assert_allclose(x, y, rtol=1e-13 * max(scale, 1.0), atol=1e-12 * max(scale, 1.0))


def det_of(a):
    return np.linalg.det(a)


def test_det_is_numpys_formula_and_zero_for_a_singular_matrix():
    k = son.jit(det_of, fallback="error")
    for a in (np.array([[1, 2], [3, 4]]), np.array([[1.0, 2.0], [2.0, 4.0]]), np.zeros((0, 0)),
              np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([[-2.0]])):
        assert k(a) == det_of(a)  # these are exact: numpy's sign * exp(log|det|) too


def solve_it(a, b):
    return np.linalg.solve(a, b)


def test_errors_are_numpys():
    k = son.jit(solve_it, fallback="error")
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        k(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="mismatch"):
        k(np.eye(3), np.ones(2))
    with pytest.raises(np.linalg.LinAlgError, match="Singular"):
        k(np.zeros((2, 2)), np.ones(2))
    with pytest.raises(son.SonSyntaxError, match="1-D"):
        son.jit(solve_it, fallback="error")(np.ones(3), np.ones(3))


def loss(a, b):
    x = np.linalg.solve(a, b)
    return np.sum(x * x) + np.linalg.det(a)  # (inv is solve's loops too)


def test_gradients_go_through_the_factorization():
    rng = np.random.default_rng(11)
    a, b = rng.standard_normal((4, 4)) + 4 * np.eye(4), rng.standard_normal(4)
    ga, gb = son.grad(loss, argnums=(0, 1))(a.copy(), b.copy())
    np.testing.assert_allclose(ga, finite_differences(loss, [a, b], 0), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(gb, finite_differences(loss, [a, b], 1), rtol=1e-5, atol=1e-7)
