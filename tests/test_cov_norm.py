"""``np.cov``, ``np.corrcoef`` (son/frontend/covariance.py) and ``np.linalg.norm`` with
``ord``/``axis``/``keepdims`` (son/frontend/norms.py).

The oracle is numpy's own code.  For cov and corrcoef it runs with numpy's ``dot``
replaced by son's documented product (son/fuzz/products.py: each element's terms added in
index order, where numpy's BLAS order depends on the machine), so everything else, the
means in numpy's order for each memory layout above all, is checked bit for bit.  A 0-D
result (the covariance of one 1-D variable) counts as the float it holds, as son returns
it.  The norms without a dot product are numpy's bit for bit; those with one (``ord``
None, 2, 'fro' over all the elements) are checked on small integers, exact in any order."""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import numpy.lib._function_base_impl as function_base
import pytest
from conftest import check_every_stage, check_stages, function_from_text, run_python
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError
from son.fuzz.products import documented_product

F1, F2, I1, I2, B2 = "float64[]", "float64[:, :]", "int64[]", "int64[:, :]", "bool[:, :]"
#: magnitudes over ten orders, so a sum in another order shows in the last bits; the specials
SPREAD = st.floats(-1.0, 1.0).flatmap(lambda x: st.integers(-5, 5).map(lambda k: x * 10.0 ** k))
FLOATS = SPREAD | st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan])
#: observations: 0 and 1 (numpy's NaN and inf), and past 8, where numpy's pairwise sum
#: differs from adding in order
COUNTS = st.sampled_from([0, 1, 2, 9])
VARIABLES = st.sampled_from([0, 2, 3])


@contextlib.contextmanager
def documented_dot():
    """numpy's cov with son's documented product for its ``dot``."""
    original = function_base.dot
    function_base.dot = lambda a, b: documented_product("dot", a, b)
    try:
        yield
    finally:
        function_base.dot = original


def numpys_cov(fn, args):
    """numpy's outcome with the documented product for its ``dot``."""
    with documented_dot(), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # "Degrees of freedom <= 0"
        return run_python(fn, args)


def matrices(dtype=np.float64, elements=FLOATS, rows=VARIABLES, cols=COUNTS):
    return st.tuples(rows, cols).flatmap(lambda s: hnp.arrays(dtype, s, elements=elements))


def of_vectors(a, b):
    """numpy's 0-D results read as floats (son's result is the float)."""
    return (float(np.cov(a)), np.corrcoef(a), float(np.cov(a, ddof=0)), float(np.cov(b, bias=True)),
            np.cov(a, b), np.corrcoef(a, b, rowvar=False))


def of_matrices(m, y):
    """Rows as variables, columns (numpy's X in Fortran order: its means add the rows in
    order), ``y`` joined below ``m`` (not transposed by ``rowvar=False`` where it has one
    row); ``y`` holds ints, which numpy copies, ``m[::-1, ::2]`` a view it copies in order."""
    return (np.cov(m), np.corrcoef(m.T, rowvar=False), np.cov(m[::-1, ::2]), np.cov(m, y, bias=True),
            np.corrcoef(m.T, y.T, rowvar=False), np.cov(m.T, y[:1], rowvar=False))


def of_columns(m, y):
    """Columns as variables of C-order arrays: numpy's X is in Fortran order, its means
    add the rows in order (``y`` joined, transposed, votes for that order too)."""
    return np.cov(m, rowvar=False), np.corrcoef(m, y, rowvar=False), np.cov(m, y[:, :1].T, rowvar=False)


def of_vector_and_matrix(a, m):
    return np.cov(a, m), np.cov(m, a, ddof=0), np.cov(a, m.T, rowvar=False)


