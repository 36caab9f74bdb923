"""Integer ranges: every int node's ``compute()`` is sound under int64 wrap-around.

The key property: for operands drawn *inside* random ranges (biased to the int64
limits, 0 and ±1, and to the ranges' own ends), the value the node's ``eval``
gives (CPython's result, wrapped to int64) lies in the type ``compute()`` gives
for the ranges.  It runs over every unary and binary node class generically, so a
node added later is covered.  Then the transfer functions' precision on small
examples, and folds in the spirit of Simple's chapter 14, each with its
pessimistic (parse-time peephole) and optimistic (SCCP, combined) outcome.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import run_python, run_son
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import son
from son.nodes import ULT, ArrayLen, Binary, Graph, OutOfBounds, Proj, Unary, ir
from son.nodes import ranges as R
from son.nodes.mathfn import MathCall
from son.nodes.node import FOLD_ERRORS
from son.nodes.types import (
    BOOL,
    BOTTOM,
    INT,
    INT64_MAX,
    INT64_MIN,
    ArrayType,
    Type,
    constant,
    int_range,
    narrowing_accepted,
    widen_range,
)
from son.sccp.combined import combined
from son.sccp.sccp import sccp

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

EDGES = [INT64_MIN, INT64_MIN + 1, -(1 << 62), -65, -64, -63, -2, -1, 0, 1, 2, 3, 7, 8, 63, 64, 65,
         1 << 32, 1 << 62, INT64_MAX - 1, INT64_MAX]
int64s = st.one_of(st.sampled_from(EDGES), st.integers(-9, 9), st.integers(INT64_MIN, INT64_MAX))


def _all_subclasses(cls: type) -> list[type]:
    out, stack = [], [cls]
    while stack:
        for sub in stack.pop().__subclasses__():
            out.append(sub)
            stack.append(sub)
    return out


#: every node class with one or two value operands (arithmetic, bitwise, shifts,
#: comparisons, casts, math) and the bounds check
NODE_CLASSES = sorted({c for c in _all_subclasses(Unary) + _all_subclasses(Binary)} | {OutOfBounds},
                      key=lambda c: c.__name__)
UNARY = {c for c in NODE_CLASSES if issubclass(c, Unary)}


@st.composite
def operand(draw) -> tuple[Type, object]:
    """An operand type (an int range, a constant, ``INT``, or a bool type) and a value of it."""
    kind = draw(st.sampled_from(["range", "range", "range", "int", "bool"]))
    if kind == "bool":
        t = draw(st.sampled_from([BOOL, constant(True), constant(False)]))
        return t, t.con if t.is_constant else draw(st.booleans())
    if kind == "int":
        return INT, draw(int64s)
    a, b = sorted((draw(int64s), draw(int64s)))
    if draw(st.booleans()):  # a narrow range near one end
        b = min(a + draw(st.integers(0, 4)), INT64_MAX)
    v = draw(st.one_of(st.sampled_from([a, b, max(a, min(b, 0)), max(a, min(b, 1)), max(a, min(b, -1))]),
                       st.integers(a, b)))
    return int_range(a, b), v


def contains(t: Type, v) -> bool:
    """Is the Python value ``v`` one of the values of type ``t``?"""
    if t is BOTTOM:
        return True
    if t.is_constant:
        return type(v) is type(t.con) and (v == t.con or v != v)
    if t.kind == "int":
        return type(v) is int and t.lo <= v <= t.hi
    if t.kind == "bool":
        return type(v) is bool
    if t.kind == "float":
        return type(v) is float
    if t.kind == "number":
        return type(v) in (int, float, bool)
    return False


def build(cls: type, types: list[Type]):
    g = Graph("f", [(f"p{i}", t) for i, t in enumerate(types)])
    ps = [Proj(g, g.start, 2 + i, f"p{i}") for i in range(len(types))]
    if issubclass(cls, MathCall):
        return cls(g, *ps)
    return cls(g, *ps)


@pytest.mark.parametrize("cls", NODE_CLASSES, ids=lambda c: c.__name__)
@SETTINGS
@given(data=st.data())
def test_compute_contains_every_value_of_eval(cls, data):
    """The soundness of ranges: eval's value on operands inside the operands' types lies
    in compute()'s type, for every node class with one or two operands."""
    arity = 1 if cls in UNARY else 2
    ops = [data.draw(operand()) for _ in range(arity)]
    n = build(cls, [t for t, _ in ops])
    try:
        v = n.eval(*[v for _, v in ops])
    except FOLD_ERRORS:
        return  # the node faults here: its type need not contain anything
    assert contains(n.type, v), (cls.__name__, [(str(t), x) for t, x in ops], n.type, v)


