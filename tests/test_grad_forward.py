"""Forward mode, the derivative rule table, multi-value returns and the gradient API.

Oracles: central finite differences (every rule, every control shape), closed forms
(dot products, polynomials), CPython (primal values), and the interpreter against
compiled kernels.  Most checks run in the interpreter (``interpret=True``); a few
compile kernels.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import son
from son.errors import SonError
from son.exec.interp import interpret
from son.grad.forward import jvp_graph
from son.grad.rules import DISCRETE, NOT_DIFFERENTIABLE, PARTIALS, STRUCTURAL
from son.nodes import FLOAT, INT, ArrayType, IEEEDiv, IEEEPow, Mul, Return, VerifyError

SETTINGS = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
F64 = ArrayType("float64")


def fd(f, args: list, k: int, h: float = 1e-6) -> float:
    """Central finite difference of scalar ``f`` in argument ``k``."""
    step = h * max(1.0, abs(args[k]))
    hi, lo = list(args), list(args)
    hi[k] += step
    lo[k] -= step
    return (f(*hi) - f(*lo)) / (2 * step)


def close(a: float, b: float, tol: float = 2e-5) -> bool:
    return abs(a - b) <= tol * (1.0 + abs(b))


# ====================================================================== multi-value Return
def _loop_with_early_return(x, n):
    s = 0.0
    i = 0
    while i < n:
        s = s + x
        if s > 10.0:
            return s
        i += 1
    return s * 2.0


def _add_values(g, extra):
    """Give every Return of ``g`` the values ``extra(r)`` after its own."""
    for k, r in enumerate(list(g.stop.inputs)):
        if type(r) is Return:
            g.stop.set_input(k, Return(g, r.inputs[0], r.inputs[1], *r.values, *extra(r)))
    g.verify()
    return g


def test_multi_value_return_through_interpreter_printer_and_kernel():
    g = son.parse(_loop_with_early_return, argtypes=[FLOAT, INT])
    g = _add_values(g, lambda r: [Mul(g, r.value, r.value), g.param(1)])
    assert str(g).splitlines()[0].endswith("-> (float, float, int):")
    assert "return %37, (%37*%37), n" in str(g) or ", n  [from" in str(g)
    for x, n in [(1.5, 3), (4.0, 5), (1.0, 0)]:
        v = _loop_with_early_return(x, n)
        assert interpret(g, x, n) == (v, v * v, n)
        assert son.compile(g)(x, n) == (v, v * v, n)
    h, _ = son.optimize(g, "sccp")
    assert interpret(h, 4.0, 5) == (12.0, 144.0, 5)
    assert "return " in str(son.schedule(h))


def test_multi_value_return_from_a_merge_that_only_returns():
    """The kernel writes a `return (a, b)` at each branch into the returning merge."""
    def pick(x, y):
        if x > y:
            return x
        return y

    g = son.parse(pick, argtypes=[FLOAT, FLOAT])
    g = _add_values(g, lambda r: [g.param(0)])
    k = son.compile(g)
    assert "return (" in k.source
    for x, y in [(1.0, 2.0), (3.0, -1.0)]:
        assert interpret(g, x, y) == k(x, y) == (max(x, y), x)


def test_verifier_refuses_returns_of_different_arity():
    g = son.parse(_loop_with_early_return, argtypes=[FLOAT, INT])
    r = g.returns()[0]
    ctrl, mem, v = r.inputs
    g.stop.add_input(Return(g, ctrl, mem, v))  # a second, one-value Return
    g.stop.set_input(g.stop.inputs.index(r), Return(g, ctrl, mem, v, v))
    with pytest.raises(VerifyError, match="Returns of one graph"):
        g.verify()


# ====================================================================== the rule table
def _node_classes():
    from son import nodes

    out, stack = set(), [nodes.Node]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub not in out and sub.__module__.startswith("son.nodes"):
                out.add(sub)
                stack.append(sub)
    return out


def test_every_node_class_has_exactly_one_derivative_status():
    from son import nodes

    bases = {nodes.CFGNode, nodes.Binary, nodes.Unary, nodes.Compare, nodes.MathCall, nodes.TupleOut}
    tables = [set(PARTIALS), STRUCTURAL, set(DISCRETE), set(NOT_DIFFERENTIABLE)]
    for c in _node_classes() - bases:
        if c.__name__.startswith("_"):
            continue
        assert sum(c in t for t in tables) == 1, c.__name__


def test_ieee_nodes_give_inf_and_nan_in_interpreter_and_kernel():
    def ieee(a, b):
        return a + b

    g = son.parse(ieee, argtypes=[FLOAT, FLOAT])
    r = g.returns()[0]
    a, b = g.param(0), g.param(1)
    g.stop.set_input(0, Return(g, r.inputs[0], r.inputs[1], IEEEDiv(g, a, b), IEEEPow(g, a, b)))
    g.verify()
    k = son.compile(g)
    for x, y in [(1.0, 0.0), (-1.0, 0.0), (0.0, 0.0), (0.0, -0.5), (-8.0, 1 / 3), (10.0, 400.0), (2.0, 0.5)]:
        with np.errstate(all="ignore"):
            want = (np.float64(x) / np.float64(y), np.power(np.float64(x), np.float64(y)))
        for got in (interpret(g, x, y), k(x, y)):
            assert [canon_nan(v) for v in got] == [canon_nan(float(v)) for v in want], (x, y)


def canon_nan(v: float):
    return "nan" if math.isnan(v) else v


# ---------------------------------------------------------------- every rule vs finite differences
def r_add(x, y):
    return x + y * 3.0


def r_sub(x, y):
    return x - y


def r_mul(x, y):
    return x * y * x


def r_div(x, y):
    return x / y


def r_floordiv(x, y):
    return x // y + x


def r_mod(x, y):
    return x % y


def r_pow(x, y):
    return x ** y


def r_pow_const(x, y):
    return x ** 3 + x ** 2.5 + x ** 2 + y ** -1.5


def r_const_pow(x, y):
    return 2.0 ** x + y ** 1


def r_neg(x, y):
    return -x * y


def r_trig(x, y):
    return math.sin(x) * math.cos(y) + math.tan(x * 0.3)


def r_exp_log(x, y):
    return math.exp(x * 0.5) + math.log(y) + math.log(y, 3.0) + np.log(x)


def r_sqrt_tanh(x, y):
    return math.sqrt(x) + math.tanh(y)


def r_abs(x, y):
    return abs(x) * abs(y)


def r_min_max(x, y):
    return min(x, y) * 2.0 + max(x, y) * 3.0 + max(x, 1) + min(2, y)


def r_casts(x, y):
    n = int(x)
    return float(n) * y + x * float(3)


def r_inverse_trig(x, y):
    return math.asin(x) + math.acos(x * 0.5) + math.atan(y)


def r_hyperbolic(x, y):
    return math.sinh(x) + math.cosh(y) + math.asinh(x) + math.acosh(y + 1.5) + math.atanh(x * 0.5)


def r_exp_variants(x, y):
    return math.exp2(x) + math.expm1(y) + math.log2(y) + math.log10(y) + math.log1p(y)


def r_special(x, y):
    return math.fabs(x) + math.erf(x) + math.erfc(y) + math.cbrt(y + 4.0)


def r_piecewise_constant(x, y):
    return np.floor(x) + np.ceil(y) + np.trunc(x) + x


def r_two_args(x, y):
    return math.atan2(x, y) + math.hypot(x, y) + math.copysign(x, y) + math.fmod(x, y)


_pos = st.floats(0.2, 4.0)
_any = st.floats(-3.0, 3.0)
_unit = st.floats(-0.9, 0.9)

#: function, strategies for (x, y), and what to avoid (kinks, discontinuities)
RULE_CASES = [
    (r_add, _any, _any, None),
    (r_sub, _any, _any, None),
    (r_mul, _any, _any, None),
    (r_div, _any, _pos, None),
    (r_floordiv, _any, _pos, lambda x, y: abs((x / y) - round(x / y)) > 1e-3),
    (r_mod, _any, _pos, lambda x, y: abs((x / y) - round(x / y)) > 1e-3),
    (r_pow, _pos, _any, None),
    (r_pow_const, _pos, _pos, None),
    (r_const_pow, _any, _any, None),
    (r_neg, _any, _any, None),
    (r_trig, _any, _any, lambda x, y: abs(math.cos(x * 0.3)) > 0.1),
    (r_exp_log, _pos, _pos, None),
    (r_sqrt_tanh, _pos, _any, None),
    (r_abs, _any, _any, lambda x, y: abs(x) > 1e-3 and abs(y) > 1e-3),
    (r_min_max, _any, _any, lambda x, y: min(abs(x - y), abs(x - 1), abs(y - 2)) > 1e-3),
    (r_casts, _any, _any, lambda x, y: abs(x - round(x)) > 1e-3),
    (r_inverse_trig, _unit, _any, None),
    (r_hyperbolic, _unit, _pos, None),
    (r_exp_variants, _any, _pos, None),
    (r_special, _any, _any, lambda x, y: abs(x) > 1e-3),
    (r_piecewise_constant, _any, _any, lambda x, y: min(abs(x - round(x)), abs(y - round(y))) > 1e-3),
    (r_two_args, _any, _pos, lambda x, y: abs(x) > 1e-3 and abs((x / y) - round(x / y)) > 1e-3),
]


@pytest.mark.parametrize("fn, sx, sy, ok", RULE_CASES, ids=[c[0].__name__ for c in RULE_CASES])
def test_rule_matches_central_differences(fn, sx, sy, ok):
    jf = son.jvp(fn, interpret=True)

    @SETTINGS
    @given(sx, sy)
    def check(x, y):
        assume(ok is None or ok(x, y))
        for tangents, k in (((1.0, 0.0), 0), ((0.0, 1.0), 1)):
            value, tangent = jf((x, y), tangents)
            assert value == pytest.approx(fn(x, y), rel=1e-12, abs=1e-12)
            assert close(tangent, fd(fn, [x, y], k)), (x, y, k, tangent)

    check()


def test_partials_never_raise_where_the_primal_is_defined():
    """sqrt'(0) and (x**0.5)'(0) are inf, (x**2.5)'(0) is 0, d/dy 0**y is 0: no ZeroDivisionError."""
    def f(x, y):
        return math.sqrt(x) + x ** 0.5

    def g(x, y):
        return x ** 2.5 + x ** y

    assert son.jvp(f, interpret=True)((0.0, 1.0), (1.0, 0.0)) == (0.0, math.inf)
    assert son.jvp(g, interpret=True)((0.0, 2.0), (1.0, 1.0)) == (0.0, 0.0)
    assert son.jvp(g)((0.0, 2.0), (1.0, 1.0)) == (0.0, 0.0)