@pytest.mark.parametrize("fn, argtypes, strategy", [
    (of_vectors, [F1, I1], COUNTS.flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=FLOATS),
        hnp.arrays(np.int64, n, elements=st.integers(-2**62, 2**62))))),
    (of_matrices, [F2, I2], st.tuples(VARIABLES, VARIABLES, COUNTS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, (s[0], s[2]), elements=FLOATS),
        hnp.arrays(np.int64, (s[1], s[2] if s[1] else s[2] + 1), elements=st.integers(-99, 99))))),
    (of_columns, [F2, I2], st.tuples(COUNTS, VARIABLES, VARIABLES).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, (s[0], s[1]), elements=SPREAD),
        hnp.arrays(np.int64, (s[0] if s[2] else s[0] + 1, s[2] or 1), elements=st.integers(-99, 99))))),
    (of_vector_and_matrix, [F1, B2], st.tuples(st.sampled_from([1, 2]), COUNTS).flatmap(
        lambda s: st.tuples(hnp.arrays(np.float64, s[1], elements=FLOATS), hnp.arrays(np.bool_, s)))),
], ids=lambda x: getattr(x, "__name__", None) or ("-".join(x) if isinstance(x, list) else ""))
def test_cov_and_corrcoef_are_numpys_steps_in_every_stage(fn, argtypes, strategy):
    check_stages(fn, argtypes, strategy, expected=numpys_cov)


def test_observations_of_another_number_are_numpys_value_error():
    g = son.parse(of_vectors, argtypes=[F1, I1])
    with pytest.raises(ValueError, match="concatenation axis"):
        son.interpret(g, np.ones(3), np.ones(4, dtype=np.int64))


def one_row(m):
    return np.cov(m)


def test_one_variable_as_a_2_d_array_is_refused_at_run_time():
    """numpy squeezes it to a 0-D array; son's result is 2-D."""
    g = son.parse(one_row, argtypes=[F2])
    with pytest.raises(NotImplementedError, match="0-D array"):
        son.interpret(g, np.ones((1, 4)))
    np.testing.assert_array_equal(son.interpret(g, np.eye(2)), np.cov(np.eye(2)))


def test_cov_of_random_data_is_close_to_numpys():
    rng = np.random.default_rng(7)
    m = rng.standard_normal((4, 50)) * 10.0 ** rng.integers(-3, 4, (4, 1))
    y = rng.integers(-99, 99, (3, 50))
    got = son.interpret(son.parse(of_matrices, argtypes=[F2, I2]), m, y)
    for g, w in zip(got, of_matrices(m, y)):
        np.testing.assert_allclose(g, w, rtol=1e-12)


# -- norms --------------------------------------------------------------------------------
def vector_norms(a):
    return (np.linalg.norm(a, 1), np.linalg.norm(a, np.inf), np.linalg.norm(a, 0), np.linalg.norm(a, axis=0),
            np.linalg.norm(a, ord=2, axis=-1), np.linalg.norm(a, 1, axis=0, keepdims=True),
            np.linalg.norm(a, -math.inf, 0) if len(a) else -1.0)


def matrix_norms(m):
    """Along an axis and of the matrix; ``-inf``/``-1`` raise numpy's ValueError where
    there is nothing to take the least of (tested where there is)."""
    full = m.shape[0] > 0 and m.shape[1] > 0
    return (np.linalg.norm(m, axis=0), np.linalg.norm(m, 2, axis=1), np.linalg.norm(m, 1, axis=0),
            np.linalg.norm(m, np.inf, axis=1, keepdims=True), np.linalg.norm(m, 0, axis=0),
            np.linalg.norm(m[::-1, 1:], ord=1, axis=-1, keepdims=True),
            np.linalg.norm(m, 1), np.linalg.norm(m, np.inf), np.linalg.norm(m[::-1], ord=1, keepdims=True),
            np.linalg.norm(m, -1) if full else 0.0, np.linalg.norm(m, -np.inf) if full else 0.0,
            np.linalg.norm(m, -np.inf, axis=1) if full else np.zeros(m.shape[0]))


def dot_norms(a, m):
    """The norms numpy computes with a dot product, on values exact in any order."""
    return (np.linalg.norm(a), np.linalg.norm(a, 2), np.linalg.norm(m, "fro"),
            np.linalg.norm(m, keepdims=True), np.linalg.norm(a, keepdims=True), np.linalg.norm(m, "f"))


