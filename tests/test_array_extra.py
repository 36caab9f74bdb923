"""np.convolve, np.gradient, np.histogram and the method forms of numpy functions
(son/frontend/arrayextra.py): numpy is the oracle in every stage, with hypothesis inputs
(empty arrays, NaN, infinities, signed zeros, int64 edges, values on the bin edges,
ranges that numpy refuses).  numpy's float convolution is BLAS's dot, whose order is
the machine's: bit for bit where every order agrees, and son's documented order
otherwise."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, function_from_text, run_python
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError

#: numpy's histogram of bools warns that it reads them as uint8 (son counts them so)
pytestmark = pytest.mark.filterwarnings("ignore:Converting input from bool:RuntimeWarning")

F, I64, B = "float64[]", "int64[]", "bool[]"
EDGES = [0.0, -0.0, 0.5, 1.0, 1.0, 2.0, -3.25, 1e300, -1e-300, np.nan, np.inf, -np.inf]
FLOATS = st.one_of(st.sampled_from(EDGES), st.floats(-100, 100))
FLOAT_ARRAYS = st.lists(FLOATS, max_size=7).map(lambda xs: np.array(xs, dtype=np.float64))
INTS = st.one_of(st.integers(-4, 4), st.sampled_from([-2**63, 2**63 - 1, 3037000500]))
INT_ARRAYS = st.lists(INTS, max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
BOOL_ARRAYS = st.lists(st.booleans(), max_size=7).map(lambda xs: np.array(xs, dtype=np.bool_))
ARRAYS = {F: FLOAT_ARRAYS, I64: INT_ARRAYS, B: BOOL_ARRAYS}
#: floats whose products and sums are exact, so that every summation order agrees
EXACT = st.sampled_from([0.0, -0.0, 1.0, -2.0, 3.0, 0.5, 7.0, -16.0, np.nan, np.inf, -np.inf])


def convolutions(a, v):
    return np.convolve(a, v), np.convolve(a, v, "same"), np.convolve(a, v, mode="valid"), \
        np.convolve(v, a[::-1], "full")


@pytest.mark.parametrize("types", [(I64, I64), (B, B), (I64, B), (B, I64)])
def test_convolve_of_ints_and_bools_is_numpys(types):
    check_every_stage(convolutions, list(types), st.tuples(ARRAYS[types[0]], ARRAYS[types[1]]),
                      max_examples=60)


@pytest.mark.parametrize("types", [(F, F), (F, I64), (B, F)])
def test_convolve_of_floats_is_numpys_where_every_order_agrees(types):
    exact = {F: st.lists(EXACT, max_size=20).map(np.array),
             I64: st.lists(st.integers(-5, 5), max_size=20).map(lambda xs: np.array(xs, dtype=np.int64)),
             B: BOOL_ARRAYS}
    check_every_stage(convolutions, list(types), st.tuples(exact[types[0]], exact[types[1]]), max_examples=60)


def _in_order(a, v, mode):
    """son's documented convolution: each element summed in the longer operand's order."""
    a, v = np.asarray(a, dtype=np.float64), np.asarray(v, dtype=np.float64)
    if len(v) > len(a):
        a, v = v, a
    n1, n = len(a), len(v)
    left, length = {"full": (n - 1, n1 + n - 1), "same": (n // 2, n1), "valid": (0, n1 - n + 1)}[mode]
    out = np.zeros(length)
    for o in range(length):
        s = 0.0
        for i in range(max(0, o - left), min(n1, o - left + n)):
            s += a[i] * v[n - 1 - i + o - left]
        out[o] = s
    return out


def test_convolve_of_floats_sums_in_order_and_is_numpys_to_the_last_bits():
    rng = np.random.default_rng(5)
    kernel = son.jit(convolutions)
    for n1, n2 in [(1, 1), (5, 3), (3, 5), (40, 17), (17, 40), (9, 9), (64, 20)]:
        a, v = rng.standard_normal(n1), rng.standard_normal(n2)
        got = kernel(a, v)
        for mine, want, args in zip(got, convolutions(a, v), [(a, v, "full"), (a, v, "same"), (a, v, "valid"),
                                                             (v, a[::-1], "full")]):
            assert mine.dtype == want.dtype and mine.shape == want.shape
            assert np.array_equal(mine, _in_order(*args))
            np.testing.assert_allclose(mine, want, rtol=1e-12, atol=1e-12)


def convolve_empty(a, v):
    return np.convolve(a, v, "valid")


def test_convolve_of_an_empty_operand_is_numpys_value_error():
    for args in [(np.zeros(0), np.ones(3)), (np.ones(2), np.zeros(0)), (np.zeros(0), np.zeros(0))]:
        assert run_python(convolve_empty, args) == ("raise", ValueError)
        with pytest.raises(ValueError):
            son.jit(convolve_empty)(*args)
        with pytest.raises(ValueError):
            son.interpret(son.parse(convolve_empty, argtypes=[F, F]), *args)


def gradients(f, h: float, k: int):
    return np.gradient(f), np.gradient(f, h), np.gradient(f[::-1], k), np.gradient(f, edge_order=1)


@pytest.mark.parametrize("dtype", [F, I64])
def test_gradient_is_numpys_differences(dtype):
    spacing = st.one_of(FLOATS, st.sampled_from([0.0, -0.0, 1e-310]))
    check_every_stage(gradients, [dtype, "float", "int"],
                      st.tuples(ARRAYS[dtype], spacing, st.sampled_from([1, -2, 0, 3, 2**62])),
                      max_examples=80)


def test_gradient_of_one_element_is_numpys_value_error():
    for args in [(np.zeros(1), 1.0, 1), (np.zeros(0), 2.0, 1)]:
        assert run_python(gradients, args) == ("raise", ValueError)
        with pytest.raises(ValueError):
            son.jit(gradients)(*args)


def histograms(a, bins: int, lo: float, hi: float):
    return np.histogram(a, bins, (lo, hi)), np.histogram(a, bins=bins, range=(lo, hi)), np.histogram(a, bins)


def histograms_of_int_ranges(a, bins: int, lo: int, hi: int):
    return np.histogram(a, bins, (lo, hi)), np.histogram(a, range=(lo - 0.5, hi)), np.histogram(a)


def _mostly_ordered(args):
    """Most ranges in order (numpy's ValueError for the others)."""
    a, bins, lo, hi = args
    return (a, bins, lo, hi) if bins == 5 else (a, bins, *sorted((lo, hi), key=lambda x: (x != x, x)))


def _histogram_expected(fn, args):
    """numpy's outcome; where its last histogram (no range: ``a.min()``, ``a.max()``)
    is reached and the maximum is a zero of either sign, son's documented refusal."""
    want = run_python(fn, args)
    a = args[0]
    if want[0] == "ok" and a.dtype.kind == "f" and len(a) and np.isfinite(a).all():
        zeros = a[a == 0]
        if a.max() == 0 and a.min() < 0 and np.signbit(zeros).any() and (~np.signbit(zeros)).any():
            return ("raise", NotImplementedError)  # which zero a.max() gives is numpy's kernels' choice
    return want


def _on_edges(a, bins, lo, hi):
    """``a`` with some elements moved onto numpy's bin edges."""
    if bins >= 1 and np.isfinite(lo) and np.isfinite(hi) and lo < hi and len(a):
        edges = np.linspace(lo, hi, bins + 1)
        a = a.copy()
        a[::2] = edges[np.arange(len(a[::2])) % len(edges)]
    return a


@pytest.mark.parametrize("dtype", [F, I64, B])
def test_histogram_is_numpys_counts_and_edges(dtype):
    bounds = st.one_of(st.sampled_from([0.0, -0.0, 1.0, 3.0, -2.5, 0.1, 1e-300, 7.0, np.nan, np.inf]),
                       st.floats(-10, 10))
    inputs = st.tuples(ARRAYS[dtype], st.integers(-1, 7), bounds, bounds).map(_mostly_ordered)
    adjust = (lambda args: (_on_edges(*args), *args[1:])) if dtype == F else None
    check_every_stage(histograms, [dtype, "int", "float", "float"], inputs, max_examples=100,
                      expected=_histogram_expected, adjust=adjust)


@pytest.mark.parametrize("dtype", [F, I64, B])
def test_histogram_of_int_ranges_is_numpys(dtype):
    arrays = ARRAYS[dtype] if dtype != I64 else st.lists(st.one_of(INTS, st.sampled_from(
        [-2**62, 2**62, 2**53 + 1])), max_size=7).map(lambda xs: np.array(xs, dtype=np.int64))
    ints = st.one_of(st.integers(-5, 9), st.sampled_from([-2**63, 2**63 - 1, 2**53 + 1, 0]))
    check_every_stage(histograms_of_int_ranges, [dtype, "int", "int", "int"],
                      st.tuples(arrays, st.integers(-1, 6), ints, ints).map(_mostly_ordered),
                      max_examples=100, expected=_histogram_expected)


def int_range_histogram(a, bins: int, lo: int, hi: int):
    return np.histogram(a, bins, (lo, hi))


def test_histogram_compares_ints_with_int_bounds_exactly():
    big = 2**53  # where int64 values and their doubles part
    a = np.array([big + 3, big + 4, big + 5, big + 9, big + 11, -2**63, 2**63 - 1], dtype=np.int64)
    cases = [(a, 2, big + 4, big + 9), (a, 3, big + 3, big + 11), (a, 1, -2**63, 2**63 - 1),
             (a, 4, -2**63 + 1025, 2**63 - 1), (a[:4], 2, big + 5, big + 5), (a, 5, big + 4, big + 6)]
    check_every_stage(int_range_histogram, [I64, "int", "int", "int"], st.sampled_from(cases),
                      max_examples=12)


def test_histogram_width_of_int_bounds_is_numpys_unsigned_difference():
    from numpy.lib._histograms_impl import _unsigned_subtract

    from son.frontend.arrayextra import _width_of_ints

    width = son.jit(_width_of_ints)
    for lo, hi in [(-2**63, 2**63 - 1), (-2**63 + 1025, 2**63), (-2**63, 1023), (-2**63 + 3, 2**62 + 5000),
                   (-5, 2**63 - 1), (0, 2**53 + 1), (-1, 2**63 - 1), (-2**63, -2**63 + 1),
                   (-9223372036853979698, 7286880724057471465), (-9223372036854216448, 5001195867571236352)]:
        hi = min(hi, 2**63 - 1)
        want = float(_unsigned_subtract(np.int64(hi), np.int64(lo)))
        assert width(lo, hi) == want == _width_of_ints(lo, hi), (lo, hi)


def histogram_of_many_bins(a, bins: int):
    return np.histogram(a, bins, (0.0, 1.0))


def test_histogram_bins_by_numpys_edge_correction():
    # many bins and the values on (and one ULP beside) every edge: the first estimate of
    # the bin is wrong for some of them, and numpy's correction by the edges decides
    rng = np.random.default_rng(11)
    cases = []
    for bins in (3, 7, 10, 49, 100, 1000):
        edges = np.linspace(0.0, 1.0, bins + 1)
        beside = np.nextafter(edges, 2.0), np.nextafter(edges, -1.0)
        a = np.concatenate((edges, *beside, rng.uniform(0, 1, 50)))
        cases.append((a, bins))
    check_every_stage(histogram_of_many_bins, [F, "int"], st.sampled_from(cases), max_examples=12)


def test_histogram_of_a_zero_maximum_beside_the_other_zero_is_not_guessed():
    def f(a):
        return np.histogram(a, 2)

    counts, edges = son.jit(f, fallback="error")(np.array([-1.0, -0.0, -0.0]))
    assert np.array_equal(counts, [1, 2]) and np.signbit(edges[-1])
    with pytest.raises(NotImplementedError):
        son.jit(f, fallback="error")(np.array([-1.0, 0.0, -0.0]))


def methods(a, k: int):
    return a.repeat(k), a.clip(-1.0, 2.0), a.cumprod(), a.nonzero(), a.searchsorted(1.0), \
        a.searchsorted(a, side="right"), a[::-1].repeat(2)


def _functions(a, k: int):
    return np.repeat(a, k), np.clip(a, -1.0, 2.0), np.cumprod(a), np.nonzero(a), np.searchsorted(a, 1.0), \
        np.searchsorted(a, a, side="right"), np.repeat(a[::-1], 2)


def rounded(a):
    return a.round(), a.round(1), a.round(decimals=-1)


@pytest.mark.parametrize("dtype", [F, I64])
def test_methods_are_numpys_functions(dtype):
    check_every_stage(methods, [dtype, "int"], st.tuples(ARRAYS[dtype], st.integers(-1, 3)), max_examples=60)
    a = {F: np.array([3.0, -0.5, 2.25]), I64: np.array([3, -1, 2])}[dtype]
    assert run_python(methods, (a, 2)) == run_python(_functions, (a, 2))


def test_round_method_of_floats_is_np_round():
    check_every_stage(rounded, [F], st.tuples(FLOAT_ARRAYS))


def test_trace_method_of_a_2d_array_is_np_trace():
    def f(m):
        return m.trace(), m.reshape(-1).repeat(2)

    m = np.arange(12.0).reshape(3, 4) / 7
    got = son.jit(f)(m)
    assert got[0] == np.trace(m) and np.array_equal(got[1], np.repeat(m.reshape(-1), 2))


def test_method_receiver_is_evaluated_once():
    def f(a, k: int):
        s = 0
        b = a
        for _ in range(3):
            b = b.repeat(k)
            s += len(b)
        return s

    assert son.jit(f)(np.ones(2), 2) == f(np.ones(2), 2) == 4 + 8 + 16


@pytest.mark.parametrize("text, where", [
    ("def f(a: np.ndarray):\n    return np.convolve(a, a, 'circular')\n", "mode"),
    ("def f(a: np.ndarray):\n    return np.convolve(a.reshape(1, -1), a)\n", "2-D array"),
    ("def f(a: np.ndarray):\n    return np.gradient(a, edge_order=2)\n", "edge_order="),
    ("def f(a: np.ndarray):\n    return np.gradient(a, axis=0)\n", "axis="),
    ("def f(a: np.ndarray):\n    return np.gradient(a, a)\n", "coordinates"),
    ("def f(a: np.ndarray):\n    return np.gradient(a > 0)\n", "of bools"),
    ("def f(a: np.ndarray):\n    return np.histogram(a, 3.0)\n", "bins"),
    ("def f(a: np.ndarray):\n    return np.histogram(a, a)\n", "bin edges"),
    ("def f(a: np.ndarray):\n    return np.histogram(a, 'auto')\n", "estimator"),
    ("def f(a: np.ndarray):\n    return np.histogram(a, 3, density=True)\n", "density="),
    ("def f(a: np.ndarray):\n    return np.histogram(a, 3, weights=a)\n", "weights="),
    ("def f(a: np.ndarray):\n    return np.histogram(a, 3, (False, True))\n", "range"),
    ("def f(a: np.ndarray):\n    return (a > 0).round()\n", "bool array"),
])
def test_what_son_does_not_build_is_refused_where_it_is_written(tmp_path, text, where):
    fn = function_from_text(tmp_path, text)
    with pytest.raises(SonSyntaxError, match=where) as info:
        son.parse(fn, argtypes=[F])
    assert "case.py:" in str(info.value)


def stacks(a, b):
    return np.stack([a, b]), np.stack((b, a, b), axis=0)


def test_stack_of_1_d_arrays_is_numpys_rows_and_value_error():
    """``np.stack`` of 1-D arrays is ``np.vstack``'s rows; arrays of other lengths are
    numpy's ValueError."""
    same = st.integers(0, 5).flatmap(lambda n: st.tuples(
        st.lists(FLOATS, min_size=n, max_size=n), st.lists(FLOATS, min_size=n, max_size=n)))
    pairs = same.map(lambda p: (np.array(p[0]), np.array(p[1]))) | st.tuples(FLOAT_ARRAYS, FLOAT_ARRAYS)
    check_every_stage(stacks, [F, F], pairs, max_examples=30)


def triangles(a, i, k):
    return np.triu(a), np.tril(a, -1), np.triu(i, k=k), np.tril(i > 0, k), np.tril(a, k)


def test_triu_and_tril_are_numpys_copies_with_zeros_of_their_dtype():
    shapes = st.tuples(st.integers(0, 4), st.integers(0, 4))
    grid = shapes.flatmap(lambda s: hnp.arrays(np.float64, s, elements=FLOATS))
    ints2 = shapes.flatmap(lambda s: hnp.arrays(np.int64, s, elements=INTS))
    check_every_stage(triangles, ["float64[:, :]", "int64[:, :]", int],
                      st.tuples(grid, ints2, st.integers(-6, 6)), max_examples=30)


def test_triu_of_a_1_d_array_is_refused_where_written(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import numpy as np\n\ndef f(a: np.ndarray):\n    return np.triu(a)\n")
    with pytest.raises(SonSyntaxError, match=r"np.triu\(\) of .*son takes 2-D arrays"):
        son.parse_source(path.read_text(), name="f", filename=str(path))


def krons(a, i):
    return np.kron(a, i), np.kron(i > 0, i < 2), np.kron(i, i)


def test_kron_of_1_d_arrays_is_numpys():
    check_every_stage(krons, [F, I64], st.tuples(FLOAT_ARRAYS, INT_ARRAYS), max_examples=30)


def krons_2d(m, k, a):
    """2-D operands (a 1-D one seen as a row): each element one product, numpy's dtype;
    np.outer of n-D operands flattens them in C order, whatever their layout."""
    return (np.kron(m, k), np.kron(k, a), np.kron(a, m > 0), np.kron(m > 0, k < 2), np.outer(m, k),
            np.outer(m.T, a), np.outer(k[::-1], m))


def test_kron_of_2_d_arrays_and_outer_of_n_d_arrays_are_numpys():
    shapes = st.tuples(st.integers(0, 3), st.integers(1, 3))
    check_every_stage(krons_2d, ["float64[:, :]", "int64[:, :]", F], st.tuples(
        shapes.flatmap(lambda s: st.lists(FLOATS, min_size=s[0] * s[1], max_size=s[0] * s[1]).map(
            lambda xs: np.array(xs, dtype=np.float64).reshape(s))),
        shapes.flatmap(lambda s: st.lists(st.integers(-3, 3), min_size=s[0] * s[1], max_size=s[0] * s[1]).map(
            lambda xs: np.array(xs, dtype=np.int64).reshape(s))),
        FLOAT_ARRAYS), max_examples=25)
