"""Code CPython never runs is not read: a construct son refuses, placed after a
``return``, ``raise``, ``break`` or ``continue`` or in an arm whose test is decided,
does not refuse the function, in the raw parse and the peephole parse alike, and every
stage still agrees with CPython (docs/decisions.md, "Dead code is not read")."""

from __future__ import annotations

import hypothesis.strategies as st
import numpy as np
import pytest

import son
from tests.conftest import check_every_stage, function_from_text

#: a statement son refuses wherever it may run (``&`` of float arrays)
REFUSED = "b = np.zeros(3) & np.zeros(3)"

CASES = {
    "after_return": f"""
def f(x: float, n: int):
    if n > 0:
        return x * n
    return x
    {REFUSED}
""",
    "after_raise": f"""
def f(x: float, n: int):
    if n > 2:
        raise ValueError("big")
        {REFUSED}
    return x - n
""",
    "decided_arm": f"""
def f(x: float, n: int):
    if True:
        y = x + n
    else:
        {REFUSED}
        y = b[0]
    return y
""",
    "after_break_and_continue": f"""
def f(x: float, n: int):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            continue
            {REFUSED}
        s += x * i
        if s > 50.0:
            break
            {REFUSED}
    return s
""",
    "loop_body_after_raise": f"""
def f(x: float, n: int):
    k = 0
    while k < n:
        k += 1
        if k == 7:
            raise IndexError("seven")
            t = b + 1
            {REFUSED}
    return x + k
""",
    "helper_that_never_returns": f"""
def h(v):
    if v > 1e300:
        return v
    raise ZeroDivisionError("never returns")


def f(x: float, n: int):
    if n > 3:
        return h(x) + 1.0
        {REFUSED}
    return x
""",
    "complex_helper_that_raises": f"""
import cmath


def f(x: float, n: int):
    if n > 3:
        v = cmath.log(0j)
        {REFUSED}
        return v.real
    return x
""",
}


@pytest.mark.parametrize("name", CASES)
def test_code_cpython_never_runs_is_not_read(tmp_path, name):
    fn = function_from_text(tmp_path, CASES[name])
    for peephole in (False, True):
        son.parse(fn, argtypes=(float, int), peephole=peephole)  # no refusal
    ints = st.integers(-3, 12)
    floats = st.floats(-100, 100, allow_nan=False)
    check_every_stage(fn, (float, int), st.tuples(floats, ints), max_examples=25)


def test_live_code_and_helpers_are_still_refused(tmp_path):
    """The same construct where an argument may reach it stays a located refusal, and
    so does one in an inlined helper, which is read whole: its returns, live or not,
    give the call's value its shape."""
    fn = function_from_text(tmp_path, f"def f(x: float, n: int):\n    if n > 0:\n        {REFUSED}\n"
                                      "    return x\n")
    (tmp_path / "helper").mkdir()
    helper = function_from_text(tmp_path / "helper", f"def h(v):\n    return v\n    {REFUSED}\n\n\n"
                                          "def f(x: float, n: int):\n    return h(x)\n")
    for f in (fn, helper):
        for peephole in (False, True):
            with pytest.raises(son.SonSyntaxError, match="not supported for float arrays"):
                son.parse(f, argtypes=(float, int), peephole=peephole)


def test_skipped_statements_build_no_nodes():
    """Both parses make no node at all for the statements after a return (the graph
    numbers every node it makes, so the two functions end at the same number)."""
    def short(x: float):
        return x + 1.0

    def long(x: float):
        return x + 1.0
        y = np.sqrt(x) * 3.0  # noqa: F841 - dead on purpose
        return y

    for peephole in (False, True):
        a, b = son.parse(short, peephole=peephole), son.parse(long, peephole=peephole)
        assert a._next_id == b._next_id
