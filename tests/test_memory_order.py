"""Reductions over all the elements of an n-D array numpy's reduction iterator reads as
one run of memory (son/frontend/memorder.py ``block_layout``): a transpose, an F-order
argument, an axis permutation, a C-order array reversed whole.  numpy's float sums are
pairwise in that order (and a variance's second pass reads a new array laid out the same
way), so son reads the run from the first element by a step of +-1.  Layouts numpy does
not read as one run (mixed signs, gaps) stay son's run-time refusal.  CPython is the
oracle in every stage and the kernel, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.frontend.signature import ViewSpec


def reductions(a):
    return np.sum(a), np.mean(a), a.prod(), np.max(a), a.min(), np.var(a), a.std(ddof=1), a.sum()


def layouts(ndim: int):
    """Arrays of up to 5 per axis, as numpy lays them out or reads them: C order, an axis
    permutation of it, reversed whole, both, or with axes of mixed signs (refused)."""
    shape = st.tuples(*[st.integers(1, 5)] * ndim)

    def made(sh, scale, perm, flip):
        n = int(np.prod(sh))
        a = (np.random.default_rng(n).standard_normal(n) * scale)
        a = (a[::-1] if flip == "all" else a).reshape(sh).transpose(perm)
        return a[::-1] if flip == "first" else a

    return shape.flatmap(lambda sh: st.builds(made, st.just(sh), st.sampled_from([1.0, 1e3, 1e-3]),
                                              st.permutations(range(ndim)).map(tuple),
                                              st.sampled_from(["none", "all", "first"])))


def _run_or_refused(fn, args):
    """CPython's outcome where numpy reads the array as one run, else son's refusal."""
    a = args[0]
    order = sorted((abs(s), s, d) for s, d in zip(a.strides, a.shape) if d > 1)
    step = order[0][1] if order else a.itemsize
    ok = abs(step) == a.itemsize
    for (_, s, d), (_, t, _) in zip(order, order[1:]):
        ok &= t == s * d
    return run_python(fn, args) if ok or a.size == 0 else ("raise", NotImplementedError)


@pytest.mark.parametrize("ndim", [2, 3])
def test_a_reduction_of_an_array_read_as_one_run_is_numpys_bit_for_bit(ndim):
    with np.errstate(all="ignore"):
        check_every_stage(reductions, [ViewSpec("float64", ndim)], st.tuples(layouts(ndim)), max_examples=8,
                          expected=_run_or_refused)


def test_the_kernel_specializes_on_layout():
    """A kernel built for a C-order argument is not called with a transpose (son.jit's
    key has the layout: the second call was a SonError)."""
    run = son.jit(reductions, fallback="error")
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    for x in (a, a.T, a[::-1, ::-1], np.asfortranarray(a)):
        assert run_python(run, [x]) == run_python(reductions, [x])