def test_min_max_partial_follows_the_operand_python_returns():
    def f(x, y):
        return min(x, y) + 2.0 * max(x, y)

    jf = son.jvp(f, interpret=True)
    # a tie: Python returns the first operand of both min and max
    assert jf((1.0, 1.0), (1.0, 0.0)) == (3.0, 3.0)
    assert jf((1.0, 1.0), (0.0, 1.0)) == (3.0, 0.0)
    assert jf((1.0, math.nan), (0.0, 1.0))[1] == 0.0


def test_abs_derivative_at_zero_is_copysign():
    def f(x):
        return abs(x)

    jf = son.jvp(f, interpret=True)
    assert jf((0.0,), (1.0,)) == (0.0, 1.0)
    assert jf((-0.0,), (1.0,)) == (0.0, -1.0)


# ====================================================================== control flow
def piecewise(x, y):
    if x < -1.0:
        r = x * y
    elif x < 1.0:
        r = x * x + y
    else:
        r = math.exp(x - 1.0) * y
    return r


def newton_sqrt(a, x0):
    x = x0
    while abs(x * x - a) > 1e-12 * a:
        x = 0.5 * (x + a / x)
    return x


def nested(x, n):
    s = 0.0
    for i in range(n):
        t = x
        j = 0
        while j < i:
            t = t * x * 0.5 + math.sin(t)
            j += 1
        s += t
    return s


