"""numpy's ufuncs that son writes as code (son/frontend/composites.py and elements.py):
a float array's ``//`` and ``%`` (IEEE results for a zero divisor), ``np.logaddexp``,
``np.logaddexp2``, ``np.deg2rad``/``radians``, ``np.rad2deg``/``degrees``,
``np.reciprocal``, ``np.fmax``/``fmin``, ``np.sinc``, the comparison and logical
ufuncs (``np.greater``, ``np.logical_and``, ...), ``np.signbit``, ``np.isposinf``,
``np.nan_to_num``, ``np.heaviside``, ``np.nextafter``, ``np.fix``, ``np.spacing``,
``np.float_power``, ``np.ldexp``, ``np.conjugate``, and the integer ufuncs ``np.gcd``,
``np.lcm``, ``np.invert`` and the shifts.  numpy is the oracle in every
stage (the raw parse, each pipeline and the kernel), on arrays and on numbers; the
gradients go through the inlined element code."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from conftest import check_every_stage, finite_differences, run_python
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError
from son.nodes import Raise

F, INT, B = "float64[]", "int64[]", "bool[]"
FLOATS = st.floats(-1e6, 1e6) | st.sampled_from(
    [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, np.inf, -np.inf, np.nan, 1e-310, 1e308, -1e308, 710.0, -745.0])
INTS = st.integers(-2**63, 2**63 - 1) | st.integers(-5, 5)


def arrays(elements, dtype=np.float64):
    return st.integers(0, 5).flatmap(lambda n: hnp.arrays(dtype, n, elements=elements))


def same_length(*elements):
    return st.integers(0, 5).flatmap(lambda n: st.tuples(*(
        hnp.arrays(np.int64 if e is INTS else np.float64, n, elements=e) for e in elements)))


def divisions(x, y, i):
    """Python's results where the divisor is not zero, IEEE's (inf, NaN) where it is."""
    return (x // y, x % y, np.floor_divide(y, x), np.mod(x, 2.5), x % -0.0, i // y, np.remainder(i, x),
            x // 0.0)


def composites(x, y, i):
    return (np.logaddexp(x, y), np.logaddexp2(y, x), np.deg2rad(x), np.radians(i), np.rad2deg(y),
            np.degrees(x), np.reciprocal(y), np.logaddexp(x, 1.0))


def numbers(a: float, b: float, k: int):
    """Of numbers the same functions give numbers (Python floats, docs/decisions.md)."""
    return (np.logaddexp(a, b), np.logaddexp2(a, k), np.deg2rad(k), np.rad2deg(a), np.reciprocal(b),
            np.fmax(a, 1.5), np.fmin(k, 2.5))


def comparisons_and_logic(x, y, i, m):
    return (np.greater(x, y), np.less_equal(i, x), np.equal(i, i), np.not_equal(m, x),
            np.greater_equal(x, 0.5),
            np.less(i, 3), np.logical_and(x, m), np.logical_or(i, y), np.logical_xor(m, x), np.logical_not(x),
            np.logical_not(i), np.logical_not(m))


def predicates_and_fixes(x, y, i, m):
    return (np.signbit(x), np.signbit(i), np.isposinf(x), np.isneginf(m), np.nan_to_num(x), np.nan_to_num(i),
            np.nan_to_num(m), np.positive(x), np.positive(i), np.heaviside(x, 0.5), np.heaviside(i, y),
            np.nextafter(x, y), np.nextafter(i, 0.0))


def of_numbers(a: float, b: float, k: int, t: bool):
    return (np.greater(a, k), np.logical_and(t, a), np.logical_not(k), np.signbit(a), np.nan_to_num(b),
            np.heaviside(a, b), np.nextafter(a, b), np.isposinf(b), np.equal(k, a))


def four_arrays():
    return st.integers(0, 5).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=FLOATS), hnp.arrays(np.float64, n, elements=FLOATS),
        hnp.arrays(np.int64, n, elements=INTS), hnp.arrays(np.bool_, n)))


def test_comparison_and_logical_ufuncs_are_numpys_in_every_stage():
    """ints compare with floats as float64 (numpy's loops), as the operators do."""
    check_every_stage(comparisons_and_logic, [F, F, INT, B], four_arrays(), max_examples=40)


def test_predicates_and_nan_to_num_are_numpys_in_every_stage():
    with np.errstate(all="ignore"):
        check_every_stage(predicates_and_fixes, [F, F, INT, B], four_arrays(), max_examples=40)
        check_every_stage(of_numbers, [float, float, int, bool],
                          st.tuples(FLOATS, FLOATS, st.integers(-3, 3), st.booleans()), max_examples=30)


def nan_reductions(x, i, m, a):
    """NaNs skipped: the sum of the others (numpy's pairwise sum of the array with zeros
    in their place), their mean (NaN where there are none), their max and min."""
    return (np.nansum(x), np.nanmean(x), np.nansum(i), np.nanmean(i), np.nansum(m), np.nansum(a),
            np.nanmean(a), np.nanmax(x) if len(x) else 0.0, np.nanmin(i) if len(i) else 0,
            np.nansum(a > 0), np.nanmean(a < 0))


@pytest.mark.slow  # minutes of numba compiles: the slow suite (python -m pytest -m slow)
def test_nan_reductions_are_numpys_in_every_stage():
    no_negative_zero = FLOATS.map(lambda v: v + 0.0)  # (np.nanmax of both zeros: NotImplementedError)
    strategy = st.integers(0, 6).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=no_negative_zero),
        hnp.arrays(np.int64, n, elements=st.integers(-9, 9)), hnp.arrays(np.bool_, n),
        hnp.arrays(np.float64, (2, n), elements=no_negative_zero)))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # numpy's "Mean of empty slice"
        check_every_stage(nan_reductions, [F, INT, B, "float64[:, :]"], strategy, max_examples=40)


