"""``range`` objects as values (son/frontend/scope.py ``Rng``): bound to variables,
iterated, measured (``len``: CPython's exact length, OverflowError past what ``len``
returns), indexed (IndexError outside), tested for truth, their ``start``, ``stop``,
``step``.  CPython is the oracle in every stage: the interpreter on each pipeline's
graph (the raw parse included) and the kernel."""

from __future__ import annotations

import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

M = 2 ** 63
BOUNDS = st.one_of(st.integers(-12, 12), st.sampled_from([M - 1, -M, -M + 1, M - 2, 2 ** 62, -(2 ** 62)]),
                   st.integers(-M, M - 1))
STEPS = st.one_of(st.integers(-4, 4), st.sampled_from([M - 1, -M, 2 ** 62, -(2 ** 62) - 1]))


def measured(a, b, c):
    r = range(a, b, c)
    return len(r), bool(r), r.step


def indexed(a, b, c, i):
    r = range(a, b, c)
    return r[i], r.start


def iterated(a, b, c):
    r = range(a, b, c)
    s = 0
    k = 0
    if len(r) > 50:
        r = range(a, a + 50 * c, c) if c > 0 else range(0)
    for x in r:
        s += x % 7
        k += 1
    return s, k


def returned(a, b, s):
    r = range(a, b, s)
    return r, (r.start, range(b))


CASES = [
    (returned, st.tuples(BOUNDS, BOUNDS, STEPS)),
    (measured, st.tuples(BOUNDS, BOUNDS, STEPS)),
    (indexed, st.tuples(BOUNDS, BOUNDS, STEPS, st.integers(-6, 6))),
    (iterated, st.tuples(st.integers(-20, 20), st.integers(-20, 20), st.integers(-3, 3))),
]


@pytest.mark.parametrize("fn, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, strategy):
    check_every_stage(fn, [int] * fn.__code__.co_argcount, strategy, max_examples=80)


@pytest.mark.parametrize("src, message", [
    ("def f(n: int):\n    return range(n)[1:]\n", "slice of a range"),
    ("def f(n: int):\n    return (1, 2) in range(n)\n", "'in' of a value that is not a number"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message):
        son.parse_source(src, name="f")
