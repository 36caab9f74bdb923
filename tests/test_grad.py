"""son.grad, son.value_and_grad and son.jvp on the gradient corpus (tests/grad_corpus.py),
against independent oracles: central finite differences of the function run by CPython,
closed-form derivatives, and autograd on the same source.

Most checks run the derivative graphs in the interpreter (``interpret=True``: no Numba
compile); ``test_compiled_*`` compile kernels for a representative subset.  Second
derivatives: ``son.jvp(son.grad(f))`` (Hessian-vector products) and
``son.grad(son.grad(f))`` (straight-line code, branches, and loops: the outer transform
differentiates the inner gradient's tapes), each checked against the other.

Every argument comes from the corpus's safe domain (away from kinks, trip-count changes
and domain edges), so a finite difference there is an honest derivative.
"""

from __future__ import annotations

import math

import grad_corpus as gc
import numpy as np
import pytest

import son
from son.errors import SonError

SEEDS = (0, 1, 2, 3)

ids = [c.name for c in gc.CASES]


def close(got, want, rtol=1e-6, atol=1e-8) -> bool:
    """Element-wise ``got ≈ want``, ``atol`` relative to the size of ``want``; a float
    never matches an array, and shapes must agree."""
    if isinstance(want, np.ndarray) != isinstance(got, np.ndarray):
        return False
    g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if g.shape != w.shape:
        return False
    scale = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
    return bool(np.allclose(g, w, rtol=rtol, atol=atol * scale))


def assert_grads(got, want, what: str, rtol=1e-6, atol=1e-8):
    assert isinstance(got, tuple) and len(got) == len(want), (what, got)
    for k, (a, b) in enumerate(zip(got, want)):
        assert close(a, b, rtol, atol), f"{what}: gradient {k}: son {a!r} vs {b!r}"


def draw(case: gc.GradCase, seed: int) -> tuple:
    return tuple(case.args(np.random.default_rng(seed)))


# one derivative object per case and kind, so each signature is transformed once per session
_MEMO: dict = {}


def memo(key, make):
    if key not in _MEMO:
        _MEMO[key] = make()
    return _MEMO[key]


def son_grad(case, argnums=None, interpret=True):
    argnums = case.argnums if argnums is None else argnums
    return memo(("grad", case.name, argnums, interpret),
                lambda: son.grad(case.fn, argnums=argnums, interpret=interpret))


def call(f, args):
    return f(*gc.copy_args(args))


# ====================================================================== the corpus itself
def test_corpus_covers_every_rule_and_control_shape():
    assert len(gc.CASES) >= 45 and len(set(ids)) == len(ids)
    rules = {r for c in gc.CASES for r in c.rules}
    shapes = {s for c in gc.CASES for s in c.shapes}
    assert set(gc.RULES) <= rules, set(gc.RULES) - rules
    assert set(gc.SHAPES) <= shapes, set(gc.SHAPES) - shapes
    assert all(c.closed is not None for c in gc.CASES if "writes" in c.shapes)
    assert sum(c.closed is not None for c in gc.CASES) >= 40
    assert sum(c.ag for c in gc.CASES) >= 45


@pytest.mark.parametrize("case", gc.CASES, ids=ids)
def test_corpus_oracles_agree(case):
    """Closed form, autograd and finite differences agree before son is asked anything."""
    for seed in SEEDS:
        args = draw(case, seed)
        fd = gc.fd_grad(case.fn, args, case.argnums)
        if case.closed is not None:
            assert_grads(tuple(case.closed(*gc.copy_args(args))), fd, "closed form vs FD", 1e-5, 1e-6)
        if case.ag:
            assert_grads(gc.autograd_grad(case, args), fd, "autograd vs FD", 1e-5, 1e-6)


# ====================================================================== first derivatives
@pytest.mark.parametrize("case", gc.CASES, ids=ids)
def test_grad_matches_finite_differences(case):
    f = son_grad(case)
    for seed in SEEDS:
        args = draw(case, seed)
        assert_grads(call(f, args), gc.fd_grad(case.fn, args, case.argnums), f"{case.name} seed {seed}",
                     1e-5, 1e-6)


