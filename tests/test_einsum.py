"""np.einsum (son/frontend/einsum.py): numpy is the oracle in every stage, with hypothesis
operands whose lengths match, broadcast (a length of 1) or differ (numpy's ValueError),
integer-valued floats and wrapping ints (every order of summation is then numpy's);
the views of one operand alias it; numpy's errors of the subscripts; son's located
refusals; gradients against finite differences and between the two modes."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import check_every_stage, finite_differences, function_from_text, run_python
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import son
from son.errors import SonSyntaxError
from son.fuzz.products import documented_einsum

I2, F1 = "int64[:, :]", "float64[]"
_ELEMENTS = {np.float64: st.integers(-3, 3).map(float),
             np.int64: st.one_of(st.integers(-3, 3), st.just(2**62)), np.bool_: st.booleans()}


def _array(dtype, shape):
    return hnp.arrays(dtype, shape, elements=_ELEMENTS[dtype])


def _operands(dtype):
    """``a`` (n, k), ``b`` (k', m) with k' = k, 1 now and then (a broadcast length) or
    k + 1 (numpy's ValueError), ``x`` (k,)."""
    return st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 5)).flatmap(
        lambda d: st.tuples(_array(dtype, (d[0], d[1])),
                            _array(dtype, ({0: d[1] + 1, 1: 1}.get(d[3], d[1]), d[2])),
                            _array(dtype, (d[1],))))


def contractions(a, b, x):
    return (np.einsum("ij,jk->ik", a, b), np.einsum("ij,jk", a, b), np.einsum("ij,j->i", a, x),
            np.einsum("ij->", a), np.einsum("ij->j", a), np.einsum("i,j->ij", x, x), np.einsum("i,i", x, x),
            np.einsum("ij,ij->ij", a, a), np.einsum("ij,kj,j->ik", a, a, x), np.einsum("ba", a),
            np.einsum("ik,jk->ij", b.T, b.T))


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.bool_])
def test_einsum_is_numpys_sum_of_products(dtype):
    kind = np.dtype(dtype).name
    check_every_stage(contractions, [f"{kind}[:, :]", f"{kind}[:, :]", f"{kind}[]"], _operands(dtype),
                      max_examples=25)


def diagonals(a, c):
    return (np.einsum("ii", a), np.einsum("ii->i", a), np.einsum("ij->ji", a), np.einsum("iij->j", c),
            np.einsum("iji->ij", c), np.einsum("ijk->kij", c), np.einsum("ii,i->i", a, a[0]))


def test_a_repeated_label_reads_the_diagonal_with_numpys_value_error():
    """Lengths from 1: numpy reads a diagonal of lengths (0, n) outside the array (below)."""
    shapes = st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(0, 3))
    strategy = shapes.flatmap(lambda d: st.tuples(
        _array(np.int64, (d[0], d[1] if d[2] else d[0])),
        _array(np.int64, (d[0], d[0] if d[2] != 1 else d[1], d[1]))))
    check_every_stage(diagonals, [I2, "int64[:, :, :]"], strategy, max_examples=30)


def test_numpys_diagonal_of_an_empty_axis_is_replayed_in_cpython():
    """numpy's ``'ii->i'`` of a (0, 2) array is a view of 2 elements outside the array,
    whose values son cannot know: its NotImplementedError, and son.jit runs CPython."""
    def f(a):
        return np.einsum("ii->i", a).shape

    a = np.zeros((0, 2))
    with pytest.raises(NotImplementedError, match="empty axis"):
        son.interpret(son.parse(f, args=(a,)), a)
    with pytest.warns(son.FallbackWarning, match="empty axis"):
        assert son.jit(f)(a) == f(a) == (2,)
    with pytest.raises(NotImplementedError):
        son.jit(f, fallback="error")(a)


def test_einsum_is_inlined_where_the_parse_keeps_calls():
    a, x = np.arange(6.0).reshape(2, 3), np.array([1.0, -2.0, 0.5])
    g = son.parse(contractions, args=(a, a.T.copy(), x), inline=False)
    for p in ("sccp", "inline,peephole,sccp"):
        h = son.optimize(g, son.Pipeline.of(p, inline=False))[0]
        for got, want in zip(son.interpret(h, a, a.T.copy(), x), contractions(a, a.T.copy(), x)):
            np.testing.assert_array_equal(got, want)