def early_exit(x, n):
    s = x
    for _ in range(n):
        s = s * 1.1 + x
        if s > 50.0:
            break
        if s < -50.0:
            return -s * x
    return s


def loop_in_branch(x, y):
    r = y
    if x > 0.0:
        k = 0
        while r < 100.0 and k < 20:
            r = r * (1.0 + x) + y
            k += 1
    else:
        r = r - x * x
    return r


def test_jvp_on_branches_loops_and_early_exits_matches_finite_differences():
    cases = [
        (piecewise, [[-2.0, 1.5], [0.3, 0.7], [2.0, -1.2]], (0, 1)),
        (newton_sqrt, [[2.0, 1.0], [10.0, 3.0]], (0,)),
        (nested, [[0.7, 4], [1.1, 3]], (0,)),
        (early_exit, [[1.0, 30], [3.0, 5], [-20.0, 3]], (0,)),
        (loop_in_branch, [[0.5, 2.0], [-0.5, 2.0], [0.1, 1.0]], (0, 1)),
    ]
    for fn, points, argnums in cases:
        jf = son.jvp(fn, argnums=argnums, interpret=True)
        for p in points:
            for k in argnums:
                tangents = tuple(1.0 if j == k else 0.0 for j in argnums)
                value, tangent = jf(tuple(p), tangents)
                assert value == fn(*p)
                assert close(tangent, fd(fn, p, k)), (fn.__name__, p, k, tangent)
    # closed form: d/da sqrt(a) = 1 / (2 sqrt(a)); the loop's trip count depends on a
    assert son.jvp(newton_sqrt, argnums=0, interpret=True)((2.0, 1.0), (1.0,))[1] == \
        pytest.approx(0.5 / math.sqrt(2.0), rel=1e-9)