def nan_losing_extremes(x, y, i):
    return np.fmax(x, y), np.fmin(y, x), np.fmax(i, 3), np.fmin(x, 0.5), np.fmax(i > 0, x > 0)


def test_float_floor_division_and_remainder_of_arrays_are_numpys_in_every_stage():
    check_every_stage(divisions, [F, F, INT], same_length(FLOATS, FLOATS, INTS), max_examples=40)


def test_composite_ufuncs_are_numpys_bit_for_bit_in_every_stage():
    with np.errstate(all="ignore"):
        check_every_stage(composites, [F, F, INT], same_length(FLOATS, FLOATS, INTS), max_examples=40)


def test_composite_ufuncs_of_numbers_give_numpys_values():
    with np.errstate(all="ignore"):
        check_every_stage(numbers, [float, float, int], st.tuples(FLOATS, FLOATS, st.integers(-9, 9)),
                          max_examples=40)


def test_fmax_and_fmin_let_a_number_win_over_nan_in_every_stage():
    """Zeros of both signs left out: as for np.maximum, numpy's SIMD kernels decide which
    of them it returns, and son raises NotImplementedError there instead of guessing."""
    no_negative_zero = FLOATS.map(lambda v: v + 0.0)
    check_every_stage(nan_losing_extremes, [F, F, INT], same_length(no_negative_zero, no_negative_zero, INTS),
                      max_examples=30)
    with pytest.raises(NotImplementedError, match="SIMD"):
        son.jit(nan_losing_extremes, fallback="error")(np.array([0.0]), np.array([-0.0]), np.array([1]))


def integer_ufuncs(i, j, m):
    """numpy's int64 loops: gcd and lcm of the magnitudes as unsigned ints (wrapping),
    shifts by counts outside [0, 64) giving 0 or the sign, bools joining ints."""
    return (np.gcd(i, j), np.lcm(i, j), np.gcd(i, 12), np.lcm(m, i), np.left_shift(i, j),
            np.right_shift(i, j), np.bitwise_left_shift(m, j), np.bitwise_right_shift(j, m), np.invert(i),
            np.bitwise_not(m), np.invert(m))


def shift_operators(i, j, m):
    """``<<`` and ``>>`` of arrays are numpy's left_shift and right_shift: a bool array
    with a Python int is int64, ``<<=`` changes the int array in place."""
    k = i.copy()
    k <<= j
    k[::2] >>= 3
    return i << j, i >> j, m << 2, 1 << m, (i >> 1) << m, k


def test_integer_ufuncs_are_numpys_in_every_stage():
    counts = st.integers(-3, 70) | INTS
    strategy = st.integers(0, 6).flatmap(lambda n: st.tuples(
        hnp.arrays(np.int64, n, elements=INTS | st.sampled_from([-2**63, 0, 2**62, 6, -4])),
        hnp.arrays(np.int64, n, elements=counts), hnp.arrays(np.bool_, n)))
    check_every_stage(integer_ufuncs, [INT, INT, B], strategy, max_examples=50)
    check_every_stage(shift_operators, [INT, INT, B], strategy, max_examples=40)


def float_ufuncs(x, y, i, m):
    """``ldexp`` rounds once and overflows to inf (``math.ldexp`` raises); ``spacing`` of
    both zeros is the smallest subnormal; ``np.floor`` of bools is the bools (numpy 2)."""
    return (np.fix(x), np.fix(i), np.fix(m), np.conjugate(x), np.conj(i), np.spacing(x), np.spacing(i),
            np.float_power(x, y), np.float_power(i, m), np.float_power(m, x), np.ldexp(x, i), np.ldexp(i, m),
            np.ldexp(y, 3), np.floor(m), np.ceil(m), np.trunc(m))


def test_fix_spacing_float_power_and_ldexp_are_numpys_in_every_stage():
    exponents = st.integers(-2200, 2200) | INTS
    strategy = st.integers(0, 5).flatmap(lambda n: st.tuples(
        hnp.arrays(np.float64, n, elements=FLOATS | st.sampled_from([5e-324, 2.5e-308, -1.8e308])),
        hnp.arrays(np.float64, n, elements=FLOATS),
        hnp.arrays(np.int64, n, elements=exponents), hnp.arrays(np.bool_, n)))
    with np.errstate(all="ignore"):
        check_every_stage(float_ufuncs, [F, F, INT, B], strategy, max_examples=50)