def test_node_classes_cover_the_int_nodes():
    names = {c.__name__ for c in NODE_CLASSES}
    assert {"Add", "Sub", "Mul", "Neg", "FloorDiv", "Mod", "Pow", "Shl", "Shr", "BitAnd", "BitOr", "BitXor",
            "Invert", "Abs", "Min", "Max", "ToInt", "ToBool", "Not", "LT", "EQ", "ULT",
            "OutOfBounds"} <= names


@SETTINGS
@given(int64s, int64s)
def test_unsigned_compare_reads_bit_patterns(a, b):
    """ULT orders ints by their 64-bit patterns: every negative int is above every
    non-negative one; it folds only where both ranges lie on one side of 0."""
    n = build(ULT, [int_range(a, a), int_range(b, b)])
    assert n.eval(a, b) is ((a % (1 << 64)) < (b % (1 << 64)))
    assert n.type == constant(n.eval(a, b))
    across = build(ULT, [int_range(-1, 0), int_range(0, 5)])  # -1 is above 5, 0 below it
    assert across.type == BOOL


@SETTINGS
@given(st.integers(0, 1 << 20))
def test_array_length_is_never_negative(n):
    g = Graph("f", [("a", ArrayType("int64"))])
    t = ArrayLen(g, Proj(g, g.start, 2, "a")).type
    assert t == int_range(0, INT64_MAX) and contains(t, len(np.zeros(n)))


# ---------------------------------------------------------------- transfer functions
def rt(cls, *types):
    return build(cls, list(types)).type


def test_wrap_is_never_assumed_away():
    from son.nodes import Abs, Add, FloorDiv, Mul, Neg, Shl, Sub

    r = int_range
    assert rt(Add, r(0, INT64_MAX), constant(1)) == INT  # not [1, max]: max + 1 wraps
    assert rt(Add, r(0, INT64_MAX - 1), constant(1)) == r(1, INT64_MAX)
    assert rt(Sub, r(INT64_MIN, 0), constant(1)) == INT
    assert rt(Neg, r(INT64_MIN, 0)) == INT  # -min is min
    assert rt(Neg, r(INT64_MIN + 1, 0)) == r(0, INT64_MAX)
    assert rt(Abs, r(INT64_MIN, -1)) == INT  # abs(min) is min
    assert rt(Mul, r(0, 1 << 32), r(0, 1 << 31)) == INT  # 2**63 is one past max
    assert rt(Mul, r(0, 1 << 31), r(0, 1 << 31)) == r(0, 1 << 62)
    assert rt(Mul, r(-3, 5), r(-2, 4)) == r(-12, 20)
    assert rt(FloorDiv, r(INT64_MIN, -1), r(-1, -1)) == INT  # min // -1 wraps to min
    assert rt(Shl, r(1, 1), r(0, 62)) == r(1, 1 << 62)
    assert rt(Shl, r(1, 1), r(0, 63)) == INT


def test_division_and_modulo_follow_python():
    from son.nodes import FloorDiv, Mod

    r = int_range
    assert rt(FloorDiv, r(0, 100), r(1, 10)) == r(0, 100)
    assert rt(FloorDiv, r(-7, 7), r(2, 2)) == r(-4, 3)
    assert rt(FloorDiv, r(-7, 7), r(-2, 2)) == r(-7, 7)  # 0 is not a divisor that returns
    assert rt(Mod, INT, r(1, 10)) == r(0, 9)
    assert rt(Mod, INT, r(-10, -1)) == r(-9, 0)
    assert rt(Mod, r(0, 5), r(10, 20)) == r(0, 5)
    assert rt(Mod, r(-5, -1), constant(10)) == r(0, 9)
    assert rt(Mod, INT, r(-3, 3)) == r(-2, 2)