@pytest.mark.parametrize("case", [c for c in gc.CASES if c.closed is not None],
                         ids=[c.name for c in gc.CASES if c.closed is not None])
def test_grad_matches_closed_form(case):
    f = son_grad(case)
    for seed in SEEDS:
        args = draw(case, seed)
        assert_grads(call(f, args), tuple(case.closed(*gc.copy_args(args))), f"{case.name} seed {seed}",
                     1e-9, 1e-10)


@pytest.mark.parametrize("case", [c for c in gc.CASES if c.ag], ids=[c.name for c in gc.CASES if c.ag])
def test_grad_matches_autograd(case):
    f = son_grad(case)
    for seed in SEEDS:
        args = draw(case, seed)
        assert_grads(call(f, args), gc.autograd_grad(case, args), f"{case.name} seed {seed}", 1e-9, 1e-10)


@pytest.mark.parametrize("case", gc.CASES, ids=ids)
def test_value_and_grad_returns_the_cpython_value(case):
    f = memo(("vg", case.name), lambda: son.value_and_grad(case.fn, argnums=case.argnums, interpret=True))
    args = draw(case, 0)
    out = call(f, args)
    assert isinstance(out, tuple) and len(out) == 2, out
    value, grads = out
    want = call(case.fn, args)
    assert value == want, (value, want)
    assert_grads(grads, gc.reference_grad(case, args), case.name, 1e-7, 1e-8)


def test_an_int_argnum_gives_the_bare_gradient_and_a_tuple_gives_a_tuple():
    x, y = 0.7, -1.3
    assert son.grad(gc.poly_mix, argnums=0, interpret=True)(x, y) == pytest.approx(y + 1 + 9 * x * x)
    assert son.grad(gc.poly_mix, interpret=True)(x, y) == pytest.approx(y + 1 + 9 * x * x)
    g = son.grad(gc.poly_mix, argnums=(1,), interpret=True)(x, y)
    assert isinstance(g, tuple) and len(g) == 1 and g[0] == pytest.approx(x - 2 * y)
    g = son.grad(gc.poly_mix, argnums=(1, 0), interpret=True)(x, y)
    assert g == pytest.approx((x - 2 * y, y + 1 + 9 * x * x))
    a = np.array([0.5, -1.0, 2.0])
    g = son.grad(gc.sum_squares, interpret=True)(a)
    assert isinstance(g, np.ndarray) and g.dtype == np.float64 and g.shape == a.shape
    assert np.array_equal(g, 2.0 * a)
    v, g = son.value_and_grad(gc.sum_squares, argnums=0, interpret=True)(a)
    assert v == gc.sum_squares(a) and np.array_equal(g, 2.0 * a)


def test_gradient_of_a_loop_over_a_long_array_in_the_interpreter():
    """Tapes grow past any initial capacity: 1100 iterations of a data-dependent loop."""
    a = np.random.default_rng(3).uniform(0.1, 1.0, 1500)
    a[1100] = -0.5  # break_loop stops here
    g = son.grad(gc.break_loop, interpret=True)(a)
    assert close(g, gc._break_loop_d(a)[0], 1e-12, 1e-14)
    x = 1.0 + 1e-4
    g = son.grad(gc.while_halve, interpret=True)(2.0 ** 40 * x)
    assert g == pytest.approx(gc._halve_d(2.0 ** 40 * x)[0], rel=1e-12)


def test_an_integer_argnum_is_refused_naming_the_parameter():
    with pytest.raises(SonError, match=r"\bn\b"):
        son.grad(gc.for_power, argnums=1, interpret=True)(1.5, 3)
    with pytest.raises(SonError, match=r"\bk\b"):
        son.grad(gc.softmax_xent, argnums=(0, 1), interpret=True)(np.array([0.1, 0.2]), 1)