def ldexp_by_a_number(x, n):
    return np.ldexp(x, n), np.ldexp(x, n & 1023)


def ldexp_of_a_small_exponent(x, n):
    return np.ldexp(x, n & 1023)


@pytest.mark.parametrize("n", [3, -5, 2**31 - 1, -2**31, 2**31, -2**31 - 1, 2**62])
def test_ldexp_of_an_array_by_a_python_int_outside_int32_is_numpys_overflow(n):
    """numpy's float loop of ``np.ldexp`` takes an int32 exponent: a Python int outside it
    raises OverflowError (a numpy int64 would not; son's ints do not say which, so the
    interpreter raises NotImplementedError and son.jit runs the call in CPython).  Found
    by son.fuzz (seed 20261128 i2687: the empty array's result was returned)."""
    x = np.array([1.5, -0.25])
    want = run_python(ldexp_by_a_number, (x, n))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert run_python(son.jit(ldexp_by_a_number), (x, n)) == want
    g = son.parse(ldexp_by_a_number, argtypes=[F, int])
    got = run_python(lambda *a: son.interpret(g, *a), (x, n))
    assert got == want or (want[1] is OverflowError and got[1] is NotImplementedError)
    masked = son.parse(ldexp_of_a_small_exponent, argtypes=[F, int])  # n & 1023 fits: no test
    assert not any(type(r) is Raise and r.exc is NotImplementedError for r in masked.live())


def more_of_numbers(a: float, b: float, k: int, j: int):
    return (np.ldexp(a, k), np.spacing(a), np.float_power(a, b), np.fix(b), np.gcd(k, j), np.lcm(j, 4),
            np.left_shift(k, j), np.right_shift(k, 2), np.invert(j))


def test_the_new_ufuncs_of_numbers_give_numpys_values():
    with np.errstate(all="ignore"):
        check_every_stage(more_of_numbers, [float, float, int, int],
                          st.tuples(FLOATS, FLOATS, st.integers(-1100, 1100), st.integers(-70, 70)),
                          max_examples=40)


def sinc(x, i, m):
    return np.sinc(x), np.sinc(i), np.sinc(m)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 5).flatmap(lambda n: st.tuples(
    hnp.arrays(np.float64, n, elements=FLOATS), hnp.arrays(np.int64, n, elements=st.integers(-9, 9)),
    hnp.arrays(np.bool_, n))))
def test_sinc_is_numpys_within_one_ulp_of_its_sin(args):
    """np.sinc is sin(pi x) / (pi x) with numpy's np.sin, whose SIMD loops may differ from
    the C library in the last bit (docs/decisions.md): within one ulp, 1.0 at zero."""
    graphs = [son.parse(sinc, argtypes=[F, INT, B], peephole=False),
              son.optimize(son.parse(sinc, argtypes=[F, INT, B]), "combined")[0]]
    with np.errstate(all="ignore"):
        want = sinc(*args)
    for run in [son.jit(sinc, fallback="error")] + [lambda *a, g=g: son.interpret(g, *a) for g in graphs]:
        for got, exp in zip(run(*[a.copy() for a in args]), want):
            np.testing.assert_array_max_ulp(got, exp, maxulp=1)


def loss(x, y):
    return np.sum(np.logaddexp(x, y) + np.sinc(x) * np.deg2rad(y) + (x + 4.0) % 7.5 + np.fmax(x, y) * x
                  + np.reciprocal(y) + np.logaddexp2(x, 0.5) + y // 0.75 + np.float_power(y, x)
                  + np.ldexp(x, 3) + np.fix(y) * x)


def test_gradients_go_through_the_element_code():
    rng = np.random.default_rng(5)
    x, y = rng.uniform(-2, 2, 9), rng.uniform(0.5, 2, 9)
    x[0] = 0.0  # sinc's own branch
    gx, gy = son.grad(loss, argnums=(0, 1))(x.copy(), y.copy())
    np.testing.assert_allclose(gx, finite_differences(loss, [x, y], 0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gy, finite_differences(loss, [x, y], 1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("body, words", [
    ("return np.deg2rad(m)", "float16"),
    ("return np.logaddexp(m, m)", "float16"),
    ("return m // m", "int8"),
    ("return m % m", "int8"),
    ("return np.reciprocal(m * 3)", "float\\(\\)"),
    ("return np.gcd(m, m)", "bools"),
    ("return np.left_shift(m, m)", "bools"),
    ("return m >> m", "bools"),
    ("return np.conj(m)", "int8"),
    ("return np.spacing(m)", "float16"),
    ("return np.gcd(m * 0.5, 2)", "floats"),
    ("return np.ldexp(m, 2)", "bool operand #1"),
    ("return np.ldexp(m * 3, 0.5)", "float operand #2"),
])
def test_bool_operands_numpy_computes_in_other_dtypes_are_refused(tmp_path, body, words):
    path = tmp_path / "case.py"
    path.write_text(f"import numpy as np\n\n\ndef f(m):\n    {body}\n")
    ns: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)  # noqa: S102 - the test's own source
    with pytest.raises(SonSyntaxError, match=words):
        son.parse(ns["f"], argtypes=[B])