def test_jvp_keeps_loops_rolled():
    g = jvp_graph(son.parse(nested, argtypes=[FLOAT, INT]), (0,))
    prim = son.parse(nested, argtypes=[FLOAT, INT])
    loops = [n for n in g.nodes() if type(n).__name__ == "Loop"]
    assert len(loops) == len([n for n in prim.nodes() if type(n).__name__ == "Loop"]) == 2
    for lp in loops:  # a tangent phi next to each float phi
        kinds = [p.type for p in lp.phis()]
        assert kinds.count(FLOAT) % 2 == 0


# ====================================================================== arrays
def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def prefix_then_read(a, x):
    out = np.zeros(len(a))
    acc = 0.0
    for i in range(len(a)):
        acc = acc + a[i] * x
        out[i] = acc
    s = 0.0
    for i in range(len(a)):
        s += out[i] * out[i]
    return s


def scale_in_place(a, x):
    for i in range(len(a)):
        a[i] = a[i] * x
    return a


def test_dot_product_tangent_is_the_closed_form():
    rng = np.random.default_rng(1)
    a, b, ad, bd = (rng.standard_normal(5) for _ in range(4))
    want = (float(a @ b), float(ad @ b + a @ bd))
    for jf in (son.jvp(dot, interpret=True), son.jvp(dot)):
        v, t = jf((a, b), (ad, bd))
        assert v == pytest.approx(want[0], rel=1e-12) and t == pytest.approx(want[1], rel=1e-12)
    with pytest.raises(ValueError, match="length"):
        son.jvp(dot, interpret=True)((a, b), (ad[:3], bd))