# ====================================================================== forward mode
@pytest.mark.parametrize("case", gc.CASES, ids=ids)
def test_jvp_matches_directional_finite_differences(case):
    f = memo(("jvp", case.name), lambda: son.jvp(case.fn, argnums=case.argnums, interpret=True))
    for seed in SEEDS:
        rng = np.random.default_rng(100 + seed)
        args = draw(case, seed)
        tangents = tuple(gc.random_tangent(rng, args[i]) for i in case.argnums)
        out = f(tuple(gc.copy_args(args)), tuple(gc.copy_args(tangents)))
        assert isinstance(out, tuple) and len(out) == 2, out
        value, tout = out
        assert value == call(case.fn, args), (value, call(case.fn, args))
        want = gc.fd_directional(case.fn, args, case.argnums, tangents)
        assert close(tout, float(want), 1e-5, 1e-6), (case.name, seed, tout, float(want))
        # and the same number from the reference gradient: <grad, tangent>
        ref = gc.reference_grad(case, args)
        dot = sum(float(np.sum(np.asarray(g) * np.asarray(t))) for g, t in zip(ref, tangents))
        assert close(tout, dot, 1e-8, 1e-9), (case.name, seed, tout, dot)


# ====================================================================== second derivatives
HVP = [c for c in gc.CASES if c.order2]
GRAD2 = [c for c in gc.CASES if c.order2 == "grad" and not isinstance(c.args(np.random.default_rng(0))[0],
                                                                      np.ndarray)]


@pytest.mark.parametrize("case", HVP, ids=[c.name for c in HVP])
def test_hessian_vector_product_by_jvp_of_grad(case):
    k = gc.hvp_arg(case)
    f = memo(("hvp", case.name), lambda: son.jvp(son.grad(case.fn, argnums=k, interpret=True), argnums=(k,),
                                                 interpret=True))
    for seed in SEEDS:
        args = draw(case, seed)
        v = gc.random_tangent(np.random.default_rng(200 + seed), args[k])
        g, hv = f(tuple(gc.copy_args(args)), tuple(gc.copy_args((v,))))
        ref = gc.reference_grad(case, args)[case.argnums.index(k)] if k in case.argnums else None
        if ref is not None:
            assert close(g, ref, 1e-7, 1e-8), (case.name, g, ref)
        assert close(hv, gc.reference_hvp(case, args, v), 1e-5, 1e-6), (case.name, seed, hv)


@pytest.mark.parametrize("case", GRAD2, ids=[c.name for c in GRAD2])
def test_second_derivative_by_grad_of_grad(case):
    k = case.argnums[0]
    f = memo(("g2", case.name), lambda: son.grad(son.grad(case.fn, argnums=k, interpret=True), argnums=k,
                                                 interpret=True))
    for seed in SEEDS:
        args = draw(case, seed)
        d2 = call(f, args)
        assert isinstance(d2, float), d2
        assert close(d2, float(gc.reference_hvp(case, args, 1.0)), 1e-5, 1e-6), (case.name, seed, d2)


def test_mixed_second_derivatives_by_grad_of_grad():
    """d/dy (d/dx f): power_var is x ** y, so d2/dxdy = x ** (y - 1) * (1 + y log x)."""
    f = son.grad(son.grad(gc.power_var, argnums=0, interpret=True), argnums=1, interpret=True)
    x, y = 1.7, 0.6
    assert f(x, y) == pytest.approx(x ** (y - 1) * (1 + y * math.log(x)), rel=1e-10)
    h = son.grad(son.grad(gc.branch_phi, argnums=0, interpret=True), argnums=(0, 1), interpret=True)
    assert h(1.5, 0.5) == pytest.approx((2 * 0.5 ** 2, 4 * 1.5 * 0.5), rel=1e-12)   # x > y: (x y)^2
    assert h(0.5, 1.5) == pytest.approx((2.0, 2.0), rel=1e-12)                      # else: (x + y)^2


