"""Values that may be None (son/frontend/scope.py ``Opt``, son/frontend/tuples.py): None
merged with numbers and flat tuples of numbers at branches and loops, tested with ``is
None``/``is not None``/``==``, refined on each arm, read as numbers behind CPython's
TypeError, returned by helpers and by the compiled function itself (a Return of None
and a Return of the value).  CPython is the oracle in every stage: the interpreter on
each pipeline's graph (the raw parse included) and the kernel."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import check_every_stage
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([0.5, 1.5, -2.5, -0.0, 0.0]))
ARRAYS = st.lists(st.sampled_from([0.0, 1.5, -2.0, 3.0, 3.0, np.nan]), max_size=6).map(np.array)


def find(a, x):
    for i in range(len(a)):
        if a[i] == x:
            return i
    return None


def position_or_minus_one(a, x):
    j = find(a, x)
    if j is None:
        return -1
    return j * 10 + (j is not None)


def largest(a):
    best = None
    for i in range(len(a)):
        if best is None or a[i] > best:
            best = a[i]
    return best


def defaults(x, flag):
    y = None
    if flag:
        y = x
    z = y if y is not None else 3.0
    w = y or 5.0
    return z + w + (y == None) + 2 * (y != x) + 4 * (None == y)  # noqa: E711 - the == on None is tested


def used_when_none(x, flag):
    y = x if flag else None
    return y * 2.0


def reset_in_loop(a):
    last = None
    count = 0
    for i in range(len(a)):
        if a[i] < 0.0:
            last = None
        elif last is None or a[i] != last:
            last = a[i]
            count += 1
    return count * 100 + (last is None)


def early_exit(x, n):
    r = None
    k = 0
    while k < n:
        k += 1
        if x * k > 10.0:
            r = k
            break
    if r is None:
        return -1.0
    return x * r


def none_in_tuples(x, flag):
    p = (x, None) if flag else (x, 2.0)
    q = p[1]
    return p[0] + (0.0 if q is None else q)


def best_pair(a):
    """``best = None`` before a loop that makes it a tuple, read in the loop's test."""
    best = None
    for i in range(len(a)):
        if best is None or a[i] > best[1]:
            best = (i, a[i])
    if best is None:
        return -1, 0.0
    i, v = best
    return i, v


def first_positive(a):
    best = None
    for i, x in enumerate(a):
        if x > 0 and (best is None or x < best[1]):
            best = (i, x)
    return best  # a tuple or None as the function's result


def tuple_or_none(x, flag):
    r = None
    if flag:
        r = (x, x * 2.0)
    elif x > 1.0:
        r = (x, 0.0)
    if r:
        return r[0] + r[1]
    return -1.0


def running_range(a):
    pair = None
    for x in a:
        if pair is None:
            pair = (x, x)
        else:
            pair = (min(pair[0], x), max(pair[1], x))
    return pair


def tuple_then_none(x, flag):
    t = (1, x)
    if flag:
        t = None
    return t is None, t == (1, 2.0), t is not None and t[1] > 0


CASES = [
    (best_pair, ["float64[]"], st.tuples(ARRAYS)),
    (first_positive, ["float64[]"], st.tuples(ARRAYS)),
    (tuple_or_none, ["float", "bool"], st.tuples(FLOATS, st.booleans())),
    (running_range, ["float64[]"], st.tuples(ARRAYS)),
    (tuple_then_none, ["float", "bool"], st.tuples(FLOATS, st.booleans())),
    (find, ["float64[]", "float"], st.tuples(ARRAYS, st.sampled_from([1.5, 3.0, 7.0]))),
    (position_or_minus_one, ["float64[]", "float"], st.tuples(ARRAYS, st.sampled_from([1.5, 3.0, 7.0]))),
    (largest, ["float64[]"], st.tuples(ARRAYS)),
    (defaults, ["float", "bool"], st.tuples(FLOATS, st.booleans())),
    (used_when_none, ["float", "bool"], st.tuples(FLOATS, st.booleans())),
    (reset_in_loop, ["float64[]"], st.tuples(ARRAYS)),
    (early_exit, ["float", "int"], st.tuples(FLOATS, st.integers(-1, 12))),
    (none_in_tuples, ["float", "bool"], st.tuples(FLOATS, st.booleans())),
]


def _argtypes(names):
    return [np.ndarray if n == "float64[]" else {"float": float, "int": int, "bool": bool}[n] for n in names]