ANY = FLOATS | st.integers(-3, 3).map(float)
SIDES = st.sampled_from([0, 1, 2, 9])


@pytest.mark.parametrize("fn, argtypes, strategy", [
    (vector_norms, [F1], st.tuples(hnp.arrays(np.float64, SIDES, elements=ANY))),
    (matrix_norms, [F2], st.tuples(matrices(elements=ANY, rows=SIDES, cols=SIDES))),
    (dot_norms, [F1, I2], st.tuples(hnp.arrays(np.float64, SIDES, elements=st.integers(-999, 999).map(float)),
                                    matrices(np.int64, st.integers(-999, 999), rows=SIDES, cols=SIDES))),
], ids=lambda x: getattr(x, "__name__", None) or ("-".join(x) if isinstance(x, list) else ""))
def test_norms_are_numpys_in_every_stage(fn, argtypes, strategy):
    with np.errstate(all="ignore"):
        check_stages(fn, argtypes, strategy, max_examples=10)


def sample(a, m, y):
    """One kernel for what the stages check above."""
    return (np.cov(m, y), np.corrcoef(m.T, rowvar=False), float(np.cov(a)), np.linalg.norm(m, 1, axis=0),
            np.linalg.norm(m, np.inf), np.linalg.norm(a, -np.inf) if len(a) else 0.0, np.linalg.norm(y, 0))


def test_the_kernel_agrees():
    strategy = st.tuples(VARIABLES, COUNTS).flatmap(lambda s: st.tuples(
        hnp.arrays(np.float64, s[1], elements=FLOATS), hnp.arrays(np.float64, s, elements=FLOATS),
        hnp.arrays(np.int64, (2, s[1]), elements=st.integers(-99, 99))))
    with np.errstate(all="ignore"):
        check_every_stage(sample, [F1, F2, I2], strategy, max_examples=15, expected=numpys_cov)


def vector_fro(a):
    return np.linalg.norm(a, "fro")


def matrix_zero(m):
    return np.linalg.norm(m, 0)


@pytest.mark.parametrize("fn, argtypes", [(vector_fro, [F1]), (matrix_zero, [F2])])
def test_orders_numpy_rejects_are_its_value_error(fn, argtypes):
    check_every_stage(fn, argtypes, st.tuples(hnp.arrays(np.float64, (2,) * len(argtypes[0].split(",")))),
                      max_examples=3)


@pytest.mark.parametrize("text, argtype, message", [
    ("def f(a):\n    return np.linalg.norm(a, 2)\n", F2, "no SVD"),
    ("def f(a):\n    return np.linalg.norm(a, 'nuc')\n", F2, "no SVD"),
    ("def f(a):\n    return np.linalg.norm(a, -2)\n", F2, "no SVD"),
    ("def f(a):\n    return np.linalg.norm(a, 3)\n", "float64[:, :, :]", "3-D array"),
    ("def f(a):\n    return np.linalg.norm(a, axis=(0, 1))\n", F2, "constant int or None"),
    ("def f(a, k: int):\n    return np.linalg.norm(a, k)\n", F1, "ord= that is not a constant"),
    ("def f(a):\n    return np.cov(a, aweights=a)\n", F1, "aweights="),
    ("def f(a):\n    return np.cov(a, dtype=np.float32)\n", F1, "dtype="),
    ("def f(a, r: bool):\n    return np.corrcoef(a, rowvar=r)\n", F1, "rowvar= that is not a constant"),
    ("def f(a):\n    return np.cov(a, ddof=0.5)\n", F1, "ddof="),
])
def test_what_son_does_not_compute_is_a_located_error(tmp_path, text, argtype, message):
    f = function_from_text(tmp_path, text)
    types = [argtype] + (["int"] if "k: int" in text else ["bool"] if "r: bool" in text else [])
    with pytest.raises(SonSyntaxError, match=message) as info:
        son.parse(f, argtypes=types)
    assert "case.py:5:" in str(info.value)