# ====================================================================== the result is a graph
def _loops(g) -> int:
    return sum(type(n).__name__ == "Loop" for n in g.nodes())


def test_reverse_mode_keeps_a_data_dependent_loop_a_loop():
    """The gradient of a while loop is one graph for every trip count: a forward loop
    that records and a backward loop that replays, nothing unrolled."""
    f = son.grad(gc.while_halve, interpret=True)
    assert f(3.0) == pytest.approx(2 * 3.0 / 16)
    g_small = f.graph
    assert f(3000.0) == pytest.approx(gc._halve_d(3000.0)[0], rel=1e-12)
    assert f.graph is g_small                       # one signature, one graph
    assert _loops(g_small) >= 2, str(g_small)


def test_gradient_graphs_print_verify_optimize_and_schedule():
    from son.nodes.verifier import verify

    f = son.grad(gc.rnn, argnums=(0, 1, 2), interpret=True)
    args = draw(gc.BY_NAME["rnn"], 0)
    want = call(f, args)
    g = f.graph
    verify(g)
    assert str(g)
    h, _ = son.optimize(g, "sccp")
    verify(h)
    son.schedule(h)
    assert_grads(tuple(son.interpret(h, *gc.copy_args(args))), want, "optimized gradient graph", 1e-15, 0)
    from son.viz.dot import to_dot

    assert "digraph" in to_dot(g)


# ====================================================================== compiled kernels
COMPILED = [c for c in gc.CASES if c.compiled]


@pytest.mark.parametrize("case", COMPILED, ids=[c.name for c in COMPILED])
def test_compiled_grad_agrees_with_the_interpreter_and_the_oracles(case):
    f = son_grad(case, interpret=False)
    for seed in SEEDS:
        args = draw(case, seed)
        got = call(f, args)
        assert_grads(got, call(son_grad(case), args), f"{case.name}: kernel vs interpreter", 1e-12, 1e-14)
        assert_grads(got, gc.reference_grad(case, args), f"{case.name}: kernel vs reference", 1e-7, 1e-8)
    assert "def " in f.source
    if "while" in case.shapes:
        assert f.source.count("while") >= 2, f.source   # a forward and a backward loop


def test_compiled_gradient_of_a_long_dot_product():
    """10^5 iterations: the tapes grow (or are not needed) in the kernel too."""
    case = gc.BY_NAME["dot"]
    f = son_grad(case, interpret=False)
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(100_000), rng.standard_normal(100_000)
    ga, gb = f(a, b)
    assert np.array_equal(ga, b) and np.array_equal(gb, a)
    nf = son_grad(gc.BY_NAME["newton_sqrt"], interpret=False)
    assert nf(1e6) == pytest.approx((0.5 / 1e3,), rel=1e-10)   # the case's argnums is (0,): a 1-tuple


def test_compiled_value_and_grad_and_jvp_and_hvp():
    rnn = gc.BY_NAME["rnn"]
    args = draw(rnn, 1)
    v, g = son.value_and_grad(gc.rnn, argnums=(0, 1, 2))(*gc.copy_args(args))
    assert v == gc.rnn(*gc.copy_args(args))
    assert_grads(g, gc.autograd_grad(rnn, args), "compiled value_and_grad(rnn)", 1e-9, 1e-10)
    xs, w, u = args
    tangents = (np.ones_like(xs), 0.5, -0.25)
    value, t = son.jvp(gc.rnn, argnums=(0, 1, 2))(tuple(gc.copy_args(args)), tangents)
    assert value == gc.rnn(*gc.copy_args(args))
    assert t == pytest.approx(float(gc.fd_directional(gc.rnn, args, (0, 1, 2), tangents)), rel=1e-6)
    lse = gc.BY_NAME["log_sum_exp"]
    a = draw(lse, 0)[0]
    vec = np.linspace(-1.0, 1.0, len(a))
    hvp = son.jvp(son.grad(gc.log_sum_exp), argnums=(0,))
    g, hv = hvp((a.copy(),), (vec,))
    assert close(g, gc._lse_grad(a), 1e-12, 1e-14) and close(hv, gc._lse_hvp((a,), vec), 1e-10, 1e-12)


