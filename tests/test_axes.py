"""Views that add, remove or exchange axes (son/frontend/axes.py): ``a[:, None]``,
``a[None]``, ``a[..., 0]``, ``np.expand_dims``, ``np.atleast_*d``, ``np.squeeze``,
``np.swapaxes``, ``np.moveaxis``, ``np.transpose`` and their methods, ``np.flip``/``fliplr``/``flipud``,
``np.rot90``; and ``np.roll`` (a new array).  numpy is the oracle in every stage; a write
through such a view is a write to its base."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, finite_differences, function_from_text
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

F, F2, F3 = "float64[]", "float64[:, :]", "float64[:, :, :]"
ELEMENTS = st.floats(-100, 100) | st.sampled_from([0.0, -0.0, np.nan, np.inf])


def vectors():
    return st.integers(0, 4).flatmap(lambda k: hnp.arrays(np.float64, k, elements=ELEMENTS))


def matrices(elements=ELEMENTS):
    return st.tuples(st.integers(0, 3), st.integers(0, 3)).flatmap(
        lambda s: hnp.arrays(np.float64, s, elements=elements))


def cubes():
    return st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)).flatmap(
        lambda s: hnp.arrays(np.float64, s, elements=ELEMENTS))


def new_axes(x, y, a):
    outer = x[:, None] * y[None, :]
    return (outer, x[None], x[..., None], a[:, None, :], a[None], x[np.newaxis, :] + 1.0,
            np.sum(a[:, :, None] * 2.0), outer.shape)


def ellipses(a):
    """IndexError where an axis is empty, as numpy."""
    return a[..., 0], a[-1, ...], a[...], a[..., None, 0]


def functions(x, a, c):
    return (np.expand_dims(x, 0), np.expand_dims(x, -1), np.expand_dims(x, (0, -1)), np.atleast_1d(x),
            np.atleast_2d(x), np.atleast_3d(x), np.atleast_3d(a), np.atleast_2d(a),
            np.squeeze(np.expand_dims(a, 1), axis=1), np.swapaxes(c, 0, 2), c.swapaxes(1, -1),
            np.moveaxis(c, 0, -1), np.moveaxis(c, -1, 0), np.expand_dims(x, 1).squeeze(1),
            np.squeeze(x[None, :, None], axis=(0, 2)), np.transpose(a), np.transpose(c, (1, 0, 2)),
            c.transpose(2, 0, 1), c.transpose((0, 2, 1)), np.transpose(x), a.transpose(),
            np.transpose(c, None))


def writes_through(x, a):
    v = x[:, None]
    if len(x):
        v[0, 0] = 7.5
    w = np.expand_dims(a, 0)
    if a.size:
        w[0, -1, -1] += 1.0
    s = np.swapaxes(a, 0, 1)
    if a.size:
        s[0, 0] = -2.0
    t = np.transpose(a)
    if a.size:
        t[-1, 0] *= 3.0
    return x, a


def test_new_axes_are_numpys_views_in_every_stage():
    check_every_stage(new_axes, [F, F, F2], st.tuples(vectors(), vectors(), matrices()), max_examples=40)


def test_an_ellipsis_stands_for_the_axes_not_indexed():
    check_every_stage(ellipses, [F2], st.tuples(matrices()), max_examples=30)


def test_axis_functions_are_numpys_in_every_stage():
    check_every_stage(functions, [F, F2, F3], st.tuples(vectors(), matrices(), cubes()), max_examples=40)


def test_writes_through_an_axis_view_reach_its_base():
    check_every_stage(writes_through, [F, F2], st.tuples(vectors(), matrices()), max_examples=30)


def test_squeeze_of_an_axis_longer_than_one_is_numpys_value_error():
    def f(a):
        return np.squeeze(a, axis=0)

    g = son.jit(f, fallback="error")
    assert g(np.ones((1, 3))).tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="size not equal to one"):
        g(np.ones((2, 3)))


def diagonals(v, a):
    d = np.diag(a)
    if a.size:
        a[0, 0] = 9.5  # the diagonal is a view: it sees the write
    return (np.diag(v), np.diag(v, 1), np.diag(v, -2), d, np.diag(a, 1), np.diag(a, -1), np.diagonal(a),
            a.diagonal(1), np.diag(a, 5), np.trace(a), a.T.diagonal(-1), np.trace(a, 1),
            np.trace(a, offset=-1))


def test_diagonals_are_numpys_views_or_new_arrays_in_every_stage():
    check_every_stage(diagonals, [F, F2], st.tuples(vectors(), matrices()), max_examples=30)


def kept_axes(a):
    """keepdims=True: the reduced axis stays, of length 1, so the result broadcasts back."""
    return (a / np.sum(a, axis=1, keepdims=True), a - a.max(axis=0, keepdims=True),
            np.mean(a, axis=-1, keepdims=True), a.sum(0, keepdims=False),
            np.min(a, axis=1, keepdims=True).shape)


def test_reductions_keep_their_axis_where_asked():
    """(No -0.0: which of two zeros np.max returns is numpy's SIMD kernels' choice, and
    son's NotImplementedError there.)"""
    check_every_stage(kept_axes, [F2], st.tuples(matrices(ELEMENTS.map(lambda v: v + 0.0))), max_examples=30)


def shaped_like(a, x):
    """A shape given as a tuple value (``a.shape``) to np.zeros/ones/empty/full."""
    z = np.zeros(a.shape)
    e = np.empty(a.T.shape, dtype=np.int64)
    if len(e):
        e[0] = 3  # a row: a view assigned
    return z + a, np.ones(x.shape, dtype=np.int64), e.shape, np.full(a.shape, 2.5), np.zeros(x[None].shape)


def test_a_shape_value_makes_arrays():
    check_every_stage(shaped_like, [F2, F], st.tuples(matrices(), vectors()), max_examples=20)


def any_shape(draw_dims):
    return draw_dims.flatmap(lambda s: hnp.arrays(np.float64, s, elements=ELEMENTS))


def flips(x, a, c):
    return (np.flip(x), np.flip(a), np.flip(a, 0), np.flip(c, (0, 2)), np.flip(c, axis=-1), np.fliplr(a),
            np.flipud(a), np.flipud(x), np.rot90(a), np.rot90(a, 2), np.rot90(a, -1), np.rot90(a, 3, (1, 0)),
            np.rot90(c, 1, (0, 2)), np.rot90(c, k=2, axes=(2, 1)), np.flip(c.T, 1))


def test_flips_and_rotations_are_numpys_views_in_every_stage():
    dims = st.integers(0, 3)
    strategy = st.tuples(vectors(), any_shape(st.tuples(dims, dims)), any_shape(st.tuples(dims, dims, dims)))
    check_every_stage(flips, [F, F2, F3], strategy, max_examples=40)


def rotations_write_through(a, c):
    r = np.rot90(a)
    if r.size:
        r[0, -1] = 9.5  # a[-1, -1]: a view of a, as numpy's
    f = np.flip(c, 1)
    if f.size:
        f[0, 0, 0] += 1.0
    return a, c


def test_writes_through_flips_and_rotations_reach_their_base():
    dims = st.integers(0, 3)
    check_every_stage(rotations_write_through, [F2, F3],
                      st.tuples(any_shape(st.tuples(dims, dims)), any_shape(st.tuples(dims, dims, dims))),
                      max_examples=30)


def rolls(x, a, c, i, k: int, j: int):
    return (np.roll(x, k), np.roll(a, k), np.roll(a, j, 0), np.roll(a, k, axis=-1),
            np.roll(c, (k, j), (2, 0)), np.roll(c, (k, -1, j), (1, 1, 2)),
            np.roll(a, shift=(j, 2), axis=(1, 1)), np.roll(c[:, 1:, ::2], k, 1), np.roll(i, j, 1),
            np.roll(i, (k, j)), np.roll(x, True), np.roll(a.T, k))


def test_roll_is_numpys_in_every_stage():
    """Shifts of any size and sign (int64's edges too), axes empty or not, repeated axes
    adding up, no axis rolling the elements in C order."""
    dims = st.integers(0, 3)
    shifts = st.integers(-7, 7) | st.sampled_from([-2**63, 2**63 - 1, 10**12])
    strategy = st.tuples(vectors(), any_shape(st.tuples(dims, dims)), any_shape(st.tuples(dims, dims, dims)),
                         st.tuples(dims, dims).flatmap(lambda s: hnp.arrays(np.int64, s)), shifts, shifts)
    check_every_stage(rolls, [F, F2, F3, "int64[:, :]", int, int], strategy, max_examples=50)


def rolled_loss(a, x):
    return np.sum(np.roll(a, 1, 0) * a) + np.sum(np.roll(a, -2) * np.flip(a, 1)) + np.sum(np.roll(x, 3) * x) \
        + np.rot90(a)[0, 1] * x[0]


def test_gradients_go_through_rolls_flips_and_rotations():
    rng = np.random.default_rng(11)
    a, x = rng.standard_normal((3, 4)), rng.standard_normal(5)
    grads = son.grad(rolled_loss, argnums=(0, 1))(a.copy(), x.copy())
    for k, g in enumerate(grads):
        np.testing.assert_allclose(g, finite_differences(rolled_loss, [a, x], k), rtol=1e-6, atol=1e-8)


def loss(x, y, a):
    d = x[:, None] - y[None, :]
    return np.sum(d * d * a[None, 1]) + np.sum(np.expand_dims(x, 1) * a) + np.swapaxes(a, 0, 1)[0, 1] * x[2]


def test_gradients_go_through_axis_views():
    rng = np.random.default_rng(7)
    x, y, a = rng.standard_normal(3), rng.standard_normal(3), rng.standard_normal((3, 3))
    grads = son.grad(loss, argnums=(0, 1, 2))(x.copy(), y.copy(), a.copy())
    for k, g in enumerate(grads):
        np.testing.assert_allclose(g, finite_differences(loss, [x, y, a], k), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("body, words", [
    ("return np.squeeze(a)", "known only at run time"),
    ("return np.expand_dims(a, 4)", "out of bounds"),
    ("return a[:, None, :, None]", "4 dimensions"),
    ("return a[..., 0, ...]", "single ellipsis"),
    ("return np.swapaxes(a, 0, k * 0.5)", "axis of float"),
    ("return np.expand_dims(a[None], k)", "4 dimensions"),
    ("return a[..., 0, 1]", "0-d array"),
    ("return np.rot90(a[0])", "Axes must be different"),
    ("return np.rot90(a, 1, (0, 0))", "Axes must be different"),
    ("return np.rot90(a, k)", "not a constant"),
    ("return np.roll(a, 1.5)", "shift of float"),
    ("return np.roll(a, (1, 2, 3), (0, 1))", "broadcast"),
    ("return np.roll(a, 1, float(k))", "axis of float"),
    ("return np.flip(a, (float(k), 0))", "axis of float"),
    ("return np.fliplr(a[0])", "at least 2-D"),
])
def test_refusals_are_located(tmp_path, body, words):
    f = function_from_text(tmp_path, f"def f(a, k):\n    {body}\n")
    with pytest.raises(SonSyntaxError, match=words):
        son.parse(f, argtypes=[F2, int])