def test_array_written_then_read_matches_finite_differences():
    a = np.array([0.5, -1.0, 2.0, 0.25])
    jf = son.jvp(prefix_then_read, argnums=1, interpret=True)
    v, t = jf((a, 1.3), (1.0,))
    assert v == prefix_then_read(a, 1.3)
    assert close(t, fd(lambda x: prefix_then_read(a, x), [1.3], 0))
    ja = son.jvp(prefix_then_read, interpret=True)
    e = np.array([0.0, 1.0, 0.0, 0.0])
    _, t = ja((a, 1.3), (e, 0.0))
    h = 1e-6
    want = (prefix_then_read(a + h * e, 1.3) - prefix_then_read(a - h * e, 1.3)) / (2 * h)
    assert close(t, want)


def test_returned_array_gets_its_tangent_array_and_kernel_agrees():
    a = np.array([1.0, 2.0, 3.0])
    ad = np.array([0.5, 0.0, -1.0])
    for jf in (son.jvp(scale_in_place, interpret=True), son.jvp(scale_in_place)):
        v, t = jf((a.copy(), 2.0), (ad.copy(), 1.0))
        np.testing.assert_allclose(v, a * 2.0)
        np.testing.assert_allclose(t, ad * 2.0 + a)


# ====================================================================== graphs
def test_jvp_graph_verifies_optimizes_and_leaves_its_input_alone():
    prim = son.parse(early_exit, argtypes=[FLOAT, INT])
    before = str(prim)
    g = jvp_graph(prim, (0,))
    assert str(prim) == before
    g.verify()
    assert g.params == [("x", FLOAT), ("n", INT), ("x_dot", FLOAT)]
    h, _ = son.optimize(g, "sccp")
    for x, n in [(1.0, 30), (-20.0, 3)]:
        assert interpret(h, x, n, 1.0) == interpret(g, x, n, 1.0)
    # a jvp graph is an ordinary graph: it can be transformed again (second derivative)
    first = son.optimize(jvp_graph(son.parse(r_trig, argtypes=[FLOAT, FLOAT]), (0,)), "sccp")[0]
    v, d1, d1_, d2 = interpret(jvp_graph(first, (0,)), 0.4, 0.2, 1.0, 1.0)
    assert d1 == d1_ and close(d2, fd(lambda x: interpret(first, x, 0.2, 1.0)[1], [0.4], 0))


def test_jvp_graph_refuses_int_and_unknown_argnums():
    prim = son.parse(nested, argtypes=[FLOAT, INT])
    with pytest.raises(SonError, match="parameter 'n' of type int"):
        jvp_graph(prim, (1,))
    with pytest.raises(SonError, match="argnum 5"):
        jvp_graph(prim, (5,))


# ====================================================================== the API
def poly(x, n):
    s = 0.0
    for _ in range(3):
        s = s * x + n
    return s


def test_jvp_specializes_per_argument_types():
    jf = son.jvp(poly, argnums=0, interpret=True)
    v1, t1 = jf((2.0, 3), (1.0,))
    g_int = jf.graph
    v2, t2 = jf((2.0, 3.0), (1.0,))
    assert jf.graph is not g_int
    assert [t for _, t in g_int.params] == [FLOAT, INT, FLOAT]
    assert [t for _, t in jf.graph.params] == [FLOAT, FLOAT, FLOAT]
    assert (v1, t1) == (poly(2.0, 3), 3 * (2 * 2.0 + 1))  # n*(x^2+x+1): d/dx = n*(2x+1)
    assert (v2, t2) == (v1, t1)
    assert jf.graph_for((FLOAT, INT)) is g_int
    with pytest.raises(SonError, match="parameter 'n' of type int"):
        son.jvp(poly, interpret=True)((2.0, 3), (1.0, 1.0))


def test_jvp_kernel_has_source_and_schedule():
    jf = son.jvp(poly, argnums=0)
    assert jf((2.0, 3.0), (1.0,)) == (poly(2.0, 3.0), 15.0)
    assert "def poly(x, n, x_dot)" in jf.source
    assert jf.schedule.blocks
    assert jf.py_func is poly


