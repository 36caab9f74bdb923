"""Slice objects as values (son/frontend/slicevalues.py): ``slice(a, b, c)`` with ints and
None, its ``start``/``stop``/``step``, and subscripts with a slice value or a
``slice(...)`` call read, assigned and updated in place, on arrays, n-D arrays and lists;
a slice chosen by a branch; a slice as an argument.  CPython is the oracle in every stage (the raw parse, each
pipeline, the kernel)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, run_python, run_son
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

#: 7 stands for None (read as a value that may be None); a step of 0 is CPython's
#: ValueError where the slice is used
BOUNDS = st.integers(-6, 7)
STEPS = st.integers(-3, 3) | st.just(7)


def maybe(n: int):
    return None if n == 7 else n


def parts_and_reads(a, lo: int, hi: int, step: int):
    lo, hi, step = maybe(lo), maybe(hi), maybe(step)
    s = slice(lo, hi, step)
    t = slice(hi)
    return s.start, s.stop, s.step, t.stop, a[s].copy(), a[t].sum(), a[slice(lo, hi)].copy()


def writes(a, m, lo: int, hi: int, j: int):
    s = slice(maybe(lo), maybe(hi))
    a[s] = 1.5
    a[slice(None, None, -1)] += a
    m[s, j % 2] -= 2.0
    m[0][s] = m[1][s]
    return a, m, m[s, 0].copy()


def lists(xs: list[int], lo: int, hi: int, c: bool):
    s = slice(maybe(lo), hi) if c else slice(None, None, 2)
    ys = xs[s]
    xs[s] = [7, 8]
    return ys, xs, xs[slice(-2, None)]


CASES = [
    (parts_and_reads, ["float64[]", "int", "int", "int"],
     st.tuples(hnp.arrays(np.float64, st.integers(0, 6)), BOUNDS, BOUNDS, STEPS)),
    (writes, ["float64[]", "float64[:, :]", "int", "int", "int"],
     st.tuples(hnp.arrays(np.float64, 4, elements=st.floats(-9, 9)),
               hnp.arrays(np.float64, (3, 2), elements=st.floats(-9, 9)), BOUNDS, BOUNDS, st.integers(0, 3))),
    (lists, [list[int], "int", "int", "bool"],
     st.tuples(st.lists(st.integers(-3, 3), max_size=5), BOUNDS, BOUNDS, st.booleans())),
]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, argtypes, strategy, max_examples=40)


@pytest.mark.parametrize("src, message", [
    ("def f(x: float):\n    return slice(x)\n", "slice() of a float"),
    ("def f(n: int):\n    s = slice(n)\n    return s.size\n", "no attribute 'size'"),
    ("def f(n: int):\n    return slice()\n", "slice expected 1 to 3 arguments"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        son.parse_source(src, name="f")


def slice_argument(a, s, value):
    """A slice passed in: read, written, its parts (numba's ``setitem_usecase``)."""
    got = a[s].copy()
    a[s] = value
    return got, s.start, s.stop, s.step


PARTS = st.none() | st.integers(-7, 7)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-9, 9)),
       st.builds(slice, PARTS, PARTS, st.none() | st.integers(-3, 3).filter(bool)), st.floats(-9, 9))
def test_a_slice_argument_is_cpythons_in_the_interpreter_and_the_kernel(a, s, value):
    """Each kind of slice (which parts are None) is a specialization of its own."""
    want = run_python(slice_argument, [a, s, value])
    graph = son.optimize(son.parse(slice_argument, args=(a, s, value)), "combined")[0]
    assert run_son(graph, [a, s, value]) == want
    assert run_python(JITTED, [a, s, value]) == want


JITTED = son.jit(slice_argument, fallback="error")