def test_bitwise_and_shifts():
    from son.nodes import BitAnd, BitOr, BitXor, Invert, Shr

    r = int_range
    assert rt(BitAnd, INT, constant(7)) == r(0, 7)
    assert rt(BitOr, r(0, 5), r(0, 9)) == r(0, 15)
    assert rt(BitXor, r(0, 5), r(0, 9)) == r(0, 15)
    assert rt(BitOr, INT, constant(-8)) == r(-8, -1)
    assert rt(Invert, r(0, 9)) == r(-10, -1)
    assert rt(Invert, BOOL) == r(-2, -1)
    assert rt(Shr, INT, constant(60)) == r(-8, 7)
    assert rt(Shr, r(0, 1000), r(0, 100)) == r(0, 1000)


def test_comparisons_fold_on_disjoint_ranges():
    from son.nodes import EQ, GE, GT, LE, LT, NE

    r = int_range
    assert rt(LT, r(0, 5), r(6, 9)) == constant(True)
    assert rt(GE, r(0, 5), r(6, 9)) == constant(False)
    assert rt(LE, r(0, 6), r(6, 9)) == constant(True)
    assert rt(LT, r(0, 6), r(6, 9)) == BOOL
    assert rt(GT, r(7, 9), r(0, 6)) == constant(True)
    assert rt(EQ, r(0, 5), constant(6)) == constant(False)
    assert rt(NE, r(0, 5), constant(6)) == constant(True)
    assert rt(EQ, r(0, 5), constant(5)) == BOOL
    assert rt(LT, BOOL, constant(3)) == constant(True)  # (a < b) < 3
    assert rt(GE, BOOL, constant(0)) == constant(True)
    assert rt(LT, BOOL, constant(1)) == BOOL


def test_bool_stays_a_bool_and_is_zero_or_one_as_an_int():
    from son.nodes import Add, BitAnd, Max, ToInt

    assert rt(Add, BOOL, constant(0)) == int_range(0, 1)
    assert rt(ToInt, BOOL) == int_range(0, 1)
    assert rt(BitAnd, BOOL, BOOL) == BOOL  # & of two bools is a bool
    assert rt(Max, BOOL, BOOL) == BOOL
    assert rt(Max, BOOL, constant(0)).kind == "number"  # max(True, 0) is True, a bool


@pytest.mark.parametrize("src, want", [
    ("def f(a: float): return a % 1", "return (a % 1)"),  # 2.5 % 1 is 0.5
    ("def f(a): return a % 1", "return (a % 1)"),  # an unknown number may be a float
    ("def f(a: float): return a * 0", "return (a*0)"),  # -1.0 * 0 is -0.0
    ("def f(a: int): return a % 1", "return 0"),
    ("def f(a: bool): return a * 0", "return 0"),  # the int 0, not False
])
def test_ranges_fold_ints_only(src, want):
    g = son.parse_source(src)
    assert ir(g) == want
    if want == "return 0":
        assert g.return_type == constant(0)


def test_transfer_function_units():
    assert R.pow_((0, 3), (0, 2)) == (0, 9)
    assert R.pow_((2, 2), (0, 64)) is None
    assert R.pow_((-2, 2), (0, 2)) is None
    assert R.floordiv((5, 5), (0, 0)) is None  # only a zero divisor: the node raises
    assert R.out_of_bounds((0, 9), (10, 20)) is False
    assert R.out_of_bounds((-10, 9), (10, 10)) is False
    assert R.out_of_bounds((10, 12), (0, 10)) is True
    assert R.out_of_bounds((0, 10), (10, 10)) is None


def test_widening_and_narrowing_policy():
    r = int_range
    assert widen_range(r(0, 3), r(0, 4)) == r(0, INT64_MAX)
    assert widen_range(r(0, 3), r(-1, 3)) == r(INT64_MIN, 3)
    assert widen_range(r(0, 3), r(-1, 4)) == INT
    assert narrowing_accepted(INT, r(-10, INT64_MAX), 0)
    assert not narrowing_accepted(r(-10, INT64_MAX), r(-10, INT64_MAX - 1), 5)
    assert narrowing_accepted(INT, r(0, 7), 5)
    # to the nearest program constant beyond the moving end, if there is one
    assert widen_range(r(0, 3), r(0, 4), [-5, 0, 10, 99]) == r(0, 10)
    assert widen_range(r(0, 3), r(0, 10), [-5, 0, 10, 99]) == r(0, 10)
    assert widen_range(r(0, 3), r(-1, 3), [-5, 0, 10]) == r(-5, 3)
    assert widen_range(r(0, 3), r(0, 100), [-5, 0, 10, 99]) == r(0, INT64_MAX)
    assert widen_range(r(0, 3), r(-6, 3), [-5, 0]) == r(INT64_MIN, 3)