@pytest.mark.parametrize("fn, argtypes, strategy", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_stage_agrees_with_cpython(fn, argtypes, strategy):
    check_every_stage(fn, _argtypes(argtypes), strategy)


def test_a_function_that_returns_a_value_or_none_prints_so():
    g = son.parse(largest, argtypes=[np.ndarray])
    assert str(g).splitlines()[0].endswith("-> float | None:")
    assert sorted(str(r.values[0].type) for r in g.returns()) == ["None", "float"]


def test_gradient_through_a_value_that_may_be_none():
    def f(x, y):
        best = None
        for k in range(3):
            v = x * k - y
            if best is None or v > best:
                best = v
        return best * x

    assert son.grad(f, argnums=(0, 1))(1.5, 0.5) == pytest.approx((6.0 - 0.5, -1.5))


@pytest.mark.parametrize("src, message", [
    ("def f(x: float, y: float):\n    return x is y\n", "'is' between values other than None"),
    ("def f(x: float, c: bool):\n    t = None\n    if c:\n        t = (x, x)\n    return t, x\n",
     "a tuple of 2 or None in the function's result"),
    ("def f(x: float, c: bool):\n    t = None\n    if c:\n        t = (x, (x, x))\n    return t\n",
     "variable 't' holds values of different types"),
    ("def f(n: int):\n    p = 0\n    for i in range(n):\n        if i:\n            n += p[0]\n"
     "        p = (i, 2.0)\n    return n\n", "'p' is an int where the loop starts"),
    ("def f(x: float, c: bool):\n    t = None\n    if c:\n        t = complex(x, x)\n    return t, x\n",
     "variable 't' holds values of different types"),
])
def test_refusals_name_the_construct(src, message):
    with pytest.raises(SonSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        son.parse_source(src, name="f")


def test_an_array_index_that_may_be_none_is_refused():
    """numpy reads ``a[None]`` as a new axis (a 2-D view; a store through it writes every
    element), which son's 1-D arrays cannot hold: refused where it is written, not the
    TypeError son raised before (seed 23130 i634)."""
    src = ("import numpy as np\ndef f(a: np.ndarray, c: bool):\n    i = None\n    if c:\n        i = 1\n"
           "    return a[i]\n")
    with pytest.raises(SonSyntaxError, match="array index that is or may be None"):
        son.parse_source(src, name="f")


def indexed_behind_tests(a, c, v):
    o = None
    if c:
        o = v % 3
    return a[(v % 3 if o is None else o)] + a[(o or 1)] + a[o if o is not None else 0]


def test_a_value_tested_not_none_indexes_an_array():
    """``x if o is None else o`` and ``o or d`` are never None: the arm where the test
    decides it reads the value (the peephole's ``not c`` flag, and the truth of ``o``,
    refine it too), so the index is an int (seed 24125 i310, i1521 were refused)."""
    check_every_stage(indexed_behind_tests, ["float64[]", "bool", "int"],
                      st.tuples(st.just(np.arange(3.0)), st.booleans(), st.integers(-5, 5)))


def in_a_returned_tuple(x, c):
    t = None
    if c:
        t = x * 2.0
    return (t, x), t is None, ((t,),)


def test_a_value_that_may_be_none_inside_a_returned_tuple():
    """Its flag and its value leave the kernel, and the Return's form makes None or the
    value of them (seed 25125 i2484, i2496 were refused)."""
    check_every_stage(in_a_returned_tuple, ["float", "bool"], st.tuples(st.floats(), st.booleans()))


def none_argument_before_a_raising_one(x: float, k: int):
    o = None
    if x > 1.0:
        o = 0.5
    if k == 0:
        return math.isclose(o, x / (k * 0.0))
    if k == 1:
        return math.isclose(x, 1.0, rel_tol=o, abs_tol=1.0 / (k - 1))
    return math.atan2(o, x / (k - 2))


def test_a_call_evaluates_every_argument_before_it_finds_none():
    # seed 47125 i9375: math.isclose(o, 0 / 0.0) with o None is CPython's ZeroDivisionError
    # (the arguments first, then the call's TypeError); son raised the TypeError when it
    # read o
    check_every_stage(none_argument_before_a_raising_one, [float, int],
                      st.tuples(st.sampled_from([0.5, 1.5, 2.0]), st.integers(0, 3)), max_examples=20)