# ====================================================================== what is refused, and how
def alloc_in_loop(a):
    s = 0.0
    for i in range(len(a)):
        t = np.zeros(2)
        t[0] = a[i]
        s += t[0] * t[0]
    return s


def alloc_in_branch(a, x):
    if x > 0.0:
        t = np.zeros(len(a))
    else:
        t = np.ones(len(a))
    t[0] = x
    return t[0] * x + a[0]


def test_arrays_the_reverse_sweep_cannot_track_are_refused_with_a_clear_error():
    """Issue 5 allows refusing some array constructs, never a wrong answer or a traceback:
    the message names the construct, the node and the function."""
    a = np.array([0.5, -1.0, 2.0])
    with pytest.raises(SonError, match=r"not yet differentiable.*allocated inside a loop.*alloc_in_loop"):
        son.grad(alloc_in_loop, interpret=True)(a)
    with pytest.raises(SonError, match=r"not yet differentiable.*alloc_in_branch"):
        son.grad(alloc_in_branch, argnums=(0, 1), interpret=True)(a, 0.7)
    # where the array carries no derivative it is fine: d/da (t[0] * x + a[0]) = e_0
    assert np.array_equal(son.grad(alloc_in_branch, interpret=True)(a, 0.7), [1.0, 0.0, 0.0])
    # and forward mode tracks the same arrays
    _, t = son.jvp(alloc_in_loop, interpret=True)((a.copy(),), (np.ones(3),))
    assert t == pytest.approx(2.0 * a.sum())


def test_a_son_jit_function_can_be_differentiated():
    j = son.jit(gc.chain)
    x = 1.3
    want = gc.BY_NAME["chain"].closed(x)[0]
    assert son.grad(j, interpret=True)(x) == pytest.approx(want, rel=1e-12)
    assert j(x) == gc.chain(x)


LOOP_GRAD2 = [c for c in gc.CASES if c.order2 == "hvp" and not isinstance(c.args(np.random.default_rng(0))[
    gc.hvp_arg(c)], np.ndarray)]


def _hvp1(case: gc.GradCase, args) -> float:
    """d2f/dx2 for the corpus's hvp argument by forward over reverse, the oracle that
    works through loops independently of reverse over reverse."""
    k = gc.hvp_arg(case)
    f = memo(("hvp", case.name), lambda: son.jvp(son.grad(case.fn, argnums=k, interpret=True), argnums=(k,),
                                                 interpret=True))
    return f(tuple(gc.copy_args(args)), (1.0,))[1]


@pytest.mark.parametrize("case", LOOP_GRAD2, ids=[c.name for c in LOOP_GRAD2])
def test_grad_of_grad_through_loops(case):
    """Reverse over reverse through loops that record on tapes: the outer transform gives
    the inner gradient's tape (NewArray, TapeGrow, loop Phis) one adjoint array.  Equal to
    forward over reverse (to rounding) and to the closed-form / finite-difference
    reference; no case may be refused."""
    k = gc.hvp_arg(case)
    f = memo(("g2loop", case.name), lambda: son.grad(son.grad(case.fn, argnums=k, interpret=True), argnums=k,
                                                     interpret=True))
    for seed in SEEDS:
        args = draw(case, seed)
        d2 = call(f, args)
        assert isinstance(d2, float), d2
        assert close(d2, _hvp1(case, args), 1e-12, 1e-14), (case.name, seed, d2, _hvp1(case, args))
        assert close(d2, float(gc.reference_hvp(case, args, 1.0)), 1e-5, 1e-6), (case.name, seed, d2)