def saturating(n):
    k = 0
    while n > 0:
        k = min(k + 1, 10)
        n -= 1
    return k


def test_a_saturating_counter_widens_to_its_constant():
    g = son.parse(saturating, argtypes=["int"])
    assert str(son.optimize(g, "peephole")[0]).count("int[0, 10]") == 0
    for p in ("sccp", "combined"):
        h, _ = son.optimize(g, p)
        assert h.return_type == int_range(0, 10), p


# ---------------------------------------------------------------- folds, pessimistic vs optimistic
def outcomes(fn) -> dict[str, str]:
    """The text IR after the parse-time peephole, SCCP and the combined analysis."""
    out = {}
    for name, opt in (("peephole", None), ("sccp", sccp), ("combined", combined)):
        g = son.parse(fn)
        if opt is not None:
            opt(g)
        g.verify()
        out[name] = ir(g)
    return out


def returns(fn) -> dict[str, str]:
    """What the single Return returns after each pipeline, as text."""
    return {k: v.splitlines()[-1].split("return ", 1)[1].split("  [")[0] if "return" in v else v
            for k, v in ((k, next(line for line in v.splitlines() if "return" in line))
                         for k, v in outcomes(fn).items())}


def zero_or_one_is_never_negative(x: int):
    b = 1 if x else 0
    return b < 0


def compare_of_a_compare(a: int, b: int):
    return (a < b) < 3


def toggle(n: int):
    k = 0
    i = 0
    while i < n:
        k = 1 - k
        i += 1
    return k < 2


def masked_counter(n: int):
    k = 0
    i = 0
    while i < n:
        k = (k + 1) & 7
        i += 1
    return k < 8


def increment_may_wrap(i: int):
    return i + 1 > i


def counter_from_zero(n: int):
    i = 0
    while i < n:
        i += 1
    return i >= 0


def count_down(n: int):
    i = 10
    while i > n:
        i -= 3
    return i > 0


def step_with_break(n: int):
    i = 0
    while True:
        i += 5
        if i > n:
            break
    return i > 4


def near_max(n: int):
    x = 9223372036854775807
    if n > 0:
        x = x - n
    return x + 1 > 0


def slow_narrowing(n: int):
    k = 0
    i = 0
    while i < n:
        k = max(k - 1, -10)
        i += 1
    return k >= -10


def test_zero_or_one_is_never_negative():
    assert returns(zero_or_one_is_never_negative) == {"peephole": "False", "sccp": "False",
                                                      "combined": "False"}


def test_comparison_of_a_comparison_is_decided():
    assert returns(compare_of_a_compare) == {"peephole": "True", "sccp": "True", "combined": "True"}


def test_toggle_is_proven_only_optimistically():
    """k = 1 - k from 0 is 0 or 1: the peephole meets the phi with INT (1 - INT may be
    anything), the optimistic passes find [0, 1]."""
    r = returns(toggle)
    assert r["peephole"] != "True" and r["sccp"] == "True" and r["combined"] == "True"


def test_masked_counter_widens_then_narrows():
    """(k + 1) & 7 climbs [0, 1], [0, 2], ... until widening, then narrows back to [0, 7]."""
    assert returns(masked_counter) == {"peephole": "True", "sccp": "True", "combined": "True"}


@pytest.mark.parametrize("fn", [increment_may_wrap, counter_from_zero, count_down, step_with_break,
                                near_max], ids=lambda f: f.__name__)
def test_wrap_or_loop_does_not_fold(fn):
    """i + 1 may wrap, so nothing proves these comparisons (not even i = phi(0, i + 1) >= 0:
    without the loop test's refinement i + 1 may wrap)."""
    for name, text in outcomes(fn).items():
        last = text.splitlines()[-1]
        assert "return True" not in last and "return False" not in last, (name, text)


def test_slow_narrowing_terminates_and_stays_sound():
    for text in outcomes(slow_narrowing).values():
        assert "return" in text


