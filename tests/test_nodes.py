"""Node families: ``eval`` against CPython (ints wrapped to int64, floats bit-exact,
the same exceptions), math nodes against ``math``/numpy and CPython's raising rule,
and ``compute()`` folding constants exactly when ``eval`` succeeds."""

from __future__ import annotations

import math
import operator

import numpy as np
import pytest
from conftest import canon
from hypothesis import given, settings
from hypothesis import strategies as st

from son.nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    Abs,
    Add,
    BitAnd,
    BitOr,
    BitXor,
    Constant,
    Div,
    FloorDiv,
    Graph,
    Invert,
    IsFinite,
    IsInf,
    IsNan,
    MathError,
    Max,
    Min,
    Mod,
    Mul,
    Neg,
    Not,
    Pow,
    Proj,
    Shl,
    Shr,
    Sub,
    ToBool,
    ToFloat,
    ToInt,
    constant,
    wrap64,
)
from son.nodes.mathfn import INF_FREE, MATH_NODES, MATH_TABLE, NAN_FREE, TOTAL, math_guards
from son.nodes.node import FOLD_ERRORS
from son.nodes.types import BOOL, FLOAT, INT, INT64_MAX, INT64_MIN, NUMBER, int_range

SETTINGS = settings(max_examples=100, deadline=None)

SPECIAL_FLOATS = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 0.5, -0.5, 2.0, 5e-324, -5e-324,
                  1.7976931348623157e308, -1.7976931348623157e308, 710.0, -710.0, 1e-300,
                  9.223372036854775807e18, -9.223372036854775808e18, 9.2233720368547748e18]
SPECIAL_INTS = [0, 1, -1, 2, -2, 3, 63, 64, INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 1 << 32]

i64 = st.one_of(st.sampled_from(SPECIAL_INTS), st.integers(-100, 100), st.integers(INT64_MIN, INT64_MAX))
f64 = st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats(-10, 10), st.floats())
numbers = st.one_of(i64, f64, st.booleans())


def _graph():
    g = Graph("t", [("a", NUMBER), ("b", NUMBER), ("c", NUMBER)])
    return g, [Proj(g, g.start, 2 + i, n).keep() for i, n in enumerate("abc")]


G, (PA, PB, PC) = _graph()


def binary(cls):
    return cls(G, PA, PB)


def unary(cls):
    return cls(G, PA)


def same(x, y) -> bool:
    """Same Python type and the same value in conftest's ``canon`` sense (floats
    bit-exact, every NaN equal to every NaN)."""
    return type(x) is type(y) and canon(x) == canon(y)


def outcome(fn, *args):
    """('ok', value) or ('raise', exception class)."""
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("raise", type(e))


def assert_same_outcome(got, want):
    assert got[0] == want[0], (got, want)
    if got[0] == "ok":
        assert same(got[1], want[1]), (got, want)
    else:
        assert got[1] is want[1], (got, want)


def py_wrapped(op):
    """CPython's result with int results wrapped to int64 (son's int semantics)."""

    def f(*args):
        r = op(*args)
        return wrap64(r) if type(r) is int else r

    return f


# ---------------------------------------------------------------- + - * wrap
@SETTINGS
@given(i64, i64)
def test_add_sub_mul_wrap_on_ints(a, b):
    assert same(binary(Add).eval(a, b), wrap64(a + b))
    assert same(binary(Sub).eval(a, b), wrap64(a - b))
    assert same(binary(Mul).eval(a, b), wrap64(a * b))


def test_wrap_examples():
    assert binary(Add).eval(INT64_MAX, 1) == INT64_MIN
    assert binary(Sub).eval(INT64_MIN, 1) == INT64_MAX
    assert binary(Mul).eval(1 << 62, 4) == 0
    assert binary(Mul).eval(INT64_MIN, -1) == INT64_MIN
    assert unary(Neg).eval(INT64_MIN) == INT64_MIN


@SETTINGS
@given(numbers, numbers)
def test_add_sub_mul_match_cpython_on_all_numbers(a, b):
    for cls, op in ((Add, operator.add), (Sub, operator.sub), (Mul, operator.mul)):
        assert_same_outcome(outcome(binary(cls).eval, a, b), outcome(py_wrapped(op), a, b))