def test_api_errors_are_son_errors():
    with pytest.raises(SonError, match="not been called"):
        _ = son.jvp(poly).graph
    with pytest.raises(SonError, match="argnums"):
        son.grad(poly, argnums="x")
    with pytest.raises(SonError, match="two tuples"):
        son.jvp(poly, interpret=True)(2.0, 1.0)
    with pytest.raises(SonError, match="interpreter"):
        jf = son.jvp(poly, argnums=0, interpret=True)
        jf((1.0, 1.0), (1.0,))
        _ = jf.source


def test_jit_functions_have_graph_for_and_jvp_composes_with_them():
    jp = son.jit(poly)
    g = jp.graph_for((FLOAT, INT))
    assert g.params == [("x", FLOAT), ("n", INT)] and jp.graph_for((FLOAT, INT)) is g
    assert son.jvp(jp, argnums=0, interpret=True)((2.0, 3), (1.0,)) == (poly(2.0, 3), 15.0)


def test_son_grad_is_the_function_and_its_modules_stay_importable():
    import son.grad.forward
    import son.grad.rules

    assert callable(son.grad) and callable(son.value_and_grad) and callable(son.jvp)
    assert son.grad.forward.jvp_graph is jvp_graph
    assert son.grad.rules.PARTIALS is PARTIALS
    assert "grad" in son.__all__ and "jvp" in son.__all__


# ====================================================================== with reverse mode (G2's grad_graph)
def cubes(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * a[i] * a[i]
    return s


def orbit(x, y):
    s = 0.0
    while s < 10.0:
        s = s + x * y + math.sin(s) * x
    return s * x


def test_grad_api_shapes_and_int_argnum_error():
    g = son.grad(orbit, interpret=True)(1.0, 2.0)
    assert close(g, fd(orbit, [1.0, 2.0], 0))
    g0, g1 = son.grad(orbit, argnums=(0, 1), interpret=True)(1.0, 2.0)
    assert g0 == g and close(g1, fd(orbit, [1.0, 2.0], 1))
    assert son.grad(orbit, argnums=(1,), interpret=True)(1.0, 2.0) == (g1,)
    assert son.value_and_grad(orbit, interpret=True)(1.0, 2.0) == (orbit(1.0, 2.0), g)
    assert son.value_and_grad(orbit, (0, 1), interpret=True)(1.0, 2.0) == (orbit(1.0, 2.0), (g0, g1))
    with pytest.raises(SonError, match="'n'"):
        son.grad(poly, argnums=1, interpret=True)(2.0, 3)


def test_hessian_vector_product_through_a_loop_is_jvp_of_grad():
    a, v = np.array([1.0, 2.0, -3.0]), np.array([1.0, 0.5, -1.0])
    for hvp in (son.jvp(son.grad(cubes), interpret=True), son.jvp(son.grad(cubes))):
        g, hv = hvp((a,), (v,))
        np.testing.assert_allclose(g, 3 * a * a)
        np.testing.assert_allclose(hv, 6 * a * v)  # the Hessian is diag(6a)
    hvp = son.jvp(son.grad(orbit, argnums=0), interpret=True)
    dgdx = son.grad(orbit, interpret=True)
    _, h = hvp((1.0, 2.0), (1.0, 0.0))
    assert close(h, fd(dgdx, [1.0, 2.0], 0, h=1e-5), tol=1e-4)


def powered(x, c=2.5, n=3):
    return x ** c + x * n


def test_jvp_leaves_omitted_defaults_constant():
    """son.jvp called with fewer primals than parameters takes the rest from their
    defaults, as constants (it said '3 parameters but 1 argtypes'); son.grad agrees."""
    value, tangent = son.jvp(powered)((1.3,), (1.0,))
    assert value == powered(1.3)
    assert tangent == pytest.approx(2.5 * 1.3 ** 1.5 + 3, rel=1e-14)
    assert son.jvp(powered, argnums=0)((1.3,), (1.0,)) == (value, tangent)
    assert son.jvp(powered)((1.3, 2.5), (1.0, 0.0))[1] == pytest.approx(tangent, rel=1e-14)
    assert son.grad(powered)(1.3) == pytest.approx(tangent, rel=1e-14)