@pytest.mark.parametrize("name", ["for_power", "nested_while", "break_while", "newton_cubic"])
def test_grad_of_grad_through_loops_compiled(name):
    """The same through Numba kernels (no interpret=True): the outer gradient is an
    ordinary graph whose adjoint tape is an ordinary array."""
    case = gc.BY_NAME[name]
    k = gc.hvp_arg(case)
    f = son.grad(son.grad(case.fn, argnums=k), argnums=k)
    for seed in SEEDS:
        args = draw(case, seed)
        assert close(call(f, args), _hvp1(case, args), 1e-12, 1e-14), (name, seed)


def long_while(x, a):
    """A while loop with a data-dependent trip count (up to 200: the inner gradient's tapes
    grow by copying several times), a branch, an int-started accumulator, and an array
    read and written."""
    s = 1
    i = 0
    w = np.zeros(len(a))
    while s < 1e6 and i < 200:
        j = i % len(a)
        if a[j] > 0.0:
            s = s * (1.0 + x * a[j] * 0.01) + 0.1
        else:
            s = s + math.sin(x * a[j])
        w[j] = w[j] + s * x
        i += 1
    return s + w[0] * x + w[3]


def nested_mixed(x, y, n):
    """Nested counted loops, an int-started product, two float parameters."""
    s = 0.0
    p = 1
    for _i in range(n):
        for _j in range(3):
            p = p * x + y * 0.1
        s = s + math.sin(p * y)
    return s


@pytest.mark.parametrize("interpret", [True, False], ids=["interpreted", "compiled"])
def test_grad_of_grad_through_a_long_while_loop_with_branches_and_arrays(interpret):
    a = np.random.default_rng(0).normal(size=7)
    g1 = son.grad(long_while, interpret=True)
    gg = son.grad(son.grad(long_while, interpret=True), interpret=interpret)
    hv = son.jvp(son.grad(long_while, interpret=True), argnums=(0,), interpret=True)
    for x in (0.37, 0.81):
        d2 = gg(x, a.copy())
        assert close(d2, hv((x, a.copy()), (1.0,))[1], 1e-12), (x, d2)
        fd = (g1(x + 1e-6, a.copy()) - g1(x - 1e-6, a.copy())) / 2e-6
        assert close(d2, fd, 1e-6), (x, d2, fd)
    # d/da (d/dx f): the outer derivative with respect to the array parameter
    row = son.grad(son.grad(long_while, interpret=True), argnums=1, interpret=interpret)(0.37, a.copy())
    hva = son.jvp(son.grad(long_while, interpret=True), argnums=(1,), interpret=True)
    want = np.array([hva((0.37, a.copy()), (e,))[1] for e in np.eye(len(a))])
    assert close(row, want, 1e-12), (row, want)


@pytest.mark.parametrize("interpret", [True, False], ids=["interpreted", "compiled"])
def test_mixed_second_derivatives_through_nested_loops(interpret):
    """d/dy (d/dx f) by reverse over reverse, against forward over reverse and central
    differences of d/dx f in y; n = 0 runs no iteration, n = 40 grows the tapes."""
    gxy = son.grad(son.grad(nested_mixed, argnums=0, interpret=True), argnums=1, interpret=interpret)
    hxy = son.jvp(son.grad(nested_mixed, argnums=0, interpret=True), argnums=(1,), interpret=True)
    gx = son.grad(nested_mixed, argnums=0, interpret=True)
    x, y = 0.93, 0.7
    for n in (0, 1, 40):
        d2 = gxy(x, y, n)
        assert close(d2, hxy((x, y, n), (1.0,))[1], 1e-12), (n, d2)
        assert close(d2, (gx(x, y + 1e-6, n) - gx(x, y - 1e-6, n)) / 2e-6, 1e-6), (n, d2)


def test_third_derivative_through_a_loop():
    """grad(grad(grad)): the second gradient's tapes are differentiated the same way."""
    g3 = son.grad(son.grad(son.grad(gc.for_power, interpret=True), interpret=True), interpret=True)
    assert g3(1.1, 30) == pytest.approx(30 * 29 * 28 * 1.1 ** 27, rel=1e-12)
    assert g3(1.1, 0) == 0.0
