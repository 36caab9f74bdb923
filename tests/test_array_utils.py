"""numpy's small utilities (son/frontend/arrayutils.py): np.round/np.around, np.square,
np.negative, np.sign, np.cumprod, np.flip, np.roll, np.hstack, np.ptp, np.average,
np.full_like, a.fill, a.dot.  numpy is the oracle in every stage, with hypothesis
inputs (halves, signed zeros, NaN, infinities, int64 edges)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, run_python
from hypothesis import strategies as st

import son
from son.errors import SonSyntaxError

EDGES = [0.5, 1.5, 2.5, -0.5, -2.5, -0.3, 0.0, -0.0, 1.005, 2.675, 123.456, -987.6549, 1e300, -1e-300,
         np.nan, np.inf, -np.inf]
FLOATS = st.one_of(st.sampled_from(EDGES), st.floats(-1e6, 1e6))
FLOAT_ARRAYS = st.lists(FLOATS, max_size=6).map(lambda xs: np.array(xs, dtype=np.float64))
INTS = st.one_of(st.integers(-5, 5), st.sampled_from([-2**63, 2**63 - 1, 3037000500]))
INT_ARRAYS = st.lists(INTS, max_size=6).map(lambda xs: np.array(xs, dtype=np.int64))


def rounding(a, x: float, d: int):
    return np.round(a, d), np.around(x, d), np.round(x), np.round(a)


def test_round_is_numpys_half_to_even_with_scaling():
    check_every_stage(rounding, ["float64[]", "float", "int"],
                      st.tuples(FLOAT_ARRAYS, FLOATS, st.integers(-3, 25)), max_examples=80)


def rounding_ints(a, n: int, d: int):
    return np.round(a, d), np.around(n, d), np.round(n), a.round(), np.round(a)


def test_round_of_ints_to_non_negative_decimals_is_numpys():
    """The value itself (a new array); a negative ``d`` is son's run-time refusal."""
    check_every_stage(rounding_ints, ["int64[]", "int", "int"],
                      st.tuples(INT_ARRAYS, INTS, st.integers(0, 20)))
    with pytest.raises(NotImplementedError, match="negative decimals"):
        son.jit(rounding_ints, fallback="error")(np.arange(3), 125, -1)


def to_tens(a):
    return np.round(a, -1)


def test_round_of_ints_to_a_negative_constant_is_a_located_refusal():
    with pytest.raises(SonSyntaxError, match="negative decimals"):
        son.parse(to_tens, argtypes=["int64[]"])


def elementwise(a, x: float, n: int):
    return np.square(a), np.negative(a), np.sign(a), np.sign(x), np.square(n), np.sign(n), np.negative(x)


def elementwise_ints(a):
    return np.square(a), np.negative(a), np.sign(a), np.cumprod(a)


def test_square_negative_sign_are_numpys():
    check_every_stage(elementwise, ["float64[]", "float", "int"], st.tuples(FLOAT_ARRAYS, FLOATS, INTS))
    check_every_stage(elementwise_ints, ["int64[]"], st.tuples(INT_ARRAYS))


def rearranged(a, k: int):
    return np.cumprod(a), np.flip(a), np.roll(a, k), np.hstack((a, a[1:])), np.ptp(a) if len(a) else 0.0, \
        np.average(a)


def test_rearrangements_and_reductions_are_numpys():
    check_every_stage(rearranged, ["float64[]", "int"],
                      st.tuples(FLOAT_ARRAYS.map(lambda a: a[a != 0]), st.integers(-9, 9)))


def peak_to_peak(a, k: int):
    if len(a) == 0:
        return k
    if k and len(a) % 2 == 0:
        return np.ptp(a.reshape(2, -1))
    return np.ptp(a)


def test_ptp_of_a_bool_array_is_numpys_type_error():
    """numpy's ptp subtracts two numpy bools, a TypeError; son had returned max - min as
    Python bools (1, a silent wrong answer)."""
    bools = st.lists(st.booleans(), max_size=6).map(lambda xs: np.array(xs, dtype=bool))
    check_every_stage(peak_to_peak, ["bool[]", "int"], st.tuples(bools, st.integers(0, 1)), max_examples=15)
    assert run_python(peak_to_peak, (np.array([True, False]), 0))[0] == "raise"


def flip_aliases(a):
    v = np.flip(a)
    v[0] = 7.0  # a view of a, as numpy's
    return a


def test_flip_is_a_view():
    check_every_stage(flip_aliases, ["float64[]"], st.tuples(FLOAT_ARRAYS.filter(len)))


def filled(a, b, v: float):
    c = np.full_like(b, v)
    a.fill(v)
    return c, a, b.dot(b)  # ints: numpy sums them in order (floats go to BLAS: np.dot)


def _numpy_cast(fn, args):
    v = args[2]
    if not -2.0**63 <= v < 2.0**63:  # numpy's cast of such a float to int64 is the machine's
        return ("raise", NotImplementedError)
    return run_python(fn, args)


def test_full_like_and_fill_cast_as_numpy():
    check_every_stage(filled, ["float64[]", "int64[]", "float"],
                      st.tuples(FLOAT_ARRAYS, INT_ARRAYS, FLOATS), expected=_numpy_cast)


@pytest.mark.parametrize("text, where", [
    ("def f(a: np.ndarray):\n    return np.sign(a > 0)\n", "of bools"),
    ("def f(a: np.ndarray):\n    return np.round(a.reshape(1, -1))\n", "n-D array"),
    ("def f(a: np.ndarray):\n    return np.hstack(a)\n", "tuple or list of arrays"),
])
def test_what_son_does_not_build_is_refused_where_it_is_written(tmp_path, text, where):
    from conftest import function_from_text

    fn = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=where) as info:
        son.parse(fn, argtypes=["float64[]"])
    assert "case.py:" in str(info.value)


def shapes(a, m, shape):
    v = a.reshape(shape)
    v[0, -1] = -1.0  # a view of a, as numpy's
    return np.shape(a), np.shape(m), np.ndim(m), np.size(m), a.T, a.size, a.real, m.reshape(m.shape[::-1])


def test_shape_functions_attributes_and_a_reshape_to_a_tuple_value_are_numpys():
    """Found by running Numba's test functions: ``a.reshape(shape)`` with a tuple argument,
    ``np.shape``/``np.ndim``/``np.size``, a 1-D array's ``.T``, ``.size`` and ``.real``."""
    check_every_stage(shapes, ["float64[]", "int64[:, :]", ("int", "int")],
                      st.tuples(st.just(np.arange(6.0)), st.just(np.arange(6).reshape(2, 3)),
                                st.sampled_from([(2, 3), (3, -1), (-1, 1), (6, 1), (4, -1)])),
                      max_examples=10)


def items(a, m):
    return a[1:2].item(), m[1:, 2:].item(), a[::-1][:1].item(), a.item()


def test_item_is_the_one_element_or_numpys_value_error():
    check_every_stage(items, ["float64[]", "int64[:, :]"],
                      st.tuples(FLOAT_ARRAYS.filter(lambda a: len(a) >= 1),
                                st.sampled_from([np.arange(6).reshape(2, 3), np.arange(3).reshape(1, 3)])),
                      max_examples=15)