@pytest.mark.parametrize("fn, args", [
    (toggle, [(0,), (1,), (5,)]), (masked_counter, [(0,), (9,), (30,)]),
    (increment_may_wrap, [(INT64_MAX,), (0,), (INT64_MIN,)]), (counter_from_zero, [(0,), (5,)]),
    (count_down, [(-5,), (11,), (0,)]), (step_with_break, [(0,), (-3,), (22,)]),
    (slow_narrowing, [(0,), (20,)]), (zero_or_one_is_never_negative, [(0,), (3,)]),
], ids=lambda x: getattr(x, "__name__", ""))
def test_folds_agree_with_cpython(fn, args):
    for opt in (None, sccp, combined):
        g = son.parse(fn)
        if opt is not None:
            opt(g)
        for a in args:
            if fn is increment_may_wrap and a[0] == INT64_MAX:
                assert run_son(g, a)[:2] == ("ok", ("bool", False))  # int64: max + 1 wraps to min
                continue
            assert run_son(g, a) == run_python(fn, a), (fn.__name__, a)


def masked_plus_one(n: int):
    x = n & 9223372036854775807  # [0, max]
    return x + 1 > 0  # max + 1 wraps to min: not True for every n


def abs_is_not_always_non_negative(n: int):
    return abs(n) >= 0  # abs(min) is min


def negated_mask(n: int):
    x = n & 9223372036854775807
    return -x <= 0  # -[0, max] is [-max, 0]: no wrap, folds


def test_wrap_near_the_int64_limits_is_never_folded_away():
    """Each function's pipelines agree with the unoptimized graph at the int64 edges
    (where son's int64 results differ from CPython's big ints on purpose), and only
    ``negated_mask`` folds."""
    edges = [(INT64_MAX,), (INT64_MIN,), (0,), (-1,), (1,)]
    for fn in (masked_plus_one, abs_is_not_always_non_negative, negated_mask):
        raw = son.parse(fn, peephole=False)
        for name, text in outcomes(fn).items():
            folded = text.splitlines()[-1] in ("return True", "return False")
            assert folded == (fn is negated_mask), (fn.__name__, name, text)
        for opt in (None, sccp, combined):
            g = son.parse(fn)
            if opt is not None:
                opt(g)
            for a in edges:
                assert run_son(g, a) == run_son(raw, a), (fn.__name__, a)
    assert son.interpret(son.parse(masked_plus_one), INT64_MAX) is False
    assert son.interpret(son.parse(abs_is_not_always_non_negative), INT64_MIN) is False


@pytest.mark.parametrize("src, want", [
    ("def f(a: int): return (a & 1) < 2", "return True"),
    ("def f(a: int): return a % 3 < 3", "return True"),
    ("def f(a: int): return a % -3 > 0", "return False"),
    ("def f(a: int): return (a >> 62) <= 1", "return True"),
    ("def f(a: int): return (a & 255) * (a & 255) <= 65025", "return True"),
    ("def f(a: int): return abs(a & 7) == 8", "return False"),
    ("def f(a: int, b: bool): return b + 0 < 0", "return False"),
    ("def f(a: int, b: bool): return int(b) != 2", "return True"),
    ("def f(a: int): return min(a & 7, 3) > 3", "return False"),
    ("def f(a: int): return max(a, 3) >= 3", "return True"),
    ("def f(a: int): return ~(a & 7) < 0", "return True"),
    ("def f(a: int): return (a | -8) < 0", "return True"),
    ("def f(a: int): return not ((a & 7) + 1)", "return False"),
    ("def f(a: int): return bool((a & 7) - 8)", "return True"),
    ("def f(a: int): return (a & 7) // 2 <= 3", "return True"),
    ("def f(a: int): return (a & 7) ** 2 < 50", "return True"),
    ("def f(a: int): return 1 << (a & 3) <= 8", "return True"),
])
def test_straight_line_range_folds(src, want):
    """Folds every pipeline finds (the peephole included), each checked against CPython."""
    g = son.parse_source(src)
    assert ir(g) == want, src
    fn_src = {}
    exec(src, fn_src)  # noqa: S102 - the test's own source
    for a in (0, 5, -1, INT64_MAX, INT64_MIN):
        args = (a,) if src.count(":") == 2 else (a, bool(a & 1))
        expected = fn_src["f"](*args)
        assert (expected is True) == (want == "return True"), (src, args)