def written_through(a, c):
    d = np.einsum("ii->i", a)
    d[0] = 7.0
    t = np.einsum("ijk->kji", c)
    t[0, 1, 0] = -1.0
    return a, c, d.sum(), t.shape


def test_the_views_of_one_operand_write_to_it():
    a, c = np.arange(9.0).reshape(3, 3), np.arange(24.0).reshape(2, 3, 4)
    want = run_python(written_through, (a, c))
    assert want[0] == "ok"
    got = run_python(son.jit(written_through, fallback="error"), (a, c))
    assert got == want
    g = son.parse(written_through, args=(a, c))
    assert run_python(lambda *v: son.interpret(g, *v), (a, c)) == want


def test_float_sums_are_the_documented_order():
    """Terms that cancel: son adds them in index order from 0.0 (documented_einsum),
    where numpy's unrolled loops add them in another order."""
    x = np.array([1e16, 1.0, -1e16, 1.0])
    y = np.ones(4)

    def f(x, y):
        return np.einsum("i,i", x, y), np.einsum("i,j->i", x, y)

    got = son.jit(f, fallback="error")(x, y)
    assert got[0] == documented_einsum("i,i", x, y) == 1.0
    np.testing.assert_array_equal(got[1], documented_einsum("i,j->i", x, y))
    inf = np.array([np.inf, 1.0])
    assert np.isnan(son.jit(f, fallback="error")(inf, np.array([0.0, 1.0]))[1][0])  # inf * 0 + inf * 1


@pytest.mark.parametrize("text, exc", [
    ("np.einsum('i,i', a)", "fewer operands|more operands"),
    ("np.einsum('ij', a)", "too many subscripts"),
    ("np.einsum('i->j', a)", "never appeared"),
    ("np.einsum('i->ii', a)", "multiple times"),
    ("np.einsum('i1', a)", "letters"),
])
def test_numpys_errors_of_the_subscripts_raise_when_the_call_runs(tmp_path, text, exc):
    f = function_from_text(tmp_path, f"def f(a, k: bool):\n    if k:\n        return {text}\n    return a\n")
    a = np.ones(2)
    with pytest.raises(ValueError, match=exc):
        f(a, True)
    kernel = son.jit(f, fallback="error")
    np.testing.assert_array_equal(kernel(a, False), a)
    with pytest.raises(ValueError, match=exc):
        kernel(a, True)


@pytest.mark.parametrize("text, where", [
    ("np.einsum(a, [0], a, [0])", "not a string constant"),
    ("np.einsum('...i', a)", "'...'"),
    ("np.einsum('i,i', a, a, optimize=True)", "keywords"),
    ("np.einsum('i,', a, 2.0)", "son takes bool, int64 and float64 arrays"),
    ("np.einsum('i,i', a, [1.0, 2.0])", "son takes bool, int64 and float64 arrays"),
    ("np.einsum('ij,kl->ijkl', a.reshape(2, -1), a.reshape(2, -1))", "4-D"),
    ("np.einsum('a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q->', " + "a, " * 17 + ")", "more than 16 labels"),
])
def test_what_son_does_not_build_is_refused_where_it_is_written(tmp_path, text, where):
    fn = function_from_text(tmp_path, f"def f(a, k: bool):\n    return {text}\n")
    with pytest.raises(SonSyntaxError, match=where) as info:
        son.parse(fn, argtypes=[F1, "bool"])
    assert "case.py:" in str(info.value)


def bilinear(a, x, y):
    return np.sum(np.einsum("ij,i,j->i", a, x, y) ** 2) + np.einsum("ii", a) * np.einsum("i,i", x, y)


@pytest.mark.parametrize("interpret", [False, True])
def test_gradients_through_einsum_agree_with_finite_differences(interpret):
    rng = np.random.default_rng(7)
    args = (rng.standard_normal((3, 3)), rng.standard_normal(3), rng.standard_normal(3))
    grads = son.grad(bilinear, argnums=(0, 1, 2), interpret=interpret)(*args)
    for k, g in enumerate(grads):
        assert g.shape == args[k].shape
        np.testing.assert_allclose(g, finite_differences(bilinear, args, k), rtol=1e-5, atol=1e-6)
    tangents = tuple(rng.standard_normal(np.shape(a)) for a in args)
    _, t = son.jvp(bilinear, interpret=interpret)(args, tangents)
    assert t == pytest.approx(sum(float(np.sum(g * d)) for g, d in zip(grads, tangents)), rel=1e-9)