def test_bools_act_as_ints_in_arithmetic():
    assert same(binary(Add).eval(True, True), 2)
    assert same(binary(Mul).eval(True, False), 0)
    assert same(unary(Neg).eval(True), -1)
    assert same(binary(Sub).eval(True, 0.5), 0.5)


# ---------------------------------------------------------------- / // %
@SETTINGS
@given(numbers, numbers)
def test_div_floordiv_mod_match_cpython(a, b):
    for cls, op in ((Div, operator.truediv), (FloorDiv, operator.floordiv), (Mod, operator.mod)):
        assert_same_outcome(outcome(binary(cls).eval, a, b), outcome(py_wrapped(op), a, b))


@SETTINGS
@given(i64, i64.filter(lambda b: b != 0))
def test_floordiv_and_mod_floor_on_ints(a, b):
    q, r = binary(FloorDiv).eval(a, b), binary(Mod).eval(a, b)
    assert q == wrap64(a // b) and r == a % b
    assert r == 0 or (r < 0) == (b < 0)  # the remainder takes the divisor's sign


def test_floor_semantics_examples():
    assert binary(FloorDiv).eval(-7, 2) == -4 and binary(Mod).eval(-7, 2) == 1
    assert binary(FloorDiv).eval(7, -2) == -4 and binary(Mod).eval(7, -2) == -1
    assert binary(FloorDiv).eval(INT64_MIN, -1) == INT64_MIN  # wraps, as int64
    assert same(binary(Mod).eval(-0.0, 1.0), 0.0)
    assert same(binary(Mod).eval(1.0, -math.inf), -math.inf)
    assert same(binary(Div).eval(1, 2), 0.5)


@pytest.mark.parametrize("cls", [Div, FloorDiv, Mod])
@pytest.mark.parametrize("zero", [0, 0.0, -0.0, False])
@pytest.mark.parametrize("a", [0, 1, -1.5, math.nan, math.inf, True])
def test_division_by_zero_raises(cls, zero, a):
    with pytest.raises(ZeroDivisionError):
        binary(cls).eval(a, zero)


# ---------------------------------------------------------------- **
@SETTINGS
@given(i64, st.integers(-5, 130))
def test_int_pow_wraps_and_rejects_negative_exponent(a, b):
    if b < 0:
        with pytest.raises(ValueError):
            binary(Pow).eval(a, b)
    else:
        assert same(binary(Pow).eval(a, b), wrap64(a**b))


def test_int_pow_examples():
    assert same(binary(Pow).eval(2, 63), INT64_MIN)
    assert same(binary(Pow).eval(-2, 3), -8)
    assert same(binary(Pow).eval(0, 0), 1)
    assert same(binary(Pow).eval(True, 2), 1)
    with pytest.raises(ValueError):
        binary(Pow).eval(2, -1)  # CPython gives 0.5; a typed int graph cannot


@SETTINGS
@given(st.one_of(f64, i64), f64)
def test_float_pow_matches_cpython(a, b):
    want = outcome(operator.pow, a, b)
    got = outcome(binary(Pow).eval, a, b)
    if want[0] == "ok" and type(want[1]) is complex:
        assert got == ("raise", ValueError)  # math.pow's answer, not a complex number
    else:
        assert_same_outcome(got, want)


def test_float_pow_edges():
    with pytest.raises(ZeroDivisionError):
        binary(Pow).eval(0.0, -1.0)
    with pytest.raises(OverflowError):
        binary(Pow).eval(10.0, 400.0)
    with pytest.raises(ValueError):
        binary(Pow).eval(-8.0, 1 / 3)
    assert same(binary(Pow).eval(-1.0, math.inf), 1.0)
    assert same(binary(Pow).eval(math.nan, 0.0), 1.0)
    assert same(binary(Pow).eval(2, 0.5), math.sqrt(2))


# ---------------------------------------------------------------- shifts and bitwise
@SETTINGS
@given(i64, st.integers(-3, 200))
def test_shifts(a, b):
    if b < 0:
        for cls in (Shl, Shr):
            with pytest.raises(ValueError):
                binary(cls).eval(a, b)
        return
    assert same(binary(Shl).eval(a, b), wrap64(a << b))
    assert same(binary(Shr).eval(a, b), a >> b)


def test_shift_examples():
    assert binary(Shl).eval(1, 63) == INT64_MIN
    assert binary(Shl).eval(1, 64) == 0 and binary(Shl).eval(-1, 1000) == 0
    assert binary(Shr).eval(-1, 64) == -1 and binary(Shr).eval(INT64_MIN, 100) == -1
    assert binary(Shr).eval(INT64_MAX, 64) == 0
    assert same(binary(Shl).eval(True, 0), 1) and same(binary(Shr).eval(True, 0), 1)


@SETTINGS
@given(i64, i64)
def test_bitwise_on_ints(a, b):
    assert same(binary(BitAnd).eval(a, b), a & b)
    assert same(binary(BitOr).eval(a, b), a | b)
    assert same(binary(BitXor).eval(a, b), a ^ b)
    assert same(unary(Invert).eval(a), ~a)


@pytest.mark.parametrize("a", [False, True])
@pytest.mark.parametrize("b", [False, True])
def test_bitwise_on_bools_gives_bools(a, b):
    assert same(binary(BitAnd).eval(a, b), a & b) and type(a & b) is bool
    assert same(binary(BitOr).eval(a, b), a | b)
    assert same(binary(BitXor).eval(a, b), a ^ b)
    for cls in (BitAnd, BitOr, BitXor):
        assert binary(cls).result_type(BOOL, BOOL) == BOOL
        assert binary(cls).result_type(BOOL, INT).kind == "int"  # True & 3 is the int 1
    assert binary(BitAnd).result_type(BOOL, INT) == int_range(0, 1)
    assert same(binary(BitAnd).eval(True, 3), 1)


# ---------------------------------------------------------------- comparisons, not
COMPARES = [(EQ, operator.eq), (NE, operator.ne), (LT, operator.lt), (LE, operator.le),
            (GT, operator.gt), (GE, operator.ge)]


@SETTINGS
@given(numbers, numbers)
def test_comparisons_match_cpython(a, b):
    for cls, op in COMPARES:
        assert same(binary(cls).eval(a, b), op(a, b))


@pytest.mark.parametrize("other", [math.nan, 0.0, 1, math.inf, True])
def test_comparisons_with_nan_are_ieee(other):
    for a, b in ((math.nan, other), (other, math.nan)):
        assert binary(EQ).eval(a, b) is False
        assert binary(NE).eval(a, b) is True
        for cls in (LT, LE, GT, GE):
            assert binary(cls).eval(a, b) is False


def test_signed_zeros_compare_equal():
    assert binary(EQ).eval(0.0, -0.0) is True and binary(LT).eval(-0.0, 0.0) is False


@SETTINGS
@given(numbers)
def test_not_and_tobool(a):
    assert same(unary(Not).eval(a), not a)
    assert same(unary(ToBool).eval(a), bool(a))


# ---------------------------------------------------------------- casts
@SETTINGS
@given(st.one_of(i64, st.booleans(), f64))
def test_tofloat(a):
    assert same(unary(ToFloat).eval(a), float(a))


@SETTINGS
@given(f64)
def test_toint_truncates_or_raises_like_cpython(x):
    got = outcome(unary(ToInt).eval, x)
    if math.isnan(x):
        assert got == ("raise", ValueError)
    elif math.isinf(x) or not (INT64_MIN <= int(x) <= INT64_MAX):
        assert got == ("raise", OverflowError)
    else:
        assert got == ("ok", int(x)) and type(got[1]) is int


def test_toint_examples():
    t = unary(ToInt)
    assert t.eval(-2.7) == -2 and t.eval(2.7) == 2 and t.eval(-0.0) == 0
    assert t.eval(-9.223372036854775808e18) == INT64_MIN
    assert t.eval(9.2233720368547748e18) == 9223372036854774784
    with pytest.raises(OverflowError):
        t.eval(9.223372036854775808e18)  # 2**63: no int64
    with pytest.raises(OverflowError):
        t.eval(-math.inf)
    with pytest.raises(ValueError):
        t.eval(math.nan)
    assert same(t.eval(True), 1) and same(t.eval(INT64_MIN), INT64_MIN)


# ---------------------------------------------------------------- min, max, abs
@SETTINGS
@given(numbers, numbers)
def test_min_max_follow_python_argument_order(a, b):
    assert same(binary(Min).eval(a, b), min(a, b))
    assert same(binary(Max).eval(a, b), max(a, b))


def test_min_max_examples():
    assert same(binary(Min).eval(0.0, -0.0), 0.0) and same(binary(Min).eval(-0.0, 0.0), -0.0)
    assert same(binary(Max).eval(-0.0, 0.0), -0.0) and same(binary(Max).eval(0.0, -0.0), 0.0)
    assert math.isnan(binary(Min).eval(math.nan, 1.0)) and same(binary(Min).eval(1.0, math.nan), 1.0)
    assert math.isnan(binary(Max).eval(math.nan, 1.0)) and same(binary(Max).eval(1.0, math.nan), 1.0)
    assert same(binary(Min).eval(1, 1.0), 1) and same(binary(Max).eval(1.0, True), 1.0)


@SETTINGS
@given(numbers)
def test_abs_and_neg(a):
    assert same(unary(Abs).eval(a), py_wrapped(abs)(a))
    assert same(unary(Neg).eval(a), py_wrapped(operator.neg)(a))


def test_abs_examples():
    assert unary(Abs).eval(INT64_MIN) == INT64_MIN
    assert same(unary(Abs).eval(True), 1)
    assert same(unary(Abs).eval(-0.0), 0.0)
    assert unary(Abs).result_type(BOOL) == int_range(0, 1)  # an int: abs(True) is 1


# ---------------------------------------------------------------- math nodes
WITH_MATH = sorted(n for n, spec in MATH_TABLE.items() if spec[0] is not None)
WITH_NP = sorted(n for n, spec in MATH_TABLE.items() if spec[1] is not None)


def _args(name, data):
    return [data.draw(f64, label=f"x{i}") for i in range(MATH_TABLE[name][2])]


def _math_node(name, np_flavour=False):
    return MATH_NODES[name](G, *[PA, PB][: MATH_TABLE[name][2]], np=np_flavour)


def _np_value(name, xs):
    with np.errstate(all="ignore"):
        return float(getattr(np, MATH_TABLE[name][1])(*xs))


def test_every_math_entry_has_a_node_and_a_function():
    for name, (math_name, np_name, arity, _) in MATH_TABLE.items():
        cls = MATH_NODES[name]
        assert cls.arity == arity
        if math_name is not None:
            assert callable(getattr(math, math_name))
        if np_name is not None:
            assert callable(getattr(np, np_name))


MATH_SETTINGS = settings(max_examples=40, deadline=None)


def _special_points(name):
    arity = MATH_TABLE[name][2]
    if arity == 1:
        return [(x,) for x in SPECIAL_FLOATS]
    return [(x, y) for x in SPECIAL_FLOATS for y in SPECIAL_FLOATS]


def check_math_eval(name, xs):
    """MathCall.eval is math.f where that succeeds, numpy's IEEE value where it raises."""
    got = _math_node(name).eval(*xs)
    assert type(got) is float
    try:
        want = getattr(math, MATH_TABLE[name][0])(*xs)
    except (ValueError, OverflowError):
        want = _np_value(name, xs)
    assert same(got, want), (name, xs, got, want)


def check_math_guard(name, xs):
    """The guards the frontend puts after a ``math`` call (``math_guards``) fire exactly
    when CPython raises, the first one that fires with CPython's exception type; a
    function without guards (TOTAL) never raises."""
    arity = MATH_TABLE[name][2]
    r = _math_node(name).eval(*xs)
    try:
        getattr(math, MATH_TABLE[name][0])(*xs)
        raised = None
    except (ValueError, OverflowError) as e:
        raised = type(e)
    fired = [exc for which, exc in math_guards(MATH_NODES[name])
             if MathError(G, PC, *[PA, PB][:arity], which=which).eval(r, *xs)]
    assert (fired[0] if fired else None) is raised, (name, xs, r, raised, fired)


def test_math_guards_follow_the_table():
    assert math_guards(MATH_NODES["Exp"]) == [("range", OverflowError)]
    assert math_guards(MATH_NODES["Sqrt"]) == [("domain", ValueError)]
    assert math_guards(MATH_NODES["Log"]) == [("any", ValueError)]
    assert math_guards(MATH_NODES["Atan2"]) == []
    assert not (NAN_FREE | INF_FREE) & TOTAL


@pytest.mark.parametrize("name", WITH_MATH)
def test_math_node_eval_on_special_values(name):
    for xs in _special_points(name):
        check_math_eval(name, xs)


@pytest.mark.parametrize("name", WITH_MATH)
def test_math_guard_on_special_values(name):
    for xs in _special_points(name):
        check_math_guard(name, xs)


@pytest.mark.parametrize("name", WITH_MATH)
@MATH_SETTINGS
@given(data=st.data())
def test_math_node_eval_and_guard_match_cpython(name, data):
    xs = _args(name, data)
    check_math_eval(name, xs)
    check_math_guard(name, xs)


@pytest.mark.parametrize("name", WITH_NP)
@MATH_SETTINGS
@given(data=st.data())
def test_np_flavour_is_numpy(name, data):
    xs = _args(name, data)
    assert same(_math_node(name, np_flavour=True).eval(*xs), _np_value(name, xs))


def test_hypot_overflow_returns_inf_as_in_cpython():
    """CPython's math.hypot never raises: an overflowing result is inf."""
    import son

    assert math.hypot(1.7e308, 1.7e308) == math.inf
    g = son.parse_source("def f(a: float, b: float): return math.hypot(a, b)")
    assert son.interpret(g, 1.7e308, 1.7e308) == math.inf


@pytest.mark.parametrize("name, xs, exc", [
    ("Log", (0.0,), ValueError), ("Log", (-1.0,), ValueError), ("Sqrt", (-1.0,), ValueError),
    ("Exp", (1000.0,), OverflowError), ("Acos", (2.0,), ValueError), ("Atanh", (1.0,), ValueError),
    ("Sin", (math.inf,), ValueError), ("Fmod", (1.0, 0.0), ValueError), ("Exp2", (1024.0,), OverflowError),
    ("Sinh", (-1000.0,), OverflowError), ("Log1p", (-1.0,), ValueError),
    ("Fmod", (82, 0), ValueError), ("Log", (0,), ValueError), ("Sqrt", (-4,), ValueError),
])
def test_math_error_examples(name, xs, exc):
    """Int arguments too: math converts them to floats, so the IEEE value the guard reads
    is fmod(82.0, 0.0), a NaN (numpy's int fmod(82, 0) is 0: no error was raised)."""
    with pytest.raises(exc):
        getattr(math, MATH_TABLE[name][0])(*xs)
    r = _math_node(name).eval(*xs)
    which = "any"
    if MATH_TABLE[name][3]:
        which = "range" if exc is OverflowError else "domain"
    assert MathError(G, PC, *[PA, PB][: len(xs)], which=which).eval(r, *xs) is True


@SETTINGS
@given(f64)
def test_float_predicates(x):
    assert unary(IsNan).eval(x) is math.isnan(x)
    assert unary(IsInf).eval(x) is math.isinf(x)
    assert unary(IsFinite).eval(x) is math.isfinite(x)


# ---------------------------------------------------------------- compute folds through eval
BINARY = [Add, Sub, Mul, Div, FloorDiv, Mod, Pow, Shl, Shr, BitAnd, BitOr, BitXor, EQ, NE, LT, LE, GT, GE,
          Min, Max]
UNARY = [Neg, Not, Invert, ToFloat, ToInt, ToBool, Abs, IsNan, IsInf, IsFinite]
folding_values = st.one_of(st.sampled_from(SPECIAL_INTS + SPECIAL_FLOATS + [True, False]),
                           st.integers(-5, 5), i64, f64)


def _check_fold(n, cls, values, types):
    try:
        want = n.eval(*values)
    except FOLD_ERRORS:
        assert not n.type.is_constant, (cls, values, n.type)
        assert n.type == n.result_type(*types)
        return
    assert n.type == constant(want), (cls, values, n.type, want)


@SETTINGS
@given(folding_values, folding_values)
def test_compute_folds_binary_constants_to_eval(a, b):
    g, _ = _graph()
    ca, cb = Constant(g, constant(a)), Constant(g, constant(b))
    for cls in BINARY:
        _check_fold(cls(g, ca, cb), cls, (ca.value, cb.value), (ca.type, cb.type))


@SETTINGS
@given(folding_values)
def test_compute_folds_unary_constants_to_eval(a):
    g, _ = _graph()
    ca = Constant(g, constant(a))
    for cls in UNARY:
        _check_fold(cls(g, ca), cls, (ca.value,), (ca.type,))


@pytest.mark.parametrize("name", sorted(MATH_TABLE))
def test_compute_folds_math_constants(name):
    g, _ = _graph()
    arity = MATH_TABLE[name][2]
    cs = [Constant(g, constant(v)) for v in (0.25, 2.0)[:arity]]
    np_flavour = MATH_TABLE[name][0] is None
    n = MATH_NODES[name](g, *cs, np=np_flavour)
    assert n.type == constant(n.eval(*[c.value for c in cs]))


@pytest.mark.parametrize("cls", [Div, FloorDiv, Mod])
@pytest.mark.parametrize("a, zero", [(1, 0), (1.0, 0.0), (0, -0.0), (True, False)])
def test_division_by_zero_is_not_folded(cls, a, zero):
    g, _ = _graph()
    n = cls(g, Constant(g, constant(a)), Constant(g, constant(zero)))
    assert not n.type.is_constant
    assert n.type == (FLOAT if cls is Div or isinstance(a, float) or isinstance(zero, float) else INT)


def test_faulting_casts_and_powers_are_not_folded():
    g, _ = _graph()
    for cls, vals in ((ToInt, (math.nan,)), (ToInt, (math.inf,)), (ToInt, (1e19,)), (Pow, (2, -1)),
                      (Pow, (10.0, 400.0)), (Pow, (-8.0, 0.5)), (Shl, (1, -1)), (Shr, (1, -1))):
        n = cls(g, *[Constant(g, constant(v)) for v in vals])
        assert not n.type.is_constant, (cls, vals)


def test_math_error_folds_on_constants():
    g, _ = _graph()
    x = Constant(g, constant(-1.0))
    r = MATH_NODES["Sqrt"](g, x)
    assert math.isnan(r.type.con)  # the IEEE value; the guard decides what CPython raises
    assert MathError(g, r, x, which="any").type == constant(True)
    y = Constant(g, constant(4.0))
    r2 = MATH_NODES["Sqrt"](g, y)
    assert r2.type == constant(2.0)
    assert MathError(g, r2, y, which="any").type == constant(False)


def test_compute_of_unknown_inputs_is_the_kind():
    g = Graph("t", [("i", INT), ("f", FLOAT), ("b", BOOL), ("n", NUMBER)])
    i, f, b, n = (Proj(g, g.start, 2 + k, s).keep() for k, s in enumerate("ifbn"))
    assert Add(g, i, i).type == INT and Add(g, i, f).type == FLOAT and Add(g, i, n).type == NUMBER
    assert Add(g, b, b).type == int_range(0, 2) and Div(g, i, i).type == FLOAT
    assert BitAnd(g, b, b).type == BOOL and EQ(g, f, f).type == BOOL
    assert Min(g, i, i).type == INT and Min(g, i, f).type == NUMBER
    assert ToInt(g, f).type == INT and ToFloat(g, i).type == FLOAT and Neg(g, b).type == int_range(-1, 0)
