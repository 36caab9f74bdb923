"""``ravel`` as numpy's (son/frontend/memorder.py ``view_or_copy``): a view of an array
that is C-contiguous at run time, else a C-order copy, so a write through the result
changes the array exactly where numpy's does.  Arrays of every layout (C order, a
transpose, an axis permutation, reversed, a 1-D view with a step, an F-order argument),
written through and read back; CPython is the oracle in every stage and the kernel."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, check_reverse_against_forward
from hypothesis import strategies as st

import son
from son.frontend.signature import ViewSpec


def written_through(m, v, x):
    """Writes through each ravel: numpy's view changes ``m`` or ``v``, its copy does not."""
    r = m.ravel()
    if len(r):
        r[0] = x
    t = m.T.ravel()
    if len(t) > 1:
        t[1] = -x
    s = v[::2].ravel()
    s[-1:] = 2.0 * x
    w = np.ravel(v[::-1])
    return r.sum(), t, s, w, m, v


def layouts(ndim: int):
    """An array of up to 4 per axis laid out as C order, an axis permutation, reversed
    whole, or the first axis reversed."""
    shape = st.tuples(*[st.integers(0, 4)] * ndim)

    def made(sh, perm, flip):
        a = np.arange(float(np.prod(sh))).reshape(sh).transpose(perm)
        return a[::-1] if flip else a

    return shape.flatmap(lambda sh: st.builds(made, st.just(sh), st.permutations(range(ndim)).map(tuple),
                                              st.booleans()))


def test_ravel_is_a_view_of_a_c_contiguous_array_and_a_copy_of_any_other():
    vectors = st.integers(0, 5).map(lambda n: np.arange(n, dtype=float) + 0.5)
    check_every_stage(written_through, [ViewSpec("float64", 2), "float64[]", float],
                      st.tuples(layouts(2), vectors, st.sampled_from([7.0, -0.0])), max_examples=40)


def ravel_of_3d(a):
    r = a.ravel()
    r[r.size // 2:] += 1.0
    return r, a


def test_ravel_of_3d_arrays_of_any_layout():
    check_every_stage(ravel_of_3d, [ViewSpec("float64", 3)], st.tuples(layouts(3)), max_examples=25)


def test_the_copy_is_made_only_where_the_array_is_not_c_contiguous():
    """One branch copies: a C-order argument's ravel shares its memory, a transpose's
    does not."""
    kernel = son.jit(ravel_of_3d, fallback="error")
    a = np.arange(24.0).reshape(2, 3, 4)
    r, same = kernel(a)
    assert np.shares_memory(r, a) and np.shares_memory(same, a)
    t = np.arange(24.0).reshape(4, 2, 3).transpose(1, 2, 0)
    r, same = kernel(t)
    assert not np.shares_memory(r, t) and np.shares_memory(same, t)


def loss(v, w):
    r = v.reshape(2, -1).ravel() * w
    return np.sum(r * r)


def transposed_loss(v, w):
    r = v.reshape(2, -1).T.ravel() * w
    return np.sum(r * r)


def test_gradients_go_through_the_view_and_name_the_copy_they_cannot_take():
    """A ravel of a C-contiguous array is a view, differentiable; one that may copy is a
    merge of two arrays, which son.grad names (its adjoint arrays are allocated before
    any branch)."""
    check_reverse_against_forward(loss, np.array([0.5, -1.25, 2.0, 1.5]), 0.75)
    with pytest.raises(son.SonError, match="an array chosen by control flow"):
        son.grad(transposed_loss)(np.array([0.5, -1.25, 2.0, 1.5]), 0.75)
