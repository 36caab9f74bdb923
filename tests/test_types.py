"""The type lattice: meet is a semilattice operation, constants tell apart every
value Python tells apart, ints wrap to int64, int ranges meet as hulls, ``widen``
and ``isa`` agree with meet."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from son.nodes.types import (
    BOOL,
    BOTTOM,
    CTRL,
    FLOAT,
    IF_BOTH,
    IF_FALSE,
    IF_NEITHER,
    IF_TRUE,
    INT,
    INT64_MAX,
    INT64_MIN,
    MEM,
    NONE,
    NUMBER,
    TOP,
    XCTRL,
    ArrayType,
    ScalarType,
    TupleType,
    bounds,
    constant,
    int_range,
    widen_range,
    wrap64,
)

SETTINGS = settings(max_examples=100, deadline=None)

NAMED = [TOP, BOTTOM, CTRL, XCTRL, MEM, NONE, INT, FLOAT, BOOL, NUMBER,
         ArrayType("float64"), ArrayType("int64"), ArrayType("bool")]

SPECIAL_FLOATS = [0.0, -0.0, math.nan, -math.nan, math.inf, -math.inf, 1.0, -1.0, 5e-324,
                  1.7976931348623157e308]
SPECIAL_INTS = [0, 1, -1, 2, INT64_MIN, INT64_MAX, 1 << 63, -(1 << 63) - 1, 1 << 64]

ints = st.one_of(st.sampled_from(SPECIAL_INTS), st.integers(-3, 3), st.integers(-(1 << 70), 1 << 70))
floats = st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats(-3, 3), st.floats())
constants = st.one_of(ints, floats, st.booleans()).map(constant)
int64s = st.one_of(st.sampled_from([INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX]),
                   st.integers(-5, 5), st.integers(INT64_MIN, INT64_MAX))
int_ranges = st.tuples(int64s, int64s).map(lambda t: int_range(min(t), max(t)))
scalars_or_named = st.one_of(st.sampled_from(NAMED), constants, int_ranges)
# tuples of small elements, nested once; the control tuples of If among them
tuples = st.one_of(
    st.sampled_from([IF_BOTH, IF_TRUE, IF_FALSE, IF_NEITHER]),
    st.lists(scalars_or_named, min_size=0, max_size=3).map(TupleType),
    st.lists(st.sampled_from([CTRL, XCTRL, TOP]), min_size=2, max_size=2).map(TupleType),
    st.lists(st.one_of(scalars_or_named, st.sampled_from([IF_BOTH, IF_TRUE])), max_size=2).map(TupleType),
)
elements = st.one_of(scalars_or_named, tuples)


# ---------------------------------------------------------------- semilattice laws
@SETTINGS
@given(elements, elements)
def test_meet_is_commutative(a, b):
    assert a.meet(b) == b.meet(a)


@SETTINGS
@given(elements, elements, elements)
def test_meet_is_associative(a, b, c):
    assert a.meet(b.meet(c)) == a.meet(b).meet(c)


@SETTINGS
@given(elements)
def test_meet_is_idempotent(a):
    assert a.meet(a) == a


@SETTINGS
@given(elements)
def test_top_is_identity_and_bottom_absorbs(a):
    assert TOP.meet(a) == a and a.meet(TOP) == a
    assert BOTTOM.meet(a) == BOTTOM and a.meet(BOTTOM) == BOTTOM


@SETTINGS
@given(elements, elements)
def test_meet_is_lower_bound(a, b):
    m = a.meet(b)
    assert a.isa(m) and b.isa(m)


@SETTINGS
@given(elements, elements, elements)
def test_meet_is_greatest_lower_bound(a, b, c):
    if a.isa(c) and b.isa(c):
        assert a.meet(b).isa(c)


@SETTINGS
@given(elements, elements)
def test_isa_is_antisymmetric(a, b):
    if a.isa(b) and b.isa(a):
        assert a == b


@SETTINGS
@given(elements, elements, elements)
def test_isa_is_transitive(a, b, c):
    if a.isa(b) and b.isa(c):
        assert a.isa(c)


@SETTINGS
@given(elements, elements)
def test_equal_elements_hash_equal(a, b):
    if a == b:
        assert hash(a) == hash(b)


# ---------------------------------------------------------------- the shape of the lattice
def test_scalar_chain():
    three = constant(3)
    assert three.isa(INT) and INT.isa(NUMBER) and NUMBER.isa(BOTTOM)
    assert TOP.isa(three)
    assert not INT.isa(three)
    assert not INT.isa(FLOAT) and not FLOAT.isa(INT)
    assert constant(3).meet(constant(4)) == int_range(3, 4)
    assert constant(3).meet(constant(INT64_MIN)) == int_range(INT64_MIN, 3)
    assert constant(INT64_MAX).meet(constant(INT64_MIN)) == INT
    assert constant(3).meet(constant(3.0)) == NUMBER
    assert constant(True).meet(constant(False)) == BOOL
    assert INT.meet(FLOAT) == NUMBER and INT.meet(BOOL) == NUMBER
    assert constant(1.5).meet(FLOAT) == FLOAT


def test_non_scalars_meet_scalars_at_bottom():
    assert INT.meet(MEM) == BOTTOM
    assert NONE.meet(INT) == BOTTOM
    assert CTRL.meet(INT) == BOTTOM
    assert ArrayType("float64").meet(ArrayType("int64")) == BOTTOM
    assert ArrayType("float64").meet(ArrayType("float64")) == ArrayType("float64")
    assert ArrayType("int64").meet(INT) == BOTTOM


def test_control_lattice():
    assert XCTRL.meet(CTRL) == CTRL and CTRL.meet(XCTRL) == CTRL
    assert XCTRL.isa(CTRL) and not CTRL.isa(XCTRL)
    assert IF_TRUE.meet(IF_FALSE) == IF_BOTH
    assert IF_NEITHER.meet(IF_TRUE) == IF_TRUE
    assert IF_BOTH.meet(IF_NEITHER) == IF_BOTH
    assert TupleType([CTRL]).meet(TupleType([CTRL, CTRL])) == BOTTOM
    assert TupleType([constant(1), INT]).meet(TupleType([constant(2), constant(5)])) == \
        TupleType([int_range(1, 2), INT])


def test_kind_queries():
    assert INT.is_int and constant(3).is_int and not constant(True).is_int
    assert FLOAT.is_float and constant(-0.0).is_float
    assert BOOL.is_bool and constant(False).is_bool
    assert NUMBER.kind == "number" and NUMBER.is_scalar
    assert not MEM.is_scalar and not TOP.is_scalar and not ArrayType("bool").is_scalar
    assert not INT.is_constant and constant(0).is_constant
    assert ArrayType("int64").elem == INT and ArrayType("bool").elem == BOOL


# ---------------------------------------------------------------- constants
def test_signed_zeros_are_different_constants():
    assert constant(-0.0) != constant(0.0)
    assert constant(-0.0).meet(constant(0.0)) == FLOAT
    assert not constant(0.0).is_con(-0.0)
    assert constant(-0.0).is_con(-0.0)
    assert math.copysign(1.0, constant(-0.0).con) == -1.0


def test_nan_constant_equals_itself():
    a, b = constant(math.nan), constant(float("nan"))
    assert a == b and hash(a) == hash(b)
    assert a.meet(b) == a
    assert a.is_con(math.nan)
    assert constant(math.nan) != constant(math.inf)


def test_int_bool_float_constants_differ():
    one, true, onef = constant(1), constant(True), constant(1.0)
    assert one != true and true != onef and one != onef
    assert type(one.con) is int and type(true.con) is bool and type(onef.con) is float
    assert not one.is_con(True) and not one.is_con(1.0) and one.is_con(1)
    assert not constant(0).is_con(False)
    assert one.meet(true) == NUMBER and one.meet(onef) == NUMBER and true.meet(onef) == NUMBER


def test_int_constants_wrap_to_int64():
    assert constant(1 << 63) == constant(INT64_MIN)
    assert constant(1 << 63).con == INT64_MIN
    assert constant(-(1 << 63) - 1).con == INT64_MAX
    assert constant((1 << 64) + 5).con == 5
    assert constant(INT64_MAX).con == INT64_MAX


def test_constant_of_unsupported_value_is_an_error():
    import pytest

    with pytest.raises(TypeError):
        constant("3")
    assert constant(None) is NONE


@SETTINGS
@given(st.integers(-(1 << 200), 1 << 200))
def test_wrap64_is_twos_complement(v):
    w = wrap64(v)
    assert INT64_MIN <= w <= INT64_MAX
    assert (w - v) % (1 << 64) == 0
    assert constant(v).con == w


@SETTINGS
@given(floats)
def test_float_constants_keep_their_bits(x):
    c = constant(x)
    assert c.is_float and c.is_constant
    if math.isnan(x):
        assert math.isnan(c.con)
    else:
        assert c.con.hex() == x.hex()


@SETTINGS
@given(floats, floats)
def test_float_constants_equal_iff_same_bits(x, y):
    # a NaN's sign is observable (math.copysign), so nan and -nan are two constants
    # (float.hex writes both as 'nan')
    if math.isnan(x) or math.isnan(y):
        same = math.isnan(x) and math.isnan(y) and math.copysign(1.0, x) == math.copysign(1.0, y)
    else:
        same = x.hex() == y.hex()
    assert (constant(x) == constant(y)) == same


# ---------------------------------------------------------------- widen and isa
@SETTINGS
@given(elements)
def test_widen_goes_down_and_is_idempotent(a):
    w = a.widen()
    assert a.isa(w)
    assert w.widen() == w
    if isinstance(a, ScalarType):
        assert not w.is_constant and w.kind == a.kind
    else:
        assert w == a


def test_widen_examples():
    assert constant(3).widen() == INT
    assert constant(True).widen() == BOOL
    assert constant(-0.0).widen() == FLOAT
    assert NUMBER.widen() == NUMBER
    assert TOP.widen() == TOP and BOTTOM.widen() == BOTTOM and CTRL.widen() == CTRL


@SETTINGS
@given(elements)
def test_isa_top_and_bottom(a):
    assert a.isa(BOTTOM)
    assert TOP.isa(a)
    assert a.isa(a)
    if a != TOP:
        assert not a.isa(TOP)


# ---------------------------------------------------------------- int ranges
def test_int_ranges_print_and_behave_as_ints():
    r = int_range(0, 9)
    assert str(r) == "int[0, 9]" and str(INT) == "int" and str(int_range(0, INT64_MAX)) == "int[0, max]"
    assert str(int_range(INT64_MIN, -1)) == "int[min, -1]"
    assert r.is_int and not r.is_constant and r.con is None and r.widen() == INT
    assert int_range(5, 5) == constant(5) and int_range(5, 5).is_con(5) and str(int_range(5, 5)) == "5"
    assert int_range(INT64_MIN, INT64_MAX) is INT or int_range(INT64_MIN, INT64_MAX) == INT
    assert int_range(0, 1 << 63) == INT  # a range that leaves int64 is unknown
    assert r.meet(BOOL) == NUMBER and r.meet(FLOAT) == NUMBER and r.meet(constant(True)) == NUMBER
    assert r != constant(True) and int_range(0, 1) != BOOL


def test_bounds_read_bools_as_zero_or_one():
    assert bounds(BOOL) == (0, 1) and bounds(constant(True)) == (1, 1) and bounds(constant(False)) == (0, 0)
    assert bounds(int_range(-3, 4)) == (-3, 4) and bounds(INT) == (INT64_MIN, INT64_MAX)
    assert bounds(FLOAT) is None and bounds(NUMBER) is None and bounds(TOP) is None


@SETTINGS
@given(int_ranges, int_ranges)
def test_range_meet_is_the_hull(a, b):
    m = a.meet(b)
    assert m.is_int and m.lo == min(a.lo, b.lo) and m.hi == max(a.hi, b.hi)
    assert a.isa(m) and b.isa(m) and m.isa(INT)


@SETTINGS
@given(int_ranges, int_ranges)
def test_widen_range_goes_down_to_the_limits(a, b):
    new = a.meet(b)
    w = widen_range(a, new)
    assert new.isa(w) and a.isa(w)
    assert w.lo in (new.lo, INT64_MIN) and w.hi in (new.hi, INT64_MAX)
    assert widen_range(w, w) == w
