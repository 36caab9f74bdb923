"""Matrix products (son/frontend/linalg.py): ``@``, ``np.matmul``, ``np.dot``,
``np.inner``, ``np.vdot`` and ``np.outer`` of 1-D and 2-D arrays, views and chains.

numpy is the oracle in every stage where its result does not depend on BLAS: int and
bool products, and float products whose terms and partial sums are exact (small
integers and halves, infinities, NaN), which any summation order gives alike.  Float
products of arbitrary values are son's documented sum in index order, close to
numpy's BLAS result.  Gradients through products agree with finite differences."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import check_every_stage, finite_differences, function_from_text, run_python
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError
from son.fuzz.products import documented_product

#: floats whose products and sums are exact in any order (and the specials)
EXACT = st.integers(-8, 8).map(lambda k: k / 2) | st.sampled_from([-0.0, math.inf, -math.inf, math.nan])
INTS = st.integers(-2**62, 2**62) | st.integers(-9, 9)  # int64 wrap-around too


@st.composite
def operands(draw, dtypes=("float64", "float64"), shapes="mm"):
    """Two arrays of ``dtypes`` whose shapes (``m`` a matrix, ``v`` a vector) usually
    agree in the core dimension."""
    n, k, m = (draw(st.integers(0, 4)) for _ in range(3))
    k2 = k if draw(st.integers(0, 5)) else k + 1  # numpy's ValueError now and then
    out = []
    for dt, form, shape in zip(dtypes, shapes, [((n, k), (k,)), ((k2, m), (k2,))]):
        elements = {"float64": EXACT, "int64": INTS, "bool": st.booleans()}[dt]
        out.append(draw(hnp.arrays(np.dtype(dt), shape[0] if form == "m" else shape[1], elements=elements)))
    return tuple(out)


def product(a, b):
    return a @ b


def dotted(a, b):
    return np.dot(a, b)


def mm(a, b):
    return a @ b, np.matmul(a, b), np.dot(a, b), a.dot(b)


def mm_views(a, b):
    return a.T.T @ b, a[::-1] @ b, (a * 2) @ (b + 1), np.dot(a[:, ::-1], b[::-1])


def mv(a, x):
    return a @ x, np.dot(a, x), (a @ x).sum(), a.dot(x)


def vm(x, a):
    return x @ a, np.matmul(x[::-1], a[::-1])


def vv(x, y):
    return x @ y, np.dot(x, y), np.inner(x, y), np.vdot(x, y), np.dot(2, x), np.dot(x, 0.5), x.dot(y)


def outer(x, y):
    return np.outer(x, y), np.outer(y[::2], x)


def least_squares_loss(a, x, b):
    r = a @ x - b
    return np.sum(r * r)


def mlp(w1, w2, x):
    h = np.maximum(w1 @ x, 0.0)
    return np.sum(np.tanh(w2 @ h))


M, V = "mm", "vv"
CASES = [
    (mm, ["float64[:, :]"] * 2, operands()),
    (mm, ["int64[:, :]"] * 2, operands(("int64", "int64"))),
    (mm, ["bool[:, :]"] * 2, operands(("bool", "bool"))),
    (mm, ["bool[:, :]", "int64[:, :]"], operands(("bool", "int64"))),
    (mm, ["int64[:, :]", "float64[:, :]"], operands(("int64", "float64"))),
    (mm_views, ["float64[:, :]"] * 2, operands()),
    (mm_views, ["int64[:, :]"] * 2, operands(("int64", "int64"))),
    (mv, ["float64[:, :]", "float64[]"], operands(shapes="mv")),
    (mv, ["int64[:, :]", "bool[]"], operands(("int64", "bool"), shapes="mv")),
    (vm, ["float64[]", "float64[:, :]"], operands(shapes="vm")),
    (vm, ["bool[]", "bool[:, :]"], operands(("bool", "bool"), shapes="vm")),
    (vv, ["float64[]"] * 2, operands(shapes=V)),
    (vv, ["int64[]"] * 2, operands(("int64", "int64"), shapes=V)),
    (vv, ["bool[]", "float64[]"], operands(("bool", "float64"), shapes=V)),
    (outer, ["float64[]", "int64[]"], operands(("float64", "int64"), shapes=V)),
    (outer, ["bool[]"] * 2, operands(("bool", "bool"), shapes=V)),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES,
                         ids=[f"{c[0].__name__}-{'-'.join(c[1])}" for c in CASES])
def test_products_agree_with_numpy_in_every_stage(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=40)


ANY = st.floats(-1e3, 1e3) | st.sampled_from([0.0, -0.0, math.inf, math.nan])


@st.composite
def any_floats(draw, shapes):
    return tuple(draw(hnp.arrays(np.float64, hnp.array_shapes(min_dims=d, max_dims=d, max_side=4),
                                 elements=ANY)) for d in shapes)


@pytest.mark.parametrize("fn, name", [(product, "matmul"), (dotted, "dot")])
@pytest.mark.parametrize("shapes", [(1, 1), (2, 1), (1, 2), (2, 2)])
def test_float_products_are_the_documented_sums_in_every_stage(fn, name, shapes):
    """Random floats, mismatched shapes included: son's documented product (the fuzz
    oracle's) in every stage, and numpy's wherever each element has one term."""
    argtypes = ["float64[]" if d == 1 else "float64[:, :]" for d in shapes]
    check_every_stage(fn, argtypes, any_floats(shapes), max_examples=30,
                      expected=lambda f, args: run_python(lambda a, b: documented_product(name, a, b), args))


@pytest.mark.parametrize("shapes", [((5, 7), (7, 3)), ((6, 4), (4,)), ((4,), (4, 5)), ((33,), (33,))])
def test_float_products_sum_in_index_order_close_to_numpys_blas(shapes):
    """son's documented float product (the oracle's, son/fuzz/products.py): each
    element's terms added in index order from 0.0; within rounding of numpy's BLAS."""
    rng = np.random.default_rng(11)
    a, b = (rng.standard_normal(s) * 10.0 ** rng.integers(-3, 4, s) for s in shapes)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback to CPython
        got = son.jit(product)(a, b)
    np.testing.assert_array_equal(got, documented_product("matmul", a, b))
    np.testing.assert_allclose(got, a @ b, rtol=1e-12, atol=1e-9 * np.max(np.abs(a)) * np.max(np.abs(b)))
    g = son.parse(product, args=(a, b))
    np.testing.assert_array_equal(son.interpret(g, a, b), got)


def test_a_mismatched_core_dimension_is_numpys_value_error_before_any_read():
    kernel = son.jit(mv)
    a, x = np.ones((3, 4)), np.ones(5)
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        kernel(a, x)
    with pytest.raises(ValueError, match="not aligned"):
        son.jit(dotted)(np.ones(2), np.ones(3))


@pytest.mark.parametrize("text, message", [
    ("def f(a):\n    return 2.0 @ a\n", "Input operand 0 does not have enough dimensions"),
    ("def f(a):\n    return np.matmul(a, 3)\n", "Input operand 1 does not have enough dimensions"),
    ("def f(a):\n    return a.reshape(2, 2, -1) @ a\n", "of a 3-D array"),
    ("def f(a):\n    return np.dot(a, a, out=None)\n", "takes two arrays"),
])
def test_what_son_does_not_multiply_is_a_located_error(tmp_path, text, message):
    f = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=message) as info:
        son.parse(f, argtypes=["float64[]"])
    assert "case.py:5:" in str(info.value)


@pytest.mark.parametrize("interpret", [False, True])
@pytest.mark.parametrize("fn, shapes", [(least_squares_loss, [(5, 3), (3,), (5,)]),
                                        (mlp, [(4, 3), (2, 4), (3,)])])
def test_gradients_through_products_agree_withfinite_differences(fn, shapes, interpret):
    rng = np.random.default_rng(5)
    args = tuple(rng.standard_normal(s) for s in shapes)
    ks = tuple(range(len(args)))
    grads = son.grad(fn, argnums=ks, interpret=interpret)(*args)
    for k, g in zip(ks, grads):
        assert g.shape == args[k].shape
        np.testing.assert_allclose(g, finite_differences(fn, args, k), rtol=1e-5, atol=1e-6)
    tangents = tuple(rng.standard_normal(s) for s in shapes)
    _, t = son.jvp(fn, interpret=interpret)(args, tangents)
    assert t == pytest.approx(sum(float(np.sum(g * d)) for g, d in zip(grads, tangents)), rel=1e-9)
